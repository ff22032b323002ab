//! Naming commits and reading them: resolving what a user types (`main`, `HEAD~2`, `origin/main`,
//! `@{upstream}`, `A..B`, `A...B`) to commits, merge bases, commit facts (time, subject), counting
//! the commits of a range, and reading one file as it is at a commit. This is what
//! `lexictl review` needs from git; all of it is gix, in-process.

use gix::bstr::ByteSlice;

use super::{GitError, GitRepo, Oid};

/// A revision argument as git reads it, resolved to commits (tags are peeled).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RevSpec {
    /// One revision, e.g. `main` or `HEAD~2`.
    Single(Oid),
    /// `from..to`: compare the two commits' trees directly (like `git diff from..to`).
    Range { from: Oid, to: Oid },
    /// `left...right`: compare the merge base of both with `right` (like `git diff left...right`,
    /// which is what a pull request against `left` shows).
    Symmetric { left: Oid, right: Oid },
}

/// What a commit says about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CommitInfo {
    pub id: Oid,
    /// Committer time, seconds since the Unix epoch.
    pub time: i64,
    /// The first line of the message.
    pub summary: String,
}

/// The branch `HEAD` is on and the branch it is configured to merge from (`git branch -u`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upstream {
    /// The current branch's short name (`feature`).
    pub branch: String,
    /// The upstream as a full ref name: `refs/remotes/origin/main`, or `refs/heads/main` when the
    /// upstream is a local branch (`branch.<name>.remote = .`).
    pub reference: String,
    /// Whether the upstream is the branch's own copy on the remote (`refs/remotes/<remote>/<branch>`,
    /// as `git push -u` sets it) rather than a branch it merges into.
    pub own_copy: bool,
}

/// A file as stored at a commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileAt {
    /// The blob id: what provenance notes are keyed by.
    pub blob: Oid,
    /// The content as committed (for a symlink: the path it points to).
    pub data: Vec<u8>,
    /// The entry is a symbolic link (mode 120000), not a file: `data` is where it points, and
    /// nothing is to be read through it.
    pub symlink: bool,
}

impl GitRepo {
    /// Resolve a revision or range the way `git rev-parse` reads it. Errors name the argument and
    /// say what was wrong.
    pub fn resolve_spec(&self, spec: &str) -> Result<RevSpec, GitError> {
        let bad = |message: String| GitError::BadRevision {
            spec: spec.to_string(),
            message,
        };
        if spec.trim().is_empty() {
            return Err(bad("it is empty".into()));
        }
        let parsed = match self.repo.rev_parse(spec) {
            Ok(parsed) => parsed.detach(),
            Err(err) => {
                // Name the side of a range that is wrong, rather than the whole range.
                let sides = spec.split("...").flat_map(|side| side.split(".."));
                for side in sides.filter(|side| !side.is_empty() && *side != spec) {
                    if let Err(side_err) = self.repo.rev_parse_single(side) {
                        return Err(GitError::BadRevision {
                            spec: side.to_string(),
                            message: first_line(&side_err.probable_cause().to_string()),
                        });
                    }
                }
                return Err(bad(first_line(&err.probable_cause().to_string())));
            }
        };
        use gix::revision::plumbing::Spec;
        Ok(match parsed {
            Spec::Include(id) => RevSpec::Single(self.peel_to_commit(spec, id)?),
            Spec::Range { from, to } => RevSpec::Range {
                from: self.peel_to_commit(spec, from)?,
                to: self.peel_to_commit(spec, to)?,
            },
            Spec::Merge { theirs, ours } => RevSpec::Symmetric {
                left: self.peel_to_commit(spec, theirs)?,
                right: self.peel_to_commit(spec, ours)?,
            },
            _ => {
                return Err(bad(
                    "only a revision, `A..B` or `A...B` can be reviewed".into()
                ))
            }
        })
    }

    /// Resolve one revision to a commit id, or `None` if it does not name anything (a branch that
    /// does not exist, no upstream configured, a detached `HEAD` asked for its upstream).
    pub fn try_resolve_commit(&self, spec: &str) -> Option<Oid> {
        match self.resolve_spec(spec).ok()? {
            RevSpec::Single(id) => Some(id),
            _ => None,
        }
    }

    /// The current branch's upstream, or `None` when `HEAD` is detached or unborn or no upstream is
    /// configured (or its remote has no fetch refspec for it).
    pub fn upstream(&self) -> Option<Upstream> {
        use gix::remote::Direction;
        let head = self.repo.head().ok()?;
        let reference = head.try_into_referent()?;
        let branch = reference.name().shorten().to_string();
        let config = self.repo.config_snapshot();
        let remote = config.string(format!("branch.{branch}.remote").as_str())?;
        let upstream = if remote.as_slice() == b"." {
            let merge = config.string(format!("branch.{branch}.merge").as_str())?;
            merge.to_str().ok()?.to_string()
        } else {
            let name = reference.remote_tracking_ref_name(Direction::Fetch)?.ok()?;
            name.as_bstr().to_str().ok()?.to_string()
        };
        let own_copy =
            upstream.starts_with("refs/remotes/") && upstream.ends_with(&format!("/{branch}"));
        Some(Upstream {
            branch,
            reference: upstream,
            own_copy,
        })
    }

    /// The best common ancestor of two commits, or `None` when their histories are unrelated (or
    /// cut off by a shallow clone).
    pub fn merge_base(&self, one: &Oid, two: &Oid) -> Result<Option<Oid>, GitError> {
        let base = self
            .repo
            .merge_base(one.inner(), two.inner())
            .map_err(GitError::read("find the merge base of two commits"))?;
        Ok(base.map(|id| Oid::from(id.detach())))
    }

    /// Committer time and subject of a commit.
    pub fn commit_info(&self, commit: &Oid) -> Result<CommitInfo, GitError> {
        let found = self
            .repo
            .find_commit(commit.inner())
            .map_err(|_| GitError::CommitNotFound(commit.to_hex()))?;
        let time = found
            .time()
            .map_err(GitError::read("read a commit's time"))?
            .seconds;
        let summary = found
            .message_raw_sloppy()
            .lines()
            .next()
            .map(|line| line.to_str_lossy().trim().to_string())
            .unwrap_or_default();
        Ok(CommitInfo {
            id: *commit,
            time,
            summary,
        })
    }

    /// How many commits are reachable from `head` but not from `base` (what `git rev-list
    /// --count base..head` prints).
    pub fn count_commits(&self, base: &Oid, head: &Oid) -> Result<usize, GitError> {
        let walk = self
            .repo
            .rev_walk([head.inner()])
            .with_hidden([base.inner()])
            .all()
            .map_err(GitError::read("walk the commits of the range"))?;
        let mut count = 0;
        for info in walk {
            info.map_err(GitError::read("walk the commits of the range"))?;
            count += 1;
        }
        Ok(count)
    }

    /// The file at `path` (relative to the working tree root, `/`-separated) in `commit`'s tree,
    /// or `None` when there is no such file (or it is a directory or a submodule).
    pub fn file_at(&self, commit: &Oid, path: &str) -> Result<Option<FileAt>, GitError> {
        let found = self
            .repo
            .find_commit(commit.inner())
            .map_err(|_| GitError::CommitNotFound(commit.to_hex()))?;
        let tree = found
            .tree()
            .map_err(GitError::read("read the commit's tree"))?;
        let Some(entry) = tree
            .lookup_entry(path.split('/'))
            .map_err(GitError::read("look up a file in a commit"))?
        else {
            return Ok(None);
        };
        if !entry.mode().is_blob_or_symlink() {
            return Ok(None);
        }
        let blob = self
            .repo
            .find_blob(entry.object_id())
            .map_err(GitError::read("read a file's content at a commit"))?;
        Ok(Some(FileAt {
            blob: Oid::from(blob.id),
            data: blob.data.clone(),
            symlink: entry.mode().is_link(),
        }))
    }

    /// The commit that brought `path` into `head`'s first-parent history: walking first parents
    /// from `head` while the file is there, the last commit that has it. `None` when `head` lacks
    /// it; the walk stops after `limit` commits (the oldest one seen with the file is returned).
    pub fn introducing_commit(
        &self,
        head: &Oid,
        path: &str,
        limit: usize,
    ) -> Result<Option<Oid>, GitError> {
        let mut found = None;
        let mut current = Some(head.inner());
        for _ in 0..limit {
            let Some(id) = current else {
                break;
            };
            // A parent cut off by a shallow clone ends the walk.
            let Ok(commit) = self.repo.find_commit(id) else {
                break;
            };
            let tree = commit
                .tree()
                .map_err(GitError::read("read the commit's tree"))?;
            let has_it = tree
                .lookup_entry(path.split('/'))
                .map_err(GitError::read("look up a file in a commit"))?
                .is_some();
            if !has_it {
                break;
            }
            found = Some(Oid::from(id));
            current = commit.parent_ids().next().map(|parent| parent.detach());
        }
        Ok(found)
    }

    fn peel_to_commit(&self, spec: &str, id: gix::ObjectId) -> Result<Oid, GitError> {
        let object = self
            .repo
            .find_object(id)
            .map_err(GitError::read("read an object"))?;
        let kind = object.kind;
        object
            .peel_to_commit()
            .map(|commit| Oid::from(commit.id))
            .map_err(|_| GitError::BadRevision {
                spec: spec.to_string(),
                message: format!("it names a {kind}, not a commit"),
            })
    }
}

fn first_line(text: &str) -> String {
    text.lines().next().unwrap_or(text).trim().to_string()
}
