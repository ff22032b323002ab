//! Compact by default, complete on demand (issue 31, item 7): `lexi lookup` of any file within 4 KB
//! with every member named; `lexi conventions --all` and `lexi lookup --full` giving everything;
//! files sharing a description told apart in `lookup`, `index` and `search`.

use crate::support::project;

/// flask's `sansio/app.py` in small: type variables, a class with many attributes, and 60 methods
/// each with a long docstring — the design file's and the old lookup's budgets cut their docs.
fn big_python_module() -> String {
    let mut module = String::from("\"\"\"The application object.\"\"\"\n\nimport typing as t\n\n");
    for i in 0..5 {
        module.push_str(&format!("T_{i} = t.TypeVar(\"T_{i}\")\n"));
    }
    module.push_str("\n\nclass App:\n    \"\"\"The central object of the framework.\"\"\"\n\n");
    for i in 0..20 {
        module.push_str(&format!("    attribute_number_{i} = None\n"));
    }
    for i in 0..60 {
        module.push_str(&format!(
            "\n    def method_number_{i}(self, rule: str, endpoint: str | None = None, **options: t.Any) -> None:\n        \"\"\"Register the rule number {i} so that requests reaching it are dispatched to its view, with every option given.\n\n        :param rule: the rule.\n        \"\"\"\n"
        ));
    }
    module
}

/// tokio's `runtime/builder.rs` in small: a struct with documented fields and many documented
/// methods across several `impl` blocks.
fn big_rust_module() -> String {
    let mut module = String::from("//! Builds runtimes.\n\n/// Builds a runtime with custom configuration values.\npub struct Builder {\n");
    for i in 0..25 {
        module.push_str(&format!(
            "    /// Setting number {i}.\n    pub setting_{i}: usize,\n"
        ));
    }
    module.push_str("}\n");
    for block in 0..6 {
        module.push_str("\nimpl Builder {\n");
        for i in 0..12 {
            let n = block * 12 + i;
            module.push_str(&format!(
                "    /// Sets the value number {n} that the runtime will use for every worker thread it starts.\n    pub fn set_value_{n}(&mut self, value: usize) -> &mut Self {{ self.setting_0 = value; self }}\n"
            ));
        }
        module.push_str("}\n");
    }
    module
}

#[test]
fn any_file_looks_up_in_4_kb_naming_every_member() {
    let p = project()
        .fixture("python-src")
        .file("src/weather/app.py", big_python_module())
        .file("src/weather/builder.rs", big_rust_module())
        .init()
        .build();
    p.lexictl(["update"]).success();
    let python = p.lexi(["lookup", "src/weather/app.py"]).success().stdout;
    assert!(python.len() <= 4096, "{} bytes:\n{python}", python.len());
    for i in 0..60 {
        assert!(
            python.contains(&format!("method_number_{i}")),
            "method_number_{i} is named:\n{python}"
        );
    }
    assert!(
        python.contains(
            "  - method_number_0(rule, endpoint, **options) — Register the rule number 0 "
        ),
        "the most important members keep their line and doc:\n{python}"
    );
    assert!(
        python.contains("attribute_number_19") && python.contains("T_4"),
        "{python}"
    );
    assert!(python.contains("`--full`"), "where the rest is:\n{python}");
    let full = p
        .lexi(["lookup", "src/weather/app.py", "--full"])
        .success()
        .stdout;
    assert!(
        full.contains("Register the rule number 59 so that requests reaching it are dispatched"),
        "--full has every doc:\n{full}"
    );

    let rust = p
        .lexi(["lookup", "src/weather/builder.rs"])
        .success()
        .stdout;
    assert!(rust.len() <= 4096, "{} bytes:\n{rust}", rust.len());
    for n in 0..72 {
        assert!(
            rust.contains(&format!("set_value_{n}")),
            "set_value_{n}:\n{rust}"
        );
    }
    assert!(rust.contains("setting_24"), "{rust}");
    assert!(
        !rust.contains("(&mut"),
        "the receiver is no parameter:\n{rust}"
    );
}

/// A project whose tools declare long lists and long commands: tox environments beyond the first
/// six, a `package.json` test script longer than a line, CI steps longer than sixty characters.
fn practices_project() -> crate::support::TestProject {
    let envs: Vec<String> = (0..16).map(|i| format!("\"env-{i}\"")).collect();
    let pyproject = format!(
        "[project]\nname = \"shop\"\n\n[tool.tox]\nenv_list = [{}]\n",
        envs.join(", ")
    );
    let test_script = "mocha --require test/support/env --reporter spec --check-leaks test/ test/acceptance/ --exit --timeout 5000";
    let package = format!(
        "{{\"name\": \"shop\", \"scripts\": {{\"test\": \"{test_script}\", \"lint\": \"eslint .\"}}}}\n"
    );
    let workflow = "jobs:\n  test:\n    steps:\n      - run: uv run --locked --no-default-groups --group pre-commit pre-commit run --show-diff-on-failure --color=always --all-files\n";
    project()
        .file("pyproject.toml", pyproject)
        .file("package.json", package)
        .file(".github/workflows/ci.yml", workflow)
        .file("src/shop/__init__.py", "\"\"\"Shop.\"\"\"\n")
        .init()
        .build()
}

#[test]
fn conventions_all_gives_every_practice_whole() {
    let p = practices_project();
    let short = p.lexi(["conventions"]).success().stdout;
    assert!(short.contains(" and 10 more"), "the premise: cut\n{short}");
    // The test command a change must pass is whole even here (express's was cut after `test/`).
    assert!(
        short.contains("`npm test` runs `mocha --require test/support/env --reporter spec --check-leaks test/ test/acceptance/ --exit --timeout 5000`."),
        "{short}"
    );
    assert!(short.contains("`lexi conventions --all`"), "{short}");
    let all = p.lexi(["conventions", "--all"]).success().stdout;
    for i in 0..16 {
        assert!(all.contains(&format!("env-{i}")), "env-{i}:\n{all}");
    }
    assert!(
        all.contains("`npm test` runs `mocha --require test/support/env --reporter spec --check-leaks test/ test/acceptance/ --exit --timeout 5000`."),
        "{all}"
    );
    assert!(
        all.contains("pre-commit run --show-diff-on-failure --color=always --all-files`"),
        "{all}"
    );
    assert!(
        !all.contains('…') && !all.contains(" more"),
        "nothing cut:\n{all}"
    );
    // The JSON carries every practice whole.
    let json = p.lexi(["conventions", "--format", "json"]).success().json();
    let text = json["practices"].to_string();
    assert!(
        text.contains("--timeout 5000") && text.contains("env-15"),
        "{text}"
    );
}

/// Two files with one module docstring (tokio has "Uring file operations tests." six times), so
/// their design files share a description; every view says what tells them apart. (A shared class
/// docstring no longer does: the description names the class it documents.)
fn twins_project() -> crate::support::TestProject {
    let doc = "The flask object implements a WSGI application and acts as the central object.";
    let p = project()
        .file("src/flaskish/__init__.py", "\"\"\"Flaskish.\"\"\"\n\nfrom .app import Flask\n")
        .file("src/flaskish/sansio/__init__.py", "")
        .file(
            "src/flaskish/sansio/app.py",
            format!("\"\"\"{doc}\"\"\"\n\n\nclass App:\n    def add_url_rule(self, rule):\n        \"\"\"Connect a URL rule.\"\"\"\n"),
        )
        .file(
            "src/flaskish/app.py",
            format!("\"\"\"{doc}\"\"\"\n\nfrom .sansio.app import App\n\n\nclass Flask(App):\n    def wsgi_app(self, environ, start_response):\n        \"\"\"The actual WSGI application.\"\"\"\n"),
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p
}

#[test]
fn files_sharing_a_description_are_told_apart_in_lookup_index_and_search() {
    let p = twins_project();
    p.lexi(["lookup", "src/flaskish/app.py"])
        .success()
        .stdout_has(
        "Same description as src/flaskish/sansio/app.py (class App); this one: class Flask(App).",
    );
    p.lexi(["lookup", "src/flaskish/sansio/app.py"])
        .success()
        .stdout_has(
            "Same description as src/flaskish/app.py (class Flask(App)); this one: class App.",
        );
    p.lexi(["index", "src/flaskish"]).success().stdout_has(
        "acts as the central object. (this one: class Flask(App); also src/flaskish/sansio/app.py) |",
    );
    let search = p.lexi(["search", "WSGI", "application"]).success().stdout;
    assert!(
        search.contains("acts as the central object. (this one: class Flask(App))")
            && search.contains("acts as the central object. (this one: class App)"),
        "{search}"
    );
}

/// The minimum Rust version a change must keep, however the workspace pins it — inherited from
/// `[workspace.package]` (`rust-version.workspace = true`, ripgrep, a member pinning its own said
/// apart) or by the members of a workspace
/// without a root package (tokio) — and where a change is recorded (the changelog's newest section).
#[test]
fn conventions_give_the_minimum_rust_version_and_the_changelog_section() {
    let inherited = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"tool\"\nversion = \"0.1.0\"\nedition.workspace = true\nrust-version.workspace = true\n\n[workspace]\nmembers = [\"crates/a\"]\n\n[workspace.package]\nedition = \"2021\"\nrust-version = \"1.80\"\n",
        )
        .file("src/main.rs", "fn main() {}\n")
        .file(
            "crates/a/Cargo.toml",
            "[package]\nname = \"a\"\nversion = \"0.1.0\"\nrust-version = \"1.70\"\n",
        )
        .file("crates/a/src/lib.rs", "pub fn f() {}\n")
        .file("CHANGELOG.md", "TBD\n===\nUnreleased changes.\n\n1.0.0 (2026-01-01)\n=================\n")
        .init()
        .build();
    inherited
        .lexi(["conventions", "--all"])
        .success()
        .stdout_has("supports Rust 1.80 and later (rust-version)")
        // A member pinning its own (ripgrep's `ignore` and `globset`).
        .stdout_has("`a` pin their own rust-version: Rust 1.70 and later. (crates/a/Cargo.toml)")
        .stdout_has("Changes are recorded in CHANGELOG.md; the newest section is \"TBD\".");
    let virtual_workspace = project()
        .file(
            "Cargo.toml",
            "[workspace]\nmembers = [\"core\", \"extras/*\"]\n",
        )
        .file(
            "core/Cargo.toml",
            "[package]\nname = \"core-lib\"\nversion = \"0.1.0\"\nrust-version = \"1.70\"\n",
        )
        .file("core/src/lib.rs", "pub fn f() {}\n")
        .file("CHANGES.md", "# Changelog\n\n## Unreleased\n\n- a fix\n")
        .init()
        .build();
    virtual_workspace
        .lexi(["conventions", "--all"])
        .success()
        .stdout_has("Supports Rust 1.70 and later (rust-version of `core-lib`)")
        .stdout_has("Changes are recorded in CHANGES.md; the newest section is \"Unreleased\".");
}
