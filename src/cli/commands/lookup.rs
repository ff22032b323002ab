//! `lexi lookup <file>`: print a source file's design file, a staleness warning when the source moved
//! on, and the Local Conventions inherited from every parent directory.

use std::path::PathBuf;

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::lookup::member::lookup_member;
use crate::knowledge::lookup::{ensure_file_argument, lookup_full, lookup_in};
use crate::project::paths;

/// Show the design file of a source file.
///
/// Prints `.lexibrary/<file>.md` without its machine footer, a warning first if the source changed
/// since the design file was written, and then the Local Conventions of every parent directory's
/// `.aindex` (root first). Paths are relative to the current directory.
///
/// After the last `lexictl update`, a `## Tests` section lists the tests that exercise the file,
/// most directly first as `lexi impact` ranks them (by how many imports away, then those named for
/// the file or for one of its public members): the best 10 and how many more, all with `--full`. A
/// Dependents entry that imports the file only for the type checker is marked `(type-only)`.
///
/// After the design file, `## Calls` lists which members of the file call which of its other
/// members (`res.send → json`), and `## Called from` which members of the files importing it, or
/// imported by it, call its public names (`make_response ← src/flask/helpers.py (make_response)`),
/// as the last `lexictl update` found them, matched by name.
///
/// Long sections are trimmed, never dropped: a Dependents, Dependencies or Tests list of more than
/// 20 files becomes its count by directory (`lexi impact` lists dependents), and a long Interface
/// Contract keeps its public items first, then says how many more there are.
///
/// A design file itself holds only what fits its budget (`token_budgets.design_file_tokens`): a
/// longer list ends `… and N more`, a longer contract `// … and N more lines: read <file>`. Such a
/// cut contract is shown rendered again from the source (when it is unchanged) within the lookup's
/// larger budget, most important lines first.
/// `--full` prints every section whole: nothing trimmed (Calls and Called from included), capped lists replaced by the whole lists
/// of the last `lexictl update`'s dependency graph, and a cut contract rendered again from the
/// source (only when the source is unchanged since the design file was written; otherwise the
/// stored contract stays under the staleness warning). `--format json` gives the sections as the
/// design file stores them (never trimmed, but capped where the design file is); with `--full`,
/// made whole as in the text, and `expanded` names the sections that were.
///
/// `--member <name>` prints one member instead of the design file: its signature under the headers
/// it sits in, its whole doc (code examples left out), the file's members it calls and that call
/// it, the members of neighbouring files calling it, what it raises or throws (`Raises:`), the
/// members of the file sharing its callees and keys (`Related:`), and the best 8 tests — those whose
/// test functions call it by name first (`tests/test_basic.py: test_make_response, …`) — then the
/// tests reaching it indirectly (its delegate's, named for it, calling its callers). A name matches
/// a label (`Flask.make_response`, `res.json`, `Sender::send`) or its last segment (`send`; every
/// match is shown); an unknown name is an error listing the closest members.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi lookup src/auth/login.py\n  lexi lookup ../lib.rs --format json\n  lexi lookup --full src/flask/app.py\n  lexi lookup src/flask/app.py --member make_response\n  lexi lookup lib/response.js --member res.json"
)]
pub struct Args {
    /// The source file (not its design file), relative to the current directory.
    pub file: PathBuf,
    /// Print every section whole: no list summarised, capped lists from the dependency graph, a cut
    /// Interface Contract from the source.
    #[arg(long, conflicts_with = "member")]
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
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let ws = ctx.workspace()?;
    let source = paths::resolve(&ws.project().root, &ctx.cwd, &args.file)?;
    ensure_file_argument(&source)?;
    if let Some(name) = &args.member {
        let found = lookup_member(&ws, &source, name, args.all)?;
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
