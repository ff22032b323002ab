//! `lexi lookup <file> --member <name>`: one member whole — its signature, its whole doc, what it
//! calls and what calls it, and the tests whose functions call it — on the flask-like fixture
//! (flask's `make_response` with its long reST doc), the `calls` fixture (express's `res.json`) and
//! a Rust file with three `send`s; and an unknown name answered with the closest members.

use crate::support::{project, TestProject};

/// The flask-like fixture with a view calling `make_response` through another object and a test
/// module whose functions call it, after an update.
fn flaskish() -> TestProject {
    let p = project()
        .fixture("flask-like")
        .file(
            "src/flaskish/views.py",
            "\"\"\"Views.\"\"\"\n\nfrom .app import App\n\n\ndef index(app: App):\n    \"\"\"The front page.\"\"\"\n    return app.make_response(\"hi\")\n",
        )
        .file(
            "tests/test_responses.py",
            "from flaskish.app import App\n\n\ndef test_make_response_of_bytes():\n    assert App(\"t\").make_response(b\"x\").body == b\"x\"\n\n\ndef test_status_of_a_string():\n    assert App(\"t\").make_response(\"x\").status == 200\n\n\ndef test_a_name():\n    assert App(\"t\").import_name == \"t\"\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn a_python_method_whole_with_its_callers_and_tests() {
    let p = flaskish();
    let out = p
        .lexi(["lookup", "src/flaskish/app.py", "--member", "make_response"])
        .success();
    insta::assert_snapshot!("member_make_response", out.stdout);
    // No design file around it; every paragraph of the doc with `--full`.
    out.stdout_lacks("## Interface Contract");
    p.lexi([
        "lookup",
        "src/flaskish/app.py",
        "--member",
        "make_response",
        "--full",
    ])
    .success()
    .stdout_has(":raises TypeError: when the value is none of these.")
    .stdout_has(".. versionchanged:: 2.2");
    // The qualified label names the same member.
    let qualified = p
        .lexi([
            "lookup",
            "src/flaskish/app.py",
            "--member",
            "App.make_response",
        ])
        .success();
    assert_eq!(qualified.stdout, out.stdout);
}

#[test]
fn json_gives_each_match_and_the_tests_with_their_functions() {
    let p = flaskish();
    let value = p
        .lexi([
            "lookup",
            "src/flaskish/app.py",
            "--member",
            "make_response",
            "--format",
            "json",
        ])
        .json();
    insta::assert_json_snapshot!("member_make_response_json", value);
    // The test files whose functions call it come first, then the one named for it.
    let files: Vec<&str> = value["tests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|hit| hit["file"].as_str().unwrap())
        .collect();
    assert_eq!(
        files[..3],
        [
            "tests/test_app.py",
            "tests/test_responses.py",
            "tests/test_make_response.py"
        ]
    );
}

#[test]
fn a_commonjs_member_by_its_last_segment() {
    let p = project().fixture("calls").init().build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["lookup", "lib/response.js", "--member", "json"])
        .success();
    insta::assert_snapshot!("member_res_json", out.stdout);
    out.stdout_has("# lib/response.js: res.json (function, lines 26-31)")
        .stdout_has("- Called by: res.send")
        .stdout_lacks("res.jsonp");
}

#[test]
fn several_members_of_one_name_are_each_shown_compactly() {
    let p = project()
        .file("Cargo.toml", "[package]\nname = \"chan\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
        .file(
            "src/lib.rs",
            "//! A channel.\n\n/// The sending half.\npub struct Sender;\n\n/// Capacity reserved.\npub struct Permit;\n\nimpl Sender {\n    /// Sends a value, waiting until there is capacity.\n    ///\n    /// # Errors\n    ///\n    /// If the receiver is gone.\n    pub fn send(&self, value: u8) -> Result<(), u8> {\n        self.reserve().send(value);\n        Ok(())\n    }\n\n    /// Reserves capacity.\n    pub fn reserve(&self) -> Permit {\n        Permit\n    }\n}\n\nimpl Permit {\n    /// Sends a value using the reserved capacity.\n    pub fn send(self, value: u8) {\n        let _ = value;\n    }\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["lookup", "src/lib.rs", "--member", "send"])
        .success();
    insta::assert_snapshot!("member_two_sends", out.stdout);
    let one = p
        .lexi(["lookup", "src/lib.rs", "--member", "Sender::send", "--full"])
        .success();
    // One member whole: `Permit.send` only as what it calls (`reserve()` returns a `Permit`).
    one.stdout_has("# Errors\n\nIf the receiver is gone.")
        .stdout_has("- Calls: Permit.send, reserve\n")
        .stdout_lacks("# src/lib.rs: Permit.send");
}

#[test]
fn an_unknown_member_is_an_error_naming_the_closest() {
    let p = flaskish();
    let out = p
        .lexi(["lookup", "src/flaskish/app.py", "--member", "make_respons"])
        .code(1);
    out.stderr_has("src/flaskish/app.py has no member `make_respons`")
        .stderr_has("did you mean: App.make_response")
        .stderr_has("hint: `lexi lookup src/flaskish/app.py` shows its Interface Contract");
}

#[test]
fn a_changed_source_is_warned_about_and_read_as_it_is_now() {
    let p = flaskish();
    let app = p.read("src/flaskish/app.py");
    p.write(
        "src/flaskish/app.py",
        app.replace(":raises TypeError:", ":raises ValueError:"),
    );
    p.lexi([
        "lookup",
        "src/flaskish/app.py",
        "--member",
        "make_response",
        "--full",
    ])
    .success()
    .stdout_has("> ⚠️ This doc may be outdated. Source file changed since last update.")
    .stdout_has(":raises ValueError: when the value is none of these.");
}
