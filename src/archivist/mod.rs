//! The Archivist: who writes design files when an agent did not.
//!
//! An [`Archivist`] gets everything known about one source file (its text, public interface,
//! resolved dependencies, dependents and tests) and returns the description and the sections it owns.
//! The update engine merges that into the existing design file, keeping every section the Archivist
//! does not own, and never touches a file an agent or human edited (DESIGN §5, seed D-019).
//!
//! [`structural::StructuralArchivist`] is the default: offline, deterministic, free.

pub mod structural;

use crate::library::markdown::Section;
use crate::source::{Interface, Language};

/// Which sections the Archivist owns. Anything else in a design file belongs to agents and humans.
pub const OWNED_SECTIONS: &[&str] = &[
    crate::library::design_file::sections::INTERFACE_CONTRACT,
    crate::library::design_file::sections::DEPENDENCIES,
    crate::library::design_file::sections::DEPENDENTS,
    crate::library::design_file::sections::TESTS,
    crate::library::design_file::sections::COMPLEXITY_WARNING,
    crate::library::design_file::sections::TAGS,
];

/// Everything the Archivist may use to describe one file.
pub struct ArchivistInput<'a> {
    /// Project-relative source path.
    pub source: &'a str,
    /// The source text (lossily decoded if it was not UTF-8).
    pub text: &'a str,
    /// The parsed language, for code files.
    pub language: Option<Language>,
    /// The public interface, for code files that parsed.
    pub interface: Option<&'a Interface>,
    /// Project files this one imports, sorted.
    pub dependencies: &'a [String],
    /// Project files that import this one, sorted.
    pub dependents: &'a [String],
}

/// What the Archivist wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArchivistOutput {
    /// The one-sentence frontmatter description.
    pub description: String,
    /// Owned sections in the order they should appear. An owned section absent from this list is
    /// removed from the design file (e.g. a Complexity Warning that no longer applies).
    pub sections: Vec<Section>,
}

/// A writer of design files.
pub trait Archivist: Sync {
    /// The generator name recorded in provenance, e.g. `structural`.
    fn name(&self) -> &str;
    /// Describe one file.
    fn describe(&self, input: &ArchivistInput<'_>) -> anyhow::Result<ArchivistOutput>;
}

/// Whether a project-relative path looks like a test file.
pub fn is_test_path(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    let in_test_dir = path
        .split('/')
        .rev()
        .skip(1)
        .any(|dir| matches!(dir, "tests" | "test" | "__tests__" | "spec" | "specs"));
    let stem = name.split('.').next().unwrap_or(name);
    in_test_dir
        || stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_tests")
        || name.contains(".test.")
        || name.contains(".spec.")
        || name == "conftest.py"
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_paths_are_recognised() {
        for path in [
            "tests/it/main.rs",
            "pkg/test_x.py",
            "a/x_test.go",
            "src/a.test.ts",
            "web/__tests__/b.js",
            "x.spec.tsx",
        ] {
            assert!(is_test_path(path), "{path}");
        }
        for path in ["src/testing.rs", "src/contest.py", "tests.md"] {
            assert!(!is_test_path(path), "{path}");
        }
    }
}
