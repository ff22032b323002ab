//! JavaScript, TypeScript and TSX extraction (one implementation; the TypeScript grammar is a
//! superset): `export` declarations, public class members, CommonJS `module.exports`/`exports.x`
//! assignments; `import`/`export … from`/`require`/`import()` specs; the leading file comment as
//! module doc; TODO and nesting signals.

use tree_sitter::Node;

use super::commonjs;
use crate::source::interface::{Import, SymbolKind};
use crate::source::syntax::{
    block_comment_lines, code_children, count_markers, finish_doc, has_child_kind, join,
    leading_doc, line_of, signature, text_of, tokens, walk, Builder, Extracted, Nesting,
};

/// Extract the interface parts of a JavaScript/TypeScript/TSX syntax tree.
pub(crate) fn extract(root: Node<'_>, src: &str) -> Extracted {
    let mut out = Extracted::default();
    let module = commonjs::scan(root, src);
    let mut exports = Exports {
        src,
        b: &mut out.builder,
    };
    for child in code_children(root) {
        match child.kind() {
            "export_statement" => exports.export(child),
            "expression_statement" => commonjs::statement(&module, child, src, exports.b),
            "for_in_statement" => commonjs::for_loop(&module, child, src, exports.b),
            "lexical_declaration" | "variable_declaration" => {
                for value in code_children(child)
                    .into_iter()
                    .filter_map(|declarator| declarator.child_by_field_name("value"))
                    .filter(|value| value.kind() == "assignment_expression")
                {
                    let doc = leading_doc(child, src);
                    commonjs::assignments(&module, (value, doc), src, exports.b);
                }
            }
            _ => {}
        }
    }
    walk_file(root, src, &mut out);
    out.doc = module_doc(root, src);
    out.syntax_ok = root.has_error() && only_newer_syntax(root, src);
    out.item_docs = module.docs;
    out.primary = module.primary;
    out
}

struct Exports<'s, 'b> {
    src: &'s str,
    b: &'b mut Builder,
}

fn is_function_value(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

impl Exports<'_, '_> {
    fn name_or_default(&self, node: Node<'_>) -> String {
        node.child_by_field_name("name")
            .map(|n| text_of(n, self.src).to_string())
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "default".to_string())
    }

    fn export(&mut self, node: Node<'_>) {
        let src = self.src;
        if let Some(decl) = node.child_by_field_name("declaration") {
            self.declaration(node, decl, 0);
            return;
        }
        if let Some(value) = node.child_by_field_name("value") {
            self.default_value(node, value);
            return;
        }
        let sig = signature(node, src, &[]);
        let name = sig.strip_prefix("export ").unwrap_or(&sig).to_string();
        // TypeScript `export = Foo`: the module is `Foo`.
        let name = match name.starts_with("= ") {
            true => "export =".to_string(),
            false => name,
        };
        let reexport = has_child_kind(node, "export_clause")
            || has_child_kind(node, "namespace_export")
            || has_child_kind(node, "*");
        let kind = if reexport {
            SymbolKind::Module
        } else {
            SymbolKind::Variable
        };
        self.b.add(0, kind, &name, None, sig);
    }

    /// `export [default|declare] <decl>`; signatures are taken from the whole export statement.
    fn declaration(&mut self, export: Node<'_>, decl: Node<'_>, level: usize) {
        let src = self.src;
        let body: Vec<Node<'_>> = decl.child_by_field_name("body").into_iter().collect();
        let doc = leading_doc(export, src);
        match decl.kind() {
            "function_declaration" | "generator_function_declaration" | "function_signature" => {
                let name = self.name_or_default(decl);
                let sig = signature(export, src, &body);
                self.b
                    .add_documented(0, SymbolKind::Function, &name, None, (sig, doc));
            }
            "class_declaration" | "abstract_class_declaration" | "class" => {
                let name = self.name_or_default(decl);
                let sig = signature(export, src, &body);
                self.class(&name, (sig, doc), body.first().copied());
            }
            "lexical_declaration" | "variable_declaration" => self.variables(export, decl, doc),
            "interface_declaration" => {
                let name = self.name_or_default(decl);
                let header = signature(export, src, &body);
                let members: Vec<String> = body
                    .first()
                    .map(|b| code_children(*b))
                    .unwrap_or_default()
                    .into_iter()
                    .map(|m| signature(m, src, &[]))
                    .filter(|m| !m.is_empty())
                    .collect();
                let sig = if members.is_empty() {
                    format!("{header} {{}}")
                } else {
                    format!("{header} {{ {} }}", members.join("; "))
                };
                self.b
                    .add_documented(0, SymbolKind::Interface, &name, None, (sig, doc));
            }
            "type_alias_declaration" => {
                let name = self.name_or_default(decl);
                let sig = signature(export, src, &[]);
                self.b
                    .add_documented(0, SymbolKind::TypeAlias, &name, None, (sig, doc));
            }
            "enum_declaration" => {
                let name = self.name_or_default(decl);
                let sig = signature(export, src, &[]);
                self.b
                    .add_documented(0, SymbolKind::Enum, &name, None, (sig, doc));
            }
            "internal_module" | "module" => {
                let name = self.name_or_default(decl);
                let sig = signature(export, src, &body);
                self.b
                    .add_documented(0, SymbolKind::Module, &name, None, (sig, doc));
            }
            "ambient_declaration" if level < 4 => {
                if let Some(inner) = code_children(decl).into_iter().next() {
                    self.declaration(export, inner, level + 1);
                }
            }
            _ => {
                let name = self.name_or_default(decl);
                let sig = signature(export, src, &[]);
                self.b
                    .add_documented(0, SymbolKind::Variable, &name, None, (sig, doc));
            }
        }
    }

    /// `export const a = …, b = …` → one symbol per declarator; initializers are dropped except
    /// for function values, whose parameters and return type are kept.
    fn variables(&mut self, export: Node<'_>, decl: Node<'_>, doc: Option<String>) {
        let src = self.src;
        let mut prefix = Vec::new();
        tokens(export, src, &[decl], &mut prefix);
        let keyword_node = decl.child_by_field_name("kind").or_else(|| decl.child(0));
        let keyword = keyword_node.map(|k| text_of(k, src)).unwrap_or("");
        if let Some(kw) = keyword_node {
            tokens(kw, src, &[], &mut prefix);
        }
        for declarator in code_children(decl) {
            if declarator.kind() != "variable_declarator" {
                continue;
            }
            let name = declarator
                .child_by_field_name("name")
                .map(|n| signature(n, src, &[]))
                .unwrap_or_default();
            let value = declarator.child_by_field_name("value");
            let function = value.filter(|v| is_function_value(*v));
            let excluded: Vec<Node<'_>> = match function {
                Some(f) => f.child_by_field_name("body").into_iter().collect(),
                None => value.into_iter().collect(),
            };
            let mut toks = prefix.clone();
            tokens(declarator, src, &excluded, &mut toks);
            let kind = if function.is_some() {
                SymbolKind::Function
            } else if keyword == "const" {
                SymbolKind::Constant
            } else {
                SymbolKind::Variable
            };
            self.b
                .add_documented(0, kind, &name, None, (join(&toks), doc.clone()));
        }
    }

    /// `export default <expression>`.
    fn default_value(&mut self, export: Node<'_>, value: Node<'_>) {
        let src = self.src;
        if is_function_value(value) {
            let name = self.name_or_default(value);
            let body: Vec<Node<'_>> = value.child_by_field_name("body").into_iter().collect();
            let sig = (signature(export, src, &body), leading_doc(export, src));
            self.b
                .add_documented(0, SymbolKind::Function, &name, None, sig);
        } else if value.kind() == "class" {
            let name = self.name_or_default(value);
            let body = value.child_by_field_name("body");
            let excluded: Vec<Node<'_>> = body.into_iter().collect();
            let sig = signature(export, src, &excluded);
            self.class(&name, (sig, leading_doc(export, src)), body);
        } else if value.kind() == "identifier" {
            let sig = signature(export, src, &[]);
            self.b.add(0, SymbolKind::Variable, "default", None, sig);
        } else {
            let sig = signature(export, src, &[value]);
            self.b.add(0, SymbolKind::Variable, "default", None, sig);
        }
    }

    /// A class header plus its public methods and fields.
    fn class(&mut self, name: &str, sig: (String, Option<String>), body: Option<Node<'_>>) {
        if !self.b.add_documented(0, SymbolKind::Class, name, None, sig) {
            return;
        }
        if let Some(body) = body {
            class_members(self.b, name, body, self.src);
        }
    }
}

/// The public methods and fields of the class `name` whose body is `body`, one level under it
/// (a class declaration's, or `module.exports = class Application extends Emitter { use(fn) {…} }`).
pub(crate) fn class_members(b: &mut Builder, name: &str, body: Node<'_>, src: &str) {
    for member in code_children(body) {
        let kind = match member.kind() {
            "method_definition" | "method_signature" | "abstract_method_signature" => {
                SymbolKind::Method
            }
            "public_field_definition" | "field_definition" => SymbolKind::Variable,
            _ => continue,
        };
        let Some(name_node) = member
            .child_by_field_name("name")
            .or_else(|| member.child_by_field_name("property"))
        else {
            continue;
        };
        let hidden = name_node.kind() == "private_property_identifier"
            || code_children(member).iter().any(|c| {
                c.kind() == "accessibility_modifier"
                    && matches!(text_of(*c, src), "private" | "protected")
            });
        if hidden {
            continue;
        }
        let excluded: Vec<Node<'_>> = member
            .child_by_field_name("body")
            .into_iter()
            .chain(member.child_by_field_name("value"))
            .collect();
        let member_sig = (signature(member, src, &excluded), leading_doc(member, src));
        let member_name = text_of(name_node, src);
        b.add_documented(1, kind, member_name, Some(name), member_sig);
    }
}

/// Whether every syntax error of the tree lies in a statement of a syntax newer than the grammar
/// (`export type * from …`, TypeScript 5.0): those are not parse errors worth a warning.
fn only_newer_syntax(root: Node<'_>, src: &str) -> bool {
    let mut cursor = root.walk();
    let statements: Vec<Node<'_>> = root.children(&mut cursor).collect();
    statements.iter().all(|statement| {
        !statement.has_error() || {
            let text = text_of(*statement, src);
            let words: Vec<&str> = text.split_whitespace().take(3).collect();
            matches!(words.as_slice(), ["export", "type", star, ..] if star.starts_with('*'))
        }
    })
}

/// The value of a string literal node, without quotes.
fn string_value(node: Node<'_>, src: &str) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let text = text_of(node, src);
    let inner = text.get(1..text.len().saturating_sub(1))?;
    (!inner.is_empty()).then(|| inner.to_string())
}

/// TypeScript's `import type { A } from './a'`, `import type A from './a'`, `export type { A } from
/// './a'`: erased from the emitted JavaScript, read only by the type checker. (`import type from
/// './a'` imports a default export named `type`.)
fn is_type_only_import(statement: &str) -> bool {
    let mut words = statement.split_whitespace();
    let keyword = words.next();
    let after = words.next();
    if !matches!(keyword, Some("import" | "export")) {
        return false;
    }
    match after {
        Some("type") => words
            .next()
            .is_some_and(|next| next != "from" && !next.starts_with('=')),
        Some(word) => word.starts_with("type{"),
        None => false,
    }
}

/// One full pass for imports and signals.
fn walk_file(root: Node<'_>, src: &str, out: &mut Extracted) {
    let signals = &mut out.signals;
    let imports = &mut out.imports;
    walk(root, Nesting::default(), |node, nesting| {
        match node.kind() {
            "comment" | "html_comment" => {
                let text = text_of(node, src);
                signals.todo_markers += count_markers(text);
                if text.starts_with("/**") {
                    // Types a JSDoc names: only the type checker reads them.
                    for spec in jsdoc_imports(text) {
                        imports.add_import(Import {
                            spec,
                            line: line_of(node),
                            type_only: true,
                            ..Import::default()
                        });
                    }
                }
                None
            }
            "import_statement" | "export_statement" | "import_require_clause" => {
                if let Some(spec) = node
                    .child_by_field_name("source")
                    .and_then(|s| string_value(s, src))
                {
                    imports.add_import(Import {
                        spec,
                        line: line_of(node),
                        type_only: is_type_only_import(text_of(node, src)),
                        ..Import::default()
                    });
                }
                // Descend: exports hold declarations, TS `import x = require(…)` holds a clause.
                Some(nesting)
            }
            "call_expression" => {
                let function = node.child_by_field_name("function");
                let is_loader = function.is_some_and(|f| {
                    f.kind() == "import"
                        || (f.kind() == "identifier" && text_of(f, src) == "require")
                });
                if is_loader {
                    let args = node
                        .child_by_field_name("arguments")
                        .map(code_children)
                        .unwrap_or_default();
                    if let [arg] = args.as_slice() {
                        if let Some(spec) = string_value(*arg, src) {
                            imports.add(spec, line_of(node));
                        }
                    }
                }
                Some(nesting)
            }
            "function_declaration" | "generator_function_declaration" | "method_definition" => {
                Some(nesting.function(true))
            }
            "arrow_function" | "function_expression" | "function" | "generator_function" => {
                Some(nesting.function(false))
            }
            "statement_block" => Some(nesting.block(signals)),
            _ => Some(nesting),
        }
    });
}

/// The modules a JSDoc comment refers to: `@import { A } from "x"` (TypeScript 5.5) and
/// `import("x")` type expressions (`@type {import("./x").T}`, `@typedef {import('x')} …`).
fn jsdoc_imports(comment: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in comment.lines() {
        if let Some(at) = line.find("@import") {
            if let Some(spec) = line[at..].split(" from ").nth(1).and_then(quoted) {
                out.push(spec);
            }
        }
        let mut rest = line;
        while let Some(at) = rest.find("import(") {
            let after = &rest[at + "import(".len()..];
            if let Some(spec) = quoted(after.trim_start()) {
                out.push(spec);
            }
            rest = after;
        }
    }
    out
}

/// The string at the start of `text`, in single, double or back quotes.
fn quoted(text: &str) -> Option<String> {
    let text = text.trim_start();
    let quote = text
        .chars()
        .next()
        .filter(|c| matches!(c, '"' | '\'' | '`'))?;
    let inner = &text[1..];
    let end = inner.find(quote)?;
    let spec = &inner[..end];
    (!spec.is_empty()).then(|| spec.to_string())
}

/// A run of comments at the top of the file.
struct Group {
    lines: Vec<String>,
    block: bool,
    end_row: usize,
}

fn is_line_pragma(body: &str) -> bool {
    body.starts_with('@')
        || [
            "eslint",
            "prettier-ignore",
            "#region",
            "#endregion",
            "<reference",
            "<amd-",
            "jshint",
            "istanbul",
            "tslint",
            "biome-ignore",
            "deno-",
        ]
        .iter()
        .any(|p| body.starts_with(p))
}

fn is_block_pragma(lines: &[String]) -> bool {
    let first = lines.iter().find(|l| !l.trim().is_empty());
    first.is_some_and(|l| {
        [
            "eslint",
            "global ",
            "globals ",
            "jshint",
            "istanbul",
            "prettier",
            "tslint",
            "@flow",
            "@jsx",
            "@ts-",
            "@format",
            "#__PURE__",
            "webpack",
        ]
        .iter()
        .any(|p| l.starts_with(p))
    })
}

fn is_license(lines: &[String]) -> bool {
    let first = lines.iter().map(|l| l.trim()).find(|l| !l.is_empty());
    let first_is_license = first.is_some_and(|l| {
        let lower = l.to_lowercase();
        ["copyright", "spdx", "@license", "(c)", "©", "@preserve"]
            .iter()
            .any(|p| lower.starts_with(p))
    });
    first_is_license
        || lines
            .iter()
            .any(|l| l.trim().starts_with("SPDX-License-Identifier"))
}

const FILE_TAGS: [&str; 4] = [
    "@fileoverview",
    "@file",
    "@overview",
    "@packageDocumentation",
];

fn is_declaration(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "export_statement"
            | "function_declaration"
            | "generator_function_declaration"
            | "class_declaration"
            | "abstract_class_declaration"
            | "lexical_declaration"
            | "variable_declaration"
            | "interface_declaration"
            | "type_alias_declaration"
            | "enum_declaration"
            | "internal_module"
            | "module"
            | "ambient_declaration"
    )
}

/// The leading comment block (`/** … */` or consecutive `//` lines) before any code, skipping
/// shebangs, tool pragmas and license headers. A comment directly attached to the first
/// declaration documents that declaration, not the file, unless it carries a `@file` tag.
fn module_doc(root: Node<'_>, src: &str) -> Option<String> {
    let mut groups: Vec<Group> = Vec::new();
    let mut open = false;
    let mut first_code = None;
    let mut cursor = root.walk();
    for child in root.children(&mut cursor) {
        match child.kind() {
            "hash_bang_line" => continue,
            "comment" => {}
            _ if child.is_extra() => continue,
            _ => {
                first_code = Some(child);
                break;
            }
        }
        let text = text_of(child, src);
        let start = child.start_position().row;
        let end = child.end_position().row;
        if let Some(body) = text.strip_prefix("//") {
            let body = body.trim_start_matches('/').trim();
            if is_line_pragma(body) {
                open = false;
                continue;
            }
            match groups.last_mut() {
                Some(group) if open && group.end_row + 1 == start => {
                    group.lines.push(body.to_string());
                    group.end_row = end;
                }
                _ => {
                    groups.push(Group {
                        lines: vec![body.to_string()],
                        block: false,
                        end_row: end,
                    });
                    open = true;
                }
            }
        } else {
            groups.push(Group {
                lines: block_comment_lines(text),
                block: true,
                end_row: end,
            });
            open = false;
        }
    }
    for group in &groups {
        if is_license(&group.lines) || (group.block && is_block_pragma(&group.lines)) {
            continue;
        }
        let tagged = group
            .lines
            .iter()
            .any(|l| FILE_TAGS.iter().any(|t| l.starts_with(t)));
        let attached = first_code
            .is_some_and(|c| is_declaration(c) && c.start_position().row == group.end_row + 1);
        if attached && !tagged {
            continue;
        }
        let lines: Vec<&str> = group
            .lines
            .iter()
            .map(|l| {
                FILE_TAGS
                    .iter()
                    .find_map(|t| l.strip_prefix(t))
                    .unwrap_or(l)
            })
            .collect();
        if let Some(doc) = finish_doc(&lines) {
            return Some(doc);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use crate::source::testing::{assert_hash_behaviour, imports, parse, rows};
    use crate::source::{Language, SymbolKind::*};

    const STORE_TS: &str = include_str!("../../../../fixtures/source/typescript/store.ts");
    const BUTTON_TSX: &str = include_str!("../../../../fixtures/source/tsx/Button.tsx");
    const FORMAT_JS: &str = include_str!("../../../../fixtures/source/javascript/format.js");
    const LEGACY_CJS: &str = include_str!("../../../../fixtures/source/javascript/legacy.cjs");

    #[test]
    fn extracts_the_typescript_fixture() {
        let iface = parse(Language::TypeScript, STORE_TS);
        assert!(!iface.has_errors);
        assert_eq!(
            rows(&iface),
            vec![
                (
                    None,
                    Module,
                    "* from \"./errors\"",
                    "export * from \"./errors\""
                ),
                (
                    None,
                    Module,
                    "{ DEFAULT_NAMESPACE as defaultNamespace }",
                    "export { DEFAULT_NAMESPACE as defaultNamespace }"
                ),
                (
                    None,
                    Function,
                    "createStore",
                    "export function createStore<T>(options: Partial<StoreOptions> = {}): Store<T>"
                ),
                (
                    None,
                    Function,
                    "subscribe",
                    "export const subscribe = <T>(store: Store<T>, listener: Listener<T>): (() => void) =>"
                ),
                (
                    None,
                    Enum,
                    "Scope",
                    "export enum Scope { Local = \"local\", Global = \"global\" }"
                ),
                (
                    None,
                    Interface,
                    "StoreOptions",
                    "export interface StoreOptions { persist: boolean; namespace?: string; onError(error: Error): void }"
                ),
                (
                    None,
                    Class,
                    "Store",
                    "export class Store<T> extends EventEmitter"
                ),
                (
                    None,
                    TypeAlias,
                    "Listener",
                    "export type Listener<T> = (value: T, previous: T | undefined) => void"
                ),
                (None, Constant, "VERSION", "export const VERSION: string"),
                (
                    Some("Store"),
                    Method,
                    "constructor",
                    "constructor(options: StoreOptions)"
                ),
                (
                    Some("Store"),
                    Method,
                    "get",
                    "get(key: string): T | undefined"
                ),
                (
                    Some("Store"),
                    Method,
                    "set",
                    "set(key: string, value: T): void"
                ),
                (Some("Store"), Variable, "size", "public size"),
            ]
        );
        let expected = "\
export type Listener<T> = (value: T, previous: T | undefined) => void
export interface StoreOptions { persist: boolean; namespace?: string; onError(error: Error): void }
export enum Scope { Local = \"local\", Global = \"global\" }
export class Store<T> extends EventEmitter
  public size
  constructor(options: StoreOptions)
  get(key: string): T | undefined
  set(key: string, value: T): void
export function createStore<T>(options: Partial<StoreOptions> = {}): Store<T>
export const subscribe = <T>(store: Store<T>, listener: Listener<T>): (() => void) =>
export const VERSION: string
export { DEFAULT_NAMESPACE as defaultNamespace }
export * from \"./errors\"";
        assert_eq!(iface.skeleton(), expected);
        assert_eq!(
            imports(&iface),
            vec![
                ("events", 8),
                ("./config", 9),
                ("../util/timing.js", 10),
                ("./errors", 67)
            ]
        );
        assert_eq!(
            iface.doc.as_deref(),
            Some(
                "A small key-value store with change subscriptions.\n\nUsed by the settings page."
            )
        );
        assert_eq!(iface.signals.lines, 67);
        assert_eq!(iface.signals.todo_markers, 1);
        assert_eq!(iface.signals.max_nesting, 0);
    }

    #[test]
    fn extracts_the_tsx_fixture() {
        let iface = parse(Language::Tsx, BUTTON_TSX);
        assert!(!iface.has_errors);
        assert_eq!(
            rows(&iface),
            vec![
                (
                    None,
                    Function,
                    "Button",
                    "export function Button({ label, onClick }: ButtonProps): JSX.Element"
                ),
                (
                    None,
                    Function,
                    "IconButton",
                    "export default function IconButton(props: ButtonProps)"
                ),
                (
                    None,
                    Interface,
                    "ButtonProps",
                    "export interface ButtonProps { label: string; onClick?: () => void }"
                ),
            ]
        );
        assert_eq!(
            iface.skeleton(),
            "export interface ButtonProps { label: string; onClick?: () => void }\n\
             export function Button({ label, onClick }: ButtonProps): JSX.Element\n\
             export default function IconButton(props: ButtonProps)"
        );
        assert_eq!(imports(&iface), vec![("react", 2), ("./classNames", 3)]);
        assert_eq!(iface.doc.as_deref(), Some("Buttons used across the app."));
    }

    #[test]
    fn extracts_the_javascript_fixture() {
        let iface = parse(Language::JavaScript, FORMAT_JS);
        assert!(!iface.has_errors);
        assert_eq!(
            rows(&iface),
            vec![
                (
                    None,
                    Function,
                    "formatRow",
                    "export function formatRow(cells, width = 80)"
                ),
                (
                    None,
                    Function,
                    "formatTable",
                    "export const formatTable = (rows, { width } = {}) =>"
                ),
                (
                    None,
                    Function,
                    "loadTheme",
                    "export async function loadTheme(name)"
                ),
                (None, Class, "Formatter", "export class Formatter"),
                (None, Variable, "default", "export default Formatter"),
                (
                    Some("Formatter"),
                    Method,
                    "constructor",
                    "constructor(stream)"
                ),
                (Some("Formatter"), Method, "write", "write(line)"),
                (Some("Formatter"), Variable, "indent", "indent"),
            ]
        );
        let expected = "\
export function formatRow(cells, width = 80)
export const formatTable = (rows, { width } = {}) =>
export class Formatter
  indent
  constructor(stream)
  write(line)
export default Formatter
export async function loadTheme(name)";
        assert_eq!(iface.skeleton(), expected);
        assert_eq!(imports(&iface), vec![("chalk", 8), ("./strings", 9)]);
        assert_eq!(
            iface.doc.as_deref(),
            Some("Formatting helpers for the command line.\nEverything here is pure.")
        );
        assert_eq!(iface.signals.lines, 47);
        assert_eq!(iface.signals.todo_markers, 1);
        assert_eq!(iface.signals.max_nesting, 3);
    }

    #[test]
    fn extracts_commonjs_exports() {
        let iface = parse(Language::JavaScript, LEGACY_CJS);
        assert_eq!(
            rows(&iface),
            vec![
                (None, Variable, "exports.version", "exports.version"),
                (
                    None,
                    Variable,
                    "module.exports",
                    "module.exports = function resolve(p)"
                ),
                (
                    None,
                    Variable,
                    "module.exports.helpers",
                    "module.exports.helpers"
                ),
            ]
        );
        assert_eq!(
            iface.skeleton(),
            "module.exports = function resolve(p)\nmodule.exports.helpers\nexports.version"
        );
        assert_eq!(imports(&iface), vec![("path", 4), ("./helpers", 5)]);
        assert_eq!(iface.doc, None);
    }

    #[test]
    fn type_only_imports_are_told_from_value_imports() {
        let text = "import type { A } from './a';\nimport type B from './b';\nimport type from './c';\nexport type { D } from './d';\nimport { E } from './e';\nimport type{F} from './f';\n/** @typedef {import('./g').G} G */\nexport * from './h';\n";
        let iface = parse(Language::TypeScript, text);
        let type_only: Vec<(&str, bool)> = iface
            .imports
            .iter()
            .map(|i| (i.spec.as_str(), i.type_only))
            .collect();
        assert_eq!(
            type_only,
            [
                ("./a", true),
                ("./b", true),
                ("./c", false),
                ("./d", true),
                ("./e", false),
                ("./f", true),
                ("./g", true),
                ("./h", false),
            ]
        );
    }

    #[test]
    fn import_forms_are_all_recorded() {
        let text = "import a from './a';\nimport './b';\nexport { c } from './c';\nexport * as d from './d';\nconst e = require('./e');\nconst f = await import('./f');\nimport g = require('./g');\nconst h = require(name);\nimport a2 from './a';\n";
        let iface = parse(Language::TypeScript, text);
        assert_eq!(
            imports(&iface),
            vec![
                ("./a", 1),
                ("./b", 2),
                ("./c", 3),
                ("./d", 4),
                ("./e", 5),
                ("./f", 6),
                ("./g", 7),
            ]
        );
    }

    #[test]
    fn default_and_declare_exports() {
        let text = "export default class { run(): void {} }\nexport declare const flag: boolean;\nexport default { a: 1 };\nexport abstract class A { abstract go(): void; protected p(): void {} }\n";
        let iface = parse(Language::TypeScript, text);
        let rows = rows(&iface);
        assert!(rows.contains(&(None, Class, "default", "export default class")));
        assert!(rows.contains(&(Some("default"), Method, "run", "run(): void")));
        assert!(rows.contains(&(None, Constant, "flag", "export declare const flag: boolean")));
        assert!(rows.contains(&(None, Variable, "default", "export default")));
        assert!(rows.contains(&(Some("A"), Method, "go", "abstract go(): void")));
        assert!(!rows.iter().any(|r| r.2 == "p"));
    }

    const TS_BASE: &str = r#"/** Doc. */
import { x } from "./x";

export interface Options { verbose: boolean; name?: string }

export class Runner {
  private state = 0;
  constructor(private opts: Options) {}
  run(input: string): number { return input.length; }
  private reset(): void { this.state = 0; }
}

export function run(input: string, opts: Options): number {
  return new Runner(opts).run(input);
}

function helper(): void {}
const internal = 1;
"#;

    #[test]
    fn typescript_hash_ignores_non_interface_edits() {
        let body = TS_BASE.replace(
            "return new Runner(opts).run(input);",
            "const r = new Runner(opts);\n  return r.run(input) + 0;",
        );
        let comments = TS_BASE
            .replace("/** Doc. */", "/**\n * Other docs.\n */\n// more")
            .replace(
                "run(input: string): number {",
                "/** Runs. */\n  run(input: string /* raw */): number { /* go */",
            )
            .replace("verbose: boolean;", "/** loud */ verbose: boolean;");
        let reformatted = TS_BASE
            .replace(
                "export function run(input: string, opts: Options): number {",
                "export function run(\n  input:string,\n  opts : Options,\n) : number\n{",
            )
            .replace(
                "export interface Options { verbose: boolean; name?: string }",
                "export interface Options {\n  verbose: boolean\n  name?: string\n}",
            );
        let reordered = r#"export function run(input: string, opts: Options): number { return 0; }
export class Runner {
  run(input: string): number { return 1; }
  constructor(private opts: Options) {}
}
export interface Options { verbose: boolean; name?: string }
"#;
        let private = TS_BASE
            .replace(
                "function helper(): void {}",
                "function helper(a: number): number { return a; }",
            )
            .replace(
                "const internal = 1;",
                "const internal = 2;\nclass Hidden { go(): void {} }",
            )
            .replace("private reset(): void", "private reset(all: boolean): void");
        let different = [
            (
                "parameter type",
                TS_BASE.replace("run(input: string, opts", "run(input: string[], opts"),
            ),
            (
                "new export",
                format!("{TS_BASE}export function extra(): void {{}}\n"),
            ),
            (
                "private made public",
                TS_BASE.replace("function helper()", "export function helper()"),
            ),
            (
                "interface member",
                TS_BASE.replace("name?: string }", "name?: string; timeout: number }"),
            ),
            (
                "method return",
                TS_BASE.replace(
                    "run(input: string): number {",
                    "run(input: string): string {",
                ),
            ),
        ];
        assert_hash_behaviour(
            Language::TypeScript,
            TS_BASE,
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

    const JS_BASE: &str = r#"// Helpers.
import { pad } from "./strings";

export function format(value, width) {
  return pad(String(value), width);
}

export class Table {
  constructor(rows) { this.rows = rows; }
  render() { return this.rows.join("\n"); }
  #cache() {}
}

export const VERSION = "1.0";

function internal() {}
"#;

    #[test]
    fn javascript_hash_ignores_non_interface_edits() {
        let body = JS_BASE.replace(
            "return pad(String(value), width);",
            "const s = String(value);\n  return pad(s, width);",
        );
        let comments = JS_BASE.replace("// Helpers.", "/* Other. */").replace(
            "export function format",
            "/** Formats. */\nexport function format",
        );
        let reformatted = JS_BASE.replace(
            "export function format(value, width) {",
            "export function format(\n  value,\n  width,\n)\n{",
        );
        let reordered = "export const VERSION = \"2.0\";\nexport class Table { render() {} constructor(rows) {} }\nexport function format(value, width) {}\n";
        let private = JS_BASE
            .replace(
                "function internal() {}",
                "function internal(a, b) { return a + b; }",
            )
            .replace("#cache() {}", "#cache(key) { return key; }");
        let different = [
            (
                "parameter",
                JS_BASE.replace("format(value, width)", "format(value, width, fill)"),
            ),
            (
                "new export",
                format!("{JS_BASE}export function extra() {{}}\n"),
            ),
            (
                "private made public",
                JS_BASE.replace("function internal()", "export function internal()"),
            ),
            ("new method", JS_BASE.replace("#cache() {}", "clear() {}")),
        ];
        assert_hash_behaviour(
            Language::JavaScript,
            JS_BASE,
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
    fn syntax_errors_still_yield_symbols() {
        for language in [Language::JavaScript, Language::TypeScript, Language::Tsx] {
            let text = "export function ok(a) { return a; }\nexport function broken(x { \nexport const after = 1;\n";
            let iface = parse(language, text);
            assert!(iface.has_errors, "{language:?}");
            assert!(
                rows(&iface).contains(&(None, Function, "ok", "export function ok(a)")),
                "{language:?}: {:?}",
                iface.symbols
            );
        }
    }

    #[test]
    fn module_doc_rules() {
        let cases: [(&str, Option<&str>); 8] = [
            (
                "#!/usr/bin/env node\n// @ts-check\n/** Tools. */\n\nexport const a = 1;\n",
                Some("Tools."),
            ),
            (
                "// Line one.\n// Line two.\n\n// Detached.\nimport x from 'x';\n",
                Some("Line one.\nLine two."),
            ),
            (
                "/*\n * Copyright 2020 Someone\n */\n/** Real doc. */\nimport x from 'x';\n",
                Some("Real doc."),
            ),
            (
                "// SPDX-License-Identifier: MIT\nexport const a = 1;\n",
                None,
            ),
            (
                "/** Documents the function, not the file. */\nexport function f() {}\n",
                None,
            ),
            (
                "/** @fileoverview Date helpers. */\nexport function f() {}\n",
                Some("Date helpers."),
            ),
            ("const a = 1;\n/** Too late. */\n", None),
            ("/* eslint-disable */\n// @flow\n", None),
        ];
        for (text, expected) in cases {
            assert_eq!(
                parse(Language::TypeScript, text).doc.as_deref(),
                expected,
                "{text:?}"
            );
        }
    }
}

#[cfg(test)]
mod commonjs_tests {
    use crate::source::testing::{parse, rows};
    use crate::source::{Language, SymbolKind::*};

    #[test]
    fn members_of_the_exported_object_are_its_interface() {
        let iface = parse(
            Language::JavaScript,
            include_str!("../../../../fixtures/source/javascript/express_app.js"),
        );
        let rows = rows(&iface);
        assert!(rows.contains(&(None, Variable, "module.exports", "module.exports = {  }")));
        assert!(rows.contains(&(None, Function, "app.use", "app.use = function use(fn)")));
        assert!(rows.contains(&(None, Function, "app.head", "app.head = function get(path)")));
        assert!(rows.contains(&(None, Function, "app.get", "app.get = function get(path)")));
        assert!(rows.contains(&(None, Variable, "app.router", "app.router  // getter")));
        assert!(!rows.iter().any(|r| r.2.starts_with("Helper")));
        assert_eq!(iface.primary.as_deref(), Some("module.exports"));
        assert_eq!(
            iface.item_doc("module.exports"),
            Some("Application prototype: settings, middleware and routing for one app.")
        );
    }

    #[test]
    fn module_exports_of_a_name_documents_the_name() {
        let iface = parse(
            Language::JavaScript,
            include_str!("../../../../fixtures/source/javascript/express_res.js"),
        );
        let rows = rows(&iface);
        assert!(rows.contains(&(None, Variable, "module.exports", "module.exports = res")));
        assert!(rows.contains(&(None, Function, "res.json", "res.json = function json(obj)")));
        assert_eq!(iface.primary.as_deref(), Some("res"));
        assert_eq!(iface.item_doc("res"), Some("Response prototype.\n@public"));
    }

    #[test]
    fn typescript_reexport_forms_parse_cleanly() {
        let iface = parse(
            Language::TypeScript,
            include_str!("../../../../fixtures/source/typescript/reexports.ts"),
        );
        assert!(!iface.has_errors, "export type * is valid TypeScript 5");
        let found = rows(&iface);
        assert!(found.contains(&(
            None,
            Module,
            "type * from './types'",
            "export type * from './types'"
        )));
        assert!(found.contains(&(
            None,
            Module,
            "{ a as b, c } from './x'",
            "export { a as b, c } from './x'"
        )));
        let iface = parse(
            Language::TypeScript,
            include_str!("../../../../fixtures/source/typescript/assign.ts"),
        );
        assert_eq!(
            rows(&iface),
            vec![(None, Variable, "export =", "export = Foo")]
        );
        assert_eq!(iface.primary.as_deref(), Some("Foo"));
    }
}
