//! PHP in a member's flow (`source::flow`): how each statement of its syntax tree shows in the
//! outline — `if`/`elseif`/`else` chains, loops, `switch` cases, `try`/`catch`/`finally`, the
//! blocks read through, what is skipped.

use tree_sitter::Node;

use crate::source::flow::{Branch, Reader, Shape};
use crate::source::syntax::{code_children, text_of};

impl<'s> Reader<'s> {
    /// How a PHP statement shows in the flow.
    pub(crate) fn php<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "if_statement" => {
                let mut branches = vec![Branch::new(
                    format!("if {}:", self.condition(field("condition"))),
                    field("body"),
                )];
                let mut cursor = node.walk();
                for alternative in node.children_by_field_name("alternative", &mut cursor) {
                    let body = alternative.child_by_field_name("body");
                    let header = match alternative.kind() {
                        "else_if_clause" => format!(
                            "else if {}:",
                            self.condition(alternative.child_by_field_name("condition"))
                        ),
                        _ => "else:".to_string(),
                    };
                    branches.push(Branch::new(header, body));
                }
                Shape::Branches(branches)
            }
            "for_statement" | "foreach_statement" | "while_statement" | "do_statement" => {
                let body = field("body").or_else(|| code_children(node).into_iter().last());
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "switch_statement" => {
                let body = field("body");
                let cases = body.map(code_children).unwrap_or_default();
                let branches = cases
                    .into_iter()
                    .filter(|c| matches!(c.kind(), "case_statement" | "default_statement"))
                    .map(|case| {
                        let value = case.child_by_field_name("value");
                        let header = match value {
                            Some(value) => format!("case {}:", self.header(Some(value))),
                            None => "default:".to_string(),
                        };
                        Branch::new(header, Some(case))
                    })
                    .collect();
                Shape::Branches(branches)
            }
            "try_statement" => {
                let mut branches = vec![Branch::new("try:".to_string(), field("body"))];
                for part in code_children(node) {
                    match part.kind() {
                        "catch_clause" => {
                            let ty = part.child_by_field_name("type");
                            let name = part.child_by_field_name("name");
                            let caught = [ty, name]
                                .into_iter()
                                .flatten()
                                .map(|n| text_of(n, self.src))
                                .collect::<Vec<_>>()
                                .join(" ");
                            branches.push(Branch {
                                header: format!("catch ({caught}):"),
                                body: part.child_by_field_name("body"),
                                always: true,
                            });
                        }
                        "finally_clause" => branches.push(Branch {
                            header: "finally:".to_string(),
                            body: part.child_by_field_name("body"),
                            always: true,
                        }),
                        _ => {}
                    }
                }
                Shape::Branches(branches)
            }
            "compound_statement" | "colon_block" => Shape::Through(node),
            "function_definition" | "class_declaration" => self.nested(field("name")),
            "comment" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }

    /// A condition without its parentheses.
    fn condition(&self, condition: Option<Node<'_>>) -> String {
        let inner = condition.map(|c| match c.kind() {
            "parenthesized_expression" => c.named_child(0).unwrap_or(c),
            _ => c,
        });
        self.header(inner)
    }
}
