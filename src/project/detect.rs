//! What `lexictl init` can tell about a project before asking: its name, likely source roots, the
//! coding-agent environments in use, and which LLM key *variables* are set (names only; a key's value
//! is never read).

use std::path::Path;

use crate::project::config::AgentEnvironment;

/// Environment variable names that signal an LLM provider, with the provider they imply.
pub const LLM_KEY_VARIABLES: &[(&str, &str)] = &[
    ("ANTHROPIC_API_KEY", "anthropic"),
    ("OPENAI_API_KEY", "openai"),
];

/// The project name from `Cargo.toml`, `package.json` or `pyproject.toml`, else the directory name.
pub fn project_name(root: &Path) -> String {
    if let Some(name) = toml_name(&root.join("Cargo.toml"), &["package"]) {
        return name;
    }
    if let Some(name) = package_json_name(&root.join("package.json")) {
        return name;
    }
    if let Some(name) = toml_name(&root.join("pyproject.toml"), &["project", "tool.poetry"]) {
        return name;
    }
    root.file_name()
        .and_then(|name| name.to_str())
        .unwrap_or("project")
        .to_string()
}

/// `name = "…"` inside one of `tables`; a line scan is enough for this one key.
fn toml_name(path: &Path, tables: &[&str]) -> Option<String> {
    let text = read_in_place(path)?;
    let mut in_table = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            let table = line.trim_start_matches('[').trim_end_matches(']').trim();
            in_table = tables.contains(&table);
            continue;
        }
        if !in_table {
            continue;
        }
        if let Some((key, value)) = line.split_once('=') {
            if key.trim() == "name" {
                let value = value.trim().trim_matches(|c| c == '"' || c == '\'');
                if !value.is_empty() {
                    return Some(value.to_string());
                }
            }
        }
    }
    None
}

/// A manifest's text, unless it is a symlink (never read through: it could point anywhere).
fn read_in_place(path: &Path) -> Option<String> {
    crate::nofollow::read_to_string(path.parent()?, path.file_name()?).ok()
}

fn package_json_name(path: &Path) -> Option<String> {
    let text = read_in_place(path)?;
    let value: serde_json::Value = serde_json::from_str(&text).ok()?;
    value
        .get("name")
        .and_then(|name| name.as_str())
        .filter(|name| !name.is_empty())
        .map(str::to_string)
}

/// Conventional source directories that exist in `root`, in a fixed order.
pub fn scope_suggestions(root: &Path) -> Vec<String> {
    ["src", "lib", "app", "crates", "packages"]
        .iter()
        .filter(|dir| root.join(dir).is_dir())
        .map(|dir| dir.to_string())
        .collect()
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

    #[test]
    fn names_come_from_manifests_first() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("pyproject.toml"),
            "[build-system]\nname = \"x\"\n[project]\nname = \"pyname\"\n",
        )
        .expect("write");
        assert_eq!(project_name(dir.path()), "pyname");
        std::fs::write(dir.path().join("package.json"), r#"{"name": "jsname"}"#).expect("write");
        assert_eq!(project_name(dir.path()), "jsname");
        std::fs::write(
            dir.path().join("Cargo.toml"),
            "[package]\nname = \"rsname\"\n",
        )
        .expect("write");
        assert_eq!(project_name(dir.path()), "rsname");
    }
}
