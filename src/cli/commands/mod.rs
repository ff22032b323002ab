//! One file per subcommand. Each defines its `Args` (documented where the flags are defined, so
//! `--help` teaches) and a `run` function returning an [`Outcome`](super::Outcome).

pub mod describe;
pub mod index;
pub mod init;
pub mod lookup;
pub mod update;
