//! The member outline store: each code file's members as `lexi lookup` lists them and `lexi search`
//! names them, kept by `lexictl update` for every file it parses so that a lookup lists a file's
//! members without parsing it (parsing the viewed file was half of a lookup of a large file).
//!
//! **What is kept.** A [`MemberOutline`]: the file's outline lines without their docs, whether each
//! line has a doc and its doc's sentence as shown (the first sentence, redacted:
//! `archivist::describe::item_sentence`, `secrets::redact`), and the file's primary type.
//! [`MemberOutline::of`] builds it from a parsed interface, and a reader that finds no record builds
//! it the same way from its own parse ([`OutlineStore::load_or_parse`]): an answer is the same
//! bytes whether the store had it or not.
//!
//! **Where, and under which name.** One small JSON file per record in `outlines/` under the
//! engine's state directory, beside the cache (under the git directory; outside git in
//! `.lexibrary/.cache/state/`, which is gitignored). A record's name is SHA-256 over the store's
//! format and the update cache's format (see [`FORMAT`]: a release whose parsing or wording
//! differs never reads another's records), the file's path and the SHA-256 of its content (the
//! footer's `source_hash`, which a lookup computes anyway to say whether the design file is
//! current): content-addressed, so a record is never stale, only unused. A record holds its path,
//! checked on reading; a missing, torn, foreign or unreadable record is a miss, and the reader
//! parses.
//!
//! **Garbage.** The update removes the record of every content it saw change or disappear (the
//! cache knows the old hashes) and, on a complete run that parsed anything, every record no current
//! file names.

use std::collections::HashSet;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use super::state::StateDir;
use crate::archivist::describe::{item_sentence, primary_type};
use crate::hash::sha256_hex;
use crate::source::{shared, Interface, Language, OutlineLine, SymbolKind};

/// Written into every record's name with the update cache's format. A change of what a record
/// holds or of how it is worded (the outline, `item_sentence`, the redaction) bumps the cache's
/// format (`super::cache::FORMAT`) too: the next update then reads every file again and fills the
/// new store, and no release reads records another one worded differently.
const FORMAT: &str = "lexibrarian-outline v1";
/// The store's directory under the state directory.
const DIR_NAME: &str = "outlines";

/// A file's members as a lookup shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberOutline {
    /// The outline lines, in source order, without their docs (`doc`, `behaviour` and `whole_doc`
    /// empty: `lexi lookup --member` reads the source for those).
    lines: Vec<OutlineLine>,
    /// Per line, what a member's line shows of its doc.
    docs: Vec<ShownDoc>,
    /// The file's primary type (`archivist::describe::primary_type`).
    primary: Option<String>,
}

/// What a member's line shows of its doc.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct ShownDoc {
    /// The line has a doc (even one with no sentence to show: a banner, only tags).
    documented: bool,
    /// The doc's first sentence, redacted; `None` without one.
    sentence: Option<String>,
}

impl MemberOutline {
    /// The member outline of `source`, parsed as `interface`.
    pub fn of(source: &str, interface: &Interface) -> MemberOutline {
        MemberOutline::from_lines(interface.outline(), primary_type(source, interface))
    }

    /// The member outline of `lines`, whose primary type is `primary`.
    pub fn from_lines(lines: &[OutlineLine], primary: Option<String>) -> MemberOutline {
        let docs = lines
            .iter()
            .map(|line| ShownDoc {
                documented: line.doc.is_some(),
                sentence: line.doc.as_deref().and_then(shown_sentence),
            })
            .collect();
        let lines = lines
            .iter()
            .map(|line| OutlineLine {
                doc: None,
                behaviour: Vec::new(),
                whole_doc: None,
                ..line.clone()
            })
            .collect();
        MemberOutline {
            lines,
            docs,
            primary,
        }
    }

    /// The outline lines, in source order, without their docs.
    pub fn lines(&self) -> &[OutlineLine] {
        &self.lines
    }

    /// The first sentence of line `index`'s doc, redacted; `None` without one.
    pub fn sentence(&self, index: usize) -> Option<&str> {
        self.docs.get(index)?.sentence.as_deref()
    }

    /// Whether line `index` has a doc (even one with no sentence to show).
    pub fn documented(&self, index: usize) -> bool {
        self.docs.get(index).is_some_and(|doc| doc.documented)
    }

    /// The file's primary type.
    pub fn primary(&self) -> Option<&str> {
        self.primary.as_deref()
    }
}

/// The sentence a member's line shows of its `doc`: the first, redacted, trimmed.
fn shown_sentence(doc: &str) -> Option<String> {
    let sentence = item_sentence(doc)?;
    Some(crate::secrets::redact(&sentence).trim().to_string())
}

/// A record as written: the path it is for, then the outline.
#[derive(Serialize, Deserialize)]
struct Record {
    path: String,
    primary: Option<String>,
    lines: Vec<RecordLine>,
}

/// One outline line of a [`Record`]: what [`MemberOutline`] keeps of it.
#[derive(Serialize, Deserialize)]
struct RecordLine {
    depth: usize,
    text: String,
    kind: Option<SymbolKind>,
    name: String,
    parent: Option<String>,
    #[serde(flatten)]
    doc: ShownDoc,
}

impl Record {
    fn of(source: &str, outline: &MemberOutline) -> Record {
        let lines = outline
            .lines
            .iter()
            .zip(&outline.docs)
            .map(|(line, doc)| RecordLine {
                depth: line.depth,
                text: line.text.clone(),
                kind: line.kind,
                name: line.name.clone(),
                parent: line.parent.clone(),
                doc: doc.clone(),
            })
            .collect();
        Record {
            path: source.to_string(),
            primary: outline.primary.clone(),
            lines,
        }
    }

    fn into_outline(self) -> MemberOutline {
        let (lines, docs) = self
            .lines
            .into_iter()
            .map(|line| {
                let outline_line = OutlineLine {
                    depth: line.depth,
                    text: line.text,
                    kind: line.kind,
                    name: line.name,
                    parent: line.parent,
                    doc: None,
                    behaviour: Vec::new(),
                    whole_doc: None,
                };
                (outline_line, line.doc)
            })
            .unzip();
        MemberOutline {
            lines,
            docs,
            primary: self.primary,
        }
    }
}

/// The store of one clone (see the module doc).
#[derive(Clone, Debug)]
pub struct OutlineStore {
    dir: PathBuf,
}

impl OutlineStore {
    /// The store under `state`'s directory.
    pub fn of(state: &StateDir) -> OutlineStore {
        OutlineStore {
            dir: state.dir.join(DIR_NAME),
        }
    }

    /// The record of `source` whose content hashes to `source_hash`, when the store holds it.
    pub fn load(&self, source: &str, source_hash: &str) -> Option<MemberOutline> {
        let bytes = std::fs::read(self.path_of(source, source_hash)).ok()?;
        let record: Record = serde_json::from_slice(&bytes).ok()?;
        (record.path == source).then(|| record.into_outline())
    }

    /// The members of `source`, whose content is `bytes`: the record of that content (`source_hash`,
    /// when the caller knows it) if the store holds one, else parsed as `language` (the text only
    /// decoded then). `None` when it does not parse.
    pub fn load_or_parse(
        &self,
        source: &str,
        source_hash: Option<&str>,
        language: Language,
        bytes: &[u8],
    ) -> Option<MemberOutline> {
        let stored = source_hash.and_then(|hash| self.load(source, hash));
        stored.or_else(|| {
            let interface = shared::interface(language, &String::from_utf8_lossy(bytes)).ok()?;
            Some(MemberOutline::of(source, &interface))
        })
    }

    /// Keep `outline` as the record of `source` at content `source_hash` (written again when it is
    /// there: ask [`Self::holds`] first to spare the work).
    pub fn save(
        &self,
        source: &str,
        source_hash: &str,
        outline: &MemberOutline,
    ) -> std::io::Result<()> {
        let path = self.path_of(source, source_hash);
        let json =
            serde_json::to_vec(&Record::of(source, outline)).map_err(std::io::Error::other)?;
        crate::atomic::write(&path, &json)
    }

    /// Whether the store holds a record for `source` at content `source_hash`.
    pub fn holds(&self, source: &str, source_hash: &str) -> bool {
        self.path_of(source, source_hash).is_file()
    }

    /// Remove the record of `source` at content `source_hash`, if any.
    pub fn remove(&self, source: &str, source_hash: &str) {
        let _ = std::fs::remove_file(self.path_of(source, source_hash));
    }

    /// Remove every record but those of `kept` (pairs of a path and its content's hash).
    pub fn retain<'a>(&self, kept: impl IntoIterator<Item = (&'a str, &'a str)>) {
        let names: HashSet<String> = kept
            .into_iter()
            .map(|(source, hash)| record_name(source, hash))
            .collect();
        let Ok(entries) = std::fs::read_dir(&self.dir) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let is_record = name.to_str().is_some_and(|name| names.contains(name));
            if !is_record {
                let _ = std::fs::remove_file(entry.path());
            }
        }
    }

    fn path_of(&self, source: &str, source_hash: &str) -> PathBuf {
        self.dir.join(record_name(source, source_hash))
    }
}

/// The name of the record of `source` at content `source_hash`.
fn record_name(source: &str, source_hash: &str) -> String {
    let cache = super::cache::FORMAT;
    let key = format!("{FORMAT}\0{cache}\0{source}\0{source_hash}");
    sha256_hex(key.as_bytes())[..32].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{extract, Language};

    const APP: &str = "class App:\n    \"\"\"The app. It runs.\"\"\"\n\n    def run(self, port):\n        \"\"\"Run it on `port`.\"\"\"\n\n    def stop(self):\n        pass\n";

    fn outline() -> MemberOutline {
        let interface = extract(Language::Python, APP).expect("parses");
        MemberOutline::of("pkg/app.py", &interface)
    }

    #[test]
    fn a_record_reads_back_as_the_outline_it_was_made_from() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = OutlineStore::of(&StateDir::new(dir.path().to_path_buf()));
        let outline = outline();
        assert_eq!(outline.primary(), Some("App"));
        assert_eq!(outline.sentence(0), Some("The app."));
        assert!(outline.documented(0));
        let stop = outline
            .lines()
            .iter()
            .position(|l| l.name.ends_with("stop"));
        assert!(!outline.documented(stop.expect("an undocumented method")));
        assert!(outline.lines().iter().all(|line| line.doc.is_none()));
        store.save("pkg/app.py", "abc", &outline).expect("saved");
        assert_eq!(store.load("pkg/app.py", "abc"), Some(outline.clone()));
        assert_eq!(store.load("pkg/app.py", "abd"), None, "another content");
        assert_eq!(store.load("pkg/other.py", "abc"), None, "another path");
        store.remove("pkg/app.py", "abc");
        assert_eq!(store.load("pkg/app.py", "abc"), None);
    }

    #[test]
    fn a_torn_or_foreign_record_is_a_miss() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = OutlineStore::of(&StateDir::new(dir.path().to_path_buf()));
        store.save("a.py", "1", &outline()).expect("saved");
        let path = store.path_of("a.py", "1");
        let text = std::fs::read(&path).expect("written");
        std::fs::write(&path, &text[..text.len() / 2]).expect("torn");
        assert_eq!(store.load("a.py", "1"), None);
        // A record naming another path (two paths whose names collide) is not this file's.
        std::fs::write(
            &path,
            String::from_utf8_lossy(&text).replace("a.py", "b.py"),
        )
        .expect("foreign");
        assert_eq!(store.load("a.py", "1"), None);
    }

    #[test]
    fn retain_keeps_only_the_named_records() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = OutlineStore::of(&StateDir::new(dir.path().to_path_buf()));
        for (source, hash) in [("a.py", "1"), ("a.py", "2"), ("b.py", "1")] {
            store.save(source, hash, &outline()).expect("saved");
        }
        store.retain([("a.py", "2"), ("b.py", "1")]);
        assert!(store.load("a.py", "1").is_none());
        assert!(store.load("a.py", "2").is_some());
        assert!(store.load("b.py", "1").is_some());
    }
}
