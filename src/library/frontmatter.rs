//! YAML frontmatter: the `---`-fenced block at the top of design files, concepts and Stack posts.
//!
//! Splitting keeps track of line numbers so that a YAML error points at the line in the file, not in
//! the block.

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::FormatError;

/// A document split into its frontmatter (if any) and the rest.
#[derive(Debug, PartialEq, Eq)]
pub struct Split<'a> {
    /// The YAML between the fences, without them.
    pub yaml: Option<&'a str>,
    /// Everything after the closing fence (or the whole text when there is no frontmatter).
    pub body: &'a str,
    /// 1-based line number of the first line of `body`.
    pub body_line: usize,
}

/// Split `text` (LF line endings) into frontmatter and body. A text that opens a fence but never
/// closes it is an error.
pub fn split<'a>(path: &str, text: &'a str) -> Result<Split<'a>, FormatError> {
    let Some(rest) = text.strip_prefix("---\n") else {
        return Ok(Split {
            yaml: None,
            body: text,
            body_line: 1,
        });
    };
    let mut offset = 0;
    for (line, chunk) in (2..).zip(rest.split_inclusive('\n')) {
        let trimmed = chunk.trim_end_matches('\n').trim_end();
        if trimmed == "---" || trimmed == "..." {
            return Ok(Split {
                yaml: Some(&rest[..offset]),
                body: &rest[offset + chunk.len()..],
                body_line: line + 1,
            });
        }
        offset += chunk.len();
    }
    Err(FormatError::new(
        path,
        Some(1),
        "the frontmatter opened with `---` on line 1 is never closed with `---`",
    ))
}

/// Deserialise frontmatter YAML into `T`; errors carry the file line (YAML starts on line 2).
pub fn parse<T: DeserializeOwned>(path: &str, yaml: &str) -> Result<T, FormatError> {
    let source = if yaml.trim().is_empty() { "{}" } else { yaml };
    serde_yaml::from_str(source).map_err(|err| {
        let line = err.location().map(|location| location.line() + 1);
        let mut message = err.to_string();
        if let Some(cut) = message.find(" at line ") {
            message.truncate(cut);
        }
        FormatError::new(
            path,
            line.or(Some(1)),
            format!("invalid frontmatter: {message}"),
        )
    })
}

/// Render `value` as a frontmatter block, fences included, ending with a newline.
pub fn render<T: Serialize>(value: &T) -> String {
    let yaml = serde_yaml::to_string(value).unwrap_or_default();
    let yaml = if yaml.trim() == "{}" {
        String::new()
    } else {
        yaml
    };
    format!("---\n{yaml}---\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_finds_the_closing_fence_and_body_line() {
        let split = split("f", "---\na: 1\n---\n\n# T\n").expect("valid");
        assert_eq!(split.yaml, Some("a: 1\n"));
        assert_eq!(split.body, "\n# T\n");
        assert_eq!(split.body_line, 4);
    }

    #[test]
    fn no_fence_means_no_frontmatter() {
        let split = split("f", "# T\n").expect("valid");
        assert_eq!(split.yaml, None);
    }

    #[test]
    fn unclosed_fence_is_an_error_on_line_one() {
        let err = split("f.md", "---\na: 1\n").expect_err("unclosed");
        assert_eq!(err.line, Some(1));
    }

    #[test]
    fn yaml_errors_point_at_the_file_line() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct T {
            a: u32,
        }
        let err = parse::<T>("f.md", "a: 1\nb: [unclosed\n").expect_err("bad yaml");
        assert!(err.line.is_some_and(|line| line >= 3), "{err}");
    }
}
