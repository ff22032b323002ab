//! `lexictl status`: the library's health at a glance (D-046) — artifact counts, how many design
//! files are stale, the findings of the last `lexictl validate`, the last update, whether the hook is
//! installed, the state of the notes refs, and project config settings this clone ignores until a
//! person confirms them (`lexictl trust`).
//!
//! Staleness is what `lexictl update --check` finds — the same computation, handed in by the caller
//! as a [`StaleCheck`] (the update pipeline is the engine's; the CLI and the MCP server pass
//! `engine::update::stale_entries`), so the two never disagree: after `lexi describe`, in a fresh
//! clone, anywhere. When nothing changed since the last update it costs what git's status costs (the
//! pipeline's no-op fast path); in a clone no update has run in yet it reads the whole tree once per
//! call. Counts come from the library on disk (the committed library of a fresh clone included) and
//! the small concept/Stack corpus, and issue counts from the record the last `validate` left (with
//! its time) instead of re-validating.

use super::corpus::{Corpus, DocKind, Kinds};
use crate::git::hooks::{self, HooksTarget};
use crate::git::notes::{PROVENANCE_NOTES, STACK_NOTES};
use crate::workspace::library::{walk, Kind, Part};
use crate::workspace::state::ValidationRecord;
use crate::workspace::Workspace;

/// What `lexictl update --check` finds in a workspace, one `WHAT path` entry each (empty: current).
pub type StaleCheck = fn(&Workspace) -> anyhow::Result<Vec<String>>;

/// The health summary.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Status {
    pub design_files: usize,
    pub indexes: usize,
    /// By status (`active`, `draft`, `deprecated`).
    pub concepts: std::collections::BTreeMap<String, usize>,
    /// By status (`open`, `resolved`, `outdated`, `duplicate`).
    pub stack_posts: std::collections::BTreeMap<String, usize>,
    /// What `lexictl update --check` finds: files at a change level other than UNCHANGED, indexes,
    /// START_HERE.md, agents' contracts the code left behind.
    pub stale: usize,
    /// Up to ten of them (`NEW src/b.rs`, `STALE_CONTRACT .lexibrary/src/a.rs.md`).
    pub stale_examples: Vec<String>,
    /// The last `lexictl validate`: when, and its counts.
    pub validation: Option<ValidationRecord>,
    /// When `lexictl update` last completed (RFC 3339), if known.
    pub last_update: Option<String>,
    /// `installed`, `not installed`, `installed (through <manager>)`, `not installed (<manager> …)`,
    /// or `no git`.
    pub hook: String,
    pub notes: Vec<NotesRef>,
    /// The project config's settings that choose where sources and keys are sent, when this clone
    /// has not confirmed them (`lexictl trust`): they are ignored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub untrusted_config: Option<crate::workspace::trust::Notice>,
}

#[derive(Clone, Debug, serde::Serialize)]
pub struct NotesRef {
    pub name: String,
    pub present: bool,
    /// Whether it differs from what the last `lexictl notes sync` (or fetch) saw on any remote.
    pub unpushed: bool,
}

impl Status {
    /// Warnings and errors that deserve attention (stale files count as warnings).
    pub fn problems(&self) -> (usize, usize) {
        let (errors, warnings) = self
            .validation
            .as_ref()
            .map_or((0, 0), |v| (v.errors, v.warnings));
        (errors, warnings)
    }

    /// Whether nothing needs attention.
    pub fn healthy(&self) -> bool {
        let (errors, warnings) = self.problems();
        errors == 0 && warnings == 0 && self.stale == 0
    }

    /// The one line `lexictl status --quiet` prints (`lexibrarian: 3 warnings, 0 errors, 2 stale`),
    /// or `None` when healthy. Also the health line of `lexi orient`.
    pub fn quiet_line(&self) -> Option<String> {
        if self.healthy() {
            return None;
        }
        let (errors, warnings) = self.problems();
        Some(format!(
            "lexibrarian: {warnings} warnings, {errors} errors, {} stale",
            self.stale
        ))
    }
}

/// Gather the status; `check` computes the staleness (see [`StaleCheck`]).
pub fn status(ws: &Workspace, check: StaleCheck) -> anyhow::Result<Status> {
    let project = ws.project();
    let state = ws.state();
    let recorded = state.read();
    let stale = check(ws)?;
    let mirror = walk(&project.library_dir(), Part::MIRROR);
    let count = |wanted: fn(&Kind) -> bool| mirror.files.iter().filter(|f| wanted(&f.kind)).count();
    let corpus = Corpus::load(project, Kinds::KNOWLEDGE);
    let mut status = Status {
        design_files: count(|kind| matches!(kind, Kind::Design { .. } | Kind::Group { .. })),
        indexes: count(|kind| matches!(kind, Kind::Index { .. })),
        stale: stale.len(),
        stale_examples: stale.into_iter().take(10).collect(),
        ..Status::default()
    };
    for doc in corpus.of_kind(DocKind::Concept) {
        *status.concepts.entry(doc.status.clone()).or_insert(0) += 1;
    }
    for doc in corpus.of_kind(DocKind::Stack) {
        *status.stack_posts.entry(doc.status.clone()).or_insert(0) += 1;
    }
    status.validation = recorded.validation;
    status.untrusted_config = ws.trust_notice();
    status.last_update = std::fs::metadata(state.cache_path())
        .and_then(|meta| meta.modified())
        .ok()
        .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|elapsed| crate::library::footer::rfc3339_from_unix(elapsed.as_secs()));
    let git = ws.repo_if_any();
    status.hook = match git {
        None => "no git".into(),
        Some(repo) => match repo.hooks_target() {
            Ok(HooksTarget::Dir(dir)) => {
                if hooks::is_installed(&dir.join("post-commit")) {
                    "installed".into()
                } else {
                    "not installed".into()
                }
            }
            Ok(HooksTarget::Manager(manager)) => {
                let name = hooks::manager_name(manager);
                if hooks::manager_configured(repo.workdir(), manager) {
                    format!("installed (through {name})")
                } else {
                    format!("not installed ({name} manages the hooks; `lexictl setup --hooks` says what to add)")
                }
            }
            Err(_) => "not installable (core.hooksPath outside the repository)".into(),
        },
    };
    if let Some(repo) = git {
        for name in [STACK_NOTES, PROVENANCE_NOTES] {
            let present = repo.has_notes_ref(name);
            let unpushed = present && !repo.notes_ref_on_a_remote(name);
            status.notes.push(NotesRef {
                name: name.to_string(),
                present,
                unpushed,
            });
        }
    }
    Ok(status)
}
