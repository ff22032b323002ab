//! Repositories git made with `--object-format=sha256` work end to end: update (with its provenance
//! pack), validate, status, the hooks, the Stack's history, `lexi why`, review and notes sync — and
//! git reads back everything written. A repository whose references live in a reftable, which gix
//! cannot read, is refused with one clear message by every command instead of being treated as if
//! outside git.

use crate::support::{project, TestProject};
use crate::test_hooks::{hook_log, wait_for_worker};

/// A SHA-256 repository with 70 Rust files (their provenance is one pack) and an initial commit.
fn sha256_project() -> TestProject {
    let mut builder = project().no_git();
    for n in 0..70 {
        builder = builder.file(
            &format!("src/m{n}.rs"),
            format!("//! Module {n} adds {n}.\npub fn f{n}(x: u32) -> u32 {{\n    x + {n}\n}}\n"),
        );
    }
    let p = builder
        .file("src/lib.rs", "//! The crate.\npub mod m0;\npub mod m1;\n")
        .build();
    p.git(["init", "-q", "-b", "main", "--object-format=sha256"])
        .success();
    p.commit_all("initial");
    p
}

#[test]
fn a_sha256_repository_works_end_to_end() {
    let p = sha256_project();
    assert_eq!(
        p.git(["rev-parse", "--show-object-format"])
            .success()
            .stdout
            .trim(),
        "sha256"
    );
    p.init();
    p.lexictl(["setup", "--hooks"]).success();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexictl(["validate", "--severity", "info"])
        .success()
        .stdout_has("71 design files");
    p.lexictl(["status"])
        .success()
        .stdout_has("Hook: installed");
    // The provenance went into a pack git verifies, keyed by SHA-256 blob ids.
    let notes = p
        .git([
            "notes",
            "--ref",
            "refs/notes/lexibrarian/provenance",
            "list",
        ])
        .success()
        .stdout;
    assert_eq!(notes.lines().count(), 71);
    assert!(
        notes.lines().all(|line| line.len() == 64 + 1 + 64),
        "{notes}"
    );
    let packs: Vec<_> = std::fs::read_dir(p.path(".git/objects/pack"))
        .expect("pack dir")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "idx"))
        .collect();
    assert_eq!(packs.len(), 1, "{packs:?}");
    p.git(["verify-pack"]).args(&packs).success();
    p.git(["fsck", "--strict", "--no-dangling"]).success();
    let why = p.lexi(["why", "src/m3.rs", "--format", "json"]).json();
    assert_eq!(why["state"], "generated", "{why}");
    assert_eq!(why["events"][0]["blob"].as_str().map(str::len), Some(64));

    // A commit: the hook updates the library.
    p.write(
        "src/m3.rs",
        "//! Module 3 adds 3.\npub fn f3(x: u32) -> u32 {\n    x + 3\n}\npub fn g3() {}\n",
    );
    p.commit_all("m3 grows");
    wait_for_worker(&p, "");
    assert!(
        p.read(".lexibrary/src/m3.rs.md").contains("g3"),
        "{}",
        hook_log(&p, "")
    );
    p.commit_all("library of m3");
    wait_for_worker(&p, "");
    p.lexictl(["update", "--check"]).success();

    // The Stack's history and a review.
    p.lexi([
        "stack",
        "post",
        "--title",
        "Overflow",
        "--file",
        "src/m3.rs",
        "--problem",
        "p",
        "--evidence",
        "e",
    ])
    .success();
    p.lexi(["stack", "vote", "ST-001", "up"]).success();
    p.lexi(["stack", "history", "ST-001"])
        .success()
        .stdout_has("vote    +1");
    p.lexictl(["review", "HEAD~2..HEAD"])
        .success()
        .stdout_has("src/m3.rs");

    // Notes shared with a SHA-256 remote.
    let remote = p.clone_bare_to("remote.git");
    p.git(["remote", "add", "origin"])
        .args([remote.root.as_os_str()])
        .success();
    p.lexictl(["notes", "sync", "origin"]).success();
    remote
        .git(["notes", "--ref", "refs/notes/lexibrarian/stack", "list"])
        .success()
        .stdout_has(" ");
}

#[test]
fn a_reftable_repository_is_refused_clearly_by_every_command() {
    let p = project().file("src/a.rs", "pub fn a() {}\n").init().build();
    // What `git init --ref-format=reftable` records (made by hand: older gits cannot make one).
    p.git(["config", "core.repositoryformatversion", "1"])
        .success();
    p.git(["config", "extensions.refStorage", "reftable"])
        .success();
    let refused = "stores its references in a reftable (extensions.refStorage), which Lexibrarian cannot read or write yet";
    for args in [
        &["update"][..],
        &["validate"],
        &["status"],
        &["setup", "--hooks"],
    ] {
        p.lexictl(args)
            .code(1)
            .stderr_has(refused)
            .stderr_has("git refs migrate --ref-format=files");
    }
    p.lexi([
        "stack",
        "post",
        "--title",
        "T",
        "--file",
        "src/a.rs",
        "--problem",
        "p",
        "--evidence",
        "e",
    ])
    .code(1)
    .stderr_has(refused);
    assert!(
        !p.exists(".lexibrary/stack/ST-001-t.md"),
        "nothing written without its history"
    );
    let fresh = project().no_git().file("a.rs", "").build();
    fresh.git(["init", "-q"]).success();
    fresh
        .git(["config", "core.repositoryformatversion", "1"])
        .success();
    fresh
        .git(["config", "extensions.refStorage", "reftable"])
        .success();
    fresh.lexictl(["init", "--yes"]).code(1).stderr_has(refused);
    assert!(!fresh.exists(".lexibrary"));
}
