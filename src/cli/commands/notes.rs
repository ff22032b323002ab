//! `lexictl notes sync [remote]`: share the Stack history and Archivist provenance (git notes) with a
//! remote, merging both sides' events as a set union.

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::engine::notes_sync;
use crate::git::GitRepo;

/// Share Lexibrarian's git notes with a remote.
///
/// Git does not push or fetch notes by default. `sync` fetches the remote's
/// refs/notes/lexibrarian/*, merges them into yours keeping every event of both sides, and pushes
/// the result without force (retrying if someone pushed meanwhile). Your branches are not touched,
/// and a plain `git push` keeps pushing your branch as before. Then each Stack vote count whose
/// history is now complete is set from it (two clones that voted at once from the same count end
/// with the right one); those posts change in the working tree, to be committed.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexictl notes sync\n  lexictl notes sync upstream --format json"
)]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Fetch, union-merge and push the notes.
    #[command(after_help = "Examples:\n  lexictl notes sync\n  lexictl notes sync upstream")]
    Sync {
        /// The remote (default: the current branch's upstream, else origin).
        remote: Option<String>,
    },
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let Command::Sync { remote } = &args.command;
    let repo = GitRepo::discover(&ctx.cwd)?.ok_or_else(|| {
        anyhow::anyhow!("notes sync needs a git repository; this is not inside one")
    })?;
    let synced = notes_sync::sync(repo.workdir(), remote.as_deref())?;
    match ctx.format {
        Format::Json => print_json(&synced)?,
        Format::Text => {
            let mut out = String::new();
            for (notes_ref, outcome) in &synced.merged {
                let word = match outcome {
                    crate::git::notes::MergeOutcome::UpToDate => "up to date",
                    crate::git::notes::MergeOutcome::FastForward => "took the remote's new events",
                    crate::git::notes::MergeOutcome::Merged => "merged both sides' events",
                };
                out.push_str(&format!("{notes_ref}: {word}\n"));
            }
            for reconciled in &synced.reconciled {
                out.push_str(&format!(
                    "{}: {} (from the complete history; commit the post)\n",
                    reconciled.file,
                    reconciled.describe()
                ));
            }
            if synced.pushed.is_empty() {
                out.push_str(&format!("nothing to push to {}\n", synced.remote));
            } else {
                out.push_str(&format!(
                    "pushed to {}: {}\n",
                    synced.remote,
                    synced.pushed.join(", ")
                ));
            }
            print_text(&out)?;
        }
    }
    Ok(Outcome::Ok)
}
