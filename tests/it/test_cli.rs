//! The command line itself, as a newcomer meets it: a bare `lexi`/`lexictl` is a usage error with the
//! help on stderr, `--format` is offered exactly where it applies, and `--list-checks` has JSON.

use crate::support::project;

#[test]
fn a_missing_subcommand_prints_the_help_to_stderr_and_exits_2() {
    let p = project().build();
    let bare = p.lexi(Vec::<&str>::new()).code(2);
    bare.stderr_has("Usage: lexi <COMMAND>")
        .stderr_has("lookup");
    assert!(bare.stdout.is_empty(), "stdout: {}", bare.stdout);
    p.lexictl(Vec::<&str>::new())
        .code(2)
        .stderr_has("Usage: lexictl <COMMAND>");
    // A group without its subcommand is the same mistake.
    p.lexi(["stack"]).code(2).stderr_has("Usage: lexi stack");
    // Asking for help is not a mistake.
    p.lexi(["--help"]).success().stdout_has("Usage: lexi");
}

#[test]
fn format_is_offered_only_where_it_applies() {
    let p = project().init().build();
    // Reporting commands: text, json and github.
    p.lexictl(["validate", "--help"])
        .success()
        .stdout_has("--format <FORMAT>")
        .stdout_has("github");
    // Commands with JSON output: text and json, and github is refused by clap.
    p.lexictl(["status", "--help"])
        .success()
        .stdout_has("--format <FORMAT>")
        .stdout_lacks("github");
    p.lexi(["stack", "view", "--help"])
        .success()
        .stdout_has("--format <FORMAT>");
    // Commands whose output is a script, a page or a hook's answer: no --format at all.
    for args in [
        vec!["completions", "--help"],
        vec!["hook", "--help"],
        vec!["hook", "post-commit", "--help"],
    ] {
        p.lexictl(args).success().stdout_lacks("--format");
    }
    p.lexi(["mcp", "--help"]).success().stdout_lacks("--format");
    p.lexi(["--help"]).success().stdout_lacks("--format");
    p.lexictl(["--help"]).success().stdout_lacks("--format");
    // Before the subcommand it is not an option of the binary any more.
    p.lexi(["--format", "json", "orient"])
        .code(1)
        .stderr_has("unexpected argument '--format'");
}

#[test]
fn list_checks_prints_json_when_asked() {
    let p = project().build();
    let text = p.lexictl(["validate", "--list-checks"]).success();
    let checks = p
        .lexictl(["validate", "--list-checks", "--format", "json"])
        .json();
    let checks = checks.as_array().expect("an array of checks");
    assert!(checks.len() > 10, "{checks:?}");
    for check in checks {
        let id = check["id"].as_str().expect("id");
        let severity = check["severity"].as_str().expect("severity");
        assert!(["error", "warning", "info"].contains(&severity), "{check}");
        assert!(!check["description"].as_str().unwrap_or("").is_empty());
        text.stdout_has(id);
    }
}
