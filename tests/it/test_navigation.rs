//! Navigation that answers an agent (issue 14): `lexi impact`, Local Conventions added by agents,
//! a battery of agent questions for `lexi search`, budgets that trim instead of dropping, and
//! START_HERE on real-shaped fixtures.

use crate::support::{project, TestProject};

/// The `webapp` fixture (a flask-shaped `src/` package), documented by `lexictl update`.
fn webapp() -> TestProject {
    let p = project().fixture("webapp").init().build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn impact_follows_dependents_two_levels_with_the_tests_among_them() {
    let p = webapp();
    let value = p
        .lexi([
            "impact",
            "src/shop/scaffold.py",
            "--depth",
            "2",
            "--format",
            "json",
        ])
        .json();
    let at = |depth: u64| -> Vec<String> {
        let files = value["files"].as_array().expect("files");
        files
            .iter()
            .filter(|f| f["depth"] == depth)
            .map(|f| f["file"].as_str().unwrap_or_default().to_string())
            .collect()
    };
    assert_eq!(at(1), ["src/shop/app.py"]);
    assert_eq!(at(2), ["src/shop/__init__.py", "src/shop/cli.py"]);
    assert_eq!(value["beyond"], 1, "the test one level further: {value}");
    let deeper = p
        .lexi([
            "impact",
            "src/shop/scaffold.py",
            "--depth",
            "3",
            "--format",
            "json",
        ])
        .json();
    assert_eq!(deeper["tests"], serde_json::json!(["tests/test_basic.py"]));
    let text = p.lexi(["impact", "src/shop/scaffold.py"]).success().stdout;
    assert!(
        text.contains("- src/shop/cli.py — The `shop` command line")
            && text.contains("(via src/shop/app.py)")
            && text.contains("## Tests (1)\n\n- tests/test_basic.py"),
        "{text}"
    );
    p.lexi(["impact", "src/shop/wrappers.py", "--depth", "0"])
        .code(1)
        .stderr_has("--depth must be between 1 and 20");
    p.lexi(["impact", "src/shop"])
        .code(1)
        .stderr_has("is a directory");
}

#[test]
fn impact_orders_tests_by_how_directly_they_exercise_the_file_and_skips_helpers() {
    let p = project()
        .fixture("webapp")
        .file("tests/test_api.py", "from shop.json import jsonify\n\n\ndef test_api():\n    assert jsonify(a=1)\n")
        .file("tests/test_json.py", "from shop.json import dumps\n\n\ndef test_dumps():\n    assert dumps(1) == \"1\"\n")
        .file("tests/conftest.py", "import pytest\n\nfrom shop import Shop\n\n\n@pytest.fixture\ndef app():\n    return Shop(__name__)\n")
        .file("tests/test_apps/helloapp/app.py", "from shop import Shop\n\napp = Shop(__name__)\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    let value = p
        .lexi(["impact", "src/shop/json/__init__.py", "--format", "json"])
        .json();
    // Depth 1 first, the test named for the file first among them; then depth 2 (through
    // `shop/__init__.py`). The fixture module and the sample app are not tests.
    assert_eq!(
        value["tests"],
        serde_json::json!([
            "tests/test_json.py",
            "tests/test_api.py",
            "tests/test_basic.py"
        ]),
        "{value}"
    );
    let files = value["files"].as_array().expect("files");
    let helper = files
        .iter()
        .find(|f| f["file"] == "tests/test_apps/helloapp/app.py")
        .expect("the sample app is still a dependent");
    assert_eq!(helper["test"], false, "{helper}");
    // The design files' Tests sections agree: fixtures and sample apps stay Dependents.
    let package = p.read(".lexibrary/src/shop/__init__.py.md");
    let tests = package
        .split("## Tests\n")
        .nth(1)
        .and_then(|rest| rest.split("\n## ").next())
        .unwrap_or_default();
    assert!(
        tests.contains("- tests/test_basic.py")
            && !tests.contains("conftest.py")
            && !tests.contains("test_apps/"),
        "{package}"
    );
    assert!(package.contains("- tests/conftest.py\n"), "{package}");
    let text = p
        .lexi(["impact", "src/shop/json/__init__.py"])
        .success()
        .stdout;
    assert!(
        text.contains(
            "## Tests (3)\n\n- tests/test_json.py\n- tests/test_api.py\n- tests/test_basic.py\n"
        ),
        "{text}"
    );
}

#[test]
fn impact_does_not_follow_imports_made_only_for_the_type_checker() {
    let p = project()
        .fixture("webapp")
        .file(
            "src/shop/hooks.py",
            "\"\"\"Hooks run around each request.\"\"\"\n\nimport typing as t\n\nfrom .config import Config\n\nif t.TYPE_CHECKING:\n    from .app import Shop\n\n\ndef before(app: \"Shop\", config: Config) -> None:\n    pass\n",
        )
        .file(
            "src/shop/views.py",
            "from .hooks import before\n\n\ndef index(app):\n    before(app, app.config)\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    // The import stays a dependency, marked.
    let design = p.read(".lexibrary/src/shop/hooks.py.md");
    assert!(
        design.contains("- src/shop/app.py (type-only)\n")
            && design.contains("- src/shop/config.py\n"),
        "{design}"
    );
    let value = p
        .lexi(["impact", "src/shop/app.py", "--format", "json"])
        .json();
    let files: Vec<&str> = value["files"]
        .as_array()
        .expect("files")
        .iter()
        .filter_map(|f| f["file"].as_str())
        .collect();
    assert!(
        !files.contains(&"src/shop/hooks.py") && !files.contains(&"src/shop/views.py"),
        "{value}"
    );
    assert_eq!(
        value["type_only"],
        serde_json::json!([{"file": "src/shop/hooks.py", "imports": "src/shop/app.py"}])
    );
    let text = p.lexi(["impact", "src/shop/app.py"]).success().stdout;
    assert!(
        text.contains("; 1 file imports only for types (not followed).\n")
            && text.contains("## Imported only for types (1, not followed)")
            && text.contains("- src/shop/hooks.py (types of src/shop/app.py)\n"),
        "{text}"
    );
    // A run-time import of the same file is followed as before.
    let config = p
        .lexi(["impact", "src/shop/config.py", "--format", "json"])
        .json();
    assert!(
        config["files"].to_string().contains("src/shop/views.py"),
        "{config}"
    );
    p.lexictl(["validate"]).success();
}

#[test]
fn index_does_not_print_an_empty_local_conventions_heading() {
    let p = webapp();
    let text = p.lexi(["index", "src/shop"]).success().stdout;
    assert!(text.contains("## Child Map"), "{text}");
    assert!(!text.contains("## Local Conventions"), "{text}");
    p.lexi(["convention", "add", "src/shop", "Views return a Response."])
        .success();
    let text = p.lexi(["index", "src/shop"]).success().stdout;
    assert!(
        text.contains("## Local Conventions\n\n- Views return a Response."),
        "{text}"
    );
}

#[test]
fn impact_names_the_concepts_and_posts_of_reached_files() {
    let p = webapp();
    p.lexi(["concept", "new", "ErrorPages", "--alias", "error handling"])
        .success();
    p.lexi(["concept", "link", "src/shop/app.py", "ErrorPages"])
        .success();
    p.lexi([
        "stack",
        "post",
        "--title",
        "CLI swallows config errors",
        "--problem",
        "run_command ignores a broken config.",
        "--evidence",
        "exit code 0",
        "--file",
        "src/shop/cli.py",
    ])
    .success();
    let text = p.lexi(["impact", "src/shop/scaffold.py"]).success().stdout;
    assert!(
        text.contains("## Concepts\n\n- [[ErrorPages]]")
            && text.contains("linked from src/shop/app.py"),
        "{text}"
    );
    assert!(
        text.contains(
            "## Stack\n\n- ST-001 [open] CLI swallows config errors — about src/shop/cli.py"
        ),
        "{text}"
    );
}

#[test]
fn conventions_are_added_inherited_searchable_and_kept_across_updates() {
    let p = webapp();
    p.lexi(["concept", "new", "ErrorPages"]).success();
    p.lexi([
        "convention",
        "add",
        "src/shop",
        "Views return a Response, never a bare dict.",
        "--tag",
        "http",
        "--concept",
        "ErrorPages",
    ])
    .success()
    .stdout_is("Added to .lexibrary/src/shop/.aindex: - Views return a Response, never a bare dict. (tags: http; concepts: [[ErrorPages]])\n");
    p.lexi(["convention", "add", ".", "Times are UTC."])
        .success();
    // The same rule twice is recorded once.
    p.lexi(["convention", "add", ".", "Times   are UTC."])
        .success()
        .stdout_has("already has this convention");
    let before = p.read(".lexibrary/src/shop/.aindex");

    // Inherited: the json package sees both, root first.
    let listed = p.lexi(["conventions", "src/shop/json"]).success().stdout;
    assert_eq!(
        listed,
        "## From ./\n\n- Times are UTC.\n\n## From src/shop/\n\n- Views return a Response, never a bare dict. (tags: http; concepts: [[ErrorPages]])\n\n\
         ## Practices the project's files declare\n\n\
         - Tests live in `tests/` (1 file); files are named `test_*.py`. (tests/)\n"
    );
    let value = p
        .lexi(["conventions", "src/shop", "--format", "json"])
        .json();
    assert_eq!(value["conventions"][1]["tags"], serde_json::json!(["http"]));
    assert_eq!(
        value["conventions"][1]["concepts"],
        serde_json::json!(["ErrorPages"])
    );
    // Shown by lookup and context for every file below.
    p.lexi(["lookup", "src/shop/json/__init__.py"])
        .success()
        .stdout_has("- Views return a Response, never a bare dict.");
    p.lexi(["context", "src/shop/errors.py"])
        .success()
        .stdout_has("Times are UTC.");
    // Found by search.
    p.lexi(["search", "bare dict"])
        .success()
        .stdout_has("src/shop/ — Views return a Response, never a bare dict.");

    // Kept byte for byte by an update that rewrites the Child Map.
    p.write("src/shop/extra.py", "\"\"\"Something new.\"\"\"\n");
    p.lexictl(["update"]).success();
    let after = p.read(".lexibrary/src/shop/.aindex");
    assert_ne!(before, after, "the Child Map changed");
    assert!(after.contains("## Local Conventions\n\n- Views return a Response, never a bare dict. (tags: http; concepts: [[ErrorPages]])\n"), "{after}");
    assert_eq!(
        after.split("## Local Conventions").nth(1),
        before.split("## Local Conventions").nth(1),
        "the conventions and the billboard mark after them are kept"
    );
    // The convention links the concept: it is no orphan.
    p.lexictl(["validate"])
        .code(2)
        .stdout_lacks("orphan-concept");

    p.lexi(["convention", "add", "src/shop/app.py", "x"])
        .code(1)
        .stderr_has("is a file");
    p.lexi(["convention", "add", "src/shop", "x", "--concept", "Nope"])
        .code(1)
        .stderr_has("no concept named");
    p.lexi(["convention", "add", "src/shop", "  "])
        .code(1)
        .stderr_has("the rule is empty");
}

/// An agent's questions over the `webapp` fixture: the expected file is in the top 3.
#[test]
fn search_answers_an_agents_questions_in_the_top_three() {
    let p = webapp();
    p.lexi([
        "concept",
        "new",
        "RequestLifecycle",
        "--alias",
        "middleware",
    ])
    .success();
    for (question, expected) in [
        ("routing", "src/shop/scaffold.py"),
        ("error handling", "src/shop/errors.py"),
        ("json response", "src/shop/json/__init__.py"),
        ("addUrlRule", "src/shop/scaffold.py"),
        ("where are sessions signed", "src/shop/sessions.py"),
        ("middleware", "RequestLifecycle"),
    ] {
        let value = p.lexi(["search", question, "--format", "json"]).json();
        let names: Vec<&str> = value["hits"]
            .as_array()
            .expect("hits")
            .iter()
            .map(|hit| hit["name"].as_str().unwrap_or_default())
            .collect();
        assert!(
            names.iter().take(3).any(|name| *name == expected),
            "{question:?}: expected {expected} in the top 3 of {names:?}"
        );
    }
    // Why it matched: the symbol that holds the word.
    p.lexi(["search", "routing"]).success().stdout_has(
        "src/shop/scaffold.py — Shared behaviour of applications and blueprints.  (members: route)",
    );
    // A hit for both words ranks before a hit for one, whatever the field.
    let value = p
        .lexi(["search", "signed", "cookie", "--format", "json"])
        .json();
    assert_eq!(value["hits"][0]["name"], "src/shop/sessions.py");
    assert_eq!(value["hits"][0]["matched"], 2);
}

#[test]
fn lookup_summarises_long_dependents_and_full_prints_them() {
    // A design file roomy enough to hold every dependent (as an agent's may be): lookup summarises.
    let p = project()
        .fixture("webapp")
        .init()
        .config("token_budgets:\n  design_file_tokens: 4000\n")
        .build();
    for i in 0..25 {
        let dir = if i % 2 == 0 { "views" } else { "api" };
        p.write(
            &format!("src/shop/{dir}/page{i}.py"),
            "from ..wrappers import Response\n\n\ndef page():\n    return Response()\n",
        );
    }
    p.lexictl(["update"]).success();
    let short = p.lexi(["lookup", "src/shop/wrappers.py"]).success().stdout;
    assert!(
        short.contains("Dependents (29; src/shop/views/ 13, src/shop/api/ 12, "),
        "{short}"
    );
    assert!(
        short.contains("`lexi impact src/shop/wrappers.py`"),
        "{short}"
    );
    assert!(short.contains(", … +26 — "), "the first three: {short}");
    let full = p
        .lexi(["lookup", "--full", "src/shop/wrappers.py"])
        .success()
        .stdout;
    assert!(full.contains("- src/shop/views/page0.py"), "{full}");
    // JSON always has everything.
    let json = p
        .lexi(["lookup", "src/shop/wrappers.py", "--format", "json"])
        .json();
    let dependents = json["sections"]
        .as_array()
        .expect("sections")
        .iter()
        .find(|s| s["heading"] == "Dependents")
        .expect("dependents")["body"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(dependents.contains("page24.py"), "{dependents}");
}

#[test]
fn context_trims_a_long_interface_and_counts_what_it_left_out() {
    let mut module = String::from("//! A module with many functions.\n\n");
    for i in 0..150 {
        module.push_str(&format!(
            "pub fn function_number_{i}(argument: u32, other: &str) -> u32 {{ argument }}\n"
        ));
    }
    let p = project()
        .fixture("rust")
        .file("src/big.rs", module)
        .init()
        // A design file that holds the whole interface: context is what trims it.
        .config("token_budgets:\n  design_file_tokens: 8000\n")
        .build();
    p.lexictl(["update"]).success();
    let text = p.lexi(["context", "src/big.rs"]).success().stdout;
    let shown = text.matches("pub fn function_number_").count();
    assert!(shown >= 10, "{shown} items shown:\n{text}");
    assert!(shown < 150, "{text}");
    let left = 150 - shown;
    assert!(
        text.contains(&format!(
            "… and {left} more items (`lexi lookup --full src/big.rs`)"
        )),
        "{text}"
    );
    assert!(
        text.contains(&format!("- Interface Contract: {left} items left out")),
        "{text}"
    );
    let value = p.lexi(["context", "src/big.rs", "--format", "json"]).json();
    assert!(value["tokens"].as_u64().unwrap_or(0) <= 2000, "{value}");
    // A tiny budget still says what it left out.
    p.lexi(["context", "src/big.rs", "--budget", "60"])
        .success()
        .stdout_has("Interface Contract (section");
}

/// START_HERE of a virtual Cargo workspace: named after its main crate, the crates ranked by code
/// and dependents (not by name), each with its own description, docs and dot-directories last, no
/// row that is a count, and an intro that follows `scope_root`.
#[test]
fn start_here_of_a_workspace_ranks_crates_and_describes_them() {
    let p = project().fixture("virtual-workspace").init().build();
    let initial = p.read(".lexibrary/START_HERE.md");
    assert!(
        initial.contains("`crates/`") && initial.contains("`lexictl update`"),
        "{initial}"
    );
    assert!(!initial.contains("lexi index ."), "{initial}");
    p.config("scope_root: .\n");
    p.lexictl(["update"]).success();
    let text = p.read(".lexibrary/START_HERE.md");
    // A workspace without a root package is named after its repository, not its first member.
    assert!(text.starts_with("# project — start here\n"), "{text}");
    assert!(text.contains("It documents the whole repository"), "{text}");
    assert!(
        text.contains("| Render Markdown in the terminal, fast. | `lexi index crates/quill` |"),
        "{text}"
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|line| line.contains("`lexi index "))
        .collect();
    let counted = regex::Regex::new(r"\d+ (files?|subdirector)").expect("regex");
    assert!(!rows.iter().any(|row| counted.is_match(row)), "{rows:#?}");
    assert!(!text.contains("Copyright"), "{text}");
    let at = |dir: &str| {
        rows.iter()
            .position(|row| row.ends_with(&format!("`lexi index {dir}` |")))
            .unwrap_or_else(|| panic!("no row for {dir}: {rows:#?}"))
    };
    assert!(at("crates/quill") < at("crates/quill-cli"), "{rows:#?}");
    assert!(
        at("crates/quill-cli") < at("crates/aaa-legacy"),
        "{rows:#?}"
    );
    assert!(at("crates/aaa-legacy") < at("docs"), "{rows:#?}");
    let _bound = p.snapshots().bind();
    insta::assert_snapshot!(text);
    // A short budget drops the least important directories, never the main crate.
    p.config("token_budgets:\n  start_here_tokens: 560\n");
    p.lexictl(["update", "--start-here"]).success();
    let short = p.read(".lexibrary/START_HERE.md");
    assert!(short.contains("`lexi index crates/quill`"), "{short}");
    assert!(!short.contains("`lexi index docs`"), "{short}");
    p.lexictl(["validate"]).success();
}

/// First-written `.aindex` billboards come from the manifest, the module doc, the README or the
/// directory's conventional name — never a licence banner, and a count only when nothing says more.
#[test]
fn aindex_billboards_come_from_manifests_module_docs_and_readmes() {
    let p = project()
        .fixture("virtual-workspace")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    let billboard = |dir: &str| {
        let rel = if dir.is_empty() {
            ".lexibrary/.aindex".to_string()
        } else {
            format!(".lexibrary/{dir}/.aindex")
        };
        let text = p.read(&rel);
        let after_title = text.split_once("\n\n").map_or("", |(_, rest)| rest);
        after_title.lines().next().unwrap_or_default().to_string()
    };
    assert_eq!(billboard(""), "Quill renders Markdown in the terminal.");
    assert_eq!(
        billboard("crates/quill"),
        "Render Markdown in the terminal, fast."
    );
    assert_eq!(
        billboard("crates/quill/src"),
        "Quill: Markdown to ANSI-coloured text."
    );
    assert_eq!(
        billboard("crates/quill-macros"),
        "Procedural macros for quill themes."
    );
    assert_eq!(billboard("tests"), "Tests.");
    assert_eq!(billboard("docs"), "Documentation.");
    // Only a licence banner and a licence README: never the banner, but what the code defines.
    assert_eq!(
        billboard("crates/aaa-legacy/src"),
        "Defines the `old` function."
    );
    assert_eq!(
        billboard("crates/aaa-legacy"),
        "Defines the `old` function."
    );
    // The tool's billboards follow the tree (a full run from scratch would write the new one)…
    p.write(
        "crates/quill/Cargo.toml",
        "[package]\nname = \"quill\"\ndescription = \"Something else.\"\n",
    );
    p.lexictl(["update"]).success();
    assert_eq!(billboard("crates/quill"), "Something else.");
    // …someone's are theirs: kept whatever the tree says.
    p.lexi(["describe", "crates/quill", "The Markdown renderer."])
        .success();
    p.write(
        "crates/quill/Cargo.toml",
        "[package]\nname = \"quill\"\ndescription = \"Yet another.\"\n",
    );
    p.lexictl(["update"]).success();
    assert_eq!(billboard("crates/quill"), "The Markdown renderer.");
    // So is one edited by hand in the `.aindex`.
    let rel = ".lexibrary/crates/quill-macros/.aindex";
    let edited = p.read(rel).replace(
        "Procedural macros for quill themes.",
        "Theme macros, by hand.",
    );
    p.write(rel, &edited);
    p.lexictl(["update"]).success();
    assert_eq!(billboard("crates/quill-macros"), "Theme macros, by hand.");
    p.lexictl(["update", "--check"]).success();
}

/// A file named for the word ranks first even when another declares it more often; `--limit`
/// bounds each kind and counts the rest.
#[test]
fn search_ranks_the_file_named_for_a_word_first_and_limits_its_output() {
    let p = project()
        .fixture("webapp")
        .file(
            "src/shop/spawn.py",
            "\"\"\"Starting a job.\"\"\"\n\n\ndef start(job):\n    return job\n",
        )
        .file(
            "src/shop/runner.py",
            "\"\"\"Running jobs.\"\"\"\n\n\ndef spawn(job):\n    return job\n\n\ndef spawn_many(jobs):\n    return [spawn(j) for j in jobs]\n\n\ndef spawn_later(job):\n    return job\n\n\nclass Spawner:\n    def spawn(self, job):\n        return job\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let value = p.lexi(["search", "spawn", "--format", "json"]).json();
    assert_eq!(value["hits"][0]["name"], "src/shop/spawn.py", "{value}");
    assert_eq!(value["hits"][1]["name"], "src/shop/runner.py", "{value}");
    assert_eq!(value["more"], 0);
    let limited = p
        .lexi(["search", "spawn", "--limit", "1", "--format", "json"])
        .json();
    assert_eq!(limited["hits"].as_array().map(Vec::len), Some(1));
    assert_eq!(limited["more"], 1);
    p.lexi(["search", "spawn", "--limit", "1"])
        .success()
        .stdout_has("… and 1 more (`--limit 0` for all, or more words to narrow)");
}

/// The code that implements a topic ranks before the samples and tests that merely live in a
/// directory named for it (express: `examples/route-separation/views/footer.ejs` above
/// `lib/application.js` for "routing").
#[test]
fn search_ranks_the_implementing_code_before_samples_in_a_directory_named_for_the_word() {
    let p = project()
        .file("package.json", r#"{"name": "web", "main": "lib/application.js"}"#)
        .file(
            "lib/application.js",
            "/** Application prototype. */\nvar app = exports = module.exports = {};\n\n/** Route a path. */\napp.route = function route(path) {\n  return path;\n};\n",
        )
        .file("examples/route-separation/site.js", "exports.index = function (req, res) {};\n")
        .file("examples/route-separation/views/footer.ejs", "</body>\n")
        .file("examples/route-separation/public/style.css", "body { margin: 0 }\n")
        .file("test/acceptance/web.js", "describe('web', function () {});\n")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    let value = p.lexi(["search", "routing", "--format", "json"]).json();
    assert_eq!(value["hits"][0]["name"], "lib/application.js", "{value}");
}

/// A fresh library already answers "what are this project's conventions?": the practices its own
/// files declare, each with the file that says so.
#[test]
fn conventions_include_the_practices_the_projects_files_declare() {
    let p = project()
        .fixture("javascript")
        .file(
            "package.json",
            r#"{"name": "todo-web", "type": "module", "engines": {"node": ">= 18"}, "scripts": {"test": "mocha test/"}}"#,
        )
        .file("test/app.test.js", "import '../src/app.js';\n")
        .file("test/store.test.js", "import '../src/store.js';\n")
        .file(".editorconfig", "root = true\n\n[*]\nindent_style = space\nindent_size = 2\n")
        .file(".github/workflows/ci.yml", "on: push\n")
        .file("CONTRIBUTING.md", "# Contributing\n")
        .init()
        .build();
    let text = p.lexi(["conventions"]).success().stdout;
    for line in [
        "## Practices the project's files declare\n",
        "- Tests live in `test/` (2 files); files are named `*.test.*`. (test/)\n",
        "- `npm test` runs `mocha test/`. (package.json)\n",
        "- Node.js >= 18 (engines). (package.json)\n",
        "- ES modules (`\"type\": \"module\"`): `import`/`export`, not `require`. (package.json)\n",
        "- Every file: indent_style = space, indent_size = 2. (.editorconfig)\n",
        "- CI runs GitHub Actions workflows `ci.yml`. (.github/workflows/)\n",
        "- The contribution guide is CONTRIBUTING.md: read it before a change. (CONTRIBUTING.md)\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    let value = p.lexi(["conventions", "--format", "json"]).json();
    let practices = value["practices"].as_array().expect("practices");
    assert!(practices
        .iter()
        .any(|p| p["topic"] == "commands" && p["source"] == "package.json"));
    // START_HERE routes to them.
    p.lexictl(["update"]).success();
    assert!(p
        .read(".lexibrary/START_HERE.md")
        .contains("Practices the project's files declare (PR checklist, test/lint/format commands, linter settings, where tests go, language level, CI): `lexi conventions`"));
}
