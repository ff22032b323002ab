//! Who calls what, for `lexi lookup`: a file's **Calls** (its members calling its other members)
//! and **Called from** (members of its neighbours calling its public names), from the calls the
//! last update recorded per file in the update cache (`cache::Entry::calls`, extracted by
//! `source::calls`). The neighbours are the file's importers and the files it imports: a module
//! the file imports calls back into it through a runtime proxy or a callback (flask's
//! `helpers.make_response` calls `current_app.make_response`, `app.py` imports `helpers.py`).
//!
//! Called from follows the graph like Dependents: it is computed when read, so it moves when the
//! callers change. A lookup reads only the graph's lines of the file and of its neighbours (a
//! binary search in the derived graph file, `super::graph`).
//!
//! Matching is by final identifier, conservatively:
//! - Calls: a bare call, or one through `self`/`this`/`Self`/the member's own object, of a name
//!   another member of the file has; a Rust `Type::name()` when the file defines `Type.name`.
//! - Called from: a neighbour's member calling one of the file's public names of at least
//!   [`MIN_NAME`] characters that is no protocol method (`__init__`) — bare (and not a name the
//!   neighbour defines itself, which would shadow it), through another object (`current_app.make_response(…)`, unless the name is one of the
//!   [`COMMON_METHODS`] every standard library has), or as `Type::name()` of a public type.

use std::collections::{BTreeMap, BTreeSet};

use super::cache::{Entry, Stat};
use super::graph::Graph;
use crate::project::walk::FileClass;
use crate::source::calls::{MemberCalls, Reach};

/// Public names shorter than this are too ambiguous to match across files.
pub const MIN_NAME: usize = 3;

/// Method names so common on standard-library values (collections, strings, I/O, promises) that a
/// call through an unknown object says nothing about which file it reaches.
pub const COMMON_METHODS: &[&str] = &[
    "add",
    "all",
    "any",
    "append",
    "apply",
    "as_ref",
    "as_str",
    "bind",
    "call",
    "catch",
    "clear",
    "clone",
    "close",
    "collect",
    "contains",
    "copy",
    "count",
    "default",
    "delete",
    "emit",
    "encode",
    "decode",
    "entries",
    "expect",
    "extend",
    "filter",
    "find",
    "flush",
    "for_each",
    "forEach",
    "format",
    "from",
    "get",
    "has",
    "index",
    "insert",
    "into",
    "is_empty",
    "is_none",
    "is_some",
    "items",
    "iter",
    "join",
    "keys",
    "len",
    "lock",
    "map",
    "new",
    "next",
    "open",
    "parse",
    "pop",
    "push",
    "read",
    "reduce",
    "remove",
    "replace",
    "reverse",
    "set",
    "slice",
    "sort",
    "split",
    "strip",
    "then",
    "toString",
    "to_owned",
    "to_string",
    "unwrap",
    "update",
    "values",
    "write",
];

/// One member and the members of its own file it calls.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MemberEdges {
    pub member: String,
    pub calls: Vec<String>,
}

/// A dependent's members calling one public name.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Caller {
    pub file: String,
    pub members: Vec<String>,
}

/// The callers of one public name.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CalledFrom {
    pub name: String,
    pub callers: Vec<Caller>,
}

/// A file's calls and callers.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct CallsView {
    /// Members calling other members of the file, in source order.
    pub calls: Vec<MemberEdges>,
    /// The file's public names called by its dependents, by name; callers by path.
    pub called_from: Vec<CalledFrom>,
}

impl CallsView {
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty() && self.called_from.is_empty()
    }

    /// The view of `source` in `graph`, its neighbours being the files it imports and those
    /// importing it; `None` when the last update did not see `source`.
    pub fn read(graph: &Graph, source: &str) -> Option<CallsView> {
        if !graph.knows(source) {
            return None;
        }
        let own = entry_in(graph, source);
        let mut neighbours: BTreeMap<String, Entry> = BTreeMap::new();
        for file in own.deps.iter().chain(&graph.dependents(source)) {
            if file != source && !neighbours.contains_key(file) {
                neighbours.insert(file.clone(), entry_in(graph, file));
            }
        }
        Some(view(&own, &neighbours))
    }
}

/// What matching needs of `file`: its dependencies, public names and calls.
fn entry_in(graph: &Graph, file: &str) -> Entry {
    let unknown = Stat {
        size: 0,
        mtime_ns: 0,
    };
    Entry {
        deps: graph.dependencies(file),
        symbols: graph.symbols(file),
        calls: graph.calls(file),
        ..Entry::unhashed(unknown, FileClass::Text, String::new())
    }
}

/// A Python protocol method (`__init__`, `__call__`): every class has them.
fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

fn decode(entry: &Entry) -> Vec<MemberCalls> {
    entry
        .calls
        .iter()
        .filter_map(|item| MemberCalls::decode(item))
        .collect()
}

/// The view of a file's entry and its neighbours' entries.
pub fn view(own: &Entry, neighbours: &BTreeMap<String, Entry>) -> CallsView {
    let members = decode(own);
    CallsView {
        calls: edges(&members),
        called_from: callers(own, neighbours),
    }
}

/// Member → member edges within one file.
fn edges(members: &[MemberCalls]) -> Vec<MemberEdges> {
    let names: BTreeSet<&str> = members.iter().map(MemberCalls::name).collect();
    let labels: BTreeSet<&str> = members.iter().map(|m| m.member.as_str()).collect();
    let mut out = Vec::new();
    for member in members {
        let mut calls: Vec<String> = Vec::new();
        for callee in &member.callees {
            let target = match Reach::of(callee) {
                Reach::Own(name) if names.contains(name) && name != member.name() => name,
                Reach::Typed(..) if labels.contains(callee.as_str()) => callee.as_str(),
                _ => continue,
            };
            if !calls.iter().any(|c| c == target) {
                calls.push(target.to_string());
            }
        }
        if !calls.is_empty() {
            out.push(MemberEdges {
                member: member.member.clone(),
                calls,
            });
        }
    }
    out
}

/// The neighbours' members calling `own`'s public names.
fn callers(own: &Entry, neighbours: &BTreeMap<String, Entry>) -> Vec<CalledFrom> {
    let public: BTreeSet<&str> = own
        .symbols
        .iter()
        .map(String::as_str)
        .filter(|name| name.chars().count() >= MIN_NAME && !is_dunder(name))
        .collect();
    let mut found: BTreeMap<String, BTreeMap<&str, Vec<String>>> = BTreeMap::new();
    for (file, entry) in neighbours {
        let members = decode(entry);
        let defined: BTreeSet<&str> = members.iter().map(MemberCalls::name).collect();
        for member in &members {
            for callee in &member.callees {
                let name = match Reach::of(callee) {
                    Reach::Own(name) if public.contains(name) && !defined.contains(name) => {
                        name.to_string()
                    }
                    Reach::Other(name)
                        if public.contains(name) && !COMMON_METHODS.contains(&name) =>
                    {
                        name.to_string()
                    }
                    Reach::Typed(ty, name) if public.contains(ty) && public.contains(name) => {
                        format!("{ty}::{name}")
                    }
                    _ => continue,
                };
                let callers = found.entry(name).or_default().entry(file).or_default();
                if !callers.contains(&member.member) {
                    callers.push(member.member.clone());
                }
            }
        }
    }
    found
        .into_iter()
        .map(|(name, by_file)| CalledFrom {
            name,
            callers: by_file
                .into_iter()
                .map(|(file, members)| Caller {
                    file: file.to_string(),
                    members,
                })
                .collect(),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::cache::Cache;

    fn entry(deps: &[&str], symbols: &[&str], calls: &[&str]) -> Entry {
        Entry {
            symbols: symbols.iter().map(|s| s.to_string()).collect(),
            calls: calls.iter().map(|s| s.to_string()).collect(),
            ..Entry::with_deps(deps)
        }
    }

    /// A called name and its callers: (file, members).
    type Row = (String, Vec<(String, Vec<String>)>);

    /// The graph of a cache of these entries.
    fn graph_of(entries: Vec<(&str, Entry)>) -> Graph {
        let mut cache = Cache::default();
        for (path, entry) in entries {
            cache.entries.insert(path.to_string(), entry);
        }
        Graph::from_cache(cache)
    }

    #[test]
    fn calls_within_the_file_and_callers_among_its_neighbours() {
        let graph = graph_of(vec![
            (
                "app.py",
                entry(
                    &["helpers.py"],
                    &[
                        "App",
                        "make_response",
                        "finalize_request",
                        "run",
                        "__init__",
                    ],
                    &[
                        "App.finalize_request make_response .make_response len",
                        "App.make_response get_flag",
                        "App.run run",
                    ],
                ),
            ),
            (
                "helpers.py",
                entry(
                    &[],
                    &["make_response", "get_flag"],
                    &["make_response .make_response make_response", "get_flag"],
                ),
            ),
            (
                "views.py",
                entry(
                    &["app.py"],
                    &[],
                    &["index .finalize_request .get .run .__init__", "run"],
                ),
            ),
            (
                "other.py",
                entry(&["helpers.py"], &[], &["x .make_response"]),
            ),
            (
                "main.rs",
                entry(&["app.py"], &[], &["main App.run Other.run .len"]),
            ),
        ]);
        let view = CallsView::read(&graph, "app.py").expect("view");
        assert_eq!(
            view.calls,
            [MemberEdges {
                member: "App.finalize_request".into(),
                calls: vec!["make_response".into()],
            }]
        );
        let called: Vec<Row> = view
            .called_from
            .into_iter()
            .map(|c| {
                let callers = c.callers.into_iter().map(|c| (c.file, c.members));
                (c.name, callers.collect())
            })
            .collect();
        let row = |name: &str, file: &str, member: &str| {
            (
                name.to_string(),
                vec![(file.to_string(), vec![member.to_string()])],
            )
        };
        assert_eq!(
            called,
            [
                row("App::run", "main.rs", "main"),
                row("finalize_request", "views.py", "index"),
                row("make_response", "helpers.py", "make_response"),
                // `run` through another object; views.py's own bare `run` is its own.
                row("run", "views.py", "index"),
            ]
        );
        assert_eq!(CallsView::read(&graph, "missing.py"), None);
    }
}
