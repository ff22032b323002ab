//! `lexi describe <dir> "…"`: set a directory's billboard (what it is for), leaving its Child Map and
//! Local Conventions untouched. Creates the `.aindex` if the directory has none yet. The operation is
//! [`crate::knowledge::index::describe`]; this file resolves the argument and prints what it did.

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text, warn};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::index::{describe, Described};
use crate::project::{paths, Project};

/// Say what a directory is for.
///
/// Replaces the billboard paragraph of the directory's `.aindex`. The Child Map and Local
/// Conventions are left exactly as they are. If the directory has no `.aindex` yet, one is created
/// with a Child Map of its current files.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  lexi describe src/auth \"Login, sessions and token refresh.\"")]
pub struct Args {
    /// The directory, relative to the current directory.
    pub dir: PathBuf,
    /// The new billboard: one short paragraph.
    pub description: String,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    let dir = paths::resolve(&project.root, &ctx.cwd, &args.dir)?;
    let described = describe(&project, &dir, &args.description)?;
    for warning in &described.warnings {
        warn(warning);
    }
    match ctx.format {
        Format::Text => print_text(&format!("{} {}\n", verb(&described), described.path))?,
        Format::Json => print_json(&serde_json::json!({
            "directory": dir,
            "path": described.path,
            "created": described.created,
            "changed": described.changed,
            "billboard": described.billboard,
        }))?,
    }
    Ok(Outcome::Ok)
}

fn verb(described: &Described) -> &'static str {
    if described.created {
        "created"
    } else if described.changed {
        "updated"
    } else {
        "unchanged"
    }
}
