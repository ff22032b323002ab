//! `lexictl notes sync` and `lexictl setup --notes`: two clones and a bare remote on local disk.

use std::path::{Path, PathBuf};

use crate::support::{project, run, TestProject};

fn git_ok(p: &TestProject, dir: &Path, args: &[&str]) -> String {
    let rel = dir.strip_prefix(&p.root).map(|r| r.display().to_string());
    let out = match rel {
        Ok(rel) => p.git_at(&rel, args, true),
        Err(_) => {
            let mut command = std::process::Command::new("git");
            command.args(args).current_dir(dir);
            for (key, value) in [
                ("GIT_CONFIG_NOSYSTEM", "1"),
                ("GIT_AUTHOR_NAME", "Test Author"),
                ("GIT_AUTHOR_EMAIL", "author@example.com"),
                ("GIT_COMMITTER_NAME", "Test Author"),
                ("GIT_COMMITTER_EMAIL", "author@example.com"),
            ] {
                command.env(key, value);
            }
            command.env("GIT_CONFIG_GLOBAL", dir.join("../no-global-config"));
            command.output().unwrap()
        }
    };
    assert!(
        out.status.success(),
        "git {args:?} in {}: {}",
        dir.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn lexi_in(p: &TestProject, dir: &Path, program: &str, args: &[&str]) -> String {
    let mut command = p.bin(program, args);
    command.current_dir(dir);
    let out = run(p, command);
    assert_eq!(
        out.code,
        0,
        "{program} {args:?} in {}: {}",
        dir.display(),
        out.both()
    );
    out.stdout
}

/// A committed project, a bare `remote.git` cloned from it, and two clones `a` and `b` of that
/// remote, all side by side in the project's temp dir. Returns (project, remote, a, b).
fn two_clones(message: &str) -> (TestProject, PathBuf, PathBuf, PathBuf) {
    let p = project().fixture("rust").build();
    p.init();
    p.git(&["add", "-A"]);
    p.git(&["commit", "-qm", message]);
    let temp: PathBuf = p.root.parent().unwrap().to_path_buf();
    let remote = temp.join("remote.git");
    let root = p.root.to_str().unwrap().to_string();
    git_ok(
        &p,
        &temp,
        &["clone", "-q", "--bare", &root, remote.to_str().unwrap()],
    );
    let (a, b) = (temp.join("a"), temp.join("b"));
    for clone in [&a, &b] {
        git_ok(
            &p,
            &temp,
            &[
                "clone",
                "-q",
                remote.to_str().unwrap(),
                clone.to_str().unwrap(),
            ],
        );
    }
    (p, remote, a, b)
}

#[test]
fn two_clones_see_each_others_votes_after_syncing() {
    let (p, remote, a, b) = two_clones("library");
    for clone in [&a, &b] {
        let setup = lexi_in(&p, clone, "lexictl", &["setup", "--notes"]);
        assert!(setup.contains("remote.origin.fetch +refs/notes/lexibrarian/*:refs/lexibrarian/remotes/origin/notes/*"), "{setup}");
        assert!(
            setup.contains("notes.lexibrarian/stack.mergeStrategy cat_sort_uniq"),
            "{setup}"
        );
        let config = std::fs::read_to_string(clone.join(".git/config")).unwrap();
        assert!(
            !config.contains("push ="),
            "no push refspec is ever set: {config}"
        );
    }
    // A posts and votes, and shares the post file through the branch.
    lexi_in(
        &p,
        &a,
        "lexi",
        &[
            "stack",
            "post",
            "--title",
            "Shared",
            "--problem",
            "p",
            "--evidence",
            "e",
            "--author",
            "alice",
        ],
    );
    lexi_in(
        &p,
        &a,
        "lexi",
        &["stack", "vote", "ST-001", "up", "--author", "alice"],
    );
    git_ok(&p, &a, &["add", "-A"]);
    git_ok(&p, &a, &["commit", "-qm", "post"]);
    git_ok(&p, &a, &["push", "-q"]);
    lexi_in(&p, &a, "lexictl", &["notes", "sync"]);
    // B has not synced yet; it votes on its own copy.
    git_ok(&p, &b, &["pull", "-q", "--no-rebase"]);
    lexi_in(
        &p,
        &b,
        "lexi",
        &["stack", "vote", "ST-001", "up", "--author", "bob"],
    );
    let synced = lexi_in(&p, &b, "lexictl", &["notes", "sync"]);
    assert!(
        synced.contains("refs/notes/lexibrarian/stack: merged both sides' events"),
        "{synced}"
    );
    let synced = lexi_in(&p, &a, "lexictl", &["notes", "sync"]);
    assert!(
        synced.contains("refs/notes/lexibrarian/stack: took the remote's new events"),
        "{synced}"
    );
    for clone in [&a, &b] {
        let history = lexi_in(&p, clone, "lexi", &["stack", "history", "ST-001"]);
        assert!(history.contains("by alice"), "{history}");
        assert!(history.contains("+1  by bob"), "{history}");
        assert_eq!(history.matches("  vote ").count(), 2, "{history}");
    }
    // Syncing again changes nothing, and a plain `git push` still pushes the branch.
    let again = lexi_in(&p, &b, "lexictl", &["notes", "sync"]);
    assert!(
        again.contains("refs/notes/lexibrarian/stack: up to date"),
        "{again}"
    );
    std::fs::write(b.join("NEW.md"), "new\n").unwrap();
    git_ok(&p, &b, &["add", "-A"]);
    git_ok(&p, &b, &["commit", "-qm", "branch work"]);
    git_ok(&p, &b, &["push", "-q"]);
    let remote_head = git_ok(&p, &remote, &["rev-parse", "main"]);
    let b_head = git_ok(&p, &b, &["rev-parse", "HEAD"]);
    assert_eq!(remote_head, b_head);
}

#[test]
fn sync_without_a_remote_says_so() {
    let p = project().fixture("rust").build();
    p.init();
    let out = run(&p, p.lexictl(&["notes", "sync"]));
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("no remote to sync notes with"),
        "{}",
        out.stderr
    );
}

#[test]
fn provenance_is_recorded_per_written_design_file_and_shown_by_why() {
    let p = project().fixture("rust").build();
    p.init();
    let out = run(&p, p.lexictl(&["update"]));
    assert_eq!(out.code, 0, "{}", out.both());
    let notes = p.git(&[
        "notes",
        "--ref",
        "refs/notes/lexibrarian/provenance",
        "list",
    ]);
    assert_eq!(
        notes.lines().count(),
        3,
        "one note per design file: {notes}"
    );
    // One notes commit for the whole run.
    let commits = p.git(&["rev-list", "--count", "refs/notes/lexibrarian/provenance"]);
    assert_eq!(commits.trim(), "1");
    let why = run(&p, p.lexi(&["why", "src/lib.rs"]));
    assert_eq!(why.code, 0, "{}", why.both());
    assert!(
        why.stdout.contains("generated by structural at "),
        "{}",
        why.stdout
    );
    assert!(why.stdout.contains("level NEW"), "{}", why.stdout);
    let json: serde_json::Value =
        serde_json::from_str(&run(&p, p.lexi(&["why", "src/lib.rs", "--format", "json"])).stdout)
            .unwrap();
    assert_eq!(json["state"], "generated");
    assert_eq!(json["events"][0]["source"], "src/lib.rs");
    assert_eq!(json["events"][0]["generator"], "structural");
    let blob = json["blob"].as_str().unwrap().to_string();
    let note = p.git(&[
        "notes",
        "--ref",
        "refs/notes/lexibrarian/provenance",
        "show",
        &blob,
    ]);
    assert!(note.contains("\"kind\":\"generated\""), "{note}");
    // An edit makes the note no longer apply.
    let design = p.read(".lexibrary/src/lib.rs.md").replacen(
        "## Interface Contract",
        "## Notes\n\nWatch out.\n\n## Interface Contract",
        1,
    );
    p.write(".lexibrary/src/lib.rs.md", design);
    let why = run(&p, p.lexi(&["why", "src/lib.rs"]));
    assert!(
        why.stdout.contains("edited since it was generated"),
        "{}",
        why.stdout
    );
}

#[test]
fn provenance_from_two_clones_is_merged_by_sync() {
    let (p, _remote, a, b) = two_clones("config");
    std::fs::write(a.join("src/a_only.rs"), "pub fn a() {}\n").unwrap();
    std::fs::write(b.join("src/b_only.rs"), "pub fn b() {}\n").unwrap();
    for clone in [&a, &b] {
        lexi_in(&p, clone, "lexictl", &["update"]);
    }
    lexi_in(&p, &a, "lexictl", &["notes", "sync"]);
    lexi_in(&p, &b, "lexictl", &["notes", "sync"]);
    lexi_in(&p, &a, "lexictl", &["notes", "sync"]);
    let count = |clone: &Path| {
        git_ok(
            &p,
            clone,
            &[
                "notes",
                "--ref",
                "refs/notes/lexibrarian/provenance",
                "list",
            ],
        )
        .lines()
        .count()
    };
    // Each clone generated 4 design files; the two lib.rs/parser files differ only if the content
    // differs, so count distinct blobs: both clones end with the same union.
    assert_eq!(count(&a), count(&b));
    let a_blob = git_ok(&p, &a, &["hash-object", ".lexibrary/src/a_only.rs.md"]);
    let b_blob = git_ok(&p, &b, &["hash-object", ".lexibrary/src/b_only.rs.md"]);
    for clone in [&a, &b] {
        for blob in [&a_blob, &b_blob] {
            git_ok(
                &p,
                clone,
                &[
                    "notes",
                    "--ref",
                    "refs/notes/lexibrarian/provenance",
                    "show",
                    blob.trim(),
                ],
            );
        }
    }
}
