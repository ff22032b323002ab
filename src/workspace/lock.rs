//! The library write lock: one writer at a time per working tree.
//!
//! Held while a command reads, modifies and writes library files, so that two agents describing the
//! same directory, or a describe racing an update, apply one after the other instead of one silently
//! losing the other's change. The lock file lives in the gitignored `.lexibrary/.cache/`; the lock is
//! an OS advisory lock (`flock`), so a crashed holder never leaves it stuck.

use std::fs::{File, OpenOptions};

use anyhow::Context as _;

use crate::project::{Project, CACHE_DIR};

/// An exclusive lock on the library. Released when dropped (or when the process exits).
#[derive(Debug)]
pub struct LibraryLock {
    file: File,
}

impl LibraryLock {
    /// Block until the library lock is ours.
    pub fn acquire(project: &Project) -> anyhow::Result<LibraryLock> {
        Self::acquire_named(project, "library")
    }

    /// Block until the lock called `name` is ours. The Stack has its own (`stack`): posting and
    /// voting never wait for a long `lexictl update`.
    pub fn acquire_named(project: &Project, name: &str) -> anyhow::Result<LibraryLock> {
        let (file, path) = open(project, name)?;
        file.lock()
            .with_context(|| format!("cannot lock {}", path.display()))?;
        Ok(LibraryLock { file })
    }
}

impl LibraryLock {
    /// Like [`LibraryLock::acquire`], but if another writer holds the lock, say so on stderr and wait.
    pub fn acquire_announced(project: &Project) -> anyhow::Result<LibraryLock> {
        let (file, path) = open(project, "library")?;
        match file.try_lock() {
            Ok(()) => return Ok(LibraryLock { file }),
            Err(std::fs::TryLockError::WouldBlock) => {
                eprintln!("waiting for another lexictl update (or lexi write) in this worktree to finish…");
            }
            Err(std::fs::TryLockError::Error(err)) => {
                return Err(err).with_context(|| format!("cannot lock {}", path.display()))
            }
        }
        file.lock()
            .with_context(|| format!("cannot lock {}", path.display()))?;
        Ok(LibraryLock { file })
    }
}

/// Open (creating) the lock file in `.lexibrary/.cache/`.
fn open(project: &Project, name: &str) -> anyhow::Result<(File, std::path::PathBuf)> {
    let dir = project.library_dir().join(CACHE_DIR);
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let path = dir.join(format!("{name}.lock"));
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .with_context(|| format!("cannot open the lock file {}", path.display()))?;
    Ok((file, path))
}

impl Drop for LibraryLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}
