//! `lexictl sweep`: the safety net behind the post-commit hook — one update, only when something
//! changed since the last sweep (the check is in [`crate::engine::sweep`]); with `--watch`, again
//! every interval in the foreground until Ctrl-C (or SIGTERM/SIGHUP), which lets a running update
//! finish and exits 0.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use anyhow::Context as _;

use crate::cli::commands::update::render_text;
use crate::cli::output::{print_json, print_text};
use crate::cli::progress::Bar;
use crate::cli::{report_error, Context, Format, Outcome};
use crate::engine::sweep::{self, format_interval, parse_interval, Check, Reason, SweepReport};
use crate::engine::update::{Silent, UpdateOptions};
use crate::library::footer::now_rfc3339;
use crate::project::Project;
use crate::workspace::Workspace;

/// Run an update, but only if a file changed since the last sweep.
///
/// A sweep catches what the post-commit hook cannot: edits that were never committed, commits made
/// without the hook, a hook that failed. It first stat-walks the project (no file is read or hashed)
/// and compares every mtime with the time the last sweep started; if nothing is newer, it skips.
/// Otherwise it runs a full `lexictl update` and records this sweep's start time. The first sweep
/// in a worktree always runs; so does every sweep when `daemon.sweep_skip_if_unchanged` is false.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lexictl sweep                      update if anything changed since the last sweep
  lexictl sweep --watch              the same, every daemon.sweep_interval_seconds (1h)
  lexictl sweep --watch --interval 10m
  */30 * * * * cd /repo && lexictl sweep      crontab: every 30 minutes

Intervals: 30s, 5m, 60m, 2h, or bare seconds (90).

--watch stops on Ctrl-C (or SIGTERM): a running update finishes first, then it exits 0; a second
Ctrl-C stops at once with exit 130 (each library file is written whole, so nothing is torn).

Exit codes: 0 ran or skipped (or --watch stopped), 1 error.")]
pub struct Args {
    /// Keep sweeping in the foreground, one sweep every --interval, until interrupted. An error
    /// in one sweep is reported and the next sweep tries again.
    #[arg(long)]
    pub watch: bool,
    /// Time between sweeps with --watch: 30s, 5m, 2h or bare seconds. Default: the config's
    /// daemon.sweep_interval_seconds (3600).
    #[arg(long, value_name = "DURATION", requires = "watch", value_parser = parse_interval)]
    pub interval: Option<Duration>,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let ws = ctx.workspace()?;
    if args.watch {
        return watch(ctx, args, ws.project());
    }
    let report = sweep_once(&ws, ctx.format, false)?;
    if ctx.format == Format::Json {
        print_json(&report)?;
    }
    Ok(Outcome::Ok)
}

/// One sweep. In text mode the decision is printed before the update runs (so a long update is
/// explained while it runs) and the update's summary after it.
fn sweep_once(ws: &Workspace, format: Format, watching: bool) -> anyhow::Result<SweepReport> {
    let check = sweep::check(ws)?;
    if format == Format::Text {
        let stamp = if watching {
            format!("[{}] ", now_rfc3339())
        } else {
            String::new()
        };
        print_text(&format!("{stamp}{}\n", decision(&check)))?;
    }
    let bar = Bar::new();
    let update = match &bar {
        Some(bar) => sweep::run(ws, &check, bar)?,
        None => sweep::run(ws, &check, &Silent)?,
    };
    if let Some(update) = &update {
        if format == Format::Text {
            print_text(&render_text(update, &UpdateOptions::default()))?;
        }
        for warning in &update.warnings {
            crate::cli::output::safe_eprintln!("warning: {warning}");
        }
    }
    Ok(SweepReport::new(&check, update))
}

/// The one line that says whether this sweep runs an update, and why.
fn decision(check: &Check) -> String {
    let since = check
        .last
        .as_ref()
        .map(|last| last.started_rfc3339())
        .unwrap_or_default();
    match check.reason {
        Reason::FirstSweep => {
            "lexictl sweep: no sweep has run in this worktree yet — updating".to_string()
        }
        Reason::AlwaysRun => {
            "lexictl sweep: daemon.sweep_skip_if_unchanged is false — updating".to_string()
        }
        Reason::Changed => {
            let first = check.changed.first().map(String::as_str).unwrap_or("");
            let what = match check.changed.len() {
                1 => first.to_string(),
                2 => format!("{first} and 1 more path"),
                n => format!("{first} and {} more paths", n - 1),
            };
            format!("lexictl sweep: {what} changed since the last sweep at {since} — updating")
        }
        Reason::Unchanged => {
            format!("lexictl sweep: nothing changed since the last sweep at {since} — skipped")
        }
    }
}

/// `--watch`: sweep, wait, repeat, until a termination signal arrives.
fn watch(ctx: &Context, args: &Args, project: &Project) -> anyhow::Result<Outcome> {
    let interval = match args.interval {
        Some(interval) => interval,
        None => match project.config.daemon.sweep_interval_seconds {
            0 => anyhow::bail!(
                "daemon.sweep_interval_seconds in .lexibrary/config.yaml is 0 — set it to the seconds between sweeps (default 3600) or pass --interval"
            ),
            seconds => Duration::from_secs(seconds),
        },
    };
    let stop = install_stop_handler()?;
    crate::cli::output::safe_eprintln!(
        "{} sweep --watch: a sweep every {}; Ctrl-C to stop",
        ctx.program,
        format_interval(interval)
    );
    loop {
        stop.busy.store(true, Ordering::SeqCst);
        // The workspace is opened again each time, so an edited config applies to the next sweep.
        let swept = ctx
            .workspace()
            .map_err(anyhow::Error::from)
            .and_then(|ws| sweep_once(&ws, ctx.format, true));
        stop.busy.store(false, Ordering::SeqCst);
        match swept {
            Ok(report) if ctx.format == Format::Json => print_json_line(&report)?,
            Ok(_) => {}
            Err(err) => report_error(&err.context("this sweep failed; the next one tries again")),
        }
        // Returns at once if a stop was requested during the sweep.
        match stop.requested.recv_timeout(interval) {
            Ok(()) => break,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            // The handler owns the sender for the life of the process; this cannot happen.
            Err(mpsc::RecvTimeoutError::Disconnected) => std::thread::sleep(interval),
        }
    }
    crate::cli::output::safe_eprintln!("{} sweep --watch: stopped", ctx.program);
    Ok(Outcome::Ok)
}

/// What the signal handler tells the loop.
struct Stop {
    /// A message per stop request (the first Ctrl-C, SIGTERM or SIGHUP).
    requested: mpsc::Receiver<()>,
    /// Set while a sweep runs, so the handler can say that it waits for it.
    busy: Arc<AtomicBool>,
}

/// Route SIGINT, SIGTERM and SIGHUP to a channel the loop waits on: the first one stops after the
/// current sweep (waking the sleep at once), a second one exits immediately with 130.
fn install_stop_handler() -> anyhow::Result<Stop> {
    let (sender, requested) = mpsc::channel();
    let busy = Arc::new(AtomicBool::new(false));
    let presses = AtomicUsize::new(0);
    let busy_in_handler = Arc::clone(&busy);
    ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) == 0 {
            if busy_in_handler.load(Ordering::SeqCst) {
                crate::cli::output::safe_eprintln!("stopping after this sweep finishes (Ctrl-C again to stop at once)");
            }
            let _ = sender.send(());
        } else {
            crate::cli::output::safe_eprintln!(
                "stopped during a sweep; every library file is whole, and the next update finishes the job"
            );
            std::process::exit(130);
        }
    })
    .context("cannot install the Ctrl-C handler")?;
    Ok(Stop { requested, busy })
}

/// `--watch --format json`: one compact JSON object per sweep and line (JSON Lines).
fn print_json_line(report: &SweepReport) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    serde_json::to_writer(&mut out, report)?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}
