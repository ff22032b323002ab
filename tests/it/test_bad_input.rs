//! Bad input: each gives a clear error naming the file (and line), exit 1, and no panic.

use crate::support::project;

#[test]
fn malformed_frontmatter_names_file_and_line() {
    let p = project().file("src/a.rs", "fn a() {}\n").init().build();
    p.write(
        ".lexibrary/src/a.rs.md",
        "---\ndescription: fine\nupdated_by: [unclosed\n---\n\n# src/a.rs\n",
    );
    let out = p.lexi(["lookup", "src/a.rs"]).code(1);
    assert!(
        out.stderr.starts_with("error: .lexibrary/src/a.rs.md:"),
        "{}",
        out.stderr
    );
    out.stderr_has("invalid frontmatter")
        .stderr_lacks("panicked");

    p.write(
        ".lexibrary/src/a.rs.md",
        "---\ndescription: never closed\n# src/a.rs\n",
    );
    p.lexi(["lookup", "src/a.rs"])
        .code(1)
        .stderr_has(".lexibrary/src/a.rs.md:1: the frontmatter opened");

    p.write(
        ".lexibrary/src/a.rs.md",
        "---\nupdated_by: robot\n---\n# src/a.rs\n",
    );
    p.lexi(["lookup", "src/a.rs"]).code(1).stderr_has(
        ".lexibrary/src/a.rs.md:2: invalid frontmatter: updated_by: unknown variant `robot`",
    );
}

#[test]
fn footer_with_a_missing_field_names_file_and_line() {
    let p = project().file("src/a.rs", "fn a() {}\n").init().build();
    p.write(
        ".lexibrary/src/a.rs.md",
        "---\ndescription: x\n---\n\n# src/a.rs\n\n<!-- lexibrarian:meta\nsource: src/a.rs\nsource_hash: abc\ngenerated: 2026-01-01T00:00:00Z\ngenerator: lexibrarian 0.1.0\n-->\n",
    );
    p.lexi(["lookup", "src/a.rs"])
        .code(1)
        .stderr_is("error: .lexibrary/src/a.rs.md:7: the footer is missing `design_hash`\n");
}

#[test]
fn config_with_an_unknown_key_names_line_and_closest_key() {
    let p = project().file("src/a.rs", "").init().build();
    let config = p
        .read(".lexibrary/config.yaml")
        .replace("  enabled: true", "  enabeld: true");
    p.write(".lexibrary/config.yaml", config);
    let out = p.lexi(["index", "."]).code(1);
    let _snapshots = p.snapshots().bind();
    insta::assert_snapshot!("config_unknown_key", out.stderr);
}

#[test]
fn config_with_a_wrong_type_names_the_line() {
    let p = project().init().build();
    let config = p
        .read(".lexibrary/config.yaml")
        .replace("max_file_size_kb: 512", "max_file_size_kb: big");
    p.write(".lexibrary/config.yaml", config);
    p.lexi(["index", "."])
        .code(1)
        .stderr_has(".lexibrary/config.yaml:")
        .stderr_has("crawl.max_file_size_kb: invalid type");
}

#[test]
fn global_config_errors_name_the_global_file_and_project_wins() {
    let p = project().file("src/a.rs", "").init().build();
    p.global_config("llm:\n  providr: openai\n");
    p.lexi(["index", "."])
        .code(1)
        .stderr_has("lexibrarian/config.yaml:2")
        .stderr_has("did you mean `provider`?");
}

#[test]
fn usage_errors_exit_1_not_2() {
    let p = project().build();
    // Exit code 2 is reserved for findings.
    p.lexi(["lookup"]).code(1).stderr_has("Usage: lexi lookup");
    p.lexi(["frobnicate"]).code(1);
}

#[test]
fn binary_and_oversized_files_are_described_not_read() {
    let big = "x".repeat(600 * 1024);
    let p = project()
        .file("data/archive.tar.zst", b"\x28\xb5\x2f\xfd compressed")
        .file("data/blob", b"\x00\x01\x02")
        .file("data/huge.txt", big)
        .init()
        .build();
    p.lexi(["describe", "data", "Test data."]).success();
    let index = p.read(".lexibrary/data/.aindex");
    assert!(
        index.contains("| `archive.tar.zst` | file | Binary file (15 B) |"),
        "{index}"
    );
    assert!(
        index.contains("| `blob` | file | Binary file (3 B) |"),
        "{index}"
    );
    assert!(
        index.contains("| `huge.txt` | file | Text file (600 KB, too large to document) |"),
        "{index}"
    );
}

#[test]
fn json_into_a_closed_pipe_is_not_an_error_message() {
    // More JSON than a pipe buffer holds (64 KB), so the writer really meets the closed pipe.
    let mut builder = project().fixture("rust");
    for i in 0..600 {
        builder = builder.file(
            &format!("src/gen/m{i:03}.rs"),
            format!("//! Module {i}, which does a thing.\npub fn f{i}() {{}}\n"),
        );
    }
    let p = builder.init().build();
    p.lexictl(["update"]).success();
    p.cmd(
        "sh",
        [
            "-c",
            "lexi search --tag rust --format json | head -c 1 >/dev/null",
        ],
    )
    .run()
    .stderr_is("");
}
