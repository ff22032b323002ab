//! C# in the call walk (`source::calls`): the node kinds its calls are read from, the nodes that
//! start a member, the bases a type names and its calls — `invocation_expression` nodes whose
//! `function` is the callee (`F()`, `a.F()`, `Type.F()`, `F<T>()`) and `new Type(…)`.

use tree_sitter::Node;

use crate::source::calls::keys::key_callee;
use crate::source::calls::{
    is_identifier, plain_path, At, CallKinds, Callee, Found, Target, SELF_RECEIVERS,
};
use crate::source::syntax::{code_children, text_of};

/// The node kinds C#'s calls are read from.
pub(crate) const CALL_KINDS: CallKinds = CallKinds {
    call: "invocation_expression",
    creation: Some("object_creation_expression"),
    containers: &[
        ("class_declaration", "name"),
        ("struct_declaration", "name"),
        ("interface_declaration", "name"),
        ("record_declaration", "name"),
        ("enum_declaration", "name"),
    ],
    // Calls are read by `csharp_target`.
    access: ("member_access_expression", "name"),
    capitalised_builds_value: false,
};

/// Whether `node` starts a member: a method (a test when xUnit, NUnit or MSTest runs it), a
/// constructor (named for its type) or a local function, in the type it sits in.
pub(crate) fn member<'s>(node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
    match node.kind() {
        "method_declaration" | "constructor_declaration" => Some(Found {
            test: super::extract::is_test_method(node, src),
            ..Found::plain(
                text_of(node.child_by_field_name("name")?, src),
                at.container,
            )
        }),
        _ => None,
    }
}

/// The bases a type names: its base class and interfaces.
pub(crate) fn class_bases(node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
    let class = text_of(node.child_by_field_name("name")?, src).to_string();
    Some((class, csharp_bases(node, src)))
}

/// A C# type's base class and interfaces (`: Base<T>, IDisposable`), by simple name, in source
/// order.
pub(crate) fn csharp_bases(node: Node<'_>, src: &str) -> Vec<String> {
    let mut bases: Vec<String> = Vec::new();
    let list = code_children(node)
        .into_iter()
        .filter(|c| c.kind() == "base_list")
        .flat_map(code_children);
    for base in list {
        let ty = match base.kind() {
            "primary_constructor_base_type" => code_children(base).into_iter().next(),
            "argument_list" => None,
            _ => Some(base),
        };
        if let Some(name) = ty.and_then(|ty| simple_name(ty, src)) {
            if !bases.iter().any(|b| b == name) {
                bases.push(name.to_string());
            }
        }
    }
    bases
}

/// A type's simple name: `C` of `A.B.C<T>`, `C` of `C`.
pub(crate) fn simple_name<'s>(ty: Node<'_>, src: &'s str) -> Option<&'s str> {
    let mut node = ty;
    for _ in 0..16 {
        match node.kind() {
            "identifier" => return Some(text_of(node, src)),
            "generic_name" => {
                node = code_children(node)
                    .into_iter()
                    .find(|c| c.kind() == "identifier")?
            }
            "qualified_name" | "alias_qualified_name" | "member_access_expression" => {
                node = node.child_by_field_name("name")?
            }
            "nullable_type" => {
                node = node
                    .child_by_field_name("type")
                    .or_else(|| node.named_child(0))?
            }
            _ => return None,
        }
    }
    None
}

/// The callee of a C# call: through the own object for a bare call or one through `this`/`base`
/// (a method of the type or its bases), a type path through a capitalised name (a static
/// method) and for `new Type(…)` (`Type.Type`, its constructor), through a receiver otherwise.
pub(crate) fn csharp_target(
    call: Node<'_>,
    src: &str,
    container: Option<(usize, usize)>,
) -> Option<Target> {
    if call.kind() == "object_creation_expression" {
        let ty = simple_name(call.child_by_field_name("type")?, src)?;
        return is_identifier(ty).then(|| Target {
            callee: Callee::TypePath {
                ty: ty.to_string(),
                name: ty.to_string(),
            },
            shown: None,
        });
    }
    let function = call.child_by_field_name("function")?;
    let (receiver, name) = match function.kind() {
        "identifier" | "generic_name" => (None, simple_name(function, src)?),
        "member_access_expression" => (
            function
                .child_by_field_name("expression")
                .map(|e| text_of(e, src)),
            simple_name(function.child_by_field_name("name")?, src)?,
        ),
        _ => return None,
    };
    if !is_identifier(name) {
        return None;
    }
    let own = |receiver: &str| {
        SELF_RECEIVERS.contains(&receiver)
            || receiver == "base"
            || container.is_some_and(|(start, end)| &src[start..end] == receiver)
    };
    let shown = |path: Option<&str>| {
        key_callee(name, path).then(|| match path {
            Some(path) => format!("{path}.{name}"),
            None => name.to_string(),
        })
    };
    Some(match receiver {
        None => Target {
            callee: match container {
                Some(_) => Callee::OwnObject(name.to_string()),
                None => Callee::Bare(name.to_string()),
            },
            shown: shown(None),
        },
        Some(receiver) if own(receiver) => Target {
            callee: Callee::OwnObject(name.to_string()),
            shown: shown(None),
        },
        Some(receiver) => {
            let path = plain_path(receiver);
            let last = path.and_then(|p| p.rsplit('.').next());
            Target {
                callee: Callee::through_path(name, last),
                shown: path.and_then(|p| shown(Some(p))),
            }
        }
    })
}
