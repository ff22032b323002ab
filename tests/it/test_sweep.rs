//! `lexictl sweep`: skip-if-unchanged (seed D-066) — the first sweep runs, an untouched tree is
//! skipped, an edit, a deletion or an agent's edit to the library makes the next one run — and
//! `--watch`, which stops cleanly on SIGINT/SIGTERM, and its interval syntax.

use std::io::BufRead;
use std::process::Child;
use std::sync::mpsc;
use std::time::{Duration, Instant, SystemTime};

use crate::support::{project, Output, TestProject};

/// How long a test waits for a watching process before it gives up.
const PATIENCE: Duration = Duration::from_secs(60);

/// Give `rel` (a file or directory) a modification time of now, explicitly, so the test never
/// depends on how coarse the file system's clock is.
fn touch(p: &TestProject, rel: &str) {
    let file = std::fs::File::options()
        .read(true)
        .open(p.path(rel))
        .unwrap_or_else(|err| panic!("open {rel}: {err}"));
    file.set_modified(SystemTime::now())
        .unwrap_or_else(|err| panic!("set mtime of {rel}: {err}"));
}

fn first_line(out: &Output) -> &str {
    out.stdout.lines().next().unwrap_or("")
}

#[test]
fn the_first_sweep_runs_then_sweeps_skip_until_a_file_changes() {
    let p = project().fixture("rust").init().build();
    let _snapshots = p.snapshots().times().bind();
    let first = p.lexictl(["sweep"]).success();
    insta::assert_snapshot!("sweep_first", first.both());
    assert!(p.exists(".lexibrary/src/lib.rs.md"));

    // The update's own writes to .lexibrary/ do not count as changes.
    let skipped = p.lexictl(["sweep"]).success();
    insta::assert_snapshot!("sweep_skipped", skipped.both());

    p.write(
        "src/lib.rs",
        p.read("src/lib.rs")
            .replace("Ok(ast.value())", "Ok(ast.value() + 0)"),
    );
    touch(&p, "src/lib.rs");
    let edited = p.lexictl(["sweep"]).success();
    insta::assert_snapshot!("sweep_after_edit", edited.both());

    let again = p.lexictl(["sweep"]).success();
    assert!(
        first_line(&again).contains("nothing changed since the last sweep at"),
        "{}",
        again.both()
    );
}

#[test]
fn a_new_mtime_alone_makes_a_sweep_run_an_update_that_finds_nothing() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["sweep"]).success();
    touch(&p, "src/parser/lexer.rs");
    let value = p.lexictl(["sweep", "--format", "json"]).json();
    assert_eq!(value["ran"], true, "{value}");
    assert_eq!(value["reason"], "changed");
    assert_eq!(value["changed_count"], 1);
    assert_eq!(value["first_changed"], "src/parser/lexer.rs");
    assert_eq!(value["update"]["counts"]["UNCHANGED"], 3, "{value}");
    assert_eq!(value["update"]["design_files_written"], 0);

    let value = p.lexictl(["sweep", "--format", "json"]).json();
    assert_eq!(value["ran"], false, "{value}");
    assert_eq!(value["reason"], "unchanged");
    assert!(value.get("update").is_none(), "{value}");
    assert!(value["last_sweep"]
        .as_str()
        .is_some_and(|t| t.ends_with('Z')));
}

#[test]
fn a_deleted_file_counts_as_a_change() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["sweep"]).success();
    std::fs::remove_file(p.path("src/parser/lexer.rs")).expect("remove");
    touch(&p, "src/parser");
    let out = p.lexictl(["sweep"]).success();
    assert!(
        first_line(&out).starts_with("lexictl sweep: src/parser changed since the last sweep at"),
        "{}",
        out.both()
    );
    assert!(
        out.stdout.contains("DELETED           src/parser/lexer.rs"),
        "{}",
        out.both()
    );
    assert!(!p.exists(".lexibrary/src/parser/lexer.rs.md"));
}

#[test]
fn an_agent_edit_to_the_library_counts_as_a_change() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["sweep"]).success();
    let design = ".lexibrary/src/lib.rs.md";
    p.write(
        design,
        p.read(design).replace(
            "## Dependencies",
            "## Why It Exists\n\nHand-written.\n\n## Dependencies",
        ),
    );
    touch(&p, design);
    let out = p.lexictl(["sweep"]).success();
    assert!(
        first_line(&out).contains(".lexibrary/src/lib.rs.md"),
        "{}",
        out.both()
    );
    assert!(
        out.stdout.contains("AGENT_UPDATED     src/lib.rs"),
        "{}",
        out.both()
    );
    assert!(p.read(design).contains("Hand-written."));
    // The footer refresh the sweep wrote is not itself a change.
    let again = p.lexictl(["sweep"]).success();
    assert!(
        first_line(&again).contains("nothing changed"),
        "{}",
        again.both()
    );
}

#[test]
fn every_sweep_runs_when_skip_if_unchanged_is_off() {
    let p = project().fixture("rust").init().build();
    p.config("daemon:\n  sweep_skip_if_unchanged: false\n");
    p.lexictl(["sweep"]).success();
    let out = p.lexictl(["sweep"]).success();
    assert_eq!(
        first_line(&out),
        "lexictl sweep: daemon.sweep_skip_if_unchanged is false — updating",
        "{}",
        out.both()
    );
    out.stdout_has("lexictl update (full)");
}

#[test]
fn sweeps_work_outside_git_with_their_record_in_the_cache() {
    let p = project().fixture("rust").no_git().init().build();
    let first = p.lexictl(["sweep"]).success();
    assert!(
        first_line(&first).contains("no sweep has run"),
        "{}",
        first.both()
    );
    assert!(p.exists(".lexibrary/.cache/state/state.json"));
    let skipped = p.lexictl(["sweep"]).success();
    assert!(
        first_line(&skipped).contains("nothing changed"),
        "{}",
        skipped.both()
    );
    touch(&p, "Cargo.toml");
    let out = p.lexictl(["sweep"]).success();
    assert!(
        first_line(&out).starts_with("lexictl sweep: Cargo.toml changed since"),
        "{}",
        out.both()
    );
}

#[test]
fn sweeping_outside_a_project_fails_with_advice() {
    let p = project().build();
    p.lexictl(["sweep"])
        .code(1)
        .stderr_has("run `lexictl init`");
}

#[test]
fn bad_intervals_are_usage_errors() {
    let p = project().fixture("rust").init().build();
    let mut both = String::new();
    for args in [
        &["--watch", "--interval", "0"][..],
        &["--watch", "--interval", "soon"],
        &["--watch", "--interval", "1.5h"],
        &["--interval", "5m"],
    ] {
        let out = p.lexictl(["sweep"].iter().chain(args)).code(1);
        out.stdout_is("");
        both.push_str(&format!(
            "$ lexictl sweep {}\n{}\n",
            args.join(" "),
            out.stderr
        ));
    }
    insta::assert_snapshot!("sweep_bad_intervals", both);

    // A zero interval in the config is refused before anything runs.
    p.config("daemon:\n  sweep_interval_seconds: 0\n");
    p.lexictl(["sweep", "--watch"])
        .code(1)
        .stderr_has("daemon.sweep_interval_seconds in .lexibrary/config.yaml is 0");
}

/// A `lexictl sweep --watch` in the background, its stdout read line by line on a thread.
struct Watching<'p> {
    p: &'p TestProject,
    child: Child,
    lines: mpsc::Receiver<String>,
}

impl<'p> Watching<'p> {
    fn start(p: &'p TestProject, args: &[&str]) -> Watching<'p> {
        let mut child = p
            .lexictl(["sweep", "--watch", "--interval", "1h"].iter().chain(args))
            .spawn()
            .child;
        let stdout = child.stdout.take().expect("piped stdout");
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Watching { p, child, lines }
    }

    /// Stdout lines up to and including the first one `done` accepts.
    fn read_until(&mut self, done: impl Fn(&str) -> bool) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut seen = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let finished = done(&line);
                    seen.push(line);
                    if finished {
                        return seen;
                    }
                }
                Err(_) => {
                    let _ = self.child.kill();
                    panic!("the watching sweep never printed the expected line; got {seen:?}");
                }
            }
        }
    }

    /// Send `signal` (`INT`, `TERM`) with kill(1), then wait (bounded) for the exit.
    fn stop_with(mut self, signal: &str) -> (i32, String) {
        self.p
            .cmd("kill", [format!("-{signal}"), self.child.id().to_string()])
            .success();
        let deadline = Instant::now() + PATIENCE;
        let code = loop {
            match self.child.try_wait().expect("wait for the sweep") {
                Some(status) => break status.code().unwrap_or(-1),
                None if Instant::now() > deadline => {
                    let _ = self.child.kill();
                    panic!("lexictl sweep --watch did not stop within {PATIENCE:?} of SIGINT");
                }
                None => std::thread::sleep(Duration::from_millis(20)),
            }
        };
        let mut stderr = String::new();
        if let Some(mut pipe) = self.child.stderr.take() {
            use std::io::Read;
            let _ = pipe.read_to_string(&mut stderr);
        }
        (code, stderr)
    }
}

#[test]
fn watch_stops_cleanly_on_sigint_without_waiting_out_the_interval() {
    let p = project().fixture("rust").init().build();
    let mut watching = Watching::start(&p, &[]);
    let lines = watching.read_until(|line| line.starts_with("wrote "));
    assert!(
        lines[0].ends_with("lexictl sweep: no sweep has run in this worktree yet — updating"),
        "{lines:?}"
    );
    assert!(
        lines[0].starts_with('['),
        "watch lines are timestamped: {lines:?}"
    );
    let started = Instant::now();
    // The interval is an hour: only a sleep that wakes on the signal ends this in time.
    let (code, stderr) = watching.stop_with("INT");
    assert_eq!(code, 0, "{stderr}");
    assert!(started.elapsed() < PATIENCE);
    assert!(
        stderr.starts_with("lexictl sweep --watch: a sweep every 1h; Ctrl-C to stop\n"),
        "{stderr}"
    );
    assert!(
        stderr.ends_with("lexictl sweep --watch: stopped\n"),
        "{stderr}"
    );
    // The sweep it ran was recorded: the next one skips.
    let out = p.lexictl(["sweep"]).success();
    assert!(
        first_line(&out).contains("nothing changed"),
        "{}",
        out.both()
    );
}

#[test]
fn watch_prints_json_lines_and_stops_on_sigterm() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["sweep"]).success();
    let mut watching = Watching::start(&p, &["--format", "json"]);
    let lines = watching.read_until(|_| true);
    let value: serde_json::Value = serde_json::from_str(&lines[0]).expect("one JSON object a line");
    assert_eq!(value["ran"], false, "{value}");
    assert_eq!(value["reason"], "unchanged");
    let (code, stderr) = watching.stop_with("TERM");
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.ends_with("stopped\n"), "{stderr}");
}

/// A sweep during a git operation (here a bisect) writes nothing and is not recorded; the next
/// sweep, once the operation is over, runs the update.
#[test]
fn a_sweep_during_a_git_operation_writes_nothing() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["sweep"]).success();
    p.commit_all("library");
    let design = p.read(".lexibrary/src/lib.rs.md");
    p.write(
        "src/lib.rs",
        format!("{}\npub fn later() {{}}\n", p.read("src/lib.rs")),
    );
    p.git(["bisect", "start"]).success();
    p.lexictl(["sweep"])
        .success()
        .stdout_has("stopped, a bisect is in progress");
    assert_eq!(p.read(".lexibrary/src/lib.rs.md"), design);
    p.git(["bisect", "reset"]).success();
    p.lexictl(["sweep"])
        .success()
        .stdout_has("INTERFACE_CHANGED");
    assert!(p.read(".lexibrary/src/lib.rs.md").contains("later"));
}
