//! Where a member's name is called but resolution cannot tell whether the call reaches it — the
//! **name matches** `lexi lookup --member` counts apart from its callers: a call through an object
//! whose type nothing says (`res.send(…)` in an express handler, `sem.acquire()`), in a file that
//! reaches the member's file. They are never given as callers: counted, code apart from tests, the
//! first files named.
//!
//! The files looked at are the member's file's neighbours (`workspace::calls` keeps their
//! unresolved matches) and the files that reach it through up to [`DEPTH`] levels of run-time
//! imports — [`FILES_READ`] at most, nearest first, so a lookup stays a few milliseconds.

use std::collections::{BTreeMap, HashSet};

use crate::archivist::is_test_path;
use crate::source::calls::{Callee, MemberCalls};
use crate::workspace::calls::{receiver_is_another_types, Caller, COMMON_METHODS};
use crate::workspace::graph::Graph;

/// Levels of importers looked through for name matches.
pub const DEPTH: usize = 3;
/// Files read for name matches, at most.
pub const FILES_READ: usize = 400;

/// The name matches of a member: code and tests apart, by path.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct NameMatches {
    /// Code files calling the name through an object of unknown type, with their members.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub code: Vec<Caller>,
    /// Test files doing so.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tests: Vec<Caller>,
}

impl NameMatches {
    pub fn is_empty(&self) -> bool {
        self.code.is_empty() && self.tests.is_empty()
    }

    /// The neighbours' unresolved calls of the name, split into code and tests.
    pub fn of_neighbours(callers: Vec<Caller>) -> NameMatches {
        let (tests, code) = callers.into_iter().partition(|c| is_test_path(&c.file));
        NameMatches { code, tests }
    }

    /// Members calling the name, in code and in tests.
    pub fn sites(&self) -> (usize, usize) {
        let count = |list: &[Caller]| list.iter().map(|c| c.members.len()).sum();
        (count(&self.code), count(&self.tests))
    }

    /// Add the calls of `label`'s name through an unknown object in the files that reach
    /// `source` (within [`DEPTH`] levels, [`FILES_READ`] at most), leaving out the members
    /// `resolved` names — and, in Rust, whose types inherit no methods, the calls through a
    /// receiver named for another type the caller makes (`workspace::calls`).
    pub fn widen(&mut self, graph: &Graph, source: &str, label: &str, resolved: &[Caller]) {
        let name = label.rsplit('.').next().unwrap_or(label);
        if name.len() < 3 || COMMON_METHODS.contains(&name) {
            return;
        }
        let owner = label
            .rsplit_once('.')
            .map(|(owner, _)| owner)
            .filter(|_| source.ends_with(".rs"));
        let mut found: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for known in self.code.iter().chain(&self.tests) {
            found.insert(known.file.clone(), known.members.clone());
        }
        for file in reaching(graph, source) {
            if found.contains_key(&file) {
                continue;
            }
            let sure: Vec<&String> = resolved
                .iter()
                .filter(|c| c.file == file)
                .flat_map(|c| &c.members)
                .collect();
            let members: Vec<String> = graph
                .member_calls(&file)
                .iter()
                .filter(|member| !sure.contains(&&member.member))
                .filter(|member| {
                    member.callees.iter().any(|callee| {
                        through_other_object(callee, name)
                            && !owner.is_some_and(|owner| another_types(member, callee, owner))
                    })
                })
                .map(|member| member.member.clone())
                .collect();
            if !members.is_empty() {
                found.insert(file, members);
            }
        }
        let all: Vec<Caller> = found
            .into_iter()
            .map(|(file, members)| Caller { file, members })
            .collect();
        *self = NameMatches::of_neighbours(all);
    }
}

/// The files reaching `source` through run-time imports, nearest first, at most [`FILES_READ`].
fn reaching(graph: &Graph, source: &str) -> Vec<String> {
    importers_within(graph, source, true)
}

/// The files importing `source`, [`DEPTH`] levels deep, nearest first, at most [`FILES_READ`]
/// (`run_time_only`: not through imports made only for the type checker).
pub(super) fn importers_within(graph: &Graph, source: &str, run_time_only: bool) -> Vec<String> {
    let mut seen: HashSet<String> = HashSet::from([source.to_string()]);
    let mut out: Vec<String> = Vec::new();
    let mut frontier = vec![source.to_string()];
    for _ in 0..DEPTH {
        let mut next = Vec::new();
        for file in &frontier {
            for importer in graph.dependents(file) {
                let type_only = run_time_only && graph.is_type_only(&importer, file);
                if type_only || !seen.insert(importer.clone()) {
                    continue;
                }
                if out.len() >= FILES_READ {
                    return out;
                }
                out.push(importer.clone());
                next.push(importer);
            }
        }
        frontier = next;
    }
    out
}

/// Whether a call through an object is, by what `member` makes, on another type's than `owner`:
/// its receiver is named for another type the member constructs (a stated type may be a trait
/// object or a wrapper of `owner`, so it stays a name match).
fn another_types(member: &MemberCalls, callee: &Callee, owner: &str) -> bool {
    match callee {
        Callee::TypedReceiver { .. } => false,
        _ => receiver_is_another_types(member, callee.receiver(), owner),
    }
}

/// Whether `callee` calls `name` through an object other than the member's own (a receiver
/// named, typed, or a Go package): a name match a resolution could not tell.
fn through_other_object(callee: &Callee, name: &str) -> bool {
    match callee {
        Callee::Receiver { .. } | Callee::TypedReceiver { .. } | Callee::Package { .. } => {
            callee.name() == name
        }
        Callee::Bare(_) | Callee::OwnObject(_) | Callee::TypePath { .. } => false,
    }
}
