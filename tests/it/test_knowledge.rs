//! Concepts (`lexi concepts`, `lexi concept new|link`), I Was Here (`lexi iwh`), unified search
//! (`lexi search`) and context bundles (`lexi context`), on a real project.

use crate::support::{project, redact_times, run, TestProject};

const CONCEPT: &str = "---\ntitle: Money Handling\naliases: [currency, pricing]\ntags: [finance, domain]\nstatus: active\n---\n\n# Money Handling\n\n## Summary\n\nAll money is integer cents, never floats.\n\n## Rules\n\n- Use `Cents(i64)`, not `f64`, because rounding loses money.\n\n## Related\n\n- [[Parsing]]\n";
const PARSING: &str = "---\ntitle: Parsing\naliases: [parser]\ntags: [parser]\nstatus: active\n---\n\n# Parsing\n\n## Summary\n\nRecursive descent, never panics.\n";
const OLD: &str = "---\ntitle: Float Money\naliases: [floats]\ntags: [finance]\nstatus: deprecated\nsuperseded_by: MoneyHandling\n---\n\n## Summary\n\nWe used to store floats.\n";

fn knowledge_project() -> TestProject {
    let p = project().fixture("rust").build();
    p.init();
    let out = run(&p, p.lexictl(&["update"]));
    assert_eq!(out.code, 0, "{}", out.both());
    p.write(".lexibrary/concepts/MoneyHandling.md", CONCEPT);
    p.write(".lexibrary/concepts/Parsing.md", PARSING);
    p.write(".lexibrary/concepts/FloatMoney.md", OLD);
    p
}

fn ok(p: &TestProject, args: &[&str]) -> String {
    let out = run(p, p.lexi(args));
    assert_eq!(out.code, 0, "{args:?}: {}", out.both());
    out.stdout
}

#[test]
fn concepts_list_filter_and_find_fuzzily() {
    let p = knowledge_project();
    insta::assert_snapshot!("concepts_list", ok(&p, &["concepts"]));
    insta::assert_snapshot!("concepts_all", ok(&p, &["concepts", "--all"]));
    assert_eq!(
        ok(&p, &["concepts", "curency"]),
        "MoneyHandling — All money is integer cents, never floats.  (alias: currency)\n"
    );
    assert!(ok(&p, &["concepts", "--tag", "parser"]).starts_with("Parsing "));
    assert!(
        ok(&p, &["concepts", "--status", "deprecated"]).contains("[deprecated: use MoneyHandling]")
    );
    let json: serde_json::Value =
        serde_json::from_str(&ok(&p, &["concepts", "money", "--format", "json"])).unwrap();
    assert_eq!(json["concepts"][0]["name"], "MoneyHandling");
    assert_eq!(json["concepts"][0]["matched"], "name");
}

#[test]
fn concept_new_writes_the_template_and_refuses_bad_names() {
    let p = knowledge_project();
    let out = ok(
        &p,
        &[
            "concept",
            "new",
            "ErrorHandling",
            "--tag",
            "Errors",
            "--alias",
            "failures",
        ],
    );
    assert_eq!(out, "Created .lexibrary/concepts/ErrorHandling.md (status: draft). Fill in Summary and Rules, then set `status: active`.\n");
    insta::assert_snapshot!(
        "concept_template",
        p.read(".lexibrary/concepts/ErrorHandling.md")
    );
    for (name, message) in [
        ("../Escape", "is not a valid concept name"),
        ("a/b", "is not a valid concept name"),
        ("..", "is not a valid concept name"),
        ("money handling", "try `MoneyHandling`"),
        (
            "currency",
            "a concept called \"currency\" already exists: .lexibrary/concepts/MoneyHandling.md",
        ),
    ] {
        let before: Vec<_> = std::fs::read_dir(p.path(".lexibrary/concepts"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        let out = run(&p, p.lexi(&["concept", "new", name]));
        assert_eq!(out.code, 1, "{name}: {}", out.both());
        assert!(out.stderr.contains(message), "{name}: {}", out.stderr);
        let after: Vec<_> = std::fs::read_dir(p.path(".lexibrary/concepts"))
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(before.len(), after.len(), "{name}: nothing written");
    }
    assert!(!p.exists(".lexibrary/Escape.md"));
}

#[test]
fn concept_link_adds_only_the_wikilink() {
    let p = knowledge_project();
    let design = ".lexibrary/src/lib.rs.md";
    let before = p.read(design);
    assert_eq!(
        ok(&p, &["concept", "link", "src/lib.rs", "pricing"]),
        "Linked [[MoneyHandling]] from .lexibrary/src/lib.rs.md\n"
    );
    let after = p.read(design);
    let (head, tail) = before.split_at(before.find("<!-- lexibrarian:meta").unwrap());
    assert_eq!(
        after,
        format!(
            "{}\n\n## Wikilinks\n\n- [[MoneyHandling]]\n\n{tail}",
            head.trim_end()
        )
    );
    ok(&p, &["concept", "link", "src/lib.rs", "Parsing"]);
    assert!(p
        .read(design)
        .contains("## Wikilinks\n\n- [[MoneyHandling]]\n- [[Parsing]]\n\n<!--"));
    assert!(ok(&p, &["concept", "link", "src/lib.rs", "MoneyHandling"]).contains("already links"));
    let out = run(&p, p.lexi(&["concept", "link", "src/lib.rs", "Monny"]));
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("no concept named \"Monny\"; did you mean MoneyHandling?"),
        "{}",
        out.stderr
    );
    // The update engine treats the link as an agent's edit and keeps it.
    let update = run(&p, p.lexictl(&["update"]));
    assert_eq!(update.code, 0, "{}", update.both());
    assert!(p.read(design).contains("- [[Parsing]]"));
}

#[test]
fn iwh_write_read_list_and_corrupt_notes() {
    let p = knowledge_project();
    let out = ok(
        &p,
        &[
            "iwh",
            "write",
            "src",
            "--scope",
            "incomplete",
            "--body",
            "Lexer half migrated.",
            "--author",
            "agent-a",
        ],
    );
    assert_eq!(out, "Left a incomplete note in src (.lexibrary/src/.iwh)\n");
    let again = run(
        &p,
        p.lexi(&["iwh", "write", "src", "--scope", "warning", "--body", "x"]),
    );
    assert_eq!(again.code, 1);
    assert!(
        again
            .stderr
            .contains("a note already waits in src (by agent-a, incomplete)"),
        "{}",
        again.stderr
    );
    assert!(
        p.git(&["check-ignore", ".lexibrary/src/.iwh"])
            .contains(".iwh"),
        "gitignored"
    );
    insta::assert_snapshot!("iwh_list", redact_times(&ok(&p, &["iwh", "list"])));
    let peek = ok(&p, &["iwh", "read", "src", "--peek"]);
    assert!(p.exists(".lexibrary/src/.iwh"));
    let read = run(&p, p.lexi(&["iwh", "read", "src"]));
    assert_eq!(read.stdout, peek);
    insta::assert_snapshot!("iwh_read", redact_times(&read.both()));
    assert!(!p.exists(".lexibrary/src/.iwh"), "consumed");
    assert_eq!(ok(&p, &["iwh", "read", "src"]), "No note waits in src.\n");
    // A corrupt note is shown raw and kept.
    p.write(".lexibrary/.iwh", "just some text, no frontmatter\n");
    let out = run(&p, p.lexi(&["iwh", "read", "."]));
    assert_eq!(out.code, 0, "{}", out.both());
    assert!(
        out.stdout.contains("just some text, no frontmatter"),
        "{}",
        out.stdout
    );
    assert!(
        out.stderr.contains("does not parse, so it was kept"),
        "{}",
        out.stderr
    );
    assert!(p.exists(".lexibrary/.iwh"));
    let out = run(
        &p,
        p.lexi(&[
            "iwh",
            "write",
            "src/lib.rs",
            "--scope",
            "warning",
            "--body",
            "x",
        ]),
    );
    assert!(
        out.stderr
            .contains("is a file; I Was Here notes belong to directories"),
        "{}",
        out.stderr
    );
}

#[test]
fn iwh_honours_the_enabled_switch() {
    let p = knowledge_project();
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("iwh:\n  enabled: true\n"));
    p.write(
        ".lexibrary/config.yaml",
        config.replace("iwh:\n  enabled: true\n", "iwh:\n  enabled: false\n"),
    );
    let out = run(
        &p,
        p.lexi(&["iwh", "write", "src", "--scope", "warning", "--body", "x"]),
    );
    assert_eq!(out.code, 1, "{}", out.both());
    assert!(out.stderr.contains("iwh.enabled: false"), "{}", out.stderr);
    assert!(!p.exists(".lexibrary/src/.iwh"));
}

#[test]
fn search_spans_all_kinds_with_reasons() {
    let p = knowledge_project();
    ok(&p, &["concept", "link", "src/lib.rs", "MoneyHandling"]);
    ok(
        &p,
        &[
            "stack",
            "post",
            "--title",
            "Parser overflows on big numbers",
            "--tag",
            "parser",
            "--file",
            "src/parser/mod.rs",
            "--concept",
            "Parsing",
            "--problem",
            "Overflow in i64 parsing.",
            "--evidence",
            "attempt to add with overflow",
        ],
    );
    insta::assert_snapshot!("search_tag_parser", ok(&p, &["search", "--tag", "parser"]));
    insta::assert_snapshot!("search_words", ok(&p, &["search", "overflow"]));
    let scoped = ok(&p, &["search", "--scope", "src/parser"]);
    assert!(scoped.contains("src/parser/mod.rs"), "{scoped}");
    assert!(scoped.contains("ST-001"), "{scoped}");
    assert!(!scoped.contains("src/lib.rs —"), "{scoped}");
    let json: serde_json::Value = serde_json::from_str(&ok(
        &p,
        &["search", "money", "--type", "concept", "--format", "json"],
    ))
    .unwrap();
    // The deprecated FloatMoney matches too, ranked after the live concept.
    assert_eq!(json["hits"].as_array().unwrap().len(), 2);
    assert_eq!(json["hits"][0]["name"], "MoneyHandling");
    assert_eq!(json["hits"][0]["reason"], "title");
    // A title match outranks a body match.
    let hits = ok(&p, &["search", "parsing", "--format", "json"]);
    let hits: serde_json::Value = serde_json::from_str(&hits).unwrap();
    assert_eq!(hits["hits"][0]["name"], "Parsing");
    let out = run(&p, p.lexi(&["search"]));
    assert_eq!(out.code, 1);
    // The derived corpus cache is rebuilt when edited files change or when it is corrupt.
    p.write(
        ".lexibrary/concepts/Parsing.md",
        PARSING.replace("never panics", "never ever panics"),
    );
    assert!(ok(&p, &["concepts", "parser"]).contains("never ever panics"));
    p.write(".lexibrary/.cache/corpus-knowledge", "garbage\n\t\t");
    assert!(ok(&p, &["concepts", "parser"]).contains("never ever panics"));
}

#[test]
fn context_bundles_a_file_within_the_budget() {
    let p = knowledge_project();
    ok(&p, &["concept", "link", "src/lib.rs", "MoneyHandling"]);
    ok(
        &p,
        &[
            "stack",
            "post",
            "--title",
            "Eval loses cents",
            "--tag",
            "finance",
            "--file",
            "src/lib.rs",
            "--problem",
            "Floats in eval.",
            "--evidence",
            "0.1 + 0.2 != 0.3",
        ],
    );
    ok(&p, &["stack", "answer", "ST-001", "--body", "Use Cents."]);
    ok(&p, &["stack", "accept", "ST-001", "--answer", "1"]);
    ok(
        &p,
        &[
            "iwh",
            "write",
            "src",
            "--scope",
            "warning",
            "--body",
            "Mid-refactor.",
            "--author",
            "agent-a",
        ],
    );
    insta::assert_snapshot!(
        "context_file",
        redact_times(&ok(&p, &["context", "src/lib.rs"]))
    );
    let small = ok(&p, &["context", "src/lib.rs", "--budget", "120"]);
    assert!(small.contains("## Left out (over the budget)"), "{small}");
    assert!(small.contains("I Was Here note waiting in src"), "{small}");
    let json: serde_json::Value = serde_json::from_str(&ok(
        &p,
        &[
            "context",
            "src/lib.rs",
            "--budget",
            "120",
            "--format",
            "json",
        ],
    ))
    .unwrap();
    assert!(json["tokens"].as_u64().unwrap() <= 120);
    assert!(!json["omitted"].as_array().unwrap().is_empty());
    assert!(
        p.exists(".lexibrary/src/.iwh"),
        "context does not consume the note"
    );
    let concept = ok(&p, &["context", "currency"]);
    assert!(concept.starts_with("# Context: MoneyHandling"), "{concept}");
    assert!(concept.contains("src/lib.rs — "), "{concept}");
    let post = ok(&p, &["context", "st-1"]);
    assert!(post.contains("A1 (accepted)"), "{post}");
    let out = run(&p, p.lexi(&["context", "Nothing"]));
    assert_eq!(out.code, 1);
    assert!(
        out.stderr
            .contains("is not a source file with a design file, a concept or a Stack post id"),
        "{}",
        out.stderr
    );
}

#[test]
fn an_iwh_note_is_kept_when_it_cannot_be_printed() {
    let p = knowledge_project();
    ok(
        &p,
        &[
            "iwh",
            "write",
            "src",
            "--scope",
            "blocked",
            "--body",
            "Do not lose me.",
        ],
    );
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!(
            "{} iwh read src > /dev/full",
            crate::support::bin_dir().join("lexi").display()
        ))
        .current_dir(&p.root)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        p.read(".lexibrary/src/.iwh").contains("Do not lose me."),
        "the note is back"
    );
}
