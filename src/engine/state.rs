//! Per-worktree engine state: where it lives, the last commit an update processed, the last sweep, and
//! the update log.
//!
//! In a git repository everything lives under `$(git rev-parse --git-path lexibrarian)` — private to
//! the worktree, never in the working tree, never committed. Outside git it lives in the gitignored
//! `.lexibrary/.cache/state/`.

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::git::GitRepo;
use crate::library::atomic;
use crate::library::footer::now_rfc3339;
use crate::project::{Project, CACHE_DIR};

/// Log files rotate at this size…
const LOG_MAX_BYTES: u64 = 5 * 1024 * 1024;
/// …keeping this many old ones (`update.log.1` … `.3`).
const LOG_BACKUPS: u32 = 3;

/// What the last complete update processed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Processed {
    /// HEAD at the time.
    pub commit: String,
    /// The working tree had no uncommitted changes and the update wrote nothing: the library matched
    /// that exact tree.
    pub clean: bool,
    /// Fingerprint of the effective configuration and the tool version.
    pub fingerprint: String,
}

/// The engine's private directory and the files in it.
#[derive(Clone, Debug)]
pub struct StateDir {
    pub dir: PathBuf,
    /// When set, [`StateDir::log`] writes nothing (for runs that must not write).
    pub read_only: bool,
}

impl StateDir {
    pub fn new(dir: PathBuf) -> StateDir {
        StateDir {
            dir,
            read_only: false,
        }
    }

    /// The state directory of `project`: under the git directory of `git`'s worktree, or (outside
    /// git) `.lexibrary/.cache/state/`.
    pub fn for_project(project: &Project, git: Option<&GitRepo>) -> StateDir {
        StateDir::new(match git {
            Some(repo) => repo.state_dir(),
            None => project.library_dir().join(CACHE_DIR).join("state"),
        })
    }

    pub fn cache_path(&self) -> PathBuf {
        self.dir.join("cache")
    }

    pub fn log_path(&self) -> PathBuf {
        self.dir.join("update.log")
    }

    pub fn lock_path(&self) -> PathBuf {
        self.dir.join("update.lock")
    }

    /// Where the hook's background worker writes its output.
    pub fn hook_log_path(&self) -> PathBuf {
        self.dir.join("hook.log")
    }

    /// When the last successful sweep started and finished (see [`crate::engine::sweep`]).
    pub fn sweep_path(&self) -> PathBuf {
        self.dir.join("sweep")
    }

    fn state_path(&self) -> PathBuf {
        self.dir.join("state")
    }

    /// What the last complete update recorded, if anything (a corrupt state file counts as none).
    pub fn processed(&self) -> Option<Processed> {
        let text = std::fs::read_to_string(self.state_path()).ok()?;
        let field = |key: &str| {
            text.lines()
                .find_map(|line| line.strip_prefix(key)?.strip_prefix('='))
                .map(str::trim)
        };
        let commit = field("last_commit")
            .filter(|id| id.len() >= 40 && id.chars().all(|c| c.is_ascii_hexdigit()))?
            .to_string();
        Some(Processed {
            commit,
            clean: field("clean") == Some("true"),
            fingerprint: field("fingerprint").unwrap_or("").to_string(),
        })
    }

    /// The last commit an update fully processed.
    pub fn last_commit(&self) -> Option<String> {
        self.processed().map(|processed| processed.commit)
    }

    /// Record what this update processed.
    pub fn set_processed(&self, processed: &Processed) -> std::io::Result<()> {
        let text = format!(
            "last_commit={}\nclean={}\nfingerprint={}\n",
            processed.commit, processed.clean, processed.fingerprint
        );
        if std::fs::read_to_string(self.state_path()).ok().as_deref() == Some(text.as_str()) {
            return Ok(());
        }
        atomic::write(&self.state_path(), text.as_bytes())
    }

    /// Paths a `--changed-only` run saw as uncommitted changes: the next one looks at them again,
    /// in case they were reverted in between.
    pub fn pending_paths(&self) -> Vec<String> {
        std::fs::read_to_string(self.dir.join("pending"))
            .map(|text| {
                text.lines()
                    .filter(|l| !l.is_empty())
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Replace the pending paths (an empty list removes the file).
    pub fn set_pending_paths(&self, paths: &[String]) -> std::io::Result<()> {
        let path = self.dir.join("pending");
        if paths.is_empty() {
            return match std::fs::remove_file(&path) {
                Err(err) if err.kind() != std::io::ErrorKind::NotFound => Err(err),
                _ => Ok(()),
            };
        }
        let mut text = paths.join("\n");
        text.push('\n');
        atomic::write(&path, text.as_bytes())
    }

    /// Append one line to the update log, rotating it at 5 MB × 3. Logging never fails the update.
    pub fn log(&self, message: &str) {
        if self.read_only {
            return;
        }
        let path = self.log_path();
        let _ = std::fs::create_dir_all(&self.dir);
        if std::fs::metadata(&path).is_ok_and(|meta| meta.len() >= LOG_MAX_BYTES) {
            rotate(&path);
        }
        if let Ok(mut file) = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
        {
            let mut text = String::new();
            for line in message.lines() {
                text.push_str(&now_rfc3339());
                text.push(' ');
                text.push_str(line);
                text.push('\n');
            }
            let _ = file.write_all(text.as_bytes());
        }
    }
}

/// Remember the counts of the last `lexictl validate` (for `lexictl status`). Best effort: a
/// read-only checkout just has no record.
pub fn record_validation(
    project: &Project,
    counts: &std::collections::BTreeMap<crate::knowledge::validate::Severity, usize>,
) {
    let git = GitRepo::discover(&project.root).ok().flatten();
    let state = StateDir::for_project(project, git.as_ref());
    let count = |severity| counts.get(&severity).copied().unwrap_or(0);
    use crate::knowledge::validate::Severity;
    let text = format!(
        "time={}\nerrors={}\nwarnings={}\ninfo={}\n",
        now_rfc3339(),
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info)
    );
    let _ = std::fs::create_dir_all(&state.dir);
    let _ = atomic::write(&state.dir.join("validation"), text.as_bytes());
}

/// What [`record_validation`] stored: time, errors, warnings, info.
pub fn last_validation(state: &StateDir) -> Option<(String, usize, usize, usize)> {
    let text = std::fs::read_to_string(state.dir.join("validation")).ok()?;
    let field = |key: &str| {
        text.lines()
            .find_map(|line| line.strip_prefix(key)?.strip_prefix('='))
            .map(str::to_string)
    };
    let number = |key: &str| field(key).and_then(|v| v.parse().ok());
    Some((
        field("time")?,
        number("errors")?,
        number("warnings")?,
        number("info")?,
    ))
}

/// Rotate `path` if it reached the log size limit (5 MB, 3 backups).
pub fn rotate_if_large(path: &Path) {
    if std::fs::metadata(path).is_ok_and(|meta| meta.len() >= LOG_MAX_BYTES) {
        rotate(path);
    }
}

fn rotate(path: &Path) {
    let numbered = |n: u32| PathBuf::from(format!("{}.{n}", path.display()));
    let _ = std::fs::remove_file(numbered(LOG_BACKUPS));
    for n in (1..LOG_BACKUPS).rev() {
        let _ = std::fs::rename(numbered(n), numbered(n + 1));
    }
    let _ = std::fs::rename(path, numbered(1));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn processed_state_round_trips_and_rejects_garbage() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = StateDir::new(dir.path().join("s"));
        assert_eq!(state.last_commit(), None);
        let id = "0123456789abcdef0123456789abcdef01234567";
        let processed = Processed {
            commit: id.into(),
            clean: true,
            fingerprint: "f".into(),
        };
        state.set_processed(&processed).expect("write");
        assert_eq!(state.processed(), Some(processed));
        assert_eq!(state.last_commit().as_deref(), Some(id));
        std::fs::write(dir.path().join("s/state"), "last_commit=zzz\n").expect("write");
        assert_eq!(state.last_commit(), None);
    }

    #[test]
    fn the_log_rotates_at_its_limit() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = StateDir::new(dir.path().to_path_buf());
        std::fs::write(state.log_path(), vec![b'x'; LOG_MAX_BYTES as usize]).expect("write");
        state.log("after rotation");
        let current = std::fs::read_to_string(state.log_path()).expect("read");
        assert!(current.ends_with(" after rotation\n"));
        assert!(dir.path().join("update.log.1").exists());
    }
}
