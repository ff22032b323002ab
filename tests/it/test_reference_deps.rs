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
