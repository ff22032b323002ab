//! Stage 2b, **resolve**: every file read in this run has its imports resolved to project files
//! through the project model ([`crate::source::resolve`]), in parallel. A file the cache vouched for
//! keeps its dependencies — unless a Rust module file its imports went through (or landed on)
//! changed in this run, or vanished: then it is read again and resolved again, so that a re-export
//! that moved takes its importers with it. The interfaces of module files a Rust path goes through
//! are the scan's when it read them, else parsed here once.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;
use std::sync::{Arc, Mutex};

use rayon::prelude::*;

use super::plan::Plan;
use super::scan::Scan;
use super::scanned::{self, FileState, ScanContext, Scanned};
use crate::project::scope::Scope;
use crate::project::Project;
use crate::source::resolve::{resolve, Context, Resolution};
use crate::source::{extract, Interface, Language};
use crate::workspace::cache::Stat;

/// Imports that named no project file, by file (for `lexictl update --verbose`).
pub type Unresolved = BTreeMap<String, Vec<String>>;

/// Resolve the imports of every file that needs it (`everything`: of every scanned file, for
/// `--verbose`).
pub fn run(
    project: &Project,
    scope: &Scope,
    plan: &Plan,
    scan: &mut Scan,
    everything: bool,
) -> Unresolved {
    let exists = |rel: &str| plan.universe.exists(project, rel);
    pull_in_importers(project, scope, plan, scan, &exists);
    let again = match everything {
        true => scan.files.keys().cloned().collect(),
        false => again(plan, scan),
    };
    let steady = !everything && module_tree_steady(plan, scan);
    let mut unresolved = resolve_files(project, plan, scan, &again, &exists, steady);
    if !plan.universe.complete {
        // Files whose Dependents move with the imports just resolved (read ones need resolving).
        let ctx = ScanContext {
            project,
            cache: &plan.cache,
            exists: &exists,
            conflicts: &plan.universe.conflicts,
        };
        let added = super::scan::scan_affected(&ctx, scope, scan);
        let added = added.into_iter().collect();
        unresolved.extend(resolve_files(project, plan, scan, &added, &exists, steady));
    }
    unresolved
}

/// Resolve the files read this run (that have not been yet) and those in `again`. With `steady`
/// (see [`module_tree_steady`]), a read Rust file whose module scope and imports are as the cache
/// knew them keeps the dependencies the cache holds: resolving it again would give the same.
fn resolve_files(
    project: &Project,
    plan: &Plan,
    scan: &mut Scan,
    again: &BTreeSet<String>,
    exists: &(dyn Fn(&str) -> bool + Sync),
    steady: bool,
) -> Unresolved {
    if steady {
        keep_cached_resolutions(plan, scan, exists);
    }
    let parsed = Parsed::new(project, scan);
    let jobs: Vec<(&String, Arc<Interface>)> = scan
        .files
        .iter()
        .filter(|(_, scanned)| {
            !scanned.resolved_now && !matches!(scanned.state, FileState::Skipped { .. })
        })
        .filter_map(|(rel, scanned)| match scanned.code() {
            Some(code) => Some((rel, Arc::clone(&code.interface))),
            None if again.contains(rel) => parsed.get(rel).map(|interface| (rel, interface)),
            None => None,
        })
        .collect();
    let interface_of = |rel: &str| parsed.get(rel);
    let macros = MacroTable::new(plan, scan);
    let exported_macro = |root: &str, name: &str| macros.get(root, name);
    let context = Context {
        model: &plan.model,
        exists,
        interface_of: &interface_of,
        exported_macro: &exported_macro,
    };
    let resolved: Vec<(String, Resolution)> = jobs
        .par_iter()
        .map(|(rel, interface)| {
            let syntax = interface.language.walks();
            ((*rel).clone(), resolve(syntax, rel, interface, &context))
        })
        .collect();
    let mut unresolved = Unresolved::new();
    for (rel, resolution) in resolved {
        let Some(scanned) = scan.files.get_mut(&rel) else {
            continue;
        };
        scanned.facts.deps = resolution.deps;
        scanned.facts.via = resolution.via;
        scanned.facts.externals = resolution.externals;
        scanned.facts.type_deps = resolution.type_only;
        scanned.resolved_now = true;
        if !resolution.unresolved.is_empty() {
            unresolved.insert(rel, resolution.unresolved);
        }
    }
    unresolved
}

/// Whether every Rust module scope is as the cache knew it: no Rust file's module scope moved or
/// vanished ([`changed_modules`]) and none is new. Rust import resolution reads nothing else of the
/// tree (the manifests' model is the cache's, or the cache was set aside), so every Rust file whose
/// own imports are unchanged resolves to what the cache holds.
fn module_tree_steady(plan: &Plan, scan: &Scan) -> bool {
    let no_new_file = scan
        .files
        .keys()
        .filter(|rel| rel.ends_with(".rs"))
        .all(|rel| plan.cache.entries.contains_key(rel));
    no_new_file && changed_modules(plan, scan).is_empty()
}

/// Read Rust files whose module scope and imports hash as the cache's entry says, and whose cached
/// dependencies and modules gone through all still exist, take the entry's resolution
/// (dependencies, modules gone through, externals, type-only dependencies).
fn keep_cached_resolutions(plan: &Plan, scan: &mut Scan, exists: &(dyn Fn(&str) -> bool + Sync)) {
    for (rel, scanned) in scan.files.iter_mut() {
        if scanned.resolved_now || scanned.code().is_none() || !rel.ends_with(".rs") {
            continue;
        }
        let Some(entry) = plan.cache.entries.get(rel) else {
            continue;
        };
        let details = entry.details.get();
        let facts = &mut scanned.facts;
        let same = |before: &str, now: &str| !before.is_empty() && before == now;
        if same(&details.scope_hash, &facts.scope_hash)
            && same(&details.imports_hash, &facts.imports_hash)
            && entry.deps.iter().chain(&entry.via).all(|dep| exists(dep))
        {
            facts.deps = entry.deps.clone();
            facts.via = entry.via.clone();
            facts.externals = details.externals.clone();
            facts.type_deps = details.type_deps.clone();
            scanned.resolved_now = true;
        }
    }
}

/// Rust files whose module scope changed in this run (read, and what their importers' resolution
/// reads of them — imports, bound names, exported macros — is other than the cache knew) or that
/// vanished: what an importer's path may have gone through. An edit of a body, a signature or a
/// comment keeps the module scope, so the file's importers are neither read nor resolved again.
fn changed_modules(plan: &Plan, scan: &Scan) -> BTreeSet<String> {
    let is_rust = |rel: &str| rel.ends_with(".rs");
    let read: Vec<&String> = scan
        .files
        .iter()
        .filter(|(rel, scanned)| {
            is_rust(rel)
                && !scanned.from_cache()
                && plan
                    .cache
                    .entries
                    .get(*rel)
                    .is_none_or(|entry| scope_moved(entry, &scanned.facts))
        })
        .map(|(rel, _)| rel)
        .collect();
    let gone = scan.orphans.iter().chain(&plan.universe.gone);
    read.into_iter()
        .chain(gone)
        .filter(|rel| is_rust(rel))
        .cloned()
        .collect()
}

/// Whether a read file's module scope is other than the cache's entry knew: not when its content
/// is the same, nor when both runs parsed it to the same module scope hash.
fn scope_moved(entry: &crate::workspace::cache::Entry, now: &scanned::Facts) -> bool {
    if entry.source_hash == now.source_hash {
        return false;
    }
    let before = &entry.details.get().scope_hash;
    before.is_empty() || now.scope_hash.is_empty() || *before != now.scope_hash
}

/// The files the cache vouched for whose imports must be resolved again: they went through (or
/// landed on) a module file that changed.
fn again(plan: &Plan, scan: &Scan) -> BTreeSet<String> {
    let changed = changed_modules(plan, scan);
    if changed.is_empty() {
        return BTreeSet::new();
    }
    scan.files
        .iter()
        .filter(|(rel, scanned)| {
            scanned.code().is_none()
                && rel.ends_with(".rs")
                && scanned
                    .facts
                    .deps
                    .iter()
                    .chain(&scanned.facts.via)
                    .any(|dep| changed.contains(dep))
        })
        .map(|(rel, _)| rel.clone())
        .collect()
}

/// In a run that did not scan the whole tree (`--changed-only`), the cache's importers of a changed
/// Rust module file are scanned too, so that their imports can be resolved again.
fn pull_in_importers(
    project: &Project,
    scope: &Scope,
    plan: &Plan,
    scan: &mut Scan,
    exists: &(dyn Fn(&str) -> bool + Sync),
) {
    if plan.universe.complete {
        return;
    }
    let changed = changed_modules(plan, scan);
    if changed.is_empty() {
        return;
    }
    let importers: Vec<String> = plan
        .cache
        .entries
        .iter()
        .filter(|(rel, entry)| {
            !scan.files.contains_key(*rel)
                && entry
                    .deps
                    .iter()
                    .chain(&entry.via)
                    .any(|dep| changed.contains(dep))
        })
        .map(|(rel, _)| rel.clone())
        .collect();
    for rel in importers {
        let Some(stat) = Stat::of(&project.abs(&rel)) else {
            continue;
        };
        let scanned = if scope.documents(&rel) {
            let design_stat = Stat::of(&project.abs(&crate::project::mirror::design_path(&rel)));
            let ctx = ScanContext {
                project,
                cache: &plan.cache,
                exists,
                conflicts: &plan.universe.conflicts,
            };
            let mut scanned = scanned::scan(&ctx, &rel, stat, design_stat, None);
            super::scan::set_budget(project, scope, &mut scanned);
            scanned
        } else {
            scanned::scan_referenced(project, &plan.cache, &rel, stat, exists)
        };
        scan.files.insert(rel, scanned);
    }
}

/// Every `#[macro_export]` macro of the project's crates: (crate root, name) → defining file (the
/// first by path when several define it), from what this run read and what the cache remembers of
/// the rest.
struct MacroTable(HashMap<(String, String), String>);

impl MacroTable {
    fn new(plan: &Plan, scan: &Scan) -> MacroTable {
        let cargo = &plan.model.cargo;
        let cached = plan
            .cache
            .entries
            .iter()
            .filter(|(rel, _)| !scan.files.contains_key(*rel))
            .map(|(rel, entry)| (rel, &entry.macros));
        let scanned = scan.files.iter().map(|(rel, s)| (rel, &s.facts.macros));
        let mut table = HashMap::new();
        for (rel, macros) in cached.chain(scanned).filter(|(_, m)| !m.is_empty()) {
            let Some(target) = cargo.target_of(rel) else {
                continue;
            };
            // Two files of one crate exporting one name: the first by path, whichever of them
            // this run read (the table is the same for a full and a changed-only run).
            for name in macros {
                table
                    .entry((target.root.clone(), name.clone()))
                    .and_modify(|known: &mut String| {
                        if rel < known {
                            *known = rel.clone();
                        }
                    })
                    .or_insert_with(|| rel.clone());
            }
        }
        MacroTable(table)
    }

    fn get(&self, root: &str, name: &str) -> Option<String> {
        self.0.get(&(root.to_string(), name.to_string())).cloned()
    }
}

/// Interfaces of project files, parsed once: the scan's, else read and parsed on first need.
struct Parsed<'p> {
    project: &'p Project,
    known: HashMap<String, Arc<Interface>>,
    more: Mutex<HashMap<String, Option<Arc<Interface>>>>,
}

impl<'p> Parsed<'p> {
    fn new(project: &'p Project, scan: &Scan) -> Parsed<'p> {
        let known = scan
            .files
            .iter()
            .filter_map(|(rel, scanned): (&String, &Scanned)| {
                Some((rel.clone(), Arc::clone(&scanned.code()?.interface)))
            })
            .collect();
        Parsed {
            project,
            known,
            more: Mutex::new(HashMap::new()),
        }
    }

    fn get(&self, rel: &str) -> Option<Arc<Interface>> {
        if let Some(interface) = self.known.get(rel) {
            return Some(Arc::clone(interface));
        }
        if let Ok(more) = self.more.lock() {
            if let Some(known) = more.get(rel) {
                return known.clone();
            }
        }
        let parsed = self.parse(rel);
        if let Ok(mut more) = self.more.lock() {
            more.insert(rel.to_string(), parsed.clone());
        }
        parsed
    }

    fn parse(&self, rel: &str) -> Option<Arc<Interface>> {
        let language = Language::from_path(Path::new(rel))
            .filter(|language| language.enabled_in(&self.project.config))?;
        let text = self.project.read_to_string(rel).ok()?;
        extract(language, &text).ok().map(Arc::new)
    }
}
