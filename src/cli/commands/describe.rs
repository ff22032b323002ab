//! `lexi describe <dir> "…"`: set a directory's billboard (what it is for), leaving its Child Map and
//! Local Conventions untouched. Creates the `.aindex` if the directory has none yet.

use std::path::PathBuf;

use anyhow::{bail, Context as _};

use crate::atomic;
use crate::cli::output::{print_json, print_text, warn};
use crate::cli::{Context, Format, Outcome};
use crate::engine::child_map::child_entries;
use crate::knowledge::index::read;
use crate::library::aindex::AIndex;
use crate::project::mirror::aindex_path;
use crate::project::{paths, walk, Project};
use crate::workspace::lock::LibraryLock;

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
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    let dir = paths::resolve(&project.root, &ctx.cwd, &args.dir)?;
    let shown = if dir.is_empty() {
        ".".to_string()
    } else {
        dir.clone()
    };
    let billboard = args.description.trim();
    if billboard.is_empty() {
        bail!("the description is empty; say in a sentence what {shown} is for");
    }
    if !project.abs(&dir).is_dir() {
        bail!("{shown} is not a directory in the project");
    }
    if !dir.is_empty() {
        let parent = paths::parent_rel(&dir);
        let listed = walk::list_dir(&project.root, &project.config, parent)
            .entries
            .iter()
            .any(|entry| entry.rel == dir);
        if !listed {
            bail!("{shown} is ignored (by .gitignore, .lexignore or the config's ignore patterns), so it has no index");
        }
    }

    let _lock = LibraryLock::acquire(&project)?;
    let rel = aindex_path(&dir);
    let (index, created) = match read(&project, &dir)? {
        Some(mut existing) => {
            existing.index.set_billboard(billboard);
            (existing.index, false)
        }
        None => {
            let (children, warnings) = child_entries(&project, &dir);
            for warning in warnings {
                warn(&warning);
            }
            (AIndex::new(&dir, billboard, &children), true)
        }
    };
    let changed = atomic::write_if_changed(&project.abs(&rel), index.render().as_bytes())
        .with_context(|| format!("cannot write {rel}"))?;
    match ctx.format {
        Format::Text => {
            let verb = if created {
                "created"
            } else if changed {
                "updated"
            } else {
                "unchanged"
            };
            print_text(&format!("{verb} {rel}\n"))?;
        }
        Format::Json => print_json(&serde_json::json!({
            "directory": dir,
            "path": rel,
            "created": created,
            "changed": changed,
            "billboard": index.billboard(),
        }))?,
    }
    Ok(Outcome::Ok)
}
