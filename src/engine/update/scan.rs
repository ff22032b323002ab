//! Stage 2, **scan**: every file of the plan, classified in parallel. A file in scope gets a
//! [`Scanned`] (its change level); a file that is only listed in `.aindex` (out of scope, binary,
//! too large) gets a cache entry with its Child Map description. Design files whose source is gone
//! become orphans — or, when a new file has the same content or git saw a rename, the new file's.
//! In a `--changed-only` run, files whose Dependents move with a changed import are scanned too.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;

use super::dependents::{is_helper_candidate, HELPER_HOPS};
use super::plan::{path_selected, Plan, Universe};
use super::scanned::{self, ChangeLevel, Existing, ScanContext, Scanned};
use super::Progress;
use crate::library::design_file::DesignFile;
use crate::project::mapping::Strategy;
use crate::project::mirror::{design_name, design_path};
use crate::project::scope::Scope;
use crate::project::walk::{self, FileClass};
use crate::project::Project;
use crate::relpath::RelPath;
use crate::source::Language;
use crate::workspace::cache::{self, Cache, Stat};
use crate::workspace::library::{self, Kind, Part};

/// What the scan found.
pub struct Scan {
    /// Files in scope, by path.
    pub files: BTreeMap<String, Scanned>,
    /// Cache entries of the files only listed in `.aindex` (no design file).
    pub listed: BTreeMap<String, cache::Entry>,
    /// Sources that had a design file and are gone (or out of scope) — moved ones included.
    pub orphans: BTreeSet<String>,
    /// Renames: new path → old path.
    pub moves: BTreeMap<String, String>,
    /// The design files' stats as found (before this run writes anything).
    pub design_stats: HashMap<String, Stat>,
    /// How many cache entries were recomputed although their file's stat did not change (so the
    /// cache is saved even when nothing else moved).
    pub recomputed: usize,
}

/// Scan the plan's files.
pub fn run(
    project: &Project,
    scope: &Scope,
    plan: &Plan,
    paths: &[String],
    progress: &dyn Progress,
) -> Scan {
    let universe = &plan.universe;
    let cache = &plan.cache;
    let exists = |rel: &str| universe.exists(project, rel);
    let ctx = ScanContext {
        project,
        cache,
        exists: &exists,
        conflicts: &universe.conflicts,
    };
    let documented: Vec<(&String, &Stat)> = universe
        .files
        .iter()
        .filter(|(rel, _)| scope.documents(rel))
        .collect();
    let design_stats = design_file_stats(project, documented.iter().map(|(rel, _)| rel.as_str()));
    let recomputed = AtomicUsize::new(0);
    progress.phase("scanning", documented.len());
    let examined: Vec<Examined> = documented
        .par_iter()
        .map(|(rel, stat)| {
            let design_stat = design_stats.get(rel.as_str()).copied();
            let outcome = examine(&ctx, rel, **stat, design_stat, &recomputed);
            progress.advance();
            outcome
        })
        .collect();
    let mut scan = Scan {
        files: BTreeMap::new(),
        listed: BTreeMap::new(),
        orphans: BTreeSet::new(),
        moves: BTreeMap::new(),
        design_stats,
        recomputed: 0,
    };
    for outcome in examined {
        match outcome {
            Examined::Documented(mut item) => {
                set_budget(project, scope, &mut item);
                scan.files.insert(item.source.clone(), *item);
            }
            Examined::Listed(rel, entry) => {
                scan.listed.insert(rel, *entry);
            }
        }
    }
    // Files in the tree but not documented (out of scope, binary, too large): cache their descriptions.
    for (rel, stat) in &universe.files {
        if !scan.files.contains_key(rel) && !scan.listed.contains_key(rel) {
            let grouped = scope.groups(rel);
            let entry = listed_entry(project, cache, (rel, *stat), grouped, &recomputed);
            scan.listed.insert(rel.clone(), entry);
        }
    }
    // Code outside the scope roots (and grouped code: fixtures, samples) is read for its imports:
    // test helpers and shared fixtures link the tests to what they test.
    let referenced: Vec<(&String, &Stat)> = universe
        .files
        .iter()
        .filter(|(rel, stat)| !scope.documents(rel) && is_referenced(project, rel, stat))
        .collect();
    let referenced: Vec<Scanned> = referenced
        .par_iter()
        .map(|(rel, stat)| scanned::scan_referenced(project, cache, rel, **stat, &exists))
        .collect();
    for scanned in referenced {
        scan.files.insert(scanned.source.clone(), scanned);
    }
    scan.orphans = orphans(project, universe, cache, &scan.files, paths);
    scan.moves = resolve_orphans(project, &scan.orphans, &universe.renames, &mut scan.files);
    scan.recomputed = recomputed.load(Ordering::Relaxed);
    scan
}

/// The mapping strategy's part of a documented file: `abridged`, and the token budget its design
/// file keeps within — the same wherever the file was scanned (the walk, an importer pulled in, a
/// Dependents refresh of `--changed-only`).
pub fn set_budget(project: &Project, scope: &Scope, scanned: &mut Scanned) {
    scanned.abridged = scope.strategy(&scanned.source) == Strategy::Abridged;
    let budgets = &project.config.token_budgets;
    scanned.budget_tokens = match scanned.abridged {
        true => budgets.design_file_abridged_tokens as usize,
        false => budgets.design_file_tokens as usize,
    };
}

/// What a grouped file says about itself, as the structural Archivist would describe it (redacted
/// like everything written into the library).
fn member_description(project: &Project, rel: &str) -> Option<String> {
    let text = project.read_to_string(rel).ok()?;
    let language = Language::from_path(std::path::Path::new(rel))
        .filter(|language| language.enabled_in(&project.config));
    let interface = language.and_then(|language| crate::source::extract(language, &text).ok());
    let input = crate::archivist::ArchivistInput::of_file(rel, &text, language, interface.as_ref());
    let description = crate::archivist::describe::description(&input);
    Some(crate::secrets::redact(&description).into_owned())
}

/// Whether `rel` is code the scan reads for its imports although it gets no design file (out of
/// scope, or grouped): a file in a language whose imports are resolved, outside dot-directories,
/// within `crawl.max_file_size_kb`. Test files, test helpers (`test-helpers/`, `tests/support/`)
/// and shared fixtures so link the tests to the code they reach.
fn is_referenced(project: &Project, rel: &str, stat: &Stat) -> bool {
    !rel.split('/').any(|part| part.starts_with('.'))
        && stat.size <= project.config.crawl.max_file_size_kb.saturating_mul(1024)
        && Language::from_path(std::path::Path::new(rel))
            .is_some_and(|language| language.enabled_in(&project.config))
}

enum Examined {
    Documented(Box<Scanned>),
    Listed(String, Box<cache::Entry>),
}

/// The current stat of every existing design file of `sources`, read one mirror directory at a time:
/// `read_dir` plus `fstatat` relative to the directory is far cheaper than a full path lookup per file.
fn design_file_stats<'a>(
    project: &Project,
    sources: impl Iterator<Item = &'a str>,
) -> HashMap<String, Stat> {
    let mut by_dir: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for rel in sources {
        by_dir.entry(RelPath::new(rel).dir()).or_default().push(rel);
    }
    let groups: Vec<(&str, Vec<&str>)> = by_dir.into_iter().collect();
    groups
        .par_iter()
        .flat_map_iter(|(dir, rels)| {
            let found = mirror_dir_stats(project, dir);
            rels.iter()
                .filter_map(|rel| {
                    let name = design_name(RelPath::new(rel).file_name());
                    found
                        .get(name.as_ref())
                        .map(|stat| (rel.to_string(), *stat))
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// File name → stat of the regular files (and symlinks) in the mirror of project directory `dir`.
fn mirror_dir_stats(project: &Project, dir: &str) -> HashMap<String, Stat> {
    let mut found = HashMap::new();
    if let Ok(entries) = std::fs::read_dir(project.library_dir().join(dir)) {
        for entry in entries.flatten() {
            if let (Some(name), Ok(meta)) = (entry.file_name().to_str(), entry.metadata()) {
                // A symlink counts as there: reading it is refused, and the file fails by name.
                if meta.is_file() || meta.file_type().is_symlink() {
                    found.insert(name.to_string(), Stat::from_metadata(&meta));
                }
            }
        }
    }
    found
}

/// Decide how to treat one in-scope file: documented (scanned) or only listed (binary, too large).
fn examine(
    ctx: &ScanContext<'_>,
    rel: &str,
    stat: Stat,
    design_stat: Option<Stat>,
    recomputed: &AtomicUsize,
) -> Examined {
    let (project, cache) = (ctx.project, ctx.cache);
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
        None => match project.read(rel) {
            Ok(bytes) => (walk::sniff(&bytes), Some(bytes)),
            Err(_) => (FileClass::Text, None),
        },
    };
    if class != FileClass::Text {
        let entry = listed_entry(project, cache, (rel, stat), false, recomputed);
        return Examined::Listed(rel.to_string(), Box::new(entry));
    }
    Examined::Documented(Box::new(scanned::scan(ctx, rel, stat, design_stat, bytes)))
}

/// A cache entry for a file that is listed in `.aindex` but has no design file.
/// `grouped`: a member of a group design file, described by what it says (its doc, its primary
/// export, its definitions) rather than its kind and size.
fn listed_entry(
    project: &Project,
    cache: &Cache,
    (rel, stat): (&str, Stat),
    grouped: bool,
    recomputed: &AtomicUsize,
) -> cache::Entry {
    if let Some(entry) = cache.entries.get(rel) {
        if entry.stat == stat && cache.stat_is_settled(&stat) && entry.design.is_none() {
            return entry.clone();
        }
    }
    recomputed.fetch_add(1, Ordering::Relaxed);
    let class = walk::classify(project, rel, stat.size).unwrap_or(FileClass::Binary);
    let member = (grouped && class == FileClass::Text)
        .then(|| member_description(project, rel))
        .flatten();
    let description = member.unwrap_or_else(|| {
        crate::workspace::child_map::structural_description(project, rel, stat.size)
            .unwrap_or_else(|_| "Unreadable file".to_string())
    });
    cache::Entry::unhashed(stat, class, description)
}

/// Sources documented before and gone now (or out of scope, or ignored now).
fn orphans(
    project: &Project,
    universe: &Universe,
    cache: &Cache,
    files: &BTreeMap<String, Scanned>,
    paths: &[String],
) -> BTreeSet<String> {
    let mut orphans: BTreeSet<String> = universe.gone.clone();
    if universe.complete {
        for (rel, entry) in &cache.entries {
            if entry.design.is_some() && !files.contains_key(rel) {
                orphans.insert(rel.clone());
            }
        }
        // Without a cache, the mirror says which sources had design files.
        if cache.entries.is_empty() {
            orphans.extend(mirrored_sources(project));
        }
    }
    // A file git keeps out of the working tree is not deleted: its design file stays.
    orphans.retain(|rel| {
        !files.contains_key(rel) && path_selected(rel, paths) && !universe.absent.has_file(rel)
    });
    orphans
}

/// Sources that have a design file in the mirror.
fn mirrored_sources(project: &Project) -> Vec<String> {
    library::walk(&project.library_dir(), Part::MIRROR)
        .files
        .into_iter()
        .filter_map(|entry| match entry.kind {
            Kind::Design { source } => Some(source),
            _ => None,
        })
        .collect()
}

/// Turn orphans into renames where possible: a git rename, or a new file with the orphan's content
/// hash. The new file takes over the old design file. Returns new path → old path.
fn resolve_orphans(
    project: &Project,
    orphans: &BTreeSet<String>,
    git_renames: &[(String, String)],
    files: &mut BTreeMap<String, Scanned>,
) -> BTreeMap<String, String> {
    let mut by_hash: HashMap<String, String> = HashMap::new();
    let mut old_designs: HashMap<String, Existing> = HashMap::new();
    for orphan in orphans {
        let design_rel = design_path(orphan);
        let Ok(text) = project.read_library_text(&design_rel) else {
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
        old_designs.insert(orphan.clone(), Existing { text, design });
    }
    let is_new = |scanned: &Scanned| scanned.level() == ChangeLevel::New;
    let mut candidates: Vec<(String, String)> = git_renames
        .iter()
        .filter(|(from, to)| orphans.contains(from) && files.get(to).is_some_and(is_new))
        .cloned()
        .collect();
    for (rel, scanned) in files.iter() {
        if let (true, Some(from)) = (is_new(scanned), by_hash.get(&scanned.facts.source_hash)) {
            candidates.push((from.clone(), rel.clone()));
        }
    }
    let mut moves = BTreeMap::new();
    let mut taken: BTreeSet<String> = BTreeSet::new();
    for (from, to) in candidates {
        if taken.contains(&from) || moves.contains_key(&to) {
            continue;
        }
        let (Some(existing), Some(scanned)) = (old_designs.get(&from), files.get_mut(&to)) else {
            continue;
        };
        scanned.take_over(&from, existing);
        taken.insert(from.clone());
        moves.insert(to, from);
    }
    moves
}

/// `--changed-only`, once imports are resolved: scan the files whose Dependents move because a
/// scanned file changed its imports, or an orphan imported them, and the files whose Tests move
/// with them — what a test helper among those reaches (in a full update they are scanned
/// already). Returns the files it added.
pub fn scan_affected(ctx: &ScanContext<'_>, scope: &Scope, scan: &mut Scan) -> Vec<String> {
    let (project, cache) = (ctx.project, ctx.cache);
    let mut moved: BTreeSet<&String> = BTreeSet::new();
    for (rel, scanned) in &scan.files {
        let old: &[String] = cache.entries.get(rel).map_or(&[], |entry| &entry.deps);
        let new = &scanned.facts.deps;
        moved.extend(
            old.iter()
                .chain(new)
                .filter(|dep| old.contains(dep) != new.contains(dep)),
        );
    }
    for orphan in &scan.orphans {
        if let Some(entry) = cache.entries.get(orphan) {
            moved.extend(&entry.deps);
        }
    }
    // A test helper's importers moved: so did the tests of what it reaches (`dependents`).
    let deps_of = |rel: &str| -> Vec<String> {
        match scan.files.get(rel) {
            Some(scanned) => scanned.facts.deps.clone(),
            None => cache
                .entries
                .get(rel)
                .map(|e| e.deps.clone())
                .unwrap_or_default(),
        }
    };
    let mut reached: BTreeSet<String> = moved.iter().map(|dep| dep.to_string()).collect();
    let mut frontier: Vec<String> = reached
        .iter()
        .filter(|dep| is_helper_candidate(scope, dep))
        .cloned()
        .collect();
    for _ in 0..=HELPER_HOPS {
        let mut next = Vec::new();
        for helper in &frontier {
            for dep in deps_of(helper) {
                if reached.insert(dep.clone()) && is_helper_candidate(scope, &dep) {
                    next.push(dep);
                }
            }
        }
        frontier = next;
    }
    let affected: BTreeSet<String> = reached
        .into_iter()
        .filter(|dep| !scan.files.contains_key(dep))
        .collect();
    let mut added = Vec::new();
    for rel in affected {
        let (Some(stat), true) = (Stat::of(&project.abs(&rel)), scope.documents(&rel)) else {
            continue;
        };
        let design_stat = Stat::of(&project.abs(&design_path(&rel)));
        let mut scanned = scanned::scan(ctx, &rel, stat, design_stat, None);
        set_budget(project, scope, &mut scanned);
        scan.files.insert(rel.clone(), scanned);
        added.push(rel);
    }
    added
}
