//! The concept checks of `lexictl validate`: every concept parses, its wikilinks resolve, it has
//! the D-029 fields and a Summary, it fits its token budget, a deprecated one names its successor,
//! and something links to it.

use std::collections::BTreeSet;

use super::{budget, malformed, Issue, Library, Severity};
use crate::knowledge::concepts::Resolved;
use crate::knowledge::corpus::{Doc, DocKind};
use crate::library::concept::Concept;

/// Check every concept.
pub(super) fn check(library: &Library<'_>) -> Vec<Issue> {
    let inbound = linked_concepts(library);
    let mut issues = Vec::new();
    for doc in library.corpus.of_kind(DocKind::Concept) {
        check_concept(library, doc, &inbound, &mut issues);
    }
    issues
}

/// The names of the concepts something else links to or references.
fn linked_concepts(library: &Library<'_>) -> BTreeSet<String> {
    let mut inbound = BTreeSet::new();
    for doc in &library.corpus.docs {
        for link in &doc.links {
            if let Resolved::Concept { name, .. } = library.resolver.resolve(link) {
                // A concept linking to itself does not count.
                if doc.name != name || doc.kind != Some(DocKind::Concept) {
                    inbound.insert(name);
                }
            }
        }
        for concept in &doc.concepts {
            if let Some(found) = library.resolver.concept(concept) {
                inbound.insert(found.name.clone());
            }
        }
    }
    inbound
}

/// One concept: parses, links, text, successor, something links to it.
fn check_concept(
    library: &Library<'_>,
    doc: &Doc,
    inbound: &BTreeSet<String>,
    issues: &mut Vec<Issue>,
) {
    let file = library.shown(&doc.path);
    if let Some(error) = &doc.error {
        issues.push(malformed(&file, error));
        return;
    }
    library.check_links(doc.links.iter(), &file, issues);
    if let Ok(text) = library.project.read_library_text(&file) {
        check_text(library, doc, &file, &text, issues);
    }
    if doc.status == "deprecated" && doc.pointer.is_empty() {
        issues.push(Issue {
            check: "deprecated-without-successor",
            severity: Severity::Warning,
            file: file.clone(),
            line: Some(1),
            message: format!("{} is deprecated but names no successor", doc.name),
            hint: "add `superseded_by: <Concept>` to its frontmatter".into(),
        });
    }
    if !inbound.contains(&doc.name) {
        issues.push(Issue {
            check: "orphan-concept",
            severity: Severity::Warning,
            file,
            line: None,
            message: format!("nothing links to [[{}]]", doc.name),
            hint: "link it from the design files it governs (`lexi concept link <file> <Concept>`) or deprecate it".into(),
        });
    }
}

/// What the concept's text misses (D-029), and its budget.
fn check_text(library: &Library<'_>, doc: &Doc, file: &str, text: &str, issues: &mut Vec<Issue>) {
    if let Ok(concept) = Concept::parse(file, &doc.name, text) {
        for problem in concept.problems() {
            issues.push(Issue {
                check: "concept-incomplete",
                severity: Severity::Warning,
                file: file.to_string(),
                line: Some(1),
                message: problem,
                hint: "concepts need title, aliases, tags, status and a Summary (D-029)".into(),
            });
        }
    }
    let limit = library.project.config.token_budgets.concept_file_tokens as usize;
    budget(text, limit, file, "concept_file_tokens", issues);
}
