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
//! update cache as one compact item: `member=alias callee ^callee .callee@recv Type.callee
//! ~recv.get~key` (`!member` for a test function; each callee the word its `Display` writes and
//! its `FromStr` reads — the only place a callee is text). Beside them, a file's items name the classes' bases (`%Flask App`, Rust `impl
//! Trait for Type` as `%Type Trait`: [`encode_bases`]) and the types it mentions (`#Sender Tx`).

mod callee;
mod keys;
mod typed;

pub use self::callee::Callee;

use tree_sitter::Node;

use self::keys::{key_callee, literal_argument};
use super::rust::expand::MAX_MACRO_DEPTH;
use super::syntax::{text_of, walk};
use super::Language;

/// The calls of one member.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemberCalls {
    /// `name`, or `Container.name` for a method (`App.finalize_request`, `res.send`).
    pub member: String,
    /// The other labels the same function is assigned to (`res.header` of
    /// `res.set = res.header = function header(…)`).
    pub aliases: Vec<String>,
    /// Callees in first-call order, deduplicated.
    pub callees: Vec<Callee>,
    /// Calls whose first argument is a short string literal — the settings, headers, environment
    /// variables, events the member reads or writes — in first-call order, deduplicated.
    pub keys: Vec<KeyCall>,
    /// What the member raises, throws or returns as an error (`source::raises`), in first-seen
    /// order, deduplicated — read from a fresh parse only: the cache's item leaves it out.
    pub raises: Vec<String>,
    /// A test function: a Rust `#[test]` (`#[tokio::test]`, …), a JavaScript test case (`it('…',
    /// function () { … })`, labelled for its title).
    pub test: bool,
}

/// A call with a short string literal as its first argument: `app.get('json spaces')`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct KeyCall {
    /// The callee as written, without `this.`/`self.`: `app.get`, `set`, `os.environ.get`,
    /// `env::var`.
    pub callee: String,
    /// The literal, without its quotes.
    pub key: String,
}

/// Marks an encoded [`KeyCall`]: `~callee~key` (the key's spaces and `%` percent-escaped).
const KEY_MARK: char = '~';
/// Marks the encoded item of a file's referenced type names: `#Type Type …`.
const TYPES_MARK: char = '#';
/// Marks the encoded item of a class's bases: `%Class Base Base`.
const BASES_MARK: char = '%';
/// Marks the encoded item of the names a module re-exports: `>name name`.
const REEXPORTS_MARK: char = '>';
/// Marks a test function's item: a Rust `#[test]`, a JavaScript `it('…', …)` case.
const TEST_MARK: char = '!';

impl MemberCalls {
    /// The member's bare name (`finalize_request` of `App.finalize_request`).
    pub fn name(&self) -> &str {
        bare(&self.member)
    }

    /// Every bare name the member is known by (its own and its aliases').
    pub fn names(&self) -> impl Iterator<Item = &str> {
        std::iter::once(self.name()).chain(self.aliases.iter().map(|a| bare(a)))
    }

    /// The member's container (`App` of `App.run`), if any.
    pub fn container(&self) -> Option<&str> {
        self.member.rsplit_once('.').map(|(container, _)| container)
    }

    /// The cache's item: the member (`=alias` each), then its callees and key calls, separated by
    /// spaces.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        if self.test {
            out.push(TEST_MARK);
        }
        out.push_str(&self.member);
        for alias in &self.aliases {
            out.push('=');
            out.push_str(alias);
        }
        for callee in &self.callees {
            out.push(' ');
            out.push_str(&callee.to_string());
        }
        for key in &self.keys {
            out.push(' ');
            out.push(KEY_MARK);
            out.push_str(&key.callee);
            out.push(KEY_MARK);
            out.push_str(&key.key.replace('%', "%25").replace(' ', "%20"));
        }
        out
    }

    /// Undo [`MemberCalls::encode`]; `None` for an empty item or a file's [`encode_types`] item.
    pub fn decode(item: &str) -> Option<MemberCalls> {
        if item.starts_with([TYPES_MARK, BASES_MARK, REEXPORTS_MARK]) {
            return None;
        }
        let mut words = item.split(' ').filter(|w| !w.is_empty());
        let first = words.next()?;
        let test = first.starts_with(TEST_MARK);
        let mut labels = first
            .strip_prefix(TEST_MARK)
            .unwrap_or(first)
            .split('=')
            .map(str::to_string);
        let member = labels.next()?;
        let mut out = MemberCalls {
            member,
            aliases: labels.collect(),
            test,
            ..MemberCalls::default()
        };
        for word in words {
            match word
                .strip_prefix(KEY_MARK)
                .and_then(|w| w.split_once(KEY_MARK))
            {
                Some((callee, key)) => out.keys.push(KeyCall {
                    callee: callee.to_string(),
                    key: key.replace("%20", " ").replace("%25", "%"),
                }),
                None => out.callees.extend(word.parse::<Callee>()),
            }
        }
        Some(out)
    }
}

/// The cache's item of the type names a file refers to (`#Sender OwnedPermit`): what a caller can
/// name, for `workspace::calls` to tell whose method a call through an object may reach.
pub fn encode_types(types: &[String]) -> String {
    encode_words(TYPES_MARK, types)
}

/// Undo [`encode_types`]; `None` for a member's item.
pub fn decode_types(item: &str) -> Option<impl Iterator<Item = &str>> {
    decode_words(TYPES_MARK, item)
}

/// The cache's item of a class's bases (`%Flask App`), a Rust type's traits (`%Square Shape`)
/// or a trait's supertraits.
pub fn encode_bases(class: &str, bases: &[String]) -> String {
    let mut out = String::from(BASES_MARK);
    out.push_str(class);
    for base in bases {
        out.push(' ');
        out.push_str(base);
    }
    out
}

/// Undo [`encode_bases`]: the class and its bases; `None` for any other item.
pub fn decode_bases(item: &str) -> Option<(&str, impl Iterator<Item = &str>)> {
    let rest = item.strip_prefix(BASES_MARK)?;
    let mut words = rest.split(' ').filter(|w| !w.is_empty());
    let class = words.next()?;
    Some((class, words))
}

/// The cache's item of the names a module re-exports (`>make_response url_for`: flask's
/// `__init__.py`), through which its importers call what other files define.
pub fn encode_reexports(names: &[String]) -> String {
    encode_words(REEXPORTS_MARK, names)
}

/// Undo [`encode_reexports`]; `None` for any other item.
pub fn decode_reexports(item: &str) -> Option<impl Iterator<Item = &str>> {
    decode_words(REEXPORTS_MARK, item)
}

/// A cache item of words after a mark (`#Sender OwnedPermit`).
fn encode_words(mark: char, words: &[String]) -> String {
    let mut out = String::from(mark);
    out.push_str(&words.join(" "));
    out
}

/// The words of a cache item `mark` starts; `None` for an item of another kind.
fn decode_words(mark: char, item: &str) -> Option<impl Iterator<Item = &str>> {
    let rest = item.strip_prefix(mark)?;
    Some(rest.split(' ').filter(|w| !w.is_empty()))
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
        // A method is declared outside its type: `member` names its receiver's type.
        Language::Go => Kinds {
            call: "call_expression",
            containers: &[],
        },
        Language::Java => Kinds {
            call: "method_invocation",
            containers: &[
                ("class_declaration", "name"),
                ("interface_declaration", "name"),
                ("enum_declaration", "name"),
                ("record_declaration", "name"),
            ],
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

/// A member found by [`member`]: its name, container and the other labels it is assigned to.
struct Found<'s> {
    name: std::borrow::Cow<'s, str>,
    container: Option<(usize, usize)>,
    aliases: Vec<String>,
    /// A JavaScript test case (`it('…', function () { … })`).
    test: bool,
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
}

/// Type names recorded per file at most; past it the file counts as naming every type (`*`).
pub const MAX_TYPES: usize = 300;

/// The calls of every member of a parsed file, in source order, and the type names it mentions.
/// `also` sees every node of the walk too: a caller that needs one more look at each node shares
/// this walk instead of making its own (a walk of the whole tree is the cost of extraction).
pub(super) fn extract<'t>(
    language: Language,
    root: Node<'t>,
    src: &str,
    also: &mut dyn FnMut(Node<'t>),
) -> Extracted {
    extract_nested(language, root, src, also, 0)
}

/// [`extract`] of a tree `macros` Rust macro bodies deep.
fn extract_nested<'t>(
    language: Language,
    root: Node<'t>,
    src: &str,
    also: &mut dyn FnMut(Node<'t>),
    macros: usize,
) -> Extracted {
    let kinds = kinds(language);
    let mut members: Vec<MemberCalls> = Vec::new();
    let mut containers: Vec<Option<(usize, usize)>> = Vec::new();
    // Per member, the local names whose type a declaration states (`calls/typed.rs`).
    let mut local_types: Vec<Vec<(String, String)>> = Vec::new();
    let returns = typed::Returns::of(language, root, src);
    // Go: the names the file's imported packages are used under (`errors` of `errors.New(…)`).
    let packages = match language {
        Language::Go => super::go::imported_package_names(root, src),
        _ => Vec::new(),
    };
    let mut types: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut test_attribute_end: Option<usize> = None;
    let mut bases: Vec<(String, Vec<String>)> = Vec::new();
    walk(root, At::default(), |node, at| {
        also(node);
        let kind = node.kind();
        // Rust macro calls: items in `cfg_rt! { pub fn spawn(…) { … } }` are members as if the
        // macro were expanded; the tokens of `assert!(f(x))` in a member are its calls.
        if language == Language::Rust && kind == "macro_invocation" && macros < MAX_MACRO_DEPTH {
            let read = match at.member {
                // A local `macro_rules!` transcribed (the tests `syntax!(literal1, "a", …)`
                // generates, the `fn rt()` each module of `rt_test! { … }` gets), else a
                // pass-through macro's items.
                None => match super::rust::macro_rules::local_macro_body(node, src) {
                    Some(body) => vec![body],
                    None => super::rust::expand::macro_bodies(node, src),
                },
                Some(_) => super::rust::expand::expression_body(node, src)
                    .into_iter()
                    .collect(),
            };
            if !read.is_empty() {
                if let Some(index) = at.member {
                    // `bail!(…)`, `unreachable!(…)`: what the member raises.
                    record_raise(language, node, src, &mut members[index]);
                }
                let container = at.container.map(|(start, end)| &src[start..end]);
                for body in &read {
                    let inner =
                        extract_nested(language, body.root(), &body.text, &mut |_| {}, macros + 1);
                    types.extend(inner.types);
                    for found in inner.members {
                        match at.member {
                            Some(index) => absorb(&mut members[index], found),
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
        if kind == "attribute_item" && super::rust::cfg::is_test_attribute(text_of(node, src)) {
            test_attribute_end = Some(node.end_byte());
        }
        if let Some(index) = at.member {
            local_types.resize(members.len(), Vec::new());
            local_types[index].extend(typed::declared(language, node, src, &returns));
            if kind == kinds.call
                || (language == Language::Java && kind == "object_creation_expression")
            {
                let typed = typed::Typed {
                    locals: &local_types[index],
                    returns: &returns,
                };
                let context = CallContext {
                    language,
                    container: containers[index],
                    typed,
                    packages: &packages,
                };
                record_call(&context, node, src, &mut members[index]);
            }
            record_raise(language, node, src, &mut members[index]);
            return Some(at);
        }
        if let Some((_, field)) = kinds.containers.iter().find(|(k, _)| *k == kind) {
            if let Some((class, found)) = class_bases(language, node, src) {
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
        if let Some(found) = member(language, node, src, at) {
            let container = found.container;
            let case = found.test;
            let index = member_index(&mut members, &mut containers, found, src);
            members[index].test |= case;
            local_types.resize(members.len(), Vec::new());
            local_types[index].extend(typed::declared(language, node, src, &returns));
            if language == Language::Rust
                && test_attribute_end.is_some_and(|end| {
                    end <= node.start_byte()
                        && super::rust::cfg::only_attributes(&src[end..node.start_byte()])
                })
            {
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
    }
}

/// The bases a class, an `impl Trait for Type` or a trait names: `(Flask, [App])`.
fn class_bases(language: Language, node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
    let last = |text: &str| -> String {
        let text: String = text.chars().filter(|c| !c.is_whitespace()).collect();
        let text = text.split(['<', '[', '(']).next().unwrap_or("").to_string();
        let text = text.rsplit(['.', ':']).next().unwrap_or("").to_string();
        text
    };
    let name = |field: &str| node.child_by_field_name(field).map(|n| text_of(n, src));
    match language {
        Language::Rust => match node.kind() {
            "impl_item" => {
                let ty = last(name("type")?);
                let tr = last(name("trait")?);
                Some((ty, vec![tr]))
            }
            "trait_item" => {
                let bounds = node.child_by_field_name("bounds")?;
                let mut cursor = bounds.walk();
                let supers: Vec<String> = bounds
                    .named_children(&mut cursor)
                    .map(|b| last(text_of(b, src)))
                    .filter(|b| b.starts_with(char::is_alphabetic))
                    .collect();
                Some((name("name")?.to_string(), supers))
            }
            // Not a container of Rust's (`kinds`).
            _ => None,
        },
        Language::Python => {
            let list = node.child_by_field_name("superclasses")?;
            let mut cursor = list.walk();
            let supers: Vec<String> = list
                .named_children(&mut cursor)
                .filter(|b| b.kind() != "keyword_argument")
                .map(|b| last(text_of(b, src)))
                .filter(|b| !b.is_empty() && b != "object")
                .collect();
            Some((name("name")?.to_string(), supers))
        }
        // No containers (`kinds`): a Go type names no bases.
        Language::Go => None,
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            let class = name("name")?.to_string();
            Some((class, super::definitions::heritage(node, src)))
        }
        Language::Java => {
            let class = name("name")?.to_string();
            Some((class, java_bases(node, src)))
        }
    }
}

/// A Java type's superclass and interfaces (`extends`, `implements`, an interface's `extends`),
/// by simple name, in source order.
pub(super) fn java_bases(node: Node<'_>, src: &str) -> Vec<String> {
    let mut bases = Vec::new();
    let mut cursor = node.walk();
    for part in node.children(&mut cursor) {
        if !matches!(
            part.kind(),
            "superclass" | "super_interfaces" | "extends_interfaces"
        ) {
            continue;
        }
        let mut types = vec![part];
        while let Some(node) = types.pop() {
            match node.kind() {
                "type_identifier" | "scoped_type_identifier" | "generic_type" => {
                    let (start, end) = java_final_name(node);
                    let name = &src[start..end];
                    if !bases.iter().any(|b| b == name) {
                        bases.push(name.to_string());
                    }
                }
                _ => {
                    let mut inner = node.walk();
                    let children: Vec<Node<'_>> = node.named_children(&mut inner).collect();
                    types.extend(children.into_iter().rev());
                }
            }
        }
    }
    bases
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

/// What a member's calls are read against: the language, the member's container, its typed
/// locals and the file's return types, the Go packages the file imports.
struct CallContext<'a> {
    language: Language,
    container: Option<(usize, usize)>,
    typed: typed::Typed<'a>,
    packages: &'a [String],
}

/// Record one call of a member: its callee, and its key call when its first argument is a literal.
fn record_call(context: &CallContext<'_>, call: Node<'_>, src: &str, member: &mut MemberCalls) {
    let language = context.language;
    let Some(mut target) = target(language, call, src, context.container) else {
        return;
    };
    if let Callee::Receiver { name, .. } = &target.callee {
        // `rt.block_on(…)` with `rt: &Runtime`, `rt().block_on(…)` with `fn rt() ->
        // Arc<Runtime>`: through a `Runtime`.
        if let Some(ty) = typed::receiver_type(language, call, src, context.typed) {
            target.callee = Callee::TypedReceiver {
                name: name.clone(),
                ty: ty.to_string(),
            };
        } else if let Some(package) = super::go::call_qualifier(call, src)
            .filter(|q| language == Language::Go && context.packages.iter().any(|p| p == q))
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
fn record_raise(language: Language, node: Node<'_>, src: &str, member: &mut MemberCalls) {
    if let Some(raised) = super::raises::raise_of(language, node, src) {
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

/// Whether `node` starts a member: its name, container and aliases.
fn member<'s>(language: Language, node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
    let name_of = |field: &str| node.child_by_field_name(field).map(|n| text_of(n, src));
    let plain = |name: &'s str, container| {
        Some(Found {
            name: name.into(),
            container,
            aliases: Vec::new(),
            test: false,
        })
    };
    match language {
        Language::Rust => match node.kind() {
            "function_item" => plain(name_of("name")?, at.container),
            _ => None,
        },
        Language::Python => match node.kind() {
            "function_definition" => plain(name_of("name")?, at.container),
            _ => None,
        },
        Language::Go => match node.kind() {
            "function_declaration" => Some(Found {
                test: super::go::is_test_function(name_of("name")?)
                    && has_testing_parameter(node, src),
                ..plain(name_of("name")?, None)?
            }),
            // A method is a member of its receiver's type (`Context.JSON`).
            "method_declaration" => {
                let ty = super::go::receiver_type(node)?;
                plain(name_of("name")?, Some((ty.start_byte(), ty.end_byte())))
            }
            _ => None,
        },
        Language::Java => match node.kind() {
            "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration" => Some(Found {
                name: name_of("name")?.into(),
                container: at.container,
                aliases: Vec::new(),
                test: super::java::is_test_method(node, src),
            }),
            _ => None,
        },
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            javascript_member(node, src, at)
        }
    }
}

/// Whether a Go function takes `*testing.T`, `*testing.B`, `*testing.F` (a test, benchmark or
/// fuzz target) or is an `ExampleXxx()` without parameters.
fn has_testing_parameter(node: Node<'_>, src: &str) -> bool {
    let parameters = node
        .child_by_field_name("parameters")
        .map_or("", |p| text_of(p, src));
    parameters.contains("testing.")
        || (parameters == "()" && text_of(node, src).contains("Example"))
}

/// Whether a JavaScript, TypeScript or TSX `node` starts a member: a function or method, a
/// function assigned to a variable, field, key or CommonJS export, or a test case's callback.
fn javascript_member<'s>(node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
    let name_of = |field: &str| node.child_by_field_name(field).map(|n| text_of(n, src));
    let plain = |name: &'s str, container| {
        Some(Found {
            name: name.into(),
            container,
            aliases: Vec::new(),
            test: false,
        })
    };
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
        "call_expression" if super::suites::is_case_call(node, src) => {
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

/// A call's callee, and as shown beside a literal argument (`None` when it cannot carry a key).
struct Target {
    callee: Callee,
    shown: Option<String>,
}

/// The callee of a call node, or `None` when it names nothing (`f()()`, `(a || b)()`) or, in Rust,
/// builds a value (`Some(x)`, `Match::Ignore(x)`: a tuple struct or enum variant).
fn target(
    language: Language,
    call: Node<'_>,
    src: &str,
    container: Option<(usize, usize)>,
) -> Option<Target> {
    if language == Language::Java {
        return java_target(call, src, container);
    }
    let mut function = call.child_by_field_name("function")?;
    if function.kind() == "generic_function" {
        function = function.child_by_field_name("function")?;
    }
    // A Go method's receiver is named by the method (`c` of `func (c *Context) Next()`).
    let go_receiver = match language {
        Language::Go => super::go::receiver_name_around(call, src),
        _ => None,
    };
    let own = |receiver: &str| {
        SELF_RECEIVERS.contains(&receiver)
            || container.is_some_and(|(start, end)| &src[start..end] == receiver)
            || go_receiver == Some(receiver)
    };
    // A call through a receiver, `a.b()`: the node kind of the callee and the field naming `b`.
    let (access, name_field) = match language {
        Language::Rust => ("field_expression", "field"),
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            ("member_expression", "property")
        }
        Language::Python => ("attribute", "attribute"),
        Language::Go => ("selector_expression", "field"),
        // Calls are `method_invocation` nodes, read by `java_target`.
        Language::Java => ("field_access", "field"),
    };
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
    if !is_identifier(name) || (language == Language::Rust && name.starts_with(char::is_uppercase))
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

/// The byte range of a Java type's simple name (`C` of `a.b.C<T>`, `Entry` of `Map.Entry`).
pub(super) fn java_final_name(node: Node<'_>) -> (usize, usize) {
    let mut node = node;
    loop {
        let next = match node.kind() {
            "generic_type" => node.named_child(0),
            "scoped_type_identifier" => {
                let count = node.named_child_count() as u32;
                count.checked_sub(1).and_then(|last| node.named_child(last))
            }
            _ => None,
        };
        match next {
            Some(next) => node = next,
            None => break,
        }
    }
    (node.start_byte(), node.end_byte())
}

/// The callee of a Java call: through the own object for a bare call or one through
/// `this`/`super` (a method of the class or its bases), a type path through a capitalised name (a
/// static method) and for `new Type(…)` (`Type.Type`, its constructor), through a receiver
/// otherwise.
fn java_target(call: Node<'_>, src: &str, container: Option<(usize, usize)>) -> Option<Target> {
    if call.kind() == "object_creation_expression" {
        let (start, end) = java_final_name(call.child_by_field_name("type")?);
        let ty = &src[start..end];
        return is_identifier(ty).then(|| Target {
            callee: Callee::TypePath {
                ty: ty.to_string(),
                name: ty.to_string(),
            },
            shown: None,
        });
    }
    let name = text_of(call.child_by_field_name("name")?, src);
    if !is_identifier(name) {
        return None;
    }
    let receiver = call.child_by_field_name("object").map(|o| text_of(o, src));
    let own = |receiver: &str| {
        SELF_RECEIVERS.contains(&receiver)
            || container.is_some_and(|(start, end)| &src[start..end] == receiver)
    };
    let shown = |path: Option<&str>| {
        key_callee(name, path).then(|| match path {
            Some(path) => format!("{path}.{name}"),
            None => name.to_string(),
        })
    };
    Some(match receiver {
        None => Target {
            callee: Callee::OwnObject(name.to_string()),
            shown: shown(None),
        },
        Some(receiver) if own(receiver) => Target {
            callee: Callee::OwnObject(name.to_string()),
            shown: shown(None),
        },
        Some(receiver) => {
            let path = plain_path(receiver);
            let last = path.and_then(|p| p.rsplit('.').next());
            let callee = match last {
                Some(ty) if ty.starts_with(|c: char| c.is_ascii_uppercase()) => Callee::TypePath {
                    ty: ty.to_string(),
                    name: name.to_string(),
                },
                _ => Callee::Receiver {
                    name: name.to_string(),
                    receiver: last.map(str::to_string),
                },
            };
            Target {
                callee,
                shown: path.and_then(|p| shown(Some(p))),
            }
        }
    })
}

/// The callee of a Rust `a::b::name()` call (`None` for `Type::Variant(…)`).
fn scoped_target(function: Node<'_>, src: &str, own: impl Fn(&str) -> bool) -> Option<Target> {
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
fn plain_path(receiver: &str) -> Option<&str> {
    let mut path = receiver;
    while let Some(rest) = SELF_RECEIVERS
        .iter()
        .find_map(|s| path.strip_prefix(s).and_then(|r| r.strip_prefix('.')))
    {
        path = rest;
    }
    (path.len() <= 40 && path.split('.').all(is_identifier)).then_some(path)
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
