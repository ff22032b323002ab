//! Java in the shared walks ([`Walks`]): its extraction, comment scanner, what raises an
//! error, calls and members, typed receivers, definitions, flow shapes, program roles, its import
//! resolver and the external packages of its imports.

use tree_sitter::Node;

use crate::source::calls::typed::{declarator, push, Returns, TypedSyntax};
use crate::source::calls::{At, CallKinds, CallSyntax, Found, Target};
use crate::source::catches::{clauses, guards_body, type_names, Clause, Handler};
use crate::source::comments::CLike;
use crate::source::comments::CommentSyntax;
use crate::source::definitions::{Ctx, DefinitionSyntax, Found as Definition, Walker};
use crate::source::flow::{FlowSyntax, Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::walks::Walks;
use crate::source::raises::RaiseSyntax;
use crate::source::raises::{first_named, thrown};
use crate::source::resolve::{Collected, Context, ResolveSyntax};
use crate::source::syntax::{code_children, Extracted};

/// Java's walks, the registry's `java::JAVA`.
pub const JAVA: JavaWalks = JavaWalks;

/// Java's arms of the shared walks.
pub struct JavaWalks;

impl Walks for JavaWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    fn program_role(&self, _: &str, _: &str, _: &str) -> Option<String> {
        None
    }
}

impl CallSyntax for JavaWalks {
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
        super::calls::java_target(call, src, container)
    }
}

impl TypedSyntax for JavaWalks {
    fn call_receiver<'t>(&self, call: Node<'t>) -> Option<Node<'t>> {
        // `method_invocation`: `object.name(…)`.
        call.child_by_field_name("object")
    }

    fn declared(
        &self,
        node: Node<'_>,
        src: &str,
        returns: &Returns,
        out: &mut Vec<(String, String)>,
    ) {
        match node.kind() {
            "variable_declarator" => declarator(node, src, returns, out),
            // `Type a = …, b;`.
            "local_variable_declaration" => {
                let mut cursor = node.walk();
                for declarator in node.children_by_field_name("declarator", &mut cursor) {
                    push(
                        out,
                        declarator.child_by_field_name("name"),
                        node.child_by_field_name("type"),
                        src,
                    );
                }
            }
            _ => {}
        }
    }
}

impl RaiseSyntax for JavaWalks {
    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        match node.kind() {
            "throw_statement" => Some(thrown(first_named(node)?, src)),
            _ => None,
        }
    }

    /// A `try` (with resources or not) guards its body; a `catch` catches the types it names.
    fn handlers(&self, around: Node<'_>, inside: Node<'_>, src: &str) -> Option<Vec<Handler>> {
        let is_try = matches!(
            around.kind(),
            "try_statement" | "try_with_resources_statement"
        );
        if !is_try || !guards_body(around, inside) {
            return None;
        }
        Some(clauses(around, "catch_clause", |clause| {
            let parameter = code_children(clause)
                .into_iter()
                .find(|child| child.kind() == "catch_formal_parameter");
            let types = parameter
                .map(code_children)
                .unwrap_or_default()
                .into_iter()
                .filter(|child| child.kind() == "catch_type")
                .flat_map(|types| type_names(types, src))
                .collect();
            let clause = Clause {
                clause,
                block: clause.child_by_field_name("body"),
                bound: parameter.and_then(|p| p.child_by_field_name("name")),
            };
            Handler::read(self, clause, types, false, src)
        }))
    }
}

impl FlowSyntax for JavaWalks {
    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.java(node)
    }
}

impl DefinitionSyntax for JavaWalks {
    fn definition<'t>(
        &self,
        walker: &Walker<'_>,
        node: Node<'t>,
        ctx: Ctx,
    ) -> Option<Definition<'t>> {
        walker.java(node, ctx)
    }

    fn opens_scope(&self, kind: &str) -> bool {
        matches!(kind, "lambda_expression" | "block" | "constructor_body")
    }
}

impl CommentSyntax for JavaWalks {
    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::c_like(text, COMMENTS, out);
    }
}

impl ResolveSyntax for JavaWalks {
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

/// Java: `'x'` is a character literal, read as a string; no raw or template strings.
const COMMENTS: CLike = CLike {
    nested_blocks: false,
    raw_strings: false,
    char_literals: false,
    backtick_strings: false,
};
