//! The practices a project's own files declare — PR checklist, check commands, linter settings,
//! tests, language level — read where its tools read them, so a fresh library already answers
//! "what are this project's conventions?". What is read:
//!
//! - the pull-request checklist (GitHub's `pull_request_template.md` locations) and the contribution
//!   guide's headings, commands and imperative rules ([`guide`]);
//! - where tests live and how their files are named ([`testing`]);
//! - each language's tooling, by its registry entry (`source/lang/<language>/practices.rs`, reading
//!   through [`Sources`]): npm scripts, ESLint and Prettier; tox, nox, Ruff, flake8, Black, isort,
//!   mypy, pyright and pytest; rustfmt, Clippy, `[lints]` and `cargo test`; gofmt, golangci-lint and
//!   `go test`; Maven or Gradle and their style plugins; the language level each manifest pins;
//! - the commands of no one language: Makefile/justfile targets, the CI workflows' `run:` steps
//!   ([`commands`]); pre-commit hooks and `.editorconfig` ([`style`]); the changelog
//!   ([`changelog`]).
//!
//! `lexi conventions` shows them beside the Local Conventions agents add, each with the file it comes
//! from, most important topic first. Only the root, `.github/`, `docs/` and the test directories are
//! read (a few small files, each at most [`MAX_FILE_BYTES`]), never through a symlink, and nothing
//! is executed: a JavaScript config is scanned as text. A file that does not parse is skipped with a
//! [`Warning`] naming it and the line, never a panic.

pub mod changelog;
pub mod commands;
pub mod guide;
pub mod style;
pub mod testing;

use std::collections::BTreeMap;

use super::Project;
pub use crate::source::lang::tooling::{
    get, ini, is_check, json_text, list, push, push_items, shorten, toml_text, Detail, Practice,
    Sources, Warning, MAX_FILE_BYTES,
};

/// What [`detect`] found.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Practices {
    pub practices: Vec<Practice>,
    pub warnings: Vec<Warning>,
}

/// The topics, most important to a new contributor first: what to do before a PR, the commands to
/// run, the style the tools enforce, then where tests go and the rest.
pub const TOPICS: &[&str] = &[
    "checklist",
    "commands",
    "style",
    "tests",
    "language",
    "changelog",
    "editor",
    "ci",
    "guide",
];

/// Every practice the project's files declare, grouped by topic in [`TOPICS`] order, long ones cut
/// ([`Detail::Short`]).
pub fn detect(project: &Project) -> Practices {
    detect_with(project, Detail::Short)
}

/// [`detect`], with every practice as `detail` asks.
pub fn detect_with(project: &Project, detail: Detail) -> Practices {
    let mut sources = Sources::new(&project.root);
    sources.detail = detail;
    let mut found = Vec::new();
    guide::checklist(&sources, &mut found);
    testing::detect(&sources, &mut found);
    for language_practices in crate::source::lang::practices() {
        language_practices(&sources, &mut found);
    }
    commands::detect(&sources, &mut found);
    style::detect(&sources, &mut found);
    changelog::detect(&sources, &mut found);
    style::editor(&sources, &mut found);
    commands::ci(&sources, &mut found);
    guide::contributing(&sources, &mut found);
    let rank = |topic: &str| {
        TOPICS
            .iter()
            .position(|t| *t == topic)
            .unwrap_or(TOPICS.len())
    };
    found.sort_by_key(|p| rank(p.topic));
    let warnings = sources.into_warnings();
    Practices {
        practices: found,
        warnings,
    }
}

/// The most practices of one topic shown unless everything is asked for.
pub const SHOWN_PER_TOPIC: usize = 5;
/// The most pull-request checklist items shown unless everything is asked for: they are what a
/// contributor is asked to do, a template holds about ten, and each is one line.
pub const SHOWN_CHECKLIST: usize = 10;

/// The most contribution-guide rules shown unless everything is asked for: what a change must
/// carry (tests, commit messages, changelog), each one line.
pub const SHOWN_GUIDE: usize = 8;

/// The practices shown by default: the first [`SHOWN_PER_TOPIC`] of each topic
/// ([`SHOWN_CHECKLIST`] of the checklist, [`SHOWN_GUIDE`] of the guide), and how many were left
/// out.
pub fn shown(practices: &[Practice]) -> (Vec<&Practice>, usize) {
    let mut per_topic: BTreeMap<&str, usize> = BTreeMap::new();
    let mut shown = Vec::new();
    for practice in practices {
        let n = per_topic.entry(practice.topic).or_default();
        *n += 1;
        let limit = match practice.topic {
            "checklist" => SHOWN_CHECKLIST,
            "guide" => SHOWN_GUIDE,
            _ => SHOWN_PER_TOPIC,
        };
        if *n <= limit {
            shown.push(practice);
        }
    }
    let left = practices.len() - shown.len();
    (shown, left)
}

/// The most of each topic in [`digest`]: what a session needs before its first change.
const DIGEST: &[(&str, usize)] = &[("checklist", 3), ("commands", 4), ("style", 3)];
/// The most characters of one digest line.
const DIGEST_CHARS: usize = 150;

/// A few lines for the session-start bundle (`lexi orient`): the first pull-request checklist
/// items, the check commands and the style tools, each cut short, with how many practices the
/// full list (`lexi conventions`) has beyond them.
pub fn digest(practices: &[Practice]) -> (Vec<String>, usize) {
    let mut lines = Vec::new();
    for (topic, max) in DIGEST {
        for practice in practices.iter().filter(|p| p.topic == *topic).take(*max) {
            lines.push(format!(
                "- {} ({})",
                shorten(&practice.practice, DIGEST_CHARS),
                practice.source
            ));
        }
    }
    let left = practices.len() - lines.len();
    (lines, left)
}
