//! C and C++ in the registry: one directory, one configuration family (`c`), three entries — C
//! translation units (`.c`, parsed by tree-sitter-c), C++ translation units (`.cc`, `.cpp`,
//! `.cxx`, `.c++`) and headers (`.h`, `.hh`, `.hpp`, `.hxx`, `.h++`, `.ipp`, `.tpp`, `.inl`),
//! both parsed by tree-sitter-cpp. A header has an entry of its own because its interface is
//! another rule: what it declares is the API (functions, types, macros, classes' public members,
//! templates), while a translation unit's interface is the functions it defines with external
//! linkage. Headers are parsed as C++: the C++ grammar reads C headers too (measured on hiredis
//! and jq, docs/languages.md "C and C++"), the C grammar cannot read fmt's `.h` files. One family,
//! because `.h` is shared ground: a project of `.c` files cannot have its headers switched off.
//!
//! `#include` resolves through the including file's directory, then the project's include
//! directories ([`model::IncludeModel`]: `compile_commands.json`, CMake, Makefile `-I` flags,
//! conventional `include/` directories). Tests: GoogleTest's `TEST(…)`, Catch2's and doctest's
//! `TEST_CASE(…)`, in `test/`/`tests/` or a file named as a test (`test.c`, `*_test.c`).

mod calls;
mod definitions;
pub mod extract;
mod flow;
pub mod model;
pub mod practices;
pub mod resolve;
pub(crate) mod walks;

use super::{AstLanguage, Comments, FileConventions, Language, Spec, TestCases, TestFunctions};

/// `ast.languages: [c]`: C and C++ (sources and headers).
pub const C_FAMILY: AstLanguage = AstLanguage {
    name: "c",
    display_name: "C/C++",
    feature: "lang-c",
};

/// Comments of both languages: `//` and `/* … */`, Doxygen `/** … */`, `///`, `/*! … */`, `//!`.
const COMMENTS: Comments = Comments {
    line: "//",
    trailing: "  // ",
    doc: &["/**", "///", "/*!", "//!"],
};

/// Keywords a C or C++ declaration's name follows.
const DECLARATION_KEYWORDS: &[&str] = &[
    "struct",
    "union",
    "enum",
    "class",
    "typedef",
    "namespace",
    "using",
    "#define",
    "concept",
];

/// Words before a declaration keyword or a function's return type.
const MODIFIERS: &[&str] = &[
    "extern",
    "inline",
    "constexpr",
    "consteval",
    "virtual",
    "explicit",
    "friend",
    "template",
    "typename",
    "const",
    "volatile",
];

/// The file conventions of C and C++ sources and headers.
const FILES: FileConventions = FileConventions {
    module_stems: &[],
    entry_stems: &[],
    directory_files: &[],
    package_entries: &[],
    package_manifests: &[],
    test_cases: TestCases::UnimportedOrNamed,
    test_functions: TestFunctions::Marked,
};

/// What a translation unit's interface is.
const SOURCE_VISIBILITY: &str = "functions defined with external linkage (not `static`, not in \
     an anonymous namespace or a `detail`/`internal`/`impl` namespace); the header declares the \
     API";

/// The entry of C translation units.
pub const C: Spec = Spec {
    language: Language::C,
    name: "c",
    display_name: "C",
    fence: "c",
    config: C_FAMILY,
    extensions: &["c"],
    #[cfg(feature = "lang-c")]
    grammar: Some(|| tree_sitter_c::LANGUAGE.into()),
    #[cfg(not(feature = "lang-c"))]
    grammar: None,
    comments: COMMENTS,
    declaration_keywords: DECLARATION_KEYWORDS,
    modifiers: MODIFIERS,
    visibility: SOURCE_VISIBILITY,
    files: FILES,
    extraction: "source::lang::c::extract (declarations, Doxygen comments, #include lines)",
    resolver: "source::lang::c::resolve over source::lang::c::model (include directories)",
    later_definition_replaces: false,
    resolves_through_module_scopes: false,
    unit: super::Unit::Implementation,
    practices: Some(practices::detect),
};

/// The entry of C++ translation units.
pub const CPP: Spec = Spec {
    language: Language::Cpp,
    name: "cpp",
    display_name: "C++",
    fence: "cpp",
    extensions: &["cc", "cpp", "cxx", "c++"],
    #[cfg(feature = "lang-c")]
    grammar: Some(|| tree_sitter_cpp::LANGUAGE.into()),
    #[cfg(not(feature = "lang-c"))]
    grammar: None,
    practices: None,
    ..C
};

/// The entry of C and C++ headers, parsed as C++.
pub const HEADER: Spec = Spec {
    language: Language::Header,
    name: "header",
    display_name: "C/C++ header",
    fence: "cpp",
    extensions: &["h", "hh", "hpp", "hxx", "h++", "ipp", "tpp", "inl"],
    visibility: "what the header declares: functions, types, macros (not include guards nor \
                 `_`-prefixed names), templates, namespaces (not anonymous, `detail`, `internal` \
                 or `impl` ones), and each class's public members",
    practices: None,
    unit: super::Unit::Header,
    ..CPP
};
