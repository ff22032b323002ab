//! `lexictl hook pre-push`: what the team flow (docs/hooks.md "The team flow", DESIGN §8) does at
//! `git push`. The library never blocks code delivery (seed D-067): the post-commit worker writes a
//! commit's library *after* the commit, that lag rides with the next commit or is written by the
//! on-merge job, and the PR gate judges lies, not lag.
//!
//! - **`hooks.pre_push: warn`** (the default): the push always goes. When it pushes the checked-out
//!   commit and the library files the hook writes (design files, `.aindex`, `START_HERE.md`) have
//!   uncommitted changes, one line on stderr says so. Nothing waits for the worker.
//! - **`hooks.pre_push: block`** (opt-in): each commit pushed to a branch is judged by what
//!   `lexictl update --check` says of *that commit* — its own tree, checked out apart from the
//!   working tree, so uncommitted work (a Stack post, an agent's half-written design file, whatever
//!   a hook manager stashed) never matters. A commit whose committed library is not current stops the
//!   push, naming the files. For the checked-out commit it first waits (at most [`WORKER_WAIT`]) for
//!   the worker, so that what it wrote can be committed at once.
//!
//! In both modes a push of notes (`lexictl notes sync`), of tags, or of deletions is never judged, nor
//! is a push during a rebase or other operation or from inside a worker; `git push --no-verify` skips
//! the hook. It never commits and never changes what is pushed.
//!
//! The refs pushed come on stdin (`<local ref> <local oid> <remote ref> <remote oid>` per line);
//! under the pre-commit framework, which hands its hooks no stdin, from its `PRE_COMMIT_LOCAL_BRANCH`
//! and `PRE_COMMIT_TO_REF` variables; with neither (run by hand), the checked-out commit is judged.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use super::hook::{self, GIT_HOOK_ENV, GUARD_ENV};
use super::update::{self, Silent, UpdateOptions, UpdateReport};
use crate::git::{GitRepo, Oid};
use crate::project::config::PrePushMode;
use crate::project::{Project, LIBRARY_DIR};
use crate::workspace::state::StateDir;
use crate::workspace::Workspace;

/// How long a blocking push waits for the library update of the last commit.
pub const WORKER_WAIT: Duration = Duration::from_secs(120);

/// Set by the pre-commit framework in the environment of its hooks; while its hook runs, it has
/// stashed the unstaged changes of the working tree.
const PRE_COMMIT_ENV: &str = "PRE_COMMIT";

/// The hook's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrePush {
    /// Let the push go; the note (if any) is printed.
    Allow(Option<String>),
    /// Stop the push; the message says what to do. Only with `hooks.pre_push: block`.
    Refuse(String),
}

/// One commit pushed to a branch: the local ref named and the commit it pushes.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Pushed {
    local_ref: String,
    commit: Oid,
}

/// Decide about a push. `refs` is what git gives the hook on stdin (empty: see the module docs).
pub fn pre_push(start: &Path, refs: &str, program: &Path) -> anyhow::Result<PrePush> {
    if std::env::var_os(GUARD_ENV).is_some() {
        return Ok(PrePush::Allow(None));
    }
    let Some(repo) = GitRepo::discover(start)? else {
        return Ok(PrePush::Allow(None));
    };
    let Some(root) = crate::project::find_root(repo.workdir()) else {
        return Ok(PrePush::Allow(None));
    };
    let Some(head) = repo.head_commit()? else {
        return Ok(PrePush::Allow(None));
    };
    if repo.operation_in_progress().is_some() {
        return Ok(PrePush::Allow(None));
    }
    let pushed = match pushed_commits(refs, pre_commit_refs(&repo).as_deref()) {
        Some(pushed) => pushed,
        None => vec![Pushed {
            local_ref: "HEAD".into(),
            commit: head,
        }],
    };
    if pushed.is_empty() {
        return Ok(PrePush::Allow(None));
    }
    let project = Project::discover(&root)?;
    let library = library_prefix(&repo, &root);
    match project.config.hooks.pre_push {
        PrePushMode::Warn => {
            let pushes_head = pushed.iter().any(|p| p.commit == head);
            Ok(PrePush::Allow(match pushes_head {
                true => lag_warning(&repo, &library)?,
                false => None,
            }))
        }
        PrePushMode::Block => block(&repo, &root, &head, &pushed, program),
    }
}

/// The commits `refs` pushes to branches: no deletion, no tag, no notes (`lexictl notes sync`), each
/// commit once. `None` when there are no refs at all (the caller judges `HEAD`). `fallback` is
/// used when `refs` is empty (the pre-commit framework's variables, as one line).
fn pushed_commits(refs: &str, fallback: Option<&str>) -> Option<Vec<Pushed>> {
    let refs = match (refs.trim(), fallback) {
        ("", Some(fallback)) => fallback,
        ("", None) => return None,
        (refs, _) => refs,
    };
    let mut pushed: Vec<Pushed> = Vec::new();
    for line in refs.lines() {
        let mut fields = line.split_whitespace();
        let (Some(local_ref), Some(local_oid)) = (fields.next(), fields.next()) else {
            continue;
        };
        // `git push origin HEAD:topic` names the local side `HEAD`.
        let to_branch = local_ref.starts_with("refs/heads/") || local_ref == "HEAD";
        let Ok(commit) = Oid::parse(local_oid) else {
            continue;
        };
        if to_branch && !commit.inner().is_null() && !pushed.iter().any(|p| p.commit == commit) {
            pushed.push(Pushed {
                local_ref: local_ref.to_string(),
                commit,
            });
        }
    }
    Some(pushed)
}

/// The pre-commit framework's description of the push, as a stdin line (it passes one ref). It
/// sets no `PRE_COMMIT_TO_REF` when the ref's whole history is new to the remote (a first push of
/// the notes, say): then the ref names the commit.
fn pre_commit_refs(repo: &GitRepo) -> Option<String> {
    let local = std::env::var("PRE_COMMIT_LOCAL_BRANCH").ok()?;
    let oid = match std::env::var("PRE_COMMIT_TO_REF") {
        Ok(oid) => oid,
        // Unresolvable: a line that judges nothing (a null id).
        Err(_) => repo
            .try_resolve_commit(&local)
            .map_or_else(|| "0".repeat(40), |oid| oid.to_hex()),
    };
    Some(format!("{local} {oid}"))
}

/// `.lexibrary/` as a repository path ending in `/` (`sub/.lexibrary/` for a project in `sub/`).
fn library_prefix(repo: &GitRepo, root: &Path) -> String {
    match repo.prefix_of(root).unwrap_or_default().as_str() {
        "" => format!("{LIBRARY_DIR}/"),
        prefix => format!("{prefix}/{LIBRARY_DIR}/"),
    }
}

/// Whether `path` (a repository path under `library`) is a file the hook writes: a design file, an
/// `.aindex` or START_HERE.md — not a Stack post, a concept or the config, which people and agents
/// write.
fn written_by_the_hook(path: &str, library: &str) -> bool {
    let Some(rel) = path.strip_prefix(library) else {
        return false;
    };
    !(rel.starts_with("stack/") || rel.starts_with("concepts/") || rel == "config.yaml")
}

/// `warn`: one line when the hook's files under `library` have uncommitted changes.
fn lag_warning(repo: &GitRepo, library: &str) -> anyhow::Result<Option<String>> {
    let changes = repo
        .dirty()
        .context("cannot read the working tree status")?;
    let lagging = changes
        .iter()
        .filter(|change| written_by_the_hook(change.path(), library))
        .count();
    Ok((lagging > 0).then(|| {
        format!(
            "lexibrarian: {lagging} library file{} of your last commit not in this push; your next commit carries {} (never blocks: docs/hooks.md)",
            if lagging == 1 { "" } else { "s" },
            if lagging == 1 { "it" } else { "them" },
        )
    }))
}

/// `block`: judge every pushed commit; the first whose library is not current stops the push.
fn block(
    repo: &GitRepo,
    root: &Path,
    head: &Oid,
    pushed: &[Pushed],
    program: &Path,
) -> anyhow::Result<PrePush> {
    let state = StateDir::new(repo.state_dir());
    let stashed = std::env::var_os(PRE_COMMIT_ENV).is_some();
    if pushed.iter().any(|p| &p.commit == head) {
        if stashed && !hook::worker_idle(&state) {
            // pre-commit stashed the unstaged changes for this hook: the worker must not write
            // into that tree, and waiting here would let it.
            return Ok(PrePush::Refuse(
                "lexibrarian: the library of your last commit is still being written; push again in a moment\n\
                 (hooks.pre_push is `block`; to push without it: git push --no-verify)\n"
                    .to_string(),
            ));
        }
        if !stashed {
            catch_up(repo, &state, head, program)?;
        }
    }
    let prefix = repo.prefix_of(root).unwrap_or_default();
    for push in pushed {
        let report = check_commit(repo, &state, &push.commit, &prefix)
            .with_context(|| format!("cannot check the library of {}", push.local_ref))?;
        let stale = report.stale_entries();
        if !stale.is_empty() {
            let library = library_prefix(repo, root);
            return Ok(PrePush::Refuse(refusal(
                push,
                &push.commit == head,
                &stale,
                &library,
            )));
        }
    }
    Ok(PrePush::Allow(None))
}

/// Wait for the worker, starting one when no update has processed `head` yet (the hooks were
/// installed after the commit, or a worker gave up), so that what it writes can be committed.
fn catch_up(repo: &GitRepo, state: &StateDir, head: &Oid, program: &Path) -> anyhow::Result<()> {
    wait_for_worker(state);
    if state
        .read()
        .processed
        .map(|processed| processed.commit)
        .as_ref()
        != Some(head)
    {
        std::fs::create_dir_all(&state.dir)
            .with_context(|| format!("cannot create {}", state.dir.display()))?;
        std::fs::write(state.dir.join("hook.rerun"), "pre-push")
            .context("cannot set the hook rerun flag")?;
        hook::start_worker(repo, state, program)?;
        wait_for_worker(state);
    }
    Ok(())
}

/// Wait (at most [`WORKER_WAIT`]) until no worker runs and none is wanted.
fn wait_for_worker(state: &StateDir) {
    let started = Instant::now();
    let mut announced = false;
    while !hook::worker_idle(state) && started.elapsed() < WORKER_WAIT {
        if !announced {
            eprintln!("lexibrarian: waiting for the library update of your last commit…");
            announced = true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// `lexictl update --check` of `commit`'s own tree: a shared clone of the repository (no copy of
/// its objects) checked out at `commit` in a temporary directory under the state directory, with
/// no hooks and no LFS downloads; the project is at `prefix` in it.
fn check_commit(
    repo: &GitRepo,
    state: &StateDir,
    commit: &Oid,
    prefix: &str,
) -> anyhow::Result<UpdateReport> {
    std::fs::create_dir_all(&state.dir)
        .with_context(|| format!("cannot create {}", state.dir.display()))?;
    let scratch = tempfile::Builder::new()
        .prefix("push-check-")
        .tempdir_in(&state.dir)
        .context("cannot make a temporary checkout")?;
    let tree = scratch.path().join("tree");
    let common = repo.common_dir();
    git(
        scratch.path(),
        &[
            "clone".as_ref(),
            "--quiet".as_ref(),
            "--shared".as_ref(),
            "--no-checkout".as_ref(),
            "--no-tags".as_ref(),
            common.as_os_str(),
            tree.as_os_str(),
        ],
    )?;
    let hex = commit.to_hex();
    git(
        &tree,
        &[
            "-c",
            "core.hooksPath=/dev/null",
            "-c",
            "advice.detachedHead=false",
            "checkout",
            "--quiet",
            "--detach",
            hex.as_str(),
        ]
        .map(std::ffi::OsStr::new),
    )?;
    let root: PathBuf = match prefix {
        "" => tree,
        prefix => tree.join(prefix),
    };
    let ws = Workspace::discover(&root)
        .with_context(|| format!("the commit has no readable library at {prefix:?}"))?;
    let options = UpdateOptions {
        check: true,
        ..UpdateOptions::default()
    };
    update::run(&ws, &options, &Silent)
}

/// Run `git` in `dir` the way a fresh shell would (the hook's git variables removed).
fn git<S: AsRef<std::ffi::OsStr>>(dir: &Path, args: &[S]) -> anyhow::Result<()> {
    let mut command = Command::new("git");
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .env("GIT_LFS_SKIP_SMUDGE", "1");
    for name in GIT_HOOK_ENV {
        command.env_remove(name);
    }
    let output = command.output().context("cannot run git")?;
    if !output.status.success() {
        anyhow::bail!(
            "`git {}` failed: {}",
            args.iter()
                .map(|arg| arg.as_ref().to_string_lossy())
                .collect::<Vec<_>>()
                .join(" "),
            String::from_utf8_lossy(&output.stderr).trim()
        );
    }
    Ok(())
}

/// What a stopped push prints.
fn refusal(push: &Pushed, is_head: bool, stale: &[String], library: &str) -> String {
    let short = push.commit.short();
    let mut text = format!(
        "lexibrarian: the library committed in {} ({short}) is not current (hooks.pre_push is `block`):\n",
        push.local_ref
    );
    for line in stale.iter().take(20) {
        text.push_str(&format!("  {line}\n"));
    }
    if stale.len() > 20 {
        text.push_str(&format!("  … and {} more\n", stale.len() - 20));
    }
    let dir = library.trim_end_matches('/');
    if is_head {
        text.push_str(&format!(
            "Commit what the hook wrote, then push again:\n  git add {dir} && git commit -m \"lexibrary: update the library\"\n"
        ));
    } else {
        text.push_str("Check it out, run `lexictl update`, commit the library, then push again.\n");
    }
    text.push_str("(To push without it: git push --no-verify; a STALE_CONTRACT is an agent's design file to edit.)\n");
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const ZERO: &str = "0000000000000000000000000000000000000000";
    const A: &str = "0123456789abcdef0123456789abcdef01234567";
    const B: &str = "89abcdef0123456789abcdef0123456789abcdef";

    fn line(local: &str, oid: &str) -> String {
        format!("{local} {oid} refs/heads/x {ZERO}\n")
    }

    #[test]
    fn only_commits_pushed_to_branches_are_judged() {
        let refs = [
            line("refs/heads/main", A),
            line("refs/notes/lexibrarian/stack", B),
            line("refs/tags/v1", B),
            line("refs/heads/gone", ZERO),
            line("HEAD", A),
        ]
        .concat();
        let pushed = pushed_commits(&refs, None).expect("refs");
        assert_eq!(
            pushed,
            [Pushed {
                local_ref: "refs/heads/main".into(),
                commit: Oid::parse(A).expect("oid")
            }]
        );
        // A notes-only push (`lexictl notes sync`) judges nothing.
        let notes = line("refs/notes/lexibrarian/provenance", B);
        assert_eq!(pushed_commits(&notes, None), Some(Vec::new()));
        // No refs at all: by hand; the caller judges HEAD.
        assert_eq!(pushed_commits("", None), None);
        // The pre-commit framework's variables stand in for stdin.
        let fallback = format!("refs/notes/lexibrarian/stack {B}");
        assert_eq!(pushed_commits("", Some(&fallback)), Some(Vec::new()));
    }

    #[test]
    fn only_the_files_the_hook_writes_count_as_lag() {
        let library = ".lexibrary/";
        assert!(written_by_the_hook(".lexibrary/src/a.rs.md", library));
        assert!(written_by_the_hook(".lexibrary/src/.aindex", library));
        assert!(written_by_the_hook(".lexibrary/START_HERE.md", library));
        assert!(!written_by_the_hook(
            ".lexibrary/stack/ST-001-x.md",
            library
        ));
        assert!(!written_by_the_hook(".lexibrary/concepts/Auth.md", library));
        assert!(!written_by_the_hook(".lexibrary/config.yaml", library));
        assert!(!written_by_the_hook("src/a.rs", library));
    }

    #[test]
    fn the_refusal_names_every_file_and_the_command() {
        let push = Pushed {
            local_ref: "refs/heads/main".into(),
            commit: Oid::parse(A).expect("oid"),
        };
        let stale = ["NEW src/b.rs".to_string()];
        let text = refusal(&push, true, &stale, ".lexibrary/");
        assert!(text.contains("  NEW src/b.rs\n"), "{text}");
        assert!(text.contains("git add .lexibrary && git commit"), "{text}");
        assert!(text.contains("--no-verify"), "{text}");
        let other = refusal(&push, false, &stale, ".lexibrary/");
        assert!(other.contains("run `lexictl update`"), "{other}");
    }
}
