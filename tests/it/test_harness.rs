//! The harness's own promises (support.rs, tests/common/hermetic.rs): children see only the
//! allow-listed environment, even when the test process runs inside a hostile one (a git hook, API
//! keys, a personal git and Lexibrarian config); the clock is fixed and ticks; a command that is
//! built but never run fails the test; failures show the command and its output; `config()` merges.

use std::collections::BTreeSet;
use std::process::Command;

use crate::support::hermetic::{EPOCH, PASSED_THROUGH};
use crate::support::project;

/// The variables a hermetic child gets besides those passed through from the test process.
const SET_BY_THE_HARNESS: &[&str] = &[
    "HOME",
    "XDG_CONFIG_HOME",
    "GIT_CONFIG_NOSYSTEM",
    "GIT_CONFIG_GLOBAL",
    "GIT_AUTHOR_NAME",
    "GIT_AUTHOR_EMAIL",
    "GIT_COMMITTER_NAME",
    "GIT_COMMITTER_EMAIL",
    "GIT_AUTHOR_DATE",
    "GIT_COMMITTER_DATE",
    "SOURCE_DATE_EPOCH",
];

/// Run by the next test in a hostile environment, and on its own in the normal one.
#[test]
fn children_see_only_the_allow_list() {
    let p = project().fixture("rust").init().build();
    let env = p.cmd("env", [] as [&str; 0]).success().stdout;
    let names: BTreeSet<&str> = env
        .lines()
        .filter_map(|line| line.split_once('=').map(|(name, _)| name))
        .collect();
    let mut expected: BTreeSet<&str> = SET_BY_THE_HARNESS.iter().copied().collect();
    expected.extend(
        PASSED_THROUGH
            .iter()
            .copied()
            .filter(|name| std::env::var_os(name).is_some()),
    );
    assert_eq!(names, expected, "{env}");
    let temp = p.root.parent().expect("the temp dir").display().to_string();
    assert!(env.contains(&format!("\nHOME={temp}/home\n")), "{env}");
    // git works on the fixture (a GIT_DIR or GIT_INDEX_FILE from outside would point it
    // elsewhere) with the fixed identity; a global `commit.gpgSign` would have failed the commit.
    p.git(["log", "-1", "--format=%an <%ae>"])
        .success()
        .stdout_is("Test Author <author@example.com>\n");
    // A personal Lexibrarian config (an LLM provider) and global git excludes stay out of it.
    let report = p.lexictl(["update", "--format", "json"]).json();
    assert_eq!(
        report["generated"].as_array().map(Vec::len),
        Some(3),
        "{report}"
    );
    assert_eq!(report["generated"][0]["generator"], "structural");
    // LEXI_AUTHOR does not leak: the author is the fixed git identity.
    p.lexi([
        "stack",
        "post",
        "--title",
        "T",
        "--problem",
        "p",
        "--evidence",
        "e",
    ])
    .success();
    let post = p
        .lexi(["stack", "view", "ST-001", "--format", "json"])
        .json();
    assert_eq!(post["frontmatter"]["author"], "Test Author", "{post}");
    // A global core.hooksPath would make setup refuse.
    p.lexictl(["setup", "--hooks"]).success();
}

#[test]
fn a_hostile_parent_environment_does_not_reach_the_children() {
    // What a developer's shell looks like inside a git hook: the outer repository's variables,
    // `git -c` parameters, an API key, LEXI_AUTHOR, and a home with a personal git config and a
    // personal Lexibrarian config.
    let hostile = tempfile::tempdir().expect("temp dir");
    let home = hostile.path();
    std::fs::write(
        home.join(".gitconfig"),
        "[user]\n\tname = Mallory\n\temail = mallory@example.com\n[core]\n\thooksPath = /nonexistent/hooks\n\texcludesFile = ~/.ignore-everything\n[commit]\n\tgpgSign = true\n",
    )
    .expect("write the hostile git config");
    std::fs::write(home.join(".ignore-everything"), "*.rs\n").expect("write the excludes");
    std::fs::create_dir_all(home.join(".config/lexibrarian")).expect("mkdir");
    std::fs::write(
        home.join(".config/lexibrarian/config.yaml"),
        "llm:\n  provider: anthropic\n  api_key_env: ANTHROPIC_API_KEY\n  base_url: http://127.0.0.1:9\n",
    )
    .expect("write the hostile personal config");
    // The test binary runs the probe above, in that environment.
    let probe = "test_harness::children_see_only_the_allow_list";
    let output = Command::new(std::env::current_exe().expect("the test binary"))
        .args([probe, "--exact", "--test-threads=1"])
        .env("GIT_DIR", "/nonexistent/.git")
        .env("GIT_INDEX_FILE", "/nonexistent/.git/index")
        .env("GIT_WORK_TREE", "/nonexistent")
        .env(
            "GIT_CONFIG_PARAMETERS",
            "'core.hooksPath'='/nonexistent/hooks'",
        )
        .env("GIT_CONFIG_COUNT", "1")
        .env("GIT_CONFIG_KEY_0", "commit.gpgSign")
        .env("GIT_CONFIG_VALUE_0", "true")
        .env("LEXI_AUTHOR", "mallory")
        .env("ANTHROPIC_API_KEY", "sk-hostile")
        .env("SOURCE_DATE_EPOCH", "0")
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .output()
        .expect("run the test binary");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success() && stdout.contains("test result: ok. 1 passed"),
        "the probe failed in a hostile environment:\n{stdout}{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

#[test]
fn the_clock_is_fixed_and_ticks_once_per_command() {
    let p = project().file("src/a.rs", "pub fn a() {}\n").init().build();
    p.lexictl(["update"]).success();
    let design = ".lexibrary/src/a.rs.md";
    // A design file holds no time (DESIGN §10): the clock shows in the commits.
    assert!(!p.read(design).contains("\ngenerated:"));
    p.commit_all("library");
    // Newest first: each commit a little after the one before, all on the fixed clock.
    let times: Vec<u64> = p
        .git(["log", "--format=%ct"])
        .success()
        .stdout
        .lines()
        .map(|line| line.parse().expect("a commit time"))
        .collect();
    assert_eq!(times.len(), 2);
    assert!(
        times[0] > times[1] && times[1] >= EPOCH && times[0] < EPOCH + 60,
        "{times:?}"
    );
    // The same steps make the same commits.
    let again = project().file("src/a.rs", "pub fn a() {}\n").init().build();
    again.lexictl(["update"]).success();
    again.commit_all("library");
    assert_eq!(
        again.git(["rev-parse", "HEAD"]).success().stdout,
        p.git(["rev-parse", "HEAD"]).success().stdout
    );
    // A test that needs real time says so; the library is the same bytes on any clock.
    let fixed = p.read(design);
    p.write("src/a.rs", "pub fn a() {}\npub fn b() {}\n");
    p.lexictl(["update"]).real_clock().success();
    p.write("src/a.rs", "pub fn a() {}\n");
    p.lexictl(["update"]).real_clock().success();
    assert_eq!(p.read(design), fixed);
}

#[test]
#[should_panic(expected = "`lexictl update` was built but never run")]
fn a_command_that_is_never_run_fails_the_test() {
    let p = project().build();
    let _forgotten = p.lexictl(["update"]);
}

#[test]
#[should_panic(
    expected = "expected exit code 0\n$ lexi frobnicate (in src)\nexit: 1\n--- stdout\n--- stderr\nerror:"
)]
fn a_failure_shows_the_command_and_what_it_printed() {
    let p = project().file("src/a.rs", "").build();
    p.lexi(["frobnicate"]).current_dir("src").success();
}

#[test]
fn config_merges_yaml_into_the_project_config() {
    let p = project()
        .init()
        .config("crawl:\n  max_file_size_kb: 256\ndaemon:\n  sweep_interval_seconds: 60\n")
        .build();
    let config: serde_yaml::Value =
        serde_yaml::from_str(&p.read(".lexibrary/config.yaml")).expect("YAML");
    assert_eq!(config["crawl"]["max_file_size_kb"], 256);
    assert_eq!(config["daemon"]["sweep_interval_seconds"], 60);
    // What init wrote stays unless overridden.
    assert_eq!(config["iwh"]["enabled"], true);
    assert_eq!(config["token_budgets"]["design_file_tokens"], 400);
    p.lexictl(["validate"]).success();
}
