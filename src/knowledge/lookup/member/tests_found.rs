//! The tests `lexi lookup --member` shows for one member, most direct first:
//! - **direct**: the tests reaching the file (`workspace::test_rank`) whose test functions call the
//!   member by name (those named for it first), then the files named for it, then the rest — and a
//!   Rust file's own `#[test]` functions calling it (its inline `mod tests`), first of all;
//! - **indirect** (one member shown whole): the tests of its *delegate* (`res.json` ends with
//!   `this.send(…)`: `test/res.send.js`, "tests of callee send"), the test functions named for one
//!   of its distinctive words (`test_response_types` for `make_response`), and those calling a
//!   member of the file that calls it, up to three levels (test functions only: a helper of a test
//!   file calling a common caller says little) (`via full_dispatch_request →
//!   finalize_request`). Only the first [`TESTS_SEARCHED`] ranked test files are read: a lookup
//!   stays a few milliseconds.

use super::related::{callers_chain, delegate, distinctive_words, named_word};
use super::{last_segment, Member};
use crate::knowledge::impact::DEFAULT_DEPTH;
use crate::source::calls::{decode_types, MemberCalls, Reach};
use crate::workspace::graph::Graph;
use crate::workspace::test_rank::{rank, reached_depths};

/// Test files shown.
pub const TESTS_SHOWN: usize = 8;
/// Lines of indirect tests shown.
pub const INDIRECT_SHOWN: usize = 6;
/// Ranked test files whose test functions are searched for calls of the member.
const TESTS_SEARCHED: usize = 60;
/// Test files of the delegate shown.
const DELEGATE_FILES: usize = 2;

/// A test file and its test functions calling the member.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct TestHit {
    pub file: String,
    pub functions: Vec<String>,
}

/// A test file reaching the member another way, and how.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct IndirectHit {
    pub file: String,
    pub functions: Vec<String>,
    /// `tests of callee send`, `named for "response"`, `via full_dispatch_request → finalize_request`.
    pub via: String,
}

/// The tests found for the members shown.
#[derive(Debug, Default)]
pub struct Found {
    pub tests: Vec<TestHit>,
    /// Test files reaching the file but not shown.
    pub left_out: usize,
    pub indirect: Vec<IndirectHit>,
}

/// The tests of `matches` (members of `source`; `own` its fresh parse's calls).
pub fn relevant_tests(
    graph: Option<&Graph>,
    source: &str,
    matches: &[Member],
    own: &[MemberCalls],
) -> Found {
    let labels: Vec<String> = matches.iter().map(|m| m.label.clone()).collect();
    let names: Vec<&str> = labels.iter().map(|l| last_segment(l)).collect();
    let ranked = match graph {
        Some(graph) => rank(
            source,
            reached_depths(graph, source, DEFAULT_DEPTH),
            &labels,
        ),
        None => Vec::new(),
    };
    let mut searched: Vec<(String, Vec<MemberCalls>)> = Vec::new();
    let inline: Vec<MemberCalls> = own.iter().filter(|m| m.test).cloned().collect();
    if !inline.is_empty() {
        searched.push((source.to_string(), inline));
    }
    if let Some(graph) = graph {
        for file in ranked.iter().take(TESTS_SEARCHED) {
            let encoded = graph.calls(file);
            let decoded: Vec<MemberCalls> = encoded
                .iter()
                .filter_map(|i| MemberCalls::decode(i))
                .collect();
            let members = holding_objects(source, &labels, own, &encoded, decoded);
            searched.push((file.clone(), members));
        }
    }
    let mut direct = direct_hits(&ranked, &searched, source, &names);
    let mut indirect = Vec::new();
    if let [label] = labels.as_slice() {
        indirect = delegate_hits(label, own, &ranked, &searched, &direct, &names);
        // A file shown for its delegate is not listed again as one merely reaching the file.
        direct.retain(|hit| {
            !hit.functions.is_empty() || !indirect.iter().any(|other| other.file == hit.file)
        });
        indirect.extend(indirect_hits(label, own, &searched, &direct));
        indirect.truncate(INDIRECT_SHOWN);
    }
    let shown: Vec<TestHit> = direct.iter().take(TESTS_SHOWN).cloned().collect();
    let left_out = direct.len() - shown.len();
    Found {
        tests: shown,
        left_out,
        indirect,
    }
}

/// Every ranked test file (and the source's own tests) with its functions calling `names`, the
/// most direct first: by [`tier`], then by how many functions are named for the member, then by
/// rank.
fn direct_hits(
    ranked: &[String],
    searched: &[(String, Vec<MemberCalls>)],
    source: &str,
    names: &[&str],
) -> Vec<TestHit> {
    let calling = |file: &str| {
        searched
            .iter()
            .find(|(f, _)| f == file)
            .map(|(_, members)| calling_functions(members, names))
            .unwrap_or_default()
    };
    let mut hits: Vec<(u8, usize, TestHit)> = Vec::new();
    let inline = calling(source);
    if !inline.is_empty() {
        let hit = TestHit {
            file: source.to_string(),
            functions: inline,
        };
        hits.push((0, 0, hit));
    }
    for (order, file) in ranked.iter().enumerate() {
        let functions = calling(file);
        let tier = tier(file, &functions, names);
        let hit = TestHit {
            file: file.clone(),
            functions,
        };
        hits.push((tier, order + 1, hit));
    }
    // Within a tier, the files with more test functions named for the member first.
    let named = |hit: &TestHit| {
        let named = hit
            .functions
            .iter()
            .filter(|f| names_any(last_segment(f), names));
        std::cmp::Reverse(named.count())
    };
    hits.sort_by_key(|(tier, order, hit)| (*tier, named(hit), *order));
    hits.into_iter().map(|(_, _, hit)| hit).collect()
}

/// The test files named for the delegate of the member `label` (its last call of a member of the
/// file) but not for the member, nor shown with functions calling the member: "tests of callee
/// send", [`DELEGATE_FILES`] at most.
fn delegate_hits(
    label: &str,
    own: &[MemberCalls],
    ranked: &[String],
    searched: &[(String, Vec<MemberCalls>)],
    direct: &[TestHit],
    names: &[&str],
) -> Vec<IndirectHit> {
    let Some(callee) = delegate(own, label) else {
        return Vec::new();
    };
    let shown = &direct[..direct.len().min(TESTS_SHOWN)];
    let files = ranked.iter().filter(|file| {
        let name = file.rsplit('/').next().unwrap_or(file);
        names_any(name, &[callee])
            && !names_any(name, names)
            && !shown
                .iter()
                .any(|hit| &hit.file == *file && !hit.functions.is_empty())
    });
    let functions = |file: &str| {
        searched
            .iter()
            .find(|(f, _)| f == file)
            .map(|(_, members)| calling_functions(members, &[callee]))
            .unwrap_or_default()
    };
    files
        .take(DELEGATE_FILES)
        .map(|file| IndirectHit {
            file: file.clone(),
            functions: functions(file),
            via: format!("tests of callee {callee}"),
        })
        .collect()
}

/// The other indirect tests of the member `label`: the test functions named for its distinctive
/// words, those calling its callers — none already a direct hit.
fn indirect_hits(
    label: &str,
    own: &[MemberCalls],
    searched: &[(String, Vec<MemberCalls>)],
    direct: &[TestHit],
) -> Vec<IndirectHit> {
    let mut out: Vec<IndirectHit> = Vec::new();
    let is_direct = |file: &str, function: &str| {
        direct
            .iter()
            .any(|hit| hit.file == file && hit.functions.iter().any(|f| f == function))
    };
    let wanted = distinctive_words(label);
    let chain = callers_chain(own, label);
    for (file, members) in searched {
        let mut named: Vec<(String, &str)> = Vec::new();
        let mut through: Vec<(usize, String)> = Vec::new();
        let tests = members
            .iter()
            .filter(|m| is_test_function(file, m) && !is_direct(file, &m.member));
        for member in tests {
            let link = chain.iter().position(|link| {
                member
                    .callees
                    .iter()
                    .any(|c| Reach::of(c).name() == link.name)
            });
            if let Some(link) = link {
                through.push((link, member.member.clone()));
            } else if let Some(word) = named_word(&member.member, &wanted) {
                named.push((member.member.clone(), word));
            }
        }
        if let Some((_, word)) = named.first() {
            let via = format!("named for \"{word}\"");
            let functions = named.iter().map(|(f, _)| f.clone()).collect();
            out.push(IndirectHit {
                file: file.clone(),
                functions,
                via,
            });
        }
        through.sort_by_key(|(link, _)| *link);
        if let Some((link, _)) = through.first() {
            let via = format!("via {}", chain[*link].via);
            let functions = through.iter().map(|(_, f)| f.clone()).collect();
            out.push(IndirectHit {
                file: file.clone(),
                functions,
                via,
            });
        }
    }
    out
}

/// Whether a member of a test file is a test function: a Rust `#[test]`, a `test…` function, or
/// any function of a Rust test file (`tests/*.rs` names its tests freely).
fn is_test_function(file: &str, member: &MemberCalls) -> bool {
    member.test || last_segment(&member.member).starts_with("test") || file.ends_with(".rs")
}

/// 0: a test function named for the member calls it; 1: the file is named for it; 2: a test
/// function calls it; 3: the rest.
fn tier(file: &str, functions: &[String], names: &[&str]) -> u8 {
    let file_name = file.rsplit('/').next().unwrap_or(file);
    if functions.iter().any(|f| names_any(last_segment(f), names)) {
        0
    } else if names_any(file_name, names) {
        1
    } else if !functions.is_empty() {
        2
    } else {
        3
    }
}

/// Whether `text` names one of `names` (three letters or more) as a whole word: `send_recv` and
/// `test_make_response` do, `weak_sender` does not name `send`.
/// The test functions of a file (its `encoded` calls, `members` decoded) that may hold the objects
/// of the members `labels` of `source`: for a Rust method, all of them when the file names its
/// owner type, else those calling one of the source's free functions (a constructor such as
/// `channel()`) — as `workspace::calls` decides for an importer's calls through objects, so
/// `tokio/tests/udp.rs`'s `socket.send(…)` is no test of `Sender::send`, its `split_chan` (which
/// makes an `mpsc::channel`) is. Free functions, other languages (whose objects are rarely typed
/// in a test) and files mentioning too many types to record: all of them.
fn holding_objects(
    source: &str,
    labels: &[String],
    own: &[MemberCalls],
    encoded: &[String],
    members: Vec<MemberCalls>,
) -> Vec<MemberCalls> {
    let owners: Vec<&str> = labels
        .iter()
        .filter_map(|label| label.rsplit_once('.').map(|(owner, _)| owner))
        .collect();
    if !source.ends_with(".rs") || owners.len() < labels.len() {
        return members;
    }
    let mut types = encoded
        .iter()
        .filter_map(|item| decode_types(item))
        .flatten();
    if types.any(|ty| ty == "*" || owners.contains(&ty)) {
        return members;
    }
    let free: Vec<&str> = own
        .iter()
        .filter(|m| !m.member.contains('.') && !m.test)
        .map(|m| m.member.as_str())
        .collect();
    members
        .into_iter()
        .filter(|m| {
            m.callees
                .iter()
                .any(|callee| free.contains(&Reach::of(callee).name()))
        })
        .collect()
}

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

/// The members of a test file calling one of `names`, those named for it first.
pub fn calling_functions(members: &[MemberCalls], names: &[&str]) -> Vec<String> {
    let mut found: Vec<String> = members
        .iter()
        .filter(|member| {
            member
                .callees
                .iter()
                .any(|callee| names.contains(&Reach::of(callee).name()))
        })
        .map(|member| member.member.clone())
        .collect();
    found.dedup();
    found.sort_by_key(|function| !names_any(last_segment(function), names));
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn test_functions_calling_the_member_named_for_it_first() {
        let decoded = |items: &[String]| -> Vec<MemberCalls> {
            items
                .iter()
                .filter_map(|i| MemberCalls::decode(i))
                .collect()
        };
        let encoded = labels(&[
            "test_response_types .make_response .get",
            "test_other .get",
            "test_make_response_twice .make_response",
            "test_make_response make_response",
            "helper Flask.make_response",
        ]);
        assert_eq!(
            calling_functions(&decoded(&encoded), &["make_response"]),
            [
                "test_make_response_twice",
                "test_make_response",
                "test_response_types",
                "helper"
            ]
        );
        let calling = ["test_make_response".to_string()];
        assert_eq!(tier("tests/test_basic.py", &calling, &["make_response"]), 0);
        assert_eq!(tier("test/res.json.js", &[], &["json"]), 1);
        assert_eq!(tier("test/app.js", &["helper".into()], &["json"]), 2);
        assert_eq!(tier("test/app.js", &[], &["json"]), 3);
        assert!(names_any("send_recv", &["send"]) && names_any("abort_send", &["send"]));
        assert!(!names_any("weak_sender", &["send"]) && !names_any("resend", &["send"]));
        assert!(!names_any("test_a", &["a"]));
    }
}
