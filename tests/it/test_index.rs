//! `lexi index` and `lexi describe`.

use crate::support::project;

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
    p.lexi([
        "describe",
        "src",
        "The orders service: API handlers and the domain model.",
    ])
    .run()
    .stdout_is("created .lexibrary/src/.aindex\n");
    insta::assert_snapshot!("describe_created_aindex", p.read(".lexibrary/src/.aindex"));
}

#[test]
fn describe_replaces_only_the_billboard() {
    let p = project().fixture("typescript").init().build();
    let original = "# src/\n\nOld words.\n\n## Child Map\n\n| Name | Type | Description |\n| --- | --- | --- |\n| `model.ts` | file | Hand-written description. |\n\n## Local Conventions\n\n- Money is integer cents.  \n  (trailing spaces above are kept)\n\n## Notes From Humans\n\nKeep this.\n";
    p.write(".lexibrary/src/.aindex", original);
    p.lexi(["describe", "src", "New words."])
        .run()
        .stdout_is("updated .lexibrary/src/.aindex\n");
    assert_eq!(
        p.read(".lexibrary/src/.aindex"),
        original.replace("Old words.", "New words.")
    );
    p.lexi(["describe", "src", "New words."])
        .run()
        .stdout_is("unchanged .lexibrary/src/.aindex\n");
    let value = p
        .lexi(["describe", "src", "Newer words.", "--format", "json"])
        .run()
        .json();
    insta::assert_json_snapshot!("describe_json", value);
}

#[test]
fn describe_refuses_ignored_missing_and_empty() {
    let p = project()
        .file(".gitignore", "build/\n")
        .file("build/x.js", "x")
        .file("src/a.py", "a")
        .init()
        .build();
    p.lexi(["describe", "build", "Build output."])
        .code(1)
        .stderr_has("build is ignored");
    p.lexi(["describe", "nope", "x"])
        .code(1)
        .stderr_has("nope is not a directory");
    p.lexi(["describe", "src", "  "])
        .code(1)
        .stderr_has("the description is empty");
}

#[test]
fn index_prints_one_or_all_recursively() {
    let p = project().fixture("python").init().build();
    for (dir, words) in [
        (".", "Weather CLI."),
        ("pkg", "The package."),
        ("pkg/sub", "Helpers."),
    ] {
        p.lexi(["describe", dir, words]).success();
    }
    // The file as written, without its empty Local Conventions heading.
    let written = p.read(".lexibrary/pkg/.aindex");
    assert!(written.ends_with("\n\n## Local Conventions\n"), "{written}");
    p.lexi(["index", "pkg"])
        .success()
        .stdout_is(&written.replace("\n\n## Local Conventions\n", "\n"));
    let all = p.lexi(["index", ".", "-r"]).run();
    insta::assert_snapshot!("index_recursive", all.stdout);
    let from_sub = p.lexi(["index", "-r"]).current_dir("pkg").run();
    assert!(
        from_sub.stdout.starts_with("# pkg/\n"),
        "{}",
        from_sub.stdout
    );
    from_sub.stdout_has("# pkg/sub/\n").stdout_lacks("# ./");
    let value = p.lexi(["index", "pkg", "--format", "json"]).run().json();
    insta::assert_json_snapshot!("index_json", value);
    let value = p.lexi(["index", "-r", "--format", "json"]).run().json();
    assert_eq!(value.as_array().map(Vec::len), Some(3));
}

#[test]
fn index_without_an_aindex_says_how_to_make_one() {
    let p = project().file("src/a.rs", "").init().build();
    let out = p.lexi(["index", "src"]).code(1);
    insta::assert_snapshot!("index_missing", out.stderr);
    p.lexi(["index", "src/a.rs"])
        .run()
        .stderr_has("is a file; try `lexi lookup src/a.rs`");
}

#[test]
fn child_map_survives_a_symlink_loop() {
    let p = project().file("src/a.rs", "pub fn a() {}\n").build();
    std::os::unix::fs::symlink("..", p.path("src/loop")).expect("symlink");
    std::os::unix::fs::symlink(p.path("src"), p.path("src/self")).expect("symlink");
    p.init();
    p.lexi(["describe", "src", "Sources."]).success();
    let index = p.read(".lexibrary/src/.aindex");
    assert!(
        index.contains("| `a.rs` | file | Rust source. |"),
        "{index}"
    );
    assert!(
        !index.contains("loop"),
        "symlinks are not followed: {index}"
    );
}
