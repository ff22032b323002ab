//! File conventions across the registry, each with one home: where tests live and how a test file
//! is named ([`TEST_DIRS`], [`is_test_path`], [`is_test_case`]), which files are named for their
//! directory ([`is_module_stem`], [`is_index_file`], [`is_directory_file`]), which mark a package
//! ([`package_manifests`], [`package_entries`]). Per-language facts come from the
//! [`LANGUAGES`](super::LANGUAGES) table; the rules here apply them, and hold also for files of
//! languages the registry does not parse yet (a Go `x_test.go` is a test path).

use std::path::Path;

use super::{Language, TestCases, Unit, LANGUAGES};

use crate::relpath::RelPath;

/// Directories whose files are tests, by the names test runners look for: a file under one is a
/// test path, and `lexictl init` and `lexi conventions` look for them beside the source.
/// In this order, the order of a package's test roots in the project model.
pub const TEST_DIRS: &[&str] = &["tests", "test", "__tests__", "spec", "specs", "testing"];

/// Test directories `lexictl init` adds to the scope beside the source directories, in this
/// order. Narrower than [`TEST_DIRS`]: `testing` is as often a test-support package (Go's
/// `testing/`) as a test tree, and `specs` is kept out as it was — a new scope would change what
/// existing projects' `lexictl init` writes.
pub const SCOPE_TEST_DIRS: &[&str] = &["tests", "test", "spec", "__tests__"];

/// Stems of files the test tree holds for the runner, never tests (pytest's `conftest.py`,
/// minitest's `test_helper.rb`, RSpec's `spec_helper.rb`).
const FIXTURE_STEMS: &[&str] = &["conftest", "test_helper", "spec_helper"];

/// Whether a project-relative path names a test file by the common conventions of most languages:
/// under a [`TEST_DIRS`] directory, or named `test_*`, `*_test`, `*_tests`, `*_spec` (RSpec),
/// `*.test.*`, `*.spec.*`, or a fixture file ([`FIXTURE_STEMS`]) — the names `lexi conventions`
/// reports as test naming patterns.
pub fn is_test_path(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let in_test_dir = lower
        .split('/')
        .rev()
        .skip(1)
        .any(|dir| TEST_DIRS.contains(&dir));
    let lower = RelPath::new(&lower);
    let (name, stem) = (lower.file_name(), lower.stem());
    in_test_dir
        || ((name.ends_with(".java") || name.ends_with(".kt")) && is_surefire_name(path))
        || (name.ends_with("test.php") && is_phpunit_name(path))
        || (name.ends_with(".cs")
            && lower
                .as_str()
                .split('/')
                .rev()
                .skip(1)
                .any(|d| d.ends_with(".tests") || d.ends_with(".specs")))
        || (matches!(stem, "test" | "tests") && is_c_family_source(name))
        || stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_tests")
        || stem.ends_with("_spec")
        || name.contains(".test.")
        || name.contains(".spec.")
        || FIXTURE_STEMS.contains(&stem)
}

/// Whether a file is a C or C++ translation unit (hiredis's `test.c` is its test program).
fn is_c_family_source(name: &str) -> bool {
    [".c", ".cc", ".cpp", ".cxx"]
        .iter()
        .any(|extension| name.ends_with(extension))
}

/// Whether a dependent goes in a design file's `## Tests` section: a test case by what its path says
/// ([`is_test_case`] with its importers unknown) — not `conftest.py`, not a Python module outside
/// pytest's `test_*.py`/`*_test.py`.
pub fn is_listed_test(path: &str) -> bool {
    is_test_case(path, 0)
}

/// Whether `path` is a test a test runner collects, not a helper, fixture or sample app that
/// lives in the test tree; `importers` counts the files that import it. A test path
/// ([`is_test_path`]) is a test case unless it is a fixture file (`conftest.py`), or its language's
/// [`TestCases`] rule says otherwise: a Python module outside pytest's `test_*.py`/`*_test.py`
/// (flask's `tests/test_apps/cliapp/app.py`), a Rust module several test targets import
/// (`tests/common/mod.rs`; one importer is the target whose module it is), a module of any other
/// language that other files import (express's `test/support/utils.js`) — unless its name says
/// test (`*.test.js`, `*_test.go`).
pub fn is_test_case(path: &str, importers: usize) -> bool {
    if !is_test_path(path) {
        return false;
    }
    let lower = path.to_ascii_lowercase();
    let name = RelPath::new(&lower).file_name();
    let stem = RelPath::new(&lower).name_without_extension();
    if FIXTURE_STEMS.contains(&stem) {
        return false;
    }
    let named_test = stem.starts_with("test_") || stem.ends_with("_test") || stem == "tests";
    let rule = Language::from_path(Path::new(&lower))
        .map_or(TestCases::UnimportedOrNamed, |language| {
            language.spec().files.test_cases
        });
    match rule {
        TestCases::Named => named_test,
        TestCases::ImportedByItsTargetOnly => importers <= 1,
        TestCases::UnimportedOrNamed => {
            importers == 0 || named_test || name.contains(".test.") || name.contains(".spec.")
        }
        // `Test*` is Surefire's too, but a class other tests import by that name is their helper
        // (gson's `TestTypes`).
        TestCases::SurefireNamed => {
            is_surefire_name(path) && (importers == 0 || !surefire_prefix_only(path))
        }
        TestCases::PhpUnitNamed => is_phpunit_name(path),
    }
}

/// Whether a Java file's class is a test only by Surefire's `Test*`/`IT*` prefix.
fn surefire_prefix_only(path: &str) -> bool {
    let stem = RelPath::new(path).stem();
    !["Test", "Tests", "TestCase", "IT", "ITCase"]
        .iter()
        .any(|suffix| stem.len() > suffix.len() && stem.ends_with(suffix))
}

/// Whether a PHP file is one PHPUnit runs by its default suffix: `*Test.php` (`RouteTest.php`).
fn is_phpunit_name(path: &str) -> bool {
    let stem = RelPath::new(path).stem();
    stem.len() > "Test".len() && stem.ends_with("Test")
}

/// Whether a Java file's class is one Maven Surefire or Failsafe runs by default: `Test*`,
/// `*Test`, `*Tests`, `*TestCase` (Surefire), `*IT`, `IT*`, `*ITCase` (Failsafe).
fn is_surefire_name(path: &str) -> bool {
    let stem = RelPath::new(path).stem();
    let capital_after = |prefix: &str| {
        stem.strip_prefix(prefix)
            .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_uppercase()))
    };
    capital_after("Test")
        || capital_after("IT")
        || ["Test", "Tests", "TestCase", "IT", "ITCase"]
            .iter()
            .any(|suffix| stem.len() > suffix.len() && stem.ends_with(suffix))
}

/// Whether `header` is the header of `implementation`: a C or C++ source and a header of the same
/// name (`sds.c` and `sds.h`, `src/format.cc` and `include/fmt/format.h`), wherever each lives —
/// the caller knows the source includes it. A source's design file marks its header among its
/// Dependencies, the header's marks the source among its Dependents.
pub fn is_header_of(implementation: &str, header: &str) -> bool {
    let unit = |path: &str| Language::from_path(Path::new(path)).map(|l| l.spec().unit);
    unit(implementation) == Some(Unit::Implementation)
        && unit(header) == Some(Unit::Header)
        && RelPath::new(implementation).name_without_extension()
            == RelPath::new(header).name_without_extension()
}

/// Whether a file stem names a file for its directory rather than itself (`mod`, `lib`, `index`,
/// `__init__`): what an object or test of the file is called is the directory's name.
pub fn is_module_stem(stem: &str) -> bool {
    LANGUAGES
        .iter()
        .any(|spec| spec.files.module_stems.contains(&stem))
}

/// A file's name without its directory and extensions, or its directory's name when the stem is a
/// module stem ([`is_module_stem`]): `json` of `src/flask/json/__init__.py`, `app` of `app.py`.
pub fn module_name(path: &str) -> &str {
    let path = RelPath::new(path);
    let stem = path.stem();
    match is_module_stem(stem) {
        true => path.parent().map_or(stem, RelPath::file_name),
        false => stem,
    }
}

/// Whether `source` is a directory's index file — a module file or a program's entry (`main`), of
/// any extension — described by the directory's README when it has no doc of its own.
pub fn is_index_file(source: &str) -> bool {
    let stem = RelPath::new(source).stem();
    is_module_stem(stem)
        || LANGUAGES
            .iter()
            .any(|spec| spec.files.entry_stems.contains(&stem))
}

/// Whether a file named `name` is one whose design description speaks for its whole directory in
/// the `.aindex`: a language's directory file (`mod.rs`, `index.ts`, `__init__.py`) or `README.md`.
pub fn is_directory_file(name: &str) -> bool {
    name == "README.md"
        || LANGUAGES
            .iter()
            .any(|spec| spec.files.directory_files.contains(&name))
}

/// The files that, at a project's root, make the root a package's entry point (`index.js`: what
/// `require('..')` loads).
pub fn package_entries() -> impl Iterator<Item = &'static str> {
    LANGUAGES
        .iter()
        .flat_map(|spec| spec.files.package_entries)
        .copied()
}

/// The package manifests of every language (`Cargo.toml`, `package.json`, `pyproject.toml`),
/// each once, in table order.
pub fn package_manifests() -> Vec<&'static str> {
    let mut out: Vec<&'static str> = Vec::new();
    for name in LANGUAGES
        .iter()
        .flat_map(|spec| spec.files.package_manifests)
    {
        if !out.contains(name) {
            out.push(name);
        }
    }
    out
}

/// A path without its extension and without a last `index`/`main`/`mod`/`__init__` part; `None`
/// when nothing is left.
pub fn path_name(path: &str) -> Option<String> {
    let path = RelPath::new(path);
    let dir = path.dir();
    let named = match path.stem() {
        "index" | "main" | "mod" | "__init__" => dir.to_string(),
        stem if dir.is_empty() => stem.to_string(),
        stem => format!("{dir}/{stem}"),
    };
    (!named.is_empty()).then_some(named)
}

/// A program a test suite builds from a test tree (a trybuild UI test, a compile-fail case): its
/// path below the last test directory (`tests/derive_ui/bool_value_enum.rs` →
/// `derive_ui/bool_value_enum`); `None` outside a test tree.
pub fn test_program_name(source: &str) -> Option<String> {
    let parts: Vec<&str> = source.split('/').collect();
    let dirs = &parts[..parts.len().saturating_sub(1)];
    let at = dirs.iter().rposition(|dir| TEST_DIRS.contains(dir))?;
    path_name(&parts[at + 1..].join("/"))
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
            "lib/foo_spec.rb",
            "src/Shapes.Tests/CircleTests.cs",
            "Polly.Specs/Helpers/Stub.cs",
            "test.c",
            "src/jq_test.c",
        ] {
            assert!(is_test_path(path), "{path}");
        }
        for path in [
            "src/testing.rs",
            "src/contest.py",
            "tests.md",
            "test.h",
            "test.py",
        ] {
            assert!(!is_test_path(path), "{path}");
        }
        assert!(!is_test_path("src/Shapes.Tests.cs"));
    }

    #[test]
    fn helpers_and_fixtures_in_the_test_tree_are_not_test_cases() {
        for (path, importers) in [
            ("tests/test_json.py", 0),
            ("tests/test_json.py", 3),
            ("pkg/json_test.py", 0),
            ("tests/tcp_accept.rs", 0),
            ("tests/it/test_lookup.rs", 1),
            ("test/res.json.js", 0),
            ("web/__tests__/a.js", 0),
            ("src/a.test.ts", 2),
            ("a/x_test.go", 1),
            ("core/src/test/java/a/CircleTest.java", 3),
            ("src/test/java/a/TestCircle.java", 0),
            ("src/test/java/a/CircleIT.java", 0),
            ("src/it/java/a/CircleTests.java", 0),
            ("tests/Routing/RouteTest.php", 0),
            ("src/Shapes/CircleTest.php", 0),
            ("test/spec_utils.rb", 0),
            ("spec/json_spec.rb", 0),
            ("test/routing_test.rb", 0),
        ] {
            assert!(is_test_case(path, importers), "{path} {importers}");
        }
        for (path, importers) in [
            ("tests/conftest.py", 0),
            ("tests/test_apps/cliapp/app.py", 0),
            ("tests/test_apps/blueprintapp/__init__.py", 1),
            ("tests/common/mod.rs", 5),
            ("test/support/utils.js", 12),
            ("src/json.py", 0),
            ("src/test/java/a/TestTypes.java", 4),
            ("src/test/java/a/MoreAsserts.java", 0),
            ("src/test/java/a/Testing.java", 0),
            ("tests/TestCase.php", 0),
            ("tests/bootstrap.php", 0),
            ("src/Shapes/Circle.php", 0),
            ("src/Test.php", 0),
            ("test/test_helper.rb", 0),
            ("spec/spec_helper.rb", 0),
        ] {
            assert!(!is_test_case(path, importers), "{path} {importers}");
        }
    }

    #[test]
    fn directory_files_come_from_the_languages() {
        for stem in ["mod", "lib", "index", "__init__"] {
            assert!(is_module_stem(stem), "{stem}");
        }
        assert!(!is_module_stem("main"));
        for path in ["src/main.rs", "a/index.html", "pkg/__init__.py", "lib.rs"] {
            assert!(is_index_file(path), "{path}");
        }
        for name in [
            "mod.rs",
            "index.tsx",
            "__init__.py",
            "README.md",
            "index.mjs",
            "doc.go",
        ] {
            assert!(is_directory_file(name), "{name}");
        }
        for name in ["index.cjs", "index.mts", "main.py"] {
            assert!(!is_directory_file(name), "{name}");
        }
        let entries: Vec<&str> = package_entries().collect();
        assert_eq!(entries, ["index.js", "index.mjs", "index.cjs", "index.ts"]);
        assert_eq!(
            package_manifests(),
            [
                "Cargo.toml",
                "package.json",
                "pyproject.toml",
                "go.mod",
                "pom.xml",
                "build.gradle",
                "build.gradle.kts",
                "composer.json"
            ]
        );
    }
}
