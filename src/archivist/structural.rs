//! The structural Archivist: offline and deterministic. Everything it writes is derived from the file
//! itself — the module's own doc comment (or a summary of what it defines) as the description, the
//! public skeleton as the Interface Contract, resolved imports and the reverse index for Dependencies
//! and Dependents, test files among the dependents, tags from the path and language, and a Complexity
//! Warning from measurable signals. Same input, same bytes. Within a budget, the contract and the
//! lists keep their most important entries (`abridge`).

use super::abridge::{fit_contract, fits_whole, most_relevant};
use super::{is_test_path, Archivist, ArchivistInput, ArchivistOutput, Generation};
use crate::library::design_file::sections;
use crate::library::markdown::Section;
use crate::source::lang::files::is_header_of;

/// Lines above which a file is flagged as large.
const LARGE_FILE_LINES: usize = 500;
/// Block nesting from which a function is flagged as deeply nested.
const DEEP_NESTING: usize = 5;

/// The default Archivist.
#[derive(Clone, Copy, Debug, Default)]
pub struct StructuralArchivist;

impl Archivist for StructuralArchivist {
    fn name(&self) -> &str {
        "structural"
    }

    fn describe(&self, input: &ArchivistInput<'_>) -> anyhow::Result<ArchivistOutput> {
        let started = std::time::Instant::now();
        let mut out = match (input.language, input.interface) {
            (Some(language), Some(interface)) => code_sections(input, language, interface),
            // A non-code file code imports (JSON, CSS, a template) lists who imports it.
            _ => graph_sections(&Graph::of(input)),
        };
        out.push(Section::new(
            sections::TAGS,
            tag_list(&path_tags(input.source, input.language)),
        ));
        let mut description = super::describe::description(input);
        if crate::source::is_generated_header(input.text) {
            let lowered = super::describe::lower_initial(&description);
            description = format!("Generated file, not edited by hand: {lowered}");
        }
        Ok(ArchivistOutput {
            description,
            sections: out,
            generation: Generation::offline(
                self.name(),
                u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            ),
            over_budget: None,
        })
    }
}

/// The sections of a code file: its Interface Contract, Dependencies, Dependents, Tests and
/// Complexity Warning, within the budget (abridged: contract and Dependents only). The path lists
/// come first ([`graph_sections`]); the contract gets the room they leave, so the contract changes
/// only when the lists *as written* do.
fn code_sections(
    input: &ArchivistInput<'_>,
    language: crate::source::Language,
    interface: &crate::source::Interface,
) -> Vec<Section> {
    let lists = graph_sections(&Graph::of(input));
    let room = contract_room(input.budget_tokens, &lists);
    let contract = contract_text(language, interface, room, input.source);
    let mut out = vec![Section::new(sections::INTERFACE_CONTRACT, contract)];
    out.extend(lists);
    let warnings = complexity_warnings(interface);
    if !warnings.is_empty() && !input.abridged {
        out.push(Section::new(
            sections::COMPLEXITY_WARNING,
            warnings.join("\n"),
        ));
    }
    out
}

/// The graph around one file, which its path lists show: what it imports, what imports it, the
/// packages it uses, and the budget they share with the contract.
#[derive(Clone, Copy, Debug)]
pub struct Graph<'a> {
    pub source: &'a str,
    /// Whether the file is code (a parsed interface): code lists its Dependencies and Tests too.
    pub code: bool,
    pub dependencies: &'a [String],
    pub type_only: &'a [String],
    pub dependents: &'a [String],
    /// The tests that reach the file (its Tests list).
    pub tests: &'a [String],
    pub externals: &'a [String],
    pub abridged: bool,
    pub budget_tokens: usize,
}

impl<'a> Graph<'a> {
    /// The graph an Archivist input carries.
    pub fn of(input: &ArchivistInput<'a>) -> Graph<'a> {
        Graph {
            source: input.source,
            code: input.interface.is_some() && input.language.is_some(),
            dependencies: input.dependencies,
            type_only: input.type_only,
            dependents: input.dependents,
            tests: input.tests,
            externals: input.externals,
            abridged: input.abridged,
            budget_tokens: input.budget_tokens,
        }
    }
}

/// The one renderer of a design file's path lists — Dependencies, External Dependencies,
/// Dependents and Tests — from the whole graph, in [`super::OWNED_SECTIONS`] order. Every writer
/// (a regeneration, a Dependents refresh, a move) and the check that decides whether a file is
/// current use it, so a list reads the same whichever run wrote it (DESIGN §10). A non-code file
/// lists only its importers, and only when it has some.
pub fn graph_sections(graph: &Graph<'_>) -> Vec<Section> {
    let source = graph.source;
    if !graph.code {
        if graph.dependents.is_empty() {
            return Vec::new();
        }
        let cap = list_cap(graph.budget_tokens, &[], graph.dependents);
        let dependents = dependent_items(source, graph.dependents);
        return vec![Section::new(
            sections::DEPENDENTS,
            capped_list(&dependents, cap, source, Rest::Impact),
        )];
    }
    let room = room_for_lists(graph);
    let mut out = Vec::new();
    if !graph.abridged {
        let dependencies = dependency_items(source, graph.dependencies, graph.type_only);
        out.push(Section::new(
            sections::DEPENDENCIES,
            capped_list(&dependencies, room.list, source, Rest::Count),
        ));
        if !graph.externals.is_empty() {
            out.push(Section::new(
                sections::EXTERNAL_DEPENDENCIES,
                name_list(graph.externals, room.externals),
            ));
        }
    }
    let dependents = dependent_items(source, graph.dependents);
    out.push(Section::new(
        sections::DEPENDENTS,
        capped_list(&dependents, room.list, source, Rest::Impact),
    ));
    // A cut Tests list only counts the rest: the Dependents list, cut too when it holds them,
    // already points to `lexi impact`.
    if !graph.tests.is_empty() && !graph.abridged {
        out.push(Section::new(
            sections::TESTS,
            capped_list(graph.tests, room.list, source, Rest::Count),
        ));
    }
    out
}

/// The bytes the Interface Contract may take beside `lists` (as [`graph_sections`] wrote them):
/// what the budget leaves, less an eighth in reserve — signatures dense in punctuation (`&'a mut`,
/// `<T: ?Sized>`) take more tokens per byte than prose (tokio's `read_buf.rs` and `oneshot.rs`
/// were a few tokens over without it). No budget: no limit.
fn contract_room(budget_tokens: usize, lists: &[Section]) -> usize {
    if budget_tokens == 0 {
        return usize::MAX;
    }
    let bytes = (budget_tokens * BYTES_PER_TOKEN).saturating_sub(FIXED_BYTES);
    let taken: usize = lists
        .iter()
        .map(|section| section.heading.len() + section.body.len() + 8)
        .sum();
    (bytes.saturating_sub(taken) * 7 / 8).max(MIN_CONTRACT_BYTES)
}

/// The Interface Contract of `interface`: its public skeleton in a code fence, cut to the lines that
/// fit in `bytes` (`usize::MAX`: all of them) with a last line that counts the rest and points to
/// `source` ([`is_capped_contract`] recognises it). When the whole skeleton fits with them, each
/// documented item's line ends with the first sentence of its doc as a comment (`res.json =
/// function json(obj)  // Send JSON response.`), redacted like everything the Archivist writes;
/// when it does not, the signatures come first and the docs are left to `lexi lookup --full`.
pub fn contract_text(
    language: crate::source::Language,
    interface: &crate::source::Interface,
    bytes: usize,
    source: &str,
) -> String {
    fenced(language, interface, source, |primary| {
        let documented = documented_outline(language, interface.outline());
        let outline = match fits_whole(&documented, bytes) {
            true => documented.as_slice(),
            false => interface.outline(),
        };
        fit_contract(outline, bytes, primary, source)
    })
}

/// `interface`'s contract lines (given the file's primary type) in a code fence, or the line that
/// says there is no public interface.
fn fenced(
    language: crate::source::Language,
    interface: &crate::source::Interface,
    source: &str,
    lines: impl FnOnce(Option<&str>) -> String,
) -> String {
    if interface.skeleton().trim().is_empty() {
        return "(no public interface)".to_string();
    }
    let primary = super::describe::primary_type(source, interface);
    format!(
        "```{}\n{}\n```",
        language.fence(),
        lines(primary.as_deref())
    )
}

/// The Interface Contract `lexi lookup` shows within `bytes`: [`contract_text`]'s signatures, then
/// as many of the members' docs as fit — first sentences and the lines a caller must know, most
/// important member first (`super::documented`). With `usize::MAX`, everything.
pub fn reader_contract_text(
    language: crate::source::Language,
    interface: &crate::source::Interface,
    bytes: usize,
    source: &str,
) -> String {
    fenced(language, interface, source, |primary| {
        super::documented::reader_contract(language, interface, bytes, primary, source)
    })
}

/// The separator between a contract line's signature and its doc comment, by language (what
/// `source::contract` strips when it compares a contract with the code).
pub fn doc_marker(language: crate::source::Language) -> &'static str {
    language.spec().comments.trailing
}

/// A contract [`contract_text`] wrote, without the doc comments it appended to its lines: equal to
/// a contract written when the docs did not fit.
pub fn without_docs(contract: &str) -> String {
    without_behaviour(contract)
        .lines()
        .map(|line| {
            ["  // ", "  # "]
                .iter()
                .filter_map(|marker| line.find(marker))
                .min()
                .map_or(line, |at| &line[..at])
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A contract without the behaviour lines a reader's contract adds under its members
/// (`super::documented`): indented lines that are only a comment.
pub fn without_behaviour(contract: &str) -> String {
    contract
        .lines()
        .filter(|line| !super::documented::is_behaviour_line(line))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The outline with each documented line's first doc sentence appended as a trailing comment.
fn documented_outline(
    language: crate::source::Language,
    outline: &[crate::source::OutlineLine],
) -> Vec<crate::source::OutlineLine> {
    outline
        .iter()
        .map(|line| {
            let mut line = line.clone();
            if let Some(suffix) = doc_suffix(language, &line) {
                line.text.push_str(&suffix);
            }
            line
        })
        .collect()
}

/// What a contract line takes after its signature for its doc: the marker and the first doc
/// sentence (`  // Send JSON response.`); `None` when it has no doc.
pub fn doc_suffix(
    language: crate::source::Language,
    line: &crate::source::OutlineLine,
) -> Option<String> {
    let sentence = line
        .doc
        .as_deref()
        .and_then(super::describe::item_sentence)?;
    let sentence = crate::secrets::redact(&sentence).replace("```", "'''");
    // A line with its own comment (`app[method] = …  // for each of `methods``) takes the doc after
    // a dash.
    let marker = match line.text.contains(doc_marker(language)) {
        true => " — ",
        false => doc_marker(language),
    };
    Some(format!("{marker}{sentence}"))
}

/// Whether an Interface Contract is one [`contract_text`] cut: its last line inside the fence
/// counts the lines left out (`// … and N more lines: read <file>`).
pub fn is_capped_contract(body: &str) -> bool {
    let mut lines = body.trim_end().lines().rev();
    let closes_fence = lines.next().is_some_and(|line| line.trim() == "```");
    closes_fence
        && lines.next().is_some_and(|line| {
            let line = line.trim();
            line.starts_with("// … and ") && line.contains(" more line") && line.contains(": read ")
        })
}

/// Whether a path list is one [`capped_list`] cut: its last line counts the entries left out
/// (`… and N more`, perhaps with a pointer).
pub fn is_capped_list(body: &str) -> bool {
    body.trim_end().lines().next_back().is_some_and(|line| {
        let mut words = line.split_whitespace();
        words.next() == Some("…")
            && words.next() == Some("and")
            && words.next().is_some_and(|n| n.parse::<usize>().is_ok())
            && words
                .next()
                .is_some_and(|word| word.trim_end_matches(':') == "more")
    })
}

/// Bytes per cl100k token assumed when fitting text into a token budget: a safe underestimate for
/// code signatures and paths (which average more).
const BYTES_PER_TOKEN: usize = 3;
/// Bytes a design file takes besides its lists and contract: frontmatter, title, description,
/// headings, tags.
const FIXED_BYTES: usize = 480;
/// Bytes of the External Dependencies heading (not among [`FIXED_BYTES`]: most files have none).
const EXTERNALS_HEADING_BYTES: usize = 28;
/// Fewest entries a list keeps, whatever the budget.
const MIN_LISTED: usize = 5;
/// Fewest entries a list keeps when the lists would crowd out the contract.
const MIN_TIGHT_LISTED: usize = 1;
/// Fewest external packages listed when the budget is tight.
const MIN_EXTERNALS: usize = 3;
/// The smallest Interface Contract kept, in bytes, whatever the lists take.
const MIN_CONTRACT_BYTES: usize = 120;

/// How many entries each list may keep.
struct Room {
    /// Entries per path list.
    list: usize,
    /// Entries in the External Dependencies list.
    externals: usize,
}

/// Entries a path list keeps within `budget_tokens` (0 = no budget: all of them).
pub fn list_cap(budget_tokens: usize, dependencies: &[String], dependents: &[String]) -> usize {
    if budget_tokens == 0 {
        return usize::MAX;
    }
    let bytes = (budget_tokens * BYTES_PER_TOKEN).saturating_sub(FIXED_BYTES);
    (bytes / 6 / path_bytes(dependencies, dependents)).max(MIN_LISTED)
}

fn path_bytes(dependencies: &[String], dependents: &[String]) -> usize {
    4 + dependents
        .iter()
        .chain(dependencies)
        .map(String::len)
        .max()
        .unwrap_or(20)
}

/// Share the budget: a third to the lists, the rest to the contract. No budget: no limits.
fn room_for_lists(graph: &Graph<'_>) -> Room {
    if graph.budget_tokens == 0 {
        return Room {
            list: usize::MAX,
            externals: usize::MAX,
        };
    }
    let bytes = (graph.budget_tokens * BYTES_PER_TOKEN).saturating_sub(FIXED_BYTES);
    let path_bytes =
        path_bytes(graph.dependencies, graph.dependents).max(path_bytes(&[], graph.tests));
    let lengths = [
        graph.dependencies.len(),
        graph.dependents.len(),
        graph.tests.len(),
    ];
    // Every path list and the smallest contract must fit: in a crowded file (vite's
    // server/index.ts: 41 dependencies, 36 dependents, 15 tests, 8 packages) the lists keep fewer.
    let placed = |list: usize| {
        lengths
            .iter()
            .map(|n| (*n).min(list) * path_bytes)
            .sum::<usize>()
            + MIN_CONTRACT_BYTES
    };
    let mut list = list_cap(graph.budget_tokens, graph.dependencies, graph.dependents);
    while list > MIN_TIGHT_LISTED && placed(list) > bytes {
        list -= 1;
    }
    // External packages take what one path list would, in their (shorter) names; they get what is
    // left once every path list and the smallest contract are placed, at least three.
    let name_bytes = 4 + graph.externals.iter().map(String::len).max().unwrap_or(20);
    let left = bytes.saturating_sub(placed(list) + EXTERNALS_HEADING_BYTES);
    let externals = (list.saturating_mul(path_bytes) / name_bytes)
        .max(MIN_LISTED)
        .min((left / name_bytes).max(MIN_EXTERNALS));
    Room { list, externals }
}

/// What follows a Dependencies entry the file imports only for the type checker (Python
/// `if TYPE_CHECKING:`): `- src/flask/app.py (type-only)`. `lexi impact` does not follow such edges.
pub const TYPE_ONLY_MARK: &str = " (type-only)";

/// What follows a C or C++ source's Dependencies entry naming its own header
/// ([`is_header_of`]): `- sds.h (its header)`.
pub const HEADER_MARK: &str = " (its header)";

/// What follows a header's Dependents entry naming the source that defines what it declares:
/// `- sds.c (implements it)`.
pub const IMPLEMENTATION_MARK: &str = " (implements it)";

/// Every mark a path list's entry may end with.
const MARKS: [&str; 3] = [TYPE_ONLY_MARK, HEADER_MARK, IMPLEMENTATION_MARK];

/// The path of a path list's entry, without backticks and without the mark it may end with
/// (`sds.h` of `sds.h (its header)`): what every reader of a Dependencies or Dependents list
/// compares.
pub fn listed_path(item: &str) -> &str {
    let item = item.trim();
    let bare = MARKS
        .iter()
        .find_map(|mark| item.strip_suffix(mark))
        .unwrap_or(item);
    bare.trim_matches('`')
}

/// The mark `item` ends with, if any (`" (type-only)"`).
pub fn listed_mark(item: &str) -> Option<&'static str> {
    MARKS
        .into_iter()
        .find(|mark| item.trim_end().ends_with(mark))
}

/// The Dependencies entries of `source`'s `deps`: each path, marked [`TYPE_ONLY_MARK`] when it is
/// among `type_only`, [`HEADER_MARK`] when it is the source's own header.
pub fn dependency_items(source: &str, deps: &[String], type_only: &[String]) -> Vec<String> {
    deps.iter()
        .map(|dep| {
            if type_only.contains(dep) {
                format!("{dep}{TYPE_ONLY_MARK}")
            } else if is_header_of(source, dep) {
                format!("{dep}{HEADER_MARK}")
            } else {
                dep.clone()
            }
        })
        .collect()
}

/// The Dependents entries of `source`'s `dependents`: each path, marked [`IMPLEMENTATION_MARK`]
/// when `source` is its header.
pub fn dependent_items(source: &str, dependents: &[String]) -> Vec<String> {
    dependents
        .iter()
        .map(|dependent| match is_header_of(dependent, source) {
            true => format!("{dependent}{IMPLEMENTATION_MARK}"),
            false => dependent.clone(),
        })
        .collect()
}

/// What a capped path list's last line points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rest {
    /// Only the count: "… and 7 more".
    Count,
    /// The count and `lexi impact <source>`, which lists them all.
    Impact,
}

/// A `- path` list of at most `cap` entries: all of them in their order when they fit, else the
/// `cap` most relevant to `source` ([`most_relevant`]) and a last line counting the rest.
pub fn capped_list(paths: &[String], cap: usize, source: &str, rest: Rest) -> String {
    if paths.len() <= cap {
        return path_list(paths);
    }
    let kept: Vec<String> = most_relevant(paths, cap, source)
        .into_iter()
        .cloned()
        .collect();
    let mut out = path_list(&kept);
    let left = paths.len() - cap;
    match rest {
        Rest::Impact => out.push_str(&format!("\n… and {left} more: `lexi impact {source}`")),
        Rest::Count => out.push_str(&format!("\n… and {left} more")),
    }
    out
}

/// A `- name` list of at most `cap` package names in their (sorted) order, and a last line counting
/// the rest.
pub fn name_list(names: &[String], cap: usize) -> String {
    let kept = names.len().min(cap);
    let mut out = path_list(&names[..kept]);
    if names.len() > kept {
        out.push_str(&format!("\n… and {} more", names.len() - kept));
    }
    out
}

/// A `- path` list, one per line, or `(none)`.
pub fn path_list(paths: &[String]) -> String {
    if paths.is_empty() {
        "(none)".to_string()
    } else {
        paths
            .iter()
            .map(|path| format!("- {path}"))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// A `- tag` list, one per line.
pub fn tag_list(tags: &[String]) -> String {
    tags.iter()
        .map(|tag| format!("- {tag}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The measured Complexity Warning bullets of an interface (size, `unsafe`, markers, nesting).
pub fn complexity_warnings(interface: &crate::source::Interface) -> Vec<String> {
    let signals = &interface.signals;
    let mut out = Vec::new();
    if interface.has_errors {
        out.push("- Parse errors: tree-sitter could not parse all of this file; the interface above may be incomplete.".to_string());
    }
    if signals.lines > LARGE_FILE_LINES {
        out.push(format!(
            "- Large file: {} lines; consider splitting it.",
            signals.lines
        ));
    }
    if signals.unsafe_blocks > 0 {
        out.push(format!(
            "- {} `unsafe` block{}: check the invariants before editing.",
            signals.unsafe_blocks,
            if signals.unsafe_blocks == 1 { "" } else { "s" }
        ));
    }
    if signals.todo_markers > 0 {
        out.push(format!(
            "- {} TODO/FIXME/HACK marker{} in comments.",
            signals.todo_markers,
            if signals.todo_markers == 1 { "" } else { "s" }
        ));
    }
    if signals.max_nesting >= DEEP_NESTING {
        out.push(format!(
            "- Deep nesting: blocks nested {} levels inside a function.",
            signals.max_nesting
        ));
    }
    out
}

/// Tags: the language, `tests` for test files, and the meaningful directory names on the path —
/// a function of the path alone, so a moved file's tags follow it (`engine::update::generate::moved`).
pub fn path_tags(source: &str, language: Option<crate::source::Language>) -> Vec<String> {
    let mut tags = Vec::new();
    if let Some(language) = language {
        tags.push(language.ast_language().name().to_string());
    } else if let Some(ext) = source.rsplit_once('.').map(|(_, ext)| ext) {
        let ext = ext.to_ascii_lowercase();
        if ext.chars().all(|c| c.is_ascii_alphanumeric()) && ext.len() <= 8 {
            tags.push(ext);
        }
    }
    if is_test_path(source) {
        tags.push("tests".to_string());
    }
    let dirs: Vec<&str> = source.split('/').collect();
    for dir in &dirs[..dirs.len().saturating_sub(1)] {
        let tag = slug(dir);
        let generic = matches!(
            tag.as_str(),
            "" | "src"
                | "lib"
                | "app"
                | "crates"
                | "packages"
                | "pkg"
                | "source"
                | "sources"
                | "tests"
                | "test"
        );
        if !generic && !tags.contains(&tag) {
            tags.push(tag);
        }
    }
    tags.sort();
    tags.dedup();
    tags
}

/// Lowercase, hyphenated.
pub fn slug(text: &str) -> String {
    let mut out = String::new();
    for ch in text.chars() {
        if ch.is_alphanumeric() {
            out.extend(ch.to_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
    }
    out.trim_end_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{extract, Language};

    fn run(source: &str, text: &str, deps: &[&str], dependents: &[&str]) -> ArchivistOutput {
        let language = Language::from_path(std::path::Path::new(source));
        let interface = language.map(|language| extract(language, text).expect("parses"));
        let deps: Vec<String> = deps.iter().map(|d| d.to_string()).collect();
        let dependents: Vec<String> = dependents.iter().map(|d| d.to_string()).collect();
        let tests: Vec<String> = dependents
            .iter()
            .filter(|d| crate::archivist::is_listed_test(d))
            .cloned()
            .collect();
        StructuralArchivist
            .describe(&ArchivistInput {
                dependencies: &deps,
                dependents: &dependents,
                tests: &tests,
                ..ArchivistInput::of_file(source, text, language, interface.as_ref())
            })
            .expect("describes")
    }

    #[test]
    fn rust_module_with_doc_and_tests() {
        let out = run(
            "src/auth/token.rs",
            "//! Issues and verifies tokens. Uses HMAC.\n\npub fn issue(user: &str) -> String { String::new() }\nfn private() {}\n",
            &["src/auth/keys.rs"],
            &["src/api.rs", "tests/token_test.rs"],
        );
        assert_eq!(out.description, "Issues and verifies tokens.");
        let headings: Vec<_> = out.sections.iter().map(|s| s.heading.as_str()).collect();
        assert_eq!(
            headings,
            vec![
                "Interface Contract",
                "Dependencies",
                "Dependents",
                "Tests",
                "Tags"
            ]
        );
        assert_eq!(
            out.sections[0].body,
            "```rust\npub fn issue(user: &str) -> String\n```"
        );
        assert_eq!(out.sections[3].body, "- tests/token_test.rs");
        assert_eq!(out.sections[4].body, "- auth\n- rust");
    }

    #[test]
    fn summary_when_there_is_no_doc() {
        let out = run(
            "lib/util.py",
            "def a():\n    pass\n\ndef b():\n    pass\n\ndef c():\n    pass\n",
            &[],
            &[],
        );
        assert_eq!(
            out.description,
            "Defines the `a` function, the `b` function and 1 more item."
        );
        assert_eq!(out.sections[1].body, "(none)");
    }

    #[test]
    fn capped_contracts_and_lists_are_recognised() {
        let text = (0..40)
            .map(|i| format!("pub fn f{i}() {{}}\n"))
            .collect::<String>();
        let interface = extract(Language::Rust, &text).expect("parses");
        let capped = contract_text(Language::Rust, &interface, 100, "src/a.rs");
        assert!(is_capped_contract(&capped), "{capped}");
        let whole = contract_text(Language::Rust, &interface, usize::MAX, "src/a.rs");
        assert!(!is_capped_contract(&whole) && whole.contains("pub fn f39()"));
        let paths: Vec<String> = (0..9).map(|i| format!("src/m{i}.rs")).collect();
        assert!(is_capped_list(&capped_list(
            &paths,
            5,
            "src/a.rs",
            Rest::Impact
        )));
        assert!(is_capped_list(&capped_list(
            &paths,
            5,
            "src/a.rs",
            Rest::Count
        )));
        assert!(!is_capped_list(&capped_list(
            &paths,
            9,
            "src/a.rs",
            Rest::Count
        )));
        assert!(!is_capped_list("- and more.rs"));
    }

    #[test]
    fn member_docs_end_their_contract_lines_when_the_whole_contract_fits() {
        // The key is put together at run time: this file itself holds no credential-shaped text.
        let key = format!(
            "{}-{}",
            "sk-proj", "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdEFGH"
        );
        let text = format!(
            "var res = module.exports = {{}};\n\n/** Send JSON response.\n * @public\n */\n\
             res.json = function json(obj) {{}};\n\n/** Set the status (key {key}). */\n\
             res.status = function status(code) {{}};\n\n/** Module exports. */\nres.x = 1;\n"
        );
        let interface = extract(Language::JavaScript, &text).expect("parses");
        let whole = contract_text(Language::JavaScript, &interface, usize::MAX, "lib/res.js");
        assert!(
            whole.contains("res.json = function json(obj)  // Send JSON response.\n"),
            "{whole}"
        );
        // A doc is copied from the source: it is redacted like everything the Archivist writes.
        assert!(!whole.contains(&key), "{whole}");
        assert!(whole.contains("res.status = function status(code)  // Set the status"));
        // Boilerplate says nothing the line does not.
        assert!(whole.contains("\nres.x\n"), "{whole}");
        // Not all of them fit: the signatures come first, without docs.
        let tight = contract_text(Language::JavaScript, &interface, 100, "lib/res.js");
        assert!(!tight.contains("//"), "{tight}");
        assert!(tight.contains("res.json = function json(obj)\n"), "{tight}");
        assert_eq!(without_docs(&whole), tight);
        let python = extract(
            Language::Python,
            "class A:\n    def f(self):\n        \"\"\"Do f.\"\"\"\n",
        )
        .expect("parses");
        let contract = contract_text(Language::Python, &python, usize::MAX, "a.py");
        assert!(contract.contains("  def f(self)  # Do f.\n"), "{contract}");
    }

    /// vite's `server/index.ts`: so many dependencies, dependents, tests and packages that five of
    /// each crowded out the contract and went over the budget; the lists keep three instead.
    #[test]
    fn crowded_lists_keep_fewer_entries_so_the_contract_keeps_its_room() {
        let language = Language::TypeScript;
        let text =
            "export function createServer(config: InlineConfig): Promise<ViteDevServer> {}\n";
        let interface = extract(language, text).expect("parses");
        let paths = |prefix: &str, n: usize| -> Vec<String> {
            (0..n)
                .map(|i| format!("packages/vite/src/node/{prefix}/module_number_{i:02}.ts"))
                .collect()
        };
        let dependencies = paths("server", 41);
        let mut dependents = paths("plugins", 21);
        dependents.extend(
            (0..15).map(|i| format!("packages/vite/src/node/__tests__/case{i:02}.spec.ts")),
        );
        let externals: Vec<String> = (0..8).map(|i| format!("@scope/package-{i}")).collect();
        let tests: Vec<String> = dependents
            .iter()
            .filter(|d| d.contains("__tests__"))
            .cloned()
            .collect();
        let out = StructuralArchivist
            .describe(&ArchivistInput {
                source: "packages/vite/src/node/server/index.ts",
                text,
                language: Some(language),
                interface: Some(&interface),
                dependencies: &dependencies,
                dependents: &dependents,
                tests: &tests,
                externals: &externals,
                type_only: &[],
                existing: None,
                content_only: false,
                abridged: false,
                budget_tokens: 400,
            })
            .expect("describes");
        let body = |heading: &str| {
            out.sections
                .iter()
                .find(|s| s.heading == heading)
                .map(|s| s.body.clone())
                .unwrap_or_default()
        };
        let listed = |heading: &str| {
            body(heading)
                .lines()
                .filter(|l| l.starts_with("- "))
                .count()
        };
        for heading in ["Dependencies", "Dependents", "Tests"] {
            assert_eq!(listed(heading), 3, "{heading}:\n{}", body(heading));
        }
        // The packages take what is left, never fewer than three.
        let packages = listed("External Dependencies");
        assert!(
            (3..8).contains(&packages),
            "{}",
            body("External Dependencies")
        );
        assert!(body("Interface Contract").contains("createServer"));
    }

    #[test]
    fn external_packages_follow_the_dependencies_within_the_budget() {
        let language = Language::JavaScript;
        let text = "module.exports = function app() {};\n";
        let interface = extract(language, text).expect("parses");
        let externals: Vec<String> = (0..40).map(|i| format!("package-{i:02}")).collect();
        let describe = |externals: &[String], budget_tokens: usize| {
            StructuralArchivist
                .describe(&ArchivistInput {
                    externals,
                    budget_tokens,
                    ..ArchivistInput::of_file("lib/app.js", text, Some(language), Some(&interface))
                })
                .expect("describes")
        };
        let out = describe(&externals[..2], 400);
        let headings: Vec<_> = out.sections.iter().map(|s| s.heading.as_str()).collect();
        assert_eq!(
            headings,
            [
                "Interface Contract",
                "Dependencies",
                "External Dependencies",
                "Dependents",
                "Tags"
            ]
        );
        assert_eq!(out.sections[2].body, "- package-00\n- package-01");
        let capped = &describe(&externals, 400).sections[2].body;
        assert!(
            capped.ends_with("more") && capped.starts_with("- package-00\n"),
            "{capped}"
        );
        assert!(is_capped_list(capped), "{capped}");
        assert!(describe(&[], 400)
            .sections
            .iter()
            .all(|s| s.heading != "External Dependencies"));
    }

    #[test]
    fn complexity_signals_become_warnings() {
        let body = "if a { if b { if c { if d { if e { x(); } } } } }";
        let text = format!("pub fn f() {{ unsafe {{ g(); }} {body} }}\n// TODO: tidy\n");
        let out = run("src/f.rs", &text, &[], &[]);
        let warning = out
            .sections
            .iter()
            .find(|s| s.heading == "Complexity Warning")
            .expect("warning section");
        assert!(
            warning.body.contains("1 `unsafe` block"),
            "{}",
            warning.body
        );
        assert!(
            warning.body.contains("1 TODO/FIXME/HACK marker"),
            "{}",
            warning.body
        );
        assert!(warning.body.contains("Deep nesting"), "{}", warning.body);
    }

    #[test]
    fn non_code_files_get_tags_and_a_summary() {
        let out = run("docs/guide.md", "# User Guide\n\ntext\n", &[], &[]);
        assert_eq!(out.description, "Markdown document: User Guide.");
        assert_eq!(out.sections, vec![Section::new("Tags", "- docs\n- md")]);
    }
}
