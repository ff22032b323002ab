//! Budgets that trim instead of dropping: how a long section of a design file is cut down to its
//! most important part, saying what was left out and where to get it.
//!
//! - **Path lists** (Dependents, Dependencies, Tests) of more than [`LIST_LIMIT`] entries become
//!   their count grouped by directory, largest group first, pointing at `lexi impact` and
//!   `lexi lookup --full`.
//! - **Interface Contracts** keep whole items (a top-level line and its indented members) while
//!   they fit: public items first, then the others, each group in source order and printed in
//!   source order; an item whose members do not fit keeps its first line. The rest is counted:
//!   "… and N more items (`lexi lookup --full <file>`)".

use std::collections::BTreeMap;

use crate::relpath::RelPath;
use crate::source::lang::LANGUAGES;
use crate::tokens::estimate as estimate_tokens;

/// Path lists longer than this are summarised.
pub const LIST_LIMIT: usize = 20;
/// Groups shown in a summarised path list.
const GROUPS_SHOWN: usize = 12;

/// A path list of more than [`LIST_LIMIT`] items as its count by directory; `None` when it is
/// short enough to show whole.
pub fn summarize_paths(source: &str, heading: &str, items: &[String]) -> Option<String> {
    if items.len() <= LIST_LIMIT {
        return None;
    }
    let mut groups: BTreeMap<&str, usize> = BTreeMap::new();
    for item in items {
        *groups.entry(RelPath::new(item).dir()).or_default() += 1;
    }
    let mut groups: Vec<(&str, usize)> = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let mut out = format!("{} files in {} directories:\n", items.len(), groups.len());
    for (dir, count) in groups.iter().take(GROUPS_SHOWN) {
        let dir = if dir.is_empty() {
            "./".to_string()
        } else {
            format!("{dir}/")
        };
        out.push_str(&format!("- {dir} ({count})\n"));
    }
    if groups.len() > GROUPS_SHOWN {
        out.push_str(&format!(
            "- … and {} more directories\n",
            groups.len() - GROUPS_SHOWN
        ));
    }
    let pointer = if heading.eq_ignore_ascii_case("Dependents") {
        format!("`lexi impact {source} --depth 1` lists them with what each is for")
    } else {
        format!("`lexi lookup --full {source}` lists them")
    };
    out.push_str(&format!("\n{pointer}."));
    Some(out)
}

/// One item of an Interface Contract: its first line and its indented members.
struct Item<'a> {
    lines: Vec<&'a str>,
    public: bool,
}

/// What [`trim_contract`] kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trimmed {
    pub text: String,
    /// Items not shown at all.
    pub items_left_out: usize,
    /// Members of shown items not shown.
    pub members_left_out: usize,
}

/// An Interface Contract section body cut to about `budget` tokens, or `None` when it fits whole
/// (or has no items to cut at). The fence, if any, is kept around the kept lines.
pub fn trim_contract(source: &str, body: &str, budget: usize) -> Option<Trimmed> {
    if estimate_tokens(body) <= budget {
        return None;
    }
    let lines: Vec<&str> = body.lines().collect();
    let (open, inner, close) = split_fence(&lines);
    let items = items_of(inner);
    if items.len() < 2 && items.iter().all(|item| item.lines.len() < 2) {
        return None;
    }
    // Room for the fence and the note at the end.
    let mut left = budget.saturating_sub(30);
    let mut order: Vec<usize> = (0..items.len()).filter(|&i| items[i].public).collect();
    order.extend((0..items.len()).filter(|&i| !items[i].public));
    let mut kept: Vec<Option<usize>> = vec![None; items.len()]; // lines kept per item
    for index in order {
        let item = &items[index];
        let whole = estimate_tokens(&item.lines.join("\n")) + 1;
        let head = estimate_tokens(item.lines[0]) + 1;
        if whole <= left {
            left -= whole;
            kept[index] = Some(item.lines.len());
        } else if head <= left {
            left -= head;
            kept[index] = Some(1);
        } else {
            break;
        }
    }
    let mut text = String::new();
    if let Some(open) = open {
        text.push_str(open);
        text.push('\n');
    }
    let (mut items_left_out, mut members_left_out) = (0, 0);
    for (item, kept) in items.iter().zip(&kept) {
        match kept {
            Some(count) => {
                for line in &item.lines[..*count] {
                    text.push_str(line);
                    text.push('\n');
                }
                members_left_out += item.lines.len() - count;
            }
            None => items_left_out += 1,
        }
    }
    if let Some(close) = close {
        text.push_str(close);
        text.push('\n');
    }
    let mut parts = Vec::new();
    if items_left_out > 0 {
        parts.push(format!("{items_left_out} more items"));
    }
    if members_left_out > 0 {
        parts.push(format!("{members_left_out} more members"));
    }
    text.push_str(&format!(
        "\n… and {} (`lexi lookup --full {source}`)",
        parts.join(", ")
    ));
    Some(Trimmed {
        text,
        items_left_out,
        members_left_out,
    })
}

/// A body's opening fence, inner lines and closing fence (no fences when it is not fenced).
fn split_fence<'a, 'b>(lines: &'b [&'a str]) -> (Option<&'a str>, &'b [&'a str], Option<&'a str>) {
    let is_fence = |line: &&str| line.trim_start().starts_with("```");
    match lines {
        [open, inner @ .., close] if is_fence(open) && is_fence(close) => {
            (Some(*open), inner, Some(*close))
        }
        _ => (None, lines, None),
    }
}

/// The items of a contract's lines: a line that starts without indentation opens an item; the
/// indented lines after it are its members.
fn items_of<'a>(lines: &[&'a str]) -> Vec<Item<'a>> {
    let mut items: Vec<Item<'a>> = Vec::new();
    for line in lines {
        let indented = line.starts_with(' ') || line.starts_with('\t');
        match items.last_mut() {
            Some(item) if indented || line.trim().is_empty() => item.lines.push(line),
            _ => items.push(Item {
                lines: vec![line],
                public: is_public(line),
            }),
        }
    }
    items
}

/// Whether a contract line declares something public: not `pub(crate)`/`pub(super)`, not
/// `private`/`protected`, and not a `_name` (Python's and JavaScript's private convention;
/// `__dunder__` names are public).
fn is_public(line: &str) -> bool {
    let trimmed = line.trim_start();
    if [
        "pub(crate)",
        "pub(super)",
        "pub(in ",
        "private ",
        "protected ",
    ]
    .iter()
    .any(|marker| trimmed.starts_with(marker))
    {
        return false;
    }
    let name = trimmed
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|word| !word.is_empty())
        .find(|word| {
            !LANGUAGES.iter().any(|spec| {
                spec.declaration_keywords.contains(word) || spec.modifiers.contains(word)
            })
        })
        .unwrap_or("");
    !(name.starts_with('_') && !(name.starts_with("__") && name.ends_with("__")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_path_lists_become_counts_by_directory() {
        let mut items: Vec<String> = (0..30).map(|i| format!("tests/t{i}.py")).collect();
        items.extend((0..5).map(|i| format!("src/a{i}.py")));
        let summary = summarize_paths("src/core.py", "Dependents", &items).expect("long");
        assert!(summary.starts_with("35 files in 2 directories:\n- tests/ (30)\n- src/ (5)\n"));
        assert!(summary.contains("`lexi impact src/core.py --depth 1`"));
        assert_eq!(summarize_paths("a", "Dependents", &items[..20]), None);
    }

    #[test]
    fn contracts_keep_public_items_first_in_source_order() {
        let mut body = String::from("```python\ndef _private_helper()\n");
        for i in 0..150 {
            body.push_str(&format!(
                "def public_function_number_{i}(argument: int) -> int\n"
            ));
        }
        body.push_str("```");
        let trimmed = trim_contract("src/big.py", &body, 500).expect("trimmed");
        assert!(trimmed
            .text
            .starts_with("```python\ndef public_function_number_0("));
        assert!(!trimmed.text.contains("_private_helper"));
        assert!(trimmed.text.contains("\n```\n\n… and "));
        let shown = trimmed.text.matches("def public_function").count();
        assert!(shown >= 10, "{shown}");
        assert_eq!(trimmed.items_left_out, 151 - shown);
        assert!(trimmed
            .text
            .ends_with("more items (`lexi lookup --full src/big.py`)"));
        assert_eq!(trim_contract("src/big.py", &body, 100_000), None);
    }

    #[test]
    fn an_item_that_does_not_fit_keeps_its_first_line() {
        let mut body = String::from("class Big\n");
        for i in 0..100 {
            body.push_str(&format!("  def method_{i}(self) -> None\n"));
        }
        body.push_str("def small()\n");
        let trimmed = trim_contract("a.py", &body, 100).expect("trimmed");
        assert!(
            trimmed.text.starts_with("class Big\ndef small()\n"),
            "{}",
            trimmed.text
        );
        assert_eq!(trimmed.members_left_out, 100);
    }
}
