//! Files git keeps out of the working tree on purpose — outside a sparse checkout (cone and
//! non-cone, with a sparse index, in a `blob:none` partial clone) or marked `skip-worktree` — are not
//! deleted files: their design files and their directories' indexes stay, nothing reports them stale
//! or as something to commit, and `update --check`, `validate` and `status` agree. Real `git
//! sparse-checkout`, real hooks, real pushes.

use crate::support::{project, TestProject};
use crate::test_hooks::{hook_log, wait_for_worker};

/// A Python project documented whole (`scope_root: .`): `src/` imports `other/`, which imports
/// `src/`, and `tests/` tests `src/a.py` — and `src/core.py`, in more test files than its design
/// file lists ("… and 6 more"); the library is committed.
fn origin() -> TestProject {
    let mut builder = project().file("src/core.py", "def core():\n    return 0\n");
    for n in 0..9 {
        builder = builder.file(
            &format!("tests/test_core{n}.py"),
            format!("from src import core\n\ndef test_core{n}():\n    assert core.core() == 0\n"),
        );
    }
    let p = builder
        .file("src/__init__.py", "")
        .file(
            "src/a.py",
            "\"\"\"The a module of the sample.\"\"\"\n\ndef a():\n    return 1\n",
        )
        .file(
            "src/b.py",
            "from other import o\nfrom src import a\n\ndef b():\n    return o.o() + a.a()\n",
        )
        .file("other/__init__.py", "")
        .file(
            "other/o.py",
            "from src import a\n\ndef o():\n    return a.a()\n",
        )
        .file("other/deep/d.py", "def d():\n    return 4\n")
        .file(
            "tests/test_a.py",
            "from src import a\n\ndef test_a():\n    assert a.a() == 1\n",
        )
        .file("README.md", "# Sample\n\nA sample project.\n")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    assert!(p
        .read(".lexibrary/src/core.py.md")
        .contains(" more: `lexi impact src/core.py`"));
    p.commit_all("library");
    p
}

/// Clone `origin` to `name` without a checkout, set the sparse patterns, check out `main`.
fn sparse_clone(origin: &TestProject, name: &str, set: &[&str]) -> TestProject {
    let c = origin.clone_to_without_checkout(name);
    c.git(["sparse-checkout"]).args(set).success();
    c.git(["checkout", "-q", "main"]).success();
    c
}

/// The design files and indexes a sparse checkout must keep.
const OUTSIDE: &[&str] = &[
    ".lexibrary/other/o.py.md",
    ".lexibrary/other/deep/d.py.md",
    ".lexibrary/other/.aindex",
    ".lexibrary/other/deep/.aindex",
    ".lexibrary/tests/test_a.py.md",
];

/// Everything agrees the library is current, and an update writes nothing.
fn all_agree_it_is_current(c: &TestProject) {
    c.lexictl(["update", "--check"])
        .success()
        .stdout_lacks("stale");
    c.lexictl(["validate"]).success();
    c.lexictl(["status"]).success().stdout_has("Stale: 0");
    c.lexictl(["update"]).success();
    c.git(["status", "--porcelain"]).success().stdout_is("");
    for kept in OUTSIDE {
        assert!(c.exists(kept), "{kept} was removed");
    }
}

#[test]
fn a_non_cone_sparse_checkout_keeps_the_design_files_outside_it() {
    let p = origin();
    let c = sparse_clone(&p, "c", &["set", "--no-cone", "/src/", "/.lexibrary/"]);
    assert!(!c.exists("other/o.py") && !c.exists("README.md"), "sparse");
    all_agree_it_is_current(&c);
    c.lexictl(["validate", "--severity", "info"]).success();
    // src/a.py's Dependents and Tests still name the files outside.
    let design = c.read(".lexibrary/src/a.py.md");
    assert!(
        design.contains("- other/o.py") && design.contains("- tests/test_a.py"),
        "{design}"
    );

    // The issue's repro: the hooks, a commit inside the checkout, a push.
    let remote = p.clone_bare_to("remote.git");
    c.git(["remote", "set-url", "origin"])
        .args([remote.root.as_os_str()])
        .success();
    c.lexictl(["setup", "--hooks"]).success();
    c.write(
        "src/a.py",
        "\"\"\"The a module of the sample.\"\"\"\n\ndef a():\n    return 2\n",
    );
    c.commit_all("a returns 2");
    wait_for_worker(&c, "");
    let changed = c.git(["status", "--porcelain"]).success().stdout;
    assert_eq!(
        changed.trim(),
        "M .lexibrary/src/a.py.md",
        "only the changed file's design file: {}",
        hook_log(&c, "")
    );
    c.commit_all("library");
    wait_for_worker(&c, "");
    c.git(["push", "-q", "origin", "main"]).success();
    let listed = remote
        .git(["ls-tree", "-r", "--name-only", "main", ".lexibrary/other"])
        .success()
        .stdout;
    assert!(
        listed.contains(".lexibrary/other/o.py.md"),
        "the remote kept it:\n{listed}"
    );
    all_agree_it_is_current(&c);
}

#[test]
fn a_cone_sparse_checkout_with_a_sparse_index_follows_a_pull_outside_it() {
    let p = origin();
    let c = p.clone_to_without_checkout("c");
    c.git(["sparse-checkout", "init", "--cone", "--sparse-index"])
        .success();
    c.git(["sparse-checkout", "set", "src", ".lexibrary"])
        .success();
    c.git(["checkout", "-q", "main"]).success();
    assert!(
        c.git(["ls-files", "--sparse"])
            .success()
            .stdout
            .contains("other/\n"),
        "a sparse directory entry"
    );
    assert!(
        c.exists("README.md") && !c.exists("other"),
        "cone: root files, src/"
    );
    all_agree_it_is_current(&c);
    // A teammate changes a file outside the cone and its design file; this clone pulls.
    p.write(
        "other/o.py",
        "from src import a\n\ndef o():\n    return a.a() * 3\n\ndef more():\n    return 0\n",
    );
    p.lexictl(["update"]).success();
    p.commit_all("other changes");
    c.git(["pull", "-q", "--no-rebase"]).success();
    c.lexictl(["update", "--changed-only"]).success();
    c.git(["status", "--porcelain"]).success().stdout_is("");
    assert!(c.read(".lexibrary/other/o.py.md").contains("def more()"));
    all_agree_it_is_current(&c);
    // A new file inside the cone that imports one outside it: resolved, not "missing".
    c.write(
        "src/c.py",
        "from other.deep import d\n\ndef c():\n    return d.d()\n",
    );
    c.lexictl(["update"]).success();
    assert!(c
        .read(".lexibrary/src/c.py.md")
        .contains("- other/deep/d.py"));
    c.lexictl(["validate"]).success();
}

#[test]
fn a_partial_clone_with_a_cone_keeps_what_it_never_fetched() {
    let p = origin();
    p.git(["config", "uploadpack.allowFilter", "true"])
        .success();
    let url = format!("file://{}", p.root.display());
    let c = p.clone_with_args("c", &["--filter=blob:none", "--no-checkout", &url]);
    c.git(["sparse-checkout", "set", "--cone", "src", ".lexibrary"])
        .success();
    c.git(["checkout", "-q", "main"]).success();
    let missing = c
        .git(["rev-list", "--objects", "--missing=print", "HEAD"])
        .success()
        .stdout;
    assert!(
        missing.lines().any(|line| line.starts_with('?')),
        "blobs left unfetched"
    );
    all_agree_it_is_current(&c);
}

#[test]
fn skip_worktree_files_are_present_and_unchanged() {
    let p = origin();
    let tests = p.git(["ls-files", "tests"]).success().stdout;
    p.git(["update-index", "--skip-worktree", "other/o.py"])
        .args(tests.lines())
        .success();
    std::fs::remove_file(p.path("other/o.py")).expect("rm");
    std::fs::remove_dir_all(p.path("tests")).expect("rm -r");
    p.git(["status", "--porcelain"]).success().stdout_is("");
    all_agree_it_is_current(&p);
    // A full update from no cache at all says the same.
    std::fs::remove_file(p.path(".git/lexibrarian/cache")).expect("rm cache");
    p.lexictl(["update"]).success();
    p.git(["status", "--porcelain"]).success().stdout_is("");
}

/// Issue 30's repro on a flask-shaped project (`fixtures/projects/flask-like`: a `src/` package and
/// a `tests/` directory that tests it): a non-cone sparse clone of the package alone, the hooks
/// installed, a change committed and pushed — the tests' design files stay on disk and on the
/// remote, and every command agrees the library is current.
#[test]
fn a_sparse_clone_of_a_flask_like_project_keeps_the_tests_design_files() {
    let p = project()
        .fixture("flask-like")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    let tests: Vec<String> = p
        .git(["ls-files", ".lexibrary/tests"])
        .success()
        .stdout
        .lines()
        .map(str::to_string)
        .collect();
    assert!(tests.len() >= 4, "the tests are documented: {tests:?}");
    let c = sparse_clone(
        &p,
        "c",
        &[
            "set",
            "--no-cone",
            "/src/",
            "/.lexibrary/",
            "/pyproject.toml",
        ],
    );
    assert!(!c.exists("tests"), "the tests are outside the checkout");
    let remote = p.clone_bare_to("remote.git");
    c.git(["remote", "set-url", "origin"])
        .args([remote.root.as_os_str()])
        .success();
    c.lexictl(["setup", "--hooks"]).success();
    let app = c.read("src/flaskish/app.py");
    c.write(
        "src/flaskish/app.py",
        format!("{app}\n\ndef added():\n    return 1\n"),
    );
    c.commit_all("an added function");
    wait_for_worker(&c, "");
    c.commit_all("library");
    wait_for_worker(&c, "");
    c.git(["push", "-q", "origin", "main"]).success();
    let listed = remote
        .git(["ls-tree", "-r", "--name-only", "main", ".lexibrary/tests"])
        .success()
        .stdout;
    for design in &tests {
        assert!(
            c.exists(design),
            "{design} was removed: {}",
            hook_log(&c, "")
        );
        assert!(listed.contains(design.as_str()), "the remote lost {design}");
    }
    c.lexictl(["update", "--check"]).success();
    c.lexictl(["validate"]).success();
}
