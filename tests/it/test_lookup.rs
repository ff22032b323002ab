//! `lexi lookup`: design file, staleness, inherited conventions, path handling, JSON.

use crate::support::{project, TestProject};

const BODY: &str = "## Interface Contract\n\n```rust\npub fn eval(input: &str) -> Result<i64, ParseError>\n## not a heading, inside the fence\n```\n\n## Dependencies\n\n- src/parser/mod.rs\n\n## Dependents\n\n(none)";

fn documented_rust_project() -> TestProject {
    let p = project().fixture("rust").init().build();
    p.design_file("src/lib.rs", "Evaluates arithmetic expressions.", BODY);
    p.write(
        ".lexibrary/.aindex",
        "# ./\n\nThe tiny-calc crate.\n\n## Child Map\n\n| Name | Type | Description |\n| --- | --- | --- |\n| `src/` | dir | Sources. |\n\n## Local Conventions\n\n- Use `i64` for every number.\n",
    );
    p.write(
        ".lexibrary/src/.aindex",
        "# src/\n\nLibrary sources.\n\n## Child Map\n\n| Name | Type | Description |\n| --- | --- | --- |\n| `lib.rs` | file | Evaluates arithmetic expressions. |\n\n## Local Conventions\n\n- Parsing never panics; return `ParseError`.\n",
    );
    p
}

#[test]
fn prints_the_design_file_with_inherited_conventions() {
    let p = documented_rust_project();
    let out = p.lexi(["lookup", "src/lib.rs"]).success();
    insta::assert_snapshot!("lookup_current", out.stdout);
    // The footer is machine data, not shown.
    out.stdout_lacks("lexibrarian:meta")
        .stdout_lacks("outdated");
}

#[test]
fn warns_when_the_source_changed() {
    let p = documented_rust_project();
    p.write("src/lib.rs", "pub fn eval() {}\n");
    let out = p.lexi(["lookup", "src/lib.rs"]).success();
    assert!(
        out.stdout.starts_with(
            "> ⚠️ This doc may be outdated. Source file changed since last update.\n\n# src/lib.rs\n"
        ),
        "{}",
        out.stdout
    );
}

#[test]
fn warns_when_the_source_is_gone() {
    let p = documented_rust_project();
    std::fs::remove_file(p.path("src/lib.rs")).expect("remove");
    p.lexi(["lookup", "src/lib.rs"])
        .success()
        .stdout_has("The source file no longer exists");
}

#[test]
fn json_has_frontmatter_sections_footer_conventions_and_staleness() {
    let p = documented_rust_project();
    let value = p.lexi(["lookup", "src/lib.rs", "--format", "json"]).json();
    // Hashes depend on the fixture bytes; check them, then redact them in the snapshot.
    assert_eq!(
        value["footer"]["source_hash"].as_str().map(str::len),
        Some(64)
    );
    insta::assert_json_snapshot!("lookup_json", value, {
        ".footer.source_hash" => "[hash]",
        ".footer.design_hash" => "[hash]",
    });
}

#[test]
fn relative_paths_work_from_subdirectories() {
    let p = documented_rust_project();
    let from_src = p.lexi(["lookup", "lib.rs"]).current_dir("src").success();
    let from_parser = p
        .lexi(["lookup", "../lib.rs"])
        .current_dir("src/parser")
        .run();
    let from_root = p.lexi(["lookup", "src/lib.rs"]).run();
    assert_eq!(from_src.stdout, from_root.stdout);
    assert_eq!(from_parser.stdout, from_root.stdout);
}

#[test]
fn git_lexi_is_the_same_command() {
    let p = documented_rust_project();
    let lexi = p.lexi(["lookup", "src/lib.rs"]).run();
    let git_lexi = p.bin("git-lexi", ["lookup", "src/lib.rs"]).run();
    assert_eq!(lexi.stdout, git_lexi.stdout);
    p.bin("git-lexi", ["--help"])
        .run()
        .stdout_has("Usage: git lexi <COMMAND>");
}

#[test]
fn missing_design_file_names_the_update_command() {
    let p = documented_rust_project();
    let out = p.lexi(["lookup", "src/parser/mod.rs"]).code(1);
    insta::assert_snapshot!("lookup_missing", out.stderr);
}

#[test]
fn refuses_paths_outside_the_project_and_inside_git() {
    let p = documented_rust_project();
    p.lexi(["lookup", "../../etc/passwd"])
        .current_dir("src")
        .code(1)
        .stderr_has("is outside the project root");
    p.lexi(["lookup", "/etc/passwd"])
        .code(1)
        .stderr_has("is outside the project root");
    p.lexi(["lookup", ".git/config"])
        .code(1)
        .stderr_has("inside .git/");
    p.lexi(["lookup", ".lexibrary/src/lib.rs.md"])
        .code(1)
        .stderr_has("is a library file");
}

#[test]
fn out_of_scope_files_and_directories_get_advice() {
    let p = documented_rust_project();
    p.lexi(["lookup", "Cargo.toml"])
        .code(1)
        .stderr_has("outside scope_root (src)");
    p.lexi(["lookup", "src"])
        .code(1)
        .stderr_has("try `lexi index src`");
    p.lexi(["lookup", "src/nope.rs"])
        .code(1)
        .stderr_has("no such file: src/nope.rs");
}

#[test]
fn paths_with_spaces_and_unicode_work() {
    let p = project().init().build();
    for source in ["docs and notes/read me.md", "src/naïve/日本.py"] {
        p.write(source, "text\n");
        p.design_file(source, "A file with an awkward name.", "## Notes\n\nfine");
        p.lexi(["lookup", source])
            .success()
            .stdout_has(&format!("# {source}"))
            .stdout_lacks("outdated");
    }
}

#[test]
fn outside_a_project_every_command_says_run_init() {
    let p = project().build();
    for args in [
        &["lookup", "a.rs"][..],
        &["index", "."][..],
        &["describe", ".", "x"][..],
    ] {
        p.lexi(args)
            .code(1)
            .stderr_has("not a Lexibrarian project")
            .stderr_has("run `lexictl init`");
    }
}

/// flask's `sansio/app.py` in small: a class whose class attributes, `__init__` and properties
/// come before the methods an agent calls, with long signatures that overflow the design file's
/// budget.
fn big_app_class() -> String {
    let mut module = String::from("\"\"\"The application object.\"\"\"\n\n\nclass App:\n    \"\"\"The central object.\"\"\"\n\n");
    for name in [
        "aborter_class",
        "jinja_environment",
        "config_class",
        "testing",
        "secret_key",
    ] {
        module.push_str(&format!("    {name} = None\n"));
    }
    module.push_str("\n    def __init__(self, import_name: str, static_url_path: str | None = None, static_folder: str | None = \"static\") -> None:\n        pass\n");
    for name in ["name", "logger", "jinja_env", "debug"] {
        module.push_str(&format!(
            "\n    @property\n    def {name}(self) -> str:\n        return \"\"\n"
        ));
    }
    for i in 0..12 {
        module.push_str(&format!(
            "\n    def register_handler_number_{i}(self, handler: Handler, *, priority: int = 0) -> None:\n        pass\n"
        ));
    }
    module.push_str("\n    def add_url_rule(self, rule: str, endpoint: str | None = None, view_func: RouteCallable | None = None) -> None:\n        pass\n");
    module
}

#[test]
fn a_cut_contract_keeps_the_primary_types_methods_and_lookup_shows_them_all() {
    let p = project()
        .fixture("python-src")
        .file("src/weather/app.py", big_app_class())
        .init()
        .build();
    p.lexictl(["update"]).success();
    let design = p.read(".lexibrary/src/weather/app.py.md");
    assert!(
        design.contains("more lines: read src/weather/app.py"),
        "the premise: the design file's contract is cut\n{design}"
    );
    // The methods an agent calls come before properties and `__init__` (the short class
    // attributes fill what room is left).
    assert!(
        design.contains("  def register_handler_number_0(self"),
        "{design}"
    );
    for kept_out in ["@property def name", "def __init__"] {
        assert!(!design.contains(kept_out), "{kept_out}\n{design}");
    }
    // The default lookup lists every member from the source, the last method too, without
    // `--full`: the methods with their parameter names, the class attributes by name.
    let short = p.lexi(["lookup", "src/weather/app.py"]).success().stdout;
    assert!(
        short.contains("  - add_url_rule(rule, endpoint, view_func)")
            && short.contains("aborter_class")
            && !short.contains("more lines: read"),
        "{short}"
    );
    // A changed source: the members it has now, under the staleness warning.
    p.write(
        "src/weather/app.py",
        big_app_class().replace("add_url_rule", "add_rule"),
    );
    let stale = p.lexi(["lookup", "src/weather/app.py"]).success().stdout;
    assert!(
        stale.starts_with("> ⚠️ This doc may be outdated.")
            && stale.contains("  - add_rule(rule, endpoint, view_func)")
            && !stale.contains("add_url_rule"),
        "{stale}"
    );
}

/// A design file keeps its members' docs only when the whole contract fits its budget; the default
/// lookup's larger budget shows them again, rendered from the unchanged source.
#[test]
fn lookup_shows_the_members_docs_the_design_files_budget_left_out() {
    let source = handlers_module(8, "its headers, its body and its route before answering");
    let p = project()
        .fixture("python-src")
        .file("src/weather/handlers.py", source)
        .init()
        .build();
    p.lexictl(["update"]).success();
    let design = p.read(".lexibrary/src/weather/handlers.py.md");
    assert!(
        design.contains("def handle_number_7") && !design.contains("Handle request number 7"),
        "the premise: every method is in the design file, without its doc\n{design}"
    );
    let shown = p
        .lexi(["lookup", "src/weather/handlers.py"])
        .success()
        .stdout;
    assert!(shown.contains("Handle request number 7"), "{shown}");
}

/// When even the lookup's budget cannot hold every member's line, the most important members (here
/// in source order) keep theirs and the others are named on an `also:` line — none dropped
/// silently — and `--full` has every doc.
#[test]
fn lookup_says_when_the_members_docs_do_not_fit() {
    let source = handlers_module(
        40,
        "its headers, its body, its cookies, its session and its route before answering with a response the caller can send back",
    );
    let p = project()
        .fixture("python-src")
        .file("src/weather/handlers.py", source)
        .init()
        .build();
    p.lexictl(["update"]).success();
    let shown = p
        .lexi(["lookup", "src/weather/handlers.py"])
        .success()
        .stdout;
    assert!(
        shown.contains("handle_number_39")
            && shown.contains("Handle request number 0 ")
            && !shown.contains("Handle request number 39")
            && shown.contains("  - also ("),
        "{shown}"
    );
    assert!(shown.len() <= 4096, "{} bytes", shown.len());
    let full = p
        .lexi(["lookup", "src/weather/handlers.py", "--full"])
        .success()
        .stdout;
    assert!(full.contains("Handle request number 39"), "{full}");
}

/// A Python module with one class of `count` documented methods: `handle_number_<i>`, documented
/// "Handle request number <i> by checking <checks>."
fn handlers_module(count: usize, checks: &str) -> String {
    let methods: String = (0..count)
        .map(|i| {
            format!(
                "    def handle_number_{i}(self, request):\n        \"\"\"Handle request number {i} by checking {checks}.\"\"\"\n        return request\n\n"
            )
        })
        .collect();
    format!("\"\"\"Request handlers.\"\"\"\n\n\nclass Handlers:\n    \"\"\"All the handlers.\"\"\"\n\n{methods}")
}
