//! Navigation that answers an agent (issue 14): `lexi impact`, Local Conventions added by agents,
//! a battery of agent questions for `lexi search`, budgets that trim instead of dropping, and
//! START_HERE on real-shaped fixtures.

use crate::support::{project, TestProject};

/// The `webapp` fixture (a flask-shaped `src/` package), documented by `lexictl update`.
fn webapp() -> TestProject {
    let p = project().fixture("webapp").init().build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn impact_follows_dependents_two_levels_with_the_tests_among_them() {
    let p = webapp();
    let value = p
        .lexi([
            "impact",
            "src/shop/scaffold.py",
            "--depth",
            "2",
            "--format",
            "json",
        ])
        .json();
    let at = |depth: u64| -> Vec<String> {
        let files = value["files"].as_array().expect("files");
        files
            .iter()
            .filter(|f| f["depth"] == depth)
            .map(|f| f["file"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(at(1), ["src/shop/app.py"]);
    assert_eq!(at(2), ["src/shop/__init__.py", "src/shop/cli.py"]);
    assert_eq!(value["beyond"], 1, "the test one level further: {value}");
    let deeper = p
        .lexi([
            "impact",
            "src/shop/scaffold.py",
            "--depth",
            "3",
            "--format",
            "json",
        ])
        .json();
    assert_eq!(deeper["tests"], serde_json::json!(["tests/test_basic.py"]));
    let text = p.lexi(["impact", "src/shop/scaffold.py"]).success().stdout;
    assert!(
        text.contains("- src/shop/cli.py — The `shop` command line")
            && text.contains("(via src/shop/app.py)")
            && text.contains("## Tests (1)\n\n- tests/test_basic.py"),
        "{text}"
    );
    p.lexi(["impact", "src/shop/wrappers.py", "--depth", "0"])
        .code(1)
        .stderr_has("--depth must be between 1 and 20");
    p.lexi(["impact", "src/shop"])
        .code(1)
        .stderr_has("is a directory");
}

#[test]
fn impact_names_the_concepts_and_posts_of_reached_files() {
    let p = webapp();
    p.lexi(["concept", "new", "ErrorPages", "--alias", "error handling"])
        .success();
    p.lexi(["concept", "link", "src/shop/app.py", "ErrorPages"])
        .success();
    p.lexi([
        "stack",
        "post",
        "--title",
        "CLI swallows config errors",
        "--problem",
        "run_command ignores a broken config.",
        "--evidence",
        "exit code 0",
        "--file",
        "src/shop/cli.py",
    ])
    .success();
    let text = p.lexi(["impact", "src/shop/scaffold.py"]).success().stdout;
    assert!(
        text.contains("## Concepts\n\n- [[ErrorPages]]")
            && text.contains("linked from src/shop/app.py"),
        "{text}"
    );
    assert!(
        text.contains(
            "## Stack\n\n- ST-001 [open] CLI swallows config errors — about src/shop/cli.py"
        ),
        "{text}"
    );
}

#[test]
fn conventions_are_added_inherited_searchable_and_kept_across_updates() {
    let p = webapp();
    p.lexi(["concept", "new", "ErrorPages"]).success();
    p.lexi([
        "convention",
        "add",
        "src/shop",
        "Views return a Response, never a bare dict.",
        "--tag",
        "http",
        "--concept",
        "ErrorPages",
    ])
    .success()
    .stdout_is("Added to .lexibrary/src/shop/.aindex: - Views return a Response, never a bare dict. (tags: http; concepts: [[ErrorPages]])\n");
    p.lexi(["convention", "add", ".", "Times are UTC."])
        .success();
    // The same rule twice is recorded once.
    p.lexi(["convention", "add", ".", "Times   are UTC."])
        .success()
        .stdout_has("already has this convention");
    let before = p.read(".lexibrary/src/shop/.aindex");

    // Inherited: the json package sees both, root first.
    let listed = p.lexi(["conventions", "src/shop/json"]).success().stdout;
    assert_eq!(
        listed,
        "## From ./\n\n- Times are UTC.\n\n## From src/shop/\n\n- Views return a Response, never a bare dict. (tags: http; concepts: [[ErrorPages]])\n"
    );
    let value = p
        .lexi(["conventions", "src/shop", "--format", "json"])
        .json();
    assert_eq!(value["conventions"][1]["tags"], serde_json::json!(["http"]));
    assert_eq!(
        value["conventions"][1]["concepts"],
        serde_json::json!(["ErrorPages"])
    );
    // Shown by lookup and context for every file below.
    p.lexi(["lookup", "src/shop/json/__init__.py"])
        .success()
        .stdout_has("- Views return a Response, never a bare dict.");
    p.lexi(["context", "src/shop/errors.py"])
        .success()
        .stdout_has("Times are UTC.");
    // Found by search.
    p.lexi(["search", "bare dict"])
        .success()
        .stdout_has("src/shop/ — Views return a Response, never a bare dict.");

    // Kept byte for byte by an update that rewrites the Child Map.
    p.write("src/shop/extra.py", "\"\"\"Something new.\"\"\"\n");
    p.lexictl(["update"]).success();
    let after = p.read(".lexibrary/src/shop/.aindex");
    assert_ne!(before, after, "the Child Map changed");
    assert!(after.ends_with("## Local Conventions\n\n- Views return a Response, never a bare dict. (tags: http; concepts: [[ErrorPages]])\n"), "{after}");
    p.lexictl(["validate"]).success();

    p.lexi(["convention", "add", "src/shop/app.py", "x"])
        .code(1)
        .stderr_has("is a file");
    p.lexi(["convention", "add", "src/shop", "x", "--concept", "Nope"])
        .code(1)
        .stderr_has("no concept named");
    p.lexi(["convention", "add", "src/shop", "  "])
        .code(1)
        .stderr_has("the rule is empty");
}
