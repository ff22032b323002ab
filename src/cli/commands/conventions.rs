//! `lexi conventions [<dir>]`: every Local Convention that applies in a directory — its own and
//! each parent's, root first — then the practices the project's own files declare (tests, style,
//! language level, CI: [`crate::project::practices`]). The query is
//! [`crate::knowledge::conventions::applying_in`].

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::conventions::{applying_in, render};
use crate::project::{paths, practices, Project};

/// List the Local Conventions that apply in a directory.
///
/// Reads the `## Local Conventions` of the directory's `.aindex` and of every parent directory's,
/// root first: a rule recorded on a parent applies below it too. Add one with
/// `lexi convention add <dir> "<rule>"`. Then the practices the project's own files declare, each
/// with the file it comes from: where tests live and how they are named, the test runner, linters
/// and formatters, the language level, editor settings, CI workflows, the contribution guide.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi conventions\n  lexi conventions src/api\n  lexi conventions src/api --format json"
)]
pub struct Args {
    /// The directory, relative to the current directory (default: the current directory).
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    let dir = paths::resolve(&project.root, &ctx.cwd, &args.dir)?;
    let found = applying_in(&project, &dir)?;
    let practices = practices::detect(&project);
    match ctx.format {
        Format::Text => print_text(&render(&dir, &found, &practices))?,
        Format::Json => {
            let conventions: Vec<_> = found.iter().flat_map(|d| d.conventions.iter()).collect();
            print_json(&serde_json::json!({
                "directory": dir,
                "conventions": conventions,
                "practices": practices,
            }))?
        }
    }
    Ok(Outcome::Ok)
}
