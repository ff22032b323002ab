//! Go in the registry: `.go` files, `//` comments with the doc comment directly above a
//! declaration, capitalised (exported) names, `doc.go` as the file a package is described by,
//! `go.mod` modules and `go test`'s `_test.go` files.

mod calls;
mod definitions;
pub mod extract;
mod flow;
pub mod model;
pub mod practices;
pub mod resolve;
pub(crate) mod walks;

use super::{AstLanguage, Comments, FileConventions, Language, Spec, TestCases, TestFunctions};

/// `ast.languages: [go]`: Go.
pub const GO_FAMILY: AstLanguage = AstLanguage {
    name: "go",
    display_name: "Go",
    feature: "lang-go",
};

/// Go's registry entry.
pub const GO: Spec = Spec {
    language: Language::Go,
    name: "go",
    display_name: "Go",
    fence: "go",
    config: GO_FAMILY,
    extensions: &["go"],
    #[cfg(feature = "lang-go")]
    grammar: Some(|| tree_sitter_go::LANGUAGE.into()),
    #[cfg(not(feature = "lang-go"))]
    grammar: None,
    comments: Comments {
        line: "//",
        trailing: "  // ",
        doc: &["//"],
    },
    declaration_keywords: &["func", "type", "const", "var"],
    modifiers: &[],
    visibility: "top-level names starting with an upper-case letter (exported); methods and fields likewise, as members of their type",
    files: FileConventions {
        module_stems: &[],
        entry_stems: &["main"],
        directory_files: &["doc.go"],
        package_entries: &[],
        package_manifests: &["go.mod"],
        test_cases: TestCases::Named,
        test_functions: TestFunctions::GoPrefixed,
    },
    extraction: "source::go (symbols, imports, doc comments, package doc)",
    resolver: "source::resolve::go over source::model::go (go.mod modules, go.work, package directories)",
    later_definition_replaces: false,
    resolves_through_module_scopes: false,
    unit: super::Unit::Whole,
    practices: Some(practices::detect),
};
