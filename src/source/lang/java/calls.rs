//! Java in the call walk (`source::calls`): the node kinds its calls are read from, the nodes that
//! start a member, the bases a type names and its calls, which are `method_invocation` nodes with a `name` and an `object`.

use tree_sitter::Node;

use crate::source::calls::keys::key_callee;
use crate::source::calls::{
    is_identifier, plain_path, At, CallKinds, Callee, Found, Target, SELF_RECEIVERS,
};
use crate::source::syntax::text_of;

/// The node kinds Java's calls are read from.
pub(crate) const CALL_KINDS: CallKinds = CallKinds {
    call: "method_invocation",
    creation: Some("object_creation_expression"),
    containers: &[
        ("class_declaration", "name"),
        ("interface_declaration", "name"),
        ("enum_declaration", "name"),
        ("record_declaration", "name"),
    ],
    // Calls are `method_invocation` nodes, read by `java_target`.
    access: ("field_access", "field"),
    capitalised_builds_value: false,
};

/// Whether `node` starts a member: a method or constructor (a test when JUnit or TestNG runs it),
/// in the type it sits in.
pub(crate) fn member<'s>(node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
    match node.kind() {
        "method_declaration" | "constructor_declaration" | "compact_constructor_declaration" => {
            Some(Found {
                test: super::extract::is_test_method(node, src),
                ..Found::plain(
                    text_of(node.child_by_field_name("name")?, src),
                    at.container,
                )
            })
        }
        _ => None,
    }
}

/// The bases a type names: its superclass and interfaces.
pub(crate) fn class_bases(node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
    let class = text_of(node.child_by_field_name("name")?, src).to_string();
    Some((class, java_bases(node, src)))
}

/// A Java type's superclass and interfaces (`extends`, `implements`, an interface's `extends`),
/// by simple name, in source order.
pub(crate) fn java_bases(node: Node<'_>, src: &str) -> Vec<String> {
    let mut bases = Vec::new();
    let mut cursor = node.walk();
    for part in node.children(&mut cursor) {
        if !matches!(
            part.kind(),
            "superclass" | "super_interfaces" | "extends_interfaces"
        ) {
            continue;
        }
        let mut types = vec![part];
        while let Some(node) = types.pop() {
            match node.kind() {
                "type_identifier" | "scoped_type_identifier" | "generic_type" => {
                    let (start, end) = java_final_name(node);
                    let name = &src[start..end];
                    if !bases.iter().any(|b| b == name) {
                        bases.push(name.to_string());
                    }
                }
                _ => {
                    let mut inner = node.walk();
                    let children: Vec<Node<'_>> = node.named_children(&mut inner).collect();
                    types.extend(children.into_iter().rev());
                }
            }
        }
    }
    bases
}

/// The byte range of a Java type's simple name (`C` of `a.b.C<T>`, `Entry` of `Map.Entry`).
pub(crate) fn java_final_name(node: Node<'_>) -> (usize, usize) {
    let mut node = node;
    loop {
        let next = match node.kind() {
            "generic_type" => node.named_child(0),
            "scoped_type_identifier" => {
                let count = node.named_child_count() as u32;
                count.checked_sub(1).and_then(|last| node.named_child(last))
            }
            _ => None,
        };
        match next {
            Some(next) => node = next,
            None => break,
        }
    }
    (node.start_byte(), node.end_byte())
}

/// The callee of a Java call: through the own object for a bare call or one through
/// `this`/`super` (a method of the class or its bases), a type path through a capitalised name (a
/// static method) and for `new Type(…)` (`Type.Type`, its constructor), through a receiver
/// otherwise.
pub(crate) fn java_target(
    call: Node<'_>,
    src: &str,
    container: Option<(usize, usize)>,
) -> Option<Target> {
    if call.kind() == "object_creation_expression" {
        let (start, end) = java_final_name(call.child_by_field_name("type")?);
        let ty = &src[start..end];
        return is_identifier(ty).then(|| Target {
            callee: Callee::TypePath {
                ty: ty.to_string(),
                name: ty.to_string(),
            },
            shown: None,
        });
    }
    let name = text_of(call.child_by_field_name("name")?, src);
    if !is_identifier(name) {
        return None;
    }
    let receiver = call.child_by_field_name("object").map(|o| text_of(o, src));
    let own = |receiver: &str| {
        SELF_RECEIVERS.contains(&receiver)
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
            callee: Callee::OwnObject(name.to_string()),
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
