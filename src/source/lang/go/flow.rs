//! Go in a member's flow (`source::flow`): how each statement of its syntax tree shows in the
//! outline — the branches of its conditionals, loops and handlers, the blocks read through, what
//! is skipped.

use tree_sitter::Node;

use crate::source::flow::{shorten, Branch, Reader, Shape};
use crate::source::syntax::code_children;

impl<'s> Reader<'s> {
    /// Go: `if … else if … else` chains, loops, `switch`/`select` cases, blocks read through.
    pub(crate) fn go<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "if_statement" => {
                let mut branches = Vec::new();
                let mut current = node;
                let mut prefix = "if";
                for _ in 0..64 {
                    let condition = current.child_by_field_name("condition");
                    branches.push(Branch::new(
                        format!("{prefix} {}:", self.header(condition)),
                        current.child_by_field_name("consequence"),
                    ));
                    match current.child_by_field_name("alternative") {
                        Some(next) if next.kind() == "if_statement" => {
                            current = next;
                            prefix = "else if";
                        }
                        Some(block) => {
                            branches.push(Branch::new("else:".to_string(), Some(block)));
                            break;
                        }
                        None => break,
                    }
                }
                Shape::Branches(branches)
            }
            "for_statement"
            | "expression_switch_statement"
            | "type_switch_statement"
            | "select_statement" => {
                let body = field("body").or(Some(node));
                let end = field("body")
                    .map_or_else(|| self.go_case_start(node), |b| Some(b.start_byte()));
                let text = self
                    .src
                    .get(node.start_byte()..end.unwrap_or(node.end_byte()))
                    .unwrap_or("")
                    .trim_end()
                    .trim_end_matches('{')
                    .trim_end();
                let header = format!("{}:", shorten(text, self.line_chars - 4));
                Shape::Branches(vec![Branch::new(header, body)])
            }
            "expression_case" | "type_case" | "communication_case" => {
                let value = field("value").or_else(|| field("type"));
                let value = value.or_else(|| field("communication"));
                Shape::Branches(vec![Branch::new(
                    format!("case {}:", self.header(value)),
                    Some(node),
                )])
            }
            "default_case" => Shape::Branches(vec![Branch::new("default:".into(), Some(node))]),
            "block" | "statement_list" => Shape::Through(node),
            "break_statement"
            | "continue_statement"
            | "empty_statement"
            | "comment"
            | "fallthrough_statement" => Shape::Skip,
            _ => Shape::Leaf(node),
        }
    }

    /// Where a Go `switch`'s first case starts (its header ends there).
    pub(crate) fn go_case_start(&self, node: Node<'_>) -> Option<usize> {
        code_children(node)
            .into_iter()
            .find(|c| c.kind().ends_with("_case"))
            .map(|c| c.start_byte())
    }
}
