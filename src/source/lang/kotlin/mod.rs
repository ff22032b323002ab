//! Kotlin in the registry: `.kt` and `.kts` files, `//` comments with `/** … */` KDoc, public by
//! default (`private`, `internal` and `protected` declarations are not the interface), Gradle and
//! Maven builds as package manifests, JUnit's and kotlin.test's `@Test` functions in classes named
//! as Gradle's and Surefire's test tasks collect them (`*Test.kt`).

mod calls;
mod definitions;
pub mod extract;
mod flow;
pub mod model;
pub mod practices;
pub mod resolve;
pub(crate) mod walks;

use super::{AstLanguage, Comments, FileConventions, Language, Spec, TestCases, TestFunctions};

/// `ast.languages: [kotlin]`: Kotlin.
pub const KOTLIN_FAMILY: AstLanguage = AstLanguage {
    name: "kotlin",
    display_name: "Kotlin",
    feature: "lang-kotlin",
};

/// Kotlin's registry entry.
pub const KOTLIN: Spec = Spec {
    language: Language::Kotlin,
    name: "kotlin",
    display_name: "Kotlin",
    fence: "kotlin",
    config: KOTLIN_FAMILY,
    extensions: &["kt", "kts"],
    #[cfg(feature = "lang-kotlin")]
    grammar: Some(|| tree_sitter_kotlin_ng::LANGUAGE.into()),
    #[cfg(not(feature = "lang-kotlin"))]
    grammar: None,
    comments: Comments {
        line: "//",
        trailing: "  // ",
        doc: &["/**"],
    },
    declaration_keywords: &[
        "class",
        "interface",
        "object",
        "fun",
        "val",
        "var",
        "typealias",
    ],
    modifiers: &[
        "public",
        "open",
        "abstract",
        "final",
        "sealed",
        "data",
        "enum",
        "annotation",
        "inline",
        "value",
        "inner",
        "override",
        "suspend",
        "operator",
        "infix",
        "tailrec",
        "external",
        "const",
        "lateinit",
        "expect",
        "actual",
        "fun",
        "companion",
    ],
    visibility:
        "declarations without `private`, `internal` or `protected` (Kotlin's default is \
                 public; `internal` is visible to its module only, so not the interface), inside \
                 a public container; a class's `val`/`var` constructor parameters as its properties",
    files: FileConventions {
        module_stems: &[],
        entry_stems: &[],
        directory_files: &[],
        package_entries: &[],
        package_manifests: &["build.gradle.kts", "build.gradle", "pom.xml"],
        test_cases: TestCases::SurefireNamed,
        test_functions: TestFunctions::MarkedInNamedClass,
    },
    extraction: "source::lang::kotlin::extract (declarations, KDoc, imports, names used)",
    resolver: "source::lang::kotlin::resolve over source::lang::kotlin::model (packages and \
               the top-level names each file declares)",
    later_definition_replaces: false,
    resolves_through_module_scopes: false,
    unit: super::Unit::Whole,
    practices: Some(practices::detect),
};
