//! `lexi lookup <file>`: print a source file's design file, a staleness warning when the source moved
//! on, and the Local Conventions inherited from every parent directory.

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::lookup::{ensure_file_argument, lookup, Lookup};
use crate::project::{paths, Project};

/// Show the design file of a source file.
///
/// Prints `.lexibrary/<file>.md` without its machine footer, a warning first if the source changed
/// since the design file was written, and then the Local Conventions of every parent directory's
/// `.aindex` (root first). Paths are relative to the current directory.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi lookup src/auth/login.py\n  lexi lookup ../lib.rs --format json"
)]
pub struct Args {
    /// The source file (not its design file), relative to the current directory.
    pub file: PathBuf,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    let source = paths::resolve(&project.root, &ctx.cwd, &args.file)?;
    ensure_file_argument(&source)?;
    let found = lookup(&project, &source)?;
    match ctx.format {
        Format::Text => print_text(&render_text(&found))?,
        Format::Json => print_json(&json(&found))?,
    }
    Ok(Outcome::Ok)
}

fn render_text(found: &Lookup) -> String {
    let mut out = String::new();
    for warning in found.warnings() {
        out.push_str(&warning);
        out.push_str("\n\n");
    }
    out.push_str(&found.content);
    out.push('\n');
    if !found.conventions.is_empty() {
        out.push_str("\n## Inherited Local Conventions\n");
        for conventions in &found.conventions {
            let dir = if conventions.directory.is_empty() {
                "./".to_string()
            } else {
                format!("{}/", conventions.directory)
            };
            out.push_str(&format!("\n### From {dir}\n\n{}\n", conventions.raw));
        }
    }
    out
}

fn json(found: &Lookup) -> serde_json::Value {
    let sections: Vec<_> = found
        .design
        .body
        .sections
        .iter()
        .map(|section| serde_json::json!({"heading": section.heading, "body": section.body}))
        .collect();
    serde_json::json!({
        "source": found.source,
        "design_file": found.design_path,
        "staleness": found.staleness,
        "stale": found.staleness != crate::knowledge::lookup::Staleness::Current,
        "contract": found.contract,
        "frontmatter": found.design.frontmatter,
        "title": found.design.body.title,
        "preamble": found.design.body.preamble,
        "sections": sections,
        "footer": found.design.footer,
        "conventions": found.conventions,
    })
}
