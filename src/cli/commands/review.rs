//! `lexictl review [<range>]`: what a branch did to the library and what it should have done,
//! rendered from [`crate::knowledge::review::Review`] as markdown for a pull-request comment (the
//! default), JSON, or GitHub Actions annotations (`--format github`).
//!
//! The markdown stays under GitHub's comment size limit: diffs are capped per file by the review and,
//! past [`COMMENT_BUDGET`] characters, left out with a note.

use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Outcome, ReportFormat};
use crate::knowledge::review::{
    describe_interface_change, review, ChangeKind, ConceptChange, DesignChange, Diff, Finding,
    FindingKind, PostChange, Provenance, Review,
};
use crate::library::design_file::UpdatedBy;
use crate::library::events::StackEventKind;
use crate::source::Symbol;

/// Characters of markdown after which diffs are left out (GitHub refuses comments over 65,536).
const COMMENT_BUDGET: usize = 60_000;
/// Symbols listed per interface change before "… N more".
const MAX_SYMBOLS: usize = 8;

/// Report what a range of commits did to the library: for a pull-request comment or CI.
///
/// Lists design files added, changed and removed with a diff of their meaningful part (frontmatter
/// and body; a change to the machine footer alone shows as "footer only"), source files whose public
/// interface changed without a design update, new source files without a design file, concept and
/// Stack changes (new posts, accepted answers, votes from the notes) and who wrote each changed design
/// file (the Archivist, from the provenance notes, or an agent or human). Only commits are compared;
/// uncommitted changes are not included. Always exits 0 when it could review: the gates are
/// `lexictl validate` and `lexictl update --check`.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Ranges:
  A..B     compare commit A with commit B (like `git diff A..B`)
  A...B    compare the merge base of A and B with B (like `git diff A...B`; what a pull request shows)
  REV      same as REV...HEAD
  (none)   @{upstream}...HEAD; without an upstream, the first of origin/HEAD, origin/main,
           origin/master, main, master

Examples:
  lexictl review                               this branch against its upstream
  lexictl review origin/main                   what a pull request into main would show
  lexictl review main..HEAD --format json
  lexictl review origin/main --format github   annotations in a GitHub Actions step")]
pub struct Args {
    /// `A..B`, `A...B` or one revision `REV` (= `REV...HEAD`); default: the merge base of the
    /// branch's upstream and HEAD.
    pub range: Option<String>,
    #[command(flatten)]
    pub output: crate::cli::ReportFormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let format = args.output.format;
    let ws = ctx.workspace()?;
    let found = review(&ws, args.range.as_deref())?;
    match format {
        ReportFormat::Json => print_json(&found)?,
        ReportFormat::Text => print_text(&markdown(&found))?,
        ReportFormat::Github => print_text(&github(&found))?,
    }
    Ok(Outcome::Ok)
}

/// The review as GitHub-flavoured markdown.
pub fn markdown(review: &Review) -> String {
    let mut out = String::new();
    out.push_str("## Lexibrarian review\n\n");
    out.push_str(&format!("**{}**\n\n", escape(&review.summary.line)));
    out.push_str(&range_line(review));
    if !review.findings.is_empty() {
        out.push_str("\n### ⚠️ Warnings\n\n");
        for finding in &review.findings {
            out.push_str(&finding_item(finding));
        }
    }
    if !review.design_files.is_empty() {
        design_section(&mut out, review);
    }
    if !review.concepts.is_empty() {
        concept_section(&mut out, &review.concepts);
    }
    if !review.stack.is_empty() {
        out.push_str("\n### Stack\n\n");
        for post in &review.stack {
            out.push_str(&post_item(post));
        }
        if !review.notes.stack {
            out.push_str("\n_No Stack notes in this clone, so vote history is not shown: fetch it with `lexictl notes sync`._\n");
        }
    }
    if !review.library_files.is_empty() {
        out.push_str("\n### Other library files\n\n");
        for file in &review.library_files {
            let from = file
                .from
                .as_deref()
                .map(|from| format!(" from {}", code(from)))
                .unwrap_or_default();
            let link = file
                .symlink_to
                .as_deref()
                .map(|target| format!(" — **a symbolic link** to {}", code(target)))
                .unwrap_or_default();
            out.push_str(&format!(
                "- {} {}{from}{link}\n",
                code(&file.path),
                file.change.as_str()
            ));
        }
    }
    out
}

/// `` `main...HEAD`: `abc` → `def` (3 commits, from the merge base) ``.
fn range_line(review: &Review) -> String {
    format!(
        "{}: {} → {} ({}{})\n",
        code(&review.range),
        code(&review.base.commit.short()),
        code(&review.head.commit.short()),
        plural(review.commits, "commit", "commits"),
        if review.merge_base {
            ", from the merge base"
        } else {
            ""
        }
    )
}

/// The design files: a table of who wrote what, then the diffs while the comment has room, the
/// files that do not parse, and what is missing to say more.
fn design_section(out: &mut String, review: &Review) {
    out.push_str("\n### Design files\n\n");
    out.push_str("| Source | Change | Written by |\n| --- | --- | --- |\n");
    for design in &review.design_files {
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            cell_code(&design.source),
            escape(&design_change_label(design)),
            escape(&written_by(
                design.provenance.as_ref(),
                &design.updated_by.head
            ))
        ));
    }
    let omitted = design_diffs(out, &review.design_files);
    for design in review.design_files.iter().filter(|d| d.error.is_some()) {
        out.push_str(&format!(
            "\n⚠️ {} does not parse: {}\n",
            code(&design.path),
            escape(design.error.as_deref().unwrap_or(""))
        ));
    }
    if omitted > 0 {
        out.push_str(&format!(
            "\n_{} left out to stay under GitHub's comment size limit; run `lexictl review` locally to see them._\n",
            plural(omitted, "diff", "diffs")
        ));
    }
    if !review.notes.provenance {
        out.push_str("\n_No provenance notes in this clone, so who wrote each design file is not known: fetch them with `lexictl notes sync`._\n");
    }
}

/// Each design file's diff (or why it has none) while the comment stays under
/// [`COMMENT_BUDGET`]; returns how many diffs were left out.
fn design_diffs(out: &mut String, designs: &[DesignChange]) -> usize {
    let mut omitted = 0;
    for design in designs {
        let Some(diff) = &design.diff else {
            if let Some(reason) = &design.diff_skipped {
                out.push_str(&format!(
                    "\n{}: no diff ({})\n",
                    code(&design.path),
                    escape(reason)
                ));
            }
            continue;
        };
        let block = details(&design.path, &design_change_label(design), diff);
        if out.len() + block.len() > COMMENT_BUDGET {
            omitted += 1;
            continue;
        }
        out.push_str(&block);
    }
    omitted
}

/// The concepts: one line each, then their diffs while the comment has room.
fn concept_section(out: &mut String, concepts: &[ConceptChange]) {
    out.push_str("\n### Concepts\n\n");
    for concept in concepts {
        out.push_str(&concept_item(concept));
    }
    for concept in concepts {
        if let Some(diff) = &concept.diff {
            let block = details(&concept.path, concept.change.as_str(), diff);
            if out.len() + block.len() <= COMMENT_BUDGET {
                out.push_str(&block);
            }
        }
    }
}

fn finding_item(finding: &Finding) -> String {
    let location = match finding.line {
        Some(line) => format!("{} (line {line})", code(&finding.file)),
        None => code(&finding.file),
    };
    let update = code(&format!("lexictl update {}", finding.source));
    let text = match finding.kind {
        FindingKind::InterfaceChanged => format!(
            "{}; {} was not updated. Run {update} or edit the design file.",
            describe_interface_change(&finding.added, &finding.removed, &|name| code(name)),
            code(&finding.design_file)
        ),
        FindingKind::MissingDesign => format!(
            "no design file ({}). Run {update} or write one.",
            code(&finding.design_file)
        ),
        FindingKind::StaleContract | FindingKind::Symlink => finding.message.clone(),
        FindingKind::OrphanedDesign => format!(
            "{} was {}; its design file is still there. {} moves or removes it.",
            code(&finding.source),
            match &finding.renamed_to {
                Some(to) => format!("renamed to {}", code(to)),
                None => "deleted".to_string(),
            },
            code("lexictl update")
        ),
    };
    let mut out = format!("- **{}** — {location}: {text}\n", finding.kind.title());
    for (label, symbols) in [("added", &finding.added), ("removed", &finding.removed)] {
        for symbol in symbols.iter().take(MAX_SYMBOLS) {
            out.push_str(&format!("  - {label}: {}\n", symbol_text(symbol)));
        }
        if symbols.len() > MAX_SYMBOLS {
            out.push_str(&format!(
                "  - … {} more {label}\n",
                symbols.len() - MAX_SYMBOLS
            ));
        }
    }
    out
}

fn symbol_text(symbol: &Symbol) -> String {
    match &symbol.parent {
        Some(parent) => format!("{} in {}", code(&symbol.signature), code(parent)),
        None => code(&symbol.signature),
    }
}

fn design_change_label(design: &DesignChange) -> String {
    if design.footer_only {
        return "footer only (hashes refreshed)".to_string();
    }
    let mut label = match (&design.change, &design.from) {
        (ChangeKind::Renamed, Some(from)) => format!("renamed from {from}"),
        (change, _) => change.as_str().to_string(),
    };
    if let Some(diff) = &design.diff {
        label.push_str(&format!(" (+{} −{})", diff.added, diff.removed));
    }
    label
}

/// "archivist (structural)", "archivist (claude-x)", "agent or human", "unrecorded", "—".
fn written_by(provenance: Option<&Provenance>, updated_by: &Option<UpdatedBy>) -> String {
    let Some(provenance) = provenance else {
        return "—".to_string();
    };
    match provenance.written_by {
        "archivist" => {
            let how = provenance
                .model
                .as_deref()
                .or(provenance.generator.as_deref())
                .unwrap_or("unknown generator");
            format!("archivist ({how})")
        }
        "agent_or_human" if *updated_by == Some(UpdatedBy::Agent) => {
            "agent or human (updated_by: agent)".to_string()
        }
        "agent_or_human" => "agent or human".to_string(),
        _ => "unrecorded".to_string(),
    }
}

/// A collapsed diff block.
fn details(path: &str, label: &str, diff: &Diff) -> String {
    let fence = fence_for(&diff.unified);
    let mut out = format!(
        "\n<details><summary><code>{}</code> — {}</summary>\n\n{fence}diff\n{}",
        html(path),
        html(label),
        diff.unified
    );
    if !diff.unified.ends_with('\n') && !diff.unified.is_empty() {
        out.push('\n');
    }
    out.push_str(&format!("{fence}\n"));
    if diff.omitted_lines > 0 {
        out.push_str(&format!("\n… {} more lines\n", diff.omitted_lines));
    }
    out.push_str("\n</details>\n");
    out
}

fn concept_item(concept: &ConceptChange) -> String {
    let title = concept
        .title
        .head
        .as_deref()
        .or(concept.title.base.as_deref())
        .unwrap_or(&concept.name);
    let mut line = format!(
        "- **{}** {} — _{}_",
        concept.change.as_str(),
        code(&format!("[[{}]]", concept.name)),
        escape(title)
    );
    if let Some(from) = &concept.from {
        line.push_str(&format!(" (from {})", code(from)));
    }
    match (&concept.status.base, &concept.status.head) {
        (Some(old), Some(new)) if old != new => line.push_str(&format!(", status {old} → {new}")),
        (None, Some(new)) => line.push_str(&format!(" ({new})")),
        _ => {}
    }
    if let (Some(old), Some(new)) = (&concept.title.base, &concept.title.head) {
        if old != new {
            line.push_str(&format!(", retitled from _{}_", escape(old)));
        }
    }
    if let Some(by) = &concept.superseded_by {
        line.push_str(&format!(", superseded by {}", code(by)));
    }
    if concept.change == ChangeKind::Added && !concept.summary.is_empty() {
        line.push_str(&format!(": {}", escape(&concept.summary)));
    }
    if let Some(error) = &concept.error {
        line.push_str(&format!(" ⚠️ does not parse: {}", escape(error)));
    }
    line.push('\n');
    line
}

/// What happened to a post, as plain-text phrases.
fn post_parts(post: &PostChange) -> Vec<String> {
    let mut parts: Vec<String> = Vec::new();
    match post.change {
        ChangeKind::Added => parts.push(format!(
            "new post ({})",
            post.status.head.as_deref().unwrap_or("open")
        )),
        ChangeKind::Removed => parts.push("removed".into()),
        _ => {
            if let (Some(old), Some(new)) = (&post.status.base, &post.status.head) {
                if old != new {
                    parts.push(format!("status {old} → {new}"));
                }
            }
        }
    }
    if !post.answers_added.is_empty() {
        let answers: Vec<String> = post
            .answers_added
            .iter()
            .map(|a| format!("A{} by {}", a.number, a.author))
            .collect();
        parts.push(format!("answers added: {}", answers.join(", ")));
    }
    if post.accepted_answer.changed() {
        if let Some(number) = post.accepted_answer.head {
            let by = post
                .accepted_author
                .as_deref()
                .map(|author| format!(" (by {author})"))
                .unwrap_or_default();
            parts.push(format!("A{number} accepted{by}"));
        }
    }
    if let (base, Some(head)) = (post.votes.base.unwrap_or(0), post.votes.head) {
        if base != head {
            parts.push(format!("votes {base} → {head}"));
        }
    }
    for answer in &post.answer_votes {
        parts.push(format!(
            "A{} votes {} → {}",
            answer.answer, answer.base, answer.head
        ));
    }
    if post.comments_added > 0 {
        parts.push(plural(
            post.comments_added,
            "comment added",
            "comments added",
        ));
    }
    if parts.is_empty() {
        parts.push("edited".into());
    }
    parts
}

fn post_item(post: &PostChange) -> String {
    let parts: Vec<String> = post_parts(post).iter().map(|part| escape(part)).collect();
    let mut out = format!(
        "- **{}** _{}_ — {}\n",
        escape(&post.id),
        escape(&post.title),
        parts.join("; ")
    );
    if let Some(history) = &post.history {
        let votes: Vec<String> = history
            .events
            .iter()
            .filter(|event| event.kind == StackEventKind::Vote)
            .map(|event| {
                let target = event
                    .answer
                    .map(|a| format!("A{a}"))
                    .unwrap_or_else(|| "post".into());
                let sign = if event.delta.unwrap_or(0) >= 0 {
                    "+1"
                } else {
                    "−1"
                };
                format!("{sign} {target} by {}", escape(&event.author))
            })
            .collect();
        if !votes.is_empty() {
            out.push_str(&format!(
                "  - votes recorded in this range: {} (net post {:+})\n",
                votes.join(", "),
                history.net_votes
            ));
        }
    }
    if let Some(error) = &post.error {
        out.push_str(&format!("  - ⚠️ does not parse: {}\n", escape(error)));
    }
    out
}

/// GitHub Actions workflow commands: a summary notice, a warning per finding, a notice per concept
/// and Stack change. Paths are relative to the repository root, as annotations need.
pub fn github(review: &Review) -> String {
    let repo_path = |rel: &str| {
        if review.project_dir.is_empty() {
            rel.to_string()
        } else {
            format!("{}/{rel}", review.project_dir)
        }
    };
    let mut out = format!(
        "::notice title={}::{}\n",
        property("Lexibrarian review"),
        data(&format!("{}: {}", review.range, review.summary.line))
    );
    for finding in &review.findings {
        let line = finding
            .line
            .map(|line| format!(",line={line}"))
            .unwrap_or_default();
        out.push_str(&format!(
            "::{} file={}{line},title={}::{}\n",
            finding.severity,
            property(&repo_path(&finding.file)),
            property(finding.kind.title()),
            data(&finding.message)
        ));
    }
    for concept in &review.concepts {
        let title = concept
            .title
            .head
            .as_deref()
            .or(concept.title.base.as_deref())
            .unwrap_or(&concept.name);
        let status = concept
            .status
            .head
            .as_deref()
            .map(|status| format!(" ({status})"))
            .unwrap_or_default();
        out.push_str(&format!(
            "::notice file={},title={}::[[{}]] {}{}\n",
            property(&repo_path(&concept.path)),
            property(&format!("Concept {}", concept.change.as_str())),
            data(&concept.name),
            data(title),
            data(&status),
        ));
    }
    for post in &review.stack {
        out.push_str(&format!(
            "::notice file={},title={}::{}: {}\n",
            property(&repo_path(&post.path)),
            property(&format!("Stack post {}", post.id)),
            data(&post.title),
            data(&post_parts(post).join("; "))
        ));
    }
    out
}

/// Escape a workflow command's message.
fn data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// Escape a workflow command's property value.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

/// Inline code that survives backticks and table pipes in `text`.
fn code(text: &str) -> String {
    let text = text.replace('\n', " ");
    let longest = longest_run(&text, '`');
    let ticks = "`".repeat(longest + 1);
    if longest == 0 {
        format!("{ticks}{text}{ticks}")
    } else {
        format!("{ticks} {text} {ticks}")
    }
}

/// Inline code inside a table cell (`|` must be escaped even in code).
fn cell_code(text: &str) -> String {
    code(text).replace('|', "\\|")
}

/// Markdown-escape free text (titles, messages) so that it renders as written.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '#' => {
                out.push('\\');
                out.push(ch);
            }
            '\n' | '\r' => out.push(' '),
            _ => out.push(ch),
        }
    }
    out
}

/// HTML-escape text inside `<summary>`.
fn html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// A code fence longer than any backtick run inside `text`.
fn fence_for(text: &str) -> String {
    "`".repeat(longest_run(text, '`').max(2) + 1)
}

fn longest_run(text: &str, ch: char) -> usize {
    let mut longest = 0;
    let mut current = 0;
    for c in text.chars() {
        if c == ch {
            current += 1;
            longest = longest.max(current);
        } else {
            current = 0;
        }
    }
    longest
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inline_code_survives_backticks_and_pipes() {
        assert_eq!(code("a.rs"), "`a.rs`");
        assert_eq!(code("a`b"), "`` a`b ``");
        assert_eq!(cell_code("a|b"), "`a\\|b`");
    }

    #[test]
    fn fences_outgrow_the_content() {
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("+```rust"), "````");
    }

    #[test]
    fn workflow_commands_escape_their_fields() {
        assert_eq!(property("a:b,c%"), "a%3Ab%2Cc%25");
        assert_eq!(data("line\nnext: 100%"), "line%0Anext: 100%25");
    }

    #[test]
    fn free_text_is_escaped() {
        assert_eq!(escape("a_b *c* <d>"), "a\\_b \\*c\\* \\<d\\>");
    }
}
