//! What a member shares with the rest of its file, from a fresh parse of the file (its
//! `MemberCalls`: own callees, literal keys, raises, Rust test flags):
//! - its **siblings**: members of the file sharing at least [`MIN_SHARED`] callees of the file or
//!   literal keys with it, a callee counting once with the keys passed to it (`res.jsonp` shares
//!   `app.get('json replacer'|…)`, `set('Content-Type')`
//!   and `send` with `res.json`) — change one, look at the other;
//! - its **callers' chain**: the members of the file calling it, and those calling them, up to
//!   [`CHAIN_DEPTH`] levels (`make_response` ← `finalize_request` ← `full_dispatch_request`) — the
//!   way tests reach it without naming it;
//! - its **delegate**: the last member of the file it calls (`res.json` ends with `this.send(…)`),
//!   whose tests exercise its body too;
//! - its **distinctive words** (`response` of `make_response`), for test functions named for it.

use std::collections::BTreeSet;

use crate::source::calls::{bare, Callee, MemberCalls};
use crate::workspace::calls::{KeyGroup, COMMON_METHODS};

/// Shared callees or keys that make two members siblings.
pub const MIN_SHARED: usize = 3;
/// Siblings named.
pub const RELATED_SHOWN: usize = 3;
/// Levels of callers followed.
pub const CHAIN_DEPTH: usize = 3;
/// Caller names followed at most (the work stays bounded in a file of hundreds of members).
const CHAIN_NAMES: usize = 12;
/// Words too generic to tell what a member is about.
const GENERIC_WORDS: &[&str] = &[
    "make", "get", "set", "test", "tests", "new", "init", "self", "handle", "handler", "run",
    "from", "into", "with", "for", "the", "and", "create", "build", "default", "value", "data",
    "async", "try", "has", "can", "should", "when", "all", "call", "impl", "inner", "helper",
    "add", "remove", "update", "delete", "check", "is", "full", "not", "use",
];

/// A sibling of the member and what they share.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Related {
    pub member: String,
    /// Shared callees of the file, then shared literal keys grouped by callee.
    pub calls: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<KeyGroup>,
}

/// A name the member is reached through: a caller of it, or of a caller (`via` is the path from
/// the test's side: `full_dispatch_request → finalize_request`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChainLink {
    pub name: String,
    pub via: String,
    /// The type (class, `impl`, CommonJS object) whose method it is: a call of its name in a
    /// test reaches it only through that type or an object named for it.
    pub container: Option<String>,
}

/// The members of `file` other than test functions.
fn code_members(file: &[MemberCalls]) -> impl Iterator<Item = &MemberCalls> {
    file.iter().filter(|m| !m.test)
}

/// The bare names of the file's members.
fn member_names(file: &[MemberCalls]) -> BTreeSet<&str> {
    code_members(file).flat_map(MemberCalls::names).collect()
}

/// The callees of `member` that are members of the file (not itself), in first-call order.
fn own_callees<'a>(member: &'a MemberCalls, names: &BTreeSet<&str>) -> Vec<&'a str> {
    let own: Vec<&str> = member.names().collect();
    member
        .callees
        .iter()
        .filter_map(own_name)
        .filter(|name| names.contains(name) && !own.contains(name))
        .collect()
}

/// The name an own call reaches (bare or through the member's own object): a member of the file
/// it may be; `None` for a call through anything else.
fn own_name(callee: &Callee) -> Option<&str> {
    match callee {
        Callee::Bare(name) | Callee::OwnObject(name) => Some(name),
        Callee::Receiver { .. }
        | Callee::TypedReceiver { .. }
        | Callee::TypePath { .. }
        | Callee::Package { .. } => None,
    }
}

/// The members of the file sharing at least [`MIN_SHARED`] callees or keys with `label`, most
/// shared first, [`RELATED_SHOWN`] at most.
pub fn siblings(file: &[MemberCalls], label: &str) -> Vec<Related> {
    let Some(member) = file.iter().find(|m| m.member == label) else {
        return Vec::new();
    };
    let names = member_names(file);
    let calls = own_callees(member, &names);
    let mut found: Vec<(usize, Related)> = code_members(file)
        .filter(|other| other.member != label)
        .filter_map(|other| {
            let theirs = own_callees(other, &names);
            let shared: Vec<String> = calls
                .iter()
                .filter(|c| theirs.contains(c))
                .map(|c| c.to_string())
                .collect();
            let keys: Vec<_> = member
                .keys
                .iter()
                .filter(|k| other.keys.contains(k))
                .collect();
            // A callee passed a shared key counts once, with its keys.
            let keyed = shared
                .iter()
                .filter(|c| keys.iter().any(|k| &k.callee == *c));
            let count = shared.len() - keyed.count() + keys.len();
            (count >= MIN_SHARED).then(|| {
                let mut groups: Vec<KeyGroup> = Vec::new();
                for key in keys {
                    match groups.iter_mut().find(|g| g.callee == key.callee) {
                        Some(group) => group.keys.push(key.key.clone()),
                        None => groups.push(KeyGroup {
                            callee: key.callee.clone(),
                            keys: vec![key.key.clone()],
                        }),
                    }
                }
                let related = Related {
                    member: other.member.clone(),
                    calls: shared,
                    keys: groups,
                };
                (count, related)
            })
        })
        .collect();
    found.sort_by_key(|(count, _)| std::cmp::Reverse(*count));
    found
        .into_iter()
        .take(RELATED_SHOWN)
        .map(|(_, r)| r)
        .collect()
}

/// The members of the file calling `label`, and their callers, [`CHAIN_DEPTH`] levels up: names
/// specific enough to tell a test's call of them (no common method, no `__dunder__`, four letters
/// or more), [`CHAIN_NAMES`] at most, nearest first.
pub fn callers_chain(file: &[MemberCalls], label: &str) -> Vec<ChainLink> {
    let Some(start) = file.iter().find(|m| m.member == label) else {
        return Vec::new();
    };
    let mut seen: BTreeSet<&str> = start.names().collect();
    let mut frontier: Vec<(Vec<&str>, String)> = start
        .names()
        .map(|name| (vec![name], String::new()))
        .collect();
    let mut chain: Vec<ChainLink> = Vec::new();
    for _ in 0..CHAIN_DEPTH {
        let mut next = Vec::new();
        for (targets, via) in &frontier {
            for caller in code_members(file) {
                let calls_it = caller
                    .callees
                    .iter()
                    .any(|c| own_name(c).is_some_and(|n| targets.contains(&n)));
                if !calls_it || !seen.insert(caller.name()) {
                    continue;
                }
                let name = caller.name();
                let via = match via.is_empty() {
                    true => name.to_string(),
                    false => format!("{name} → {via}"),
                };
                if specific(name) && chain.len() < CHAIN_NAMES {
                    chain.push(ChainLink {
                        name: name.to_string(),
                        via: via.clone(),
                        container: caller.container().map(str::to_string),
                    });
                }
                next.push((caller.names().collect(), via));
            }
        }
        frontier = next;
    }
    chain
}

/// A name a test's call of can be told by: four letters or more, no common method, no dunder.
fn specific(name: &str) -> bool {
    name.len() >= 4 && !name.starts_with("__") && !COMMON_METHODS.contains(&name)
}

/// The last member of the file `label` calls (its body's hand-off: `this.send(body)` of
/// `res.json`), when its name is specific.
pub fn delegate<'a>(file: &'a [MemberCalls], label: &str) -> Option<&'a str> {
    let member = file.iter().find(|m| m.member == label)?;
    let names = member_names(file);
    own_callees(member, &names)
        .into_iter()
        .last()
        .filter(|name| name.len() >= 3)
}

/// What `label` raises, from the file's fresh parse.
pub fn raises(file: &[MemberCalls], label: &str) -> Vec<String> {
    file.iter()
        .find(|m| m.member == label)
        .map(|m| m.raises.clone())
        .unwrap_or_default()
}

/// The words of a name (`make_response` → make, response; `sendFile` → send, file), lowercase.
pub fn words(name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut previous_lower = false;
    for c in bare(name).chars() {
        let boundary = !c.is_alphanumeric() || (c.is_uppercase() && previous_lower);
        if boundary && !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if c.is_alphanumeric() {
            word.push(c.to_ascii_lowercase());
        }
        previous_lower = c.is_lowercase() || c.is_ascii_digit();
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The words of a member's name that say what it is about (`response` of `make_response`): three
/// letters or more, none of the [`GENERIC_WORDS`].
pub fn distinctive_words(label: &str) -> Vec<String> {
    words(label)
        .into_iter()
        .filter(|w| w.len() >= 3 && !GENERIC_WORDS.contains(&w.as_str()))
        .collect()
}

/// The distinctive word of `wanted` that a test function's name has (`response` of
/// `test_response_types`; a plural counts).
pub fn named_word<'w>(function: &str, wanted: &'w [String]) -> Option<&'w str> {
    let theirs = words(function);
    wanted
        .iter()
        .find(|w| theirs.iter().any(|t| t == *w || *t == format!("{w}s")))
        .map(String::as_str)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{extract, Language};

    fn calls(language: Language, text: &str) -> Vec<MemberCalls> {
        extract(language, text)
            .map(|i| i.calls)
            .unwrap_or_else(|err| panic!("{err}"))
    }

    #[test]
    fn siblings_share_keys_and_callees() {
        let text = "res.send = function send(b) { return 1; };
res.set = function set(f, v) { return 2; };
res.json = function json(obj) {
  var s = this.app.get('json spaces');
  var r = this.app.get('json replacer');
  this.set('Content-Type', 'application/json');
  return this.send(s);
};
res.jsonp = function jsonp(obj) {
  var s = this.app.get('json spaces');
  var r = this.app.get('json replacer');
  this.set('Content-Type', 'text/javascript');
  return this.send(s);
};
res.other = function other() { return this.send(1); };
";
        let file = calls(Language::JavaScript, text);
        let related = siblings(&file, "res.json");
        assert_eq!(related.len(), 1, "{related:?}");
        assert_eq!(related[0].member, "res.jsonp");
        assert_eq!(related[0].calls, ["set", "send"]);
        assert_eq!(related[0].keys[0].callee, "app.get");
        assert_eq!(related[0].keys[0].keys, ["json spaces", "json replacer"]);
        assert_eq!(delegate(&file, "res.json"), Some("send"));
    }

    #[test]
    fn the_callers_chain_goes_up_three_levels_with_specific_names() {
        let text = "class App:
    def make_response(self, rv):
        return rv
    def finalize_request(self, rv):
        return self.make_response(rv)
    def full_dispatch_request(self):
        return self.finalize_request(1)
    def wsgi_app(self, env):
        return self.full_dispatch_request()
    def __call__(self, env):
        return self.wsgi_app(env)
    def get(self):
        return self.make_response(2)
";
        let file = calls(Language::Python, text);
        let chain: Vec<(String, String)> = callers_chain(&file, "App.make_response")
            .into_iter()
            .map(|link| (link.name, link.via))
            .collect();
        assert_eq!(
            chain,
            [
                ("finalize_request".into(), "finalize_request".into()),
                (
                    "full_dispatch_request".into(),
                    "full_dispatch_request → finalize_request".into()
                ),
                (
                    "wsgi_app".into(),
                    "wsgi_app → full_dispatch_request → finalize_request".into()
                ),
            ]
        );
    }

    #[test]
    fn distinctive_words_leave_the_generic_ones_out() {
        assert_eq!(distinctive_words("Flask.make_response"), ["response"]);
        assert_eq!(distinctive_words("res.sendFile"), ["send", "file"]);
        assert!(distinctive_words("Sender.new").is_empty());
        let wanted = distinctive_words("make_response");
        assert_eq!(named_word("test_response_types", &wanted), Some("response"));
        assert_eq!(named_word("test_responses", &wanted), Some("response"));
        assert_eq!(named_word("test_make_request", &wanted), None);
    }
}
