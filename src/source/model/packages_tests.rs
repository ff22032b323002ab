//! The project's packages from the model (`packages`, each model's `code_packages`): scope on
//! real layouts.

use super::files::is_within;
use super::packages::*;
use super::*;

fn model(files: &[(&str, &str)]) -> (ProjectModel, FileIndex) {
    let (model, index, _) = crate::source::model::build_from(files, |index, read, _| {
        ProjectModel::build(index, read).0
    });
    (model, index)
}

/// A facade root package whose `src/` only re-exports: its members are in scope too.
#[test]
fn a_cargo_facade_puts_every_member_in_scope() {
    let (model, files) = model(&[
        (
            "Cargo.toml",
            "[package]\nname = \"foo\"\n[workspace]\nmembers = [\"foo_builder\", \"foo_derive\"]\n[dependencies]\nfoo_builder = { path = \"foo_builder\" }\n",
        ),
        ("src/lib.rs", "pub use foo_builder::*;\n"),
        ("tests/builder.rs", ""),
        ("examples/demo.rs", ""),
        ("docs/guide.md", ""),
        ("foo_builder/Cargo.toml", "[package]\nname = \"foo_builder\"\n"),
        ("foo_builder/src/lib.rs", ""),
        ("foo_builder/src/command.rs", ""),
        ("foo_derive/Cargo.toml", "[package]\nname = \"foo_derive\"\n"),
        ("foo_derive/src/lib.rs", ""),
        (
            "foo_builder/tests/fixtures/case/Cargo.toml",
            "[package]\nname = \"case\"\n",
        ),
    ]);
    let packages = model.code_packages(&files);
    assert_eq!(
        scope_roots(&packages, &files),
        ["examples", "foo_builder", "foo_derive", "src", "tests"]
    );
    let narrow = |file: &str| is_within(file, "src") || is_within(file, "tests");
    let left: Vec<&str> = code_out_of_scope(&packages, files.under(""), &narrow)
        .into_iter()
        .map(|(file, _)| file)
        .collect();
    assert_eq!(
        left,
        [
            "examples/demo.rs",
            "foo_builder/src/command.rs",
            "foo_builder/src/lib.rs",
            "foo_derive/src/lib.rs"
        ]
    );
}

#[test]
fn workspaces_and_python_layouts() {
    let (model, files) = model(&[
        (
            "package.json",
            r#"{"name": "mono", "private": true, "workspaces": ["packages/*"]}"#,
        ),
        ("pnpm-workspace.yaml", "packages:\n  - 'playgrounds/*'\n"),
        ("packages/core/package.json", r#"{"name": "core"}"#),
        ("packages/core/src/index.js", ""),
        (
            "packages/core/tests/runtime/samples/a/package.json",
            r#"{"name": "a"}"#,
        ),
        ("playgrounds/sandbox/package.json", r#"{"name": "sandbox"}"#),
        ("benchmarking/run.js", ""),
        ("pyproject.toml", "[project]\nname = \"fast-api\"\n"),
        ("fast_api/__init__.py", ""),
        ("docs_src/app/__init__.py", ""),
        ("tests/test_app.py", ""),
        ("crates/eval/Cargo.toml", "[package]\nname = \"eval\"\n"),
        (
            "crates/eval/truth/case/pyproject.toml",
            "[project]\nname = \"case\"\n",
        ),
        ("crates/eval/truth/case/main.py", ""),
    ]);
    let packages = model.code_packages(&files);
    assert_eq!(
        scope_roots(&packages, &files),
        ["crates", "fast_api", "packages", "playgrounds", "tests"]
    );
    assert_eq!(model.python.local_roots, ["crates/eval/truth/case"]);
    assert!(!model
        .python
        .roots
        .contains(&"crates/eval/truth/case".to_string()));
}

#[test]
fn test_data_directories() {
    for dir in [
        "tests/fixtures",
        "crates/x/resources/test",
        "packages/svelte/tests/runtime/samples/a",
        "pkg/testdata",
        "src/__snapshots__",
    ] {
        assert!(is_test_data(dir), "{dir}");
    }
    for dir in ["src/resources", "samples", "crates/x/src", "data"] {
        assert!(!is_test_data(dir), "{dir}");
    }
}
