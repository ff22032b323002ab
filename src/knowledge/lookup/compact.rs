//! The compact `lexi lookup`: what a file is for and how it connects, in at most
//! [`COMPACT_BYTES`] (about 1,000 tokens) whatever the file's size, each part saying how to get the
//! rest. `--full` prints everything (`Lookup::to_full_text`).
//!
//! ```text
//! # src/flask/sansio/app.py
//!
//! The flask object implements a WSGI application and acts as the central object.
//! Same description as src/flask/app.py (class Flask(App)); this one: class App(Scaffold).
//!
//! ## Members
//!
//! - class App(Scaffold) — The flask object implements a WSGI application and acts as the…
//!   - make_config(instance_relative) — Used to create the config attribute by the Flask constructor.
//!   - also (31): create_jinja_environment, add_url_rule, … +29
//!
//! Dependencies (10): src/flask/sansio/blueprints.py (type-only), src/flask/sansio/scaffold.py, … +8
//! Dependents (7, 3 type-only): src/flask/app.py, src/flask/debughelpers.py, … +5 — `lexi impact …`
//! Tests (20): tests/test_basic.py, tests/test_blueprints.py, tests/test_config.py, … +17
//! Calls: 6 members call others here; 15 names are called from 7 files.
//!
//! More: `--member NAME` one member whole (signature, doc, callers, callees, tests); `--full` all.
//! ```
//!
//! The parts, most needed first: the warnings, the description (and a twin's, `super::super::twins`),
//! the members (`super::members`: every public member on one line with its doc's first sentence, or
//! named when not all fit), one line each for dependencies, external packages, dependents, tests,
//! calls, complexity and tags, an agent's own sections (cut), the inherited Local Conventions (cut),
//! and the pointer to the rest. The members take the room the other parts leave. An agent's own
//! Interface Contract is shown instead of the members (cut to the room) when the source has not
//! outgrown it.

use crate::archivist::structural::{listed_mark, listed_path, TYPE_ONLY_MARK};
use crate::library::design_file::{sections, UpdatedBy};
use crate::library::markdown::list_items;
use crate::relpath::RelPath;
use crate::workspace::outlines::MemberOutline;

use super::members::{cut, member_lines};
use super::Lookup;

/// The most bytes a compact lookup prints.
pub const COMPACT_BYTES: usize = 4096;
/// Entries a one-line path list names before counting the rest.
const TOP_ENTRIES: usize = 3;
/// Longest description, preamble or agent section line shown, in bytes.
const PROSE_BYTES: usize = 320;
/// Most bytes the agents' own sections take together.
const AGENT_SECTIONS_BYTES: usize = 700;
/// Most bytes the inherited Local Conventions take.
const CONVENTIONS_BYTES: usize = 900;
/// Fewest bytes the members get, whatever the rest takes.
const MIN_MEMBERS_BYTES: usize = 600;

/// What a compact lookup adds to the design file, gathered by `lookup_in`.
#[derive(Clone, Debug, Default)]
pub struct Compact {
    /// The source's members and its primary type (from the outline store, else parsed), when
    /// it is code that parses.
    pub outline: Option<MemberOutline>,
    /// The whole dependency lists of the last update's graph, when it knows the file.
    pub dependencies: Option<Vec<String>>,
    pub dependents: Option<Vec<String>>,
    /// Files the file imports or that import it whose description is the same, with their primary
    /// declaration; and this file's.
    pub twins: Vec<(String, Option<String>)>,
    pub declaration: Option<String>,
}

/// The compact text of `found`.
pub fn render(found: &Lookup, compact: &Compact) -> String {
    let head = head(found, compact);
    let lists = lists(found, compact);
    let agents = agent_sections(found);
    let conventions = conventions(found);
    let more = more(found);
    let fixed = head.len() + lists.len() + agents.len() + conventions.len() + more.len() + 40;
    let room = COMPACT_BYTES.saturating_sub(fixed).max(MIN_MEMBERS_BYTES);
    let members = members(found, compact, room);
    let mut out = head;
    for part in [members, lists, agents, conventions, more] {
        if !part.is_empty() {
            out.push('\n');
            out.push_str(&part);
        }
    }
    out
}

/// The warnings, the title and the description, and the twins.
fn head(found: &Lookup, compact: &Compact) -> String {
    let mut out = String::new();
    for warning in found.warnings() {
        out.push_str(&warning);
        out.push_str("\n\n");
    }
    out.push_str(&format!("# {}\n", found.source));
    let description = found.design.frontmatter.description.trim();
    if !description.is_empty() {
        out.push('\n');
        out.push_str(&cut(description, PROSE_BYTES));
        out.push('\n');
    }
    if let Some(line) = twins_line(compact) {
        out.push_str(&line);
        out.push('\n');
    }
    let preamble = found.design.body.preamble.trim();
    if !preamble.is_empty() {
        out.push('\n');
        out.push_str(&cut_lines(preamble, PROSE_BYTES, &found.source));
        out.push('\n');
    }
    out
}

/// `Same description as src/flask/app.py (class Flask(App)); this one: class App(Scaffold).`
fn twins_line(compact: &Compact) -> Option<String> {
    if compact.twins.is_empty() {
        return None;
    }
    let named: Vec<String> = compact
        .twins
        .iter()
        .map(|(path, declaration)| match declaration {
            Some(declaration) => format!("{path} ({declaration})"),
            None => path.clone(),
        })
        .collect();
    let this = compact
        .declaration
        .as_deref()
        .map(|d| format!("; this one: {d}"))
        .unwrap_or_default();
    Some(format!("Same description as {}{this}.", named.join(", ")))
}

/// The members section: the agent's contract when it is theirs, else the source's members, else
/// the stored contract, each within `room`.
fn members(found: &Lookup, compact: &Compact, room: usize) -> String {
    let stored = found
        .design
        .body
        .sections
        .iter()
        .find(|s| s.heading.eq_ignore_ascii_case(sections::INTERFACE_CONTRACT));
    let agents = found.design.frontmatter.updated_by == UpdatedBy::Agent
        && stored.is_some_and(|s| !crate::archivist::structural::is_capped_contract(&s.body))
        && found.contract.is_none();
    if let (false, Some(outline)) = (agents, &compact.outline) {
        let heading = "## Members\n\n";
        let lines = member_lines(outline, room.saturating_sub(heading.len()));
        if lines.is_empty() {
            return String::new();
        }
        return format!("{heading}{}\n", lines.join("\n"));
    }
    let Some(stored) = stored else {
        return String::new();
    };
    let heading = format!("## {}\n\n", stored.heading);
    let room = room.saturating_sub(heading.len());
    let body = stored.body.trim();
    let body = match body.len() <= room {
        true => body.to_string(),
        false => super::super::trim::trim_contract(&found.source, body, room / 4)
            .map(|trimmed| trimmed.text)
            .filter(|text| text.len() <= room + 200)
            .unwrap_or_else(|| cut_lines(body, room, &found.source)),
    };
    format!("{heading}{body}\n")
}

/// One line each: dependencies, external packages, dependents, tests, calls, complexity, tags,
/// concepts, Stack posts.
fn lists(found: &Lookup, compact: &Compact) -> String {
    let source = &found.source;
    let mut lines: Vec<String> = Vec::new();
    let section = |heading: &str| {
        found
            .design
            .body
            .sections
            .iter()
            .find(|s| s.heading.eq_ignore_ascii_case(heading))
    };
    let items = |heading: &str| section(heading).map(|s| list_items(&s.body));
    let type_only = found
        .reach
        .as_ref()
        .map(|reach| reach.type_only_dependents.as_slice())
        .unwrap_or_default();
    if let Some(line) = path_line(
        "Dependencies",
        &items(sections::DEPENDENCIES).unwrap_or_default(),
        compact.dependencies.as_deref(),
        &[],
    ) {
        lines.push(line);
    }
    if let Some(externals) = items(sections::EXTERNAL_DEPENDENCIES).filter(|e| !e.is_empty()) {
        lines.push(format!("External: {}", names(&externals, 8)));
    }
    if let Some(line) = path_line(
        "Dependents",
        &items(sections::DEPENDENTS).unwrap_or_default(),
        compact.dependents.as_deref(),
        type_only,
    ) {
        lines.push(format!("{line} — `lexi impact {source}`"));
    }
    let tests = match &found.reach {
        Some(reach) if !reach.tests.is_empty() => reach.tests.clone(),
        _ => items(sections::TESTS).unwrap_or_default(),
    };
    if let Some(line) = path_line("Tests", &tests, None, &[]) {
        lines.push(line);
    }
    if let Some(line) = calls_line(found) {
        lines.push(line);
    }
    for (heading, label) in [
        (sections::COMPLEXITY_WARNING, "Complexity"),
        (sections::TAGS, "Tags"),
        (sections::WIKILINKS, "Concepts"),
        (sections::STACK, "Stack"),
    ] {
        if let Some(found) = items(heading).filter(|items| !items.is_empty()) {
            let separator = if heading == sections::COMPLEXITY_WARNING {
                "; "
            } else {
                ", "
            };
            let text = cut(&found.join(separator), PROSE_BYTES);
            lines.push(format!("{label}: {text}"));
        }
    }
    match lines.is_empty() {
        true => String::new(),
        false => format!("{}\n", lines.join("\n")),
    }
}

/// `Dependents (7, 3 type-only): a, b, c, … +4`: the count (whole from the graph when it has the
/// list), the first [`TOP_ENTRIES`] — in the design file's order (most relevant first), the ones
/// imported at run time before the type-only ones; `None` when there are none.
fn path_line(
    label: &str,
    ranked: &[String],
    whole: Option<&[String]>,
    type_only: &[String],
) -> Option<String> {
    let ranked: Vec<String> = ranked
        .iter()
        .map(|item| item.trim().trim_matches('`').to_string())
        .filter(|item| !item.is_empty() && item != "(none)" && !item.starts_with('…'))
        .collect();
    let bare = |item: &str| listed_path(item).to_string();
    let mut all: Vec<String> = ranked.iter().map(|item| bare(item)).collect();
    for path in whole.unwrap_or_default() {
        if !all.contains(path) {
            all.push(path.clone());
        }
    }
    if all.is_empty() {
        return None;
    }
    let mark_of = |path: &String| {
        let listed = ranked.iter().find(|item| bare(item) == *path);
        match type_only.contains(path) {
            true => Some(TYPE_ONLY_MARK),
            false => listed.and_then(|item| listed_mark(item)),
        }
    };
    let is_type_only = |path: &String| mark_of(path) == Some(TYPE_ONLY_MARK);
    let typed = all.iter().filter(|path| is_type_only(path)).count();
    // A source's own header (a header's own source) first, then run-time importers: what a
    // change reaches; the type-only ones last.
    let rank = |path: &String| match mark_of(path) {
        Some(TYPE_ONLY_MARK) => 2,
        Some(_) => 0,
        None => 1,
    };
    let mut order: Vec<&String> = all.iter().collect();
    order.sort_by_key(|path| rank(path));
    let shown: Vec<String> = order
        .iter()
        .take(TOP_ENTRIES)
        .map(|path| format!("{path}{}", mark_of(path).unwrap_or_default()))
        .collect();
    let mut count = match typed {
        0 => format!("{}", all.len()),
        n => format!("{}, {n} type-only", all.len()),
    };
    if all.len() > SPREAD_LIMIT {
        count.push_str(&format!("; {}", spread(&all)));
    }
    let rest = match all.len().saturating_sub(TOP_ENTRIES) {
        0 => String::new(),
        n => format!(", … +{n}"),
    };
    Some(format!("{label} ({count}): {}{rest}", shown.join(", ")))
}

/// Lists longer than this also say how they spread over directories.
const SPREAD_LIMIT: usize = 20;
/// Directories a spread names.
const SPREAD_SHOWN: usize = 3;

/// `src/shop/views/ 13, src/shop/api/ 12, … 2 more dirs`: the directories holding most of `paths`.
fn spread(paths: &[String]) -> String {
    let mut groups: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for path in paths {
        *groups.entry(RelPath::new(path).dir()).or_default() += 1;
    }
    let mut groups: Vec<(&str, usize)> = groups.into_iter().collect();
    groups.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let mut parts: Vec<String> = groups
        .iter()
        .take(SPREAD_SHOWN)
        .map(|(dir, n)| match dir.is_empty() {
            true => format!("./ {n}"),
            false => format!("{dir}/ {n}"),
        })
        .collect();
    match groups.len().saturating_sub(SPREAD_SHOWN) {
        0 => {}
        1 => parts.push("… 1 more dir".to_string()),
        n => parts.push(format!("… {n} more dirs")),
    }
    parts.join(", ")
}

/// At most `max` names joined, the rest counted.
fn names(items: &[String], max: usize) -> String {
    let shown: Vec<&str> = items.iter().take(max).map(String::as_str).collect();
    match items.len().saturating_sub(max) {
        0 => shown.join(", "),
        n => format!("{}, … +{n}", shown.join(", ")),
    }
}

/// `Calls: 6 members call others here; 15 names are called from 7 files.`
fn calls_line(found: &Lookup) -> Option<String> {
    let view = found.calls.as_ref()?;
    let mut parts = Vec::new();
    if !view.calls.is_empty() {
        let n = view.calls.len();
        let noun = if n == 1 {
            "member calls"
        } else {
            "members call"
        };
        parts.push(format!("{n} {noun} others here"));
    }
    if !view.called_from.is_empty() {
        let mut files: Vec<&str> = view
            .called_from
            .iter()
            .flat_map(|called| called.callers.iter().map(|c| c.file.as_str()))
            .collect();
        files.sort_unstable();
        files.dedup();
        let n = view.called_from.len();
        let noun = if n == 1 { "name is" } else { "names are" };
        let file_noun = if files.len() == 1 { "file" } else { "files" };
        parts.push(format!(
            "{n} {noun} called from {} {file_noun}",
            files.len()
        ));
    }
    (!parts.is_empty()).then(|| format!("Calls: {}.", parts.join("; ")))
}

/// The sections no Archivist writes (an agent's or a person's), each cut, together within
/// [`AGENT_SECTIONS_BYTES`].
fn agent_sections(found: &Lookup) -> String {
    let known = [
        sections::INTERFACE_CONTRACT,
        sections::DEPENDENCIES,
        sections::EXTERNAL_DEPENDENCIES,
        sections::DEPENDENTS,
        sections::TESTS,
        sections::COMPLEXITY_WARNING,
        sections::WIKILINKS,
        sections::TAGS,
        sections::STACK,
    ];
    let own: Vec<_> = found
        .design
        .body
        .sections
        .iter()
        .filter(|s| !known.iter().any(|k| s.heading.eq_ignore_ascii_case(k)))
        .filter(|s| !s.body.trim().is_empty())
        .collect();
    let mut out = String::new();
    let mut left_out = 0;
    for section in &own {
        let text = format!(
            "## {}\n\n{}\n",
            section.heading,
            cut_lines(section.body.trim(), PROSE_BYTES, &found.source)
        );
        match out.len() + text.len() <= AGENT_SECTIONS_BYTES {
            true => {
                out.push_str(&text);
                out.push('\n');
            }
            false => left_out += 1,
        }
    }
    if left_out > 0 {
        out.push_str(&format!(
            "… and {left_out} more sections: `lexi lookup --full {}`\n",
            found.source
        ));
    }
    out.trim_end().to_string() + if out.is_empty() { "" } else { "\n" }
}

/// The inherited Local Conventions, one line a rule, within [`CONVENTIONS_BYTES`].
fn conventions(found: &Lookup) -> String {
    if found.conventions.is_empty() {
        return String::new();
    }
    let mut out = String::from("## Inherited Local Conventions\n\n");
    let mut left_out = 0;
    let mut deepest = "";
    for dir in &found.conventions {
        let shown = match dir.directory.is_empty() {
            true => "./".to_string(),
            false => format!("{}/", dir.directory),
        };
        deepest = &dir.directory;
        for item in &dir.items {
            let line = format!("- {} ({shown})\n", cut(item, PROSE_BYTES));
            match out.len() + line.len() <= CONVENTIONS_BYTES {
                true => out.push_str(&line),
                false => left_out += 1,
            }
        }
    }
    if left_out > 0 {
        let dir = if deepest.is_empty() { "." } else { deepest };
        out.push_str(&format!(
            "- … and {left_out} more: `lexi conventions {dir}`\n"
        ));
    }
    out
}

/// Where the rest is.
fn more(found: &Lookup) -> String {
    let source = &found.source;
    format!(
        "More: `lexi lookup {source} --member NAME` shows one member whole (signature, doc, callers, callees, tests); `--full` every section whole.\n"
    )
}

/// `text`'s lines while they fit in `max` bytes (a longer first line cut), then a line saying the
/// rest is in `--full`.
fn cut_lines(text: &str, max: usize, source: &str) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut out = String::new();
    for line in text.lines() {
        if out.len() + line.len() + 1 > max {
            if out.is_empty() {
                out.push_str(&cut(line, max));
                out.push('\n');
            }
            break;
        }
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(&format!("… (`lexi lookup --full {source}`)"));
    out
}
