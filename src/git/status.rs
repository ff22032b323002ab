//! Uncommitted changes: [`GitRepo::dirty`] combines gix's `HEAD`-vs-index and index-vs-worktree
//! status (plus untracked, not ignored files) into one [`Change`] entry per path, read-only.

use std::collections::BTreeMap;

use gix::bstr::{BStr, BString};
use gix::index::entry::Mode;
use gix::status::index_worktree;
use gix::status::plumbing::index_as_worktree::{Change as WorktreeChange, EntryStatus};

use super::{Change, GitError, GitRepo};

/// What the status events say about one path. `None` means "same as the index".
#[derive(Default, Clone, Copy)]
struct PathState {
    in_head: Option<bool>,
    in_index: Option<bool>,
    on_disk: Option<bool>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Outcome {
    Modified,
    Added,
    Deleted,
}

impl PathState {
    /// The path's state relative to `HEAD`; `None` if it is neither at `HEAD` nor on disk.
    fn outcome(&self) -> Option<Outcome> {
        // Every event sets `in_index`; the others default to "same as the index".
        let in_index = self.in_index.unwrap_or(true);
        match (
            self.in_head.unwrap_or(in_index),
            self.on_disk.unwrap_or(in_index),
        ) {
            (true, true) => Some(Outcome::Modified),
            (false, true) => Some(Outcome::Added),
            (true, false) => Some(Outcome::Deleted),
            (false, false) => None,
        }
    }
}

#[derive(Default)]
struct Collector {
    paths: BTreeMap<String, PathState>,
    /// Staged renames `(from, to)`.
    renames: Vec<(String, String)>,
    non_utf8: Vec<BString>,
}

impl Collector {
    fn state(&mut self, path: &BStr) -> Option<&mut PathState> {
        match std::str::from_utf8(path) {
            Ok(path) => {
                if !self.paths.contains_key(path) {
                    self.paths.insert(path.to_owned(), PathState::default());
                }
                self.paths.get_mut(path)
            }
            Err(_) => {
                self.non_utf8.push(path.to_owned());
                None
            }
        }
    }

    fn set(&mut self, path: &BStr, in_head: Option<bool>, in_index: bool, on_disk: Option<bool>) {
        if let Some(state) = self.state(path) {
            if in_head.is_some() {
                state.in_head = in_head;
            }
            state.in_index = Some(in_index);
            if on_disk.is_some() {
                state.on_disk = on_disk;
            }
        }
    }

    /// A `HEAD`-vs-index change.
    fn tree_index(&mut self, change: &gix::diff::index::Change) {
        use gix::diff::index::ChangeRef;
        match change {
            ChangeRef::Addition {
                location,
                entry_mode,
                ..
            } => {
                if is_file(*entry_mode) {
                    self.set(location.as_ref(), Some(false), true, None);
                }
            }
            ChangeRef::Deletion {
                location,
                entry_mode,
                ..
            } => {
                if is_file(*entry_mode) {
                    self.set(location.as_ref(), Some(true), false, None);
                }
            }
            ChangeRef::Modification {
                location,
                previous_entry_mode,
                entry_mode,
                ..
            } => {
                let (was, is) = (is_file(*previous_entry_mode), is_file(*entry_mode));
                if was || is {
                    self.set(location.as_ref(), Some(was), is, None);
                }
            }
            ChangeRef::Rewrite {
                source_location,
                source_entry_mode,
                location,
                entry_mode,
                copy,
                ..
            } => {
                let (from_is_file, to_is_file) =
                    (is_file(*source_entry_mode), is_file(*entry_mode));
                if from_is_file && !copy {
                    self.set(source_location.as_ref(), Some(true), false, None);
                }
                if to_is_file {
                    self.set(location.as_ref(), Some(false), true, None);
                }
                if from_is_file && to_is_file && !copy {
                    if let (Ok(from), Ok(to)) = (
                        std::str::from_utf8(source_location.as_ref()),
                        std::str::from_utf8(location.as_ref()),
                    ) {
                        self.renames.push((from.to_owned(), to.to_owned()));
                    }
                }
            }
        }
    }

    /// An index-vs-worktree change or an untracked file.
    fn index_worktree(&mut self, item: &index_worktree::Item, repo: &GitRepo) {
        match item {
            index_worktree::Item::Modification {
                entry,
                rela_path,
                status,
                ..
            } => {
                if !is_file(entry.mode) {
                    return;
                }
                let path = rela_path.as_ref();
                match status {
                    EntryStatus::Change(WorktreeChange::Removed) => {
                        self.set(path, None, true, Some(false));
                    }
                    EntryStatus::Change(
                        WorktreeChange::Modification { .. } | WorktreeChange::Type { .. },
                    ) => self.set(path, None, true, Some(true)),
                    EntryStatus::Change(WorktreeChange::SubmoduleModification(_))
                    | EntryStatus::NeedsUpdate(_) => {}
                    EntryStatus::IntentToAdd => {
                        // `git add -N`: a promise to add a new file.
                        if let Some(state) = self.state(path) {
                            state.in_head.get_or_insert(false);
                            state.in_index = Some(true);
                            state.on_disk = Some(true);
                        }
                    }
                    EntryStatus::Conflict { .. } => {
                        let exists = std::str::from_utf8(path)
                            .ok()
                            .map(|p| repo.workdir.join(p).symlink_metadata().is_ok());
                        if let Some(state) = self.state(path) {
                            state.in_index = Some(true);
                            state.on_disk = exists.or(state.on_disk);
                        }
                    }
                }
            }
            index_worktree::Item::DirectoryContents { entry, .. } => self.untracked(entry),
            index_worktree::Item::Rewrite {
                source,
                dirwalk_entry,
                ..
            } => {
                if let index_worktree::RewriteSource::RewriteFromIndex {
                    source_entry,
                    source_rela_path,
                    ..
                } = source
                {
                    if is_file(source_entry.mode) {
                        self.set(source_rela_path.as_ref(), None, true, Some(false));
                    }
                }
                self.untracked(dirwalk_entry);
            }
        }
    }

    fn untracked(&mut self, entry: &gix::dir::Entry) {
        use gix::dir::entry::{Kind, Status};
        if entry.status == Status::Untracked
            && matches!(entry.disk_kind, Some(Kind::File | Kind::Symlink))
        {
            self.set(entry.rela_path.as_ref(), None, false, Some(true));
        }
    }

    fn finish(self) -> (Vec<Change>, usize) {
        let Collector {
            mut paths,
            renames,
            mut non_utf8,
        } = self;
        non_utf8.sort_unstable();
        non_utf8.dedup();

        let mut out = Vec::with_capacity(paths.len());
        for (from, to) in renames {
            let is_rename = paths.get(&from).and_then(PathState::outcome) == Some(Outcome::Deleted)
                && paths.get(&to).and_then(PathState::outcome) == Some(Outcome::Added);
            if is_rename {
                paths.remove(&from);
                paths.remove(&to);
                out.push(Change::Renamed { from, to });
            }
        }
        for (path, state) in paths {
            out.extend(state.outcome().map(|outcome| match outcome {
                Outcome::Modified => Change::Modified(path),
                Outcome::Added => Change::Added(path),
                Outcome::Deleted => Change::Deleted(path),
            }));
        }
        out.sort_by(|a, b| a.path().cmp(b.path()));
        (out, non_utf8.len())
    }
}

/// Regular files, executables and symlinks in the index; not submodules or sparse directories.
fn is_file(mode: Mode) -> bool {
    mode == Mode::FILE || mode == Mode::FILE_EXECUTABLE || mode == Mode::SYMLINK
}

impl GitRepo {
    /// Uncommitted changes relative to `HEAD`: staged (`HEAD` vs index) and unstaged (index vs
    /// working tree) changes plus untracked files not ignored by `.gitignore`, one entry per
    /// path, sorted by path (renames by `to`). Submodules are skipped. The index is only read,
    /// never written. In a repository without commits every file is [`Change::Added`].
    /// A `.gitignore` that is a FIFO (which the status would wait on for ever) is an error naming
    /// it ([`fifo_guard`](super::fifo_guard)).
    pub fn dirty(&self) -> Result<Vec<Change>, GitError> {
        let (status, fifos) = super::fifo_guard::guarded(&self.workdir, || {
            self.status_with(Vec::new(), gix::status::UntrackedFiles::Files)
        });
        if !fifos.is_empty() {
            return Err(GitError::IgnoreFifo(fifos));
        }
        status
    }

    /// Changes to *tracked* files only (staged and unstaged), without looking inside the
    /// working-tree directory `dir` (relative to the working tree root). Skipping untracked files
    /// saves the directory walk, and skipping a large directory the caller tracks by other means
    /// (the library itself) saves its stat calls: together about half of a full status.
    pub fn tracked_changes_outside(&self, dir: &str) -> Result<Vec<Change>, GitError> {
        let dir = dir.trim_end_matches('/');
        let patterns = if dir.is_empty() {
            Vec::new()
        } else {
            vec![BString::from(format!(":(exclude){dir}/"))]
        };
        self.status_with(patterns, gix::status::UntrackedFiles::None)
    }

    fn status_with(
        &self,
        patterns: Vec<BString>,
        untracked: gix::status::UntrackedFiles,
    ) -> Result<Vec<Change>, GitError> {
        let index = self
            .repo
            .index_or_empty()
            .map_err(GitError::read("read the index"))?;
        let staged_nothing = self.index_matches_head(&index);
        let platform = self
            .repo
            .status(gix::progress::Discard)
            .map_err(GitError::read("prepare the status of the working tree"))?
            .index(gix::worktree::IndexPersistedOrInMemory::Persisted(index))
            .untracked_files(untracked)
            .index_worktree_submodules(None)
            .index_worktree_rewrites(None)
            .tree_index_track_renames(gix::status::tree_index::TrackRenames::Given(
                gix::diff::Rewrites::default(),
            ));
        let mut collector = Collector::default();
        if staged_nothing {
            // The index *is* `HEAD`'s tree: only the working tree can differ from it.
            let iter = platform
                .into_index_worktree_iter(patterns)
                .map_err(GitError::read("compute the status of the working tree"))?;
            for item in iter {
                let item =
                    item.map_err(GitError::read("compute the status of the working tree"))?;
                collector.index_worktree(&item, self);
            }
        } else {
            let iter = platform
                .into_iter(patterns)
                .map_err(GitError::read("compute the status of the working tree"))?;
            for item in iter {
                match item.map_err(GitError::read("compute the status of the working tree"))? {
                    gix::status::Item::TreeIndex(change) => collector.tree_index(&change),
                    gix::status::Item::IndexWorktree(item) => collector.index_worktree(&item, self),
                }
            }
        }
        let (out, skipped) = collector.finish();
        self.skipped_non_utf8.set(skipped);
        Ok(out)
    }

    /// Whether the index holds exactly `HEAD`'s tree, known without reading a single tree object:
    /// git keeps the tree each index directory would write (the cache-tree extension) and updates
    /// it on commit, so a valid root equal to `HEAD^{tree}` means nothing is staged — the shortcut
    /// `git status` itself takes. Anything else (no or invalidated extension, unborn `HEAD`) means
    /// the tree-to-index comparison must run.
    pub(super) fn index_matches_head(&self, index: &gix::worktree::Index) -> bool {
        let Some(root) = index.tree() else {
            return false;
        };
        if root.num_entries.is_none() {
            return false;
        }
        self.repo
            .head_tree_id()
            .is_ok_and(|head_tree| head_tree.detach() == root.id)
    }
}
