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

/// The project name: the root manifest's (`Cargo.toml`, `package.json`, `pyproject.toml`), else the
/// main package of a virtual Cargo workspace ([`workspace_main_package`]), else the repository name
/// in `remote_url` (`…/acme/quill.git` → `quill`), else the directory name.
pub fn project_name(root: &Path, remote_url: Option<&str>) -> String {
    if let Some(name) = toml_name(&root.join("Cargo.toml"), &["package"]) {
        return name;
    }
    if let Some(name) = package_json_name(&root.join("package.json")) {
        return name;
    }
    if let Some(name) = toml_name(&root.join("pyproject.toml"), &["project", "tool.poetry"]) {
        return name;
    }
    let remote_name = remote_url.and_then(repository_name);
    if let Some(name) = workspace_main_package(root, remote_name.as_deref()) {
        return name;
    }
    remote_name.unwrap_or_else(|| {
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

/// The main package of a virtual Cargo workspace at `root`: the member named like the repository
/// (or the directory), else the member the most other members depend on. Members are read from
/// `[workspace] members` (literal paths and one trailing `*`).
pub fn workspace_main_package(root: &Path, repository: Option<&str>) -> Option<String> {
    let text = read_in_place(&root.join("Cargo.toml"))?;
    let manifest: toml::Table = toml::from_str(&text).ok()?;
    let members = manifest.get("workspace")?.get("members")?.as_array()?;
    let mut packages: Vec<(String, toml::Table)> = Vec::new();
    for pattern in members.iter().filter_map(|m| m.as_str()) {
        for dir in expand_member(root, pattern) {
            let Some(member) = read_in_place(&dir.join("Cargo.toml"))
                .and_then(|text| toml::from_str::<toml::Table>(&text).ok())
            else {
                continue;
            };
            let name = member
                .get("package")
                .and_then(|p| p.get("name"))
                .and_then(|n| n.as_str());
            if let Some(name) = name {
                packages.push((name.to_string(), member.clone()));
            }
        }
    }
    let directory = root.file_name().and_then(|name| name.to_str());
    for wanted in [repository, directory].into_iter().flatten() {
        if let Some((name, _)) = packages.iter().find(|(name, _)| name == wanted) {
            return Some(name.clone());
        }
    }
    let depends_on = |member: &toml::Table, name: &str| {
        ["dependencies", "dev-dependencies", "build-dependencies"]
            .iter()
            .filter_map(|table| member.get(*table)?.as_table())
            .any(|deps| {
                deps.iter().any(|(key, spec)| {
                    key == name || spec.get("package").and_then(|p| p.as_str()) == Some(name)
                })
            })
    };
    packages
        .iter()
        .map(|(name, _)| {
            let users = packages.iter().filter(|(_, m)| depends_on(m, name)).count();
            (users, name)
        })
        .max_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(a.1)))
        .filter(|(users, _)| *users > 0 || packages.len() == 1)
        .map(|(_, name)| name.clone())
}

/// The member directories a `members` entry names: a literal path, or `dir/*`.
fn expand_member(root: &Path, pattern: &str) -> Vec<std::path::PathBuf> {
    let Some(parent) = pattern.strip_suffix("/*") else {
        return vec![root.join(pattern)];
    };
    let mut dirs: Vec<_> = std::fs::read_dir(root.join(parent))
        .map(|entries| {
            entries
                .flatten()
                .map(|e| e.path())
                .filter(|p| p.is_dir())
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    dirs
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

/// The directories to document: the conventional source directories that exist in `root`, in a
/// fixed order, and beside them the test directories (the graph then knows which tests reach a
/// file). None — the whole project — when there is no source directory, or when the package's
/// entry point sits at the root (`index.js`: what `require('..')` loads would be out of scope).
pub fn scope_suggestions(root: &Path) -> Vec<String> {
    let is_dir = |dir: &&&str| std::fs::symlink_metadata(root.join(dir)).is_ok_and(|m| m.is_dir());
    let code: Vec<String> = ["src", "lib", "app", "crates", "packages"]
        .iter()
        .filter(is_dir)
        .map(|dir| dir.to_string())
        .collect();
    let entry_at_root = ROOT_ENTRY_FILES
        .iter()
        .any(|file| root.join(file).is_file());
    if code.is_empty() || entry_at_root {
        return Vec::new();
    }
    let tests = TEST_DIRS.iter().filter(is_dir).map(|dir| dir.to_string());
    code.into_iter().chain(tests).collect()
}

/// Package entry points that live at the root of a project.
const ROOT_ENTRY_FILES: &[&str] = &["index.js", "index.ts", "index.mjs", "index.cjs"];
/// Test directories documented beside the source directories.
const TEST_DIRS: &[&str] = &["tests", "test", "spec", "__tests__"];

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
    fn a_virtual_workspace_is_named_after_its_main_package() {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |rel: &str, text: &str| {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        };
        write(
            "Cargo.toml",
            "[workspace]\nmembers = [\"crates/*\", \"tools/gen\"]\n",
        );
        write("crates/core/Cargo.toml", "[package]\nname = \"quill\"\n");
        write(
            "crates/cli/Cargo.toml",
            "[package]\nname = \"quill-cli\"\n[dependencies]\nquill = { path = \"../core\" }\n",
        );
        write(
            "tools/gen/Cargo.toml",
            "[package]\nname = \"gen\"\n[dev-dependencies]\nq = { package = \"quill\", path = \"../../crates/core\" }\n",
        );
        assert_eq!(project_name(dir.path(), None), "quill");
        let named = Some("git@github.com:acme/quill-cli.git");
        assert_eq!(project_name(dir.path(), named), "quill-cli");
        assert_eq!(
            repository_name("https://h/acme/tokio/"),
            Some("tokio".into())
        );
        write("Cargo.toml", "[workspace]\nmembers = []\n");
        assert_eq!(
            project_name(dir.path(), Some("https://h/acme/r2.git")),
            "r2"
        );
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
