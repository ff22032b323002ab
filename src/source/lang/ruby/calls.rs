//! Ruby in the call walk (`source::calls`): calls are `call` nodes — a method with or without a
//! receiver (`helper(x)`, `self.go`, `Utils.escape(s)`, `Rack::Utils.escape(s)`) — members are
//! `def`s (`def self.x` too) in the class or module they sit in, and a class's base is its
//! superclass. A bare word with no argument (`helper`, an `identifier` to tree-sitter) is a call
//! unless a local of its name was bound before it in its scope (`super::locals`: Ruby's own rule).
//! A method's `?`/`!` (`empty?`, `save!`) is part of its name everywhere.

use tree_sitter::Node;

use crate::source::calls::keys::key_callee;
use crate::source::calls::{base_name, plain_path, At, CallKinds, Callee, Found, Target};
use crate::source::syntax::text_of;

/// The node kinds Ruby's calls are read from.
pub(crate) const CALL_KINDS: CallKinds = CallKinds {
    call: "call",
    creation: None,
    containers: &[("class", "name"), ("module", "name")],
    access: ("call", "method"),
    capitalised_builds_value: false,
};

/// Whether `node` starts a member: a method (a minitest test when named `test_*`) in the class
/// or module it sits in.
pub(crate) fn member<'s>(node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
    match node.kind() {
        // A case of RSpec or minitest/spec (`it "squares a length" do`): its block is a member
        // named for its title (`squares_a_length`), in the class it sits in.
        "call" if crate::source::suites::is_case_call(node, src) => {
            let title = node
                .child_by_field_name("arguments")
                .and_then(|args| crate::source::raises::first_named(args))?;
            let name = crate::source::suites::title_slug(text_of(title, src));
            let name: String = name.chars().take(60).collect();
            (!name.is_empty()).then_some(Found {
                name: name.into(),
                container: at.container,
                aliases: Vec::new(),
                test: true,
            })
        }
        "method" | "singleton_method" => {
            let name = text_of(node.child_by_field_name("name")?, src);
            Some(Found {
                test: name.starts_with("test_"),
                ..Found::plain(name, at.container)
            })
        }
        _ => None,
    }
}

/// A class's superclass (`(Request, [BaseRequest])`), by its last segment.
pub(crate) fn class_bases(node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
    let name = text_of(node.child_by_field_name("name")?, src);
    let name = super::extract::simple_name(name).to_string();
    let bases = node
        .child_by_field_name("superclass")
        .and_then(|s| crate::source::raises::first_named(s))
        .map(|base| base_name(text_of(base, src)))
        .filter(|base| !base.is_empty())
        .into_iter()
        .collect();
    Some((name, bases))
}

/// Kernel and Module methods that read as keywords (`raise`, `require`, `private`, `attr_reader`,
/// `include`): no call of the file's or another's code.
const NOT_CALLS: &[&str] = &[
    "raise",
    "fail",
    "require",
    "require_relative",
    "autoload",
    "load",
    "private",
    "protected",
    "public",
    "module_function",
    "private_class_method",
    "private_constant",
    "attr_reader",
    "attr_writer",
    "attr_accessor",
    "include",
    "extend",
    "prepend",
];

/// Kernel words read bare that call no code of the project's (`block_given?`, `binding`).
const NOT_BARE_CALLS: &[&str] = &["block_given?", "binding", "__method__", "__dir__", "caller"];

/// A method name the cache can hold: an identifier with Ruby's `?` or `!` kept (`empty?`, `save!`:
/// a method of its own, never the same as `empty`).
fn callable(name: &str) -> Option<&str> {
    let stem = name.strip_suffix(['?', '!']).unwrap_or(name);
    crate::source::calls::is_identifier(stem).then_some(name)
}

/// The callee of a bare word that is a method call (`route_missing`: the call walk asks only of
/// the words [`super::locals::method_call_words`] finds; `empty?` is a `call` node, never a
/// local): the own object's method inside a class, else a free one.
fn bare_word(word: Node<'_>, src: &str, container: Option<(usize, usize)>) -> Option<Target> {
    let name = callable(text_of(word, src))?;
    if NOT_CALLS.contains(&name) || NOT_BARE_CALLS.contains(&name) {
        return None;
    }
    Some(Target {
        callee: match container {
            Some(_) => Callee::OwnObject(name.to_string()),
            None => Callee::Bare(name.to_string()),
        },
        shown: None,
    })
}

/// The callee of a Ruby call (or of a bare word: [`bare_word`]): bare (inside a class, the own
/// object's method), through `self`/`super` or the class's own name (the own object), through a
/// constant path (a class method: `Utils.escape` → `Utils.escape`), through another receiver.
pub(crate) fn ruby_target(
    call: Node<'_>,
    src: &str,
    container: Option<(usize, usize)>,
) -> Option<Target> {
    if call.kind() == "identifier" {
        return bare_word(call, src, container);
    }
    let method = call.child_by_field_name("method")?;
    let name = callable(text_of(method, src))?;
    let receiver = call.child_by_field_name("receiver");
    if receiver.is_none() && NOT_CALLS.contains(&name) {
        return None;
    }
    let own = |receiver: &str| {
        receiver == "self"
            || container.is_some_and(|(start, end)| {
                super::extract::simple_name(&src[start..end]) == receiver
            })
    };
    let shown = |path: Option<&str>| {
        key_callee(name, path).then(|| match path {
            Some(path) => format!("{path}.{name}"),
            None => name.to_string(),
        })
    };
    Some(match receiver.map(|r| (r, text_of(r, src))) {
        None => Target {
            callee: match container {
                Some(_) => Callee::OwnObject(name.to_string()),
                None => Callee::Bare(name.to_string()),
            },
            shown: shown(None),
        },
        Some((_, text)) if own(text) => Target {
            callee: Callee::OwnObject(name.to_string()),
            shown: shown(None),
        },
        Some((node, text)) if matches!(node.kind(), "constant" | "scope_resolution") => {
            let ty = super::extract::simple_name(text);
            Target {
                callee: Callee::TypePath {
                    ty: ty.to_string(),
                    name: name.to_string(),
                },
                shown: shown(Some(ty)),
            }
        }
        // `Reader.new.read`: a method of the object the class builds.
        Some((node, _)) if built_type(node, src).is_some() => Target {
            callee: Callee::TypedReceiver {
                name: name.to_string(),
                ty: built_type(node, src).unwrap_or_default().to_string(),
            },
            shown: None,
        },
        Some((_, text)) => {
            let path = plain_path(text.strip_prefix('@').unwrap_or(text));
            let last = path.and_then(|p| p.rsplit('.').next());
            Target {
                callee: Callee::Receiver {
                    name: name.to_string(),
                    receiver: last.map(str::to_string),
                },
                shown: path.and_then(|p| shown(Some(p))),
            }
        }
    })
}

/// The class a `Class.new(…)` expression builds (`Reader` of `Shapes::Reader.new`).
fn built_type<'s>(node: Node<'_>, src: &'s str) -> Option<&'s str> {
    if node.kind() != "call" {
        return None;
    }
    let method = text_of(node.child_by_field_name("method")?, src);
    let receiver = node.child_by_field_name("receiver")?;
    (method == "new" && matches!(receiver.kind(), "constant" | "scope_resolution"))
        .then(|| super::extract::simple_name(text_of(receiver, src)))
}
