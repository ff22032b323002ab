//! Kotlin extraction: the public interface of a file — its top-level classes, interfaces, objects,
//! functions (extension functions with their receiver: `fun String.slug()`), properties and type
//! aliases, and inside each public class, interface or object its members (functions, properties,
//! `val`/`var` constructor parameters, nested classes and objects, enum entries, the companion
//! object's members under the class) — each with its KDoc (`/** … */`, `[Name]` links read as
//! code). Kotlin declarations are public by default; `private`, `internal` (visible to its module
//! only) and `protected` ones are not the interface, nor is anything inside them.
//!
//! Imports are kept as written, one [`Import`] each: `a.b.C`, `a.b.*`, `a.b.C` for
//! `import a.b.C as D` (the alias in its `names`). One more entry carries what
//! `source::lang::kotlin::resolve` needs for the file's own package: [`PACKAGE_SPEC`] (`package
//! a.b`), its `names` the names the file uses without declaring them (types, called functions,
//! properties read), as kotlinc looks them up in the file's own package without an import.

use std::collections::BTreeSet;

use tree_sitter::Node;

use crate::source::interface::{Import, SymbolKind};
use crate::source::syntax::{
    block_comment_lines, code_children, compact, count_markers, finish_doc, line_of, text_of,
    tokens, walk, Builder, Extracted, Nesting,
};

/// The spec of the entry holding the file's package and the names it uses: `package a.b`
/// (`package ` alone in the default package).
pub const PACKAGE_SPEC: &str = "package ";

/// Annotations that make a function a test case (JUnit 4 and 5, kotlin.test).
pub const TEST_ANNOTATIONS: &[&str] = &[
    "Test",
    "ParameterizedTest",
    "RepeatedTest",
    "TestFactory",
    "TestTemplate",
];

/// Node kinds that declare something with a name at the top level or in a class body.
const DECLARATIONS: &[&str] = &[
    "class_declaration",
    "object_declaration",
    "function_declaration",
    "property_declaration",
    "type_alias",
];

/// Extract the interface parts of a Kotlin syntax tree. A tree the grammar could not build whole
/// because a class's constructor modifier starts the next line (`class A\nprivate constructor(…)`,
/// which tree-sitter-kotlin-ng 1.1 rejects) is read from the text with those lines joined, when
/// that parses.
pub(crate) fn extract(root: Node<'_>, src: &str) -> Extracted {
    if root.has_error() {
        if let Some((joined, tree)) = parse_joined(src) {
            let mut out = extract_tree(tree.root_node(), &joined);
            out.syntax_ok = !tree.root_node().has_error();
            return out;
        }
    }
    extract_tree(root, src)
}

/// `src` with each newline before a class's constructor (`class A\nprivate constructor(`) made a
/// space — the same bytes at the same offsets but those — parsed again; `None` when there is no
/// such line, no grammar in this build, or the joined text fails too.
pub(crate) fn parse_joined(src: &str) -> Option<(String, tree_sitter::Tree)> {
    let mut joined = src.as_bytes().to_vec();
    let mut changed = false;
    let mut start = 0;
    let mut previous: Option<(usize, &str)> = None;
    for line in src.split_inclusive('\n') {
        let text = line.trim();
        let words: Vec<&str> = text
            .split(|c: char| c == '(' || c.is_whitespace())
            .collect();
        let is_constructor = words
            .iter()
            .position(|w| *w == "constructor")
            .is_some_and(|at| {
                words[..at].iter().all(|w| {
                    w.starts_with('@')
                        || matches!(*w, "private" | "internal" | "protected" | "public" | "")
                })
            });
        if let Some((end, before)) = previous {
            let is_class_header = before.split_whitespace().any(|w| w == "class")
                && !before.ends_with('{')
                && !before.ends_with(')');
            if is_constructor && is_class_header {
                joined[end] = b' ';
                changed = true;
            }
        }
        start += line.len();
        previous = line.ends_with('\n').then_some((start - 1, text));
    }
    if !changed {
        return None;
    }
    let joined = String::from_utf8(joined).ok()?;
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&(super::KOTLIN.grammar?)()).ok()?;
    let tree = parser.parse(&joined, None)?;
    (!tree.root_node().has_error()).then_some((joined, tree))
}

/// The interface parts of a Kotlin syntax tree of `src`.
fn extract_tree(root: Node<'_>, src: &str) -> Extracted {
    let mut out = Extracted::default();
    let mut item_docs = Vec::new();
    {
        let mut members = Members {
            src,
            b: &mut out.builder,
        };
        for child in code_children(root) {
            if !DECLARATIONS.contains(&child.kind()) {
                continue;
            }
            if matches!(child.kind(), "class_declaration" | "object_declaration") {
                if let (Some(name), Some(doc)) = (declared_name(child, src), kdoc(child, src)) {
                    item_docs.push((name.to_string(), doc));
                }
            }
            members.declaration(child, None, 0);
        }
    }
    out.item_docs = item_docs;
    out.doc = file_doc(root, src);
    walk_file(root, src, &mut out);
    out
}

/// The package a file declares (`a.b`), `""` in the default package.
pub fn package_name(root: Node<'_>, src: &str) -> String {
    code_children(root)
        .into_iter()
        .find(|c| c.kind() == "package_header")
        .and_then(|p| {
            code_children(p)
                .into_iter()
                .find(|c| matches!(c.kind(), "qualified_identifier" | "identifier"))
        })
        .map(|name| compact(text_of(name, src)))
        .unwrap_or_default()
}

/// The file's KDoc: a `/** … */` right before its `package` line (the grammar may place it at the
/// end of a `@file:` annotation before it).
fn file_doc(root: Node<'_>, src: &str) -> Option<String> {
    let package = code_children(root)
        .into_iter()
        .find(|c| c.kind() == "package_header")?;
    if let Some(doc) = kdoc(package, src) {
        return Some(doc);
    }
    let previous = package.prev_sibling()?;
    let last = previous.child(previous.child_count().checked_sub(1)?)?;
    (previous.kind() == "file_annotation" && last.kind() == "block_comment")
        .then(|| kdoc_text(text_of(last, src)))
        .flatten()
}

/// The name a declaration declares: a class's, object's or function's `name`, a type alias's
/// `type`, a property's variable (`None` for a destructuring declaration).
pub fn declared_name<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    let name = match node.kind() {
        "type_alias" => node.child_by_field_name("type"),
        "property_declaration" => code_children(node)
            .into_iter()
            .find(|c| c.kind() == "variable_declaration")
            .and_then(|v| {
                code_children(v)
                    .into_iter()
                    .find(|c| c.kind() == "identifier")
            }),
        _ => node.child_by_field_name("name"),
    }?;
    Some(text_of(name, src))
}

/// Whether a `class_declaration` declares an interface (`interface`, `fun interface`).
pub(crate) fn is_interface(node: Node<'_>) -> bool {
    let mut cursor = node.walk();
    let found = node.children(&mut cursor).any(|c| c.kind() == "interface");
    found
}

/// A declaration's `modifiers` node.
fn modifiers(declaration: Node<'_>) -> Option<Node<'_>> {
    code_children(declaration)
        .into_iter()
        .find(|c| c.kind() == "modifiers")
}

/// The modifier words of a declaration (`private`, `data`, `override`), annotations left out.
fn modifier_words<'s>(declaration: Node<'_>, src: &'s str) -> Vec<&'s str> {
    modifiers(declaration)
        .map(code_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|c| c.kind() != "annotation")
        .map(|c| text_of(c, src))
        .collect()
}

/// Whether a declaration is part of the interface: none of `private`, `internal`, `protected`.
pub fn is_public(declaration: Node<'_>, src: &str) -> bool {
    !modifier_words(declaration, src)
        .iter()
        .any(|w| matches!(*w, "private" | "internal" | "protected"))
}

/// The annotations a declaration carries.
fn annotations(declaration: Node<'_>) -> Vec<Node<'_>> {
    modifiers(declaration)
        .map(code_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|c| c.kind() == "annotation")
        .collect()
}

/// An annotation's simple name (`Test` of `@org.junit.Test`, `Throws` of `@Throws(X::class)`).
fn annotation_name<'s>(annotation: Node<'_>, src: &'s str) -> &'s str {
    let ty = code_children(annotation)
        .into_iter()
        .find(|c| matches!(c.kind(), "user_type" | "constructor_invocation"));
    let ty = match ty {
        Some(node) if node.kind() == "constructor_invocation" => code_children(node)
            .into_iter()
            .find(|c| c.kind() == "user_type"),
        other => other,
    };
    let text = ty.map_or("", |t| text_of(t, src));
    let text = text.split('<').next().unwrap_or(text);
    text.rsplit('.').next().unwrap_or(text).trim()
}

/// Whether a function is a test case: annotated `@Test` (JUnit 4 and 5, kotlin.test),
/// `@ParameterizedTest`, `@RepeatedTest`, `@TestFactory` or `@TestTemplate`.
pub(crate) fn is_test_function(function: Node<'_>, src: &str) -> bool {
    annotations(function)
        .into_iter()
        .any(|a| TEST_ANNOTATIONS.contains(&annotation_name(a, src)))
}

/// A declaration's signature: its tokens without its body, annotations and comments; a property
/// without its initializer, delegate and accessors.
pub(crate) fn declaration_signature(node: Node<'_>, src: &str) -> String {
    let mut excluded = annotations(node);
    let mut after_value = false;
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        let kind = child.kind();
        if matches!(
            kind,
            "class_body"
                | "enum_class_body"
                | "function_body"
                | "getter"
                | "setter"
                | "property_delegate"
                | "block"
        ) || (node.kind() == "property_declaration" && (kind == "=" || after_value))
        {
            after_value |= node.kind() == "property_declaration" && kind == "=";
            excluded.push(child);
        }
    }
    let mut toks = Vec::new();
    tokens(node, src, &excluded, &mut toks);
    crate::source::syntax::join(&toks)
}

/// The `/** … */` comment right above a declaration (at most one blank line between), read as
/// text.
pub(crate) fn kdoc(node: Node<'_>, src: &str) -> Option<String> {
    let previous = node.prev_sibling()?;
    if previous.kind() != "block_comment"
        || previous.end_position().row + 2 < node.start_position().row
    {
        return None;
    }
    kdoc_text(text_of(previous, src))
}

/// A KDoc comment's text: markers and leading `*`s removed, `[Name]` links as `` `Name` ``.
fn kdoc_text(text: &str) -> Option<String> {
    if !text.starts_with("/**") || text == "/**/" {
        return None;
    }
    let lines: Vec<String> = block_comment_lines(text)
        .iter()
        .map(|line| links(line))
        .collect();
    finish_doc(&lines)
}

/// `[Name]` and `[Type.member]` links as code; `[label][Name]` as its label; other brackets kept.
fn links(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find('[') {
        out.push_str(&rest[..start]);
        let inner = &rest[start + 1..];
        let Some(end) = inner.find(']') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let name = &inner[..end];
        let is_link = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, '_' | '.' | '#'));
        match is_link {
            true => out.push_str(&format!("`{name}`")),
            false => out.push_str(&rest[start..start + 1 + end + 1]),
        }
        rest = &inner[end + 1..];
        // `[label][Name]`: the target after a label is not shown again.
        if let Some(target) = rest.strip_prefix('[') {
            if let Some(close) = target.find(']') {
                rest = &target[close + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Collects the public declarations and their members.
struct Members<'s, 'b> {
    src: &'s str,
    b: &'b mut Builder,
}

impl Members<'_, '_> {
    /// A declaration at `depth`, inside the class `parent` (`None` at the top level).
    fn declaration(&mut self, node: Node<'_>, parent: Option<&str>, depth: usize) {
        let src = self.src;
        if !is_public(node, src) {
            return;
        }
        let Some(name) = declared_name(node, src) else {
            return;
        };
        let words = modifier_words(node, src);
        let kind = match node.kind() {
            "class_declaration" if is_interface(node) => SymbolKind::Interface,
            "class_declaration" if words.contains(&"enum") => SymbolKind::Enum,
            "class_declaration" | "object_declaration" => SymbolKind::Class,
            "function_declaration" if parent.is_some() => SymbolKind::Method,
            "function_declaration" => SymbolKind::Function,
            "type_alias" => SymbolKind::TypeAlias,
            _ if words.contains(&"const") => SymbolKind::Constant,
            _ => SymbolKind::Variable,
        };
        let signature = declaration_signature(node, src);
        let doc = kdoc(node, src);
        if !self
            .b
            .add_documented(depth, kind, name, parent, (signature, doc))
        {
            return;
        }
        if matches!(node.kind(), "class_declaration" | "object_declaration") {
            self.body(node, name, depth + 1);
        }
    }

    /// A class's or object's members: its constructor properties, then its body.
    fn body(&mut self, node: Node<'_>, owner: &str, depth: usize) {
        let src = self.src;
        for part in code_children(node) {
            match part.kind() {
                "primary_constructor" => self.constructor_properties(part, owner, depth),
                "class_body" | "enum_class_body" => {
                    for member in code_children(part) {
                        match member.kind() {
                            kind if DECLARATIONS.contains(&kind) => {
                                self.declaration(member, Some(owner), depth)
                            }
                            "enum_entry" => {
                                let Some(name) = code_children(member)
                                    .into_iter()
                                    .find(|c| c.kind() == "identifier")
                                else {
                                    continue;
                                };
                                let name = text_of(name, src);
                                let doc = kdoc(member, src);
                                self.b.add_documented(
                                    depth,
                                    SymbolKind::Constant,
                                    name,
                                    Some(owner),
                                    (name.to_string(), doc),
                                );
                            }
                            "companion_object" if is_public(member, src) => {
                                // `Owner.of()`: a companion's members are reached through the class.
                                self.body(member, owner, depth);
                            }
                            "secondary_constructor" if is_public(member, src) => {
                                let signature = declaration_signature(member, src);
                                let doc = kdoc(member, src);
                                self.b.add_documented(
                                    depth,
                                    SymbolKind::Method,
                                    owner,
                                    Some(owner),
                                    (signature, doc),
                                );
                            }
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// A primary constructor's `val`/`var` parameters: properties of the class.
    fn constructor_properties(&mut self, constructor: Node<'_>, owner: &str, depth: usize) {
        let src = self.src;
        let parameters = code_children(constructor)
            .into_iter()
            .find(|c| c.kind() == "class_parameters");
        for parameter in parameters.map(code_children).unwrap_or_default() {
            let children = code_children(parameter);
            let is_property = {
                let mut cursor = parameter.walk();
                let found = parameter
                    .children(&mut cursor)
                    .any(|c| matches!(c.kind(), "val" | "var"));
                found
            };
            if !is_property || !is_public(parameter, src) {
                continue;
            }
            let Some(name) = children.iter().find(|c| c.kind() == "identifier") else {
                continue;
            };
            let mut excluded = annotations(parameter);
            let mut cursor = parameter.walk();
            let mut after_value = false;
            for child in parameter.children(&mut cursor) {
                after_value |= child.kind() == "=";
                if after_value {
                    excluded.push(child);
                }
            }
            let mut toks = Vec::new();
            tokens(parameter, src, &excluded, &mut toks);
            self.b.add_documented(
                depth,
                SymbolKind::Variable,
                text_of(*name, src),
                Some(owner),
                (crate::source::syntax::join(&toks), kdoc(parameter, src)),
            );
        }
    }
}

/// Imports, the names the file uses, TODO markers and nesting.
fn walk_file(root: Node<'_>, src: &str, out: &mut Extracted) {
    let signals = &mut out.signals;
    let mut imports: Vec<Import> = Vec::new();
    let mut used: BTreeSet<&str> = BTreeSet::new();
    let mut declared: BTreeSet<&str> = BTreeSet::new();
    walk(root, Nesting::default(), |node, nesting| {
        match node.kind() {
            "line_comment" | "block_comment" => {
                signals.todo_markers += count_markers(text_of(node, src));
                None
            }
            "import" => {
                imports.extend(import_of(node, src));
                None
            }
            "package_header" => None,
            "identifier" => {
                let name = text_of(node, src);
                match use_of(node) {
                    Use::Declared => {
                        declared.insert(name);
                    }
                    Use::Used => {
                        used.insert(name);
                    }
                    Use::Member => {}
                }
                None
            }
            "function_declaration" | "secondary_constructor" | "lambda_literal" => {
                Some(nesting.function(node.kind() != "lambda_literal"))
            }
            "block" | "class_body" | "when_expression" => Some(nesting.block(signals)),
            _ => Some(nesting),
        }
    });
    let package = package_name(root, src);
    for import in imports {
        out.imports.add_import(import);
    }
    let names = used
        .into_iter()
        .filter(|name| !declared.contains(name))
        .map(str::to_string)
        .collect();
    out.imports.add_import(Import {
        spec: format!("{PACKAGE_SPEC}{package}"),
        line: 1,
        names,
        ..Import::default()
    });
}

/// How an identifier is used.
enum Use {
    /// It names what a declaration declares (a class, function, parameter, local variable).
    Declared,
    /// It is looked up in scope: the file's package may declare it.
    Used,
    /// A later segment of a qualified type (`Entry` of `Map.Entry`), a label or an argument's
    /// name: looked up elsewhere. A member after a `.` is used: an extension function or property
    /// of the package (`x.buffer()`, `element.descriptor`) is called so.
    Member,
}

/// How the identifier `node` is used.
fn use_of(node: Node<'_>) -> Use {
    let Some(parent) = node.parent() else {
        return Use::Used;
    };
    let is_first = parent
        .named_child(0)
        .is_some_and(|first| first.id() == node.id());
    match parent.kind() {
        "class_declaration"
        | "object_declaration"
        | "function_declaration"
        | "companion_object"
            if parent
                .child_by_field_name("name")
                .is_some_and(|n| n.id() == node.id()) =>
        {
            Use::Declared
        }
        "type_alias"
            if parent
                .child_by_field_name("type")
                .is_some_and(|n| n.id() == node.id()) =>
        {
            Use::Declared
        }
        "variable_declaration"
        | "parameter"
        | "class_parameter"
        | "type_parameter"
        | "catch_block"
        | "enum_entry" => Use::Declared,
        // `x.buffer()`, `element.descriptor`: maybe an extension function or property of the
        // package.
        "navigation_expression" => Use::Used,
        "user_type" if !is_first => Use::Member,
        "value_argument" if node.next_sibling().is_some_and(|n| n.kind() == "=") => Use::Member,
        "label" | "setter" => Use::Member,
        _ => Use::Used,
    }
}

/// One `import` as an [`Import`]: `a.b.C`, `a.b.*`, `a.b.C` with its alias for `a.b.C as D`.
fn import_of(node: Node<'_>, src: &str) -> Option<Import> {
    let children = code_children(node);
    let name = children
        .iter()
        .find(|c| matches!(c.kind(), "qualified_identifier" | "identifier"))?;
    let mut spec = compact(text_of(*name, src));
    let mut cursor = node.walk();
    let all: Vec<Node<'_>> = node.children(&mut cursor).collect();
    if all.iter().any(|c| c.kind() == "*") {
        spec.push_str(".*");
    }
    let alias = all
        .iter()
        .skip_while(|c| c.kind() != "as")
        .find(|c| c.kind() == "identifier")
        .map(|alias| text_of(*alias, src).to_string());
    Some(Import {
        spec,
        line: line_of(node),
        names: alias.into_iter().collect(),
        ..Import::default()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::testing::{
        definition_labels, docs, flow_of, imports, parse, rows, signature_of, source_file,
    };
    use crate::source::Language;

    const BOX: &str = "package a.b\n\nimport a.c.D\nimport a.e.*\nimport a.f.G as H\n\n/** A box of [T]. */\npublic data class Box<T>(val x: Int, private val y: String) : Base(1), Runnable {\n  /** Runs. */\n  override fun run() { helper.go(1); this.size(); Util.make(); foo() }\n  internal fun hidden() {}\n  protected fun forSubclasses() {}\n  val size: Int get() = 1\n  companion object {\n    /** Makes one. */\n    @JvmStatic fun of(): Box<Int> = Box(1, \"\")\n    const val MAX = 3\n  }\n  constructor(x: Int) : this(x, \"\")\n}\n/** Slugs. */\nfun String.slug(n: Int): String = this\nprivate fun priv() = 1\ninternal class Hidden {\n  fun h() {}\n}\ntypealias Cb = (Int) -> Unit\nsealed interface Shape {\n  fun area(): Double\n}\nenum class Color { RED, GREEN }\nobject Single : Shape {\n  override fun area() = 0.0\n}\nvar top: Int = 1\n";

    #[test]
    fn public_declarations_with_kdoc() {
        let interface = parse(Language::Kotlin, BOX);
        assert!(!interface.has_errors);
        let names: Vec<(Option<&str>, SymbolKind, &str)> =
            rows(&interface).iter().map(|r| (r.0, r.1, r.2)).collect();
        assert_eq!(
            names,
            [
                (None, SymbolKind::Function, "slug"),
                (None, SymbolKind::Enum, "Color"),
                (None, SymbolKind::Interface, "Shape"),
                (None, SymbolKind::Class, "Box"),
                (None, SymbolKind::Class, "Single"),
                (None, SymbolKind::TypeAlias, "Cb"),
                (None, SymbolKind::Variable, "top"),
                (Some("Box"), SymbolKind::Method, "Box"),
                (Some("Box"), SymbolKind::Method, "of"),
                (Some("Box"), SymbolKind::Method, "run"),
                (Some("Box"), SymbolKind::Constant, "MAX"),
                (Some("Box"), SymbolKind::Variable, "size"),
                (Some("Box"), SymbolKind::Variable, "x"),
                (Some("Color"), SymbolKind::Constant, "GREEN"),
                (Some("Color"), SymbolKind::Constant, "RED"),
                (Some("Shape"), SymbolKind::Method, "area"),
                (Some("Single"), SymbolKind::Method, "area"),
            ]
        );
        let signature = |name: &str| signature_of(&interface, name);
        assert_eq!(
            signature("slug").as_deref(),
            Some("fun String.slug(n: Int): String")
        );
        assert_eq!(signature("MAX").as_deref(), Some("const val MAX"));
        assert_eq!(signature("top").as_deref(), Some("var top: Int"));
        assert_eq!(signature("of").as_deref(), Some("fun of(): Box<Int>"));
        assert_eq!(
            docs(&interface),
            [
                ("Box", "A box of `T`."),
                ("run", "Runs."),
                ("of", "Makes one."),
                ("slug", "Slugs."),
            ]
        );
        assert_eq!(interface.item_doc("Box"), Some("A box of `T`."));
    }

    #[test]
    fn imports_and_the_names_the_package_may_declare() {
        let interface = parse(Language::Kotlin, BOX);
        assert_eq!(
            imports(&interface),
            [("a.c.D", 3), ("a.e.*", 4), ("a.f.G", 5), ("package a.b", 1)]
        );
        let alias = interface.imports.iter().find(|i| i.spec == "a.f.G");
        assert_eq!(alias.map(|i| i.names.clone()), Some(vec!["H".to_string()]));
        let package = interface
            .imports
            .iter()
            .find(|i| i.spec == "package a.b")
            .map(|i| i.names.clone())
            .unwrap_or_default();
        // Used and not declared here: types, bare calls, members after a `.` (an extension
        // function of the package, maybe); not `size` (declared here).
        for used in [
            "Base", "Runnable", "Util", "foo", "helper", "make", "go", "Int",
        ] {
            assert!(package.iter().any(|n| n == used), "{used}: {package:?}");
        }
        for declared in ["Box", "x", "size", "slug", "n", "top", "Shape", "Hidden"] {
            assert!(!package.iter().any(|n| n == declared), "{declared}");
        }
    }

    /// tree-sitter-kotlin-ng fails on `class A\nprivate constructor(…)` (kotlinpoet's `FileSpec`):
    /// the text is read with the constructor joined to its class's line.
    #[test]
    fn a_constructor_on_the_line_after_its_class_is_read() {
        let text = "package a\n\n/** A file. */\npublic class FileSpec\nprivate constructor(\n  builder: Builder,\n) {\n  public val name: String = \"\"\n\n  public class Builder\n  internal constructor(public val name: String) {\n    public fun build(): FileSpec = FileSpec(this)\n  }\n}\n";
        let interface = parse(Language::Kotlin, text);
        assert!(!interface.has_errors);
        let names: Vec<(Option<&str>, &str)> =
            rows(&interface).iter().map(|r| (r.0, r.2)).collect();
        assert_eq!(
            names,
            [
                (None, "FileSpec"),
                (Some("Builder"), "build"),
                (Some("Builder"), "name"),
                (Some("FileSpec"), "Builder"),
                (Some("FileSpec"), "name"),
            ]
        );
        assert_eq!(interface.item_doc("FileSpec"), Some("A file."));
    }

    #[test]
    fn a_kdoc_before_the_package_is_the_files() {
        let text = "/*\n * Copyright.\n */\n\n/** Buffered sources and sinks. */\npackage okio\n\nfun f() {}\n";
        let interface = parse(Language::Kotlin, text);
        assert_eq!(
            interface.doc.as_deref(),
            Some("Buffered sources and sinks.")
        );
    }

    #[test]
    fn calls_raises_bases_and_test_cases() {
        let text = "package a\n\nclass Box(val n: Int) : Base(), Comparable<Box>, a.b.Serial {\n  fun get(): Int {\n    if (n < 0) throw IllegalStateException(\"Not a box: $n\")\n    return Util.clamp(helper.size(), Range(1, 2))\n  }\n  @Test fun works() { Box(1).get(); this.get() }\n}\nfun top() { make(); Box(2) }\n";
        let interface = parse(Language::Kotlin, text);
        let calls: Vec<String> = interface.calls.iter().map(|m| m.encode()).collect();
        assert_eq!(
            calls,
            [
                "Box.get IllegalStateException.IllegalStateException Util.clamp .size@helper Range.Range",
                "!Box.works .get Box.Box ^get",
                "top make Box.Box",
            ]
        );
        let get = interface.calls.iter().find(|m| m.member == "Box.get");
        assert_eq!(
            get.map(|m| m.raises.clone()),
            Some(vec!["IllegalStateException (\"Not a box: …\")".to_string()])
        );
        assert_eq!(
            interface.bases,
            [(
                "Box".to_string(),
                vec![
                    "Base".to_string(),
                    "Comparable".to_string(),
                    "Serial".to_string()
                ]
            )]
        );
    }

    #[test]
    fn definitions_and_flow_of_a_function() {
        let text = "package a\n\n/** Reads. */\nclass Reader : Base() {\n  private var count = 0\n  /** Reads all. */\n  fun readAll(names: List<String>) {\n    for (name in names) {\n      if (name.isEmpty()) {\n        continue\n      } else if (name == \"x\") {\n        skip()\n      }\n      try {\n        read(name)\n      } catch (e: IOException) {\n        throw IllegalStateException(\"cannot read\", e)\n      } finally {\n        count++\n      }\n    }\n  }\n  fun read(name: String) {}\n}\n";
        let file = source_file(Language::Kotlin, text);
        let labels = definition_labels(&file);
        assert_eq!(
            labels,
            [
                ("Reader", SymbolKind::Class),
                ("Reader.count", SymbolKind::Variable),
                ("Reader.readAll", SymbolKind::Method),
                ("Reader.read", SymbolKind::Method),
            ]
        );
        let reader = file.definition("Reader").expect("the class");
        assert_eq!(reader.bases, ["Base"]);
        assert_eq!(reader.doc.as_deref(), Some("Reads."));
        let flow = flow_of(&file, "Reader.readAll");
        assert_eq!(
            flow,
            [
                "for (name in names):",
                "  if name.isEmpty():",
                "    continue",
                "  else if name == \"x\":",
                "    skip()",
                "  try:",
                "    read(name)",
                "  catch (e: IOException):",
                "    throw IllegalStateException(\"cannot read\", e)",
                "  finally:",
                "    count++",
            ]
        );
    }
}
