//! `lexi stack`: posts, answers, comments, votes with history in git notes, concurrency, interop with
//! `git notes`, and bad input that must write nothing.

use std::collections::BTreeMap;

use crate::support::{project, TestProject};

const NOTES_REF: &str = "refs/notes/lexibrarian/stack";

fn stack_project() -> TestProject {
    let p = project().fixture("rust").init().build();
    p.commit_all("init");
    p
}

/// Post a problem as agent-a; returns the new post's id.
fn post(p: &TestProject, title: &str) -> String {
    p.lexi([
        "stack",
        "post",
        "--title",
        title,
        "--tag",
        "parser",
        "--file",
        "src/lib.rs",
        "--problem",
        "The lexer slices bytes.",
        "--evidence",
        "panicked at byte index 3",
        "--author",
        "agent-a",
    ])
    .success()
    .stdout
    .split(':')
    .next()
    .expect("Created ST-nnn: …")
    .trim_start_matches("Created ")
    .to_string()
}

/// Every file under `.lexibrary/stack/` with its content.
fn stack_files(p: &TestProject) -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    if let Ok(entries) = std::fs::read_dir(p.path(".lexibrary/stack")) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            files.insert(
                name,
                std::fs::read_to_string(entry.path()).expect("read a post"),
            );
        }
    }
    files
}

/// The blob a post's notes hang on.
fn anchor(p: &TestProject, id: &str) -> String {
    p.git(["hash-object", "--stdin"])
        .stdin(format!("lexibrarian:stack:{id}\n"))
        .success()
        .stdout
        .trim()
        .to_string()
}

#[test]
fn a_post_answered_voted_and_accepted_reads_back() {
    let p = stack_project();
    assert_eq!(post(&p, "Lexer panics on unicode"), "ST-001");
    let lexi = |args: &[&str]| p.lexi(args).success().stdout;
    assert_eq!(
        lexi(&[
            "stack",
            "answer",
            "ST-001",
            "--body",
            "Use char_indices().",
            "--author",
            "agent-b"
        ]),
        "Added A1 to ST-001\n"
    );
    lexi(&[
        "stack",
        "answer",
        "ST-1",
        "--body",
        "Iterate bytes.",
        "--author",
        "agent-c",
    ]);
    assert_eq!(
        lexi(&["stack", "vote", "ST-001", "--answer", "1", "up", "--author", "agent-c"]),
        "ST-001 A1: ▲1\n"
    );
    lexi(&[
        "stack",
        "vote",
        "ST-001",
        "--answer",
        "2",
        "down",
        "--comment",
        "misses multi-byte chars",
        "--author",
        "agent-b",
    ]);
    lexi(&["stack", "vote", "ST-001", "up", "--author", "agent-d"]);
    lexi(&[
        "stack",
        "comment",
        "ST-001",
        "--answer",
        "1",
        "--body",
        "Also check the parser.",
        "--author",
        "agent-d",
    ]);
    assert_eq!(
        lexi(&["stack", "accept", "ST-001", "--answer", "1", "--author", "agent-a"]),
        "Accepted A1; ST-001 is resolved\n"
    );
    let _snapshots = p.snapshots().times().bind();
    insta::assert_snapshot!("stack_view", lexi(&["stack", "view", "ST-001"]));
    insta::assert_snapshot!(
        "stack_file",
        stack_files(&p)["ST-001-lexer-panics-on-unicode.md"]
    );
    insta::assert_snapshot!("stack_history", lexi(&["stack", "history", "ST-001"]));
    let json = p
        .lexi(["stack", "view", "ST-001", "--format", "json"])
        .json();
    assert_eq!(json["frontmatter"]["status"], "resolved");
    assert_eq!(json["answers"][1]["votes"], -1);
    assert_eq!(json["answers"][0]["accepted"], true);
    assert_eq!(
        lexi(&["stack", "list"]),
        "ST-001  [resolved] ▲1  Lexer panics on unicode\n"
    );
    assert_eq!(
        lexi(&["stack", "list", "--status", "open"]),
        "No Stack posts.\n"
    );
}

#[test]
fn a_post_level_downvote_keeps_its_comment() {
    let p = stack_project();
    post(&p, "Lexer panics");
    p.lexi([
        "stack",
        "vote",
        "ST-001",
        "down",
        "--comment",
        "cannot reproduce on main",
        "--author",
        "agent-z",
    ])
    .success();
    let file = &stack_files(&p)["ST-001-lexer-panics.md"];
    assert!(
        file.contains("agent-z [downvote]:** cannot reproduce on main"),
        "{file}"
    );
    assert!(file.contains("votes: -1"), "{file}");
    let json = p
        .lexi(["stack", "view", "ST-001", "--format", "json"])
        .json();
    assert_eq!(json["comments"][0]["context"], "downvote");
    assert_eq!(json["comments"][0]["text"], "cannot reproduce on main");
}

#[test]
fn eight_parallel_posts_get_eight_distinct_ids() {
    let p = stack_project();
    let posting: Vec<_> = (0..8)
        .map(|i| {
            p.lexi([
                "stack".to_string(),
                "post".into(),
                "--title".into(),
                format!("Problem {i}"),
                "--problem".into(),
                format!("problem {i}"),
                "--evidence".into(),
                format!("evidence {i}"),
            ])
            .spawn()
        })
        .collect();
    for running in posting {
        running.wait().success();
    }
    let files = stack_files(&p);
    let ids: Vec<String> = files.keys().map(|name| name[..6].to_string()).collect();
    assert_eq!(
        ids,
        (1..=8).map(|n| format!("ST-{n:03}")).collect::<Vec<_>>()
    );
    // Each file is intact: its id matches its name and its problem matches its title.
    for (name, text) in &files {
        assert!(text.contains(&format!("id: {}", &name[..6])), "{text}");
        let title_number = text
            .split("title: Problem ")
            .nth(1)
            .and_then(|rest| rest.chars().next())
            .expect("a title with its number");
        assert!(text.contains(&format!("problem {title_number}")), "{text}");
        assert!(text.contains(&format!("evidence {title_number}")), "{text}");
    }
}

#[test]
fn sixteen_parallel_votes_are_all_counted_and_recorded() {
    let p = stack_project();
    post(&p, "Contended");
    let voting: Vec<_> = (0..16)
        .map(|i| {
            let direction = if i % 4 == 0 { "down" } else { "up" };
            p.lexi([
                "stack".to_string(),
                "vote".into(),
                "ST-001".into(),
                direction.into(),
                "--comment".into(),
                format!("vote {i}"),
                "--author".into(),
                format!("agent-{i}"),
            ])
            .spawn()
        })
        .collect();
    for running in voting {
        running.wait().success();
    }
    let file = &stack_files(&p)["ST-001-contended.md"];
    // 12 up, 4 down.
    assert!(file.contains("\nvotes: 8\n"), "{file}");
    for i in 0..16 {
        assert!(
            file.contains(&format!(":** vote {i}\n")),
            "comment {i} lost: {file}"
        );
    }
    let note = p
        .git(["notes", "--ref", NOTES_REF, "show", &anchor(&p, "ST-001")])
        .success()
        .stdout;
    let votes: Vec<serde_json::Value> = note
        .lines()
        .map(|line| serde_json::from_str(line).expect("one JSON event a line"))
        .filter(|event: &serde_json::Value| event["kind"] == "vote")
        .collect();
    assert_eq!(votes.len(), 16, "{note}");
    let net: i64 = votes
        .iter()
        .map(|v| v["delta"].as_i64().expect("a vote's delta"))
        .sum();
    assert_eq!(net, 8);
    let history = p
        .lexi(["stack", "history", "ST-001", "--format", "json"])
        .json();
    assert_eq!(history["net_votes"], 8);
}

#[test]
fn history_interoperates_with_git_notes() {
    let p = stack_project();
    post(&p, "Interop");
    p.lexi(["stack", "vote", "ST-001", "up", "--author", "agent-a"])
        .success();
    let anchor = anchor(&p, "ST-001");
    let shown = p
        .git(["notes", "--ref", NOTES_REF, "show", &anchor])
        .success()
        .stdout;
    assert!(shown.contains("\"kind\":\"vote\""), "{shown}");
    // An event appended by plain git is read back by lexi.
    let foreign = r#"{"ts":"2030-01-01T00:00:00.000Z","v":1,"id":"fromgit","kind":"vote","post":"ST-001","delta":1,"author":"git-user"}"#;
    p.git([
        "notes",
        "--ref",
        NOTES_REF,
        "append",
        "--no-separator",
        "-m",
        foreign,
        &anchor,
    ])
    .success();
    p.lexi(["stack", "history", "ST-001"])
        .run()
        .stdout_has("by git-user")
        .stdout_has("Net post votes from history: 2");
}

#[test]
fn outside_git_the_stack_works_without_history() {
    let p = project().fixture("rust").no_git().init().build();
    post(&p, "No git");
    p.lexi(["stack", "vote", "ST-001", "up"]).success();
    let out = p.lexi(["stack", "history", "ST-001"]).success();
    assert!(
        out.stdout.starts_with(
            "History is unavailable for ST-001: this project is not in a git repository"
        ),
        "{}",
        out.stdout
    );
    out.stdout_has("Net votes: 1.");
}

#[test]
fn bad_input_is_refused_and_writes_nothing() {
    let p = stack_project();
    post(&p, "Target");
    p.lexi(["stack", "answer", "ST-001", "--body", "An answer."])
        .success();
    p.lexi(["stack", "accept", "ST-001", "--answer", "1"])
        .success();
    let before = stack_files(&p);
    let notes_before = p.git(["rev-parse", NOTES_REF]).success().stdout;
    let cases: &[(&[&str], &str)] = &[
        (&["stack", "vote", "ST-009", "up"], "no Stack post ST-009"),
        (
            &["stack", "vote", "ST-001", "--answer", "7", "up"],
            "ST-001 has no answer A7",
        ),
        (
            &["stack", "vote", "ST-001", "down"],
            "a downvote needs --comment",
        ),
        (
            &["stack", "accept", "ST-001", "--answer", "1"],
            "answer A1 is already accepted",
        ),
        (&["stack", "vote", "banana", "up"], "is not a Stack post id"),
        (
            &[
                "stack",
                "post",
                "--title",
                "No evidence",
                "--problem",
                "p",
                "--evidence",
                " ",
            ],
            "a post needs --evidence",
        ),
        (
            &[
                "stack",
                "post",
                "--title",
                "Bad file",
                "--problem",
                "p",
                "--evidence",
                "e",
                "--file",
                "nope.rs",
            ],
            "--file nope.rs: no such file",
        ),
        (
            &[
                "stack",
                "post",
                "--title",
                "Bad concept",
                "--problem",
                "p",
                "--evidence",
                "e",
                "--concept",
                "Nope",
            ],
            "no concept named \"Nope\"",
        ),
        (
            &["stack", "duplicate", "ST-001", "--of", "ST-001"],
            "cannot be a duplicate of itself",
        ),
    ];
    for (args, message) in cases {
        p.lexi(*args).code(1).stderr_has(message);
    }
    assert_eq!(stack_files(&p), before);
    assert_eq!(
        p.git(["rev-parse", NOTES_REF]).success().stdout,
        notes_before
    );
}

#[test]
fn a_malformed_post_is_named_with_its_line() {
    let p = stack_project();
    post(&p, "Broken");
    let path = ".lexibrary/stack/ST-001-broken.md";
    let text = p.read(path).replacen("votes: 0", "votes: [unclosed", 1);
    p.write(path, &text);
    let out = p.lexi(["stack", "vote", "ST-001", "up"]).code(1);
    assert!(
        out.stderr
            .starts_with("error: .lexibrary/stack/ST-001-broken.md:"),
        "{}",
        out.stderr
    );
    out.stderr_has("invalid frontmatter");
    assert_eq!(p.read(path), text, "nothing written");
    // Listing still works and shows the problem instead of failing.
    p.lexi(["stack", "list"])
        .success()
        .stdout_has("cannot be read");
}

#[test]
fn the_problem_can_come_from_stdin() {
    let p = stack_project();
    p.lexi([
        "stack",
        "post",
        "--title",
        "Piped",
        "--evidence",
        "seen in CI",
    ])
    .stdin("A long problem\nover two lines.\n")
    .success();
    let json = p
        .lexi(["stack", "view", "ST-001", "--format", "json"])
        .json();
    assert_eq!(json["problem"], "A long problem\nover two lines.");
}

#[test]
fn posts_from_two_clones_sharing_an_id_are_refused_and_votes_follow_history() {
    let p = stack_project();
    post(&p, "First");
    // A second file with the same id, as a merge of two clones leaves it.
    let first = stack_files(&p)["ST-001-first.md"].clone();
    p.write(
        ".lexibrary/stack/ST-001-other.md",
        first.replace("title: First", "title: Other"),
    );
    p.lexi(["stack", "vote", "ST-001", "up"])
        .code(1)
        .stderr_has("ST-001 is used by 2 posts");
    std::fs::remove_file(p.path(".lexibrary/stack/ST-001-other.md")).expect("remove the copy");
    // Two upvotes recorded, but a merge left `votes: 1` in the frontmatter: the next vote repairs it.
    p.lexi(["stack", "vote", "ST-001", "up"]).success();
    p.lexi(["stack", "vote", "ST-001", "up"]).success();
    let path = ".lexibrary/stack/ST-001-first.md";
    p.write(path, p.read(path).replace("votes: 2", "votes: 1"));
    p.lexi(["stack", "vote", "ST-001", "up"])
        .run()
        .stdout_is("ST-001: ▲3\n");
}

/// A post whose file's interface changed since it was written is reported as possibly outdated by
/// `lexi stack view` and `lexictl validate` (info), measured from git history — from the commit its
/// `created` event recorded, or in a clone without the notes from the commit that added it — until
/// it is marked outdated; a small edit of another file it names is not enough.
#[test]
fn a_post_whose_files_changed_a_lot_may_be_outdated() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexi([
        "stack",
        "post",
        "--title",
        "Eval overflows",
        "--file",
        "src/lib.rs",
        "--file",
        "src/parser/lexer.rs",
        "--problem",
        "p",
        "--evidence",
        "e",
    ])
    .success();
    p.commit_all("a post");
    p.lexi(["stack", "view", "ST-001"])
        .success()
        .stdout_lacks("Possibly outdated");
    // A small edit of the lexer: not significant.
    let lexer = p.read("src/parser/lexer.rs");
    p.write(
        "src/parser/lexer.rs",
        lexer.replace("Splits input", "Splits the input"),
    );
    p.commit_all("comment");
    p.lexictl(["validate", "--severity", "info"])
        .run()
        .stdout_lacks("stack-possibly-outdated");
    // eval's signature changes.
    let lib = p.read("src/lib.rs").replace(
        "pub fn eval(input: &str)",
        "pub fn eval(input: &str, strict: bool)",
    );
    p.write("src/lib.rs", lib);
    p.commit_all("strict eval");
    let view = p.lexi(["stack", "view", "ST-001"]).success();
    view.stdout_has("Possibly outdated")
        .stdout_has("src/lib.rs (its interface changed)")
        .stdout_has("lexi stack mark-outdated ST-001")
        .stdout_lacks("src/parser/lexer.rs (");
    p.lexictl(["validate", "--severity", "info"])
        .code(2)
        .stdout_has("[stack-possibly-outdated] ST-001 may be outdated");
    let json = p
        .lexi(["stack", "view", "ST-001", "--format", "json"])
        .json();
    assert_eq!(
        json["possibly_outdated"]["changes"][0]["file"],
        "src/lib.rs"
    );
    // A clone without the notes finds the post's commit in the history.
    let clone = p.clone_to("fresh");
    clone
        .lexi(["stack", "view", "ST-001"])
        .success()
        .stdout_has("src/lib.rs (its interface changed)");
    // Marked outdated, it is no longer reported.
    p.lexi([
        "stack",
        "mark-outdated",
        "ST-001",
        "--reason",
        "eval takes a flag now",
    ])
    .success();
    p.lexi(["stack", "view", "ST-001"])
        .success()
        .stdout_lacks("Possibly outdated");
}

/// A post without `--author` is the git identity's, and only a whole one: a clone that names
/// only an email (or only a name) has none, whatever fallback the tool installs so that its notes
/// commits can still be written; the name and email from git config or the environment count.
#[test]
fn the_author_is_the_git_identity_only_when_git_names_one() {
    let p = stack_project();
    let author_of_a_post = |config: &[(&str, &str)], env: &[(&str, &str)]| {
        for (key, value) in config {
            p.git(["config", key, value]).success();
        }
        let mut exec = p
            .lexi([
                "stack",
                "post",
                "--title",
                "t",
                "--problem",
                "p",
                "--evidence",
                "e",
            ])
            .without_identity();
        for (key, value) in env {
            exec = exec.env(key, value);
        }
        let out = exec.success().stdout;
        let id = out
            .split(':')
            .next()
            .unwrap_or_default()
            .trim_start_matches("Created ");
        let file = stack_files(&p)
            .into_iter()
            .find(|(name, _)| name.contains(id))
            .map(|(_, text)| text)
            .unwrap_or_default();
        for (key, _) in config {
            p.git(["config", "--unset", key]).success();
        }
        file.lines()
            .find_map(|line| line.strip_prefix("author: "))
            .unwrap_or_default()
            .to_string()
    };
    assert_eq!(author_of_a_post(&[], &[]), "unknown");
    assert_eq!(author_of_a_post(&[("user.email", "a@b.c")], &[]), "unknown");
    assert_eq!(author_of_a_post(&[("user.name", "Ada")], &[]), "unknown");
    assert_eq!(author_of_a_post(&[], &[("EMAIL", "a@b.c")]), "unknown");
    let both = [("user.name", "Ada"), ("user.email", "a@b.c")];
    assert_eq!(author_of_a_post(&both, &[]), "Ada");
    let env = [
        ("GIT_COMMITTER_NAME", "Bo"),
        ("GIT_COMMITTER_EMAIL", "b@c.d"),
    ];
    assert_eq!(author_of_a_post(&[], &env), "Bo");
}
