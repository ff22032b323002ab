//! `lexictl update`: generation, change levels, the agent-first rule, determinism, git-driven
//! `--changed-only`, renames and deletes.

use std::collections::BTreeMap;

use crate::support::{project, TestProject};

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
        let p = project().fixture(fixture).init().build();
        p.lexictl(["update"]).success();
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
    let p = project().fixture("rust").init().build();
    let first = p.lexictl(["update"]).run();
    insta::assert_snapshot!("update_first_run", first.both());
    let value = p.lexictl(["update", "--format", "json"]).json();
    insta::assert_json_snapshot!("update_noop_json", value, { ".elapsed_ms" => 0 });
}

/// `--timings`: one line per phase the run went through, then the total — on stderr, so the
/// report on stdout (text or JSON) is the same with or without it.
#[test]
fn timings_name_each_phase_on_stderr() {
    let p = project().fixture("python").init().build();
    let out = p
        .lexictl(["update", "--timings", "--format", "json"])
        .success();
    let phases: Vec<&str> = out
        .stderr
        .lines()
        .filter_map(|line| line.strip_suffix(" ms"))
        .filter_map(|line| line.rsplit_once(' ').map(|(name, _)| name.trim_end()))
        .collect();
    assert_eq!(
        phases,
        [
            "planning",
            "scanning",
            "deciding",
            "rendering",
            "recording provenance",
            "writing",
            "indexing",
            "saving",
            "total"
        ],
        "{}",
        out.stderr
    );
    assert!(out.json()["design_files_written"].as_u64() > Some(0));
}

#[test]
fn a_second_update_writes_nothing_and_leaves_no_diff() {
    let p = project().fixture("typescript").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    let before = library(&p);
    // On the real clock: an unchanged project writes nothing — after its library is committed the
    // update does not even walk the tree (the fast path), and a walk writes nothing either.
    p.lexictl(["update"])
        .real_clock()
        .success()
        .stdout_has("up to date");
    assert_eq!(library(&p), before);
    p.lexictl(["update", "src/"])
        .real_clock()
        .success()
        .stdout_has("wrote 0 design files, removed 0, 0 .aindex, START_HERE.md unchanged");
    assert_eq!(library(&p), before);
    p.git(["status", "--porcelain"]).success().stdout_is("");
    p.lexictl(["update", "--check"]).real_clock().success();
}

#[test]
fn two_full_updates_of_the_same_tree_are_byte_identical() {
    let a = project().fixture("python").build();
    let b = project().fixture("python").build();
    for p in [&a, &b] {
        p.init();
        p.lexictl(["update"]).success();
    }
    assert_eq!(library(&a), library(&b));
    // And again from a cold cache: rebuilt, but nothing rewritten.
    std::fs::remove_dir_all(a.path(".git/lexibrarian")).expect("drop cache");
    let before = library(&a);
    let out = a.lexictl(["update"]).success().stdout;
    assert!(out.contains("wrote 0 design files"), "{out}");
    assert_eq!(library(&a), before);
}

#[test]
fn interface_changes_regenerate_and_hand_edits_survive() {
    // The Python edition's defect 1: after the first generation every source edit looked like an
    // agent edit, so nothing was ever regenerated.
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    let design = ".lexibrary/src/lib.rs.md";

    p.write(
        "src/lib.rs",
        p.read("src/lib.rs").replace(
            "pub fn eval(input: &str)",
            "pub fn eval(input: &str, radix: u32)",
        ),
    );
    let out = p.lexictl(["update"]).success().stdout;
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
    let out = p.lexictl(["update"]).success().stdout;
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
    let out = p.lexictl(["update"]).success().stdout;
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
    let out = p.lexictl(["update"]).success().stdout;
    assert!(levels(&out).is_empty(), "{out}");
    p.lexi(["lookup", "src/lib.rs"])
        .run()
        .stdout_lacks("outdated");
}

#[test]
fn a_heading_in_a_code_fence_survives_an_update() {
    let p = project()
        .file("src/a.rs", "//! Doc.\npub fn a() {}\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    let design = ".lexibrary/src/a.rs.md";
    let text = p.read(design).replace(
        "## Tags",
        "## Notes\n\n```md\n## not a heading\n```\n\n## Tags",
    );
    p.write(design, &text);
    p.lexictl(["update"]).success(); // AGENT_UPDATED: footer refresh
    p.write("src/a.rs", "//! Doc.\npub fn a() {}\npub fn b() {}\n");
    let out = p.lexictl(["update"]).success().stdout;
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
    let p = project().fixture("python").init().build();
    p.lexictl(["update"]).success();
    assert!(p
        .read(".lexibrary/pkg/sub/units.py.md")
        .contains("## Dependents\n\n- pkg/forecast.py"));
    // A new importer appears: units.py's Dependents change although units.py did not.
    p.write(
        "pkg/report.py",
        "from .sub.units import to_celsius\n\ndef show(x):\n    return to_celsius(x)\n",
    );
    let out = p.lexictl(["update"]).success().stdout;
    assert!(out.contains("NEW               pkg/report.py"), "{out}");
    assert!(out.contains("DEPENDENTS        pkg/sub/units.py"), "{out}");
    assert!(p
        .read(".lexibrary/pkg/sub/units.py.md")
        .contains("## Dependents\n\n- pkg/forecast.py\n- pkg/report.py"));
}

#[test]
fn deletes_and_renames() {
    let p = project().fixture("javascript").init().build();
    p.lexictl(["update"]).success();
    std::fs::rename(p.path("src/store.js"), p.path("src/persist.js")).expect("rename");
    let out = p.lexictl(["update"]).success().stdout;
    assert!(
        out.contains("RENAMED           src/persist.js (from src/store.js)"),
        "{out}"
    );
    assert!(!p.exists(".lexibrary/src/store.js.md"));
    assert!(p
        .read(".lexibrary/src/persist.js.md")
        .contains("# src/persist.js\n"));

    std::fs::remove_file(p.path("src/persist.js")).expect("delete");
    let out = p.lexictl(["update"]).success().stdout;
    assert!(out.contains("DELETED           src/persist.js"), "{out}");
    assert!(!p.exists(".lexibrary/src/persist.js.md"));
}

#[test]
fn a_hand_edited_design_file_moves_with_its_renamed_source() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    let design = ".lexibrary/src/parser/lexer.rs.md";
    p.write(
        design,
        p.read(design)
            .replace("updated_by: archivist", "updated_by: agent")
            .replace(
                "## Interface Contract",
                "## Why\n\nAn agent's note.\n\n## Interface Contract",
            ),
    );
    p.commit_all("library");
    p.git(["mv", "src/parser/lexer.rs", "src/parser/tokens.rs"])
        .success();
    p.lexictl(["update"])
        .success()
        .stdout_has("RENAMED           src/parser/tokens.rs (from src/parser/lexer.rs)")
        .stderr_lacks("changed while the update ran");
    assert!(!p.exists(design));
    let moved = p.read(".lexibrary/src/parser/tokens.rs.md");
    assert!(
        moved.contains("# src/parser/tokens.rs\n") && moved.contains("An agent's note."),
        "{moved}"
    );
    // The move is complete: nothing is left for the next run.
    p.lexictl(["update"])
        .success()
        .stdout_has("3 unchanged")
        .stdout_has("wrote 0 design files");
}

#[test]
fn a_deleted_source_with_a_hand_edited_design_file_keeps_it() {
    let p = project()
        .file("src/a.py", "def a():\n    pass\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    let design = ".lexibrary/src/a.py.md";
    p.write(
        design,
        p.read(design)
            .replace("## Tags", "## History\n\nImportant.\n\n## Tags"),
    );
    std::fs::remove_file(p.path("src/a.py")).expect("delete");
    p.lexictl(["update"])
        .run()
        .stdout_has("DELETED           src/a.py")
        .stderr_has("holds hand-written content; kept");
    assert!(p.exists(design));
}

#[test]
fn dry_run_and_check_write_nothing() {
    let p = project().fixture("rust").init().build();
    let before = library(&p);
    p.lexictl(["update", "--dry-run"])
        .success()
        .stdout_has("NEW               src/lib.rs")
        .stdout_has("would write 3 design files");
    p.lexictl(["update", "--check"])
        .code(2)
        .stdout_has("stale: run `lexictl update`");
    assert_eq!(library(&p), before);
    assert!(!p.exists(".git/lexibrarian/state"), "no state is recorded");
}

#[test]
fn paths_restrict_the_update_and_accept_spaces_unicode_and_nul_input() {
    let p = project()
        .file("src/plain.py", "X = 1\n")
        .file("src/with space/naïve 日本.py", "Y = 2\n")
        .file("src/other.py", "Z = 3\n")
        .init()
        .build();
    let out = p
        .lexictl(["update", "src/with space/naïve 日本.py"])
        .success()
        .stdout;
    assert!(
        out.contains("NEW               src/with space/naïve 日本.py"),
        "{out}"
    );
    assert!(!p.exists(".lexibrary/src/plain.py.md"));
    p.lexictl(["update", "--changed-only", "-z"])
        .stdin("src/plain.py\0src/other.py\0")
        .success();
    assert!(p.exists(".lexibrary/src/plain.py.md") && p.exists(".lexibrary/src/other.py.md"));
    p.lexictl(["update", "naïve 日本.py"])
        .current_dir("src/with space")
        .success();
}

#[test]
fn changed_only_follows_commits_and_the_dirty_tree() {
    let p = project()
        .fixture("python")
        .file(".gitignore", "build/\n")
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexictl(["update", "--changed-only"]).success();

    // A commit touching two files, one with a space in its name.
    p.write(
        "pkg/sub/units.py",
        p.read("pkg/sub/units.py")
            .replace("FREEZING_F = 32.0", "FREEZING_F = 32.0\nBOILING_F = 212.0"),
    );
    p.write("pkg/new module.py", "def fresh():\n    return 1\n");
    p.commit_all("two files");
    // A dirty, uncommitted edit and an edit to an ignored file.
    p.write(
        "pkg/forecast.py",
        p.read("pkg/forecast.py")
            .replace("def celsius(self)", "def celsius(self, digits: int = 1)"),
    );
    p.write("build/out.py", "def ignored():\n    pass\n");
    let out = p.lexictl(["update", "--changed-only"]).success().stdout;
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
    let full = p.lexictl(["update"]).success().stdout;
    assert!(levels(&full).is_empty(), "{full}");
}

#[test]
fn a_changed_only_run_appends_to_the_update_cache_and_its_readers_see_it() {
    let mut builder = project();
    for i in 0..24 {
        builder = builder.file(
            &format!("pkg/m{i:02}.py"),
            format!("def f{i}():\n    return {i}\n"),
        );
    }
    let p = builder.init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexictl(["update", "--changed-only"]).success();
    let cache = ".git/lexibrarian/cache";
    let before = std::fs::read(p.path(cache)).expect("cache");

    // One commit: m01 now imports m00 (a new edge of the graph the cache holds).
    p.write(
        "pkg/m01.py",
        "from pkg.m00 import f0\n\ndef f1():\n    return f0()\n",
    );
    p.commit_all("one file");
    p.lexictl(["update", "--changed-only"]).success();
    let after = std::fs::read(p.path(cache)).expect("cache");
    assert!(
        after.starts_with(&before),
        "the run appended to the cache, not rewrote it"
    );
    assert!(String::from_utf8_lossy(&after[before.len()..]).starts_with("\u{1e}block\t"));

    // Readers of the cache see the appended edge.
    let impact = p.lexi(["impact", "pkg/m00.py"]).success().stdout;
    assert!(impact.contains("pkg/m01.py"), "{impact}");
    // And a full update finds the library current.
    let full = p.lexictl(["update"]).success().stdout;
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
    p.lexictl(["update"]).success();
    p.commit_all("library");
    for i in 0..50 {
        p.write(
            &format!("src/m{i:02}.js"),
            format!("export const v{i} = {i};\nexport const w{i} = 0;\n"),
        );
    }
    p.git(["commit", "-q", "-am", "fifty"]).success();
    let out = p.lexictl(["update", "--changed-only"]).success().stdout;
    assert_eq!(
        levels(&out)
            .iter()
            .filter(|(l, _)| l == "INTERFACE_CHANGED")
            .count(),
        50,
        "{out}"
    );
    p.commit_all("library again");
    p.lexictl(["update", "--changed-only"]).success();

    p.git(["mv", "src/m00.js", "src/renamed.js"]).success();
    p.git(["rm", "-q", "src/m01.js"]).success();
    p.git(["commit", "-q", "-m", "rename and delete"]).success();
    let out = p.lexictl(["update", "--changed-only"]).success().stdout;
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
    let p = project().file("src/base.py", "A = 1\n").init().build();
    // First run ever with --changed-only: a full update.
    let out = p.lexictl(["update", "--changed-only"]).success().stdout;
    assert!(out.starts_with("lexictl update (full):"), "{out}");
    p.commit_all("library");
    p.lexictl(["update", "--changed-only"]).success();
    p.git(["checkout", "-q", "-b", "feature"]).success();
    p.write("src/feature.py", "def feature():\n    pass\n");
    p.commit_all("feature");
    p.git(["checkout", "-q", "main"]).success();
    p.write("src/main_side.py", "def main_side():\n    pass\n");
    p.commit_all("main side");
    p.git(["merge", "-q", "--no-edit", "feature"]).success();
    let out = p.lexictl(["update", "--changed-only"]).success().stdout;
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
    let p = project().fixture("rust").init().build();
    let lock_dir = p.path(".lexibrary/.cache");
    std::fs::create_dir_all(&lock_dir).expect("mkdir");
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(lock_dir.join("library.lock"))
        .expect("open lock");
    lock.lock().expect("hold the lock");
    let mut update = p.lexictl(["update"]).spawn();
    // The positive signal: it says it waits (its first line on stderr), then it must still run.
    let mut stderr = std::io::BufReader::new(update.child.stderr.take().expect("stderr"));
    let mut said = String::new();
    std::io::BufRead::read_line(&mut stderr, &mut said).expect("read stderr");
    assert!(
        said.starts_with("waiting for another lexictl update"),
        "{said}"
    );
    assert!(
        update.child.try_wait().expect("poll").is_none(),
        "the second update must wait"
    );
    assert!(
        !p.exists(".lexibrary/src/lib.rs.md"),
        "nothing written while waiting"
    );
    lock.unlock().expect("release");
    update.wait().success();
    assert!(p.exists(".lexibrary/src/lib.rs.md"));
}

#[test]
fn outside_git_the_cache_lives_in_the_library_and_works() {
    let p = project().no_git().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    assert!(p.exists(".lexibrary/.cache/state/cache"));
    let out = p.lexictl(["update"]).success().stdout;
    assert!(out.contains("wrote 0 design files"), "{out}");
    let changed = p.lexictl(["update", "--changed-only"]).success().stdout;
    assert!(changed.starts_with("lexictl update (full):"), "{changed}");
}

#[test]
fn a_corrupt_cache_or_state_is_rebuilt() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    std::fs::write(p.path(".git/lexibrarian/cache"), "garbage\n").expect("write");
    std::fs::write(p.path(".git/lexibrarian/state"), "last_commit=nothex\n").expect("write");
    let out = p.lexictl(["update", "--changed-only"]).success().stdout;
    assert!(out.contains("wrote 0 design files"), "{out}");
    assert!(p.read(".git/lexibrarian/update.log").contains("rebuilding"));
}

#[test]
fn a_clean_tree_at_the_processed_commit_is_up_to_date_without_reading_files() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    // This run sees a clean tree and writes nothing: it arms the fast path.
    assert!(levels(&p.lexictl(["update"]).success().stdout).is_empty());
    p.lexictl(["update"]).success().stdout_has("up to date");
    p.lexictl(["update", "--check"]).success();

    // Anything dirty, a new commit, or a config change disarms it.
    p.write("src/lib.rs", p.read("src/lib.rs") + "\npub fn extra() {}\n");
    p.lexictl(["update", "--dry-run"])
        .success()
        .stdout_has("INTERFACE_CHANGED src/lib.rs");
    p.git(["checkout", "--", "src/lib.rs"]).success();
    p.lexictl(["update"]).success().stdout_has("up to date");
    p.config("crawl:\n  max_file_size_kb: 256\n");
    p.git(["commit", "-q", "-am", "config"]).success();
    p.lexictl(["update"]).success().stdout_lacks("up to date");
    // A design file deleted by hand is noticed and restored.
    p.lexictl(["update"]).success().stdout_has("up to date");
    std::fs::remove_file(p.path(".lexibrary/src/lib.rs.md")).expect("remove");
    p.lexictl(["update"])
        .success()
        .stdout_has("NEW               src/lib.rs");
}

#[test]
fn a_new_commit_with_the_processed_tree_keeps_the_fast_path() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexictl(["update"]).success();
    // An empty commit (and a message-only amend) changes HEAD but not the tree.
    p.git(["commit", "-q", "--allow-empty", "-m", "empty"])
        .success();
    p.lexictl(["update"]).success().stdout_has("up to date");
    p.git(["commit", "-q", "--amend", "--allow-empty", "-m", "reworded"])
        .success();
    p.lexictl(["update", "--changed-only"])
        .success()
        .stdout_has("up to date");
    // The new HEAD is remembered as processed: the next changed-only diffs from it.
    let head = p.git(["rev-parse", "HEAD"]).success().stdout;
    assert!(
        p.read(".git/lexibrarian/state.json").contains(head.trim()),
        "{}",
        p.read(".git/lexibrarian/state.json")
    );
    // A commit that changes the tree is no no-op.
    p.write("src/lib.rs", p.read("src/lib.rs") + "\npub fn extra() {}\n");
    p.commit_all("extra");
    p.lexictl(["update"])
        .success()
        .stdout_lacks("up to date")
        .stdout_has("INTERFACE_CHANGED src/lib.rs");
}

#[test]
fn changed_only_refreshes_dependents_of_unchanged_files() {
    let p = project().fixture("python").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexictl(["update", "--changed-only"]).success();
    p.write("pkg/report.py", "from .sub.units import to_celsius\n");
    p.commit_all("importer");
    let out = p.lexictl(["update", "--changed-only"]).success().stdout;
    assert!(out.contains("NEW               pkg/report.py"), "{out}");
    assert!(out.contains("DEPENDENTS        pkg/sub/units.py"), "{out}");
    assert!(p
        .read(".lexibrary/pkg/sub/units.py.md")
        .contains("- pkg/forecast.py\n- pkg/report.py"));
    // The importer goes away again: the dependent is dropped.
    p.commit_all("library");
    p.git(["rm", "-q", "pkg/report.py"]).success();
    p.git(["commit", "-q", "-m", "drop importer"]).success();
    let out = p.lexictl(["update", "--changed-only"]).success().stdout;
    assert!(out.contains("DELETED           pkg/report.py"), "{out}");
    assert!(out.contains("DEPENDENTS        pkg/sub/units.py"), "{out}");
    assert!(!p
        .read(".lexibrary/pkg/sub/units.py.md")
        .contains("pkg/report.py"));
}

#[test]
fn untracked_files_wait_for_their_commit_or_a_full_update() {
    let p = project().file("src/a.py", "A = 1\n").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexictl(["update", "--changed-only"]).success();
    p.write("src/draft.py", "def draft():\n    pass\n");
    let changed = p.lexictl(["update", "--changed-only"]).success().stdout;
    assert!(!changed.contains("src/draft.py"), "{changed}");
    let full = p.lexictl(["update"]).success().stdout;
    assert!(full.contains("NEW               src/draft.py"), "{full}");
}

/// git keeps no empty directory: one left empty by a move, or holding only ignored files, is not in
/// a clone of the same tree, so it gets no index and no Child Map row — in a full run and in a
/// changed-only one — and a clone's check of the library is clean (CI checks a clean clone).
#[test]
fn directories_without_a_kept_file_are_not_indexed() {
    let p = project()
        .file("src/a.py", "A = 1\n")
        .file("src/b.py", "B = 1\n")
        .file(".gitignore", "*.log\n")
        .init()
        .build();
    std::fs::create_dir_all(p.path("src/moved/away")).expect("an empty directory");
    p.write("src/logs/run.log", "ignored\n");
    p.lexictl(["update"]).success();
    p.commit_all("library");
    let indexed = |p: &TestProject| {
        let child_map = p.read(".lexibrary/src/.aindex");
        assert!(!child_map.contains("moved/"), "{child_map}");
        assert!(!child_map.contains("logs/"), "{child_map}");
        for dir in ["src/moved", "src/moved/away", "src/logs"] {
            assert!(!p.exists(&format!(".lexibrary/{dir}/.aindex")), "{dir}");
        }
    };
    indexed(&p);
    p.write("src/a.py", "A = 2\n");
    p.commit_all("edit");
    p.lexictl(["update", "--changed-only"]).success();
    indexed(&p);
    p.commit_all("library");
    let clone = p.clone_to("clone");
    clone.lexictl(["update", "--check"]).success();
    // The last file of a directory deleted with `rm` (the directory stays): its index goes too.
    p.write("src/gone/c.py", "C = 1\n");
    p.commit_all("add");
    p.lexictl(["update", "--changed-only"]).success();
    assert!(p.exists(".lexibrary/src/gone/.aindex"));
    std::fs::remove_file(p.path("src/gone/c.py")).expect("remove the file");
    p.commit_all("delete");
    p.lexictl(["update", "--changed-only"]).success();
    assert!(!p.exists(".lexibrary/src/gone/.aindex"));
    assert!(!p.read(".lexibrary/src/.aindex").contains("gone/"));
    p.lexictl(["update", "--check"]).success();
}

/// Backdate every file in the project so that the cache trusts their stat data (files modified
/// within two seconds of an update's start are re-read next time, by design).
fn backdate(p: &TestProject) {
    p.cmd(
        "find",
        [
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
        ],
    )
    .success();
}

#[test]
fn text_appended_after_the_footer_is_an_edit_and_survives() {
    let p = project().fixture("python").init().build();
    p.lexictl(["update"]).success();
    let design = ".lexibrary/pkg/sub/units.py.md";
    p.write(
        design,
        p.read(design) + "\n## Agent Notes\n\nCelsius only.\n",
    );
    p.write(
        "pkg/sub/units.py",
        p.read("pkg/sub/units.py") + "\ndef to_kelvin(c: float) -> float:\n    return c + 273.15\n",
    );
    let out = p.lexictl(["update"]).success().stdout;
    assert!(out.contains("AGENT_UPDATED     pkg/sub/units.py"), "{out}");
    let after = p.read(design);
    assert!(
        after.contains("## Agent Notes\n\nCelsius only.\n\n<!-- lexibrarian:meta"),
        "{after}"
    );
    assert!(after.trim_end().ends_with("-->"), "{after}");
    assert!(levels(&p.lexictl(["update"]).success().stdout).is_empty());
}

#[test]
fn a_rename_with_an_edit_keeps_hand_written_sections() {
    let p = project().fixture("python").init().build();
    p.lexictl(["update"]).success();
    let design = ".lexibrary/pkg/sub/units.py.md";
    p.write(
        design,
        p.read(design)
            .replace("## Tags", "## Notes\n\nKeep me.\n\n## Tags"),
    );
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexictl(["update"]).success();
    p.git(["mv", "pkg/sub/units.py", "pkg/sub/conv.py"])
        .success();
    p.write(
        "pkg/sub/conv.py",
        p.read("pkg/sub/conv.py") + "\n# one more line\n",
    );
    p.git(["commit", "-q", "-am", "rename and edit"]).success();
    let out = p.lexictl(["update"]).success().stdout;
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
    p.lexictl(["update"]).success();
    std::fs::remove_file(p.path("pkg/forecast.py")).expect("rm");
    p.lexictl(["update"])
        .run()
        .stderr_has("holds hand-written content; kept");
    assert!(p.exists(".lexibrary/pkg/forecast.py.md"));
}

#[test]
fn dependents_refresh_works_for_files_answered_from_the_cache() {
    let p = project().fixture("python").init().build();
    p.lexictl(["update"]).success();
    backdate(&p);
    p.lexictl(["update"]).success(); // re-verifies everything with settled mtimes
    p.write(
        "pkg/__init__.py",
        p.read("pkg/__init__.py") + "from .sub.units import to_celsius\n",
    );
    p.lexictl(["update"])
        .success()
        .stderr_lacks("changed while the update ran")
        .stdout_has("DEPENDENTS        pkg/sub/units.py");
    assert!(p
        .read(".lexibrary/pkg/sub/units.py.md")
        .contains("## Dependents\n\n- pkg/__init__.py\n- pkg/forecast.py"));
    p.lexictl(["update", "--check"]).success();
}

#[test]
fn a_path_update_keeps_imports_outside_the_path() {
    let p = project().fixture("python").init().build();
    p.lexictl(["update"]).success();
    p.write(
        "pkg/forecast.py",
        p.read("pkg/forecast.py") + "\nEXTRA = 1\n",
    );
    p.lexictl(["update", "pkg/forecast.py"]).success();
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
    p.lexictl(["init", "--yes"]).current_dir("proj").success();
    p.lexictl(["update"]).current_dir("proj").success();
    p.commit_all("library");
    p.lexictl(["update"]).current_dir("proj").success();
    p.write("proj/local_cfg.py", "A = 1\nB = 2\n");
    p.lexictl(["update"])
        .current_dir("proj")
        .run()
        .stdout_lacks("up to date")
        .stdout_has("INTERFACE_CHANGED local_cfg.py");
}

#[test]
fn changed_only_revisits_files_that_were_dirty_last_time() {
    let p = project().fixture("python").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p.lexictl(["update", "--changed-only"]).success();
    std::fs::remove_file(p.path("pkg/sub/units.py")).expect("rm");
    let out = p.lexictl(["update", "--changed-only"]).success().stdout;
    assert!(out.contains("DELETED           pkg/sub/units.py"), "{out}");
    p.git(["checkout", "--", "pkg/sub/units.py"]).success();
    let out = p.lexictl(["update", "--changed-only"]).success().stdout;
    assert!(out.contains("NEW               pkg/sub/units.py"), "{out}");
    assert!(p.exists(".lexibrary/pkg/sub/units.py.md"));
}

#[test]
fn a_skipped_file_that_is_then_deleted_loses_its_design_file() {
    // Outside git, conflict markers are what marks a conflict.
    let p = project().no_git().fixture("python").init().build();
    p.lexictl(["update"]).success();
    p.write(
        "pkg/forecast.py",
        "<<<<<<< HEAD\nA = 1\n=======\nA = 2\n>>>>>>> other\n",
    );
    // A skipped file keeps its imports: no DEPENDENTS change.
    p.lexictl(["update"])
        .run()
        .stdout_has("SKIPPED_CONFLICT  pkg/forecast.py")
        .stdout_lacks("DEPENDENTS");
    std::fs::remove_file(p.path("pkg/forecast.py")).expect("rm");
    let out = p.lexictl(["update"]).success().stdout;
    assert!(out.contains("DELETED           pkg/forecast.py"), "{out}");
    assert!(!p.exists(".lexibrary/pkg/forecast.py.md"));
}

#[test]
fn check_and_dry_run_create_no_lock_and_no_log() {
    let p = project().no_git().fixture("rust").init().build();
    let _ = std::fs::remove_dir_all(p.path(".lexibrary/.cache"));
    p.lexictl(["update", "--check"]).code(2);
    p.lexictl(["update", "--dry-run"]).success();
    assert!(!p.exists(".lexibrary/.cache"), "nothing may be written");
}

#[test]
fn dependencies_follow_a_module_that_moved() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    assert!(p
        .read(".lexibrary/src/lib.rs.md")
        .contains("- src/parser/mod.rs"));
    // `src/parser/mod.rs` becomes `src/parser.rs`; src/lib.rs itself does not change.
    std::fs::rename(p.path("src/parser/mod.rs"), p.path("src/parser.rs")).expect("rename");
    p.lexictl(["update"]).success();
    let lib = p.read(".lexibrary/src/lib.rs.md");
    assert!(lib.contains("## Dependencies\n\n- src/parser.rs"), "{lib}");
    p.lexictl(["validate", "--severity", "error"]).success();
}

/// Dot-directories with code or CI configuration are documented when in scope (content-only
/// design files for YAML), and checked like any other; other dotfiles are only listed.
#[test]
fn ci_configuration_in_dot_directories_is_documented() {
    let workflow = "name: ci\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: cargo test\n";
    let p = project()
        .fixture("rust")
        .file(".github/workflows/ci.yml", workflow)
        .file(".gitlab-ci.yml", "test:\n  script: cargo test\n")
        .file(".cargo/config.toml", "[build]\njobs = 2\n")
        .file(".vscode/settings.json", "{}\n")
        .init()
        .config("scope_root: .\n")
        .build();
    p.lexictl(["update"]).success();
    for documented in [
        ".github/workflows/ci.yml",
        ".gitlab-ci.yml",
        ".cargo/config.toml",
    ] {
        assert!(
            p.exists(&format!(".lexibrary/{documented}.md")),
            "{documented} has a design file"
        );
    }
    assert!(!p.exists(".lexibrary/.vscode/settings.json.md"));
    p.lexi(["lookup", ".github/workflows/ci.yml"])
        .success()
        .stdout_has("GitHub Actions workflow `ci` (on push).");
    p.write(".github/workflows/ci.yml", format!("{workflow}# changed\n"));
    p.lexictl(["validate"])
        .code(2)
        .stdout_has("[stale-source] .github/workflows/ci.yml");
    p.lexictl(["update", "--check"])
        .code(2)
        .stdout_has(".github/workflows/ci.yml");
}

#[test]
fn committing_the_library_an_update_wrote_keeps_the_fast_path() {
    // The README way: init and update (the tree dirty with what init wrote), commit it all.
    let p = project().fixture("python").build();
    p.lexictl(["init", "--yes"]).success();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    let first = p.lexictl(["update", "--timings"]).success();
    first.stdout_has("up to date");
    assert!(!first.stderr.contains("scanning"), "{}", first.stderr);
    // A design file edited before it was committed is not what the update wrote: it is read.
    p.lexictl(["update", "pkg/"]).success();
    let design = ".lexibrary/pkg/__init__.py.md";
    let edited = p
        .read(design)
        .replace("## Tags", "## Notes\n\nBy hand.\n\n## Tags");
    p.write(design, &edited);
    p.write("pkg/extra.py", "def extra():\n    pass\n");
    p.lexictl(["update"]).success();
    p.write(design, format!("{}\nMore by hand.\n", p.read(design)));
    p.commit_all("library and an edit");
    p.lexictl(["update"])
        .success()
        .stdout_has("AGENT_UPDATED     pkg/__init__.py");
}
