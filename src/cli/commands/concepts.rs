//! `lexi concepts [topic]`: the concept catalog, or the concepts matching a topic (fuzzy over name,
//! title, aliases and tags), one line each with its summary.

use crate::cli::output::{pad, print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::concepts::{list, ConceptHit, ConceptQuery};
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
        Format::Text => print_text(&render(&hits, args))?,
    }
    Ok(Outcome::Ok)
}

fn render(hits: &[ConceptHit], args: &Args) -> String {
    if hits.is_empty() {
        return match (&args.topic, &args.tag, args.status) {
            (None, None, None) => {
                "No concepts yet. Create one with `lexi concept new <Name> --tag <tag> --alias <alias>`.\n"
                    .to_string()
            }
            _ => "No concept matches. `lexi concepts --all` lists every concept.\n".to_string(),
        };
    }
    let width = hits
        .iter()
        .map(|hit| hit.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for hit in hits {
        let summary = if let Some(error) = &hit.error {
            format!("(cannot be read: {error})")
        } else {
            hit.summary.clone()
        };
        out.push_str(&format!("{} — {summary}", pad(&hit.name, width)));
        match hit.status.as_str() {
            "deprecated" => match &hit.superseded_by {
                Some(next) => out.push_str(&format!(" [deprecated: use {next}]")),
                None => out.push_str(" [deprecated]"),
            },
            "draft" => out.push_str(" [draft]"),
            _ => {}
        }
        if let Some(matched) = &hit.matched {
            out.push_str(&format!("  ({matched})"));
        }
        out.push('\n');
    }
    out
}
