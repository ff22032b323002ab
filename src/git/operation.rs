//! Multi-step git operations in progress in one worktree: a rebase (either backend, `git pull
//! --rebase` included), `git am`, a cherry-pick or revert (single, or a sequence between two of its
//! picks), a merge waiting for its conflicts to be resolved, a bisect.
//!
//! Git keeps their state in the per-worktree git directory, and the files are read directly (a few
//! `stat` calls, no repository opened) because the hook worker polls them while it waits for an
//! operation to end. gix's `Repository::state` misses one case that matters here: between two picks
//! of `git cherry-pick A..B` or `git revert A..B` only `sequencer/` exists (`CHERRY_PICK_HEAD` and
//! `REVERT_HEAD` are there only while a pick is stopped), and git fires post-commit for every pick.

use std::path::Path;

/// An operation that replays or combines several commits and is not finished yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Operation {
    /// `rebase-merge/` (interactive or not) or `rebase-apply/` without `applying`.
    Rebase,
    /// `rebase-apply/applying`: `git am`.
    ApplyMailbox,
    /// `sequencer/`: `git cherry-pick A..B` or `git revert A..B` between or during its picks.
    Sequence,
    /// `CHERRY_PICK_HEAD`: a cherry-pick stopped on a conflict (or with `--no-commit`).
    CherryPick,
    /// `REVERT_HEAD`: a revert stopped on a conflict.
    Revert,
    /// `MERGE_HEAD`: a merge waiting for its conflicts to be resolved and committed.
    Merge,
    /// `BISECT_START`: a bisect session.
    Bisect,
}

impl Operation {
    /// What a person would call it, for logs and messages.
    pub fn describe(self) -> &'static str {
        match self {
            Operation::Rebase => "a rebase",
            Operation::ApplyMailbox => "`git am`",
            Operation::Sequence => "a cherry-pick or revert sequence",
            Operation::CherryPick => "a cherry-pick",
            Operation::Revert => "a revert",
            Operation::Merge => "a merge",
            Operation::Bisect => "a bisect",
        }
    }
}

/// The operation in progress in the worktree whose (per-worktree) git directory is `git_dir`.
pub fn in_progress(git_dir: &Path) -> Option<Operation> {
    let exists = |name: &str| git_dir.join(name).exists();
    if exists("rebase-merge") {
        return Some(Operation::Rebase);
    }
    if exists("rebase-apply") {
        return Some(if exists("rebase-apply/applying") {
            Operation::ApplyMailbox
        } else {
            Operation::Rebase
        });
    }
    if exists("sequencer") {
        return Some(Operation::Sequence);
    }
    [
        ("CHERRY_PICK_HEAD", Operation::CherryPick),
        ("REVERT_HEAD", Operation::Revert),
        ("MERGE_HEAD", Operation::Merge),
        ("BISECT_START", Operation::Bisect),
    ]
    .into_iter()
    .find(|(name, _)| exists(name))
    .map(|(_, operation)| operation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_state_file_names_its_operation() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(in_progress(dir.path()), None);
        let cases = [
            ("BISECT_START", Operation::Bisect),
            ("MERGE_HEAD", Operation::Merge),
            ("REVERT_HEAD", Operation::Revert),
            ("CHERRY_PICK_HEAD", Operation::CherryPick),
            ("sequencer/todo", Operation::Sequence),
            ("rebase-apply/applying", Operation::ApplyMailbox),
            ("rebase-merge/interactive", Operation::Rebase),
        ];
        // Each later file wins over the earlier ones, as in git's own status.
        for (file, operation) in cases {
            let path = dir.path().join(file);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(&path, "").expect("write");
            assert_eq!(in_progress(dir.path()), Some(operation), "{file}");
        }
        std::fs::remove_file(dir.path().join("rebase-apply/applying")).expect("rm");
        std::fs::remove_dir_all(dir.path().join("rebase-merge")).expect("rm");
        assert_eq!(in_progress(dir.path()), Some(Operation::Rebase));
    }
}
