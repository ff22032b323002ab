//! The Interface Contract a reader gets from `lexi lookup`: the signatures [`fit_contract`] keeps
//! within the budget, then — while room is left — each member's doc, most important member first
//! (top-level declarations, then the primary type's methods, …: `abridge::by_importance`): its
//! first sentence beside the signature and, below it, the lines a caller must know
//! (`source::behaviour`: parameters, returns, errors, accepted forms), one comment line each:
//!
//! ```text
//! res.json = function json(obj)  // Send JSON response.
//!   // @param {string|number|boolean|object} obj
//! ```
//!
//! When not every doc fits, a last line counts the members whose docs were left out and points to
//! `lexi lookup --full`. A design file's own contract (`structural::contract_text`) is not this one:
//! it keeps first sentences only, and only when all of them fit.
//!
//! [`fit_contract`]: super::abridge::fit_contract

use super::abridge::{by_importance, chosen_lines, cost, fit_contract, indented, rest_line};
use super::structural::doc_suffix;
use crate::source::{Interface, Language, OutlineLine};

/// The docs one kept line shows: its first sentence and the behaviour lines under it.
#[derive(Default)]
struct Shown {
    suffix: Option<String>,
    below: Vec<String>,
}

/// The contract body (no fence) of `interface` within `bytes`: signatures first, then docs by
/// importance while they fit.
pub fn reader_contract(
    language: Language,
    interface: &Interface,
    bytes: usize,
    primary: Option<&str>,
    source: &str,
) -> String {
    let outline = interface.outline();
    let kept = chosen_lines(outline, bytes, primary, source);
    if !kept.contains(&true) {
        return fit_contract(outline, bytes, primary, source);
    }
    let left = kept.iter().filter(|kept| !**kept).count();
    let rest = (left > 0).then(|| rest_line(left, source));
    let signatures: usize = outline
        .iter()
        .zip(&kept)
        .filter(|(_, kept)| **kept)
        .map(|(line, _)| cost(line))
        .sum::<usize>()
        + rest.as_ref().map_or(0, |rest| rest.len() + 1);
    let docs: Vec<(usize, Shown)> = by_importance(outline, primary)
        .into_iter()
        .filter(|&i| kept[i])
        .map(|i| (i, whole_docs(language, &outline[i])))
        .filter(|(_, shown)| shown.suffix.is_some() || !shown.below.is_empty())
        .collect();
    let all: usize = docs.iter().map(|(_, shown)| shown_cost(shown)).sum();
    let (shown, docs_left_out) = match signatures + all <= bytes {
        true => (docs, 0),
        false => fit_docs(docs, bytes.saturating_sub(signatures + note(1).len() + 1)),
    };
    let mut by_line: Vec<Shown> = (0..outline.len()).map(|_| Shown::default()).collect();
    for (i, docs) in shown {
        by_line[i] = docs;
    }
    let mut lines: Vec<String> = Vec::new();
    for ((line, kept), docs) in outline.iter().zip(&kept).zip(by_line) {
        if !kept {
            continue;
        }
        lines.push(format!(
            "{}{}",
            indented(line),
            docs.suffix.unwrap_or_default()
        ));
        lines.extend(docs.below);
    }
    if docs_left_out > 0 {
        lines.push(note(docs_left_out));
    }
    lines.extend(rest);
    lines.join("\n")
}

/// The line that counts the members whose docs did not fit.
fn note(members: usize) -> String {
    let noun = if members == 1 { "member" } else { "members" };
    format!("// … docs of {members} more {noun} left out to fit: `lexi lookup --full`")
}

/// Every doc line of `line`: its first sentence and its behaviour lines, indented under it.
fn whole_docs(language: Language, line: &OutlineLine) -> Shown {
    let comment = language.spec().comments.line;
    let indent = "  ".repeat(line.depth + 1);
    Shown {
        suffix: doc_suffix(language, line),
        below: line
            .behaviour
            .iter()
            .map(|text| {
                let text = crate::secrets::redact(text).replace("```", "'''");
                format!("{indent}{comment} {text}")
            })
            .collect(),
    }
}

/// Bytes a line's docs add.
fn shown_cost(shown: &Shown) -> usize {
    shown.suffix.as_ref().map_or(0, String::len)
        + shown.below.iter().map(|line| line.len() + 1).sum::<usize>()
}

/// The docs that fit in `room`, in the order given (most important first): each member's first
/// sentence, then as many of its behaviour lines as fit; and how many members lost some.
fn fit_docs(docs: Vec<(usize, Shown)>, room: usize) -> (Vec<(usize, Shown)>, usize) {
    let mut used = 0;
    let mut left_out = 0;
    let mut shown = Vec::new();
    for (i, docs) in docs {
        let mut kept = Shown::default();
        let whole = docs.below.len() + usize::from(docs.suffix.is_some());
        if let Some(suffix) = docs.suffix {
            if used + suffix.len() <= room {
                used += suffix.len();
                kept.suffix = Some(suffix);
            }
        }
        // Behaviour lines only under a member whose summary is shown, and in their order.
        if kept.suffix.is_some() || whole == docs.below.len() {
            for line in docs.below {
                if used + line.len() + 1 > room {
                    break;
                }
                used += line.len() + 1;
                kept.below.push(line);
            }
        }
        let shown_lines = kept.below.len() + usize::from(kept.suffix.is_some());
        if shown_lines < whole {
            left_out += 1;
        }
        if shown_lines > 0 {
            shown.push((i, kept));
        }
    }
    (shown, left_out)
}

/// Whether a contract line is a behaviour line [`reader_contract`] added: indented, and only a
/// comment.
pub fn is_behaviour_line(line: &str) -> bool {
    let text = line.trim_start();
    line.len() - text.len() >= 2
        && crate::source::lang::LANGUAGES.iter().any(|spec| {
            text.strip_prefix(spec.comments.line)
                .is_some_and(|rest| rest.starts_with(' '))
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::extract;

    const FLASKISH: &str = "class App:\n    def first(self, x):\n        \"\"\"Do the first thing.\n\n        :param x: the thing.\n        :raises ValueError: when it is bad.\n        \"\"\"\n\n    def make_response(self, rv):\n        \"\"\"Convert the return value.\n\n        :param rv: the value. These are allowed:\n\n            ``str``\n                The body.\n\n            ``tuple``\n                A tuple.\n        \"\"\"\n";

    #[test]
    fn docs_and_behaviour_lines_follow_their_member_when_all_fit() {
        let interface = extract(Language::Python, FLASKISH).unwrap();
        let text = reader_contract(
            Language::Python,
            &interface,
            usize::MAX,
            Some("App"),
            "app.py",
        );
        assert_eq!(
            text,
            "class App\n  def first(self, x)  # Do the first thing.\n    # x: the thing.\n    # raises ValueError: when it is bad.\n  def make_response(self, rv)  # Convert the return value.\n    # rv: the value.\n    #   - str: The body.\n    #   - tuple: A tuple."
        );
        assert!(text.lines().filter(|l| is_behaviour_line(l)).count() == 5);
        assert_eq!(
            super::super::structural::without_docs(&text),
            "class App\n  def first(self, x)\n  def make_response(self, rv)"
        );
    }

    #[test]
    fn the_most_important_members_docs_come_first_and_the_rest_is_counted() {
        let interface = extract(Language::Python, FLASKISH).unwrap();
        let whole = reader_contract(
            Language::Python,
            &interface,
            usize::MAX,
            Some("App"),
            "app.py",
        );
        // One byte short: the note counting what is left out takes the room of the last lines.
        let tight = whole.len() - 1;
        let text = reader_contract(Language::Python, &interface, tight, Some("App"), "app.py");
        assert!(text.contains("# raises ValueError"), "{text}");
        assert!(text.contains("def make_response(self, rv)  # Convert the return value."));
        assert!(!text.contains("- tuple: A tuple."), "{text}");
        assert!(
            text.ends_with("\n// … docs of 1 more member left out to fit: `lexi lookup --full`")
        );
        assert!(text.len() <= tight, "{} > {tight}", text.len());
        let signatures_only =
            reader_contract(Language::Python, &interface, 60, Some("App"), "app.py");
        assert!(
            !signatures_only.contains("# x: the thing."),
            "{signatures_only}"
        );
    }
}
