//! `lexictl update`: the pipeline that keeps the library true — plan, classify, generate, write.
//!
//! 1. **Plan.** Which files to look at: every file the walk finds (full), the paths given, or — with
//!    `--changed-only` in git — what changed since the last processed commit plus what is dirty.
//! 2. **Classify.** Each in-scope text file is scanned ([`classify::scan`]); the stat/hash cache makes
//!    an untouched file cost two `stat` calls. Orphaned design files become DELETED or, when a new file
//!    has the same content hash (or git says so), RENAMED.
//! 3. **Generate.** The reverse dependency index is rebuilt from every file's resolved imports; the
//!    Archivist writes NEW/CHANGED files, agent edits get a footer refresh only, files whose dependents
//!    moved get their Dependents section refreshed. With an LLM provider the key is checked first (a
//!    missing key fails before anything is read), and model calls run at most `llm.concurrency` at a
//!    time; a file whose call fails keeps its design file and its old cache entry (retried next run).
//! 4. **Write.** Atomically, each design file re-checked just before writing (D-061) — model answers
//!    as they arrive — then every affected `.aindex` and `START_HERE.md`, then the cache and the last
//!    processed commit. The report carries each written design file's provenance.
//!
//! One update runs at a time per worktree (the library lock); `--dry-run` and `--check` write nothing.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use anyhow::Context as _;
use rayon::prelude::*;

use super::classify::{scan, ChangeLevel, Scanned};
use super::generate;
use super::indexes::{
    self, billboard_summary, existing_billboard, structural_billboard, Child, MODULE_FILES,
};
use super::start_here::{self, DirSummary};
use crate::archivist::llm::{LlmArchivist, LlmSettings};
use crate::archivist::structural::StructuralArchivist;
use crate::archivist::{Archivist, Generation};
use crate::atomic;
use crate::git::{Change, GitRepo};
use crate::library::aindex::ChildKind;
use crate::library::design_file::{is_unedited, text_is_unedited, DesignFile, UpdatedBy};
use crate::project::mirror::{
    aindex_path, design_path, is_mirrorable, source_for_design, AINDEX_FILE,
};
use crate::project::paths::{ancestors_rel, parent_rel, to_rel_string};
use crate::project::scope::Scope;
use crate::project::walk::{self, EntryKind, FileClass};
use crate::project::{Project, CONFIG_FILE, LIBRARY_DIR};
use crate::workspace::cache::{self, Cache, Stat};
use crate::workspace::lock::LibraryLock;
use crate::workspace::state::{Processed, StateDir};

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
}

impl UpdateOptions {
    fn writes(&self) -> bool {
        !self.dry_run && !self.check
    }
}

/// Progress reporting hooks (a progress bar on a terminal, nothing otherwise).
pub trait Progress: Sync {
    fn start(&self, _total: usize) {}
    fn advance(&self) {}
    fn finish(&self) {}
}

/// No progress output.
pub struct Silent;
impl Progress for Silent {}

/// One file's fate in this update.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PlanItem {
    pub source: String,
    pub level: ChangeLevel,
    /// For RENAMED: the old path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// What the update does: `write`, `refresh footer`, `remove`, `keep`, `move`, `skip`, or
    /// `failed` (the Archivist could not write it; the old design file is kept).
    pub action: &'static str,
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
    pub blob: Option<crate::git::Oid>,
}

/// A file the Archivist could not write. Its design file is untouched and the next run retries it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FailedFile {
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
    /// `full`, `paths`, `changed-only` or `start-here`.
    pub mode: &'static str,
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
    /// Design files the Archivist wrote, with their provenance (not with `--dry-run`/`--check`).
    pub generated: Vec<Provenance>,
    /// Files the Archivist failed to write; the run exits 1 when there are any.
    pub failed: Vec<FailedFile>,
    /// Files whose model answer was over the design file budget.
    pub over_scoped: Vec<OverScoped>,
    /// With an LLM provider and `--dry-run`/`--check`: the requests a real run would send.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub llm_estimate: Option<LlmEstimate>,
    pub warnings: Vec<String>,
    /// Anything would change (what `--check` reports with exit 2).
    pub stale: bool,
    pub dry_run: bool,
    /// Nothing changed since the last update (same HEAD, clean tree, same config): no file was read.
    pub up_to_date: bool,
    pub elapsed_ms: u128,
}

/// What the walk (or the change list) says exists.
struct Universe {
    /// Every non-ignored file considered, with its stat data.
    files: BTreeMap<String, Stat>,
    /// Every file the walk found, considered or not (import resolution needs all of them).
    all_files: HashSet<String>,
    /// Directories to (re)index.
    dirs: BTreeSet<String>,
    /// Children of each directory to index: (name, kind, size).
    children: BTreeMap<String, Vec<(String, EntryKind)>>,
    /// Paths that no longer exist (or are no longer part of the tree) and may have design files.
    gone: BTreeSet<String>,
    /// Renames git reported (from, to).
    renames: Vec<(String, String)>,
    /// Uncommitted changes this `--changed-only` run looked at (remembered for the next one).
    dirty_paths: Vec<String>,
    /// Whether the whole tree was walked (so the cache can be pruned and vanished dirs found).
    complete: bool,
}

impl Universe {
    fn empty(complete: bool) -> Universe {
        Universe {
            files: BTreeMap::new(),
            all_files: HashSet::new(),
            dirs: BTreeSet::new(),
            children: BTreeMap::new(),
            gone: BTreeSet::new(),
            renames: Vec::new(),
            dirty_paths: Vec::new(),
            complete,
        }
    }
}

/// Run an update.
pub fn run(
    project: &Project,
    options: &UpdateOptions,
    progress: &dyn Progress,
) -> anyhow::Result<UpdateReport> {
    let started = Instant::now();
    let run_started_ns = Cache::now_ns();
    // Pre-flight: a bad `llm.*` setting or a missing key fails here, before anything is read or
    // written. Runs that write nothing never need the key.
    let llm_settings = LlmSettings::from_config(&project.config)?;
    let llm = match &llm_settings {
        Some(settings) if options.writes() && !options.start_here_only => {
            let key = settings.read_key()?;
            Some(LlmArchivist::new(settings.clone(), key))
        }
        _ => None,
    };
    let git = GitRepo::discover(&project.root).context("cannot open the git repository")?;
    let mut state = StateDir::for_project(project, git.as_ref());
    // `--dry-run` and `--check` write nothing at all: no lock file, no log (a read-only checkout
    // can be checked).
    state.read_only = !options.writes();
    let _lock = if options.writes() {
        Some(LibraryLock::acquire_announced(project)?)
    } else {
        None
    };
    let scope = Scope::from_config(&project.config, &project.library_dir().join(CONFIG_FILE))?;
    let mut report = UpdateReport {
        dry_run: options.dry_run,
        ..UpdateReport::default()
    };
    let head = git
        .as_ref()
        .and_then(|repo| repo.head_commit().ok().flatten());

    if options.start_here_only {
        report.mode = "start-here";
        write_start_here(project, options, &BTreeMap::new(), &mut report)?;
        report.stale = report.start_here_written;
        report.elapsed_ms = started.elapsed().as_millis();
        return Ok(report);
    }

    // The git-native no-op: the last update saw exactly this tree (same HEAD, nothing dirty, same
    // config), so nothing can have changed. Costs about what `git status` costs. A full update also
    // takes the full status, to know whether it may arm this fast path for the next run.
    let fingerprint = config_fingerprint(project);
    // Only when git sees exactly what the walk sees: the project is the whole worktree, no personal
    // excludes hide files from git (the walk ignores them, for output that is the same on every
    // machine), and the library itself is tracked (so hand edits to it show in the status).
    let git_sees_everything = git.as_ref().is_some_and(|repo| {
        project_prefix(project, repo).is_some_and(|prefix| prefix.is_empty())
            && !repo.has_global_excludes()
            && repo.is_tracked(&format!("{LIBRARY_DIR}/{CONFIG_FILE}"))
    });
    let fast_path_possible = git_sees_everything
        && state.processed().is_some_and(|processed| {
            processed.clean
                && Some(&processed.commit) == head.as_ref()
                && processed.fingerprint == fingerprint
        })
        && state.cache_path().is_file();
    let full_status_wanted = project.config.ignore.use_gitignore
        && git_sees_everything
        && options.paths.is_empty()
        && (fast_path_possible || !options.changed_only);
    // The cache loads on a second thread while git computes the status and the plan.
    let cache_path = state.cache_path();
    let planned = std::thread::scope(|threads| -> anyhow::Result<Option<_>> {
        // On the fast path the cache is not needed at all: only load it when that is ruled out.
        let loading = (!fast_path_possible).then(|| threads.spawn(|| Cache::load(&cache_path)));
        let dirty = match (&git, full_status_wanted) {
            (Some(repo), true) => Some(
                repo.dirty()
                    .context("cannot read the working tree status")?,
            ),
            _ => None,
        };
        let clean_tree = dirty.as_ref().is_some_and(Vec::is_empty);
        if fast_path_possible && clean_tree {
            return Ok(None);
        }
        let loading = loading.unwrap_or_else(|| threads.spawn(|| Cache::load(&cache_path)));
        // 1. Plan.
        let plan = match plan_changes(project, options, git.as_ref(), &state, dirty.as_deref())? {
            Some(universe) => ("changed-only", universe, Vec::new()),
            None => {
                let mode = if options.paths.is_empty() {
                    "full"
                } else {
                    "paths"
                };
                let (mut universe, warnings) = plan_walk(project, &scope, &options.paths);
                if let Some(repo) = &git {
                    universe.renames = git_renames(project, repo, &state, dirty.as_deref());
                }
                (mode, universe, warnings)
            }
        };
        let loaded = loading.join().unwrap_or_else(|_| {
            (
                Cache::default(),
                Some("the cache could not be loaded".to_string()),
            )
        });
        Ok(Some((clean_tree, plan, loaded)))
    })?;
    let Some((clean_tree, (mode, universe, walk_warnings), (mut cache, cache_warning))) = planned
    else {
        report.mode = if options.changed_only {
            "changed-only"
        } else {
            "full"
        };
        report.up_to_date = true;
        report.elapsed_ms = started.elapsed().as_millis();
        state.log(&log_line(&report));
        return Ok(report);
    };
    report.mode = mode;
    report.warnings.extend(walk_warnings);
    if let Some(warning) = cache_warning {
        state.log(&warning);
    }

    // 2. Classify.
    let exists = |rel: &str| {
        universe.files.contains_key(rel)
            || universe.all_files.contains(rel)
            || (!universe.complete && project.abs(rel).is_file())
    };
    let documented: Vec<(String, Stat)> = universe
        .files
        .iter()
        .filter(|(rel, _)| documentable(&scope, rel))
        .map(|(rel, stat)| (rel.clone(), *stat))
        .collect();
    let design_stats = design_file_stats(project, &documented);
    let recomputed = AtomicUsize::new(0);
    progress.start(documented.len());
    let examined: Vec<Examined> = documented
        .par_iter()
        .map(|(rel, stat)| {
            let design_stat = design_stats.get(rel.as_str()).copied();
            let outcome = examine(
                project,
                &cache,
                rel,
                *stat,
                design_stat,
                &exists,
                &recomputed,
            );
            progress.advance();
            outcome
        })
        .collect();
    progress.finish();

    let mut scanned: BTreeMap<String, Scanned> = BTreeMap::new();
    let mut new_entries: BTreeMap<String, cache::Entry> = BTreeMap::new();
    for outcome in examined {
        match outcome {
            Examined::Documented(item) => {
                scanned.insert(item.source.clone(), *item);
            }
            Examined::Listed(listed) => {
                let (rel, entry) = *listed;
                new_entries.insert(rel, entry);
            }
        }
    }
    // Files in the tree but not documented (out of scope, binary, too large): cache their descriptions.
    for (rel, stat) in &universe.files {
        if scanned.contains_key(rel) || new_entries.contains_key(rel) {
            continue;
        }
        new_entries.insert(
            rel.clone(),
            listed_entry(project, &cache, rel, *stat, &recomputed),
        );
    }

    // Orphans: documented before, gone now (or out of scope / ignored now).
    let mut orphans: BTreeSet<String> = universe.gone.clone();
    if universe.complete {
        for (rel, entry) in &cache.entries {
            if entry.design.is_some() && !scanned.contains_key(rel) {
                orphans.insert(rel.clone());
            }
        }
        if cache.entries.is_empty() {
            for source in mirrored_sources(project) {
                if !scanned.contains_key(&source) && path_selected(&source, &options.paths) {
                    orphans.insert(source);
                }
            }
        }
    }
    orphans.retain(|rel| !scanned.contains_key(rel) && path_selected(rel, &options.paths));
    let moves = resolve_orphans(project, &orphans, &universe.renames, &mut scanned);

    // Files whose Dependents move because a scanned file changed its imports are looked at too
    // (in a full update they already are).
    if !universe.complete {
        let mut affected: BTreeSet<String> = BTreeSet::new();
        for (rel, item) in &scanned {
            let old: &[String] = cache.entries.get(rel).map_or(&[], |entry| &entry.deps);
            for dep in old.iter().chain(&item.deps) {
                if old.contains(dep) != item.deps.contains(dep) && !scanned.contains_key(dep) {
                    affected.insert(dep.clone());
                }
            }
        }
        for orphan in &orphans {
            if let Some(entry) = cache.entries.get(orphan) {
                affected.extend(
                    entry
                        .deps
                        .iter()
                        .filter(|dep| !scanned.contains_key(*dep))
                        .cloned(),
                );
            }
        }
        for rel in affected {
            let abs = project.abs(&rel);
            let (Some(stat), true) = (Stat::of(&abs), documentable(&scope, &rel)) else {
                continue;
            };
            let design_stat = Stat::of(&project.abs(&design_path(&rel)));
            let item = scan(project, &cache, &rel, stat, design_stat, None, &exists);
            scanned.insert(rel, item);
        }
    }

    // 3. Generate: dependents of every file this run looks at, old (cached) and new.
    let looked_at: HashSet<&str> = scanned.keys().map(String::as_str).collect();
    let mut new_dependents: HashMap<String, Vec<String>> = HashMap::new();
    let mut old_dependents: HashMap<String, Vec<String>> = HashMap::new();
    let add = |map: &mut HashMap<String, Vec<String>>, file: &str, deps: &[String]| {
        for dep in deps.iter().filter(|dep| looked_at.contains(dep.as_str())) {
            map.entry(dep.clone()).or_default().push(file.to_string());
        }
    };
    for (rel, item) in &scanned {
        add(&mut new_dependents, rel, &item.deps);
    }
    for (rel, entry) in &cache.entries {
        if entry.design.is_none() {
            continue;
        }
        add(&mut old_dependents, rel, &entry.deps);
        if !universe.complete && !orphans.contains(rel) && !scanned.contains_key(rel) {
            add(&mut new_dependents, rel, &entry.deps);
        }
    }
    for dependents in new_dependents
        .values_mut()
        .chain(old_dependents.values_mut())
    {
        dependents.sort();
        dependents.dedup();
    }
    let empty: Vec<String> = Vec::new();
    let structural = StructuralArchivist;
    // Whether the Archivist (re)writes this file's owned sections: a regenerating level, or a rename
    // of a design file nobody edited.
    let archivist_writes = |item: &Scanned| {
        item.level.regenerates()
            || (item.level == ChangeLevel::Renamed
                && item.design_text.as_deref().is_some_and(|text| {
                    item.design
                        .as_ref()
                        .and_then(|d| d.footer.as_ref())
                        .is_some_and(|f| is_unedited(text, f))
                }))
    };

    struct Write {
        source: String,
        text: String,
        expected: Option<String>,
        description: String,
        /// Set when the Archivist wrote it (provenance).
        generation: Option<Generation>,
        over_budget: Option<crate::archivist::OverBudget>,
    }
    let archivist_write = |item: &Scanned, out: generate::Regenerated| Write {
        source: item.source.clone(),
        text: out.text,
        // D-061 compares with what is at the design path now; a rename's target has nothing yet.
        expected: if item.level == ChangeLevel::Renamed {
            None
        } else {
            item.design_text.clone()
        },
        description: out.description,
        generation: Some(out.generation),
        over_budget: out.over_budget,
    };
    let planned: Vec<anyhow::Result<Option<Write>>> = scanned
        .par_iter()
        .map(|(rel, item)| {
            let dependents = new_dependents.get(rel).unwrap_or(&empty);
            let design_rel = design_path(rel);
            if archivist_writes(item) {
                // A model is asked below, a bounded number of files at a time.
                if llm.is_some() {
                    return Ok(None);
                }
                let out = generate::regenerate(&structural, item, dependents)?;
                return Ok(Some(archivist_write(item, out)));
            }
            // A move of a design file the Archivist wrote and never anyone edited is the
            // Archivist's write too; footer refreshes of agent edits are not.
            let moved_unedited = item.level == ChangeLevel::Renamed
                && item
                    .design_text
                    .as_deref()
                    .is_some_and(text_is_unedited_any);
            let (text, description) = match item.level {
                ChangeLevel::Renamed => {
                    let from = moves.get(rel).map(String::as_str).unwrap_or("");
                    let text =
                        generate::moved(item.design_text.as_deref().unwrap_or(""), from, item);
                    (text, item.description.clone().unwrap_or_default())
                }
                ChangeLevel::AgentUpdated => (
                    generate::refresh_footer(item),
                    item.description.clone().unwrap_or_default(),
                ),
                ChangeLevel::Unchanged => {
                    let moved = old_dependents.get(rel).unwrap_or(&empty) != dependents;
                    let needs_look = moved || item.design.is_some();
                    if !needs_look {
                        return Ok(None);
                    }
                    let current = match &item.design_text {
                        Some(text) => text.clone(),
                        None => match std::fs::read_to_string(project.abs(&design_rel)) {
                            Ok(text) => text,
                            Err(_) => return Ok(None),
                        },
                    };
                    let Some(design) = DesignFile::parse(&design_rel, &current).ok() else {
                        return Ok(None);
                    };
                    // Only a design file as the Archivist left it gets its Dependents refreshed.
                    let edited = design
                        .footer
                        .as_ref()
                        .is_none_or(|f| !is_unedited(&current, f));
                    if edited {
                        return Ok(None);
                    }
                    let section_of =
                        |heading: &str| design.section(heading).map(|s| s.body.clone());
                    let expected_dependents = crate::archivist::structural::path_list(dependents);
                    let expected_dependencies = crate::archivist::structural::path_list(&item.deps);
                    let is_code = item.interface_hash.is_some();
                    let dependencies_current = item.from_cache
                        || section_of(crate::library::design_file::sections::DEPENDENCIES)
                            .map_or(item.deps.is_empty(), |body| body == expected_dependencies);
                    if !is_code
                        || (dependencies_current
                            && section_of(crate::library::design_file::sections::DEPENDENTS)
                                .as_deref()
                                == Some(expected_dependents.as_str()))
                    {
                        return Ok(None);
                    }
                    return Ok(generate::refresh_dependents(
                        &design_rel,
                        &current,
                        item,
                        dependents,
                    )
                    .map(|text| Write {
                        source: rel.clone(),
                        text,
                        // D-061: the text this refresh was computed from.
                        expected: Some(current.clone()),
                        description: design.frontmatter.description.clone(),
                        // Only an unedited (Archivist-written) file gets here: record it.
                        generation: Some(crate::archivist::Generation::offline("structural", 0)),
                        over_budget: None,
                    }));
                }
                _ => return Ok(None),
            };
            Ok(Some(Write {
                source: rel.clone(),
                text,
                expected: item.design_text.clone(),
                description,
                generation: moved_unedited
                    .then(|| crate::archivist::Generation::offline("structural", 0)),
                over_budget: None,
            }))
        })
        .collect();

    let mut writes = Vec::new();
    for result in planned {
        if let Some(write) = result? {
            writes.push(write);
        }
    }

    // The files a model writes (or, with --dry-run/--check, would be asked about).
    let model_jobs: Vec<&Scanned> = if llm_settings.is_some() {
        scanned
            .values()
            .filter(|item| archivist_writes(item))
            .collect()
    } else {
        Vec::new()
    };
    if let (None, Some(settings)) = (&llm, &llm_settings) {
        let mut requests: Vec<LlmRequest> = model_jobs
            .par_iter()
            .map(|item| {
                let dependents = new_dependents.get(&item.source).unwrap_or(&empty);
                LlmRequest {
                    source: item.source.clone(),
                    input_tokens: settings
                        .estimate_input_tokens(&generate::archivist_input(item, dependents)),
                }
            })
            .collect();
        requests.sort_by(|a, b| a.source.cmp(&b.source));
        report.llm_estimate = Some(LlmEstimate {
            provider: settings.provider.name().to_string(),
            model: settings.model.clone(),
            input_tokens: requests.iter().map(|r| r.input_tokens).sum(),
            requests,
        });
    }

    // Report the plan.
    for (rel, item) in &scanned {
        *report.counts.entry(item.level.label()).or_default() += 1;
        if let Some(warning) = &item.warning {
            report.warnings.push(warning.clone());
        }
        if item.level == ChangeLevel::Unchanged {
            continue;
        }
        let action = match item.level {
            ChangeLevel::AgentUpdated => "refresh footer",
            ChangeLevel::Renamed => "move",
            ChangeLevel::SkippedConflict | ChangeLevel::SkippedInvalid => "skip",
            _ => "write",
        };
        report.items.push(PlanItem {
            source: rel.clone(),
            level: item.level,
            from: moves.get(rel).cloned(),
            action,
        });
    }
    let moved_from: HashSet<&String> = moves.values().collect();
    // (source, design text the removal was planned from)
    let mut removals: Vec<(String, String)> = Vec::new();
    for orphan in &orphans {
        if moved_from.contains(orphan) {
            continue; // removed once its new design file is written
        }
        let design_rel = design_path(orphan);
        let Ok(text) = std::fs::read_to_string(project.abs(&design_rel)) else {
            continue;
        };
        // Only a design file that is exactly the Archivist's output goes with its source: hand
        // edits, an agent's description or sections the Archivist does not write are kept.
        let unedited = text_is_unedited(&design_rel, &text)
            && DesignFile::parse(&design_rel, &text).is_ok_and(|d| !carries_agent_work(&d));
        *report
            .counts
            .entry(ChangeLevel::Deleted.label())
            .or_default() += 1;
        if unedited {
            removals.push((orphan.clone(), text.clone()));
            report.items.push(PlanItem {
                source: orphan.clone(),
                level: ChangeLevel::Deleted,
                from: None,
                action: "remove",
            });
        } else {
            report.warnings.push(format!(
                "{orphan}: the source is gone but {design_rel} holds hand-written content; kept — move what matters, then delete it"
            ));
            report.items.push(PlanItem {
                source: orphan.clone(),
                level: ChangeLevel::Deleted,
                from: None,
                action: "keep",
            });
        }
    }
    report.items.sort_by(|a, b| a.source.cmp(&b.source));

    // 4. Write design files: what was planned above, then each model answer as it arrives, so a
    // long LLM run keeps what it paid for even if it is interrupted, and the D-061 re-check sits
    // right before each write.
    let mut descriptions: HashMap<String, String> = HashMap::new();
    let mut written: HashSet<String> = HashSet::new();
    let mut write_one = |write: Write| -> anyhow::Result<()> {
        let design_rel = design_path(&write.source);
        let planned_item = scanned.get(&write.source).map(|s| s.level);
        if planned_item == Some(ChangeLevel::Unchanged) {
            report.dependents_refreshed.push(write.source.clone());
        }
        descriptions.insert(write.source.clone(), write.description.clone());
        if !options.writes() {
            report.design_files_written += 1;
            return Ok(());
        }
        // D-061: an agent edit that landed during this update wins.
        let abs = project.abs(&design_rel);
        let now = match &write.expected {
            None if abs.symlink_metadata().is_err() => None,
            _ => Some(std::fs::read_to_string(&abs).unwrap_or_default()),
        };
        if now != write.expected {
            let message = format!("{design_rel}: changed while the update ran; kept the new version, discarded the Archivist's");
            state.log(&message);
            report.warnings.push(message);
            return Ok(());
        }
        atomic::write(&abs, write.text.as_bytes())
            .with_context(|| format!("cannot write {design_rel}"))?;
        report.design_files_written += 1;
        written.insert(write.source.clone());
        if let (Some(generation), Some(item)) = (&write.generation, scanned.get(&write.source)) {
            let provenance = Provenance {
                design_file: design_rel.clone(),
                source: write.source.clone(),
                source_hash: item.source_hash.clone(),
                interface_hash: item.interface_hash.clone(),
                design_hash: crate::library::footer::design_hash_of(&write.text),
                level: item.level,
                generation: generation.clone(),
                // The note's key is the blob id of the text written. The blob itself reaches the
                // object database when the library is committed (a note may annotate any id);
                // writing 20,000 loose objects up front would double a cold run's file creations.
                blob: git
                    .as_ref()
                    .and_then(|_| crate::git::notes::blob_id(write.text.as_bytes()).ok()),
            };
            if provenance.generation.model.is_some() {
                state.log(&provenance_line(&provenance));
            }
            report.generated.push(provenance);
        }
        if let Some(over) = write.over_budget {
            let message = format!(
                "{}: over_scoped: the model's answer is {} tokens, over the design file budget of {} (token_budgets.design_file_tokens); the file may do too much",
                write.source, over.tokens, over.budget
            );
            state.log(&message);
            report.warnings.push(message);
            report.over_scoped.push(OverScoped {
                source: write.source.clone(),
                tokens: over.tokens,
                budget: over.budget,
            });
        }
        // A rename's old design file goes only once the new one is safely written.
        if let (Some(from), Some(old_text)) = (
            moves.get(&write.source),
            scanned
                .get(&write.source)
                .and_then(|item| item.design_text.clone()),
        ) {
            removals.push((from.clone(), old_text));
        }
        Ok(())
    };
    for write in writes {
        write_one(write)?;
    }
    // Model calls, at most `llm.concurrency` in flight; answers are written on this thread as they
    // come. A file that fails is recorded and the others go on.
    let mut failed: BTreeMap<String, String> = BTreeMap::new();
    if let Some(llm) = &llm {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let (sender, answers) = std::sync::mpsc::channel();
        std::thread::scope(|threads| -> anyhow::Result<()> {
            let stop = &stop;
            let model_jobs = &model_jobs;
            let new_dependents = &new_dependents;
            let empty = &empty;
            threads.spawn(move || {
                super::bounded::map(model_jobs, llm.settings().concurrency, |item| {
                    if stop.load(Ordering::Relaxed) {
                        return;
                    }
                    let dependents = new_dependents.get(&item.source).unwrap_or(empty);
                    let result = generate::regenerate(llm, item, dependents);
                    let _ = sender.send((*item, result));
                });
            });
            for (item, result) in answers {
                let outcome = match result {
                    Ok(out) => write_one(archivist_write(item, out)),
                    Err(err) => {
                        let reason = format!("{err:#}");
                        state.log(&format!("{}: {} failed: {reason}", item.source, llm.name()));
                        failed.insert(item.source.clone(), reason);
                        Ok(())
                    }
                };
                if let Err(err) = outcome {
                    // A write failed (disk full, permissions): stop asking, keep the error.
                    stop.store(true, Ordering::Relaxed);
                    return Err(err);
                }
            }
            Ok(())
        })?;
        report.failed = failed
            .iter()
            .map(|(source, reason)| FailedFile {
                source: source.clone(),
                reason: reason.clone(),
            })
            .collect();
        for item in &mut report.items {
            if failed.contains_key(&item.source) {
                item.action = "failed";
            }
        }
        // Answers arrive in any order; the report does not.
        report.generated.sort_by(|a, b| a.source.cmp(&b.source));
        report.over_scoped.sort_by(|a, b| a.source.cmp(&b.source));
    }
    // One notes commit with the provenance of every design file written.
    if let Some(git) = &git {
        record_provenance(
            git,
            head.as_ref(),
            &report.generated,
            &state,
            &mut report.warnings,
        );
    }
    if !options.writes() {
        report.design_files_removed = removals.len() + moves.len();
    } else {
        for (orphan, planned_from) in &removals {
            let design_rel = design_path(orphan);
            let abs = project.abs(&design_rel);
            // D-061 for removals: an edit that landed during this run keeps the file.
            match std::fs::read_to_string(&abs) {
                Ok(now) if now == *planned_from => {}
                Ok(_) => {
                    let message = format!("{design_rel}: changed while the update ran; kept");
                    state.log(&message);
                    report.warnings.push(message);
                    continue;
                }
                Err(_) => continue,
            }
            match std::fs::remove_file(&abs) {
                Ok(()) => report.design_files_removed += 1,
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => return Err(err).with_context(|| format!("cannot remove {design_rel}")),
            }
            remove_empty_mirror_dirs(project, parent_rel(orphan));
        }
    }

    // Cache entries for documented files.
    for (rel, item) in &scanned {
        if failed.contains_key(rel) {
            // Nothing was written: the cache keeps what it knew (or nothing), so the next run looks
            // at the file again. A failed rename keeps its old path known too.
            for known in std::iter::once(rel).chain(moves.get(rel)) {
                if let Some(entry) = cache.entries.get(known) {
                    new_entries.insert(known.clone(), entry.clone());
                }
            }
            continue;
        }
        if matches!(
            item.level,
            ChangeLevel::SkippedConflict | ChangeLevel::SkippedInvalid
        ) {
            // Nothing was learned: keep what the cache knew, so the file stays known.
            if let Some(entry) = cache.entries.get(rel) {
                new_entries.insert(rel.clone(), entry.clone());
            }
            continue;
        }
        // Re-stat only what this run wrote; everything else is as scanned.
        let design_stat = if written.contains(rel) {
            Stat::of(&project.abs(&design_path(rel)))
        } else {
            design_stats.get(rel.as_str()).copied()
        };
        let description = descriptions
            .get(rel)
            .cloned()
            .or_else(|| item.description.clone())
            .unwrap_or_default();
        new_entries.insert(
            rel.clone(),
            cache::Entry {
                stat: item.stat,
                class: FileClass::Text,
                source_hash: item.source_hash.clone(),
                interface_hash: item.interface_hash.clone(),
                description,
                deps: item.deps.clone(),
                design: design_stat,
            },
        );
    }

    // Directory indexes, deepest first so parents see their children's billboards.
    let mut billboards: BTreeMap<String, String> = BTreeMap::new();
    let mut dirs: Vec<&String> = universe.dirs.iter().collect();
    let depth = |dir: &str| {
        if dir.is_empty() {
            0
        } else {
            dir.matches('/').count() + 1
        }
    };
    dirs.sort_by(|a, b| depth(b).cmp(&depth(a)).then(a.cmp(b)));
    let describe_file = |rel: &str| -> String {
        new_entries
            .get(rel)
            .or_else(|| cache.entries.get(rel))
            .map(|e| e.description.clone())
            .filter(|d| !d.is_empty())
            .unwrap_or_else(|| "File".to_string())
    };
    for dir in dirs {
        let listed = universe.children.get(dir).cloned().unwrap_or_default();
        let mut children = Vec::new();
        let mut module_description = None;
        let (mut files, mut subdirs) = (0, 0);
        for (name, kind) in listed {
            let rel = if dir.is_empty() {
                name.clone()
            } else {
                format!("{dir}/{name}")
            };
            let (kind, description) = match kind {
                EntryKind::File => {
                    files += 1;
                    let description = describe_file(&rel);
                    let has_doc = scanned
                        .get(&rel)
                        .and_then(|item| item.code.as_ref())
                        .is_some_and(|code| code.interface.doc.is_some());
                    if MODULE_FILES.contains(&name.as_str())
                        && module_description.is_none()
                        && has_doc
                    {
                        module_description = Some(description.clone());
                    }
                    (ChildKind::File, description)
                }
                EntryKind::Dir => {
                    subdirs += 1;
                    let billboard = billboards
                        .get(&rel)
                        .cloned()
                        .unwrap_or_else(|| existing_billboard(project, &rel));
                    (ChildKind::Dir, billboard_summary(&billboard))
                }
            };
            children.push(Child {
                name,
                kind,
                description,
            });
        }
        let outcome = indexes::index_directory(project, dir, children, || {
            structural_billboard(module_description.as_deref(), files, subdirs)
        });
        if let Some(warning) = outcome.warning {
            report.warnings.push(warning);
        }
        billboards.insert(dir.clone(), outcome.billboard);
        if let Some(text) = outcome.text {
            if options.writes() {
                atomic::write(&project.abs(&outcome.path), text.as_bytes())
                    .with_context(|| format!("cannot write {}", outcome.path))?;
            }
            report.aindex_written.push(outcome.path);
        }
    }
    if universe.complete && options.paths.is_empty() {
        // Indexes of directories that are gone. The cache remembers which directories were indexed;
        // without a cache, look in the mirror.
        let previously: Vec<(String, String)> = if cache.dirs.is_empty() {
            mirrored_indexes(project)
        } else {
            cache
                .dirs
                .iter()
                .map(|dir| (dir.clone(), aindex_path(dir)))
                .collect()
        };
        for (dir, path) in previously {
            if !universe.dirs.contains(&dir) && project.abs(&path).is_file() {
                if options.writes() {
                    let _ = std::fs::remove_file(project.abs(&path));
                    remove_empty_mirror_dirs(project, &dir);
                }
                report.aindex_removed.push(path);
            }
        }
    }
    report.aindex_written.sort();

    // START_HERE.md when the top of the tree may have moved.
    let top_changed = report
        .aindex_written
        .iter()
        .chain(&report.aindex_removed)
        .any(|path| path.matches('/').count() <= 3);
    if report.mode == "full" || top_changed {
        write_start_here(project, options, &billboards, &mut report)?;
    }

    // Remember what we learned.
    report.stale = !report.items.is_empty()
        || !report.dependents_refreshed.is_empty()
        || !report.aindex_written.is_empty()
        || !report.aindex_removed.is_empty()
        || report.start_here_written;
    if options.writes() {
        let mut changed;
        if universe.complete && options.paths.is_empty() {
            changed = cache.entries != new_entries || cache.dirs != universe.dirs;
            cache.entries = new_entries;
            cache.dirs = universe.dirs.clone();
        } else {
            changed = !orphans.is_empty()
                || new_entries
                    .iter()
                    .any(|(rel, entry)| cache.entries.get(rel) != Some(entry));
            let kept_moves: HashSet<&String> = failed
                .keys()
                .filter_map(|source| moves.get(source))
                .collect();
            for orphan in &orphans {
                if !kept_moves.contains(orphan) {
                    cache.entries.remove(orphan);
                }
            }
            cache.entries.extend(new_entries);
            let dirs_before = cache.dirs.len();
            cache.dirs.extend(universe.dirs.iter().cloned());
            cache
                .dirs
                .retain(|dir| !report.aindex_removed.contains(&aindex_path(dir)));
            changed |= cache.dirs.len() != dirs_before;
        }
        // Save when anything was learned. Entries read again because their mtime was too close to
        // the last save count too: saving now moves the save time past them.
        let rescanned =
            scanned.values().any(|item| !item.from_cache) || recomputed.load(Ordering::Relaxed) > 0;
        if rescanned || changed {
            cache
                .save(&state.cache_path(), run_started_ns)
                .with_context(|| {
                    format!("cannot write the cache {}", state.cache_path().display())
                })?;
        }
        // Files that failed are looked at again by the next `--changed-only` run.
        let mut pending = universe.dirty_paths.clone();
        pending.extend(failed.keys().cloned());
        pending.sort();
        pending.dedup();
        let processed_everything = options.paths.is_empty();
        let skipped = report.items.iter().any(|item| item.action == "skip");
        let processed = head.filter(|_| processed_everything).map(|head| Processed {
            commit: head,
            clean: clean_tree && !report.stale && !skipped,
            fingerprint,
        });
        state
            .edit(|recorded| {
                recorded.pending = pending;
                if processed.is_some() {
                    recorded.processed = processed;
                }
            })
            .context("cannot record what this update processed")?;
    }
    report.elapsed_ms = started.elapsed().as_millis();
    state.log(&log_line(&report));
    Ok(report)
}

enum Examined {
    Documented(Box<Scanned>),
    Listed(Box<(String, cache::Entry)>),
}

/// The current stat of every existing design file of `sources`, read one mirror directory at a time:
/// `read_dir` plus `fstatat` relative to the directory is far cheaper than a full path lookup per file.
fn design_file_stats<'a>(
    project: &Project,
    sources: &'a [(String, Stat)],
) -> HashMap<&'a str, Stat> {
    let mut by_dir: BTreeMap<&str, Vec<&'a str>> = BTreeMap::new();
    for (rel, _) in sources {
        by_dir
            .entry(parent_rel(rel))
            .or_default()
            .push(rel.as_str());
    }
    let groups: Vec<(&str, Vec<&'a str>)> = by_dir.into_iter().collect();
    groups
        .par_iter()
        .flat_map_iter(|(dir, rels)| {
            let mirror = project.library_dir().join(dir);
            let mut found: HashMap<String, Stat> = HashMap::new();
            if let Ok(entries) = std::fs::read_dir(&mirror) {
                for entry in entries.flatten() {
                    if let (Some(name), Ok(meta)) = (entry.file_name().to_str(), entry.metadata()) {
                        if meta.is_file() {
                            found.insert(name.to_string(), Stat::from_metadata(&meta));
                        }
                    }
                }
            }
            rels.iter()
                .filter_map(|rel| {
                    let name = format!(
                        "{}{}",
                        rel.rsplit('/').next().unwrap_or(rel),
                        crate::project::mirror::DESIGN_SUFFIX
                    );
                    found.get(&name).map(|stat| (*rel, *stat))
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Decide how to treat one in-scope file: documented (scanned) or only listed (binary, too large).
fn examine(
    project: &Project,
    cache: &Cache,
    rel: &str,
    stat: Stat,
    design_stat: Option<Stat>,
    exists: &(dyn Fn(&str) -> bool + Sync),
    recomputed: &AtomicUsize,
) -> Examined {
    let abs = project.abs(rel);
    let cached = cache
        .entries
        .get(rel)
        .filter(|e| e.stat == stat && cache.stat_is_settled(&stat));
    // One read serves both the binary sniff and the scan.
    let (class, bytes) = match cached {
        Some(entry) => (entry.class, None),
        None if walk::has_binary_extension(&abs, &project.config) => (FileClass::Binary, None),
        None if stat.size > project.config.crawl.max_file_size_kb.saturating_mul(1024) => {
            (FileClass::TooLarge, None)
        }
        None => match std::fs::read(&abs) {
            Ok(bytes) if bytes[..bytes.len().min(8192)].contains(&0) => (FileClass::Binary, None),
            Ok(bytes) => (FileClass::Text, Some(bytes)),
            Err(_) => (FileClass::Text, None),
        },
    };
    if class != FileClass::Text {
        return Examined::Listed(Box::new((
            rel.to_string(),
            listed_entry(project, cache, rel, stat, recomputed),
        )));
    }
    Examined::Documented(Box::new(scan(
        project,
        cache,
        rel,
        stat,
        design_stat,
        bytes,
        exists,
    )))
}

/// A cache entry for a file that is listed in `.aindex` but has no design file.
fn listed_entry(
    project: &Project,
    cache: &Cache,
    rel: &str,
    stat: Stat,
    recomputed: &AtomicUsize,
) -> cache::Entry {
    let abs = project.abs(rel);
    if let Some(entry) = cache.entries.get(rel) {
        if entry.stat == stat && cache.stat_is_settled(&stat) && entry.design.is_none() {
            return entry.clone();
        }
    }
    recomputed.fetch_add(1, Ordering::Relaxed);
    let class = walk::classify(&abs, stat.size, &project.config).unwrap_or(FileClass::Binary);
    let description = crate::workspace::child_map::structural_description(project, rel, stat.size)
        .unwrap_or_else(|_| "Unreadable file".to_string());
    cache::Entry {
        stat,
        class,
        source_hash: String::new(),
        interface_hash: None,
        description,
        deps: Vec::new(),
        design: None,
    }
}

/// The full (or path-restricted) plan from a walk of the whole tree.
fn plan_walk(project: &Project, scope: &Scope, paths: &[String]) -> (Universe, Vec<String>) {
    let walk = walk::walk_project(&project.root, &project.config);
    let warnings = walk.warnings.clone();
    let mut universe = Universe::empty(true);
    let mut all_dirs = BTreeSet::new();
    all_dirs.insert(String::new());
    for entry in &walk.entries {
        let parent = parent_rel(&entry.rel).to_string();
        let name = entry
            .rel
            .rsplit('/')
            .next()
            .unwrap_or(&entry.rel)
            .to_string();
        universe
            .children
            .entry(parent)
            .or_default()
            .push((name, entry.kind));
        match entry.kind {
            EntryKind::File => {
                universe.all_files.insert(entry.rel.clone());
                if path_selected(&entry.rel, paths) {
                    universe.files.insert(
                        entry.rel.clone(),
                        Stat {
                            size: entry.size,
                            mtime_ns: entry.mtime_ns,
                        },
                    );
                }
            }
            EntryKind::Dir => {
                all_dirs.insert(entry.rel.clone());
            }
        }
    }
    for dir in all_dirs {
        if !indexable(scope, &dir) {
            continue;
        }
        let selected = paths.is_empty()
            || paths.iter().any(|p| {
                dir == *p
                    || dir.starts_with(&format!("{p}/"))
                    || p.starts_with(&format!("{dir}/"))
                    || dir.is_empty()
            });
        if selected {
            universe.dirs.insert(dir);
        }
    }
    (universe, warnings)
}

/// Whether a design file holds anything an agent or human wrote: their description, text before the
/// first section, or a section the Archivist does not own.
fn carries_agent_work(design: &DesignFile) -> bool {
    design.frontmatter.updated_by == UpdatedBy::Agent
        || !design.body.preamble.trim().is_empty()
        || design.body.sections.iter().any(|section| {
            !crate::archivist::OWNED_SECTIONS
                .iter()
                .any(|owned| owned.eq_ignore_ascii_case(&section.heading))
                && !section.body.trim().is_empty()
        })
}

/// Identifies the effective configuration and tool version: a change to either invalidates the
/// no-op fast path.
fn config_fingerprint(project: &Project) -> String {
    let config = serde_json::to_string(&project.config).unwrap_or_default();
    crate::hash::sha256_hex(format!("{}\n{config}", env!("CARGO_PKG_VERSION")).as_bytes())
}

/// Whether a file gets a design file: inside a scope root, mirrorable, and not a dotfile (nor inside a
/// dot-directory such as `.github/`): those are listed in `.aindex` but not documented.
pub(crate) fn documentable(scope: &Scope, rel: &str) -> bool {
    scope.contains(rel) && is_mirrorable(rel) && !rel.split('/').any(|part| part.starts_with('.'))
}

/// Whether directory `dir` gets an `.aindex`: inside a scope root, or on the way to one.
fn indexable(scope: &Scope, dir: &str) -> bool {
    dir.is_empty()
        || scope.contains(dir)
        || scope
            .roots()
            .iter()
            .any(|root| root.starts_with(&format!("{dir}/")))
}

/// With `--changed-only` in git: the files changed since the last processed commit plus the dirty
/// ones. `None` means "do a full update instead" (first run, unknown last commit, outside git).
fn plan_changes(
    project: &Project,
    options: &UpdateOptions,
    git: Option<&GitRepo>,
    state: &StateDir,
    dirty: Option<&[Change]>,
) -> anyhow::Result<Option<Universe>> {
    if !options.changed_only || !options.paths.is_empty() {
        return Ok(None);
    }
    let Some(repo) = git else { return Ok(None) };
    let (Some(last), Some(head)) = (
        state.processed().map(|processed| processed.commit),
        repo.head_commit()?,
    ) else {
        return Ok(None);
    };
    if !state.cache_path().is_file() || !repo.has_commit(&last) {
        state.log("changed-only: no usable previous run; doing a full update");
        return Ok(None);
    }
    let prefix = project_prefix(project, repo);
    let Some(prefix) = prefix else {
        return Ok(None);
    };
    let strip = |path: &str| -> Option<String> {
        let rel = if prefix.is_empty() {
            Some(path)
        } else {
            path.strip_prefix(&format!("{prefix}/"))
        }?;
        // A design file edited by an agent stands for its source.
        if let Some(source) = source_for_design(rel) {
            return Some(source.to_string());
        }
        let top = rel.split('/').next().unwrap_or("");
        (top != LIBRARY_DIR && top != ".git").then(|| rel.to_string())
    };
    let mut touched: BTreeSet<String> = BTreeSet::new();
    let mut renames = Vec::new();
    if last != head {
        for change in repo.diff_commits(Some(&last), &head)? {
            match change {
                Change::Added(p) | Change::Modified(p) | Change::Deleted(p) => {
                    touched.extend(strip(&p))
                }
                Change::Renamed { from, to } => {
                    if let (Some(from), Some(to)) = (strip(&from), strip(&to)) {
                        renames.push((from.clone(), to.clone()));
                        touched.insert(from);
                        touched.insert(to);
                    }
                }
            }
        }
    }
    // Tracked files only, and not the library's own files (the update rewrites those itself):
    // untracked files are documented once committed, or by a full update. This keeps the
    // post-commit hook's run to about half of a `git status`.
    let dirty = match dirty {
        Some(dirty) => dirty.to_vec(),
        None => {
            let library = if prefix.is_empty() {
                LIBRARY_DIR.to_string()
            } else {
                format!("{prefix}/{LIBRARY_DIR}")
            };
            repo.tracked_changes_outside(&library)?
        }
    };
    // What was dirty last time may have been reverted since: look at it again.
    touched.extend(state.read().pending);
    let mut dirty_paths: BTreeSet<String> = BTreeSet::new();
    for dirty in dirty {
        dirty_paths.extend(strip(dirty.path()));
        if let Change::Renamed { from, .. } = &dirty {
            dirty_paths.extend(strip(from));
        }
        match dirty {
            Change::Modified(p) | Change::Added(p) | Change::Deleted(p) => {
                touched.extend(strip(&p))
            }
            Change::Renamed { from, to } => {
                if let (Some(from), Some(to)) = (strip(&from), strip(&to)) {
                    renames.push((from.clone(), to.clone()));
                    touched.insert(from);
                    touched.insert(to);
                }
            }
        }
    }
    let mut universe = Universe::empty(false);
    universe.renames = renames;
    let scope = Scope::from_config(&project.config, &project.library_dir().join(CONFIG_FILE))?;
    let mut listings: HashMap<String, BTreeMap<String, walk::Entry>> = HashMap::new();
    for path in &touched {
        for dir in ancestors_rel(path) {
            if indexable(&scope, dir) {
                universe.dirs.insert(dir.to_string());
            }
        }
        let parent = parent_rel(path).to_string();
        let listing = listings.entry(parent.clone()).or_insert_with(|| {
            walk::list_dir(&project.root, &project.config, &parent)
                .entries
                .into_iter()
                .map(|entry| (entry.rel.clone(), entry))
                .collect()
        });
        match listing.get(path) {
            Some(entry) if entry.kind == EntryKind::File => {
                universe.files.insert(
                    path.clone(),
                    Stat {
                        size: entry.size,
                        mtime_ns: entry.mtime_ns,
                    },
                );
            }
            _ => {
                universe.gone.insert(path.clone());
            }
        }
    }
    for dir in universe.dirs.clone() {
        let listing = listings.entry(dir.clone()).or_insert_with(|| {
            walk::list_dir(&project.root, &project.config, &dir)
                .entries
                .into_iter()
                .map(|entry| (entry.rel.clone(), entry))
                .collect()
        });
        let children = listing
            .values()
            .map(|entry| {
                (
                    entry
                        .rel
                        .rsplit('/')
                        .next()
                        .unwrap_or(&entry.rel)
                        .to_string(),
                    entry.kind,
                )
            })
            .collect();
        universe.children.insert(dir, children);
    }
    // A directory that no longer exists loses its index.
    universe
        .dirs
        .retain(|dir| dir.is_empty() || project.abs(dir).is_dir());
    universe.dirty_paths = dirty_paths.into_iter().collect();
    Ok(Some(universe))
}

/// Renames git knows of since the last processed commit (committed, and staged in the working
/// tree), as project-relative (from, to) pairs. Best effort: an unknown last commit gives none.
fn git_renames(
    project: &Project,
    repo: &GitRepo,
    state: &StateDir,
    dirty: Option<&[Change]>,
) -> Vec<(String, String)> {
    let Some(prefix) = project_prefix(project, repo) else {
        return Vec::new();
    };
    let to_project = |path: &str| -> Option<String> {
        if prefix.is_empty() {
            Some(path.to_string())
        } else {
            path.strip_prefix(&format!("{prefix}/")).map(str::to_string)
        }
    };
    let mut renames = Vec::new();
    if let (Some(last), Ok(Some(head))) = (
        state.processed().map(|processed| processed.commit),
        repo.head_commit(),
    ) {
        if last != head && repo.has_commit(&last) {
            for change in repo.diff_commits(Some(&last), &head).unwrap_or_default() {
                if let Change::Renamed { from, to } = change {
                    renames.extend(to_project(&from).zip(to_project(&to)));
                }
            }
        }
    }
    for change in dirty.unwrap_or_default() {
        if let Change::Renamed { from, to } = change {
            renames.extend(to_project(from).zip(to_project(to)));
        }
    }
    renames
}

/// The project root relative to the repository's working tree (`""` when they are the same);
/// `None` if the project is not inside it.
pub(crate) fn project_prefix(project: &Project, repo: &GitRepo) -> Option<String> {
    let root = project
        .root
        .canonicalize()
        .unwrap_or_else(|_| project.root.clone());
    let workdir = repo
        .workdir()
        .canonicalize()
        .unwrap_or_else(|_| repo.workdir().to_path_buf());
    root.strip_prefix(&workdir).ok().and_then(to_rel_string)
}

/// Turn orphans into renames where possible: a git rename, or a new file with the orphan's content
/// hash. The new file takes over the old design file. Returns new path → old path.
fn resolve_orphans(
    project: &Project,
    orphans: &BTreeSet<String>,
    git_renames: &[(String, String)],
    scanned: &mut BTreeMap<String, Scanned>,
) -> BTreeMap<String, String> {
    let mut moves = BTreeMap::new();
    let mut by_hash: HashMap<String, String> = HashMap::new();
    let mut old_designs: HashMap<String, (String, DesignFile)> = HashMap::new();
    for orphan in orphans {
        let design_rel = design_path(orphan);
        let Ok(text) = std::fs::read_to_string(project.abs(&design_rel)) else {
            continue;
        };
        let Ok(design) = DesignFile::parse(&design_rel, &text) else {
            continue;
        };
        if let Some(footer) = &design.footer {
            by_hash
                .entry(footer.source_hash.clone())
                .or_insert_with(|| orphan.clone());
        }
        old_designs.insert(orphan.clone(), (text, design));
    }
    let mut candidates: Vec<(String, String)> = git_renames
        .iter()
        .filter(|(from, to)| {
            orphans.contains(from) && scanned.get(to).is_some_and(|s| s.level == ChangeLevel::New)
        })
        .cloned()
        .collect();
    for (rel, item) in scanned.iter() {
        if item.level == ChangeLevel::New {
            if let Some(from) = by_hash.get(&item.source_hash) {
                candidates.push((from.clone(), rel.clone()));
            }
        }
    }
    let mut taken: HashSet<String> = HashSet::new();
    for (from, to) in candidates {
        if taken.contains(&from) || moves.contains_key(&to) {
            continue;
        }
        let Some((text, design)) = old_designs.get(&from) else {
            continue;
        };
        let Some(item) = scanned.get_mut(&to) else {
            continue;
        };
        item.level = ChangeLevel::Renamed;
        let mut design = design.clone();
        if design.body.title.as_deref() == Some(from.as_str()) {
            design.body.title = Some(to.clone());
        }
        item.description = Some(design.frontmatter.description.clone());
        item.design_text = Some(text.clone());
        item.design = Some(design);
        taken.insert(from.clone());
        moves.insert(to, from);
    }
    // The D-061 re-check compares against the new path, which has no file yet.
    for to in moves.keys() {
        if let Some(item) = scanned.get_mut(to) {
            if item.text.is_none() {
                item.text = std::fs::read_to_string(project.abs(to)).ok();
            }
        }
    }
    moves
}

fn path_selected(rel: &str, paths: &[String]) -> bool {
    paths.is_empty()
        || paths
            .iter()
            .any(|p| p.is_empty() || rel == p || rel.starts_with(&format!("{p}/")))
}

/// Sources that have a design file in the mirror (used when there is no cache to know them by).
fn mirrored_sources(project: &Project) -> Vec<String> {
    let mut out = Vec::new();
    for (rel, is_dir) in mirror_entries(project) {
        if !is_dir {
            if let Some(source) = source_for_design(&format!("{LIBRARY_DIR}/{rel}")) {
                out.push(source.to_string());
            }
        }
    }
    out
}

/// Directories that have an `.aindex` in the mirror: (dir, path).
fn mirrored_indexes(project: &Project) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if project.library_dir().join(AINDEX_FILE).is_file() {
        out.push((String::new(), aindex_path("")));
    }
    for (rel, is_dir) in mirror_entries(project) {
        if is_dir && project.library_dir().join(&rel).join(AINDEX_FILE).is_file() {
            out.push((rel.clone(), aindex_path(&rel)));
        }
    }
    out
}

/// Every file and directory in the mirror part of `.lexibrary/` (relative to it), skipping the
/// library's own top-level entries.
fn mirror_entries(project: &Project) -> Vec<(String, bool)> {
    let mut out = Vec::new();
    let mut pending = vec![String::new()];
    while let Some(dir) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(project.library_dir().join(&dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                continue;
            };
            if dir.is_empty() && crate::project::mirror::RESERVED_TOP_LEVEL.contains(&name.as_str())
            {
                continue;
            }
            let rel = if dir.is_empty() {
                name
            } else {
                format!("{dir}/{name}")
            };
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir {
                pending.push(rel.clone());
            }
            out.push((rel, is_dir));
        }
    }
    out.sort();
    out
}

/// Directories one or two levels deep that have an `.aindex` in the mirror (what START_HERE shows).
fn indexed_top_dirs(project: &Project) -> Vec<String> {
    let subdirs = |rel: &str| -> Vec<String> {
        let Ok(entries) = std::fs::read_dir(project.library_dir().join(rel)) else {
            return Vec::new();
        };
        entries
            .flatten()
            .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|entry| entry.file_name().to_str().map(str::to_string))
            .filter(|name| {
                !(rel.is_empty()
                    && crate::project::mirror::RESERVED_TOP_LEVEL.contains(&name.as_str()))
            })
            .map(|name| {
                if rel.is_empty() {
                    name
                } else {
                    format!("{rel}/{name}")
                }
            })
            .collect()
    };
    let mut out = Vec::new();
    for top in subdirs("") {
        out.extend(subdirs(&top));
        out.push(top);
    }
    out.retain(|dir| project.abs(&aindex_path(dir)).is_file());
    out.sort();
    out
}

/// Remove empty mirror directories from `dir` up (never `.lexibrary/` itself).
fn remove_empty_mirror_dirs(project: &Project, dir: &str) {
    let mut current = dir.to_string();
    while !current.is_empty() {
        let path = project.library_dir().join(&current);
        if std::fs::remove_dir(&path).is_err() {
            break;
        }
        current = parent_rel(&current).to_string();
    }
}

fn write_start_here(
    project: &Project,
    options: &UpdateOptions,
    billboards: &BTreeMap<String, String>,
    report: &mut UpdateReport,
) -> anyhow::Result<()> {
    let mut summaries: BTreeMap<String, String> = BTreeMap::new();
    for dir in indexed_top_dirs(project) {
        if report.aindex_removed.contains(&aindex_path(&dir)) {
            continue;
        }
        summaries.insert(dir.clone(), existing_billboard(project, &dir));
    }
    for (dir, billboard) in billboards {
        if !dir.is_empty() && dir.matches('/').count() <= 1 {
            summaries.insert(dir.clone(), billboard.clone());
        }
    }
    let dirs: Vec<DirSummary> = summaries
        .into_iter()
        .map(|(dir, billboard)| DirSummary { dir, billboard })
        .collect();
    let path = project.library_dir().join("START_HERE.md");
    let existing = std::fs::read_to_string(&path).ok();
    let text = start_here::render(project, &dirs, existing.as_deref());
    if existing.as_deref() != Some(text.as_str()) {
        if options.writes() {
            atomic::write(&path, text.as_bytes()).context("cannot write START_HERE.md")?;
        }
        report.start_here_written = true;
    }
    Ok(())
}

/// The update log's line for a design file a model wrote. Everything in it is safe to keep: no key,
/// no prompt, no answer.
/// Append one provenance event per written design file to `refs/notes/lexibrarian/provenance`, keyed
/// by the file's blob, in one notes commit. A failure is a warning: the library itself is written.
fn record_provenance(
    git: &GitRepo,
    head: Option<&crate::git::Oid>,
    generated: &[Provenance],
    state: &StateDir,
    warnings: &mut Vec<String>,
) {
    use crate::git::notes::{event_id, NoteAppend, PROVENANCE_NOTES};
    let ts = crate::library::footer::now_rfc3339_millis();
    let appends: Vec<NoteAppend> = generated
        .iter()
        .filter_map(|provenance| {
            let blob = provenance.blob?;
            // What the Archivist did to this text: wrote its sections, only refreshed its
            // Dependents, or moved it with its source.
            let kind = match provenance.level {
                ChangeLevel::Unchanged => "dependents_refreshed",
                ChangeLevel::Renamed => "moved",
                _ => "generated",
            };
            let mut event = serde_json::json!({
                "ts": ts,
                "v": 1,
                "id": event_id(&provenance.source),
                "kind": kind,
                "commit": head,
            });
            if let (Some(map), Ok(serde_json::Value::Object(fields))) =
                (event.as_object_mut(), serde_json::to_value(provenance))
            {
                map.extend(fields);
            }
            Some(NoteAppend {
                object: blob,
                lines: format!("{event}\n"),
            })
        })
        .collect();
    if appends.is_empty() {
        return;
    }
    let message = format!("lexibrarian: provenance of {} design files", appends.len());
    if let Err(err) = git.append_notes(PROVENANCE_NOTES, &appends, &message) {
        let warning = format!("could not record provenance in {PROVENANCE_NOTES}: {err}");
        state.log(&warning);
        warnings.push(warning);
    }
}

/// Whether a design file's text is exactly what a generator wrote (its footer's design hash holds
/// and nothing follows the footer).
fn text_is_unedited_any(text: &str) -> bool {
    text_is_unedited("", text)
}

fn provenance_line(provenance: &Provenance) -> String {
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

fn log_line(report: &UpdateReport) -> String {
    let counts: Vec<String> = report
        .counts
        .iter()
        .map(|(level, n)| format!("{level}={n}"))
        .collect();
    let mut line = format!(
        "update mode={} {} written={} removed={} dependents={} aindex={} start_here={} dry_run={} {}ms",
        report.mode,
        counts.join(" "),
        report.design_files_written,
        report.design_files_removed,
        report.dependents_refreshed.len(),
        report.aindex_written.len(),
        report.start_here_written,
        report.dry_run,
        report.elapsed_ms
    );
    for item in &report.items {
        line.push_str(&format!(
            "\n  {} {} ({})",
            item.level.label(),
            item.source,
            item.action
        ));
    }
    for warning in &report.warnings {
        line.push_str(&format!("\n  warning: {warning}"));
    }
    for failed in &report.failed {
        line.push_str(&format!("\n  failed: {}: {}", failed.source, failed.reason));
    }
    line
}
