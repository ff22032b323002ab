//! The project model: what the languages' own tools read to decide how an import resolves — Cargo
//! workspaces and targets ([`cargo`]), Python package roots ([`python`]), package.json `exports`,
//! `imports` and workspaces and tsconfig `paths` ([`node`]), Java source roots ([`java`]) — read once per run from the manifests
//! among the project's files, and serialisable so that a run which touches no manifest can reuse the
//! last one instead of reading them again.

pub mod ecosystem;
pub mod files;
pub mod packages;
pub mod stdlib;

pub use super::lang::go::model as go;
pub use super::lang::java::model as java;
pub use super::lang::javascript::node;
pub use super::lang::python::model as python;
pub use super::lang::rust::cargo;
pub use ecosystem::EcosystemModel;

use files::{file_name, FileIndex, ReadFile};
use packages::CodePackage;

/// [`ProjectModel`] from the registry's lines: a field for each line naming a model
/// (`… with cargo: rust::cargo::CargoModel`), and what the whole asks of each.
macro_rules! project_model {
    ($($variant:ident: $directory:ident::$entry:ident
        $(with $field:ident: $($model:ident)::+)?,)*) => {
        /// Everything import resolution needs to know about the project beyond single files: each
        /// language's ecosystem model ([`EcosystemModel`]), a field named by its registry line. A
        /// model that found nothing is left out of the serialised form.
        #[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
        pub struct ProjectModel {
            $($(
                #[serde(default, skip_serializing_if = "EcosystemModel::is_empty")]
                pub $field: crate::source::lang::$($model)::+,
            )?)*
        }

        impl ProjectModel {
            /// Each model built from the manifests among `files`, in registry order.
            fn build_each(
                files: &FileIndex,
                read: &dyn ReadFile,
                warnings: &mut Vec<String>,
            ) -> ProjectModel {
                ProjectModel {
                    $($($field: EcosystemModel::build(files, read, warnings),)?)*
                }
            }

            /// Every model's package directories.
            fn package_dirs(&self) -> Vec<String> {
                let mut dirs = Vec::new();
                $($(dirs.extend(self.$field.package_dirs());)?)*
                dirs
            }

            /// Each model settled against every package directory.
            fn settle(&mut self) {
                let dirs = self.package_dirs();
                $($(self.$field.settle(&dirs);)?)*
            }

            /// Every model's packages, in registry order.
            fn each_code_packages(&self, files: &FileIndex) -> Vec<CodePackage> {
                let mut packages = Vec::new();
                $($(packages.extend(self.$field.code_packages(files));)?)*
                packages
            }
        }

        /// Whether a file named `name` is a manifest of some model.
        fn is_manifest_name(name: &str) -> bool {
            false $($(|| <crate::source::lang::$($model)::+ as EcosystemModel>::is_manifest(name))?)*
        }

        /// Whether some model depends on the mere existence of `path`.
        fn shapes_some_model(path: &str) -> bool {
            false $($(|| <crate::source::lang::$($model)::+ as EcosystemModel>::shaped_by(path))?)*
        }
    };
}
crate::source::lang::for_each_language!(project_model);

impl ProjectModel {
    /// Read every manifest among `files`. Manifests that cannot be read become warnings.
    pub fn build(files: &FileIndex, read: &dyn ReadFile) -> (ProjectModel, Vec<String>) {
        let mut warnings = Vec::new();
        let mut model = ProjectModel::build_each(files, read, &mut warnings);
        model.settle();
        (model, warnings)
    }

    /// Identifies the model: when it changes, every import must be resolved again.
    pub fn fingerprint(&self) -> String {
        let json = serde_json::to_string(self).unwrap_or_default();
        crate::hash::sha256_hex(json.as_bytes())
    }

    /// The project's packages, each with the directories holding its code and tests, in
    /// (ecosystem, directory) order.
    pub fn code_packages(&self, files: &FileIndex) -> Vec<CodePackage> {
        let mut packages = self.each_code_packages(files);
        packages.retain(|package| !package.roots.is_empty());
        packages.sort_by(|a, b| (a.ecosystem, &a.dir).cmp(&(b.ecosystem, &b.dir)));
        packages
    }
}

/// Whether `path` is a manifest the model reads: any change to it can change the model.
pub fn is_manifest(path: &str) -> bool {
    is_manifest_name(file_name(path))
}

/// Whether adding or removing `path` can change the model: a manifest, or a file whose mere
/// existence the model depends on (a package's `__init__.py`, a Rust target cargo discovers by its
/// place, a Java file: a source root, or a type its package's files may name without an import).
pub fn shapes_model(path: &str) -> bool {
    is_manifest(path) || shapes_some_model(path)
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
mod packages_tests;

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
