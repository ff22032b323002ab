//! What runs when git fires our post-commit, post-merge, post-applypatch and post-rewrite hooks
//! (DESIGN G-2): `lexictl hook <event>` must return in milliseconds, so it only makes sure a detached
//! background worker will run `lexictl update --changed-only` once git is done.
//!
//! - **Never during a multi-step operation**: a rebase (post-commit fires for every replayed commit,
//!   post-rewrite `amend` for every fixup, squash, reword or amended `edit` stop, post-rewrite
//!   `rebase` before git removes `rebase-merge/`), `git am`, a cherry-pick or revert sequence (no
//!   post-rewrite at all), a merge being resolved, a bisect. The worker waits until
//!   [`crate::git::operation::in_progress`] says it is over — ended or aborted — polling a few files
//!   with backoff (25 ms up to 1 s), for at most [`OPERATION_WAIT`]; then it runs the update once,
//!   for the net change. Any update it starts is told to yield (`--yield-to-git`), so a rebase
//!   that starts while an update runs does not see the library written under it.
//! - **Detached**: the worker gets its own process group, stdin from `/dev/null` and its output appended
//!   to `<git-path lexibrarian>/hook.log`, so `git commit | cat` (how agents and IDEs run git) does
//!   not wait for it. Git's per-hook variables (`GIT_DIR`, `GIT_INDEX_FILE`, …) are scrubbed so the
//!   worker sees the repository the way a fresh shell would; `LEXIBRARIAN_HOOK_WORKER` guards against
//!   recursion.
//! - **Single flight**: one worker per worktree holds `hook.lock`. Every trigger first sets the
//!   `hook.rerun` flag; if a worker holds the lock the trigger is done (that worker loops while the
//!   flag is set, and re-checks it after unlocking, so a commit landing at that instant is not
//!   lost), else it starts one. During a rebase of 50 commits that is one process, not 50.
//! - Nothing here ever commits. What happens at `git push` is [`super::pre_push`].

use std::fs::{File, OpenOptions};
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Context as _;

use crate::git::{operation, GitRepo, Operation};
use crate::library::footer::now_rfc3339;
use crate::workspace::state::{rotate_if_large, StateDir};

/// Set in the worker's environment; a hook fired from inside it does nothing.
pub const GUARD_ENV: &str = "LEXIBRARIAN_HOOK_WORKER";

/// The name the worker and its updates are started under: the running executable is the one
/// multi-call program (`cli::Program`), and its `argv[0]` picks the maintenance CLI.
const MAINTENANCE_CLI: &str = "lexictl";

/// How long a worker waits for a rebase, cherry-pick, `am`, merge or bisect to end. After that it
/// leaves the rerun flag set and exits: the next hook (`git rebase --continue` fires one) or
/// `lexictl update` catches up.
pub const OPERATION_WAIT: Duration = Duration::from_secs(30 * 60);

/// Variables git exports to hooks that would point a child git process at the wrong place.
pub(crate) const GIT_HOOK_ENV: &[&str] = &[
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
    /// A worker was started.
    Started,
    /// A worker is already running (or waiting for git); it will pick this event up.
    Queued,
    /// Nothing to do: the reason.
    Skipped(&'static str),
}

/// `lexictl hook <event>`: ask for an update and make sure a worker will run it. `start` is where git
/// ran the hook (the working tree root).
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
    let state = StateDir::new(repo.state_dir());
    std::fs::create_dir_all(&state.dir)
        .with_context(|| format!("cannot create {}", state.dir.display()))?;
    // Flag first, then look for a worker: one that is finishing will see the flag (module docs).
    std::fs::write(rerun_flag(&state), event).context("cannot set the hook rerun flag")?;
    if worker_running(&state) {
        return Ok(Triggered::Queued);
    }
    start_worker(&repo, &state, program)?;
    Ok(Triggered::Started)
}

/// Start a detached worker for `repo`'s worktree.
pub(crate) fn start_worker(repo: &GitRepo, state: &StateDir, program: &Path) -> anyhow::Result<()> {
    let log_path = state.hook_log_path();
    rotate_if_large(&log_path);
    let log = open_log(&log_path)?;
    let mut command = Command::new(program);
    command
        .arg0(MAINTENANCE_CLI)
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
    Ok(())
}

/// Whether a worker holds this worktree's hook lock right now.
pub(crate) fn worker_running(state: &StateDir) -> bool {
    let Ok(file) = File::open(lock_path(state)) else {
        return false;
    };
    // Taking the lock for an instant is how to ask; it is released when `file` drops.
    file.try_lock().is_err()
}

/// Whether no worker runs and none is wanted.
pub(crate) fn worker_idle(state: &StateDir) -> bool {
    !rerun_flag(state).exists() && !worker_running(state)
}

/// `lexictl hook worker`: once git's current operation is over, run `lexictl update --changed-only`
/// until no hook event is waiting.
pub fn worker(start: &Path, program: &Path) -> anyhow::Result<()> {
    let repo = GitRepo::discover(start)?.context("the hook worker runs in a git working tree")?;
    let state = StateDir::new(repo.state_dir());
    let git_dir = repo.git_dir();
    loop {
        let lock = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(lock_path(&state))
            .with_context(|| format!("cannot open {}", lock_path(&state).display()))?;
        if !take_lock(&lock) {
            println!(
                "{} another worker is running; it will pick this commit up",
                now_rfc3339()
            );
            return Ok(());
        }
        while rerun_flag(&state).exists() {
            if let Err(operation) = wait_for_git(&git_dir, OPERATION_WAIT) {
                println!(
                    "{} gave up waiting for {} to end after {} minutes; the next commit (or `lexictl update`) catches up",
                    now_rfc3339(),
                    operation.describe(),
                    OPERATION_WAIT.as_secs() / 60
                );
                return Ok(());
            }
            let _ = std::fs::remove_file(rerun_flag(&state));
            run_update(repo.workdir(), program);
            if let Some(operation) = operation::in_progress(&git_dir) {
                // It began while the update ran, which yielded to it: run again once it is over.
                println!("{} {} began meanwhile", now_rfc3339(), operation.describe());
                std::fs::write(rerun_flag(&state), "operation")
                    .context("cannot set the hook rerun flag")?;
            }
        }
        drop(lock);
        if !rerun_flag(&state).exists() {
            return Ok(());
        }
    }
}

/// How long a starting worker tries for the lock: [`worker_running`] (a hook, the pre-push check, a
/// test) asks by taking the lock for an instant, and a worker that gave up on such a probe would
/// leave its event waiting for the next hook. A real worker holds it for a whole update.
const LOCK_PATIENCE: Duration = Duration::from_millis(500);

/// Take the worker lock, retrying for [`LOCK_PATIENCE`]; false when another worker holds it.
fn take_lock(lock: &File) -> bool {
    let started = Instant::now();
    loop {
        if lock.try_lock().is_ok() {
            return true;
        }
        if started.elapsed() >= LOCK_PATIENCE {
            return false;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Wait, polling with backoff, until no operation is in progress in `git_dir`; `Err` with the
/// operation when `limit` passes first.
pub(crate) fn wait_for_git(git_dir: &Path, limit: Duration) -> Result<(), Operation> {
    let started = Instant::now();
    let mut delay = Duration::from_millis(25);
    let mut announced = false;
    while let Some(operation) = operation::in_progress(git_dir) {
        if !announced {
            println!(
                "{} waiting for {} to end",
                now_rfc3339(),
                operation.describe()
            );
            announced = true;
        }
        if started.elapsed() >= limit {
            return Err(operation);
        }
        std::thread::sleep(delay);
        delay = (delay * 2).min(Duration::from_secs(1));
    }
    Ok(())
}

fn run_update(workdir: &Path, program: &Path) {
    println!("{} lexictl update --changed-only", now_rfc3339());
    let started = Instant::now();
    let status = Command::new(program)
        .arg0(MAINTENANCE_CLI)
        .args(["update", "--changed-only", "--yield-to-git"])
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

fn lock_path(state: &StateDir) -> PathBuf {
    state.dir.join("hook.lock")
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn waiting_ends_when_the_operation_does_and_is_bounded() {
        let dir = tempfile::tempdir().expect("tempdir");
        assert_eq!(wait_for_git(dir.path(), Duration::ZERO), Ok(()));
        std::fs::create_dir(dir.path().join("sequencer")).expect("mkdir");
        assert_eq!(
            wait_for_git(dir.path(), Duration::from_millis(60)),
            Err(Operation::Sequence)
        );
        let sequencer = dir.path().join("sequencer");
        let ender = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(100));
            std::fs::remove_dir(sequencer).expect("rmdir");
        });
        assert_eq!(wait_for_git(dir.path(), Duration::from_secs(30)), Ok(()));
        ender.join().expect("thread");
    }

    #[test]
    fn a_held_lock_means_a_running_worker() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = StateDir::new(dir.path().to_path_buf());
        assert!(!worker_running(&state) && worker_idle(&state));
        let held = File::create(lock_path(&state)).expect("lock file");
        held.lock().expect("lock");
        assert!(worker_running(&state) && !worker_idle(&state));
        drop(held);
        std::fs::write(rerun_flag(&state), "post-commit").expect("flag");
        assert!(!worker_running(&state) && !worker_idle(&state));
    }
}
