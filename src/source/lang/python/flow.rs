//! Python in a member's flow (`source::flow`): how each statement of its syntax tree shows in the
//! outline — the branches of its conditionals, loops and handlers, the blocks read through, what
//! is skipped.

use tree_sitter::Node;

use crate::source::flow::{is_lone_string, shorten, unparenthesized, Branch, Reader, Shape};
use crate::source::syntax::{code_children, text_of};

impl<'s> Reader<'s> {
    /// How a Python statement shows in the flow.
    pub(crate) fn python<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "if_statement" => {
                let mut branches = vec![Branch::new(
                    format!(
                        "if {}:",
                        self.header(field("condition").map(unparenthesized))
                    ),
                    field("consequence"),
                )];
                for clause in code_children(node) {
                    match clause.kind() {
                        "elif_clause" => branches.push(Branch::new(
                            format!(
                                "elif {}:",
                                self.header(
                                    clause.child_by_field_name("condition").map(unparenthesized)
                                )
                            ),
                            clause.child_by_field_name("consequence"),
                        )),
                        "else_clause" => branches.push(Branch::new(
                            "else:".to_string(),
                            clause.child_by_field_name("body"),
                        )),
                        _ => {}
                    }
                }
                Shape::Branches(branches)
            }
            "for_statement" | "while_statement" | "with_statement" => {
                let body = field("body");
                let mut branches = vec![Branch::new(format!("{}:", self.head(node, body)), body)];
                if let Some(alternative) = field("alternative") {
                    let body = alternative.child_by_field_name("body");
                    branches.push(Branch::new("else:".to_string(), body));
                }
                Shape::Branches(branches)
            }
            "try_statement" => {
                let mut branches = vec![Branch::new("try:".to_string(), field("body"))];
                for clause in code_children(node) {
                    let block = code_children(clause)
                        .into_iter()
                        .find(|c| c.kind() == "block");
                    let header = match clause.kind() {
                        "except_clause" | "except_group_clause" => {
                            format!("{}:", self.head(clause, block))
                        }
                        "else_clause" => "else:".to_string(),
                        "finally_clause" => "finally:".to_string(),
                        _ => continue,
                    };
                    let always = clause.kind() != "else_clause";
                    branches.push(Branch {
                        header,
                        body: block,
                        always,
                    });
                }
                Shape::Branches(branches)
            }
            "match_statement" => {
                let subject = code_children(node)
                    .into_iter()
                    .filter(|c| c.kind() != "block")
                    .map(|c| text_of(c, self.src))
                    .collect::<Vec<_>>()
                    .join(", ");
                let header = format!("match {}:", shorten(&subject, self.line_chars - 10));
                Shape::Branches(vec![Branch::new(header, field("body"))])
            }
            "case_clause" => {
                let body = field("consequence");
                Shape::Branches(vec![Branch::new(
                    format!("{}:", self.head(node, body)),
                    body,
                )])
            }
            "function_definition" => self.nested_function(node, field("body")),
            "class_definition" => self.nested(field("name")),
            // A docstring (the doc says it), a bare string literal.
            "expression_statement" if is_lone_string(node) => Shape::Skip,
            "decorated_definition" => match field("definition") {
                Some(definition) => self.python(definition),
                None => Shape::Skip,
            },
            "pass_statement"
            | "comment"
            | "import_statement"
            | "import_from_statement"
            | "global_statement"
            | "nonlocal_statement" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }
}
