//! What runs when git fires our hooks (DESIGN G-2): `lexictl hook post-commit|post-merge|post-rewrite` must return
//! in milliseconds, so it only starts a detached background worker, which runs
//! `lexictl update --changed-only` until the library has caught up with every commit.
//!
//! - **Skips**: while a rebase is in progress, post-commit (and post-merge) does nothing
//!   (it fires once per replayed commit); post-rewrite fires once at the end and does the work.
//! - **Detached**: the worker gets its own process group, stdin from `/dev/null` and its output appended
//!   to `<git-path lexibrarian>/hook.log`, so `git commit | cat` (how agents and IDEs run git) does
//!   not wait for it. Git's per-hook variables (`GIT_DIR`, `GIT_INDEX_FILE`, …) are scrubbed so the
//!   worker sees the repository the way a fresh shell would; `LEXIBRARIAN_HOOK_WORKER` guards against
//!   recursion.
//! - **Single flight**: one worker per worktree holds `hook.lock`. Every trigger first sets the
//!   `hook.rerun` flag, then starts a worker; a worker that finds the lock taken exits at once, and the
//!   running worker loops while the flag is set (it re-checks after unlocking, so a commit landing at
//!   that instant is not lost).
//! - Nothing here ever commits.

use std::fs::{File, OpenOptions};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::Context as _;

use crate::git::GitRepo;
use crate::library::footer::now_rfc3339;
use crate::workspace::state::{rotate_if_large, StateDir};

/// Set in the worker's environment; a hook fired from inside it does nothing.
pub const GUARD_ENV: &str = "LEXIBRARIAN_HOOK_WORKER";

/// Variables git exports to hooks that would point a child git process at the wrong place.
const GIT_HOOK_ENV: &[&str] = &[
    "GIT_DIR",
    "GIT_INDEX_FILE",
    "GIT_WORK_TREE",
    "GIT_PREFIX",
    "GIT_COMMON_DIR",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_NAMESPACE",
    "GIT_QUARANTINE_PATH",
    "GIT_REFLOG_ACTION",
    "GIT_EDITOR",
    "GIT_EXEC_PATH",
];

/// What a trigger did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Triggered {
    /// A worker was started (or a running one will pick the commit up).
    Started,
    /// Nothing to do: the reason.
    Skipped(&'static str),
}

/// `lexictl hook <event>`: decide whether to update, and start the worker. `start` is where git ran
/// the hook (the working tree root).
pub fn trigger(start: &Path, event: &str, program: &Path) -> anyhow::Result<Triggered> {
    if std::env::var_os(GUARD_ENV).is_some() {
        return Ok(Triggered::Skipped("inside a Lexibrarian worker"));
    }
    let Some(repo) = GitRepo::discover(start)? else {
        return Ok(Triggered::Skipped("not in a git working tree"));
    };
    if crate::project::find_root(repo.workdir()).is_none()
        && crate::project::find_root(start).is_none()
    {
        return Ok(Triggered::Skipped("no .lexibrary/ in this repository"));
    }
    if event != "post-rewrite" && repo.rebase_in_progress() {
        return Ok(Triggered::Skipped(
            "a rebase is in progress (post-rewrite updates once at the end)",
        ));
    }
    let state = StateDir::new(repo.state_dir());
    std::fs::create_dir_all(&state.dir)
        .with_context(|| format!("cannot create {}", state.dir.display()))?;
    // Flag first, then start: a worker that is finishing will see the flag (see the module docs).
    std::fs::write(rerun_flag(&state), event).context("cannot set the hook rerun flag")?;
    let log_path = state.hook_log_path();
    rotate_if_large(&log_path);
    let log = open_log(&log_path)?;
    let mut command = Command::new(program);
    command
        .args(["hook", "worker"])
        .current_dir(repo.workdir())
        .stdin(Stdio::null())
        .stdout(log.try_clone()?)
        .stderr(log)
        .env(GUARD_ENV, "1");
    for name in GIT_HOOK_ENV {
        command.env_remove(name);
    }
    detach(&mut command);
    command
        .spawn()
        .with_context(|| format!("cannot start {}", program.display()))?;
    Ok(Triggered::Started)
}

/// `lexictl hook worker`: run `lexictl update --changed-only` until no commit is waiting.
pub fn worker(start: &Path, program: &Path) -> anyhow::Result<()> {
    let repo = GitRepo::discover(start)?.context("the hook worker runs in a git working tree")?;
    let state = StateDir::new(repo.state_dir());
    let lock_path = state.dir.join("hook.lock");
    loop {
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&lock_path)
            .with_context(|| format!("cannot open {}", lock_path.display()))?;
        if lock.try_lock().is_err() {
            println!(
                "{} another worker is running; it will pick this commit up",
                now_rfc3339()
            );
            return Ok(());
        }
        while rerun_flag(&state).exists() {
            let _ = std::fs::remove_file(rerun_flag(&state));
            run_update(repo.workdir(), program);
        }
        drop(lock);
        if !rerun_flag(&state).exists() {
            return Ok(());
        }
    }
}

fn run_update(workdir: &Path, program: &Path) {
    println!("{} lexictl update --changed-only", now_rfc3339());
    let started = std::time::Instant::now();
    let status = Command::new(program)
        .args(["update", "--changed-only"])
        .current_dir(workdir)
        .stdin(Stdio::null())
        .status();
    match status {
        Ok(status) => println!(
            "{} finished in {} ms ({status})",
            now_rfc3339(),
            started.elapsed().as_millis()
        ),
        Err(err) => println!("{} could not run the update: {err}", now_rfc3339()),
    }
}

fn rerun_flag(state: &StateDir) -> PathBuf {
    state.dir.join("hook.rerun")
}

fn open_log(path: &Path) -> anyhow::Result<File> {
    OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open {}", path.display()))
}

/// Put the worker in its own process group, so terminal signals (Ctrl-C in the shell that ran
/// `git commit`) do not reach it.
#[cfg(unix)]
fn detach(command: &mut Command) {
    use std::os::unix::process::CommandExt;
    command.process_group(0);
}

#[cfg(not(unix))]
fn detach(_command: &mut Command) {}
