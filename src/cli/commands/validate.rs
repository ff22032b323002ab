//! `lexictl validate`: read-only consistency checks over the library, as text, JSON or GitHub
//! annotations; exit 2 when anything at or above `--severity` is found.

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Outcome, ReportFormat};
use crate::engine::update::{self, Silent, UpdateOptions};
use crate::engine::{repair, votes};
use crate::knowledge::validate::fix::{fixable, fixes, Fixes};
use crate::knowledge::validate::{remember, validate, Issue, Report, Severity, CHECKS};
use crate::workspace::Workspace;

/// Check the library: links, budgets, hashes, references, Child Maps, the Stack, secrets, and
/// agents' Interface Contracts against the code.
///
/// Read-only unless --fix. Findings are grouped by tier — error (broken references, missing
/// files, malformed files, secrets, contracts the code left behind), warning (stale hashes,
/// budgets, orphan concepts, Child Maps, Stack scores), info (dependency lists not mirrored in
/// Dependents, vote counts the notes here cannot confirm, unrecorded provenance) — each with a
/// stable check id, the file and line, and a hint. Exit 2 when anything at or above --severity is
/// found (CI gate).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexictl validate\n  lexictl validate --severity error\n  lexictl validate --fix             # repair what the tool can, then report the rest\n  lexictl validate --format github   # annotations in a GitHub Actions log\n  lexictl validate --list-checks"
)]
pub struct Args {
    /// Report findings at or above this tier (and exit 2 if there are any).
    #[arg(long, value_enum, default_value_t = Severity::Warning)]
    pub severity: Severity,
    /// List every check id with its tier and what it finds, and exit (`--format json`: an array of
    /// `{id, severity, description}`).
    #[arg(long)]
    pub list_checks: bool,
    /// First repair what the tool can repair itself, at any tier, then report what is left: stale
    /// footer hashes and the Archivist's own sections (`lexictl update <source>`), Child Maps,
    /// Dependents gaps, vote counts from a complete history, missing provenance. Never touches
    /// what an agent or a human wrote (a contract the code left behind stays for the agent).
    #[arg(long)]
    pub fix: bool,
    #[command(flatten)]
    pub output: crate::cli::ReportFormatArg,
}

/// `--list-checks`: every check id with its tier and description, as a table or a JSON array.
fn list_checks(format: ReportFormat) -> anyhow::Result<()> {
    if format == ReportFormat::Json {
        let checks: Vec<_> = CHECKS
            .iter()
            .map(|(id, severity, what)| {
                serde_json::json!({"id": id, "severity": severity.as_str(), "description": what})
            })
            .collect();
        return print_json(&checks);
    }
    let mut out = String::new();
    for (id, severity, what) in CHECKS {
        out.push_str(&format!("{id:<30} {:<8} {what}\n", severity.as_str()));
    }
    print_text(&out)
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let format = args.output.format;
    if args.list_checks {
        list_checks(format)?;
        return Ok(Outcome::Ok);
    }
    let mut ws = ctx.workspace()?;
    // A repository that cannot be read is an error, never a library checked as if outside git.
    ws.discovered_repo()?;
    let mut report = validate(&ws);
    if args.fix {
        let wanted = fixes(&report.issues);
        if !wanted.is_empty() {
            let fixed = apply(&ws, &wanted)?;
            // Open the workspace again: the repairs moved the state and maybe HEAD's notes.
            ws = ctx.workspace()?;
            let before = report;
            report = validate(&ws);
            report.fixed = fixed;
            report.fixed.extend(repaired(&before, &report));
        }
    }
    remember(&ws, &report);
    report
        .issues
        .retain(|issue| issue.severity >= args.severity);
    match format {
        ReportFormat::Json => print_json(&report)?,
        ReportFormat::Github => print_text(&github(&report.issues))?,
        ReportFormat::Text => print_text(&text(&report))?,
    }
    Ok(if report.issues.is_empty() {
        Outcome::Ok
    } else {
        Outcome::Findings
    })
}

/// Make the repairs; one line per thing done.
fn apply(ws: &Workspace, wanted: &Fixes) -> anyhow::Result<Vec<String>> {
    let mut done = Vec::new();
    if !wanted.update.is_empty() {
        let options = UpdateOptions {
            paths: wanted.update.clone(),
            ..UpdateOptions::default()
        };
        let report = update::run(ws, &options, &Silent)?;
        done.push(format!(
            "lexictl update {}: {} design files written",
            wanted.update.join(" "),
            report.design_files_written
        ));
    }
    for (source, dependents) in &wanted.dependents {
        if repair::add_dependents(ws, source, dependents)? {
            done.push(format!(
                "{}: Dependents now list {}",
                crate::project::mirror::design_path(source),
                dependents.join(", ")
            ));
        }
    }
    if let (true, Some(git)) = (wanted.votes, ws.repo_if_any()) {
        for reconciled in votes::reconcile(ws.project(), git)? {
            done.push(format!("{}: {}", reconciled.file, reconciled.describe()));
        }
    }
    if !wanted.provenance.is_empty() {
        let recorded = repair::record_provenance(ws, &wanted.provenance)?;
        done.push(format!(
            "provenance recorded from the footer for {recorded} design files"
        ));
    }
    Ok(done)
}

/// The fixable findings of `before` that `after` no longer has: `fixed [check] file`.
fn repaired(before: &Report, after: &Report) -> Vec<String> {
    before
        .issues
        .iter()
        .filter(|issue| fixable(issue.check))
        .filter(|issue| {
            !after
                .issues
                .iter()
                .any(|now| now.check == issue.check && now.file == issue.file)
        })
        .map(|issue| format!("fixed [{}] {}", issue.check, issue.file))
        .collect()
}

fn text(report: &Report) -> String {
    let mut fixed = String::new();
    for line in &report.fixed {
        fixed.push_str(&format!("{line}\n"));
    }
    if !fixed.is_empty() {
        fixed.push('\n');
    }
    let mut out = fixed;
    let fixed_len = out.len();
    let mut current = None;
    for issue in &report.issues {
        if current != Some(issue.severity) {
            current = Some(issue.severity);
            let title = match issue.severity {
                Severity::Error => "Errors",
                Severity::Warning => "Warnings",
                Severity::Info => "Info",
            };
            if out.len() > fixed_len {
                out.push('\n');
            }
            out.push_str(&format!("{title}\n"));
        }
        let at = match issue.line {
            Some(line) => format!("{}:{line}", issue.file),
            None => issue.file.clone(),
        };
        out.push_str(&format!(
            "  {at}: [{}] {}\n    hint: {}\n",
            issue.check, issue.message, issue.hint
        ));
    }
    let counts = report.counts();
    let count = |severity| counts.get(&severity).copied().unwrap_or(0);
    let checked: Vec<String> = report
        .checked
        .iter()
        .map(|(kind, n)| format!("{n} {}", kind.replace('_', " ")))
        .collect();
    if out.len() > fixed_len {
        out.push('\n');
    }
    out.push_str(&format!(
        "lexictl validate: {} errors, {} warnings, {} info ({} checked)\n",
        count(Severity::Error),
        count(Severity::Warning),
        count(Severity::Info),
        checked.join(", ")
    ));
    out
}

/// GitHub workflow commands: `::error file=…,line=…,title=…::message`.
fn github(issues: &[Issue]) -> String {
    let escape = |text: &str| {
        text.replace('%', "%25")
            .replace('\r', "%0D")
            .replace('\n', "%0A")
    };
    let property = |text: &str| escape(text).replace(':', "%3A").replace(',', "%2C");
    issues
        .iter()
        .map(|issue| {
            let level = match issue.severity {
                Severity::Error => "error",
                Severity::Warning => "warning",
                Severity::Info => "notice",
            };
            let line = issue
                .line
                .map(|line| format!(",line={line}"))
                .unwrap_or_default();
            format!(
                "::{level} file={}{line},title={}::{} (hint: {})\n",
                property(&issue.file),
                property(&format!("lexibrarian {}", issue.check)),
                escape(&issue.message),
                escape(&issue.hint)
            )
        })
        .collect()
}
