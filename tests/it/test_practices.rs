//! The practices a project's own files declare, as `lexi conventions` and `lexi orient` show them:
//! on fixture projects shaped like Flask's and Express's configuration (PR template, tox in
//! pyproject, Ruff/mypy/pyright, pre-commit; `.eslintrc.yml`, package.json scripts, CI `run:`
//! steps, a contribution guide), and on the other tools' files (nox, Makefile, flake8, rustfmt,
//! Clippy, `[lints]`, a flat ESLint config, Prettier). Broken files are warnings, never failures.

use crate::support::project;

/// A Flask-shaped project: the checklist of its PR template (inside an HTML comment), the tox
/// environments and their commands, Ruff's rule selection, mypy strict, the pre-commit hooks.
#[test]
fn a_python_projects_checklist_commands_and_tool_settings() {
    let p = project().fixture("python-practices").init().build();
    let text = p.lexi(["conventions"]).success().no_stderr().stdout;
    for line in [
        "- Before a PR: Before opening a PR, open a ticket describing the issue or feature the PR will address. (.github/pull_request_template.md)\n",
        "- Before a PR: Use \"fixes\" to automatically close an issue. (.github/pull_request_template.md)\n",
        "- Before a PR: Add tests that demonstrate the correct behavior of the change. Tests should fail without the change. (.github/pull_request_template.md)\n",
        "- pytest runs the tests (testpaths: `tests`); a warning fails the test (`filterwarnings = error`). (pyproject.toml)\n",
        "- Before a PR: Add `.. versionchanged::` entries in any relevant code docs. (.github/pull_request_template.md)\n",
        "- tox environments: style, typing, docs, py3.12, py3.11 (`tox -e <env>`). (pyproject.toml)\n",
        "- `tox -e style` runs `pre-commit run --all-files`. (pyproject.toml)\n",
        "- `tox -e typing` runs `mypy`, `pyright`. (pyproject.toml)\n",
        "- Ruff lints and formats Python: fix; select B, E, F, I, UP, W; ignore E501; isort force-single-line. (pyproject.toml)\n",
        "- mypy type-checks Python: strict; python_version 3.10; files src. (pyproject.toml)\n",
        "- pre-commit runs ruff-check, ruff-format, check-merge-conflict, trailing-whitespace before each commit (`pre-commit run --all-files`). (.pre-commit-config.yaml)\n",
        "- CI checks with `tox run -e py3.12`. (.github/workflows/)\n",
        "- The contribution guide is docs/contributing.rst; it points to https://example.org/contributing/. (docs/contributing.rst)\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    // Most important first: the checklist before the commands before the style tools.
    let at = |needle: &str| text.find(needle).unwrap_or(usize::MAX);
    assert!(at("Before a PR") < at("tox environments"), "{text}");
    assert!(at("tox environments") < at("Ruff lints"), "{text}");
    assert!(at("Ruff lints") < at("Tests live in"), "{text}");
    let _bound = p.snapshots().bind();
    insta::assert_snapshot!(text);

    let value = p.lexi(["conventions", "--format", "json"]).json();
    let practices = value["practices"].as_array().expect("practices");
    let ruff = practices
        .iter()
        .find(|p| {
            p["practice"]
                .as_str()
                .is_some_and(|t| t.starts_with("Ruff"))
        })
        .expect("ruff");
    assert_eq!(ruff["topic"], "style");
    assert_eq!(ruff["source"], "pyproject.toml");
    assert_eq!(
        ruff["items"],
        serde_json::json!([
            "fix",
            "select B, E, F, I, UP, W",
            "ignore E501",
            "isort force-single-line"
        ])
    );
    let hooks = practices
        .iter()
        .find(|p| p["source"] == ".pre-commit-config.yaml")
        .expect("hooks");
    assert_eq!(hooks["items"].as_array().map(Vec::len), Some(4));
    assert_eq!(value["warnings"], serde_json::json!([]));
}

/// An Express-shaped project: the ESLint rules with their first option, the lint and test scripts,
/// the checklist boxes, the contribution guide's sections, commands and rules.
#[test]
fn a_javascript_projects_eslint_rules_scripts_and_guide() {
    let p = project().fixture("js-practices").init().build();
    let text = p
        .lexi(["conventions", "--all"])
        .success()
        .no_stderr()
        .stdout;
    for line in [
        "- Before a PR: I added tests for the change (.github/PULL_REQUEST_TEMPLATE.md)\n",
        "- Before a PR: Run `npm run lint` and `npm test` locally (.github/PULL_REQUEST_TEMPLATE.md)\n",
        "- `npm test` runs `mocha --require test/support/env --check-leaks test/`. (package.json)\n",
        "- `npm run lint` runs `eslint .`. (package.json)\n",
        "- ESLint lints the code: rules eol-last, eqeqeq allow-null, indent 2, no-trailing-spaces, no-unused-vars. (.eslintrc.yml)\n",
        "- `{*.js,*.json,*.yml}`: indent_size = 2, indent_style = space. (.editorconfig)\n",
        "- CI checks with `npm run lint`, `npm run test-ci`. (.github/workflows/)\n",
        "- CI job `test` (`ci.yml`) runs on a matrix: os ubuntu-latest, windows-latest, macos-latest; node-version 18, 20, 22. (.github/workflows/ci.yml)\n",
        "- The contribution guide is Contributing.md; sections: Running the tests, Pull requests. (Contributing.md)\n",
        "- The contribution guide runs `npm test`. (Contributing.md)\n",
        "- Keep each pull request to one change. (Contributing.md)\n",
        "- Write the commit message in the imperative mood. (Contributing.md)\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    // Not a script a contributor checks with, not an instruction.
    assert!(!text.contains("npm run build"), "{text}");
    assert!(!text.contains("Bug fixes are welcome"), "{text}");
    assert!(!text.contains("no-console"), "turned off: {text}");
    let _bound = p.snapshots().bind();
    insta::assert_snapshot!(text);

    // By default a topic shows its first five and says how many more `--all` shows.
    let short = p.lexi(["conventions"]).success().stdout;
    assert!(short.len() < text.len(), "{short}");
    assert!(
        short.contains("more (`lexi conventions --all`)\n"),
        "{short}"
    );
    let value = p.lexi(["conventions", "--format", "json"]).json();
    let eslint = value["practices"]
        .as_array()
        .expect("practices")
        .iter()
        .find(|p| p["source"] == ".eslintrc.yml")
        .cloned()
        .expect("eslint");
    assert_eq!(eslint["items"][2], "indent 2");
}

/// `lexi orient` carries a digest of them, read live, within its budget.
#[test]
fn orient_shows_the_checklist_commands_and_style_tools() {
    let p = project().fixture("js-practices").init().build();
    p.lexictl(["update"]).success();
    let out = p.lexi(["orient"]).success().stdout;
    let digest = out
        .split("## Project practices (from its own files)\n\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no digest in:\n{out}"));
    assert!(
        digest.starts_with("- Before a PR: I added tests for the change"),
        "{digest}"
    );
    assert!(
        digest.contains("- `npm run lint` runs `eslint .`. (package.json)"),
        "{digest}"
    );
    assert!(
        digest.contains("- ESLint lints the code: rules eol-last"),
        "{digest}"
    );
    assert!(digest.contains("more — where tests go, language level, editor, CI, the contribution guide: `lexi conventions`"), "{digest}");
    let json = p.lexi(["orient", "--format", "json"]).json();
    assert!(
        json["practices"].as_array().is_some_and(|p| p.len() >= 5),
        "{json}"
    );
    assert!(json["tokens"].as_u64() <= json["budget"].as_u64(), "{json}");
}

/// A config file that does not parse is skipped with a warning naming it and the line; the rest
/// is still read and the command succeeds.
#[test]
fn broken_config_files_are_warnings_with_their_line() {
    let p = project()
        .fixture("js-practices")
        .file(".eslintrc.yml", "rules:\n  eqeqeq: [error\n  indent: 2\n")
        .file("pyproject.toml", "[tool.ruff]\nline-length = \n")
        .file("tox.ini", "[tox]\nenvlist = py312\nnot an option line\n")
        .file("noxfile.py", "# padding\n".repeat(30_000))
        .init()
        .build();
    let text = p.lexi(["conventions"]).success().stdout;
    assert!(text.contains("`npm run lint` runs `eslint .`."), "{text}");
    assert!(
        text.contains("warning: pyproject.toml: skipped, does not parse: line 2: "),
        "{text}"
    );
    assert!(
        text.contains(
            "warning: tox.ini: skipped, does not parse: line 3: not a `[section]` or `key = value`"
        ),
        "{text}"
    );
    assert!(
        text.contains("warning: .eslintrc.yml: skipped, does not parse: "),
        "{text}"
    );
    assert!(
        text.contains("line 3"),
        "the YAML error names its line: {text}"
    );
    let value = p.lexi(["conventions", "--format", "json"]).json();
    let sources: Vec<&str> = value["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter_map(|w| w["source"].as_str())
        .collect();
    assert_eq!(
        sources,
        [".eslintrc.yml", "noxfile.py", "pyproject.toml", "tox.ini"],
        "{value}"
    );
}

/// The other tools: nox sessions, Makefile targets, flake8 in setup.cfg, rustfmt and Clippy
/// settings, Cargo's `[lints]`, a flat ESLint config (read as text), Prettier in package.json.
#[test]
fn nox_make_flake8_rust_and_flat_eslint_settings() {
    let p = project()
        .fixture("rust")
        .file(
            "noxfile.py",
            "import nox\n\n@nox.session\ndef tests(session):\n    session.run('pytest')\n\n@nox.session(name=\"type-check\")\ndef mypy(session):\n    pass\n",
        )
        .file(
            "Makefile",
            "CC := gcc\n.PHONY: test lint\n\ntest: build\n\t@cargo test --all\n\nlint:\n\tcargo clippy -- -D warnings\n\nbuild:\n\tcargo build\n",
        )
        .file("setup.cfg", "[metadata]\nname = x\n\n[flake8]\nmax-line-length = 100\nextend-ignore =\n    E203,\n    W503\n")
        .file("rustfmt.toml", "max_width = 79\nedition = \"2024\"\n")
        .file("clippy.toml", "msrv = \"1.70\"\n")
        .file(
            "Cargo.toml",
            "[package]\nname = \"weather\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[lints.rust]\nunsafe_code = \"forbid\"\n\n[lints.clippy]\nunwrap_used = { level = \"deny\", priority = 1 }\n\n[workspace]\nmembers = [\"crates/a\", \"crates/b/\", \"crates/c\"]\n",
        )
        .file(
            "src/lib.rs",
            "//! Weather.\n#![allow(clippy::module_inception)]\n#![warn(\n    missing_docs,\n    unreachable_pub\n)]\n// Safety first.\n#![deny(unsafe_op_in_unsafe_fn)]\n#![cfg_attr(docsrs, feature(doc_cfg))]\n\npub fn f() {}\n#![forbid(not_leading)]\n",
        )
        .file("crates/a/Cargo.toml", "[package]\nname = \"a\"\nversion = \"0.1.0\"\n")
        .file("crates/a/src/lib.rs", "#![warn(missing_docs)]\n//! A.\n")
        .file("crates/b/Cargo.toml", "[package]\nname = \"b\"\nversion = \"0.1.0\"\n")
        // A crate doc in a block comment (ripgrep's `/*! … */`) before the levels.
        .file("crates/c/Cargo.toml", "[package]\nname = \"c\"\nversion = \"0.1.0\"\n")
        .file(
            "crates/c/src/lib.rs",
            "/*!\nThe c crate.\n\n/* nested */ still the doc.\n*/\n\n#![deny(missing_docs)]\n\npub fn c() {}\n",
        )
        .file("crates/b/src/main.rs", "#![warn(missing_docs)]\nfn main() {}\n")
        .file(
            ".github/workflows/ci.yml",
            "on: push\nenv:\n  RUSTFLAGS: -Dwarnings\n  CARGO_TERM_COLOR: always\njobs:\n  docs:\n    runs-on: ubuntu-latest\n    env:\n      RUSTDOCFLAGS: --cfg docsrs -D warnings\n    steps:\n      - run: cargo doc\n        env:\n          RUSTFLAGS: --cfg x -Dwarnings\n          CFLAGS: -O2\n",
        )
        .file(
            "eslint.config.js",
            "import js from '@eslint/js'\nexport default [\n  js.configs.recommended,\n  { rules: { 'no-var': 'error', semi: ['error', 'never'], 'no-console': 'off' } },\n]\n",
        )
        .file("package.json", r#"{"name": "w", "prettier": {"semi": false, "singleQuote": true}}"#)
        .init()
        .build();
    let text = p
        .lexi(["conventions", "--all"])
        .success()
        .no_stderr()
        .stdout;
    for line in [
        "- nox sessions: tests, type-check (`nox -s <session>`). (noxfile.py)\n",
        "- `make test` runs `cargo test --all`. (Makefile)\n",
        "- `make lint` runs `cargo clippy -- -D warnings`. (Makefile)\n",
        "- flake8 lints Python: max-line-length 100; extend-ignore E203, W503. (setup.cfg)\n",
        "- rustfmt formats Rust: edition = 2024, max_width = 79. (rustfmt.toml)\n",
        "- Clippy lints Rust: msrv = 1.70. (clippy.toml)\n",
        "- Lint levels in Cargo.toml [lints]: clippy::unwrap_used deny, unsafe_code forbid. (Cargo.toml)\n",
        // A crate root's leading lint levels (not its `allow`s, `cfg_attr`s, nor an attribute
        // after the code); crates setting the same levels share a line.
        "- Code keeps to the lint levels its crate root sets: warn(missing_docs, unreachable_pub), deny(unsafe_op_in_unsafe_fn). (src/lib.rs)\n",
        "- Code keeps to the lint levels its crate root sets: warn(missing_docs) (also crates/b/src/main.rs). (crates/a/src/lib.rs)\n",
        "- Code keeps to the lint levels its crate root sets: deny(missing_docs). (crates/c/src/lib.rs)\n",
        // The workflow's environment binds every job; a job's and its steps' only that job
        // (ripgrep's `docs` job alone denies warnings), each flag once.
        "- CI workflow `ci.yml` makes warnings errors (RUSTFLAGS -Dwarnings, set for the whole workflow; a job may set it otherwise): a change must build without warnings. (.github/workflows/ci.yml)\n",
        "- CI job `docs` (`ci.yml`) makes warnings errors (RUSTDOCFLAGS -D warnings). (.github/workflows/ci.yml)\n",
        "- ESLint lints the code: presets js recommended; rules no-var, semi. (eslint.config.js)\n",
        "- Prettier formats the code: semi false, singleQuote true. (package.json)\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    assert!(!text.contains("make build"), "{text}");
}

/// A guide that only points elsewhere: the local pages it links to about contributing or pull
/// requests are read too (two at most, pull requests first), never outside the project.
#[test]
fn the_guide_is_followed_to_the_pages_it_links() {
    let p = project()
        .fixture("rust")
        .file(
            "CONTRIBUTING.md",
            "# Contributing\n\nSee the [contributing guidelines].\n\n[contributing guidelines]: docs/contributing/README.md\n[up](../CONTRIBUTING-secret.md)\n",
        )
        .file(
            "docs/contributing/README.md",
            "# Contributing\n\n## Quick start\n\n- [Issues](contributing-in-issues.md)\n- Planning a PR? Read [Pull Requests](pull-requests.md#workflow).\n- [Site](https://example.org/contributing.md)\n",
        )
        .file("docs/contributing/contributing-in-issues.md", "# Issues\n\n- Search before you open one.\n")
        .file(
            "docs/contributing/pull-requests.md",
            "# Pull Requests\n\n**Do not let this guide intimidate you.**\n\n## Cargo commands\n\n```\ncargo test --all-features\ncargo +1.88 clippy --all --tests\nLOOM_MAX_PREEMPTIONS=1 RUSTFLAGS=\"--cfg loom -C debug_assertions\" \\\n    cargo test --lib --release\n```\n\n## Commits\n\n1. The first line should:\n\n* contain a short description of the change\n* start with an imperative verb. Like this.\n* be prefixed with the name of the module being changed\n\nExamples:\n\n* time: introduce `Timeout`\n\n- Keep the second line of a commit message blank.\n\n## Tests\n\nA change to code adds or fixes something. In both cases, the pull request should include\none or more tests. There are [integration tests][it] and [documentation tests](https://doc.rust-lang.org).\n(The project avoids [unit tests][ut] as much as possible).\n\nFor instance, to run a test marked `loom` you must pass `--cfg loom`.\n",
        )
        .file("crates/core/CHANGELOG.md", "# Changelog\n\n## 1.2.0 (May 2026)\n\n- Faster.\n")
        .file("crates/CHANGELOG.md", "# Changelog\n\n## 2.0.0\n")
        .file("macros/CHANGELOG.md", "# 0.3.0\n")
        .init()
        .build();
    let text = p
        .lexi(["conventions", "--all"])
        .success()
        .no_stderr()
        .stdout;
    for line in [
        "- The contribution guide is CONTRIBUTING.md (and docs/contributing/README.md, docs/contributing/pull-requests.md, which it links); sections: Quick start, Cargo commands, Commits, Tests. (CONTRIBUTING.md)\n",
        // A command continued over two lines keeps the environment it runs in.
        "- The contribution guide runs `cargo test --all-features`, `cargo +1.88 clippy --all --tests`, `LOOM_MAX_PREEMPTIONS=1 RUSTFLAGS=\"--cfg loom -C debug_assertions\" cargo test --lib --release`. (docs/contributing/pull-requests.md)\n",
        // A requirement over a list is one rule with its items.
        "- The first line should: contain a short description of the change; start with an imperative verb; be prefixed with the name of the module being changed. (docs/contributing/pull-requests.md)\n",
        "- Keep the second line of a commit message blank. (docs/contributing/pull-requests.md)\n",
        // What the guide's prose requires of a change, links read as their text.
        "- In both cases, the pull request should include one or more tests. (docs/contributing/pull-requests.md)\n",
        "- The project avoids unit tests as much as possible. (docs/contributing/pull-requests.md)\n",
        // No changelog at the root: each package's, one directory down.
        "- Each package records its changes in its own changelog: crates/CHANGELOG.md, macros/CHANGELOG.md; crates/CHANGELOG.md's newest section is \"2.0.0\". (crates/CHANGELOG.md)\n",
    ] {
        assert!(text.contains(line), "missing {line:?} in:\n{text}");
    }
    assert!(
        !text.contains("Search before"),
        "a third page is not read: {text}"
    );
    assert!(
        !text.contains("For instance"),
        "an example is no rule: {text}"
    );
    assert!(
        !text.contains("intimidate"),
        "words to the reader are no rule: {text}"
    );
    assert!(
        !text.contains("time: introduce"),
        "the examples under a rule are no rules: {text}"
    );
    assert!(
        !text.contains("crates/core/CHANGELOG.md"),
        "two levels down: {text}"
    );
}
