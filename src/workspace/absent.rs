//! The files of the project that git keeps out of this working tree on purpose — outside a sparse
//! checkout's patterns (cone or not, `blob:none` partial clones included), or marked
//! `git update-index --skip-worktree` — and are not on disk. Git counts them as present and
//! unchanged, and so does Lexibrarian: their design files and the indexes of their directories are
//! kept as they are (never removed as if the sources were deleted, never reported stale), they still
//! exist for Dependencies, Tests and Child Maps, and the rows that describe them are carried over.
//!
//! A file that has the bit but is on disk anyway is an ordinary file (the walk finds it).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use crate::project::paths::ancestors_rel;
use crate::project::walk::EntryKind;
use crate::project::{Project, LIBRARY_DIR};
use crate::relpath::RelPath;

/// The absent files (project-relative) and the directories that are absent with them.
#[derive(Clone, Debug, Default)]
pub struct Absent {
    files: BTreeSet<String>,
    /// Directories not on disk because everything in them is absent.
    dirs: BTreeSet<String>,
    /// What each directory on disk holds that is absent: (name, kind), sorted by name.
    children: BTreeMap<String, Vec<(String, EntryKind)>>,
}

impl Absent {
    /// From the project-relative paths git keeps out of the working tree: those not on disk (the
    /// library's own files are never absent: a sparse checkout must include `.lexibrary/`).
    pub fn from_paths(project: &Project, paths: impl IntoIterator<Item = String>) -> Absent {
        let mut absent = Absent::default();
        let mut on_disk: HashMap<String, bool> = HashMap::new();
        let mut dir_on_disk = |dir: &str| -> bool {
            *on_disk
                .entry(dir.to_string())
                .or_insert_with(|| dir.is_empty() || project.abs(dir).is_dir())
        };
        for rel in paths {
            if rel.split('/').next() == Some(LIBRARY_DIR) {
                continue;
            }
            let missing = !dir_on_disk(RelPath::new(&rel).dir())
                || project.abs(&rel).symlink_metadata().is_err();
            if !missing {
                continue;
            }
            let ancestors: Vec<String> =
                ancestors_rel(&rel).into_iter().map(String::from).collect();
            for pair in ancestors.windows(2) {
                let (parent, child) = (&pair[0], &pair[1]);
                if !dir_on_disk(child) {
                    absent.dirs.insert(child.clone());
                    if dir_on_disk(parent) {
                        let name = RelPath::new(child).file_name().to_string();
                        absent.child(parent, name, EntryKind::Dir);
                    }
                }
            }
            let parent = RelPath::new(&rel).dir().to_string();
            if dir_on_disk(&parent) {
                let name = RelPath::new(&rel).file_name().to_string();
                absent.child(&parent, name, EntryKind::File);
            }
            absent.files.insert(rel);
        }
        for children in absent.children.values_mut() {
            children.sort();
            children.dedup();
        }
        absent
    }

    fn child(&mut self, dir: &str, name: String, kind: EntryKind) {
        self.children
            .entry(dir.to_string())
            .or_default()
            .push((name, kind));
    }

    /// Whether nothing is absent (the usual full checkout).
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Whether project-relative file `rel` is absent.
    pub fn has_file(&self, rel: &str) -> bool {
        self.files.contains(rel)
    }

    /// Whether project-relative directory `dir` is absent (every file in it is).
    pub fn has_dir(&self, dir: &str) -> bool {
        self.dirs.contains(dir)
    }

    /// Whether `rel`, a file or a directory, is absent.
    pub fn has(&self, rel: &str) -> bool {
        self.has_file(rel) || self.has_dir(rel)
    }

    /// The absent files.
    pub fn files(&self) -> impl Iterator<Item = &String> {
        self.files.iter()
    }

    /// What directory `dir` (on disk) holds that is absent, as (name, kind).
    pub fn children(&self, dir: &str) -> &[(String, EntryKind)] {
        self.children.get(dir).map_or(&[], Vec::as_slice)
    }

    /// `dir`'s absent children as project-relative paths.
    pub fn child_paths<'a>(&'a self, dir: &'a str) -> impl Iterator<Item = String> + 'a {
        self.children(dir)
            .iter()
            .map(move |(name, _)| RelPath::new(dir).join(name).into_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn absent_files_and_directories_hang_under_what_is_on_disk() {
        let dir = tempfile::tempdir().expect("tempdir");
        let project = Project::new(dir.path().to_path_buf(), crate::project::Config::default());
        std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
        std::fs::write(dir.path().join("src/here.rs"), "").expect("write");
        let absent = Absent::from_paths(
            &project,
            [
                "src/here.rs",
                "src/gone.rs",
                "other/deep/d.py",
                "other/o.py",
                "README.md",
                ".lexibrary/other/o.py.md",
            ]
            .map(String::from),
        );
        assert!(!absent.has_file("src/here.rs"), "on disk: an ordinary file");
        assert!(absent.has_file("src/gone.rs") && absent.has_file("other/deep/d.py"));
        assert!(absent.has_dir("other") && absent.has_dir("other/deep") && !absent.has_dir("src"));
        assert!(!absent.has_file(".lexibrary/other/o.py.md"));
        assert_eq!(
            absent.children(""),
            [
                ("README.md".to_string(), EntryKind::File),
                ("other".to_string(), EntryKind::Dir)
            ]
        );
        assert_eq!(
            absent.children("src"),
            [("gone.rs".to_string(), EntryKind::File)]
        );
        assert!(
            absent.children("other").is_empty(),
            "not on disk: never indexed here"
        );
    }
}
