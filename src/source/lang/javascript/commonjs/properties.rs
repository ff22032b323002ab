//! Members a CommonJS module defines as properties rather than by assignment:
//! `Object.defineProperty(req, 'x', { get: fn })`, `Object.defineProperties(req, { x: {…}, … })`,
//! `req.__defineGetter__('x', fn)`, and calls to a local function that forwards its object, name
//! and function parameters to `Object.defineProperty` (express's `defineGetter(req, 'protocol',
//! function protocol(){…})`, where `function defineGetter(obj, name, getter) {
//! Object.defineProperty(obj, name, { get: getter }) }`) — found by what the function's body does,
//! not by its name. Each is a member of the exported object when the object is one of its aliases:
//! `req.protocol  // getter`, with the statement's doc.

use tree_sitter::Node;

use super::{is_function, shape, Module};
use crate::source::interface::SymbolKind;
use crate::source::syntax::{code_children, compact, text_of, walk, Builder};

/// A local function that defines a property: which of its parameters are the object, the name and
/// the descriptor's `get`/`value`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(in crate::source) struct Forwarder {
    object: usize,
    name: usize,
    /// The parameter the descriptor takes as `get` (a getter) or `value`.
    accessor: Option<(usize, Accessor)>,
}

/// How a property's value is given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Accessor {
    Getter,
    Value,
}

/// The arguments of a call expression, without punctuation and comments.
fn arguments(call: Node<'_>) -> Vec<Node<'_>> {
    call.child_by_field_name("arguments")
        .map(code_children)
        .unwrap_or_default()
}

/// The callee of a call expression, whitespace removed (`Object.defineProperty`).
fn callee(call: Node<'_>, src: &str) -> String {
    call.child_by_field_name("function")
        .map(|c| compact(text_of(c, src)))
        .unwrap_or_default()
}

/// Whether top-level function `function` (its parameters and body) forwards an object and a name
/// parameter to `Object.defineProperty`; which parameters are which.
pub(in crate::source) fn forwarder(function: Node<'_>, src: &str) -> Option<Forwarder> {
    let parameters: Vec<&str> = function
        .child_by_field_name("parameters")
        .map(code_children)
        .unwrap_or_default()
        .into_iter()
        .filter(|p| p.kind() == "identifier")
        .map(|p| text_of(p, src))
        .collect();
    let position = |node: Node<'_>| {
        let text = text_of(node, src);
        (node.kind() == "identifier")
            .then(|| parameters.iter().position(|p| *p == text))
            .flatten()
    };
    let body = function.child_by_field_name("body")?;
    let mut found = None;
    walk(body, (), |node, ()| {
        if found.is_some() {
            return None;
        }
        if node.kind() == "call_expression" && callee(node, src) == "Object.defineProperty" {
            let args = arguments(node);
            if let [object, name, descriptor, ..] = args.as_slice() {
                if let (Some(object), Some(name)) = (position(*object), position(*name)) {
                    let accessor = descriptor_accessor(*descriptor, src)
                        .and_then(|(value, kind)| Some((position(value)?, kind)));
                    found = Some(Forwarder {
                        object,
                        name,
                        accessor,
                    });
                }
            }
        }
        Some(())
    });
    found
}

/// The `get` (else `value`) entry of a property descriptor object literal.
fn descriptor_accessor<'t>(descriptor: Node<'t>, src: &str) -> Option<(Node<'t>, Accessor)> {
    if descriptor.kind() != "object" {
        return None;
    }
    let mut value = None;
    for entry in code_children(descriptor) {
        let key = entry
            .child_by_field_name("key")
            .or_else(|| entry.child_by_field_name("name"))
            .map(|key| text_of(key, src));
        match (entry.kind(), key) {
            ("pair", Some("get")) => {
                return entry
                    .child_by_field_name("value")
                    .map(|v| (v, Accessor::Getter))
            }
            ("method_definition", Some("get")) => return Some((entry, Accessor::Getter)),
            ("pair", Some("value")) => {
                value = entry
                    .child_by_field_name("value")
                    .map(|v| (v, Accessor::Value));
            }
            _ => {}
        }
    }
    value
}

/// A top-level call that defines members of the exported object: `Object.defineProperty`,
/// `Object.defineProperties`, `x.__defineGetter__` or a call to a local [`Forwarder`].
pub(crate) fn defined_properties(
    module: &Module,
    (call, doc): (Node<'_>, Option<String>),
    src: &str,
    b: &mut Builder,
) {
    let callee = callee(call, src);
    let args = arguments(call);
    let define = Define { module, src, doc };
    match callee.as_str() {
        "Object.defineProperty" => {
            if let [object, key, descriptor, ..] = args.as_slice() {
                let accessor = descriptor_accessor(*descriptor, src);
                define.member(b, (*object, *key), accessor);
            }
        }
        "Object.defineProperties" => {
            if let [object, properties] = args.as_slice() {
                define.each_property(b, *object, *properties);
            }
        }
        _ => match callee.strip_suffix(".__defineGetter__") {
            Some(object) => {
                if let ([key, getter, ..], Some(target)) =
                    (args.as_slice(), call.child_by_field_name("function"))
                {
                    let object_node = target.child_by_field_name("object");
                    if let Some(object_node) = object_node.filter(|_| !object.is_empty()) {
                        define.member(b, (object_node, *key), Some((*getter, Accessor::Getter)));
                    }
                }
            }
            None => {
                let Some(forwarder) = module.forwarders.get(&callee) else {
                    return;
                };
                let (Some(object), Some(key)) =
                    (args.get(forwarder.object), args.get(forwarder.name))
                else {
                    return;
                };
                let accessor = forwarder
                    .accessor
                    .and_then(|(at, kind)| Some((*args.get(at)?, kind)));
                define.member(b, (*object, *key), accessor);
            }
        },
    }
}

/// The property a top-level call defines with a function — a getter or a method: its object as
/// written (`req`), its name (`query`) and the function (`defineGetter(req, 'query', function
/// query(){…})`, `Object.defineProperty(req, 'x', { get: function () {…} })`,
/// `req.__defineGetter__('x', fn)`) — what the definitions walk opens as `req.query`, so that
/// `--member req.query` has its calls, flow and source.
pub(crate) fn property_function<'t>(
    call: Node<'t>,
    src: &str,
) -> Option<(Node<'t>, String, Node<'t>)> {
    let callee = callee(call, src);
    let args = arguments(call);
    let (object, key, function) = match callee.as_str() {
        "Object.defineProperty" => match args.as_slice() {
            [object, key, descriptor, ..] => {
                (*object, *key, descriptor_accessor(*descriptor, src)?.0)
            }
            _ => return None,
        },
        _ => match callee.strip_suffix(".__defineGetter__") {
            Some(_) => match args.as_slice() {
                [key, getter, ..] => {
                    let target = call.child_by_field_name("function")?;
                    (target.child_by_field_name("object")?, *key, *getter)
                }
                _ => return None,
            },
            // A call shaped as a forwarder's (an object, a literal name, a function) is the only
            // one worth looking for a top-level function of its callee's name: every top-level
            // call is asked, and the look is a pass over the program's statements.
            None if is_forwarder_shaped(&args) => {
                let forwarder = top_level_function(call, &callee, src)
                    .and_then(|function| forwarder(function, src))?;
                let (object, key) = (args.get(forwarder.object)?, args.get(forwarder.name)?);
                let (at, _) = forwarder.accessor?;
                (*object, *key, *args.get(at)?)
            }
            None => return None,
        },
    };
    let key = match key.kind() {
        "string" => text_of(key, src).trim_matches(['"', '\'', '`']),
        _ => return None,
    };
    let function = match function.kind() {
        // `get() {…}` in the descriptor: the method is the function.
        "method_definition" => function,
        _ if is_function(function) => function,
        _ => return None,
    };
    (!key.is_empty()).then(|| (object, key.to_string(), function))
}

/// Arguments as a property-defining helper takes them: at least three, a string literal among them
/// and a function.
fn is_forwarder_shaped(args: &[Node<'_>]) -> bool {
    args.len() >= 3
        && args.iter().any(|arg| arg.kind() == "string")
        && args.iter().any(|arg| is_function(*arg))
}

/// The function declared at the top of `node`'s program under `name`.
fn top_level_function<'t>(node: Node<'t>, name: &str, src: &str) -> Option<Node<'t>> {
    let mut program = node;
    while let Some(parent) = program.parent() {
        program = parent;
    }
    code_children(program).into_iter().find(|child| {
        child.kind() == "function_declaration"
            && child
                .child_by_field_name("name")
                .is_some_and(|n| text_of(n, src) == name)
    })
}

/// What one defining statement shares among the members it defines.
struct Define<'m> {
    module: &'m Module,
    src: &'m str,
    doc: Option<String>,
}

impl Define<'_> {
    /// `Object.defineProperties(object, { name: descriptor, … })`: each name a member.
    fn each_property(&self, b: &mut Builder, object: Node<'_>, properties: Node<'_>) {
        if properties.kind() != "object" {
            return;
        }
        for pair in code_children(properties)
            .into_iter()
            .filter(|p| p.kind() == "pair")
        {
            let (Some(key), Some(descriptor)) = (
                pair.child_by_field_name("key"),
                pair.child_by_field_name("value"),
            ) else {
                continue;
            };
            let accessor = descriptor_accessor(descriptor, self.src);
            self.member(b, (object, key), accessor);
        }
    }

    /// The member `object.key` when `object` is the exported object (or an alias of it) and `key` a
    /// literal name: a getter, a method (a function value) or a plain property.
    fn member(
        &self,
        b: &mut Builder,
        (object, key): (Node<'_>, Node<'_>),
        accessor: Option<(Node<'_>, Accessor)>,
    ) {
        let object = compact(text_of(object, self.src));
        let key = match key.kind() {
            "string" => text_of(key, self.src).trim_matches(['"', '\'', '`']),
            "property_identifier" => text_of(key, self.src),
            _ => return,
        };
        let base = object.strip_suffix(".prototype").unwrap_or(&object);
        if key.is_empty() || !self.module.aliases.contains(base) {
            return;
        }
        let name = format!("{object}.{key}");
        let (kind, sig) = match accessor {
            Some((_, Accessor::Getter)) => (SymbolKind::Variable, format!("{name}  // getter")),
            Some((value, Accessor::Value)) if is_function(value) => (
                SymbolKind::Function,
                format!("{name} = {}", shape(self.module, value, self.src)),
            ),
            _ => (SymbolKind::Variable, name.clone()),
        };
        b.add_documented(0, kind, &name, None, (sig, self.doc.clone()));
    }
}

#[cfg(test)]
mod tests {
    use crate::source::testing::{docs, parse};
    use crate::source::Language;

    fn lines(text: &str) -> Vec<String> {
        let iface = parse(Language::JavaScript, text);
        iface.outline().iter().map(|l| l.text.clone()).collect()
    }

    /// express's lib/request.js: getters defined through a local helper declared below its calls.
    #[test]
    fn a_local_function_forwarding_to_define_property_defines_members() {
        let text = "var req = Object.create(null);\nmodule.exports = req;\n\
                    /**\n * Return the protocol string \"http\" or \"https\".\n *\n * @return {String}\n * @public\n */\n\n\
                    defineGetter(req, 'protocol', function protocol(){ return 'http'; });\n\
                    defineGetter(other, 'secret', function secret(){});\n\
                    setProp('ignored', req, 1);\n\
                    function defineGetter(obj, name, getter) {\n  Object.defineProperty(obj, name, {\n    configurable: true,\n    get: getter\n  });\n}\n\
                    function setProp(name, obj, value) { obj[name] = value; }\n";
        let iface = parse(Language::JavaScript, text);
        let outline: Vec<&str> = iface.outline().iter().map(|l| l.text.as_str()).collect();
        assert_eq!(outline, ["module.exports = req", "req.protocol  // getter"]);
        assert_eq!(
            docs(&iface),
            [(
                "req.protocol",
                "Return the protocol string \"http\" or \"https\"."
            )]
        );
    }

    /// A helper named anything, its parameters in any order, defining a value.
    #[test]
    fn the_forwarders_parameters_are_found_by_position() {
        let text = "module.exports = res;\nfunction prop(name, fn, target) { return Object.defineProperty(target, name, { value: fn }); }\n\
                    prop('send', function send(body) {}, res);\n";
        assert_eq!(
            lines(text),
            ["module.exports = res", "res.send = function send(body)"]
        );
    }

    #[test]
    fn define_property_define_properties_and_define_getter_define_members() {
        let text = "var app = exports = module.exports = {};\n\
                    /** The router. */\nObject.defineProperty(app, 'router', { get: function () { return 1; } });\n\
                    Object.defineProperty(exports, 'version', { value: '1.0' });\n\
                    Object.defineProperty(app, 'handle', { value: function handle(req) {} });\n\
                    Object.defineProperties(app.prototype, { a: { get() { return 1; } }, 'b': { value: 2 } });\n\
                    app.__defineGetter__('c', function () {});\n\
                    Object.defineProperty(elsewhere, 'x', { get: f });\n";
        assert_eq!(
            lines(text),
            [
                "module.exports = {  }",
                "app.router  // getter",
                "exports.version",
                "app.handle = function handle(req)",
                "app.prototype.a  // getter",
                "app.prototype.b",
                "app.c  // getter",
            ]
        );
    }
}
