//! The write tools: `stack_post`, `stack_answer`, `stack_vote`, `iwh_read` (it consumes the note)
//! and `iwh_write`. Same arguments and the same checks as `lexi stack …` and `lexi iwh …`, except
//! that bodies are arguments (there is no stdin to pipe them through). Never cached.

use serde::Deserialize;

use super::cache::Inputs;
use super::registry::{Answer, Call, Tool};
use super::values::{DirectionName, IwhScopeName};
use crate::knowledge::concepts::canonical_names;
use crate::knowledge::iwh;
use crate::knowledge::stack::{Direction, NewPost, Stack};
use crate::library::iwh::IwhScope;

/// Who is writing: the `author` argument, else `LEXI_AUTHOR`, else the git identity.
fn author(call: &Call, explicit: Option<&str>) -> String {
    crate::knowledge::author(explicit, &call.ws)
}

pub struct StackPost;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackPostArgs {
    /// A one-line summary of the problem.
    title: String,
    /// What goes wrong.
    problem: String,
    /// Required: the error, failing test or observed behaviour that shows it (no speculation).
    evidence: String,
    /// Tags, shared with concepts and design files.
    #[serde(default)]
    tags: Vec<String>,
    /// Source files the post is about, relative to the project root.
    #[serde(default)]
    files: Vec<String>,
    /// Concepts it relates to, by name, title or alias.
    #[serde(default)]
    concepts: Vec<String>,
    /// An issue-tracker (Beads) id.
    #[serde(default)]
    bead: Option<String>,
    /// Who is writing (default: $LEXI_AUTHOR, else the git identity).
    #[serde(default)]
    author: Option<String>,
}

impl Tool for StackPost {
    type Args = StackPostArgs;
    const NAME: &'static str = "stack_post";
    const TITLE: &'static str = "Record a problem on the Stack";
    const DESCRIPTION: &'static str =
        "Record a problem you hit and could not solve at once, with the evidence (error text, \
         failing test, observed behaviour), so the next agent finds it with `stack_search`. Post \
         after a non-trivial bug took more than one attempt; then add the solution with \
         `stack_answer`. Writes .lexibrary/stack/ST-NNN-<slug>.md and returns its id.";
    const READ_ONLY: bool = false;

    fn inputs(_: &Call, _: &StackPostArgs) -> anyhow::Result<Option<Inputs>> {
        Ok(None)
    }

    fn run(call: &Call, args: StackPostArgs) -> anyhow::Result<Answer> {
        let project = call.ws.project();
        let mut files = Vec::new();
        for file in &args.files {
            let rel = call.path(file)?;
            if !project.abs(&rel).exists() {
                anyhow::bail!("files: {file} is not a file in the project");
            }
            files.push(rel);
        }
        let new = NewPost {
            title: args.title,
            tags: args.tags,
            files,
            concepts: canonical_names(project, &args.concepts)?,
            bead: args.bead,
            problem: args.problem,
            evidence: args.evidence,
            author: author(call, args.author.as_deref()),
        };
        let (id, path) = Stack::open(&call.ws).post(&new)?;
        Ok(Answer::new(
            format!("Created {id}: {path}\n"),
            serde_json::json!({"id": id, "path": path}),
        ))
    }
}

pub struct StackAnswer;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackAnswerArgs {
    /// The post id, e.g. `ST-007`.
    id: String,
    /// The answer: what solved it and why.
    body: String,
    #[serde(default)]
    author: Option<String>,
}

impl Tool for StackAnswer {
    type Args = StackAnswerArgs;
    const NAME: &'static str = "stack_answer";
    const TITLE: &'static str = "Answer a Stack post";
    const DESCRIPTION: &'static str =
        "Add a solution to a Stack post: what fixed the problem and why, so the next agent who \
         hits it can apply it. Use it on your own post once solved, or on any open post you know \
         the answer to. Appends an answer A<n> to the post file.";
    const READ_ONLY: bool = false;

    fn inputs(_: &Call, _: &StackAnswerArgs) -> anyhow::Result<Option<Inputs>> {
        Ok(None)
    }

    fn run(call: &Call, args: StackAnswerArgs) -> anyhow::Result<Answer> {
        let who = author(call, args.author.as_deref());
        let (id, number) = Stack::open(&call.ws).answer(&args.id, &args.body, &who)?;
        Ok(Answer::new(
            format!("Added A{number} to {id}\n"),
            serde_json::json!({"id": id, "answer": number}),
        ))
    }
}

pub struct StackVote;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct StackVoteArgs {
    /// The post id, e.g. `ST-007`.
    id: String,
    /// `up` (it helped) or `down` (it is wrong or misleading; needs `comment`).
    #[schemars(with = "DirectionName")]
    direction: Direction,
    /// Vote on this answer (A1 is 1) instead of the post.
    #[serde(default)]
    answer: Option<u32>,
    /// Why; required for a downvote. Kept in the post as a comment.
    #[serde(default)]
    comment: Option<String>,
    #[serde(default)]
    author: Option<String>,
}

impl Tool for StackVote {
    type Args = StackVoteArgs;
    const NAME: &'static str = "stack_vote";
    const TITLE: &'static str = "Vote on a Stack post or answer";
    const DESCRIPTION: &'static str = "Say whether a Stack post or one of its answers helped: `up` when it worked for you, `down` \
         with a comment when it is wrong or outdated. Votes rank answers for the next agent and \
         are recorded in the post and its history.";
    const READ_ONLY: bool = false;

    fn inputs(_: &Call, _: &StackVoteArgs) -> anyhow::Result<Option<Inputs>> {
        Ok(None)
    }

    fn run(call: &Call, args: StackVoteArgs) -> anyhow::Result<Answer> {
        let who = author(call, args.author.as_deref());
        let stack = Stack::open(&call.ws);
        let (id, net) = stack.vote(
            &args.id,
            args.answer,
            args.direction,
            args.comment.as_deref(),
            &who,
        )?;
        let on = args.answer.map(|n| format!(" A{n}")).unwrap_or_default();
        Ok(Answer::new(
            format!("{id}{on}: ▲{net}\n"),
            serde_json::json!({"id": id, "answer": args.answer, "votes": net, "history": stack.has_history()}),
        ))
    }
}

pub struct IwhRead;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IwhReadArgs {
    /// The directory, relative to the project root (`.` for the project).
    dir: String,
    /// Show the note without consuming it.
    #[serde(default)]
    peek: bool,
}

impl Tool for IwhRead {
    type Args = IwhReadArgs;
    const NAME: &'static str = "iwh_read";
    const TITLE: &'static str = "Read an I Was Here note";
    const DESCRIPTION: &'static str =
        "Read the note another agent left in a directory (work left unfinished, something broken, \
         a warning) before working there. Reading consumes the note (it is deleted) unless \
         `peek: true`; act on it. Tiny; answers that no note waits when there is none.";
    const READ_ONLY: bool = false;

    fn inputs(_: &Call, _: &IwhReadArgs) -> anyhow::Result<Option<Inputs>> {
        Ok(None)
    }

    fn run(call: &Call, args: IwhReadArgs) -> anyhow::Result<Answer> {
        let project = call.ws.project();
        let dir = call.path(&args.dir)?;
        let Some((found, claimed)) = iwh::read(project, &dir, args.peek)? else {
            let shown = if dir.is_empty() { "." } else { dir.as_str() };
            return Ok(Answer::new(
                format!("No note waits in {shown}.\n"),
                serde_json::json!({"directory": dir, "found": null, "consumed": false}),
            ));
        };
        let consumed = claimed.taken();
        let answer = Answer::new(
            found.to_text(),
            serde_json::json!({"directory": dir, "found": found, "consumed": consumed}),
        );
        claimed.consume()?;
        Ok(answer)
    }
}

pub struct IwhWrite;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct IwhWriteArgs {
    /// The directory the note is about, relative to the project root (`.` for the project).
    dir: String,
    /// warning: be aware; incomplete: work started, not finished; blocked: broken, fix first.
    #[schemars(with = "IwhScopeName")]
    scope: IwhScope,
    /// The note: what is unfinished or broken, and what the next agent should do.
    body: String,
    #[serde(default)]
    author: Option<String>,
    /// Replace a note that is already waiting there.
    #[serde(default)]
    replace: bool,
}

impl Tool for IwhWrite {
    type Args = IwhWriteArgs;
    const NAME: &'static str = "iwh_write";
    const TITLE: &'static str = "Leave an I Was Here note";
    const DESCRIPTION: &'static str =
        "Leave a short note in a directory for the next agent when you stop with something \
         unfinished, broken or surprising there. Do not leave one when the work is complete. The \
         note is gitignored and consumed by the next reader (`iwh_read`).";
    const READ_ONLY: bool = false;

    fn inputs(_: &Call, _: &IwhWriteArgs) -> anyhow::Result<Option<Inputs>> {
        Ok(None)
    }

    fn run(call: &Call, args: IwhWriteArgs) -> anyhow::Result<Answer> {
        let project = call.ws.project();
        iwh::ensure_enabled(project)?;
        let dir = call.path(&args.dir)?;
        let who = author(call, args.author.as_deref());
        let path = iwh::write(project, &dir, args.scope, &args.body, &who, args.replace)?;
        let shown = if dir.is_empty() { "." } else { dir.as_str() };
        Ok(Answer::new(
            format!("Left a {} note in {shown} ({path})\n", args.scope.as_str()),
            serde_json::json!({"directory": dir, "path": path, "scope": args.scope.as_str(), "author": who}),
        ))
    }
}

pub struct ConventionAdd;

#[derive(Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ConventionAddArgs {
    /// The directory the rule applies to, relative to the project root (`.` for everything).
    dir: String,
    /// The rule: one sentence saying what to do (or never do) there.
    rule: String,
    /// Tags, shared with design files, concepts and Stack posts.
    #[serde(default)]
    tags: Vec<String>,
    /// Concepts the rule follows from, by name, title or alias.
    #[serde(default)]
    concepts: Vec<String>,
}

impl Tool for ConventionAdd {
    type Args = ConventionAddArgs;
    const NAME: &'static str = "convention_add";
    const TITLE: &'static str = "Record a Local Convention";
    const DESCRIPTION: &'static str =
        "Record a rule that everyone working below a directory must follow (\"handlers return a \
         Response\", \"times are UTC\"), found the hard way or agreed with the user. It is shown by \
         `lookup` and `context` for every file below, and found by `search`. Appends one line to \
         the Local Conventions of the directory's .aindex; the same rule twice is recorded once.";
    const READ_ONLY: bool = false;

    fn inputs(_: &Call, _: &ConventionAddArgs) -> anyhow::Result<Option<Inputs>> {
        Ok(None)
    }

    fn run(call: &Call, args: ConventionAddArgs) -> anyhow::Result<Answer> {
        let dir = call.path(&args.dir)?;
        let new = crate::knowledge::conventions::NewConvention {
            rule: args.rule,
            tags: args.tags,
            concepts: args.concepts,
        };
        let added = crate::knowledge::conventions::add(call.ws.project(), &dir, &new)?;
        let text = if added.changed {
            format!("Added to {}: - {}\n", added.path, added.convention)
        } else {
            format!(
                "{} already has this convention; nothing to do\n",
                added.path
            )
        };
        Ok(Answer::new(text, serde_json::to_value(&added)?))
    }
}
