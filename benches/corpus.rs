//! Benchmark on a real repository: what an agent and a post-commit hook feel (issue 33).
//!
//! The repository (`-- --repo DIR`, any git repository; default: this crate's own) is cloned into a
//! temp dir, given a library (`lexictl init`, a cold `lexictl update`, committed), and then:
//!
//! - **mcp** — one `lexi mcp` server driven over stdio like a client: `initialize`, then per tool
//!   (`lookup` of the largest code files, `lookup` of a member, `search`) a series of calls with
//!   `full: true` (never the session's "unchanged" short answer), timing each request to its
//!   response; median and p90 per tool. Target: p50 ≤ 2 ms for lookup and search.
//! - **lookup** — `lexi lookup FILE` and `lexi lookup FILE --member NAME` as processes on the largest
//!   code files (medians), against `git status` in the same run. Target: ≤ 10 ms and ≤ 15 ms.
//! - **update** — a one-file commit then `lexictl update --changed-only` (the hook's run), medians
//!   over `--runs`: a body edit of the largest Rust (else any code) file, then a signature edit
//!   (a parameter renamed). Targets: ≤ 100 ms and ≤ 200 ms.
//! - **floor** — the cold update against the floor of any parser-based indexer: every code file
//!   the library documents parsed once with tree-sitter alone, on as many threads as the update
//!   uses (wall and CPU). Target: cold ≤ 2× the floor; and the no-op update ≤ 1.5× `git status`.
//!
//! With `--peer PATH` (an MCP server started with no arguments in the clone — codeix), the mcp
//! section times its `get_file_symbols` and `search` beside lexi's `lookup` and `search`, calls
//! interleaved in one run, and prints the ratios.
//!
//! Run: `cargo bench --bench corpus -- --repo ../tokio [--runs 9] [--calls 30] [--only mcp,update]
//! [--peer ~/.cargo/bin/codeix]`.
//! Every process runs in the hermetic environment of tests/common/hermetic.rs, like the tests.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

#[path = "../tests/common/hermetic.rs"]
mod hermetic;

/// The hermetic environment of every command; `main` sets it.
static ENV: OnceLock<hermetic::Hermetic> = OnceLock::new();

/// What the command line asks for.
struct Options {
    repo: PathBuf,
    runs: usize,
    calls: usize,
    only: Vec<String>,
    /// Another MCP server to time beside `lexi mcp` (codeix: `--peer PATH`, started with no
    /// arguments in the clone; its `get_file_symbols` and `search` against lexi's `lookup` and
    /// `search`).
    peer: Option<PathBuf>,
}

fn main() {
    let home = tempfile::tempdir().expect("temp dir for the home");
    let _ = ENV.set(hermetic::Hermetic::new(home.path()));
    let options = options();
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("repo");
    let cold = prepare(&options.repo, &root);
    eprintln!(
        "{}: {} code files; cold update {:.0} ms wall, {:.0} ms CPU",
        options.repo.display(),
        code_files(&root).len(),
        ms(cold.wall),
        ms(cold.cpu)
    );
    let wanted =
        |section: &str| options.only.is_empty() || options.only.iter().any(|s| s == section);
    if wanted("mcp") {
        mcp(&root, &options);
    }
    if wanted("lookup") {
        lookup(&root, &options);
    }
    if wanted("update") {
        update(&root, &options);
    }
    if wanted("floor") {
        floor(&root, &options.repo, cold, &options);
    }
}

fn options() -> Options {
    let mut options = Options {
        repo: PathBuf::from(env!("CARGO_MANIFEST_DIR")),
        runs: 7,
        calls: 30,
        only: Vec::new(),
        peer: None,
    };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--repo" => options.repo = args.next().map(PathBuf::from).expect("--repo DIR"),
            "--runs" => options.runs = args.next().and_then(|v| v.parse().ok()).expect("--runs N"),
            "--calls" => {
                options.calls = args.next().and_then(|v| v.parse().ok()).expect("--calls N")
            }
            "--peer" => options.peer = args.next().map(PathBuf::from),
            "--only" => {
                let list = args.next().expect("--only mcp,lookup,update,floor");
                options.only = list.split(',').map(str::to_string).collect();
            }
            _ => {} // cargo passes `--bench`
        }
    }
    options
}

/// Wall and CPU time of a process (CPU: user + system of the children waited for).
#[derive(Clone, Copy, Debug)]
struct Cost {
    wall: Duration,
    cpu: Duration,
}

/// Clone `repo` to `root`, give it a library, commit it; the cold update's cost.
fn prepare(repo: &Path, root: &Path) -> Cost {
    let status = command("git")
        .args(["clone", "-q", "--no-hardlinks"])
        .arg(repo)
        .arg(root)
        .status()
        .expect("git clone");
    assert!(status.success(), "git clone {}", repo.display());
    run(root, "lexictl", &["init", "--yes"]);
    let cold = cost(root, "lexictl", &["update"]);
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "library"]);
    run(root, "lexictl", &["update"]);
    cold
}

// ---------------------------------------------------------------------------------------- mcp

fn mcp(root: &Path, options: &Options) {
    // Files written within two seconds of a derived cache's save are not trusted by it (racy
    // stats) and are read again by every call until they age: wait as long, as a session that
    // starts after an update would.
    std::thread::sleep(Duration::from_millis(2500));
    let mut server = Server::start(root);
    let files = largest_code_files(root, 3);
    let members: Vec<(String, String)> = files
        .iter()
        .filter_map(|file| Some((file.clone(), a_member(root, file)?)))
        .collect();
    let words = search_words(root);
    let mut series: Vec<(String, Timed)> = Vec::new();
    for file in &files {
        let args = serde_json::json!({ "file": file, "full": true });
        series.push((
            format!("lookup {file}"),
            server.times("lookup", &args, options.calls),
        ));
    }
    for (file, member) in &members {
        let args = serde_json::json!({ "file": file, "member": member, "full": true });
        let label = format!("lookup {file} --member {member}");
        series.push((label, server.times("lookup", &args, options.calls)));
    }
    for word in &words {
        let args = serde_json::json!({ "query": word, "full": true });
        series.push((
            format!("search {word}"),
            server.times("search", &args, options.calls),
        ));
    }
    println!(
        "\nmcp: one `lexi mcp` session over stdio; the first call of each (the server has read \
         nothing of that file or query yet), then {} more (p50, p90)",
        options.calls
    );
    for (label, mut timed) in series {
        println!(
            "  {:<66} first {:>6.2} ms  p50 {:>6.2} ms  p90 {:>6.2} ms",
            label,
            ms(timed.first),
            ms(pct(&mut timed.again, 50)),
            ms(pct(&mut timed.again, 90))
        );
    }
    if let Some(peer) = &options.peer {
        against_peer(&mut server, peer, root, (&files, &words), options.calls);
    }
}

/// lexi's `lookup`/`search` and the peer's `get_file_symbols`/`search`, one call of each in turn.
fn against_peer(
    lexi: &mut Server,
    peer: &Path,
    root: &Path,
    (files, words): (&[String], &[String]),
    calls: usize,
) {
    let mut other = Server::start_program(peer, &[], root);
    let mut pairs: Vec<(String, [serde_json::Value; 2], &str, &str)> = Vec::new();
    for file in files {
        let ours = serde_json::json!({ "file": file, "full": true });
        let theirs = serde_json::json!({ "file": file });
        pairs.push((
            format!("lookup {file}"),
            [ours, theirs],
            "lookup",
            "get_file_symbols",
        ));
    }
    for word in words {
        let ours = serde_json::json!({ "query": word, "full": true });
        let theirs = serde_json::json!({ "query": word });
        pairs.push((format!("search {word}"), [ours, theirs], "search", "search"));
    }
    println!(
        "
mcp against {}: p50 of {calls} interleaved calls each",
        peer.display()
    );
    for (label, [ours, theirs], our_tool, their_tool) in pairs {
        let mut mine = Vec::new();
        let mut peer_times = Vec::new();
        // One call of each first: the peer may index the clone on its first call.
        lexi.times(our_tool, &ours, 0);
        other.times(their_tool, &theirs, 0);
        for _ in 0..calls {
            mine.push(lexi.times(our_tool, &ours, 0).first);
            peer_times.push(other.times(their_tool, &theirs, 0).first);
        }
        let (a, b) = (pct(&mut mine, 50), pct(&mut peer_times, 50));
        println!(
            "  {:<56} lexi {:>6.2} ms  peer {:>6.2} ms  ({:.2}×)",
            label,
            ms(a),
            ms(b),
            ratio(a, b)
        );
    }
}

/// A `lexi mcp` process and the pipes to it.
struct Server {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
    id: u64,
}

impl Server {
    fn start(root: &Path) -> Server {
        Server::start_program(Path::new(env!("CARGO_BIN_EXE_lexi")), &["mcp"], root)
    }

    /// An MCP server `program args…` in `root`, initialised.
    fn start_program(program: &Path, args: &[&str], root: &Path) -> Server {
        let mut child = command(&program.to_string_lossy())
            .args(args)
            .current_dir(root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the MCP server");
        let input = child.stdin.take().expect("stdin");
        let output = BufReader::new(child.stdout.take().expect("stdout"));
        let mut server = Server {
            child,
            input,
            output,
            id: 0,
        };
        let hello = serde_json::json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": { "name": "bench", "version": "0" }
        });
        server.request("initialize", hello);
        server
            .send(&serde_json::json!({ "jsonrpc": "2.0", "method": "notifications/initialized" }));
        server
    }

    fn send(&mut self, message: &serde_json::Value) {
        writeln!(self.input, "{message}").expect("write to lexi mcp");
        self.input.flush().expect("flush");
    }

    /// Send a request and read up to its response.
    fn request(&mut self, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.id += 1;
        let id = self.id;
        self.send(
            &serde_json::json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }),
        );
        loop {
            let mut line = String::new();
            let read = self
                .output
                .read_line(&mut line)
                .expect("read from lexi mcp");
            assert!(read > 0, "lexi mcp closed its output");
            let message: serde_json::Value = serde_json::from_str(&line).expect("JSON-RPC");
            if message["id"] == id {
                return message;
            }
        }
    }

    /// The time of a first call of `tool` with `args` (which must succeed), then of each of
    /// `calls` more.
    fn times(&mut self, tool: &str, args: &serde_json::Value, calls: usize) -> Timed {
        let params = serde_json::json!({ "name": tool, "arguments": args });
        let started = Instant::now();
        let answer = self.request("tools/call", params.clone());
        let first = started.elapsed();
        assert_ne!(answer["result"]["isError"], true, "{tool} {args}: {answer}");
        let again = (0..calls)
            .map(|_| {
                let started = Instant::now();
                self.request("tools/call", params.clone());
                started.elapsed()
            })
            .collect();
        Timed { first, again }
    }
}

/// A first call's time and the times of the same call again.
struct Timed {
    first: Duration,
    again: Vec<Duration>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ------------------------------------------------------------------------------------- lookup

fn lookup(root: &Path, options: &Options) {
    println!(
        "\nlookup: `lexi lookup` processes, median of {} (git status: {:.1} ms)",
        options.runs,
        ms(git_status(root, options.runs))
    );
    for file in largest_code_files(root, 3) {
        let whole = median(options.runs, |_| {
            cost(root, "lexi", &["lookup", &file]).wall
        });
        println!("  lookup {:<60} {:>6.1} ms", file, ms(whole));
        if let Some(member) = a_member(root, &file) {
            let one = median(options.runs, |_| {
                cost(root, "lexi", &["lookup", &file, "--member", &member]).wall
            });
            println!(
                "  lookup {:<60} {:>6.1} ms",
                format!("{file} --member {member}"),
                ms(one)
            );
        }
    }
}

// ------------------------------------------------------------------------------------- update

fn update(root: &Path, options: &Options) {
    let Some(file) = largest_code_files(root, 8)
        .into_iter()
        .find(|file| file.ends_with(".rs"))
        .or_else(|| largest_code_files(root, 1).pop())
    else {
        println!("\nupdate: no code file to edit");
        return;
    };
    let status = git_status(root, options.runs);
    let body = median(options.runs, |n| {
        append_line(root, &file, &comment_for(&file, n));
        git(root, &["commit", "-qam", "body edit"]);
        cost(root, "lexictl", &["update", "--changed-only"]).wall
    });
    let signature = rename_a_parameter(root, &file).then(|| {
        median(options.runs, |n| {
            let renamed = rename_a_parameter(root, &file);
            assert!(renamed, "a parameter of {file} to rename (run {n})");
            git(root, &["commit", "-qam", "signature edit"]);
            cost(root, "lexictl", &["update", "--changed-only"]).wall
        })
    });
    // The library the last run wrote is committed, as the next commit would.
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "library"]);
    run(root, "lexictl", &["update"]);
    println!(
        "\nupdate: one-file commit then `lexictl update --changed-only` ({file}), median of {}",
        options.runs
    );
    println!(
        "  body edit        {:>7.1} ms  ({:.2}× git status {:.1} ms)",
        ms(body),
        ratio(body, status),
        ms(status)
    );
    match signature {
        Some(signature) => println!(
            "  signature edit   {:>7.1} ms  ({:.2}× git status)",
            ms(signature),
            ratio(signature, status)
        ),
        None => println!("  signature edit   (no parameter found to rename)"),
    }
}

fn comment_for(file: &str, n: usize) -> String {
    match file.rsplit('.').next() {
        Some("py") => format!("# bench edit {n}"),
        _ => format!("// bench edit {n}"),
    }
}

fn append_line(root: &Path, file: &str, line: &str) {
    let path = root.join(file);
    let mut text = std::fs::read_to_string(&path).expect("read the file to edit");
    text.push_str(line);
    text.push('\n');
    std::fs::write(&path, text).expect("write the edited file");
}

/// Rename the first named parameter of the first public function that has one (`pub fn f(x: T`,
/// `def f(x`, `function f(x`), adding `_b` to it, or taking it away on the next call: a signature
/// edit.
fn rename_a_parameter(root: &Path, file: &str) -> bool {
    let path = root.join(file);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return false;
    };
    let keywords = ["pub fn ", "def ", "function "];
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let start = offset;
        offset += line.len();
        let trimmed = line.trim_start();
        if !keywords.iter().any(|k| trimmed.starts_with(k)) {
            continue;
        }
        let Some(open) = line.find('(') else { continue };
        // The first `name:` (not `name::`) after the parenthesis: a parameter with a type.
        let params = &line[open + 1..];
        let Some((at, name)) = first_typed_parameter(params) else {
            continue;
        };
        let renamed = match name.strip_suffix("_b") {
            Some(original) => original.to_string(),
            None => format!("{name}_b"),
        };
        let at = start + open + 1 + at;
        let edited = format!("{}{}{}", &text[..at], renamed, &text[at + name.len()..]);
        return std::fs::write(&path, edited).is_ok();
    }
    false
}

/// The offset and name of the first identifier followed by a single `:` in `params`, but `self`.
fn first_typed_parameter(params: &str) -> Option<(usize, &str)> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    let mut at = 0;
    while at < params.len() {
        let rest = &params[at..];
        let len = rest.find(|c: char| !is_ident(c)).unwrap_or(rest.len());
        if len == 0 {
            at += rest.chars().next().map_or(1, char::len_utf8);
            continue;
        }
        let name = &rest[..len];
        let after = &rest[len..];
        let typed = after.starts_with(':') && !after.starts_with("::");
        if typed && name != "self" && !name.starts_with(|c: char| c.is_ascii_digit()) {
            return Some((at, name));
        }
        at += len;
    }
    None
}

// -------------------------------------------------------------------------------------- floor

fn floor(root: &Path, repo: &Path, cold: Cost, options: &Options) {
    let files = code_files(root);
    let texts: Vec<(String, String)> = files
        .iter()
        .filter_map(|file| Some((file.clone(), std::fs::read_to_string(root.join(file)).ok()?)))
        .collect();
    let parse = median_cost(options.runs, || parse_all(&texts));
    // A cold update again, from an empty library and cache, for a median like the floor's.
    let dir = tempfile::tempdir().expect("temp dir");
    let again = dir.path().join("repo");
    let mut colds = vec![cold];
    for _ in 1..options.runs.min(3) {
        let _ = std::fs::remove_dir_all(&again);
        colds.push(prepare(repo, &again));
    }
    colds.sort_by_key(|c| c.wall);
    let cold = colds[colds.len() / 2];
    let status = git_status(root, options.runs);
    let noop = median(options.runs, |_| cost(root, "lexictl", &["update"]).wall);
    let copy = median(options.runs, |n| {
        copy_sources(root, &dir.path().join(format!("copy{n}")))
    });
    println!(
        "\nfloor: {} code files parsed once with tree-sitter alone on {} threads, median of {}",
        texts.len(),
        rayon::current_num_threads(),
        options.runs
    );
    println!(
        "  tree-sitter parse    {:>8.0} ms wall {:>8.0} ms CPU",
        ms(parse.wall),
        ms(parse.cpu)
    );
    println!("  cold update          {:>8.0} ms wall {:>8.0} ms CPU  ({:.2}× the floor's wall, {:.2}× its CPU)", ms(cold.wall), ms(cold.cpu), ratio(cold.wall, parse.wall), ratio(cold.cpu, parse.cpu));
    println!(
        "  cp -r of the sources {:>8.0} ms wall  (cold is {:.1}× it)",
        ms(copy),
        ratio(cold.wall, copy)
    );
    println!(
        "  no-op update         {:>8.1} ms wall  ({:.2}× git status {:.1} ms)",
        ms(noop),
        ratio(noop, status),
        ms(status)
    );
}

/// The time of `cp -r` of the work tree's top-level entries but `.git` and `.lexibrary` (the
/// sources an update reads) into `target` (removed afterwards).
fn copy_sources(root: &Path, target: &Path) -> Duration {
    std::fs::create_dir_all(target).expect("mkdir");
    let entries: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("read the clone")
        .flatten()
        .filter(|e| e.file_name() != ".git" && e.file_name() != ".lexibrary")
        .map(|e| e.path())
        .collect();
    let started = Instant::now();
    let ok = Command::new("cp")
        .arg("-r")
        .args(&entries)
        .arg(target)
        .status()
        .is_ok_and(|s| s.success());
    let took = started.elapsed();
    assert!(ok, "cp -r");
    let _ = std::fs::remove_dir_all(target);
    took
}

/// Parse every text with the grammar its extension names, in parallel; wall and CPU.
fn parse_all(texts: &[(String, String)]) -> Cost {
    use rayon::prelude::*;
    let cpu_before = process_cpu();
    let started = Instant::now();
    let nodes: u64 = texts
        .par_iter()
        .map(|(file, text)| {
            let Some(language) = grammar(file) else {
                return 0;
            };
            let mut parser = tree_sitter::Parser::new();
            parser.set_language(&language).expect("grammar");
            parser
                .parse(text, None)
                .map_or(0, |tree| u64::from(tree.root_node().child_count()))
        })
        .sum();
    std::hint::black_box(nodes);
    Cost {
        wall: started.elapsed(),
        cpu: process_cpu().saturating_sub(cpu_before),
    }
}

fn grammar(file: &str) -> Option<tree_sitter::Language> {
    Some(match file.rsplit('.').next()? {
        "rs" => tree_sitter_rust::LANGUAGE.into(),
        "py" | "pyi" => tree_sitter_python::LANGUAGE.into(),
        "js" | "mjs" | "cjs" | "jsx" => tree_sitter_javascript::LANGUAGE.into(),
        "ts" | "mts" | "cts" => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        "tsx" => tree_sitter_typescript::LANGUAGE_TSX.into(),
        _ => return None,
    })
}

/// This process's CPU time (user + system), from /proc (zero where there is none).
fn process_cpu() -> Duration {
    proc_stat_ticks(&[11, 12])
}

/// The CPU time (user + system) of the children this process waited for, from /proc.
fn children_cpu() -> Duration {
    proc_stat_ticks(&[13, 14])
}

/// The sum of the clock-tick fields `at` of /proc/self/stat, counted after the command's closing
/// parenthesis (utime, stime, cutime, cstime are 11–14 there), as a duration.
fn proc_stat_ticks(at: &[usize]) -> Duration {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return Duration::ZERO;
    };
    let after = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks: u64 = at
        .iter()
        .filter_map(|&i| fields.get(i)?.parse::<u64>().ok())
        .sum();
    Duration::from_millis(ticks * 10) // USER_HZ is 100 on Linux
}

// ------------------------------------------------------------------------------------ helpers

/// The code files of the library: those with a design file, by the design files `.lexibrary/` holds.
fn code_files(root: &Path) -> Vec<String> {
    let mut files = Vec::new();
    let library = root.join(".lexibrary");
    let mut stack = vec![library.clone()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                stack.push(path);
                continue;
            }
            let Ok(rel) = path.strip_prefix(&library) else {
                continue;
            };
            let Some(source) = rel.to_str().and_then(|r| r.strip_suffix(".md")) else {
                continue;
            };
            if grammar(source).is_some() && root.join(source).is_file() {
                files.push(source.to_string());
            }
        }
    }
    files.sort();
    files
}

/// The `n` largest code files (by bytes), largest first.
fn largest_code_files(root: &Path, n: usize) -> Vec<String> {
    let mut sized: Vec<(u64, String)> = code_files(root)
        .into_iter()
        .filter_map(|file| Some((std::fs::metadata(root.join(&file)).ok()?.len(), file)))
        .collect();
    sized.sort_by(|a, b| b.cmp(a));
    sized.into_iter().take(n).map(|(_, file)| file).collect()
}

/// A member of `file` the lookup opens: the first line that starts (after indentation) by
/// declaring a public Rust function, a Python function or a JavaScript function — never one inside
/// a comment or a doc example.
fn a_member(root: &Path, file: &str) -> Option<String> {
    let text = std::fs::read_to_string(root.join(file)).ok()?;
    let keywords = [
        "pub fn ",
        "pub async fn ",
        "def ",
        "async def ",
        "function ",
    ];
    text.lines().find_map(|line| {
        let line = line.trim_start();
        let rest = keywords.iter().find_map(|k| line.strip_prefix(k))?;
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        (name.len() > 2).then_some(name)
    })
}

/// Two search words: the stem of the largest file's name, and a common word of code.
fn search_words(root: &Path) -> Vec<String> {
    let stem = largest_code_files(root, 1)
        .first()
        .and_then(|file| Path::new(file).file_stem()?.to_str().map(str::to_string))
        .unwrap_or_else(|| "main".into());
    vec![stem, "error handling".into()]
}

fn git_status(root: &Path, runs: usize) -> Duration {
    median(runs, |_| cost(root, "git", &["status", "--porcelain"]).wall)
}

fn command(program: &str) -> Command {
    ENV.get().expect("main sets ENV").command(program)
}

fn binary(program: &str) -> &str {
    match program {
        "lexi" => env!("CARGO_BIN_EXE_lexi"),
        "lexictl" => env!("CARGO_BIN_EXE_lexictl"),
        other => other,
    }
}

fn run(root: &Path, program: &str, args: &[&str]) {
    let output = command(binary(program))
        .args(args)
        .current_dir(root)
        .output()
        .expect(program);
    assert!(
        output.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn git(root: &Path, args: &[&str]) {
    run(root, "git", args);
}

/// Wall and CPU time of one process, output discarded; it must succeed.
fn cost(root: &Path, program: &str, args: &[&str]) -> Cost {
    let cpu_before = children_cpu();
    let started = Instant::now();
    let output = command(binary(program))
        .args(args)
        .current_dir(root)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .output()
        .expect(program);
    let wall = started.elapsed();
    assert!(
        output.status.success(),
        "{program} {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Cost {
        wall,
        cpu: children_cpu().saturating_sub(cpu_before),
    }
}

fn median(runs: usize, mut measure: impl FnMut(usize) -> Duration) -> Duration {
    let mut times: Vec<Duration> = (0..runs.max(1)).map(&mut measure).collect();
    pct(&mut times, 50)
}

fn median_cost(runs: usize, mut measure: impl FnMut() -> Cost) -> Cost {
    let mut costs: Vec<Cost> = (0..runs.max(1)).map(|_| measure()).collect();
    costs.sort_by_key(|c| c.wall);
    costs[costs.len() / 2]
}

fn pct(times: &mut [Duration], percent: usize) -> Duration {
    times.sort();
    let at = ((times.len() - 1) * percent).div_ceil(100);
    times[at.min(times.len() - 1)]
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn ratio(a: Duration, b: Duration) -> f64 {
    a.as_secs_f64() / b.as_secs_f64().max(1e-9)
}
