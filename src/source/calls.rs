//! Which names each member of a file calls: the raw material of `lexi lookup`'s `## Calls` (member
//! → member within a file) and `## Called from` (a dependent's members calling this file's public
//! names).
//!
//! A *member* is a function or method defined in the file: Rust `fn` items (in modules, `impl` and
//! `trait` blocks), JS/TS function declarations, class and object-literal methods, functions bound
//! to a name (`const f = () => …`, `res.send = function …` — CommonJS members, `pair: function`),
//! Python `def`s (in classes too). A function nested in a member is part of it. Each call inside a
//! member is recorded as a [`Callee`]: the callee's final identifier (`self.make_response(rv)` →
//! `make_response`, `a::b::c()` → `c`) and how it was reached (`calls/callee.rs` lists the
//! variants and their cache words):
//! - **own**: a bare name ([`Callee::Bare`]), or one through `this`/`self`/`cls`/`Self` or the
//!   member's own container (its class, its `impl` type, the CommonJS object it is assigned to
//!   such as `res`, a Go method's receiver: [`Callee::OwnObject`]) — a call that may land in this
//!   file. The two are told apart: a bare call reaches a free function (never a method: express's
//!   `send(req, path)` in `res.sendFile` calls the `send` package, not `res.send`), a call through
//!   the member's own object reaches a method; either reaches the member itself when it recurses;
//! - **type path** (Rust `Type::name()` on an uppercase path, Java `Type.name()` and `new Type()`):
//!   [`Callee::TypePath`];
//! - **other receiver** (`current_app.make_response(…)`): [`Callee::Receiver`] with the
//!   receiver's final identifier when it is a plain path, or [`Callee::TypedReceiver`] when a
//!   declaration states the receiver's type (`calls/typed.rs`);
//! - **Go package** (`errors.New(…)` with `errors` imported): [`Callee::Package`].
//!
//! A CommonJS member assigned in a chain (`res.set = res.header = function header(…)`) is known by
//! every property of the chain (`res.set`, alias `res.header`), never by the function's own name.
//! A Rust call of a capitalised name (`Some(x)`, `Match::Ignore(x)`) builds a tuple struct or an
//! enum variant: no call. A call whose first argument is a short string literal (a setting, a
//! header, an environment variable, an event: `this.app.get('json spaces')`, `os.environ.get('X')`,
//! `env::var("X")`) is also kept as a [`KeyCall`] — when it goes through another receiver or to a
//! member of the file. Each file also records the capitalised names it mentions ([`encode_types`]),
//! so that `workspace::calls` can tell whose method a call through an object may reach.
//!
//! A member assigned under a computed name inside a callback (express's `methods.forEach(function
//! (method) { app[method] = function … })`) is the member `app[method]`, so its calls are kept.
//!
//! One [`MemberCalls`] per member (same-named members of one container merged), encoded for the
//! update cache (calls/items.rs) as one compact item: `member=alias callee ^callee .callee@recv
//! Type.callee ~recv.get~key` (`!member` for a test function; each callee the word its `Display`
//! writes and its `FromStr` reads — the only place a callee is text). Beside them, a file's items
//! name the classes' bases (`%Flask App`, Rust `impl Trait for Type` as `%Type Trait`:
//! [`encode_bases`]) and the types it mentions (`#Sender Tx`).

pub mod callee;
pub mod items;
pub(crate) mod keys;
pub(crate) mod typed;

pub use self::callee::Callee;
pub use self::items::{
    bare, decode_bases, decode_reexports, decode_returns, decode_types, encode_bases,
    encode_reexports, encode_returns, encode_std_modules, encode_types, std_modules_of, KeyCall,
    MemberCalls,
};

use std::collections::HashSet;

use tree_sitter::Node;

use self::keys::{key_callee, literal_argument};
use super::raises::RaiseSyntax;
use super::syntax::{text_of, walk};
use super::syntax::{MacroBody, MAX_MACRO_DEPTH};

/// Receivers that mean "this object" in every supported language.
pub(crate) const SELF_RECEIVERS: [&str; 5] = ["this", "self", "cls", "Self", "super"];

/// The node kinds a language's calls are read from ([`Walks::call_kinds`]).
pub(crate) struct CallKinds {
    /// Calls: the node kind (its `function` field names the callee, unless the language reads its
    /// own targets: [`Walks::call_target`]).
    pub call: &'static str,
    /// Object creations counted as calls (Java's `new X(…)`).
    pub creation: Option<&'static str>,
    /// Containers whose name qualifies the members inside: (kind, field holding the name).
    pub containers: &'static [(&'static str, &'static str)],
    /// A call through a receiver, `a.b()`: the node kind of the callee and the field naming `b`.
    pub access: (&'static str, &'static str),
    /// Whether a capitalised callee builds a value rather than calling (Rust's tuple structs and
    /// enum variants: `Some(x)`, `Match::Ignore(x)`).
    pub capitalised_builds_value: bool,
}

/// How one language's calls are read (its [`crate::source::lang::walks::Walks`]).
pub(crate) trait CallSyntax: RaiseSyntax + typed::TypedSyntax {
    /// The node kinds its calls are read from.
    fn call_kinds(&self) -> &'static CallKinds;

    /// Whether `node` starts a member (a function, a method): its name, container and aliases.
    fn member<'s>(&self, node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>>;

    /// The bases a container node (a class, an `impl Trait for Type`, a trait) names.
    fn class_bases(&self, node: Node<'_>, src: &str) -> Option<(String, Vec<String>)>;

    /// The callee of a call node, `None` when it names nothing; `container` is the byte range of
    /// the name of the container the call sits in.
    fn call_target(
        &self,
        call: Node<'_>,
        src: &str,
        container: Option<(usize, usize)>,
    ) -> Option<Target>;

    /// The methods a statement calls through a protocol, each with the object it calls it on
    /// (Python's `with x:` calls `x.__enter__()` and `x.__exit__(…)`); called on every node inside
    /// a member, recorded only when the object's type is told.
    fn protocol_calls<'t>(&self, _node: Node<'t>) -> Vec<(Node<'t>, &'static str)> {
        Vec::new()
    }

    /// Node kinds read as calls besides [`CallKinds::call`] and its creation, for a grammar with
    /// several (PHP's method, static and function calls); none by default.
    fn other_calls(&self) -> &'static [&'static str] {
        &[]
    }

    /// For a grammar whose bare words may be calls (Ruby's `route_missing`), the start bytes of
    /// the words of a parsed file that are calls by the language's scope rules, read once per
    /// file; `None` for any other grammar.
    fn bare_word_calls(&self, _root: Node<'_>, _src: &str) -> Option<HashSet<usize>> {
        None
    }

    /// Whether `node` is a bare word [`Self::bare_word_calls`] decides about.
    fn is_bare_word(&self, _node: Node<'_>) -> bool {
        false
    }

    /// The name the member around `call` gives its own object, when the language names it (a Go
    /// method's receiver, `c` of `func (c *Context) Next()`).
    fn own_receiver<'s>(&self, _call: Node<'_>, _src: &'s str) -> Option<&'s str> {
        None
    }

    /// The code a macro call stands for, to be read as if expanded (Rust: a local
    /// `macro_rules!` transcribed, a pass-through macro's items, or inside a member the
    /// expression its tokens form); empty for any other node.
    fn macro_calls(&self, _node: Node<'_>, _src: &str, _in_member: bool) -> Vec<MacroBody> {
        Vec::new()
    }

    /// Whether `node` marks the function after it as a test (Rust's `#[test]`).
    fn test_marker(&self, _node: Node<'_>, _src: &str) -> bool {
        false
    }

    /// Whether `between` (the text from a test marker to a function) holds only more markers.
    fn only_markers(&self, _between: &str) -> bool {
        false
    }

    /// The names a file's imported packages are used under in calls (Go: `errors` of
    /// `errors.New(…)`); empty where a call never goes through a package.
    fn imported_packages(&self, _root: Node<'_>, _src: &str) -> Vec<String> {
        Vec::new()
    }

    /// The qualifier of a call that may name a package (Go's `pkg.Func()`), to be checked against
    /// [`Self::imported_packages`].
    fn package_qualifier<'s>(&self, _call: Node<'_>, _src: &'s str) -> Option<&'s str> {
        None
    }
}

/// A base as named in a class or `impl` header, reduced to its final identifier: `Shape` of
/// `shapes::Shape<T>`, `App` of `sansio.app.App`.
pub(crate) fn base_name(text: &str) -> String {
    let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let text = text.split(['<', '[', '(']).next().unwrap_or("").to_string();
    text.rsplit(['.', ':']).next().unwrap_or("").to_string()
}

/// Where the walk is: inside which container (its name's byte range) and which member (its index).
#[derive(Clone, Copy, Default)]
pub(crate) struct At {
    pub container: Option<(usize, usize)>,
    pub member: Option<usize>,
}

/// A member found by [`member`]: its name, container and the other labels it is assigned to.
pub(crate) struct Found<'s> {
    pub name: std::borrow::Cow<'s, str>,
    pub container: Option<(usize, usize)>,
    pub aliases: Vec<String>,
    /// A test case (`it('…', function () { … })`, a Go `TestXxx`, a Java `@Test`).
    pub test: bool,
}

impl<'s> Found<'s> {
    /// A member named `name` in `container`, no test and no other label.
    pub fn plain(name: &'s str, container: Option<(usize, usize)>) -> Found<'s> {
        Found {
            name: name.into(),
            container,
            aliases: Vec::new(),
            test: false,
        }
    }
}

/// What [`extract`] finds in a file.
pub(super) struct Extracted {
    /// The calls of every member, in source order.
    pub members: Vec<MemberCalls>,
    /// The capitalised names (types, classes) the file mentions, sorted; `["*"]` past
    /// [`MAX_TYPES`].
    pub types: Vec<String>,
    /// Each class's (or Rust type's, or trait's) bases, in source order: `(Flask, [App])`.
    pub bases: Vec<(String, Vec<String>)>,
    /// The type each method of a type returns, where it is written (`(SearcherBuilder.build,
    /// Searcher)`): what the graph types a chain of calls with (`typed::CHAIN`).
    pub returns: Vec<(String, String)>,
}

/// Type names recorded per file at most; past it the file counts as naming every type (`*`).
pub const MAX_TYPES: usize = 300;

/// The calls of every member of a parsed file, in source order, and the type names it mentions.
/// `also` sees every node of the walk too: a caller that needs one more look at each node shares
/// this walk instead of making its own (a walk of the whole tree is the cost of extraction).
pub(super) fn extract<'t>(
    syntax: &dyn CallSyntax,
    root: Node<'t>,
    src: &str,
    also: &mut dyn FnMut(Node<'t>),
) -> Extracted {
    extract_nested(syntax, root, src, also, 0)
}

/// [`extract`] of a tree `macros` Rust macro bodies deep.
fn extract_nested<'t>(
    syntax: &dyn CallSyntax,
    root: Node<'t>,
    src: &str,
    also: &mut dyn FnMut(Node<'t>),
    macros: usize,
) -> Extracted {
    let kinds = syntax.call_kinds();
    let mut members: Vec<MemberCalls> = Vec::new();
    let mut containers: Vec<Option<(usize, usize)>> = Vec::new();
    // Per member, the local names whose type a declaration states (`calls/typed.rs`).
    let mut local_types: Vec<Vec<(String, String)>> = Vec::new();
    let returns = typed::Returns::of(syntax, root, src);
    let fields = typed::Fields::of(root, src);
    // The names the file's imported packages are used under (Go: `errors` of `errors.New(…)`).
    let packages = syntax.imported_packages(root, src);
    let mut types: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut test_attribute_end: Option<usize> = None;
    let mut bases: Vec<(String, Vec<String>)> = Vec::new();
    let mut method_returns: Vec<(String, String)> = Vec::new();
    let bare_word_calls = syntax.bare_word_calls(root, src).unwrap_or_default();
    walk(root, At::default(), |node, at| {
        also(node);
        let kind = node.kind();
        // Rust macro calls: items in `cfg_rt! { pub fn spawn(…) { … } }` are members as if the
        // macro were expanded; the tokens of `assert!(f(x))` in a member are its calls.
        if macros < MAX_MACRO_DEPTH {
            let read = syntax.macro_calls(node, src, at.member.is_some());
            if !read.is_empty() {
                if let Some(index) = at.member {
                    // `bail!(…)`, `unreachable!(…)`: what the member raises.
                    record_raise(syntax, node, src, &mut members[index]);
                }
                let container = at.container.map(|(start, end)| &src[start..end]);
                for body in &read {
                    let inner =
                        extract_nested(syntax, body.root(), &body.text, &mut |_| {}, macros + 1);
                    types.extend(inner.types);
                    for mut found in inner.members {
                        match at.member {
                            Some(index) => {
                                // `assert_eq!(rt.block_on(1), 1)` with `rt: Runtime` above it.
                                local_types.resize(members.len(), Vec::new());
                                through_locals(&mut found, &local_types[index]);
                                absorb(&mut members[index], found)
                            }
                            None => {
                                let label = match (container, found.container()) {
                                    (Some(container), None) => {
                                        format!("{container}.{}", found.member)
                                    }
                                    _ => found.member.clone(),
                                };
                                match members.iter().position(|m| m.member == label) {
                                    Some(index) => absorb(&mut members[index], found),
                                    None => {
                                        members.push(MemberCalls {
                                            member: label,
                                            ..found
                                        });
                                        containers.push(at.container);
                                    }
                                }
                            }
                        }
                    }
                }
                return None;
            }
        }
        if matches!(kind, "identifier" | "type_identifier") {
            let name = text_of(node, src);
            if name.len() >= 3 && name.starts_with(char::is_uppercase) {
                types.insert(name.to_string());
            }
        }
        // A Rust test attribute marks the function after it (its sibling, visited next).
        if syntax.test_marker(node, src) {
            test_attribute_end = Some(node.end_byte());
        }
        if let Some(index) = at.member {
            local_types.resize(members.len(), Vec::new());
            local_types[index].extend(typed::declared(syntax, node, src, &returns));
            let typed = typed::Typed {
                locals: &local_types[index],
                returns: &returns,
                fields: &fields,
                container: containers[index].map(|(start, end)| &src[start..end]),
            };
            if is_call_node(syntax, node, &bare_word_calls) {
                let context = CallContext {
                    syntax,
                    container: containers[index],
                    typed,
                    packages: &packages,
                };
                record_call(&context, node, src, &mut members[index]);
            }
            for (object, method) in syntax.protocol_calls(node) {
                let ty = typed::object_type(object, src, typed)
                    .or_else(|| typed::constructed(object, src));
                if let Some(ty) = ty {
                    let callee = Callee::TypedReceiver {
                        name: method.to_string(),
                        ty,
                    };
                    if !members[index].callees.contains(&callee) {
                        members[index].callees.push(callee);
                    }
                }
            }
            record_raise(syntax, node, src, &mut members[index]);
            return Some(at);
        }
        if let Some((_, field)) = kinds.containers.iter().find(|(k, _)| *k == kind) {
            if let Some((class, found)) = syntax.class_bases(node, src) {
                match bases.iter_mut().find(|(known, _)| *known == class) {
                    Some((_, known)) => {
                        for base in found {
                            if !known.contains(&base) {
                                known.push(base);
                            }
                        }
                    }
                    None if !found.is_empty() => bases.push((class, found)),
                    None => {}
                }
            }
            let name = node.child_by_field_name(field).map(final_name);
            return Some(At {
                container: name.or(at.container),
                member: None,
            });
        }
        if let Some(found) = syntax.member(node, src, at) {
            let container = found.container;
            let case = found.test;
            let index = member_index(&mut members, &mut containers, found, src);
            members[index].test |= case;
            if let Some(returned) = typed::method_return(node, src, &members[index].member) {
                if !method_returns.contains(&returned) {
                    method_returns.push(returned);
                }
            }
            local_types.resize(members.len(), Vec::new());
            local_types[index].extend(typed::declared(syntax, node, src, &returns));
            if test_attribute_end.is_some_and(|end| {
                end <= node.start_byte() && syntax.only_markers(&src[end..node.start_byte()])
            }) {
                members[index].test = true;
            }
            return Some(At {
                container,
                member: Some(index),
            });
        }
        Some(at)
    });
    members.retain(|m| !m.member.is_empty() && !m.member.contains(char::is_whitespace));
    if macros == 0 {
        keep_member_keys(&mut members);
    }
    let types = if types.len() > MAX_TYPES {
        vec!["*".to_string()]
    } else {
        types.into_iter().collect()
    };
    Extracted {
        members,
        types,
        bases,
        returns: method_returns,
    }
}

/// `found`'s calls through a plain name that `locals` (the enclosing member's typed locals: a
/// macro's tokens are read apart from the member they sit in) give a type: through that type.
fn through_locals(found: &mut MemberCalls, locals: &[(String, String)]) {
    for callee in &mut found.callees {
        let Callee::Receiver {
            name,
            receiver: Some(receiver),
        } = callee
        else {
            continue;
        };
        if let Some((_, ty)) = locals.iter().rev().find(|(local, _)| local == receiver) {
            *callee = Callee::TypedReceiver {
                name: name.clone(),
                ty: ty.clone(),
            };
        }
    }
}

/// Whether `node` is a call the language reads: of its call (or creation, or other call) kinds,
/// and for a bare word one of `bare_word_calls` ([`CallSyntax::bare_word_calls`]).
pub(crate) fn is_call_node<S: CallSyntax + ?Sized>(
    syntax: &S,
    node: Node<'_>,
    bare_word_calls: &HashSet<usize>,
) -> bool {
    let kinds = syntax.call_kinds();
    let kind = node.kind();
    match syntax.is_bare_word(node) {
        true => bare_word_calls.contains(&node.start_byte()),
        false => {
            kind == kinds.call
                || kinds.creation == Some(kind)
                || syntax.other_calls().contains(&kind)
        }
    }
}

/// Add what `found` calls, raises and is to `member` (the same function read twice, or a macro's
/// tokens read as the calls of the member they sit in).
fn absorb(member: &mut MemberCalls, found: MemberCalls) {
    for callee in found.callees {
        if !member.callees.contains(&callee) {
            member.callees.push(callee);
        }
    }
    for key in found.keys {
        if !member.keys.contains(&key) {
            member.keys.push(key);
        }
    }
    for raised in found.raises {
        if !member.raises.contains(&raised) {
            member.raises.push(raised);
        }
    }
    member.test |= found.test;
}

/// The index of `found`'s entry in `members` (a new entry, with its container, when it has none),
/// with `found`'s aliases added to it.
fn member_index(
    members: &mut Vec<MemberCalls>,
    containers: &mut Vec<Option<(usize, usize)>>,
    found: Found<'_>,
    src: &str,
) -> usize {
    let label = match found.container {
        Some((start, end)) => format!("{}.{}", &src[start..end], found.name),
        None => found.name.to_string(),
    };
    let index = match members.iter().position(|m| m.member == label) {
        Some(index) => index,
        None => {
            members.push(MemberCalls {
                member: label,
                ..MemberCalls::default()
            });
            containers.push(found.container);
            members.len() - 1
        }
    };
    for alias in found.aliases {
        if !members[index].aliases.contains(&alias) {
            members[index].aliases.push(alias);
        }
    }
    index
}

/// What a member's calls are read against: the language's call syntax, the member's container,
/// its typed locals and the file's return types, the packages the file imports.
struct CallContext<'a> {
    syntax: &'a dyn CallSyntax,
    container: Option<(usize, usize)>,
    typed: typed::Typed<'a>,
    packages: &'a [String],
}

/// Record one call of a member: its callee, and its key call when its first argument is a literal.
fn record_call(context: &CallContext<'_>, call: Node<'_>, src: &str, member: &mut MemberCalls) {
    let syntax = context.syntax;
    let Some(mut target) = syntax.call_target(call, src, context.container) else {
        return;
    };
    if let Callee::Receiver { name, .. } = &target.callee {
        // `rt.block_on(…)` with `rt: &Runtime`, `rt().block_on(…)` with `fn rt() ->
        // Arc<Runtime>`: through a `Runtime`.
        if let Some(ty) = typed::receiver_type(syntax, call, src, context.typed) {
            target.callee = Callee::TypedReceiver {
                name: name.clone(),
                ty,
            };
        } else if let Some(package) = syntax
            .package_qualifier(call, src)
            .filter(|q| context.packages.iter().any(|p| p == q))
        {
            target.callee = Callee::Package {
                package: package.to_string(),
                name: name.clone(),
            };
        }
    }
    if !member.callees.contains(&target.callee) {
        member.callees.push(target.callee);
    }
    if let (Some(shown), Some(key)) = (target.shown, literal_argument(call, src)) {
        let key = KeyCall { callee: shown, key };
        if !member.keys.contains(&key) {
            member.keys.push(key);
        }
    }
}

/// Record what `node` raises, throws or builds as an error, if anything (`source::raises`).
fn record_raise(syntax: &dyn CallSyntax, node: Node<'_>, src: &str, member: &mut MemberCalls) {
    if let Some(raised) = syntax.raise_of(node, src) {
        if !member.raises.contains(&raised) {
            member.raises.push(raised);
        }
    }
}

/// Keep only the key calls on other receivers or on the file's own members: a bare `debug('…')`
/// or `require('…')` says nothing about a setting.
fn keep_member_keys(members: &mut [MemberCalls]) {
    let names: std::collections::BTreeSet<String> = members
        .iter()
        .flat_map(|m| m.names().map(str::to_string).collect::<Vec<_>>())
        .collect();
    for member in members {
        member
            .keys
            .retain(|key| key.callee.contains(['.', ':']) || names.contains(&key.callee));
    }
}

/// The byte range of a name node's last identifier (`Foo` of `a::Foo<T>`, `App` of `App`).
pub(crate) fn final_name(node: Node<'_>) -> (usize, usize) {
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

/// A call's callee, and as shown beside a literal argument (`None` when it cannot carry a key).
pub(crate) struct Target {
    pub callee: Callee,
    pub shown: Option<String>,
}

/// The callee of a call node, or `None` when it names nothing (`f()()`, `(a || b)()`) or, in Rust,
/// builds a value (`Some(x)`, `Match::Ignore(x)`: a tuple struct or enum variant).
pub(crate) fn target(
    kinds: &CallKinds,
    call: Node<'_>,
    src: &str,
    container: Option<(usize, usize)>,
    own_receiver: Option<&str>,
) -> Option<Target> {
    let mut function = call.child_by_field_name("function")?;
    if function.kind() == "generic_function" {
        function = function.child_by_field_name("function")?;
    }
    let own = |receiver: &str| {
        SELF_RECEIVERS.contains(&receiver)
            || container.is_some_and(|(start, end)| &src[start..end] == receiver)
            || own_receiver == Some(receiver)
    };
    let (access, name_field) = kinds.access;
    let (receiver, name) = match function.kind() {
        "identifier" => (None, text_of(function, src)),
        kind if kind == access => {
            let name = text_of(function.child_by_field_name(name_field)?, src);
            let object = function
                .child_by_field_name("value")
                .or_else(|| function.child_by_field_name("object"))
                .or_else(|| function.child_by_field_name("operand"))?;
            (Some(text_of(object, src)), name)
        }
        "scoped_identifier" => return scoped_target(function, src, own),
        _ => return None,
    };
    if !is_identifier(name)
        || (kinds.capitalised_builds_value && name.starts_with(char::is_uppercase))
    {
        return None;
    }
    Some(match receiver {
        Some(receiver) if !own(receiver) => {
            let path = plain_path(receiver);
            let last = path.and_then(|p| p.rsplit('.').next());
            Target {
                callee: Callee::Receiver {
                    name: name.to_string(),
                    receiver: last.map(str::to_string),
                },
                shown: path
                    .filter(|p| key_callee(name, Some(p)))
                    .map(|p| format!("{p}.{name}")),
            }
        }
        Some(_) => Target {
            callee: Callee::OwnObject(name.to_string()),
            shown: key_callee(name, None).then(|| name.to_string()),
        },
        None => Target {
            callee: Callee::Bare(name.to_string()),
            shown: key_callee(name, None).then(|| name.to_string()),
        },
    })
}

/// The callee of a Rust `a::b::name()` call (`None` for `Type::Variant(…)`).
pub(crate) fn scoped_target(
    function: Node<'_>,
    src: &str,
    own: impl Fn(&str) -> bool,
) -> Option<Target> {
    let name = text_of(function.child_by_field_name("name")?, src);
    if name.starts_with(char::is_uppercase) {
        return None;
    }
    let last = function.child_by_field_name("path").map(|path| {
        let (start, end) = final_name(path);
        &src[start..end]
    });
    let shown = |path: &str| Some(format!("{path}::{name}"));
    Some(match last {
        Some(ty) if own(ty) => Target {
            callee: Callee::OwnObject(name.to_string()),
            shown: key_callee(name, None).then(|| name.to_string()),
        },
        Some(ty) if ty.starts_with(char::is_uppercase) && is_identifier(ty) => Target {
            callee: Callee::TypePath {
                ty: ty.to_string(),
                name: name.to_string(),
            },
            shown: shown(ty).filter(|_| key_callee(name, Some(ty))),
        },
        Some(path) if is_identifier(path) => Target {
            callee: Callee::Receiver {
                name: name.to_string(),
                receiver: Some(path.to_string()),
            },
            shown: shown(path).filter(|_| key_callee(name, Some(path))),
        },
        _ => Target {
            callee: Callee::Receiver {
                name: name.to_string(),
                receiver: None,
            },
            shown: None,
        },
    })
}

/// `receiver` as a dotted path of identifiers without a leading `this.`/`self.` (`app` of
/// `this.app`, `os.environ`), or `None` for any other expression.
pub(crate) fn plain_path(receiver: &str) -> Option<&str> {
    let mut path = receiver;
    while let Some(rest) = SELF_RECEIVERS
        .iter()
        .find_map(|s| path.strip_prefix(s).and_then(|r| r.strip_prefix('.')))
    {
        path = rest;
    }
    (path.len() <= 40 && path.split('.').all(is_identifier)).then_some(path)
}

pub(crate) fn is_identifier(name: &str) -> bool {
    !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::extract;
    use crate::source::Language;

    /// `member callee …` lines of a text.
    fn calls(language: Language, text: &str) -> Vec<String> {
        match extract(language, text) {
            Ok(interface) => interface.calls.iter().map(MemberCalls::encode).collect(),
            Err(err) => panic!("{language:?}: {err}"),
        }
    }

    /// A PHP class alias never names a function, nor a function alias a class.
    #[test]
    fn php_aliases_name_their_own_kind() {
        let text = "<?php\nuse A\\Cache as cache;\nuse function B\\bar as baz;\n\nfunction run() {\n  cache();\n  baz();\n  cache::make();\n}\n";
        assert_eq!(calls(Language::Php, text), ["run cache bar Cache.make"]);
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
                "run Parser.new .parse@p helper .c@b",
                "helper Vec.new",
                "Parser.new ^empty",
                "Parser.empty ^new ^go",
                "Walk.walk ^step",
            ]
        );
    }

    /// tokio: `spawn` is defined inside `cfg_rt!` and calls `spawn_inner`; a method defined in a
    /// macro inside an `impl` is the type's; the tokens of `assert!(…)` are the calls of the
    /// member they are in; a `#[test]` inside a macro body is a test.
    #[test]
    fn rust_members_and_calls_inside_macro_bodies() {
        let text = "cfg_rt! {\n    pub fn spawn<F>(f: F) { spawn_inner(f, SpawnMeta::new_unnamed()) }\n    pub(super) fn spawn_inner<T>(t: T) { context::with_current(|h| h.spawn(t)) }\n}\n\
                    impl Builder {\n    cfg_rt! { pub fn spawn(self) { super::spawn::spawn_inner(self.name) } }\n    fn check(&self) { assert!(valid(self.name)); }\n}\n\
                    cfg_test! { #[test] fn works() { spawn(1); } }\n";
        let interface = extract(Language::Rust, text).expect("parses");
        let encoded: Vec<String> = interface.calls.iter().map(MemberCalls::encode).collect();
        assert_eq!(
            encoded,
            [
                "spawn spawn_inner SpawnMeta.new_unnamed",
                "spawn_inner .with_current@context .spawn@h",
                "Builder.spawn .spawn_inner@spawn",
                "Builder.check valid",
                "!works spawn",
            ]
        );
        assert!(interface
            .calls
            .iter()
            .any(|m| m.member == "works" && m.test));
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
                "res.send ^json ^set setCharset .toString@body",
                "res.json stringify ^send",
                "helper helper2",
                "setCharset .replace@t",
            ]
        );
    }

    /// Getters defined by a call — a local helper forwarding to `Object.defineProperty` (express's
    /// `defineGetter`), `Object.defineProperty` itself, `__defineGetter__` — are members with their
    /// calls, as the definitions walk opens them (their flow and source).
    #[test]
    fn getters_defined_by_a_call_are_members() {
        let text = "var req = Object.create(http.IncomingMessage.prototype);\n\
                    module.exports = req;\n\
                    function defineGetter(obj, name, getter) {\n  Object.defineProperty(obj, name, { configurable: true, get: getter });\n}\n\
                    defineGetter(req, 'query', function query(){\n  var parse = this.app.get('query parser fn');\n  return parse(url(this));\n});\n\
                    Object.defineProperty(req, 'secure', { get: function () { return isTls(this); } });\n\
                    req.__defineGetter__('host', function () { return header(this); });\n";
        assert_eq!(
            calls(Language::JavaScript, text),
            [
                "defineGetter .defineProperty@Object",
                "req.query .get@app parse url ~app.get~query%20parser%20fn",
                "req.secure isTls",
                "req.host header",
            ]
        );
        let file = super::super::SourceFile::parse(Language::JavaScript, text.to_string())
            .expect("parses");
        for label in ["req.query", "req.secure", "req.host"] {
            let definition = file.definition(label).unwrap_or_else(|| panic!("{label}"));
            assert!(!file.flow(definition, 20).indented().is_empty(), "{label}");
        }
    }

    /// A call through a field its type declares (`self.inner.send(…)` with `inner: Arc<Chan<T>>`,
    /// Python's class annotation `application: Flask`, TypeScript's `private store: Store`) is a
    /// call through that type.
    #[test]
    fn a_receiver_that_is_a_typed_field_has_its_type() {
        let rust = "pub(crate) struct Tx<T, S> {\n    inner: Arc<Chan<T, S>>,\n}\n\nimpl<T, S> Tx<T, S> {\n    pub(crate) fn send(&self, value: T) {\n        self.inner.send(value);\n    }\n}\n\nstruct Chan<T, S> { t: T, s: S }\n\nimpl<T, S> Chan<T, S> {\n    fn send(&self, value: T) {}\n}\n";
        assert_eq!(
            calls(Language::Rust, rust),
            ["Tx.send .send:Chan", "Chan.send"]
        );
        let python = "class FlaskClient:\n    application: Flask\n\n    def open(self):\n        return self.application.test_request_context()\n";
        assert_eq!(
            calls(Language::Python, python),
            ["FlaskClient.open .test_request_context:Flask"]
        );
        let typescript = "export class Cart {\n  private store: Store;\n  add(item: Item) {\n    this.store.save(item);\n  }\n}\n";
        assert_eq!(
            calls(Language::TypeScript, typescript),
            ["Cart.add .save:Store"]
        );
    }

    #[test]
    fn a_receiver_made_by_a_function_of_the_file_has_its_return_type() {
        let text = "fn rt() -> Arc<Runtime> {\n    Arc::new(Runtime)\n}\n\nfn nested_rt() {\n    rt().block_on(1);\n    let other = rt();\n    other.enter();\n    let r = maybe();\n    r.poll();\n}\n\nfn maybe() -> Option<Runtime> {\n    None\n}\n";
        assert_eq!(
            calls(Language::Rust, text),
            [
                "rt Arc.new",
                // `maybe()` gives an `Option`: no type told.
                "nested_rt .block_on:Runtime rt .enter:Runtime maybe .poll@r",
                "maybe",
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
                "Router.handle ^match ^init",
                "Router.match lookup",
                "Router.onError ^handle",
                // `r: Router`: a call through a `Router`.
                "route .handle:Router",
                "start route",
            ]
        );
    }

    /// Go: a call qualified by an imported package (by its alias, or its path's last element
    /// without a major version or `go-` prefix) is a package call; one through a local, a
    /// parameter (typed) or the method's receiver is not, nor one through a package not imported.
    #[test]
    fn go_package_qualified_calls_are_told_from_method_calls() {
        let text = "package x\n\nimport (\n\t\"errors\"\n\tb \"github.com/gin-gonic/gin/binding\"\n\t\"github.com/go-playground/validator/v10\"\n\t\"gopkg.in/yaml.v3\"\n\t\"github.com/mattn/go-isatty\"\n\t_ \"embed\"\n)\n\n\
                    func (e *Engine) Run(c *Context, w io.Writer) error {\n\tb.Bind(c)\n\tvalidator.New()\n\tyaml.Unmarshal(nil, w)\n\tisatty.IsTerminal(1)\n\tw.Write(nil)\n\tc.Next()\n\te.handle()\n\tfmt.Println()\n\treturn errors.New(\"x\")\n}\n";
        assert_eq!(
            calls(Language::Go, text),
            [
                "Engine.Run b/Bind validator/New yaml/Unmarshal isatty/IsTerminal .Write:Writer \
              .Next:Context ^handle .Println@fmt errors/New"
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
                "App.finalize_request ^make_response ^process_response log",
                "App.build ^make_response",
                "make_response .make_response@current_app",
            ]
        );
    }

    #[test]
    fn a_python_with_statement_calls_enter_and_exit_of_a_typed_object() {
        let text = "class Flask:\n    def app_context(self) -> AppContext:\n        return AppContext(self)\n\n    def wsgi_app(self, environ):\n        with self.app_context():\n            pass\n        ctx = RequestContext(self)\n        with ctx as c:\n            pass\n\n    async def serve(self, lock):\n        async with Lock() as held:\n            pass\n        with lock:\n            pass\n";
        assert_eq!(
            calls(Language::Python, text),
            [
                "Flask.app_context AppContext",
                "Flask.wsgi_app .__enter__:AppContext .__exit__:AppContext ^app_context RequestContext .__enter__:RequestContext .__exit__:RequestContext",
                "Flask.serve .__aenter__:Lock .__aexit__:Lock Lock",
            ]
        );
    }

    /// A macro's tokens are read apart from the member they sit in; a call through a local the
    /// member typed above the macro is still through that type.
    #[test]
    fn calls_in_a_macro_go_through_the_members_typed_locals() {
        let text = "#[test]\nfn runs() {\n    let rt: Runtime = Runtime;\n    assert_eq!(rt.block_on(1), 1);\n    assert!(other.ready());\n}\n";
        assert_eq!(
            calls(Language::Rust, text),
            ["!runs .block_on:Runtime .ready@other"]
        );
    }

    #[test]
    fn member_items_round_trip_every_callee() {
        let member = MemberCalls {
            member: "App.run".into(),
            aliases: vec!["App.start".into()],
            callees: vec![
                Callee::Bare("go".into()),
                Callee::Receiver {
                    name: "send".into(),
                    receiver: Some("tx".into()),
                },
                Callee::TypePath {
                    ty: "Vec".into(),
                    name: "new".into(),
                },
                Callee::Receiver {
                    name: "put".into(),
                    receiver: None,
                },
                Callee::OwnObject("make".into()),
                Callee::TypedReceiver {
                    name: "block_on".into(),
                    ty: "Runtime".into(),
                },
                Callee::Package {
                    package: "errors".into(),
                    name: "New".into(),
                },
            ],
            keys: vec![KeyCall {
                callee: "app.get".into(),
                key: "json 100% spaces".into(),
            }],
            raises: Vec::new(),
            test: false,
        };
        assert_eq!(
            member.encode(),
            "App.run=App.start go .send@tx Vec.new .put ^make .block_on:Runtime errors/New \
             ~app.get~json%20100%25%20spaces"
        );
        assert_eq!(MemberCalls::decode(&member.encode()), Some(member.clone()));
        assert_eq!(member.name(), "run");
        assert_eq!(MemberCalls::decode(""), None);
        let types = encode_types(&["Sender".into(), "Tx".into()]);
        assert_eq!(MemberCalls::decode(&types), None);
        let decoded: Option<Vec<&str>> = decode_types(&types).map(Iterator::collect);
        assert_eq!(decoded, Some(vec!["Sender", "Tx"]));
        assert!(decode_types("App.run go").is_none());
    }

    /// `member: callee('key'|…)` lines of a text's key calls.
    fn keys(language: Language, text: &str) -> Vec<String> {
        let interface = extract(language, text).unwrap_or_else(|err| panic!("{err}"));
        let line = |m: &MemberCalls| {
            let keys: Vec<String> = m
                .keys
                .iter()
                .map(|k| format!("{}('{}')", k.callee, k.key))
                .collect();
            format!("{}: {}", m.member, keys.join(" "))
        };
        interface.calls.iter().map(line).collect()
    }

    #[test]
    fn javascript_literal_first_arguments_are_keys() {
        let text = "res.set = res.header = function header(f, v) { this.get('Vary'); };
                    res.get = function (f) { return 1; };
                    res.json = function json(obj) {
  var s = this.app.get('json spaces');
  this.app.get('json spaces');
  this.set('Content-Type', 'application/json');
  debug('sending %s', s);
  require('./x');
  console.log('hi');
  this.emit('close');
  this.app.get(name);
  this.app.get('Errors during the request teardown');
  this.app.get('.');
  return this.send(s);
};
";
        assert_eq!(
            keys(Language::JavaScript, text),
            [
                "res.set: get('Vary')",
                "res.get: ",
                // `debug`, `require`: no members of the file; `console.log`: a message;
                // `emit` on this file's object but no member of it; a sentence and a separator
                // are no keys.
                "res.json: app.get('json spaces') set('Content-Type')",
            ]
        );
    }

    #[test]
    fn python_environment_and_rust_env_var_are_keys() {
        let py = "import os

def run(app):
    port = os.environ.get('FLASK_RUN_PORT')
    app.config.get(\"SERVER_NAME\")
    logger.info('started')
    return f'x'.join(['a'])
";
        assert_eq!(
            keys(Language::Python, py),
            ["run: os.environ.get('FLASK_RUN_PORT') app.config.get('SERVER_NAME')"]
        );
        let rs = "fn home() -> Option<String> { std::env::var(\"HOME\").ok(); env::var_os(\"PATH\"); String::from(\"x\"); cfg.get(\"color\") }\n";
        assert_eq!(
            keys(Language::Rust, rs),
            ["home: env::var('HOME') env::var_os('PATH') cfg.get('color')"]
        );
    }

    #[test]
    fn a_member_assigned_in_a_chain_is_known_by_every_property() {
        let text = "res.set = res.header = function header(field, val) { return this.type(val); };
                    res.contentType = res.type = function contentType(t) { return this.set('Content-Type', t); };
                    var send = exports.send = function () { this.header('X', 1); };
";
        let interface = extract(Language::JavaScript, text).unwrap_or_else(|e| panic!("{e}"));
        let labels: Vec<(String, Vec<String>)> = interface
            .calls
            .iter()
            .map(|m| (m.member.clone(), m.aliases.clone()))
            .collect();
        assert_eq!(
            labels,
            [
                ("res.set".to_string(), vec!["res.header".to_string()]),
                ("res.contentType".to_string(), vec!["res.type".to_string()]),
                ("send".to_string(), vec!["send".to_string()]),
            ]
        );
        // `this.set(…)`, `this.header(…)`: calls of a member by an alias are kept as its keys.
        assert_eq!(interface.calls[1].keys[0].callee, "set");
        assert_eq!(interface.calls[2].keys[0].callee, "header");
    }

    #[test]
    fn rust_tuple_structs_and_enum_variants_are_no_calls() {
        let text = "fn invert(m: Match) -> Match { match m { _ => Match::Ignore(m.inner()) }; Some(1); Wrapper(2); Self::go(); Ok(build()) }\n";
        assert_eq!(
            calls(Language::Rust, text),
            ["invert .inner:Match ^go build"]
        );
        let types = extract(Language::Rust, text).map(|i| i.type_refs);
        assert_eq!(
            types.ok(),
            Some(vec![
                "Ignore".to_string(),
                "Match".into(),
                "Self".into(),
                "Some".into(),
                "Wrapper".into()
            ])
        );
    }
}
