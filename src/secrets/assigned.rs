//! Secrets recognised by the name they are given: a literal assigned to `password`, `secret`,
//! `token`, `api_key`, `client_secret`, … — as a default argument (`def login(password="…")`), a
//! constant (`const API_KEY: &str = "…"`), a keyword argument, a YAML or JSON key, an environment
//! line, or any of those quoted in a docstring.
//!
//! The name must *end* in one of the words (`db_password`, `authToken`, `AWS_SECRET_ACCESS_KEY`,
//! but not `password_field` or `token_type`). A quoted value is a secret when it looks like a
//! password ([`looks_like_password`]: six or more characters mixing letters with digits or symbols,
//! not a placeholder like `changeme`, `<your-key>` or `${TOKEN}`) or looks random; an unquoted value
//! (which may be a variable, `password = user_password`) only when it is a generated token — twelve
//! characters or more, random-looking, mixing upper case, lower case and digits — and not code
//! (`token = token1.child_token()`). Only the value is redacted; the name stays, so the reader still learns that
//! there is a password there.

use std::sync::OnceLock;

use regex::bytes::Regex;

use super::{ascii_regex, looks_like_password, looks_random, Confidence, Hit};

/// `name ["']? [: type] (= | : | => | == …) value`, the value in group `value`.
const ASSIGNMENT: &str = concat!(
    r#"(?i)\b[A-Za-z0-9_.-]*?"#,
    r#"(?:password|passwd|passphrase|pwd|secret|token|credentials?|"#,
    r#"api_?key|apikey|access_?key|secret_?key|private_?key|signing_?key|encryption_?key|master_?key)"#,
    r#"["']?\s*(?::\s*[A-Za-z0-9_.\[\]<>|&' ]{1,40}?\s*)?"#,
    r#"(?:===?|!==?|:=|=>|\?\?=|\|\|=|=|:)\s*"#,
    r#"(?P<value>[bru]?"[^"\n]*"|[bru]?'[^'\n]*'|`[^`\n]*`|[A-Za-z0-9+/=_\-!@#$%^&*~]+)"#,
);

fn assignment() -> Option<&'static Regex> {
    static REGEX: OnceLock<Option<Regex>> = OnceLock::new();
    REGEX.get_or_init(|| ascii_regex(ASSIGNMENT)).as_ref()
}

/// Every secret-looking value assigned to a secret name in `bytes`.
pub(super) fn hits(bytes: &[u8], out: &mut Vec<Hit>) {
    let Some(regex) = assignment() else {
        return;
    };
    for captures in regex.captures_iter(bytes) {
        let Some(value) = captures.name("value") else {
            continue;
        };
        // An unquoted value followed by `(`, `.`, `:` or `[` is code (`token1.child_token()`).
        let code = bytes
            .get(value.end())
            .is_some_and(|next| matches!(next, b'(' | b'.' | b':' | b'['));
        if code {
            continue;
        }
        if let Some(hit) = judge(value.as_bytes(), value.start()) {
            out.push(hit);
        }
    }
}

/// A finding for the value `raw` found at byte `at`, when it is one: the literal's inside (quotes
/// kept) for a quoted value, the whole value for an unquoted one.
fn judge(raw: &[u8], at: usize) -> Option<Hit> {
    let raw_text = String::from_utf8_lossy(raw);
    let opening = raw_text.find(['"', '\'', '`']).filter(|at| *at <= 1);
    match opening {
        Some(open) => {
            let inner = &raw_text[open + 1..raw_text.len().saturating_sub(1)];
            if inner.is_empty() || raw_text.len() < open + 2 {
                return None;
            }
            let random = inner.chars().count() >= 12 && looks_random(inner);
            if !(looks_like_password(inner) || random) {
                return None;
            }
            Some(Hit {
                start: at + open + 1,
                end: at + raw.len() - 1,
                kind: if random {
                    "a high-entropy secret assignment"
                } else {
                    "a password or secret literal"
                },
                confidence: Confidence::Likely,
            })
        }
        None => (raw_text.chars().count() >= 12 && looks_generated(&raw_text)).then_some(Hit {
            start: at,
            end: at + raw.len(),
            kind: "a high-entropy secret assignment",
            confidence: Confidence::Likely,
        }),
    }
}

/// An unquoted value that is a generated token rather than a name: random-looking, with upper-case
/// letters, lower-case letters and digits all present (`q8Zt3LwX9vKp2RmN`, not `child_token1` or
/// `MAX_RETRIES_2`).
fn looks_generated(value: &str) -> bool {
    !super::is_placeholder(value)
        && looks_random(value)
        && value.chars().any(|c| c.is_ascii_uppercase())
        && value.chars().any(|c| c.is_ascii_lowercase())
        && value.chars().any(|c| c.is_ascii_digit())
}
