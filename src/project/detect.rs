//! What `lexictl init` can tell about a project before asking: its name, likely source roots, the
//! coding-agent environments in use, and which LLM key *variables* are set (names only; a key's value
//! is never read).

use std::path::Path;

use crate::project::config::AgentEnvironment;
use crate::project::manifest::Manifest;
use crate::source::lang::files;

/// Environment variable names that signal an LLM provider, with the provider they imply.
pub const LLM_KEY_VARIABLES: &[(&str, &str)] = &[
    ("ANTHROPIC_API_KEY", "anthropic"),
    ("OPENAI_API_KEY", "openai"),
];

/// The project name: the root manifest's package name (`Cargo.toml` `[package]`, `package.json`,
/// `pyproject.toml`, read by `project::manifest`), else — a virtual workspace, or no manifest — the
/// repository's name: the one in `remote_url` (`…/acme/quill.git` → `quill`), else the directory's.
pub fn project_name(root: &Path, remote_url: Option<&str>) -> String {
    if let Some(name) = Manifest::named_in(root, "").and_then(|manifest| manifest.name) {
        return name;
    }
    remote_url.and_then(repository_name).unwrap_or_else(|| {
        root.file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("project")
            .to_string()
    })
}

/// The repository name at the end of a remote URL: `git@host:acme/quill.git`, `https://host/acme/quill`.
pub fn repository_name(url: &str) -> Option<String> {
    let last = url
        .trim_end_matches('/')
        .rsplit(['/', ':'])
        .next()?
        .trim_end_matches(".git");
    (!last.is_empty()).then(|| last.to_string())
}

/// The directories to document when no manifest declares a package: the conventional source
/// directories that exist in `root`, in a fixed order, and beside them the test directories (the
/// graph then knows which tests reach a file). None — the whole project — when there is no source
/// directory or when the package's entry point sits at the root (`index.js`: what `require('..')`
/// loads would be out of scope).
pub fn scope_suggestions(root: &Path) -> Vec<String> {
    let is_dir = |dir: &&&str| std::fs::symlink_metadata(root.join(dir)).is_ok_and(|m| m.is_dir());
    let code: Vec<String> = ["src", "lib", "app", "crates", "packages"]
        .iter()
        .filter(is_dir)
        .map(|dir| dir.to_string())
        .collect();
    let entry_at_root = files::package_entries().any(|file| root.join(file).is_file());
    if code.is_empty() || entry_at_root {
        return Vec::new();
    }
    let tests = files::SCOPE_TEST_DIRS
        .iter()
        .filter(is_dir)
        .map(|dir| dir.to_string());
    code.into_iter().chain(tests).collect()
}

/// Agent environments with a footprint in `root`.
pub fn agent_environments(root: &Path) -> Vec<AgentEnvironment> {
    let mut found = Vec::new();
    if root.join(".claude").is_dir() || root.join("CLAUDE.md").is_file() {
        found.push(AgentEnvironment::Claude);
    }
    if root.join(".cursor").is_dir() {
        found.push(AgentEnvironment::Cursor);
    }
    if root.join("AGENTS.md").is_file() {
        found.push(AgentEnvironment::Codex);
    }
    found
}

/// `(variable, provider)` for every LLM key variable that is set and non-empty.
pub fn llm_key_variables() -> Vec<(&'static str, &'static str)> {
    LLM_KEY_VARIABLES
        .iter()
        .filter(|(variable, _)| std::env::var_os(variable).is_some_and(|value| !value.is_empty()))
        .copied()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A workspace without a root package is named after the repository, never one of its members.
    #[test]
    fn a_virtual_workspace_is_named_after_the_repository() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("quill-repo");
        let write = |rel: &str, text: &str| {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        };
        write("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n");
        write("crates/core/Cargo.toml", "[package]\nname = \"quill\"\n");
        write("crates/aaa/Cargo.toml", "[package]\nname = \"aaa\"\n");
        assert_eq!(project_name(&root, None), "quill-repo");
        let named = Some("git@github.com:acme/quill-cli.git");
        assert_eq!(project_name(&root, named), "quill-cli");
        assert_eq!(
            repository_name("https://h/acme/tokio/"),
            Some("tokio".into())
        );
    }

    /// `name = "tiny-calc" # the calculator crate` is `tiny-calc` (a TOML parser, not a line scan).
    #[test]
    fn a_comment_after_the_name_is_not_part_of_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[package]\nname = \"tiny-calc\" # the calculator crate\nversion = \"0.1.0\"\n",
        )
        .expect("write");
        assert_eq!(project_name(dir.path(), None), "tiny-calc");
    }

    #[test]
    fn names_come_from_manifests_first() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("pyproject.toml"),
            "[build-system]\nname = \"x\"\n[project]\nname = \"pyname\"\n",
        )
        .expect("write");
        assert_eq!(project_name(dir.path(), None), "pyname");
        std::fs::write(dir.path().join("package.json"), r#"{"name": "jsname"}"#).expect("write");
        assert_eq!(project_name(dir.path(), None), "jsname");
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[package]\nname = \"rsname\"\n",
        )
        .expect("write");
        assert_eq!(project_name(dir.path(), None), "rsname");
    }
}
