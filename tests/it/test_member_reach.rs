//! `lexi lookup <file> --member <name>` beyond the member's own calls: what it raises (`Raises:`),
//! the members of its file sharing its callees and keys (`Related:`), and the tests that reach it
//! without calling it — its delegate's tests (`res.json` → `this.send`: `test/res.send.js`), test
//! functions named for its words (`test_response_types` for `make_response`), tests calling its
//! callers (`via full_dispatch_request → finalize_request`) — and a Rust file's own `#[test]`
//! functions, in a JavaScript, a Python and a Rust project.

use crate::support::{project, TestProject};

const RESPONSE_JS: &str = "'use strict';

var res = Object.create(null);

module.exports = res;

/** Send a body. */
res.send = function send(body) {
  this.set('Content-Type', 'text/html');
  this.end(body);
  return this;
};

/** Send JSON. */
res.json = function json(obj) {
  if (obj === undefined) {
    throw new TypeError('json body must not be undefined');
  }
  var spaces = this.app.get('json spaces');
  var body = stringify(obj, this.app.get('json replacer'), spaces);
  this.set('Content-Type', 'application/json');
  return this.send(body);
};

/** Send JSON with a callback. */
res.jsonp = function jsonp(obj) {
  var body = stringify(obj, this.app.get('json replacer'), this.app.get('json spaces'));
  this.set('Content-Type', 'text/javascript');
  return this.send(body);
};

/** Set a header. */
res.set = function set(field, value) {
  this.headers[field] = value;
  return this;
};

function stringify(value) {
  return JSON.stringify(value);
}
";

fn express_like() -> TestProject {
    let test = |member: &str| {
        format!(
            "var res = require('..');\n\ndescribe('res', function () {{\n  describe('.{member}()', function () {{\n    it('should answer', function () {{\n      res.{member}('x');\n    }});\n  }});\n}});\n"
        )
    };
    let p = project()
        .file(
            "package.json",
            "{\"name\": \"mini\", \"main\": \"index.js\"}\n",
        )
        .file("index.js", "module.exports = require('./lib/response');\n")
        .file("lib/response.js", RESPONSE_JS)
        .file("test/res.json.js", test("json"))
        .file("test/res.send.js", test("send"))
        .init()
        .build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn a_javascript_member_with_its_throws_sibling_and_delegates_tests() {
    let p = express_like();
    let out = p
        .lexi(["lookup", "lib/response.js", "--member", "res.json"])
        .success();
    insta::assert_snapshot!("reach_res_json", out.stdout);
    out.stdout_has("- Raises: TypeError (\"json body must not be undefined\")")
        .stdout_has("- Related: res.jsonp (shares ")
        .stdout_has("- test/res.json.js: should_answer\n")
        .stdout_has("- test/res.send.js: should_answer (tests of callee send)");
    // The sibling sees it back; the delegate itself has no delegate of its own to name.
    p.lexi(["lookup", "lib/response.js", "--member", "jsonp"])
        .success()
        .stdout_has("- Related: res.json (shares ");
    p.lexi(["lookup", "lib/response.js", "--member", "send"])
        .success()
        .stdout_lacks("Raises:")
        .stdout_lacks("tests of callee");
}

const APP_PY: &str = "\"\"\"The application.\"\"\"


class App:
    \"\"\"An application.\"\"\"

    def make_response(self, rv):
        \"\"\"Turn a view's value into a response.\"\"\"
        if rv is None:
            raise TypeError(
                f\"The view function for {rv!r} did not\"
                \" return a valid response. The function either returned None.\"
            )
        try:
            return Response(rv)
        except ValueError:
            raise

    def finalize_request(self, rv):
        \"\"\"Make the response and process it.\"\"\"
        return self.make_response(rv)

    def full_dispatch_request(self):
        \"\"\"Dispatch and finalize.\"\"\"
        return self.finalize_request(self.dispatch_request())

    def dispatch_request(self):
        \"\"\"Call the view.\"\"\"
        return 'hi'

    def response_headers(self):
        \"\"\"The headers every response gets.\"\"\"
        return {}


class Response:
    \"\"\"A response.\"\"\"

    def __init__(self, body):
        self.body = body
";

const TEST_PY: &str = "from minapp.app import App


def test_make_response():
    assert App().make_response('x').body == 'x'


def test_response_types():
    assert App().dispatch_request() == 'hi'


def test_full_dispatch():
    assert App().full_dispatch_request().body == 'hi'


def test_unrelated():
    assert App() is not None
";

fn flask_like() -> TestProject {
    let p = project()
        .file(
            "pyproject.toml",
            "[project]\nname = \"minapp\"\nversion = \"0.1.0\"\n",
        )
        .file("minapp/__init__.py", "\"\"\"A small app.\"\"\"\n")
        .file("minapp/app.py", APP_PY)
        .file("tests/test_basic.py", TEST_PY)
        .init()
        .build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn a_python_method_with_its_raises_and_the_tests_reaching_it_indirectly() {
    let p = flask_like();
    let out = p
        .lexi(["lookup", "minapp/app.py", "--member", "make_response"])
        .success();
    insta::assert_snapshot!("reach_make_response", out.stdout);
    out.stdout_has(
        "- Raises: TypeError (\"The view function for … did not return a valid response. The…\"), re-raises",
    )
    .stdout_has("- tests/test_basic.py: test_make_response\n")
    .stdout_has(
        "- tests/test_basic.py: test_full_dispatch (via full_dispatch_request → finalize_request)",
    )
    // A test named for one of its words is shown only when nothing better was found.
    .stdout_lacks("named for")
    .stdout_lacks("test_unrelated");
    p.lexi(["lookup", "minapp/app.py", "--member", "response_headers"])
        .success()
        .stdout_has(
            "- tests/test_basic.py: test_make_response, test_response_types (named for \"response\")",
        );
    let value = p
        .lexi([
            "lookup",
            "minapp/app.py",
            "--member",
            "make_response",
            "--format",
            "json",
        ])
        .json();
    let tests = &value["tests"];
    assert_eq!(tests[0]["functions"][0], "test_make_response");
    assert!(tests[0].get("via").is_none(), "{tests}");
    assert_eq!(
        tests[1]["via"],
        "via full_dispatch_request → finalize_request"
    );
    assert_eq!(value["matches"][0]["raises"][1], "re-raises");
}

const BUFFER_RS: &str = "//! A buffer.

/// A line buffer.
pub struct Buffer {
    len: usize,
}

impl Buffer {
    /// An empty buffer.
    pub fn new() -> Buffer {
        Buffer { len: 0 }
    }

    /// Fill the buffer.
    pub fn fill(&mut self) -> Result<bool, String> {
        if self.len > 8 {
            return Err(String::from(\"buffer is full\"));
        }
        self.len += 1;
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn helper() -> Buffer {
        Buffer::new()
    }

    #[test]
    fn fills_once() {
        let mut buffer = helper();
        buffer.fill().unwrap();
    }

    #[test]
    fn starts_empty() {
        assert_eq!(helper().len, 0);
    }
}
";

#[test]
fn a_rust_members_inline_tests_and_crate_tests_are_its_tests() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"mini\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file("src/lib.rs", "//! A small crate.\n\npub mod buffer;\n")
        .file("src/buffer.rs", BUFFER_RS)
        .file(
            "tests/buffer.rs",
            "use mini::buffer::Buffer;\n\n#[test]\nfn fills_from_outside() {\n    let filled = Buffer::new().fill();\n    assert!(filled.is_ok());\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["lookup", "src/buffer.rs", "--member", "Buffer::fill"])
        .success();
    insta::assert_snapshot!("reach_buffer_fill", out.stdout);
    out.stdout_has("- Raises: Err(String::from(…)) (\"buffer is full\")")
        .stdout_has("- src/buffer.rs: fills_once\n")
        .stdout_has("- tests/buffer.rs: fills_from_outside\n")
        .stdout_lacks("starts_empty")
        .stdout_lacks("named for");
}

/// `Calls elsewhere`: the calls leaving the file — through other objects first, then imported
/// functions and a Rust type's — without builtins, methods every value has, or the file's own
/// members (the `Calls` line's).
#[test]
fn a_members_calls_that_leave_its_file() {
    let p = project()
        .file(
            "lib/app.js",
            "'use strict';\n\nvar finalhandler = require('finalhandler');\n\nvar app = module.exports = {};\n\n/** Handle a request. */\napp.handle = function handle(req, res, callback) {\n  var done = callback || finalhandler(req, res);\n  Object.setPrototypeOf(req, this.request);\n  this.lazyrouter();\n  this.router.handle(req, res, done);\n};\n\n/** Make the router. */\napp.lazyrouter = function lazyrouter() {\n  this.router = {};\n};\n",
        )
        .file(
            "src/ctx.py",
            "\"\"\"Contexts.\"\"\"\n\n\nclass Context:\n    \"\"\"A context.\"\"\"\n\n    def match_request(self):\n        \"\"\"Match the request.\"\"\"\n        if len(self.stack) > 0:\n            self.url_adapter.match(return_rule=True)\n        return self.name.lower()\n",
        )
        .file(
            "src/chan.rs",
            "//! A channel.\n\n/// Sends.\npub struct Sender;\n\nimpl Sender {\n    /// Send a value.\n    pub fn send(&self, value: u8) -> Option<u8> {\n        let permit = self.reserve().clone();\n        let _at = Instant::now();\n        permit.send(value);\n        Some(value)\n    }\n\n    /// Reserve a slot.\n    pub fn reserve(&self) -> Permit {\n        Permit\n    }\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "lib/app.js", "--member", "handle"])
        .success()
        .stdout_has("- Calls elsewhere: router.handle, finalhandler\n")
        // The flow shows every call in order; Calls elsewhere leaves the builtins out.
        .stdout_lacks("elsewhere: Object.setPrototypeOf")
        .stdout_has("    Object.setPrototypeOf(req, request)\n    lazyrouter()\n");
    p.lexi(["lookup", "src/ctx.py", "--member", "match_request"])
        .success()
        .stdout_has("- Calls elsewhere: url_adapter.match\n");
    let rust = p
        .lexi(["lookup", "src/chan.rs", "--member", "Sender::send"])
        .success();
    rust.stdout_has("- Calls: reserve\n")
        .stdout_has("- Calls elsewhere: permit.send, Instant::now\n");
    let json = p
        .lexi([
            "lookup",
            "src/chan.rs",
            "--member",
            "Sender::send",
            "--format",
            "json",
        ])
        .success()
        .json();
    assert_eq!(
        json["matches"][0]["calls_elsewhere"],
        serde_json::json!(["permit.send", "Instant::now"])
    );
}

/// A Rust method's tests are the test functions that may hold its objects: a file naming its type,
/// or a function calling the file's constructor — not a test calling `send` on another type.
#[test]
fn a_rust_methods_tests_hold_its_type_not_only_its_name() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"mini\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file("src/lib.rs", "//! A small crate.\n\npub mod chan;\npub mod net;\n")
        .file(
            "src/chan.rs",
            "//! A channel.\n\n/// Sends.\npub struct Sender;\n\n/// Make a channel.\npub fn channel() -> Sender {\n    Sender::default_one()\n}\n\nimpl Sender {\n    fn default_one() -> Sender {\n        Sender\n    }\n\n    /// Send a value.\n    pub fn send(&self, value: u8) -> u8 {\n        value\n    }\n}\n",
        )
        .file(
            "src/net.rs",
            "//! A socket.\n\n/// A socket.\npub struct Socket;\n\nimpl Socket {\n    /// Send bytes.\n    pub fn send(&self, value: u8) -> u8 {\n        value\n    }\n}\n",
        )
        .file(
            "tests/chan.rs",
            "use mini::chan;\n\n#[test]\nfn sends_through_a_channel() {\n    let tx = chan::channel();\n    tx.send(1);\n}\n",
        )
        .file(
            "tests/net.rs",
            "use mini::net::Socket;\nuse mini::chan;\n\n#[test]\nfn socket_sends() {\n    let socket = Socket;\n    socket.send(1);\n}\n\n#[test]\nfn relays_through_a_channel() {\n    let tx = chan::channel();\n    tx.send(2);\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "src/chan.rs", "--member", "Sender::send"])
        .success()
        .stdout_has("- tests/chan.rs: sends_through_a_channel\n")
        .stdout_has("- tests/net.rs: relays_through_a_channel\n")
        .stdout_lacks("socket_sends");
}

/// A Rust crate whose `Glob::new` is called by the inline tests of a sibling module, and a test
/// file calling another crate's `from_str`.
fn globs_crate() -> TestProject {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"globs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file("src/lib.rs", "//! Globs.\n\npub mod glob;\npub mod set;\n")
        .file(
            "src/glob.rs",
            "//! One glob.\n\n/// A glob.\npub struct Glob;\n\nimpl Glob {\n    /// Builds a glob.\n    pub fn new(pattern: &str) -> Glob {\n        let _ = pattern;\n        Glob\n    }\n}\n\nimpl std::str::FromStr for Glob {\n    type Err = ();\n\n    fn from_str(text: &str) -> Result<Glob, ()> {\n        Ok(Glob::new(text))\n    }\n}\n",
        )
        .file(
            "src/set.rs",
            "//! Sets of globs.\n\nuse crate::glob::Glob;\n\n/// Builds a set of one.\npub fn build(pattern: &str) -> Vec<Glob> {\n    vec![Glob::new(pattern)]\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn builds_one() {\n        let _ = Glob::new(\"a\");\n    }\n}\n",
        )
        .file(
            "tests/json.rs",
            "use globs::glob::Glob;\n\n#[test]\nfn parses_json() {\n    let _: Result<u8, ()> = serde_json::from_str(\"1\");\n}\n\n#[test]\nfn parses_a_glob() {\n    let _: Result<Glob, ()> = \"a\".parse();\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn a_sibling_modules_inline_tests_are_tests_and_another_paths_namesake_is_not() {
    let p = globs_crate();
    p.lexi(["lookup", "src/glob.rs", "--member", "Glob::new"])
        .success()
        // A `#[test]` in the `mod tests` of a module calling it is a test of it.
        .stdout_has("- src/set.rs: builds_one\n")
        // `serde_json::from_str` is not `Glob::from_str`, the caller of `Glob::new`.
        .stdout_lacks("parses_json");
}

#[test]
fn tests_a_local_macro_generates_are_tests_of_what_they_call() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"globs\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file("src/lib.rs", "//! Globs.\n\npub mod glob;\n")
        .file(
            "src/glob.rs",
            "//! One glob.\n\n/// A glob.\npub struct Glob(String);\n\nimpl Glob {\n    /// Builds a glob.\n    pub fn new(pattern: &str) -> Glob {\n        Glob(pattern.to_string())\n    }\n}\n\n#[cfg(test)]\nmod tests {\n    use super::Glob;\n\n    macro_rules! syntax {\n        ($name:ident, $pat:expr) => {\n            syntax!($name, $pat, true);\n        };\n        ($name:ident, $pat:expr, $ok:expr) => {\n            #[test]\n            fn $name() {\n                let glob = Glob::new($pat);\n                assert_eq!(!glob.0.is_empty(), $ok);\n            }\n        };\n    }\n\n    syntax!(literal1, \"a\");\n    syntax!(literal2, \"b\", true);\n    syntax!(empty, \"\", false);\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    // The three tests exist only once `syntax!` is expanded: the first rule calls the macro again.
    p.lexi(["lookup", "src/glob.rs", "--member", "Glob::new"])
        .success()
        .stdout_has("- src/glob.rs: literal1, literal2, empty\n");
}
