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
use super::syntax::{code_children, compact, leading_doc, signature, text_of, walk};
use super::Language;

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
pub(super) struct Collected {
    pub definitions: Vec<Definition>,
    pub impls: Vec<TraitImpl>,
    /// Rust item-position macro calls whose bodies may hold items: their byte ranges and the
    /// container (`impl` type) they sit in.
    pub macro_calls: Vec<(usize, usize, Option<String>)>,
}

/// Where the walk is.
#[derive(Clone, Copy, Default)]
struct Ctx {
    /// The definition (index) whose members the walk is among: a class, a trait, an `impl`
    /// (index into `containers`).
    container: Option<usize>,
    /// The function the walk is inside (index into the definitions).
    function: Option<usize>,
    /// Only at the top of the file (not inside any function, callback or block of one).
    top: bool,
}

/// Where a tree sits in its file: its index among the file's trees, the lines of the file before
/// its text, and the container its items belong to (a macro call's in an `impl`).
pub(super) struct Place {
    pub tree: usize,
    pub rows: usize,
    pub container: Option<String>,
}

/// Every definition of a parsed tree.
pub(super) fn collect(language: Language, root: Node<'_>, src: &str, place: Place) -> Collected {
    let mut walker = Walker {
        language,
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

struct Walker<'s> {
    language: Language,
    src: &'s str,
    tree: usize,
    rows: usize,
    out: Collected,
    /// The containers met (a class, an `impl` type, a CommonJS object).
    containers: Vec<Container>,
}

/// A container: its name, its definition's label (none for an `impl`), and its header when it
/// defines nothing itself (an `impl`).
struct Container {
    name: String,
    label: Option<String>,
    header: Option<String>,
}

/// A definition found at a node, before it is placed.
struct Found<'t> {
    name: String,
    kind: SymbolKind,
    signature: String,
    doc: Option<String>,
    value: Option<String>,
    bases: Vec<String>,
    /// The node whose range is the definition's (a function, a class, a statement).
    node: Node<'t>,
    /// A container it opens for what is inside (a class's name), else none.
    opens: Option<String>,
    /// Its container as written (`res` of `res.send = …`), overriding the walk's.
    container: Option<Option<String>>,
    /// It is a function: what is inside is nested in it.
    function: bool,
}

impl<'s> Walker<'s> {
    fn visit<'t>(&mut self, node: Node<'t>, ctx: Ctx) -> Option<Ctx> {
        if matches!(
            node.kind(),
            "comment" | "line_comment" | "block_comment" | "string" | "string_literal"
        ) {
            return None;
        }
        let found = match self.language {
            Language::Python => self.python(node, ctx),
            Language::Java => self.java(node, ctx),
            Language::Rust => self.rust(node, ctx),
            Language::Go => self.go(node, ctx),
            Language::JavaScript | Language::TypeScript | Language::Tsx => {
                self.javascript(node, ctx)
            }
        };
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
    fn descend(&mut self, node: Node<'_>, ctx: Ctx) -> Ctx {
        let kind = node.kind();
        if self.language == Language::Rust && kind == "impl_item" {
            let ty = node
                .child_by_field_name("type")
                .map(|t| final_name(t, self.src));
            if let (Some(ty), Some(tr)) = (&ty, node.child_by_field_name("trait")) {
                self.out.impls.push(TraitImpl {
                    trait_name: final_name(tr, self.src),
                    type_name: ty.clone(),
                });
            }
            let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
            self.containers.push(Container {
                name: ty.unwrap_or_default(),
                label: None,
                header: Some(signature(node, self.src, &body)),
            });
            return Ctx {
                container: Some(self.containers.len() - 1),
                ..ctx
            };
        }
        if self.language == Language::Rust && kind == "macro_invocation" && ctx.function.is_none() {
            let container = ctx.container.map(|c| self.containers[c].name.clone());
            self.out
                .macro_calls
                .push((node.start_byte(), node.end_byte(), container));
        }
        let opens_scope = match self.language {
            // A Python block (an `if` at the module's top) is no scope; functions are.
            Language::Python => kind == "lambda",
            Language::Go => matches!(kind, "func_literal" | "block"),
            Language::Java => matches!(kind, "lambda_expression" | "block" | "constructor_body"),
            Language::Rust | Language::JavaScript | Language::TypeScript | Language::Tsx => {
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
        };
        Ctx {
            top: ctx.top && !opens_scope,
            ..ctx
        }
    }

    /// Record `found` under the walk's container or function; its index.
    fn place(&mut self, found: Found<'_>, ctx: Ctx) -> usize {
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

    fn found<'t>(&self, node: Node<'t>, name: &str, kind: SymbolKind) -> Found<'t> {
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

    fn name_of(&self, node: Node<'_>, field: &str) -> Option<String> {
        node.child_by_field_name(field)
            .map(|n| text_of(n, self.src).to_string())
            .filter(|n| !n.is_empty())
    }

    fn python<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let in_class = ctx.container.is_some() && ctx.function.is_none();
        match node.kind() {
            "class_definition" => {
                let name = self.name_of(node, "name")?;
                let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
                let mut found = self.found(node, &name, SymbolKind::Class);
                found.signature = signature(node, src, &body);
                found.doc = body.first().and_then(|b| super::python::docstring(*b, src));
                found.bases = node
                    .child_by_field_name("superclasses")
                    .map(|list| {
                        code_children(list)
                            .into_iter()
                            .filter(|b| b.kind() != "keyword_argument")
                            .map(|b| compact(text_of(b, src)))
                            .collect()
                    })
                    .unwrap_or_default();
                found.opens = Some(name);
                Some(found)
            }
            "function_definition" => {
                let name = self.name_of(node, "name")?;
                let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
                let kind = match in_class {
                    true => SymbolKind::Method,
                    false => SymbolKind::Function,
                };
                let mut found = self.found(node, &name, kind);
                found.signature = signature(node, src, &body);
                found.doc = body.first().and_then(|b| super::python::docstring(*b, src));
                found.function = true;
                Some(found)
            }
            "expression_statement" if ctx.function.is_none() && (ctx.top || in_class) => {
                let assign = code_children(node)
                    .into_iter()
                    .find(|c| c.kind() == "assignment")?;
                let left = assign.child_by_field_name("left")?;
                (left.kind() == "identifier").then_some(())?;
                let name = text_of(left, src).to_string();
                let right = assign.child_by_field_name("right");
                let kind = match right {
                    _ if is_all_caps(&name) => SymbolKind::Constant,
                    Some(r) if super::python::is_type_value(r, src) => SymbolKind::TypeAlias,
                    _ => SymbolKind::Variable,
                };
                let mut found = self.found(node, &name, kind);
                found.signature = name.clone();
                found.value = Some(value_text(node, src));
                found.doc = comments_above(node, src);
                Some(found)
            }
            "type_alias_statement" if ctx.function.is_none() => {
                let left = node.child_by_field_name("left")?;
                let name = compact(text_of(left, src));
                let name = name.split('[').next().unwrap_or(&name).to_string();
                let mut found = self.found(node, &name, SymbolKind::TypeAlias);
                found.signature = name.clone();
                found.value = Some(value_text(node, src));
                found.doc = comments_above(node, src);
                Some(found)
            }
            _ => None,
        }
    }

    /// Go: functions, methods (members of their receiver's type), types, and the constants and
    /// variables declared outside functions.
    fn go<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let kind = match node.kind() {
            "function_declaration" => SymbolKind::Function,
            "method_declaration" => SymbolKind::Method,
            "type_spec" | "type_alias" => match node.child_by_field_name("type")?.kind() {
                "struct_type" => SymbolKind::Struct,
                "interface_type" => SymbolKind::Interface,
                _ => SymbolKind::TypeAlias,
            },
            "const_spec" if ctx.function.is_none() => SymbolKind::Constant,
            "var_spec" if ctx.function.is_none() => SymbolKind::Variable,
            _ => return None,
        };
        let name = self.name_of(node, "name")?;
        let mut found = self.found(node, &name, kind);
        // A spec's doc is its own, else its declaration's (`// Modes.` above `const ( … )`).
        let declaration = match node.kind() {
            "type_spec" | "type_alias" | "const_spec" | "var_spec" => node
                .parent()
                .filter(|p| p.kind() == "var_spec_list")
                .or_else(|| node.parent()),
            _ => None,
        };
        found.doc = super::go::doc_above(node, src)
            .or_else(|| declaration.and_then(|d| super::go::doc_above(d, src)));
        match kind {
            SymbolKind::Function | SymbolKind::Method => {
                let body = node.child_by_field_name("body");
                found.signature = super::go::signature(node, src, body);
                found.function = true;
                if kind == SymbolKind::Method {
                    let ty = super::go::receiver_type(node).map(|t| text_of(t, src).to_string());
                    found.container = Some(ty);
                }
            }
            _ => {
                found.signature = name.clone();
                found.value = Some(value_text(node, src));
                found.bases = super::go::embedded_types(node, src);
            }
        }
        Some(found)
    }

    fn java<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let body = node.child_by_field_name("body");
        let kind = match node.kind() {
            "class_declaration" | "record_declaration" => SymbolKind::Class,
            "interface_declaration" | "annotation_type_declaration" => SymbolKind::Interface,
            "enum_declaration" => SymbolKind::Enum,
            "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration"
            | "annotation_type_element_declaration" => SymbolKind::Method,
            "field_declaration" | "constant_declaration" if ctx.function.is_none() => {
                let declarator = node.child_by_field_name("declarator")?;
                let name = self.name_of(declarator, "name")?;
                let mut found = self.found(node, &name, SymbolKind::Variable);
                found.signature = super::java::declaration_signature(node, src, None);
                found.value = Some(value_text(node, src));
                found.doc = super::java::javadoc(node, src);
                return Some(found);
            }
            _ => return None,
        };
        let name = self.name_of(node, "name")?;
        let mut found = self.found(node, &name, kind);
        found.signature = super::java::declaration_signature(node, src, body);
        found.doc = super::java::javadoc(node, src);
        match kind {
            SymbolKind::Method => found.function = true,
            _ => {
                found.bases = super::calls::java_bases(node, src);
                found.opens = Some(name);
            }
        }
        Some(found)
    }

    fn rust<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let kind = match node.kind() {
            "function_item" | "function_signature_item" => match ctx.container {
                Some(_) if ctx.function.is_none() => SymbolKind::Method,
                _ => SymbolKind::Function,
            },
            "struct_item" => SymbolKind::Struct,
            "union_item" => SymbolKind::Struct,
            "enum_item" => SymbolKind::Enum,
            "trait_item" => SymbolKind::Trait,
            "type_item" => SymbolKind::TypeAlias,
            "associated_type" => SymbolKind::TypeAlias,
            "const_item" => SymbolKind::Constant,
            "static_item" => SymbolKind::Static,
            "macro_definition" => SymbolKind::Macro,
            _ => return None,
        };
        let name = self.name_of(node, "name")?;
        let name = name.strip_prefix("r#").unwrap_or(&name).to_string();
        let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
        let mut found = self.found(node, &name, kind);
        found.doc = leading_doc(node, src);
        match kind {
            SymbolKind::Function | SymbolKind::Method => {
                found.signature = signature(node, src, &body);
                found.function = node.kind() == "function_item";
            }
            SymbolKind::Trait => {
                found.signature = signature(node, src, &body);
                found.bases = node
                    .child_by_field_name("bounds")
                    .map(|bounds| {
                        code_children(bounds)
                            .into_iter()
                            .map(|b| final_name(b, src))
                            .filter(|b| b.starts_with(char::is_alphabetic))
                            .collect()
                    })
                    .unwrap_or_default();
                found.opens = Some(name);
            }
            SymbolKind::Struct | SymbolKind::Enum => {
                found.signature = signature(node, src, &body);
                found.value = Some(value_text(node, src));
            }
            SymbolKind::Macro => {
                found.signature = format!("macro_rules! {name}");
            }
            _ => {
                found.signature = signature(node, src, &[]);
                found.value = Some(value_text(node, src));
            }
        }
        Some(found)
    }

    fn javascript<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        match node.kind() {
            "function_declaration" | "generator_function_declaration" => {
                let name = self.name_of(node, "name")?;
                let mut found = self.js_function(node, node, &name, SymbolKind::Function);
                found.container = ctx.function.is_none().then_some(None);
                Some(found)
            }
            "class_declaration" | "abstract_class_declaration" | "class" => {
                let name = self
                    .name_of(node, "name")
                    .or_else(|| declared_name(node, src))?;
                let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
                let shown = statement_of(node);
                let mut found = self.found(node, &name, SymbolKind::Class);
                found.signature = signature(node, src, &body);
                found.doc = leading_doc(shown, src).or_else(|| leading_doc(node, src));
                found.bases = heritage(node, src);
                found.opens = Some(name);
                Some(found)
            }
            "interface_declaration" => {
                let name = self.name_of(node, "name")?;
                let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
                let mut found = self.found(node, &name, SymbolKind::Interface);
                found.signature = signature(node, src, &body);
                found.doc = leading_doc(statement_of(node), src);
                found.bases = heritage(node, src);
                found.opens = Some(name);
                Some(found)
            }
            "type_alias_declaration" | "enum_declaration" => {
                let name = self.name_of(node, "name")?;
                let kind = match node.kind() {
                    "enum_declaration" => SymbolKind::Enum,
                    _ => SymbolKind::TypeAlias,
                };
                let mut found = self.found(node, &name, kind);
                found.signature = name.clone();
                found.value = Some(value_text(statement_of(node), src));
                found.doc = leading_doc(statement_of(node), src);
                Some(found)
            }
            "method_definition" | "method_signature" | "abstract_method_signature" => {
                let name = self.name_of(node, "name")?;
                let kind = match ctx.container {
                    Some(_) => SymbolKind::Method,
                    None => SymbolKind::Function,
                };
                let mut found = self.js_function(node, node, &name, kind);
                found.function = node.kind() == "method_definition";
                Some(found)
            }
            "pair" => {
                let value = node.child_by_field_name("value")?;
                is_function(value).then_some(())?;
                let key = node.child_by_field_name("key")?;
                let name = text_of(key, src).trim_matches(['"', '\'']).to_string();
                Some(self.js_function(node, value, &name, SymbolKind::Function))
            }
            "variable_declarator" => {
                let name_node = node.child_by_field_name("name")?;
                (name_node.kind() == "identifier").then_some(())?;
                let name = text_of(name_node, src).to_string();
                let value = node.child_by_field_name("value");
                match value {
                    Some(v) if is_function(v) => {
                        let mut found = self.js_function(node, v, &name, SymbolKind::Function);
                        found.doc = leading_doc(declaration_of(node), src);
                        found.signature = declared_signature(node, v, src);
                        Some(found)
                    }
                    // `const Foo = class …` is the class's definition (visited next); a module
                    // bound to a name is no definition of this file.
                    Some(v) if v.kind() == "class" || is_required(v, src) => None,
                    _ if ctx.top && is_top_statement(declaration_of(node)) => {
                        let keyword = declaration_of(node)
                            .child(0)
                            .map(|k| text_of(k, src))
                            .unwrap_or("");
                        let kind = match keyword == "const" || is_all_caps(&name) {
                            true => SymbolKind::Constant,
                            false => SymbolKind::Variable,
                        };
                        let mut found = self.found(node, &name, kind);
                        found.signature = name.clone();
                        found.value = Some(value_text(declaration_of(node), src));
                        found.doc = leading_doc(declaration_of(node), src);
                        Some(found)
                    }
                    _ => None,
                }
            }
            "public_field_definition" | "field_definition" => {
                let name_node = node
                    .child_by_field_name("name")
                    .or_else(|| node.child_by_field_name("property"))?;
                let name = text_of(name_node, src).to_string();
                let value = node.child_by_field_name("value");
                match value {
                    Some(v) if is_function(v) => {
                        Some(self.js_function(node, v, &name, SymbolKind::Method))
                    }
                    _ => {
                        let mut found = self.found(node, &name, SymbolKind::Variable);
                        found.signature = signature(node, src, &[]);
                        found.doc = leading_doc(node, src);
                        Some(found)
                    }
                }
            }
            "assignment_expression" => self.js_assignment(node, ctx),
            "call_expression" => self.js_test_block(node),
            _ => None,
        }
    }

    /// A test file's `describe('title', …)` or `it('title', …)`: a definition named by its title's
    /// slug (`should_respond_with_html`), its cases nested in its suites
    /// (`res.format_obj.should_respond_with_html`), its header the call without the callback's
    /// body.
    fn js_test_block<'t>(&self, node: Node<'t>) -> Option<Found<'t>> {
        let block = super::suites::test_block(node, self.src)?;
        let name = super::suites::title_slug(&block.title);
        (!name.is_empty()).then_some(())?;
        let body: Vec<Node<'_>> = block.callback.into_iter().flat_map(function_body).collect();
        let mut found = self.found(node, &name, SymbolKind::Function);
        found.signature = signature(node, self.src, &body);
        found.doc = leading_doc(statement_of(node), self.src);
        found.function = true;
        Some(found)
    }

    /// `obj.prop = function …`, `app[method] = function …`, `exports.x = value` (at the top).
    fn js_assignment<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let left = node.child_by_field_name("left")?;
        let mut value = node.child_by_field_name("right")?;
        // `res.set = res.header = function …`: the first property names it.
        while value.kind() == "assignment_expression" {
            value = value.child_by_field_name("right")?;
        }
        let (name, container) = assigned_name(left, src)?;
        if is_function(value) {
            let mut found = self.js_function(node, value, &name, SymbolKind::Function);
            found.doc = leading_doc(statement_of(node), src);
            found.signature = signature(node, src, &function_body(value));
            // In a function, `this.x = function` or a local object's property is nested in it.
            if ctx.function.is_none() {
                found.container = Some(container);
            }
            return Some(found);
        }
        if value.kind() == "class"
            || is_required(value, src)
            || !(ctx.top && is_top_statement(statement_of(node)))
        {
            return None;
        }
        let mut found = self.found(statement_of(node), &name, SymbolKind::Variable);
        found.container = Some(container);
        found.signature = name.clone();
        found.value = Some(value_text(statement_of(node), src));
        found.doc = leading_doc(statement_of(node), src);
        Some(found)
    }

    /// A JavaScript function's definition: `node` is where it is defined, `function` the function
    /// itself (its body left out of the signature).
    fn js_function<'t>(
        &self,
        node: Node<'t>,
        function: Node<'t>,
        name: &str,
        kind: SymbolKind,
    ) -> Found<'t> {
        let mut found = self.found(node, name, kind);
        found.signature = signature(node, self.src, &function_body(function));
        found.doc =
            leading_doc(node, self.src).or_else(|| leading_doc(statement_of(node), self.src));
        found.function = true;
        found
    }
}

/// The body of a function node, as a list to leave out of its signature.
fn function_body(function: Node<'_>) -> Vec<Node<'_>> {
    function.child_by_field_name("body").into_iter().collect()
}

fn is_function(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "function_expression" | "function" | "arrow_function" | "generator_function"
    )
}

/// `require('x')`, `require('x').y`, `await import('x')`: a module, not a value of this file.
fn is_required(value: Node<'_>, src: &str) -> bool {
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

fn is_all_caps(name: &str) -> bool {
    name.chars().any(|c| c.is_alphabetic()) && !name.chars().any(|c| c.is_lowercase())
}

/// The statement a node is the expression of (an `expression_statement`, an `export`), else the
/// node.
fn statement_of(node: Node<'_>) -> Node<'_> {
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
fn declaration_of(declarator: Node<'_>) -> Node<'_> {
    let Some(declaration) = declarator.parent() else {
        return declarator;
    };
    match declaration.parent() {
        Some(export) if export.kind() == "export_statement" => export,
        _ => declaration,
    }
}

/// Whether a statement sits at the top of the program (or in an export there).
fn is_top_statement(statement: Node<'_>) -> bool {
    statement
        .parent()
        .is_some_and(|parent| parent.kind() == "program")
}

/// `const name = function (…)` without the body: the declaration's keyword and the declarator.
fn declared_signature(declarator: Node<'_>, function: Node<'_>, src: &str) -> String {
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
fn declared_name(class: Node<'_>, src: &str) -> Option<String> {
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
fn assigned_name(left: Node<'_>, src: &str) -> Option<(String, Option<String>)> {
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
pub(super) fn heritage(class: Node<'_>, src: &str) -> Vec<String> {
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
fn final_name(node: Node<'_>, src: &str) -> String {
    let text = compact(text_of(node, src));
    let text = text.split('<').next().unwrap_or(&text);
    let text = text.trim_start_matches(['&', '?', '(']);
    let text = text.strip_prefix("dyn").unwrap_or(text);
    text.rsplit("::").next().unwrap_or(text).to_string()
}

/// The `#` comment lines right above a Python statement (its doc, by convention).
fn comments_above(node: Node<'_>, src: &str) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut current = node.prev_sibling();
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
pub(super) fn value_text(node: Node<'_>, src: &str) -> String {
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
fn strip_indent(line: &str, indent: usize) -> &str {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    &line[spaces.min(indent)..]
}

#[cfg(test)]
mod tests {
    use super::super::SourceFile;
    use super::*;

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
