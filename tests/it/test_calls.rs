//! `lexi lookup --full`'s `## Calls` and `## Called from` (a plain lookup counts them on one line)
//! on the `calls` fixture: express's response.js
//! pattern (CommonJS members calling each other through `this.`) and flask's app.py/helpers.py
//! pattern (`self.make_response(rv)` in the same class, `current_app.make_response(…)` in a module
//! the application imports).

use crate::support::{project, TestProject};

fn updated() -> TestProject {
    let p = project().fixture("calls").init().build();
    p.lexictl(["update"]).success();
    p
}

/// The text from `## Calls` on, up to the inherited conventions.
fn calls_part(stdout: &str) -> String {
    let start = stdout
        .find("\n## Calls")
        .or_else(|| stdout.find("\n## Called from"));
    let part = start.map_or("", |start| &stdout[start..]);
    let end = part.find("\n## Inherited").unwrap_or(part.len());
    part[..end].trim().to_string()
}

#[test]
fn commonjs_members_calling_each_other_through_this() {
    let p = updated();
    let out = p.lexi(["lookup", "lib/response.js", "--full"]).success();
    insta::assert_snapshot!("calls_response_js", calls_part(&out.stdout));
}

#[test]
fn python_methods_and_a_helper_calling_through_a_proxy() {
    let p = updated();
    let out = p.lexi(["lookup", "src/shop/app.py", "--full"]).success();
    insta::assert_snapshot!("calls_app_py", calls_part(&out.stdout));
    // A helper defines `make_response` itself: its own bare calls of it are no call into app.py,
    // but `current_app.make_response(…)` is.
    let helpers = p
        .lexi(["lookup", "src/shop/helpers.py", "--full"])
        .success();
    helpers.stdout_has("- get_debug_flag ← src/shop/app.py (App.make_response)");
}

#[test]
fn json_lists_calls_and_callers_whole() {
    let p = updated();
    let value = p
        .lexi(["lookup", "src/shop/app.py", "--format", "json"])
        .json();
    insta::assert_json_snapshot!(
        "calls_app_py_json",
        serde_json::json!({"calls": value["calls"], "called_from": value["called_from"]})
    );
}

#[test]
fn callers_follow_the_callers_changes() {
    let p = updated();
    p.write(
        "src/shop/views.py",
        "\"\"\"Views.\"\"\"\n\nfrom .app import App\n\n\ndef index(app: App):\n    \"\"\"The front page.\"\"\"\n    return app.finalize_request(\"hi\")\n",
    );
    p.lexictl(["update"]).success();
    let out = p.lexi(["lookup", "src/shop/app.py", "--full"]).success();
    out.stdout_has("- finalize_request ← src/shop/views.py (index)")
        .stdout_lacks("full_dispatch_request ←");
}

#[test]
fn no_sections_before_the_first_update() {
    let p = project().fixture("calls").init().build();
    p.design_file(
        "src/shop/app.py",
        "The application object.",
        "## Interface Contract\n\n(none)",
    );
    p.lexi(["lookup", "src/shop/app.py", "--full"])
        .success()
        .stdout_lacks("## Calls")
        .stdout_lacks("## Called from");
    p.lexi(["lookup", "src/shop/app.py"])
        .success()
        .stdout_lacks("Calls:");
}
