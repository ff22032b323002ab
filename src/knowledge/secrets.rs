//! The secret scan of `lexictl validate`: anything under `.lexibrary/` that looks like a credential.
//! Design files, concepts and Stack posts are committed and read by every agent; a pasted key there
//! is a leak.
//!
//! Detected: AWS access key ids, private key blocks, GitHub, Slack, OpenAI and Anthropic tokens, and
//! generic `password = …` / `api_key: …` assignments whose value looks random (Shannon entropy of at
//! least 3.5 bits per character over at least 12 characters, with a digit, so `password = example` is
//! not flagged). The matched value is never printed: findings name the kind, file and line.

use std::sync::OnceLock;

use regex::Regex;

use super::validate::{Issue, Severity};
use crate::project::mirror::IWH_FILE;
use crate::project::{Project, LIBRARY_DIR};
use crate::workspace::library::Listing;

struct Pattern {
    kind: &'static str,
    regex: Regex,
}

fn patterns() -> &'static [Pattern] {
    static PATTERNS: OnceLock<Vec<Pattern>> = OnceLock::new();
    PATTERNS.get_or_init(|| {
        [
            ("an AWS access key id", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
            (
                "a private key block",
                r"-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----",
            ),
            (
                "a GitHub token",
                r"\b(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_[A-Za-z0-9_]{22,})",
            ),
            ("a Slack token", r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
            ("an Anthropic API key", r"\bsk-ant-[A-Za-z0-9_-]{20,}"),
            ("an OpenAI API key", r"\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}"),
        ]
        .into_iter()
        .filter_map(|(kind, source)| {
            Some(Pattern {
                kind,
                regex: Regex::new(source).ok()?,
            })
        })
        .collect()
    })
}

fn assignment() -> Option<&'static Regex> {
    static ASSIGNMENT: OnceLock<Option<Regex>> = OnceLock::new();
    ASSIGNMENT
        .get_or_init(|| {
            Regex::new(
                r#"(?i)\b(?:password|passwd|pwd|secret|api[_-]?key|access[_-]?key|auth[_-]?token|token)\b\s*[:=]\s*["']?([^\s"'`]{12,})"#,
            )
            .ok()
        })
        .as_ref()
}

/// Findings for one text (at most one per line); `file` is the project-relative path. Each pattern
/// scans the whole text once; line numbers come from match offsets.
pub fn scan_text(file: &str, text: &str) -> Vec<Issue> {
    let mut found: std::collections::BTreeMap<usize, &'static str> =
        std::collections::BTreeMap::new();
    let line_of = |offset: usize| text[..offset].matches('\n').count() + 1;
    for pattern in patterns() {
        for hit in pattern.regex.find_iter(text) {
            found.entry(line_of(hit.start())).or_insert(pattern.kind);
        }
    }
    if let Some(regex) = assignment() {
        for captures in regex.captures_iter(text) {
            if let Some(value) = captures.get(1).filter(|value| looks_random(value.as_str())) {
                found
                    .entry(line_of(value.start()))
                    .or_insert("a high-entropy secret assignment");
            }
        }
    }
    found
        .into_iter()
        .map(|(line, kind)| Issue {
            check: "secret",
            severity: Severity::Error,
            file: file.to_string(),
            line: Some(line),
            message: format!("line {line} looks like {kind}"),
            hint: "remove it from the library (and from git history), rotate the credential, and keep secrets out of design files".into(),
        })
        .collect()
}

/// Scan every file of `listing` (the whole library but the derived cache) except `.iwh` notes
/// (gitignored).
pub fn scan_library(project: &Project, listing: &Listing) -> Vec<Issue> {
    use rayon::prelude::*;
    let files: Vec<&str> = listing
        .files
        .iter()
        .filter(|entry| entry.name() != IWH_FILE)
        .map(|entry| entry.rel.as_str())
        .collect();
    files
        .par_iter()
        .flat_map(|rel| {
            let shown = format!("{LIBRARY_DIR}/{rel}");
            match std::fs::read(project.library_dir().join(rel)) {
                Ok(bytes) => scan_text(&shown, &String::from_utf8_lossy(&bytes)),
                Err(_) => Vec::new(),
            }
        })
        .collect()
}

/// A value that looks generated rather than written: high entropy and at least one digit
/// (`example-password` and `use-the-env-var` are prose; `Xk9#mQ2$vL7pR4tZ` is not).
fn looks_random(value: &str) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn credentials_are_found_and_ordinary_text_is_not() {
        let text = [
            "aws: AKIAIOSFODNN7EXAMPLE",
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            "token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB",
            "slack xoxb-123456789012-abcdefABCDEF",
            "key sk-ant-api03-abcdefghijklmnopqrstuv",
            "OPENAI sk-proj-abcdefghijklmnopqrstuvwx",
            "password = \"Xk9#mQ2$vL7pR4tZ\"",
            "password = example-password",
            "Use the `api_key_env` setting, never a literal key.",
            "The token is refreshed every hour.",
        ]
        .join("\n");
        let lines: Vec<usize> = scan_text("x.md", &text)
            .iter()
            .filter_map(|i| i.line)
            .collect();
        assert_eq!(lines, [1, 2, 3, 4, 5, 6, 7]);
        assert!(scan_text("x.md", &text)
            .iter()
            .all(|i| !i.message.contains("AKIA")));
    }
}
