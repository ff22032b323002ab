//! `lexictl update`: bring the library up to date with the code — design files, `.aindex` files and
//! `START_HERE.md` — with the configured Archivist (structural, or an LLM provider). Agents never
//! need to run it.

use std::io::Read;
use std::path::PathBuf;

use anyhow::Context as _;

use crate::cli::output::{print_json, print_text};
use crate::cli::progress::{Bar, Shown, Timings};
use crate::cli::{Context, Format, Outcome};
use crate::engine::update::{self, LlmEstimate, PlanAction, UpdateOptions, UpdateReport};
use crate::project::paths;

/// Generate and refresh design files, directory indexes and START_HERE.md.
///
/// Without arguments, looks at every file in scope; the stat/hash cache (kept under the git
/// directory) makes unchanged files cost two `stat` calls. Design files that an agent or a human
/// edited are never overwritten: only their footer hashes are refreshed.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lexictl update                     everything in scope
  lexictl update src/auth            one directory (or file)
  lexictl update --changed-only      what changed since the last update, plus dirty files (git)
  git diff -z --name-only | lexictl update --changed-only -z
  lexictl update --check             exit 2 if anything is stale (strict CI gate), write nothing
  lexictl update --offline           never ask a model (the PR gate's catch-up, docs/ci.md)
  lexictl update --dry-run           the plan; with an LLM provider, the requests and input tokens
  lexictl update --verbose src/a.rs  also the imports of src/a.rs that name no project file
  lexictl update --timings           how long each phase took (stderr)

Exit codes: 0 done (or nothing stale), 1 error (or some files failed), 2 stale (with --check).")]
pub struct Args {
    /// Files or directories to update, relative to the current directory.
    pub paths: Vec<PathBuf>,
    /// Only what changed: the given paths, or (with none) everything since the last processed commit
    /// plus uncommitted changes.
    #[arg(long)]
    pub changed_only: bool,
    /// Read more paths from stdin, NUL-separated (as `git diff -z --name-only` prints them).
    #[arg(short = 'z', long = "null")]
    pub null: bool,
    /// Print the plan (each file's change level) and write nothing. With an LLM provider, also
    /// the files a model would be asked about and an estimate of the input tokens.
    #[arg(long, conflicts_with = "check")]
    pub dry_run: bool,
    /// Write nothing; exit 2 if any design file, index or START_HERE.md is stale.
    #[arg(long)]
    pub check: bool,
    /// Only regenerate START_HERE.md.
    #[arg(long, conflicts_with_all = ["paths", "changed_only"])]
    pub start_here: bool,
    /// Also list, per file read, the imports that name no project file (external packages, the
    /// standard library, typos) — to see why a dependency edge is missing.
    #[arg(short, long)]
    pub verbose: bool,
    /// Stop without writing (more) when a rebase, cherry-pick, `git am`, merge or bisect is in
    /// progress; what the hook worker runs.
    #[arg(long, hide = true)]
    pub yield_to_git: bool,
    /// Never ask a model, whatever `llm.provider` says: the structural Archivist writes every file
    /// (no key needed, nothing leaves the machine). For CI's PR gate (docs/ci.md), which catches up
    /// what the branch's library lags behind before `lexictl validate` judges it.
    #[arg(long)]
    pub offline: bool,
    /// Print how long each phase of the run took (planning, scanning, writing, indexing, …) to
    /// stderr when it is over.
    #[arg(long)]
    pub timings: bool,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let ws = ctx.workspace()?;
    let project = ws.project();
    let mut raw: Vec<PathBuf> = args.paths.clone();
    if args.null {
        let mut input = Vec::new();
        std::io::stdin()
            .read_to_end(&mut input)
            .context("cannot read paths from stdin")?;
        for part in input
            .split(|byte| *byte == 0)
            .filter(|part| !part.is_empty())
        {
            let text = String::from_utf8(part.to_vec())
                .map_err(|_| anyhow::anyhow!("a path on stdin is not valid UTF-8"))?;
            raw.push(PathBuf::from(text));
        }
    }
    let mut resolved = Vec::new();
    for path in &raw {
        resolved.push(paths::resolve(&project.root, &ctx.cwd, path)?);
    }
    let options = UpdateOptions {
        paths: resolved,
        changed_only: args.changed_only,
        dry_run: args.dry_run,
        check: args.check,
        start_here_only: args.start_here,
        verbose: args.verbose,
        yield_to_git: args.yield_to_git,
        offline: args.offline,
    };
    let bar = Bar::new();
    let timings = args.timings.then(Timings::new);
    let shown = Shown {
        bar: bar.as_ref(),
        timings: timings.as_ref(),
    };
    let report = update::run(&ws, &options, &shown)?;
    if let Some(timings) = &timings {
        crate::cli::output::safe_eprint!("{}", timings.lines(std::time::Instant::now()));
    }
    match ctx.format {
        Format::Text => print_text(&render_text(&report, &options))?,
        Format::Json => print_json(&report)?,
    }
    for warning in &report.warnings {
        crate::cli::output::safe_eprintln!("warning: {warning}");
    }
    if !report.failed.is_empty() {
        crate::cli::output::safe_eprint!("{}", failure_summary(&report));
        return Ok(Outcome::Failed);
    }
    Ok(if args.check && report.stale {
        Outcome::Findings
    } else {
        Outcome::Ok
    })
}

/// Items listed in the text summary before it says "… and N more".
const LISTED_ITEMS: usize = 50;

/// The text summary of an update (also what `lexictl sweep` prints after it ran one).
pub(crate) fn render_text(report: &UpdateReport, options: &UpdateOptions) -> String {
    let debris = debris_line(report, options);
    if report.up_to_date {
        let mut out = format!(
            "{debris}lexictl update ({}): up to date — HEAD, working tree and config are as the last update left them\n",
            report.mode
        );
        out.push_str(&contradictions(report, options));
        return out;
    }
    if let Some(operation) = report.yielded_to {
        return format!(
            "lexictl update ({}): stopped, {} is in progress; the hook updates once it is over\n",
            report.mode,
            operation.describe()
        );
    }
    // A dry run lists everything: it is the plan.
    let limit = if options.dry_run {
        usize::MAX
    } else {
        LISTED_ITEMS
    };
    let mut out = debris;
    out.push_str(&counts_line(report, options));
    out.push_str(&items(report, limit));
    out.push_str(&written_line(report, options));
    if let Some(estimate) = &report.llm_estimate {
        out.push_str(&estimate_lines(estimate, limit));
    }
    out.push_str(&unresolved_lines(report));
    out.push_str(&contradictions(report, options));
    if options.check {
        out.push_str(if report.anything_stale() {
            "stale: run `lexictl update` and commit the library\n"
        } else if report.stale {
            ""
        } else {
            "the library is current\n"
        });
    }
    out
}

/// `removed 2 temporary files left by an interrupted write: …` (`would remove` with `--check`;
/// nothing when there were none).
fn debris_line(report: &UpdateReport, options: &UpdateOptions) -> String {
    let verb = if options.writes() {
        "removed"
    } else {
        "would remove"
    };
    let mut out = match report.debris_removed.len() {
        0 => String::new(),
        n => format!(
            "{verb} {n} temporary file{} left by an interrupted write: {}\n",
            if n == 1 { "" } else { "s" },
            report.debris_removed.join(", ")
        ),
    };
    if !report.pack_debris_removed.is_empty() {
        out.push_str(&format!(
            "removed the temporary pack an interrupted provenance write left in the git directory: {}\n",
            report.pack_debris_removed.join(", ")
        ));
    }
    out
}

/// With `--verbose`: each file read and the imports that named no project file.
fn unresolved_lines(report: &UpdateReport) -> String {
    if report.unresolved.is_empty() {
        return String::new();
    }
    let mut out = String::from(
        "imports that name no project file (external, standard library, or unresolved):\n",
    );
    for (file, specs) in &report.unresolved {
        out.push_str(&format!("  {file}: {}\n", specs.join(", ")));
    }
    out
}

/// With `--check`: each agent's design file whose Interface Contract the code left behind, which
/// no update fixes.
fn contradictions(report: &UpdateReport, options: &UpdateOptions) -> String {
    if !options.check || report.contradictions.is_empty() {
        return String::new();
    }
    let mut out = String::new();
    for drift in &report.contradictions {
        out.push_str(&format!(
            "  {:<17} {}: {}\n",
            "STALE_CONTRACT",
            drift.design_file,
            drift.message()
        ));
    }
    out.push_str(&format!(
        "contradicts the code: {} design file{} written by agents; {}\n",
        report.contradictions.len(),
        if report.contradictions.len() == 1 { "" } else { "s" },
        "edit each Interface Contract to match its source (an update cannot: agents' text is never overwritten)"
    ));
    out
}

/// `lexictl update (mode): 3 new, 1 content only` — how many files were at each change level.
fn counts_line(report: &UpdateReport, options: &UpdateOptions) -> String {
    let counts: Vec<String> = report
        .counts
        .iter()
        .map(|(level, n)| format!("{n} {}", level.to_lowercase().replace('_', " ")))
        .collect();
    let verb = if options.check {
        "check"
    } else if options.dry_run {
        "plan"
    } else {
        "update"
    };
    let counted = if counts.is_empty() {
        "no files".to_string()
    } else {
        counts.join(", ")
    };
    format!("lexictl {verb} ({}): {counted}\n", report.mode)
}

/// One line per file (at most `limit`) with its change level, then the files whose Dependents
/// were refreshed.
fn items(report: &UpdateReport, limit: usize) -> String {
    let mut out = String::new();
    for item in report.items.iter().take(limit) {
        let failed = if item.action == PlanAction::Failed {
            " (failed)"
        } else {
            ""
        };
        let from = match &item.from {
            Some(from) => format!(" (from {from})"),
            None => String::new(),
        };
        out.push_str(&format!(
            "  {:<17} {}{from}{failed}\n",
            item.level.label(),
            item.source
        ));
    }
    out.push_str(&more(report.items.len(), limit));
    for source in report.dependents_refreshed.iter().take(limit) {
        out.push_str(&format!("  {:<17} {source}\n", "DEPENDENTS"));
    }
    out
}

/// `  … and N more` when `total` is over `limit`.
fn more(total: usize, limit: usize) -> String {
    if total > limit {
        format!("  … and {} more (--format json lists all)\n", total - limit)
    } else {
        String::new()
    }
}

/// `wrote 2 design files, removed 0, 1 .aindex, START_HERE.md updated`.
fn written_line(report: &UpdateReport, options: &UpdateOptions) -> String {
    let written = if options.check || options.dry_run {
        "would write"
    } else {
        "wrote"
    };
    format!(
        "{written} {} design file{}, removed {}, {} .aindex, START_HERE.md {}\n",
        report.design_files_written,
        if report.design_files_written == 1 {
            ""
        } else {
            "s"
        },
        report.design_files_removed,
        report.aindex_written.len(),
        if report.start_here_written {
            "updated"
        } else {
            "unchanged"
        },
    )
}

/// What an LLM provider would be asked: the total, then the input tokens of each request.
fn estimate_lines(estimate: &LlmEstimate, limit: usize) -> String {
    let mut out = format!(
        "{} ({}) would be asked about {} file{}, about {} input tokens (cl100k estimate):\n",
        estimate.provider,
        estimate.model,
        estimate.requests.len(),
        if estimate.requests.len() == 1 {
            ""
        } else {
            "s"
        },
        estimate.input_tokens
    );
    for request in estimate.requests.iter().take(limit) {
        out.push_str(&format!(
            "  {:>8} {}\n",
            request.input_tokens, request.source
        ));
    }
    out.push_str(&more(estimate.requests.len(), limit));
    out
}

/// `N written, M failed:` and one `path: reason` line per failure (stderr).
fn failure_summary(report: &UpdateReport) -> String {
    let mut out = format!(
        "error: {} written, {} failed:\n",
        report.design_files_written,
        report.failed.len()
    );
    for failed in &report.failed {
        out.push_str(&format!("  {}: {}\n", failed.source, failed.reason));
    }
    out.push_str(
        "hint: everything else was written (indexes and START_HERE.md included); the failed files keep what they had, and the next `lexictl update` retries them once the cause is fixed\n",
    );
    out
}
