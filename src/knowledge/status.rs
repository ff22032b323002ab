//! `lexictl status`: the library's health at a glance (D-046) — artifact counts, how many design
//! files are stale, the findings of the last `lexictl validate`, the last update, whether the hook is
//! installed, the state of the notes refs, and project config settings this clone ignores until a
//! person confirms them (`lexictl trust`).
//!
//! It runs at every agent session start (`status --quiet`), so it must stay cheap on a 20,000-file
//! library: staleness comes from the update engine's stat/hash cache (a `stat` per source; only
//! files whose stat changed are hashed), counts from that cache and the small concept/Stack corpus,
//! and issue counts from the record the last `validate` left (with its time) instead of re-validating.

use rayon::prelude::*;

use super::corpus::{Corpus, DocKind, Kinds};
use crate::git::hooks::{self, HooksTarget};
use crate::git::notes::{PROVENANCE_NOTES, STACK_NOTES};
use crate::hash::sha256_hex;
use crate::workspace::cache::{Cache, Stat};
use crate::workspace::state::ValidationRecord;
use crate::workspace::Workspace;

/// The health summary.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Status {
    pub design_files: usize,
    pub indexes: usize,
    /// By status (`active`, `draft`, `deprecated`).
    pub concepts: std::collections::BTreeMap<String, usize>,
    /// By status (`open`, `resolved`, `outdated`, `duplicate`).
    pub stack_posts: std::collections::BTreeMap<String, usize>,
    /// Design files whose source changed since the last update.
    pub stale: usize,
    /// Up to ten of them.
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

/// Gather the status.
pub fn status(ws: &Workspace) -> Status {
    let project = ws.project();
    let state = ws.state();
    let recorded = state.read();
    let (cache, _) = Cache::load(&state.cache_path());
    let documented: Vec<(&String, &crate::workspace::cache::Entry)> = cache
        .entries
        .iter()
        .filter(|(_, entry)| entry.design.is_some())
        .collect();
    let absent = ws.absent();
    let mut stale: Vec<String> = documented
        .par_iter()
        // Kept out of the working tree by git (a sparse checkout): present and unchanged.
        .filter(|(source, _)| !absent.has_file(source))
        .filter_map(|(source, entry)| {
            let path = project.abs(source);
            let changed = match Stat::of(&path) {
                None => true,
                Some(stat) if stat == entry.stat => false,
                Some(_) => project
                    .read(source)
                    .map_or(true, |bytes| sha256_hex(&bytes) != entry.source_hash),
            };
            changed.then(|| (*source).clone())
        })
        .collect();
    stale.sort();
    let corpus = Corpus::load(project, Kinds::KNOWLEDGE);
    let mut status = Status {
        design_files: documented.len(),
        indexes: cache.dirs.len(),
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
    status
}
