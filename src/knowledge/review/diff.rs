//! Diffs for a review: which public symbols changed, where they are declared, and unified diffs of
//! the meaningful part of a design file (the footer hidden, the size capped).

use super::*;

/// Public symbols only at the head (added or changed) and only at the base (removed or changed).
pub(super) fn symbol_diff(old: &Interface, new: &Interface) -> (Vec<Symbol>, Vec<Symbol>) {
    let key = |s: &Symbol| {
        (
            s.parent.clone(),
            s.kind.as_str(),
            s.name.clone(),
            s.signature.clone(),
        )
    };
    let old_keys: BTreeSet<_> = old.symbols.iter().map(key).collect();
    let new_keys: BTreeSet<_> = new.symbols.iter().map(key).collect();
    let added = new
        .symbols
        .iter()
        .filter(|s| !old_keys.contains(&key(s)))
        .cloned()
        .collect();
    let removed = old
        .symbols
        .iter()
        .filter(|s| !new_keys.contains(&key(s)))
        .cloned()
        .collect();
    (added, removed)
}

/// The 1-based line that most likely declares `symbol`: the first line holding its name as a word
/// together with the keyword written before the name in its signature (`fn`, `class`, `def`, …),
/// else the first line holding the name as a word.
pub(super) fn declaration_line(text: &str, symbol: &Symbol) -> Option<usize> {
    let words: Vec<&str> = symbol
        .signature
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
        .collect();
    let keyword = words
        .iter()
        .position(|w| *w == symbol.name)
        .and_then(|i| i.checked_sub(1))
        .map(|i| words[i]);
    let has_word = |line: &str, word: &str| {
        line.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .any(|w| w == word)
    };
    let lines: Vec<&str> = text.lines().collect();
    let with_keyword = keyword.and_then(|keyword| {
        lines
            .iter()
            .position(|line| has_word(line, &symbol.name) && has_word(line, keyword))
    });
    with_keyword
        .or_else(|| lines.iter().position(|line| has_word(line, &symbol.name)))
        .map(|index| index + 1)
}

/// The file as text (LF line endings), or `None` if it is binary or not UTF-8.
pub(super) fn as_text(data: &[u8]) -> Option<String> {
    if data[..data.len().min(8192)].contains(&0) {
        return None;
    }
    std::str::from_utf8(data)
        .ok()
        .map(|text| normalize_newlines(text).into_owned())
}

/// A capped unified diff of `old` → `new`. `old` is `None` for an added file (diffed against
/// nothing) and `Some(None)` when the old side exists but is not text. Returns the diff, or why there
/// is none.
pub(super) fn meaningful_diff(
    old: Option<Option<&str>>,
    new: Option<&str>,
) -> (Option<Diff>, Option<String>) {
    let (old, new) = match (old, new) {
        (None, Some(new)) => ("", new),
        (Some(Some(old)), Some(new)) => (old, new),
        _ => return (None, Some("binary or not UTF-8".into())),
    };
    if old.len() > MAX_DIFF_INPUT || new.len() > MAX_DIFF_INPUT {
        return (
            None,
            Some(format!(
                "too large to diff (over {} KiB)",
                MAX_DIFF_INPUT / 1024
            )),
        );
    }
    (Some(unified_diff(old, new)), None)
}

/// A unified diff with [`DIFF_CONTEXT`] lines of context, capped at [`MAX_DIFF_LINES`] lines.
pub fn unified_diff(old: &str, new: &str) -> Diff {
    use similar::{ChangeTag, TextDiff};
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_secs(2))
        .diff_lines(old, new);
    let mut added = 0;
    let mut removed = 0;
    for change in diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Insert => added += 1,
            ChangeTag::Delete => removed += 1,
            ChangeTag::Equal => {}
        }
    }
    let text = diff
        .unified_diff()
        .context_radius(DIFF_CONTEXT)
        .missing_newline_hint(false)
        .to_string();
    let lines: Vec<&str> = text.lines().collect();
    let kept = lines.len().min(MAX_DIFF_LINES);
    let mut unified = lines[..kept].join("\n");
    if kept > 0 {
        unified.push('\n');
    }
    Diff {
        unified,
        added,
        removed,
        omitted_lines: lines.len() - kept,
    }
}
