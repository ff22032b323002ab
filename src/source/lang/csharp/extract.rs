//! C# extraction: the interface of a file — its types (classes, structs, interfaces, enums,
//! records, delegates) that are public or internal, and inside each its members that are not
//! private (methods, constructors, properties, indexers, fields, events, operators, nested types,
//! enum members) — each with its XML doc comment (`/// <summary>…</summary>`, `<see cref="X"/>`
//! read as `` `X` ``). A partial type is listed in each file that declares a part of it, with the
//! members of that part.
//!
//! Imports, one [`Import`] each, for `source::lang::csharp::resolve`: `using A.B;` as `A.B`,
//! `using static A.B.C;` as `static A.B.C`, `using D = A.B.C;` as `A.B.C` with `D` in its names
//! (`global using` the same); then one [`NAMESPACE_SPEC`] entry per namespace the file declares
//! (`namespace A.B`), the first holding the names the file uses ([`used_names`]).

use std::collections::BTreeSet;

use tree_sitter::Node;

use crate::source::interface::{Import, SymbolKind};
use crate::source::syntax::{
    code_children, compact, count_markers, finish_doc, line_of, text_of, tokens, walk, Builder,
    Extracted, Nesting,
};

/// The spec of the entry naming a namespace the file declares: `namespace A.B` (`namespace ` for
/// a file in the global namespace).
pub const NAMESPACE_SPEC: &str = "namespace ";

/// The spec prefix of a `using static A.B.C;` directive.
pub const STATIC_SPEC: &str = "static ";

/// Attributes that make a method a test case: xUnit (`Fact`, `Theory`), NUnit (`Test`,
/// `TestCase`, `TestCaseSource`), MSTest (`TestMethod`, `DataTestMethod`).
pub const TEST_ATTRIBUTES: &[&str] = &[
    "Fact",
    "Theory",
    "Test",
    "TestCase",
    "TestCaseSource",
    "TestMethod",
    "DataTestMethod",
];

/// Node kinds that declare a type.
pub const TYPE_DECLARATIONS: &[&str] = &[
    "class_declaration",
    "struct_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
    "record_struct_declaration",
    "delegate_declaration",
];

/// Node kinds that declare a member of a type.
const MEMBER_DECLARATIONS: &[&str] = &[
    "method_declaration",
    "constructor_declaration",
    "property_declaration",
    "indexer_declaration",
    "field_declaration",
    "event_field_declaration",
    "event_declaration",
    "operator_declaration",
    "conversion_operator_declaration",
];

/// Extract the interface parts of a C# syntax tree.
pub(crate) fn extract(root: Node<'_>, src: &str) -> Extracted {
    let mut out = Extracted::default();
    let mut item_docs = Vec::new();
    {
        let mut members = Members {
            src,
            b: &mut out.builder,
        };
        for declaration in top_level_types(root) {
            if let (Some(name), Some(doc)) =
                (declared_name(declaration, src), xml_doc(declaration, src))
            {
                item_docs.push((name.to_string(), doc));
            }
            members.declaration(declaration, None, 0, Container::Namespace);
        }
    }
    out.item_docs = item_docs;
    walk_file(root, src, &mut out);
    out
}

/// The type declarations of a file outside any type: at its top level, after a file-scoped
/// namespace, or in (nested) namespace blocks; in source order.
pub fn top_level_types(root: Node<'_>) -> Vec<Node<'_>> {
    let mut found = Vec::new();
    let mut pending = vec![root];
    while let Some(node) = pending.pop() {
        let mut here = Vec::new();
        for child in code_children(node) {
            match child.kind() {
                kind if TYPE_DECLARATIONS.contains(&kind) => here.push(child),
                "namespace_declaration" => {
                    if let Some(body) = child.child_by_field_name("body") {
                        pending.push(body);
                    }
                }
                "file_scoped_namespace_declaration"
                | "declaration_list"
                | "preproc_if"
                | "preproc_else"
                | "preproc_elif" => pending.push(child),
                _ => {}
            }
        }
        found.extend(here);
    }
    found.sort_by_key(|node| node.start_byte());
    found
}

/// The namespaces a file declares, each with the type declarations directly in it: `A.B` of
/// `namespace A.B;`, `A.B` of `namespace A { namespace B { … } }`, `""` for the global namespace.
pub fn namespaces<'t>(root: Node<'t>, src: &str) -> Vec<(String, Vec<Node<'t>>)> {
    let mut out: Vec<(String, Vec<Node<'t>>)> = Vec::new();
    let mut pending: Vec<(Node<'t>, String)> = vec![(root, String::new())];
    while let Some((node, namespace)) = pending.pop() {
        let mut current = namespace.clone();
        let mut types = Vec::new();
        for child in code_children(node) {
            match child.kind() {
                kind if TYPE_DECLARATIONS.contains(&kind) => types.push(child),
                "namespace_declaration" => {
                    let name = qualify(&namespace, &name_of_namespace(child, src));
                    if let Some(body) = child.child_by_field_name("body") {
                        pending.push((body, name));
                    }
                }
                "file_scoped_namespace_declaration" => {
                    current = qualify(&namespace, &name_of_namespace(child, src));
                    // Declarations after it are its (the grammar may nest them or not).
                    pending.push((child, current.clone()));
                }
                "preproc_if" | "preproc_else" | "preproc_elif" => {
                    pending.push((child, current.clone()))
                }
                _ => {}
            }
        }
        match out.iter_mut().find(|(name, _)| *name == current) {
            Some((_, known)) => known.extend(types),
            None => out.push((current, types)),
        }
    }
    out.retain(|(name, types)| !types.is_empty() || !name.is_empty());
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// `outer.inner`, or the one that is not empty.
fn qualify(outer: &str, inner: &str) -> String {
    match (outer.is_empty(), inner.is_empty()) {
        (true, _) => inner.to_string(),
        (_, true) => outer.to_string(),
        _ => format!("{outer}.{inner}"),
    }
}

/// A namespace declaration's name without spaces (`A.B`).
fn name_of_namespace(node: Node<'_>, src: &str) -> String {
    node.child_by_field_name("name")
        .map(|name| compact(text_of(name, src)))
        .unwrap_or_default()
}

/// The name a type is known by to the resolver: `Box` for `class Box`, ``Box`1`` for
/// `class Box<T>` (C# tells types apart by their number of type parameters).
pub fn type_key(node: Node<'_>, src: &str) -> Option<String> {
    let name = declared_name(node, src)?;
    let arity = code_children(node)
        .into_iter()
        .find(|c| c.kind() == "type_parameter_list")
        .map_or(0, |list| {
            code_children(list)
                .into_iter()
                .filter(|c| c.kind() == "type_parameter")
                .count()
        });
    Some(match arity {
        0 => name.to_string(),
        n => format!("{name}`{n}"),
    })
}

/// The name a declaration declares: a type's, method's, property's, constructor's `name`; a
/// field's or event field's first variable; `this` for an indexer; `operator +` for an operator.
pub fn declared_name<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    match node.kind() {
        "field_declaration" | "event_field_declaration" => code_children(node)
            .into_iter()
            .find(|c| c.kind() == "variable_declaration")
            .and_then(|v| {
                code_children(v)
                    .into_iter()
                    .find(|c| c.kind() == "variable_declarator")
            })
            .and_then(|d| d.child_by_field_name("name").or_else(|| d.named_child(0)))
            .map(|n| text_of(n, src)),
        "indexer_declaration" => Some("this"),
        "operator_declaration" | "conversion_operator_declaration" => Some("operator"),
        _ => node.child_by_field_name("name").map(|n| text_of(n, src)),
    }
}

/// The modifier words of a declaration (`public`, `static`, `partial`).
pub fn modifier_words<'s>(node: Node<'_>, src: &'s str) -> Vec<&'s str> {
    code_children(node)
        .into_iter()
        .filter(|c| c.kind() == "modifier")
        .map(|c| text_of(c, src))
        .collect()
}

/// Where a declaration sits: its default accessibility depends on it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Container {
    /// A namespace (or the file): a type without a modifier is internal.
    Namespace,
    /// A class, struct or record: a member without a modifier is private.
    Class,
    /// An interface: a member without a modifier is public.
    Interface,
}

/// Whether a declaration in `container` is part of the interface: not `private` (nor `private
/// protected`), nor private by default in a class or struct.
fn is_listed(node: Node<'_>, src: &str, container: Container) -> bool {
    let words = modifier_words(node, src);
    if words.contains(&"private") {
        return false;
    }
    let declared = words
        .iter()
        .any(|w| matches!(*w, "public" | "internal" | "protected"));
    match container {
        Container::Namespace | Container::Interface => true,
        // An explicit interface implementation (`void IFoo.Bar()`) is public through the
        // interface.
        Container::Class => declared || has_explicit_interface(node),
    }
}

/// Whether a member implements an interface's member explicitly (`void IDisposable.Dispose()`).
fn has_explicit_interface(node: Node<'_>) -> bool {
    code_children(node)
        .into_iter()
        .any(|c| c.kind() == "explicit_interface_specifier")
}

/// The attributes a declaration carries, by simple name without `Attribute` (`Fact` of
/// `[Xunit.FactAttribute]`).
pub fn attribute_names<'s>(node: Node<'_>, src: &'s str) -> Vec<&'s str> {
    code_children(node)
        .into_iter()
        .filter(|c| c.kind() == "attribute_list")
        .flat_map(code_children)
        .filter(|c| c.kind() == "attribute")
        .filter_map(|a| a.child_by_field_name("name"))
        .map(|name| {
            let text = text_of(name, src);
            let text = text.split('<').next().unwrap_or(text);
            let simple = text.rsplit(['.', ':']).next().unwrap_or(text).trim();
            simple.strip_suffix("Attribute").unwrap_or(simple)
        })
        .collect()
}

/// Whether a method is a test case: xUnit's `[Fact]`/`[Theory]`, NUnit's `[Test]`/`[TestCase]`,
/// MSTest's `[TestMethod]`.
pub(crate) fn is_test_method(node: Node<'_>, src: &str) -> bool {
    node.kind() == "method_declaration"
        && attribute_names(node, src)
            .iter()
            .any(|a| TEST_ATTRIBUTES.contains(a))
}

/// A declaration's signature: its tokens without attributes, body, accessor bodies, initial
/// value and comments (`public string Name { get; set; }` keeps its accessors' keywords).
pub(crate) fn declaration_signature(node: Node<'_>, src: &str) -> String {
    let mut excluded: Vec<Node<'_>> = Vec::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            "attribute_list"
            | "declaration_list"
            | "enum_member_declaration_list"
            | "block"
            | "arrow_expression_clause"
            | "constructor_initializer" => excluded.push(child),
            "accessor_list" => {
                for accessor in code_children(child) {
                    excluded.extend(code_children(accessor).into_iter().filter(|c| {
                        matches!(
                            c.kind(),
                            "block" | "arrow_expression_clause" | "attribute_list"
                        )
                    }));
                }
            }
            "variable_declaration" => {
                for declarator in code_children(child)
                    .into_iter()
                    .filter(|c| c.kind() == "variable_declarator")
                {
                    let mut inner = declarator.walk();
                    let mut after = false;
                    for part in declarator.children(&mut inner) {
                        after |= part.kind() == "=";
                        if after {
                            excluded.push(part);
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // A property's initial value: `= value;` after its accessors.
    if node.kind() == "property_declaration" {
        let mut inner = node.walk();
        let mut after = false;
        for part in node.children(&mut inner) {
            after |= part.kind() == "=";
            if after && part.kind() != ";" {
                excluded.push(part);
            }
        }
    }
    let mut toks = Vec::new();
    tokens(node, src, &excluded, &mut toks);
    // `class Box<T> : Base`: the base list's `:` is spaced on both sides.
    let text = match toks
        .iter()
        .position(|t| t.text == ":" && t.parent == "base_list")
    {
        Some(at) if at > 0 => format!(
            "{} {}",
            crate::source::syntax::join(&toks[..at]),
            crate::source::syntax::join(&toks[at..])
        ),
        _ => crate::source::syntax::join(&toks),
    };
    text.trim_end_matches(';').trim_end().to_string()
}

/// The `///` XML doc comment right above a declaration (its attributes are the declaration's
/// children), read as text: its `<summary>` (else its whole text), tags removed, `<see
/// cref="X"/>`, `<paramref name="x"/>` and `<c>x</c>` as `` `X` ``.
pub(crate) fn xml_doc(node: Node<'_>, src: &str) -> Option<String> {
    let mut lines: Vec<&str> = Vec::new();
    let mut row = node.start_position().row;
    let mut current = node.prev_sibling();
    while let Some(sibling) = current {
        if sibling.kind() != "comment" || sibling.end_position().row + 1 < row {
            break;
        }
        let text = text_of(sibling, src);
        let Some(body) = text.strip_prefix("///") else {
            break;
        };
        lines.push(body);
        row = sibling.start_position().row;
        current = sibling.prev_sibling();
    }
    if lines.is_empty() {
        return None;
    }
    lines.reverse();
    let xml = lines
        .iter()
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    doc_text(&xml)
}

/// The text of an XML doc comment: its `<summary>` (else all of it), tags removed, references as
/// code.
pub(crate) fn doc_text(xml: &str) -> Option<String> {
    let summary = xml
        .find("<summary>")
        .map(|at| {
            let rest = &xml[at + "<summary>".len()..];
            &rest[..rest.find("</summary>").unwrap_or(rest.len())]
        })
        .unwrap_or(xml);
    let mut out = String::with_capacity(summary.len());
    let mut rest = summary;
    while let Some(open) = rest.find('<') {
        out.push_str(&rest[..open]);
        let Some(close) = rest[open..].find('>') else {
            rest = &rest[open..];
            break;
        };
        let tag = &rest[open + 1..open + close];
        if let Some(reference) = ["cref=\"", "name=\"", "langword=\"", "href=\""]
            .iter()
            .find_map(|attr| {
                let at = tag.find(attr)?;
                let value = &tag[at + attr.len()..];
                Some(&value[..value.find('"').unwrap_or(value.len())])
            })
            .filter(|_| tag.ends_with('/'))
        {
            let shown = reference.rsplit(':').next().unwrap_or(reference);
            out.push('`');
            out.push_str(shown);
            out.push('`');
        } else if tag == "c" || tag == "/c" {
            out.push('`');
        } else if tag == "para" || tag == "/para" || tag == "br/" || tag == "br /" {
            out.push('\n');
        }
        rest = &rest[open + close + 1..];
    }
    out.push_str(rest);
    let text = out
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    finish_doc(&lines)
}

/// Collects the listed declarations and their members.
struct Members<'s, 'b> {
    src: &'s str,
    b: &'b mut Builder,
}

impl Members<'_, '_> {
    /// A declaration at `depth`, inside the type `parent` (`None` in a namespace).
    fn declaration(
        &mut self,
        node: Node<'_>,
        parent: Option<&str>,
        depth: usize,
        container: Container,
    ) {
        let src = self.src;
        if !is_listed(node, src, container) {
            return;
        }
        let Some(name) = declared_name(node, src) else {
            return;
        };
        let words = modifier_words(node, src);
        let kind = match node.kind() {
            "interface_declaration" => SymbolKind::Interface,
            "enum_declaration" => SymbolKind::Enum,
            "delegate_declaration" => SymbolKind::TypeAlias,
            kind if TYPE_DECLARATIONS.contains(&kind) => SymbolKind::Class,
            "method_declaration"
            | "constructor_declaration"
            | "operator_declaration"
            | "conversion_operator_declaration"
            | "indexer_declaration" => SymbolKind::Method,
            "field_declaration" if words.contains(&"const") => SymbolKind::Constant,
            "enum_member_declaration" => SymbolKind::Constant,
            _ => SymbolKind::Variable,
        };
        let signature = declaration_signature(node, src);
        let doc = xml_doc(node, src);
        if !self
            .b
            .add_documented(depth, kind, name, parent, (signature, doc))
        {
            return;
        }
        if TYPE_DECLARATIONS.contains(&node.kind()) {
            self.body(node, name, depth + 1);
        }
    }

    /// A type's members.
    fn body(&mut self, node: Node<'_>, owner: &str, depth: usize) {
        let container = match node.kind() {
            "interface_declaration" => Container::Interface,
            _ => Container::Class,
        };
        for part in code_children(node) {
            match part.kind() {
                "declaration_list" => {
                    for member in members_of(part) {
                        let kind = member.kind();
                        if TYPE_DECLARATIONS.contains(&kind) || MEMBER_DECLARATIONS.contains(&kind)
                        {
                            self.declaration(member, Some(owner), depth, container);
                        }
                    }
                }
                "enum_member_declaration_list" => {
                    for member in code_children(part)
                        .into_iter()
                        .filter(|m| m.kind() == "enum_member_declaration")
                    {
                        self.declaration(member, Some(owner), depth, Container::Interface);
                    }
                }
                _ => {}
            }
        }
    }
}

/// The members of a type's body, those under `#if`/`#elif`/`#else` too (every branch: which
/// one compiles is the build's to say).
fn members_of(body: Node<'_>) -> Vec<Node<'_>> {
    let mut out = Vec::new();
    let mut pending = vec![body];
    while let Some(node) = pending.pop() {
        for child in code_children(node) {
            match child.kind() {
                "preproc_if" | "preproc_elif" | "preproc_else" => pending.push(child),
                _ => out.push(child),
            }
        }
    }
    out.sort_by_key(|node| node.start_byte());
    out
}

/// Usings, namespaces and the names the file uses, TODO markers and nesting.
fn walk_file(root: Node<'_>, src: &str, out: &mut Extracted) {
    let signals = &mut out.signals;
    let mut imports: Vec<Import> = Vec::new();
    walk(root, Nesting::default(), |node, nesting| {
        match node.kind() {
            "comment" => {
                signals.todo_markers += count_markers(text_of(node, src));
                None
            }
            "using_directive" => {
                imports.extend(using_of(node, src));
                None
            }
            "method_declaration"
            | "constructor_declaration"
            | "local_function_statement"
            | "operator_declaration"
            | "accessor_declaration" => Some(nesting.function(true)),
            "lambda_expression" | "anonymous_method_expression" => Some(nesting.function(false)),
            "block" | "switch_body" => Some(nesting.block(signals)),
            _ => Some(nesting),
        }
    });
    for import in imports {
        out.imports.add_import(import);
    }
    let declared = namespaces(root, src);
    let mut used = used_names(root, src);
    // A partial type is one type with its other parts: each part names the others.
    for (_, types) in &declared {
        for ty in types {
            if modifier_words(*ty, src).contains(&"partial") {
                used.extend(type_key(*ty, src));
            }
        }
    }
    let used: Vec<String> = used.into_iter().collect();
    let mut first = true;
    for (namespace, _) in &declared {
        out.imports.add_import(Import {
            spec: format!("{NAMESPACE_SPEC}{namespace}"),
            line: 1,
            names: match first {
                true => used.clone(),
                false => Vec::new(),
            },
            ..Import::default()
        });
        first = false;
    }
    if declared.is_empty() {
        out.imports.add_import(Import {
            spec: NAMESPACE_SPEC.to_string(),
            line: 1,
            names: used,
            ..Import::default()
        });
    }
}

/// One `using` directive as an [`Import`]: `A.B`, `static A.B.C`, or `A.B.C` named `D` for
/// `using D = A.B.C;`.
pub fn using_of(node: Node<'_>, src: &str) -> Option<Import> {
    let mut cursor = node.walk();
    let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
    let is_static = children.iter().any(|c| c.kind() == "static");
    let alias = node.child_by_field_name("name");
    let target = children.iter().rev().find(|c| {
        c.is_named()
            && !c.is_extra()
            && alias.is_none_or(|a| a.id() != c.id())
            && c.kind() != "comment"
    })?;
    let name = compact(text_of(*target, src));
    let name = name.strip_prefix("global::").unwrap_or(&name).to_string();
    let spec = match is_static {
        true => format!("{STATIC_SPEC}{name}"),
        false => name,
    };
    Some(Import {
        spec,
        line: line_of(node),
        names: alias
            .map(|a| text_of(a, src).to_string())
            .into_iter()
            .collect(),
        ..Import::default()
    })
}

/// Whether a `using` directive is `global using`.
pub fn is_global_using(node: Node<'_>) -> bool {
    let mut cursor = node.walk();
    let found = node.children(&mut cursor).any(|c| c.kind() == "global");
    found
}

/// The names a file uses, as the resolver looks them up: a type or other simple name as written
/// (``Box`1`` for `Box<int>`: C# tells generic types apart by arity), an attribute also with its
/// `Attribute` suffix, a member after a `.` as `.Name` (an extension method the usings may bring),
/// and a dotted path of names (`A.B.C`, a namespace-qualified type) as `~A.B.C`.
pub fn used_names(root: Node<'_>, src: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    walk(root, (), |node, ()| {
        match node.kind() {
            "using_directive" | "comment" => return None,
            "namespace_declaration" | "file_scoped_namespace_declaration" => {
                // Its name is no use; its body is.
                return Some(());
            }
            _ if is_namespace_name(node) => return None,
            "identifier" => {
                if let Some(name) = use_of(node, src) {
                    used.insert(name);
                }
            }
            "generic_name" => {
                if let Some(name) = generic_use(node, src) {
                    used.insert(name);
                }
            }
            "qualified_name" | "member_access_expression" => {
                let outermost = node.parent().is_none_or(|p| {
                    !matches!(p.kind(), "qualified_name" | "member_access_expression")
                });
                if outermost {
                    if let Some(path) = dotted(node, src) {
                        if path.contains('.') {
                            used.insert(format!("~{path}"));
                        }
                    }
                }
            }
            "attribute" => {
                if let Some(name) = node.child_by_field_name("name") {
                    let text = text_of(name, src);
                    let simple = text.rsplit('.').next().unwrap_or(text).trim();
                    if is_word(simple) && !simple.ends_with("Attribute") {
                        used.insert(format!("{simple}Attribute"));
                    }
                }
            }
            _ => {}
        }
        Some(())
    });
    used
}

/// Whether `node` is (part of) the name a namespace declaration declares.
fn is_namespace_name(node: Node<'_>) -> bool {
    let mut current = node;
    while let Some(parent) = current.parent() {
        match parent.kind() {
            "qualified_name" => current = parent,
            "namespace_declaration" | "file_scoped_namespace_declaration" => {
                return parent
                    .child_by_field_name("name")
                    .is_some_and(|n| n.id() == current.id())
            }
            _ => return false,
        }
    }
    false
}

/// Whether `text` is one identifier.
fn is_word(text: &str) -> bool {
    !text.is_empty()
        && text.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !text.starts_with(|c: char| c.is_ascii_digit())
}

/// A `member_access_expression` or `qualified_name` as a dotted path of plain names (`A.B.C`);
/// `None` when a part is anything else (a call, an indexer, `this`).
fn dotted(node: Node<'_>, src: &str) -> Option<String> {
    match node.kind() {
        "identifier" => Some(text_of(node, src).to_string()),
        "generic_name" => code_children(node)
            .into_iter()
            .find(|c| c.kind() == "identifier")
            .map(|n| text_of(n, src).to_string()),
        // `global::A.B`: from the global namespace, as any dotted name is tried last.
        "alias_qualified_name" => {
            let alias = node.child_by_field_name("alias")?;
            (text_of(alias, src) == "global")
                .then(|| dotted(node.child_by_field_name("name")?, src))
                .flatten()
        }
        "qualified_name" | "member_access_expression" => {
            let (left, right) = match node.kind() {
                "qualified_name" => (
                    node.child_by_field_name("qualifier")?,
                    node.child_by_field_name("name")?,
                ),
                _ => (
                    node.child_by_field_name("expression")?,
                    node.child_by_field_name("name")?,
                ),
            };
            Some(format!("{}.{}", dotted(left, src)?, dotted(right, src)?))
        }
        _ => None,
    }
}

/// The name a `generic_name` uses: ``Box`1`` of `Box<int>`, `.Add` of `x.Add<int>()`.
fn generic_use(node: Node<'_>, src: &str) -> Option<String> {
    let name = code_children(node)
        .into_iter()
        .find(|c| c.kind() == "identifier")?;
    let name = text_of(name, src);
    let arity = code_children(node)
        .into_iter()
        .find(|c| c.kind() == "type_argument_list")
        .map_or(1, |list| text_of(list, src).matches(',').count() + 1);
    let parent = node.parent()?;
    let is_name_of = |field: &str| {
        parent
            .child_by_field_name(field)
            .is_some_and(|n| n.id() == node.id())
    };
    match parent.kind() {
        "member_access_expression" if is_name_of("name") => Some(format!(".{name}")),
        "qualified_name" if is_name_of("name") => None,
        _ => Some(format!("{name}`{arity}")),
    }
}

/// How the identifier `node` is used: `None` for a name it declares (a type, member, parameter,
/// variable) or one looked up elsewhere (a qualified name's later part, a named argument).
fn use_of(node: Node<'_>, src: &str) -> Option<String> {
    let parent = node.parent()?;
    let name = text_of(node, src);
    let is_field = |field: &str| {
        parent
            .child_by_field_name(field)
            .is_some_and(|n| n.id() == node.id())
    };
    match parent.kind() {
        // The name of a generic type or method: read by `generic_use`.
        "generic_name" => None,
        "member_access_expression" if is_field("name") => Some(format!(".{name}")),
        "qualified_name" if is_field("name") => None,
        "alias_qualified_name" => None,
        kind if (TYPE_DECLARATIONS.contains(&kind)
            || MEMBER_DECLARATIONS.contains(&kind)
            || matches!(
                kind,
                "variable_declarator"
                    | "parameter"
                    | "type_parameter"
                    | "enum_member_declaration"
                    | "local_function_statement"
                    | "catch_declaration"
                    | "foreach_statement"
                    | "destructor_declaration"
                    | "tuple_element"
                    | "declaration_expression"
                    | "single_variable_designation"
                    | "label_statement"
                    | "from_clause"
                    | "let_clause"
                    | "join_clause"
                    | "query_continuation"
            ))
            && is_field("name") =>
        {
            None
        }
        "type_parameter" | "single_variable_designation" | "implicit_parameter" => None,
        "argument" | "name_colon" | "name_equals" if is_named_argument(node) => None,
        _ => Some(name.to_string()),
    }
}

/// Whether an identifier names an argument (`name: value`), not a value.
fn is_named_argument(node: Node<'_>) -> bool {
    let parent = node.parent();
    parent.is_some_and(|p| matches!(p.kind(), "name_colon" | "name_equals"))
        || node.next_sibling().is_some_and(|n| n.kind() == ":")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::testing::{docs, imports, parse, rows, signature_of};
    use crate::source::Language;

    const BOX: &str = "using System;\nusing static Polly.Utils.Guard;\nusing Alias = Polly.Retry.RetryOptions;\nglobal using Polly.Core;\n\nnamespace Polly.Boxes;\n\n/// <summary>\n/// A box of <see cref=\"T\"/> values.\n/// </summary>\npublic sealed partial class Box<T> : BoxBase, IDisposable\n{\n    /// <summary>The size.</summary>\n    public int Size { get; private set; } = 3;\n    public Func<int, Task<int>>? Callback { get; }\n#if NET8_0\n    public void Net8Only() { }\n#endif\n    private int hidden;\n    internal const int Max = 4;\n    int alsoHidden;\n    /// <summary>Opens it.</summary>\n    /// <param name=\"n\">How far.</param>\n    public void Open(int n) { Helper.Go(n); var r = new Retry<int>(); x.AddRetry(); }\n    protected virtual void OnOpen() { }\n    void IDisposable.Dispose() { }\n    private class Secret { public void S() { } }\n    public enum Color { Red, Green }\n}\n\ninternal interface IShape\n{\n    double Area();\n}\n\nclass Default { public void D() { } }\n\npublic delegate void Opened(Box<int> box);\n";

    #[test]
    fn listed_declarations_with_xml_docs() {
        let interface = parse(Language::CSharp, BOX);
        assert!(!interface.has_errors);
        let names: Vec<(Option<&str>, SymbolKind, &str)> =
            rows(&interface).iter().map(|r| (r.0, r.1, r.2)).collect();
        assert_eq!(
            names,
            [
                (None, SymbolKind::Interface, "IShape"),
                (None, SymbolKind::Class, "Box"),
                (None, SymbolKind::Class, "Default"),
                (None, SymbolKind::TypeAlias, "Opened"),
                (Some("Box"), SymbolKind::Method, "Dispose"),
                (Some("Box"), SymbolKind::Method, "Net8Only"),
                (Some("Box"), SymbolKind::Method, "OnOpen"),
                (Some("Box"), SymbolKind::Method, "Open"),
                (Some("Box"), SymbolKind::Enum, "Color"),
                (Some("Box"), SymbolKind::Constant, "Max"),
                (Some("Box"), SymbolKind::Variable, "Callback"),
                (Some("Box"), SymbolKind::Variable, "Size"),
                (Some("Color"), SymbolKind::Constant, "Green"),
                (Some("Color"), SymbolKind::Constant, "Red"),
                (Some("Default"), SymbolKind::Method, "D"),
                (Some("IShape"), SymbolKind::Method, "Area"),
            ]
        );
        let signature = |name: &str| signature_of(&interface, name);
        assert_eq!(
            signature("Box").as_deref(),
            Some("public sealed partial class Box<T> : BoxBase, IDisposable")
        );
        assert_eq!(
            signature("Size").as_deref(),
            Some("public int Size { get; private set; }")
        );
        assert_eq!(signature("Max").as_deref(), Some("internal const int Max"));
        assert_eq!(
            signature("Callback").as_deref(),
            Some("public Func<int, Task<int>>? Callback { get; }")
        );
        assert_eq!(
            signature("Open").as_deref(),
            Some("public void Open(int n)")
        );
        assert_eq!(
            docs(&interface),
            [
                ("Box", "A box of `T` values."),
                ("Size", "The size."),
                ("Open", "Opens it."),
            ]
        );
    }

    #[test]
    fn usings_namespaces_and_names_used() {
        let interface = parse(Language::CSharp, BOX);
        assert_eq!(
            imports(&interface),
            [
                ("System", 1),
                ("static Polly.Utils.Guard", 2),
                ("Polly.Retry.RetryOptions", 3),
                ("Polly.Core", 4),
                ("namespace Polly.Boxes", 1),
            ]
        );
        let namespace = interface
            .imports
            .iter()
            .find(|i| i.spec == "namespace Polly.Boxes")
            .map(|i| i.names.clone())
            .unwrap_or_default();
        for used in [
            "BoxBase",
            "IDisposable",
            "Helper",
            "Retry`1",
            ".AddRetry",
            ".Go",
            "~Helper.Go",
            "Box`1",
        ] {
            assert!(namespace.iter().any(|n| n == used), "{used}: {namespace:?}");
        }
        for declared in [
            "Box", "Size", "Open", "hidden", "Color", "Red", "r", "Boxes", "Polly",
        ] {
            assert!(
                !namespace.iter().any(|n| n == declared),
                "{declared}: {namespace:?}"
            );
        }
    }
}
