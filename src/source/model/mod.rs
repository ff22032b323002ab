//! The project model: what the languages' own tools read to decide how an import resolves — Cargo
//! workspaces and targets ([`cargo`]), Python package roots ([`python`]), package.json `exports`,
//! `imports` and workspaces and tsconfig `paths` ([`node`]), Java source roots ([`java`]) — read once per run from the manifests
//! among the project's files, and serialisable so that a run which touches no manifest can reuse the
//! last one instead of reading them again.

pub mod files;
pub mod packages;
pub mod stdlib;

pub use super::lang::go::model as go;
pub use super::lang::java::model as java;
pub use super::lang::javascript::node;
pub use super::lang::python::model as python;
pub use super::lang::rust::cargo;

use cargo::CargoModel;
use files::{file_name, FileIndex, ReadFile};
use go::GoModel;
use java::JavaModel;
use node::NodeModel;
use python::PythonModel;

/// Everything import resolution needs to know about the project beyond single files.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ProjectModel {
    pub cargo: CargoModel,
    pub python: PythonModel,
    pub node: NodeModel,
    /// Left out when empty, so a tree without Go keeps the fingerprint it had.
    #[serde(default, skip_serializing_if = "GoModel::is_empty")]
    pub go: GoModel,
    /// Java source roots; left out of the serialised model when there are none.
    #[serde(default, skip_serializing_if = "JavaModel::is_empty")]
    pub java: JavaModel,
}

impl ProjectModel {
    /// Read every manifest among `files`. Manifests that cannot be read become warnings.
    pub fn build(files: &FileIndex, read: &dyn ReadFile) -> (ProjectModel, Vec<String>) {
        let mut warnings = Vec::new();
        let mut model = ProjectModel {
            cargo: CargoModel::build(files, read, &mut warnings),
            python: PythonModel::build(files, read, &mut warnings),
            node: NodeModel::build(files, read, &mut warnings),
            go: GoModel::build(files, read, &mut warnings),
            java: JavaModel::build(files),
        };
        model.mark_samples();
        (model, warnings)
    }

    /// Identifies the model: when it changes, every import must be resolved again.
    pub fn fingerprint(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        crate::hash::sha256_hex(json.as_bytes())
    }
}

/// Whether `path` is a manifest the model reads: any change to it can change the model.
pub fn is_manifest(path: &str) -> bool {
    let name = file_name(path);
    matches!(
        name,
        "Cargo.toml"
            | "pyproject.toml"
            | "setup.cfg"
            | "package.json"
            | "pnpm-workspace.yaml"
            | "go.mod"
    ) || ((name.starts_with("tsconfig") || name.starts_with("jsconfig")) && name.ends_with(".json"))
}

/// Whether adding or removing `path` can change the model: a manifest, or a file whose mere
/// existence the model depends on (a package's `__init__.py`, a Rust target cargo discovers by its
/// place, a Java file: a source root, or a type its package's files may name without an import).
pub fn shapes_model(path: &str) -> bool {
    is_manifest(path)
        || file_name(path) == "__init__.py"
        || is_discovered_rust_target(path)
        || go::is_package_file(path)
        || java::is_java_source(path)
}

/// Paths cargo discovers targets at: `src/main.rs`, `src/lib.rs`, `build.rs`, `src/bin/…`,
/// `tests/…`, `benches/…`, `examples/…` (one file or a directory's `main.rs`).
fn is_discovered_rust_target(path: &str) -> bool {
    if !path.ends_with(".rs") {
        return false;
    }
    let parts: Vec<&str> = path.split('/').collect();
    let n = parts.len();
    let name = parts[n - 1];
    let parent = if n >= 2 { parts[n - 2] } else { "" };
    let grandparent = if n >= 3 { parts[n - 3] } else { "" };
    matches!((parent, name), ("src", "main.rs" | "lib.rs"))
        || name == "build.rs"
        || matches!(parent, "tests" | "benches" | "examples")
        || parent == "bin"
        || (name == "main.rs" && matches!(grandparent, "bin" | "tests" | "benches" | "examples"))
}

/// For the models' unit tests: build a model with `build` from in-memory `(path, text)` files, and
/// the file index it was built from. Warnings are returned, not asserted.
#[cfg(test)]
pub(crate) fn build_from<M>(
    files: &[(&str, &str)],
    build: impl Fn(&FileIndex, &dyn ReadFile, &mut Vec<String>) -> M,
) -> (M, FileIndex, Vec<String>) {
    let index = FileIndex::new(files.iter().map(|(path, _)| path.to_string()));
    let texts: std::collections::BTreeMap<String, String> = files
        .iter()
        .map(|(path, text)| (path.to_string(), text.to_string()))
        .collect();
    let read = |rel: &str| texts.get(rel).cloned();
    let mut warnings = Vec::new();
    let model = build(&index, &read, &mut warnings);
    (model, index, warnings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_inputs_are_manifests_and_discovered_files() {
        for manifest in [
            "Cargo.toml",
            "crates/a/Cargo.toml",
            "tsconfig.base.json",
            "web/package.json",
            "go.mod",
        ] {
            assert!(
                is_manifest(manifest) && shapes_model(manifest),
                "{manifest}"
            );
        }
        for by_existence in [
            "pkg/__init__.py",
            "src/main.rs",
            "tests/it.rs",
            "src/bin/tool/main.rs",
            "render/json.go",
        ] {
            assert!(
                !is_manifest(by_existence) && shapes_model(by_existence),
                "{by_existence}"
            );
        }
        for other in [
            "src/a.rs",
            "pkg/mod.py",
            "web/index.ts",
            "src/bin/tool/args.rs",
            "render/json_test.go",
            "render/testdata/x.go",
        ] {
            assert!(!shapes_model(other), "{other}");
        }
    }

    #[test]
    fn the_fingerprint_follows_the_model() {
        let empty = ProjectModel::default();
        let mut other = ProjectModel::default();
        other.python.roots.push("src".into());
        assert_ne!(empty.fingerprint(), other.fingerprint());
        assert_eq!(empty.fingerprint(), ProjectModel::default().fingerprint());
    }
}
