//! CommonJS interfaces: what a `require`d module gives its caller. `module.exports = name` (and what
//! `name` is), `module.exports = { a, b }`, `exports.x = …`, members assigned to the exported object
//! or its prototype (`app.use = function use(fn)` where `var app = exports = module.exports = {}`,
//! `Router.prototype.route = …` where `module.exports = Router`), properties defined on it
//! (`Object.defineProperty(req, 'x', { get })`, `Object.defineProperties`, `__defineGetter__`, a local
//! helper that forwards to `Object.defineProperty`: [`properties`]), and members assigned under a computed name in a loop over a list (express's
//! `methods.forEach(function (method) { app[method] = function (path) {…} })`, `for (const m of
//! list) { proto[m] = … }`: one line, `app[method] = function (path)  // for each of `methods``,
//! naming the values the loop body tests the name against, `(get, …)`). Also the doc comments of
//! top-level declarations and which of them is the module's primary export, for the description.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use crate::source::interface::SymbolKind;
use crate::source::syntax::{code_children, compact, leading_doc, signature, text_of, Builder};

mod properties;

pub(crate) use properties::property_function;

/// Longest chain `a = b = c = …` followed.
const MAX_CHAIN: usize = 16;

/// What the first pass over the top level found.
#[derive(Default)]
pub(crate) struct Module {
    /// Names bound to the exported object (`app` in `var app = module.exports = {}`, `Router` in
    /// `module.exports = Router`), plus `exports` and `module.exports` themselves.
    aliases: HashSet<String>,
    /// Signatures of top-level function and class declarations, by name.
    declarations: HashMap<String, String>,
    /// Doc comments of top-level declarations, by name; `module.exports` for the assignment itself.
    pub docs: Vec<(String, String)>,
    /// The key in `docs` of the module's primary export.
    pub primary: Option<String>,
    /// Top-level functions that forward an object and a name to `Object.defineProperty`, by name
    /// (express's `defineGetter`): a call to one defines a property ([`properties`]).
    forwarders: HashMap<String, properties::Forwarder>,
}

/// The first pass: aliases of the exported object, declaration signatures and docs.
pub(crate) fn scan(root: Node<'_>, src: &str) -> Module {
    let mut module = Module::default();
    module.aliases.insert("exports".to_string());
    module.aliases.insert("module.exports".to_string());
    for child in code_children(root) {
        let doc = leading_doc(child, src);
        let mut names: Vec<String> = Vec::new();
        match child.kind() {
            "function_declaration" | "generator_function_declaration" | "class_declaration" => {
                if let Some(name) = child.child_by_field_name("name") {
                    let body: Vec<Node<'_>> =
                        child.child_by_field_name("body").into_iter().collect();
                    let name = text_of(name, src).to_string();
                    module
                        .declarations
                        .insert(name.clone(), signature(child, src, &body));
                    if let Some(forwarder) = properties::forwarder(child, src) {
                        module.forwarders.insert(name.clone(), forwarder);
                    }
                    names.push(name);
                }
            }
            "lexical_declaration" | "variable_declaration" => {
                for declarator in code_children(child) {
                    let Some(name) = declarator.child_by_field_name("name") else {
                        continue;
                    };
                    let name = text_of(name, src).to_string();
                    let value = declarator.child_by_field_name("value");
                    if value.is_some_and(|value| chain_exports(value, src, &mut module)) {
                        module.aliases.insert(name.clone());
                        module.primary = Some("module.exports".to_string());
                        if let Some(doc) = &doc {
                            module
                                .docs
                                .push(("module.exports".to_string(), doc.clone()));
                        }
                    }
                    names.push(name);
                }
            }
            "export_statement" => scan_export(child, src, &mut module, &mut names),
            "expression_statement" => {
                if let Some(assign) = assignment(child) {
                    if chain_exports(assign, src, &mut module) {
                        module
                            .primary
                            .get_or_insert_with(|| "module.exports".to_string());
                        names.push("module.exports".to_string());
                    }
                }
            }
            _ => {}
        }
        if let Some(doc) = doc {
            for name in names {
                if !module.docs.iter().any(|(known, _)| *known == name) {
                    module.docs.push((name, doc.clone()));
                }
            }
        }
    }
    module
}

/// An `export` statement: its declared name, and the primary export (`export =`, `export default`).
fn scan_export(child: Node<'_>, src: &str, module: &mut Module, names: &mut Vec<String>) {
    let declaration = child
        .child_by_field_name("declaration")
        .or_else(|| child.child_by_field_name("value"));
    let name = declaration
        .and_then(|d| d.child_by_field_name("name"))
        .map(|n| text_of(n, src).to_string());
    let text = text_of(child, src);
    if let Some(target) = text.strip_prefix("export =") {
        let target = target.trim().trim_end_matches(';').trim();
        module.primary = Some(target.to_string());
    }
    let is_default = code_children(child).iter().any(|c| c.kind() == "default")
        || text_of(child, src).starts_with("export default");
    match (&name, is_default) {
        (Some(name), true) => module.primary = Some(name.clone()),
        (None, true) => {
            let value = child.child_by_field_name("value");
            module.primary = Some(match value.filter(|v| v.kind() == "identifier") {
                Some(identifier) => text_of(identifier, src).to_string(),
                None => "default".to_string(),
            });
            if value.is_none_or(|v| v.kind() != "identifier") {
                names.push("default".to_string());
            }
        }
        _ => {}
    }
    names.extend(name);
}

/// The assignment expression of an expression statement.
fn assignment(statement: Node<'_>) -> Option<Node<'_>> {
    code_children(statement)
        .into_iter()
        .find(|c| c.kind() == "assignment_expression")
}

/// Whether the chain `a = b = … = value` assigns `module.exports`; the identifier at its end
/// (`module.exports = Router`) becomes an alias and the primary export.
fn chain_exports(value: Node<'_>, src: &str, module: &mut Module) -> bool {
    let mut current = value;
    let mut exports = false;
    for _ in 0..MAX_CHAIN {
        if current.kind() != "assignment_expression" {
            break;
        }
        let left = current.child_by_field_name("left");
        if left.is_some_and(|left| compact(text_of(left, src)) == "module.exports") {
            exports = true;
        }
        match current.child_by_field_name("right") {
            Some(right) => current = right,
            None => break,
        }
    }
    if exports && current.kind() == "identifier" {
        let name = text_of(current, src).to_string();
        module.aliases.insert(name.clone());
        module.primary = Some(name);
    }
    exports
}

/// The second pass: one top-level expression statement that adds to the exported interface.
pub(crate) fn statement(module: &Module, statement: Node<'_>, src: &str, b: &mut Builder) {
    let Some(first) = code_children(statement).into_iter().next() else {
        return;
    };
    match first.kind() {
        "assignment_expression" => {
            let doc = leading_doc(statement, src);
            assignments(module, (first, doc), src, b);
        }
        "call_expression" => {
            let doc = leading_doc(statement, src);
            properties::defined_properties(module, (first, doc.clone()), src, b);
            for_each(module, (first, doc), src, b);
        }
        _ => {}
    }
}

/// `list.forEach(function (name) { … })` (or an arrow function): the members its body assigns
/// under `name` ([`looped_members`]).
fn for_each(module: &Module, (call, doc): (Node<'_>, Option<String>), src: &str, b: &mut Builder) {
    let Some(callee) = call.child_by_field_name("function") else {
        return;
    };
    let property = callee.child_by_field_name("property");
    if callee.kind() != "member_expression" || property.is_none_or(|p| text_of(p, src) != "forEach")
    {
        return;
    }
    let Some(list) = callee.child_by_field_name("object") else {
        return;
    };
    let args = call
        .child_by_field_name("arguments")
        .map(code_children)
        .unwrap_or_default();
    let Some(function) = args.first().filter(|f| is_function(**f)) else {
        return;
    };
    let name = function
        .child_by_field_name("parameter")
        .or_else(|| {
            let parameters = function.child_by_field_name("parameters")?;
            code_children(parameters).into_iter().next()
        })
        .filter(|p| p.kind() == "identifier");
    let (Some(name), Some(body)) = (name, function.child_by_field_name("body")) else {
        return;
    };
    let looped = Loop {
        name: text_of(name, src),
        over: format!("each of `{}`", compact(text_of(list, src))),
        body,
    };
    looped_members(module, &looped, doc, src, b);
}

/// A top-level `for (const name of list) { … }` (or `for (name in object)`): the members its body
/// assigns under `name` ([`looped_members`]).
pub(crate) fn for_loop(module: &Module, statement: Node<'_>, src: &str, b: &mut Builder) {
    let field = |name: &str| statement.child_by_field_name(name);
    let (Some(left), Some(right), Some(body)) = (field("left"), field("right"), field("body"))
    else {
        return;
    };
    let name = match left.kind() {
        "identifier" => Some(left),
        _ => left.child_by_field_name("name"),
    };
    let Some(name) = name.filter(|n| n.kind() == "identifier") else {
        return;
    };
    let keys = field("operator").is_some_and(|op| text_of(op, src) == "in");
    let noun = if keys { "each key" } else { "each" };
    let looped = Loop {
        name: text_of(name, src),
        over: format!("{noun} of `{}`", compact(text_of(right, src))),
        body,
    };
    looped_members(module, &looped, leading_doc(statement, src), src, b);
}

/// A loop over a list whose body may assign members under a computed name.
struct Loop<'t, 's> {
    /// The loop variable.
    name: &'s str,
    /// What it ranges over, as the contract says it: "each of `methods`".
    over: String,
    body: Node<'t>,
}

/// The statements of `looped`'s body that assign a function to a member of the exported object
/// (or its prototype) under the loop variable: one contract line each, `app[method] = function
/// (path)  // for each of `methods` (get, …)`.
fn looped_members(
    module: &Module,
    looped: &Loop<'_, '_>,
    doc: Option<String>,
    src: &str,
    b: &mut Builder,
) {
    let statements = match looped.body.kind() {
        "statement_block" => code_children(looped.body),
        _ => vec![looped.body],
    };
    let values = tested_values(looped.body, looped.name, src);
    let known = match values.is_empty() {
        true => String::new(),
        false => format!(" ({}, …)", values.join(", ")),
    };
    for statement in statements
        .into_iter()
        .filter(|s| s.kind() == "expression_statement")
    {
        let Some(assign) = assignment(statement) else {
            continue;
        };
        let field = |name: &str| assign.child_by_field_name(name);
        let (Some(left), Some(value)) = (field("left"), field("right")) else {
            continue;
        };
        let object = left.child_by_field_name("object");
        let index = left.child_by_field_name("index");
        let (Some(object), Some(index)) = (object, index) else {
            continue;
        };
        let object = compact(text_of(object, src));
        let base = object.strip_suffix(".prototype").unwrap_or(&object);
        if left.kind() != "subscript_expression"
            || text_of(index, src) != looped.name
            || !module.aliases.contains(base)
            || !is_function(value)
        {
            continue;
        }
        let name = format!("{object}[{}]", looped.name);
        let sig = format!(
            "{name} = {}  // for {}{known}",
            shape(module, value, src),
            looped.over
        );
        b.add_documented(0, SymbolKind::Function, &name, None, (sig, doc.clone()));
    }
}

/// The string values `name` is compared with in `body` (`method === 'get'`), in source order: the
/// members of the list the loop body names.
fn tested_values(body: Node<'_>, name: &str, src: &str) -> Vec<String> {
    let mut values: Vec<String> = Vec::new();
    crate::source::syntax::walk(body, (), |node, ()| {
        if node.kind() == "binary_expression" {
            let operator = node
                .child_by_field_name("operator")
                .map(|o| text_of(o, src));
            let sides = (
                node.child_by_field_name("left"),
                node.child_by_field_name("right"),
            );
            if let (Some("===" | "=="), (Some(left), Some(right))) = (operator, sides) {
                let value = match (left.kind(), right.kind()) {
                    ("identifier", "string") if text_of(left, src) == name => Some(right),
                    ("string", "identifier") if text_of(right, src) == name => Some(left),
                    _ => None,
                };
                if let Some(value) = value {
                    let value = text_of(value, src)
                        .trim_matches(['"', '\'', '`'])
                        .to_string();
                    if !values.contains(&value) {
                        values.push(value);
                    }
                }
            }
        }
        Some(())
    });
    values
}

/// `a.x = b.y = value`: every exported left side, each with the value's shape and the statement's
/// doc (`/** Send JSON response. */ res.json = function json(obj)`).
pub(crate) fn assignments(
    module: &Module,
    (assign, doc): (Node<'_>, Option<String>),
    src: &str,
    b: &mut Builder,
) {
    let mut lefts: Vec<String> = Vec::new();
    let mut current = assign;
    for _ in 0..MAX_CHAIN {
        if current.kind() != "assignment_expression" {
            break;
        }
        if let Some(left) = current.child_by_field_name("left") {
            if left.kind() == "member_expression" || left.kind() == "identifier" {
                lefts.push(compact(text_of(left, src)));
            }
        }
        match current.child_by_field_name("right") {
            Some(right) => current = right,
            None => return,
        }
    }
    let value = current;
    for left in lefts {
        if left == "module.exports" {
            let sig = format!("module.exports = {}", shape(module, value, src));
            if b.add_documented(0, SymbolKind::Variable, &left, None, (sig, doc.clone())) {
                exported_class_members(value, src, b);
            }
        } else if module.exported_member(&left) {
            let kind = if is_function(value) {
                SymbolKind::Function
            } else {
                SymbolKind::Variable
            };
            let sig = match is_function(value) || value.kind() == "class" {
                true => format!("{left} = {}", shape(module, value, src)),
                false => left.clone(),
            };
            b.add_documented(0, kind, &left, None, (sig, doc.clone()));
        }
    }
}

/// The public methods of a class exported as an expression (`module.exports = class Application
/// extends Emitter { use(fn) {…} }`), under the class's name (`module.exports` when it has none).
fn exported_class_members(value: Node<'_>, src: &str, b: &mut Builder) {
    if value.kind() != "class" {
        return;
    }
    let Some(body) = value.child_by_field_name("body") else {
        return;
    };
    let name = value
        .child_by_field_name("name")
        .map_or("module.exports", |n| text_of(n, src));
    crate::source::javascript::class_members(b, name, body, src);
}

impl Module {
    /// Whether `left` (`app.use`, `exports.x`, `Router.prototype.route`) is a member of the exported
    /// object or of its prototype.
    fn exported_member(&self, left: &str) -> bool {
        let Some((object, member)) = left.rsplit_once('.') else {
            return false;
        };
        let object = object.strip_suffix(".prototype").unwrap_or(object);
        !member.is_empty() && self.aliases.contains(object)
    }
}

/// How an exported value reads in the contract: a function's or class's header, an object's keys,
/// a declaration's header for a name.
fn shape(module: &Module, value: Node<'_>, src: &str) -> String {
    match value.kind() {
        kind if is_function(value) || kind == "class" => {
            let body: Vec<Node<'_>> = value.child_by_field_name("body").into_iter().collect();
            signature(value, src, &body)
        }
        "identifier" => {
            let name = text_of(value, src);
            module
                .declarations
                .get(name)
                .cloned()
                .unwrap_or_else(|| name.to_string())
        }
        "object" => {
            let keys: Vec<String> = code_children(value)
                .into_iter()
                .filter_map(|pair| match pair.kind() {
                    "pair" | "method_definition" => pair
                        .child_by_field_name("key")
                        .or_else(|| pair.child_by_field_name("name"))
                        .map(|key| text_of(key, src).to_string()),
                    "shorthand_property_identifier" => Some(text_of(pair, src).to_string()),
                    _ => None,
                })
                .collect();
            format!("{{ {} }}", keys.join(", "))
        }
        "call_expression" | "new_expression" => {
            let callee = value
                .child_by_field_name("function")
                .or_else(|| value.child_by_field_name("constructor"));
            match callee {
                Some(callee) => format!("{}(…)", compact(text_of(callee, src))),
                None => "…".to_string(),
            }
        }
        _ => "…".to_string(),
    }
}

fn is_function(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "arrow_function" | "function_expression" | "function" | "generator_function"
    )
}

#[cfg(test)]
mod tests {
    use crate::source::testing::{docs, parse};
    use crate::source::Language;

    #[test]
    fn members_of_the_exported_object_and_its_prototype_keep_their_docs() {
        let text = "var res = Object.create(null);\n\n/** Module exports. */\nmodule.exports = res;\n\n\
                    /**\n * Send JSON response.\n *\n * Examples:\n *     res.json(1);\n * @public\n */\n\n\
                    res.json = function json(obj) {};\n\n// Undocumented on purpose? No: a line comment.\n\
                    res.send = function send(body) {};\nres.end = function end() {};\n\n\
                    function Router() {}\n/** Add a route. */\nRouter.prototype.route = function route(p) {};\n";
        let iface = parse(Language::JavaScript, text);
        assert_eq!(
            docs(&iface),
            [
                ("module.exports", "Module exports."),
                ("res.json", "Send JSON response."),
                ("res.send", "Undocumented on purpose? No: a line comment."),
            ]
        );
        let iface = parse(
            Language::JavaScript,
            "function Router() {}\nmodule.exports = Router;\n/** Add a route. */\nRouter.prototype.route = function route(p) {};\n",
        );
        assert_eq!(docs(&iface), [("Router.prototype.route", "Add a route.")]);
    }

    #[test]
    fn members_assigned_in_a_loop_over_a_list_are_one_line() {
        let text = "var app = exports = module.exports = {};\n\
                    /** Delegate `.VERB()` calls. */\n\
                    methods.forEach(function (method) {\n  app[method] = function (path) {\n    if (method === 'get' && arguments.length === 1) return this.set(path);\n    if ('head' == method) return this;\n  };\n});\n\
                    ['a', 'b'].forEach((name) => { exports[name] = function () {}; });\n\
                    for (const verb of VERBS) { app[verb] = (path) => path; }\n\
                    for (var key in table) app.prototype[key] = function lookup(x) {};\n\
                    list.forEach(function (m) { other[m] = function () {}; app[m] = 1; });\n";
        let iface = parse(Language::JavaScript, text);
        let lines: Vec<&str> = iface.outline().iter().map(|l| l.text.as_str()).collect();
        assert_eq!(
            lines,
            [
                "module.exports = {  }",
                "app[method] = function (path)  // for each of `methods` (get, head, …)",
                "exports[name] = function ()  // for each of `['a','b']`",
                "app[verb] = (path) =>  // for each of `VERBS`",
                "app.prototype[key] = function lookup(x)  // for each key of `table`",
            ]
        );
        assert_eq!(docs(&iface), [("app[method]", "Delegate `.VERB()` calls.")]);
    }
}
