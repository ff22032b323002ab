//! Go (fixtures/projects/go, a module `example.com/shop` with a `render` package, a command and
//! tests of both kinds): the exported interface with doc comments, imports resolved through
//! `go.mod` to the package's files, `_test.go` files mapped to the package they test, a clean
//! `validate` and a second update that changes nothing.

use crate::support::{project, TestProject};

fn shop() -> TestProject {
    let p = project()
        .fixture("go")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    p
}

/// The lines of section `heading` of `source`'s design file.
fn section(p: &TestProject, source: &str, heading: &str) -> Vec<String> {
    let text = p.read(&format!(".lexibrary/{source}.md"));
    text.lines()
        .skip_while(|line| *line != format!("## {heading}"))
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .filter_map(|line| line.strip_prefix("- "))
        .map(str::to_string)
        .collect()
}

/// The design file's text above its footer.
fn design(p: &TestProject, source: &str) -> String {
    let text = p.read(&format!(".lexibrary/{source}.md"));
    text.split("<!-- lexibrarian:meta")
        .next()
        .unwrap_or("")
        .to_string()
}

#[test]
fn design_files_show_the_exported_interface_and_the_package_doc_describes() {
    let p = shop();
    let mut snapshot = String::new();
    for source in [
        "cart.go",
        "doc.go",
        "cart_test.go",
        "render/text.go",
        "cmd/shop/main.go",
    ] {
        snapshot.push_str(&format!("==> {source}\n{}", design(&p, source)));
    }
    insta::assert_snapshot!(snapshot);
}

#[test]
fn imports_resolve_through_go_mod_to_the_files_of_the_package() {
    let p = shop();
    assert_eq!(
        section(&p, "cart.go", "Dependencies"),
        ["render/render.go", "render/text.go"]
    );
    assert_eq!(
        section(&p, "cart.go", "External Dependencies"),
        ["github.com/spf13/pflag"]
    );
    // The command imports the root package: every non-test file of it, not its tests.
    assert_eq!(
        section(&p, "cmd/shop/main.go", "Dependencies"),
        ["cart.go", "doc.go"]
    );
    assert!(section(&p, "render/text.go", "Dependencies").is_empty());
    let go_mod = p.read(".lexibrary/go.mod.md");
    assert!(
        go_mod.contains("Go module `example.com/shop`, requiring 1 module."),
        "{go_mod}"
    );
}

#[test]
fn test_files_are_mapped_to_the_package_they_test() {
    let p = shop();
    // `package shop` tests import nothing of their package; `package render_test` imports it.
    assert_eq!(section(&p, "cart.go", "Tests"), ["cart_test.go"]);
    assert_eq!(
        section(&p, "render/text.go", "Tests"),
        ["render/text_test.go"]
    );
    p.lexi(["lookup", "cart.go"])
        .success()
        .stdout_has("cart_test.go");
}

#[test]
fn the_library_validates_and_a_second_update_changes_nothing() {
    let p = shop();
    p.lexictl(["validate"]).success();
    p.commit_all("library");
    p.lexictl(["update", "--check"]).success();
    p.lexictl(["update"]).success();
    let status = p.git(["status", "--porcelain"]).success();
    assert_eq!(status.stdout, "");
}

#[test]
fn members_show_their_calls_callers_and_what_they_raise() {
    let p = shop();
    let new = p.lexi(["lookup", "cart.go", "--member", "New"]).success();
    new.stdout_has("func New(owner string) *Cart")
        .stdout_has("Raises: panic (\"shop: a cart needs an owner\")");
    let add = p.lexi(["lookup", "cart.go", "--member", "Add"]).success();
    add.stdout_has("Cart.Add")
        .stdout_has("Raises: fmt.Errorf (\"add %s: %w\")");
    // `c.Items` of `func (c *Cart)`: the receiver is the method's own.
    let total = p.lexi(["lookup", "cart.go", "--member", "Total"]).success();
    total.stdout_has("render.Text");
}

#[test]
fn conventions_come_from_go_mod_and_golangci_lint() {
    let p = shop();
    p.lexi(["conventions"])
        .success()
        .stdout_has("Go 1.21 (go.mod `go` directive)")
        .stdout_has("gofmt formats every Go file")
        .stdout_has("linters enabled: errcheck, govet; formatters: gofmt. (.golangci.yml)")
        .stdout_has("`go test ./...` runs the tests");
}

#[test]
fn a_file_added_to_a_package_joins_its_importers_dependencies_in_a_changed_only_run() {
    let p = shop();
    p.commit_all("library");
    p.write(
        "render/html.go",
        "package render\n\n// HTML escapes s.\nfunc HTML(s string) string { return s }\n",
    );
    p.commit_all("an HTML renderer");
    p.lexictl(["update", "--changed-only"]).success();
    assert_eq!(
        section(&p, "cart.go", "Dependencies"),
        ["render/html.go", "render/render.go", "render/text.go"]
    );
    assert_eq!(
        section(&p, "render/html.go", "Dependents"),
        ["cart.go", "render/text_test.go"]
    );
    p.git(["rm", "-q", "render/html.go"]).success();
    p.commit_all("no HTML after all");
    p.lexictl(["update", "--changed-only"]).success();
    assert_eq!(
        section(&p, "cart.go", "Dependencies"),
        ["render/render.go", "render/text.go"]
    );
    p.lexictl(["validate"]).success();
}
