//! C and C++ in the call walk (`source::calls`): the node kinds calls are read from, the nodes
//! that start a member (a function; a method defined in its class or outside it, `Foo::bar`; a
//! test macro's body, `TEST(suite, name) { … }`), a class's bases, and the callee of each call —
//! bare (`f()`; in a method, a method of its class), through an object (`p->f()`, `x.f()`), or
//! through a scope (`Type::f()`, `ns::f()`).

use std::borrow::Cow;

use tree_sitter::Node;

use crate::source::calls::keys::key_callee;
use crate::source::calls::{base_name, is_identifier, At, CallKinds, Callee, Found, Target};
use crate::source::syntax::{code_children, text_of};

use super::extract::{declared, simple_name, test_case};

/// The node kinds C's and C++'s calls are read from.
pub(crate) const CALL_KINDS: CallKinds = CallKinds {
    call: "call_expression",
    creation: None,
    containers: &[
        ("class_specifier", "name"),
        ("struct_specifier", "name"),
        ("union_specifier", "name"),
    ],
    access: ("field_expression", "field"),
    capitalised_builds_value: false,
};

/// Whether `node` starts a member: a function definition, by the name it declares — in the
/// class it is defined in, or the class its qualified name names (`void Foo::bar() { … }`).
pub(crate) fn member<'s>(node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
    if let Some(name) = test_case(node, src) {
        return Some(Found {
            name: Cow::Owned(name),
            container: None,
            aliases: Vec::new(),
            test: true,
        });
    }
    if node.kind() != "function_definition" {
        return None;
    }
    let (name, _) = declared(node.child_by_field_name("declarator")?)?;
    match name.kind() {
        "qualified_identifier" => {
            let scope = name.child_by_field_name("scope")?;
            let (start, end) = last_scope(scope, src);
            Some(Found {
                name: Cow::Owned(simple_name(name, src)),
                container: Some((start, end)),
                aliases: Vec::new(),
                test: false,
            })
        }
        "identifier" | "field_identifier" => Some(Found::plain(text_of(name, src), at.container)),
        _ => Some(Found {
            name: Cow::Owned(simple_name(name, src)),
            container: at.container,
            aliases: Vec::new(),
            test: false,
        }),
    }
}

/// The byte range of the last name of a scope (`Foo` of `ns::Foo`, of `Foo<T>`).
fn last_scope(scope: Node<'_>, src: &str) -> (usize, usize) {
    let mut node = scope;
    for _ in 0..16 {
        match node.kind() {
            "qualified_identifier" => match node.child_by_field_name("name") {
                Some(name) => node = name,
                None => break,
            },
            "template_type" => match node.child_by_field_name("name") {
                Some(name) => node = name,
                None => break,
            },
            _ => break,
        }
    }
    let _ = src;
    (node.start_byte(), node.end_byte())
}

/// A class's bases (`class a : public b, c<T>`), by their final names.
pub(crate) fn class_bases(node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
    let name = text_of(node.child_by_field_name("name")?, src).to_string();
    Some((name, bases(node, src)))
}

/// The bases a class names.
pub(crate) fn bases(node: Node<'_>, src: &str) -> Vec<String> {
    let mut found = Vec::new();
    for clause in code_children(node)
        .into_iter()
        .filter(|c| c.kind() == "base_class_clause")
    {
        for base in code_children(clause) {
            if matches!(
                base.kind(),
                "type_identifier" | "qualified_identifier" | "template_type"
            ) {
                let name = base_name(&text_of(base, src).replace("::", "."));
                if !name.is_empty() && !found.contains(&name) {
                    found.push(name);
                }
            }
        }
    }
    found
}

/// The callee of a call: bare (a method of the class when the call is in one), through `this`
/// or another object, through a scope (`Type::f`, `ns::f`); a template's arguments left out.
pub(crate) fn target(
    call: Node<'_>,
    src: &str,
    container: Option<(usize, usize)>,
) -> Option<Target> {
    let mut function = call.child_by_field_name("function")?;
    if function.kind() == "template_function" {
        function = function.child_by_field_name("name")?;
    }
    let own = |receiver: &str| {
        receiver == "this" || container.is_some_and(|(start, end)| &src[start..end] == receiver)
    };
    let shown = |name: &str, path: Option<&str>| {
        key_callee(name, path).then(|| match path {
            Some(path) => format!("{path}.{name}"),
            None => name.to_string(),
        })
    };
    match function.kind() {
        "identifier" => {
            let name = text_of(function, src);
            let callee = match container {
                Some(_) => Callee::OwnObject(name.to_string()),
                None => Callee::Bare(name.to_string()),
            };
            Some(Target {
                callee,
                shown: shown(name, None),
            })
        }
        "field_expression" => {
            let mut field = function.child_by_field_name("field")?;
            if field.kind() == "template_method" {
                field = field.child_by_field_name("name")?;
            }
            let name = text_of(field, src);
            if !is_identifier(name) {
                return None;
            }
            let receiver = text_of(function.child_by_field_name("argument")?, src);
            if own(receiver) {
                return Some(Target {
                    callee: Callee::OwnObject(name.to_string()),
                    shown: shown(name, None),
                });
            }
            let receiver = is_identifier(receiver).then(|| receiver.to_string());
            Some(Target {
                shown: receiver.as_deref().and_then(|r| shown(name, Some(r))),
                callee: Callee::Receiver {
                    name: name.to_string(),
                    receiver,
                },
            })
        }
        "qualified_identifier" => {
            let name = simple_name(function, src);
            if !is_identifier(&name) {
                return None;
            }
            let scope = function.child_by_field_name("scope")?;
            let (start, end) = last_scope(scope, src);
            let ty = &src[start..end];
            if own(ty) {
                return Some(Target {
                    shown: shown(&name, None),
                    callee: Callee::OwnObject(name),
                });
            }
            if !is_identifier(ty) {
                return None;
            }
            Some(Target {
                shown: shown(&name, Some(ty)),
                callee: Callee::TypePath {
                    ty: ty.to_string(),
                    name,
                },
            })
        }
        _ => None,
    }
}
