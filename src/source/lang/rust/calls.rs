//! Rust in the call walk (`source::calls`): the node kinds its calls are read from, the nodes that
//! start a member, the bases a type or trait names.

use tree_sitter::Node;

use crate::source::calls::{base_name, At, CallKinds, Found};
use crate::source::syntax::text_of;

/// The node kinds Rust's calls are read from.
pub(crate) const CALL_KINDS: CallKinds = CallKinds {
    call: "call_expression",
    creation: None,
    containers: &[("impl_item", "type"), ("trait_item", "name")],
    access: ("field_expression", "field"),
    capitalised_builds_value: true,
};

/// Whether `node` starts a member: a function, in the `impl` or trait it sits in.
pub(crate) fn member<'s>(node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
    match node.kind() {
        "function_item" => Some(Found::plain(
            text_of(node.child_by_field_name("name")?, src),
            at.container,
        )),
        _ => None,
    }
}

/// The bases an `impl Trait for Type` (`(Square, [Shape])`) or a trait (its supertraits) names.
pub(crate) fn class_bases(node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
    let name = |field: &str| node.child_by_field_name(field).map(|n| text_of(n, src));
    match node.kind() {
        "impl_item" => {
            let ty = base_name(name("type")?);
            let tr = base_name(name("trait")?);
            Some((ty, vec![tr]))
        }
        "trait_item" => {
            let bounds = node.child_by_field_name("bounds")?;
            let mut cursor = bounds.walk();
            let supers: Vec<String> = bounds
                .named_children(&mut cursor)
                .map(|b| base_name(text_of(b, src)))
                .filter(|b| b.starts_with(char::is_alphabetic))
                .collect();
            Some((name("name")?.to_string(), supers))
        }
        // Not a container of Rust's (`CALL_KINDS`).
        _ => None,
    }
}
