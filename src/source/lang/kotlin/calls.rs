//! Kotlin in the call walk (`source::calls`): the node kinds its calls are read from, the nodes
//! that start a member, the bases a class names (its supertypes after `:`) and its calls, which
//! are `call_expression` nodes whose first child is the callee (`f`, `a.f`, `Type.f`).

use tree_sitter::Node;

use crate::source::calls::keys::key_callee;
use crate::source::calls::{
    is_identifier, plain_path, At, CallKinds, Callee, Found, Target, SELF_RECEIVERS,
};
use crate::source::syntax::{code_children, text_of};

/// The node kinds Kotlin's calls are read from.
pub(crate) const CALL_KINDS: CallKinds = CallKinds {
    call: "call_expression",
    creation: None,
    containers: &[
        ("class_declaration", "name"),
        ("object_declaration", "name"),
    ],
    // Calls are read by `kotlin_target`: a navigation names its member by its last identifier.
    access: ("navigation_expression", "name"),
    capitalised_builds_value: false,
};

/// Whether `node` starts a member: a function (a test when JUnit or kotlin.test runs it) or a
/// secondary constructor (named for its class), in the class or object it sits in.
pub(crate) fn member<'s>(node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
    match node.kind() {
        "function_declaration" => Some(Found {
            test: super::extract::is_test_function(node, src),
            ..Found::plain(
                text_of(node.child_by_field_name("name")?, src),
                at.container,
            )
        }),
        "secondary_constructor" => {
            let (start, end) = at.container?;
            Some(Found::plain(src.get(start..end)?, at.container))
        }
        _ => None,
    }
}

/// The bases a class or object names: its supertypes after `:`.
pub(crate) fn class_bases(node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
    let class = text_of(node.child_by_field_name("name")?, src).to_string();
    Some((class, kotlin_bases(node, src)))
}

/// A Kotlin class's, interface's or object's supertypes (`: Base(1), Runnable, a.b.Sink by
/// sink`), by simple name, in source order.
pub(crate) fn kotlin_bases(node: Node<'_>, src: &str) -> Vec<String> {
    let mut bases: Vec<String> = Vec::new();
    let specifiers = code_children(node)
        .into_iter()
        .filter(|c| c.kind() == "delegation_specifiers")
        .flat_map(code_children);
    for specifier in specifiers {
        let ty = code_children(specifier)
            .into_iter()
            .find_map(|c| match c.kind() {
                "user_type" => Some(c),
                "constructor_invocation" | "explicit_delegation" => code_children(c)
                    .into_iter()
                    .find(|t| t.kind() == "user_type"),
                _ => None,
            });
        if let Some(name) = ty.and_then(|ty| type_name(ty, src)) {
            if !bases.iter().any(|b| b == name) {
                bases.push(name.to_string());
            }
        }
    }
    bases
}

/// A user type's simple name: the last identifier of `a.b.C<T>` (`C`).
pub(crate) fn type_name<'s>(ty: Node<'_>, src: &'s str) -> Option<&'s str> {
    code_children(ty)
        .into_iter()
        .rfind(|c| c.kind() == "identifier")
        .map(|n| text_of(n, src))
}

/// The callee of a Kotlin call: a bare call is one of the own object inside a class (a method of
/// the class or its bases) and a free function outside; a capitalised bare call builds an object
/// (`Box(1)`: `Box.Box`, its constructor); through `this`/`super` or the class's own name the own
/// object; through a capitalised name a type path (a companion's or an object's member); through
/// another receiver otherwise.
pub(crate) fn kotlin_target(
    call: Node<'_>,
    src: &str,
    container: Option<(usize, usize)>,
) -> Option<Target> {
    let callee = call.named_child(0)?;
    let (receiver, name) = match callee.kind() {
        "identifier" => (None, text_of(callee, src)),
        "navigation_expression" => {
            let name = code_children(callee)
                .into_iter()
                .skip(1)
                .rfind(|c| c.kind() == "identifier")?;
            (
                Some(text_of(callee.named_child(0)?, src)),
                text_of(name, src),
            )
        }
        _ => return None,
    };
    if !is_identifier(name) {
        return None;
    }
    let own = |receiver: &str| {
        SELF_RECEIVERS.contains(&receiver)
            || receiver.starts_with("this@")
            || receiver.starts_with("super<")
            || container.is_some_and(|(start, end)| &src[start..end] == receiver)
    };
    let shown = |path: Option<&str>| {
        key_callee(name, path).then(|| match path {
            Some(path) => format!("{path}.{name}"),
            None => name.to_string(),
        })
    };
    Some(match receiver {
        None if name.starts_with(|c: char| c.is_ascii_uppercase()) => Target {
            callee: Callee::TypePath {
                ty: name.to_string(),
                name: name.to_string(),
            },
            shown: None,
        },
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
