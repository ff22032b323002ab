//! Stage 5, **write**: the design files. The structural texts (`texts`) are produced in parallel
//! and the [`Writer`] writes them one by one — each re-checked against what is on disk right before
//! it is written (D-061: an edit that landed during the update wins), atomically, with its
//! provenance. Memory is bounded, not grown with the run ([`CHUNKING`]): the texts of the first
//! 20,000 files are kept until written, the others are rendered and written 4,096 at a time. With
//! a model, at most `llm.concurrency` requests are in flight and each answer is written as it
//! arrives, so a long run keeps what it paid for even if it is interrupted; a file whose request
//! fails keeps its old design file. Then the orphans' design files go (each re-checked too).
//!
//! Provenance is recorded **before** the file it describes is written: one notes commit for all the
//! structural texts before the first of them is written, one per model answer before that answer
//! is written. The texts past the first 20,000 are therefore rendered twice: once for their
//! provenance (each text dropped at once), then to be written; a text holds no time, so both
//! renderings are the same bytes (a text that still differs gets its own note before it is
//! written). A run killed at any point leaves no Archivist-written file without its note (at worst
//! a note for a text that never reached the disk, which nothing looks up), and a note that cannot be
//! recorded (a full disk, a read-only object database) keeps its text from being written: that file
//! is a failure naming why, and the next update writes it.
//!
//! One file never stops the run: a design file that cannot be written or removed (a name too long
//! for the filesystem, no permission, an immutable file, a full disk, a symlink in the way) is a
//! failure recorded with its reason, like a source the scan could not read, and the run goes on —
//! indexes and START_HERE included — to exit 1 with a summary.

use std::collections::{BTreeMap, HashMap, HashSet};

use std::io::Read as _;
use std::path::Path;

use rayon::prelude::*;

use super::decide::{Action, Decisions, Orphan};
use super::dependents::ReverseIndex;
use super::generate;
use super::provenance::append_provenance;
use super::report::{
    provenance_line, FailedFile, LlmEstimate, LlmRequest, OverScoped, Provenance, UpdateReport,
};
use super::scan::Scan;
use super::scanned::{ChangeLevel, Scanned};
use super::texts::{archivist_write, Render, Write};
use super::Progress;
use crate::archivist::llm::{LlmArchivist, LlmSettings};
use crate::archivist::Archivist as _;
use crate::git::notes::PROVENANCE_NOTES;
use crate::git::{GitRepo, Oid};
use crate::nofollow::{self, OpenDirs};
use crate::project::mirror::design_path;
use crate::project::{in_library, Project};
use crate::relpath::RelPath;
use crate::workspace::cache::Stat;
use crate::workspace::state::StateDir;

/// How the write stage bounds its memory: the texts of the first `render_once` decided files are
/// rendered once and kept until written (about 2 KB each: rendering them twice would cost more than
/// it saves); those of the files after them would make memory grow with the run, so they are
/// rendered twice (see the module docs), `chunk` at a time (in parallel) and written.
#[derive(Clone, Copy, Debug)]
struct Chunking {
    render_once: usize,
    chunk: usize,
}

/// Up to 20,000 design files rendered once, then 4,096 at a time.
const CHUNKING: Chunking = Chunking {
    render_once: 20_000,
    chunk: 4096,
};

/// Who writes the owned sections of design files in this run.
pub enum Archivists {
    /// The structural Archivist (offline).
    Structural,
    /// A model, asked at most `llm.concurrency` files at a time.
    Model(LlmArchivist),
    /// A model is configured but this run writes nothing (`--dry-run`, `--check`): estimate what it
    /// would be sent; the structural texts stand in for counting.
    Estimate(LlmSettings),
}

/// What the write stage leaves for the later stages.
#[derive(Default)]
pub struct Written {
    /// Sources whose design file was written in this run, with the file's size and modification
    /// time right after (for the cache: no second look).
    pub written: HashMap<String, Stat>,
    /// The description each written design file carries.
    pub descriptions: HashMap<String, String>,
    /// Sources whose design file this run could not write (or read, or remove), with the reason.
    pub failed: BTreeMap<String, String>,
}

/// Where and how this run writes.
pub struct Target<'a> {
    pub project: &'a Project,
    pub state: &'a StateDir,
    pub repo: Option<&'a GitRepo>,
    pub head: Option<&'a Oid>,
    /// False for `--dry-run` and `--check`: count, write nothing.
    pub writes: bool,
}

/// What the earlier stages hand this one, and where it shows its progress.
pub struct Stages<'a> {
    pub scan: &'a Scan,
    pub index: &'a ReverseIndex,
    pub decisions: &'a Decisions,
    pub archivists: &'a Archivists,
    pub progress: &'a dyn Progress,
}

/// Write every decided design file and remove the orphans' design files.
pub fn run(
    target: &Target<'_>,
    stages: &Stages<'_>,
    report: &mut UpdateReport,
) -> anyhow::Result<Written> {
    run_chunked(target, stages, report, CHUNKING)
}

fn run_chunked(
    target: &Target<'_>,
    stages: &Stages<'_>,
    report: &mut UpdateReport,
    chunking: Chunking,
) -> anyhow::Result<Written> {
    let Stages {
        scan,
        index,
        decisions,
        archivists,
        progress,
    } = *stages;
    let mut writer = Writer {
        target,
        scan,
        report,
        written: Written::default(),
        removals: Vec::new(),
        noted: HashSet::new(),
        note_failure: None,
        progress,
        chunking,
    };
    for (source, scanned) in &scan.files {
        if let Some(reason) = &scanned.error {
            writer.written.failed.insert(source.clone(), reason.clone());
        }
    }
    let render = Render {
        project: target.project,
        scan,
        index,
        archivists,
    };
    writer.write_texts(&render, decisions)?;
    let model_jobs: Vec<&Scanned> = scan
        .files
        .values()
        .filter(|scanned| scanned.archivist_writes())
        .collect();
    match archivists {
        Archivists::Model(llm) => {
            progress.phase("asking the model", model_jobs.len());
            writer.ask(llm, &model_jobs, index);
        }
        Archivists::Estimate(settings) => {
            writer.report.llm_estimate = Some(estimate(settings, &model_jobs, index));
        }
        Archivists::Structural => {}
    }
    writer.remove_orphans(decisions);
    writer.record_failures();
    Ok(writer.written)
}

/// What a model would be sent for `jobs` (`--dry-run`, `--check`).
fn estimate(settings: &LlmSettings, jobs: &[&Scanned], index: &ReverseIndex) -> LlmEstimate {
    let mut requests: Vec<LlmRequest> = jobs
        .par_iter()
        .map(|scanned| {
            let input = generate::archivist_input(scanned, index.importers(&scanned.source));
            LlmRequest {
                source: scanned.source.clone(),
                input_tokens: settings.estimate_input_tokens(&input),
            }
        })
        .collect();
    requests.sort_by(|a, b| a.source.cmp(&b.source));
    LlmEstimate {
        provider: settings.provider.name().to_string(),
        model: settings.model.clone(),
        input_tokens: requests.iter().map(|r| r.input_tokens).sum(),
        requests,
    }
}

/// Writes design files one at a time, keeping the report and what later stages need.
struct Writer<'a, 'r> {
    target: &'a Target<'a>,
    scan: &'a Scan,
    report: &'r mut UpdateReport,
    written: Written,
    /// Old design files to remove once their replacement is written: (source, text planned from).
    removals: Vec<(String, String)>,
    /// Texts (blob ids) whose provenance is already in the notes.
    noted: HashSet<Oid>,
    /// Why provenance could not be recorded, when it could not: those texts are not written.
    note_failure: Option<String>,
    progress: &'a dyn Progress,
    chunking: Chunking,
}

impl Writer<'_, '_> {
    /// Write the texts of every decided file (but those a model writes), their provenance first —
    /// in one notes commit before the first of them is written. A large run ([`Chunking`]) never
    /// holds all its texts: the provenance of those past the first `render_once` is computed from
    /// texts rendered and dropped, then they are rendered again, a chunk at a time, and written.
    fn write_texts(&mut self, render: &Render<'_>, decisions: &Decisions) -> anyhow::Result<()> {
        let decided: Vec<(&String, &Action)> = decisions.files.iter().collect();
        let (once, twice) = decided.split_at(self.chunking.render_once.min(decided.len()));
        self.progress.phase("rendering", 0);
        let kept = self.with_provenance(render.texts(once)?);
        let later = self.planned(render, twice)?;
        self.progress.phase("recording provenance", 0);
        let planned: Vec<&Provenance> = kept
            .iter()
            .filter_map(|(_, provenance)| provenance.as_ref())
            .chain(&later)
            .collect();
        self.note_first(&planned);
        drop(planned);
        drop(later);
        let model = matches!(render.archivists, Archivists::Model(_));
        let rest = twice
            .iter()
            .filter(|(rel, action)| {
                self.scan.files.contains_key(*rel) && !(model && **action == Action::Regenerate)
            })
            .count();
        self.progress.phase("writing", kept.len() + rest);
        self.write_batch(kept);
        for files in twice.chunks(self.chunking.chunk.max(1)) {
            let texts = self.with_provenance(render.texts(files)?);
            self.write_batch(texts);
        }
        Ok(())
    }

    /// Each text with its provenance, computed in parallel.
    fn with_provenance(&self, texts: Vec<Write>) -> Vec<(Write, Option<Provenance>)> {
        let scan = self.scan;
        let in_git = self.target.repo.map(|repo| repo.object_format());
        texts
            .into_par_iter()
            .map(|write| {
                let provenance = provenance_of(scan, in_git, &write);
                (write, provenance)
            })
            .collect()
    }

    /// The provenance of every text of `decided` the Archivist writes, each text rendered in
    /// parallel and dropped (nothing to record in a run that writes nothing, or outside git).
    fn planned(
        &self,
        render: &Render<'_>,
        decided: &[(&String, &Action)],
    ) -> anyhow::Result<Vec<Provenance>> {
        let Some(repo) = self.target.repo.filter(|_| self.target.writes) else {
            return Ok(Vec::new());
        };
        let (scan, format) = (self.scan, Some(repo.object_format()));
        let noted = |(rel, action): &(&String, &Action)| {
            let recorded = matches!(
                action,
                Action::Regenerate | Action::RefreshDependents { .. }
            );
            Ok(match recorded {
                true => render
                    .text_of(rel, action)?
                    .and_then(|write| provenance_of(scan, format, &write)),
                false => None,
            })
        };
        let planned: anyhow::Result<Vec<Option<Provenance>>> =
            decided.par_iter().map(noted).collect();
        Ok(planned?.into_iter().flatten().collect())
    }

    /// Write design files (or, in a run that writes nothing, count them): the provenance of any
    /// text not yet in the notes first, then the files, spread over the cores (each worker keeps
    /// the directories of its last file open), then what became of each, in order. A failure is
    /// recorded.
    fn write_batch(&mut self, batch: Vec<(Write, Option<Provenance>)>) {
        for (write, _) in &batch {
            let level = self.scan.files.get(&write.source).map(Scanned::level);
            if level == Some(ChangeLevel::Unchanged) {
                self.report.dependents_refreshed.push(write.source.clone());
            }
            self.written
                .descriptions
                .insert(write.source.clone(), write.description.clone());
        }
        if !self.target.writes {
            self.report.design_files_written += batch.len();
            batch.iter().for_each(|_| self.progress.advance());
            return;
        }
        let unnoted: Vec<&Provenance> = batch
            .iter()
            .filter_map(|(_, provenance)| provenance.as_ref())
            .filter(|provenance| provenance.blob.is_some_and(|b| !self.noted.contains(&b)))
            .collect();
        if !unnoted.is_empty() {
            self.note_first(&unnoted);
        }
        let (root, progress) = (&self.target.project.root, self.progress);
        let (noted, note_failure) = (&self.noted, &self.note_failure);
        let puts: Vec<Put> = batch
            .par_iter()
            .map_init(
                || OpenDirs::new(root),
                |dirs, (write, provenance)| {
                    // Provenance first: a text whose note could not be recorded is not written.
                    let unrecorded = provenance
                        .as_ref()
                        .and_then(|provenance| provenance.blob)
                        .is_some_and(|blob| !noted.contains(&blob));
                    let put = match (unrecorded, note_failure) {
                        (true, Some(why)) => Put::Failed(format!(
                            "not written: its provenance could not be recorded in {PROVENANCE_NOTES} ({why}); the next update writes it"
                        )),
                        _ => put(dirs, write),
                    };
                    progress.advance();
                    put
                },
            )
            .collect();
        for ((write, provenance), put) in batch.into_iter().zip(puts) {
            match put {
                Put::Written(stat) => {
                    self.report.design_files_written += 1;
                    self.written.written.insert(write.source.clone(), stat);
                    let blob = provenance
                        .as_ref()
                        .and_then(|provenance| provenance.blob)
                        .or_else(|| {
                            let repo = self.target.repo?;
                            repo.blob_id(write.text.as_bytes()).ok()
                        });
                    self.report
                        .design_writes
                        .push((design_path(&write.source), blob));
                    self.record(&write, provenance);
                }
                Put::Changed => self.warn(format!(
                    "{}: changed while the update ran; kept the new version, discarded the Archivist's",
                    design_path(&write.source)
                )),
                Put::Failed(reason) => self.fail(&write.source, reason),
            }
        }
    }

    /// A file that could not be written (or removed): the reason in the report and the log.
    fn fail(&mut self, source: &str, reason: String) {
        self.target.state.log(&format!("{source}: {reason}"));
        self.written.failed.insert(source.to_string(), reason);
    }

    /// Record `provenances` in the notes (one commit) before their files are written. When that
    /// fails (a full disk, a read-only object database), their files are not written: each is a
    /// failure naming why ([`Writer::write_batch`]), and the next update writes them.
    fn note_first(&mut self, provenances: &[&Provenance]) {
        let (Some(repo), true) = (self.target.repo, self.target.writes) else {
            return;
        };
        match append_provenance(repo, self.target.head, provenances) {
            Ok(()) => self
                .noted
                .extend(provenances.iter().filter_map(|provenance| provenance.blob)),
            Err(err) => self.note_failure = Some(err.to_string()),
        }
    }

    /// After a write: its provenance, an over-budget warning, and the old file of a move to remove.
    fn record(&mut self, write: &Write, provenance: Option<Provenance>) {
        let Some(scanned) = self.scan.files.get(&write.source) else {
            return;
        };
        if let Some(provenance) = provenance {
            if provenance.generation.model.is_some() {
                self.target.state.log(&provenance_line(&provenance));
            }
            self.report.generated.push(provenance);
        }
        if let Some(over) = write.over_budget {
            self.warn(format!(
                "{}: over_scoped: the model's answer is {} tokens, over the design file budget of {} (token_budgets.design_file_tokens); what was taken from it was cut to the budget, and the file may do too much",
                write.source, over.tokens, over.budget
            ));
            self.report.over_scoped.push(OverScoped {
                source: write.source.clone(),
                tokens: over.tokens,
                budget: over.budget,
            });
        }
        // A rename's old design file goes only once the new one is safely written.
        if let (Some(from), Some(existing)) =
            (self.scan.moves.get(&write.source), scanned.existing())
        {
            self.removals.push((from.clone(), existing.text.clone()));
        }
    }

    /// Ask the model about `jobs`, at most `llm.concurrency` at a time, writing each answer as it
    /// arrives. A file that fails — the request or the write — is recorded and the others go on.
    fn ask(&mut self, llm: &LlmArchivist, jobs: &[&Scanned], index: &ReverseIndex) {
        let (sender, answers) = std::sync::mpsc::channel();
        std::thread::scope(|threads| {
            threads.spawn(move || {
                crate::engine::bounded::map(jobs, llm.settings().concurrency, |scanned| {
                    let importers = index.importers(&scanned.source);
                    let _ = sender.send((*scanned, generate::regenerate(llm, scanned, importers)));
                });
            });
            for (scanned, result) in answers {
                match result {
                    // `write_batch` counts the answer as it writes it.
                    Ok(out) => {
                        let texts = self.with_provenance(vec![archivist_write(scanned, out)]);
                        self.write_batch(texts);
                    }
                    Err(err) => {
                        self.progress.advance();
                        self.progress.failed();
                        let reason = format!("{err:#}");
                        let line = format!("{}: {} failed: {reason}", scanned.source, llm.name());
                        self.target.state.log(&line);
                        self.written.failed.insert(scanned.source.clone(), reason);
                    }
                }
            }
        });
    }

    /// Every failure in the report (and its plan item marked), and the answers (which arrive in any
    /// order) sorted.
    fn record_failures(&mut self) {
        let failed = &self.written.failed;
        self.report.failed = failed
            .iter()
            .map(|(source, reason)| FailedFile {
                source: source.clone(),
                reason: reason.clone(),
            })
            .collect();
        for item in &mut self.report.items {
            if failed.contains_key(&item.source) {
                item.action = super::report::PlanAction::Failed;
            }
        }
        self.report
            .generated
            .sort_by(|a, b| a.source.cmp(&b.source));
        self.report
            .over_scoped
            .sort_by(|a, b| a.source.cmp(&b.source));
    }

    /// Remove the design files of orphans (and of moved files' old paths), each only if it is still
    /// the text the removal was planned from.
    fn remove_orphans(&mut self, decisions: &Decisions) {
        for (orphan, fate) in &decisions.orphans {
            if let Orphan::Remove { planned_from } = fate {
                self.removals.push((orphan.clone(), planned_from.clone()));
            }
        }
        if !self.target.writes {
            self.report.design_files_removed = self.removals.len() + self.scan.moves.len();
            return;
        }
        for (orphan, planned_from) in std::mem::take(&mut self.removals) {
            self.remove(&orphan, &planned_from);
        }
    }

    fn remove(&mut self, orphan: &str, planned_from: &str) {
        let design_rel = design_path(orphan);
        let project = self.target.project;
        // D-061 for removals: an edit that landed during this run keeps the file.
        match project.read_to_string(&design_rel) {
            Ok(now) if now == planned_from => {}
            Ok(_) => {
                self.warn(format!("{design_rel}: changed while the update ran; kept"));
                return;
            }
            Err(_) => return,
        }
        match project.remove_file(&design_rel) {
            Ok(()) => {
                self.report.design_files_removed += 1;
                self.report.design_writes.push((design_rel.clone(), None));
            }
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(err) => {
                let reason = format!(
                    "cannot remove {design_rel}: {}",
                    nofollow::reason(&design_rel, &err)
                );
                return self.fail(orphan, reason);
            }
        }
        remove_empty_mirror_dirs(project, RelPath::new(orphan).dir());
    }

    /// A warning for the report and the log.
    fn warn(&mut self, message: String) {
        self.target.state.log(&message);
        self.report.warnings.push(message);
    }
}

/// The provenance of a text the Archivist wrote for a file of `scan` (`None` for an agent's text
/// whose footer is refreshed or that moves); keyed by the text's blob id in git (`in_git`: the
/// repository's object format).
fn provenance_of(
    scan: &Scan,
    in_git: Option<crate::git::ObjectFormat>,
    write: &Write,
) -> Option<Provenance> {
    let scanned = scan.files.get(&write.source)?;
    let generation = write.generation.as_ref()?;
    Some(Provenance {
        design_file: design_path(&write.source),
        source: write.source.clone(),
        source_hash: scanned.facts.source_hash.clone(),
        interface_hash: scanned.facts.interface_hash.clone(),
        design_hash: crate::library::footer::design_hash_of(&write.text),
        level: scanned.level(),
        generation: generation.clone(),
        // The note's key is the blob id of the text written. The blob itself reaches the object
        // database when the library is committed (a note may annotate any id); writing 20,000
        // loose objects up front would double a cold run's file creations.
        blob: in_git
            .and_then(|format| crate::git::notes::blob_id(format, write.text.as_bytes()).ok()),
    })
}

/// What became of one text of a [`Writer::write_batch`].
enum Put {
    /// Written; the design file's size and modification time.
    Written(Stat),
    /// An edit landed since the text was planned (D-061): the edit stays.
    Changed,
    /// Could not be written: the reason.
    Failed(String),
}

/// Write one text where nothing changed since it was planned, through the open directories `dirs`.
fn put(dirs: &mut OpenDirs, write: &Write) -> Put {
    let design_rel = design_path(&write.source);
    if write.expected.is_none() {
        return put_new(dirs, &design_rel, write.text.as_bytes());
    }
    let seen = match still_as_planned(dirs, &design_rel, write.expected.as_deref()) {
        Ok(Before::AsPlanned(seen)) => seen,
        Ok(Before::Changed) => return Put::Changed,
        Err(reason) => return Put::Failed(format!("cannot write {design_rel}: {reason}")),
    };
    match write_file(dirs, &design_rel, write.text.as_bytes(), seen.as_ref()) {
        Ok(stat) => Put::Written(Stat::from_stat(&stat)),
        Err(err) => Put::Failed(cannot_write(&design_rel, &err)),
    }
}

/// [`put`] of a text planned where there was no file: created only if there still is none, with no
/// look first. Something that came meanwhile is looked at: an edit is kept, a symlink or a directory
/// refused; one that went again before the look is tried again (a few times: then it is a failure).
fn put_new(dirs: &mut OpenDirs, rel: &str, contents: &[u8]) -> Put {
    for _ in 0..3 {
        match create_file(dirs, rel, contents) {
            Ok(Some(stat)) => return Put::Written(Stat::from_stat(&stat)),
            Ok(None) => match still_as_planned(dirs, rel, None) {
                Ok(Before::AsPlanned(_)) => continue,
                Ok(Before::Changed) => return Put::Changed,
                Err(reason) => return Put::Failed(format!("cannot write {rel}: {reason}")),
            },
            Err(err) => return Put::Failed(cannot_write(rel, &err)),
        }
    }
    Put::Failed(format!(
        "cannot write {rel}: a file there kept appearing and vanishing"
    ))
}

fn cannot_write(rel: &str, err: &std::io::Error) -> String {
    format!("cannot write {rel}: {}", nofollow::reason(rel, err))
}

/// Create project file `rel` through the open directories `dirs` (created as needed) unless
/// something is there (`Ok(None)`); returns the file's `fstat`.
fn create_file(
    dirs: &mut OpenDirs,
    rel: &str,
    contents: &[u8],
) -> std::io::Result<Option<rustix::fs::Stat>> {
    in_parent(dirs, rel, |dir, name, _| {
        crate::atomic::create_new_at(dir, name, contents)
    })
}

/// `act` on the directory holding project file `rel` (opened through `dirs`, created as needed)
/// and the file's name. A directory on the way that vanished since it was opened (`NotFound`) is
/// opened afresh and `act` runs once more, told it is the second time.
fn in_parent<T>(
    dirs: &mut OpenDirs,
    rel: &str,
    act: impl Fn(&nofollow::Dir, &std::ffi::OsStr, bool) -> std::io::Result<T>,
) -> std::io::Result<T> {
    let attempt = |dirs: &mut OpenDirs, again: bool| {
        let (dir, name) = dirs.parent_of(Path::new(rel), true)?;
        act(dir, name, again)
    };
    match attempt(dirs, false) {
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            dirs.forget();
            attempt(dirs, true)
        }
        other => other,
    }
}

/// What is at a path right before it is written.
#[derive(Debug)]
enum Before {
    /// What the write was planned from; the `lstat` of the file (`None`: there is none).
    AsPlanned(Option<rustix::fs::Stat>),
    /// Something else.
    Changed,
}

/// D-061: whether project file `rel` still holds `expected` (`None`: there is no file), read
/// without following symlinks through the open directories `dirs`. An error (the reason) when
/// something that is not a regular file is in the way — a directory, a symlink — or the file cannot
/// be read.
fn still_as_planned(
    dirs: &mut OpenDirs,
    rel: &str,
    expected: Option<&str>,
) -> Result<Before, String> {
    let as_planned = |seen: Option<rustix::fs::Stat>, same: bool| match same {
        true => Before::AsPlanned(seen),
        false => Before::Changed,
    };
    let (dir, name) = match dirs.parent_of(Path::new(rel), false) {
        Ok(found) => found,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            return Ok(as_planned(None, expected.is_none()))
        }
        Err(err) => return Err(nofollow::reason(rel, &err)),
    };
    let seen = dir.stat(name).map_err(|err| nofollow::reason(rel, &err))?;
    match seen {
        None => Ok(as_planned(None, expected.is_none())),
        Some(stat) => {
            let mut now = Vec::new();
            dir.open_file(name)
                .and_then(|mut file| file.read_to_end(&mut now))
                .map_err(|err| nofollow::reason(rel, &err))?;
            let same = std::str::from_utf8(&now).is_ok_and(|now| Some(now) == expected);
            Ok(as_planned(Some(stat), same))
        }
    }
}

/// Write project file `rel` atomically through the open directories `dirs` (created as needed),
/// `seen` being what [`still_as_planned`] found there; returns the file's `fstat`. After its
/// directory was opened afresh, the file is looked at again.
fn write_file(
    dirs: &mut OpenDirs,
    rel: &str,
    contents: &[u8],
    seen: Option<&rustix::fs::Stat>,
) -> std::io::Result<rustix::fs::Stat> {
    in_parent(dirs, rel, |dir, name, again| {
        let seen = match again {
            false => seen.copied(),
            true => dir.stat(name)?,
        };
        crate::atomic::replace_at(dir, name, contents, seen.as_ref())
    })
}

/// Remove empty mirror directories from `dir` up (never `.lexibrary/` itself, never through a
/// symlink).
pub fn remove_empty_mirror_dirs(project: &Project, dir: &str) {
    let mut current = dir.to_string();
    while !current.is_empty() {
        if nofollow::remove_dir(&project.root, in_library(&current)).is_err() {
            break;
        }
        current = RelPath::new(&current).dir().to_string();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::update::testing::{by_path, TestProject};
    use crate::workspace::cache::Cache;

    fn setup() -> (TestProject, StateDir) {
        let p = TestProject::new(&[("a.py", "def f():\n    pass\n")]);
        let state = StateDir::new(p.project.library_dir().join(".cache/state"));
        (p, state)
    }

    fn decided(p: &TestProject) -> (Scan, ReverseIndex, Decisions) {
        decided_files(p, &["a.py"])
    }

    /// The scan of `files` (each seeing all of them), its reverse index and the decisions.
    fn decided_files(p: &TestProject, files: &[&str]) -> (Scan, ReverseIndex, Decisions) {
        let scan = Scan {
            files: by_path(files.iter().map(|rel| p.scan(rel, files)).collect()),
            listed: Default::default(),
            orphans: Default::default(),
            moves: Default::default(),
            design_stats: Default::default(),
            recomputed: 0,
        };
        let index = ReverseIndex::build(
            &scan,
            &Cache::default(),
            true,
            &crate::project::scope::Scope::everything(),
        );
        let decisions = super::super::decide::decide(&p.project, &scan, &index);
        (scan, index, decisions)
    }

    fn stages<'a>(scan: &'a Scan, index: &'a ReverseIndex, decisions: &'a Decisions) -> Stages<'a> {
        Stages {
            scan,
            index,
            decisions,
            archivists: &Archivists::Structural,
            progress: &super::super::Silent,
        }
    }

    #[test]
    fn writes_what_was_decided_and_counts_it_without_writing_when_asked() {
        let (p, state) = setup();
        let (scan, index, decisions) = decided(&p);
        let mut target = Target {
            project: &p.project,
            state: &state,
            repo: None,
            head: None,
            writes: false,
        };
        let mut report = UpdateReport::default();
        run(&target, &stages(&scan, &index, &decisions), &mut report).expect("dry run");
        assert_eq!(report.design_files_written, 1);
        assert!(!p.project.abs(".lexibrary/a.py.md").exists());

        target.writes = true;
        let mut report = UpdateReport::default();
        let written = run(&target, &stages(&scan, &index, &decisions), &mut report).expect("write");
        assert!(written.written.contains_key("a.py"));
        assert!(p.read(".lexibrary/a.py.md").contains("# a.py"));
        assert_eq!(
            report.generated.len(),
            1,
            "the Archivist's write has provenance"
        );
    }

    /// A run larger than the render-once limit: every text's provenance goes into one notes
    /// commit before any is written, then the texts are rendered again a chunk at a time — the
    /// same bytes, so no file needs a note of its own.
    #[test]
    fn a_large_run_renders_twice_in_chunks_with_one_notes_commit() {
        let sources: Vec<(String, String)> = (0..5)
            .map(|i| (format!("m{i}.py"), format!("def f{i}():\n    pass\n")))
            .collect();
        let files: Vec<(&str, &str)> = sources
            .iter()
            .map(|(rel, text)| (rel.as_str(), text.as_str()))
            .collect();
        let p = TestProject::new(&files);
        let tmp = tempfile::tempdir().expect("home");
        crate::hermetic::forget_outer_repository();
        let env = crate::hermetic::Hermetic::new(tmp.path());
        let git = |args: &[&str]| {
            let out = env
                .command("git")
                .current_dir(&p.project.root)
                .args(args)
                .output();
            String::from_utf8(out.expect("git").stdout).expect("utf8")
        };
        git(&["init", "-q", "-b", "main"]);
        let repo = crate::git::GitRepo::discover(&p.project.root)
            .expect("discover")
            .expect("a repository");
        let all: Vec<&str> = files.iter().map(|(rel, _)| *rel).collect();
        let (scan, index, decisions) = decided_files(&p, &all);
        let state = StateDir::new(p.project.library_dir().join(".cache/state"));
        let target = Target {
            project: &p.project,
            state: &state,
            repo: Some(&repo),
            head: None,
            writes: true,
        };
        let chunking = Chunking {
            render_once: 1,
            chunk: 2,
        };
        let mut report = UpdateReport::default();
        let stages = stages(&scan, &index, &decisions);
        run_chunked(&target, &stages, &mut report, chunking).expect("run");
        assert_eq!(report.design_files_written, 5);
        assert!(report.warnings.is_empty(), "{:?}", report.warnings);
        let notes_commits = git(&["rev-list", "--count", PROVENANCE_NOTES]);
        assert_eq!(
            notes_commits.trim(),
            "1",
            "one notes commit, no note of its own"
        );
        for rel in &all {
            let text = p.read(&design_path(rel));
            let blob =
                crate::git::notes::blob_id(Default::default(), text.as_bytes()).expect("blob id");
            let note = repo.note(PROVENANCE_NOTES, &blob).expect("notes");
            assert!(
                note.is_some_and(|note| note.contains(rel)),
                "{rel} has its note"
            );
        }
    }

    #[test]
    fn a_directory_removed_during_the_run_is_created_again() {
        let (p, _state) = setup();
        let mut dirs = OpenDirs::new(&p.project.root);
        write_file(&mut dirs, ".lexibrary/x/a.md", b"a", None).expect("write");
        std::fs::remove_dir_all(p.project.abs(".lexibrary/x")).expect("remove");
        write_file(&mut dirs, ".lexibrary/x/b.md", b"b", None).expect("write again");
        assert_eq!(p.read(".lexibrary/x/b.md"), "b");
        std::fs::remove_dir_all(p.project.abs(".lexibrary/x")).expect("remove");
        let created = create_file(&mut dirs, ".lexibrary/x/c.md", b"c").expect("create again");
        assert!(created.is_some());
        assert_eq!(p.read(".lexibrary/x/c.md"), "c");
    }

    #[test]
    fn an_edit_that_lands_during_the_run_wins() {
        let (p, state) = setup();
        let (scan, index, decisions) = decided(&p);
        // An agent writes the design file after the scan, before the write.
        p.write(".lexibrary/a.py.md", "an agent's text\n");
        let target = Target {
            project: &p.project,
            state: &state,
            repo: None,
            head: None,
            writes: true,
        };
        let mut report = UpdateReport::default();
        run(&target, &stages(&scan, &index, &decisions), &mut report).expect("run");
        assert_eq!(p.read(".lexibrary/a.py.md"), "an agent's text\n");
        assert!(report
            .warnings
            .iter()
            .any(|w| w.contains("changed while the update ran")));
        let mut dirs = OpenDirs::new(&p.project.root);
        assert!(matches!(
            still_as_planned(&mut dirs, "none", None),
            Ok(Before::AsPlanned(None))
        ));
        assert!(matches!(
            still_as_planned(&mut dirs, "a.py", None),
            Ok(Before::Changed)
        ));
        std::fs::create_dir_all(p.project.abs("dir.md")).expect("mkdir");
        assert_eq!(
            still_as_planned(&mut dirs, "dir.md", None).err(),
            Some("is a directory".to_string())
        );
    }
}
