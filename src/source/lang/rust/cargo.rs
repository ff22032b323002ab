//! Cargo's view of the project's Rust code, read from every `Cargo.toml` the way cargo reads them:
//! packages (name, `[lib]` name and path), their targets (`[[bin]]`, `[[test]]`, `[[bench]]`,
//! `[[example]]` paths and cargo's auto-discovery of `src/main.rs`, `src/bin/*`, `tests/*.rs`,
//! `benches/`, `examples/`, `build.rs`) and their path dependencies (renames, `workspace = true`
//! entries of the workspace root, and registry or git dependencies the workspace root's `[patch]`
//! replaces with a path: tokio's `tokio-stream` depends on crates.io `tokio`, which the root
//! `[patch.crates-io]` points at the `tokio/` member). Resolvers ask it which crate root a file belongs to and which
//! library a crate name means from a given file.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::source::model::ecosystem::EcosystemModel;
use crate::source::model::files::{
    dir_of, glob_matches, is_within, join, normalize, FileIndex, ReadFile,
};
use crate::source::model::packages::{
    existing_dirs, is_sample_dir, is_test_data, nested_in, top_component, CodePackage,
};

/// What a target builds.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum TargetKind {
    Lib,
    Bin,
    Test,
    Bench,
    Example,
    Build,
}

/// One crate: a target's root file and the package it belongs to.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Target {
    pub package: usize,
    pub kind: TargetKind,
    /// The crate's root file (`src/lib.rs`, `crates/core/main.rs`, `tests/it/main.rs`).
    pub root: String,
}

impl Target {
    /// The directory the crate's top-level modules live in: the root file's directory.
    pub fn dir(&self) -> &str {
        dir_of(&self.root)
    }
}

/// One package.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Package {
    pub name: String,
    /// The directory of its `Cargo.toml`.
    pub dir: String,
    /// The name code uses for its library (`[lib] name`, else the package name with `-` → `_`).
    pub lib_name: String,
    /// Index of its library target, if it has one.
    pub lib: Option<usize>,
    /// Crate names usable in its code → the package they name (path dependencies within the project).
    pub deps: BTreeMap<String, usize>,
    /// Crate names usable in its code → the dependency key its manifest declares them under, for
    /// every dependency that is no package of the project (crates.io, git, a path outside it).
    #[serde(default)]
    pub externals: BTreeMap<String, String>,
    /// A workspace member (or root): its workspace's `members` list it and `exclude` does not.
    /// A package outside any workspace is its own.
    #[serde(default)]
    pub member: bool,
}

/// Every package and target of the project.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CargoModel {
    pub packages: Vec<Package>,
    pub targets: Vec<Target>,
    /// The manifests read.
    pub manifests: Vec<String>,
}

impl CargoModel {
    /// Read every `Cargo.toml` among `files`. Manifests that do not parse are skipped with a warning.
    pub fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> CargoModel {
        let mut manifests: BTreeMap<String, Manifest> = BTreeMap::new();
        for path in files.named("Cargo.toml") {
            let Some(text) = read.read(path) else {
                continue;
            };
            match toml::from_str::<Manifest>(&text) {
                Ok(manifest) => {
                    manifests.insert(path.to_string(), manifest);
                }
                Err(err) => warnings.push(format!(
                    "{path}: not a readable Cargo manifest: {}",
                    first_line(&err.to_string())
                )),
            }
        }
        let mut model = CargoModel {
            manifests: manifests.keys().cloned().collect(),
            ..CargoModel::default()
        };
        let package_of_dir = model.add_packages(files, &manifests);
        model.link_dependencies(&manifests, &package_of_dir);
        model.targets.sort_by(|a, b| {
            (a.dir().len(), &a.root)
                .cmp(&(b.dir().len(), &b.root))
                .reverse()
        });
        for (index, target) in model.targets.iter().enumerate() {
            if target.kind == TargetKind::Lib {
                model.packages[target.package].lib = Some(index);
            }
        }
        model
    }

    /// Add a package (with its targets) for every manifest with a `[package]`; returns dir → index.
    fn add_packages(
        &mut self,
        files: &FileIndex,
        manifests: &BTreeMap<String, Manifest>,
    ) -> BTreeMap<String, usize> {
        let mut package_of_dir = BTreeMap::new();
        for (path, manifest) in manifests {
            let Some(package) = &manifest.package else {
                continue;
            };
            let dir = dir_of(path).to_string();
            let index = self.packages.len();
            let lib_name = manifest
                .lib
                .as_ref()
                .and_then(|lib| lib.name.clone())
                .unwrap_or_else(|| package.name.replace('-', "_"));
            self.packages.push(Package {
                name: package.name.clone(),
                dir: dir.clone(),
                lib_name,
                lib: None,
                deps: BTreeMap::new(),
                externals: BTreeMap::new(),
                member: is_member(&dir, manifest, manifests),
            });
            for (kind, root) in targets(files, &dir, package, manifest) {
                self.targets.push(Target {
                    package: index,
                    kind,
                    root,
                });
            }
            package_of_dir.insert(dir, index);
        }
        package_of_dir
    }

    /// Record every package's path dependencies under the name its code uses for them.
    fn link_dependencies(
        &mut self,
        manifests: &BTreeMap<String, Manifest>,
        package_of_dir: &BTreeMap<String, usize>,
    ) {
        for (path, manifest) in manifests {
            let dir = dir_of(path);
            let Some(&index) = package_of_dir.get(dir) else {
                continue;
            };
            let workspace = workspace_of(dir, manifest, manifests);
            // Cargo reads `[patch]` from the workspace root only (the package's own manifest
            // outside a workspace).
            let patch = match &workspace {
                Some((root, _)) => manifests
                    .get(&join(root, "Cargo.toml"))
                    .map(|root_manifest| (root.as_str(), &root_manifest.patch)),
                None => Some((dir, &manifest.patch)),
            };
            let workspace = workspace
                .as_ref()
                .map(|(root, table)| (root.as_str(), *table));
            for (key, value) in manifest.all_dependencies() {
                let project_package = dependency(dir, key, value, workspace)
                    .or_else(|| patched(key, value, workspace, patch?))
                    .and_then(|dep| Some((package_of_dir.get(&dep.dir).copied()?, dep)));
                let Some((target, dep)) = project_package else {
                    let externals = &mut self.packages[index].externals;
                    externals.insert(key.replace('-', "_"), key.clone());
                    continue;
                };
                let code_name = match dep.renamed {
                    true => key.replace('-', "_"),
                    false => self.packages[target].lib_name.clone(),
                };
                self.packages[index].deps.insert(code_name, target);
            }
        }
    }

    /// The crate `file` belongs to: the target that has it as its root, else the target whose root
    /// directory is the deepest one containing it (a library before a binary in the same directory).
    pub fn target_of(&self, file: &str) -> Option<&Target> {
        if let Some(root) = self.targets.iter().find(|target| target.root == file) {
            return Some(root);
        }
        // Targets are sorted deepest directory first. A build script is a crate of one file.
        let dir = dir_of(file);
        let deepest = self
            .targets
            .iter()
            .find(|target| target.kind != TargetKind::Build && is_within(dir, target.dir()))?;
        self.targets
            .iter()
            .filter(|target| {
                target.kind != TargetKind::Build
                    && target.dir() == deepest.dir()
                    && target.package == deepest.package
            })
            .min_by_key(|target| (target.kind, &target.root))
    }

    /// The library a crate name means in `file`'s code: a path dependency of its package, or its
    /// own package's library (from a binary, test, bench or example).
    pub fn crate_named(&self, file: &str, name: &str) -> Option<&Target> {
        let target = self.target_of(file)?;
        let package = &self.packages[target.package];
        let named = match package.deps.get(name) {
            Some(&dep) => dep,
            None if package.lib_name == name && target.kind != TargetKind::Lib => target.package,
            None => return None,
        };
        self.packages[named].lib.map(|lib| &self.targets[lib])
    }

    /// The dependency key of the external crate code in `file` names `name` (`serde_json` for
    /// `use serde_json::Value`): a dependency of `file`'s package that is no project package.
    pub fn external_crate(&self, file: &str, name: &str) -> Option<&str> {
        let target = self.target_of(file)?;
        let package = &self.packages[target.package];
        package.externals.get(name).map(String::as_str)
    }

    /// Whether the project has any Rust package.
    pub fn is_empty(&self) -> bool {
        self.packages.is_empty()
    }
}

/// The roots of a package's targets: declared ones, then what cargo discovers by itself.
fn targets(
    files: &FileIndex,
    dir: &str,
    package: &PackageSection,
    manifest: &Manifest,
) -> Vec<(TargetKind, String)> {
    let mut out = Vec::new();
    let at = |rel: &str| normalize(dir, rel).filter(|path| files.contains(path));
    let lib_path = manifest
        .lib
        .as_ref()
        .and_then(|lib| lib.path.as_deref())
        .unwrap_or("src/lib.rs");
    out.extend(at(lib_path).map(|root| (TargetKind::Lib, root)));
    let declared: [(TargetKind, &Vec<TargetSection>, &str, bool); 4] = [
        (TargetKind::Bin, &manifest.bin, "src/bin", package.autobins),
        (TargetKind::Test, &manifest.test, "tests", package.autotests),
        (
            TargetKind::Bench,
            &manifest.bench,
            "benches",
            package.autobenches,
        ),
        (
            TargetKind::Example,
            &manifest.example,
            "examples",
            package.autoexamples,
        ),
    ];
    for (kind, sections, auto_dir, auto) in declared {
        for section in sections {
            let path = section.path.clone().or_else(|| {
                let name = section.name.as_deref()?;
                let candidates = match kind {
                    TargetKind::Bin if name == package.name => vec!["src/main.rs".to_string()],
                    _ => vec![
                        format!("{auto_dir}/{name}.rs"),
                        format!("{auto_dir}/{name}/main.rs"),
                    ],
                };
                candidates.into_iter().find(|c| at(c).is_some())
            });
            out.extend(path.and_then(|path| at(&path)).map(|root| (kind, root)));
        }
        if auto {
            out.extend(discovered(files, &join(dir, auto_dir)).map(|root| (kind, root)));
        }
    }
    if package.autobins {
        out.extend(at("src/main.rs").map(|root| (TargetKind::Bin, root)));
    }
    let build = match &package.build {
        Some(toml::Value::String(path)) => at(path),
        Some(toml::Value::Boolean(false)) => None,
        _ => at("build.rs"),
    };
    out.extend(build.map(|root| (TargetKind::Build, root)));
    out.sort();
    out.dedup_by(|a, b| a.1 == b.1);
    out
}

/// Cargo's auto-discovered targets in `dir`: `dir/*.rs` and `dir/*/main.rs`.
fn discovered<'a>(files: &'a FileIndex, dir: &str) -> impl Iterator<Item = String> + 'a {
    let singles: Vec<String> = files
        .in_dir(dir)
        .filter(|path| path.ends_with(".rs"))
        .map(String::from)
        .collect();
    let mains: Vec<String> = files
        .subdirs(dir)
        .into_iter()
        .map(|sub| join(&sub, "main.rs"))
        .filter(|main| files.contains(main))
        .collect();
    singles.into_iter().chain(mains)
}

/// The `[workspace]` a package belongs to: `package.workspace` if set, else the nearest ancestor
/// manifest with a `[workspace]` table (its own manifest included).
fn workspace_of<'a>(
    dir: &str,
    manifest: &'a Manifest,
    manifests: &'a BTreeMap<String, Manifest>,
) -> Option<(String, &'a Workspace)> {
    if let Some(workspace) = &manifest.workspace {
        return Some((dir.to_string(), workspace));
    }
    if let Some(explicit) = manifest
        .package
        .as_ref()
        .and_then(|p| p.workspace.as_deref())
    {
        let root = normalize(dir, explicit)?;
        let workspace = manifests
            .get(&join(&root, "Cargo.toml"))?
            .workspace
            .as_ref()?;
        return Some((root, workspace));
    }
    let mut current = dir;
    while !current.is_empty() {
        current = dir_of(current);
        if let Some(workspace) = manifests
            .get(&join(current, "Cargo.toml"))
            .and_then(|m| m.workspace.as_ref())
        {
            return Some((current.to_string(), workspace));
        }
    }
    None
}

/// Whether the package in `dir` belongs to its workspace: the workspace's root, one its `members`
/// globs name and `exclude` does not, or a package outside any workspace.
fn is_member(dir: &str, manifest: &Manifest, manifests: &BTreeMap<String, Manifest>) -> bool {
    let Some((root, workspace)) = workspace_of(dir, manifest, manifests) else {
        return true;
    };
    if root == dir {
        return true;
    }
    let relative = dir
        .strip_prefix(root.as_str())
        .unwrap_or(dir)
        .trim_start_matches('/');
    let named = |globs: &[String]| globs.iter().any(|glob| glob_matches(glob, relative));
    named(&workspace.members) && !named(&workspace.exclude)
}

/// A dependency on a project directory.
struct PathDependency {
    dir: String,
    /// Written under another name (`package = "…"`): code uses the key.
    renamed: bool,
}

/// A dependency entry's project directory, following `workspace = true` to the workspace root's
/// `[workspace.dependencies]`. `None` for registry and git dependencies.
fn dependency(
    dir: &str,
    key: &str,
    value: &toml::Value,
    workspace: Option<(&str, &Workspace)>,
) -> Option<PathDependency> {
    let table = value.as_table()?;
    let renamed = table.get("package").is_some();
    if table.get("workspace").and_then(toml::Value::as_bool) == Some(true) {
        let (root, workspace) = workspace?;
        let inherited = workspace.dependencies.get(key)?;
        let inherited_table = inherited.as_table()?;
        let path = inherited_table.get("path")?.as_str()?;
        let renamed = renamed || inherited_table.get("package").is_some();
        return Some(PathDependency {
            dir: normalize(root, path)?,
            renamed,
        });
    }
    let path = table.get("path")?.as_str()?;
    Some(PathDependency {
        dir: normalize(dir, path)?,
        renamed,
    })
}

/// `[patch.<source>]` tables by source (`crates-io`, a registry name, a git URL), then package name.
type Patches = BTreeMap<String, BTreeMap<String, toml::Value>>;

/// A registry or git dependency that `patch` (the `[patch]` of the manifest in directory `root`)
/// replaces with a path: cargo builds that path instead, so code naming the crate means it.
fn patched(
    key: &str,
    value: &toml::Value,
    workspace: Option<(&str, &Workspace)>,
    (root, patch): (&str, &Patches),
) -> Option<PathDependency> {
    // `workspace = true`: the entry the workspace root declares.
    let inherited = value
        .as_table()
        .filter(|table| table.get("workspace").and_then(toml::Value::as_bool) == Some(true))
        .and_then(|_| workspace?.1.dependencies.get(key));
    let entry = inherited.unwrap_or(value);
    let field = |name: &str| {
        entry
            .as_table()
            .and_then(|table| table.get(name))
            .and_then(toml::Value::as_str)
    };
    let source = field("git").or(field("registry")).unwrap_or("crates-io");
    let package = field("package").unwrap_or(key);
    let replacement = patch.get(source)?.get(package)?.as_table()?;
    let path = replacement.get("path")?.as_str()?;
    Some(PathDependency {
        dir: normalize(root, path)?,
        renamed: field("package").is_some() || value.get("package").is_some(),
    })
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or(text)
}

/// The parts of a `Cargo.toml` that decide how code refers to code.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
struct Manifest {
    package: Option<PackageSection>,
    lib: Option<TargetSection>,
    bin: Vec<TargetSection>,
    test: Vec<TargetSection>,
    bench: Vec<TargetSection>,
    example: Vec<TargetSection>,
    dependencies: BTreeMap<String, toml::Value>,
    dev_dependencies: BTreeMap<String, toml::Value>,
    build_dependencies: BTreeMap<String, toml::Value>,
    target: BTreeMap<String, TargetDependencies>,
    workspace: Option<Workspace>,
    patch: Patches,
}

impl Manifest {
    /// Every dependency table: normal, dev, build, and each platform's.
    fn all_dependencies(&self) -> impl Iterator<Item = (&String, &toml::Value)> {
        let platforms = self.target.values().flat_map(|target| {
            target
                .dependencies
                .iter()
                .chain(&target.dev_dependencies)
                .chain(&target.build_dependencies)
        });
        self.dependencies
            .iter()
            .chain(&self.dev_dependencies)
            .chain(&self.build_dependencies)
            .chain(platforms)
    }
}

#[derive(Debug, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
struct PackageSection {
    name: String,
    workspace: Option<String>,
    build: Option<toml::Value>,
    autobins: bool,
    autotests: bool,
    autobenches: bool,
    autoexamples: bool,
}

impl Default for PackageSection {
    fn default() -> Self {
        PackageSection {
            name: String::new(),
            workspace: None,
            build: None,
            autobins: true,
            autotests: true,
            autobenches: true,
            autoexamples: true,
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct TargetSection {
    name: Option<String>,
    path: Option<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
struct TargetDependencies {
    dependencies: BTreeMap<String, toml::Value>,
    dev_dependencies: BTreeMap<String, toml::Value>,
    build_dependencies: BTreeMap<String, toml::Value>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct Workspace {
    dependencies: BTreeMap<String, toml::Value>,
    members: Vec<String>,
    exclude: Vec<String>,
}

impl EcosystemModel for CargoModel {
    const ECOSYSTEM: &'static str = "cargo";

    fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        CargoModel::build(files, read, warnings)
    }

    fn is_manifest(name: &str) -> bool {
        name == "Cargo.toml"
    }

    /// Paths cargo discovers targets at: `src/main.rs`, `src/lib.rs`, `build.rs`, `src/bin/…`,
    /// `tests/…`, `benches/…`, `examples/…` (one file or a directory's `main.rs`).
    fn shaped_by(path: &str) -> bool {
        if !path.ends_with(".rs") {
            return false;
        }
        let parts: Vec<&str> = path.split('/').collect();
        let n = parts.len();
        let name = parts[n - 1];
        let parent = if n >= 2 { parts[n - 2] } else { "" };
        let grandparent = if n >= 3 { parts[n - 3] } else { "" };
        matches!((parent, name), ("src", "main.rs" | "lib.rs"))
            || name == "build.rs"
            || matches!(parent, "tests" | "benches" | "examples")
            || parent == "bin"
            || (name == "main.rs"
                && matches!(grandparent, "bin" | "tests" | "benches" | "examples"))
    }

    fn is_empty(&self) -> bool {
        CargoModel::is_empty(self)
    }

    fn package_dirs(&self) -> Vec<String> {
        self.packages.iter().map(|p| p.dir.clone()).collect()
    }

    /// The workspace members and the root package; a package in test data, a demo or another
    /// package's directory without being a member is a sample, not one of the project's.
    fn code_packages(&self, files: &FileIndex) -> Vec<CodePackage> {
        let cargo = self;
        let member_dirs: Vec<&str> = cargo.packages.iter().map(|p| p.dir.as_str()).collect();
        cargo
            .packages
            .iter()
            .enumerate()
            .filter(|(_, package)| {
                !is_test_data(&package.dir)
                    && (package.member
                        || (!is_sample_dir(&package.dir) && !nested_in(&package.dir, &member_dirs)))
            })
            .map(|(index, package)| {
                let roots = match package.dir.as_str() {
                    "" => {
                        let targets = cargo.targets.iter().filter(|t| t.package == index);
                        let mut roots: Vec<String> =
                            targets.map(|target| top_component(&target.root)).collect();
                        roots.extend(existing_dirs(files, "", &["tests"]));
                        roots
                    }
                    dir => vec![dir.to_string()],
                };
                CodePackage::new(Self::ECOSYSTEM, Some(&package.name), &package.dir, roots)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(files: &[(&str, &str)]) -> CargoModel {
        let (model, _, warnings) = crate::source::model::build_from(files, CargoModel::build);
        assert!(warnings.is_empty(), "{warnings:?}");
        model
    }

    #[test]
    fn a_workspace_with_a_bin_path_a_renamed_dependency_and_inherited_dependencies() {
        let m = model(&[
            ("Cargo.toml", "[package]\nname = \"rip\"\n[[bin]]\nname = \"rg\"\npath = \"crates/core/main.rs\"\n[workspace]\nmembers = [\"crates/*\"]\n[workspace.dependencies]\nmatcher = { path = \"crates/matcher\", package = \"grep-matcher\" }\n[dependencies]\ngrep-searcher = { version = \"1\", path = \"crates/searcher\" }\n"),
            ("crates/core/main.rs", ""),
            ("crates/core/flags/mod.rs", ""),
            ("crates/matcher/Cargo.toml", "[package]\nname = \"grep-matcher\"\n"),
            ("crates/matcher/src/lib.rs", ""),
            ("crates/searcher/Cargo.toml", "[package]\nname = \"grep-searcher\"\n[dependencies]\nutilx = { package = \"grep-matcher\", path = \"../matcher\" }\nmatcher = { workspace = true }\n"),
            ("crates/searcher/src/lib.rs", ""),
            ("crates/searcher/src/a/b.rs", ""),
            ("crates/searcher/tests/it.rs", ""),
            ("crates/searcher/build.rs", ""),
        ]);
        let core = m.target_of("crates/core/flags/mod.rs").expect("core");
        assert_eq!(
            (core.kind, core.root.as_str()),
            (TargetKind::Bin, "crates/core/main.rs")
        );
        let searcher = m
            .crate_named("crates/core/main.rs", "grep_searcher")
            .expect("dep");
        assert_eq!(searcher.root, "crates/searcher/src/lib.rs");
        let from_searcher = |name| {
            m.crate_named("crates/searcher/src/a/b.rs", name)
                .map(|t| t.root.clone())
        };
        assert_eq!(
            from_searcher("utilx").as_deref(),
            Some("crates/matcher/src/lib.rs")
        );
        assert_eq!(
            from_searcher("matcher").as_deref(),
            Some("crates/matcher/src/lib.rs")
        );
        assert_eq!(
            from_searcher("grep_matcher"),
            None,
            "renamed: the package name is not in scope"
        );
        let test = m.target_of("crates/searcher/tests/it.rs").expect("test");
        assert_eq!(test.kind, TargetKind::Test);
        assert_eq!(
            m.crate_named("crates/searcher/tests/it.rs", "grep_searcher")
                .map(|t| t.root.as_str()),
            Some("crates/searcher/src/lib.rs"),
            "a test uses its own package's library"
        );
        assert_eq!(
            m.target_of("crates/searcher/build.rs").map(|t| t.kind),
            Some(TargetKind::Build)
        );
    }

    #[test]
    fn registry_dependencies_the_workspace_root_patches_with_a_path_are_the_member() {
        let m = model(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"tokio\", \"tokio-stream\"]\n[workspace.dependencies]\ntokio-util = \"0.7\"\n[patch.crates-io]\ntokio = { path = \"tokio\" }\ntokio-util = { path = \"tokio-util\" }\n"),
            ("tokio/Cargo.toml", "[package]\nname = \"tokio\"\n"),
            ("tokio/src/lib.rs", ""),
            ("tokio-util/Cargo.toml", "[package]\nname = \"tokio-util\"\n"),
            ("tokio-util/src/lib.rs", ""),
            ("tokio-stream/Cargo.toml", "[package]\nname = \"tokio-stream\"\n[dependencies]\ntokio = { version = \"1.38.0\", features = [\"sync\"] }\ntokio-util = { workspace = true }\nfutures = \"0.3\"\n[dev-dependencies]\ntokio = \"1\"\n"),
            ("tokio-stream/src/lib.rs", ""),
        ]);
        let named = |name| {
            m.crate_named("tokio-stream/src/lib.rs", name)
                .map(|t| t.root.clone())
        };
        assert_eq!(named("tokio").as_deref(), Some("tokio/src/lib.rs"));
        assert_eq!(
            named("tokio_util").as_deref(),
            Some("tokio-util/src/lib.rs")
        );
        assert_eq!(named("futures"), None);
        assert_eq!(
            m.external_crate("tokio-stream/src/lib.rs", "futures"),
            Some("futures")
        );
    }

    #[test]
    fn lib_paths_and_discovered_targets() {
        let m = model(&[
            (
                "Cargo.toml",
                "[package]\nname = \"x-y\"\n[lib]\npath = \"lib.rs\"\n",
            ),
            ("lib.rs", ""),
            ("util.rs", ""),
            ("src/main.rs", ""),
            ("src/bin/tool/main.rs", ""),
            ("src/bin/tool/args.rs", ""),
            ("benches/speed.rs", ""),
            ("examples/demo.rs", ""),
        ]);
        assert_eq!(
            m.target_of("util.rs").map(|t| t.root.as_str()),
            Some("lib.rs")
        );
        assert_eq!(
            m.target_of("src/bin/tool/args.rs").map(|t| t.root.as_str()),
            Some("src/bin/tool/main.rs")
        );
        assert_eq!(m.packages[0].lib_name, "x_y");
        let kinds: Vec<TargetKind> = m.targets.iter().map(|t| t.kind).collect();
        for kind in [
            TargetKind::Lib,
            TargetKind::Bin,
            TargetKind::Bench,
            TargetKind::Example,
        ] {
            assert!(kinds.contains(&kind), "{kinds:?}");
        }
    }
}
