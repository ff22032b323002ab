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
//! Regeneration replaces the Child Map, and a billboard the tool wrote itself; Local Conventions
//! and any other section are preserved byte for byte (seed §3, Q-001). A billboard the tool wrote
//! carries a last line `<!-- lexibrarian:meta billboard: <hash> -->` with a short hash of its text:
//! while the billboard still hashes to it, it is the tool's and follows the tree (a full run and a
//! changed-only run write the same one, DESIGN §10); once someone edits it (or `lexi describe` sets
//! it), the hash no longer holds and it is theirs, kept as written.

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

/// The opening of the line that marks a billboard the tool wrote.
const BILLBOARD_MARK: &str = "<!-- lexibrarian:meta billboard: ";

/// A parsed `.aindex`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AIndex {
    /// Project-relative directory (`""` for the root).
    pub directory: String,
    pub doc: Document,
    /// The hash of the billboard the tool last wrote here (the marker line), if any.
    pub billboard_mark: Option<String>,
}

impl AIndex {
    /// A fresh index with a billboard, the given children and an empty Local Conventions section.
    /// The billboard is someone's (`lexi describe`): see [`AIndex::generated`] for the tool's.
    pub fn new(directory: &str, billboard: &str, children: &[ChildEntry]) -> AIndex {
        let mut index = AIndex {
            directory: directory.to_string(),
            billboard_mark: None,
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

    /// A fresh index whose billboard the tool wrote (marked as such).
    pub fn generated(directory: &str, billboard: &str, children: &[ChildEntry]) -> AIndex {
        let mut index = AIndex::new(directory, billboard, children);
        index.set_generated_billboard(billboard);
        index
    }

    /// Parse an `.aindex` for `directory`. `path` names the file in errors.
    pub fn parse(path: &str, directory: &str, text: &str) -> Result<AIndex, FormatError> {
        let text = normalize_newlines(text);
        let (text, billboard_mark) = split_mark(&text);
        let doc = Document::parse(text);
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
            billboard_mark,
        })
    }

    /// Canonical text, ending with a newline.
    pub fn render(&self) -> String {
        let mut out = self.doc.render();
        if let Some(mark) = &self.billboard_mark {
            if !out.ends_with('\n') {
                out.push('\n');
            }
            out.push_str(&format!("\n{BILLBOARD_MARK}{mark} -->\n"));
        }
        out
    }

    /// Whether the billboard is the one the tool wrote (nobody changed it since), so the tool may
    /// write it anew. An index of an earlier version has no mark: its billboard is the tool's when
    /// it is one of the counts that version wrote ("3 files.").
    pub fn billboard_is_generated(&self) -> bool {
        match &self.billboard_mark {
            Some(mark) => *mark == billboard_hash(self.billboard()),
            None => is_count(self.billboard()),
        }
    }

    /// Write the tool's billboard, marked as such.
    pub fn set_generated_billboard(&mut self, billboard: &str) {
        self.set_billboard(billboard);
        self.billboard_mark = Some(billboard_hash(self.billboard()));
    }

    /// The billboard paragraph.
    pub fn billboard(&self) -> &str {
        &self.doc.preamble
    }

    /// Replace the billboard with someone's, leaving every section untouched (the tool's mark goes:
    /// the billboard is theirs now).
    pub fn set_billboard(&mut self, billboard: &str) {
        self.doc.preamble = billboard.trim().to_string();
        self.billboard_mark = None;
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

/// The mark of a billboard: the first 16 hex digits of the SHA-256 of its text.
fn billboard_hash(billboard: &str) -> String {
    crate::hash::sha256_hex(billboard.trim().as_bytes())[..16].to_string()
}

/// An `.aindex` text without the tool's billboard mark line (what a reader is shown).
pub fn without_mark(text: &str) -> &str {
    split_mark(text).0
}

/// `text` without its billboard mark line (the last non-empty line), and the mark's hash.
fn split_mark(text: &str) -> (&str, Option<String>) {
    let body = text.trim_end();
    let last_start = body.rfind('\n').map_or(0, |at| at + 1);
    let last = &body[last_start..];
    match last
        .strip_prefix(BILLBOARD_MARK)
        .and_then(|rest| rest.strip_suffix("-->"))
    {
        Some(hash) => (&text[..last_start], Some(hash.trim().to_string())),
        None => (text, None),
    }
}

/// Whether a billboard is a count of what the directory holds, as earlier versions wrote first
/// billboards (`3 files.`, `2 files and 1 subdirectory.`, `Empty directory.`).
fn is_count(billboard: &str) -> bool {
    let text = billboard.trim();
    if text == "Empty directory." {
        return true;
    }
    let Some(text) = text.strip_suffix('.') else {
        return false;
    };
    text.split(" and ").all(|part| {
        let mut words = part.split(' ');
        let counted = words.next().is_some_and(|n| n.parse::<usize>().is_ok());
        let noun = words.next();
        counted
            && words.next().is_none()
            && matches!(
                noun,
                Some("file" | "files" | "subdirectory" | "subdirectories")
            )
    })
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
