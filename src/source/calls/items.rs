//! A file's calls as the update cache keeps them: per member, what it calls ([`MemberCalls`]), and
//! beside them the classes' bases, the type names the file mentions and the names it re-exports —
//! each encoded as one compact item and decoded back. The data of `source::calls`' walk, kept apart
//! from the walk so that the interface that carries it needs nothing of the walk.

use super::callee::Callee;

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
/// Marks the encoded item of the types a file's methods return: `=Type.method:Returned …`.
const RETURNS_MARK: char = '=';
/// Marks a test function's item: a Rust `#[test]`, a JavaScript `it('…', …)` case.
const TEST_MARK: char = '!';
/// Marks the encoded item of the module names a file binds to the standard library: `&mpsc mem`.
const STD_MODULES_MARK: char = '&';

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
        if item.starts_with([
            TYPES_MARK,
            BASES_MARK,
            REEXPORTS_MARK,
            RETURNS_MARK,
            STD_MODULES_MARK,
        ]) {
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

/// The cache's item of the module names a Rust file binds to the standard library (`&mpsc`: `use
/// std::sync::mpsc;`), through which a call is no call of a project module of that name.
pub fn encode_std_modules(names: &[String]) -> String {
    encode_words(STD_MODULES_MARK, names)
}

/// The module names a file's cache items say it binds to the standard library (see
/// [`encode_std_modules`]).
pub fn std_modules_of(items: &[String]) -> Vec<&str> {
    items
        .iter()
        .filter_map(|item| decode_words(STD_MODULES_MARK, item))
        .flatten()
        .collect()
}

/// The cache's item of the types a file's methods return (`=SearcherBuilder.build:Searcher`),
/// with which the graph types chains of calls (`typed::CHAIN`).
pub fn encode_returns(returns: &[(String, String)]) -> String {
    let words: Vec<String> = returns
        .iter()
        .map(|(label, ty)| format!("{label}:{ty}"))
        .collect();
    encode_words(RETURNS_MARK, &words)
}

/// Undo [`encode_returns`]: `(Type.method, Returned)` pairs; `None` for any other item.
pub fn decode_returns(item: &str) -> Option<impl Iterator<Item = (&str, &str)>> {
    Some(decode_words(RETURNS_MARK, item)?.filter_map(|word| word.split_once(':')))
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
