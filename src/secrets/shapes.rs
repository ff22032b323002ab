//! Credentials recognised by their shape: the token formats of the common vendors (a literal prefix
//! and a random body), private key blocks, JSON Web Tokens, AWS secret keys (by the name they are
//! assigned to) and passwords inside URLs. One table, [`SHAPES`]; adding a format is adding a row
//! (and a row to the table-driven test in `secrets/tests.rs`).
//!
//! A row's pattern may name two groups: `v`, the span that is redacted when it is not the whole
//! match (the password of a URL, the value of an assignment), and `body`, the part judged for
//! randomness (a token without its vendor prefix). What a match means is the row's [`Rule`].

use std::sync::OnceLock;

use regex::bytes::Regex;

use super::{ascii_regex, looks_like_password, looks_random, Confidence, Hit};

/// How a row's match is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Rule {
    /// Every match is a credential (high confidence).
    Always,
    /// High confidence unless the match ends in `EXAMPLE` (AWS's documentation key id).
    NotExample,
    /// High confidence when the body looks random; otherwise worth a look.
    RandomBody,
    /// [`Rule::RandomBody`], and never high confidence for a value holding `EXAMPLE`.
    RandomNotExample,
    /// A finding only when the value looks like a password ([`looks_like_password`]); never high
    /// confidence (a URL's password in a test or an example).
    Password,
    /// Always a finding, never high confidence.
    Likely,
}

/// The formats, most specific first: the first row that matches a span names its kind.
pub(super) const SHAPES: &[(&str, &str, Rule)] = &[
    (
        "a private key block",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]{0,200}?[A-Za-z0-9+/]{40}",
        Rule::Always,
    ),
    (
        "an AWS access key id",
        r"\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b",
        Rule::NotExample,
    ),
    (
        "an AWS secret access key",
        r#"(?i:aws_?secret_?(?:access_?)?key)["']?\s*(?:=|:|=>)\s*["']?(?P<v>[A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|\z)"#,
        Rule::RandomNotExample,
    ),
    (
        "a GitHub token",
        r"\bgh[pousr]_(?P<body>[A-Za-z0-9]{36,})",
        Rule::RandomBody,
    ),
    (
        "a GitHub token",
        r"\bgithub_pat_(?P<body>[A-Za-z0-9_]{22,})",
        Rule::RandomBody,
    ),
    (
        "a GitLab token",
        r"\bgl(?:pat|dt|ptt|rt|cbt|soat|ft|imt)-(?P<body>[A-Za-z0-9_-]{20,})",
        Rule::RandomBody,
    ),
    (
        "a Slack webhook URL",
        r"https://hooks\.slack\.com/(?:services|workflows|triggers)/(?P<body>[A-Za-z0-9_/+-]{20,})",
        Rule::RandomBody,
    ),
    (
        "a Slack token",
        r"\bxox[abposr]-(?P<body>[A-Za-z0-9-]{10,})",
        Rule::RandomBody,
    ),
    (
        "a Slack token",
        r"\bxapp-[0-9]-(?P<body>[A-Za-z0-9-]{10,})",
        Rule::RandomBody,
    ),
    (
        "an Anthropic API key",
        r"\bsk-ant-(?P<body>[A-Za-z0-9_-]{20,})",
        Rule::RandomBody,
    ),
    (
        "an OpenAI API key",
        r"\bsk-(?:proj-|svcacct-|admin-)?(?P<body>[A-Za-z0-9_-]{20,})",
        Rule::RandomBody,
    ),
    (
        "a Stripe secret key",
        r"\b[rs]k_live_(?P<body>[A-Za-z0-9]{20,})",
        Rule::RandomBody,
    ),
    (
        "a Stripe test key",
        r"\b[rs]k_test_[A-Za-z0-9]{20,}",
        Rule::Likely,
    ),
    (
        "a Stripe webhook secret",
        r"\bwhsec_(?P<body>[A-Za-z0-9+/]{32,})",
        Rule::RandomBody,
    ),
    (
        "a Google API key",
        r"\bAIza(?P<body>[0-9A-Za-z_-]{35})",
        Rule::RandomBody,
    ),
    (
        "a Google OAuth client secret",
        r"\bGOCSPX-(?P<body>[A-Za-z0-9_-]{28})",
        Rule::RandomBody,
    ),
    (
        "a Google OAuth access token",
        r"\bya29\.(?P<body>[0-9A-Za-z_-]{30,})",
        Rule::RandomBody,
    ),
    (
        "a Hugging Face token",
        r"\bhf_(?P<body>[A-Za-z0-9]{30,})",
        Rule::RandomBody,
    ),
    (
        "an npm token",
        r"\bnpm_(?P<body>[A-Za-z0-9]{36})",
        Rule::RandomBody,
    ),
    (
        "a SendGrid API key",
        r"\bSG\.(?P<body>[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})",
        Rule::RandomBody,
    ),
    (
        "a Twilio API key",
        r"\bSK(?P<body>[0-9a-f]{32})\b",
        Rule::RandomBody,
    ),
    (
        "a JSON Web Token",
        r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}",
        Rule::Likely,
    ),
    (
        "a password in a URL",
        r#"\b[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/@"'<>`]{0,64}:(?P<v>[^\s/@"'<>`]{1,128})@[A-Za-z0-9\[]"#,
        Rule::Password,
    ),
    (
        "a private key block",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----",
        Rule::Likely,
    ),
];

/// One compiled row.
pub(super) struct Shape {
    pub kind: &'static str,
    pub regex: Regex,
    pub rule: Rule,
}

pub(super) fn shapes() -> &'static [Shape] {
    static COMPILED: OnceLock<Vec<Shape>> = OnceLock::new();
    COMPILED.get_or_init(|| {
        SHAPES
            .iter()
            .filter_map(|(kind, source, rule)| {
                Some(Shape {
                    kind,
                    regex: ascii_regex(source)?,
                    rule: *rule,
                })
            })
            .collect()
    })
}

/// Every row that can be high confidence as one alternation (groups unnamed): one pass tells a
/// clean file from one worth a closer look.
fn any_high() -> Option<&'static Regex> {
    static HIGH: OnceLock<Option<Regex>> = OnceLock::new();
    HIGH.get_or_init(|| {
        let alternatives: Vec<String> = SHAPES
            .iter()
            .filter(|(_, _, rule)| !matches!(rule, Rule::Likely | Rule::Password))
            .map(|(_, source, _)| {
                format!(
                    "(?:{})",
                    source.replace("(?P<v>", "(?:").replace("(?P<body>", "(?:")
                )
            })
            .collect();
        ascii_regex(&alternatives.join("|"))
    })
    .as_ref()
}

/// Whether `bytes` may hold a high-confidence credential (a cheap pass; [`hits`] decides).
pub(super) fn may_hold_high(bytes: &[u8]) -> bool {
    any_high().is_some_and(|regex| regex.is_match(bytes))
}

/// Every shape found in `bytes`, in row order.
pub(super) fn hits(bytes: &[u8], out: &mut Vec<Hit>) {
    for shape in shapes() {
        for captures in shape.regex.captures_iter(bytes) {
            let Some(whole) = captures.get(0) else {
                continue;
            };
            let value = captures.name("v").unwrap_or(whole);
            let body = captures.name("body").unwrap_or(value);
            if let Some(confidence) = shape.judge(value.as_bytes(), body.as_bytes()) {
                out.push(Hit {
                    start: value.start(),
                    end: value.end(),
                    kind: shape.kind,
                    confidence,
                });
            }
        }
    }
}

/// A token body that looks generated: [`looks_random`], or (bodies of letters only, as Hugging
/// Face's) high entropy with both cases over twenty characters or more.
fn random_body(body: &str) -> bool {
    looks_random(body)
        || (body.len() >= 20
            && body.chars().any(|c| c.is_ascii_uppercase())
            && body.chars().any(|c| c.is_ascii_lowercase())
            && super::entropy(body) >= 3.5)
}

impl Shape {
    /// What a match with this `value` and `body` is; `None` when it is no finding at all.
    fn judge(&self, value: &[u8], body: &[u8]) -> Option<Confidence> {
        let random = || random_body(&String::from_utf8_lossy(body));
        let example = || value.windows(7).any(|w| w == b"EXAMPLE");
        let high = match self.rule {
            Rule::Always => true,
            Rule::NotExample => !value.ends_with(b"EXAMPLE"),
            Rule::RandomBody => random(),
            Rule::RandomNotExample => random() && !example(),
            Rule::Password => {
                return looks_like_password(&String::from_utf8_lossy(value))
                    .then_some(Confidence::Likely)
            }
            Rule::Likely => false,
        };
        Some(if high {
            Confidence::High
        } else {
            Confidence::Likely
        })
    }
}
