//! All or nothing: a Stack event is recorded only with its effect, no design file is written without
//! its provenance note, and a pack write killed halfway leaves nothing the next run keeps.
//!
//! A full disk is simulated the way it reaches a process on any Unix, as root too: a file size limit
//! (`ulimit -f`, RLIMIT_FSIZE) makes a write past it fail with EFBIG ("File too large") when SIGXFSZ
//! is ignored (`trap '' XFSZ`, inherited across exec), and kills the writer at that very write when it
//! is not — a kill in the middle of a pack write. The limits below hold in 512- and 1024-byte blocks
//! alike (dash and bash count differently).

use crate::support::{project, Output, TestProject};

/// `lexi`/`lexictl` `args` with files limited to `blocks` blocks: writes past it fail (`ignore`) or
/// kill the process (SIGXFSZ).
fn limited(p: &TestProject, blocks: u32, ignore: bool, args: &str) -> Output {
    let trap = if ignore { "trap '' XFSZ; " } else { "" };
    p.cmd(
        "sh",
        ["-c", &format!("{trap}ulimit -f {blocks}; exec {args}")],
    )
    .run()
}

/// The history events of `id` (`lexi stack history --format json`).
fn history(p: &TestProject, id: &str) -> Vec<serde_json::Value> {
    let json = p.lexi(["stack", "history", id, "--format", "json"]).json();
    json["events"].as_array().expect("events").clone()
}

/// A post too large to write under a limit of 8 blocks (its notes events are a few hundred bytes).
fn big_post(p: &TestProject) {
    let evidence = "The build log says: error[E0277] again. ".repeat(800);
    p.lexi([
        "stack",
        "post",
        "--title",
        "Flaky build",
        "--file",
        "src/a.rs",
        "--problem",
        "p",
        "--evidence",
        &evidence,
    ])
    .success();
}

#[test]
fn a_vote_whose_post_cannot_be_written_is_not_recorded() {
    let p = project().file("src/a.rs", "pub fn a() {}\n").init().build();
    big_post(&p);
    let out = limited(&p, 8, true, "lexi stack vote ST-001 up");
    assert_eq!(out.code, 1, "{}", out.both());
    let kinds: Vec<String> = history(&p, "ST-001")
        .iter()
        .filter_map(|event| event["kind"].as_str().map(str::to_string))
        .collect();
    assert_eq!(kinds, ["created"], "the failed vote left no event");
    out.stderr_has("cannot write .lexibrary/stack/ST-001-flaky-build.md; nothing was recorded");
    // The next vote counts one, not two: the history agrees with the post.
    p.lexi(["stack", "vote", "ST-001", "up"])
        .success()
        .stdout_has("ST-001: ▲1");
    assert!(p
        .read(".lexibrary/stack/ST-001-flaky-build.md")
        .contains("votes: 1"));
    p.lexictl(["validate", "--severity", "info"]).success();
    let leftovers: Vec<String> = std::fs::read_dir(p.path(".lexibrary/stack"))
        .expect("list")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert_eq!(
        leftovers,
        ["ST-001-flaky-build.md"],
        "no temporary file left"
    );
}

#[test]
fn a_post_that_cannot_be_created_leaves_no_history() {
    let p = project().file("src/a.rs", "pub fn a() {}\n").init().build();
    let evidence = "x".repeat(40_000);
    let out = limited(
        &p,
        8,
        true,
        &format!("lexi stack post --title Big --file src/a.rs --problem p --evidence {evidence}"),
    );
    assert_eq!(out.code, 1, "{}", out.both());
    // The id is allocated again, with one `created` event: not the failed post's too.
    p.lexi([
        "stack",
        "post",
        "--title",
        "Small",
        "--file",
        "src/a.rs",
        "--problem",
        "p",
        "--evidence",
        "e",
    ])
    .success()
    .stdout_has("ST-001");
    assert_eq!(
        history(&p, "ST-001").len(),
        1,
        "the failed post left an event"
    );
    out.stderr_has("nothing was recorded");
}

/// 150 files: their provenance is one pack, far larger than one design file.
fn many_files() -> TestProject {
    let mut builder = project();
    for n in 0..150 {
        builder = builder.file(
            &format!("src/m{n}.rs"),
            format!("//! Module {n} adds {n}.\npub fn f{n}(x: u32) -> u32 {{\n    x + {n}\n}}\n"),
        );
    }
    builder.init().build()
}

fn design_files(p: &TestProject) -> usize {
    std::fs::read_dir(p.path(".lexibrary/src"))
        .map(|dir| {
            dir.flatten()
                .filter(|entry| entry.file_name().to_string_lossy().ends_with(".rs.md"))
                .count()
        })
        .unwrap_or(0)
}

fn notes(p: &TestProject) -> usize {
    p.git([
        "notes",
        "--ref",
        "refs/notes/lexibrarian/provenance",
        "list",
    ])
    .run()
    .stdout
    .lines()
    .count()
}

#[test]
fn on_a_full_disk_no_design_file_is_written_without_its_provenance() {
    let p = many_files();
    // 32 blocks: every design file fits, the provenance pack does not.
    let out = limited(&p, 32, true, "lexictl update");
    assert_eq!(
        (design_files(&p), notes(&p)),
        (0, 0),
        "no design file without its note"
    );
    assert_eq!(out.code, 1, "{}", out.both());
    out.stderr_has(
        "not written: its provenance could not be recorded in refs/notes/lexibrarian/provenance",
    )
    .stderr_has("File too large");
    // Space again: the next run writes them all, each with its note.
    p.lexictl(["update"]).success();
    assert_eq!((design_files(&p), notes(&p)), (150, 150));
    p.lexictl(["validate", "--severity", "info"]).success();
}

#[test]
fn a_pack_write_killed_halfway_leaves_nothing_the_next_run_keeps() {
    let p = many_files();
    let pack_dir = p.path(".git/objects/pack");
    std::fs::create_dir_all(&pack_dir).expect("pack dir");
    // Temporary files that are not debris of ours: git's own, and a live writer's (this process).
    let gits = pack_dir.join("tmp_pack_Ab12Cd");
    let live = pack_dir.join(format!("tmp_pack_lexi-{}-x", std::process::id()));
    std::fs::write(&gits, "git").expect("write");
    std::fs::write(&live, "live").expect("write");
    let planted = [gits.clone(), live.clone()];
    // Every other temporary pack file (whatever its writer named it).
    let temporary = |dir: &std::path::Path| -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("list")
            .map(|entry| entry.expect("entry").path())
            .filter(|path| !planted.contains(path))
            .filter_map(|path| Some(path.file_name()?.to_string_lossy().into_owned()))
            .filter(|name| name.starts_with("tmp_pack_"))
            .collect();
        names.sort();
        names
    };
    // Killed (SIGXFSZ) by the first write past 64 blocks: the pack's.
    let out = limited(&p, 64, false, "lexictl update");
    assert_ne!(out.code, 0, "{}", out.both());
    assert_eq!(
        temporary(&pack_dir).len(),
        1,
        "the killed write left its pack"
    );
    assert_eq!(design_files(&p), 0, "provenance first: nothing written yet");
    let out = p.lexictl(["update"]).success();
    assert_eq!(
        temporary(&pack_dir),
        Vec::<String>::new(),
        "the debris is gone"
    );
    out.stdout_has("removed the temporary pack an interrupted provenance write left in the git directory: objects/pack/tmp_pack_lexi-");
    assert!(
        gits.exists() && live.exists(),
        "what is not ours, or still written, stays"
    );
    assert_eq!((design_files(&p), notes(&p)), (150, 150));
    p.git(["fsck", "--no-dangling"]).success();
}
