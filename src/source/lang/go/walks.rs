//! Go in the shared walks ([`Walks`]): its extraction, comment scanner, what raises an
//! error, calls and members, typed receivers, definitions, flow shapes, program roles, its import
//! resolver and the external packages of its imports.

use tree_sitter::Node;

use crate::relpath::RelPath;
use crate::source::calls::typed::{declarator, Returns, TypedSyntax};
use crate::source::calls::{At, CallKinds, CallSyntax, Found, Target};
use crate::source::comments::CLike;
use crate::source::comments::CommentSyntax;
use crate::source::definitions::{Ctx, DefinitionSyntax, Found as Definition, Walker};
use crate::source::flow::{FlowSyntax, Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::walks::Walks;
use crate::source::raises::RaiseSyntax;
use crate::source::raises::{first_string, with_message};
use crate::source::resolve::{Collected, Context, ResolveSyntax};
use crate::source::syntax::text_of;
use crate::source::syntax::Extracted;

/// Go's walks, the registry's `go::GO`.
pub const GO: GoWalks = GoWalks;

/// Go's arms of the shared walks.
pub struct GoWalks;

impl Walks for GoWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    fn program_role(&self, source: &str, text: &str, _: &str) -> Option<String> {
        let dir_name = RelPath::new(RelPath::new(source).dir()).file_name();
        is_go_command(text).then(|| match dir_name {
            "" => "Entry point (`func main`) of the command.".to_string(),
            dir => format!("Entry point (`func main`) of the `{dir}` command."),
        })
    }
}

impl CallSyntax for GoWalks {
    fn call_kinds(&self) -> &'static CallKinds {
        &super::calls::CALL_KINDS
    }

    fn member<'s>(&self, node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
        super::calls::member(node, src, at)
    }

    /// A struct's embedded types and an interface's embedded interfaces (`%Context Engine`).
    fn class_bases(&self, node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
        let name = text_of(node.child_by_field_name("name")?, src).to_string();
        Some((name, super::extract::embedded_types(node, src)))
    }

    fn call_target(
        &self,
        call: Node<'_>,
        src: &str,
        container: Option<(usize, usize)>,
    ) -> Option<Target> {
        crate::source::calls::target(
            &super::calls::CALL_KINDS,
            call,
            src,
            container,
            self.own_receiver(call, src),
        )
    }

    fn own_receiver<'s>(&self, call: Node<'_>, src: &'s str) -> Option<&'s str> {
        super::extract::receiver_name_around(call, src)
    }

    fn imported_packages(&self, root: Node<'_>, src: &str) -> Vec<String> {
        super::extract::imported_package_names(root, src)
    }

    fn package_qualifier<'s>(&self, call: Node<'_>, src: &'s str) -> Option<&'s str> {
        super::extract::call_qualifier(call, src)
    }
}

impl TypedSyntax for GoWalks {
    fn call_receiver<'t>(&self, call: Node<'t>) -> Option<Node<'t>> {
        call.child_by_field_name("function")?
            .child_by_field_name("operand")
    }

    fn declared(
        &self,
        node: Node<'_>,
        src: &str,
        returns: &Returns,
        out: &mut Vec<(String, String)>,
    ) {
        if node.kind() == "variable_declarator" {
            declarator(node, src, returns, out);
        }
    }
}

impl RaiseSyntax for GoWalks {
    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        match node.kind() {
            "call_expression" => go_error(node, src),
            _ => None,
        }
    }
}

impl FlowSyntax for GoWalks {
    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.go(node)
    }
}

impl DefinitionSyntax for GoWalks {
    fn definition<'t>(
        &self,
        walker: &Walker<'_>,
        node: Node<'t>,
        ctx: Ctx,
    ) -> Option<Definition<'t>> {
        walker.go(node, ctx)
    }

    fn opens_scope(&self, kind: &str) -> bool {
        matches!(kind, "func_literal" | "block")
    }
}

impl CommentSyntax for GoWalks {
    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::c_like(text, COMMENTS, out);
    }
}

impl ResolveSyntax for GoWalks {
    fn resolve(
        &self,
        file: &str,
        interface: &Interface,
        context: &Context<'_>,
        out: &mut Collected,
    ) {
        super::resolve::resolve(file, interface, context, out);
    }

    fn external_package(&self, file: &str, spec: &str, context: &Context<'_>) -> Option<String> {
        context
            .model
            .go
            .required_module(file, spec)
            .map(str::to_string)
    }
}

/// Go: `` `…` `` raw strings, `'x'` runes read as short strings.
const COMMENTS: CLike = CLike {
    nested_blocks: false,
    raw_strings: false,
    char_literals: false,
    backtick_strings: true,
};

/// Go functions that panic or build an error: `panic(…)`, `log.Fatal…(…)`, `errors.New(…)`,
/// `fmt.Errorf(…)`.
const GO_RAISERS: &[&str] = &[
    "panic",
    "errors.New",
    "fmt.Errorf",
    "log.Fatal",
    "log.Fatalf",
    "log.Panic",
    "log.Panicf",
];

/// The entry of a Go `panic(…)` or error-building call: `errors.New ("message")`.
fn go_error(call: Node<'_>, src: &str) -> Option<String> {
    let function = call.child_by_field_name("function")?;
    let name = text_of(function, src);
    GO_RAISERS.contains(&name).then_some(())?;
    Some(with_message(name.to_string(), first_string(call, src)))
}

/// Whether a Go file is a command's entry: `package main` with a `func main()`.
fn is_go_command(text: &str) -> bool {
    text.lines().any(|line| line.trim_end() == "package main")
        && text.lines().any(|line| line.starts_with("func main()"))
}
