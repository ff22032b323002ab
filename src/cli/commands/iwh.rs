//! `lexi iwh write|read|list`: I Was Here notes, the directory-scoped signals one agent leaves for the
//! next (seed §1). Notes are gitignored and consumed on read.

use std::path::{Path, PathBuf};

use crate::cli::output::{piped_stdin, print_json, print_text, warn};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::iwh::{self, Found};
use crate::library::iwh::IwhScope;
use crate::project::{paths, Project};

/// Leave, read or list I Was Here notes.
///
/// Leave a note only when you stop with something unfinished, broken or surprising in a directory;
/// finishing cleanly needs no note. The next agent entering the directory reads (and so deletes) it.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lexi iwh read src/auth                   what the last agent left here (and delete it)
  lexi iwh write src/auth --scope blocked --body \"tests fail after the token change\"
  lexi iwh list")]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Leave a note in a directory (the body may be piped on stdin).
    #[command(
        after_help = "Example:\n  lexi iwh write src/auth --scope incomplete --body \"refresh_token() still uses the old API\""
    )]
    Write {
        /// The directory the note is about, relative to the current directory (`.` for the project).
        dir: PathBuf,
        /// warning: be aware; incomplete: work started, not finished; blocked: broken, fix first.
        #[arg(long, value_enum)]
        scope: IwhScope,
        /// The note. Read from stdin when omitted.
        #[arg(long)]
        body: Option<String>,
        /// Who is writing (default: $LEXI_AUTHOR, else the git identity).
        #[arg(long)]
        author: Option<String>,
        /// Replace a note that is already waiting there.
        #[arg(long)]
        replace: bool,
    },
    /// Print the note waiting in a directory and delete it (keep it with --peek).
    #[command(after_help = "Example:\n  lexi iwh read src/auth")]
    Read {
        /// The directory, relative to the current directory.
        dir: PathBuf,
        /// Show the note without consuming it.
        #[arg(long)]
        peek: bool,
    },
    /// List every waiting note.
    #[command(after_help = "Examples:\n  lexi iwh list\n  lexi iwh list --format json")]
    List,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let ws = ctx.workspace()?;
    match &args.command {
        Command::Write {
            dir,
            scope,
            body,
            author,
            replace,
        } => {
            let project = ws.project();
            iwh::ensure_enabled(project)?;
            let dir = paths::resolve(&project.root, &ctx.cwd, dir)?;
            let body = match body {
                Some(body) => body.clone(),
                None => piped_stdin()?.unwrap_or_default(),
            };
            let author = crate::knowledge::author(author.as_deref(), &ws);
            let path = iwh::write(project, &dir, *scope, &body, &author, *replace)?;
            print_written(ctx.format, &dir, &path, *scope, &author)?;
        }
        Command::Read { dir, peek } => read(ctx, ws.project(), dir, *peek)?,
        Command::List => list(ctx.format, &iwh::list(ws.project())?)?,
    }
    Ok(Outcome::Ok)
}

fn print_written(
    format: Format,
    dir: &str,
    path: &str,
    scope: IwhScope,
    author: &str,
) -> anyhow::Result<()> {
    match format {
        Format::Json => print_json(
            &serde_json::json!({"directory": dir, "path": path, "scope": scope.as_str(), "author": author}),
        ),
        Format::Text => print_text(&format!(
            "Left a {} note in {} ({path})\n",
            scope.as_str(),
            shown(dir)
        )),
    }
}

/// Print the note waiting in `dir` and, once it is printed, delete it (unless `peek`).
fn read(ctx: &Context, project: &Project, dir: &Path, peek: bool) -> anyhow::Result<()> {
    if !project.config.iwh.enabled {
        warn("I Was Here notes are disabled in this project (iwh.enabled: false)");
    }
    let dir = paths::resolve(&project.root, &ctx.cwd, dir)?;
    let (found, claimed) = match iwh::read(project, &dir, peek)? {
        Some((found, claimed)) => (Some(found), Some(claimed)),
        None => (None, None),
    };
    let consumed = claimed.as_ref().is_some_and(|c| c.taken());
    let printed = match ctx.format {
        Format::Json => {
            print_json(&serde_json::json!({"directory": dir, "found": found, "consumed": consumed}))
        }
        Format::Text => match &found {
            None => print_text(&format!("No note waits in {}.\n", shown(&dir))),
            Some(found) => print_text(&found.to_text()),
        },
    };
    // Delete the note only once it was delivered.
    match (printed, claimed) {
        (Err(err), Some(claimed)) => {
            claimed.restore();
            return Err(err);
        }
        (Err(err), None) => return Err(err),
        (Ok(()), Some(claimed)) => claimed.consume()?,
        (Ok(()), None) => {}
    }
    if let (Some(found), Format::Text) = (&found, ctx.format) {
        if found.note.is_none() {
            warn(&format!(
                "{} does not parse, so it was kept; act on it, then delete it by hand",
                found.path
            ));
        } else if consumed {
            crate::cli::output::safe_eprintln!("(consumed: {} deleted)", found.path);
        }
    }
    Ok(())
}

/// Every waiting note, one line each.
fn list(format: Format, notes: &[Found]) -> anyhow::Result<()> {
    match format {
        Format::Json => print_json(&serde_json::json!({ "notes": notes })),
        Format::Text if notes.is_empty() => print_text("No I Was Here notes.\n"),
        Format::Text => {
            let mut out = String::new();
            for found in notes {
                out.push_str(&found.list_line());
            }
            print_text(&out)
        }
    }
}

fn shown(dir: &str) -> &str {
    if dir.is_empty() {
        "."
    } else {
        dir
    }
}
