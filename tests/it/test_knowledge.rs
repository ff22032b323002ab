//! Concepts (`lexi concepts`, `lexi concept new|link`), I Was Here (`lexi iwh`), unified search
//! (`lexi search`) and context bundles (`lexi context`), on a real project.

use crate::support::{project, TestProject};

const CONCEPT: &str = "---\ntitle: Money Handling\naliases: [currency, pricing]\ntags: [finance, domain]\nstatus: active\n---\n\n# Money Handling\n\n## Summary\n\nAll money is integer cents, never floats.\n\n## Rules\n\n- Use `Cents(i64)`, not `f64`, because rounding loses money.\n\n## Related\n\n- [[Parsing]]\n";
const PARSING: &str = "---\ntitle: Parsing\naliases: [parser]\ntags: [parser]\nstatus: active\n---\n\n# Parsing\n\n## Summary\n\nRecursive descent, never panics.\n";
const OLD: &str = "---\ntitle: Float Money\naliases: [floats]\ntags: [finance]\nstatus: deprecated\nsuperseded_by: MoneyHandling\n---\n\n## Summary\n\nWe used to store floats.\n";

fn knowledge_project() -> TestProject {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.write(".lexibrary/concepts/MoneyHandling.md", CONCEPT);
    p.write(".lexibrary/concepts/Parsing.md", PARSING);
    p.write(".lexibrary/concepts/FloatMoney.md", OLD);
    p
}

#[test]
fn concepts_list_filter_and_find_fuzzily() {
    let p = knowledge_project();
    insta::assert_snapshot!("concepts_list", p.lexi(["concepts"]).success().stdout);
    insta::assert_snapshot!(
        "concepts_all",
        p.lexi(["concepts", "--all"]).success().stdout
    );
    p.lexi(["concepts", "curency"]).success().stdout_is(
        "MoneyHandling — All money is integer cents, never floats.  (alias: currency)\n",
    );
    assert!(p
        .lexi(["concepts", "--tag", "parser"])
        .success()
        .stdout
        .starts_with("Parsing "));
    p.lexi(["concepts", "--status", "deprecated"])
        .success()
        .stdout_has("[deprecated: use MoneyHandling]");
    let json = p.lexi(["concepts", "money", "--format", "json"]).json();
    assert_eq!(json["concepts"][0]["name"], "MoneyHandling");
    assert_eq!(json["concepts"][0]["matched"], "name");
}

#[test]
fn concept_new_writes_the_template_and_refuses_bad_names() {
    let p = knowledge_project();
    let out = p
        .lexi([
            "concept",
            "new",
            "ErrorHandling",
            "--tag",
            "Errors",
            "--alias",
            "failures",
        ])
        .success()
        .stdout;
    assert_eq!(out, "Created .lexibrary/concepts/ErrorHandling.md (status: draft). Fill in Summary and Rules, then set `status: active`.\n");
    insta::assert_snapshot!(
        "concept_template",
        p.read(".lexibrary/concepts/ErrorHandling.md")
    );
    for (name, message) in [
        ("../Escape", "is not a valid concept name"),
        ("a/b", "is not a valid concept name"),
        ("..", "is not a valid concept name"),
        (
            "money handling",
            "a concept called \"MoneyHandling\" already exists: .lexibrary/concepts/MoneyHandling.md",
        ),
        ("Money/Handling", "try `MoneyHandling`"),
        (
            "currency",
            "a concept called \"currency\" already exists: .lexibrary/concepts/MoneyHandling.md",
        ),
    ] {
        let before: Vec<_> = std::fs::read_dir(p.path(".lexibrary/concepts"))
            .expect("list concepts")
            .flatten()
            .map(|e| e.file_name())
            .collect();
        p.lexi(["concept", "new", name]).code(1).stderr_has(message);
        let after: Vec<_> = std::fs::read_dir(p.path(".lexibrary/concepts"))
            .expect("list concepts")
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
    p.lexi(["concept", "link", "src/lib.rs", "pricing"])
        .success()
        .stdout_is("Linked [[MoneyHandling]] from .lexibrary/src/lib.rs.md\n");
    let after = p.read(design);
    let (head, tail) = before.split_at(before.find("<!-- lexibrarian:meta").expect("footer"));
    assert_eq!(
        after,
        format!(
            "{}\n\n## Wikilinks\n\n- [[MoneyHandling]]\n\n{tail}",
            head.trim_end()
        )
    );
    p.lexi(["concept", "link", "src/lib.rs", "Parsing"])
        .success();
    assert!(p
        .read(design)
        .contains("## Wikilinks\n\n- [[MoneyHandling]]\n- [[Parsing]]\n\n<!--"));
    p.lexi(["concept", "link", "src/lib.rs", "MoneyHandling"])
        .success()
        .stdout_has("already links");
    p.lexi(["concept", "link", "src/lib.rs", "Monny"])
        .code(1)
        .stderr_has("no concept named \"Monny\"; did you mean MoneyHandling?");
    // The update engine treats the link as an agent's edit and keeps it.
    p.lexictl(["update"]).success();
    assert!(p.read(design).contains("- [[Parsing]]"));
}

#[test]
fn iwh_write_read_list_and_corrupt_notes() {
    let p = knowledge_project();
    let out = p
        .lexi([
            "iwh",
            "write",
            "src",
            "--scope",
            "incomplete",
            "--body",
            "Lexer half migrated.",
            "--author",
            "agent-a",
        ])
        .success()
        .stdout;
    assert_eq!(out, "Left a incomplete note in src (.lexibrary/src/.iwh)\n");
    p.lexi(["iwh", "write", "src", "--scope", "warning", "--body", "x"])
        .code(1)
        .stderr_has("a note already waits in src (by agent-a, incomplete)");
    assert!(
        p.git(["check-ignore", ".lexibrary/src/.iwh"])
            .success()
            .stdout
            .contains(".iwh"),
        "gitignored"
    );
    let _snapshots = p.snapshots().times().bind();
    insta::assert_snapshot!("iwh_list", p.lexi(["iwh", "list"]).success().stdout);
    let peek = p.lexi(["iwh", "read", "src", "--peek"]).success().stdout;
    assert!(p.exists(".lexibrary/src/.iwh"));
    let read = p.lexi(["iwh", "read", "src"]).run();
    read.stdout_is(&peek);
    insta::assert_snapshot!("iwh_read", read.both());
    assert!(!p.exists(".lexibrary/src/.iwh"), "consumed");
    p.lexi(["iwh", "read", "src"])
        .success()
        .stdout_is("No note waits in src.\n");
    // A corrupt note is shown raw and kept.
    p.write(".lexibrary/.iwh", "just some text, no frontmatter\n");
    p.lexi(["iwh", "read", "."])
        .success()
        .stdout_has("just some text, no frontmatter")
        .stderr_has("does not parse, so it was kept");
    assert!(p.exists(".lexibrary/.iwh"));
    p.lexi([
        "iwh",
        "write",
        "src/lib.rs",
        "--scope",
        "warning",
        "--body",
        "x",
    ])
    .run()
    .stderr_has("is a file; I Was Here notes belong to directories");
}

#[test]
fn iwh_honours_the_enabled_switch() {
    let p = knowledge_project();
    assert!(p
        .read(".lexibrary/config.yaml")
        .contains("iwh:\n  enabled: true\n"));
    p.config("iwh:\n  enabled: false\n");
    p.lexi(["iwh", "write", "src", "--scope", "warning", "--body", "x"])
        .code(1)
        .stderr_has("iwh.enabled: false");
    assert!(!p.exists(".lexibrary/src/.iwh"));
}

#[test]
fn search_spans_all_kinds_with_reasons() {
    let p = knowledge_project();
    p.lexi(["concept", "link", "src/lib.rs", "MoneyHandling"])
        .success();
    p.lexi([
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
    ])
    .success();
    insta::assert_snapshot!(
        "search_tag_parser",
        p.lexi(["search", "--tag", "parser"]).success().stdout
    );
    insta::assert_snapshot!(
        "search_words",
        p.lexi(["search", "overflow"]).success().stdout
    );
    let scoped = p.lexi(["search", "--scope", "src/parser"]).success().stdout;
    assert!(scoped.contains("src/parser/mod.rs"), "{scoped}");
    assert!(scoped.contains("ST-001"), "{scoped}");
    assert!(!scoped.contains("src/lib.rs —"), "{scoped}");
    let json = p
        .lexi(["search", "money", "--type", "concept", "--format", "json"])
        .json();
    // The deprecated FloatMoney matches too, ranked after the live concept.
    assert_eq!(json["hits"].as_array().map(Vec::len), Some(2));
    assert_eq!(json["hits"][0]["name"], "MoneyHandling");
    assert_eq!(json["hits"][0]["reason"], "title");
    // A title match outranks a body match.
    let hits = p.lexi(["search", "parsing", "--format", "json"]).json();
    assert_eq!(hits["hits"][0]["name"], "Parsing");
    p.lexi(["search"]).code(1);
    // The derived corpus cache is rebuilt when edited files change or when it is corrupt.
    p.write(
        ".lexibrary/concepts/Parsing.md",
        PARSING.replace("never panics", "never ever panics"),
    );
    p.lexi(["concepts", "parser"])
        .success()
        .stdout_has("never ever panics");
    p.write(".lexibrary/.cache/corpus-knowledge", "garbage\n\t\t");
    p.lexi(["concepts", "parser"])
        .success()
        .stdout_has("never ever panics");
}

#[test]
fn search_answers_from_its_index_and_sees_every_change() {
    let p = knowledge_project();
    let index = ".lexibrary/.cache/corpus-index";
    let settle = || {
        p.age(".lexibrary");
        p.age(".git/lexibrarian");
    };
    // Files younger than two seconds cannot vouch for themselves: no index yet.
    let first = p.lexi(["search", "overflow", "--format", "json"]).json();
    assert!(!p.exists(index));
    settle();
    assert_eq!(
        p.lexi(["search", "overflow", "--format", "json"]).json(),
        first
    );
    assert!(p.exists(index), "written once the files settled");
    // Answered from the index: the same hits, and a tag query too.
    assert_eq!(
        p.lexi(["search", "overflow", "--format", "json"]).json(),
        first
    );
    p.lexi(["search", "--tag", "parser"])
        .success()
        .stdout_has("Parsing");
    // An edited design file is seen at once, then indexed when it settles.
    let design = ".lexibrary/src/lib.rs.md";
    p.design_file(
        "src/lib.rs",
        "Zebrafinch arithmetic.",
        "## Interface Contract\n\nfn eval\n",
    );
    p.lexi(["search", "zebrafinch"])
        .success()
        .stdout_has("src/lib.rs");
    settle();
    p.lexi(["search", "zebrafinch"])
        .success()
        .stdout_has("src/lib.rs");
    p.lexi(["search", "zebrafinch"])
        .success()
        .stdout_has("src/lib.rs");
    // A removed file is gone from the answers; a damaged index is rebuilt.
    std::fs::remove_file(p.path(design)).expect("remove");
    p.lexi(["search", "zebrafinch"])
        .success()
        .stdout_is("No matches.\n");
    p.write(index, "lexibrarian-index 1\ngarbage");
    p.lexi(["search", "lexer"])
        .success()
        .stdout_has("src/parser/lexer.rs");
}

#[test]
fn context_bundles_a_file_within_the_budget() {
    let p = knowledge_project();
    p.lexi(["concept", "link", "src/lib.rs", "MoneyHandling"])
        .success();
    p.lexi([
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
    ])
    .success();
    p.lexi(["stack", "answer", "ST-001", "--body", "Use Cents."])
        .success();
    p.lexi(["stack", "accept", "ST-001", "--answer", "1"])
        .success();
    p.lexi([
        "iwh",
        "write",
        "src",
        "--scope",
        "warning",
        "--body",
        "Mid-refactor.",
        "--author",
        "agent-a",
    ])
    .success();
    let _snapshots = p.snapshots().times().bind();
    insta::assert_snapshot!(
        "context_file",
        p.lexi(["context", "src/lib.rs"]).success().stdout
    );
    let small = p
        .lexi(["context", "src/lib.rs", "--budget", "120"])
        .success()
        .stdout;
    assert!(small.contains("## Left out (over the budget)"), "{small}");
    assert!(small.contains("I Was Here note waiting in src"), "{small}");
    let json = p
        .lexi([
            "context",
            "src/lib.rs",
            "--budget",
            "120",
            "--format",
            "json",
        ])
        .json();
    assert!(
        json["tokens"].as_u64().is_some_and(|tokens| tokens <= 120),
        "{json}"
    );
    assert!(
        json["omitted"]
            .as_array()
            .is_some_and(|omitted| !omitted.is_empty()),
        "{json}"
    );
    assert!(
        p.exists(".lexibrary/src/.iwh"),
        "context does not consume the note"
    );
    let concept = p.lexi(["context", "currency"]).success().stdout;
    assert!(concept.starts_with("# Context: MoneyHandling"), "{concept}");
    assert!(concept.contains("src/lib.rs — "), "{concept}");
    let post = p.lexi(["context", "st-1"]).success().stdout;
    assert!(post.contains("A1 (accepted)"), "{post}");
    p.lexi(["context", "Nothing"])
        .code(1)
        .stderr_has("is not a source file with a design file, a concept or a Stack post id");
}

#[test]
fn an_iwh_note_is_kept_when_it_cannot_be_printed() {
    let p = knowledge_project();
    p.lexi([
        "iwh",
        "write",
        "src",
        "--scope",
        "blocked",
        "--body",
        "Do not lose me.",
    ])
    .success();
    p.cmd("sh", ["-c", "lexi iwh read src > /dev/full"]).code(1);
    assert!(
        p.read(".lexibrary/src/.iwh").contains("Do not lose me."),
        "the note is back"
    );
}

/// The seed's example: a title in words names the file in PascalCase and titles the concept.
#[test]
fn concept_new_takes_a_title_in_words() {
    let p = project().init().build();
    let json = p
        .lexi(["concept", "new", "Money Handling", "--format", "json"])
        .json();
    assert_eq!(json["name"], "MoneyHandling");
    assert_eq!(json["path"], ".lexibrary/concepts/MoneyHandling.md");
    let text = p.read(".lexibrary/concepts/MoneyHandling.md");
    assert!(text.contains("title: Money Handling\n"), "{text}");
    assert!(text.contains("\n# Money Handling\n"), "{text}");
    p.lexi(["concept", "new", "../Money Handling"])
        .code(1)
        .stderr_has("is not a valid concept name");
}
