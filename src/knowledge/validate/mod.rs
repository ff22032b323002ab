//! `lexictl validate`: read-only consistency checks over the whole library (seed §7 "Validation
//! pipeline", D-045, D-047).
//!
//! Every finding has a stable check id, a severity tier, the file (and line when known), a message and
//! a hint. The tiers follow D-045: **error** — broken references, missing files, malformed files,
//! secrets; **warning** — drift: stale hashes, token budgets, orphan or incomplete concepts, Child Maps
//! out of date, Stack scores that disagree with their history; **info** — hygiene: dependency lists
//! that are not mirrored by the other side's Dependents.
//!
//! This module holds the findings' types, runs the checks in order and keeps what they share (link
//! resolution, token budgets); one file per group of checks: [`designs`], [`concepts`], [`stack`],
//! [`indexes`], [`files`] (symlinks and stray files), [`scope`] (code the scope leaves out),
//! [`config`] (project settings this clone ignores until a person confirms them) (and the secret
//! scan in `knowledge::secrets`).
//!
//! Nothing here writes: fixes come from `lexictl update`, agents, humans, or `lexictl validate --fix`
//! for the findings [`fix`] says the tool can repair itself.

mod concepts;
mod config;
mod designs;
mod files;
pub mod fix;
mod indexes;
mod scope;
mod stack;

use std::collections::{BTreeMap, HashSet};

use super::concepts::{Resolved, Resolver};
use super::corpus::{Corpus, DocKind, Kinds};
use super::secrets;
use crate::git::notes::PROVENANCE_NOTES;
use crate::git::Oid;
use crate::library::wikilink;
use crate::project::{Project, LIBRARY_DIR};
use crate::workspace::library::{walk, Part};
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
        "stale-contract",
        Severity::Error,
        "an agent's Interface Contract written for an interface the code no longer has",
    ),
    (
        "secret",
        Severity::Error,
        "something that looks like a credential under .lexibrary/",
    ),
    (
        "symlink",
        Severity::Error,
        "a symbolic link in .lexibrary/ (or a symlinked .lexignore): never followed",
    ),
    (
        "special-file",
        Severity::Error,
        "an ignore file (.lexignore, .gitignore) that is a FIFO, a socket or a device: never opened",
    ),
    (
        "invalid-path",
        Severity::Error,
        "a path in a library file (Dependencies, Tests, a Stack post's refs) that leaves the project: never looked up",
    ),
    (
        "too-large",
        Severity::Error,
        "a library file over the size a library file may have (1 MiB): not read",
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
        "text-after-footer",
        Severity::Warning,
        "text written after a design file's footer (the next update moves it above)",
    ),
    (
        "code-out-of-scope",
        Severity::Warning,
        "code of a workspace member or package that scope_root leaves out",
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
        "stray-file",
        Severity::Warning,
        "a file in .lexibrary/ that is not a library file (e.g. a temporary file a killed write left)",
    ),
    (
        "trusted-config-changed",
        Severity::Warning,
        "a commit changed the project config's LLM provider, URL or key variable this clone had trusted (`lexictl trust`)",
    ),
    (
        "stack-votes-mismatch",
        Severity::Warning,
        "a vote count that differs from its complete history in git notes",
    ),
    (
        "stack-history-incomplete",
        Severity::Info,
        "a vote count the notes here cannot confirm: other clones' votes are not fetched",
    ),
    (
        "untrusted-config",
        Severity::Info,
        "the project config's LLM provider, URL or key variable, ignored until this clone confirms them (`lexictl trust`)",
    ),
    (
        "dependents-gap",
        Severity::Info,
        "A depends on B but B's Dependents does not list A",
    ),
    (
        "stack-possibly-outdated",
        Severity::Info,
        "a post whose files changed a lot since it was written (interface, or mostly rewritten)",
    ),
    (
        "missing-provenance",
        Severity::Info,
        "a design file the Archivist wrote whose provenance is not in the notes here",
    ),
];

/// The validation result.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Report {
    pub issues: Vec<Issue>,
    /// Files examined, by kind.
    pub checked: BTreeMap<&'static str, usize>,
    /// With `--fix`: what was repaired before these findings were gathered, one line each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub fixed: Vec<String>,
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
    let token_cache_path = project.token_counts_path();
    let _ = TOKEN_CACHE.set(crate::tokens::CountCache::load(&token_cache_path));
    let report = validate_with_cache(ws);
    token_cache().save(&token_cache_path);
    report
}

/// The checks in the order their findings are gathered (the report is sorted afterwards; equal
/// findings keep this order).
fn validate_with_cache(ws: &Workspace) -> Report {
    let project = ws.project();
    let listing = walk(&project.library_dir(), Part::ALL);
    let kinds = Kinds {
        designs: true,
        knowledge: true,
        design_bodies: false,
        // A concept a Local Convention links is not an orphan.
        conventions: true,
    };
    let code_cache = ws.state().cache_path();
    let corpus = Corpus::from_listing(project, &listing, kinds, Some(&code_cache));
    let resolver = Resolver::new(&corpus);
    let absent = ws.absent();
    let library = Library {
        project,
        corpus: &corpus,
        resolver: &resolver,
        provenance: recorded_provenance(ws),
        object_format: ws
            .repo_if_any()
            .map_or_else(Default::default, |repo| repo.object_format()),
        absent,
    };
    let budgets = &project.config.token_budgets;
    let mut issues = designs::check(&library);
    issues.extend(concepts::check(&library));
    issues.extend(stack::check(&library, ws.repo_if_any()));
    issues.extend(indexes::check(
        project,
        &listing,
        absent,
        budgets.aindex_tokens as usize,
    ));
    issues.extend(indexes::check_start_here(
        project,
        budgets.start_here_tokens as usize,
    ));
    // Secrets anywhere under .lexibrary/ (derived caches excluded).
    issues.extend(secrets::scan_library(project, &listing));
    issues.extend(files::check(project, &listing));
    issues.extend(scope::check(ws));
    issues.extend(config::check(ws));
    Report {
        issues: sorted(issues),
        checked: checked(&corpus),
        fixed: Vec::new(),
    }
}

/// Most severe first, then by file, line and check; exact duplicates once.
fn sorted(mut issues: Vec<Issue>) -> Vec<Issue> {
    issues.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| a.file.cmp(&b.file))
            .then_with(|| a.line.cmp(&b.line))
            .then_with(|| a.check.cmp(b.check))
    });
    issues.dedup();
    issues
}

/// How many documents of each kind were examined.
fn checked(corpus: &Corpus) -> BTreeMap<&'static str, usize> {
    let mut checked = BTreeMap::new();
    checked.insert("design_files", corpus.of_kind(DocKind::Design).count());
    checked.insert("concepts", corpus.of_kind(DocKind::Concept).count());
    checked.insert("stack_posts", corpus.of_kind(DocKind::Stack).count());
    checked
}

/// What the checks of documents read: the project, the library's documents and the resolver of
/// their links, and (in git, when this clone has any) the texts the provenance notes annotate.
struct Library<'a> {
    project: &'a Project,
    corpus: &'a Corpus,
    resolver: &'a Resolver<'a>,
    provenance: Option<HashSet<Oid>>,
    /// How the repository names blobs (what the provenance notes are keyed by).
    object_format: crate::git::ObjectFormat,
    /// The files git keeps out of this working tree (a sparse checkout): they exist, unchanged.
    absent: &'a crate::workspace::absent::Absent,
}

/// The blob ids of every design file text with a provenance note, when the project is in git and
/// its provenance notes exist here (a clone that never fetched them has nothing to compare with).
fn recorded_provenance(ws: &Workspace) -> Option<HashSet<Oid>> {
    let git = ws.repo_if_any()?;
    if !git.has_notes_ref(PROVENANCE_NOTES) {
        return None;
    }
    git.annotated_objects(PROVENANCE_NOTES).ok()
}

impl Library<'_> {
    /// Whether project path `rel` — read from a library file — is a file or directory of the tree:
    /// on disk (looked at without following a symlink), or kept out of the working tree by git.
    /// `None` when it is not a path inside the project (`../../root/.ssh/id_rsa`, `/etc/passwd`):
    /// then nothing is looked up ([`Project::has_path`]).
    fn path_exists(&self, rel: &str) -> Option<bool> {
        let on_disk = self.project.has_path(rel)?;
        Some(on_disk || self.absent.has(rel))
    }

    /// `.lexibrary/<path>` for a document's library-relative path.
    fn shown(&self, path: &str) -> String {
        format!("{LIBRARY_DIR}/{path}")
    }

    /// A broken-wikilink error for each of `links` that resolves to nothing.
    fn check_links<'l>(
        &self,
        links: impl Iterator<Item = &'l String>,
        file: &str,
        issues: &mut Vec<Issue>,
    ) {
        for link in links {
            if let Resolved::Missing { target } = self.resolver.resolve(link) {
                issues.push(broken_link(self.project, link, &target, file));
            }
        }
    }
}

/// `[[link]]` in `file` names no concept or Stack post (`target`).
fn broken_link(project: &Project, link: &str, target: &str, file: &str) -> Issue {
    let hint = if wikilink::stack_id(target).is_some() {
        "no such Stack post; `lexi stack list` shows the ids".to_string()
    } else {
        format!(
            "create it (`lexi concept new {}`) or fix the link",
            target.replace(' ', "")
        )
    };
    Issue {
        check: "broken-wikilink",
        severity: Severity::Error,
        file: file.to_string(),
        // `file` is project-relative: read it from the project, not the current directory.
        line: project
            .read_library_text(file)
            .ok()
            .and_then(|text| line_of(&text, &format!("[[{link}"))),
        message: format!("[[{link}]] does not resolve"),
        hint,
    }
}

/// Token counts by content, shared by the parallel checks of one run; [`validate`] loads them
/// from the cache file and saves them back.
static TOKEN_CACHE: std::sync::OnceLock<crate::tokens::CountCache> = std::sync::OnceLock::new();

/// The run's token counts (empty when nothing loaded them).
fn token_cache() -> &'static crate::tokens::CountCache {
    TOKEN_CACHE.get_or_init(crate::tokens::CountCache::default)
}

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

/// The text of library file `file` for a check ([`Project::read_library_text`]: no symlink, never
/// past the size a library file may have), or the finding that says why it cannot be checked: too
/// large (`too-large`), not UTF-8 (`malformed-file`, with its line and byte). `Err(None)` when it
/// cannot be read for another reason (a symlink, which `files` reports; a file gone meanwhile).
fn read_checked(project: &Project, file: &str) -> Result<String, Option<Issue>> {
    project.read_library_text(file).map_err(|err| {
        matches!(
            err.kind(),
            std::io::ErrorKind::FileTooLarge | std::io::ErrorKind::InvalidData
        )
        .then(|| {
            let mut issue = malformed(file, &err.to_string());
            if err.kind() == std::io::ErrorKind::InvalidData {
                issue.hint = "save it as UTF-8 (every library file is UTF-8 text; `lexi lookup` cannot read it either)".into();
            }
            issue
        })
    })
}

/// A malformed-file error from a parse error of `file` (a `too-large` error when the file was not
/// read for its size).
fn malformed(file: &str, error: &str) -> Issue {
    if error.ends_with(crate::project::TOO_LARGE) {
        return Issue {
            check: "too-large",
            severity: Severity::Error,
            file: file.to_string(),
            line: None,
            message: error
                .strip_prefix(&format!("{file}: "))
                .unwrap_or(error)
                .to_string(),
            hint: "a library file is a few KB: trim it, or delete it and run `lexictl update`"
                .into(),
        };
    }
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
