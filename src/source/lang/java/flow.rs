//! Java in a member's flow (`source::flow`): how each statement of its syntax tree shows in the
//! outline — the branches of its conditionals, loops and handlers, the blocks read through, what
//! is skipped.

use tree_sitter::Node;

use crate::source::flow::{Branch, Reader, Shape};
use crate::source::syntax::code_children;

impl<'s> Reader<'s> {
    /// How a Java statement shows in the flow.
    pub(crate) fn java<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "if_statement" => self.if_chain(node, "if_statement", true),
            "for_statement"
            | "enhanced_for_statement"
            | "while_statement"
            | "do_statement"
            | "synchronized_statement" => {
                let body = field("body").or_else(|| code_children(node).into_iter().last());
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "switch_expression" => {
                let body = field("body");
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "switch_block_statement_group" | "switch_rule" => {
                let label = code_children(node)
                    .into_iter()
                    .find(|c| c.kind() == "switch_label");
                let header = format!("{}:", self.header(label).trim_end_matches(':'));
                Shape::Branches(vec![Branch::new(header, Some(node))])
            }
            "switch_label" => Shape::Skip,
            "try_statement" | "try_with_resources_statement" => {
                let body = field("body");
                let mut branches = vec![Branch::new(format!("{}:", self.head(node, body)), body)];
                for part in code_children(node) {
                    match part.kind() {
                        "catch_clause" => {
                            let parameter = code_children(part)
                                .into_iter()
                                .find(|c| c.kind() == "catch_formal_parameter");
                            branches.push(Branch {
                                header: format!("catch ({}):", self.header(parameter)),
                                body: part.child_by_field_name("body"),
                                always: true,
                            });
                        }
                        "finally_clause" => branches.push(Branch {
                            header: "finally:".to_string(),
                            body: code_children(part)
                                .into_iter()
                                .find(|c| c.kind() == "block"),
                            always: true,
                        }),
                        _ => {}
                    }
                }
                Shape::Branches(branches)
            }
            "block" => Shape::Through(node),
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration" => self.nested(field("name")),
            "line_comment" | "block_comment" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }
}
