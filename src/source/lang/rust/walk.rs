//! The second pass over a Rust file: its imports (`use` leaves rebased out of inline modules, `mod`
//! declarations with their `#[path]`, `extern crate`), the names each of its module scopes binds
//! (what import resolution follows re-exports through), and the complexity signals. Item-level
//! macro calls whose body parses as Rust (`cfg_rt! { mod handle; }`, `cfg_if!` branches) are read
//! as items of the module they are in; in an `impl` or a trait, as its members (signals only).

use std::collections::HashSet;

use tree_sitter::Node;

use super::cfg::is_cfg_test;
use super::expand::macro_bodies;
use super::paths::{
    add_paths, attribute_paths, candidate, path_spec, token_paths, QualifiedPath, TokenPath,
};
use crate::source::interface::{Binding, BindingKind, Import, MacroScope, Namespace};
use crate::source::syntax::MAX_MACRO_DEPTH;
use crate::source::syntax::{
    code_children, compact, count_markers, line_of, text_of, walk, Extracted, Nesting,
};

/// `use` lists nested deeper than this are not expanded.
const MAX_USE_DEPTH: usize = 32;

/// Walk state: nesting, inline-module position and whether we are inside a `#[cfg(test)]` module.
#[derive(Clone, Copy, Default)]
struct State {
    nesting: Nesting,
    module: usize,
    module_depth: usize,
    test: bool,
    /// Item-level macro bodies read as items, around this node.
    macro_depth: usize,
    /// Inside a macro body read as members of an `impl` or a trait: no imports, no bindings.
    members: bool,
}

impl State {
    /// Whether `use`, `mod` and items here are the module's (not test-only, not members).
    fn names(&self) -> bool {
        !self.test && !self.members
    }
}

/// One full pass for imports, the module's bindings and signals.
pub(crate) fn walk_file(root: Node<'_>, src: &str, out: &mut Extracted) {
    let mut walker = FileWalk {
        src,
        line_offset: 0,
        // Paths of inline modules, indexed by `State::module` (0 is the file's own module).
        modules: vec![String::new()],
        paths: Vec::new(),
        macros: HashSet::new(),
        out,
    };
    walker.walk(root, State::default());
    let paths = std::mem::take(&mut walker.paths);
    add_paths(paths, &mut out.imports);
}

/// The pass over one syntax tree: the file's, or the items of a macro call inside it.
struct FileWalk<'s, 'o> {
    src: &'s str,
    /// Lines before the start of `src` in the file (for a macro body).
    line_offset: usize,
    modules: Vec<String>,
    /// Paths written in code that may name another crate (`ignore::WalkBuilder::new`).
    paths: Vec<QualifiedPath>,
    /// The `macro_rules!` macros defined so far: a bare call of one is the file's own.
    macros: HashSet<String>,
    out: &'o mut Extracted,
}

impl FileWalk<'_, '_> {
    fn walk(&mut self, root: Node<'_>, init: State) {
        walk(root, init, |node, state| self.visit(node, state));
    }

    fn line(&self, node: Node<'_>) -> usize {
        line_of(node) + self.line_offset
    }

    fn visit(&mut self, node: Node<'_>, state: State) -> Option<State> {
        match node.kind() {
            "line_comment" | "block_comment" => {
                self.out.signals.todo_markers += count_markers(text_of(node, self.src));
                None
            }
            "use_declaration" => {
                self.use_declaration(node, state);
                None
            }
            "extern_crate_declaration" => {
                self.extern_crate(node, state);
                None
            }
            "mod_item" => self.mod_item(node, state),
            "scoped_identifier" | "scoped_type_identifier" => {
                if let Some(spec) = candidate(node, self.src) {
                    let line = self.line(node);
                    self.path(spec, line, state, Namespace::Item);
                }
                None
            }
            "attribute" => {
                self.attribute(node, state);
                None
            }
            "macro_invocation" if is_item_level(node) => {
                let items = State {
                    test: state.test || preceded_by_cfg_test(node, self.src),
                    ..state
                };
                self.macro_name(node, items);
                self.macro_items(node, items)
            }
            "macro_invocation" if is_member_level(node) => {
                let members = State {
                    members: true,
                    ..state
                };
                self.macro_name(node, state);
                self.macro_items(node, members)
            }
            // A macro call in an expression or a statement (`assert!(crate::x::f())`,
            // `tokio::select! { … }`): the paths among its tokens, and its own path.
            "macro_invocation" => {
                self.macro_name(node, state);
                let tokens = code_children(node)
                    .into_iter()
                    .filter(|child| child.kind() == "token_tree");
                for tokens in tokens {
                    for path in token_paths(tokens, self.src) {
                        self.token_path(path, state);
                    }
                }
                None
            }
            "macro_definition" => {
                self.macro_definition(node, state);
                Some(state)
            }
            "unsafe_block" => {
                self.out.signals.unsafe_blocks += 1;
                Some(state)
            }
            "function_item" | "struct_item" | "enum_item" | "union_item" | "trait_item"
            | "type_item" | "const_item" | "static_item" => {
                self.bind_item(node, state);
                match node.kind() {
                    "function_item" => Some(State {
                        nesting: state.nesting.function(true),
                        ..state
                    }),
                    _ => Some(state),
                }
            }
            "closure_expression" => Some(State {
                nesting: state.nesting.function(false),
                ..state
            }),
            "block" => Some(State {
                nesting: state.nesting.block(&mut self.out.signals),
                ..state
            }),
            _ => Some(state),
        }
    }

    /// A path written in code (an expression, a type, an attribute, a macro's tokens): a dependency
    /// of the module it is in (a `crate::`/`self::`/`super::` path rebased out of inline modules),
    /// unless it sits in test-only code.
    fn path(&mut self, spec: String, line: usize, state: State, namespace: Namespace) {
        if state.test {
            return;
        }
        if let Some(spec) = rebase(&spec, state.module_depth) {
            self.paths.push(QualifiedPath {
                spec,
                line,
                namespace,
            });
        }
    }

    /// A path among tokens: a path written in code, or a bare name used as a macro (called, or
    /// derived).
    fn token_path(&mut self, path: TokenPath, state: State) {
        let line = path.row + 1 + self.line_offset;
        match path.bare {
            true => self.bare_macro(&path.text, line, state),
            false => {
                if let Some(spec) = path_spec(&path.text) {
                    self.path(spec, line, state, path.namespace);
                }
            }
        }
    }

    /// A macro named by one identifier (`debug!(…)`, `#[derive(Parser)]`): unless the file
    /// defined a `macro_rules!` of that name before, an import `macro:name` — looked up in the
    /// textual macro scope of the module (`resolve`), and telling which names the file uses as
    /// macros (a `use` of a name bound as a macro and an item counts the macro only then).
    fn bare_macro(&mut self, name: &str, line: usize, state: State) {
        let name = unraw(name);
        if state.test || name.is_empty() || self.macros.contains(&name) {
            return;
        }
        self.out.imports.add_import(Import {
            spec: format!("macro:{name}"),
            line,
            namespace: Namespace::Macro,
            ..Import::default()
        });
    }

    /// The macro a call names: a bare one, or a path (`clap::arg!`) in the macro namespace.
    fn macro_name(&mut self, call: Node<'_>, state: State) {
        let Some(name) = call.child_by_field_name("macro") else {
            return;
        };
        let line = self.line(call);
        match name.kind() {
            "identifier" => self.bare_macro(text_of(name, self.src), line, state),
            _ => {
                if let Some(spec) = candidate(name, self.src) {
                    self.path(spec, line, state, Namespace::Macro);
                }
            }
        }
    }

    /// An attribute: its path (`#[tokio::main]`, a macro), the paths among its arguments
    /// (`#[arg(action = clap::ArgAction::Count)]`, the derives of `#[derive(…)]`), its value.
    fn attribute(&mut self, node: Node<'_>, state: State) {
        let Some(path) = node.named_child(0) else {
            return;
        };
        let name = compact(text_of(path, self.src));
        if let Some(spec) = candidate(path, self.src) {
            let line = self.line(node);
            self.path(spec, line, state, Namespace::Macro);
        }
        if let Some(arguments) = node.child_by_field_name("arguments") {
            for path in attribute_paths(&name, arguments, self.src) {
                self.token_path(path, state);
            }
            // Comments among the arguments (`#[cfg(all(…, // FIXME …))]`) still count.
            let src = self.src;
            let signals = &mut self.out.signals;
            walk(arguments, (), |token, ()| match token.kind() {
                "line_comment" | "block_comment" => {
                    signals.todo_markers += count_markers(text_of(token, src));
                    None
                }
                _ => Some(()),
            });
        }
        if let Some(value) = node.child_by_field_name("value") {
            self.walk(value, state);
        }
    }

    /// `macro_rules! name`: the file's own from here on; at item level, a step of the module's
    /// textual macro scope and a name bound in the macro namespace.
    fn macro_definition(&mut self, node: Node<'_>, state: State) {
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let name = unraw(text_of(name, self.src));
        self.macros.insert(name.clone());
        if !is_item_level(node) || !state.names() {
            return;
        }
        let scope = self.modules.get(state.module).cloned().unwrap_or_default();
        self.out.macro_scope.push(MacroScope::Defined {
            scope,
            name: name.clone(),
        });
        self.bind(state, BindingKind::Macro(name));
    }

    /// `use` leaves become imports (rebased out of inline modules) and, at file level, bindings.
    fn use_declaration(&mut self, node: Node<'_>, state: State) {
        if !state.names() || preceded_by_cfg_test(node, self.src) {
            return;
        }
        let Some(argument) = node.child_by_field_name("argument") else {
            return;
        };
        let mut leaves = Vec::new();
        use_leaves(argument, self.src, "", &mut leaves, 0);
        for leaf in leaves {
            if let Some(spec) = rebase(&leaf.path, state.module_depth) {
                self.out.imports.add(spec, self.line(node));
            }
            self.bind(state, leaf.binding());
        }
    }

    /// `extern crate name [as alias];`
    fn extern_crate(&mut self, node: Node<'_>, state: State) {
        let name = node
            .child_by_field_name("name")
            .map(|n| unraw(text_of(n, self.src)));
        let Some(name) = name.filter(|_| state.names()) else {
            return;
        };
        let alias = node
            .child_by_field_name("alias")
            .map(|n| unraw(text_of(n, self.src)));
        if has_attribute(node, self.src, "#[macro_use") {
            self.out.macro_scope.push(MacroScope::Crate(name.clone()));
        }
        // `pub extern crate grep_cli as cli;` makes `this_crate::cli::…` a path into it.
        self.bind(
            state,
            BindingKind::Alias {
                name: alias.clone().unwrap_or_else(|| name.clone()),
                path: format!("::{name}"),
            },
        );
        self.out.imports.add_import(Import {
            spec: format!("extern:{name}"),
            line: self.line(node),
            names: alias.into_iter().collect(),
            ..Import::default()
        });
    }

    /// `mod name;` is an import of the module's file; `mod name { … }` opens an inline module.
    fn mod_item(&mut self, node: Node<'_>, state: State) -> Option<State> {
        if state.members {
            return None;
        }
        let name = node
            .child_by_field_name("name")
            .map(|n| unraw(text_of(n, self.src)))
            .unwrap_or_default();
        let current = self.modules.get(state.module).cloned().unwrap_or_default();
        let path = if current.is_empty() {
            name.clone()
        } else {
            format!("{current}::{name}")
        };
        if !name.is_empty() {
            self.bind(state, BindingKind::Item(name.clone()));
        }
        if node.child_by_field_name("body").is_none() {
            // `#[cfg(test)] mod tests;` is test-only, like an inline test module.
            let test_only = state.test || preceded_by_cfg_test(node, self.src);
            if !test_only && !name.is_empty() {
                self.out.macro_scope.push(MacroScope::Module {
                    path: path.clone(),
                    macro_use: has_attribute(node, self.src, "#[macro_use]"),
                });
                self.out.imports.add_import(Import {
                    spec: format!("mod:{path}"),
                    line: self.line(node),
                    path: path_attribute(node, self.src),
                    ..Import::default()
                });
            }
            return None;
        }
        self.modules.push(path);
        Some(State {
            module: self.modules.len() - 1,
            module_depth: state.module_depth + 1,
            test: state.test || preceded_by_cfg_test(node, self.src),
            ..state
        })
    }

    /// An item binds its name in the module (or inline module) it is declared in; a proc-macro
    /// function binds the macro it defines (`#[proc_macro_derive(Parser, …)] fn parser`: `Parser`).
    fn bind_item(&mut self, node: Node<'_>, state: State) {
        if !is_item_level(node) {
            return;
        }
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let name = unraw(text_of(name, self.src));
        if node.kind() == "function_item" {
            for attr in preceding_attributes(node, self.src) {
                if let Some(derive) = attr.strip_prefix("#[proc_macro_derive(") {
                    let derive = derive.split([',', ')']).next().unwrap_or_default();
                    if !derive.is_empty() {
                        self.bind(state, BindingKind::Macro(unraw(derive)));
                    }
                } else if attr == "#[proc_macro]" || attr == "#[proc_macro_attribute]" {
                    self.bind(state, BindingKind::Macro(name.clone()));
                }
            }
        }
        self.bind(state, BindingKind::Item(name));
    }

    /// Record a binding in the scope `state` is in (nothing inside `#[cfg(test)]` modules).
    fn bind(&mut self, state: State, kind: BindingKind) {
        if !state.names() {
            return;
        }
        let scope = self.modules.get(state.module).cloned().unwrap_or_default();
        self.out.bindings.push(Binding { scope, kind });
    }

    /// An item-level macro call (`cfg_rt! { mod handle; pub use handle::Handle; }`): its bodies are
    /// read as items, in the same module, when they parse as Rust. Otherwise the walk goes on into
    /// the call's tokens (for the comments among them).
    fn macro_items(&mut self, node: Node<'_>, state: State) -> Option<State> {
        if state.macro_depth >= MAX_MACRO_DEPTH {
            return Some(state);
        }
        let bodies = macro_bodies(node, self.src);
        if bodies.is_empty() {
            return Some(state);
        }
        for body in bodies {
            let mut inner = FileWalk {
                src: &body.text,
                line_offset: self.line_offset + body.row,
                modules: std::mem::take(&mut self.modules),
                paths: std::mem::take(&mut self.paths),
                macros: std::mem::take(&mut self.macros),
                out: &mut *self.out,
            };
            inner.walk(
                body.root(),
                State {
                    macro_depth: state.macro_depth + 1,
                    ..state
                },
            );
            self.modules = inner.modules;
            self.paths = inner.paths;
            self.macros = inner.macros;
        }
        None
    }
}

/// Whether `node` sits where an `impl`'s or a trait's members do.
fn is_member_level(node: Node<'_>) -> bool {
    node.parent().is_some_and(|parent| {
        parent.kind() == "declaration_list"
            && parent
                .parent()
                .is_some_and(|p| matches!(p.kind(), "impl_item" | "trait_item"))
    })
}

/// Whether `node` sits where items do: in the file or an inline module's body (not an `impl` or a
/// trait).
fn is_item_level(node: Node<'_>) -> bool {
    node.parent().is_some_and(|parent| match parent.kind() {
        "source_file" => true,
        "declaration_list" => parent.parent().is_some_and(|p| p.kind() == "mod_item"),
        _ => false,
    })
}

/// `#[path = "…"]` among the attributes directly before `node`.
fn path_attribute(node: Node<'_>, src: &str) -> Option<String> {
    let mut prev = node.prev_sibling();
    while let Some(p) = prev {
        if p.kind() == "attribute_item" {
            let text = compact(text_of(p, src));
            if let Some(rest) = text.strip_prefix("#[path") {
                let value = rest.split('"').nth(1)?;
                return Some(value.to_string());
            }
        } else if !p.is_extra() {
            break;
        }
        prev = p.prev_sibling();
    }
    None
}

/// An identifier without its raw prefix (`r#type` → `type`).
fn unraw(name: &str) -> String {
    name.strip_prefix("r#").unwrap_or(name).to_string()
}

/// The attributes directly before `node`, whitespace removed, nearest first.
fn preceding_attributes(node: Node<'_>, src: &str) -> Vec<String> {
    let mut attrs = Vec::new();
    let mut prev = node.prev_sibling();
    while let Some(p) = prev {
        if p.kind() == "attribute_item" {
            attrs.push(compact(text_of(p, src)));
        } else if !p.is_extra() {
            break;
        }
        prev = p.prev_sibling();
    }
    attrs
}

/// Whether the attributes directly before `node` include `#[cfg(test)]`.
fn preceded_by_cfg_test(node: Node<'_>, src: &str) -> bool {
    is_cfg_test(&preceding_attributes(node, src))
}

/// Whether an attribute directly before `node` starts with `prefix` (`#[macro_use]`).
fn has_attribute(node: Node<'_>, src: &str, prefix: &str) -> bool {
    preceding_attributes(node, src)
        .iter()
        .any(|attr| attr.starts_with(prefix))
}

/// Re-express a `use` path written inside `depth` inline modules relative to the file's module.
/// Paths that point inside the inline module itself are dropped.
fn rebase(path: &str, depth: usize) -> Option<String> {
    if depth == 0 {
        return Some(path.to_string());
    }
    let segments: Vec<&str> = path.split("::").collect();
    match segments.first() {
        Some(&"self") => None,
        Some(&"super") => {
            let supers = segments.iter().take_while(|s| **s == "super").count();
            if supers < depth {
                return None;
            }
            let rest = &segments[supers..];
            let mut parts: Vec<&str> = vec!["super"; supers - depth];
            if parts.is_empty() {
                parts.push("self");
            }
            parts.extend_from_slice(rest);
            Some(parts.join("::"))
        }
        _ => Some(path.to_string()),
    }
}

fn join_path(prefix: &str, segment: &str) -> String {
    if prefix.is_empty() {
        segment.to_string()
    } else if segment.is_empty() || segment == "self" {
        prefix.to_string()
    } else {
        format!("{prefix}::{segment}")
    }
}

/// One leaf of a `use` tree: `a::b as c`, `a::{b, c::*}` → `a::b`, `a::c::*`.
struct UseLeaf {
    /// The full path (for a glob, the module's path without `::*`); raw prefixes removed.
    path: String,
    alias: Option<String>,
    glob: bool,
}

impl UseLeaf {
    /// What the leaf binds in the module.
    fn binding(&self) -> BindingKind {
        if self.glob {
            return BindingKind::Glob(self.path.clone());
        }
        let last = self
            .path
            .rsplit("::")
            .next()
            .unwrap_or(&self.path)
            .to_string();
        BindingKind::Alias {
            name: self.alias.clone().unwrap_or(last),
            path: self.path.clone(),
        }
    }
}

/// Expand a `use` argument into its leaves.
fn use_leaves(node: Node<'_>, src: &str, prefix: &str, out: &mut Vec<UseLeaf>, depth: usize) {
    if depth > MAX_USE_DEPTH {
        return;
    }
    let path_text = |n: Node<'_>| {
        compact(text_of(n, src))
            .split("::")
            .map(|segment| segment.strip_prefix("r#").unwrap_or(segment))
            .collect::<Vec<_>>()
            .join("::")
    };
    match node.kind() {
        "use_as_clause" => {
            let before = out.len();
            if let Some(path) = node.child_by_field_name("path") {
                use_leaves(path, src, prefix, out, depth + 1);
            }
            let alias = node
                .child_by_field_name("alias")
                .map(|a| unraw(text_of(a, src)));
            if out.len() > before {
                if let Some(leaf) = out.last_mut() {
                    leaf.alias = alias.filter(|a| a != "_");
                }
            }
        }
        "use_wildcard" => {
            let path = code_children(node)
                .first()
                .map(|p| path_text(*p))
                .unwrap_or_default();
            out.push(UseLeaf {
                path: join_path(prefix, &path),
                alias: None,
                glob: true,
            });
        }
        "scoped_use_list" => {
            let path = node
                .child_by_field_name("path")
                .map(path_text)
                .unwrap_or_default();
            let inner = join_path(prefix, &path);
            if let Some(list) = node.child_by_field_name("list") {
                use_leaves(list, src, &inner, out, depth + 1);
            }
        }
        "use_list" => {
            for item in code_children(node) {
                use_leaves(item, src, prefix, out, depth + 1);
            }
        }
        "ERROR" => {}
        _ => {
            let text = path_text(node);
            if !text.is_empty() {
                out.push(UseLeaf {
                    path: join_path(prefix, &text),
                    alias: None,
                    glob: false,
                });
            }
        }
    }
}
