//! Python in the call walk (`source::calls`): the node kinds its calls are read from, the nodes that
//! start a member, the bases a class names.

use tree_sitter::Node;

use crate::source::calls::{base_name, At, CallKinds, Found};
use crate::source::syntax::text_of;

/// The node kinds Python's calls are read from.
pub(crate) const CALL_KINDS: CallKinds = CallKinds {
    call: "call",
    creation: None,
    containers: &[("class_definition", "name")],
    access: ("attribute", "attribute"),
    capitalised_builds_value: false,
};

/// Whether `node` starts a member: a function, in the class it sits in.
pub(crate) fn member<'s>(node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
    match node.kind() {
        "function_definition" => Some(Found::plain(
            text_of(node.child_by_field_name("name")?, src),
            at.container,
        )),
        _ => None,
    }
}

/// The bases a class names (`(Flask, [App])`), `object` and keyword arguments left out.
pub(crate) fn class_bases(node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
    let list = node.child_by_field_name("superclasses")?;
    let mut cursor = list.walk();
    let supers: Vec<String> = list
        .named_children(&mut cursor)
        .filter(|b| b.kind() != "keyword_argument")
        .map(|b| base_name(text_of(b, src)))
        .filter(|b| !b.is_empty() && b != "object")
        .collect();
    let name = text_of(node.child_by_field_name("name")?, src);
    Some((name.to_string(), supers))
}
