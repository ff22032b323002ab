//! C# in the registry: `.cs` files, `//` comments with `///` XML doc comments (`<summary>`), the
//! interface of a file every declaration other code of the solution can use — public and internal
//! types (a top-level type without a modifier is internal: visible to its whole assembly) and
//! their members that are not `private` — `.csproj` projects as packages (their
//! `ProjectReference`s the edges between them), and xUnit's, NUnit's and MSTest's test methods
//! (`[Fact]`, `[Theory]`, `[Test]`, `[TestMethod]`, …) in test projects (`test/`, `*.Tests`).

mod calls;
mod definitions;
pub mod extract;
mod flow;
pub mod model;
pub mod practices;
pub mod resolve;
pub(crate) mod walks;

use super::{AstLanguage, Comments, FileConventions, Language, Spec, TestCases, TestFunctions};

/// `ast.languages: [csharp]`: C#.
pub const CSHARP_FAMILY: AstLanguage = AstLanguage {
    name: "csharp",
    display_name: "C#",
    feature: "lang-csharp",
};

/// C#'s registry entry.
pub const CSHARP: Spec = Spec {
    language: Language::CSharp,
    name: "csharp",
    display_name: "C#",
    fence: "csharp",
    config: CSHARP_FAMILY,
    extensions: &["cs"],
    #[cfg(feature = "lang-csharp")]
    grammar: Some(|| tree_sitter_c_sharp::LANGUAGE.into()),
    #[cfg(not(feature = "lang-csharp"))]
    grammar: None,
    comments: Comments {
        line: "//",
        trailing: "  // ",
        doc: &["///"],
    },
    declaration_keywords: &[
        "class",
        "struct",
        "interface",
        "enum",
        "record",
        "delegate",
        "event",
        "namespace",
    ],
    modifiers: &[
        "public",
        "internal",
        "protected",
        "static",
        "sealed",
        "abstract",
        "partial",
        "readonly",
        "virtual",
        "override",
        "async",
        "unsafe",
        "extern",
        "new",
        "const",
        "file",
        "required",
        "ref",
    ],
    visibility: "public and internal types (a top-level type without a modifier is internal: \
                 its assembly may use it) and their members that are not `private` or `private \
                 protected` (a member without a modifier is private in a class or struct, public \
                 in an interface); nothing inside a private nested type",
    files: FileConventions {
        module_stems: &[],
        entry_stems: &["Program"],
        directory_files: &[],
        package_entries: &[],
        package_manifests: &[],
        test_cases: TestCases::UnimportedOrNamed,
        test_functions: TestFunctions::MarkedInNamedClass,
    },
    extraction: "source::lang::csharp::extract (declarations, XML doc comments, usings, \
                 namespaces, names used)",
    resolver: "source::lang::csharp::resolve over source::lang::csharp::model (projects, their \
               references and global usings, the types each file declares per namespace)",
    later_definition_replaces: false,
    resolves_through_module_scopes: false,
    unit: super::Unit::Whole,
    practices: Some(practices::detect),
};
