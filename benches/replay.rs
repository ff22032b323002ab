//! Replay real history through the hook's changed-only runs and compare with one full run (issue
//! 29, DESIGN §10): the library must be a pure function of the tree, whatever path led to it.
//!
//! `cargo bench --bench replay -- --repo /work/corpora/flask --commits 30` clones the repository
//! into a temp dir, checks out the commit `--commits` first-parent steps before `--rev` (HEAD by
//! default), runs `lexictl init --yes` and a full `lexictl update` and commits the library, as a
//! team starting would (and the hook's first run, which is a full one too). Then for each
//! first-parent commit, oldest first, it applies the commit's change against its first parent (a
//! merge is its first-parent diff) blob by blob — renames as a deletion and an addition, binary
//! files and modes exactly, submodule entries and anything under `.lexibrary/` skipped, a file
//! our side changed too (`.gitignore`, `AGENTS.md` after `init`) merged three-way — commits it
//! (empty when nothing applied), runs `lexictl update --changed-only` as the post-commit hook
//! does, and commits the library.
//!
//! From scratch: a fresh clone of the result, every generated library file removed (kept:
//! `config.yaml`, `integrations.json`, `concepts/`, `stack/`), one full `lexictl update`. The bench
//! prints every library file that differs, the unified diff of the first ones (`--diffs N`, 1 by
//! default), what the CI gate says on both (`update --check` on the replayed library; on the full
//! one after committing it, with a second full run and `validate`), the run times, and a summary
//! line. Exit 0 when the two libraries are byte-identical, 2 when they differ, 1 on an error.
//!
//! Options: `--repo DIR` (required; without it the bench prints this usage and exits 0, so a plain
//! `cargo bench` passes by), `--commits N` (30), `--rev REV` (HEAD), `--diffs N` (1), `--keep`
//! (leave the work directory and print where). Every process runs in the hermetic environment of
//! tests/common/hermetic.rs, like the tests (fixed identity and clock: `SOURCE_DATE_EPOCH`).

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

#[path = "../tests/common/hermetic.rs"]
mod hermetic;

const USAGE: &str = "usage: cargo bench --bench replay -- --repo DIR [--commits N] [--rev REV] [--diffs N] [--keep]";

/// The empty tree's id, the "parent" of a root commit.
const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

struct Options {
    repo: PathBuf,
    commits: usize,
    rev: String,
    diffs: usize,
    keep: bool,
}

fn main() {
    let options = match parse_options() {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("replay: no --repo given, nothing to replay\n{USAGE}");
            return;
        }
        Err(message) => {
            eprintln!("replay: {message}\n{USAGE}");
            std::process::exit(1);
        }
    };
    match replay(&options) {
        Ok(true) => {}
        Ok(false) => std::process::exit(2),
        Err(message) => {
            eprintln!("replay: {message}");
            std::process::exit(1);
        }
    }
}

fn parse_options() -> Result<Option<Options>, String> {
    let mut repo = None;
    let mut commits = 30;
    let mut rev = "HEAD".to_string();
    let mut diffs = 1;
    let mut keep = false;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or_else(|| format!("{name} needs a value"));
        match arg.as_str() {
            "--repo" => repo = Some(PathBuf::from(value("--repo")?)),
            "--commits" => commits = number(&value("--commits")?, "--commits")?,
            "--rev" => rev = value("--rev")?,
            "--diffs" => diffs = number(&value("--diffs")?, "--diffs")?,
            "--keep" => keep = true,
            // `cargo bench` passes it to every bench.
            "--bench" => {}
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let Some(repo) = repo else {
        return Ok(None);
    };
    let repo = std::fs::canonicalize(&repo).map_err(|err| format!("{}: {err}", repo.display()))?;
    Ok(Some(Options {
        repo,
        commits,
        rev,
        diffs,
        keep,
    }))
}

fn number(text: &str, name: &str) -> Result<usize, String> {
    text.parse()
        .map_err(|_| format!("{name} takes a number, not {text:?}"))
}

/// The whole replay; `Ok(true)` when the libraries are byte-identical.
fn replay(options: &Options) -> Result<bool, String> {
    let work = tempfile::Builder::new()
        .prefix("lexi-replay-")
        .tempdir()
        .map_err(|err| format!("a temp dir: {err}"))?;
    let env = hermetic::Hermetic::new(work.path().join("home"));
    let name = options
        .repo
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "repo".into());
    let root = work.path().join(&name);
    let sh = Shell { env: &env };
    sh.git(work.path(), &["clone", "-q", "--no-checkout"])
        .arg(&options.repo)
        .arg(&root)
        .ok()?;
    let listed = sh
        .git(
            &root,
            &[
                "rev-list",
                "--first-parent",
                "-n",
                &(options.commits + 1).to_string(),
                &options.rev,
            ],
        )
        .text()?;
    let mut commits: Vec<String> = listed.lines().map(String::from).collect();
    commits.reverse();
    if commits.len() < 2 {
        return Err(format!(
            "{}: fewer than two commits to replay",
            options.repo.display()
        ));
    }
    let base = commits.remove(0);
    println!(
        "replay: {}, the last {} first-parent commits of {} ({}..{})",
        options.repo.display(),
        commits.len(),
        options.rev,
        short(&base),
        short(commits.last().expect("at least one commit"))
    );

    // The team starts: init, a full update, the library committed.
    sh.git(&root, &["checkout", "-q", "-B", "replay", &base])
        .ok()?;
    let had_library = root.join(".lexibrary/config.yaml").exists();
    if !had_library {
        sh.lexictl(&root, &["init", "--yes"]).ok()?;
    }
    let started = Instant::now();
    sh.lexictl(&root, &["update"]).ok()?;
    let first_full = started.elapsed();
    sh.commit_all(&root, "library (init)")?;
    // The hook's first run after that commit is a full one (the commit adds the design files of
    // manifests, `lib.rs`, `__init__.py`, which the changed-only planner takes for those files
    // appearing); taken here, so that the replayed commits get changed-only runs.
    sh.lexictl(&root, &["update", "--changed-only"]).ok()?;
    sh.commit_all(&root, "library (first hook run)")?;
    println!(
        "  base {}: {}full update in {}",
        short(&base),
        if had_library {
            "its own library kept, "
        } else {
            "init --yes, "
        },
        seconds(first_full)
    );

    // The history, commit by commit, each followed by the hook's run.
    let mut stats = ReplayStats::default();
    let mut runs = Vec::new();
    let mut failed = Vec::new();
    let mut ran_in_full = 0;
    for commit in &commits {
        apply_first_parent_change(&sh, &root, commit, &mut stats)?;
        let subject = sh
            .git(&root, &["log", "-1", "--format=%s", commit])
            .text()?;
        sh.git(
            &root,
            &["commit", "-q", "--allow-empty", "--no-verify", "-m"],
        )
        .arg(format!("replay {}: {}", short(commit), subject.trim()))
        .ok()?;
        let started = Instant::now();
        let out = sh.lexictl(&root, &["update", "--changed-only"]).run()?;
        runs.push(started.elapsed());
        if String::from_utf8_lossy(&out.stdout).starts_with("lexictl update (full)") {
            ran_in_full += 1;
        }
        if !out.status.success() {
            failed.push(format!(
                "{}: exit {}: {}",
                short(commit),
                out.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&out.stderr).trim()
            ));
        }
        sh.commit_all(&root, &format!("library {}", short(commit)))?;
    }
    stats.print(commits.len());
    println!(
        "  changed-only runs: {} ok, {} failed, {} of them ran in full (a manifest or a file that shapes how imports resolve changed); median {}, total {}",
        runs.len() - failed.len(),
        failed.len(),
        ran_in_full,
        millis(median(&runs)),
        seconds(runs.iter().sum())
    );
    for failure in &failed {
        println!("    failed at {failure}");
    }
    let gate = sh.lexictl(&root, &["update", "--check"]).run()?;
    println!(
        "  update --check on the replayed library: exit {}",
        gate.status.code().unwrap_or(-1)
    );
    print_gate(&gate);

    // From scratch: the same tree, the generated library removed, one full run.
    let full = work.path().join(format!("{name}-full"));
    sh.git(work.path(), &["clone", "-q"])
        .arg(&root)
        .arg(&full)
        .ok()?;
    remove_generated_library(&full)?;
    let started = Instant::now();
    sh.lexictl(&full, &["update"]).ok()?;
    let full_time = started.elapsed();
    let replayed = library_files(&root)?;
    let scratch = library_files(&full)?;
    sh.commit_all(&full, "full run")?;
    let full_gate = sh.lexictl(&full, &["update", "--check"]).run()?;
    sh.lexictl(&full, &["update"]).ok()?;
    let second = library_files(&full)?;
    let rewritten = differing(&scratch, &second);
    let validate = sh.lexictl(&full, &["validate"]).run()?;
    println!(
        "from scratch: one full run in {}; then update --check: exit {}; a second full run rewrites {} file(s); validate: exit {}",
        seconds(full_time),
        full_gate.status.code().unwrap_or(-1),
        rewritten.len(),
        validate.status.code().unwrap_or(-1)
    );
    print_gate(&full_gate);
    for path in &rewritten {
        println!("    rewritten by the second full run: {path}");
    }
    if !validate.status.success() {
        print_lines(&validate.stdout);
    }

    // What differs.
    let differences = differing(&replayed, &scratch);
    let (mut added, mut removed) = (0, 0);
    for (index, path) in differences.iter().enumerate() {
        let left = replayed.get(path).map(Vec::as_slice).unwrap_or_default();
        let right = scratch.get(path).map(Vec::as_slice).unwrap_or_default();
        let (plus, minus) = line_counts(left, right);
        added += plus;
        removed += minus;
        let kind = match (replayed.contains_key(path), scratch.contains_key(path)) {
            (true, true) => "differs:        ",
            (true, false) => "only in replay: ",
            _ => "only in full:   ",
        };
        println!("  {kind}{path} (+{plus} -{minus})");
        if index < options.diffs {
            print!("{}", unified(path, left, right));
        }
    }
    let same = differences.is_empty();
    println!(
        "== {name}: {} commits replayed through changed-only runs vs one full run: {}",
        commits.len(),
        match same {
            true => format!("identical ({} library files)", scratch.len()),
            false => format!(
                "{} of {} library files differ (+{added} -{removed} lines)",
                differences.len(),
                replayed
                    .keys()
                    .chain(scratch.keys())
                    .collect::<BTreeSet<_>>()
                    .len()
            ),
        }
    );
    if options.keep {
        let kept = work.keep();
        println!(
            "  kept: {} (replay: {name}, from scratch: {name}-full)",
            kept.display()
        );
    }
    Ok(same && failed.is_empty())
}

/// What the replay met on the way, for the summary.
#[derive(Default)]
struct ReplayStats {
    merges: usize,
    empty: usize,
    files: usize,
    binary: usize,
    /// Files both sides changed, merged three-way (a conflict keeps both sides' lines).
    merged_with_ours: BTreeSet<String>,
    conflicts: usize,
    skipped_submodules: usize,
    skipped_library: usize,
}

impl ReplayStats {
    fn print(&self, commits: usize) {
        println!(
            "  {commits} commits replayed: {} merges (first-parent diffs), {} files changed ({} binary), {} commits with nothing to apply",
            self.merges, self.files, self.binary, self.empty
        );
        if self.skipped_submodules + self.skipped_library > 0 {
            println!(
                "    skipped: {} submodule entries, {} paths under .lexibrary/",
                self.skipped_submodules, self.skipped_library
            );
        }
        if !self.merged_with_ours.is_empty() {
            let files: Vec<&str> = self.merged_with_ours.iter().map(String::as_str).collect();
            println!(
                "    merged with what init added: {} ({} conflicts, resolved keeping both sides' lines)",
                files.join(", "),
                self.conflicts
            );
        }
    }
}

/// One entry of `git diff-tree --raw`.
struct Change {
    old_mode: String,
    new_mode: String,
    old_blob: String,
    new_blob: String,
    path: String,
}

const GITLINK: &str = "160000";
const NO_MODE: &str = "000000";

/// Apply `commit`'s change against its first parent to the index and the working tree.
fn apply_first_parent_change(
    sh: &Shell,
    root: &Path,
    commit: &str,
    stats: &mut ReplayStats,
) -> Result<(), String> {
    let parents = sh
        .git(root, &["rev-list", "--parents", "-n", "1", commit])
        .text()?;
    let parents: Vec<&str> = parents.split_whitespace().skip(1).collect();
    if parents.len() > 1 {
        stats.merges += 1;
    }
    let parent = parents.first().copied().unwrap_or(EMPTY_TREE);
    let raw = sh
        .git(
            root,
            &[
                "diff-tree",
                "-r",
                "-z",
                "--no-renames",
                "--no-commit-id",
                parent,
                commit,
            ],
        )
        .bytes()?;
    let changes = parse_raw_diff(&raw)?;
    stats.binary += count_binary(sh, root, parent, commit)?;
    let ours = index_blobs(sh, root)?;
    let mut remove = Vec::new();
    let mut take = Vec::new();
    let mut merge = Vec::new();
    for change in changes {
        if change.path == ".lexibrary" || change.path.starts_with(".lexibrary/") {
            stats.skipped_library += 1;
            continue;
        }
        let new_is_file = change.new_mode != NO_MODE && change.new_mode != GITLINK;
        let old_is_file = change.old_mode != NO_MODE && change.old_mode != GITLINK;
        if change.new_mode == GITLINK || change.old_mode == GITLINK {
            stats.skipped_submodules += 1;
        }
        stats.files += usize::from(new_is_file || old_is_file);
        if !new_is_file {
            if old_is_file {
                remove.push(change.path);
            }
            continue;
        }
        // A file our side changed too (init's .gitignore block) is merged; any other is taken.
        let expected_ours = match old_is_file {
            true => Some(change.old_blob.as_str()),
            false => None,
        };
        if ours.get(&change.path).map(String::as_str) == expected_ours {
            take.push(change.path);
        } else {
            merge.push(change);
        }
    }
    if remove.is_empty() && take.is_empty() && merge.is_empty() {
        stats.empty += 1;
    }
    if !remove.is_empty() {
        sh.git(
            root,
            &[
                "--literal-pathspecs",
                "rm",
                "-q",
                "--ignore-unmatch",
                "--pathspec-from-file=-",
                "--pathspec-file-nul",
            ],
        )
        .input(nul_list(&remove))
        .ok()?;
    }
    if !take.is_empty() {
        sh.git(
            root,
            &[
                "--literal-pathspecs",
                "checkout",
                commit,
                "--pathspec-from-file=-",
                "--pathspec-file-nul",
            ],
        )
        .input(nul_list(&take))
        .ok()?;
    }
    for change in merge {
        if !merge_with_ours(sh, root, &change)? {
            stats.conflicts += 1;
        }
        stats.merged_with_ours.insert(change.path);
    }
    Ok(())
}

/// Parse `git diff-tree -r -z` raw output: `:old new oldblob newblob status\0path\0`…
fn parse_raw_diff(raw: &[u8]) -> Result<Vec<Change>, String> {
    let mut changes = Vec::new();
    let mut fields = raw.split(|b| *b == 0).filter(|f| !f.is_empty());
    while let Some(meta) = fields.next() {
        let meta = String::from_utf8_lossy(meta);
        let path = fields
            .next()
            .ok_or_else(|| format!("diff-tree: no path after {meta:?}"))?;
        let parts: Vec<&str> = meta.trim_start_matches(':').split(' ').collect();
        let [old_mode, new_mode, old_blob, new_blob, _status] = parts[..] else {
            return Err(format!("diff-tree: unexpected record {meta:?}"));
        };
        changes.push(Change {
            old_mode: old_mode.into(),
            new_mode: new_mode.into(),
            old_blob: old_blob.into(),
            new_blob: new_blob.into(),
            path: String::from_utf8_lossy(path).into_owned(),
        });
    }
    Ok(changes)
}

/// The index's blob of every path (our side, which the last commit made equal to the tree).
fn index_blobs(sh: &Shell, root: &Path) -> Result<BTreeMap<String, String>, String> {
    let raw = sh.git(root, &["ls-files", "-s", "-z"]).bytes()?;
    let mut blobs = BTreeMap::new();
    for entry in raw.split(|b| *b == 0).filter(|e| !e.is_empty()) {
        let entry = String::from_utf8_lossy(entry);
        if let Some((meta, path)) = entry.split_once('\t') {
            let blob = meta.split(' ').nth(1).unwrap_or_default();
            blobs.insert(path.to_string(), blob.to_string());
        }
    }
    Ok(blobs)
}

/// How many files of the change from `parent` to `commit` git sees as binary.
fn count_binary(sh: &Shell, root: &Path, parent: &str, commit: &str) -> Result<usize, String> {
    let numstat = sh
        .git(
            root,
            &[
                "diff-tree",
                "-r",
                "-z",
                "--numstat",
                "--no-renames",
                "--no-commit-id",
                parent,
                commit,
            ],
        )
        .bytes()?;
    Ok(numstat
        .split(|b| *b == 0)
        .filter(|record| record.starts_with(b"-\t-\t"))
        .count())
}

/// Three-way merge of a file both sides changed (base: the commit's parent's blob), as a person
/// would: a conflict keeps both sides' lines (`git merge-file --union`; our side is what `init`
/// added, `.gitignore` or `AGENTS.md`). `false` when there was a conflict.
fn merge_with_ours(sh: &Shell, root: &Path, change: &Change) -> Result<bool, String> {
    let path = root.join(&change.path);
    let ours = std::fs::read(&path).unwrap_or_default();
    let base = match change.old_mode.as_str() {
        NO_MODE => Vec::new(),
        _ => sh
            .git(root, &["cat-file", "blob", &change.old_blob])
            .bytes()?,
    };
    let theirs = sh
        .git(root, &["cat-file", "blob", &change.new_blob])
        .bytes()?;
    let scratch = tempfile::tempdir().map_err(|err| format!("a temp dir: {err}"))?;
    let files = ["ours", "base", "theirs"].map(|name| scratch.path().join(name));
    for (file, bytes) in files.iter().zip([&ours, &base, &theirs]) {
        std::fs::write(file, bytes).map_err(|err| format!("{}: {err}", file.display()))?;
    }
    let clean = sh
        .git(root, &["merge-file", "-p", "-q"])
        .args(&files)
        .run()?
        .status
        .success();
    let merged = sh
        .git(root, &["merge-file", "-p", "-q", "--union"])
        .args(&files)
        .bytes()?;
    std::fs::write(&path, &merged).map_err(|err| format!("{}: {err}", path.display()))?;
    sh.git(root, &["--literal-pathspecs", "add", "--", &change.path])
        .ok()?;
    Ok(clean)
}

/// Remove what `lexictl update` generates; keep the config, the integrations record, concepts and
/// Stack posts.
fn remove_generated_library(root: &Path) -> Result<(), String> {
    for path in library_files(root)?.keys() {
        let inner = path.strip_prefix(".lexibrary/").unwrap_or(path);
        let kept = matches!(inner, "config.yaml" | "integrations.json")
            || inner.starts_with("concepts/")
            || inner.starts_with("stack/");
        if !kept {
            std::fs::remove_file(root.join(path)).map_err(|err| format!("{path}: {err}"))?;
        }
    }
    Ok(())
}

/// Every file under `.lexibrary/` except the gitignored `.cache/`, by path.
fn library_files(root: &Path) -> Result<BTreeMap<String, Vec<u8>>, String> {
    fn walk(root: &Path, dir: &Path, files: &mut BTreeMap<String, Vec<u8>>) -> Result<(), String> {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(_) => return Ok(()),
        };
        for entry in entries {
            let entry = entry.map_err(|err| format!("{}: {err}", dir.display()))?;
            let path = entry.path();
            let rel = path
                .strip_prefix(root)
                .map_err(|err| err.to_string())?
                .to_string_lossy()
                .into_owned();
            if rel == ".lexibrary/.cache" {
                continue;
            }
            let kind = entry.file_type().map_err(|err| format!("{rel}: {err}"))?;
            if kind.is_dir() {
                walk(root, &path, files)?;
            } else {
                let bytes = std::fs::read(&path).map_err(|err| format!("{rel}: {err}"))?;
                files.insert(rel, bytes);
            }
        }
        Ok(())
    }
    let mut files = BTreeMap::new();
    walk(root, &root.join(".lexibrary"), &mut files)?;
    Ok(files)
}

fn differing(left: &BTreeMap<String, Vec<u8>>, right: &BTreeMap<String, Vec<u8>>) -> Vec<String> {
    left.keys()
        .chain(right.keys())
        .collect::<BTreeSet<_>>()
        .into_iter()
        .filter(|path| left.get(*path) != right.get(*path))
        .cloned()
        .collect()
}

/// Lines only on the right (+) and only on the left (−).
fn line_counts(left: &[u8], right: &[u8]) -> (usize, usize) {
    let left = String::from_utf8_lossy(left);
    let right = String::from_utf8_lossy(right);
    let diff = similar::TextDiff::from_lines(left.as_ref(), right.as_ref());
    let mut counts = (0, 0);
    for change in diff.iter_all_changes() {
        match change.tag() {
            similar::ChangeTag::Insert => counts.0 += 1,
            similar::ChangeTag::Delete => counts.1 += 1,
            similar::ChangeTag::Equal => {}
        }
    }
    counts
}

fn unified(path: &str, left: &[u8], right: &[u8]) -> String {
    let left = String::from_utf8_lossy(left);
    let right = String::from_utf8_lossy(right);
    similar::TextDiff::from_lines(left.as_ref(), right.as_ref())
        .unified_diff()
        .context_radius(2)
        .header(&format!("replay/{path}"), &format!("full/{path}"))
        .to_string()
}

/// What `update --check` listed as stale, when it found anything.
fn print_gate(gate: &Output) {
    if !gate.status.success() {
        print_lines(&gate.stdout);
    }
}

/// The first lines of a command's output, indented.
fn print_lines(stdout: &[u8]) {
    const SHOWN: usize = 12;
    let text = String::from_utf8_lossy(stdout);
    let lines: Vec<&str> = text.lines().collect();
    for line in lines.iter().take(SHOWN) {
        println!("    | {line}");
    }
    if lines.len() > SHOWN {
        println!("    | … {} more lines", lines.len() - SHOWN);
    }
}

fn nul_list(paths: &[String]) -> Vec<u8> {
    let mut list = Vec::new();
    for path in paths {
        list.extend_from_slice(path.as_bytes());
        list.push(0);
    }
    list
}

fn median(times: &[Duration]) -> Duration {
    let mut sorted = times.to_vec();
    sorted.sort();
    sorted.get(sorted.len() / 2).copied().unwrap_or_default()
}

fn seconds(time: Duration) -> String {
    format!("{:.2} s", time.as_secs_f64())
}

fn millis(time: Duration) -> String {
    format!("{} ms", time.as_millis())
}

fn short(commit: &str) -> &str {
    &commit[..commit.len().min(10)]
}

/// Commands in the hermetic environment.
struct Shell<'e> {
    env: &'e hermetic::Hermetic,
}

impl Shell<'_> {
    fn git(&self, dir: &Path, args: &[&str]) -> Cmd {
        let mut command = self.env.command("git");
        command.current_dir(dir).args(args);
        Cmd {
            command,
            input: None,
        }
    }

    fn lexictl(&self, dir: &Path, args: &[&str]) -> Cmd {
        let mut command = self.env.command(env!("CARGO_BIN_EXE_lexictl"));
        command.current_dir(dir).args(args);
        Cmd {
            command,
            input: None,
        }
    }

    fn commit_all(&self, dir: &Path, message: &str) -> Result<(), String> {
        self.git(dir, &["add", "-A"]).ok()?;
        self.git(
            dir,
            &[
                "commit",
                "-q",
                "--allow-empty",
                "--no-verify",
                "-m",
                message,
            ],
        )
        .ok()
    }
}

/// One command, run to completion.
struct Cmd {
    command: Command,
    input: Option<Vec<u8>>,
}

impl Cmd {
    fn arg(mut self, arg: impl AsRef<std::ffi::OsStr>) -> Self {
        self.command.arg(arg);
        self
    }

    fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<std::ffi::OsStr>,
    {
        self.command.args(args);
        self
    }

    fn input(mut self, bytes: Vec<u8>) -> Self {
        self.input = Some(bytes);
        self
    }

    /// Run whatever the exit code.
    fn run(mut self) -> Result<Output, String> {
        let description = format!("{:?}", self.command);
        self.command
            .stdin(if self.input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = self
            .command
            .spawn()
            .map_err(|err| format!("cannot start {description}: {err}"))?;
        if let (Some(input), Some(mut stdin)) = (self.input.take(), child.stdin.take()) {
            // On a thread, so a child that writes before it reads cannot block us both.
            std::thread::spawn(move || {
                let _ = stdin.write_all(&input);
            });
        }
        child
            .wait_with_output()
            .map_err(|err| format!("{description}: {err}"))
    }

    /// Run; it must succeed.
    fn ok(self) -> Result<(), String> {
        self.bytes().map(drop)
    }

    /// Run; it must succeed; its stdout.
    fn bytes(self) -> Result<Vec<u8>, String> {
        let description = format!("{:?}", self.command);
        let out = self.run()?;
        match out.status.success() {
            true => Ok(out.stdout),
            false => Err(format!(
                "{description} exits {}:\n{}{}",
                out.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )),
        }
    }

    fn text(self) -> Result<String, String> {
        self.bytes()
            .map(|bytes| String::from_utf8_lossy(&bytes).into_owned())
    }
}
