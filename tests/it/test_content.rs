//! What a fresh structural library says (issue 13): descriptions of purpose (never a licence banner,
//! a tag line or an RST underline), complete CommonJS/TypeScript/Python interfaces, the default
//! mapping strategies (lockfiles, snapshots, expected output and vendored code skipped, fixtures
//! grouped, generated files abridged), and a library that passes its own `validate`.

use crate::support::project;

const DESIGNS: &[&str] = &[
    "lib/application.js",
    "lib/response.js",
    "lib/express.js",
    "src/index.ts",
    "src/legacy.ts",
    "pkg/__init__.py",
    "pkg/app.py",
    "pkg/tag.py",
    "gen/api_pb.js",
];

#[test]
fn a_fresh_library_of_the_content_fixture_passes_validate_and_says_what_files_are_for() {
    let p = project()
        .fixture("content")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    p.lexictl(["validate"]).success();
    p.lexictl(["update", "--check"]).success();
    for skipped in [
        "Cargo.lock",
        "package-lock.json",
        "tests/__snapshots__/it.snap",
        "tests/cases/run.out",
        "vendor/left/index.js",
        "tests/fixtures/cases/one.js",
    ] {
        assert!(
            !p.exists(&format!(".lexibrary/{skipped}.md")),
            "{skipped} should have no design file"
        );
    }
    let aindex = p.read(".lexibrary/.aindex");
    assert!(aindex.contains("`Cargo.lock`"), "{aindex}");
    let mut snapshot = String::new();
    for source in DESIGNS {
        let text = p.read(&format!(".lexibrary/{source}.md"));
        let content = text.split("<!-- lexibrarian:meta").next().unwrap_or("");
        snapshot.push_str(&format!("==> {source}\n{content}"));
    }
    for banned in ["Copyright", "Licensed", "@import", "~~~", "use strict"] {
        let descriptions: Vec<&str> = snapshot
            .lines()
            .filter(|line| line.starts_with("description:"))
            .collect();
        assert!(
            !descriptions.iter().any(|d| d.contains(banned)),
            "{banned} in {descriptions:?}"
        );
    }
    insta::assert_snapshot!(snapshot);
}

#[test]
fn mapping_rules_in_config_override_the_defaults() {
    let p = project()
        .fixture("content")
        .init()
        .config("scope_root: .\nmapping:\n  rules:\n    - glob: vendor/\n      strategy: full\n    - glob: lib/response.js\n      strategy: skip\n")
        .build();
    p.lexictl(["update"]).success();
    assert!(p.exists(".lexibrary/vendor/left/index.js.md"));
    assert!(!p.exists(".lexibrary/lib/response.js.md"));
    p.lexictl(["validate"]).success();
}

#[test]
fn a_design_file_an_agent_grows_past_its_budget_still_warns() {
    let p = project()
        .fixture("content")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    let rel = ".lexibrary/pkg/app.py.md";
    let text = p.read(rel);
    let bloated = text.replacen(
        "## Interface Contract",
        &format!(
            "## Notes\n\n{}\n\n## Interface Contract",
            "An agent's long note. ".repeat(200)
        ),
        1,
    );
    std::fs::write(p.path(rel), bloated).expect("write");
    p.lexictl(["validate"]).code(2).stdout_has("over-budget");
}
