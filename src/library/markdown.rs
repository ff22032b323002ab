//! Markdown split into `## ` sections, the unit the library reads and rewrites.
//!
//! Headings are found with pulldown-cmark, so a `## ` line inside a code fence or an HTML comment is
//! content, not a heading (the Python edition's defect 4). Section bodies are kept verbatim apart from
//! surrounding blank lines, which is what lets unknown sections survive a rewrite untouched.
//!
//! Rendering keeps the structure it renders: every block (the preamble, each section body) is
//! *sealed* — a code fence or an HTML comment an author left open is closed — so it cannot swallow
//! the headings after it, and a heading whose text ends in `#` gets a closing sequence so the `#`
//! is not read as one. What render wrote, parse reads back as the same document.

use std::borrow::Cow;

use pulldown_cmark::{Event, HeadingLevel, Parser, Tag};

/// One `## Heading` and the text under it up to the next `## `.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Section {
    pub heading: String,
    /// The body without leading or trailing blank lines and without a final newline.
    pub body: String,
}

impl Section {
    pub fn new(heading: impl Into<String>, body: impl Into<String>) -> Section {
        Section {
            heading: heading.into(),
            body: body.into(),
        }
    }
}

/// A markdown body: an optional `# title`, free text before the first section, and the sections.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Document {
    pub title: Option<String>,
    pub preamble: String,
    pub sections: Vec<Section>,
}

impl Document {
    /// The first section with this heading (case-insensitive).
    pub fn section(&self, heading: &str) -> Option<&Section> {
        self.sections
            .iter()
            .find(|section| section.heading.eq_ignore_ascii_case(heading))
    }

    /// Mutable access to the first section with this heading.
    pub fn section_mut(&mut self, heading: &str) -> Option<&mut Section> {
        self.sections
            .iter_mut()
            .find(|section| section.heading.eq_ignore_ascii_case(heading))
    }

    /// Replace the body of `heading`, or append the section at the end if it does not exist.
    pub fn set_section(&mut self, heading: &str, body: impl Into<String>) {
        let body = body.into();
        match self.section_mut(heading) {
            Some(section) => section.body = body,
            None => self.sections.push(Section::new(heading, body)),
        }
    }

    /// Parse a markdown body (LF line endings, no frontmatter, no footer).
    pub fn parse(text: &str) -> Document {
        let mut headings = Vec::new(); // (line start, line end, level, text)
        let parser = Parser::new(text).into_offset_iter();
        for (event, range) in parser {
            let Event::Start(Tag::Heading { level, .. }) = event else {
                continue;
            };
            if level != HeadingLevel::H1 && level != HeadingLevel::H2 {
                continue;
            }
            // A lone `\r` ends a line for the markdown parser: it does here too.
            let line_start = text[..range.start]
                .rfind(['\n', '\r'])
                .map_or(0, |cut| cut + 1);
            // Only ATX headings written at the start of a line count; setext underlines do not.
            if !text[line_start..].starts_with('#') {
                continue;
            }
            let line_end = text[line_start..]
                .find(['\n', '\r'])
                .map_or(text.len(), |cut| line_start + cut);
            let heading = atx_text(&text[line_start..line_end]);
            headings.push((line_start, line_end, level, heading));
        }

        let mut doc = Document::default();
        let mut cursor = 0;
        let mut index = 0;
        // A leading `# title` is the title when only blank lines precede it.
        if let Some((start, end, HeadingLevel::H1, title)) = headings.first() {
            if text[..*start].trim().is_empty() {
                doc.title = Some(title.clone());
                cursor = (*end + 1).min(text.len());
                index = 1;
            }
        }
        let sections: Vec<_> = headings[index..]
            .iter()
            .filter(|(_, _, level, _)| *level == HeadingLevel::H2)
            .collect();
        let first_start = sections.first().map_or(text.len(), |(start, ..)| *start);
        doc.preamble = trim_blank_lines(&text[cursor..first_start.max(cursor)]);
        for (position, (_, end, _, heading)) in sections.iter().enumerate() {
            let body_start = (*end + 1).min(text.len());
            let body_end = sections
                .get(position + 1)
                .map_or(text.len(), |(next_start, ..)| *next_start);
            doc.sections.push(Section::new(
                heading.clone(),
                trim_blank_lines(&text[body_start..body_end.max(body_start)]),
            ));
        }
        doc
    }

    /// Render in canonical form: blocks separated by one blank line, ending with one newline (an empty
    /// document renders as the empty string).
    pub fn render(&self) -> String {
        let mut out = String::new();
        if let Some(title) = &self.title {
            out.push_str(&heading_line("#", title));
            out.push_str("\n\n");
        }
        if !self.preamble.is_empty() {
            out.push_str(&seal_block(&self.preamble));
            out.push_str("\n\n");
        }
        for section in &self.sections {
            out.push_str(&heading_line("##", &section.heading));
            out.push_str("\n\n");
            if !section.body.is_empty() {
                out.push_str(&seal_block(&section.body));
                out.push_str("\n\n");
            }
        }
        while out.ends_with("\n\n") {
            out.pop();
        }
        out
    }
}

/// `## text`, with a closing `##` when the text ends in `#` (else that `#` would be read as a
/// closing sequence and dropped: `## C #` is the heading `C`).
fn heading_line(marks: &str, text: &str) -> String {
    if text.ends_with('#') {
        format!("{marks} {text} {marks}")
    } else {
        format!("{marks} {text}")
    }
}

/// `block` made self-contained: a code fence it leaves open is closed, and so is an HTML comment
/// (or another raw HTML block) that would otherwise run over every heading after it. The markdown
/// parser decides what swallows: a block it reads as closed is returned as it is.
pub fn seal_block(block: &str) -> Cow<'_, str> {
    if !swallows_headings(block) {
        return Cow::Borrowed(block);
    }
    let fenced = close_open_fence(block);
    if !swallows_headings(&fenced) {
        return Cow::Owned(fenced.into_owned());
    }
    for closer in [
        "-->",
        "?>",
        ">",
        "]]>",
        "</pre>",
        "</script>",
        "</style>",
        "</textarea>",
    ] {
        let candidate = format!("{fenced}\n{closer}");
        if !swallows_headings(&candidate) {
            return Cow::Owned(candidate);
        }
    }
    Cow::Borrowed(block)
}

/// Whether a heading written after `block` would not be one (it is inside something `block`
/// opened). Only blocks with a fence or markup character can; the others are not parsed.
fn swallows_headings(block: &str) -> bool {
    const PROBE: &str = "lexibrarian-probe";
    if !may_open_a_block(block) {
        return false;
    }
    let probed = Document::parse(&format!("{block}\n\n## {PROBE}\n"));
    probed.sections.last().map(|s| s.heading.as_str()) != Some(PROBE)
}

/// Whether a line of `block` could start a code fence or an HTML block — what can run past the
/// blank line before a heading. A backtick or `<` inside a line is inline (a code span, inline
/// HTML) and ends with its paragraph. Generous: markers of lists and quotes are skipped whatever
/// they are, so any line a container could open a block in counts.
fn may_open_a_block(block: &str) -> bool {
    // Lines end at `\n`, `\r\n` or a lone `\r`, as the parser reads them.
    block.split(['\n', '\r']).any(|line| {
        let start = line.trim_start_matches(|c: char| {
            c.is_whitespace()
                || c.is_ascii_digit()
                || matches!(c, '>' | '-' | '*' | '+' | '.' | ')')
        });
        start.starts_with("```") || start.starts_with("~~~") || start.starts_with('<')
    })
}

/// `text` with a code fence it leaves open closed by a matching fence line.
pub fn close_open_fence(text: &str) -> Cow<'_, str> {
    let mut fence = Fence::default();
    for line in text.lines() {
        fence.inside(line.trim_end());
    }
    match fence.open {
        Some((marker, len)) => {
            let closer: String = std::iter::repeat_n(marker, len).collect();
            Cow::Owned(format!("{}\n{closer}", text.trim_end_matches('\n')))
        }
        None => Cow::Borrowed(text),
    }
}

/// Code-fence tracking, line by line: a fence closes only with the same character, at least as
/// long (CommonMark).
#[derive(Default)]
pub struct Fence {
    open: Option<(char, usize)>,
}

impl Fence {
    /// Feed one line; whether it is inside a fence (fence lines themselves count as inside). A
    /// fence line is indented by at most three spaces.
    pub fn inside(&mut self, line: &str) -> bool {
        let trimmed = line.trim_start_matches(' ');
        let indented = line.len() - trimmed.len() > 3;
        let marker = trimmed
            .chars()
            .next()
            .filter(|c| (*c == '`' || *c == '~') && !indented);
        let run = marker.map_or(0, |c| trimmed.chars().take_while(|x| *x == c).count());
        match (self.open, marker) {
            // A backtick fence's info string may not hold a backtick (then it is inline code).
            (None, Some(c)) if run >= 3 && !(c == '`' && trimmed[run..].contains('`')) => {
                self.open = Some((c, run));
                true
            }
            (Some((c, len)), Some(m))
                if m == c && run >= len && trimmed[run * c.len_utf8()..].trim().is_empty() =>
            {
                self.open = None;
                true
            }
            (Some(_), _) => true,
            (None, _) => false,
        }
    }
}

/// The text of an ATX heading line: `## Foo ##` → `Foo`.
fn atx_text(line: &str) -> String {
    let without_marks = line.trim_start_matches('#');
    let trimmed = without_marks.trim();
    let closing = trimmed.trim_end_matches('#');
    if closing.len() < trimmed.len() && (closing.is_empty() || closing.ends_with(' ')) {
        closing.trim().to_string()
    } else {
        trimmed.to_string()
    }
}

/// Drop leading and trailing whitespace-only lines (and the final newline); every other byte is kept,
/// trailing spaces included (they can be a markdown line break).
pub fn trim_blank_lines(text: &str) -> String {
    let lines: Vec<&str> = text.split('\n').collect();
    let first = lines.iter().position(|line| !line.trim().is_empty());
    let last = lines.iter().rposition(|line| !line.trim().is_empty());
    match (first, last) {
        (Some(first), Some(last)) => lines[first..=last].join("\n"),
        _ => String::new(),
    }
}

/// The list items of a section body: lines starting `- ` or `* `, continuation lines folded in.
pub fn list_items(body: &str) -> Vec<String> {
    let mut items: Vec<String> = Vec::new();
    for line in body.lines() {
        let trimmed = line.trim_start();
        if let Some(item) = trimmed
            .strip_prefix("- ")
            .or_else(|| trimmed.strip_prefix("* "))
        {
            items.push(item.trim().to_string());
        } else if !trimmed.is_empty() && line.starts_with(' ') {
            if let Some(last) = items.last_mut() {
                last.push(' ');
                last.push_str(trimmed);
            }
        }
    }
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    proptest::proptest! {
        /// The cheap test never says "cannot swallow" of a block the markdown parser says swallows
        /// a heading written after it.
        #[test]
        fn only_blocks_that_may_open_one_swallow_headings(
            parts in proptest::collection::vec(proptest::sample::select(vec![
                "`", "```", "~~~", "<", "<!--", "-->", "<div>", "<?", "]]>", "\n", "\n\n", "\r", " ",
                "    ", "\t", "> ", "- ", "* ", "1. ", "2) ", "a", "code", "#", "|", "[x]: /u",
            ]), 0..24)
        ) {
            let block = parts.concat();
            let probed = Document::parse(&format!("{block}\n\n## probe\n"));
            let swallowed = probed.sections.last().map(|s| s.heading.as_str()) != Some("probe");
            proptest::prop_assert!(!swallowed || may_open_a_block(&block), "{block:?}");
        }
    }

    #[test]
    fn heading_inside_a_code_fence_is_content() {
        let text = "# t\n\n## A\n\n```md\n## not a heading\n```\n\n## B\n\nb\n";
        let doc = Document::parse(text);
        assert_eq!(doc.sections.len(), 2);
        assert!(doc.sections[0].body.contains("## not a heading"));
        assert_eq!(doc.render(), text);
    }

    #[test]
    fn canonical_text_round_trips() {
        let text = "# src/a.rs\n\nintro\n\n## One\n\nbody 1\n\n## Empty\n\n## Two\n\n- x\n- y\n";
        assert_eq!(Document::parse(text).render(), text);
    }

    #[test]
    fn setext_headings_are_not_sections() {
        let doc = Document::parse("## A\n\ntext\n---\n");
        assert_eq!(doc.sections.len(), 1);
    }

    #[test]
    fn list_items_fold_continuations() {
        assert_eq!(list_items("- a\n  more\n* b\nplain"), vec!["a more", "b"]);
    }
}
