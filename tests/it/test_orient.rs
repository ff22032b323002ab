//! `lexi orient`: START_HERE.md, the root note (shown, not consumed) and the health line, within a
//! budget, as text and JSON.

use crate::support::project;

#[test]
fn a_current_library_orients_with_start_here_and_the_calls_that_answer_questions() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    let out = p.lexi(["orient"]).success().no_stderr();
    let start_here = p.read(".lexibrary/START_HERE.md");
    let after = out
        .stdout
        .strip_prefix(&start_here)
        .unwrap_or_else(|| panic!("START_HERE first: {}", out.stdout));
    // Which call answers which question, so no `--help` is needed to find them.
    assert_eq!(
        after,
        "\n## Answering questions\n\n\
- Where something lives: `lexi search <words>` (files and members, with their one-line docs).\n\
- One member: `lexi lookup <file> --member <name>` (signature, callers, raises, flow, tests); its code: add `--source`.\n\
- What a change breaks: `lexi impact <file> [--member <name>]`.\n"
    );
    let json = p.lexi(["orient", "--format", "json"]).json();
    assert_eq!(json["healthy"], true);
    assert_eq!(json["health"], serde_json::Value::Null);
    assert_eq!(json["iwh"], serde_json::Value::Null);
    assert_eq!(json["start_here"]["truncated"], false);
    assert_eq!(json["start_here"]["path"], ".lexibrary/START_HERE.md");
}

#[test]
fn the_root_note_is_shown_and_left_in_place() {
    let p = project().fixture("rust").init().build();
    p.lexi([
        "iwh",
        "write",
        ".",
        "--scope",
        "blocked",
        "--body",
        "The build is broken on main; fix src/lib.rs first.",
        "--author",
        "agent-1",
    ])
    .success();
    let out = p.lexi(["orient"]).success();
    out.stdout_has("I Was Here — . [blocked] by agent-1")
        .stdout_has("The build is broken on main")
        .stdout_has("`lexi iwh read .` consumes it");
    assert!(
        p.exists(".lexibrary/.iwh"),
        "orient must not consume the note"
    );
    // Reading it the usual way still works, and consumes it.
    p.lexi(["iwh", "read", "."])
        .success()
        .stdout_has("The build is broken");
    assert!(!p.exists(".lexibrary/.iwh"));
}

#[test]
fn a_stale_library_shows_the_status_line_first() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.write("src/lib.rs", "pub fn changed() {}\n");
    let quiet = p.lexictl(["status", "--quiet"]).code(2);
    let out = p.lexi(["orient"]).success();
    let first = out.stdout.lines().next().unwrap_or("");
    assert!(
        first.starts_with(quiet.stdout.trim_end()),
        "{first:?} should start with {:?}",
        quiet.stdout
    );
    // What `update --check` finds: the file, the file whose importer it no longer is, the two
    // indexes and START_HERE that show them.
    assert!(first.contains("5 stale"), "{first}");
    let json = p.lexi(["orient", "--format", "json"]).json();
    assert_eq!(json["healthy"], false);
    assert_eq!(json["health"], quiet.stdout.trim_end());
}

#[test]
fn a_small_budget_cuts_start_here_at_a_section() {
    let p = project().fixture("rust").init().build();
    let out = p.lexi(["orient", "--budget", "80"]).success();
    out.stdout_has("# ")
        .stdout_has("START_HERE.md continues beyond the 80 token budget")
        .stdout_lacks("## Navigation Protocol");
    let json = p
        .lexi(["orient", "--budget", "80", "--format", "json"])
        .json();
    assert_eq!(json["start_here"]["truncated"], true);
    assert_eq!(json["budget"], 80);
}

#[test]
fn outside_a_project_it_says_how_to_start() {
    let p = project().build();
    p.lexi(["orient"]).code(1).stderr_has("lexictl init");
}
