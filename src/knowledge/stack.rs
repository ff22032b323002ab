//! Stack operations: posting, answering, commenting, voting, accepting and status changes, with every
//! vote, accept and status change also appended to the post's history in git notes (DESIGN G-3).
//!
//! Every write holds the `stack` lock for its whole read-modify-write, so parallel agents get distinct
//! ids and no lost votes. A change and its event are recorded together or not at all
//! ([`Stack::write_with_events`]): the new post is built in memory and written in full under a
//! temporary name beside the post (where a full disk or a read-only directory fails, before anything
//! is recorded), the event is appended to `refs/notes/lexibrarian/stack` (compare-and-swap,
//! lossless), then the post is renamed into place; should that rename fail, the event is taken back.
//! A failure at any step leaves the post and its history as they were.
//!
//! Outside a git repository the Stack works the same from frontmatter alone; `history` then says that
//! the history is unavailable.

use std::path::PathBuf;

use anyhow::{bail, Context as _};

use crate::atomic;
use crate::git::notes::{NoteAppend, STACK_NOTES};
use crate::git::GitRepo;
use crate::library::events::{StackEvent, StackEventKind};
use crate::library::footer::{now_rfc3339, now_rfc3339_millis};
use crate::library::stack::{
    id_from_file_name, slug, Comment, Post, PostMeta, PostRefs, PostStatus, STACK_DIR,
};
use crate::library::votes::tally;
use crate::library::wikilink;
use crate::project::{Project, LIBRARY_DIR};
use crate::workspace::lock::LibraryLock;
use crate::workspace::Workspace;

/// What `lexi stack post` needs.
#[derive(Clone, Debug, Default)]
pub struct NewPost {
    pub title: String,
    pub tags: Vec<String>,
    /// Project-relative source files the post is about.
    pub files: Vec<String>,
    /// Canonical concept names.
    pub concepts: Vec<String>,
    pub bead: Option<String>,
    pub problem: String,
    pub evidence: String,
    pub author: String,
}

/// A vote's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    Up,
    Down,
}

/// A post's history from the notes.
#[derive(Clone, Debug, serde::Serialize)]
pub struct History {
    pub post: String,
    /// False outside git: only the frontmatter's current state exists.
    pub available: bool,
    pub events: Vec<StackEvent>,
    /// Lines in the note that are not events we understand, kept and shown as is.
    pub unreadable: Vec<String>,
    /// Net post score according to the history (vote events without an answer).
    pub net_votes: i64,
}

/// How a post file is put in place.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// A new post: only where no file is (an id is never reused).
    New,
    /// A post that exists: replaced.
    Replace,
}

/// The Stack of one project.
pub struct Stack<'w> {
    ws: &'w Workspace,
    project: &'w Project,
}

impl<'w> Stack<'w> {
    /// Open the Stack; git notes are used when the project is inside a git working tree.
    pub fn open(ws: &'w Workspace) -> Stack<'w> {
        Stack {
            ws,
            project: ws.project(),
        }
    }

    /// Whether vote history goes to git notes.
    pub fn has_history(&self) -> bool {
        self.git().is_ok_and(|git| git.is_some())
    }

    /// The repository whose notes hold the history (opened on first use); `None` outside git, an
    /// error for a repository that cannot be read (never a history silently not kept).
    fn git(&self) -> anyhow::Result<Option<&'w GitRepo>> {
        self.ws.discovered_repo()
    }

    fn dir(&self) -> PathBuf {
        self.project.library_dir().join(STACK_DIR)
    }

    fn lock(&self) -> anyhow::Result<LibraryLock> {
        LibraryLock::acquire_named(self.project, "stack")
    }

    /// The project-relative path and parsed post for `id` (any case, `ST-7` = `ST-007`).
    pub fn find(&self, id: &str) -> anyhow::Result<(String, Post)> {
        find(self.project, id)
    }

    /// `lexi stack post`: allocate the next id and write the post. Returns the id and path.
    pub fn post(&self, new: &NewPost) -> anyhow::Result<(String, String)> {
        if new.title.trim().is_empty() {
            bail!("a post needs a --title");
        }
        if new.evidence.trim().is_empty() {
            bail!("a post needs --evidence: a specific error, test failure or observed behaviour (no speculation)");
        }
        if new.problem.trim().is_empty() {
            bail!("a post needs a problem: pass --problem or pipe it on stdin");
        }
        let _lock = self.lock()?;
        let dir = self.dir();
        std::fs::create_dir_all(&dir)
            .with_context(|| format!("cannot create {}", dir.display()))?;
        let next = self.highest_id()? + 1;
        let id = wikilink::format_stack_id(next);
        let name = format!("{id}-{}.md", slug(&new.title));
        let rel = format!("{LIBRARY_DIR}/{STACK_DIR}/{name}");
        let designs = new
            .files
            .iter()
            .map(|file| crate::project::mirror::design_path(file))
            .filter_map(|design| {
                design
                    .strip_prefix(&format!("{LIBRARY_DIR}/"))
                    .map(str::to_string)
            })
            .collect();
        let meta = PostMeta {
            id: id.clone(),
            title: new.title.trim().to_string(),
            tags: normalise_tags(&new.tags),
            status: PostStatus::Open,
            created: now_rfc3339(),
            author: new.author.clone(),
            bead: new.bead.clone(),
            refs: PostRefs {
                concepts: new.concepts.clone(),
                files: new.files.clone(),
                designs,
            },
            ..PostMeta::default()
        };
        let post = Post::new(meta, &new.problem, &new.evidence);
        let mut event = self.event(&id, StackEventKind::Created, &new.author);
        event.commit = self.ws.head().map(crate::git::Oid::to_hex);
        // Exclusive: an id is never reused, even by a writer that ignores our lock.
        self.write_with_events(&rel, &post, &[event], Place::New)?;
        Ok((id, rel))
    }

    /// The highest id number among existing post files (0 when none).
    fn highest_id(&self) -> anyhow::Result<u32> {
        let dir = self.dir();
        let mut highest = 0;
        for entry in
            std::fs::read_dir(&dir).with_context(|| format!("cannot read {}", dir.display()))?
        {
            let entry = entry.with_context(|| format!("cannot read {}", dir.display()))?;
            if let Some(id) = entry.file_name().to_str().and_then(id_from_file_name) {
                if let Ok(number) = id[3..].parse::<u32>() {
                    highest = highest.max(number);
                }
            }
        }
        Ok(highest)
    }

    /// `lexi stack answer`: append an answer; returns its number.
    pub fn answer(&self, id: &str, body: &str, author: &str) -> anyhow::Result<(String, u32)> {
        if body.trim().is_empty() {
            bail!("an answer needs a body: pass --body or pipe it on stdin");
        }
        let _lock = self.lock()?;
        let (rel, mut post) = self.find(id)?;
        let number = post.append_answer(&now_rfc3339(), author, body);
        self.write(&rel, &post)?;
        Ok((post.meta.id, number))
    }

    /// `lexi stack comment`: append a comment to the post or one of its answers.
    pub fn comment(
        &self,
        id: &str,
        answer: Option<u32>,
        body: &str,
        author: &str,
    ) -> anyhow::Result<String> {
        if body.trim().is_empty() {
            bail!("a comment needs a body: pass --body or pipe it on stdin");
        }
        let _lock = self.lock()?;
        let (rel, mut post) = self.find(id)?;
        let comment = Comment {
            date: now_rfc3339(),
            author: author.to_string(),
            context: None,
            text: body.to_string(),
        };
        if !post.append_comment(answer, &comment) {
            bail!("{} has no answer A{}", post.meta.id, answer.unwrap_or(0));
        }
        self.write(&rel, &post)?;
        Ok(post.meta.id)
    }

    /// `lexi stack vote`: change the net score of the post or an answer; a downvote needs a comment,
    /// which is appended with `[downvote]` (an upvote's optional comment with `[upvote]`). Returns the
    /// new net score.
    pub fn vote(
        &self,
        id: &str,
        answer: Option<u32>,
        direction: Direction,
        comment: Option<&str>,
        author: &str,
    ) -> anyhow::Result<(String, i64)> {
        let comment = comment.map(str::trim).filter(|c| !c.is_empty());
        if direction == Direction::Down && comment.is_none() {
            bail!("a downvote needs --comment saying why (it is kept in the post with [downvote])");
        }
        let _lock = self.lock()?;
        let (rel, mut post) = self.find(id)?;
        let delta = match direction {
            Direction::Up => 1,
            Direction::Down => -1,
        };
        if let Some(number) = answer {
            if !post.has_answer(number) {
                bail!(
                    "{} has no answer A{number}; `lexi stack view {}` lists them",
                    post.meta.id,
                    post.meta.id
                );
            }
        }
        // The score the vote adds to: the history's net when the history here is complete (which
        // also repairs a count that a merge of two clones' frontmatter got wrong), else the count
        // as it is — never lowered from a history that lacks other clones' votes.
        let events = self.recorded(&post.meta.id);
        let count = match answer {
            None => &mut post.meta.votes,
            Some(number) => post.meta.answer_votes.entry(number).or_insert(0),
        };
        let before = match &events {
            Some(events) => tally(events, answer, *count).reconcile(*count),
            None => *count,
        };
        *count = before + delta;
        let net = *count;
        if let Some(text) = comment {
            let context = match direction {
                Direction::Up => "upvote",
                Direction::Down => "downvote",
            };
            post.append_comment(
                answer,
                &Comment {
                    date: now_rfc3339(),
                    author: author.to_string(),
                    context: Some(context.to_string()),
                    text: text.to_string(),
                },
            );
        }
        let mut event = self.event(&post.meta.id, StackEventKind::Vote, author);
        event.answer = answer;
        event.delta = Some(delta);
        event.before = Some(before);
        event.comment = comment.map(str::to_string);
        self.write_with_events(&rel, &post, &[event], Place::Replace)?;
        Ok((post.meta.id, net))
    }

    /// `lexi stack accept`: mark an answer accepted and the post resolved.
    pub fn accept(&self, id: &str, answer: u32, author: &str) -> anyhow::Result<String> {
        let _lock = self.lock()?;
        let (rel, mut post) = self.find(id)?;
        if !post.has_answer(answer) {
            bail!(
                "{} has no answer A{answer}; `lexi stack view {}` lists them",
                post.meta.id,
                post.meta.id
            );
        }
        if let Some(accepted) = post.meta.accepted_answer {
            if accepted == answer {
                bail!("{}: answer A{answer} is already accepted", post.meta.id);
            }
            bail!(
                "{} already has an accepted answer (A{accepted}); one answer is accepted per post",
                post.meta.id
            );
        }
        let from = post.meta.status;
        post.meta.accepted_answer = Some(answer);
        post.meta.status = PostStatus::Resolved;
        let mut event = self.event(&post.meta.id, StackEventKind::Accept, author);
        event.answer = Some(answer);
        event.status = Some(PostStatus::Resolved.as_str().into());
        event.from = Some(from.as_str().into());
        self.write_with_events(&rel, &post, &[event], Place::Replace)?;
        Ok(post.meta.id)
    }

    /// `lexi stack mark-outdated`. Returns false if it already was.
    pub fn mark_outdated(
        &self,
        id: &str,
        reason: Option<&str>,
        author: &str,
    ) -> anyhow::Result<(String, bool)> {
        self.set_status(id, PostStatus::Outdated, None, reason, author)
    }

    /// `lexi stack duplicate <id> --of <other>`.
    pub fn duplicate(&self, id: &str, of: &str, author: &str) -> anyhow::Result<(String, bool)> {
        let (_, original) = self.find(of)?;
        let Some(this) = wikilink::stack_id(id.trim()) else {
            bail!("{id:?} is not a Stack post id; ids look like ST-001");
        };
        if original.meta.id == this {
            bail!("a post cannot be a duplicate of itself");
        }
        self.set_status(
            id,
            PostStatus::Duplicate,
            Some(original.meta.id),
            None,
            author,
        )
    }

    fn set_status(
        &self,
        id: &str,
        status: PostStatus,
        duplicate_of: Option<String>,
        reason: Option<&str>,
        author: &str,
    ) -> anyhow::Result<(String, bool)> {
        let _lock = self.lock()?;
        let (rel, mut post) = self.find(id)?;
        let same_pointer = duplicate_of.is_none() || duplicate_of == post.meta.duplicate_of;
        if post.meta.status == status && same_pointer {
            return Ok((post.meta.id, false));
        }
        let from = post.meta.status;
        post.meta.status = status;
        if duplicate_of.is_some() {
            post.meta.duplicate_of = duplicate_of.clone();
        }
        let mut event = self.event(&post.meta.id, StackEventKind::Status, author);
        event.status = Some(status.as_str().into());
        event.from = Some(from.as_str().into());
        event.of = duplicate_of;
        event.comment = reason.map(str::to_string);
        self.write_with_events(&rel, &post, &[event], Place::Replace)?;
        Ok((post.meta.id, true))
    }

    /// Whether the post (found at project-relative `rel`) may be outdated: its files changed a lot
    /// since it was written (`knowledge::stack_outdated`; needs git).
    pub fn outdated(&self, rel: &str, post: &Post) -> Option<super::stack_outdated::Outdated> {
        let git = self.git().ok()??;
        let prefix = self.ws.prefix()?;
        super::stack_outdated::outdated(git, prefix, rel, post)
    }

    /// `lexi stack history`: the events recorded for a post.
    pub fn history(&self, id: &str) -> anyhow::Result<History> {
        let (_, post) = self.find(id)?;
        let id = post.meta.id;
        let Some(git) = self.git()? else {
            return Ok(History {
                post: id,
                available: false,
                events: Vec::new(),
                unreadable: Vec::new(),
                net_votes: post.meta.votes,
            });
        };
        let (mut events, unreadable) = recorded_events(git, &id)?;
        // Stable: events within the same millisecond keep their order in the note.
        events.sort_by(|a, b| a.ts.cmp(&b.ts));
        let net_votes = net_votes(&events, None);
        Ok(History {
            post: id,
            available: true,
            events,
            unreadable,
            net_votes,
        })
    }

    /// The events recorded for post `id`, if git is here.
    fn recorded(&self, id: &str) -> Option<Vec<StackEvent>> {
        recorded_events(self.git().ok()??, id)
            .ok()
            .map(|(events, _)| events)
    }

    fn event(&self, post: &str, kind: StackEventKind, author: &str) -> StackEvent {
        StackEvent::new(
            now_rfc3339_millis(),
            crate::git::notes::event_id(post),
            kind,
            post,
            author,
        )
    }

    /// Write `post` to `rel` with `events` appended to its history, or neither (module docs): the
    /// post staged in full first, then the events recorded, then the post renamed into place — and
    /// the events taken back if that fails.
    fn write_with_events(
        &self,
        rel: &str,
        post: &Post,
        events: &[StackEvent],
        place: Place,
    ) -> anyhow::Result<()> {
        let verb = match place {
            Place::New => "create",
            Place::Replace => "write",
        };
        let staged = atomic::stage_under(&self.project.root, rel, post.render().as_bytes())
            .with_context(|| format!("cannot {verb} {rel}; nothing was recorded"))?;
        let recorded = self.record(&post.meta.id, events)?;
        let placed = match place {
            Place::Replace => staged.commit(),
            Place::New => staged.commit_new().and_then(|created| match created {
                true => Ok(()),
                false => Err(std::io::Error::new(
                    std::io::ErrorKind::AlreadyExists,
                    "another file took its name",
                )),
            }),
        };
        let Err(err) = placed else {
            return Ok(());
        };
        let taken_back = match (recorded, self.git()) {
            (Some(appended), Ok(Some(git))) => {
                git.undo_append(appended).map_err(|err| err.to_string())
            }
            _ => Ok(()),
        };
        Err(err).with_context(|| match taken_back {
            Ok(()) => format!("cannot {verb} {rel}; nothing was recorded"),
            Err(why) => format!(
                "cannot {verb} {rel}, and its event could not be taken back from {STACK_NOTES} ({why}); `lexictl validate` reports the count the history disagrees with"
            ),
        })
    }

    /// Append events to the post's notes: the notes commit, to take back should the post not be
    /// written (`None` outside git).
    fn record(
        &self,
        id: &str,
        events: &[StackEvent],
    ) -> anyhow::Result<Option<crate::git::notes::Appended>> {
        let Some(git) = self.git()? else {
            return Ok(None);
        };
        let anchor = git.write_blob(anchor_text(id).as_bytes())?;
        let mut lines = String::new();
        for event in events {
            lines.push_str(&event.to_line()?);
        }
        let appended = git
            .append_notes_undoable(
                STACK_NOTES,
                &[NoteAppend {
                    object: anchor,
                    lines,
                }],
                &format!(
                    "lexibrarian: {id} {}",
                    events.first().map_or("", |e| e.kind.as_str())
                ),
            )
            .with_context(|| {
                format!("cannot record the {id} event in {STACK_NOTES}; the post was not changed")
            })?;
        Ok(Some(appended))
    }

    fn write(&self, rel: &str, post: &Post) -> anyhow::Result<()> {
        self.project
            .write(rel, post.render().as_bytes())
            .with_context(|| format!("cannot write {rel}"))
    }
}

/// The project-relative path and parsed post for `id` (any case, `ST-7` = `ST-007`), from the files
/// alone (no git).
pub fn find(project: &Project, id: &str) -> anyhow::Result<(String, Post)> {
    let Some(id) = wikilink::stack_id(id.trim()) else {
        bail!("{id:?} is not a Stack post id; ids look like ST-001");
    };
    let mut matches = post_files(project, &id)?;
    if matches.len() > 1 {
        let paths: Vec<&str> = matches.iter().map(|(rel, _)| rel.as_str()).collect();
        bail!(
            "{id} is used by {} posts ({}), probably written in two clones; renumber one (file name and `id:`) before changing either",
            matches.len(),
            paths.join(", ")
        );
    }
    let Some((rel, _)) = matches.pop() else {
        bail!("no Stack post {id} in {LIBRARY_DIR}/{STACK_DIR}/; `lexi stack list` shows the posts")
    };
    let text = project
        .read_to_string(&rel)
        .with_context(|| format!("cannot read {rel}"))?;
    let post = Post::parse(&rel, &text)?;
    if post.meta.id != id {
        bail!(
            "{rel}: the file name says {id} but its frontmatter says `id: {}`; fix one of them",
            post.meta.id
        );
    }
    Ok((rel, post))
}

/// The files of the Stack whose name carries `id`, sorted: (project-relative path, full path).
fn post_files(project: &Project, id: &str) -> anyhow::Result<Vec<(String, PathBuf)>> {
    let dir = project.library_dir().join(STACK_DIR);
    let entries = match std::fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            bail!("no Stack post {id}: the Stack is empty ({LIBRARY_DIR}/{STACK_DIR}/ does not exist yet)")
        }
        Err(err) => return Err(err).with_context(|| format!("cannot read {}", dir.display())),
    };
    let mut matches: Vec<(String, PathBuf)> = entries
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().to_str()?.to_string();
            (id_from_file_name(&name).as_deref() == Some(id))
                .then(|| (format!("{LIBRARY_DIR}/{STACK_DIR}/{name}"), entry.path()))
        })
        .collect();
    matches.sort();
    Ok(matches)
}

/// The events recorded for post `id` in `refs/notes/lexibrarian/stack`, in note order, and the
/// lines that are not events we understand (kept, to be shown as they are).
pub fn recorded_events(git: &GitRepo, id: &str) -> anyhow::Result<(Vec<StackEvent>, Vec<String>)> {
    let anchor = git.blob_id(anchor_text(id).as_bytes())?;
    let note = git.note(STACK_NOTES, &anchor)?.unwrap_or_default();
    Ok(StackEvent::read_note(&note))
}

/// The net of the vote events on the post (`answer: None`) or on one answer.
pub fn net_votes(events: &[StackEvent], answer: Option<u32>) -> i64 {
    events
        .iter()
        .filter(|event| event.kind == StackEventKind::Vote && event.answer == answer)
        .filter_map(|event| event.delta)
        .sum()
}

pub use crate::library::stack::anchor_text;

fn normalise_tags(tags: &[String]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for tag in tags.iter().flat_map(|t| t.split(',')) {
        let tag = tag.trim().to_lowercase().replace(' ', "-");
        if !tag.is_empty() && !out.contains(&tag) {
            out.push(tag);
        }
    }
    out
}
