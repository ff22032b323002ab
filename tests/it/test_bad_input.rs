//! Bad input: each gives a clear error naming the file (and line), exit 1, and no panic.

use crate::support::{project, run};

#[test]
fn malformed_frontmatter_names_file_and_line() {
    let p = project().file("src/a.rs", "fn a() {}\n").build();
    p.init();
    p.write(
        ".lexibrary/src/a.rs.md",
        "---\ndescription: fine\nupdated_by: [unclosed\n---\n\n# src/a.rs\n",
    );
    let out = run(&p, p.lexi(&["lookup", "src/a.rs"]));
    assert_eq!(out.code, 1, "{}", out.both());
    assert!(
        out.stderr.starts_with("error: .lexibrary/src/a.rs.md:"),
        "{}",
        out.stderr
    );
    assert!(out.stderr.contains("invalid frontmatter"), "{}", out.stderr);
    assert!(!out.stderr.contains("panicked"));

    p.write(
        ".lexibrary/src/a.rs.md",
        "---\ndescription: never closed\n# src/a.rs\n",
    );
    let unclosed = run(&p, p.lexi(&["lookup", "src/a.rs"]));
    assert_eq!(unclosed.code, 1);
    assert!(
        unclosed
            .stderr
            .contains(".lexibrary/src/a.rs.md:1: the frontmatter opened"),
        "{}",
        unclosed.stderr
    );

    p.write(
        ".lexibrary/src/a.rs.md",
        "---\nupdated_by: robot\n---\n# src/a.rs\n",
    );
    let bad_enum = run(&p, p.lexi(&["lookup", "src/a.rs"]));
    assert_eq!(bad_enum.code, 1);
    assert!(
        bad_enum.stderr.contains(
            ".lexibrary/src/a.rs.md:2: invalid frontmatter: updated_by: unknown variant `robot`"
        ),
        "{}",
        bad_enum.stderr
    );
}

#[test]
fn footer_with_a_missing_field_names_file_and_line() {
    let p = project().file("src/a.rs", "fn a() {}\n").build();
    p.init();
    p.write(
        ".lexibrary/src/a.rs.md",
        "---\ndescription: x\n---\n\n# src/a.rs\n\n<!-- lexibrarian:meta\nsource: src/a.rs\nsource_hash: abc\ngenerated: 2026-01-01T00:00:00Z\ngenerator: lexibrarian 0.1.0\n-->\n",
    );
    let out = run(&p, p.lexi(&["lookup", "src/a.rs"]));
    assert_eq!(out.code, 1);
    assert_eq!(
        out.stderr,
        "error: .lexibrary/src/a.rs.md:7: the footer is missing `design_hash`\n"
    );
}

#[test]
fn config_with_an_unknown_key_names_line_and_closest_key() {
    let p = project().file("src/a.rs", "").build();
    p.init();
    let config = p
        .read(".lexibrary/config.yaml")
        .replace("  enabled: true", "  enabeld: true");
    p.write(".lexibrary/config.yaml", config);
    let out = run(&p, p.lexi(&["index", "."]));
    assert_eq!(out.code, 1);
    insta::assert_snapshot!("config_unknown_key", out.stderr);
}

#[test]
fn config_with_a_wrong_type_names_the_line() {
    let p = project().build();
    p.init();
    let config = p
        .read(".lexibrary/config.yaml")
        .replace("max_file_size_kb: 512", "max_file_size_kb: big");
    p.write(".lexibrary/config.yaml", config);
    let out = run(&p, p.lexi(&["index", "."]));
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains(".lexibrary/config.yaml:"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("crawl.max_file_size_kb: invalid type"),
        "{}",
        out.stderr
    );
}

#[test]
fn global_config_errors_name_the_global_file_and_project_wins() {
    let p = project().file("src/a.rs", "").build();
    p.init();
    std::fs::create_dir_all(p.global_config_path().parent().expect("parent")).expect("mkdir");
    std::fs::write(p.global_config_path(), "llm:\n  providr: openai\n").expect("write");
    let out = run(&p, p.lexi(&["index", "."]));
    assert_eq!(out.code, 1);
    assert!(
        out.stderr.contains("lexibrarian/config.yaml:2"),
        "{}",
        out.stderr
    );
    assert!(
        out.stderr.contains("did you mean `provider`?"),
        "{}",
        out.stderr
    );
}

#[test]
fn usage_errors_exit_1_not_2() {
    let p = project().build();
    let out = run(&p, p.lexi(&["lookup"]));
    assert_eq!(out.code, 1, "2 is reserved for findings");
    assert!(out.stderr.contains("Usage: lexi lookup"), "{}", out.stderr);
    let unknown = run(&p, p.lexi(&["frobnicate"]));
    assert_eq!(unknown.code, 1);
}

#[test]
fn binary_and_oversized_files_are_described_not_read() {
    let big = "x".repeat(600 * 1024);
    let p = project()
        .file("data/archive.tar.zst", b"\x28\xb5\x2f\xfd compressed")
        .file("data/blob", b"\x00\x01\x02")
        .file("data/huge.txt", big)
        .build();
    p.init();
    let out = run(&p, p.lexi(&["describe", "data", "Test data."]));
    assert_eq!(out.code, 0, "{}", out.both());
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
    let mut builder = crate::support::project().fixture("rust");
    for i in 0..600 {
        builder = builder.file(
            &format!("src/gen/m{i:03}.rs"),
            format!("//! Module {i}, which does a thing.\npub fn f{i}() {{}}\n"),
        );
    }
    let p = builder.build();
    p.init();
    assert_eq!(crate::support::run(&p, p.lexictl(&["update"])).code, 0);
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{} search --tag rust --format json | head -c 1 >/dev/null",
            crate::support::bin_dir().join("lexi").display()
        ))
        .current_dir(&p.root)
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
}
