//! Design files: `.lexibrary/<source>.md`, one per source file.
//!
//! ```text
//! ---
//! description: One sentence on what the file is for.
//! updated_by: archivist
//! ---
//!
//! # src/a.rs
//!
//! ## Interface Contract
//! …
//! <!-- lexibrarian:meta … -->
//! ```
//!
//! The frontmatter and body belong to agents and humans as much as to the Archivist; the footer belongs
//! to the machine. Unknown frontmatter keys and unknown sections are kept on rewrite.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::footer::{self, Footer};
use super::markdown::{Document, Section};
use super::{frontmatter, normalize_newlines, FormatError};

/// Who last wrote the design file's prose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UpdatedBy {
    #[default]
    Archivist,
    Agent,
}

/// The agent-editable frontmatter.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DesignFrontmatter {
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub updated_by: UpdatedBy,
    /// Keys we do not know, preserved in sorted order.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_yaml::Value>,
}

/// A parsed design file.
#[derive(Clone, Debug, PartialEq)]
pub struct DesignFile {
    pub frontmatter: DesignFrontmatter,
    pub body: Document,
    pub footer: Option<Footer>,
}

/// Standard section headings, in the order the Archivist writes them.
pub mod sections {
    pub const INTERFACE_CONTRACT: &str = "Interface Contract";
    pub const DEPENDENCIES: &str = "Dependencies";
    /// The packages from outside the project a code file imports (npm, PyPI, crates.io), by name.
    pub const EXTERNAL_DEPENDENCIES: &str = "External Dependencies";
    pub const DEPENDENTS: &str = "Dependents";
    pub const TESTS: &str = "Tests";
    pub const COMPLEXITY_WARNING: &str = "Complexity Warning";
    pub const WIKILINKS: &str = "Wikilinks";
    pub const TAGS: &str = "Tags";
    pub const STACK: &str = "Stack";
}

impl DesignFile {
    /// A new design file for `source` with the given description and sections (no footer yet).
    pub fn new(source: &str, description: impl Into<String>, sections: Vec<Section>) -> DesignFile {
        DesignFile {
            frontmatter: DesignFrontmatter {
                description: description.into(),
                updated_by: UpdatedBy::Archivist,
                extra: BTreeMap::new(),
            },
            body: Document {
                title: Some(source.to_string()),
                preamble: String::new(),
                sections,
            },
            footer: None,
        }
    }

    /// Parse a design file. `path` names the file in errors. CRLF input is accepted. Text written
    /// after the footer (an agent appending to the file) is part of the body, as if it were above
    /// the footer: readers see it, and a rewrite puts it there.
    pub fn parse(path: &str, text: &str) -> Result<DesignFile, FormatError> {
        let text = normalize_newlines(text);
        let (content, footer_block) = footer::split(&text);
        let footer = match footer_block {
            Some(block) => Some(Footer::parse(path, block, footer::footer_line(content))?),
            None => None,
        };
        let split = frontmatter::split(path, content)?;
        let frontmatter = match split.yaml {
            Some(yaml) => frontmatter::parse(path, yaml)?,
            None => DesignFrontmatter::default(),
        };
        let trailing = footer_block.map_or("", footer::trailing_text);
        let body = match trailing.trim().is_empty() {
            true => Document::parse(split.body),
            false => Document::parse(&format!("{}\n\n{}", split.body.trim_end(), trailing.trim())),
        };
        Ok(DesignFile {
            frontmatter,
            body,
            footer,
        })
    }

    /// The text above the footer, in canonical form (what the design hash covers).
    pub fn render_content(&self) -> String {
        let mut out = frontmatter::render(&self.frontmatter);
        out.push('\n');
        out.push_str(&self.body.render());
        out.push('\n');
        out
    }

    /// Render the whole file with `footer`, computing its design hash. Returns the text and the
    /// footer as written.
    pub fn render_with_footer(&self, footer: Footer) -> (String, Footer) {
        footer::seal(&self.render_content(), footer)
    }

    /// Render the whole file with its own footer (recomputing the design hash), or without a footer.
    pub fn render(&self) -> String {
        match &self.footer {
            Some(footer) => self.render_with_footer(footer.clone()).0,
            None => {
                let mut content = self.render_content();
                content.pop();
                content
            }
        }
    }

    /// The `## ` section with this heading, if any.
    pub fn section(&self, heading: &str) -> Option<&Section> {
        self.body.section(heading)
    }
}

/// Whether the design file text on disk is exactly as the tool left it: the text above the footer
/// still hashes to the footer's `design_hash`, and nothing was added after the footer. Anything else
/// is an agent's or a human's edit, which the tool never overwrites.
pub fn is_unedited(text: &str, footer: &Footer) -> bool {
    let (_, block) = footer::split(text);
    footer::design_hash_of(text) == footer.design_hash
        && block.is_none_or(|block| footer::trailing_text(block).trim().is_empty())
}

/// [`is_unedited`] for a whole file's text: false when it has no parsable footer.
pub fn text_is_unedited(path: &str, text: &str) -> bool {
    DesignFile::parse(path, text)
        .ok()
        .and_then(|design| design.footer)
        .is_some_and(|footer| is_unedited(text, &footer))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> DesignFile {
        DesignFile::new(
            "src/a.rs",
            "Parses: things, quickly",
            vec![
                Section::new(
                    sections::INTERFACE_CONTRACT,
                    "```rust\npub fn a()\n## not a heading\n```",
                ),
                Section::new(sections::DEPENDENCIES, "- src/b.rs"),
                Section::new(sections::DEPENDENTS, ""),
            ],
        )
    }

    fn footer() -> Footer {
        Footer {
            source: "src/a.rs".into(),
            source_hash: "aa".into(),
            interface_hash: Some("bb".into()),
            design_hash: String::new(),
            generated: None,
            generator: "lexibrarian 0.1.0".into(),
            extra: BTreeMap::new(),
        }
    }

    #[test]
    fn writer_output_verifies_and_round_trips() {
        let (text, written) = sample().render_with_footer(footer());
        assert!(is_unedited(&text, &written));
        let parsed = DesignFile::parse("d.md", &text).expect("parses");
        assert_eq!(parsed.footer.as_ref(), Some(&written));
        assert_eq!(parsed.render(), text);
        assert_eq!(parsed.body, sample().body);
    }

    #[test]
    fn text_after_the_footer_is_an_edit() {
        let (text, written) = sample().render_with_footer(footer());
        assert!(!is_unedited(
            &format!("{text}\n## Notes\n\nmine\n"),
            &written
        ));
        assert!(is_unedited(&format!("{text}\n\n"), &written));
    }

    #[test]
    fn an_edit_is_detected() {
        let (text, written) = sample().render_with_footer(footer());
        let edited = text.replace("Parses", "Reads");
        assert!(!is_unedited(&edited, &written));
    }

    #[test]
    fn crlf_input_parses_like_lf() {
        let (text, _) = sample().render_with_footer(footer());
        let crlf = text.replace('\n', "\r\n");
        let parsed = DesignFile::parse("d.md", &crlf).expect("parses");
        assert_eq!(parsed.render(), text);
    }

    #[test]
    fn missing_footer_is_not_an_error() {
        let parsed = DesignFile::parse("d.md", "---\ndescription: x\n---\n\n# a\n").expect("ok");
        assert!(parsed.footer.is_none());
        assert_eq!(parsed.frontmatter.description, "x");
    }

    #[test]
    fn unknown_frontmatter_keys_survive() {
        let text = "---\ndescription: x\nupdated_by: agent\nowner: team-a\n---\n\n# a\n";
        let parsed = DesignFile::parse("d.md", text).expect("ok");
        assert_eq!(parsed.frontmatter.updated_by, UpdatedBy::Agent);
        assert_eq!(parsed.render(), text);
    }
}
