//! `lexi lookup <file> --member <name>`: one member of a file, whole — what an agent about to change
//! `make_response` needs and nothing else: its signature (under the headers it sits in), its whole
//! doc (every paragraph, parameters, returns, errors, lists; code examples left out), the members of
//! the file it calls and that call it, the neighbours' members calling it (`workspace::calls`, read
//! from the graph of the last update), and the tests most relevant to it: the tests that reach the
//! file (`workspace::test_rank`), those with test functions calling the member by name first (the
//! graph records every test function's calls), then those named for it.
//!
//! A name matches a member by its qualified label (`Flask.make_response`, `res.json`,
//! `Sender::send` = `Sender.send`), else by its last segment (`make_response`, `json`, `send`);
//! several matches are each shown compactly (signature and first paragraph). A name no member of
//! the file declares is looked for in the bases of its classes, and a member without a doc gets the
//! doc of the member it overrides (`member/inherit.rs`). An unknown name is an error naming the
//! closest members.

use anyhow::{bail, Context as _};

use super::{lookup, Staleness};
use crate::source::{extract, Language, OutlineLine};
use crate::workspace::calls::{Caller, CallsView, KeyGroup};
use crate::workspace::Workspace;

mod inherit;
mod outside;
mod related;
mod render;
mod tests_found;

pub use related::Related;
pub use tests_found::{IndirectHit, TestHit, TESTS_SHOWN};

/// The doc budget of a member shown whole, in bytes (about 1,500 tokens).
pub const DOC_BYTES: usize = 6_000;
/// Test functions named per test file, and calling members per caller file.
pub const FUNCTIONS_SHOWN: usize = 3;
/// Caller files named in Called from.
pub const CALLER_FILES_SHOWN: usize = 5;

/// Everything `lexi lookup --member` reports.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MemberLookup {
    pub source: String,
    /// The name asked for.
    pub member: String,
    pub staleness: Staleness,
    pub stale: bool,
    /// The warnings a plain lookup prints above the design file.
    pub warnings: Vec<String>,
    /// The members the name matched, in source order.
    pub matches: Vec<Member>,
    /// The most relevant tests, best first.
    pub tests: Vec<TestHit>,
    /// Tests that reach the file but are not shown.
    pub tests_left_out: usize,
    /// Tests that reach the member without calling it (one member shown whole): through its
    /// delegate, its callers, or named for it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub indirect_tests: Vec<IndirectHit>,
}

/// One member of the file.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Member {
    /// `Container.name`, or `name` for a top-level member.
    pub label: String,
    pub kind: &'static str,
    /// Its signature line under the headers it sits in, indented two spaces a level.
    pub signature: String,
    /// Its whole doc (code examples left out), cut to the answer's budget.
    pub doc: Option<String>,
    /// The doc was longer than shown: than the budget, or than its first paragraph (`compact`).
    pub doc_cut: bool,
    /// Shown compactly (several members matched): the doc's first paragraph only.
    pub compact: bool,
    /// Code examples left out of the doc.
    pub examples_left_out: usize,
    /// Members of the file it calls.
    pub calls: Vec<String>,
    /// The literal keys it passes to what it calls (`app.get('json spaces')`), by callee.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<KeyGroup>,
    /// Its calls that leave the file: `router.handle`, `finalhandler`, `Instant::now`
    /// (`member/outside.rs`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub calls_elsewhere: Vec<String>,
    /// Members of the file calling it.
    pub called_by: Vec<String>,
    /// Members of the neighbours (importers and imports) calling it.
    pub called_from: Vec<Caller>,
    /// Not declared in the file: `Base (base/file.py)`, the class it is inherited from
    /// (`member/inherit.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inherited_from: Option<String>,
    /// Its doc is the doc of the member it overrides: `Base.name, base/file.py`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc_inherited_from: Option<String>,
    /// What it raises, throws or returns as an error, from its own body (`source::raises`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub raises: Vec<String>,
    /// Members of the file sharing callees or literal keys with it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
}

/// `lexi lookup <source> --member <name>`.
pub fn lookup_member(ws: &Workspace, source: &str, name: &str) -> anyhow::Result<MemberLookup> {
    let found = lookup(ws.project(), source)?;
    let language = Language::from_path(std::path::Path::new(source)).with_context(|| {
        format!("{source}: members are known only in Rust, Python, JavaScript and TypeScript files")
    })?;
    let bytes = ws
        .project()
        .read(source)
        .with_context(|| format!("cannot read {source}"))?;
    let interface = extract(language, &String::from_utf8_lossy(&bytes))
        .map_err(|err| anyhow::anyhow!("{source}: cannot be parsed ({err})"))?;
    let file = inherit::Parsed {
        source: source.to_string(),
        interface,
    };
    let mut matches = declared_or_inherited(ws, &file, name)?;
    // What a declared member raises and shares with its siblings; an inherited one's are its base's.
    let own_names: std::collections::BTreeSet<&str> = file
        .interface
        .outline()
        .iter()
        .filter(|line| is_member(line))
        .map(|line| last_segment(&line.name))
        .chain(file.interface.calls.iter().map(|m| last_segment(&m.member)))
        .collect();
    for found in matches.iter_mut().filter(|m| m.inherited_from.is_none()) {
        found.calls_elsewhere =
            outside::calls_elsewhere(&file.interface.calls, &found.label, &own_names);
        found.raises = related::raises(&file.interface.calls, &found.label);
        found.related = related::siblings(&file.interface.calls, &found.label);
    }
    let tests = tests_found::relevant_tests(ws.graph(), source, &matches, &file.interface.calls);
    Ok(MemberLookup {
        source: source.to_string(),
        member: name.to_string(),
        staleness: found.staleness,
        stale: found.staleness != Staleness::Current,
        warnings: found.warnings(),
        matches,
        tests: tests.tests,
        tests_left_out: tests.left_out,
        indirect_tests: tests.indirect,
    })
}

/// The members of `file` named `name`, else those its classes inherit (`member/inherit.rs`);
/// a member without a doc gets the doc of the member it overrides. An error naming the closest
/// members when there is none.
fn declared_or_inherited(
    ws: &Workspace,
    file: &inherit::Parsed,
    name: &str,
) -> anyhow::Result<Vec<Member>> {
    let outline = file.interface.outline();
    let candidates: Vec<usize> = (0..outline.len())
        .filter(|&i| is_member(&outline[i]))
        .collect();
    let labels: Vec<String> = candidates.iter().map(|&i| label(&outline[i])).collect();
    let chosen = matching(&labels, name);
    if chosen.is_empty() {
        let inherited = inherit::inherited_members(ws, file, name, true);
        let whole = inherited.len() == 1;
        return match inherited.is_empty() {
            true => bail!("{}", unknown_member(&file.source, name, &labels)),
            false if whole => Ok(inherited),
            false => Ok(inherit::inherited_members(ws, file, name, false)),
        };
    }
    let view = ws
        .graph()
        .and_then(|graph| CallsView::read(graph, &file.source));
    // Several matches are shown compactly: each doc's first paragraph.
    let whole = chosen.len() == 1;
    let mut matches: Vec<Member> = chosen
        .iter()
        .map(|&c| member(outline, candidates[c], whole, view.as_ref()))
        .collect();
    for shown in matches.iter_mut().filter(|m| m.doc.is_none()) {
        if let Some(doc) = inherit::inherited_doc(ws, file, &shown.label) {
            apply_inherited_doc(shown, doc, whole);
        }
    }
    Ok(matches)
}

/// `shown`'s doc is `doc`, inherited from the member it overrides: cut as its own would be.
fn apply_inherited_doc(shown: &mut Member, doc: inherit::Doc, whole: bool) {
    let (text, examples_left_out) = without_examples(&doc.text);
    let text = crate::secrets::redact(&text).into_owned();
    let (text, doc_cut) = match whole {
        true => cut_doc(text, DOC_BYTES),
        false => first_paragraph(text),
    };
    shown.doc = (!text.is_empty()).then_some(text);
    shown.doc_cut = doc_cut;
    shown.examples_left_out = examples_left_out;
    shown.doc_inherited_from = Some(doc.from);
}

/// An outline line that declares something (not a header, not `impl Trait for Type`).
fn is_member(line: &OutlineLine) -> bool {
    line.kind
        .is_some_and(|kind| kind != crate::source::SymbolKind::Impl)
        && !line.name.is_empty()
}

/// `Container.name`, or the name (CommonJS names are already qualified: `res.json`).
fn label(line: &OutlineLine) -> String {
    match &line.parent {
        // `impl<T> Sender<T>`'s methods are `Sender.send`, as `workspace::calls` names them.
        Some(parent) => {
            let parent = parent.split('<').next().unwrap_or(parent).trim();
            format!("{parent}.{}", line.name)
        }
        None => line.name.clone(),
    }
}

/// The last segment of a label or a name asked for (`json` of `res.json`, `send` of `Sender::send`).
pub fn last_segment(name: &str) -> &str {
    name.rsplit(['.', ':', '#']).next().unwrap_or(name)
}

/// The name asked for as labels are written: `Sender::send` → `Sender.send`, `json()` → `json`.
fn normalized(name: &str) -> String {
    name.trim()
        .trim_end_matches("()")
        .replace("::", ".")
        .replace('#', ".")
}

/// The indices of `labels` that `name` names: those equal to it, else those ending with `.name`,
/// else (for a bare name) those whose last segment is it — case-insensitively when nothing matches
/// exactly.
pub fn matching(labels: &[String], name: &str) -> Vec<usize> {
    let wanted = normalized(name);
    if wanted.is_empty() {
        return Vec::new();
    }
    let suffix = format!(".{wanted}");
    let tries: [&dyn Fn(&str) -> bool; 4] = [
        &|label| label == wanted,
        &|label| label.ends_with(&suffix),
        &|label| last_segment(label) == wanted,
        &|label| {
            label.eq_ignore_ascii_case(&wanted)
                || last_segment(label).eq_ignore_ascii_case(last_segment(&wanted))
                    && (!wanted.contains('.')
                        || label.to_lowercase().ends_with(&suffix.to_lowercase()))
        },
    ];
    for matches in tries {
        let found: Vec<usize> = (0..labels.len()).filter(|&i| matches(&labels[i])).collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// The error for a name no member has: the closest labels, and where to see them all.
fn unknown_member(source: &str, name: &str, labels: &[String]) -> String {
    let wanted = normalized(name).to_lowercase();
    let mut scored: Vec<(f64, &String)> = labels
        .iter()
        .map(|label| {
            let lower = label.to_lowercase();
            let whole = strsim::jaro_winkler(&wanted, &lower);
            let last = strsim::jaro_winkler(last_segment(&wanted), last_segment(&lower));
            (whole.max(last), label)
        })
        .filter(|(score, _)| *score >= 0.8)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
    let mut close: Vec<&str> = Vec::new();
    for (_, label) in scored {
        if !close.contains(&label.as_str()) && close.len() < 5 {
            close.push(label);
        }
    }
    let mut message = format!("{source} has no member `{name}`");
    if !close.is_empty() {
        message.push_str(&format!("\n  did you mean: {}?", close.join(", ")));
    }
    message.push_str(&format!(
        "\n  hint: `lexi lookup {source}` shows its Interface Contract ({} members)",
        labels.len()
    ));
    message
}

/// The member declared on `outline[at]`, with its calls read from `view`.
fn member(outline: &[OutlineLine], at: usize, whole: bool, view: Option<&CallsView>) -> Member {
    let line = &outline[at];
    let label = label(line);
    let (doc, examples_left_out) = match &line.whole_doc {
        Some(doc) => without_examples(doc),
        None => (String::new(), 0),
    };
    let doc = crate::secrets::redact(&doc).into_owned();
    let (doc, doc_cut) = match whole {
        true => cut_doc(doc, DOC_BYTES),
        false => first_paragraph(doc),
    };
    let (calls, called_by, called_from) = match view {
        Some(view) => calls_of(view, &label),
        None => Default::default(),
    };
    let keys = view
        .and_then(|view| view.calls.iter().find(|edges| edges.member == label))
        .map(|edges| edges.keys.clone())
        .unwrap_or_default();
    Member {
        kind: line.kind.map_or("", |kind| kind.as_str()),
        signature: signature(outline, at),
        doc: (!doc.is_empty()).then_some(doc),
        doc_cut,
        compact: !whole,
        examples_left_out,
        calls,
        keys,
        called_by,
        called_from,
        calls_elsewhere: Vec::new(),
        raises: Vec::new(),
        related: Vec::new(),
        label,
        inherited_from: None,
        doc_inherited_from: None,
    }
}

/// The signature of `outline[at]` under the headers it sits in, indented as the contract is.
fn signature(outline: &[OutlineLine], at: usize) -> String {
    let mut chain = vec![at];
    let mut depth = outline[at].depth;
    for i in (0..at).rev() {
        if depth == 0 {
            break;
        }
        if outline[i].depth < depth {
            chain.push(i);
            depth = outline[i].depth;
        }
    }
    chain
        .iter()
        .rev()
        .map(|&i| format!("{}{}", "  ".repeat(outline[i].depth), outline[i].text))
        .collect::<Vec<_>>()
        .join("\n")
}

/// `doc` without its fenced code blocks (examples), each replaced by one line; and how many.
fn without_examples(doc: &str) -> (String, usize) {
    let mut out: Vec<&str> = Vec::new();
    let mut inside = false;
    let mut examples = 0;
    for line in doc.lines() {
        let fence = line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~");
        if fence && !inside {
            examples += 1;
            out.push("(example left out: read the source)");
        }
        if fence {
            inside = !inside;
        } else if !inside {
            out.push(line);
        }
    }
    (out.join("\n").trim().to_string(), examples)
}

/// `doc` cut at a line boundary to fit `room` bytes; whether it was cut.
fn cut_doc(doc: String, room: usize) -> (String, bool) {
    if doc.len() <= room {
        return (doc, false);
    }
    let mut kept = String::new();
    for line in doc.lines() {
        if kept.len() + line.len() + 1 > room {
            break;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    (kept.trim_end().to_string(), true)
}

/// The first paragraph of `doc`; whether there was more.
fn first_paragraph(doc: String) -> (String, bool) {
    match doc.split_once("\n\n") {
        Some((first, _)) => (first.trim_end().to_string(), true),
        None => (doc, false),
    }
}

/// What `label` calls in its file, which members of the file call it, and the neighbours' members
/// calling it — matched by name as `workspace::calls` matches.
fn calls_of(view: &CallsView, label: &str) -> (Vec<String>, Vec<String>, Vec<Caller>) {
    let bare = last_segment(label);
    let typed = label.replace('.', "::");
    let calls = view
        .calls
        .iter()
        .filter(|edges| edges.member == label)
        .flat_map(|edges| edges.calls.iter().cloned())
        .collect();
    let called_by = view
        .calls
        .iter()
        .filter(|edges| edges.calls.iter().any(|c| c == bare || c == label))
        .map(|edges| edges.member.clone())
        .collect();
    let called_from = view
        .called_from
        .iter()
        .filter(|called| called.name == bare || called.name == typed)
        .flat_map(|called| called.callers.iter().cloned())
        .collect();
    (calls, called_by, called_from)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_name_matches_by_label_then_by_last_segment() {
        let all = labels(&[
            "Flask",
            "Flask.make_response",
            "Flask.make_default_options_response",
            "res.json",
            "res.jsonp",
            "Sender.send",
            "Permit.send",
            "Sender.send_timeout",
        ]);
        assert_eq!(matching(&all, "make_response"), [1]);
        assert_eq!(matching(&all, "Flask.make_response"), [1]);
        assert_eq!(matching(&all, "res.json"), [3]);
        assert_eq!(matching(&all, "json"), [3]);
        assert_eq!(matching(&all, "json()"), [3]);
        assert_eq!(matching(&all, "Sender::send"), [5]);
        assert_eq!(matching(&all, "send"), [5, 6]);
        assert_eq!(matching(&all, "Flask"), [0]);
        assert_eq!(matching(&all, "MAKE_RESPONSE"), [1]);
        assert_eq!(matching(&all, "sender::SEND"), [5]);
        assert!(matching(&all, "App.make_response").is_empty());
        assert!(matching(&all, "respond").is_empty());
        assert!(matching(&all, "").is_empty());
    }

    #[test]
    fn an_unknown_name_is_answered_with_the_closest_members() {
        let all = labels(&[
            "Flask.make_response",
            "Flask.make_default_options_response",
            "run",
        ]);
        let message = unknown_member("app.py", "make_respons", &all);
        assert!(
            message.starts_with(
                "app.py has no member `make_respons`\n  did you mean: Flask.make_response"
            ),
            "{message}"
        );
        assert!(!message.contains("run,"), "{message}");
        assert!(message.ends_with("(3 members)"), "{message}");
    }

    #[test]
    fn examples_are_left_out_and_long_docs_cut_at_a_line() {
        let doc = "Sends a value.\n\n# Examples\n\n```\nlet x = 1;\n```\n\nMore.";
        let (text, examples) = without_examples(doc);
        assert_eq!(examples, 1);
        assert_eq!(
            text,
            "Sends a value.\n\n# Examples\n\n(example left out: read the source)\n\nMore."
        );
        let (cut, was_cut) = cut_doc("one\ntwo\nthree".to_string(), 8);
        assert_eq!((cut.as_str(), was_cut), ("one\ntwo", true));
        assert_eq!(cut_doc("one".into(), 8), ("one".to_string(), false));
    }
}
