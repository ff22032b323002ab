//! Reading a model's answer: the `Description:` line and the `## ` sections the prompt asked for,
//! parsed with the same Markdown reader as design files (a `## ` inside a code fence stays content).
//!
//! The model writes prose only. Our renderer writes the design file — frontmatter, title, the
//! structural facts and the footer — so a model can neither forge a footer nor drop a section that
//! belongs to someone else. Headings it was not asked for are ignored.

use crate::archivist::structural::slug;
use crate::library::design_file::sections;
use crate::library::markdown::Document;

/// Most tags taken from one answer.
const MAX_TAGS: usize = 8;

/// What the model said, section by section. `None` means it wrote nothing (or `(none)`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    pub description: String,
    pub contract: Option<String>,
    pub complexity: Option<String>,
    pub tags: Vec<String>,
}

/// Parse an answer. The error says what is wrong and quotes the start of the answer.
pub fn parse(answer: &str) -> Result<Answer, String> {
    let text = unwrap_fence(answer.trim()).replace("\r\n", "\n");
    let document = Document::parse(&text);
    let description = description(&document.preamble)
        .or_else(|| document.title.as_deref().and_then(description))
        .ok_or_else(|| {
            let start: String = answer.trim().chars().take(80).collect();
            format!("the model's answer has no `Description:` line (it starts: {start:?})")
        })?;
    let mut parsed = Answer {
        description,
        ..Answer::default()
    };
    for section in &document.sections {
        let body = section.body.trim();
        let body = (!is_none(body)).then(|| body.to_string());
        if section
            .heading
            .eq_ignore_ascii_case(sections::INTERFACE_CONTRACT)
        {
            parsed.contract = body;
        } else if section
            .heading
            .eq_ignore_ascii_case(sections::COMPLEXITY_WARNING)
        {
            parsed.complexity = body;
        } else if section.heading.eq_ignore_ascii_case(sections::TAGS) {
            parsed.tags = body.as_deref().map(tags).unwrap_or_default();
        }
    }
    Ok(parsed)
}

/// A whole answer wrapped in one code fence (small models like to do that): its inside.
fn unwrap_fence(text: &str) -> &str {
    let Some(first_line_end) = text.find('\n') else {
        return text;
    };
    let opening = &text[..first_line_end];
    if !opening.starts_with("```") || !text.ends_with("```") {
        return text;
    }
    let inner = &text[first_line_end + 1..text.len() - 3];
    // Only when the closing fence is the one that matches the opening (no other fence inside).
    if inner.contains("\n```") {
        return text;
    }
    inner.trim()
}

/// The text after `Description:` (any case, optionally bold), up to the next blank line.
fn description(preamble: &str) -> Option<String> {
    let mut lines = preamble.lines();
    let first = lines.find_map(|line| {
        let line = line.trim().trim_start_matches(['*', '_']);
        let (key, rest) = line.split_once(':')?;
        key.trim_end_matches(['*', '_'])
            .eq_ignore_ascii_case("description")
            .then_some(rest)
    })?;
    let mut text = first.trim().trim_start_matches(['*', '_']).to_string();
    for line in lines.take_while(|line| !line.trim().is_empty()) {
        text.push(' ');
        text.push_str(line.trim());
    }
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let text = text
        .trim_matches(|c| c == '"' || c == '\'')
        .trim()
        .to_string();
    (!text.is_empty()).then_some(text)
}

fn is_none(body: &str) -> bool {
    let plain = body
        .trim_matches(|c: char| c == '(' || c == ')' || c == '.' || c == '-' || c.is_whitespace())
        .to_ascii_lowercase();
    plain.is_empty() || plain == "none" || plain == "n/a"
}

/// Tags from a `- tag` list (or a comma-separated line), slugged, deduplicated, at most [`MAX_TAGS`].
fn tags(body: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for item in body.lines().flat_map(|line| line.split(',')) {
        let item = item.trim().trim_start_matches(['-', '*', '#']).trim();
        let tag = slug(item.trim_matches('`'));
        if !tag.is_empty() && tag.len() <= 40 && !out.contains(&tag) {
            out.push(tag);
        }
    }
    out.truncate(MAX_TAGS);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_well_formed_answer_parses_into_sections() {
        let answer = "Description: Issues session tokens so that logins survive restarts.\n\n## Interface Contract\nReturns `Err` when the clock is skewed.\n\n## Complexity Warning\n- Tokens are cached per thread.\n\n## Tags\n- auth\n- Session Tokens\n\n## Footer\nignored\n";
        let parsed = parse(answer).expect("parses");
        assert_eq!(
            parsed,
            Answer {
                description: "Issues session tokens so that logins survive restarts.".into(),
                contract: Some("Returns `Err` when the clock is skewed.".into()),
                complexity: Some("- Tokens are cached per thread.".into()),
                tags: vec!["auth".into(), "session-tokens".into()],
            }
        );
    }

    #[test]
    fn fences_bold_keys_and_none_are_understood() {
        let answer = "```markdown\n**Description:** Parses configs.\n\n## Complexity Warning\n(none)\n\n## Tags\nconfig, yaml\n```";
        let parsed = parse(answer).expect("parses");
        assert_eq!(parsed.description, "Parses configs.");
        assert_eq!(parsed.complexity, None);
        assert_eq!(parsed.tags, vec!["config", "yaml"]);
    }

    #[test]
    fn a_heading_inside_a_code_block_is_content() {
        let answer = "Description: x.\n\n## Interface Contract\n```text\n## not a heading\n```\n";
        let parsed = parse(answer).expect("parses");
        assert_eq!(
            parsed.contract.as_deref(),
            Some("```text\n## not a heading\n```")
        );
    }

    #[test]
    fn an_answer_without_a_description_is_an_error() {
        let err = parse("I cannot help with that.").expect_err("no description");
        assert!(err.contains("no `Description:` line"), "{err}");
        assert!(err.contains("I cannot help"), "{err}");
    }
}
