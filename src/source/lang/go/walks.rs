//! Go in the shared walks ([`Walks`]): its extraction, comment scanner, what raises an
//! error, its flow shapes, its import resolver and the external packages of its imports.

use tree_sitter::Node;

use crate::source::comments::CLike;
use crate::source::flow::{Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::walks::Walks;
use crate::source::raises::{first_string, with_message};
use crate::source::resolve::{Collected, Context};
use crate::source::syntax::text_of;
use crate::source::syntax::Extracted;

/// Go's arms of the shared walks.
pub struct GoWalks;

impl Walks for GoWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::c_like(text, COMMENTS, out);
    }

    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        match node.kind() {
            "call_expression" => go_error(node, src),
            _ => None,
        }
    }

    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.go(node)
    }

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
