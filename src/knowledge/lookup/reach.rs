//! What the graph of the last update adds to `lexi lookup`: the tests that exercise the file, most
//! direct first (the ranking `lexi impact` uses, `workspace::test_rank`), and which of its dependents
//! import it only for the type checker, marked `(type-only)` as the Dependencies list marks them.
//!
//! A design file's `## Tests` lists only the tests that import the file itself; those that reach it
//! through the package (express's `test/res.json.js` requires `..`, which requires
//! `lib/express.js`, which requires `lib/response.js`) are found here. A plain lookup shows the best
//! [`TESTS_SHOWN`] and counts the rest with `lexi impact` as the pointer; `--full` shows them all.

use super::replace_sections;
use crate::archivist::structural::{listed_path, path_list, TYPE_ONLY_MARK};
use crate::knowledge::impact::DEFAULT_DEPTH;
use crate::library::design_file::sections;
use crate::library::markdown::Fence;
use crate::workspace::graph::Graph;
use crate::workspace::test_rank::reached_tests;

/// Tests a plain lookup lists before counting the rest.
pub const TESTS_SHOWN: usize = 10;

/// What the graph of the last update tells a lookup beyond its design file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Reach {
    /// The tests that reach the file within `lexi impact`'s default depth, most direct first.
    pub tests: Vec<String>,
    /// The dependents that import the file only for the type checker, sorted.
    pub type_only_dependents: Vec<String>,
}

/// The reach of `source` in `graph`; `None` when the last update did not see it.
pub fn of(graph: &Graph, source: &str) -> Option<Reach> {
    if !graph.knows(source) {
        return None;
    }
    let type_only_dependents = graph
        .dependents(source)
        .iter()
        .filter(|importer| graph.is_type_only(importer, source))
        .cloned()
        .collect();
    Some(Reach {
        tests: reached_tests(graph, source, DEFAULT_DEPTH),
        type_only_dependents,
    })
}

/// The tests shown (all with `full`, else the best [`TESTS_SHOWN`]) and how many were left out.
pub fn shown_tests(reach: &Reach, full: bool) -> (&[String], usize) {
    let shown = match full {
        true => reach.tests.len(),
        false => reach.tests.len().min(TESTS_SHOWN),
    };
    (&reach.tests[..shown], reach.tests.len() - shown)
}

/// The `## Tests` body: the shown tests and, when some were left out, a line counting them.
fn tests_body(reach: &Reach, source: &str, full: bool) -> String {
    let (shown, left_out) = shown_tests(reach, full);
    let mut body = path_list(shown);
    if left_out > 0 {
        body.push_str(&format!("\n… and {left_out} more: `lexi impact {source}`"));
    }
    body
}

/// `text` (a lookup's rendered design file) with its `## Tests` section made the ranked tests (added
/// after `## Dependents`, or at the end, when the design file has none) and its `## Dependents`
/// entries that import the file only for types marked.
pub fn with_reach(text: &str, reach: &Reach, source: &str, full: bool) -> String {
    let mut text = mark_dependents(text, &reach.type_only_dependents);
    if reach.tests.is_empty() {
        return text;
    }
    let body = tests_body(reach, source, full);
    if has_section(&text, sections::TESTS) {
        return replace_sections(&text, &[(sections::TESTS, body)]);
    }
    let section = format!("## {}\n\n{body}", sections::TESTS);
    match section_end(&text, sections::DEPENDENTS) {
        Some(end) => {
            text.insert_str(end, &format!("{section}\n\n"));
            text
        }
        None => format!("{}\n\n{section}", text.trim_end()),
    }
}

/// `body` (a Dependents list) with each entry among `type_only` marked [`TYPE_ONLY_MARK`].
pub fn mark_type_only(body: &str, type_only: &[String]) -> String {
    if type_only.is_empty() {
        return body.to_string();
    }
    let mut out: Vec<String> = body
        .lines()
        .map(|line| {
            let path = line.strip_prefix("- ").map(listed_path);
            match path {
                Some(path) if type_only.iter().any(|t| t == path) => {
                    format!("{line}{TYPE_ONLY_MARK}")
                }
                _ => line.to_string(),
            }
        })
        .collect();
    if body.ends_with('\n') {
        out.push(String::new());
    }
    out.join("\n")
}

/// `text` with the entries of its `## Dependents` section (outside code fences) marked.
fn mark_dependents(text: &str, type_only: &[String]) -> String {
    if type_only.is_empty() {
        return text.to_string();
    }
    let mut fence = Fence::default();
    let mut inside = false;
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        let in_fence = fence.inside(line);
        if let Some(heading) = line.strip_prefix("## ").filter(|_| !in_fence) {
            inside = heading.trim().eq_ignore_ascii_case(sections::DEPENDENTS);
        }
        match inside && !in_fence {
            true => out.push(mark_type_only(line, type_only)),
            false => out.push(line.to_string()),
        }
    }
    out.join("\n")
}

/// Whether `text` has a `## heading` section outside code fences.
fn has_section(text: &str, heading: &str) -> bool {
    section_end(text, heading).is_some()
}

/// The byte offset where the `## heading` section of `text` ends: at the next `## ` heading (outside
/// code fences), else at the end of the text.
fn section_end(text: &str, heading: &str) -> Option<usize> {
    let mut fence = Fence::default();
    let mut found = false;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let in_fence = fence.inside(line.trim_end_matches('\n'));
        if let Some(title) = line.strip_prefix("## ").filter(|_| !in_fence) {
            if found {
                return Some(offset);
            }
            found = title.trim().eq_ignore_ascii_case(heading);
        }
        offset += line.len();
    }
    found.then_some(text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reach(tests: usize, type_only: &[&str]) -> Reach {
        Reach {
            tests: (0..tests).map(|i| format!("test/t{i}.js")).collect(),
            type_only_dependents: type_only.iter().map(|s| s.to_string()).collect(),
        }
    }

    const DESIGN: &str = "# lib/a.js\n\n## Dependents\n\n- lib/b.py\n- lib/c.py\n\n## Complexity Warning\n\n- Large file.";

    #[test]
    fn tests_are_added_after_the_dependents_and_capped() {
        let text = with_reach(DESIGN, &reach(12, &[]), "lib/a.js", false);
        let tests = text.find("## Tests").unwrap();
        assert!(text.find("## Dependents").unwrap() < tests);
        assert!(tests < text.find("## Complexity Warning").unwrap());
        assert!(
            text.contains("- test/t9.js\n… and 2 more: `lexi impact lib/a.js`\n\n## Complexity")
        );
        assert!(!text.contains("test/t10.js"));
        let full = with_reach(DESIGN, &reach(12, &[]), "lib/a.js", true);
        assert!(full.contains("- test/t11.js\n") && !full.contains("more:"));
    }

    #[test]
    fn a_design_files_tests_section_is_replaced() {
        let design = "# a\n\n## Tests\n\n- test/old.js\n";
        let text = with_reach(design, &reach(1, &[]), "lib/a.js", false);
        assert_eq!(text, "# a\n\n## Tests\n\n- test/t0.js");
    }

    #[test]
    fn type_only_dependents_are_marked_in_the_dependents_section_only() {
        let design = format!("{DESIGN}\n\n## Dependencies\n\n- lib/c.py");
        let text = with_reach(&design, &reach(0, &["lib/c.py"]), "lib/a.js", false);
        assert!(text.contains("- lib/b.py\n- lib/c.py (type-only)\n"));
        assert!(text.ends_with("## Dependencies\n\n- lib/c.py"));
        assert_eq!(
            mark_type_only("- `lib/c.py`\n", &["lib/c.py".to_string()]),
            "- `lib/c.py` (type-only)\n"
        );
    }
}
