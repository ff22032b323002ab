//! The read tools: `orient`, `lookup`, `index`, `context`, `search`, `conventions`, `concepts`,
//! `stack_search`, `stack_view`. Each takes the arguments of its `lexi` command, answers what the command prints,
//! and names the files its answer is built from for the session cache (see `cache.rs`).

use crate::relpath::RelPath;
use serde::Deserialize;

use super::cache::Inputs;
use super::registry::{Answer, Call, Tool};
use super::values::{ConceptStatusName, DocKindName, PostStatusName};
use crate::knowledge::concepts::{self, canonical_names, ConceptQuery};
use crate::knowledge::context::{self, DEFAULT_BUDGET};
use crate::knowledge::conventions;
use crate::knowledge::corpus::DocKind;
use crate::knowledge::index::{self, to_text};
use crate::knowledge::lookup::member::{lookup_member, Asked};
use crate::knowledge::lookup::{ensure_file_argument, lookup_full, lookup_in};
use crate::knowledge::orient::{self, orient};
use crate::knowledge::search::{render, search_listed, Query};
use crate::knowledge::stack::find;
use crate::knowledge::stack_view::{listing_text, post_json, post_text, search_posts};
use crate::library::concept::ConceptStatus;
use crate::library::stack::{PostStatus, STACK_DIR};
use crate::project::mirror::{aindex_path, design_path, iwh_path};
use crate::project::paths::ancestors_rel;
use crate::project::{practices, CONFIG_FILE, LIBRARY_DIR};

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
    #[serde(default = "orient_budget")]
    budget: usize,
}

fn orient_budget() -> usize {
    orient::DEFAULT_BUDGET
}

impl Tool for Orient {
    type Args = OrientArgs;
    const NAME: &'static str = "orient";
    const DESCRIPTION: &'static str =
        "Call first in a session: the codebase's map, where to start, conventions, notes, health.";
    const READ_ONLY: bool = true;

    fn inputs(_: &Call, _: &OrientArgs) -> anyhow::Result<Option<Inputs>> {
        // The health line depends on every source file's stat: not worth fingerprinting for a
        // call made once per session.
        Ok(None)
    }

    fn run(call: &Call, args: OrientArgs) -> anyhow::Result<Answer> {
        let found = orient(&call.ws, args.budget, call.stale_check)?;
        Ok(Answer::new(
            found.to_mcp_text(),
            serde_json::to_value(&found)?,
        ))
    }
}

pub struct Lookup;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct LookupArgs {
    file: String,
    // E.g. `make_response`, `Flask.make_response`.
    #[serde(default)]
    member: Option<String>,
    #[serde(default)]
    source: bool,
    // With `member`: every test found, not the first 5.
    #[serde(default)]
    all: bool,
}

impl Tool for Lookup {
    type Args = LookupArgs;
    const NAME: &'static str = "lookup";
    const COMPLETE_FORM: bool = true;
    const DESCRIPTION: &'static str =
        "Before reading or editing a file: its purpose, members, dependencies, dependents, tests (≤ ~1k \
         tokens). `member`: one member whole (private too: signature, doc, flow, callers, tests; \
         `source`: code; `all`: all tests); `full`: everything.";
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
            let asked = Asked {
                all_tests: args.all,
                full: call.full,
                source: args.source,
            };
            let found = lookup_member(&call.ws, &source, name, asked)?;
            return Ok(Answer::new(found.to_text(), found.to_json()));
        }
        if call.full {
            let found = lookup_full(&call.ws, &source)?;
            return Ok(Answer::new(found.to_full_text(), found.to_json()));
        }
        let found = lookup_in(&call.ws, &source)?;
        Ok(Answer::new(found.to_text(), found.to_json()))
    }
}

pub struct Index;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IndexArgs {
    #[serde(default = "dot")]
    dir: String,
    #[serde(default)]
    recursive: bool,
}

fn dot() -> String {
    ".".to_string()
}

impl Tool for Index {
    type Args = IndexArgs;
    const NAME: &'static str = "index";
    const DESCRIPTION: &'static str =
        "What a directory is for, one line per file and subdirectory, and its conventions.";
    const READ_ONLY: bool = true;

    fn inputs(call: &Call, args: &IndexArgs) -> anyhow::Result<Option<Inputs>> {
        let dir = call.path(&args.dir)?;
        // Every design file's description may make a row's twin (`index::to_text`): the whole
        // mirror, which holds every `.aindex` below too.
        Ok(Some(config().file(aindex_path(&dir)).mirror("")))
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
        Ok(Answer::new(to_text(project, &files), json))
    }
}

pub struct Context;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ContextArgs {
    /// A file, a concept or `ST-007`.
    target: String,
    #[serde(default = "context_budget")]
    budget: usize,
}

fn context_budget() -> usize {
    DEFAULT_BUDGET
}

impl Tool for Context {
    type Args = ContextArgs;
    const NAME: &'static str = "context";
    const DESCRIPTION: &'static str =
        "Everything about a file, concept or Stack post: design, conventions, concepts, posts.";
    const READ_ONLY: bool = true;

    fn inputs(call: &Call, args: &ContextArgs) -> anyhow::Result<Option<Inputs>> {
        let inputs = config().knowledge();
        Ok(Some(match call.path(&args.target) {
            Ok(source) if call.ws.project().abs(&source).is_file() => {
                let mut inputs = inputs.file(iwh_path(RelPath::new(&source).dir()));
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
    #[serde(default)]
    query: Option<String>,
    #[serde(default)]
    tag: Option<String>,
    #[serde(default)]
    scope: Option<String>,
    #[serde(default, rename = "type")]
    #[schemars(with = "Vec<DocKindName>")]
    kinds: Vec<DocKind>,
    // For a query written as code (`url_for`): also the files sharing only a word with it.
    #[serde(default)]
    partial: bool,
}

impl Tool for Search {
    type Args = SearchArgs;
    const NAME: &'static str = "search";
    const DESCRIPTION: &'static str =
        "Where something lives: files and members matching words, a tag or a scope, with why.";
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
            partial: args.partial,
            ..Query::default()
        };
        // The library listing the session cache walked serves the corpus too: one walk per call.
        let listed = search_listed(&call.ws, &query, Some(call.library()), 0)?;
        let mut text = render(&listed.hits);
        if listed.partial > 0 {
            text.push_str(&format!(
                "\n… and {} more sharing only a word with the names asked for (`partial: true`)\n",
                listed.partial
            ));
        }
        Ok(Answer::new(
            text,
            serde_json::json!({ "hits": listed.hits, "partial": listed.partial }),
        ))
    }
}

pub struct Concepts;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConceptsArgs {
    #[serde(default)]
    topic: Option<String>,
    #[serde(default)]
    tag: Option<String>,
    #[serde(default)]
    #[schemars(with = "Option<ConceptStatusName>")]
    status: Option<ConceptStatus>,
    /// With deprecated.
    #[serde(default)]
    all: bool,
}

impl Tool for Concepts {
    type Args = ConceptsArgs;
    const NAME: &'static str = "concepts";
    const DESCRIPTION: &'static str =
        "The project's cross-cutting rules and decisions, one line each; `topic` finds matching ones.";
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
    #[serde(default)]
    query: Option<String>,
    #[serde(default)]
    tag: Option<String>,
    #[serde(default)]
    scope: Option<String>,
    #[serde(default)]
    concept: Option<String>,
    #[serde(default)]
    #[schemars(with = "Option<PostStatusName>")]
    status: Option<PostStatus>,
}

impl Tool for StackSearch {
    type Args = StackSearchArgs;
    const NAME: &'static str = "stack_search";
    const DESCRIPTION: &'static str =
        "Before debugging: problems solved before, by error message or symptom; read one with \
         `stack_view`.";
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
            ..Query::default()
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
    /// E.g. `ST-007`.
    id: String,
}

impl Tool for StackView {
    type Args = StackViewArgs;
    const NAME: &'static str = "stack_view";
    const DESCRIPTION: &'static str =
        "One Stack post whole: the problem, its evidence, every answer with its score, the comments.";
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
    file: String,
    #[serde(default = "impact_depth")]
    depth: usize,
    // One member's callers by depth, tests and where its errors are caught.
    #[serde(default)]
    member: Option<String>,
}

fn impact_depth() -> usize {
    crate::knowledge::impact::DEFAULT_DEPTH
}

impl Tool for Impact {
    type Args = ImpactArgs;
    const NAME: &'static str = "impact";
    const DESCRIPTION: &'static str =
        "Before changing a file or one `member`: what depends on it, level by level, its tests, and \
         where a member's errors are caught.";
    const READ_ONLY: bool = true;

    fn inputs(call: &Call, args: &ImpactArgs) -> anyhow::Result<Option<Inputs>> {
        call.path(&args.file)?;
        // A member's impact reads its callers' files as they are now: never cached.
        if args.member.is_some() {
            return Ok(None);
        }
        let graph = call.ws.state().cache_path();
        Ok(Some(config().knowledge().mirror("").outside(graph)))
    }

    fn run(call: &Call, args: ImpactArgs) -> anyhow::Result<Answer> {
        let source = call.path(&args.file)?;
        ensure_file_argument(&source)?;
        if let Some(name) = &args.member {
            let found = crate::knowledge::member_impact::member_impact(
                &call.ws, &source, name, args.depth,
            )?;
            return Ok(Answer::new(
                found.to_text(false),
                serde_json::to_value(&found)?,
            ));
        }
        let found = crate::knowledge::impact::impact(&call.ws, &source, args.depth)?;
        Ok(Answer::new(found.to_text(), serde_json::to_value(&found)?))
    }
}

pub struct Conventions;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConventionsArgs {
    #[serde(default = "dot")]
    dir: String,
}

impl Tool for Conventions {
    type Args = ConventionsArgs;
    const NAME: &'static str = "conventions";
    const COMPLETE_FORM: bool = true;
    const DESCRIPTION: &'static str =
        "Before a change: a directory's rules and the project's practices (checklist, commands, \
         linters, CI). `full`: all, uncut.";
    const READ_ONLY: bool = true;

    fn inputs(call: &Call, args: &ConventionsArgs) -> anyhow::Result<Option<Inputs>> {
        // The practices are read from the project's own files (package.json, tox, CI…), which
        // no fingerprint covers: always answered afresh.
        call.path(&args.dir)?;
        Ok(None)
    }

    fn run(call: &Call, args: ConventionsArgs) -> anyhow::Result<Answer> {
        let project = call.ws.project();
        let dir = call.path(&args.dir)?;
        let found = conventions::applying_in(project, &dir)?;
        let detail = match call.full {
            true => practices::Detail::Whole,
            false => practices::Detail::Short,
        };
        let declared = practices::detect_with(project, detail);
        let text = conventions::render_pointing(&dir, &found, &declared, call.full, "`full: true`");
        let rules: Vec<_> = found.iter().flat_map(|d| d.conventions.iter()).collect();
        let json = serde_json::json!({
            "directory": dir,
            "conventions": rules,
            "practices": declared.practices,
            "warnings": declared.warnings,
        });
        Ok(Answer::new(text, json))
    }
}
