//! Stage 3, **dependents**: the reverse dependency index of the files this run looks at, as it is now
//! and as the cache remembers it, so a design file's Dependents section can follow its importers.
//! A file git keeps out of the working tree (a sparse checkout) cannot be read: it is unchanged, so
//! the importers of a file that are absent are what its design file lists now
//! ([`ReverseIndex::keep_absent_importers`]).

use std::collections::{HashMap, HashSet};

use rayon::prelude::*;

use super::scan::Scan;
use crate::archivist::is_listed_test;
use crate::library::design_file::{sections, DesignFile};
use crate::library::markdown::list_items;
use crate::project::mirror::design_path;
use crate::project::Project;
use crate::workspace::absent::Absent;
use crate::workspace::cache::Cache;

/// Who imports each file this run looks at: now, and as the last run saw it.
pub struct ReverseIndex {
    new: HashMap<String, Vec<String>>,
    old: HashMap<String, Vec<String>>,
    /// Files whose importers this (sparse) checkout cannot all know.
    unknowable: HashSet<String>,
}

/// What a design file's list section says: the paths shown and how many more it counts.
struct Listed {
    shown: Vec<String>,
    more: usize,
}

impl Listed {
    fn of(body: Option<&str>) -> Listed {
        let mut listed = Listed {
            shown: Vec::new(),
            more: 0,
        };
        for item in body.map(list_items).unwrap_or_default() {
            if let Some(path) = item.split_whitespace().next() {
                listed.shown.push(path.trim_matches('`').to_string());
            }
        }
        for line in body.unwrap_or("").lines() {
            if let Some(rest) = line.trim().strip_prefix("… and ") {
                listed.more = rest
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
            }
        }
        listed
    }

    /// Whether `known` importers account for everything the section counted (always, when it
    /// was not cut).
    fn adds_up(&self, known: usize) -> bool {
        self.more == 0 || known == self.shown.len() + self.more
    }
}

/// The Dependents and Tests a design file records.
struct Recorded {
    dependents: Listed,
    tests: Listed,
}

impl ReverseIndex {
    /// Build both sides from the scanned files' imports and the cache's. `complete` says the scan
    /// covered the whole tree; otherwise unscanned files keep importing what the cache says.
    pub fn build(scan: &Scan, cache: &Cache, complete: bool) -> ReverseIndex {
        let looked_at: HashSet<&str> = scan.files.keys().map(String::as_str).collect();
        let mut index = ReverseIndex {
            new: HashMap::new(),
            old: HashMap::new(),
            unknowable: HashSet::new(),
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

    /// Add, as importers of each scanned file, the absent files its design file lists in Dependents
    /// or Tests: they did import it, and they have not changed. A list the design file cut ("… and
    /// 13 more") may hide more of them: when what is known here does not add up to its count, the
    /// file's importers cannot be known in this checkout ([`ReverseIndex::knows_all_importers`]).
    /// Nothing to do in a full checkout.
    pub fn keep_absent_importers(&mut self, project: &Project, scan: &Scan, absent: &Absent) {
        if absent.is_empty() {
            return;
        }
        let recorded: Vec<(&String, Recorded)> = scan
            .files
            .par_iter()
            .filter_map(|(rel, scanned)| {
                let text = match scanned.existing() {
                    Some(existing) => existing.text.clone(),
                    None => project.read_to_string(&design_path(rel)).ok()?,
                };
                let design = DesignFile::parse(&design_path(rel), &text).ok()?;
                let listed = |heading| Listed::of(design.section(heading).map(|s| s.body.as_str()));
                Some((
                    rel,
                    Recorded {
                        dependents: listed(sections::DEPENDENTS),
                        tests: listed(sections::TESTS),
                    },
                ))
            })
            .collect();
        for (rel, recorded) in recorded {
            let kept: Vec<String> = recorded
                .dependents
                .shown
                .iter()
                .chain(&recorded.tests.shown)
                .filter(|path| absent.has_file(path))
                .cloned()
                .collect();
            for map in [&mut self.new, &mut self.old] {
                let dependents = map.entry(rel.clone()).or_default();
                dependents.extend(kept.iter().cloned());
                dependents.sort();
                dependents.dedup();
            }
            let now = self.dependents(rel);
            let tests = now.iter().filter(|path| is_listed_test(path)).count();
            if !recorded.dependents.adds_up(now.len()) || !recorded.tests.adds_up(tests) {
                self.unknowable.insert(rel.clone());
            }
        }
    }

    /// Whether this run knows every importer of `rel`: always in a full checkout; in a sparse one,
    /// unless its design file's cut Dependents or Tests hide importers outside the checkout.
    pub fn knows_all_importers(&self, rel: &str) -> bool {
        !self.unknowable.contains(rel)
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
    fn a_cut_list_counts_what_it_hides() {
        let cut = Listed::of(Some(
            "- src/a.py\n- `tests/t.py`\n… and 13 more: `lexi impact src/g.py`",
        ));
        assert_eq!(cut.shown, ["src/a.py", "tests/t.py"]);
        assert_eq!(cut.more, 13);
        assert!(cut.adds_up(15) && !cut.adds_up(14));
        let whole = Listed::of(Some("- src/a.py"));
        assert!(
            whole.adds_up(0) && whole.adds_up(7),
            "a whole list hides nothing"
        );
        assert!(Listed::of(None).shown.is_empty());
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
