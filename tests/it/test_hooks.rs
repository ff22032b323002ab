//! `lexictl setup --hooks` and `lexictl hook`: real hooks fired by real git commits, the detached
//! worker, existing user hooks, `core.hooksPath`, worktrees, hook managers, and `git lexi`.

use std::path::Path;
use std::time::{Duration, Instant};

use crate::support::{project, TestProject};

/// The rust fixture with its library committed and the hooks installed. (The harness puts the
/// binaries under test first on PATH, where the hooks look for `lexictl`.)
pub(crate) fn hooked() -> TestProject {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexictl(["setup", "--hooks"]).success();
    p
}

pub(crate) fn state_dir(p: &TestProject, worktree: &str) -> std::path::PathBuf {
    let dir = p
        .git(["rev-parse", "--git-path", "lexibrarian"])
        .current_dir(worktree)
        .success()
        .stdout;
    p.root.join(worktree).join(dir.trim())
}

/// Wait until no worker runs and none is wanted.
pub(crate) fn wait_for_worker(p: &TestProject, worktree: &str) {
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

pub(crate) fn hook_log(p: &TestProject, worktree: &str) -> String {
    std::fs::read_to_string(state_dir(p, worktree).join("hook.log")).unwrap_or_default()
}

pub(crate) fn update_runs(p: &TestProject, worktree: &str) -> usize {
    hook_log(p, worktree)
        .matches("lexictl update --changed-only")
        .count()
}

pub(crate) fn assert_current(p: &TestProject, dir: &str) {
    p.lexictl(["update", "--check"])
        .current_dir(dir)
        .context(format!(
            "the library is not current after the hook; hook log:\n{}",
            hook_log(p, dir)
        ))
        .success();
}

#[test]
fn commits_of_every_shape_leave_the_library_current() {
    let p = hooked();
    // Two files with spaces and unicode in their names, in one commit.
    p.write("src/my module.rs", "//! Spaces.\npub fn spaced() {}\n");
    p.write("src/grüße.rs", "//! Unicode.\npub fn gruss() {}\n");
    p.commit_all("two odd names");
    wait_for_worker(&p, "");
    assert!(p.exists(".lexibrary/src/my module.rs.md") && p.exists(".lexibrary/src/grüße.rs.md"));
    assert_current(&p, "");
    // A merge commit.
    p.git(["checkout", "-qb", "side"]).success();
    p.write("src/side.rs", "pub fn side() {}\n");
    p.commit_all("side");
    wait_for_worker(&p, "");
    p.commit_all("side library");
    wait_for_worker(&p, "");
    p.git(["checkout", "-q", "main"]).success();
    p.write("src/main_only.rs", "pub fn main_only() {}\n");
    p.commit_all("main");
    p.git(["merge", "-q", "--no-edit", "side"]).success();
    wait_for_worker(&p, "");
    assert!(
        p.exists(".lexibrary/src/side.rs.md"),
        "hook log:\n{}",
        hook_log(&p, "")
    );
    assert_current(&p, "");
    // --amend.
    p.write("src/side.rs", "pub fn side() {}\npub fn amended() {}\n");
    p.git(["commit", "-qa", "--amend", "--no-edit"]).success();
    wait_for_worker(&p, "");
    assert!(p.read(".lexibrary/src/side.rs.md").contains("amended"));
    assert_current(&p, "");
}

#[test]
fn the_root_commit_is_handled() {
    let p = project().fixture("rust").no_git().init().build();
    p.git(["init", "-q", "-b", "main"]).success();
    p.lexictl(["setup", "--hooks"]).success();
    p.commit_all("root");
    wait_for_worker(&p, "");
    assert!(p.exists(".lexibrary/src/lib.rs.md"), "{}", hook_log(&p, ""));
    assert_current(&p, "");
}

#[test]
fn an_interactive_rebase_updates_once_at_the_end() {
    let p = hooked();
    for i in 0..3 {
        p.write(&format!("src/r{i}.rs"), format!("pub fn r{i}() {{}}\n"));
        p.commit_all(&format!("r{i}"));
        wait_for_worker(&p, "");
    }
    // The hook never commits: the library changes wait in the working tree for the next commit.
    p.commit_all("library");
    wait_for_worker(&p, "");
    let before = update_runs(&p, "");
    p.git(["config", "sequence.editor", "true"]).success();
    p.git(["rebase", "-q", "-i", "--force-rebase", "HEAD~4"])
        .success();
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
    p.git(["add", "-A"]).success();
    let started = Instant::now();
    let out = p.cmd("sh", ["-c", "git commit -qm many | cat"]).run();
    let commit_time = started.elapsed();
    out.success();
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
    let p = project().fixture("rust").init().build();
    let user_hook = "#!/bin/sh\necho ran >> user-hook-ran.txt\nexec true\n";
    p.write(".git/hooks/post-commit", user_hook);
    make_executable(&p.path(".git/hooks/post-commit"));
    let out = p.lexictl(["setup", "--hooks"]).success();
    assert_starts(&out.stdout, "post-commit: added the block (.git/hooks/post-commit)\npost-merge: created (.git/hooks/post-merge)\npost-applypatch: created (.git/hooks/post-applypatch)\npost-rewrite: created (.git/hooks/post-rewrite)\n");
    let installed = p.read(".git/hooks/post-commit");
    let block = installed.find("# >>> lexibrarian v1").expect("our block");
    assert!(block < installed.find("exec true").expect("the user's exec"));
    // Re-running is a no-op.
    let again = p.lexictl(["setup", "--hooks"]).success();
    assert_starts(&again.stdout, "post-commit: already installed (.git/hooks/post-commit)\npost-merge: already installed (.git/hooks/post-merge)\npost-applypatch: already installed (.git/hooks/post-applypatch)\npost-rewrite: already installed (.git/hooks/post-rewrite)\n");
    p.write("src/new.rs", "pub fn new() {}\n");
    p.commit_all("new");
    wait_for_worker(&p, "");
    assert!(p.exists("user-hook-ran.txt"), "the user's hook still runs");
    assert!(p.exists(".lexibrary/src/new.rs.md"), "{}", hook_log(&p, ""));
    p.lexictl(["setup", "--uninstall-hooks"]).success();
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
    let p = project().fixture("rust").init().build();
    p.git(["config", "core.hooksPath", ".githooks"]).success();
    let out = p.lexictl(["setup", "--hooks"]).success();
    assert!(p.exists(".githooks/post-commit"), "{}", out.both());
    assert!(!p.exists(".git/hooks/post-commit"));
    p.commit_all("via hooksPath");
    wait_for_worker(&p, "");
    assert!(p.exists(".lexibrary/src/lib.rs.md"), "{}", hook_log(&p, ""));
}

#[test]
fn a_global_or_outside_hooks_path_is_refused() {
    let p = project().fixture("rust").init().build();
    p.git(["config", "core.hooksPath", "/tmp/elsewhere-hooks"])
        .success();
    p.lexictl(["setup", "--hooks"])
        .code(1)
        .stderr_has("outside this repository");
    p.git(["config", "--unset", "core.hooksPath"]).success();
    p.lexictl(["setup", "--hooks"])
        .env("GIT_CONFIG_COUNT", "1")
        .env("GIT_CONFIG_KEY_0", "core.hooksPath")
        .env("GIT_CONFIG_VALUE_0", ".shared-hooks")
        .code(1)
        .stderr_has("outside this repository's own config");
    assert!(!p.exists(".git/hooks/post-commit") && !p.exists(".shared-hooks"));
}

#[test]
fn a_linked_worktree_is_kept_current() {
    let p = hooked();
    p.git(["worktree", "add", "-q", "wt", "-b", "feature"])
        .success();
    p.write("wt/src/feature.rs", "pub fn feature() {}\n");
    p.git(["add", "-A"]).current_dir("wt").success();
    p.git(["commit", "-qm", "feature"])
        .current_dir("wt")
        .success();
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
    p.git(["add", "-A"]).without_bins().success();
    p.git(["commit", "-qm", "no lexictl"])
        .without_bins()
        .success()
        .no_stderr();
}

#[test]
fn hook_managers_are_not_fought() {
    let p = project()
        .fixture("rust")
        .file("lefthook.yml", "pre-commit:\n  commands: {}\n")
        .init()
        .build();
    let out = p.lexictl(["setup", "--hooks"]).success();
    assert_starts(
        &out.stdout,
        "lefthook.yml manages this repository's hooks, so nothing was written",
    );
    out.stdout_has("run: lexictl hook post-commit");
    assert!(!p.exists(".git/hooks/post-commit"));
    assert_eq!(p.read("lefthook.yml"), "pre-commit:\n  commands: {}\n");

    let p = project()
        .fixture("rust")
        .file(".husky/pre-commit", "npm test\n")
        .init()
        .build();
    // (Never updated, so the library is stale: status exits 2 and still says how the hooks are.)
    p.lexictl(["status"])
        .code(2)
        .stdout_has("Hook: not installed (husky manages the hooks;");
    let out = p.lexictl(["setup", "--hooks"]).success();
    assert_starts(&out.stdout, "post-commit: created (.husky/post-commit)\npost-merge: created (.husky/post-merge)\npost-applypatch: created (.husky/post-applypatch)\npost-rewrite: created (.husky/post-rewrite)\n");
    p.lexictl(["status"])
        .run()
        .stdout_has("Hook: installed (through husky)");
}

/// `status` reports a hook manager's hook only when our entry is in its configuration: the
/// printed snippet, pasted, counts; the manager's file alone does not.
#[test]
fn status_reports_a_managed_hook_only_when_configured() {
    for (file, other) in [
        ("lefthook.yml", "pre-commit:\n  commands: {}\n"),
        (".pre-commit-config.yaml", "repos: []\n"),
    ] {
        let p = project().fixture("rust").file(file, other).init().build();
        p.lexictl(["update"]).success();
        p.lexictl(["status"])
            .success()
            .stdout_has("Hook: not installed (");
        let printed = p.lexictl(["setup", "--hooks", "--format", "json"]).json();
        let snippet = printed["hooks"]["snippet"].as_str().expect("a snippet");
        let yaml: serde_yaml::Value = serde_yaml::from_str(snippet).expect("the snippet is YAML");
        assert!(yaml.is_mapping(), "{snippet}");
        p.write(file, snippet);
        let status = p.lexictl(["status", "--format", "json"]).run();
        assert!(
            status.json()["status"]["hook"]
                .as_str()
                .is_some_and(|hook| hook.starts_with("installed (through ")),
            "{file}: {}",
            status.stdout
        );
    }
}

#[test]
fn git_lexi_resolves_paths_from_a_subdirectory() {
    let p = hooked();
    p.git(["lexi", "lookup", "lib.rs"])
        .current_dir("src")
        .success()
        .stdout_has("# src/lib.rs");
    // An alias runs from the top level with GIT_PREFIX set.
    p.git(["config", "alias.lx", "!lexi"]).success();
    p.git(["lx", "lookup", "lib.rs"])
        .current_dir("src")
        .success()
        .stdout_has("# src/lib.rs");
    p.git(["lexi", "--bogus"]).run().stderr_has("git lexi");
}

fn make_executable(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let mut permissions = std::fs::metadata(path).expect("stat").permissions();
    permissions.set_mode(0o755);
    std::fs::set_permissions(path, permissions).expect("chmod");
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
    p.git(["checkout", "-qb", "patches"]).success();
    for name in ["am1", "am2"] {
        p.write(&format!("src/{name}.rs"), format!("pub fn {name}() {{}}\n"));
        p.git(["add", &format!("src/{name}.rs")]).success();
        p.git(["-c", "core.hooksPath=/dev/null", "commit", "-qm", name])
            .success();
    }
    p.git(["format-patch", "-q", "-2", "-o", "../patches"])
        .success();
    p.git(["checkout", "-q", "main"]).success();
    let mut patches: Vec<String> = std::fs::read_dir(p.root.join("../patches"))
        .expect("the patches")
        .map(|entry| entry.expect("a patch").path().display().to_string())
        .collect();
    patches.sort();
    p.git(
        ["am".to_string(), "-q".to_string()]
            .into_iter()
            .chain(patches),
    )
    .success();
    wait_for_worker(&p, "");
    assert!(p.exists(".lexibrary/src/am2.rs.md"), "{}", hook_log(&p, ""));
}

/// A submodule bump (its gitlink moved) reaches the library through the hook when the submodule's
/// files are in scope: `--changed-only` looks inside the submodule between the two commits.
#[test]
fn a_submodule_bump_reaches_the_library() {
    let sub = project()
        .file("src/one.rs", "//! One.\npub fn one() {}\n")
        .build();
    let p = project()
        .fixture("rust")
        .init()
        // `vendor/` is skipped by default (vendored code); this project documents it.
        .config("scope_root: [src/, vendor/]\nmapping:\n  rules:\n    - glob: vendor/\n      strategy: full\n")
        .build();
    let allow = ["-c", "protocol.file.allow=always"];
    p.git(allow)
        .args(["submodule", "add", "-q"])
        .args([&sub.root])
        .args(["vendor/sublib"])
        .success();
    p.lexictl(["update"]).success();
    p.commit_all("library with a submodule");
    assert!(p.exists(".lexibrary/vendor/sublib/src/one.rs.md"));
    p.lexictl(["setup", "--hooks"]).success();
    wait_for_worker(&p, "");
    // Upstream, the submodule changes an interface and gains a file; the superproject bumps it.
    sub.write("src/one.rs", "//! One.\npub fn one(x: u8) {}\n");
    sub.write("src/two.rs", "//! Two.\npub fn two() {}\n");
    sub.commit_all("upstream");
    p.git(allow)
        .args(["-C", "vendor/sublib", "pull", "-q", "origin", "main"])
        .success();
    p.git(["add", "vendor/sublib"]).success();
    p.git(["commit", "-q", "-m", "bump sublib"]).success();
    wait_for_worker(&p, "");
    assert!(
        p.exists(".lexibrary/vendor/sublib/src/two.rs.md"),
        "{}",
        hook_log(&p, "")
    );
    assert!(p
        .read(".lexibrary/vendor/sublib/src/one.rs.md")
        .contains("pub fn one(x: u8)"));
    assert_current(&p, "");
}

/// `lexictl status` reports what `lexictl update --check` finds — after `lexi describe` (which
/// changes what an index shows) too — and, in a fresh clone with an empty cache, the committed
/// library: its design files counted, healthy when current.
#[test]
fn status_agrees_with_update_check_and_sees_a_fresh_clones_library() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexictl(["status"]).success().stdout_has("Healthy.");
    p.lexi(["describe", "src", "The calculator's sources."])
        .success();
    let check = p.lexictl(["update", "--check"]).run();
    let status = p.lexictl(["status", "--format", "json"]).run();
    assert_eq!(
        status.code, check.code,
        "{}\n{}",
        check.stdout, status.stdout
    );
    assert_eq!(status.code, 2, "{}", check.stdout);
    assert_eq!(status.json()["healthy"], false);
    p.lexictl(["update"]).success();
    p.commit_all("described");
    let fresh = p.clone_to("fresh");
    let out = fresh.lexictl(["status"]).success();
    out.stdout_has("Library: 3 design files, 3 indexes")
        .stdout_has("Stale: 0")
        .stdout_has("Healthy.");
    fresh.lexictl(["update", "--check"]).success();
}
