//! `lexi stack …`: the Stack, the library's Q&A of problems hit and how they were solved (seed §6).
//! Posting, answering, commenting, voting, accepting, viewing, listing, searching, status changes and
//! the vote history kept in git notes.

use std::path::{Path, PathBuf};

use anyhow::bail;

use crate::cli::output::{piped_stdin, print_json, print_text};
use crate::cli::{Context, Format, Outcome};
use crate::knowledge::concepts::canonical_names;
use crate::knowledge::corpus::DocKind;
use crate::knowledge::search::Query;
use crate::knowledge::stack::{Direction, NewPost, Stack};
use crate::knowledge::stack_view::{
    history_text, listing_text, post_json, post_text, search_posts,
};
use crate::library::stack::PostStatus;
use crate::project::{paths, Project};
use crate::workspace::Workspace;

/// Record and find problems, evidence and solutions.
///
/// Search before you debug: `lexi stack search <words>`. When you solve something a future agent
/// could hit again, post it with the evidence (an error, a failing test, observed behaviour) and
/// answer it. Posts are plain files in .lexibrary/stack/; votes and status changes are also kept as
/// history in git notes (refs/notes/lexibrarian/stack).
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lexi stack search timezone               has anyone hit this before?
  lexi stack view ST-001
  lexi stack post --title \"…\" --problem \"…\" --evidence \"…\"
  lexi stack answer ST-001 --body \"Use aware datetimes everywhere\"
  lexi stack accept ST-001 --answer 1")]
pub struct Args {
    #[command(subcommand)]
    pub command: Command,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

#[derive(Debug, clap::Subcommand)]
pub enum Command {
    /// Create a post (the problem may be piped on stdin).
    #[command(
        after_help = "Example:\n  lexi stack post --title \"Naive datetimes corrupt data\" --tag datetime \\\n    --file src/models/event.py --problem \"datetime.now() is naive\" \\\n    --evidence \"TypeError: can't compare offset-naive and offset-aware datetimes\""
    )]
    Post {
        /// A one-line summary of the problem, as someone hitting it would search for it.
        #[arg(long)]
        title: String,
        /// A tag (repeatable or comma-separated); shared with concepts and design files.
        #[arg(long = "tag", value_delimiter = ',')]
        tags: Vec<String>,
        /// A source file the post is about, relative to the current directory (repeatable).
        #[arg(long = "file")]
        files: Vec<PathBuf>,
        /// A concept the post relates to, by name, title or alias (repeatable).
        #[arg(long = "concept")]
        concepts: Vec<String>,
        /// An issue-tracker (Beads) id.
        #[arg(long)]
        bead: Option<String>,
        /// What goes wrong. Read from stdin when omitted.
        #[arg(long)]
        problem: Option<String>,
        /// Required: the error, failing test or observed behaviour that shows it.
        #[arg(long)]
        evidence: String,
        /// Who is writing (default: $LEXI_AUTHOR, else the git identity).
        #[arg(long)]
        author: Option<String>,
    },
    /// Add an answer (the body may be piped on stdin).
    #[command(
        after_help = "Examples:\n  lexi stack answer ST-001 --body \"Store UTC; convert at the edges\"\n  git diff | lexi stack answer ST-001"
    )]
    Answer {
        /// The post, e.g. ST-001.
        id: String,
        /// The answer: what solved it and why. Read from stdin when omitted.
        #[arg(long)]
        body: Option<String>,
        /// Who is writing (default: $LEXI_AUTHOR, else the git identity).
        #[arg(long)]
        author: Option<String>,
    },
    /// Comment on a post or, with --answer, on one of its answers.
    #[command(
        after_help = "Examples:\n  lexi stack comment ST-001 --body \"Also happens on Windows\"\n  lexi stack comment ST-001 --answer 1 --body \"Needs Python 3.11\""
    )]
    Comment {
        /// The post, e.g. ST-001.
        id: String,
        /// The answer number (A1 is 1).
        #[arg(long)]
        answer: Option<u32>,
        /// The comment. Read from stdin when omitted.
        #[arg(long)]
        body: Option<String>,
        /// Who is writing (default: $LEXI_AUTHOR, else the git identity).
        #[arg(long)]
        author: Option<String>,
    },
    /// Vote a post or an answer up or down; a downvote needs --comment.
    #[command(
        after_help = "Examples:\n  lexi stack vote ST-001 up\n  lexi stack vote ST-001 --answer 2 down --comment \"misses call sites\""
    )]
    Vote {
        /// The post, e.g. ST-001.
        id: String,
        /// `up` or `down`.
        #[arg(value_enum)]
        direction: Direction,
        /// Vote on this answer (A1 is 1) instead of the post.
        #[arg(long)]
        answer: Option<u32>,
        /// Why; kept in the post as a comment marked [upvote] or [downvote].
        #[arg(long)]
        comment: Option<String>,
        /// Who is voting (default: $LEXI_AUTHOR, else the git identity).
        #[arg(long)]
        author: Option<String>,
    },
    /// Accept an answer: the post becomes resolved.
    #[command(after_help = "Example:\n  lexi stack accept ST-001 --answer 1")]
    Accept {
        /// The post, e.g. ST-001.
        id: String,
        /// The answer that solved it (A1 is 1).
        #[arg(long)]
        answer: u32,
        /// Who is accepting (default: $LEXI_AUTHOR, else the git identity).
        #[arg(long)]
        author: Option<String>,
    },
    /// Show a post with its answers, scores and comments.
    #[command(
        after_help = "Examples:\n  lexi stack view ST-001\n  lexi stack view ST-001 --format json"
    )]
    View {
        /// The post, e.g. ST-001.
        id: String,
    },
    /// List posts.
    #[command(
        after_help = "Examples:\n  lexi stack list\n  lexi stack list --status open --tag datetime"
    )]
    List {
        /// Only posts with this status.
        #[arg(long, value_enum)]
        status: Option<PostStatus>,
        /// Only posts with this tag.
        #[arg(long)]
        tag: Option<String>,
    },
    /// Search posts (words, tag, files under a path, a concept, a status).
    #[command(
        after_help = "Examples:\n  lexi stack search naive datetime\n  lexi stack search --scope src/models --status resolved"
    )]
    Search {
        /// Words to search the posts for (ranked as `lexi search` ranks them).
        query: Vec<String>,
        /// Only posts with this tag.
        #[arg(long)]
        tag: Option<String>,
        /// Posts about files under this path (relative to the current directory).
        #[arg(long)]
        scope: Option<PathBuf>,
        /// Posts that reference this concept (name, title or alias).
        #[arg(long)]
        concept: Option<String>,
        /// Only posts with this status.
        #[arg(long, value_enum)]
        status: Option<PostStatus>,
    },
    /// Mark a post outdated (its solution may no longer apply).
    #[command(
        after_help = "Example:\n  lexi stack mark-outdated ST-001 --reason \"the ORM now stores UTC\""
    )]
    MarkOutdated {
        /// The post, e.g. ST-001.
        id: String,
        /// Why it is outdated.
        #[arg(long)]
        reason: Option<String>,
        /// Who is marking it (default: $LEXI_AUTHOR, else the git identity).
        #[arg(long)]
        author: Option<String>,
    },
    /// Mark a post a duplicate of another.
    #[command(after_help = "Example:\n  lexi stack duplicate ST-004 --of ST-001")]
    Duplicate {
        /// The duplicate post, e.g. ST-004.
        id: String,
        /// The post it duplicates, e.g. ST-001.
        #[arg(long)]
        of: String,
        /// Who is marking it (default: $LEXI_AUTHOR, else the git identity).
        #[arg(long)]
        author: Option<String>,
    },
    /// The post's vote, accept and status history from git notes.
    #[command(
        after_help = "Examples:\n  lexi stack history ST-001\n  lexi stack history ST-001 --format json"
    )]
    History {
        /// The post, e.g. ST-001.
        id: String,
    },
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let ws = ctx.workspace()?;
    let session = Session {
        ctx,
        ws: &ws,
        stack: Stack::open(&ws),
        json: ctx.format == Format::Json,
    };
    match &args.command {
        Command::Post {
            title,
            tags,
            files,
            concepts,
            bead,
            problem,
            evidence,
            author,
        } => {
            let new = NewPost {
                title: title.clone(),
                tags: tags.clone(),
                files: session.project_files(files)?,
                concepts: canonical_names(ws.project(), concepts)?,
                bead: bead.clone(),
                problem: body_or_stdin(problem)?,
                evidence: evidence.clone(),
                author: session.who(author),
            };
            session.post(&new)?;
        }
        Command::Answer { id, body, author } => session.answer(id, body, author)?,
        Command::Comment {
            id,
            answer,
            body,
            author,
        } => session.comment(id, *answer, body, author)?,
        Command::Vote {
            id,
            direction,
            answer,
            comment,
            author,
        } => session.vote(id, *answer, *direction, comment.as_deref(), author)?,
        Command::Accept { id, answer, author } => session.accept(id, *answer, author)?,
        Command::View { id } => session.view(id)?,
        Command::List { status, tag } => {
            let query = Query {
                kinds: vec![DocKind::Stack],
                tag: tag.clone(),
                status: status.map(|s| s.as_str().to_string()),
                ..Query::default()
            };
            print_hits(ws.project(), &query, session.json, "No Stack posts.")?;
        }
        Command::Search {
            query,
            tag,
            scope,
            concept,
            status,
        } => session.search(query, tag, scope.as_deref(), concept.as_deref(), *status)?,
        Command::MarkOutdated { id, reason, author } => {
            let (id, changed) =
                session
                    .stack
                    .mark_outdated(id, reason.as_deref(), &session.who(author))?;
            status_changed(session.json, &id, "outdated", changed)?;
        }
        Command::Duplicate { id, of, author } => {
            let (id, changed) = session.stack.duplicate(id, of, &session.who(author))?;
            status_changed(session.json, &id, "duplicate", changed)?;
        }
        Command::History { id } => session.history(id)?,
    }
    Ok(Outcome::Ok)
}

/// What every `lexi stack` subcommand uses: the opened Stack, where the caller is, the format.
struct Session<'w> {
    ctx: &'w Context,
    ws: &'w Workspace,
    stack: Stack<'w>,
    json: bool,
}

impl Session<'_> {
    /// Who is writing (`--author`, else `LEXI_AUTHOR`, else the git identity).
    fn who(&self, author: &Option<String>) -> String {
        crate::knowledge::author(author.as_deref(), self.ws)
    }

    /// `--file` arguments as project-relative paths of existing files.
    fn project_files(&self, files: &[PathBuf]) -> anyhow::Result<Vec<String>> {
        let project = self.ws.project();
        files
            .iter()
            .map(|file| {
                let rel = paths::resolve(&project.root, &self.ctx.cwd, file)?;
                if !project.abs(&rel).exists() {
                    bail!("--file {}: no such file in the project", file.display());
                }
                Ok(rel)
            })
            .collect()
    }

    fn post(&self, new: &NewPost) -> anyhow::Result<()> {
        let (id, path) = self.stack.post(new)?;
        if self.json {
            print_json(&serde_json::json!({"id": id, "path": path}))
        } else {
            print_text(&format!("Created {id}: {path}\n"))
        }
    }

    fn answer(
        &self,
        id: &str,
        body: &Option<String>,
        author: &Option<String>,
    ) -> anyhow::Result<()> {
        let body = body_or_stdin(body)?;
        let (id, number) = self.stack.answer(id, &body, &self.who(author))?;
        if self.json {
            print_json(&serde_json::json!({"id": id, "answer": number}))
        } else {
            print_text(&format!("Added A{number} to {id}\n"))
        }
    }

    fn comment(
        &self,
        id: &str,
        answer: Option<u32>,
        body: &Option<String>,
        author: &Option<String>,
    ) -> anyhow::Result<()> {
        let body = body_or_stdin(body)?;
        let id = self.stack.comment(id, answer, &body, &self.who(author))?;
        let on = answer.map(|n| format!(" A{n}")).unwrap_or_default();
        if self.json {
            print_json(&serde_json::json!({"id": id, "answer": answer}))
        } else {
            print_text(&format!("Commented on {id}{on}\n"))
        }
    }

    fn vote(
        &self,
        id: &str,
        answer: Option<u32>,
        direction: Direction,
        comment: Option<&str>,
        author: &Option<String>,
    ) -> anyhow::Result<()> {
        let (id, net) = self
            .stack
            .vote(id, answer, direction, comment, &self.who(author))?;
        let on = answer.map(|n| format!(" A{n}")).unwrap_or_default();
        if self.json {
            print_json(
                &serde_json::json!({"id": id, "answer": answer, "votes": net, "history": self.stack.has_history()}),
            )
        } else {
            print_text(&format!("{id}{on}: ▲{net}\n"))
        }
    }

    fn accept(&self, id: &str, answer: u32, author: &Option<String>) -> anyhow::Result<()> {
        let id = self.stack.accept(id, answer, &self.who(author))?;
        if self.json {
            print_json(&serde_json::json!({"id": id, "answer": answer, "status": "resolved"}))
        } else {
            print_text(&format!("Accepted A{answer}; {id} is resolved\n"))
        }
    }

    fn view(&self, id: &str) -> anyhow::Result<()> {
        let (path, post) = self.stack.find(id)?;
        let outdated = self.stack.outdated(&path, &post);
        if self.json {
            let mut json = post_json(&path, &post);
            json["possibly_outdated"] = serde_json::json!(outdated);
            print_json(&json)
        } else {
            let mut text = String::new();
            if let Some(outdated) = &outdated {
                text.push_str(&format!(
                    "> ⚠️ Possibly outdated: since this post was written (commit {}), {}. {}\n\n",
                    outdated.since.short(),
                    outdated.describe(),
                    outdated.hint()
                ));
            }
            text.push_str(&post_text(&path, &post));
            print_text(&text)
        }
    }

    fn search(
        &self,
        words: &[String],
        tag: &Option<String>,
        scope: Option<&Path>,
        concept: Option<&str>,
        status: Option<PostStatus>,
    ) -> anyhow::Result<()> {
        let project = self.ws.project();
        let text = words.join(" ");
        let scope = match scope {
            Some(scope) => Some(paths::resolve(&project.root, &self.ctx.cwd, scope)?),
            None => None,
        };
        let concept = match concept {
            Some(name) => Some(canonical_names(project, &[name.to_string()])?.remove(0)),
            None => None,
        };
        let query = Query {
            text: (!text.trim().is_empty()).then_some(text),
            tag: tag.clone(),
            scope,
            kinds: vec![DocKind::Stack],
            status: status.map(|s| s.as_str().to_string()),
            concept,
            ..Query::default()
        };
        print_hits(project, &query, self.json, "No matching Stack posts.")
    }

    fn history(&self, id: &str) -> anyhow::Result<()> {
        let history = self.stack.history(id)?;
        if self.json {
            print_json(&history)
        } else {
            print_text(&history_text(&history))
        }
    }
}

fn body_or_stdin(body: &Option<String>) -> anyhow::Result<String> {
    Ok(match body {
        Some(body) => body.clone(),
        None => piped_stdin()?.unwrap_or_default(),
    })
}

fn print_hits(project: &Project, query: &Query, json: bool, empty: &str) -> anyhow::Result<()> {
    let hits = search_posts(project, query);
    if json {
        return print_json(&serde_json::json!({ "posts": hits }));
    }
    print_text(&listing_text(&hits, empty))
}

fn status_changed(json: bool, id: &str, status: &str, changed: bool) -> anyhow::Result<()> {
    if json {
        print_json(&serde_json::json!({"id": id, "status": status, "changed": changed}))
    } else if changed {
        print_text(&format!("{id} is now {status}\n"))
    } else {
        print_text(&format!("{id} already is {status}; nothing changed\n"))
    }
}
