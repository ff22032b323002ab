//! The one secret scanner: text that looks like a credential. Used four ways —
//!
//! - by the update, on every source file it reads ([`secret_material`], [`credentials_file`]): a
//!   file holding a private key or a high-confidence token, or whose content is a credentials file
//!   (a kubeconfig, a dotenv file with secrets, …) is *secret*: listed as such in its `.aindex`,
//!   never given a design file, never sent to a model;
//! - on everything the update writes into the library ([`redact`]: design files, `.aindex` files,
//!   START_HERE.md), so that a secret copied from a default argument, a constant or a docstring
//!   never lands there;
//! - at the model request path's one choke point (`archivist::llm::http`): every string of every
//!   request is redacted before it is sent, whatever its origin;
//! - by `lexictl validate` on everything under `.lexibrary/` ([`scan`], every finding): a secret an
//!   agent wrote is reported with its file and line.
//!
//! What is detected: by shape ([`shapes`]) — private key blocks, AWS key ids and secret keys,
//! GitHub, GitLab, Slack (tokens and webhook URLs), OpenAI, Anthropic, Stripe, Google, Hugging Face,
//! npm, SendGrid and Twilio tokens, JSON Web Tokens, passwords inside URLs; by name ([`assigned`])
//! — a literal assigned to `password`, `secret`, `token`, `api_key`, … that looks like a password
//! or looks random (Shannon entropy of at least 3.5 bits per character, with a digit); by content
//! ([`files`]) — whole credentials files. **High confidence** — what makes a source file secret —
//! is a whole private key (the `BEGIN … PRIVATE KEY` line followed by key material, not just the
//! header a document mentions), an AWS key id that is not AWS's documented example, or a vendor
//! token whose body looks random. A matched value is never printed: findings name the kind and the
//! line.
//!
//! Ordinary code is left alone: hashes, hex test vectors, UUIDs and base64 are no finding unless
//! they carry a vendor prefix or are assigned to a secret name; placeholders (`changeme`,
//! `<your-key>`, `${TOKEN}`, `example`) never are.
//!
//! Works on bytes (`regex::bytes`), so a source file is scanned as read, without a decoded copy;
//! the high-confidence shapes are one alternation with literal prefixes, so a clean file costs one
//! fast pass.

mod assigned;
mod files;
mod shapes;
#[cfg(test)]
mod tests;

use std::collections::BTreeMap;

use regex::bytes::Regex;

pub use files::credentials_file;

/// How sure a finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Confidence {
    /// Worth a look (redacted, reported by `validate`): a private key header without key material,
    /// a password literal, a random-looking assignment, a JSON Web Token, a password in a URL.
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

/// One span of secret text: what [`redact`] replaces and [`scan`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Hit {
    start: usize,
    end: usize,
    kind: &'static str,
    confidence: Confidence,
}

/// A pattern compiled without Unicode (`(?-u)`): credentials are ASCII, and Unicode word boundaries
/// and classes made compiling the patterns cost more than a post-commit run's every other step but
/// the git status.
fn ascii_regex(source: &str) -> Option<Regex> {
    Regex::new(&format!("(?-u){source}")).ok()
}

/// Every hit in `bytes`: shapes first (their kinds win a tie), then assigned values, then the
/// echoes of those and of `known` values.
fn hits(bytes: &[u8], known: &[String]) -> Vec<Hit> {
    let mut out = Vec::new();
    shapes::hits(bytes, &mut out);
    assigned::hits(bytes, &mut out);
    echoes(bytes, known, &mut out);
    out
}

/// The shortest value looked for wherever else it appears.
const ECHO_MIN: usize = 6;

/// A value found once is a secret wherever it appears in the same text — `def login(password="…")`
/// and the docstring beside it that says "the default is hunter2x" — and so is a `known` value
/// (found in the source a text is about). Values shorter than [`ECHO_MIN`] bytes are not looked for.
fn echoes(bytes: &[u8], known: &[String], found: &mut Vec<Hit>) {
    let mut values: Vec<(Vec<u8>, &'static str)> = found
        .iter()
        .filter(|hit| hit.end - hit.start >= ECHO_MIN)
        .map(|hit| (bytes[hit.start..hit.end].to_vec(), hit.kind))
        .collect();
    values.extend(
        known
            .iter()
            .filter(|value| value.len() >= ECHO_MIN)
            .map(|value| (value.as_bytes().to_vec(), "a secret found in its source")),
    );
    values.sort();
    values.dedup_by(|a, b| a.0 == b.0);
    for (value, kind) in values {
        for start in memchr::memmem::find_iter(bytes, &value) {
            if !found
                .iter()
                .any(|other| other.start <= start && start < other.end)
            {
                found.push(Hit {
                    start,
                    end: start + value.len(),
                    kind,
                    confidence: Confidence::Likely,
                });
            }
        }
    }
}

/// The secret values in `text` (what [`redact`] replaces, [`ECHO_MIN`] bytes or longer): given to
/// [`redact_with`], they are redacted wherever a text about this one repeats them — a design
/// file's description that quotes the password its source assigns two lines below.
pub fn secret_values(text: &str) -> Vec<String> {
    let mut values: Vec<String> = hits(text.as_bytes(), &[])
        .into_iter()
        .filter(|hit| hit.end - hit.start >= ECHO_MIN)
        .filter_map(|hit| text.get(hit.start..hit.end).map(str::to_string))
        .collect();
    values.sort();
    values.dedup();
    values
}

/// The kind of the first high-confidence credential in `bytes`, if any: a file with one is secret.
pub fn secret_material(bytes: &[u8]) -> Option<&'static str> {
    if !shapes::may_hold_high(bytes) {
        return None;
    }
    let mut found = Vec::new();
    shapes::hits(bytes, &mut found);
    found
        .into_iter()
        .filter(|hit| hit.confidence == Confidence::High)
        .min_by_key(|hit| hit.start)
        .map(|hit| hit.kind)
}

/// Every finding in `bytes`, at most one per line (the most confident; among equals, the first
/// row's kind), sorted by line.
pub fn scan(bytes: &[u8]) -> Vec<Finding> {
    let mut found: BTreeMap<usize, (Confidence, &'static str)> = BTreeMap::new();
    let mut hits = hits(bytes, &[]);
    hits.sort_by_key(|hit| hit.start);
    let mut line = 1;
    let mut counted = 0;
    for hit in hits {
        line += bytecount_newlines(&bytes[counted..hit.start.max(counted)]);
        counted = hit.start.max(counted);
        let slot = found.entry(line).or_insert((hit.confidence, hit.kind));
        if hit.confidence > slot.0 {
            *slot = (hit.confidence, hit.kind);
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

fn bytecount_newlines(bytes: &[u8]) -> usize {
    memchr::memchr_iter(b'\n', bytes).count()
}

/// `text` with every span [`scan`] would flag replaced by `"…"` (or `…` inside a quoted literal or
/// a token, which keeps its quotes and its other parts): what the update writes into the library
/// and what is sent to a model never holds what `validate` calls a secret. Borrowed when nothing
/// matched.
pub fn redact(text: &str) -> std::borrow::Cow<'_, str> {
    redact_with(text, &[])
}

/// [`redact`], and every occurrence of one of the `known` secret values ([`secret_values`] of the
/// source a text is about) replaced too.
pub fn redact_with<'a>(text: &'a str, known: &[String]) -> std::borrow::Cow<'a, str> {
    let mut spans: Vec<(usize, usize)> = hits(text.as_bytes(), known)
        .into_iter()
        .map(|hit| (hit.start, hit.end))
        .collect();
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
        let (Some(before), Some(_)) = (text.get(at..start), text.get(start..end)) else {
            // Not on character boundaries (a span in invalid text): drop the rest of the line.
            continue;
        };
        out.push_str(before);
        let standalone = out
            .chars()
            .last()
            .is_none_or(|c| c.is_whitespace() || matches!(c, '=' | '(' | ',' | '[' | '{' | '>'));
        out.push_str(if standalone { "\"…\"" } else { "…" });
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
    if !text
        .get(start..)
        .is_some_and(|rest| rest.starts_with("-----BEGIN "))
    {
        return end;
    }
    let Some(after) = text.get(end..) else {
        return end;
    };
    after
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

/// A value that looks like a password someone chose: six to 256 characters without spaces, letters
/// mixed with digits or symbols (`hunter2`, `P@ssw0rd!`), and not a placeholder ([`is_placeholder`]),
/// a URL or path, a dotted name or a format string. `learnboost`, `changeme` and `${DB_PASSWORD}`
/// are not; neither is a pure number.
pub fn looks_like_password(value: &str) -> bool {
    let length = value.chars().count();
    if !(6..=256).contains(&length) || value.contains(char::is_whitespace) || is_placeholder(value)
    {
        return false;
    }
    if value.contains("://") || value.starts_with(['/', '.', '~']) {
        return false;
    }
    let letters = value.chars().any(|c| c.is_ascii_alphabetic());
    let digits = value.chars().any(|c| c.is_ascii_digit());
    let symbols = value
        .chars()
        .any(|c| !c.is_ascii_alphanumeric() && !matches!(c, '_' | '-' | '.'));
    let dotted_name = value.split('.').all(|part| {
        !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    }) && value.contains('.');
    letters && (digits || symbols) && !dotted_name
}

/// A stand-in rather than a value: empty, a template (`${…}`, `{{…}}`, `<…>`, `%s`, `{}`), a run
/// of one character (`xxxxxx`, `******`), or a word that says so (`changeme`, `example`, `your-…`,
/// `dummy`, `fake`, `test`, `password`, `secret`, `token`, …).
pub fn is_placeholder(value: &str) -> bool {
    let value = value.trim();
    let lower = value.to_ascii_lowercase();
    let mut chars = value.chars();
    let one_char = chars.next().is_some_and(|first| chars.all(|c| c == first));
    const WORDS: &[&str] = &[
        "password",
        "passwd",
        "secret",
        "token",
        "example",
        "changeme",
        "change_me",
        "change-me",
        "placeholder",
        "dummy",
        "fake",
        "mock",
        "test",
        "sample",
        "redacted",
        "your",
        "xxxx",
        "****",
        "...",
        "…",
        "foo",
        "bar",
        "baz",
        "lorem",
        "insert",
        "replace",
        "todo",
        "null",
        "none",
        "undefined",
        "default",
        "demo",
    ];
    value.is_empty()
        || one_char
        || value.starts_with(['$', '<', '{', '%', '[', '(', '*', '#', '@', '!'])
        || ["${", "{{", "%s", "%(", "{}", "<%", "$("]
            .iter()
            .any(|template| value.contains(template))
        || WORDS.iter().any(|word| lower.contains(word))
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
