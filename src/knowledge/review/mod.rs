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

use crate::git::notes::{PROVENANCE_NOTES, STACK_NOTES};
use crate::git::{Change, CommitInfo, FileAt, GitRepo, Oid, RevSpec};
use crate::library::concept::Concept;
use crate::library::design_file::{is_unedited, DesignFile, UpdatedBy};
use crate::library::events::{ProvenanceEvent, StackEvent, StackEventKind};
use crate::library::stack::{id_from_file_name, Post};
use crate::library::{footer, normalize_newlines};
use crate::project::ignores::{ExtraIgnores, LEXIGNORE_FILE};
use crate::project::mirror::{design_path, source_for_design};
use crate::project::scope::Scope;
use crate::project::walk::has_binary_extension;
use crate::project::{Project, CACHE_DIR, CONFIG_FILE, LIBRARY_DIR};
use crate::source::{extract, Interface, Language, Symbol};
use crate::workspace::Workspace;

mod diff;
mod history;
mod posts;
mod reviewer;

use diff::*;
use history::*;
use reviewer::Reviewer;

mod model;
pub use model::*;

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

/// Review the range `range` (`A..B`, `A...B`, a single revision meaning `REV...HEAD`), or, with
/// `None`, from the merge base of the branch's upstream (unless that is the branch's own remote copy;
/// else the first of [`DEFAULT_BASES`] that exists) to `HEAD`.
pub fn review(ws: &Workspace, range: Option<&str>) -> anyhow::Result<Review> {
    let project = ws.project();
    let Some(git) = ws.discovered_repo()? else {
        bail!(
            "`lexictl review` compares commits, and {} is not in a git repository",
            project.root.display()
        );
    };
    let Some(prefix) = ws.prefix() else {
        bail!(
            "the project at {} is not inside the git working tree at {}",
            project.root.display(),
            git.workdir().display()
        );
    };
    let ends = resolve(git, range)?;
    let base_info = git.commit_info(&ends.base)?;
    let head_info = git.commit_info(&ends.head)?;
    let changes = if ends.base == ends.head {
        Vec::new()
    } else {
        git.diff_commits(Some(&ends.base), &ends.head)?
    };
    let mut reviewer = Reviewer::new(project, git, prefix, &ends, (&base_info, &head_info))?;
    let touched = reviewer.touched(changes);
    let mut review = reviewer.empty_review(&ends, base_info, head_info)?;
    let sources = reviewer.sort_into(&mut review, touched)?;
    reviewer.add_findings(&mut review, &sources)?;
    review.summary = summarize(&review);
    Ok(review)
}

/// The resolved range.
struct Ends {
    range: String,
    base_rev: String,
    head_rev: String,
    base: Oid,
    head: Oid,
    merge_base: bool,
}

fn resolve(git: &GitRepo, range: Option<&str>) -> anyhow::Result<Ends> {
    let head_commit = || -> anyhow::Result<Oid> {
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
    one: &Oid,
    two: &Oid,
    one_name: &str,
    two_name: &str,
) -> anyhow::Result<Oid> {
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
        // The mirror of a project's own `stack/` directory.
        assert_eq!(category(".lexibrary/stack/notes.md"), Category::Design);
        assert_eq!(category(".lexibrary/stack/.aindex"), Category::Library);
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
        let event = |kind: &str, answer: Option<u32>, delta: Option<i64>, status: Option<&str>| {
            let mut event = StackEvent::new(
                "2026-01-15T10:00:00.000Z".into(),
                "x".into(),
                StackEventKind::from(kind.to_string()),
                "ST-001",
                "a",
            );
            event.answer = answer;
            event.delta = delta;
            event.status = status.map(str::to_string);
            event
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
