//! Python extraction: module-level public functions, classes (with public methods and class
//! attributes), assignments and type aliases, restricted by a literal `__all__`; `import` and
//! `from … import` specs; the module docstring; TODO and nesting signals.

use std::collections::HashSet;

use tree_sitter::Node;

use crate::source::interface::{Import, SymbolKind};
use crate::source::syntax::{
    code_children, compact, count_markers, finish_doc, join, line_of, signature, text_of, tokens,
    walk, Builder, Extracted, Nesting,
};

/// Module-level `if`/`try` statements nested deeper than this are not searched for definitions.
const MAX_BLOCK_DEPTH: usize = 8;

/// Extract the interface parts of a Python syntax tree.
pub(crate) fn extract(root: Node<'_>, src: &str) -> Extracted {
    let mut out = Extracted::default();
    let all = dunder_all(root, src);
    let mut module = Module {
        src,
        all,
        b: &mut out.builder,
    };
    module.block(root, 0);
    walk_file(root, src, &mut out);
    out.doc = docstring(root, src);
    out.item_docs = item_docs(root, src);
    out
}

/// Docstrings of the module's top-level classes and functions, by name.
fn item_docs(root: Node<'_>, src: &str) -> Vec<(String, String)> {
    code_children(root)
        .into_iter()
        .filter_map(|statement| match statement.kind() {
            "decorated_definition" => statement.child_by_field_name("definition"),
            "class_definition" | "function_definition" => Some(statement),
            _ => None,
        })
        .filter_map(|def| {
            let name = text_of(def.child_by_field_name("name")?, src).to_string();
            Some((name, docstring(def.child_by_field_name("body")?, src)?))
        })
        .collect()
}

/// The docstring of a class or function definition.
fn body_docstring(def: Node<'_>, src: &str) -> Option<String> {
    docstring(def.child_by_field_name("body")?, src)
}

/// Public iff not starting with `_`, or a dunder (`__x__`).
fn is_public_name(name: &str) -> bool {
    !name.starts_with('_') || (name.len() > 4 && name.starts_with("__") && name.ends_with("__"))
}

fn is_all_caps(name: &str) -> bool {
    name.chars().any(|c| c.is_alphabetic()) && !name.chars().any(|c| c.is_lowercase())
}

/// Content of a plain string literal node (no interpolation).
fn string_content(node: Node<'_>, src: &str) -> Option<String> {
    if node.kind() != "string" {
        return None;
    }
    let children = code_children(node);
    let start = children.iter().find(|c| c.kind() == "string_start")?;
    let end = children.iter().rfind(|c| c.kind() == "string_end")?;
    if children.iter().any(|c| c.kind() == "interpolation") {
        return None;
    }
    src.get(start.end_byte()..end.start_byte())
        .map(str::to_string)
}

/// Names listed in a module-level `__all__ = [...]` / `(...)` of string literals.
fn dunder_all(root: Node<'_>, src: &str) -> Option<HashSet<String>> {
    let mut result = None;
    for statement in code_children(root) {
        if statement.kind() != "expression_statement" {
            continue;
        }
        let Some(assign) = code_children(statement).into_iter().next() else {
            continue;
        };
        if assign.kind() != "assignment" {
            continue;
        }
        let left = assign.child_by_field_name("left");
        if left.is_none_or(|l| text_of(l, src) != "__all__") {
            continue;
        }
        let Some(right) = assign.child_by_field_name("right") else {
            continue;
        };
        if !matches!(right.kind(), "list" | "tuple") {
            result = None;
            continue;
        }
        let names: Option<HashSet<String>> = code_children(right)
            .into_iter()
            .map(|item| string_content(item, src))
            .collect();
        result = names;
    }
    result
}

struct Module<'s, 'b> {
    src: &'s str,
    all: Option<HashSet<String>>,
    b: &'b mut Builder,
}

impl Module<'_, '_> {
    /// Whether a module-level name is exported.
    fn exported(&self, name: &str) -> bool {
        if name == "__all__" {
            return true;
        }
        match &self.all {
            Some(all) => all.contains(name),
            None => is_public_name(name),
        }
    }

    fn name(&self, node: Node<'_>) -> String {
        node.child_by_field_name("name")
            .map(|n| text_of(n, self.src).to_string())
            .unwrap_or_default()
    }

    /// Statements of the module (or of a module-level `if`/`try` branch).
    fn block(&mut self, node: Node<'_>, level: usize) {
        if level > MAX_BLOCK_DEPTH {
            return;
        }
        for statement in code_children(node) {
            self.statement(statement, level);
        }
    }

    fn statement(&mut self, node: Node<'_>, level: usize) {
        let src = self.src;
        match node.kind() {
            "function_definition" => {
                let name = self.name(node);
                if self.exported(&name) {
                    let sig = (def_signature(node, src), body_docstring(node, src));
                    self.b
                        .add_documented(0, SymbolKind::Function, &name, None, sig);
                }
            }
            "class_definition" => {
                let name = self.name(node);
                if self.exported(&name) {
                    self.class(node, &name);
                }
            }
            "decorated_definition" => {
                if let Some(def) = node.child_by_field_name("definition") {
                    self.statement(def, level);
                }
            }
            "expression_statement" => {
                for assign in code_children(node) {
                    if assign.kind() == "assignment" {
                        self.assignment(assign, None);
                    }
                }
            }
            "type_alias_statement" => {
                let name = node
                    .child_by_field_name("left")
                    .map(|l| compact(text_of(l, src)))
                    .unwrap_or_default();
                if self.exported(&name) {
                    let sig = signature(node, src, &[]);
                    self.b.add(0, SymbolKind::TypeAlias, &name, None, sig);
                }
            }
            "if_statement" => {
                let main_guard = node
                    .child_by_field_name("condition")
                    .is_some_and(|c| text_of(c, src).contains("__name__"));
                if !main_guard {
                    self.branches(node, level);
                }
            }
            "try_statement" => self.branches(node, level),
            "import_from_statement" => self.reexports(node),
            _ => {}
        }
    }

    /// `from .app import Flask as Flask` (the redundant alias marks a re-export, PEP 484) and
    /// imported names listed in `__all__`: part of the module's interface.
    fn reexports(&mut self, node: Node<'_>) {
        let src = self.src;
        let module = node
            .child_by_field_name("module_name")
            .map(|m| compact(text_of(m, src)))
            .unwrap_or_default();
        let mut cursor = node.walk();
        let names: Vec<Node<'_>> = node.children_by_field_name("name", &mut cursor).collect();
        for name in names {
            let (imported, bound) = match name.kind() {
                "aliased_import" => (
                    name.child_by_field_name("name")
                        .map(|n| compact(text_of(n, src))),
                    name.child_by_field_name("alias")
                        .map(|n| text_of(n, src).to_string()),
                ),
                _ => {
                    let text = compact(text_of(name, src));
                    (Some(text.clone()), Some(text))
                }
            };
            let (Some(imported), Some(bound)) = (imported, bound) else {
                continue;
            };
            let listed = self.all.as_ref().is_some_and(|all| all.contains(&bound));
            if imported == bound && name.kind() == "aliased_import" || listed {
                let sig = match imported == bound {
                    true => format!("from {module} import {bound}"),
                    false => format!("from {module} import {imported} as {bound}"),
                };
                self.b.add(0, SymbolKind::Module, &bound, None, sig);
            }
        }
    }

    /// The blocks of an `if`/`try` statement and its `elif`/`else`/`except`/`finally` clauses.
    fn branches(&mut self, node: Node<'_>, level: usize) {
        for child in code_children(node) {
            if child.kind() == "block" {
                self.block(child, level + 1);
            } else if matches!(
                child.kind(),
                "elif_clause" | "else_clause" | "except_clause" | "finally_clause"
            ) {
                for grandchild in code_children(child) {
                    if grandchild.kind() == "block" {
                        self.block(grandchild, level + 1);
                    }
                }
            }
        }
    }

    /// Targets of an assignment (following chains like `a = b = 1`).
    fn assignment(&mut self, assign: Node<'_>, class: Option<&str>) {
        let src = self.src;
        let mut current = Some(assign);
        let mut guard = 0;
        while let Some(a) = current.filter(|a| a.kind() == "assignment") {
            guard += 1;
            if guard > 64 {
                break;
            }
            let right = a.child_by_field_name("right");
            if let Some(left) = a.child_by_field_name("left") {
                if left.kind() == "identifier" {
                    // `T = TypeVar("T", bound=X)` and a short type (`url_rule_class = Rule`,
                    // `HeaderValue = str | list[str]`) read as what they are; other values
                    // (which change without the interface changing) are dropped.
                    let excluded: Vec<Node<'_>> = right
                        .filter(|r| !is_type_constructor(*r, src) && !is_short_type(*r, src))
                        .into_iter()
                        .collect();
                    let sig = signature(a, src, &excluded);
                    self.target(text_of(left, src), sig, class);
                } else if matches!(left.kind(), "pattern_list" | "tuple_pattern") {
                    for item in code_children(left) {
                        if item.kind() == "identifier" {
                            let name = text_of(item, src);
                            self.target(name, name.to_string(), class);
                        }
                    }
                }
            }
            current = right;
        }
    }

    fn target(&mut self, name: &str, sig: String, class: Option<&str>) {
        let visible = match class {
            Some(_) => is_public_name(name),
            None => self.exported(name),
        };
        if !visible {
            return;
        }
        let kind = if is_all_caps(name) {
            SymbolKind::Constant
        } else {
            SymbolKind::Variable
        };
        let depth = usize::from(class.is_some());
        self.b.add(depth, kind, name, class, sig);
    }

    /// A class header, its public methods, class attributes and nested class headers.
    fn class(&mut self, node: Node<'_>, name: &str) {
        let src = self.src;
        let body = node.child_by_field_name("body");
        let excluded: Vec<Node<'_>> = body.into_iter().collect();
        let sig = (signature(node, src, &excluded), body_docstring(node, src));
        if !self.b.add_documented(0, SymbolKind::Class, name, None, sig) {
            return;
        }
        let Some(body) = body else { return };
        for member in code_children(body) {
            match member.kind() {
                "function_definition" => self.method(member, &[], name),
                "decorated_definition" => {
                    let decorators: Vec<Node<'_>> = code_children(member)
                        .into_iter()
                        .filter(|d| d.kind() == "decorator" && kept_decorator(*d, src))
                        .collect();
                    match member.child_by_field_name("definition") {
                        Some(def) if def.kind() == "function_definition" => {
                            self.method(def, &decorators, name)
                        }
                        Some(def) if def.kind() == "class_definition" => {
                            self.nested_class(def, name)
                        }
                        _ => {}
                    }
                }
                "class_definition" => self.nested_class(member, name),
                "expression_statement" => {
                    for assign in code_children(member) {
                        if assign.kind() == "assignment" {
                            self.assignment(assign, Some(name));
                        }
                    }
                }
                _ => {}
            }
        }
        if let Some(init) = code_children(body).into_iter().find(|member| {
            member.kind() == "function_definition" && self.name(*member) == "__init__"
        }) {
            self.instance_attributes(init, body, name);
        }
    }

    /// The public attributes `__init__` sets on `self` at its top level (`self.url_map =
    /// self.url_map_class()`), as members — unless the class body already declares them: what an
    /// instance holds is part of what a caller uses.
    fn instance_attributes(&mut self, init: Node<'_>, class_body: Node<'_>, class: &str) {
        let src = self.src;
        let mut seen: HashSet<String> = class_level_names(class_body, src);
        let Some(body) = init.child_by_field_name("body") else {
            return;
        };
        for statement in code_children(body) {
            let assignments = code_children(statement).into_iter().filter(|node| {
                statement.kind() == "expression_statement" && node.kind() == "assignment"
            });
            for assign in assignments {
                let Some(left) = assign.child_by_field_name("left") else {
                    continue;
                };
                let Some(attribute) = self_attribute(left, src) else {
                    continue;
                };
                if !is_public_name(attribute) || !seen.insert(attribute.to_string()) {
                    continue;
                }
                let mut sig = format!("self.{attribute}");
                if let Some(annotation) = assign.child_by_field_name("type") {
                    sig = format!("{sig}: {}", signature(annotation, src, &[]));
                } else if let Some(value) = assign.child_by_field_name("right") {
                    sig = format!("{sig} = {}", shown_value(value, src));
                }
                self.b
                    .add(1, SymbolKind::Variable, attribute, Some(class), sig);
            }
        }
    }

    fn method(&mut self, def: Node<'_>, decorators: &[Node<'_>], class: &str) {
        let src = self.src;
        let name = self.name(def);
        if !is_public_name(&name) {
            return;
        }
        let mut toks = Vec::new();
        for decorator in decorators {
            tokens(*decorator, src, &[], &mut toks);
        }
        let body: Vec<Node<'_>> = def.child_by_field_name("body").into_iter().collect();
        tokens(def, src, &body, &mut toks);
        let sig = (join(&toks), body_docstring(def, src));
        self.b
            .add_documented(1, SymbolKind::Method, &name, Some(class), sig);
    }

    fn nested_class(&mut self, def: Node<'_>, class: &str) {
        let name = self.name(def);
        if !is_public_name(&name) {
            return;
        }
        let body: Vec<Node<'_>> = def.child_by_field_name("body").into_iter().collect();
        let sig = (
            signature(def, self.src, &body),
            body_docstring(def, self.src),
        );
        self.b
            .add_documented(1, SymbolKind::Class, &name, Some(class), sig);
    }
}

/// A call of `TypeVar`, `ParamSpec`, `TypeVarTuple` or `NewType`: a public type, shown whole.
fn is_type_constructor(node: Node<'_>, src: &str) -> bool {
    node.kind() == "call"
        && node.child_by_field_name("function").is_some_and(|f| {
            let name = compact(text_of(f, src));
            let name = name.rsplit('.').next().unwrap_or(&name);
            matches!(name, "TypeVar" | "ParamSpec" | "TypeVarTuple" | "NewType")
        })
}

/// The names a class body assigns at its own level.
fn class_level_names(body: Node<'_>, src: &str) -> HashSet<String> {
    code_children(body)
        .into_iter()
        .filter(|member| member.kind() == "expression_statement")
        .flat_map(code_children)
        .filter_map(|assign| assign.child_by_field_name("left"))
        .filter(|left| left.kind() == "identifier")
        .map(|left| text_of(left, src).to_string())
        .collect()
}

/// `name` of an assignment target `self.name`.
fn self_attribute<'s>(left: Node<'_>, src: &'s str) -> Option<&'s str> {
    if left.kind() != "attribute" {
        return None;
    }
    let object = left.child_by_field_name("object")?;
    let attribute = left.child_by_field_name("attribute")?;
    (text_of(object, src) == "self").then(|| text_of(attribute, src))
}

/// A value as a contract shows it: a short type whole, a call as its callee (`Map(…)`), else `…`.
fn shown_value(value: Node<'_>, src: &str) -> String {
    if is_short_type(value, src) {
        return signature(value, src, &[]);
    }
    match value
        .child_by_field_name("function")
        .filter(|_| value.kind() == "call")
    {
        Some(callee) if compact(text_of(callee, src)).len() <= SHORT_TYPE => {
            format!("{}(…)", signature(callee, src, &[]))
        }
        _ => "…".to_string(),
    }
}

/// The longest type alias or class-valued attribute shown whole, in characters.
const SHORT_TYPE: usize = 100;

/// Whether `node` is a type expression short enough to show: a name (`Rule`, `t.Any`), a
/// subscripted or `|`-joined type (`dict[str, t.Any]`, `str | None`), within [`SHORT_TYPE`].
fn is_short_type(node: Node<'_>, src: &str) -> bool {
    compact(text_of(node, src)).chars().count() <= SHORT_TYPE && is_type_expression(node, src, 0)
}

/// Whether an assigned value is a type (`t.Union[…]`, `str | None`, `dict[str, t.Any]`): the
/// assignment is a type alias.
pub(crate) fn is_type_value(node: Node<'_>, src: &str) -> bool {
    node.kind() != "identifier" && is_type_expression(node, src, 0)
}

fn is_type_expression(node: Node<'_>, src: &str, depth: usize) -> bool {
    if depth > 16 {
        return false;
    }
    let parts_are_types = || {
        code_children(node)
            .into_iter()
            .filter(|child| child.is_named())
            .all(|child| is_type_expression(child, src, depth + 1))
    };
    match node.kind() {
        "identifier" | "attribute" | "none" | "ellipsis" => true,
        // A forward reference inside a type (`list["Node"]`), not a string constant.
        "string" => depth > 0,
        "subscript" => parts_are_types(),
        // `Callable[[A, B], C]`: a list of types inside a subscript, not a list value.
        "list" | "tuple" => depth > 0 && parts_are_types(),
        "binary_operator" => {
            node.child_by_field_name("operator")
                .is_some_and(|op| text_of(op, src) == "|")
                && parts_are_types()
        }
        _ => false,
    }
}

/// `[async] def name[T](params) -> ret` without the body.
fn def_signature(node: Node<'_>, src: &str) -> String {
    let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
    signature(node, src, &body)
}

/// Decorators that change how a method is called: staticmethod, classmethod, property and
/// friends, and `@x.setter`/`@x.getter`/`@x.deleter`.
fn kept_decorator(node: Node<'_>, src: &str) -> bool {
    let text = compact(text_of(node, src));
    let name = text.strip_prefix('@').unwrap_or(&text);
    matches!(
        name,
        "staticmethod"
            | "classmethod"
            | "property"
            | "cached_property"
            | "functools.cached_property"
            | "abstractmethod"
            | "abc.abstractmethod"
    ) || name.ends_with(".setter")
        || name.ends_with(".getter")
        || name.ends_with(".deleter")
}

/// Module spec of an `import`/`from … import` name node (`dotted_name` or `aliased_import`).
fn imported_name(node: Node<'_>, src: &str) -> Option<String> {
    match node.kind() {
        "dotted_name" => Some(compact(text_of(node, src))),
        "aliased_import" => node
            .child_by_field_name("name")
            .map(|n| compact(text_of(n, src))),
        _ => None,
    }
}

/// One full pass for imports and signals.
fn walk_file(root: Node<'_>, src: &str, out: &mut Extracted) {
    let signals = &mut out.signals;
    let imports = &mut out.imports;
    let mut submodule_imports: Vec<Import> = Vec::new();
    // `name.attribute` pairs read on plain names, as written (for `import pkg.sub`'s package).
    let mut attributes: HashSet<(&str, &str)> = HashSet::new();
    walk(root, Nesting::default(), |node, nesting| {
        match node.kind() {
            "comment" => {
                signals.todo_markers += count_markers(text_of(node, src));
                None
            }
            "import_statement" => {
                let mut cursor = node.walk();
                for name in node.children_by_field_name("name", &mut cursor) {
                    if let Some(spec) = imported_name(name, src) {
                        let import = Import {
                            spec,
                            line: line_of(node),
                            type_only: under_type_checking(node, src),
                            ..Import::default()
                        };
                        if name.kind() == "dotted_name" && import.spec.contains('.') {
                            submodule_imports.push(import.clone());
                        }
                        imports.add_import(import);
                    }
                }
                None
            }
            "attribute" => {
                let object = node.child_by_field_name("object");
                let attribute = node.child_by_field_name("attribute");
                if let (Some(object), Some(attribute)) = (object, attribute) {
                    if object.kind() == "identifier" {
                        attributes.insert((text_of(object, src), text_of(attribute, src)));
                    }
                }
                Some(nesting)
            }
            "import_from_statement" => {
                let module = node
                    .child_by_field_name("module_name")
                    .map(|m| compact(text_of(m, src)))
                    .unwrap_or_default();
                if module.is_empty() {
                    return None;
                }
                let mut cursor = node.walk();
                let names = node
                    .children_by_field_name("name", &mut cursor)
                    .filter_map(|name| imported_name(name, src))
                    .collect();
                imports.add_import(Import {
                    spec: module,
                    line: line_of(node),
                    names,
                    path: None,
                    type_only: under_type_checking(node, src),
                    ..Import::default()
                });
                None
            }
            "future_import_statement" | "string" => None,
            "function_definition" => Some(nesting.function(true)),
            "lambda" => Some(nesting.function(false)),
            "block" => Some(nesting.block(signals)),
            _ => Some(nesting),
        }
    });
    for import in packages_used_through_submodule_imports(&submodule_imports, &attributes) {
        imports.add_import(import);
    }
}

/// `import pkg.sub` binds the name `pkg` to the package (running `pkg/__init__.py`): a file that
/// then uses it for anything but its imported submodules (`pkg.helper()`, not only
/// `pkg.sub.f()`) imports the package too. One import of each such package, at the first
/// `import pkg.…` line.
fn packages_used_through_submodule_imports(
    submodule_imports: &[Import],
    attributes: &HashSet<(&str, &str)>,
) -> Vec<Import> {
    let imported: HashSet<(&str, &str)> = submodule_imports
        .iter()
        .filter_map(|import| package_and_submodule(&import.spec))
        .collect();
    let mut packages: Vec<Import> = Vec::new();
    for import in submodule_imports {
        let Some((package, _)) = package_and_submodule(&import.spec) else {
            continue;
        };
        let used = attributes
            .iter()
            .any(|pair| pair.0 == package && !imported.contains(pair));
        if used && !packages.iter().any(|known| known.spec == package) {
            packages.push(Import {
                spec: package.to_string(),
                ..import.clone()
            });
        }
    }
    packages
}

/// `pkg.sub.mod` → (`pkg`, `sub`): the package a dotted import binds and the name it reads on it.
fn package_and_submodule(spec: &str) -> Option<(&str, &str)> {
    let mut parts = spec.split('.');
    Some((parts.next()?, parts.next()?))
}

/// Whether `node` sits in the body of an `if TYPE_CHECKING:` (`typing.TYPE_CHECKING`,
/// `t.TYPE_CHECKING`): an import there exists only for the type checker, never at run time. Its
/// `else:` branch runs.
fn under_type_checking(node: Node<'_>, src: &str) -> bool {
    let mut child = node;
    while let Some(parent) = child.parent() {
        if parent.kind() == "if_statement" {
            let in_body = parent
                .child_by_field_name("consequence")
                .is_some_and(|body| body.id() == child.id());
            let checks_types = parent
                .child_by_field_name("condition")
                .is_some_and(|condition| {
                    let text = compact(text_of(condition, src));
                    text.rsplit('.').next() == Some("TYPE_CHECKING")
                });
            if in_body && checks_types {
                return true;
            }
        }
        child = parent;
    }
    false
}

/// The docstring of a module or a class/function body: a string literal as the first statement.
pub(crate) fn docstring(root: Node<'_>, src: &str) -> Option<String> {
    let first = code_children(root).into_iter().next()?;
    if first.kind() != "expression_statement" {
        return None;
    }
    let children = code_children(first);
    let [string] = children.as_slice() else {
        return None;
    };
    let content = string_content(*string, src)?;
    let lines: Vec<&str> = content.lines().collect();
    finish_doc(&lines)
}

#[cfg(test)]
mod tests {
    use crate::source::testing::{assert_hash_behaviour, docs, parse, rows};
    use crate::source::{Language, SymbolKind::*};

    #[test]
    fn short_types_and_the_attributes_init_sets_on_self_are_members() {
        let text = "HeaderValue = str | list[str]\nVERSION = \"3.1\"\nLIMIT = compute()\n\n\
                    class App:\n    url_rule_class = Rule\n    name = \"app\"\n\n    def __init__(self, root):\n\
                    \x20       self.url_map = self.url_map_class(host_matching=True)\n\
                    \x20       self.blueprints: dict[str, Blueprint] = {}\n\
                    \x20       self.url_rule_class = Other\n        self._private = 1\n        self.root = root\n";
        let iface = parse(Language::Python, text);
        let rows = rows(&iface);
        for expected in [
            (
                None,
                Variable,
                "HeaderValue",
                "HeaderValue = str | list[str]",
            ),
            (None, Constant, "VERSION", "VERSION"),
            (None, Constant, "LIMIT", "LIMIT"),
            (
                Some("App"),
                Variable,
                "url_rule_class",
                "url_rule_class = Rule",
            ),
            (
                Some("App"),
                Variable,
                "url_map",
                "self.url_map = self.url_map_class(…)",
            ),
            (
                Some("App"),
                Variable,
                "blueprints",
                "self.blueprints: dict[str, Blueprint]",
            ),
            (Some("App"), Variable, "root", "self.root = root"),
        ] {
            assert!(rows.contains(&expected), "{expected:?} in {rows:#?}");
        }
        // Declared by the class body already; private.
        assert_eq!(rows.iter().filter(|r| r.2 == "url_rule_class").count(), 1);
        assert!(!rows.iter().any(|r| r.2 == "_private"));
    }

    #[test]
    fn functions_classes_and_methods_keep_their_docstrings_first_paragraph() {
        let text = "def run():\n    \"\"\"Run the app.\n\n    Long details.\n    \"\"\"\n\n\
                    class Cart:\n    \"\"\"A cart.\"\"\"\n\n    def add(self, item):\n        \"\"\"Add one item.\"\"\"\n\n\
                    def _hidden(self):\n        \"\"\"Private.\"\"\"\n\n    def total(self):\n        return 0\n";
        let iface = parse(Language::Python, text);
        assert_eq!(
            docs(&iface),
            [
                ("run", "Run the app."),
                ("Cart", "A cart."),
                ("add", "Add one item.")
            ]
        );
    }

    /// (spec, line, names) of each import.
    fn named_imports(interface: &crate::source::Interface) -> Vec<(&str, usize, Vec<&str>)> {
        interface
            .imports
            .iter()
            .map(|i| {
                (
                    i.spec.as_str(),
                    i.line,
                    i.names.iter().map(String::as_str).collect(),
                )
            })
            .collect()
    }

    const FIXTURE: &str = include_str!("../../../../fixtures/source/python/inventory.py");

    #[test]
    fn extracts_the_fixture() {
        let iface = parse(Language::Python, FIXTURE);
        assert!(!iface.has_errors);
        assert_eq!(
            rows(&iface),
            vec![
                (
                    None,
                    Function,
                    "load",
                    "def load(path: str, *, strict: bool = False) -> Inventory"
                ),
                (None, Class, "Inventory", "class Inventory(Warehouse)"),
                (None, TypeAlias, "ItemId", "type ItemId = int"),
                (None, Constant, "MAX_ITEMS", "MAX_ITEMS: int"),
                (None, Variable, "__all__", "__all__"),
                (
                    Some("Inventory"),
                    Method,
                    "__len__",
                    "def __len__(self) -> int"
                ),
                (
                    Some("Inventory"),
                    Method,
                    "add",
                    "def add(self, item: Item, count: int = 1) -> None"
                ),
                (
                    Some("Inventory"),
                    Method,
                    "from_rows",
                    "@classmethod def from_rows(cls, rows: Iterable[tuple[str, int]]) -> \"Inventory\""
                ),
                (
                    Some("Inventory"),
                    Method,
                    "total",
                    "@property def total(self) -> int"
                ),
                (Some("Inventory"), Constant, "DEFAULT_UNIT", "DEFAULT_UNIT"),
                (Some("Inventory"), Variable, "items", "items: dict[str, int]"),
                (Some("Inventory"), Variable, "name", "name: str"),
            ]
        );
        let expected = "\
__all__
MAX_ITEMS: int
type ItemId = int
class Inventory(Warehouse)
  name: str
  items: dict[str, int]
  DEFAULT_UNIT
  def add(self, item: Item, count: int = 1) -> None
  @property def total(self) -> int
  @classmethod def from_rows(cls, rows: Iterable[tuple[str, int]]) -> \"Inventory\"
  def __len__(self) -> int
def load(path: str, *, strict: bool = False) -> Inventory";
        assert_eq!(iface.skeleton(), expected);
        assert_eq!(
            named_imports(&iface),
            vec![
                ("logging", 9, vec![]),
                ("dataclasses", 10, vec!["dataclass", "field"]),
                ("typing", 11, vec!["Iterable"]),
                (".", 13, vec!["storage"]),
                (".models", 14, vec!["Item", "Warehouse"]),
            ]
        );
        assert_eq!(
            iface.doc.as_deref(),
            Some("Inventory management.\n\nTracks stock levels per warehouse.")
        );
        assert_eq!(iface.signals.lines, 61);
        assert_eq!(iface.signals.todo_markers, 1);
        assert_eq!(iface.signals.max_nesting, 2);
    }

    #[test]
    fn without_dunder_all_underscore_names_are_private() {
        let text = "\
import os, sys as system
from .. import parent
from ..pkg.mod import thing as alias, other
from .star import *
VERSION = '1'
__version__ = '2'
_private = 3
a, b = 1, 2
x = y = 0
def _hidden(): pass
async def fetch(url: str, /, *args, **kwargs) -> bytes: ...
class _Secret: pass
class Public:
    _x = 1
    def __init__(self, v): self.v = v
    def __repr__(self): return ''
    def __private(self): pass
    @staticmethod
    @functools.wraps(f)
    def make(): pass
    @value.setter
    def value(self, v): pass
    class Inner: pass
if TYPE_CHECKING:
    from typing import Any
    Alias = int
else:
    Alias = object
try:
    import ujson as json
except ImportError:
    json = None
if __name__ == '__main__':
    main_only = 1
";
        let iface = parse(Language::Python, text);
        assert!(!iface.has_errors);
        assert_eq!(
            rows(&iface),
            vec![
                (
                    None,
                    Function,
                    "fetch",
                    "async def fetch(url: str, /, *args, **kwargs) -> bytes"
                ),
                (None, Class, "Public", "class Public"),
                (None, Constant, "VERSION", "VERSION"),
                // What the type checker sees, then what runs: both are short types.
                (None, Variable, "Alias", "Alias = int"),
                (None, Variable, "Alias", "Alias = object"),
                (None, Variable, "__version__", "__version__"),
                (None, Variable, "a", "a"),
                (None, Variable, "b", "b"),
                (None, Variable, "json", "json = None"),
                (None, Variable, "x", "x"),
                (None, Variable, "y", "y"),
                (Some("Public"), Method, "__init__", "def __init__(self, v)"),
                (Some("Public"), Method, "__repr__", "def __repr__(self)"),
                (Some("Public"), Method, "make", "@staticmethod def make()"),
                (
                    Some("Public"),
                    Method,
                    "value",
                    "@value.setter def value(self, v)"
                ),
                (Some("Public"), Class, "Inner", "class Inner"),
                (Some("Public"), Variable, "v", "self.v = v"),
            ]
        );
        assert_eq!(
            named_imports(&iface),
            vec![
                ("os", 1, vec![]),
                ("sys", 1, vec![]),
                ("..", 2, vec!["parent"]),
                ("..pkg.mod", 3, vec!["thing", "other"]),
                (".star", 4, vec![]),
                ("typing", 25, vec!["Any"]),
                ("ujson", 30, vec![]),
            ]
        );
    }

    const BASE: &str = r#""""Doc."""
import os


class Runner:
    verbose: bool

    def __init__(self, verbose: bool = False):
        self.verbose = verbose

    def run(self, path: str) -> int:
        return len(path)

    def _reset(self):
        pass


def run(path: str, verbose: bool = False) -> int:
    return Runner(verbose).run(path)


def _helper():
    pass


LIMIT = 10
"#;

    #[test]
    fn interface_hash_ignores_non_interface_edits() {
        let body = BASE.replace("return len(path)", "n = len(path)\n        return n");
        let comments = BASE
            .replace("\"\"\"Doc.\"\"\"", "\"\"\"Other doc.\"\"\"\n# comment")
            .replace(
                "def run(path: str, verbose: bool = False) -> int:\n",
                "def run(path: str, verbose: bool = False) -> int:  # trailing\n    \"\"\"Run it.\"\"\"\n",
            );
        let reformatted = BASE
            .replace(
                "def run(path: str, verbose: bool = False) -> int:",
                "def run(\n    path : str,\n    verbose : bool=False,\n)->int :",
            )
            .replace("LIMIT = 10", "LIMIT=10");
        let reordered = "LIMIT = 1\ndef run(path: str, verbose: bool = False) -> int: ...\nclass Runner:\n    def run(self, path: str) -> int: ...\n    def __init__(self, verbose: bool = False): ...\n    verbose: bool\n";
        let private = BASE
            .replace("def _helper():", "def _helper(x, y):")
            .replace("def _reset(self):", "def _reset(self, hard: bool):")
            .replace("import os", "import os\n_CACHE = {}");
        let different = [
            (
                "parameter type",
                BASE.replace("def run(path: str,", "def run(path: bytes,"),
            ),
            (
                "new function",
                format!("{BASE}\n\ndef extra():\n    pass\n"),
            ),
            (
                "private made public",
                BASE.replace("def _helper", "def helper"),
            ),
            (
                "class attribute",
                BASE.replace(
                    "    verbose: bool\n",
                    "    verbose: bool\n    quiet: bool\n",
                ),
            ),
            ("annotation", BASE.replace("LIMIT = 10", "LIMIT: int = 10")),
        ];
        assert_hash_behaviour(
            Language::Python,
            BASE,
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
        let text =
            "def ok(a):\n    return a\n\ndef broken(x:\n    pass\n\nclass After:\n    pass\n";
        let iface = parse(Language::Python, text);
        assert!(iface.has_errors);
        assert!(rows(&iface).contains(&(None, Function, "ok", "def ok(a)")));
    }

    #[test]
    fn reexports_and_type_variables_are_interface() {
        let text = "from .app import Flask as Flask\nfrom .helpers import url_for\nfrom .json import jsonify as to_json\nfrom typing import TypeVar\nT = TypeVar(\"T\", bound=int)\n";
        let iface = parse(Language::Python, text);
        assert_eq!(
            iface.skeleton(),
            "from .app import Flask\nT = TypeVar(\"T\", bound=int)"
        );
        let listed = "from .a import x, y as z\n__all__ = [\"x\", \"z\"]\n";
        let iface = parse(Language::Python, listed);
        assert!(
            iface
                .skeleton()
                .contains("from .a import x\nfrom .a import y as z"),
            "{}",
            iface.skeleton()
        );
    }

    #[test]
    fn docstring_rules() {
        let cases: [(&str, Option<&str>); 6] = [
            (
                "#!/usr/bin/env python\n# -*- coding: utf-8 -*-\n'''Single quoted.'''\n",
                Some("Single quoted."),
            ),
            (
                "\"\"\"\n    Indented\n      lines.\n\"\"\"\nx = 1\n",
                Some("Indented\n  lines."),
            ),
            ("r\"\"\"Raw \\d doc.\"\"\"\n", Some("Raw \\d doc.")),
            ("x = 1\n\"\"\"Not first.\"\"\"\n", None),
            ("f\"\"\"{x} formatted\"\"\"\n", None),
            ("\"\"\"   \"\"\"\n", None),
        ];
        for (text, expected) in cases {
            assert_eq!(
                parse(Language::Python, text).doc.as_deref(),
                expected,
                "{text:?}"
            );
        }
    }
}
