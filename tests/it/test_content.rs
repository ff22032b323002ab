//! What a fresh structural library says (issue 13): descriptions of purpose (never a licence banner,
//! a tag line or an RST underline), complete CommonJS/TypeScript/Python interfaces, the default
//! mapping strategies (lockfiles, snapshots, expected output and vendored code skipped, fixtures
//! grouped, generated files abridged), and a library that passes its own `validate`.

use crate::support::project;

const DESIGNS: &[&str] = &[
    "lib/application.js",
    "lib/response.js",
    "lib/express.js",
    "src/index.ts",
    "src/legacy.ts",
    "pkg/__init__.py",
    "pkg/app.py",
    "pkg/tag.py",
    "gen/api_pb.js",
];

#[test]
fn a_fresh_library_of_the_content_fixture_passes_validate_and_says_what_files_are_for() {
    let p = project()
        .fixture("content")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    // Not even an info finding: a non-code import lists its Dependents, and a file named
    // `[[...slug]].js` is not a wikilink.
    p.lexictl(["validate"])
        .success()
        .stdout_lacks("dependents-gap")
        .stdout_lacks("wikilink");
    p.lexictl(["update", "--check"]).success();
    assert!(p
        .read(".lexibrary/data/site.json.md")
        .contains("## Dependents\n\n- pages/[[...slug]].js\n"));
    // A directory without a doc of its own is described by its README; the index file in it by its
    // own text (a design file never depends on another file's text, DESIGN §10).
    let widgets = p.read(".lexibrary/widgets/.aindex");
    assert!(
        widgets.contains("Reusable form widgets for the admin pages."),
        "{widgets}"
    );
    let index = p.read(".lexibrary/widgets/index.js.md");
    assert!(
        index.contains("description: Defines the `field` function."),
        "{index}"
    );
    for skipped in [
        "Cargo.lock",
        "package-lock.json",
        "tests/__snapshots__/it.snap",
        "tests/cases/run.out",
        "vendor/left/index.js",
        "tests/fixtures/cases/one.js",
    ] {
        assert!(
            !p.exists(&format!(".lexibrary/{skipped}.md")),
            "{skipped} should have no design file"
        );
    }
    let aindex = p.read(".lexibrary/.aindex");
    assert!(aindex.contains("`Cargo.lock`"), "{aindex}");
    let mut snapshot = String::new();
    for source in DESIGNS {
        let text = p.read(&format!(".lexibrary/{source}.md"));
        let content = text.split("<!-- lexibrarian:meta").next().unwrap_or("");
        snapshot.push_str(&format!("==> {source}\n{content}"));
    }
    for banned in ["Copyright", "Licensed", "@import", "~~~", "use strict"] {
        let descriptions: Vec<&str> = snapshot
            .lines()
            .filter(|line| line.starts_with("description:"))
            .collect();
        assert!(
            !descriptions.iter().any(|d| d.contains(banned)),
            "{banned} in {descriptions:?}"
        );
    }
    insta::assert_snapshot!(snapshot);
}

#[test]
fn mapping_rules_in_config_override_the_defaults() {
    let p = project()
        .fixture("content")
        .init()
        .config("scope_root: .\nmapping:\n  rules:\n    - glob: vendor/\n      strategy: full\n    - glob: lib/response.js\n      strategy: skip\n")
        .build();
    p.lexictl(["update"]).success();
    assert!(p.exists(".lexibrary/vendor/left/index.js.md"));
    assert!(!p.exists(".lexibrary/lib/response.js.md"));
    p.lexictl(["validate"]).success();
}

#[test]
fn a_design_file_an_agent_grows_past_its_budget_still_warns() {
    let p = project()
        .fixture("content")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    let rel = ".lexibrary/pkg/app.py.md";
    let text = p.read(rel);
    let bloated = text.replacen(
        "## Interface Contract",
        &format!(
            "## Notes\n\n{}\n\n## Interface Contract",
            "An agent's long note. ".repeat(200)
        ),
        1,
    );
    std::fs::write(p.path(rel), bloated).expect("write");
    p.lexictl(["validate"]).code(2).stdout_has("over-budget");
}

/// A conflict as git writes it.
const MARKERS: &str = "<<<<<<< HEAD\nconst a = 1;\n=======\nconst a = 2;\n>>>>>>> side\n";

/// A test of a merge tool: conflict markers inside a string literal.
fn markers_in_a_string() -> String {
    format!("\"\"\"Samples for the merge tool's tests.\"\"\"\n\nSAMPLE = \"\"\"\n{MARKERS}\"\"\"\n")
}

#[test]
fn a_file_is_conflicted_while_gits_index_holds_it_unmerged() {
    let p = project()
        .fixture("javascript")
        .file("tools/merge_sample.py", markers_in_a_string())
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    // Markers inside a string literal are not a conflict: the library is current.
    p.lexictl(["update", "--check"]).success();
    assert!(p.exists(".lexibrary/tools/merge_sample.py.md"));

    p.git(["checkout", "-q", "-b", "side"]).success();
    p.write("src/store.js", "export function load() { return [1]; }\n");
    p.commit_all("side");
    p.git(["checkout", "-q", "main"]).success();
    p.write("src/store.js", "export function load() { return [2]; }\n");
    p.commit_all("main");
    p.git(["merge", "-q", "side"]).code(1);
    p.lexictl(["update"])
        .success()
        .stdout_has("SKIPPED_CONFLICT  src/store.js")
        .stdout_lacks("SKIPPED_CONFLICT  tools/merge_sample.py")
        .stderr_has("in a merge conflict");
    // Resolved by hand but not yet added: git still holds it unmerged.
    p.write(
        "src/store.js",
        "export function load() { return [1, 2]; }\n",
    );
    p.lexictl(["update"])
        .success()
        .stdout_has("SKIPPED_CONFLICT  src/store.js");
    p.git(["add", "src/store.js"]).success();
    p.lexictl(["update"])
        .success()
        .stdout_lacks("SKIPPED_CONFLICT");
    p.lexictl(["update", "--check"]).success();
}

#[test]
fn outside_git_only_a_complete_triple_outside_strings_is_a_conflict() {
    let p = project()
        .no_git()
        .fixture("javascript")
        .file("tools/merge_sample.py", markers_in_a_string())
        .file("src/conflicted.js", MARKERS)
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"])
        .success()
        .stdout_has("SKIPPED_CONFLICT  src/conflicted.js")
        .stdout_lacks("SKIPPED_CONFLICT  tools/merge_sample.py")
        .stderr_has("merge-conflict markers");
    assert!(p.exists(".lexibrary/tools/merge_sample.py.md"));
}

#[test]
fn no_secret_from_a_default_argument_or_a_docstring_reaches_the_library() {
    // Built at run time: no credential-shaped literal sits in this crate's sources.
    let openai = format!("{}-{}", "sk-proj", "abcdefghijklmnopqrstuvwx");
    let slack = format!("{}-{}", "xoxb", "examplebottokenforthetests");
    let python = format!(
        "\"\"\"Client for the chat API; tests use the key {openai}.\"\"\"\n\n\
         def connect(api_key=\"{openai}\", bot=\"{slack}\", password=\"Xk9#mQ2$vL7pR4tZ\"):\n    \
         \"\"\"Open a session as {slack}.\"\"\"\n    return api_key\n"
    );
    let javascript = format!(
        "/** Posts messages with {slack}. */\nexport function post(token = '{slack}') {{}}\n"
    );
    let p = project()
        .file("client/chat.py", python)
        .file("client/post.js", javascript)
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    p.lexictl(["validate"]).success();
    for rel in [
        ".lexibrary/client/chat.py.md",
        ".lexibrary/client/post.js.md",
        ".lexibrary/client/.aindex",
    ] {
        let text = p.read(rel);
        for secret in [&openai, &slack, &"Xk9#mQ2$vL7pR4tZ".to_string()] {
            assert!(
                !text.contains(secret.as_str()),
                "{rel} holds a secret:\n{text}"
            );
        }
    }
    let chat = p.read(".lexibrary/client/chat.py.md");
    assert!(chat.contains("api_key=\"…\""), "{chat}");
    assert!(chat.contains("tests use the key \"…\""), "{chat}");
}

#[test]
fn grouped_files_are_described_together_in_their_directorys_group_file() {
    let p = project()
        .fixture("content")
        .init()
        .config("scope_root: .\n")
        .build();
    p.write(
        "tests/fixtures/shared.js",
        "export const sample = { id: 1 };\n",
    );
    p.lexictl(["update"]).success();
    // The outermost grouped directory is the group root: its group file lists its files and names
    // the directories below it; a grouped directory below it gets neither a group file nor an
    // `.aindex`.
    let group = ".lexibrary/tests/fixtures/_group.md";
    let text = p.read(group);
    assert!(
        text.starts_with("# tests/fixtures/ (grouped)\n\nTest data:"),
        "{text}"
    );
    assert!(text.contains("Directories: `cases/`."), "{text}");
    assert!(!p.exists(".lexibrary/tests/fixtures/cases/_group.md"));
    assert!(!p.exists(".lexibrary/tests/fixtures/cases/.aindex"));
    // Each member is described by what it says, not its kind and size.
    assert!(text.contains("`shared.js`"), "{text}");
    assert!(text.contains("the `sample` constant."), "{text}");
    let index = p.read(".lexibrary/tests/fixtures/.aindex");
    assert!(
        index.contains("Grouped: named in this directory's `_group.md`"),
        "{index}"
    );
    assert!(!p.exists(".lexibrary/tests/fixtures/cases/one.js.md"));
    // Lookup of a member says where it is described, and how to give it a design file.
    p.lexi(["lookup", "tests/fixtures/cases/one.js"])
        .code(1)
        .stderr_has("tests/fixtures/cases/one.js is mapped `grouped`: it is described with its directory's other files in .lexibrary/tests/fixtures/_group.md")
        .stderr_has("map it `full` under `mapping:`");
    // A skipped file (a lockfile) has none either, and lookup says why.
    p.write("package-lock.json", "{}\n");
    p.lexictl(["update"]).success();
    p.lexi(["lookup", "package-lock.json"])
        .code(1)
        .stderr_has("package-lock.json is mapped `skip`");
    p.lexictl(["validate"]).success();
    p.lexictl(["update", "--check"]).success();
    // A member leaves: the group follows; the last one leaves: the group file goes.
    std::fs::remove_file(p.path("tests/fixtures/shared.js")).expect("rm");
    p.lexictl(["update"]).success();
    assert!(!p.read(group).contains("shared.js"));
    std::fs::remove_dir_all(p.path("tests/fixtures")).expect("rm -r");
    p.lexictl(["update"]).success();
    assert!(
        !p.exists(group),
        "the group file of a vanished directory is removed"
    );
    p.lexictl(["validate"]).success();
}

/// The design file's text above its footer.
fn design(p: &crate::support::TestProject, source: &str) -> String {
    let text = p.read(&format!(".lexibrary/{source}.md"));
    text.split("<!-- lexibrarian:meta")
        .next()
        .unwrap_or("")
        .to_string()
}

#[test]
fn items_docs_and_modules_inside_cfg_macros_are_the_files_as_tokios_are() {
    let p = project()
        .fixture("rust-macros")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    p.lexictl(["validate"]).success();
    let tcp = design(&p, "src/net/tcp.rs");
    // `bind` lives in `impl Listener { cfg_net! { … } }`; the `//!` doc inside `cfg_net!` describes
    // the file.
    assert!(
        tcp.contains("  pub async fn bind(addr: &str) -> io::Result<Listener>  // Creates a new"),
        "{tcp}"
    );
    assert!(
        tcp.contains("description: A TCP listener that accepts connections from clients.\n"),
        "{tcp}"
    );
    // Both `cfg_if!` branches' modules are dependencies, and the file that defines `cfg_net!`
    // (in the textual scope through lib.rs's `#[macro_use] mod macros;`).
    assert!(
        tcp.contains(
            "## Dependencies\n\n- src/macros.rs\n- src/net/tcp/unix.rs\n- src/net/tcp/windows.rs\n"
        ),
        "{tcp}"
    );
    // `cfg_net! { pub mod net; }` links lib.rs to net.rs, and net.rs to tcp.rs.
    let lib = design(&p, "src/lib.rs");
    assert!(lib.contains("- src/net.rs\n"), "{lib}");
    let net = design(&p, "src/net.rs");
    assert!(net.contains("## Dependents\n\n- src/lib.rs\n"), "{net}");
    assert!(net.contains("- src/net/tcp.rs\n"), "{net}");
    assert!(
        net.contains("pub mod tcp\npub use tcp::Listener\n"),
        "{net}"
    );
    insta::assert_snapshot!(tcp);
}

/// express's `lib/application.js` in small: the HTTP verbs are assigned to the app in a loop.
const EXPRESS_LIKE_APP: &str = "'use strict';\n\nvar methods = require('./utils').methods;\n\n/** Application prototype. */\nvar app = exports = module.exports = {};\n\n/** Proxy `Router#use()` to add middleware to the app router. */\napp.use = function use(fn) {\n  return this;\n};\n\n/**\n * Delegate `.VERB(...)` calls to `router.VERB(...)`.\n */\nmethods.forEach(function (method) {\n  app[method] = function (path) {\n    if (method === 'get' && arguments.length === 1) {\n      return this.set(path);\n    }\n    return this;\n  };\n});\n";

#[test]
fn members_assigned_in_a_loop_are_in_the_contract_and_found_by_search() {
    let p = project()
        .file("package.json", r#"{"name": "web", "version": "1.0.0"}"#)
        .file("lib/utils.js", "exports.methods = ['get', 'post'];\n")
        .file("lib/application.js", EXPRESS_LIKE_APP)
        .init()
        .build();
    p.lexictl(["update"]).success();
    let design = p.read(".lexibrary/lib/application.js.md");
    assert!(
        design.contains(
            "app[method] = function (path)  // for each of `methods` (get, …) — Delegate `.VERB(...)` calls to `router.VERB(...)`.\n"
        ),
        "{design}"
    );
    p.lexi(["search", "method"])
        .success()
        .stdout_has("lib/application.js");
    p.lexi(["search", "get"])
        .success()
        .stdout_has("lib/application.js");
}

#[test]
fn test_files_are_described_by_what_they_test_not_by_a_helper_class() {
    let p = project()
        .fixture("webapp")
        .file(
            "tests/test_json.py",
            "import datetime\n\nfrom shop.json import dumps\n\n\nclass FixedOffset(datetime.tzinfo):\n    \"\"\"Fixed offset in hours east from UTC.\"\"\"\n\n\ndef test_dumps():\n    assert dumps(1) == \"1\"\n\n\ndef test_aware_datetime():\n    class X:\n        \"\"\"A nested helper.\"\"\"\n\n    assert dumps(X) is not None\n",
        )
        .file(
            "test/res.json.js",
            "var request = require('supertest');\n\ndescribe('res', function(){\n  describe('.json(object)', function(){\n    it('should send json', function(){})\n    it('should set the content type', function(){})\n  })\n})\n",
        )
        .config("scope_root:\n- src/\n- tests/\n- test/\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    let description = |source: &str| -> String {
        let design = p.read(&format!(".lexibrary/{source}.md"));
        design
            .lines()
            .find_map(|line| line.strip_prefix("description: "))
            .unwrap_or_default()
            .trim_matches('\'')
            .to_string()
    };
    assert_eq!(
        description("tests/test_json.py"),
        "Tests `json` (2 tests: `dumps`, `aware_datetime`)."
    );
    assert_eq!(
        description("test/res.json.js"),
        "Tests `res.json(object)` (2 cases)."
    );
}
