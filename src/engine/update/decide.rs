//! Stage 4, **decide**: what happens to each file — an [`Action`] per scanned file that needs one, and
//! for each orphan whether its design file goes with its source or stays (it holds someone's work).
//! Reading a design file to see whether only its Dependents moved happens here; writing nothing does.

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;

use super::dependents::ReverseIndex;
use super::report::{PlanAction, PlanItem, UpdateReport};
use super::scan::Scan;
use super::scanned::{ChangeLevel, FileState, Scanned};
use crate::archivist::OWNED_SECTIONS;
use crate::library::design_file::{is_unedited, text_is_unedited, DesignFile, UpdatedBy};
use crate::project::mirror::design_path;
use crate::project::Project;

/// What the write stage does with one scanned file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// The Archivist writes the design file's owned sections (NEW, a change, or the move of a design
    /// file nobody edited).
    Regenerate,
    /// An agent's (or a human's) design file: every byte above the footer is kept, the footer's
    /// hashes are refreshed.
    RefreshFooter,
    /// An edited design file moves with its renamed source, content kept.
    Move { from: String },
    /// Only the graph around an unchanged file moved (its importers, or what its own imports
    /// resolve to), so its path lists no longer say what a full run would write — or its footer is
    /// of an earlier format (a `generated:` time): the structural Archivist writes the file again
    /// from its source; a model's file, and one an agent wrote (`agents`), get their lists refreshed
    /// in `current`, the text read now (whose description is `description`). `abridged`: it shows
    /// the interface only.
    RefreshDependents {
        current: String,
        description: String,
        abridged: bool,
        agents: bool,
    },
}

/// An orphan's fate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Orphan {
    /// Exactly the Archivist's output: removed with its source (if it is still this text then).
    Remove { planned_from: String },
    /// It holds hand-written content: kept, with a warning.
    Keep,
}

/// Everything the update will do.
#[derive(Debug, Default)]
pub struct Decisions {
    /// Scanned files with something to do, by path.
    pub files: BTreeMap<String, Action>,
    /// Orphans (not the old paths of moves) with their design file, by path.
    pub orphans: BTreeMap<String, Orphan>,
}

/// Decide every file's action.
pub fn decide(project: &Project, scan: &Scan, index: &ReverseIndex) -> Decisions {
    let files = scan
        .files
        .par_iter()
        .filter_map(|(rel, scanned)| {
            file_action(project, scanned, index).map(|action| (rel.clone(), action))
        })
        .collect();
    let moved_from: BTreeSet<&String> = scan.moves.values().collect();
    let mut orphans: BTreeMap<String, Orphan> = scan
        .orphans
        .iter()
        .filter(|orphan| !moved_from.contains(orphan))
        .filter_map(|orphan| orphan_fate(project, orphan).map(|fate| (orphan.clone(), fate)))
        .collect();
    orphans.extend(no_longer_documented(project, scan));
    Decisions { files, orphans }
}

/// The design files of files read only for the graph (out of scope, `grouped` or `skip`) that
/// were documented before — a wider scope, a mapping rule or a default that grouped them since:
/// they go like an orphan's (kept with a warning when they hold hand-written content), the file
/// itself staying in the graph. One `open` per such file, which fails for almost all.
fn no_longer_documented(project: &Project, scan: &Scan) -> Vec<(String, Orphan)> {
    scan.files
        .par_iter()
        .filter(|(_, scanned)| scanned.is_referenced())
        .filter_map(|(rel, _)| orphan_fate(project, rel).map(|fate| (rel.clone(), fate)))
        .collect()
}

fn file_action(project: &Project, scanned: &Scanned, index: &ReverseIndex) -> Option<Action> {
    if scanned.archivist_writes() {
        return Some(Action::Regenerate);
    }
    match &scanned.state {
        FileState::AgentUpdated { .. } => Some(Action::RefreshFooter),
        FileState::Renamed { from, .. } => Some(Action::Move { from: from.clone() }),
        FileState::Cached { .. } if !index.moved(&scanned.source) && !scanned.resolved_now => None,
        // A sparse checkout that cannot see all its importers leaves its Dependents as they are.
        FileState::Cached { .. } | FileState::Unchanged { .. }
            if !index.knows_all_importers(&scanned.source) =>
        {
            None
        }
        FileState::Cached { .. } | FileState::Unchanged { .. } => {
            dependents_action(project, scanned, index.importers(&scanned.source))
        }
        _ => None,
    }
}

/// For an unchanged file: a Dependents refresh when its design file is exactly the Archivist's and
/// its path lists no longer say what [`crate::archivist::structural::graph_sections`] writes of the graph now.
fn dependents_action(
    project: &Project,
    scanned: &Scanned,
    importers: crate::archivist::Importers<'_>,
) -> Option<Action> {
    let design_rel = design_path(&scanned.source);
    let current = match scanned.existing() {
        Some(existing) => existing.text.clone(),
        None => project.read_to_string(&design_rel).ok()?,
    };
    let design = DesignFile::parse(&design_rel, &current).ok()?;
    let unedited = design
        .footer
        .as_ref()
        .is_some_and(|footer| is_unedited(&current, footer));
    if !unedited {
        return None;
    }
    let lists_hold = |abridged: bool| {
        super::generate::lists_hold(
            &design,
            &super::generate::graph_of(scanned, importers, abridged),
        )
    };
    // The lists as the mapping says first: only when they do not hold is the source read to see
    // whether it is a generated file (written abridged whatever its mapping).
    let (current_lists, abridged) = match lists_hold(scanned.abridged) {
        true => (true, scanned.abridged),
        false => {
            let abridged = shows_interface_only(project, scanned);
            (
                abridged != scanned.abridged && lists_hold(abridged),
                abridged,
            )
        }
    };
    let earlier_format = design
        .footer
        .as_ref()
        .is_some_and(|footer| footer.generated.is_some());
    let description = design.frontmatter.description.clone();
    let agents = design.frontmatter.updated_by == UpdatedBy::Agent;
    (!current_lists || earlier_format).then_some(Action::RefreshDependents {
        current,
        description,
        abridged,
        agents,
    })
}

/// Whether `scanned`'s design file shows its interface only: mapped `abridged`, or a generated file
/// (its first lines say so; read when the scan did not).
pub fn shows_interface_only(project: &Project, scanned: &Scanned) -> bool {
    if scanned.abridged {
        return true;
    }
    match scanned.source_read() {
        Some(source) => crate::source::is_generated_header(&source.text),
        None => project.read(&scanned.source).is_ok_and(|bytes| {
            crate::source::is_generated_header(&String::from_utf8_lossy(&bytes))
        }),
    }
}

/// Whether an orphan's design file goes (exactly the Archivist's output) or stays (anything an agent
/// or human wrote); `None` when there is no design file to decide about.
fn orphan_fate(project: &Project, orphan: &str) -> Option<Orphan> {
    let design_rel = design_path(orphan);
    let text = project.read_to_string(&design_rel).ok()?;
    let unedited = text_is_unedited(&design_rel, &text)
        && DesignFile::parse(&design_rel, &text).is_ok_and(|d| !carries_agent_work(&d));
    Some(if unedited {
        Orphan::Remove { planned_from: text }
    } else {
        Orphan::Keep
    })
}

/// Whether a design file holds anything an agent or human wrote: their description, text before the
/// first section, or a section the Archivist does not own.
fn carries_agent_work(design: &DesignFile) -> bool {
    design.frontmatter.updated_by == UpdatedBy::Agent
        || !design.body.preamble.trim().is_empty()
        || design.body.sections.iter().any(|section| {
            !OWNED_SECTIONS
                .iter()
                .any(|owned| owned.eq_ignore_ascii_case(&section.heading))
                && !section.body.trim().is_empty()
        })
}

impl Decisions {
    /// The plan in the report: every file examined counted by level, every file with something to do
    /// listed (sorted by path), the scan's warnings and the orphans kept for their hand-written content.
    pub fn report_plan(&self, scan: &Scan, report: &mut UpdateReport) {
        for (rel, scanned) in scan.files.iter().filter(|(_, s)| !s.is_referenced()) {
            let level = scanned.level();
            report.count(level);
            report.warnings.extend(scanned.warning.clone());
            let action = match level {
                _ if scanned.error.is_some() => PlanAction::Failed,
                ChangeLevel::Unchanged => continue,
                ChangeLevel::AgentUpdated => PlanAction::RefreshFooter,
                ChangeLevel::Renamed => PlanAction::Move,
                ChangeLevel::SkippedConflict | ChangeLevel::SkippedInvalid => PlanAction::Skip,
                _ => PlanAction::Write,
            };
            report.items.push(PlanItem {
                source: rel.clone(),
                level,
                from: scan.moves.get(rel).cloned(),
                action,
            });
        }
        for (orphan, fate) in &self.orphans {
            report.count(ChangeLevel::Deleted);
            let action = match fate {
                Orphan::Remove { .. } => PlanAction::Remove,
                Orphan::Keep if scan.files.contains_key(orphan) => {
                    report.warnings.push(format!(
                        "{orphan}: no longer documented (out of scope_root, or mapped `grouped` or `skip`) but {} holds hand-written content; kept — move what matters, then delete it",
                        design_path(orphan)
                    ));
                    PlanAction::Keep
                }
                Orphan::Keep => {
                    report.warnings.push(format!(
                        "{orphan}: the source is gone but {} holds hand-written content; kept — move what matters, then delete it",
                        design_path(orphan)
                    ));
                    PlanAction::Keep
                }
            };
            report.items.push(PlanItem {
                source: orphan.clone(),
                level: ChangeLevel::Deleted,
                from: None,
                action,
            });
        }
        report.items.sort_by(|a, b| a.source.cmp(&b.source));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::update::testing::{by_path, TestProject};
    use crate::workspace::cache::Cache;

    const ALL: [&str; 3] = ["src/a.rs", "src/b.rs", "src/lib.rs"];

    fn project() -> TestProject {
        let p = TestProject::new(&[
            ("src/a.rs", "pub fn a() {}\n"),
            ("src/b.rs", "use crate::a;\npub fn b() {}\n"),
        ]);
        p.write("src/lib.rs", "mod a;\nmod b;\n");
        p.generate("src/a.rs", &ALL);
        p
    }

    fn scan_of(p: &TestProject, rels: &[&str]) -> Scan {
        Scan {
            files: by_path(rels.iter().map(|rel| p.scan(rel, &ALL)).collect()),
            listed: Default::default(),
            orphans: Default::default(),
            moves: Default::default(),
            design_stats: Default::default(),
            recomputed: 0,
        }
    }

    #[test]
    fn new_files_are_written_and_unchanged_ones_follow_their_importers() {
        let p = project();
        let scan = scan_of(&p, &["src/a.rs", "src/b.rs"]);
        let index = ReverseIndex::build(
            &scan,
            &Cache::default(),
            true,
            &crate::project::scope::Scope::everything(),
        );
        let decisions = decide(&p.project, &scan, &index);
        assert_eq!(decisions.files.get("src/b.rs"), Some(&Action::Regenerate));
        let refresh = decisions.files.get("src/a.rs");
        assert!(
            matches!(refresh, Some(Action::RefreshDependents { .. })),
            "a.rs's Dependents must now list b.rs: {refresh:?}"
        );
    }

    #[test]
    fn an_orphan_goes_unless_someone_wrote_in_it() {
        let p = project();
        assert!(matches!(
            orphan_fate(&p.project, "src/a.rs"),
            Some(Orphan::Remove { .. })
        ));
        let text = p.read(".lexibrary/src/a.rs.md");
        p.write(
            ".lexibrary/src/a.rs.md",
            &text.replace("updated_by: archivist", "updated_by: agent"),
        );
        assert_eq!(orphan_fate(&p.project, "src/a.rs"), Some(Orphan::Keep));
        assert_eq!(orphan_fate(&p.project, "src/none.rs"), None);
    }
}
