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
//! - Calls: a bare call of a free function of the file, a call through `self`/`this`/`Self`/the
//!   member's own object of a method of the file (aliases included: `this.set` reaches `res.set =
//!   res.header`) — a bare `send(…)` never reaches the method `res.send` — and the member itself
//!   when it recurses; a Rust `Type::name()` when the file defines `Type.name`. Each member's
//!   literal-key calls (`app.get('json spaces')`) are grouped by callee ([`KeyGroup`]).
//! - Called from, for a public name of at least [`MIN_NAME`] characters that is no protocol method
//!   (`__init__`), only where resolution supports it:
//!   - from an *importer*: a bare call (unless the importer defines the name, which would shadow
//!     it), `Type::name()` of a public type, a call through the module object (`helpers.x()`:
//!     the receiver is named for the file), a call of a method through an object named for its
//!     owner type (`self.semaphore.acquire()`, `self.app.create_url_adapter()`) or made by the
//!     calling member (`App().make_response(…)`, `Buffer::new().fill()`, `let tx = channel();
//!     tx.send(…)`), and a subclass's call through `self` of a method its bases (`%Flask App`
//!     items) get from the file;
//!   - from a file the viewed file *imports*: only a call through an object that may be the file's —
//!     its receiver ends with the file's stem or one of its public type names (`current_app` of
//!     `app.py`): such a module cannot name the file's functions, only hold its objects;
//!   - through a *re-export*: an importer of a module that re-exports the name (`>make_response`
//!     items: flask's `__init__.py`) calling it bare or through that module's object
//!     (`flask.make_response(…)`);
//!   - of a file nothing imports (a test helper), through a *type only the file declares*, from a
//!     test function anywhere, edge or not: a call through a stated type (`.test:SearcherTester`
//!     of `SearcherTester::new(…).test()`) when no other file has a name of that type among its
//!     names — a `#[cfg(test)]` module using a test helper, whose imports the graph leaves out
//!     (`Graph::typed_callers`).
//!
//! A method several types of the file define (tokio's `Sender::send` and `Permit::send`) is told
//! apart by its type wherever the call tells it: a call through `self` inside one of those types
//! is that type's (an in-file Calls edge `Sender.send`); across files, a receiver named for one
//! type (`permit.send(…)`) or a member constructing one (`Sender::new().send(…)`) reaches
//! `Type::name` only. Where nothing tells (`let tx = channel(); tx.send(…)`), the call is an
//! unresolved name match, never a caller of any of them.
//!
//! A call through another object of a name the file defines — of a method only when the
//! importer mentions one of its owner types or calls one of the file's free functions (which may
//! hand it the objects, like tokio's `channel()`), and not one of the [`COMMON_METHODS`] — is no
//! resolved caller: it is kept apart as an **unresolved** name match (`res.send(…)` in a
//! handler: `res` may be anything).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Mutex;

use super::cache::{Details, Entry, Stat};
use super::graph::Graph;
use crate::project::walk::FileClass;
use crate::relpath::RelPath;
use crate::source::calls::{
    decode_bases, decode_reexports, decode_types, std_modules_of, Callee, MemberCalls,
};
use crate::source::lang::files::is_module_stem;

/// Public names shorter than this are too ambiguous to match across files.
pub const MIN_NAME: usize = 3;

/// Types of a file whose calls through a stated type are looked for beyond its edges, at most.
const MAX_TYPED_OWNERS: usize = 16;

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

/// One member, the members of its own file it calls and the keys it passes as literals.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MemberEdges {
    pub member: String,
    /// The other names the member is assigned to (`res.header` of `res.set`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,
    /// The other members of the file it calls (not itself).
    pub calls: Vec<String>,
    /// It calls itself.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub recursive: bool,
    /// Calls with a short string literal first argument, grouped by callee in first-call order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<KeyGroup>,
}

/// One callee's literal keys: `app.get` with `json escape`, `json replacer`, `json spaces`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct KeyGroup {
    pub callee: String,
    /// Sorted, deduplicated.
    pub keys: Vec<String>,
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
    /// The file's public names called by its neighbours where resolution supports it, by name;
    /// callers by path.
    pub called_from: Vec<CalledFrom>,
    /// The neighbours' calls of the file's names through objects resolution cannot tell
    /// (`res.send(…)`), by name: name matches, never callers.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unresolved: Vec<CalledFrom>,
    /// The `(file, member)` among the callers that are test functions (a Rust `#[test]` in a
    /// `#[cfg(test)]` module, a JavaScript test case): what a lookup counts apart.
    #[serde(skip)]
    pub test_callers: BTreeSet<(String, String)>,
}

impl CallsView {
    pub fn is_empty(&self) -> bool {
        self.calls.is_empty() && self.called_from.is_empty()
    }

    /// The view of `source` in `graph`, its neighbours being the files it imports and those
    /// importing it; `None` when the last update did not see `source`.
    pub fn read(graph: &Graph, source: &str) -> Option<CallsView> {
        type Views = (u64, HashMap<String, Option<CallsView>>);
        static VIEWS: Mutex<Option<Views>> = Mutex::new(None);
        let lock = || {
            VIEWS
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
        };
        if let Some((id, views)) = lock().as_ref() {
            if let Some(view) = views.get(source).filter(|_| *id == graph.id()) {
                return view.clone();
            }
        }
        let view = CallsView::build(graph, source);
        let mut kept = lock();
        match kept.as_mut() {
            Some((id, views)) if *id == graph.id() => {
                views.insert(source.to_string(), view.clone());
            }
            _ => {
                *kept = Some((
                    graph.id(),
                    HashMap::from([(source.to_string(), view.clone())]),
                ))
            }
        }
        view
    }

    /// The view of `source`'s calls built from the graph (what [`CallsView::read`] keeps, per
    /// graph, for a long-lived reader).
    fn build(graph: &Graph, source: &str) -> Option<CallsView> {
        if !graph.knows(source) {
            return None;
        }
        let own = entry_in(graph, source);
        let importers = graph.dependents(source);
        let public = public_names(&own);
        // A module re-exports what the file defines at its top, never a method's name.
        let own_members = decode(&own);
        let methods = method_owners(&own_members);
        let mut neighbours: BTreeMap<String, Neighbour> = BTreeMap::new();
        let mut reexporters: Vec<(String, Vec<String>)> = Vec::new();
        for file in own.deps.iter().chain(&importers) {
            if file != source && !neighbours.contains_key(file) {
                let entry = entry_in(graph, file);
                let imports_it = importers.contains(file);
                let names: Vec<String> = reexports_of(&entry)
                    .into_iter()
                    .filter(|name| {
                        public.contains(name.as_str()) && !methods.contains_key(name.as_str())
                    })
                    .collect();
                if imports_it && !names.is_empty() {
                    reexporters.push((file.clone(), names));
                }
                let relation = match imports_it {
                    true => Relation::Importer,
                    false => Relation::Imported,
                };
                neighbours.insert(file.clone(), Neighbour { entry, relation });
            }
        }
        // A file nothing imports (a `#[cfg(test)]` module's helper: ripgrep's testutil.rs, whose
        // users' test-only imports are no edges): the files calling the methods of a type only it
        // declares through that stated type (glue.rs's tests through `SearcherTester`). Read only
        // then: it is a pass over the whole graph.
        let types: Vec<&str> = match importers.is_empty() {
            true => owner_types(&methods),
            false => Vec::new(),
        };
        for (ty, files) in graph.typed_callers(&types, source) {
            for file in files {
                if file == source || neighbours.contains_key(&file) {
                    continue;
                }
                let entry = entry_in(graph, &file);
                let relation = Relation::ThroughType(ty.clone());
                neighbours.insert(file, Neighbour { entry, relation });
            }
        }
        // The importers of a module re-exporting the file's names call them through it.
        for (reexporter, names) in reexporters {
            let objects = object_names(&reexporter, &BTreeSet::new());
            for file in graph.dependents(&reexporter) {
                if file == source || neighbours.contains_key(&file) {
                    continue;
                }
                let relation = Relation::Reexported {
                    names: names.clone(),
                    objects: objects.clone(),
                };
                let entry = entry_in(graph, &file);
                neighbours.insert(file, Neighbour { entry, relation });
            }
        }
        Some(view(source, &own, &neighbours))
    }
}

/// The types owning the file's methods whose calls are looked for beyond its edges, at most
/// [`MAX_TYPED_OWNERS`].
fn owner_types<'m>(methods: &BTreeMap<&'m str, BTreeSet<&'m str>>) -> Vec<&'m str> {
    let types: BTreeSet<&str> = methods.values().flatten().copied().collect();
    types
        .into_iter()
        .filter(|ty| ty.chars().count() >= MIN_NAME)
        .take(MAX_TYPED_OWNERS)
        .collect()
}

/// A neighbour of the file viewed: its entry and how it relates to the file.
pub struct Neighbour {
    pub entry: Entry,
    pub relation: Relation,
}

/// How a neighbour relates to the file viewed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Relation {
    /// It imports the file.
    Importer,
    /// The file imports it.
    Imported,
    /// It imports a module that re-exports `names` of the file; `objects`: the names that
    /// module's object goes by (`flask` of `flask/__init__.py`).
    Reexported {
        names: Vec<String>,
        objects: Vec<String>,
    },
    /// Without an edge, it calls methods through a stated type only the file declares.
    ThroughType(String),
}

/// The names a file's entry says it re-exports.
fn reexports_of(entry: &Entry) -> Vec<String> {
    entry
        .details
        .get()
        .calls
        .iter()
        .filter_map(|item| decode_reexports(item))
        .flatten()
        .map(str::to_string)
        .collect()
}

/// What matching needs of `file`: its dependencies, public names and calls.
fn entry_in(graph: &Graph, file: &str) -> Entry {
    let unknown = Stat {
        size: 0,
        mtime_ns: 0,
    };
    let details = Details {
        symbols: graph.symbols(file),
        calls: graph.calls(file),
        ..Details::default()
    };
    Entry {
        deps: graph.dependencies(file),
        details: details.into(),
        ..Entry::unhashed(unknown, FileClass::Text, String::new())
    }
}

/// A Python protocol method (`__init__`, `__call__`): every class has them.
fn is_dunder(name: &str) -> bool {
    name.len() > 4 && name.starts_with("__") && name.ends_with("__")
}

fn decode(entry: &Entry) -> Vec<MemberCalls> {
    entry
        .details
        .get()
        .calls
        .iter()
        .filter_map(|item| MemberCalls::decode(item))
        .collect()
}

/// The view of a file's entry and its neighbours' entries.
pub fn view(path: &str, own: &Entry, neighbours: &BTreeMap<String, Neighbour>) -> CallsView {
    let members = decode(own);
    let found = callers(path, own, &members, neighbours);
    CallsView {
        calls: edges(&members),
        called_from: found.resolved,
        unresolved: found.unresolved,
        test_callers: found.tests,
    }
}

/// Member → member edges within one file: a bare call reaches a free function, a call through the
/// member's own object a method; either reaches the member itself (recursion).
fn edges(members: &[MemberCalls]) -> Vec<MemberEdges> {
    let free: BTreeSet<&str> = members
        .iter()
        .filter(|m| m.container().is_none())
        .flat_map(MemberCalls::names)
        .collect();
    let methods: BTreeSet<&str> = members
        .iter()
        .filter(|m| m.container().is_some())
        .flat_map(MemberCalls::names)
        .collect();
    let labels: BTreeSet<&str> = members.iter().map(|m| m.member.as_str()).collect();
    let owners = method_owners(members);
    let mut out = Vec::new();
    for member in members {
        let made = constructed_types(member);
        let mut calls: Vec<String> = Vec::new();
        let mut recursive = false;
        for callee in &member.callees {
            let target = match callee {
                Callee::Bare(name) | Callee::OwnObject(name)
                    if member.names().any(|n| n == name) =>
                {
                    let through_self = matches!(callee, Callee::OwnObject(_));
                    recursive |= through_self == member.container().is_some();
                    continue;
                }
                // A method several types of the file define, called through `self`: its own
                // type's (`self.send(…)` in `Sender.blocking_send` is `Sender.send`, not
                // `Permit.send`).
                Callee::OwnObject(name)
                    if owners.get(name.as_str()).is_some_and(|o| o.len() > 1)
                        && member
                            .container()
                            .is_some_and(|c| labels.contains(format!("{c}.{name}").as_str())) =>
                {
                    format!("{}.{name}", member.container().unwrap_or_default())
                }
                Callee::OwnObject(name) if methods.contains(name.as_str()) => name.clone(),
                Callee::Bare(name) if free.contains(name.as_str()) => name.clone(),
                Callee::Bare(_) | Callee::OwnObject(_) => continue,
                // `Type::name()` of a type of the file.
                Callee::TypePath { ty, name } => match format!("{ty}.{name}") {
                    label if labels.contains(label.as_str()) => label,
                    _ => continue,
                },
                // Through an object whose type is one of the file's (`self.reserve().send(…)`
                // with `reserve` returning a `Permit`, `permit.send(…)`): that type's method. A
                // Go package is matched as a receiver named so.
                Callee::Receiver { .. } | Callee::TypedReceiver { .. } | Callee::Package { .. } => {
                    match callee.receiver().map(|r| format!("{r}.{}", callee.name())) {
                        Some(label) if labels.contains(label.as_str()) => label,
                        _ => match made_here(&made, callee, &labels) {
                            Some(label) => label,
                            None => continue,
                        },
                    }
                }
            };
            if !calls.contains(&target) {
                calls.push(target);
            }
        }
        let keys = key_groups(member);
        if !calls.is_empty() || !keys.is_empty() || recursive {
            out.push(MemberEdges {
                member: member.member.clone(),
                aliases: member.aliases.clone(),
                calls,
                recursive,
                keys,
            });
        }
    }
    out
}

/// A call through a local the member made (`made`: [`constructed_types`]) of one of the file's
/// types and named for it (globset's `let mut builder = GlobSetBuilder::new(); builder.build()`):
/// that type's method.
fn made_here(made: &[(&str, String)], callee: &Callee, labels: &BTreeSet<&str>) -> Option<String> {
    let Callee::Receiver {
        receiver: Some(receiver),
        ..
    } = callee
    else {
        return None;
    };
    let receiver = squashed(receiver);
    // Only when one made type explains the receiver (`let _ov = OverrideBuilder::new(); let
    // builder = GitignoreBuilder::new(); builder.build()` tells nothing).
    let named: Vec<&str> = made
        .iter()
        .filter(|(_, squashed_ty)| named_for(&receiver, squashed_ty))
        .map(|(ty, _)| *ty)
        .collect();
    let [ty] = named.as_slice() else {
        return None;
    };
    let label = format!("{ty}.{}", callee.name());
    labels.contains(label.as_str()).then_some(label)
}

/// A member's key calls grouped by callee, in first-call order.
fn key_groups(member: &MemberCalls) -> Vec<KeyGroup> {
    let mut groups: Vec<KeyGroup> = Vec::new();
    for key in &member.keys {
        match groups.iter_mut().find(|g| g.callee == key.callee) {
            Some(group) => group.keys.push(key.key.clone()),
            None => groups.push(KeyGroup {
                callee: key.callee.clone(),
                keys: vec![key.key.clone()],
            }),
        }
    }
    for group in &mut groups {
        group.keys.sort();
        group.keys.dedup();
    }
    groups
}

/// For each method name of the file (a member of a capitalised container: a class, an `impl` or
/// `trait` type) that no free function shares, its owner types.
fn method_owners(members: &[MemberCalls]) -> BTreeMap<&str, BTreeSet<&str>> {
    let mut owners: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut free: BTreeSet<&str> = BTreeSet::new();
    // A test function is called by its harness only: its name (ripgrep's test `case_insensitive`
    // beside `OverrideBuilder::case_insensitive`) leaves a method a method.
    for member in members.iter().filter(|m| !m.test) {
        let owner = member
            .container()
            .filter(|c| c.starts_with(char::is_uppercase));
        for name in member.names() {
            match owner {
                Some(owner) => {
                    owners.entry(name).or_default().insert(owner);
                }
                None => {
                    free.insert(name);
                }
            }
        }
    }
    owners.retain(|name, _| !free.contains(name));
    owners
}

/// The names an object of file `path` may go by, lowercased without `_`: its stem (its directory's
/// name for `mod.rs`, `index.js`, `__init__.py`) and its public type names — `current_app` ends
/// with `app` of `app.py`, `permit` with `Permit`.
fn object_names(path: &str, public: &BTreeSet<&str>) -> Vec<String> {
    let stem = crate::source::lang::files::module_name(path);
    std::iter::once(stem)
        .chain(
            public
                .iter()
                .copied()
                .filter(|n| n.starts_with(char::is_uppercase)),
        )
        .map(squashed)
        .filter(|n| n.len() >= MIN_NAME)
        .collect()
}

/// The packages `path` sits in, lowercased without `_`, its stem's name left out (`src`, `flask`
/// of `src/flask/app.py`): a call through one of them (`flask.make_response`) goes through a
/// module, never an object of the file — even when a type of the file has its name (`Flask`).
fn package_names(path: &str) -> Vec<String> {
    let mut dirs: Vec<&str> = path.split('/').collect();
    dirs.pop();
    let own = RelPath::new(path).stem().to_string();
    dirs.into_iter()
        .map(|d| d.to_lowercase().replace('_', ""))
        .filter(|d| *d != own && !is_module_stem(&own))
        .collect()
}

/// Whether a call through `receiver` may be on one of `objects`: the receiver is named for one
/// (`current_app` for `app`) or for its last word (`permit` for `OwnedPermit`).
fn may_be_object(receiver: Option<&str>, objects: &[String]) -> bool {
    let Some(receiver) = receiver else {
        return false;
    };
    let receiver = squashed(receiver);
    objects.iter().any(|o| named_for(&receiver, o))
}

/// [`may_be_object`] for a method call `member` makes (`made`: the types it constructs,
/// [`made_types`]) — unless the receiver is named for one of `objects` only by its last word and
/// the member makes an object of another type the receiver is named for as well: ripgrep's `let
/// mut builder = GitignoreBuilder::new(…); builder.build()` calls `GitignoreBuilder::build`, not
/// `OverrideBuilder::build` of a file it imports, although `builder` is the last word of both.
/// A receiver named for an object as a whole (`matcher` of `matcher.rs`) keeps it.
fn may_be_object_of(made: &[String], receiver: Option<&str>, objects: &[String]) -> bool {
    may_be_object(receiver, objects) && !makes_other_named(made, receiver, objects)
}

/// Whether a call `member` makes through `receiver` is on an object of another type than
/// `owner`'s, by the type the member makes that the receiver is named for ([`makes_other_named`]).
pub fn receiver_is_another_types(
    member: &MemberCalls,
    receiver: Option<&str>,
    owner: &str,
) -> bool {
    makes_other_named(&made_types(member), receiver, &[squashed(owner)])
}

/// The types `member` constructs (`Type::new(…)`, `Type(…)`), each once with its squashed name.
fn constructed_types(member: &MemberCalls) -> Vec<(&str, String)> {
    let types: BTreeSet<&str> = member
        .callees
        .iter()
        .filter_map(constructed)
        .filter(|ty| ty.starts_with(char::is_uppercase))
        .collect();
    types.into_iter().map(|ty| (ty, squashed(ty))).collect()
}

/// The squashed names of the types `member` constructs ([`constructed_types`]).
fn made_types(member: &MemberCalls) -> Vec<String> {
    constructed_types(member)
        .into_iter()
        .map(|(_, squashed)| squashed)
        .collect()
}

/// Whether a type of `made` that is none of `objects` explains `receiver` (named for it), while
/// no object does so as a whole.
fn makes_other_named(made: &[String], receiver: Option<&str>, objects: &[String]) -> bool {
    let Some(receiver) = receiver.map(squashed) else {
        return false;
    };
    if objects.iter().any(|o| receiver.ends_with(o.as_str())) {
        return false;
    }
    made.iter()
        .any(|ty| !objects.contains(ty) && named_for(&receiver, ty))
}

/// A name lowercased without `_`, as receivers and object names are compared.
pub fn squashed(name: &str) -> String {
    name.to_lowercase().replace('_', "")
}

/// Whether a squashed `receiver` is named for the squashed object name `object`: it ends with it
/// (`currentapp`, `app`) or, four letters or more, is its last word (`permit`, `ownedpermit`).
fn named_for(receiver: &str, object: &str) -> bool {
    receiver.ends_with(object) || (receiver.len() >= 4 && object.ends_with(receiver))
}

/// The type names a neighbour's entry mentions (`None`: too many recorded, any may be).
fn types_of(entry: &Entry) -> Option<BTreeSet<&str>> {
    let mut types = BTreeSet::new();
    for item in &entry.details.get().calls {
        if let Some(names) = decode_types(item) {
            types.extend(names);
        }
    }
    (!types.contains("*")).then_some(types)
}

/// What an importer's calls are matched against: the file's public names, the owner types of its
/// methods, and the names the importer defines itself.
struct Names<'a> {
    public: &'a BTreeSet<&'a str>,
    owners: &'a BTreeMap<&'a str, BTreeSet<&'a str>>,
    defined: &'a BTreeSet<&'a str>,
    /// The packages the file sits in ([`package_names`]).
    packages: &'a [String],
    /// The names an object of the file goes by ([`object_names`]).
    objects: &'a [String],
    /// The module names the caller binds to the standard library (`mpsc` of `use
    /// std::sync::mpsc;`): a call through one is std's.
    std_modules: &'a [&'a str],
}

/// Whether `member` of an importer may hold the file's objects without naming their types: it, or
/// another member of its type, calls one of the file's free functions (a constructor like
/// `channel()` or `mpsc::channel()`; `Stranger::new` keeps the sender `Stranger::go` uses) — not
/// the importer's other free functions (a test calling `socket.send` beside one that makes a
/// channel).
fn holds_objects(names: &Names<'_>, calling: &[MemberCalls], member: &MemberCalls) -> bool {
    let makes_objects = |member: &MemberCalls| {
        member.callees.iter().any(|callee| {
            let free_of_file = |name: &str| {
                names.public.contains(name)
                    && !names.owners.contains_key(name)
                    && !names.defined.contains(name)
            };
            // Through a module: only one the file may be (`mpsc::channel()` of
            // `sync/mpsc/bounded.rs`, not `oneshot::channel()`).
            let through_its_module = |module: Option<&str>| {
                module.is_some_and(|m| {
                    !names.std_modules.contains(&m)
                        && (names.packages.contains(&squashed(m))
                            || may_be_object(Some(m), names.objects))
                })
            };
            match callee {
                Callee::Bare(_) | Callee::OwnObject(_) | Callee::TypedReceiver { .. } => {
                    free_of_file(callee.name())
                }
                Callee::Receiver { .. } | Callee::Package { .. } => {
                    free_of_file(callee.name()) && through_its_module(callee.receiver())
                }
                Callee::TypePath { .. } => false,
            }
        })
    };
    match container(member) {
        None => makes_objects(member),
        Some(owner) => calling
            .iter()
            .filter(|other| container(other) == Some(owner))
            .any(makes_objects),
    }
}

/// The file's public names long enough to match by name, without protocol methods.
fn public_names(own: &Entry) -> BTreeSet<&str> {
    own.details
        .get()
        .symbols
        .iter()
        .map(String::as_str)
        .filter(|name| name.chars().count() >= MIN_NAME && !is_dunder(name))
        .collect()
}

/// The file's public names another file can call: [`public_names`] without those only its test
/// functions define (a `#[cfg(test)]` module's `simple` or `gitignore` is no free function that
/// hands an importer the file's objects, nor a function an importer calls).
fn callable_names<'a>(own: &'a Entry, members: &[MemberCalls]) -> BTreeSet<&'a str> {
    let mut public = public_names(own);
    let tests: BTreeSet<&str> = members
        .iter()
        .filter(|m| m.test)
        .flat_map(MemberCalls::names)
        .collect();
    let code: BTreeSet<&str> = members
        .iter()
        .filter(|m| !m.test)
        .flat_map(MemberCalls::names)
        .collect();
    public.retain(|name| !tests.contains(name) || code.contains(name));
    public
}

/// The type a member belongs to (`Stranger` of `Stranger.go`); `None` for a free function.
fn container(member: &MemberCalls) -> Option<&str> {
    member.member.rsplit_once('.').map(|(owner, _)| owner)
}

/// Whether a call found in a neighbour reaches the file, and how sure that is.
enum Found {
    /// Resolution supports it: an import, a type, a module object, an object named for its type,
    /// a base class, a re-export. The name as shown (`make_response`, `Sender::new`).
    Resolved(String),
    /// Only the name matches: a call through an object resolution cannot tell.
    Unresolved(String),
}

/// The classes of a neighbour's entry and their bases (`%Flask App` items).
fn bases_in(entry: &Entry) -> BTreeMap<&str, Vec<&str>> {
    let mut bases: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for item in &entry.details.get().calls {
        if let Some((class, names)) = decode_bases(item) {
            bases.entry(class).or_default().extend(names);
        }
    }
    bases
}

/// The neighbours' members calling `own`'s public names, resolved and unresolved (see the module
/// doc for the rules).
/// The neighbours' calls of a file's names ([`callers`]).
struct Callers {
    resolved: Vec<CalledFrom>,
    unresolved: Vec<CalledFrom>,
    /// The resolved callers that are test functions, `(file, member)`.
    tests: BTreeSet<(String, String)>,
}

fn callers(
    path: &str,
    own: &Entry,
    members: &[MemberCalls],
    neighbours: &BTreeMap<String, Neighbour>,
) -> Callers {
    let public = callable_names(own, members);
    let owners = method_owners(members);
    let objects = object_names(path, &public);
    let packages = package_names(path);
    // Through a package the file sits in — never an object of a stated type (`ig: &Ignore` in
    // ripgrep's `ignore` crate is an `Ignore`, not the `ignore` package), nor a module the
    // caller binds to the standard library (`use std::sync::mpsc;`).
    let through_package = |callee: &Callee, std_modules: &[&str]| {
        !matches!(callee, Callee::TypedReceiver { .. })
            && callee
                .receiver()
                .is_some_and(|r| packages.contains(&squashed(r)) && !std_modules.contains(&r))
    };
    // Rust types inherit no methods: a call through a receiver named for another type the caller
    // makes is that type's, not even a name match.
    let no_inheritance = path.ends_with(".rs");
    let mut resolved: BTreeMap<String, BTreeMap<&str, Vec<String>>> = BTreeMap::new();
    let mut unresolved: BTreeMap<String, BTreeMap<&str, Vec<String>>> = BTreeMap::new();
    let mut tests: BTreeSet<(String, String)> = BTreeSet::new();
    for (file, neighbour) in neighbours {
        let entry = &neighbour.entry;
        let calling = decode(entry);
        let defined: BTreeSet<&str> = calling.iter().flat_map(MemberCalls::names).collect();
        let types = types_of(entry);
        let bases = bases_in(entry);
        let std_modules = std_modules_of(&entry.details.get().calls);
        let names = Names {
            public: &public,
            owners: &owners,
            defined: &defined,
            packages: &packages,
            objects: &objects,
            std_modules: &std_modules,
        };
        for member in &calling {
            let made = made_types(member);
            let knows_owner = |name: &str| match (owners.get(name), &types) {
                (Some(owners), Some(types)) => {
                    holds_objects(&names, &calling, member)
                        || owners.iter().any(|o| types.contains(o))
                }
                _ => true,
            };
            // It makes an object of a method's owner type (`App()`, `Buffer::new()`) or gets one
            // from the file's free functions (`channel()`): it calls that object's methods.
            let makes_owner = |name: &str| {
                let Some(types) = owners.get(name) else {
                    return false;
                };
                let constructs = member.callees.iter().any(|c| match constructed(c) {
                    Some(ty) => types.contains(ty),
                    None => false,
                });
                constructs || holds_objects(&names, &calling, member)
            };
            // A subclass's call through `self` of a method its bases get from the file.
            let inherits = |name: &str| {
                let class_bases = container(member).and_then(|class| bases.get(class));
                match (owners.get(name), class_bases) {
                    (Some(owners), Some(class_bases)) => {
                        class_bases.iter().any(|b| owners.contains(b))
                    }
                    _ => false,
                }
            };
            // A receiver that is the very type owning the method (a name declared of that type,
            // `ctx: AppContext`): even a common method name (`push`) is told by it.
            let typed = |name: &str, receiver: Option<&str>| {
                receiver.is_some_and(|r| owners.get(name).is_some_and(|o| o.contains(r)))
            };
            let telling = |name: &str, receiver: Option<&str>| {
                !COMMON_METHODS.contains(&name) || typed(name, receiver)
            };
            // A protocol method (`__enter__` of `with ctx:`) is no public name, but a call of it
            // through an object of its very type is told by that type.
            let protocol = |callee: &Callee| match callee {
                Callee::TypedReceiver { name, ty } => is_dunder(name) && typed(name, Some(ty)),
                _ => false,
            };
            for callee in &member.callees {
                let (name, receiver) = (callee.name(), callee.receiver());
                let found = match (&neighbour.relation, callee) {
                    (Relation::Importer, Callee::Bare(_) | Callee::OwnObject(_))
                        if public.contains(name) && !defined.contains(name) =>
                    {
                        match matches!(callee, Callee::Bare(_)) || inherits(name) {
                            true => Found::Resolved(name.to_string()),
                            false => continue,
                        }
                    }
                    // A Java constructor (`new Circle(…)`, encoded `Circle.Circle`).
                    (Relation::Importer, Callee::TypePath { ty, .. })
                        if ty == name && public.contains(ty.as_str()) =>
                    {
                        Found::Resolved(format!("new {ty}"))
                    }
                    (Relation::Importer, Callee::TypePath { ty, .. })
                        if public.contains(ty.as_str()) && public.contains(name) =>
                    {
                        Found::Resolved(format!("{ty}::{name}"))
                    }
                    // Through an object named, typed or (Go) a package named `receiver`.
                    (
                        Relation::Importer,
                        Callee::Receiver { .. }
                        | Callee::TypedReceiver { .. }
                        | Callee::Package { .. },
                    ) if (public.contains(name) || protocol(callee)) && telling(name, receiver) => {
                        // A method through an object named for its file or type; a function
                        // through its module or a package holding it (`mpsc::channel()`).
                        // An object of a stated type owning no method of that name here is
                        // another type's (`JSONBuilder::new()…build(…)` beside a member that
                        // holds the file's objects): only its name may still tell.
                        let stated_other = matches!(callee, Callee::TypedReceiver { .. })
                            && !typed(name, receiver);
                        let resolved = match owners.contains_key(name) {
                            true => {
                                (may_be_object_of(&made, receiver, &objects)
                                    || (!stated_other && makes_owner(name)))
                                    && !through_package(callee, &std_modules)
                            }
                            // A free function through its module (`oneshot::channel()` beside
                            // an `AtomicOneshot::new(…)`): the module's name is no object's.
                            false => {
                                may_be_object(receiver, &objects)
                                    || through_package(callee, &std_modules)
                            }
                        };
                        // A method several types of the file define reaches the one whose type
                        // the call tells (the receiver named for it, the member constructing
                        // it); else it is only a name match.
                        let several = owners.get(name).filter(|o| o.len() > 1);
                        if let (true, Some(several)) = (resolved, several) {
                            match owner_told(several, receiver, member) {
                                Some(owner) => Found::Resolved(format!("{owner}::{name}")),
                                None => Found::Unresolved(name.to_string()),
                            }
                        } else if resolved {
                            Found::Resolved(name.to_string())
                        } else if knows_owner(name)
                            && !(no_inheritance && makes_other_named(&made, receiver, &objects))
                        {
                            Found::Unresolved(name.to_string())
                        } else {
                            continue;
                        }
                    }
                    (
                        Relation::Imported,
                        Callee::Receiver { .. }
                        | Callee::TypedReceiver { .. }
                        | Callee::Package { .. },
                    ) if public.contains(name)
                        && telling(name, receiver)
                        && may_be_object_of(&made, receiver, &objects)
                        && !through_package(callee, &std_modules) =>
                    {
                        match owners.get(name).filter(|o| o.len() > 1) {
                            Some(several) => match owner_told(several, receiver, member) {
                                Some(owner) => Found::Resolved(format!("{owner}::{name}")),
                                None => Found::Unresolved(name.to_string()),
                            },
                            None => Found::Resolved(name.to_string()),
                        }
                    }
                    (Relation::Reexported { names, .. }, Callee::Bare(_))
                        if names.iter().any(|n| n == name) && !defined.contains(name) =>
                    {
                        Found::Resolved(name.to_string())
                    }
                    (
                        Relation::Reexported { names, objects },
                        Callee::Receiver { .. }
                        | Callee::TypedReceiver { .. }
                        | Callee::Package { .. },
                    ) if names.iter().any(|n| n == name) && may_be_object(receiver, objects) => {
                        Found::Resolved(name.to_string())
                    }
                    // Through the one type of that name, which the file declares.
                    (Relation::ThroughType(only), Callee::TypedReceiver { name, ty })
                        if ty == only && member.test && typed(name, Some(ty)) =>
                    {
                        match owners.get(name.as_str()).filter(|o| o.len() > 1) {
                            Some(_) => Found::Resolved(format!("{ty}::{name}")),
                            None => Found::Resolved(name.to_string()),
                        }
                    }
                    // Nothing else reaches the file: a call the guards above turned down, an
                    // own call or a type path in a module the file imports (it cannot name the
                    // file), a call through its own object or a type path across a re-export.
                    (
                        Relation::Importer
                        | Relation::Imported
                        | Relation::Reexported { .. }
                        | Relation::ThroughType(_),
                        Callee::Bare(_)
                        | Callee::OwnObject(_)
                        | Callee::TypePath { .. }
                        | Callee::Receiver { .. }
                        | Callee::TypedReceiver { .. }
                        | Callee::Package { .. },
                    ) => continue,
                };
                let (bucket, name) = match found {
                    Found::Resolved(name) => {
                        if member.test {
                            tests.insert((file.to_string(), member.member.clone()));
                        }
                        (&mut resolved, name)
                    }
                    Found::Unresolved(name) => (&mut unresolved, name),
                };
                let callers = bucket.entry(name).or_default().entry(file).or_default();
                if !callers.contains(&member.member) {
                    callers.push(member.member.clone());
                }
            }
        }
    }
    // A member resolved as a caller of a name is no unresolved match of it too.
    for (name, by_file) in &mut unresolved {
        if let Some(known) = resolved.get(name) {
            for (file, members) in by_file.iter_mut() {
                if let Some(sure) = known.get(file) {
                    members.retain(|m| !sure.contains(m));
                }
            }
            by_file.retain(|_, members| !members.is_empty());
        }
    }
    unresolved.retain(|_, by_file| !by_file.is_empty());
    Callers {
        resolved: listed(resolved),
        unresolved: listed(unresolved),
        tests,
    }
}

/// Of the types defining a method, the one a call through `receiver` by `member` reaches: the
/// only one the receiver is named for (`permit` → `Permit`), else the only one the member
/// constructs (`Sender::new(…)`, `Permit(…)`); `None` when nothing tells.
fn owner_told<'a>(
    owners: &BTreeSet<&'a str>,
    receiver: Option<&str>,
    member: &MemberCalls,
) -> Option<&'a str> {
    let only = |found: Vec<&'a str>| match found.as_slice() {
        [one] => Some(*one),
        _ => None,
    };
    if let Some(receiver) = receiver.map(squashed) {
        // Named for the whole type (`permit`, `new_permit`), else for its last word (`permit`
        // for `OwnedPermit`).
        let named = |whole: bool| -> Vec<&'a str> {
            owners
                .iter()
                .copied()
                .filter(|owner| {
                    let owner = squashed(owner);
                    match whole {
                        true => receiver.ends_with(owner.as_str()),
                        false => named_for(&receiver, &owner),
                    }
                })
                .collect()
        };
        for whole in [true, false] {
            let found = named(whole);
            if !found.is_empty() {
                return only(found);
            }
        }
    }
    let constructed: Vec<&'a str> = owners
        .iter()
        .copied()
        .filter(|owner| {
            member
                .callees
                .iter()
                .any(|c| constructed(c) == Some(*owner))
        })
        .collect();
    only(constructed)
}

/// The type a call may construct or get an object of: a bare call of a name (`App()`,
/// `channel()`) or a type path's type (`Buffer::new()`, `new Circle()`).
fn constructed(callee: &Callee) -> Option<&str> {
    match callee {
        Callee::Bare(name) => Some(name),
        Callee::TypePath { ty, .. } => Some(ty),
        Callee::OwnObject(_)
        | Callee::Receiver { .. }
        | Callee::TypedReceiver { .. }
        | Callee::Package { .. } => None,
    }
}

/// Callers by name then file, as the view lists them.
fn listed(found: BTreeMap<String, BTreeMap<&str, Vec<String>>>) -> Vec<CalledFrom> {
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
        let details = Details {
            symbols: symbols.iter().map(|s| s.to_string()).collect(),
            calls: calls.iter().map(|s| s.to_string()).collect(),
            ..Details::default()
        };
        Entry {
            details: details.into(),
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
                        "App.finalize_request ^make_response .make_response len",
                        "App.make_response get_flag",
                        "App.run run",
                        "walk walk helper",
                    ],
                ),
            ),
            (
                "helpers.py",
                entry(
                    &[],
                    &["make_response", "get_flag"],
                    &[
                        "make_response .make_response@current_app make_response",
                        "get_flag .finalize_request@request",
                    ],
                ),
            ),
            (
                "views.py",
                entry(
                    &["app.py"],
                    &[],
                    &["index .finalize_request .get .run .__init__", "run", "#App"],
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
        // A bare call of a method's own name is no recursion (Python: a global of that name); a
        // free function calling itself is.
        assert_eq!(
            view.calls,
            [
                MemberEdges {
                    member: "App.finalize_request".into(),
                    recursive: false,
                    aliases: Vec::new(),
                    calls: vec!["make_response".into()],
                    keys: Vec::new(),
                },
                MemberEdges {
                    member: "walk".into(),
                    recursive: true,
                    aliases: Vec::new(),
                    calls: Vec::new(),
                    keys: Vec::new(),
                }
            ]
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
                row("make_response", "helpers.py", "make_response"),
            ]
        );
        // Through an object nothing names (`x.finalize_request()`, `x.run()`): name matches only;
        // views.py's own bare `run` is its own.
        let view = CallsView::read(&graph, "app.py").expect("view");
        let unresolved: Vec<Row> = view
            .unresolved
            .into_iter()
            .map(|c| {
                let callers = c.callers.into_iter().map(|c| (c.file, c.members));
                (c.name, callers.collect())
            })
            .collect();
        assert_eq!(
            unresolved,
            [
                row("finalize_request", "views.py", "index"),
                row("run", "views.py", "index"),
            ]
        );
        assert_eq!(CallsView::read(&graph, "missing.py"), None);
    }

    /// The callers of each name of `file` in `graph`: (name, [(file, members)]).
    fn called(graph: &Graph, file: &str) -> Vec<Row> {
        let view = CallsView::read(graph, file).expect("view");
        let rows = view.called_from.into_iter().map(|c| {
            let callers = c.callers.into_iter().map(|c| (c.file, c.members));
            (c.name, callers.collect())
        });
        rows.collect()
    }

    #[test]
    fn methods_through_objects_need_the_owner_type_and_imported_files_an_object_of_the_file() {
        let graph = graph_of(vec![
            (
                "mpsc/bounded.rs",
                entry(
                    &["chan.rs"],
                    &["Sender", "OwnedPermit", "send", "channel"],
                    &[
                        "Sender.send .send@chan",
                        "OwnedPermit.send .send@chan",
                        "channel",
                    ],
                ),
            ),
            // Imported by bounded.rs: its own `Tx.send` calls another object's `send`; only a
            // receiver named after bounded's objects could be one of them.
            (
                "chan.rs",
                entry(
                    &[],
                    &["Tx"],
                    &["Tx.send .send@inner", "Tx.wake .send@sender", "#Tx"],
                ),
            ),
            // Importers: one names the owner type, one does not; bare calls of a free function
            // need no type.
            (
                "user.rs",
                entry(
                    &["mpsc/bounded.rs"],
                    &[],
                    &["User.go .send@permit channel", "#OwnedPermit User"],
                ),
            ),
            (
                "alien.rs",
                entry(
                    &["mpsc/bounded.rs"],
                    &[],
                    &["Alien.go .send@tx .spawn@tokio", "#Alien"],
                ),
            ),
            (
                "stranger.rs",
                entry(
                    &["mpsc/bounded.rs"],
                    &[],
                    &[
                        "Stranger.go .send@tx",
                        "Stranger.new .channel@mpsc",
                        "#Stranger",
                    ],
                ),
            ),
        ]);
        let row = |name: &str, files: &[(&str, &str)]| {
            let files = files
                .iter()
                .map(|(file, member)| (file.to_string(), vec![member.to_string()]));
            (name.to_string(), files.collect::<Vec<_>>())
        };
        assert_eq!(
            called(&graph, "mpsc/bounded.rs"),
            [
                row("OwnedPermit::send", &[("user.rs", "User.go")]),
                row("Sender::send", &[("chan.rs", "Tx.wake")]),
                row(
                    "channel",
                    &[("stranger.rs", "Stranger.new"), ("user.rs", "User.go")]
                ),
            ]
        );
        // `permit` is an `OwnedPermit` (its last word), but `Stranger.go`'s `tx`, made with
        // `mpsc::channel()`, may be a `Sender` or an `OwnedPermit`: a name match only. alien.rs
        // neither names `Sender`/`OwnedPermit` nor calls `channel()`: not even a name match.
        let view = CallsView::read(&graph, "mpsc/bounded.rs").expect("view");
        let unresolved: Vec<(String, Vec<String>)> = view
            .unresolved
            .iter()
            .map(|c| {
                (
                    c.name.clone(),
                    c.callers.iter().map(|c| c.file.clone()).collect(),
                )
            })
            .collect();
        assert_eq!(
            unresolved,
            [("send".to_string(), vec!["stranger.rs".to_string()])]
        );
    }

    #[test]
    fn aliases_are_members_and_key_calls_are_grouped_by_callee() {
        let own = entry(
            &[],
            &[],
            &[
                "res.set=res.header .toLowerCase@field",
                "res.json=res.toJson stringify ^header ~header~Content-Type ~app.get~json%20spaces ~app.get~json%20escape ~app.get~json%20spaces",
                "stringify toJson .stringify@JSON",
                "res.other ^toJson",
            ],
        );
        let view = view("response.js", &own, &BTreeMap::new());
        assert_eq!(
            view.calls,
            [
                MemberEdges {
                    member: "res.json".into(),
                    recursive: false,
                    aliases: vec!["res.toJson".into()],
                    calls: vec!["stringify".into(), "header".into()],
                    keys: vec![
                        KeyGroup {
                            callee: "header".into(),
                            keys: vec!["Content-Type".into()],
                        },
                        KeyGroup {
                            callee: "app.get".into(),
                            keys: vec!["json escape".into(), "json spaces".into()],
                        },
                    ],
                },
                // A bare `toJson()` is no call of the method `res.toJson`; `this.toJson()` is.
                MemberEdges {
                    member: "res.other".into(),
                    recursive: false,
                    aliases: Vec::new(),
                    calls: vec!["toJson".into()],
                    keys: Vec::new(),
                },
            ]
        );
    }
}
