//! `lexictl update`: generation, change levels, the agent-first rule, determinism, git-driven
//! `--changed-only`, renames and deletes.

use std::collections::BTreeMap;

use crate::support::{project, run, run_input, TestProject};

/// A fixed `generated:` time so output is byte-comparable.
const EPOCH: &str = "1768473000";

fn update(p: &TestProject, args: &[&str]) -> crate::support::Run {
    let mut command = p.lexictl(&[&["update"], args].concat());
    command.env("SOURCE_DATE_EPOCH", EPOCH);
    run(p, command)
}

fn update_ok(p: &TestProject, args: &[&str]) -> String {
    let out = update(p, args);
    assert_eq!(out.code, 0, "{}", out.both());
    out.stdout
}

/// Every file under `.lexibrary/` except the gitignored cache, with its contents.
fn library(p: &TestProject) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    let mut pending = vec![p.path(".lexibrary")];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("read dir") {
            let entry = entry.expect("entry");
            let path = entry.path();
            let rel = path
                .strip_prefix(&p.root)
                .expect("inside")
                .to_string_lossy()
                .into_owned();
            if rel.starts_with(".lexibrary/.cache") {
                continue;
            }
            if entry.file_type().expect("type").is_dir() {
                pending.push(path);
            } else {
                out.insert(rel, std::fs::read_to_string(&path).expect("read"));
            }
        }
    }
    out
}

fn levels(stdout: &str) -> Vec<(String, String)> {
    stdout
        .lines()
        .filter_map(|line| {
            let mut parts = line.split_whitespace();
            let level = parts.next()?;
            let path = parts.collect::<Vec<_>>().join(" ");
            level
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_')
                .then(|| (level.to_string(), path))
        })
        .collect()
}

#[test]
fn full_update_generates_the_library_for_each_language() {
    for fixture in ["rust", "javascript", "typescript", "python"] {
        let p = project().fixture(fixture).build();
        p.init();
        update_ok(&p, &[]);
        let lib = library(&p);
        let rendered: String = lib
            .iter()
            .filter(|(path, _)| !path.ends_with("config.yaml"))
            .map(|(path, text)| format!("==> {path}\n{text}"))
            .collect();
        insta::assert_snapshot!(format!("library_{fixture}"), rendered);
    }
}

#[test]
fn the_output_and_json_report_the_plan() {
    let p = project().fixture("rust").build();
    p.init();
    let first = update(&p, &[]);
    insta::assert_snapshot!("update_first_run", first.both());
    let json = update(&p, &["--format", "json"]);
    let mut value: serde_json::Value = serde_json::from_str(&json.stdout).expect("valid JSON");
    value["elapsed_ms"] = 0.into();
    insta::assert_json_snapshot!("update_noop_json", value);
}

#[test]
fn a_second_update_writes_nothing_and_leaves_no_diff() {
    let p = project().fixture("typescript").build();
    p.init();
    update_ok(&p, &[]);
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "library"]);
    let before = library(&p);
    // Without SOURCE_DATE_EPOCH: an unchanged project must not even touch `generated:`.
    let out = run(&p, p.lexictl(&["update"]));
    assert_eq!(out.code, 0, "{}", out.both());
    assert!(
        out.stdout
            .contains("wrote 0 design files, removed 0, 0 .aindex, START_HERE.md unchanged"),
        "{}",
        out.stdout
    );
    assert_eq!(library(&p), before);
    assert_eq!(p.git(&["status", "--porcelain"]), "");
    let check = run(&p, p.lexictl(&["update", "--check"]));
    assert_eq!(check.code, 0, "{}", check.both());
}

#[test]
fn two_full_updates_of_the_same_tree_are_byte_identical() {
    let a = project().fixture("python").build();
    let b = project().fixture("python").build();
    for p in [&a, &b] {
        p.init();
        update_ok(p, &[]);
    }
    assert_eq!(library(&a), library(&b));
    // And again from a cold cache: rebuilt, but nothing rewritten.
    std::fs::remove_dir_all(a.path(".git/lexibrarian")).expect("drop cache");
    let before = library(&a);
    let out = update_ok(&a, &[]);
    assert!(out.contains("wrote 0 design files"), "{out}");
    assert_eq!(library(&a), before);
}

#[test]
fn interface_changes_regenerate_and_hand_edits_survive() {
    // The Python edition's defect 1: after the first generation every source edit looked like an
    // agent edit, so nothing was ever regenerated.
    let p = project().fixture("rust").build();
    p.init();
    update_ok(&p, &[]);
    let design = ".lexibrary/src/lib.rs.md";

    p.write(
        "src/lib.rs",
        p.read("src/lib.rs").replace(
            "pub fn eval(input: &str)",
            "pub fn eval(input: &str, radix: u32)",
        ),
    );
    let out = update_ok(&p, &[]);
    assert!(
        levels(&out).contains(&("INTERFACE_CHANGED".into(), "src/lib.rs".into())),
        "{out}"
    );
    assert!(p
        .read(design)
        .contains("pub fn eval(input: &str, radix: u32)"));

    // A body-only edit keeps the interface.
    p.write(
        "src/lib.rs",
        p.read("src/lib.rs")
            .replace("Ok(ast.value())", "Ok(ast.value() + 0)"),
    );
    let out = update_ok(&p, &[]);
    assert!(
        levels(&out).contains(&("CONTENT_ONLY".into(), "src/lib.rs".into())),
        "{out}"
    );

    // An agent edits the design file, then the source: the edit survives, only hashes refresh.
    let edited = p.read(design).replace(
        "## Dependencies",
        "## Why It Exists\n\nHand-written: keep me.\n\n## Dependencies",
    );
    p.write(design, &edited);
    p.write(
        "src/lib.rs",
        p.read("src/lib.rs").replace("radix: u32", "radix: u8"),
    );
    let out = update_ok(&p, &[]);
    assert!(
        levels(&out).contains(&("AGENT_UPDATED".into(), "src/lib.rs".into())),
        "{out}"
    );
    let after = p.read(design);
    let (content, footer) = after.split_once("<!-- lexibrarian:meta").expect("footer");
    assert_eq!(
        content,
        edited
            .split_once("<!-- lexibrarian:meta")
            .expect("footer")
            .0,
        "the body is untouched"
    );
    let source_hash = lexibrarian::hash::sha256_hex(p.read("src/lib.rs").as_bytes());
    assert!(
        footer.contains(&format!("source_hash: {source_hash}")),
        "{footer}"
    );
    // …and the refreshed file now verifies: the next update has nothing to do.
    let out = update_ok(&p, &[]);
    assert!(levels(&out).is_empty(), "{out}");
    let lookup = run(&p, p.lexi(&["lookup", "src/lib.rs"]));
    assert!(!lookup.stdout.contains("outdated"), "{}", lookup.stdout);
}

#[test]
fn a_heading_in_a_code_fence_survives_an_update() {
    let p = project()
        .file("src/a.rs", "//! Doc.\npub fn a() {}\n")
        .build();
    p.init();
    update_ok(&p, &[]);
    let design = ".lexibrary/src/a.rs.md";
    let text = p.read(design).replace(
        "## Tags",
        "## Notes\n\n```md\n## not a heading\n```\n\n## Tags",
    );
    p.write(design, &text);
    update_ok(&p, &[]); // AGENT_UPDATED: footer refresh
    p.write("src/a.rs", "//! Doc.\npub fn a() {}\npub fn b() {}\n");
    let out = update_ok(&p, &[]);
    assert!(out.contains("INTERFACE_CHANGED src/a.rs"), "{out}");
    let after = p.read(design);
    assert!(
        after.contains("## Notes\n\n```md\n## not a heading\n```"),
        "{after}"
    );
    assert!(after.contains("pub fn b()"), "{after}");
}

#[test]
fn dependents_follow_imports() {
    let p = project().fixture("python").build();
    p.init();
    update_ok(&p, &[]);
    assert!(p
        .read(".lexibrary/pkg/sub/units.py.md")
        .contains("## Dependents\n\n- pkg/forecast.py"));
    // A new importer appears: units.py's Dependents change although units.py did not.
    p.write(
        "pkg/report.py",
        "from .sub.units import to_celsius\n\ndef show(x):\n    return to_celsius(x)\n",
    );
    let out = update_ok(&p, &[]);
    assert!(out.contains("NEW               pkg/report.py"), "{out}");
    assert!(out.contains("DEPENDENTS        pkg/sub/units.py"), "{out}");
    assert!(p
        .read(".lexibrary/pkg/sub/units.py.md")
        .contains("## Dependents\n\n- pkg/forecast.py\n- pkg/report.py"));
}

#[test]
fn deletes_renames_and_conflicts() {
    let p = project().fixture("javascript").build();
    p.init();
    update_ok(&p, &[]);
    std::fs::rename(p.path("src/store.js"), p.path("src/persist.js")).expect("rename");
    let out = update_ok(&p, &[]);
    assert!(
        out.contains("RENAMED           src/persist.js (from src/store.js)"),
        "{out}"
    );
    assert!(!p.exists(".lexibrary/src/store.js.md"));
    assert!(p
        .read(".lexibrary/src/persist.js.md")
        .contains("# src/persist.js\n"));

    std::fs::remove_file(p.path("src/persist.js")).expect("delete");
    let out = update_ok(&p, &[]);
    assert!(out.contains("DELETED           src/persist.js"), "{out}");
    assert!(!p.exists(".lexibrary/src/persist.js.md"));

    p.write(
        "src/index.js",
        "<<<<<<< HEAD\nexport const a = 1;\n=======\nexport const a = 2;\n>>>>>>> other\n",
    );
    let out = update(&p, &[]);
    assert_eq!(out.code, 0);
    assert!(
        out.stdout.contains("SKIPPED_CONFLICT  src/index.js"),
        "{}",
        out.both()
    );
    assert!(
        out.stderr.contains("merge-conflict markers"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_deleted_source_with_a_hand_edited_design_file_keeps_it() {
    let p = project().file("src/a.py", "def a():\n    pass\n").build();
    p.init();
    update_ok(&p, &[]);
    let design = ".lexibrary/src/a.py.md";
    p.write(
        design,
        p.read(design)
            .replace("## Tags", "## History\n\nImportant.\n\n## Tags"),
    );
    std::fs::remove_file(p.path("src/a.py")).expect("delete");
    let out = update(&p, &[]);
    assert!(
        out.stdout.contains("DELETED           src/a.py"),
        "{}",
        out.both()
    );
    assert!(
        out.stderr.contains("holds hand-written content; kept"),
        "{}",
        out.stderr
    );
    assert!(p.exists(design));
}

#[test]
fn dry_run_and_check_write_nothing() {
    let p = project().fixture("rust").build();
    p.init();
    let before = library(&p);
    let plan = update(&p, &["--dry-run"]);
    assert_eq!(plan.code, 0);
    assert!(
        plan.stdout.contains("NEW               src/lib.rs"),
        "{}",
        plan.stdout
    );
    assert!(
        plan.stdout.contains("would write 3 design files"),
        "{}",
        plan.stdout
    );
    let check = update(&p, &["--check"]);
    assert_eq!(check.code, 2, "{}", check.both());
    assert!(
        check.stdout.contains("stale: run `lexictl update`"),
        "{}",
        check.stdout
    );
    assert_eq!(library(&p), before);
    assert!(!p.exists(".git/lexibrarian/state"), "no state is recorded");
}

#[test]
fn paths_restrict_the_update_and_accept_spaces_unicode_and_nul_input() {
    let p = project()
        .file("src/plain.py", "X = 1\n")
        .file("src/with space/naïve 日本.py", "Y = 2\n")
        .file("src/other.py", "Z = 3\n")
        .build();
    p.init();
    let out = update_ok(&p, &["src/with space/naïve 日本.py"]);
    assert!(
        out.contains("NEW               src/with space/naïve 日本.py"),
        "{out}"
    );
    assert!(!p.exists(".lexibrary/src/plain.py.md"));
    let mut command = p.lexictl(&["update", "--changed-only", "-z"]);
    command.env("SOURCE_DATE_EPOCH", EPOCH);
    let out = run_input(&p, command, "src/plain.py\0src/other.py\0");
    assert_eq!(out.code, 0, "{}", out.both());
    assert!(p.exists(".lexibrary/src/plain.py.md") && p.exists(".lexibrary/src/other.py.md"));
    let mut from_sub = p.lexictl(&["update", "naïve 日本.py"]);
    from_sub.current_dir(p.path("src/with space"));
    assert_eq!(run(&p, from_sub).code, 0);
}

#[test]
fn changed_only_follows_commits_and_the_dirty_tree() {
    let p = project()
        .fixture("python")
        .file(".gitignore", "build/\n")
        .build();
    p.init();
    update_ok(&p, &[]);
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "library"]);
    update_ok(&p, &["--changed-only"]);

    // A commit touching two files, one with a space in its name.
    p.write(
        "pkg/sub/units.py",
        p.read("pkg/sub/units.py")
            .replace("FREEZING_F = 32.0", "FREEZING_F = 32.0\nBOILING_F = 212.0"),
    );
    p.write("pkg/new module.py", "def fresh():\n    return 1\n");
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "two files"]);
    // A dirty, uncommitted edit and an edit to an ignored file.
    p.write(
        "pkg/forecast.py",
        p.read("pkg/forecast.py")
            .replace("def celsius(self)", "def celsius(self, digits: int = 1)"),
    );
    p.write("build/out.py", "def ignored():\n    pass\n");
    let out = update_ok(&p, &["--changed-only"]);
    assert!(out.starts_with("lexictl update (changed-only):"), "{out}");
    let got = levels(&out);
    assert!(
        got.contains(&("INTERFACE_CHANGED".into(), "pkg/sub/units.py".into())),
        "{out}"
    );
    assert!(
        got.contains(&("NEW".into(), "pkg/new module.py".into())),
        "{out}"
    );
    assert!(
        got.contains(&("INTERFACE_CHANGED".into(), "pkg/forecast.py".into())),
        "{out}"
    );
    assert!(!out.contains("build/"), "{out}");
    assert!(!p.exists(".lexibrary/build"));
    // Afterwards a full update agrees: nothing left.
    let full = update_ok(&p, &[]);
    assert!(levels(&full).is_empty(), "{full}");
}

#[test]
fn changed_only_handles_fifty_files_renames_and_deletes_in_git() {
    let mut builder = project();
    for i in 0..50 {
        builder = builder.file(
            &format!("src/m{i:02}.js"),
            format!("export const v{i} = {i};\n"),
        );
    }
    let p = builder.build();
    p.init();
    update_ok(&p, &[]);
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "library"]);
    for i in 0..50 {
        p.write(
            &format!("src/m{i:02}.js"),
            format!("export const v{i} = {i};\nexport const w{i} = 0;\n"),
        );
    }
    p.git(&["commit", "-q", "-am", "fifty"]);
    let out = update_ok(&p, &["--changed-only"]);
    assert_eq!(
        levels(&out)
            .iter()
            .filter(|(l, _)| l == "INTERFACE_CHANGED")
            .count(),
        50,
        "{out}"
    );
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "library again"]);
    update_ok(&p, &["--changed-only"]);

    p.git(&["mv", "src/m00.js", "src/renamed.js"]);
    p.git(&["rm", "-q", "src/m01.js"]);
    p.git(&["commit", "-q", "-m", "rename and delete"]);
    let out = update_ok(&p, &["--changed-only"]);
    assert!(
        out.contains("RENAMED           src/renamed.js (from src/m00.js)"),
        "{out}"
    );
    assert!(out.contains("DELETED           src/m01.js"), "{out}");
    assert!(!p.exists(".lexibrary/src/m00.js.md") && !p.exists(".lexibrary/src/m01.js.md"));
    let index = p.read(".lexibrary/src/.aindex");
    assert!(
        index.contains("`renamed.js`")
            && !index.contains("`m00.js`")
            && !index.contains("`m01.js`"),
        "{index}"
    );
}

#[test]
fn changed_only_after_a_merge_commit_and_from_a_root_commit() {
    let p = project().file("src/base.py", "A = 1\n").build();
    p.init();
    // First run ever with --changed-only: a full update.
    let out = update_ok(&p, &["--changed-only"]);
    assert!(out.starts_with("lexictl update (full):"), "{out}");
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "library"]);
    update_ok(&p, &["--changed-only"]);
    p.git(&["checkout", "-q", "-b", "feature"]);
    p.write("src/feature.py", "def feature():\n    pass\n");
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "feature"]);
    p.git(&["checkout", "-q", "main"]);
    p.write("src/main_side.py", "def main_side():\n    pass\n");
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "main side"]);
    p.git(&["merge", "-q", "--no-edit", "feature"]);
    let out = update_ok(&p, &["--changed-only"]);
    let got = levels(&out);
    assert!(
        got.contains(&("NEW".into(), "src/feature.py".into())),
        "{out}"
    );
    assert!(
        got.contains(&("NEW".into(), "src/main_side.py".into())),
        "{out}"
    );
}

#[test]
fn a_concurrent_update_waits_instead_of_interleaving() {
    let p = project().fixture("rust").build();
    p.init();
    let lock_dir = p.path(".lexibrary/.cache");
    std::fs::create_dir_all(&lock_dir).expect("mkdir");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock_dir.join("library.lock"))
        .expect("open lock");
    lock.lock().expect("hold the lock");
    let mut child = p
        .lexictl(&["update"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("spawn");
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(
        child.try_wait().expect("poll").is_none(),
        "the second update must wait"
    );
    assert!(
        !p.exists(".lexibrary/src/lib.rs.md"),
        "nothing written while waiting"
    );
    lock.unlock().expect("release");
    let output = child.wait_with_output().expect("wait");
    assert!(output.status.success());
    assert!(String::from_utf8_lossy(&output.stderr).contains("waiting for another lexictl update"));
    assert!(p.exists(".lexibrary/src/lib.rs.md"));
}

#[test]
fn outside_git_the_cache_lives_in_the_library_and_works() {
    let p = project().no_git().fixture("rust").build();
    p.init();
    update_ok(&p, &[]);
    assert!(p.exists(".lexibrary/.cache/state/cache"));
    let out = update_ok(&p, &[]);
    assert!(out.contains("wrote 0 design files"), "{out}");
    let changed = update_ok(&p, &["--changed-only"]);
    assert!(changed.starts_with("lexictl update (full):"), "{changed}");
}

#[test]
fn a_corrupt_cache_or_state_is_rebuilt() {
    let p = project().fixture("rust").build();
    p.init();
    update_ok(&p, &[]);
    std::fs::write(p.path(".git/lexibrarian/cache"), "garbage\n").expect("write");
    std::fs::write(p.path(".git/lexibrarian/state"), "last_commit=nothex\n").expect("write");
    let out = update_ok(&p, &["--changed-only"]);
    assert!(out.contains("wrote 0 design files"), "{out}");
    assert!(p.read(".git/lexibrarian/update.log").contains("rebuilding"));
}

#[test]
fn a_clean_tree_at_the_processed_commit_is_up_to_date_without_reading_files() {
    let p = project().fixture("rust").build();
    p.init();
    update_ok(&p, &[]);
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "library"]);
    // This run sees a clean tree and writes nothing: it arms the fast path.
    assert!(levels(&update_ok(&p, &[])).is_empty());
    let fast = update_ok(&p, &[]);
    assert!(fast.contains("up to date"), "{fast}");
    assert_eq!(run(&p, p.lexictl(&["update", "--check"])).code, 0);

    // Anything dirty, a new commit, or a config change disarms it.
    p.write("src/lib.rs", p.read("src/lib.rs") + "\npub fn extra() {}\n");
    let dirty = update_ok(&p, &["--dry-run"]);
    assert!(dirty.contains("INTERFACE_CHANGED src/lib.rs"), "{dirty}");
    p.git(&["checkout", "--", "src/lib.rs"]);
    assert!(update_ok(&p, &[]).contains("up to date"));
    let config = p
        .read(".lexibrary/config.yaml")
        .replace("max_file_size_kb: 512", "max_file_size_kb: 256");
    p.write(".lexibrary/config.yaml", config);
    p.git(&["commit", "-q", "-am", "config"]);
    let after_config = update_ok(&p, &[]);
    assert!(!after_config.contains("up to date"), "{after_config}");
    // A design file deleted by hand is noticed and restored.
    assert!(update_ok(&p, &[]).contains("up to date"));
    std::fs::remove_file(p.path(".lexibrary/src/lib.rs.md")).expect("remove");
    let restored = update_ok(&p, &[]);
    assert!(
        restored.contains("NEW               src/lib.rs"),
        "{restored}"
    );
}

#[test]
fn changed_only_refreshes_dependents_of_unchanged_files() {
    let p = project().fixture("python").build();
    p.init();
    update_ok(&p, &[]);
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "library"]);
    update_ok(&p, &["--changed-only"]);
    p.write("pkg/report.py", "from .sub.units import to_celsius\n");
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "importer"]);
    let out = update_ok(&p, &["--changed-only"]);
    assert!(out.contains("NEW               pkg/report.py"), "{out}");
    assert!(out.contains("DEPENDENTS        pkg/sub/units.py"), "{out}");
    assert!(p
        .read(".lexibrary/pkg/sub/units.py.md")
        .contains("- pkg/forecast.py\n- pkg/report.py"));
    // The importer goes away again: the dependent is dropped.
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "library"]);
    p.git(&["rm", "-q", "pkg/report.py"]);
    p.git(&["commit", "-q", "-m", "drop importer"]);
    let out = update_ok(&p, &["--changed-only"]);
    assert!(out.contains("DELETED           pkg/report.py"), "{out}");
    assert!(out.contains("DEPENDENTS        pkg/sub/units.py"), "{out}");
    assert!(!p
        .read(".lexibrary/pkg/sub/units.py.md")
        .contains("pkg/report.py"));
}

#[test]
fn untracked_files_wait_for_their_commit_or_a_full_update() {
    let p = project().file("src/a.py", "A = 1\n").build();
    p.init();
    update_ok(&p, &[]);
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "library"]);
    update_ok(&p, &["--changed-only"]);
    p.write("src/draft.py", "def draft():\n    pass\n");
    let changed = update_ok(&p, &["--changed-only"]);
    assert!(!changed.contains("src/draft.py"), "{changed}");
    let full = update_ok(&p, &[]);
    assert!(full.contains("NEW               src/draft.py"), "{full}");
}

/// Backdate every file in the project so that the cache trusts their stat data (files modified
/// within two seconds of an update's start are re-read next time, by design).
fn backdate(p: &TestProject) {
    let status = std::process::Command::new("find")
        .args([
            ".",
            "-path",
            "./.git",
            "-prune",
            "-o",
            "-exec",
            "touch",
            "-h",
            "-d",
            "2020-01-01 00:00:00",
            "{}",
            "+",
        ])
        .current_dir(&p.root)
        .status()
        .expect("find");
    assert!(status.success());
}

#[test]
fn text_appended_after_the_footer_is_an_edit_and_survives() {
    let p = project().fixture("python").build();
    p.init();
    update_ok(&p, &[]);
    let design = ".lexibrary/pkg/sub/units.py.md";
    p.write(
        design,
        p.read(design) + "\n## Agent Notes\n\nCelsius only.\n",
    );
    p.write(
        "pkg/sub/units.py",
        p.read("pkg/sub/units.py") + "\ndef to_kelvin(c: float) -> float:\n    return c + 273.15\n",
    );
    let out = update_ok(&p, &[]);
    assert!(out.contains("AGENT_UPDATED     pkg/sub/units.py"), "{out}");
    let after = p.read(design);
    assert!(
        after.contains("## Agent Notes\n\nCelsius only.\n\n<!-- lexibrarian:meta"),
        "{after}"
    );
    assert!(after.trim_end().ends_with("-->"), "{after}");
    assert!(levels(&update_ok(&p, &[])).is_empty());
}

#[test]
fn a_rename_with_an_edit_keeps_hand_written_sections() {
    let p = project().fixture("python").build();
    p.init();
    update_ok(&p, &[]);
    let design = ".lexibrary/pkg/sub/units.py.md";
    p.write(
        design,
        p.read(design)
            .replace("## Tags", "## Notes\n\nKeep me.\n\n## Tags"),
    );
    update_ok(&p, &[]);
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "library"]);
    update_ok(&p, &[]);
    p.git(&["mv", "pkg/sub/units.py", "pkg/sub/conv.py"]);
    p.write(
        "pkg/sub/conv.py",
        p.read("pkg/sub/conv.py") + "\n# one more line\n",
    );
    p.git(&["commit", "-q", "-am", "rename and edit"]);
    let out = update_ok(&p, &[]);
    assert!(
        out.contains("RENAMED           pkg/sub/conv.py (from pkg/sub/units.py)"),
        "{out}"
    );
    assert!(p
        .read(".lexibrary/pkg/sub/conv.py.md")
        .contains("## Notes\n\nKeep me."));
    assert!(!p.exists(design));
    // Without any rename information, a design file holding hand-written sections is kept.
    p.write(
        ".lexibrary/pkg/forecast.py.md",
        p.read(".lexibrary/pkg/forecast.py.md")
            .replace("## Tags", "## Why\n\nReasons.\n\n## Tags"),
    );
    update_ok(&p, &[]);
    std::fs::remove_file(p.path("pkg/forecast.py")).expect("rm");
    let out = update(&p, &[]);
    assert!(
        out.stderr.contains("holds hand-written content; kept"),
        "{}",
        out.both()
    );
    assert!(p.exists(".lexibrary/pkg/forecast.py.md"));
}

#[test]
fn dependents_refresh_works_for_files_answered_from_the_cache() {
    let p = project().fixture("python").build();
    p.init();
    update_ok(&p, &[]);
    backdate(&p);
    update_ok(&p, &[]); // re-verifies everything with settled mtimes
    p.write(
        "pkg/__init__.py",
        p.read("pkg/__init__.py") + "from .sub.units import to_celsius\n",
    );
    let out = update(&p, &[]);
    assert_eq!(out.code, 0, "{}", out.both());
    assert!(
        !out.stderr.contains("changed while the update ran"),
        "{}",
        out.stderr
    );
    assert!(
        out.stdout.contains("DEPENDENTS        pkg/sub/units.py"),
        "{}",
        out.stdout
    );
    assert!(p
        .read(".lexibrary/pkg/sub/units.py.md")
        .contains("## Dependents\n\n- pkg/__init__.py\n- pkg/forecast.py"));
    assert_eq!(run(&p, p.lexictl(&["update", "--check"])).code, 0);
}

#[test]
fn a_path_update_keeps_imports_outside_the_path() {
    let p = project().fixture("python").build();
    p.init();
    update_ok(&p, &[]);
    p.write(
        "pkg/forecast.py",
        p.read("pkg/forecast.py") + "\nEXTRA = 1\n",
    );
    update_ok(&p, &["pkg/forecast.py"]);
    assert!(p
        .read(".lexibrary/pkg/forecast.py.md")
        .contains("## Dependencies\n\n- pkg/sub/units.py"));
}

#[test]
fn no_fast_path_when_git_cannot_see_what_the_walk_sees() {
    // The project is a subdirectory of the repository, whose root .gitignore hides a file the
    // project documents (the walk reads ignore files from the project root down).
    let p = project()
        .file(".gitignore", "local_*.py\n")
        .file("proj/local_cfg.py", "A = 1\n")
        .build();
    let mut init = p.lexictl(&["init", "--yes"]);
    init.current_dir(p.path("proj"));
    assert_eq!(run(&p, init).code, 0);
    let in_proj = |args: &[&str]| {
        let mut command = p.lexictl(args);
        command
            .current_dir(p.path("proj"))
            .env("SOURCE_DATE_EPOCH", EPOCH);
        run(&p, command)
    };
    in_proj(&["update"]);
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "library"]);
    in_proj(&["update"]);
    p.write("proj/local_cfg.py", "A = 1\nB = 2\n");
    let out = in_proj(&["update"]);
    assert!(!out.stdout.contains("up to date"), "{}", out.both());
    assert!(
        out.stdout.contains("INTERFACE_CHANGED local_cfg.py"),
        "{}",
        out.both()
    );
}

#[test]
fn changed_only_revisits_files_that_were_dirty_last_time() {
    let p = project().fixture("python").build();
    p.init();
    update_ok(&p, &[]);
    p.git(&["add", "-A"]);
    p.git(&["commit", "-q", "-m", "library"]);
    update_ok(&p, &["--changed-only"]);
    std::fs::remove_file(p.path("pkg/sub/units.py")).expect("rm");
    let out = update_ok(&p, &["--changed-only"]);
    assert!(out.contains("DELETED           pkg/sub/units.py"), "{out}");
    p.git(&["checkout", "--", "pkg/sub/units.py"]);
    let out = update_ok(&p, &["--changed-only"]);
    assert!(out.contains("NEW               pkg/sub/units.py"), "{out}");
    assert!(p.exists(".lexibrary/pkg/sub/units.py.md"));
}

#[test]
fn a_skipped_file_that_is_then_deleted_loses_its_design_file() {
    let p = project().fixture("python").build();
    p.init();
    update_ok(&p, &[]);
    p.write(
        "pkg/forecast.py",
        "<<<<<<< HEAD\nA = 1\n=======\nA = 2\n>>>>>>> other\n",
    );
    let out = update(&p, &[]);
    assert!(
        out.stdout.contains("SKIPPED_CONFLICT  pkg/forecast.py"),
        "{}",
        out.both()
    );
    assert!(
        !out.stdout.contains("DEPENDENTS"),
        "a skipped file keeps its imports: {}",
        out.stdout
    );
    std::fs::remove_file(p.path("pkg/forecast.py")).expect("rm");
    let out = update_ok(&p, &[]);
    assert!(out.contains("DELETED           pkg/forecast.py"), "{out}");
    assert!(!p.exists(".lexibrary/pkg/forecast.py.md"));
}

#[test]
fn check_and_dry_run_create_no_lock_and_no_log() {
    let p = project().no_git().fixture("rust").build();
    p.init();
    let _ = std::fs::remove_dir_all(p.path(".lexibrary/.cache"));
    assert_eq!(update(&p, &["--check"]).code, 2);
    assert_eq!(update(&p, &["--dry-run"]).code, 0);
    assert!(!p.exists(".lexibrary/.cache"), "nothing may be written");
}

#[test]
fn dependencies_follow_a_module_that_moved() {
    let p = project().fixture("rust").build();
    p.init();
    assert_eq!(run(&p, p.lexictl(&["update"])).code, 0);
    assert!(p
        .read(".lexibrary/src/lib.rs.md")
        .contains("- src/parser/mod.rs"));
    // `src/parser/mod.rs` becomes `src/parser.rs`; src/lib.rs itself does not change.
    std::fs::rename(p.path("src/parser/mod.rs"), p.path("src/parser.rs")).unwrap();
    let out = run(&p, p.lexictl(&["update"]));
    assert_eq!(out.code, 0, "{}", out.both());
    let lib = p.read(".lexibrary/src/lib.rs.md");
    assert!(lib.contains("## Dependencies\n\n- src/parser.rs"), "{lib}");
    let validate = run(&p, p.lexictl(&["validate", "--severity", "error"]));
    assert_eq!(validate.code, 0, "{}", validate.both());
}
