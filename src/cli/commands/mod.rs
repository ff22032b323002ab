//! One file per subcommand. Each defines its `Args` (documented where the flags are defined, so
//! `--help` teaches) and a `run` function returning an [`Outcome`](super::Outcome).

pub mod agent_hook;
pub mod completions;
pub mod concept;
pub mod concepts;
pub mod context;
pub mod convention;
pub mod conventions;
pub mod describe;
pub mod hook;
pub mod impact;
pub mod index;
pub mod init;
pub mod iwh;
pub mod lookup;
pub mod man;
pub mod mcp;
pub mod notes;
pub mod orient;
pub mod review;
pub mod search;
pub mod setup;
pub mod stack;
pub mod status;
pub mod sweep;
pub mod trust;
pub mod update;
pub mod validate;
pub mod why;
