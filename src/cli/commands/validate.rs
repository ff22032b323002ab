//! `lexictl validate`: read-only consistency checks over the library, as text, JSON or GitHub
//! annotations; exit 2 when anything at or above `--severity` is found.

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Outcome, ReportFormat};
use crate::knowledge::validate::{remember, validate, Issue, Report, Severity, CHECKS};

/// Check the library: links, budgets, hashes, references, Child Maps, the Stack, secrets.
///
/// Read-only. Findings are grouped by tier — error (broken references, missing files, malformed
/// files, secrets), warning (stale hashes, budgets, orphan concepts, Child Maps, Stack scores),
/// info (dependency lists not mirrored in Dependents) — each with a stable check id, the file and
/// line, and a hint. Exit 2 when anything at or above --severity is found (CI gate).
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexictl validate\n  lexictl validate --severity error\n  lexictl validate --format github   # annotations in a GitHub Actions log\n  lexictl validate --list-checks"
)]
pub struct Args {
    /// Report findings at or above this tier (and exit 2 if there are any).
    #[arg(long, value_enum, default_value_t = Severity::Warning)]
    pub severity: Severity,
    /// List every check id with its tier, and exit.
    #[arg(long)]
    pub list_checks: bool,
}

pub fn run(ctx: &Context, args: &Args, format: ReportFormat) -> anyhow::Result<Outcome> {
    if args.list_checks {
        let mut out = String::new();
        for (id, severity, what) in CHECKS {
            out.push_str(&format!("{id:<30} {:<8} {what}\n", severity.as_str()));
        }
        print_text(&out)?;
        return Ok(Outcome::Ok);
    }
    let ws = ctx.workspace()?;
    let mut report = validate(&ws);
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

fn text(report: &Report) -> String {
    let mut out = String::new();
    let mut current = None;
    for issue in &report.issues {
        if current != Some(issue.severity) {
            current = Some(issue.severity);
            let title = match issue.severity {
                Severity::Error => "Errors",
                Severity::Warning => "Warnings",
                Severity::Info => "Info",
            };
            if !out.is_empty() {
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
    if !out.is_empty() {
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
