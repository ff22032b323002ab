//! Per-worktree engine state: where it lives, and the one state file that remembers, between runs,
//! the last commit an update processed, the paths it must look at again, the last validation's counts
//! and the last sweep — plus the update log.
//!
//! In a git repository everything lives under `$(git rev-parse --git-path lexibrarian)` — private to
//! the worktree, never in the working tree, never committed. Outside git it lives in the gitignored
//! `.lexibrary/.cache/state/`. The state file is JSON (`state.json`), written atomically under its own
//! small lock so that an update, a validate and a sweep finishing together never lose each other's
//! record. A missing or unreadable file is an empty state: the next update is a full one.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::atomic;
use crate::git::{GitRepo, Oid};
use crate::library::footer::now_rfc3339;
use crate::project::{Project, CACHE_DIR};

/// Log files rotate at this size…
const LOG_MAX_BYTES: u64 = 5 * 1024 * 1024;
/// …keeping this many old ones (`update.log.1` … `.3`).
const LOG_BACKUPS: u32 = 3;

/// What the last complete update processed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Processed {
    /// HEAD at the time.
    pub commit: Oid,
    /// The working tree had no uncommitted changes and the update wrote nothing: the library matched
    /// that exact tree.
    pub clean: bool,
    /// Fingerprint of the effective configuration and the tool version.
    pub fingerprint: String,
    /// The update left the library current for the tree it saw — this commit and the uncommitted
    /// changes `library-writes` records ([`StateDir::library_writes_path`]) with what it wrote into
    /// the library: committing exactly that keeps the no-op fast path.
    #[serde(default)]
    pub library_written: bool,
}

/// The counts of the last `lexictl validate` (what `lexictl status` reports).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ValidationRecord {
    /// When it ran (RFC 3339 UTC).
    pub time: String,
    pub errors: usize,
    pub warnings: usize,
    pub info: usize,
}

/// When the last successful sweep started and finished, in nanoseconds since the Unix epoch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SweepRecord {
    pub started_ns: i128,
    pub finished_ns: i128,
}

/// Everything the engine remembers about this worktree between runs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct State {
    /// What the last complete update processed.
    pub processed: Option<Processed>,
    /// Paths a `--changed-only` run saw as uncommitted changes (or failed to write): the next one
    /// looks at them again, in case they were reverted in between.
    pub pending: Vec<String>,
    pub validation: Option<ValidationRecord>,
    pub sweep: Option<SweepRecord>,
    /// The fingerprint of the project model the cache's resolved imports were made with.
    pub model: Option<String>,
}

/// The engine's private directory and the files in it.
#[derive(Clone, Debug)]
pub struct StateDir {
    pub dir: PathBuf,
    /// When set, nothing is written: no log line, no state (for runs that must not write).
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

    /// The same directory, writing nothing when `read_only`.
    pub fn with_read_only(&self, read_only: bool) -> StateDir {
        StateDir {
            dir: self.dir.clone(),
            read_only,
        }
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

    /// Present while an update that writes runs; one left behind means that run was killed.
    pub fn running_marker_path(&self) -> PathBuf {
        self.dir.join("update.running")
    }

    /// Where the hook's background worker writes its output.
    pub fn hook_log_path(&self) -> PathBuf {
        self.dir.join("hook.log")
    }

    /// The last project model (manifests read), for runs that touch no manifest. The name carries
    /// the format: a model an older release saved (its `exports`/`imports` maps written as lists)
    /// is never read back, the next run rebuilds it.
    pub fn model_path(&self) -> PathBuf {
        self.dir.join("model-v2.json")
    }

    /// What the updates since the processed commit wrote into the library
    /// (`workspace::library_writes`).
    pub fn library_writes_path(&self) -> PathBuf {
        self.dir.join("library-writes")
    }

    /// The state file.
    pub fn state_path(&self) -> PathBuf {
        self.dir.join("state.json")
    }

    /// The state as last written (empty when absent or unreadable).
    pub fn read(&self) -> State {
        std::fs::read(self.state_path())
            .ok()
            .and_then(|bytes| serde_json::from_slice(&bytes).ok())
            .unwrap_or_default()
    }

    /// What the last complete update recorded, if anything.
    pub fn processed(&self) -> Option<Processed> {
        self.read().processed
    }

    /// Change the state file: read it, apply `change`, and write it back atomically when anything
    /// changed — all under the state lock, so concurrent writers never lose each other's records.
    /// Does nothing when read-only.
    pub fn edit(&self, change: impl FnOnce(&mut State)) -> std::io::Result<()> {
        if self.read_only {
            return Ok(());
        }
        std::fs::create_dir_all(&self.dir)?;
        let lock = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(self.dir.join("state.lock"))?;
        lock.lock()?;
        let before = self.read();
        let mut after = before.clone();
        change(&mut after);
        let result = if after == before {
            Ok(())
        } else {
            let text = serde_json::to_vec_pretty(&after).map_err(std::io::Error::other)?;
            atomic::write(&self.state_path(), &text)
        };
        let _ = lock.unlock();
        result
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

impl SweepRecord {
    /// The start time as RFC 3339 UTC (what the output calls "the last sweep").
    pub fn started_rfc3339(&self) -> String {
        crate::library::footer::rfc3339_from_unix(
            u64::try_from(self.started_ns / 1_000_000_000).unwrap_or(0),
        )
    }
}

impl ValidationRecord {
    /// A record of counts made now.
    pub fn now(errors: usize, warnings: usize, info: usize) -> ValidationRecord {
        ValidationRecord {
            time: now_rfc3339(),
            errors,
            warnings,
            info,
        }
    }
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
    fn the_state_round_trips_and_garbage_reads_as_empty() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = StateDir::new(dir.path().join("s"));
        assert_eq!(state.processed(), None);
        let processed = Processed {
            commit: Oid::parse("0123456789abcdef0123456789abcdef01234567").expect("oid"),
            clean: true,
            fingerprint: "f".into(),
            library_written: false,
        };
        state
            .edit(|s| s.processed = Some(processed.clone()))
            .expect("write");
        state
            .edit(|s| s.validation = Some(ValidationRecord::now(1, 2, 3)))
            .expect("write");
        assert_eq!(state.processed(), Some(processed));
        assert_eq!(state.read().validation.map(|v| v.warnings), Some(2));
        let sweep = SweepRecord {
            started_ns: 1_768_473_000_000_000_000,
            finished_ns: 1_768_473_001_000_000_000,
        };
        state.edit(|s| s.sweep = Some(sweep)).expect("write");
        assert_eq!(state.read().sweep, Some(sweep));
        assert_eq!(sweep.started_rfc3339(), "2026-01-15T10:30:00Z");
        std::fs::write(state.state_path(), "{\"processed\": {\"commit\": \"zzz\"}}")
            .expect("write");
        assert_eq!(state.read(), State::default());
    }

    #[test]
    fn read_only_state_writes_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = StateDir::new(dir.path().join("s")).with_read_only(true);
        state.edit(|s| s.pending = vec!["a".into()]).expect("no-op");
        state.log("nothing");
        assert!(!dir.path().join("s").exists());
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
