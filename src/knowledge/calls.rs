//! The `## Calls` and `## Called from` sections `lexi lookup` adds after the design file (the view
//! is `workspace::calls`, from the last update's cache). One line a member or a called name:
//!
//! ```text
//! ## Calls
//!
//! - App.finalize_request → make_response, process_response
//!
//! ## Called from
//!
//! - make_response ← src/flask/helpers.py (make_response)
//! ```
//!
//! A plain lookup shows the first [`LINE_LIMIT`] lines of each, [`FILE_LIMIT`] caller files a name
//! and as many members a file (`+N` more), then says how many more `--full` shows.

use crate::workspace::calls::{CalledFrom, CallsView, KeyGroup, MemberEdges};

/// Lines of each section a plain lookup shows.
pub const LINE_LIMIT: usize = 20;
/// Literal keys shown on one Calls line.
pub const KEY_LIMIT: usize = 8;
/// Caller files a plain lookup names per called name, and calling members per file.
pub const FILE_LIMIT: usize = 3;

/// Both sections as markdown (empty sections left out), whole when `full`.
pub fn render(view: &CallsView, full: bool) -> String {
    let mut out = String::new();
    if !view.calls.is_empty() {
        let lines: Vec<String> = view.calls.iter().map(calls_line).collect();
        section(&mut out, "Calls", &lines, "members", full);
    }
    if !view.called_from.is_empty() {
        let lines: Vec<String> = view
            .called_from
            .iter()
            .map(|called| called_from_line(called, full))
            .collect();
        section(&mut out, "Called from", &lines, "names", full);
    }
    out
}

fn section(out: &mut String, heading: &str, lines: &[String], what: &str, full: bool) {
    out.push_str("\n## ");
    out.push_str(heading);
    out.push_str("\n\n");
    let shown = if full { lines.len() } else { LINE_LIMIT };
    for line in lines.iter().take(shown) {
        out.push_str("- ");
        out.push_str(line);
        out.push('\n');
    }
    if lines.len() > shown {
        out.push_str(&format!(
            "- … and {} more {what} (`lexi lookup --full`)\n",
            lines.len() - shown
        ));
    }
}

/// `member (= alias) → callee, set('Content-Type'), app.get('json escape'|'json spaces')`.
fn calls_line(edges: &MemberEdges) -> String {
    let mut member = edges.member.clone();
    for alias in &edges.aliases {
        member.push_str(" = ");
        member.push_str(alias);
    }
    let mut called = callees(&edges.calls, &edges.keys);
    if edges.recursive {
        if !called.is_empty() {
            called.push_str(", ");
        }
        called.push_str("itself (recursive)");
    }
    format!("{member} → {called}")
}

/// A member's callees with the literal keys it passes them: a key group of a called member is
/// shown in its place, the others after the calls, [`KEY_LIMIT`] keys at most (`+N keys`).
pub fn callees(calls: &[String], key_groups: &[KeyGroup]) -> String {
    let mut budget = KEY_LIMIT;
    let mut hidden = 0;
    let mut with_keys = |callee: &str, keys: &[String]| {
        let shown: Vec<String> = keys.iter().take(budget).map(|k| format!("'{k}'")).collect();
        budget -= shown.len();
        hidden += keys.len() - shown.len();
        if shown.is_empty() {
            callee.to_string()
        } else {
            format!("{callee}({})", shown.join("|"))
        }
    };
    let mut parts: Vec<String> = Vec::new();
    for call in calls {
        match key_groups.iter().find(|g| &g.callee == call) {
            Some(group) => parts.push(with_keys(call, &group.keys)),
            None => parts.push(call.clone()),
        }
    }
    for group in key_groups {
        if !calls.contains(&group.callee) {
            let part = with_keys(&group.callee, &group.keys);
            if part.contains('(') {
                parts.push(part);
            }
        }
    }
    if hidden > 0 {
        parts.push(format!("+{hidden} keys"));
    }
    parts.join(", ")
}

fn called_from_line(called: &CalledFrom, full: bool) -> String {
    let shown = if full {
        called.callers.len()
    } else {
        FILE_LIMIT
    };
    let mut files: Vec<String> = called
        .callers
        .iter()
        .take(shown)
        .map(|caller| {
            let mut members: Vec<&str> = caller
                .members
                .iter()
                .take(shown)
                .map(String::as_str)
                .collect();
            let more = format!("+{}", caller.members.len().saturating_sub(shown));
            if caller.members.len() > shown {
                members.push(&more);
            }
            format!("{} ({})", caller.file, members.join(", "))
        })
        .collect();
    if called.callers.len() > shown {
        files.push(format!("+{} more files", called.callers.len() - shown));
    }
    format!("{} ← {}", called.name, files.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::calls::Caller;

    fn view(members: usize, callers: usize) -> CallsView {
        CallsView {
            calls: (0..members)
                .map(|i| MemberEdges {
                    member: format!("App.m{i}"),
                    recursive: false,
                    aliases: Vec::new(),
                    calls: vec!["a".into(), "b".into()],
                    keys: Vec::new(),
                })
                .collect(),
            called_from: vec![CalledFrom {
                name: "make_response".into(),
                callers: (0..callers)
                    .map(|i| Caller {
                        file: format!("src/f{i}.py"),
                        members: vec!["x".into(), "y".into(), "z".into(), "w".into()],
                    })
                    .collect(),
            }],
            unresolved: Vec::new(),
            test_callers: Default::default(),
        }
    }

    #[test]
    fn sections_are_trimmed_with_a_count_unless_full() {
        let text = render(&view(22, 5), false);
        assert!(text.contains("- App.m0 → a, b\n"), "{text}");
        assert!(!text.contains("App.m20 "), "{text}");
        assert!(text.contains("- … and 2 more members (`lexi lookup --full`)"));
        assert!(text.contains(
            "- make_response ← src/f0.py (x, y, z, +1), src/f1.py (x, y, z, +1), src/f2.py (x, y, z, +1), +2 more files"
        ));
        let full = render(&view(22, 5), true);
        assert!(full.contains("App.m21 → a, b") && full.contains("src/f4.py (x, y, z, w)\n"));
        assert!(!full.contains("more") && !full.contains("+1"));
    }

    #[test]
    fn empty_sections_are_left_out() {
        assert_eq!(render(&CallsView::default(), false), "");
        let text = render(&view(0, 1), false);
        assert!(!text.contains("## Calls\n") && text.contains("## Called from"));
    }
}
