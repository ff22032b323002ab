//! What a Lexibrarian project is on disk: where its root is, what its config says, which files are in
//! scope, and where each source file's design file and each directory's `.aindex` live.
//!
//! Everything here works on project-relative paths written with `/` separators (`src/a.rs`), the same
//! form the library files record, so paths print and compare the same on every platform.

pub mod config;
pub mod detect;
pub mod ignores;
pub mod mirror;
pub mod paths;
pub mod scope;
pub mod walk;

use std::path::{Path, PathBuf};

pub use config::{Config, ConfigError};

/// The name of the library directory at the project root.
pub const LIBRARY_DIR: &str = ".lexibrary";
/// The project config file inside [`LIBRARY_DIR`].
pub const CONFIG_FILE: &str = "config.yaml";
/// Gitignored scratch space inside [`LIBRARY_DIR`]: locks and derived caches, never reviewed.
pub const CACHE_DIR: &str = ".cache";

/// A discovered project: its root and its merged configuration.
#[derive(Clone, Debug)]
pub struct Project {
    pub root: PathBuf,
    pub config: Config,
}

/// Why no project could be opened.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    #[error(
        "not a Lexibrarian project (no {LIBRARY_DIR}/ in {} or any parent directory) — run `lexictl init`",
        .start.display()
    )]
    NotAProject { start: PathBuf },
    #[error(transparent)]
    Config(#[from] ConfigError),
}

impl Project {
    /// Walk up from `start` to the nearest directory holding `.lexibrary/`, then load its config.
    pub fn discover(start: &Path) -> Result<Project, ProjectError> {
        let root = find_root(start).ok_or_else(|| ProjectError::NotAProject {
            start: start.to_path_buf(),
        })?;
        Project::open(root)
    }

    /// Open the project rooted at `root` (which must hold `.lexibrary/`).
    pub fn open(root: PathBuf) -> Result<Project, ProjectError> {
        let config = config::load(&root.join(LIBRARY_DIR).join(CONFIG_FILE))?;
        Ok(Project { root, config })
    }

    /// `<root>/.lexibrary`.
    pub fn library_dir(&self) -> PathBuf {
        self.root.join(LIBRARY_DIR)
    }

    /// The absolute path of a project-relative path.
    pub fn abs(&self, rel: &str) -> PathBuf {
        paths::join_rel(&self.root, rel)
    }
}

/// The nearest ancestor of `start` (inclusive) that holds a `.lexibrary/` directory.
pub fn find_root(start: &Path) -> Option<PathBuf> {
    start
        .ancestors()
        .find(|dir| dir.join(LIBRARY_DIR).is_dir())
        .map(Path::to_path_buf)
}
