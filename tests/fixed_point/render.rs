//! Rendering a [`Model`] into the files of its repository: each unit in its language (imports in
//! their [`Style`], public functions with their signature, doc and body revisions), the module
//! files (`lib.rs`/`mod.rs`, `__init__.py`, `index.js`) from the units of their directory, and the
//! fixed skeleton (the workspace and package manifests, the README).

use std::collections::{BTreeMap, BTreeSet};

use super::model::{is_under, join, last, parent, Area, Lang, Model, Style, Unit};

impl Model {
    /// The whole tree: path → content.
    pub fn render(&self) -> BTreeMap<String, String> {
        let mut files = static_files(self.readme);
        for (path, unit) in &self.units {
            files.insert(path.clone(), self.render_unit(unit));
        }
        for dir in self.module_dirs() {
            if let Some((path, text)) = self.render_module_file(&dir) {
                files.insert(path, text);
            }
        }
        files
    }

    fn render_unit(&self, unit: &Unit) -> String {
        let text = match unit.area.lang() {
            Lang::Rust => self.render_rust(unit),
            Lang::Python => self.render_python(unit),
            Lang::Web => self.render_web(unit),
        };
        format!("{}\n", text.trim_end())
    }

    fn render_module_file(&self, dir: &str) -> Option<(String, String)> {
        let meta = self.dirs.get(dir).cloned().unwrap_or_default();
        let reexports: Vec<&(String, String)> = meta
            .reexports
            .iter()
            .filter(|(unit, _)| self.units.contains_key(unit) && is_under(unit, dir))
            .collect();
        let (path, mut text) = if dir.starts_with("crates/") {
            let root = dir.ends_with("/src");
            let file = if root { "lib.rs" } else { "mod.rs" };
            let mut text = String::new();
            if meta.doc > 0 {
                text += &format!(
                    "//! The {} module, revision {}.\n\n",
                    module_title(dir),
                    meta.doc
                );
            }
            for child in self.rust_children(dir) {
                text += &format!("pub mod {child};\n");
            }
            if !reexports.is_empty() {
                text += "\n";
            }
            for (unit, item) in &reexports {
                let segments = rust_segments(&self.units[unit.as_str()]);
                let below = &segments[rust_dir_segments(dir).len()..];
                text += &format!("pub use self::{}::{item};\n", below.join("::"));
            }
            (join(dir, file), text)
        } else if dir.starts_with("python/") {
            let mut text = String::new();
            if meta.doc > 0 {
                text += &format!(
                    "\"\"\"The {} package, revision {}.\"\"\"\n\n",
                    module_title(dir),
                    meta.doc
                );
            }
            for (unit, item) in &reexports {
                let module = python_module(&self.units[unit.as_str()]);
                let below = &module[python_package(dir).len()..];
                text += &format!("from .{} import {item}\n", below.join("."));
            }
            (join(dir, "__init__.py"), text)
        } else {
            if meta.doc == 0 && reexports.is_empty() {
                return None;
            }
            let mut text = String::new();
            if meta.doc > 0 {
                text += &format!(
                    "/** The {} module, revision {}. */\n\n",
                    module_title(dir),
                    meta.doc
                );
            }
            let index = join(dir, "index.js");
            for (unit, item) in &reexports {
                let spec = web_specifier(&index, &self.units[unit.as_str()]);
                text += &format!("export {{ {item} }} from '{spec}';\n");
            }
            (index, text)
        };
        if !text.is_empty() {
            text = format!("{}\n", text.trim_end());
        }
        Some((path, text))
    }

    /// The `pub mod` names of a Rust module directory: its units and its subdirectories with units.
    fn rust_children(&self, dir: &str) -> BTreeSet<String> {
        let mut children = BTreeSet::new();
        for unit in self.units.values() {
            if !matches!(unit.area, Area::AlphaSrc | Area::BetaSrc) {
                continue;
            }
            let udir = unit.dir();
            if udir == dir {
                children.insert(unit.name.clone());
            } else if let Some(rest) = udir.strip_prefix(&format!("{dir}/")) {
                children.insert(rest.split('/').next().unwrap_or(rest).to_string());
            }
        }
        children
    }

    /// The path (as written in `use`) of the nearest module directory re-exporting `item` of
    /// `target`, from the target's own directory up to its area's root.
    fn reexporting_dir(&self, target: &Unit, item: &str) -> Option<String> {
        let root = target.area.root();
        let mut dir = target.dir();
        let key = (target.path(), item.to_string());
        loop {
            if self
                .dirs
                .get(&dir)
                .is_some_and(|meta| meta.reexports.contains(&key))
            {
                return Some(dir);
            }
            if dir == root || dir.len() < root.len() {
                return None;
            }
            dir = parent(&dir);
        }
    }

    fn render_rust(&self, unit: &Unit) -> String {
        let mut uses = BTreeSet::new();
        let mut calls = Vec::new();
        for import in &unit.imports {
            let Some(target) = self.units.get(&import.target) else {
                continue;
            };
            let item = &target.items[import.item].name;
            let prefix = match target.area == unit.area {
                true => "crate".to_string(),
                false => target.area.krate().to_string(),
            };
            let direct = format!("{prefix}::{}::{item}", rust_segments(target).join("::"));
            let through_reexport = self.reexporting_dir(target, item).map(|dir| {
                let mut segments = vec![prefix.clone()];
                segments.extend(rust_dir_segments(&dir));
                segments.push(item.clone());
                segments.join("::")
            });
            match import.style {
                Style::Direct => {
                    uses.insert(direct);
                    calls.push(item.clone());
                }
                Style::Qualified => calls.push(direct),
                Style::Alternate => {
                    let path = match target.area == unit.area {
                        true => super_path(unit, target, item),
                        false => direct,
                    };
                    uses.insert(path);
                    calls.push(item.clone());
                }
                Style::Reexported => {
                    uses.insert(through_reexport.unwrap_or(direct));
                    calls.push(item.clone());
                }
                Style::QualifiedReexported => calls.push(through_reexport.unwrap_or(direct)),
            }
        }
        let mut text = String::new();
        if unit.doc > 0 {
            text += &format!("//! {}\n\n", module_doc(&unit.name, unit.doc));
        }
        for path in &uses {
            text += &format!("use {path};\n");
        }
        if !uses.is_empty() {
            text += "\n";
        }
        for (index, item) in unit.items.iter().enumerate() {
            if item.doc > 0 {
                text += &format!("/// {}\n", item_doc(&item.name, item.doc));
            }
            let test = unit.area.is_test();
            if test {
                text += &format!("#[test]\nfn {}() {{\n", item.name);
            } else {
                let params: Vec<String> = (0..=item.params).map(|p| format!("a{p}: u32")).collect();
                text += &format!("pub fn {}({}) -> u32 {{\n", item.name, params.join(", "));
            }
            if index == 0 {
                for call in &calls {
                    text += &format!("    let _ = {call}(0);\n");
                }
            }
            if unit.body % 3 == 2 {
                text += "    // TODO: tune this constant\n";
            }
            match test {
                true => text += &format!("    assert_eq!({0}, {0});\n}}\n\n", unit.body),
                false => text += &format!("    a0 + {}\n}}\n\n", unit.body),
            }
        }
        text
    }

    fn render_python(&self, unit: &Unit) -> String {
        let mut imports = BTreeSet::new();
        let mut calls = Vec::new();
        let own_package = match unit.area {
            Area::PyTests => None,
            _ => Some(python_package(&unit.dir())),
        };
        for import in &unit.imports {
            let Some(target) = self.units.get(&import.target) else {
                continue;
            };
            let item = &target.items[import.item].name;
            let module = python_module(target);
            let absolute = format!("from {} import {item}", module.join("."));
            let line = match import.style {
                Style::Direct => match &own_package {
                    Some(package) => relative_python_import(package, &module, item),
                    None => absolute,
                },
                Style::Alternate => absolute,
                Style::Qualified => {
                    calls.push(format!("{}.{item}", module.join(".")));
                    imports.insert(format!("import {}", module.join(".")));
                    continue;
                }
                Style::QualifiedReexported => {
                    let package = match self.reexporting_dir(target, item) {
                        Some(dir) => python_package(&dir),
                        None => module.clone(),
                    };
                    calls.push(format!("{}.{item}", package.join(".")));
                    imports.insert(format!("import {}", package.join(".")));
                    continue;
                }
                Style::Reexported => match self.reexporting_dir(target, item) {
                    Some(dir) => format!("from {} import {item}", python_package(&dir).join(".")),
                    None => absolute,
                },
            };
            imports.insert(line);
            calls.push(item.clone());
        }
        let mut text = String::new();
        if unit.doc > 0 {
            text += &format!("\"\"\"{}\"\"\"\n\n", module_doc(&unit.name, unit.doc));
        }
        for line in &imports {
            text += &format!("{line}\n");
        }
        if !imports.is_empty() {
            text += "\n\n";
        }
        for (index, item) in unit.items.iter().enumerate() {
            let test = unit.area.is_test();
            if test {
                text += &format!("def test_{}():\n", item.name);
            } else {
                let params: Vec<String> = (0..=item.params).map(|p| format!("a{p}")).collect();
                text += &format!("def {}({}):\n", item.name, params.join(", "));
            }
            if item.doc > 0 {
                text += &format!("    \"\"\"{}\"\"\"\n", item_doc(&item.name, item.doc));
            }
            if index == 0 {
                for call in &calls {
                    text += &format!("    {call}(0)\n");
                }
            }
            if unit.body % 3 == 2 {
                text += "    # TODO: tune this constant\n";
            }
            match test {
                true => text += &format!("    assert {0} == {0}\n\n\n", unit.body),
                false => text += &format!("    return a0 + {}\n\n\n", unit.body),
            }
        }
        text
    }

    fn render_web(&self, unit: &Unit) -> String {
        let path = unit.path();
        let mut imports = BTreeSet::new();
        let mut calls = Vec::new();
        for import in &unit.imports {
            let Some(target) = self.units.get(&import.target) else {
                continue;
            };
            let item = &target.items[import.item].name;
            let relative = web_specifier(&path, target);
            let line = match import.style {
                Style::Direct => format!("import {{ {item} }} from '{relative}';"),
                Style::Qualified => format!("const {{ {item} }} = require('{relative}');"),
                Style::Alternate => match target.path().strip_prefix("web/src/lib/") {
                    Some(rest) => format!("import {{ {item} }} from '#lib/{rest}';"),
                    None => format!("import {{ {item} }} from '{relative}';"),
                },
                Style::Reexported => match self.reexporting_dir(target, item) {
                    Some(dir) => {
                        let spec = relative_specifier(&path, &join(&dir, "index.js"));
                        format!("import {{ {item} }} from '{spec}';")
                    }
                    None => format!("import {{ {item} }} from '{relative}';"),
                },
                Style::QualifiedReexported => {
                    let spec = match self.reexporting_dir(target, item) {
                        Some(dir) => relative_specifier(&path, &join(&dir, "index.js")),
                        None => relative,
                    };
                    format!("const {{ {item} }} = require('{spec}');")
                }
            };
            imports.insert(line);
            calls.push(item.clone());
        }
        let ts = unit.ext == "ts";
        let mut text = String::new();
        if unit.doc > 0 {
            text += &format!("/** {} */\n\n", module_doc(&unit.name, unit.doc));
        }
        for line in &imports {
            text += &format!("{line}\n");
        }
        if !imports.is_empty() {
            text += "\n";
        }
        for (index, item) in unit.items.iter().enumerate() {
            let body_calls: String = match index {
                0 => calls.iter().map(|call| format!("  {call}(0);\n")).collect(),
                _ => String::new(),
            };
            let todo = match unit.body % 3 {
                2 => "  // TODO: tune this constant\n",
                _ => "",
            };
            if unit.area.is_test() {
                text += &format!(
                    "test('{}', () => {{\n{body_calls}{todo}  expect({1}).toBe({1});\n}});\n\n",
                    item.name, unit.body
                );
                continue;
            }
            if item.doc > 0 {
                text += &format!("/** {} */\n", item_doc(&item.name, item.doc));
            }
            let params: Vec<String> = (0..=item.params)
                .map(|p| match ts {
                    true => format!("a{p}: number"),
                    false => format!("a{p}"),
                })
                .collect();
            let returns = if ts { ": number" } else { "" };
            text += &format!(
                "export function {}({}){returns} {{\n{body_calls}{todo}  return a0 + {};\n}}\n\n",
                item.name,
                params.join(", "),
                unit.body
            );
        }
        text
    }
}

fn static_files(readme: u32) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let mut put = |path: &str, text: &str| files.insert(path.to_string(), text.to_string());
    put(
        "README.md",
        &format!("# Demo\n\nA mixed-language demo project, revision {readme}.\n\nRun `make` to build it.\n"),
    );
    put(
        "Cargo.toml",
        "[workspace]\nmembers = [\"crates/alpha\", \"crates/beta\"]\nresolver = \"2\"\n",
    );
    put(
        "crates/alpha/Cargo.toml",
        "[package]\nname = \"alpha\"\nversion = \"0.1.0\"\nedition = \"2021\"\ndescription = \"Core building blocks.\"\n",
    );
    put(
        "crates/beta/Cargo.toml",
        "[package]\nname = \"beta\"\nversion = \"0.1.0\"\nedition = \"2021\"\ndescription = \"Services on top of alpha.\"\n\n[dependencies]\nalpha = { path = \"../alpha\" }\n",
    );
    put(
        "python/pyproject.toml",
        "[project]\nname = \"snake\"\nversion = \"0.1.0\"\ndescription = \"Python tools.\"\n\n[tool.setuptools.packages.find]\nwhere = [\"src\"]\n",
    );
    put(
        "web/package.json",
        "{\n  \"name\": \"web\",\n  \"version\": \"0.1.0\",\n  \"description\": \"The web client.\",\n  \"type\": \"module\",\n  \"imports\": {\n    \"#lib/*\": \"./src/lib/*\"\n  }\n}\n",
    );
    files
}

fn module_doc(name: &str, revision: u32) -> String {
    format!("Handles {name} requests, revision {revision}.")
}

fn item_doc(name: &str, revision: u32) -> String {
    format!("Returns the {name} value, revision {revision}.")
}

fn module_title(dir: &str) -> &str {
    let name = last(dir);
    match name {
        "src" => dir.split('/').nth(1).unwrap_or(name),
        _ => name,
    }
}

/// A Rust unit's module path below its crate root (`["wire", "frame", "net"]`).
fn rust_segments(unit: &Unit) -> Vec<String> {
    let mut segments: Vec<String> = unit
        .subdir
        .split('/')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect();
    segments.push(unit.name.clone());
    segments
}

/// The module path of a Rust module directory below its crate root.
fn rust_dir_segments(dir: &str) -> Vec<String> {
    let below = dir.split_once("/src").map(|(_, rest)| rest).unwrap_or("");
    below
        .split('/')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// `use super::…::item` from `unit` to `target` in the same crate.
fn super_path(unit: &Unit, target: &Unit, item: &str) -> String {
    let own = rust_segments(unit);
    let parent = &own[..own.len() - 1];
    let target_segments = rust_segments(target);
    let common = parent
        .iter()
        .zip(&target_segments)
        .take_while(|(a, b)| a == b)
        .count();
    let ups = 1 + parent.len() - common;
    let mut parts = vec!["super"; ups]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
    parts.extend(target_segments[common..].iter().cloned());
    parts.push(item.to_string());
    parts.join("::")
}

/// A Python unit's dotted module path (`["snake", "sub", "net"]`).
fn python_module(unit: &Unit) -> Vec<String> {
    let mut module = python_package(&unit.dir());
    module.push(
        unit.area
            .file_name(&unit.name, "py")
            .trim_end_matches(".py")
            .to_string(),
    );
    module
}

/// The dotted package of a directory under `python/src`.
fn python_package(dir: &str) -> Vec<String> {
    dir.strip_prefix("python/src/")
        .unwrap_or(dir)
        .split('/')
        .filter(|s| !s.is_empty())
        .map(String::from)
        .collect()
}

/// `from ..x.m import item`, relative from `package` to `module`.
fn relative_python_import(package: &[String], module: &[String], item: &str) -> String {
    let target_package = &module[..module.len() - 1];
    let common = package
        .iter()
        .zip(target_package)
        .take_while(|(a, b)| a == b)
        .count();
    let dots = ".".repeat(1 + package.len() - common);
    format!("from {dots}{} import {item}", module[common..].join("."))
}

/// The specifier a web file at `from` writes for `target`: relative, `.js` for a JavaScript target,
/// `.js` naming a TypeScript target from TypeScript, extensionless from JavaScript.
fn web_specifier(from: &str, target: &Unit) -> String {
    let target_path = target.path();
    let spec = relative_specifier(from, &target_path);
    match (from.ends_with(".ts"), target.ext.as_str()) {
        (_, "js") => spec,
        (true, _) => format!("{}.js", spec.trim_end_matches(".ts")),
        (false, _) => spec.trim_end_matches(".ts").to_string(),
    }
}

/// `./x` or `../../x`: the path of `to` relative to the directory of `from`.
fn relative_specifier(from: &str, to: &str) -> String {
    let from_parent = parent(from);
    let from_dir: Vec<&str> = from_parent
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    let to_parts: Vec<&str> = to.split('/').collect();
    let common = from_dir
        .iter()
        .zip(&to_parts)
        .take_while(|(a, b)| a == b)
        .count();
    let ups = from_dir.len() - common;
    let rest = to_parts[common..].join("/");
    match ups {
        0 => format!("./{rest}"),
        _ => format!("{}{rest}", "../".repeat(ups)),
    }
}
