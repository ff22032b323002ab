//! `lexictl sweep`: the periodic safety net (seed §7, D-066) — one full update, but only when a file
//! changed since the last sweep.
//!
//! The check is a stat walk, no hashing and no reads: the same walk an update does (every file
//! through the ignore layers, plus each directory's mtime so that a deletion or a rename counts),
//! compared with the moment the last successful sweep *started*, so an edit made while that sweep
//! ran is seen by the next one. `.lexibrary/` itself (minus the gitignored `.cache/` and `.iwh`
//! notes) is compared with the moment the last sweep *finished*, so the update's own writes do not
//! trigger the next sweep while an agent's later edit to a design file, concept or Stack post does.
//! Both times live in the per-worktree state file ([`SweepRecord`]) and are written
//! only after the update succeeded; a failed sweep is retried by the next one.
//!
//! Also here: the `--interval` syntax (`30s`, `5m`, `2h`, bare seconds).

use std::path::Path;
use std::time::{Duration, SystemTime};

use anyhow::Context as _;

use super::update::{self, Progress, UpdateOptions, UpdateReport};
use crate::library::footer::rfc3339_from_unix;
use crate::project::walk::{self, EntryKind};
use crate::project::{Project, LIBRARY_DIR};
use crate::workspace::library::{self, Kind, Part};
use crate::workspace::state::{StateDir, SweepRecord};
use crate::workspace::Workspace;

/// Why a sweep runs an update, or why not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// No sweep has succeeded in this worktree yet.
    FirstSweep,
    /// Some file is newer than the last sweep.
    Changed,
    /// `daemon.sweep_skip_if_unchanged: false`: every sweep runs.
    AlwaysRun,
    /// Nothing is newer than the last sweep: skipped.
    Unchanged,
}

/// What the stat walk decided, before any update ran.
#[derive(Clone, Debug)]
pub struct Check {
    pub reason: Reason,
    /// Paths newer than the last sweep (project-relative, sorted); empty unless `Changed`.
    pub changed: Vec<String>,
    pub last: Option<SweepRecord>,
    started_ns: i128,
    state: StateDir,
}

impl Check {
    pub fn runs(&self) -> bool {
        self.reason != Reason::Unchanged
    }
}

/// What one sweep did, as `--format json` prints it.
#[derive(Clone, Debug, serde::Serialize)]
pub struct SweepReport {
    /// Whether an update ran.
    pub ran: bool,
    pub reason: Reason,
    /// How many paths were newer than the last sweep (0 unless `reason` is `changed`).
    pub changed_count: usize,
    /// The first of them, by path.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub first_changed: Option<String>,
    /// When the previous successful sweep started (RFC 3339 UTC), if one did.
    pub last_sweep: Option<String>,
    /// When this sweep started.
    pub started: String,
    /// The update's report, when one ran.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub update: Option<UpdateReport>,
}

impl SweepReport {
    pub fn new(check: &Check, update: Option<UpdateReport>) -> SweepReport {
        SweepReport {
            ran: update.is_some(),
            reason: check.reason,
            changed_count: check.changed.len(),
            first_changed: check.changed.first().cloned(),
            last_sweep: check.last.as_ref().map(SweepRecord::started_rfc3339),
            started: rfc3339_from_unix(
                u64::try_from(check.started_ns / 1_000_000_000).unwrap_or(0),
            ),
            update,
        }
    }
}

/// Decide whether a sweep of `project` should run: read the last sweep's times and stat-walk the
/// project. Writes nothing.
pub fn check(ws: &Workspace) -> anyhow::Result<Check> {
    let started_ns = now_ns();
    let project = ws.project();
    ws.repo()?;
    let state = ws.state().clone();
    let last = state.read().sweep;
    let (reason, changed) = match &last {
        _ if !project.config.daemon.sweep_skip_if_unchanged => (Reason::AlwaysRun, Vec::new()),
        None => (Reason::FirstSweep, Vec::new()),
        Some(last) => {
            let changed = changed_since(project, last);
            if changed.is_empty() {
                (Reason::Unchanged, changed)
            } else {
                (Reason::Changed, changed)
            }
        }
    };
    Ok(Check {
        reason,
        changed,
        last,
        started_ns,
        state,
    })
}

/// Run the update a [`check`] asked for (a full update, the same as `lexictl update`) and record
/// the sweep. Returns `None` when the check said to skip; then nothing is written but a log line.
/// While git is in the middle of an operation the update stops at once and the sweep is not
/// recorded (the report's `yielded_to` says why).
pub fn run(
    ws: &Workspace,
    check: &Check,
    progress: &dyn Progress,
) -> anyhow::Result<Option<UpdateReport>> {
    if !check.runs() {
        let since = check
            .last
            .as_ref()
            .map(SweepRecord::started_rfc3339)
            .unwrap_or_default();
        check
            .state
            .log(&format!("sweep: nothing changed since {since}; skipped"));
        return Ok(None);
    }
    // Like the hook, a sweep never writes the library in the middle of a rebase, cherry-pick, `am`,
    // merge or bisect: it stops, unrecorded, and the next sweep runs it.
    let options = UpdateOptions {
        yield_to_git: true,
        ..UpdateOptions::default()
    };
    let report = update::run(ws, &options, progress)?;
    if report.yielded_to.is_some() {
        return Ok(Some(report));
    }
    let record = SweepRecord {
        started_ns: check.started_ns,
        finished_ns: now_ns(),
    };
    check
        .state
        .edit(|state| state.sweep = Some(record))
        .with_context(|| {
            format!(
                "the update succeeded but the sweep time could not be recorded in {}",
                check.state.state_path().display()
            )
        })?;
    Ok(Some(report))
}

/// Every path newer than `last`: files and directories of the source tree (through the ignore
/// layers) against its start, `.lexibrary/` against its end. Sorted.
pub fn changed_since(project: &Project, last: &SweepRecord) -> Vec<String> {
    let mut changed = Vec::new();
    if mtime_ns(&project.root).is_some_and(|mtime| mtime > last.started_ns) {
        changed.push(".".to_string());
    }
    for entry in walk::walk_project(&project.root, &project.config).entries {
        let mtime = match entry.kind {
            EntryKind::File => entry.mtime_ns,
            // The walk does not stat directories; a deletion or rename shows only there.
            EntryKind::Dir => mtime_ns(&project.abs(&entry.rel)).unwrap_or(0),
        };
        if mtime > last.started_ns {
            changed.push(entry.rel);
        }
    }
    library_changes(project, last.finished_ns, &mut changed);
    changed.sort();
    changed
}

/// Entries under `.lexibrary/` newer than `since` (`.lexibrary/…`, directories with a trailing `/`),
/// skipping the derived `.cache/` and the ephemeral `.iwh` notes.
fn library_changes(project: &Project, since: i128, out: &mut Vec<String>) {
    let library = project.library_dir();
    let listing = library::walk(&library, Part::ALL);
    let dirs = std::iter::once(String::new()).chain(listing.dirs);
    for dir in dirs {
        if mtime_ns(&library.join(&dir)).is_some_and(|mtime| mtime > since) {
            out.push(library_path(&dir) + "/");
        }
    }
    for file in listing.files {
        if !matches!(file.kind, Kind::Iwh { .. }) && file.stat.mtime_ns > since {
            out.push(library_path(&file.rel));
        }
    }
}

/// `.lexibrary/<rel>` (`.lexibrary` for `""`).
fn library_path(rel: &str) -> String {
    if rel.is_empty() {
        LIBRARY_DIR.to_string()
    } else {
        format!("{LIBRARY_DIR}/{rel}")
    }
}

fn mtime_ns(path: &Path) -> Option<i128> {
    let modified = std::fs::symlink_metadata(path).ok()?.modified().ok()?;
    Some(
        modified
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos() as i128),
    )
}

fn now_ns() -> i128 {
    SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos() as i128)
}

/// Parse a sweep interval: a positive whole number of seconds, optionally followed by `s`, `m` or
/// `h` (`90`, `30s`, `5m`, `60m`, `2h`).
pub fn parse_interval(text: &str) -> Result<Duration, String> {
    const EXPECTED: &str =
        "expected a whole number of seconds, or a number followed by s, m or h (30s, 5m, 2h)";
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(trimmed.len());
    let (digits, unit) = trimmed.split_at(split);
    let multiplier: u64 = match unit {
        "" | "s" => 1,
        "m" => 60,
        "h" => 3600,
        _ => return Err(format!("`{text}` is not an interval: {EXPECTED}")),
    };
    if digits.is_empty() {
        return Err(format!("`{text}` is not an interval: {EXPECTED}"));
    }
    let seconds = digits
        .parse::<u64>()
        .ok()
        .and_then(|n| n.checked_mul(multiplier))
        .ok_or_else(|| format!("`{text}` is too long an interval"))?;
    if seconds == 0 {
        return Err("the interval must be longer than 0 seconds".to_string());
    }
    Ok(Duration::from_secs(seconds))
}

/// An interval the way [`parse_interval`] reads it back: `2h`, `5m`, `90s`.
pub fn format_interval(interval: Duration) -> String {
    let seconds = interval.as_secs();
    if seconds > 0 && seconds.is_multiple_of(3600) {
        format!("{}h", seconds / 3600)
    } else if seconds > 0 && seconds.is_multiple_of(60) {
        format!("{}m", seconds / 60)
    } else {
        format!("{seconds}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_parse_with_units_and_bare_seconds() {
        assert_eq!(parse_interval("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse_interval("5m"), Ok(Duration::from_secs(300)));
        assert_eq!(parse_interval("60m"), Ok(Duration::from_secs(3600)));
        assert_eq!(parse_interval("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_interval("90"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_interval(" 7m "), Ok(Duration::from_secs(420)));
    }

    #[test]
    fn bad_intervals_are_rejected_with_the_syntax() {
        for bad in [
            "", "0", "0h", "m", "5x", "1.5h", "-5m", "5 m", "1h30m", "abc",
        ] {
            let err = parse_interval(bad).expect_err(bad);
            assert!(
                err.contains("30s, 5m, 2h") || err.contains("longer than 0"),
                "{bad}: {err}"
            );
        }
        assert!(parse_interval("99999999999999999999h").is_err());
        assert!(parse_interval("18446744073709551615h").is_err());
    }

    #[test]
    fn intervals_format_back_to_their_shortest_unit() {
        for text in ["2h", "5m", "90s", "1s"] {
            let parsed = parse_interval(text).expect(text);
            assert_eq!(format_interval(parsed), text);
        }
        assert_eq!(format_interval(Duration::from_secs(3600)), "1h");
    }
}
