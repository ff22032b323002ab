//! The tests `lexi lookup --member` shows for one member — the tests that exercise *it*, not its
//! file — most direct first:
//! 1. **calling it**: test functions (Python `test_*`, Rust `#[test]` and every function of a Rust
//!    test file, JavaScript `it('…', …)` cases) that call the member — a bare call of a free
//!    function, `Type::name()`, or a call through an object that may be one of its own: named for
//!    its type or file (`res.json(…)`, `app.make_response(…)`, `sem.acquire()` of a
//!    `Semaphore`), never a package (`flask.make_response` is not `Flask.make_response`) nor an
//!    unknown object (`request(app).send(…)`). Those named for the member first; a Rust file's own
//!    `#[test]` functions (its inline `mod tests`) before all;
//! 2. **through a few in-file hops**: test functions calling a helper of their file that calls it
//!    (two helpers deep), or a member of its file that calls it, up to three levels (`via
//!    full_dispatch_request → finalize_request`);
//!    When no test calls it, the tests calling its **callers in other files** (one hop: `via
//!    url_for (src/flask/helpers.py)` for `Flask.url_for`);
//! 3. test files **named for it** (`test/res.json.js`), when nothing in them was seen calling it;
//! 4. the tests of its **delegate** — the last member of its file it calls (`res.json` ends with
//!    `this.send(body)`: `test/res.send.js`, "tests of callee send");
//! 5. only when none of these exists, test functions **named for** one of its distinctive words
//!    (`test_response_types` for `make_response`), labelled so.
//!
//! The tests that merely reach its file (by imports) are counted, never listed: `lexi impact`
//! lists them. At most [`TESTS_SHOWN`] lines are shown, then how many more were found
//! (`--all` shows them). Test files are the ones `workspace::test_rank` finds reaching the file
//! (never a fixture, a `conftest.py` or a helper other tests import); only the first
//! [`TESTS_SEARCHED`] of them are read, so a lookup stays a few milliseconds.

use std::collections::BTreeSet;

use super::related::{callers_chain, delegate, distinctive_words, named_word, words};
use super::{last_segment, Member};
use crate::knowledge::impact::DEFAULT_DEPTH;
use crate::relpath::RelPath;
use crate::source::calls::{decode_reexports, std_modules_of, Callee, MemberCalls};
use crate::workspace::calls::{squashed, Caller};
use crate::workspace::graph::Graph;
use crate::workspace::test_rank::{rank, reached_depths};

/// Test lines shown (all with `--all`).
pub const TESTS_SHOWN: usize = 5;
/// Ranked test files whose test functions are read.
const TESTS_SEARCHED: usize = 100;
/// Helpers of a test file followed from a test function to the member.
const HELPER_HOPS: usize = 2;
/// Callers (files, and members of each) whose tests [`caller_tests`] looks for.
const CALLERS_FOLLOWED: usize = 2;
/// Test files of the delegate shown.
const DELEGATE_FILES: usize = 2;
/// Test files a word of a member's name may name test functions in and still be told as what
/// names them for the member (`named for "response"`); a word more files share is too common.
const NAMED_WORD_FILES: usize = 3;

/// A test file and its test functions exercising the member, and how (`None`: they call it).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TestHit {
    pub file: String,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub functions: Vec<String>,
    /// `via make_app`, `via full_dispatch_request → finalize_request`, `named for json`,
    /// `tests of callee send`, `named for "response"`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
}

/// The tests found for the members shown.
#[derive(Debug, Default)]
pub struct Found {
    /// The tests shown, most direct first.
    pub tests: Vec<TestHit>,
    /// Tests found for the member but not shown (`--all` shows them).
    pub left_out: usize,
    /// Other test files reaching the member's file, not shown.
    pub reaching: usize,
    /// Those files, in `lexi impact`'s order.
    pub reaching_files: Vec<String>,
}

/// What a test's call must look like to be one of the member's.
struct Wanted<'a> {
    names: Vec<&'a str>,
    /// The receivers that may be the member's objects, lowercased without `_`.
    objects: Vec<String>,
    /// Receivers that are packages, not objects (`flask` of `src/flask/app.py` for a method).
    packages: Vec<String>,
    /// A free function is among the members: a bare call may be one of its.
    free: bool,
    /// The members' owner types (`App`, `Buffer`): a test constructing one holds its objects.
    owners: Vec<String>,
    /// The free functions of the members' file (a constructor such as `channel()`): a test
    /// calling one may hold its objects.
    makers: Vec<String>,
}

/// The tests of `matches` (members of `source`; `own` its fresh parse's calls); all of them when
/// `all`, else the first [`TESTS_SHOWN`].
pub fn relevant_tests(
    graph: Option<&Graph>,
    source: &str,
    matches: &[Member],
    own: &[MemberCalls],
    all: bool,
) -> Found {
    let labels: Vec<String> = matches.iter().map(|m| m.label.clone()).collect();
    let callers = match matches {
        [member] => member.called_from.as_slice(),
        _ => &[],
    };
    tests_of(graph, source, &labels, callers, own, all)
}

/// [`relevant_tests`] of the members `labels` of `source`, with the callers in other files of the
/// one member asked for (`callers`: their tests count when no test calls it).
fn tests_of(
    graph: Option<&Graph>,
    source: &str,
    labels: &[String],
    callers: &[Caller],
    own: &[MemberCalls],
    all: bool,
) -> Found {
    let labels = labels.to_vec();
    let names: Vec<&str> = labels.iter().map(|l| last_segment(l)).collect();
    let ranked = match graph {
        Some(graph) => rank(
            source,
            reached_depths(graph, source, DEFAULT_DEPTH),
            &labels,
        ),
        None => Vec::new(),
    };
    let mut wanted = wanted(graph, source, &labels, names.clone());
    wanted.makers = own
        .iter()
        .filter(|m| m.container().is_none() && !m.test)
        .map(|m| m.member.clone())
        .collect();
    let mut searched: Vec<(String, Vec<MemberCalls>)> = Vec::new();
    let inline: Vec<MemberCalls> = own.iter().filter(|m| m.test).cloned().collect();
    if !inline.is_empty() {
        searched.push((source.to_string(), inline));
    }
    if let Some(graph) = graph {
        for file in ranked.iter().take(TESTS_SEARCHED) {
            let decoded: Vec<MemberCalls> = graph.member_calls(file).to_vec();
            let members = holding_objects(source, &labels, own, (graph, file), decoded);
            searched.push((file.clone(), members));
        }
        // The inline tests of the files depending on it (a Rust `#[cfg(test)] mod tests` of a
        // sibling module calling it): test functions wherever they live.
        for file in graph.dependents(source) {
            if file == source || ranked.contains(&file) {
                continue;
            }
            let decoded = test_functions(&graph.member_calls(&file));
            if !decoded.is_empty() {
                let members = holding_objects(source, &labels, own, (graph, &file), decoded);
                searched.push((file, members));
            }
        }
        // A file nothing imports (a `#[cfg(test)]` module's helper): the tests calling its type's
        // methods through that stated type without an edge to it (ripgrep's glue.rs tests and
        // testutil.rs's `SearcherTester`).
        let imported = !graph.dependents(source).is_empty();
        let types: BTreeSet<&str> = labels
            .iter()
            .filter(|_| !imported)
            .filter_map(|label| label.rsplit_once('.').map(|(owner, _)| owner))
            .filter(|owner| owner.starts_with(char::is_uppercase))
            .collect();
        let types: Vec<&str> = types.into_iter().collect();
        for file in graph.typed_callers(&types, source).into_values().flatten() {
            if searched.iter().any(|(known, _)| *known == file) || ranked.contains(&file) {
                continue;
            }
            let decoded = test_functions(&graph.member_calls(&file));
            if !decoded.is_empty() {
                searched.push((file, decoded));
            }
        }
    }
    let chain = match labels.as_slice() {
        [label] => callers_chain(own, label),
        _ => Vec::new(),
    };
    let mut hits: Vec<(u8, TestHit)> = Vec::new();
    for (file, members) in &searched {
        hits.extend(calling_hits(file, members, &wanted, &chain));
    }
    let seen = |hits: &[(u8, TestHit)], file: &str| hits.iter().any(|(_, h)| h.file == file);
    if let (Some(graph), false) = (graph, hits.iter().any(|(tier, _)| *tier <= 2)) {
        for hit in caller_tests(graph, callers) {
            if !seen(&hits, &hit.file) {
                hits.push((3, hit));
            }
        }
    }
    for file in &ranked {
        let name = RelPath::new(file).file_name();
        if names_any(name, &names) && !seen(&hits, file) {
            let named = names.iter().find(|n| names_any(name, &[n])).copied();
            hits.push((
                3,
                TestHit {
                    file: file.clone(),
                    functions: Vec::new(),
                    via: named.map(|n| format!("named for {n}")),
                },
            ));
        }
    }
    if let [label] = labels.as_slice() {
        for hit in delegate_hits(label, own, &ranked, &searched, &names) {
            if !seen(&hits, &hit.file) {
                hits.push((4, hit));
            }
        }
        if hits.is_empty() {
            hits.extend(
                named_hits(source, label, &searched)
                    .into_iter()
                    .map(|h| (5, h)),
            );
        }
    }
    // Within a tier, more functions named for the member first, then by rank.
    let order = |file: &str| ranked.iter().position(|f| f == file).unwrap_or(0);
    let named = |hit: &TestHit| {
        let count = hit
            .functions
            .iter()
            .filter(|f| names_any(last_segment(f), &names))
            .count();
        std::cmp::Reverse(count)
    };
    hits.sort_by_key(|(tier, hit)| {
        let inline = hit.file != source;
        (inline, *tier, named(hit), order(&hit.file))
    });
    let found: BTreeSet<&str> = hits.iter().map(|(_, h)| h.file.as_str()).collect();
    let reaching_files: Vec<String> = ranked
        .iter()
        .filter(|f| !found.contains(f.as_str()))
        .cloned()
        .collect();
    let reaching = reaching_files.len();
    let shown = match all {
        true => hits.len(),
        false => hits.len().min(TESTS_SHOWN),
    };
    let left_out = hits.len() - shown;
    Found {
        tests: hits.into_iter().take(shown).map(|(_, h)| h).collect(),
        left_out,
        reaching,
        reaching_files,
    }
}

/// The test functions among a file's members.
fn test_functions(members: &[MemberCalls]) -> Vec<MemberCalls> {
    members
        .iter()
        .filter(|member| member.test)
        .cloned()
        .collect()
}

/// The tests calling the first [`CALLERS_FOLLOWED`] callers of a member in other code files, when
/// no test calls the member itself: flask's `Flask.url_for` is called by tests only through the
/// `flask.url_for` helper (`via url_for (src/flask/helpers.py)`). One hop: a caller's own callers
/// are not followed.
fn caller_tests(graph: &Graph, callers: &[Caller]) -> Vec<TestHit> {
    let mut out: Vec<TestHit> = Vec::new();
    let code_callers = callers
        .iter()
        .filter(|caller| !crate::archivist::is_test_path(&caller.file));
    for caller in code_callers.take(CALLERS_FOLLOWED) {
        let own: Vec<MemberCalls> = graph.member_calls(&caller.file).to_vec();
        for label in caller.members.iter().take(CALLERS_FOLLOWED) {
            let found = tests_of(
                Some(graph),
                &caller.file,
                std::slice::from_ref(label),
                &[],
                &own,
                false,
            );
            for mut hit in found.tests.into_iter().filter(|hit| hit.via.is_none()) {
                if out.iter().all(|seen| seen.file != hit.file) {
                    hit.via = Some(format!("via {label} ({})", caller.file));
                    out.push(hit);
                }
            }
        }
    }
    out
}

/// A file's name without its directory and extensions; a package's `__init__`, `mod.rs`,
/// `index.js`, `lib.rs` take their directory's name (`flask` of `src/flask/__init__.py`).
fn stem_of(path: &str) -> &str {
    crate::source::lang::files::module_name(path)
}

/// The receivers a test's call of the members `labels` of `source` may go through.
fn wanted<'a>(
    graph: Option<&Graph>,
    source: &str,
    labels: &[String],
    names: Vec<&'a str>,
) -> Wanted<'a> {
    let mut dirs: Vec<&str> = source.split('/').collect();
    dirs.pop();
    let stem = stem_of(source);
    let free = labels.iter().any(|l| !l.contains('.'));
    let mut objects: Vec<String> = vec![squashed(stem)];
    objects.extend(
        labels
            .iter()
            .filter_map(|l| l.rsplit_once('.').map(|(owner, _)| squashed(owner))),
    );
    let mut packages: Vec<String> = Vec::new();
    match free {
        // A free function is called through its module or a package re-exporting it.
        true => {
            objects.extend(dirs.iter().map(|d| squashed(d)));
            if let Some(graph) = graph {
                for importer in graph.dependents(source) {
                    let reexports = graph.calls(&importer).iter().any(|item| {
                        decode_reexports(item).is_some_and(|mut n| n.any(|n| names.contains(&n)))
                    });
                    if reexports {
                        objects.push(squashed(stem_of(&importer)));
                    }
                }
            }
        }
        false => packages.extend(dirs.iter().map(|d| squashed(d))),
    }
    objects.retain(|o| o.len() >= 2);
    objects.sort();
    objects.dedup();
    // A package is never an object of the file, even named as one of its types (`flask`,
    // `Flask`); the file's own stem may be (`app` of `app.py`).
    packages.retain(|p| *p != squashed(stem));
    let owners = labels
        .iter()
        .filter_map(|l| l.rsplit_once('.').map(|(owner, _)| owner.to_string()))
        .collect();
    Wanted {
        names,
        objects,
        packages,
        free,
        owners,
        makers: Vec::new(),
    }
}

impl Wanted<'_> {
    /// Whether a call through `receiver` may be on one of the member's objects: named for its
    /// type or file (`permit`, `app`), or shortened from it (`sem` of `semaphore`).
    fn object(&self, receiver: &str) -> bool {
        let receiver = squashed(receiver);
        if self.packages.contains(&receiver) {
            return false;
        }
        self.objects.iter().any(|object| {
            receiver.ends_with(object.as_str())
                || (receiver.len() >= 3 && object.starts_with(receiver.as_str()))
        })
    }

    /// Whether `member` calls one of the members wanted: a bare call of a free one, a call
    /// through an object that may be its (see [`Wanted::object`]), or — when `member` makes one of
    /// its objects (`App()`, `Buffer::new()`, `chan::channel()`) — through any object but a
    /// package or `self`.
    fn called_by(&self, member: &MemberCalls) -> bool {
        let holds = || self.holds_objects(member);
        member.callees.iter().any(|callee| {
            let name = callee.name();
            match callee {
                Callee::Bare(_) => self.free && self.names.contains(&name),
                Callee::OwnObject(_) => false,
                Callee::TypePath { ty, .. } => self.names.contains(&name) && self.object(ty),
                // A Go package is matched as a receiver named so.
                Callee::Receiver { .. } | Callee::TypedReceiver { .. } | Callee::Package { .. } => {
                    self.names.contains(&name)
                        && match callee.receiver() {
                            Some(receiver) => {
                                self.object(receiver) || (!self.package(receiver) && holds())
                            }
                            None => holds(),
                        }
                }
            }
        })
    }

    /// Whether `member` constructs an owner type (`App()`, `Buffer::new()`) or calls a free
    /// function of the file (`channel()`, `mpsc::channel()` through a package it sits in).
    fn holds_objects(&self, member: &MemberCalls) -> bool {
        member.callees.iter().any(|callee| match callee {
            Callee::Bare(name) => {
                self.owners.iter().any(|o| o == name) || self.makers.iter().any(|m| m == name)
            }
            Callee::OwnObject(_) => false,
            Callee::TypePath { ty, .. } => self.owners.iter().any(|o| o == ty),
            Callee::Receiver { .. } | Callee::TypedReceiver { .. } | Callee::Package { .. } => {
                callee.receiver().is_some_and(|receiver| {
                    self.makers.iter().any(|m| m == callee.name())
                        && (self.object(receiver) || self.package(receiver))
                })
            }
        })
    }

    /// Whether `receiver` is one of the packages the file sits in.
    fn package(&self, receiver: &str) -> bool {
        self.packages.contains(&squashed(receiver))
    }
}

/// The test functions of one file calling the member, directly (tier 0), through helpers of the
/// file or members of the member's file calling it (tier 1).
fn calling_hits(
    file: &str,
    members: &[MemberCalls],
    wanted: &Wanted<'_>,
    chain: &[super::related::ChainLink],
) -> Vec<(u8, TestHit)> {
    let tests: Vec<&MemberCalls> = members
        .iter()
        .filter(|m| is_test_function(file, m))
        .collect();
    let direct: Vec<String> = tests
        .iter()
        .filter(|m| wanted.called_by(m))
        .map(|m| m.member.clone())
        .collect();
    let mut out: Vec<(u8, TestHit)> = Vec::new();
    if !direct.is_empty() {
        let mut functions = direct.clone();
        functions.sort_by_key(|f| !names_any(last_segment(f), &wanted.names));
        out.push((
            0,
            TestHit {
                file: file.to_string(),
                functions,
                via: None,
            },
        ));
    }
    // Helpers of the file calling the member, and the helpers calling those.
    let mut helpers: Vec<(String, String)> = members
        .iter()
        .filter(|m| !is_test_function(file, m) && wanted.called_by(m))
        .map(|m| (m.name().to_string(), m.name().to_string()))
        .collect();
    for _ in 1..HELPER_HOPS {
        let more: Vec<(String, String)> = members
            .iter()
            .filter(|m| !is_test_function(file, m))
            .filter(|m| helpers.iter().all(|(name, _)| name != m.name()))
            .filter_map(|m| {
                let via = helpers.iter().find(|(name, _)| calls_name(m, name))?;
                Some((m.name().to_string(), format!("{} → {}", m.name(), via.1)))
            })
            .collect();
        helpers.extend(more);
    }
    let mut through: Vec<(String, String)> = Vec::new();
    for test in tests.iter().filter(|m| !direct.contains(&m.member)) {
        let helper = helpers.iter().find(|(name, _)| calls_name(test, name));
        let link = chain.iter().find(|link| match &link.container {
            Some(container) => calls_method(test, container, &link.name),
            None => calls_name(test, &link.name),
        });
        let via = match (helper, link) {
            (Some((_, via)), _) => via.clone(),
            (None, Some(link)) => link.via.clone(),
            (None, None) => continue,
        };
        through.push((via, test.member.clone()));
    }
    if let Some((via, _)) = through.first() {
        let via = format!("via {via}");
        out.push((
            1,
            TestHit {
                file: file.to_string(),
                functions: through.into_iter().map(|(_, f)| f).collect(),
                via: Some(via),
            },
        ));
    }
    out
}

/// Whether `member` calls the method `name` of `container`: through the type
/// (`Glob::from_str`), its own object, or an object named for the type (`glob.from_str()`) —
/// never bare nor through another path (`serde_json::from_str(…)` is no call of
/// `Glob::from_str`).
fn calls_method(member: &MemberCalls, container: &str, name: &str) -> bool {
    let owner = squashed(container);
    member.callees.iter().any(|callee| match callee {
        Callee::Bare(_) => false,
        Callee::OwnObject(own) => own == name,
        Callee::TypePath { ty, name: called } => called == name && ty == container,
        // A Go package is matched as a receiver named so.
        Callee::Receiver { .. } | Callee::TypedReceiver { .. } | Callee::Package { .. } => {
            let receiver = callee.receiver().map(squashed);
            callee.name() == name
                && receiver
                    .is_none_or(|r| r.contains(&owner) || (r.len() >= 3 && owner.contains(&r)))
        }
    })
}

/// Whether `member` calls a function of this name (any way: a helper is called bare, a member of
/// the source through an object).
fn calls_name(member: &MemberCalls, name: &str) -> bool {
    member.callees.iter().any(|callee| callee.name() == name)
}

/// The test files named for the delegate of the member `label` (its last call of a member of the
/// file) but not for the member: "tests of callee send", [`DELEGATE_FILES`] at most.
fn delegate_hits(
    label: &str,
    own: &[MemberCalls],
    ranked: &[String],
    searched: &[(String, Vec<MemberCalls>)],
    names: &[&str],
) -> Vec<TestHit> {
    let Some(callee) = delegate(own, label) else {
        return Vec::new();
    };
    // The delegate is called through the member's own object (`this.set` of `app.…`): a test
    // file named for another object's method of that name (`res.set.js`) is not its.
    let container = label.rsplit_once('.').map(|(container, _)| container);
    let files = ranked.iter().filter(|file| {
        let name = RelPath::new(file).file_name();
        names_any(name, &[callee])
            && !names_any(name, names)
            && !names_another_object(name, callee, container)
    });
    let functions = |file: &str| {
        searched
            .iter()
            .find(|(f, _)| f == file)
            .map(|(_, members)| {
                let mut calling: Vec<String> = members
                    .iter()
                    .filter(|m| is_test_function(file, m) && calls_name(m, callee))
                    .map(|m| m.member.clone())
                    .collect();
                calling.dedup();
                calling
            })
            .unwrap_or_default()
    };
    files
        .take(DELEGATE_FILES)
        .map(|file| TestHit {
            file: file.clone(),
            functions: functions(file),
            via: Some(format!("tests of callee {callee}")),
        })
        .collect()
}

/// Whether a test file's name puts another object before `callee` (`res.set.js` when the
/// delegate is `app.set`): `<object>.<callee>.<ext>`, the object not `container`.
fn names_another_object(file_name: &str, callee: &str, container: Option<&str>) -> bool {
    let Some(container) = container else {
        return false;
    };
    let parts: Vec<&str> = file_name.split('.').collect();
    parts
        .windows(2)
        .any(|pair| pair[1] == callee && !pair[0].eq_ignore_ascii_case(container))
}

/// The test functions named for a distinctive word of the member (`test_response_types` for
/// `make_response`): what is shown when nothing better was found, labelled so. A word of its own
/// name only — not one its file or its class is named for (`app` of `Flask.wsgi_app` in `app.py`
/// names half the suite) — and only while it names test functions in at most
/// [`NAMED_WORD_FILES`] files: a word more tests share tells nothing of this member.
fn named_hits(source: &str, label: &str, searched: &[(String, Vec<MemberCalls>)]) -> Vec<TestHit> {
    let mut around = words(stem_of(source));
    if let Some((container, _)) = label.rsplit_once('.') {
        around.extend(words(container));
    }
    let wanted: Vec<String> = distinctive_words(last_segment(label))
        .into_iter()
        .filter(|w| !around.contains(w))
        .collect();
    let mut out: Vec<TestHit> = Vec::new();
    for (file, members) in searched {
        let named: Vec<(String, &str)> = members
            .iter()
            .filter(|m| is_test_function(file, m))
            .filter_map(|m| Some((m.member.clone(), named_word(&m.member, &wanted)?)))
            .collect();
        // One line per word, each function under the word its name has.
        let mut words: Vec<&str> = named.iter().map(|(_, w)| *w).collect();
        words.dedup();
        let mut seen = BTreeSet::new();
        for word in words.into_iter().filter(|w| seen.insert(*w)) {
            out.push(TestHit {
                file: file.clone(),
                functions: named
                    .iter()
                    .filter(|(_, w)| *w == word)
                    .map(|(f, _)| f.clone())
                    .collect(),
                via: Some(format!("named for \"{word}\"")),
            });
        }
    }
    let files_named = |via: &Option<String>| out.iter().filter(|h| &h.via == via).count();
    let common: Vec<Option<String>> = out
        .iter()
        .map(|h| h.via.clone())
        .filter(|via| files_named(via) > NAMED_WORD_FILES)
        .collect();
    out.retain(|h| !common.contains(&h.via));
    out
}

/// Whether a member of a test file is a test function: a Rust `#[test]` or a JavaScript test case
/// (marked so), a `test…` function (Python, and `TestX.test_y`), or any function of a Rust test
/// file (`tests/*.rs` names its tests freely).
fn is_test_function(file: &str, member: &MemberCalls) -> bool {
    member.test || last_segment(&member.member).starts_with("test") || file.ends_with(".rs")
}

/// The members of a test file (`members` decoded) that may hold the objects of the members
/// `labels` of `source`: for a Rust method, those that name an owner type (`Sender::new(…)`, a
/// parameter `tx: Sender<T>`) or call one of the source's free functions, bare or through a
/// module the source may be (`mpsc::channel()` of `sync/mpsc/bounded.rs`) — as
/// `workspace::calls` decides for an importer's calls through objects, so `tokio/tests/udp.rs`'s
/// `socket.send(…)` is no test of `Sender::send`, nor a test's `send.send(…)` on what
/// `oneshot::channel()` — or `mpsc::channel()` in a file binding `mpsc` to the standard library
/// (read from the test file's items in `graph`) — made; its `split_chan` (which makes an `mpsc::channel`) is. Free
/// functions and other languages (whose objects are rarely typed in a test): all of them.
fn holding_objects(
    source: &str,
    labels: &[String],
    own: &[MemberCalls],
    (graph, file): (&Graph, &str),
    members: Vec<MemberCalls>,
) -> Vec<MemberCalls> {
    let owners: Vec<&str> = labels
        .iter()
        .filter_map(|label| label.rsplit_once('.').map(|(owner, _)| owner))
        .collect();
    if !source.ends_with(".rs") || owners.len() < labels.len() {
        return members;
    }
    let free: Vec<&str> = own
        .iter()
        .filter(|m| !m.member.contains('.') && !m.test)
        .map(|m| m.member.as_str())
        .collect();
    let items = graph.calls(file);
    let std_modules = std_modules_of(&items);
    let modules: Vec<String> = source
        .split('/')
        .map(|part| part.split('.').next().unwrap_or(part))
        .chain(std::iter::once(stem_of(source)))
        .map(squashed)
        .collect();
    let holds = |callee: &Callee| match callee {
        Callee::TypePath { ty, .. } | Callee::TypedReceiver { ty, .. } => {
            owners.contains(&ty.as_str())
        }
        Callee::Bare(name) => free.contains(&name.as_str()),
        Callee::Receiver { .. } | Callee::Package { .. } => {
            free.contains(&callee.name())
                && callee.receiver().is_some_and(|module| {
                    modules.contains(&squashed(module)) && !std_modules.contains(&module)
                })
        }
        Callee::OwnObject(_) => false,
    };
    members
        .into_iter()
        .filter(|m| m.callees.iter().any(holds))
        .collect()
}

/// Whether `text` names one of `names` (three letters or more) as a whole word: `send_recv` and
/// `test_make_response` do, `weak_sender` does not name `send`.
pub fn names_any(text: &str, names: &[&str]) -> bool {
    let text = text.to_ascii_lowercase();
    let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_ascii_alphanumeric());
    names.iter().filter(|name| name.len() >= 3).any(|name| {
        let name = name.to_ascii_lowercase();
        text.match_indices(&name).any(|(at, _)| {
            boundary(text[..at].chars().next_back())
                && boundary(text[at + name.len()..].chars().next())
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(label: &str, callees: &[&str], test: bool) -> MemberCalls {
        MemberCalls {
            member: label.to_string(),
            callees: callees
                .iter()
                .map(|c| c.parse().expect("a callee"))
                .collect(),
            test,
            ..MemberCalls::default()
        }
    }

    fn wanted_for<'a>(source: &str, labels: &[&str], names: Vec<&'a str>) -> Wanted<'a> {
        let labels: Vec<String> = labels.iter().map(|l| l.to_string()).collect();
        let mut wanted = wanted(None, source, &labels, names);
        wanted.makers = vec!["channel".to_string()];
        wanted
    }

    #[test]
    fn a_test_calls_the_member_through_its_own_objects_only() {
        let res = wanted_for("lib/response.js", &["res.json"], vec!["json"]);
        assert!(res.called_by(&member("sends", &[".json@res"], true)));
        assert!(!res.called_by(&member("parses", &[".json@express"], true)));
        assert!(!res.called_by(&member("posts", &[".json"], true)));
        assert!(!res.called_by(&member("local", &["^json"], true)));
        let app = wanted_for(
            "src/flask/app.py",
            &["Flask.make_response"],
            vec!["make_response"],
        );
        assert!(app.called_by(&member("t", &[".make_response@app"], true)));
        assert!(!app.called_by(&member("t", &[".make_response@flask"], true)));
        assert!(!app.called_by(&member("t", &["make_response"], true)));
        let helper = wanted_for(
            "src/flask/helpers.py",
            &["make_response"],
            vec!["make_response"],
        );
        assert!(helper.called_by(&member("t", &[".make_response@flask"], true)));
        assert!(helper.called_by(&member("t", &["make_response"], true)));
        let sem = wanted_for(
            "tokio/src/sync/semaphore.rs",
            &["Semaphore.acquire"],
            vec!["acquire"],
        );
        assert!(sem.called_by(&member("t", &[".acquire@sem"], true)));
        assert!(sem.called_by(&member("t", &[".acquire@semaphore"], true)));
        assert!(!sem.called_by(&member("t", &[".acquire@lock"], true)));
        // A test making the objects (`Semaphore::new(1).acquire()`, `Flask().make_response(x)`,
        // `let tx = chan::channel(); tx.send(1)`) calls through them.
        assert!(sem.called_by(&member("t", &["Semaphore.new", ".acquire"], true)));
        assert!(!sem.called_by(&member("t", &["Mutex.new", ".acquire"], true)));
        assert!(app.called_by(&member("t", &["Flask", ".make_response"], true)));
        let chan = wanted_for("src/chan.rs", &["Sender.send"], vec!["send"]);
        assert!(chan.called_by(&member("t", &[".channel@chan", ".send@tx"], true)));
        assert!(!chan.called_by(&member("t", &[".send@socket"], true)));
        // A supertest chain (`request(app).post('/').send(body)`) is not a response's `send`.
        let res = wanted_for("lib/response.js", &["res.send"], vec!["send"]);
        assert!(!res.called_by(&member("t", &["request", ".post", ".send"], true)));
    }

    #[test]
    fn helpers_of_the_test_file_are_followed_two_hops() {
        let wanted = wanted_for("lib/response.js", &["res.json"], vec!["json"]);
        let file = [
            member("createApp", &[".json@res"], false),
            member("makeServer", &["createApp"], false),
            member("should_send_json", &["makeServer", ".expect"], true),
            member("should_call_it", &[".json@res"], true),
            member("unrelated", &[".get"], true),
        ];
        let hits = calling_hits("test/res.json.js", &file, &wanted, &[]);
        assert_eq!(hits.len(), 2);
        assert_eq!(hits[0].1.functions, ["should_call_it"]);
        assert_eq!(hits[1].1.functions, ["should_send_json"]);
        assert_eq!(hits[1].1.via.as_deref(), Some("via makeServer → createApp"));
    }

    #[test]
    fn a_test_file_named_for_another_objects_method_is_not_the_delegates() {
        assert!(names_another_object("res.set.js", "set", Some("app")));
        assert!(!names_another_object("app.set.js", "set", Some("app")));
        assert!(!names_another_object("set.js", "set", Some("app")));
        assert!(!names_another_object("res.set.js", "set", None));
    }

    #[test]
    fn names_are_whole_words() {
        assert!(names_any("send_recv", &["send"]) && names_any("abort_send", &["send"]));
        assert!(!names_any("weak_sender", &["send"]) && !names_any("resend", &["send"]));
        assert!(!names_any("test_a", &["a"]));
        assert!(names_any("test/res.json.js", &["json"]));
    }
}
