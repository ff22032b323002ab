//! `lexictl review`: what a range of commits did to the library and what it should have done — the
//! report a pull request gets (DESIGN G-5). This module resolves the range, reads both ends from git
//! and returns a plain [`Review`]; the CLI renders it as markdown, JSON or GitHub annotations.
//!
//! What it reads, all from commits (the working tree is not looked at, except for ignore files):
//! - design files added, changed, renamed or removed, with a unified diff of the part above the
//!   machine footer (a change to the footer alone is reported as such, without a diff);
//! - source files whose public interface (the `interface_hash` of [`crate::source::extract`]) differs
//!   between the two ends while their design file's text did not change, new source files without a
//!   design file, and design files left behind by deleted sources ([`Finding`]s);
//! - concepts and Stack posts added, changed or removed, with the Stack events (votes, accepts, status
//!   changes) recorded in `refs/notes/lexibrarian/stack` between the two commits' times;
//! - who wrote each changed design file as it is at the head: the Archivist (a provenance note is
//!   keyed by that exact blob) or an agent or a human. GitHub does not show git notes, so the review
//!   is where a reviewer sees them.
//!
//! Scope, ignore patterns and enabled languages come from the project's current configuration.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use anyhow::{bail, Context as _};
use ignore::gitignore::Gitignore;
use serde::Serialize;

use crate::engine::classify::language_enabled;
use crate::engine::update::{documentable, project_prefix};
use crate::git::notes::{blob_id, PROVENANCE_NOTES, STACK_NOTES};
use crate::git::{Change, FileAt, GitRepo, RevSpec};
use crate::knowledge::stack::{anchor_text, Event};
use crate::library::concept::Concept;
use crate::library::design_file::{is_unedited, DesignFile, UpdatedBy};
use crate::library::stack::{id_from_file_name, Post};
use crate::library::{footer, normalize_newlines};
use crate::project::ignores::{ExtraIgnores, LEXIGNORE_FILE};
use crate::project::mirror::{design_path, source_for_design};
use crate::project::scope::Scope;
use crate::project::walk::has_binary_extension;
use crate::project::{Project, CACHE_DIR, CONFIG_FILE, LIBRARY_DIR};
use crate::source::{extract, Interface, Language, Symbol};

/// At most this many lines of unified diff are kept per file; the rest is counted.
pub const MAX_DIFF_LINES: usize = 80;
/// Files larger than this (either side) are not diffed.
const MAX_DIFF_INPUT: usize = 512 * 1024;
/// Lines of context around each change in a diff.
const DIFF_CONTEXT: usize = 2;
/// Where `lexictl review` without a range looks for the base when the branch has no upstream to
/// merge into, in order.
pub const DEFAULT_BASES: &[&str] = &[
    "origin/HEAD",
    "origin/main",
    "origin/master",
    "main",
    "master",
];

/// The whole report.
#[derive(Clone, Debug, Serialize)]
pub struct Review {
    /// The range as reviewed, e.g. `main...HEAD` (`@{upstream}...HEAD` when defaulted).
    pub range: String,
    /// The older end. With `merge_base`, `commit` is the merge base of `rev` and the head.
    pub base: Endpoint,
    /// The newer end.
    pub head: Endpoint,
    /// Whether the base commit is the merge base of the two revisions (`A...B`, one revision, the
    /// default) rather than the base revision itself (`A..B`).
    pub merge_base: bool,
    /// Commits reachable from the head but not from the base.
    pub commits: usize,
    /// The project root relative to the repository's working tree (`""` when they are the same).
    /// Every other path in the review is relative to the project root.
    pub project_dir: String,
    pub summary: Summary,
    /// What the change should have done and did not, most important first.
    pub findings: Vec<Finding>,
    pub design_files: Vec<DesignChange>,
    pub concepts: Vec<ConceptChange>,
    pub stack: Vec<PostChange>,
    /// Other files under `.lexibrary/` (`.aindex`, `START_HERE.md`, `config.yaml`, …).
    pub library_files: Vec<FileChange>,
    /// Which notes refs exist locally (a CI checkout has none until they are fetched).
    pub notes: NotesPresent,
}

/// One end of the range.
#[derive(Clone, Debug, Serialize)]
pub struct Endpoint {
    /// The revision as named (`main`, `HEAD`, `@{upstream}`).
    pub rev: String,
    /// The commit compared (40-hex).
    pub commit: String,
    /// Its subject line.
    pub subject: String,
}

/// Counts, and the one-line summary built from them.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Summary {
    /// E.g. "2 design files changed (1 modified, 1 footer only), 1 warning, 1 concept added".
    pub line: String,
    pub design_files_added: usize,
    pub design_files_modified: usize,
    pub design_files_renamed: usize,
    pub design_files_removed: usize,
    /// Of the modified and renamed ones: changed below the footer only.
    pub design_files_footer_only: usize,
    pub warnings: usize,
    pub concepts_added: usize,
    pub concepts_modified: usize,
    pub concepts_removed: usize,
    pub stack_posts_added: usize,
    pub stack_posts_modified: usize,
    pub stack_posts_removed: usize,
    pub answers_accepted: usize,
    /// Changed design files whose head text the Archivist wrote.
    pub written_by_archivist: usize,
    /// Changed design files whose head text an agent or a human wrote.
    pub written_by_agent_or_human: usize,
    /// Changed design files with no provenance recorded and no sign of an edit.
    pub provenance_unrecorded: usize,
}

/// `added`, `modified`, `renamed` or `removed`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ChangeKind {
    Added,
    Modified,
    Renamed,
    Removed,
}

impl ChangeKind {
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Modified => "modified",
            ChangeKind::Renamed => "renamed",
            ChangeKind::Removed => "removed",
        }
    }
}

/// A value at the base and at the head (`null` where the file does not exist or lacks it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Delta<T> {
    pub base: Option<T>,
    pub head: Option<T>,
}

impl<T: PartialEq> Delta<T> {
    /// Whether the value differs between the two ends.
    pub fn changed(&self) -> bool {
        self.base != self.head
    }
}

/// What kind of problem a [`Finding`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FindingKind {
    /// The source's public interface changed and its design file's text did not.
    InterfaceChanged,
    /// A new (or renamed, or interface-changed) source file has no design file at the head.
    MissingDesign,
    /// The source was deleted or renamed away and its design file is still there at the head.
    OrphanedDesign,
}

impl FindingKind {
    /// A short title, used for annotations and headings.
    pub fn title(self) -> &'static str {
        match self {
            FindingKind::InterfaceChanged => "Interface changed without a design update",
            FindingKind::MissingDesign => "No design file",
            FindingKind::OrphanedDesign => "Design file left behind",
        }
    }
}

/// Something the change should have done to the library. Every finding is a warning: review reports,
/// `lexictl validate` and `lexictl update --check` gate.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub kind: FindingKind,
    /// Always `warning`.
    pub severity: &'static str,
    /// The file the finding is about (the source file; the design file for `orphaned_design`).
    pub file: String,
    /// 1-based line in `file` at the head, when known (the first added public symbol).
    pub line: Option<usize>,
    /// The source file.
    pub source: String,
    /// Its design file.
    pub design_file: String,
    pub message: String,
    /// For `orphaned_design` after a rename: the source's new path.
    pub renamed_to: Option<String>,
    /// For `interface_changed`: public symbols at the head that were not at the base.
    pub added: Vec<Symbol>,
    /// For `interface_changed`: public symbols at the base that are gone at the head.
    pub removed: Vec<Symbol>,
}

/// A unified diff of the meaningful part of a file (above the footer).
#[derive(Clone, Debug, Serialize)]
pub struct Diff {
    /// Hunks with `DIFF_CONTEXT` lines of context, at most [`MAX_DIFF_LINES`] lines.
    pub unified: String,
    /// Lines added and removed in the whole diff.
    pub added: usize,
    pub removed: usize,
    /// Diff lines left out of `unified`.
    pub omitted_lines: usize,
}

/// A design file added, changed, renamed or removed.
#[derive(Clone, Debug, Serialize)]
pub struct DesignChange {
    /// The source file it documents (at the head; at the base when removed).
    pub source: String,
    /// The design file's path (at the head; at the base when removed).
    pub path: String,
    pub change: ChangeKind,
    /// The path at the base, for renames.
    pub from: Option<String>,
    /// Only the machine footer changed (hashes refreshed): no diff.
    pub footer_only: bool,
    /// The diff of frontmatter and body; `null` when removed, footer-only or not diffable.
    pub diff: Option<Diff>,
    /// Why there is no diff although the text changed (`binary or not UTF-8`, `too large`, `timed out`).
    pub diff_skipped: Option<String>,
    /// `updated_by` in the frontmatter at each end.
    pub updated_by: Delta<UpdatedBy>,
    /// Who wrote the head text; `null` when removed.
    pub provenance: Option<Provenance>,
    /// The design file does not parse at the head.
    pub error: Option<String>,
}

/// Who wrote a design file's text at the head.
#[derive(Clone, Debug, Serialize)]
pub struct Provenance {
    /// `archivist` (a provenance note is keyed by this exact text), `agent_or_human` (no note, and the
    /// text says `updated_by: agent` or no longer matches its footer's design hash), `unrecorded`
    /// (neither: written before provenance notes, or the notes were not fetched).
    pub written_by: &'static str,
    /// The blob id the notes are keyed by.
    pub blob: String,
    /// For `archivist`: the most recent generation of this text.
    pub generator: Option<String>,
    pub model: Option<String>,
    /// The change level that caused the generation (`NEW`, `INTERFACE_CHANGED`, …).
    pub level: Option<String>,
    /// The commit `lexictl update` ran at.
    pub commit: Option<String>,
}

/// A concept added, changed, renamed or removed.
#[derive(Clone, Debug, Serialize)]
pub struct ConceptChange {
    /// The canonical name (the file stem, `[[Name]]`).
    pub name: String,
    pub path: String,
    pub change: ChangeKind,
    pub from: Option<String>,
    pub title: Delta<String>,
    pub status: Delta<String>,
    /// At the head, for deprecated concepts.
    pub superseded_by: Option<String>,
    /// The summary at the head (or at the base when removed).
    pub summary: String,
    pub diff: Option<Diff>,
    pub diff_skipped: Option<String>,
    pub error: Option<String>,
}

/// A Stack post added, changed, renamed or removed.
#[derive(Clone, Debug, Serialize)]
pub struct PostChange {
    pub id: String,
    pub path: String,
    pub change: ChangeKind,
    pub from: Option<String>,
    /// At the head (or at the base when removed).
    pub title: String,
    pub status: Delta<String>,
    /// Net post score in the frontmatter.
    pub votes: Delta<i64>,
    pub accepted_answer: Delta<u32>,
    /// Author of the accepted answer at the head.
    pub accepted_author: Option<String>,
    pub answers_added: Vec<AnswerRef>,
    /// Comments on the post and its answers that are new at the head.
    pub comments_added: usize,
    /// Answers whose net score changed.
    pub answer_votes: Vec<AnswerVotes>,
    /// Events recorded in the notes for this post during the range; `null` when the Stack notes
    /// ref is absent.
    pub history: Option<PostHistory>,
    pub error: Option<String>,
}

/// An answer by number and author.
#[derive(Clone, Debug, Serialize)]
pub struct AnswerRef {
    pub number: u32,
    pub author: String,
}

/// An answer's net score at both ends.
#[derive(Clone, Debug, Serialize)]
pub struct AnswerVotes {
    pub answer: u32,
    pub base: i64,
    pub head: i64,
}

/// A post's notes history bounded to the range.
#[derive(Clone, Debug, Serialize)]
pub struct PostHistory {
    /// Events recorded between the base and the head commit (every event up to the head, for a post
    /// new in the range), oldest first. Placed by time; events in the same second as a commit are
    /// put before or after it so that the replayed score and status match its frontmatter.
    pub events: Vec<Event>,
    /// Net post-level votes among `events`.
    pub net_votes: i64,
    /// Net votes per answer among `events`.
    pub answer_net_votes: BTreeMap<u32, i64>,
}

/// Any other library file.
#[derive(Clone, Debug, Serialize)]
pub struct FileChange {
    pub path: String,
    pub change: ChangeKind,
    pub from: Option<String>,
}

/// Whether the notes refs exist in this clone.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct NotesPresent {
    pub provenance: bool,
    pub stack: bool,
}

/// Review the range `range` (`A..B`, `A...B`, a single revision meaning `REV...HEAD`), or, with
/// `None`, from the merge base of the branch's upstream (unless that is the branch's own remote copy;
/// else the first of [`DEFAULT_BASES`] that exists) to `HEAD`.
pub fn review(project: &Project, range: Option<&str>) -> anyhow::Result<Review> {
    let Some(git) = GitRepo::discover(&project.root)? else {
        bail!(
            "`lexictl review` compares commits, and {} is not in a git repository",
            project.root.display()
        );
    };
    let Some(prefix) = project_prefix(project, &git) else {
        bail!(
            "the project at {} is not inside the git working tree at {}",
            project.root.display(),
            git.workdir().display()
        );
    };
    let ends = resolve(&git, range)?;
    let base_info = git.commit_info(&ends.base)?;
    let head_info = git.commit_info(&ends.head)?;
    let changes = if ends.base == ends.head {
        Vec::new()
    } else {
        git.diff_commits(Some(&ends.base), &ends.head)?
    };
    let scope = Scope::from_config(&project.config, &project.library_dir().join(CONFIG_FILE))?;
    let (extra, _) = ExtraIgnores::new(&project.root, &project.config);
    let mut reviewer = Reviewer {
        project,
        git: &git,
        prefix,
        base: ends.base.clone(),
        head: ends.head.clone(),
        base_time: base_info.time,
        head_time: head_info.time,
        scope,
        ignores: IgnoreLayers::new(project, extra),
        has_stack_notes: git.has_notes_ref(STACK_NOTES),
    };
    let touched = reviewer.touched(changes);
    let mut review = Review {
        range: ends.range.clone(),
        base: Endpoint {
            rev: ends.base_rev.clone(),
            commit: ends.base.clone(),
            subject: base_info.summary,
        },
        head: Endpoint {
            rev: ends.head_rev.clone(),
            commit: ends.head.clone(),
            subject: head_info.summary,
        },
        merge_base: ends.merge_base,
        commits: if ends.base == ends.head {
            0
        } else {
            git.count_commits(&ends.base, &ends.head)?
        },
        project_dir: reviewer.prefix.clone(),
        summary: Summary::default(),
        findings: Vec::new(),
        design_files: Vec::new(),
        concepts: Vec::new(),
        stack: Vec::new(),
        library_files: Vec::new(),
        notes: NotesPresent {
            provenance: git.has_notes_ref(PROVENANCE_NOTES),
            stack: reviewer.has_stack_notes,
        },
    };
    let mut sources = Vec::new();
    for touch in touched {
        match touch.category {
            Category::Design => review.design_files.push(reviewer.design_change(&touch)?),
            Category::Concept => review.concepts.push(reviewer.concept_change(&touch)?),
            Category::Stack => review.stack.push(reviewer.post_change(&touch)?),
            Category::Library => review.library_files.push(FileChange {
                path: touch.path().to_string(),
                change: touch.kind(),
                from: touch.renamed_from(),
            }),
            Category::Source => sources.push(touch),
            Category::Skipped => {}
        }
    }
    // A design file counts as updated when its text changed, not only its footer.
    let updated: BTreeSet<String> = review
        .design_files
        .iter()
        .filter(|design| design.change != ChangeKind::Removed && !design.footer_only)
        .map(|design| design.source.clone())
        .collect();
    for touch in &sources {
        reviewer.source_findings(touch, &updated, &mut review.findings)?;
    }
    review.findings.sort_by_key(|finding| {
        let rank = match finding.kind {
            FindingKind::InterfaceChanged => 0,
            FindingKind::MissingDesign => 1,
            FindingKind::OrphanedDesign => 2,
        };
        (rank, finding.file.clone())
    });
    review.summary = summarize(&review);
    Ok(review)
}

/// The resolved range.
struct Ends {
    range: String,
    base_rev: String,
    head_rev: String,
    base: String,
    head: String,
    merge_base: bool,
}

fn resolve(git: &GitRepo, range: Option<&str>) -> anyhow::Result<Ends> {
    let head_commit = || -> anyhow::Result<String> {
        git.head_commit()?
            .context("HEAD has no commits yet; there is nothing to review")
    };
    let Some(spec) = range.map(str::trim) else {
        let head = head_commit()?;
        // The branch it merges into: its upstream, unless that is only its own copy on the remote
        // (after `git push -u`), which would show just the unpushed commits.
        let upstream = git.upstream().filter(|upstream| !upstream.own_copy);
        if let Some(upstream) = upstream {
            if let Some(commit) = git.try_resolve_commit(&upstream.reference) {
                let name = short_ref(&upstream.reference);
                let base = merge_base(git, &commit, &head, &name, "HEAD")?;
                return Ok(Ends {
                    range: "@{upstream}...HEAD".into(),
                    base_rev: name,
                    head_rev: "HEAD".into(),
                    base,
                    head,
                    merge_base: true,
                });
            }
        }
        for candidate in DEFAULT_BASES {
            if let Some(commit) = git.try_resolve_commit(candidate) {
                let base = merge_base(git, &commit, &head, candidate, "HEAD")?;
                return Ok(Ends {
                    range: format!("{candidate}...HEAD"),
                    base_rev: candidate.to_string(),
                    head_rev: "HEAD".into(),
                    base,
                    head,
                    merge_base: true,
                });
            }
        }
        bail!(
            "no base to review against: the branch has no upstream to merge into and there is no {}\n  hint: name one, e.g. `lexictl review origin/main`, or compare two commits with `lexictl review A..B`",
            DEFAULT_BASES
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        );
    };
    let (base_rev, head_rev, operator) = labels(spec);
    let resolved = git.resolve_spec(spec).map_err(|err| {
        anyhow::anyhow!(
            "{err}\n  hint: review takes `A..B` (compare two commits), `A...B` (from their merge base, as a pull request shows) or one revision `REV` (= `REV...HEAD`)"
        )
    })?;
    let (base, head, merge_base_used) = match resolved {
        RevSpec::Single(base) => {
            let head = head_commit()?;
            (
                merge_base(git, &base, &head, &base_rev, "HEAD")?,
                head,
                true,
            )
        }
        RevSpec::Range { from, to } => (from, to, false),
        RevSpec::Symmetric { left, right } => (
            merge_base(git, &left, &right, &base_rev, &head_rev)?,
            right,
            true,
        ),
    };
    Ok(Ends {
        range: format!("{base_rev}{operator}{head_rev}"),
        base_rev,
        head_rev,
        base,
        head,
        merge_base: merge_base_used,
    })
}

/// `refs/remotes/origin/main` → `origin/main`, `refs/heads/main` → `main`.
fn short_ref(name: &str) -> String {
    name.strip_prefix("refs/remotes/")
        .or_else(|| name.strip_prefix("refs/heads/"))
        .unwrap_or(name)
        .to_string()
}

/// The names of the two ends as the user wrote them, and the operator (`..` or `...`).
fn labels(spec: &str) -> (String, String, &'static str) {
    let or_head = |side: &str| {
        if side.is_empty() {
            "HEAD".to_string()
        } else {
            side.to_string()
        }
    };
    if let Some((left, right)) = spec.split_once("...") {
        (or_head(left), or_head(right), "...")
    } else if let Some((left, right)) = spec.split_once("..") {
        (or_head(left), or_head(right), "..")
    } else {
        (spec.to_string(), "HEAD".to_string(), "...")
    }
}

fn merge_base(
    git: &GitRepo,
    one: &str,
    two: &str,
    one_name: &str,
    two_name: &str,
) -> anyhow::Result<String> {
    git.merge_base(one, two)?.with_context(|| {
        format!(
            "`{one_name}` and `{two_name}` have no common history (in a shallow clone, fetch more: `git fetch --unshallow`, or `fetch-depth: 0` for actions/checkout); `{one_name}..{two_name}` compares the two commits directly"
        )
    })
}

/// Where a changed path belongs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Category {
    Design,
    Concept,
    Stack,
    Library,
    Source,
    /// `.lexibrary/.cache/`: never reviewed.
    Skipped,
}

fn category(rel: &str) -> Category {
    let Some(inner) = rel.strip_prefix(&format!("{LIBRARY_DIR}/")) else {
        return Category::Source;
    };
    if inner.starts_with(&format!("{CACHE_DIR}/")) {
        return Category::Skipped;
    }
    if source_for_design(rel).is_some() {
        return Category::Design;
    }
    let single = |dir: &str| {
        inner
            .strip_prefix(dir)
            .and_then(|rest| rest.strip_prefix('/'))
            .filter(|name| !name.contains('/'))
    };
    if single("concepts").is_some_and(|name| name.ends_with(".md")) {
        return Category::Concept;
    }
    if single("stack").is_some_and(|name| id_from_file_name(name).is_some()) {
        return Category::Stack;
    }
    Category::Library
}

/// One changed path (project-relative): `from` at the base, `to` at the head.
#[derive(Clone, Debug)]
struct Touched {
    from: Option<String>,
    to: Option<String>,
    category: Category,
}

impl Touched {
    fn path(&self) -> &str {
        self.to.as_deref().or(self.from.as_deref()).unwrap_or("")
    }

    fn kind(&self) -> ChangeKind {
        match (&self.from, &self.to) {
            (None, _) => ChangeKind::Added,
            (_, None) => ChangeKind::Removed,
            (Some(from), Some(to)) if from != to => ChangeKind::Renamed,
            _ => ChangeKind::Modified,
        }
    }

    fn renamed_from(&self) -> Option<String> {
        (self.kind() == ChangeKind::Renamed)
            .then(|| self.from.clone())
            .flatten()
    }
}

struct Reviewer<'a> {
    project: &'a Project,
    git: &'a GitRepo,
    prefix: String,
    base: String,
    head: String,
    base_time: i64,
    head_time: i64,
    scope: Scope,
    ignores: IgnoreLayers,
    has_stack_notes: bool,
}

impl Reviewer<'_> {
    /// Project-relative, categorised changes; paths outside the project are dropped.
    fn touched(&self, changes: Vec<Change>) -> Vec<Touched> {
        let strip = |path: &str| -> Option<String> {
            if self.prefix.is_empty() {
                Some(path.to_string())
            } else {
                path.strip_prefix(&format!("{}/", self.prefix))
                    .map(str::to_string)
            }
        };
        let one = |from: Option<String>, to: Option<String>| {
            let category = category(to.as_deref().or(from.as_deref()).unwrap_or(""));
            Touched { from, to, category }
        };
        let mut out = Vec::new();
        for change in changes {
            match change {
                Change::Added(path) => out.extend(strip(&path).map(|p| one(None, Some(p)))),
                Change::Deleted(path) => out.extend(strip(&path).map(|p| one(Some(p), None))),
                Change::Modified(path) => {
                    out.extend(strip(&path).map(|p| one(Some(p.clone()), Some(p))))
                }
                Change::Renamed { from, to } => match (strip(&from), strip(&to)) {
                    (Some(from), Some(to)) if category(&from) == category(&to) => {
                        out.push(one(Some(from), Some(to)))
                    }
                    (from, to) => {
                        out.extend(from.map(|p| one(Some(p), None)));
                        out.extend(to.map(|p| one(None, Some(p))));
                    }
                },
            }
        }
        out
    }

    fn repo_path(&self, rel: &str) -> String {
        if self.prefix.is_empty() {
            rel.to_string()
        } else {
            format!("{}/{rel}", self.prefix)
        }
    }

    fn at_base(&self, rel: Option<&str>) -> anyhow::Result<Option<FileAt>> {
        match rel {
            Some(rel) => Ok(self.git.file_at(&self.base, &self.repo_path(rel))?),
            None => Ok(None),
        }
    }

    fn at_head(&self, rel: Option<&str>) -> anyhow::Result<Option<FileAt>> {
        match rel {
            Some(rel) => Ok(self.git.file_at(&self.head, &self.repo_path(rel))?),
            None => Ok(None),
        }
    }

    fn design_change(&self, touch: &Touched) -> anyhow::Result<DesignChange> {
        let base = self.at_base(touch.from.as_deref())?;
        let head = self.at_head(touch.to.as_deref())?;
        let base_text = base.as_ref().and_then(|file| as_text(&file.data));
        let head_text = head.as_ref().and_then(|file| as_text(&file.data));
        let path = touch.path().to_string();
        let source = source_for_design(&path).unwrap_or_default().to_string();
        let parse = |text: &Option<String>| text.as_ref().map(|t| DesignFile::parse(&path, t));
        let base_parsed = parse(&base_text).and_then(Result::ok);
        let head_parsed = parse(&head_text);
        fn content(text: &Option<String>) -> Option<&str> {
            text.as_deref().map(|t| footer::split(t).0)
        }
        let footer_only = matches!(
            (content(&base_text), content(&head_text)),
            (Some(old), Some(new)) if old == new
        );
        let (diff, diff_skipped) = if head.is_none() || footer_only {
            (None, None)
        } else {
            meaningful_diff(
                base.as_ref().map(|_| content(&base_text)),
                content(&head_text),
            )
        };
        let mut error = None;
        let head_design = match head_parsed {
            Some(Ok(design)) => Some(design),
            Some(Err(err)) => {
                error = Some(err.to_string());
                None
            }
            None => None,
        };
        let provenance = match (&head, &head_text) {
            (Some(file), text) => {
                Some(self.provenance(file, text.as_deref(), head_design.as_ref())?)
            }
            (None, _) => None,
        };
        Ok(DesignChange {
            source,
            path,
            change: touch.kind(),
            from: touch.renamed_from(),
            footer_only,
            diff,
            diff_skipped,
            updated_by: Delta {
                base: base_parsed.map(|design| design.frontmatter.updated_by),
                head: head_design
                    .as_ref()
                    .map(|design| design.frontmatter.updated_by),
            },
            provenance,
            error,
        })
    }

    fn provenance(
        &self,
        file: &FileAt,
        text: Option<&str>,
        design: Option<&DesignFile>,
    ) -> anyhow::Result<Provenance> {
        let note = self
            .git
            .note(PROVENANCE_NOTES, &file.blob)?
            .unwrap_or_default();
        let mut events: Vec<serde_json::Value> = note
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect();
        events.sort_by(|a, b| a["ts"].as_str().cmp(&b["ts"].as_str()));
        let field = |event: &serde_json::Value, key: &str| event[key].as_str().map(str::to_string);
        if let Some(last) = events.last() {
            return Ok(Provenance {
                written_by: "archivist",
                blob: file.blob.clone(),
                generator: field(last, "generator"),
                model: field(last, "model"),
                level: field(last, "level"),
                commit: field(last, "commit"),
            });
        }
        let unedited = match (text, design.and_then(|d| d.footer.as_ref())) {
            (Some(text), Some(footer)) => is_unedited(text, footer),
            _ => false,
        };
        let agent = design.is_some_and(|d| d.frontmatter.updated_by == UpdatedBy::Agent);
        Ok(Provenance {
            written_by: if agent || !unedited {
                "agent_or_human"
            } else {
                "unrecorded"
            },
            blob: file.blob.clone(),
            generator: None,
            model: None,
            level: None,
            commit: None,
        })
    }

    fn concept_change(&self, touch: &Touched) -> anyhow::Result<ConceptChange> {
        let base = self.at_base(touch.from.as_deref())?;
        let head = self.at_head(touch.to.as_deref())?;
        let base_text = base.as_ref().and_then(|file| as_text(&file.data));
        let head_text = head.as_ref().and_then(|file| as_text(&file.data));
        let path = touch.path().to_string();
        let name_of = |rel: &str| {
            Path::new(rel)
                .file_stem()
                .and_then(|stem| stem.to_str())
                .unwrap_or("")
                .to_string()
        };
        let name = name_of(&path);
        let parse = |rel: Option<&str>, text: &Option<String>| match (rel, text) {
            (Some(rel), Some(text)) => Some(Concept::parse(rel, &name_of(rel), text)),
            _ => None,
        };
        let base_concept = parse(touch.from.as_deref(), &base_text).and_then(Result::ok);
        let mut error = None;
        let head_concept = match parse(touch.to.as_deref(), &head_text) {
            Some(Ok(concept)) => Some(concept),
            Some(Err(err)) => {
                error = Some(err.to_string());
                None
            }
            None => None,
        };
        let (diff, diff_skipped) = match touch.kind() {
            ChangeKind::Modified | ChangeKind::Renamed => {
                meaningful_diff(Some(base_text.as_deref()), head_text.as_deref())
            }
            _ => (None, None),
        };
        let latest = head_concept.as_ref().or(base_concept.as_ref());
        Ok(ConceptChange {
            name,
            path,
            change: touch.kind(),
            from: touch.renamed_from(),
            title: Delta {
                base: base_concept.as_ref().map(|c| c.title().to_string()),
                head: head_concept.as_ref().map(|c| c.title().to_string()),
            },
            status: Delta {
                base: base_concept
                    .as_ref()
                    .map(|c| c.status().as_str().to_string()),
                head: head_concept
                    .as_ref()
                    .map(|c| c.status().as_str().to_string()),
            },
            superseded_by: head_concept
                .as_ref()
                .and_then(|c| c.meta.superseded_by.clone())
                .filter(|s| !s.trim().is_empty()),
            summary: latest.map(Concept::summary).unwrap_or_default(),
            diff,
            diff_skipped,
            error,
        })
    }

    fn post_change(&self, touch: &Touched) -> anyhow::Result<PostChange> {
        let base = self.at_base(touch.from.as_deref())?;
        let head = self.at_head(touch.to.as_deref())?;
        let path = touch.path().to_string();
        let parse = |rel: Option<&str>, file: &Option<FileAt>| match (rel, file) {
            (Some(rel), Some(file)) => Some(
                as_text(&file.data)
                    .ok_or_else(|| format!("{rel}: not UTF-8 text"))
                    .and_then(|text| Post::parse(rel, &text).map_err(|err| err.to_string())),
            ),
            _ => None,
        };
        let base_post = parse(touch.from.as_deref(), &base).and_then(Result::ok);
        let mut error = None;
        let head_post = match parse(touch.to.as_deref(), &head) {
            Some(Ok(post)) => Some(post),
            Some(Err(err)) => {
                error = Some(err);
                None
            }
            None => None,
        };
        let file_name = Path::new(&path)
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or("");
        let latest = head_post.as_ref().or(base_post.as_ref());
        let id = latest
            .map(|post| post.meta.id.clone())
            .or_else(|| id_from_file_name(file_name))
            .unwrap_or_default();
        let base_body = base_post.as_ref().map(Post::read_body).unwrap_or_default();
        let head_body = head_post.as_ref().map(Post::read_body).unwrap_or_default();
        let base_answers: BTreeSet<u32> = base_body.answers.iter().map(|a| a.number).collect();
        let answers_added = head_body
            .answers
            .iter()
            .filter(|answer| !base_answers.contains(&answer.number))
            .map(|answer| AnswerRef {
                number: answer.number,
                author: answer.author.clone(),
            })
            .collect();
        let count_comments = |body: &crate::library::stack::PostBody| {
            body.comments.len()
                + body
                    .answers
                    .iter()
                    .map(|answer| answer.comments.len())
                    .sum::<usize>()
        };
        let comments_added = count_comments(&head_body).saturating_sub(count_comments(&base_body));
        let accepted = Delta {
            base: base_post.as_ref().and_then(|p| p.meta.accepted_answer),
            head: head_post.as_ref().and_then(|p| p.meta.accepted_answer),
        };
        let accepted_author = accepted.head.and_then(|number| {
            head_body
                .answers
                .iter()
                .find(|answer| answer.number == number)
                .map(|answer| answer.author.clone())
        });
        let empty = BTreeMap::new();
        let base_scores = base_post.as_ref().map_or(&empty, |p| &p.meta.answer_votes);
        let head_scores = head_post.as_ref().map_or(&empty, |p| &p.meta.answer_votes);
        let numbers: BTreeSet<u32> = base_scores
            .keys()
            .chain(head_scores.keys())
            .copied()
            .collect();
        let answer_votes = numbers
            .into_iter()
            .filter_map(|answer| {
                let base = base_scores.get(&answer).copied().unwrap_or(0);
                let head = head_scores.get(&answer).copied().unwrap_or(0);
                (base != head).then_some(AnswerVotes { answer, base, head })
            })
            .collect();
        let history = if self.has_stack_notes && !id.is_empty() {
            Some(self.history(&id, base_post.as_ref(), head_post.as_ref())?)
        } else {
            None
        };
        Ok(PostChange {
            title: latest.map(|p| p.meta.title.clone()).unwrap_or_default(),
            status: Delta {
                base: base_post
                    .as_ref()
                    .map(|p| p.meta.status.as_str().to_string()),
                head: head_post
                    .as_ref()
                    .map(|p| p.meta.status.as_str().to_string()),
            },
            votes: Delta {
                base: base_post.as_ref().map(|p| p.meta.votes),
                head: head_post.as_ref().map(|p| p.meta.votes),
            },
            accepted_answer: accepted,
            accepted_author,
            answers_added,
            comments_added,
            answer_votes,
            history,
            error,
            id,
            path,
            change: touch.kind(),
            from: touch.renamed_from(),
        })
    }

    /// The post's events recorded during the range, oldest first. Events are placed by time; the
    /// ones in the same second as the base or head commit (timestamps there have second precision)
    /// go before or after that commit so that replaying the history reproduces the score and status
    /// its frontmatter records. A post new in the range takes every event up to the head.
    fn history(
        &self,
        id: &str,
        base_post: Option<&Post>,
        head_post: Option<&Post>,
    ) -> anyhow::Result<PostHistory> {
        let anchor = blob_id(anchor_text(id).as_bytes());
        let note = self.git.note(STACK_NOTES, &anchor)?.unwrap_or_default();
        let mut all: Vec<(i64, Event)> = note
            .lines()
            .filter_map(|line| serde_json::from_str::<Event>(line).ok())
            .filter(|event| event.post == id)
            .filter_map(|event| ts_millis(&event.ts).map(|ms| (ms, event)))
            .collect();
        all.sort_by_key(|(ms, _)| *ms);
        let states = replay(all.iter().map(|(_, event)| event));
        let split = |second: i64, post: Option<&Post>| {
            let count_before = |ms: i64| all.iter().take_while(|(at, _)| *at < ms).count();
            let low = count_before(second.saturating_mul(1000));
            let high = count_before(second.saturating_add(1).saturating_mul(1000));
            post.map(PostState::of)
                .and_then(|target| (low..=high).find(|k| states[*k] == target))
                .unwrap_or(high)
        };
        let start = match base_post {
            Some(post) => split(self.base_time, Some(post)),
            None => 0,
        };
        let end = split(self.head_time, head_post).max(start);
        let events: Vec<Event> = all[start..end]
            .iter()
            .map(|(_, event)| event.clone())
            .collect();
        let mut net_votes = 0;
        let mut answer_net_votes = BTreeMap::new();
        for event in events.iter().filter(|event| event.kind == "vote") {
            let delta = event.delta.unwrap_or(0);
            match event.answer {
                None => net_votes += delta,
                Some(answer) => *answer_net_votes.entry(answer).or_insert(0) += delta,
            }
        }
        Ok(PostHistory {
            events,
            net_votes,
            answer_net_votes,
        })
    }

    /// What a changed source file should have done to the library.
    fn source_findings(
        &mut self,
        touch: &Touched,
        updated: &BTreeSet<String>,
        findings: &mut Vec<Finding>,
    ) -> anyhow::Result<()> {
        if let Some(to) = touch.to.as_deref() {
            if documentable(&self.scope, to) && !self.ignores.is_ignored(to) {
                let head = self.at_head(Some(to))?;
                let design_rel = design_path(to);
                let has_design = self.at_head(Some(&design_rel))?.is_some();
                let is_new = touch.kind() != ChangeKind::Modified;
                let interface = match (&touch.from, &head) {
                    (Some(from), Some(head)) if !updated.contains(to) => {
                        self.interface_change(from, to, head)?
                    }
                    _ => None,
                };
                let documentable_text = head
                    .as_ref()
                    .is_some_and(|file| self.is_documentable_text(to, &file.data));
                if !has_design && documentable_text && (is_new || interface.is_some()) {
                    findings.push(Finding {
                        kind: FindingKind::MissingDesign,
                        severity: "warning",
                        file: to.to_string(),
                        line: None,
                        source: to.to_string(),
                        design_file: design_rel.clone(),
                        message: format!(
                            "{to} has no design file ({design_rel}); run `lexictl update {to}` or write one"
                        ),
                        renamed_to: None,
                        added: Vec::new(),
                        removed: Vec::new(),
                    });
                } else if let Some((added, removed, line)) = interface.filter(|_| has_design) {
                    let what =
                        describe_interface_change(&added, &removed, &|name| name.to_string());
                    findings.push(Finding {
                        kind: FindingKind::InterfaceChanged,
                        severity: "warning",
                        file: to.to_string(),
                        line,
                        source: to.to_string(),
                        design_file: design_rel.clone(),
                        message: format!(
                            "the public interface of {to} changed ({what}) but {design_rel} was not updated; run `lexictl update {to}` or edit the design file"
                        ),
                        renamed_to: None,
                        added,
                        removed,
                    });
                }
            }
        }
        if let Some(from) = touch.from.as_deref() {
            if touch.to.as_deref() != Some(from) {
                let design_rel = design_path(from);
                if self.at_head(Some(&design_rel))?.is_some() {
                    let why = match touch.to.as_deref() {
                        Some(to) => format!("{from} was renamed to {to}"),
                        None => format!("{from} was deleted"),
                    };
                    findings.push(Finding {
                        kind: FindingKind::OrphanedDesign,
                        severity: "warning",
                        file: design_rel.clone(),
                        line: None,
                        source: from.to_string(),
                        design_file: design_rel.clone(),
                        message: format!(
                            "{why} but its design file {design_rel} is still there; `lexictl update` moves or removes it"
                        ),
                        renamed_to: touch.to.clone(),
                        added: Vec::new(),
                        removed: Vec::new(),
                    });
                }
            }
        }
        Ok(())
    }

    /// `Some((added, removed, line))` when `from` at the base and `to` at the head are code in an
    /// enabled language and their public interfaces differ.
    #[allow(clippy::type_complexity)]
    fn interface_change(
        &self,
        from: &str,
        to: &str,
        head: &FileAt,
    ) -> anyhow::Result<Option<(Vec<Symbol>, Vec<Symbol>, Option<usize>)>> {
        let Some(language) = Language::from_path(Path::new(to))
            .filter(|language| language_enabled(self.project, *language))
        else {
            return Ok(None);
        };
        let Some(base) = self.at_base(Some(from))? else {
            return Ok(None);
        };
        if !self.is_documentable_text(to, &head.data)
            || !self.is_documentable_text(from, &base.data)
        {
            return Ok(None);
        }
        let (Some(new_text), Some(old_text)) = (as_text(&head.data), as_text(&base.data)) else {
            return Ok(None);
        };
        let (Ok(new), Ok(old)) = (extract(language, &new_text), extract(language, &old_text))
        else {
            return Ok(None);
        };
        if new.hash() == old.hash() {
            return Ok(None);
        }
        let (added, removed) = symbol_diff(&old, &new);
        let line = added
            .first()
            .and_then(|symbol| declaration_line(&new_text, symbol));
        Ok(Some((added, removed, line)))
    }

    /// Text the update would document: not binary, not too large.
    fn is_documentable_text(&self, rel: &str, data: &[u8]) -> bool {
        let limit = self
            .project
            .config
            .crawl
            .max_file_size_kb
            .saturating_mul(1024);
        !has_binary_extension(Path::new(rel), &self.project.config)
            && (data.len() as u64) <= limit
            && !data[..data.len().min(8192)].contains(&0)
    }
}

/// "changed: eval; added: Ast::value, …": the names whose public signatures changed (at both ends),
/// were added or were removed, at most five of each, each name passed through `show`.
pub fn describe_interface_change(
    added: &[Symbol],
    removed: &[Symbol],
    show: &dyn Fn(&str) -> String,
) -> String {
    let name = |s: &Symbol| match &s.parent {
        Some(parent) => format!("{parent}::{}", s.name),
        None => s.name.clone(),
    };
    let added_names: BTreeSet<String> = added.iter().map(name).collect();
    let removed_names: BTreeSet<String> = removed.iter().map(name).collect();
    let changed: Vec<&String> = added_names.intersection(&removed_names).collect();
    let only_added: Vec<&String> = added_names.difference(&removed_names).collect();
    let only_removed: Vec<&String> = removed_names.difference(&added_names).collect();
    let list = |names: &[&String]| {
        let mut text = names
            .iter()
            .take(5)
            .map(|n| show(n))
            .collect::<Vec<_>>()
            .join(", ");
        if names.len() > 5 {
            text.push_str(&format!(" and {} more", names.len() - 5));
        }
        text
    };
    let mut parts = Vec::new();
    for (label, names) in [
        ("changed", &changed),
        ("added", &only_added),
        ("removed", &only_removed),
    ] {
        if !names.is_empty() {
            parts.push(format!("{label}: {}", list(names)));
        }
    }
    parts.join("; ")
}

/// What a post's frontmatter says that its history also records: net score, answer scores, status.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PostState {
    votes: i64,
    answers: BTreeMap<u32, i64>,
    status: String,
}

impl PostState {
    fn of(post: &Post) -> PostState {
        PostState {
            votes: post.meta.votes,
            answers: post
                .meta
                .answer_votes
                .iter()
                .filter(|(_, score)| **score != 0)
                .map(|(answer, score)| (*answer, *score))
                .collect(),
            status: post.meta.status.as_str().to_string(),
        }
    }
}

/// The state after each prefix of `events`: `[k]` is the state after the first `k` events.
fn replay<'e>(events: impl Iterator<Item = &'e Event>) -> Vec<PostState> {
    let mut state = PostState {
        votes: 0,
        answers: BTreeMap::new(),
        status: "open".to_string(),
    };
    let mut states = vec![state.clone()];
    for event in events {
        match event.kind.as_str() {
            "vote" => {
                let delta = event.delta.unwrap_or(0);
                match event.answer {
                    None => state.votes += delta,
                    Some(answer) => {
                        let score = state.answers.entry(answer).or_insert(0);
                        *score += delta;
                        if *score == 0 {
                            state.answers.remove(&answer);
                        }
                    }
                }
            }
            "status" | "accept" => {
                if let Some(status) = &event.status {
                    state.status = status.clone();
                }
            }
            _ => {}
        }
        states.push(state.clone());
    }
    states
}

/// Public symbols only at the head (added or changed) and only at the base (removed or changed).
fn symbol_diff(old: &Interface, new: &Interface) -> (Vec<Symbol>, Vec<Symbol>) {
    let key = |s: &Symbol| {
        (
            s.parent.clone(),
            s.kind.as_str(),
            s.name.clone(),
            s.signature.clone(),
        )
    };
    let old_keys: BTreeSet<_> = old.symbols.iter().map(key).collect();
    let new_keys: BTreeSet<_> = new.symbols.iter().map(key).collect();
    let added = new
        .symbols
        .iter()
        .filter(|s| !old_keys.contains(&key(s)))
        .cloned()
        .collect();
    let removed = old
        .symbols
        .iter()
        .filter(|s| !new_keys.contains(&key(s)))
        .cloned()
        .collect();
    (added, removed)
}

/// The 1-based line that most likely declares `symbol`: the first line holding its name as a word
/// together with the keyword written before the name in its signature (`fn`, `class`, `def`, …),
/// else the first line holding the name as a word.
fn declaration_line(text: &str, symbol: &Symbol) -> Option<usize> {
    let words: Vec<&str> = symbol
        .signature
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
        .collect();
    let keyword = words
        .iter()
        .position(|w| *w == symbol.name)
        .and_then(|i| i.checked_sub(1))
        .map(|i| words[i]);
    let has_word = |line: &str, word: &str| {
        line.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
            .any(|w| w == word)
    };
    let lines: Vec<&str> = text.lines().collect();
    let with_keyword = keyword.and_then(|keyword| {
        lines
            .iter()
            .position(|line| has_word(line, &symbol.name) && has_word(line, keyword))
    });
    with_keyword
        .or_else(|| lines.iter().position(|line| has_word(line, &symbol.name)))
        .map(|index| index + 1)
}

/// The file as text (LF line endings), or `None` if it is binary or not UTF-8.
fn as_text(data: &[u8]) -> Option<String> {
    if data[..data.len().min(8192)].contains(&0) {
        return None;
    }
    std::str::from_utf8(data)
        .ok()
        .map(|text| normalize_newlines(text).into_owned())
}

/// A capped unified diff of `old` → `new`. `old` is `None` for an added file (diffed against
/// nothing) and `Some(None)` when the old side exists but is not text. Returns the diff, or why there
/// is none.
fn meaningful_diff(old: Option<Option<&str>>, new: Option<&str>) -> (Option<Diff>, Option<String>) {
    let (old, new) = match (old, new) {
        (None, Some(new)) => ("", new),
        (Some(Some(old)), Some(new)) => (old, new),
        _ => return (None, Some("binary or not UTF-8".into())),
    };
    if old.len() > MAX_DIFF_INPUT || new.len() > MAX_DIFF_INPUT {
        return (
            None,
            Some(format!(
                "too large to diff (over {} KiB)",
                MAX_DIFF_INPUT / 1024
            )),
        );
    }
    (Some(unified_diff(old, new)), None)
}

/// A unified diff with [`DIFF_CONTEXT`] lines of context, capped at [`MAX_DIFF_LINES`] lines.
pub fn unified_diff(old: &str, new: &str) -> Diff {
    use similar::{ChangeTag, TextDiff};
    let diff = TextDiff::configure()
        .timeout(std::time::Duration::from_secs(2))
        .diff_lines(old, new);
    let mut added = 0;
    let mut removed = 0;
    for change in diff.iter_all_changes() {
        match change.tag() {
            ChangeTag::Insert => added += 1,
            ChangeTag::Delete => removed += 1,
            ChangeTag::Equal => {}
        }
    }
    let text = diff
        .unified_diff()
        .context_radius(DIFF_CONTEXT)
        .missing_newline_hint(false)
        .to_string();
    let lines: Vec<&str> = text.lines().collect();
    let kept = lines.len().min(MAX_DIFF_LINES);
    let mut unified = lines[..kept].join("\n");
    if kept > 0 {
        unified.push('\n');
    }
    Diff {
        unified,
        added,
        removed,
        omitted_lines: lines.len() - kept,
    }
}

/// Milliseconds since the Unix epoch of an RFC 3339 UTC time (`2026-01-15T10:30:00Z`, optionally with
/// a fraction), or `None` if it is not one.
fn ts_millis(ts: &str) -> Option<i64> {
    let ts = ts.trim().strip_suffix('Z')?;
    let (date, time) = ts.split_once('T')?;
    let mut date_parts = date.splitn(3, '-').map(str::parse::<i64>);
    let (year, month, day) = (
        date_parts.next()?.ok()?,
        date_parts.next()?.ok()?,
        date_parts.next()?.ok()?,
    );
    let (clock, fraction) = time.split_once('.').unwrap_or((time, ""));
    let mut clock_parts = clock.splitn(3, ':').map(str::parse::<i64>);
    let (hour, minute, second) = (
        clock_parts.next()?.ok()?,
        clock_parts.next()?.ok()?,
        clock_parts.next()?.ok()?,
    );
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    let millis = if fraction.is_empty() {
        0
    } else {
        let digits: String = fraction.chars().take(3).collect();
        format!("{digits:0<3}").parse::<i64>().ok()?
    };
    // Howard Hinnant's days-from-civil.
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    Some(((days * 86_400 + hour * 3600 + minute * 60 + second) * 1000) + millis)
}

/// The ignore layers for single paths: `.gitignore` (when `ignore.use_gitignore`) and `.lexignore`
/// files of the path's directories (read from the working tree, deeper files win), then the config's
/// patterns and the secrets denylist.
struct IgnoreLayers {
    root: std::path::PathBuf,
    use_gitignore: bool,
    extra: ExtraIgnores,
    dirs: HashMap<String, Vec<Gitignore>>,
}

impl IgnoreLayers {
    fn new(project: &Project, extra: ExtraIgnores) -> IgnoreLayers {
        IgnoreLayers {
            root: project.root.clone(),
            use_gitignore: project.config.ignore.use_gitignore,
            extra,
            dirs: HashMap::new(),
        }
    }

    fn is_ignored(&mut self, rel: &str) -> bool {
        if self.extra.is_ignored(rel, false) {
            return true;
        }
        let abs = crate::project::paths::join_rel(&self.root, rel);
        let mut ignored = false;
        let mut dir = String::new();
        let parts: Vec<&str> = rel.split('/').collect();
        for (depth, part) in parts.iter().enumerate() {
            for matcher in self.matchers(&dir) {
                let matched = matcher.matched_path_or_any_parents(&abs, false);
                if matched.is_ignore() {
                    ignored = true;
                } else if matched.is_whitelist() {
                    ignored = false;
                }
            }
            if depth + 1 < parts.len() {
                if !dir.is_empty() {
                    dir.push('/');
                }
                dir.push_str(part);
            }
        }
        ignored
    }

    fn matchers(&mut self, dir: &str) -> &[Gitignore] {
        let root = &self.root;
        let use_gitignore = self.use_gitignore;
        self.dirs.entry(dir.to_string()).or_insert_with(|| {
            let base = crate::project::paths::join_rel(root, dir);
            let mut names = Vec::new();
            if use_gitignore {
                names.push(".gitignore");
            }
            names.push(LEXIGNORE_FILE);
            names
                .into_iter()
                .map(|name| base.join(name))
                .filter(|path| path.is_file())
                .map(|path| Gitignore::new(path).0)
                .collect()
        })
    }
}

fn summarize(review: &Review) -> Summary {
    let mut summary = Summary::default();
    for design in &review.design_files {
        match design.change {
            ChangeKind::Added => summary.design_files_added += 1,
            ChangeKind::Modified => summary.design_files_modified += 1,
            ChangeKind::Renamed => summary.design_files_renamed += 1,
            ChangeKind::Removed => summary.design_files_removed += 1,
        }
        if design.footer_only {
            summary.design_files_footer_only += 1;
        }
        match design.provenance.as_ref().map(|p| p.written_by) {
            Some("archivist") => summary.written_by_archivist += 1,
            Some("agent_or_human") => summary.written_by_agent_or_human += 1,
            Some(_) => summary.provenance_unrecorded += 1,
            None => {}
        }
    }
    summary.warnings = review.findings.len();
    for concept in &review.concepts {
        match concept.change {
            ChangeKind::Added => summary.concepts_added += 1,
            ChangeKind::Removed => summary.concepts_removed += 1,
            _ => summary.concepts_modified += 1,
        }
    }
    for post in &review.stack {
        match post.change {
            ChangeKind::Added => summary.stack_posts_added += 1,
            ChangeKind::Removed => summary.stack_posts_removed += 1,
            _ => summary.stack_posts_modified += 1,
        }
        if post.accepted_answer.head.is_some() && post.accepted_answer.changed() {
            summary.answers_accepted += 1;
        }
    }
    summary.line = summary_line(&summary);
    summary
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn summary_line(s: &Summary) -> String {
    let mut parts = Vec::new();
    let designs = s.design_files_added
        + s.design_files_modified
        + s.design_files_renamed
        + s.design_files_removed;
    if designs > 0 {
        let meaningful_modified = s.design_files_modified + s.design_files_renamed;
        let footer_only = s.design_files_footer_only.min(meaningful_modified);
        let mut detail = Vec::new();
        for (n, label) in [
            (s.design_files_added, "added"),
            (
                s.design_files_modified + s.design_files_renamed - footer_only,
                "modified",
            ),
            (footer_only, "footer only"),
            (s.design_files_removed, "removed"),
        ] {
            if n > 0 {
                detail.push(format!("{n} {label}"));
            }
        }
        parts.push(format!(
            "{} changed ({})",
            plural(designs, "design file", "design files"),
            detail.join(", ")
        ));
    } else {
        parts.push("no design file changes".to_string());
    }
    parts.push(if s.warnings == 0 {
        "no warnings".to_string()
    } else {
        plural(s.warnings, "warning", "warnings")
    });
    for (n, label) in [
        (s.concepts_added, "added"),
        (s.concepts_modified, "changed"),
        (s.concepts_removed, "removed"),
    ] {
        if n > 0 {
            parts.push(format!("{} {label}", plural(n, "concept", "concepts")));
        }
    }
    if s.stack_posts_added > 0 {
        parts.push(plural(
            s.stack_posts_added,
            "new Stack post",
            "new Stack posts",
        ));
    }
    if s.stack_posts_modified > 0 {
        parts.push(format!(
            "{} changed",
            plural(s.stack_posts_modified, "Stack post", "Stack posts")
        ));
    }
    if s.stack_posts_removed > 0 {
        parts.push(format!(
            "{} removed",
            plural(s.stack_posts_removed, "Stack post", "Stack posts")
        ));
    }
    if s.answers_accepted > 0 {
        parts.push(format!(
            "{} accepted",
            plural(s.answers_accepted, "answer", "answers")
        ));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_fall_into_categories() {
        assert_eq!(category("src/a.rs"), Category::Source);
        assert_eq!(category(".lexibrary/src/a.rs.md"), Category::Design);
        assert_eq!(category(".lexibrary/concepts/Auth.md"), Category::Concept);
        assert_eq!(
            category(".lexibrary/stack/ST-001-lexer-panics.md"),
            Category::Stack
        );
        assert_eq!(category(".lexibrary/src/.aindex"), Category::Library);
        assert_eq!(category(".lexibrary/START_HERE.md"), Category::Library);
        assert_eq!(category(".lexibrary/.cache/x"), Category::Skipped);
        assert_eq!(category(".lexibrary/stack/notes.md"), Category::Library);
    }

    #[test]
    fn range_labels_follow_git() {
        assert_eq!(labels("main..HEAD"), ("main".into(), "HEAD".into(), ".."));
        assert_eq!(labels("main..."), ("main".into(), "HEAD".into(), "..."));
        assert_eq!(
            labels("origin/main"),
            ("origin/main".into(), "HEAD".into(), "...")
        );
    }

    #[test]
    fn timestamps_parse_to_millis() {
        assert_eq!(ts_millis("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            ts_millis("2026-01-15T10:30:00.123Z"),
            Some(1_768_473_000_123)
        );
        assert_eq!(ts_millis("2000-02-29T00:00:00Z"), Some(951_782_400_000));
        assert_eq!(ts_millis("yesterday"), None);
        assert_eq!(ts_millis("2026-13-01T00:00:00Z"), None);
    }

    #[test]
    fn diffs_are_capped_and_counted() {
        let old: String = (0..200).map(|i| format!("line {i}\n")).collect();
        let new: String = (0..200).map(|i| format!("LINE {i}\n")).collect();
        let diff = unified_diff(&old, &new);
        assert_eq!((diff.added, diff.removed), (200, 200));
        assert_eq!(diff.unified.lines().count(), MAX_DIFF_LINES);
        assert!(diff.omitted_lines > 0);
        let small = unified_diff("a\nb\nc\n", "a\nB\nc\n");
        assert_eq!(small.unified, "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n");
    }

    #[test]
    fn binary_and_invalid_utf8_are_not_text() {
        assert_eq!(as_text(b"a\0b"), None);
        assert_eq!(as_text(&[0xff, 0xfe, b'a']), None);
        assert_eq!(as_text(b"a\r\nb\r\n").as_deref(), Some("a\nb\n"));
    }

    #[test]
    fn replaying_a_history_gives_the_state_after_each_event() {
        let event =
            |kind: &str, answer: Option<u32>, delta: Option<i64>, status: Option<&str>| Event {
                ts: "2026-01-15T10:00:00.000Z".into(),
                v: 1,
                id: "x".into(),
                kind: kind.into(),
                post: "ST-001".into(),
                answer,
                delta,
                status: status.map(str::to_string),
                from: None,
                of: None,
                author: "a".into(),
                comment: None,
            };
        let events = [
            event("created", None, None, None),
            event("vote", None, Some(1), None),
            event("vote", Some(1), Some(1), None),
            event("vote", Some(1), Some(-1), None),
            event("accept", Some(1), None, Some("resolved")),
        ];
        let states = replay(events.iter());
        assert_eq!(states.len(), 6);
        assert_eq!(states[0].status, "open");
        assert_eq!(states[2].votes, 1);
        assert_eq!(states[3].answers.get(&1), Some(&1));
        assert!(states[4].answers.is_empty(), "a net of zero is no entry");
        assert_eq!(states[5].status, "resolved");
    }

    #[test]
    fn declarations_are_found_by_keyword_and_name() {
        let symbol = Symbol {
            kind: crate::source::SymbolKind::Function,
            name: "eval".into(),
            parent: None,
            signature: "pub fn eval(input: &str, strict: bool) -> i64".into(),
        };
        let text =
            "//! eval things\n\n/// Evaluate.\npub fn eval(input: &str, strict: bool) -> i64 {\n";
        assert_eq!(declaration_line(text, &symbol), Some(4));
    }
}
