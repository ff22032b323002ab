//! Kotlin in a member's flow (`source::flow`): how each statement of its syntax tree shows in the
//! outline — `if` chains, loops, `when` entries, `try`/`catch`/`finally`, the blocks read through,
//! what is skipped.

use tree_sitter::Node;

use crate::source::flow::{Branch, Reader, Shape};
use crate::source::syntax::code_children;

impl<'s> Reader<'s> {
    /// How a Kotlin statement shows in the flow.
    pub(crate) fn kotlin<'t>(&self, node: Node<'t>) -> Shape<'t> {
        match node.kind() {
            "if_expression" => self.kotlin_if(node),
            "for_statement" | "while_statement" | "do_while_statement" => {
                let body = code_children(node)
                    .into_iter()
                    .rev()
                    .find(|c| c.kind() == "block");
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "when_expression" => {
                let entries: Vec<Node<'t>> = code_children(node)
                    .into_iter()
                    .filter(|c| c.kind() == "when_entry")
                    .collect();
                let mut branches = Vec::new();
                for entry in entries {
                    let body = code_children(entry)
                        .into_iter()
                        .rev()
                        .find(|c| c.kind() == "block")
                        .or_else(|| code_children(entry).into_iter().last());
                    let text = self.head(entry, body);
                    let text = text.trim_end().trim_end_matches("->").trim_end();
                    branches.push(Branch::new(format!("{text}:"), body));
                }
                Shape::Branches(branches)
            }
            "try_expression" => {
                let mut branches = Vec::new();
                for part in code_children(node) {
                    match part.kind() {
                        "block" => branches.push(Branch::new("try:".to_string(), Some(part))),
                        "catch_block" => {
                            let body = code_children(part)
                                .into_iter()
                                .find(|c| c.kind() == "block");
                            branches.push(Branch {
                                header: format!("{}:", self.head(part, body)),
                                body,
                                always: true,
                            });
                        }
                        "finally_block" => branches.push(Branch {
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
            "class_declaration" | "object_declaration" | "function_declaration" => {
                self.nested(node.child_by_field_name("name"))
            }
            "line_comment" | "block_comment" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }

    /// An `if … else if … else` chain: the condition, then the branch after it, then what follows
    /// `else` (another `if`, read as `else if`).
    fn kotlin_if<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let mut branches = Vec::new();
        let mut current = node;
        let mut prefix = "if";
        for _ in 0..64 {
            let condition = current.child_by_field_name("condition");
            let mut cursor = current.walk();
            let children: Vec<Node<'t>> = current.children(&mut cursor).collect();
            let close = children.iter().position(|c| c.kind() == ")");
            let else_at = children.iter().position(|c| c.kind() == "else");
            let consequence = close.and_then(|at| {
                children[at + 1..else_at.unwrap_or(children.len())]
                    .iter()
                    .find(|c| c.is_named())
                    .copied()
            });
            branches.push(Branch::new(
                format!("{prefix} {}:", self.header(condition)),
                consequence,
            ));
            let Some(alternative) =
                else_at.and_then(|at| children[at + 1..].iter().find(|c| c.is_named()).copied())
            else {
                break;
            };
            match alternative.kind() {
                "if_expression" => {
                    current = alternative;
                    prefix = "else if";
                }
                _ => {
                    branches.push(Branch::new("else:".to_string(), Some(alternative)));
                    break;
                }
            }
        }
        Shape::Branches(branches)
    }
}
