//! The integration-test harness, in the style of cargo's test support and jj's `TestEnvironment`:
//! every integration test builds its fixture with [`project`] and runs commands through it.
//!
//! - Fixture projects: `project().fixture("rust").file(path, text).init().config(yaml).build()`
//!   makes a real git repository (one commit) in a temp dir, optionally runs `lexictl init --yes`
//!   and merges YAML into `.lexibrary/config.yaml`. `p.clone_to("a")`, `p.clone_bare_to("remote.git")`,
//!   `p.clone_to_without_checkout("c")` and `p.clone_with_args(..)` make more repositories beside it,
//!   sharing its home and clock.
//! - Fluent execution that asserts as it runs: `p.lexictl(["update"]).success()`, `.code(2)`,
//!   `.json()`, with `.stdin(..)`, `.env(..)`, `.current_dir(..)` before and `stdout_has(..)`,
//!   `stderr_is(..)`, … after. A failed expectation prints the command, its exit code, stdout and
//!   stderr. An [`Exec`] that is never run panics, so a forgotten `.success()` cannot pass.
//! - Every command — our binaries, git, any tool — runs in the hermetic environment of
//!   `tests/common/hermetic.rs` (cleared environment, home in the temp dir, fixed identity, fixed
//!   clock), with the binaries under test first on `PATH` as the git hooks and `git lexi` need.
//! - Snapshots: `let _snapshots = p.snapshots().times().bind();` makes insta filter the project root
//!   to `[ROOT]` and RFC 3339 times to `[TIME]` for the rest of the test.

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;

use tempfile::TempDir;

#[path = "../common/hermetic.rs"]
pub mod hermetic;

use hermetic::Hermetic;

/// Start describing a project.
pub fn project() -> ProjectBuilder {
    ProjectBuilder {
        files: Vec::new(),
        fixture: None,
        git: true,
        init: false,
        configs: Vec::new(),
    }
}

pub struct ProjectBuilder {
    files: Vec<(String, Vec<u8>)>,
    fixture: Option<String>,
    git: bool,
    init: bool,
    configs: Vec<String>,
}

impl ProjectBuilder {
    /// Start from a copy of `fixtures/projects/<name>/`.
    pub fn fixture(mut self, name: &str) -> Self {
        self.fixture = Some(name.to_string());
        self
    }

    /// Add a file (parents are created).
    pub fn file(mut self, path: &str, contents: impl AsRef<[u8]>) -> Self {
        self.files
            .push((path.to_string(), contents.as_ref().to_vec()));
        self
    }

    /// Do not make it a git repository.
    pub fn no_git(mut self) -> Self {
        self.git = false;
        self
    }

    /// Run `lexictl init --yes` after the initial commit (the library stays uncommitted).
    pub fn init(mut self) -> Self {
        self.init = true;
        self
    }

    /// Merge `yaml` into `.lexibrary/config.yaml` once the project (and its `init`) is made; see
    /// [`TestProject::config`].
    pub fn config(mut self, yaml: &str) -> Self {
        self.configs.push(yaml.to_string());
        self
    }

    pub fn build(self) -> TestProject {
        let temp = tempfile::Builder::new()
            .prefix("lexi-test-")
            .tempdir()
            .expect("create temp dir");
        let root = temp.path().join("project");
        std::fs::create_dir_all(&root).expect("create project dir");
        let env = Hermetic::new(temp.path().join("home"));
        let project = TestProject {
            shared: Arc::new(Shared { env, temp }),
            root,
        };
        if let Some(name) = &self.fixture {
            let source = Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/projects")
                .join(name);
            copy_dir(&source, &project.root);
        }
        for (path, contents) in &self.files {
            project.write(path, contents);
        }
        if self.git {
            project.git(["init", "-q", "-b", "main"]).success();
            project.git(["add", "-A"]).success();
            project
                .git(["commit", "-q", "--allow-empty", "-m", "initial"])
                .success();
        }
        if self.init {
            project.init();
        }
        for yaml in &self.configs {
            project.config(yaml);
        }
        project
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("create dir");
    for entry in std::fs::read_dir(from).expect("read fixture dir") {
        let entry = entry.expect("fixture entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy fixture file");
        }
    }
}

/// What a project and its clones share: the temp dir (removed with the last of them), the home
/// directory and the clock.
struct Shared {
    env: Hermetic,
    temp: TempDir,
}

/// A project (or a clone of one) on disk.
pub struct TestProject {
    shared: Arc<Shared>,
    pub root: PathBuf,
}

impl TestProject {
    /// `lexi` with `args`, run from the project root.
    pub fn lexi<I, S>(&self, args: I) -> Exec<'_>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.bin("lexi", args)
    }

    /// `lexictl` with `args`, run from the project root.
    pub fn lexictl<I, S>(&self, args: I) -> Exec<'_>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.bin("lexictl", args)
    }

    /// Any of the four binaries (`lexi`, `lexictl`, `git-lexi`, `git-lexictl`).
    pub fn bin<I, S>(&self, name: &str, args: I) -> Exec<'_>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.cmd(bin_dir().join(name), args)
    }

    /// git with `args`, run from the project root.
    pub fn git<I, S>(&self, args: I) -> Exec<'_>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.cmd("git", args)
    }

    /// Any program (found on `PATH` unless a path), run hermetically from the project root.
    pub fn cmd<I, S>(&self, program: impl AsRef<OsStr>, args: I) -> Exec<'_>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        Exec {
            project: self,
            program: program.as_ref().to_os_string(),
            args: args
                .into_iter()
                .map(|arg| arg.as_ref().to_os_string())
                .collect(),
            dir: self.root.clone(),
            env: Vec::new(),
            stdin: None,
            path: SearchPath::WithBins,
            identity: true,
            real_clock: false,
            context: None,
            ran: false,
        }
    }

    /// A hermetic [`Command`] for `program` (one of our binaries when it names one), run from the
    /// project root with the binaries under test first on `PATH`: for tests that drive a process
    /// themselves (an MCP client talking to `lexi mcp`).
    pub fn command(&self, program: &str) -> Command {
        let path = bin_dir().join(program);
        let program = if path.exists() {
            path.into_os_string()
        } else {
            program.into()
        };
        let mut command = self.shared.env.command(program);
        command
            .current_dir(&self.root)
            .env("PATH", hermetic::path_with(&bin_dir()));
        command
    }

    /// `lexictl init --yes`, which must succeed.
    pub fn init(&self) -> &Self {
        self.lexictl(["init", "--yes"]).success();
        self
    }

    /// Merge `yaml` into `.lexibrary/config.yaml` (created if missing): mappings merge key by key,
    /// anything else replaces what was there. The file is rewritten as plain YAML (init's comments
    /// go); tests that need a byte-exact broken file write it with [`TestProject::write`].
    pub fn config(&self, yaml: &str) -> &Self {
        let rel = ".lexibrary/config.yaml";
        let mut config = if self.exists(rel) {
            serde_yaml::from_str(&self.read(rel)).expect("the project config is YAML")
        } else {
            serde_yaml::Value::Mapping(Default::default())
        };
        let overlay: serde_yaml::Value =
            serde_yaml::from_str(yaml).unwrap_or_else(|err| panic!("config({yaml:?}): {err}"));
        merge_yaml(&mut config, overlay);
        self.write(
            rel,
            serde_yaml::to_string(&config).expect("serialise the config"),
        );
        self
    }

    /// `git add -A` and `git commit -q -m message`, which must succeed.
    pub fn commit_all(&self, message: &str) -> &Self {
        self.git(["add", "-A"]).success();
        self.git(["commit", "-q", "-m", message]).success();
        self
    }

    /// `git clone` this repository to `name` beside it (origin: this one).
    pub fn clone_to(&self, name: &str) -> TestProject {
        self.clone_with(name, &[])
    }

    /// `git clone --bare` this repository to `name` beside it, e.g. a remote to push to.
    pub fn clone_bare_to(&self, name: &str) -> TestProject {
        self.clone_with(name, &["--bare"])
    }

    /// `git clone --no-checkout` this repository to `name` beside it (for a sparse checkout).
    pub fn clone_to_without_checkout(&self, name: &str) -> TestProject {
        self.clone_with(name, &["--no-checkout"])
    }

    /// `git clone -q <args…> <name>` beside this repository, `args` naming the source (a
    /// `file://` URL for a partial clone); the clone shares this project's home and clock.
    pub fn clone_with_args(&self, name: &str, args: &[&str]) -> TestProject {
        let root = self.shared.temp.path().join(name);
        let mut all: Vec<OsString> = vec!["clone".into(), "-q".into()];
        all.extend(args.iter().map(OsString::from));
        all.push(root.clone().into());
        self.git(all).success();
        TestProject {
            shared: Arc::clone(&self.shared),
            root,
        }
    }

    fn clone_with(&self, name: &str, options: &[&str]) -> TestProject {
        let root = self.shared.temp.path().join(name);
        let mut args: Vec<OsString> = vec!["clone".into(), "-q".into()];
        args.extend(options.iter().map(OsString::from));
        args.push(self.root.clone().into());
        args.push(root.clone().into());
        self.git(args).success();
        TestProject {
            shared: Arc::clone(&self.shared),
            root,
        }
    }

    /// The personal config file (`$XDG_CONFIG_HOME/lexibrarian/config.yaml`) this project's
    /// commands read.
    pub fn global_config_path(&self) -> PathBuf {
        self.shared
            .env
            .home()
            .join(".config/lexibrarian/config.yaml")
    }

    /// Write the personal config file.
    pub fn global_config(&self, text: &str) -> &Self {
        let path = self.global_config_path();
        std::fs::create_dir_all(path.parent().expect("parent")).expect("create config dir");
        std::fs::write(path, text).expect("write the personal config");
        self
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.root.join(rel)
    }

    pub fn write(&self, rel: &str, contents: impl AsRef<[u8]>) {
        let path = self.path(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("create parent");
        }
        std::fs::write(path, contents).expect("write file");
    }

    /// Set the mtime of every file under `rel` (a file or a directory) one minute back, as if it
    /// had been written long ago: what derived caches need before they trust a file's stat.
    pub fn age(&self, rel: &str) {
        fn age_path(path: &Path, when: std::time::SystemTime) {
            if path.is_dir() {
                for entry in std::fs::read_dir(path).expect("read dir").flatten() {
                    age_path(&entry.path(), when);
                }
            } else if let Ok(file) = std::fs::File::options().write(true).open(path) {
                file.set_modified(when).expect("set mtime");
            }
        }
        let minute_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
        age_path(&self.path(rel), minute_ago);
    }

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_else(|err| panic!("read {rel}: {err}"))
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.path(rel).exists()
    }

    /// Write a design file for `source` the way an agent would, with a footer whose source hash
    /// matches the source as it is now.
    pub fn design_file(&self, source: &str, description: &str, body: &str) {
        let source_hash = lexibrarian::hash::sha256_hex(
            &std::fs::read(self.path(source)).expect("source exists"),
        );
        let content = format!(
            "---\ndescription: {description}\nupdated_by: agent\n---\n\n# {source}\n\n{body}\n\n"
        );
        let design_hash = lexibrarian::hash::sha256_hex(content.as_bytes());
        let text = format!(
            "{content}<!-- lexibrarian:meta\nsource: {source}\nsource_hash: {source_hash}\ndesign_hash: {design_hash}\ngenerator: lexibrarian 0.1.0\n-->\n"
        );
        self.write(&format!(".lexibrary/{source}.md"), text);
    }

    /// insta settings for this project's snapshots: its root path shows as `[ROOT]`.
    pub fn snapshots(&self) -> Snapshots {
        let mut settings = insta::Settings::clone_current();
        settings.add_filter(&regex::escape(&self.root.display().to_string()), "[ROOT]");
        Snapshots(settings)
    }
}

fn merge_yaml(base: &mut serde_yaml::Value, overlay: serde_yaml::Value) {
    match (base, overlay) {
        (serde_yaml::Value::Mapping(base), serde_yaml::Value::Mapping(overlay)) => {
            for (key, value) in overlay {
                match base.get_mut(&key) {
                    Some(existing) => merge_yaml(existing, value),
                    None => {
                        base.insert(key, value);
                    }
                }
            }
        }
        (base, overlay) => *base = overlay,
    }
}

/// Where cargo put the binaries under test.
pub fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_lexictl"))
        .parent()
        .expect("bin dir")
        .to_path_buf()
}

/// insta filters for a project's snapshots; [`Snapshots::bind`] applies them to the rest of the
/// scope.
pub struct Snapshots(insta::Settings);

impl Snapshots {
    /// RFC 3339 UTC times (`2026-01-15T10:30:00Z`, optionally with milliseconds) show as `[TIME]`.
    pub fn times(self) -> Self {
        self.filter(
            r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{3})?Z",
            "[TIME]",
        )
    }

    /// Any other filter: matches of `regex` show as `replacement`.
    pub fn filter(mut self, regex: &str, replacement: &str) -> Self {
        self.0.add_filter(regex, replacement);
        self
    }

    /// Apply the filters until the guard drops.
    pub fn bind(self) -> insta::internals::SettingsBindDropGuard {
        self.0.bind_to_scope()
    }
}

enum SearchPath {
    /// The binaries under test first, then the test process's PATH.
    WithBins,
    /// The test process's PATH without any directory holding a `lexictl`.
    WithoutBins,
}

/// A command about to run in a project, built fluently and run by one of [`Exec::run`],
/// [`Exec::success`], [`Exec::code`], [`Exec::json`] or [`Exec::spawn`].
#[must_use = "an Exec does nothing until it is run: .success(), .code(n), .json(), .run() or .spawn()"]
pub struct Exec<'p> {
    project: &'p TestProject,
    program: OsString,
    args: Vec<OsString>,
    dir: PathBuf,
    env: Vec<(OsString, OsString)>,
    stdin: Option<Vec<u8>>,
    path: SearchPath,
    identity: bool,
    real_clock: bool,
    context: Option<String>,
    ran: bool,
}

impl Exec<'_> {
    /// More arguments.
    pub fn args<I, S>(mut self, args: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|arg| arg.as_ref().to_os_string()));
        self
    }

    /// Run in `dir`, relative to the project root (or absolute).
    pub fn current_dir(mut self, dir: impl AsRef<Path>) -> Self {
        self.dir = self.project.root.join(dir);
        self
    }

    /// Set an environment variable (on top of the hermetic environment).
    pub fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.env
            .push((key.as_ref().to_os_string(), value.as_ref().to_os_string()));
        self
    }

    /// Feed `input` to stdin (otherwise stdin is empty and not a terminal).
    pub fn stdin(mut self, input: impl AsRef<[u8]>) -> Self {
        self.stdin = Some(input.as_ref().to_vec());
        self
    }

    /// Leave the binaries under test (and any installed `lexictl`) off `PATH`.
    pub fn without_bins(mut self) -> Self {
        self.path = SearchPath::WithoutBins;
        self
    }

    /// No fixed git identity: the command (e.g. a CI recipe) must configure its own.
    pub fn without_identity(mut self) -> Self {
        self.identity = false;
        self
    }

    /// Real time instead of the fixed clock, for a test that must see it (see hermetic.rs).
    pub fn real_clock(mut self) -> Self {
        self.real_clock = true;
        self
    }

    /// Add `context` to the message of any failed expectation about this command.
    pub fn context(mut self, context: impl Into<String>) -> Self {
        self.context = Some(context.into());
        self
    }

    /// Run to completion, whatever the exit code.
    pub fn run(self) -> Output {
        self.spawn().wait()
    }

    /// Run; the exit code must be 0.
    pub fn success(self) -> Output {
        self.run().success()
    }

    /// Run; the exit code must be `expected`.
    pub fn code(self, expected: i32) -> Output {
        self.run().code(expected)
    }

    /// Run; the exit code must be 0 and stdout JSON, which is returned.
    pub fn json(self) -> serde_json::Value {
        self.success().json()
    }

    /// Start in the background with stdout and stderr piped (stdin empty unless given).
    pub fn spawn(mut self) -> Running {
        let description = match &self.context {
            Some(context) => format!("{}\n{context}", self.describe()),
            None => self.describe(),
        };
        let input = self.stdin.take();
        let mut command = self.command();
        command
            .stdin(if input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = spawn_retrying(&mut command)
            .unwrap_or_else(|err| panic!("cannot start `{description}`: {err}"));
        if let (Some(input), Some(mut stdin)) = (input, child.stdin.take()) {
            // On a thread, so a child that prints a lot before it reads cannot block us both.
            std::thread::spawn(move || {
                use std::io::Write;
                // A child may exit without reading everything; that is its business.
                let _ = stdin.write_all(&input);
            });
        }
        Running { child, description }
    }

    fn command(&mut self) -> Command {
        self.ran = true;
        let mut command = self.project.shared.env.command(&self.program);
        command.args(&self.args).current_dir(&self.dir);
        let path = match self.path {
            SearchPath::WithBins => hermetic::path_with(&bin_dir()),
            SearchPath::WithoutBins => hermetic::path_without("lexictl"),
        };
        command.env("PATH", path);
        if !self.identity {
            hermetic::without_identity(&mut command);
        }
        if self.real_clock {
            hermetic::real_clock(&mut command);
        }
        for (key, value) in &self.env {
            command.env(key, value);
        }
        command
    }

    /// `$ lexictl update --check (in src)`, for failure messages.
    fn describe(&self) -> String {
        let program = Path::new(&self.program);
        let name = if program.starts_with(bin_dir()) {
            program.file_name().unwrap_or(program.as_os_str())
        } else {
            program.as_os_str()
        };
        let mut text = name.to_string_lossy().into_owned();
        for arg in &self.args {
            let arg = arg.to_string_lossy();
            if arg.is_empty() || arg.contains([' ', '\n', '"', '\'']) {
                text.push_str(&format!(" {arg:?}"));
            } else {
                text.push(' ');
                text.push_str(&arg);
            }
        }
        if self.dir != self.project.root {
            let dir = self
                .dir
                .strip_prefix(&self.project.root)
                .unwrap_or(&self.dir);
            text.push_str(&format!(" (in {})", dir.display()));
        }
        text
    }
}

impl Drop for Exec<'_> {
    fn drop(&mut self) {
        if !self.ran && !std::thread::panicking() {
            panic!("`{}` was built but never run", self.describe());
        }
    }
}

/// A command running in the background.
pub struct Running {
    pub child: Child,
    description: String,
}

impl Running {
    /// Wait for the exit and collect the output.
    pub fn wait(self) -> Output {
        let output = self.child.wait_with_output().expect("wait for the command");
        Output::new(self.description, output)
    }
}

/// What a command did: exit code, stdout and stderr (lossy UTF-8), and the command for messages.
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
    command: String,
}

impl Output {
    fn new(command: String, output: std::process::Output) -> Output {
        Output {
            code: output.status.code().unwrap_or(-1),
            stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
            command,
        }
    }

    /// The exit code must be 0.
    pub fn success(self) -> Output {
        self.code(0)
    }

    /// The exit code must be `expected`.
    pub fn code(self, expected: i32) -> Output {
        if self.code != expected {
            self.fail(&format!("expected exit code {expected}"));
        }
        self
    }

    /// Nothing may be on stderr (no warning, no note).
    pub fn no_stderr(self) -> Output {
        if !self.stderr.is_empty() {
            self.fail("expected nothing on stderr");
        }
        self
    }

    /// stdout parsed as JSON.
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.stdout)
            .unwrap_or_else(|err| self.fail(&format!("stdout is not JSON: {err}")))
    }

    /// Exit code, stdout and stderr together, for snapshots.
    pub fn both(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }

    pub fn stdout_has(&self, needle: &str) -> &Self {
        if !self.stdout.contains(needle) {
            self.fail(&format!("stdout does not contain {needle:?}"));
        }
        self
    }

    pub fn stdout_lacks(&self, needle: &str) -> &Self {
        if self.stdout.contains(needle) {
            self.fail(&format!("stdout contains {needle:?}"));
        }
        self
    }

    pub fn stderr_has(&self, needle: &str) -> &Self {
        if !self.stderr.contains(needle) {
            self.fail(&format!("stderr does not contain {needle:?}"));
        }
        self
    }

    pub fn stderr_lacks(&self, needle: &str) -> &Self {
        if self.stderr.contains(needle) {
            self.fail(&format!("stderr contains {needle:?}"));
        }
        self
    }

    pub fn stdout_is(&self, expected: &str) -> &Self {
        if self.stdout != expected {
            self.fail(&format!("stdout is not {expected:?}"));
        }
        self
    }

    pub fn stderr_is(&self, expected: &str) -> &Self {
        if self.stderr != expected {
            self.fail(&format!("stderr is not {expected:?}"));
        }
        self
    }

    /// Panic with `what`, the command and everything it printed.
    pub fn fail(&self, what: &str) -> ! {
        panic!(
            "{what}\n$ {}\nexit: {}\n--- stdout\n{}--- stderr\n{}",
            self.command, self.code, self.stdout, self.stderr
        )
    }
}

/// Spawn `command`, again while the program is "busy" (ETXTBSY): a program a test has just
/// written is briefly held open for writing by children other test threads fork before they
/// exec, which makes exec fail although the file is complete.
fn spawn_retrying(command: &mut Command) -> std::io::Result<std::process::Child> {
    const ETXTBSY: i32 = 26;
    let mut attempts = 0;
    loop {
        match command.spawn() {
            Err(err) if err.raw_os_error() == Some(ETXTBSY) && attempts < 200 => {
                attempts += 1;
                std::thread::sleep(std::time::Duration::from_millis(10));
            }
            other => return other,
        }
    }
}

/// A project copied from `fixtures/projects/<name>`, initialised and updated once.
pub fn updated_fixture(name: &str) -> TestProject {
    let p = project().fixture(name).init().build();
    p.lexictl(["update"]).success();
    p
}

/// An updated fixture's library, committed, is current (`update --check`), validates, and a cold
/// update (the cache removed) writes the same bytes: the fixed point every language keeps.
pub fn assert_committed_library_is_a_fixed_point(p: &TestProject) {
    p.commit_all("library");
    p.lexictl(["update", "--check"]).success();
    p.lexictl(["validate"]).success();
    let state = p
        .git(["rev-parse", "--git-path", "lexibrarian"])
        .success()
        .stdout;
    std::fs::remove_dir_all(p.path(state.trim())).expect("the cache exists");
    p.lexictl(["update"]).success();
    let status = p.git(["status", "--porcelain"]).success().stdout;
    assert_eq!(status, "", "a second update changed the library");
}

/// The `- path` lines of a design file's section `heading` (its Dependencies, Tests, …).
pub fn section_paths(design: &str, heading: &str) -> Vec<String> {
    design
        .split(&format!("## {heading}\n\n"))
        .nth(1)
        .unwrap_or("")
        .lines()
        .take_while(|line| !line.is_empty())
        .filter_map(|line| line.strip_prefix("- ").map(str::to_string))
        .collect()
}
