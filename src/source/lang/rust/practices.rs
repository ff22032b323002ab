//! Rust's tooling conventions, read where cargo, rustfmt and Clippy read them: the edition and
//! `rust-version` Cargo.toml pins (the package's, the workspace's it inherits with
//! `.workspace = true`, or — in a workspace without a root package — its members'), rustfmt's and
//! Clippy's settings, Cargo's `[lints]` levels and the lint levels crate roots set (`#![deny(…)]`),
//! cargo-deny, and `cargo test` as what runs the tests.

use crate::source::lang::tooling::{get, push, push_items, toml_text, Practice, Sources};

/// The most settings or lint levels named in one line (the rest are counted).
const SHOWN: usize = 10;

/// Rust's practices: its style tools' settings, and with a root `Cargo.toml` the language level
/// and the test command.
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    style(sources, found);
    if let Some(cargo) = sources.toml("Cargo.toml") {
        language(sources, &cargo, found);
        crate_lints(sources, &cargo, found);
    }
    if sources.is_file("Cargo.toml") {
        push(
            found,
            "tests",
            "`cargo test` runs unit tests (`#[cfg(test)]` modules beside the code) and the integration tests.".to_string(),
            "Cargo.toml",
        );
    }
    if sources.is_file("deny.toml") {
        push(
            found,
            "style",
            "cargo-deny checks dependencies and licences (configured in deny.toml).".to_string(),
            "deny.toml",
        );
    }
}

/// The lint levels a crate root sets for the whole crate (`#![warn(missing_docs, …)]`,
/// `#![deny(unused_must_use)]`, `#![forbid(unsafe_code)]`, as rustc reads them): the root
/// package's and each workspace member's `src/lib.rs` (else `src/main.rs`), a line per crate
/// that sets any.
fn crate_lints(sources: &Sources, cargo: &toml::Table, found: &mut Vec<Practice>) {
    let mut packages: Vec<String> = Vec::new();
    if get(cargo, &["package"]).is_some() {
        packages.push(String::new());
    }
    packages.extend(
        workspace_members(cargo)
            .into_iter()
            .map(|m| format!("{m}/")),
    );
    // Crates setting the same levels share a line.
    let mut by_levels: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    for package in packages {
        let root = ["src/lib.rs", "src/main.rs"]
            .iter()
            .map(|file| format!("{package}{file}"))
            .find(|file| sources.is_file(file));
        let Some(root) = root else {
            continue;
        };
        let Some(text) = sources.text(&root) else {
            continue;
        };
        let levels = lint_levels(&text);
        if levels.is_empty() {
            continue;
        }
        match by_levels.iter_mut().find(|(known, _)| *known == levels) {
            Some((_, roots)) => roots.push(root),
            None => by_levels.push((levels, vec![root])),
        }
    }
    for (levels, roots) in by_levels {
        let mut practice = format!(
            "Code keeps to the lint levels its crate root sets: {}",
            levels.join(", ")
        );
        if roots.len() > 1 {
            practice.push_str(&format!(" (also {})", sources.detail.list(&roots[1..], 3)));
        }
        practice.push('.');
        push(found, "style", practice, &roots[0]);
    }
}

/// The workspace members Cargo.toml names (no glob patterns).
fn workspace_members(cargo: &toml::Table) -> Vec<&str> {
    get(cargo, &["workspace", "members"])
        .and_then(|v| v.as_array())
        .map(|members| {
            members
                .iter()
                .filter_map(|m| m.as_str())
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .into_iter()
        .filter(|m| !m.contains(['*', '?', '[']))
        .map(|m| m.trim_end_matches('/'))
        .collect()
}

/// `text` without its `/* … */` comments (nested ones included, as Rust reads them).
fn without_block_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut depth = 0usize;
    let mut rest = text;
    while !rest.is_empty() {
        if rest.starts_with("/*") {
            depth += 1;
            rest = &rest[2..];
        } else if depth > 0 && rest.starts_with("*/") {
            depth -= 1;
            rest = &rest[2..];
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            if depth == 0 || c == '\n' {
                out.push(c);
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// The `warn`, `deny` and `forbid` levels of a crate root's leading inner attributes
/// (`#![deny(unused_must_use, unsafe_op_in_unsafe_fn)]` → `deny(unused_must_use,
/// unsafe_op_in_unsafe_fn)`), each on one line; `allow`s and `cfg_attr`s are left out.
fn lint_levels(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    // A `#![…]` inside a `/*! … */` crate doc is an example, not an attribute.
    let text = without_block_comments(text);
    let mut rest = text.as_str();
    while let Some(at) = rest.find("#![") {
        let before = &rest[..at];
        // Only the leading attributes: comments (ripgrep's `/*! … */` crate docs too) and blank
        // lines may come between them.
        if before.lines().any(|line| {
            let line = line.trim();
            !line.is_empty() && !line.starts_with("//")
        }) {
            break;
        }
        let attribute = &rest[at + 3..];
        let Some(end) = closing_bracket(attribute) else {
            break;
        };
        let inner: String = attribute[..end]
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let level = inner.split('(').next().unwrap_or("").trim();
        if matches!(level, "warn" | "deny" | "forbid") {
            out.push(
                inner
                    .replace("( ", "(")
                    .replace(" )", ")")
                    .replace(",)", ")"),
            );
        }
        rest = &attribute[end + 1..];
    }
    out
}

/// Where the `]` closing an attribute opened just before `text` is.
fn closing_bracket(text: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (at, c) in text.char_indices() {
        match c {
            '[' | '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ']' if depth == 0 => return Some(at),
            ']' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// rustfmt's and Clippy's settings, and the lint levels of Cargo.toml's `[lints]`.
fn style(sources: &Sources, found: &mut Vec<Practice>) {
    for (files, what) in [
        (["rustfmt.toml", ".rustfmt.toml"], "rustfmt formats Rust"),
        (["clippy.toml", ".clippy.toml"], "Clippy lints Rust"),
    ] {
        let Some(file) = files.into_iter().find(|f| sources.is_file(f)) else {
            continue;
        };
        let Some(table) = sources.toml(file) else {
            continue;
        };
        let settings: Vec<String> = table
            .iter()
            .map(|(key, value)| {
                format!("{key} = {}", sources.detail.shorten(&toml_text(value), 40))
            })
            .collect();
        let practice = match settings.is_empty() {
            true => format!("{what} (default settings)."),
            false => format!("{what}: {}.", sources.detail.list(&settings, SHOWN)),
        };
        push_items(found, "style", practice, file, settings);
    }
    let Some(cargo) = sources.toml("Cargo.toml") else {
        return;
    };
    let (lints, table) = match get(&cargo, &["lints"]) {
        Some(lints) => (lints, "[lints]"),
        None => match get(&cargo, &["workspace", "lints"]) {
            Some(lints) => (lints, "[workspace.lints]"),
            None => return,
        },
    };
    let mut levels = Vec::new();
    for (tool, entries) in lints.as_table().into_iter().flatten() {
        for (lint, value) in entries.as_table().into_iter().flatten() {
            let level = value
                .as_str()
                .or_else(|| value.get("level")?.as_str())
                .unwrap_or("?");
            let name = if tool == "rust" {
                lint.clone()
            } else {
                format!("{tool}::{lint}")
            };
            levels.push(format!("{name} {level}"));
        }
    }
    let practice = format!(
        "Lint levels in Cargo.toml {table}: {}.",
        sources.detail.list(&levels, SHOWN)
    );
    push_items(found, "style", practice, "Cargo.toml", levels);
}

/// A Cargo key of the package, else of the workspace (what `key.workspace = true` inherits).
fn cargo_key<'a>(cargo: &'a toml::Table, key: &str) -> Option<&'a str> {
    get(cargo, &["package", key])
        .and_then(|v| v.as_str())
        .or_else(|| get(cargo, &["workspace", "package", key]).and_then(|v| v.as_str()))
}

/// The edition and `rust-version` the manifests pin.
fn language(sources: &Sources, cargo: &toml::Table, found: &mut Vec<Practice>) {
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
    let mut by_version: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    let mut first_source: std::collections::BTreeMap<String, String> = Default::default();
    for member in workspace_members(cargo) {
        let manifest = format!("{member}/Cargo.toml");
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
