//! The member view of `lexi lookup --member` as the agent tryouts of issue 31 needed it: a test
//! file's test cases open as members (a JavaScript `it('…')` by its title or its slug, a Python
//! test class's method, a Rust `#[test] fn`), and an unknown name lists the closest ones; the view
//! answers first (signature, calls, flow, callers, tests) and gives the doc last, its first
//! paragraph only unless `--full`, which also lifts every cap.

use crate::support::{project, TestProject};

/// A project whose test files hold mocha cases nested in suites, a pytest class and a Rust
/// `#[test]`, after an update.
fn with_tests() -> TestProject {
    let p = project()
        .file("package.json", "{\"name\": \"web\", \"version\": \"1.0.0\"}\n")
        .file(
            "lib/redirect.js",
            "'use strict';\n\n/**\n * Redirect to `url`.\n */\nexports.redirect = function redirect(res, url) {\n  res.location(url);\n  res.end('Redirecting to ' + url);\n};\n",
        )
        .file(
            "test/redirect.js",
            "var redirect = require('../lib/redirect');\n\ndescribe('res', function(){\n  describe('.redirect(url)', function(){\n    it('should respond with html', function(done){\n      var res = fake();\n      redirect.redirect(res, 'http://google.com');\n      assert.strictEqual(res.body, 'Redirecting to http://google.com');\n      done();\n    })\n\n    it('should set the location', () => {\n      var res = fake();\n      redirect.redirect(res, '/login');\n      assert.strictEqual(res.location, '/login');\n    })\n  })\n\n  describe('when accepting text', function(){\n    it('should respond with html', function(){\n      redirect.redirect(fake(), '/');\n    })\n  })\n})\n\nfunction fake() { return {}; }\n",
        )
        .file(
            "tests/test_views.py",
            "from views import index\n\n\nclass TestIndex:\n    def test_front_page(self):\n        assert index() == 'hi'\n",
        )
        .file("views.py", "def index():\n    return 'hi'\n")
        .file("Cargo.toml", "[package]\nname = \"chan\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
        .file(
            "src/lib.rs",
            "//! A channel.\n\n/// Doubles.\npub fn double(x: u8) -> u8 {\n    x * 2\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn doubles_two() {\n        assert_eq!(double(2), 4);\n    }\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn a_javascript_test_case_opens_by_its_title_or_its_slug() {
    let p = with_tests();
    let out = p
        .lexi([
            "lookup",
            "test/redirect.js",
            "--member",
            "should set the location",
        ])
        .success();
    insta::assert_snapshot!("member_view_js_case", out.stdout);
    out.stdout_has(
        "# test/redirect.js: res.redirect_url.should_set_the_location (function, lines 12-16)",
    )
    .stdout_has("    it('should set the location', () =>)")
    .stdout_lacks("differs in case");
    let slug = p
        .lexi([
            "lookup",
            "test/redirect.js",
            "--member",
            "should_set_the_location",
        ])
        .success();
    assert_eq!(slug.stdout, out.stdout);
    // A title two suites share: each case, compactly, under its suites.
    let two = p
        .lexi([
            "lookup",
            "test/redirect.js",
            "--member",
            "should respond with html",
        ])
        .success();
    two.stdout_has("2 members of test/redirect.js are named `should respond with html`")
        .stdout_has("res.redirect_url.should_respond_with_html")
        .stdout_has("res.when_accepting_text.should_respond_with_html");
}

#[test]
fn python_and_rust_test_functions_open_as_members() {
    let p = with_tests();
    p.lexi([
        "lookup",
        "tests/test_views.py",
        "--member",
        "test_front_page",
    ])
    .success()
    .stdout_has("# tests/test_views.py: TestIndex.test_front_page (method, lines 5-6)");
    p.lexi(["lookup", "src/lib.rs", "--member", "doubles_two"])
        .success()
        .stdout_has("# src/lib.rs: doubles_two (function, lines 13-15)")
        .stdout_has("fn doubles_two()");
}

#[test]
fn an_unknown_test_title_lists_the_closest_cases() {
    let p = with_tests();
    p.lexi([
        "lookup",
        "test/redirect.js",
        "--member",
        "should set location",
    ])
    .code(1)
    .stderr_has("test/redirect.js has no member `should set location`")
    .stderr_has("did you mean: res.redirect_url.should_set_the_location");
    // A part of a member's name is close to it.
    p.lexi(["lookup", "tests/test_views.py", "--member", "front_pag"])
        .code(1)
        .stderr_has("did you mean: TestIndex.test_front_page");
}

#[test]
fn the_view_answers_first_and_gives_the_doc_last_its_first_paragraph_unless_full() {
    let p = project().fixture("flask-like").init().build();
    p.lexictl(["update"]).success();
    let args = ["lookup", "src/flaskish/app.py", "--member", "make_response"];
    let out = p.lexi(args).success();
    insta::assert_snapshot!("member_view_doc_last", out.stdout);
    let text = &out.stdout;
    let at = |needle: &str| text.find(needle).unwrap_or_else(|| panic!("no {needle}"));
    // Signature, then the lines, then the tests, then the doc.
    assert!(at("```python") < at("- Flow:"));
    assert!(at("- Flow:") < at("## Tests"));
    assert!(at("## Tests") < at("## Doc"));
    out.stdout_lacks(".. versionchanged:: 2.2")
        .stdout_has("(… the rest of the doc: `lexi lookup src/flaskish/app.py --member App.make_response --full`)");
    let full = p
        .lexi([
            "lookup",
            "src/flaskish/app.py",
            "--member",
            "make_response",
            "--full",
        ])
        .success();
    full.stdout_has(".. versionchanged:: 2.2")
        .stdout_has(":raises TypeError: when the value is none of these.")
        .stdout_lacks("the rest of the doc");
    assert!(full.stdout.len() > out.stdout.len());
}

#[test]
fn impact_of_a_member_with_full_lists_every_caller_and_test() {
    let p = project()
        .file("pyproject.toml", "[project]\nname = \"pkg\"\n")
        .file("src/pkg/__init__.py", "")
        .file(
            "src/pkg/core.py",
            "def make(x):\n    \"\"\"Make it.\"\"\"\n    return x\n",
        )
        .file("src/pkg/users.py", USERS)
        .file("tests/test_core.py", TESTS)
        .init()
        .build();
    p.lexictl(["update"]).success();
    let args = ["impact", "src/pkg/core.py", "--member", "make"];
    let cut = p.lexi(args).success();
    cut.stdout_has("user_5, +2 (calls make)")
        .stdout_lacks("user_7");
    let full = p
        .lexi(["impact", "src/pkg/core.py", "--member", "make", "--full"])
        .success();
    insta::assert_snapshot!("member_view_impact_full", full.stdout);
    full.stdout_has("user_7 (calls make)")
        .stdout_has("test_make_5")
        .stdout_lacks(", +");
    assert_ne!(cut.stdout, full.stdout);
}

const USERS: &str = "from pkg.core import make\n\n\ndef user_0():\n    return make(0)\n\n\ndef user_1():\n    return make(1)\n\n\ndef user_2():\n    return make(2)\n\n\ndef user_3():\n    return make(3)\n\n\ndef user_4():\n    return make(4)\n\n\ndef user_5():\n    return make(5)\n\n\ndef user_6():\n    return make(6)\n\n\ndef user_7():\n    return make(7)\n\n";
const TESTS: &str = "from pkg.core import make\n\n\ndef test_make_0():\n    assert make(0)\n\n\ndef test_make_1():\n    assert make(1)\n\n\ndef test_make_2():\n    assert make(2)\n\n\ndef test_make_3():\n    assert make(3)\n\n\ndef test_make_4():\n    assert make(4)\n\n\ndef test_make_5():\n    assert make(5)\n\n";

/// A channel whose `Sender` and `Permit` both define `send`, and a module using them.
fn channel_crate() -> TestProject {
    let p = project()
        .file("Cargo.toml", "[package]\nname = \"chan\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
        .file("src/lib.rs", "//! A channel.\n\npub mod chan;\npub mod user;\n")
        .file(
            "src/chan.rs",
            "//! Channels.\n\n/// Makes a channel.\npub fn channel() -> Sender {\n    Sender\n}\n\n/// The sending half.\npub struct Sender;\n\n/// Capacity reserved.\npub struct Permit;\n\nimpl Sender {\n    /// Makes a sender.\n    pub fn new() -> Sender {\n        Sender\n    }\n\n    /// Sends, waiting.\n    pub fn send(&self, value: u8) {\n        self.reserve().send(value);\n    }\n\n    /// Sends, blocking.\n    pub fn blocking_send(&self, value: u8) {\n        self.send(value)\n    }\n\n    /// Reserves capacity.\n    pub fn reserve(&self) -> Permit {\n        Permit\n    }\n}\n\nimpl Permit {\n    /// Sends using the reserved capacity.\n    pub fn send(self, value: u8) {\n        let _ = value;\n    }\n}\n",
        )
        .file(
            "src/user.rs",
            "//! Uses the channel.\n\nuse crate::chan::{channel, Permit, Sender};\n\n/// Through a permit.\npub fn with_permit(permit: Permit) {\n    permit.send(1);\n}\n\n/// Through a sender it makes.\npub fn with_new_sender() {\n    Sender::new().send(2);\n}\n\n/// Through what `channel()` gives: the type is not told.\npub fn with_channel() {\n    let tx = channel();\n    tx.send(3);\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn same_named_methods_keep_their_own_callers() {
    let p = channel_crate();
    let permit = p
        .lexi(["lookup", "src/chan.rs", "--member", "Permit::send"])
        .success();
    insta::assert_snapshot!("member_view_permit_send", permit.stdout);
    permit
        .stdout_lacks("Called by: Sender.blocking_send")
        .stdout_has("- Called from: src/user.rs (with_permit)")
        .stdout_lacks("with_new_sender");
    let sender = p
        .lexi(["lookup", "src/chan.rs", "--member", "Sender::send"])
        .success();
    sender
        .stdout_has("- Called by: Sender.blocking_send")
        .stdout_has("- Called from: src/user.rs (with_new_sender)")
        .stdout_lacks("with_permit");
    // `tx` of `channel()` may be either: a name match, never a caller.
    for out in [&permit, &sender] {
        out.stdout_has("Unresolved `.send(…)` calls")
            .stdout_has("src/user.rs (with_channel)");
    }
}

#[test]
fn a_rust_flow_says_what_each_branch_ends_in() {
    let p = project()
        .file("Cargo.toml", "[package]\nname = \"bin\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
        .file(
            "src/lib.rs",
            "//! Binary detection.\n\n/// How binary data is handled.\npub enum Detection {\n    /// Stop at this byte.\n    Quit(u8),\n    /// Replace this byte.\n    Convert(u8),\n    /// Do nothing.\n    None,\n}\n\n/// Whether the search stops at `buf`.\npub fn detect(detection: &Detection, buf: &[u8]) -> Result<bool, String> {\n    let byte = match detection {\n        Detection::Quit(b) => *b,\n        Detection::Convert(b) => *b,\n        Detection::None => return Ok(false),\n    };\n    if buf.is_empty() {\n        return Err(\"empty buffer\".to_string());\n    }\n    if buf.contains(&byte) {\n        matches!(detection, Detection::Quit(_)).then_some(()).ok_or(String::new())?;\n        Ok(true)\n    } else {\n        Ok(false)\n    }\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["lookup", "src/lib.rs", "--member", "detect"])
        .success();
    insta::assert_snapshot!("member_view_rust_flow_ends", out.stdout);
    out.stdout_has("      Detection::Quit(b) => *b\n")
        .stdout_has("      → Ok(true)\n")
        .stdout_has("    else:\n      → Ok(false)\n");
}

#[test]
fn a_javascript_flow_shows_what_callbacks_handed_in_an_object_end_with() {
    let p = project()
        .file("package.json", "{\"name\": \"web\", \"version\": \"1.0.0\"}\n")
        .file(
            "lib/response.js",
            "'use strict';\n\nvar res = module.exports = {};\n\n/**\n * Redirect to `url`.\n */\nres.redirect = function redirect(url) {\n  var address = url;\n  var body;\n  var status = 302;\n  if (!address) {\n    deprecate('Provide a url argument');\n  }\n  if (typeof address !== 'string') {\n    deprecate('Url must be a string');\n  }\n  if (typeof status !== 'number') {\n    deprecate('Status must be a number');\n  }\n  address = this.location(address).get('Location');\n  this.format({\n    text: function(){\n      body = statuses.message[status] + '. Redirecting to ' + address\n    },\n    html: function(){\n      var u = escapeHtml(address);\n      body = '<p>' + statuses.message[status] + '. Redirecting to ' + u + '</p>'\n    },\n    default: function(){\n      body = '';\n    }\n  });\n  this.status(status);\n  this.set('Content-Length', Buffer.byteLength(body));\n  if (this.req.method === 'HEAD') {\n    this.end();\n  } else {\n    this.end(body);\n  }\n};\n\nfunction deprecate(message) {\n  console.warn(message);\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["lookup", "lib/response.js", "--member", "res.redirect"])
        .success();
    insta::assert_snapshot!("member_view_js_callbacks", out.stdout);
    // The callbacks' ends, and the room left still opens the first branches.
    out.stdout_has("      text: body = statuses.message[status] + '. Redirecting to ' + address\n")
        .stdout_has("      default: body = ''\n")
        .stdout_has("      deprecate('Provide a url argument')\n");
}

#[test]
fn a_search_hit_in_comments_names_the_line_and_its_member() {
    let p = project()
        .file("Cargo.toml", "[package]\nname = \"bin\"\nversion = \"0.1.0\"\nedition = \"2021\"\n")
        .file(
            "src/lib.rs",
            "//! Searching.\n\npub mod detect;\n",
        )
        .file(
            "src/detect.rs",
            "//! Detection of binary data.\n\n/// How binary data is handled.\n///\n/// Detection is done heuristically, by looking for a NUL byte.\n#[derive(Clone, Debug)]\npub enum Detection {\n    /// Stop at this byte.\n    Quit(u8),\n}\n\n/// Whether `buf` holds binary data.\npub fn detect(buf: &[u8]) -> bool {\n    // A guess: the first kilobyte is enough, speculatively.\n    buf.iter().take(1024).any(|b| *b == 0)\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p.lexi(["search", "heuristically"]).success();
    insta::assert_snapshot!("member_view_search_in_comments", out.stdout);
    out.stdout_has("  → line 5, doc of Detection: /// Detection is done heuristically, by looking for a NUL byte.\n");
    p.lexi(["search", "speculatively"]).success().stdout_has(
        "  → line 14, in detect: // A guess: the first kilobyte is enough, speculatively.\n",
    );
}

/// A name defined several times opens the definition in effect: Python's implementation after its
/// `@overload` stubs (flask's `stream_with_context` opened its first stub, without doc or flow), a
/// TypeScript implementation after its overload signatures.
#[test]
fn an_overloaded_name_opens_its_implementation_not_its_stubs() {
    let p = project()
        .file(
            "src/helpers.py",
            "import typing as t\n\n\n@t.overload\ndef wrap(value: int) -> int: ...\n\n\n@t.overload\ndef wrap(value: str) -> str: ...\n\n\ndef wrap(value):\n    \"\"\"Wrap a value so that it survives the request.\"\"\"\n    if value is None:\n        raise ValueError('nothing to wrap')\n    return keep(value)\n\n\ndef keep(value):\n    return value\n",
        )
        .file(
            "src/parse.ts",
            "export function parse(input: string): number;\nexport function parse(input: number): number;\n/** Parses a number from text or passes it on. */\nexport function parse(input: string | number): number {\n  return typeof input === 'number' ? input : Number(input);\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "src/helpers.py", "--member", "wrap"])
        .success()
        .stdout_has("wrap (function, lines 12-16)")
        .stdout_has("def wrap(value)")
        .stdout_has("Raises: ValueError")
        .stdout_has("Wrap a value so that it survives the request.");
    p.lexi(["lookup", "src/parse.ts", "--member", "parse"])
        .success()
        .stdout_has("parse (function, lines 4-6)")
        .stdout_has("Parses a number from text or passes it on.");
}

/// A Python function of more statements than the default flow shows, most of them assignments.
fn long_handler() -> TestProject {
    let mut body = String::from(
        "def handle(request):\n    \"\"\"Handle one request, step by step.\"\"\"\n    status = 302\n    seen = request.seen\n",
    );
    for i in 0..10 {
        body.push_str(&format!(
            "    if request.step == {i}:\n        status = {}\n",
            200 + i
        ));
    }
    body.push_str("    return respond(status, seen)\n\n\ndef respond(status, seen):\n    return (status, seen)\n");
    project().file("src/handler.py", &body).init().build()
}

#[test]
fn a_flow_shows_every_statement_folded_by_size_and_whole_with_full() {
    let p = long_handler();
    p.lexictl(["update"]).success();
    // Assignments are steps too (the value a later call reads); the docstring is not.
    p.lexi(["lookup", "src/handler.py", "--member", "handle"])
        .success()
        .stdout_has("    status = 302\n    seen = request.seen\n")
        .stdout_has("    if request.step == 0:\n      status = 200\n")
        .stdout_has("    if request.step == 6:\n      status = 206\n    if request.step == 7: …\n")
        .stdout_has("(folded: every step `lexi lookup src/handler.py --member handle --full`, its code `--source`)")
        .stdout_lacks("    \"\"\"Handle one request");
    p.lexi(["lookup", "src/handler.py", "--member", "handle", "--full"])
        .success()
        .stdout_has(
            "    if request.step == 9:\n      status = 209\n    return respond(status, seen)\n",
        )
        .stdout_lacks("(folded:");
}

#[test]
fn source_prints_the_members_lines_as_written_and_its_docstring_once() {
    let p = long_handler();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["lookup", "src/handler.py", "--member", "handle", "--source"])
        .success();
    out.stdout_has("## Source\n\n```python\ndef handle(request):\n    \"\"\"Handle one request, step by step.\"\"\"\n    status = 302\n")
        .stdout_has("    return respond(status, seen)\n```\n")
        .stdout_lacks("- Flow:")
        .stdout_lacks("## Doc")
        .stdout_lacks("def respond(");
    let text = &out.stdout;
    assert_eq!(
        text.matches("Handle one request, step by step.").count(),
        1,
        "{text}"
    );
    // Without a member there is nothing to print the source of.
    p.lexi(["lookup", "src/handler.py", "--source"])
        .code(1)
        .stderr_has("--member <NAME>");
    // JSON carries the lines.
    p.lexi([
        "lookup",
        "src/handler.py",
        "--member",
        "respond",
        "--source",
        "--format",
        "json",
    ])
    .success()
    .stdout_has("\"source_lines\": \"def respond(status, seen):\\n    return (status, seen)\"");
}

#[test]
fn a_documentation_stub_gives_way_to_the_definition_the_code_compiles() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"sel\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file(
            "src/lib.rs",
            "//! Selecting.\n\n/// Waits on several branches.\n#[cfg(doc)]\npub fn select(branches: u8) -> u8 {\n    unimplemented!()\n}\n\n#[cfg(not(doc))]\npub fn select(branches: u8) -> u8 {\n    poll_all(branches)\n}\n\nfn poll_all(branches: u8) -> u8 {\n    branches\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "src/lib.rs", "--member", "select"])
        .success()
        .stdout_has("select (function, lines 10-12)")
        .stdout_has("poll_all(branches)")
        .stdout_lacks("unimplemented!()");
}

/// The compact view keeps, under the doc's first paragraph, the lines saying how a call fails —
/// Rust `# Panics`/`# Errors`, Python `Raises:`, JSDoc `@throws` — which answer "what does it
/// panic on" without `--full` (tokio's `Runtime::block_on`).
#[test]
fn a_members_doc_keeps_its_panics_and_errors_under_the_first_paragraph() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"r\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file(
            "src/lib.rs",
            "//! R.\n\n/// Runs the future.\n///\n/// It blocks the thread.\n///\n/// # Panics\n///\n/// When called inside a runtime.\n///\n/// # Errors\n///\n/// When the driver is gone.\npub fn run() -> Result<(), ()> {\n    Ok(())\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["lookup", "src/lib.rs", "--member", "run"])
        .success()
        .stdout;
    assert!(
        out.contains("## Doc\n\nRuns the future.\nPanics: When called inside a runtime.\nErrors: When the driver is gone.\n(… the rest of the doc"),
        "{out}"
    );
    assert!(!out.contains("It blocks the thread."), "{out}");
}
