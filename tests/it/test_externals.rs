//! What a design file says beyond the project's own files: the external packages a file imports
//! (`## External Dependencies`: npm packages, Python distributions' modules, Cargo dependencies —
//! never Node built-ins, the Python standard library, `std` or a workspace member) and the docs of
//! its members beside their signatures in the Interface Contract (`res.json = function json(obj)  //
//! Send JSON response.`).

use crate::support::project;

/// The body of section `heading` of `text`, up to the next heading or the footer.
fn section<'a>(text: &'a str, heading: &str) -> Option<&'a str> {
    let start = text.find(&format!("## {heading}\n"))? + heading.len() + 4;
    let rest = &text[start..];
    let end = ["\n## ", "\n<!-- lexibrarian:meta"]
        .iter()
        .filter_map(|marker| rest.find(marker))
        .min()
        .unwrap_or(rest.len());
    Some(rest[..end].trim())
}

#[test]
fn external_packages_are_listed_after_the_dependencies_and_member_docs_beside_their_signatures() {
    let p = project()
        .fixture("externals")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    p.lexictl(["validate"])
        .success()
        .stdout_has("0 errors, 0 warnings");

    // JavaScript: bare specifiers by package name; `fs` and `node:path` are the runtime.
    let app = p.read(".lexibrary/web/lib/application.js.md");
    assert_eq!(
        section(&app, "Dependencies"),
        Some("- web/lib/view.js"),
        "{app}"
    );
    assert_eq!(
        section(&app, "External Dependencies"),
        Some("- @scope/util\n- debug\n- router"),
        "{app}"
    );
    let dependencies = app.find("## Dependencies").expect("dependencies");
    let externals = app.find("## External Dependencies").expect("externals");
    let dependents = app.find("## Dependents").expect("dependents");
    assert!(dependencies < externals && externals < dependents, "{app}");
    // A file that imports nothing external has no such section.
    let view = p.read(".lexibrary/web/lib/view.js.md");
    assert!(!view.contains("External Dependencies"), "{view}");
    let response = p.read(".lexibrary/web/lib/response.js.md");
    assert!(!response.contains("External Dependencies"), "{response}");

    // A member assigned to the exported object keeps its doc's first sentence, tag lines dropped.
    assert!(
        response.contains("res.json = function json(obj)  // Send JSON response.\n"),
        "{response}"
    );
    assert!(
        response.contains("res.status = function status(code)  // Set the status code.\n"),
        "{response}"
    );
    assert!(
        app.contains(
            "app.handle = function handle(req, res)  // Dispatch a request into the router.\n"
        ),
        "{app}"
    );

    // Python: third-party top-level modules; the standard library and the project's own are not.
    let cart = p.read(".lexibrary/py/shop/cart.py.md");
    assert_eq!(
        section(&cart, "External Dependencies"),
        Some("- click\n- werkzeug"),
        "{cart}"
    );
    assert!(
        cart.contains("def add(self, item: Any) -> None  # Add one item to the cart.\n"),
        "{cart}"
    );

    // Rust: the package's Cargo dependencies by manifest key, named by a `use` or by a path in code
    // (`serde_json::from_str(…)`); a workspace member is a project crate.
    let lib = p.read(".lexibrary/crates/core/src/lib.rs.md");
    assert_eq!(
        section(&lib, "External Dependencies"),
        Some("- serde\n- serde_json"),
        "{lib}"
    );
    assert!(
        lib.contains("pub fn from_json(text: &str) -> Option<Item>  // Parse an item from JSON.\n"),
        "{lib}"
    );
    let main = p.read(".lexibrary/crates/app/src/main.rs.md");
    assert_eq!(
        section(&main, "Dependencies"),
        Some("- crates/core/src/lib.rs"),
        "{main}"
    );
    assert_eq!(
        section(&main, "External Dependencies"),
        Some("- anyhow"),
        "{main}"
    );

    // Search finds a file by the package it uses; a second update rewrites nothing.
    p.lexi(["search", "werkzeug"])
        .success()
        .stdout_has("py/shop/cart.py");
    p.lexictl(["update", "--check"]).success();
}

#[test]
fn lookup_full_shows_the_member_docs_a_tight_budget_left_out() {
    let p = project()
        .fixture("externals")
        .init()
        .config("scope_root: .\ntoken_budgets:\n  design_file_tokens: 200\n")
        .build();
    p.lexictl(["update"]).success();
    let response = p.read(".lexibrary/web/lib/response.js.md");
    let contract = section(&response, "Interface Contract").expect("contract");
    // Within the budget the signatures come first: no docs when they would not all fit.
    assert!(!contract.contains("// Send JSON response."), "{response}");
    assert!(
        contract.contains("res.json = function json(obj)"),
        "{response}"
    );
    let full = p
        .lexi(["lookup", "--full", "web/lib/response.js"])
        .success();
    assert!(
        full.stdout
            .contains("res.json = function json(obj)  // Send JSON response."),
        "{}",
        full.stdout
    );
    // A capped External Dependencies list is whole again from the last update's graph.
    let many = p.read(".lexibrary/web/lib/many.js.md");
    let capped = section(&many, "External Dependencies").expect("externals");
    assert!(
        capped.ends_with("more") && !capped.contains("package-p"),
        "{many}"
    );
    let full = p.lexi(["lookup", "--full", "web/lib/many.js"]).success();
    let names: Vec<String> = (b'a'..=b'p')
        .map(|c| format!("- package-{}", c as char))
        .collect();
    assert!(full.stdout.contains(&names.join("\n")), "{}", full.stdout);
}
