//! `lexi index` and `lexi describe`.

use crate::support::{project, run};

#[test]
fn describe_creates_an_index_with_a_structural_child_map() {
    let p = project()
        .fixture("typescript")
        .file("src/logo.png", b"\x89PNG\r\n\x1a\n\0\0binary")
        .file("src/data.bin.txt", b"text with a \0 NUL byte")
        .file("src/generated.ts", "export const x = 1;\n")
        .file(".gitignore", "node_modules/\n")
        .file("src/node_modules/dep/index.js", "ignored\n")
        .file(".lexignore", "src/generated.ts\n")
        .file("src/.env.local", "SECRET=1\n")
        .build();
    p.init();
    p.design_file(
        "src/model.ts",
        "Orders and their totals.",
        "## Interface Contract\n\n(see source)",
    );
    let out = run(
        &p,
        p.lexi(&[
            "describe",
            "src",
            "The orders service: API handlers and the domain model.",
        ]),
    );
    assert_eq!(
        out.stdout,
        "created .lexibrary/src/.aindex\n",
        "{}",
        out.both()
    );
    insta::assert_snapshot!("describe_created_aindex", p.read(".lexibrary/src/.aindex"));
}

#[test]
fn describe_replaces_only_the_billboard() {
    let p = project().fixture("typescript").build();
    p.init();
    let original = "# src/\n\nOld words.\n\n## Child Map\n\n| Name | Type | Description |\n| --- | --- | --- |\n| `model.ts` | file | Hand-written description. |\n\n## Local Conventions\n\n- Money is integer cents.  \n  (trailing spaces above are kept)\n\n## Notes From Humans\n\nKeep this.\n";
    p.write(".lexibrary/src/.aindex", original);
    let out = run(&p, p.lexi(&["describe", "src", "New words."]));
    assert_eq!(
        out.stdout,
        "updated .lexibrary/src/.aindex\n",
        "{}",
        out.both()
    );
    assert_eq!(
        p.read(".lexibrary/src/.aindex"),
        original.replace("Old words.", "New words.")
    );
    let again = run(&p, p.lexi(&["describe", "src", "New words."]));
    assert_eq!(again.stdout, "unchanged .lexibrary/src/.aindex\n");
    let json = run(
        &p,
        p.lexi(&["describe", "src", "Newer words.", "--format", "json"]),
    );
    let value: serde_json::Value = serde_json::from_str(&json.stdout).expect("valid JSON");
    insta::assert_json_snapshot!("describe_json", value);
}

#[test]
fn describe_refuses_ignored_missing_and_empty() {
    let p = project()
        .file(".gitignore", "build/\n")
        .file("build/x.js", "x")
        .file("src/a.py", "a")
        .build();
    p.init();
    let ignored = run(&p, p.lexi(&["describe", "build", "Build output."]));
    assert_eq!(ignored.code, 1);
    assert!(
        ignored.stderr.contains("build is ignored"),
        "{}",
        ignored.stderr
    );
    let missing = run(&p, p.lexi(&["describe", "nope", "x"]));
    assert_eq!(missing.code, 1);
    assert!(
        missing.stderr.contains("nope is not a directory"),
        "{}",
        missing.stderr
    );
    let empty = run(&p, p.lexi(&["describe", "src", "  "]));
    assert_eq!(empty.code, 1);
    assert!(
        empty.stderr.contains("the description is empty"),
        "{}",
        empty.stderr
    );
}

#[test]
fn index_prints_one_or_all_recursively() {
    let p = project().fixture("python").build();
    p.init();
    for (dir, words) in [
        (".", "Weather CLI."),
        ("pkg", "The package."),
        ("pkg/sub", "Helpers."),
    ] {
        let out = run(&p, p.lexi(&["describe", dir, words]));
        assert_eq!(out.code, 0, "{}", out.both());
    }
    let one = run(&p, p.lexi(&["index", "pkg"]));
    assert_eq!(one.code, 0, "{}", one.both());
    assert_eq!(one.stdout, p.read(".lexibrary/pkg/.aindex"));
    let all = run(&p, p.lexi(&["index", ".", "-r"]));
    insta::assert_snapshot!("index_recursive", all.stdout);
    let mut from_sub = p.lexi(&["index", "-r"]);
    from_sub.current_dir(p.path("pkg"));
    let from_sub = run(&p, from_sub);
    assert!(
        from_sub.stdout.starts_with("# pkg/\n"),
        "{}",
        from_sub.stdout
    );
    assert!(from_sub.stdout.contains("# pkg/sub/\n"));
    assert!(!from_sub.stdout.contains("# ./"));
    let json = run(&p, p.lexi(&["index", "pkg", "--format", "json"]));
    let value: serde_json::Value = serde_json::from_str(&json.stdout).expect("valid JSON");
    insta::assert_json_snapshot!("index_json", value);
    let json_all = run(&p, p.lexi(&["index", "-r", "--format", "json"]));
    let value: serde_json::Value = serde_json::from_str(&json_all.stdout).expect("valid JSON");
    assert_eq!(value.as_array().map(Vec::len), Some(3));
}

#[test]
fn index_without_an_aindex_says_how_to_make_one() {
    let p = project().file("src/a.rs", "").build();
    p.init();
    let out = run(&p, p.lexi(&["index", "src"]));
    assert_eq!(out.code, 1);
    insta::assert_snapshot!("index_missing", out.stderr);
    let file = run(&p, p.lexi(&["index", "src/a.rs"]));
    assert!(
        file.stderr
            .contains("is a file; try `lexi lookup src/a.rs`"),
        "{}",
        file.stderr
    );
}

#[test]
fn child_map_survives_a_symlink_loop() {
    let p = project().file("src/a.rs", "pub fn a() {}\n").build();
    std::os::unix::fs::symlink("..", p.path("src/loop")).expect("symlink");
    std::os::unix::fs::symlink(p.path("src"), p.path("src/self")).expect("symlink");
    p.init();
    let out = run(&p, p.lexi(&["describe", "src", "Sources."]));
    assert_eq!(out.code, 0, "{}", out.both());
    let index = p.read(".lexibrary/src/.aindex");
    assert!(
        index.contains("| `a.rs` | file | Rust source (1 line) |"),
        "{index}"
    );
    assert!(
        !index.contains("loop"),
        "symlinks are not followed: {index}"
    );
}
