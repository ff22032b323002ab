//! What a language's ecosystem model answers the project model ([`super::ProjectModel`], one field
//! per registry line naming a model): how it is built from the tree's manifests, which files shape
//! it, and which packages it declares, with the directories holding their code and tests (what
//! `lexictl init` puts in scope). Each model is its language's (`lang/<language>/`): Cargo's, npm's,
//! Python's, Go's, Java's.

use super::files::{FileIndex, ReadFile};
use super::packages::CodePackage;

/// One ecosystem's model of the project.
pub trait EcosystemModel: Sized {
    /// Its name where packages are listed (`lexictl status --format json`): "cargo", "node".
    const ECOSYSTEM: &'static str;

    /// Read every manifest of its kind among `files`; one that cannot be read becomes a warning.
    fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self;

    /// Whether a file named `name` is a manifest it reads: any change to one can change it.
    fn is_manifest(name: &str) -> bool;

    /// Whether adding or removing `path` can change it beyond its manifests: a file whose mere
    /// existence it depends on (a package's `__init__.py`, a target cargo discovers by its place).
    fn shaped_by(_path: &str) -> bool {
        false
    }

    /// Whether it found nothing (left out of the serialised project model).
    fn is_empty(&self) -> bool;

    /// The directories of its packages: another ecosystem's package nested in one is a sample.
    fn package_dirs(&self) -> Vec<String> {
        Vec::new()
    }

    /// Settle what depends on every ecosystem, once all are built: `package_dirs` are all their
    /// packages' directories.
    fn settle(&mut self, _package_dirs: &[String]) {}

    /// Its packages, each with the directories (or files) holding its code and tests.
    fn code_packages(&self, _files: &FileIndex) -> Vec<CodePackage> {
        Vec::new()
    }
}
