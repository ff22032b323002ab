//! PHP in the registry: `.php` files (parsed with their HTML text around `<?php`, so templates
//! too), `//`, `#` and `/* … */` comments with `/** … */` PHPDoc, public members of classes,
//! interfaces, traits and enums (no `private`/`protected`; a member without a visibility is public)
//! and top-level functions and constants; `composer.json` as the package manifest (its PSR-4,
//! PSR-0 and classmap autoload maps resolve class names to files; the functions PHP files declare
//! resolve the calls of namespaced functions); PHPUnit's `*Test.php` classes with `test*` methods,
//! `#[Test]` or `@test` as the tests.

mod calls;
mod declared;
mod definitions;
pub mod extract;
mod flow;
pub mod model;
pub mod practices;
pub mod resolve;
pub(crate) mod walks;

use super::{AstLanguage, Comments, FileConventions, Language, Spec, TestCases, TestFunctions};

/// `ast.languages: [php]`: PHP.
pub const PHP_FAMILY: AstLanguage = AstLanguage {
    name: "php",
    display_name: "PHP",
    feature: "lang-php",
};

/// PHP's registry entry.
pub const PHP: Spec = Spec {
    language: Language::Php,
    name: "php",
    display_name: "PHP",
    fence: "php",
    config: PHP_FAMILY,
    extensions: &["php"],
    #[cfg(feature = "lang-php")]
    grammar: Some(|| tree_sitter_php::LANGUAGE_PHP.into()),
    #[cfg(not(feature = "lang-php"))]
    grammar: None,
    comments: Comments {
        line: "//",
        trailing: "  // ",
        doc: &["/**"],
    },
    declaration_keywords: &[
        "class",
        "interface",
        "trait",
        "enum",
        "function",
        "const",
        "case",
    ],
    modifiers: &[
        "public", "static", "abstract", "final", "readonly", "function",
    ],
    visibility: "classes, interfaces, traits and enums, and their members that are not `private` \
                 or `protected` (a member without a visibility is public; an interface's are \
                 all public): methods, constants, properties (`public`, `var`, constructor-promoted \
                 `public` parameters) and enum cases; top-level functions and constants",
    files: FileConventions {
        module_stems: &[],
        entry_stems: &[],
        directory_files: &[],
        package_entries: &[],
        package_manifests: &["composer.json"],
        test_cases: TestCases::PhpUnitNamed,
        test_functions: TestFunctions::MarkedInNamedClass,
    },
    extraction: "source::lang::php::extract (declarations, PHPDoc, names resolved through the \
                 namespace and its `use` statements, functions called, require/include paths)",
    resolver: "source::lang::php::resolve over source::lang::php::model (composer.json autoload \
               maps, the functions and constants PHP files declare)",
    later_definition_replaces: false,
    resolves_through_module_scopes: false,
    unit: super::Unit::Whole,
    practices: Some(practices::detect),
};
