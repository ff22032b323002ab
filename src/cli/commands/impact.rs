//! `lexi impact <file> [--depth N] [--member NAME]`: what a change to a file reaches — its
//! dependents level by level, the tests among them, and the concepts and Stack posts linked to any
//! of them (the query is [`crate::knowledge::impact`]); or, with `--member`, what a change to one
//! member reaches: its callers level by level and its tests
//! ([`crate::knowledge::member_impact`]).

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::impact::{impact, DEFAULT_DEPTH};
use crate::knowledge::lookup::ensure_file_argument;
use crate::knowledge::member_impact::member_impact;
use crate::project::paths;

/// What a change to a file reaches.
///
/// Follows the whole dependency graph of the last `lexictl update`: the files that import this
/// one (depth 1), the files that import those (depth 2), and so on, each listed once at the depth
/// it is first reached, with the file it was reached through. Then the tests among them (and those
/// the design files name; not fixtures like `conftest.py` or helpers other tests import), those
/// that exercise the file most directly first, and the concepts and Stack posts linked to any of
/// them. Imports made only for the type checker (Python `if TYPE_CHECKING:`, TypeScript `import
/// type`) are not followed: their importers are counted apart. Run it before changing a file's
/// interface; `lexi lookup` points here when a Dependents list is long. Before
/// the first update of a clone it follows the design files' Dependents lists instead, which may be
/// capped, and says so. An importer for types only that calls the file's members at run time is
/// followed, and says which calls.
///
/// With `--member NAME`, what a change to one member reaches instead: the members calling it,
/// then those calling them, … (across files where resolution supports it), the tests among them
/// and the tests that call it, the calls of its name through objects of unknown type (counted
/// apart), and the members overriding or implementing it.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi impact src/flask/app.py\n  lexi impact lib/response.js --depth 1\n  lexi impact lib/response.js --full\n  lexi impact src/flask/app.py --member make_response\n  lexi impact src/a.rs --format json"
)]
pub struct Args {
    /// The source file (not its design file), relative to the current directory.
    pub file: PathBuf,
    /// How many levels of dependents to follow, 1 to 20 (1 = only the files that import it directly).
    #[arg(long, default_value_t = DEFAULT_DEPTH)]
    pub depth: usize,
    /// List every reached file and test; by default a level or the Tests list longer than 20
    /// shows its first entries (code before tests) and counts the rest by directory.
    #[arg(long)]
    pub full: bool,
    /// One member of the file (as `lexi lookup --member` names it): its callers, transitively,
    /// and its tests, instead of the file's dependents.
    #[arg(long, value_name = "NAME")]
    pub member: Option<String>,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let ws = ctx.workspace()?;
    let source = paths::resolve(&ws.project().root, &ctx.cwd, &args.file)?;
    ensure_file_argument(&source)?;
    if let Some(name) = &args.member {
        let found = member_impact(&ws, &source, name, args.depth)?;
        match ctx.format {
            Format::Text => print_text(&found.to_text(args.full))?,
            Format::Json => print_json(&found.to_json())?,
        }
        return Ok(Outcome::Ok);
    }
    let found = impact(&ws, &source, args.depth)?;
    match ctx.format {
        Format::Text if args.full => print_text(&found.to_text_full())?,
        Format::Text => print_text(&found.to_text())?,
        Format::Json => print_json(&found)?,
    }
    Ok(Outcome::Ok)
}
