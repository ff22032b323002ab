//! JavaScript, TypeScript and TSX in a member's flow (`source::flow`): how each statement of its syntax tree shows in the
//! outline — the branches of its conditionals, loops and handlers, the blocks read through, what
//! is skipped.

use tree_sitter::Node;

use crate::source::flow::{
    ends_a_case, is_function, is_lone_string, shorten, Branch, Reader, Shape,
};
use crate::source::syntax::{code_children, text_of};

impl<'s> Reader<'s> {
    /// How a JavaScript, TypeScript or TSX statement shows in the flow.
    pub(crate) fn javascript<'t>(&self, node: Node<'t>) -> Shape<'t> {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            // `if … else if … else`: one chain.
            "if_statement" => self.if_chain(node, "if_statement", true),
            "for_statement" | "for_in_statement" | "while_statement" | "do_statement"
            | "with_statement" => {
                let body = field("body");
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
            // A case shows even when empty: it falls through to the next (`case true:` above
            // `case false: return x`).
            "switch_case" => {
                let header = format!("case {}:", self.header(field("value")));
                Shape::Branches(vec![Branch {
                    header,
                    body: Some(node),
                    always: true,
                }])
            }
            "switch_default" => Shape::Branches(vec![Branch {
                header: "default:".into(),
                body: Some(node),
                always: true,
            }]),
            "try_statement" => {
                let mut branches = vec![Branch::new("try:".to_string(), field("body"))];
                if let Some(handler) = field("handler") {
                    let parameter = handler.child_by_field_name("parameter");
                    let header = match parameter {
                        Some(p) => format!("catch ({}):", text_of(p, self.src)),
                        None => "catch:".to_string(),
                    };
                    branches.push(Branch {
                        header,
                        body: handler.child_by_field_name("body"),
                        always: true,
                    });
                }
                if let Some(finalizer) = field("finalizer") {
                    branches.push(Branch {
                        header: "finally:".to_string(),
                        body: finalizer.child_by_field_name("body"),
                        always: true,
                    });
                }
                Shape::Branches(branches)
            }
            "statement_block" => Shape::Through(node),
            "function_declaration" | "generator_function_declaration" => {
                self.nested_function(node, field("body"))
            }
            "class_declaration" => self.nested(field("name")),
            "lexical_declaration" | "variable_declaration" => {
                // `var done = function (…) {…}`: a nested function, its header and its body.
                let declarators = code_children(node);
                let function = declarators.iter().find_map(|d| {
                    d.child_by_field_name("value")
                        .filter(|v| is_function(*v))
                        .map(|v| (d, v))
                });
                let sets_nothing = declarators
                    .iter()
                    .all(|d| d.child_by_field_name("value").is_none());
                match (declarators.len(), function) {
                    (1, Some((_, function))) => {
                        self.nested_function(node, function.child_by_field_name("body"))
                    }
                    // `var body;`: a name declared, set further down.
                    _ if sets_nothing => Shape::Skip,
                    _ => Shape::Leaf(node),
                }
            }
            "empty_statement" | "comment" | "import_statement" => Shape::Skip,
            // A `switch` case's closing `break` (a `break` elsewhere leaves a loop early: shown).
            "break_statement" if ends_a_case(node) => Shape::Skip,
            // A directive (`'use strict'`).
            "expression_statement" if is_lone_string(node) => Shape::Skip,
            "expression_statement" => match self.callback_ends(node) {
                Some(ends) => Shape::Callbacks(node, ends),
                None => Shape::Leaf(node),
            },
            _ => Shape::Leaf(node),
        }
    }

    /// For a statement calling something with an object literal of functions (`format({ text:
    /// function () { body = … }, … })`), each function's key and its body's last statement (`text:
    /// body = statuses.message[status] + '. Redirecting to ' + address`); none otherwise.
    pub(crate) fn callback_ends(&self, statement: Node<'_>) -> Option<Vec<String>> {
        let call = code_children(statement).into_iter().next()?;
        if call.kind() != "call_expression" {
            return None;
        }
        let args = call.child_by_field_name("arguments")?;
        let object = code_children(args)
            .into_iter()
            .find(|a| a.kind() == "object")?;
        let mut ends = Vec::new();
        for pair in code_children(object) {
            let (Some(key), Some(value)) = (
                pair.child_by_field_name("key"),
                pair.child_by_field_name("value"),
            ) else {
                continue;
            };
            if !is_function(value) {
                continue;
            }
            let body = value.child_by_field_name("body")?;
            let last = match body.kind() {
                "statement_block" => code_children(body).into_iter().last(),
                _ => Some(body),
            };
            let text = last.map_or(String::new(), |l| {
                let text = text_of(l, self.src).trim_end();
                shorten(text.strip_suffix(';').unwrap_or(text), self.line_chars - 10)
            });
            let key = text_of(key, self.src).trim_matches(['\'', '"']);
            ends.push(format!("{key}: {text}"));
        }
        (!ends.is_empty()).then_some(ends)
    }
}
