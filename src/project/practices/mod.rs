//! The practices a project's own files declare — PR checklist, check commands, linter settings,
//! tests, language level — read where its tools read them, so a fresh library already answers
//! "what are this project's conventions?". What is read:
//!
//! - the pull-request checklist (GitHub's `pull_request_template.md` locations) and the contribution
//!   guide's headings, commands and imperative rules ([`guide`]);
//! - the commands a contributor runs: `package.json` scripts, tox environments, nox sessions,
//!   Makefile/justfile targets, the CI workflows' `run:` steps ([`commands`]);
//! - the linters and formatters with their key settings: ESLint rules, Ruff/flake8/Black/isort/mypy/
//!   pyright options, rustfmt/Clippy/`[lints]`, Prettier, pre-commit hooks, gofmt and golangci-lint
//!   ([`style`], [`python`], [`go`]);
//! - where tests live and how they are named, the language level, `.editorconfig` ([`testing`],
//!   [`language`], [`style`]).
//!
//! `lexi conventions` shows them beside the Local Conventions agents add, each with the file it comes
//! from, most important topic first. Only the root, `.github/`, `docs/` and the test directories are
//! read (a few small files, each at most [`MAX_FILE_BYTES`]), never through a symlink, and nothing
//! is executed: a JavaScript config is scanned as text. A file that does not parse is skipped with a
//! [`Warning`] naming it and the line, never a panic.

pub mod commands;
pub mod go;
pub mod guide;
mod ini;
pub mod java;
pub mod language;
pub mod python;
pub mod style;
pub mod testing;

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::io::Read as _;

use super::Project;

/// One practice: what it is about, what the project does, and the file that says so.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Practice {
    /// `checklist`, `commands`, `style`, `tests`, `language`, `changelog`, `editor`, `ci` or
    /// `guide`.
    pub topic: &'static str,
    /// The one line shown.
    pub practice: String,
    /// Project-relative file (or directory) it was read from.
    pub source: String,
    /// Every entry the line summarises (all the rules, hooks, checklist items), when it is a list.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<String>,
}

/// A configuration file that was skipped, and why (with the line when the parser says it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Warning {
    pub source: String,
    pub message: String,
}

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

/// The largest configuration file read; a bigger one is skipped with a warning.
pub const MAX_FILE_BYTES: u64 = 256 * 1024;

/// How much of each practice a detection keeps.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Detail {
    /// Long commands and rules cut, long lists cut to their first entries and counted ("and 10
    /// more"): what `lexi conventions` shows.
    #[default]
    Short,
    /// Every word of every command, rule and list: `lexi conventions --all`, the JSON.
    Whole,
}

impl Detail {
    /// [`list`], every item when whole.
    pub fn list(self, items: &[String], max: usize) -> String {
        list(items, self.limit(max))
    }

    /// [`shorten`], uncut when whole.
    pub fn shorten(self, text: &str, max: usize) -> String {
        match self {
            Detail::Short => shorten(text, max),
            Detail::Whole => text.to_string(),
        }
    }

    /// How many of something to keep: `max`, or all when whole.
    pub fn limit(self, max: usize) -> usize {
        match self {
            Detail::Short => max,
            Detail::Whole => usize::MAX,
        }
    }
}

/// Every practice the project's files declare, grouped by topic in [`TOPICS`] order, long ones cut
/// ([`Detail::Short`]).
pub fn detect(project: &Project) -> Practices {
    detect_with(project, Detail::Short)
}

/// [`detect`], with every practice as `detail` asks.
pub fn detect_with(project: &Project, detail: Detail) -> Practices {
    let mut sources = Sources::new(project);
    sources.detail = detail;
    let mut found = Vec::new();
    guide::checklist(&sources, &mut found);
    commands::detect(&sources, &mut found);
    python::detect(&sources, &mut found);
    go::detect(&sources, &mut found);
    java::detect(&sources, &mut found);
    style::detect(&sources, &mut found);
    testing::detect(&sources, &mut found);
    language::detect(&sources, &mut found);
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
    let mut warnings = sources.warnings.into_inner();
    warnings.sort_by(|a, b| a.source.cmp(&b.source));
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

/// The practices shown by default: the first [`SHOWN_PER_TOPIC`] of each topic
/// ([`SHOWN_CHECKLIST`] of the checklist), and how many were left out.
pub fn shown(practices: &[Practice]) -> (Vec<&Practice>, usize) {
    let mut per_topic: BTreeMap<&str, usize> = BTreeMap::new();
    let mut shown = Vec::new();
    for practice in practices {
        let n = per_topic.entry(practice.topic).or_default();
        *n += 1;
        let limit = match practice.topic {
            "checklist" => SHOWN_CHECKLIST,
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

/// Reads the project's files for the parsers: bounded, never through a symlink, each parse error
/// recorded once as a [`Warning`].
pub struct Sources<'a> {
    pub project: &'a Project,
    /// How much of each practice to keep.
    pub detail: Detail,
    warnings: RefCell<Vec<Warning>>,
}

impl<'a> Sources<'a> {
    pub fn new(project: &'a Project) -> Self {
        Sources {
            project,
            detail: Detail::Short,
            warnings: RefCell::new(Vec::new()),
        }
    }

    /// Whether `rel` is a regular file (not a symlink).
    pub fn is_file(&self, rel: &str) -> bool {
        crate::nofollow::file_type(&self.project.root, rel)
            .ok()
            .flatten()
            .is_some_and(|t| t.is_file())
    }

    /// The text of `rel`: `None` when it is absent; a warning when it is too big or not UTF-8.
    pub fn text(&self, rel: &str) -> Option<String> {
        if !self.is_file(rel) {
            return None;
        }
        let file = crate::nofollow::open(&self.project.root, rel).ok()?;
        let mut bytes = Vec::new();
        if file
            .take(MAX_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .is_err()
        {
            return None;
        }
        if bytes.len() as u64 > MAX_FILE_BYTES {
            self.warn(
                rel,
                format!("skipped: larger than {} KiB", MAX_FILE_BYTES / 1024),
            );
            return None;
        }
        match String::from_utf8(bytes) {
            Ok(text) => Some(text),
            Err(_) => {
                self.warn(rel, "skipped: not valid UTF-8".to_string());
                None
            }
        }
    }

    pub fn toml(&self, rel: &str) -> Option<toml::Table> {
        let text = self.text(rel)?;
        self.parsed(
            rel,
            toml::from_str(&text).map_err(|e| toml_error(&text, &e)),
        )
    }

    pub fn json(&self, rel: &str) -> Option<serde_json::Value> {
        let text = self.text(rel)?;
        self.parsed(rel, serde_json::from_str(&text).map_err(|e| e.to_string()))
    }

    pub fn yaml(&self, rel: &str) -> Option<serde_yaml::Value> {
        let text = self.text(rel)?;
        self.parsed(rel, serde_yaml::from_str(&text).map_err(|e| e.to_string()))
    }

    fn parsed<T>(&self, rel: &str, result: Result<T, String>) -> Option<T> {
        match result {
            Ok(value) => Some(value),
            Err(message) => {
                self.warn(rel, format!("skipped, does not parse: {message}"));
                None
            }
        }
    }

    /// Record a warning about `rel` (once per file and message).
    pub fn warn(&self, rel: &str, message: String) {
        let warning = Warning {
            source: rel.to_string(),
            message,
        };
        let mut warnings = self.warnings.borrow_mut();
        if !warnings.contains(&warning) {
            warnings.push(warning);
        }
    }

    /// The file names of a real (not symlinked) directory, sorted; empty when it is not one.
    pub fn file_names(&self, dir: &str) -> Vec<String> {
        let path = self.project.abs(dir);
        let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        if !is_dir {
            return Vec::new();
        }
        let mut names: Vec<String> = std::fs::read_dir(&path)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
            .filter_map(|entry| entry.file_name().into_string().ok())
            .collect();
        names.sort();
        names
    }
}

/// A TOML error as "line N: message" (the `toml` crate gives a byte span).
fn toml_error(text: &str, error: &toml::de::Error) -> String {
    let message = error.message().trim().to_string();
    match error.span() {
        Some(span) => {
            let line = text[..span.start.min(text.len())].matches('\n').count() + 1;
            format!("line {line}: {message}")
        }
        None => message,
    }
}

/// Add a practice.
pub fn push(found: &mut Vec<Practice>, topic: &'static str, practice: String, source: &str) {
    push_items(found, topic, practice, source, Vec::new());
}

/// Add a practice that summarises a list.
pub fn push_items(
    found: &mut Vec<Practice>,
    topic: &'static str,
    practice: String,
    source: &str,
    items: Vec<String>,
) {
    found.push(Practice {
        topic,
        practice,
        source: source.to_string(),
        items,
    });
}

/// The value at a dotted path of a TOML table.
pub fn get<'t>(table: &'t toml::Table, path: &[&str]) -> Option<&'t toml::Value> {
    let (last, parents) = path.split_last()?;
    let mut table = table;
    for key in parents {
        table = table.get(*key)?.as_table()?;
    }
    table.get(*last)
}

/// At most `max` of `items` joined with ", ", then "and N more".
pub fn list(items: &[String], max: usize) -> String {
    let shown = items
        .iter()
        .take(max)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    match items.len().saturating_sub(max) {
        0 => shown,
        more => format!("{shown} and {more} more"),
    }
}

/// `text` cut to `max` characters with an ellipsis.
pub fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    // A cut inside `code` closes it, so the rest of the line is not read as code.
    let close = if cut.matches('`').count() % 2 == 1 {
        "`"
    } else {
        ""
    };
    format!("{}…{close}", cut.trim_end())
}

/// A TOML scalar or array as short text: `100`, `true`, `B, E, F`.
pub fn toml_text(value: &toml::Value) -> String {
    match value {
        toml::Value::String(s) => s.clone(),
        toml::Value::Array(items) => items.iter().map(toml_text).collect::<Vec<_>>().join(", "),
        toml::Value::Table(_) => "{…}".to_string(),
        toml::Value::Integer(n) => n.to_string(),
        toml::Value::Float(n) => n.to_string(),
        toml::Value::Boolean(b) => b.to_string(),
        toml::Value::Datetime(d) => d.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_say_how_many_were_left_out() {
        let items: Vec<String> = ["a", "b", "c"].map(String::from).to_vec();
        assert_eq!(list(&items, 2), "a, b and 1 more");
        assert_eq!(list(&items, 3), "a, b, c");
    }

    #[test]
    fn a_cut_inside_code_closes_it() {
        assert_eq!(shorten("run `tox -e style` now", 9), "run `tox…`");
        assert_eq!(shorten("plain words here", 5), "plain…");
    }

    #[test]
    fn toml_errors_name_the_line() {
        let text = "[tool]\nname = \n";
        let error = toml::from_str::<toml::Table>(text).unwrap_err();
        assert!(toml_error(text, &error).starts_with("line 2: "), "{error}");
    }
}
