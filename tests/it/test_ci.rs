//! The CI recipes in docs/ci.md, executed: every `run:` step of both workflows runs as written, with
//! bash like GitHub Actions (no git identity, the real clock), in a clone whose `origin` is a local
//! bare remote. The workflows are parsed with serde; a step is left out when it has no `run:` or
//! when the line naming it carries the comment `# ci-test: skip` (a comment, so read from the text).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use serde::Deserialize;

use crate::support::{project, Exec, TestProject};

/// The part of a GitHub Actions workflow the test runs.
#[derive(Deserialize)]
struct Workflow {
    jobs: BTreeMap<String, Job>,
}

#[derive(Deserialize)]
struct Job {
    steps: Vec<Step>,
}

/// One workflow step: its name, environment and script.
#[derive(Deserialize)]
pub(crate) struct Step {
    name: Option<String>,
    #[serde(default)]
    env: BTreeMap<String, String>,
    run: Option<String>,
}

impl Step {
    pub(crate) fn name(&self) -> &str {
        self.name.as_deref().unwrap_or("step")
    }
}

/// The `index`-th YAML block in docs/ci.md, as written.
fn yaml_block(index: usize) -> String {
    let doc = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ci.md"))
        .expect("read docs/ci.md");
    doc.split("```yaml\n")
        .nth(index + 1)
        .and_then(|rest| rest.split("```").next())
        .unwrap_or_else(|| panic!("docs/ci.md has no YAML block {index}"))
        .to_string()
}

/// The steps to run of the `index`-th YAML block in docs/ci.md.
pub(crate) fn workflow(index: usize) -> Vec<Step> {
    let block = yaml_block(index);
    let block = block.as_str();
    let skipped: BTreeSet<&str> = block
        .lines()
        .filter(|line| line.contains("# ci-test: skip"))
        .filter_map(|line| {
            let step = line.split('#').next()?.trim().trim_start_matches("- ");
            Some(step.strip_prefix("name:")?.trim())
        })
        .collect();
    let workflow: Workflow =
        serde_yaml::from_str(block).unwrap_or_else(|err| panic!("workflow {index}: {err}"));
    workflow
        .jobs
        .into_values()
        .flat_map(|job| job.steps)
        .filter(|step| step.run.is_some() && !skipped.contains(step.name()))
        .map(|mut step| {
            for value in step.env.values_mut() {
                *value = value.replace("${{ github.base_ref }}", "main");
            }
            step
        })
        .collect()
}

/// `step`'s script in `ci`, the way GitHub Actions runs it: bash, no git identity, the real clock.
pub(crate) fn run_step<'p>(ci: &'p TestProject, step: &Step) -> Exec<'p> {
    let script = step.run.as_deref().unwrap_or_default();
    let mut exec = ci
        .cmd(
            "bash",
            ["--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        )
        .without_identity()
        .real_clock();
    for (key, value) in &step.env {
        exec = exec.env(key, value);
    }
    exec
}

/// Run every step in order, each of which must succeed; returns their combined output.
pub(crate) fn run_all(steps: &[Step], ci: &TestProject) -> String {
    let mut outputs = String::new();
    for step in steps {
        let out = run_step(ci, step)
            .context(format!("(the step {:?})", step.name()))
            .success();
        outputs.push_str(&format!("== {}\n{}{}", step.name(), out.stdout, out.stderr));
    }
    outputs
}

/// A project with its library committed, and a bare `remote.git` cloned from it; returns both.
fn with_remote() -> (TestProject, TestProject) {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    let remote = p.clone_bare_to("remote.git");
    (p, remote)
}

#[test]
#[cfg_attr(not(has_bash), ignore = "needs `bash` on PATH")]
fn the_pr_gate_passes_a_good_pr_and_stops_a_stale_one() {
    let (_p, remote) = with_remote();
    let ci = remote.clone_to("pr");
    ci.git(["checkout", "-qb", "feature"]).success();
    ci.write(
        "src/lib.rs",
        format!("{}\npub fn added() {{}}\n", ci.read("src/lib.rs")),
    );
    let steps = workflow(0);
    assert_eq!(
        steps.iter().map(Step::name).collect::<Vec<_>>(),
        [
            "Fetch the notes",
            "The library is current",
            "The library is consistent",
            "Review the library changes"
        ]
    );
    // A PR that changed a source but not its design file fails the gate.
    ci.git(["commit", "-qam", "source only"]).success();
    run_step(&ci, &steps[1]).code(2);
    // The fixed PR passes every step.
    ci.lexictl(["update"]).real_clock().success();
    ci.commit_all("library");
    run_all(&steps, &ci);
    let review = ci.read("lexibrarian-review.md");
    assert!(review.contains("src/lib.rs"), "{review}");
}

#[test]
#[cfg_attr(not(has_bash), ignore = "needs `bash` on PATH")]
fn the_on_merge_job_commits_the_library_and_shares_notes() {
    let (_p, remote) = with_remote();
    // A merged PR that forgot the library.
    let dev = remote.clone_to("dev");
    dev.write("src/new.rs", "//! New.\npub fn new() {}\n");
    dev.commit_all("feature without library");
    dev.git(["push", "-q", "origin", "HEAD"]).success();
    let ci = remote.clone_to("main-ci");
    let steps = workflow(1);
    assert_eq!(
        steps.iter().map(Step::name).collect::<Vec<_>>(),
        [
            "Update the library",
            "Share the notes",
            "Commit the library"
        ]
    );
    let outputs = run_all(&steps, &ci);
    remote
        .git(["log", "-1", "--format=%s%n%an", "main"])
        .success()
        .stdout_is("lexibrarian: update the library [skip ci]\nlexibrarian[bot]\n");
    remote
        .git(["ls-tree", "-r", "--name-only", "main"])
        .success()
        .stdout_has(".lexibrary/src/new.rs.md");
    let notes = remote
        .git(["for-each-ref", "refs/notes/lexibrarian"])
        .success()
        .stdout;
    assert!(
        notes.contains("refs/notes/lexibrarian/provenance"),
        "{notes}\n{outputs}"
    );
    // Running the job again changes nothing and still succeeds.
    for step in &steps {
        run_step(&ci, step).success();
    }
    remote
        .git(["log", "-1", "--format=%s", "main"])
        .success()
        .stdout_is("lexibrarian: update the library [skip ci]\n");
}

/// The install step of a recipe, parsed: its environment and script.
fn install_step(index: usize) -> (BTreeMap<String, String>, String) {
    #[derive(Deserialize)]
    struct Raw {
        jobs: BTreeMap<String, RawJob>,
    }
    #[derive(Deserialize)]
    struct RawJob {
        steps: Vec<serde_yaml::Value>,
    }
    let raw: Raw = serde_yaml::from_str(&yaml_block(index)).expect("the workflow parses");
    let step = raw
        .jobs
        .into_values()
        .flat_map(|job| job.steps)
        .find(|step| step["name"] == "Install Lexibrarian")
        .expect("an install step");
    let env = serde_yaml::from_value(step["env"].clone()).unwrap_or_default();
    (env, step["run"].as_str().unwrap_or("").to_string())
}

#[test]
#[cfg_attr(not(has_bash), ignore = "needs `bash` on PATH")]
fn the_recipes_install_from_a_named_source_with_current_actions() {
    let p = project().build();
    for index in 0..2 {
        let block = yaml_block(index);
        assert!(
            !block.contains("OWNER"),
            "a placeholder is left in:\n{block}"
        );
        assert!(block.contains("uses: actions/checkout@v6"), "{block}");
        assert!(!block.contains("checkout@v4"), "{block}");
        let (env, script) = install_step(index);
        assert_eq!(env["LEXIBRARIAN_GIT"], "${{ vars.LEXIBRARIAN_GIT }}");
        assert!(script.contains("cargo install --locked --git \"$LEXIBRARIAN_GIT\" lexibrarian"));
        // Without the variable the step stops, saying what to set, before building anything.
        p.cmd(
            "bash",
            ["--noprofile", "--norc", "-eo", "pipefail", "-c", &script],
        )
        .env("LEXIBRARIAN_GIT", "")
        .code(1)
        .stdout_has("::error::set the repository variable LEXIBRARIAN_GIT");
    }
}

/// `actionlint` (the workflow linter, with shellcheck when installed) finds nothing in the recipes.
#[test]
#[cfg_attr(not(has_actionlint), ignore = "needs `actionlint` on PATH")]
fn the_recipes_pass_actionlint() {
    let p = project().build();
    p.write(".github/workflows/library.yml", yaml_block(0));
    p.write(".github/workflows/library-main.yml", yaml_block(1));
    p.cmd("actionlint", Vec::<&str>::new()).success();
}
