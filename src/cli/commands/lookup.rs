//! `lexi lookup <file>`: print a source file's design file, a staleness warning when the source moved
//! on, and the Local Conventions inherited from every parent directory.

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::lookup::member::{lookup_member, Asked};
use crate::knowledge::lookup::{ensure_file_argument, lookup_full, lookup_in};
use crate::project::paths;

/// Show what a source file is for and how it connects, in about 1,000 tokens.
///
/// Prints, compact (at most 4 KB whatever the file): a warning first if the source changed since
/// its design file (`.lexibrary/<file>.md`) was written; the file's description (and, when a file
/// it imports or that imports it has the same one, what tells them apart); its members, one line
/// each — name, parameter names and the first sentence of its doc (when not all fit, the most
/// important keep their line and the rest are named on an `also:` line); one line each for its
/// dependencies, external packages, dependents and tests — the count and the first few (tests ranked
/// as `lexi impact` ranks them, type-only importers last and marked) — calls, complexity and tags;
/// sections an agent wrote (cut); the Local Conventions inherited from every parent directory (root
/// first); and where the rest is. Paths are relative to the current directory.
///
/// `--full` prints the design file whole instead (without its machine footer): nothing trimmed,
/// capped lists replaced by the whole lists of the last `lexictl update`'s dependency graph, every
/// test that reaches the file, `## Calls` (which members of the file call which of its other
/// members) and `## Called from` (which members of neighbouring files call its public names) whole,
/// and a contract the design file's budget cut rendered again from the source (only when the
/// source is unchanged since the design file was written). `--format json` gives the sections as
/// the design file stores them (never trimmed, but capped where the design file is); with `--full`,
/// made whole as in the text, and `expanded` names the sections that were.
///
/// `--member <name>` prints one member instead of the design file: its signature under the headers
/// it sits in, the file's members it calls and that call it, the members of neighbouring files
/// calling it, what it raises or throws (`Raises:`), the members of the file sharing its callees
/// and keys (`Related:`), its flow, the best tests — those whose test functions call it by name
/// first (`tests/test_basic.py: test_make_response, …`), then the tests reaching it indirectly
/// (its delegate's, named for it, calling its callers) — and last its doc's first paragraph and
/// the lines saying how it fails (`# Panics`, `# Errors`, `Raises:`, `@throws`; code examples left
/// out). With `--full`, everything: the whole doc and flow, every test, caller and
/// call. With `--source`, its lines as written (comments included) after the flow. A
/// name matches a label (`Flask.make_response`, `res.json`, `Sender::send`) or its last segment
/// (`send`; every match is shown); a test case is named by its title or the title's slug
/// (`--member 'should respond with html'`, `should_respond_with_html`); an unknown name is an
/// error listing the closest members.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi lookup src/auth/login.py\n  lexi lookup ../lib.rs --format json\n  lexi lookup --full src/flask/app.py\n  lexi lookup src/flask/app.py --member make_response\n  lexi lookup lib/response.js --member res.json"
)]
pub struct Args {
    /// The source file (not its design file), relative to the current directory.
    pub file: PathBuf,
    /// Print the design file with every section whole: the whole lists of the dependency graph, every
    /// test, every call, a cut Interface Contract rendered again from the source. With `--member`:
    /// the member's whole doc and flow, and every test, caller and call.
    #[arg(long)]
    pub full: bool,
    /// Show one member of the file whole: its signature, whole doc, what it calls and what calls
    /// it, and its most relevant tests. A qualified label (`Flask.make_response`, `res.json`,
    /// `Sender::send`) or a last segment (`make_response`, `json`, `send`).
    #[arg(long, value_name = "NAME")]
    pub member: Option<String>,
    /// With `--member`: every test found for the member (by default the first 5 lines, then how
    /// many more).
    #[arg(long, requires = "member")]
    pub all: bool,
    /// With `--member`: print the member's source lines as written (comments included), for
    /// "how does it work" when its flow is not enough; costs as many bytes as its code.
    #[arg(long, requires = "member")]
    pub source: bool,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let ws = ctx.workspace()?;
    let source = paths::resolve(&ws.project().root, &ctx.cwd, &args.file)?;
    ensure_file_argument(&source)?;
    if let Some(name) = &args.member {
        let found = lookup_member(
            &ws,
            &source,
            name,
            Asked {
                all_tests: args.all,
                full: args.full,
                source: args.source,
            },
        )?;
        match ctx.format {
            Format::Text => print_text(&found.to_text())?,
            Format::Json => print_json(&found.to_json())?,
        }
        return Ok(Outcome::Ok);
    }
    let found = match args.full {
        true => lookup_full(&ws, &source)?,
        false => lookup_in(&ws, &source)?,
    };
    match ctx.format {
        Format::Text if args.full => print_text(&found.to_full_text())?,
        Format::Text => print_text(&found.to_text())?,
        Format::Json => print_json(&found.to_json())?,
    }
    Ok(Outcome::Ok)
}
