//! What a Lexibrarian project is on disk: where its root is, what its config says, which files are in
//! scope, and where each source file's design file and each directory's `.aindex` live.
//!
//! Everything here works on project-relative paths written with `/` separators (`src/a.rs`), the same
//! form the library files record, so paths print and compare the same on every platform.

pub mod config;
pub mod describe;
pub mod detect;
pub mod held;
pub mod ignores;
pub mod manifest;
pub mod mapping;
pub mod mirror;
pub mod paths;
pub mod practices;
pub mod scope;
pub mod walk;

use std::path::{Path, PathBuf};

pub use config::{Config, ConfigError};

use crate::{atomic, nofollow};

/// The name of the library directory at the project root.
pub const LIBRARY_DIR: &str = ".lexibrary";
/// The project config file inside [`LIBRARY_DIR`].
pub const CONFIG_FILE: &str = "config.yaml";
/// The record of what Lexibrarian added outside the library (agent integrations), inside
/// [`LIBRARY_DIR`].
pub const INTEGRATIONS_FILE: &str = "integrations.json";
/// The bootloader file inside [`LIBRARY_DIR`].
pub const START_HERE_FILE: &str = "START_HERE.md";
/// Gitignored scratch space inside [`LIBRARY_DIR`]: locks and derived caches, never reviewed.
pub const CACHE_DIR: &str = ".cache";
/// The largest library file read (a design file, an index, a concept, a Stack post): a design file
/// is a few KB within its token budget; a 32 MB one (a pull request can commit one) is reported as
/// too large, never read whole or parsed — so no command's memory grows with what a file holds.
pub const LIBRARY_FILE_MAX: u64 = 1024 * 1024;
/// How a refusal to read a file over [`LIBRARY_FILE_MAX`] ends its message.
pub const TOO_LARGE: &str = "over the 1 MiB a library file may have; not read";

/// The text of the library file at `rel` below `root`, read without following a symlink and never
/// past [`LIBRARY_FILE_MAX`]: a larger file is an `ErrorKind::FileTooLarge` error (`{rel}: N bytes,
/// over the 1 MiB …`), text that is not UTF-8 an `ErrorKind::InvalidData` error naming its line and
/// byte (`{rel}:3: not valid UTF-8 at byte 41`).
pub fn read_library_text(
    root: &std::path::Path,
    handle: &nofollow::RootHandle,
    rel: &str,
) -> std::io::Result<String> {
    let bytes = read_library(root, handle, rel)?;
    String::from_utf8(bytes).map_err(|err| {
        let at = err.utf8_error().valid_up_to();
        let line = err.as_bytes()[..at].iter().filter(|b| **b == b'\n').count() + 1;
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{rel}:{line}: not valid UTF-8 at byte {at}"),
        )
    })
}

/// The bytes of the library file at `rel` below `root`, never past [`LIBRARY_FILE_MAX`] (see
/// [`read_library_text`]).
pub fn read_library(
    root: &std::path::Path,
    handle: &nofollow::RootHandle,
    rel: &str,
) -> std::io::Result<Vec<u8>> {
    nofollow::read_below_capped(root, handle, rel, LIBRARY_FILE_MAX).map_err(|err| {
        match err.kind() {
            std::io::ErrorKind::FileTooLarge => std::io::Error::new(
                std::io::ErrorKind::FileTooLarge,
                format!("{rel}: {err} bytes, {TOO_LARGE}"),
            ),
            _ => err,
        }
    })
}

/// A discovered project: its root and its merged configuration.
#[derive(Clone, Debug)]
pub struct Project {
    /// The project root. Set once: the reads of a run go through [`Project::read`]'s handle on it.
    pub root: PathBuf,
    /// The merged configuration, without the project config's held settings.
    pub config: Config,
    /// What the project config says about where data is sent: applies only where this clone
    /// confirmed it (see [`held`] and `workspace::trust`).
    pub held: held::Held,
    /// The root opened once for every read of the run (see [`nofollow::RootHandle`]).
    handle: nofollow::RootHandle,
}

/// Why no project could be opened.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error(
        "not a Lexibrarian project (no {LIBRARY_DIR}/ in {} or any parent directory) — run `lexictl init`",
        .start.display()
    )]
    NotAProject { start: PathBuf },
    /// `.lexibrary/` or its `.cache/` is a symlink: every write would go through it.
    #[error(transparent)]
    Refused(#[from] std::io::Error),
    #[error(
        "{} is inside the git directory {} — Lexibrarian works in a repository's working tree, never in its `.git/`\n  hint: cd to the project (the directory that holds `.git/`) and run it there",
        .start.display(), .git_dir.display()
    )]
    InsideGitDir { start: PathBuf, git_dir: PathBuf },
    #[error(
        "{} is a bare git repository (it has no working tree to document){}\n  hint: run Lexibrarian in a clone with a checkout (`git clone {} <dir>`), or in a worktree of it",
        .git_dir.display(),
        if .start == .git_dir { String::new() } else { format!("; {} is inside it", .start.display()) },
        .git_dir.display()
    )]
    BareRepository { start: PathBuf, git_dir: PathBuf },
    #[error(transparent)]
    Config(#[from] ConfigError),
}

impl Project {
    /// Walk up from `start` to the nearest directory holding `.lexibrary/`, then load its config.
    pub fn discover(start: &Path) -> Result<Project, ProjectError> {
        refuse_git_dir(start)?;
        let root = find_root(start).ok_or_else(|| ProjectError::NotAProject {
            start: start.to_path_buf(),
        })?;
        Project::open(root)
    }

    /// Open the project rooted at `root` (which must hold `.lexibrary/`). The config is read
    /// without following symlinks (a symlinked `.lexibrary/` is refused with it), and a symlinked
    /// `.lexibrary/.cache/` (where locks and caches are written) is refused too.
    pub fn open(root: PathBuf) -> Result<Project, ProjectError> {
        let (config, held) = config::load_project(&root)?;
        let cache = format!("{LIBRARY_DIR}/{CACHE_DIR}");
        if nofollow::is_symlink(&root, &cache) {
            // Let the reader word it, naming the link and its target.
            let err = nofollow::open(&root, format!("{cache}/x"))
                .err()
                .unwrap_or_else(|| std::io::Error::other(format!("{cache} is a symbolic link")));
            return Err(ProjectError::Refused(err));
        }
        let mut project = Project::new(root, config);
        project.held = held;
        Ok(project)
    }

    /// The project at `root` with `config`, as given (no check that the library exists).
    pub fn new(root: PathBuf, config: Config) -> Project {
        let held = held::Held {
            llm_if_trusted: config.llm.clone(),
            ..held::Held::default()
        };
        Project {
            root,
            config,
            held,
            handle: nofollow::RootHandle::default(),
        }
    }

    /// `<root>/.lexibrary`.
    pub fn library_dir(&self) -> PathBuf {
        self.root.join(LIBRARY_DIR)
    }

    /// The derived, gitignored file of cl100k token counts remembered by content
    /// (`tokens::CountCache`), shared by `lexictl validate` and START_HERE's budget.
    pub fn token_counts_path(&self) -> PathBuf {
        self.library_dir().join(CACHE_DIR).join("token-counts")
    }

    /// The absolute path of a project-relative path.
    pub fn abs(&self, rel: &str) -> PathBuf {
        paths::join_rel(&self.root, rel)
    }

    /// The text of the library file at project-relative `rel` ([`read_library_text`]).
    pub fn read_library_text(&self, rel: &str) -> std::io::Result<String> {
        read_library_text(&self.root, &self.handle, rel)
    }

    /// The bytes of the library file at project-relative `rel` ([`read_library`]).
    pub fn read_library(&self, rel: &str) -> std::io::Result<Vec<u8>> {
        read_library(&self.root, &self.handle, rel)
    }

    /// Whether project-relative `rel` — a path read from a library file — exists: `None` when it
    /// is not a path inside the project ([`paths::is_project_path`]; then nothing is looked up),
    /// else whether something is there, looked at without following any symlink (one on the way
    /// counts as nothing there: it could lead out of the project).
    pub fn has_path(&self, rel: &str) -> Option<bool> {
        if !paths::is_project_path(rel) {
            return None;
        }
        Some(matches!(nofollow::file_type(&self.root, rel), Ok(Some(_))))
    }

    /// The bytes of project-relative `rel`, following no symlink below the root (a symlink is
    /// refused with an error naming it: see [`crate::nofollow`]).
    pub fn read(&self, rel: &str) -> std::io::Result<Vec<u8>> {
        nofollow::read_below(&self.root, &self.handle, rel)
    }

    /// The text of project-relative `rel`, following no symlink below the root.
    pub fn read_to_string(&self, rel: &str) -> std::io::Result<String> {
        nofollow::read_to_string_below(&self.root, &self.handle, rel)
    }

    /// Write project-relative `rel` atomically, following no symlink below the root (and never
    /// replacing one): see [`crate::atomic`].
    pub fn write(&self, rel: &str, contents: &[u8]) -> std::io::Result<()> {
        atomic::write_under(&self.root, rel, contents)
    }

    /// [`Project::write`] unless `rel` already holds exactly `contents`. Returns whether it wrote.
    pub fn write_if_changed(&self, rel: &str, contents: &[u8]) -> std::io::Result<bool> {
        atomic::write_under_if_changed(&self.root, rel, contents)
    }

    /// Remove project-relative file `rel` (a symlink there is removed itself, never followed).
    pub fn remove_file(&self, rel: &str) -> std::io::Result<()> {
        nofollow::remove_file(&self.root, rel)
    }
}

/// `.lexibrary/<rel>`: a library-relative path as a project-relative one.
pub fn in_library(rel: &str) -> String {
    format!("{LIBRARY_DIR}/{rel}")
}

/// Refuse to work in a git directory: `start` inside a `.git/` directory, or a bare repository
/// (or inside one). Walking up from `start`, the first directory that holds a `.git` entry is a
/// working tree and ends the search (a worktree of a bare repository may sit inside it).
pub fn refuse_git_dir(start: &Path) -> Result<(), ProjectError> {
    for dir in start.ancestors() {
        if dir.file_name().is_some_and(|name| name == ".git") {
            return Err(ProjectError::InsideGitDir {
                start: start.to_path_buf(),
                git_dir: dir.to_path_buf(),
            });
        }
        if dir.join(".git").symlink_metadata().is_ok() {
            return Ok(());
        }
        if is_git_dir(dir) {
            return Err(ProjectError::BareRepository {
                start: start.to_path_buf(),
                git_dir: dir.to_path_buf(),
            });
        }
    }
    Ok(())
}

/// Whether `dir` is a git directory: `HEAD` and `config` files, `objects/` and `refs/` directories.
fn is_git_dir(dir: &Path) -> bool {
    dir.join("HEAD").is_file()
        && dir.join("config").is_file()
        && dir.join("objects").is_dir()
        && dir.join("refs").is_dir()
}

/// The nearest ancestor of `start` (inclusive) that holds a `.lexibrary/` directory.
pub fn find_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| dir.join(LIBRARY_DIR).is_dir())
        .map(Path::to_path_buf)
}
