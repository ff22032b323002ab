//! `validate` and `review` on hostile libraries (issue 30, defect 8): a 32 MB design file, a design
//! file swapped for a symlink to `/etc/passwd`, paths that climb out of the project in
//! Dependencies and a Stack post's `refs.files`, invalid UTF-8, FIFOs where ignore files belong,
//! and a project whose own source directories are named `stack/` and `concepts/`.

use std::time::{Duration, Instant};

use crate::support::{project, Exec, Output, TestProject};

fn library_project() -> TestProject {
    let p = project()
        .file("src/a.py", "\"\"\"Module a.\"\"\"\nimport b\n")
        .file("src/b.py", "\"\"\"Module b.\"\"\"\n")
        .init()
        .config("scope_root: src\n")
        .build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p
}

/// The `issues` of a JSON validate report with this check id.
fn issues<'a>(report: &'a serde_json::Value, check: &str) -> Vec<&'a serde_json::Value> {
    report["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .filter(|issue| issue["check"] == check)
        .collect()
}

/// Run `exec` to its end, failing (and killing it) if it takes longer than a minute: what hangs
/// fails the test instead of hanging the suite.
fn within_a_minute(exec: Exec<'_>) -> Output {
    let mut running = exec.spawn();
    let started = Instant::now();
    while running.child.try_wait().expect("try_wait").is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = running.child.kill();
            let out = running.wait();
            out.fail("still running after a minute: it hangs");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    running.wait()
}

/// (a) A 32 MB single-line design file is reported as too large and never parsed (or tokenised);
/// the other design files are checked as usual; `update` leaves it as it is and `lookup` refuses
/// it by name.
#[test]
fn a_huge_design_file_is_reported_as_too_large_not_parsed() {
    let p = library_project();
    let design = p.read(".lexibrary/src/a.py.md");
    let huge = design.replacen(
        "## Dependencies",
        &format!(
            "## Notes\n\n{}\n\n## Dependencies",
            "x".repeat(32 * 1024 * 1024)
        ),
        1,
    );
    p.write(".lexibrary/src/a.py.md", &huge);
    let report = p.lexictl(["validate", "--format", "json"]).code(2).json();
    let too_large = issues(&report, "too-large");
    assert_eq!(too_large.len(), 1, "{report:#}");
    assert_eq!(too_large[0]["file"], ".lexibrary/src/a.py.md");
    assert!(
        too_large[0]["message"]
            .as_str()
            .expect("message")
            .contains("over the 1 MiB a library file may have"),
        "{report:#}"
    );
    assert!(issues(&report, "over-budget").is_empty(), "never tokenised");
    p.lexictl(["update"])
        .success()
        .stderr_has(".lexibrary/src/a.py.md: 33");
    assert_eq!(
        p.read(".lexibrary/src/a.py.md").len(),
        huge.len(),
        "left as it is"
    );
    p.lexi(["lookup", "src/a.py"])
        .code(1)
        .stderr_has("over the 1 MiB a library file may have");
}

/// (b) A pull request that replaces a design file by a symlink to `/etc/passwd` (and adds a linked
/// concept) shows in `review` as symbolic links — errors in every format — never as an edit whose
/// text is the link's target, and nothing is read through them.
#[test]
fn review_reports_a_design_file_swapped_for_a_symlink() {
    let p = library_project();
    std::fs::remove_file(p.path(".lexibrary/src/a.py.md")).expect("remove");
    std::os::unix::fs::symlink("/etc/passwd", p.path(".lexibrary/src/a.py.md")).expect("symlink");
    std::os::unix::fs::symlink("/etc/passwd", p.path(".lexibrary/concepts/Evil.md"))
        .expect("symlink");
    p.commit_all("swap a design file for a link");
    let json = p
        .lexictl(["review", "HEAD~1..HEAD", "--format", "json"])
        .json();
    let findings = json["findings"].as_array().expect("findings");
    let links: Vec<&serde_json::Value> = findings
        .iter()
        .filter(|finding| finding["kind"] == "symlink")
        .collect();
    assert_eq!(links.len(), 2, "{json:#}");
    assert!(links.iter().all(|finding| finding["severity"] == "error"));
    assert!(json["design_files"]
        .as_array()
        .expect("design files")
        .is_empty());
    assert!(json["concepts"].as_array().expect("concepts").is_empty());
    let files = json["library_files"].as_array().expect("library files");
    let swapped = files
        .iter()
        .find(|file| file["path"] == ".lexibrary/src/a.py.md")
        .expect("listed");
    assert_eq!(swapped["symlink_to"], "/etc/passwd");
    assert_eq!(swapped["change"], "modified");
    let text = p.lexictl(["review", "HEAD~1..HEAD"]).success();
    text.stdout_has("Symbolic link in the library")
        .stdout_has("**a symbolic link** to `/etc/passwd`")
        .stdout_lacks("root:");
    p.lexictl(["review", "HEAD~1..HEAD", "--format", "github"])
        .success()
        .stdout_has("::error file=.lexibrary/src/a.py.md,title=Symbolic link in the library::");
}

/// (c) Paths in a design file's Dependencies and Tests and in a Stack post's `refs.files` that
/// leave the project are invalid paths — the same error whether or not something is there on the
/// machine that runs the check, which is never asked.
#[test]
fn paths_that_leave_the_project_are_never_looked_up() {
    let p = library_project();
    // Something that does exist outside the project, beside it, and something that does not.
    let outside = p.root.parent().expect("parent").join("outside-secret.txt");
    std::fs::write(&outside, "x").expect("write");
    let design = p.read(".lexibrary/src/a.py.md");
    let body = "## Dependencies\n\n- ../outside-secret.txt\n- ../../../../root/.ssh/id_rsa\n- /etc/passwd\n- src/b.py\n\n## Tests\n\n- ../../nope/test_x.py\n";
    let content = design
        .split("<!-- lexibrarian:meta")
        .next()
        .expect("content");
    let content = content.replacen(
        "## Dependencies",
        &format!("{body}\n## Old Dependencies"),
        1,
    );
    p.write(".lexibrary/src/a.py.md", content);
    p.write(
        ".lexibrary/stack/ST-001-climb.md",
        "---\nid: ST-001\ntitle: Climb\ntags:\n- x\nstatus: open\ncreated: 2026-01-15\nauthor: a\nvotes: 0\nrefs:\n  files:\n  - ../outside-secret.txt\n  - ../../../../root/.ssh/id_rsa\n  - src/b.py\n---\n\n## Problem\n\nx\n\n## Evidence\n\ny\n",
    );
    let report = p.lexictl(["validate", "--format", "json"]).code(2).json();
    let invalid = issues(&report, "invalid-path");
    let mut messages: Vec<String> = invalid
        .iter()
        .map(|issue| issue["message"].as_str().expect("message").to_string())
        .collect();
    messages.sort();
    assert_eq!(
        messages,
        [
            "Dependencies lists ../../../../root/.ssh/id_rsa, which is not a path inside the project (it was not looked up)",
            "Dependencies lists ../outside-secret.txt, which is not a path inside the project (it was not looked up)",
            "Dependencies lists /etc/passwd, which is not a path inside the project (it was not looked up)",
            "Tests lists ../../nope/test_x.py, which is not a path inside the project (it was not looked up)",
            "refs.files lists ../../../../root/.ssh/id_rsa, which is not a path inside the project (it was not looked up)",
            "refs.files lists ../outside-secret.txt, which is not a path inside the project (it was not looked up)",
        ],
        "{report:#}"
    );
    for check in ["missing-dependency", "missing-test", "stack-missing-ref"] {
        assert!(issues(&report, check).is_empty(), "{check}: {report:#}");
    }
}

/// (d) Invalid UTF-8 in a design file and in an `.aindex` is an error naming the file, its line
/// and byte — not a clean validate while `lookup` fails.
#[test]
fn invalid_utf8_in_a_design_file_or_an_index_is_reported() {
    let p = library_project();
    let mut design = p.read(".lexibrary/src/a.py.md").into_bytes();
    let at = design.iter().position(|b| *b == b'\n').expect("a line") + 1;
    design.splice(at..at, [0xff, 0xfe]);
    p.write(".lexibrary/src/a.py.md", &design);
    let mut index = p.read(".lexibrary/src/.aindex").into_bytes();
    index.extend_from_slice(b"\nbroken \xc3\x28 text\n");
    p.write(".lexibrary/src/.aindex", &index);
    let report = p.lexictl(["validate", "--format", "json"]).code(2).json();
    let malformed = issues(&report, "malformed-file");
    let found: Vec<(String, u64, String)> = malformed
        .iter()
        .map(|issue| {
            (
                issue["file"].as_str().expect("file").to_string(),
                issue["line"].as_u64().expect("line"),
                issue["message"].as_str().expect("message").to_string(),
            )
        })
        .collect();
    let index_line = index.iter().filter(|b| **b == b'\n').count() as u64;
    assert_eq!(
        found,
        [
            (
                ".lexibrary/src/.aindex".to_string(),
                index_line,
                format!(
                    ".lexibrary/src/.aindex:{index_line}: not valid UTF-8 at byte {}",
                    index.len() - 8
                )
            ),
            (
                ".lexibrary/src/a.py.md".to_string(),
                2,
                format!(".lexibrary/src/a.py.md:2: not valid UTF-8 at byte {at}")
            ),
        ],
        "{report:#}"
    );
}

/// (e) A FIFO at `.lexignore` or at a nested `.gitignore` never hangs `update`, `update --check`
/// or `validate`: each ends, naming the file.
#[test]
fn fifos_where_ignore_files_belong_never_hang_a_command() {
    for fifo in ["src/nested/.gitignore", ".lexignore"] {
        let p = library_project();
        std::fs::create_dir_all(p.path("src/nested")).expect("mkdir");
        let _ = std::fs::remove_file(p.path(fifo));
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            p.path(fifo),
            rustix::fs::Mode::from_raw_mode(0o644),
        )
        .expect("mkfifo");
        for args in [
            &["update"][..],
            &["update", "--check"],
            &["update", "--changed-only"],
            &["validate"],
        ] {
            let out = within_a_minute(p.lexictl(args));
            assert_ne!(out.code, 0, "{fifo}: {args:?}\n{}", out.both());
            assert!(
                out.both().contains(fifo),
                "{fifo}: {args:?}\n{}",
                out.both()
            );
        }
        within_a_minute(p.lexi(["index", "src"]));
    }
}

/// (f) A project whose own source directories are named `stack/` and `concepts/` gets a fresh
/// library that validates clean — their design files and indexes beside the library's Stack posts
/// and concepts, which keep working.
#[test]
fn source_directories_named_stack_and_concepts_are_documented_beside_the_library() {
    let p = project()
        .file(
            "stack/stack.py",
            "\"\"\"A stack of frames.\"\"\"\ndef push(x):\n    pass\n",
        )
        .file("stack/sub/frames.py", "\"\"\"Frames.\"\"\"\n")
        .file("concepts/model.py", "\"\"\"The concept model.\"\"\"\n")
        .file("src/main.py", "\"\"\"Main.\"\"\"\n")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    p.lexictl(["validate"]).success().stdout_lacks("stray-file");
    for design in [
        ".lexibrary/stack/stack.py.md",
        ".lexibrary/stack/sub/frames.py.md",
        ".lexibrary/concepts/model.py.md",
        ".lexibrary/stack/.aindex",
        ".lexibrary/concepts/.aindex",
    ] {
        assert!(p.exists(design), "{design}");
    }
    p.lexi(["lookup", "stack/stack.py"])
        .success()
        .stdout_has("A stack of frames.");
    // The library's own Stack posts and concepts live beside them.
    p.lexi([
        "stack",
        "post",
        "--title",
        "Frames leak",
        "--problem",
        "p",
        "--evidence",
        "e",
        "--author",
        "a",
    ])
    .success();
    p.lexi(["concept", "new", "Frames"]).success();
    p.lexi(["stack", "list"])
        .success()
        .stdout_has("Frames leak");
    p.lexi(["concepts"]).success().stdout_has("Frames");
    p.lexictl(["update"]).success();
    let report = p.lexictl(["validate", "--format", "json"]).run().json();
    assert!(issues(&report, "stray-file").is_empty(), "{report:#}");
    assert!(issues(&report, "malformed-file").is_empty(), "{report:#}");
    assert_eq!(report["checked"]["stack_posts"], 1);
    assert_eq!(report["checked"]["concepts"], 1);
    // The four sources (AGENTS.md, init's rule file, is mapped `skip`).
    assert_eq!(report["checked"]["design_files"], 4);
}
