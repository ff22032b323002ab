//! `lexi concept new|link`: create a concept from the template, or link one from a design file.

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::concepts::{create, link};
use crate::project::{paths, Project};
use crate::relpath::RelPath;

/// Create or link concepts.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lexi concept new \"Money Handling\" --tag finance    writes concepts/MoneyHandling.md
  lexi concept link src/billing/invoice.py MoneyHandling")]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Create .lexibrary/concepts/<Name>.md from the template (status: draft).
    ///
    /// The name is the file name and the wikilink target: letters, digits, `-` and `_`, e.g.
    /// MoneyHandling. Give a title with spaces instead ("Money Handling") and the name is made
    /// from its words (MoneyHandling.md, titled "Money Handling"). Fill in Summary and Rules, then
    /// set `status: active`.
    #[command(
        after_help = "Examples:\n  lexi concept new \"Money Handling\" --tag finance --alias currency   writes concepts/MoneyHandling.md\n  lexi concept new MoneyHandling --title \"Money handling rules\""
    )]
    New {
        /// The concept's name (MoneyHandling) or its title in words ("Money Handling").
        name: String,
        /// Human-readable title (defaults to the title given as the name, else the name).
        #[arg(long)]
        title: Option<String>,
        /// A tag (repeatable, or comma-separated). Tags are shared with design files and Stack posts.
        #[arg(long = "tag", value_delimiter = ',')]
        tags: Vec<String>,
        /// Another name agents may search for (repeatable).
        #[arg(long = "alias")]
        aliases: Vec<String>,
    },
    /// Add [[Concept]] to a source file's design file, under `## Wikilinks`.
    ///
    /// Nothing else in the design file changes. The concept may be named by file name, title or
    /// alias; the link uses its file name.
    #[command(after_help = "Example:\n  lexi concept link src/billing/invoice.py MoneyHandling")]
    Link {
        /// The source file (not its design file), relative to the current directory.
        file: PathBuf,
        /// The concept's name, title or alias.
        concept: String,
    },
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let project = Project::discover(&ctx.cwd)?;
    match &args.command {
        Command::New {
            name,
            title,
            tags,
            aliases,
        } => {
            let path = create(&project, name, title.as_deref(), tags, aliases)?;
            let shown = format!("{}/{path}", crate::project::LIBRARY_DIR);
            let name = RelPath::new(&path)
                .file_name()
                .strip_suffix(".md")
                .unwrap_or(name);
            match ctx.format {
                Format::Json => print_json(&serde_json::json!({"name": name, "path": shown, "status": "draft"}))?,
                Format::Text => print_text(&format!(
                    "Created {shown} (status: draft). Fill in Summary and Rules, then set `status: active`.\n"
                ))?,
            }
        }
        Command::Link { file, concept } => {
            let source = paths::resolve(&project.root, &ctx.cwd, file)?;
            let linked = link(&project, &source, concept)?;
            match ctx.format {
                Format::Json => print_json(&linked)?,
                Format::Text if linked.added => print_text(&format!(
                    "Linked [[{}]] from {}\n",
                    linked.concept, linked.design_file
                ))?,
                Format::Text => print_text(&format!(
                    "{} already links [[{}]]; nothing to do\n",
                    linked.design_file, linked.concept
                ))?,
            }
        }
    }
    Ok(Outcome::Ok)
}
