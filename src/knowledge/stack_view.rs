//! How the Stack reads: the text and JSON of one post (`lexi stack view`, the MCP `stack_view`
//! tool), of its vote history (`lexi stack history`), and the search behind `lexi stack list|search`
//! and the MCP `stack_search` tool, with its one-line-per-post listing.

use super::corpus::{Corpus, Kinds};
use super::search::{render_hit, search, Hit, Query};
use super::stack::History;
use crate::library::stack::Post;
use crate::project::Project;

/// The posts matching `query` (its `kinds` should be the Stack only): ranked for words, in id order
/// for a plain listing.
pub fn search_posts(project: &Project, query: &Query) -> Vec<Hit> {
    let corpus = Corpus::load(project, Kinds::KNOWLEDGE);
    let mut hits = search(&corpus, query);
    if query.text.is_none() {
        // A plain listing reads best in id order.
        hits.sort_by(|a, b| a.name.cmp(&b.name));
    }
    hits
}

/// One line per post, or `empty` (a sentence) when there are none.
pub fn listing_text(hits: &[Hit], empty: &str) -> String {
    if hits.is_empty() {
        return format!("{empty}\n");
    }
    let mut out = String::new();
    for hit in hits {
        out.push_str(&render_hit(hit));
        out.push('\n');
    }
    out
}

/// The JSON `lexi stack view --format json` prints (docs/commands.md).
pub fn post_json(path: &str, post: &Post) -> serde_json::Value {
    let body = post.read_body();
    let answers: Vec<_> = body
        .answers
        .iter()
        .map(|answer| {
            serde_json::json!({
                "number": answer.number,
                "date": answer.date,
                "author": answer.author,
                "votes": post.meta.answer_votes.get(&answer.number).copied().unwrap_or(0),
                "accepted": post.meta.accepted_answer == Some(answer.number),
                "body": answer.body,
                "comments": answer.comments,
            })
        })
        .collect();
    serde_json::json!({
        "path": path,
        "frontmatter": post.meta,
        "problem": body.problem,
        "evidence": body.evidence,
        "comments": body.comments,
        "answers": answers,
    })
}

/// The text `lexi stack view` prints: header, problem, evidence, comments, then each answer with
/// its score and comments.
pub fn post_text(path: &str, post: &Post) -> String {
    let meta = &post.meta;
    let body = post.read_body();
    let mut out = format!(
        "{} [{}] ▲{}  {}\n",
        meta.id,
        meta.status.as_str(),
        meta.votes,
        meta.title
    );
    out.push_str(&format!("{path} · by {} · {}\n", meta.author, meta.created));
    if !meta.tags.is_empty() {
        out.push_str(&format!("tags: {}\n", post.tags().join(", ")));
    }
    if !meta.refs.files.is_empty() {
        out.push_str(&format!("files: {}\n", meta.refs.files.join(", ")));
    }
    if !meta.refs.concepts.is_empty() {
        let links: Vec<String> = meta
            .refs
            .concepts
            .iter()
            .map(|c| format!("[[{c}]]"))
            .collect();
        out.push_str(&format!("concepts: {}\n", links.join(", ")));
    }
    if let Some(of) = &meta.duplicate_of {
        out.push_str(&format!("duplicate of: [[{of}]]\n"));
    }
    out.push_str(&format!(
        "\n## Problem\n\n{}\n\n### Evidence\n\n{}\n",
        body.problem, body.evidence
    ));
    render_comments(&mut out, &body.comments);
    for answer in &body.answers {
        let votes = meta.answer_votes.get(&answer.number).copied().unwrap_or(0);
        let accepted = if meta.accepted_answer == Some(answer.number) {
            " ✓ accepted"
        } else {
            ""
        };
        out.push_str(&format!(
            "\n## A{} ▲{votes}{accepted} — {} · {}\n\n{}\n",
            answer.number, answer.author, answer.date, answer.body
        ));
        render_comments(&mut out, &answer.comments);
    }
    if body.answers.is_empty() {
        out.push_str("\nNo answers yet. `lexi stack answer ");
        out.push_str(&meta.id);
        out.push_str(" --body …` adds one.\n");
    }
    out
}

fn render_comments(out: &mut String, comments: &[crate::library::stack::Comment]) {
    if comments.is_empty() {
        return;
    }
    out.push_str("\nComments:\n");
    for comment in comments {
        let context = comment
            .context
            .as_deref()
            .map(|c| format!(" [{c}]"))
            .unwrap_or_default();
        out.push_str(&format!(
            "- {} {}{context}: {}\n",
            comment.date,
            comment.author,
            comment.text.replace('\n', "\n  ")
        ));
    }
}

/// The text `lexi stack history` prints: one line per recorded event, then the net post votes.
pub fn history_text(history: &History) -> String {
    if !history.available {
        return format!(
            "History is unavailable for {}: this project is not in a git repository, so only the \
             current state (frontmatter) exists. Net votes: {}.\n",
            history.post, history.net_votes
        );
    }
    if history.events.is_empty() && history.unreadable.is_empty() {
        return format!(
            "No recorded history for {} in refs/notes/lexibrarian/stack.\n",
            history.post
        );
    }
    let mut out = String::new();
    for event in &history.events {
        let mut line = format!("{}  {:<7}", event.ts, event.kind);
        if let Some(delta) = event.delta {
            line.push_str(&format!(" {delta:+}"));
        }
        if let Some(answer) = event.answer {
            line.push_str(&format!(" A{answer}"));
        }
        if let (Some(from), Some(to)) = (&event.from, &event.status) {
            line.push_str(&format!(" {from} → {to}"));
        }
        if let Some(of) = &event.of {
            line.push_str(&format!(" of {of}"));
        }
        line.push_str(&format!("  by {}", event.author));
        if let Some(comment) = &event.comment {
            line.push_str(&format!(": {comment}"));
        }
        out.push_str(&line);
        out.push('\n');
    }
    for line in &history.unreadable {
        out.push_str(&format!("(unreadable) {line}\n"));
    }
    out.push_str(&format!(
        "Net post votes from history: {}\n",
        history.net_votes
    ));
    out
}
