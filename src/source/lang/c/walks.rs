//! C and C++ in the shared walks ([`Walks`]): one implementation for the three entries (C and
//! C++ translation units, headers), which differ in the interface rule of their extraction only
//! ([`Unit`]): its comment scanner, what throws, calls and members, typed parameters, definitions,
//! flow shapes, program roles and the include resolver.

use tree_sitter::Node;

use crate::source::calls::typed::{push, Returns, TypedSyntax};
use crate::source::calls::{At, CallKinds, CallSyntax, Found, Target};
use crate::source::catches::{clauses, guards_body, type_names, Clause, Handler};
use crate::source::comments::{CLike, CommentSyntax};
use crate::source::definitions::{Ctx, DefinitionSyntax, Found as Definition, Walker};
use crate::source::flow::{FlowSyntax, Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::walks::Walks;
use crate::source::raises::{first_named, first_string, short, with_message, RaiseSyntax};
use crate::source::resolve::{Collected, Context, ResolveSyntax};
use crate::source::syntax::{code_children, text_of, Extracted};

use super::extract::{declared, Unit};

/// C translation units' walks, the registry's `c::C`.
pub const C: CWalks = CWalks { unit: Unit::Source };
/// C++ translation units' walks, the registry's `c::CPP`.
pub const CPP: CWalks = CWalks { unit: Unit::Source };
/// Headers' walks, the registry's `c::HEADER`.
pub const HEADER: CWalks = CWalks { unit: Unit::Header };

/// C's and C++'s arms of the shared walks.
pub struct CWalks {
    unit: Unit,
}

impl Walks for CWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text, self.unit)
    }

    /// A translation unit defining `main` is a program's entry point.
    fn program_role(&self, _: &str, text: &str, _: &str) -> Option<String> {
        let defines_main = text.lines().any(|line| {
            let line = line.trim_start();
            (line.starts_with("int main(") || line.starts_with("int main (") || line == "main(")
                && !line.ends_with(';')
        });
        (self.unit == Unit::Source && defines_main)
            .then(|| "Entry point (`main`) of a program.".to_string())
    }
}

impl CallSyntax for CWalks {
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
        super::calls::target(call, src, container)
    }
}

impl TypedSyntax for CWalks {
    /// `p` of `p->f(…)` and `x` of `x.f(…)`.
    fn call_receiver<'t>(&self, call: Node<'t>) -> Option<Node<'t>> {
        let function = call.child_by_field_name("function")?;
        (function.kind() == "field_expression")
            .then(|| function.child_by_field_name("argument"))
            .flatten()
    }

    /// A function's parameters and its local variables with their written types
    /// (`redisContext *c`).
    fn declared(&self, node: Node<'_>, src: &str, _: &Returns, out: &mut Vec<(String, String)>) {
        if !matches!(node.kind(), "parameter_declaration" | "declaration") {
            return;
        }
        let ty = node
            .child_by_field_name("type")
            .filter(|t| matches!(t.kind(), "type_identifier" | "qualified_identifier"));
        let mut cursor = node.walk();
        let declarators: Vec<Node<'_>> = node
            .children_by_field_name("declarator", &mut cursor)
            .collect();
        for declarator in declarators {
            let name = declared(declarator)
                .filter(|(n, function)| !function && n.kind() == "identifier")
                .map(|(n, _)| n);
            push(out, name, ty, src);
        }
    }
}

impl RaiseSyntax for CWalks {
    /// C++'s `throw format_error("invalid format string")`.
    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        if node.kind() != "throw_statement" {
            return None;
        }
        let thrown = first_named(node)?;
        if thrown.kind() != "call_expression" {
            return Some(short(text_of(thrown, src)));
        }
        let callee = thrown.child_by_field_name("function")?;
        Some(with_message(
            short(text_of(callee, src)),
            first_string(thrown, src),
        ))
    }

    /// C++'s `try` guards its body; a `catch (const T& e)` catches `T`, `catch (...)` everything.
    fn handlers(&self, around: Node<'_>, inside: Node<'_>, src: &str) -> Option<Vec<Handler>> {
        if around.kind() != "try_statement" || !guards_body(around, inside) {
            return None;
        }
        Some(clauses(around, "catch_clause", |clause| {
            let parameters = clause.child_by_field_name("parameters");
            let declaration = parameters
                .map(code_children)
                .unwrap_or_default()
                .into_iter()
                .next();
            let types = declaration
                .and_then(|parameter| parameter.child_by_field_name("type"))
                .map(|ty| type_names(ty, src))
                .unwrap_or_default();
            // `catch (...)`: no declaration, everything.
            let all = declaration.is_none()
                && parameters.is_some_and(|p| text_of(p, src).contains("..."));
            let clause = Clause {
                clause,
                block: clause.child_by_field_name("body"),
                bound: declaration.and_then(|p| p.child_by_field_name("declarator")),
            };
            Handler::read(self, clause, types, all, src)
        }))
    }
}

impl FlowSyntax for CWalks {
    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.c(node)
    }
}

impl DefinitionSyntax for CWalks {
    fn definition<'t>(
        &self,
        walker: &Walker<'_>,
        node: Node<'t>,
        ctx: Ctx,
    ) -> Option<Definition<'t>> {
        walker.c(node, ctx)
    }

    fn opens_scope(&self, kind: &str) -> bool {
        matches!(kind, "compound_statement" | "lambda_expression")
    }
}

impl CommentSyntax for CWalks {
    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::c_like(text, COMMENTS, out);
    }
}

impl ResolveSyntax for CWalks {
    fn resolve(
        &self,
        file: &str,
        interface: &Interface,
        context: &Context<'_>,
        out: &mut Collected,
    ) {
        super::resolve::resolve(file, interface, context, out);
    }

    /// A system header (`<stdio.h>`) is the platform's, not a package.
    fn external_package(&self, _: &str, _: &str, _: &Context<'_>) -> Option<String> {
        None
    }
}

/// C and C++: `'x'` is a character literal; `/* … */` does not nest.
const COMMENTS: CLike = CLike {
    nested_blocks: false,
    raw_strings: false,
    char_literals: false,
    backtick_strings: false,
};
