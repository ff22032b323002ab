//! Untrusted text never drives the reader's terminal (issue 30, defect 4): a Stack title, a concept
//! title, `LEXI_AUTHOR`, a note fetched from a remote, a file name and a design file's text carrying
//! ESC (`\x1b[2J` clears the screen), BEL and a lone CR reach `stack list|view|history`, `concepts`,
//! `index`, `search`, `lookup` and `update` escaped in text output — the raw bytes never reach
//! stdout or stderr — while `--format json` carries the exact string.

use crate::support::{project, Output, TestProject};

/// What a hostile string holds: a clear-screen sequence, a bell and a carriage return that would
/// rewrite the line.
const HOSTILE: &str = "Evil\x1b[2J\x07\rFake";

/// How it is shown in text output (where a file keeps the string; an index shows a CR in a file
/// name as a space).
const SHOWN: &str = "Evil\\x1b[2J\\x07";

/// The raw bytes never reach stdout or stderr; their escaped form does (on `stream`).
fn neutralised(out: &Output, what: &str) {
    for (name, stream) in [("stdout", &out.stdout), ("stderr", &out.stderr)] {
        for raw in ['\x1b', '\x07'] {
            assert!(
                !stream.contains(raw),
                "{what}: a raw {raw:?} on {name}:\n{stream}"
            );
        }
        let lone_cr = stream
            .char_indices()
            .any(|(at, c)| c == '\r' && !stream[at + 1..].starts_with('\n'));
        assert!(!lone_cr, "{what}: a lone CR on {name}:\n{stream}");
    }
    assert!(
        out.stdout.contains(SHOWN) || out.stderr.contains(SHOWN),
        "{what}: the escaped form is shown:\n{}",
        out.both()
    );
}

/// Whether a JSON document holds `HOSTILE` exactly somewhere.
fn holds_exactly(value: &serde_json::Value) -> bool {
    holds(value, HOSTILE)
}

/// Whether a JSON document holds `needle` somewhere in a string.
fn holds(value: &serde_json::Value, needle: &str) -> bool {
    match value {
        serde_json::Value::String(text) => text.contains(needle),
        serde_json::Value::Array(items) => items.iter().any(|item| holds(item, needle)),
        serde_json::Value::Object(fields) => fields.values().any(|field| holds(field, needle)),
        _ => false,
    }
}

fn json_is_exact(p: &TestProject, args: &[&str], what: &str) {
    json_holds(p, args, HOSTILE, what);
}

/// `args` with `--format json` holds `needle`, control characters and all.
fn json_holds(p: &TestProject, args: &[&str], needle: &str, what: &str) {
    let mut with_json: Vec<&str> = args.to_vec();
    with_json.extend(["--format", "json"]);
    let json = p.lexi(&with_json).json();
    assert!(
        holds(&json, needle),
        "{what}: JSON keeps the exact string:\n{json:#}"
    );
}

/// A Stack post whose title carries the hostile string, as a pull request would commit it.
fn hostile_post(p: &TestProject) {
    let title = serde_json::to_string(HOSTILE).expect("a JSON string is a YAML string");
    p.write(
        ".lexibrary/stack/ST-001-evil.md",
        format!(
            "---\nid: ST-001\ntitle: {title}\ntags:\n- parser\nstatus: open\ncreated: 2026-01-15\nauthor: agent-a\nvotes: 0\nrefs:\n  files:\n  - src/lib.rs\n---\n\n## Problem\n\nThe lexer {title} slices bytes.\n\n## Evidence\n\npanicked\n"
        ),
    );
}

fn stack_project() -> TestProject {
    let p = project().fixture("rust").init().build();
    hostile_post(&p);
    p.commit_all("a hostile post");
    p
}

#[test]
fn stack_list_view_and_history_escape_titles_authors_and_fetched_notes() {
    let p = stack_project();
    p.lexi(["stack", "view", "ST-001"]).success();
    neutralised(&p.lexi(["stack", "list"]).success(), "stack list");
    json_is_exact(&p, &["stack", "list"], "stack list");
    neutralised(&p.lexi(["stack", "view", "ST-001"]).success(), "stack view");
    json_is_exact(&p, &["stack", "view", "ST-001"], "stack view");

    // LEXI_AUTHOR: the voter's name is stored as given and shown escaped.
    let vote = p
        .lexi(["stack", "vote", "ST-001", "up"])
        .env("LEXI_AUTHOR", HOSTILE)
        .success();
    neutralised(
        &p.lexi(["stack", "history", "ST-001"]).success(),
        "stack history (LEXI_AUTHOR)",
    );
    assert!(!vote.stdout.contains('\x1b'), "{}", vote.stdout);
    json_is_exact(&p, &["stack", "history", "ST-001"], "stack history");

    // A note fetched from a remote: another clone records an event with a hostile author, pushes
    // the notes; this clone syncs them and shows the history.
    let remote = p.clone_bare_to("remote.git");
    p.git([
        "remote",
        "add",
        "origin",
        &remote.root.display().to_string(),
    ])
    .success();
    p.lexictl(["setup", "--notes"]).success();
    p.lexictl(["notes", "sync"]).success();
    let other = remote.clone_to("other");
    other.lexictl(["setup", "--notes"]).success();
    other.lexictl(["notes", "sync"]).success();
    other
        .lexi(["stack", "vote", "ST-001", "up", "--author", "other"])
        .success();
    let anchor = other
        .git(["hash-object", "--stdin"])
        .stdin("lexibrarian:stack:ST-001\n")
        .success()
        .stdout
        .trim()
        .to_string();
    let event = serde_json::json!({
        "ts": "2030-01-01T00:00:00.000Z", "v": 1, "id": "remote-evil", "kind": "comment",
        "post": "ST-001", "author": HOSTILE, "text": HOSTILE
    })
    .to_string();
    other
        .git([
            "notes",
            "--ref",
            "refs/notes/lexibrarian/stack",
            "append",
            "--no-separator",
            "-m",
            &event,
            &anchor,
        ])
        .success();
    other.lexictl(["notes", "sync"]).success();
    p.lexictl(["notes", "sync"]).success();
    let history = p.lexi(["stack", "history", "ST-001"]).success();
    neutralised(&history, "stack history (fetched notes)");
    history.stdout_has("by other");
}

#[test]
fn concepts_and_search_escape_titles() {
    let p = project().fixture("rust").init().build();
    let title = serde_json::to_string(HOSTILE).expect("JSON string");
    p.write(
        ".lexibrary/concepts/Evil.md",
        format!(
            "---\ntitle: {title}\naliases: []\ntags:\n- evil\nstatus: active\n---\n\n## Summary\n\nEvil things {HOSTILE}.\n"
        ),
    );
    hostile_post(&p);
    p.commit_all("hostile knowledge");
    neutralised(&p.lexi(["concepts"]).success(), "concepts");
    json_is_exact(&p, &["concepts"], "concepts");
    neutralised(&p.lexi(["search", "evil"]).success(), "search");
    json_is_exact(&p, &["search", "evil"], "search");
}

#[test]
fn update_index_and_lookup_escape_file_names_and_design_text() {
    let name = format!("src/{HOSTILE}.rs");
    let p = project()
        .fixture("rust")
        .file(&name, "//! A module with a hostile name.\npub fn f() {}\n")
        .init()
        .config("scope_root: src\n")
        .build();
    let json = p.lexictl(["update", "--format", "json"]).json();
    assert!(
        holds_exactly(&json),
        "update: JSON keeps the exact name:\n{json:#}"
    );
    std::fs::remove_file(p.path(&format!(".lexibrary/{name}.md"))).expect("remove");
    neutralised(&p.lexictl(["update"]).success(), "update");
    neutralised(&p.lexi(["index", "src"]).success(), "index");
    // The index keeps the name as its Child Map stores it (a CR in a file name as a space).
    json_holds(&p, &["index", "src"], "Evil\x1b[2J\x07 Fake.rs", "index");
    // A design file's text an agent (or a pull request) wrote.
    p.design_file(
        "src/lib.rs",
        "A calculator.",
        &format!("## Notes\n\n{HOSTILE}"),
    );
    neutralised(&p.lexi(["lookup", "src/lib.rs"]).success(), "lookup");
    // A lone CR in a design file ends a line, as for every Markdown reader.
    json_holds(
        &p,
        &["lookup", "src/lib.rs"],
        "Evil\x1b[2J\x07\nFake",
        "lookup",
    );
    // Errors and warnings that name a hostile path are escaped too.
    let missing = p
        .lexi(["lookup", &format!("src/{HOSTILE}-missing.rs")])
        .run();
    assert_ne!(missing.code, 0);
    assert!(!missing.stderr.contains('\x1b'), "{}", missing.stderr);
}
