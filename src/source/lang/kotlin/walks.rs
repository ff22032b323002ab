//! Kotlin in the shared walks ([`Walks`]): its extraction, comment scanner, what throws, calls and
//! members, typed parameters, definitions, flow shapes, program roles, its import resolver and the
//! external packages of its imports.

use tree_sitter::Node;

use crate::source::calls::typed::{push, Returns, TypedSyntax};
use crate::source::calls::{At, CallKinds, CallSyntax, Found, Target};
use crate::source::catches::{clauses, type_names, Clause, Handler};
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

/// Kotlin's walks, the registry's `kotlin::KOTLIN`.
pub const KOTLIN: KotlinWalks = KotlinWalks;

/// Kotlin's arms of the shared walks.
pub struct KotlinWalks;

impl Walks for KotlinWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    /// A file with a top-level `fun main` is a program's entry point.
    fn program_role(&self, _: &str, text: &str, _: &str) -> Option<String> {
        text.lines()
            .any(|line| line.starts_with("fun main(") || line.starts_with("suspend fun main("))
            .then(|| "Entry point (`fun main`) of the program.".to_string())
    }
}

impl CallSyntax for KotlinWalks {
    fn call_kinds(&self) -> &'static CallKinds {
        &super::calls::CALL_KINDS
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
        super::calls::kotlin_target(call, src, container)
    }
}

impl TypedSyntax for KotlinWalks {
    /// `call_expression`: `object.name(…)`, the navigation's first child.
    fn call_receiver<'t>(&self, call: Node<'t>) -> Option<Node<'t>> {
        let callee = call.named_child(0)?;
        (callee.kind() == "navigation_expression")
            .then(|| callee.named_child(0))
            .flatten()
    }

    /// A function's parameters with their written types (`sink: BufferedSink`).
    fn declared(&self, node: Node<'_>, src: &str, _: &Returns, out: &mut Vec<(String, String)>) {
        if !matches!(
            node.kind(),
            "function_declaration" | "secondary_constructor"
        ) {
            return;
        }
        let parameters = code_children(node)
            .into_iter()
            .filter(|c| c.kind() == "function_value_parameters")
            .flat_map(code_children)
            .filter(|c| c.kind() == "parameter");
        for parameter in parameters {
            let children = code_children(parameter);
            let name = children.iter().find(|c| c.kind() == "identifier").copied();
            let ty = children.iter().find(|c| c.kind() == "user_type").copied();
            push(out, name, ty, src);
        }
    }
}

impl RaiseSyntax for KotlinWalks {
    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        match node.kind() {
            "throw_expression" => Some(kotlin_thrown(first_named(node)?, src)),
            _ => None,
        }
    }

    /// A `try` guards its first block; a `catch` catches the type it names.
    fn handlers(&self, around: Node<'_>, inside: Node<'_>, src: &str) -> Option<Vec<Handler>> {
        if around.kind() != "try_expression" {
            return None;
        }
        let guarded = code_children(around)
            .into_iter()
            .find(|child| child.kind() == "block")?;
        if guarded.id() != inside.id() {
            return None;
        }
        Some(clauses(around, "catch_block", |clause| {
            let children = code_children(clause);
            let types = children
                .iter()
                .filter(|child| !matches!(child.kind(), "identifier" | "annotation" | "block"))
                .flat_map(|ty| type_names(*ty, src))
                .collect();
            let block = children
                .iter()
                .copied()
                .find(|child| child.kind() == "block");
            let bound = children
                .iter()
                .copied()
                .find(|child| child.kind() == "identifier");
            let clause = Clause {
                clause,
                block,
                bound,
            };
            Handler::read(self, clause, types, false, src)
        }))
    }
}

impl FlowSyntax for KotlinWalks {
    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.kotlin(node)
    }

    /// A function's block, or the expression of `= expression` (its `function_body`); a
    /// secondary constructor's block.
    fn function_body<'t>(&self, definition: Node<'t>) -> Option<Node<'t>> {
        let body = code_children(definition)
            .into_iter()
            .find(|c| matches!(c.kind(), "function_body" | "block"))?;
        match body.kind() {
            "function_body" => code_children(body).into_iter().next(),
            _ => Some(body),
        }
    }
}

impl DefinitionSyntax for KotlinWalks {
    fn definition<'t>(
        &self,
        walker: &Walker<'_>,
        node: Node<'t>,
        ctx: Ctx,
    ) -> Option<Definition<'t>> {
        walker.kotlin(node, ctx)
    }

    fn opens_scope(&self, kind: &str) -> bool {
        matches!(kind, "lambda_literal" | "block" | "function_body")
    }
}

impl CommentSyntax for KotlinWalks {
    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::c_like(text, COMMENTS, out);
    }
}

impl ResolveSyntax for KotlinWalks {
    fn resolve(
        &self,
        file: &str,
        interface: &Interface,
        context: &Context<'_>,
        out: &mut Collected,
    ) {
        super::resolve::resolve(file, interface, context, out);
    }

    fn external_package(&self, _: &str, spec: &str, _: &Context<'_>) -> Option<String> {
        super::resolve::external_package(spec)
    }
}

/// Kotlin: `/* … */` comments nest; `'x'` is a character literal, read as a string.
const COMMENTS: CLike = CLike {
    nested_blocks: true,
    raw_strings: false,
    char_literals: false,
    backtick_strings: false,
};

/// The entry of a thrown expression: `IllegalArgumentException ("A … must be positive: …")` for
/// a call building the error with a string first (templates `$x`, `${x}` as `…`), the callee
/// alone with any other argument, the expression itself otherwise (`throw e`).
fn kotlin_thrown(expression: Node<'_>, src: &str) -> String {
    if expression.kind() != "call_expression" {
        return short(text_of(expression, src));
    }
    let Some(callee) = expression
        .named_child(0)
        .filter(|c| matches!(c.kind(), "identifier" | "navigation_expression"))
    else {
        return short(text_of(expression, src));
    };
    let message = code_children(expression)
        .into_iter()
        .find(|c| c.kind() == "value_arguments")
        .and_then(|arguments| code_children(arguments).into_iter().next())
        .and_then(|argument| code_children(argument).into_iter().last())
        .filter(|value| value.kind() == "string_literal")
        .and_then(|literal| template_text(text_of(literal, src)));
    with_message(short(text_of(callee, src)), message)
}

/// A string template's text without its quotes, each `$name` and `${…}` as `…`, cut as a raise
/// message is (`raises::cut_message`); `None` without a letter.
fn template_text(literal: &str) -> Option<String> {
    let body = literal.trim_matches('"');
    let mut text = String::with_capacity(body.len());
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match (c, chars.peek()) {
            ('$', Some('{')) => {
                for inner in chars.by_ref() {
                    if inner == '}' {
                        break;
                    }
                }
                text.push('…');
            }
            ('$', Some(next)) if next.is_alphabetic() || *next == '_' => {
                while chars
                    .peek()
                    .is_some_and(|n| n.is_alphanumeric() || *n == '_')
                {
                    chars.next();
                }
                text.push('…');
            }
            ('\\', Some(_)) => {
                chars.next();
            }
            _ => text.push(c),
        }
    }
    cut_message(&text)
}
