//! `lexictl init`: defaults, detection, the scripted wizard, re-init, and failing without residue.

use crate::support::project;

#[test]
fn init_yes_creates_the_library_and_gitignore_entries() {
    let p = project()
        .fixture("rust")
        .file("CLAUDE.md", "# House rules\n")
        .build();
    let _snapshots = p.snapshots().bind();
    let out = p.lexictl(["init", "--yes"]).run();
    insta::assert_snapshot!("init_yes_output", out.both());
    for rel in [
        ".lexibrary/config.yaml",
        ".lexibrary/START_HERE.md",
        ".lexibrary/concepts",
        ".lexibrary/stack",
        ".lexignore",
    ] {
        assert!(p.exists(rel), "{rel} was not created");
    }
    insta::assert_snapshot!("init_config_yaml", p.read(".lexibrary/config.yaml"));
    insta::assert_snapshot!("init_start_here", p.read(".lexibrary/START_HERE.md"));
    insta::assert_snapshot!("init_gitignore", p.read(".gitignore"));
    let claude = p.read("CLAUDE.md");
    assert!(claude.starts_with("# House rules\n\n<!-- >>> lexibrarian rules v1 >>> -->"));
    // git must see the ignore entries: an .iwh note is not a tracked-file candidate.
    p.write(".lexibrary/src/.iwh", "note");
    let status = p
        .git(["status", "--porcelain", "--untracked-files=all"])
        .success()
        .stdout;
    assert!(!status.contains(".iwh"), "{status}");
    assert!(!status.contains(".cache"), "{status}");
}

#[test]
fn non_tty_stdin_takes_defaults_with_a_note() {
    let p = project().fixture("python").build();
    p.lexictl(["init"])
        .success()
        .stderr_has("stdin is not a terminal");
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("project_name: weather-cli"), "{config}");
    assert!(config.contains("scope_root: ."), "{config}");
}

#[test]
fn detects_names_and_scope_roots_per_ecosystem() {
    for (fixture, name, scope) in [
        ("rust", "tiny-calc", "scope_root: src/"),
        ("javascript", "todo-web", "scope_root: src/"),
        ("typescript", "orders-api", "scope_root: src/"),
        ("python", "weather-cli", "scope_root: ."),
    ] {
        let p = project().fixture(fixture).init().build();
        let config = p.read(".lexibrary/config.yaml");
        assert!(
            config.contains(&format!("project_name: {name}")),
            "{fixture}: {config}"
        );
        assert!(config.contains(scope), "{fixture}: {config}");
    }
}

#[test]
fn json_output_reports_what_was_created() {
    let p = project().fixture("typescript").build();
    let value = p.lexictl(["init", "--yes", "--format", "json"]).json();
    let _snapshots = p.snapshots().bind();
    insta::assert_json_snapshot!("init_json", value);
}

#[test]
fn scripted_wizard_answers_every_question() {
    let p = project().fixture("rust").build();
    let answers = "calc\nsrc/, benches/\ncodex\nstructural\n*.generated.rs, vendor/\nn\n900\n300\n150\n350\nn\ny\n";
    let out = p
        .lexictl(["init", "--interactive"])
        .stdin(answers)
        .success();
    insta::assert_snapshot!("wizard_prompts", out.stderr);
    let config = p.read(".lexibrary/config.yaml");
    insta::assert_snapshot!("wizard_config_yaml", config);
    let lexignore = p.read(".lexignore");
    assert!(
        lexignore.contains("*.generated.rs\nvendor/\n"),
        "{lexignore}"
    );
    assert!(p.read("AGENTS.md").contains("lexibrarian rules v1"));
}

#[test]
fn declining_the_summary_creates_nothing() {
    let p = project().fixture("rust").build();
    p.lexictl(["init", "--interactive"])
        .stdin("\n\n\n\n\n\n\nn\n")
        .success();
    assert!(!p.exists(".lexibrary"));
    assert!(!p.exists(".lexignore"));
}

#[test]
fn reinit_points_at_setup_update() {
    let p = project().init().build();
    p.lexictl(["init", "--yes"])
        .code(1)
        .stderr_has("already a Lexibrarian project")
        .stderr_has("lexictl setup --update");
    std::fs::create_dir_all(p.path("sub")).expect("mkdir");
    p.lexictl(["init", "--yes", "sub"])
        .code(1)
        .stderr_has("already inside the Lexibrarian project");
}

#[test]
fn a_write_failing_midway_leaves_the_project_as_it_was() {
    // An obstacle makes the third write fail after .lexignore and .gitignore were written:
    // `.cursor` is a file, so `.cursor/rules/lexibrarian.mdc` cannot be created.
    let p = project()
        .file(".gitignore", "target/\n")
        .file(".cursor", "a file where a directory should be")
        .build();
    let before_gitignore = p.read(".gitignore");
    p.lexictl(["init", "--interactive"])
        .stdin("\n\ncursor\n\n\n\n\n\n")
        .code(1)
        .stderr_has("cannot write .cursor/rules/lexibrarian.mdc");
    assert!(!p.exists(".lexibrary"), ".lexibrary/ must not be half-made");
    assert!(!p.exists(".lexignore"), ".lexignore must be removed again");
    assert_eq!(
        p.read(".gitignore"),
        before_gitignore,
        ".gitignore must be restored byte for byte"
    );
    let leftovers: Vec<_> = std::fs::read_dir(&p.root)
        .expect("list")
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .filter(|name| name.starts_with(".lexibrary") || name.starts_with(".lexi-tmp"))
        .collect();
    assert!(leftovers.is_empty(), "staging left behind: {leftovers:?}");
}

#[test]
fn a_read_only_directory_fails_cleanly() {
    use std::os::unix::fs::PermissionsExt;
    let p = project().no_git().build();
    let mut perms = std::fs::metadata(&p.root).expect("meta").permissions();
    perms.set_mode(0o555);
    std::fs::set_permissions(&p.root, perms.clone()).expect("chmod");
    // root ignores permission bits; then there is nothing to observe here, and the obstacle test
    // above covers the rollback path.
    let writable_anyway = std::fs::write(p.path("probe"), "x").is_ok();
    let out = p.lexictl(["init", "--yes"]).run();
    perms.set_mode(0o755);
    std::fs::set_permissions(&p.root, perms).expect("chmod back");
    if writable_anyway {
        out.success();
        return;
    }
    out.code(1).stderr_has("cannot write to");
    assert_eq!(std::fs::read_dir(&p.root).expect("list").count(), 0);
}

#[test]
fn init_never_reads_key_values() {
    let p = project().build();
    let out = p
        .lexictl(["init", "--interactive"])
        .env("ANTHROPIC_API_KEY", "sk-ant-secret-value-123")
        .stdin("\n\n\nanthropic\n\n\n\n\n\n")
        .success();
    out.stderr_has("found ANTHROPIC_API_KEY → anthropic");
    let config = p.read(".lexibrary/config.yaml");
    assert!(
        config.contains("api_key_env: ANTHROPIC_API_KEY"),
        "{config}"
    );
    assert!(config.contains("provider: anthropic"), "{config}");
    assert!(!out.both().contains("secret-value"));
    assert!(!config.contains("secret-value"));
}
