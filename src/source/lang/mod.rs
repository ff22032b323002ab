//! The language registry: one table ([`LANGUAGES`]) lists the languages the source module parses,
//! and one directory per language ([`rust`], [`javascript`], [`python`], [`go`], [`java`]) holds
//! everything the crate knows of it — its registry entry ([`Spec`]: extensions, grammar, comment
//! syntax, declaration keywords, visibility rule, file conventions), its extraction, its import
//! resolver and ecosystem model, and its [`walks::Walks`]: its arms of every shared walk (calls,
//! flow, definitions, raises, comments). Code outside asks the registry ([`Language::spec`],
//! [`Language::walks`], [`files`]) instead of keeping its own list; the shared walks keep no list
//! of languages, and every `Walks` method a language must answer is required, so a language added
//! is a compile error until it says what it does in each (docs/adding-a-language.md).
//!
//! The registry's data (this module, [`files`], [`kind_name`], [`tooling`]) depends on the grammars
//! only, so `project/` (config, detection, practices) may read it; the languages' code below it is
//! `source/`'s. A language's practices reader (`practices.rs`) uses [`tooling`] alone.

pub mod c;
pub mod csharp;
mod dispatch;
pub mod files;
pub mod go;
pub mod java;
pub mod javascript;
mod kind;
pub mod kotlin;
pub mod php;
pub mod python;
pub mod ruby;
pub mod rust;
pub mod tooling;
pub mod walks;

use std::path::Path;

pub use kind::kind_name;

/// The registry: one line per language — its [`Language`] variant and its entry, the [`Spec`] of
/// that name in its directory's `mod.rs` (`lang/<directory>/`), whose `walks.rs` holds its
/// [`walks::Walks`] under the same name; then, when its ecosystem has a model of the project
/// (`source::model::EcosystemModel`), the model's field in `ProjectModel` and its type. The
/// JavaScript family is one directory with three entries and one model. Each consumer of the list
/// is a macro given to it: [`Language`], [`LANGUAGES`] and [`Language::ALL`] here, the walks'
/// table in `dispatch.rs`, `ProjectModel` in `source/model/`.
macro_rules! for_each_language {
    ($then:ident) => {
        $then! {
            Rust: rust::RUST with cargo: rust::cargo::CargoModel,
            JavaScript: javascript::JAVASCRIPT with node: javascript::node::NodeModel,
            TypeScript: javascript::TYPESCRIPT,
            Tsx: javascript::TSX,
            Python: python::PYTHON with python: python::model::PythonModel,
            Go: go::GO with go: go::model::GoModel,
            Java: java::JAVA with java: java::model::JavaModel,
            Kotlin: kotlin::KOTLIN with kotlin: kotlin::model::KotlinModel,
            Php: php::PHP with php: php::model::PhpModel,
            Ruby: ruby::RUBY with ruby: ruby::model::RubyModel,
            CSharp: csharp::CSHARP with csharp: csharp::model::CSharpModel,
            C: c::C with c: c::model::IncludeModel,
            Cpp: c::CPP,
            Header: c::HEADER,
        }
    };
}
pub(crate) use for_each_language;

/// [`Language`], [`LANGUAGES`] and [`Language::ALL`] from the registry's lines.
macro_rules! registry {
    ($($variant:ident: $directory:ident::$entry:ident
        $(with $field:ident: $($model:ident)::+)?,)*) => {
        /// A programming language whose public interface can be extracted: one per line of the
        /// registry ([`for_each_language`]); its [`Spec`] says which files are its.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
        #[serde(rename_all = "lowercase")]
        pub enum Language {
            $($variant,)*
        }

        /// Every supported language's entry, in [`Language`] declaration order.
        pub const LANGUAGES: [&Spec; Language::ALL.len()] = [$(&$directory::$entry,)*];

        impl Language {
            /// Every supported language, in declaration order.
            pub const ALL: [Language; [$(Language::$variant,)*].len()] = [$(Language::$variant,)*];
        }
    };
}
for_each_language!(registry);

/// `ast.languages` in the configuration: a language family whose public interface is parsed with
/// tree-sitter, named by its languages' entries ([`Spec::config`]; each directory defines its
/// family). Not a [`Language`]: TSX is parsed with its own grammar but switched on with
/// TypeScript, so the configuration names five families for six grammars. Written and read by
/// its [`AstLanguage::name`]; equal when the names are.
#[derive(Clone, Copy, Debug)]
pub struct AstLanguage {
    /// Its name in the configuration, also a design file's language tag ("typescript" for TSX).
    pub name: &'static str,
    /// Its human name ("TypeScript" for TypeScript and TSX).
    pub display_name: &'static str,
    /// The cargo feature that builds its grammars in (`lang-rust`; `lang-typescript` for TSX too).
    pub feature: &'static str,
}

impl PartialEq for AstLanguage {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

impl Eq for AstLanguage {}

impl AstLanguage {
    /// Every family of the registry, once each, in registry order.
    pub fn all() -> Vec<AstLanguage> {
        let mut families: Vec<AstLanguage> = Vec::new();
        for spec in LANGUAGES {
            if !families.contains(&spec.config) {
                families.push(spec.config);
            }
        }
        families
    }

    /// The family named `name` in the configuration.
    pub fn named(name: &str) -> Option<AstLanguage> {
        Self::all().into_iter().find(|family| family.name == name)
    }

    /// Its human name ("TypeScript" for TypeScript and TSX).
    pub fn display_name(self) -> &'static str {
        self.display_name
    }

    /// Its name in the configuration, also a design file's language tag ("typescript" for TSX).
    pub fn name(self) -> &'static str {
        self.name
    }

    /// The cargo feature that builds its grammars in (`lang-rust`; `lang-typescript` for TSX too).
    pub fn feature(self) -> &'static str {
        self.feature
    }

    /// Whether this build parses the family: every grammar of it is compiled in.
    pub fn is_built(self) -> bool {
        LANGUAGES
            .iter()
            .filter(|spec| spec.config == self)
            .all(|spec| spec.grammar.is_some())
    }
}

impl serde::Serialize for AstLanguage {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name)
    }
}

impl<'de> serde::Deserialize<'de> for AstLanguage {
    /// A family's name; any other word is refused as serde refuses an unknown enum variant
    /// ("unknown variant `x`, expected one of `rust`, …"), which the configuration's errors read.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let name = String::deserialize(deserializer)?;
        AstLanguage::named(&name).ok_or_else(|| {
            let expected: Vec<String> = AstLanguage::all()
                .iter()
                .map(|family| format!("`{}`", family.name))
                .collect();
            serde::de::Error::custom(format!(
                "unknown variant `{name}`, expected one of {}",
                expected.join(", ")
            ))
        })
    }
}

/// Everything the crate knows of one language, as data. Code that cannot be data (extraction,
/// import resolution, call and flow walks) lives in the modules named by `extraction` and
/// `resolver`, which match on [`Language`] exhaustively.
pub struct Spec {
    /// The language this entry describes.
    pub language: Language,
    /// Stable lowercase identifier ("rust", "tsx"); also the design file's language tag.
    pub name: &'static str,
    /// Human-readable name ("TypeScript (TSX)").
    pub display_name: &'static str,
    /// Markdown code-fence info string of its Interface Contract.
    pub fence: &'static str,
    /// The `ast.languages` entry that switches its parsing on.
    pub config: AstLanguage,
    /// File extensions, lowercase, without the dot; disjoint across the table.
    pub extensions: &'static [&'static str],
    /// The tree-sitter grammar that parses it; `None` in a build without its cargo feature
    /// ([`AstLanguage::feature`]), where [`Language::from_path`] does not know the language.
    pub grammar: Option<fn() -> tree_sitter::Language>,
    /// Comment and doc-comment syntax.
    pub comments: Comments,
    /// Keywords a declaration's name follows (`fn`, `class`, `def`): the name is the next word.
    pub declaration_keywords: &'static [&'static str],
    /// Words that may come before a declaration keyword (`pub`, `export`, `async`).
    pub modifiers: &'static [&'static str],
    /// What makes a declaration part of the public interface (the rule; the code is in its
    /// extraction module).
    pub visibility: &'static str,
    /// File conventions: index and entry files, manifests, test files.
    pub files: FileConventions,
    /// Where its extraction lives (symbols, imports, docs).
    pub extraction: &'static str,
    /// Where its import resolver and ecosystem model live.
    pub resolver: &'static str,
    /// Whether a later definition of a name in one scope replaces an earlier one (Python's `def`
    /// after its `@overload` stubs, a TypeScript implementation after its overload signatures, a
    /// JavaScript function declared again): the last is the one in effect. Rust's repeated names
    /// are `cfg` alternatives, peers of which the first is shown.
    pub later_definition_replaces: bool,
    /// Whether a file's imports resolve through other files' module scopes (Rust's paths go
    /// through `mod` declarations, `use` bindings and re-exports): what they read of a file is
    /// hashed apart (`Interface::module_scope_hash`, `imports_hash`) so that an edit keeping it
    /// re-resolves no importer.
    pub resolves_through_module_scopes: bool,
    /// Whether what a file defines is declared in another file of its name ([`Unit`]): C and C++
    /// sources and their headers, which name each other in their design files.
    pub unit: Unit,
    /// Reads its tooling conventions (`lang/<language>/practices.rs`: test command, linters and
    /// formatters, language level) for `lexi conventions`; `None` when another entry of its
    /// directory reads them (TypeScript's tools are read with JavaScript's: one `package.json`).
    pub practices: Option<Practices>,
}

/// Which side of a declaration/definition pair a language's files are: C's `sds.h` declares
/// what `sds.c` defines ([`files::is_header_of`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unit {
    /// A file declares what it defines itself (every language but C and C++).
    Whole,
    /// A file defines what a header of its name declares (`sds.c`, `format.cc`).
    Implementation,
    /// A file declares what a file of its name defines (`sds.h`, `format.h`).
    Header,
}

/// A language's reader of its tooling conventions: what it finds is pushed, in the order shown.
pub type Practices = fn(&tooling::Sources, &mut Vec<tooling::Practice>);

/// Every language's practices reader, in registry order.
pub fn practices() -> impl Iterator<Item = Practices> {
    LANGUAGES.iter().filter_map(|spec| spec.practices)
}

/// A language's comment syntax.
pub struct Comments {
    /// The line comment marker (`//`, `#`): what Interface Contracts put before a doc.
    pub line: &'static str,
    /// A line comment after code on the same line (`  // `): what separates a contract line's
    /// signature from its doc.
    pub trailing: &'static str,
    /// The markers of doc comments (`///`, `/**`, `"""`), as documentation of what extraction reads.
    pub doc: &'static [&'static str],
}

/// A language's file conventions.
pub struct FileConventions {
    /// Stems of a file named for its directory rather than itself (`mod`, `index`, `__init__`).
    pub module_stems: &'static [&'static str],
    /// Stems of a program's entry file (`main`), whose description also speaks for its directory.
    pub entry_stems: &'static [&'static str],
    /// File names whose design description the directory's `.aindex` borrows.
    pub directory_files: &'static [&'static str],
    /// Files that make a project root a package's entry point (`index.js`).
    pub package_entries: &'static [&'static str],
    /// Manifests that mark a directory as a package (`Cargo.toml`).
    pub package_manifests: &'static [&'static str],
    /// How a test runner tells a test case from a helper in the test tree.
    pub test_cases: TestCases,
    /// How a test file's tests are found for its description.
    pub test_functions: TestFunctions,
}

/// How the tests of a test file are found for its description (`archivist::tested`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestFunctions {
    /// Functions marked as tests (Rust's `#[test]`), in a test target or a `tests.rs` module of
    /// unit tests; else the tests a macro of the file declares, one call per test.
    Marked,
    /// Methods marked as tests (`@Test`) in a class named as the runner collects it (JUnit,
    /// TestNG).
    MarkedInNamedClass,
    /// `TestXxx`, `BenchmarkXxx`, `ExampleXxx`, `FuzzXxx` functions (`go test`).
    GoPrefixed,
    /// Test suites of calls (`describe`/`it`), else `test_*` functions and `Test*` classes.
    SuitesOrNamed,
}

/// How a file in the test tree is told to be a test case rather than a helper or fixture
/// ([`files::is_test_case`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TestCases {
    /// Only files named as tests (`test_*.py`, `*_test.py`): pytest collects nothing else.
    Named,
    /// A file at most one other file imports: its own test target (`tests/it/main.rs` declaring
    /// it); a module several targets share (`tests/common/mod.rs`) is a helper.
    ImportedByItsTargetOnly,
    /// A file nothing imports, or one named as a test (`*.test.js`, `*.spec.ts`).
    UnimportedOrNamed,
    /// A class Maven Surefire or Failsafe runs by its name: `*Test`, `*Tests`, `*TestCase`, `*IT`,
    /// or `Test*` when no other file imports it (JUnit, TestNG).
    SurefireNamed,
    /// A class PHPUnit runs by its file name: `*Test.php` (its default suffix).
    PhpUnitNamed,
}

impl Language {
    /// This language's registry entry.
    pub fn spec(self) -> &'static Spec {
        LANGUAGES[self.index()]
    }

    /// The language of `path`, judged by its extension (case-insensitive); `None` if unsupported.
    ///
    /// The one switch of the grammar features: a language whose grammar this build lacks
    /// ([`Language::is_built`]) is not found here, so its files are treated as any unsupported
    /// file everywhere — never parsed, generic design files.
    pub fn from_path(path: &Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        LANGUAGES
            .iter()
            .find(|spec| spec.extensions.contains(&ext.as_str()))
            .filter(|spec| spec.grammar.is_some())
            .map(|spec| spec.language)
    }

    /// The languages this build parses, by family, for a message: "Rust, JavaScript, TypeScript,
    /// Python, Go, Java, Kotlin, PHP, Ruby, C# and C/C++".
    pub fn built_names() -> String {
        let mut names: Vec<&str> = Vec::new();
        for spec in LANGUAGES.iter().filter(|spec| spec.grammar.is_some()) {
            let family = spec.config.display_name();
            if !names.contains(&family) {
                names.push(family);
            }
        }
        match names.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => "no language".to_string(),
        }
    }

    /// Whether this build has the language's grammar (its cargo feature, [`AstLanguage::feature`]).
    pub fn is_built(self) -> bool {
        self.spec().grammar.is_some()
    }

    /// The `ast.languages` entry that switches parsing of this language on (TSX goes with TypeScript).
    pub fn ast_language(self) -> AstLanguage {
        self.spec().config
    }

    /// Stable lowercase identifier: "rust", "javascript", "typescript", "tsx", "python".
    pub fn name(self) -> &'static str {
        self.spec().name
    }

    /// Human-readable name, e.g. "TypeScript (TSX)".
    pub fn display_name(self) -> &'static str {
        self.spec().display_name
    }

    /// Markdown code-fence info string for this language.
    pub fn fence(self) -> &'static str {
        self.spec().fence
    }

    /// Position in [`Language::ALL`] and [`LANGUAGES`]; also indexes per-thread parser caches.
    pub(crate) fn index(self) -> usize {
        self as usize
    }

    /// The tree-sitter grammar used to parse this language; `None` when this build lacks it.
    pub(crate) fn grammar(self) -> Option<tree_sitter::Language> {
        self.spec().grammar.map(|grammar| grammar())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_languages_from_extensions() {
        let cases = [
            ("src/lib.rs", Some(Language::Rust)),
            ("a/b.js", Some(Language::JavaScript)),
            ("a/b.mjs", Some(Language::JavaScript)),
            ("a/b.cjs", Some(Language::JavaScript)),
            ("a/b.jsx", Some(Language::JavaScript)),
            ("a/b.ts", Some(Language::TypeScript)),
            ("a/b.d.ts", Some(Language::TypeScript)),
            ("a/b.mts", Some(Language::TypeScript)),
            ("a/b.cts", Some(Language::TypeScript)),
            ("a/b.tsx", Some(Language::Tsx)),
            ("a/b.py", Some(Language::Python)),
            ("a/b.pyi", Some(Language::Python)),
            ("cmd/main.go", Some(Language::Go)),
            ("src/main/java/a/B.java", Some(Language::Java)),
            ("src/main/kotlin/a/B.kt", Some(Language::Kotlin)),
            ("build.gradle.kts", Some(Language::Kotlin)),
            ("src/Routing/Route.php", Some(Language::Php)),
            ("lib/rack/utils.rb", Some(Language::Ruby)),
            ("src/Polly/Policy.cs", Some(Language::CSharp)),
            ("src/sds.c", Some(Language::C)),
            ("src/format.cc", Some(Language::Cpp)),
            ("include/fmt/base.h", Some(Language::Header)),
            ("a/B.RS", Some(Language::Rust)),
            ("README.md", None),
            ("Makefile", None),
            ("rs", None),
        ];
        for (path, expected) in cases {
            assert_eq!(Language::from_path(Path::new(path)), expected, "{path}");
        }
    }

    /// The default build has every grammar: each language is found, and each family is built.
    #[test]
    #[cfg(all(
        feature = "lang-rust",
        feature = "lang-javascript",
        feature = "lang-typescript",
        feature = "lang-python",
        feature = "lang-go",
        feature = "lang-java",
        feature = "lang-kotlin",
        feature = "lang-php",
        feature = "lang-ruby",
        feature = "lang-csharp",
        feature = "lang-c"
    ))]
    fn the_default_build_has_every_grammar() {
        for language in Language::ALL {
            assert!(language.is_built(), "{}", language.name());
            assert!(language.grammar().is_some(), "{}", language.name());
        }
        for family in AstLanguage::all() {
            assert!(family.is_built(), "{}", family.name());
            assert_eq!(family.feature(), format!("lang-{}", family.name()));
        }
    }

    #[test]
    fn the_default_build_names_every_family_once() {
        assert_eq!(
            Language::built_names(),
            "Rust, JavaScript, TypeScript, Python, Go, Java, Kotlin, PHP, Ruby, C# and C/C++"
        );
    }

    /// A family is built only with all its grammars, and a language without its grammar is not
    /// found by its extension (what a reduced build relies on).
    #[test]
    fn a_language_without_its_grammar_is_not_found() {
        for spec in LANGUAGES {
            let path = format!("a/b.{}", spec.extensions[0]);
            let found = Language::from_path(Path::new(&path));
            assert_eq!(found.is_some(), spec.grammar.is_some(), "{path}");
            if !spec.config.is_built() {
                assert!(LANGUAGES
                    .iter()
                    .any(|other| other.config == spec.config && other.grammar.is_none()));
            }
        }
    }

    #[test]
    fn names_are_stable() {
        let names: Vec<_> = Language::ALL.iter().map(|l| l.name()).collect();
        assert_eq!(
            names,
            [
                "rust",
                "javascript",
                "typescript",
                "tsx",
                "python",
                "go",
                "java",
                "kotlin",
                "php",
                "ruby",
                "csharp",
                "c",
                "cpp",
                "header"
            ]
        );
        let display: Vec<_> = Language::ALL.iter().map(|l| l.display_name()).collect();
        assert_eq!(
            display,
            [
                "Rust",
                "JavaScript",
                "TypeScript",
                "TypeScript (TSX)",
                "Python",
                "Go",
                "Java",
                "Kotlin",
                "PHP",
                "Ruby",
                "C#",
                "C",
                "C++",
                "C/C++ header"
            ]
        );
        let fences: Vec<_> = Language::ALL.iter().map(|l| l.fence()).collect();
        assert_eq!(
            fences,
            [
                "rust",
                "javascript",
                "typescript",
                "tsx",
                "python",
                "go",
                "java",
                "kotlin",
                "php",
                "ruby",
                "csharp",
                "c",
                "cpp",
                "cpp"
            ]
        );
        for (i, lang) in Language::ALL.iter().enumerate() {
            assert_eq!(lang.index(), i);
        }
    }

    #[test]
    fn the_table_lists_each_language_once_in_order_with_disjoint_extensions() {
        for (i, spec) in LANGUAGES.iter().enumerate() {
            assert_eq!(spec.language, Language::ALL[i], "{}", spec.name);
            assert_eq!(spec.language.spec().name, spec.name);
        }
        let mut extensions: Vec<&str> = LANGUAGES
            .iter()
            .flat_map(|s| s.extensions)
            .copied()
            .collect();
        let all = extensions.len();
        extensions.sort();
        extensions.dedup();
        assert_eq!(
            extensions.len(),
            all,
            "an extension belongs to one language"
        );
    }
}
