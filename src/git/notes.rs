//! Git notes: where Lexibrarian keeps high-churn machine data (DESIGN G-3) — Stack vote history and
//! Archivist provenance — so that it never causes merge conflicts in tracked files.
//!
//! A note is a blob attached to an object id under a notes ref. Lexibrarian's notes are JSON Lines,
//! append-only, and keyed by *content* (a blob id), not by commit, so they survive amend, rebase,
//! cherry-pick and squash. Two refs are used, always by their full names (git silently rewrites a
//! short `--ref=x` to `refs/notes/x`):
//!
//! - [`STACK_NOTES`]: keyed by a post's anchor blob (`lexibrarian:stack:ST-001\n`);
//! - [`PROVENANCE_NOTES`]: keyed by the blob id of a design file as the Archivist wrote it.
//!
//! Appending is lossless under concurrency. A naive "read the note, add a line, replace the note" loses
//! lines when two processes race (FACTS §4). [`GitRepo::append_notes`] instead reads the notes ref once,
//! builds the new notes tree from that snapshot, makes a commit whose parent is that snapshot, and moves
//! the ref only if it still points at the snapshot (compare-and-swap); on a conflict the whole step is
//! redone. Many notes go into one commit.

use std::collections::HashMap;
use std::time::Duration;

use gix::refs::transaction::PreviousValue;

use super::{GitError, GitRepo, Oid};

/// Stack vote, accept and status history.
pub const STACK_NOTES: &str = "refs/notes/lexibrarian/stack";
/// Which generator wrote each design file, from what.
pub const PROVENANCE_NOTES: &str = "refs/notes/lexibrarian/provenance";

/// The committer used for notes commits when the repository has no identity configured.
pub const FALLBACK_NAME: &str = "Lexibrarian";
/// The fallback committer's email.
pub const FALLBACK_EMAIL: &str = "lexibrarian@localhost";

/// How many times a compare-and-swap append is retried before giving up.
const MAX_ATTEMPTS: u32 = 200;

/// Lines to append to the note of one object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NoteAppend {
    /// The annotated object's id.
    pub object: Oid,
    /// Text to append, one record per line. A missing final newline is added.
    pub lines: String,
}

/// A notes commit an append made: where its ref was before, and the commit it points at now.
#[derive(Debug)]
#[must_use = "an undoable append is kept to be taken back if its change fails"]
pub struct Appended {
    notes_ref: String,
    before: Option<gix::ObjectId>,
    after: gix::ObjectId,
}

/// An identity read from git configuration (`user.name`/`user.email`, `GIT_COMMITTER_*`, …).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Identity {
    pub name: String,
    pub email: String,
}

impl GitRepo {
    /// Remove the temporary pack files a killed notes append left (see `super::pack`): their
    /// paths, relative to the git directory.
    pub fn remove_pack_debris(&self) -> Vec<String> {
        let directory = self.repo.common_dir().join("objects").join("pack");
        super::pack::remove_debris(&directory)
            .into_iter()
            .map(|name| format!("objects/pack/{name}"))
            .collect()
    }

    /// Write `bytes` to the object database as a blob; returns its id.
    pub fn write_blob(&self, bytes: &[u8]) -> Result<Oid, GitError> {
        let id = self
            .repo
            .write_blob(bytes)
            .map_err(GitError::read("write a blob to the object database"))?;
        Ok(Oid::from(id.detach()))
    }

    /// The committer identity git would use, if one is configured: a name and an email, each
    /// resolved as gix resolves a committer's (`committer.*`, which `GIT_COMMITTER_*` override,
    /// then `user.*`, then — for the email — `EMAIL`), never the fallback installed when the
    /// repository was opened. Read from the configuration itself: asking gix for the committer
    /// also computes "now" in the local time zone, which reads the time zone database.
    pub fn identity(&self) -> Option<Identity> {
        use gix::config::tree::{gitoxide, Committer, User};
        let config = self.repo.config_snapshot();
        let name = config
            .string(Committer::NAME)
            .or_else(|| config.string(User::NAME))?
            .to_string();
        let email = config
            .string(Committer::EMAIL)
            .or_else(|| config.string(User::EMAIL))
            .or_else(|| config.string(gitoxide::User::EMAIL_FALLBACK))?
            .to_string();
        (!name.trim().is_empty()).then_some(Identity { name, email })
    }

    /// Whether the local `notes_ref` points where some remote's copy (as last fetched into
    /// `refs/lexibrarian/remotes/<remote>/notes/<kind>` by `lexictl notes sync`) points.
    pub fn notes_ref_on_a_remote(&self, notes_ref: &str) -> bool {
        let Ok(Some(ours)) = self.notes_commit(notes_ref) else {
            return false;
        };
        let kind = notes_ref.trim_start_matches("refs/notes/lexibrarian/");
        let remotes: Vec<String> = self
            .repo
            .remote_names()
            .into_iter()
            .map(|name| name.to_string())
            .collect();
        remotes.iter().any(|remote| {
            matches!(
                self.notes_commit(&format!("refs/lexibrarian/remotes/{remote}/notes/{kind}")),
                Ok(Some(theirs)) if theirs == ours
            )
        })
    }

    /// Whether `notes_ref` exists.
    pub fn has_notes_ref(&self, notes_ref: &str) -> bool {
        matches!(self.notes_commit(notes_ref), Ok(Some(_)))
    }

    /// Every object `notes_ref` annotates (none when the ref does not exist), read in one walk of
    /// its tree: cheaper than a lookup per object when most of them are asked about.
    pub fn annotated_objects(
        &self,
        notes_ref: &str,
    ) -> Result<std::collections::HashSet<Oid>, GitError> {
        let Some(commit) = self.notes_commit(notes_ref)? else {
            return Ok(Default::default());
        };
        Ok(self
            .all_notes(self.notes_tree(commit)?)?
            .into_iter()
            .map(|(object, _)| Oid::from(object))
            .collect())
    }

    /// The note attached to `object` under `notes_ref`, as text (lossily decoded), or `None`.
    pub fn note(&self, notes_ref: &str, object: &Oid) -> Result<Option<String>, GitError> {
        let object = object.inner();
        let Some(commit) = self.notes_commit(notes_ref)? else {
            return Ok(None);
        };
        let tree = self.notes_tree(commit)?;
        let mut state = gix::note::plumbing::State::new(tree, &self.repo)
            .map_err(|err| notes_error("read the notes tree", err))?;
        let Some(blob) = state
            .get(&object, &self.repo)
            .map_err(|err| notes_error("look up a note", err))?
        else {
            return Ok(None);
        };
        let blob = self
            .repo
            .find_blob(blob)
            .map_err(|err| notes_error("read a note blob", err))?;
        Ok(Some(String::from_utf8_lossy(&blob.data).into_owned()))
    }

    /// Append lines to the notes of several objects in one notes commit, losslessly under concurrent
    /// writers (see the module docs). Does nothing when `appends` is empty.
    pub fn append_notes(
        &self,
        notes_ref: &str,
        appends: &[NoteAppend],
        message: &str,
    ) -> Result<(), GitError> {
        let objects: Vec<Oid> = appends.iter().map(|append| append.object).collect();
        let lines = |index: usize| appends[index].lines.clone();
        self.append_notes_with(notes_ref, &objects, &lines, message)
    }

    /// [`append_notes`](Self::append_notes) with each object's lines made on demand: `lines(i)` for
    /// `objects[i]`, called once per attempt — so the lines of a run's 100,000 notes are never all in
    /// memory at once beside the note blobs made of them.
    pub fn append_notes_with(
        &self,
        notes_ref: &str,
        objects: &[Oid],
        lines: &(dyn Fn(usize) -> String + Sync),
        message: &str,
    ) -> Result<(), GitError> {
        if objects.is_empty() {
            return Ok(());
        }
        self.append(notes_ref, objects, lines, message).map(drop)
    }

    /// [`append_notes`](Self::append_notes) for an event that is only true together with another
    /// change (a Stack post written with its vote): the notes commit made, for
    /// [`undo_append`](Self::undo_append) should that change fail after all.
    pub fn append_notes_undoable(
        &self,
        notes_ref: &str,
        appends: &[NoteAppend],
        message: &str,
    ) -> Result<Appended, GitError> {
        let objects: Vec<Oid> = appends.iter().map(|append| append.object).collect();
        let lines = |index: usize| appends[index].lines.clone();
        self.append(notes_ref, &objects, &lines, message)
    }

    /// Take back the notes commit `appended`: the ref goes back where it was, if nothing moved it
    /// since (compare-and-swap); otherwise an error, and the events stay.
    pub fn undo_append(&self, appended: Appended) -> Result<(), GitError> {
        use gix::refs::transaction::{Change, LogChange, RefEdit, RefLog};
        let expected = PreviousValue::MustExistAndMatch(gix::refs::Target::Object(appended.after));
        let change = match appended.before {
            Some(before) => Change::Update {
                log: LogChange {
                    mode: RefLog::AndReference,
                    force_create_reflog: false,
                    message: "notes: take back an event whose change failed".into(),
                },
                expected,
                new: gix::refs::Target::Object(before),
            },
            None => Change::Delete {
                expected,
                log: RefLog::AndReference,
            },
        };
        let name = appended
            .notes_ref
            .as_str()
            .try_into()
            .map_err(|err| notes_error("name the notes ref", err))?;
        self.repo
            .edit_reference(RefEdit {
                change,
                name,
                deref: false,
            })
            .map_err(GitError::read("move the notes ref back"))?;
        Ok(())
    }

    /// The compare-and-swap loop of the appends: one notes commit for `objects`.
    fn append(
        &self,
        notes_ref: &str,
        objects: &[Oid],
        lines: &(dyn Fn(usize) -> String + Sync),
        message: &str,
    ) -> Result<Appended, GitError> {
        let objects: Vec<gix::ObjectId> = objects.iter().map(Oid::inner).collect();
        let mut last_error = None;
        for attempt in 0..MAX_ATTEMPTS {
            if attempt > 0 {
                std::thread::sleep(backoff(attempt));
            }
            let before = self.notes_commit(notes_ref)?;
            match self.try_append(notes_ref, &objects, lines, message) {
                Ok(appended) => return Ok(appended),
                Err(err) if self.lost_race(notes_ref, before) => last_error = Some(err),
                Err(err) => return Err(err),
            }
        }
        Err(last_error.unwrap_or_else(|| GitError::Notes {
            action: "append notes".into(),
            message: "gave up after repeated conflicts".into(),
        }))
    }

    /// One compare-and-swap attempt of [`append_notes`](Self::append_notes). Many notes at once
    /// (a full update's provenance) are built in memory and written as one pack (`super::pack`):
    /// their blobs made and hashed in parallel and handed to the pack as they are, the notes tree
    /// and commit through gix's object memory.
    fn try_append(
        &self,
        notes_ref: &str,
        objects: &[gix::ObjectId],
        lines: &(dyn Fn(usize) -> String + Sync),
        message: &str,
    ) -> Result<Appended, GitError> {
        let packed = objects.len() >= super::pack::PACK_FROM_NOTES;
        let mut in_memory = packed.then(|| self.repo.clone().with_object_memory());
        let repo = in_memory.as_ref().unwrap_or(&self.repo);
        let parent = self.notes_commit(notes_ref)?;
        let tree = match parent {
            Some(commit) => self.notes_tree(commit)?,
            None => gix::ObjectId::empty_tree(repo.object_hash()),
        };
        let mut state = gix::note::plumbing::State::new(tree, repo)
            .map_err(|err| notes_error("read the notes tree", err))?;
        let annotated = by_object(objects);
        let mut earlier = Vec::with_capacity(annotated.len());
        for (object, _) in &annotated {
            let blob = state
                .get(object, repo)
                .map_err(|err| notes_error("look up a note", err))?;
            earlier.push(match blob {
                Some(blob) => Some(self.blob_bytes(blob)?),
                None => None,
            });
        }
        let lines_of = |at: usize| {
            let mut joined = String::new();
            for index in &annotated[at].1 {
                joined.push_str(&lines(*index));
                if !joined.ends_with('\n') {
                    joined.push('\n');
                }
            }
            joined
        };
        let blobs = note_blobs(repo.object_hash(), earlier, &lines_of)?;
        let mut packable = packed.then(gix::odb::memory::Storage::default);
        for ((object, _), (blob, content)) in annotated.iter().zip(blobs) {
            match packable.as_mut() {
                Some(packable) => {
                    packable.insert(blob, (gix::objs::Kind::Blob, content));
                }
                None => {
                    repo.write_blob(&content)
                        .map_err(GitError::read("write a note blob"))?;
                }
            }
            state
                .edit(*object, Some(blob), repo)
                .map_err(|err| notes_error("add a note to the notes tree", err))?;
        }
        // Packed, the trees go to the object memory as they are, without asking the object
        // database whether it has each already (a `stat` of a loose object path per tree: 9,000
        // of them for 20,000 notes); the pack is written once, whatever it repeats.
        let new_tree = match in_memory.as_ref() {
            Some(memory) => state.write(&memory.objects),
            None => state.write(repo),
        }
        .map_err(|err| notes_error("write the notes tree", err))?;
        drop(state);
        let parents: Vec<gix::ObjectId> = parent.into_iter().collect();
        let commit = self.new_notes_commit(repo, &parents, new_tree, message)?;
        if let (Some(memory), Some(mut packable)) = (in_memory.as_mut(), packable) {
            if let Some(mut objects) = memory.objects.take_object_memory() {
                packable.extend(objects.drain());
            }
            super::pack::write_pack(&self.repo, packable)?;
        }
        self.move_ref(notes_ref, parent, commit, &format!("notes: {message}"))?;
        Ok(Appended {
            notes_ref: notes_ref.to_string(),
            before: parent,
            after: commit,
        })
    }

    /// Merge the notes at `other_ref` (e.g. fetched from a remote) into `notes_ref` as a set union:
    /// for each annotated object, the lines of both notes, each line once (ours first, then theirs
    /// that we lack) — what `git notes merge -s cat_sort_uniq` keeps, in a stable order. The result
    /// is a merge commit with both as parents, so that pushing it is a fast-forward for the remote;
    /// when one side already contains the other it is a fast-forward or nothing. Compare-and-swap on
    /// `notes_ref`, retried like [`append_notes`](Self::append_notes).
    pub fn merge_notes(&self, notes_ref: &str, other_ref: &str) -> Result<MergeOutcome, GitError> {
        let mut last_error = None;
        for attempt in 0..MAX_ATTEMPTS {
            if attempt > 0 {
                std::thread::sleep(backoff(attempt));
            }
            let before = self.notes_commit(notes_ref)?;
            match self.try_merge(notes_ref, other_ref) {
                Ok(outcome) => return Ok(outcome),
                Err(err) if self.lost_race(notes_ref, before) => last_error = Some(err),
                Err(err) => return Err(err),
            }
        }
        Err(last_error.unwrap_or_else(|| GitError::Notes {
            action: "merge notes".into(),
            message: "gave up after repeated conflicts".into(),
        }))
    }

    /// Whether a failed attempt lost a race with another writer (the ref moved, or its lock is
    /// held) — worth retrying — rather than failing for a reason a retry cannot fix.
    fn lost_race(&self, notes_ref: &str, before: Option<gix::ObjectId>) -> bool {
        let moved = self.notes_commit(notes_ref).ok() != Some(before);
        let lock = self.repo.common_dir().join(format!("{notes_ref}.lock"));
        let packed_lock = self.repo.common_dir().join("packed-refs.lock");
        moved || lock.exists() || packed_lock.exists()
    }

    fn try_merge(&self, notes_ref: &str, other_ref: &str) -> Result<MergeOutcome, GitError> {
        let Some(theirs) = self.notes_commit(other_ref)? else {
            return Ok(MergeOutcome::UpToDate);
        };
        let Some(ours) = self.notes_commit(notes_ref)? else {
            self.move_ref(notes_ref, None, theirs, "notes: take the remote notes")?;
            return Ok(MergeOutcome::FastForward);
        };
        if ours == theirs || self.is_ancestor(theirs, ours)? {
            return Ok(MergeOutcome::UpToDate);
        }
        if self.is_ancestor(ours, theirs)? {
            self.move_ref(notes_ref, Some(ours), theirs, "notes: fast-forward")?;
            return Ok(MergeOutcome::FastForward);
        }
        let our_tree = self.notes_tree(ours)?;
        let their_notes = self.all_notes(self.notes_tree(theirs)?)?;
        let mut state = gix::note::plumbing::State::new(our_tree, &self.repo)
            .map_err(|err| notes_error("read the notes tree", err))?;
        for (object, their_blob) in their_notes {
            let our_blob = state
                .get(&object, &self.repo)
                .map_err(|err| notes_error("look up a note", err))?;
            let merged = match our_blob {
                None => their_blob,
                Some(our_blob) if our_blob == their_blob => continue,
                Some(our_blob) => {
                    let ours_text = self.blob_bytes(our_blob)?;
                    let theirs_text = self.blob_bytes(their_blob)?;
                    let union = union_lines(&ours_text, &theirs_text);
                    if union == ours_text {
                        continue;
                    }
                    self.repo
                        .write_blob(&union)
                        .map_err(GitError::read("write a note blob"))?
                        .detach()
                }
            };
            state
                .edit(object, Some(merged), &self.repo)
                .map_err(|err| notes_error("add a note to the notes tree", err))?;
        }
        let tree = state
            .write(&self.repo)
            .map_err(|err| notes_error("write the notes tree", err))?;
        self.commit_notes_with_parents(
            notes_ref,
            &[ours, theirs],
            Some(ours),
            tree,
            "notes: union merge",
        )?;
        Ok(MergeOutcome::Merged)
    }

    /// Every (annotated object, note blob) in a notes tree, whatever its fanout.
    fn all_notes(
        &self,
        tree: gix::ObjectId,
    ) -> Result<Vec<(gix::ObjectId, gix::ObjectId)>, GitError> {
        let tree = self
            .repo
            .find_tree(tree)
            .map_err(|err| notes_error("read a notes tree", err))?;
        let mut recorder = gix::traverse::tree::Recorder::default();
        tree.traverse()
            .breadthfirst(&mut recorder)
            .map_err(|err| notes_error("walk a notes tree", err))?;
        Ok(recorder
            .records
            .into_iter()
            .filter(|entry| entry.mode.is_blob())
            .filter_map(|entry| {
                let hex: Vec<u8> = entry
                    .filepath
                    .iter()
                    .copied()
                    .filter(|b| *b != b'/')
                    .collect();
                gix::ObjectId::from_hex(&hex)
                    .ok()
                    .map(|object| (object, entry.oid))
            })
            .collect())
    }

    fn blob_bytes(&self, blob: gix::ObjectId) -> Result<Vec<u8>, GitError> {
        Ok(self
            .repo
            .find_blob(blob)
            .map_err(|err| notes_error("read a note blob", err))?
            .data
            .clone())
    }

    /// Whether `ancestor` is reachable from `descendant`.
    fn is_ancestor(
        &self,
        ancestor: gix::ObjectId,
        descendant: gix::ObjectId,
    ) -> Result<bool, GitError> {
        let walk = self
            .repo
            .rev_walk([descendant])
            .all()
            .map_err(|err| notes_error("walk the notes history", err))?;
        for info in walk {
            let info = info.map_err(|err| notes_error("walk the notes history", err))?;
            if info.id == ancestor {
                return Ok(true);
            }
        }
        Ok(false)
    }

    fn move_ref(
        &self,
        notes_ref: &str,
        expected: Option<gix::ObjectId>,
        to: gix::ObjectId,
        message: &str,
    ) -> Result<(), GitError> {
        let expected = match expected {
            Some(id) => PreviousValue::MustExistAndMatch(gix::refs::Target::Object(id)),
            None => PreviousValue::MustNotExist,
        };
        self.repo
            .reference(notes_ref, to, expected, message)
            .map_err(GitError::read("update the notes ref"))?;
        Ok(())
    }

    fn commit_notes_with_parents(
        &self,
        notes_ref: &str,
        parents: &[gix::ObjectId],
        expected: Option<gix::ObjectId>,
        tree: gix::ObjectId,
        message: &str,
    ) -> Result<(), GitError> {
        let commit = self.new_notes_commit(&self.repo, parents, tree, message)?;
        self.move_ref(notes_ref, expected, commit, &format!("notes: {message}"))
    }

    /// Write (into `repo`'s object database, or its object memory) a notes commit of `tree`.
    fn new_notes_commit(
        &self,
        repo: &gix::Repository,
        parents: &[gix::ObjectId],
        tree: gix::ObjectId,
        message: &str,
    ) -> Result<gix::ObjectId, GitError> {
        let identity = self.identity().unwrap_or_else(|| Identity {
            name: FALLBACK_NAME.into(),
            email: FALLBACK_EMAIL.into(),
        });
        let signature = gix::actor::Signature {
            name: identity.name.into(),
            email: identity.email.into(),
            // In UTC: the local offset reads the time zone database (milliseconds of every
            // post-commit run), and a notes commit's offset is read by no one.
            time: gix::date::Time::now_utc(),
        };
        let mut time_buf = gix::date::parse::TimeBuf::default();
        let signature = signature.to_ref(&mut time_buf);
        let commit = repo
            .new_commit_as(signature, signature, message, tree, parents.iter().copied())
            .map_err(GitError::read("write a notes commit"))?;
        Ok(commit.id)
    }

    /// The commit `notes_ref` points at, or `None` if it does not exist.
    pub(crate) fn notes_commit(&self, notes_ref: &str) -> Result<Option<gix::ObjectId>, GitError> {
        let Some(mut reference) = self
            .repo
            .try_find_reference(notes_ref)
            .map_err(|err| notes_error("read the notes ref", err))?
        else {
            return Ok(None);
        };
        let id = reference
            .peel_to_id()
            .map_err(|err| notes_error("resolve the notes ref", err))?;
        Ok(Some(id.detach()))
    }

    fn notes_tree(&self, commit: gix::ObjectId) -> Result<gix::ObjectId, GitError> {
        let commit = self
            .repo
            .find_commit(commit)
            .map_err(|err| notes_error("read a notes commit", err))?;
        let tree = commit
            .tree_id()
            .map_err(|err| notes_error("read a notes commit's tree", err))?;
        Ok(tree.detach())
    }
}

/// What [`GitRepo::merge_notes`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MergeOutcome {
    /// Nothing new on the other side.
    UpToDate,
    /// Ours was behind (or missing) and now points at theirs.
    FastForward,
    /// Both had new events; a union merge commit was made.
    Merged,
}

/// Each object of `objects` once, in the order they first appear, with the indices where it
/// appears (a text written twice in one run gets both lines).
fn by_object(objects: &[gix::ObjectId]) -> Vec<(gix::ObjectId, Vec<usize>)> {
    let mut at: HashMap<gix::ObjectId, usize> = HashMap::with_capacity(objects.len());
    let mut annotated: Vec<(gix::ObjectId, Vec<usize>)> = Vec::with_capacity(objects.len());
    for (index, object) in objects.iter().enumerate() {
        match at.get(object) {
            Some(&seen) => annotated[seen].1.push(index),
            None => {
                at.insert(*object, annotated.len());
                annotated.push((*object, vec![index]));
            }
        }
    }
    annotated
}

/// Each note's new blob — its earlier text (if any), then `lines(i)`, each ending in a newline —
/// with the blob's id, made in parallel.
fn note_blobs(
    hash: gix::hash::Kind,
    earlier: Vec<Option<Vec<u8>>>,
    lines: &(dyn Fn(usize) -> String + Sync),
) -> Result<Vec<(gix::ObjectId, Vec<u8>)>, GitError> {
    use rayon::prelude::*;
    earlier
        .into_par_iter()
        .enumerate()
        .map(|(index, earlier)| {
            let mut content = earlier.unwrap_or_default();
            if !content.is_empty() && !content.ends_with(b"\n") {
                content.push(b'\n');
            }
            content.extend_from_slice(lines(index).as_bytes());
            if !content.ends_with(b"\n") {
                content.push(b'\n');
            }
            let id = gix::objs::compute_hash(hash, gix::objs::Kind::Blob, &content)
                .map_err(|err| notes_error("hash a note blob", err))?;
            Ok((id, content))
        })
        .collect()
}

/// Lines of `ours`, then the lines of `theirs` that `ours` lacks, each line once; newline-terminated.
fn union_lines(ours: &[u8], theirs: &[u8]) -> Vec<u8> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::with_capacity(ours.len() + theirs.len());
    for line in ours
        .split(|b| *b == b'\n')
        .chain(theirs.split(|b| *b == b'\n'))
    {
        if line.is_empty() || !seen.insert(line) {
            continue;
        }
        out.extend_from_slice(line);
        out.push(b'\n');
    }
    out
}

/// A 16-hex-character id for a notes event, unlikely to repeat: time, process, a counter and `seed`.
/// It keeps two otherwise identical events (two votes in the same millisecond) apart in a union merge.
pub fn event_id(seed: &str) -> String {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    // Once a process: a `getpid` an event was 20,000 system calls in a cold update.
    static PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    let text = format!(
        "{nanos}:{}:{}:{seed}",
        PID.get_or_init(std::process::id),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    );
    crate::hash::sha256_hex(text.as_bytes())[..16].to_string()
}

/// The blob id `bytes` would have in a repository of `format`, without writing anything. Fails
/// only for content crafted to collide under SHA-1 (gix detects such attacks).
pub fn blob_id(format: super::ObjectFormat, bytes: &[u8]) -> Result<Oid, GitError> {
    gix::objs::compute_hash(format.kind(), gix::objs::Kind::Blob, bytes)
        .map(Oid::from)
        .map_err(|err| notes_error("hash a blob", err))
}

/// A short randomised pause before retry `attempt` (1-based), growing to about 20 ms.
fn backoff(attempt: u32) -> Duration {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let jitter = u64::from((nanos ^ std::process::id().rotate_left(7)) % 1000);
    let base = u64::from(attempt.min(20));
    Duration::from_micros(base * 1000 + jitter * base)
}

fn notes_error(action: &str, err: impl std::fmt::Display) -> GitError {
    GitError::Notes {
        action: action.to_string(),
        message: err.to_string(),
    }
}
