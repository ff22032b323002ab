//! Java in the shared walks ([`Walks`]): its extraction, comment scanner, what raises an
//! error, its flow shapes, its import resolver and the external packages of its imports.

use tree_sitter::Node;

use crate::source::comments::CLike;
use crate::source::flow::{Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::walks::Walks;
use crate::source::raises::{first_named, thrown};
use crate::source::resolve::{Collected, Context};
use crate::source::syntax::Extracted;

/// Java's arms of the shared walks.
pub struct JavaWalks;

impl Walks for JavaWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::c_like(text, COMMENTS, out);
    }

    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        match node.kind() {
            "throw_statement" => Some(thrown(first_named(node)?, src)),
            _ => None,
        }
    }

    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.java(node)
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
