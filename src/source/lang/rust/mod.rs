//! Rust in the registry: `.rs` files, `//` comments with `///`/`//!` docs, `pub` visibility, Cargo
//! packages, `mod.rs`/`lib.rs`/`main.rs` as the files a directory is named by, and test targets.

mod calls;
pub mod cargo;
pub mod cfg;
mod definitions;
pub mod expand;
pub mod extract;
mod flow;
pub mod macro_rules;
mod paths;
pub mod practices;
pub mod resolve;
mod walk;
pub(crate) mod walks;

use super::{AstLanguage, Comments, FileConventions, Language, Spec, TestCases, TestFunctions};

/// `ast.languages: [rust]`: Rust.
pub const RUST_FAMILY: AstLanguage = AstLanguage {
    name: "rust",
    display_name: "Rust",
    feature: "lang-rust",
};

/// Rust's registry entry.
pub const RUST: Spec = Spec {
    language: Language::Rust,
    name: "rust",
    display_name: "Rust",
    fence: "rust",
    config: RUST_FAMILY,
    extensions: &["rs"],
    #[cfg(feature = "lang-rust")]
    grammar: Some(|| tree_sitter_rust::LANGUAGE.into()),
    #[cfg(not(feature = "lang-rust"))]
    grammar: None,
    comments: Comments {
        line: "//",
        trailing: "  // ",
        doc: &["///", "//!", "/**", "/*!"],
    },
    declaration_keywords: &[
        "fn",
        "struct",
        "enum",
        "trait",
        "type",
        "union",
        "mod",
        "macro_rules!",
        "const",
        "static",
    ],
    modifiers: &["pub", "async"],
    visibility: "`pub` items; `pub(crate)`, `pub(crate)` and `pub(in …)` are not public",
    files: FileConventions {
        module_stems: &["mod", "lib"],
        entry_stems: &["main"],
        directory_files: &["mod.rs", "lib.rs", "main.rs"],
        package_entries: &[],
        package_manifests: &["Cargo.toml"],
        test_cases: TestCases::ImportedByItsTargetOnly,
        test_functions: TestFunctions::Marked,
    },
    extraction: "source::rust (symbols, imports, docs, cfg and macro expansion)",
    resolver: "source::resolve::rust over source::model::cargo (workspaces and targets)",
    later_definition_replaces: false,
    resolves_through_module_scopes: true,
    unit: super::Unit::Whole,
    practices: Some(practices::detect),
};
