//! Java extraction: the public interface of a compilation unit — its `public`/`protected` types
//! (classes, interfaces, enums, records, annotation types), their `public`/`protected` members
//! (methods, constructors, fields, enum constants, annotation elements; every member of an
//! interface or annotation type unless `private`) and nested types, with their Javadoc (`/** … */`:
//! inline tags read as their text, `<p>` as a paragraph break, other HTML dropped) — its imports
//! and what same-package resolution needs, and a `package-info.java`'s package doc as the file's
//! doc.
//!
//! Imports are kept as written, one [`Import`] each: `a.b.C`, `a.b.*`, `static a.b.C.m`,
//! `static a.b.C.*`. Two more entries carry what `source::resolve::java` needs beyond them:
//! [`PACKAGE_SPEC`] (`package a.b`, its `names` the simple type names the file uses: identifiers
//! and type identifiers starting with a capital, as javac looks them up in the file's own package
//! and in its on-demand imports) and [`QUALIFIED_SPEC`] entries for fully qualified type names
//! written in code (`a.b.C` in `a.b.C.m()` or `new a.b.C()`).

use std::collections::BTreeSet;

use tree_sitter::Node;

use crate::source::interface::{Import, SymbolKind};
use crate::source::syntax::{
    block_comment_lines, code_children, compact, count_markers, finish_doc, line_of, text_of,
    tokens, walk, Builder, Extracted, Nesting,
};

/// The spec of the entry holding the file's package and the type names it uses:
/// `package a.b` (`package ` alone in the default package).
pub const PACKAGE_SPEC: &str = "package ";
/// The prefix of an entry for a fully qualified type name written in code: `qualified a.b.C`.
pub const QUALIFIED_SPEC: &str = "qualified ";
/// The prefix of a static import's spec: `static a.b.C.m`.
pub const STATIC_SPEC: &str = "static ";

/// Node kinds that declare a type.
const TYPE_DECLARATIONS: &[&str] = &[
    "class_declaration",
    "interface_declaration",
    "enum_declaration",
    "record_declaration",
    "annotation_type_declaration",
];

/// Annotations that make a method a test case (JUnit 4 and 5, TestNG).
pub const TEST_ANNOTATIONS: &[&str] = &[
    "Test",
    "ParameterizedTest",
    "RepeatedTest",
    "TestFactory",
    "TestTemplate",
];

/// Extract the interface parts of a Java syntax tree.
pub(crate) fn extract(root: Node<'_>, src: &str) -> Extracted {
    let mut out = Extracted::default();
    let mut types = Types {
        src,
        b: &mut out.builder,
    };
    let mut item_docs = Vec::new();
    for child in code_children(root) {
        if TYPE_DECLARATIONS.contains(&child.kind()) {
            if let Some(name) = child.child_by_field_name("name") {
                if let Some(doc) = javadoc(child, src) {
                    item_docs.push((text_of(name, src).to_string(), doc));
                }
            }
            types.declaration(child, None, 0);
        }
    }
    out.item_docs = item_docs;
    out.doc = package_doc(root, src);
    walk_file(root, src, &mut out);
    out
}

/// The package a compilation unit declares (`a.b`), `""` in the default package.
pub fn package_name(root: Node<'_>, src: &str) -> String {
    code_children(root)
        .into_iter()
        .find(|c| c.kind() == "package_declaration")
        .and_then(|p| {
            code_children(p)
                .into_iter()
                .find(|c| matches!(c.kind(), "scoped_identifier" | "identifier"))
        })
        .map(|name| compact(text_of(name, src)))
        .unwrap_or_default()
}

/// The Javadoc of a `package-info.java`: the `/** … */` right before its `package` declaration.
fn package_doc(root: Node<'_>, src: &str) -> Option<String> {
    let package = code_children(root)
        .into_iter()
        .find(|c| c.kind() == "package_declaration")?;
    javadoc(package, src)
}

/// Whether a declaration's modifiers include `word` (`public`, `static`, …).
fn has_modifier(declaration: Node<'_>, src: &str, word: &str) -> bool {
    modifiers(declaration).is_some_and(|m| text_of(m, src).split_whitespace().any(|w| w == word))
}

/// A declaration's `modifiers` node.
fn modifiers(declaration: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = declaration.walk();
    let found = declaration
        .children(&mut cursor)
        .find(|c| c.kind() == "modifiers");
    found
}

/// The annotations a declaration carries (`marker_annotation`, `annotation` nodes).
pub(crate) fn annotations(declaration: Node<'_>) -> Vec<Node<'_>> {
    let mut found: Vec<Node<'_>> = modifiers(declaration)
        .map(code_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|c| matches!(c.kind(), "marker_annotation" | "annotation"))
        .collect();
    let mut cursor = declaration.walk();
    found.extend(
        declaration
            .children(&mut cursor)
            .filter(|c| matches!(c.kind(), "marker_annotation" | "annotation")),
    );
    found
}

/// An annotation's simple name (`Test` of `@org.junit.Test`, `Nullable` of `@Nullable`).
pub(crate) fn annotation_name<'s>(annotation: Node<'_>, src: &'s str) -> &'s str {
    let name = annotation
        .child_by_field_name("name")
        .map_or("", |n| text_of(n, src));
    name.rsplit('.').next().unwrap_or(name)
}

/// Whether a method is a test case: annotated `@Test`, `@ParameterizedTest`, `@RepeatedTest`,
/// `@TestFactory` or `@TestTemplate`.
pub(crate) fn is_test_method(method: Node<'_>, src: &str) -> bool {
    annotations(method)
        .into_iter()
        .any(|a| TEST_ANNOTATIONS.contains(&annotation_name(a, src)))
}

/// A declaration's signature: its tokens without body, annotations and comments.
pub(crate) fn declaration_signature(node: Node<'_>, src: &str, body: Option<Node<'_>>) -> String {
    let mut excluded = annotations(node);
    excluded.extend(body);
    let mut toks = Vec::new();
    tokens(node, src, &excluded, &mut toks);
    crate::source::syntax::join(&toks)
}

/// The `/** … */` comment right above a declaration (line comments and blank lines may not stand
/// between), read as text.
pub(crate) fn javadoc(node: Node<'_>, src: &str) -> Option<String> {
    let previous = node.prev_sibling()?;
    if previous.kind() != "block_comment"
        || previous.end_position().row + 2 < node.start_position().row
    {
        return None;
    }
    let text = text_of(previous, src);
    if !text.starts_with("/**") || text == "/**/" {
        return None;
    }
    finish_doc(&javadoc_lines(text))
}

/// A Javadoc comment's lines as text: the markers and leading `*`s removed (`block_comment_lines`),
/// `<p>` a paragraph break, `{@code x}`/`{@link A#b label}` their text, other tags dropped,
/// entities decoded.
fn javadoc_lines(comment: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in block_comment_lines(comment) {
        let text = inline_tags(&line);
        let mut pieces = split_paragraphs(&text).into_iter();
        if let Some(first) = pieces.next() {
            out.push(strip_html(&first));
        }
        for piece in pieces {
            out.push(String::new());
            out.push(strip_html(&piece));
        }
    }
    // `<p>` after a blank line is one paragraph break.
    out.dedup_by(|line, previous| line.trim().is_empty() && previous.trim().is_empty());
    out
}

/// `line` cut at each `<p>` (a paragraph break), case-insensitively.
fn split_paragraphs(line: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    let mut rest = line;
    while let Some(at) = find_paragraph_tag(rest) {
        pieces.push(rest[..at.0].trim_end().to_string());
        rest = rest[at.1..].trim_start();
    }
    pieces.push(rest.to_string());
    pieces
}

/// The byte range of the first `<p>` or `<p …>` tag in `text`.
fn find_paragraph_tag(text: &str) -> Option<(usize, usize)> {
    let lower = text.to_ascii_lowercase();
    let mut from = 0;
    while let Some(found) = lower[from..].find("<p") {
        let start = from + found;
        let after = lower.as_bytes().get(start + 2).copied();
        if matches!(after, Some(b'>' | b' ' | b'/')) {
            let end = lower[start..]
                .find('>')
                .map_or(lower.len(), |e| start + e + 1);
            return Some((start, end));
        }
        from = start + 2;
    }
    None
}

/// `{@code x}` → `x`, `{@link A#b}` → `A.b`, `{@link A#b label}` → `label`; other inline tags
/// (`{@inheritDoc}`) their words.
fn inline_tags(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find("{@") {
        out.push_str(&rest[..start]);
        let inner = &rest[start + 2..];
        let Some(end) = inner.find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let tag = &inner[..end];
        let (name, body) = tag.split_once(char::is_whitespace).unwrap_or((tag, ""));
        let body = body.trim();
        let shown = match name {
            "link" | "linkplain" | "see" => match body.split_once(char::is_whitespace) {
                Some((_, label)) if !label.trim().is_empty() => label.trim().to_string(),
                _ => body.trim_start_matches('#').replace('#', "."),
            },
            _ => body.to_string(),
        };
        if !shown.is_empty() {
            out.push_str(&format!("`{shown}`"));
        }
        rest = &inner[end + 1..];
    }
    out.push_str(rest);
    out
}

/// `text` without HTML tags, with `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&nbsp;` decoded.
fn strip_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let after = &rest[start + 1..];
        let is_tag = after
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '/' || c == '!');
        match (is_tag, after.find('>')) {
            (true, Some(end)) => rest = &after[end + 1..],
            _ => {
                out.push('<');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&nbsp;", " ")
        .replace("&#64;", "@")
        .replace("&amp;", "&")
}

/// Collects the public types and their members.
struct Types<'s, 'b> {
    src: &'s str,
    b: &'b mut Builder,
}

impl Types<'_, '_> {
    /// A type declaration at `depth`, inside type `parent` (`None` at the top). Top-level types
    /// are kept when `public`; nested ones when `public` or `protected`, or members of an
    /// interface (implicitly public).
    fn declaration(&mut self, node: Node<'_>, parent: Option<(&str, bool)>, depth: usize) {
        let src = self.src;
        let Some(name) = node.child_by_field_name("name").map(|n| text_of(n, src)) else {
            return;
        };
        if !self.visible(node, parent) {
            return;
        }
        let kind = match node.kind() {
            "class_declaration" | "record_declaration" => SymbolKind::Class,
            "enum_declaration" => SymbolKind::Enum,
            _ => SymbolKind::Interface,
        };
        let body = node.child_by_field_name("body");
        let signature = declaration_signature(node, src, body);
        let doc = javadoc(node, src);
        if !self
            .b
            .add_documented(depth, kind, name, parent.map(|(p, _)| p), (signature, doc))
        {
            return;
        }
        let Some(body) = body else { return };
        let interface_like = matches!(
            node.kind(),
            "interface_declaration" | "annotation_type_declaration"
        );
        self.body(body, (name, interface_like), depth + 1);
    }

    /// The members of a type's body.
    fn body(&mut self, body: Node<'_>, owner: (&str, bool), depth: usize) {
        for member in code_children(body) {
            match member.kind() {
                "enum_constant" => self.enum_constant(member, owner.0, depth),
                "enum_body_declarations" => self.body(member, owner, depth),
                kind if TYPE_DECLARATIONS.contains(&kind) => {
                    self.declaration(member, Some(owner), depth)
                }
                "method_declaration"
                | "constructor_declaration"
                | "compact_constructor_declaration"
                | "annotation_type_element_declaration" => self.method(member, owner, depth),
                "field_declaration" | "constant_declaration" => self.field(member, owner, depth),
                _ => {}
            }
        }
    }

    /// Whether a member (or nested type) of `owner` is part of the interface.
    fn visible(&self, node: Node<'_>, owner: Option<(&str, bool)>) -> bool {
        let src = self.src;
        if has_modifier(node, src, "private") {
            return false;
        }
        match owner {
            None => has_modifier(node, src, "public"),
            Some((_, true)) => true,
            Some((_, false)) => {
                has_modifier(node, src, "public") || has_modifier(node, src, "protected")
            }
        }
    }

    fn method(&mut self, node: Node<'_>, owner: (&str, bool), depth: usize) {
        let src = self.src;
        if !self.visible(node, Some(owner)) {
            return;
        }
        let Some(name) = node.child_by_field_name("name").map(|n| text_of(n, src)) else {
            return;
        };
        let body = node.child_by_field_name("body");
        let signature = declaration_signature(node, src, body);
        let doc = javadoc(node, src);
        self.b.add_documented(
            depth,
            SymbolKind::Method,
            name,
            Some(owner.0),
            (signature, doc),
        );
    }

    fn field(&mut self, node: Node<'_>, owner: (&str, bool), depth: usize) {
        let src = self.src;
        if !self.visible(node, Some(owner)) {
            return;
        }
        let constant =
            owner.1 || (has_modifier(node, src, "static") && has_modifier(node, src, "final"));
        let kind = match constant {
            true => SymbolKind::Constant,
            false => SymbolKind::Variable,
        };
        let doc = javadoc(node, src);
        let declarators: Vec<Node<'_>> = {
            let mut cursor = node.walk();
            let found = node
                .children_by_field_name("declarator", &mut cursor)
                .collect();
            found
        };
        // `public static final int A = 1, B = 2;`: each name after the declaration's head.
        let mut excluded = annotations(node);
        excluded.extend(declarators.iter().copied());
        let mut toks = Vec::new();
        tokens(node, src, &excluded, &mut toks);
        toks.retain(|tok| !matches!(tok.text.as_ref(), "," | ";"));
        let head = crate::source::syntax::join(&toks);
        for declarator in &declarators {
            let Some(name) = declarator.child_by_field_name("name") else {
                continue;
            };
            let name = text_of(name, src);
            self.b.add_documented(
                depth,
                kind,
                name,
                Some(owner.0),
                (format!("{head} {name}"), doc.clone()),
            );
        }
    }

    fn enum_constant(&mut self, node: Node<'_>, owner: &str, depth: usize) {
        let src = self.src;
        let Some(name) = node.child_by_field_name("name").map(|n| text_of(n, src)) else {
            return;
        };
        let doc = javadoc(node, src);
        self.b.add_documented(
            depth,
            SymbolKind::Constant,
            name,
            Some(owner),
            (name.to_string(), doc),
        );
    }
}

/// Imports, the names the file uses, fully qualified names, TODO markers and nesting.
fn walk_file(root: Node<'_>, src: &str, out: &mut Extracted) {
    let signals = &mut out.signals;
    let mut imports: Vec<Import> = Vec::new();
    let mut used: BTreeSet<&str> = BTreeSet::new();
    let mut qualified: Vec<(String, usize)> = Vec::new();
    walk(root, Nesting::default(), |node, nesting| {
        match node.kind() {
            "line_comment" | "block_comment" => {
                signals.todo_markers += count_markers(text_of(node, src));
                None
            }
            "import_declaration" => {
                imports.extend(import_of(node, src));
                None
            }
            "package_declaration" => None,
            "type_identifier" | "identifier" => {
                let name = text_of(node, src);
                if name.starts_with(|c: char| c.is_ascii_uppercase()) && !is_qualified_part(node) {
                    used.insert(name);
                }
                None
            }
            "scoped_type_identifier" | "field_access" | "scoped_identifier" => {
                if let Some(name) = qualified_type(node, src) {
                    qualified.push((name, line_of(node)));
                }
                Some(nesting)
            }
            "method_declaration" | "constructor_declaration" | "lambda_expression" => {
                Some(nesting.function(node.kind() != "lambda_expression"))
            }
            "block" | "constructor_body" | "switch_block" => Some(nesting.block(signals)),
            _ => Some(nesting),
        }
    });
    let package = package_name(root, src);
    for import in imports {
        out.imports.add_import(import);
    }
    out.imports.add_import(Import {
        spec: format!("{PACKAGE_SPEC}{package}"),
        line: 1,
        names: used.into_iter().map(str::to_string).collect(),
        ..Import::default()
    });
    for (name, line) in qualified {
        out.imports.add(format!("{QUALIFIED_SPEC}{name}"), line);
    }
}

/// Whether a name is a later segment of a qualified name (`Entry` of `Map.Entry`, `C` of `a.b.C`):
/// looked up in what comes before it, not in the file's package.
fn is_qualified_part(node: Node<'_>) -> bool {
    node.parent().is_some_and(|parent| {
        matches!(
            parent.kind(),
            "scoped_type_identifier" | "scoped_identifier" | "field_access"
        ) && parent
            .named_child(0)
            .is_some_and(|first| first.id() != node.id())
    })
}

/// One `import` declaration as an [`Import`]: `a.b.C`, `a.b.*`, `static a.b.C.m`.
fn import_of(node: Node<'_>, src: &str) -> Option<Import> {
    let children = code_children(node);
    let name = children
        .iter()
        .find(|c| matches!(c.kind(), "scoped_identifier" | "identifier"))?;
    let mut spec = compact(text_of(*name, src));
    if children.iter().any(|c| c.kind() == "asterisk") {
        spec.push_str(".*");
    }
    let mut cursor = node.walk();
    let is_static = node.children(&mut cursor).any(|c| c.kind() == "static");
    if is_static {
        spec = format!("{STATIC_SPEC}{spec}");
    }
    Some(Import {
        spec,
        line: line_of(node),
        ..Import::default()
    })
}

/// A fully qualified type name written in code (`a.b.C` of `a.b.C.m()` or `a.b.C.Inner`): lower-case
/// segments then the first capitalised one; `None` for a name that starts with a capital (a type or
/// a constant) or has none.
fn qualified_type(node: Node<'_>, src: &str) -> Option<String> {
    // Only the outermost qualified name of a chain: its parent is no qualified name of the same.
    if node.parent().is_some_and(|p| {
        matches!(
            p.kind(),
            "scoped_type_identifier" | "field_access" | "scoped_identifier"
        )
    }) {
        return None;
    }
    let text = compact(text_of(node, src));
    let mut segments = Vec::new();
    for segment in text.split('.') {
        if segment.is_empty()
            || !segment
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        {
            return None;
        }
        segments.push(segment);
        if segment.starts_with(|c: char| c.is_ascii_uppercase()) {
            break;
        }
    }
    let last = segments.last()?;
    (segments.len() >= 2
        && last.starts_with(|c: char| c.is_ascii_uppercase())
        && segments[0].starts_with(|c: char| c.is_ascii_lowercase()))
    .then(|| segments.join("."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::testing::{
        definition_labels, docs, flow_of, imports, parse, rows, source_file,
    };
    use crate::source::Language;

    #[test]
    fn public_types_and_members_with_javadoc() {
        let text = "package a.b;\n\nimport java.util.List;\n\n/**\n * A parser of {@code JSON} text.\n *\n * <p>More.\n * @author x\n */\npublic final class Parser<T> extends Base implements Runnable {\n  /** The limit. */\n  public static final int MAX = 3, MIN = 1;\n  protected String name;\n  int hidden;\n  private int secret;\n  /** Makes one. */\n  public Parser(String name) throws IOException { this.name = name; }\n  @Override public void run() {}\n  void packagePrivate() {}\n  /** Nested. */\n  public static class Inner { public int x() { return 1; } }\n  private static class Hidden { public int y() { return 1; } }\n}\nclass Helper { public void h() {} }\ninterface Hook { void call(); }\n";
        let interface = parse(Language::Java, text);
        assert!(!interface.has_errors);
        assert_eq!(
            rows(&interface),
            [
                (
                    None,
                    SymbolKind::Class,
                    "Parser",
                    "public final class Parser<T> extends Base implements Runnable"
                ),
                (Some("Inner"), SymbolKind::Method, "x", "public int x()"),
                (
                    Some("Parser"),
                    SymbolKind::Method,
                    "Parser",
                    "public Parser(String name) throws IOException"
                ),
                (
                    Some("Parser"),
                    SymbolKind::Method,
                    "run",
                    "public void run()"
                ),
                (
                    Some("Parser"),
                    SymbolKind::Class,
                    "Inner",
                    "public static class Inner"
                ),
                (
                    Some("Parser"),
                    SymbolKind::Constant,
                    "MAX",
                    "public static final int MAX"
                ),
                (
                    Some("Parser"),
                    SymbolKind::Constant,
                    "MIN",
                    "public static final int MIN"
                ),
                (
                    Some("Parser"),
                    SymbolKind::Variable,
                    "name",
                    "protected String name"
                ),
            ]
        );
        assert_eq!(
            docs(&interface),
            [
                ("Parser", "A parser of `JSON` text."),
                ("MAX", "The limit."),
                ("MIN", "The limit."),
                ("Parser", "Makes one."),
                ("Inner", "Nested."),
            ]
        );
        assert_eq!(
            interface.item_doc("Parser"),
            Some("A parser of `JSON` text.\n\nMore.\n@author x")
        );
    }

    #[test]
    fn interface_members_are_public_unless_private() {
        let text = "public interface Shape {\n  int SIDES = 4;\n  double area();\n  default String label() { return \"\"; }\n  private void hidden() {}\n  enum Kind { ROUND, FLAT }\n}\n";
        let interface = parse(Language::Java, text);
        let names: Vec<(Option<&str>, &str)> =
            rows(&interface).iter().map(|r| (r.0, r.2)).collect();
        assert_eq!(
            names,
            [
                (None, "Shape"),
                (Some("Kind"), "FLAT"),
                (Some("Kind"), "ROUND"),
                (Some("Shape"), "area"),
                (Some("Shape"), "label"),
                (Some("Shape"), "Kind"),
                (Some("Shape"), "SIDES"),
            ]
        );
    }

    #[test]
    fn imports_package_names_used_and_qualified_names() {
        let text = "package a.b;\nimport java.util.List;\nimport c.d.*;\nimport static e.F.g;\nimport static e.G.*;\npublic class X extends Base {\n  List<Item> items = new ArrayList<>();\n  void f() { Util.run(MAX); a.z.Other.call(); new q.r.Made(); }\n}\n";
        let interface = parse(Language::Java, text);
        assert_eq!(
            imports(&interface),
            [
                ("java.util.List", 2),
                ("c.d.*", 3),
                ("static e.F.g", 4),
                ("static e.G.*", 5),
                ("package a.b", 1),
                ("qualified a.z.Other", 8),
                ("qualified q.r.Made", 8),
            ]
        );
        let package = interface
            .imports
            .iter()
            .find(|i| i.spec == "package a.b")
            .map(|i| i.names.clone());
        assert_eq!(
            package,
            Some(
                ["ArrayList", "Base", "Item", "List", "MAX", "Util", "X"]
                    .map(String::from)
                    .to_vec()
            )
        );
    }

    #[test]
    fn a_package_info_describes_its_package() {
        let text = "/**\n * Copyright banner.\n */\n\n/**\n * Helpers for <em>streams</em> &amp; readers.\n */\n@Annotated\npackage a.b;\n";
        let interface = parse(Language::Java, text);
        assert_eq!(
            interface.doc.as_deref(),
            Some("Helpers for streams & readers.")
        );
    }

    #[test]
    fn calls_raises_bases_and_test_cases() {
        let text = "package a;\npublic class Box extends Base implements Comparable<Box>, java.io.Serializable {\n  public Box() { this(1); init(); }\n  public int get() {\n    if (x < 0) throw new IllegalStateException(\"Not a box: \" + this);\n    return Util.clamp(helper.size(), new Range(1, 2));\n  }\n  @Test public void works() { new Box().get(); }\n}\n";
        let interface = parse(Language::Java, text);
        let calls: Vec<String> = interface.calls.iter().map(|m| m.encode()).collect();
        assert_eq!(
            calls,
            [
                "Box.Box ^init",
                "Box.get IllegalStateException.IllegalStateException Util.clamp .size@helper Range.Range",
                "!Box.works .get Box.Box",
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
                    "Serializable".to_string()
                ]
            )]
        );
    }

    #[test]
    fn definitions_and_flow_of_a_method() {
        let text = "package a;\n/** Reads. */\npublic class Reader extends Base {\n  private int count;\n  /** Reads all. */\n  public void readAll(java.util.List<String> names) throws IOException {\n    for (String name : names) {\n      if (name.isEmpty()) {\n        continue;\n      }\n      try {\n        read(name);\n      } catch (IOException e) {\n        throw new IllegalStateException(\"cannot read\", e);\n      } finally {\n        count++;\n      }\n    }\n  }\n  void read(String name) throws IOException {}\n}\n";
        let file = source_file(Language::Java, text);
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
                "for (String name : names):",
                "  if name.isEmpty():",
                "    continue",
                "  try:",
                "    read(name)",
                "  catch (IOException e):",
                "    throw new IllegalStateException(\"cannot read\", e)",
                "  finally:",
                "    count++",
            ]
        );
    }
}
