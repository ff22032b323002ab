//! The dependency graph across crates, packages and source roots: every edge of the fixture
//! projects asserted in both directions — in the importer's Dependencies and in the imported file's
//! Dependents (or Tests) — and kept when only part of the tree changes.

use crate::support::{project, TestProject};

/// The `- path` lines of a design file's section (empty when the section is missing).
fn listed(p: &TestProject, source: &str, heading: &str) -> Vec<String> {
    let text = p.read(&format!(".lexibrary/{source}.md"));
    let mut lines = text
        .lines()
        .skip_while(|line| *line != format!("## {heading}"));
    lines.next();
    lines
        .take_while(|line| !line.starts_with("## ") && !line.starts_with("<!--"))
        .filter_map(|line| line.strip_prefix("- "))
        .map(str::to_string)
        .collect()
}

/// `from` lists `to` among its Dependencies and `to` lists `from` among its Dependents.
fn assert_edge(p: &TestProject, from: &str, to: &str) {
    let dependencies = listed(p, from, "Dependencies");
    assert!(
        dependencies.iter().any(|d| d == to),
        "{from} → {to}: Dependencies {dependencies:?}"
    );
    // A type-only import is marked in the importer's Dependencies only.
    let to = to.strip_suffix(" (type-only)").unwrap_or(to);
    let dependents = listed(p, to, "Dependents");
    assert!(
        dependents.iter().any(|d| d == from),
        "{from} → {to}: Dependents of {to} {dependents:?}"
    );
}

fn assert_no_edge(p: &TestProject, from: &str, to: &str) {
    let dependencies = listed(p, from, "Dependencies");
    assert!(
        !dependencies.iter().any(|d| d == to),
        "{from} must not depend on {to}: {dependencies:?}"
    );
}

/// tokio's layout in small: `tokio-stream` depends on crates.io `tokio`, which the workspace root
/// patches to its `tokio/` member, and names it with full paths and no `use`.
#[test]
fn qualified_paths_and_patched_registry_dependencies_reach_the_workspace_member() {
    let p = project()
        .file(
            "Cargo.toml",
            "[workspace]\nmembers = [\"tokio\", \"tokio-stream\"]\n\n[patch.crates-io]\ntokio = { path = \"tokio\" }\n",
        )
        .file("tokio/Cargo.toml", "[package]\nname = \"tokio\"\nversion = \"1.0.0\"\n")
        .file(
            "tokio/src/lib.rs",
            "//! The runtime.\n\npub mod sync;\n",
        )
        .file(
            "tokio/src/sync/mod.rs",
            "//! Synchronisation.\n\nmod channel;\npub use channel::Receiver;\n",
        )
        .file(
            "tokio/src/sync/channel.rs",
            "//! A channel.\n\npub struct Receiver;\n\nimpl Receiver {\n    pub fn new() -> Receiver {\n        Receiver\n    }\n}\n",
        )
        .file(
            "tokio-stream/Cargo.toml",
            "[package]\nname = \"tokio-stream\"\nversion = \"0.1.0\"\n\n[dependencies]\ntokio = { version = \"1.38.0\", features = [\"sync\"] }\n",
        )
        .file(
            "tokio-stream/src/lib.rs",
            "//! Streams.\n\npub struct ReceiverStream {\n    inner: tokio::sync::Receiver,\n}\n\npub fn open() -> ReceiverStream {\n    ReceiverStream { inner: tokio::sync::Receiver::new() }\n}\n",
        )
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    // Through the patch to the member, through its re-export to the file that defines the type.
    assert_edge(&p, "tokio-stream/src/lib.rs", "tokio/src/sync/channel.rs");
    // No longer an external package.
    let design = p.read(".lexibrary/tokio-stream/src/lib.rs.md");
    assert!(!design.contains("## External Dependencies"), "{design}");
}

#[test]
fn a_cargo_workspace_resolves_across_crates_through_renames_re_exports_macros_and_paths() {
    let p = project()
        .fixture("cargo-workspace")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    // A `[[bin]]` with its own path: `crate::` is its directory; a dependency by package name.
    assert_edge(&p, "cli/main.rs", "cli/args.rs");
    // `engine::Engine` is re-exported by the engine's lib.rs from core.rs, where it is defined.
    assert_edge(&p, "cli/main.rs", "crates/engine/src/core.rs");
    assert_no_edge(&p, "cli/main.rs", "crates/engine/src/lib.rs");
    // A renamed dependency (`utilx = { package = "app-util" }`).
    assert_edge(&p, "crates/engine/src/core.rs", "crates/util/src/text.rs");
    // A `mod` inside a macro call, `#[path]`, a raw identifier; the test module is test-only.
    assert_edge(&p, "crates/engine/src/lib.rs", "crates/engine/src/run.rs");
    assert_edge(
        &p,
        "crates/engine/src/lib.rs",
        "crates/engine/src/platform/unix.rs",
    );
    assert_edge(&p, "crates/engine/src/lib.rs", "crates/engine/src/type.rs");
    assert_no_edge(&p, "crates/engine/src/lib.rs", "crates/engine/src/tests.rs");
    // A path through a `#[path]` module and a re-export inside a macro call.
    assert_edge(
        &p,
        "crates/engine/src/run.rs",
        "crates/engine/src/platform/unix.rs",
    );
    assert_edge(&p, "crates/engine/src/core.rs", "crates/engine/src/run.rs");
    // An integration test uses its package's library: the Tests of what it reaches.
    assert_edge(
        &p,
        "crates/engine/tests/engine_it.rs",
        "crates/engine/src/core.rs",
    );
    let tests = listed(&p, "crates/engine/src/core.rs", "Tests");
    assert!(
        tests.contains(&"crates/engine/tests/engine_it.rs".to_string()),
        "{tests:?}"
    );
}

#[test]
fn python_resolves_from_package_roots_without_shadowing_the_standard_library() {
    let p = project()
        .fixture("python-src")
        .init()
        .config("scope_root: src/\n")
        .build();
    p.lexictl(["update"]).success();
    assert_edge(&p, "src/weather/forecast.py", "src/weather/units.py");
    // `import json` and `import typing` are the standard library's, not the same-named modules.
    assert_no_edge(&p, "src/weather/forecast.py", "src/weather/json.py");
    assert_no_edge(&p, "src/weather/forecast.py", "src/weather/typing.py");
    assert_eq!(
        listed(&p, "src/weather/json.py", "Dependents"),
        Vec::<String>::new()
    );
    // `from . import units` is the submodule, not the package.
    assert_no_edge(&p, "src/weather/forecast.py", "src/weather/__init__.py");
    assert_edge(&p, "src/weather/__init__.py", "src/weather/forecast.py");
    // Tests outside the scope root get no design file but fill the Tests of what they import.
    assert!(!p.exists(".lexibrary/tests/test_forecast.py.md"));
    let tests = listed(&p, "src/weather/units.py", "Tests");
    assert_eq!(tests, ["tests/test_forecast.py"]);
    let tests = listed(&p, "src/weather/__init__.py", "Tests");
    assert_eq!(tests, ["tests/test_forecast.py"]);
}

#[test]
fn javascript_resolves_workspaces_exports_imports_paths_and_jsdoc() {
    let p = project().fixture("js-workspace").init().build();
    p.lexictl(["update"]).success();
    let core = "packages/core/src";
    let web = "packages/web/src";
    // `#config` through the package's `imports`; a `.js` specifier naming its `.ts` source.
    assert_edge(
        &p,
        &format!("{core}/index.ts"),
        &format!("{core}/config.ts"),
    );
    assert_edge(
        &p,
        &format!("{core}/index.ts"),
        &format!("{core}/internal/flags.ts"),
    );
    // A workspace package by name: `exports` points at dist/, whose source is src/ (outDir →
    // rootDir); a subpath pattern; tsconfig `paths`.
    assert_edge(&p, &format!("{web}/app.ts"), &format!("{core}/index.ts"));
    assert_edge(
        &p,
        &format!("{web}/app.ts"),
        &format!("{core}/internal/flags.ts"),
    );
    assert_edge(
        &p,
        &format!("{web}/app.ts"),
        &format!("{web}/lib/helper.ts"),
    );
    // JSDoc `@import` and `import("…")` types (only the type checker reads them: marked), CommonJS
    // `require`.
    assert_edge(
        &p,
        &format!("{web}/legacy.js"),
        &format!("{core}/index.ts (type-only)"),
    );
    assert_edge(
        &p,
        &format!("{web}/legacy.js"),
        &format!("{web}/lib/helper.ts"),
    );
}

/// The cargo-workspace fixture, its library written, committed and current: what the hook's next
/// `--changed-only` run starts from.
fn cargo_workspace_with_its_library_committed() -> TestProject {
    let p = project()
        .fixture("cargo-workspace")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexictl(["update", "--changed-only"]).success();
    p
}

#[test]
fn a_re_export_that_moves_takes_its_importers_with_it_in_a_changed_only_run() {
    let p = cargo_workspace_with_its_library_committed();
    // The engine now defines `Engine` in a new module; only lib.rs and the new file change.
    p.write(
        "crates/engine/src/engine.rs",
        "//! The engine, moved.\n\npub struct Engine;\n\nimpl Engine {\n    pub fn new() -> Engine {\n        Engine\n    }\n\n    pub fn run(&self, _input: &str) {}\n}\n",
    );
    p.write(
        "crates/engine/src/lib.rs",
        p.read("crates/engine/src/lib.rs").replace(
            "pub use self::core::Engine;",
            "mod engine;\npub use self::engine::Engine;",
        ),
    );
    p.commit_all("move Engine");
    p.lexictl(["update", "--changed-only"])
        .success()
        .stdout_has("(changed-only)");
    assert_edge(&p, "cli/main.rs", "crates/engine/src/engine.rs");
    assert_no_edge(&p, "cli/main.rs", "crates/engine/src/core.rs");
}

#[test]
fn a_body_edit_of_a_rust_module_leaves_its_importers_unread_and_a_new_item_reads_them() {
    let p = cargo_workspace_with_its_library_committed();
    let core = "crates/engine/src/core.rs";
    // A body and a signature edit keep core.rs's module scope: only core.rs is read (its importers
    // — lib.rs re-exports `Engine`, cli/main.rs and the tests use it — keep their dependencies).
    p.write(
        core,
        p.read(core)
            .replace(
                "self.runner.go(&shout(input));",
                "let loud = shout(input);\n        self.runner.go(&loud);",
            )
            .replace(
                "pub fn run(&self, input: &str)",
                "pub fn run(&self, input: &str) -> ()",
            ),
    );
    p.commit_all("body and signature");
    p.lexictl(["update", "--changed-only"])
        .success()
        .stdout_has("(changed-only): 1 interface changed\n");
    // A new item changes what paths through core.rs may land on: its importers are resolved again.
    p.write(core, format!("{}\npub struct Gear;\n", p.read(core)));
    p.commit_all("new item");
    p.lexictl(["update", "--changed-only"])
        .success()
        .stdout_has("(changed-only): 1 interface changed, ");
    assert_edge(&p, "cli/main.rs", "crates/engine/src/core.rs");
    // The library the changed-only runs wrote is the one a full run writes.
    p.lexictl(["update", "--check"]).success();
}

#[test]
fn a_module_conflicted_then_resolved_leaves_the_graph_a_full_run_writes() {
    let p = cargo_workspace_with_its_library_committed();
    let core = "crates/engine/src/core.rs";
    let original = p.read(core);
    p.git(["checkout", "-q", "-b", "side"]).success();
    p.write(
        core,
        original.replace("pub struct Engine {", "pub struct Engine {\n    side: u8,"),
    );
    p.commit_all("side");
    p.git(["checkout", "-q", "main"]).success();
    p.write(
        core,
        original.replace("pub struct Engine {", "pub struct Engine {\n    main: u8,"),
    );
    p.commit_all("main");
    p.git(["merge", "-q", "side"]).code(1);
    p.lexictl(["update"])
        .success()
        .stdout_has(&format!("SKIPPED_CONFLICT  {core}"));
    // Resolved with a body-only difference from the text before the conflict.
    p.write(
        core,
        original.replace("pub struct Engine {", "pub struct Engine {\n    both: u8,"),
    );
    p.commit_all("merged");
    p.lexictl(["update", "--changed-only"]).success();
    assert_edge(&p, "cli/main.rs", core);
    assert_edge(&p, "crates/engine/src/lib.rs", core);
    // What the changed-only runs left is what a run from scratch writes.
    let library = p.read(&format!(".lexibrary/{core}.md"));
    std::fs::remove_dir_all(p.root.join(".git/lexibrarian")).expect("drop the state");
    p.lexictl(["update"]).success();
    assert_eq!(p.read(&format!(".lexibrary/{core}.md")), library);
    p.lexictl(["update", "--check"]).success();
}

#[test]
fn a_manifest_change_reads_the_model_again_and_verbose_names_what_did_not_resolve() {
    let p = project()
        .fixture("cargo-workspace")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    // Drop the path dependency: `engine::Engine` is no project file any more.
    p.write(
        "Cargo.toml",
        p.read("Cargo.toml")
            .replace("engine = { path = \"crates/engine\" }", "engine = \"1\""),
    );
    p.commit_all("engine from the registry");
    let out = p
        .lexictl(["update", "--changed-only", "--verbose"])
        .success();
    out.stdout_has("cli/main.rs: engine::Engine");
    assert_no_edge(&p, "cli/main.rs", "crates/engine/src/core.rs");
    let report = p
        .lexictl(["update", "--format", "json", "--verbose", "cli/main.rs"])
        .json();
    assert_eq!(
        report["unresolved"]["cli/main.rs"],
        serde_json::json!(["engine::Engine"])
    );
}
