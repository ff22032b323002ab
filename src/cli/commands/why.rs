//! `lexi why <file>`: who wrote a source file's design file as it is now, from the provenance notes.

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::why::{why, Why};
use crate::project::{paths, Project};

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
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    let source = paths::resolve(&project.root, &ctx.cwd, &args.file)?;
    let found = why(&project, &source)?;
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
                let field = |key: &str| event[key].as_str().unwrap_or("").to_string();
                let number = |key: &str| event[key].as_u64();
                let verb = match field("kind").as_str() {
                    "dependents_refreshed" => "Dependents refreshed",
                    "moved" => "moved with its source",
                    _ => "generated",
                };
                let mut line = format!("{verb} by {}", field("generator"));
                if let Some(model) = event["model"].as_str() {
                    line.push_str(&format!(" ({model}, prompt {})", field("prompt_version")));
                }
                line.push_str(&format!(" at {}", field("ts")));
                if let Some(commit) = event["commit"].as_str() {
                    line.push_str(&format!(" on commit {}", short(commit)));
                }
                out.push_str(&format!("{line}\n  level {}, ", field("level")));
                out.push_str(&format!(
                    "source_hash {}, interface_hash {}",
                    short(&field("source_hash")),
                    short(event["interface_hash"].as_str().unwrap_or("-"))
                ));
                if let (Some(input), Some(output)) = (number("tokens_in"), number("tokens_out")) {
                    out.push_str(&format!(", tokens {input} in / {output} out"));
                }
                if let Some(ms) = number("duration_ms") {
                    out.push_str(&format!(", {ms} ms"));
                }
                out.push('\n');
            }
        }
        "edited" => out.push_str(
            "edited since it was generated: this text is not what the Archivist wrote (an agent or a human changed it)\n",
        ),
        "unrecorded" => out.push_str(
            "no provenance recorded for this text (written before provenance notes, or the notes were not fetched: `lexictl notes sync`)\n",
        ),
        _ => out.push_str("provenance lives in git notes; this project is not in a git repository\n"),
    }
    out
}

/// The first 12 characters (note data may come from anywhere: never slice bytes).
fn short(hash: &str) -> String {
    hash.chars().take(12).collect()
}
