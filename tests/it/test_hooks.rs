//! `lexictl setup --hooks` and `lexictl hook`: real hooks fired by real git commits, the detached
//! worker, existing user hooks, `core.hooksPath`, worktrees, hook managers, and `git lexi`.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::{bin_dir, project, run, TestProject};

fn hooked() -> TestProject {
    let p = project().fixture("rust").build();
    p.init();
    let out = run(&p, p.lexictl(&["update"]));
    assert_eq!(out.code, 0, "{}", out.both());
    p.git(&["add", "-A"]);
    p.git(&["commit", "-qm", "library"]);
    let out = run(&p, p.lexictl(&["setup", "--hooks"]));
    assert_eq!(out.code, 0, "{}", out.both());
    p
}

/// git with the binaries on PATH, asserting success; returns stdout.
fn git(p: &TestProject, dir: &str, args: &[&str]) -> String {
    let out = p.git_at(dir, args, true);
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn state_dir(p: &TestProject, worktree: &str) -> std::path::PathBuf {
    let dir = git(p, worktree, &["rev-parse", "--git-path", "lexibrarian"]);
    p.root.join(worktree).join(dir.trim())
}

/// Wait until no worker runs and none is wanted.
fn wait_for_worker(p: &TestProject, worktree: &str) {
    let state = state_dir(p, worktree);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let idle = !state.join("hook.rerun").exists()
            && std::fs::File::open(state.join("hook.lock")).map_or(true, |file| {
                let free = file.try_lock().is_ok();
                let _ = file.unlock();
                free
            });
        if idle {
            return;
        }
        assert!(
            Instant::now() < deadline,
            "the hook worker did not finish: {}",
            hook_log(p, worktree)
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn hook_log(p: &TestProject, worktree: &str) -> String {
    std::fs::read_to_string(state_dir(p, worktree).join("hook.log")).unwrap_or_default()
}

fn update_runs(p: &TestProject, worktree: &str) -> usize {
    hook_log(p, worktree)
        .matches("lexictl update --changed-only")
        .count()
}

fn assert_current(p: &TestProject, dir: &str) {
    let mut command = p.lexictl(&["update", "--check"]);
    command.current_dir(p.root.join(dir));
    let out = run(p, command);
    assert_eq!(
        out.code,
        0,
        "library not current after the hook:\n{}\nhook log:\n{}",
        out.both(),
        hook_log(p, dir)
    );
}

#[test]
fn commits_of_every_shape_leave_the_library_current() {
    let p = hooked();
    // Two files with spaces and unicode in their names, in one commit.
    p.write("src/my module.rs", "//! Spaces.\npub fn spaced() {}\n");
    p.write("src/grüße.rs", "//! Unicode.\npub fn gruss() {}\n");
    git(&p, "", &["add", "-A"]);
    git(&p, "", &["commit", "-qm", "two odd names"]);
    wait_for_worker(&p, "");
    assert!(p.exists(".lexibrary/src/my module.rs.md") && p.exists(".lexibrary/src/grüße.rs.md"));
    assert_current(&p, "");
    // A merge commit.
    git(&p, "", &["checkout", "-qb", "side"]);
    p.write("src/side.rs", "pub fn side() {}\n");
    git(&p, "", &["add", "-A"]);
    git(&p, "", &["commit", "-qm", "side"]);
    wait_for_worker(&p, "");
    git(&p, "", &["add", "-A"]);
    git(&p, "", &["commit", "-qm", "side library"]);
    wait_for_worker(&p, "");
    git(&p, "", &["checkout", "-q", "main"]);
    p.write("src/main_only.rs", "pub fn main_only() {}\n");
    git(&p, "", &["add", "-A"]);
    git(&p, "", &["commit", "-qm", "main"]);
    git(&p, "", &["merge", "-q", "--no-edit", "side"]);
    wait_for_worker(&p, "");
    assert!(p.exists(".lexibrary/src/side.rs.md"));
    assert_current(&p, "");
    // --amend.
    p.write("src/side.rs", "pub fn side() {}\npub fn amended() {}\n");
    git(&p, "", &["commit", "-qa", "--amend", "--no-edit"]);
    wait_for_worker(&p, "");
    assert!(p.read(".lexibrary/src/side.rs.md").contains("amended"));
    assert_current(&p, "");
}

#[test]
fn the_root_commit_is_handled() {
    let p = project().fixture("rust").no_git().build();
    p.init();
    git(&p, "", &["init", "-q", "-b", "main"]);
    let out = run(&p, p.lexictl(&["setup", "--hooks"]));
    assert_eq!(out.code, 0, "{}", out.both());
    git(&p, "", &["add", "-A"]);
    git(&p, "", &["commit", "-qm", "root"]);
    wait_for_worker(&p, "");
    assert!(p.exists(".lexibrary/src/lib.rs.md"), "{}", hook_log(&p, ""));
    assert_current(&p, "");
}

#[test]
fn an_interactive_rebase_updates_once_at_the_end() {
    let p = hooked();
    for i in 0..3 {
        p.write(&format!("src/r{i}.rs"), format!("pub fn r{i}() {{}}\n"));
        git(&p, "", &["add", "-A"]);
        git(&p, "", &["commit", "-qm", &format!("r{i}")]);
        wait_for_worker(&p, "");
    }
    // The hook never commits: the library changes wait in the working tree for the next commit.
    git(&p, "", &["add", "-A"]);
    git(&p, "", &["commit", "-qm", "library"]);
    wait_for_worker(&p, "");
    let before = update_runs(&p, "");
    git(&p, "", &["config", "sequence.editor", "true"]);
    git(&p, "", &["rebase", "-q", "-i", "--force-rebase", "HEAD~4"]);
    wait_for_worker(&p, "");
    assert_eq!(
        update_runs(&p, "") - before,
        1,
        "exactly one update after the rebase:\n{}",
        hook_log(&p, "")
    );
    assert_current(&p, "");
}

#[test]
fn git_commit_through_a_pipe_does_not_wait_for_the_worker() {
    let p = hooked();
    for i in 0..300 {
        p.write(
            &format!("src/gen/m{i:03}.rs"),
            format!("//! Module {i}.\npub fn f{i}(x: u32) -> u32 {{ x + {i} }}\n"),
        );
    }
    git(&p, "", &["add", "-A"]);
    let started = Instant::now();
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg("git commit -qm many | cat")
        .current_dir(&p.root)
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin_dir().display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("GIT_AUTHOR_NAME", "T")
        .env("GIT_AUTHOR_EMAIL", "t@e")
        .env("GIT_COMMITTER_NAME", "T")
        .env("GIT_COMMITTER_EMAIL", "t@e")
        .env("HOME", p.root.join("..").join("home"))
        .output()
        .unwrap();
    let commit_time = started.elapsed();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    wait_for_worker(&p, "");
    let log = hook_log(&p, "");
    let worker_ms: u128 = log
        .lines()
        .filter_map(|line| {
            line.split("finished in ")
                .nth(1)?
                .split(' ')
                .next()?
                .parse()
                .ok()
        })
        .next_back()
        .expect("the worker logged its duration");
    assert!(
        commit_time.as_millis() < worker_ms,
        "`git commit | cat` took {} ms, the worker {worker_ms} ms: the commit waited",
        commit_time.as_millis()
    );
    assert!(p.exists(".lexibrary/src/gen/m299.rs.md"));
}

#[test]
fn a_user_hook_ending_in_exec_still_runs_and_uninstall_restores_it() {
    let p = project().fixture("rust").build();
    p.init();
    let user_hook = "#!/bin/sh\necho ran >> user-hook-ran.txt\nexec true\n";
    p.write(".git/hooks/post-commit", user_hook);
    make_executable(&p.path(".git/hooks/post-commit"));
    let out = run(&p, p.lexictl(&["setup", "--hooks"]));
    assert_starts(&out.stdout, "post-commit: added the block (.git/hooks/post-commit)\npost-merge: created (.git/hooks/post-merge)\npost-applypatch: created (.git/hooks/post-applypatch)\npost-rewrite: created (.git/hooks/post-rewrite)\n");
    let installed = p.read(".git/hooks/post-commit");
    assert!(installed.find("# >>> lexibrarian v1").unwrap() < installed.find("exec true").unwrap());
    // Re-running is a no-op.
    let again = run(&p, p.lexictl(&["setup", "--hooks"]));
    assert_starts(&again.stdout, "post-commit: already installed (.git/hooks/post-commit)\npost-merge: already installed (.git/hooks/post-merge)\npost-applypatch: already installed (.git/hooks/post-applypatch)\npost-rewrite: already installed (.git/hooks/post-rewrite)\n");
    p.write("src/new.rs", "pub fn new() {}\n");
    git(&p, "", &["add", "-A"]);
    git(&p, "", &["commit", "-qm", "new"]);
    wait_for_worker(&p, "");
    assert!(p.exists("user-hook-ran.txt"), "the user's hook still runs");
    assert!(p.exists(".lexibrary/src/new.rs.md"), "{}", hook_log(&p, ""));
    let out = run(&p, p.lexictl(&["setup", "--uninstall-hooks"]));
    assert_eq!(out.code, 0, "{}", out.both());
    assert_eq!(
        p.read(".git/hooks/post-commit"),
        user_hook,
        "restored byte for byte"
    );
    assert!(
        !p.exists(".git/hooks/post-rewrite"),
        "our own file is removed"
    );
    assert!(
        !p.exists(".git/hooks/post-merge"),
        "our own file is removed"
    );
}

#[test]
fn a_repository_relative_hooks_path_is_honoured() {
    let p = project().fixture("rust").build();
    p.init();
    p.git(&["config", "core.hooksPath", ".githooks"]);
    let out = run(&p, p.lexictl(&["setup", "--hooks"]));
    assert_eq!(out.code, 0, "{}", out.both());
    assert!(p.exists(".githooks/post-commit"), "{}", out.both());
    assert!(!p.exists(".git/hooks/post-commit"));
    git(&p, "", &["add", "-A"]);
    git(&p, "", &["commit", "-qm", "via hooksPath"]);
    wait_for_worker(&p, "");
    assert!(p.exists(".lexibrary/src/lib.rs.md"), "{}", hook_log(&p, ""));
}

#[test]
fn a_global_or_outside_hooks_path_is_refused() {
    let p = project().fixture("rust").build();
    p.init();
    p.git(&["config", "core.hooksPath", "/tmp/elsewhere-hooks"]);
    let out = run(&p, p.lexictl(&["setup", "--hooks"]));
    assert_eq!(out.code, 1, "{}", out.both());
    assert!(
        out.stderr.contains("outside this repository"),
        "{}",
        out.stderr
    );
    p.git(&["config", "--unset", "core.hooksPath"]);
    let mut command = p.lexictl(&["setup", "--hooks"]);
    command
        .env("GIT_CONFIG_COUNT", "1")
        .env("GIT_CONFIG_KEY_0", "core.hooksPath")
        .env("GIT_CONFIG_VALUE_0", ".shared-hooks");
    let out = run(&p, command);
    assert_eq!(out.code, 1, "{}", out.both());
    assert!(
        out.stderr.contains("outside this repository's own config"),
        "{}",
        out.stderr
    );
    assert!(!p.exists(".git/hooks/post-commit") && !p.exists(".shared-hooks"));
}

#[test]
fn a_linked_worktree_is_kept_current() {
    let p = hooked();
    git(&p, "", &["worktree", "add", "-q", "wt", "-b", "feature"]);
    p.write("wt/src/feature.rs", "pub fn feature() {}\n");
    git(&p, "wt", &["add", "-A"]);
    git(&p, "wt", &["commit", "-qm", "feature"]);
    wait_for_worker(&p, "wt");
    assert!(
        p.exists("wt/.lexibrary/src/feature.rs.md"),
        "{}",
        hook_log(&p, "wt")
    );
    assert!(
        !p.exists(".lexibrary/src/feature.rs.md"),
        "the main worktree is untouched"
    );
    assert_current(&p, "wt");
}

#[test]
fn a_commit_succeeds_when_lexictl_is_not_on_path() {
    let p = hooked();
    p.write("src/x.rs", "pub fn x() {}\n");
    p.git_at("", &["add", "-A"], false);
    let out = p.git_at("", &["commit", "-qm", "no lexictl"], false);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn hook_managers_are_not_fought() {
    let p = project()
        .fixture("rust")
        .file("lefthook.yml", "pre-commit:\n  commands: {}\n")
        .build();
    p.init();
    let out = run(&p, p.lexictl(&["setup", "--hooks"]));
    assert_eq!(out.code, 0, "{}", out.both());
    assert!(
        out.stdout
            .starts_with("lefthook.yml manages this repository's hooks, so nothing was written"),
        "{}",
        out.stdout
    );
    assert!(out.stdout.contains("run: lexictl hook post-commit"));
    assert!(!p.exists(".git/hooks/post-commit"));
    assert_eq!(p.read("lefthook.yml"), "pre-commit:\n  commands: {}\n");

    let p = project()
        .fixture("rust")
        .file(".husky/pre-commit", "npm test\n")
        .build();
    p.init();
    let out = run(&p, p.lexictl(&["setup", "--hooks"]));
    assert_starts(&out.stdout, "post-commit: created (.husky/post-commit)\npost-merge: created (.husky/post-merge)\npost-applypatch: created (.husky/post-applypatch)\npost-rewrite: created (.husky/post-rewrite)\n");
}

#[test]
fn git_lexi_resolves_paths_from_a_subdirectory() {
    let p = hooked();
    let out = git(&p, "src", &["lexi", "lookup", "lib.rs"]);
    assert!(out.contains("# src/lib.rs"), "{out}");
    // An alias runs from the top level with GIT_PREFIX set.
    git(&p, "", &["config", "alias.lx", "!lexi"]);
    let out = git(&p, "src", &["lx", "lookup", "lib.rs"]);
    assert!(out.contains("# src/lib.rs"), "{out}");
    let help = p.git_at("", &["lexi", "--bogus"], true);
    assert!(
        String::from_utf8_lossy(&help.stderr).contains("git lexi"),
        "{}",
        String::from_utf8_lossy(&help.stderr)
    );
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut permissions = std::fs::metadata(path).unwrap().permissions();
    permissions.set_mode(0o755);
    std::fs::set_permissions(path, permissions).unwrap();
}

fn assert_starts(text: &str, prefix: &str) {
    assert!(
        text.starts_with(prefix),
        "expected to start with:\n{prefix}\ngot:\n{text}"
    );
}

#[test]
fn commits_applied_by_git_am_are_picked_up() {
    let p = hooked();
    // Make two patches on a side branch (without running hooks there), then apply them to main
    // with `git am`, which fires post-applypatch, not post-commit.
    git(&p, "", &["checkout", "-qb", "patches"]);
    for name in ["am1", "am2"] {
        p.write(&format!("src/{name}.rs"), format!("pub fn {name}() {{}}\n"));
        git(&p, "", &["add", &format!("src/{name}.rs")]);
        git(
            &p,
            "",
            &["-c", "core.hooksPath=/dev/null", "commit", "-qm", name],
        );
    }
    git(&p, "", &["format-patch", "-q", "-2", "-o", "../patches"]);
    git(&p, "", &["checkout", "-q", "main"]);
    let patches: Vec<String> = std::fs::read_dir(p.root.join("../patches"))
        .unwrap()
        .map(|entry| entry.unwrap().path().display().to_string())
        .collect();
    let mut sorted = patches;
    sorted.sort();
    let mut args = vec!["am", "-q"];
    args.extend(sorted.iter().map(String::as_str));
    git(&p, "", &args);
    wait_for_worker(&p, "");
    assert!(p.exists(".lexibrary/src/am2.rs.md"), "{}", hook_log(&p, ""));
}
