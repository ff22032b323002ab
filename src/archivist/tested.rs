//! The description of a test file that has its own tests: what it tests, never the doc of a helper
//! class it defines (flask's `tests/test_json.py` is not "Fixed offset in hours east from UTC.").
//! JavaScript/TypeScript: the titles of its top-level `describe` blocks and of the blocks inside
//! them, and its number of cases ("Tests `app.router` (45 cases): methods, decode params, …").
//! Python: the module its name says it tests and its test functions, as pytest collects them
//! ("Tests `json` (40 tests: `json_bad_requests`, …).").
//! Go: the file its name says it tests and its `go test` functions ("Tests `cart` (2 tests:
//! `TestCartAdd`, `BenchmarkTotal`).").

use super::describe::{first_sentence, quoted_list};
use super::is_test_case;
use crate::source::lang::TestFunctions;
use crate::source::{Interface, Suites, SymbolKind};

/// Longest description of a test file, in characters (before its last `.`).
const MAX_CHARS: usize = 180;
/// Test names or child titles listed.
const LISTED: usize = 5;

/// The description of `source` when it is a test file with tests of its own; `None` otherwise.
pub fn test_file_description(source: &str, text: &str, interface: &Interface) -> Option<String> {
    // Rust: `#[test]` functions, in a test target or a `tests.rs` unit-test module.
    let style = interface.language.spec().files.test_functions;
    match style {
        TestFunctions::Marked => return rust_tests(source, text, interface),
        TestFunctions::MarkedInNamedClass => return java_tests(source, interface),
        TestFunctions::GoPrefixed | TestFunctions::SuitesOrNamed => {}
    }
    // What a test runner collects by its name (pytest: `test_*.py`; not `conftest.py`).
    if !is_test_case(source, 0) {
        return None;
    }
    if !interface.suites.is_empty() {
        return Some(of_suites(&interface.suites));
    }
    let tests: Vec<String> = interface
        .outline()
        .iter()
        .filter(|line| line.depth == 0)
        .filter_map(|line| match line.kind {
            // `go test`'s `TestXxx`, `BenchmarkXxx`, `ExampleXxx`, `FuzzXxx`.
            Some(SymbolKind::Function) if style == TestFunctions::GoPrefixed => {
                crate::source::is_go_test_function(&line.name).then(|| line.name.clone())
            }
            Some(SymbolKind::Function) => line.name.strip_prefix("test_").map(str::to_string),
            Some(SymbolKind::Class) if line.name.starts_with("Test") => Some(line.name.clone()),
            _ => None,
        })
        .collect();
    listed(source, &tests)
}

/// A Rust file of `#[test]` functions (`#[tokio::test]` and the like too): an integration test of
/// a `tests/` directory, or a `tests.rs` module of unit tests — "Tests `tcp_stream`: `connect`,
/// `accept`, … and more.", named for the file (or its directory, for `tests.rs`, `main.rs`,
/// `mod.rs`). `#[test]` functions are private: adding one is a body edit, so no count.
fn rust_tests(source: &str, text: &str, interface: &Interface) -> Option<String> {
    let name = source.rsplit('/').next().unwrap_or(source);
    let unit_module = matches!(name, "tests.rs" | "test.rs");
    if !is_test_case(source, 0) && !unit_module {
        return None;
    }
    let mut tests: Vec<String> = interface
        .calls
        .iter()
        .filter(|member| member.test)
        .map(|member| member.name().to_string())
        .collect();
    if tests.is_empty() && is_test_case(source, 0) {
        tests = macro_tests(text);
    }
    if tests.is_empty() {
        return None;
    }
    Some(finish(format!(
        "Tests `{}`: {}",
        tested_module(source),
        quoted_list(&tests, LISTED)
    )))
}

/// A Java test class (named as Surefire runs it) with `@Test` methods (JUnit 4/5, TestNG;
/// `@ParameterizedTest`, `@RepeatedTest`, `@TestFactory`): "Tests `Circle`: `area`, `radius`.",
/// named for the class it tests (`CircleTest` → `Circle`). Test methods are often package-private:
/// no count, as adding one is a body edit.
fn java_tests(source: &str, interface: &Interface) -> Option<String> {
    if !is_test_case(source, 0) {
        return None;
    }
    let tests: Vec<String> = interface
        .calls
        .iter()
        .filter(|member| member.test)
        .map(|member| member.name().to_string())
        .collect();
    if tests.is_empty() {
        return None;
    }
    Some(finish(format!(
        "Tests `{}`: {}",
        java_subject(source),
        quoted_list(&tests, LISTED)
    )))
}

/// The class a Java test class is named for: `Circle` of `CircleTest.java`, `CircleTests`,
/// `TestCircle`, `CircleIT`.
pub(super) fn java_subject(source: &str) -> &str {
    let name = source.rsplit('/').next().unwrap_or(source);
    let stem = name.split('.').next().unwrap_or(name);
    let bare = ["Tests", "Test", "TestCase", "IT"]
        .iter()
        .find_map(|suffix| stem.strip_suffix(suffix).filter(|s| !s.is_empty()))
        .or_else(|| {
            stem.strip_prefix("Test")
                .filter(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
        });
    bare.unwrap_or(stem)
}

/// The tests a Rust test file declares through a macro of its own, one call per test at the top
/// level with the test's name first: ripgrep's `rgtest!(f1_sjis, |dir, cmd| { … })`.
fn macro_tests(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let (name, rest) = line.split_once('!')?;
            let is_macro =
                !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
            let rest = rest.trim_start().strip_prefix('(')?.trim_start();
            let test: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let named = test.starts_with(|c: char| c.is_alphabetic() || c == '_')
                && rest[test.len()..].trim_start().starts_with(',');
            (is_macro && named).then_some(test)
        })
        .collect()
}

/// "Tests `subject` (N tests: `a`, `b`, …)." for `tests`, named as written; `None` when empty.
fn listed(source: &str, tests: &[String]) -> Option<String> {
    if tests.is_empty() {
        return None;
    }
    let subject = tested_module(source);
    let names: Vec<String> = tests
        .iter()
        .take(LISTED)
        .map(|n| format!("`{n}`"))
        .collect();
    let more = if tests.len() > LISTED { ", …" } else { "" };
    let noun = if tests.len() == 1 { "test" } else { "tests" };
    Some(finish(format!(
        "Tests `{subject}` ({} {noun}: {}{more})",
        tests.len(),
        names.join(", ")
    )))
}

/// "Tests `res.json(object)` (13 cases)", "Tests `app.router` (45 cases): methods, …".
fn of_suites(suites: &Suites) -> String {
    let cases = match suites.cases {
        1 => " (1 case)".to_string(),
        n => format!(" ({n} cases)"),
    };
    let (subject, children) = match suites.top.as_slice() {
        // `describe('res', () => describe('.json(object)', …))`: one member of one object.
        [only] if only.children.len() == 1 && only.children[0].starts_with(['.', '#']) => {
            (format!("`{}{}`", only.title, only.children[0]), Vec::new())
        }
        [only] => (format!("`{}`", only.title), only.children.clone()),
        many => {
            let titles: Vec<String> = many.iter().map(|s| format!("`{}`", s.title)).collect();
            (titles.join(", "), Vec::new())
        }
    };
    if suites.top.is_empty() {
        return finish(format!("Tests{cases}"));
    }
    let mut text = format!("Tests {subject}{cases}");
    if !children.is_empty() {
        let listed: Vec<&str> = children.iter().take(LISTED).map(String::as_str).collect();
        let more = if children.len() > LISTED { ", …" } else { "" };
        text.push_str(&format!(": {}{more}", listed.join(", ")));
    }
    finish(text)
}

/// The module a test file's name says it tests: `tests/test_json.py` → `json`; a `tests.rs`,
/// `main.rs` or `mod.rs` is named for its directory (`src/walk/tests.rs` → `walk`). Below a
/// subdirectory of the test tree, the subdirectory leads (`tests/test_request_params/test_body/
/// test_list.py` → `body/list`, `tests/builder/utf8.rs` → `builder/utf8`): test trees repeat
/// file names per area, and the area tells their files apart.
pub(super) fn tested_module(source: &str) -> String {
    let bare = |name: &str| -> String {
        let name = name.strip_prefix("test_").unwrap_or(name);
        name.strip_suffix("_test").unwrap_or(name).to_string()
    };
    let mut parts = source.rsplit('/');
    let name = parts.next().unwrap_or(source);
    let stem = name.split('.').next().unwrap_or(name);
    let stem = match stem {
        "tests" | "test" | "main" | "mod" => parts.next().unwrap_or(stem),
        _ => stem,
    };
    let area = parts
        .next()
        .filter(|dir| !crate::source::lang::files::TEST_DIRS.contains(dir))
        .filter(|_| {
            source
                .split('/')
                .any(|dir| crate::source::lang::files::TEST_DIRS.contains(&dir))
        });
    match area.map(bare) {
        Some(area) if area != bare(stem) => format!("{area}/{}", bare(stem)),
        _ => bare(stem),
    }
}

/// `text` as one sentence: cut to [`MAX_CHARS`], ending in a period.
fn finish(text: String) -> String {
    let text = match text.chars().count() > MAX_CHARS {
        true => format!("{}…", text.chars().take(MAX_CHARS - 1).collect::<String>()),
        false => text,
    };
    first_sentence(&text).unwrap_or(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{extract, Language};

    fn described(source: &str, language: Language, text: &str) -> Option<String> {
        let interface = extract(language, text).expect("parses");
        test_file_description(source, text, &interface)
    }

    #[test]
    fn a_python_test_file_is_described_by_its_tests_not_a_helper_class() {
        let text = "import datetime\n\n\ndef test_json_bad_requests(app):\n    pass\n\n\nclass FixedOffset(datetime.tzinfo):\n    \"\"\"Fixed offset in hours east from UTC.\"\"\"\n\n\ndef test_jsonify_aware_datetimes():\n    class X:\n        \"\"\"A nested helper.\"\"\"\n\n\nclass TestStreaming:\n    def test_stream(self):\n        pass\n";
        assert_eq!(
            described("tests/test_json.py", Language::Python, text).as_deref(),
            Some("Tests `json` (3 tests: `json_bad_requests`, `jsonify_aware_datetimes`, `TestStreaming`).")
        );
        // Not a test file, or a test-tree file without tests (a fixture): no test description.
        assert_eq!(described("src/json.py", Language::Python, text), None);
        assert_eq!(
            described(
                "tests/conftest.py",
                Language::Python,
                "def test_apps():\n    pass\n"
            ),
            None
        );
    }

    /// ripgrep's integration tests are `rgtest!(name, |dir, cmd| { … })` calls, not `#[test]`s.
    #[test]
    fn a_rust_test_file_of_test_macros_is_described_by_them() {
        let text = "use crate::util::{Dir, TestCommand};\n\n// See: issue 1\nrgtest!(f1_sjis, |dir: Dir, mut cmd: TestCommand| {\n    eqnice!(\"a\", cmd.stdout());\n});\n\nrgtest!(\n    f1_utf16_auto, |dir: Dir, mut cmd: TestCommand| {}\n);\nmacro_rules! local {\n    () => {};\n}\n";
        assert_eq!(
            described("tests/feature.rs", Language::Rust, text).as_deref(),
            Some("Tests `feature`: `f1_sjis`.")
        );
        // Only in a test target: a macro call in a library is no test.
        assert_eq!(described("src/feature.rs", Language::Rust, text), None);
    }

    /// Test trees repeat file names per area (fastapi's `test_body/test_list.py`,
    /// `test_form/test_list.py`): the area leads the subject.
    #[test]
    fn a_test_file_below_an_area_of_the_test_tree_is_named_with_it() {
        let text = "def test_schema():\n    pass\n";
        let body = described(
            "tests/test_request_params/test_body/test_list.py",
            Language::Python,
            text,
        );
        assert_eq!(
            body.as_deref(),
            Some("Tests `body/list` (1 test: `schema`).")
        );
        let rust = "#[test]\nfn invalid_utf8() {}\n";
        assert_eq!(
            described("tests/builder/utf8.rs", Language::Rust, rust).as_deref(),
            Some("Tests `builder/utf8`: `invalid_utf8`.")
        );
        // Right under the test directory, or a unit-test module, the file alone names it.
        assert_eq!(tested_module("tests/test_json.py"), "json");
        assert_eq!(
            tested_module("tests/test_recursive/test_recursive.py"),
            "recursive"
        );
        assert_eq!(
            tested_module("tokio/src/sync/tests/semaphore_batch.rs"),
            "semaphore_batch"
        );
        assert_eq!(tested_module("crates/ignore/src/walk/tests.rs"), "walk");
    }

    #[test]
    fn a_javascript_test_file_is_described_by_its_describe_blocks() {
        let member = "describe('res', function(){\n  describe('.json(object)', function(){\n    it('should work', function(){})\n    it('should not', function(){})\n  })\n})\n";
        assert_eq!(
            described("test/res.json.js", Language::JavaScript, member).as_deref(),
            Some("Tests `res.json(object)` (2 cases).")
        );
        let router = "describe('app.router', function () {\n  describe('methods', function () { it('a', function(){}) })\n  describe('decode params', function () {})\n})\n";
        assert_eq!(
            described("test/app.router.js", Language::JavaScript, router).as_deref(),
            Some("Tests `app.router` (1 case): methods, decode params.")
        );
    }
}
