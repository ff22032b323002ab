//! Multi-step git operations with the hooks installed, run for real: `rebase -i --autosquash` with
//! fixup and reword, rebase with `edit` + `commit --amend` (then `--continue`, or `--abort`),
//! `cherry-pick A..B`, `am` of a series from `format-patch`, `revert A..B`, a merge whose conflicts
//! are resolved by hand, and a bisect. The commits are made the README way (`git add -A` carries the
//! library the worker wrote for the previous commit), so every replayed commit touches `.lexibrary/`:
//! a worker writing there mid-operation would stop it with "local changes would be overwritten".
//! Each test checks that the operation ends cleanly, that the worker updated the library exactly
//! once after it, and that the library is then current.

use crate::support::{project, TestProject};
use crate::test_hooks::{assert_current, hook_log, update_runs, wait_for_worker};

/// Four independent modules with the library committed and the hooks installed.
fn team_repo() -> TestProject {
    let mut builder = project().fixture("rust");
    for i in 1..=4 {
        builder = builder.file(&format!("src/m{i}.rs"), module(i, 0));
    }
    let p = builder.init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexictl(["setup", "--hooks"]).success();
    p
}

/// Module `i` at `version` (only a function body changes).
fn module(i: u32, version: u32) -> String {
    format!(
        "//! Module {i}.\n\n/// Returns a number.\npub fn f{i}() -> u32 {{\n    {version}\n}}\n"
    )
}

/// One commit the README way: edit module `i`, `git add -A`, commit; then let the worker finish.
fn agent_commit(p: &TestProject, i: u32, version: u32, message: &str) {
    p.write(&format!("src/m{i}.rs"), module(i, version));
    p.commit_all(message);
    wait_for_worker(p, "");
}

/// Commit what the worker wrote for the last commit, so the tree is clean before an operation.
fn commit_library(p: &TestProject) {
    p.commit_all("lexibrary: update the library");
    wait_for_worker(p, "");
    assert_eq!(porcelain(p), "", "the library commit left changes behind");
}

/// Wait until the worker says (in the hook log, after its first `from` bytes) that it waits for
/// `operation` to end: the positive signal that it reached the wait, where it writes nothing.
fn worker_waits_for(p: &TestProject, from: usize, operation: &str) {
    let needle = format!("waiting for {operation} to end");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !hook_log(p, "")
        .get(from..)
        .is_some_and(|log| log.contains(&needle))
    {
        assert!(
            std::time::Instant::now() < deadline,
            "the worker never waited for {operation}:\n{}",
            hook_log(p, "")
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

fn porcelain(p: &TestProject) -> String {
    p.git(["status", "--porcelain"]).success().stdout
}

/// After an operation: git has nothing in progress, the worker ran exactly once since `before`,
/// the only changes are the worker's under `.lexibrary/`, and the library is current.
fn assert_one_update_after(p: &TestProject, before: usize) {
    wait_for_worker(p, "");
    let status = p.git(["status"]).success().stdout;
    assert!(
        !status.contains("in progress") && !status.contains("You are currently"),
        "{status}"
    );
    assert_eq!(
        update_runs(p, "") - before,
        1,
        "exactly one update after the operation:\n{}",
        hook_log(p, "")
    );
    for line in porcelain(p).lines() {
        assert!(line[3..].starts_with(".lexibrary/"), "{line}");
    }
    assert_current(p, "");
}

/// A history of three README-way commits on modules 1–3, library committed.
fn three_commits(p: &TestProject) {
    for i in 1..=3 {
        agent_commit(p, i, 1, &format!("change m{i}"));
    }
    commit_library(p);
}

#[test]
fn rebase_i_autosquash_with_fixup_and_reword() {
    let p = team_repo();
    three_commits(&p);
    agent_commit(&p, 1, 2, "fixup! change m1");
    commit_library(&p);
    let before = update_runs(&p, "");
    // Reword "change m2"; autosquash moves the fixup under "change m1".
    p.git(["rebase", "-q", "-i", "--autosquash", "HEAD~6"])
        .env(
            "GIT_SEQUENCE_EDITOR",
            "sed -i -e 's/^pick \\([0-9a-f]*\\) change m2$/reword \\1 change m2/'",
        )
        .env("GIT_EDITOR", "sed -i -e 's/change m2/change module 2/'")
        .success();
    let log = p.git(["log", "--format=%s", "-8"]).success().stdout;
    assert!(
        log.contains("change module 2") && !log.contains("fixup!"),
        "{log}"
    );
    assert_one_update_after(&p, before);
}

#[test]
fn rebase_edit_amend_continue() {
    let p = team_repo();
    three_commits(&p);
    let before = update_runs(&p, "");
    let log_before = hook_log(&p, "").len();
    p.git(["rebase", "-q", "-i", "HEAD~4"])
        .env(
            "GIT_SEQUENCE_EDITOR",
            "sed -i -e 's/^pick \\([0-9a-f]*\\) change m2$/edit \\1 change m2/'",
        )
        .success();
    // Stopped at "change m2": amend it with a code change (post-commit and post-rewrite amend fire).
    p.write("src/m2.rs", module(2, 7));
    p.git(["commit", "-q", "-a", "--amend", "--no-edit"])
        .success();
    worker_waits_for(&p, log_before, "a rebase");
    assert_eq!(
        porcelain(&p),
        "",
        "nothing written while the rebase is stopped"
    );
    assert_eq!(update_runs(&p, ""), before, "{}", hook_log(&p, ""));
    p.git(["rebase", "--continue"]).success();
    assert!(p.read("src/m2.rs").contains("    7\n"));
    assert_one_update_after(&p, before);
}

#[test]
fn rebase_edit_amend_abort() {
    let p = team_repo();
    three_commits(&p);
    let head = p.git(["rev-parse", "HEAD"]).success().stdout;
    let before = update_runs(&p, "");
    let log_before = hook_log(&p, "").len();
    p.git(["rebase", "-q", "-i", "HEAD~4"])
        .env(
            "GIT_SEQUENCE_EDITOR",
            "sed -i -e 's/^pick \\([0-9a-f]*\\) change m1$/edit \\1 change m1/'",
        )
        .success();
    p.write("src/m1.rs", module(1, 9));
    p.git(["commit", "-q", "-a", "--amend", "--no-edit"])
        .success();
    worker_waits_for(&p, log_before, "a rebase");
    p.git(["rebase", "--abort"]).success();
    assert_eq!(p.git(["rev-parse", "HEAD"]).success().stdout, head);
    assert_one_update_after(&p, before);
    assert_eq!(porcelain(&p), "", "an aborted rebase changes nothing");
}

/// Commits made on a side branch from the initial library commit, for replaying elsewhere.
fn side_branch(p: &TestProject) {
    p.git(["checkout", "-q", "-b", "side"]).success();
    three_commits(p);
    p.git(["checkout", "-q", "main"]).success();
    wait_for_worker(p, "");
    commit_library_if_any(p);
}

fn commit_library_if_any(p: &TestProject) {
    if !porcelain(p).is_empty() {
        commit_library(p);
    }
}

#[test]
fn cherry_pick_a_range() {
    let p = team_repo();
    side_branch(&p);
    agent_commit(&p, 4, 1, "main moves on");
    commit_library(&p);
    let before = update_runs(&p, "");
    p.git(["cherry-pick", "side~4..side"]).success();
    assert!(p.read("src/m3.rs").contains("    1\n"));
    assert_one_update_after(&p, before);
}

#[test]
fn am_of_a_series_from_format_patch() {
    let p = team_repo();
    side_branch(&p);
    agent_commit(&p, 4, 1, "main moves on");
    commit_library(&p);
    p.git(["format-patch", "-q", "-o", "../series", "side~4..side"])
        .success();
    let mut patches: Vec<String> = std::fs::read_dir(p.root.join("../series"))
        .expect("the patches")
        .map(|entry| entry.expect("a patch").path().display().to_string())
        .collect();
    patches.sort();
    assert!(patches.len() >= 3, "{patches:?}");
    let before = update_runs(&p, "");
    p.git(["am", "-q"]).args(&patches).success();
    assert_one_update_after(&p, before);
}

#[test]
fn revert_a_range() {
    let p = team_repo();
    three_commits(&p);
    let before = update_runs(&p, "");
    p.git(["revert", "--no-edit", "HEAD~3..HEAD"]).success();
    assert!(p.read("src/m2.rs").contains("    0\n"));
    assert_one_update_after(&p, before);
}

#[test]
fn a_merge_with_conflicts_resolved_by_hand() {
    let p = team_repo();
    p.git(["checkout", "-q", "-b", "side"]).success();
    agent_commit(&p, 1, 5, "side: m1 returns 5");
    commit_library(&p);
    p.git(["checkout", "-q", "main"]).success();
    agent_commit(&p, 1, 6, "main: m1 returns 6");
    commit_library(&p);
    let before = update_runs(&p, "");
    p.git(["merge", "-q", "side"]).code(1);
    // The code by hand; the library's conflicts by taking one side (the hook regenerates it).
    p.write("src/m1.rs", module(1, 11));
    let conflicted = p
        .git(["diff", "--name-only", "--diff-filter=U"])
        .success()
        .stdout;
    for path in conflicted
        .lines()
        .filter(|path| path.starts_with(".lexibrary/"))
    {
        p.git(["checkout", "--ours", "--", path]).success();
    }
    p.git(["add", "-A"]).success();
    p.git(["commit", "-q", "--no-edit"]).success();
    assert_one_update_after(&p, before);
    assert!(p.read(".lexibrary/src/m1.rs.md").contains("# src/m1.rs"));
}

#[test]
fn a_bisect_is_waited_for() {
    let p = team_repo();
    three_commits(&p);
    let before = update_runs(&p, "");
    p.git(["bisect", "start", "HEAD", "HEAD~3"]).success();
    // A hook fired during the bisect (a commit made while bisecting would do this).
    let log_before = hook_log(&p, "").len();
    p.lexictl(["hook", "post-commit"]).success();
    p.git(["bisect", "good"]).success();
    worker_waits_for(&p, log_before, "a bisect");
    assert_eq!(update_runs(&p, ""), before, "{}", hook_log(&p, ""));
    assert!(
        hook_log(&p, "").contains("waiting for a bisect to end"),
        "{}",
        hook_log(&p, "")
    );
    p.git(["bisect", "reset"]).success();
    assert_one_update_after(&p, before);
}
