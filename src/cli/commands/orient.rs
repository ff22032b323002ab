//! `lexi orient [--budget TOKENS]`: the session-start bundle — the library's health line, the note
//! waiting at the project root (shown, not consumed) and START_HERE.md, in one call.

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::orient::{orient, DEFAULT_BUDGET};

/// Start a session: what to read first, in one call.
///
/// Prints the one-line health summary when the library needs attention (what `lexictl status
/// --quiet` prints), the I Was Here note waiting at the project root if there is one (shown, left in
/// place: `lexi iwh read .` consumes it), then .lexibrary/START_HERE.md. START_HERE.md is cut at a
/// section boundary when the whole would exceed the budget. Claude Code runs this at session start
/// when `lexictl setup` installed its hook.
#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:\n  lexi orient\n  lexi orient --budget 600 --format json")]
pub struct Args {
    /// Token budget for the whole answer (estimated as characters / 4).
    #[arg(long, default_value_t = DEFAULT_BUDGET)]
    pub budget: usize,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let ws = ctx.workspace()?;
    let found = orient(&ws, args.budget, crate::engine::update::stale_entries)?;
    match ctx.format {
        Format::Json => print_json(&found)?,
        Format::Text => print_text(&found.to_text())?,
    }
    Ok(Outcome::Ok)
}
