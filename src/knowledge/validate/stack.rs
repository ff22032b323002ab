//! The Stack checks of `lexictl validate`: every post parses, no two posts share an id, its
//! wikilinks, files and concepts exist, and (in git) its vote counts agree with the votes its
//! history in the notes records — reported only as far as the history explains the difference
//! (`library::votes`) — and (info) whether the files it is about changed a lot since it was written
//! (`knowledge::stack_outdated`).

use std::collections::{BTreeMap, BTreeSet};

use super::{line_of, malformed, Issue, Library, Severity};
use crate::git::notes::STACK_NOTES;
use crate::git::GitRepo;
use crate::knowledge::corpus::{Doc, DocKind};
use crate::knowledge::stack::recorded_events;
use crate::library::stack::{id_from_file_name, Post};
use crate::library::votes::{tally, Tally};
use crate::relpath::RelPath;

/// Check every post; `git` (when the project is in a repository) holds the vote history.
pub(super) fn check(library: &Library<'_>, git: Option<&GitRepo>) -> Vec<Issue> {
    let mut issues = Vec::new();
    let mut by_id: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for doc in library.corpus.of_kind(DocKind::Stack) {
        let file = library.shown(&doc.path);
        let name = RelPath::new(&doc.path).file_name();
        if let Some(id) = id_from_file_name(name) {
            by_id.entry(id).or_default().push(file.clone());
        }
        if let Some(error) = &doc.error {
            issues.push(malformed(&file, error));
            continue;
        }
        library.check_links(doc.links.iter(), &file, &mut issues);
        check_refs(library, doc, &file, &mut issues);
        if let Some(git) = git {
            issues.extend(votes_mismatch(library, git, doc, &file));
            issues.extend(possibly_outdated(library, git, doc, &file));
        }
    }
    issues.extend(duplicate_ids(by_id));
    issues
}

/// The files and concepts the post refers to exist.
fn check_refs(library: &Library<'_>, doc: &Doc, file: &str, issues: &mut Vec<Issue>) {
    for path in &doc.files {
        let text = || library.project.read_library_text(file).unwrap_or_default();
        let Some(exists) = library.path_exists(path) else {
            issues.push(super::designs::invalid_path(
                file,
                &text(),
                "refs.files",
                path,
            ));
            continue;
        };
        if !exists {
            issues.push(Issue {
                check: "stack-missing-ref",
                severity: Severity::Error,
                file: file.to_string(),
                line: None,
                message: format!("{} refers to {path}, which does not exist", doc.name),
                hint: "fix refs.files, or mark the post outdated (`lexi stack mark-outdated`)"
                    .into(),
            });
        }
    }
    for concept in &doc.concepts {
        if library.resolver.concept(concept).is_none() {
            issues.push(Issue {
                check: "stack-missing-ref",
                severity: Severity::Error,
                file: file.to_string(),
                line: None,
                message: format!(
                    "{} refers to the concept {concept}, which does not exist",
                    doc.name
                ),
                hint: "fix refs.concepts or create the concept".into(),
            });
        }
    }
}

/// Each count of the post (its `votes`, each answer's) that its history in the notes disagrees
/// with, explained: with a complete history the count is wrong (a warning `--fix` and `notes sync`
/// repair); with an incomplete one the notes here lack other clones' votes (info, until they are
/// fetched). Nothing when the history cannot be read.
fn votes_mismatch(library: &Library<'_>, git: &GitRepo, doc: &Doc, file: &str) -> Vec<Issue> {
    let Ok((events, _)) = recorded_events(git, &doc.name) else {
        return Vec::new();
    };
    let text = library
        .project
        .read_library_text(&library.shown(&doc.path))
        .unwrap_or_default();
    let Ok(post) = Post::parse(file, &text) else {
        return Vec::new();
    };
    let mut counts = vec![(None, post.meta.votes)];
    let mut answers: BTreeSet<u32> = post.meta.answer_votes.keys().copied().collect();
    answers.extend(events.iter().filter_map(|event| event.answer));
    for answer in answers {
        let count = post.meta.answer_votes.get(&answer).copied().unwrap_or(0);
        counts.push((Some(answer), count));
    }
    counts
        .into_iter()
        .filter_map(|(answer, count)| {
            let tally = tally(&events, answer, count);
            (tally.net() != count).then(|| vote_issue(&doc.name, answer, count, tally, file, &text))
        })
        .collect()
}

/// The finding for one count that disagrees with its history.
fn vote_issue(
    id: &str,
    answer: Option<u32>,
    count: i64,
    tally: Tally,
    file: &str,
    text: &str,
) -> Issue {
    let (what, key) = match answer {
        None => (id.to_string(), "votes:".to_string()),
        Some(number) => (format!("{id} A{number}"), "answer_votes:".to_string()),
    };
    let (check, severity, message, hint) = match tally {
        Tally::Complete { net } => (
            "stack-votes-mismatch",
            Severity::Warning,
            format!(
                "{what} counts {count} votes but its history in {STACK_NOTES} adds up to {net}; the history is complete, so the count is wrong (votes cast in two clones at once, merged as one, or an edit of the frontmatter)"
            ),
            "`lexictl validate --fix` (or `lexictl notes sync`) sets it from the history".to_string(),
        ),
        Tally::Incomplete { net } => (
            "stack-history-incomplete",
            Severity::Info,
            format!(
                "{what} counts {count} votes; the notes here record votes adding up to {net} and lack others (cast in clones whose notes have not been fetched), so the count is kept"
            ),
            "`lexictl notes sync` fetches them (if it already ran here, the votes were cast in a clone that has not run it)".to_string(),
        ),
    };
    Issue {
        check,
        severity,
        file: file.to_string(),
        line: line_of(text, &key),
        message,
        hint,
    }
}

/// Info when the files the post is about changed significantly since it was written
/// (`knowledge::stack_outdated`).
fn possibly_outdated(library: &Library<'_>, git: &GitRepo, doc: &Doc, file: &str) -> Option<Issue> {
    let text = library.project.read_library_text(file).ok()?;
    let post = Post::parse(file, &text).ok()?;
    let prefix = git.prefix_of(&library.project.root)?;
    let outdated = crate::knowledge::stack_outdated::outdated(git, &prefix, file, &post)?;
    Some(Issue {
        check: "stack-possibly-outdated",
        severity: Severity::Info,
        file: file.to_string(),
        line: None,
        message: format!(
            "{} may be outdated: since it was written (commit {}), {}",
            doc.name,
            outdated.since.short(),
            outdated.describe()
        ),
        hint: outdated.hint(),
    })
}

/// An error on each of the posts that share an id (from their file names).
fn duplicate_ids(by_id: BTreeMap<String, Vec<String>>) -> Vec<Issue> {
    let mut issues = Vec::new();
    for (id, files) in by_id.into_iter().filter(|(_, files)| files.len() > 1) {
        for file in &files {
            issues.push(Issue {
                check: "duplicate-stack-id",
                severity: Severity::Error,
                file: file.clone(),
                line: Some(2),
                message: format!(
                    "{id} is used by {} posts: {}",
                    files.len(),
                    files.join(", ")
                ),
                hint: "renumber one of them (file name and `id:`) and fix links to it".into(),
            });
        }
    }
    issues
}
