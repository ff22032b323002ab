//! The data a review returns: plain, serialisable types the CLI renders as markdown, JSON or
//! GitHub annotations.

use super::*;

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
    /// The commit compared.
    pub commit: Oid,
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
    /// An agent's design file whose Interface Contract describes an interface the code no longer
    /// has at the head (`lexictl validate`'s `stale-contract`; an error there).
    StaleContract,
    /// A library file (or `.lexignore`) that is a symbolic link at the head: never followed, and
    /// an error (`lexictl validate`'s `symlink`).
    Symlink,
}

impl FindingKind {
    /// A short title, used for annotations and headings.
    pub fn title(self) -> &'static str {
        match self {
            FindingKind::InterfaceChanged => "Interface changed without a design update",
            FindingKind::MissingDesign => "No design file",
            FindingKind::OrphanedDesign => "Design file left behind",
            FindingKind::StaleContract => "Interface Contract contradicts the code",
            FindingKind::Symlink => "Symbolic link in the library",
        }
    }
}

/// Something the change should have done to the library. Review reports, `lexictl validate` and
/// `lexictl update --check` gate: every finding is a warning but `stale_contract` (no update fixes
/// it; the agent must) and `symlink`, errors.
#[derive(Clone, Debug, Serialize)]
pub struct Finding {
    pub kind: FindingKind,
    /// `warning`, or `error` for `stale_contract` and `symlink`.
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
    pub blob: Oid,
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
    pub events: Vec<StackEvent>,
    /// Net post-level votes among `events`.
    pub net_votes: i64,
    /// Net votes per answer among `events`.
    pub answer_net_votes: BTreeMap<u32, i64>,
}

/// Any other library file, and any library file that is a symbolic link at the head.
#[derive(Clone, Debug, Serialize)]
pub struct FileChange {
    pub path: String,
    pub change: ChangeKind,
    pub from: Option<String>,
    /// At the head the file is a symbolic link (mode 120000) to this path: reported as such,
    /// never read through (its "content" is only where it points).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub symlink_to: Option<String>,
}

/// Whether the notes refs exist in this clone.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct NotesPresent {
    pub provenance: bool,
    pub stack: bool,
}
