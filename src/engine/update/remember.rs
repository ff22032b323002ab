//! Stage 7, **remember**: what this run learned, for the next one — the stat/hash cache entries of
//! every file it looked at (built before the indexes, whose Child Maps read them), the cache saved
//! when anything moved, and in the state file the last processed commit and the paths to look at
//! again.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use anyhow::Context as _;

use super::plan::Plan;
use super::report::UpdateReport;
use super::scan::Scan;
use super::scanned::{FileState, Scanned};
use super::write::Written;
use super::UpdateOptions;
use crate::git::Oid;
use crate::project::mirror::aindex_path;
use crate::project::walk::FileClass;
use crate::source::model::ProjectModel;
use crate::workspace::cache;
use crate::workspace::library_writes::LibraryWrites;
use crate::workspace::outlines::{MemberOutline, OutlineStore};
use crate::workspace::state::{Processed, StateDir};

/// The cache entries of every file this run looked at: documented files as scanned (a failed or
/// skipped file keeps what the cache knew, so the next run looks again) and listed files.
pub fn entries(plan: &Plan, scan: &Scan, written: &Written) -> BTreeMap<String, cache::Entry> {
    let cache = &plan.cache;
    let mut entries = scan.listed.clone();
    for (rel, scanned) in &scan.files {
        let learned_nothing =
            written.failed.contains_key(rel) || matches!(scanned.state, FileState::Skipped { .. });
        if learned_nothing {
            // A failed rename keeps its old path known too.
            let failed_move = written
                .failed
                .contains_key(rel)
                .then(|| scan.moves.get(rel));
            let skipped = matches!(scanned.state, FileState::Skipped { .. });
            for known in std::iter::once(rel).chain(failed_move.flatten()) {
                if let Some(entry) = cache.entries.get(known) {
                    let kept = match skipped {
                        true => without_resolution_hashes(entry),
                        false => entry.clone(),
                    };
                    entries.insert(known.clone(), kept);
                }
            }
            continue;
        }
        let entry = match scanned.is_referenced() {
            true => referenced_entry(scan, scanned),
            false => entry_of(scan, written, scanned),
        };
        if let Some(entry) = entry {
            entries.insert(rel.clone(), entry);
        }
    }
    // An orphan whose design file could not be removed stays known, so the next run tries again.
    for orphan in scan
        .orphans
        .iter()
        .filter(|o| written.failed.contains_key(*o))
    {
        if let Some(entry) = cache.entries.get(orphan) {
            entries.insert(orphan.clone(), entry.clone());
        }
    }
    entries
}

/// A skipped file's entry (a merge conflict) with its module scope and imports hashes forgotten:
/// its importers were resolved against the conflicted text in this run, so the next run must see
/// its scope as moved — whatever the resolution turns out to be — and resolve them again.
fn without_resolution_hashes(entry: &cache::Entry) -> cache::Entry {
    let mut details = entry.details.get().clone();
    details.scope_hash.clear();
    details.imports_hash.clear();
    cache::Entry {
        details: details.into(),
        ..entry.clone()
    }
}

/// The cache entry of a test file read for its imports: its listed entry (class, Child Map
/// description) with what the scan learned of its imports.
fn referenced_entry(scan: &Scan, scanned: &Scanned) -> Option<cache::Entry> {
    let listed = scan.listed.get(&scanned.source)?;
    Some(cache::Entry {
        source_hash: scanned.facts.source_hash.clone(),
        interface_hash: scanned.facts.interface_hash.clone(),
        deps: scanned.facts.deps.clone(),
        via: scanned.facts.via.clone(),
        macros: scanned.facts.macros.clone(),
        details: details_of(scanned, listed.details.get().description.clone()),
        ..listed.clone()
    })
}

/// The cache entry of a documented file after this run.
fn entry_of(scan: &Scan, written: &Written, scanned: &Scanned) -> Option<cache::Entry> {
    let rel = &scanned.source;
    // Re-stat only what this run wrote; everything else is as scanned.
    let design = match written.written.get(rel) {
        Some(stat) => Some(*stat),
        None => scan.design_stats.get(rel).copied(),
    };
    let description = written
        .descriptions
        .get(rel)
        .map(String::as_str)
        .or_else(|| scanned.description())
        .unwrap_or_default()
        .to_string();
    Some(cache::Entry {
        stat: scanned.stat,
        class: FileClass::Text,
        source_hash: scanned.facts.source_hash.clone(),
        interface_hash: scanned.facts.interface_hash.clone(),
        deps: scanned.facts.deps.clone(),
        via: scanned.facts.via.clone(),
        macros: scanned.facts.macros.clone(),
        details: details_of(scanned, description),
        design,
    })
}

/// The cache's details of a scanned file, with its Child Map description.
fn details_of(scanned: &Scanned, description: String) -> cache::LazyDetails {
    cache::Details {
        description,
        symbols: scanned.facts.symbols.clone(),
        externals: scanned.facts.externals.clone(),
        type_deps: scanned.facts.type_deps.clone(),
        calls: scanned.facts.calls.clone(),
        documented: scanned.facts.documented,
        scope_hash: scanned.facts.scope_hash.clone(),
        imports_hash: scanned.facts.imports_hash.clone(),
    }
    .into()
}

/// What [`save`] needs besides the cache.
pub struct Memory<'a> {
    pub state: &'a StateDir,
    pub options: &'a UpdateOptions,
    pub head: Option<&'a Oid>,
    pub run_started_ns: i128,
    /// The project (to read back the indexes written) and its repository, when in git.
    pub project: &'a crate::project::Project,
    pub repo: Option<&'a crate::git::GitRepo>,
}

/// Save the cache (when anything was learned) and record what this run processed.
pub fn save(
    memory: &Memory<'_>,
    mut plan: Plan,
    scan: &Scan,
    written: &Written,
    entries: BTreeMap<String, cache::Entry>,
    report: &UpdateReport,
) -> anyhow::Result<()> {
    let options = memory.options;
    let universe = &plan.universe;
    let cache = &mut plan.cache;
    let gone = contents_gone(cache, scan);
    let changed = if universe.complete && options.paths.is_empty() {
        let entries_changed = cache.replace_entries(entries);
        cache.replace_dirs(universe.dirs.clone()) || entries_changed
    } else {
        // A failed move keeps its old path; a failed removal its orphan.
        let kept: HashSet<&String> = written
            .failed
            .keys()
            .filter_map(|source| scan.moves.get(source))
            .chain(written.failed.keys().filter(|s| scan.orphans.contains(*s)))
            .collect();
        let mut changed = false;
        for orphan in scan.orphans.iter().filter(|rel| !kept.contains(rel)) {
            changed |= cache.remove(orphan);
        }
        for (rel, entry) in entries {
            changed |= cache.put(rel, entry);
        }
        let mut dirs = cache.dirs.clone();
        dirs.extend(universe.dirs.iter().cloned());
        dirs.retain(|dir| !report.aindex_removed.contains(&aindex_path(dir)));
        cache.replace_dirs(dirs) || changed
    };
    // Save when anything was learned. Entries read again because their mtime was too close to the
    // last save count too: saving now moves the save time past them.
    let rescanned = scan.files.values().any(|scanned| !scanned.from_cache()) || scan.recomputed > 0;
    let cache_path = memory.state.cache_path();
    if rescanned || changed {
        cache
            .save(&cache_path, memory.run_started_ns)
            .with_context(|| format!("cannot write the cache {}", cache_path.display()))?;
    }
    let whole = universe.complete && options.paths.is_empty();
    keep_outlines(memory.state, (scan, written), &gone, cache, whole);
    save_model(memory.state, &plan.model)?;
    let recorded = record_processed(memory, &plan, written, report);
    // The plan holds the whole cache — 20,000 entries, a tenth of a post-commit run's instructions
    // to free one allocation at a time. The run ends here and the process with it: let the
    // operating system take the memory back at exit instead.
    std::mem::forget(plan);
    recorded
}

/// The contents the cache knew that this run saw change or disappear: (path, old content hash).
fn contents_gone(cache: &cache::Cache, scan: &Scan) -> Vec<(String, String)> {
    let changed = scan.files.iter().filter_map(|(rel, scanned)| {
        let before = cache.entries.get(rel)?;
        (before.source_hash != scanned.facts.source_hash).then_some(rel)
    });
    changed
        .chain(&scan.orphans)
        .filter_map(|rel| {
            let before = cache.entries.get(rel)?;
            Some((rel.clone(), before.source_hash.clone()))
        })
        .collect()
}

/// Keep the member outline of every documented file this run parsed and learned
/// (`workspace::outlines`, what `lexi lookup` lists without parsing; a skipped or failed file's
/// cache entry keeps its old content), and drop the records of the contents `gone`; a complete run
/// that parsed anything drops every record no file of the saved `cache` names. The store is only a
/// shortcut (a reader without a record parses), so a failed write is no error.
fn keep_outlines(
    state: &StateDir,
    (scan, written): (&Scan, &Written),
    gone: &[(String, String)],
    cache: &cache::Cache,
    complete: bool,
) {
    use rayon::prelude::*;
    let store = OutlineStore::of(state);
    let learned = |rel: &String, scanned: &Scanned| {
        !scanned.is_referenced()
            && !matches!(scanned.state, FileState::Skipped { .. })
            && !written.failed.contains_key(rel)
    };
    let parsed: Vec<(&String, &Scanned)> = scan
        .files
        .iter()
        .filter(|(rel, scanned)| scanned.code().is_some() && learned(rel, scanned))
        .collect();
    parsed.par_iter().for_each(|(rel, scanned)| {
        let hash = scanned.facts.source_hash.as_str();
        if let (Some(code), false) = (scanned.code(), store.holds(rel, hash)) {
            let _ = store.save(rel, hash, &MemberOutline::of(rel, &code.interface));
        }
    });
    for (rel, hash) in gone {
        store.remove(rel, hash);
    }
    if complete && !parsed.is_empty() {
        let current = cache.entries.iter();
        store.retain(current.map(|(rel, entry)| (rel.as_str(), entry.source_hash.as_str())));
    }
}

/// The project model, for the next run that touches no manifest (written when it changed).
fn save_model(state: &StateDir, model: &ProjectModel) -> anyhow::Result<()> {
    let path = state.model_path();
    let fingerprint = model.fingerprint();
    if state.read().model.as_deref() == Some(fingerprint.as_str()) && path.is_file() {
        return Ok(());
    }
    let json = serde_json::to_vec(model).context("cannot serialise the project model")?;
    crate::atomic::write(&path, &json)
        .with_context(|| format!("cannot write the project model {}", path.display()))
}

/// The state file: the paths the next `--changed-only` run looks at again (uncommitted ones and
/// failures), and — after a run over everything — the commit it processed.
fn record_processed(
    memory: &Memory<'_>,
    plan: &Plan,
    written: &Written,
    report: &UpdateReport,
) -> anyhow::Result<()> {
    let pending: Vec<String> = plan
        .universe
        .dirty_paths
        .iter()
        .chain(written.failed.keys())
        .cloned()
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    // A tree the run read whole (nothing skipped or failed): the library matches it as it was
    // (clean), or the tree it saw — committed and uncommitted — once what the run wrote is committed
    // (library_written, with the record).
    let settled = !report.skipped_any() && report.failed.is_empty();
    let clean = settled && plan.clean_tree && !report.stale;
    let library_written = settled
        && !clean
        && plan
            .uncommitted
            .as_ref()
            .is_some_and(|uncommitted| record_library_writes(memory, uncommitted, report));
    if !library_written {
        let _ = std::fs::remove_file(memory.state.library_writes_path());
    }
    let processed = memory
        .head
        .filter(|_| memory.options.paths.is_empty())
        .map(|head| Processed {
            commit: *head,
            clean,
            fingerprint: plan.fingerprint.clone(),
            library_written,
        });
    let model_fingerprint = plan.model.fingerprint();
    memory
        .state
        .edit(|recorded| {
            recorded.pending = pending;
            recorded.model = Some(model_fingerprint);
            if processed.is_some() {
                recorded.processed = processed;
            }
        })
        .context("cannot record what this update processed")
}

/// Record the tree this run's library is for — the uncommitted changes it saw, then what it wrote
/// into the library: design files with the blob id of their text, the indexes and START_HERE read
/// back — for the fast path after it is committed. False when it cannot be (outside git, a file
/// that cannot be read back, the record not written).
fn record_library_writes(
    memory: &Memory<'_>,
    uncommitted: &[(String, Option<Oid>)],
    report: &UpdateReport,
) -> bool {
    let Some(repo) = memory.repo else {
        return false;
    };
    let mut writes = LibraryWrites(uncommitted.iter().cloned().collect());
    for (path, blob) in &report.design_writes {
        if blob.is_none() && memory.project.abs(path).exists() {
            return false; // written but its blob unknown
        }
        writes.0.insert(path.clone(), *blob);
    }
    let start_here = report
        .start_here_written
        .then(|| crate::project::in_library(crate::project::START_HERE_FILE));
    for path in report.aindex_written.iter().chain(start_here.as_ref()) {
        let Ok(bytes) = memory.project.read(path) else {
            return false;
        };
        let Ok(blob) = repo.blob_id(&bytes) else {
            return false;
        };
        writes.0.insert(path.clone(), Some(blob));
    }
    for path in &report.aindex_removed {
        writes.0.insert(path.clone(), None);
    }
    writes.save(&memory.state.library_writes_path()).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::update::plan::{Plan, Universe};
    use crate::engine::update::report::Mode;
    use crate::engine::update::testing::{by_path, TestProject};
    use crate::workspace::cache::Cache;

    #[test]
    fn a_file_the_model_failed_on_keeps_what_the_cache_knew() {
        let p = TestProject::new(&[("a.py", "x = 1\n"), ("b.py", "y = 2\n")]);
        let scan = Scan {
            files: by_path(vec![p.scan("a.py", &[]), p.scan("b.py", &[])]),
            listed: Default::default(),
            orphans: Default::default(),
            moves: Default::default(),
            design_stats: Default::default(),
            recomputed: 0,
        };
        let mut cache = Cache::default();
        let old = entry_of(&scan, &Written::default(), &scan.files["a.py"]).expect("an entry");
        let mut remembered = old.clone();
        remembered.source_hash = "from the last run".into();
        cache.entries.insert("a.py".into(), remembered.clone());
        let plan = Plan {
            mode: Mode::Full,
            universe: Universe::for_tests(),
            warnings: Vec::new(),
            clean_tree: false,
            uncommitted: None,
            cache,
            cache_warning: None,
            fingerprint: String::new(),
            model: Default::default(),
        };
        let mut written = Written::default();
        written.failed.insert("a.py".into(), "timeout".into());
        let entries = entries(&plan, &scan, &written);
        assert_eq!(entries["a.py"], remembered);
        assert_eq!(
            entries["b.py"].source_hash,
            crate::hash::sha256_hex(b"y = 2\n")
        );
    }
}
