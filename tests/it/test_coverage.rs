//! Whole and clean on real layouts (issue 32): the scope `init` chooses from the project model,
//! noise grouped or skipped at any depth, descriptions chosen (never a TODO, badge, licence field or
//! stray comment), Rust dependencies from expressions and macro bodies, Python import roots from the
//! project model, tests found through helpers outside the scope, and manifests read by real parsers.
//! Each test is one of the measured repros, in small.

use crate::support::{project, TestProject};

/// The design files of the library, as paths relative to `.lexibrary/`.
fn design_files(p: &TestProject) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![p.path(".lexibrary")];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read library dir") {
            let path = entry.expect("library entry").path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if path.is_dir() && !name.starts_with('.') {
                stack.push(path);
            } else if name.ends_with(".md") && !name.starts_with('_') {
                let rel = path
                    .strip_prefix(p.path(".lexibrary"))
                    .expect("under library");
                found.push(rel.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    found
}

/// The `description:` line of `source`'s design file.
fn description(p: &TestProject, source: &str) -> String {
    let text = p.read(&format!(".lexibrary/{source}.md"));
    text.lines()
        .find_map(|line| line.strip_prefix("description: "))
        .unwrap_or_else(|| panic!("{source} has no description:\n{text}"))
        .trim_matches(['\'', '"'])
        .to_string()
}

// ── Scope from the project model (Measured 1, What to build 1) ──────────────────────────────────

/// A Cargo workspace whose root package is a thin facade over its members.
fn facade_workspace() -> crate::support::ProjectBuilder {
    project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"foo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[dependencies]\nfoo_builder = { path = \"foo_builder\" }\n\n[workspace]\nmembers = [\"foo_builder\", \"foo_derive\"]\n",
        )
        .file("src/lib.rs", "//! The foo facade.\npub use foo_builder::Builder;\n")
        .file("tests/facade.rs", "#[test]\nfn builds() {\n    let _ = foo::Builder::new();\n}\n")
        .file(
            "foo_builder/Cargo.toml",
            "[package]\nname = \"foo_builder\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file(
            "foo_builder/src/lib.rs",
            "//! Builds foos step by step.\nmod parts;\n/// A foo builder.\npub struct Builder;\nimpl Builder {\n    pub fn new() -> Self {\n        parts::start();\n        Builder\n    }\n}\n",
        )
        .file(
            "foo_builder/src/parts.rs",
            "//! The parts a foo is built from.\npub fn start() {}\n",
        )
        .file(
            "foo_derive/Cargo.toml",
            "[package]\nname = \"foo_derive\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file(
            "foo_derive/src/lib.rs",
            "//! Derive macros for foos.\npub fn derive() {}\n",
        )
}

#[test]
fn init_puts_every_member_of_a_cargo_workspace_with_a_facade_root_in_scope() {
    let p = facade_workspace().init().build();
    p.lexictl(["update"]).success();
    for source in [
        "src/lib.rs",
        "foo_builder/src/lib.rs",
        "foo_builder/src/parts.rs",
        "foo_derive/src/lib.rs",
    ] {
        assert!(
            p.exists(&format!(".lexibrary/{source}.md")),
            "{source} has no design file: {:?}",
            design_files(&p)
        );
    }
    p.lexictl(["status"]).success();
    p.lexictl(["validate"]).success();
}

#[test]
fn status_and_validate_say_how_much_code_a_narrow_scope_leaves_out() {
    let p = facade_workspace()
        .init()
        .config("scope_root: [src, tests]\n")
        .build();
    p.lexictl(["update"]).success();
    assert!(!p.exists(".lexibrary/foo_builder/src/lib.rs.md"));
    let status = p.lexictl(["status"]).code(2);
    status.stdout_has("foo_builder").stdout_lacks("Healthy.");
    let validate = p.lexictl(["validate"]).run();
    let both = validate.both();
    assert!(both.contains("foo_builder"), "{both}");
    // `setup --update` puts the members in scope, and says so.
    p.lexictl(["setup", "--update"]).success();
    p.lexictl(["update"]).success();
    assert!(p.exists(".lexibrary/foo_builder/src/lib.rs.md"));
    p.lexictl(["validate"]).success();
    p.lexictl(["status"]).success().stdout_has("Healthy.");
}

#[test]
fn init_puts_every_npm_workspace_package_in_scope() {
    let p = project()
        .file(
            "package.json",
            "{\"name\": \"mono\", \"private\": true, \"workspaces\": [\"modules/*\"]}\n",
        )
        .file(
            "src/build.js",
            "/** Builds every module. */\nmodule.exports = function build() {};\n",
        )
        .file(
            "modules/core/package.json",
            "{\"name\": \"@mono/core\", \"main\": \"lib/index.js\"}\n",
        )
        .file(
            "modules/core/lib/index.js",
            "/** The core of mono. */\nmodule.exports = { run() {} };\n",
        )
        .file(
            "modules/cli/package.json",
            "{\"name\": \"@mono/cli\", \"bin\": \"bin/cli.js\"}\n",
        )
        .file(
            "modules/cli/bin/cli.js",
            "#!/usr/bin/env node\nrequire('@mono/core').run();\n",
        )
        .file("scripts/release.js", "console.log('release');\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    for source in [
        "src/build.js",
        "modules/core/lib/index.js",
        "modules/cli/bin/cli.js",
    ] {
        assert!(
            p.exists(&format!(".lexibrary/{source}.md")),
            "{source}: {:?}",
            design_files(&p)
        );
    }
    p.lexictl(["validate"]).success();
}

// ── Manifests read by real parsers (What to build 5) ────────────────────────────────────────────

#[test]
fn a_cargo_manifest_line_with_a_trailing_comment_names_the_crate_alone() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"tiny-calc\" # the calculator crate\nversion = \"0.1.0\"\ndescription = \"Adds numbers\" # short\n",
        )
        .file("src/lib.rs", "//! Adds numbers.\npub fn add(a: i32, b: i32) -> i32 { a + b }\n")
        .init()
        .build();
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("project_name: tiny-calc\n"), "{config}");
    p.lexictl(["update"]).success();
    let start = p.read(".lexibrary/START_HERE.md");
    assert!(start.contains("tiny-calc"), "{start}");
    assert!(!start.contains("# the calculator crate"), "{start}");
}

#[test]
fn a_workspace_without_a_root_package_is_named_after_the_repository() {
    let workspace = || {
        project()
            .file(
                "Cargo.toml",
                "[workspace]\nmembers = [\"alpha\", \"beta\"]\nresolver = \"2\"\n",
            )
            .file(
                "alpha/Cargo.toml",
                "[package]\nname = \"alpha\"\nversion = \"0.1.0\"\n",
            )
            .file("alpha/src/lib.rs", "//! Alpha.\npub fn a() {}\n")
            .file(
                "beta/Cargo.toml",
                "[package]\nname = \"beta\"\nversion = \"0.1.0\"\n\n[dependencies]\nalpha = { path = \"../alpha\" }\n",
            )
            .file("beta/src/lib.rs", "//! Beta.\npub fn b() {}\n")
            .build()
    };
    // Not a member (not even the one the others depend on): its directory's name…
    let p = workspace();
    p.lexictl(["init", "--yes"]).success();
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("project_name: project\n"), "{config}");
    // …or its remote's, when it has one.
    let p = workspace();
    p.git(["remote", "add", "origin", "git@example.com:acme/quill.git"])
        .success();
    p.lexictl(["init", "--yes"]).success();
    let config = p.read(".lexibrary/config.yaml");
    assert!(config.contains("project_name: quill\n"), "{config}");
}

// ── Noise at any depth (Measured 2, What to build 2) ────────────────────────────────────────────

#[test]
fn samples_nested_deep_in_a_package_are_grouped_at_their_root() {
    let mut builder = project()
        .file(
            "package.json",
            "{\"name\": \"kit\", \"private\": true, \"workspaces\": [\"packages/*\"]}\n",
        )
        .file(
            "packages/kit/package.json",
            "{\"name\": \"kit-core\", \"main\": \"src/index.js\"}\n",
        )
        .file(
            "packages/kit/src/index.js",
            "/** Compiles components. */\nexports.compile = function compile() {};\n",
        )
        .file(
            "packages/kit/tests/runtime/test.js",
            "const { compile } = require('../../src/index.js');\ntest('compiles', () => compile());\n",
        );
    for i in 0..30 {
        builder = builder
            .file(
                &format!("packages/kit/tests/runtime/samples/case-{i:02}/main.js"),
                "export default 1;\n",
            )
            .file(
                &format!("packages/kit/tests/runtime/samples/case-{i:02}/_config.js"),
                "export default { html: '<p>x</p>' };\n",
            );
    }
    // Named variants in a test tree (svelte's `custom-elements-samples/`, babel's
    // `define-helper-fixtures/`) are test data too; a package named so outside one is code.
    for i in 0..5 {
        builder = builder
            .file(
                &format!("packages/kit/tests/browser/custom-elements-samples/ce-{i}/main.js"),
                "export default 2;\n",
            )
            .file(
                &format!("packages/kit/test/define-helper-fixtures/h-{i}/input.js"),
                "export default 3;\n",
            );
    }
    builder = builder
        .file(
            "packages/kit-fixtures/package.json",
            "{\"name\": \"kit-fixtures\", \"main\": \"src/index.js\"}\n",
        )
        .file(
            "packages/kit-fixtures/src/index.js",
            "/** Loads the fixtures of a test suite. */\nexports.load = function load() {};\n",
        );
    let p = builder.init().build();
    p.lexictl(["update"]).success();
    let designs = design_files(&p);
    let samples = designs
        .iter()
        .filter(|d| d.contains("samples/") || d.contains("/test/"))
        .count();
    assert_eq!(samples, 0, "{designs:?}");
    assert!(designs.contains(&"packages/kit-fixtures/src/index.js.md".to_string()));
    assert!(p.exists(".lexibrary/packages/kit/tests/browser/custom-elements-samples/_group.md"));
    assert!(p.exists(".lexibrary/packages/kit/test/define-helper-fixtures/_group.md"));
    let group = p.read(".lexibrary/packages/kit/tests/runtime/samples/_group.md");
    assert!(group.contains("30 directories"), "{group}");
    assert!(group.contains("`case-00/`"), "{group}");
    assert!(!p.exists(".lexibrary/packages/kit/tests/runtime/samples/case-00/_group.md"));
    p.lexi([
        "lookup",
        "packages/kit/tests/runtime/samples/case-03/main.js",
    ])
    .code(1)
    .stderr_has(".lexibrary/packages/kit/tests/runtime/samples/_group.md");
    p.lexictl(["validate"]).success();
    p.lexictl(["update", "--check"]).success();
}

/// Babel's parser tests: `packages/parser/test/expressions/<suite>/<case>/{input.js,output.json}`,
/// a test tree of data-driven cases under a name no default knows. `lexictl init` finds it (every
/// file below it a case file, in many case directories), writes it into the configuration as a
/// `grouped` rule, and the update groups it; the test code beside it stays documented.
#[test]
fn directories_of_data_driven_test_cases_are_grouped_by_init() {
    let mut builder = project()
        .file(
            "package.json",
            "{\"name\": \"parser\", \"main\": \"src/index.js\"}\n",
        )
        .file(
            "src/index.js",
            "/** Parses a program. */\nexports.parse = function parse() {};\n",
        )
        .file(
            "test/index.js",
            "const { parse } = require('../src/index.js');\ntest('parses', () => parse());\n",
        );
    for i in 0..6 {
        builder = builder
            .file(
                &format!("test/expressions/esprima/case-{i}/input.js"),
                "a + b;\n",
            )
            .file(
                &format!("test/expressions/esprima/case-{i}/output.json"),
                "{\"type\": \"File\"}\n",
            );
    }
    let p = builder.init().build();
    let config = p.read(".lexibrary/config.yaml");
    assert!(
        config.contains("mapping:\n  rules:\n  - glob: /test/expressions/\n    strategy: grouped"),
        "{config}"
    );
    p.lexictl(["update"]).success();
    let designs = design_files(&p);
    assert!(
        !designs.iter().any(|d| d.contains("expressions/")),
        "{designs:?}"
    );
    assert!(
        designs.contains(&"test/index.js.md".to_string()),
        "{designs:?}"
    );
    assert!(p.exists(".lexibrary/test/expressions/_group.md"));
    p.lexictl(["validate"]).success();
    p.lexictl(["update", "--check"]).success();
}

/// Babel's layout: `packages/*/test/fixtures/<suite>/<case>/{input.js,output.json,options.json}`,
/// thousands of directories deep. The group root documents them all; no directory below it gets an
/// `.aindex` (12,204 of babel's 13,098 were), and an older library's are removed by the next update.
#[test]
fn directories_below_a_group_root_get_no_index_of_their_own() {
    let mut builder = project()
        .file(
            "package.json",
            "{\"name\": \"compiler\", \"private\": true, \"workspaces\": [\"packages/*\"]}\n",
        )
        .file(
            "packages/parser/package.json",
            "{\"name\": \"parser\", \"main\": \"src/index.js\"}\n",
        )
        .file(
            "packages/parser/src/index.js",
            "/** Parses JavaScript. */\nexports.parse = function parse() {};\n",
        )
        .file(
            "packages/parser/test/index.js",
            "const { parse } = require('../src/index.js');\ntest('parses', () => parse());\n",
        )
        .file(
            "packages/parser/test/fixtures/README.md",
            "# Parser fixtures\n",
        );
    for suite in ["es2015", "jsx"] {
        for case in 0..4 {
            let dir = format!("packages/parser/test/fixtures/{suite}/case-{case}");
            builder = builder
                .file(&format!("{dir}/input.js"), "let a = 1;\n")
                .file(&format!("{dir}/output.json"), "{\"type\": \"File\"}\n");
        }
    }
    let p = builder.init().build();
    p.lexictl(["update"]).success();
    let root = ".lexibrary/packages/parser/test/fixtures";
    assert!(p.exists(&format!("{root}/.aindex")));
    let group = p.read(&format!("{root}/_group.md"));
    assert!(
        group.contains("`es2015/`") && group.contains("`jsx/`"),
        "{group}"
    );
    for below in ["es2015", "jsx", "es2015/case-0", "jsx/case-3"] {
        assert!(
            !p.exists(&format!("{root}/{below}/.aindex")),
            "{below} has an .aindex"
        );
        assert!(
            !p.exists(&format!("{root}/{below}/_group.md")),
            "{below} has a group file"
        );
    }
    p.lexi(["index", "packages/parser/test/fixtures/es2015/case-1"])
        .code(1)
        .stderr_has(&format!("{root}/_group.md"))
        .stderr_has("lexi index packages/parser/test/fixtures");
    p.lexi([
        "lookup",
        "packages/parser/test/fixtures/jsx/case-2/input.js",
    ])
    .code(1)
    .stderr_has(&format!("{root}/_group.md"))
    .stderr_has("lexi index packages/parser/test/fixtures`");
    p.lexi([
        "describe",
        "packages/parser/test/fixtures/jsx",
        "JSX parser cases.",
    ])
    .code(1)
    .stderr_has("describe packages/parser/test/fixtures instead");
    assert!(!p.exists(&format!("{root}/jsx/.aindex")));
    p.lexictl(["validate"]).success();
    p.lexictl(["update", "--check"]).success();
    // Mapped `full` in config, every fixture directory is indexed; mapped back, those indexes go.
    p.config("mapping:\n  rules:\n    - glob: \"fixtures/\"\n      strategy: full\n");
    p.lexictl(["update"]).success();
    assert!(p.exists(&format!("{root}/jsx/.aindex")));
    assert!(p.exists(&format!("{root}/jsx/case-3/input.js.md")));
    p.config("mapping:\n  rules: []\n");
    p.lexictl(["update"]).success();
    assert!(!p.exists(&format!("{root}/jsx/case-3/.aindex")));
    assert!(!p.exists(&format!("{root}/jsx/.aindex")));
}

/// Ruff's `.gitattributes` marks its parser's inline test inputs `linguist-generated`
/// (`crates/ruff_python_parser/resources/inline`): generated test data is still test data, grouped
/// (376 design files of ruff's library were theirs), while a generated source file is abridged.
#[test]
fn generated_test_data_is_grouped_and_generated_code_abridged() {
    let p = project()
        .file(
            "Cargo.toml",
            "[workspace]\nmembers = [\"crates/*\"]\n",
        )
        .file(
            "crates/parser/Cargo.toml",
            "[package]\nname = \"parser\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file("crates/parser/src/lib.rs", "//! Parses Python.\npub mod generated;\n")
        .file("crates/parser/src/generated.rs", "pub struct Node;\n")
        .file("crates/parser/resources/inline/ok/assign.py", "x = 1\n")
        .file("crates/parser/resources/inline/err/bad.py", "def (:\n")
        .file("crates/parser/resources/valid/expr.py", "1 + 2\n")
        .file("tools/gen.py", "print('generate')\n")
        .file("tools/gen.py.lock", "version = 1\n")
        .file(
            ".gitattributes",
            "crates/parser/resources/inline linguist-generated=true\ncrates/parser/src/generated.rs linguist-generated=true\n",
        )
        .config("scope_root: .\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    let designs = design_files(&p);
    let resources: Vec<&String> = designs
        .iter()
        .filter(|d| d.contains("/resources/"))
        .collect();
    assert!(resources.is_empty(), "{resources:?}");
    assert!(
        !designs.contains(&"tools/gen.py.lock.md".to_string()),
        "{designs:?}"
    );
    let group = p.read(".lexibrary/crates/parser/resources/_group.md");
    assert!(group.contains("`inline/`"), "{group}");
    assert!(!p.exists(".lexibrary/crates/parser/resources/inline/.aindex"));
    // Abridged: the interface only.
    let generated = p.read(".lexibrary/crates/parser/src/generated.rs.md");
    assert!(generated.contains("pub struct Node"), "{generated}");
    p.lexictl(["validate"]).success();
    p.lexictl(["update", "--check"]).success();
}

/// A code file documented before and grouped now (a mapping rule dropped, or a newer default, as
/// svelte's `custom-elements-samples/**/_config.js` on upgrade) is still read for the graph, but its
/// design file goes: the library is what a fresh one would be.
#[test]
fn code_grouped_since_it_was_documented_keeps_no_design_file() {
    let p = project()
        .file(
            "src/app.js",
            "/** The app. */\nexports.run = function run() {};\n",
        )
        .file(
            "test/app.test.js",
            "const { load } = require('./fixtures/load.js');\ntest('runs', () => load());\n",
        )
        .file(
            "test/fixtures/load.js",
            "const { run } = require('../../src/app.js');\nexports.load = () => run();\n",
        )
        .config(
            "scope_root: .\nmapping:\n  rules:\n    - glob: \"fixtures/\"\n      strategy: full\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    assert!(p.exists(".lexibrary/test/fixtures/load.js.md"));
    p.config("mapping:\n  rules: []\n");
    p.lexictl(["update"]).success();
    assert!(!p.exists(".lexibrary/test/fixtures/load.js.md"));
    // Still in the graph: the test reaches the app through it.
    let app = p.read(".lexibrary/src/app.js.md");
    assert!(app.contains("test/app.test.js"), "{app}");
    p.lexictl(["update", "--check"]).success();
    p.lexictl(["validate"]).success();
}

#[test]
fn translations_test_resources_certificates_images_minified_bundles_and_agents_rules_are_noise() {
    let minified = format!("!function(e){{{}}}(window);\n", "var a=1;".repeat(400));
    let p = project()
        .file(
            "pyproject.toml",
            "[project]\nname = \"webkit\"\nversion = \"1.0\"\n",
        )
        .file("webkit/__init__.py", "\"\"\"A web framework.\"\"\"\n")
        .file(
            "webkit/app.py",
            "\"\"\"The application object.\"\"\"\nclass App:\n    pass\n",
        )
        .file("docs/en/index.md", "# Welcome\n\nThe guide.\n")
        .file("docs/en/tutorial.md", "# Tutorial\n\nStep one.\n")
        .file("docs/de/index.md", "# Willkommen\n\nDie Anleitung.\n")
        .file("docs/de/tutorial.md", "# Anleitung\n\nSchritt eins.\n")
        .file("docs/ja/index.md", "# ようこそ\n\nガイド。\n")
        .file(
            "crates/parser/src/lib.rs",
            "//! Parses.\npub fn parse() {}\n",
        )
        .file(
            "crates/parser/Cargo.toml",
            "[package]\nname = \"parser\"\nversion = \"0.1.0\"\n",
        )
        .file("crates/parser/resources/test/invalid.py", "def (:\n")
        .file("crates/parser/resources/test/ok.py", "x = 1\n")
        .file(
            "tests/certs/server.crt",
            "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
        )
        .file(
            "tests/certs/server.csr",
            "-----BEGIN CERTIFICATE REQUEST-----\nMIIB\n-----END CERTIFICATE REQUEST-----\n",
        )
        .file("tests/certs/ca.srl", "01\n")
        .file(
            "tests/certs/chain.pem",
            "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
        )
        .file(
            "tests/test_app.py",
            "from webkit.app import App\n\ndef test_app():\n    App()\n",
        )
        .file("tests/templates/page.html", "<p>{{ name }}</p>\n")
        .file("tests/static/config.json", "{\"debug\": true}\n")
        .file("tests/data/input.txt", "some input\n")
        .file("webkit/static/bundle.js", &minified)
        .file(
            "docs/sponsors/acme.svg",
            "<svg xmlns=\"http://www.w3.org/2000/svg\"></svg>\n",
        )
        .config("scope_root: .\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    let designs = design_files(&p);
    for noise in [
        "docs/de/index.md.md",
        "docs/ja/index.md.md",
        "crates/parser/resources/test/invalid.py.md",
        "tests/certs/server.crt.md",
        "tests/certs/server.csr.md",
        "tests/certs/ca.srl.md",
        "tests/certs/chain.pem.md",
        "webkit/static/bundle.js.md",
        "docs/sponsors/acme.svg.md",
        "AGENTS.md.md",
        "tests/templates/page.html.md",
        "tests/static/config.json.md",
        "tests/data/input.txt.md",
    ] {
        assert!(
            !designs.contains(&noise.to_string()),
            "{noise}: {designs:?}"
        );
    }
    for code in [
        "webkit/app.py.md",
        "crates/parser/src/lib.rs.md",
        "docs/en/index.md.md",
    ] {
        assert!(designs.contains(&code.to_string()), "{code}: {designs:?}");
    }
    p.lexictl(["validate"]).success();
}

// ── Descriptions chosen, not found (Measured 3, What to build 3) ────────────────────────────────

#[test]
fn a_description_is_never_a_todo_a_badge_table_a_compatibility_note_or_a_stray_comment() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"gauge\"\nversion = \"0.1.0\"\ndescription = \"Measures things\"\n",
        )
        .file(
            "README.md",
            "# gauge\n\n| Component | Version |\n| --- | --- |\n| gauge | 0.1 |\n\n[![ci](https://ci.example/badge.svg)](https://ci.example)\n\nGauge measures lengths and weights of things.\n",
        )
        .file("src/lib.rs", "pub mod units;\npub mod scale;\npub use units::Unit;\n")
        .file(
            "src/units.rs",
            "// TODO: use a third party library for this.\n\n/// A unit of measure.\npub struct Unit;\n",
        )
        .file(
            "src/scale.rs",
            "// let old = Scale::legacy();\n// old.run();\n\npub fn weigh() -> u32 {\n    1\n}\n",
        )
        .file(
            "cli/package.json",
            "{\"name\": \"gauge-cli\", \"main\": \"index.js\"}\n",
        )
        .file(
            "cli/README.md",
            "# gauge-cli\n\n## Compatibility Note\n\nNode 12 is not supported any more.\n",
        )
        .file("cli/index.js", "'use strict';\nmodule.exports = function run() {};\n")
        .file(
            "tools/complete.rs",
            "//! Completions for zsh. The generated file warns \"Generated file, not edited by hand\".\npub fn zsh() {}\n",
        )
        .config("scope_root: .\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    for source in ["src/lib.rs", "src/units.rs", "src/scale.rs", "cli/index.js"] {
        let text = description(&p, source);
        for bad in [
            "TODO",
            "| Component",
            "Compatibility",
            "badge",
            "let old",
            "old.run",
        ] {
            assert!(!text.contains(bad), "{source}: {text}");
        }
    }
    let complete = p.read(".lexibrary/tools/complete.rs.md");
    assert!(
        !complete.to_ascii_lowercase().contains("generated file"),
        "prose mentioning generated text is not a generated marker:\n{complete}"
    );
    assert!(description(&p, "tools/complete.rs").contains("Completions for zsh"));
    p.lexictl(["validate"]).success();
}

#[test]
fn a_module_docstring_with_copyright_and_licence_fields_keeps_its_prose() {
    let p = project()
        .file(
            "pkg/__init__.py",
            "\"\"\"\n    pkg\n    ~~~\n\n    A microframework for tiny services.\n\n    :copyright: 2010 Pallets.\n    :license: BSD-3-Clause, see LICENSE for more details.\n\"\"\"\n\n__all__ = [\"App\"]\nfrom .app import App\n",
        )
        .file("pkg/app.py", "\"\"\"The application object.\"\"\"\nclass App:\n    pass\n")
        .config("scope_root: .\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    let text = description(&p, "pkg/__init__.py");
    assert!(
        text.contains("A microframework for tiny services"),
        "{text}"
    );
    assert!(
        !text.contains("copyright") && !text.contains("license"),
        "{text}"
    );
}

#[test]
fn a_fallback_description_does_not_change_when_a_body_changes() {
    let p = project()
        .file(
            "src/_shapes.py",
            "def _area(side):\n    return side * side\n",
        )
        .file("src/settings.yaml", "debug: false\n")
        .config("scope_root: .\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    let before: Vec<String> = ["src/_shapes.py", "src/settings.yaml"]
        .iter()
        .map(|source| description(&p, source))
        .collect();
    for text in &before {
        assert!(!text.contains("line"), "no line count: {text}");
    }
    p.write(
        "src/_shapes.py",
        "def _area(side):\n    squared = side * side\n    return squared\n",
    );
    p.write("src/settings.yaml", "debug: false\nlevel: 3\n");
    p.lexictl(["update"]).success();
    let after: Vec<String> = ["src/_shapes.py", "src/settings.yaml"]
        .iter()
        .map(|source| description(&p, source))
        .collect();
    assert_eq!(after, before);
}

// ── Dependencies and calls exact (Measured 4, What to build 4) ──────────────────────────────────

#[test]
fn rust_paths_in_expressions_and_macro_bodies_are_dependencies_and_calls() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"rt\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file(
            "src/lib.rs",
            "//! A runtime.\nmacro_rules! cfg_rt { ($($item:item)*) => { $($item)* } }\npub mod task;\npub mod runtime;\npub mod util;\n",
        )
        .file("src/task/mod.rs", "//! Tasks.\npub mod spawn;\n")
        .file(
            "src/task/spawn.rs",
            "//! Spawning tasks.\ncfg_rt! {\n    /// Spawn a task.\n    pub fn spawn() {\n        spawn_inner();\n    }\n}\n\n/// The spawn every path ends in.\npub(crate) fn spawn_inner() {}\n",
        )
        .file("src/runtime/mod.rs", "//! The runtime.\npub mod builder;\n")
        .file(
            "src/runtime/builder.rs",
            "//! Builds runtimes.\npub struct Builder;\nimpl Builder {\n    /// Spawn on the built runtime.\n    pub fn spawn(&self) {\n        crate::task::spawn::spawn_inner();\n    }\n}\n",
        )
        .file("src/util/mod.rs", "//! Utilities.\npub mod clock;\npub mod helper;\n")
        .file("src/util/clock.rs", "//! A clock.\npub fn now() -> u64 { 0 }\n")
        .file(
            "src/util/helper.rs",
            "//! Helpers.\ncfg_rt! {\n    pub fn stamp() -> u64 {\n        super::clock::now()\n    }\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    let builder = p.read(".lexibrary/src/runtime/builder.rs.md");
    assert!(builder.contains("src/task/spawn.rs"), "{builder}");
    let helper = p.read(".lexibrary/src/util/helper.rs.md");
    assert!(helper.contains("src/util/clock.rs"), "{helper}");
    // spawn_inner is called by `spawn` inside `cfg_rt!` and by `Builder::spawn` by its path.
    let callers = p
        .lexi(["lookup", "src/task/spawn.rs", "--member", "spawn_inner"])
        .success();
    callers
        .stdout_has("- Called by: spawn\n")
        .stdout_has("- Called from: src/runtime/builder.rs (Builder.spawn)");
}

#[test]
fn a_pyproject_in_a_test_fixture_is_no_import_root_for_the_rest_of_the_repository() {
    let p = project()
        .file(
            "pyproject.toml",
            "[project]\nname = \"linter\"\nversion = \"1.0\"\n",
        )
        .file("linter/__init__.py", "\"\"\"A linter.\"\"\"\n")
        .file("linter/module.py", "\"\"\"Rules.\"\"\"\nRULES = []\n")
        .file(
            "linter/resources/sample/pyproject.toml",
            "[project]\nname = \"sample\"\n",
        )
        .file("linter/resources/sample/module.py", "X = 1\n")
        .file("tests/inputs/star_import.py", "from module import *\n")
        .file(
            "linter/check.py",
            "\"\"\"Checks.\"\"\"\nfrom module import *\n",
        )
        .config("scope_root: .\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    let check = p.read(".lexibrary/linter/check.py.md");
    assert!(
        !check.contains("linter/resources/sample/module.py"),
        "a fixture's pyproject.toml made a repository-wide import root:\n{check}"
    );
}

// ── Tests through helpers, per file, searchable (Measured 5, What to build 6) ───────────────────

#[test]
fn tests_reaching_code_through_helpers_outside_the_scope_are_its_tests() {
    let p = project()
        .file(
            "package.json",
            "{\"name\": \"mini\", \"main\": \"lib/index.js\"}\n",
        )
        .file(
            "lib/index.js",
            "/** The mini framework. */\nmodule.exports = require('./a');\n",
        )
        .file(
            "lib/a.js",
            "/** Routes requests. */\nmodule.exports = function route() {};\n",
        )
        .file(
            "test-helpers/app.js",
            "const route = require('../lib/a');\nmodule.exports = { app: () => route };\n",
        )
        .file(
            "test/route.test.js",
            "const { app } = require('../test-helpers/app');\ntest('routes', () => app());\n",
        )
        .config("scope_root: [lib, test]\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    assert!(!p.exists(".lexibrary/test-helpers/app.js.md"));
    let design = p.read(".lexibrary/lib/a.js.md");
    assert!(design.contains("test/route.test.js"), "{design}");
    p.lexi(["impact", "lib/a.js"])
        .success()
        .stdout_has("test/route.test.js")
        .stdout_lacks("Nothing in the library depends on it");
}

#[test]
fn rust_test_functions_are_searchable_and_tests_lists_are_per_file() {
    let p = project()
        .file(
            "Cargo.toml",
            "[package]\nname = \"calc\"\nversion = \"0.1.0\"\nedition = \"2021\"\n",
        )
        .file(
            "src/lib.rs",
            "//! A calculator.\npub mod add;\npub mod mul;\npub mod docs;\n",
        )
        .file("src/add.rs", "//! Addition.\npub fn add(a: i32, b: i32) -> i32 { a + b }\n")
        .file("src/mul.rs", "//! Multiplication.\npub fn mul(a: i32, b: i32) -> i32 { a * b }\n")
        .file("src/docs.rs", "//! Notes on how the calculator rounds; no code.\n")
        .file(
            "tests/adding.rs",
            "use calc::add::add;\n\n#[test]\nfn adds_two_small_numbers() {\n    assert_eq!(add(1, 2), 3);\n}\n",
        )
        .file(
            "tests/multiplying.rs",
            "use calc::mul::mul;\n\n#[test]\nfn multiplies_by_zero() {\n    assert_eq!(mul(1, 0), 0);\n}\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.lexi(["search", "adds_two_small_numbers"])
        .success()
        .stdout_has("tests/adding.rs");
    let add = p.read(".lexibrary/src/add.rs.md");
    assert!(add.contains("tests/adding.rs"), "{add}");
    assert!(!add.contains("tests/multiplying.rs"), "{add}");
    let docs = p.read(".lexibrary/src/docs.rs.md");
    assert!(
        !docs.contains("tests/adding.rs") && !docs.contains("tests/multiplying.rs"),
        "a doc-only module lists no crate-wide tests:\n{docs}"
    );
    let adding = description(&p, "tests/adding.rs");
    assert!(
        adding.contains("add"),
        "a Rust test file says what it tests: {adding}"
    );
}

#[test]
fn fallbacks_tell_files_apart_by_example_manifest_and_the_type_they_implement() {
    let p = project()
        .file(
            "Cargo.toml",
            "[workspace]\nmembers = [\"crates/*\"]\n",
        )
        .file(
            "crates/cli/Cargo.toml",
            "[package]\nname = \"grep-cli\" # the crate\nversion = \"0.1.0\"\ndescription = \"Utilities for command line applications.\"\n",
        )
        .file(
            "crates/core/Cargo.toml",
            "[package]\nname = \"grep-core\"\nversion = \"0.1.0\"\ndescription = \"The core of grep.\"\n",
        )
        .file("crates/core/src/lib.rs", "//! The core.\npub struct Handle;\nmod metrics;\n")
        .file(
            "crates/core/src/metrics.rs",
            "use super::Handle;\n\nimpl Handle {\n    pub(crate) fn num_workers(&self) -> usize {\n        1\n    }\n\n    pub(crate) fn num_tasks(&self) -> usize {\n        2\n    }\n}\n",
        )
        .file("crates/cli/src/lib.rs", "//! The cli.\npub fn run() {}\n")
        .file(
            "examples/hello/index.js",
            "'use strict';\nconst express = require('express');\nmodule.exports = express();\n",
        )
        .file(
            "examples/cookies/index.js",
            "'use strict';\nconst express = require('express');\nmodule.exports = express();\n",
        )
        .config("scope_root: .\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    assert_eq!(
        description(&p, "crates/cli/Cargo.toml"),
        "Cargo manifest of `grep-cli`: Utilities for command line applications."
    );
    assert_eq!(
        description(&p, "crates/core/Cargo.toml"),
        "Cargo manifest of `grep-core`: The core of grep."
    );
    let hello = description(&p, "examples/hello/index.js");
    let cookies = description(&p, "examples/cookies/index.js");
    assert!(hello.starts_with("Example `hello`"), "{hello}");
    assert_ne!(hello, cookies);
    assert_eq!(
        description(&p, "crates/core/src/metrics.rs"),
        "Methods of `Handle`: `num_workers` and `num_tasks`."
    );
}

// ── Descriptions chosen, not found (issue 32: two files share no description) ─────────────────

/// Express's view templates were 23 × "File.", every workflow "YAML file.", gson's POMs "File.",
/// tokio's macro files "Rust source with no public items.", gin's JSON codecs one Go doc four
/// times: each now says what it is from its own text or place, or names itself — and the `.aindex`
/// row beside the name drops the name again.
#[test]
fn files_of_one_kind_say_what_each_is_for_and_share_no_description() {
    let p = project()
        .file(
            "views/404.ejs",
            "<html><head><title>Not Found</title></head><body><h1>404</h1></body></html>\n",
        )
        .file(
            "views/users/edit.ejs",
            "<%- include('../header') -%>\n<h1>Editing <%= user.name %></h1>\n",
        )
        .file("views/footer.ejs", "</body>\n</html>\n")
        .file("views/header.ejs", "<html>\n<body>\n")
        .file(
            ".github/workflows/ci.yml",
            "name: CI\non:\n  push:\n  pull_request:\njobs: {}\n",
        )
        .file(
            ".github/dependabot.yml",
            "version: 2\nupdates:\n  - package-ecosystem: cargo\n    directory: /\n",
        )
        .file(
            "pom.xml",
            "<project>\n  <artifactId>gson-parent</artifactId>\n  <name>Gson Parent</name>\n  <description>Gson JSON library.</description>\n</project>\n",
        )
        .file(
            "scripts/bump.sh",
            "#!/bin/sh\nset -e\n# Bumps the version in every manifest.\nsed -i x\n",
        )
        .file("Cargo.toml", "[package]\nname = \"tk\"\nversion = \"0.1.0\"\n")
        .file("src/lib.rs", "//! Tk.\n#[macro_use]\nmod macros;\npub fn run() {}\n")
        .file(
            "src/macros.rs",
            "macro_rules! cfg_rt {\n    ($($i:item)*) => { $($i)* }\n}\nmacro_rules! cfg_net {\n    ($($i:item)*) => { $($i)* }\n}\n",
        )
        .file(
            "codec/json/json.go",
            "//go:build !jsoniter\n\n// Package json picks the JSON library.\npackage json\n\nfunc Marshal() {}\n",
        )
        .file(
            "codec/json/jsoniter.go",
            "//go:build jsoniter\n\n// Package json picks the JSON library.\npackage json\n\nfunc Marshal() {}\n",
        )
        .file("go.mod", "module example.com/gin\n\ngo 1.21\n")
        .config("scope_root: .\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    let sources = [
        "views/404.ejs",
        "views/users/edit.ejs",
        "views/footer.ejs",
        "views/header.ejs",
        ".github/workflows/ci.yml",
        ".github/dependabot.yml",
        "pom.xml",
        "scripts/bump.sh",
        "src/macros.rs",
        "codec/json/json.go",
        "codec/json/jsoniter.go",
    ];
    let mut seen = std::collections::BTreeSet::new();
    let mut snapshot = String::new();
    for source in sources {
        let text = description(&p, source);
        assert!(seen.insert(text.clone()), "shared: {text}");
        snapshot.push_str(&format!("{source}: {text}\n"));
    }
    let views = p.read(".lexibrary/views/.aindex");
    let rows: Vec<&str> = views
        .lines()
        .filter(|line| line.starts_with("| `"))
        .collect();
    snapshot.push_str(&format!("\nviews/.aindex rows:\n{}\n", rows.join("\n")));
    insta::assert_snapshot!(snapshot);
    p.lexictl(["validate"]).success();
    p.lexictl(["update", "--check"]).success();
}
