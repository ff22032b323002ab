//! Stage 3, **dependents**: the reverse dependency index of the files this run looks at, as it is now
//! and as the cache remembers it, so a design file's Dependents section can follow its importers.

use std::collections::{HashMap, HashSet};

use super::scan::Scan;
use crate::workspace::cache::Cache;

/// Who imports each file this run looks at: now, and as the last run saw it.
pub struct ReverseIndex {
    new: HashMap<String, Vec<String>>,
    old: HashMap<String, Vec<String>>,
}

impl ReverseIndex {
    /// Build both sides from the scanned files' imports and the cache's. `complete` says the scan
    /// covered the whole tree; otherwise unscanned files keep importing what the cache says.
    pub fn build(scan: &Scan, cache: &Cache, complete: bool) -> ReverseIndex {
        let looked_at: HashSet<&str> = scan.files.keys().map(String::as_str).collect();
        let mut index = ReverseIndex {
            new: HashMap::new(),
            old: HashMap::new(),
        };
        let add = |map: &mut HashMap<String, Vec<String>>, file: &str, deps: &[String]| {
            for dep in deps.iter().filter(|dep| looked_at.contains(dep.as_str())) {
                map.entry(dep.clone()).or_default().push(file.to_string());
            }
        };
        for (rel, scanned) in &scan.files {
            add(&mut index.new, rel, &scanned.facts.deps);
        }
        for (rel, entry) in &cache.entries {
            if entry.deps.is_empty() {
                continue;
            }
            add(&mut index.old, rel, &entry.deps);
            let still_there = !scan.orphans.contains(rel) && !scan.files.contains_key(rel);
            if !complete && still_there {
                add(&mut index.new, rel, &entry.deps);
            }
        }
        for dependents in index.new.values_mut().chain(index.old.values_mut()) {
            dependents.sort();
            dependents.dedup();
        }
        index
    }

    /// The files that import `rel` now, sorted.
    pub fn dependents(&self, rel: &str) -> &[String] {
        self.new.get(rel).map_or(&[], Vec::as_slice)
    }

    /// Whether `rel`'s importers changed since the last run.
    pub fn moved(&self, rel: &str) -> bool {
        self.old.get(rel).map_or(&[][..], Vec::as_slice) != self.dependents(rel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::update::scanned::{Facts, FileState, Scanned};
    use crate::engine::update::testing::by_path;
    use crate::workspace::cache::{Entry, Stat};

    fn scanned(source: &str, deps: &[&str]) -> Scanned {
        Scanned {
            source: source.to_string(),
            stat: Stat {
                size: 1,
                mtime_ns: 1,
            },
            facts: Facts {
                deps: deps.iter().map(|d| d.to_string()).collect(),
                ..Facts::default()
            },
            state: FileState::Cached {
                description: String::new(),
            },
            code: None,
            resolved_now: false,
            abridged: false,
            budget_tokens: 0,
            warning: None,
            error: None,
        }
    }

    fn cached(deps: &[&str]) -> Entry {
        Entry {
            design: Some(Stat {
                size: 1,
                mtime_ns: 1,
            }),
            ..Entry::with_deps(deps)
        }
    }

    fn scan_of(files: Vec<Scanned>) -> Scan {
        Scan {
            files: by_path(files),
            listed: Default::default(),
            orphans: Default::default(),
            moves: Default::default(),
            design_stats: Default::default(),
            recomputed: 0,
        }
    }

    #[test]
    fn importers_now_and_before_and_whether_they_moved() {
        let scan = scan_of(vec![
            scanned("a.rs", &["c.rs"]),
            scanned("b.rs", &["c.rs"]),
            scanned("c.rs", &[]),
        ]);
        let mut cache = Cache::default();
        cache.entries.insert("a.rs".into(), cached(&["c.rs"]));
        cache.entries.insert("c.rs".into(), cached(&[]));
        let index = ReverseIndex::build(&scan, &cache, true);
        assert_eq!(index.dependents("c.rs"), ["a.rs", "b.rs"]);
        assert!(index.moved("c.rs"), "b.rs is a new importer");
        assert!(!index.moved("a.rs"));
    }

    #[test]
    fn an_incomplete_scan_keeps_the_cached_importers_of_files_it_did_not_look_at() {
        let scan = scan_of(vec![scanned("c.rs", &[])]);
        let mut cache = Cache::default();
        cache.entries.insert("a.rs".into(), cached(&["c.rs"]));
        let partial = ReverseIndex::build(&scan, &cache, false);
        assert_eq!(partial.dependents("c.rs"), ["a.rs"]);
        assert!(!partial.moved("c.rs"));
        let complete = ReverseIndex::build(&scan, &cache, true);
        assert!(complete.dependents("c.rs").is_empty());
    }
}
