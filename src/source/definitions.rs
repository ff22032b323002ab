//! Every definition of a file, public or private: what `lexi lookup <file> --member <name>` can
//! open. The interface (`super::interface`) holds only what a file offers its importers (a
//! literal `__all__`, `pub`, `export`); an agent reading `## Calls` or a body meets the rest —
//! `_helper`, express's `stringify`, a class exported as an expression (`module.exports = class
//! Application extends Emitter { use(fn) {…} }`), an object literal's methods, a function nested
//! in another and bound to a name, the functions a callback assigns (`app[method] = function …`),
//! a private base class, a constant's value.
//!
//! A definition is labelled as `source::calls` labels members, so the two meet: `Container.name`
//! for a method (the class, the `impl` type or trait, the CommonJS object it is assigned to),
//! `name` for a top-level one, and `outer.name` for a function defined inside function `outer`.
//! Rust items inside item-position macro calls (`cfg_rt! { pub fn spawn … }`) are read from the
//! macro's body, parsed as items (`rust::expand`), so each definition says which tree it is in.
//!
//! Read at lookup time only, from the parse the lookup makes anyway: nothing here is stored, so
//! nothing here can move a design file.

use tree_sitter::Node;

use super::interface::SymbolKind;
use super::syntax::{code_children, compact, signature, text_of, walk, MacroBody};

/// Lines of a constant's or an alias's value shown, at most.
pub const VALUE_LINES: usize = 12;
/// Bytes of a value shown, at most.
pub const VALUE_BYTES: usize = 900;

/// One definition of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Definition {
    /// `Container.name`, `outer.name` (nested in function `outer`) or `name`.
    pub label: String,
    pub name: String,
    pub kind: SymbolKind,
    /// The label of the definition it sits in (its class, `impl` type, trait, or function).
    pub parent: Option<String>,
    /// The header of the block it sits in when that block defines nothing itself: a Rust `impl`
    /// (`impl<T> Shape for Square<T>`).
    pub block: Option<String>,
    /// It is defined inside a function (a closure bound to a name, a nested `def`).
    pub nested: bool,
    /// Its header without its body, tokens joined as signatures are (`def _helper(x)`).
    pub signature: String,
    /// Its doc comment or docstring.
    pub doc: Option<String>,
    /// A constant's, a variable's or a type alias's whole statement as written (`X = t.Union[…]`),
    /// cut to [`VALUE_LINES`] lines and [`VALUE_BYTES`] bytes.
    pub value: Option<String>,
    /// A class's bases as written in its header (`App`, `Emitter`), a trait's supertraits.
    pub bases: Vec<String>,
    /// The first line, 1-based, in the file.
    pub line: usize,
    /// The last line, 1-based, in the file.
    pub end_line: usize,
    /// Where its node is: the tree (0: the file's; others: macro bodies) and its byte range there.
    pub at: Site,
}

/// A node's place: which tree of the file and its byte range in that tree's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Site {
    pub tree: usize,
    pub start: usize,
    pub end: usize,
    /// The node's kind (a block may span the same bytes as the one definition in it).
    pub kind: u16,
}

/// Rust `impl Trait for Type`: a type's trait, for the bases of `Type`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraitImpl {
    pub trait_name: String,
    pub type_name: String,
}

/// What [`collect`] finds in one tree.
#[derive(Default)]
pub(crate) struct Collected {
    pub definitions: Vec<Definition>,
    pub impls: Vec<TraitImpl>,
    /// Rust item-position macro calls whose bodies may hold items: their byte ranges and the
    /// container (`impl` type) they sit in.
    pub macro_calls: Vec<(usize, usize, Option<String>)>,
}

/// How one language's definitions are read (its [`crate::source::lang::walks::Walks`]).
pub(crate) trait DefinitionSyntax: Sync {
    /// The definition `node` makes, if any.
    fn definition<'t>(&self, walker: &Walker<'_>, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>>;

    /// The walk's state below a node that defines nothing, when the language changes it (a Rust
    /// `impl` opens its type as the container); `None` to keep the shared rule.
    fn descend(&self, _walker: &mut Walker<'_>, _node: Node<'_>, _ctx: Ctx) -> Option<Ctx> {
        None
    }

    /// Whether a node of `kind` opens a scope: below it, nothing is at the file's top.
    fn opens_scope(&self, kind: &str) -> bool;

    /// The items a macro call [`Self::descend`] recorded stands for (Rust's `cfg_rt! { … }`),
    /// to be read as if expanded; empty for any other node.
    fn macro_items(&self, _call: Node<'_>, _src: &str) -> Vec<MacroBody> {
        Vec::new()
    }
}

/// Where the walk is.
#[derive(Clone, Copy, Default)]
pub(crate) struct Ctx {
    /// The definition (index) whose members the walk is among: a class, a trait, an `impl`
    /// (index into `containers`).
    pub(crate) container: Option<usize>,
    /// The function the walk is inside (index into the definitions).
    pub(crate) function: Option<usize>,
    /// Only at the top of the file (not inside any function, callback or block of one).
    pub(crate) top: bool,
}

/// Where a tree sits in its file: its index among the file's trees, the lines of the file before
/// its text, and the container its items belong to (a macro call's in an `impl`).
pub(super) struct Place {
    pub tree: usize,
    pub rows: usize,
    pub container: Option<String>,
}

/// Every definition of a parsed tree.
pub(super) fn collect(
    syntax: &'static dyn DefinitionSyntax,
    root: Node<'_>,
    src: &str,
    place: Place,
) -> Collected {
    let mut walker = Walker {
        syntax,
        src,
        tree: place.tree,
        rows: place.rows,
        out: Collected::default(),
        containers: Vec::new(),
    };
    let mut start = Ctx {
        top: true,
        ..Ctx::default()
    };
    if let Some(container) = place.container {
        walker.containers.push(Container {
            header: Some(format!("impl {container}")),
            name: container,
            label: None,
        });
        start.container = Some(0);
    }
    walk(root, start, |node, ctx| walker.visit(node, ctx));
    walker.out
}

pub(crate) struct Walker<'s> {
    pub(crate) syntax: &'static dyn DefinitionSyntax,
    pub(crate) src: &'s str,
    pub(crate) tree: usize,
    pub(crate) rows: usize,
    pub(crate) out: Collected,
    /// The containers met (a class, an `impl` type, a CommonJS object).
    pub(crate) containers: Vec<Container>,
}

/// A container: its name, its definition's label (none for an `impl`), and its header when it
/// defines nothing itself (an `impl`).
pub(crate) struct Container {
    pub(crate) name: String,
    pub(crate) label: Option<String>,
    pub(crate) header: Option<String>,
}

/// A definition found at a node, before it is placed.
pub(crate) struct Found<'t> {
    pub(crate) name: String,
    pub(crate) kind: SymbolKind,
    pub(crate) signature: String,
    pub(crate) doc: Option<String>,
    pub(crate) value: Option<String>,
    pub(crate) bases: Vec<String>,
    /// The node whose range is the definition's (a function, a class, a statement).
    pub(crate) node: Node<'t>,
    /// A container it opens for what is inside (a class's name), else none.
    pub(crate) opens: Option<String>,
    /// Its container as written (`res` of `res.send = …`), overriding the walk's.
    pub(crate) container: Option<Option<String>>,
    /// It is a function: what is inside is nested in it.
    pub(crate) function: bool,
}

impl<'s> Walker<'s> {
    pub(crate) fn visit<'t>(&mut self, node: Node<'t>, ctx: Ctx) -> Option<Ctx> {
        if matches!(
            node.kind(),
            "comment" | "line_comment" | "block_comment" | "string" | "string_literal"
        ) {
            return None;
        }
        let found = self.syntax.definition(self, node, ctx);
        let Some(found) = found else {
            return Some(self.descend(node, ctx));
        };
        let function = found.function;
        let opens = found.opens.clone();
        let index = self.place(found, ctx);
        Some(match (function, opens) {
            (true, _) => Ctx {
                container: None,
                function: Some(index),
                top: false,
            },
            (false, Some(name)) => {
                let label = self.out.definitions[index].label.clone();
                self.containers.push(Container {
                    name,
                    label: Some(label),
                    header: None,
                });
                Ctx {
                    container: Some(self.containers.len() - 1),
                    function: ctx.function,
                    top: ctx.top,
                }
            }
            // A value may hold definitions (an object literal's methods).
            (false, None) => self.descend(node, ctx),
        })
    }

    /// The state below a node that defines nothing: `top` ends inside any function or block,
    /// an `impl` opens its type as the container.
    pub(crate) fn descend(&mut self, node: Node<'_>, ctx: Ctx) -> Ctx {
        let syntax = self.syntax;
        if let Some(inside) = syntax.descend(self, node, ctx) {
            return inside;
        }
        let opens_scope = syntax.opens_scope(node.kind());
        Ctx {
            top: ctx.top && !opens_scope,
            ..ctx
        }
    }

    /// Record `found` under the walk's container or function; its index.
    pub(crate) fn place(&mut self, found: Found<'_>, ctx: Ctx) -> usize {
        let written = found.container.is_some();
        let container = match found.container.clone() {
            Some(written) => written,
            None => ctx.container.map(|c| self.containers[c].name.clone()),
        };
        let block = ctx
            .container
            .filter(|_| !written && ctx.function.is_none())
            .and_then(|c| self.containers[c].header.clone());
        let function = ctx.function.map(|f| self.out.definitions[f].label.clone());
        let (label, parent, nested) = match (&function, &container) {
            // A function's own definitions are its nested ones, whatever container is around.
            (Some(outer), _) if !written => {
                (format!("{outer}.{}", found.name), Some(outer.clone()), true)
            }
            (_, Some(container)) if !container.is_empty() => {
                let parent = ctx
                    .container
                    .and_then(|c| self.containers[c].label.clone())
                    .filter(|_| !written)
                    .or_else(|| Some(container.clone()));
                (format!("{container}.{}", found.name), parent, false)
            }
            _ => (found.name.clone(), None, false),
        };
        let start = found.node.start_position().row;
        let end = found.node.end_position().row;
        self.out.definitions.push(Definition {
            label,
            name: found.name,
            kind: found.kind,
            parent,
            block,
            nested,
            signature: found.signature,
            doc: found.doc,
            value: found.value,
            bases: found.bases,
            line: self.rows + start + 1,
            end_line: self.rows + end + 1,
            at: Site {
                tree: self.tree,
                start: found.node.start_byte(),
                end: found.node.end_byte(),
                kind: found.node.kind_id(),
            },
        });
        self.out.definitions.len() - 1
    }

    pub(crate) fn found<'t>(&self, node: Node<'t>, name: &str, kind: SymbolKind) -> Found<'t> {
        Found {
            name: name.to_string(),
            kind,
            signature: String::new(),
            doc: None,
            value: None,
            bases: Vec::new(),
            node,
            opens: None,
            container: None,
            function: false,
        }
    }

    pub(crate) fn name_of(&self, node: Node<'_>, field: &str) -> Option<String> {
        node.child_by_field_name(field)
            .map(|n| text_of(n, self.src).to_string())
            .filter(|n| !n.is_empty())
    }
}

/// The body of a function node, as a list to leave out of its signature.
pub(crate) fn function_body(function: Node<'_>) -> Vec<Node<'_>> {
    function.child_by_field_name("body").into_iter().collect()
}

pub(crate) fn is_function(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "function_expression" | "function" | "arrow_function" | "generator_function"
    )
}

/// `require('x')`, `require('x').y`, `await import('x')`: a module, not a value of this file.
pub(crate) fn is_required(value: Node<'_>, src: &str) -> bool {
    let mut node = value;
    loop {
        match node.kind() {
            "member_expression" => match node.child_by_field_name("object") {
                Some(object) => node = object,
                None => return false,
            },
            "await_expression" => match node.named_child(0) {
                Some(inner) => node = inner,
                None => return false,
            },
            "call_expression" => {
                let callee = node.child_by_field_name("function");
                return callee.is_some_and(|f| matches!(text_of(f, src), "require" | "import"));
            }
            _ => return false,
        }
    }
}

pub(crate) fn is_all_caps(name: &str) -> bool {
    name.chars().any(|c| c.is_alphabetic()) && !name.chars().any(|c| c.is_lowercase())
}

/// The statement a node is the expression of (an `expression_statement`, an `export`), else the
/// node.
pub(crate) fn statement_of(node: Node<'_>) -> Node<'_> {
    let mut current = node;
    while let Some(parent) = current.parent() {
        match parent.kind() {
            "expression_statement"
            | "export_statement"
            | "assignment_expression"
            | "parenthesized_expression" => current = parent,
            "variable_declarator" | "lexical_declaration" | "variable_declaration" => {
                current = parent
            }
            _ => break,
        }
    }
    current
}

/// The declaration (`const a = …`) a declarator is in, or its export statement.
pub(crate) fn declaration_of(declarator: Node<'_>) -> Node<'_> {
    let Some(declaration) = declarator.parent() else {
        return declarator;
    };
    match declaration.parent() {
        Some(export) if export.kind() == "export_statement" => export,
        _ => declaration,
    }
}

/// Whether a statement sits at the top of the program (or in an export there).
pub(crate) fn is_top_statement(statement: Node<'_>) -> bool {
    statement
        .parent()
        .is_some_and(|parent| parent.kind() == "program")
}

/// `const name = function (…)` without the body: the declaration's keyword and the declarator.
pub(crate) fn declared_signature(declarator: Node<'_>, function: Node<'_>, src: &str) -> String {
    let keyword = declarator
        .parent()
        .and_then(|d| d.child(0))
        .map(|k| text_of(k, src))
        .unwrap_or("");
    let declared = signature(declarator, src, &function_body(function));
    match keyword {
        "const" | "let" | "var" => format!("{keyword} {declared}"),
        _ => declared,
    }
}

/// The name an anonymous class expression is bound to: `const Foo = class …`, `module.exports =
/// class …` (then the module's own: none).
pub(crate) fn declared_name(class: Node<'_>, src: &str) -> Option<String> {
    let parent = class.parent()?;
    match parent.kind() {
        "variable_declarator" => parent
            .child_by_field_name("name")
            .map(|n| text_of(n, src).to_string()),
        "assignment_expression" => {
            let left = parent.child_by_field_name("left")?;
            let (name, _) = assigned_name(left, src)?;
            (name != "exports").then_some(name)
        }
        _ => None,
    }
}

/// The property an assignment's left side names and the object it is on (none for `exports`,
/// `module.exports`, `this`): `res` and `send` of `res.send`, `app` and `[method]` of
/// `app[method]`.
pub(crate) fn assigned_name(left: Node<'_>, src: &str) -> Option<(String, Option<String>)> {
    let (name, object) = match left.kind() {
        "member_expression" => (
            text_of(left.child_by_field_name("property")?, src).to_string(),
            left.child_by_field_name("object")?,
        ),
        "subscript_expression" => {
            let index = left.child_by_field_name("index")?;
            (
                format!("[{}]", compact(text_of(index, src))),
                left.child_by_field_name("object")?,
            )
        }
        "identifier" => return None,
        _ => return None,
    };
    let container = match object.kind() {
        "identifier" => {
            let object = text_of(object, src);
            (!matches!(object, "exports" | "module" | "this")).then(|| object.to_string())
        }
        "member_expression" => {
            let text = compact(text_of(object, src));
            match text.as_str() {
                "module.exports" => None,
                _ => {
                    // `app.prototype.x`: `app`; `module.exports.x`: none.
                    let first = text.split('.').next().unwrap_or("").to_string();
                    (!matches!(first.as_str(), "exports" | "module" | "this")).then_some(first)
                }
            }
        }
        _ => return None,
    };
    // `app[method]` is labelled as written, like the interface's `app[method]`.
    match (name.starts_with('['), container) {
        (true, Some(object)) => Some((format!("{object}{name}"), None)),
        (true, None) => None,
        (false, container) => Some((name, container)),
    }
}

/// A class's `extends` (and TypeScript `implements`) names.
pub(crate) fn heritage(class: Node<'_>, src: &str) -> Vec<String> {
    let mut bases = Vec::new();
    for child in code_children(class) {
        if matches!(
            child.kind(),
            "class_heritage" | "extends_clause" | "implements_clause" | "extends_type_clause"
        ) {
            walk(child, (), |node, ()| {
                match node.kind() {
                    "extends_clause"
                    | "implements_clause"
                    | "class_heritage"
                    | "extends_type_clause" => return Some(()),
                    "identifier" | "type_identifier" => {
                        bases.push(text_of(node, src).to_string());
                    }
                    "member_expression" | "nested_type_identifier" => {
                        let text = compact(text_of(node, src));
                        bases.push(text.rsplit('.').next().unwrap_or(&text).to_string());
                    }
                    _ => {}
                }
                None
            });
        }
    }
    bases
}

/// The last identifier of a type path (`Sender` of `mpsc::Sender<T>`, `Display` of `fmt::Display`).
pub(crate) fn final_name(node: Node<'_>, src: &str) -> String {
    let text = compact(text_of(node, src));
    let text = text.split('<').next().unwrap_or(&text);
    let text = text.trim_start_matches(['&', '?', '(']);
    let text = text.strip_prefix("dyn").unwrap_or(text);
    text.rsplit("::").next().unwrap_or(text).to_string()
}

/// The `#` comment lines right above a Python statement (its doc, by convention).
pub(crate) fn comments_above(node: Node<'_>, src: &str) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    // The first statement of a block: the grammar puts the comments above it before the block
    // (Python's `def f():` then `#: doc` then the body), as the block's siblings.
    let mut current = node.prev_sibling().or_else(|| {
        node.parent()
            .filter(|block| block.kind() == "block")
            .and_then(|block| block.prev_sibling())
    });
    let mut row = node.start_position().row;
    while let Some(sibling) = current {
        if sibling.kind() != "comment" || sibling.end_position().row + 1 != row {
            break;
        }
        let text = text_of(sibling, src);
        let text = text.strip_prefix("#:").or_else(|| text.strip_prefix('#'));
        lines.push(text.unwrap_or("").trim().to_string());
        row = sibling.start_position().row;
        current = sibling.prev_sibling();
    }
    lines.reverse();
    super::syntax::finish_doc(&lines)
}

/// A statement's text as written, dedented, cut to [`VALUE_LINES`] lines and [`VALUE_BYTES`]
/// bytes (`… N more lines` says what was cut).
pub(crate) fn value_text(node: Node<'_>, src: &str) -> String {
    let text = text_of(node, src);
    let indent = node.start_position().column;
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    let mut shown = 0;
    for (i, line) in lines.iter().enumerate() {
        let line = match i {
            0 => line.trim_end(),
            _ => strip_indent(line, indent).trim_end(),
        };
        if shown == VALUE_LINES || out.len() + line.len() > VALUE_BYTES {
            break;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(line);
        shown += 1;
    }
    if shown < lines.len() {
        out.push_str(&format!("\n… {} more lines", lines.len() - shown));
    }
    out
}

/// `line` without up to `indent` leading spaces.
pub(crate) fn strip_indent(line: &str, indent: usize) -> &str {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    &line[spaces.min(indent)..]
}

#[cfg(test)]
mod tests {
    use super::super::SourceFile;
    use super::*;
    use crate::source::Language;

    /// `label (kind) parent` rows of every definition of `text`.
    fn rows(language: Language, text: &str) -> Vec<String> {
        let file = SourceFile::parse(language, text.to_string()).expect("parses");
        file.definitions
            .iter()
            .map(|d| {
                let parent = d
                    .parent
                    .as_deref()
                    .map_or(String::new(), |p| format!(" in {p}"));
                format!("{} ({}){parent}", d.label, d.kind.as_str())
            })
            .collect()
    }

    #[test]
    fn python_private_nested_and_constants() {
        let text = "\"\"\"Mod.\"\"\"\n__all__ = ['Sub']\n\n# The return types.\nResponseValue = t.Union[\n    str,\n    bytes,\n]\nLIMIT = 3\n\n\
                    class _Base:\n    def walk(self, n):\n        \"\"\"Walk it.\"\"\"\n        def inner(x):\n            return x\n        return inner(n)\n\n\
                    class Sub(_Base, metaclass=M):\n    kind = 'sub'\n\n\
                    def _helper(x):\n    y = 1\n    return x\n";
        assert_eq!(
            rows(Language::Python, text),
            [
                "__all__ (variable)",
                "ResponseValue (typealias)",
                "LIMIT (constant)",
                "_Base (class)",
                "_Base.walk (method) in _Base",
                "_Base.walk.inner (function) in _Base.walk",
                "Sub (class)",
                "Sub.kind (variable) in Sub",
                "_helper (function)",
            ]
        );
        let file = SourceFile::parse(Language::Python, text.to_string()).expect("parses");
        let alias = &file.definitions[1];
        assert_eq!(
            alias.value.as_deref(),
            Some("ResponseValue = t.Union[\n    str,\n    bytes,\n]")
        );
        assert_eq!(alias.doc.as_deref(), Some("The return types."));
        assert_eq!(file.definitions[6].bases, ["_Base"]);
        assert_eq!(file.definitions[4].doc.as_deref(), Some("Walk it."));
        assert_eq!(
            (file.definitions[4].line, file.definitions[4].end_line),
            (12, 16)
        );
    }

    #[test]
    fn javascript_class_expressions_object_literals_and_callback_members() {
        let text = "var send = require('send');\nvar res = Object.create(null);\n\
                    module.exports = class Application extends Emitter {\n  use(fn) { return this; }\n  listen() {}\n};\n\
                    module.exports.proto = {\n  handle(req) {},\n  route: function (path) {},\n};\n\
                    res.send = function send(body) { var done = function () {}; return done(); };\n\
                    methods.forEach(function (method) {\n  app[method] = function (path) { return this; };\n});\n\
                    function stringify(value) { return JSON.stringify(value); }\n\
                    exports.query = require('./query');\n";
        assert_eq!(
            rows(Language::JavaScript, text),
            [
                "res (variable)",
                "Application (class)",
                "Application.use (method) in Application",
                "Application.listen (method) in Application",
                "proto (variable)",
                "handle (function)",
                "route (function)",
                "res.send (function) in res",
                "res.send.done (function) in res.send",
                "app[method] (function)",
                "stringify (function)",
            ]
        );
        let file = SourceFile::parse(Language::JavaScript, text.to_string()).expect("parses");
        assert_eq!(file.definitions[1].bases, ["Emitter"]);
    }

    #[test]
    fn rust_items_impls_and_macro_bodies() {
        let text = "const LIMIT: usize = 3;\nstruct Inner;\n\
                    impl<T> Sender<T> {\n    pub fn send(&self) { fn helper() {} helper(); }\n}\n\
                    impl fmt::Display for Inner { fn fmt(&self) {} }\n\
                    pub trait Shape: Clone { fn area(&self) -> f64; }\n\
                    cfg_rt! {\n    pub fn spawn() { go(); }\n}\n";
        assert_eq!(
            rows(Language::Rust, text),
            [
                "LIMIT (constant)",
                "Inner (struct)",
                "Sender.send (method) in Sender",
                "Sender.send.helper (function) in Sender.send",
                "Inner.fmt (method) in Inner",
                "Shape (trait)",
                "Shape.area (method) in Shape",
                "spawn (function)",
            ]
        );
        let file = SourceFile::parse(Language::Rust, text.to_string()).expect("parses");
        assert_eq!(
            file.impls,
            [TraitImpl {
                trait_name: "Display".into(),
                type_name: "Inner".into()
            }]
        );
        let spawn = &file.definitions[7];
        assert_eq!((spawn.line, spawn.at.tree), (9, 1));
        assert_eq!(file.definitions[5].bases, ["Clone"]);
    }
}
