//! Inherited members and inherited docs in `lexi lookup <file> --member <name>`: a Python class
//! asked for a method its base's base declares, an override without a doc showing the doc of the
//! method it overrides, a JavaScript `class … extends` base imported from another file, and a Rust
//! trait method of `impl Trait for Type` — with the members each overrides or implements and
//! those overriding or implementing it (`fixtures/projects/inherit-*`).

use crate::support::{project, TestProject};

fn updated(fixture: &str) -> TestProject {
    let p = project().fixture(fixture).init().build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn a_python_member_inherited_through_two_bases() {
    let p = updated("inherit-python");
    let out = p
        .lexi(["lookup", "src/web/app.py", "--member", "add_url_rule"])
        .success();
    insta::assert_snapshot!("inherited_python_add_url_rule", out.stdout);
    out.stdout_has("Server.add_url_rule — inherited from App (src/web/base.py)")
        .stdout_has("(doc inherited from Scaffold.add_url_rule, src/web/scaffold.py)");
    // Two bases up, by its qualified label too.
    let route = p
        .lexi(["lookup", "src/web/app.py", "--member", "Server.route"])
        .success();
    route
        .stdout_has("Server.route — inherited from Scaffold (src/web/scaffold.py)")
        .stdout_has("Decorate a view function");
    // Bases naming each other: the walk stops, and finds what one of them declares.
    p.lexi(["lookup", "src/web/cycle.py", "--member", "Left.spin"])
        .success()
        .stdout_has("Left.spin — inherited from Right (src/web/cycle.py)");
    p.lexi(["lookup", "src/web/cycle.py", "--member", "missing"])
        .code(1)
        .stderr_has("has no member `missing`");
    // A name no base declares is still an error.
    p.lexi(["lookup", "src/web/app.py", "--member", "dispatch"])
        .code(1)
        .stderr_has("has no member `dispatch`");
}

#[test]
fn an_override_without_a_doc_shows_the_overridden_doc() {
    let p = updated("inherit-python");
    let value = p
        .lexi([
            "lookup",
            "src/web/base.py",
            "--member",
            "add_url_rule",
            "--format",
            "json",
        ])
        .json();
    let member = &value["matches"][0];
    assert_eq!(member["label"], "App.add_url_rule");
    assert!(member.get("inherited_from").is_none(), "{member}");
    assert_eq!(
        member["doc_inherited_from"],
        "Scaffold.add_url_rule, src/web/scaffold.py"
    );
    assert!(member["doc"]
        .as_str()
        .unwrap()
        .starts_with("Register a rule for routing incoming requests"));
    // A member with a doc of its own keeps it.
    let run = p
        .lexi(["lookup", "src/web/app.py", "--member", "run"])
        .success();
    run.stdout_has("Serve on ``port``")
        .stdout_lacks("doc inherited");
}

#[test]
fn a_javascript_method_from_the_class_it_extends() {
    let p = updated("inherit-js");
    let out = p
        .lexi(["lookup", "lib/store.js", "--member", "on"])
        .success();
    insta::assert_snapshot!("inherited_js_on", out.stdout);
    out.stdout_has("Store.on — inherited from Emitter (lib/emitter.js)")
        .stdout_has("Add a listener called each time");
}

#[test]
fn a_rust_trait_method_for_an_implementing_type() {
    let p = updated("inherit-rust");
    let out = p
        .lexi(["lookup", "src/square.rs", "--member", "Square.area"])
        .success();
    insta::assert_snapshot!("inherited_rust_area", out.stdout);
    // Defined here, in `impl Shape for Square`: the trait's member it implements, and its doc.
    out.stdout_has(
        "# src/square.rs: Square.area (method, lines 9-11)\n\n```rust\nimpl Shape for Square\n",
    )
    .stdout_has("The area in square units.\n(doc inherited from Shape.area, src/shape.rs)")
    .stdout_has("- Implements: trait Shape.area (src/shape.rs)\n");
    // The trait's method lists what implements it.
    p.lexi(["lookup", "src/shape.rs", "--member", "Shape.area"])
        .success()
        .stdout_has("- Implemented by: Square.area (src/square.rs)\n");
    // A provided method the impl does not override.
    p.lexi(["lookup", "src/square.rs", "--member", "name"])
        .success()
        .stdout_has("Square.name — inherited from trait Shape (src/shape.rs)");
}
