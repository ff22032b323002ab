//! Python's view of the project: the directories absolute imports are found from (the package
//! roots), the way Python's `sys.path` and the packaging tools would see them.
//!
//! Roots come from `pyproject.toml` (setuptools `package-dir` and `packages.find.where`, hatch
//! wheel `packages`, poetry `packages … from`, pdm `package-dir`, maturin `python-source`) and
//! `setup.cfg` (`package_dir`), from each manifest's directory (flat layouts; `pyproject.toml`,
//! `setup.cfg` or `setup.py`: sibling packages of a monorepo) and its `src/` (src layouts), and
//! from the project root and its `src/`. Namespace packages (no `__init__.py`) resolve from the same
//! roots. A directory a `conftest.py` adds to `sys.path` from its own place (`syspath_prepend`,
//! `sys.path.insert`: [`super::syspath`]) is a root of the tests below it, after the others; one a
//! test adds from elsewhere (a temporary directory) is not known.
//!
//! Only the project's own packages give roots every file imports from. A manifest of a sample
//! project — in test data (`fixtures/`, `resources/`, …) or inside another package's directory
//! (`crates/x/truth/case/pyproject.toml`; `ProjectModel::build` decides, `packages::is_sample`) —
//! is a root for its own files only: a parser test input's `from module import *` never resolves
//! to some unrelated fixture's `module.py`.

use std::collections::BTreeSet;

use serde::Deserialize;

use crate::source::model::ecosystem::EcosystemModel;
use crate::source::model::files::{dir_of, join, normalize, FileIndex, ReadFile};
use crate::source::model::files::{file_name, is_within};
use crate::source::model::packages::{
    existing_dirs, flat_layout_packages, is_sample_dir, CodePackage,
};

/// The directories absolute imports resolve from.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PythonModel {
    /// The roots every file imports from, project-relative (`""` is the project root), sorted.
    pub roots: Vec<String>,
    /// Roots of sample projects: each applies to the files inside it only, sorted.
    #[serde(default)]
    pub local_roots: Vec<String>,
    /// The manifests read.
    pub manifests: Vec<String>,
    /// Each manifest's directory with the package roots it declares or lays out (`src/`), in
    /// manifest order: what `ProjectModel::build` sorts into [`PythonModel::roots`] and
    /// [`PythonModel::local_roots`], and where `packages` finds the project's code.
    #[serde(default)]
    pub packages: Vec<PythonPackage>,
    /// Directories a `conftest.py` adds to `sys.path` (`monkeypatch.syspath_prepend`,
    /// `sys.path.insert`), each for the files below the conftest's directory: pytest runs them
    /// with it. Left out of the serialised model when there are none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub test_roots: Vec<TestRoot>,
}

/// A directory a `conftest.py` puts on `sys.path` for the tests below it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TestRoot {
    /// The conftest's directory: the files it applies to are below it.
    pub scope: String,
    /// The directory added.
    pub root: String,
}

/// One Python distribution of the project: a `pyproject.toml`, `setup.cfg` or `setup.py`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PythonPackage {
    /// The manifest's directory.
    pub dir: String,
    /// The package roots it declares, else its `src/` when that holds Python (a src layout);
    /// empty for a flat layout (the packages sit in `dir`).
    pub roots: Vec<String>,
    /// The name it declares (`[project] name`, poetry's), if any.
    pub name: Option<String>,
    /// Set by `ProjectModel::build`: a sample project (test data, or inside another package).
    #[serde(default)]
    pub sample: bool,
    /// No manifest: the project root, whose directory and `src/` are roots of any layout.
    #[serde(default)]
    pub implicit: bool,
}

impl PythonModel {
    pub fn build(
        files: &FileIndex,
        read: &dyn ReadFile,
        warnings: &mut Vec<String>,
    ) -> PythonModel {
        let mut manifests = Vec::new();
        let mut packages: Vec<PythonPackage> = Vec::new();
        let mut add = |dir: &str, declared: Vec<String>, name: Option<String>| match packages
            .iter_mut()
            .find(|p| p.dir == dir)
        {
            Some(package) => {
                package.roots.extend(declared);
                package.name = package.name.take().or(name);
            }
            None => packages.push(PythonPackage {
                dir: dir.to_string(),
                roots: declared,
                name,
                sample: false,
                implicit: false,
            }),
        };
        for path in files.named("pyproject.toml") {
            let Some(text) = read.read(path) else {
                continue;
            };
            manifests.push(path.to_string());
            let dir = dir_of(path);
            match toml::from_str::<PyProject>(&text) {
                Ok(pyproject) => add(dir, pyproject.declared_roots(dir), pyproject.name()),
                Err(err) => {
                    warnings.push(format!(
                        "{path}: not a readable pyproject.toml: {}",
                        err.to_string().lines().next().unwrap_or_default()
                    ));
                    add(dir, Vec::new(), None);
                }
            }
        }
        for path in files.named("setup.cfg") {
            let Some(text) = read.read(path) else {
                continue;
            };
            manifests.push(path.to_string());
            add(
                dir_of(path),
                setup_cfg_root(dir_of(path), &text).into_iter().collect(),
                None,
            );
        }
        for path in files.named("setup.py") {
            add(dir_of(path), Vec::new(), None);
        }
        if !packages.iter().any(|package| package.dir.is_empty()) {
            packages.push(PythonPackage {
                implicit: true,
                ..PythonPackage::default()
            });
        }
        for package in &mut packages {
            let src = join(&package.dir, "src");
            if files.under(&src).any(|file| file.ends_with(".py")) {
                package.roots.push(src);
            }
            package.roots.sort();
            package.roots.dedup();
        }
        packages.sort_by(|a, b| a.dir.cmp(&b.dir));
        manifests.sort();
        let mut test_roots = Vec::new();
        for path in files.named("conftest.py") {
            let Some(text) = read.read(path) else {
                continue;
            };
            for root in super::syspath::added_roots(path, &text) {
                test_roots.push(TestRoot {
                    scope: dir_of(path).to_string(),
                    root,
                });
            }
        }
        let mut model = PythonModel {
            roots: Vec::new(),
            local_roots: Vec::new(),
            manifests,
            packages,
            test_roots,
        };
        model.sort_roots();
        model
    }

    /// Sort the packages' roots into [`PythonModel::roots`] (the project's) and
    /// [`PythonModel::local_roots`] (sample projects'), once [`PythonPackage::sample`] is known.
    pub fn sort_roots(&mut self) {
        let mut roots: BTreeSet<String> = BTreeSet::from([String::new()]);
        let mut local = BTreeSet::new();
        for package in &self.packages {
            let mut own = vec![package.dir.clone()];
            own.extend(package.roots.iter().cloned());
            match package.sample {
                true => local.extend(own),
                false => roots.extend(own),
            }
        }
        local.retain(|root| !roots.contains(root));
        self.roots = roots.into_iter().collect();
        self.local_roots = local.into_iter().collect();
    }

    /// The roots an absolute import in `file` is looked up from, in order: the directory Python or
    /// pytest puts first on `sys.path` for it (the first ancestor that is not a package), then the
    /// roots that contain the file (deepest first; a sample project's own roots among them), then
    /// the directories a `conftest.py` above it adds to `sys.path`, then every root of the
    /// project (by path).
    pub fn roots_for(&self, file: &str, exists: &dyn Fn(&str) -> bool) -> Vec<String> {
        let mut out = vec![script_root(file, exists)];
        let mut containing: Vec<&String> = self
            .roots
            .iter()
            .chain(&self.local_roots)
            .filter(|root| crate::source::model::files::is_within(file, root))
            .collect();
        containing.sort_by_key(|root| std::cmp::Reverse(root.len()));
        out.extend(containing.into_iter().cloned());
        let added = self
            .test_roots
            .iter()
            .filter(|added| is_within(file, &added.scope));
        out.extend(added.map(|added| added.root.clone()));
        out.extend(self.roots.iter().cloned());
        let mut seen = BTreeSet::new();
        out.retain(|root| seen.insert(root.clone()));
        out
    }
}

/// The first ancestor directory of `file` that is not a package (has no `__init__.py`): where
/// `python file.py` and pytest's default import mode put `sys.path[0]`.
fn script_root(file: &str, exists: &dyn Fn(&str) -> bool) -> String {
    let mut dir = dir_of(file);
    while !dir.is_empty() && exists(&join(dir, "__init__.py")) {
        dir = dir_of(dir);
    }
    dir.to_string()
}

/// `package_dir = =src` in `[options]` of a `setup.cfg`.
fn setup_cfg_root(dir: &str, text: &str) -> Option<String> {
    let mut in_options = false;
    let mut in_package_dir = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if trimmed.starts_with('[') {
            in_options = trimmed == "[options]";
            in_package_dir = false;
            continue;
        }
        if !in_options {
            continue;
        }
        if let Some((key, value)) = trimmed
            .split_once('=')
            .filter(|_| !line.starts_with([' ', '\t']))
        {
            in_package_dir = key.trim() == "package_dir";
            if in_package_dir {
                if let Some(root) = value.trim().strip_prefix('=') {
                    return normalize(dir, root.trim());
                }
            }
        } else if in_package_dir {
            if let Some(root) = trimmed.strip_prefix('=') {
                return normalize(dir, root.trim());
            }
        }
    }
    None
}

/// The parts of `pyproject.toml` that say where packages live.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct PyProject {
    tool: Tools,
    project: Option<ProjectTable>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct ProjectTable {
    name: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Tools {
    setuptools: Option<toml::Value>,
    hatch: Option<toml::Value>,
    poetry: Option<toml::Value>,
    pdm: Option<toml::Value>,
    maturin: Option<toml::Value>,
}

impl PyProject {
    /// The distribution's name: `[project] name`, else poetry's.
    fn name(&self) -> Option<String> {
        let poetry = self
            .tool
            .poetry
            .as_ref()
            .and_then(|p| p.get("name")?.as_str());
        self.project
            .as_ref()
            .and_then(|p| p.name.clone())
            .or(poetry.map(str::to_string))
            .filter(|name| !name.is_empty())
    }

    fn declared_roots(&self, dir: &str) -> Vec<String> {
        let tools = &self.tool;
        let mut written: Vec<String> = Vec::new();
        if let Some(setuptools) = &tools.setuptools {
            written.extend(strings(lookup(setuptools, &["packages", "find", "where"])));
            written.extend(strings(lookup(setuptools, &["package-dir", ""])));
        }
        if let Some(hatch) = &tools.hatch {
            let packages = lookup(hatch, &["build", "targets", "wheel", "packages"]);
            written.extend(
                strings(packages)
                    .iter()
                    .map(|package| dir_of(package).to_string()),
            );
        }
        if let Some(poetry) = &tools.poetry {
            if let Some(toml::Value::Array(packages)) = lookup(poetry, &["packages"]) {
                written.extend(
                    packages
                        .iter()
                        .filter_map(|p| p.get("from")?.as_str().map(String::from)),
                );
            }
        }
        if let Some(pdm) = &tools.pdm {
            written.extend(strings(lookup(pdm, &["build", "package-dir"])));
        }
        if let Some(maturin) = &tools.maturin {
            written.extend(strings(lookup(maturin, &["python-source"])));
        }
        written
            .iter()
            .filter_map(|root| normalize(dir, root))
            .collect()
    }
}

fn lookup<'a>(value: &'a toml::Value, keys: &[&str]) -> Option<&'a toml::Value> {
    keys.iter().try_fold(value, |value, key| value.get(key))
}

/// A string or an array of strings.
fn strings(value: Option<&toml::Value>) -> Vec<String> {
    match value {
        Some(toml::Value::String(one)) => vec![one.clone()],
        Some(toml::Value::Array(many)) => many
            .iter()
            .filter_map(|v| v.as_str().map(String::from))
            .collect(),
        _ => Vec::new(),
    }
}

impl EcosystemModel for PythonModel {
    const ECOSYSTEM: &'static str = "python";

    fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        PythonModel::build(files, read, warnings)
    }

    /// The packaging manifests, and `conftest.py`: the directories it adds to `sys.path` are
    /// roots of the tests below it.
    fn is_manifest(name: &str) -> bool {
        matches!(name, "pyproject.toml" | "setup.cfg" | "conftest.py")
    }

    /// A package's `__init__.py`: its existence makes a directory a package.
    fn shaped_by(path: &str) -> bool {
        file_name(path) == "__init__.py"
    }

    fn is_empty(&self) -> bool {
        *self == PythonModel::default()
    }

    fn package_dirs(&self) -> Vec<String> {
        self.packages.iter().map(|p| p.dir.clone()).collect()
    }

    /// Mark sample projects among the distributions (test data, demos, or inside another
    /// package's directory, of any ecosystem) and sort the roots accordingly.
    fn settle(&mut self, package_dirs: &[String]) {
        for package in &mut self.packages {
            let nested = package_dirs.iter().any(|other| {
                !other.is_empty() && other != &package.dir && is_within(&package.dir, other)
            });
            package.sample = nested || is_sample_dir(&package.dir);
        }
        self.sort_roots();
    }

    /// The distributions that are not samples, with their package roots and tests.
    fn code_packages(&self, files: &FileIndex) -> Vec<CodePackage> {
        self.packages
            .iter()
            .filter(|package| !package.sample && !package.implicit)
            .map(|package| {
                let mut roots = package.roots.clone();
                if roots.is_empty() {
                    roots = match package.dir.as_str() {
                        "" => flat_layout_packages(files, package.name.as_deref()),
                        dir => vec![dir.to_string()],
                    };
                }
                roots.extend(existing_dirs(files, &package.dir, &["tests", "test"]));
                CodePackage::new(
                    Self::ECOSYSTEM,
                    package.name.as_deref(),
                    &package.dir,
                    roots,
                )
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(files: &[(&str, &str)]) -> (PythonModel, FileIndex) {
        let (model, index, _) = crate::source::model::build_from(files, PythonModel::build);
        (model, index)
    }

    #[test]
    fn src_layouts_sibling_packages_and_declared_roots() {
        let (m, files) = model(&[
            (
                "pyproject.toml",
                "[tool.setuptools.packages.find]\nwhere = [\"lib\"]\n",
            ),
            ("src/app/__init__.py", ""),
            ("src/app/core.py", ""),
            ("packages/tools/tools/__init__.py", ""),
            ("packages/lib2/setup.py", ""),
            ("packages/lib2/src/lib2/__init__.py", ""),
            ("lib/ns/mod.py", ""),
            ("tests/test_app.py", ""),
            ("sub/setup.cfg", "[options]\npackage_dir =\n    =python\n"),
        ]);
        assert_eq!(
            m.roots,
            [
                "",
                "lib",
                "packages/lib2",
                "packages/lib2/src",
                "src",
                "sub",
                "sub/python"
            ]
        );
        let exists = |rel: &str| files.contains(rel);
        assert_eq!(m.roots_for("tests/test_app.py", &exists)[0], "tests");
        assert_eq!(m.roots_for("src/app/core.py", &exists)[..2], ["src", ""]);
    }
}
