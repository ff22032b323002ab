//! Setting Stack vote counts from their history once it is complete (`library::votes`): what
//! `lexictl notes sync` does after merging the notes — the moment other clones' votes arrive — and
//! what `lexictl validate --fix` does for `stack-votes-mismatch`.
//!
//! Only counts whose history is complete are touched, so a score is never lowered (or raised) from
//! a history that lacks votes. The posts are rewritten under the `stack` lock that every Stack
//! write holds, atomically; nothing else in them changes.

use anyhow::Context as _;

use crate::git::notes::STACK_NOTES;
use crate::git::GitRepo;
use crate::library::events::StackEvent;
use crate::library::stack::{anchor_text, id_from_file_name, Post, STACK_DIR};
use crate::library::votes::{tally, Tally};
use crate::project::{Project, LIBRARY_DIR};
use crate::workspace::lock::LibraryLock;

/// One count that was set from its history.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Reconciled {
    /// `ST-001`.
    pub post: String,
    /// `None` for the post's own `votes`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<u32>,
    /// The project-relative post file.
    pub file: String,
    pub from: i64,
    pub to: i64,
}

impl Reconciled {
    /// `ST-001 votes 4 → 5` / `ST-001 A2 votes 1 → 2`.
    pub fn describe(&self) -> String {
        let what = match self.answer {
            None => self.post.clone(),
            Some(number) => format!("{} A{number}", self.post),
        };
        format!("{what} votes {} → {}", self.from, self.to)
    }
}

/// Set every vote count of every post whose history in `git`'s notes is complete and disagrees.
pub fn reconcile(project: &Project, git: &GitRepo) -> anyhow::Result<Vec<Reconciled>> {
    let dir = project.library_dir().join(STACK_DIR);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Ok(Vec::new());
    };
    let _lock = LibraryLock::acquire_named(project, "stack")?;
    let mut names: Vec<String> = entries
        .flatten()
        .filter_map(|entry| entry.file_name().to_str().map(str::to_string))
        .filter(|name| id_from_file_name(name).is_some())
        .collect();
    names.sort();
    let mut done = Vec::new();
    for name in names {
        let rel = format!("{LIBRARY_DIR}/{STACK_DIR}/{name}");
        let path = dir.join(&name);
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let Ok(mut post) = Post::parse(&rel, &text) else {
            continue;
        };
        let anchor = git.blob_id(anchor_text(&post.meta.id).as_bytes())?;
        let note = git.note(STACK_NOTES, &anchor)?.unwrap_or_default();
        let (events, _) = StackEvent::read_note(&note);
        let changed = reconcile_post(&mut post, &events, &rel);
        if !changed.is_empty() {
            crate::atomic::write(&path, post.render().as_bytes())
                .with_context(|| format!("cannot write {rel}"))?;
            done.extend(changed);
        }
    }
    Ok(done)
}

/// Set the post's counts (its own and its answers') from `events` where the history is complete.
fn reconcile_post(post: &mut Post, events: &[StackEvent], file: &str) -> Vec<Reconciled> {
    let id = post.meta.id.clone();
    let listed: Vec<u32> = post.meta.answer_votes.keys().copied().collect();
    let mut answers = listed.clone();
    answers.extend(events.iter().filter_map(|event| event.answer));
    answers.sort_unstable();
    answers.dedup();
    let mut changed = Vec::new();
    for answer in std::iter::once(None).chain(answers.into_iter().map(Some)) {
        let count = match answer {
            None => &mut post.meta.votes,
            Some(number) => post.meta.answer_votes.entry(number).or_insert(0),
        };
        if let Tally::Complete { net } = tally(events, answer, *count) {
            if net != *count {
                changed.push(Reconciled {
                    post: id.clone(),
                    answer,
                    file: file.to_string(),
                    from: *count,
                    to: net,
                });
                *count = net;
            }
        }
    }
    // Answers looked at only because they have events keep no `0` entry they did not have.
    post.meta
        .answer_votes
        .retain(|number, votes| *votes != 0 || listed.contains(number));
    changed
}
