//! `scope_root`: which directories' files get design files.
//!
//! Files outside every scope root still appear in `.aindex` Child Maps, so agents see they exist, but
//! get no design file (seed D-011, D-021).

use super::config::{Config, ConfigError};
use super::mapping::{Mapping, Strategy};
use super::paths::{normalize, to_rel_string};
use std::path::Path;

use crate::relpath::RelPath;

/// The normalised scope roots of a project (`""` is the whole project).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scope {
    roots: Vec<String>,
    /// The mapping strategies (`project::mapping`).
    mapping: std::sync::Arc<Mapping>,
}

impl Scope {
    /// Normalise `config.scope_root`. Absolute roots and roots escaping the project are errors.
    pub fn from_config(config: &Config, config_path: &Path) -> Result<Scope, ConfigError> {
        let mut roots = Vec::new();
        for written in config.scope_root.as_list() {
            let path = Path::new(written);
            let rel = if path.is_absolute() {
                None
            } else {
                to_rel_string(&normalize(path))
            };
            let rel = rel.ok_or_else(|| ConfigError {
                path: config_path.to_path_buf(),
                line: None,
                message: format!(
                    "scope_root `{written}` must be a path inside the project, relative to its root"
                ),
                hint: Some("use `.` for the whole project or e.g. `src/`".to_string()),
            })?;
            if !roots.contains(&rel) {
                roots.push(rel);
            }
        }
        if roots.is_empty() {
            roots.push(String::new());
        }
        roots.sort();
        // `<root>/.lexibrary/config.yaml`: the project root holds the `.gitattributes`.
        let root = config_path
            .parent()
            .and_then(Path::parent)
            .unwrap_or(Path::new(""));
        let mapping = Mapping::new(&config.mapping, root).map_err(|message| ConfigError {
            path: config_path.to_path_buf(),
            line: None,
            message,
            hint: Some(
                "globs are gitignore-style patterns, e.g. `vendor/` or `*.snap`".to_string(),
            ),
        })?;
        Ok(Scope {
            roots,
            mapping: std::sync::Arc::new(mapping),
        })
    }

    /// The mapping strategy of a project-relative file.
    pub fn strategy(&self, rel: &str) -> Strategy {
        self.mapping.strategy(rel)
    }

    /// The whole project.
    pub fn everything() -> Scope {
        Scope {
            roots: vec![String::new()],
            mapping: std::sync::Arc::new(Mapping::default()),
        }
    }

    /// The normalised roots, sorted.
    pub fn roots(&self) -> &[String] {
        &self.roots
    }

    /// Whether a file gets a design file: inside a scope root, mirrorable, not a dotfile (nor inside
    /// a dot-directory) — except the dot-directories and dotfiles that hold code or CI configuration
    /// ([`documented_dot_path`]) — and not mapped `skip` or `grouped`: those are listed in `.aindex`
    /// but not documented.
    pub fn documents(&self, rel: &str) -> bool {
        self.visible(rel) && !matches!(self.strategy(rel), Strategy::Skip | Strategy::Grouped)
    }

    /// Whether `rel` is in scope and mapped `grouped`: described in its directory's group design
    /// file rather than a design file of its own.
    pub fn groups(&self, rel: &str) -> bool {
        self.visible(rel) && self.strategy(rel) == Strategy::Grouped
    }

    /// The group root of directory `dir`: the outermost directory at or above it that is mapped
    /// `grouped` as a whole (`packages/svelte/tests/runtime/samples` for every sample directory
    /// below it), whose group design file describes them all; `None` when `dir` is not grouped.
    pub fn group_root_of(&self, dir: &str) -> Option<String> {
        let mut found = None;
        let mut current = dir;
        while !current.is_empty() {
            if !self.is_grouped(current) {
                break;
            }
            found = Some(current.to_string());
            current = RelPath::new(current).dir();
        }
        found
    }

    /// Whether `dir` is a group root ([`Scope::group_root_of`] itself): it gets the group design
    /// file, the grouped directories below it none.
    pub fn is_group_root(&self, dir: &str) -> bool {
        self.indexes(dir) && self.is_grouped(dir)
    }

    /// Whether `dir` is a grouped directory strictly below its group root: its group root's
    /// `_group.md` names it, and it gets no `.aindex` of its own (a fixture tree of thousands of
    /// directories is one group file and one index).
    pub fn below_group_root(&self, dir: &str) -> bool {
        let parent = RelPath::new(dir).parent().map(RelPath::as_str);
        self.is_grouped(dir) && parent.is_some_and(|parent| self.is_grouped(parent))
    }

    fn is_grouped(&self, dir: &str) -> bool {
        self.mapping.dir_strategy(dir) == Strategy::Grouped
    }

    /// In a scope root, mirrorable, and not hidden by a dot (bar the documented dot paths).
    fn visible(&self, rel: &str) -> bool {
        self.contains(rel)
            && super::mirror::is_mirrorable(rel)
            && (!rel.split('/').any(|part| part.starts_with('.')) || documented_dot_path(rel))
    }

    /// Whether directory `dir` gets an `.aindex`: inside a scope root, or on the way to one, and
    /// not a grouped directory below its group root ([`Scope::below_group_root`]).
    pub fn indexes(&self, dir: &str) -> bool {
        let in_scope = dir.is_empty()
            || self.contains(dir)
            || self
                .roots
                .iter()
                .any(|root| root.starts_with(&format!("{dir}/")));
        in_scope && !self.below_group_root(dir)
    }

    /// Whether a project-relative file path is inside some scope root.
    pub fn contains(&self, rel: &str) -> bool {
        self.roots.iter().any(|root| {
            root.is_empty()
                || rel == root
                || (rel.len() > root.len()
                    && rel.starts_with(root.as_str())
                    && rel.as_bytes()[root.len()] == b'/')
        })
    }
}

/// Dot-directories whose files are code or CI configuration an agent must not break, documented
/// like any other file (docs/config.md).
pub const DOCUMENTED_DOT_DIRS: &[&str] = &[".github", ".circleci", ".husky"];
/// Dotfiles (and a file of a dot-directory) documented for the same reason.
pub const DOCUMENTED_DOT_FILES: &[&str] = &[".gitlab-ci.yml", ".cargo/config.toml"];

/// Whether a path with a dot component is one of those documented: under one of
/// [`DOCUMENTED_DOT_DIRS`] at any depth, or ending in one of [`DOCUMENTED_DOT_FILES`], with no
/// other dot component.
pub fn documented_dot_path(rel: &str) -> bool {
    let parts: Vec<&str> = rel.split('/').collect();
    let mut allowed = vec![false; parts.len()];
    for file in DOCUMENTED_DOT_FILES {
        let tail: Vec<&str> = file.split('/').collect();
        if parts.ends_with(&tail) {
            let start = parts.len() - tail.len();
            allowed[start..].iter_mut().for_each(|ok| *ok = true);
        }
    }
    for (index, part) in parts.iter().enumerate() {
        // A documented dot-directory, not a file of that name.
        if index + 1 < parts.len() && DOCUMENTED_DOT_DIRS.contains(part) {
            allowed[index] = true;
        }
    }
    parts
        .iter()
        .zip(&allowed)
        .all(|(part, ok)| !part.starts_with('.') || *ok)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::config::ScopeRoots;

    fn scope(roots: &[&str]) -> Scope {
        let config = Config {
            scope_root: ScopeRoots::Many(roots.iter().map(|r| r.to_string()).collect()),
            ..Config::default()
        };
        Scope::from_config(&config, Path::new("c.yaml")).expect("valid scope")
    }

    #[test]
    fn dot_means_everything() {
        assert!(scope(&["."]).contains("any/file.rs"));
    }

    #[test]
    fn prefixes_match_whole_components() {
        let s = scope(&["src/", "lib"]);
        assert!(s.contains("src/a.rs"));
        assert!(s.contains("lib/x/y.py"));
        assert!(!s.contains("srcx/a.rs"));
        assert!(!s.contains("tests/a.rs"));
    }

    #[test]
    fn escaping_roots_are_rejected() {
        let config = Config {
            scope_root: ScopeRoots::One("../other".into()),
            ..Config::default()
        };
        assert!(Scope::from_config(&config, Path::new("c.yaml")).is_err());
    }

    #[test]
    fn code_and_ci_dot_directories_are_documented_other_dotfiles_are_not() {
        let scope = Scope {
            roots: vec![String::new()],
            mapping: std::sync::Arc::new(Mapping::default()),
        };
        for documented in [
            ".github/workflows/ci.yml",
            ".github/actions/setup/action.yml",
            ".circleci/config.yml",
            ".husky/pre-commit",
            ".gitlab-ci.yml",
            ".cargo/config.toml",
            "crates/app/.cargo/config.toml",
            "src/lib.rs",
        ] {
            assert!(scope.documents(documented), "{documented}");
        }
        for listed_only in [
            ".env.example",
            ".eslintrc.json",
            ".vscode/settings.json",
            ".cargo/credentials.toml",
            ".github/.secret/x.yml",
            ".lexibrary/config.yaml",
            "src/.hidden.rs",
            ".github",
        ] {
            assert!(!scope.documents(listed_only), "{listed_only}");
        }
        let src_only = Scope {
            roots: vec!["src".into()],
            mapping: std::sync::Arc::new(Mapping::default()),
        };
        assert!(!src_only.documents(".github/workflows/ci.yml"));
    }
}
