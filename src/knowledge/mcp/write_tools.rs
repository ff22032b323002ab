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
    title: String,
    problem: String,
    /// Error, failing test, behaviour.
    evidence: String,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    files: Vec<String>,
    #[serde(default)]
    concepts: Vec<String>,
    /// A Beads id.
    #[serde(default)]
    #[schemars(skip)]
    bead: Option<String>,
    #[serde(default)]
    #[schemars(skip)]
    author: Option<String>,
}

impl Tool for StackPost {
    type Args = StackPostArgs;
    const NAME: &'static str = "stack_post";
    const DESCRIPTION: &'static str =
        "Record a problem that took more than one attempt, with evidence; add the fix with \
         `stack_answer`.";
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
    id: String,
    body: String,
    #[serde(default)]
    #[schemars(skip)]
    author: Option<String>,
}

impl Tool for StackAnswer {
    type Args = StackAnswerArgs;
    const NAME: &'static str = "stack_answer";
    const DESCRIPTION: &'static str =
        "Add the fix to a Stack post (yours once solved, or any open one): what fixed it and why.";
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
    id: String,
    #[schemars(with = "DirectionName")]
    direction: Direction,
    /// The answer's number.
    #[serde(default)]
    answer: Option<u32>,
    /// Needed for `down`.
    #[serde(default)]
    comment: Option<String>,
    #[serde(default)]
    #[schemars(skip)]
    author: Option<String>,
}

impl Tool for StackVote {
    type Args = StackVoteArgs;
    const NAME: &'static str = "stack_vote";
    const DESCRIPTION: &'static str =
        "Vote on a Stack post or answer: `up` if it worked, `down` with a comment if wrong or outdated.";
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
    /// `.` for the project.
    dir: String,
    #[serde(default)]
    peek: bool,
}

impl Tool for IwhRead {
    type Args = IwhReadArgs;
    const NAME: &'static str = "iwh_read";
    const DESTRUCTIVE: bool = true;
    const DESCRIPTION: &'static str =
        "Read the note another agent left in a directory before working there (deleted unless `peek`).";
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
    /// `.` for the project.
    dir: String,
    /// `blocked`: fix first.
    #[schemars(with = "IwhScopeName")]
    scope: IwhScope,
    /// What is left, what to do.
    body: String,
    #[serde(default)]
    #[schemars(skip)]
    author: Option<String>,
    #[serde(default)]
    replace: bool,
}

impl Tool for IwhWrite {
    type Args = IwhWriteArgs;
    const NAME: &'static str = "iwh_write";
    const DESCRIPTION: &'static str =
        "Leave a note in a directory for the next agent when you stop with work unfinished there.";
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
    /// `.` for everything.
    dir: String,
    /// One sentence.
    rule: String,
    #[serde(default)]
    tags: Vec<String>,
    #[serde(default)]
    concepts: Vec<String>,
}

impl Tool for ConventionAdd {
    type Args = ConventionAddArgs;
    const NAME: &'static str = "convention_add";
    const DESCRIPTION: &'static str =
        "Record a rule for everything below a directory; `lookup` shows it for every file there.";
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
