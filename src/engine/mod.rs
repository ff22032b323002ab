//! Writing the library: what `lexictl` and the write-side `lexi` commands do to `.lexibrary/`.
//! Every write is atomic and serialised by the library lock.

pub mod agent_rules;
pub mod bounded;
pub mod classify;
pub mod generate;
pub mod hook;
pub mod indexes;
pub mod init;
pub mod notes_sync;
pub mod start_here;
pub mod sweep;
pub mod update;
