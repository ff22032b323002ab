//! Which Stack posts may be outdated (seed D-041): a post is about files (`refs.files`), and an
//! answer that was right about them may no longer be once they changed a lot. "A lot" is measured
//! from git history, from the post's commit to `HEAD`, per file:
//!
//! - its public interface changed (the `interface_hash` of `source::extract` differs), or
//! - most of it was rewritten (the lines it shares with its old self are under half:
//!   `similar`'s line diff ratio below [`REWRITE_RATIO`]).
//!
//! The post's commit is the `HEAD` its `created` event recorded in the notes, else the commit that
//! brought the post file into `HEAD`'s first-parent history. Posts already outdated or duplicates,
//! and files that did not exist then, are not judged. `lexictl validate` reports the result as
//! info (`stack-possibly-outdated`), `lexi stack view` as a warning; marking the post is the
//! agent's call (`lexi stack mark-outdated`).

use std::path::Path;

use crate::git::{GitRepo, Oid};
use crate::library::events::StackEventKind;
use crate::library::stack::{Post, PostStatus};
use crate::relpath::RelPath;
use crate::source::{extract, Language};

/// Below this share of lines kept, a file counts as mostly rewritten.
pub const REWRITE_RATIO: f32 = 0.5;
/// How far back (first parents) the post's commit is looked for.
const HISTORY_LIMIT: usize = 10_000;

/// A post whose files changed significantly since it was written.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Outdated {
    /// `ST-001`.
    pub post: String,
    /// The commit it is measured from.
    pub since: Oid,
    /// Each file that changed, with how.
    pub changes: Vec<FileChanged>,
}

/// One referenced file and how it changed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FileChanged {
    pub file: String,
    /// `its interface changed` or `most of it was rewritten`.
    pub how: &'static str,
}

impl Outdated {
    /// `src/a.rs (its interface changed), src/b.rs (most of it was rewritten)`.
    pub fn describe(&self) -> String {
        self.changes
            .iter()
            .map(|change| format!("{} ({})", change.file, change.how))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The command that marks the post.
    pub fn hint(&self) -> String {
        format!(
            "if its answers no longer hold: `lexi stack mark-outdated {} --reason \"…\"`",
            self.post
        )
    }
}

/// Whether `post` (whose file is `rel`, project-relative) may be outdated. `prefix` is the project's
/// place in the repository.
pub fn outdated(git: &GitRepo, prefix: &str, rel: &str, post: &Post) -> Option<Outdated> {
    if matches!(
        post.meta.status,
        PostStatus::Outdated | PostStatus::Duplicate
    ) || post.meta.refs.files.is_empty()
    {
        return None;
    }
    let head = git.head_commit().ok()??;
    let since = post_commit(
        git,
        &head,
        &RelPath::new(prefix).join(rel).into_string(),
        &post.meta.id,
    )?;
    if since == head {
        return None;
    }
    let changes: Vec<FileChanged> = post
        .meta
        .refs
        .files
        .iter()
        .filter_map(|file| {
            let path = RelPath::new(prefix).join(file).into_string();
            let then = git.file_at(&since, &path).ok()??;
            let now = git.file_at(&head, &path).ok()??;
            how_changed(file, &then.data, &now.data).map(|how| FileChanged {
                file: file.clone(),
                how,
            })
        })
        .collect();
    (!changes.is_empty()).then(|| Outdated {
        post: post.meta.id.clone(),
        since,
        changes,
    })
}

/// The commit a post was written at: its `created` event's `HEAD`, else the commit that added its
/// file (`path`, a repository path).
fn post_commit(git: &GitRepo, head: &Oid, path: &str, id: &str) -> Option<Oid> {
    let recorded = super::stack::recorded_events(git, id)
        .ok()
        .and_then(|(events, _)| {
            events
                .into_iter()
                .find(|event| event.kind == StackEventKind::Created)
                .and_then(|event| event.commit)
        })
        .and_then(|hex| Oid::parse(&hex).ok())
        .filter(|commit| git.has_commit(commit));
    recorded.or_else(|| git.introducing_commit(head, path, HISTORY_LIMIT).ok()?)
}

/// How a file changed between two versions, when significantly.
fn how_changed(file: &str, then: &[u8], now: &[u8]) -> Option<&'static str> {
    if then == now {
        return None;
    }
    let (then, now) = (String::from_utf8_lossy(then), String::from_utf8_lossy(now));
    if let Some(language) = Language::from_path(Path::new(file)) {
        if let (Ok(before), Ok(after)) = (extract(language, &then), extract(language, &now)) {
            if before.hash() != after.hash() {
                return Some("its interface changed");
            }
        }
    }
    let kept = similar::TextDiff::from_lines(then.as_ref(), now.as_ref()).ratio();
    (kept < REWRITE_RATIO).then_some("most of it was rewritten")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interface_change_or_a_rewrite_counts_and_a_small_edit_does_not() {
        let base = "pub fn a() {}\n\nfn helper() {\n    1;\n    2;\n    3;\n}\n";
        let small = base.replace("    2;", "    20;");
        assert_eq!(
            how_changed("src/a.rs", base.as_bytes(), small.as_bytes()),
            None
        );
        let signature = base.replace("pub fn a()", "pub fn a(x: u8)");
        assert_eq!(
            how_changed("src/a.rs", base.as_bytes(), signature.as_bytes()),
            Some("its interface changed")
        );
        let rewritten =
            "pub fn a() {}\n\nfn other() {\n    let x = 9;\n    x + 1;\n    x * 2;\n}\n";
        assert_eq!(
            how_changed("src/a.rs", base.as_bytes(), rewritten.as_bytes()),
            Some("most of it was rewritten")
        );
        assert_eq!(
            how_changed("notes.txt", b"one\ntwo\nthree\n", b"uno\ndos\ntres\n"),
            Some("most of it was rewritten")
        );
    }
}
