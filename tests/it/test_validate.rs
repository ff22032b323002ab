//! `lexictl validate` and `lexictl status`: a clean library passes; a library seeded with one
//! instance of every problem reports each once, with the right check id and tier.

use crate::support::{project, TestProject};

fn clean() -> TestProject {
    let p = project()
        .fixture("rust")
        .file("src/a.rs", "//! A.\npub fn a() {}\n")
        .file("src/b.rs", "//! B.\npub fn b() {}\n")
        .file("src/c.rs", "//! C.\npub fn c() {}\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p
}

fn edit(p: &TestProject, rel: &str, from: &str, to: &str) {
    let text = p.read(rel);
    assert!(
        text.contains(from),
        "{rel} does not contain {from:?}:\n{text}"
    );
    p.write(rel, text.replacen(from, to, 1));
}

#[test]
fn a_clean_library_passes() {
    let p = clean();
    let out = p.lexictl(["validate", "--severity", "info"]).success();
    assert!(
        out.stdout
            .starts_with("lexictl validate: 0 errors, 0 warnings, 0 info"),
        "{}",
        out.stdout
    );
    p.lexictl(["status", "--quiet"]).success().stdout_is("");
}

#[test]
fn every_problem_is_reported_once_with_its_check_id() {
    let p = clean();
    // Concepts: one linked and healthy, one orphan, one deprecated without successor, one
    // incomplete, one over budget, one holding a secret.
    p.write(".lexibrary/concepts/Parsing.md", "---\ntitle: Parsing\naliases: [parser]\ntags: [parser]\nstatus: active\n---\n\n## Summary\n\nRecursive descent.\n");
    p.lexi(["concept", "link", "src/lib.rs", "Parsing"])
        .success();
    p.write(".lexibrary/concepts/Orphan.md", "---\ntitle: Orphan\naliases: [lonely]\ntags: [misc]\nstatus: active\n---\n\n## Summary\n\nNobody links here.\n");
    p.write(".lexibrary/concepts/Old.md", "---\ntitle: Old\naliases: [legacy]\ntags: [misc]\nstatus: deprecated\n---\n\n## Summary\n\nGone. See [[Parsing]].\n");
    p.write(".lexibrary/concepts/Thin.md", "---\ntitle: Thin\ntags: [misc]\nstatus: active\n---\n\n## Summary\n\nNo aliases. [[Old]] [[Big]] [[Leaky]]\n");
    let long: String = (0..300)
        .map(|i| format!("- Rule number {i} says something specific.\n"))
        .collect();
    p.write(".lexibrary/concepts/Big.md", format!("---\ntitle: Big\naliases: [large]\ntags: [misc]\nstatus: active\n---\n\n## Summary\n\nToo long. [[Thin]]\n\n## Rules\n\n{long}"));
    p.write(".lexibrary/concepts/Leaky.md", "---\ntitle: Leaky\naliases: [leak]\ntags: [misc]\nstatus: active\n---\n\n## Summary\n\nKey AKIAIOSFODNN7EXAMPLE pasted here. [[Thin]]\n");
    // Design files: a broken link, a missing dependency, a missing test, a malformed one, an
    // over-scoped flag, a dependents gap.
    edit(
        &p,
        ".lexibrary/src/lib.rs.md",
        "- [[Parsing]]",
        "- [[Parsing]]\n- [[Nowhere]]",
    );
    edit(
        &p,
        ".lexibrary/src/a.rs.md",
        "## Tags",
        "## Tests\n\n- tests/gone_test.rs\n\n## Tags",
    );
    edit(
        &p,
        ".lexibrary/src/lib.rs.md",
        "## Dependencies\n\n- src/parser/mod.rs",
        "## Dependencies\n\n- src/parser/mod.rs\n- src/gone.rs\n- ../../outside/id_rsa",
    );
    edit(
        &p,
        ".lexibrary/src/b.rs.md",
        "description:",
        "description: [unclosed\nother:",
    );
    edit(
        &p,
        ".lexibrary/src/parser/lexer.rs.md",
        "-->",
        "over_scoped: 900/400\n-->",
    );
    edit(
        &p,
        ".lexibrary/src/parser/lexer.rs.md",
        "## Dependents\n\n- src/parser/mod.rs",
        "## Dependents\n\n(none)",
    );
    // An agent's note appended after the footer.
    p.write(
        ".lexibrary/src/a.rs.md",
        format!(
            "{}\n## Notes\n\nAppended after the footer.\n",
            p.read(".lexibrary/src/a.rs.md")
        ),
    );
    // Library files that are not: a symlink out of the repository, a temp file a killed write left.
    std::os::unix::fs::symlink("/etc/passwd", p.path(".lexibrary/src/evil.rs.md"))
        .expect("symlink");
    p.write(".lexibrary/src/.lexi-tmp-Ab12Cd", "");
    // A text the Archivist wrote whose provenance is not recorded (its footer changed since).
    edit(
        &p,
        ".lexibrary/src/parser/mod.rs.md",
        "-->",
        "copied_from: another clone\n-->",
    );
    // Sources: one body edit, one interface change, one deleted, one new file nobody indexed.
    edit(&p, "src/parser/mod.rs", "//!", "// a comment\n//!");
    p.write(
        "src/lib.rs",
        format!("{}\npub fn added() {{}}\n", p.read("src/lib.rs")),
    );
    std::fs::remove_file(p.path("src/c.rs")).expect("remove src/c.rs");
    p.write("src/d.rs", "pub fn d() {}\n");
    // Stack: a post with a missing file, a duplicate id, a score that disagrees with its complete
    // history, and a post whose score the notes here cannot confirm.
    p.lexi([
        "stack",
        "post",
        "--title",
        "Lexer",
        "--file",
        "src/a.rs",
        "--concept",
        "Parsing",
        "--problem",
        "p",
        "--evidence",
        "e",
    ])
    .success();
    p.lexi(["stack", "vote", "ST-001", "up"]).success();
    let post = ".lexibrary/stack/ST-001-lexer.md";
    p.write(
        ".lexibrary/stack/ST-001-copy.md",
        p.read(post).replace("title: Lexer", "title: Copy"),
    );
    edit(&p, post, "- src/a.rs", "- src/a.rs\n  - src/missing.rs");
    edit(&p, post, "votes: 1", "votes: 0");
    p.lexi([
        "stack",
        "post",
        "--title",
        "Unconfirmed",
        "--file",
        "Cargo.toml",
        "--problem",
        "p",
        "--evidence",
        "e",
    ])
    .success();
    edit(
        &p,
        ".lexibrary/stack/ST-002-unconfirmed.md",
        "votes: 0",
        "votes: 2",
    );
    // ...whose file has been rewritten since (committed: staleness is measured in git history).
    p.write(
        "Cargo.toml",
        "[package]\nname = \"renamed\"\nversion = \"2.0.0\"\nedition = \"2024\"\n\n[dependencies]\nserde = \"1\"\n",
    );
    p.git(["commit", "-q", "-m", "manifest", "--", "Cargo.toml"])
        .success();
    // An npm workspace package the scope leaves out.
    p.write(
        "package.json",
        "{\"name\": \"mono\", \"workspaces\": [\"web\"]}\n",
    );
    p.write(
        "web/package.json",
        "{\"name\": \"web\", \"main\": \"index.js\"}\n",
    );
    p.write("web/index.js", "module.exports = function serve() {};\n");
    // A project LLM server this clone trusted, moved elsewhere since.
    p.config("llm:\n  provider: openai-compatible\n  base_url: http://127.0.0.1:9/v1\n");
    p.lexictl(["trust"]).success();
    p.config("llm:\n  base_url: http://attacker.example/v1\n");
    // A library file too large to read, and an ignore file that is a FIFO (made last: git's own
    // commands would wait on it).
    p.write(".lexibrary/concepts/Huge.md", "x".repeat(1_100_000));
    std::fs::create_dir_all(p.path("src/parser/deep")).expect("mkdir");
    rustix::fs::mkfifoat(
        rustix::fs::CWD,
        p.path("src/parser/deep/.gitignore"),
        rustix::fs::Mode::from_raw_mode(0o644),
    )
    .expect("mkfifo");
    let out = p
        .lexictl(["validate", "--severity", "info", "--format", "json"])
        .code(2);
    let report = out.json();
    let found: Vec<String> = report["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .map(|issue| {
            let line = issue["line"]
                .as_u64()
                .map(|l| format!(":{l}"))
                .unwrap_or_default();
            format!(
                "{:<8} {:<30} {}{line}",
                issue["severity"].as_str().unwrap_or("?"),
                issue["check"].as_str().unwrap_or("?"),
                issue["file"].as_str().unwrap_or("?")
            )
        })
        .collect();
    insta::assert_snapshot!("validate_seeded", found.join("\n"));
    // Every check id is exercised (but `untrusted-config`, which a clone that trusted the settings
    // once cannot show: test_trust.rs has it).
    for (id, _, _) in lexibrarian::knowledge::validate::CHECKS {
        if *id == "untrusted-config" {
            continue;
        }
        assert!(
            found.iter().any(|line| line.contains(&format!(" {id} "))),
            "{id} not reported:\n{}",
            found.join("\n")
        );
    }
    // The secret's value is never printed.
    out.stdout_lacks("AKIAIOSFODNN7EXAMPLE");
    // Tiers filter; errors only still exits 2.
    p.lexictl(["validate", "--severity", "error"])
        .code(2)
        .stdout_lacks("Warnings");
    // GitHub annotations, one per finding.
    let github = p.lexictl(["validate", "--format", "github"]).run();
    assert!(
        github
            .stdout
            .lines()
            .all(|line| line.starts_with("::error file=") || line.starts_with("::warning file=")),
        "{}",
        github.stdout
    );
    github.stdout_has("title=lexibrarian broken-wikilink::[[Nowhere]] does not resolve");
    // JSON stays valid through a pipe.
    p.cmd("sh", ["-c", "lexictl validate --format json | cat"])
        .success()
        .json();
    // Validate is read-only. (The FIFO goes first: `git status` would wait on it for ever.)
    std::fs::remove_file(p.path("src/parser/deep/.gitignore")).expect("remove the FIFO");
    assert!(p
        .git(["status", "--porcelain"])
        .success()
        .stdout
        .lines()
        .all(|line| !line.contains(".lexibrary/src/lib.rs.md") || line.starts_with(" M")));
    // Status reflects it.
    let status = p.lexictl(["status", "--quiet"]).code(2);
    assert!(
        status.stdout.starts_with("lexibrarian: ") && status.stdout.contains(" stale"),
        "{}",
        status.stdout
    );
    let json = p.lexictl(["status", "--format", "json"]).run().json();
    assert_eq!(json["healthy"], false);
    // Stale is what `update --check` finds: every file at a change level, indexes, START_HERE.
    let check = p
        .lexictl(["update", "--check", "--format", "json"])
        .code(2)
        .json();
    let items = check["items"].as_array().map_or(0, Vec::len);
    assert!(items > 0, "{check}");
    assert!(
        json["status"]["stale"].as_u64() >= Some(items as u64),
        "{json}\n{check}"
    );
    assert_eq!(json["status"]["concepts"]["active"], 5);
    assert_eq!(json["status"]["concepts"]["deprecated"], 1);
}

#[test]
fn format_github_is_refused_where_it_means_nothing() {
    let p = clean();
    p.lexi(["lookup", "src/lib.rs", "--format", "github"])
        .code(1)
        .stderr_has("invalid value 'github'");
    p.lexictl(["status", "--format", "github"])
        .code(1)
        .stderr_has("invalid value 'github' for '--format <FORMAT>'")
        .stderr_has("[possible values: text, json]");
}

/// `--fix` repairs what the tool owns — stale hashes and the Archivist's sections, a Dependents gap
/// (in an agent's file too), a vote count its complete history contradicts, unrecorded provenance —
/// reports each repair, and leaves every word an agent wrote, and a contract only the agent can fix.
#[test]
fn fix_repairs_what_the_tool_owns_and_leaves_the_agents_words() {
    let p = clean();
    // The Archivist's file of a source that changed.
    edit(&p, "src/a.rs", "pub fn a() {}", "pub fn a() { let _ = 1; }");
    // An agent's file whose Dependents lost an entry.
    let lexer = ".lexibrary/src/parser/lexer.rs.md";
    edit(&p, lexer, "updated_by: archivist", "updated_by: agent");
    edit(
        &p,
        lexer,
        "## Dependents\n\n- src/parser/mod.rs",
        "## Why\n\nTokens  first.\n\n## Dependents\n\n(none)",
    );
    // A vote count its history contradicts, and a text whose provenance is not recorded.
    p.lexi([
        "stack",
        "post",
        "--title",
        "Votes",
        "--problem",
        "p",
        "--evidence",
        "e",
    ])
    .success();
    p.lexi(["stack", "vote", "ST-001", "up"]).success();
    edit(
        &p,
        ".lexibrary/stack/ST-001-votes.md",
        "votes: 1",
        "votes: 0",
    );
    edit(
        &p,
        ".lexibrary/src/parser/mod.rs.md",
        "-->",
        "copied_from: elsewhere\n-->",
    );
    // An agent's contract the code left behind: --fix cannot repair that.
    edit(
        &p,
        ".lexibrary/src/c.rs.md",
        "updated_by: archivist",
        "updated_by: agent",
    );
    edit(&p, "src/c.rs", "pub fn c() {}", "pub fn c(strict: bool) {}");
    let before_lexer = p.read(lexer);

    let out = p
        .lexictl(["validate", "--fix", "--severity", "info"])
        .code(2);
    for fixed in [
        "fixed [stale-source] .lexibrary/src/a.rs.md",
        "fixed [dependents-gap] .lexibrary/src/parser/lexer.rs.md",
        "fixed [stack-votes-mismatch] .lexibrary/stack/ST-001-votes.md",
        "fixed [missing-provenance] .lexibrary/src/parser/mod.rs.md",
        "fixed [stale-interface] .lexibrary/src/c.rs.md",
    ] {
        out.stdout_has(fixed);
    }
    out.stdout_has("[stale-contract]");
    assert_eq!(
        out.stdout.matches("\n  .lexibrary").count(),
        1,
        "only the contract is left:\n{}",
        out.stdout
    );
    // The agent's words are all there, byte for byte; only the list changed.
    let after_lexer = p.read(lexer);
    assert_eq!(
        after_lexer,
        before_lexer.replace(
            "## Dependents\n\n(none)\n",
            "## Dependents\n\n- src/parser/mod.rs\n"
        )
    );
    assert!(p
        .read(".lexibrary/stack/ST-001-votes.md")
        .contains("votes: 1"));
    p.lexi(["why", "src/parser/mod.rs"])
        .success()
        .stdout_has("recorded from its footer");
}
