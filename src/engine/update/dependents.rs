//! Stage 3, **dependents**: the reverse dependency index of the files this run looks at, as it is now
//! and as the cache remembers it, so a design file's Dependents section can follow its importers —
//! and the tests that reach each file, so its Tests section can follow them.
//!
//! A file's tests are the test cases (`archivist::is_test_case`) among its importers, and those
//! that reach it through *test helpers*: files that are no test case and live in a test tree
//! (`tests/support/utils.js`, `tests/common/mod.rs`) or get no design file (`test-helpers/`
//! outside the scope roots, grouped fixtures) — at most [`HELPER_HOPS`] of them in a row. A test
//! reaching code through the library itself does not count: a crate's integration tests are not
//! the tests of every module its `lib.rs` declares.
//!
//! A file git keeps out of the working tree (a sparse checkout) cannot be read: it is unchanged, so
//! the importers and tests of a file that are absent are what its design file lists now
//! ([`ReverseIndex::keep_absent_importers`]).

use std::collections::{BTreeSet, HashMap, HashSet};

use rayon::prelude::*;

use super::scan::Scan;
use crate::archivist::{is_test_case, is_test_path, Importers};
use crate::library::design_file::{sections, DesignFile};
use crate::library::markdown::list_items;
use crate::project::mirror::design_path;
use crate::project::scope::Scope;
use crate::project::Project;
use crate::workspace::absent::Absent;
use crate::workspace::cache::Cache;

/// Test helpers a test may go through to reach a file (`test → helpers/index → helpers/app → lib`).
pub const HELPER_HOPS: usize = 2;

/// Who imports each file this run looks at, and which tests reach it: now, and as the last run saw
/// it.
pub struct ReverseIndex {
    new: HashMap<String, Vec<String>>,
    old: HashMap<String, Vec<String>>,
    new_tests: HashMap<String, Vec<String>>,
    old_tests: HashMap<String, Vec<String>>,
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

/// Importers of the files a test may reach others through (test paths and files without a design
/// file), over the whole graph: what the tests of a file are found with.
struct HelperImporters<'s> {
    scope: &'s Scope,
    importers: HashMap<String, Vec<String>>,
}

impl HelperImporters<'_> {
    fn importers(&self, file: &str) -> &[String] {
        self.importers.get(file).map_or(&[], Vec::as_slice)
    }

    /// The tests that reach a file whose importers are `direct`, sorted.
    fn tests(&self, direct: &[String]) -> Vec<String> {
        let mut found: BTreeSet<String> = BTreeSet::new();
        let mut seen: HashSet<&str> = direct.iter().map(String::as_str).collect();
        let mut frontier: Vec<&str> = direct.iter().map(String::as_str).collect();
        for hop in 0..=HELPER_HOPS {
            let mut next = Vec::new();
            for file in frontier {
                if is_test_case(file, self.importers(file).len()) {
                    found.insert(file.to_string());
                } else if hop < HELPER_HOPS && is_helper_candidate(self.scope, file) {
                    for importer in self.importers(file) {
                        if seen.insert(importer) {
                            next.push(importer.as_str());
                        }
                    }
                }
            }
            frontier = next;
        }
        found.into_iter().collect()
    }
}

/// Add `kept` to `rel`'s entry of `map`, sorted and without repeats.
fn keep_in(map: &mut HashMap<String, Vec<String>>, rel: &str, kept: &[String]) {
    if kept.is_empty() {
        return;
    }
    let list = map.entry(rel.to_string()).or_default();
    list.extend(kept.iter().cloned());
    list.sort();
    list.dedup();
}

/// `rel`'s entry of `map`, empty when it has none.
fn list<'m>(map: &'m HashMap<String, Vec<String>>, rel: &str) -> &'m [String] {
    map.get(rel).map_or(&[], Vec::as_slice)
}

/// Whether a test may reach other files through `file`: a file of a test tree, or one without a
/// design file of its own (outside the scope roots, grouped, skipped).
pub fn is_helper_candidate(scope: &Scope, file: &str) -> bool {
    is_test_path(file) || !scope.documents(file)
}

impl ReverseIndex {
    /// Build both sides from the scanned files' imports and the cache's. `complete` says the scan
    /// covered the whole tree; otherwise unscanned files keep importing what the cache says.
    pub fn build(scan: &Scan, cache: &Cache, complete: bool, scope: &Scope) -> ReverseIndex {
        let looked_at: HashSet<&str> = scan.files.keys().map(String::as_str).collect();
        let mut index = ReverseIndex {
            new: HashMap::new(),
            old: HashMap::new(),
            new_tests: HashMap::new(),
            old_tests: HashMap::new(),
            unknowable: HashSet::new(),
        };
        let mut helpers_new = HelperImporters {
            scope,
            importers: HashMap::new(),
        };
        let mut helpers_old = HelperImporters {
            scope,
            importers: HashMap::new(),
        };
        let add = |map: &mut HashMap<String, Vec<String>>, file: &str, deps: &[String]| {
            for dep in deps.iter().filter(|dep| looked_at.contains(dep.as_str())) {
                map.entry(dep.clone()).or_default().push(file.to_string());
            }
        };
        let add_helpers = |helpers: &mut HelperImporters<'_>, file: &str, deps: &[String]| {
            for dep in deps.iter().filter(|dep| is_helper_candidate(scope, dep)) {
                helpers
                    .importers
                    .entry(dep.clone())
                    .or_default()
                    .push(file.to_string());
            }
        };
        for (rel, scanned) in &scan.files {
            add(&mut index.new, rel, &scanned.facts.deps);
            add_helpers(&mut helpers_new, rel, &scanned.facts.deps);
        }
        for (rel, entry) in &cache.entries {
            if entry.deps.is_empty() {
                continue;
            }
            add(&mut index.old, rel, &entry.deps);
            add_helpers(&mut helpers_old, rel, &entry.deps);
            let still_there = !scan.orphans.contains(rel) && !scan.files.contains_key(rel);
            if !complete && still_there {
                add(&mut index.new, rel, &entry.deps);
                add_helpers(&mut helpers_new, rel, &entry.deps);
            }
        }
        let maps = index
            .new
            .values_mut()
            .chain(index.old.values_mut())
            .chain(helpers_new.importers.values_mut())
            .chain(helpers_old.importers.values_mut());
        for dependents in maps {
            dependents.sort();
            dependents.dedup();
        }
        for (rel, dependents) in &index.new {
            let tests = helpers_new.tests(dependents);
            if !tests.is_empty() {
                index.new_tests.insert(rel.clone(), tests);
            }
        }
        for (rel, dependents) in &index.old {
            let tests = helpers_old.tests(dependents);
            if !tests.is_empty() {
                index.old_tests.insert(rel.clone(), tests);
            }
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
            let absent_of = |listed: &Listed| -> Vec<String> {
                let shown = listed.shown.iter();
                shown
                    .filter(|path| absent.has_file(path))
                    .cloned()
                    .collect()
            };
            let (dependents, tests) = (absent_of(&recorded.dependents), absent_of(&recorded.tests));
            for map in [&mut self.new, &mut self.old] {
                keep_in(map, rel, &dependents);
            }
            for map in [&mut self.new_tests, &mut self.old_tests] {
                keep_in(map, rel, &tests);
            }
            let (now, tests) = (self.dependents(rel).len(), self.tests(rel).len());
            if !recorded.dependents.adds_up(now) || !recorded.tests.adds_up(tests) {
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
        list(&self.new, rel)
    }

    /// The tests that reach `rel` now, sorted.
    pub fn tests(&self, rel: &str) -> &[String] {
        list(&self.new_tests, rel)
    }

    /// What `rel`'s Dependents and Tests lists show now.
    pub fn importers(&self, rel: &str) -> Importers<'_> {
        Importers {
            dependents: self.dependents(rel),
            tests: self.tests(rel),
        }
    }

    /// Whether `rel`'s importers or tests changed since the last run.
    pub fn moved(&self, rel: &str) -> bool {
        list(&self.old, rel) != self.dependents(rel)
            || list(&self.old_tests, rel) != self.tests(rel)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::update::scanned::{Facts, FileState, Scanned};
    use crate::engine::update::testing::by_path;
    use crate::workspace::cache::{Entry, Stat};

    fn scanned(source: &str, deps: &[&str]) -> Scanned {
        let stat = Stat {
            size: 1,
            mtime_ns: 1,
        };
        let facts = Facts {
            deps: deps.iter().map(|d| d.to_string()).collect(),
            ..Facts::default()
        };
        let state = FileState::Cached {
            description: String::new(),
        };
        Scanned::new(source, stat, facts, state)
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
        let index = ReverseIndex::build(&scan, &cache, true, &Scope::everything());
        assert_eq!(index.dependents("c.rs"), ["a.rs", "b.rs"]);
        assert!(index.moved("c.rs"), "b.rs is a new importer");
        assert!(!index.moved("a.rs"));
    }

    #[test]
    fn an_incomplete_scan_keeps_the_cached_importers_of_files_it_did_not_look_at() {
        let scan = scan_of(vec![scanned("c.rs", &[])]);
        let mut cache = Cache::default();
        cache.entries.insert("a.rs".into(), cached(&["c.rs"]));
        let partial = ReverseIndex::build(&scan, &cache, false, &Scope::everything());
        assert_eq!(partial.dependents("c.rs"), ["a.rs"]);
        assert!(!partial.moved("c.rs"));
        let complete = ReverseIndex::build(&scan, &cache, true, &Scope::everything());
        assert!(complete.dependents("c.rs").is_empty());
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
}
