//! The library's on-disk formats: design files, `.aindex` directory indexes, `START_HERE.md`, and the
//! pieces they share (YAML frontmatter, markdown sections, the machine footer); and the events kept
//! in git notes ([`events`]), which are a format too.
//!
//! This module knows nothing of git or tree-sitter. Parsing is lossless where it matters: sections it
//! does not own survive a rewrite in place, and rendering is byte-deterministic (DESIGN ).

pub mod aindex;
pub mod concept;
pub mod contract;
pub mod design_file;
pub mod events;
pub mod footer;
pub mod frontmatter;
pub mod iwh;
pub mod markdown;
pub mod stack;
pub mod start_here;
pub mod votes;
pub mod wikilink;

use std::fmt;

/// A library file that could not be parsed: which file, which line, what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormatError {
    pub path: String,
    /// 1-based line in the file, when known.
    pub line: Option<usize>,
    pub message: String,
}

impl FormatError {
    pub fn new(path: &str, line: Option<usize>, message: impl Into<String>) -> FormatError {
        FormatError {
            path: path.to_string(),
            line,
            message: message.into(),
        }
    }
}

impl fmt::Display for FormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.path, line, self.message),
            None => write!(f, "{}: {}", self.path, self.message),
        }
    }
}

impl std::error::Error for FormatError {}

/// Normalise line endings to LF (the library is always written with LF).
pub fn normalize_newlines(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains('\r') {
        std::borrow::Cow::Owned(text.replace("\r\n", "\n").replace('\r', "\n"))
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}
