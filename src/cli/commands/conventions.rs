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
/// with the file it comes from, most important first: the pull-request checklist, the test/lint/
/// format commands (package.json scripts, tox, nox, make/just, CI steps), the linters and
/// formatters with their key settings, where tests live, the language level, editor settings, CI,
/// the contribution guide's sections, commands and rules. The first five of each topic are shown,
/// long commands and lists cut; `--all` shows every one whole (every tox environment, every word of
/// every command). JSON carries them all, whole (`topic`, `practice`, `source`, `items`), and
/// `warnings` for configuration files that were skipped.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi conventions\n  lexi conventions src/api\n  lexi conventions --all\n  lexi conventions src/api --format json"
)]
pub struct Args {
    /// The directory, relative to the current directory (default: the current directory).
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// Show every practice whole: every one of each topic, no command or list cut.
    #[arg(long)]
    pub all: bool,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    let dir = paths::resolve(&project.root, &ctx.cwd, &args.dir)?;
    let found = applying_in(&project, &dir)?;
    let detail = match (args.all, ctx.format) {
        (false, Format::Text) => practices::Detail::Short,
        _ => practices::Detail::Whole,
    };
    let practices = practices::detect_with(&project, detail);
    match ctx.format {
        Format::Text => print_text(&render(&dir, &found, &practices, args.all))?,
        Format::Json => {
            let conventions: Vec<_> = found.iter().flat_map(|d| d.conventions.iter()).collect();
            print_json(&serde_json::json!({
                "directory": dir,
                "conventions": conventions,
                "practices": practices.practices,
                "warnings": practices.warnings,
            }))?
        }
    }
    Ok(Outcome::Ok)
}
