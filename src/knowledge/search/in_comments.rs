//! The line under a search hit found in its source's comments: where the word sits — its line, and
//! the member whose body holds it or whose doc comment it is — so that `lexi search heuristically`
//! answers "which member says so" without opening the file:
//!
//! ```text
//! crates/searcher/src/line_buffer.rs — A line buffer manages …  (comments)
//!   → line 44, doc of BinaryDetection: Binary detection is the process of _heuristically_ …
//! ```
//!
//! Read from the source when the search runs (the first [`super::member_docs::DESCRIBED_HITS`]
//! such hits), never stored.

use rayon::prelude::*;

use super::Hit;
use crate::knowledge::corpus::DocKind;
use crate::project::Project;
use crate::source::flow::shorten;
use crate::source::Language;

/// Characters of the comment line shown, at most.
const TEXT_CHARS: usize = 100;
/// Lines between a doc comment and the item it documents, at most.
const DOC_GAP: usize = 40;

/// Where a query's word sits in a source's comments.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct InComment {
    /// 1-based.
    pub line: usize,
    /// The member whose body holds the line (`in Searcher.memory_map`) or that it documents
    /// (`doc of BinaryDetection`); none at the file's top.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member: Option<String>,
    /// Whether the line is the member's doc comment (above it), else inside its body.
    pub doc: bool,
    /// The comment line, trimmed and cut.
    pub text: String,
}

impl InComment {
    /// The line shown under the hit (without its indentation).
    pub fn line(&self) -> String {
        let place = match (&self.member, self.doc) {
            (Some(member), true) => format!(", doc of {member}"),
            (Some(member), false) => format!(", in {member}"),
            (None, _) => String::new(),
        };
        format!("→ line {}{place}: {}", self.line, self.text)
    }
}

/// Give the first design-file hits matched in their source's comments the line of the first
/// comment holding one of `words` (lowercase).
pub fn attach(project: &Project, hits: &mut [Hit], words: &[String]) {
    if words.is_empty() {
        return;
    }
    let wanted: Vec<usize> = (0..hits.len())
        .filter(|&i| {
            hits[i].kind == DocKind::Design
                && hits[i].error.is_none()
                && hits[i].reason.split(", ").any(|r| r == "comments")
        })
        .take(super::member_docs::DESCRIBED_HITS)
        .collect();
    let found: Vec<Option<InComment>> = wanted
        .par_iter()
        .map(|&i| in_comment(project, &hits[i].name, words))
        .collect();
    for (i, found) in wanted.into_iter().zip(found) {
        hits[i].in_comment = found;
    }
}

/// The first comment line of `source` holding one of `words`, and its member.
fn in_comment(project: &Project, source: &str, words: &[String]) -> Option<InComment> {
    let language = Language::from_path(std::path::Path::new(source))?;
    // Never through a symlink.
    let bytes = project.read(source).ok()?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let lines: Vec<&str> = text.lines().collect();
    let at = lines.iter().position(|line| {
        let lower = line.to_lowercase();
        is_comment(line) && words.iter().any(|w| lower.contains(w.as_str()))
    })?;
    let file = crate::source::shared::source_file(language, &text).ok()?;
    let line = at + 1;
    // The innermost definition holding the line, else the one the comment documents.
    let holding = file
        .definitions
        .iter()
        .filter(|d| d.line < line && line <= d.end_line)
        .min_by_key(|d| d.end_line - d.line);
    let documented = file.definitions.iter().find(|d| {
        d.line > line
            && d.line - line <= DOC_GAP
            && lines[at + 1..d.line - 1].iter().all(|between| {
                between.trim().is_empty() || is_comment(between) || is_attribute(between)
            })
    });
    let (member, doc) = match (documented, holding) {
        (Some(d), _) => (Some(d.label.clone()), true),
        (None, Some(d)) => (Some(d.label.clone()), false),
        (None, None) => (None, false),
    };
    Some(InComment {
        line,
        member,
        doc,
        text: shorten(lines[at].trim(), TEXT_CHARS),
    })
}

/// A comment line: `//`, `#`, `/*`, `*`, or a docstring's quotes.
fn is_comment(line: &str) -> bool {
    let line = line.trim_start();
    ["//", "#", "/*", "*", "\"\"\"", "'''"]
        .iter()
        .any(|mark| line.starts_with(mark))
        && !line.starts_with("#[")
        && !line.starts_with("#!")
}

/// A Rust attribute or a Python decorator between a doc comment and its item.
fn is_attribute(line: &str) -> bool {
    let line = line.trim_start();
    line.starts_with("#[") || line.starts_with('@')
}
