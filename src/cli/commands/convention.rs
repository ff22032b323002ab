//! `lexi convention add <dir> "<rule>" [--tag t] [--concept Name]`: record a rule that applies to
//! everything below a directory, in its `.aindex`'s Local Conventions. The operation is
//! [`crate::knowledge::conventions::add`].

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::conventions::{add, NewConvention};
use crate::project::{paths, Project};

/// Record a Local Convention.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  lexi convention add src/api \"Handlers return a Response, never a bare dict.\""
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Append a rule to a directory's Local Conventions.
    ///
    /// The rule applies to every file below the directory: `lexi lookup` and `lexi context` show
    /// it with each of them, `lexi conventions` lists it, `lexi search` finds it. It is appended
    /// to the `## Local Conventions` section of the directory's `.aindex` (created if missing),
    /// under the library lock; `lexictl update` keeps the section byte for byte. Adding the same
    /// rule twice does nothing.
    #[command(
        after_help = "Examples:\n  lexi convention add src/api \"Handlers return a Response, never a bare dict.\"\n  lexi convention add . \"Times are UTC.\" --tag time --concept Timezones"
    )]
    Add {
        /// The directory the rule applies to, relative to the current directory (`.` for all).
        dir: PathBuf,
        /// The rule: one sentence saying what to do (or never do) there.
        rule: String,
        /// A tag (repeatable, or comma-separated), shared with design files, concepts and posts.
        #[arg(long = "tag", value_delimiter = ',')]
        tags: Vec<String>,
        /// A concept the rule follows from, by name, title or alias (repeatable).
        #[arg(long = "concept")]
        concepts: Vec<String>,
    },
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    match &args.command {
        Command::Add {
            dir,
            rule,
            tags,
            concepts,
        } => {
            let dir = paths::resolve(&project.root, &ctx.cwd, dir)?;
            let new = NewConvention {
                rule: rule.clone(),
                tags: tags.clone(),
                concepts: concepts.clone(),
            };
            let added = add(&project, &dir, &new)?;
            match ctx.format {
                Format::Json => print_json(&added)?,
                Format::Text if added.changed => print_text(&format!(
                    "Added to {}: - {}\n",
                    added.path, added.convention
                ))?,
                Format::Text => print_text(&format!(
                    "{} already has this convention; nothing to do\n",
                    added.path
                ))?,
            }
        }
    }
    Ok(Outcome::Ok)
}
