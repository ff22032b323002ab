//! The calls of a member that leave its file — through another object (`this.router.handle(…)` →
//! `router.handle`, `self.url_adapter.match()` → `url_adapter.match`, `permit.send(value)` →
//! `permit.send`), to a function the file imports (`finalhandler(…)`), to a Rust type's function
//! (`Instant::now`) — what `lexi lookup <file> --member <name>` shows as `Calls elsewhere`, so an
//! agent sees where a member hands over without reading its body. Read from the file's fresh
//! parse (`source::calls`); the file's own members are the Calls line's, the language's builtins
//! (`len`, `isinstance`, `Some`, `Object.create`), methods every value has (`clone`, `is_empty`)
//! and exception constructors (the Raises line's) are left out.

use std::collections::BTreeSet;

use crate::source::calls::{MemberCalls, Reach};

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

/// The calls of `label` (as `file_calls` records them) that leave the file, in call order:
/// `receiver.name` through another object first, then imported functions and `Type::name`.
/// `file_members`: the bare names of the file's members (their calls are the Calls line's).
pub fn calls_elsewhere(
    file_calls: &[MemberCalls],
    label: &str,
    file_members: &BTreeSet<&str>,
) -> Vec<String> {
    let Some(calls) = file_calls.iter().find(|m| m.member == label) else {
        return Vec::new();
    };
    let keyed: BTreeSet<&str> = calls.keys.iter().map(|k| k.callee.as_str()).collect();
    let mut through_objects = Vec::new();
    let mut functions = Vec::new();
    for callee in &calls.callees {
        match Reach::of(callee) {
            Reach::Other(name, Some(receiver))
                if !TRIVIAL_METHODS.contains(&name) && !BUILTIN_RECEIVERS.contains(&receiver) =>
            {
                through_objects.push(format!("{receiver}.{name}"));
            }
            Reach::Own(name) if is_outside_function(name, file_members) => {
                functions.push(name.to_string());
            }
            Reach::Typed(ty, name) if !BUILTINS.contains(&ty) => {
                functions.push(format!("{ty}::{name}"));
            }
            _ => {}
        }
    }
    let mut seen = BTreeSet::new();
    through_objects
        .into_iter()
        .chain(functions)
        .filter(|call| !keyed.contains(call.as_str()) && seen.insert(call.clone()))
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
            callees: callees.iter().map(|c| c.to_string()).collect(),
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
        assert_eq!(
            calls_elsewhere(&file, "app.handle", &own),
            [
                "router.handle",
                "res.setHeader",
                "finalhandler",
                "Instant::now"
            ]
        );
        assert!(calls_elsewhere(&file, "app.get", &own).is_empty());
        assert!(calls_elsewhere(&file, "nope", &own).is_empty());
    }
}
