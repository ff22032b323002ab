//! What a language's tooling files declare, read the way its tools read them: the types and readers
//! every language's `practices.rs` (`lang/<language>/practices.rs`) and the project-wide practices
//! (`project::practices`: guides, Makefiles, CI, `.editorconfig`) share. A [`Practice`] is one line
//! of a project's conventions with the file that says it; [`Sources`] reads those files bounded
//! ([`MAX_FILE_BYTES`]), never through a symlink, each parse error kept once as a [`Warning`] naming
//! the file and line; nothing is executed. Registry data: it knows no language and no walk.

pub mod ini;

use std::cell::RefCell;
use std::io::Read as _;
use std::path::{Path, PathBuf};

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

/// Reads the project's files for the parsers: bounded, never through a symlink, each parse error
/// recorded once as a [`Warning`].
pub struct Sources<'a> {
    /// The project's root directory; every path asked for is relative to it.
    pub root: &'a Path,
    /// How much of each practice to keep.
    pub detail: Detail,
    warnings: RefCell<Vec<Warning>>,
}

impl<'a> Sources<'a> {
    pub fn new(root: &'a Path) -> Self {
        Sources {
            root,
            detail: Detail::Short,
            warnings: RefCell::new(Vec::new()),
        }
    }

    /// The absolute path of project-relative `rel` (`""` is the root).
    pub fn abs(&self, rel: &str) -> PathBuf {
        match rel {
            "" => self.root.to_path_buf(),
            rel => self.root.join(rel),
        }
    }

    /// Whether `rel` is a regular file (not a symlink).
    pub fn is_file(&self, rel: &str) -> bool {
        crate::nofollow::file_type(self.root, rel)
            .ok()
            .flatten()
            .is_some_and(|t| t.is_file())
    }

    /// The text of `rel`: `None` when it is absent; a warning when it is too big or not UTF-8.
    pub fn text(&self, rel: &str) -> Option<String> {
        if !self.is_file(rel) {
            return None;
        }
        let file = crate::nofollow::open(self.root, rel).ok()?;
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

    /// The warnings recorded, sorted by file.
    pub fn into_warnings(self) -> Vec<Warning> {
        let mut warnings = self.warnings.into_inner();
        warnings.sort_by(|a, b| a.source.cmp(&b.source));
        warnings
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
        self.entry_names(dir, std::fs::FileType::is_file)
    }

    /// The names of the real (not symlinked) directories in `dir`, sorted, hidden ones left out.
    pub fn dir_names(&self, dir: &str) -> Vec<String> {
        let mut names = self.entry_names(dir, std::fs::FileType::is_dir);
        names.retain(|name| !name.starts_with('.'));
        names
    }

    /// The names of `dir`'s entries of a kind (`is_kind` of their own type, never a symlink's
    /// target), sorted; empty when `dir` is no real directory.
    fn entry_names(&self, dir: &str, is_kind: fn(&std::fs::FileType) -> bool) -> Vec<String> {
        let path = self.abs(dir);
        let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
        if !is_dir {
            return Vec::new();
        }
        let mut names: Vec<String> = std::fs::read_dir(&path)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|entry| entry.file_type().is_ok_and(|t| is_kind(&t)))
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

/// A JSON scalar or array as short text.
pub fn json_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) => {
            items.iter().map(json_text).collect::<Vec<_>>().join(", ")
        }
        serde_json::Value::Object(_) => "{…}".to_string(),
        other => other.to_string(),
    }
}

/// Words that make a script, target, session or environment one a contributor runs before a
/// change.
const CHECK_WORDS: &[&str] = &[
    "test",
    "lint",
    "fmt",
    "format",
    "check",
    "typecheck",
    "type-check",
    "types",
    "typing",
    "style",
    "clippy",
    "ci",
];

/// Whether a script, target, session or environment name says it checks (`test`, `lint:fix`,
/// `test-ci`).
pub fn is_check(name: &str) -> bool {
    name.split([':', '-', '_', '.'])
        .any(|part| CHECK_WORDS.contains(&part.to_ascii_lowercase().as_str()))
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
