//! The ignore layers, in order: `.gitignore` (with `.git/info/exclude`, when `ignore.use_gitignore`),
//! `.lexignore` (gitignore syntax, Lexibrarian-only), `ignore.additional_patterns` from the config, and a
//! fixed secrets denylist that keeps credentials out of design files and LLM prompts.
//!
//! `.git/` and `.lexibrary/` are never part of the source tree. Ignored directories are pruned, never
//! descended into: a 20,000-file `target/` costs nothing.

use std::path::Path;

use ignore::gitignore::{Gitignore, GitignoreBuilder};

use super::config::Config;

/// Lexibrarian's own ignore file name, at the project root (and, like `.gitignore`, in any directory).
pub const LEXIGNORE_FILE: &str = ".lexignore";

/// Patterns that are always ignored because such files usually hold secrets.
pub const SECRETS_DENYLIST: &[&str] = &[
    ".env*",
    "*.pem",
    "*.key",
    "id_rsa*",
    ".aws/",
    ".npmrc",
    ".pypirc",
    "*.tfvars",
    "*.tfstate",
    "credentials.json",
    ".netrc",
];

/// Top-level directories that are never part of the source tree.
pub const ALWAYS_EXCLUDED_DIRS: &[&str] = &[".git", super::LIBRARY_DIR];

/// The config-driven layers (additional patterns + secrets denylist), as one gitignore matcher rooted
/// at the project root. The file-based layers are read by the walker as it descends.
#[derive(Clone, Debug)]
pub struct ExtraIgnores {
    matcher: Gitignore,
}

impl ExtraIgnores {
    /// Build the matcher. Invalid patterns in the config are returned as warnings and skipped.
    pub fn new(root: &Path, config: &Config) -> (ExtraIgnores, Vec<String>) {
        let mut builder = GitignoreBuilder::new(root);
        let mut warnings = Vec::new();
        for pattern in SECRETS_DENYLIST {
            if let Err(err) = builder.add_line(None, pattern) {
                warnings.push(format!("built-in ignore pattern `{pattern}`: {err}"));
            }
        }
        for pattern in &config.ignore.additional_patterns {
            if let Err(err) = builder.add_line(None, pattern) {
                warnings.push(format!(
                    ".lexibrary/config.yaml: ignore.additional_patterns `{pattern}` is not a valid pattern ({err}); skipped"
                ));
            }
        }
        let matcher = builder.build().unwrap_or_else(|err| {
            warnings.push(format!("ignore patterns could not be compiled: {err}"));
            Gitignore::empty()
        });
        (ExtraIgnores { matcher }, warnings)
    }

    /// Whether the project-relative `rel` (or one of its parent directories) is excluded by the
    /// always-excluded dirs, the config patterns or the denylist.
    pub fn is_ignored(&self, rel: &str, is_dir: bool) -> bool {
        let top = rel.split('/').next().unwrap_or("");
        if ALWAYS_EXCLUDED_DIRS.contains(&top) {
            return true;
        }
        !rel.is_empty()
            && self
                .matcher
                .matched_path_or_any_parents(rel, is_dir)
                .is_ignore()
    }
}
