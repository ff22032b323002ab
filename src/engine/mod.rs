//! Writing the library: what `lexictl` and the write-side `lexi` commands do to `.lexibrary/`.
//! Every write is atomic and serialised by the library lock.

pub mod agents;
pub mod bounded;
pub mod hook;
pub mod init;
pub mod notes_sync;
pub mod pre_push;
pub mod repair;
pub mod sweep;
pub mod uninstall;
pub mod update;
pub mod votes;
