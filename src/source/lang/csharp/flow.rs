//! C# in a member's flow (`source::flow`): how each statement of its syntax tree shows in the
//! outline — `if` chains, loops, `switch` sections, `try`/`catch`/`finally`, `using` and `lock`
//! blocks, the blocks read through, what is skipped.

use tree_sitter::Node;

use crate::source::flow::{Branch, Reader, Shape};
use crate::source::syntax::code_children;

impl<'s> Reader<'s> {
    /// How a C# statement shows in the flow.
    pub(crate) fn csharp<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "if_statement" => self.if_chain(node, "if_statement", true),
            "for_statement" | "foreach_statement" | "while_statement" | "do_statement"
            | "using_statement" | "lock_statement" | "fixed_statement" | "checked_statement" => {
                let body = field("body").or_else(|| code_children(node).into_iter().last());
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "switch_statement" => {
                let body = field("body");
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "switch_section" => {
                let first = code_children(node)
                    .into_iter()
                    .find(|c| c.kind().ends_with("statement"));
                let header = format!("{}:", self.head(node, first).trim_end_matches(':'));
                // Its first statement (a section's block, or its one statement): the section
                // itself is no list the shared walk reads.
                Shape::Branches(vec![Branch::new(header, first)])
            }
            "try_statement" => {
                let body = field("body");
                let mut branches = vec![Branch::new("try:".to_string(), body)];
                for part in code_children(node) {
                    match part.kind() {
                        "catch_clause" => {
                            let body = part.child_by_field_name("body");
                            branches.push(Branch {
                                header: format!("{}:", self.head(part, body)),
                                body,
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
            "local_function_statement" => {
                self.nested_function(node, node.child_by_field_name("body"))
            }
            "class_declaration"
            | "struct_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration" => self.nested(field("name")),
            "comment" | "empty_statement" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }
}
