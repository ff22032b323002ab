//! PHP extraction: the public interface of a file — its classes, interfaces, traits and enums with
//! their public methods, constants, properties (constructor-promoted ones too) and enum cases, and
//! its top-level functions and constants — each with its PHPDoc (`/** … */`, the text before the
//! first `@tag`). A member without `private` or `protected` is public.
//!
//! Imports are the classes the file names, resolved as PHP resolves them at compile time: through
//! the namespace the file is in and its `use` statements (`use A\B`, `use A\B as C`, group uses
//! `use A\{B, C}`), a fully qualified name (`\A\B`) as written — in `use` statements, `new`,
//! static calls and constants (`Foo::bar()`, `Foo::class`), type declarations, `extends` and
//! `implements`, `instanceof`, `catch`, attributes and trait `use`. Each is one `Import` whose
//! spec is the fully qualified class name (`Slim\Routing\Route`); the resolver maps it to a file
//! through composer's autoload maps. `require`/`include` of a path the file builds from `__DIR__`
//! (`__DIR__ . '/x.php'`, `dirname(__DIR__) . '/x.php'`) or writes relative is one `Import` of
//! spec [`REQUIRE_SPEC`] and the path relative to the file's directory. A function the file calls
//! by name (`f()`, `\A\f()`, `A\f()`) or names in a `use function` is one `Import` of spec
//! [`FUNCTION_SPEC`] and the fully qualified names PHP tries for it, in order: an unqualified call
//! in namespace `A` is `A\f`, then the global `f` (PHP's fallback), unless a `use function`
//! names it. A `use const` is one `Import` of spec [`CONST_SPEC`] and the constant's name. The
//! resolver maps both to the project file declaring them, if any (`super::declared`).

use tree_sitter::Node;

use crate::source::interface::SymbolKind;
use crate::source::syntax::{
    block_comment_lines, code_children, count_markers, finish_doc, line_of, text_of, tokens, walk,
    Builder, Extracted, Nesting,
};

/// The spec prefix of a `require`/`include` import: `require:./x.php`, `require:../y.php`.
pub const REQUIRE_SPEC: &str = "require:";

/// The spec prefix of a function named: `function:A\f,f` (the names PHP tries, in order).
pub const FUNCTION_SPEC: &str = "function:";

/// The spec prefix of a constant a `use const` names: `const:A\VERSION`.
pub const CONST_SPEC: &str = "const:";

/// Names that are never classes where a class name may stand.
const NOT_CLASSES: &[&str] = &[
    "self", "static", "parent", "array", "callable", "iterable", "bool", "float", "int", "string",
    "void", "mixed", "object", "null", "false", "true", "never",
];

/// Attributes and PHPDoc tags that make a method a PHPUnit test.
const TEST_ATTRIBUTE: &str = "Test";

/// Extract the interface parts of a PHP syntax tree.
pub(crate) fn extract(root: Node<'_>, src: &str) -> Extracted {
    let mut out = Extracted::default();
    let mut reader = Reader {
        src,
        scope: Scope::default(),
        out: &mut out,
        item_docs: Vec::new(),
    };
    reader.statements(root);
    let item_docs = std::mem::take(&mut reader.item_docs);
    out.item_docs = item_docs;
    out.doc = file_doc(root, src);
    out
}

/// The names a file's namespace and `use` statements give classes: PHP's compile-time resolution.
#[derive(Clone, Debug, Default)]
pub(crate) struct Scope {
    /// The current namespace (`Slim\Routing`), `""` for the global one.
    pub namespace: String,
    /// `use` aliases of classes and namespaces: (lowercase alias, fully qualified name).
    pub aliases: Vec<(String, String)>,
    /// `use function` aliases: (lowercase alias, fully qualified name).
    pub functions: Vec<(String, String)>,
}

impl Scope {
    /// The fully qualified class name `node` (a `name`, `qualified_name` or `relative_name`)
    /// stands for; `None` for `self`, `static`, `parent` and the type keywords.
    pub(crate) fn class(&self, node: Node<'_>, src: &str) -> Option<String> {
        let text: String = text_of(node, src)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        self.class_name(&text)
    }

    /// The fully qualified class name a name written in code stands for.
    pub(crate) fn class_name(&self, text: &str) -> Option<String> {
        if text.is_empty()
            || !text
                .chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == '\\')
        {
            return None;
        }
        if let Some(qualified) = text.strip_prefix('\\') {
            return (!qualified.is_empty()).then(|| qualified.to_string());
        }
        let lower = text.to_ascii_lowercase();
        if let Some(rest) = lower.strip_prefix("namespace\\") {
            let rest = &text[text.len() - rest.len()..];
            return Some(self.within(rest));
        }
        if !text.contains('\\') && NOT_CLASSES.contains(&lower.as_str()) {
            return None;
        }
        let (first, rest) = match text.split_once('\\') {
            Some((first, rest)) => (first, Some(rest)),
            None => (text, None),
        };
        let first_lower = first.to_ascii_lowercase();
        if let Some((_, target)) = self.aliases.iter().find(|(alias, _)| *alias == first_lower) {
            return Some(match rest {
                Some(rest) => format!("{target}\\{rest}"),
                None => target.clone(),
            });
        }
        Some(self.within(text))
    }

    /// The [`FUNCTION_SPEC`] of a function called by the name `text` (as written): the fully
    /// qualified names PHP tries, comma-separated, in order.
    pub(crate) fn function_spec(&self, text: &str) -> Option<String> {
        let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let unqualified = !text.contains('\\');
        let lower = text.to_ascii_lowercase();
        let alias = self.functions.iter().find(|(alias, _)| *alias == lower);
        let names = match alias {
            Some((_, full)) if unqualified => full.clone(),
            _ if unqualified && !self.namespace.is_empty() => {
                // PHP's fallback: the namespace's function, else the global one.
                format!("{},{text}", self.within(&text))
            }
            _ if unqualified => text,
            _ => self.qualified(&text)?,
        };
        Some(format!("{FUNCTION_SPEC}{names}"))
    }

    /// The fully qualified name a qualified name written in code (`\A\f`, `A\f`, `namespace\f`)
    /// stands for: through the aliases of its first segment, else in the namespace.
    fn qualified(&self, text: &str) -> Option<String> {
        let valid = text
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '\\');
        if !valid || text.ends_with('\\') {
            return None;
        }
        self.class_name(text)
    }

    /// `name` in the current namespace.
    fn within(&self, name: &str) -> String {
        match self.namespace.is_empty() {
            true => name.to_string(),
            false => format!("{}\\{name}", self.namespace),
        }
    }
}

/// Reads a file's statements in order, keeping the namespace and `use` aliases in force.
struct Reader<'s, 'o> {
    src: &'s str,
    scope: Scope,
    out: &'o mut Extracted,
    item_docs: Vec<(String, String)>,
}

impl Reader<'_, '_> {
    /// The statements of a program or of a braced namespace's body.
    fn statements(&mut self, parent: Node<'_>) {
        let src = self.src;
        let mut cursor = parent.walk();
        let children: Vec<Node<'_>> = parent.children(&mut cursor).collect();
        for child in children {
            match child.kind() {
                "namespace_definition" => {
                    self.scope = Scope {
                        namespace: child
                            .child_by_field_name("name")
                            .map(|n| compact_name(text_of(n, src)))
                            .unwrap_or_default(),
                        ..Scope::default()
                    };
                    if let Some(body) = child.child_by_field_name("body") {
                        self.statements(body);
                        self.scope = Scope::default();
                    }
                }
                "namespace_use_declaration" => self.use_declaration(child),
                "class_declaration"
                | "interface_declaration"
                | "trait_declaration"
                | "enum_declaration" => {
                    self.type_declaration(child);
                    self.names(child);
                }
                "function_definition" => {
                    self.function(child);
                    self.names(child);
                }
                "const_declaration" => {
                    for (name, signature) in constants(child, src) {
                        self.out.builder.add_documented(
                            0,
                            SymbolKind::Constant,
                            &name,
                            None,
                            (signature, phpdoc(child, src)),
                        );
                    }
                    self.names(child);
                }
                _ => self.names(child),
            }
        }
    }

    /// A `use` statement: its classes become aliases and imports; `use function` and `use const`
    /// name functions and constants (aliases of their own, imports of their spec).
    fn use_declaration(&mut self, node: Node<'_>) {
        let src = self.src;
        let kind_of = |n: Node<'_>| {
            n.child_by_field_name("type")
                .map(|t| text_of(t, src).to_ascii_lowercase())
        };
        let declared = kind_of(node);
        let prefix = code_children(node)
            .into_iter()
            .find(|c| c.kind() == "namespace_name")
            .map(|n| compact_name(text_of(n, src)));
        let clauses: Vec<Node<'_>> = match node.child_by_field_name("body") {
            Some(group) => code_children(group),
            None => code_children(node),
        };
        for clause in clauses {
            if clause.kind() != "namespace_use_clause" {
                continue;
            }
            let kind = kind_of(clause).or_else(|| declared.clone());
            let Some(name) = code_children(clause)
                .into_iter()
                .find(|c| matches!(c.kind(), "name" | "qualified_name"))
            else {
                continue;
            };
            let written = compact_name(text_of(name, src));
            let written = written.trim_start_matches('\\');
            let full = match &prefix {
                Some(prefix) => format!("{}\\{written}", prefix.trim_start_matches('\\')),
                None => written.to_string(),
            };
            let alias = clause
                .child_by_field_name("alias")
                .map(|a| text_of(a, src).to_string())
                .unwrap_or_else(|| full.rsplit('\\').next().unwrap_or(&full).to_string());
            let spec = match kind.as_deref() {
                None => {
                    let alias = (alias.to_ascii_lowercase(), full.clone());
                    self.scope.aliases.push(alias);
                    full
                }
                Some("function") => {
                    let alias = (alias.to_ascii_lowercase(), full.clone());
                    self.scope.functions.push(alias);
                    format!("{FUNCTION_SPEC}{full}")
                }
                Some("const") => format!("{CONST_SPEC}{full}"),
                Some(_) => continue,
            };
            self.out.imports.add(spec, line_of(clause));
        }
    }

    /// A class, interface, trait or enum and its public members.
    fn type_declaration(&mut self, node: Node<'_>) {
        let src = self.src;
        let Some(name) = node.child_by_field_name("name").map(|n| text_of(n, src)) else {
            return;
        };
        let kind = match node.kind() {
            "interface_declaration" => SymbolKind::Interface,
            "trait_declaration" => SymbolKind::Trait,
            "enum_declaration" => SymbolKind::Enum,
            _ => SymbolKind::Class,
        };
        let doc = phpdoc(node, src);
        if let Some(doc) = &doc {
            self.item_docs.push((name.to_string(), doc.clone()));
        }
        let signature = declaration_signature(node, src);
        if !self
            .out
            .builder
            .add_documented(0, kind, name, None, (signature, doc))
        {
            return;
        }
        let Some(body) = node.child_by_field_name("body") else {
            return;
        };
        for member in code_children(body) {
            self.member(member, name);
        }
    }

    /// One member of a class-like body, when public.
    fn member(&mut self, member: Node<'_>, owner: &str) {
        let src = self.src;
        let b = &mut self.out.builder;
        match member.kind() {
            "method_declaration" if is_public(member, src) => {
                let Some(name) = member.child_by_field_name("name") else {
                    return;
                };
                let name = text_of(name, src);
                b.add_documented(
                    1,
                    SymbolKind::Method,
                    name,
                    Some(owner),
                    (declaration_signature(member, src), phpdoc(member, src)),
                );
                if name.eq_ignore_ascii_case("__construct") {
                    promoted_properties(member, src, owner, b);
                }
            }
            "const_declaration" if is_public(member, src) => {
                for (name, signature) in constants(member, src) {
                    b.add_documented(
                        1,
                        SymbolKind::Constant,
                        &name,
                        Some(owner),
                        (signature, phpdoc(member, src)),
                    );
                }
            }
            "property_declaration" if is_public(member, src) => {
                let prefix = property_prefix(member, src);
                for element in code_children(member) {
                    if element.kind() != "property_element" {
                        continue;
                    }
                    let Some(variable) = element.child_by_field_name("name") else {
                        continue;
                    };
                    let variable = text_of(variable, src);
                    b.add_documented(
                        1,
                        SymbolKind::Variable,
                        variable.trim_start_matches('$'),
                        Some(owner),
                        (format!("{prefix} {variable}"), phpdoc(member, src)),
                    );
                }
            }
            "enum_case" => {
                let Some(name) = member.child_by_field_name("name") else {
                    return;
                };
                let signature = declaration_signature(member, src);
                b.add_documented(
                    1,
                    SymbolKind::Constant,
                    text_of(name, src),
                    Some(owner),
                    (signature, phpdoc(member, src)),
                );
            }
            _ => {}
        }
    }

    /// A top-level function.
    fn function(&mut self, node: Node<'_>) {
        let src = self.src;
        let Some(name) = node.child_by_field_name("name").map(|n| text_of(n, src)) else {
            return;
        };
        let doc = phpdoc(node, src);
        if let Some(doc) = &doc {
            self.item_docs.push((name.to_string(), doc.clone()));
        }
        let signature = declaration_signature(node, src);
        self.out
            .builder
            .add_documented(0, SymbolKind::Function, name, None, (signature, doc));
    }

    /// The class names `node` uses, its `require`s, TODO markers and nesting.
    fn names(&mut self, node: Node<'_>) {
        let src = self.src;
        let scope = &self.scope;
        let out = &mut *self.out;
        let signals = &mut out.signals;
        let imports = &mut out.imports;
        walk(node, Nesting::default(), |node, nesting| {
            for name in class_references(node) {
                if let Some(full) = scope.class(name, src) {
                    imports.add(full, line_of(name));
                }
            }
            let function = called_function(node).map(|f| text_of(f, src));
            if let Some(spec) = function.and_then(|f| scope.function_spec(f)) {
                imports.add(spec, line_of(node));
            }
            match node.kind() {
                "comment" => {
                    signals.todo_markers += count_markers(text_of(node, src));
                    None
                }
                "include_expression"
                | "include_once_expression"
                | "require_expression"
                | "require_once_expression" => {
                    if let Some(path) = code_children(node)
                        .into_iter()
                        .next()
                        .and_then(|e| required_path(e, src))
                    {
                        imports.add(format!("{REQUIRE_SPEC}{path}"), line_of(node));
                    }
                    Some(nesting)
                }
                "function_definition" | "method_declaration" => Some(nesting.function(true)),
                "anonymous_function" | "arrow_function" => Some(nesting.function(false)),
                "compound_statement" | "switch_block" | "match_block" => {
                    Some(nesting.block(signals))
                }
                _ => Some(nesting),
            }
        });
    }
}

/// The nodes naming a class in `node` itself: the class of `new`, of a static call, constant or
/// property, of `instanceof`, a type, an `extends`/`implements` clause's names, an attribute, a
/// trait `use`.
pub(crate) fn class_references(node: Node<'_>) -> Vec<Node<'_>> {
    let is_name = |n: &Node<'_>| matches!(n.kind(), "name" | "qualified_name" | "relative_name");
    match node.kind() {
        "named_type" | "base_clause" | "class_interface_clause" | "use_declaration" => {
            code_children(node).into_iter().filter(is_name).collect()
        }
        "object_creation_expression" | "attribute" => code_children(node)
            .into_iter()
            .find(is_name)
            .into_iter()
            .collect(),
        "scoped_call_expression" | "scoped_property_access_expression" => node
            .child_by_field_name("scope")
            .filter(is_name)
            .into_iter()
            .collect(),
        "class_constant_access_expression" => {
            node.named_child(0).filter(is_name).into_iter().collect()
        }
        "binary_expression"
            if node
                .child_by_field_name("operator")
                .is_some_and(|o| o.kind() == "instanceof") =>
        {
            node.child_by_field_name("right")
                .filter(is_name)
                .into_iter()
                .collect()
        }
        _ => Vec::new(),
    }
}

/// The name a function call calls by (`f`, `\A\f`, `A\f`), when `node` is one.
fn called_function(node: Node<'_>) -> Option<Node<'_>> {
    if node.kind() != "function_call_expression" {
        return None;
    }
    node.child_by_field_name("function")
        .filter(|f| matches!(f.kind(), "name" | "qualified_name" | "relative_name"))
}

/// The path a `require`/`include` argument names relative to the file's directory: `x.php` for
/// `__DIR__ . '/x.php'`, `../x.php` for `dirname(__DIR__) . '/x.php'`, the literal itself for
/// a relative string; `None` for anything computed otherwise.
fn required_path(expression: Node<'_>, src: &str) -> Option<String> {
    let expression = match expression.kind() {
        "parenthesized_expression" => expression.named_child(0)?,
        _ => expression,
    };
    match expression.kind() {
        "string" | "encapsed_string" => {
            let text = literal(expression, src)?;
            (!text.starts_with('/')).then(|| normal_relative(&text))
        }
        "binary_expression" => {
            let operator = expression.child_by_field_name("operator")?;
            if operator.kind() != "." {
                return None;
            }
            let left = expression.child_by_field_name("left")?;
            let right = literal(expression.child_by_field_name("right")?, src)?;
            let up = dir_levels(left, src)?;
            let rest = right.strip_prefix('/')?;
            Some(normal_relative(&format!("{}{rest}", "../".repeat(up))))
        }
        _ => None,
    }
}

/// How many levels above the file's directory `node` names: 0 for `__DIR__` (or
/// `dirname(__FILE__)`), 1 for `dirname(__DIR__)`, n for `dirname(__DIR__, n)`.
fn dir_levels(node: Node<'_>, src: &str) -> Option<usize> {
    let text: String = text_of(node, src)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let lower = text.to_ascii_lowercase();
    match lower.as_str() {
        "__dir__" | "dirname(__file__)" => return Some(0),
        "dirname(__dir__)" | "dirname(dirname(__file__))" => return Some(1),
        "dirname(dirname(__dir__))" => return Some(2),
        _ => {}
    }
    let levels = lower
        .strip_prefix("dirname(__dir__,")?
        .strip_suffix(')')?
        .parse::<usize>()
        .ok()?;
    (levels <= 8).then_some(levels)
}

/// A string literal's text without its quotes, when it interpolates nothing.
fn literal(node: Node<'_>, src: &str) -> Option<String> {
    if !matches!(node.kind(), "string" | "encapsed_string") {
        return None;
    }
    let text = text_of(node, src);
    let inner = text
        .strip_prefix('\'')
        .and_then(|t| t.strip_suffix('\''))
        .or_else(|| text.strip_prefix('"').and_then(|t| t.strip_suffix('"')))?;
    (!inner.contains(['$', '\\', '{'])).then(|| inner.to_string())
}

/// A relative path without `./` segments.
fn normal_relative(path: &str) -> String {
    path.split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect::<Vec<_>>()
        .join("/")
}

/// A namespace name as written, without whitespace.
fn compact_name(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

/// The visibility written on a member (`public`, `protected`, `private`), if any.
fn visibility<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    code_children(node)
        .into_iter()
        .find(|c| c.kind() == "visibility_modifier")
        .map(|c| text_of(c, src))
}

/// Whether a member is public: no `private` or `protected` (no visibility is public).
pub(crate) fn is_public(node: Node<'_>, src: &str) -> bool {
    !matches!(
        visibility(node, src)
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("private" | "protected")
    )
}

/// A declaration's signature: its text without its body and attributes, whitespace runs as one
/// space; read from its tokens when a comment sits inside it.
pub(crate) fn declaration_signature(node: Node<'_>, src: &str) -> String {
    let attributes = node.child_by_field_name("attributes");
    let body = node.child_by_field_name("body");
    let start = attributes.map_or(node.start_byte(), |a| a.end_byte());
    let end = body.map_or(node.end_byte(), |b| b.start_byte());
    let text = src.get(start..end).unwrap_or("");
    if !text.contains("/*") && !text.contains("//") && !text.contains('#') {
        // A parameter list laid out one per line: `f( array $a, int $b, )` as `f(array $a, int $b)`.
        return compact_spaces(text.trim_end_matches(';'))
            .replace("( ", "(")
            .replace(", )", ")")
            .replace(" )", ")")
            .replace(",)", ")");
    }
    let excluded: Vec<Node<'_>> = [body, attributes].into_iter().flatten().collect();
    let mut toks = Vec::new();
    tokens(node, src, &excluded, &mut toks);
    crate::source::syntax::join(&toks)
        .replace("$ ", "$")
        .replace("\\ ", "\\")
}

/// Each constant of a `const` declaration, with its signature (`public const A = 1`).
fn constants(node: Node<'_>, src: &str) -> Vec<(String, String)> {
    let elements: Vec<Node<'_>> = code_children(node)
        .into_iter()
        .filter(|c| c.kind() == "const_element")
        .collect();
    let Some(first) = elements.first() else {
        return Vec::new();
    };
    let start = node
        .child_by_field_name("attributes")
        .map_or(node.start_byte(), |a| a.end_byte());
    let prefix = compact_spaces(src.get(start..first.start_byte()).unwrap_or("const"));
    elements
        .iter()
        .filter_map(|element| {
            let name = code_children(*element)
                .into_iter()
                .find(|c| c.kind() == "name")?;
            let text = compact_spaces(text_of(*element, src));
            Some((text_of(name, src).to_string(), format!("{prefix} {text}")))
        })
        .collect()
}

/// A property declaration's modifiers and type (`public static ?string`).
fn property_prefix(node: Node<'_>, src: &str) -> String {
    let start = node
        .child_by_field_name("attributes")
        .map_or(node.start_byte(), |a| a.end_byte());
    let first = code_children(node)
        .into_iter()
        .find(|c| c.kind() == "property_element")
        .map_or(node.end_byte(), |e| e.start_byte());
    compact_spaces(src.get(start..first).unwrap_or(""))
}

/// A constructor's public promoted parameters as properties of its class.
fn promoted_properties(constructor: Node<'_>, src: &str, owner: &str, b: &mut Builder) {
    let Some(parameters) = constructor.child_by_field_name("parameters") else {
        return;
    };
    for parameter in code_children(parameters) {
        if parameter.kind() != "property_promotion_parameter" {
            continue;
        }
        let public = parameter
            .child_by_field_name("visibility")
            .is_some_and(|v| text_of(v, src).eq_ignore_ascii_case("public"));
        let Some(name) = parameter.child_by_field_name("name") else {
            continue;
        };
        if !public {
            continue;
        }
        let end = parameter
            .child_by_field_name("default_value")
            .map_or(parameter.end_byte(), |_| name.end_byte());
        let start = parameter
            .child_by_field_name("attributes")
            .map_or(parameter.start_byte(), |a| a.end_byte());
        let signature = compact_spaces(src.get(start..end).unwrap_or(""));
        let variable = text_of(name, src).trim_start_matches(['&', '$']);
        b.add(1, SymbolKind::Variable, variable, Some(owner), signature);
    }
}

/// Whitespace runs as one space.
fn compact_spaces(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The `/** … */` PHPDoc right above a declaration (at most one blank line between).
pub(crate) fn phpdoc(node: Node<'_>, src: &str) -> Option<String> {
    let previous = node.prev_sibling()?;
    if previous.kind() != "comment" || previous.end_position().row + 2 < node.start_position().row {
        return None;
    }
    phpdoc_text(text_of(previous, src))
}

/// A PHPDoc comment's description: its lines before the first `@tag`, `{@inheritdoc}` and other
/// inline tags as their text.
pub(crate) fn phpdoc_text(text: &str) -> Option<String> {
    if !text.starts_with("/**") || text == "/**/" {
        return None;
    }
    let lines: Vec<String> = block_comment_lines(text)
        .into_iter()
        .take_while(|line| !line.trim_start().starts_with('@'))
        .map(|line| inline_tags(&line))
        .collect();
    finish_doc(&lines)
}

/// `{@link Foo}` as `Foo`, `{@inheritdoc}` dropped.
fn inline_tags(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while let Some(start) = rest.find("{@") {
        out.push_str(&rest[..start]);
        let Some(end) = rest[start..].find('}') else {
            out.push_str(&rest[start..]);
            return out;
        };
        let inner = &rest[start + 2..start + end];
        if let Some((_, text)) = inner.split_once(' ') {
            out.push_str(text.trim());
        }
        rest = &rest[start + end + 1..];
    }
    out.push_str(rest);
    out.trim_end().to_string()
}

/// The file's doc: a `/** … */` before its namespace or first declaration that documents no
/// declaration and is no licence banner (`@license`, `@copyright`, "(c)").
fn file_doc(root: Node<'_>, src: &str) -> Option<String> {
    let mut cursor = root.walk();
    for child in root.children(&mut cursor) {
        match child.kind() {
            "php_tag" | "text" | "text_interpolation" => continue,
            "comment" => {
                let text = text_of(child, src);
                let next = child.next_sibling();
                let documents_next = next.is_some_and(|n| {
                    is_declaration(n.kind())
                        && child.end_position().row + 2 >= n.start_position().row
                });
                let lower = text.to_ascii_lowercase();
                let banner = lower.contains("@license")
                    || lower.contains("@copyright")
                    || lower.contains("(c)")
                    || lower.contains("copyright");
                if text.starts_with("/**") && !documents_next && !banner {
                    return phpdoc_text(text);
                }
            }
            "declare_statement" => continue,
            _ => return None,
        }
    }
    None
}

/// Whether a node kind declares something a PHPDoc documents.
fn is_declaration(kind: &str) -> bool {
    matches!(
        kind,
        "class_declaration"
            | "interface_declaration"
            | "trait_declaration"
            | "enum_declaration"
            | "function_definition"
            | "const_declaration"
    )
}

/// Whether a method is a PHPUnit test: named `test*`, or marked `#[Test]` or `@test`.
pub(crate) fn is_test_method(method: Node<'_>, src: &str) -> bool {
    let Some(name) = method.child_by_field_name("name") else {
        return false;
    };
    if !is_public(method, src) {
        return false;
    }
    if text_of(name, src).starts_with("test") {
        return true;
    }
    let attributed = method
        .child_by_field_name("attributes")
        .is_some_and(|list| {
            let mut found = false;
            walk(list, (), |node, ()| {
                if node.kind() == "attribute" {
                    let named = code_children(node)
                        .into_iter()
                        .find(|c| matches!(c.kind(), "name" | "qualified_name"))
                        .map(|n| text_of(n, src));
                    found |= named.is_some_and(|n| n.rsplit('\\').next() == Some(TEST_ATTRIBUTE));
                    return None;
                }
                Some(())
            });
            found
        });
    attributed
        || method.prev_sibling().is_some_and(|c| {
            c.kind() == "comment"
                && text_of(c, src).starts_with("/**")
                && block_comment_lines(text_of(c, src))
                    .iter()
                    .any(|line| line.trim() == "@test")
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::testing::{
        definition_labels, docs, flow_of, imports, parse, rows, signature_of, source_file,
    };
    use crate::source::Language;

    const ROUTE: &str = r#"<?php

/**
 * Slim Framework (https://slimframework.com)
 *
 * @license https://github.com/slimphp/Slim/blob/4.x/LICENSE.md (MIT License)
 */

declare(strict_types=1);

namespace Slim\Routing;

use Psr\Http\Message\ResponseInterface;
use Slim\Interfaces\{RouteInterface, InvocationStrategyInterface as Strategy};
use Slim\Handlers;
use function array_merge;

/**
 * A route: a pattern and its handler.
 *
 * @api
 */
final class Route extends RouteBase implements RouteInterface, \Countable
{
    use Helpers\Named;

    /** The default method. */
    public const METHOD = 'GET', OTHER = 2;
    private const SECRET = 1;

    /** @var string[] */
    public array $methods = [];
    protected $hidden;
    var $legacy;

    /**
     * Make a route.
     *
     * @param string $pattern
     */
    public function __construct(public readonly string $pattern, private int $id, ?Strategy $s = null)
    {
        $this->group = new RouteGroup();
        if ($s instanceof Handlers\Strategies\RequestResponse) {
            throw new \InvalidArgumentException('bad');
        }
    }

    #[\ReturnTypeWillChange]
    public function run(ResponseInterface $response): static { return Dispatcher::dispatch(self::METHOD); }
    private function secret() {}
    protected function forSubclasses() {}
    function implicitlyPublic(int &$x, string ...$rest) {}
}

interface Named { public function name(): string; }
trait Helper { public function help() { return Other\Thing::class; } }
enum Suit: string { case Hearts = 'H'; public function color(): string { try {} catch (Bad|\Error $e) {} return ''; } }
/** Makes one. */
function make_route(): Route { require __DIR__ . '/../helpers.php'; require_once dirname(__DIR__, 2) . '/vendor/autoload.php'; include 'x/y.php'; }
const TOP = 1;
"#;

    #[test]
    fn public_members_with_phpdoc() {
        let interface = parse(Language::Php, ROUTE);
        assert!(!interface.has_errors);
        let names: Vec<(Option<&str>, SymbolKind, &str)> =
            rows(&interface).iter().map(|r| (r.0, r.1, r.2)).collect();
        assert_eq!(
            names,
            [
                (None, SymbolKind::Function, "make_route"),
                (None, SymbolKind::Enum, "Suit"),
                (None, SymbolKind::Trait, "Helper"),
                (None, SymbolKind::Interface, "Named"),
                (None, SymbolKind::Class, "Route"),
                (None, SymbolKind::Constant, "TOP"),
                (Some("Helper"), SymbolKind::Method, "help"),
                (Some("Named"), SymbolKind::Method, "name"),
                (Some("Route"), SymbolKind::Method, "__construct"),
                (Some("Route"), SymbolKind::Method, "implicitlyPublic"),
                (Some("Route"), SymbolKind::Method, "run"),
                (Some("Route"), SymbolKind::Constant, "METHOD"),
                (Some("Route"), SymbolKind::Constant, "OTHER"),
                (Some("Route"), SymbolKind::Variable, "legacy"),
                (Some("Route"), SymbolKind::Variable, "methods"),
                (Some("Route"), SymbolKind::Variable, "pattern"),
                (Some("Suit"), SymbolKind::Method, "color"),
                (Some("Suit"), SymbolKind::Constant, "Hearts"),
            ]
        );
        let signature = |name: &str| signature_of(&interface, name);
        assert_eq!(
            signature("Route").as_deref(),
            Some("final class Route extends RouteBase implements RouteInterface, \\Countable")
        );
        assert_eq!(
            signature("run").as_deref(),
            Some("public function run(ResponseInterface $response): static")
        );
        assert_eq!(
            signature("implicitlyPublic").as_deref(),
            Some("function implicitlyPublic(int &$x, string ...$rest)")
        );
        assert_eq!(
            signature("METHOD").as_deref(),
            Some("public const METHOD = 'GET'")
        );
        assert_eq!(
            signature("methods").as_deref(),
            Some("public array $methods")
        );
        assert_eq!(
            signature("pattern").as_deref(),
            Some("public readonly string $pattern")
        );
        assert_eq!(signature("Hearts").as_deref(), Some("case Hearts = 'H'"));
        assert_eq!(
            docs(&interface),
            [
                ("Route", "A route: a pattern and its handler."),
                ("METHOD", "The default method."),
                ("OTHER", "The default method."),
                ("__construct", "Make a route."),
                ("make_route", "Makes one."),
            ]
        );
        assert_eq!(interface.doc, None, "a licence banner is no file doc");
    }

    #[test]
    fn names_resolve_through_the_namespace_and_uses() {
        let interface = parse(Language::Php, ROUTE);
        let specs: Vec<&str> = imports(&interface).iter().map(|(s, _)| *s).collect();
        assert_eq!(
            specs,
            [
                "Psr\\Http\\Message\\ResponseInterface",
                "Slim\\Interfaces\\RouteInterface",
                "Slim\\Interfaces\\InvocationStrategyInterface",
                "Slim\\Handlers",
                "function:array_merge",
                "Slim\\Routing\\RouteBase",
                "Countable",
                "Slim\\Routing\\Helpers\\Named",
                "Slim\\Routing\\RouteGroup",
                "Slim\\Handlers\\Strategies\\RequestResponse",
                "InvalidArgumentException",
                "ReturnTypeWillChange",
                "Slim\\Routing\\Dispatcher",
                "Slim\\Routing\\Other\\Thing",
                "Slim\\Routing\\Bad",
                "Error",
                "Slim\\Routing\\Route",
                "require:../helpers.php",
                "require:../../vendor/autoload.php",
                "function:Slim\\Routing\\dirname,dirname",
                "require:x/y.php",
            ]
        );
    }

    #[test]
    fn functions_called_name_the_functions_php_tries() {
        let text = "<?php\nnamespace App\\Http;\n\nuse function Util\\{first, second as other};\nuse function describe_type;\nuse const Util\\VERSION;\nuse Util\\Sub;\n\nfunction run() {\n  helper(first(), other(), describe_type(1));\n  \\Lib\\make();\n  Sub\\deep();\n  namespace\\local();\n  $f(); $x->method(); Box::make();\n}\n";
        let interface = parse(Language::Php, text);
        let specs: Vec<&str> = imports(&interface).iter().map(|(s, _)| *s).collect();
        assert_eq!(
            specs,
            [
                "function:Util\\first",
                "function:Util\\second",
                "function:describe_type",
                "const:Util\\VERSION",
                "Util\\Sub",
                "function:App\\Http\\helper,helper",
                "function:Lib\\make",
                "function:Util\\Sub\\deep",
                "function:App\\Http\\local",
                "App\\Http\\Box",
            ]
        );
        let calls: Vec<String> = interface.calls.iter().map(|m| m.encode()).collect();
        assert_eq!(
            calls,
            ["run helper first second describe_type make deep local .method@x Box.make"]
        );
    }

    #[test]
    fn a_file_doc_documents_no_declaration() {
        let text = "<?php\n/**\n * Helpers for the routes.\n */\n\nnamespace A;\n\n/** F. */\nfunction f() {}\n";
        let interface = parse(Language::Php, text);
        assert_eq!(interface.doc.as_deref(), Some("Helpers for the routes."));
        let braced =
            "<?php\nnamespace A { use B\\C; class D extends C {} }\nnamespace { new E(); }\n";
        let interface = parse(Language::Php, braced);
        let specs: Vec<&str> = imports(&interface).iter().map(|(s, _)| *s).collect();
        assert_eq!(specs, ["B\\C", "E"]);
    }

    #[test]
    fn calls_raises_bases_and_test_cases() {
        let text = "<?php\nnamespace A;\nuse B\\Cache as Memo;\nclass Box extends Base implements \\Countable, Sized {\n  private ?\\B\\Router $router;\n  public function route(?Request $request, \\B\\Response $response) { $request->getMethod(); $response->send(); $this->router->dispatch(); }\n  public function get(): int {\n    if ($this->n < 0) { throw new \\InvalidArgumentException(\"Not a box: $this->n\"); }\n    $x = Memo::remember(helper(), self::make(), static::other());\n    return Util::clamp($this->helper->size(), new Range(1, 2), isset($x), array_map(null, []));\n  }\n  #[Test]\n  public function checks() { (new Box())->get(); $this->get(); }\n  public function testWorks() { throw new BoxError(sprintf('Bad %s box', 'x')); }\n  private function testHidden() {}\n}\nfunction top() { make(); new Box(); }\n";
        let interface = parse(Language::Php, text);
        let calls: Vec<String> = interface.calls.iter().map(|m| m.encode()).collect();
        assert_eq!(
            calls,
            [
                "Box.route .getMethod:Request .send:Response .dispatch:Router",
                "Box.get InvalidArgumentException.InvalidArgumentException Cache.remember helper ^make ^other Util.clamp .size@helper Range.__construct",
                "!Box.checks .get Box.__construct ^get",
                "!Box.testWorks BoxError.BoxError",
                "Box.testHidden",
                "top make Box.__construct",
            ]
        );
        let raises = |name: &str| {
            interface
                .calls
                .iter()
                .find(|m| m.member == name)
                .map(|m| m.raises.clone())
        };
        assert_eq!(
            raises("Box.get"),
            Some(vec![
                "InvalidArgumentException (\"Not a box: …\")".to_string()
            ])
        );
        assert_eq!(
            raises("Box.testWorks"),
            Some(vec!["BoxError (\"Bad … box\")".to_string()])
        );
        assert_eq!(
            interface.bases,
            [(
                "Box".to_string(),
                vec![
                    "Base".to_string(),
                    "Countable".to_string(),
                    "Sized".to_string()
                ]
            )]
        );
    }

    #[test]
    fn definitions_and_flow_of_a_method() {
        let text = "<?php\nnamespace A;\n\n/** Reads. */\nclass Reader extends Base {\n  /** How many. */\n  public int $count = 0;\n  public const MAX = 3;\n  /** Reads all. */\n  public function readAll(array $names): void {\n    foreach ($names as $name) {\n      if ($name === '') {\n        continue;\n      } elseif ($name === 'x') {\n        $this->skip();\n      } else {\n        $this->count++;\n      }\n      try {\n        $this->read($name);\n      } catch (IOException | \\RuntimeException $e) {\n        throw new StateException('cannot read', 0, $e);\n      } finally {\n        $this->count++;\n      }\n    }\n  }\n  public function read(string $name): void {}\n}\n";
        let file = source_file(Language::Php, text);
        let labels = definition_labels(&file);
        assert_eq!(
            labels,
            [
                ("Reader", SymbolKind::Class),
                ("Reader.count", SymbolKind::Variable),
                ("Reader.MAX", SymbolKind::Constant),
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
                "foreach ($names as $name):",
                "  if $name === '':",
                "    continue",
                "  else if $name === 'x':",
                "    $this->skip()",
                "  else:",
                "    $this->count++",
                "  try:",
                "    $this->read($name)",
                "  catch (IOException | \\RuntimeException $e):",
                "    throw new StateException('cannot read', 0, $e)",
                "  finally:",
                "    $this->count++",
            ]
        );
    }

    #[test]
    fn a_template_is_read_around_its_html() {
        let text = "<html><body>\n<?php use App\\View; ?>\n<h1><?= View::title() ?></h1>\n<?php include __DIR__ . '/footer.php'; ?>\n</body></html>\n";
        let interface = parse(Language::Php, text);
        let specs: Vec<&str> = imports(&interface).iter().map(|(s, _)| *s).collect();
        assert_eq!(specs, ["App\\View", "require:footer.php"]);
    }
}
