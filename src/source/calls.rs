//! Which names each member of a file calls: the raw material of `lexi lookup`'s `## Calls` (member
//! → member within a file) and `## Called from` (a dependent's members calling this file's public
//! names).
//!
//! A *member* is a function or method defined in the file: Rust `fn` items (in modules, `impl` and
//! `trait` blocks), JS/TS function declarations, class and object-literal methods, functions bound
//! to a name (`const f = () => …`, `res.send = function …` — CommonJS members, `pair: function`),
//! Python `def`s (in classes too). A function nested in a member is part of it. Each call inside a
//! member is recorded by the callee's final identifier (`self.make_response(rv)` → `make_response`,
//! `a::b::c()` → `c`) and how it was reached:
//! - **own**: a bare name, `this`/`self`/`cls`/`Self`, or the member's own container (its class, its
//!   `impl` type, the CommonJS object it is assigned to such as `res`) — a call that may land in
//!   this file;
//! - **typed** (Rust `Type::name()` on an uppercase path): `Type.name`;
//! - **other**: through any other receiver (`current_app.make_response(…)`) — written `.name`.
//!
//! One [`MemberCalls`] per member (same-named members of one container merged), encoded for the
//! update cache as one compact item: `member callee .callee Type.callee`.

use tree_sitter::Node;

use super::syntax::{text_of, walk};
use super::Language;

/// The calls of one member.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberCalls {
    /// `name`, or `Container.name` for a method (`App.finalize_request`, `res.send`).
    pub member: String,
    /// Callees in first-call order, deduplicated: `name` (own), `.name` (other receiver),
    /// `Type.name` (Rust type path).
    pub callees: Vec<String>,
}

impl MemberCalls {
    /// The member's bare name (`finalize_request` of `App.finalize_request`).
    pub fn name(&self) -> &str {
        bare(&self.member)
    }

    /// The cache's item: the member, then its callees, separated by spaces.
    pub fn encode(&self) -> String {
        let mut out = self.member.clone();
        for callee in &self.callees {
            out.push(' ');
            out.push_str(callee);
        }
        out
    }

    /// Undo [`MemberCalls::encode`]; `None` for an empty item.
    pub fn decode(item: &str) -> Option<MemberCalls> {
        let mut words = item.split(' ').filter(|w| !w.is_empty());
        let member = words.next()?.to_string();
        Some(MemberCalls {
            member,
            callees: words.map(str::to_string).collect(),
        })
    }
}

/// How a callee was reached, from its encoded form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach<'a> {
    /// A bare name or one through the member's own object.
    Own(&'a str),
    /// Through another receiver.
    Other(&'a str),
    /// Rust `Type::name`: (type, name).
    Typed(&'a str, &'a str),
}

impl<'a> Reach<'a> {
    /// Classify an encoded callee.
    pub fn of(callee: &'a str) -> Reach<'a> {
        if let Some(name) = callee.strip_prefix('.') {
            return Reach::Other(name);
        }
        match callee.split_once('.') {
            Some((ty, name)) => Reach::Typed(ty, name),
            None => Reach::Own(callee),
        }
    }

    /// The callee's final identifier.
    pub fn name(self) -> &'a str {
        match self {
            Reach::Own(name) | Reach::Other(name) | Reach::Typed(_, name) => name,
        }
    }
}

/// The part after the last `.` (a member's bare name).
pub fn bare(member: &str) -> &str {
    member.rsplit('.').next().unwrap_or(member)
}

/// Receivers that mean "this object" in every supported language.
const SELF_RECEIVERS: [&str; 5] = ["this", "self", "cls", "Self", "super"];

/// The node kinds that matter in one language.
struct Kinds {
    /// Calls: (call kind, field naming the callee).
    call: &'static str,
    /// Containers whose name qualifies the members inside: (kind, field holding the name).
    containers: &'static [(&'static str, &'static str)],
}

fn kinds(language: Language) -> Kinds {
    match language {
        Language::Rust => Kinds {
            call: "call_expression",
            containers: &[("impl_item", "type"), ("trait_item", "name")],
        },
        Language::Python => Kinds {
            call: "call",
            containers: &[("class_definition", "name")],
        },
        Language::JavaScript | Language::TypeScript | Language::Tsx => Kinds {
            call: "call_expression",
            containers: &[
                ("class_declaration", "name"),
                ("class", "name"),
                ("abstract_class_declaration", "name"),
            ],
        },
    }
}

/// Where the walk is: inside which container (its name's byte range) and which member (its index).
#[derive(Clone, Copy, Default)]
struct At {
    container: Option<(usize, usize)>,
    member: Option<usize>,
}

/// The calls of every member of a parsed file, in source order.
pub(super) fn extract(language: Language, root: Node<'_>, src: &str) -> Vec<MemberCalls> {
    let kinds = kinds(language);
    let mut members: Vec<MemberCalls> = Vec::new();
    let mut containers: Vec<Option<(usize, usize)>> = Vec::new();
    walk(root, At::default(), |node, at| {
        let kind = node.kind();
        if let Some(index) = at.member {
            if kind == kinds.call {
                if let Some(callee) = callee(node, src, containers[index]) {
                    let calls = &mut members[index].callees;
                    if !calls.contains(&callee) {
                        calls.push(callee);
                    }
                }
            }
            return Some(at);
        }
        if let Some((_, field)) = kinds.containers.iter().find(|(k, _)| *k == kind) {
            let name = node.child_by_field_name(field).map(final_name);
            return Some(At {
                container: name.or(at.container),
                member: None,
            });
        }
        if let Some((name, container)) = member(language, node, src, at) {
            let label = match container {
                Some((start, end)) => format!("{}.{name}", &src[start..end]),
                None => name.to_string(),
            };
            let index = match members.iter().position(|m| m.member == label) {
                Some(index) => index,
                None => {
                    members.push(MemberCalls {
                        member: label,
                        callees: Vec::new(),
                    });
                    containers.push(container);
                    members.len() - 1
                }
            };
            return Some(At {
                container,
                member: Some(index),
            });
        }
        Some(at)
    });
    members.retain(|m| !m.member.is_empty() && !m.member.contains(char::is_whitespace));
    members
}

/// The byte range of a name node's last identifier (`Foo` of `a::Foo<T>`, `App` of `App`).
fn final_name(node: Node<'_>) -> (usize, usize) {
    let mut node = node;
    loop {
        let next = match node.kind() {
            "generic_type" | "generic_type_with_turbofish" => node.child_by_field_name("type"),
            "scoped_type_identifier" | "scoped_identifier" => node.child_by_field_name("name"),
            "reference_type" => node.child_by_field_name("type"),
            _ => None,
        };
        match next {
            Some(next) => node = next,
            None => break,
        }
    }
    (node.start_byte(), node.end_byte())
}

/// Whether `node` starts a member: its name and container.
fn member<'s>(
    language: Language,
    node: Node<'_>,
    src: &'s str,
    at: At,
) -> Option<(&'s str, Option<(usize, usize)>)> {
    let name_of = |field: &str| node.child_by_field_name(field).map(|n| text_of(n, src));
    match (language, node.kind()) {
        (Language::Rust, "function_item") => Some((name_of("name")?, at.container)),
        (Language::Python, "function_definition") => Some((name_of("name")?, at.container)),
        (Language::Rust | Language::Python, _) => None,
        (_, "function_declaration" | "generator_function_declaration") => {
            Some((name_of("name")?, None))
        }
        (_, "method_definition") => Some((name_of("name")?, at.container)),
        (_, "variable_declarator" | "public_field_definition" | "field_definition") => {
            let value = node.child_by_field_name("value")?;
            is_function(value).then_some(())?;
            let name = node
                .child_by_field_name("name")
                .or_else(|| node.child_by_field_name("property"))?;
            Some((text_of(name, src), at.container))
        }
        (_, "pair") => {
            is_function(node.child_by_field_name("value")?).then_some(())?;
            Some((name_of("key")?, None))
        }
        (_, "assignment_expression") => {
            is_function(node.child_by_field_name("right")?).then_some(())?;
            let left = node.child_by_field_name("left")?;
            (left.kind() == "member_expression").then_some(())?;
            let name = text_of(left.child_by_field_name("property")?, src);
            let object = left.child_by_field_name("object")?;
            Some((name, commonjs_object(object, src)))
        }
        _ => None,
    }
}

/// The object a CommonJS member is assigned to, as its container: `res` of `res.send`, `app` of
/// `app.prototype.x` (never `module.exports`/`exports`/`prototype`: no receiver is written so).
fn commonjs_object(object: Node<'_>, src: &str) -> Option<(usize, usize)> {
    let mut node = object;
    loop {
        match node.kind() {
            "identifier" => {
                let name = text_of(node, src);
                return (!matches!(name, "exports" | "module"))
                    .then(|| (node.start_byte(), node.end_byte()));
            }
            "member_expression" => {
                let property = node
                    .child_by_field_name("property")
                    .map(|p| text_of(p, src));
                if property == Some("exports") {
                    return None;
                }
                node = node.child_by_field_name("object")?;
            }
            _ => return None,
        }
    }
}

fn is_function(node: Node<'_>) -> bool {
    matches!(
        node.kind(),
        "function_expression" | "function" | "arrow_function" | "generator_function"
    )
}

/// The encoded callee of a call node, or `None` when it names nothing (`f()()`, `(a || b)()`).
fn callee(call: Node<'_>, src: &str, container: Option<(usize, usize)>) -> Option<String> {
    let mut function = call.child_by_field_name("function")?;
    if function.kind() == "generic_function" {
        function = function.child_by_field_name("function")?;
    }
    let own = |receiver: &str| {
        SELF_RECEIVERS.contains(&receiver)
            || container.is_some_and(|(start, end)| &src[start..end] == receiver)
    };
    let (receiver, name) = match function.kind() {
        "identifier" => (None, text_of(function, src)),
        // Rust `a.b()`, JS `a.b()`, Python `a.b()`.
        "field_expression" | "member_expression" | "attribute" => {
            let name_field = match function.kind() {
                "field_expression" => "field",
                "member_expression" => "property",
                _ => "attribute",
            };
            let name = text_of(function.child_by_field_name(name_field)?, src);
            let object = function
                .child_by_field_name("value")
                .or_else(|| function.child_by_field_name("object"))?;
            (Some(text_of(object, src)), name)
        }
        "scoped_identifier" => {
            let name = text_of(function.child_by_field_name("name")?, src);
            let last = function.child_by_field_name("path").map(|path| {
                let (start, end) = final_name(path);
                &src[start..end]
            });
            match last {
                Some(ty) if own(ty) => (None, name),
                Some(ty) if ty.starts_with(char::is_uppercase) && is_identifier(ty) => {
                    return Some(format!("{ty}.{name}"));
                }
                _ => return Some(format!(".{name}")),
            }
        }
        _ => return None,
    };
    if !is_identifier(name) {
        return None;
    }
    Some(match receiver {
        Some(receiver) if !own(receiver) => format!(".{name}"),
        _ => name.to_string(),
    })
}

fn is_identifier(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::extract;

    /// `member callee …` lines of a text.
    fn calls(language: Language, text: &str) -> Vec<String> {
        match extract(language, text) {
            Ok(interface) => interface.calls.iter().map(MemberCalls::encode).collect(),
            Err(err) => panic!("{language:?}: {err}"),
        }
    }

    #[test]
    fn rust_functions_and_impl_methods() {
        let text = "pub fn run(x: u8) { let p = Parser::new(); p.parse(); helper(x); a::b::c(); }\n\
                    fn helper(_: u8) { Vec::<u8>::new(); }\n\
                    impl<T> Parser<T> {\n    pub fn new() -> Self { Self::empty() }\n    fn empty() -> Self { Parser::<T>::new(); self.go() }\n}\n\
                    trait Walk { fn walk(&self) { self.step(); } }\n";
        assert_eq!(
            calls(Language::Rust, text),
            [
                "run Parser.new .parse helper .c",
                "helper Vec.new",
                "Parser.new empty",
                "Parser.empty new go",
                "Walk.walk step",
            ]
        );
    }

    #[test]
    fn commonjs_members_through_this_and_the_module_object() {
        let text = "var res = Object.create(http.ServerResponse.prototype);\n\
                    module.exports = res;\n\
                    res.send = function send(body) {\n  if (typeof body === 'object') return this.json(body);\n  res.set('X', 1);\n  setCharset(body);\n  body.toString();\n};\n\
                    res.json = function json(obj) { var body = stringify(obj); return this.send(body); };\n\
                    exports.helper = (x) => helper2(x);\n\
                    function setCharset(t) { return t.replace(/x/, ''); }\n";
        assert_eq!(
            calls(Language::JavaScript, text),
            [
                "res.send json set setCharset .toString",
                "res.json stringify send",
                "helper helper2",
                "setCharset .replace",
            ]
        );
    }

    #[test]
    fn typescript_class_methods_and_bound_functions() {
        let text = "export class Router {\n  handle(req: Req): void { this.match(req); super.init(); }\n  private match(req: Req) { return lookup(req.path); }\n  onError = (e: Error) => { this.handle(e as any); };\n}\n\
                    export const route = (r: Router) => r.handle({} as Req);\n\
                    export default { start() { route(new Router()); } };\n";
        assert_eq!(
            calls(Language::TypeScript, text),
            [
                "Router.handle match init",
                "Router.match lookup",
                "Router.onError handle",
                "route .handle",
                "start route",
            ]
        );
    }

    #[test]
    fn python_methods_through_self_and_other_objects() {
        let text = "class App:\n    def finalize_request(self, rv):\n        response = self.make_response(rv)\n        response = self.process_response(response)\n        def inner():\n            log(rv)\n        return response\n\n    @classmethod\n    def build(cls):\n        return cls.make_response(1)\n\n\
                    def make_response(*args):\n    return current_app.make_response(args)\n";
        assert_eq!(
            calls(Language::Python, text),
            [
                "App.finalize_request make_response process_response log",
                "App.build make_response",
                "make_response .make_response",
            ]
        );
    }

    #[test]
    fn encoding_round_trips_and_classifies() {
        let member = MemberCalls {
            member: "App.run".into(),
            callees: vec!["go".into(), ".send".into(), "Vec.new".into()],
        };
        assert_eq!(MemberCalls::decode(&member.encode()), Some(member.clone()));
        assert_eq!(member.name(), "run");
        let reaches: Vec<Reach<'_>> = member.callees.iter().map(|c| Reach::of(c)).collect();
        assert_eq!(
            reaches,
            [
                Reach::Own("go"),
                Reach::Other("send"),
                Reach::Typed("Vec", "new")
            ]
        );
        assert_eq!(MemberCalls::decode(""), None);
    }
}
