//! Which tests exercise a file, most directly first: the one ranking `lexi impact` and `lexi lookup`
//! share.
//!
//! A test is a file a test runner collects (`archivist::is_test_case`: `tests/test_*.py`,
//! `*.test.js`, `*_test.go`, …; not `conftest.py` nor the helpers and sample apps other tests
//! import). Tests are ordered by how directly they exercise the file: by depth (1 for a test that
//! imports the file itself), then those named for it (`tests/test_json.py` for `json.py`) or for one
//! of its public members (`test/res.json.js` for `lib/response.js`, which defines `res.json`, before
//! `test/app.json.js`, which names the member but not the file), then by path. [`rank`] orders tests found any way (`lexi impact` walks the design files too);
//! [`reached_tests`] finds them in the graph alone, without reading a design file, for the hot
//! `lexi lookup`.

use std::collections::{HashMap, HashSet};

use super::graph::Graph;
use crate::archivist::is_test_case;
use crate::relpath::RelPath;

/// `found` (each test with the depth at which it reaches `source`) ordered by how directly each
/// exercises `source`: by depth, then those named for the source's stem or for one of `members`
/// (the public names `source` defines) first, then by path.
pub fn rank(source: &str, found: HashMap<String, usize>, members: &[String]) -> Vec<String> {
    let stem = stem_of(source);
    let mut ordered: Vec<(usize, u8, String)> = found
        .into_iter()
        .map(|(test, depth)| {
            let named = name_match(&test, stem).min(member_match(&test, stem, members));
            (depth, named, test)
        })
        .collect();
    ordered.sort();
    ordered.into_iter().map(|(_, _, test)| test).collect()
}

/// The tests that reach `source` through at most `depth` levels of run-time imports in `graph`
/// (type-only edges are not followed), each with the depth at which it is first reached, ranked
/// ([`rank`]). Tests that only a design file's `## Tests` list names are not seen here.
pub fn reached_tests(graph: &Graph, source: &str, depth: usize) -> Vec<String> {
    rank(
        source,
        reached_depths(graph, source, depth),
        &graph.symbols(source),
    )
}

/// The tests that reach `source` as [`reached_tests`] finds them, each with the depth at which it is
/// first reached, unranked: `lexi lookup --member` ranks them for one member ([`rank`]).
pub fn reached_depths(graph: &Graph, source: &str, depth: usize) -> HashMap<String, usize> {
    let mut seen: HashSet<String> = HashSet::from([source.to_string()]);
    let mut found: HashMap<String, usize> = HashMap::new();
    let mut frontier: Vec<String> = vec![source.to_string()];
    for level in 1..=depth {
        let mut next = Vec::new();
        for file in &frontier {
            for importer in graph.dependents(file) {
                if graph.is_type_only(&importer, file) || !seen.insert(importer.clone()) {
                    continue;
                }
                if is_test_case(&importer, graph.dependents(&importer).len()) {
                    found.insert(importer.clone(), level);
                }
                next.push(importer);
            }
        }
        frontier = next;
    }
    found
}

/// A file's name without its directory and extensions (`src/flask/json/__init__.py` → `json`: a
/// package's `__init__`, `mod.rs`, `index.js` take their directory's name).
fn stem_of(path: &str) -> &str {
    crate::source::lang::files::module_name(path)
}

/// 0 when the test's name, without its test markers, is `stem` (`test_json.py`, `json_test.go`,
/// `json.test.js`), 1 when it contains it as a word, 2 otherwise.
fn name_match(test: &str, stem: &str) -> u8 {
    let original = RelPath::new(test).file_name();
    // A Java test class is named for its class: `CircleTest.java`, `TestCircle.java`, `CircleIT`.
    if let Some(class) = original.strip_suffix(".java") {
        let subject = ["Tests", "Test", "TestCase", "IT"]
            .iter()
            .find_map(|suffix| class.strip_suffix(suffix).filter(|s| !s.is_empty()))
            .or_else(|| class.strip_prefix("Test").filter(|s| !s.is_empty()))
            .unwrap_or(class);
        return match subject.eq_ignore_ascii_case(stem) {
            true => 0,
            false => 2,
        };
    }
    let name = original.to_ascii_lowercase();
    let base = name.split(".test.").next().unwrap_or(&name);
    let base = base.split(".spec.").next().unwrap_or(base);
    let base = base.rsplit_once('.').map_or(base, |(base, _)| base);
    let base = base.strip_prefix("test_").unwrap_or(base);
    let base = base.strip_suffix("_test").unwrap_or(base);
    let base = base.strip_suffix("_tests").unwrap_or(base);
    let stem = stem.to_ascii_lowercase();
    if base == stem {
        0
    } else if base
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|word| word == stem)
    {
        1
    } else {
        2
    }
}

/// How directly a test's name names one of `members`, the public names the source defines (bare:
/// `json` for `res.json`), of three letters or more: 0 when it also names the source, whole or
/// abbreviated (`test/res.json.js` for `lib/response.js`, whose `res.json` it tests), 1 when it names
/// only the member (`test/app.json.js`, `tests/test_send.py`), 2 otherwise. Such a test exercises
/// the file as directly as one named for it.
fn member_match(test: &str, stem: &str, members: &[String]) -> u8 {
    let lowered = test.to_ascii_lowercase();
    let base = RelPath::new(&lowered).name_without_extension();
    let words = base.split(|c: char| !c.is_ascii_alphanumeric() && c != '_');
    let words: Vec<&str> = words
        .map(|word| word.strip_prefix("test_").unwrap_or(word))
        .filter(|word| !matches!(*word, "test" | "tests" | "spec"))
        .collect();
    let named = |word: &str| {
        word.len() >= 3
            && members.iter().any(|member| {
                let last = member.rsplit(['.', ':']).next().unwrap_or(member);
                last.eq_ignore_ascii_case(word)
            })
    };
    let stem = stem.to_ascii_lowercase();
    let abbreviates = |word: &str| word.len() >= 3 && stem.starts_with(word);
    let member_words: Vec<usize> = (0..words.len()).filter(|&i| named(words[i])).collect();
    let source_named = member_words
        .iter()
        .any(|&member| (0..words.len()).any(|i| i != member && abbreviates(words[i])));
    match (member_words.is_empty(), source_named) {
        (true, _) => 2,
        (false, true) => 0,
        (false, false) => 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::cache::{Cache, Entry};

    #[test]
    fn a_java_test_class_is_named_for_its_class() {
        let stem = stem_of("gson/src/main/java/com/google/gson/internal/NumberLimits.java");
        for test in [
            "NumberLimitsTest.java",
            "NumberLimitsTests.java",
            "TestNumberLimits.java",
        ] {
            assert_eq!(
                name_match(&format!("src/test/java/a/{test}"), stem),
                0,
                "{test}"
            );
        }
        assert_eq!(name_match("src/test/java/a/NumberTest.java", stem), 2);
    }

    #[test]
    fn tests_named_for_the_file_are_told_from_the_others() {
        assert_eq!(stem_of("src/flask/json/__init__.py"), "json");
        assert_eq!(stem_of("lib/response.js"), "response");
        assert_eq!(name_match("tests/test_json.py", "json"), 0);
        assert_eq!(name_match("test/json.test.js", "json"), 0);
        assert_eq!(name_match("a/json_test.go", "json"), 0);
        assert_eq!(name_match("tests/test_json_tag.py", "json"), 1);
        assert_eq!(name_match("test/res.json.js", "json"), 1);
        assert_eq!(name_match("tests/test_basic.py", "json"), 2);
        let members = ["json".to_string(), "send".to_string(), "of".to_string()];
        let matched = |test: &str| member_match(test, "response", &members);
        assert_eq!(matched("test/res.json.js"), 0);
        assert_eq!(matched("test/response.send.js"), 0);
        assert_eq!(matched("test/app.json.js"), 1);
        assert_eq!(matched("tests/test_send.py"), 1);
        assert_eq!(matched("test/res.of.js"), 2, "too short to tell");
        assert_eq!(matched("test/app.router.js"), 2);
    }

    fn graph(files: &[(&str, &[&str], &[&str])]) -> Graph {
        let mut cache = Cache::default();
        for (file, deps, symbols) in files {
            let details = crate::workspace::cache::Details {
                symbols: symbols.iter().map(|s| s.to_string()).collect(),
                ..Default::default()
            };
            let entry = Entry {
                details: details.into(),
                ..Entry::with_deps(deps)
            };
            cache.entries.insert(file.to_string(), entry);
        }
        Graph::from_cache(cache)
    }

    /// express: tests import the package (`index.js` → `lib/express.js` → `lib/response.js`); those
    /// named for the response and one of its members come first, then those named for a member, a
    /// helper the tests import is no test.
    #[test]
    fn reached_tests_rank_those_named_for_a_member_first() {
        let graph = graph(&[
            ("lib/response.js", &[], &["json", "send"]),
            ("lib/express.js", &["lib/response.js"], &[]),
            ("index.js", &["lib/express.js"], &[]),
            ("test/app.js", &["index.js"], &[]),
            ("test/app.send.js", &["index.js"], &[]),
            ("test/res.send.js", &["index.js"], &[]),
            (
                "test/res.json.js",
                &["index.js", "test/support/utils.js"],
                &[],
            ),
            ("test/support/utils.js", &["index.js"], &[]),
        ]);
        assert_eq!(
            reached_tests(&graph, "lib/response.js", 3),
            [
                "test/res.json.js",
                "test/res.send.js",
                "test/app.send.js",
                "test/app.js"
            ]
        );
        assert_eq!(reached_tests(&graph, "lib/response.js", 2), [] as [&str; 0]);
    }

    #[test]
    fn ranking_goes_by_depth_before_names() {
        let found = HashMap::from([
            ("tests/test_json.py".to_string(), 2),
            ("tests/test_basic.py".to_string(), 1),
            ("tests/test_views.py".to_string(), 2),
        ]);
        assert_eq!(
            rank("src/flask/json/__init__.py", found, &[]),
            [
                "tests/test_basic.py",
                "tests/test_json.py",
                "tests/test_views.py"
            ]
        );
    }
}
