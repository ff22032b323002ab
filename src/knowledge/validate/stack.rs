//! The Stack checks of `lexictl validate`: every post parses, no two posts share an id, its
//! wikilinks, files and concepts exist, and (in git) its `votes` equals the net of the votes its
//! history in the notes records.

use std::collections::BTreeMap;

use super::{line_of, malformed, Issue, Library, Severity};
use crate::git::notes::STACK_NOTES;
use crate::git::GitRepo;
use crate::knowledge::corpus::{Doc, DocKind};
use crate::knowledge::stack::{net_votes, recorded_events};
use crate::library::stack::id_from_file_name;

/// Check every post; `git` (when the project is in a repository) holds the vote history.
pub(super) fn check(library: &Library<'_>, git: Option<&GitRepo>) -> Vec<Issue> {
    let mut issues = Vec::new();
    let mut by_id: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for doc in library.corpus.of_kind(DocKind::Stack) {
        let file = library.shown(&doc.path);
        let name = doc.path.rsplit('/').next().unwrap_or(&doc.path);
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
        }
    }
    issues.extend(duplicate_ids(by_id));
    issues
}

/// The files and concepts the post refers to exist.
fn check_refs(library: &Library<'_>, doc: &Doc, file: &str, issues: &mut Vec<Issue>) {
    for path in &doc.files {
        if !library.project.abs(path).exists() {
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

/// A warning when the post's `votes` differs from the net of its recorded votes (none when the
/// history cannot be read).
fn votes_mismatch(library: &Library<'_>, git: &GitRepo, doc: &Doc, file: &str) -> Option<Issue> {
    let (events, _) = recorded_events(git, &doc.name).ok()?;
    let net = net_votes(&events, None);
    if net == doc.votes {
        return None;
    }
    let text = library.project.read_to_string(&library.shown(&doc.path));
    Some(Issue {
        check: "stack-votes-mismatch",
        severity: Severity::Warning,
        file: file.to_string(),
        line: line_of(&text.unwrap_or_default(), "votes:"),
        message: format!(
            "{} says votes: {} but its history in {STACK_NOTES} adds up to {net}",
            doc.name, doc.votes
        ),
        hint: "vote with `lexi stack vote` (not by editing the frontmatter); after a merge, run `lexictl notes sync`".into(),
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
