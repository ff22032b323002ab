//! C# in the shared walks ([`Walks`]): its extraction, comment scanner, what throws, calls and
//! members, typed parameters and locals, definitions, flow shapes, program roles, its name
//! resolver and the external packages of its usings.

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
use crate::source::raises::{first_named, thrown};
use crate::source::resolve::{Collected, Context, ResolveSyntax};
use crate::source::syntax::{code_children, Extracted};

/// C#'s walks, the registry's `csharp::CSHARP`.
pub const CSHARP: CSharpWalks = CSharpWalks;

/// C#'s arms of the shared walks.
pub struct CSharpWalks;

impl Walks for CSharpWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    /// A file with a `static … Main(` method, or a `Program.cs` of top-level statements, is a
    /// program's entry point.
    /// A `partial` type's parts are one type.
    fn type_spans_files(&self, signature: &str) -> bool {
        signature.split_whitespace().any(|word| word == "partial")
    }

    fn program_role(&self, source: &str, text: &str, _: &str) -> Option<String> {
        let main = text.lines().any(|line| {
            let line = line.trim_start();
            !line.starts_with("//")
                && line.contains("static ")
                && (line.contains(" Main(") || line.contains(" Main ("))
        });
        if main {
            return Some("Entry point (`Main`) of the program.".to_string());
        }
        let top_level = crate::relpath::RelPath::new(source).file_name() == "Program.cs"
            && !text.lines().any(|line| {
                let line = line.trim_start();
                line.starts_with("namespace ") || line.contains("class Program")
            });
        top_level.then(|| "Entry point of the program (top-level statements).".to_string())
    }
}

impl CallSyntax for CSharpWalks {
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
        super::calls::csharp_target(call, src, container)
    }
}

impl TypedSyntax for CSharpWalks {
    /// `invocation_expression`: `receiver.Name(…)`, the member access's expression.
    fn call_receiver<'t>(&self, call: Node<'t>) -> Option<Node<'t>> {
        let function = call.child_by_field_name("function")?;
        (function.kind() == "member_access_expression")
            .then(|| function.child_by_field_name("expression"))
            .flatten()
    }

    /// A method's parameters and its locals with their written types (`Sink sink`, `Sink s =
    /// …`; not `var`).
    fn declared(&self, node: Node<'_>, src: &str, _: &Returns, out: &mut Vec<(String, String)>) {
        match node.kind() {
            "parameter" => push(
                out,
                node.child_by_field_name("name"),
                node.child_by_field_name("type"),
                src,
            ),
            "variable_declaration" => {
                let ty = node
                    .child_by_field_name("type")
                    .filter(|t| t.kind() != "implicit_type");
                for declarator in code_children(node)
                    .into_iter()
                    .filter(|c| c.kind() == "variable_declarator")
                {
                    push(
                        out,
                        declarator
                            .child_by_field_name("name")
                            .or_else(|| declarator.named_child(0)),
                        ty,
                        src,
                    );
                }
            }
            _ => {}
        }
    }
}

impl RaiseSyntax for CSharpWalks {
    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        match node.kind() {
            "throw_statement" | "throw_expression" => Some(thrown(first_named(node)?, src)),
            _ => None,
        }
    }

    /// A `try` guards its body; a `catch (T e)` catches `T`, a bare `catch` everything; one with
    /// a `when` filter may let it through, so it names its filter, which catches nothing told.
    fn handlers(&self, around: Node<'_>, inside: Node<'_>, src: &str) -> Option<Vec<Handler>> {
        if around.kind() != "try_statement" || !guards_body(around, inside) {
            return None;
        }
        Some(clauses(around, "catch_clause", |clause| {
            let children = code_children(clause);
            let declaration = children
                .iter()
                .copied()
                .find(|child| child.kind() == "catch_declaration");
            let declared = declaration.and_then(|d| d.child_by_field_name("type"));
            let filtered = children
                .iter()
                .any(|child| child.kind() == "catch_filter_clause");
            let types = match (declared, filtered) {
                (_, true) => vec!["when …".to_string()],
                (Some(ty), false) => type_names(ty, src),
                (None, false) => Vec::new(),
            };
            let all = declared.is_none() && !filtered;
            let clause = Clause {
                clause,
                block: clause.child_by_field_name("body"),
                bound: declaration.and_then(|d| d.child_by_field_name("name")),
            };
            Handler::read(self, clause, types, all, src)
        }))
    }
}

impl FlowSyntax for CSharpWalks {
    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.csharp(node)
    }
}

impl DefinitionSyntax for CSharpWalks {
    fn definition<'t>(
        &self,
        walker: &Walker<'_>,
        node: Node<'t>,
        ctx: Ctx,
    ) -> Option<Definition<'t>> {
        walker.csharp(node, ctx)
    }

    fn opens_scope(&self, kind: &str) -> bool {
        matches!(
            kind,
            "lambda_expression" | "block" | "anonymous_method_expression"
        )
    }
}

impl CommentSyntax for CSharpWalks {
    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::c_like(text, COMMENTS, out);
    }
}

impl ResolveSyntax for CSharpWalks {
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

/// C#: `'x'` is a character literal, read as a string; verbatim (`@"…"`) and raw strings are
/// read as plain strings.
const COMMENTS: CLike = CLike {
    nested_blocks: false,
    raw_strings: false,
    char_literals: false,
    backtick_strings: false,
};
