//! Rust extraction: `pub` items (recursing into inline `pub mod`s), `pub` inherent-impl members,
//! all items of `pub trait`s, trait impls, `#[macro_export]` macros and `pub use` re-exports;
//! `use`/`mod` imports; `//!` module docs; unsafe-block, TODO and nesting signals. Items, members,
//! docs and imports inside item-position macro calls (`cfg_net! { … }`, `cfg_if!` branches) count
//! as if the macro were expanded (`expand`).

use std::collections::HashSet;

use tree_sitter::Node;

use super::{cfg, expand, walk};
use crate::source::interface::SymbolKind;
use crate::source::syntax::MAX_MACRO_DEPTH;
use crate::source::syntax::{
    block_comment_lines, code_children, compact, finish_doc, has_child_kind, leading_doc,
    signature, text_of, walk, Builder, Extracted,
};
use cfg::is_cfg_test;
use expand::macro_bodies;
use walk::walk_file;

/// Inline modules nested deeper than this are not descended into.
const MAX_MODULE_DEPTH: usize = 32;

/// Extract the interface parts of a Rust syntax tree.
pub(crate) fn extract(root: Node<'_>, src: &str) -> Extracted {
    let mut out = Extracted::default();
    let mut items = Items {
        src,
        b: &mut out.builder,
        macros: 0,
    };
    items.container(root, None, 0, 0);
    walk_file(root, src, &mut out);
    let mut docs = Docs::default();
    docs.read(root, src, 0);
    out.doc = finish_doc(&docs.module);
    out.item_docs = docs.items;
    out
}

/// The file's docs: `//!`/`/*!` lines at the top level and `///` docs of its top-level items, in
/// source order, those inside item-position macro calls (`cfg_net! { //! … }`) included.
#[derive(Default)]
struct Docs {
    module: Vec<String>,
    items: Vec<(String, String)>,
}

impl Docs {
    fn read(&mut self, root: Node<'_>, src: &str, macros: usize) {
        let mut cursor = root.walk();
        for child in root.children(&mut cursor) {
            match child.kind() {
                "macro_invocation" if macros < MAX_MACRO_DEPTH => {
                    for body in macro_bodies(child, src) {
                        self.read(body.root(), &body.text, macros + 1);
                    }
                }
                "line_comment" | "block_comment" => {
                    let text = text_of(child, src);
                    if let Some(rest) = text.strip_prefix("//!") {
                        self.module.push(rest.trim().to_string());
                    } else if text.starts_with("/*!") {
                        self.module.extend(block_comment_lines(text));
                    }
                }
                kind if kind.ends_with("_item") || kind == "macro_definition" => {
                    let name = child.child_by_field_name("name");
                    if let (Some(name), Some(doc)) = (name, leading_doc(child, src)) {
                        self.items.push((text_of(name, src).to_string(), doc));
                    }
                }
                _ => {}
            }
        }
    }
}

struct Items<'s, 'b> {
    src: &'s str,
    b: &'b mut Builder,
    /// Macro bodies around the node being read (bounded by [`MAX_MACRO_DEPTH`]).
    macros: usize,
}

/// Normalised attribute texts preceding an item.
fn attrs_contain(attrs: &[String], needle: &str) -> bool {
    attrs.iter().any(|a| a.contains(needle))
}

fn qualify(prefix: Option<&str>, name: &str) -> String {
    match prefix {
        Some(p) => format!("{p}::{name}"),
        None => name.to_string(),
    }
}

fn is_pub(node: Node<'_>) -> bool {
    has_child_kind(node, "visibility_modifier")
}

/// Names of non-`pub` types and traits declared directly in `container` (or in the item-position
/// macro calls in it).
fn private_types(container: Node<'_>, src: &str, macros: usize) -> HashSet<String> {
    let mut names = HashSet::new();
    for child in code_children(container) {
        match child.kind() {
            "struct_item" | "enum_item" | "union_item" | "trait_item" | "type_item"
                if !is_pub(child) =>
            {
                if let Some(name) = child.child_by_field_name("name") {
                    names.insert(text_of(name, src).to_string());
                }
            }
            "macro_invocation" if macros < MAX_MACRO_DEPTH => {
                for body in macro_bodies(child, src) {
                    names.extend(private_types(body.root(), &body.text, macros + 1));
                }
            }
            _ => {}
        }
    }
    names
}

/// First `type_identifier` in `node` (pre-order), iteratively.
fn base_type_name<'a>(node: Node<'_>, src: &'a str) -> Option<&'a str> {
    let mut found = None;
    walk(node, (), |n, ()| {
        if found.is_some() {
            return None;
        }
        if n.kind() == "type_identifier" {
            found = Some(text_of(n, src));
            return None;
        }
        Some(())
    });
    found
}

impl Items<'_, '_> {
    fn name(&self, node: Node<'_>) -> String {
        node.child_by_field_name("name")
            .map(|n| text_of(n, self.src).to_string())
            .unwrap_or_default()
    }

    /// Items of a source file or an inline module body.
    fn container(&mut self, node: Node<'_>, prefix: Option<&str>, depth: usize, level: usize) {
        if level > MAX_MODULE_DEPTH {
            return;
        }
        let private = private_types(node, self.src, self.macros);
        self.children(node, prefix, depth, level, &private);
    }

    /// The items among the children of `node` (a container or a macro body in one).
    fn children(
        &mut self,
        node: Node<'_>,
        prefix: Option<&str>,
        depth: usize,
        level: usize,
        private: &HashSet<String>,
    ) {
        let mut attrs: Vec<String> = Vec::new();
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for child in children {
            if child.kind() == "attribute_item" {
                attrs.push(compact(text_of(child, self.src)));
                continue;
            }
            if child.is_extra() {
                continue;
            }
            self.item(child, prefix, depth, level, &attrs, private);
            attrs.clear();
        }
    }

    /// One item of a container: the public ones become symbols (and their public members or
    /// inline module items too).
    fn item(
        &mut self,
        node: Node<'_>,
        prefix: Option<&str>,
        depth: usize,
        level: usize,
        attrs: &[String],
        private: &HashSet<String>,
    ) {
        let body = node.child_by_field_name("body");
        let no_body: Vec<Node<'_>> = body.into_iter().collect();
        match node.kind() {
            "function_item" | "function_signature_item" if is_pub(node) => {
                self.leaf(node, SymbolKind::Function, prefix, depth, &no_body);
            }
            "struct_item" | "union_item" if is_pub(node) => self.struct_item(node, prefix, depth),
            "enum_item" if is_pub(node) => self.leaf(node, SymbolKind::Enum, prefix, depth, &[]),
            "type_item" if is_pub(node) => {
                self.leaf(node, SymbolKind::TypeAlias, prefix, depth, &[]);
            }
            "const_item" | "static_item" if is_pub(node) => {
                let kind = if node.kind() == "const_item" {
                    SymbolKind::Constant
                } else {
                    SymbolKind::Static
                };
                let value: Vec<Node<'_>> = node.child_by_field_name("value").into_iter().collect();
                self.leaf(node, kind, prefix, depth, &value);
            }
            "trait_item" if is_pub(node) => self.trait_item(node, prefix, depth),
            "impl_item" => self.impl_item(node, prefix, depth, private),
            "mod_item" if is_pub(node) && !is_cfg_test(attrs) => {
                self.mod_item(node, prefix, depth, level);
            }
            "macro_definition" if attrs_contain(attrs, "macro_export") => {
                let name = self.name(node);
                let sig = format!("macro_rules! {name}");
                let doc = leading_doc(node, self.src);
                self.b
                    .add_documented(depth, SymbolKind::Macro, &name, prefix, (sig, doc));
            }
            "use_declaration" if is_pub(node) => {
                let name = node
                    .child_by_field_name("argument")
                    .map(|a| signature(a, self.src, &[]))
                    .unwrap_or_default();
                let sig = signature(node, self.src, &[]);
                self.b.add(depth, SymbolKind::Module, &name, prefix, sig);
            }
            "foreign_mod_item" => {
                if let Some(body) = body {
                    self.container(body, prefix, depth, level + 1);
                }
            }
            "macro_invocation" if !is_cfg_test(attrs) => {
                // `cfg_rt! { pub mod runtime; pub struct Handle; }`: the items are the file's.
                self.in_macro(node, |inner, body| {
                    inner.children(body, prefix, depth, level, private);
                });
            }
            _ => {}
        }
    }

    /// Read each item body of the macro call `node` with `read`, one level of macros deeper.
    fn in_macro(&mut self, node: Node<'_>, mut read: impl FnMut(&mut Items<'_, '_>, Node<'_>)) {
        if self.macros >= MAX_MACRO_DEPTH {
            return;
        }
        for body in macro_bodies(node, self.src) {
            let mut inner = Items {
                src: &body.text,
                b: &mut *self.b,
                macros: self.macros + 1,
            };
            read(&mut inner, body.root());
        }
    }

    /// An item that is one symbol: its signature without the `excluded` parts (a body, a value).
    fn leaf(
        &mut self,
        node: Node<'_>,
        kind: SymbolKind,
        prefix: Option<&str>,
        depth: usize,
        excluded: &[Node<'_>],
    ) {
        let name = self.name(node);
        let sig = signature(node, self.src, excluded);
        let doc = leading_doc(node, self.src);
        self.b
            .add_documented(depth, kind, &name, prefix, (sig, doc));
    }

    /// A public struct or union and its public fields.
    fn struct_item(&mut self, node: Node<'_>, prefix: Option<&str>, depth: usize) {
        let name = self.name(node);
        let fields = node
            .child_by_field_name("body")
            .filter(|b| b.kind() == "field_declaration_list");
        let excluded: Vec<Node<'_>> = fields.into_iter().collect();
        let sig = (
            signature(node, self.src, &excluded),
            leading_doc(node, self.src),
        );
        if !self
            .b
            .add_documented(depth, SymbolKind::Struct, &name, prefix, sig)
        {
            return;
        }
        let Some(fields) = fields else {
            return;
        };
        let parent = qualify(prefix, &name);
        for field in code_children(fields) {
            if field.kind() == "field_declaration" && is_pub(field) {
                let fname = self.name(field);
                let fsig = signature(field, self.src, &[]);
                self.b
                    .add(depth + 1, SymbolKind::Variable, &fname, Some(&parent), fsig);
            }
        }
    }

    /// A public trait and all its members.
    fn trait_item(&mut self, node: Node<'_>, prefix: Option<&str>, depth: usize) {
        let name = self.name(node);
        let body = node.child_by_field_name("body");
        let no_body: Vec<Node<'_>> = body.into_iter().collect();
        let sig = (
            signature(node, self.src, &no_body),
            leading_doc(node, self.src),
        );
        if self
            .b
            .add_documented(depth, SymbolKind::Trait, &name, prefix, sig)
        {
            if let Some(body) = body {
                let parent = qualify(prefix, &name);
                self.members(body, &parent, depth + 1, false);
            }
        }
    }

    /// A public inline module and its items.
    fn mod_item(&mut self, node: Node<'_>, prefix: Option<&str>, depth: usize, level: usize) {
        let name = self.name(node);
        let body = node.child_by_field_name("body");
        let no_body: Vec<Node<'_>> = body.into_iter().collect();
        let sig = (
            signature(node, self.src, &no_body),
            leading_doc(node, self.src),
        );
        if self
            .b
            .add_documented(depth, SymbolKind::Module, &name, prefix, sig)
        {
            if let Some(body) = body {
                let inner = qualify(prefix, &name);
                self.container(body, Some(&inner), depth + 1, level + 1);
            }
        }
    }

    fn impl_item(
        &mut self,
        node: Node<'_>,
        prefix: Option<&str>,
        depth: usize,
        private: &HashSet<String>,
    ) {
        let src = self.src;
        let body = node.child_by_field_name("body");
        let no_body: Vec<Node<'_>> = body.into_iter().collect();
        let Some(ty) = node.child_by_field_name("type") else {
            return;
        };
        if base_type_name(ty, src).is_some_and(|n| private.contains(n)) {
            return;
        }
        let ty_text = signature(ty, src, &[]);
        let header = signature(node, src, &no_body);
        if let Some(tr) = node.child_by_field_name("trait") {
            if base_type_name(tr, src).is_some_and(|n| private.contains(n)) {
                return;
            }
            let name = format!("{} for {}", signature(tr, src, &[]), ty_text);
            self.b.add(depth, SymbolKind::Impl, &name, prefix, header);
            return;
        }
        let Some(body) = body else { return };
        let parent = qualify(prefix, &ty_text);
        let mark = self.b.mark();
        self.members(body, &parent, depth + 1, true);
        self.b.header_at(mark, depth, header);
    }

    /// Members of a trait (`only_pub == false`: all of them) or an inherent impl (`pub` only).
    fn members(&mut self, body: Node<'_>, parent: &str, depth: usize, only_pub: bool) {
        let src = self.src;
        for member in code_children(body) {
            if member.kind() == "macro_invocation" {
                // `impl TcpListener { cfg_net! { pub async fn bind(…) … } }`
                self.in_macro(member, |inner, body| {
                    inner.members(body, parent, depth, only_pub);
                });
                continue;
            }
            if only_pub && !is_pub(member) {
                continue;
            }
            let kind = match member.kind() {
                "function_item" | "function_signature_item" => SymbolKind::Method,
                "const_item" => SymbolKind::Constant,
                "type_item" | "associated_type" => SymbolKind::TypeAlias,
                _ => continue,
            };
            let excluded: Vec<Node<'_>> = member
                .child_by_field_name("body")
                .or_else(|| member.child_by_field_name("value"))
                .into_iter()
                .collect();
            let name = self.name(member);
            let sig = (signature(member, src, &excluded), leading_doc(member, src));
            self.b.add_documented(depth, kind, &name, Some(parent), sig);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::source::testing::{assert_hash_behaviour, docs, imports, parse, rows};
    use crate::source::{Language, SymbolKind::*};

    #[test]
    fn items_and_impl_and_trait_members_keep_their_docs() {
        let text = "/// A parser.\n#[derive(Debug)]\npub struct Parser;\n\nimpl Parser {\n    \
                    /// Parse `input`.\n    ///\n    /// Details.\n    pub fn parse(&self, input: &str) {}\n    \
                    /// Private.\n    fn hidden(&self) {}\n}\n\n/// Things that lex.\npub trait Lex {\n    \
                    /// Next token.\n    fn next(&mut self);\n}\n";
        let iface = parse(Language::Rust, text);
        assert_eq!(
            docs(&iface),
            [
                ("Parser", "A parser."),
                ("parse", "Parse `input`."),
                ("Lex", "Things that lex."),
                ("next", "Next token.")
            ]
        );
        assert_eq!(
            iface.hash(),
            parse(Language::Rust, &text.replace("/// ", "// no: ")).hash()
        );
    }

    const FIXTURE: &str = include_str!("../../../../fixtures/source/rust/parser.rs");

    #[test]
    fn extracts_the_fixture_symbols() {
        let iface = parse(Language::Rust, FIXTURE);
        assert!(!iface.has_errors);
        assert_eq!(
            rows(&iface),
            vec![
                (None, Module, "ast", "pub mod ast"),
                (None, Module, "ast::Ast", "pub use ast::Ast"),
                (
                    None,
                    Function,
                    "parse",
                    "pub fn parse(input: &str) -> Result<Ast, Error>"
                ),
                (None, Struct, "Parser", "pub struct Parser<'a>"),
                (
                    None,
                    Enum,
                    "Mode",
                    "pub enum Mode { Strict, Lenient, Limited(u32) }"
                ),
                (None, Trait, "Parse", "pub trait Parse: Sized"),
                (None, Constant, "MAX_DEPTH", "pub const MAX_DEPTH: usize"),
                (
                    None,
                    Impl,
                    "fmt::Display for Parser<'_>",
                    "impl fmt::Display for Parser<'_>"
                ),
                (
                    Some("Parse"),
                    Method,
                    "parse",
                    "fn parse(text: &str) -> Result<Self, Error>"
                ),
                (
                    Some("Parse"),
                    Method,
                    "parse_all",
                    "fn parse_all(texts: &[&str]) -> Vec<Result<Self, Error>>"
                ),
                (Some("Parser"), Variable, "depth", "pub(crate) depth: usize"),
                (Some("Parser"), Variable, "source", "pub source: &'a str"),
                (
                    Some("Parser<'a>"),
                    Method,
                    "new",
                    "pub fn new(source: &'a str) -> Self"
                ),
                (
                    Some("Parser<'a>"),
                    Method,
                    "parse",
                    "pub fn parse(&mut self, mode: Mode) -> Result<Ast, Error>"
                ),
            ]
        );
    }

    #[test]
    fn renders_the_fixture_skeleton_in_source_order() {
        let iface = parse(Language::Rust, FIXTURE);
        let expected = "\
pub mod ast
pub use ast::Ast
pub const MAX_DEPTH: usize
pub struct Parser<'a>
  pub source: &'a str
  pub(crate) depth: usize
pub enum Mode { Strict, Lenient, Limited(u32) }
impl<'a> Parser<'a>
  pub fn new(source: &'a str) -> Self
  pub fn parse(&mut self, mode: Mode) -> Result<Ast, Error>
impl fmt::Display for Parser<'_>
pub trait Parse: Sized
  fn parse(text: &str) -> Result<Self, Error>
  fn parse_all(texts: &[&str]) -> Vec<Result<Self, Error>>
pub fn parse(input: &str) -> Result<Ast, Error>";
        assert_eq!(iface.skeleton(), expected);
    }

    #[test]
    fn extracts_the_fixture_imports_doc_and_signals() {
        let iface = parse(Language::Rust, FIXTURE);
        assert_eq!(
            imports(&iface),
            vec![
                ("std::fmt", 5),
                ("crate::lexer::Lexer", 7),
                ("crate::lexer::Token", 7),
                ("super::error::Error", 8),
                ("mod:cursor", 10),
                ("mod:ast", 11),
                ("ast::Ast", 13),
                ("fmt::Display", 62),
                ("fmt::Formatter", 63),
                ("fmt::Result", 63),
            ]
        );
        assert_eq!(
            iface.doc.as_deref(),
            Some("A tiny expression parser.\n\nTurns source text into an [`Ast`].")
        );
        assert_eq!(iface.signals.lines, 100);
        assert_eq!(iface.signals.unsafe_blocks, 1);
        assert_eq!(iface.signals.todo_markers, 2);
        assert_eq!(iface.signals.max_nesting, 2);
    }

    #[test]
    fn covers_every_item_kind() {
        let text = r#"
pub(crate) async unsafe fn a<T: Clone>(x: T) -> T where T: Send, { x }
pub const fn b() -> u8 { 1 }
pub extern "C" fn c(p: *const u8, f: impl Fn(u8) -> u8) -> ! { loop {} }
pub union U { pub a: u32, b: f32 }
pub struct Id(pub u32);
pub struct Unit;
pub type R<T> = std::result::Result<T, Error>;
pub static mut COUNTER: [u8; 4] = [0; 4];
#[macro_export]
macro_rules! shout { () => {} }
macro_rules! quiet { () => {} }
pub use crate::x::{y, z as w};
pub mod inner {
    pub fn g() {}
    fn hidden() {}
    pub mod deeper { pub struct D { pub f: u8 } }
    impl D { pub fn m(&self) {} }
}
mod private_mod { pub fn not_exported() {} }
extern "C" { pub fn ffi(x: i32) -> i32; }
unsafe impl Send for Id {}
impl<T> From<T> for Unit { fn from(_: T) -> Self { Unit } }
struct Hidden;
impl Hidden { pub fn nope(&self) {} }
impl std::fmt::Debug for Hidden { fn fmt(&self) {} }
pub trait T: Clone { type Out: Default; const N: usize = 3; fn go(&self); }
"#;
        let iface = parse(Language::Rust, text);
        assert!(!iface.has_errors);
        let expected = "\
pub(crate) async unsafe fn a<T: Clone>(x: T) -> T where T: Send
pub const fn b() -> u8
pub extern \"C\" fn c(p: *const u8, f: impl Fn(u8) -> u8) -> !
pub union U
  pub a: u32
pub struct Id(pub u32)
pub struct Unit
pub type R<T> = std::result::Result<T, Error>
pub static mut COUNTER: [u8; 4]
macro_rules! shout
pub use crate::x::{y, z as w}
pub mod inner
  pub fn g()
  pub mod deeper
    pub struct D
      pub f: u8
  impl D
    pub fn m(&self)
pub fn ffi(x: i32) -> i32
unsafe impl Send for Id
impl<T> From<T> for Unit
pub trait T: Clone
  type Out: Default
  const N: usize
  fn go(&self)";
        assert_eq!(iface.skeleton(), expected);
        let parents: Vec<_> = rows(&iface)
            .into_iter()
            .filter(|r| r.0.is_some_and(|p| p.starts_with("inner")))
            .map(|r| (r.0.unwrap_or(""), r.1, r.2))
            .collect();
        assert_eq!(
            parents,
            vec![
                ("inner", Module, "deeper"),
                ("inner", Function, "g"),
                ("inner::D", Method, "m"),
                ("inner::deeper", Struct, "D"),
                ("inner::deeper::D", Variable, "f"),
            ]
        );
        let kinds: Vec<_> = rows(&iface)
            .into_iter()
            .filter(|r| r.0.is_none())
            .map(|r| (r.1, r.2))
            .collect();
        assert!(kinds.contains(&(Macro, "shout")));
        assert!(kinds.contains(&(Static, "COUNTER")));
        assert!(kinds.contains(&(Impl, "Send for Id")));
        assert!(kinds.contains(&(Impl, "From<T> for Unit")));
        assert!(kinds.contains(&(Module, "crate::x::{y, z as w}")));
        assert!(kinds.contains(&(Struct, "U")));
    }

    const BASE: &str = r#"//! Doc.
use crate::x::Y;

/// A thing.
pub struct Thing { pub id: u32, secret: String }

pub enum Kind { A, B(u8) }

impl Thing {
    pub fn new(id: u32) -> Self { Thing { id, secret: String::new() } }
    fn private(&self) -> u32 { self.id }
}

pub fn run(thing: &Thing, verbose: bool) -> Result<(), String> {
    if verbose { println!("{}", thing.id); }
    Ok(())
}

fn helper() {}
"#;

    #[test]
    fn interface_hash_ignores_non_interface_edits() {
        let body = BASE.replace("Ok(())\n", "let n = 1 + 2;\n    let _ = n;\n    Ok(())\n");
        let comments = BASE
            .replace("//! Doc.", "//! Completely different module docs.\n// note")
            .replace("/// A thing.", "/// Another thing.\n/// With more lines.")
            .replace("verbose: bool)", "/* flag */ verbose: bool /* trailing */)")
            .replace(
                "pub enum Kind {",
                "#[derive(Debug)]\npub enum Kind { /* first */",
            );
        let reformatted = BASE
            .replace(
                "pub fn run(thing: &Thing, verbose: bool) -> Result<(), String> {",
                "pub fn run(\n    thing : & Thing,\n    verbose:bool,\n)->Result< (),String >\n{",
            )
            .replace(
                "pub struct Thing { pub id: u32, secret: String }",
                "pub struct Thing {\n    pub id: u32,\n    secret: String,\n}",
            )
            .replace(
                "pub enum Kind { A, B(u8) }",
                "pub enum Kind {\n    A,\n    B(\n        u8,\n    ),\n}",
            );
        let reordered =
            "pub fn run(thing: &Thing, verbose: bool) -> Result<(), String> { Ok(()) }\n\
             impl Thing { pub fn new(id: u32) -> Self { todo() } }\n\
             pub enum Kind { A, B(u8) }\n\
             pub struct Thing { pub id: u32, secret: String }\n";
        let private = BASE
            .replace(
                "fn helper() {}",
                "fn helper(x: u8) -> u8 { x }\nstruct Other;\nimpl Other { pub fn p() {} }",
            )
            .replace("secret: String", "secret: Vec<u8>")
            .replace(
                "fn private(&self) -> u32",
                "fn private(&self, n: u64) -> u64",
            );
        let different = [
            (
                "parameter type",
                BASE.replace("verbose: bool", "verbose: u8"),
            ),
            ("new function", format!("{BASE}\npub fn extra() {{}}\n")),
            (
                "private made public",
                BASE.replace("fn helper()", "pub fn helper()"),
            ),
            ("enum variant", BASE.replace("A, B(u8)", "A, B(u8), C")),
            (
                "public field type",
                BASE.replace("pub id: u32", "pub id: u64"),
            ),
            (
                "method return type",
                BASE.replace("-> Self {", "-> Option<Self> {"),
            ),
        ];
        assert_hash_behaviour(
            Language::Rust,
            BASE,
            &[
                ("body", &body),
                ("comments", &comments),
                ("whitespace", &reformatted),
                ("order", reordered),
                ("private items", &private),
            ],
            &different
                .iter()
                .map(|(l, t)| (*l, t.as_str()))
                .collect::<Vec<_>>(),
        );
    }

    #[test]
    fn cfg_test_modules_and_private_items_are_not_interface() {
        let text = "fn a() {}\nstruct B;\n#[cfg(test)]\npub mod tests { pub fn t() {} }\nconst C: u8 = 1;\n";
        let iface = parse(Language::Rust, text);
        assert!(iface.symbols.is_empty(), "{:?}", iface.symbols);
        assert_eq!(iface.skeleton(), "");
    }

    #[test]
    fn test_only_cfgs_are_those_false_without_test() {
        let test_only = |attr: &str| super::is_cfg_test(&[attr.to_string()]);
        assert!(test_only("#[cfg(test)]"));
        assert!(test_only("#[cfg(all(test, loom))]"));
        assert!(test_only("#[cfg(all(test, feature = \"x\"))]"));
        assert!(!test_only("#[cfg(not(test))]"));
        assert!(!test_only("#[cfg(not(all(test, loom)))]"));
        assert!(!test_only("#[cfg(any(test, fuzzing))]"));
        assert!(!test_only("#[cfg(feature = \"test\")]"));
        assert!(!test_only("#[cfg_attr(test, derive(Debug))]"));
        assert!(!test_only("#[cfg(unix)]"));
    }

    #[test]
    fn use_paths_inside_inline_modules_are_rebased() {
        let text = "mod a {\n    use super::x::Y;\n    use self::b::C;\n    use crate::z;\n    mod nested;\n    mod b { use super::super::w; }\n}\n#[cfg(test)]\nmod tests { use super::*; use crate::only_tests; }\n";
        let iface = parse(Language::Rust, text);
        assert_eq!(
            imports(&iface),
            vec![
                ("self::x::Y", 2),
                ("crate::z", 4),
                ("mod:a::nested", 5),
                ("self::w", 6),
            ]
        );
    }

    #[test]
    fn syntax_errors_still_yield_symbols() {
        let text =
            "pub fn ok(a: u8) -> u8 { a }\npub fn broken(x: { \npub struct After { pub f: u8 }\n";
        let iface = parse(Language::Rust, text);
        assert!(iface.has_errors);
        assert!(rows(&iface).contains(&(None, Function, "ok", "pub fn ok(a: u8) -> u8")));
    }

    #[test]
    fn module_doc_variants() {
        let block =
            "#![allow(dead_code)]\n/*!\n * Block docs.\n *\n * Second paragraph.\n */\nfn x() {}\n";
        assert_eq!(
            parse(Language::Rust, block).doc.as_deref(),
            Some("Block docs.\n\nSecond paragraph.")
        );
        let lines = "//! First.\n#![forbid(unsafe_code)]\n//! Second.\n/// Item doc, not module doc.\npub fn f() {}\n";
        assert_eq!(
            parse(Language::Rust, lines).doc.as_deref(),
            Some("First.\nSecond.")
        );
        assert_eq!(
            parse(Language::Rust, "/// outer only\npub fn f() {}\n// plain\n").doc,
            None
        );
        assert_eq!(parse(Language::Rust, "//!\n//!   \n").doc, None);
    }

    /// tokio's pattern: the API inside pass-through macros (`cfg_net! { … }`), also inside `impl`s,
    /// nested, and in every `cfg_if!` branch.
    const MACROS: &str = r#"macro_rules! cfg_net { ($($item:item)*) => { $( #[cfg(feature = "net")] $item )* } }
macro_rules! hidden { () => { pub fn not_an_item() {} } }

cfg_net! {
    //! Networking primitives.
    use crate::io::Ready;
    mod tcp;
    pub use tcp::Listener;

    /// A bound socket.
    pub struct Socket { fd: i32 }
    struct Inner;

    cfg_rt! {
        pub mod runtime;
        /// Runs the socket's tasks.
        pub fn run() {}
    }
}

impl Socket {
    cfg_net! {
        /// Binds.
        pub async fn bind(addr: &str) -> Result<Socket, Error> { let fd = unsafe { sys::bind(addr) }; Ok(Socket { fd }) }
        fn private() {}
        cfg_unstable! { pub fn id(&self) -> u64 { 0 } }
    }
    pub fn fd(&self) -> i32 { self.fd }
}

impl Inner { pub fn leak(&self) {} }

#[cfg(test)]
cfg_net! { pub fn test_only() {} use crate::only_tests; }

cfg_if::cfg_if! {
    if #[cfg(unix)] {
        mod unix;
        pub use self::unix::Handle;
        pub fn platform() -> &'static str { "unix" }
    } else if #[cfg(windows)] {
        mod windows;
        pub use self::windows::Handle;
        pub fn platform() -> &'static str { "windows" }
    } else {
        pub fn platform() -> &'static str { "other" }
    }
}
"#;

    #[test]
    fn items_inside_item_position_macros_are_the_files() {
        let iface = parse(Language::Rust, MACROS);
        assert!(!iface.has_errors);
        let expected = "\
pub use tcp::Listener
pub struct Socket
pub mod runtime
pub fn run()
impl Socket
  pub async fn bind(addr: &str) -> Result<Socket, Error>
  pub fn id(&self) -> u64
  pub fn fd(&self) -> i32
pub use self::unix::Handle
pub fn platform() -> &'static str
pub use self::windows::Handle";
        assert_eq!(iface.skeleton(), expected);
        assert!(!rows(&iface).iter().any(|r| r.2 == "not_an_item"));
        assert_eq!(iface.signals.unsafe_blocks, 1);
        // Deterministic: the same text, the same hash; a body edit inside a macro changes nothing.
        let body = MACROS.replace("{ 0 }", "{ 1 + 1 }");
        assert_eq!(iface.hash(), parse(Language::Rust, &body).hash());
        let changed = MACROS.replace("-> u64 { 0 }", "-> u32 { 0 }");
        assert_ne!(iface.hash(), parse(Language::Rust, &changed).hash());
    }

    #[test]
    fn imports_and_docs_inside_macros_are_the_files() {
        let iface = parse(Language::Rust, MACROS);
        assert_eq!(
            imports(&iface),
            vec![
                ("crate::io::Ready", 6),
                ("mod:tcp", 7),
                ("tcp::Listener", 8),
                ("mod:runtime", 15),
                ("mod:unix", 38),
                ("self::unix::Handle", 39),
                ("mod:windows", 42),
                ("self::windows::Handle", 43),
                ("sys::bind", 24),
                ("cfg_if::cfg_if", 36),
            ]
        );
        assert_eq!(iface.doc.as_deref(), Some("Networking primitives."));
        assert_eq!(iface.item_doc("Socket"), Some("A bound socket."));
        assert_eq!(iface.item_doc("run"), Some("Runs the socket's tasks."));
        let bound: Vec<_> = iface
            .bindings
            .iter()
            .filter_map(|b| match &b.kind {
                crate::source::BindingKind::Item(name) => Some(name.as_str()),
                _ => None,
            })
            .collect();
        for name in ["tcp", "Socket", "Inner", "runtime", "run", "platform"] {
            assert!(bound.contains(&name), "{name} in {bound:?}");
        }
        for member in ["bind", "id", "private", "test_only"] {
            assert!(!bound.contains(&member), "{member} in {bound:?}");
        }
    }
}
