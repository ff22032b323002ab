//! The index checks of `lexictl validate`: every `.aindex` parses, fits its token budget (its
//! authored part: the Child Map's rows are the directory's listing, not counted) and has a
//! Child Map that lists exactly what its directory holds (after the ignore layers; with what git
//! keeps out of a sparse working tree); and
//! `START_HERE.md` fits its budget.

use std::collections::BTreeSet;

use rayon::prelude::*;

use super::{budget, line_of, malformed, read_checked, Issue, Severity};
use crate::library::aindex::AIndex;
use crate::project::mirror::aindex_path;
use crate::project::walk::{self, Listings};
use crate::project::{Project, LIBRARY_DIR, START_HERE_FILE};
use crate::relpath::RelPath;
use crate::workspace::absent::Absent;
use crate::workspace::library::{Kind, Listing};

/// Check every `.aindex` of `listing`, in parallel, against the directories' contents read in one
/// walk (one listing per directory would read every sibling directory once per directory: quadratic
/// in the number of siblings).
pub(super) fn check(
    project: &Project,
    listing: &Listing,
    absent: &Absent,
    budget_tokens: usize,
) -> Vec<Issue> {
    let dirs: Vec<&str> = listing
        .files
        .iter()
        .filter_map(|entry| match &entry.kind {
            Kind::Index { dir } => Some(dir.as_str()),
            _ => None,
        })
        .collect();
    let contents = walk::list_dirs(&project.root, &project.config, dirs.iter().copied());
    dirs.par_iter()
        .flat_map(|dir| check_index(project, &contents, absent, dir, budget_tokens))
        .collect()
}

/// `START_HERE.md` against `token_budgets.start_here_tokens`.
pub(super) fn check_start_here(project: &Project, budget_tokens: usize) -> Vec<Issue> {
    let mut issues = Vec::new();
    let file = format!("{LIBRARY_DIR}/{START_HERE_FILE}");
    let text = match read_checked(project, &file) {
        Ok(text) => Some(text),
        Err(issue) => {
            issues.extend(issue);
            None
        }
    };
    if let Some(text) = text {
        budget(
            &text,
            budget_tokens,
            &file,
            "start_here_tokens",
            &mut issues,
        );
    }
    issues
}

/// What the `.aindex` budget measures: everything but the Child Map's table, which lists what the
/// directory holds and grows with it (a large directory is no warning on day one). A billboard or
/// Local Conventions an agent bloats still counts.
fn authored_part(text: &str) -> String {
    let mut out = String::new();
    let mut in_child_map = false;
    for line in text.lines() {
        if line.starts_with("## ") {
            in_child_map = line.trim() == "## Child Map";
        }
        if in_child_map && line.starts_with('|') {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// The index of project directory `dir`: parses, fits, and its Child Map matches the directory.
fn check_index(
    project: &Project,
    contents: &Listings,
    absent: &Absent,
    dir: &str,
    budget_tokens: usize,
) -> Vec<Issue> {
    let mut issues = Vec::new();
    let rel = aindex_path(dir);
    let text = match read_checked(project, &rel) {
        Ok(text) => text,
        Err(issue) => {
            issues.extend(issue);
            return issues;
        }
    };
    let index = match AIndex::parse(&rel, dir, &text) {
        Ok(index) => index,
        Err(err) => {
            issues.push(malformed(&rel, &err.to_string()));
            return issues;
        }
    };
    budget(
        &authored_part(&text),
        budget_tokens,
        &rel,
        "aindex_tokens",
        &mut issues,
    );
    if project.abs(dir).is_dir() {
        let listed: BTreeSet<String> = index.children().into_iter().map(|c| c.name).collect();
        let (mut actual, refused) = entries(contents, dir);
        // What git keeps out of the working tree is still there.
        actual.extend(absent.children(dir).iter().map(|(name, _)| name.clone()));
        if !refused.is_empty() {
            // The listing is incomplete: report the links, not a drift they cause.
            issues.extend(
                refused
                    .iter()
                    .map(|file| super::files::unreadable_ignore_file(project, file)),
            );
            return issues;
        }
        issues.extend(child_map_drift(&rel, &text, &listed, &actual));
    }
    issues
}

/// The names of what `dir` holds, after the ignore layers (and the symlinked `.lexignore` files
/// the listing did not read through).
fn entries(contents: &Listings, dir: &str) -> (BTreeSet<String>, Vec<String>) {
    let names = contents
        .children
        .get(dir)
        .into_iter()
        .flatten()
        .map(|entry| RelPath::new(&entry.rel).file_name().to_string())
        .collect();
    (names, contents.refused_for(dir))
}

/// A warning for each entry the Child Map of `rel` misses, and for each it lists that is not there.
fn child_map_drift(
    rel: &str,
    text: &str,
    listed: &BTreeSet<String>,
    actual: &BTreeSet<String>,
) -> Vec<Issue> {
    let missing = actual.difference(listed).map(|missing| Issue {
        check: "aindex-missing-child",
        severity: Severity::Warning,
        file: rel.to_string(),
        line: None,
        message: format!("the Child Map does not list {missing}"),
        hint: "run `lexictl update`".into(),
    });
    let unknown = listed.difference(actual).map(|extra| Issue {
        check: "aindex-unknown-child",
        severity: Severity::Warning,
        file: rel.to_string(),
        line: line_of(text, &format!("`{extra}")),
        message: format!("the Child Map lists {extra}, which does not exist"),
        hint: "run `lexictl update`".into(),
    });
    missing.chain(unknown).collect()
}
