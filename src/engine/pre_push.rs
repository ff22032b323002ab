//! `lexictl hook pre-push`: the half of the team flow (docs/hooks.md "The team flow") that makes a
//! pushed branch carry its own library.
//!
//! The post-commit worker writes the library for a commit *after* that commit, so the library of the
//! last commit before a push is still in the working tree. The next commit (`git add -A`) would carry
//! it; at a push there is no next commit. So when the branch being pushed is the one checked out,
//! the pre-push hook:
//!
//! 1. waits (at most [`WORKER_WAIT`]) for a running or wanted worker, and starts one if the last
//!    update did not process `HEAD` (the hooks were installed later, or a worker gave up);
//! 2. stops the push when `.lexibrary/` has uncommitted changes — modified, deleted or new files,
//!    new design files included — listing them with the one command that commits them; the push
//!    that follows carries the library, which is what the PR gate (`lexictl update --check`) expects.
//!
//! It lets every other push through: a push of another branch or a tag, a deletion, a push during a
//! rebase or other operation, a push from inside a worker. `git push --no-verify` skips it. It never
//! commits, and it never changes what is pushed (git fixed that before running the hook).

use std::path::Path;
use std::time::{Duration, Instant};

use anyhow::Context as _;

use super::hook::{self, GUARD_ENV};
use crate::git::{Change, GitRepo, Oid};
use crate::project::LIBRARY_DIR;
use crate::workspace::state::StateDir;

/// How long a push waits for the library update of the last commit.
pub const WORKER_WAIT: Duration = Duration::from_secs(120);

/// The hook's verdict.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrePush {
    /// Let the push go; the note (if any) is printed.
    Allow(Option<String>),
    /// Stop the push; the message says what to do.
    Refuse(String),
}

/// Decide about a push. `refs` is what git gives the hook on stdin: one
/// `<local ref> <local oid> <remote ref> <remote oid>` line per ref pushed (empty: check `HEAD`).
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
    // No refs at all: run by hand, or by a hook manager that does not pass them on. Check HEAD.
    let checks_head = refs.trim().is_empty() || pushes_branch_at(refs, &head);
    if !checks_head || repo.operation_in_progress().is_some() {
        return Ok(PrePush::Allow(None));
    }
    let state = StateDir::new(repo.state_dir());
    if !wait_for_worker(&state) {
        return Ok(PrePush::Refuse(format!(
            "lexibrarian: the library update of your last commit is still running after {} s (see {}).\n\
             Push again when it has finished, or push without it: git push --no-verify",
            WORKER_WAIT.as_secs(),
            state.hook_log_path().display()
        )));
    }
    let processed = state.read().processed.map(|processed| processed.commit);
    let mut note = None;
    if processed.as_ref() != Some(&head) {
        // No update has seen HEAD: run one now (through a worker, like the other hooks).
        std::fs::create_dir_all(&state.dir)
            .with_context(|| format!("cannot create {}", state.dir.display()))?;
        std::fs::write(state.dir.join("hook.rerun"), "pre-push")
            .context("cannot set the hook rerun flag")?;
        hook::start_worker(&repo, &state, program)?;
        if !wait_for_worker(&state) || state.read().processed.map(|p| p.commit) != Some(head) {
            note = Some(format!(
                "lexibrarian: the library could not be brought up to date for the last commit (see {}); pushing anyway",
                state.hook_log_path().display()
            ));
        }
    }
    let prefix = repo.prefix_of(&root).unwrap_or_default();
    let library = match prefix.as_str() {
        "" => format!("{LIBRARY_DIR}/"),
        prefix => format!("{prefix}/{LIBRARY_DIR}/"),
    };
    let uncommitted = uncommitted_under(&repo, &library)?;
    if uncommitted.is_empty() {
        return Ok(PrePush::Allow(note));
    }
    Ok(PrePush::Refuse(refusal(&uncommitted, &library)))
}

/// Whether one of the pushed refs is a branch (or `HEAD`) whose new value is `head` (the work being
/// pushed is the checked-out work).
fn pushes_branch_at(refs: &str, head: &Oid) -> bool {
    refs.lines().any(|line| {
        let mut fields = line.split_whitespace();
        let (Some(local_ref), Some(local_oid)) = (fields.next(), fields.next()) else {
            return false;
        };
        // `git push origin HEAD:topic` names the local side `HEAD`.
        (local_ref.starts_with("refs/heads/") || local_ref == "HEAD") && local_oid == head.to_hex()
    })
}

/// Wait (bounded) until no worker runs or is wanted; false when the time ran out.
fn wait_for_worker(state: &StateDir) -> bool {
    let started = Instant::now();
    let mut announced = false;
    while !hook::worker_idle(state) {
        if started.elapsed() >= WORKER_WAIT {
            return false;
        }
        if !announced {
            eprintln!("lexibrarian: waiting for the library update of your last commit…");
            announced = true;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    true
}

/// `git status --short` lines of the uncommitted changes under `library` (a repository path ending
/// in `/`), ignored files (`.iwh`, caches) left out.
fn uncommitted_under(repo: &GitRepo, library: &str) -> anyhow::Result<Vec<String>> {
    let changes = repo
        .dirty()
        .context("cannot read the working tree status")?;
    let mut lines: Vec<String> = changes
        .into_iter()
        .filter(|change| change.path().starts_with(library))
        .map(|change| match change {
            Change::Added(path) if repo.is_tracked(&path) => format!("A  {path}"),
            Change::Added(path) => format!("?? {path}"),
            Change::Modified(path) => format!(" M {path}"),
            Change::Deleted(path) => format!(" D {path}"),
            Change::Renamed { from, to } => format!("R  {from} -> {to}"),
        })
        .collect();
    lines.sort_by(|a, b| a[3..].cmp(&b[3..]));
    Ok(lines)
}

/// What a stopped push prints.
fn refusal(uncommitted: &[String], library: &str) -> String {
    let mut text = String::from(
        "lexibrarian: the library of the commits you are pushing is not committed yet:\n",
    );
    for line in uncommitted.iter().take(20) {
        text.push_str(&format!("  {line}\n"));
    }
    if uncommitted.len() > 20 {
        text.push_str(&format!("  … and {} more\n", uncommitted.len() - 20));
    }
    let dir = library.trim_end_matches('/');
    text.push_str(&format!(
        "Commit it, then push again:\n  git add {dir} && git commit -m \"lexibrary: update the library\"\n\
         (The hook writes the library after each commit; your next commit would carry it, but a push has\n\
         no next commit. To push without it: git push --no-verify)\n"
    ));
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_branch_at_head_is_checked() {
        let head = Oid::parse("0123456789abcdef0123456789abcdef01234567").expect("oid");
        let zero = "0000000000000000000000000000000000000000";
        let line = |local: &str, oid: &str| format!("{local} {oid} refs/heads/x {zero}\n");
        assert!(pushes_branch_at(
            &line("refs/heads/main", &head.to_hex()),
            &head
        ));
        assert!(!pushes_branch_at(&line("refs/heads/main", zero), &head));
        assert!(!pushes_branch_at(
            &line("refs/tags/v1", &head.to_hex()),
            &head
        ));
        assert!(!pushes_branch_at("", &head));
    }

    #[test]
    fn the_refusal_names_every_file_and_the_command() {
        let text = refusal(
            &[
                " M .lexibrary/src/a.rs.md".into(),
                "?? .lexibrary/src/b.rs.md".into(),
            ],
            ".lexibrary/",
        );
        assert!(text.contains("  ?? .lexibrary/src/b.rs.md\n"), "{text}");
        assert!(text.contains("git add .lexibrary && git commit"), "{text}");
        assert!(text.contains("--no-verify"), "{text}");
    }
}
