//! How much each of the top two levels of directories matters, for the order START_HERE shows them
//! in: code directories before tests, tests before docs/examples/benches, dot-directories last; within
//! a class, by the bytes of code below the directory and by its in-degree in the dependency graph
//! (imports from files outside it into files inside it, from the cache's resolved dependencies).

use std::collections::{BTreeMap, HashMap};

use crate::workspace::cache;

/// The weight of one directory.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Weight {
    /// 0 code, 1 tests and tooling, 2 docs/examples/benches, 3 dot-directories.
    pub class: u8,
    pub code_bytes: u64,
    pub in_degree: usize,
}

impl Weight {
    fn score(&self) -> f64 {
        (1.0 + self.code_bytes as f64).ln() + 1.5 * (1.0 + self.in_degree as f64).ln()
    }
}

const TOOLING: &[&str] = &[
    "tests", "test", "testdata", "fixtures", "scripts", "ci", "xtask",
];
const SECONDARY: &[&str] = &[
    "docs",
    "doc",
    "examples",
    "example",
    "benches",
    "bench",
    "benchmarks",
    "website",
    "assets",
];

/// The class of a directory from its path.
pub fn class_of(dir: &str) -> u8 {
    let parts: Vec<&str> = dir.split('/').collect();
    if parts.iter().any(|part| part.starts_with('.')) {
        3
    } else if parts.iter().any(|part| SECONDARY.contains(part)) {
        2
    } else if parts.iter().any(|part| TOOLING.contains(part)) {
        1
    } else {
        0
    }
}

/// `dirs` (project-relative, depth ≤ 2) with their weights, most important first (ties by path).
pub fn rank(dirs: &[String], entries: &BTreeMap<String, cache::Entry>) -> Vec<(String, Weight)> {
    let mut weights: HashMap<&str, Weight> = dirs
        .iter()
        .map(|dir| {
            let weight = Weight {
                class: class_of(dir),
                ..Weight::default()
            };
            (dir.as_str(), weight)
        })
        .collect();
    for (file, entry) in entries {
        if entry.interface_hash.is_some() {
            for dir in ancestors(file) {
                if let Some(weight) = weights.get_mut(dir) {
                    weight.code_bytes += entry.stat.size;
                }
            }
        }
        let inside = ancestors(file);
        for dep in &entry.deps {
            for dir in ancestors(dep)
                .into_iter()
                .filter(|dir| !inside.contains(dir))
            {
                if let Some(weight) = weights.get_mut(dir) {
                    weight.in_degree += 1;
                }
            }
        }
    }
    let mut ranked: Vec<(String, Weight)> = dirs
        .iter()
        .map(|dir| (dir.clone(), weights[dir.as_str()]))
        .collect();
    ranked.sort_by(|(a, wa), (b, wb)| {
        wa.class
            .cmp(&wb.class)
            .then(wb.score().total_cmp(&wa.score()))
            .then(a.cmp(b))
    });
    ranked
}

/// The directories of the top two levels that contain `file`: `a/b/c.rs` → `a`, `a/b`.
fn ancestors(file: &str) -> Vec<&str> {
    file.match_indices('/')
        .take(2)
        .map(|(at, _)| &file[..at])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(size: u64, code: bool, deps: &[&str]) -> cache::Entry {
        cache::Entry {
            stat: cache::Stat { size, mtime_ns: 0 },
            interface_hash: code.then(String::new),
            ..cache::Entry::with_deps(deps)
        }
    }

    #[test]
    fn code_and_dependents_outrank_names_and_dot_directories_come_last() {
        let entries: BTreeMap<String, cache::Entry> = [
            ("benches/b.rs", entry(9_000, true, &["tokio/src/lib.rs"])),
            (".github/ci.rs", entry(9_000, true, &[])),
            ("tokio/src/lib.rs", entry(5_000, true, &[])),
            (
                "tokio-util/src/lib.rs",
                entry(800, true, &["tokio/src/lib.rs"]),
            ),
            ("alpha/notes.txt", entry(50_000, false, &[])),
            ("tests/t.rs", entry(100, true, &["tokio/src/lib.rs"])),
        ]
        .into_iter()
        .map(|(path, entry)| (path.to_string(), entry))
        .collect();
        let dirs: Vec<String> = [
            ".github",
            "alpha",
            "benches",
            "tests",
            "tokio",
            "tokio/src",
            "tokio-util",
        ]
        .iter()
        .map(|d| d.to_string())
        .collect();
        let order: Vec<String> = rank(&dirs, &entries).into_iter().map(|(d, _)| d).collect();
        assert_eq!(
            order,
            [
                "tokio",
                "tokio/src",
                "tokio-util",
                "alpha",
                "tests",
                "benches",
                ".github"
            ]
        );
    }
}
