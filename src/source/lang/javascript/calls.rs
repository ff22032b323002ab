//! JavaScript, TypeScript and TSX in the call walk (`source::calls`): the node kinds its calls are read from, the nodes that
//! start a member, the bases a class names (`extends`, `implements`).

use tree_sitter::Node;

use crate::source::calls::{At, CallKinds, Found};
use crate::source::syntax::text_of;

/// The node kinds JavaScript's calls are read from.
pub(crate) const CALL_KINDS: CallKinds = CallKinds {
    call: "call_expression",
    creation: None,
    containers: &[
        ("class_declaration", "name"),
        ("class", "name"),
        ("abstract_class_declaration", "name"),
    ],
    access: ("member_expression", "property"),
    capitalised_builds_value: false,
};

/// The bases a class names (`extends`, `implements`).
pub(crate) fn class_bases(node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
    let class = text_of(node.child_by_field_name("name")?, src).to_string();
    Some((class, crate::source::definitions::heritage(node, src)))
}

/// Whether a JavaScript, TypeScript or TSX `node` starts a member: a function or method, a
/// function assigned to a variable, field, key or CommonJS export, or a test case's callback.
pub(crate) fn javascript_member<'s>(node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
    let name_of = |field: &str| node.child_by_field_name(field).map(|n| text_of(n, src));
    let plain = |name: &'s str, container| {
        Some(Found {
            name: name.into(),
            container,
            aliases: Vec::new(),
            test: false,
        })
    };
    // A top-level call defining a property with a function (`defineGetter(req, 'query',
    // function query(){…})`): the member `req.query` (as the definitions walk names it).
    if node.kind() == "call_expression" {
        if let Some(found) = property_member(node, src) {
            return Some(found);
        }
    }
    match node.kind() {
        "function_declaration" | "generator_function_declaration" => plain(name_of("name")?, None),
        "method_definition" => plain(name_of("name")?, at.container),
        "variable_declarator" | "public_field_definition" | "field_definition" => {
            let aliases = assigned_function(node.child_by_field_name("value")?, src)?;
            let name = node
                .child_by_field_name("name")
                .or_else(|| node.child_by_field_name("property"))?;
            Some(Found {
                name: text_of(name, src).into(),
                container: at.container,
                aliases,
                test: false,
            })
        }
        "pair" => {
            is_function(node.child_by_field_name("value")?).then_some(())?;
            plain(name_of("key")?, None)
        }
        "assignment_expression" => {
            let aliases = assigned_function(node.child_by_field_name("right")?, src)?;
            let (name, container) = commonjs_target(node.child_by_field_name("left")?, src)?;
            Some(Found {
                name: name.into(),
                container,
                aliases,
                test: false,
            })
        }
        // A test case: its callback is a member named for its title (`should_send_json`).
        "call_expression" if crate::source::suites::is_case_call(node, src) => {
            let arguments = node.child_by_field_name("arguments")?;
            let mut cursor = arguments.walk();
            let title = arguments.named_children(&mut cursor).next()?;
            let name = case_label(text_of(title, src));
            (!name.is_empty()).then_some(Found {
                name: name.into(),
                container: None,
                aliases: Vec::new(),
                test: true,
            })
        }
        _ => None,
    }
}

/// The member a top-level call defines as a property with a function.
fn property_member<'s>(call: Node<'_>, src: &'s str) -> Option<Found<'s>> {
    is_top_call(call).then_some(())?;
    let (object, key, _) = super::commonjs::property_function(call, src)?;
    (object.kind() == "identifier").then_some(())?;
    Some(Found {
        name: key.into(),
        container: Some((object.start_byte(), object.end_byte())),
        aliases: Vec::new(),
        test: false,
    })
}

/// Whether `call` is a statement of the program's top level.
fn is_top_call(call: Node<'_>) -> bool {
    call.parent()
        .filter(|statement| statement.kind() == "expression_statement")
        .and_then(|statement| statement.parent())
        .is_some_and(|program| program.kind() == "program")
}

/// A test case's title as a member's label: its words joined by `_`, at most 60 characters
/// (`should send a json response` → `should_send_a_json_response`).
fn case_label(title: &str) -> String {
    let mut label = String::new();
    for word in title
        .trim_matches(['\'', '"', '`'])
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|w| !w.is_empty())
    {
        if label.len() + word.len() + 1 > 60 {
            break;
        }
        if !label.is_empty() {
            label.push('_');
        }
        label.push_str(word);
    }
    label
}

/// Whether `value` is a function, possibly through a chain of assignments (`res.header = function
/// header(…)` in `res.set = res.header = function header(…)`): then the labels of the chain's
/// properties (`res.header`).
fn assigned_function(value: Node<'_>, src: &str) -> Option<Vec<String>> {
    let mut aliases = Vec::new();
    let mut value = value;
    while value.kind() == "assignment_expression" {
        if let Some((name, container)) = value
            .child_by_field_name("left")
            .and_then(|left| commonjs_target(left, src))
        {
            aliases.push(match container {
                Some((start, end)) => format!("{}.{name}", &src[start..end]),
                None => name.to_string(),
            });
        }
        value = value.child_by_field_name("right")?;
    }
    is_function(value).then_some(aliases)
}

/// The property and container of an assignment's left side `object.property` — or, for a
/// computed name (`app[method]`), the whole left side as the member's name, without a container.
fn commonjs_target<'s>(left: Node<'_>, src: &'s str) -> Option<(&'s str, Option<(usize, usize)>)> {
    if left.kind() == "subscript_expression" {
        let object = left.child_by_field_name("object")?;
        let text = text_of(left, src);
        let named = object.kind() == "identifier"
            && !matches!(text_of(object, src), "exports" | "module" | "this")
            && !text.contains(char::is_whitespace)
            && left
                .child_by_field_name("index")
                .is_some_and(|i| i.kind() == "identifier");
        return named.then_some((text, None));
    }
    (left.kind() == "member_expression").then_some(())?;
    let name = text_of(left.child_by_field_name("property")?, src);
    let object = left.child_by_field_name("object")?;
    Some((name, commonjs_object(object, src)))
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
