//! The repros of issue 31 "What cost the answers" items 1–4, each on a small project shaped like
//! flask or express: members that could not be opened (private functions, class expressions,
//! object-literal exports, members inherited past `__all__`, a multi-line alias's value, a name
//! of another case), calls dropped or wrong (recursion, callbacks' functions, the first 10 calls
//! in source order, a caller of `res.send` that calls the `send` package), impact claiming no
//! run-time reach where a run-time call exists, and padded test lists; and `lexi impact --member`.

use crate::support::{project, TestProject};

/// A flask-like package: a private helper, recursion, a multi-line alias, a class exported by
/// `__all__` inheriting its members from another file, a context importing the app for types only
/// and calling it at run time, and tests (a real one, a name-fragment one, a fixture config).
fn pyproject() -> TestProject {
    let p = project()
        .file("pyproject.toml", "[project]\nname = \"pkg\"\n")
        .file(
            "src/pkg/__init__.py",
            "from .app import App\nfrom .helpers import make_response\n",
        )
        .file(
            "src/pkg/m.py",
            "\"\"\"Walking trees.\"\"\"\n\n\ndef _helper(x):\n    return x + 1\n\n\ndef public(x):\n    \"\"\"The public face.\"\"\"\n    return _helper(x)\n\n\ndef walk(n):\n    \"\"\"Walk a tree.\"\"\"\n    helper(n)\n    for c in n.children:\n        walk(c)\n\n\ndef helper(n):\n    return n\n",
        )
        .file(
            "src/pkg/typing.py",
            "from __future__ import annotations\n\nimport typing as t\n\nResponseValue = t.Union[\n    \"Response\",\n    str,\n    bytes,\n]\n\nHeadersValue = t.Union[\"Headers\", t.Mapping[str, str]]\n\n# The possible types returned by a route function.\nResponseReturnValue = t.Union[\n    ResponseValue,\n    tuple[ResponseValue, HeadersValue],\n    tuple[ResponseValue, int],\n    tuple[ResponseValue, int, HeadersValue],\n    \"WSGIApplication\",\n]\n",
        )
        .file(
            "src/pkg/scaffold.py",
            "\"\"\"The scaffold.\"\"\"\n\n\nclass Scaffold:\n    def add_url_rule(self, rule, endpoint=None):\n        \"\"\"Register a rule.\"\"\"\n        self.rules.append((rule, endpoint))\n\n    def route(self, rule):\n        \"\"\"Decorate a view.\"\"\"\n        def decorator(f):\n            self.add_url_rule(rule, f.__name__)\n            return f\n        return decorator\n\n    def endpoint(self, name):\n        \"\"\"Decorate an endpoint.\"\"\"\n        return name\n",
        )
        .file(
            "src/pkg/app.py",
            "\"\"\"The application.\"\"\"\n\nfrom .scaffold import Scaffold\n\n__all__ = [\"App\"]\n\n\nclass Base(Scaffold):\n    def run(self, host=None):\n        \"\"\"Run the server.\"\"\"\n        return host\n\n\nclass App(Base):\n    def create_url_adapter(self, request):\n        \"\"\"An adapter for the request.\"\"\"\n        return (self, request)\n\n    def make_response(self, rv):\n        \"\"\"Make a response.\"\"\"\n        return rv\n\n    def finalize_request(self, rv):\n        return self.make_response(rv)\n\n    def full_dispatch_request(self):\n        return self.finalize_request(None)\n\n    def add_template_filter(self, f):\n        return f\n\n    def endpoint(self, name):\n        return name.lower()\n",
        )
        .file(
            "src/pkg/helpers.py",
            "\"\"\"Helpers.\"\"\"\n\nfrom .globals import current_app\n\n\ndef make_response(*args):\n    \"\"\"Make a response in a view.\"\"\"\n    return current_app.make_response(args)\n",
        )
        .file("src/pkg/globals.py", "\"\"\"Globals.\"\"\"\n\ncurrent_app = None\n")
        .file(
            "src/pkg/ctx.py",
            "\"\"\"Contexts.\"\"\"\n\nimport typing as t\n\nif t.TYPE_CHECKING:\n    from .app import App\n\n\nclass RequestContext:\n    def __init__(self, app: \"App\", request):\n        self.app = app\n        self.url_adapter = app.create_url_adapter(request)\n",
        )
        .file(
            "tests/test_basic.py",
            "from pkg import App\n\n\ndef test_url_rule():\n    app = App()\n    app.add_url_rule(\"/\", \"index\")\n\n\ndef test_add_template_filter():\n    app = App()\n    app.add_template_filter(len)\n\n\ndef test_response():\n    app = App()\n    app.full_dispatch_request()\n",
        )
        .file(
            "tests/test_helpers.py",
            "import pkg\n\n\ndef test_make_response_helper():\n    pkg.make_response(\"x\")\n",
        )
        .file(
            "src/pkg/views.py",
            "\"\"\"Views.\"\"\"\n\nfrom .app import App\n\n\ndef index(app: App):\n    \"\"\"The front page.\"\"\"\n    return app.make_response(\"hi\")\n",
        )
        .file(
            "tests/test_views.py",
            "from pkg import App\nfrom pkg.views import index\n\n\ndef test_index():\n    index(App())\n",
        )
        .file("tests/static/config.json", "{\"TEST_KEY\": \"foo\"}\n")
        .file(
            "tests/test_config.py",
            "import pkg\n\n\ndef test_config_from_file():\n    pkg.App()\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p
}

const RESPONSE_JS: &str = "'use strict';

var send = require('send');
var helpers = require('./helpers');

var res = module.exports = {};

/** Send a body. */
res.send = function send(body) {
  this.end(body);
  return this;
};

/** Send JSON. */
res.json = function json(obj) {
  var body = stringify(obj);
  return this.send(body);
};

/** Send a file. */
res.sendFile = function sendFile(path) {
  var file = send(this.req, path);
  file.pipe(this);
};

/** Handle a request: many calls, the central one last. */
res.handle = function handle(req) {
  a.one(); b.two(); c.three(); d.four(); e.five(); f.six();
  g.seven(); h.eight(); i.nine(); j.ten(); k.eleven(); l.twelve();
  return helpers.central(req);
};

function stringify(value) {
  return JSON.stringify(value);
}
";

/// An express-like package: a response object, an application class exported as an expression,
/// a router exported as an object literal, methods defined in a callback, and tests.
fn jsproject() -> TestProject {
    let p = project()
        .file(
            "package.json",
            "{\"name\": \"mini\", \"main\": \"index.js\", \"dependencies\": {\"send\": \"1\"}}\n",
        )
        .file("index.js", "module.exports = require('./lib/response');\n")
        .file("lib/response.js", RESPONSE_JS)
        .file(
            "lib/helpers.js",
            "'use strict';\n\nexports.central = function central(req) {\n  return req;\n};\n",
        )
        .file(
            "lib/application.js",
            "'use strict';\n\nvar Emitter = require('events');\nvar methods = require('methods');\n\nmodule.exports = class Application extends Emitter {\n  use(fn) {\n    this.stack.push(fn);\n    return this;\n  }\n\n  listen(port) {\n    return this.server.listen(port);\n  }\n};\n\nvar app = module.exports.prototype;\n\nmethods.forEach(function (method) {\n  app[method] = function (path) {\n    return this.route(path);\n  };\n});\n",
        )
        .file(
            "lib/router.js",
            "'use strict';\n\nmodule.exports = {\n  route(path) {\n    return this.stack.find(path);\n  },\n  param(name, fn) {\n    this.params[name] = fn;\n  },\n};\n",
        )
        .file(
            "test/res.json.js",
            "var res = require('..');\n\ndescribe('res', function () {\n  describe('.json()', function () {\n    it('should send json', function () {\n      res.json({});\n    });\n  });\n});\n",
        )
        .file(
            "test/res.format.js",
            "var res = require('..');\n\ndescribe('res', function () {\n  describe('.format()', function () {\n    it('should format', function () {\n      var body = fetchIt();\n      body.json();\n    });\n  });\n});\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p
}

// Item 1: members that cannot be opened.

#[test]
fn a_private_python_function_opens() {
    let p = pyproject();
    p.lexi(["lookup", "src/pkg/m.py", "--member", "_helper"])
        .success()
        .stdout_has("_helper(x)");
}

#[test]
fn a_private_javascript_function_opens() {
    let p = jsproject();
    p.lexi(["lookup", "lib/response.js", "--member", "stringify"])
        .success()
        .stdout_has("function stringify(value)");
}

#[test]
fn a_name_of_another_case_is_not_answered_as_the_member() {
    let p = jsproject();
    let out = p
        .lexi(["lookup", "lib/response.js", "--member", "sendfile"])
        .run();
    // Answered saying the case differs: never `res.sendFile` silently, as if it were `sendfile`.
    out.code(0).stdout_has(
        "No member of lib/response.js is named `sendfile`; shown: res.sendFile, which differs in case.",
    );
    // The exact name, when it exists, is the answer.
    p.lexi(["lookup", "lib/response.js", "--member", "sendFile"])
        .success()
        .stdout_lacks("differs in case");
}

#[test]
fn a_class_exported_as_an_expression_has_its_members() {
    let p = jsproject();
    p.lexi(["lookup", "lib/application.js", "--member", "use"])
        .success()
        .stdout_has("use(fn)");
    p.lexi(["search", "listen"])
        .success()
        .stdout_has("lib/application.js");
}

#[test]
fn an_object_literal_export_has_its_members() {
    let p = jsproject();
    p.lexi(["lookup", "lib/router.js", "--member", "param"])
        .success()
        .stdout_has("param(name, fn)");
}

#[test]
fn a_class_listed_in_all_keeps_its_inherited_members() {
    let p = pyproject();
    // `Base` is not in `__all__`: its members are `App`'s all the same.
    p.lexi(["lookup", "src/pkg/app.py", "--member", "run"])
        .success()
        .stdout_has("def run(self, host=None)")
        .stdout_has("Run the server.");
    p.lexi(["lookup", "src/pkg/app.py", "--member", "route"])
        .success()
        .stdout_has("Scaffold")
        .stdout_has("src/pkg/scaffold.py");
}

#[test]
fn a_multi_line_alias_shows_its_value() {
    let p = pyproject();
    p.lexi([
        "lookup",
        "src/pkg/typing.py",
        "--member",
        "ResponseReturnValue",
    ])
    .success()
    .stdout_has("ResponseReturnValue = t.Union[\n    ResponseValue,\n")
    .stdout_has("    tuple[ResponseValue, int, HeadersValue],\n")
    .stdout_has("The possible types returned by a route function.");
}

// Item 2: calls incomplete or wrong.

#[test]
fn recursion_is_a_call() {
    let p = pyproject();
    p.lexi(["lookup", "src/pkg/m.py", "--member", "walk"])
        .success()
        .stdout_has("- Calls: helper, itself (recursive)")
        .stdout_has("walk(c)  (recursive)");
}

#[test]
fn functions_defined_in_callbacks_keep_their_calls() {
    let p = jsproject();
    let out = p
        .lexi(["lookup", "lib/application.js", "--member", "app[method]"])
        .success();
    out.stdout_has("route");
}

#[test]
fn calls_elsewhere_rank_the_resolved_project_call_first() {
    let p = jsproject();
    let out = p
        .lexi(["lookup", "lib/response.js", "--member", "handle"])
        .success();
    let line = out
        .stdout
        .lines()
        .find(|l| l.contains("Calls elsewhere"))
        .unwrap_or_else(|| panic!("no Calls elsewhere line in\n{}", out.stdout));
    let central = line.find("helpers.central (lib/helpers.js)");
    let first = line.find("a.one");
    assert!(
        matches!((central, first), (Some(c), Some(f)) if c < f),
        "the resolved call first: {line}"
    );
    assert!(line.contains("more"), "the rest counted: {line}");
}

#[test]
fn a_call_of_a_package_is_not_a_caller_of_a_namesake() {
    let p = jsproject();
    let out = p
        .lexi(["lookup", "lib/response.js", "--member", "res.send"])
        .success();
    out.stdout_has("res.json");
    let called_by = out
        .stdout
        .lines()
        .find(|l| l.contains("Called by"))
        .unwrap_or_default();
    assert!(
        !called_by.contains("sendFile"),
        "res.sendFile calls the send package, not res.send: {called_by}"
    );
}

// Item 3: impact says false things.

#[test]
fn impact_reaches_an_importer_for_types_that_calls_at_run_time() {
    let p = pyproject();
    let out = p.lexi(["impact", "src/pkg/app.py"]).success();
    out.stdout_has("src/pkg/ctx.py")
        .stdout_has("calls create_url_adapter at run time")
        .stdout_lacks("a change does not reach them at run time");
}

#[test]
fn member_impact_lists_callers_by_depth_and_the_tests() {
    let p = pyproject();
    let out = p
        .lexi(["impact", "src/pkg/app.py", "--member", "make_response"])
        .success();
    insta::assert_snapshot!("impact_member_make_response", out.stdout);
    out.stdout_has("## Depth 1")
        .stdout_has("finalize_request")
        .stdout_has("## Depth 2")
        .stdout_has("full_dispatch_request")
        .stdout_has("tests/test_basic.py")
        .stdout_has("- src/pkg/views.py: index (calls App.make_response)")
        .stdout_has("- tests/test_views.py: test_index (calls index of src/pkg/views.py)");
    let json = p
        .lexi([
            "impact",
            "src/pkg/app.py",
            "--member",
            "make_response",
            "--format",
            "json",
        ])
        .success()
        .json();
    let depth_of = |member: &str| {
        json["callers"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|c| c["member"].as_str().is_some_and(|m| m.ends_with(member)))
            .and_then(|c| c["depth"].as_u64())
    };
    assert_eq!(depth_of("finalize_request"), Some(1));
    assert_eq!(depth_of("full_dispatch_request"), Some(2));
    // One level only.
    p.lexi([
        "impact",
        "src/pkg/app.py",
        "--member",
        "make_response",
        "--depth",
        "1",
    ])
    .success()
    .stdout_lacks("## Depth 2")
    .stdout_has("more callers one level further");
}

#[test]
fn member_impact_of_a_member_called_only_from_an_importer_for_types() {
    let p = pyproject();
    p.lexi(["impact", "src/pkg/app.py", "--member", "create_url_adapter"])
        .success()
        .stdout_has("src/pkg/ctx.py")
        .stdout_lacks("does not reach");
}

#[test]
fn member_impact_refuses_an_unknown_member_and_a_bad_depth() {
    let p = pyproject();
    p.lexi(["impact", "src/pkg/app.py", "--member", "nope"])
        .code(1)
        .stderr_has("nope");
    p.lexi([
        "impact",
        "src/pkg/app.py",
        "--member",
        "make_response",
        "--depth",
        "0",
    ])
    .code(1)
    .stderr_has("--depth");
}

// Item 4: tests padded, ranked low.

#[test]
fn the_tests_calling_the_member_come_first_and_no_name_fragment_match() {
    let p = pyproject();
    let out = p
        .lexi(["lookup", "src/pkg/scaffold.py", "--member", "add_url_rule"])
        .success();
    // The test named for one of its words, labelled so; never one named for a generic verb
    // ("add"), nor a fixture; the tests merely reaching the file counted after them, not listed.
    out.stdout_has("- tests/test_basic.py: test_url_rule (named for \"url\")")
        .stdout_lacks("test_add_template_filter")
        .stdout_lacks("config.json")
        .stdout_lacks("- tests/test_config.py\n")
        .stdout_has("other test files reach the file");
}

#[test]
fn a_test_calling_another_objects_namesake_is_not_a_test_of_the_member() {
    let p = jsproject();
    let out = p
        .lexi(["lookup", "lib/response.js", "--member", "res.json"])
        .success();
    let tests = out.stdout.split("## Tests").nth(1).unwrap_or_default();
    assert!(tests.contains("test/res.json.js"), "{}", out.stdout);
    // Its call of another object's `json` is a name match, counted as such, never a test.
    assert!(!tests.contains("test/res.format.js"), "{}", out.stdout);
}

// Item 4 of "What to build": overrides both ways.

#[test]
fn an_override_names_its_base_and_the_base_its_overrides() {
    let p = pyproject();
    p.lexi(["lookup", "src/pkg/app.py", "--member", "endpoint"])
        .success()
        .stdout_has("- Overrides: Scaffold.endpoint (src/pkg/scaffold.py)");
    p.lexi(["lookup", "src/pkg/scaffold.py", "--member", "endpoint"])
        .success()
        .stdout_has("- Overridden by: App.endpoint (src/pkg/app.py)");
    p.lexi(["impact", "src/pkg/scaffold.py", "--member", "endpoint"])
        .success()
        .stdout_has("## Overridden or implemented by")
        .stdout_has("- src/pkg/app.py: App.endpoint");
}

#[test]
fn a_word_the_file_or_its_class_is_named_for_names_no_test_of_the_member() {
    let p = project()
        .file("pyproject.toml", "[project]\nname = \"pkg\"\n")
        .file("src/pkg/__init__.py", "from .app import App\n")
        .file(
            "src/pkg/app.py",
            "class App:\n    def wsgi_app(self, environ):\n        return environ\n\n    def __call__(self, environ):\n        return self.wsgi_app(environ)\n",
        )
        .file(
            "tests/test_app.py",
            "from pkg import App\n\n\ndef test_app_name():\n    assert App\n\n\ndef test_app_config():\n    assert App\n\n\ndef test_wsgi_environ():\n    assert App\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    // `app` names the file and the class: every test of the file is "named for" it, which says
    // nothing of `wsgi_app`; `wsgi` is the member's own word.
    p.lexi(["lookup", "src/pkg/app.py", "--member", "wsgi_app"])
        .success()
        .stdout_has("- tests/test_app.py: test_wsgi_environ (named for \"wsgi\")")
        .stdout_lacks("test_app_name")
        .stdout_lacks("named for \"app\"");
}

#[test]
fn a_call_through_a_name_whose_declared_type_is_the_owner_is_a_caller() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"rt\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file("src/lib.rs", "//! A runtime.\n\npub mod runtime;\npub mod local;\n")
        .file(
            "src/runtime.rs",
            "//! The runtime.\n\n/// A runtime.\npub struct Runtime;\n\nimpl Runtime {\n    /// Runs a future to completion.\n    pub fn block_on(&self, value: u8) -> u8 {\n        value\n    }\n}\n",
        )
        .file(
            "src/local.rs",
            "//! Local tasks.\n\n/// A set of local tasks.\npub struct LocalSet;\n\nimpl LocalSet {\n    /// Runs the set on `rt`.\n    pub fn block_on(&self, rt: &crate::runtime::Runtime, value: u8) -> u8 {\n        rt.block_on(value)\n    }\n}\n",
        )
        .file("pyproject.toml", "[project]\nname = \"pkg\"\n")
        .file("pkg/__init__.py", "")
        .file(
            "pkg/ctx.py",
            "class AppContext:\n    def push(self):\n        return self\n",
        )
        .file(
            "pkg/app.py",
            "from __future__ import annotations\n\nfrom .ctx import AppContext\n\n\ndef run(ctx: AppContext) -> None:\n    ctx.push()\n\n\nclass Flask:\n    def app_context(self) -> AppContext:\n        return AppContext()\n\n    def wsgi_app(self):\n        ctx = self.app_context()\n        ctx.push()\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    // `rt: &crate::runtime::Runtime`: `rt.block_on` is `Runtime::block_on`, resolved.
    p.lexi(["lookup", "src/runtime.rs", "--member", "Runtime::block_on"])
        .success()
        .stdout_has("- Called from: src/local.rs (LocalSet.block_on)");
    // `ctx: AppContext`, and `ctx = self.app_context()` with `-> AppContext`.
    p.lexi(["lookup", "pkg/ctx.py", "--member", "AppContext.push"])
        .success()
        .stdout_has("- Called from: pkg/app.py (run, Flask.wsgi_app)");
}

/// Callers are ranked by how near they are to the member: its own package's code first, then
/// other code, examples and benches last (tokio's `Runtime::block_on` listed five benches before
/// `LocalSet::block_on`); the test functions calling it are counted — the Tests section names
/// them — so that a central member's callers are not a page of test names.
#[test]
fn callers_are_ranked_by_nearness_and_test_callers_are_counted() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"rt\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file("src/lib.rs", "//! A runtime.\n\npub mod runtime;\npub mod task;\n")
        .file(
            "src/runtime.rs",
            "//! The runtime.\n\n/// A runtime.\npub struct Runtime;\n\nimpl Runtime {\n    /// Runs a future to completion.\n    pub fn block_on(&self, value: u8) -> u8 {\n        value\n    }\n}\n",
        )
        .file("src/task/mod.rs", "//! Tasks.\n\npub mod local;\n")
        .file(
            "src/task/local.rs",
            "//! Local tasks.\n\n/// Runs on `rt`.\npub fn run_local(rt: &crate::runtime::Runtime) -> u8 {\n    rt.block_on(1)\n}\n",
        )
        .file(
            "benches/a_bench.rs",
            "use rt::runtime::Runtime;\n\nfn bench_block_on(rt: &Runtime) {\n    rt.block_on(2);\n}\n\nfn main() {}\n",
        )
        .file(
            "tests/block_on.rs",
            "use rt::runtime::Runtime;\n\n#[test]\nfn runs_a_value() {\n    let rt: Runtime = Runtime;\n    assert_eq!(rt.block_on(3), 3);\n}\n\n#[test]\nfn runs_another() {\n    let rt: Runtime = Runtime;\n    rt.block_on(4);\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["lookup", "src/runtime.rs", "--member", "Runtime::block_on"])
        .success()
        .stdout;
    assert!(
        out.contains(
            "- Called from: src/task/local.rs (run_local); benches/a_bench.rs (bench_block_on); \
             2 test functions in 1 test file (see Tests)\n"
        ),
        "{out}"
    );
    assert!(
        out.contains("- tests/block_on.rs: runs_a_value, runs_another"),
        "{out}"
    );
}

/// A chain of builder calls (`SearcherTester::new(…).line_number(false).test()`, ripgrep's test
/// helper) is typed across files from the return types the methods declare: its calls read as the
/// type's methods, never as the chain's raw steps.
#[test]
fn calls_through_a_builder_chain_read_as_the_types_methods() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"s\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file("src/lib.rs", "//! S.\npub mod searcher;\npub mod tester;\n")
        .file(
            "src/tester.rs",
            "//! Test helpers.\n\n/// A tester.\npub struct Tester {\n    n: u8,\n}\n\nimpl Tester {\n    /// New.\n    pub fn new(n: u8) -> Tester {\n        Tester { n }\n    }\n\n    /// Line numbers.\n    pub fn line_number(&mut self, yes: bool) -> &mut Tester {\n        self\n    }\n\n    /// Runs it.\n    pub fn test(&self) -> u8 {\n        self.n\n    }\n}\n",
        )
        .file(
            "src/searcher.rs",
            "//! Searcher.\n\nuse crate::tester::Tester;\n\n/// Runs the tester.\npub fn basic() -> u8 {\n    Tester::new(1).line_number(false).test()\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["lookup", "src/searcher.rs", "--member", "basic"])
        .success()
        .stdout;
    assert!(
        out.contains("- Calls elsewhere: Tester.test (src/tester.rs), Tester.line_number (src/tester.rs), Tester::new (src/tester.rs)\n"),
        "{out}"
    );
    assert!(!out.contains('+'), "{out}");
}

/// A test helper that only `#[cfg(test)]` modules use has no edge in the graph (test-only imports
/// are left out of it), yet the tests calling its methods through its type are its callers, and
/// the tests of what it calls: ripgrep's glue.rs tests run `Searcher::search_slice` through
/// testutil.rs's `SearcherTester`. Only a type no other file declares is followed so.
#[test]
fn tests_through_a_test_helper_without_an_edge_are_found_by_its_type() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"s\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file(
            "src/lib.rs",
            "//! S.\npub mod glue;\npub mod searcher;\n#[cfg(test)]\nmod testutil;\n",
        )
        .file(
            "src/searcher.rs",
            "//! Searcher.\n\n/// A searcher.\npub struct Searcher;\n\nimpl Searcher {\n    /// Searches.\n    pub fn search_slice(&self) -> u8 {\n        1\n    }\n}\n",
        )
        .file(
            "src/glue.rs",
            "//! Glue.\n\n/// Glues.\npub fn glue() {}\n\n#[cfg(test)]\nmod tests {\n    use crate::testutil::Tester;\n\n    #[test]\n    fn basic1() {\n        Tester::new(1).line_number(false).test();\n    }\n}\n",
        )
        .file(
            "src/testutil.rs",
            "//! Test helpers.\n\nuse crate::searcher::Searcher;\n\n/// A tester.\npub struct Tester {\n    n: u8,\n}\n\nimpl Tester {\n    /// New.\n    pub(crate) fn new(n: u8) -> Tester {\n        Tester { n }\n    }\n\n    /// Line numbers.\n    pub(crate) fn line_number(&mut self, yes: bool) -> &mut Tester {\n        self\n    }\n\n    /// Tests.\n    pub(crate) fn test(&self) {\n        Searcher.search_slice();\n    }\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "src/testutil.rs", "--member", "Tester.test"])
        .success()
        .stdout_has("- Called from: 1 test function in 1 test file (see Tests)");
    p.lexi(["lookup", "src/searcher.rs", "--member", "search_slice"])
        .success()
        .stdout_has("- src/glue.rs: basic1 (via Tester.test (src/testutil.rs))");
    p.lexi(["impact", "src/searcher.rs", "--member", "search_slice"])
        .success()
        .stdout_has("- src/glue.rs: basic1 (via Tester.test (src/testutil.rs))");
    // A second type of that name elsewhere: the call could be either's, so it is no caller.
    p.write(
        "src/other.rs",
        "//! Another.\n\n/// Another tester.\npub struct Tester;\n\nimpl Tester {\n    /// Tests.\n    pub fn test(&self) {}\n}\n",
    );
    p.write(
        "src/lib.rs",
        "//! S.\npub mod glue;\npub mod other;\npub mod searcher;\n#[cfg(test)]\nmod testutil;\n",
    );
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "src/testutil.rs", "--member", "Tester.test"])
        .success()
        .stdout_lacks("Called from");
}

/// A type's lookup lists its own members — the methods its `impl` blocks or class body define —
/// and no flow (a struct's body is no sequence of steps: ripgrep's `WalkParallel` showed `Flow: {…}`
/// and nothing of what it offers).
#[test]
fn a_types_lookup_lists_its_members_and_no_flow() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"w\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file(
            "src/lib.rs",
            "//! W.\n\n/// A parallel walker.\npub struct WalkParallel {\n    threads: usize,\n}\n\nimpl WalkParallel {\n    /// Runs it.\n    pub fn run(&self) -> usize {\n        self.visit()\n    }\n\n    /// Visits.\n    pub fn visit(&self) -> usize {\n        self.threads\n    }\n}\n",
        )
        .file("pyproject.toml", "[project]\nname = \"pkg\"\n")
        .file(
            "pkg/app.py",
            "class App:\n    \"\"\"An app.\"\"\"\n\n    def run(self):\n        return self.route()\n\n    def route(self):\n        return 1\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "src/lib.rs", "--member", "WalkParallel"])
        .success()
        .stdout_has("- Members: run, visit\n")
        .stdout_lacks("Flow");
    p.lexi(["lookup", "pkg/app.py", "--member", "App"])
        .success()
        .stdout_has("- Members: run, route\n")
        .stdout_lacks("Flow");
}

/// `--full` lifts the caps of calls and callers, not of the tests: a central member's tests
/// reaching it through its callers ran to hundreds of lines (express `stringify --full`: 15 KB).
/// `--all` lists every test.
#[test]
fn full_keeps_the_tests_at_five_lines_and_all_lists_them() {
    let mut builder = project().file("src/m.py", "def helper(n):\n    return n\n");
    for n in 1..=7 {
        builder = builder.file(
            &format!("tests/test_m{n}.py"),
            format!("from src.m import helper\n\n\ndef test_case_{n}():\n    assert helper({n})\n"),
        );
    }
    let p = builder.init().build();
    p.lexictl(["update"]).success();
    let lookup = |flag: &str| {
        p.lexi(["lookup", "src/m.py", "--member", "helper", flag])
            .success()
            .stdout
    };
    let test_lines = |text: &str| text.lines().filter(|l| l.starts_with("- tests/")).count();
    let full = lookup("--full");
    assert_eq!(test_lines(&full), 5, "{full}");
    assert!(
        full.contains("- … and 2 more: `lexi lookup src/m.py --member helper --all`"),
        "{full}"
    );
    let all = lookup("--all");
    assert_eq!(test_lines(&all), 7, "{all}");
    assert!(!all.contains("more: `lexi lookup"), "{all}");
}

/// A method no test calls, whose caller in another file the tests call (flask's `Flask.url_for`,
/// reached by the tests through the `flask.url_for` helper): the caller's tests are its tests,
/// saying through which caller.
#[test]
fn the_tests_of_a_caller_in_another_file_count_when_none_calls_it() {
    let p = project()
        .file(
            "pkg/app.py",
            "class App:\n    def build(self, name):\n        return '/' + name\n",
        )
        .file(
            "pkg/helpers.py",
            "from pkg.app import App\n\n\ndef build(name):\n    return App().build(name)\n",
        )
        .file(
            "tests/test_helpers.py",
            "from pkg.helpers import build\n\n\ndef test_build_joins():\n    assert build('x') == '/x'\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["lookup", "pkg/app.py", "--member", "App.build"])
        .success()
        .stdout;
    assert!(
        out.contains("- Called from: pkg/helpers.py (build)"),
        "{out}"
    );
    assert!(
        out.contains("- tests/test_helpers.py: test_build_joins (via build (pkg/helpers.py))"),
        "{out}"
    );
}

/// A test file calling the member both directly and through a helper of its own is listed on two
/// lines (what each calls), and counted once.
#[test]
fn member_impact_counts_each_test_file_once() {
    let p = project()
        .file("pkg/m.py", "def target(n):\n    return n\n")
        .file(
            "tests/test_m.py",
            "from pkg.m import target\n\n\ndef check(n):\n    return target(n)\n\n\ndef test_direct():\n    assert target(1)\n\n\ndef test_through_a_helper():\n    assert check(2)\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["impact", "pkg/m.py", "--member", "target"])
        .success()
        .stdout;
    assert_eq!(out.matches("- tests/test_m.py: ").count(), 2, "{out}");
    assert!(out.contains("; 1 test file exercises it"), "{out}");
}

/// A type no one calls by name (a Rust struct, used through its constructor and methods): its
/// impact is its methods' callers, each saying which method it calls.
#[test]
fn member_impact_of_a_type_reaches_it_through_its_methods() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"rt\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file("src/lib.rs", "pub mod searcher;\npub mod user;\n")
        .file(
            "src/searcher.rs",
            "pub struct Searcher {\n    n: u8,\n}\n\nimpl Searcher {\n    pub fn new() -> Searcher {\n        Searcher { n: 0 }\n    }\n\n    pub fn search_slice(&mut self, s: &[u8]) -> usize {\n        s.len() + self.len()\n    }\n\n    fn len(&self) -> usize {\n        self.n as usize\n    }\n}\n\n#[cfg(test)]\nmod tests {\n    use super::*;\n\n    #[test]\n    fn slices() {\n        assert_eq!(Searcher::new().search_slice(b\"ab\"), 2);\n    }\n}\n",
        )
        .file(
            "src/user.rs",
            "use crate::searcher::Searcher;\n\npub fn one() -> usize {\n    let mut s = Searcher::new();\n    s.search_slice(b\"x\")\n}\n\npub fn three(s: &mut Searcher) -> usize {\n    s.search_slice(b\"z\")\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["impact", "src/searcher.rs", "--member", "Searcher"])
        .success()
        .stdout;
    // The file's own `#[test]` calling it is a test, not code.
    assert!(
        out.contains("3 direct callers, 3 within 3 levels (1 in tests)"),
        "{out}"
    );
    assert!(
        out.contains("- src/user.rs: one (calls Searcher.new)"),
        "{out}"
    );
    assert!(
        out.contains("- src/user.rs: three (calls Searcher.search_slice)"),
        "{out}"
    );
    // Its own methods calling each other are not its users.
    assert!(
        !out.contains("Searcher.search_slice (calls Searcher.len)"),
        "{out}"
    );
}

/// A call through a chain of calls (`SearcherBuilder::new().line(2).build()`, a builder in another
/// file) is typed through the return types the files declare, so its caller is found (in a file
/// importing the type's: callers are looked for among a file's neighbours); a name two types share
/// is told apart by the methods the chain calls.
#[test]
fn a_call_through_a_builder_chain_in_another_file_is_a_caller() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"rt\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file("src/lib.rs", "pub mod builder;\npub mod other;\npub mod searcher;\npub mod user;\n")
        .file(
            "src/builder.rs",
            "use crate::searcher::Searcher;\n\npub struct Builder {\n    n: u8,\n}\n\nimpl Builder {\n    pub fn new() -> Builder {\n        Builder { n: 0 }\n    }\n\n    pub fn line(&mut self, n: u8) -> &mut Self {\n        self.n = n;\n        self\n    }\n\n    pub fn build(&self) -> std::io::Result<Searcher> {\n        Ok(Searcher::with(self.n))\n    }\n}\n",
        )
        .file(
            "src/other.rs",
            "pub struct Builder;\n\nimpl Builder {\n    pub fn new() -> Builder {\n        Builder\n    }\n\n    pub fn build(&self) -> u8 {\n        0\n    }\n}\n",
        )
        .file(
            "src/searcher.rs",
            "pub struct Searcher {\n    n: u8,\n}\n\nimpl Searcher {\n    pub fn with(n: u8) -> Searcher {\n        Searcher { n }\n    }\n\n    pub fn search_slice(&mut self, s: &[u8]) -> usize {\n        s.len() + self.n as usize\n    }\n}\n",
        )
        .file(
            "src/user.rs",
            "use crate::builder::Builder;\nuse crate::searcher::Searcher;\n\npub fn made() -> Searcher {\n    Searcher::with(1)\n}\n\npub fn chained() -> usize {\n    let mut s = Builder::new().line(2).build().unwrap();\n    s.search_slice(b\"y\")\n}\n\npub fn inline() -> usize {\n    Builder::new().line(3).build().expect(\"built\").search_slice(b\"z\")\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi([
            "lookup",
            "src/searcher.rs",
            "--member",
            "Searcher.search_slice",
        ])
        .success()
        .stdout;
    assert!(
        out.contains("- Called from: src/user.rs (chained, inline)"),
        "{out}"
    );
}

/// An attribute a class's `__init__` sets (`self.x: T = v`) opens with its line, its value and
/// its `#:` doc: where the data a method fills is created (flask's `before_request_funcs`).
#[test]
fn an_attribute_set_in_init_shows_where_it_is_made() {
    let p = project()
        .file(
            "pkg/scaffold.py",
            "from collections import defaultdict\n\n\nclass Scaffold:\n    def __init__(self, name):\n        self.name = name\n\n        #: Functions to call before each request, by blueprint.\n        self.before_request_funcs: dict[str, list] = defaultdict(list)\n\n    def before_request(self, f):\n        self.before_request_funcs.setdefault(None, []).append(f)\n        return f\n\n\nclass Blueprint:\n    def __init__(self):\n        #: Deferred functions, run on registration.\n        self.deferred_functions: list = []\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi([
            "lookup",
            "pkg/scaffold.py",
            "--member",
            "before_request_funcs",
        ])
        .success()
        .stdout;
    assert!(
        out.starts_with("# pkg/scaffold.py: Scaffold.before_request_funcs (variable, line 9)"),
        "{out}"
    );
    assert!(out.contains("= defaultdict(list)"), "{out}");
    assert!(
        out.contains("Functions to call before each request, by blueprint."),
        "{out}"
    );
    // The first statement of `__init__`: its comment sits before the body in the grammar.
    let first = p
        .lexi([
            "lookup",
            "pkg/scaffold.py",
            "--member",
            "deferred_functions",
        ])
        .success()
        .stdout;
    assert!(
        first.contains("Deferred functions, run on registration."),
        "{first}"
    );
}

/// Issue 31 (what the judges ranked second): where an uncaught error goes — up the callers to the
/// nearest `try` whose handler catches it, a call in a handler or a callback not guarded.
#[test]
fn member_impact_follows_a_raised_error_to_the_caller_that_catches_it() {
    let p = project()
        .file("pyproject.toml", "[project]\nname = \"pkg\"\n")
        .file(
            "src/pkg/app.py",
            "\"\"\"The application.\"\"\"\n\n\nclass App:\n    def make_response(self, rv):\n        \"\"\"Make a response.\"\"\"\n        if rv is None:\n            raise TypeError(\"The view function did not return a valid response.\")\n        if rv == 0:\n            raise KeyboardInterrupt()\n        return rv\n\n    def finalize_request(self, rv):\n        return self.make_response(rv)\n\n    def full_dispatch_request(self):\n        try:\n            rv = self.dispatch_request()\n        except KeyError as e:\n            rv = self.handle_user_exception(e)\n        return self.finalize_request(rv)\n\n    def handle_exception(self, e):\n        return self.finalize_request(None)\n\n    def wsgi_app(self, environ):\n        try:\n            try:\n                response = self.full_dispatch_request()\n            except Exception as e:\n                response = self.handle_exception(e)\n        finally:\n            environ.clear()\n        return response\n",
        )
        .file(
            "tests/test_app.py",
            "from pkg.app import App\n\n\ndef test_wsgi():\n    App().wsgi_app({})\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["impact", "src/pkg/app.py", "--member", "make_response"])
        .success();
    let section: String = out
        .stdout
        .split("\n## ")
        .find(|part| part.starts_with("Where its errors go"))
        .map(str::to_string)
        .unwrap_or_default();
    insta::assert_snapshot!("impact_member_errors_go", section);
    out.stdout_has(
        "- TypeError → App.finalize_request → App.full_dispatch_request → caught in src/pkg/app.py: App.wsgi_app by `except Exception as e`",
    )
    .stdout_has("- TypeError → App.finalize_request → App.handle_exception → src/pkg/app.py: App.wsgi_app: not caught")
    .stdout_has("- KeyboardInterrupt → App.finalize_request → App.full_dispatch_request → src/pkg/app.py: App.wsgi_app: not caught");
    let json = p
        .lexi([
            "impact",
            "src/pkg/app.py",
            "--member",
            "make_response",
            "--format",
            "json",
        ])
        .success()
        .json();
    assert_eq!(json["errors"][0]["error"], "TypeError");
    assert_eq!(json["errors"][0]["caught"][0]["member"], "App.wsgi_app");
    assert_eq!(json["errors"][0]["caught"][0]["line"], 29);
}

/// A JavaScript `catch` catches everything, but not what a callback defined in its `try` throws
/// later; a member raising nothing named has no section.
#[test]
fn member_impact_errors_in_javascript_stop_at_a_catch_not_around_a_callback() {
    let p = project()
        .file("package.json", "{\"name\": \"app\", \"main\": \"lib/app.js\"}\n")
        .file(
            "lib/app.js",
            "'use strict';\n\nvar app = exports = module.exports = {};\n\napp.check = function check(fn) {\n  if (typeof fn !== 'function') {\n    throw new TypeError('a middleware function is required');\n  }\n  return fn;\n};\n\napp.use = function use(fn) {\n  try {\n    return this.check(fn);\n  } catch (err) {\n    return null;\n  }\n};\n\napp.later = function later(list) {\n  try {\n    list.forEach(function (fn) { app.check(fn); });\n  } catch (err) {\n    return null;\n  }\n};\n\napp.plain = function plain() {\n  return 1;\n};\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["impact", "lib/app.js", "--member", "app.check"])
        .success();
    out.stdout_has("- TypeError → caught in lib/app.js: app.use by `catch (err)` (line 14)")
        .stdout_has(
            "- TypeError → lib/app.js: app.later: not caught (no caller found outside tests)",
        );
    p.lexi(["impact", "lib/app.js", "--member", "app.plain"])
        .success()
        .stdout_lacks("Where its errors go");
}

/// Issue 31 (the judges' costliest miss, flask's `AppContext.push`): `with x:` calls
/// `x.__enter__()` and `x.__exit__(…)`, so a member entering a context of a told type is a caller
/// of its `__enter__` — and, through it, of what `__enter__` calls.
#[test]
fn a_with_statement_on_a_typed_object_calls_its_enter_and_exit() {
    let p = project()
        .file("pyproject.toml", "[project]\nname = \"pkg\"\n")
        .file(
            "src/pkg/ctx.py",
            "\"\"\"Contexts.\"\"\"\n\n\nclass AppContext:\n    def push(self):\n        \"\"\"Bind the context.\"\"\"\n        return self\n\n    def pop(self):\n        return None\n\n    def __enter__(self):\n        self.push()\n        return self\n\n    def __exit__(self, *args):\n        self.pop()\n",
        )
        .file(
            "src/pkg/app.py",
            "\"\"\"The application.\"\"\"\n\nfrom .ctx import AppContext\n\n\nclass App:\n    def app_context(self) -> AppContext:\n        return AppContext()\n\n    def run(self):\n        with self.app_context():\n            return 1\n\n    def shell(self):\n        ctx = AppContext()\n        with ctx as bound:\n            return bound\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let out = p
        .lexi(["impact", "src/pkg/ctx.py", "--member", "AppContext.push"])
        .success();
    out.stdout_has("- src/pkg/ctx.py: AppContext.__enter__ (calls AppContext.push)")
        .stdout_has("- src/pkg/app.py: App.run, App.shell (calls AppContext.__enter__)");
    p.lexi([
        "lookup",
        "src/pkg/ctx.py",
        "--member",
        "AppContext.__exit__",
    ])
    .success()
    .stdout_has("Called from: src/pkg/app.py (App.run, App.shell)");
}
