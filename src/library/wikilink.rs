//! Wikilinks: `[[Concept]]` and `[[ST-001]]` references inside library markdown (seed §4, D-033, D-043).
//!
//! This module only finds links in text and tells the two kinds apart; resolving a name to a concept
//! file or a Stack post is the knowledge layer's job (`knowledge::wikilinks`).

/// One `[[…]]` found in a text.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", content = "target", rename_all = "snake_case")]
pub enum Wikilink {
    /// `[[ST-001]]`: a Stack post id, normalised to upper case.
    Stack(String),
    /// Anything else: a concept name, title or alias, as written (trimmed).
    Concept(String),
}

impl Wikilink {
    /// Classify the text between the brackets. `[[Name|label]]` links to `Name`.
    pub fn parse(inner: &str) -> Option<Wikilink> {
        let target = inner.split('|').next().unwrap_or(inner).trim();
        if target.is_empty() {
            return None;
        }
        Some(match stack_id(target) {
            Some(id) => Wikilink::Stack(id),
            None => Wikilink::Concept(target.to_string()),
        })
    }

    /// The link target as written (`ST-001` or the concept name).
    pub fn target(&self) -> &str {
        match self {
            Wikilink::Stack(id) | Wikilink::Concept(id) => id,
        }
    }
}

/// `ST-` followed by digits (any case), normalised to `ST-NNN` with at least three digits.
pub fn stack_id(text: &str) -> Option<String> {
    let digits = text
        .strip_prefix("ST-")
        .or_else(|| text.strip_prefix("st-"))
        .or_else(|| text.strip_prefix("St-"))
        .or_else(|| text.strip_prefix("sT-"))?;
    if digits.is_empty() || digits.len() > 9 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let number: u32 = digits.parse().ok()?;
    Some(format_stack_id(number))
}

/// `ST-007` for 7.
pub fn format_stack_id(number: u32) -> String {
    format!("ST-{number:03}")
}

/// Whether the `[[…]]` that starts at `start` and ends at `end` (exclusive) in `line` is part of a
/// file name rather than a link: glued to a path or a name before it (`pages/[[...slug]].js`,
/// `a[[b]]`) or after it (`[[id]].tsx`, `[[x]]/y`). Next.js and SvelteKit name files this way.
fn in_file_name(line: &str, start: usize, end: usize) -> bool {
    let glued = |c: char| c.is_alphanumeric() || matches!(c, '/' | '\\' | '_' | '-' | '.');
    let before = line[..start].chars().next_back().is_some_and(glued);
    let mut after = line[end..].chars();
    let after = match after.next() {
        Some('.') => after.next().is_some_and(char::is_alphanumeric),
        Some(c) => c.is_alphanumeric() || matches!(c, '/' | '\\' | '_'),
        None => false,
    };
    before || after
}

/// Every wikilink in `text`, in order, duplicates included. Links inside inline code or fenced code
/// blocks are ignored, and so is a `[[…]]` that is part of a file name ([`in_file_name`]).
pub fn extract(text: &str) -> Vec<Wikilink> {
    let mut links = Vec::new();
    let mut in_fence = false;
    for line in text.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let mut rest = line;
        let mut in_code = false;
        while !rest.is_empty() {
            if rest.starts_with('`') {
                in_code = !in_code;
                rest = &rest[1..];
                continue;
            }
            if !in_code && rest.starts_with("[[") {
                if let Some(end) = rest[2..].find("]]") {
                    let start = line.len() - rest.len();
                    let named_file = in_file_name(line, start, start + end + 4);
                    if let Some(link) = Wikilink::parse(&rest[2..2 + end]).filter(|_| !named_file) {
                        links.push(link);
                    }
                    rest = &rest[2 + end + 2..];
                    continue;
                }
            }
            let step = rest.chars().next().map_or(1, char::len_utf8);
            rest = &rest[step..];
        }
    }
    links
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_are_found_and_classified() {
        let text = "See [[Money Handling]] and [[st-7]], not `[[Code]]`.\n```\n[[Fenced]]\n```\n[[A|label]] [[ ]]";
        assert_eq!(
            extract(text),
            vec![
                Wikilink::Concept("Money Handling".into()),
                Wikilink::Stack("ST-007".into()),
                Wikilink::Concept("A".into()),
            ]
        );
    }

    #[test]
    fn brackets_in_file_names_are_not_links() {
        let text =
            "# pages/[[...slug]].js\n\n- [[...slug]].js\n- app/[[id]]/page.tsx\nSee [[Auth]].";
        assert_eq!(extract(text), vec![Wikilink::Concept("Auth".into())]);
    }

    #[test]
    fn stack_ids_are_normalised() {
        assert_eq!(stack_id("ST-001").as_deref(), Some("ST-001"));
        assert_eq!(stack_id("ST-1234").as_deref(), Some("ST-1234"));
        assert_eq!(stack_id("ST-"), None);
        assert_eq!(stack_id("ST-1a"), None);
        assert_eq!(stack_id("STX-1"), None);
    }
}
