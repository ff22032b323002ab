//! Rust in the shared walks ([`Walks`]): its extraction, comment scanner, what raises an
//! error, its flow shapes, its import resolver and the external packages of its imports.

use tree_sitter::Node;

use crate::source::comments::CLike;
use crate::source::flow::{Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::walks::Walks;
use crate::source::raises::{first_named, first_string, short, with_message};
use crate::source::resolve::{Collected, Context};
use crate::source::syntax::text_of;
use crate::source::syntax::Extracted;

/// Rust's arms of the shared walks.
pub struct RustWalks;

impl Walks for RustWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::c_like(text, COMMENTS, out);
    }

    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        match node.kind() {
            "call_expression" => rust_err(node, src),
            "macro_invocation" => {
                let name = text_of(node.child_by_field_name("macro")?, src);
                let bare = name.rsplit("::").next().unwrap_or(name);
                RUST_MACROS.contains(&bare).then_some(())?;
                Some(with_message(format!("{bare}!"), first_string(node, src)))
            }
            _ => None,
        }
    }

    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.rust(node)
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
        rust_crate(file, spec, context)
    }
}

const COMMENTS: CLike = CLike {
    nested_blocks: true,
    raw_strings: true,
    char_literals: true,
    backtick_strings: false,
};

/// Rust macros that panic or return an error.
const RUST_MACROS: &[&str] = &["panic", "unreachable", "todo", "unimplemented", "bail"];

/// The entry of a Rust `Err(…)` call: `Err(Error::new(…)) ("message")`.
fn rust_err(call: Node<'_>, src: &str) -> Option<String> {
    let function = call.child_by_field_name("function")?;
    let name = text_of(function, src);
    (name == "Err" || name.ends_with("::Err")).then_some(())?;
    let argument = call
        .child_by_field_name("arguments")
        .and_then(|args| first_named(args));
    let Some(argument) = argument else {
        return Some("Err".to_string());
    };
    let head = match argument.kind() {
        "call_expression" => {
            let function = argument.child_by_field_name("function")?;
            format!("{}(…)", short(text_of(function, src)))
        }
        "macro_invocation" => {
            let name = argument.child_by_field_name("macro")?;
            format!("{}!(…)", short(text_of(name, src)))
        }
        "struct_expression" => {
            let name = argument.child_by_field_name("name")?;
            format!("{} {{ … }}", short(text_of(name, src)))
        }
        _ => short(text_of(argument, src)),
    };
    Some(with_message(
        format!("Err({head})"),
        first_string(argument, src),
    ))
}

/// `serde::de::Deserialize`, `extern:serde` → the manifest key of the crate, when external.
fn rust_crate(file: &str, spec: &str, context: &Context<'_>) -> Option<String> {
    let path = spec.strip_prefix("extern:").unwrap_or(spec);
    let path = path.strip_prefix("::").unwrap_or(path);
    if spec.starts_with("mod:") {
        return None;
    }
    let first = path.split("::").next()?.trim_start_matches("r#");
    let first = first.split([' ', '{']).next()?;
    let cargo = &context.model.cargo;
    cargo.external_crate(file, first).map(str::to_string)
}
