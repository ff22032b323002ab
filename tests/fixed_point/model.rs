//! The model of a generated repository: what the fixed-point properties' random repositories are
//! made of, and the steps that change them (`render.rs` turns a model into files).
//!
//! A repository has a fixed skeleton — a Cargo workspace of two crates (`beta` depends on
//! `alpha`), a Python package `snake` under `python/src` (declared in `python/pyproject.toml`), a
//! JavaScript/TypeScript package under `web/` whose `package.json` maps `#lib/*` to `./src/lib/*`,
//! and a README — and random content: source files ([`Unit`]s) in one of nine [`Area`]s (sources,
//! tests beside them, test directories), each with public functions, a doc comment and imports of
//! other units in one of five [`Style`]s per language (a `use`, an expression path
//! `crate::a::b::f()`, a `super::`/absolute/`#lib` form, through a re-export, or an expression path
//! through a re-export). The module files
//! — `lib.rs` and `mod.rs`, `__init__.py`, `index.js` — are not units: they are rendered from the
//! directory's units, its doc and the re-exports registered on it ([`DirMeta`]), so adding,
//! moving or deleting a unit rewrites them as a developer would.
//!
//! A [`Step`] is one concrete change (add, delete, move a file, edit a body, a signature, a doc
//! comment, an import, a re-export, the README, or an agent's edit of the library) named by paths,
//! so that a counterexample prints as code ([`Step`]'s `Display`) that a regression test can hold.
//! Steps that edit the library (`agent_*`, `describe`) are carried out by the scenario runner; the
//! model only counts them (each agent text carries a unique `[agent N]` marker).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// Where a unit lives: a root directory, the subdirectories it may sit in, how its file is named,
/// and what it may import.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Area {
    AlphaSrc,
    BetaSrc,
    AlphaTests,
    PySrc,
    PyTests,
    PyInlineTests,
    WebSrc,
    WebTests,
    WebInlineTests,
}

/// The programming language of an area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Rust,
    Python,
    Web,
}

/// File stems of units. Disjoint from every subdirectory name (a Rust `net.rs` beside `net/` would
/// be two modules of one name) and from the module files' names.
pub const NAMES: [&str; 12] = [
    "net", "store", "parse", "auth", "cache", "codec", "route", "shape", "query", "model", "event",
    "token",
];

impl Area {
    pub fn root(self) -> &'static str {
        match self {
            Area::AlphaSrc => "crates/alpha/src",
            Area::BetaSrc => "crates/beta/src",
            Area::AlphaTests => "crates/alpha/tests",
            Area::PySrc | Area::PyInlineTests => "python/src/snake",
            Area::PyTests => "python/tests",
            Area::WebSrc | Area::WebInlineTests => "web/src",
            Area::WebTests => "web/test",
        }
    }

    /// The subdirectories of [`Area::root`] a unit may sit in (`""` is the root itself).
    pub fn subdirs(self) -> &'static [&'static str] {
        match self {
            Area::AlphaSrc => &["", "wire", "wire/frame", "disk"],
            Area::BetaSrc => &["", "api", "api/v1"],
            Area::PySrc | Area::PyInlineTests => &["", "sub", "sub/deep", "extra"],
            Area::WebSrc | Area::WebInlineTests => &["", "lib", "lib/deep", "app"],
            Area::AlphaTests | Area::PyTests | Area::WebTests => &[""],
        }
    }

    pub fn lang(self) -> Lang {
        match self {
            Area::AlphaSrc | Area::BetaSrc | Area::AlphaTests => Lang::Rust,
            Area::PySrc | Area::PyTests | Area::PyInlineTests => Lang::Python,
            Area::WebSrc | Area::WebTests | Area::WebInlineTests => Lang::Web,
        }
    }

    pub fn is_test(self) -> bool {
        matches!(
            self,
            Area::AlphaTests
                | Area::PyTests
                | Area::PyInlineTests
                | Area::WebTests
                | Area::WebInlineTests
        )
    }

    /// Areas whose units this area's units may import (never a test).
    pub fn may_import(self, target: Area) -> bool {
        match self {
            Area::AlphaSrc | Area::AlphaTests => target == Area::AlphaSrc,
            Area::BetaSrc => matches!(target, Area::AlphaSrc | Area::BetaSrc),
            Area::PySrc | Area::PyTests | Area::PyInlineTests => target == Area::PySrc,
            Area::WebSrc | Area::WebTests | Area::WebInlineTests => target == Area::WebSrc,
        }
    }

    /// The crate of a Rust area.
    pub fn krate(self) -> &'static str {
        match self {
            Area::BetaSrc => "beta",
            _ => "alpha",
        }
    }

    pub fn file_name(self, name: &str, ext: &str) -> String {
        match self {
            Area::PyTests => format!("test_{name}.py"),
            Area::PyInlineTests => format!("{name}_test.py"),
            Area::WebTests | Area::WebInlineTests => format!("{name}.test.{ext}"),
            _ => format!("{name}.{ext}"),
        }
    }

    /// Which area a path of a unit belongs to (the inverse of [`Unit::path`]).
    pub fn of_path(path: &str) -> Option<Area> {
        let file = path.rsplit('/').next()?;
        let area = if path.starts_with("crates/alpha/src/") {
            Area::AlphaSrc
        } else if path.starts_with("crates/beta/src/") {
            Area::BetaSrc
        } else if path.starts_with("crates/alpha/tests/") {
            Area::AlphaTests
        } else if path.starts_with("python/tests/") {
            Area::PyTests
        } else if path.starts_with("python/src/snake/") {
            match file.ends_with("_test.py") {
                true => Area::PyInlineTests,
                false => Area::PySrc,
            }
        } else if path.starts_with("web/test/") {
            Area::WebTests
        } else if path.starts_with("web/src/") {
            match file.contains(".test.") {
                true => Area::WebInlineTests,
                false => Area::WebSrc,
            }
        } else {
            return None;
        };
        Some(area)
    }
}

/// How an import is written, per language (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Style {
    /// Rust `use crate::a::b::f;`; Python `from .b import f` (absolute outside the package);
    /// JS/TS `import { f } from './b.js'`.
    Direct,
    /// Rust `crate::a::b::f(0)` in the body without a `use`; Python `import snake.a.b` and
    /// `snake.a.b.f(0)`; JS/TS `const { f } = require('./b.js')`.
    Qualified,
    /// Rust `use super::b::f;`; Python `from snake.a.b import f`; JS/TS `#lib/…` when the target
    /// is under `web/src/lib` (else as [`Style::Direct`]).
    Alternate,
    /// Through the nearest module file that re-exports the item (`pub use`, `__init__.py`,
    /// `index.js`); as [`Style::Direct`] when none does.
    Reexported,
    /// [`Style::Qualified`] through the nearest re-export: Rust `crate::wire::f(0)` (across
    /// crates `alpha::f(0)`), Python `import snake.sub` and `snake.sub.f(0)`, JS/TS
    /// `require('./lib/index.js')`; as [`Style::Qualified`] when nothing re-exports the item.
    QualifiedReexported,
}

pub const STYLES: [Style; 5] = [
    Style::Direct,
    Style::Qualified,
    Style::Alternate,
    Style::Reexported,
    Style::QualifiedReexported,
];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Item {
    pub name: String,
    /// Signature revision: the function takes `params + 1` parameters.
    pub params: u32,
    /// Doc comment revision (0: none).
    pub doc: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Import {
    pub target: String,
    pub item: usize,
    pub style: Style,
}

/// One source file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    pub area: Area,
    pub subdir: String,
    pub name: String,
    pub ext: String,
    /// Module doc comment revision (0: none).
    pub doc: u32,
    /// Body revision.
    pub body: u32,
    pub items: Vec<Item>,
    pub imports: Vec<Import>,
}

impl Unit {
    pub fn path(&self) -> String {
        join(
            &join(self.area.root(), &self.subdir),
            &self.area.file_name(&self.name, &self.ext),
        )
    }

    pub fn dir(&self) -> String {
        join(self.area.root(), &self.subdir)
    }
}

/// What a directory's module file says besides its children: a doc revision and re-exports
/// (unit path, item name).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DirMeta {
    pub doc: u32,
    pub reexports: BTreeSet<(String, String)>,
}

/// The whole generated repository.
#[derive(Clone, Debug, Default)]
pub struct Model {
    pub units: BTreeMap<String, Unit>,
    pub dirs: BTreeMap<String, DirMeta>,
    pub readme: u32,
    next_item: u32,
    next_agent: u32,
    /// Billboards set with `lexi describe`, by directory; forgotten when the directory empties.
    pub billboards: BTreeMap<String, String>,
    /// Agent texts written into design files that a later agent edit did not replace: each must
    /// still be somewhere in the library.
    pub agent_texts: BTreeSet<String>,
    /// The agent description currently in each source's design file.
    agent_descriptions: BTreeMap<String, String>,
}

/// One change to the repository (code) or to its library (an agent's edit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A new unit at `path` with `items` public functions, a module doc when `doc`, and imports
    /// of (target path, item index, style).
    Add {
        path: String,
        items: u32,
        doc: bool,
        imports: Vec<(String, usize, Style)>,
    },
    Delete(String),
    /// `git mv`-like: the unit moves, importers and re-exports follow.
    Move(String, String),
    EditBody(String),
    /// One more parameter for the item: the public interface changes.
    EditSignature(String, usize),
    /// One more public function.
    AddItem(String),
    /// The module doc comment changes (or appears).
    EditDoc(String),
    EditItemDoc(String, usize),
    AddImport(String, String, usize, Style),
    RemoveImport(String, String),
    /// The doc comment of a directory's module file (`lib.rs`, `mod.rs`, `__init__.py`,
    /// `index.js`).
    EditDirDoc(String),
    /// The directory's module file re-exports the unit's item.
    Reexport(String, String, usize),
    EditReadme,
    /// An agent rewrites the design file's description (and sets `updated_by: agent`).
    AgentDescription(String),
    /// An agent appends a `## Why` section to the design file.
    AgentSection(String),
    /// An agent appends text after the design file's footer.
    AgentAfterFooter(String),
    /// `lexi describe <dir> "…"`.
    Describe(String),
}

/// What the runner must do for a step the model cannot carry out itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LibraryEdit {
    Description { source: String, text: String },
    Section { source: String, text: String },
    AfterFooter { source: String, text: String },
    Describe { dir: String, text: String },
}

impl Model {
    /// Apply `step`: `Ok(None)` for a code change (render and write the tree), `Ok(Some(edit))`
    /// for a library edit the runner carries out, `Err` when the step names what is not there.
    pub fn apply(&mut self, step: &Step) -> Result<Option<LibraryEdit>, String> {
        match step {
            Step::Add {
                path,
                items,
                doc,
                imports,
            } => self.add(path, *items, *doc, imports)?,
            Step::Delete(path) => {
                self.unit(path)?;
                self.units.remove(path);
                self.forget_references(path);
            }
            Step::Move(from, to) => self.move_unit(from, to)?,
            Step::EditBody(path) => self.unit_mut(path)?.body += 1,
            Step::EditSignature(path, item) => self.item_mut(path, *item)?.params += 1,
            Step::AddItem(path) => {
                let name = self.item_name(path)?;
                self.unit_mut(path)?.items.push(Item {
                    name,
                    params: 0,
                    doc: 0,
                });
            }
            Step::EditDoc(path) => self.unit_mut(path)?.doc += 1,
            Step::EditItemDoc(path, item) => self.item_mut(path, *item)?.doc += 1,
            Step::AddImport(path, target, item, style) => {
                self.check_import(path, target, *item)?;
                let unit = self.unit_mut(path)?;
                unit.imports.retain(|import| import.target != *target);
                unit.imports.push(Import {
                    target: target.clone(),
                    item: *item,
                    style: *style,
                });
            }
            Step::RemoveImport(path, target) => {
                let unit = self.unit_mut(path)?;
                let before = unit.imports.len();
                unit.imports.retain(|import| import.target != *target);
                if unit.imports.len() == before {
                    return Err(format!("{path} does not import {target}"));
                }
            }
            Step::EditDirDoc(dir) => self.dirs.entry(dir.clone()).or_default().doc += 1,
            Step::Reexport(dir, path, item) => {
                let name = self.item_mut(path, *item)?.name.clone();
                if !is_under(path, dir) {
                    return Err(format!("{path} is not under {dir}"));
                }
                self.dirs
                    .entry(dir.clone())
                    .or_default()
                    .reexports
                    .insert((path.clone(), name));
            }
            Step::EditReadme => self.readme += 1,
            Step::AgentDescription(source) => {
                let text = format!(
                    "Agent says {} matters here {}.",
                    stem(source),
                    self.agent_marker()
                );
                if let Some(old) = self.agent_descriptions.insert(source.clone(), text.clone()) {
                    self.agent_texts.remove(&old);
                }
                self.agent_texts.insert(text.clone());
                return Ok(Some(LibraryEdit::Description {
                    source: source.clone(),
                    text,
                }));
            }
            Step::AgentSection(source) => {
                let text = format!("Kept for the retry budget {}.", self.agent_marker());
                self.agent_texts.insert(text.clone());
                return Ok(Some(LibraryEdit::Section {
                    source: source.clone(),
                    text,
                }));
            }
            Step::AgentAfterFooter(source) => {
                let text = format!("Remember the warm-up order {}.", self.agent_marker());
                self.agent_texts.insert(text.clone());
                return Ok(Some(LibraryEdit::AfterFooter {
                    source: source.clone(),
                    text,
                }));
            }
            Step::Describe(dir) => {
                let text = format!(
                    "Where the {} work lives {}.",
                    last(dir),
                    self.agent_marker()
                );
                self.billboards.insert(dir.clone(), text.clone());
                return Ok(Some(LibraryEdit::Describe {
                    dir: dir.clone(),
                    text,
                }));
            }
        }
        self.forget_empty_billboards();
        Ok(None)
    }

    /// An agent edit whose design file was not there: it did not happen.
    pub fn undo_library_edit(&mut self, edit: &LibraryEdit) {
        match edit {
            LibraryEdit::Description { source, text } => {
                self.agent_texts.remove(text);
                if self.agent_descriptions.get(source) == Some(text) {
                    self.agent_descriptions.remove(source);
                }
            }
            LibraryEdit::Section { text, .. } | LibraryEdit::AfterFooter { text, .. } => {
                self.agent_texts.remove(text);
            }
            LibraryEdit::Describe { dir, .. } => {
                self.billboards.remove(dir);
            }
        }
    }

    fn agent_marker(&mut self) -> String {
        self.next_agent += 1;
        format!("[agent {}]", self.next_agent)
    }

    fn add(
        &mut self,
        path: &str,
        items: u32,
        doc: bool,
        imports: &[(String, usize, Style)],
    ) -> Result<(), String> {
        if self.units.contains_key(path) {
            return Err(format!("{path} exists"));
        }
        let mut unit = unit_at(path)?;
        unit.doc = u32::from(doc);
        for _ in 0..items.max(1) {
            self.next_item += 1;
            unit.items.push(Item {
                name: format!("{}{}", unit.name, self.next_item),
                params: 0,
                doc: u32::from(doc),
            });
        }
        for (target, item, style) in imports {
            self.check_import_from(unit.area, path, target, *item)?;
            unit.imports.retain(|import| import.target != *target);
            unit.imports.push(Import {
                target: target.clone(),
                item: *item,
                style: *style,
            });
        }
        self.units.insert(path.to_string(), unit);
        Ok(())
    }

    fn move_unit(&mut self, from: &str, to: &str) -> Result<(), String> {
        let old = self.unit(from)?.clone();
        if self.units.contains_key(to) {
            return Err(format!("{to} exists"));
        }
        let mut moved = unit_at(to)?;
        if moved.area != old.area || moved.ext != old.ext {
            return Err(format!("{from} cannot move to another area: {to}"));
        }
        moved.doc = old.doc;
        moved.body = old.body;
        moved.items = old.items;
        moved.imports = old.imports;
        self.units.remove(from);
        self.units.insert(to.to_string(), moved);
        for unit in self.units.values_mut() {
            for import in &mut unit.imports {
                if import.target == from {
                    import.target = to.to_string();
                }
            }
        }
        for (dir, meta) in &mut self.dirs {
            let moved: Vec<_> = meta
                .reexports
                .iter()
                .filter(|(unit, _)| unit == from)
                .cloned()
                .collect();
            for (unit, item) in moved {
                meta.reexports.remove(&(unit, item.clone()));
                if is_under(to, dir) {
                    meta.reexports.insert((to.to_string(), item));
                }
            }
        }
        if let Some(text) = self.agent_descriptions.remove(from) {
            self.agent_descriptions.insert(to.to_string(), text);
        }
        Ok(())
    }

    /// Imports and re-exports of a deleted unit go, as a developer removes them.
    fn forget_references(&mut self, path: &str) {
        for unit in self.units.values_mut() {
            unit.imports.retain(|import| import.target != path);
        }
        for meta in self.dirs.values_mut() {
            meta.reexports.retain(|(unit, _)| unit != path);
        }
    }

    fn forget_empty_billboards(&mut self) {
        let dirs = self.tree_dirs();
        self.billboards.retain(|dir, _| dirs.contains(dir));
    }

    fn check_import(&self, path: &str, target: &str, item: usize) -> Result<(), String> {
        let area = self.unit(path)?.area;
        self.check_import_from(area, path, target, item)
    }

    fn check_import_from(
        &self,
        area: Area,
        path: &str,
        target: &str,
        item: usize,
    ) -> Result<(), String> {
        let target_unit = self.unit(target)?;
        if target == path || !area.may_import(target_unit.area) {
            return Err(format!("{path} may not import {target}"));
        }
        if item >= target_unit.items.len() {
            return Err(format!("{target} has no item {item}"));
        }
        Ok(())
    }

    /// The name of a new item of `path`: its stem and a number no other item has.
    fn item_name(&mut self, path: &str) -> Result<String, String> {
        let name = self.unit(path)?.name.clone();
        self.next_item += 1;
        Ok(format!("{name}{}", self.next_item))
    }

    pub fn unit(&self, path: &str) -> Result<&Unit, String> {
        self.units
            .get(path)
            .ok_or_else(|| format!("no unit {path}"))
    }

    fn unit_mut(&mut self, path: &str) -> Result<&mut Unit, String> {
        self.units
            .get_mut(path)
            .ok_or_else(|| format!("no unit {path}"))
    }

    fn item_mut(&mut self, path: &str, item: usize) -> Result<&mut Item, String> {
        let unit = self.unit_mut(path)?;
        unit.items
            .get_mut(item)
            .ok_or_else(|| format!("{path} has no item {item}"))
    }

    /// Every directory holding a file of the rendered tree (`.` for the root).
    pub fn tree_dirs(&self) -> BTreeSet<String> {
        let mut dirs = BTreeSet::new();
        for path in self.render().keys() {
            let mut dir = parent(path);
            loop {
                dirs.insert(dir.clone());
                if dir == "." {
                    break;
                }
                dir = parent(&dir);
            }
        }
        dirs
    }

    /// The directories whose module file exists (or would, for `index.js`, once it has a doc).
    pub fn module_dirs(&self) -> Vec<String> {
        let mut dirs: BTreeSet<String> =
            ["crates/alpha/src", "crates/beta/src", "python/src/snake"]
                .into_iter()
                .map(String::from)
                .collect();
        for unit in self.units.values() {
            let root = unit.area.root();
            if matches!(unit.area, Area::AlphaTests | Area::PyTests | Area::WebTests) {
                continue;
            }
            let mut dir = unit.dir();
            while dir.len() >= root.len() {
                dirs.insert(dir.clone());
                if dir == root {
                    break;
                }
                dir = parent(&dir);
            }
        }
        dirs.into_iter().collect()
    }
}

/// A unit at `path`, without content.
fn unit_at(path: &str) -> Result<Unit, String> {
    let area = Area::of_path(path).ok_or_else(|| format!("{path} is in no area"))?;
    let rest = path
        .strip_prefix(area.root())
        .and_then(|rest| rest.strip_prefix('/'))
        .ok_or_else(|| format!("{path} is not under {}", area.root()))?;
    let (subdir, file) = match rest.rsplit_once('/') {
        Some((dir, file)) => (dir.to_string(), file),
        None => (String::new(), rest),
    };
    if !area.subdirs().contains(&subdir.as_str()) {
        return Err(format!("{path}: {subdir} is not a directory of {area:?}"));
    }
    let exts: &[&str] = match area.lang() {
        Lang::Rust => &["rs"],
        Lang::Python => &["py"],
        Lang::Web => &["js", "ts"],
    };
    let (name, ext) = NAMES
        .iter()
        .flat_map(|name| exts.iter().map(move |ext| (*name, *ext)))
        .find(|(name, ext)| area.file_name(name, ext) == file)
        .ok_or_else(|| format!("{path}: not a unit file name of {area:?}"))?;
    Ok(Unit {
        area,
        subdir,
        name: name.to_string(),
        ext: ext.to_string(),
        doc: 0,
        body: 0,
        items: Vec::new(),
        imports: Vec::new(),
    })
}

pub fn join(dir: &str, name: &str) -> String {
    match (dir.is_empty() || dir == ".", name.is_empty()) {
        (true, _) => name.to_string(),
        (_, true) => dir.to_string(),
        _ => format!("{dir}/{name}"),
    }
}

/// The parent directory of a path (`.` for a top-level one).
pub fn parent(path: &str) -> String {
    match path.rsplit_once('/') {
        Some((dir, _)) => dir.to_string(),
        None => ".".to_string(),
    }
}

pub fn last(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn stem(path: &str) -> &str {
    let file = last(path);
    file.split('.').next().unwrap_or(file)
}

/// Whether `path` is inside directory `dir`.
pub fn is_under(path: &str, dir: &str) -> bool {
    path.strip_prefix(dir)
        .is_some_and(|rest| rest.starts_with('/'))
}

// --- steps as code ------------------------------------------------------------------------------

/// Constructors that read like the scenario (and that a counterexample prints).
pub fn add(path: &str, items: u32, doc: bool, imports: &[(&str, usize, Style)]) -> Step {
    Step::Add {
        path: path.into(),
        items,
        doc,
        imports: imports
            .iter()
            .map(|(target, item, style)| (target.to_string(), *item, *style))
            .collect(),
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Step::Add {
                path,
                items,
                doc,
                imports,
            } => {
                let imports: Vec<String> = imports
                    .iter()
                    .map(|(target, item, style)| format!("({target:?}, {item}, {style:?})"))
                    .collect();
                write!(
                    f,
                    "add({path:?}, {items}, {doc}, &[{}])",
                    imports.join(", ")
                )
            }
            Step::Delete(p) => write!(f, "Step::Delete({p:?}.into())"),
            Step::Move(a, b) => write!(f, "Step::Move({a:?}.into(), {b:?}.into())"),
            Step::EditBody(p) => write!(f, "Step::EditBody({p:?}.into())"),
            Step::EditSignature(p, i) => write!(f, "Step::EditSignature({p:?}.into(), {i})"),
            Step::AddItem(p) => write!(f, "Step::AddItem({p:?}.into())"),
            Step::EditDoc(p) => write!(f, "Step::EditDoc({p:?}.into())"),
            Step::EditItemDoc(p, i) => write!(f, "Step::EditItemDoc({p:?}.into(), {i})"),
            Step::AddImport(p, t, i, s) => {
                write!(f, "Step::AddImport({p:?}.into(), {t:?}.into(), {i}, {s:?})")
            }
            Step::RemoveImport(p, t) => write!(f, "Step::RemoveImport({p:?}.into(), {t:?}.into())"),
            Step::EditDirDoc(d) => write!(f, "Step::EditDirDoc({d:?}.into())"),
            Step::Reexport(d, p, i) => write!(f, "Step::Reexport({d:?}.into(), {p:?}.into(), {i})"),
            Step::EditReadme => write!(f, "Step::EditReadme"),
            Step::AgentDescription(p) => write!(f, "Step::AgentDescription({p:?}.into())"),
            Step::AgentSection(p) => write!(f, "Step::AgentSection({p:?}.into())"),
            Step::AgentAfterFooter(p) => write!(f, "Step::AgentAfterFooter({p:?}.into())"),
            Step::Describe(d) => write!(f, "Step::Describe({d:?}.into())"),
        }
    }
}
