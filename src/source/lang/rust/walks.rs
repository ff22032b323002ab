//! Rust in the shared walks ([`Walks`]): its extraction, comment scanner, what raises an
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
use crate::source::raises::{first_named, first_string, short, with_message};
use crate::source::resolve::{Collected, Context, ResolveSyntax};
use crate::source::syntax::text_of;
use crate::source::syntax::Extracted;
use crate::source::syntax::MacroBody;

/// Rust's walks, the registry's `rust::RUST`.
pub const RUST: RustWalks = RustWalks;

/// Rust's arms of the shared walks.
pub struct RustWalks;

impl Walks for RustWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    fn program_role(&self, source: &str, text: &str, _: &str) -> Option<String> {
        let name = RelPath::new(source).file_name();
        if is_fuzz_target(source, text) {
            return Some(format!(
                "Fuzz target `{}`: the function a fuzzer calls with generated input.",
                name.trim_end_matches(".rs")
            ));
        }
        if !text.contains("fn main(") {
            return None;
        }
        rust_binary_name(source)
            .map(|binary| match binary.as_str() {
                "" => "Entry point (`fn main`) of the binary.".to_string(),
                binary => format!("Entry point (`fn main`) of the `{binary}` binary."),
            })
            .or_else(|| {
                let program = crate::source::lang::files::test_program_name(source)?;
                Some(format!(
                    "Test program `{program}` (`fn main`), built by the test suite."
                ))
            })
    }
}

impl CallSyntax for RustWalks {
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
        crate::source::calls::target(&super::calls::CALL_KINDS, call, src, container, None)
    }

    fn macro_calls(&self, node: Node<'_>, src: &str, in_member: bool) -> Vec<MacroBody> {
        if node.kind() != "macro_invocation" {
            return Vec::new();
        }
        match in_member {
            // A local `macro_rules!` transcribed (the tests `syntax!(literal1, "a", …)`
            // generates, the `fn rt()` each module of `rt_test! { … }` gets), else a
            // pass-through macro's items.
            false => match super::macro_rules::local_macro_body(node, src) {
                Some(body) => vec![body],
                None => super::expand::macro_bodies(node, src),
            },
            true => super::expand::expression_body(node, src)
                .into_iter()
                .collect(),
        }
    }

    fn test_marker(&self, node: Node<'_>, src: &str) -> bool {
        node.kind() == "attribute_item" && super::cfg::is_test_attribute(text_of(node, src))
    }

    fn only_markers(&self, between: &str) -> bool {
        super::cfg::only_attributes(between)
    }
}

impl TypedSyntax for RustWalks {
    fn call_receiver<'t>(&self, call: Node<'t>) -> Option<Node<'t>> {
        call.child_by_field_name("function")?
            .child_by_field_name("value")
    }

    fn declared(
        &self,
        node: Node<'_>,
        src: &str,
        returns: &Returns,
        out: &mut Vec<(String, String)>,
    ) {
        if matches!(node.kind(), "let_declaration" | "variable_declarator") {
            declarator(node, src, returns, out);
        }
    }

    fn reads_return_types(&self) -> bool {
        true
    }
}

impl RaiseSyntax for RustWalks {
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
}

impl FlowSyntax for RustWalks {
    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.rust(node)
    }

    fn blocks_end_in_values(&self) -> bool {
        true
    }

    fn gate(&self, statement: Node<'_>, src: &str) -> Option<String> {
        super::flow::cfg_gate(statement, src)
    }
}

impl DefinitionSyntax for RustWalks {
    fn definition<'t>(
        &self,
        walker: &Walker<'_>,
        node: Node<'t>,
        ctx: Ctx,
    ) -> Option<Definition<'t>> {
        walker.rust(node, ctx)
    }

    fn descend(&self, walker: &mut Walker<'_>, node: Node<'_>, ctx: Ctx) -> Option<Ctx> {
        walker.rust_descend(node, ctx)
    }

    fn opens_scope(&self, kind: &str) -> bool {
        matches!(
            kind,
            "function_expression"
                | "function"
                | "arrow_function"
                | "generator_function"
                | "closure_expression"
                | "statement_block"
                | "block"
        )
    }

    fn macro_items(&self, call: Node<'_>, src: &str) -> Vec<MacroBody> {
        match call.kind() {
            "macro_invocation" => super::expand::macro_bodies(call, src),
            _ => Vec::new(),
        }
    }
}

impl CommentSyntax for RustWalks {
    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::c_like(text, COMMENTS, out);
    }
}

impl ResolveSyntax for RustWalks {
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

/// The binary a Rust file with `fn main` is the root of, by cargo's conventions: `src/bin/rg.rs`
/// and `src/bin/rg/main.rs` → `rg`, `src/main.rs` → its package directory's name (`""` at the
/// root), `crates/core/main.rs` → `core`; `None` for a file of another name.
fn rust_binary_name(source: &str) -> Option<String> {
    let parts: Vec<&str> = source.split('/').collect();
    let name = *parts.last()?;
    let parent = parts.len().checked_sub(2).map(|at| parts[at]);
    let grandparent = parts.len().checked_sub(3).map(|at| parts[at]);
    let stem = name.strip_suffix(".rs")?;
    match (parent, grandparent, stem) {
        (Some("bin"), _, stem) if stem != "main" => Some(stem.to_string()),
        (Some(dir), Some("bin"), "main") => Some(dir.to_string()),
        (Some("src"), Some(package), "main") => Some(package.to_string()),
        (Some(dir), _, "main") if dir != "src" => Some(dir.to_string()),
        (_, _, "main") => Some(String::new()),
        _ => None,
    }
}

/// A cargo-fuzz target: a file of a `fuzz_targets/` directory, or one that calls `fuzz_target!`.
fn is_fuzz_target(source: &str, text: &str) -> bool {
    source
        .split('/')
        .rev()
        .skip(1)
        .any(|dir| dir == "fuzz_targets")
        || text.contains("fuzz_target!(")
}
