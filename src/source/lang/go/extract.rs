//! Go extraction: the exported (capitalised) top-level functions, types, constants and variables,
//! methods as members of their receiver's type, a struct's exported fields and an interface's
//! methods as members of it, each with the doc comment directly above it; the import paths; the
//! package doc (`// Package x …` above the `package` clause); TODO and nesting signals.
//!
//! Signatures are the declaration's source tokens without body or comments, spaced as written
//! (gofmt fixes Go's spacing, so the source's spacing is the canonical one).

use tree_sitter::Node;

use crate::source::interface::{Import, SymbolKind};
use crate::source::syntax::{
    code_children, count_markers, finish_doc, line_of, text_of, walk, Extracted, Nesting,
};

/// Longest constant value kept in a signature, in bytes; a longer one is left out.
const MAX_VALUE: usize = 80;

/// Extract the interface parts of a Go syntax tree.
pub(crate) fn extract(root: Node<'_>, src: &str) -> Extracted {
    let mut out = Extracted::default();
    for node in code_children(root) {
        declaration(node, src, &mut out);
    }
    out.doc = code_children(root)
        .into_iter()
        .find(|node| node.kind() == "package_clause")
        .and_then(|clause| doc_above(clause, src));
    walk_file(root, src, &mut out);
    out
}

/// Whether a Go name is exported: it starts with an upper-case letter.
pub(crate) fn is_exported(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

/// Whether `name` is a function `go test` runs or documents: `TestXxx`, `BenchmarkXxx`,
/// `ExampleXxx`, `FuzzXxx` (or the bare prefix), the next character no lower-case letter.
pub(crate) fn is_test_function(name: &str) -> bool {
    ["Test", "Benchmark", "Example", "Fuzz"]
        .iter()
        .any(|prefix| {
            name.strip_prefix(prefix)
                .is_some_and(|rest| !rest.starts_with(|c: char| c.is_lowercase()))
        })
}

/// The type a method's receiver names (`Context` of `(c *Context)`, `Tree` of `(t *Tree[T])`).
pub(crate) fn receiver_type<'t>(method: Node<'t>) -> Option<Node<'t>> {
    let receiver = method.child_by_field_name("receiver")?;
    let parameter = code_children(receiver)
        .into_iter()
        .find(|p| p.kind() == "parameter_declaration")?;
    let mut ty = parameter.child_by_field_name("type")?;
    for _ in 0..4 {
        match ty.kind() {
            "type_identifier" => return Some(ty),
            "pointer_type" | "parenthesized_type" => ty = code_children(ty).into_iter().next()?,
            "generic_type" => ty = ty.child_by_field_name("type")?,
            _ => return None,
        }
    }
    None
}

/// The receiver's name of the method `node` is inside (`c` of `func (c *Context) Next()`), if any.
pub(crate) fn receiver_name_around<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    let mut current = node.parent();
    while let Some(n) = current {
        match n.kind() {
            "method_declaration" => {
                let receiver = n.child_by_field_name("receiver")?;
                let parameter = code_children(receiver)
                    .into_iter()
                    .find(|p| p.kind() == "parameter_declaration")?;
                return parameter
                    .child_by_field_name("name")
                    .map(|n| text_of(n, src));
            }
            "function_declaration" | "source_file" => return None,
            _ => current = n.parent(),
        }
    }
    None
}

/// The names the file's imports are used under, for `source::calls` to tell a package-qualified
/// call (`errors.New(…)`) from a method call: an import's alias (`b "…/binding"`), else its path's
/// last element without a major version (`…/validator/v10` → `validator`, `gopkg.in/yaml.v3` →
/// `yaml`) or a `go-` prefix / `-go` suffix (`…/go-isatty` → `isatty`). An import whose package
/// is named otherwise than its path stays a call through a receiver; `_` and `.` imports name none.
pub(crate) fn imported_package_names(root: Node<'_>, src: &str) -> Vec<String> {
    let mut names = Vec::new();
    walk(root, (), |node, ()| match node.kind() {
        "source_file" | "import_declaration" | "import_spec_list" => Some(()),
        "import_spec" => {
            let alias = node.child_by_field_name("name").map(|n| text_of(n, src));
            let path = node.child_by_field_name("path").map(|p| text_of(p, src));
            let name = match alias {
                Some(alias) => Some(alias.to_string()),
                None => path.and_then(package_of_path),
            };
            names.extend(name.filter(|n| is_package_name(n)));
            None
        }
        _ => None,
    });
    names
}

/// The name a package is used under when its import path names it (see
/// [`imported_package_names`]).
fn package_of_path(path: &str) -> Option<String> {
    let mut parts = path.trim_matches(['"', '`']).rsplit('/');
    let mut last = parts.next()?;
    let major = |p: &str| {
        p.strip_prefix('v')
            .is_some_and(|n| n.parse::<u32>().is_ok())
    };
    if major(last) {
        last = parts.next()?;
    }
    if let Some((name, version)) = last.rsplit_once('.') {
        if major(version) {
            last = name;
        }
    }
    let last = last.strip_prefix("go-").unwrap_or(last);
    Some(last.strip_suffix("-go").unwrap_or(last).to_string())
}

fn is_package_name(name: &str) -> bool {
    !name.is_empty()
        && name != "_"
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !name.starts_with(|c: char| c.is_ascii_digit())
}

/// The identifier a call is qualified by when written `x.Name(…)` with `x` a bare identifier (a
/// package or a local): `x`.
pub(crate) fn call_qualifier<'s>(call: Node<'_>, src: &'s str) -> Option<&'s str> {
    let function = call.child_by_field_name("function")?;
    (function.kind() == "selector_expression").then_some(())?;
    let operand = function.child_by_field_name("operand")?;
    (operand.kind() == "identifier").then(|| text_of(operand, src))
}

/// One top-level declaration.
fn declaration(node: Node<'_>, src: &str, out: &mut Extracted) {
    match node.kind() {
        "function_declaration" => {
            let Some(name) = node.child_by_field_name("name").map(|n| text_of(n, src)) else {
                return;
            };
            let doc = doc_above(node, src);
            if let Some(doc) = &doc {
                out.item_docs.push((name.to_string(), doc.clone()));
            }
            if is_exported(name) {
                let sig = signature(node, src, node.child_by_field_name("body"));
                out.builder
                    .add_documented(0, SymbolKind::Function, name, None, (sig, doc));
            }
        }
        "method_declaration" => {
            let name = node.child_by_field_name("name").map(|n| text_of(n, src));
            let ty = receiver_type(node).map(|t| text_of(t, src));
            let (Some(name), Some(ty)) = (name, ty) else {
                return;
            };
            if is_exported(name) && is_exported(ty) {
                let sig = signature(node, src, node.child_by_field_name("body"));
                let doc = doc_above(node, src);
                out.builder
                    .add_documented(0, SymbolKind::Method, name, Some(ty), (sig, doc));
            }
        }
        "type_declaration" => {
            let group = doc_above(node, src);
            let grouped = code_children(node).len() > 1;
            for spec in code_children(node) {
                if matches!(spec.kind(), "type_spec" | "type_alias") {
                    let doc = own_or_group_doc(spec, grouped, &group, src);
                    type_spec(spec, doc, src, out);
                }
            }
        }
        "const_declaration" | "var_declaration" => {
            let group = doc_above(node, src);
            let keyword = match node.kind() {
                "const_declaration" => "const",
                _ => "var",
            };
            let mut specs = code_children(node);
            if let Some(list) = specs.iter().find(|s| s.kind() == "var_spec_list") {
                specs = code_children(*list);
            }
            let grouped = specs.len() > 1;
            for spec in specs {
                if matches!(spec.kind(), "const_spec" | "var_spec") {
                    let doc = own_or_group_doc(spec, grouped, &group, src);
                    value_spec(keyword, spec, doc, src, out);
                }
            }
        }
        _ => {}
    }
}

/// A spec's own doc in a `( … )` group, else the group's doc (a lone spec's doc is the group's).
fn own_or_group_doc(
    spec: Node<'_>,
    grouped: bool,
    group: &Option<String>,
    src: &str,
) -> Option<String> {
    let own = if grouped { doc_above(spec, src) } else { None };
    own.or_else(|| group.clone())
}

/// `type Name struct {…}`, `type Name interface {…}`, `type Name = Other`, `type Name Other`.
fn type_spec(spec: Node<'_>, doc: Option<String>, src: &str, out: &mut Extracted) {
    let Some(name) = spec.child_by_field_name("name").map(|n| text_of(n, src)) else {
        return;
    };
    if let Some(doc) = &doc {
        out.item_docs.push((name.to_string(), doc.clone()));
    }
    if !is_exported(name) {
        return;
    }
    let ty = spec.child_by_field_name("type");
    let (kind, body) = match ty.map(|t| t.kind()) {
        Some("struct_type") => (
            SymbolKind::Struct,
            ty.and_then(|t| code_children(t).into_iter().next()),
        ),
        Some("interface_type") => (SymbolKind::Interface, ty),
        _ => (SymbolKind::TypeAlias, None),
    };
    let mut sig = format!("type {}", signature(spec, src, body));
    if kind == SymbolKind::Interface {
        sig.push_str(" interface");
    }
    if !out.builder.add_documented(0, kind, name, None, (sig, doc)) {
        return;
    }
    let Some(body) = body else { return };
    for member in code_children(body) {
        match member.kind() {
            "field_declaration" => field(member, name, src, out),
            "method_elem" => {
                let Some(method) = member.child_by_field_name("name").map(|n| text_of(n, src))
                else {
                    continue;
                };
                if is_exported(method) {
                    let sig = signature(member, src, None);
                    let doc = doc_above(member, src);
                    out.builder.add_documented(
                        1,
                        SymbolKind::Method,
                        method,
                        Some(name),
                        (sig, doc),
                    );
                }
            }
            "type_elem" => {
                let sig = signature(member, src, None);
                let embedded = embedded_name(&sig);
                if is_exported(embedded) {
                    let doc = doc_above(member, src);
                    out.builder.add_documented(
                        1,
                        SymbolKind::Interface,
                        embedded,
                        Some(name),
                        (sig.clone(), doc),
                    );
                }
            }
            _ => {}
        }
    }
}

/// The types a `type_spec` embeds, by the name they are reached by, in source order: a struct's
/// embedded fields (`*Engine`, `http.Handler` → `Engine`, `Handler`) and an interface's embedded
/// interfaces (`Reader; Writer`); a constraint's type set (`~int | ~string`) embeds nothing.
/// Unexported ones too: their promoted methods are the type's all the same.
pub(crate) fn embedded_types(spec: Node<'_>, src: &str) -> Vec<String> {
    let Some(ty) = spec.child_by_field_name("type") else {
        return Vec::new();
    };
    let lines = match ty.kind() {
        "struct_type" => code_children(ty)
            .into_iter()
            .find(|n| n.kind() == "field_declaration_list")
            .map(code_children)
            .unwrap_or_default(),
        "interface_type" => code_children(ty),
        _ => Vec::new(),
    };
    let mut found: Vec<String> = Vec::new();
    for line in lines {
        let embedded = match line.kind() {
            "field_declaration" if line.child_by_field_name("name").is_none() => line
                .child_by_field_name("type")
                .map(|t| signature(t, src, None)),
            "type_elem" => match code_children(line).as_slice() {
                [one]
                    if matches!(
                        one.kind(),
                        "type_identifier" | "qualified_type" | "generic_type"
                    ) =>
                {
                    Some(signature(*one, src, None))
                }
                _ => None,
            },
            _ => None,
        };
        if let Some(name) = embedded.as_deref().map(embedded_name) {
            if !name.is_empty() && !found.iter().any(|f| f == name) {
                found.push(name.to_string());
            }
        }
    }
    found
}

/// A Go interface type as declared: what deciding which types implement it needs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoInterface {
    pub name: String,
    /// Its own methods' names, exported or not, in source order.
    pub methods: Vec<String>,
    /// The interfaces it embeds, as written (`Reader`, `io.Writer`).
    pub embedded: Vec<String>,
    /// It has type parameters or a type set (`~int | ~string`): a constraint or a generic
    /// interface, whose implementers are not decided by method names.
    pub constrained: bool,
}

/// The interface types declared at the top level of the Go source `text` (none when it does not
/// parse).
pub fn interfaces(text: &str) -> Vec<GoInterface> {
    let Ok(tree) = crate::source::parse(crate::source::Language::Go, text) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for declaration in code_children(tree.root_node()) {
        if declaration.kind() != "type_declaration" {
            continue;
        }
        for spec in code_children(declaration) {
            let ty = spec.child_by_field_name("type");
            let name = spec.child_by_field_name("name");
            let (Some(ty), Some(name)) = (ty, name) else {
                continue;
            };
            if spec.kind() != "type_spec" || ty.kind() != "interface_type" {
                continue;
            }
            found.push(interface_of(spec, ty, text_of(name, text), text));
        }
    }
    found
}

/// The methods, embedded interfaces and constraints of the interface `name` (`ty` of `spec`).
fn interface_of(spec: Node<'_>, ty: Node<'_>, name: &str, src: &str) -> GoInterface {
    let mut interface = GoInterface {
        name: name.to_string(),
        constrained: spec.child_by_field_name("type_parameters").is_some(),
        ..GoInterface::default()
    };
    for line in code_children(ty) {
        match line.kind() {
            "method_elem" => {
                if let Some(method) = line.child_by_field_name("name") {
                    interface.methods.push(text_of(method, src).to_string());
                }
            }
            "type_elem" => match code_children(line).as_slice() {
                [one] if matches!(one.kind(), "type_identifier" | "qualified_type") => {
                    interface.embedded.push(text_of(*one, src).to_string());
                }
                _ => interface.constrained = true,
            },
            _ => {}
        }
    }
    interface
}

/// The name an embedded type is reached by: `ResponseWriter` of `http.ResponseWriter`, `*Engine`.
fn embedded_name(written: &str) -> &str {
    let bare = written.trim_start_matches('*');
    let bare = bare.split('[').next().unwrap_or(bare);
    bare.rsplit('.').next().unwrap_or(bare)
}

/// A struct field line: its exported names (or its embedded exported type) as members.
fn field(member: Node<'_>, parent: &str, src: &str, out: &mut Extracted) {
    let mut cursor = member.walk();
    let names: Vec<Node<'_>> = member.children_by_field_name("name", &mut cursor).collect();
    let doc = doc_above(member, src).or_else(|| trailing_comment(member, src));
    let sig = signature(member, src, member.child_by_field_name("tag"));
    if names.is_empty() {
        let embedded = embedded_name(&sig).to_string();
        if is_exported(&embedded) {
            out.builder.add_documented(
                1,
                SymbolKind::Variable,
                &embedded,
                Some(parent),
                (sig, doc),
            );
        }
        return;
    }
    let ty = member
        .child_by_field_name("type")
        .map(|t| signature(t, src, None))
        .unwrap_or_default();
    for name in names {
        let name = text_of(name, src);
        if is_exported(name) {
            let sig = format!("{name} {ty}");
            out.builder.add_documented(
                1,
                SymbolKind::Variable,
                name,
                Some(parent),
                (sig, doc.clone()),
            );
        }
    }
}

/// `const Name Type = value` / `var Name Type`: one symbol per exported name. A constant keeps a
/// short value (what it is worth is its meaning); a variable's value is its state, left out.
fn value_spec(keyword: &str, spec: Node<'_>, doc: Option<String>, src: &str, out: &mut Extracted) {
    let mut cursor = spec.walk();
    let names: Vec<&str> = spec
        .children_by_field_name("name", &mut cursor)
        .filter(|n| n.kind() == "identifier")
        .map(|n| text_of(n, src))
        .collect();
    let ty = spec
        .child_by_field_name("type")
        .map(|t| format!(" {}", signature(t, src, None)))
        .unwrap_or_default();
    let value = spec
        .child_by_field_name("value")
        .map(|v| signature(v, src, None))
        .filter(|v| keyword == "const" && names.len() == 1 && v.len() <= MAX_VALUE);
    let kind = match keyword {
        "const" => SymbolKind::Constant,
        _ => SymbolKind::Variable,
    };
    for name in names {
        if let Some(doc) = &doc {
            out.item_docs.push((name.to_string(), doc.clone()));
        }
        if !is_exported(name) {
            continue;
        }
        let sig = match &value {
            Some(value) => format!("{keyword} {name}{ty} = {value}"),
            None => format!("{keyword} {name}{ty}"),
        };
        out.builder
            .add_documented(0, kind, name, None, (sig, doc.clone()));
    }
}

/// The doc comment of a declaration: the `//` (or `/* */`) comments directly above it, with no
/// blank line between, directives (`//go:build`, `//nolint`) left out — as `go doc` reads it.
pub(crate) fn doc_above(node: Node<'_>, src: &str) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut row = node.start_position().row;
    let mut current = node.prev_sibling();
    while let Some(sibling) = current.filter(|s| s.kind() == "comment") {
        if sibling.end_position().row + 1 < row {
            break;
        }
        let text = text_of(sibling, src);
        let mut block: Vec<String> = match text.strip_prefix("//") {
            Some(body) if is_directive(body) => Vec::new(),
            Some(body) => vec![body.strip_prefix(' ').unwrap_or(body).to_string()],
            None => crate::source::syntax::block_comment_lines(text),
        };
        block.append(&mut lines);
        lines = block;
        row = sibling.start_position().row;
        current = sibling.prev_sibling();
    }
    finish_doc(&lines)
}

/// A comment line that is a directive to a tool, not documentation (`//go:generate`, `//nolint`,
/// `//lint:ignore`, `//export`): no space after the slashes and a word then a colon, or `nolint`.
fn is_directive(body: &str) -> bool {
    if body.starts_with(' ') || body.is_empty() {
        return false;
    }
    let word: String = body
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
        .collect();
    body[word.len()..].starts_with(':') || word == "nolint" || word == "export" || word == "line"
}

/// A comment on the same line after a field (`Name string // the user's name`).
fn trailing_comment(node: Node<'_>, src: &str) -> Option<String> {
    let next = node.next_sibling().filter(|n| n.kind() == "comment")?;
    (next.start_position().row == node.end_position().row).then_some(())?;
    let text = text_of(next, src);
    let body = text.strip_prefix("//")?;
    finish_doc(&[body.trim()])
}

/// The tokens of `node` without `excluded` (its body) or comments, spaced as written: one space
/// where the source has whitespace, none just inside brackets, no trailing comma before a closer.
pub(crate) fn signature(node: Node<'_>, src: &str, excluded: Option<Node<'_>>) -> String {
    let mut leaves: Vec<Node<'_>> = Vec::new();
    walk(node, (), |n, ()| {
        if excluded.is_some_and(|e| e.id() == n.id()) || n.kind() == "comment" {
            return None;
        }
        let atomic = matches!(
            n.kind(),
            "interpreted_string_literal" | "raw_string_literal" | "rune_literal"
        );
        if n.child_count() == 0 || atomic {
            leaves.push(n);
            return None;
        }
        Some(())
    });
    let mut out = String::new();
    let mut previous: Option<Node<'_>> = None;
    for (i, leaf) in leaves.iter().enumerate() {
        let text = text_of(*leaf, src);
        if text.is_empty() {
            continue;
        }
        let next = leaves.get(i + 1).map(|n| text_of(*n, src));
        if text == "," && next.is_none_or(|n| matches!(n, ")" | "]" | "}")) {
            continue;
        }
        if let Some(prev) = previous {
            let gap = prev.end_byte() < leaf.start_byte();
            let prev_text = text_of(prev, src);
            let glued =
                matches!(prev_text, "(" | "[" | "{") || matches!(text, ")" | "]" | "}" | ",");
            if gap && !glued {
                out.push(' ');
            }
        }
        out.push_str(&text.split_whitespace().collect::<Vec<_>>().join(" "));
        previous = Some(*leaf);
    }
    out
}

/// One pass for imports and signals.
fn walk_file(root: Node<'_>, src: &str, out: &mut Extracted) {
    let signals = &mut out.signals;
    let imports = &mut out.imports;
    walk(root, Nesting::default(), |node, nesting| {
        match node.kind() {
            "comment" => {
                signals.todo_markers += count_markers(text_of(node, src));
                None
            }
            "import_spec" => {
                let path = node
                    .child_by_field_name("path")
                    .map(|p| text_of(p, src).trim_matches(['"', '`']).to_string())
                    .unwrap_or_default();
                imports.add_import(Import {
                    spec: path,
                    line: line_of(node),
                    ..Import::default()
                });
                None
            }
            "interpreted_string_literal" | "raw_string_literal" => None,
            "function_declaration" | "method_declaration" => Some(nesting.function(true)),
            "func_literal" => Some(nesting.function(false)),
            "block" => Some(nesting.block(signals)),
            _ => Some(nesting),
        }
    });
}

#[cfg(test)]
mod tests {
    use crate::source::testing::{docs, imports, parse, rows};
    use crate::source::{Language, SymbolKind};

    const SOURCE: &str = r#"// Copyright 2024 The Authors.

//go:build !windows

// Package render writes responses.
//
// It knows JSON.
package render

import (
	"fmt"
	"net/http"

	jsoniter "github.com/json-iterator/go"
	"example.com/app/internal/bytesconv"
)

// JSON renders a value as JSON.
type JSON struct {
	// Data is what is written.
	Data any
	Indent bool `json:"indent"` // indent the output
	hidden int
	http.Handler
}

// Render writes the response.
//go:noinline
func (r JSON) Render(w http.ResponseWriter) error {
	if r.Indent {
		return fmt.Errorf("indent: %v", r.Data)
	}
	return nil
}

func (r *json) internal() {}

// Renderer is what every renderer is.
type Renderer interface {
	// Render writes the response.
	Render(http.ResponseWriter) error
	fmt.Stringer
	private()
}

// Modes.
const (
	// DebugMode shows everything.
	DebugMode = "debug"
	ReleaseMode string = "release"
	quiet = 1
)

// ErrMissing is returned when nothing is found.
var ErrMissing = fmt.Errorf("missing")

// New makes one.
func New[T any](
	data T,
	opts ...Option,
) (*JSON, error) {
	return nil, nil
}

type HandlerFunc = func(*JSON)

func helper() {}
"#;

    #[test]
    fn exported_names_with_their_docs_and_methods_as_members_of_their_type() {
        let interface = parse(Language::Go, SOURCE);
        let got = rows(&interface);
        let expected = [
            (
                None,
                SymbolKind::Constant,
                "DebugMode",
                "const DebugMode = \"debug\"",
            ),
            (
                None,
                SymbolKind::Constant,
                "ReleaseMode",
                "const ReleaseMode string = \"release\"",
            ),
            (
                None,
                SymbolKind::Function,
                "New",
                "func New[T any](data T, opts ...Option) (*JSON, error)",
            ),
            (None, SymbolKind::Struct, "JSON", "type JSON struct"),
            (
                None,
                SymbolKind::Interface,
                "Renderer",
                "type Renderer interface",
            ),
            (
                None,
                SymbolKind::TypeAlias,
                "HandlerFunc",
                "type HandlerFunc = func(*JSON)",
            ),
            (None, SymbolKind::Variable, "ErrMissing", "var ErrMissing"),
            (
                Some("JSON"),
                SymbolKind::Method,
                "Render",
                "func (r JSON) Render(w http.ResponseWriter) error",
            ),
            (Some("JSON"), SymbolKind::Variable, "Data", "Data any"),
            (
                Some("JSON"),
                SymbolKind::Variable,
                "Handler",
                "http.Handler",
            ),
            (Some("JSON"), SymbolKind::Variable, "Indent", "Indent bool"),
            (
                Some("Renderer"),
                SymbolKind::Interface,
                "Stringer",
                "fmt.Stringer",
            ),
            (
                Some("Renderer"),
                SymbolKind::Method,
                "Render",
                "Render(http.ResponseWriter) error",
            ),
        ];
        let mut expected = expected.to_vec();
        expected.sort_by(|a, b| (a.0, a.1, a.2).cmp(&(b.0, b.1, b.2)));
        assert_eq!(got, expected);
        assert_eq!(
            interface.doc.as_deref(),
            Some("Package render writes responses.\n\nIt knows JSON.")
        );
        let docs = docs(&interface);
        assert!(
            docs.contains(&("JSON", "JSON renders a value as JSON.")),
            "{docs:?}"
        );
        assert!(
            docs.contains(&("Render", "Render writes the response.")),
            "{docs:?}"
        );
        assert!(
            docs.contains(&("Data", "Data is what is written.")),
            "{docs:?}"
        );
        assert!(docs.contains(&("Indent", "indent the output")), "{docs:?}");
        assert!(
            docs.contains(&("DebugMode", "DebugMode shows everything.")),
            "{docs:?}"
        );
        assert!(docs.contains(&("ReleaseMode", "Modes.")), "{docs:?}");
        assert!(!interface.has_errors);
    }

    #[test]
    fn import_paths_in_source_order() {
        let interface = parse(Language::Go, SOURCE);
        assert_eq!(
            imports(&interface),
            [
                ("fmt", 11),
                ("net/http", 12),
                ("github.com/json-iterator/go", 14),
                ("example.com/app/internal/bytesconv", 15)
            ]
        );
        assert_eq!(interface.signals.max_nesting, 1);
    }

    #[test]
    fn a_doc_must_touch_its_declaration_and_directives_are_no_doc() {
        let interface = parse(
            Language::Go,
            "// Licence.\n\npackage x\n\n// Far away.\n\nfunc A() {}\n\n//go:generate stringer\nfunc B() {}\n",
        );
        assert_eq!(interface.doc, None);
        assert!(docs(&interface).is_empty(), "{:?}", docs(&interface));
    }

    #[test]
    fn embedded_structs_and_interfaces_are_bases_of_their_type() {
        let text = "package x\n\ntype Context struct {\n\t*Engine\n\thttp.Handler\n\tpool sync.Pool\n\tlist List[int]\n\tmeta[string]\n}\n\ntype ReadWriter interface {\n\tReader\n\tio.Writer\n\tClose() error\n}\n\ntype Number interface {\n\t~int | ~float64\n}\n\ntype Plain struct{ A int }\n\nfunc f() {\n\ttype local struct{ Engine }\n}\n";
        let interface = parse(Language::Go, text);
        assert_eq!(
            interface.bases,
            [
                (
                    "Context".to_string(),
                    vec![
                        "Engine".to_string(),
                        "Handler".to_string(),
                        "meta".to_string()
                    ]
                ),
                (
                    "ReadWriter".to_string(),
                    vec!["Reader".to_string(), "Writer".to_string()]
                ),
            ]
        );
        let file =
            crate::source::SourceFile::parse(Language::Go, text.to_string()).expect("parses");
        let context = file.definition("Context").expect("defined");
        assert_eq!(context.bases, ["Engine", "Handler", "meta"]);
    }

    #[test]
    fn interfaces_with_their_methods_embedded_interfaces_and_constraints() {
        let text = "package x\n\ntype ReadWriter interface {\n\tReader\n\tio.Writer\n\t// Close closes.\n\tClose() error\n\tflush()\n}\n\ntype Number interface {\n\t~int | ~float64\n}\n\ntype Set[T any] interface {\n\tHas(T) bool\n}\n\ntype Plain struct{ A int }\n";
        let found = super::interfaces(text);
        let names: Vec<&str> = found.iter().map(|i| i.name.as_str()).collect();
        assert_eq!(names, ["ReadWriter", "Number", "Set"]);
        assert_eq!(found[0].methods, ["Close", "flush"]);
        assert_eq!(found[0].embedded, ["Reader", "io.Writer"]);
        assert!(!found[0].constrained);
        assert!(found[1].constrained && found[2].constrained);
    }

    #[test]
    fn test_functions_are_named_by_go_test() {
        for name in [
            "TestA",
            "Test",
            "Test_a",
            "BenchmarkX",
            "ExampleEngine_Run",
            "FuzzParse",
        ] {
            assert!(super::is_test_function(name), "{name}");
        }
        for name in ["Testing", "Tester", "Examples", "helper", "TestMode"] {
            assert_eq!(super::is_test_function(name), name == "TestMode", "{name}");
        }
    }

    const FLOWING: &str = "package x\n\nfunc (s *Server) Serve(n int) error {\n\tif n < 0 {\n\t\tpanic(\"negative\")\n\t} else if n == 0 {\n\t\treturn errors.New(\"zero\")\n\t} else {\n\t\ts.log(n)\n\t}\n\tfor i := 0; i < n; i++ {\n\t\ts.Serve(i)\n\t}\n\tswitch n {\n\tcase 1:\n\t\treturn fmt.Errorf(\"one: %d\", n)\n\tdefault:\n\t\thelper()\n\t}\n\treturn nil\n}\n\nfunc helper() {}\n\nfunc TestServe(t *testing.T) {\n\thelper()\n}\n";

    #[test]
    fn calls_raises_and_members_of_their_receiver_type() {
        let interface = parse(Language::Go, FLOWING);
        let serve = interface
            .calls
            .iter()
            .find(|m| m.member == "Server.Serve")
            .expect("Server.Serve is a member");
        // `s.log`, `s.Serve`: through the method's own receiver.
        let callees: Vec<String> = serve.callees.iter().map(ToString::to_string).collect();
        assert!(callees.iter().any(|c| c == "^log"), "{callees:?}");
        assert!(callees.iter().any(|c| c == "helper"), "{callees:?}");
        // `errors` is not imported here: a call through a receiver named `errors`.
        assert!(callees.iter().any(|c| c == ".New@errors"), "{callees:?}");
        assert_eq!(
            serve.raises,
            [
                "panic (\"negative\")",
                "errors.New (\"zero\")",
                "fmt.Errorf (\"one: %d\")"
            ]
        );
        let test = interface.calls.iter().find(|m| m.member == "TestServe");
        assert!(test.is_some_and(|m| m.test), "a go test function is a test");
        assert!(!interface
            .calls
            .iter()
            .any(|m| m.member == "helper" && m.test));
    }

    #[test]
    fn flow_and_definitions_of_a_method() {
        let file =
            crate::source::SourceFile::parse(Language::Go, FLOWING.to_string()).expect("parses");
        let labels: Vec<&str> = file.definitions.iter().map(|d| d.label.as_str()).collect();
        assert_eq!(labels, ["Server.Serve", "helper", "TestServe"]);
        let serve = file.definition("Server.Serve").expect("defined");
        assert_eq!(serve.kind, SymbolKind::Method);
        let flow = file.flow(serve, crate::source::flow::MAX_LINES).indented();
        assert_eq!(
            flow,
            [
                "if n < 0:",
                "  panic(\"negative\")",
                "else if n == 0:",
                "  return errors.New(\"zero\")",
                "else:",
                "  s.log(n)",
                "for i := 0; i < n; i++:",
                "  s.Serve(i)  (recursive)",
                "switch n:",
                "  case 1:",
                "    return fmt.Errorf(\"one: %d\", n)",
                "  default:",
                "    helper()",
                "return nil",
            ]
        );
    }
}
