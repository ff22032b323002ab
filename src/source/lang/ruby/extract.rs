//! Ruby extraction: the public interface of a file — its classes and modules (a module reopened in
//! several files is in each), their public methods, singleton methods (`def self.x`, `class <<
//! self`), attributes (`attr_reader`, `attr_writer`, `attr_accessor`) and constants, and a file's
//! top-level `def`s — each with the YARD/RDoc comment right above it (`#` lines, `=begin`/`=end`).
//!
//! Visibility follows Ruby's rules in a class or module body: a bare `private`/`protected` makes
//! the methods after it hidden until a `public`; `private :a, :b`, `protected :a`,
//! `private_class_method :a` and `private def x` hide the methods they name; `private_constant :A`
//! hides a constant; `module_function` (bare or with names) makes methods the module's own, shown
//! as `def self.x`.
//!
//! Imports are kept as written, one [`Import`] each: `require 'a/b'` and `autoload :B, 'a/b'` as
//! `a/b`, `require_relative 'b'` as `./b` (`../b` as written), `require File.expand_path('b',
//! __dir__)` as `./b`. One more entry, [`CONSTANTS_SPEC`],
//! names the constants the file references, each as `nesting>path`: the lexical nesting where it is
//! referenced, innermost first and comma-separated (`Rack::Request,Rack`), then the path as written
//! (`Utils`, `Rack::Utils`, `::Foo`) — what `source::lang::ruby::resolve` looks up as Ruby does.

use std::collections::{BTreeMap, BTreeSet};

use tree_sitter::Node;

use crate::source::interface::{Import, SymbolKind};
use crate::source::syntax::{code_children, compact, count_markers, finish_doc, line_of, text_of};
use crate::source::syntax::{walk, Builder, Extracted, Nesting};

/// The spec of the entry naming the constants a file references.
pub const CONSTANTS_SPEC: &str = "constants";

/// The methods whose name and literal argument load a file: `require`, `require_relative`,
/// `autoload` (its second argument), `load`.
const LOADERS: &[&str] = &["require", "require_relative", "autoload", "load"];

/// Extract the interface parts of a Ruby syntax tree.
pub(crate) fn extract(root: Node<'_>, src: &str) -> Extracted {
    let mut out = Extracted::default();
    let mut item_docs = Vec::new();
    {
        let mut members = Members {
            src,
            b: &mut out.builder,
            item_docs: &mut item_docs,
        };
        members.body(root, &Context::default(), 0);
    }
    out.item_docs = item_docs;
    // No primary: the type a file is named for (`archivist::describe`) is found by its path.
    out.doc = file_doc(root, src);
    walk_file(root, src, &mut out);
    out
}

/// Where a declaration sits: the lexical nesting (full constant names, innermost last) and the
/// class or module whose members it declares.
#[derive(Clone, Default)]
pub(crate) struct Context {
    pub nesting: Vec<String>,
    pub owner: Option<String>,
}

impl Context {
    /// The context inside a class or module named `written` (`Request`, `Rack::Request`, `::A`):
    /// its full name is the innermost nesting's and the written path (a leading `::` is the top
    /// level), and a compact name (`class A::B`) adds one entry, as `Module.nesting` shows.
    pub fn enter(&self, written: &str) -> Context {
        let full = full_name(self.nesting.last().map(String::as_str), written);
        let mut nesting = self.nesting.clone();
        nesting.push(full);
        Context {
            nesting,
            owner: Some(simple_name(written).to_string()),
        }
    }

    /// The innermost nesting's full name (`""` at the top level).
    pub fn innermost(&self) -> &str {
        self.nesting.last().map_or("", String::as_str)
    }
}

/// `outer::written`, or `written` without its `::` at the top level or when written from `::`.
pub fn full_name(outer: Option<&str>, written: &str) -> String {
    let written = compact(written);
    match (written.strip_prefix("::"), outer) {
        (Some(top), _) => top.to_string(),
        (None, Some(outer)) if !outer.is_empty() => format!("{outer}::{written}"),
        (None, _) => written,
    }
}

/// The last segment of a constant path (`Request` of `Rack::Request`).
pub fn simple_name(path: &str) -> &str {
    path.rsplit("::").next().unwrap_or(path).trim()
}

/// A method's visibility.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Visibility {
    Public,
    Hidden,
    /// `module_function`: the module's own method (public), its instance copy private.
    ModuleFunction,
}

/// What a body's visibility calls say of the names they list (`private :a`), read before its
/// declarations are: a name listed anywhere in the body is hidden wherever it is defined.
#[derive(Default)]
struct Listed {
    methods: BTreeMap<String, Visibility>,
    singleton_hidden: BTreeSet<String>,
    constants_hidden: BTreeSet<String>,
}

/// A call's method name and receiver-less-ness: `private` of `private :a`.
fn call_name<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    if node.kind() != "call" || node.child_by_field_name("receiver").is_some() {
        return None;
    }
    Some(text_of(node.child_by_field_name("method")?, src))
}

/// A call's arguments.
fn arguments(call: Node<'_>) -> Vec<Node<'_>> {
    call.child_by_field_name("arguments")
        .map(code_children)
        .unwrap_or_default()
}

/// The name a symbol or string argument gives (`a` of `:a`, `"a"`, `'a'`), `None` for anything
/// else.
pub(crate) fn literal_name<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    match node.kind() {
        "simple_symbol" => Some(text_of(node, src).trim_start_matches(':')),
        "string" | "delimited_symbol" => {
            let parts = code_children(node);
            match parts.as_slice() {
                [content] if content.kind() == "string_content" => Some(text_of(*content, src)),
                [] => Some(""),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The visibility words of a body and the names they list.
fn listed(body: &[Node<'_>], src: &str) -> Listed {
    let mut listed = Listed::default();
    for statement in body {
        let Some(name) = call_name(*statement, src) else {
            continue;
        };
        let names: Vec<&str> = arguments(*statement)
            .into_iter()
            .filter_map(|a| literal_name(a, src))
            .collect();
        for listed_name in names {
            let name_owned = listed_name.to_string();
            match name {
                "private" | "protected" => {
                    listed.methods.insert(name_owned, Visibility::Hidden);
                }
                "public" => {
                    listed.methods.insert(name_owned, Visibility::Public);
                }
                "module_function" => {
                    listed
                        .methods
                        .insert(name_owned, Visibility::ModuleFunction);
                }
                "private_class_method" => {
                    listed.singleton_hidden.insert(name_owned);
                }
                "private_constant" => {
                    listed.constants_hidden.insert(name_owned);
                }
                _ => {}
            }
        }
    }
    listed
}

/// Collects the public declarations and their members.
struct Members<'s, 'b> {
    src: &'s str,
    b: &'b mut Builder,
    item_docs: &'b mut Vec<(String, String)>,
}

impl Members<'_, '_> {
    /// The statements of a class, module or program body, at `depth`.
    fn body(&mut self, node: Node<'_>, context: &Context, depth: usize) {
        let statements: Vec<Node<'_>> = match node.kind() {
            "body_statement" | "program" => code_children(node),
            _ => Vec::new(),
        };
        let listed = listed(&statements, self.src);
        let mut section = Visibility::Public;
        for statement in statements {
            self.statement(statement, context, depth, &listed, &mut section, false);
        }
    }

    /// One statement of a body: a declaration, a visibility word, `private def x`, an attribute.
    fn statement(
        &mut self,
        node: Node<'_>,
        context: &Context,
        depth: usize,
        listed: &Listed,
        section: &mut Visibility,
        singleton: bool,
    ) {
        let src = self.src;
        match node.kind() {
            "identifier" => match text_of(node, src) {
                "private" | "protected" => *section = Visibility::Hidden,
                "public" => *section = Visibility::Public,
                "module_function" => *section = Visibility::ModuleFunction,
                _ => {}
            },
            "class" | "module" => self.container(node, context, depth),
            "singleton_class" => {
                let statements: Vec<Node<'_>> = node
                    .child_by_field_name("body")
                    .map(code_children)
                    .unwrap_or_default();
                let inner = self::listed(&statements, src);
                let mut inner_section = Visibility::Public;
                for statement in statements {
                    self.statement(statement, context, depth, &inner, &mut inner_section, true);
                }
            }
            "method" => {
                let visibility = listed
                    .methods
                    .get(method_name(node, src).unwrap_or_default())
                    .copied()
                    .unwrap_or(*section);
                self.method(node, context, depth, visibility, singleton);
            }
            "singleton_method" => {
                let name = method_name(node, src).unwrap_or_default();
                if !listed.singleton_hidden.contains(name) {
                    self.method(node, context, depth, Visibility::Public, true);
                }
            }
            "assignment" => self.constant(node, context, depth, listed),
            "call" => self.call(node, context, depth, section, singleton),
            _ => {}
        }
    }

    /// `private def x`, `attr_reader :a`, and the calls that take a block or nothing else.
    fn call(
        &mut self,
        node: Node<'_>,
        context: &Context,
        depth: usize,
        section: &Visibility,
        singleton: bool,
    ) {
        let src = self.src;
        let Some(name) = call_name(node, src) else {
            return;
        };
        let args = arguments(node);
        match name {
            "private" | "protected" | "public" | "module_function" | "private_class_method" => {
                let visibility = match name {
                    "public" => Visibility::Public,
                    "module_function" => Visibility::ModuleFunction,
                    _ => Visibility::Hidden,
                };
                for arg in args {
                    match arg.kind() {
                        "method" => self.method(arg, context, depth, visibility, singleton),
                        "singleton_method" if visibility != Visibility::Hidden => {
                            self.method(arg, context, depth, Visibility::Public, true)
                        }
                        _ => {}
                    }
                }
            }
            "attr_reader" | "attr_writer" | "attr_accessor" | "attr"
                if context.owner.is_some() && *section == Visibility::Public =>
            {
                for arg in args {
                    if let Some(attribute) = literal_name(arg, src) {
                        self.b.add_documented(
                            depth,
                            SymbolKind::Variable,
                            attribute,
                            context.owner.as_deref(),
                            (format!("{name} :{attribute}"), ruby_doc(node, src)),
                        );
                    }
                }
            }
            _ => {}
        }
    }

    /// A class or module and its members.
    fn container(&mut self, node: Node<'_>, context: &Context, depth: usize) {
        let src = self.src;
        let Some(name_node) = node.child_by_field_name("name") else {
            return;
        };
        let written = compact(text_of(name_node, src));
        let inner = context.enter(&written);
        let name = simple_name(&written).to_string();
        let kind = match node.kind() {
            "module" => SymbolKind::Module,
            _ => SymbolKind::Class,
        };
        let signature = container_signature(node, src);
        let doc = ruby_doc(node, src);
        if let Some(doc) = &doc {
            self.item_docs.push((name.clone(), doc.clone()));
        }
        self.b.add_documented(
            depth,
            kind,
            &name,
            context.owner.as_deref(),
            (signature, doc),
        );
        if let Some(body) = node.child_by_field_name("body") {
            self.body(body, &inner, depth + 1);
        }
    }

    /// A method, shown when `visibility` lets it.
    fn method(
        &mut self,
        node: Node<'_>,
        context: &Context,
        depth: usize,
        visibility: Visibility,
        singleton: bool,
    ) {
        let src = self.src;
        let Some(name) = method_name(node, src) else {
            return;
        };
        let own = node.kind() == "singleton_method" || singleton;
        let (shown_singleton, public) = match visibility {
            Visibility::Public => (own, true),
            Visibility::ModuleFunction => (true, true),
            Visibility::Hidden => (own, false),
        };
        if !public {
            return;
        }
        let kind = match context.owner {
            Some(_) => SymbolKind::Method,
            None => SymbolKind::Function,
        };
        let signature = method_signature(node, src, shown_singleton);
        self.b.add_documented(
            depth,
            kind,
            name,
            context.owner.as_deref(),
            (signature, ruby_doc(node, src)),
        );
    }

    /// `NAME = value` in a class or module (or at the top level): a constant unless
    /// `private_constant` hides it.
    fn constant(&mut self, node: Node<'_>, context: &Context, depth: usize, listed: &Listed) {
        let src = self.src;
        let Some(left) = node.child_by_field_name("left") else {
            return;
        };
        if left.kind() != "constant" {
            return;
        }
        let name = text_of(left, src);
        if listed.constants_hidden.contains(name) {
            return;
        }
        self.b.add_documented(
            depth,
            SymbolKind::Constant,
            name,
            context.owner.as_deref(),
            (name.to_string(), ruby_doc(node, src)),
        );
    }
}

/// A method's name (`call`, `[]`, `name=`, `empty?`).
pub(crate) fn method_name<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    node.child_by_field_name("name").map(|n| text_of(n, src))
}

/// `def name(params)`, `def self.name(params)` for a singleton method or a module function.
pub(crate) fn method_signature(node: Node<'_>, src: &str, singleton: bool) -> String {
    let name = method_name(node, src).unwrap_or_default();
    let parameters = node
        .child_by_field_name("parameters")
        .map(|p| {
            text_of(p, src)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default();
    let parameters = match parameters.starts_with('(') || parameters.is_empty() {
        true => parameters,
        false => format!("({parameters})"),
    };
    match singleton {
        true => format!("def self.{name}{parameters}"),
        false => format!("def {name}{parameters}"),
    }
}

/// `class Name < Base` or `module Name`: the text before its body.
pub(crate) fn container_signature(node: Node<'_>, src: &str) -> String {
    let keyword = match node.kind() {
        "module" => "module",
        _ => "class",
    };
    let name = node
        .child_by_field_name("name")
        .map(|n| compact(text_of(n, src)))
        .unwrap_or_default();
    match node
        .child_by_field_name("superclass")
        .and_then(crate::source::raises::first_named)
    {
        Some(base) => format!("{keyword} {name} < {}", compact(text_of(base, src))),
        None => format!("{keyword} {name}"),
    }
}

/// Whether a comment is no documentation: a magic comment (`# frozen_string_literal: true`,
/// `# encoding: utf-8`, `# -*- coding -*-`), a RuboCop directive, a shebang.
fn is_directive(text: &str) -> bool {
    let body = text.trim_start_matches('#').trim().to_ascii_lowercase();
    text.starts_with("#!")
        || body.starts_with("frozen_string_literal:")
        || body.starts_with("encoding:")
        || body.starts_with("coding:")
        || body.starts_with("-*-")
        || body.starts_with("rubocop:")
        || body.starts_with("typed:")
        || body.starts_with("warn_indent:")
}

/// A comment's lines without their markers: `# text` as `text`, `=begin … =end` as its inner lines;
/// RDoc's `#--` … `#++` (hidden from the docs) left out.
fn comment_lines(text: &str, hidden: &mut bool, out: &mut Vec<String>) {
    if text.starts_with("=begin") {
        out.extend(
            text.lines()
                .filter(|line| !line.starts_with("=begin") && !line.starts_with("=end"))
                .map(str::to_string),
        );
        return;
    }
    let body = text.strip_prefix('#').unwrap_or(text);
    match body.trim_end() {
        "--" => *hidden = true,
        "++" => *hidden = false,
        _ if *hidden => {}
        _ => {
            let line = body.strip_prefix(' ').unwrap_or(body);
            // An RDoc heading (`= Sinatra::Namespace`, `== Usage`) titles what follows.
            if !line.starts_with('=') {
                out.push(rdoc_markup(line));
            }
        }
    }
}

/// A line of RDoc with its code markup as Markdown: `<tt>x</tt>`, `<code>x</code>` and `+x+` (a
/// word) as `` `x` ``.
fn rdoc_markup(line: &str) -> String {
    let line = line
        .replace("<tt>", "`")
        .replace("</tt>", "`")
        .replace("<code>", "`")
        .replace("</code>", "`");
    let mut out = String::with_capacity(line.len());
    let mut rest = line.as_str();
    while let Some(start) = rest.find('+') {
        let (before, after) = rest.split_at(start);
        out.push_str(before);
        let inner = &after[1..];
        let word_end = inner
            .find(|c: char| {
                !(c.is_alphanumeric() || matches!(c, '_' | '.' | ':' | '#' | '?' | '!'))
            })
            .unwrap_or(inner.len());
        let opens = before.is_empty() || before.ends_with(|c: char| !c.is_alphanumeric());
        if opens && word_end > 0 && inner[word_end..].starts_with('+') {
            out.push('`');
            out.push_str(&inner[..word_end]);
            out.push('`');
            rest = &inner[word_end + 1..];
        } else {
            out.push('+');
            rest = inner;
        }
    }
    out.push_str(rest);
    out
}

/// The comment right above `node` (at most one blank line between), read as text; `None` when there is
/// none or it holds only directives.
pub(crate) fn ruby_doc(node: Node<'_>, src: &str) -> Option<String> {
    let mut comments: Vec<&str> = Vec::new();
    let mut row = node.start_position().row;
    // The first statement of a body: the comments above it are the class's or module's children,
    // before its body.
    let mut current = node.prev_sibling().or_else(|| {
        node.parent()
            .filter(|p| p.kind() == "body_statement")
            .and_then(|p| p.prev_sibling())
    });
    while let Some(sibling) = current {
        // One blank line may separate a comment from what it documents (rack's style).
        if sibling.kind() != "comment" || sibling.end_position().row + 2 < row {
            break;
        }
        // A comment after code on its line (`x = 1 # note`) is that line's.
        if sibling
            .prev_sibling()
            .is_some_and(|p| p.end_position().row == sibling.start_position().row)
        {
            break;
        }
        comments.push(text_of(sibling, src));
        row = sibling.start_position().row;
        current = sibling.prev_sibling();
    }
    comments.reverse();
    doc_of_comments(&comments)
}

/// The doc of a run of comments, directives left out.
fn doc_of_comments(comments: &[&str]) -> Option<String> {
    let mut lines = Vec::new();
    let mut hidden = false;
    for comment in comments.iter().filter(|c| !is_directive(c)) {
        comment_lines(comment, &mut hidden, &mut lines);
    }
    finish_doc(&lines)
}

/// The file's doc: the first run of comments before any code that is neither a directive nor a
/// licence (`Copyright`, `License`) and is not the doc of the declaration right below it.
fn file_doc(root: Node<'_>, src: &str) -> Option<String> {
    let children = code_children_with_comments(root);
    let mut run: Vec<Node<'_>> = Vec::new();
    let mut runs: Vec<Vec<Node<'_>>> = Vec::new();
    let mut attached = false;
    for (i, child) in children.iter().enumerate() {
        if child.kind() != "comment" {
            attached = run
                .last()
                .is_some_and(|last| last.end_position().row + 1 >= child.start_position().row);
            break;
        }
        let joins = run
            .last()
            .is_some_and(|last| last.end_position().row + 1 >= child.start_position().row);
        if !joins && !run.is_empty() {
            runs.push(std::mem::take(&mut run));
        }
        run.push(*child);
        if i + 1 == children.len() {
            attached = false;
        }
    }
    if !run.is_empty() && !attached {
        runs.push(run);
    }
    runs.into_iter().find_map(|run| {
        let texts: Vec<&str> = run.iter().map(|c| text_of(*c, src)).collect();
        let doc = doc_of_comments(&texts)?;
        let lower = doc.to_ascii_lowercase();
        let licence =
            lower.contains("copyright") || lower.contains("license") || lower.contains("licence");
        (!licence).then_some(doc)
    })
}

/// A node's children, comments included (unlike `code_children`).
fn code_children_with_comments(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
    children
}

/// The file a `require`-like call loads, as an import spec: `a/b` for `require 'a/b'` and
/// `autoload :B, 'a/b'`, `./b` for `require_relative 'b'`; `None` for another call or an
/// argument that is no literal.
pub(crate) fn loaded(node: Node<'_>, src: &str) -> Option<String> {
    let name = call_name(node, src)?;
    if !LOADERS.contains(&name) {
        return None;
    }
    let args = arguments(node);
    let arg = match name {
        "autoload" => args.get(1)?,
        _ => args.first()?,
    };
    if let Some(relative) = expanded_path(*arg, src) {
        return Some(relative);
    }
    let path = literal_name(*arg, src).filter(|p| !p.is_empty())?;
    Some(match name {
        "require_relative" if !path.starts_with('.') && !path.starts_with('/') => {
            format!("./{path}")
        }
        _ => path.to_string(),
    })
}

/// `File.expand_path('x', __dir__)` as `./x`, `File.expand_path('../x', __FILE__)` as `./x` (the
/// path is read from the file itself there): a path beside the file.
fn expanded_path(node: Node<'_>, src: &str) -> Option<String> {
    if node.kind() != "call"
        || node
            .child_by_field_name("receiver")
            .map(|r| text_of(r, src))
            != Some("File")
        || node.child_by_field_name("method").map(|m| text_of(m, src)) != Some("expand_path")
    {
        return None;
    }
    let args = arguments(node);
    let path = literal_name(*args.first()?, src).filter(|p| !p.is_empty())?;
    let relative = match text_of(*args.get(1)?, src) {
        "__dir__" => path,
        "__FILE__" => path.strip_prefix("../")?,
        _ => return None,
    };
    Some(match relative.starts_with('.') {
        true => relative.to_string(),
        false => format!("./{relative}"),
    })
}

/// A constant reference (`Utils`, `Rack::Utils`, `::Foo`) as its outermost node, or `None` when
/// `node` is no reference: a class's or module's name, a constant assigned, a segment of a longer
/// path.
fn reference<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    if !matches!(node.kind(), "constant" | "scope_resolution") {
        return None;
    }
    let parent = node.parent()?;
    let is_field = |field: &str| {
        parent
            .child_by_field_name(field)
            .is_some_and(|n| n.id() == node.id())
    };
    let declares = match parent.kind() {
        "class" | "module" => is_field("name"),
        "assignment" | "operator_assignment" => is_field("left"),
        "scope_resolution" => true,
        _ => false,
    };
    if declares {
        return None;
    }
    if node.kind() == "scope_resolution"
        && node
            .child_by_field_name("scope")
            .is_some_and(|scope| !matches!(scope.kind(), "constant" | "scope_resolution"))
    {
        return None;
    }
    Some(text_of(node, src))
}

/// Requires, constants referenced, TODO markers and nesting.
fn walk_file(root: Node<'_>, src: &str, out: &mut Extracted) {
    let signals = &mut out.signals;
    let mut imports: Vec<Import> = Vec::new();
    let mut references: BTreeSet<String> = BTreeSet::new();
    let mut contexts: Vec<(usize, Context)> = vec![(usize::MAX, Context::default())];
    walk(root, Nesting::default(), |node, nesting| {
        while contexts
            .last()
            .is_some_and(|(end, _)| *end != usize::MAX && node.start_byte() >= *end)
        {
            contexts.pop();
        }
        match node.kind() {
            "comment" => {
                signals.todo_markers += count_markers(text_of(node, src));
                None
            }
            "class" | "module" => {
                if let Some(name) = node.child_by_field_name("name") {
                    let context = contexts.last().map(|(_, c)| c.clone()).unwrap_or_default();
                    // `class A::B` looks `A` up around it.
                    if let Some(scope) = name.child_by_field_name("scope").filter(|scope| {
                        name.kind() == "scope_resolution"
                            && matches!(scope.kind(), "constant" | "scope_resolution")
                    }) {
                        let path = compact(text_of(scope, src));
                        references.insert(encode_reference(&context.nesting, &path));
                    }
                    let inner = context.enter(text_of(name, src));
                    contexts.push((node.end_byte(), inner));
                }
                Some(nesting.block(signals))
            }
            // A superclass is read in the nesting around its class (`class A < B` looks `B` up
            // outside `A`).
            "superclass" => {
                let outer = contexts
                    .len()
                    .checked_sub(2)
                    .map(|at| contexts[at].1.clone());
                contexts.push((node.end_byte(), outer.unwrap_or_default()));
                Some(nesting)
            }
            "call" => {
                if let Some(spec) = loaded(node, src) {
                    imports.push(Import {
                        spec,
                        line: line_of(node),
                        ..Import::default()
                    });
                }
                Some(nesting)
            }
            "constant" | "scope_resolution" => {
                if let Some(path) = reference(node, src) {
                    let context = contexts.last().map(|(_, c)| c).cloned().unwrap_or_default();
                    references.insert(encode_reference(&context.nesting, &compact(path)));
                    return None;
                }
                Some(nesting)
            }
            "method" | "singleton_method" | "lambda" => {
                Some(nesting.function(node.kind() != "lambda"))
            }
            "block" | "do_block" | "if" | "unless" | "while" | "until" | "for" | "case"
            | "begin" => Some(nesting.block(signals)),
            _ => Some(nesting),
        }
    });
    for import in imports {
        out.imports.add_import(import);
    }
    if !references.is_empty() {
        out.imports.add_import(Import {
            spec: CONSTANTS_SPEC.to_string(),
            line: 1,
            names: references.into_iter().collect(),
            ..Import::default()
        });
    }
}

/// A reference as [`CONSTANTS_SPEC`] names it: `Rack::Request,Rack>Utils`.
pub fn encode_reference(nesting: &[String], path: &str) -> String {
    let chain: Vec<&str> = nesting.iter().rev().map(String::as_str).collect();
    format!("{}>{path}", chain.join(","))
}

/// A reference's nesting (innermost first) and path, as [`encode_reference`] wrote them.
pub fn decode_reference(reference: &str) -> (Vec<&str>, &str) {
    let (chain, path) = reference.split_once('>').unwrap_or(("", reference));
    let nesting = chain.split(',').filter(|c| !c.is_empty()).collect();
    (nesting, path)
}

/// One constant a file defines: its full name and whether the file gives it content (methods,
/// constants, calls, a superclass, or nothing at all: `class X; end`) rather than only opening it
/// as a namespace of nested classes and modules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Defined {
    pub name: String,
    pub substantive: bool,
}

/// The constants a file defines: each class and module (by its full name, as its nesting says)
/// and each constant assigned (`A = …`, in a class or module body or at the top level).
pub fn defined_constants(root: Node<'_>, src: &str) -> Vec<Defined> {
    let mut out = Vec::new();
    define_in(root, src, &Context::default(), &mut out);
    out
}

/// The constants defined in one body (`program` or `body_statement`).
fn define_in(body: Node<'_>, src: &str, context: &Context, out: &mut Vec<Defined>) {
    for statement in code_children(body) {
        match statement.kind() {
            "class" | "module" => {
                let Some(name) = statement.child_by_field_name("name") else {
                    continue;
                };
                let inner = context.enter(text_of(name, src));
                let content = statement.child_by_field_name("body");
                // Only a namespace: a body of nothing but nested classes and modules (and
                // requires), at least one of them.
                let statements = content.map(code_children).unwrap_or_default();
                let namespace_only = statement.child_by_field_name("superclass").is_none()
                    && statements
                        .iter()
                        .any(|s| matches!(s.kind(), "class" | "module"))
                    && statements.iter().all(|s| {
                        matches!(s.kind(), "class" | "module") || loaded(*s, src).is_some()
                    });
                let substantive = !namespace_only;
                out.push(Defined {
                    name: inner.innermost().to_string(),
                    substantive,
                });
                if let Some(content) = content {
                    define_in(content, src, &inner, out);
                }
            }
            "assignment" => {
                let Some(left) = statement.child_by_field_name("left") else {
                    continue;
                };
                if left.kind() == "constant" {
                    out.push(Defined {
                        name: full_name(Some(context.innermost()), text_of(left, src)),
                        substantive: true,
                    });
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::testing::{
        definition_labels, docs, flow_of, imports, parse, rows, signature_of, source_file,
    };
    use crate::source::Language;

    const RACK: &str = "# frozen_string_literal: true\n\n# Copyright (C) 2007 Someone\n# MIT License.\n\n# Request helpers for Rack.\n\nrequire_relative 'constants'\nrequire 'set'; require File.expand_path('../helper', __FILE__); require File.expand_path('other', __dir__)\n\nmodule Rack\n  autoload :Utils, \"rack/utils\"\n\n  # Wraps the env.\n  #\n  # @example\n  #   Request.new(env)\n  class Request < BaseRequest\n    include Helpers\n    # The default ports.\n    DEFAULT_PORTS = { 'http' => 80 }\n    SECRET = 1\n    private_constant :SECRET\n\n    attr_reader :env\n\n    # Builds one.\n    def initialize(env)\n      @env = env\n    end\n\n    # Whether it is a GET.\n    def get?; Utils.escape(::Foo::Bar); end\n\n    def self.build(x) = new(x)\n\n    # Parses.\n    def self.parse(s,\n                   encoding = 'utf-8', *rest) = s\n\n    private def hidden; end\n\n    protected\n\n    def prot; end\n\n    public\n\n    def back_in_public(a, b = 1, *c, d:, **e, &f); end\n\n    private :back_in_public\n\n    class << self\n      def made; end\n      private\n      def unmade; end\n    end\n\n    def self.secret; end\n    private_class_method :secret\n  end\n\n  module Mime\n    module_function\n\n    # The type of a file.\n    def mime_type(ext); end\n  end\nend\n\ndef helper; end\n";

    #[test]
    fn public_declarations_by_visibility_with_their_comments() {
        let interface = parse(Language::Ruby, RACK);
        assert!(!interface.has_errors);
        let names: Vec<(Option<&str>, SymbolKind, &str)> =
            rows(&interface).iter().map(|r| (r.0, r.1, r.2)).collect();
        assert_eq!(
            names,
            [
                (None, SymbolKind::Module, "Rack"),
                (None, SymbolKind::Function, "helper"),
                (Some("Mime"), SymbolKind::Method, "mime_type"),
                (Some("Rack"), SymbolKind::Module, "Mime"),
                (Some("Rack"), SymbolKind::Class, "Request"),
                (Some("Request"), SymbolKind::Method, "build"),
                (Some("Request"), SymbolKind::Method, "get?"),
                (Some("Request"), SymbolKind::Method, "initialize"),
                (Some("Request"), SymbolKind::Method, "made"),
                (Some("Request"), SymbolKind::Method, "parse"),
                (Some("Request"), SymbolKind::Constant, "DEFAULT_PORTS"),
                (Some("Request"), SymbolKind::Variable, "env"),
            ]
        );
        let signature = |name: &str| signature_of(&interface, name);
        assert_eq!(
            signature("Request").as_deref(),
            Some("class Request < BaseRequest")
        );
        assert_eq!(
            signature("mime_type").as_deref(),
            Some("def self.mime_type(ext)")
        );
        assert_eq!(signature("build").as_deref(), Some("def self.build(x)"));
        assert_eq!(
            signature("back_in_public"),
            None,
            "hidden by `private :back_in_public`"
        );
        assert_eq!(
            signature("parse").as_deref(),
            Some("def self.parse(s, encoding = 'utf-8', *rest)")
        );
        assert_eq!(signature("made").as_deref(), Some("def self.made"));
        assert_eq!(signature("env").as_deref(), Some("attr_reader :env"));
        assert_eq!(
            docs(&interface),
            [
                ("Request", "Wraps the env."),
                ("DEFAULT_PORTS", "The default ports."),
                ("initialize", "Builds one."),
                ("get?", "Whether it is a GET."),
                ("parse", "Parses."),
                ("mime_type", "The type of a file."),
            ]
        );
        assert_eq!(
            interface.item_doc("Request"),
            Some("Wraps the env.\n\n@example\n  Request.new(env)")
        );
        assert_eq!(interface.doc.as_deref(), Some("Request helpers for Rack."));
    }

    #[test]
    fn rdoc_headings_are_left_out_and_its_code_markup_is_markdown() {
        let text = "module Sinatra
  # = Sinatra::Namespace
  #
  # <tt>Sinatra::Namespace</tt> adds namespaces; see +namespace+ and a + b + c.
  module Namespace; end
end
";
        let interface = parse(Language::Ruby, text);
        assert_eq!(
            interface.item_doc("Namespace"),
            Some("`Sinatra::Namespace` adds namespaces; see `namespace` and a + b + c.")
        );
    }

    #[test]
    fn requires_and_the_constants_referenced_in_their_nesting() {
        let interface = parse(Language::Ruby, RACK);
        assert_eq!(
            imports(&interface),
            [
                ("./constants", 8),
                ("set", 9),
                ("./helper", 9),
                ("./other", 9),
                ("rack/utils", 12),
                (CONSTANTS_SPEC, 1)
            ]
        );
        let constants = interface
            .imports
            .iter()
            .find(|i| i.spec == CONSTANTS_SPEC)
            .map(|i| i.names.clone())
            .unwrap_or_default();
        assert_eq!(
            constants,
            [
                ">File",
                "Rack::Request,Rack>::Foo::Bar",
                "Rack::Request,Rack>Helpers",
                "Rack::Request,Rack>Utils",
                "Rack>BaseRequest",
            ]
        );
        assert_eq!(
            decode_reference("Rack::Request,Rack>Utils"),
            (vec!["Rack::Request", "Rack"], "Utils")
        );
    }

    #[test]
    fn constants_defined_by_their_nesting() {
        let text = "module Rack\n  class Request::Env < Base; end\n  module Empty\n    class Inner; end\n  end\n  VERSION = '1'\nend\nclass ::Top; end\n";
        let tree = crate::source::parse(Language::Ruby, text).expect("parses");
        let defined: Vec<(String, bool)> = defined_constants(tree.root_node(), text)
            .into_iter()
            .map(|d| (d.name, d.substantive))
            .collect();
        assert_eq!(
            defined,
            [
                ("Rack".to_string(), true),
                ("Rack::Request::Env".to_string(), true),
                ("Rack::Empty".to_string(), false),
                ("Rack::Empty::Inner".to_string(), true),
                ("Rack::VERSION".to_string(), true),
                ("Top".to_string(), true),
            ]
        );
    }

    #[test]
    fn calls_raises_bases_definitions_and_flow() {
        let text = "module Shapes\n  # Reads.\n  class Reader < Base\n    def read_all(names)\n      names.each do |name|\n        if name.empty?\n          next\n        elsif name == 'x'\n          skip(name)\n        else\n          Util.clamp(helper.size, Range.new(1, 2))\n        end\n      end\n      raise ArgumentError, \"bad: #{names}\" if names.nil?\n      begin\n        read(names)\n      rescue IOError => e\n        raise\n      ensure\n        close\n      end\n    end\n\n    def read(x) = self.size(x)\n    def test_reads; Reader.new.read(1); end\n    private\n    def close; fail \"closed\"; end\n  end\nend\n";
        let interface = parse(Language::Ruby, text);
        let calls: Vec<String> = interface.calls.iter().map(|m| m.encode()).collect();
        assert_eq!(
            calls,
            [
                "Reader.read_all .each@names .empty?@name ^skip Util.clamp .size@helper ^helper Range.new .nil?@names ^read ^close",
                "Reader.read ^size",
                "!Reader.test_reads .read:Reader ^new",
                "Reader.close",
            ]
        );
        let raises = |member: &str| {
            interface
                .calls
                .iter()
                .find(|m| m.member == member)
                .map(|m| m.raises.clone())
                .unwrap_or_default()
        };
        assert_eq!(
            raises("Reader.read_all"),
            ["ArgumentError (\"bad: …\")", "re-raises"]
        );
        assert_eq!(raises("Reader.close"), ["RuntimeError (\"closed\")"]);
        assert_eq!(
            interface.bases,
            [("Reader".to_string(), vec!["Base".to_string()])]
        );
        let file = source_file(Language::Ruby, text);
        let labels = definition_labels(&file);
        assert_eq!(
            labels,
            [
                ("Shapes", SymbolKind::Module),
                ("Shapes.Reader", SymbolKind::Class),
                ("Reader.read_all", SymbolKind::Method),
                ("Reader.read", SymbolKind::Method),
                ("Reader.test_reads", SymbolKind::Method),
                ("Reader.close", SymbolKind::Method),
            ]
        );
        let flow = flow_of(&file, "Reader.read_all");
        assert_eq!(
            flow,
            [
                "names.each do |name|:",
                "  if name.empty?:",
                "    next",
                "  elsif name == 'x':",
                "    skip(name)",
                "  else:",
                "    Util.clamp(helper.size, Range.new(1, 2))",
                "raise ArgumentError, \"bad: #{names}\" if names.nil?",
                "read(names)",
                "rescue IOError => e:",
                "  raise",
                "ensure:",
                "  close",
            ]
        );
    }
}
