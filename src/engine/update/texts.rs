//! The design file texts of the write stage: what the structural Archivist, a footer refresh, a
//! move or a Dependents refresh makes of each decided file. Rendered in parallel a chunk of files
//! at a time, so a run never holds every text it writes; a text is a function of its inputs (no
//! time in it), so rendering a file twice gives the same bytes (the write stage computes the
//! provenance of a large run's texts before writing any of them, then renders them again to write).

use rayon::prelude::*;

use super::decide::Action;
use super::dependents::ReverseIndex;
use super::generate::{self, Regenerated};
use super::scan::Scan;
use super::scanned::{ChangeLevel, Scanned};
use super::write::Archivists;
use crate::archivist::structural::StructuralArchivist;
use crate::archivist::{Generation, OverBudget};
use crate::project::mirror::design_path;
use crate::project::Project;

/// One design file text to write.
pub struct Write {
    pub source: String,
    pub text: String,
    /// D-061: the text at the design path the write was computed from (`None`: no file there).
    pub expected: Option<String>,
    pub description: String,
    /// Set when the Archivist wrote it (provenance).
    pub generation: Option<Generation>,
    pub over_budget: Option<OverBudget>,
}

/// What every text of one run is rendered from.
pub struct Render<'a> {
    pub project: &'a Project,
    pub scan: &'a Scan,
    pub index: &'a ReverseIndex,
    pub archivists: &'a Archivists,
}

impl Render<'_> {
    /// The texts of `files` (decided files with their actions) but those a model writes, computed
    /// in parallel, in the order of `files`.
    pub fn texts(&self, files: &[(&String, &Action)]) -> anyhow::Result<Vec<Write>> {
        let planned: Vec<anyhow::Result<Option<Write>>> = files
            .par_iter()
            .map(|(rel, action)| self.text_of(rel, action))
            .collect();
        planned.into_iter().filter_map(Result::transpose).collect()
    }

    /// The text of one decided file (`None`: a model writes it, or there is nothing to write).
    pub fn text_of(&self, rel: &str, action: &Action) -> anyhow::Result<Option<Write>> {
        let Some(scanned) = self.scan.files.get(rel) else {
            return Ok(None);
        };
        let importers = self.index.importers(rel);
        Ok(match action {
            Action::Regenerate if matches!(self.archivists, Archivists::Model(_)) => None,
            Action::Regenerate => Some(archivist_write(
                scanned,
                generate::regenerate(&StructuralArchivist, scanned, importers)?,
            )),
            Action::RefreshFooter => {
                let refreshed = generate::refresh_footer(scanned);
                Some(kept_write(
                    scanned,
                    self.with_current_lists(rel, refreshed, scanned, importers),
                ))
            }
            Action::Move { from } => {
                let old = scanned
                    .existing()
                    .map_or("", |existing| existing.text.as_str());
                // Its importers may have moved with it: list them at once.
                let moved = generate::moved(old, from, scanned);
                let moved = self.with_current_lists(rel, moved, scanned, importers);
                let mut write = kept_write(scanned, moved);
                // The new path has no design file yet.
                write.expected = None;
                Some(write)
            }
            Action::RefreshDependents {
                current, agents, ..
            } if matches!(self.archivists, Archivists::Structural) && !agents => {
                generate::regenerate_unchanged(self.project, scanned, current, importers)?.map(
                    |out| {
                        let mut write = archivist_write(scanned, out);
                        write.expected = Some(current.clone());
                        write
                    },
                )
            }
            Action::RefreshDependents {
                current,
                description,
                abridged,
                ..
            } => {
                let design_rel = design_path(rel);
                let graph = generate::graph_of(scanned, importers, *abridged);
                generate::refresh_dependents(&design_rel, current, &graph, scanned).map(|text| {
                    Write {
                        source: rel.to_string(),
                        text,
                        expected: Some(current.clone()),
                        description: description.clone(),
                        // Only an unedited (Archivist-written) file gets here: record it.
                        generation: Some(Generation::offline("structural", 0)),
                        over_budget: None,
                    }
                })
            }
        })
    }
}

impl Render<'_> {
    /// `text` (a design file someone else wrote, its footer refreshed or its file moved) with its
    /// path lists as the graph says now, when they say otherwise — what the next run would do, so
    /// that one run is enough.
    fn with_current_lists(
        &self,
        rel: &str,
        text: String,
        scanned: &Scanned,
        importers: crate::archivist::Importers<'_>,
    ) -> String {
        if scanned.facts.interface_hash.is_none() {
            return text;
        }
        let design_rel = design_path(rel);
        let abridged = super::decide::shows_interface_only(self.project, scanned);
        let graph = generate::graph_of(scanned, importers, abridged);
        let holds = crate::library::design_file::DesignFile::parse(&design_rel, &text)
            .is_ok_and(|design| generate::lists_hold(&design, &graph));
        if holds {
            return text;
        }
        generate::refresh_dependents(&design_rel, &text, &graph, scanned).unwrap_or(text)
    }
}

/// A design file the Archivist wrote for `scanned`.
pub fn archivist_write(scanned: &Scanned, out: Regenerated) -> Write {
    Write {
        source: scanned.source.clone(),
        text: out.text,
        // D-061 compares with what is at the design path now; a rename's target has nothing yet.
        expected: match scanned.level() {
            ChangeLevel::Renamed => None,
            _ => scanned.existing().map(|existing| existing.text.clone()),
        },
        description: out.description,
        generation: Some(out.generation),
        over_budget: out.over_budget,
    }
}

/// A design file whose content someone else wrote (footer refresh, move).
fn kept_write(scanned: &Scanned, text: String) -> Write {
    Write {
        source: scanned.source.clone(),
        text,
        expected: scanned.existing().map(|existing| existing.text.clone()),
        description: scanned.description().unwrap_or_default().to_string(),
        generation: None,
        over_budget: None,
    }
}
