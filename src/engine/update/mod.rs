//! `lexictl update`: the pipeline that keeps the library true, as named stages, each a file with
//! its own input and output type:
//!
//! 1. `plan` — which files to look at: none when git shows nothing changed since the last update
//!    (the no-op fast path), what changed since the last processed commit plus what is dirty
//!    (`--changed-only`; inside bumped submodules too, `submodules`), or everything a walk finds
//!    (`plan::Plan`).
//! 2. `scan` — each file classified by change level, in parallel; the stat/hash cache makes an
//!    untouched file cost two `stat` calls; a file git holds unmerged is skipped (`conflicts`);
//!    orphans become DELETED or RENAMED (`scan::Scan`); then `resolve` resolves the imports of what
//!    was read through the project model.
//! 3. `dependents` — the reverse dependency index, now and as last seen (`dependents::ReverseIndex`).
//! 4. `decide` — an action per file: regenerate, refresh the footer, move, refresh the Dependents,
//!    remove, keep (`decide::Decisions`).
//! 5. `write` — the design files, each re-checked just before it is written (D-061), model answers
//!    as they arrive, provenance in one notes commit (`provenance`), removals (`write::Written`).
//! 6. `indexes` — every affected `.aindex` and group design file (`group`), then `START_HERE.md`.
//! 7. `remember` — the cache and the state file (the last processed commit).
//!
//! With an LLM provider the key is checked before anything else: a missing key fails before anything
//! is read. One update runs at a time per worktree (the library lock); `--dry-run` and `--check`
//! write nothing — no lock file, no log line. Under the lock, the temporary files a killed run left
//! are removed first (`interrupted`). A file that cannot be read or written is a failure of that
//! file, never of the run: the stages go on and the report lists it (exit 1).

pub(crate) mod aindex;
mod conflicts;
mod decide;
mod dependents;
mod generate;
mod group;
mod importance;
mod indexes;
mod interrupted;
mod plan;
mod provenance;
mod remember;
pub mod report;
mod resolve;
mod scan;
pub mod scanned;
mod start_here;
mod submodules;
mod texts;
mod write;

use std::time::Instant;

pub use report::{
    FailedFile, LlmEstimate, LlmRequest, Mode, OverScoped, PlanAction, PlanItem, Provenance,
    UpdateReport,
};
pub use scanned::ChangeLevel;

use crate::archivist::llm::{LlmArchivist, LlmSettings};
use crate::workspace::cache::Cache;
use crate::workspace::lock::LibraryLock;
use crate::workspace::Workspace;
use plan::Planned;
use write::{Archivists, Target};

/// What to update and how.
#[derive(Clone, Debug, Default)]
pub struct UpdateOptions {
    /// Project-relative files or directories; empty means everything.
    pub paths: Vec<String>,
    /// Only what changed since the last processed commit (plus dirty files).
    pub changed_only: bool,
    /// Report the plan, write nothing.
    pub dry_run: bool,
    /// Write nothing; the report says whether anything is stale.
    pub check: bool,
    /// Only regenerate START_HERE.md.
    pub start_here_only: bool,
    /// Report the imports that name no project file, per file read.
    pub verbose: bool,
    /// Write nothing while git is in the middle of a rebase, cherry-pick, `am`, merge or bisect:
    /// checked before anything is read and again before the design files and the indexes are
    /// written (the hook worker's runs; `--yield-to-git`).
    pub yield_to_git: bool,
    /// Never ask a model, whatever `llm.provider` says: the structural Archivist writes every file
    /// (no key needed, nothing leaves the machine). What the PR gate runs to catch up a branch's lag.
    pub offline: bool,
}

impl UpdateOptions {
    /// Whether this run writes anything (not `--dry-run`, not `--check`).
    pub fn writes(&self) -> bool {
        !self.dry_run && !self.check
    }

    fn mode(&self) -> Mode {
        match (self.start_here_only, self.changed_only) {
            (true, _) => Mode::StartHere,
            (false, true) => Mode::ChangedOnly,
            (false, false) => Mode::Full,
        }
    }
}

/// Progress reporting hooks (a progress bar on a terminal, nothing otherwise). A run goes through
/// named phases — planning, scanning, deciding, recording provenance, writing, asking the model,
/// indexing, saving — each with the number of its items when it has one; [`run`] calls `finish`
/// once, whatever happened.
pub trait Progress: Sync {
    /// A new phase: `name` with `total` items (0: no count, the phase name and the time only).
    fn phase(&self, _name: &'static str, _total: usize) {}
    /// One item of the current phase done.
    fn advance(&self) {}
    /// One item of the current phase failed (a model request), counted apart.
    fn failed(&self) {}
    /// The run is over: clear the display.
    fn finish(&self) {}
}

/// No progress output.
pub struct Silent;
impl Progress for Silent {}

/// Run an update of `ws`, showing its phases on `progress`.
pub fn run(
    ws: &Workspace,
    options: &UpdateOptions,
    progress: &dyn Progress,
) -> anyhow::Result<UpdateReport> {
    let report = run_phases(ws, options, progress);
    progress.finish();
    report
}

fn run_phases(
    ws: &Workspace,
    options: &UpdateOptions,
    progress: &dyn Progress,
) -> anyhow::Result<UpdateReport> {
    let started = Instant::now();
    progress.phase("planning", 0);
    let run_started_ns = Cache::now_ns();
    let project = ws.project();
    let archivists = archivists(ws, options)?;
    let state = ws.state().with_read_only(!options.writes());
    let _lock = match options.writes() {
        true => Some(LibraryLock::acquire_announced(project)?),
        false => None,
    };
    let running = interrupted::Running::start(&state, options.writes());
    ws.scope()?; // a bad scope fails before anything is read
    let mut report = UpdateReport {
        mode: options.mode(),
        dry_run: options.dry_run,
        ..UpdateReport::default()
    };
    untrusted_config(ws, &state, &mut report);
    unbuilt_languages(project, &mut report);
    if running.interrupted || options.check {
        report.debris_removed = interrupted::remove_debris(project, options.writes());
    }
    if running.interrupted {
        report.pack_debris_removed = interrupted::remove_pack_debris(ws, &state);
    }
    if options.start_here_only {
        indexes::start_here_only(project, options, &state, &mut report);
        report.stale = report.start_here_written;
        return Ok(finish(report, started, None));
    }
    if yielded(ws, options, &mut report) {
        return Ok(finish(report, started, Some(&state)));
    }
    let plan = match plan::plan(ws, options)? {
        Planned::UpToDate => {
            report.up_to_date = true;
            report.stale = report.anything_stale();
            check_contracts(ws, options, &mut report);
            return Ok(finish(report, started, Some(&state)));
        }
        Planned::Work(plan) => *plan,
    };
    report.mode = plan.mode;
    if plan.mode == Mode::Full && options.writes() && !running.interrupted {
        report.debris_removed = interrupted::remove_debris(project, true);
    }
    report.warnings.extend(plan.warnings.iter().cloned());
    if let Some(warning) = &plan.cache_warning {
        state.log(warning);
    }
    let run = Run {
        ws,
        options,
        progress,
        archivists: &archivists,
        state: &state,
        run_started_ns,
    };
    carry_out(&run, plan, &mut report)?;
    Ok(finish(report, started, Some(&state)))
}

/// What the stages after planning share.
struct Run<'a> {
    ws: &'a Workspace,
    options: &'a UpdateOptions,
    progress: &'a dyn Progress,
    archivists: &'a Archivists,
    state: &'a crate::workspace::state::StateDir,
    run_started_ns: i128,
}

/// What `lexictl update --check` finds in `ws`, as [`UpdateReport::stale_entries`]: the one
/// staleness computation `lexictl update --check`, `lexictl status` and `lexi orient` share.
pub fn stale_entries(ws: &Workspace) -> anyhow::Result<Vec<String>> {
    let options = UpdateOptions {
        check: true,
        ..UpdateOptions::default()
    };
    Ok(run(ws, &options, &Silent)?.stale_entries())
}

/// Stages 2–7 on `plan`; stops early (and remembers nothing) when the run yields to git.
fn carry_out(run: &Run<'_>, plan: plan::Plan, report: &mut UpdateReport) -> anyhow::Result<()> {
    let Run {
        ws,
        options,
        progress,
        ..
    } = *run;
    let project = ws.project();
    if plan.mode == Mode::Full && options.writes() {
        crate::tokens::warm_up(); // START_HERE is counted at the end
    }
    let (scan, index, decisions) = read_and_decide(ws, &plan, options, progress, report)?;
    if yielded(ws, options, report) {
        return Ok(());
    }
    let target = Target {
        project,
        state: run.state,
        repo: ws.repo()?,
        head: ws.head(),
        writes: options.writes(),
    };
    let stages = write::Stages {
        scan: &scan,
        index: &index,
        decisions: &decisions,
        archivists: run.archivists,
        progress,
    };
    let written = write::run(&target, &stages, report)?;
    let entries = remember::entries(&plan, &scan, &written);
    if yielded(ws, options, report) {
        return Ok(());
    }
    let earlier = indexes::Earlier {
        plan: &plan,
        scan: &scan,
        entries: &entries,
    };
    indexes::run(project, ws.scope()?, options, earlier, progress, report)?;
    report.stale = report.anything_stale();
    check_contracts(ws, options, report);
    if options.writes() {
        progress.phase("saving", 0);
        let memory = remember::Memory {
            state: run.state,
            options,
            head: ws.head(),
            run_started_ns: run.run_started_ns,
            project,
            repo: ws.repo()?,
        };
        remember::save(&memory, plan, &scan, &written, entries, report)?;
    }
    free_beside(Box::new((scan, index, decisions, written)));
    Ok(())
}

/// Free what a run built — 20,000 scanned files with their facts, the reverse index, the
/// decisions — on a thread of its own: one allocation at a time it was 70 ms of a cold 20,000-file
/// run, spent after the work was done. The command prints its report meanwhile; a process that
/// exits first leaves the memory to the operating system, and a long-lived one (`sweep --watch`)
/// gets it back all the same.
fn free_beside(built: Box<dyn Send>) {
    // If no thread can be made, the closure — and with it `built` — is dropped here.
    let _ = std::thread::Builder::new()
        .name("free".into())
        .spawn(move || drop(built));
}

/// Scan the planned files, resolve their imports, index the dependents, decide what to write.
fn read_and_decide(
    ws: &Workspace,
    plan: &plan::Plan,
    options: &UpdateOptions,
    progress: &dyn Progress,
    report: &mut UpdateReport,
) -> anyhow::Result<(scan::Scan, dependents::ReverseIndex, decide::Decisions)> {
    let (project, scope) = (ws.project(), ws.scope()?);
    let mut scan = scan::run(project, scope, plan, &options.paths, progress);
    progress.phase("deciding", 0);
    let unresolved = resolve::run(project, scope, plan, &mut scan, options.verbose);
    if options.verbose {
        report.unresolved = unresolved;
    }
    let mut index =
        dependents::ReverseIndex::build(&scan, &plan.cache, plan.universe.complete, scope);
    index.keep_absent_importers(project, &scan, &plan.universe.absent);
    let decisions = decide::decide(project, &scan, &index);
    decisions.report_plan(&scan, report);
    Ok((scan, index, decisions))
}

/// Agents' Interface Contracts left behind by the code: with `--check` every design file of the
/// library is judged (exit 2 on any); a writing run judges the agents' files it refreshed and warns.
fn check_contracts(ws: &Workspace, options: &UpdateOptions, report: &mut UpdateReport) {
    let project = ws.project();
    if options.check {
        report.contradictions = crate::workspace::contract::library_drifts(project);
        report.stale |= !report.contradictions.is_empty();
        return;
    }
    let refreshed = report
        .items
        .iter()
        .filter(|item| matches!(item.action, PlanAction::RefreshFooter | PlanAction::Move));
    for item in refreshed {
        let design_file = crate::project::mirror::design_path(&item.source);
        let Ok(text) = project.read_to_string(&design_file) else {
            continue;
        };
        let Ok(design) = crate::library::design_file::DesignFile::parse(&design_file, &text) else {
            continue;
        };
        let found =
            crate::workspace::contract::drift(project, &item.source, &design_file, &text, &design);
        if let Some(drift) = found {
            report.warnings.push(format!(
                "{design_file}: {}; {}",
                drift.message(),
                drift.hint()
            ));
            report.contradictions.push(drift);
        }
    }
}

/// With [`UpdateOptions::yield_to_git`]: whether git is in the middle of an operation, so this run
/// must stop here (recorded in the report; nothing more is written and nothing is remembered).
fn yielded(ws: &Workspace, options: &UpdateOptions, report: &mut UpdateReport) -> bool {
    if !options.yield_to_git || !options.writes() {
        return false;
    }
    let operation = ws
        .repo_if_any()
        .and_then(|repo| repo.operation_in_progress());
    report.yielded_to = operation;
    operation.is_some()
}

/// A project config whose held settings this clone has not confirmed: warned about (on stderr, so
/// in the hook log too) and logged, naming what this run uses instead.
fn untrusted_config(
    ws: &Workspace,
    state: &crate::workspace::state::StateDir,
    report: &mut UpdateReport,
) {
    if let Some(notice) = ws.trust_notice() {
        let warning = format!(
            "{}:{}: {} (this run uses llm.provider: {})\n  hint: {}",
            notice.file,
            notice.line,
            notice.message,
            ws.llm().provider,
            notice.hint
        );
        state.log(&warning);
        report.warnings.push(warning);
    }
}

/// The `ast.languages` this build cannot parse (their grammars' cargo features were off): one
/// warning a run naming them all. The configuration stays as written — it is the project's, shared
/// by teammates whose builds may differ — and those languages' files get generic design files here.
fn unbuilt_languages(project: &crate::project::Project, report: &mut UpdateReport) {
    let unbuilt: Vec<_> = (project.config.ast.languages.iter())
        .filter(|language| !language.is_built())
        .collect();
    if unbuilt.is_empty() {
        return;
    }
    let names: Vec<_> = unbuilt.iter().map(|language| language.name()).collect();
    let features: Vec<_> = unbuilt.iter().map(|language| language.feature()).collect();
    report.warnings.push(format!(
        "{}/{}: ast.languages asks for {}, which this build of lexibrarian cannot parse: their files \
         get generic design files\n  hint: install a build with the cargo features {} (on by default)",
        crate::project::LIBRARY_DIR,
        crate::project::CONFIG_FILE,
        names.join(", "),
        features.join(", ")
    ));
}

/// Who writes design files in this run. Pre-flight: a bad `llm.*` setting or a missing key fails
/// here, before anything is read or written; runs that write nothing never need the key.
fn archivists(ws: &Workspace, options: &UpdateOptions) -> anyhow::Result<Archivists> {
    if options.offline {
        return Ok(Archivists::Structural);
    }
    let budgets = &ws.project().config.token_budgets;
    let settings = LlmSettings::from_llm(ws.llm(), budgets.design_file_tokens)?;
    Ok(match settings {
        None => Archivists::Structural,
        Some(settings) if options.writes() && !options.start_here_only => {
            let key = settings.read_key()?;
            Archivists::Model(LlmArchivist::new(settings, key))
        }
        Some(settings) => Archivists::Estimate(settings),
    })
}

/// Stamp the elapsed time and log the run.
fn finish(
    mut report: UpdateReport,
    started: Instant,
    state: Option<&crate::workspace::state::StateDir>,
) -> UpdateReport {
    report.elapsed_ms = started.elapsed().as_millis();
    if let Some(state) = state {
        state.log(&report.log_line());
    }
    report
}

/// A temporary project for the stages' unit tests: files written, a design file generated the way
/// the structural Archivist writes it, a plan of the whole tree.
#[cfg(test)]
pub(crate) mod testing {
    use std::collections::BTreeMap;

    use super::scanned::{scan, Scanned};
    use crate::project::{Project, LIBRARY_DIR};
    use crate::source::model::files::FileIndex;
    use crate::source::model::ProjectModel;
    use crate::source::resolve::{resolve, Context};
    use crate::workspace::cache::{Cache, Stat};

    pub struct TestProject {
        _dir: tempfile::TempDir,
        pub project: Project,
    }

    impl TestProject {
        pub fn new(files: &[(&str, &str)]) -> TestProject {
            let dir = tempfile::tempdir().expect("tempdir");
            std::fs::create_dir_all(dir.path().join(LIBRARY_DIR)).expect("library dir");
            let project = Project::new(dir.path().to_path_buf(), crate::project::Config::default());
            let test = TestProject { _dir: dir, project };
            for (rel, text) in files {
                test.write(rel, text);
            }
            test
        }

        pub fn write(&self, rel: &str, text: &str) {
            let path = self.project.abs(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }

        pub fn read(&self, rel: &str) -> String {
            std::fs::read_to_string(self.project.abs(rel)).expect("read")
        }

        /// Scan `rel` with no cache and resolve its imports, as a full update with every file of
        /// `all` present would.
        pub fn scan(&self, rel: &str, all: &[&str]) -> Scanned {
            let stat = Stat::of(&self.project.abs(rel)).expect("source exists");
            let design_stat =
                Stat::of(&self.project.abs(&crate::project::mirror::design_path(rel)));
            let exists = |path: &str| all.contains(&path);
            let ctx = super::scanned::ScanContext {
                project: &self.project,
                cache: &Cache::default(),
                exists: &exists,
                conflicts: &super::conflicts::Conflicts::Text,
            };
            let mut scanned = scan(&ctx, rel, stat, design_stat, None);
            let files = FileIndex::new(all.iter().map(|path| path.to_string()));
            let read = |path: &str| std::fs::read_to_string(self.project.abs(path)).ok();
            let (model, _) = ProjectModel::build(&files, &read);
            let interface_of = |_: &str| None;
            let exported_macro = |_: &str, _: &str| None;
            let context = Context {
                model: &model,
                exists: &exists,
                interface_of: &interface_of,
                exported_macro: &exported_macro,
            };
            if let Some(code) = scanned.code() {
                let resolution = resolve(
                    code.interface.language.walks(),
                    rel,
                    &code.interface,
                    &context,
                );
                scanned.facts.deps = resolution.deps;
                scanned.facts.type_deps = resolution.type_only;
                scanned.resolved_now = true;
            }
            scanned
        }

        /// Generate `rel`'s design file with the structural Archivist and write it.
        pub fn generate(&self, rel: &str, all: &[&str]) {
            let scanned = self.scan(rel, all);
            let out = super::generate::regenerate(
                &crate::archivist::structural::StructuralArchivist,
                &scanned,
                crate::archivist::Importers::default(),
            )
            .expect("structural generation");
            self.write(&crate::project::mirror::design_path(rel), &out.text);
        }
    }

    /// Scanned files by path.
    pub fn by_path(files: Vec<Scanned>) -> BTreeMap<String, Scanned> {
        files
            .into_iter()
            .map(|scanned| (scanned.source.clone(), scanned))
            .collect()
    }
}
