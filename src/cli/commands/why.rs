//! `lexi why <file>`: who wrote a source file's design file as it is now, from the provenance notes.

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::why::{why, Why};
use crate::library::events::{ProvenanceEvent, ProvenanceKind};
use crate::project::paths;

/// Show who generated a design file, from what, and whether it was edited since.
///
/// Every design file the Archivist writes gets a provenance note (generator, model, prompt, the
/// source and interface hashes, the commit, tokens, duration) keyed by its exact content. If the file
/// was edited afterwards, the note no longer applies and `why` says so.
#[derive(Debug, clap::Args)]
#[command(after_help = "Example:\n  lexi why src/auth/login.py")]
pub struct Args {
    /// The source file (not its design file), relative to the current directory.
    pub file: PathBuf,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let ws = ctx.workspace()?;
    let source = paths::resolve(&ws.project().root, &ctx.cwd, &args.file)?;
    let found = why(&ws, &source)?;
    match ctx.format {
        Format::Json => print_json(&found)?,
        Format::Text => print_text(&render(&found))?,
    }
    Ok(Outcome::Ok)
}

fn render(found: &Why) -> String {
    let mut out = format!("{} (blob {})\n", found.design_file, &found.blob.short());
    match found.state {
        "generated" => {
            for event in &found.events {
                out.push_str(&render_event(event));
            }
        }
        "edited" => out.push_str(
            "edited since it was generated: this text is not what the Archivist wrote (an agent or a human changed it)\n",
        ),
        "unrecorded" => {
            let origin = found.footer.as_ref().map_or_else(
                || "the Archivist".to_string(),
                |footer| match &footer.generated {
                    Some(generated) => format!("{}, generated {generated}", footer.generator),
                    None => footer.generator.clone(),
                },
            );
            out.push_str(&format!(
                "written by the Archivist ({origin}, per its footer); the notes here hold no event for this text\n  `lexictl notes sync` fetches other clones' events; `lexictl validate --fix` records one from the footer\n"
            ));
        }
        _ => out.push_str("provenance lives in git notes; this project is not in a git repository\n"),
    }
    out
}

/// Two lines about one recorded generation.
fn render_event(event: &ProvenanceEvent) -> String {
    let verb = match event.kind {
        ProvenanceKind::DependentsRefreshed => "Dependents refreshed",
        ProvenanceKind::Moved => "moved with its source",
        ProvenanceKind::Recovered => {
            "recorded from its footer (by `lexictl validate --fix`): generated"
        }
        _ => "generated",
    };
    let mut line = format!("{verb} by {}", event.generator);
    if let Some(model) = &event.model {
        let prompt = event.prompt_version.as_deref().unwrap_or("");
        line.push_str(&format!(" ({model}, prompt {prompt})"));
    }
    line.push_str(&format!(" at {}", event.ts));
    if let Some(commit) = &event.commit {
        line.push_str(&format!(" on commit {}", short(commit)));
    }
    let mut out = format!("{line}\n  level {}, ", event.level);
    out.push_str(&format!(
        "source_hash {}, interface_hash {}",
        short(&event.source_hash),
        short(event.interface_hash.as_deref().unwrap_or("-"))
    ));
    if let (Some(input), Some(output)) = (event.tokens_in, event.tokens_out) {
        out.push_str(&format!(", tokens {input} in / {output} out"));
    }
    out.push_str(&format!(", {} ms\n", event.duration_ms));
    out
}

/// The first 12 characters (note data may come from anywhere: never slice bytes).
fn short(hash: &str) -> String {
    hash.chars().take(12).collect()
}
