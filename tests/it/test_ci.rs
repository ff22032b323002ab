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

/// The files GitHub Actions hands a step (`$GITHUB_OUTPUT`, `$GITHUB_STEP_SUMMARY`, `$GITHUB_PATH`),
/// beside the checkout `ci` (not in it).
pub(crate) fn github_file(ci: &TestProject, name: &str) -> std::path::PathBuf {
    let dir = ci.root.with_extension("github");
    std::fs::create_dir_all(&dir).expect("create the runner's files dir");
    dir.join(name)
}

/// `step`'s script in `ci`, the way GitHub Actions runs it: bash, no git identity, the real clock,
/// its files for outputs, the summary and PATH.
pub(crate) fn run_step<'p>(ci: &'p TestProject, step: &Step) -> Exec<'p> {
    let script = step.run.as_deref().unwrap_or_default();
    let mut exec = ci
        .cmd(
            "bash",
            ["--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        )
        .without_identity()
        .real_clock()
        .env("GITHUB_OUTPUT", github_file(ci, "output"))
        .env("GITHUB_STEP_SUMMARY", github_file(ci, "summary.md"))
        .env("GITHUB_PATH", github_file(ci, "path"));
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

/// The PR gate tells lag from lies: a PR whose library lags (made without the hooks: not one
/// design file written) is green; one whose agent-written design file contradicts the code is red,
/// naming the file.
#[test]
#[cfg_attr(not(has_bash), ignore = "needs `bash` on PATH")]
fn the_pr_gate_passes_lag_and_stops_a_lie() {
    let (_p, remote) = with_remote();
    let ci = remote.clone_to("pr");
    ci.git(["checkout", "-qb", "feature"]).success();
    let steps = workflow(0);
    assert_eq!(
        steps.iter().map(Step::name).collect::<Vec<_>>(),
        [
            "Fetch the notes",
            "Catch up the lag",
            "The library tells no lies",
            "Review the library changes"
        ]
    );
    // Lag: a source changed and a file added, no library at all.
    ci.write(
        "src/lib.rs",
        format!("{}\npub fn added() {{}}\n", ci.read("src/lib.rs")),
    );
    ci.write("src/extra.rs", "//! Extra.\npub fn extra() {}\n");
    ci.commit_all("source only");
    ci.lexictl(["update", "--check"]).real_clock().code(2);
    run_all(&steps, &ci);
    let review = std::fs::read_to_string(github_file(&ci, "summary.md")).expect("summary");
    assert!(review.contains("src/lib.rs"), "{review}");

    // A lie: an agent's Interface Contract the code no longer matches.
    let lie = remote.clone_to("pr-lie");
    lie.git(["checkout", "-qb", "lie"]).success();
    let design = lie.read(".lexibrary/src/lib.rs.md");
    lie.write(
        ".lexibrary/src/lib.rs.md",
        design.replacen("updated_by: archivist", "updated_by: agent", 1),
    );
    let lib = lie.read("src/lib.rs").replace(
        "pub fn eval(input: &str)",
        "pub fn eval(input: &str, strict: bool)",
    );
    lie.write("src/lib.rs", lib);
    lie.commit_all("eval: strict, the contract left behind");
    run_step(&lie, &steps[0]).success();
    run_step(&lie, &steps[1]).success();
    run_step(&lie, &steps[2])
        .code(2)
        .stdout_has("::error file=.lexibrary/src/lib.rs.md");
}

#[test]
#[cfg_attr(not(has_bash), ignore = "needs `bash` on PATH")]
fn the_on_merge_job_proposes_the_library_and_shares_notes() {
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
            "Push the library to its branch"
        ]
    );
    let main_before = remote.git(["rev-parse", "main"]).success().stdout;
    let outputs = run_all(&steps, &ci);
    // main (protected, maybe) is untouched; the library waits on its own branch.
    remote
        .git(["rev-parse", "main"])
        .success()
        .stdout_is(&main_before);
    remote
        .git(["log", "-1", "--format=%s%n%an", "lexibrarian/library"])
        .success()
        .stdout_is("lexibrarian: update the library\nlexibrarian[bot]\n");
    remote
        .git(["ls-tree", "-r", "--name-only", "lexibrarian/library"])
        .success()
        .stdout_has(".lexibrary/src/new.rs.md");
    let output = std::fs::read_to_string(github_file(&ci, "output")).expect("outputs");
    assert!(output.contains("changed=true"), "{output}");
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
        .git(["log", "-1", "--format=%s", "lexibrarian/library"])
        .success()
        .stdout_is("lexibrarian: update the library\n");
}

/// A recipe parsed as YAML.
fn recipe(index: usize) -> serde_yaml::Value {
    serde_yaml::from_str(&yaml_block(index)).expect("the workflow parses")
}

/// Both recipes run on untrusted code safely (`pull_request`, a read-only token for the gate, the
/// source of Lexibrarian written in the file because variables do not reach forks) and build
/// Lexibrarian once per version (a cache keyed by its revision).
#[test]
#[cfg_attr(not(has_bash), ignore = "needs `bash` on PATH")]
fn the_recipes_are_fast_and_safe_for_forks() {
    let p = project().build();
    let gate = recipe(0);
    assert_eq!(gate["on"], "pull_request");
    assert!(!yaml_block(0).contains("on: pull_request_target"));
    assert_eq!(gate["permissions"]["contents"], "read");
    assert!(gate["permissions"]["pull-requests"].is_null());
    let main = recipe(1);
    assert!(main["permissions"]["contents"] == "write");
    for (index, workflow) in [gate, main].iter().enumerate() {
        let block = yaml_block(index);
        assert!(
            !block.contains("${{ vars.") && !block.contains("${{ secrets."),
            "{block}"
        );
        assert!(block.contains("uses: actions/checkout@v6"), "{block}");
        assert_eq!(workflow["env"]["LEXIBRARIAN_GIT"], "");
        let steps = workflow["jobs"]["library"]["steps"]
            .as_sequence()
            .expect("steps");
        let cache = steps
            .iter()
            .find(|step| step["name"] == "Cache Lexibrarian")
            .expect("a cache step");
        assert!(cache["with"]["key"]
            .as_str()
            .is_some_and(|key| key.contains("env.LEXIBRARIAN_REV")));
        let install = steps
            .iter()
            .find(|step| step["name"] == "Install Lexibrarian")
            .expect("an install step");
        assert_eq!(
            install["if"],
            "steps.lexibrarian.outputs.cache-hit != 'true'"
        );
        let script = install["run"].as_str().expect("script");
        assert!(script.contains("--rev \"$LEXIBRARIAN_REV\" --root ~/.lexibrarian"));
        // Without the source the step stops, saying what to set, before building anything.
        p.cmd(
            "bash",
            ["--noprofile", "--norc", "-eo", "pipefail", "-c", script],
        )
        .env("LEXIBRARIAN_GIT", "")
        .env("LEXIBRARIAN_REV", "")
        .code(1)
        .stdout_has("::error::write LEXIBRARIAN_GIT and LEXIBRARIAN_REV");
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
