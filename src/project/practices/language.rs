//! Language levels and module systems the manifests pin: Cargo's `edition`/`rust-version` (the
//! package's, the workspace's it inherits with `.workspace = true`, or — in a workspace without a
//! root package — its members'), pyproject's `requires-python`, `engines.node`, ES modules or
//! CommonJS, TypeScript's `strict`; and where changes are recorded (a changelog at the root).

use super::{get, push, Practice, Sources};

/// Changelog file names, in the order they are looked for at the root.
const CHANGELOGS: [&str; 8] = [
    "CHANGELOG.md",
    "CHANGES.md",
    "CHANGES.rst",
    "HISTORY.md",
    "History.md",
    "HISTORY.rst",
    "CHANGELOG",
    "CHANGES",
];

pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    if let Some(cargo) = sources.toml("Cargo.toml") {
        rust(sources, &cargo, found);
    }
    changelog(sources, found);
    if let Some(pyproject) = sources.toml("pyproject.toml") {
        if let Some(version) =
            get(&pyproject, &["project", "requires-python"]).and_then(|v| v.as_str())
        {
            let practice = format!("Python {version} (requires-python).");
            push(found, "language", practice, "pyproject.toml");
        }
    }
    if let Some(package) = sources.json("package.json") {
        node(sources, &package, found);
    }
}

/// A Cargo key of the package, else of the workspace (what `key.workspace = true` inherits).
fn cargo_key<'a>(cargo: &'a toml::Table, key: &str) -> Option<&'a str> {
    get(cargo, &["package", key])
        .and_then(|v| v.as_str())
        .or_else(|| get(cargo, &["workspace", "package", key]).and_then(|v| v.as_str()))
}

fn rust(sources: &Sources, cargo: &toml::Table, found: &mut Vec<Practice>) {
    let edition = cargo_key(cargo, "edition");
    let msrv = cargo_key(cargo, "rust-version");
    if msrv.is_none() && get(cargo, &["package"]).is_none() {
        members_rust_version(sources, cargo, None, found);
    }
    let practice = match (edition, msrv) {
        (Some(e), Some(v)) => Some(format!("Rust edition {e}; supports Rust {v} and later (rust-version): no newer language or std features.")),
        (Some(e), None) => Some(format!("Rust edition {e}.")),
        (None, Some(v)) => Some(format!("Supports Rust {v} and later (rust-version).")),
        (None, None) => None,
    };
    if let Some(practice) = practice {
        push(found, "language", practice, "Cargo.toml");
    }
    // Members pinning another version than the root's (ripgrep's `ignore` and `globset`: 1.88).
    if let Some(root) = msrv {
        members_rust_version(sources, cargo, Some(root), found);
    }
}

/// The `rust-version` the workspace's listed members pin themselves (globs are not expanded; a
/// member inheriting the workspace's pins nothing of its own), one line per version with the
/// crates that pin it — those of `root`'s version left out (the root's line says it).
fn members_rust_version(
    sources: &Sources,
    cargo: &toml::Table,
    root: Option<&str>,
    found: &mut Vec<Practice>,
) {
    let members = get(cargo, &["workspace", "members"])
        .and_then(|v| v.as_array())
        .map(|members| {
            members
                .iter()
                .filter_map(|m| m.as_str())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default();
    let mut by_version: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut first_source: std::collections::BTreeMap<String, String> = Default::default();
    for member in members.iter().filter(|m| !m.contains(['*', '?', '['])) {
        let manifest = format!("{}/Cargo.toml", member.trim_end_matches('/'));
        let Some(table) = sources.toml(&manifest) else {
            continue;
        };
        if let Some(version) = cargo_key(&table, "rust-version").filter(|v| Some(*v) != root) {
            let name = cargo_key(&table, "name").unwrap_or(member).to_string();
            by_version
                .entry(version.to_string())
                .or_default()
                .push(name);
            first_source.entry(version.to_string()).or_insert(manifest);
        }
    }
    for (version, crates) in by_version {
        let crates = crates
            .iter()
            .map(|name| format!("`{name}`"))
            .collect::<Vec<_>>()
            .join(", ");
        let practice = match root {
            None => format!(
                "Supports Rust {version} and later (rust-version of {crates}): no newer language or std features."
            ),
            Some(_) => format!("{crates} pin their own rust-version: Rust {version} and later."),
        };
        push(found, "language", practice, &first_source[&version]);
    }
}

/// Where changes are recorded: the first changelog at the root, with its first section's title
/// (where an entry goes: "Unreleased", "TBD", the next version).
fn changelog(sources: &Sources, found: &mut Vec<Practice>) {
    let Some((name, text)) = CHANGELOGS
        .iter()
        .find_map(|name| Some((*name, sources.text(name)?)))
    else {
        return;
    };
    let practice = match newest_section(&text) {
        Some(section) => {
            format!("Changes are recorded in {name}; the newest section is \"{section}\".")
        }
        None => format!("Changes are recorded in {name}."),
    };
    push(found, "changelog", practice, name);
}

/// The first section title of a changelog — a Markdown `#` heading or a setext/reST title (a line
/// underlined with `=`, `-` or `~`) — past a title that only says it is a changelog.
fn newest_section(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
    let underline = |line: &str| {
        line.len() >= 3
            && ['=', '-', '~']
                .iter()
                .any(|mark| line.chars().all(|c| c == *mark))
    };
    let headings = lines.iter().enumerate().filter_map(|(i, line)| {
        let line = line.trim();
        if let Some(title) = line.strip_prefix('#') {
            return Some(title.trim_start_matches('#').trim().to_string());
        }
        let next = lines.get(i + 1).map(|next| next.trim()).unwrap_or("");
        (!line.is_empty() && !underline(line) && underline(next)).then(|| line.to_string())
    });
    headings.filter(|title| !title.is_empty()).find(|title| {
        let lower = title.to_ascii_lowercase();
        ![
            "changelog",
            "change log",
            "changes",
            "history",
            "release notes",
            "release history",
        ]
        .iter()
        .any(|generic| lower.trim_end_matches('.') == *generic)
    })
}

fn node(sources: &Sources, package: &serde_json::Value, found: &mut Vec<Practice>) {
    if let Some(node) = package.pointer("/engines/node").and_then(|v| v.as_str()) {
        let practice = format!("Node.js {node} (engines).");
        push(found, "language", practice, "package.json");
    }
    let module = package.get("type").and_then(|v| v.as_str()) == Some("module");
    let practice = match module {
        true => "ES modules (`\"type\": \"module\"`): `import`/`export`, not `require`.",
        false => "CommonJS modules (no `\"type\": \"module\"`): `require`/`module.exports` in `.js` files.",
    };
    push(found, "language", practice.to_string(), "package.json");
    // tsconfig.json allows comments and trailing commas, which JSON does not: skipped quietly.
    let tsconfig = sources
        .text("tsconfig.json")
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok());
    if let Some(strict) = tsconfig
        .as_ref()
        .and_then(|ts| ts.pointer("/compilerOptions/strict")?.as_bool())
    {
        let practice = format!(
            "TypeScript with `strict: {strict}`{}.",
            if strict {
                ": no implicit `any`, null checks on"
            } else {
                ""
            }
        );
        push(found, "language", practice, "tsconfig.json");
    }
}

#[cfg(test)]
mod tests {
    use super::newest_section;

    #[test]
    fn a_changelogs_newest_section_is_its_first_title_past_the_generic_one() {
        assert_eq!(
            newest_section("# Changelog\n\n## [Unreleased]\n\n- x\n\n## 1.0.0\n").as_deref(),
            Some("[Unreleased]")
        );
        assert_eq!(
            newest_section("TBD\n===\nUnreleased changes.\n\n15.2.0 (2026-07-15)\n===\n")
                .as_deref(),
            Some("TBD")
        );
        assert_eq!(
            newest_section("Version 3.2.0\n-------------\n\nUnreleased\n").as_deref(),
            Some("Version 3.2.0")
        );
        assert_eq!(newest_section("Just prose.\n"), None);
    }
}
