//! `lexi concepts [topic]`: the concept catalog, or the concepts matching a topic (fuzzy over name,
//! title, aliases and tags), one line each with its summary.

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::concepts::{list, render, ConceptQuery};
use crate::library::concept::ConceptStatus;
use crate::project::Project;

/// List concepts, or find the ones matching a topic.
///
/// Concepts are the library's cross-cutting ideas (.lexibrary/concepts/<Name>.md), linked from
/// design files as [[Name]]. Deprecated concepts are hidden unless --all or --status deprecated;
/// they are shown with what supersedes them.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi concepts\n  lexi concepts auth\n  lexi concepts --tag security --all"
)]
pub struct Args {
    /// A word or name to look for in concept names, titles, aliases and tags (typos tolerated).
    pub topic: Option<String>,
    /// Only concepts with this tag.
    #[arg(long)]
    pub tag: Option<String>,
    /// Only concepts with this status.
    #[arg(long, value_enum)]
    pub status: Option<ConceptStatus>,
    /// Include deprecated concepts.
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    let hits = list(
        &project,
        &ConceptQuery {
            topic: args.topic.clone(),
            tag: args.tag.clone(),
            status: args.status,
            all: args.all,
        },
    );
    match ctx.format {
        Format::Json => print_json(&serde_json::json!({ "concepts": hits }))?,
        Format::Text => {
            let filtered = args.topic.is_some() || args.tag.is_some() || args.status.is_some();
            print_text(&render(&hits, filtered))?
        }
    }
    Ok(Outcome::Ok)
}
