//! Node's and TypeScript's view of the project's JavaScript and TypeScript: every `package.json`
//! (name, `exports` and `imports` maps in their own key order, `main`/`module`/`types`), which
//! packages are linked into `node_modules` by a workspace (npm/yarn `workspaces`,
//! `pnpm-workspace.yaml`), and every `tsconfig.json`/`jsconfig.json` with its `baseUrl`, `paths`,
//! `outDir` and `rootDir` after following `extends`.

use std::collections::BTreeMap;

use serde::Deserialize;

use crate::source::lang::files::TEST_DIRS;
use crate::source::model::ecosystem::EcosystemModel;
use crate::source::model::files::{dir_of, glob_matches, normalize, FileIndex, ReadFile};
use crate::source::model::packages::{
    existing_dirs, is_sample_dir, nested_in, root_package_roots, CodePackage, SOURCE_DIRS,
};

/// A JSON value that keeps object keys in the order they were written (the order `exports`
/// conditions are tried in).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum Ordered {
    Str(String),
    List(Vec<Ordered>),
    Map(OrderedMap),
    Other(serde_json::Value),
}

/// An object as a list of entries. It is written back as an object in the same order, so a saved
/// project model (what a changed-only run reuses) reads back as the map it was.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OrderedMap(pub Vec<(String, Ordered)>);

impl serde::Serialize for OrderedMap {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (key, value) in &self.0 {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for OrderedMap {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<OrderedMap, D::Error> {
        struct Visitor;
        impl<'de> serde::de::Visitor<'de> for Visitor {
            type Value = OrderedMap;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<OrderedMap, A::Error> {
                let mut entries = Vec::new();
                while let Some((key, value)) = map.next_entry::<String, Ordered>()? {
                    entries.push((key, value));
                }
                Ok(OrderedMap(entries))
            }
        }
        deserializer.deserialize_map(Visitor)
    }
}

/// One `package.json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NodePackage {
    /// The directory of its `package.json`.
    pub dir: String,
    pub name: Option<String>,
    pub exports: Option<Ordered>,
    pub imports: Option<Ordered>,
    /// `module`, then `main`, then `types`/`typings`: the entry without `exports`.
    pub entries: Vec<String>,
    /// Linked into `node_modules` by a workspace (importable by name from anywhere in it).
    pub linked: bool,
    /// The root of a workspace (`workspaces` here, or a `pnpm-workspace.yaml` beside it).
    #[serde(default)]
    pub workspace: bool,
}

/// One `tsconfig.json` or `jsconfig.json` with `extends` applied.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TsConfig {
    pub dir: String,
    /// Project-relative.
    pub base_url: Option<String>,
    /// Pattern → targets, with the directory the targets are relative to.
    pub paths: Vec<(String, Vec<String>)>,
    /// Where `paths` targets are relative to (the `baseUrl`, else the declaring config's directory).
    pub paths_base: String,
    pub out_dir: Option<String>,
    pub root_dir: Option<String>,
}

/// Every package and TypeScript config of the project.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct NodeModel {
    pub packages: Vec<NodePackage>,
    pub tsconfigs: Vec<TsConfig>,
    pub manifests: Vec<String>,
}

impl NodeModel {
    pub fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> NodeModel {
        let mut model = NodeModel::default();
        let mut workspace_globs: Vec<(String, Vec<String>)> = Vec::new();
        for path in files.named("package.json") {
            let Some(text) = read.read(path) else {
                continue;
            };
            model.manifests.push(path.to_string());
            match serde_json::from_str::<PackageJson>(&strip_json_comments(&text)) {
                Ok(json) => {
                    let dir = dir_of(path).to_string();
                    if let Some(globs) = json.workspace_globs() {
                        workspace_globs.push((dir.clone(), globs));
                    }
                    model.packages.push(json.into_package(dir));
                }
                Err(err) => warnings.push(format!("{path}: not a readable package.json: {err}")),
            }
        }
        for path in files.named("pnpm-workspace.yaml") {
            let Some(text) = read.read(path) else {
                continue;
            };
            model.manifests.push(path.to_string());
            if let Ok(pnpm) = serde_yaml::from_str::<PnpmWorkspace>(&text) {
                workspace_globs.push((dir_of(path).to_string(), pnpm.packages));
            }
        }
        for package in &mut model.packages {
            package.workspace = workspace_globs.iter().any(|(root, _)| *root == package.dir);
            package.linked = workspace_globs.iter().any(|(root, globs)| {
                let Some(relative) = package.dir.strip_prefix(root.as_str()) else {
                    return false;
                };
                let relative = relative.trim_start_matches('/');
                globs
                    .iter()
                    .any(|glob| !glob.starts_with('!') && glob_matches(glob, relative))
            });
        }
        let configs: Vec<&str> = files
            .named("tsconfig.json")
            .chain(files.named("jsconfig.json"))
            .collect();
        for path in configs {
            model.manifests.push(path.to_string());
            match tsconfig(path, read, 0) {
                Some(config) => model.tsconfigs.push(config),
                None => warnings.push(format!("{path}: not a readable TypeScript config")),
            }
        }
        model.manifests.sort();
        model
            .packages
            .sort_by(|a, b| b.dir.len().cmp(&a.dir.len()).then(a.dir.cmp(&b.dir)));
        model
            .tsconfigs
            .sort_by(|a, b| b.dir.len().cmp(&a.dir.len()).then(a.dir.cmp(&b.dir)));
        model
    }

    /// The package `file` belongs to: the nearest `package.json` above it.
    pub fn package_of(&self, file: &str) -> Option<&NodePackage> {
        self.packages
            .iter()
            .find(|p| crate::source::model::files::is_within(dir_of(file), &p.dir))
    }

    /// The TypeScript config that applies to `file`: the nearest one above it.
    pub fn tsconfig_of(&self, file: &str) -> Option<&TsConfig> {
        self.tsconfigs
            .iter()
            .find(|c| crate::source::model::files::is_within(dir_of(file), &c.dir))
    }

    /// The package `name` as code in `file` can import it: a workspace package (linked into
    /// `node_modules`), or `file`'s own package referring to itself through its `exports`.
    pub fn package_named(&self, file: &str, name: &str) -> Option<&NodePackage> {
        let own = self.package_of(file);
        self.packages.iter().find(|package| {
            package.name.as_deref() == Some(name)
                && (package.linked || (own == Some(*package) && package.exports.is_some()))
        })
    }
}

/// Read a TypeScript config and the ones it `extends` (relative paths; package names are outside
/// the project), nearest settings winning. `None` when the file is not readable JSON(C).
fn tsconfig(path: &str, read: &dyn ReadFile, depth: usize) -> Option<TsConfig> {
    let text = read.read(path)?;
    let raw: RawTsConfig = serde_json::from_str(&strip_json_comments(&text)).ok()?;
    let dir = dir_of(path).to_string();
    let mut config = TsConfig {
        dir: dir.clone(),
        paths_base: dir.clone(),
        ..TsConfig::default()
    };
    if depth < 8 {
        for parent in raw.extends.iter().filter(|p| p.starts_with('.')) {
            let mut parent_path = normalize(&dir, parent)?;
            if !parent_path.ends_with(".json") {
                parent_path.push_str(".json");
            }
            if let Some(inherited) = tsconfig(&parent_path, read, depth + 1) {
                config = TsConfig {
                    dir: dir.clone(),
                    ..inherited
                };
            }
        }
    }
    let options = raw.compiler_options;
    if let Some(base) = options.base_url.as_deref().and_then(|b| normalize(&dir, b)) {
        config.base_url = Some(base.clone());
        config.paths_base = base;
    }
    if let Some(paths) = options.paths {
        config.paths = paths.into_iter().collect();
        // Relative to the `baseUrl` in effect, else to the config that declares them.
        config.paths_base = config.base_url.clone().unwrap_or_else(|| dir.clone());
    }
    config.out_dir = options
        .out_dir
        .and_then(|o| normalize(&dir, &o))
        .or(config.out_dir);
    config.root_dir = options
        .root_dir
        .and_then(|r| normalize(&dir, &r))
        .or(config.root_dir);
    Some(config)
}

/// JSON with comments and trailing commas (what `tsconfig.json` and some `package.json` files hold)
/// as strict JSON: `//` and `/* */` comments outside strings removed, commas before `}`/`]` dropped.
pub fn strip_json_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut in_string = false;
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match c {
                '\\' => out.extend(chars.next()),
                '"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match (c, chars.peek()) {
            ('"', _) => {
                in_string = true;
                out.push(c);
            }
            ('/', Some('/')) => {
                for next in chars.by_ref() {
                    if next == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut previous = ' ';
                for next in chars.by_ref() {
                    if previous == '*' && next == '/' {
                        break;
                    }
                    previous = next;
                }
            }
            _ => out.push(c),
        }
    }
    drop_trailing_commas(&out)
}

fn drop_trailing_commas(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if in_string {
            out.push(c);
            if c == '\\' {
                if let Some(next) = chars.get(i + 1) {
                    out.push(*next);
                    i += 1;
                }
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if c == ',' {
            let next = chars[i + 1..].iter().find(|n| !n.is_whitespace());
            if !matches!(next, Some('}') | Some(']')) {
                out.push(c);
            }
        } else {
            out.push(c);
        }
        i += 1;
    }
    out
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct PackageJson {
    name: Option<String>,
    exports: Option<Ordered>,
    imports: Option<Ordered>,
    main: Option<String>,
    module: Option<String>,
    types: Option<String>,
    typings: Option<String>,
    workspaces: Option<serde_json::Value>,
}

impl PackageJson {
    /// `workspaces: [globs]` or `workspaces: { packages: [globs] }`.
    fn workspace_globs(&self) -> Option<Vec<String>> {
        let value = self.workspaces.as_ref()?;
        let list = value
            .as_array()
            .or_else(|| value.get("packages")?.as_array())?;
        Some(
            list.iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect(),
        )
    }

    fn into_package(self, dir: String) -> NodePackage {
        let entries = [self.module, self.main, self.types, self.typings]
            .into_iter()
            .flatten()
            .collect();
        NodePackage {
            dir,
            name: self.name,
            exports: self.exports,
            imports: self.imports,
            entries,
            linked: false,
            workspace: false,
        }
    }
}

#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct PnpmWorkspace {
    packages: Vec<String>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct RawTsConfig {
    #[serde(deserialize_with = "one_or_many")]
    extends: Vec<String>,
    compiler_options: CompilerOptions,
}

#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
struct CompilerOptions {
    base_url: Option<String>,
    paths: Option<BTreeMap<String, Vec<String>>>,
    out_dir: Option<String>,
    root_dir: Option<String>,
}

fn one_or_many<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match Option::<OneOrMany>::deserialize(deserializer)? {
        None => Vec::new(),
        Some(OneOrMany::One(one)) => vec![one],
        Some(OneOrMany::Many(many)) => many,
    })
}

impl EcosystemModel for NodeModel {
    const ECOSYSTEM: &'static str = "node";

    fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        NodeModel::build(files, read, warnings)
    }

    fn is_manifest(name: &str) -> bool {
        matches!(name, "package.json" | "pnpm-workspace.yaml")
            || ((name.starts_with("tsconfig") || name.starts_with("jsconfig"))
                && name.ends_with(".json"))
    }

    fn is_empty(&self) -> bool {
        *self == NodeModel::default()
    }

    fn package_dirs(&self) -> Vec<String> {
        self.packages.iter().map(|p| p.dir.clone()).collect()
    }

    /// The workspace packages and the root package (its conventional directories, or the whole
    /// project when its entry point sits at the root).
    fn code_packages(&self, files: &FileIndex) -> Vec<CodePackage> {
        let node = self;
        let dirs: Vec<&str> = node.packages.iter().map(|p| p.dir.as_str()).collect();
        node.packages
            .iter()
            .filter(|package| {
                package.dir.is_empty()
                    || package.linked
                    || (!is_sample_dir(&package.dir) && !nested_in(&package.dir, &dirs))
            })
            .map(|package| {
                let roots = match (package.dir.as_str(), package.workspace) {
                    // A monorepo's root: only code it keeps in its own conventional directories.
                    (dir, true) => existing_dirs(files, dir, SOURCE_DIRS)
                        .into_iter()
                        .chain(existing_dirs(files, dir, TEST_DIRS))
                        .collect(),
                    ("", false) => root_package_roots(files),
                    (dir, false) => vec![dir.to_string()],
                };
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

    fn model(files: &[(&str, &str)]) -> NodeModel {
        let (model, _, warnings) = crate::source::model::build_from(files, NodeModel::build);
        assert!(warnings.is_empty(), "{warnings:?}");
        model
    }

    #[test]
    fn a_saved_model_reads_back_with_its_maps_in_order() {
        let m = model(&[(
            "web/package.json",
            r##"{"name": "web", "imports": {"#lib/*": "./src/lib/*", "#a": {"node": "./a.js", "default": "./b.js"}}}"##,
        )]);
        let saved = serde_json::to_string(&m).expect("serializes");
        let back: NodeModel = serde_json::from_str(&saved).expect("reads back");
        assert_eq!(back, m);
        let Some(Ordered::Map(map)) = &back.packages[0].imports else {
            panic!("imports read back as {:?}", back.packages[0].imports)
        };
        assert_eq!(map.0[0].0, "#lib/*");
    }

    #[test]
    fn workspaces_link_their_packages_and_configs_extend() {
        let m = model(&[
            ("package.json", r#"{"name": "root", "workspaces": ["packages/*"]}"#),
            ("packages/core/package.json", r#"{"name": "@x/core", "exports": {".": {"import": "./dist/index.js", "require": "./dist/index.cjs"}, "./util": "./src/util.ts"}}"#),
            ("tools/package.json", r#"{"name": "tools", "main": "index.js"}"#),
            ("tsconfig.base.json", "{\n  // shared\n  \"compilerOptions\": { \"baseUrl\": \".\", \"paths\": { \"@/*\": [\"src/*\"], }, },\n}\n"),
            ("app/tsconfig.json", r#"{"extends": "../tsconfig.base.json", "compilerOptions": {"outDir": "build"}}"#),
        ]);
        let core = m.package_named("app/x.ts", "@x/core").expect("linked");
        assert_eq!(core.dir, "packages/core");
        assert!(
            m.package_named("app/x.ts", "tools").is_none(),
            "not a workspace member"
        );
        let Some(Ordered::Map(map)) = &core.exports else {
            panic!("exports")
        };
        assert_eq!(map.0[0].0, ".");
        let config = m.tsconfig_of("app/src/x.ts").expect("config");
        assert_eq!(config.dir, "app");
        assert_eq!(config.base_url.as_deref(), Some(""));
        assert_eq!(
            config.paths,
            vec![("@/*".to_string(), vec!["src/*".to_string()])]
        );
        assert_eq!(config.out_dir.as_deref(), Some("app/build"));
    }

    #[test]
    fn comments_and_trailing_commas_are_tolerated_but_strings_are_not_touched() {
        let text = "{ \"a\": \"http://x//y\", /* c */ \"b\": [1, 2,], }";
        let value: serde_json::Value =
            serde_json::from_str(&strip_json_comments(text)).expect("json");
        assert_eq!(value["a"], "http://x//y");
        assert_eq!(value["b"][1], 2);
    }
}
