//! What the updates since the last processed commit wrote into the library: each library file's
//! repository path with the blob id of the text written (or `None` for one removed). It lets the
//! no-op fast path hold after the library is committed: when the commits since the processed one
//! changed only library files, and each of them to exactly the text an update wrote, nothing in the
//! tree can differ from what the update saw — the first `lexictl update` after `git commit` of the
//! library costs a `git status` and a tree diff, not a walk of the tree (issue 29).
//!
//! It lives beside the state file (`library-writes`, one `path<TAB>blob` line per file, `-` for a
//! removal), is written by a run that leaves the library current for a clean tree, and goes when
//! the fast path has taken its commit in. A missing or unreadable file is an empty record: the fast
//! path then waits for the next full run, as before.

use std::collections::BTreeMap;
use std::path::Path;

use crate::git::Oid;

/// Library files written (blob id) or removed (`None`), by repository path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LibraryWrites(pub BTreeMap<String, Option<Oid>>);

impl LibraryWrites {
    /// The record at `path` (empty when absent or unreadable; a damaged line is skipped).
    pub fn load(path: &Path) -> LibraryWrites {
        let Ok(text) = std::fs::read_to_string(path) else {
            return LibraryWrites::default();
        };
        let entries = text
            .lines()
            .filter_map(|line| {
                let (file, blob) = line.rsplit_once('\t')?;
                let blob = match blob {
                    "-" => None,
                    hex => Some(Oid::parse(hex).ok()?),
                };
                Some((file.to_string(), blob))
            })
            .collect();
        LibraryWrites(entries)
    }

    /// Write the record atomically at `path`.
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut text = String::with_capacity(self.0.len() * 96);
        for (file, blob) in &self.0 {
            text.push_str(file);
            text.push('\t');
            match blob {
                Some(blob) => text.push_str(&blob.to_hex()),
                None => text.push('-'),
            }
            text.push('\n');
        }
        crate::atomic::write(path, text.as_bytes())
    }

    /// Whether `changes` (path and blob in the newer commit, as `GitRepo::changed_blobs` gives them)
    /// are all library files changed to exactly what was written. Empty changes hold trivially.
    pub fn explains(&self, changes: &[(String, Option<Oid>)]) -> bool {
        changes
            .iter()
            .all(|(file, blob)| self.0.get(file).is_some_and(|written| written == blob))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn oid(digit: char) -> Oid {
        Oid::parse(&digit.to_string().repeat(40)).expect("hex")
    }

    #[test]
    fn round_trips_and_explains_only_exact_library_changes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("library-writes");
        let mut writes = LibraryWrites::default();
        writes.0.insert(".lexibrary/a.rs.md".into(), Some(oid('a')));
        writes.0.insert(".lexibrary/gone.rs.md".into(), None);
        writes.save(&path).expect("save");
        let loaded = LibraryWrites::load(&path);
        assert_eq!(loaded, writes);
        assert!(loaded.explains(&[(".lexibrary/a.rs.md".into(), Some(oid('a')))]));
        assert!(loaded.explains(&[(".lexibrary/gone.rs.md".into(), None)]));
        // Another text (an agent's edit committed with it), a source, an unknown library file.
        assert!(!loaded.explains(&[(".lexibrary/a.rs.md".into(), Some(oid('b')))]));
        assert!(!loaded.explains(&[("src/a.rs".into(), Some(oid('a')))]));
        assert!(!loaded.explains(&[(".lexibrary/b.rs.md".into(), Some(oid('a')))]));
        assert_eq!(
            LibraryWrites::load(&dir.path().join("none")),
            LibraryWrites::default()
        );
    }
}
