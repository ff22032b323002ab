//! C and C++ in a member's flow (`source::flow`): how each statement of its syntax tree shows in
//! the outline — the branches of its conditionals, loops, `switch` cases and handlers, the blocks
//! read through, what is skipped.

use tree_sitter::Node;

use crate::source::flow::{Branch, Reader, Shape};
use crate::source::syntax::code_children;

impl<'s> Reader<'s> {
    /// How a C or C++ statement shows in the flow.
    pub(crate) fn c<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "if_statement" => self.if_chain(node, "if_statement", true),
            "for_statement" | "for_range_loop" | "while_statement" | "do_statement"
            | "switch_statement" => {
                let body = field("body");
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "case_statement" => {
                let value = field("value");
                let header = match value {
                    Some(_) => format!("case {}:", self.header(value)),
                    None => "default:".to_string(),
                };
                Shape::Branches(vec![Branch::new(header, Some(node))])
            }
            "try_statement" => {
                let body = field("body");
                let mut branches = vec![Branch::new("try:".to_string(), body)];
                for part in code_children(node) {
                    if part.kind() == "catch_clause" {
                        branches.push(Branch {
                            header: format!(
                                "catch {}:",
                                self.header(part.child_by_field_name("parameters"))
                            ),
                            body: part.child_by_field_name("body"),
                            always: true,
                        });
                    }
                }
                Shape::Branches(branches)
            }
            "compound_statement" => Shape::Through(node),
            "class_specifier" | "struct_specifier" => self.nested(field("name")),
            "comment" | "break_statement" | "continue_statement" | "empty_statement" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }
}
