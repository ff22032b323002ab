//! Ruby in the shared walks ([`Walks`]): its extraction, comment scanner, what raises, calls and
//! members, definitions, flow shapes, program roles, its import resolver and the external gems of
//! its requires.

use std::collections::HashSet;

use tree_sitter::Node;

use crate::source::calls::typed::{Returns, TypedSyntax};
use crate::source::calls::{At, CallKinds, CallSyntax, Found, Target};
use crate::source::catches::{clauses, type_names, Clause, Handler};
use crate::source::comments::CommentSyntax;
use crate::source::definitions::{Ctx, DefinitionSyntax, Found as Definition, Walker};
use crate::source::flow::{FlowSyntax, Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::walks::Walks;
use crate::source::raises::{cut_message, short, with_message, RaiseSyntax, RE_RAISES};
use crate::source::resolve::{Collected, Context, ResolveSyntax};
use crate::source::syntax::{code_children, text_of, Extracted};

/// Ruby's walks, the registry's `ruby::RUBY`.
pub const RUBY: RubyWalks = RubyWalks;

/// Ruby's arms of the shared walks.
pub struct RubyWalks;

impl Walks for RubyWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    /// RSpec's and minitest/spec's `describe`/`it`, and minitest's test classes.
    fn has_suite_calls(&self) -> bool {
        true
    }

    /// A Rack application's `config.ru`; a script run as a program (`#!` line, or `if __FILE__ ==
    /// $0`).
    /// A class or module may be reopened in any file.
    fn type_spans_files(&self, _signature: &str) -> bool {
        true
    }

    fn program_role(&self, source: &str, text: &str, _: &str) -> Option<String> {
        if source.ends_with(".ru") {
            return Some("Rack application configuration (`rackup`).".to_string());
        }
        let script = text.starts_with("#!")
            || text.contains("if __FILE__ == $0")
            || text.contains("if $0 == __FILE__")
            || text.contains("if __FILE__ == $PROGRAM_NAME");
        script.then(|| "A Ruby script, run as a program.".to_string())
    }
}

impl CallSyntax for RubyWalks {
    fn call_kinds(&self) -> &'static CallKinds {
        &super::calls::CALL_KINDS
    }

    fn member<'s>(&self, node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
        super::calls::member(node, src, at)
    }

    fn class_bases(&self, node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
        match node.kind() {
            "class" => super::calls::class_bases(node, src),
            _ => None,
        }
    }

    fn call_target(
        &self,
        call: Node<'_>,
        src: &str,
        container: Option<(usize, usize)>,
    ) -> Option<Target> {
        super::calls::ruby_target(call, src, container)
    }

    /// A bare word (`route_missing`) may be a method call: [`super::locals`] tells.
    fn other_calls(&self) -> &'static [&'static str] {
        &["identifier"]
    }

    fn bare_word_calls(&self, root: Node<'_>, src: &str) -> Option<HashSet<usize>> {
        Some(super::locals::method_call_words(root, src))
    }

    fn is_bare_word(&self, node: Node<'_>) -> bool {
        node.kind() == "identifier"
    }
}

impl TypedSyntax for RubyWalks {
    fn call_receiver<'t>(&self, call: Node<'t>) -> Option<Node<'t>> {
        call.child_by_field_name("receiver")
    }

    /// Ruby declares no types.
    fn declared(&self, _: Node<'_>, _: &str, _: &Returns, _: &mut Vec<(String, String)>) {}
}

impl RaiseSyntax for RubyWalks {
    /// `raise Error, "message"`, `raise Error.new("message")`, `raise "message"` (a
    /// `RuntimeError`), `fail …`, a bare `raise` (re-raises).
    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        // A bare `raise` is a word of its own, not a call.
        if node.kind() == "identifier" {
            let statement = node.parent().is_some_and(|p| p.kind() != "call");
            return (statement && text_of(node, src) == "raise").then(|| RE_RAISES.to_string());
        }
        if node.kind() != "call" || node.child_by_field_name("receiver").is_some() {
            return None;
        }
        let method = text_of(node.child_by_field_name("method")?, src);
        if !matches!(method, "raise" | "fail") {
            return None;
        }
        let args = node
            .child_by_field_name("arguments")
            .map(code_children)
            .unwrap_or_default();
        let Some(first) = args.first() else {
            return Some(RE_RAISES.to_string());
        };
        Some(match first.kind() {
            "string" => with_message("RuntimeError".to_string(), message(*first, src)),
            "call" if text_of(*first, src).contains(".new") => {
                let class = first
                    .child_by_field_name("receiver")
                    .map_or_else(String::new, |r| short(text_of(r, src)));
                let text = first
                    .child_by_field_name("arguments")
                    .and_then(|a| code_children(a).into_iter().next())
                    .and_then(|m| message(m, src));
                with_message(class, text)
            }
            _ => with_message(
                short(text_of(*first, src)),
                args.get(1).and_then(|m| message(*m, src)),
            ),
        })
    }

    /// A `begin` (or a method's or block's body) guards its statements before its `rescue`s; a
    /// `rescue` catches the classes it names, a bare one `StandardError`; `x rescue y` guards `x`.
    fn handlers(&self, around: Node<'_>, inside: Node<'_>, src: &str) -> Option<Vec<Handler>> {
        let bare = || vec!["StandardError".to_string()];
        match around.kind() {
            "rescue_modifier" => {
                let body = around.child_by_field_name("body")?;
                (body.id() == inside.id()).then(|| {
                    vec![Handler {
                        types: bare(),
                        all: false,
                        rethrows: false,
                        shown: "rescue".to_string(),
                        level: 0,
                    }]
                })
            }
            "begin" | "body_statement" => {
                if matches!(inside.kind(), "rescue" | "else" | "ensure") {
                    return None;
                }
                let handlers = clauses(around, "rescue", |clause| {
                    let types = clause
                        .child_by_field_name("exceptions")
                        .map(|list| type_names(list, src))
                        .filter(|types| !types.is_empty())
                        .unwrap_or_else(bare);
                    let clause = Clause {
                        clause,
                        block: clause.child_by_field_name("body"),
                        bound: clause.child_by_field_name("variable"),
                    };
                    Handler::read(self, clause, types, false, src)
                });
                (!handlers.is_empty()).then_some(handlers)
            }
            _ => None,
        }
    }
}

/// A string literal's text as a raise message (interpolations as `…`).
fn message(node: Node<'_>, src: &str) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let mut text = String::new();
    for part in code_children(node) {
        match part.kind() {
            "string_content" => text.push_str(text_of(part, src)),
            "interpolation" => text.push('…'),
            _ => {}
        }
    }
    cut_message(&text)
}

impl FlowSyntax for RubyWalks {
    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.ruby(node)
    }
}

impl DefinitionSyntax for RubyWalks {
    fn definition<'t>(
        &self,
        walker: &Walker<'_>,
        node: Node<'t>,
        ctx: Ctx,
    ) -> Option<Definition<'t>> {
        walker.ruby(node, ctx)
    }

    fn opens_scope(&self, kind: &str) -> bool {
        matches!(kind, "block" | "do_block" | "lambda")
    }
}

impl CommentSyntax for RubyWalks {
    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::python(text, out);
    }
}

impl ResolveSyntax for RubyWalks {
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
