//! Git access for Lexibrarian: opening the repository that contains the project, reading `HEAD`,
//! listing which files changed between commits ([`diff`]) and which are dirty in the working tree
//! ([`status`]), where Lexibrarian keeps its per-worktree state, and the git notes that hold its
//! machine data ([`notes`]), and resolving revisions and reading files at a commit ([`RevSpec`],
//! [`GitRepo::file_at`]).
//!
//! Everything is done in-process with `gix`; nothing here runs the `git` executable. The only writes
//! to the repository are blobs and notes commits ([`notes`]). Reported paths are relative to the working tree root, `/`-separated and UTF-8;
//! paths that are not valid UTF-8 are skipped and counted (see [`GitRepo::skipped_non_utf8`]).

mod diff;
mod fifo_guard;
pub mod hooks;
pub mod notes;
mod oid;
pub mod operation;
pub(crate) mod pack;
pub mod remote;
mod revision;
mod sparse;
mod status;

#[cfg(test)]
mod tests;

use std::cell::{Cell, RefCell};
use std::path::{Path, PathBuf};

use gix::bstr::BStr;

pub use diff::GitlinkChange;
pub use oid::{ObjectFormat, Oid};
pub use operation::Operation;
pub use revision::{CommitInfo, FileAt, RevSpec, Upstream};

/// A file-level change: between two commits ([`GitRepo::diff_commits`], [`GitRepo::commit_changes`])
/// or between `HEAD` and the working tree ([`GitRepo::dirty`]). Paths are relative to the working tree
/// root, `/`-separated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Change {
    /// The file exists only on the newer side (for the working tree: a staged new file or an
    /// untracked file that is not ignored).
    Added(String),
    /// The file exists on both sides with different content or mode (for the working tree: staged,
    /// unstaged, or both).
    Modified(String),
    /// The file exists only on the older side (for the working tree: missing, or removed from the
    /// index).
    Deleted(String),
    /// The file was moved; its content may also have changed (similarity at least 50%). In the
    /// working tree, a rename staged in the index (`git mv`) with the destination still present.
    Renamed {
        /// Path on the older side.
        from: String,
        /// Path on the newer side.
        to: String,
    },
}

impl Change {
    /// The path the change is sorted by: the file's current path (`to` for renames).
    pub fn path(&self) -> &str {
        match self {
            Change::Added(p) | Change::Modified(p) | Change::Deleted(p) => p,
            Change::Renamed { to, .. } => to,
        }
    }
}

/// Errors from reading the git repository. Messages say what failed and what to check.
#[derive(Debug, thiserror::Error)]
pub enum GitError {
    /// A repository was found but could not be opened.
    #[error(
        "could not open the git repository containing {path}; check that `git status` works there"
    )]
    Open {
        /// The path discovery started from.
        path: PathBuf,
        /// What gix reported.
        #[source]
        source: gix::Error,
    },
    /// The given string is not a full hexadecimal object id.
    #[error("{0:?} is not a commit id; expected the full hexadecimal form (as printed by `git rev-parse HEAD`: 40 characters, 64 in a SHA-256 repository)")]
    InvalidCommitId(String),
    /// A revision argument that does not name a commit (or a range of them).
    #[error("`{spec}` is not a revision in this repository: {message}")]
    BadRevision {
        /// The argument as given.
        spec: String,
        /// What was wrong with it.
        message: String,
    },
    /// The commit is not in the object database.
    #[error("commit {0} is not in this repository (it may have been garbage-collected after a rebase or amend); a full rebuild will recover")]
    CommitNotFound(String),
    /// The id names an object that is not a commit.
    #[error("object {id} is a {kind}, not a commit")]
    NotACommit {
        /// The id as given.
        id: String,
        /// The kind of object found.
        kind: String,
    },
    /// The repository stores what Lexibrarian reads or writes in a format gix cannot handle: working
    /// in it would write what git never sees. The message says what to do.
    #[error("{0}")]
    Unsupported(String),
    /// Hooks cannot be installed where git would run them; the message says what to do instead.
    #[error("{0}")]
    Hooks(String),
    /// Reading or writing git notes failed.
    #[error("could not {action}: {message}")]
    Notes {
        /// What was being attempted.
        action: String,
        /// What gix reported.
        message: String,
    },
    /// `.gitignore` files that are FIFOs: the status opens every `.gitignore` it meets, and could
    /// not read these (see `fifo_guard`).
    #[error("{} is a FIFO, not a file; git's status (and this one) cannot read an ignore file that never ends — remove it", .0.join(", "))]
    IgnoreFifo(Vec<String>),
    /// Any other failure while reading the repository.
    #[error("could not {action}; check that `git status` and `git log` work in this repository")]
    Read {
        /// What was being attempted, e.g. "read HEAD".
        action: &'static str,
        /// What gix reported.
        #[source]
        source: gix::Error,
    },
}

impl GitError {
    fn read(action: &'static str) -> impl FnOnce(gix::Error) -> GitError {
        move |source| GitError::Read { action, source }
    }
}

/// An opened repository with a working tree.
///
/// It is `Send` but not `Sync`: use it from one thread at a time.
pub struct GitRepo {
    repo: gix::Repository,
    workdir: PathBuf,
    skipped_non_utf8: Cell<usize>,
    /// The submodule commits the most recent tree diff saw change.
    gitlinks: RefCell<Vec<GitlinkChange>>,
}

impl std::fmt::Debug for GitRepo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GitRepo")
            .field("workdir", &self.workdir)
            .field("git_dir", &self.repo.git_dir())
            .finish()
    }
}

impl GitRepo {
    /// Discover the repository containing `path` (walking up). `Ok(None)` when `path` is not
    /// inside a git repository or the repository is bare.
    pub fn discover(path: &Path) -> Result<Option<GitRepo>, GitError> {
        // Make the start absolute so that gix reports absolute work and git directories.
        let start = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        let repo = match gix::discover(&start) {
            Ok(repo) => repo,
            Err(err) => {
                use gix::discover::upwards::Error as Upwards;
                return match err.downcast_any_ref::<Upwards>() {
                    Some(
                        Upwards::NoGitRepository { .. }
                        | Upwards::NoGitRepositoryWithinCeiling { .. }
                        | Upwards::NoGitRepositoryWithinFs { .. },
                    ) => Ok(None),
                    _ => Err(GitError::Open {
                        path: start,
                        source: err,
                    }),
                };
            }
        };
        let Some(workdir) = repo.workdir() else {
            return Ok(None);
        };
        refuse_unsupported(&repo)?;
        let workdir = std::path::absolute(workdir).unwrap_or_else(|_| workdir.to_path_buf());
        let mut repo = repo;
        configure_in_memory(&mut repo);
        Ok(Some(GitRepo {
            repo,
            workdir,
            skipped_non_utf8: Cell::new(0),
            gitlinks: RefCell::new(Vec::new()),
        }))
    }

    /// The working tree root (absolute).
    pub fn workdir(&self) -> &Path {
        &self.workdir
    }

    /// Per-worktree private directory for Lexibrarian state: what
    /// `git rev-parse --git-path lexibrarian` prints, made absolute. That is `.git/lexibrarian` in a
    /// normal repository and `.git/worktrees/<name>/lexibrarian` in a linked worktree (the
    /// directory `.git` points to when it is a file, as in submodules). Not created here.
    pub fn state_dir(&self) -> PathBuf {
        self.git_dir().join("lexibrarian")
    }

    /// Lexibrarian's directory shared by every worktree of this clone:
    /// `$(git rev-parse --git-common-dir)/lexibrarian`, absolute. Never committed, never cloned.
    pub fn clone_dir(&self) -> PathBuf {
        let common = self.repo.common_dir();
        std::path::absolute(common)
            .unwrap_or_else(|_| common.to_path_buf())
            .join("lexibrarian")
    }

    /// The hash function of this repository's object ids.
    pub fn object_format(&self) -> ObjectFormat {
        ObjectFormat::of(self.repo.object_hash())
    }

    /// The blob id `bytes` would have in this repository, without writing anything.
    pub fn blob_id(&self, bytes: &[u8]) -> Result<Oid, GitError> {
        notes::blob_id(self.object_format(), bytes)
    }

    /// `HEAD`'s commit, or `None` when `HEAD` is unborn (no commits yet).
    pub fn head_commit(&self) -> Result<Option<Oid>, GitError> {
        let head = self.repo.head().map_err(GitError::read("read HEAD"))?;
        let id = head
            .try_into_peeled_id()
            .map_err(GitError::read("resolve HEAD to a commit"))?;
        Ok(id.map(|id| Oid::from(id.detach())))
    }

    /// Whether `commit` exists in the object database and is a commit.
    pub fn has_commit(&self, commit: &Oid) -> bool {
        matches!(
            self.repo.try_find_header(commit.inner()),
            Ok(Some(header)) if header.kind() == gix::objs::Kind::Commit
        )
    }

    /// Where `path` (a directory inside the working tree) lies relative to the working tree root:
    /// `""` for the root itself, `None` when it is outside the working tree.
    pub fn prefix_of(&self, path: &Path) -> Option<String> {
        let path = path.canonicalize().unwrap_or_else(|_| path.to_path_buf());
        let workdir = self
            .workdir
            .canonicalize()
            .unwrap_or_else(|_| self.workdir.clone());
        path.strip_prefix(&workdir)
            .ok()
            .and_then(crate::project::paths::to_rel_string)
    }

    /// The multi-step operation in progress in this worktree (rebase, `git am`, cherry-pick or
    /// revert, merge with conflicts, bisect), if any; see [`operation`].
    pub fn operation_in_progress(&self) -> Option<Operation> {
        operation::in_progress(&self.git_dir())
    }

    /// This worktree's own git directory (`.git`, or `.git/worktrees/<name>` in a linked worktree),
    /// absolute.
    pub fn git_dir(&self) -> PathBuf {
        let git_dir = self.repo.git_dir();
        std::path::absolute(git_dir).unwrap_or_else(|_| git_dir.to_path_buf())
    }

    /// Whether git hides files through a personal excludes file: `core.excludesFile`, or the
    /// default `$XDG_CONFIG_HOME/git/ignore` (`~/.config/git/ignore`).
    pub fn has_global_excludes(&self) -> bool {
        if self
            .repo
            .config_snapshot()
            .string("core.excludesFile")
            .is_some()
        {
            return true;
        }
        std::env::var_os("XDG_CONFIG_HOME")
            .filter(|value| !value.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".config")))
            .is_some_and(|base| base.join("git").join("ignore").is_file())
    }

    /// The paths (relative to the working tree, `/`-separated) git's index holds at a stage above 0:
    /// the files of a merge, rebase or cherry-pick waiting for their conflicts to be resolved
    /// (`git add` puts them back at stage 0). What git says, whatever the files' text holds.
    pub fn conflicted_paths(&self) -> std::collections::BTreeSet<String> {
        let Ok(index) = self.repo.index_or_empty() else {
            return Default::default();
        };
        index
            .entries()
            .iter()
            .filter(|entry| entry.stage_raw() > 0)
            .filter_map(|entry| std::str::from_utf8(entry.path(&index)).ok())
            .map(str::to_string)
            .collect()
    }

    /// Whether `path` (relative to the working tree, `/`-separated) is in the index.
    pub fn is_tracked(&self, path: &str) -> bool {
        self.repo
            .index_or_empty()
            .is_ok_and(|index| index.entry_by_path(BStr::new(path)).is_some())
    }

    /// How many paths the most recent [`diff_commits`](Self::diff_commits),
    /// [`commit_changes`](Self::commit_changes) or [`dirty`](Self::dirty) call left out because
    /// they are not valid UTF-8.
    pub fn skipped_non_utf8(&self) -> usize {
        self.skipped_non_utf8.get()
    }
}

/// Refuse a repository whose references live in a reftable (`extensions.refStorage = reftable`,
/// `git init --ref-format=reftable`): gix cannot read or write them yet, so `HEAD` would read as an
/// unborn branch and notes would be written as loose refs git never sees. (SHA-256 object ids are
/// supported: the `sha256` feature.)
fn refuse_unsupported(repo: &gix::Repository) -> Result<(), GitError> {
    let config = repo.config_snapshot();
    let storage = config.string("extensions.refStorage");
    match storage.map(|value| String::from_utf8_lossy(&value).to_ascii_lowercase()) {
        None => Ok(()),
        Some(value) if value == "files" => Ok(()),
        Some(value) => Err(GitError::Unsupported(format!(
            "{} stores its references in a {value} (extensions.refStorage), which Lexibrarian cannot read or write yet: it would miss HEAD and write notes git never sees\n  hint: convert it with `git refs migrate --ref-format=files` (git 2.46 or later), or use a clone made with `git clone --ref-format=files`",
            repo.git_dir().display()
        ))),
    }
}

/// Two settings of the in-memory configuration (never written to a file), in one change:
///
/// - Read the index without hashing it whole to check its trailing checksum, as git itself reads
///   it (git verifies it only in `git fsck`): at 20,000 files the SHA-1 of the 2 MB index was a
///   fifth of a post-commit `--changed-only` run's instructions. The index is never written here
///   (`index.skipHash` would also make a write leave the checksum out).
/// - A committer of last resort (`gitoxide.committer.nameFallback`/`emailFallback`, which git's
///   own `committer.*`, `user.*` and `GIT_COMMITTER_*` all come before), so that notes commits and
///   their reflog entries can be written in a clone with no identity; [`GitRepo::identity`]
///   reports `None` for it. Set whatever is configured: asking gix for the committer to decide
///   reads the clock's time zone, a millisecond of every `lexi lookup`.
fn configure_in_memory(repo: &mut gix::Repository) {
    use gix::config::tree::gitoxide;
    let mut config = repo.config_snapshot_mut();
    let _ = config.set_value(&gix::config::tree::Index::SKIP_HASH, "true");
    let _ = config.set_value(&gitoxide::Committer::NAME_FALLBACK, notes::FALLBACK_NAME);
    let _ = config.set_value(&gitoxide::Committer::EMAIL_FALLBACK, notes::FALLBACK_EMAIL);
    let _ = config.commit();
}

/// A repository path as UTF-8, or `None` (and one more skipped path counted) if it isn't.
fn utf8_path(path: &BStr, skipped: &mut usize) -> Option<String> {
    match std::str::from_utf8(path) {
        Ok(s) => Some(s.to_owned()),
        Err(_) => {
            *skipped += 1;
            None
        }
    }
}
