//! The one secret scanner: text that looks like a credential. Used three ways —
//!
//! - by the update, on every source file it reads ([`secret_material`]): a file holding a private key
//!   or a high-confidence token is *secret*: listed as such in its `.aindex`, never given a design
//!   file, never sent to a model;
//! - at the model request path's one choke point (`archivist::llm`), on every prompt before it is
//!   sent, whatever its origin;
//! - by `lexictl validate` on everything under `.lexibrary/` ([`scan`], every finding).
//!
//! Detected: private key blocks, AWS access key ids, GitHub, Slack, OpenAI and Anthropic tokens, and
//! generic `password = …` / `api_key: …` assignments whose value looks random (Shannon entropy of at
//! least 3.5 bits per character over at least 12 characters, with a digit, so `password = example`
//! is not flagged). **High confidence** — what makes a source file secret — is a whole private key
//! (the `BEGIN … PRIVATE KEY` line followed by key material, not just the header a document
//! mentions), an AWS key id that is not AWS's documented example, or a vendor token whose body looks
//! random. A matched value is never printed: findings name the kind and the line.
//!
//! Works on bytes (`regex::bytes`), so a source file is scanned as read, without a decoded copy; the
//! high-confidence patterns are one alternation with literal prefixes, so a clean file costs one fast
//! pass.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use regex::bytes::Regex;

/// How sure a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Confidence {
    /// Worth a look: a private key header without key material, a random-looking assignment.
    Likely,
    /// A credential: the file is secret.
    High,
}

/// One finding: what it looks like, where.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Finding {
    /// 1-based line.
    pub line: usize,
    /// `a private key block`, `an AWS access key id`, …
    pub kind: &'static str,
    pub confidence: Confidence,
}

/// A pattern and what a match must also satisfy.
struct Pattern {
    kind: &'static str,
    regex: Regex,
    rule: Rule,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Rule {
    /// Every match is high confidence.
    Always,
    /// High confidence when the match does not end in `EXAMPLE` (AWS's documentation key).
    NotExample,
    /// High confidence when the token after its prefix looks random.
    RandomBody,
    /// Never high confidence.
    Likely,
}

/// The high-confidence patterns first: the first pattern that matches a line names its kind.
const PATTERNS: &[(&str, &str, Rule)] = &[
    (
        "a private key block",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,200}?[A-Za-z0-9+/]{40}",
        Rule::Always,
    ),
    (
        "an AWS access key id",
        r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b",
        Rule::NotExample,
    ),
    (
        "a GitHub token",
        r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
        Rule::RandomBody,
    ),
    (
        "a Slack token",
        r"\bxox[abprs]-[A-Za-z0-9-]{10,}",
        Rule::RandomBody,
    ),
    (
        "an Anthropic API key",
        r"\bsk-ant-[A-Za-z0-9_-]{20,}",
        Rule::RandomBody,
    ),
    (
        "an OpenAI API key",
        r"\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}",
        Rule::RandomBody,
    ),
    (
        "a private key block",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----",
        Rule::Likely,
    ),
];

/// A pattern compiled without Unicode (`(?-u)`): credentials are ASCII, and Unicode word boundaries
/// and classes made compiling the patterns cost more than a post-commit run's every other step but
/// the git status.
fn ascii_regex(source: &str) -> Option<Regex> {
    Regex::new(&format!("(?-u){source}")).ok()
}

fn patterns() -> &'static [Pattern] {
    static COMPILED: OnceLock<Vec<Pattern>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        PATTERNS
            .iter()
            .filter_map(|(kind, source, rule)| {
                Some(Pattern {
                    kind,
                    regex: ascii_regex(source)?,
                    rule: *rule,
                })
            })
            .collect()
    })
}

/// Every high-confidence pattern as one alternation: one pass over a clean file.
fn high_confidence() -> Option<&'static Regex> {
    static HIGH: OnceLock<Option<Regex>> = OnceLock::new();
    HIGH.get_or_init(|| {
        let alternatives: Vec<String> = PATTERNS
            .iter()
            .filter(|(_, _, rule)| *rule != Rule::Likely)
            .map(|(_, source, _)| format!("(?:{source})"))
            .collect();
        ascii_regex(&alternatives.join("|"))
    })
    .as_ref()
}

fn assignment() -> Option<&'static Regex> {
    static ASSIGNMENT: OnceLock<Option<Regex>> = OnceLock::new();
    ASSIGNMENT
        .get_or_init(|| {
            ascii_regex(
                r#"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?key|auth[_-]?token|token)\b\s*[:=]\s*["']?([^\s"'`]{12,})"#,
            )
        })
        .as_ref()
}

impl Pattern {
    fn confidence(&self, matched: &[u8]) -> Confidence {
        let high = match self.rule {
            Rule::Always => true,
            Rule::NotExample => !matched.ends_with(b"EXAMPLE"),
            Rule::RandomBody => looks_random(&String::from_utf8_lossy(token_body(matched))),
            Rule::Likely => false,
        };
        if high {
            Confidence::High
        } else {
            Confidence::Likely
        }
    }
}

/// The part of a token after its vendor prefix (`ghp_`, `xoxb-`, `sk-ant-`, …).
fn token_body(token: &[u8]) -> &[u8] {
    let prefix = token
        .iter()
        .position(|byte| *byte == b'_' || *byte == b'-')
        .map_or(0, |at| at + 1);
    let body = &token[prefix..];
    // `sk-ant-…`, `sk-proj-…`, `github_pat_…`: skip the second part of the prefix too.
    for second in [&b"ant-"[..], b"proj-", b"pat_"] {
        if let Some(rest) = body.strip_prefix(second) {
            return rest;
        }
    }
    body
}

/// The kind of the first high-confidence credential in `bytes`, if any: a file with one is secret.
pub fn secret_material(bytes: &[u8]) -> Option<&'static str> {
    let combined = high_confidence()?;
    for hit in combined.find_iter(bytes) {
        let matched = hit.as_bytes();
        for pattern in patterns() {
            if pattern.rule == Rule::Likely {
                continue;
            }
            if let Some(exact) = pattern.regex.find(matched) {
                if pattern.confidence(exact.as_bytes()) == Confidence::High {
                    return Some(pattern.kind);
                }
            }
        }
    }
    None
}

/// Every finding in `bytes`, at most one per line (the most confident; among equals, the first
/// pattern's kind), sorted by line.
pub fn scan(bytes: &[u8]) -> Vec<Finding> {
    let mut found: BTreeMap<usize, (Confidence, &'static str)> = BTreeMap::new();
    let line_of = |offset: usize| bytes[..offset].iter().filter(|b| **b == b'\n').count() + 1;
    let mut note = |offset: usize, confidence: Confidence, kind: &'static str| {
        let slot = found.entry(line_of(offset)).or_insert((confidence, kind));
        if confidence > slot.0 {
            *slot = (confidence, kind);
        }
    };
    for pattern in patterns() {
        for hit in pattern.regex.find_iter(bytes) {
            note(
                hit.start(),
                pattern.confidence(hit.as_bytes()),
                pattern.kind,
            );
        }
    }
    if let Some(regex) = assignment() {
        for captures in regex.captures_iter(bytes) {
            if let Some(value) = captures
                .get(1)
                .filter(|value| looks_random(&String::from_utf8_lossy(value.as_bytes())))
            {
                note(
                    value.start(),
                    Confidence::Likely,
                    "a high-entropy secret assignment",
                );
            }
        }
    }
    found
        .into_iter()
        .map(|(line, (confidence, kind))| Finding {
            line,
            kind,
            confidence,
        })
        .collect()
}

/// `text` with every span [`scan`] would flag replaced by `"…"` (or `…` inside a quoted literal,
/// which keeps its quotes): what the update writes into the library never holds what `validate`
/// calls a secret. Borrowed when nothing matched.
pub fn redact(text: &str) -> std::borrow::Cow<'_, str> {
    let bytes = text.as_bytes();
    let mut spans: Vec<(usize, usize)> = patterns()
        .iter()
        .flat_map(|pattern| pattern.regex.find_iter(bytes))
        .map(|hit| (hit.start(), hit.end()))
        .collect();
    if let Some(regex) = assignment() {
        spans.extend(
            regex
                .captures_iter(bytes)
                .filter_map(|captures| captures.get(1))
                .filter(|value| looks_random(&String::from_utf8_lossy(value.as_bytes())))
                .map(|value| (value.start(), value.end())),
        );
    }
    if spans.is_empty() {
        return std::borrow::Cow::Borrowed(text);
    }
    spans.sort_unstable();
    for span in &mut spans {
        span.1 = key_block_end(text, *span);
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end) in spans {
        if end <= at {
            continue;
        }
        let start = start.max(at);
        // Every pattern starts and ends on an ASCII byte, so these are char boundaries.
        out.push_str(&text[at..start]);
        let quoted = out.ends_with(['"', '\'', '`']);
        out.push_str(if quoted { "…" } else { "\"…\"" });
        at = end;
    }
    out.push_str(&text[at..]);
    std::borrow::Cow::Owned(out)
}

/// The end of a private key block that starts at `span`: past its `-----END … PRIVATE KEY-----`
/// line when one follows, so no key material is left behind; other spans end where they matched.
fn key_block_end(text: &str, (start, end): (usize, usize)) -> usize {
    const END: &str = "-----END ";
    const CLOSE: &str = "PRIVATE KEY-----";
    if !text[start..].starts_with("-----BEGIN ") {
        return end;
    }
    text[end..]
        .find(END)
        .and_then(|at| {
            let line_end = text[end + at..]
                .find('\n')
                .map_or(text.len(), |n| end + at + n);
            text[end + at..line_end]
                .find(CLOSE)
                .map(|close| end + at + close + CLOSE.len())
        })
        .unwrap_or(end)
}

/// A value that looks generated rather than written: high entropy and at least one digit
/// (`example-password` and `use-the-env-var` are prose; `Xk9#mQ2$vL7pR4tZ` is not).
pub fn looks_random(value: &str) -> bool {
    entropy(value) >= 3.5 && value.chars().any(|c| c.is_ascii_digit())
}

/// Shannon entropy in bits per character.
fn entropy(value: &str) -> f64 {
    let mut counts = std::collections::HashMap::new();
    let total = value.chars().count() as f64;
    for ch in value.chars() {
        *counts.entry(ch).or_insert(0usize) += 1;
    }
    counts
        .values()
        .map(|&n| {
            let p = n as f64 / total;
            -p * p.log2()
        })
        .sum()
}

/// Test material built at run time, so that no credential-shaped literal sits in this crate's own
/// sources (which Lexibrarian documents, and a secret scanner of any kind would flag).
#[cfg(test)]
pub(crate) mod samples {
    /// A private key block, as `ssh-keygen` writes it (random bytes, no real key).
    pub fn private_key() -> String {
        let body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW";
        format!(
            "-----{} OPENSSH PRIVATE KEY-----\n{body}\nQyNTUxOQAAACDx3f0L1wVv9Yc2kq7p8Hc0sZ\n-----END OPENSSH PRIVATE KEY-----\n",
            "BEGIN"
        )
    }

    /// A GitHub token shape with a random-looking body.
    pub fn github_token() -> String {
        format!("gh{}_{}", "p", "R4nd0mT0k3nB0dy9x8w7v6u5t4s3r2q1p0ZYXW")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_found_and_ordinary_text_is_not() {
        let text = [
            format!("aws: {}{}", "AKIA", "IOSFODNN7ABCDEFG"),
            format!("-----{} OPENSSH PRIVATE KEY-----", "BEGIN"),
            format!("token {}", samples::github_token()),
            format!("slack {}-123456789012-abcdefABCDEF", "xoxb"),
            format!("key {}-api03-abcdefghijklmnopqrstuv", "sk-ant"),
            format!("OPENAI {}-abcdefghijklmnopqrstuvwx", "sk-proj"),
            "password = \"Xk9#mQ2$vL7pR4tZ\"".to_string(),
            "password = example-password".to_string(),
            "Use the `api_key_env` setting, never a literal key.".to_string(),
            "The token is refreshed every hour.".to_string(),
        ]
        .join("\n");
        let found = scan(text.as_bytes());
        let lines: Vec<usize> = found.iter().map(|f| f.line).collect();
        assert_eq!(lines, [1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(found[1].confidence, Confidence::Likely, "a header alone");
        assert_eq!(found[0].confidence, Confidence::High);
    }

    #[test]
    fn redaction_leaves_nothing_the_scan_flags() {
        let text = [
            format!(
                "def connect(api_key=\"{}-abcdefghijklmnopqrstuvwx\"):",
                "sk-proj"
            ),
            format!("Use the bot token {}-abcdefghijklmnop for tests.", "xoxb"),
            "def login(password=\"Xk9#mQ2$vL7pR4tZ\"):".to_string(),
            format!("token: {}", samples::github_token()),
            samples::private_key(),
            "The token is refreshed every hour.".to_string(),
        ]
        .join("\n");
        assert!(!scan(text.as_bytes()).is_empty());
        let redacted = redact(&text);
        assert!(scan(redacted.as_bytes()).is_empty(), "{redacted}");
        let lines: Vec<&str> = redacted.lines().collect();
        assert_eq!(lines[0], "def connect(api_key=\"…\"):");
        assert_eq!(lines[1], "Use the bot token \"…\" for tests.");
        assert_eq!(lines[2], "def login(password=\"…\"):");
        assert_eq!(lines[3], "token: \"…\"");
        assert_eq!(lines[4], "\"…\"", "the whole key block, END line included");
        assert!(redacted.ends_with("The token is refreshed every hour."));
        let clean = "fn main() {}";
        assert!(matches!(redact(clean), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn whole_keys_and_random_tokens_make_a_file_secret() {
        let key = samples::private_key();
        assert_eq!(secret_material(key.as_bytes()), Some("a private key block"));
        let in_code = format!("const KEY: &str = \"{}\";", key.replace('\n', "\\n"));
        assert_eq!(
            secret_material(in_code.as_bytes()),
            Some("a private key block")
        );
        let token = format!("export GITHUB_TOKEN={}\n", samples::github_token());
        assert_eq!(secret_material(token.as_bytes()), Some("a GitHub token"));
        // What documentation says about keys is not a key.
        for prose in [
            format!(
                "Keys start with `-----{} OPENSSH PRIVATE KEY-----`.\n",
                "BEGIN"
            ),
            format!("aws_access_key_id = {}{}\n", "AKIA", "IOSFODNN7EXAMPLE"),
            "password = \"Xk9#mQ2$vL7pR4tZ\"\n".to_string(),
            format!("class=\"{}-button-primary-large-variant\"\n", "sk"),
            "fn main() {}\n".to_string(),
        ] {
            assert_eq!(secret_material(prose.as_bytes()), None, "{prose}");
        }
    }
}
