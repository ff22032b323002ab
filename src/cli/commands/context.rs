//! `lexi context <file|Concept|ST-NNN> [--budget TOKENS]`: one call for everything an agent needs
//! about a target, trimmed to a token budget, saying what was left out.

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::context::{bundle, DEFAULT_BUDGET};
use crate::project::{paths, Project};

/// Everything about a file, a concept or a Stack post, within a token budget.
///
/// For a source file: a waiting I Was Here note, its design file, the Local Conventions that apply,
/// the linked concepts' summaries and rules, related Stack posts with their accepted answers, and its
/// dependents. For a concept: the concept, related concepts and posts, and the design files linking
/// it. For a post: the post, its best answers, its concepts and files. Parts that do not fit the
/// budget are left out whole, most important kept first, and listed at the end.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi context src/auth/login.py\n  lexi context MoneyHandling --budget 800\n  lexi context ST-007 --format json"
)]
pub struct Args {
    /// A source file (relative to the current directory), a concept name, title or alias, or a Stack id.
    pub target: String,
    /// Token budget (estimated as characters / 4).
    #[arg(long, default_value_t = DEFAULT_BUDGET)]
    pub budget: usize,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    let as_path = paths::resolve(&project.root, &ctx.cwd, std::path::Path::new(&args.target)).ok();
    let found = bundle(&project, &args.target, as_path.as_deref(), args.budget)?;
    match ctx.format {
        Format::Json => print_json(&found)?,
        Format::Text => print_text(&found.to_text())?,
    }
    Ok(Outcome::Ok)
}
