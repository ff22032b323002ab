//! The CI recipes in docs/ci.md, executed: every `run:` step of both workflows (except those marked
//! `ci-test: skip`) runs as written, with bash like GitHub Actions, in a fixture repository whose
//! `origin` is a local bare remote.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::support::{bin_dir, project, run, TestProject};

/// One workflow step: its name, environment and script.
struct Step {
    name: String,
    env: Vec<(String, String)>,
    script: String,
}

/// The steps of the `index`-th YAML block in docs/ci.md.
fn workflow(index: usize) -> Vec<Step> {
    let doc =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/ci.md")).unwrap();
    let block = doc
        .split("```yaml\n")
        .nth(index + 1)
        .unwrap()
        .split("```")
        .next()
        .unwrap();
    let mut steps = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let flush = |lines: &mut Vec<&str>, steps: &mut Vec<Step>| {
        if let Some(step) = parse_step(lines) {
            steps.push(step);
        }
        lines.clear();
    };
    let mut in_steps = false;
    for line in block.lines() {
        if line.trim() == "steps:" {
            in_steps = true;
            continue;
        }
        if !in_steps {
            continue;
        }
        if line.starts_with("      - ") {
            flush(&mut current, &mut steps);
        }
        current.push(line);
    }
    flush(&mut current, &mut steps);
    steps
}

fn parse_step(lines: &[&str]) -> Option<Step> {
    let text = lines.join("\n");
    if text.contains("ci-test: skip") || !text.contains("run:") {
        return None;
    }
    let name = lines
        .iter()
        .find_map(|line| line.trim().trim_start_matches("- ").strip_prefix("name: "))
        .unwrap_or("step")
        .to_string();
    let mut env = Vec::new();
    let mut script = String::new();
    let mut mode = "";
    for line in lines {
        let trimmed = line.trim().trim_start_matches("- ");
        let indent = line.len() - line.trim_start().len();
        if mode == "run-block" && (indent > 8 || trimmed.is_empty()) {
            script.push_str(line.get(10..).unwrap_or("").trim_end());
            script.push('\n');
            continue;
        }
        if mode == "env" && indent >= 10 {
            if let Some((key, value)) = trimmed.split_once(": ") {
                let value = value.replace("${{ github.base_ref }}", "main");
                env.push((key.to_string(), value));
            }
            continue;
        }
        mode = "";
        if trimmed == "env:" {
            mode = "env";
        } else if trimmed == "run: |" {
            mode = "run-block";
        } else if let Some(command) = trimmed.strip_prefix("run: ") {
            script = format!("{command}\n");
        }
    }
    Some(Step { name, env, script })
}

fn run_step(step: &Step, dir: &Path, home: &Path) -> std::process::Output {
    let mut command = Command::new("bash");
    command
        .args([
            "--noprofile",
            "--norc",
            "-eo",
            "pipefail",
            "-c",
            &step.script,
        ])
        .current_dir(dir)
        .env(
            "PATH",
            format!(
                "{}:{}",
                bin_dir().display(),
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .env("HOME", home)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", home.join(".gitconfig"))
        .env_remove("GIT_AUTHOR_NAME")
        .env_remove("GIT_AUTHOR_EMAIL")
        .env_remove("GIT_COMMITTER_NAME")
        .env_remove("GIT_COMMITTER_EMAIL");
    for (key, value) in &step.env {
        command.env(key, value);
    }
    command.output().unwrap()
}

/// Run every step in order, each of which must succeed; returns their combined output.
fn run_all(steps: &[Step], dir: &Path, home: &Path) -> String {
    let mut outputs = String::new();
    for step in steps {
        let out = run_step(step, dir, home);
        let printed = format!(
            "== {}\n{}{}",
            step.name,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.status.success(),
            "step {:?} failed:\n{printed}",
            step.name
        );
        outputs.push_str(&printed);
    }
    outputs
}

fn git(dir: &Path, home: &Path, args: &[&str]) -> String {
    let step = Step {
        name: "git".into(),
        env: Vec::new(),
        script: format!(
            "git -c user.name=Dev -c user.email=dev@example.com {}",
            args.iter()
                .map(|a| format!("'{a}'"))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    };
    let out = run_step(&step, dir, home);
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// A project pushed to a bare `origin`; returns (project, temp dir, remote, home).
fn with_remote() -> (TestProject, PathBuf, PathBuf, PathBuf) {
    let p = project().fixture("rust").build();
    p.init();
    assert_eq!(run(&p, p.lexictl(&["update"])).code, 0);
    p.git(&["add", "-A"]);
    p.git(&["commit", "-qm", "library"]);
    let temp = p.root.parent().unwrap().to_path_buf();
    let home = temp.join("ci-home");
    std::fs::create_dir_all(&home).unwrap();
    let remote = temp.join("remote.git");
    git(
        &temp,
        &home,
        &[
            "clone",
            "-q",
            "--bare",
            p.root.to_str().unwrap(),
            remote.to_str().unwrap(),
        ],
    );
    (p, temp, remote, home)
}

#[test]
fn the_pr_gate_passes_a_good_pr_and_stops_a_stale_one() {
    let (_p, temp, remote, home) = with_remote();
    let ci = temp.join("pr");
    git(
        &temp,
        &home,
        &[
            "clone",
            "-q",
            remote.to_str().unwrap(),
            ci.to_str().unwrap(),
        ],
    );
    git(&ci, &home, &["checkout", "-qb", "feature"]);
    let lib = ci.join("src/lib.rs");
    std::fs::write(
        &lib,
        format!(
            "{}\npub fn added() {{}}\n",
            std::fs::read_to_string(&lib).unwrap()
        ),
    )
    .unwrap();
    let steps = workflow(0);
    assert_eq!(
        steps.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        [
            "Fetch the notes",
            "The library is current",
            "The library is consistent",
            "Review the library changes"
        ]
    );
    // A PR that changed a source but not its design file fails the gate.
    git(&ci, &home, &["commit", "-qam", "source only"]);
    let out = run_step(&steps[1], &ci, &home);
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // The fixed PR passes every step.
    let update = Step {
        name: "update".into(),
        env: Vec::new(),
        script: "lexictl update >/dev/null".into(),
    };
    assert!(run_step(&update, &ci, &home).status.success());
    git(&ci, &home, &["add", "-A"]);
    git(&ci, &home, &["commit", "-qm", "library"]);
    run_all(&steps, &ci, &home);
    let review = std::fs::read_to_string(ci.join("lexibrarian-review.md")).unwrap();
    assert!(review.contains("src/lib.rs"), "{review}");
}

#[test]
fn the_on_merge_job_commits_the_library_and_shares_notes() {
    let (_p, temp, remote, home) = with_remote();
    // A merged PR that forgot the library.
    let dev = temp.join("dev");
    git(
        &temp,
        &home,
        &[
            "clone",
            "-q",
            remote.to_str().unwrap(),
            dev.to_str().unwrap(),
        ],
    );
    std::fs::write(dev.join("src/new.rs"), "//! New.\npub fn new() {}\n").unwrap();
    git(&dev, &home, &["add", "-A"]);
    git(&dev, &home, &["commit", "-qm", "feature without library"]);
    git(&dev, &home, &["push", "-q", "origin", "HEAD"]);
    let ci = temp.join("main-ci");
    git(
        &temp,
        &home,
        &[
            "clone",
            "-q",
            remote.to_str().unwrap(),
            ci.to_str().unwrap(),
        ],
    );
    let steps = workflow(1);
    assert_eq!(
        steps.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(),
        [
            "Update the library",
            "Commit the library",
            "Share the notes"
        ]
    );
    let outputs = run_all(&steps, &ci, &home);
    let log = git(&remote, &home, &["log", "-1", "--format=%s%n%an", "main"]);
    assert_eq!(
        log,
        "lexibrarian: update the library [skip ci]\nlexibrarian[bot]\n"
    );
    let files = git(&remote, &home, &["ls-tree", "-r", "--name-only", "main"]);
    assert!(files.contains(".lexibrary/src/new.rs.md"), "{files}");
    let notes = git(&remote, &home, &["for-each-ref", "refs/notes/lexibrarian"]);
    assert!(
        notes.contains("refs/notes/lexibrarian/provenance"),
        "{notes}\n{outputs}"
    );
    // Running the job again changes nothing and still succeeds.
    for step in &steps {
        assert!(run_step(step, &ci, &home).status.success());
    }
    assert_eq!(
        git(&remote, &home, &["log", "-1", "--format=%s", "main"]),
        "lexibrarian: update the library [skip ci]\n"
    );
}
