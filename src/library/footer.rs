//! The machine footer of a design file and the design hash.
//!
//! ```text
//! <!-- lexibrarian:meta
//! source: src/a.rs
//! source_hash: <sha256>
//! interface_hash: <sha256>      (code files only)
//! design_hash: <sha256>
//! generator: lexibrarian 0.1.0
//! -->
//! ```
//!
//! The footer holds no time: a design file is a function of the tree and of what agents wrote
//! (DESIGN §10), so writing the same file twice gives the same bytes. When and by what a text was
//! written is in its provenance note (`lexi why`). A `generated: <time>` line that earlier versions
//! wrote still parses ([`Footer::generated`]) and goes the next time the file is written.
//!
//! The design hash is the SHA-256 of the file text *exactly as written* up to the footer's first line
//! (DESIGN R-1). [`split`] is the one place that decides where that is, and both the writer
//! ([`seal`]) and the checker ([`design_hash_of`]) go through it, so writer output always verifies.

use std::collections::BTreeMap;

use super::FormatError;
use crate::hash::sha256_hex;

/// The footer key that marks a design file whose model answer exceeded the design file budget:
/// `over_scoped: <answer tokens>/<budget>`. Set on every LLM generation over budget, cleared by the
/// next generation that is not; `lexictl validate` reads it.
pub const OVER_SCOPED_KEY: &str = "over_scoped";

/// The first line of every footer.
pub const FOOTER_OPEN: &str = "<!-- lexibrarian:meta";
/// The last line of every footer.
pub const FOOTER_CLOSE: &str = "-->";

/// The parsed footer.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Footer {
    pub source: String,
    pub source_hash: String,
    pub interface_hash: Option<String>,
    pub design_hash: String,
    /// The time an earlier version stamped (`generated:`); never written any more.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated: Option<String>,
    pub generator: String,
    /// Keys written by a newer version; kept so they survive a rewrite.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub extra: BTreeMap<String, String>,
}

impl Footer {
    /// Render the footer block, ending with a newline.
    pub fn render(&self) -> String {
        let mut out = String::new();
        out.push_str(FOOTER_OPEN);
        out.push('\n');
        push_field(&mut out, "source", &self.source);
        push_field(&mut out, "source_hash", &self.source_hash);
        if let Some(interface_hash) = &self.interface_hash {
            push_field(&mut out, "interface_hash", interface_hash);
        }
        push_field(&mut out, "design_hash", &self.design_hash);
        if let Some(generated) = &self.generated {
            push_field(&mut out, "generated", generated);
        }
        push_field(&mut out, "generator", &self.generator);
        for (key, value) in &self.extra {
            push_field(&mut out, key, value);
        }
        out.push_str(FOOTER_CLOSE);
        out.push('\n');
        out
    }

    /// Parse a footer block (as returned by [`split`]); `first_line` is its 1-based line in the file.
    pub fn parse(path: &str, block: &str, first_line: usize) -> Result<Footer, FormatError> {
        let mut fields: BTreeMap<String, String> = BTreeMap::new();
        let mut closed = false;
        for (index, raw) in block.lines().enumerate().skip(1) {
            let line = raw.trim_end_matches('\r');
            let line_no = first_line + index;
            if line.trim() == FOOTER_CLOSE {
                closed = true;
                break;
            }
            if line.trim().is_empty() {
                continue;
            }
            let Some((key, value)) = line.split_once(':') else {
                return Err(FormatError::new(
                    path,
                    Some(line_no),
                    format!("footer line `{line}` is not `key: value`"),
                ));
            };
            let value = value.strip_prefix(' ').unwrap_or(value);
            fields.insert(key.trim().to_string(), value.to_string());
        }
        if !closed {
            return Err(FormatError::new(
                path,
                Some(first_line),
                "the footer opened here is never closed with `-->`",
            ));
        }
        let mut take = |key: &str| -> Result<String, FormatError> {
            fields.remove(key).ok_or_else(|| {
                FormatError::new(
                    path,
                    Some(first_line),
                    format!("the footer is missing `{key}`"),
                )
            })
        };
        let source = take("source")?;
        let source_hash = take("source_hash")?;
        let design_hash = take("design_hash")?;
        let generator = take("generator")?;
        let generated = fields.remove("generated");
        let interface_hash = fields.remove("interface_hash");
        Ok(Footer {
            source,
            source_hash,
            interface_hash,
            design_hash,
            generated,
            generator,
            extra: fields,
        })
    }
}

fn push_field(out: &mut String, key: &str, value: &str) {
    out.push_str(key);
    out.push_str(": ");
    out.push_str(value);
    out.push('\n');
}

/// Split a file into (content, footer block). The footer starts at the *last* line that begins with
/// [`FOOTER_OPEN`]; content is everything before that line, exactly as written.
pub fn split(text: &str) -> (&str, Option<&str>) {
    let mut search_end = text.len();
    while let Some(found) = text[..search_end].rfind(FOOTER_OPEN) {
        if found == 0 || text.as_bytes()[found - 1] == b'\n' {
            return (&text[..found], Some(&text[found..]));
        }
        search_end = found;
    }
    (text, None)
}

/// Whatever follows the footer's closing `-->` line (normally nothing). Text an agent appended
/// after the footer is part of its edit.
pub fn trailing_text(block: &str) -> &str {
    let mut offset = 0;
    for line in block.split_inclusive('\n') {
        offset += line.len();
        if line.trim() == FOOTER_CLOSE {
            return &block[offset..];
        }
    }
    ""
}

/// The 1-based line on which the footer starts, given the content before it.
pub fn footer_line(content: &str) -> usize {
    content.matches('\n').count() + 1
}

/// The design hash of a whole design file as it is on disk (footer excluded).
pub fn design_hash_of(text: &str) -> String {
    sha256_hex(split(text).0.as_bytes())
}

/// Attach a footer to `content`: fills in `design_hash` from `content` and returns the full file text.
pub fn seal(content: &str, mut footer: Footer) -> (String, Footer) {
    footer.design_hash = sha256_hex(content.as_bytes());
    let mut text = String::with_capacity(content.len() + 400);
    text.push_str(content);
    text.push_str(&footer.render());
    (text, footer)
}

/// The current time as RFC 3339 UTC with second precision (`2026-01-15T10:30:00Z`).
pub fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| elapsed.as_secs())
        .unwrap_or(0);
    rfc3339_from_unix(secs)
}

/// Format seconds since the Unix epoch as RFC 3339 UTC.
/// The current UTC time as RFC 3339 with milliseconds (`2026-01-15T10:00:00.123Z`), for event
/// timestamps that must sort in the order they happened.
pub fn now_rfc3339_millis() -> String {
    let elapsed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    let seconds = rfc3339_from_unix(elapsed.as_secs());
    format!(
        "{}.{:03}Z",
        seconds.trim_end_matches('Z'),
        elapsed.subsec_millis()
    )
}

pub fn rfc3339_from_unix(secs: u64) -> String {
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// Howard Hinnant's days-to-civil algorithm.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn footer() -> Footer {
        Footer {
            source: "src/a b.rs".into(),
            source_hash: "11".into(),
            interface_hash: Some("22".into()),
            design_hash: String::new(),
            generated: None,
            generator: "lexibrarian 0.1.0".into(),
            extra: BTreeMap::new(),
        }
    }

    #[test]
    fn sealed_text_verifies_with_the_checker() {
        let content = "---\ndescription: x\n---\n\n# src/a b.rs\n\n";
        let (text, sealed) = seal(content, footer());
        assert_eq!(design_hash_of(&text), sealed.design_hash);
        let (back, block) = split(&text);
        assert_eq!(back, content);
        let parsed = Footer::parse("f", block.expect("footer"), footer_line(back)).expect("ok");
        assert_eq!(parsed, sealed);
    }

    #[test]
    fn the_last_footer_marker_wins() {
        let text = "a\n<!-- lexibrarian:meta inside body\nb\n<!-- lexibrarian:meta\nx: y\n-->\n";
        let (content, block) = split(text);
        assert!(content.ends_with("b\n"));
        assert!(block
            .expect("footer")
            .starts_with("<!-- lexibrarian:meta\nx"));
    }

    #[test]
    fn a_missing_field_is_named_with_the_line() {
        let block =
            "<!-- lexibrarian:meta\nsource: a\nsource_hash: 1\ngenerated: t\ngenerator: g\n-->\n";
        let err = Footer::parse("d.md", block, 9).expect_err("missing design_hash");
        assert_eq!(
            err.to_string(),
            "d.md:9: the footer is missing `design_hash`"
        );
    }

    #[test]
    fn dates_format_as_rfc3339() {
        assert_eq!(rfc3339_from_unix(0), "1970-01-01T00:00:00Z");
        assert_eq!(rfc3339_from_unix(1_768_473_000), "2026-01-15T10:30:00Z");
        assert_eq!(rfc3339_from_unix(951_782_400), "2000-02-29T00:00:00Z");
    }
}
