//! `lexi lookup <file> --member <name>`: one member of a file, whole — what an agent about to change
//! `make_response` needs and nothing else: its signature (under the headers it sits in), its whole
//! doc (every paragraph, parameters, returns, errors, lists; code examples left out), the members of
//! the file it calls and that call it, the neighbours' members calling it (`workspace::calls`, read
//! from the graph of the last update), and the tests most relevant to it: the tests that reach the
//! file (`workspace::test_rank`), those with test functions calling the member by name first (the
//! graph records every test function's calls), then those named for it.
//!
//! Every member the file defines can be opened, public or private (`member/declared.rs`: the
//! definitions of `source::definitions` and the interface's members); a constant or an alias shows
//! its value, and a function its flow — the outline of its body (`source::flow`), read from the
//! same parse. A name matches a member by its qualified label (`Flask.make_response`, `res.json`,
//! `Sender::send` = `Sender.send`), else by its last segment (`make_response`, `json`, `send`);
//! several matches are each shown compactly (signature and first paragraph), and the members whose
//! names differ only in case are named (`sendfile` is not `res.sendFile`). A name no member of
//! the file declares is looked for in the bases of its classes, and a member without a doc gets the
//! doc of the member it overrides (`member/inherit.rs`). An unknown name is an error naming the
//! closest members.

use anyhow::{bail, Context as _};

use super::{lookup, Staleness};
use crate::source::{flow, title_slug, Language, OutlineLine, SourceFile, SymbolKind};
use crate::workspace::calls::{Caller, CallsView, KeyGroup};
use crate::workspace::Workspace;

mod callers;
mod declared;
mod go_interfaces;
mod implementations;
mod inherit;
mod outside;
mod related;
mod render;
mod tests_found;

pub use related::Related;
pub use tests_found::{TestHit, TESTS_SHOWN};

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
    /// Other members whose names differ from the name asked for only in case (`res.sendFile` for
    /// `sendfile`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub others: Vec<String>,
    /// No member is named exactly so: the matches differ from the name asked for in case
    /// (`res.sendFile` for `sendfile`), and the answer says so first.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub case_differs: bool,
    /// The tests exercising the member, most direct first (`member/tests_found.rs`): those
    /// calling it, then through helpers or callers (`via`), the files named for it, its
    /// delegate's, and — only when there is none of these — those named for one of its words.
    pub tests: Vec<TestHit>,
    /// Tests found for the member but not shown (`--all` shows them).
    pub tests_left_out: usize,
    /// Other test files that reach the member's file (`lexi impact` lists them).
    pub tests_reaching: usize,
    /// Those files, in `lexi impact`'s order (`lexi impact --member --full` lists them).
    #[serde(skip)]
    pub tests_reaching_files: Vec<String>,
    /// Everything asked for (`--full`): the whole doc, every test, every caller and call.
    #[serde(skip)]
    pub full: bool,
}

/// One member of the file.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Member {
    /// `Container.name`, or `name` for a top-level member.
    pub label: String,
    pub kind: &'static str,
    /// Its first and last line in its file (unknown for a member only the interface knows).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_line: Option<usize>,
    /// Its signature line under the headers it sits in, indented two spaces a level (a constant's
    /// or an alias's whole value, cut).
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
    /// It calls itself.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub recursive: bool,
    /// The literal keys it passes to what it calls (`app.get('json spaces')`), by callee.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub keys: Vec<KeyGroup>,
    /// Its calls that leave the file: `router.handle`, `finalhandler`, `Instant::now`
    /// (`member/outside.rs`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub calls_elsewhere: Vec<String>,
    /// Members of the file calling it.
    pub called_by: Vec<String>,
    /// Members of the neighbours (importers, imports, importers of a module re-exporting it)
    /// calling it, where resolution supports it.
    pub called_from: Vec<Caller>,
    /// The callers the calls view found that are test functions (`(file, member)`, a Rust
    /// `#[cfg(test)]` module's among them): those of [`Self::called_from`] are counted apart,
    /// the Tests section names them.
    #[serde(skip)]
    pub test_callers: std::collections::BTreeSet<(String, String)>,
    /// Calls of its name through objects resolution cannot tell (`res.send(…)` in a handler):
    /// name matches, never callers (`member/callers.rs`).
    #[serde(skip_serializing_if = "callers::NameMatches::is_empty")]
    pub name_matches: callers::NameMatches,
    /// Not declared in the file: `Base (base/file.py)`, the class it is inherited from
    /// (`member/inherit.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inherited_from: Option<String>,
    /// The type and the file of the other part declaring it, for a member of a type that spans
    /// files (a C# partial class, a Ruby class reopened): `Circle (src/Shapes/Circle.Describe.cs)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub part_of: Option<String>,
    /// Its doc is the doc of the member it overrides: `Base.name, base/file.py`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub doc_inherited_from: Option<String>,
    /// The member it overrides or implements, up its class's bases: `App.add_url_rule
    /// (src/flask/sansio/app.py)`, `trait Shape.area (src/shape.rs)` (`member/implementations.rs`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub overrides: Option<String>,
    /// The Go interfaces it implements (its type has every method of each): `Render.Render
    /// (render/render.go)` (`member/go_interfaces.rs`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub implements: Vec<String>,
    /// The members of its name in the classes deriving from its class (and implementing its
    /// trait), by file.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub overridden_by: Vec<Caller>,
    /// Its class is a trait or an interface: it is implemented, not overridden.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub abstract_member: bool,
    /// What it raises, throws or returns as an error, from its own body (`source::raises`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub raises: Vec<String>,
    /// Members of the file sharing callees or literal keys with it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<Related>,
    /// The outline of its body (one member shown whole): a line a step, indented two spaces a
    /// level (`source::flow`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub flow: Vec<String>,
    /// Its flow was folded or cut to the default lines (`--full` shows it whole).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub flow_cut: bool,
    /// Its lines as written (`--source`): from its first line to its last, comments included.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source_lines: Option<String>,
    /// A type's own members in the file, in order: its fields and the methods its `impl` blocks,
    /// class body or trait define (`WalkParallel`: `run`, `visit`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<String>,
}

/// Lines `first` to `last` (1-based, inclusive) of `text`, secrets redacted; none when either is
/// unknown.
fn lines_of(text: &str, first: Option<usize>, last: Option<usize>) -> Option<String> {
    let (first, last) = (first?, last?);
    let lines: Vec<&str> = text
        .lines()
        .skip(first.saturating_sub(1))
        .take(last.saturating_sub(first) + 1)
        .collect();
    (!lines.is_empty()).then(|| crate::secrets::redact(&lines.join("\n")).into_owned())
}

/// What `lexi lookup --member` is asked to show beyond the default answer.
#[derive(Clone, Copy, Debug, Default)]
pub struct Asked {
    /// Every test found for the member (`--all`).
    pub all_tests: bool,
    /// Everything: the whole doc and flow, every caller and call (`--full`); the tests stay
    /// capped unless `all_tests` (the tests reaching a central member through its callers run to
    /// hundreds of lines: express's `stringify`, 15 KB).
    pub full: bool,
    /// The member's source lines as written (`--source`).
    pub source: bool,
}

/// How much of one member is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shown {
    /// Several members matched: each its signature, lines and first doc paragraph.
    Compact,
    /// The one member matched: with its flow, within the default caps.
    Whole,
    /// The one member matched, with `--full`: the whole flow too.
    Everything,
}

impl Shown {
    fn of(matched: usize, full: bool) -> Shown {
        match (matched, full) {
            (1, true) => Shown::Everything,
            (1, false) => Shown::Whole,
            _ => Shown::Compact,
        }
    }
}

/// `lexi lookup <source> --member <name>`, showing what `asked` asks for.
pub fn lookup_member(
    ws: &Workspace,
    source: &str,
    name: &str,
    asked: Asked,
) -> anyhow::Result<MemberLookup> {
    let Asked {
        all_tests,
        full,
        source: with_source,
    } = asked;
    let found = lookup(ws.project(), source)?;
    let language = Language::from_path(std::path::Path::new(source)).with_context(|| {
        format!(
            "{source}: members are known only in {} files",
            Language::built_names()
        )
    })?;
    let bytes = ws
        .project()
        .read(source)
        .with_context(|| format!("cannot read {source}"))?;
    let text = String::from_utf8_lossy(&bytes);
    let parsed = crate::source::shared::source_file(language, &text)
        .map_err(|err| anyhow::anyhow!("{source}: cannot be parsed ({err})"))?;
    let file = inherit::Parsed {
        source: source.to_string(),
        file: parsed,
    };
    let (mut matches, others) = declared_or_inherited(ws, &file, name, full)?;
    // What a declared member raises and shares with its siblings; an inherited one's are its base's,
    // another part's its part's.
    let calls = &file.file.interface.calls;
    let own_names: std::collections::BTreeSet<&str> = file
        .file
        .definitions
        .iter()
        .map(|d| last_segment(&d.label))
        .chain(calls.iter().map(|m| last_segment(&m.member)))
        .collect();
    let whole = matches.len() == 1;
    let imported = outside::Imported::of(ws.graph(), source);
    for found in matches.iter_mut().filter(|m| m.is_own()) {
        found.calls_elsewhere =
            outside::calls_elsewhere(calls, &found.label, &own_names, &imported);
        found.raises = related::raises(calls, &found.label);
        found.related = related::siblings(calls, &found.label);
        if let (true, Some(graph)) = (whole, ws.graph()) {
            let resolved = found.called_from.clone();
            found
                .name_matches
                .widen(graph, source, &found.label, &resolved);
        }
        if whole && found.label.contains('.') {
            let interface = &file.file.interface;
            found.overrides = inherit::overridden(ws, &file, &found.label);
            found.overridden_by = implementations::implementations(
                ws.graph(),
                source,
                &found.label,
                &interface.bases,
                calls,
            );
            let class = found.label.rsplit_once('.').map_or("", |(c, _)| c);
            found.abstract_member = inherit::is_trait(&file.file, class);
            if language == Language::Go {
                let own = go_interfaces::Own {
                    source,
                    calls,
                    bases: &interface.bases,
                };
                match found.abstract_member {
                    true => {
                        found.overridden_by = go_interfaces::implemented_by(ws, &own, &found.label)
                    }
                    false => {
                        found.implements = go_interfaces::implements(ws, &own, &found.label);
                        let elsewhere = std::mem::take(&mut found.overridden_by);
                        found.overridden_by =
                            go_interfaces::shadowed_by(ws, &own, &found.label, elsewhere);
                    }
                }
            }
        }
    }
    if with_source {
        for found in matches.iter_mut().filter(|m| m.is_own()) {
            found.source_lines = lines_of(&text, found.line, found.end_line);
        }
    }
    let mut tests = tests_found::relevant_tests(ws.graph(), source, &matches, calls, all_tests);
    // A test is not its own test (a test case found "named for" its own words).
    let own: Vec<&str> = matches.iter().map(|m| last_segment(&m.label)).collect();
    for hit in tests.tests.iter_mut().filter(|hit| hit.file == source) {
        hit.functions.retain(|f| !own.contains(&last_segment(f)));
    }
    tests
        .tests
        .retain(|hit| hit.file != source || !hit.functions.is_empty());
    Ok(MemberLookup {
        source: source.to_string(),
        member: name.to_string(),
        staleness: found.staleness,
        stale: found.staleness != Staleness::Current,
        warnings: found.warnings(),
        case_differs: case_differs(&matches, name),
        matches,
        others,
        tests: tests.tests,
        tests_left_out: tests.left_out,
        tests_reaching: tests.reaching,
        tests_reaching_files: tests.reaching_files,
        full,
    })
}

/// The members of `file` named `name`, else those its classes inherit (`member/inherit.rs`);
/// a member without a doc gets the doc of the member it overrides; and the other members whose
/// labels match only case-insensitively. An error naming the closest members when there is none.
fn declared_or_inherited(
    ws: &Workspace,
    file: &inherit::Parsed,
    name: &str,
    full: bool,
) -> anyhow::Result<(Vec<Member>, Vec<String>)> {
    let candidates = declared::declared(&file.file);
    let labels: Vec<String> = candidates
        .iter()
        .map(|d| declared::label_of(&file.file, d))
        .collect();
    let chosen = matching(&labels, name);
    if chosen.is_empty() {
        let inherited = inherit::inherited_members(ws, file, name, Shown::of(1, full));
        let whole = inherited.len() == 1;
        let mut inherited = match inherited.is_empty() {
            true => bail!("{}", unknown_member(&file.source, name, &labels)),
            false if whole => inherited,
            false => inherit::inherited_members(ws, file, name, Shown::Compact),
        };
        for shown in &mut inherited {
            shown.cut_doc(whole && full);
        }
        return Ok((inherited, Vec::new()));
    }
    let others: Vec<String> = matching_any_case(&labels, name)
        .into_iter()
        .filter(|i| !chosen.contains(i))
        .map(|i| labels[i].clone())
        .collect();
    let view = ws
        .graph()
        .and_then(|graph| CallsView::read(graph, &file.source));
    // Several matches are shown compactly; one whole (its doc's first paragraph unless `full`).
    let whole = chosen.len() == 1;
    let shown = Shown::of(chosen.len(), full);
    let mut matches: Vec<Member> = chosen
        .iter()
        .map(|&c| member(&file.file, &candidates[c], shown, view.as_ref()))
        .collect();
    for shown in matches.iter_mut().filter(|m| m.doc.is_none()) {
        if let Some(doc) = inherit::inherited_doc(ws, file, &shown.label) {
            apply_inherited_doc(shown, doc);
        }
    }
    for shown in &mut matches {
        shown.cut_doc(whole && full);
    }
    Ok((matches, others))
}

/// `shown`'s doc is `doc`, inherited from the member it overrides.
fn apply_inherited_doc(shown: &mut Member, doc: inherit::Doc) {
    let (text, examples_left_out) = without_examples(&doc.text);
    let text = crate::secrets::redact(&text).into_owned();
    shown.doc = (!text.is_empty()).then_some(text);
    shown.examples_left_out = examples_left_out;
    shown.doc_inherited_from = Some(doc.from);
}

impl Member {
    /// Declared in the file asked about: neither inherited nor another part's.
    fn is_own(&self) -> bool {
        self.inherited_from.is_none() && self.part_of.is_none()
    }

    /// Its doc cut as shown: to its first paragraph and the lines of its `# Panics`, `# Errors`
    /// and `# Safety` sections, `Raises:` and `@throws` entries (what a caller must handle: tokio's
    /// `Runtime::block_on` "Panics: This function panics if … called within an asynchronous
    /// execution context"), or (`whole`: everything asked for) to the [`DOC_BYTES`] budget.
    fn cut_doc(&mut self, whole: bool) {
        let Some(doc) = self.doc.take() else {
            return;
        };
        let (doc, cut) = match whole {
            true => cut_doc(doc, DOC_BYTES),
            false => {
                let failures = failure_lines(&doc);
                let (mut first, cut) = first_paragraph(doc);
                for line in failures {
                    first.push('\n');
                    first.push_str(&line);
                }
                (first, cut)
            }
        };
        self.doc = (!doc.is_empty()).then_some(doc);
        self.doc_cut = cut;
    }
}

/// Whether every match differs from the name asked for in case only (`res.sendFile` for
/// `sendfile`).
fn case_differs(matches: &[Member], name: &str) -> bool {
    let wanted = normalized(name);
    let wanted = last_segment(&wanted);
    // A test case asked by its title (`should respond with html`) is named by its slug.
    let slug = title_slug(wanted);
    !matches.is_empty()
        && matches.iter().all(|m| {
            let label = last_segment(&m.label);
            label != wanted && (label != slug || slug == wanted.to_lowercase())
        })
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
    let tries: [&dyn Fn(&str) -> bool; 5] = [
        &|label| label == wanted,
        &|label| label.ends_with(&suffix),
        &|label| last_segment(label) == wanted,
        // A name asked with its namespaces (Ruby's `Rack::Utils.escape`, labelled `Utils.escape`).
        &|label| label.contains('.') && wanted.ends_with(&format!(".{label}")),
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
    // A test's title as written (`should respond with html`) names the case by its slug.
    let slug = title_slug(&wanted);
    match slug != wanted.to_lowercase() && !slug.is_empty() {
        true => matching(labels, &slug),
        false => Vec::new(),
    }
}

/// The indices of `labels` that `name` names in any case: by label, or by last segment.
fn matching_any_case(labels: &[String], name: &str) -> Vec<usize> {
    let wanted = normalized(name).to_lowercase();
    if wanted.is_empty() {
        return Vec::new();
    }
    (0..labels.len())
        .filter(|&i| {
            let label = labels[i].to_lowercase();
            label == wanted || last_segment(&label) == wanted
        })
        .collect()
}

/// The error for a name no member has: the closest labels, and where to see them all.
fn unknown_member(source: &str, name: &str, labels: &[String]) -> String {
    let wanted = normalized(name).to_lowercase();
    // A title asked as written is compared as its slug (`should respond with htm`).
    let wanted = match wanted.contains(char::is_whitespace) {
        true => title_slug(&wanted),
        false => wanted,
    };
    let mut scored: Vec<(f64, &String)> = labels
        .iter()
        .map(|label| {
            let lower = label.to_lowercase();
            let whole = strsim::jaro_winkler(&wanted, &lower);
            let last = strsim::jaro_winkler(last_segment(&wanted), last_segment(&lower));
            // A name part of a member's (`make_respons` of `test_make_response`) is close.
            let part = match last_segment(&wanted).len() >= 4
                && last_segment(&lower).contains(last_segment(&wanted))
            {
                true => 0.9,
                false => 0.0,
            };
            (whole.max(last).max(part), label)
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

/// Whether a definition of `kind` is a type whose members are listed.
fn is_type_kind(kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::Struct
            | SymbolKind::Enum
            | SymbolKind::Trait
            | SymbolKind::Interface
            | SymbolKind::Class
    )
}

/// The names of the definitions of `file` that sit directly in the type `label` (its fields,
/// its methods wherever its `impl` blocks are), in order, each once.
fn members_of(file: &SourceFile, label: &str) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for definition in &file.definitions {
        let inside = definition.parent.as_deref() == Some(label) && !definition.nested;
        if inside && !names.contains(&definition.name) {
            names.push(definition.name.clone());
        }
    }
    names
}

/// The member `declared` of `file`, with its calls read from `view` and, shown whole, its flow.
fn member(
    file: &SourceFile,
    declared: &declared::Declared<'_>,
    shown: Shown,
    view: Option<&CallsView>,
) -> Member {
    let whole = shown != Shown::Compact;
    let outline = file.interface.outline();
    let line = declared.outline.map(|at| &outline[at]);
    let definition = declared.definition;
    let label = declared::label_of(file, declared);
    let kind = definition
        .map(|d| d.kind)
        .or(line.and_then(|l| l.kind))
        .map_or("", |kind| kind.as_str());
    let signature = match (declared.outline, definition) {
        (Some(at), Some(definition)) => with_value(signature(outline, at), definition),
        (Some(at), None) => signature(outline, at),
        (None, Some(definition)) => declared::definition_signature(file, definition),
        (None, None) => String::new(),
    };
    let whole_doc = line
        .and_then(|l| l.whole_doc.clone())
        .or_else(|| definition.and_then(|d| d.doc.clone()));
    let (doc, examples_left_out) = match &whole_doc {
        Some(doc) => without_examples(doc),
        None => (String::new(), 0),
    };
    let doc = crate::secrets::redact(&doc).into_owned();
    let edges = match view {
        Some(view) => calls_of(view, &label),
        None => Edges::default(),
    };
    let keys = view
        .and_then(|view| view.calls.iter().find(|edges| edges.member == label))
        .map(|edges| edges.keys.clone())
        .unwrap_or_default();
    let is_type = definition.is_some_and(|d| is_type_kind(d.kind));
    let flow = match (shown, definition) {
        (Shown::Compact, _) | (_, None) => flow::Flow::default(),
        // A type's body is no sequence of steps: its members say what it is.
        _ if is_type => flow::Flow::default(),
        (Shown::Whole, Some(definition)) => file.flow(definition, flow::MAX_LINES),
        (Shown::Everything, Some(definition)) => file.flow(definition, flow::FULL_LINES),
    };
    Member {
        kind,
        line: definition.map(|d| d.line),
        end_line: definition.map(|d| d.end_line),
        signature,
        doc: (!doc.is_empty()).then_some(doc),
        doc_cut: false,
        compact: !whole,
        examples_left_out,
        calls: edges.calls,
        recursive: edges.recursive,
        keys,
        called_by: edges.called_by,
        called_from: edges.called_from,
        test_callers: edges.test_callers,
        name_matches: callers::NameMatches::of_neighbours(edges.unresolved),
        calls_elsewhere: Vec::new(),
        raises: Vec::new(),
        related: Vec::new(),
        members: match is_type {
            true => members_of(file, &label),
            false => Vec::new(),
        },
        flow_cut: flow.cut,
        flow: flow.indented(),
        source_lines: None,
        label,
        inherited_from: None,
        part_of: None,
        doc_inherited_from: None,
        overrides: None,
        implements: Vec::new(),
        overridden_by: Vec::new(),
        abstract_member: false,
    }
}

/// An interface signature whose last line is a constant's or an alias's name alone replaced by
/// its value as written (`ResponseReturnValue` → `ResponseReturnValue = t.Union[…]`).
fn with_value(signature: String, definition: &crate::source::definitions::Definition) -> String {
    let Some(value) = definition
        .value
        .as_ref()
        .filter(|_| declared::shows_value(definition.kind))
    else {
        return signature;
    };
    let (headers, last) = match signature.rsplit_once('\n') {
        Some((headers, last)) => (Some(headers), last),
        None => (None, signature.as_str()),
    };
    let depth = (last.len() - last.trim_start().len()) / 2;
    let value = declared::indented(value, depth);
    match headers {
        Some(headers) => format!("{headers}\n{value}"),
        None => value,
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

/// The lines of a doc saying how a call fails: its errors, panics, safety conditions, what it
/// raises or throws (`source::behaviour_lines`).
fn failure_lines(doc: &str) -> Vec<String> {
    const FAILURES: &[&str] = &["Panics: ", "Errors: ", "Safety: ", "raises ", "throws "];
    crate::source::behaviour_lines(doc)
        .into_iter()
        .filter(|line| FAILURES.iter().any(|prefix| line.starts_with(prefix)))
        .collect()
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
fn calls_of(view: &CallsView, label: &str) -> Edges {
    let bare = last_segment(label);
    let typed = label.replace('.', "::");
    let own = view.calls.iter().filter(|edges| edges.member == label);
    let calls = own
        .clone()
        .flat_map(|edges| edges.calls.iter().cloned())
        .collect();
    let recursive = own.clone().any(|edges| edges.recursive);
    let called_by = view
        .calls
        .iter()
        .filter(|edges| edges.calls.iter().any(|c| c == bare || c == label))
        .map(|edges| edges.member.clone())
        .collect();
    let of_name = |list: &[crate::workspace::calls::CalledFrom]| -> Vec<Caller> {
        list.iter()
            .filter(|called| called.name == bare || called.name == typed)
            .flat_map(|called| called.callers.iter().cloned())
            .collect()
    };
    Edges {
        calls,
        recursive,
        called_by,
        test_callers: view.test_callers.clone(),
        called_from: of_name(&view.called_from),
        unresolved: of_name(&view.unresolved),
    }
}

/// What the view says of one member.
#[derive(Default)]
struct Edges {
    calls: Vec<String>,
    recursive: bool,
    called_by: Vec<String>,
    called_from: Vec<Caller>,
    unresolved: Vec<Caller>,
    test_callers: std::collections::BTreeSet<(String, String)>,
}

/// Exception types of a member's `Raises` followed, at most.
pub const MAX_RAISED_TYPES: usize = 4;

/// The exception types a member's `Raises` entries name (`TypeError ("…")` → `TypeError`), in
/// order, at most [`MAX_RAISED_TYPES`]: names of types only, never a Rust `Err(…)`, a macro or
/// a raised variable — what `lexi impact --member` follows up the callers.
pub fn raised_types(raises: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for entry in raises {
        let head = entry
            .trim_start_matches("new ")
            .split([' ', '('])
            .next()
            .unwrap_or("");
        let name = last_segment(head);
        let is_type = name.starts_with(|c: char| c.is_ascii_uppercase())
            && name.chars().all(|c| c.is_alphanumeric() || c == '_')
            && name != "Err";
        if is_type && !out.iter().any(|known| known == name) && out.len() < MAX_RAISED_TYPES {
            out.push(name.to_string());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn raised_types_are_the_named_types_of_the_entries() {
        let raises: Vec<String> = [
            "TypeError (\"The view function did not return\")",
            "TypeError (\"other\")",
            "exceptions.BadRequestKeyError",
            "e",
            "re-raises",
            "Err(Error::Io)",
            "panic! (\"boom\")",
            "new HttpError(…)",
        ]
        .map(String::from)
        .to_vec();
        assert_eq!(
            raised_types(&raises),
            vec!["TypeError", "BadRequestKeyError", "HttpError"]
        );
    }

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
        // Ruby's namespaces before the label.
        assert_eq!(matching(&all, "Rack::Sender.send"), [5]);
        assert_eq!(matching(&all, "Rack::Sender#send"), [5]);
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
