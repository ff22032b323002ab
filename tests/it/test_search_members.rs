//! `lexi search` naming the members a hit matched (`members: route, add_url_rule`) — functions and
//! methods before type variables and constants — and ranking the code that declares a topic's
//! members above the test files whose test functions merely mention it.

use crate::support::project;

/// The top hits' names and reasons for `words`.
fn top(p: &crate::support::TestProject, words: &str) -> Vec<(String, String)> {
    let value = p.lexi(["search", words, "--format", "json"]).json();
    value
        .as_array()
        .or_else(|| value["hits"].as_array())
        .expect("hits")
        .iter()
        .filter(|hit| hit["kind"] == "design")
        .take(3)
        .map(|hit| {
            let name = hit["name"].as_str().unwrap_or_default().to_string();
            (name, hit["reason"].as_str().unwrap_or_default().to_string())
        })
        .collect()
}

#[test]
fn routing_names_the_routing_members_of_the_code_before_its_tests() {
    let p = project().fixture("inherit-python").init().build();
    p.lexictl(["update"]).success();
    let hits = top(&p, "routing");
    insta::assert_debug_snapshot!("search_members_routing", hits);
    let names: Vec<&str> = hits.iter().map(|(name, _)| name.as_str()).collect();
    // The code declaring `route` first; the type variable `T_route` after it; the test file whose
    // test functions are named for routes after the code.
    assert_eq!(names[0], "src/web/scaffold.py", "{hits:?}");
    assert_eq!(hits[0].1, "members: route");
    let at = |file: &str| names.iter().position(|name| *name == file);
    assert!(at("src/web/typing.py").is_none_or(|typing| typing > 0));
    assert!(at("tests/test_app.py").is_none_or(|test| test > 0));
    let test_reason = hits.iter().find(|(name, _)| name == "tests/test_app.py");
    if let Some((_, reason)) = test_reason {
        assert!(reason.starts_with("members: test_route"), "{reason}");
    }
}

/// A hit that names members shows the best one on a line below it, with its parameters and the
/// first sentence of its doc, so that the answer to "where is X done" says what X does.
#[test]
fn a_hit_shows_its_best_member_and_its_doc() {
    let p = project().fixture("flask-like").init().build();
    p.lexictl(["update"]).success();
    let out = p.lexi(["search", "make", "response"]).success();
    out.stdout_has("src/flaskish/app.py — ")
        .stdout_has("(members: make_response")
        .stdout_has("\n  → make_response(rv) — Convert the return value from a view function to an instance of");
    let json = p
        .lexi(["search", "make", "response", "--format", "json"])
        .json();
    let hit = &json["hits"][0];
    assert_eq!(hit["member"]["name"], "make_response", "{json}");
    assert_eq!(hit["members"][0], "make_response", "{json}");
}

/// ripgrep says "heuristically" only in doc comments and comments: no signature, no design file
/// holds the word, and the search still finds the file, saying where it matched.
#[test]
fn words_only_in_comments_and_doc_comments_are_found() {
    let p = project()
        .file("Cargo.toml", "[package]\nname = \"grep\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
        .file(
            "src/lib.rs",
            "//! Searching.\n\npub mod searcher;\n",
        )
        .file(
            "src/searcher.rs",
            "//! Searches haystacks.\n\n/// Configures a searcher.\npub struct Searcher;\n\nimpl Searcher {\n    /// Searches a slice.\n    pub fn search(&self) -> bool {\n        // Binary detection is done _heuristically_: a NUL byte means binary.\n        let url = \"http://example.com/#anchorword\";\n        url.is_empty()\n    }\n}\n",
        )
        .file(
            "src/helpers.py",
            "def quote(text):\n    \"\"\"Quote text.\n\n    Whitespace is collapsed quixotically before quoting.\n    \"\"\"\n    return text  # never returns None\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi(["search", "heuristically"])
        .success()
        .stdout_has("src/searcher.rs — ")
        .stdout_has("(comments)");
    p.lexi(["search", "quixotically"])
        .success()
        .stdout_has("src/helpers.py — ");
    // A string literal is no comment.
    p.lexi(["search", "anchorword"])
        .success()
        .stdout_is("No matches.\n");
}

/// What the Archivist writes from a template when a file has no doc ("HTML file (1 line).",
/// "Python source with no public items (3 lines).", "Defines the `app` value.") and the notes it
/// adds to a capped contract never match a query: only the names they quote do.
#[test]
fn the_archivists_template_words_never_match() {
    let mut long = String::from("\"\"\"Widgets.\"\"\"\n\n");
    for i in 0..200 {
        long.push_str(&format!(
            "def widget_function_number_{i}(value):\n    return value\n\n"
        ));
    }
    let p = project()
        .file("templates/index.html", "<p>hi</p>\n")
        .file("notes.txt", "hello\nworld\n")
        .file("src/app/__main__.py", "from . import run\n\nrun()\n")
        .file("src/app/apps.py", "app = object()\n")
        .file("src/app/widgets.py", long)
        .init()
        .build();
    p.lexictl(["update"]).success();
    for generic in [
        "lines", "line", "defines", "items", "file", "source", "public",
    ] {
        p.lexi(["search", generic])
            .success()
            .stdout_is("No matches.\n");
    }
    // The names a template quotes still find their file.
    p.lexi(["search", "app"])
        .success()
        .stdout_has("src/app/apps.py");
}

/// A query that spells one member's name (`block_on`, whose `on` is a stop word) finds the files
/// declaring that member first, before a file merely named for one of its parts (`blocking.rs`,
/// `block.rs`) — tokio's `lexi search block_on` listed five such files before `runtime.rs`.
#[test]
fn a_member_name_finds_its_declaring_files_before_files_named_for_a_part_of_it() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"rt\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file(
            "src/lib.rs",
            "//! A runtime.\n\npub mod block;\npub mod blocking;\npub mod runtime;\npub mod task;\n",
        )
        .file(
            "src/blocking.rs",
            "//! Blocking work.\n\n/// Runs a closure on a thread where blocking is fine.\npub fn spawn_blocking() {}\n\n/// Blocks in place.\npub fn block_in_place() {}\n",
        )
        .file("src/block.rs", "//! A block of slots.\n\n/// A block.\npub struct Block;\n")
        .file(
            "src/task.rs",
            "//! Tasks.\n\n/// Spawns a blocking task.\npub fn spawn_blocking() {}\n",
        )
        .file(
            "src/runtime.rs",
            "//! The runtime.\n\n/// The runtime.\npub struct Runtime;\n\nimpl Runtime {\n    /// Runs a future to completion on the runtime.\n    pub fn block_on(&self) {}\n\n    /// Spawns a blocking task.\n    pub fn spawn_blocking(&self) {}\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let hits = top(&p, "block_on");
    assert_eq!(hits[0].0, "src/runtime.rs", "{hits:?}");
    assert!(hits[0].1.contains("members: block_on"), "{hits:?}");
    // Two words are a phrase, not a member's name: the file named for a word still comes first.
    let hits = top(&p, "blocking work");
    assert_eq!(hits[0].0, "src/blocking.rs", "{hits:?}");
}

/// A query written as code asks where that name is defined: the files defining a member of that
/// name are shown, those only sharing a word of it (a test file named for it, a test function
/// holding it) counted; `--partial` shows them, and a query of plain words is not cut.
#[test]
fn a_name_written_as_code_finds_its_definitions_and_counts_the_rest() {
    let p = project().fixture("flask-like").init().build();
    p.lexictl(["update"]).success();
    let out = p.lexi(["search", "make_response"]).success().stdout;
    assert!(out.contains("src/flaskish/app.py — "), "{out}");
    assert!(!out.contains("tests/test_app.py"), "{out}");
    assert!(
        out.contains("… and 2 more sharing only a word with the names asked for (`--partial`)"),
        "{out}"
    );
    let json = p
        .lexi(["search", "make_response", "--format", "json"])
        .json();
    assert_eq!(json["partial"], 2, "{json}");
    assert_eq!(json["hits"].as_array().map(Vec::len), Some(1), "{json}");
    let partial = p
        .lexi(["search", "make_response", "--partial"])
        .success()
        .stdout;
    assert!(partial.contains("tests/test_app.py"), "{partial}");
    assert!(!partial.contains("sharing only a word"), "{partial}");
    // Plain words are searched as words: every file holding them.
    let words = p.lexi(["search", "make", "response"]).success().stdout;
    assert!(words.contains("tests/test_app.py"), "{words}");
}

/// A private member holds no public name, yet a query written as its name finds where it is
/// defined — through the calls the last update recorded — and says how to open it.
#[test]
fn a_private_member_asked_by_name_is_found_with_how_to_open_it() {
    let p = project()
        .file(
            "src/shop/cart.py",
            "def total(items):\n    return _sum_prices(items)\n\n\ndef _sum_prices(items):\n    return sum(price(i) for i in items)\n\n\ndef price(item):\n    return item.price\n",
        )
        .file(
            "src/shop/prices.py",
            "def sum_of_prices(values):\n    return sum(values)\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p.lexi(["search", "_sum_prices"]).success().stdout;
    assert!(out.contains("src/shop/cart.py — "), "{out}");
    assert!(
        out.contains(
            "→ _sum_prices, not public: `lexi lookup src/shop/cart.py --member _sum_prices`"
        ),
        "{out}"
    );
    assert!(!out.contains("src/shop/prices.py"), "{out}");
}
