//! `lexictl validate`: read-only consistency checks over the whole library (seed §7 "Validation
//! pipeline", D-045, D-047).
//!
//! Every finding has a stable check id, a severity tier, the file (and line when known), a message and
//! a hint. The tiers follow D-045: **error** — broken references, missing files, malformed files,
//! secrets; **warning** — drift: stale hashes, token budgets, orphan or incomplete concepts, Child Maps
//! out of date, Stack scores that disagree with their history; **info** — hygiene: dependency lists
//! that are not mirrored by the other side's Dependents.
//!
//! Nothing here writes: fixes come from `lexictl update`, agents, or humans.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use rayon::prelude::*;

use super::concepts::{Resolved, Resolver};
use super::corpus::{Corpus, DocKind, Kinds};
use super::secrets;
use crate::git::notes::STACK_NOTES;
use crate::hash::sha256_hex;
use crate::library::aindex::AIndex;
use crate::library::concept::Concept;
use crate::library::design_file::{sections, DesignFile};
use crate::library::footer::OVER_SCOPED_KEY;
use crate::library::markdown::list_items;
use crate::library::stack::id_from_file_name;
use crate::library::wikilink;
use crate::project::mirror::aindex_path;
use crate::project::walk;
use crate::project::{Project, CACHE_DIR, LIBRARY_DIR};
use crate::workspace::library::{walk, Kind, Listing, Part};
use crate::workspace::state::ValidationRecord;
use crate::workspace::Workspace;

/// D-045's tiers, most severe last (so `>=` compares).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// One finding.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Issue {
    /// Stable id, e.g. `broken-wikilink`.
    pub check: &'static str,
    pub severity: Severity,
    /// Project-relative path of the file the finding is about.
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    pub message: String,
    pub hint: String,
}

/// Every check id with its severity, for docs and `--help`.
pub const CHECKS: &[(&str, Severity, &str)] = &[
    (
        "malformed-file",
        Severity::Error,
        "frontmatter, footer or Stack post that does not parse",
    ),
    (
        "broken-wikilink",
        Severity::Error,
        "[[link]] to no concept or Stack post",
    ),
    (
        "missing-dependency",
        Severity::Error,
        "a Dependencies entry that does not exist",
    ),
    (
        "missing-test",
        Severity::Error,
        "a Tests entry that does not exist",
    ),
    (
        "stack-missing-ref",
        Severity::Error,
        "a Stack post referencing a missing file or concept",
    ),
    (
        "duplicate-stack-id",
        Severity::Error,
        "two Stack posts with the same id",
    ),
    (
        "secret",
        Severity::Error,
        "something that looks like a credential under .lexibrary/",
    ),
    (
        "stale-source",
        Severity::Warning,
        "the source changed since the design file's source_hash",
    ),
    (
        "stale-interface",
        Severity::Warning,
        "the source's public interface changed since interface_hash",
    ),
    (
        "missing-source",
        Severity::Warning,
        "a design file whose source file is gone",
    ),
    (
        "over-budget",
        Severity::Warning,
        "an artifact over its token budget (cl100k tokens)",
    ),
    (
        "over-scoped",
        Severity::Warning,
        "the Archivist flagged the source as doing too much",
    ),
    (
        "orphan-concept",
        Severity::Warning,
        "a concept nothing links to",
    ),
    (
        "deprecated-without-successor",
        Severity::Warning,
        "a deprecated concept without superseded_by",
    ),
    (
        "concept-incomplete",
        Severity::Warning,
        "a concept missing a D-029 field or a Summary",
    ),
    (
        "aindex-missing-child",
        Severity::Warning,
        "a Child Map that misses a file or directory",
    ),
    (
        "aindex-unknown-child",
        Severity::Warning,
        "a Child Map listing something that does not exist",
    ),
    (
        "stack-votes-mismatch",
        Severity::Warning,
        "a post's votes differ from its history in git notes",
    ),
    (
        "dependents-gap",
        Severity::Info,
        "A depends on B but B's Dependents does not list A",
    ),
];

/// The validation result.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Report {
    pub issues: Vec<Issue>,
    /// Files examined, by kind.
    pub checked: BTreeMap<&'static str, usize>,
}

impl Report {
    /// Counts by severity.
    pub fn counts(&self) -> BTreeMap<Severity, usize> {
        let mut counts = BTreeMap::new();
        for issue in &self.issues {
            *counts.entry(issue.severity).or_insert(0) += 1;
        }
        counts
    }
}

/// Remember `report`'s counts in the state file, for `lexictl status`. Best effort: a read-only
/// checkout just has no record.
pub fn remember(ws: &Workspace, report: &Report) {
    let counts = report.counts();
    let count = |severity| counts.get(&severity).copied().unwrap_or(0);
    let record = ValidationRecord::now(
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
    );
    let _ = ws.state().edit(|state| state.validation = Some(record));
}

/// Run every check. Reads the library, the sources it documents and (for Stack votes) git notes.
pub fn validate(ws: &Workspace) -> Report {
    let project = ws.project();
    // Counting tokens is the slow part; counts are remembered by content between runs.
    let token_cache_path = project.library_dir().join(CACHE_DIR).join("token-counts");
    let _ = TOKEN_CACHE.set(crate::tokens::CountCache::load(&token_cache_path));
    let report = validate_with_cache(ws);
    token_cache().save(&token_cache_path);
    report
}

fn validate_with_cache(ws: &Workspace) -> Report {
    let project = ws.project();
    let listing = walk(&project.library_dir(), Part::ALL);
    let corpus = Corpus::from_listing(
        project,
        &listing,
        Kinds {
            designs: true,
            knowledge: true,
            design_bodies: false,
        },
    );
    let resolver = Resolver::new(&corpus);
    let mut issues: Vec<Issue> = Vec::new();
    let library = format!("{LIBRARY_DIR}/");
    let budgets = &project.config.token_budgets;

    // Design files: parse, wikilinks, dependencies, tests, staleness, budgets.
    let designs: Vec<&super::corpus::Doc> = corpus.of_kind(DocKind::Design).collect();
    let design_results: Vec<(Vec<Issue>, Option<Graph>)> = designs
        .par_iter()
        .map(|doc| check_design(project, doc, &resolver, budgets.design_file_tokens as usize))
        .collect();
    let mut dependencies: HashMap<String, Vec<String>> = HashMap::new();
    let mut dependents: HashMap<String, Vec<String>> = HashMap::new();
    for (found, graph) in design_results {
        issues.extend(found);
        if let Some((source, deps, users)) = graph {
            dependencies.insert(source.clone(), deps);
            dependents.insert(source, users);
        }
    }
    // Bidirectional consistency (info): A lists B, B's Dependents should list A.
    for (source, deps) in &dependencies {
        for dep in deps {
            if let Some(users) = dependents.get(dep) {
                if !users.contains(source) {
                    issues.push(Issue {
                        check: "dependents-gap",
                        severity: Severity::Info,
                        file: format!("{library}{dep}.md"),
                        line: None,
                        message: format!(
                            "{source} depends on {dep}, but {dep}'s Dependents does not list it"
                        ),
                        hint: "run `lexictl update` to refresh Dependents".into(),
                    });
                }
            }
        }
    }

    // Concepts: parse problems, links, deprecation, orphans.
    let mut inbound: BTreeSet<String> = BTreeSet::new();
    for doc in &corpus.docs {
        for link in &doc.links {
            if let Resolved::Concept { name, .. } = resolver.resolve(link) {
                if doc.name != name || doc.kind != Some(DocKind::Concept) {
                    inbound.insert(name);
                }
            }
        }
        for concept in &doc.concepts {
            if let Some(found) = resolver.concept(concept) {
                inbound.insert(found.name.clone());
            }
        }
    }
    for doc in corpus.of_kind(DocKind::Concept) {
        let file = format!("{library}{}", doc.path);
        if let Some(error) = &doc.error {
            issues.push(malformed(&file, error));
            continue;
        }
        check_links(project, &resolver, doc.links.iter(), &file, &mut issues);
        if let Ok(text) = std::fs::read_to_string(project.library_dir().join(&doc.path)) {
            if let Ok(concept) = Concept::parse(&file, &doc.name, &text) {
                for problem in concept.problems() {
                    issues.push(Issue {
                        check: "concept-incomplete",
                        severity: Severity::Warning,
                        file: file.clone(),
                        line: Some(1),
                        message: problem,
                        hint: "concepts need title, aliases, tags, status and a Summary (D-029)"
                            .into(),
                    });
                }
            }
            budget(
                &text,
                budgets.concept_file_tokens as usize,
                &file,
                "concept_file_tokens",
                &mut issues,
            );
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

    // Stack posts: parse, duplicate ids, refs, links, votes against history.
    check_stack(ws, &corpus, &resolver, &mut issues);

    // .aindex Child Maps and budgets; START_HERE budget.
    issues.extend(check_indexes(
        project,
        &listing,
        budgets.aindex_tokens as usize,
    ));
    if let Ok(text) = std::fs::read_to_string(project.library_dir().join("START_HERE.md")) {
        budget(
            &text,
            budgets.start_here_tokens as usize,
            &format!("{library}START_HERE.md"),
            "start_here_tokens",
            &mut issues,
        );
    }

    // Secrets anywhere under .lexibrary/ (derived caches excluded).
    issues.extend(secrets::scan_library(project, &listing));

    issues.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.file.cmp(&b.file))
            .then_with(|| a.line.cmp(&b.line))
            .then_with(|| a.check.cmp(b.check))
    });
    issues.dedup();
    let mut checked = BTreeMap::new();
    checked.insert("design_files", designs.len());
    checked.insert("concepts", corpus.of_kind(DocKind::Concept).count());
    checked.insert("stack_posts", corpus.of_kind(DocKind::Stack).count());
    Report { issues, checked }
}

/// A design file's source, its Dependencies and its Dependents, for the bidirectional check.
type Graph = (String, Vec<String>, Vec<String>);

fn check_design(
    project: &Project,
    doc: &super::corpus::Doc,
    resolver: &Resolver<'_>,
    design_budget: usize,
) -> (Vec<Issue>, Option<Graph>) {
    let mut issues = Vec::new();
    let file = format!("{LIBRARY_DIR}/{}", doc.path);
    let source = doc.name.clone();
    let Ok(text) = std::fs::read_to_string(project.library_dir().join(&doc.path)) else {
        return (issues, None);
    };
    let design = match DesignFile::parse(&file, &text) {
        Ok(design) => design,
        Err(err) => {
            issues.push(malformed(&file, &err.to_string()));
            return (issues, None);
        }
    };
    check_links(project, resolver, doc.links.iter(), &file, &mut issues);
    let listed = |heading: &str| -> Vec<String> {
        design
            .section(heading)
            .map(|section| {
                list_items(&section.body)
                    .into_iter()
                    .map(|item| item.trim_matches('`').trim().to_string())
                    .filter(|item| !item.is_empty() && !item.starts_with('('))
                    .collect()
            })
            .unwrap_or_default()
    };
    let deps: Vec<String> = listed(sections::DEPENDENCIES);
    let users: Vec<String> = listed(sections::DEPENDENTS);
    for (check, heading, items) in [
        ("missing-dependency", sections::DEPENDENCIES, &deps),
        ("missing-test", sections::TESTS, &listed(sections::TESTS)),
    ] {
        for item in items.iter() {
            // Only project paths are checked; package names (`serde`, `os`) are not files.
            if !item.contains('/') && !item.contains('.') {
                continue;
            }
            let path = item.split_whitespace().next().unwrap_or(item);
            if !project.abs(path).exists() {
                issues.push(Issue {
                    check,
                    severity: Severity::Error,
                    file: file.clone(),
                    line: line_of(&text, path),
                    message: format!("{heading} lists {path}, which does not exist"),
                    hint: "run `lexictl update` to refresh the section, or fix the entry".into(),
                });
            }
        }
    }
    match std::fs::read(project.abs(&source)) {
        Err(_) => issues.push(Issue {
            check: "missing-source",
            severity: Severity::Warning,
            file: file.clone(),
            line: None,
            message: format!("{source} does not exist"),
            hint: "run `lexictl update` (it removes design files of deleted sources unless they hold hand-written content)".into(),
        }),
        Ok(bytes) => {
            if let Some(footer) = &design.footer {
                if sha256_hex(&bytes) != footer.source_hash {
                    let interface_changed = footer.interface_hash.as_ref().and_then(|recorded| {
                        let language = crate::source::Language::from_path(std::path::Path::new(&source))?;
                        let text = String::from_utf8_lossy(&bytes);
                        let interface = crate::source::extract(language, &text).ok()?;
                        Some(&interface.hash() != recorded)
                    });
                    let (check, what) = if interface_changed == Some(true) {
                        ("stale-interface", "its public interface changed")
                    } else {
                        ("stale-source", "it changed")
                    };
                    issues.push(Issue {
                        check,
                        severity: Severity::Warning,
                        file: file.clone(),
                        line: Some(crate::library::footer::footer_line(&text)),
                        message: format!("{source}: {what} since the design file was last updated"),
                        hint: format!("run `lexictl update {source}`, or update the design file and its footer by hand"),
                    });
                }
                if let Some(value) = footer.extra.get(OVER_SCOPED_KEY) {
                    issues.push(Issue {
                        check: "over-scoped",
                        severity: Severity::Warning,
                        file: file.clone(),
                        line: Some(crate::library::footer::footer_line(&text)),
                        message: format!("{source}: the Archivist's description was {value} tokens; the file may do too much"),
                        hint: "consider splitting the source file".into(),
                    });
                }
            }
        }
    }
    let content = crate::library::footer::split(&text).0;
    budget(
        content,
        design_budget,
        &file,
        "design_file_tokens",
        &mut issues,
    );
    (issues, Some((source, deps, users)))
}

fn check_links<'a>(
    project: &Project,
    resolver: &Resolver<'_>,
    links: impl Iterator<Item = &'a String>,
    file: &str,
    issues: &mut Vec<Issue>,
) {
    for link in links {
        if let Resolved::Missing { target } = resolver.resolve(link) {
            let hint = if wikilink::stack_id(&target).is_some() {
                "no such Stack post; `lexi stack list` shows the ids".to_string()
            } else {
                format!(
                    "create it (`lexi concept new {}`) or fix the link",
                    target.replace(' ', "")
                )
            };
            issues.push(Issue {
                check: "broken-wikilink",
                severity: Severity::Error,
                file: file.to_string(),
                // `file` is project-relative: read it from the project, not the current directory.
                line: std::fs::read_to_string(project.abs(file))
                    .ok()
                    .and_then(|text| line_of(&text, &format!("[[{link}"))),
                message: format!("[[{link}]] does not resolve"),
                hint,
            });
        }
    }
}

fn check_stack(ws: &Workspace, corpus: &Corpus, resolver: &Resolver<'_>, issues: &mut Vec<Issue>) {
    let project = ws.project();
    let git = ws.repo_if_any();
    let mut by_id: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for doc in corpus.of_kind(DocKind::Stack) {
        let file = format!("{LIBRARY_DIR}/{}", doc.path);
        let name = doc.path.rsplit('/').next().unwrap_or(&doc.path);
        if let Some(id) = id_from_file_name(name) {
            by_id.entry(id).or_default().push(file.clone());
        }
        if let Some(error) = &doc.error {
            issues.push(malformed(&file, error));
            continue;
        }
        check_links(project, resolver, doc.links.iter(), &file, issues);
        for path in &doc.files {
            if !project.abs(path).exists() {
                issues.push(Issue {
                    check: "stack-missing-ref",
                    severity: Severity::Error,
                    file: file.clone(),
                    line: None,
                    message: format!("{} refers to {path}, which does not exist", doc.name),
                    hint: "fix refs.files, or mark the post outdated (`lexi stack mark-outdated`)"
                        .into(),
                });
            }
        }
        for concept in &doc.concepts {
            if resolver.concept(concept).is_none() {
                issues.push(Issue {
                    check: "stack-missing-ref",
                    severity: Severity::Error,
                    file: file.clone(),
                    line: None,
                    message: format!(
                        "{} refers to the concept {concept}, which does not exist",
                        doc.name
                    ),
                    hint: "fix refs.concepts or create the concept".into(),
                });
            }
        }
        if let Some(git) = git {
            if let Ok((events, _)) = super::stack::recorded_events(git, &doc.name) {
                let net = super::stack::net_votes(&events, None);
                if net != doc.votes {
                    issues.push(Issue {
                        check: "stack-votes-mismatch",
                        severity: Severity::Warning,
                        file: file.clone(),
                        line: line_of(&std::fs::read_to_string(project.library_dir().join(&doc.path)).unwrap_or_default(), "votes:"),
                        message: format!("{} says votes: {} but its history in {STACK_NOTES} adds up to {net}", doc.name, doc.votes),
                        hint: "vote with `lexi stack vote` (not by editing the frontmatter); after a merge, run `lexictl notes sync`".into(),
                    });
                }
            }
        }
    }
    for (id, files) in by_id {
        if files.len() > 1 {
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
    }
}

/// Child Maps against the directories they describe, and `.aindex` budgets.
fn check_indexes(project: &Project, listing: &Listing, aindex_budget: usize) -> Vec<Issue> {
    let files: Vec<&str> = listing
        .files
        .iter()
        .filter_map(|entry| match &entry.kind {
            Kind::Index { dir } => Some(dir.as_str()),
            _ => None,
        })
        .collect();
    files
        .par_iter()
        .flat_map(|dir| {
            let mut issues = Vec::new();
            let rel = aindex_path(dir);
            let Ok(text) = std::fs::read_to_string(project.abs(&rel)) else {
                return issues;
            };
            let index = match AIndex::parse(&rel, dir, &text) {
                Ok(index) => index,
                Err(err) => {
                    issues.push(malformed(&rel, &err.to_string()));
                    return issues;
                }
            };
            budget(&text, aindex_budget, &rel, "aindex_tokens", &mut issues);
            let listed: BTreeSet<String> = index
                .children()
                .into_iter()
                .map(|child| child.name)
                .collect();
            if !project.abs(dir).is_dir() {
                return issues;
            }
            let actual: BTreeSet<String> = walk::list_dir(&project.root, &project.config, dir)
                .entries
                .into_iter()
                .map(|entry| {
                    entry
                        .rel
                        .rsplit('/')
                        .next()
                        .unwrap_or(&entry.rel)
                        .to_string()
                })
                .collect();
            for missing in actual.difference(&listed) {
                issues.push(Issue {
                    check: "aindex-missing-child",
                    severity: Severity::Warning,
                    file: rel.clone(),
                    line: None,
                    message: format!("the Child Map does not list {missing}"),
                    hint: "run `lexictl update`".into(),
                });
            }
            for extra in listed.difference(&actual) {
                issues.push(Issue {
                    check: "aindex-unknown-child",
                    severity: Severity::Warning,
                    file: rel.clone(),
                    line: line_of(&text, &format!("`{extra}")),
                    message: format!("the Child Map lists {extra}, which does not exist"),
                    hint: "run `lexictl update`".into(),
                });
            }
            issues
        })
        .collect()
}

/// Token counts by content, shared by the parallel checks of one run.
fn token_cache() -> &'static crate::tokens::CountCache {
    TOKEN_CACHE.get_or_init(crate::tokens::CountCache::default)
}

static TOKEN_CACHE: std::sync::OnceLock<crate::tokens::CountCache> = std::sync::OnceLock::new();

/// An over-budget finding if `text` has more cl100k tokens than `limit` (0 = no limit). Texts too
/// short to possibly exceed the limit are not tokenised (a token is at least one byte).
fn budget(text: &str, limit: usize, file: &str, key: &str, issues: &mut Vec<Issue>) {
    if limit == 0 || text.len() <= limit {
        return;
    }
    let tokens = token_cache().count(text);
    if tokens > limit {
        issues.push(Issue {
            check: "over-budget",
            severity: Severity::Warning,
            file: file.to_string(),
            line: None,
            message: format!("{tokens} tokens, over the budget of {limit} (token_budgets.{key})"),
            hint: "trim it, or raise the budget in .lexibrary/config.yaml".into(),
        });
    }
}

fn malformed(file: &str, error: &str) -> Issue {
    // Errors read `path:line: message`; keep the line as a field too.
    let line = error
        .strip_prefix(file)
        .and_then(|rest| rest.strip_prefix(':'))
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.trim().parse().ok());
    Issue {
        check: "malformed-file",
        severity: Severity::Error,
        file: file.to_string(),
        line,
        message: error.to_string(),
        hint:
            "fix the YAML or footer at that line (a footer can be regenerated by `lexictl update`)"
                .into(),
    }
}

/// 1-based line of the first occurrence of `needle`.
fn line_of(text: &str, needle: &str) -> Option<usize> {
    let at = text.find(needle)?;
    Some(text[..at].matches('\n').count() + 1)
}
