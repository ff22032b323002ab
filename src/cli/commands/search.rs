//! `lexi search [query] [--tag t] [--scope path] [--type kind]`: one search over design files,
//! concepts and Stack posts, grouped by kind and ranked lexically, each hit with why it matched.

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::corpus::DocKind;
use crate::knowledge::search::{render, search_library, Query};
use crate::project::{paths, Project};

/// Search the whole library: design files, concepts and Stack posts.
///
/// Every word of the query must match. Hits rank by where they matched — name or title, then tags,
/// then description or summary, then body — and recency breaks ties. Tags are shared by all three
/// kinds, so `--tag auth` finds concepts, design files and posts alike.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi search token refresh\n  lexi search --tag auth\n  lexi search retry --scope src/net --type stack"
)]
pub struct Args {
    /// Words to look for.
    pub query: Vec<String>,
    /// Only documents with this tag.
    #[arg(long)]
    pub tag: Option<String>,
    /// Only what concerns this path (relative to the current directory): design files under it,
    /// posts about files under it, concepts linked from there.
    #[arg(long)]
    pub scope: Option<PathBuf>,
    /// Only this kind of document (repeatable).
    #[arg(long = "type", value_enum)]
    pub kinds: Vec<KindArg>,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

/// `--type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum KindArg {
    Concept,
    Design,
    Stack,
}

impl From<KindArg> for DocKind {
    fn from(kind: KindArg) -> DocKind {
        match kind {
            KindArg::Concept => DocKind::Concept,
            KindArg::Design => DocKind::Design,
            KindArg::Stack => DocKind::Stack,
        }
    }
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    let text = args.query.join(" ");
    let scope = match &args.scope {
        Some(scope) => Some(paths::resolve(&project.root, &ctx.cwd, scope)?),
        None => None,
    };
    let hits = search_library(
        &project,
        &Query {
            text: (!text.trim().is_empty()).then_some(text),
            tag: args.tag.clone(),
            scope,
            kinds: args.kinds.iter().copied().map(DocKind::from).collect(),
            ..Query::default()
        },
    )?;
    match ctx.format {
        Format::Json => print_json(&serde_json::json!({ "hits": hits }))?,
        Format::Text => print_text(&render(&hits))?,
    }
    Ok(Outcome::Ok)
}
