//! `.aindex` directory indexes: a billboard saying what the directory is for, a Child Map table of its
//! files and subdirectories, and Local Conventions that apply to everything below it.
//!
//! ```text
//! # src/auth/
//!
//! Login, sessions and token refresh.
//!
//! ## Child Map
//!
//! | Name | Type | Description |
//! | --- | --- | --- |
//! | `login.py` | file | Handles login. |
//! | `oauth/` | dir | OAuth providers. |
//!
//! ## Local Conventions
//!
//! - Use UTC everywhere.
//! ```
//!
//! Regeneration replaces the Child Map only. The billboard is written once, Local Conventions and any
//! other section are preserved byte for byte (seed §3, Q-001).

use super::markdown::{list_items, Document, Section};
use super::{normalize_newlines, FormatError};

pub const CHILD_MAP: &str = "Child Map";
pub const LOCAL_CONVENTIONS: &str = "Local Conventions";

/// One row of the Child Map.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ChildEntry {
    /// File or directory name (no trailing slash).
    pub name: String,
    pub kind: ChildKind,
    pub description: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChildKind {
    File,
    Dir,
}

/// A parsed `.aindex`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AIndex {
    /// Project-relative directory (`""` for the root).
    pub directory: String,
    pub doc: Document,
}

impl AIndex {
    /// A fresh index with a billboard, the given children and an empty Local Conventions section.
    pub fn new(directory: &str, billboard: &str, children: &[ChildEntry]) -> AIndex {
        let mut index = AIndex {
            directory: directory.to_string(),
            doc: Document {
                title: Some(title_for(directory)),
                preamble: billboard.trim().to_string(),
                sections: vec![
                    Section::new(CHILD_MAP, String::new()),
                    Section::new(LOCAL_CONVENTIONS, String::new()),
                ],
            },
        };
        index.set_children(children);
        index
    }

    /// Parse an `.aindex` for `directory`. `path` names the file in errors.
    pub fn parse(path: &str, directory: &str, text: &str) -> Result<AIndex, FormatError> {
        let text = normalize_newlines(text);
        let doc = Document::parse(&text);
        if doc.title.is_none() && doc.sections.is_empty() && !text.trim().is_empty() {
            return Err(FormatError::new(
                path,
                Some(1),
                "not an .aindex: expected a `# <dir>/` title and a `## Child Map` section",
            ));
        }
        Ok(AIndex {
            directory: directory.to_string(),
            doc,
        })
    }

    /// Canonical text, ending with a newline.
    pub fn render(&self) -> String {
        self.doc.render()
    }

    /// The billboard paragraph.
    pub fn billboard(&self) -> &str {
        &self.doc.preamble
    }

    /// Replace the billboard, leaving every section untouched.
    pub fn set_billboard(&mut self, billboard: &str) {
        self.doc.preamble = billboard.trim().to_string();
    }

    /// The Child Map rows, parsed from the table.
    pub fn children(&self) -> Vec<ChildEntry> {
        self.doc
            .section(CHILD_MAP)
            .map(|section| parse_table(&section.body))
            .unwrap_or_default()
    }

    /// Replace the Child Map with `children`, files first then directories, each alphabetical.
    pub fn set_children(&mut self, children: &[ChildEntry]) {
        let mut sorted = children.to_vec();
        sorted.sort_by(|a, b| a.kind.cmp(&b.kind).then_with(|| a.name.cmp(&b.name)));
        self.doc.set_section(CHILD_MAP, render_table(&sorted));
    }

    /// The raw Local Conventions body (empty when there is none).
    pub fn local_conventions_raw(&self) -> &str {
        self.doc
            .section(LOCAL_CONVENTIONS)
            .map_or("", |section| section.body.as_str())
    }

    /// The Local Conventions as list items.
    pub fn local_conventions(&self) -> Vec<String> {
        list_items(self.local_conventions_raw())
    }
}

/// `src/auth` → `src/auth/`; the root → `./`.
fn title_for(directory: &str) -> String {
    if directory.is_empty() {
        "./".to_string()
    } else {
        format!("{directory}/")
    }
}

fn render_table(children: &[ChildEntry]) -> String {
    let mut out = String::from("| Name | Type | Description |\n| --- | --- | --- |");
    for child in children {
        let name = match child.kind {
            ChildKind::File => format!("`{}`", child.name),
            ChildKind::Dir => format!("`{}/`", child.name),
        };
        let kind = match child.kind {
            ChildKind::File => "file",
            ChildKind::Dir => "dir",
        };
        out.push_str(&format!(
            "\n| {} | {} | {} |",
            escape_cell(&name),
            kind,
            escape_cell(&child.description)
        ));
    }
    out
}

fn escape_cell(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace(['\n', '\r'], " ")
}

fn parse_table(body: &str) -> Vec<ChildEntry> {
    let mut rows = Vec::new();
    for line in body.lines() {
        let line = line.trim();
        if !line.starts_with('|') {
            continue;
        }
        let cells = split_cells(line);
        if cells.len() < 3 || cells[0] == "Name" || cells[0].starts_with("---") {
            continue;
        }
        // Exactly the backticks render put around the name: a name may hold backticks itself.
        let cell = cells[0].as_str();
        let raw_name = match cell
            .strip_prefix('`')
            .and_then(|inner| inner.strip_suffix('`'))
        {
            Some(inner) => inner,
            None => cell,
        };
        let kind = match cells[1].as_str() {
            "dir" | "directory" => ChildKind::Dir,
            _ if raw_name.ends_with('/') => ChildKind::Dir,
            _ => ChildKind::File,
        };
        rows.push(ChildEntry {
            name: raw_name.trim_end_matches('/').to_string(),
            kind,
            description: cells[2].clone(),
        });
    }
    rows
}

/// Split a table row on unescaped `|`, unescaping `\|` and `\\`.
fn split_cells(line: &str) -> Vec<String> {
    let inner = line.strip_prefix('|').unwrap_or(line);
    let mut cells = Vec::new();
    let mut current = String::new();
    let mut chars = inner.chars();
    while let Some(ch) = chars.next() {
        match ch {
            '\\' => match chars.next() {
                Some(next) => current.push(next),
                None => current.push('\\'),
            },
            '|' => {
                cells.push(current.trim().to_string());
                current.clear();
            }
            other => current.push(other),
        }
    }
    if !current.trim().is_empty() {
        cells.push(current.trim().to_string());
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;

    fn children() -> Vec<ChildEntry> {
        vec![
            ChildEntry {
                name: "z.rs".into(),
                kind: ChildKind::File,
                description: "Zed | with pipe".into(),
            },
            ChildEntry {
                name: "auth".into(),
                kind: ChildKind::Dir,
                description: "Auth.".into(),
            },
            ChildEntry {
                name: "a.rs".into(),
                kind: ChildKind::File,
                description: "A.".into(),
            },
        ]
    }

    #[test]
    fn files_come_first_then_dirs_each_alphabetical() {
        let index = AIndex::new("src", "Sources.", &children());
        let names: Vec<_> = index.children().into_iter().map(|c| c.name).collect();
        assert_eq!(names, vec!["a.rs", "z.rs", "auth"]);
    }

    #[test]
    fn render_parse_round_trip_keeps_escapes_and_conventions() {
        let mut index = AIndex::new("src", "Sources.", &children());
        index
            .doc
            .set_section(LOCAL_CONVENTIONS, "- Use UTC.\n- Money is `Decimal`.");
        let text = index.render();
        let parsed = AIndex::parse("x", "src", &text).expect("parses");
        assert_eq!(parsed.children(), index.children());
        assert_eq!(parsed.render(), text);
        assert_eq!(
            parsed.local_conventions(),
            vec!["Use UTC.", "Money is `Decimal`."]
        );
        assert!(text.contains("Zed \\| with pipe"));
    }

    #[test]
    fn set_children_leaves_other_sections_alone() {
        let mut index = AIndex::new("", "Root.", &children());
        index
            .doc
            .set_section(LOCAL_CONVENTIONS, "  - odd   spacing kept");
        index
            .doc
            .sections
            .push(Section::new("Notes", "human notes"));
        let before = index.render();
        index.set_children(&children()[..1]);
        let after = index.render();
        assert!(after.contains("  - odd   spacing kept"));
        assert!(after.contains("## Notes\n\nhuman notes"));
        assert_ne!(before, after);
    }
}
