//! The project's whole dependency graph and every code file's public names, as the last
//! `lexictl update` resolved them. They are read from the stat/hash cache ([`super::cache`]), which
//! keeps the resolved dependencies and the public item names of every file in scope, whole and
//! sorted.
//!
//! Design files hold the same lists only within `token_budgets.design_file_tokens` (a capped list
//! ends `… and N more`); `lexi impact` and `lexi lookup --full` read the graph here instead. It is as
//! current as the last update, like the library. A clone that never ran `lexictl update` (or whose
//! cache is unreadable or from another format) has no graph: [`Graph::load`] says `None` and the
//! readers fall back to the design files.

use std::collections::HashMap;
use std::path::Path;

use super::cache::Cache;

/// The dependency graph of the last update.
#[derive(Clone, Debug, Default)]
pub struct Graph {
    /// Each known file's resolved project dependencies, sorted.
    dependencies: HashMap<String, Vec<String>>,
    /// Each imported file's importers, sorted.
    dependents: HashMap<String, Vec<String>>,
    /// Each code file's public item names, sorted.
    symbols: HashMap<String, Vec<String>>,
    /// Each code file's external packages, sorted.
    externals: HashMap<String, Vec<String>>,
    /// Each file's dependencies imported only for the type checker, sorted (a subset of its
    /// dependencies): edges that exist for the type checker, not at run time.
    type_only: HashMap<String, Vec<String>>,
}

impl Graph {
    /// The graph in the cache at `cache_path` (`StateDir::cache_path`); `None` when there is no
    /// cache, or it is unreadable, corrupt, of another format or empty.
    pub fn load(cache_path: &Path) -> Option<Graph> {
        let (cache, warning) = Cache::load(cache_path);
        if warning.is_some() || cache.entries.is_empty() {
            return None;
        }
        Some(Graph::from_cache(cache))
    }

    /// The graph of a loaded cache.
    pub fn from_cache(cache: Cache) -> Graph {
        let mut graph = Graph::default();
        for (file, entry) in cache.entries {
            for dependency in &entry.deps {
                graph
                    .dependents
                    .entry(dependency.clone())
                    .or_default()
                    .push(file.clone());
            }
            if !entry.symbols.is_empty() {
                graph.symbols.insert(file.clone(), entry.symbols);
            }
            if !entry.externals.is_empty() {
                graph.externals.insert(file.clone(), entry.externals);
            }
            if !entry.type_deps.is_empty() {
                graph.type_only.insert(file.clone(), entry.type_deps);
            }
            graph.dependencies.insert(file, entry.deps);
        }
        for importers in graph.dependents.values_mut() {
            // Entries come in path order: already sorted; a file importing itself is no dependent.
            importers.dedup();
        }
        for (file, importers) in graph.dependents.iter_mut() {
            importers.retain(|importer| importer != file);
        }
        graph
    }

    /// Whether the last update saw `file` (only then are its lists here the whole truth).
    pub fn knows(&self, file: &str) -> bool {
        self.dependencies.contains_key(file)
    }

    /// The project files `file` imports, sorted.
    pub fn dependencies(&self, file: &str) -> &[String] {
        self.dependencies.get(file).map_or(&[], Vec::as_slice)
    }

    /// The files that import `file`, sorted.
    pub fn dependents(&self, file: &str) -> &[String] {
        self.dependents.get(file).map_or(&[], Vec::as_slice)
    }

    /// The project files `file` imports only for the type checker (Python `if TYPE_CHECKING:`),
    /// sorted.
    pub fn type_only_dependencies(&self, file: &str) -> &[String] {
        self.type_only.get(file).map_or(&[], Vec::as_slice)
    }

    /// Whether `importer` imports `file` only for the type checker: a change to `file` does not
    /// reach `importer` at run time.
    pub fn is_type_only(&self, importer: &str, file: &str) -> bool {
        self.type_only_dependencies(importer)
            .binary_search_by(|dep| dep.as_str().cmp(file))
            .is_ok()
    }

    /// The test files among the dependents of `file` (as the Archivist's `## Tests` lists them).
    pub fn tests(&self, file: &str) -> Vec<String> {
        self.dependents(file)
            .iter()
            .filter(|path| crate::archivist::is_listed_test(path))
            .cloned()
            .collect()
    }

    /// The external packages code file `file` imports, sorted (empty when unknown).
    pub fn externals(&self, file: &str) -> &[String] {
        self.externals.get(file).map_or(&[], Vec::as_slice)
    }

    /// The public item names of code file `file`, sorted.
    pub fn symbols(&self, file: &str) -> &[String] {
        self.symbols.get(file).map_or(&[], Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::cache::Entry;

    fn entry(deps: &[&str], symbols: &[&str]) -> Entry {
        Entry {
            symbols: symbols.iter().map(|s| s.to_string()).collect(),
            ..Entry::with_deps(deps)
        }
    }

    #[test]
    fn dependents_are_the_reverse_of_dependencies() {
        let mut cache = Cache::default();
        cache
            .entries
            .insert("src/b.rs".into(), entry(&["src/a.rs"], &[]));
        cache.entries.insert(
            "src/a.rs".into(),
            Entry {
                type_deps: vec!["src/c.rs".into()],
                ..entry(&["src/a.rs", "src/c.rs"], &["parse"])
            },
        );
        cache
            .entries
            .insert("tests/a_test.rs".into(), entry(&["src/a.rs"], &[]));
        cache.entries.insert("src/c.rs".into(), entry(&[], &[]));
        let graph = Graph::from_cache(cache);
        assert_eq!(
            graph.dependents("src/a.rs"),
            ["src/b.rs", "tests/a_test.rs"]
        );
        assert_eq!(graph.dependents("src/c.rs"), ["src/a.rs"]);
        assert_eq!(graph.dependencies("src/a.rs"), ["src/a.rs", "src/c.rs"]);
        assert_eq!(graph.tests("src/a.rs"), ["tests/a_test.rs"]);
        assert_eq!(graph.symbols("src/a.rs"), ["parse"]);
        assert!(graph.is_type_only("src/a.rs", "src/c.rs"));
        assert!(!graph.is_type_only("src/b.rs", "src/a.rs"));
        assert_eq!(graph.type_only_dependencies("src/a.rs"), ["src/c.rs"]);
        assert!(graph.knows("src/c.rs") && !graph.knows("src/d.rs"));
    }

    #[test]
    fn no_cache_means_no_graph() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert!(Graph::load(&dir.path().join("cache")).is_none());
        std::fs::write(dir.path().join("cache"), "lexibrarian-cache v1\t0\n").expect("write");
        assert!(Graph::load(&dir.path().join("cache")).is_none());
    }
}
