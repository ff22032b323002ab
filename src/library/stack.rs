//! Stack posts: `.lexibrary/stack/ST-NNN-<slug>.md`, the library's Q&A of problems hit and solved
//! (seed §6, D-035…D-044).
//!
//! ```text
//! ---
//! id: ST-001
//! title: Timezone-naive datetimes corrupt data
//! tags: [datetime]
//! status: open              # open | resolved | outdated | duplicate
//! created: 2026-01-15T10:00:00Z
//! author: agent-abc
//! bead: null
//! votes: 0                  # net score of the post
//! duplicate_of: null
//! accepted_answer: null     # the accepted answer's number
//! answer_votes: {}          # net score per answer number
//! refs: {concepts: [], files: [], designs: []}
//! ---
//!
//! ## Problem
//! …
//! ### Evidence
//! …
//! ### Comments              (post-level comments, added on demand)
//! - **2026-01-16T… agent-x [downvote]:** why
//!
//! ---
//!
//! ## Answers
//!
//! ### A1
//!
//! **Date:** 2026-01-15T… | **Author:** agent-def
//!
//! The answer.
//!
//! #### Comments
//! - **2026-01-16T… agent-y:** a comment
//! ```
//!
//! The frontmatter is the mutable part (votes, status, the accepted answer); the body is append-only:
//! answers and comments are inserted, never edited or removed. That is why answer scores live in
//! `answer_votes` rather than in the answer's header line.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::markdown::{close_open_fence, Fence};
use super::{frontmatter, normalize_newlines, FormatError};

/// The Stack directory inside `.lexibrary/`.
pub const STACK_DIR: &str = "stack";

/// `status:` (D-040).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PostStatus {
    #[default]
    Open,
    Resolved,
    Outdated,
    Duplicate,
}

impl PostStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            PostStatus::Open => "open",
            PostStatus::Resolved => "resolved",
            PostStatus::Outdated => "outdated",
            PostStatus::Duplicate => "duplicate",
        }
    }
}

/// `refs:`: what the post is about.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PostRefs {
    #[serde(default)]
    pub concepts: Vec<String>,
    #[serde(default)]
    pub files: Vec<String>,
    #[serde(default)]
    pub designs: Vec<String>,
}

/// The mutable frontmatter of a post.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PostMeta {
    pub id: String,
    pub title: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub status: PostStatus,
    #[serde(default)]
    pub created: String,
    #[serde(default)]
    pub author: String,
    #[serde(default)]
    pub bead: Option<String>,
    #[serde(default)]
    pub votes: i64,
    #[serde(default)]
    pub duplicate_of: Option<String>,
    #[serde(default)]
    pub accepted_answer: Option<u32>,
    #[serde(default)]
    pub answer_votes: BTreeMap<u32, i64>,
    #[serde(default)]
    pub refs: PostRefs,
    /// Keys we do not know, preserved.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_yaml::Value>,
}

/// A comment on a post or an answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Comment {
    pub date: String,
    pub author: String,
    /// `upvote` or `downvote` when the comment came with a vote.
    pub context: Option<String>,
    pub text: String,
}

/// One answer as written in the body; its score and acceptance are in the frontmatter.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Answer {
    pub number: u32,
    pub date: String,
    pub author: String,
    pub body: String,
    pub comments: Vec<Comment>,
}

/// The body of a post, read into its parts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PostBody {
    pub problem: String,
    pub evidence: String,
    pub comments: Vec<Comment>,
    pub answers: Vec<Answer>,
}

/// A parsed Stack post: its frontmatter and its body text exactly as on disk.
#[derive(Clone, Debug, PartialEq)]
pub struct Post {
    pub meta: PostMeta,
    /// Everything after the frontmatter, verbatim.
    pub body: String,
}

/// The content of a post's anchor blob, the object its history in git notes is attached to:
/// stable for the post's whole life.
pub fn anchor_text(id: &str) -> String {
    format!("lexibrarian:stack:{id}\n")
}

impl Post {
    /// A new post with the problem and evidence sections (a code fence either leaves open is
    /// closed, so it cannot hide the answers that follow).
    pub fn new(meta: PostMeta, problem: &str, evidence: &str) -> Post {
        let body = format!(
            "\n## Problem\n\n{}\n\n### Evidence\n\n{}\n",
            close_open_fence(problem.trim()),
            close_open_fence(evidence.trim())
        );
        Post { meta, body }
    }

    /// Parse a post; `path` is used in errors. `id` and `title` are required.
    pub fn parse(path: &str, text: &str) -> Result<Post, FormatError> {
        let text = normalize_newlines(text);
        let split = frontmatter::split(path, &text)?;
        let Some(yaml) = split.yaml else {
            return Err(FormatError::new(
                path,
                Some(1),
                "a Stack post must start with a `---` frontmatter block holding at least `id` and `title`",
            ));
        };
        let meta: PostMeta = frontmatter::parse(path, yaml)?;
        if super::wikilink::stack_id(&meta.id).as_deref() != Some(meta.id.as_str()) {
            return Err(FormatError::new(
                path,
                Some(2),
                format!("`id: {}` is not a Stack id like ST-001", meta.id),
            ));
        }
        Ok(Post {
            meta,
            body: split.body.to_string(),
        })
    }

    /// The file text: frontmatter then body.
    pub fn render(&self) -> String {
        format!("{}{}", frontmatter::render(&self.meta), self.body)
    }

    /// Lower-cased tags.
    pub fn tags(&self) -> Vec<String> {
        self.meta
            .tags
            .iter()
            .map(|tag| tag.trim().to_lowercase())
            .filter(|tag| !tag.is_empty())
            .collect()
    }

    /// The body read into problem, evidence, comments and answers.
    pub fn read_body(&self) -> PostBody {
        let blocks = Blocks::scan(&self.body);
        let post_text = &self.body[..blocks.post_end];
        let mut body = PostBody::default();
        let (problem, rest) = split_at_heading(post_text, "### Evidence");
        body.problem = strip_heading(problem, "## Problem").trim().to_string();
        let (evidence, comments) = split_at_heading(rest, "### Comments");
        body.evidence = strip_heading(evidence, "### Evidence").trim().to_string();
        body.comments = parse_comments(strip_heading(comments, "### Comments"));
        for block in &blocks.answers {
            let text = &self.body[block.start..block.end];
            let after_heading = text.split_once('\n').map_or("", |(_, rest)| rest);
            let (main, comments) = split_at_heading(after_heading, "#### Comments");
            let mut lines = main.trim_start_matches('\n').splitn(2, '\n');
            let first = lines.next().unwrap_or("");
            let (date, author, text) = match parse_answer_header(first) {
                Some((date, author)) => (date, author, lines.next().unwrap_or("")),
                None => (String::new(), String::new(), main),
            };
            body.answers.push(Answer {
                number: block.number,
                date,
                author,
                body: text.trim().to_string(),
                comments: parse_comments(strip_heading(comments, "#### Comments")),
            });
        }
        body
    }

    /// Append an answer; returns its number (one more than the highest so far).
    pub fn append_answer(&mut self, date: &str, author: &str, text: &str) -> u32 {
        let blocks = Blocks::scan(&self.body);
        let number = blocks.answers.iter().map(|a| a.number).max().unwrap_or(0) + 1;
        let mut body = self.body.trim_end().to_string();
        body.push_str("\n\n---\n\n");
        if !blocks.has_answers_heading {
            body.push_str("## Answers\n\n");
        }
        body.push_str(&format!(
            "### A{number}\n\n**Date:** {date} | **Author:** {author}\n\n{}\n",
            close_open_fence(text.trim())
        ));
        self.body = body;
        number
    }

    /// Whether answer `number` exists in the body.
    pub fn has_answer(&self, number: u32) -> bool {
        Blocks::scan(&self.body)
            .answers
            .iter()
            .any(|a| a.number == number)
    }

    /// Append a comment to the post (`answer: None`) or to an answer. Returns false if the answer does
    /// not exist.
    pub fn append_comment(&mut self, answer: Option<u32>, comment: &Comment) -> bool {
        let blocks = Blocks::scan(&self.body);
        let (start, end, heading) = match answer {
            None => (0, blocks.post_end, "### Comments"),
            Some(number) => match blocks.answers.iter().find(|a| a.number == number) {
                Some(block) => (block.start, block.end, "#### Comments"),
                None => return false,
            },
        };
        let block = &self.body[start..end];
        let kept = block.trim_end();
        let insert_at = start + kept.len();
        let line = render_comment(comment);
        let addition = if find_heading(block, heading).is_some() {
            format!("\n{line}")
        } else {
            format!("\n\n{heading}\n\n{line}")
        };
        let tail = &self.body[insert_at..];
        // Keep whatever separated this block from the next one (blank lines, `---`).
        let separator = if tail.trim().is_empty() { "\n" } else { "" };
        self.body = format!("{}{addition}{separator}{tail}", &self.body[..insert_at]);
        if !self.body.ends_with('\n') {
            self.body.push('\n');
        }
        true
    }
}

/// `- **<date> <author> [context]:** text`, continuation lines indented.
fn render_comment(comment: &Comment) -> String {
    let context = comment
        .context
        .as_deref()
        .map(|context| format!(" [{context}]"))
        .unwrap_or_default();
    let text = close_open_fence(comment.text.trim()).replace('\n', "\n  ");
    format!("- **{} {}{context}:** {text}", comment.date, comment.author)
}

fn parse_comments(text: &str) -> Vec<Comment> {
    let mut comments: Vec<Comment> = Vec::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("- **") {
            if let Some((header, text)) = rest.split_once(":**") {
                let mut header = header.trim().to_string();
                let mut context = None;
                if header.ends_with(']') {
                    if let Some(open) = header.rfind(" [") {
                        context = Some(header[open + 2..header.len() - 1].to_string());
                        header.truncate(open);
                    }
                }
                let (date, author) = header.split_once(' ').unwrap_or((header.as_str(), ""));
                comments.push(Comment {
                    date: date.to_string(),
                    author: author.trim().to_string(),
                    context,
                    text: text.trim().to_string(),
                });
                continue;
            }
        }
        if let Some(last) = comments.last_mut() {
            let line = line.trim();
            if !line.is_empty() {
                last.text.push('\n');
                last.text.push_str(line);
            }
        }
    }
    comments
}

fn parse_answer_header(line: &str) -> Option<(String, String)> {
    let rest = line.trim().strip_prefix("**Date:**")?;
    let (date, author) = rest.split_once("| **Author:**")?;
    Some((date.trim().to_string(), author.trim().to_string()))
}

/// Where the post part ends and each answer block lies in a body, ignoring headings in code fences.
struct Blocks {
    /// Byte offset where the post part (problem, evidence, comments) ends.
    post_end: usize,
    has_answers_heading: bool,
    answers: Vec<AnswerBlock>,
}

struct AnswerBlock {
    number: u32,
    start: usize,
    end: usize,
}

impl Blocks {
    /// Only our own structure splits the body: the `## Answers` heading ends the post part, and
    /// `### A<n>` headings after it start answers. Any other heading an author wrote (`## Steps` in
    /// a problem) is content. Headings inside code fences never count.
    fn scan(body: &str) -> Blocks {
        let mut post_end = body.len();
        let mut has_answers_heading = false;
        let mut answers: Vec<AnswerBlock> = Vec::new();
        let mut fence = Fence::default();
        let mut offset = 0;
        for line in body.split_inclusive('\n') {
            let trimmed = line.trim_end();
            if !fence.inside(trimmed) {
                if !has_answers_heading && trimmed == "## Answers" {
                    has_answers_heading = true;
                    post_end = block_end(body, 0, offset);
                } else if has_answers_heading {
                    if let Some(number) = trimmed
                        .strip_prefix("### A")
                        .and_then(|digits| digits.trim().parse::<u32>().ok())
                    {
                        if let Some(last) = answers.last_mut() {
                            last.end = block_end(body, last.start, offset);
                        }
                        answers.push(AnswerBlock {
                            number,
                            start: offset,
                            end: body.len(),
                        });
                    }
                }
            }
            offset += line.len();
        }
        Blocks {
            post_end,
            has_answers_heading,
            answers,
        }
    }
}

/// The end of a block starting at `start` whose next heading is at `next`: before the trailing blank
/// lines and `---` separator.
fn block_end(body: &str, start: usize, next: usize) -> usize {
    let mut text = &body[start..next];
    loop {
        let trimmed = text.trim_end();
        if let Some(rest) = trimmed.strip_suffix("---") {
            if rest.is_empty() || rest.ends_with('\n') {
                text = rest;
                continue;
            }
        }
        text = trimmed;
        break;
    }
    start + text.len()
}

/// Offset of a line equal to `heading` outside code fences.
fn find_heading(text: &str, heading: &str) -> Option<usize> {
    let mut fence = Fence::default();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if !fence.inside(trimmed) && trimmed == heading {
            return Some(offset);
        }
        offset += line.len();
    }
    None
}

fn split_at_heading<'a>(text: &'a str, heading: &str) -> (&'a str, &'a str) {
    match find_heading(text, heading) {
        Some(at) => (&text[..at], &text[at..]),
        None => (text, ""),
    }
}

fn strip_heading<'a>(text: &'a str, heading: &str) -> &'a str {
    let trimmed = text.trim_start_matches('\n');
    match trimmed.strip_prefix(heading) {
        Some(rest) if rest.is_empty() || rest.starts_with('\n') => rest,
        _ => text,
    }
}

/// The file-name slug of a title: lower-case ASCII words joined by `-`, at most 50 characters.
pub fn slug(title: &str) -> String {
    let mut slug = String::new();
    for word in title
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
    {
        if slug.len() + word.len() + 1 > 50 {
            break;
        }
        if !slug.is_empty() {
            slug.push('-');
        }
        slug.push_str(&word.to_ascii_lowercase());
    }
    if slug.is_empty() {
        slug.push_str("post");
    }
    slug
}

/// The Stack id a post file name starts with (`ST-001-x.md` → `ST-001`).
pub fn id_from_file_name(name: &str) -> Option<String> {
    let stem = name.strip_suffix(".md")?;
    let digits: String = stem
        .strip_prefix("ST-")?
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    let rest = &stem[3 + digits.len()..];
    if digits.is_empty() || !(rest.is_empty() || rest.starts_with('-')) {
        return None;
    }
    super::wikilink::stack_id(&format!("ST-{digits}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn post() -> Post {
        Post::new(
            PostMeta {
                id: "ST-001".into(),
                title: "Naive datetimes".into(),
                ..PostMeta::default()
            },
            "Using `datetime.now()` corrupts data.",
            "- TypeError: can't compare",
        )
    }

    fn comment(text: &str, context: Option<&str>) -> Comment {
        Comment {
            date: "2026-01-16T00:00:00Z".into(),
            author: "agent b".into(),
            context: context.map(str::to_string),
            text: text.into(),
        }
    }

    #[test]
    fn appends_are_inserts_and_read_back() {
        let mut post = post();
        assert!(post.append_comment(None, &comment("first", Some("downvote"))));
        assert_eq!(
            post.append_answer("D1", "a1", "Use utils.now().\n\n```\n### A9\n```"),
            1
        );
        assert_eq!(post.append_answer("D2", "a2", "Wrap call sites."), 2);
        assert!(post.append_comment(Some(1), &comment("also utcnow\nsecond line", None)));
        assert!(post.append_comment(Some(1), &comment("agreed", Some("upvote"))));
        assert!(post.append_comment(None, &comment("second", None)));
        assert!(!post.append_comment(Some(7), &comment("x", None)));
        let before = post.body.clone();
        let reparsed = Post::parse("p.md", &post.render()).unwrap();
        assert_eq!(reparsed.body, before);
        let body = reparsed.read_body();
        assert_eq!(body.problem, "Using `datetime.now()` corrupts data.");
        assert_eq!(body.evidence, "- TypeError: can't compare");
        assert_eq!(body.comments.len(), 2);
        assert_eq!(body.comments[0].context.as_deref(), Some("downvote"));
        assert_eq!(body.comments[0].author, "agent b");
        assert_eq!(body.answers.len(), 2);
        assert_eq!(body.answers[0].author, "a1");
        assert!(body.answers[0].body.contains("### A9"));
        assert_eq!(body.answers[0].comments.len(), 2);
        assert_eq!(body.answers[0].comments[0].text, "also utcnow\nsecond line");
        assert_eq!(body.answers[1].body, "Wrap call sites.");
        assert!(body.answers[1].comments.is_empty());
        insta::assert_snapshot!(post.render());
    }

    #[test]
    fn earlier_text_is_never_changed_by_appends() {
        let mut post = post();
        post.append_answer("D1", "a1", "one");
        let snapshot = post.body.clone();
        post.append_answer("D2", "a2", "two");
        assert!(post.body.starts_with(snapshot.trim_end()));
        let before_comment = post.body.clone();
        post.append_comment(Some(1), &comment("c", None));
        // Everything before the insertion point and everything after it is kept.
        let answer2 = before_comment.find("### A2").unwrap();
        assert!(post.body.ends_with(&before_comment[answer2..]));
    }

    #[test]
    fn author_headings_and_mixed_fences_do_not_break_the_structure() {
        let mut post = Post::new(
            PostMeta {
                id: "ST-002".into(),
                title: "t".into(),
                ..PostMeta::default()
            },
            "Intro.\n\n## Steps\n\n1. run",
            "boom",
        );
        post.append_answer("D1", "a", "~~~\n```\n### A7\n~~~");
        post.append_answer("D2", "b", "second");
        post.append_answer("D3", "c", "third");
        assert!(post.append_comment(None, &comment("c", None)));
        let body = post.read_body();
        assert_eq!(body.problem, "Intro.\n\n## Steps\n\n1. run");
        assert_eq!(body.evidence, "boom");
        assert_eq!(body.comments.len(), 1);
        let numbers: Vec<u32> = body.answers.iter().map(|a| a.number).collect();
        assert_eq!(numbers, [1, 2, 3]);
        assert!(post.has_answer(3));
    }

    #[test]
    fn file_names_and_ids() {
        assert_eq!(
            id_from_file_name("ST-001-x-y.md").as_deref(),
            Some("ST-001")
        );
        assert_eq!(id_from_file_name("ST-1234.md").as_deref(), Some("ST-1234"));
        assert_eq!(id_from_file_name("ST-01x.md"), None);
        assert_eq!(id_from_file_name("notes.md"), None);
        assert_eq!(
            slug("Timezone-naive datetimes: cause & fix!"),
            "timezone-naive-datetimes-cause-fix"
        );
        assert_eq!(slug("€€€"), "post");
    }

    #[test]
    fn bad_frontmatter_names_the_file_and_line() {
        let err = Post::parse("stack/ST-001-x.md", "---\nid: ST-001\ntitle: [\n---\n").unwrap_err();
        assert!(err.to_string().starts_with("stack/ST-001-x.md:"), "{err}");
        let err = Post::parse("p.md", "---\nid: 7\ntitle: t\n---\n").unwrap_err();
        assert!(err.to_string().contains("not a Stack id"), "{err}");
        assert!(Post::parse("p.md", "no frontmatter").is_err());
    }
}
