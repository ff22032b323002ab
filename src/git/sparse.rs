//! The paths git keeps out of the working tree on purpose: index entries with the `skip-worktree`
//! bit, which a sparse checkout (cone or not) sets on everything outside its patterns and `git
//! update-index --skip-worktree` sets by hand — and, in a sparse index (`index.sparse`), the files
//! under each sparse-directory entry, read from its tree (trees are local even in a `blob:none`
//! partial clone). Git counts these files as present and unchanged; so does Lexibrarian.

use gix::bstr::ByteSlice;

use super::{GitError, GitRepo};

impl GitRepo {
    /// Every path (relative to the working tree, `/`-separated, sorted) git's index marks
    /// `skip-worktree`, sparse directories expanded to their files. Not valid UTF-8: left out.
    pub fn skip_worktree_paths(&self) -> Result<Vec<String>, GitError> {
        let index = self
            .repo
            .index_or_empty()
            .map_err(GitError::read("read the index"))?;
        let mut paths = Vec::new();
        for entry in index.entries() {
            if !entry
                .flags
                .contains(gix::index::entry::Flags::SKIP_WORKTREE)
            {
                continue;
            }
            let Ok(path) = std::str::from_utf8(entry.path(&index)) else {
                continue;
            };
            if entry.mode.is_sparse() {
                self.files_of_tree(entry.id, path.trim_end_matches('/'), &mut paths)?;
            } else {
                paths.push(path.to_string());
            }
        }
        paths.sort();
        paths.dedup();
        Ok(paths)
    }

    /// The files (blobs and links) of tree `id`, as paths under `dir`.
    fn files_of_tree(
        &self,
        id: gix::ObjectId,
        dir: &str,
        paths: &mut Vec<String>,
    ) -> Result<(), GitError> {
        let tree = self
            .repo
            .find_tree(id)
            .map_err(GitError::read("read a sparse directory's tree"))?;
        let mut recorder = gix::traverse::tree::Recorder::default();
        tree.traverse()
            .breadthfirst(&mut recorder)
            .map_err(GitError::read("walk a sparse directory's tree"))?;
        for record in recorder.records {
            if record.mode.is_tree() || record.mode.is_commit() {
                continue;
            }
            if let Ok(name) = record.filepath.to_str() {
                paths.push(format!("{dir}/{name}"));
            }
        }
        Ok(())
    }
}
