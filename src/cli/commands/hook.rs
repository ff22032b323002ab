//! `lexictl hook post-commit|post-merge|post-rewrite`: what the installed git hooks call. Returns at once; the
//! update runs in a detached background worker (see `engine::hook`).

use crate::cli::{Context, Outcome};
use crate::engine::hook::{self, Triggered};

/// Called by the git hooks that `lexictl setup --hooks` installs; you do not need to run it.
///
/// Starts a background worker that runs `lexictl update --changed-only` and returns immediately.
/// Does nothing while a rebase, cherry-pick or merge is in progress (post-rewrite updates once at
/// the end). The worker's output goes to `$(git rev-parse --git-path lexibrarian)/hook.log`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    pub event: Event,
}

#[derive(Debug, clap::Subcommand)]
pub enum Event {
    /// After a commit.
    PostCommit,
    /// After `git am` applied a patch.
    PostApplypatch,
    /// After `git merge` or `git pull` (git passes 1 for a squash merge).
    PostMerge {
        /// Whether it was a squash merge.
        squash: Option<String>,
    },
    /// After `git commit --amend` or a rebase (git passes `amend` or `rebase`).
    PostRewrite {
        /// What rewrote the commits.
        kind: Option<String>,
    },
    /// The background worker (started by the two above).
    #[command(hide = true)]
    Worker,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let program = std::env::current_exe()?;
    let event = match &args.event {
        Event::PostCommit => "post-commit",
        Event::PostMerge { .. } => "post-merge",
        Event::PostApplypatch => "post-applypatch",
        Event::PostRewrite { .. } => "post-rewrite",
        Event::Worker => {
            hook::worker(&ctx.cwd, &program)?;
            return Ok(Outcome::Ok);
        }
    };
    match hook::trigger(&ctx.cwd, event, &program)? {
        Triggered::Started => {}
        Triggered::Skipped(why) => eprintln!("lexibrarian: {event}: skipped, {why}"),
    }
    Ok(Outcome::Ok)
}
