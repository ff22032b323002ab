//! Rust in a member's flow (`source::flow`): how each statement of its syntax tree shows in the
//! outline — the branches of its conditionals, loops and handlers, the blocks read through, what
//! is skipped.

use tree_sitter::Node;

use crate::source::flow::{is_rust_control, Branch, Reader, Shape};
use crate::source::syntax::{code_children, text_of};

impl<'s> Reader<'s> {
    /// How a Rust statement shows in the flow.
    pub(crate) fn rust<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "expression_statement" => match code_children(node).into_iter().next() {
                Some(inner) if is_rust_control(inner.kind()) => self.rust(inner),
                Some(inner) if self.is_diagnostic(inner) => Shape::Skip,
                _ => Shape::Leaf(node),
            },
            "let_declaration" => match field("value") {
                Some(value) if is_rust_control(value.kind()) => {
                    let prefix = self.head(node, Some(value));
                    match self.rust(value) {
                        Shape::Branches(mut branches) => {
                            if let Some(first) = branches.first_mut() {
                                first.header = format!("{prefix} {}", first.header);
                            }
                            Shape::Branches(branches)
                        }
                        _ => Shape::Leaf(node),
                    }
                }
                _ => Shape::Leaf(node),
            },
            "if_expression" => self.if_chain(node, "if_expression", false),
            "match_expression" => {
                let header = format!("match {}:", self.header(field("value")));
                Shape::Branches(vec![Branch::new(header, field("body"))])
            }
            "match_arm" => {
                let value = field("value");
                let pattern = self.header(field("pattern"));
                match value {
                    Some(v) if v.kind() == "block" || is_rust_control(v.kind()) => {
                        Shape::Branches(vec![Branch::new(format!("{pattern} =>"), Some(v))])
                    }
                    // `BinaryDetection::Convert(b) => b`, `_ => Ok(false)`.
                    Some(_) => Shape::Leaf(node),
                    None => Shape::Skip,
                }
            }
            "for_expression" | "while_expression" | "loop_expression" => {
                let body = field("body");
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "block" => Shape::Through(node),
            "unsafe_block" | "async_block" => {
                let block = code_children(node)
                    .into_iter()
                    .find(|c| c.kind() == "block");
                let header = format!(
                    "{}:",
                    text_of(node, self.src)
                        .split('{')
                        .next()
                        .unwrap_or("")
                        .trim()
                );
                Shape::Branches(vec![Branch::new(header, block)])
            }
            "function_item" => self.nested_function(node, field("body")),
            "struct_item" | "enum_item" | "trait_item" | "mod_item" => self.nested(field("name")),
            "impl_item" => self.nested(field("type")),
            "line_comment" | "block_comment" | "use_declaration" | "attribute_item"
            | "empty_statement" | "const_item" | "static_item" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }
}

/// Characters a statement's `cfg` gate takes at most (its groups folded past it).
const GATE_CHARS: usize = 60;

/// The `#[cfg(…)]` attributes right before `statement` in its block (`#[cfg(unix)]`), joined.
pub(crate) fn cfg_gate(statement: Node<'_>, src: &str) -> Option<String> {
    let mut gates: Vec<String> = Vec::new();
    let mut at = statement.prev_sibling();
    while let Some(node) = at.filter(|n| n.kind() == "attribute_item") {
        let text = text_of(node, src);
        if text.starts_with("#[cfg") {
            gates.push(crate::source::flow::shorten(text, GATE_CHARS));
        }
        at = node.prev_sibling();
    }
    gates.reverse();
    (!gates.is_empty()).then(|| gates.join(" "))
}
