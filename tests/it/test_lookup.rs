//! `lexi lookup`: design file, staleness, inherited conventions, path handling, JSON.

use crate::support::{project, run, TestProject};

const BODY: &str = "## Interface Contract\n\n```rust\npub fn eval(input: &str) -> Result<i64, ParseError>\n## not a heading, inside the fence\n```\n\n## Dependencies\n\n- src/parser/mod.rs\n\n## Dependents\n\n(none)";

fn documented_rust_project() -> TestProject {
    let p = project().fixture("rust").build();
    p.init();
    p.design_file("src/lib.rs", "Evaluates arithmetic expressions.", BODY);
    p.write(
        ".lexibrary/.aindex",
        "# ./\n\nThe tiny-calc crate.\n\n## Child Map\n\n| Name | Type | Description |\n| --- | --- | --- |\n| `src/` | dir | Sources. |\n\n## Local Conventions\n\n- Use `i64` for every number.\n",
    );
    p.write(
        ".lexibrary/src/.aindex",
        "# src/\n\nLibrary sources.\n\n## Child Map\n\n| Name | Type | Description |\n| --- | --- | --- |\n| `lib.rs` | file | Evaluates arithmetic expressions. |\n\n## Local Conventions\n\n- Parsing never panics; return `ParseError`.\n",
    );
    p
}

#[test]
fn prints_the_design_file_with_inherited_conventions() {
    let p = documented_rust_project();
    let out = run(&p, p.lexi(&["lookup", "src/lib.rs"]));
    assert_eq!(out.code, 0, "{}", out.both());
    insta::assert_snapshot!("lookup_current", out.stdout);
    assert!(
        !out.stdout.contains("lexibrarian:meta"),
        "the footer is machine data, not shown"
    );
    assert!(!out.stdout.contains("outdated"));
}

#[test]
fn warns_when_the_source_changed() {
    let p = documented_rust_project();
    p.write("src/lib.rs", "pub fn eval() {}\n");
    let out = run(&p, p.lexi(&["lookup", "src/lib.rs"]));
    assert_eq!(out.code, 0);
    assert!(
        out.stdout.starts_with(
            "> ⚠️ This doc may be outdated. Source file changed since last update.\n\n---\n"
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn warns_when_the_source_is_gone() {
    let p = documented_rust_project();
    std::fs::remove_file(p.path("src/lib.rs")).expect("remove");
    let out = run(&p, p.lexi(&["lookup", "src/lib.rs"]));
    assert_eq!(out.code, 0, "{}", out.both());
    assert!(
        out.stdout.contains("The source file no longer exists"),
        "{}",
        out.stdout
    );
}

#[test]
fn json_has_frontmatter_sections_footer_conventions_and_staleness() {
    let p = documented_rust_project();
    let out = run(&p, p.lexi(&["lookup", "src/lib.rs", "--format", "json"]));
    assert_eq!(out.code, 0, "{}", out.both());
    let mut value: serde_json::Value = serde_json::from_str(&out.stdout).expect("valid JSON");
    // Hashes depend on the fixture bytes; check them, then blank them for the snapshot.
    let footer = value["footer"].as_object_mut().expect("footer");
    assert_eq!(footer["source_hash"].as_str().map(str::len), Some(64));
    footer.insert("source_hash".into(), "[hash]".into());
    footer.insert("design_hash".into(), "[hash]".into());
    insta::assert_json_snapshot!("lookup_json", value);
}

#[test]
fn relative_paths_work_from_subdirectories() {
    let p = documented_rust_project();
    let mut command = p.lexi(&["lookup", "lib.rs"]);
    command.current_dir(p.path("src"));
    let from_src = run(&p, command);
    let mut command = p.lexi(&["lookup", "../lib.rs"]);
    command.current_dir(p.path("src/parser"));
    let from_parser = run(&p, command);
    let from_root = run(&p, p.lexi(&["lookup", "src/lib.rs"]));
    assert_eq!(from_src.code, 0, "{}", from_src.both());
    assert_eq!(from_src.stdout, from_root.stdout);
    assert_eq!(from_parser.stdout, from_root.stdout);
}

#[test]
fn git_lexi_is_the_same_command() {
    let p = documented_rust_project();
    let lexi = run(&p, p.lexi(&["lookup", "src/lib.rs"]));
    let git_lexi = run(&p, p.bin("git-lexi", &["lookup", "src/lib.rs"]));
    assert_eq!(lexi.stdout, git_lexi.stdout);
    let help = run(&p, p.bin("git-lexi", &["--help"]));
    assert!(
        help.stdout.contains("Usage: git lexi [OPTIONS] <COMMAND>"),
        "{}",
        help.stdout
    );
}

#[test]
fn missing_design_file_names_the_update_command() {
    let p = documented_rust_project();
    let out = run(&p, p.lexi(&["lookup", "src/parser/mod.rs"]));
    assert_eq!(out.code, 1);
    insta::assert_snapshot!("lookup_missing", out.stderr);
}

#[test]
fn refuses_paths_outside_the_project_and_inside_git() {
    let p = documented_rust_project();
    let mut command = p.lexi(&["lookup", "../../etc/passwd"]);
    command.current_dir(p.path("src"));
    let outside = run(&p, command);
    assert_eq!(outside.code, 1);
    assert!(
        outside.stderr.contains("is outside the project root"),
        "{}",
        outside.stderr
    );
    let absolute = run(&p, p.lexi(&["lookup", "/etc/passwd"]));
    assert_eq!(absolute.code, 1);
    assert!(
        absolute.stderr.contains("is outside the project root"),
        "{}",
        absolute.stderr
    );
    let git = run(&p, p.lexi(&["lookup", ".git/config"]));
    assert_eq!(git.code, 1);
    assert!(git.stderr.contains("inside .git/"), "{}", git.stderr);
    let library = run(&p, p.lexi(&["lookup", ".lexibrary/src/lib.rs.md"]));
    assert_eq!(library.code, 1);
    assert!(
        library.stderr.contains("is a library file"),
        "{}",
        library.stderr
    );
}

#[test]
fn out_of_scope_files_and_directories_get_advice() {
    let p = documented_rust_project();
    let out_of_scope = run(&p, p.lexi(&["lookup", "Cargo.toml"]));
    assert_eq!(out_of_scope.code, 1);
    assert!(
        out_of_scope.stderr.contains("outside scope_root (src)"),
        "{}",
        out_of_scope.stderr
    );
    let dir = run(&p, p.lexi(&["lookup", "src"]));
    assert_eq!(dir.code, 1);
    assert!(
        dir.stderr.contains("try `lexi index src`"),
        "{}",
        dir.stderr
    );
    let missing = run(&p, p.lexi(&["lookup", "src/nope.rs"]));
    assert_eq!(missing.code, 1);
    assert!(
        missing.stderr.contains("no such file: src/nope.rs"),
        "{}",
        missing.stderr
    );
}

#[test]
fn paths_with_spaces_and_unicode_work() {
    let p = project().build();
    p.init();
    for source in ["docs and notes/read me.md", "src/naïve/日本.py"] {
        p.write(source, "text\n");
        p.design_file(source, "A file with an awkward name.", "## Notes\n\nfine");
        let out = run(&p, p.lexi(&["lookup", source]));
        assert_eq!(out.code, 0, "{source}: {}", out.both());
        assert!(
            out.stdout.contains(&format!("# {source}")),
            "{}",
            out.stdout
        );
        assert!(!out.stdout.contains("outdated"), "{}", out.stdout);
    }
}

#[test]
fn outside_a_project_every_command_says_run_init() {
    let p = project().build();
    for args in [
        &["lookup", "a.rs"][..],
        &["index", "."][..],
        &["describe", ".", "x"][..],
    ] {
        let out = run(&p, p.lexi(args));
        assert_eq!(out.code, 1, "{args:?}");
        assert!(
            out.stderr.contains("not a Lexibrarian project")
                && out.stderr.contains("run `lexictl init`"),
            "{args:?}: {}",
            out.stderr
        );
    }
}
