//! `lexi lookup <file>`: print a source file's design file, a staleness warning when the source moved
//! on, and the Local Conventions inherited from every parent directory.

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::lookup::{ensure_file_argument, lookup};
use crate::project::{paths, Project};

/// Show the design file of a source file.
///
/// Prints `.lexibrary/<file>.md` without its machine footer, a warning first if the source changed
/// since the design file was written, and then the Local Conventions of every parent directory's
/// `.aindex` (root first). Paths are relative to the current directory.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi lookup src/auth/login.py\n  lexi lookup ../lib.rs --format json"
)]
pub struct Args {
    /// The source file (not its design file), relative to the current directory.
    pub file: PathBuf,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    let source = paths::resolve(&project.root, &ctx.cwd, &args.file)?;
    ensure_file_argument(&source)?;
    let found = lookup(&project, &source)?;
    match ctx.format {
        Format::Text => print_text(&found.to_text())?,
        Format::Json => print_json(&found.to_json())?,
    }
    Ok(Outcome::Ok)
}
