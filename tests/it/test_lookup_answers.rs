//! What `lexi lookup` answers an agent about to change a file without reading it: the tests that
//! exercise it, most directly first (ranked as `lexi impact` ranks them); the members' docs with
//! the lines a caller must know (parameters, returns, errors, accepted forms) while the budget has
//! room; CommonJS getters defined through a helper as members; dependents that import the file
//! only for types marked. Fixtures modelled on express (`express-like`: request/response
//! prototypes, `test/res.*.js`) and flask (`flask-like`: `App.make_response`'s docstring).

use crate::support::{project, TestProject};

fn express_like() -> TestProject {
    let p = project().fixture("express-like").init().build();
    p.lexictl(["update"]).success();
    p
}

fn flask_like() -> TestProject {
    let p = project().fixture("flask-like").init().build();
    p.lexictl(["update"]).success();
    p
}

/// The lines of the `## Tests` section of a lookup's text.
fn tests_section(text: &str) -> Vec<&str> {
    text.split("\n## Tests\n\n")
        .nth(1)
        .unwrap_or_default()
        .split("\n\n")
        .next()
        .unwrap_or_default()
        .lines()
        .collect()
}

/// express's `lib/response.js` is imported by no test: the tests require the package (`..` →
/// `lib/express.js` → `lib/response.js`). Those named for the response's members come first.
#[test]
fn lookup_lists_the_tests_named_for_the_file_and_its_members_first() {
    let p = express_like();
    let out = p.lexi(["lookup", "lib/response.js"]).success();
    // The compact lookup: the count and the first three.
    out.stdout_has("Tests (13): test/res.json.js, test/res.jsonp.js, test/res.send.js, … +10\n");
    assert!(
        !out.stdout.contains("test/support/utils.js"),
        "a helper is no test"
    );
    insta::assert_snapshot!("lookup_response_like_express", out.stdout);

    let full = p.lexi(["lookup", "--full", "lib/response.js"]).success();
    let all = tests_section(&full.stdout);
    assert_eq!(all.len(), 13, "{}", full.stdout);
    assert_eq!(
        all[..4],
        [
            "- test/res.json.js",
            "- test/res.jsonp.js",
            "- test/res.send.js",
            "- test/res.status.js"
        ],
        "{}",
        full.stdout
    );
    assert!(all.iter().all(|line| line.starts_with("- test/")));
    assert!(
        !full.stdout.contains("test/support/utils.js"),
        "a helper is no test"
    );

    let json = p
        .lexi(["lookup", "lib/response.js", "--format", "json"])
        .success()
        .json();
    assert_eq!(json["tests"][0], "test/res.json.js");
    assert_eq!(json["tests"].as_array().map(Vec::len), Some(10));
    assert_eq!(json["tests_left_out"], 3);

    // One ranking: `lexi impact` lists the same tests in the same order.
    let impact = p
        .lexi(["impact", "lib/response.js", "--format", "json"])
        .success()
        .json();
    let impact_tests: Vec<&str> = impact["tests"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t.as_str())
        .collect();
    let lookup_tests: Vec<&str> = all.iter().map(|l| &l[2..]).collect();
    assert_eq!(impact_tests, lookup_tests);
}

/// express's request defines its getters through a local helper that forwards to
/// `Object.defineProperty`; each is a member with its doc, as `Object.defineProperty` itself is.
#[test]
fn getters_defined_through_a_forwarding_helper_are_members() {
    let p = express_like();
    let out = p.lexi(["lookup", "lib/request.js"]).success();
    for line in [
        "- req.protocol // getter — Return the protocol string \"http\" or \"https\" when requested with TLS.",
        "- req.secure // getter — Short-hand for `req.protocol === 'https'`.",
        "- req.proxied // getter — Whether the request came through a proxy.",
        "- req.get(name) — Return request header.",
    ] {
        assert!(out.stdout.contains(line), "{line}\n{}", out.stdout);
    }
    assert!(!out.stdout.contains("defineGetter"), "{}", out.stdout);
    out.stdout_has("Tests (13): test/req.get.js, test/req.protocol.js, ");
    let full = p.lexi(["lookup", "lib/request.js", "--full"]).success();
    for line in [
        "req.protocol  // getter — Return the protocol string \"http\" or \"https\" when requested with TLS.",
        "req.get = function header(name)  // Return request header.",
    ] {
        assert!(full.stdout.contains(line), "{line}\n{}", full.stdout);
    }
    let tests = tests_section(&full.stdout);
    assert_eq!(tests[..2], ["- test/req.get.js", "- test/req.protocol.js"]);
}

/// flask's `App.make_response` lists the return values it accepts in its docstring: the compact
/// lookup gives the method its first sentence, `--full` (and `--member`) the forms, one line each,
/// under the method.
#[test]
fn lookup_shows_a_methods_parameters_and_the_forms_it_accepts() {
    let p = flask_like();
    let compact = p.lexi(["lookup", "src/flaskish/app.py"]).success();
    insta::assert_snapshot!("lookup_app_like_flask", compact.stdout);
    compact.stdout_has(
        "  - make_response(rv) — Convert the return value from a view function to an instance of",
    );
    let out = p
        .lexi(["lookup", "src/flaskish/app.py", "--full"])
        .success();
    for line in [
        "    # rv: the return value from the view function.",
        "    #   - str: A response object is created with the string encoded to UTF-8 as the body.",
        "    #   - tuple: Either (body, status, headers), (body, status), or (body, headers).",
        "    #   - response_class: The object is returned unchanged.",
        "    # raises TypeError: when the value is none of these.",
        "    # rule (str): The URL rule string.",
        "    # returns: The decorator.",
    ] {
        assert!(out.stdout.contains(line), "{line}\n{}", out.stdout);
    }
    assert!(!out.stdout.contains("versionchanged"), "{}", out.stdout);
    // The design file keeps first sentences only; its contract is unchanged.
    let design = p.read(".lexibrary/src/flaskish/app.py.md");
    assert!(!design.contains("- str:"), "{design}");
}

/// `src/flaskish/typing.py` imports the app only under `if TYPE_CHECKING:`: the app's Dependents
/// say so, as its Dependencies would.
#[test]
fn dependents_that_import_only_for_types_are_marked() {
    let p = flask_like();
    let out = p.lexi(["lookup", "src/flaskish/app.py"]).success();
    out.stdout_has(
        "Dependents (3, 1 type-only): src/flaskish/__init__.py, tests/test_app.py, src/flaskish/typing.py (type-only)",
    );
    let json = p
        .lexi(["lookup", "src/flaskish/app.py", "--format", "json"])
        .success()
        .json();
    let dependents = json["sections"]
        .as_array()
        .into_iter()
        .flatten()
        .find(|s| s["heading"] == "Dependents")
        .map(|s| s["body"].as_str().unwrap_or_default().to_string())
        .unwrap_or_default();
    assert!(
        dependents.contains("- src/flaskish/typing.py (type-only)")
            && !dependents.contains("__init__.py (type-only)"),
        "{dependents}"
    );
    let full = p
        .lexi(["lookup", "--full", "src/flaskish/app.py"])
        .success();
    full.stdout_has("- src/flaskish/typing.py (type-only)");
}
