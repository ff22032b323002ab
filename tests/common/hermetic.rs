//! The hermetic environment for every child process a test or bench starts, in one place for the
//! unit tests (`src/lib.rs` includes it under `#[cfg(test)]`), the integration tests
//! (`tests/it/support.rs`) and the benches (each includes it with `#[path]`).
//!
//! Like jj's `TestEnvironment`, a hermetic command starts from `env_clear()`: nothing of the
//! developer's environment reaches the child unless it is on the allow-list below. A test run from
//! inside a git hook (`GIT_DIR`, `GIT_INDEX_FILE`), from a shell holding API keys or `LEXI_AUTHOR`,
//! or by someone with a personal git or Lexibrarian config sees what CI sees. The child gets:
//!
//! - from the test process, only `PATH` (to find `git` and friends), `TMPDIR` and
//!   `LLVM_PROFILE_FILE` (coverage builds);
//! - `HOME` and `XDG_CONFIG_HOME` in a directory the caller owns (a temp dir), git's system config
//!   off (`GIT_CONFIG_NOSYSTEM`) and its global config a file in that home (`GIT_CONFIG_GLOBAL`);
//! - a fixed git identity (`GIT_AUTHOR_*`, `GIT_COMMITTER_*`), which [`without_identity`] removes for
//!   code that must set its own (the CI recipes);
//! - a fixed clock: `SOURCE_DATE_EPOCH` = [`EPOCH`] (the design-file footer's `generated:` time) and
//!   git author and committer dates that start at [`EPOCH`] and tick one second per command, so
//!   commits are reproducible and still ordered. [`real_clock`] opts a command out, for a test
//!   that must see real time.
//!
//! Locale variables are not passed: children run in the C locale, so tool output (git, man) does not
//! depend on the developer's language.

#![allow(dead_code)]

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

/// The fixed clock: 2026-01-15T10:30:00Z, in seconds since the Unix epoch.
pub const EPOCH: u64 = 1_768_473_000;

/// The fixed identity every hermetic git commit is made by.
pub const NAME: &str = "Test Author";
pub const EMAIL: &str = "author@example.com";

/// Variables a hermetic command takes from the test process, when set there.
pub const PASSED_THROUGH: &[&str] = &["PATH", "TMPDIR", "LLVM_PROFILE_FILE"];

const IDENTITY: &[&str] = &[
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "GIT_COMMITTER_NAME",
    "GIT_COMMITTER_EMAIL",
];

const CLOCK: &[&str] = &["SOURCE_DATE_EPOCH", "GIT_AUTHOR_DATE", "GIT_COMMITTER_DATE"];

/// Variables git sets for its hooks and that point at a repository. In-process code under test
/// (gix, in the unit tests) reads them from the test process itself; see
/// [`forget_outer_repository`].
pub const GIT_LOCATION: &[&str] = &[
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_PREFIX",
];

/// A home directory and a clock: what every command of one fixture shares.
pub struct Hermetic {
    home: PathBuf,
    ticks: AtomicU64,
}

impl Hermetic {
    /// Commands get `home` as `HOME` (created if missing) and a clock starting at [`EPOCH`].
    pub fn new(home: impl Into<PathBuf>) -> Hermetic {
        let home = home.into();
        std::fs::create_dir_all(&home).expect("create the hermetic home");
        Hermetic {
            home,
            ticks: AtomicU64::new(0),
        }
    }

    pub fn home(&self) -> &Path {
        &self.home
    }

    /// `program` with the hermetic environment.
    pub fn command(&self, program: impl AsRef<OsStr>) -> Command {
        let mut command = Command::new(program);
        self.apply(&mut command);
        command
    }

    /// Clear `command`'s environment and give it the hermetic one; the clock ticks.
    pub fn apply<'c>(&self, command: &'c mut Command) -> &'c mut Command {
        command.env_clear();
        for name in PASSED_THROUGH {
            if let Some(value) = std::env::var_os(name) {
                command.env(name, value);
            }
        }
        command
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.home.join(".gitconfig"))
            .env("GIT_AUTHOR_NAME", NAME)
            .env("GIT_AUTHOR_EMAIL", EMAIL)
            .env("GIT_COMMITTER_NAME", NAME)
            .env("GIT_COMMITTER_EMAIL", EMAIL);
        let now = EPOCH + self.ticks.fetch_add(1, Ordering::Relaxed);
        let date = format!("{now} +0000");
        command
            .env("SOURCE_DATE_EPOCH", EPOCH.to_string())
            .env("GIT_AUTHOR_DATE", &date)
            .env("GIT_COMMITTER_DATE", &date)
    }
}

/// Remove the fixed git identity from a hermetic command.
pub fn without_identity(command: &mut Command) -> &mut Command {
    for name in IDENTITY {
        command.env_remove(name);
    }
    command
}

/// Remove the fixed clock from a hermetic command: real `generated:` times and commit dates.
pub fn real_clock(command: &mut Command) -> &mut Command {
    for name in CLOCK {
        command.env_remove(name);
    }
    command
}

/// The test process's `PATH` with `dir` in front (where cargo put the binaries under test, so that
/// git hooks and `git lexi` find them before any installed copy).
pub fn path_with(dir: &Path) -> OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::iter::once(dir.to_path_buf()).chain(std::env::split_paths(&path)))
        .expect("PATH entries join")
}

/// The test process's `PATH` without the directories that hold `program` (a test of what happens
/// when `lexictl` is not installed).
pub fn path_without(program: &str) -> OsString {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::join_paths(std::env::split_paths(&path).filter(|dir| !dir.join(program).exists()))
        .expect("PATH entries join")
}

/// Drop [`GIT_LOCATION`] from the test process itself, once. Child processes never see them (they
/// start from a cleared environment), but the unit tests run gix in-process, and gix honours
/// `GIT_INDEX_FILE` like git does: run from inside a git hook, a fixture repository would be read
/// through the outer repository's index. Std's environment lock orders this against every other
/// std reader in the process; nothing else in the test process reads these variables through libc.
pub fn forget_outer_repository() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        for name in GIT_LOCATION {
            std::env::remove_var(name);
        }
    });
}
