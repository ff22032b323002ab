//! Stage 1, **plan**: which files this update looks at — nothing at all when git shows the tree is
//! exactly as the last update left it (the no-op fast path), what changed since the last processed
//! commit plus what is dirty (`--changed-only`), or every file a walk finds (full, or the paths
//! given). The stat/hash cache loads on a second thread meanwhile.

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

use anyhow::Context as _;

use super::report::Mode;
use super::UpdateOptions;
use crate::git::{Change, GitRepo};
use crate::project::mirror::source_for_design;
use crate::project::paths::{ancestors_rel, parent_rel};
use crate::project::scope::Scope;
use crate::project::walk::{self, EntryKind};
use crate::project::{Project, CONFIG_FILE, LIBRARY_DIR};
use crate::workspace::cache::{Cache, Stat};
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

    /// An empty, complete universe (for the stages' unit tests).
    #[cfg(test)]
    pub fn for_tests() -> Universe {
        Universe::empty(true)
    }

    /// Whether `rel` is a file of the project as far as this run knows.
    pub fn exists(&self, project: &Project, rel: &str) -> bool {
        self.files.contains_key(rel)
            || self.all_files.contains(rel)
            || (!self.complete && project.abs(rel).is_file())
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
    pub cache: Cache,
    /// Why the cache was discarded, if it was (logged, not shown).
    pub cache_warning: Option<String>,
    /// Identifies the configuration and tool version this run used.
    pub fingerprint: String,
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
    let git_sees_everything = repo.is_some_and(|repo| git_sees_what_the_walk_sees(ws, repo));
    let fast_path_possible = git_sees_everything
        && ws.processed().is_some_and(|processed| {
            processed.clean
                && Some(&processed.commit) == ws.head()
                && processed.fingerprint == fingerprint
        })
        && ws.state().cache_path().is_file();
    let full_status_wanted = project.config.ignore.use_gitignore
        && git_sees_everything
        && options.paths.is_empty()
        && (fast_path_possible || !options.changed_only);
    let cache_path = ws.state().cache_path();
    std::thread::scope(|threads| -> anyhow::Result<Planned> {
        // On the fast path the cache is not needed at all: only load it when that is ruled out.
        let loading = (!fast_path_possible).then(|| threads.spawn(|| Cache::load(&cache_path)));
        let dirty = match repo.filter(|_| full_status_wanted) {
            Some(repo) => Some(
                repo.dirty()
                    .context("cannot read the working tree status")?,
            ),
            None => None,
        };
        let clean_tree = dirty.as_ref().is_some_and(Vec::is_empty);
        if fast_path_possible && clean_tree {
            return Ok(Planned::UpToDate);
        }
        let loading = loading.unwrap_or_else(|| threads.spawn(|| Cache::load(&cache_path)));
        let (mode, universe, warnings) = universe(ws, options, dirty.as_deref())?;
        let (cache, cache_warning) = loading.join().unwrap_or_else(|_| {
            (
                Cache::default(),
                Some("the cache could not be loaded".to_string()),
            )
        });
        Ok(Planned::Work(Box::new(Plan {
            mode,
            universe,
            warnings,
            clean_tree,
            cache,
            cache_warning,
            fingerprint,
        })))
    })
}

/// Only when git sees exactly what the walk sees may git's status stand for the walk: the project
/// is the whole worktree, no personal excludes hide files from git (the walk ignores them, for
/// output that is the same on every machine), and the library itself is tracked (so hand edits to
/// it show in the status).
fn git_sees_what_the_walk_sees(ws: &Workspace, repo: &GitRepo) -> bool {
    ws.prefix().is_some_and(str::is_empty)
        && !repo.has_global_excludes()
        && repo.is_tracked(&format!("{LIBRARY_DIR}/{CONFIG_FILE}"))
}

/// The files to look at, from git's changes (`--changed-only`) or from a walk.
fn universe(
    ws: &Workspace,
    options: &UpdateOptions,
    dirty: Option<&[Change]>,
) -> anyhow::Result<(Mode, Universe, Vec<String>)> {
    if let Some(universe) = changed_universe(ws, options, dirty)? {
        return Ok((Mode::ChangedOnly, universe, Vec::new()));
    }
    let mode = if options.paths.is_empty() {
        Mode::Full
    } else {
        Mode::Paths
    };
    let (mut universe, warnings) = walked_universe(ws.project(), ws.scope()?, &options.paths);
    if let Some(repo) = ws.repo()? {
        universe.renames = git_renames(ws, repo, dirty);
    }
    Ok((mode, universe, warnings))
}

/// Identifies the effective configuration and tool version: a change to either invalidates the
/// no-op fast path.
fn config_fingerprint(project: &Project) -> String {
    let config = serde_json::to_string(&project.config).unwrap_or_default();
    crate::hash::sha256_hex(format!("{}\n{config}", env!("CARGO_PKG_VERSION")).as_bytes())
}

/// The full (or path-restricted) universe from a walk of the whole tree.
fn walked_universe(project: &Project, scope: &Scope, paths: &[String]) -> (Universe, Vec<String>) {
    let walk = walk::walk_project(&project.root, &project.config);
    let mut universe = Universe::empty(true);
    let mut all_dirs = BTreeSet::from([String::new()]);
    for entry in &walk.entries {
        let parent = parent_rel(&entry.rel).to_string();
        universe
            .children
            .entry(parent)
            .or_default()
            .push((file_name(&entry.rel).to_string(), entry.kind));
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
    (universe, walk.warnings)
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
    paths.is_empty()
        || paths
            .iter()
            .any(|p| p.is_empty() || rel == p || rel.starts_with(&format!("{p}/")))
}

/// With `--changed-only` in git: the files changed since the last processed commit (inside the
/// submodules whose gitlink moved too, when their files are in scope) plus the dirty ones. `None`
/// means "do a full update instead" (first run, unknown last commit, outside git).
fn changed_universe(
    ws: &Workspace,
    options: &UpdateOptions,
    dirty: Option<&[Change]>,
) -> anyhow::Result<Option<Universe>> {
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
    let strip = |path: &str| strip_to_source(prefix, path);
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
    let dirty = match dirty {
        Some(dirty) => dirty.to_vec(),
        None => repo.tracked_changes_outside(&repo_path(prefix, LIBRARY_DIR))?,
    };
    // What was dirty last time may have been reverted since: look at it again.
    touched.paths.extend(ws.state().read().pending);
    for change in dirty {
        touched.add(change, &strip, true);
    }
    let mut universe = Universe::empty(false);
    universe.renames = touched.renames;
    universe.dirty_paths = touched.dirty.into_iter().collect();
    list_touched(ws.project(), ws.scope()?, &touched.paths, &mut universe);
    Ok(Some(universe))
}

/// Paths a change list touched, project-relative.
#[derive(Default)]
struct Touched {
    paths: BTreeSet<String>,
    renames: Vec<(String, String)>,
    /// The uncommitted ones.
    dirty: BTreeSet<String>,
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
            Change::Added(p) | Change::Modified(p) | Change::Deleted(p) => {
                self.paths.extend(strip(&p))
            }
            Change::Renamed { from, to } => {
                if let (Some(from), Some(to)) = (strip(&from), strip(&to)) {
                    self.renames.push((from.clone(), to.clone()));
                    self.paths.insert(from);
                    self.paths.insert(to);
                }
            }
        }
    }
}

/// Fill `universe` from the touched paths: each one's stat (or its absence), the directories to
/// index on the way to it, and those directories' listings.
fn list_touched(
    project: &Project,
    scope: &Scope,
    touched: &BTreeSet<String>,
    universe: &mut Universe,
) {
    let mut listings = Listings::default();
    for path in touched {
        for dir in ancestors_rel(path) {
            if scope.indexes(dir) {
                universe.dirs.insert(dir.to_string());
            }
        }
        match listings.of(project, parent_rel(path)).get(path) {
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
            .of(project, &dir)
            .values()
            .map(|entry| (file_name(&entry.rel).to_string(), entry.kind))
            .collect();
        universe.children.insert(dir, children);
    }
    // A directory that no longer exists loses its index.
    universe
        .dirs
        .retain(|dir| dir.is_empty() || project.abs(dir).is_dir());
}

/// Directory listings (through the ignore layers), each read once.
#[derive(Default)]
struct Listings(HashMap<String, BTreeMap<String, walk::Entry>>);

impl Listings {
    fn of(&mut self, project: &Project, dir: &str) -> &BTreeMap<String, walk::Entry> {
        self.0.entry(dir.to_string()).or_insert_with(|| {
            walk::list_dir(&project.root, &project.config, dir)
                .entries
                .into_iter()
                .map(|entry| (entry.rel.clone(), entry))
                .collect()
        })
    }
}

fn stat_of(entry: &walk::Entry) -> Stat {
    Stat {
        size: entry.size,
        mtime_ns: entry.mtime_ns,
    }
}

/// A repository path as a project-relative source path: `None` outside the project, inside
/// `.git/` or the library — except that a design file an agent edited stands for its source.
fn strip_to_source(prefix: &str, path: &str) -> Option<String> {
    let rel = if prefix.is_empty() {
        Some(path)
    } else {
        path.strip_prefix(&format!("{prefix}/"))
    }?;
    if let Some(source) = source_for_design(rel) {
        return Some(source.to_string());
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

/// `rel` (project-relative) as a repository path.
fn repo_path(prefix: &str, rel: &str) -> String {
    if prefix.is_empty() {
        rel.to_string()
    } else {
        format!("{prefix}/{rel}")
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

/// The last component of a `/`-separated path.
fn file_name(rel: &str) -> &str {
    rel.rsplit('/').next().unwrap_or(rel)
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
        assert_eq!(strip_to_source("", "src/a.rs").as_deref(), Some("src/a.rs"));
        assert_eq!(
            strip_to_source("", ".lexibrary/src/a.rs.md").as_deref(),
            Some("src/a.rs")
        );
        assert_eq!(strip_to_source("", ".lexibrary/src/.aindex"), None);
        assert_eq!(strip_to_source("app", "other/x.rs"), None);
        assert_eq!(
            strip_to_source("app", "app/src/x.rs").as_deref(),
            Some("src/x.rs")
        );
    }
}
