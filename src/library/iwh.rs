//! I Was Here notes: `.lexibrary/<dir>/.iwh`, an ephemeral, gitignored signal from one agent to the
//! next one entering that directory (seed §1).
//!
//! ```text
//! ---
//! author: agent-session-abc123
//! created: 2026-02-22T14:30:00Z
//! scope: incomplete          # warning | incomplete | blocked
//! ---
//!
//! Auth middleware refactor is half-done. …
//! ```

use serde::{Deserialize, Serialize};

use super::{frontmatter, normalize_newlines, FormatError};

/// How urgent the note is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum IwhScope {
    /// Be aware of this before working here.
    Warning,
    /// Work was started but not finished.
    Incomplete,
    /// Something is broken here; fix it before proceeding.
    Blocked,
}

impl IwhScope {
    pub fn as_str(self) -> &'static str {
        match self {
            IwhScope::Warning => "warning",
            IwhScope::Incomplete => "incomplete",
            IwhScope::Blocked => "blocked",
        }
    }
}

/// The frontmatter of a note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IwhMeta {
    pub author: String,
    pub created: String,
    pub scope: IwhScope,
}

/// A parsed note.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Iwh {
    #[serde(flatten)]
    pub meta: IwhMeta,
    pub body: String,
}

impl Iwh {
    /// Parse a note. A note without the three fields is an error; callers show such a file raw.
    pub fn parse(path: &str, text: &str) -> Result<Iwh, FormatError> {
        let text = normalize_newlines(text);
        let split = frontmatter::split(path, &text)?;
        let Some(yaml) = split.yaml else {
            return Err(FormatError::new(
                path,
                Some(1),
                "an .iwh note must start with frontmatter holding author, created and scope",
            ));
        };
        Ok(Iwh {
            meta: frontmatter::parse(path, yaml)?,
            body: split.body.trim().to_string(),
        })
    }

    /// The file text.
    pub fn render(&self) -> String {
        format!(
            "{}\n{}\n",
            frontmatter::render(&self.meta),
            self.body.trim()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let note = Iwh {
            meta: IwhMeta {
                author: "a".into(),
                created: "2026-02-22T14:30:00Z".into(),
                scope: IwhScope::Blocked,
            },
            body: "Half done.\n\n- x".into(),
        };
        assert_eq!(Iwh::parse("x/.iwh", &note.render()).unwrap(), note);
        let err = Iwh::parse("x/.iwh", "---\nauthor: a\nscope: nope\n---\n").unwrap_err();
        assert!(err.to_string().starts_with("x/.iwh:"), "{err}");
        assert!(Iwh::parse("x/.iwh", "garbage").is_err());
    }
}
