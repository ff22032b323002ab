//! `lexi search [query] [--tag t] [--scope path] [--type kind] [--limit n]`: one search over design files,
//! concepts, Stack posts and Local Conventions, grouped by kind and ranked lexically, each hit with
//! why it matched.

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::corpus::DocKind;
use crate::knowledge::search::{render, search_listed, Query};
use crate::project::paths;

/// Search the whole library: design files, concepts, Stack posts and Local Conventions.
///
/// Words are split and stemmed like identifiers (`routing` finds `route` and `add_url_rule`,
/// `error handling` finds `handle_exception`). Any word may match; hits matching more of the
/// words come first, then by where they matched — path or title, a declared symbol, a tag, the
/// description, the body — weighted by how rare the word is; recency breaks the last ties. Tags
/// are shared by every kind, so `--tag auth` finds concepts, design files and posts alike.
///
/// A query written as code (`url_for`, `WalkParallel`, `tokio::spawn`, `.push()`) asks where those
/// names are defined: the design files defining a member of such a name are shown, and those only
/// sharing a word with it (`url_map` for `url_for`) counted — `--partial` shows them too.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi search token refresh\n  lexi search url_for\n  lexi search --tag auth\n  lexi search retry --scope src/net --type stack\n  lexi search spawn --limit 5"
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
    /// With a query written as code: also the files that share only a word with its names.
    #[arg(long)]
    pub partial: bool,
    /// Only this kind of document (repeatable).
    #[arg(long = "type", value_enum)]
    pub kinds: Vec<KindArg>,
    /// At most this many hits of each kind (0: all); the rest are counted.
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

/// `--type`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum KindArg {
    Concept,
    Design,
    Stack,
    /// A directory's Local Conventions.
    Convention,
}

impl From<KindArg> for DocKind {
    fn from(kind: KindArg) -> DocKind {
        match kind {
            KindArg::Concept => DocKind::Concept,
            KindArg::Design => DocKind::Design,
            KindArg::Stack => DocKind::Stack,
            KindArg::Convention => DocKind::Convention,
        }
    }
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let ws = ctx.workspace()?;
    let text = args.query.join(" ");
    let scope = match &args.scope {
        Some(scope) => Some(paths::resolve(&ws.project().root, &ctx.cwd, scope)?),
        None => None,
    };
    let listed = search_listed(
        &ws,
        &Query {
            text: (!text.trim().is_empty()).then_some(text),
            tag: args.tag.clone(),
            scope,
            kinds: args.kinds.iter().copied().map(DocKind::from).collect(),
            partial: args.partial,
            ..Query::default()
        },
        None,
        args.limit,
    )?;
    let (hits, more, partial) = (&listed.hits, listed.more, listed.partial);
    match ctx.format {
        Format::Json => {
            print_json(&serde_json::json!({ "hits": hits, "more": more, "partial": partial }))?
        }
        Format::Text => {
            let mut text = render(hits);
            if partial > 0 {
                text.push_str(&format!(
                    "\n… and {partial} more sharing only a word with the names asked for (`--partial`)\n"
                ));
            }
            if more > 0 {
                text.push_str(&format!(
                    "\n… and {more} more (`--limit 0` for all, or more words to narrow)\n"
                ));
            }
            print_text(&text)?
        }
    }
    Ok(Outcome::Ok)
}
