//! `lexictl hook <event>`: what the installed git hooks call. The post-* events return at once and
//! leave the update to a detached background worker (`engine::hook`); pre-push warns, or (opt-in)
//! judges the pushed commits (`engine::pre_push`).

use std::io::Read as _;

use crate::cli::{Context, Outcome};
use crate::engine::hook::{self, Triggered};
use crate::engine::pre_push::{self, PrePush};

/// Called by the git hooks that `lexictl setup --hooks` installs; you do not need to run it.
///
/// post-commit, post-merge, post-applypatch and post-rewrite return at once: a background worker
/// runs `lexictl update --changed-only`. While a rebase, `git am`, a cherry-pick or revert
/// sequence, a merge with conflicts or a bisect is in progress the worker waits (up to 30 minutes)
/// and then updates once, for what the whole operation changed; it never writes .lexibrary/ in the
/// middle of one. Its output goes to `$(git rev-parse --git-path lexibrarian)/hook.log`.
///
/// pre-push never refuses a push by default: when the checked-out commit's library is not in the
/// push it prints one line (the next commit carries it). With `hooks.pre_push: block` in the config
/// it stops a push of a commit whose committed library is not current (`lexictl update --check` of
/// that commit), naming the files. Notes, tags and deletions are never judged; a check that cannot
/// run lets the push go. `git push --no-verify` skips it.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples (what the hooks run):
  lexictl hook post-commit
  lexictl hook post-rewrite rebase
  git push        # runs: lexictl hook pre-push origin <url> < <refs being pushed>")]
pub struct Args {
    #[command(subcommand)]
    pub event: Event,
}

#[derive(Debug, clap::Subcommand)]
pub enum Event {
    /// After a commit (also once per commit a rebase, cherry-pick or revert replays).
    #[command(after_help = "Example (what the hook runs):\n  lexictl hook post-commit")]
    PostCommit,
    /// After `git am` applied a patch.
    #[command(after_help = "Example (what the hook runs):\n  lexictl hook post-applypatch")]
    PostApplypatch,
    /// After `git merge` or `git pull` (git passes 1 for a squash merge).
    #[command(after_help = "Example (what the hook runs):\n  lexictl hook post-merge 0")]
    PostMerge {
        /// Whether it was a squash merge.
        squash: Option<String>,
    },
    /// After `git commit --amend` or a rebase (git passes `amend` or `rebase`).
    #[command(after_help = "Example (what the hook runs):\n  lexictl hook post-rewrite rebase")]
    PostRewrite {
        /// What rewrote the commits.
        kind: Option<String>,
    },
    /// Before `git push` sends anything: the refs being pushed come on stdin, one
    /// `<local ref> <local oid> <remote ref> <remote oid>` line each. Exit 1 (only with
    /// `hooks.pre_push: block`) stops the push.
    #[command(
        after_help = "Example (what the hook runs):\n  lexictl hook pre-push origin git@example.com:team/app.git < refs"
    )]
    PrePush {
        /// The remote's name (or URL when pushing to a URL).
        remote: Option<String>,
        /// The remote's URL.
        url: Option<String>,
    },
    /// The background worker (started by the post-* events).
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
        Event::PrePush { .. } => return run_pre_push(ctx, &program),
        Event::Worker => {
            hook::worker(&ctx.cwd, &program)?;
            return Ok(Outcome::Ok);
        }
    };
    match hook::trigger(&ctx.cwd, event, &program)? {
        Triggered::Started | Triggered::Queued => {}
        Triggered::Skipped(why) => {
            crate::cli::output::safe_eprintln!("lexibrarian: {event}: skipped, {why}")
        }
    }
    Ok(Outcome::Ok)
}

fn run_pre_push(ctx: &Context, program: &std::path::Path) -> anyhow::Result<Outcome> {
    let mut refs = String::new();
    // A terminal on stdin means someone ran it by hand: there are no refs to read.
    if !std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        // Unreadable stdin is no refs: the check falls back to HEAD.
        let _ = std::io::stdin().read_to_string(&mut refs);
    }
    match pre_push::pre_push(&ctx.cwd, &refs, program) {
        Ok(PrePush::Allow(note)) => {
            if let Some(note) = note {
                crate::cli::output::safe_eprintln!("{note}");
            }
            Ok(Outcome::Ok)
        }
        Ok(PrePush::Refuse(message)) => {
            crate::cli::output::safe_eprint!("{message}");
            Ok(Outcome::Failed)
        }
        // A check that cannot run never holds code back (D-067): say why, let the push go.
        Err(err) => {
            crate::cli::output::safe_eprintln!("lexibrarian: pre-push check skipped: {err:#}");
            Ok(Outcome::Ok)
        }
    }
}
