//! `lexi impact <file> [--depth N]`: what a change to a file reaches — its dependents level by
//! level (the files that import it, then the files that import those, …), the tests among them,
//! and the concepts and Stack posts linked to any of them.
//!
//! Edges that exist only for the type checker (Python `if TYPE_CHECKING:` imports, the graph's
//! type-only dependencies) are not followed: a change does not reach the importer at run time. Those
//! importers are counted apart ([`TypeOnlyImporter`]) — unless the importer calls the file's
//! members at run time all the same, through the objects it is handed (flask's `ctx.py` imports
//! `app.py` for types and calls `self.app.create_url_adapter(…)`): then it is reached, and says
//! which calls reach it (`workspace::calls`, resolved callers and name matches alike).
//!
//! The graph is the whole one the last `lexictl update` resolved (`workspace::graph`, from the
//! per-clone cache), loaded once. A clone without it (before its first update) falls back to the
//! design files' `## Dependents` lists — which hold only what fits a design file's budget — and
//! says so. Each file is listed once, at the depth it is first reached, breadth first. The design
//! files of the reached files are read for their descriptions and links. Tests are the reached files
//! a test runner collects (`archivist::is_test_case`: `tests/test_*.py`, `*.test.js`, `*_test.go`,
//! …; not `conftest.py` nor the helpers and sample apps other tests import) plus the `## Tests`
//! sections of every design file on the way, ordered by how directly they exercise the file
//! (`workspace::test_rank`, which `lexi lookup` shares): by depth, then those named for it
//! (`tests/test_json.py` for `json.py`) or for one of its public members, then by path.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::io::ErrorKind;

use anyhow::{bail, Context as _};

use super::concepts::Resolver;
use super::corpus::{Corpus, DocKind, Kinds};
use super::trim::LIST_LIMIT;
use crate::archivist::is_test_case;
use crate::library::design_file::{sections, DesignFile};
use crate::library::markdown::list_items;
use crate::library::wikilink::{self, Wikilink};
use crate::project::mirror::design_path;
use crate::project::{Project, LIBRARY_DIR};
use crate::relpath::RelPath;
use crate::workspace::graph::Graph;
use crate::workspace::test_rank::rank;
use crate::workspace::Workspace;

/// The default number of levels followed.
pub const DEFAULT_DEPTH: usize = 3;
/// The most levels `--depth` accepts.
pub const MAX_DEPTH: usize = 20;

/// The line that says the answer comes from the design files' (possibly capped) lists.
pub const FROM_DESIGN_FILES: &str =
    "From the design files: lists may be capped; run `lexictl update` for the whole graph.";

/// One file a change reaches.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Reached {
    pub file: String,
    /// 1 for a direct dependent.
    pub depth: usize,
    /// The file one level up through which it was reached (the changed file at depth 1).
    pub via: String,
    /// Its design file's description (empty when it has no design file).
    pub description: String,
    pub test: bool,
    /// It imports the file it was reached through only for the type checker, but calls these of
    /// its names at run time (`create_url_adapter`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub calls_at_run_time: Vec<String>,
}

/// A file that imports a changed or reached file only for the type checker (Python
/// `if TYPE_CHECKING:`): a change does not reach it at run time, so it is not followed.
#[derive(Clone, Debug, serde::Serialize)]
pub struct TypeOnlyImporter {
    pub file: String,
    /// The changed or reached file it imports for types.
    pub imports: String,
}

/// A concept linked from the design file of the changed file or of a reached one.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LinkedConcept {
    pub name: String,
    pub title: String,
    pub summary: String,
    /// The files whose design files link it.
    pub files: Vec<String>,
}

/// A Stack post about the changed file or a reached one.
#[derive(Clone, Debug, serde::Serialize)]
pub struct LinkedPost {
    pub id: String,
    pub title: String,
    pub status: String,
    pub files: Vec<String>,
}

/// Where the dependents came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GraphSource {
    /// The whole graph of the last update.
    Graph,
    /// The design files' Dependents lists (no graph yet): they may be capped.
    DesignFiles,
}

/// Everything `lexi impact` reports.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Impact {
    pub source: String,
    pub depth: usize,
    /// Where the dependents came from.
    pub from: GraphSource,
    /// Every reached file, by depth then path.
    pub files: Vec<Reached>,
    /// Tests among the reached files, and tests the design files on the way name: by depth, those
    /// named for the file first, then by path. Helpers, fixtures and sample apps in the test tree
    /// are not tests (`archivist::is_test_case`).
    pub tests: Vec<String>,
    pub concepts: Vec<LinkedConcept>,
    pub stack: Vec<LinkedPost>,
    /// Dependents one level beyond `depth`, not followed.
    pub beyond: usize,
    /// Files that import the changed file or a reached one only for the type checker and are not
    /// reached otherwise: counted apart, not followed.
    pub type_only: Vec<TypeOnlyImporter>,
}

/// What one design file says about the graph.
#[derive(Default)]
struct Node {
    description: String,
    dependents: Vec<String>,
    tests: Vec<String>,
    links: Vec<Wikilink>,
}

/// The impact of a change to project-relative `source`, `depth` levels deep, over the workspace's
/// graph (or, without one, its design files).
pub fn impact(ws: &Workspace, source: &str, depth: usize) -> anyhow::Result<Impact> {
    if depth == 0 || depth > MAX_DEPTH {
        bail!("--depth must be between 1 and {MAX_DEPTH} (got {depth})");
    }
    let project = ws.project();
    let graph = ws.graph();
    let root = match read_node(project, source)? {
        Some(root) => root,
        // A file the graph knows needs no design file of its own (a test read for its imports).
        None if graph.is_some_and(|graph| graph.knows(source)) => Node::default(),
        None => return Err(no_design_file(project, source)),
    };
    let walk = Walk {
        project,
        graph,
        depth,
    };
    let Reach {
        files,
        nodes,
        beyond,
        type_only,
    } = walk.breadth_first(source, root)?;
    let tests = tests_of(source, &files, &nodes, graph);
    let concepts = concepts_of(project, &nodes);
    let stack = posts_of(project, &nodes);
    Ok(Impact {
        source: source.to_string(),
        depth,
        from: match graph {
            Some(_) => GraphSource::Graph,
            None => GraphSource::DesignFiles,
        },
        files,
        tests,
        concepts,
        stack,
        beyond,
        type_only,
    })
}

/// Why `source` has no impact to report, as advice.
fn no_design_file(project: &Project, source: &str) -> anyhow::Error {
    if project.abs(source).is_dir() {
        return anyhow::anyhow!(
            "{source} is a directory; impact is for one file — try `lexi index {source}`"
        );
    }
    if !project.abs(source).exists() {
        return anyhow::anyhow!("no such file: {source}");
    }
    anyhow::anyhow!("no design file for {source} yet — run `lexictl update {source}`")
}

/// What a walk reached.
struct Reach {
    /// Every file reached within the depth, by depth then path.
    files: Vec<Reached>,
    /// The nodes read on the way, the changed file's first.
    nodes: Vec<(String, Node)>,
    /// Dependents one level further.
    beyond: usize,
    /// Importers for types only, not reached at run time, by path.
    type_only: Vec<TypeOnlyImporter>,
}

/// A file depending on another at run time; `calls_at_run_time`: the names it calls though it
/// imports the file only for types.
struct Dependent {
    file: String,
    calls_at_run_time: Vec<String>,
}

impl Dependent {
    fn new(file: &str) -> Dependent {
        Dependent {
            file: file.to_string(),
            calls_at_run_time: Vec::new(),
        }
    }
}

/// One breadth-first walk of the dependents.
struct Walk<'a> {
    project: &'a Project,
    graph: Option<&'a Graph>,
    depth: usize,
}

impl Walk<'_> {
    /// The files that import `file` at run time, and those that import it only for the type
    /// checker: from the graph, else (all at run time) its design file's list. An importer for
    /// types that calls the file's names at run time is a run-time one (with those names).
    fn dependents(&self, file: &str, node: &Node) -> (Vec<Dependent>, Vec<String>) {
        let Some(graph) = self.graph else {
            let all = node.dependents.iter().map(|f| Dependent::new(f)).collect();
            return (all, Vec::new());
        };
        let (runtime, typed): (Vec<String>, Vec<String>) = graph
            .dependents(file)
            .iter()
            .cloned()
            .partition(|importer| !graph.is_type_only(importer, file));
        let mut runtime: Vec<Dependent> = runtime.iter().map(|f| Dependent::new(f)).collect();
        if typed.is_empty() {
            return (runtime, typed);
        }
        let calls = crate::workspace::calls::CallsView::read(graph, file).unwrap_or_default();
        let mut types_only = Vec::new();
        for importer in typed {
            let names: Vec<String> = calls
                .called_from
                .iter()
                .chain(&calls.unresolved)
                .filter(|called| called.callers.iter().any(|c| c.file == importer))
                .map(|called| called.name.clone())
                .collect::<std::collections::BTreeSet<String>>()
                .into_iter()
                .collect();
            match names.is_empty() {
                true => types_only.push(importer),
                false => runtime.push(Dependent {
                    file: importer,
                    calls_at_run_time: names,
                }),
            }
        }
        runtime.sort_by(|a, b| a.file.cmp(&b.file));
        (runtime, types_only)
    }

    /// Every file reached from `source` within the depth, through run-time imports.
    fn breadth_first(&self, source: &str, root: Node) -> anyhow::Result<Reach> {
        let mut seen: HashSet<String> = HashSet::from([source.to_string()]);
        let mut files = Vec::new();
        let (runtime, typed) = self.dependents(source, &root);
        let mut type_only: Vec<TypeOnlyImporter> = typed
            .into_iter()
            .map(|file| TypeOnlyImporter {
                file,
                imports: source.to_string(),
            })
            .collect();
        let mut frontier = vec![(source.to_string(), runtime)];
        let mut nodes: Vec<(String, Node)> = vec![(source.to_string(), root)];
        let mut beyond = 0;
        for level in 1..=self.depth + 1 {
            let mut next = Vec::new();
            for (via, dependents) in &frontier {
                for found in dependents {
                    let dependent = &found.file;
                    if !seen.insert(dependent.clone()) {
                        continue;
                    }
                    if level > self.depth {
                        beyond += 1;
                        continue;
                    }
                    let node = read_node(self.project, dependent)?.unwrap_or_default();
                    let (runtime, typed) = self.dependents(dependent, &node);
                    files.push(Reached {
                        file: dependent.clone(),
                        depth: level,
                        via: via.clone(),
                        description: node.description.clone(),
                        test: is_test_case(dependent, runtime.len() + typed.len()),
                        calls_at_run_time: found.calls_at_run_time.clone(),
                    });
                    type_only.extend(typed.into_iter().map(|file| TypeOnlyImporter {
                        file,
                        imports: dependent.clone(),
                    }));
                    next.push((dependent.clone(), runtime));
                    nodes.push((dependent.clone(), node));
                }
            }
            frontier = next;
        }
        files.sort_by(|a, b| a.depth.cmp(&b.depth).then_with(|| a.file.cmp(&b.file)));
        type_only.retain(|importer| !seen.contains(&importer.file));
        type_only.sort_by(|a, b| a.file.cmp(&b.file));
        type_only.dedup_by(|a, b| a.file == b.file);
        Ok(Reach {
            files,
            nodes,
            beyond,
            type_only,
        })
    }
}

/// The design file of `source` reduced to the graph, `None` when there is none.
fn read_node(project: &Project, source: &str) -> anyhow::Result<Option<Node>> {
    let rel = design_path(source);
    let text = match project.read_to_string(&rel) {
        Ok(text) => text,
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(None),
        Err(err) if crate::nofollow::is_refused(&err) => return Err(err.into()),
        Err(err) => return Err(err).with_context(|| format!("cannot read {rel}")),
    };
    let design = DesignFile::parse(&rel, &text)?;
    let paths = |heading: &str| -> Vec<String> {
        design
            .section(heading)
            .map(|section| list_items(&section.body))
            .unwrap_or_default()
            .iter()
            .filter_map(|item| path_of_item(item))
            .collect()
    };
    Ok(Some(Node {
        description: design.frontmatter.description.trim().to_string(),
        dependents: paths(sections::DEPENDENTS),
        tests: paths(sections::TESTS),
        links: wikilink::extract(&text),
    }))
}

/// The path a list item names: `src/a.rs`, `` `src/a.rs` ``, `src/a.rs — why`, `[[x]]`-free.
pub fn path_of_item(item: &str) -> Option<String> {
    let first = item.split_whitespace().next()?;
    let path = first.trim_matches(|c| matches!(c, '`' | '*' | '[' | ']' | '(' | ')' | ','));
    let looks_like_path = !path.is_empty()
        && !path.starts_with("http")
        && (path.contains('/') || path.contains('.'))
        && !path.contains("..");
    looks_like_path.then(|| path.to_string())
}

/// The tests among the reached files and those the design files on the way name (when still
/// test cases), ordered by how directly they exercise `source`: by depth (a test a design file names
/// counts one level below that file), then those named for the source's stem (`tests/test_json.py`
/// for `json.py`) first, then by path.
fn tests_of(
    source: &str,
    files: &[Reached],
    nodes: &[(String, Node)],
    graph: Option<&Graph>,
) -> Vec<String> {
    let mut depth: HashMap<&str, usize> = HashMap::from([(source, 0)]);
    for reached in files {
        depth.insert(reached.file.as_str(), reached.depth);
    }
    let mut tests: HashMap<String, usize> = files
        .iter()
        .filter(|reached| reached.test)
        .map(|reached| (reached.file.clone(), reached.depth))
        .collect();
    for (file, node) in nodes {
        let below = depth.get(file.as_str()).copied().unwrap_or(0) + 1;
        for test in &node.tests {
            let importers = graph.map_or(0, |graph| graph.dependents(test).len());
            if !is_test_case(test, importers) {
                continue;
            }
            let at = depth.get(test.as_str()).copied().unwrap_or(below);
            let entry = tests.entry(test.clone()).or_insert(at);
            *entry = (*entry).min(at);
        }
    }
    let members = graph.map(|graph| graph.symbols(source)).unwrap_or_default();
    rank(source, tests, &members)
}

fn concepts_of(project: &Project, nodes: &[(String, Node)]) -> Vec<LinkedConcept> {
    let corpus = Corpus::load(project, Kinds::KNOWLEDGE);
    let resolver = Resolver::new(&corpus);
    let mut found: BTreeMap<String, LinkedConcept> = BTreeMap::new();
    for (file, node) in nodes {
        for link in &node.links {
            let Wikilink::Concept(name) = link else {
                continue;
            };
            let Some(concept) = resolver.concept(name) else {
                continue;
            };
            let entry = found
                .entry(concept.name.clone())
                .or_insert_with(|| LinkedConcept {
                    name: concept.name.clone(),
                    title: concept.title.clone(),
                    summary: concept.summary.clone(),
                    files: Vec::new(),
                });
            if !entry.files.contains(file) {
                entry.files.push(file.clone());
            }
        }
    }
    found.into_values().collect()
}

fn posts_of(project: &Project, nodes: &[(String, Node)]) -> Vec<LinkedPost> {
    let corpus = Corpus::load(project, Kinds::KNOWLEDGE);
    let designs: HashMap<String, &str> = nodes
        .iter()
        .map(|(file, _)| (design_path(file), file.as_str()))
        .collect();
    let linked_ids: HashMap<&str, Vec<&str>> =
        nodes.iter().fold(HashMap::new(), |mut ids, (file, node)| {
            for link in &node.links {
                if let Wikilink::Stack(id) = link {
                    ids.entry(id.as_str()).or_default().push(file.as_str());
                }
            }
            ids
        });
    let mut posts = Vec::new();
    for post in corpus.of_kind(DocKind::Stack) {
        let mut files: Vec<String> = post
            .files
            .iter()
            .filter(|file| designs.contains_key(&design_path(file)))
            .cloned()
            .collect();
        for link in &post.links {
            if let Some(file) = designs.get(&format!("{LIBRARY_DIR}/{link}")) {
                files.push(file.to_string());
            }
        }
        if let Some(linking) = linked_ids.get(post.name.as_str()) {
            files.extend(linking.iter().map(|file| file.to_string()));
        }
        files.sort();
        files.dedup();
        if !files.is_empty() {
            posts.push(LinkedPost {
                id: post.name.clone(),
                title: post.title.clone(),
                status: post.status.clone(),
                files,
            });
        }
    }
    posts
}

impl Impact {
    /// The text `lexi impact` prints.
    pub fn to_text(&self) -> String {
        self.render(false)
    }

    /// Every reached file and test listed, whatever their number (`lexi impact --full`).
    pub fn to_text_full(&self) -> String {
        self.render(true)
    }

    /// The text: with `full` false, a level or a Tests list longer than [`LIST_LIMIT`] shows its
    /// first entries (code before tests) and counts the rest by directory, and descriptions are
    /// shorter — what an agent reads before a change, not the whole graph.
    fn render(&self, full: bool) -> String {
        let direct = self.files.iter().filter(|f| f.depth == 1).count();
        let mut out = format!("# Impact of {} (depth {})\n\n", self.source, self.depth);
        if self.from == GraphSource::DesignFiles {
            out.push_str(FROM_DESIGN_FILES);
            out.push_str("\n\n");
        }
        if self.files.is_empty() {
            out.push_str("Nothing in the library depends on it.\n");
        } else {
            out.push_str(&format!(
                "{} directly, {} within {}; {}",
                plural(direct, "file depends on it", "files depend on it"),
                self.files.len(),
                plural(self.depth, "level", "levels"),
                plural(self.tests.len(), "test", "tests"),
            ));
        }
        if !self.type_only.is_empty() {
            let lead = if self.files.is_empty() { "" } else { "; " };
            out.push_str(&format!(
                "{lead}{} only for types (not followed)",
                plural(self.type_only.len(), "file imports", "files import")
            ));
        }
        if !self.files.is_empty() || !self.type_only.is_empty() {
            out.push_str(".\n");
        }
        for level in 1..=self.depth {
            let at: Vec<&Reached> = self.files.iter().filter(|f| f.depth == level).collect();
            if at.is_empty() {
                continue;
            }
            out.push_str(&format!("\n## Depth {level} ({})\n\n", at.len()));
            let (shown, rest) = match full || at.len() <= LIST_LIMIT {
                true => (at, Vec::new()),
                false => split_listed(at),
            };
            let width = if full { 100 } else { 60 };
            for reached in shown {
                out.push_str(&format!("- {}", reached.file));
                if !reached.description.is_empty() {
                    out.push_str(&format!(" — {}", shorten(&reached.description, width)));
                }
                if level > 1 {
                    out.push_str(&format!(" (via {})", reached.via));
                }
                if !reached.calls_at_run_time.is_empty() {
                    out.push_str(&format!(
                        " (imports it for types only, but calls {} at run time)",
                        reached.calls_at_run_time.join(", ")
                    ));
                }
                out.push('\n');
            }
            let rest: Vec<&str> = rest.iter().map(|r| r.file.as_str()).collect();
            out.push_str(&counted_by_directory(&rest));
        }
        if self.beyond > 0 {
            out.push_str(&format!(
                "\n… and {} more one level further (`--depth {}`).\n",
                self.beyond,
                self.depth + 1
            ));
        }
        self.type_only_text(&mut out, full);
        self.knowledge_text(&mut out, full);
        let cut = !full
            && (self.tests.len() > LIST_LIMIT
                || (1..=self.depth)
                    .any(|d| self.files.iter().filter(|f| f.depth == d).count() > LIST_LIMIT));
        if cut {
            out.push_str(&format!(
                "\n`lexi impact {} --depth {} --full` lists every file.\n",
                self.source, self.depth
            ));
        }
        out
    }

    /// The importers for types only: counted apart, each with the file it imports for types.
    fn type_only_text(&self, out: &mut String, full: bool) {
        if self.type_only.is_empty() {
            return;
        }
        out.push_str(&format!(
            "\n## Imported only for types ({}, not followed)\n\n",
            self.type_only.len()
        ));
        out.push_str(
            "They import it (or a file above) for the type checker only (`if TYPE_CHECKING:`, `import type`) and were not seen calling its members; they may still use the attributes of the objects they are handed.\n\n",
        );
        let cut = match full {
            true => self.type_only.len(),
            false => LIST_LIMIT.min(self.type_only.len()),
        };
        for importer in &self.type_only[..cut] {
            out.push_str(&format!(
                "- {} (types of {})\n",
                importer.file, importer.imports
            ));
        }
        let rest: Vec<&str> = self.type_only[cut..]
            .iter()
            .map(|importer| importer.file.as_str())
            .collect();
        out.push_str(&counted_by_directory(&rest));
    }

    fn knowledge_text(&self, out: &mut String, full: bool) {
        if !self.tests.is_empty() {
            out.push_str(&format!("\n## Tests ({})\n\n", self.tests.len()));
            // Already ordered: the tests that exercise the file most directly first.
            let tests: Vec<&str> = self.tests.iter().map(String::as_str).collect();
            let cut = if full {
                tests.len()
            } else {
                LIST_LIMIT.min(tests.len())
            };
            for test in &tests[..cut] {
                out.push_str(&format!("- {test}\n"));
            }
            out.push_str(&counted_by_directory(&tests[cut..]));
        }
        if !self.concepts.is_empty() {
            out.push_str("\n## Concepts\n\n");
            for concept in &self.concepts {
                out.push_str(&format!(
                    "- [[{}]] {} — linked from {}\n",
                    concept.name,
                    shorten(&concept.summary, 100),
                    concept.files.join(", ")
                ));
            }
        }
        if !self.stack.is_empty() {
            out.push_str("\n## Stack\n\n");
            for post in &self.stack {
                out.push_str(&format!(
                    "- {} [{}] {} — about {}\n",
                    post.id,
                    post.status,
                    post.title,
                    post.files.join(", ")
                ));
            }
        }
    }
}

/// Of a level too long to list whole: its code files (at most [`LIST_LIMIT`], in path order) —
/// or, when it has none, its first [`FEW`] — and the rest, counted by directory. The tests, test
/// helpers and examples of a long level were most of an impact's bytes (flask `app.py`: 16 of the
/// 20 lines of its second level) and are found again in its Tests section or by `--full`.
fn split_listed(at: Vec<&Reached>) -> (Vec<&Reached>, Vec<&Reached>) {
    const FEW: usize = 5;
    let is_code = |r: &Reached| {
        !r.test
            && !crate::archivist::is_test_path(&r.file)
            && !crate::archivist::is_sample_path(&r.file)
    };
    let (mut shown, mut rest): (Vec<&Reached>, Vec<&Reached>) =
        at.into_iter().partition(|r| is_code(r));
    if shown.is_empty() {
        rest.sort_by_key(|r| r.test);
        let others = rest.split_off(FEW.min(rest.len()));
        return (rest, others);
    }
    rest.extend(shown.split_off(LIST_LIMIT.min(shown.len())));
    rest.sort_by(|a, b| a.file.cmp(&b.file));
    (shown, rest)
}

/// `- … and 12 more: tests/ (9), src/api/ (3)` — the files left out, counted by directory (the
/// biggest first, at most eight); empty when none are.
fn counted_by_directory(files: &[&str]) -> String {
    if files.is_empty() {
        return String::new();
    }
    let mut dirs: BTreeMap<&str, usize> = BTreeMap::new();
    for file in files {
        let dir = RelPath::new(file).parent().map_or(".", RelPath::as_str);
        *dirs.entry(dir).or_default() += 1;
    }
    let mut dirs: Vec<(&str, usize)> = dirs.into_iter().collect();
    dirs.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let mut shown: Vec<String> = dirs
        .iter()
        .take(8)
        .map(|(dir, n)| format!("{dir}/ ({n})"))
        .collect();
    if dirs.len() > 8 {
        shown.push(format!("{} more directories", dirs.len() - 8));
    }
    format!("- … and {} more: {}\n", files.len(), shown.join(", "))
}

/// `1 file`, `2 files`.
pub(crate) fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// `text` cut to about `max` characters at a character boundary, with `…` when cut.
pub fn shorten(text: &str, max: usize) -> String {
    let line = text.lines().next().unwrap_or("").trim();
    if line.chars().count() <= max {
        return line.to_string();
    }
    let cut: String = line.chars().take(max.saturating_sub(1)).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archivist::is_test_path;

    fn reached(file: &str) -> Reached {
        Reached {
            file: file.to_string(),
            depth: 2,
            via: "src/a.py".to_string(),
            description: String::new(),
            test: file.contains("test_"),
            calls_at_run_time: Vec::new(),
        }
    }

    #[test]
    fn a_long_level_lists_its_code_and_counts_its_tests_and_examples() {
        let mut files: Vec<Reached> = (0..LIST_LIMIT)
            .map(|n| reached(&format!("tests/test_{n:02}.py")))
            .collect();
        files.extend(
            [
                "examples/app.py",
                "tests/helpers/app.py",
                "src/b.py",
                "src/c.py",
            ]
            .map(reached),
        );
        let (shown, rest) = split_listed(files.iter().collect());
        let shown: Vec<&str> = shown.iter().map(|r| r.file.as_str()).collect();
        assert_eq!(shown, ["src/b.py", "src/c.py"]);
        assert_eq!(rest.len(), LIST_LIMIT + 2);
        // A level of tests only shows its first few.
        let tests: Vec<Reached> = (0..LIST_LIMIT + 3)
            .map(|n| reached(&format!("tests/test_{n:02}.py")))
            .collect();
        let (shown, rest) = split_listed(tests.iter().collect());
        assert_eq!((shown.len(), rest.len()), (5, LIST_LIMIT - 2));
    }

    #[test]
    fn test_paths_follow_the_common_conventions() {
        for test in [
            "tests/test_app.py",
            "src/foo_test.go",
            "web/a.test.js",
            "web/__tests__/a.js",
            "test/app.router.js",
            "tests/conftest.py",
            "crate/tests/it.rs",
        ] {
            assert!(is_test_path(test), "{test}");
        }
        for code in [
            "src/testing_utils.rs",
            "src/attest.py",
            "lib/router/index.js",
        ] {
            assert!(!is_test_path(code), "{code}");
        }
    }

    #[test]
    fn list_items_name_their_path() {
        assert_eq!(path_of_item("src/a.rs").as_deref(), Some("src/a.rs"));
        assert_eq!(
            path_of_item("`src/a.rs` — why").as_deref(),
            Some("src/a.rs")
        );
        assert_eq!(path_of_item("nothing here"), None);
        assert_eq!(path_of_item("../up.rs"), None);
    }

    #[test]
    fn descriptions_are_shortened_at_a_character_boundary() {
        assert_eq!(shorten("short", 10), "short");
        assert_eq!(shorten("ééééééééééé", 5), "éééé…");
    }
}
