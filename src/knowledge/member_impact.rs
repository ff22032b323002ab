//! `lexi impact <file> --member <name>`: what a change to one member reaches — its callers, level
//! by level (the members calling it, then the members calling those, …), across files, each with
//! the member it was reached through; the tests among them and the tests that exercise the member
//! (`lookup::member`'s, those calling it first); the calls of its name resolution cannot tell
//! (name matches, counted apart, never callers); and the members overriding or implementing it.
//! A type no one calls by name is reached through its methods: their callers outside the type.
//! Where the errors it raises go — the callers catching each type, the tops it leaves uncaught —
//! is its own section ([`errors`]).
//!
//! Callers are those `workspace::calls` finds: within a file, a member calling another by name
//! (`self.finalize_request(…)`); across files, only where resolution supports it (an import, a
//! module object, an object named for or made from the member's type, a re-export). A caller in a
//! test file is a test: it is listed, not followed further. The walk goes [`super::impact::DEFAULT_DEPTH`]
//! levels (`--depth`, 1–20), each member once at the level it is first reached, at most
//! [`MAX_CALLERS`] members in all; the graph of the last `lexictl update` is read once, and each
//! file's calls view once.

use std::collections::{BTreeMap, HashMap, HashSet};

mod errors;
pub use errors::{Catch, ErrorPath};

use anyhow::bail;

use super::impact::MAX_DEPTH;
use super::lookup::member::{last_segment, lookup_member, Asked, Member, TestHit};
use crate::archivist::is_test_path;
use crate::workspace::calls::{Caller, CallsView};
use crate::workspace::graph::Graph;
use crate::workspace::Workspace;

/// Callers followed in all, at most.
pub const MAX_CALLERS: usize = 300;
/// Caller lines shown per level (all with `--full`).
pub const LEVEL_SHOWN: usize = 20;
/// Test lines shown (all with `--full`), the most direct first.
pub const TESTS_SHOWN: usize = 10;

/// One member reached.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CallerAt {
    pub file: String,
    pub member: String,
    /// 1 for a caller of the member itself.
    pub depth: usize,
    /// The member it calls, one level down (`Flask.finalize_request`), and that member's file.
    pub via: String,
    pub via_file: String,
    /// It is a test (in a test file): listed, not followed.
    pub test: bool,
}

/// Everything `lexi impact --member` reports.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MemberImpact {
    pub source: String,
    /// The member's label (`Flask.make_response`).
    pub member: String,
    pub depth: usize,
    /// Every caller reached, by depth then file then member.
    pub callers: Vec<CallerAt>,
    /// Callers one level beyond `depth`, not followed.
    pub beyond: usize,
    /// The walk stopped at [`MAX_CALLERS`].
    pub capped: bool,
    /// The tests exercising the member (those calling it first, as `lexi lookup --member`
    /// finds them), then the test callers the walk met further up.
    pub tests: Vec<TestHit>,
    /// Where each exception type the member raises goes: the callers catching it, the tops of
    /// the walk it leaves uncaught.
    pub errors: Vec<ErrorPath>,
    /// Other test files reaching the member's file.
    pub tests_reaching: usize,
    /// Those files (listed with `--full`).
    #[serde(skip)]
    tests_reaching_files: Vec<String>,
    /// The member as `lexi lookup --member` shows it: its name matches, overrides and
    /// implementations.
    #[serde(skip)]
    shown: Member,
}

/// The impact of a change to the member `name` of `source`, `depth` levels of callers up; every
/// test caller the walk met gets its line (`to_text` shows the first of them unless `full`).
pub fn member_impact(
    ws: &Workspace,
    source: &str,
    name: &str,
    depth: usize,
) -> anyhow::Result<MemberImpact> {
    if depth == 0 || depth > MAX_DEPTH {
        bail!("--depth must be between 1 and {MAX_DEPTH} (got {depth})");
    }
    let found = lookup_member(
        ws,
        source,
        name,
        Asked {
            all_tests: true,
            ..Asked::default()
        },
    )?;
    let shown = match found.matches.as_slice() {
        [one] => one.clone(),
        several => {
            let labels: Vec<&str> = several.iter().map(|m| m.label.as_str()).collect();
            bail!(
                "{} members of {source} are named `{name}`: {}\n  hint: ask for one by its label (`--member {}`)",
                several.len(),
                labels.join(", "),
                labels[0]
            );
        }
    };
    let mut walk = Walk {
        graph: ws.graph(),
        views: HashMap::new(),
        tests: HashMap::new(),
    };
    let methods = match shown.called_by.is_empty() && shown.called_from.is_empty() {
        true => methods_of(ws, source, &shown.label),
        false => Vec::new(),
    };
    let (callers, beyond, capped) = walk.callers(source, &shown, &methods, depth);
    let errors = errors::error_paths(ws, &mut walk, source, &shown, depth);
    let tests = ranked_tests(&found.tests, &callers);
    let listed: HashSet<&str> = tests.iter().map(|t| t.file.as_str()).collect();
    let tests_reaching_files: Vec<String> = found
        .tests_reaching_files
        .iter()
        .filter(|f| !listed.contains(f.as_str()))
        .cloned()
        .collect();
    let tests_reaching = tests_reaching_files.len();
    Ok(MemberImpact {
        source: source.to_string(),
        member: shown.label.clone(),
        depth,
        callers,
        beyond,
        capped,
        tests,
        errors,
        tests_reaching,
        tests_reaching_files,
        shown,
    })
}

/// The tests exercising the member, most direct first: those `lexi lookup --member` found calling
/// it (or through in-file hops, or named for it), then the test functions the walk met calling one
/// of its callers (`calls helpers.make_response`); the tests merely named for one of its words
/// only when there is none of these.
fn ranked_tests(looked_up: &[TestHit], callers: &[CallerAt]) -> Vec<TestHit> {
    let named_for_a_word = |hit: &TestHit| {
        hit.via
            .as_deref()
            .is_some_and(|via| via.starts_with("named for \""))
    };
    let mut tests: Vec<TestHit> = looked_up
        .iter()
        .filter(|hit| !named_for_a_word(hit))
        .cloned()
        .collect();
    for ((file, via), functions) in test_callers(callers) {
        let via = format!("calls {via}");
        // A file the lookup found already keeps its line (it says how it exercises the member);
        // the walk's other test callers there get a line of their own, so every test function
        // a depth counts "under Tests" is named here (ripgrep's 33 `glue.rs` tests calling
        // `TesterConfig.search_slice`).
        let listed: Vec<&String> = tests
            .iter()
            .filter(|t| t.file == file)
            .flat_map(|t| t.functions.iter())
            .collect();
        // A helper a listed line goes through (`test_through_a_helper (via check)`) is no test.
        let helpers: Vec<&str> = tests
            .iter()
            .filter(|t| t.file == file)
            .filter_map(|t| t.via.as_deref())
            .collect();
        let is_helper = |f: &str| {
            helpers.iter().any(|via| {
                via.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.'))
                    .any(|word| word == f)
            })
        };
        let functions: Vec<String> = functions
            .into_iter()
            .filter(|f| !listed.contains(&f) && !is_helper(f))
            .collect();
        if functions.is_empty() {
            continue;
        }
        tests.push(TestHit {
            file,
            functions,
            via: Some(via),
        });
    }
    if tests.is_empty() {
        tests = looked_up.to_vec();
    }
    tests
}

/// The test callers met by the walk, by file and the member they call.
fn test_callers(callers: &[CallerAt]) -> BTreeMap<(String, String), Vec<String>> {
    let mut out: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for caller in callers.iter().filter(|c| c.test) {
        let via = match caller.via_file == caller.file {
            true => caller.via.clone(),
            false => format!("{} of {}", caller.via, caller.via_file),
        };
        out.entry((caller.file.clone(), via))
            .or_default()
            .push(caller.member.clone());
    }
    out
}

/// The walk up the callers, each file's calls view read once.
struct Walk<'a> {
    graph: Option<&'a Graph>,
    views: HashMap<String, Option<CallsView>>,
    /// Per file, its test functions (a Rust file's `#[test]`s beside its code).
    tests: HashMap<String, HashSet<String>>,
}

impl Walk<'_> {
    /// The callers of `member` of `source`, `depth` levels up: every one reached, how many more lie
    /// one level further, and whether the walk stopped at [`MAX_CALLERS`].
    fn callers(
        &mut self,
        source: &str,
        member: &Member,
        methods: &[String],
        depth: usize,
    ) -> (Vec<CallerAt>, usize, bool) {
        let mut seen: HashSet<(String, String)> =
            HashSet::from([(source.to_string(), member.label.clone())]);
        let mut out: Vec<CallerAt> = Vec::new();
        let mut frontier: Vec<(String, String)> = vec![(source.to_string(), member.label.clone())];
        let mut beyond = 0;
        let mut capped = false;
        for level in 1..=depth + 1 {
            let mut next = Vec::new();
            for (file, label) in &frontier {
                let found: Vec<(String, String, String)> = match level {
                    // The member's own callers are the ones its lookup found; a type no one
                    // calls by name is reached through its methods.
                    1 => own_callers(source, member)
                        .into_iter()
                        .map(|(f, c)| (f, c, label.clone()))
                        .chain(methods.iter().flat_map(|method| {
                            let outside = |c: &(String, String)| {
                                !(c.0 == source && c.1.starts_with(&format!("{label}.")))
                            };
                            self.callers_of(source, method)
                                .into_iter()
                                .filter(outside)
                                .map(|(f, c)| (f, c, method.clone()))
                                .collect::<Vec<_>>()
                        }))
                        .collect(),
                    _ => self
                        .callers_of(file, label)
                        .into_iter()
                        .map(|(f, c)| (f, c, label.clone()))
                        .collect(),
                };
                for (caller_file, caller, via) in found {
                    if !seen.insert((caller_file.clone(), caller.clone())) {
                        continue;
                    }
                    if level > depth {
                        beyond += 1;
                        continue;
                    }
                    if out.len() >= MAX_CALLERS {
                        capped = true;
                        continue;
                    }
                    let test = is_test_path(&caller_file) || self.is_test(&caller_file, &caller);
                    if !test {
                        next.push((caller_file.clone(), caller.clone()));
                    }
                    out.push(CallerAt {
                        file: caller_file,
                        member: caller,
                        depth: level,
                        via,
                        via_file: file.clone(),
                        test,
                    });
                }
            }
            frontier = next;
        }
        out.sort_by(|a, b| (a.depth, &a.file, &a.member).cmp(&(b.depth, &b.file, &b.member)));
        (out, beyond, capped)
    }

    /// Whether `member` of `file` is a test function: in a test file, or marked as one (a Rust
    /// `#[test]` in its code's file, ripgrep's `walk.rs` tests).
    fn is_test(&mut self, file: &str, member: &str) -> bool {
        let graph = self.graph;
        let tests = self.tests.entry(file.to_string()).or_insert_with(|| {
            graph
                .map(|graph| graph.member_calls(file))
                .unwrap_or_default()
                .iter()
                .filter(|calls| calls.test)
                .map(|calls| calls.member.clone())
                .collect()
        });
        tests.contains(member)
    }

    /// The members calling `label` of `file`: those of its file, then its neighbours' (resolved).
    fn callers_of(&mut self, file: &str, label: &str) -> Vec<(String, String)> {
        let graph = self.graph;
        let view = self
            .views
            .entry(file.to_string())
            .or_insert_with(|| graph.and_then(|graph| CallsView::read(graph, file)));
        let Some(view) = view else {
            return Vec::new();
        };
        let bare = last_segment(label);
        let typed = label.replace('.', "::");
        let mut out: Vec<(String, String)> = view
            .calls
            .iter()
            .filter(|edges| {
                edges.member != label && edges.calls.iter().any(|c| c == bare || c == label)
            })
            .map(|edges| (file.to_string(), edges.member.clone()))
            .collect();
        for called in &view.called_from {
            if called.name == bare || called.name == typed {
                out.extend(flatten(&called.callers));
            }
        }
        out
    }
}

/// The methods of type `label` that `source` defines (`WalkParallel.run`, `WalkParallel.visit`),
/// by label: through them a change to a type no one calls by name reaches its users.
fn methods_of(ws: &Workspace, source: &str, label: &str) -> Vec<String> {
    let Some(language) = crate::source::Language::from_path(std::path::Path::new(source)) else {
        return Vec::new();
    };
    let Ok(bytes) = ws.project().read(source) else {
        return Vec::new();
    };
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let Ok(file) = crate::source::SourceFile::parse(language, text) else {
        return Vec::new();
    };
    let prefix = format!("{label}.");
    let mut methods: Vec<String> = file
        .definitions
        .iter()
        .map(|d| d.label.clone())
        .filter(|l| {
            l.strip_prefix(&prefix)
                .is_some_and(|rest| !rest.contains('.'))
        })
        .collect();
    methods.dedup();
    methods
}

/// The callers `lexi lookup --member` found for the member: its file's, then its neighbours'.
fn own_callers(source: &str, member: &Member) -> Vec<(String, String)> {
    member
        .called_by
        .iter()
        .map(|caller| (source.to_string(), caller.clone()))
        .chain(flatten(&member.called_from))
        .collect()
}

fn flatten(callers: &[Caller]) -> Vec<(String, String)> {
    callers
        .iter()
        .flat_map(|c| c.members.iter().map(|m| (c.file.clone(), m.clone())))
        .collect()
}

/// Test files with unresolved calls of the member's name named in the text (all with `--full`).
const TEST_FILES_NAMED: usize = 3;

impl MemberImpact {
    /// The text `lexi impact <file> --member <name>` prints; every caller with `full`.
    pub fn to_text(&self, full: bool) -> String {
        let direct = self.callers.iter().filter(|c| c.depth == 1).count();
        let in_tests = self.callers.iter().filter(|c| c.test).count();
        let mut out = format!(
            "# Impact of {}: {} (depth {})\n\n",
            self.source, self.member, self.depth
        );
        let (code_matches, test_matches) = self.shown.name_matches.sites();
        // A file both calling it and reaching it through a helper is listed twice, counted once.
        let test_files: std::collections::BTreeSet<&str> =
            self.tests.iter().map(|hit| hit.file.as_str()).collect();
        let exercise = match test_files.len() {
            1 => "1 test file exercises it".to_string(),
            n => format!("{n} test files exercise it"),
        };
        out.push_str(&format!(
            "{direct} direct callers, {} within {} levels ({in_tests} in tests); {exercise}",
            self.callers.len(),
            self.depth,
        ));
        if code_matches + test_matches > 0 {
            out.push_str(&format!(
                "; {} unresolved calls of its name ({code_matches} in code, {test_matches} in tests)",
                code_matches + test_matches
            ));
        }
        out.push_str(".\n");
        if self.callers.is_empty() {
            out.push_str("\nNo caller was found (calls through objects of unknown type are counted apart, below).\n");
        }
        for level in 1..=self.depth {
            let at: Vec<&CallerAt> = self.callers.iter().filter(|c| c.depth == level).collect();
            if at.is_empty() {
                continue;
            }
            let in_tests = at.iter().filter(|c| c.test).count();
            let code: Vec<&CallerAt> = at.iter().copied().filter(|c| !c.test).collect();
            out.push_str(&format!("\n## Depth {level} ({})\n\n", at.len()));
            let lines = grouped(&code, full);
            let shown = match full {
                true => lines.len(),
                false => lines.len().min(LEVEL_SHOWN),
            };
            for line in &lines[..shown] {
                out.push_str(&format!("- {line}\n"));
            }
            if lines.len() > shown {
                out.push_str(&format!(
                    "- … and {} more lines (`--full`)\n",
                    lines.len() - shown
                ));
            }
            if in_tests > 0 {
                let functions = super::impact::plural(in_tests, "test function", "test functions");
                out.push_str(&format!("- {functions} (under Tests)\n"));
            }
        }
        if self.beyond > 0 {
            out.push_str(&format!(
                "\n… and {} more callers one level further (`--depth {}`).\n",
                self.beyond,
                self.depth + 1
            ));
        }
        if self.capped {
            out.push_str(&format!(
                "\nThe walk stopped after {MAX_CALLERS} callers.\n"
            ));
        }
        out.push_str(&errors::to_text(&self.errors, self.depth));
        self.more_text(&mut out, full);
        out
    }

    /// How many names a line shows: `shown`, or every one with `full`.
    fn names_shown(shown: usize, full: bool) -> usize {
        match full {
            true => usize::MAX,
            false => shown,
        }
    }

    /// Tests, name matches, overrides and implementations.
    fn more_text(&self, out: &mut String, full: bool) {
        if !self.tests.is_empty() || self.tests_reaching > 0 {
            out.push_str("\n## Tests\n\n");
            let shown = match full {
                true => self.tests.len(),
                false => self.tests.len().min(TESTS_SHOWN),
            };
            for hit in &self.tests[..shown] {
                let functions = match hit.functions.is_empty() {
                    true => String::new(),
                    false => format!(": {}", capped(&hit.functions, Self::names_shown(4, full))),
                };
                let via = hit
                    .via
                    .as_ref()
                    .map_or(String::new(), |v| format!(" ({v})"));
                out.push_str(&format!("- {}{functions}{via}\n", hit.file));
            }
            if self.tests.len() > shown {
                out.push_str(&format!(
                    "- … and {} more lines (`--full`)\n",
                    self.tests.len() - shown
                ));
            }
            if self.tests_reaching > 0 && full {
                out.push_str(&format!(
                    "- {} other test files reach the file: {}\n",
                    self.tests_reaching,
                    self.tests_reaching_files.join(", ")
                ));
            } else if self.tests_reaching > 0 {
                out.push_str(&format!(
                    "- {} other test files reach the file: `lexi impact {}`\n",
                    self.tests_reaching, self.source
                ));
            }
        }
        let matches = &self.shown.name_matches;
        if !matches.is_empty() {
            out.push_str(&format!(
                "\n## Unresolved calls of `{}` (the object's type is unknown; not followed)\n\n",
                last_segment(&self.member)
            ));
            let files = Self::names_shown(LEVEL_SHOWN, full);
            let members = Self::names_shown(4, full);
            for caller in matches.code.iter().take(files) {
                out.push_str(&format!(
                    "- {}: {}\n",
                    caller.file,
                    capped(&caller.members, members)
                ));
            }
            if matches.code.len() > files {
                out.push_str(&format!(
                    "- … and {} more files\n",
                    matches.code.len() - files
                ));
            }
            if full {
                for caller in &matches.tests {
                    out.push_str(&format!(
                        "- {} (test): {}\n",
                        caller.file,
                        caller.members.join(", ")
                    ));
                }
            } else if !matches.tests.is_empty() {
                // The test files named too (an agent asking what breaks wants to know which), the
                // first few with their first functions.
                for caller in matches.tests.iter().take(files.min(TEST_FILES_NAMED)) {
                    out.push_str(&format!(
                        "- {} (test): {}\n",
                        caller.file,
                        capped(&caller.members, members)
                    ));
                }
                let more = matches.tests.len().saturating_sub(TEST_FILES_NAMED);
                if more > 0 {
                    out.push_str(&format!(
                        "- … and {more} more test files (`--full` lists them)\n"
                    ));
                }
            }
        }
        if let Some(up) = &self.shown.overrides {
            out.push_str(&format!("\nOverrides or implements: {up}\n"));
        }
        if !self.shown.implements.is_empty() {
            let implements = self.shown.implements.join(", ");
            out.push_str(&format!("\nImplements: {implements}\n"));
        }
        if !self.shown.overridden_by.is_empty() {
            out.push_str(
                "\n## Overridden or implemented by (a change may need the same there)\n\n",
            );
            for caller in &self.shown.overridden_by {
                out.push_str(&format!(
                    "- {}: {}\n",
                    caller.file,
                    caller.members.join(", ")
                ));
            }
        }
    }

    /// The JSON `lexi impact --member --format json` prints.
    pub fn to_json(&self) -> serde_json::Value {
        let mut json = serde_json::to_value(self).unwrap_or_default();
        json["name_matches"] = serde_json::json!(self.shown.name_matches);
        json["overrides"] = serde_json::json!(self.shown.overrides);
        if !self.shown.implements.is_empty() {
            json["implements"] = serde_json::json!(self.shown.implements);
        }
        json["overridden_by"] = serde_json::json!(self.shown.overridden_by);
        json
    }
}

/// A level's callers in code as lines: `file: member, member (calls callee)`, by file then callee;
/// 6 members a line, or every one with `full`.
fn grouped(at: &[&CallerAt], full: bool) -> Vec<String> {
    let mut lines: BTreeMap<(&str, &str), Vec<&str>> = BTreeMap::new();
    for caller in at {
        lines
            .entry((caller.file.as_str(), caller.via.as_str()))
            .or_default()
            .push(caller.member.as_str());
    }
    lines
        .into_iter()
        .map(|((file, via), members)| {
            let members: Vec<String> = members.iter().map(|m| m.to_string()).collect();
            let shown = MemberImpact::names_shown(6, full);
            format!("{file}: {} (calls {via})", capped(&members, shown))
        })
        .collect()
}

/// `a, b, c, +N`.
fn capped(names: &[String], shown: usize) -> String {
    let mut out: Vec<String> = names.iter().take(shown).cloned().collect();
    if names.len() > shown {
        out.push(format!("+{}", names.len() - shown));
    }
    out.join(", ")
}
