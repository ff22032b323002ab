//! What an update did (or, with `--dry-run`/`--check`, would do): the [`UpdateReport`] the CLI prints
//! as text or JSON, its parts, and the lines the update log keeps.

use std::collections::BTreeMap;

use super::scanned::ChangeLevel;
use crate::archivist::Generation;
use crate::git::Oid;

/// How much of the tree an update looked at.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mode {
    /// Every file in scope.
    #[default]
    Full,
    /// The paths given on the command line.
    Paths,
    /// What changed since the last processed commit, plus uncommitted changes.
    ChangedOnly,
    /// Only `START_HERE.md`.
    StartHere,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Full => "full",
            Mode::Paths => "paths",
            Mode::ChangedOnly => "changed-only",
            Mode::StartHere => "start-here",
        }
    }
}

impl std::fmt::Display for Mode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// What the update does to one file, as the report shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum PlanAction {
    /// The Archivist writes the design file.
    #[serde(rename = "write")]
    Write,
    /// An agent's design file gets fresh footer hashes.
    #[serde(rename = "refresh footer")]
    RefreshFooter,
    /// The design file goes with its deleted source.
    #[serde(rename = "remove")]
    Remove,
    /// The source is gone but the design file holds hand-written content: kept.
    #[serde(rename = "keep")]
    Keep,
    /// The design file moves with its renamed source.
    #[serde(rename = "move")]
    Move,
    /// Left alone this run (conflict markers, unreadable).
    #[serde(rename = "skip")]
    Skip,
    /// The Archivist could not write it; the old design file is kept.
    #[serde(rename = "failed")]
    Failed,
}

impl PlanAction {
    pub fn name(self) -> &'static str {
        match self {
            PlanAction::Write => "write",
            PlanAction::RefreshFooter => "refresh footer",
            PlanAction::Remove => "remove",
            PlanAction::Keep => "keep",
            PlanAction::Move => "move",
            PlanAction::Skip => "skip",
            PlanAction::Failed => "failed",
        }
    }
}

/// One file's fate in this update.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlanItem {
    pub source: String,
    pub level: ChangeLevel,
    /// For RENAMED: the old path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    pub action: PlanAction,
}

/// Provenance of one design file the Archivist wrote in this run: what it was generated from and
/// by whom. (Appended to `refs/notes/lexibrarian/provenance` by the notes writer.)
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Provenance {
    /// `.lexibrary/<source>.md`.
    pub design_file: String,
    pub source: String,
    pub source_hash: String,
    pub interface_hash: Option<String>,
    /// The `design_hash` written in the footer.
    pub design_hash: String,
    pub level: ChangeLevel,
    /// Generator, model, prompt version and hash, tokens in/out, duration.
    #[serde(flatten)]
    pub generation: Generation,
    /// The written file's git blob id (the key of its provenance note), when in git.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blob: Option<Oid>,
}

/// A file this run could not handle: a source (or its design file) that could not be read or
/// written, or that the model failed on; or a library file (`.lexibrary/…/.aindex`,
/// `.lexibrary/START_HERE.md`) that could not be read or written. What it had is untouched and the
/// next run retries it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FailedFile {
    /// The source path, or the library file's project-relative path.
    pub source: String,
    pub reason: String,
}

/// A file whose model answer exceeded the design file budget (footer key `over_scoped`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct OverScoped {
    pub source: String,
    /// Tokens in the model's answer (cl100k).
    pub tokens: usize,
    /// `token_budgets.design_file_tokens`.
    pub budget: usize,
}

/// What an LLM provider would be sent (`--dry-run` and `--check` with an LLM provider).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LlmEstimate {
    pub provider: String,
    pub model: String,
    /// One request per file, sorted by path.
    pub requests: Vec<LlmRequest>,
    /// Sum of the requests' input tokens.
    pub input_tokens: usize,
}

/// One file's request in an [`LlmEstimate`].
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LlmRequest {
    pub source: String,
    /// cl100k tokens of the system and user prompt.
    pub input_tokens: usize,
}

/// What an update did (or, with `--dry-run`/`--check`, would do).
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct UpdateReport {
    pub mode: Mode,
    /// Every file that is not UNCHANGED, sorted by path.
    pub items: Vec<PlanItem>,
    /// Files examined, by level (UNCHANGED included).
    pub counts: BTreeMap<&'static str, usize>,
    /// Design files whose Dependents section moved with the reverse index.
    pub dependents_refreshed: Vec<String>,
    /// Design files written (with `--dry-run`/`--check`: that would be written).
    pub design_files_written: usize,
    /// Design files removed (with `--dry-run`/`--check`: that would be removed).
    pub design_files_removed: usize,
    pub aindex_written: Vec<String>,
    pub aindex_removed: Vec<String>,
    pub start_here_written: bool,
    /// Design files written (with the blob id of the text, in git) or removed (`None`), by
    /// project-relative path: what `remember` records for the fast path after the library is
    /// committed (`workspace::library_writes`).
    #[serde(skip)]
    pub design_writes: Vec<(String, Option<crate::git::Oid>)>,
    /// Design files the Archivist wrote, with their provenance (not with `--dry-run`/`--check`).
    pub generated: Vec<Provenance>,
    /// Files that could not be read, written or removed (a source, a design file, an index,
    /// START_HERE.md) or that the model failed on, with the reason; the run exits 1 when there are
    /// any.
    pub failed: Vec<FailedFile>,
    /// Temporary files left in `.lexibrary/` by a killed writer, removed by this run (with
    /// `--check`: that a run would remove).
    pub debris_removed: Vec<String>,
    /// After a killed run: the temporary pack files its provenance write left in the object
    /// database, removed (paths relative to the git directory).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub pack_debris_removed: Vec<String>,
    /// Files whose model answer was over the design file budget.
    pub over_scoped: Vec<OverScoped>,
    /// With an LLM provider and `--dry-run`/`--check`: the requests a real run would send.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm_estimate: Option<LlmEstimate>,
    pub warnings: Vec<String>,
    /// With `--verbose`: the imports of each file read that name no project file (external
    /// packages, the standard library, typos), in source order.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub unresolved: BTreeMap<String, Vec<String>>,
    /// Agents' design files whose Interface Contract describes an interface the code no longer has
    /// (all of the library's with `--check`; those this run refreshed otherwise). No update fixes
    /// them: the agent must. `--check` exits 2 on any.
    pub contradictions: Vec<crate::workspace::contract::Drift>,
    /// Anything would change, or something contradicts the code (what `--check` reports with exit 2).
    pub stale: bool,
    pub dry_run: bool,
    /// Nothing changed since the last update (same HEAD, clean tree, same config): no file was read.
    pub up_to_date: bool,
    /// With `--yield-to-git`: the git operation this run stopped for (it wrote nothing after that).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub yielded_to: Option<crate::git::Operation>,
    pub elapsed_ms: u128,
}

impl UpdateReport {
    /// Count a file examined at `level`.
    pub fn count(&mut self, level: ChangeLevel) {
        *self.counts.entry(level.label()).or_default() += 1;
    }

    /// Whether anything would change: what `--check` reports with exit 2.
    pub fn anything_stale(&self) -> bool {
        !self.items.is_empty()
            || !self.debris_removed.is_empty()
            || !self.dependents_refreshed.is_empty()
            || !self.aindex_written.is_empty()
            || !self.aindex_removed.is_empty()
            || self.start_here_written
    }

    /// What `--check` found, one `WHAT path` entry each: every file at a change level other than
    /// UNCHANGED (`NEW src/b.rs`), then Dependents, indexes, START_HERE.md, temporary files and
    /// agents' contracts the code left behind — what `lexictl status` and the blocking pre-push
    /// check report (empty exactly when `--check` would exit 0).
    pub fn stale_entries(&self) -> Vec<String> {
        let mut entries: Vec<String> = self
            .items
            .iter()
            .map(|item| format!("{} {}", item.level.label(), item.source))
            .collect();
        let tagged = |tag: &str, paths: &[String]| -> Vec<String> {
            paths.iter().map(|path| format!("{tag} {path}")).collect()
        };
        entries.extend(tagged("DEPENDENTS", &self.dependents_refreshed));
        entries.extend(tagged("INDEX", &self.aindex_written));
        entries.extend(tagged("INDEX", &self.aindex_removed));
        if self.start_here_written {
            entries.push("START_HERE .lexibrary/START_HERE.md".into());
        }
        entries.extend(tagged("DEBRIS", &self.debris_removed));
        entries.extend(
            self.contradictions
                .iter()
                .map(|drift| format!("STALE_CONTRACT {}", drift.design_file)),
        );
        entries
    }

    /// Whether some file was skipped (so the tree is not fully processed).
    pub fn skipped_any(&self) -> bool {
        self.items
            .iter()
            .any(|item| item.action == PlanAction::Skip)
    }

    /// The update log's summary of this run.
    pub fn log_line(&self) -> String {
        let counts: Vec<String> = self
            .counts
            .iter()
            .map(|(level, n)| format!("{level}={n}"))
            .collect();
        let mut line = format!(
            "update mode={} {} written={} removed={} dependents={} aindex={} start_here={} dry_run={} {}ms",
            self.mode,
            counts.join(" "),
            self.design_files_written,
            self.design_files_removed,
            self.dependents_refreshed.len(),
            self.aindex_written.len(),
            self.start_here_written,
            self.dry_run,
            self.elapsed_ms
        );
        for item in &self.items {
            line.push_str(&format!(
                "\n  {} {} ({})",
                item.level.label(),
                item.source,
                item.action.name()
            ));
        }
        for warning in &self.warnings {
            line.push_str(&format!("\n  warning: {warning}"));
        }
        for drift in &self.contradictions {
            line.push_str(&format!(
                "\n  contradiction: {}: {}",
                drift.design_file,
                drift.message()
            ));
        }
        for failed in &self.failed {
            line.push_str(&format!("\n  failed: {}: {}", failed.source, failed.reason));
        }
        line
    }
}

/// The update log's line for a design file a model wrote. Everything in it is safe to keep: no key,
/// no prompt, no answer.
pub fn provenance_line(provenance: &Provenance) -> String {
    let generation = &provenance.generation;
    let number = |n: Option<u64>| n.map_or_else(|| "?".to_string(), |n| n.to_string());
    format!(
        "generated {} by {} model={} prompt={} prompt_hash={} tokens_in={} tokens_out={} {}ms",
        provenance.design_file,
        generation.generator,
        generation.model.as_deref().unwrap_or("-"),
        generation.prompt_version.as_deref().unwrap_or("-"),
        generation.prompt_hash.as_deref().unwrap_or("-"),
        number(generation.tokens_in),
        number(generation.tokens_out),
        generation.duration_ms
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The JSON report spells modes and actions as it always has.
    #[test]
    fn modes_and_actions_serialise_to_their_names() {
        for mode in [Mode::Full, Mode::Paths, Mode::ChangedOnly, Mode::StartHere] {
            let json = serde_json::to_string(&mode).expect("json");
            assert_eq!(json, format!("\"{}\"", mode.name()));
        }
        for action in [
            PlanAction::Write,
            PlanAction::RefreshFooter,
            PlanAction::Remove,
            PlanAction::Keep,
            PlanAction::Move,
            PlanAction::Skip,
            PlanAction::Failed,
        ] {
            let json = serde_json::to_string(&action).expect("json");
            assert_eq!(json, format!("\"{}\"", action.name()));
        }
    }
}
