//! Ruby in a member's flow (`source::flow`): `if`/`unless` chains with `elsif`/`else`, loops
//! (`while`, `until`, `for`), `case`/`when`, `begin`/`rescue`/`else`/`ensure` (a method body's
//! own `rescue` too: its handlers follow its statements), a call's block (`each do |x|`), what is
//! skipped.

use tree_sitter::Node;

use crate::source::flow::{Branch, Reader, Shape};
use crate::source::syntax::code_children;

impl<'s> Reader<'s> {
    /// How a Ruby statement shows in the flow.
    pub(crate) fn ruby<'t>(&self, node: Node<'t>) -> Shape<'t> {
        match node.kind() {
            "if" | "unless" => self.ruby_if(node),
            "while" | "until" | "for" => {
                let body = node.child_by_field_name("body");
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body).trim_end_matches(" do")),
                    body,
                )])
            }
            "case" => {
                let mut branches = Vec::new();
                for part in code_children(node) {
                    match part.kind() {
                        "when" => {
                            let body = part.child_by_field_name("body");
                            let text = self.head(part, body);
                            let text = text.trim_end().trim_end_matches(" then");
                            branches.push(Branch::new(format!("{text}:"), body));
                        }
                        "else" => branches.push(Branch::new("else:".to_string(), Some(part))),
                        _ => {}
                    }
                }
                Shape::Branches(branches)
            }
            "begin" => Shape::Through(node),
            // A `begin`'s (or a method body's) handlers, after its statements.
            "rescue" => {
                let body = node.child_by_field_name("body");
                Shape::Branches(vec![Branch {
                    header: format!("{}:", self.head(node, body).trim_end_matches(" then")),
                    body,
                    always: true,
                }])
            }
            "else" => Shape::Branches(vec![Branch::new("else:".to_string(), Some(node))]),
            "ensure" => Shape::Branches(vec![Branch {
                header: "ensure:".to_string(),
                body: Some(node),
                always: true,
            }]),
            "method" | "singleton_method" | "class" | "module" => {
                self.nested(node.child_by_field_name("name"))
            }
            // `names.each do |name| … end`: the call, then its block's statements.
            "call" if node.child_by_field_name("block").is_some() => {
                let body = node
                    .child_by_field_name("block")
                    .and_then(|block| block.child_by_field_name("body"));
                match body {
                    Some(body) => Shape::Branches(vec![Branch::new(
                        format!(
                            "{}:",
                            self.head(node, Some(body)).trim_end_matches('{').trim_end()
                        ),
                        Some(body),
                    )]),
                    None => Shape::Leaf(node),
                }
            }
            "comment" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }

    /// An `if`/`unless` chain: the condition, its branch, then `elsif`s and `else`.
    fn ruby_if<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let mut branches = Vec::new();
        let mut current = node;
        let mut prefix = node.kind();
        for _ in 0..64 {
            let condition = current.child_by_field_name("condition");
            branches.push(Branch::new(
                format!("{prefix} {}:", self.header(condition)),
                current.child_by_field_name("consequence"),
            ));
            let Some(alternative) = current.child_by_field_name("alternative") else {
                break;
            };
            match alternative.kind() {
                "elsif" => {
                    current = alternative;
                    prefix = "elsif";
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
