//! The project's packages as their manifests declare them — Cargo packages (workspace members and
//! the root package), npm/yarn/pnpm workspace packages and the root package, Python distributions
//! — and the directories that hold their code and tests: what `lexictl init` puts in scope, what
//! `lexictl setup --update` adds to an older scope, and what `lexictl status` and `validate` count
//! when code is left out of it.
//!
//! A package's directories: a package in its own directory is that directory whole (its tests,
//! benches and examples with it); the root package is its targets' directories (Cargo: `src/`,
//! `tests/`, `examples/`, `benches/`, `build.rs`; a facade's members come on their own), its
//! conventional source and test directories (npm: `src/`, `lib/`, `test/` …, or the whole project
//! when its entry point sits at the root: what `require('..')` loads), or its Python package roots
//! (a src layout's `src/`, a flat layout's package named for the distribution, declared roots) with
//! `tests/`.
//!
//! A manifest in test data (`fixtures/`, `testdata/`, `resources/` outside `src/`, `samples/` in a
//! test tree, …) or inside another package's directory without being a workspace member of it is a
//! *sample project* (a parser's test input, an example app): no package of the project.

use std::collections::BTreeSet;

use super::files::{dir_of, file_name, is_within, join, FileIndex};
use crate::source::lang::files::{package_entries, TEST_DIRS};

/// One package of the project and the directories (or files) that hold its code and tests.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CodePackage {
    /// The ecosystem that declared it ([`super::EcosystemModel::ECOSYSTEM`]: "cargo", "node",
    /// "python").
    pub ecosystem: &'static str,
    /// Its name (the manifest's), else its directory.
    pub name: String,
    /// The directory of its manifest (`""`: the project root).
    pub dir: String,
    /// Project-relative directories or files holding its code and tests (`""`: the whole
    /// project), sorted.
    pub roots: Vec<String>,
}

impl CodePackage {
    /// The package of `ecosystem` whose manifest is in `dir`, named `name` (else by its
    /// directory), holding `roots` (made minimal: none inside another).
    pub fn new(ecosystem: &'static str, name: Option<&str>, dir: &str, roots: Vec<String>) -> Self {
        CodePackage {
            ecosystem,
            name: name.unwrap_or(dir).to_string(),
            dir: dir.to_string(),
            roots: minimal(roots),
        }
    }
}

/// Directory names that hold test data wherever they are.
const TEST_DATA_DIRS: &[&str] = &[
    "fixtures",
    "fixture",
    "__fixtures__",
    "testdata",
    "test-data",
    "test_data",
    "__snapshots__",
    "snapshots",
];
/// Directory names that hold test data inside a test directory (`tests/**/samples/`).
const TEST_TREE_DATA_DIRS: &[&str] = &["samples", "sample", "cases", "data", "inputs", "corpus"];
/// Directories whose manifests are demos, not packages of the project.
const SAMPLE_DIRS: &[&str] = &["examples", "example", "docs", "doc", "docs_src"];
/// Conventional source directories of a root package without a better declaration.
pub const SOURCE_DIRS: &[&str] = &["src", "lib", "app", "bin"];
/// Python top-level directories that are never the distribution's own package (setuptools'
/// flat-layout discovery leaves them out too).
const NOT_PYTHON_PACKAGES: &[&str] = &[
    "tests",
    "test",
    "docs",
    "doc",
    "docs_src",
    "examples",
    "example",
    "scripts",
    "tools",
    "benchmarks",
    "bench",
    "build",
    "dist",
];

/// Whether directory `dir` (project-relative) is test data or inside it: a [`TEST_DATA_DIRS`]
/// component anywhere, `resources/` outside a `src/` directory, or a [`TEST_TREE_DATA_DIRS`]
/// component below a test directory.
pub fn is_test_data(dir: &str) -> bool {
    let parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    parts.iter().enumerate().any(|(at, part)| {
        let lower = part.to_ascii_lowercase();
        let below = |names: &[&str]| {
            parts[..at]
                .iter()
                .any(|p| names.contains(&p.to_ascii_lowercase().as_str()))
        };
        TEST_DATA_DIRS.contains(&lower.as_str())
            || (lower == "resources" && !below(&["src"]))
            || (TEST_TREE_DATA_DIRS.contains(&lower.as_str()) && below(TEST_DIRS))
    })
}

/// The directories (or files) to document so that every package's code is in scope: the union of
/// the packages' roots, none inside another, sorted (`[""]`: the whole project). Empty when the
/// project has no package.
/// A directory every file of which the roots cover is written as itself (ruff's fifty
/// `crates/*` members are `crates/`), the project root never.
pub fn scope_roots(packages: &[CodePackage], files: &FileIndex) -> Vec<String> {
    let mut roots = minimal(
        packages
            .iter()
            .flat_map(|p| p.roots.iter().cloned())
            .collect(),
    );
    loop {
        let parents: BTreeSet<String> = roots
            .iter()
            .filter(|root| root.contains('/'))
            .map(|root| dir_of(root).to_string())
            .collect();
        let covered = |parent: &String| {
            files
                .under(parent)
                .all(|file| roots.iter().any(|root| is_within(file, root)))
        };
        let Some(parent) = parents.iter().find(|parent| covered(parent)) else {
            return roots;
        };
        let parent = parent.clone();
        roots.retain(|root| !is_within(root, &parent));
        roots.push(parent);
        roots.sort();
    }
}

/// The code files of `packages` (files in a language Lexibrarian parses) among `files` that
/// `in_scope` leaves out, in path order, with the package each belongs to.
pub fn code_out_of_scope<'a>(
    packages: &'a [CodePackage],
    files: impl Iterator<Item = &'a str>,
    in_scope: &dyn Fn(&str) -> bool,
) -> Vec<(&'a str, &'a CodePackage)> {
    let mut out = Vec::new();
    for file in files {
        if crate::source::Language::from_path(std::path::Path::new(file)).is_none()
            || in_scope(file)
            || is_test_data(dir_of(file))
        {
            continue;
        }
        let owner = packages
            .iter()
            .filter(|package| package.roots.iter().any(|root| is_within(file, root)))
            .max_by_key(|package| package.dir.len());
        if let Some(owner) = owner {
            out.push((file, owner));
        }
    }
    out
}

/// Whether a manifest in `dir` is a demo or test data rather than a package of the project.
pub fn is_sample_dir(dir: &str) -> bool {
    is_test_data(dir)
        || dir
            .split('/')
            .any(|part| SAMPLE_DIRS.contains(&part.to_ascii_lowercase().as_str()))
}

/// Whether `dir` lies strictly inside another non-root package directory of `dirs`.
pub fn nested_in(dir: &str, dirs: &[&str]) -> bool {
    dirs.iter()
        .any(|other| !other.is_empty() && *other != dir && is_within(dir, other))
}

/// The first component of a path (`src` of `src/lib.rs`); a file at the top level stays whole
/// (`build.rs`), but a crate root there (`lib.rs`) keeps its modules beside it: the whole project.
pub fn top_component(path: &str) -> String {
    match path.split_once('/') {
        Some((first, _)) => first.to_string(),
        None if path == "build.rs" => path.to_string(),
        None => String::new(),
    }
}

/// Those of `names` that are directories holding files under `dir`.
pub fn existing_dirs(files: &FileIndex, dir: &str, names: &[&str]) -> Vec<String> {
    names
        .iter()
        .map(|name| join(dir, name))
        .filter(|sub| files.under(sub).next().is_some())
        .collect()
}

/// A single package at the root of the project: the whole project when its entry point sits at
/// the root (what `require('..')` loads), else its conventional source and test directories, else
/// the whole project.
pub fn root_package_roots(files: &FileIndex) -> Vec<String> {
    if package_entries().any(|file| files.contains(file)) {
        return vec![String::new()];
    }
    let sources = existing_dirs(files, "", SOURCE_DIRS);
    if sources.is_empty() {
        return vec![String::new()];
    }
    sources
        .into_iter()
        .chain(existing_dirs(files, "", TEST_DIRS))
        .collect()
}

/// A flat layout at the root: the package named for the distribution (`fastapi/` of `fastapi`),
/// else every top-level package (a directory with `__init__.py`) that is no test, doc or tool
/// directory, else the whole project.
pub fn flat_layout_packages(files: &FileIndex, name: Option<&str>) -> Vec<String> {
    let packages: Vec<String> = files
        .subdirs("")
        .into_iter()
        .filter(|dir| files.contains(&join(dir, "__init__.py")))
        .collect();
    let wanted = name.map(|name| name.to_ascii_lowercase().replace(['-', '.'], "_"));
    if let Some(named) = packages
        .iter()
        .find(|dir| Some(dir.to_ascii_lowercase()) == wanted)
    {
        return vec![named.clone()];
    }
    let own: Vec<String> = packages
        .into_iter()
        .filter(|dir| !NOT_PYTHON_PACKAGES.contains(&dir.to_ascii_lowercase().as_str()))
        .collect();
    let modules: Vec<String> = files
        .in_dir("")
        .filter(|file| file.ends_with(".py") && file_name(file) != "setup.py")
        .map(str::to_string)
        .collect();
    match (own.is_empty(), modules.is_empty()) {
        (true, true) => vec![String::new()],
        _ => own.into_iter().chain(modules).collect(),
    }
}

/// `roots` without duplicates and without any root inside another, sorted; `""` swallows all.
pub fn minimal(roots: Vec<String>) -> Vec<String> {
    let set: BTreeSet<String> = roots.into_iter().collect();
    if set.contains("") {
        return vec![String::new()];
    }
    set.iter()
        .filter(|root| {
            !set.iter()
                .any(|other| other != *root && is_within(root, other))
        })
        .cloned()
        .collect()
}
