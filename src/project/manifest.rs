//! A package's identity as its manifest declares it — name, description and workspace members —
//! read by the real parsers of each format: `toml` for `Cargo.toml` and `pyproject.toml`,
//! `serde_json` for `package.json` (never a line scan: `name = "tiny-calc" # the calculator crate`
//! is named `tiny-calc`). One reader per manifest kind, used by `lexictl init` (the project's name),
//! START_HERE and the billboards of `.aindex` files (a directory's description).
//!
//! The project model (`source::model`) reads the same files for what decides how imports resolve
//! (targets, dependencies, `exports`, package roots); this module reads what a person or an agent
//! is told about a package.

use std::path::Path;

use serde::Deserialize;

/// The kinds of manifest, in the order a directory's are consulted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ManifestKind {
    /// `Cargo.toml`: `[package]`, `[workspace]`.
    Cargo,
    /// `package.json`: `name`, `description`, `workspaces`.
    Npm,
    /// `pyproject.toml`: `[project]`, else `[tool.poetry]`.
    Python,
}

impl ManifestKind {
    pub const ALL: [ManifestKind; 3] =
        [ManifestKind::Cargo, ManifestKind::Npm, ManifestKind::Python];

    /// The manifest's file name.
    pub fn file_name(self) -> &'static str {
        match self {
            ManifestKind::Cargo => "Cargo.toml",
            ManifestKind::Npm => "package.json",
            ManifestKind::Python => "pyproject.toml",
        }
    }
}

/// What a manifest says about the package it declares.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Manifest {
    /// The package's name; `None` for a manifest that declares no package (a virtual Cargo
    /// workspace, a `package.json` without `name`).
    pub name: Option<String>,
    /// Its `description`, as written (possibly several lines).
    pub description: Option<String>,
    /// Whether it declares a workspace (`[workspace]`, `workspaces`).
    pub workspace: bool,
}

impl Manifest {
    /// Parse a manifest's text. An error names what did not parse (the caller adds the path).
    pub fn parse(kind: ManifestKind, text: &str) -> Result<Manifest, String> {
        match kind {
            ManifestKind::Cargo => cargo(text),
            ManifestKind::Npm => npm(text),
            ManifestKind::Python => python(text),
        }
    }

    /// The manifest of `kind` in `dir` (project-relative) under `root`: `None` when there is none,
    /// it does not parse, or it is a symlink (never read through: it could point anywhere).
    pub fn read(root: &Path, dir: &str, kind: ManifestKind) -> Option<Manifest> {
        let rel = match dir {
            "" => kind.file_name().to_string(),
            dir => format!("{dir}/{}", kind.file_name()),
        };
        let text = crate::nofollow::read_to_string(root, Path::new(&rel)).ok()?;
        Manifest::parse(kind, &text).ok()
    }

    /// The first manifest in `dir` that names a package, in [`ManifestKind::ALL`] order.
    pub fn named_in(root: &Path, dir: &str) -> Option<Manifest> {
        ManifestKind::ALL
            .into_iter()
            .filter_map(|kind| Manifest::read(root, dir, kind))
            .find(|manifest| manifest.name.is_some())
    }

    /// The first manifest in `dir` with a non-empty description, in [`ManifestKind::ALL`] order.
    pub fn described_in(root: &Path, dir: &str) -> Option<Manifest> {
        ManifestKind::ALL
            .into_iter()
            .filter_map(|kind| Manifest::read(root, dir, kind))
            .find(|manifest| {
                manifest
                    .description
                    .as_deref()
                    .is_some_and(|d| !d.trim().is_empty())
            })
    }
}

/// A string, or an inherited `{ workspace = true }` (read as absent).
#[derive(Debug, Deserialize)]
#[serde(untagged)]
enum Field {
    Text(String),
    Other(serde::de::IgnoredAny),
}

impl Field {
    fn text(self) -> Option<String> {
        match self {
            Field::Text(text) => Some(text).filter(|t| !t.trim().is_empty()),
            Field::Other(_) => None,
        }
    }
}

#[derive(Debug, Default, Deserialize)]
struct Named {
    name: Option<Field>,
    description: Option<Field>,
}

fn first_line(err: impl std::fmt::Display) -> String {
    err.to_string()
        .lines()
        .next()
        .unwrap_or_default()
        .to_string()
}

fn cargo(text: &str) -> Result<Manifest, String> {
    #[derive(Deserialize)]
    struct Cargo {
        package: Option<Named>,
        workspace: Option<toml::Value>,
    }
    let cargo: Cargo = toml::from_str(text).map_err(first_line)?;
    let package = cargo.package.unwrap_or_default();
    Ok(Manifest {
        name: package.name.and_then(Field::text),
        description: package.description.and_then(Field::text),
        workspace: cargo.workspace.is_some(),
    })
}

fn npm(text: &str) -> Result<Manifest, String> {
    let value: serde_json::Value = serde_json::from_str(text).map_err(first_line)?;
    let text_of = |key: &str| {
        value
            .get(key)
            .and_then(|v| v.as_str())
            .filter(|v| !v.trim().is_empty())
            .map(str::to_string)
    };
    Ok(Manifest {
        name: text_of("name"),
        description: text_of("description"),
        workspace: value.get("workspaces").is_some(),
    })
}

fn python(text: &str) -> Result<Manifest, String> {
    #[derive(Deserialize)]
    struct Tool {
        poetry: Option<Named>,
    }
    #[derive(Deserialize)]
    struct PyProject {
        project: Option<Named>,
        tool: Option<Tool>,
    }
    let pyproject: PyProject = toml::from_str(text).map_err(first_line)?;
    let poetry = pyproject.tool.and_then(|tool| tool.poetry);
    let (project, poetry) = (
        pyproject.project.unwrap_or_default(),
        poetry.unwrap_or_default(),
    );
    Ok(Manifest {
        name: project
            .name
            .and_then(Field::text)
            .or(poetry.name.and_then(Field::text)),
        description: project
            .description
            .and_then(Field::text)
            .or(poetry.description.and_then(Field::text)),
        workspace: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_after_a_value_is_not_part_of_it() {
        let text = "[package] # the crate\nname = \"tiny-calc\" # the calculator crate\nversion = \"0.1.0\"\ndescription = 'Adds and subtracts.' # short\n";
        let manifest = Manifest::parse(ManifestKind::Cargo, text).expect("parses");
        assert_eq!(manifest.name.as_deref(), Some("tiny-calc"));
        assert_eq!(manifest.description.as_deref(), Some("Adds and subtracts."));
    }

    #[test]
    fn inherited_and_missing_fields_are_absent() {
        let virtual_workspace = "[workspace]\nmembers = [\"crates/*\"]\n";
        let manifest = Manifest::parse(ManifestKind::Cargo, virtual_workspace).expect("parses");
        assert_eq!(manifest.name, None);
        assert!(manifest.workspace);
        let inherited = "[package]\nname = \"a\"\ndescription.workspace = true\n";
        let manifest = Manifest::parse(ManifestKind::Cargo, inherited).expect("parses");
        assert_eq!(manifest.description, None);
        assert!(Manifest::parse(ManifestKind::Cargo, "[package\n").is_err());
    }

    #[test]
    fn python_and_npm_manifests() {
        let poetry = "[tool.poetry]\nname = \"weather\"\ndescription = \"Forecasts.\"\n";
        let manifest = Manifest::parse(ManifestKind::Python, poetry).expect("parses");
        assert_eq!(manifest.name.as_deref(), Some("weather"));
        let project = "[build-system]\nname = \"x\"\n[project]\nname = \"pyname\"\n";
        let manifest = Manifest::parse(ManifestKind::Python, project).expect("parses");
        assert_eq!(manifest.name.as_deref(), Some("pyname"));
        let npm = r#"{"name": "", "description": "Web.", "workspaces": ["packages/*"]}"#;
        let manifest = Manifest::parse(ManifestKind::Npm, npm).expect("parses");
        assert_eq!(manifest.name, None);
        assert!(manifest.workspace);
    }
}
