//! Java in the registry: `.java` files, `//` comments with `/** … */` Javadoc, `public`/`protected`
//! visibility, Maven/Gradle builds as package manifests, `package-info.java` as the file a package
//! (directory) is described by, and Surefire's test class names.

mod calls;
mod definitions;
pub mod extract;
mod flow;
pub mod model;
pub mod practices;
pub mod resolve;
pub(crate) mod walks;

use super::{AstLanguage, Comments, FileConventions, Language, Spec, TestCases, TestFunctions};

/// `ast.languages: [java]`: Java.
pub const JAVA_FAMILY: AstLanguage = AstLanguage {
    name: "java",
    display_name: "Java",
    feature: "lang-java",
};

/// Java's registry entry.
pub const JAVA: Spec = Spec {
    language: Language::Java,
    name: "java",
    display_name: "Java",
    fence: "java",
    config: JAVA_FAMILY,
    extensions: &["java"],
    #[cfg(feature = "lang-java")]
    grammar: Some(|| tree_sitter_java::LANGUAGE.into()),
    #[cfg(not(feature = "lang-java"))]
    grammar: None,
    comments: Comments {
        line: "//",
        trailing: "  // ",
        doc: &["/**"],
    },
    declaration_keywords: &["class", "interface", "enum", "record", "@interface"],
    modifiers: &[
        "public",
        "protected",
        "static",
        "final",
        "abstract",
        "sealed",
        "non-sealed",
        "strictfp",
        "synchronized",
        "default",
    ],
    visibility: "`public` and `protected` types and members (interface members are public); \
                 package-private and `private` ones are not",
    files: FileConventions {
        module_stems: &["package-info"],
        entry_stems: &[],
        directory_files: &["package-info.java"],
        package_entries: &[],
        package_manifests: &["pom.xml", "build.gradle", "build.gradle.kts"],
        test_cases: TestCases::SurefireNamed,
        test_functions: TestFunctions::MarkedInNamedClass,
    },
    extraction: "source::java (types, members, imports, Javadoc)",
    resolver: "source::resolve::java over source::model::java (source roots and packages)",
    later_definition_replaces: false,
    resolves_through_module_scopes: false,
    unit: super::Unit::Whole,
    practices: Some(practices::detect),
};
