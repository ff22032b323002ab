//! What Lexibrarian added outside `.lexibrary/`: `.lexibrary/integrations.json`, tracked in git with
//! the library so that whoever runs `lexictl setup --uninstall-mcp` or `--uninstall` on any clone
//! removes exactly what was added — and nothing a person changed since.
//!
//! Each [`Entry`] names a file and what in it is ours, with the exact value written:
//! - `member`: the value at a key path of a JSON or TOML file (an MCP server entry), and how many
//!   of the objects on the way were there before (the others are removed with it when left empty);
//! - `item`: one element of the array at a key path (a Claude Code hook group);
//! - `block`: the marked Lexibrarian section of a rule file (`<!-- >>> lexibrarian rules … -->`),
//!   with the SHA-256 of the block as written;
//! - `file`: a whole file Lexibrarian wrote (the Claude Code skill, the Cursor rule), with its SHA-256;
//! - `lines`: lines appended to a file (`.gitignore`).
//!
//! An entry is removed only while it still is what was written (same value, same hash); otherwise it
//! is kept and the command says so. `created` lists the files that did not exist before Lexibrarian
//! wrote them, with the directories made for them: such a file is deleted once nothing but our
//! entries was in it, and those directories once empty.

use std::collections::BTreeMap;

use anyhow::Context as _;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::project::LIBRARY_DIR;

/// The record's file name inside `.lexibrary/`.
pub const RECORD_FILE: &str = crate::project::INTEGRATIONS_FILE;

const ABOUT: &str = "What Lexibrarian added to files outside .lexibrary/ (see docs/agents.md). \
`lexictl setup --uninstall-mcp` removes the MCP entries listed here, and only while they are still \
as written; `lexictl setup --update` refreshes them all.";

/// The record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    #[serde(default)]
    pub about: String,
    pub version: u32,
    /// Files that did not exist before Lexibrarian wrote them → the directories made for them.
    #[serde(default)]
    pub created: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub entries: Vec<Entry>,
    /// Entries someone removed after Lexibrarian added them: `lexictl setup --update` does not add
    /// them back (an explicit `lexictl setup --mcp` or `init` does).
    #[serde(default, skip_serializing_if = "std::collections::BTreeSet::is_empty")]
    pub declined: std::collections::BTreeSet<String>,
}

/// One thing Lexibrarian added.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Stable name: `mcp.claude`, `claude.session-start`, `rules.claude`, `init.gitignore`, …
    pub id: String,
    /// Project-relative file.
    pub file: String,
    #[serde(flatten)]
    pub kind: Kind,
}

/// What in the file is ours.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Kind {
    Member {
        path: Vec<String>,
        value: Value,
        existed: usize,
    },
    Item {
        path: Vec<String>,
        value: Value,
        existed: usize,
    },
    Block {
        sha256: String,
    },
    File {
        sha256: String,
    },
    Lines {
        lines: Vec<String>,
    },
}

impl Record {
    /// The project-relative path of the record.
    pub fn path() -> String {
        format!("{LIBRARY_DIR}/{RECORD_FILE}")
    }

    /// Read the record of the project at `root` (empty when there is none).
    pub fn load(root: &std::path::Path) -> anyhow::Result<Record> {
        let rel = Record::path();
        let text = match crate::nofollow::read_to_string(root, &rel) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Record::default()),
            Err(err) => return Err(err).with_context(|| format!("cannot read {rel}")),
        };
        serde_json::from_str(&text).with_context(|| {
            format!("{rel} is not a record Lexibrarian can read; restore it from git")
        })
    }

    /// The record as written: entries sorted by id, pretty JSON with a final newline.
    pub fn render(&self) -> String {
        let mut record = self.clone();
        record.about = ABOUT.to_string();
        record.version = 1;
        record.entries.sort_by(|a, b| a.id.cmp(&b.id));
        let mut text = serde_json::to_string_pretty(&record).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The entry with `id`.
    pub fn get(&self, id: &str) -> Option<&Entry> {
        self.entries.iter().find(|entry| entry.id == id)
    }

    /// Add or replace the entry with `entry.id`.
    pub fn put(&mut self, entry: Entry) {
        self.entries.retain(|existing| existing.id != entry.id);
        self.entries.push(entry);
    }

    /// Forget the entry with `id`.
    pub fn forget(&mut self, id: &str) {
        self.entries.retain(|existing| existing.id != id);
    }

    /// Whether any entry of `file` remains.
    pub fn has_file(&self, file: &str) -> bool {
        self.entries.iter().any(|entry| entry.file == file)
    }

    /// Whether an entry whose id starts with `group.` is recorded.
    pub fn has_group(&self, group: &str) -> bool {
        let prefix = format!("{group}.");
        self.entries
            .iter()
            .any(|entry| entry.id.starts_with(&prefix))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_record_round_trips_sorted_with_its_explanation() {
        let mut record = Record::default();
        record.put(Entry {
            id: "mcp.cursor".into(),
            file: ".cursor/mcp.json".into(),
            kind: Kind::Member {
                path: vec!["mcpServers".into(), "lexibrarian".into()],
                value: serde_json::json!({"command": "lexi", "args": ["mcp"]}),
                existed: 0,
            },
        });
        record.put(Entry {
            id: "claude.skill".into(),
            file: ".claude/skills/lexibrarian/SKILL.md".into(),
            kind: Kind::File {
                sha256: "ab".into(),
            },
        });
        record
            .created
            .insert(".cursor/mcp.json".into(), vec![".cursor".into()]);
        let text = record.render();
        assert!(
            text.starts_with("{\n  \"about\": \"What Lexibrarian added"),
            "{text}"
        );
        let back: Record = serde_json::from_str(&text).expect("parse");
        assert_eq!(back.entries[0].id, "claude.skill");
        assert_eq!(back.render(), text);
        assert!(back.has_group("mcp") && !back.has_group("rules"));
        assert!(text.contains("\"kind\": \"member\""), "{text}");
    }
}
