//! The calls of a member that leave its file — through another object (`this.router.handle(…)` →
//! `router.handle`, `self.url_adapter.match()` → `url_adapter.match`, `permit.send(value)` →
//! `permit.send`), to a function the file imports (`finalhandler(…)`), to a Rust type's function
//! (`Instant::now`) — what `lexi lookup <file> --member <name>` shows as `Calls elsewhere`, so an
//! agent sees where a member hands over without reading its body. Read from the file's fresh
//! parse (`source::calls`); the file's own members are the Calls line's, the language's builtins
//! (`len`, `isinstance`, `Some`, `Object.create`), methods every value has (`clone`, `is_empty`)
//! and exception constructors (the Raises line's) are left out.
//!
//! Ranked by importance: first the calls resolved to a project file the member's file imports
//! ([`Imported`]: a name it defines called bare, through `self` as an inherited method, as
//! `Type::name` or through its module object — `get_host (src/flask/sansio/utils.py)`), then the
//! calls through other objects, then the other functions; each group in call order.

use std::collections::BTreeSet;

use crate::source::calls::typed::CHAIN;
use crate::source::calls::{Callee, MemberCalls};

/// Calls elsewhere shown, at most; then `…`.
pub const SHOWN: usize = 10;

/// Bare calls that name no project code: common builtins of Python, JavaScript and Rust.
const BUILTINS: &[&str] = &[
    "all",
    "any",
    "bool",
    "callable",
    "dict",
    "enumerate",
    "filter",
    "float",
    "format",
    "getattr",
    "hasattr",
    "hash",
    "id",
    "int",
    "isinstance",
    "issubclass",
    "iter",
    "len",
    "list",
    "map",
    "max",
    "min",
    "next",
    "object",
    "open",
    "print",
    "range",
    "repr",
    "reversed",
    "set",
    "setattr",
    "sorted",
    "str",
    "sum",
    "super",
    "tuple",
    "type",
    "vars",
    "zip",
    "Array",
    "Boolean",
    "Number",
    "Object",
    "String",
    "Symbol",
    "parseInt",
    "parseFloat",
    "require",
    "isNaN",
    "Some",
    "Ok",
    "Err",
    "Box",
    "Vec",
    "drop",
    "vec",
    "println",
];

/// Methods every value has (`clone`, `is_empty`, `bind`, `lower`): a call of one through another
/// object says nothing about where the member hands over.
const TRIVIAL_METHODS: &[&str] = &[
    "append",
    "as_mut",
    "as_ref",
    "as_slice",
    "as_str",
    "bind",
    "call",
    "clone",
    "copy",
    "expect",
    "extend",
    "get_mut",
    "into",
    "is_empty",
    "is_err",
    "is_none",
    "is_ok",
    "is_some",
    "items",
    "iter",
    "join",
    "keys",
    "len",
    "lower",
    "map",
    "ok",
    "push",
    "push_str",
    "split",
    "strip",
    "to_owned",
    "to_string",
    "unwrap",
    "unwrap_or",
    "unwrap_or_default",
    "unwrap_or_else",
    "upper",
    "values",
];

/// Global objects of the languages' runtimes: `Object.create` is not project code.
const BUILTIN_RECEIVERS: &[&str] = &[
    "Array", "JSON", "Math", "Number", "Object", "Promise", "Reflect", "String", "Symbol",
    "console",
];

/// The project files a file imports and the names each defines: where its calls that leave it
/// resolve.
#[derive(Default)]
pub struct Imported {
    /// (file, its module object's name lowercased without `_`, its public names).
    files: Vec<(String, String, BTreeSet<String>)>,
    /// Each member's calls as the graph has them, chains of calls (`SearcherTester::new(…)
    /// .line_number(false).test()`) typed from every file's return types — what the file's own
    /// parse cannot (`workspace::chains`) — in the parse's order, call for call.
    chains: Vec<MemberCalls>,
}

impl Imported {
    /// The project files `source` imports, as the graph of the last update has them.
    pub fn of(graph: Option<&crate::workspace::graph::Graph>, source: &str) -> Imported {
        let Some(graph) = graph else {
            return Imported::default();
        };
        let files = graph
            .dependencies(source)
            .into_iter()
            .map(|file| {
                let names = graph.symbols(&file).into_iter().collect();
                let object = module_object(&file);
                (file, object, names)
            })
            .collect();
        Imported {
            files,
            chains: typed_chains(graph, source),
        }
    }

    /// The callee the graph gives `member`'s `index`th call, `parsed` (a call through a chain):
    /// through the type the chain ends in, when the graph's calls are the parse's and it could
    /// type it.
    fn typed_chain(&self, member: &MemberCalls, index: usize, parsed: &Callee) -> Option<&Callee> {
        let known = self.chains.iter().find(|m| m.member == member.member)?;
        if known.callees.len() != member.callees.len() {
            return None;
        }
        known.callees.get(index).filter(|typed| match typed {
            Callee::TypedReceiver { name, ty } => name == parsed.name() && !ty.contains(CHAIN),
            _ => false,
        })
    }

    /// The file a call resolves to: a name it defines called bare or through `self` (inherited),
    /// `Type::name` of a type it defines, `module.name` through its module object, or a call
    /// through an object it defines (`request_started.send` of `signals.py`).
    fn resolve(&self, callee: &Callee) -> Option<&str> {
        let defines = |names: &BTreeSet<String>, name: &str| names.contains(name);
        let name = callee.name();
        self.files
            .iter()
            .find(|(_, object, names)| match callee {
                Callee::Bare(_) | Callee::OwnObject(_) => defines(names, name),
                Callee::TypePath { ty, .. } => defines(names, ty),
                // A Go package is matched as a module object named so.
                Callee::Receiver { .. } | Callee::TypedReceiver { .. } | Callee::Package { .. } => {
                    callee.receiver().is_some_and(|receiver| {
                        (receiver.to_lowercase().replace('_', "") == *object
                            && defines(names, name))
                            || defines(names, receiver)
                    })
                }
            })
            .map(|(file, _, _)| file.as_str())
    }
}

/// The calls of `source`'s members as the graph has them (chains typed).
fn typed_chains(graph: &crate::workspace::graph::Graph, source: &str) -> Vec<MemberCalls> {
    graph.member_calls(source).to_vec()
}

/// The name a module's object goes by (`helpers` of `src/flask/helpers.py`, `flask` of
/// `src/flask/__init__.py`), lowercased without `_`.
fn module_object(path: &str) -> String {
    crate::source::lang::files::module_name(path)
        .to_lowercase()
        .replace('_', "")
}

/// The calls of `label` (as `file_calls` records them) that leave the file, most important first:
/// those resolved to a project file it imports (`name (file)`), then `receiver.name` through
/// another object, then the other functions and `Type::name`; each group in call order.
/// `file_members`: the bare names of the file's members (their calls are the Calls line's).
pub fn calls_elsewhere(
    file_calls: &[MemberCalls],
    label: &str,
    file_members: &BTreeSet<&str>,
    imported: &Imported,
) -> Vec<String> {
    let Some(calls) = file_calls.iter().find(|m| m.member == label) else {
        return Vec::new();
    };
    let keyed: BTreeSet<&str> = calls.keys.iter().map(|k| k.callee.as_str()).collect();
    let mut resolved = Vec::new();
    let mut through_objects = Vec::new();
    let mut functions = Vec::new();
    for (index, callee) in calls.callees.iter().enumerate() {
        // A call through a chain of calls: through the type the graph gives the chain, if any.
        let callee = match callee {
            Callee::TypedReceiver { ty, .. } if ty.contains(CHAIN) => {
                match imported.typed_chain(calls, index, callee) {
                    Some(typed) => typed,
                    None => continue,
                }
            }
            other => other,
        };
        let name = callee.name();
        let shown = match callee {
            Callee::Bare(_) | Callee::OwnObject(_) if is_outside_function(name, file_members) => {
                name.to_string()
            }
            Callee::Bare(_) | Callee::OwnObject(_) => continue,
            // A Java constructor (`new Type(…)`, encoded `Type.Type`); an exception's is Raises'.
            Callee::TypePath { ty, .. } if ty == name => {
                match is_outside_function(name, file_members) {
                    true => format!("new {ty}"),
                    false => continue,
                }
            }
            Callee::TypePath { ty, .. } if !BUILTINS.contains(&ty.as_str()) => {
                format!("{ty}::{name}")
            }
            Callee::TypePath { .. } => continue,
            // A Go package is shown as a receiver named so (`errors.New`).
            Callee::Receiver { .. } | Callee::TypedReceiver { .. } | Callee::Package { .. } => {
                match callee.receiver() {
                    // Through a type of the file (`self.reserve().send(…)` typed `Permit`): a
                    // Calls edge.
                    Some(receiver)
                        if file_calls
                            .iter()
                            .any(|m| m.container() == Some(receiver) && m.name() == name) =>
                    {
                        continue
                    }
                    Some(receiver)
                        if !TRIVIAL_METHODS.contains(&name)
                            && !BUILTIN_RECEIVERS.contains(&receiver) =>
                    {
                        format!("{receiver}.{name}")
                    }
                    Some(_) | None => continue,
                }
            }
        };
        if keyed.contains(shown.as_str()) {
            continue;
        }
        let through_object = match callee {
            Callee::Receiver { .. } | Callee::TypedReceiver { .. } | Callee::Package { .. } => true,
            Callee::Bare(_) | Callee::OwnObject(_) | Callee::TypePath { .. } => false,
        };
        match (imported.resolve(callee), through_object) {
            (Some(file), _) => resolved.push(format!("{shown} ({file})")),
            (None, true) => through_objects.push(shown),
            (None, false) => functions.push(shown),
        }
    }
    let mut seen = BTreeSet::new();
    resolved
        .into_iter()
        .chain(through_objects)
        .chain(functions)
        .filter(|call| seen.insert(call.clone()))
        .collect()
}

/// A bare call that is neither the file's own member, a builtin, nor an exception being built.
fn is_outside_function(name: &str, file_members: &BTreeSet<&str>) -> bool {
    !file_members.contains(name)
        && !BUILTINS.contains(&name)
        && !name.ends_with("Error")
        && !name.ends_with("Exception")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(label: &str, callees: &[&str]) -> MemberCalls {
        MemberCalls {
            member: label.to_string(),
            callees: callees
                .iter()
                .map(|c| c.parse().expect("a callee"))
                .collect(),
            ..MemberCalls::default()
        }
    }

    #[test]
    fn objects_first_then_imported_functions_without_builtins_or_own_members() {
        let file = [
            member(
                "app.handle",
                &[
                    "finalhandler",
                    "get",
                    ".bind@logerror",
                    ".create@Object",
                    "enabled",
                    ".handle@router",
                    "len",
                    "TypeError",
                    ".setHeader@res",
                    "Instant.now",
                    "Vec.new",
                    ".handle@router",
                ],
            ),
            member("app.get", &[]),
        ];
        let own = BTreeSet::from(["get", "enabled", "handle"]);
        let none = Imported::default();
        assert_eq!(
            calls_elsewhere(&file, "app.handle", &own, &none),
            [
                "router.handle",
                "res.setHeader",
                "finalhandler",
                "Instant::now"
            ]
        );
        assert!(calls_elsewhere(&file, "app.get", &own, &none).is_empty());
        assert!(calls_elsewhere(&file, "nope", &own, &none).is_empty());
        // Calls resolved to a project file the file imports come first, with the file.
        let imported = Imported {
            files: vec![(
                "lib/router/index.js".to_string(),
                "router".to_string(),
                BTreeSet::from(["handle".to_string()]),
            )],
            chains: Vec::new(),
        };
        assert_eq!(
            calls_elsewhere(&file, "app.handle", &own, &imported),
            [
                "router.handle (lib/router/index.js)",
                "res.setHeader",
                "finalhandler",
                "Instant::now"
            ]
        );
    }
}
