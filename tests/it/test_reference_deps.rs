//! Dependencies checked against independent references (`tools/depcheck`: SCIP indexers for
//! Python and JS/TS, rust-analyzer for Rust): each test is one general cause of a differing edge
//! found on a real repository, in small.

use crate::support::{project, TestProject};

/// The `## Dependencies` list of `source`'s design file, one path a line.
fn dependencies(p: &TestProject, source: &str) -> Vec<String> {
    let text = p.read(&format!(".lexibrary/{source}.md"));
    text.lines()
        .skip_while(|line| *line != "## Dependencies")
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .filter_map(|line| line.strip_prefix("- "))
        .map(str::to_string)
        .collect()
}

/// A Python package with submodules `json` and `views`, and a helper its `__init__` re-exports.
fn python_package() -> crate::support::ProjectBuilder {
    project()
        .file(
            "pyproject.toml",
            "[project]\nname = \"web\"\nversion = \"1.0\"\n",
        )
        .file(
            "src/web/__init__.py",
            "\"\"\"A web framework.\"\"\"\nfrom .helpers import make_response as make_response\n",
        )
        .file(
            "src/web/helpers.py",
            "\"\"\"Helpers.\"\"\"\ndef make_response(x):\n    return x\n",
        )
        .file(
            "src/web/json.py",
            "\"\"\"JSON.\"\"\"\ndef dumps(x):\n    return str(x)\n",
        )
        .file(
            "src/web/views.py",
            "\"\"\"Views.\"\"\"\nclass View:\n    pass\n",
        )
        .config("scope_root: .\n")
}

#[test]
fn a_plain_python_import_beside_a_from_import_of_the_same_package_depends_on_the_package() {
    let p = python_package()
        .file(
            "tests/test_json.py",
            "import web\nfrom web import json\n\ndef test_dumps():\n    assert json.dumps(web.make_response(1)) == \"1\"\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    assert_eq!(
        dependencies(&p, "tests/test_json.py"),
        ["src/web/__init__.py", "src/web/json.py"]
    );
}

#[test]
fn importing_a_python_submodule_depends_on_the_package_the_name_binds() {
    let p = python_package()
        .file(
            "tests/test_views.py",
            "import web.views\n\ndef test_view():\n    assert web.make_response(web.views.View)\n",
        )
        .file(
            "tests/test_view_only.py",
            "import web.views\n\ndef test_view():\n    assert web.views.View\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    assert_eq!(
        dependencies(&p, "tests/test_views.py"),
        ["src/web/__init__.py", "src/web/views.py"]
    );
    // The name `web` used only to reach the submodule it imported: the package is not used.
    assert_eq!(
        dependencies(&p, "tests/test_view_only.py"),
        ["src/web/views.py"]
    );
}

/// A directory a `conftest.py` puts on `sys.path` from its own place (flask's `test_apps` fixture:
/// `monkeypatch.syspath_prepend(os.path.join(os.path.dirname(__file__), "test_apps"))`) is where
/// the tests below it import from; a changed-only run that edits the conftest reads it again.
#[test]
fn a_directory_a_conftest_adds_to_sys_path_is_a_root_of_the_tests_below_it() {
    let conftest = "import os\nimport pytest\n\n@pytest.fixture\ndef test_apps(monkeypatch):\n    monkeypatch.syspath_prepend(os.path.join(os.path.dirname(__file__), \"test_apps\"))\n";
    let p = python_package()
        .file("tests/conftest.py", conftest)
        .file(
            "tests/test_apps/blueprintapp/__init__.py",
            "\"\"\"A sample app.\"\"\"\napp = object()\n",
        )
        .file(
            "tests/test_blueprints.py",
            "def test_templates(test_apps):\n    from blueprintapp import app\n    assert app\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    assert_eq!(
        dependencies(&p, "tests/test_blueprints.py"),
        ["tests/test_apps/blueprintapp/__init__.py"]
    );
    p.commit_all("library");
    p.write("tests/conftest.py", "import pytest\n");
    p.commit_all("no sample apps on the path");
    p.lexictl(["update", "--changed-only"]).success();
    assert!(dependencies(&p, "tests/test_blueprints.py").is_empty());
    p.lexictl(["update"])
        .success()
        .stdout_has("wrote 0 design files");
}

/// A Rust binary whose modules use `macro_rules!` macros by their bare names, as ripgrep's
/// `message!` and clap's `debug!`: from a `#[macro_use] mod`, from an ancestor module that defines
/// one before declaring the child, and one the file defines itself.
fn rust_textual_macros() -> crate::support::ProjectBuilder {
    project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file(
            "src/main.rs",
            "//! The app.\n#[macro_use]\nmod messages;\nmod search;\nmod util;\n\nfn main() {\n    search::run();\n    message!(\"done\");\n}\n",
        )
        .file(
            "src/messages.rs",
            "//! Messages.\nmacro_rules! message {\n    ($($tt:tt)*) => { eprintln!($($tt)*) };\n}\n",
        )
        .file(
            "src/search.rs",
            "//! Searching.\npub fn run() {\n    message!(\"searching {}\", crate::util::walk::count());\n}\n",
        )
        .file(
            "src/util/mod.rs",
            "//! Utilities.\nmacro_rules! debug {\n    ($($tt:tt)*) => {};\n}\npub mod walk;\n",
        )
        .file(
            "src/util/walk.rs",
            "//! Walking.\nmacro_rules! message {\n    ($($tt:tt)*) => {};\n}\npub fn count() -> usize {\n    debug!(\"count\");\n    message!(\"own\");\n    0\n}\n",
        )
        .config("scope_root: .\n")
}

#[test]
fn a_bare_macro_call_depends_on_the_file_whose_macro_rules_is_in_its_textual_scope() {
    let p = rust_textual_macros().init().build();
    p.lexictl(["update"]).success();
    assert_eq!(
        dependencies(&p, "src/search.rs"),
        ["src/messages.rs", "src/util/walk.rs"]
    );
    assert_eq!(
        dependencies(&p, "src/main.rs"),
        ["src/messages.rs", "src/search.rs", "src/util/mod.rs"]
    );
    // `debug!` from the parent that defines it before `mod walk;`; `message!` is its own.
    assert_eq!(dependencies(&p, "src/util/walk.rs"), ["src/util/mod.rs"]);
}

#[test]
fn a_macro_that_moves_takes_its_callers_with_it_in_a_changed_only_run() {
    let p = rust_textual_macros().init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    // `message!` moves into a `#[macro_use]` child of messages.rs: only that module changes.
    p.write(
        "src/messages.rs",
        "//! Messages.\n#[macro_use]\nmod text;\n",
    );
    p.write(
        "src/messages/text.rs",
        "//! Message text.\nmacro_rules! message {\n    ($($tt:tt)*) => { eprintln!($($tt)*) };\n}\n",
    );
    p.commit_all("move message!");
    p.lexictl(["update", "--changed-only"]).success();
    assert_eq!(
        dependencies(&p, "src/search.rs"),
        ["src/messages/text.rs", "src/util/walk.rs"]
    );
    // main.rs, which search.rs does not depend on, defines a `message!` before `mod search;`: it
    // shadows the one of `messages`, and only main.rs changed.
    p.write(
        "src/main.rs",
        p.read("src/main.rs").replace(
            "mod search;",
            "macro_rules! message {\n    ($($tt:tt)*) => {};\n}\nmod search;",
        ),
    );
    p.commit_all("a message! of its own");
    p.lexictl(["update", "--changed-only"]).success();
    assert_eq!(
        dependencies(&p, "src/search.rs"),
        ["src/main.rs", "src/util/walk.rs"]
    );
    // A full run finds nothing more to write.
    p.lexictl(["update"])
        .success()
        .stdout_has("wrote 0 design files");
}

/// A facade crate that re-exports a builder crate with a glob and a proc-macro crate's derive by
/// name, as clap does (`pub use clap_builder::*; pub use clap_derive::Parser;`).
fn rust_facade() -> crate::support::ProjectBuilder {
    project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"app\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\ncli = { path = \"cli\" }\n\n[workspace]\nmembers = [\"cli\", \"cli_builder\", \"cli_derive\"]\n",
        )
        .file(
            "cli/Cargo.toml",
            "[package]\nname = \"cli\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\ncli_builder = { path = \"../cli_builder\" }\ncli_derive = { path = \"../cli_derive\" }\n",
        )
        .file(
            "cli/src/lib.rs",
            "//! The facade.\npub use cli_builder::*;\npub use cli_derive::Parser;\n",
        )
        .file(
            "cli_builder/Cargo.toml",
            "[package]\nname = \"cli_builder\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file(
            "cli_builder/src/lib.rs",
            "//! The builder.\nmod action;\nmod derive;\npub use crate::action::ArgAction;\npub use crate::derive::Parser;\n",
        )
        .file(
            "cli_builder/src/action.rs",
            "//! Actions.\npub enum ArgAction {\n    Set,\n    Count,\n}\n",
        )
        .file(
            "cli_builder/src/derive.rs",
            "//! The derive traits.\npub trait Parser: Sized {\n    fn parse() -> Self;\n}\n",
        )
        .file(
            "cli_derive/Cargo.toml",
            "[package]\nname = \"cli_derive\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lib]\nproc-macro = true\n",
        )
        .file(
            "cli_derive/src/lib.rs",
            "//! The derives.\nuse proc_macro::TokenStream;\n\n#[proc_macro_derive(Parser, attributes(arg))]\npub fn parser(input: TokenStream) -> TokenStream {\n    input\n}\n",
        )
        .config("scope_root: .\n")
}

#[test]
fn a_use_of_a_name_a_facade_binds_as_a_derive_and_through_a_glob_as_a_trait_depends_on_what_is_used(
) {
    let p = rust_facade()
        .file(
            "src/main.rs",
            "//! The app.\nmod shell;\nuse cli::Parser;\n\n#[derive(Parser)]\nstruct Args;\n\nfn main() {\n    let _ = Args::parse();\n}\n",
        )
        .file(
            "src/shell.rs",
            "//! A shell.\nuse cli::Parser;\n\npub struct Shell;\n\nimpl Parser for Shell {\n    fn parse() -> Self {\n        Shell\n    }\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    // The derive macro (macro namespace) and the trait (type namespace, through the glob).
    assert_eq!(
        dependencies(&p, "src/main.rs"),
        [
            "cli_builder/src/derive.rs",
            "cli_derive/src/lib.rs",
            "src/shell.rs"
        ]
    );
    // Only the trait: the name is never used as a macro.
    assert_eq!(
        dependencies(&p, "src/shell.rs"),
        ["cli_builder/src/derive.rs"]
    );
}

#[test]
fn paths_in_derive_helper_attribute_arguments_are_dependencies() {
    let p = rust_facade()
        .file(
            "src/main.rs",
            "//! The app.\n#[derive(cli::Parser)]\nstruct Args {\n    #[arg(short, action = cli::ArgAction::Count)]\n    #[allow(clippy::struct_field_names)]\n    verbose: u8,\n}\n\nfn main() {}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    // `cli::Parser` in a derive is the macro only.
    assert_eq!(
        dependencies(&p, "src/main.rs"),
        ["cli_builder/src/action.rs", "cli_derive/src/lib.rs"]
    );
}
