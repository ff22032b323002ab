//! Random scenarios for the fixed-point properties: an initial tree and a history of commits.
//!
//! proptest generates abstract operations whose choices are [`Index`]es ("the third unit",
//! "some target it may import"), and each is resolved against the model as it stands at that point
//! into a concrete [`Step`] named by paths — or dropped when it names nothing (no unit to delete
//! yet). Shrinking works on the abstract operations (fewer commits, fewer operations, earlier
//! choices) and every shrunk input still resolves to a valid history, which is what makes the
//! minimal counterexample short. A [`Scenario`] prints as Rust code, ready for a regression test.

use std::collections::BTreeSet;
use std::fmt;

use proptest::prelude::*;
use proptest::sample::Index;

use super::model::{join, parent, Area, Lang, Model, Step, Style, NAMES, STYLES};

/// The token budgets of the generated project's config.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Budgets {
    /// `lexictl init`'s defaults.
    Default,
    /// Small enough that a few files hit them: capped lists ("… and N more"), abridged contracts,
    /// START_HERE dropping directories, `.aindex` rows over budget.
    Tight,
}

impl Budgets {
    /// What the project config says (merged into `.lexibrary/config.yaml`).
    pub fn config(self) -> Option<&'static str> {
        match self {
            Budgets::Default => None,
            Budgets::Tight => Some(
                "token_budgets:\n  design_file_tokens: 160\n  start_here_tokens: 520\n  aindex_tokens: 120\n",
            ),
        }
    }
}

/// An initial tree (files only) and the commits made on top of it, each of one or more steps.
#[derive(Clone, PartialEq, Eq)]
pub struct Scenario {
    pub budgets: Budgets,
    pub initial: Vec<Step>,
    pub commits: Vec<Vec<Step>>,
}

impl fmt::Debug for Scenario {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Scenario {{")?;
        writeln!(f, "    budgets: Budgets::{:?},", self.budgets)?;
        writeln!(f, "    initial: vec![")?;
        for step in &self.initial {
            writeln!(f, "        {step},")?;
        }
        writeln!(f, "    ],")?;
        writeln!(f, "    commits: vec![")?;
        for commit in &self.commits {
            match commit.as_slice() {
                [step] => writeln!(f, "        vec![{step}],")?,
                steps => {
                    writeln!(f, "        vec![")?;
                    for step in steps {
                        writeln!(f, "            {step},")?;
                    }
                    writeln!(f, "        ],")?;
                }
            }
        }
        writeln!(f, "    ],")?;
        write!(f, "}}")
    }
}

/// Areas new units go to, sources twice as often as tests.
const ADD_AREAS: [Area; 12] = [
    Area::AlphaSrc,
    Area::AlphaSrc,
    Area::BetaSrc,
    Area::AlphaTests,
    Area::PySrc,
    Area::PySrc,
    Area::PyTests,
    Area::PyInlineTests,
    Area::WebSrc,
    Area::WebSrc,
    Area::WebTests,
    Area::WebInlineTests,
];

/// One operation before resolution.
#[derive(Clone, Debug)]
enum Op {
    Add {
        area: Index,
        dir: Index,
        name: Index,
        ts: bool,
        items: u32,
        doc: bool,
        imports: Vec<(Index, Index, Style)>,
    },
    Delete(Index),
    Move(Index, Index, Index),
    EditBody(Index),
    EditSignature(Index, Index),
    AddItem(Index),
    EditDoc(Index),
    EditItemDoc(Index, Index),
    AddImport(Index, Index, Index, Style),
    RemoveImport(Index, Index),
    EditDirDoc(Index),
    Reexport(Index, Index, Index),
    EditReadme,
    AgentDescription(Index),
    AgentSection(Index),
    AgentAfterFooter(Index),
    Describe(Index),
}

fn style() -> impl Strategy<Value = Style> {
    proptest::sample::select(STYLES.to_vec())
}

fn add_op() -> impl Strategy<Value = Op> {
    (
        any::<Index>(),
        any::<Index>(),
        any::<Index>(),
        any::<bool>(),
        1u32..=3,
        any::<bool>(),
        proptest::collection::vec((any::<Index>(), any::<Index>(), style()), 0..=2),
    )
        .prop_map(|(area, dir, name, ts, items, doc, imports)| Op::Add {
            area,
            dir,
            name,
            ts,
            items,
            doc,
            imports,
        })
}

/// What a module file says: operations that make sense before the first library exists too.
fn module_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        any::<Index>().prop_map(Op::EditDirDoc),
        (any::<Index>(), any::<Index>(), any::<Index>())
            .prop_map(|(u, i, d)| Op::Reexport(u, i, d)),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    let index = any::<Index>;
    prop_oneof![
        4 => add_op(),
        2 => index().prop_map(Op::Delete),
        2 => (index(), index(), index()).prop_map(|(u, d, n)| Op::Move(u, d, n)),
        3 => index().prop_map(Op::EditBody),
        2 => (index(), index()).prop_map(|(u, i)| Op::EditSignature(u, i)),
        1 => index().prop_map(Op::AddItem),
        2 => index().prop_map(Op::EditDoc),
        1 => (index(), index()).prop_map(|(u, i)| Op::EditItemDoc(u, i)),
        3 => (index(), index(), index(), style()).prop_map(|(u, t, i, s)| Op::AddImport(u, t, i, s)),
        1 => (index(), index()).prop_map(|(u, i)| Op::RemoveImport(u, i)),
        2 => module_op(),
        1 => Just(Op::EditReadme),
        2 => index().prop_map(Op::AgentDescription),
        1 => index().prop_map(Op::AgentSection),
        1 => index().prop_map(Op::AgentAfterFooter),
        1 => index().prop_map(Op::Describe),
    ]
}

/// Random scenarios: 3–9 initial files (and up to two module-file changes), then 1–6 commits of
/// 1–3 operations each.
pub fn scenarios() -> impl Strategy<Value = Scenario> {
    (
        prop_oneof![Just(Budgets::Default), Just(Budgets::Tight)],
        proptest::collection::vec(add_op(), 3..10),
        proptest::collection::vec(module_op(), 0..=2),
        proptest::collection::vec(proptest::collection::vec(op(), 1..=3), 1..=6),
    )
        .prop_map(|(budgets, adds, modules, commits)| resolve(budgets, adds, modules, commits))
}

fn resolve(budgets: Budgets, adds: Vec<Op>, modules: Vec<Op>, commits: Vec<Vec<Op>>) -> Scenario {
    let mut model = Model::default();
    let mut initial = Vec::new();
    for op in adds.iter().chain(&modules) {
        if let Some(step) = resolve_op(&model, op) {
            model.apply(&step).expect("a resolved step applies");
            initial.push(step);
        }
    }
    let mut resolved = Vec::new();
    for ops in &commits {
        let mut steps = Vec::new();
        let mut interface_changed = BTreeSet::new();
        let mut agent_edited = BTreeSet::new();
        for op in ops {
            let step = resolve_op(&model, op).filter(|step| {
                !contradicts_in_one_commit(step, &mut interface_changed, &mut agent_edited)
            });
            if let Some(step) = step {
                model.apply(&step).expect("a resolved step applies");
                steps.push(step);
            }
        }
        if !steps.is_empty() {
            resolved.push(steps);
        }
    }
    Scenario {
        budgets,
        initial,
        commits: resolved,
    }
}

/// Whether `step` is an agent's edit of a design file whose source's interface changed in the same
/// commit, or the other way round. Such a design file is the agent's and its contract no longer the
/// code's: `lexictl validate` rightly reports `stale-contract` (docs/formats.md), an agent's lie
/// and not the tool's, so the generator does not make it. (Across commits it is fine: the next
/// interface change regenerates the contract around the agent's text.)
fn contradicts_in_one_commit(
    step: &Step,
    interface_changed: &mut BTreeSet<String>,
    agent_edited: &mut BTreeSet<String>,
) -> bool {
    let (path, mine, theirs) = match step {
        Step::EditSignature(path, _) | Step::AddItem(path) => {
            (path, interface_changed, &*agent_edited)
        }
        Step::AgentDescription(path) | Step::AgentSection(path) | Step::AgentAfterFooter(path) => {
            (path, agent_edited, &*interface_changed)
        }
        _ => return false,
    };
    if theirs.contains(path) {
        return true;
    }
    mine.insert(path.clone());
    false
}

/// The concrete step `op` stands for in `model`, or `None` when it names nothing.
fn resolve_op(model: &Model, op: &Op) -> Option<Step> {
    let units: Vec<&String> = model.units.keys().collect();
    let unit = |index: &Index| (!units.is_empty()).then(|| units[index.index(units.len())].clone());
    let item = |path: &str, index: &Index| index.index(model.units[path].items.len());
    match op {
        Op::Add {
            area,
            dir,
            name,
            ts,
            items,
            doc,
            imports,
        } => {
            let area = ADD_AREAS[area.index(ADD_AREAS.len())];
            let subdir = area.subdirs()[dir.index(area.subdirs().len())];
            let path = free_path(model, area, subdir, name.index(NAMES.len()), *ts, None)?;
            let targets: Vec<&String> = model
                .units
                .iter()
                .filter(|(_, unit)| area.may_import(unit.area))
                .map(|(path, _)| path)
                .collect();
            let mut chosen: Vec<(String, usize, Style)> = Vec::new();
            if !targets.is_empty() {
                for (target, item_index, style) in imports {
                    let target = targets[target.index(targets.len())].clone();
                    if chosen.iter().any(|(t, _, _)| *t == target) {
                        continue;
                    }
                    let item = item(&target, item_index);
                    chosen.push((target, item, *style));
                }
            }
            Some(Step::Add {
                path,
                items: *items,
                doc: *doc,
                imports: chosen,
            })
        }
        Op::Delete(index) => Some(Step::Delete(unit(index)?)),
        Op::Move(index, dir, name) => {
            let from = unit(index)?;
            let moved = &model.units[&from];
            let subdir = moved.area.subdirs()[dir.index(moved.area.subdirs().len())];
            let to = free_path(
                model,
                moved.area,
                subdir,
                name.index(NAMES.len()),
                moved.ext == "ts",
                Some(&from),
            )?;
            Some(Step::Move(from, to))
        }
        Op::EditBody(index) => Some(Step::EditBody(unit(index)?)),
        Op::EditSignature(index, item_index) => {
            let path = unit(index)?;
            let item = item(&path, item_index);
            Some(Step::EditSignature(path, item))
        }
        Op::AddItem(index) => Some(Step::AddItem(unit(index)?)),
        Op::EditDoc(index) => Some(Step::EditDoc(unit(index)?)),
        Op::EditItemDoc(index, item_index) => {
            let path = unit(index)?;
            let item = item(&path, item_index);
            Some(Step::EditItemDoc(path, item))
        }
        Op::AddImport(index, target, item_index, style) => {
            let path = unit(index)?;
            let area = model.units[&path].area;
            let targets: Vec<&String> = model
                .units
                .iter()
                .filter(|(other, unit)| **other != path && area.may_import(unit.area))
                .map(|(path, _)| path)
                .collect();
            if targets.is_empty() {
                return None;
            }
            let target = targets[target.index(targets.len())].clone();
            let item = item(&target, item_index);
            Some(Step::AddImport(path, target, item, *style))
        }
        Op::RemoveImport(index, import) => {
            let importers: Vec<&String> = model
                .units
                .iter()
                .filter(|(_, unit)| !unit.imports.is_empty())
                .map(|(path, _)| path)
                .collect();
            if importers.is_empty() {
                return None;
            }
            let path = importers[index.index(importers.len())].clone();
            let imports = &model.units[&path].imports;
            let target = imports[import.index(imports.len())].target.clone();
            Some(Step::RemoveImport(path, target))
        }
        Op::EditDirDoc(index) => {
            let dirs = model.module_dirs();
            Some(Step::EditDirDoc(dirs[index.index(dirs.len())].clone()))
        }
        Op::Reexport(index, item_index, dir) => {
            let sources: Vec<&String> = model
                .units
                .iter()
                .filter(|(_, unit)| {
                    matches!(
                        unit.area,
                        Area::AlphaSrc | Area::BetaSrc | Area::PySrc | Area::WebSrc
                    )
                })
                .map(|(path, _)| path)
                .collect();
            if sources.is_empty() {
                return None;
            }
            let path = sources[index.index(sources.len())].clone();
            let item = item(&path, item_index);
            let ancestors = module_ancestors(model, &path);
            let dir = ancestors[dir.index(ancestors.len())].clone();
            Some(Step::Reexport(dir, path, item))
        }
        Op::EditReadme => Some(Step::EditReadme),
        Op::AgentDescription(index) => Some(Step::AgentDescription(unit(index)?)),
        Op::AgentSection(index) => Some(Step::AgentSection(unit(index)?)),
        Op::AgentAfterFooter(index) => Some(Step::AgentAfterFooter(unit(index)?)),
        Op::Describe(index) => {
            let dirs: Vec<String> = model.tree_dirs().into_iter().collect();
            Some(Step::Describe(dirs[index.index(dirs.len())].clone()))
        }
    }
}

/// The first free path for a unit of `area` in `subdir`, trying names from `start` on (skipping
/// `current`, the unit's own path when it moves).
fn free_path(
    model: &Model,
    area: Area,
    subdir: &str,
    start: usize,
    ts: bool,
    current: Option<&str>,
) -> Option<String> {
    let ext = match area.lang() {
        Lang::Rust => "rs",
        Lang::Python => "py",
        Lang::Web if ts => "ts",
        Lang::Web => "js",
    };
    (0..NAMES.len())
        .map(|offset| NAMES[(start + offset) % NAMES.len()])
        .map(|name| path_of(area, subdir, name, ext))
        .find(|path| Some(path.as_str()) != current && !model.units.contains_key(path))
}

fn path_of(area: Area, subdir: &str, name: &str, ext: &str) -> String {
    join(&join(area.root(), subdir), &area.file_name(name, ext))
}

/// The module directories from a unit's own directory up to its area's root.
fn module_ancestors(model: &Model, path: &str) -> Vec<String> {
    let unit = &model.units[path];
    let root = unit.area.root();
    let mut dirs = Vec::new();
    let mut dir = unit.dir();
    loop {
        dirs.push(dir.clone());
        if dir == root {
            return dirs;
        }
        dir = parent(&dir);
    }
}
