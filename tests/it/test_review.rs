//! `lexictl review`: what a pull request did to the library — design file diffs without footer noise,
//! interface changes without a design update, concepts, the Stack with votes from the notes,
//! provenance — as markdown, JSON and GitHub annotations; ranges, defaults and bad input.

use crate::support::{project, TestProject};

/// The rust fixture with its library committed on `main`, and a `pr` branch checked out.
fn pr_project() -> TestProject {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.git(["checkout", "-qb", "pr"]).success();
    p
}

/// Snapshot filters for reviews: the project root, times, commit and blob ids (40 hex), short ids
/// (12 hex) and hashes (64 hex).
fn review_snapshots(p: &TestProject) -> insta::internals::SettingsBindDropGuard {
    p.snapshots()
        .times()
        .filter(r"\b[0-9a-f]{64}\b", "[HASH]")
        .filter(r"\b[0-9a-f]{40}\b", "[ID]")
        .filter(r"\b[0-9a-f]{12}\b", "[SHORT]")
        .bind()
}

fn edit(p: &TestProject, rel: &str, from: &str, to: &str) {
    let text = p.read(rel);
    assert!(text.contains(from), "{rel} does not contain {from:?}");
    p.write(rel, text.replacen(from, to, 1));
}

#[test]
fn a_signature_edit_without_its_design_file_is_a_warning() {
    let p = pr_project();
    edit(
        &p,
        "src/lib.rs",
        "pub fn eval(input: &str)",
        "pub fn eval(input: &str, strict: bool)",
    );
    // A body-only edit elsewhere is not an interface change.
    edit(
        &p,
        "src/parser/lexer.rs",
        "input.split",
        "input.trim().split",
    );
    p.commit_all("strict eval");

    let markdown = p
        .lexictl(["review", "main..HEAD"])
        .success()
        .no_stderr()
        .stdout;
    let _snapshots = review_snapshots(&p);
    insta::assert_snapshot!("review_interface_changed", markdown);

    let github = p
        .lexictl(["review", "main..HEAD", "--format", "github"])
        .success()
        .no_stderr()
        .stdout;
    let lines: Vec<&str> = github.lines().collect();
    assert_eq!(
        lines[0],
        "::notice title=Lexibrarian review::main..HEAD: no design file changes, 1 warning"
    );
    assert_eq!(
        lines[1],
        "::warning file=src/lib.rs,line=6,title=Interface changed without a design update::the public interface of src/lib.rs changed (changed: eval) but .lexibrary/src/lib.rs.md was not updated; run `lexictl update src/lib.rs` or edit the design file"
    );
    assert_eq!(lines.len(), 2, "{github}");

    let json = p
        .lexictl(["review", "main..HEAD", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    assert_eq!(json["range"], "main..HEAD");
    assert_eq!(json["merge_base"], false);
    assert_eq!(json["commits"], 1);
    assert_eq!(json["summary"]["warnings"], 1);
    let finding = &json["findings"][0];
    assert_eq!(finding["kind"], "interface_changed");
    assert_eq!(finding["severity"], "warning");
    assert_eq!(finding["source"], "src/lib.rs");
    assert_eq!(finding["design_file"], ".lexibrary/src/lib.rs.md");
    assert_eq!(finding["line"], 6);
    assert_eq!(
        finding["added"][0]["signature"],
        "pub fn eval(input: &str, strict: bool) -> Result<i64, parser::ParseError>"
    );
    assert_eq!(finding["removed"][0]["name"], "eval");

    // Running the update and committing it clears the warning and shows the design diff.
    p.lexictl(["update"]).success();
    p.commit_all("update the library");
    let json = p
        .lexictl(["review", "main..HEAD", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    assert_eq!(json["findings"], serde_json::json!([]));
    let designs = json["design_files"].as_array().expect("design_files");
    let lib = designs
        .iter()
        .find(|d| d["source"] == "src/lib.rs")
        .expect("lib.rs design change");
    assert_eq!(lib["footer_only"], false);
    let diff = lib["diff"]["unified"].as_str().expect("diff");
    assert!(
        diff.contains("-pub fn eval(input: &str) -> Result<i64, parser::ParseError>  // Evaluate"),
        "{diff}"
    );
    assert!(
        diff.contains("+pub fn eval(input: &str, strict: bool)"),
        "{diff}"
    );
    assert!(
        !diff.contains("source_hash"),
        "the footer is hidden: {diff}"
    );
    let lexer = designs
        .iter()
        .find(|d| d["source"] == "src/parser/lexer.rs")
        .expect("lexer.rs design change");
    assert_eq!(lexer["footer_only"], true);
    assert_eq!(lexer["diff"], serde_json::Value::Null);
}

#[test]
fn a_new_concept_is_listed_with_its_title_and_status() {
    let p = pr_project();
    p.lexi([
        "concept",
        "new",
        "Evaluation",
        "--title",
        "Expression evaluation",
        "--tag",
        "calc",
        "--alias",
        "eval",
    ])
    .success();
    p.commit_all("concept");

    let markdown = p.lexictl(["review", "main"]).success().no_stderr().stdout;
    let _snapshots = review_snapshots(&p);
    insta::assert_snapshot!("review_concept_added", markdown);

    let json = p
        .lexictl(["review", "main", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    assert_eq!(json["range"], "main...HEAD");
    assert_eq!(json["merge_base"], true);
    let concept = &json["concepts"][0];
    assert_eq!(concept["name"], "Evaluation");
    assert_eq!(concept["change"], "added");
    assert_eq!(concept["title"]["head"], "Expression evaluation");
    assert_eq!(concept["title"]["base"], serde_json::Value::Null);
    assert_eq!(concept["status"]["head"], "draft");
    assert_eq!(json["summary"]["concepts_added"], 1);

    // Deprecating it later is a status change.
    edit(
        &p,
        ".lexibrary/concepts/Evaluation.md",
        "status: draft",
        "status: deprecated\nsuperseded_by: Evaluator",
    );
    p.commit_all("deprecate");
    let json = p
        .lexictl(["review", "HEAD~1..HEAD", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    let concept = &json["concepts"][0];
    assert_eq!(concept["change"], "modified");
    assert_eq!(concept["status"]["base"], "draft");
    assert_eq!(concept["status"]["head"], "deprecated");
    assert_eq!(concept["superseded_by"], "Evaluator");
    let github = p
        .lexictl(["review", "HEAD~1..HEAD", "--format", "github"])
        .success()
        .no_stderr()
        .stdout;
    assert!(
        github.contains("::notice file=.lexibrary/concepts/Evaluation.md,title=Concept modified::[[Evaluation]] Expression evaluation (deprecated)\n"),
        "{github}"
    );
}

#[test]
fn a_change_that_only_refreshes_footers_shows_no_diff() {
    let p = pr_project();
    edit(
        &p,
        "src/parser/lexer.rs",
        "input.split",
        "input.trim().split",
    );
    edit(
        &p,
        "src/parser/mod.rs",
        "let tokens = lexer::tokens(input);",
        "let tokens = lexer::tokens(input.trim());",
    );
    p.lexictl(["update"]).success();
    p.commit_all("trim input");

    let markdown = p
        .lexictl(["review", "main..HEAD"])
        .success()
        .no_stderr()
        .stdout;
    let _snapshots = review_snapshots(&p);
    insta::assert_snapshot!("review_footer_only", markdown);
    assert!(!markdown.contains("```diff"), "{markdown}");

    let json = p
        .lexictl(["review", "main..HEAD", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    assert_eq!(json["summary"]["design_files_modified"], 2);
    assert_eq!(json["summary"]["design_files_footer_only"], 2);
    assert_eq!(json["summary"]["warnings"], 0);
}

#[test]
fn a_new_stack_post_shows_its_accepted_answer_and_the_votes_from_the_notes() {
    let p = pr_project();
    let lexi = |args: &[&str]| {
        p.lexi(args).success();
    };
    lexi(&[
        "stack",
        "post",
        "--title",
        "Lexer panics on unicode",
        "--tag",
        "parser",
        "--file",
        "src/parser/lexer.rs",
        "--problem",
        "The lexer slices bytes.",
        "--evidence",
        "panicked at byte index 3",
        "--author",
        "agent-a",
    ]);
    lexi(&[
        "stack",
        "answer",
        "ST-001",
        "--body",
        "Use char_indices().",
        "--author",
        "agent-b",
    ]);
    lexi(&["stack", "vote", "ST-001", "up", "--author", "agent-c"]);
    lexi(&["stack", "vote", "ST-001", "up", "--author", "agent-d"]);
    lexi(&[
        "stack", "vote", "ST-001", "--answer", "1", "up", "--author", "agent-c",
    ]);
    lexi(&[
        "stack", "accept", "ST-001", "--answer", "1", "--author", "agent-a",
    ]);
    // Review places Stack events, stamped with the real time, between commits by the commits'
    // dates: the commits after the events are made on the real clock.
    p.git(["add", "-A"]).success();
    p.git(["commit", "-qm", "stack"]).real_clock().success();

    let json = p
        .lexictl(["review", "main..HEAD", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    assert_eq!(json["notes"]["stack"], true);
    assert_eq!(json["summary"]["stack_posts_added"], 1);
    assert_eq!(json["summary"]["answers_accepted"], 1);
    let post = &json["stack"][0];
    assert_eq!(post["id"], "ST-001");
    assert_eq!(post["change"], "added");
    assert_eq!(post["title"], "Lexer panics on unicode");
    assert_eq!(post["status"]["head"], "resolved");
    assert_eq!(post["votes"]["head"], 2);
    assert_eq!(post["accepted_answer"]["base"], serde_json::Value::Null);
    assert_eq!(post["accepted_answer"]["head"], 1);
    assert_eq!(post["accepted_author"], "agent-b");
    assert_eq!(post["answers_added"][0]["author"], "agent-b");
    assert_eq!(post["answer_votes"][0]["head"], 1);
    let history = &post["history"];
    assert_eq!(history["net_votes"], 2);
    assert_eq!(history["answer_net_votes"]["1"], 1);
    let kinds: Vec<&str> = history["events"]
        .as_array()
        .expect("events")
        .iter()
        .filter_map(|event| event["kind"].as_str())
        .collect();
    assert_eq!(kinds, ["created", "vote", "vote", "vote", "accept"]);

    let markdown = p
        .lexictl(["review", "main..HEAD"])
        .success()
        .no_stderr()
        .stdout;
    assert!(
        markdown.contains("- **ST-001** _Lexer panics on unicode_ — new post (resolved); answers added: A1 by agent-b; A1 accepted (by agent-b); votes 0 → 2; A1 votes 0 → 1\n"),
        "{markdown}"
    );
    assert!(
        markdown.contains("  - votes recorded in this range: +1 post by agent-c, +1 post by agent-d, +1 A1 by agent-c (net post +2)\n"),
        "{markdown}"
    );
    let github = p
        .lexictl(["review", "main..HEAD", "--format", "github"])
        .success()
        .no_stderr()
        .stdout;
    assert!(
        github.contains("::notice file=.lexibrary/stack/ST-001-lexer-panics-on-unicode.md,title=Stack post ST-001::Lexer panics on unicode: new post (resolved);"),
        "{github}"
    );

    // A later vote in another range counts there, not here.
    p.git(["tag", "voted"]).success();
    lexi(&[
        "stack",
        "vote",
        "ST-001",
        "down",
        "--comment",
        "Only for ASCII input.",
        "--author",
        "agent-e",
    ]);
    p.git(["add", "-A"]).success();
    p.git(["commit", "-qm", "downvote"]).real_clock().success();
    let json = p
        .lexictl(["review", "voted..HEAD", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    let post = &json["stack"][0];
    assert_eq!(post["change"], "modified");
    assert_eq!(post["votes"]["base"], 2);
    assert_eq!(post["votes"]["head"], 1);
    assert_eq!(post["comments_added"], 1);
    assert_eq!(post["history"]["net_votes"], -1);
}

#[test]
fn provenance_tells_the_archivist_from_an_agent() {
    let p = pr_project();
    edit(
        &p,
        "src/lib.rs",
        "pub fn eval(input: &str)",
        "pub fn eval(input: &str, strict: bool)",
    );
    p.lexictl(["update"]).success();
    // An agent documents its change to the parser by hand.
    edit(
        &p,
        ".lexibrary/src/parser/mod.rs.md",
        "updated_by: archivist",
        "updated_by: agent",
    );
    edit(
        &p,
        ".lexibrary/src/parser/mod.rs.md",
        "## Dependencies",
        "Only `+`, `-` and `*` for now; division is ST-002's topic.\n\n## Dependencies",
    );
    p.commit_all("strict eval, documented");

    let json = p
        .lexictl(["review", "main..HEAD", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    assert_eq!(json["notes"]["provenance"], true);
    let designs = json["design_files"].as_array().expect("design_files");
    let by_source = |source: &str| {
        designs
            .iter()
            .find(|d| d["source"] == source)
            .unwrap_or_else(|| panic!("no design change for {source}: {json}"))
    };
    let lib = &by_source("src/lib.rs")["provenance"];
    assert_eq!(lib["written_by"], "archivist");
    assert_eq!(lib["generator"], "structural");
    assert_eq!(lib["model"], serde_json::Value::Null);
    assert_eq!(lib["level"], "INTERFACE_CHANGED");
    let parser = by_source("src/parser/mod.rs");
    assert_eq!(parser["provenance"]["written_by"], "agent_or_human");
    assert_eq!(parser["updated_by"]["base"], "archivist");
    assert_eq!(parser["updated_by"]["head"], "agent");
    assert_eq!(json["summary"]["written_by_archivist"], 1);
    assert_eq!(json["summary"]["written_by_agent_or_human"], 1);

    let markdown = p
        .lexictl(["review", "main..HEAD"])
        .success()
        .no_stderr()
        .stdout;
    assert!(
        markdown.contains("| `src/lib.rs` | modified (+1 −1) | archivist (structural) |\n"),
        "{markdown}"
    );
    assert!(
        markdown.contains(
            "| `src/parser/mod.rs` | modified (+3 −1) | agent or human (updated\\_by: agent) |\n"
        ),
        "{markdown}"
    );
}

#[test]
fn new_sources_without_design_files_and_design_files_left_behind_are_warnings() {
    let p = pr_project();
    p.write("src/extra.rs", "//! Extra.\n\npub fn extra() {}\n");
    p.write("notes.bin", b"\x00\x01binary");
    p.write(".lexignore", "generated/\n");
    p.write("generated/out.rs", "pub fn out() {}\n");
    std::fs::remove_file(p.path("src/parser/lexer.rs")).expect("remove lexer");
    p.commit_all("extra, no lexer");

    let json = p
        .lexictl(["review", "main..HEAD", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    let findings: Vec<(&str, &str)> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .map(|f| {
            (
                f["kind"].as_str().unwrap_or(""),
                f["file"].as_str().unwrap_or(""),
            )
        })
        .collect();
    assert_eq!(
        findings,
        [
            ("missing_design", "src/extra.rs"),
            ("orphaned_design", ".lexibrary/src/parser/lexer.rs.md"),
        ]
    );
    let github = p
        .lexictl(["review", "main..HEAD", "--format", "github"])
        .success()
        .no_stderr()
        .stdout;
    assert!(
        github.contains("::warning file=.lexibrary/src/parser/lexer.rs.md,title=Design file left behind::src/parser/lexer.rs was deleted but its design file .lexibrary/src/parser/lexer.rs.md is still there; `lexictl update` moves or removes it\n"),
        "{github}"
    );
}

#[test]
fn without_a_range_the_base_is_the_merge_base_with_the_upstream() {
    let p = pr_project();
    p.git(["branch", "--set-upstream-to=main"]).success();
    p.write("src/extra.rs", "pub fn extra() {}\n");
    p.commit_all("extra on the branch");
    // main moves on after the branch was made: its changes are not the branch's.
    p.git(["checkout", "-q", "main"]).success();
    p.write("src/other.rs", "pub fn other() {}\n");
    p.commit_all("other on main");
    p.git(["checkout", "-q", "pr"]).success();

    let json = p
        .lexictl(["review", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    assert_eq!(json["range"], "@{upstream}...HEAD");
    assert_eq!(json["base"]["rev"], "main");
    assert_eq!(json["merge_base"], true);
    assert_eq!(json["commits"], 1);
    let files: Vec<&str> = json["findings"]
        .as_array()
        .expect("findings")
        .iter()
        .filter_map(|f| f["file"].as_str())
        .collect();
    assert_eq!(files, ["src/extra.rs"]);

    // Without an upstream, `main` is the fallback.
    p.git(["branch", "--unset-upstream"]).success();
    let json = p
        .lexictl(["review", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    assert_eq!(json["range"], "main...HEAD");
    assert_eq!(json["commits"], 1);

    // Two dots compare the trees directly: main's new file counts as deleted on the branch.
    let json = p
        .lexictl(["review", "main..pr", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    assert_eq!(json["merge_base"], false);
    assert_eq!(json["commits"], 1);

    // After `git push -u`, the upstream is the branch's own remote copy, which would show only
    // unpushed commits: the remote's main is the base instead.
    let remote = p.path("../remote.git");
    let remote = remote.to_str().expect("utf-8 temp path");
    p.git(["init", "-q", "--bare", remote]).success();
    p.git(["remote", "add", "origin", remote]).success();
    p.git(["push", "-q", "origin", "main"]).success();
    p.git(["push", "-q", "-u", "origin", "pr"]).success();
    p.write("src/more.rs", "pub fn more() {}\n");
    p.commit_all("more, unpushed");
    let json = p
        .lexictl(["review", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    assert_eq!(json["range"], "origin/main...HEAD");
    assert_eq!(json["commits"], 2);
    let json = p
        .lexictl(["review", "@{upstream}", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    assert_eq!(json["range"], "@{upstream}...HEAD");
    assert_eq!(json["commits"], 1);
}

#[test]
fn bad_ranges_are_errors_that_say_what_to_type() {
    let p = pr_project();
    let cases: &[(&[&str], &str)] = &[
        (
            &["nope..HEAD"],
            "error: `nope` is not a revision in this repository",
        ),
        (
            &["main...nope"],
            "error: `nope` is not a revision in this repository",
        ),
        (&["HEAD^{tree}"], "it names a tree, not a commit"),
        (
            &["^main"],
            "only a revision, `A..B` or `A...B` can be reviewed",
        ),
        (&[""], "it is empty"),
    ];
    for (args, expected) in cases {
        p.lexictl(["review"].iter().chain(args.iter()))
            .code(1)
            .stdout_is("")
            .stderr_has(expected)
            .stderr_has("hint: review takes `A..B`");
    }

    // No upstream, no origin, no main or master: say how to name a base.
    p.git(["branch", "-m", "main", "trunk"]).success();
    p.lexictl(["review"])
        .code(1)
        .stderr_has("error: no base to review against")
        .stderr_has("`lexictl review origin/main`");

    // Unrelated histories have no merge base.
    p.git(["checkout", "-q", "--orphan", "island"]).success();
    p.commit_all("island");
    p.lexictl(["review", "trunk"])
        .code(1)
        .stderr_has("have no common history");

    // `github` is a format for review only.
    p.lexictl(["update", "--format", "github"])
        .code(1)
        .stderr_has("invalid value 'github' for '--format <FORMAT>'");
    p.lexi(["lookup", "src/lib.rs", "--format", "github"])
        .code(1)
        .stderr_has("invalid value 'github'");
}

#[test]
fn a_project_in_a_subdirectory_annotates_repository_paths() {
    let p = project()
        .file("README.md", "# monorepo\n")
        .file("app/src/lib.rs", "//! App.\n\npub fn run() {}\n")
        .build();
    p.lexictl(["init", "--yes"]).current_dir("app").success();
    p.lexictl(["update"]).current_dir("app").success();
    p.commit_all("library");
    p.git(["checkout", "-qb", "pr"]).success();
    p.write("app/src/lib.rs", "//! App.\n\npub fn run(fast: bool) {}\n");
    p.write("README.md", "# monorepo, changed\n");
    p.commit_all("fast");

    p.lexictl(["review", "main", "--format", "github"])
        .current_dir("app")
        .success()
        .stdout_has("::warning file=app/src/lib.rs,line=3,title=Interface changed without a design update::the public interface of src/lib.rs changed (changed: run)");
    let json = p
        .lexictl(["review", "main", "--format", "json"])
        .current_dir("app")
        .json();
    assert_eq!(json["project_dir"], "app");
    assert_eq!(json["findings"][0]["file"], "src/lib.rs");
}

#[test]
fn odd_design_file_content_does_not_break_the_review() {
    let p = pr_project();
    // Non-UTF-8 bytes in a design file, and a huge edit to another.
    let mut bytes = p.read(".lexibrary/src/lib.rs.md").into_bytes();
    bytes.extend_from_slice(b"\n\xff\xfe not text\n");
    p.write(".lexibrary/src/lib.rs.md", &bytes);
    let mut big = p.read(".lexibrary/src/parser/mod.rs.md");
    let extra: String = (0..500).map(|i| format!("- note {i}\n")).collect();
    big = big.replace("## Dependencies", &format!("{extra}\n## Dependencies"));
    p.write(".lexibrary/src/parser/mod.rs.md", big);
    p.commit_all("odd");

    let json = p
        .lexictl(["review", "main..HEAD", "--format", "json"])
        .success()
        .no_stderr()
        .json();
    let designs = json["design_files"].as_array().expect("design_files");
    assert_eq!(designs[0]["source"], "src/lib.rs");
    assert_eq!(designs[0]["diff"], serde_json::Value::Null);
    assert_eq!(designs[0]["diff_skipped"], "binary or not UTF-8");
    assert_eq!(designs[1]["diff"]["added"], 501);
    assert!(designs[1]["diff"]["omitted_lines"].as_u64().unwrap_or(0) > 400);
    let markdown = p
        .lexictl(["review", "main..HEAD"])
        .success()
        .no_stderr()
        .stdout;
    assert!(markdown.contains("more lines\n"), "{markdown}");
    assert!(
        markdown.contains("`.lexibrary/src/lib.rs.md`: no diff (binary or not UTF-8)"),
        "{markdown}"
    );
}
