//! The text `lexi lookup --member` prints: the warnings, then the member's signature in a fence,
//! its Calls / Called by / Called from / Raises / Flow lines, its tests, and only then its doc —
//! what answers "what does it do, who calls it, what breaks" first, the prose last:
//!
//! ````text
//! # src/flask/app.py: Flask.make_response (method)
//!
//! ```python
//! class Flask(App)
//!   def make_response(self, rv) -> Response
//! ```
//!
//! - Called by: Flask.finalize_request
//! - Called from: src/flask/helpers.py (make_response)
//! - Raises: TypeError ("The view function did not return a valid…"), …
//! - Related: Flask.make_default_options_response (shares …)
//! - Flow:
//!     if isinstance(rv, tuple):
//!       …
//!
//! ## Tests
//!
//! - tests/test_basic.py: test_make_response, test_make_response_with_response_instance, …
//! - tests/test_basic.py: test_response_types, test_response_type_errors (named for "response")
//!
//! ## Doc
//!
//! Convert the return value from a view function to an instance of …
//! (… 2,310 more bytes of doc: `lexi lookup src/flask/app.py --member Flask.make_response --full`)
//! ````
//!
//! The doc is its first paragraph unless `--full`, which also lifts the caps of callers, calls and
//! raises (the tests stay at five lines unless `--all`). Several members of one name are each shown compactly (their doc's first
//! paragraph under their lines), the tests once after them. Indirect tests follow the direct ones,
//! each saying how it reaches the member.

use super::{raised_types, Member, MemberLookup, TestHit, CALLER_FILES_SHOWN, FUNCTIONS_SHOWN};

/// Test files named among a member's unresolved calls (the others counted).
const TEST_FILES_NAMED: usize = 2;

/// Raises entries shown.
pub const RAISES_SHOWN: usize = 6;
use crate::knowledge::impact::plural;
use crate::source::Language;
use crate::workspace::calls::Caller;

impl MemberLookup {
    /// The text `lexi lookup <file> --member <name>` prints.
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for warning in &self.warnings {
            out.push_str(warning);
            out.push_str("\n\n");
        }
        if self.case_differs {
            let labels: Vec<&str> = self.matches.iter().map(|m| m.label.as_str()).collect();
            out.push_str(&format!(
                "No member of {} is named `{}`; shown: {}, which differs in case.\n\n",
                self.source,
                self.member,
                labels.join(", ")
            ));
        }
        if self.matches.len() > 1 {
            out.push_str(&format!(
                "{} members of {} are named `{}` (each shown compactly; ask for one by its label):\n\n",
                self.matches.len(),
                self.source,
                self.member
            ));
        }
        let fence = Language::from_path(std::path::Path::new(&self.source))
            .map_or("", |language| language.fence());
        let caps = Caps::new(self.full);
        let mut previous: Option<&Member> = None;
        let single = self.matches.len() == 1;
        for member in &self.matches {
            // Callers are matched by name: members of one name share them; say so once.
            let same_callers = previous.is_some_and(|p| p.called_from == member.called_from);
            out.push_str(&member_text(
                &self.source,
                member,
                fence,
                same_callers,
                caps,
            ));
            if !single {
                out.push('\n');
                out.push_str(&doc_text(&self.source, member));
            }
            out.push('\n');
            previous = Some(member);
        }
        if !self.others.is_empty() {
            out.push_str(&format!(
                "Also named so in another case: {} (ask for one by its label)\n\n",
                self.others.join(", ")
            ));
        }
        out.push_str(&self.tests_text());
        let doc_apart = self.matches.first().filter(|m| !doc_in_source(m));
        if let (true, Some(member)) = (single, doc_apart) {
            if !out.ends_with("\n\n") {
                out.push('\n');
            }
            if member.doc.is_some() {
                out.push_str("## Doc\n\n");
            }
            out.push_str(&doc_text(&self.source, member));
        }
        out.trim_end().to_string() + "\n"
    }

    fn tests_text(&self) -> String {
        if self.tests.is_empty() && self.tests_reaching == 0 {
            return String::new();
        }
        let caps = Caps::new(self.full);
        let mut out = String::from("## Tests\n\n");
        // The tests calling it, then those reaching it through helpers or callers, named for it,
        // its delegate's (each saying how); then how many more were found, and how many other
        // tests reach its file.
        for hit in &self.tests {
            match &hit.via {
                Some(via) => out.push_str(&format!("- {} ({via})\n", test_line(hit, caps))),
                None => out.push_str(&format!("- {}\n", test_line(hit, caps))),
            }
        }
        if self.tests.is_empty() {
            out.push_str("- No test was seen calling it.\n");
        }
        if self.tests_left_out > 0 {
            let member = self
                .matches
                .first()
                .map_or(self.member.as_str(), |m| &m.label);
            out.push_str(&format!(
                "- … and {} more: `lexi lookup {} --member {member} --all`\n",
                self.tests_left_out, self.source
            ));
        }
        if self.tests_reaching > 0 {
            out.push_str(&format!(
                "- {} other test files reach the file: `lexi impact {}`\n",
                self.tests_reaching, self.source
            ));
        }
        out
    }

    /// The JSON `lexi lookup --member --format json` prints (fields in docs/commands.md).
    pub fn to_json(&self) -> serde_json::Value {
        serde_json::to_value(self).unwrap_or_default()
    }
}

/// How many entries of each list are shown: the defaults, or every one (`--full`).
#[derive(Clone, Copy, Debug)]
struct Caps {
    caller_files: usize,
    functions: usize,
    raises: usize,
    elsewhere: usize,
    members: usize,
}

impl Caps {
    fn new(full: bool) -> Caps {
        match full {
            true => Caps {
                caller_files: usize::MAX,
                functions: usize::MAX,
                raises: usize::MAX,
                elsewhere: usize::MAX,
                members: usize::MAX,
            },
            false => Caps {
                caller_files: CALLER_FILES_SHOWN,
                functions: FUNCTIONS_SHOWN,
                raises: RAISES_SHOWN,
                elsewhere: super::outside::SHOWN,
                members: MEMBERS_SHOWN,
            },
        }
    }
}

/// A member's doc (its first paragraph, or all of it with `--full`), with the note saying what was
/// left out and where its doc comes from.
fn doc_text(source: &str, member: &Member) -> String {
    let mut out = String::new();
    match &member.doc {
        Some(doc) => {
            out.push_str(doc);
            out.push('\n');
            if let Some(base) = &member.doc_inherited_from {
                out.push_str(&format!("(doc inherited from {base})\n"));
            }
            if member.doc_cut {
                out.push_str(&cut_note(source, member));
            }
        }
        None => out.push_str("(no doc)\n"),
    }
    out
}

/// One member's block: its header, signature and lines (its doc apart, [`doc_text`]).
fn member_text(
    source: &str,
    member: &Member,
    fence: &str,
    same_callers: bool,
    caps: Caps,
) -> String {
    let inherited = match (&member.inherited_from, &member.part_of) {
        (Some(base), _) => format!(" — inherited from {base}"),
        (None, Some(part)) => format!(" — declared in another part of {part}"),
        (None, None) => String::new(),
    };
    let span = match (member.line, member.end_line) {
        (Some(start), Some(end)) if end > start => format!(", lines {start}-{end}"),
        (Some(start), _) => format!(", line {start}"),
        _ => String::new(),
    };
    let mut out = format!(
        "# {source}: {}{inherited} ({}{span})\n\n",
        member.label, member.kind
    );
    out.push_str(&format!("```{fence}\n{}\n```\n", member.signature));
    let mut lines: Vec<String> = Vec::new();
    if !member.calls.is_empty() || !member.keys.is_empty() || member.recursive {
        let mut callees = crate::knowledge::calls::callees(&member.calls, &member.keys);
        if member.recursive {
            if !callees.is_empty() {
                callees.push_str(", ");
            }
            callees.push_str("itself (recursive)");
        }
        lines.push(format!("Calls: {callees}"));
    }
    if !member.calls_elsewhere.is_empty() {
        lines.push(format!(
            "Calls elsewhere: {}",
            elsewhere(&member.calls_elsewhere, caps.elsewhere)
        ));
    }
    if !member.called_by.is_empty() {
        lines.push(format!("Called by: {}", member.called_by.join(", ")));
    }
    if same_callers && !member.called_from.is_empty() {
        lines.push("Called from: as above (callers are matched by name)".to_string());
    } else if !member.called_from.is_empty() {
        lines.push(format!(
            "Called from: {}",
            called_from(source, member, caps)
        ));
    }
    if !member.name_matches.is_empty() {
        lines.push(name_matches(source, member, caps));
    }
    if let Some(up) = &member.overrides {
        match up.starts_with("trait ") || up.starts_with("interface ") {
            true => lines.push(format!("Implements: {up}")),
            false => lines.push(format!("Overrides: {up}")),
        }
    }
    if !member.implements.is_empty() {
        let mut implements: Vec<String> = member
            .implements
            .iter()
            .take(caps.caller_files)
            .cloned()
            .collect();
        let more = member.implements.len().saturating_sub(caps.caller_files);
        if more > 0 {
            implements.push(format!("+{more} more"));
        }
        lines.push(format!("Implements: {}", implements.join(", ")));
    }
    if !member.overridden_by.is_empty() {
        let what = match member.abstract_member {
            true => "Implemented by",
            false => "Overridden by",
        };
        let mut files: Vec<String> = member
            .overridden_by
            .iter()
            .take(caps.caller_files)
            .map(|caller| format!("{} ({})", capped(&caller.members, caps), caller.file))
            .collect();
        let more = member.overridden_by.len().saturating_sub(caps.caller_files);
        if more > 0 {
            files.push(format!("+{more} more files"));
        }
        lines.push(format!("{what}: {}", files.join("; ")));
    }
    if !member.raises.is_empty() {
        // Where they go is a walk up the callers: `lexi impact --member` makes it.
        let follow = match raised_types(&member.raises).is_empty() {
            true => String::new(),
            false => format!(
                " — where each goes: `lexi impact {source} --member {}`",
                member.label
            ),
        };
        lines.push(format!("Raises: {}{follow}", raises(&member.raises, caps)));
    }
    if !member.related.is_empty() {
        let related: Vec<String> = member
            .related
            .iter()
            .map(|r| {
                let shared = crate::knowledge::calls::callees(&r.calls, &r.keys);
                format!("{} (shares {shared})", r.member)
            })
            .collect();
        lines.push(format!("Related: {}", related.join("; ")));
    }
    if !member.members.is_empty() {
        lines.push(format!("Members: {}", capped_names(&member.members, caps)));
    }
    if !member.flow.is_empty() && member.source_lines.is_none() {
        lines.push(flow_text(source, member));
    }
    if !lines.is_empty() {
        out.push('\n');
        for line in lines {
            out.push_str(&format!("- {line}\n"));
        }
    }
    if let Some(text) = &member.source_lines {
        out.push_str(&format!("\n## Source\n\n```{fence}\n{text}\n```\n"));
    }
    out
}

/// Whether the member's source lines, shown, hold its doc (a Python docstring): then it is not
/// shown twice.
fn doc_in_source(member: &Member) -> bool {
    let (Some(text), Some(doc)) = (&member.source_lines, &member.doc) else {
        return false;
    };
    doc.lines()
        .next()
        .map(str::trim)
        .is_some_and(|first| !first.is_empty() && text.contains(first))
}

/// A type's members named at most (all with `--full`).
const MEMBERS_SHOWN: usize = 15;

/// `a, b, c, … +N`: the first [`MEMBERS_SHOWN`] names of a type's members.
fn capped_names(names: &[String], caps: Caps) -> String {
    let mut shown: Vec<&str> = names
        .iter()
        .take(caps.members)
        .map(String::as_str)
        .collect();
    let more = names.len().saturating_sub(caps.members);
    let more = format!("… +{more}");
    if names.len() > caps.members {
        shown.push(&more);
    }
    shown.join(", ")
}

/// `Flow:` and its lines; a flow folded or cut to the default lines says how to see it whole.
fn flow_text(source: &str, member: &Member) -> String {
    let mut flow = String::from("Flow:");
    for step in &member.flow {
        flow.push_str("\n    ");
        flow.push_str(step);
    }
    if member.flow_cut {
        flow.push_str(&format!(
            "\n    (folded: every step `lexi lookup {source} --member {} --full`, its code `--source`)",
            member.label
        ));
    }
    flow
}

/// The line under a doc that was cut: to fit the budget, or to its first paragraph when several
/// members matched.
fn cut_note(source: &str, member: &Member) -> String {
    match member.compact {
        true => format!(
            "(… more in its doc: `lexi lookup {source} --member {}`)\n",
            member.label
        ),
        false => format!(
            "(… the rest of the doc: `lexi lookup {source} --member {} --full`)\n",
            member.label
        ),
    }
}

/// `file (member, member); file (member)`: the code calling it, the first [`CALLER_FILES_SHOWN`]
/// files most relevant to `source` (its own package's nearest first, then other code, examples
/// and benches) and [`FUNCTIONS_SHOWN`] members of each; then how many test functions call it —
/// the Tests section names them.
fn called_from(source: &str, member: &Member, caps: Caps) -> String {
    let is_test = |file: &str, function: &str| {
        crate::archivist::is_test_path(file)
            || member
                .test_callers
                .contains(&(file.to_string(), function.to_string()))
    };
    let mut code: Vec<Caller> = Vec::new();
    let mut tests: Vec<Caller> = Vec::new();
    for caller in by_relevance(source, &member.called_from) {
        let (test_members, code_members): (Vec<String>, Vec<String>) = caller
            .members
            .iter()
            .cloned()
            .partition(|function| is_test(&caller.file, function));
        for (members, list) in [(code_members, &mut code), (test_members, &mut tests)] {
            if !members.is_empty() {
                list.push(Caller {
                    file: caller.file.clone(),
                    members,
                });
            }
        }
    }
    let mut parts: Vec<String> = code
        .iter()
        .take(caps.caller_files)
        .map(|caller| format!("{} ({})", caller.file, capped(&caller.members, caps)))
        .collect();
    let more = code.len().saturating_sub(caps.caller_files);
    if more > 0 {
        parts.push(format!("+{more} more files"));
    }
    if !tests.is_empty() {
        let functions: usize = tests.iter().map(|caller| caller.members.len()).sum();
        parts.push(format!(
            "{} in {} (see Tests)",
            plural(functions, "test function", "test functions"),
            plural(tests.len(), "test file", "test files")
        ));
    }
    parts.join("; ")
}

/// `callers` ordered by how relevant their file is to `source`: code of its own package, nearest
/// directories first, then other code, tests, and examples, benches and docs (as a design file's
/// cut lists rank them); by path within a rank.
fn by_relevance<'c>(source: &str, callers: &'c [Caller]) -> Vec<&'c Caller> {
    let files: Vec<String> = callers.iter().map(|caller| caller.file.clone()).collect();
    crate::archivist::abridge::most_relevant(&files, files.len(), source)
        .into_iter()
        .filter_map(|file| callers.iter().find(|caller| &caller.file == file))
        .collect()
}

/// The calls of the member's name that resolution cannot tell reach it: code files first (named),
/// then how many test files.
fn name_matches(source: &str, member: &Member, caps: Caps) -> String {
    let name = super::last_segment(&member.label);
    let found = &member.name_matches;
    let (code_sites, test_sites) = found.sites();
    let mut parts: Vec<String> = Vec::new();
    if !found.code.is_empty() {
        let mut files: Vec<String> = by_relevance(source, &found.code)
            .into_iter()
            .take(caps.caller_files)
            .map(|caller| format!("{} ({})", caller.file, capped(&caller.members, caps)))
            .collect();
        let more = found.code.len().saturating_sub(caps.caller_files);
        if more > 0 {
            files.push(format!("+{more} more files"));
        }
        parts.push(format!("{code_sites} in code: {}", files.join("; ")));
    }
    if !found.tests.is_empty() {
        // The test files with the most such calls named, with their count: where to look.
        let mut by_sites: Vec<&Caller> = found.tests.iter().collect();
        by_sites.sort_by_key(|caller| std::cmp::Reverse(caller.members.len()));
        let mut named: Vec<String> = by_sites
            .iter()
            .take(TEST_FILES_NAMED)
            .map(|caller| format!("{} ({})", caller.file, caller.members.len()))
            .collect();
        if found.tests.len() > TEST_FILES_NAMED {
            named.push(format!("+{} more", found.tests.len() - TEST_FILES_NAMED));
        }
        parts.push(format!(
            "{test_sites} in {} test files: {}",
            found.tests.len(),
            named.join(", ")
        ));
    }
    format!(
        "Unresolved `.{name}(…)` calls (the object's type is unknown; not counted as callers): {}",
        parts.join("; ")
    )
}

/// `a, b, … and N more`: the first [`RAISES_SHOWN`] entries.
fn raises(entries: &[String], caps: Caps) -> String {
    let mut shown: Vec<String> = entries.iter().take(caps.raises).cloned().collect();
    if entries.len() > caps.raises {
        shown.push(format!("… and {} more", entries.len() - caps.raises));
    }
    shown.join(", ")
}

/// `file: test_a, test_b, +N`, or the file alone.
fn test_line(hit: &TestHit, caps: Caps) -> String {
    match hit.functions.is_empty() {
        true => hit.file.clone(),
        false => format!("{}: {}", hit.file, capped(&hit.functions, caps)),
    }
}

/// `a, b, c, +N`: the first [`FUNCTIONS_SHOWN`] names and how many more.
fn capped(names: &[String], caps: Caps) -> String {
    let mut shown: Vec<String> = names.iter().take(caps.functions).cloned().collect();
    if names.len() > caps.functions {
        shown.push(format!("+{}", names.len() - caps.functions));
    }
    shown.join(", ")
}

/// The calls leaving the file, the first [`super::outside::SHOWN`] then how many more.
fn elsewhere(calls: &[String], shown: usize) -> String {
    let mut line = calls
        .iter()
        .take(shown)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if calls.len() > shown {
        line.push_str(&format!(", … and {} more", calls.len() - shown));
    }
    line
}
