//! C and C++ extraction: the interface of a header — what it declares at file scope, inside
//! `extern "C"` blocks, preprocessor conditionals and named namespaces: functions, structs,
//! unions, enums (their enumerators), classes (their public members: a `struct`'s members are
//! public until an access specifier says otherwise, a `class`'s private), typedefs and `using`
//! aliases, templates, concepts, variables and macros (`#define`; not an include guard, not a
//! `_`-prefixed name) — and of a translation unit (`.c`, `.cpp`): the functions it defines with
//! external linkage (not `static`, not in an anonymous namespace). Anything in an anonymous,
//! `detail`, `internal` or `impl` namespace is the library's own, not its interface. Each with its
//! doc comment: a Doxygen comment (`/** … */`, `///`, `/*! … */`, `//!`) above it (at most one
//! blank line between), or a plain comment right above it (no blank line). The file's description
//! is its `@file` comment, else its first comment when that is neither a licence nor a banner.
//!
//! Imports are its `#include` lines, anywhere in the file (those in an `#ifdef` too: a library of
//! the source keeps every platform's), each spec as written with its delimiters: `"sds.h"`,
//! `<fmt/base.h>`. `#include MACRO` names no file and is left out.

use tree_sitter::Node;

use crate::source::interface::SymbolKind;
use crate::source::syntax::{
    block_comment_lines, code_children, count_markers, finish_doc, text_of, tokens, walk, Builder,
    Extracted, Nesting,
};

/// Namespaces whose contents are a library's own, by convention (fmt's and nlohmann's `detail`).
pub const INTERNAL_NAMESPACES: &[&str] = &["detail", "details", "internal", "impl"];

/// Test macros whose "function definition" is a test case: GoogleTest, Catch2, doctest, Unity's
/// `TEST`/`TEST_F` and Boost.Test's `BOOST_AUTO_TEST_CASE`.
pub const TEST_MACROS: &[&str] = &[
    "TEST",
    "TEST_F",
    "TEST_P",
    "TYPED_TEST",
    "TYPED_TEST_P",
    "TEST_CASE",
    "TEST_CASE_METHOD",
    "TEST_CASE_TEMPLATE",
    "SCENARIO",
    "BOOST_AUTO_TEST_CASE",
    "BOOST_FIXTURE_TEST_CASE",
];

/// Which interface rule a file follows.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Unit {
    /// A header: what it declares.
    Header,
    /// A translation unit: the functions it defines with external linkage.
    Source,
}

/// Extract the interface parts of a C or C++ syntax tree. A tree with errors is read again with
/// its attribute-like macros blanked ([`blank_macros`]: `FMT_BEGIN_NAMESPACE`, `FMT_API void
/// f();`), the same bytes at the same offsets but those, when that parses with fewer errors.
pub(crate) fn extract(root: Node<'_>, src: &str, unit: Unit) -> Extracted {
    if root.has_error() {
        if let Some((blanked, tree)) = parse_blanked(root, src) {
            let mut out = extract_tree(tree.root_node(), &blanked, unit);
            out.syntax_ok = !tree.root_node().has_error();
            return out;
        }
    }
    extract_tree(root, src, unit)
}

/// `src` with its attribute-like macros blanked, parsed again with `root`'s grammar; `None` when
/// nothing was blanked or the new tree has as many error nodes.
fn parse_blanked(root: Node<'_>, src: &str) -> Option<(String, tree_sitter::Tree)> {
    let blanked = blank_macros(src)?;
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&root.language()).ok()?;
    let tree = parser.parse(&blanked, None)?;
    (errors(tree.root_node()) < errors(root)).then_some((blanked, tree))
}

/// The number of error and missing nodes of a tree.
fn errors(root: Node<'_>) -> usize {
    let mut count = 0;
    walk(root, (), |node, ()| {
        count += usize::from(node.is_error() || node.is_missing());
        node.has_error().then_some(())
    });
    count
}

/// `src` with each all-capitals macro name used as an attribute or a bracket blanked: a word of
/// capitals, digits and `_` holding a `_` (`FMT_API`, `FMT_CONSTEXPR20`,
/// `NLOHMANN_JSON_NAMESPACE_BEGIN`), outside preprocessor lines, followed by spaces and a letter
/// or by the end of its line — not a constant in an expression (`return REDIS_OK;`,
/// `x == A_B && y`) nor a macro call (`UINT64_C(1)`). `None` when there is none.
pub(crate) fn blank_macros(src: &str) -> Option<String> {
    let mut out = src.as_bytes().to_vec();
    let bytes = src.as_bytes();
    let mut changed = false;
    let mut line_start = 0;
    for line in src.split_inclusive('\n') {
        let start = line_start;
        line_start += line.len();
        if line.trim_start().starts_with('#') || line.trim_start().starts_with("//") {
            continue;
        }
        let mut at = start;
        let end = start + line.len();
        while at < end {
            let c = bytes[at];
            let word_start =
                at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_');
            if !(c.is_ascii_uppercase() && word_start) {
                at += 1;
                continue;
            }
            let mut stop = at;
            while stop < end
                && (bytes[stop].is_ascii_uppercase()
                    || bytes[stop].is_ascii_digit()
                    || bytes[stop] == b'_')
            {
                stop += 1;
            }
            let word = &src[at..stop];
            let next_is_word_char = stop < end && (bytes[stop].is_ascii_lowercase());
            let mut after = stop;
            while after < end && matches!(bytes[after], b' ' | b'\t') {
                after += 1;
            }
            let follows = match bytes.get(after) {
                None | Some(b'\n') | Some(b'\r') => true,
                Some(b) => after > stop && (b.is_ascii_alphabetic() || *b == b'_'),
            };
            if word.contains('_') && word.len() > 3 && !next_is_word_char && follows {
                out[at..stop].fill(b' ');
                changed = true;
            }
            at = stop.max(at + 1);
        }
    }
    changed.then(|| String::from_utf8(out).ok()).flatten()
}

/// The interface parts of a C or C++ syntax tree of `src`.
fn extract_tree(root: Node<'_>, src: &str, unit: Unit) -> Extracted {
    let mut out = Extracted::default();
    read_members(root, src, unit, false, &mut out);
    // A header all in a `detail` namespace (nlohmann's `detail/`): what it holds is the
    // library's own, and that is what its design file shows.
    if unit == Unit::Header && out.builder.symbols.is_empty() {
        out = Extracted::default();
        read_members(root, src, unit, true, &mut out);
    }
    out.doc = file_doc(root, src);
    walk_file(root, src, &mut out);
    out
}

/// The declarations of the interface into `out`; `internal`: those of `detail` namespaces too.
fn read_members(root: Node<'_>, src: &str, unit: Unit, internal: bool, out: &mut Extracted) {
    let mut members = Members {
        src,
        unit,
        internal,
        b: &mut out.builder,
        item_docs: Vec::new(),
        macros: Vec::new(),
    };
    members.scope(root, None, 0);
    // Macros after the functions and types: a header's configuration macros come first in
    // its text and would fill the contract's budget before its API.
    for (name, signature, doc) in std::mem::take(&mut members.macros) {
        members
            .b
            .add_documented(0, SymbolKind::Macro, &name, None, (signature, doc));
    }
    out.item_docs = members.item_docs;
}

/// Collects the interface's declarations.
struct Members<'s, 'b> {
    src: &'s str,
    unit: Unit,
    /// Whether `detail`, `internal` and `impl` namespaces are read too.
    internal: bool,
    b: &'b mut Builder,
    item_docs: Vec<(String, String)>,
    /// The macros met, added after everything else: (name, signature, doc).
    macros: Vec<(String, String, Option<String>)>,
}

impl Members<'_, '_> {
    /// The declarations of a scope (the file, a namespace, `extern "C"`, a conditional's branch).
    fn scope(&mut self, node: Node<'_>, namespace: Option<&str>, depth: usize) {
        let guard = include_guard(node, self.src);
        for child in parts(node) {
            self.declaration(child, namespace, depth, guard);
        }
    }

    /// One declaration at file or namespace scope.
    fn declaration(
        &mut self,
        node: Node<'_>,
        namespace: Option<&str>,
        depth: usize,
        guard: Option<&str>,
    ) {
        let src = self.src;
        match node.kind() {
            "preproc_ifdef" | "preproc_if" | "preproc_else" | "preproc_elif"
            | "preproc_elifdef" => {
                let inner = include_guard(node, src).or(guard);
                for child in parts(node) {
                    if child.kind() == "preproc_def"
                        && child
                            .child_by_field_name("name")
                            .is_some_and(|n| Some(text_of(n, src)) == inner)
                    {
                        continue;
                    }
                    self.declaration(child, namespace, depth, inner);
                }
            }
            // A conditional the grammar could not close (fmt's include guard around 3000 lines):
            // what it parsed inside is read as if it had.
            "ERROR" => {
                for child in parts(node) {
                    self.declaration(child, namespace, depth, guard);
                }
            }
            "linkage_specification" => {
                if let Some(body) = node.child_by_field_name("body") {
                    match body.kind() {
                        "declaration_list" => self.scope(body, namespace, depth),
                        _ => self.declaration(body, namespace, depth, guard),
                    }
                }
            }
            "namespace_definition" => {
                let name = node.child_by_field_name("name").map(|n| text_of(n, src));
                let Some(name) = name else {
                    return; // anonymous: internal linkage
                };
                if !self.internal
                    && name
                        .split("::")
                        .any(|part| INTERNAL_NAMESPACES.contains(&part.trim()))
                {
                    return;
                }
                if let Some(body) = node.child_by_field_name("body") {
                    self.scope(body, namespace, depth);
                }
            }
            "preproc_def" | "preproc_function_def" if self.unit == Unit::Header => {
                self.define(node)
            }
            "function_definition" => self.function(node, node, None, depth),
            "template_declaration" if self.unit == Unit::Header => self.template(node, None, depth),
            "template_declaration" => {
                if let Some(inner) = templated(node).filter(|n| n.kind() == "function_definition") {
                    self.function(inner, node, None, depth);
                }
            }
            "declaration" | "type_definition" | "alias_declaration" | "concept_definition"
            | "class_specifier" | "struct_specifier" | "union_specifier" | "enum_specifier"
                if self.unit == Unit::Header =>
            {
                self.header_declaration(node, node, None, depth)
            }
            _ => {}
        }
    }

    /// A `#define` of the header's API (not an include guard: `FOO_H`, `FOO_HPP_`,
    /// `FOO_INCLUDED` defined without a value).
    fn define(&mut self, node: Node<'_>) {
        let src = self.src;
        let Some(name) = node.child_by_field_name("name").map(|n| text_of(n, src)) else {
            return;
        };
        let guard_like = node.child_by_field_name("value").is_none()
            && node.kind() == "preproc_def"
            && [
                "_H",
                "_H_",
                "_HPP",
                "_HPP_",
                "_INCLUDED",
                "_INCLUDED_",
                "_H__",
            ]
            .iter()
            .any(|suffix| name.ends_with(suffix));
        if name.starts_with('_') || guard_like {
            return;
        }
        let mut signature = format!("#define {name}");
        if let Some(parameters) = node.child_by_field_name("parameters") {
            signature.push_str(&compact_spaces(text_of(parameters, src)));
        } else if let Some(value) = node.child_by_field_name("value") {
            let value = compact_spaces(text_of(value, src));
            if !value.is_empty() && value.chars().count() <= 60 {
                signature.push(' ');
                signature.push_str(&value);
            }
        }
        let doc = doc_of(node, src);
        self.macros.push((name.to_string(), signature, doc));
    }

    /// A function definition (`outer` is the node its doc and signature start at: its
    /// `template<…>` when it has one); in a source file only one with external linkage.
    fn function(&mut self, node: Node<'_>, outer: Node<'_>, owner: Option<&str>, depth: usize) {
        let src = self.src;
        let Some(declarator) = node.child_by_field_name("declarator") else {
            return;
        };
        if node.child_by_field_name("type").is_none() && owner.is_none() {
            // `TEST(suite, name) { … }`: a test macro, not a function of the interface.
            return;
        }
        let Some((name_node, _)) = declared(declarator) else {
            return;
        };
        if self.unit == Unit::Source
            && (has_storage(node, src, "static") || name_node.kind() != "identifier")
        {
            return;
        }
        let name = simple_name(name_node, src);
        let kind = match owner {
            Some(_) => SymbolKind::Method,
            None => SymbolKind::Function,
        };
        let mut excluded: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
        excluded.extend(
            code_children(node)
                .into_iter()
                .filter(|c| c.kind() == "field_initializer_list"),
        );
        let signature = signature_of(outer, src, &excluded);
        self.b
            .add_documented(depth, kind, &name, owner, (signature, doc_of(outer, src)));
    }

    /// A `template<…>` declaration of a header: the declaration it introduces, its signature
    /// starting at `template`.
    fn template(&mut self, node: Node<'_>, owner: Option<&str>, depth: usize) {
        let Some(inner) = templated(node) else {
            return;
        };
        match inner.kind() {
            "function_definition" => self.function(inner, node, owner, depth),
            _ => self.header_declaration(inner, node, owner, depth),
        }
    }

    /// A declaration of a header (or a class's member declaration, `owner` the class): a type,
    /// typedef, alias, concept, function prototype or variable.
    fn header_declaration(
        &mut self,
        node: Node<'_>,
        outer: Node<'_>,
        owner: Option<&str>,
        depth: usize,
    ) {
        let src = self.src;
        match node.kind() {
            "class_specifier" | "struct_specifier" | "union_specifier" | "enum_specifier" => {
                self.type_specifier(node, outer, owner, depth, None);
            }
            "alias_declaration" | "concept_definition" => {
                let Some(name) = node.child_by_field_name("name").map(|n| text_of(n, src)) else {
                    return;
                };
                let signature = signature_of(outer, src, &[]);
                self.b.add_documented(
                    depth,
                    SymbolKind::TypeAlias,
                    name,
                    owner,
                    (signature, doc_of(outer, src)),
                );
            }
            "type_definition" => {
                let ty = node.child_by_field_name("type");
                let body = ty.and_then(|t| t.child_by_field_name("body"));
                let names: Vec<Node<'_>> = declarators(node)
                    .into_iter()
                    .filter_map(|d| declared(d).map(|(n, _)| n))
                    .collect();
                let Some(first) = names.first() else {
                    return;
                };
                let name = simple_name(*first, src);
                let excluded: Vec<Node<'_>> = body.into_iter().collect();
                let signature = signature_of(outer, src, &excluded);
                let kind = match ty.map(|t| t.kind()) {
                    Some("struct_specifier" | "union_specifier") if body.is_some() => {
                        SymbolKind::Struct
                    }
                    Some("enum_specifier") if body.is_some() => SymbolKind::Enum,
                    _ => SymbolKind::TypeAlias,
                };
                let doc = doc_of(outer, src);
                if let Some(doc) = &doc {
                    self.item_docs.push((name.clone(), doc.clone()));
                }
                if self
                    .b
                    .add_documented(depth, kind, &name, owner, (signature, doc))
                {
                    if let (Some(ty), Some(_)) = (ty, body) {
                        self.type_body(ty, &name, depth + 1);
                    }
                }
            }
            "declaration" | "field_declaration" => {
                let ty = node.child_by_field_name("type");
                let decls = declarators(node);
                if decls.is_empty() {
                    // `struct x { … };`: a type alone.
                    if let Some(ty) = ty.filter(|t| t.child_by_field_name("body").is_some()) {
                        self.type_specifier(ty, outer, owner, depth, Some(node));
                    }
                    return;
                }
                let body = ty.and_then(|t| t.child_by_field_name("body"));
                for declarator in decls {
                    let Some((name_node, is_function)) = declared(declarator) else {
                        continue;
                    };
                    let name = simple_name(name_node, src);
                    let kind = match (is_function, owner) {
                        (true, Some(_)) => SymbolKind::Method,
                        (true, None) => SymbolKind::Function,
                        (false, _) if is_const(node, src) => SymbolKind::Constant,
                        (false, _) => SymbolKind::Variable,
                    };
                    if owner.is_none() && is_function && name_node.kind() == "qualified_identifier"
                    {
                        continue;
                    }
                    let mut excluded: Vec<Node<'_>> = body.into_iter().collect();
                    excluded.extend(declarator.child_by_field_name("value"));
                    excluded.extend(node.child_by_field_name("default_value"));
                    let signature = match excluded.is_empty() {
                        true => signature_of(outer, src, &[]),
                        false => signature_of(outer, src, &excluded),
                    };
                    self.b.add_documented(
                        depth,
                        kind,
                        &name,
                        owner,
                        (signature, doc_of(outer, src)),
                    );
                }
            }
            _ => {}
        }
    }

    /// A struct, union, class or enum with a name and a body, and its public members.
    fn type_specifier(
        &mut self,
        node: Node<'_>,
        outer: Node<'_>,
        owner: Option<&str>,
        depth: usize,
        statement: Option<Node<'_>>,
    ) {
        let src = self.src;
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        let Some(name) = node.child_by_field_name("name") else {
            return;
        };
        let name = simple_name(name, src);
        let kind = match node.kind() {
            "class_specifier" => SymbolKind::Class,
            "enum_specifier" => SymbolKind::Enum,
            _ => SymbolKind::Struct,
        };
        let doc_node = statement.unwrap_or(outer);
        let signature = signature_of(outer, src, &[body]);
        let doc = doc_of(doc_node, src).or_else(|| doc_of(outer, src));
        if let Some(doc) = &doc {
            self.item_docs.push((name.clone(), doc.clone()));
        }
        if self
            .b
            .add_documented(depth, kind, &name, owner, (signature, doc))
        {
            self.type_body(node, &name, depth + 1);
        }
    }

    /// A type's public members: an enum's enumerators, a struct's or class's fields, methods and
    /// nested types after a `public:` (or before any access specifier, in a `struct`/`union`).
    fn type_body(&mut self, ty: Node<'_>, owner: &str, depth: usize) {
        let src = self.src;
        let Some(body) = ty.child_by_field_name("body") else {
            return;
        };
        if ty.kind() == "enum_specifier" {
            for enumerator in code_children(body) {
                if enumerator.kind() != "enumerator" {
                    continue;
                }
                let Some(name) = enumerator.child_by_field_name("name") else {
                    continue;
                };
                let name = text_of(name, src);
                self.b.add_documented(
                    depth,
                    SymbolKind::Constant,
                    name,
                    Some(owner),
                    (name.to_string(), doc_of(enumerator, src)),
                );
            }
            return;
        }
        let mut public = ty.kind() != "class_specifier";
        self.members(body, owner, depth, &mut public);
    }

    /// The members of a class body (or of a conditional inside one).
    fn members(&mut self, body: Node<'_>, owner: &str, depth: usize, public: &mut bool) {
        let src = self.src;
        for member in code_children(body) {
            match member.kind() {
                "access_specifier" => {
                    *public = text_of(member, src).trim_end_matches(':').trim() == "public";
                }
                _ if !*public => {}
                "preproc_ifdef" | "preproc_if" | "preproc_else" | "preproc_elif" => {
                    self.members(member, owner, depth, public)
                }
                "function_definition" => self.function(member, member, Some(owner), depth),
                "template_declaration" => self.template(member, Some(owner), depth),
                "field_declaration" | "declaration" | "type_definition" | "alias_declaration" => {
                    self.header_declaration(member, member, Some(owner), depth)
                }
                "class_specifier" | "struct_specifier" | "union_specifier" | "enum_specifier" => {
                    self.type_specifier(member, member, Some(owner), depth, None)
                }
                _ => {}
            }
        }
    }
}

/// The named children of a scope, an error node among them (the grammar marks an error node an
/// extra), comments left out.
fn parts(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    let children = node
        .named_children(&mut cursor)
        .filter(|c| c.kind() != "comment" && (!c.is_extra() || c.is_error()))
        .collect();
    children
}

/// The name of the include guard a conditional opens: `FOO_H` of `#ifndef FOO_H` followed by
/// `#define FOO_H`.
fn include_guard<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    if node.kind() != "preproc_ifdef" {
        return None;
    }
    let name = text_of(node.child_by_field_name("name")?, src);
    let define = code_children(node)
        .into_iter()
        .find(|c| c.kind() == "preproc_def")?;
    let defined = text_of(define.child_by_field_name("name")?, src);
    (defined == name && define.child_by_field_name("value").is_none()).then_some(name)
}

/// The declaration a `template<…>` introduces.
fn templated(node: Node<'_>) -> Option<Node<'_>> {
    code_children(node)
        .into_iter()
        .rfind(|c| c.kind() != "template_parameter_list" && c.kind() != "requires_clause")
}

/// The declarators of a declaration (its `declarator` fields).
fn declarators(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    let found = node
        .children_by_field_name("declarator", &mut cursor)
        .collect();
    found
}

/// The name a declarator declares and whether it declares a function: `f` of `*f(int)`, `x` of
/// `x[3] = {…}`, `Foo::bar` of a qualified definition; `None` for an abstract one.
pub(crate) fn declared(declarator: Node<'_>) -> Option<(Node<'_>, bool)> {
    let mut node = declarator;
    let mut function = false;
    for _ in 0..32 {
        match node.kind() {
            "identifier"
            | "field_identifier"
            | "type_identifier"
            | "qualified_identifier"
            | "destructor_name"
            | "operator_name"
            | "template_function"
            | "primitive_type" => {
                return Some((node, function));
            }
            "function_declarator" => {
                function = true;
                node = node.child_by_field_name("declarator")?;
            }
            "pointer_declarator"
            | "init_declarator"
            | "array_declarator"
            | "attributed_declarator"
            | "reference_declarator"
            | "parenthesized_declarator"
            | "bitfield_clause" => {
                node = node
                    .child_by_field_name("declarator")
                    .or_else(|| code_children(node).into_iter().next())?;
            }
            _ => return None,
        }
    }
    None
}

/// A declared name as a member is known by: `bar` of `Foo::bar`, `operator==`, `~Foo`.
pub(crate) fn simple_name(node: Node<'_>, src: &str) -> String {
    let text = match node.kind() {
        "qualified_identifier" => {
            let mut last = node;
            while let Some(name) = last
                .child_by_field_name("name")
                .filter(|_| last.kind() == "qualified_identifier")
            {
                last = name;
            }
            text_of(last, src)
        }
        "template_function" => node
            .child_by_field_name("name")
            .map_or("", |n| text_of(n, src)),
        _ => text_of(node, src),
    };
    text.split_whitespace().collect()
}

/// Whether a declaration carries the storage class `word` (`static`, `extern`).
fn has_storage(node: Node<'_>, src: &str, word: &str) -> bool {
    code_children(node)
        .into_iter()
        .any(|c| c.kind() == "storage_class_specifier" && text_of(c, src) == word)
}

/// Whether a variable declaration is a constant (`const`, `constexpr`).
fn is_const(node: Node<'_>, src: &str) -> bool {
    code_children(node)
        .into_iter()
        .any(|c| c.kind() == "type_qualifier" && matches!(text_of(c, src), "const" | "constexpr"))
}

/// A declaration's signature: its tokens without `excluded` (bodies, initial values), comments
/// and attributes.
pub(crate) fn signature_of(node: Node<'_>, src: &str, excluded: &[Node<'_>]) -> String {
    let mut toks = Vec::new();
    tokens(node, src, excluded, &mut toks);
    let mut signature = crate::source::syntax::join(&toks);
    if signature.ends_with(';') {
        signature.pop();
    }
    signature
}

/// `text` with each run of whitespace one space.
fn compact_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The doc comment of a declaration: the comments right above it — Doxygen ones at most one blank
/// line above, a plain one on the line above — else the comment after it on its last line
/// (`uint8_t len; /* used */`, Doxygen's `///<`). A comment after the declaration above, on its
/// line, is that one's and never this one's.
pub(crate) fn doc_of(node: Node<'_>, src: &str) -> Option<String> {
    let leading = leading_comments(node, src);
    if !leading.is_empty() {
        return finish_comments(&leading, src, false);
    }
    let trailing = trailing_comment(node)?;
    finish_comments(&[trailing], src, true)
}

/// The comments right above `node`, in order (see [`doc_of`]).
fn leading_comments<'t>(node: Node<'t>, src: &str) -> Vec<Node<'t>> {
    let mut comments: Vec<Node<'_>> = Vec::new();
    let mut row = node.start_position().row;
    let mut current = node.prev_sibling();
    while let Some(previous) = current {
        if previous.kind() != "comment" || is_trailing(previous) {
            break;
        }
        let text = text_of(previous, src);
        let doxygen = is_doxygen(text);
        let gap = row.saturating_sub(previous.end_position().row);
        let trailing = text.starts_with("///<") || text.starts_with("/**<");
        if trailing || gap > 2 || (!doxygen && gap > 1) || gap == 0 {
            break;
        }
        comments.push(previous);
        row = previous.start_position().row;
        current = previous.prev_sibling();
    }
    comments.reverse();
    comments
}

/// Whether `comment` follows code on its first line: it is that code's (`x; /* about x */`).
/// A preprocessor line's node ends at the start of the next line, which is not its line.
fn is_trailing(comment: Node<'_>) -> bool {
    comment.prev_sibling().is_some_and(|code| {
        code.kind() != "comment" && last_row(code) == comment.start_position().row
    })
}

/// The row of `node`'s last character: a node ending at the start of a line (a preprocessor
/// directive takes its newline) ends on the row before.
fn last_row(node: Node<'_>) -> usize {
    let end = node.end_position();
    match end.column == 0 && end.row > node.start_position().row {
        true => end.row - 1,
        false => end.row,
    }
}
/// The comment after a one-line `node` on its line (past the `,` that ends an enumerator).
fn trailing_comment(node: Node<'_>) -> Option<Node<'_>> {
    let row = last_row(node);
    if node.start_position().row != row {
        return None;
    }
    let next = node.next_sibling()?;
    let next = match next.kind() {
        "," => next.next_sibling()?,
        _ => next,
    };
    (next.kind() == "comment" && next.start_position().row == row).then_some(next)
}

/// The doc the `comments` make; `after` for the one after a declaration, whose Doxygen
/// member-after marker (`///< used`, `/**< used */`) is no text.
fn finish_comments(comments: &[Node<'_>], src: &str, after: bool) -> Option<String> {
    let mut lines: Vec<String> = comments
        .iter()
        .flat_map(|c| comment_lines(text_of(*c, src)))
        .collect();
    let marked = |c: &Node<'_>| {
        let text = text_of(*c, src);
        ["///<", "//!<", "/**<", "/*!<"]
            .iter()
            .any(|m| text.starts_with(m))
    };
    if let (true, Some(first)) = (after && comments.iter().any(marked), lines.first_mut()) {
        if let Some(rest) = first.trim_start().strip_prefix('<') {
            *first = rest.trim_start().to_string();
        }
    }
    let lines = doxygen_lines(&lines);
    finish_doc(&lines)
}

/// Whether a comment is a Doxygen one.
fn is_doxygen(text: &str) -> bool {
    (text.starts_with("/**") && text != "/**/")
        || text.starts_with("/*!")
        || text.starts_with("///")
        || text.starts_with("//!")
}

/// A comment's lines without its markers.
fn comment_lines(text: &str) -> Vec<String> {
    match text.strip_prefix("//") {
        Some(body) => vec![body
            .trim_start_matches(['/', '!'])
            .strip_prefix(' ')
            .unwrap_or(body.trim_start_matches(['/', '!']))
            .trim_end()
            .to_string()],
        None => block_comment_lines(text),
    }
}

/// Doxygen's markup read as text: `@brief`/`\brief` dropped, `@param x` and `\param x` as `x:`.
fn doxygen_lines(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|line| {
            let trimmed = line.trim_start();
            for brief in ["@brief ", "\\brief "] {
                if let Some(rest) = trimmed.strip_prefix(brief) {
                    return rest.to_string();
                }
            }
            line.clone()
        })
        .collect()
}

/// The file's description: an `@file`/`\file` comment's text, else its first comment's first
/// paragraph when it reads as prose (not a licence, a copyright, an SPDX line or a banner).
fn file_doc(root: Node<'_>, src: &str) -> Option<String> {
    let mut cursor = root.walk();
    let comments: Vec<Node<'_>> = root
        .children(&mut cursor)
        .take_while(|c| c.kind() == "comment")
        .collect();
    let file_comment = comments.iter().find(|c| {
        let text = text_of(**c, src);
        text.contains("@file") || text.contains("\\file")
    });
    if let Some(comment) = file_comment {
        let lines: Vec<String> = comment_lines(text_of(*comment, src))
            .into_iter()
            .filter(|line| {
                let t = line.trim_start();
                !(t.starts_with("@file") || t.starts_with("\\file"))
            })
            .collect();
        return finish_doc(&doxygen_lines(&lines));
    }
    let mut lines: Vec<String> = Vec::new();
    let mut row = None;
    for comment in &comments {
        let start = comment.start_position().row;
        if row.is_some_and(|r: usize| start > r + 1) {
            break;
        }
        lines.extend(comment_lines(text_of(*comment, src)));
        row = Some(comment.end_position().row);
    }
    let paragraph: Vec<&str> = lines
        .iter()
        .map(|l| l.trim())
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .collect();
    let text = paragraph.join(" ");
    let lower = text.to_ascii_lowercase();
    let legal = [
        "copyright",
        "license",
        "licence",
        "spdx",
        "(c)",
        "all rights",
    ]
    .iter()
    .any(|word| lower.contains(word));
    let letters = text
        .chars()
        .filter(|c| c.is_alphanumeric() || c.is_whitespace())
        .count();
    let prose = !text.is_empty() && letters * 10 >= text.chars().count() * 8;
    (!legal && prose && text.len() >= 8).then(|| paragraph.join("\n"))
}

/// Includes, TODO markers and nesting.
fn walk_file(root: Node<'_>, src: &str, out: &mut Extracted) {
    let signals = &mut out.signals;
    walk(root, Nesting::default(), |node, nesting| {
        match node.kind() {
            "comment" => {
                signals.todo_markers += count_markers(text_of(node, src));
                None
            }
            "function_definition" => Some(nesting.function(true)),
            "lambda_expression" => Some(nesting.function(false)),
            "compound_statement" | "field_declaration_list" => Some(nesting.block(signals)),
            _ => Some(nesting),
        }
    });
    for (line, spec) in includes(root, src) {
        out.imports.add(spec, line);
    }
}

/// The file's `#include` lines, read as the preprocessor reads them — line by line, wherever
/// the grammar placed them (an include inside an initializer list, or in a region the grammar
/// could not parse, is still one) — but not in a comment or a string: (line, spec).
fn includes(root: Node<'_>, src: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut offset = 0;
    for (row, line) in src.split_inclusive('\n').enumerate() {
        let start = offset;
        offset += line.len();
        let Some(spec) = include_line(line) else {
            continue;
        };
        let hash = start + (line.len() - line.trim_start().len());
        let inside = root.descendant_for_byte_range(hash, hash + 1);
        let quoted = std::iter::successors(inside, |n| n.parent())
            .take(4)
            .any(|n| {
                matches!(
                    n.kind(),
                    "comment" | "string_literal" | "raw_string_literal" | "char_literal"
                )
            });
        if !quoted {
            found.push((row + 1, spec));
        }
    }
    found
}

/// The spec of an `#include` line with its delimiters (`"a.h"`, `<a/b.h>`); `None` for any other
/// line and for `#include MACRO`.
fn include_line(line: &str) -> Option<String> {
    let rest = line.trim_start().strip_prefix('#')?;
    let path = rest.trim_start().strip_prefix("include")?.trim();
    let close = match path.chars().next()? {
        '"' => '"',
        '<' => '>',
        _ => return None,
    };
    let end = path[1..].find(close)?;
    (end > 0).then(|| path[..end + 2].to_string())
}

/// Whether a node is a test case, and the name it gives the test (`suite.name`, the case's
/// title): a test macro's body, `TEST(suite, name) { … }` (a function definition to the
/// grammar), or `TEST_CASE("name") { … }` (a call statement missing its `;`, then a block).
pub(crate) fn test_case(node: Node<'_>, src: &str) -> Option<String> {
    let (callee, arguments) = match node.kind() {
        "function_definition" if node.child_by_field_name("type").is_none() => {
            let declarator = node.child_by_field_name("declarator")?;
            if declarator.kind() != "function_declarator" {
                return None;
            }
            (
                declarator.child_by_field_name("declarator")?,
                declarator.child_by_field_name("parameters")?,
            )
        }
        "expression_statement" => {
            let call = code_children(node)
                .into_iter()
                .find(|c| c.kind() == "call_expression")?;
            node.next_sibling()
                .filter(|next| next.kind() == "compound_statement")?;
            (
                call.child_by_field_name("function")?,
                call.child_by_field_name("arguments")?,
            )
        }
        _ => return None,
    };
    let callee = text_of(callee, src);
    if !TEST_MACROS.contains(&callee) {
        return None;
    }
    let arguments: Vec<String> = code_children(arguments)
        .into_iter()
        .map(|p| compact_spaces(text_of(p, src)))
        .collect();
    let name = match arguments.as_slice() {
        [] => callee.to_string(),
        [only] => only.trim_matches('"').to_string(),
        [suite, name, ..] if !suite.starts_with('"') => format!("{suite}.{name}"),
        [title, ..] => title.trim_matches('"').to_string(),
    };
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::testing::{docs, imports, parse, rows, signature_of};
    use crate::source::Language;

    const HEADER: &str = "/* Copyright (c) 2009, Someone. All rights reserved. */\n\n#ifndef API_H\n#define API_H\n#include <stdio.h>\n#include \"sds.h\"\n#ifdef _WIN32\n#include \"win32.h\"\n#endif\n\n#define API_MAJOR 1\n#define _API_PRIVATE 2\n#define apiIsOk(r) ((r)->ok)\n\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n/* Context for a connection. */\ntypedef struct apiContext {\n    int err; /* Error flag */\n    char errstr[128];\n} apiContext;\n\nenum apiState { API_OK, API_ERR };\n\n/** Connects to `ip`.\n *\n * @param ip the address */\napiContext *apiConnect(const char *ip, int port);\nstatic inline int apiLen(const char *s) { return 0; }\nextern int apiDebug;\n\n#ifdef __cplusplus\n}\n#endif\n#endif\n";

    #[test]
    fn a_c_header_declares_its_api_with_its_comments() {
        let interface = parse(Language::Header, HEADER);
        let names: Vec<(Option<&str>, SymbolKind, &str)> =
            rows(&interface).iter().map(|r| (r.0, r.1, r.2)).collect();
        for expected in [
            (None, SymbolKind::Macro, "API_MAJOR"),
            (None, SymbolKind::Macro, "apiIsOk"),
            (None, SymbolKind::Struct, "apiContext"),
            (None, SymbolKind::Enum, "apiState"),
            (None, SymbolKind::Function, "apiConnect"),
            (None, SymbolKind::Function, "apiLen"),
            (None, SymbolKind::Variable, "apiDebug"),
            (Some("apiContext"), SymbolKind::Variable, "err"),
            (Some("apiContext"), SymbolKind::Variable, "errstr"),
            (Some("apiState"), SymbolKind::Constant, "API_OK"),
        ] {
            assert!(names.contains(&expected), "{expected:?} in {names:?}");
        }
        // Not the API: the include guard, a `_`-prefixed macro.
        assert!(!names
            .iter()
            .any(|n| n.2 == "API_H" || n.2 == "_API_PRIVATE"));
        let signature = |name: &str| signature_of(&interface, name);
        assert_eq!(
            signature("apiConnect").as_deref(),
            Some("apiContext *apiConnect(const char *ip, int port)")
        );
        assert_eq!(signature("apiIsOk").as_deref(), Some("#define apiIsOk(r)"));
        assert_eq!(
            signature("API_MAJOR").as_deref(),
            Some("#define API_MAJOR 1")
        );
        assert_eq!(
            signature("apiContext").as_deref(),
            Some("typedef struct apiContext apiContext")
        );
        let docs = docs(&interface);
        assert!(
            docs.contains(&("apiContext", "Context for a connection.")),
            "{docs:?}"
        );
        assert!(
            docs.contains(&("apiConnect", "Connects to `ip`.")),
            "{docs:?}"
        );
        // A licence is no description of the file.
        assert_eq!(interface.doc, None);
        // Every include, the conditional one too.
        assert_eq!(
            imports(&interface),
            [("<stdio.h>", 5), ("\"sds.h\"", 6), ("\"win32.h\"", 8)]
        );
    }

    const CLASS: &str = "// Formatting library for C++ - the core API\n//\n// Copyright (c) 2012 - present, Someone\n\n#pragma once\n#include <fmt/base.h>\n\nnamespace fmt {\nnamespace detail {\ninline int helper() { return 1; }\n}\n\n/// A view of a string.\ntemplate <typename Char> class basic_string_view : public view<Char> {\n private:\n  const Char* data_;\n\n public:\n  /// Constructs a view.\n  constexpr basic_string_view(const Char* s, size_t count) noexcept : data_(s) {}\n  auto size() const -> size_t { return size_; }\n  ~basic_string_view();\n};\n\nusing string_view = basic_string_view<char>;\n\n/// Formats `args`.\ntemplate <typename... T> auto format(format_string<T...> fmt, T&&... args) -> std::string;\n\nstruct format_error : std::runtime_error {\n  using std::runtime_error::runtime_error;\n};\n}  // namespace fmt\n";

    #[test]
    fn a_cpp_header_declares_classes_with_their_public_members_and_templates() {
        let interface = parse(Language::Header, CLASS);
        let names: Vec<(Option<&str>, SymbolKind, &str)> =
            rows(&interface).iter().map(|r| (r.0, r.1, r.2)).collect();
        for expected in [
            (None, SymbolKind::Class, "basic_string_view"),
            (None, SymbolKind::TypeAlias, "string_view"),
            (None, SymbolKind::Function, "format"),
            (None, SymbolKind::Struct, "format_error"),
            (
                Some("basic_string_view"),
                SymbolKind::Method,
                "basic_string_view",
            ),
            (Some("basic_string_view"), SymbolKind::Method, "size"),
            (
                Some("basic_string_view"),
                SymbolKind::Method,
                "~basic_string_view",
            ),
        ] {
            assert!(names.contains(&expected), "{expected:?} in {names:?}");
        }
        // Private members and the `detail` namespace are not the interface.
        assert!(
            !names.iter().any(|n| n.2 == "data_" || n.2 == "helper"),
            "{names:?}"
        );
        let signature = |name: &str| signature_of(&interface, name);
        assert_eq!(
            signature("format").as_deref(),
            Some("template<typename ...T> auto format(format_string<T...> fmt, T &&...args) -> std::string")
        );
        assert_eq!(
            signature("basic_string_view").as_deref(),
            Some("template<typename Char> class basic_string_view : public view<Char>")
        );
        assert_eq!(
            interface.item_doc("basic_string_view"),
            Some("A view of a string.")
        );
        assert_eq!(
            interface.doc.as_deref(),
            Some("Formatting library for C++ - the core API")
        );
        assert_eq!(imports(&interface), [("<fmt/base.h>", 6)]);
    }

    #[test]
    fn a_translation_unit_shows_its_functions_with_external_linkage() {
        let text = "#include \"api.h\"\n\nstatic int helper(void) { return 1; }\n\n/* Connects. */\napiContext *apiConnect(const char *ip, int port) {\n    return helper() ? 0 : 0;\n}\n\nstruct local { int x; };\n#define LOCAL 1\n";
        let interface = parse(Language::C, text);
        let names: Vec<&str> = rows(&interface).iter().map(|r| r.2).collect();
        assert_eq!(names, ["apiConnect"]);
        assert_eq!(docs(&interface), [("apiConnect", "Connects.")]);
        let text = "#include <fmt/format.h>\nnamespace {\nint hidden() { return 0; }\n}\nnamespace fmt {\nvoid report_error(const char* message) {}\nvoid detail::vprint(int x) {}\n}\nTEST(format_test, escape) { EXPECT_EQ(1, 1); }\n";
        let interface = parse(Language::Cpp, text);
        let names: Vec<&str> = rows(&interface).iter().map(|r| r.2).collect();
        assert_eq!(names, ["report_error"]);
    }

    /// A comment after a field on its line is that field's (hiredis's `uint8_t len; /* used */`),
    /// never the doc of the field below; Doxygen's `///<` too; attributes are no part of a
    /// signature.
    #[test]
    fn a_comment_after_a_declaration_on_its_line_is_its_doc() {
        let text = "struct __attribute__ ((__packed__)) hdr {\n    int len; /* used */\n    int alloc; ///< excluding the header\n    char buf[];\n};\nenum color { RED, /* warm */\n  BLUE };\n";
        let interface = parse(Language::Header, text);
        assert_eq!(
            docs(&interface),
            [
                ("len", "used"),
                ("alloc", "excluding the header"),
                ("RED", "warm")
            ]
        );
        let struct_line = interface
            .outline()
            .iter()
            .find(|line| line.name == "hdr")
            .map(|line| line.text.clone());
        assert_eq!(struct_line.as_deref(), Some("struct hdr"));
        let header = parse(Language::Header, HEADER);
        assert!(
            !docs(&header).iter().any(|(name, _)| *name == "errstr"),
            "{:?}",
            docs(&header)
        );
        // A preprocessor line's node ends at the next line's start: a comment below it is the
        // doc of what follows, never the directive's; a leading doc keeps its `<b>` markup.
        let text = "#include <stddef.h>\n/* Adds two numbers. */\nint add(int a, int b);\n#define LIMIT 10\n/* Subtracts. */\nint sub(int a, int b);\n#if HAVE_X\n/** <b>Bold</b> doc. */\nint bold(void);\n#endif\n";
        let interface = parse(Language::Header, text);
        let docs = docs(&interface);
        for expected in [
            ("add", "Adds two numbers."),
            ("sub", "Subtracts."),
            ("bold", "<b>Bold</b> doc."),
        ] {
            assert!(docs.contains(&expected), "{expected:?} in {docs:?}");
        }
    }

    #[test]
    fn attribute_macros_are_read_through() {
        let text = "#include <fmt/base.h>\n\nFMT_BEGIN_NAMESPACE\n\n/// Prints `s`.\nFMT_API void vprint(string_view s);\n\nFMT_CONSTEXPR20 inline auto size() -> int { return SIZE_C(1) + REDIS_OK; }\n\nFMT_END_NAMESPACE\n";
        let interface = parse(Language::Header, text);
        let names: Vec<&str> = rows(&interface).iter().map(|r| r.2).collect();
        assert_eq!(names, ["size", "vprint"]);
        assert_eq!(docs(&interface), [("vprint", "Prints `s`.")]);
        assert_eq!(
            blank_macros("FMT_API void f();\nreturn REDIS_OK;\nx = A_B && y;\n#define X_Y 1\n")
                .as_deref(),
            Some("        void f();\nreturn REDIS_OK;\nx = A_B && y;\n#define X_Y 1\n")
        );
    }

    #[test]
    fn an_include_the_grammar_cannot_place_is_read_from_its_line() {
        let text = "#include \"bytecode.h\"\n\n#define OP(name, imm) {name, #name, imm},\nstatic const struct opcode_description opcode_descriptions[] = {\n#include \"opcode_list.h\"\n};\n";
        let interface = parse(Language::C, text);
        let specs: Vec<&str> = imports(&interface).iter().map(|i| i.0).collect();
        assert!(specs.contains(&"\"opcode_list.h\""), "{specs:?}");
        // Not one in a comment.
        let text = "/* Use it so:\n#include \"example.h\"\n*/\n#include \"real.h\"\n";
        assert_eq!(imports(&parse(Language::C, text)), [("\"real.h\"", 4)]);
    }

    #[test]
    fn test_macros_are_test_cases_calls_and_raises() {
        let text = "#include \"gtest/gtest.h\"\nTEST(format_test, escape) {\n  EXPECT_EQ(fmt::format(\"{}\", 1), \"1\");\n}\nTEST_CASE(\"parser\") { json j; j.parse(); }\nvoid Foo::bar() {\n  if (x) throw format_error(\"invalid format\");\n  this->baz();\n  helper();\n}\n";
        let interface = parse(Language::Cpp, text);
        let calls: Vec<String> = interface.calls.iter().map(|m| m.encode()).collect();
        assert_eq!(
            calls,
            [
                "!format_test.escape EXPECT_EQ fmt.format",
                "!parser TEST_CASE",
                "Foo.bar ^format_error ^baz ^helper",
            ]
        );
        let bar = interface.calls.iter().find(|m| m.member == "Foo.bar");
        assert_eq!(
            bar.map(|m| m.raises.clone()),
            Some(vec!["format_error (\"invalid format\")".to_string()])
        );
    }
}
