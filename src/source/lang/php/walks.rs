//! PHP in the shared walks ([`Walks`]): its extraction, comment scanner, what throws, calls and
//! members, typed parameters, definitions, flow shapes, program roles, its import resolver and the
//! dependency namespaces of its class names.

use tree_sitter::Node;

use crate::source::calls::typed::{push, Returns, TypedSyntax};
use crate::source::calls::{At, CallKinds, CallSyntax, Found, Target};
use crate::source::catches::{clauses, guards_body, type_names, Clause, Handler};
use crate::source::comments::CLike;
use crate::source::comments::CommentSyntax;
use crate::source::definitions::{Ctx, DefinitionSyntax, Found as Definition, Walker};
use crate::source::flow::{FlowSyntax, Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::walks::Walks;
use crate::source::raises::RaiseSyntax;
use crate::source::raises::{cut_message, first_named, short, with_message};
use crate::source::resolve::{Collected, Context, ResolveSyntax};
use crate::source::syntax::{code_children, text_of, Extracted};

/// PHP's walks, the registry's `php::PHP`.
pub const PHP: PhpWalks = PhpWalks;

/// PHP's arms of the shared walks.
pub struct PhpWalks;

impl Walks for PhpWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    fn program_role(&self, _: &str, _: &str, _: &str) -> Option<String> {
        None
    }
}

impl CallSyntax for PhpWalks {
    fn call_kinds(&self) -> &'static CallKinds {
        &super::calls::CALL_KINDS
    }

    fn other_calls(&self) -> &'static [&'static str] {
        super::calls::OTHER_CALLS
    }

    fn member<'s>(&self, node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
        super::calls::member(node, src, at)
    }

    fn class_bases(&self, node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
        super::calls::class_bases(node, src)
    }

    fn call_target(
        &self,
        call: Node<'_>,
        src: &str,
        container: Option<(usize, usize)>,
    ) -> Option<Target> {
        super::calls::php_target(call, src, container)
    }
}

impl TypedSyntax for PhpWalks {
    /// `$x->name(…)`: its `object`.
    fn call_receiver<'t>(&self, call: Node<'t>) -> Option<Node<'t>> {
        match call.kind() {
            "member_call_expression" | "nullsafe_member_call_expression" => {
                call.child_by_field_name("object")
            }
            _ => None,
        }
    }

    /// A function's or method's parameters with their declared class (`Request $request`).
    fn declared(&self, node: Node<'_>, src: &str, _: &Returns, out: &mut Vec<(String, String)>) {
        if !matches!(node.kind(), "method_declaration" | "function_definition") {
            return;
        }
        let Some(parameters) = node.child_by_field_name("parameters") else {
            return;
        };
        for parameter in code_children(parameters) {
            // `Request`, `?Request`, `\App\Request`: the class's last segment.
            let ty = parameter
                .child_by_field_name("type")
                .map(|t| match t.kind() {
                    "optional_type" => code_children(t).into_iter().next().unwrap_or(t),
                    _ => t,
                })
                .filter(|t| t.kind() == "named_type")
                .and_then(|t| code_children(t).into_iter().next())
                .and_then(|name| match name.kind() {
                    "qualified_name" => code_children(name)
                        .into_iter()
                        .rfind(|c| c.kind() == "name"),
                    _ => Some(name),
                });
            let name = parameter
                .child_by_field_name("name")
                .and_then(|n| code_children(n).into_iter().find(|c| c.kind() == "name"));
            push(out, name, ty, src);
        }
    }
}

impl RaiseSyntax for PhpWalks {
    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        match node.kind() {
            "throw_expression" => Some(php_thrown(first_named(node)?, src)),
            _ => None,
        }
    }

    /// A `try` guards its body; a `catch` catches the types of its list (`A | B $e`).
    fn handlers(&self, around: Node<'_>, inside: Node<'_>, src: &str) -> Option<Vec<Handler>> {
        if around.kind() != "try_statement" || !guards_body(around, inside) {
            return None;
        }
        Some(clauses(around, "catch_clause", |clause| {
            let types = clause
                .child_by_field_name("type")
                .map(|types| type_names(types, src))
                .unwrap_or_default();
            let clause = Clause {
                clause,
                block: clause.child_by_field_name("body"),
                bound: clause.child_by_field_name("name"),
            };
            Handler::read(self, clause, types, false, src)
        }))
    }
}

impl FlowSyntax for PhpWalks {
    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.php(node)
    }
}

impl DefinitionSyntax for PhpWalks {
    fn definition<'t>(
        &self,
        walker: &Walker<'_>,
        node: Node<'t>,
        ctx: Ctx,
    ) -> Option<Definition<'t>> {
        walker.php(node, ctx)
    }

    fn opens_scope(&self, kind: &str) -> bool {
        matches!(
            kind,
            "compound_statement" | "anonymous_function" | "arrow_function" | "colon_block"
        )
    }
}

impl CommentSyntax for PhpWalks {
    /// The C-like scanner's comments, then PHP's `#` line comments (not `#[…]` attributes),
    /// found outside strings.
    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::c_like(text, COMMENTS, out);
        hash_comments(text, out);
    }
}

/// PHP's `# …` line comments of `text`, one a line, strings and `/* … */` stepped over.
fn hash_comments(text: &str, out: &mut String) {
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            quote @ (b'\'' | b'"') => {
                at += 1;
                while at < bytes.len() && bytes[at] != quote {
                    at += if bytes[at] == b'\\' { 2 } else { 1 };
                }
                at += 1;
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                at = text[at + 2..]
                    .find("*/")
                    .map_or(bytes.len(), |end| at + 2 + end + 2);
            }
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = text[at..].find('\n').map_or(bytes.len(), |end| at + end);
            }
            b'#' if bytes.get(at + 1) != Some(&b'[') => {
                let end = text[at..].find('\n').map_or(bytes.len(), |end| at + end);
                let comment = text[at + 1..end].trim();
                if !comment.is_empty() {
                    out.push_str(comment);
                    out.push('\n');
                }
                at = end;
            }
            _ => at += 1,
        }
    }
}

impl ResolveSyntax for PhpWalks {
    fn resolve(
        &self,
        file: &str,
        interface: &Interface,
        context: &Context<'_>,
        out: &mut Collected,
    ) {
        super::resolve::resolve(file, interface, context, out);
    }

    fn external_package(&self, _: &str, spec: &str, context: &Context<'_>) -> Option<String> {
        super::resolve::external_package(spec, context)
    }
}

/// PHP: `'…'` and `"…"` strings, no nesting comments, no raw or template strings (`#` comments:
/// [`hash_comments`]).
const COMMENTS: CLike = CLike {
    nested_blocks: false,
    raw_strings: false,
    char_literals: false,
    backtick_strings: false,
};

/// The entry of a thrown expression: `InvalidArgumentException ("Route not found")` for `new X`
/// with a literal message first (interpolations as `…`), the class alone with any other first
/// argument, the expression itself otherwise (`throw $e`).
fn php_thrown(expression: Node<'_>, src: &str) -> String {
    if expression.kind() != "object_creation_expression" {
        return short(text_of(expression, src));
    }
    let children = code_children(expression);
    let Some(class) = children
        .iter()
        .find(|c| matches!(c.kind(), "name" | "qualified_name" | "relative_name"))
    else {
        return short(text_of(expression, src));
    };
    let class = super::calls::last_segment(text_of(*class, src));
    let message = children
        .iter()
        .find(|c| c.kind() == "arguments")
        .and_then(|arguments| code_children(*arguments).into_iter().next())
        .and_then(|argument| code_children(argument).into_iter().last())
        .and_then(|value| message_text(value, src));
    with_message(class.to_string(), message)
}

/// A string argument's text (a `sprintf`'s format; `.`-joined parts with their variables as `…`),
/// cut as a raise message is.
fn message_text(node: Node<'_>, src: &str) -> Option<String> {
    let text = match node.kind() {
        "string" | "encapsed_string" => literal_text(node, src),
        "function_call_expression" => {
            let function = node.child_by_field_name("function")?;
            if text_of(function, src) != "sprintf" {
                return None;
            }
            let first = node
                .child_by_field_name("arguments")
                .and_then(|a| code_children(a).into_iter().next())
                .and_then(|a| code_children(a).into_iter().last())?;
            let format = literal_text(first, src);
            format
                .replace("%s", "…")
                .replace("%d", "…")
                .replace("%S", "…")
        }
        "binary_expression" => {
            let mut parts = String::new();
            let mut stack = vec![node];
            let mut leaves = Vec::new();
            while let Some(n) = stack.pop() {
                match n.kind() {
                    "binary_expression" => {
                        stack.extend(n.child_by_field_name("right"));
                        stack.extend(n.child_by_field_name("left"));
                    }
                    _ => leaves.push(n),
                }
            }
            for leaf in leaves {
                match leaf.kind() {
                    "string" | "encapsed_string" => parts.push_str(&literal_text(leaf, src)),
                    _ => parts.push('…'),
                }
            }
            parts
        }
        _ => return None,
    };
    cut_message(&text)
}

/// A string literal's text without quotes, each `$variable` and `{…}` interpolation as `…`.
fn literal_text(node: Node<'_>, src: &str) -> String {
    let text = text_of(node, src);
    let body = text
        .strip_prefix(['\'', '"'])
        .and_then(|t| t.strip_suffix(['\'', '"']))
        .unwrap_or(text);
    if node.kind() == "string" {
        return body.to_string();
    }
    let mut out = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '{' if chars.peek() == Some(&'$') => {
                for inner in chars.by_ref() {
                    if inner == '}' {
                        break;
                    }
                }
                out.push('…');
            }
            '$' if chars.peek().is_some_and(|n| n.is_alphabetic() || *n == '_') => {
                while chars
                    .peek()
                    .is_some_and(|n| n.is_alphanumeric() || matches!(*n, '_' | '-' | '>'))
                {
                    chars.next();
                }
                out.push('…');
            }
            '\\' => {
                chars.next();
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn comments_of_every_kind_but_not_in_strings_or_attributes() {
        let text = "<?php\n# Binary detection.\n#[Attr]\n$a = '# no'; // Heuristics.\n/* A # block. */ $b = \"x\\\"# no\"; # trailing\n";
        let mut out = String::new();
        PHP.comment_text(text, &mut out);
        assert_eq!(
            out,
            "Heuristics.\nA # block.\nBinary detection.\ntrailing\n"
        );
    }
}
