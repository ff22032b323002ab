//! `lexi index <dir> [-r]`: print a directory's `.aindex` (billboard, Child Map, Local Conventions),
//! or with `-r` every `.aindex` below it, parents first.

use std::path::PathBuf;

use anyhow::bail;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::index::{group_root_above, read, read_recursive, to_text, IndexFile};
use crate::project::mirror::group_path;
use crate::project::{paths, Project};

/// Show a directory's index.
///
/// The `.aindex` says what the directory is for (billboard), what each file and subdirectory in it is
/// (Child Map), and which conventions apply below it (Local Conventions).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi index .\n  lexi index src -r\n  lexi index src/auth --format json"
)]
pub struct Args {
    /// The directory, relative to the current directory.
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// Also print the indexes of every subdirectory, depth first.
    #[arg(short, long)]
    pub recursive: bool,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    let dir = paths::resolve(&project.root, &ctx.cwd, &args.dir)?;
    let shown = if dir.is_empty() {
        ".".to_string()
    } else {
        dir.clone()
    };
    if !dir.is_empty() && project.abs(&dir).is_file() {
        bail!("{shown} is a file; try `lexi lookup {shown}`");
    }
    let files = if args.recursive {
        read_recursive(&project, &dir)?
    } else {
        read(&project, &dir)?.into_iter().collect()
    };
    if files.is_empty() {
        if let Some(root) = group_root_above(&project, &dir) {
            let shown_root = if root.is_empty() { "." } else { root.as_str() };
            bail!(
                "{shown} is grouped test data below {shown_root}/: it has no .aindex of its own; {} names it — try `lexi index {shown_root}`",
                group_path(&root)
            );
        }
        bail!(
            "no .aindex for {shown} yet — run `lexictl update`, or start one with `lexi describe {shown} \"<what this directory is for>\"`"
        );
    }
    match ctx.format {
        Format::Text => print_text(&to_text(&project, &files))?,
        Format::Json if args.recursive => {
            print_json(&files.iter().map(IndexFile::to_json).collect::<Vec<_>>())?;
        }
        Format::Json => print_json(&files[0].to_json())?,
    }
    Ok(Outcome::Ok)
}
