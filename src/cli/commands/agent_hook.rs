//! `lexi hook pre-edit`: what the Claude Code hooks `lexictl setup` installs call. Reads the hook's
//! JSON on stdin and prints the hook's answer; always exits 0, so an edit is never blocked.

use std::io::Read;

use crate::cli::output::print_text;
use crate::cli::{Context, Outcome};

/// Called by the Claude Code hooks `lexictl init` and `lexictl setup` install; you do not need to
/// run it.
///
/// `pre-edit` reads Claude Code's PreToolUse JSON on stdin and, when `claude.pre_edit_lookup` is on,
/// prints a short lookup of the file about to be edited as the hook's `additionalContext` (once per
/// session until its design file changes). It prints nothing for a file outside the project or
/// without a design file, and never fails the edit.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Example:\n  echo '{\"tool_input\":{\"file_path\":\"src/lib.rs\"}}' | lexi hook pre-edit"
)]
pub struct Args {
    #[command(subcommand)]
    pub event: Event,
}

#[derive(Debug, clap::Subcommand)]
pub enum Event {
    /// Before Edit, MultiEdit or Write (Claude Code's PreToolUse hook).
    #[command(
        after_help = "Example:\n  echo '{\"tool_input\":{\"file_path\":\"src/lib.rs\"}}' | lexi hook pre-edit"
    )]
    PreEdit,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    match args.event {
        Event::PreEdit => {
            let mut input = String::new();
            // Unreadable input means there is nothing to say; the edit goes on.
            if std::io::stdin().read_to_string(&mut input).is_ok() {
                if let Some(answer) = crate::knowledge::pre_edit::answer(&ctx.cwd, &input) {
                    print_text(&format!("{answer}\n"))?;
                }
            }
        }
    }
    Ok(Outcome::Ok)
}
