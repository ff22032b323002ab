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
///
/// Long sections are trimmed, never dropped: a Dependents, Dependencies or Tests list of more than
/// 20 files becomes its count by directory (`lexi impact` lists dependents), and a long Interface
/// Contract keeps its public items first, then says how many more there are. `--full` prints
/// every section whole; `--format json` always has everything.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi lookup src/auth/login.py\n  lexi lookup ../lib.rs --format json\n  lexi lookup --full src/flask/app.py"
)]
pub struct Args {
    /// The source file (not its design file), relative to the current directory.
    pub file: PathBuf,
    /// Print every section whole: no list summarised, no interface item left out.
    #[arg(long)]
    pub full: bool,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    let source = paths::resolve(&project.root, &ctx.cwd, &args.file)?;
    ensure_file_argument(&source)?;
    let found = lookup(&project, &source)?;
    match ctx.format {
        Format::Text if args.full => print_text(&found.to_full_text())?,
        Format::Text => print_text(&found.to_text())?,
        Format::Json => print_json(&found.to_json())?,
    }
    Ok(Outcome::Ok)
}
