//! Python in the registry: `.py`/`.pyi` files, `#` comments with docstrings, `_name` privacy,
//! `__init__.py` as the file a package is named by, pyproject packages and pytest's test files.

mod calls;
mod definitions;
pub mod extract;
mod flow;
pub mod model;
pub mod practices;
pub mod resolve;
mod syspath;
pub(crate) mod walks;

use super::{AstLanguage, Comments, FileConventions, Language, Spec, TestCases, TestFunctions};

/// `ast.languages: [python]`: Python.
pub const PYTHON_FAMILY: AstLanguage = AstLanguage {
    name: "python",
    display_name: "Python",
    feature: "lang-python",
};

/// Python's registry entry.
pub const PYTHON: Spec = Spec {
    language: Language::Python,
    name: "python",
    display_name: "Python",
    fence: "python",
    config: PYTHON_FAMILY,
    extensions: &["py", "pyi"],
    #[cfg(feature = "lang-python")]
    grammar: Some(|| tree_sitter_python::LANGUAGE.into()),
    #[cfg(not(feature = "lang-python"))]
    grammar: None,
    comments: Comments {
        line: "#",
        trailing: "  # ",
        doc: &["\"\"\"", "'''"],
    },
    declaration_keywords: &["def", "class"],
    modifiers: &["async"],
    visibility: "module-level names not starting with `_` (`__dunder__` names are public), or the names `__all__` lists",
    files: FileConventions {
        module_stems: &["__init__"],
        entry_stems: &[],
        directory_files: &["__init__.py"],
        package_entries: &[],
        package_manifests: &["pyproject.toml"],
        test_cases: TestCases::Named,
        test_functions: TestFunctions::SuitesOrNamed,
    },
    extraction: "source::python (symbols, imports, docstrings)",
    resolver: "source::resolve::python over source::model::python (package roots)",
    later_definition_replaces: true,
    resolves_through_module_scopes: false,
    unit: super::Unit::Whole,
    practices: Some(practices::detect),
};
