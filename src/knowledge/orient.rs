//! `lexi orient`: the session-start bundle in one call (seed §8, the orient skill) — the library's
//! health line, the I Was Here note waiting at the project root (shown, never consumed), and
//! `START_HERE.md`, within a token budget.
//!
//! It is what the Claude Code `SessionStart` hook runs and what the MCP `orient` tool answers, so it
//! stays cheap: one small file, one optional note, and the same health check as
//! `lexictl status --quiet` (what `lexictl update --check` finds, never a re-validation). When START_HERE.md is
//! over the budget it is cut at the last whole `## ` section that fits and says where the rest is.
//! After it, the calls that answer questions (where something lives, one member whole, what a
//! change breaks: `## Answering questions`, so an agent needs no `--help` to find them), then a
//! few of the practices the project's files declare ([`practices::digest`]: the
//! pull-request checklist, the check commands, the style tools), read live so they are never
//! stale, with the pointer to `lexi conventions` for the rest.

use std::io::ErrorKind;

use anyhow::Context as _;

use super::iwh::{self, Found};
use super::status::{status, StaleCheck};
use crate::project::{practices, LIBRARY_DIR};
use crate::tokens::estimate as estimate_tokens;
use crate::workspace::Workspace;

/// How an agent reaches the answers: commands on the command line, tools through MCP.
struct Ways {
    /// The `## Answering questions` block: which call answers which kind of question.
    questions: &'static str,
    /// Where the rest of the practices is.
    conventions: &'static str,
}

const CLI_WAYS: Ways = Ways {
    questions: "\n## Answering questions\n\n\
- Where something lives: `lexi search <words>` (files and members, with their one-line docs).\n\
- One member: `lexi lookup <file> --member <name>` (signature, callers, raises, flow, tests); its code: add `--source`.\n\
- What a change breaks: `lexi impact <file> [--member <name>]`.\n",
    conventions: "`lexi conventions`",
};

const MCP_WAYS: Ways = Ways {
    questions: "\n## Answering questions\n\n\
- Where something lives: `search` (files and members, with their one-line docs).\n\
- One member: `lookup` with `member` (signature, callers, raises, flow, tests); its code: `source: true`.\n\
- What a change breaks: `impact`.\n",
    conventions: "the `conventions` tool",
};

/// The default budget in tokens: START_HERE.md's own budget (800) with room for a note.
pub const DEFAULT_BUDGET: usize = 1200;

/// The file every session starts with, relative to the project root.
pub const START_HERE: &str = ".lexibrary/START_HERE.md";

/// The session-start bundle.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Orientation {
    /// Nothing needs attention (what `lexictl status` exits 0 for).
    pub healthy: bool,
    /// The `lexictl status --quiet` line when something needs attention.
    pub health: Option<String>,
    /// The note waiting at the project root, shown and left in place.
    pub iwh: Option<Found>,
    /// `.lexibrary/START_HERE.md`.
    pub start_here: StartHere,
    /// The practices digest: one line each, most important first.
    pub practices: Vec<String>,
    /// How many more practices `lexi conventions` shows.
    pub practices_left: usize,
    pub budget: usize,
    /// Estimated tokens of the text answer.
    pub tokens: usize,
}

/// START_HERE.md as included.
#[derive(Clone, Debug, serde::Serialize)]
pub struct StartHere {
    pub path: String,
    /// Whether the file exists.
    pub present: bool,
    /// The text included (all of it, or its first sections when over the budget).
    pub text: String,
    /// Whether sections were left out to fit the budget.
    pub truncated: bool,
}

/// Gather the bundle for the project of `ws`, within `budget` tokens; `check` computes the
/// staleness the health line reports (`lexictl status`'s).
pub fn orient(ws: &Workspace, budget: usize, check: StaleCheck) -> anyhow::Result<Orientation> {
    let project = ws.project();
    let health = status(ws, check)?;
    let note = if project.config.iwh.enabled {
        iwh::read(project, "", true)?.map(|(found, _peeked)| found)
    } else {
        None
    };
    let (present, full) = match std::fs::read_to_string(project.abs(START_HERE)) {
        Ok(text) => (true, text),
        Err(err) if err.kind() == ErrorKind::NotFound => (false, String::new()),
        Err(err) => return Err(err).with_context(|| format!("cannot read {START_HERE}")),
    };
    let mut orientation = Orientation {
        healthy: health.healthy(),
        health: health.quiet_line(),
        iwh: note,
        start_here: StartHere {
            path: START_HERE.to_string(),
            present,
            text: String::new(),
            truncated: false,
        },
        practices: Vec::new(),
        practices_left: 0,
        budget,
        tokens: 0,
    };
    if present {
        let declared = practices::detect(project);
        let (lines, left) = practices::digest(&declared.practices);
        orientation.practices = lines;
        orientation.practices_left = left;
    }
    let spent = estimate_tokens(&orientation.to_text());
    let (text, truncated) = fit(&full, budget.saturating_sub(spent));
    orientation.start_here.text = text;
    orientation.start_here.truncated = truncated;
    orientation.tokens = estimate_tokens(&orientation.to_text());
    Ok(orientation)
}

/// `text` whole when it fits `budget` tokens; else its sections (split before each `## ` line)
/// while they fit, always at least the first.
fn fit(text: &str, budget: usize) -> (String, bool) {
    if estimate_tokens(text) <= budget {
        return (text.to_string(), false);
    }
    let mut kept = String::new();
    for section in sections(text) {
        if !kept.is_empty() && estimate_tokens(&kept) + estimate_tokens(section) > budget {
            return (kept, true);
        }
        kept.push_str(section);
    }
    (kept, false)
}

/// `text` split before every line starting with `## `, outside code fences.
fn sections(text: &str) -> Vec<&str> {
    let mut cuts = vec![0];
    let mut offset = 0;
    let mut fenced = false;
    for line in text.split_inclusive('\n') {
        if line.starts_with("```") {
            fenced = !fenced;
        } else if !fenced && line.starts_with("## ") && offset > 0 {
            cuts.push(offset);
        }
        offset += line.len();
    }
    cuts.push(text.len());
    cuts.windows(2)
        .map(|pair| &text[pair[0]..pair[1]])
        .collect()
}

impl Orientation {
    /// The text `lexi orient` prints: the health line (when something needs attention), the root
    /// note, START_HERE.md, the commands that answer questions, then the practices.
    pub fn to_text(&self) -> String {
        self.text_pointing_to(&CLI_WAYS)
    }

    /// [`Self::to_text`] for an MCP client, whose ways are the server's tools.
    pub fn to_mcp_text(&self) -> String {
        self.text_pointing_to(&MCP_WAYS)
    }

    fn text_pointing_to(&self, ways: &Ways) -> String {
        let mut out = String::new();
        if let Some(line) = &self.health {
            out.push_str(&format!("{line} (maintenance runs from hooks and CI)\n\n"));
        }
        if let Some(found) = &self.iwh {
            out.push_str(&found.to_text());
            out.push_str(
                "(Left in place: `lexi iwh read .` consumes it once you have acted on it.)\n\n",
            );
        }
        if !self.start_here.present {
            out.push_str(&format!(
                "{START_HERE} does not exist yet (`lexictl update` writes it); start with `lexi index .`.\n"
            ));
            return out;
        }
        out.push_str(self.start_here.text.trim_end());
        out.push('\n');
        if self.start_here.truncated {
            out.push_str(&format!(
                "\n(START_HERE.md continues beyond the {} token budget: read {LIBRARY_DIR}/START_HERE.md for the rest.)\n",
                self.budget
            ));
        }
        out.push_str(ways.questions);
        let conventions = ways.conventions;
        if !self.practices.is_empty() {
            out.push_str("\n## Project practices (from its own files)\n\n");
            for line in &self.practices {
                out.push_str(line);
                out.push('\n');
            }
            let more = match self.practices_left {
                0 => String::new(),
                n => format!("{n} more — "),
            };
            out.push_str(&format!(
                "- {more}where tests go, language level, editor, CI, the contribution guide: {conventions}\n"
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_split_before_level_two_headings_outside_fences() {
        let text = "# T\nintro\n## A\na\n```\n## not a heading\n```\n## B\nb\n";
        let parts = sections(text);
        assert_eq!(
            parts,
            [
                "# T\nintro\n",
                "## A\na\n```\n## not a heading\n```\n",
                "## B\nb\n"
            ]
        );
        assert_eq!(parts.concat(), text);
    }

    #[test]
    fn fitting_keeps_whole_sections_and_at_least_the_first() {
        let text = format!("# T\n{}\n## A\n{}\n", "x".repeat(40), "y".repeat(400));
        assert_eq!(fit(&text, 1000), (text.clone(), false));
        let (kept, truncated) = fit(&text, 20);
        assert!(truncated);
        assert_eq!(kept, format!("# T\n{}\n", "x".repeat(40)));
        let (kept, truncated) = fit(&text, 1);
        assert!(truncated && kept.starts_with("# T"));
    }
}
