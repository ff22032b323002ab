//! Stage 1, **plan**: which files this update looks at — nothing at all when git shows the tree is
//! exactly as the last update left it (the no-op fast path), what changed since the last processed
//! commit plus what is dirty (`--changed-only`), or every file a walk finds (full, or the paths
//! given). The stat/hash cache loads on a second thread meanwhile.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use anyhow::Context as _;

use super::conflicts::Conflicts;
use super::report::Mode;
use super::UpdateOptions;
use crate::git::{Change, GitRepo};
use crate::project::mirror::{resolve_source, source_for_design};
use crate::project::paths::ancestors_rel;
use crate::project::scope::Scope;
use crate::project::walk::{self, EntryKind};
use crate::project::{Project, CONFIG_FILE, LIBRARY_DIR};
use crate::relpath::RelPath;
use crate::source::model::files::FileIndex;
use crate::source::model::{is_manifest, shapes_model, ProjectModel};
use crate::workspace::absent::Absent;
use crate::workspace::cache::{Cache, Stat};
use crate::workspace::library_writes::LibraryWrites;
use crate::workspace::Workspace;

/// What the walk (or the change list) says exists.
pub struct Universe {
    /// Every non-ignored file considered, with its stat data.
    pub files: BTreeMap<String, Stat>,
    /// Every file the walk found, considered or not (import resolution needs all of them).
    pub all_files: HashSet<String>,
    /// Directories to (re)index.
    pub dirs: BTreeSet<String>,
    /// Children of each directory to index: (name, kind).
    pub children: BTreeMap<String, Vec<(String, EntryKind)>>,
    /// Paths that no longer exist (or are no longer part of the tree) and may have design files.
    pub gone: BTreeSet<String>,
    /// Renames git reported (from, to).
    pub renames: Vec<(String, String)>,
    /// Uncommitted changes this `--changed-only` run looked at (remembered for the next one).
    pub dirty_paths: Vec<String>,
    /// Whether the whole tree was walked (so the cache can be pruned and vanished dirs found).
    pub complete: bool,
    /// Which files are in a merge conflict: git's index says, or (outside git) their text.
    pub conflicts: Conflicts,
    /// The files git keeps out of this working tree (sparse checkout, `skip-worktree`): present
    /// and unchanged as far as the library goes, never scanned, never orphans.
    pub absent: Arc<Absent>,
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
            conflicts: Conflicts::Text,
            absent: Arc::default(),
        }
    }

    /// An empty, complete universe (for the stages' unit tests).
    #[cfg(test)]
    pub fn for_tests() -> Universe {
        Universe::empty(true)
    }

    /// Whether `rel` is a file of the project as far as this run knows.
    pub fn exists(&self, project: &Project, rel: &str) -> bool {
        self.files.contains_key(rel)
            || self.all_files.contains(rel)
            || self.absent.has_file(rel)
            || (!self.complete && project.abs(rel).is_file())
    }

    /// Take in the files git keeps out of the working tree: they exist (for imports and tests),
    /// and the directories on disk that hold some list them in their Child Maps.
    fn add_absent(&mut self, absent: &Arc<Absent>) {
        self.absent = Arc::clone(absent);
        if absent.is_empty() {
            return;
        }
        self.all_files.extend(absent.files().cloned());
        for (dir, children) in self.children.iter_mut() {
            for child in absent.children(dir) {
                if !children.iter().any(|(name, _)| *name == child.0) {
                    children.push(child.clone());
                }
            }
        }
        for dir in &self.dirs {
            if !self.children.contains_key(dir) && !absent.children(dir).is_empty() {
                self.children
                    .insert(dir.clone(), absent.children(dir).to_vec());
            }
        }
    }
}

/// The work this update has to do.
pub struct Plan {
    pub mode: Mode,
    pub universe: Universe,
    /// From the walk (unreadable directories and the like).
    pub warnings: Vec<String>,
    /// Git's full status showed no uncommitted change.
    pub clean_tree: bool,
    /// The uncommitted changes git's full status showed, as the blobs their paths hold now (`None`:
    /// deleted), when this run read a full status and writes: with what it writes into the library,
    /// the tree its library is for once committed (`workspace::library_writes`).
    pub uncommitted: Option<Vec<(String, Option<crate::git::Oid>)>>,
    pub cache: Cache,
    /// Why the cache was discarded, if it was (logged, not shown).
    pub cache_warning: Option<String>,
    /// Identifies the configuration and tool version this run used.
    pub fingerprint: String,
    /// What decides how imports resolve (manifests), read this run or reused from the last. When
    /// it differs from the one the cache's imports were resolved with, the cache is set aside and
    /// every file is read again.
    pub model: ProjectModel,
}

/// The plan, or the news that nothing can have changed.
pub enum Planned {
    UpToDate,
    Work(Box<Plan>),
}

/// Plan the update of `ws`.
pub fn plan(ws: &Workspace, options: &UpdateOptions) -> anyhow::Result<Planned> {
    let project = ws.project();
    let fingerprint = config_fingerprint(project);
    let repo = ws.repo()?;
    let git_sees_files = repo.is_some_and(|repo| git_sees_the_walks_files(ws, repo));
    let git_sees_everything = git_sees_files
        && repo.is_some_and(|repo| repo.is_tracked(&format!("{LIBRARY_DIR}/{CONFIG_FILE}")));
    let fast_path_possible = git_sees_everything
        && ws.processed().is_some_and(|processed| {
            processed.fingerprint == fingerprint
                && repo.is_some_and(|repo| {
                    let commit = &processed.commit;
                    (processed.clean && same_tree_as_head(ws, repo, commit))
                        || (processed.library_written && only_the_library_written(ws, repo, commit))
                })
        })
        && ws.state().cache_path().is_file();
    let full_status_wanted = project.config.ignore.use_gitignore
        && options.paths.is_empty()
        && ((git_sees_everything && fast_path_possible)
            || (git_sees_files && !options.changed_only));
    let cache_path = ws.state().cache_path();
    std::thread::scope(|threads| -> anyhow::Result<Planned> {
        // On the fast path the cache is not needed at all: only load it when that is ruled out.
        let loading = (!fast_path_possible).then(|| threads.spawn(|| Cache::load(&cache_path)));
        // A full run walks the tree while git reads its status (which only decides the fast path
        // and the renames): the two overlap.
        let scope = ws.scope()?;
        let walking = (!fast_path_possible && !options.changed_only)
            .then(|| threads.spawn(|| walked_universe(project, scope, &options.paths)));
        let dirty = match repo.filter(|_| full_status_wanted) {
            Some(repo) => Some(
                repo.dirty()
                    .context("cannot read the working tree status")?,
            ),
            None => None,
        };
        let clean_tree = dirty.as_ref().is_some_and(Vec::is_empty);
        if fast_path_possible && clean_tree {
            if options.writes() {
                advance_processed(ws);
            }
            return Ok(Planned::UpToDate);
        }
        let uncommitted = match (dirty.as_deref(), repo) {
            (Some(dirty), Some(repo)) if options.writes() => {
                uncommitted_blobs(ws.project(), repo, dirty)
            }
            _ => None,
        };
        let loading = loading.unwrap_or_else(|| threads.spawn(|| Cache::load(&cache_path)));
        let walked = walking.map(|walking| {
            walking
                .join()
                .unwrap_or_else(|_| Err(anyhow::anyhow!("the walk of the project failed")))
        });
        let (mode, mut universe, mut warnings, model) =
            universe(ws, options, dirty.as_deref(), walked)?;
        universe.conflicts = conflicts(ws, repo);
        let (mut cache, mut cache_warning) = loading.join().unwrap_or_else(|_| {
            (
                Cache::default(),
                Some("the cache could not be loaded".to_string()),
            )
        });
        let (model, model_changed) = match model {
            Model::Reused(model) => (model, false),
            Model::Built(model, model_warnings) => {
                warnings.extend(model_warnings);
                let changed = ws.state().read().model.as_deref() != Some(&model.fingerprint());
                (model, changed)
            }
        };
        if model_changed && !cache.entries.is_empty() {
            // Imports resolved under another model may resolve differently now: look again.
            cache_warning = Some("the project model changed; every file is read again".into());
            cache = Cache::default();
        }
        Ok(Planned::Work(Box::new(Plan {
            mode,
            universe,
            warnings,
            clean_tree,
            uncommitted,
            cache,
            cache_warning,
            fingerprint,
            model,
        })))
    })
}

/// Whether HEAD is the last processed commit, or a commit with the very same tree (an empty commit,
/// a commit that was reverted, a `git commit --amend` of the message): then nothing in the tree can
/// differ from what the last update saw, and the no-op fast path holds after a new commit too.
fn same_tree_as_head(ws: &Workspace, repo: &GitRepo, processed: &crate::git::Oid) -> bool {
    match ws.head() {
        Some(head) if head == processed => true,
        Some(head) => repo.same_tree(processed, head),
        None => false,
    }
}

/// The blob each path of `dirty` holds in the working tree now (`None`: it is gone), as git would
/// commit it; `None` when one cannot be read (a symlink, a file that vanished meanwhile). The
/// project is the whole worktree here, so repository and project paths are the same.
fn uncommitted_blobs(
    project: &Project,
    repo: &GitRepo,
    dirty: &[Change],
) -> Option<Vec<(String, Option<crate::git::Oid>)>> {
    let mut out = Vec::with_capacity(dirty.len());
    let mut blob_of = |path: &str| -> Option<()> {
        let blob = match project.read(path) {
            Ok(bytes) => Some(repo.blob_id(&bytes).ok()?),
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
            Err(_) => return None,
        };
        out.push((path.to_string(), blob));
        Some(())
    };
    for change in dirty {
        if let Change::Renamed { from, .. } = change {
            blob_of(from)?;
        }
        blob_of(change.path())?;
    }
    Some(out)
}

/// Whether the commits since `processed` changed nothing but library files, each to exactly the
/// text an update wrote since (`workspace::library_writes`): the library an update left was
/// committed as it was, so nothing in the tree differs from what that update saw.
fn only_the_library_written(ws: &Workspace, repo: &GitRepo, processed: &crate::git::Oid) -> bool {
    let Some(head) = ws.head().filter(|head| *head != processed) else {
        return false;
    };
    let Ok(changes) = repo.changed_blobs(processed, head) else {
        return false;
    };
    let writes = LibraryWrites::load(&ws.state().library_writes_path());
    !writes.0.is_empty() && writes.explains(&changes)
}

/// After a no-op at a new commit with the processed tree (or with the library an update wrote
/// committed since): remember HEAD as processed, the library current for it, so that the next
/// `--changed-only` diffs from here. Best effort: a read-only state only costs that diff.
fn advance_processed(ws: &Workspace) {
    let (Some(head), Some(processed)) = (ws.head(), ws.processed()) else {
        return;
    };
    if *head != processed.commit || processed.library_written {
        let _ = ws.state().edit(|recorded| {
            if let Some(processed) = recorded.processed.as_mut() {
                processed.commit = *head;
                processed.clean = true;
                processed.library_written = false;
            }
        });
        let _ = std::fs::remove_file(ws.state().library_writes_path());
    }
}

/// Git's conflicted paths (index stage > 0) inside the project, as project-relative paths; outside
/// git, the text scan.
fn conflicts(ws: &Workspace, repo: Option<&GitRepo>) -> Conflicts {
    match (repo, ws.prefix()) {
        (Some(repo), Some(prefix)) => Conflicts::Git(
            repo.conflicted_paths()
                .iter()
                .filter_map(|path| project_path(prefix, path))
                .collect(),
        ),
        _ => Conflicts::Text,
    }
}

/// Whether git sees the files the walk sees: the project is the whole worktree and no personal
/// excludes hide files from git (the walk ignores them, for output that is the same on every
/// machine). Only then — and with the library itself tracked, so that hand edits to it show in the
/// status — may git's status stand for the walk (the no-op fast path); a full run reads git's
/// status whenever it sees the files, to record the uncommitted tree its library is for.
fn git_sees_the_walks_files(ws: &Workspace, repo: &GitRepo) -> bool {
    ws.prefix().is_some_and(str::is_empty) && !repo.has_global_excludes()
}

/// Where the project model came from.
enum Model {
    /// The last run's, unchanged since (a `--changed-only` run that touched no manifest).
    Reused(ProjectModel),
    /// Read from the manifests now, with the warnings reading them gave.
    Built(ProjectModel, Vec<String>),
}

/// The files to look at, from git's changes (`--changed-only`) or from a walk (`walked`, when it
/// was made already), and the model.
fn universe(
    ws: &Workspace,
    options: &UpdateOptions,
    dirty: Option<&[Change]>,
    walked: Option<anyhow::Result<(Universe, Vec<String>)>>,
) -> anyhow::Result<(Mode, Universe, Vec<String>, Model)> {
    if let Some((universe, model)) = changed_universe(ws, options, dirty)? {
        return Ok((
            Mode::ChangedOnly,
            universe,
            Vec::new(),
            Model::Reused(model),
        ));
    }
    let mode = if options.paths.is_empty() {
        Mode::Full
    } else {
        Mode::Paths
    };
    let (mut universe, warnings) = match walked {
        Some(walked) => walked?,
        None => walked_universe(ws.project(), ws.scope()?, &options.paths)?,
    };
    universe.add_absent(ws.absent());
    if let Some(repo) = ws.repo()? {
        universe.renames = git_renames(ws, repo, dirty);
    }
    let files = FileIndex::new(universe.all_files.iter().cloned());
    let project = ws.project();
    let read = |rel: &str| project.read_to_string(rel).ok();
    let (model, model_warnings) = ProjectModel::build(&files, &read);
    Ok((
        mode,
        universe,
        warnings,
        Model::Built(model, model_warnings),
    ))
}

/// The last run's project model, if one was saved and reads back.
pub fn saved_model(ws: &Workspace) -> Option<ProjectModel> {
    let bytes = std::fs::read(ws.state().model_path()).ok()?;
    serde_json::from_slice(&bytes).ok()
}

/// Identifies the effective configuration, the tool version and the cache's format: a change to any
/// invalidates the no-op fast path (a cache of another format must be rebuilt, not kept).
fn config_fingerprint(project: &Project) -> String {
    let config = serde_json::to_string(&project.config).unwrap_or_default();
    let version = env!("CARGO_PKG_VERSION");
    let text = format!("{version}\n{}\n{config}", crate::workspace::cache::FORMAT);
    crate::hash::sha256_hex(text.as_bytes())
}

/// The full (or path-restricted) universe from a walk of the whole tree. A symlinked `.lexignore`
/// stops the update before anything is written (the walk did not read it, so it is incomplete).
fn walked_universe(
    project: &Project,
    scope: &Scope,
    paths: &[String],
) -> anyhow::Result<(Universe, Vec<String>)> {
    let walk = walk::walk_project(&project.root, &project.config);
    if !walk.refused.is_empty() {
        anyhow::bail!(
            "{}; nothing was written",
            walk::refusal_message(&walk.refused)
        );
    }
    let mut universe = Universe::empty(true);
    let mut all_dirs = BTreeSet::from([String::new()]);
    for entry in &walk.entries {
        let parent = RelPath::new(&entry.rel).dir().to_string();
        universe
            .children
            .entry(parent)
            .or_default()
            .push((RelPath::new(&entry.rel).file_name().to_string(), entry.kind));
        match entry.kind {
            EntryKind::File => {
                universe.all_files.insert(entry.rel.clone());
                if path_selected(&entry.rel, paths) {
                    universe.files.insert(entry.rel.clone(), stat_of(entry));
                }
            }
            EntryKind::Dir => {
                all_dirs.insert(entry.rel.clone());
            }
        }
    }
    universe.dirs = all_dirs
        .into_iter()
        .filter(|dir| scope.indexes(dir) && dir_selected(dir, paths))
        .collect();
    Ok((universe, walk.warnings))
}

/// Whether directory `dir` is on the way to, at, or below one of `paths` (all when none are given).
fn dir_selected(dir: &str, paths: &[String]) -> bool {
    paths.is_empty()
        || paths.iter().any(|p| {
            dir == *p
                || dir.starts_with(&format!("{p}/"))
                || p.starts_with(&format!("{dir}/"))
                || dir.is_empty()
        })
}

/// Whether file `rel` is one of `paths` or below one (all when none are given).
pub fn path_selected(rel: &str, paths: &[String]) -> bool {
    paths.is_empty() || paths.iter().any(|p| RelPath::new(rel).starts_with(p))
}

/// With `--changed-only` in git: the files changed since the last processed commit (inside the
/// submodules whose gitlink moved too, when their files are in scope) plus the dirty ones, and the
/// last run's model. `None` means "do a full update instead" (first run, unknown last commit,
/// outside git, or a manifest changed so the model must be read again).
fn changed_universe(
    ws: &Workspace,
    options: &UpdateOptions,
    dirty: Option<&[Change]>,
) -> anyhow::Result<Option<(Universe, ProjectModel)>> {
    if !options.changed_only || !options.paths.is_empty() {
        return Ok(None);
    }
    let Some(repo) = ws.repo()? else {
        return Ok(None);
    };
    let (Some(last), Some(head)) = (ws.processed().map(|p| p.commit), ws.head()) else {
        return Ok(None);
    };
    if !ws.state().cache_path().is_file() || !repo.has_commit(&last) {
        ws.state()
            .log("changed-only: no usable previous run; doing a full update");
        return Ok(None);
    }
    let Some(prefix) = ws.prefix() else {
        return Ok(None);
    };
    let root = &ws.project().root;
    let strip = |path: &str| strip_to_source(root, prefix, path);
    let mut touched = Touched::default();
    if last != *head {
        for change in repo.diff_commits(Some(&last), head)? {
            touched.add(change, &strip, false);
        }
        // A submodule bump names no file of the submodule: look inside (`submodules`).
        let links = repo.gitlinks_changed();
        if !links.is_empty() {
            let to_project = |path: &str| project_path(prefix, path);
            let inside = super::submodules::touched(ws.project(), ws.scope()?, &links, &to_project);
            touched.paths.extend(inside);
        }
    }
    // Tracked files only, and not the library's own files (the update rewrites those itself):
    // untracked files are documented once committed, or by a full update. This keeps the
    // post-commit hook's run to about half of a `git status`.
    let library = format!("{}/", RelPath::new(prefix).join(LIBRARY_DIR));
    let dirty = match dirty {
        // A full status read for the fast path says the same, once untracked files and the
        // library's are set aside: what this run looks at never depends on which status it read.
        Some(dirty) => dirty
            .iter()
            .filter(|change| !change.path().starts_with(&library))
            .filter(|change| !matches!(change, Change::Added(path) if !repo.is_tracked(path)))
            .cloned()
            .collect(),
        None => repo.tracked_changes_outside(&library)?,
    };
    // What was dirty last time may have been reverted since: look at it again.
    touched.paths.extend(ws.state().read().pending);
    for change in dirty {
        touched.add(change, &strip, true);
    }
    let reshaped = touched.paths.iter().filter(|path| is_manifest(path));
    let appeared_or_vanished = touched.existence.iter().filter(|path| shapes_model(path));
    if let Some(input) = reshaped.chain(appeared_or_vanished).next() {
        ws.state().log(&format!(
            "changed-only: {input} decides how imports resolve; doing a full update"
        ));
        return Ok(None);
    }
    let Some(model) = saved_model(ws) else {
        return Ok(None);
    };
    let mut universe = Universe::empty(false);
    universe.renames = touched.renames;
    universe.dirty_paths = touched.dirty.into_iter().collect();
    // A commit pulled in may change a file outside a sparse checkout: not ours to read here.
    let absent = ws.absent();
    touched.paths.retain(|path| !absent.has_file(path));
    list_touched(ws.project(), ws.scope()?, &touched.paths, &mut universe)?;
    universe.add_absent(absent);
    Ok(Some((universe, model)))
}

/// Paths a change list touched, project-relative.
#[derive(Default)]
struct Touched {
    paths: BTreeSet<String>,
    renames: Vec<(String, String)>,
    /// The uncommitted ones.
    dirty: BTreeSet<String>,
    /// Those added, deleted or renamed (not only modified).
    existence: BTreeSet<String>,
}

impl Touched {
    fn add(&mut self, change: Change, strip: &dyn Fn(&str) -> Option<String>, dirty: bool) {
        if dirty {
            self.dirty.extend(strip(change.path()));
            if let Change::Renamed { from, .. } = &change {
                self.dirty.extend(strip(from));
            }
        }
        match change {
            Change::Modified(p) => self.paths.extend(strip(&p)),
            Change::Added(p) | Change::Deleted(p) => {
                self.existence.extend(strip(&p));
                self.paths.extend(strip(&p));
            }
            Change::Renamed { from, to } => {
                if let (Some(from), Some(to)) = (strip(&from), strip(&to)) {
                    self.renames.push((from.clone(), to.clone()));
                    self.existence.insert(from.clone());
                    self.existence.insert(to.clone());
                    self.paths.insert(from);
                    self.paths.insert(to);
                }
            }
        }
    }
}

/// Fill `universe` from the touched paths: each one's stat (or its absence), the directories to
/// index on the way to it, and those directories' listings (all read in one walk).
fn list_touched(
    project: &Project,
    scope: &Scope,
    touched: &BTreeSet<String>,
    universe: &mut Universe,
) -> anyhow::Result<()> {
    for path in touched {
        for dir in ancestors_rel(path) {
            if scope.indexes(dir) {
                universe.dirs.insert(dir.to_string());
            }
        }
    }
    let wanted = touched
        .iter()
        .map(|path| RelPath::new(path).dir())
        .chain(universe.dirs.iter().map(String::as_str));
    let listings = Listings::read(project, wanted);
    for path in touched {
        match listings.of(RelPath::new(path).dir()).get(path) {
            Some(entry) if entry.kind == EntryKind::File => {
                universe.files.insert(path.clone(), stat_of(entry));
            }
            _ => {
                universe.gone.insert(path.clone());
            }
        }
    }
    for dir in universe.dirs.clone() {
        let children = listings
            .of(&dir)
            .values()
            .map(|entry| (RelPath::new(&entry.rel).file_name().to_string(), entry.kind))
            .collect();
        universe.children.insert(dir, children);
    }
    // A directory that no longer exists, or holds no file any more, loses its index (as in a full
    // walk: git keeps no empty directory).
    universe
        .dirs
        .retain(|dir| dir.is_empty() || !listings.of(dir).is_empty());
    if !listings.refused.is_empty() {
        let refused: Vec<String> = listings.refused.into_iter().collect();
        anyhow::bail!("{}; nothing was written", walk::refusal_message(&refused));
    }
    Ok(())
}

/// Directory listings (through the ignore layers), all read in one walk, and the symlinked
/// `.lexignore` files that make any of them incomplete.
struct Listings {
    listed: HashMap<String, BTreeMap<String, walk::Entry>>,
    refused: BTreeSet<String>,
    empty: BTreeMap<String, walk::Entry>,
}

impl Listings {
    fn read<'a>(project: &Project, dirs: impl Iterator<Item = &'a str>) -> Listings {
        let dirs: BTreeSet<&str> = dirs.collect();
        let mut walked = walk::list_dirs(&project.root, &project.config, dirs.iter().copied());
        let refused = dirs
            .iter()
            .flat_map(|dir| walked.refused_for(dir))
            .collect();
        let listed = std::mem::take(&mut walked.children)
            .into_iter()
            .map(|(dir, entries)| {
                let entries = entries
                    .into_iter()
                    .map(|entry| (entry.rel.clone(), entry))
                    .collect();
                (dir, entries)
            })
            .collect();
        Listings {
            listed,
            refused,
            empty: BTreeMap::new(),
        }
    }

    fn of(&self, dir: &str) -> &BTreeMap<String, walk::Entry> {
        self.listed.get(dir).unwrap_or(&self.empty)
    }
}

fn stat_of(entry: &walk::Entry) -> Stat {
    Stat {
        size: entry.size,
        mtime_ns: entry.mtime_ns,
    }
}

/// A repository path as a project-relative source path: `None` outside the project, inside
/// `.git/` or the library — except that a design file an agent edited stands for its source (a
/// shortened design file name is resolved in the project at `root`).
fn strip_to_source(root: &std::path::Path, prefix: &str, path: &str) -> Option<String> {
    let rel = if prefix.is_empty() {
        Some(path)
    } else {
        path.strip_prefix(&format!("{prefix}/"))
    }?;
    if source_for_design(rel).is_some() {
        return resolve_source(root, rel);
    }
    let top = rel.split('/').next().unwrap_or("");
    (top != LIBRARY_DIR && top != ".git").then(|| rel.to_string())
}

/// A repository path as a project-relative one (`None` outside the project).
fn project_path(prefix: &str, path: &str) -> Option<String> {
    match prefix {
        "" => Some(path.to_string()),
        prefix => path.strip_prefix(&format!("{prefix}/")).map(str::to_string),
    }
}

/// Renames git knows of since the last processed commit (committed, and staged in the working
/// tree), as project-relative (from, to) pairs. Best effort: an unknown last commit gives none.
fn git_renames(ws: &Workspace, repo: &GitRepo, dirty: Option<&[Change]>) -> Vec<(String, String)> {
    let Some(prefix) = ws.prefix() else {
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
    if let (Some(last), Some(head)) = (ws.processed().map(|p| p.commit), ws.head()) {
        if last != *head && repo.has_commit(&last) {
            for change in repo.diff_commits(Some(&last), head).unwrap_or_default() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_select_files_and_the_directories_around_them() {
        let paths = vec!["src/auth".to_string()];
        assert!(path_selected("src/auth/login.rs", &paths));
        assert!(!path_selected("src/authx.rs", &paths));
        assert!(path_selected("anything", &[]));
        assert!(dir_selected("src", &paths));
        assert!(dir_selected("src/auth/deep", &paths));
        assert!(dir_selected("", &paths));
        assert!(!dir_selected("lib", &paths));
    }

    #[test]
    fn repository_paths_map_to_sources() {
        let root = std::path::Path::new("/nonexistent");
        assert_eq!(
            strip_to_source(root, "", "src/a.rs").as_deref(),
            Some("src/a.rs")
        );
        assert_eq!(
            strip_to_source(root, "", ".lexibrary/src/a.rs.md").as_deref(),
            Some("src/a.rs")
        );
        assert_eq!(strip_to_source(root, "", ".lexibrary/src/.aindex"), None);
        assert_eq!(strip_to_source(root, "app", "other/x.rs"), None);
        assert_eq!(
            strip_to_source(root, "app", "app/src/x.rs").as_deref(),
            Some("src/x.rs")
        );
    }
}
