//! The read tools: `orient`, `lookup`, `index`, `context`, `search`, `concepts`, `stack_search`,
//! `stack_view`. Each takes the arguments of its `lexi` command, answers what the command prints,
//! and names the files its answer is built from for the session cache (see `cache.rs`).

use serde::Deserialize;

use super::cache::Inputs;
use super::registry::{Answer, Call, Tool};
use super::values::{ConceptStatusName, DocKindName, PostStatusName};
use crate::knowledge::concepts::{self, canonical_names, ConceptQuery};
use crate::knowledge::context::{self, DEFAULT_BUDGET};
use crate::knowledge::corpus::DocKind;
use crate::knowledge::index::{self, to_text};
use crate::knowledge::lookup::member::lookup_member;
use crate::knowledge::lookup::{ensure_file_argument, lookup_in};
use crate::knowledge::orient::{self, orient};
use crate::knowledge::search::{render, search_listed, Query};
use crate::knowledge::stack::find;
use crate::knowledge::stack_view::{listing_text, post_json, post_text, search_posts};
use crate::library::concept::ConceptStatus;
use crate::library::stack::{PostStatus, STACK_DIR};
use crate::project::mirror::{aindex_path, design_path, iwh_path};
use crate::project::paths::{ancestors_rel, parent_rel};
use crate::project::{CONFIG_FILE, LIBRARY_DIR};

/// `.lexibrary/config.yaml`, which every answer depends on (scope, budgets, IWH).
fn config() -> Inputs {
    Inputs::default().file(format!("{LIBRARY_DIR}/{CONFIG_FILE}"))
}

/// What `lexi lookup <source>` reads in the project: the design file, the source (for staleness) and
/// the `.aindex` of every ancestor directory (and, outside it, the graph's cache).
fn lookup_inputs(source: &str) -> Inputs {
    let mut inputs = config().file(design_path(source)).file(source);
    for dir in ancestors_rel(source) {
        inputs = inputs.file(aindex_path(dir));
    }
    inputs
}

pub struct Orient;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct OrientArgs {
    /// Token budget for the whole answer (default 1200).
    #[serde(default = "orient_budget")]
    budget: usize,
}

fn orient_budget() -> usize {
    orient::DEFAULT_BUDGET
}

impl Tool for Orient {
    type Args = OrientArgs;
    const NAME: &'static str = "orient";
    const TITLE: &'static str = "Start a session";
    const DESCRIPTION: &'static str = "Call this first in a session. Returns .lexibrary/START_HERE.md (what this codebase is, its \
         topology, where to start for a task, the conventions and the navigation protocol), a note \
         another agent left at the project root if one waits (shown, not consumed), a one-line \
         health warning when the library is stale, and a digest of the practices the project's \
         own files declare (PR checklist, test/lint commands, linter settings). About 800-1200 \
         tokens, once per session.";
    const READ_ONLY: bool = true;

    fn inputs(_: &Call, _: &OrientArgs) -> anyhow::Result<Option<Inputs>> {
        // The health line depends on every source file's stat: not worth fingerprinting for a
        // call made once per session.
        Ok(None)
    }

    fn run(call: &Call, args: OrientArgs) -> anyhow::Result<Answer> {
        let found = orient(&call.ws, args.budget, call.stale_check)?;
        Ok(Answer::new(found.to_text(), serde_json::to_value(&found)?))
    }
}

pub struct Lookup;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LookupArgs {
    /// The source file (not its design file), relative to the project root, e.g. `src/auth/login.py`.
    file: String,
    /// One member of the file to show whole instead of the design file: its signature, whole doc,
    /// calls and callers, and the tests that call it. A label (`Flask.make_response`, `res.json`,
    /// `Sender::send`) or its last segment (`make_response`).
    #[serde(default)]
    member: Option<String>,
}

impl Tool for Lookup {
    type Args = LookupArgs;
    const NAME: &'static str = "lookup";
    const TITLE: &'static str = "Look up a source file";
    const DESCRIPTION: &'static str =
        "What one source file is for, before you read or edit it: its design file (description, \
         interface contract, dependencies, dependents, notes), a warning when the source changed \
         since the design file was written, and the Local Conventions inherited from every parent \
         directory. Cheap (one design file, typically 200-600 tokens) and cheaper than reading the \
         source: call it before editing any file. After editing, update `.lexibrary/<file>.md` and \
         set `updated_by: agent`. For linked concepts and Stack posts too, use `context`. With \
         `member` (any function, method, class, constant or alias of the file, private ones too), \
         only that member whole: signature (a constant's value), doc, the outline of its body \
         (calls in order with the branches around them, returns, raises), its callers and \
         callees, and the tests that call it.";
    const READ_ONLY: bool = true;

    fn inputs(call: &Call, args: &LookupArgs) -> anyhow::Result<Option<Inputs>> {
        // The graph of the last update ranks the tests, marks the type-only dependents and holds
        // the calls.
        let graph = call.ws.state().cache_path();
        Ok(Some(lookup_inputs(&call.path(&args.file)?).outside(graph)))
    }

    fn run(call: &Call, args: LookupArgs) -> anyhow::Result<Answer> {
        let source = call.path(&args.file)?;
        ensure_file_argument(&source)?;
        if let Some(name) = &args.member {
            let found = lookup_member(&call.ws, &source, name, false)?;
            return Ok(Answer::new(found.to_text(), found.to_json()));
        }
        let found = lookup_in(&call.ws, &source)?;
        Ok(Answer::new(found.to_text(), found.to_json()))
    }
}

pub struct Index;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IndexArgs {
    /// The directory, relative to the project root (`.` for the root).
    #[serde(default = "dot")]
    dir: String,
    /// Also every subdirectory's index, parents first (can be large: prefer one directory).
    #[serde(default)]
    recursive: bool,
}

fn dot() -> String {
    ".".to_string()
}

impl Tool for Index {
    type Args = IndexArgs;
    const NAME: &'static str = "index";
    const TITLE: &'static str = "Read a directory's index";
    const DESCRIPTION: &'static str =
        "What is in a directory and what it is for: its billboard, a Child Map with one line per \
         file and subdirectory, and the Local Conventions that apply to everything below it. Read \
         it before working in a directory you do not know. One directory is ~100-300 tokens; \
         `recursive: true` returns every index below (costly on big trees).";
    const READ_ONLY: bool = true;

    fn inputs(call: &Call, args: &IndexArgs) -> anyhow::Result<Option<Inputs>> {
        let dir = call.path(&args.dir)?;
        Ok(Some(if args.recursive {
            config().mirror(&dir)
        } else {
            config().file(aindex_path(&dir))
        }))
    }

    fn run(call: &Call, args: IndexArgs) -> anyhow::Result<Answer> {
        let project = call.ws.project();
        let dir = call.path(&args.dir)?;
        let shown = if dir.is_empty() { "." } else { dir.as_str() };
        if !dir.is_empty() && project.abs(&dir).is_file() {
            anyhow::bail!("{shown} is a file; use the `lookup` tool for files");
        }
        let files = if args.recursive {
            index::read_recursive(project, &dir)?
        } else {
            index::read(project, &dir)?.into_iter().collect()
        };
        let Some(first) = files.first() else {
            anyhow::bail!("no .aindex for {shown} yet (`lexictl update` writes them)");
        };
        let json = if args.recursive {
            serde_json::json!({ "indexes": files.iter().map(index::IndexFile::to_json).collect::<Vec<_>>() })
        } else {
            first.to_json()
        };
        Ok(Answer::new(to_text(&files), json))
    }
}

pub struct Context;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextArgs {
    /// A source file (relative to the project root), a concept name, title or alias, or a Stack
    /// post id (`ST-007`).
    target: String,
    /// Token budget (default 2000); parts that do not fit are listed, not cut.
    #[serde(default = "context_budget")]
    budget: usize,
}

fn context_budget() -> usize {
    DEFAULT_BUDGET
}

impl Tool for Context {
    type Args = ContextArgs;
    const NAME: &'static str = "context";
    const TITLE: &'static str = "Everything about a file, concept or post";
    const DESCRIPTION: &'static str =
        "One call for everything the library knows about a target, within a token budget: for a \
         source file, a waiting I Was Here note, its design file, inherited conventions, the \
         concepts it links (summaries and rules) and related Stack posts with their accepted \
         answers; for a concept, the concept with related concepts, posts and design files; for a \
         post, its best answers, concepts and files. Use it before a non-trivial change; `lookup` \
         is cheaper when the design file is enough. Costs up to the budget (default 2000 tokens).";
    const READ_ONLY: bool = true;

    fn inputs(call: &Call, args: &ContextArgs) -> anyhow::Result<Option<Inputs>> {
        let inputs = config().knowledge();
        Ok(Some(match call.path(&args.target) {
            Ok(source) if call.ws.project().abs(&source).is_file() => {
                let mut inputs = inputs.file(iwh_path(parent_rel(&source)));
                for file in [design_path(&source), source.clone()] {
                    inputs = inputs.file(file);
                }
                for dir in ancestors_rel(&source) {
                    inputs = inputs.file(aindex_path(dir));
                }
                inputs
            }
            // A concept or a post: the design files that link it are part of the answer.
            _ => inputs.mirror(""),
        }))
    }

    fn run(call: &Call, args: ContextArgs) -> anyhow::Result<Answer> {
        let project = call.ws.project();
        let as_path = call.path(&args.target).ok();
        let found = context::bundle(project, &args.target, as_path.as_deref(), args.budget)?;
        Ok(Answer::new(found.to_text(), serde_json::to_value(&found)?))
    }
}

pub struct Search;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SearchArgs {
    /// Words to look for (identifiers are split and words stemmed); hits matching more of them rank first.
    #[serde(default)]
    query: Option<String>,
    /// Only documents with this tag (tags are shared by concepts, design files and posts).
    #[serde(default)]
    tag: Option<String>,
    /// Only what concerns this path (relative to the project root): design files under it, posts
    /// about files under it, concepts linked from there.
    #[serde(default)]
    scope: Option<String>,
    /// Only these kinds of document.
    #[serde(default, rename = "type")]
    #[schemars(with = "Vec<DocKindName>")]
    kinds: Vec<DocKind>,
}

impl Tool for Search {
    type Args = SearchArgs;
    const NAME: &'static str = "search";
    const TITLE: &'static str = "Search the library";
    const DESCRIPTION: &'static str = "Find where something lives or what is known about a topic: one lexical search over design \
         files (what each source file does), concepts (cross-cutting rules and ideas) and Stack \
         posts (problems solved before), one line per hit with why it matched. Give words, a tag or \
         a scope. Cheaper than grepping the code when you do not know where to look; follow up with \
         `lookup` or `context` on a hit.";
    const READ_ONLY: bool = true;

    fn inputs(call: &Call, args: &SearchArgs) -> anyhow::Result<Option<Inputs>> {
        if let Some(scope) = &args.scope {
            call.path(scope)?;
        }
        let code_cache = call.ws.state().cache_path();
        Ok(Some(config().library("").outside(code_cache)))
    }

    fn run(call: &Call, args: SearchArgs) -> anyhow::Result<Answer> {
        let scope = match &args.scope {
            Some(scope) => Some(call.path(scope)?),
            None => None,
        };
        let query = Query {
            text: args.query.filter(|text| !text.trim().is_empty()),
            tag: args.tag,
            scope,
            kinds: args.kinds,
            ..Query::default()
        };
        // The library listing the session cache walked serves the corpus too: one walk per call.
        let (hits, _) = search_listed(&call.ws, &query, Some(call.library()), 0)?;
        Ok(Answer::new(
            render(&hits),
            serde_json::json!({ "hits": hits }),
        ))
    }
}

pub struct Concepts;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConceptsArgs {
    /// A word or name to look for in concept names, titles, aliases and tags (typos tolerated);
    /// omit it for the whole catalog.
    #[serde(default)]
    topic: Option<String>,
    /// Only concepts with this tag.
    #[serde(default)]
    tag: Option<String>,
    /// Only concepts with this status.
    #[serde(default)]
    #[schemars(with = "Option<ConceptStatusName>")]
    status: Option<ConceptStatus>,
    /// Include deprecated concepts.
    #[serde(default)]
    all: bool,
}

impl Tool for Concepts {
    type Args = ConceptsArgs;
    const NAME: &'static str = "concepts";
    const TITLE: &'static str = "List or find concepts";
    const DESCRIPTION: &'static str =
        "The project's concepts: cross-cutting ideas, rules and decisions (money handling, auth, \
         error conventions) that apply across directories, one line each with its summary. Check \
         before an architectural decision or when a name in a design file is a [[Concept]]. With \
         a topic, the matching ones (fuzzy). Small: one line per concept. Read one in full with \
         `context` or the concept's resource.";
    const READ_ONLY: bool = true;

    fn inputs(_: &Call, _: &ConceptsArgs) -> anyhow::Result<Option<Inputs>> {
        Ok(Some(config().knowledge()))
    }

    fn run(call: &Call, args: ConceptsArgs) -> anyhow::Result<Answer> {
        let filtered = args.topic.is_some() || args.tag.is_some() || args.status.is_some();
        let query = ConceptQuery {
            topic: args.topic,
            tag: args.tag,
            status: args.status,
            all: args.all,
        };
        let hits = concepts::list(call.ws.project(), &query);
        Ok(Answer::new(
            concepts::render(&hits, filtered),
            serde_json::json!({ "concepts": hits }),
        ))
    }
}

pub struct StackSearch;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackSearchArgs {
    /// Words to look for (an error message, a symptom); omit to list posts by the other filters.
    #[serde(default)]
    query: Option<String>,
    #[serde(default)]
    tag: Option<String>,
    /// Posts about files under this path (relative to the project root).
    #[serde(default)]
    scope: Option<String>,
    /// Posts that reference this concept (name, title or alias).
    #[serde(default)]
    concept: Option<String>,
    #[serde(default)]
    #[schemars(with = "Option<PostStatusName>")]
    status: Option<PostStatus>,
}

impl Tool for StackSearch {
    type Args = StackSearchArgs;
    const NAME: &'static str = "stack_search";
    const TITLE: &'static str = "Search the Stack";
    const DESCRIPTION: &'static str =
        "Has anyone hit this problem before? Searches the Stack, the project's record of problems \
         agents hit and how they were solved (with evidence), one line per post with status, score \
         and title. Call it before debugging an unfamiliar error or a surprising behaviour, with \
         the error message or symptom as the query. Cheap. Read a hit with `stack_view`.";
    const READ_ONLY: bool = true;

    fn inputs(call: &Call, args: &StackSearchArgs) -> anyhow::Result<Option<Inputs>> {
        if let Some(scope) = &args.scope {
            call.path(scope)?;
        }
        Ok(Some(config().knowledge()))
    }

    fn run(call: &Call, args: StackSearchArgs) -> anyhow::Result<Answer> {
        let project = call.ws.project();
        let scope = match &args.scope {
            Some(scope) => Some(call.path(scope)?),
            None => None,
        };
        let concept = match &args.concept {
            Some(name) => canonical_names(project, std::slice::from_ref(name))?
                .into_iter()
                .next(),
            None => None,
        };
        let query = Query {
            text: args.query.filter(|text| !text.trim().is_empty()),
            tag: args.tag,
            scope,
            kinds: vec![DocKind::Stack],
            status: args.status.map(|status| status.as_str().to_string()),
            concept,
        };
        let hits = search_posts(project, &query);
        Ok(Answer::new(
            listing_text(&hits, "No matching Stack posts."),
            serde_json::json!({ "posts": hits }),
        ))
    }
}

pub struct StackView;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackViewArgs {
    /// The post id, e.g. `ST-007`.
    id: String,
}

impl Tool for StackView {
    type Args = StackViewArgs;
    const NAME: &'static str = "stack_view";
    const TITLE: &'static str = "Read a Stack post";
    const DESCRIPTION: &'static str = "One Stack post in full: the problem, its evidence, every answer with its score (the \
         accepted one marked) and the comments. Use it on a hit from `stack_search` or a [[ST-NNN]] \
         link. Typically 200-800 tokens.";
    const READ_ONLY: bool = true;

    fn inputs(_: &Call, _: &StackViewArgs) -> anyhow::Result<Option<Inputs>> {
        Ok(Some(config().library(STACK_DIR)))
    }

    fn run(call: &Call, args: StackViewArgs) -> anyhow::Result<Answer> {
        let (path, post) = find(call.ws.project(), &args.id)?;
        Ok(Answer::new(
            post_text(&path, &post),
            post_json(&path, &post),
        ))
    }
}

pub struct Impact;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ImpactArgs {
    /// The source file (not its design file), relative to the project root.
    file: String,
    /// How many levels of dependents to follow (1-20, default 3).
    #[serde(default = "impact_depth")]
    depth: usize,
}

fn impact_depth() -> usize {
    crate::knowledge::impact::DEFAULT_DEPTH
}

impl Tool for Impact {
    type Args = ImpactArgs;
    const NAME: &'static str = "impact";
    const TITLE: &'static str = "What a change to a file reaches";
    const DESCRIPTION: &'static str =
        "Before changing a file's interface or behaviour: every file that depends on it, level by \
         level (importers, their importers, …) with their descriptions, the tests among them, and \
         the concepts and Stack posts linked to any of them. Follow up with `lookup` on the files \
         you will have to change. One line per file: a central file can reach hundreds; lower \
         `depth` to see fewer.";
    const READ_ONLY: bool = true;

    fn inputs(call: &Call, args: &ImpactArgs) -> anyhow::Result<Option<Inputs>> {
        call.path(&args.file)?;
        let graph = call.ws.state().cache_path();
        Ok(Some(config().knowledge().mirror("").outside(graph)))
    }

    fn run(call: &Call, args: ImpactArgs) -> anyhow::Result<Answer> {
        let source = call.path(&args.file)?;
        ensure_file_argument(&source)?;
        let found = crate::knowledge::impact::impact(&call.ws, &source, args.depth)?;
        Ok(Answer::new(found.to_text(), serde_json::to_value(&found)?))
    }
}
