//! The team flow of the README, end to end: a bare remote, two clones with the hooks installed,
//! agents committing the README way (edit code and design files, `git add -A`, commit, push), the
//! PR gate of docs/ci.md run as written on each branch, and the on-merge job on main.
//!
//! - Alice's branch adds a source file in its last commit and is pushed at once: the push goes (the
//!   library of that commit lags, which the next commit or the on-merge job writes), and the PR gate
//!   is green.
//! - Bob's branch has an agent edit a design file's prose and change the code's signature in the
//!   same commit, leaving the Interface Contract behind: the PR gate is red, naming the file.
//! - Alice's branch is merged; the on-merge job proposes main's library on its own branch, which
//!   is current.

use crate::support::{project, TestProject};
use crate::test_ci::{github_file, run_all, run_step, workflow, Step};
use crate::test_hooks::wait_for_worker;

/// The remote: the rust fixture with its library committed.
fn remote() -> TestProject {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.clone_bare_to("remote.git")
}

/// A developer's clone with the hooks installed, on a new branch.
fn developer(remote: &TestProject, name: &str, branch: &str) -> TestProject {
    let clone = remote.clone_to(name);
    clone.lexictl(["setup", "--hooks"]).success();
    clone.git(["checkout", "-q", "-b", branch]).success();
    clone
}

/// The README way: push right after the last commit. The push goes while the worker still writes
/// that commit's library (it lags, one line says so at most); returns what the push printed.
fn push_the_readme_way(dev: &TestProject, branch: &str) -> String {
    let pushed = dev.git(["push", "-q", "-u", "origin", branch]).success();
    assert!(
        pushed
            .stderr
            .lines()
            .filter(|l| l.contains("lexibrarian"))
            .count()
            <= 1,
        "{}",
        pushed.stderr
    );
    pushed.stderr
}

/// CI's checkout of `branch` (GitHub checks out the PR's head with the base branch fetched).
fn ci_checkout(remote: &TestProject, name: &str, branch: &str) -> TestProject {
    let ci = remote.clone_to(name);
    ci.git(["checkout", "-q", branch]).success();
    ci
}

fn step<'s>(steps: &'s [Step], name: &str) -> &'s Step {
    steps
        .iter()
        .find(|step| step.name() == name)
        .unwrap_or_else(|| panic!("docs/ci.md has no step {name:?}"))
}

#[test]
#[cfg_attr(not(has_bash), ignore = "needs `bash` on PATH")]
fn a_team_following_the_readme_passes_the_gate_and_a_lie_is_caught() {
    let remote = remote();
    let gate = workflow(0);

    // Alice: two commits the README way, the last one adding a source file.
    let alice = developer(&remote, "alice", "feature-a");
    let lib = alice.read("src/lib.rs");
    alice.write(
        "src/lib.rs",
        lib.replace("Ok(ast.value())", "Ok(ast.value() * 1)"),
    );
    alice.commit_all("eval: keep the value");
    alice.write(
        "src/format.rs",
        "//! Formats results.\n\n/// Formats `value`.\npub fn format(value: i64) -> String {\n    value.to_string()\n}\n",
    );
    alice.commit_all("add format");
    push_the_readme_way(&alice, "feature-a");
    wait_for_worker(&alice, "");
    assert!(alice.exists(".lexibrary/src/format.rs.md"));
    let ci = ci_checkout(&remote, "ci-a", "feature-a");
    // The branch lags (the strict gate says so); the PR gate is green.
    ci.lexictl(["update", "--check"]).real_clock().code(2);
    let outputs = run_all(&gate, &ci);
    let review = std::fs::read_to_string(github_file(&ci, "summary.md")).expect("summary");
    assert!(review.contains("src/format.rs"), "{review}\n{outputs}");

    // Bob: an agent rewrites a design file's prose and changes the signature in one commit.
    let bob = developer(&remote, "bob", "feature-b");
    let design = bob.read(".lexibrary/src/lib.rs.md");
    let edited: String = design
        .replacen("updated_by: archivist", "updated_by: agent", 1)
        .split_inclusive('\n')
        .map(|line| match line.starts_with("description:") {
            true => "description: Evaluates arithmetic, strictly or not.\n",
            false => line,
        })
        .collect();
    bob.write(".lexibrary/src/lib.rs.md", edited);
    let lib = bob.read("src/lib.rs").replace(
        "pub fn eval(input: &str)",
        "pub fn eval(input: &str, strict: bool)",
    );
    bob.write("src/lib.rs", lib);
    bob.commit_all("eval: strict mode");
    push_the_readme_way(&bob, "feature-b");
    let ci = ci_checkout(&remote, "ci-b", "feature-b");
    run_step(&ci, step(&gate, "Fetch the notes")).success();
    run_step(&ci, step(&gate, "Catch up the lag")).success();
    run_step(&ci, step(&gate, "The library tells no lies"))
        .code(2)
        .stdout_has("::error file=.lexibrary/src/lib.rs.md")
        .stdout_has("stale-contract");

    // Alice's branch is merged; the on-merge job runs on main.
    alice.git(["checkout", "-q", "main"]).success();
    alice
        .git(["merge", "-q", "--no-ff", "--no-edit", "feature-a"])
        .success();
    alice.git(["push", "-q", "origin", "main"]).success();
    let main_ci = remote.clone_to("ci-main");
    run_all(&workflow(1), &main_ci);
    let fresh = remote.clone_to("after-merge");
    fresh
        .git(["checkout", "-q", "lexibrarian/library"])
        .success();
    fresh.lexictl(["update", "--check"]).real_clock().success();
    fresh.lexictl(["validate"]).success();
}
