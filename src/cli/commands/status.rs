//! `lexictl status [--quiet]`: the library's health at a glance; exit 2 when something needs
//! attention (D-046).

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::engine::update;
use crate::knowledge::status::{status, Status};
use crate::workspace::coverage::{Packages, Uncovered};

/// Show the library's health: counts, stale design files, the last validation, how much of the
/// packages' code is out of scope, hook and notes.
///
/// Stale files are what `lexictl update --check` finds (the same computation: the two always
/// agree); when nothing changed since the last update that costs about a `git status`. Issue counts
/// come from the last `lexictl validate` (its time is shown). Code of a workspace member or package
/// outside `scope_root` is counted (`lexictl setup --update` adds it). Exit 2 when there are
/// errors, warnings, stale files or code out of scope; 0 when healthy.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexictl status\n  lexictl status --quiet   # one line, or nothing when healthy"
)]
pub struct Args {
    /// One line (`lexibrarian: 3 warnings, 0 errors, 2 stale`), or nothing when healthy.
    #[arg(long, short)]
    pub quiet: bool,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let ws = ctx.workspace()?;
    // A repository that cannot be read is an error, never a status made as if outside git.
    ws.discovered_repo()?;
    let found = status(&ws, update::stale_entries)?;
    let project = ws.project();
    let uncovered = Packages::read(&project.root, &project.config).uncovered(ws.scope()?);
    let healthy = found.healthy() && uncovered.is_empty();
    let outcome = if healthy {
        Outcome::Ok
    } else {
        Outcome::Findings
    };
    match ctx.format {
        Format::Json => print_json(&serde_json::json!({
            "healthy": healthy,
            "status": found,
            "out_of_scope": uncovered,
        }))?,
        _ if args.quiet => {
            let scope = uncovered
                .summary()
                .map(|_| format!("{} code files out of scope", uncovered.files));
            let line = match (found.quiet_line(), scope) {
                (Some(line), Some(scope)) => Some(format!("{line}, {scope}")),
                (None, Some(scope)) => Some(format!("lexibrarian: {scope}")),
                (line, None) => line,
            };
            if let Some(line) = line {
                print_text(&format!("{line}\n"))?;
            }
        }
        _ => print_text(&render(&found, &uncovered))?,
    }
    Ok(outcome)
}

fn render(found: &Status, uncovered: &Uncovered) -> String {
    let join = |map: &std::collections::BTreeMap<String, usize>| {
        if map.is_empty() {
            "none".to_string()
        } else {
            map.iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    };
    let mut out = format!(
        "Library: {} design files, {} indexes; concepts: {}; Stack: {}\n",
        found.design_files,
        found.indexes,
        join(&found.concepts),
        join(&found.stack_posts)
    );
    out.push_str(&format!("Stale: {}", found.stale));
    if !found.stale_examples.is_empty() {
        out.push_str(&format!(
            " ({}{})",
            found.stale_examples.join(", "),
            if found.stale > found.stale_examples.len() {
                ", …"
            } else {
                ""
            }
        ));
    }
    out.push('\n');
    match &found.validation {
        Some(v) => out.push_str(&format!(
            "Last validate: {} — {} errors, {} warnings, {} info\n",
            v.time, v.errors, v.warnings, v.info
        )),
        None => out.push_str("Last validate: never (run `lexictl validate`)\n"),
    }
    out.push_str(&format!(
        "Last update: {}\n",
        found
            .last_update
            .as_deref()
            .unwrap_or("never (run `lexictl update`)")
    ));
    match uncovered.summary() {
        Some(summary) => out.push_str(&format!(
            "Scope: {summary} (`lexictl setup --update` adds them)\n"
        )),
        None if uncovered.total > 0 => out.push_str(&format!(
            "Scope: all {} code files of the project's packages\n",
            uncovered.total
        )),
        None => {}
    }
    out.push_str(&format!("Hook: {}\n", found.hook));
    for notes in &found.notes {
        let state = match (notes.present, notes.unpushed) {
            (false, _) => "none yet",
            (true, true) => "not pushed (run `lexictl notes sync`)",
            (true, false) => "in sync with a remote",
        };
        out.push_str(&format!("Notes {}: {state}\n", notes.name));
    }
    if let Some(notice) = &found.untrusted_config {
        out.push_str(&format!("Config: {notice}\n"));
    }
    out.push_str(if found.healthy() && uncovered.is_empty() {
        "Healthy.\n"
    } else {
        "Needs attention.\n"
    });
    out
}
