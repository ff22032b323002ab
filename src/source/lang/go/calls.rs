//! Go in the call walk (`source::calls`): the node kinds its calls are read from, the nodes that
//! start a member, the bases a type names (the types it embeds).

use tree_sitter::Node;

use crate::source::calls::{At, CallKinds, Found};
use crate::source::syntax::text_of;

/// A method is declared outside its type: [`member`] names its receiver's type. A type is a
/// container only for the types it embeds (its bases, `GoWalks::class_bases`).
pub(crate) const CALL_KINDS: CallKinds = CallKinds {
    call: "call_expression",
    creation: None,
    containers: &[("type_spec", "name")],
    access: ("selector_expression", "field"),
    capitalised_builds_value: false,
};

/// Whether `node` starts a member: a function (a test when `go test` runs it), or a method as a
/// member of its receiver's type (`Context.JSON`).
pub(crate) fn member<'s>(node: Node<'_>, src: &'s str, _: At) -> Option<Found<'s>> {
    let name = text_of(node.child_by_field_name("name")?, src);
    match node.kind() {
        "function_declaration" => Some(Found {
            test: super::extract::is_test_function(name) && has_testing_parameter(node, src),
            ..Found::plain(name, None)
        }),
        "method_declaration" => {
            let ty = super::extract::receiver_type(node)?;
            Some(Found::plain(name, Some((ty.start_byte(), ty.end_byte()))))
        }
        _ => None,
    }
}

/// Whether a Go function takes `*testing.T`, `*testing.B`, `*testing.F` (a test, benchmark or
/// fuzz target) or is an `ExampleXxx()` without parameters.
fn has_testing_parameter(node: Node<'_>, src: &str) -> bool {
    let parameters = node
        .child_by_field_name("parameters")
        .map_or("", |p| text_of(p, src));
    parameters.contains("testing.")
        || (parameters == "()" && text_of(node, src).contains("Example"))
}
