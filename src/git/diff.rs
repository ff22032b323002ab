//! Commit-to-commit changes: [`GitRepo::diff_commits`] and [`GitRepo::commit_changes`], built on
//! gix's tree diff with rename tracking, reduced to file-level [`Change`]s — and, noted on the side
//! ([`GitRepo::gitlinks_changed`]), the submodules whose recorded commit moved (a gitlink bump names
//! no file of the submodule; the caller decides whether to look inside).

use gix::object::tree::diff::ChangeDetached;
use gix::objs::tree::EntryMode;

use super::{utf8_path, Change, GitError, GitRepo, Oid};

/// A submodule whose recorded commit (its gitlink) differs between two commits: bumped, added
/// (`from` is `None`) or removed (`to` is `None`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GitlinkChange {
    /// The submodule's path in the repository.
    pub path: String,
    pub from: Option<Oid>,
    pub to: Option<Oid>,
}

impl GitRepo {
    /// Files changed between two commits' trees. `from` `None` means the empty tree, so a root
    /// commit lists every file as [`Change::Added`]. Renames are detected at git's default 50%
    /// similarity. Only regular files, executables and symlinks are reported: never directories,
    /// never submodules (those are in [`GitRepo::gitlinks_changed`] afterwards). Sorted by path
    /// (renames by `to`).
    pub fn diff_commits(&self, from: Option<&Oid>, to: &Oid) -> Result<Vec<Change>, GitError> {
        let new_tree = self.commit_tree(to)?;
        let old_tree = from.map(|from| self.commit_tree(from)).transpose()?;
        self.diff_trees(old_tree.as_ref(), &new_tree)
    }

    /// Files changed by one commit: against its first parent (so a merge commit lists what came
    /// in from the merged branches), or against the empty tree for a root commit (or a commit at
    /// the boundary of a shallow clone).
    pub fn commit_changes(&self, commit: &Oid) -> Result<Vec<Change>, GitError> {
        let commit_obj = self.find_commit(commit)?;
        let new_tree = commit_obj
            .tree()
            .map_err(GitError::read("read the commit's tree"))?;
        let old_tree = match commit_obj.parent_ids().next() {
            Some(parent) => match self
                .repo
                .try_find_object(parent)
                .map_err(GitError::read("read the parent commit"))?
            {
                Some(parent_object) => {
                    let kind = parent_object.kind;
                    let parent_commit =
                        parent_object
                            .try_into_commit()
                            .map_err(|_| GitError::NotACommit {
                                id: parent.to_string(),
                                kind: kind.to_string(),
                            })?;
                    Some(
                        parent_commit
                            .tree()
                            .map_err(GitError::read("read the parent commit's tree"))?,
                    )
                }
                // At the boundary of a shallow clone the parent is absent: treat the commit as a
                // root, as `git log` does.
                None if self.repo.is_shallow().unwrap_or(false) => None,
                None => return Err(GitError::CommitNotFound(parent.to_string())),
            },
            None => None,
        };
        self.diff_trees(old_tree.as_ref(), &new_tree)
    }

    fn find_commit(&self, id: &Oid) -> Result<gix::Commit<'_>, GitError> {
        let object = self
            .repo
            .try_find_object(id.inner())
            .map_err(GitError::read("read an object"))?
            .ok_or_else(|| GitError::CommitNotFound(id.to_hex()))?;
        let kind = object.kind;
        object.try_into_commit().map_err(|_| GitError::NotACommit {
            id: id.to_hex(),
            kind: kind.to_string(),
        })
    }

    /// Every path whose entry differs between two commits' trees, with the blob it has in `to`
    /// (`None`: it is not a file there), without rename tracking — what a caller compares with the
    /// blobs it expects. Directories are never listed; a path that is not UTF-8 is listed as
    /// `None` for its content, so it never matches an expectation.
    pub fn changed_blobs(
        &self,
        from: &Oid,
        to: &Oid,
    ) -> Result<Vec<(String, Option<Oid>)>, GitError> {
        let (old, new) = (self.commit_tree(from)?, self.commit_tree(to)?);
        let raw = self
            .repo
            .diff_tree_to_tree(Some(&old), Some(&new), gix::diff::Options::default())
            .map_err(GitError::read("compare the two commits' trees"))?;
        let mut out = Vec::new();
        for change in raw {
            let (location, kept) = match change {
                ChangeDetached::Addition {
                    location,
                    entry_mode,
                    id,
                    ..
                }
                | ChangeDetached::Modification {
                    location,
                    entry_mode,
                    id,
                    ..
                } if !entry_mode.is_tree() => {
                    (location, is_file(entry_mode).then(|| Oid::from(id)))
                }
                ChangeDetached::Deletion {
                    location,
                    entry_mode,
                    ..
                } if !entry_mode.is_tree() => (location, None),
                ChangeDetached::Rewrite { location, .. } => (location, None),
                _ => continue,
            };
            let path = String::from_utf8_lossy(location.as_ref()).into_owned();
            out.push((path, kept));
        }
        Ok(out)
    }

    /// Whether commits `one` and `two` have the same tree (false when either cannot be read).
    pub fn same_tree(&self, one: &Oid, two: &Oid) -> bool {
        let tree_of = |id: &Oid| {
            self.find_commit(id)
                .ok()?
                .tree_id()
                .ok()
                .map(|id| id.detach())
        };
        matches!((tree_of(one), tree_of(two)), (Some(a), Some(b)) if a == b)
    }

    fn commit_tree(&self, id: &Oid) -> Result<gix::Tree<'_>, GitError> {
        self.find_commit(id)?
            .tree()
            .map_err(GitError::read("read the commit's tree"))
    }

    fn diff_trees(
        &self,
        old: Option<&gix::Tree<'_>>,
        new: &gix::Tree<'_>,
    ) -> Result<Vec<Change>, GitError> {
        let options =
            gix::diff::Options::default().with_rewrites(Some(gix::diff::Rewrites::default()));
        let raw = self
            .repo
            .diff_tree_to_tree(old, Some(new), options)
            .map_err(GitError::read("compare the two commits' trees"))?;
        let mut skipped = 0;
        let mut gitlinks = Vec::new();
        let out: Vec<Change> = raw
            .into_iter()
            .filter_map(|change| {
                gitlinks.extend(gitlink_change(&change, &mut skipped));
                file_change(change, &mut skipped)
            })
            .collect();
        self.skipped_non_utf8.set(skipped);
        gitlinks.sort_by(|a, b| a.path.cmp(&b.path));
        self.gitlinks.replace(gitlinks);
        Ok(normalize(out))
    }

    /// The submodules whose recorded commit the most recent [`diff_commits`](Self::diff_commits)
    /// or [`commit_changes`](Self::commit_changes) call saw change, sorted by path.
    pub fn gitlinks_changed(&self) -> Vec<GitlinkChange> {
        self.gitlinks.borrow().clone()
    }
}

/// What a tree change did to a submodule's recorded commit, if it is about one.
fn gitlink_change(change: &ChangeDetached, skipped: &mut usize) -> Option<GitlinkChange> {
    let commit = |mode: EntryMode, id: &gix::ObjectId| mode.is_commit().then(|| Oid::from(*id));
    let (location, from, to) = match change {
        ChangeDetached::Addition {
            location,
            entry_mode,
            id,
            ..
        } => (location, None, commit(*entry_mode, id)),
        ChangeDetached::Deletion {
            location,
            entry_mode,
            id,
            ..
        } => (location, commit(*entry_mode, id), None),
        ChangeDetached::Modification {
            location,
            previous_entry_mode,
            previous_id,
            entry_mode,
            id,
        } => (
            location,
            commit(*previous_entry_mode, previous_id),
            commit(*entry_mode, id),
        ),
        ChangeDetached::Rewrite { .. } => return None,
    };
    if from.is_none() && to.is_none() {
        return None;
    }
    let path = utf8_path(location.as_ref(), skipped)?;
    Some(GitlinkChange { path, from, to })
}

/// What a tree change did to files (`None` when it touched only directories or submodules, or a
/// path that is not UTF-8, counted in `skipped`).
fn file_change(change: ChangeDetached, skipped: &mut usize) -> Option<Change> {
    match change {
        ChangeDetached::Addition {
            location,
            entry_mode,
            ..
        } => file_path(is_file(entry_mode), &location, skipped).map(Change::Added),
        ChangeDetached::Deletion {
            location,
            entry_mode,
            ..
        } => file_path(is_file(entry_mode), &location, skipped).map(Change::Deleted),
        ChangeDetached::Modification {
            location,
            previous_entry_mode,
            entry_mode,
            ..
        } => {
            let change = match (is_file(previous_entry_mode), is_file(entry_mode)) {
                (true, true) => Change::Modified,
                (true, false) => Change::Deleted,
                (false, true) => Change::Added,
                (false, false) => return None,
            };
            utf8_path(location.as_ref(), skipped).map(change)
        }
        ChangeDetached::Rewrite {
            source_location,
            source_entry_mode,
            location,
            entry_mode,
            copy,
            ..
        } => {
            let to_is_file = is_file(entry_mode);
            if copy {
                // The source is unchanged; only the copy is new.
                return file_path(to_is_file, &location, skipped).map(Change::Added);
            }
            let from = file_path(is_file(source_entry_mode), &source_location, skipped);
            let to = file_path(to_is_file, &location, skipped);
            match (from, to) {
                (Some(from), Some(to)) => Some(Change::Renamed { from, to }),
                (Some(from), None) => Some(Change::Deleted(from)),
                (None, Some(to)) => Some(Change::Added(to)),
                (None, None) => None,
            }
        }
    }
}

/// `location` as a UTF-8 path when it names a file (`is_file`).
fn file_path(is_file: bool, location: &gix::bstr::BString, skipped: &mut usize) -> Option<String> {
    if is_file {
        utf8_path(location.as_ref(), skipped)
    } else {
        None
    }
}

/// Regular files, executables and symlinks; not trees, not submodule commits.
fn is_file(mode: EntryMode) -> bool {
    mode.is_blob_or_symlink()
}

/// Sort by path and fold a deletion and an addition of the same path (a type change such as
/// symlink to file) into one modification.
fn normalize(mut changes: Vec<Change>) -> Vec<Change> {
    changes.sort_by(|a, b| a.path().cmp(b.path()));
    let mut out: Vec<Change> = Vec::with_capacity(changes.len());
    for change in changes {
        if let Some(last) = out.last_mut() {
            if last.path() == change.path() {
                if let (
                    Change::Added(_) | Change::Deleted(_),
                    Change::Added(p) | Change::Deleted(p),
                ) = (&*last, &change)
                {
                    *last = Change::Modified(p.clone());
                    continue;
                }
            }
        }
        out.push(change);
    }
    out
}
