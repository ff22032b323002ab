//! Test support: a fluent builder for fixture projects in temp dirs (real git repositories, real
//! binaries), in the style of cargo's `project().file(..).build()`.
//!
//! Every command runs with an isolated environment: `HOME` and `XDG_CONFIG_HOME` point into the temp
//! dir (no personal config leaks in), git's global and system config are ignored, and a fixed git
//! identity is set.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use tempfile::TempDir;

/// Start describing a project.
pub fn project() -> ProjectBuilder {
    ProjectBuilder {
        files: Vec::new(),
        fixture: None,
        git: true,
    }
}

pub struct ProjectBuilder {
    files: Vec<(String, Vec<u8>)>,
    fixture: Option<String>,
    git: bool,
}

impl ProjectBuilder {
    /// Add a file (parents are created).
    pub fn file(mut self, path: &str, contents: impl AsRef<[u8]>) -> Self {
        self.files
            .push((path.to_string(), contents.as_ref().to_vec()));
        self
    }

    /// Start from a copy of `fixtures/projects/<name>/`.
    pub fn fixture(mut self, name: &str) -> Self {
        self.fixture = Some(name.to_string());
        self
    }

    /// Do not make it a git repository.
    pub fn no_git(mut self) -> Self {
        self.git = false;
        self
    }

    pub fn build(self) -> TestProject {
        let temp = tempfile::Builder::new()
            .prefix("lexi-test-")
            .tempdir()
            .expect("create temp dir");
        let root = temp.path().join("project");
        let home = temp.path().join("home");
        std::fs::create_dir_all(&root).expect("create project dir");
        std::fs::create_dir_all(&home).expect("create home dir");
        let project = TestProject {
            _temp: temp,
            root,
            home,
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
            project.git(&["init", "-q", "-b", "main"]);
            project.git(&["add", "-A"]);
            project.git(&["commit", "-q", "--allow-empty", "-m", "initial"]);
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

/// A project on disk. Removed when dropped.
pub struct TestProject {
    _temp: TempDir,
    pub root: PathBuf,
    home: PathBuf,
}

impl TestProject {
    /// `lexi` with `args`, run from the project root.
    pub fn lexi(&self, args: &[&str]) -> Command {
        self.bin("lexi", args)
    }

    /// `lexictl` with `args`, run from the project root.
    pub fn lexictl(&self, args: &[&str]) -> Command {
        self.bin("lexictl", args)
    }

    /// Any of the four binaries, run from the project root.
    pub fn bin(&self, name: &str, args: &[&str]) -> Command {
        let mut command = Command::cargo_bin(name).expect("binary is built");
        command.args(args).current_dir(&self.root);
        self.isolate(&mut command);
        command
    }

    fn isolate(&self, command: &mut Command) {
        command
            .env("HOME", &self.home)
            .env("XDG_CONFIG_HOME", self.home.join(".config"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_CONFIG_GLOBAL", self.home.join(".gitconfig-none"))
            .env("GIT_AUTHOR_NAME", "Test Author")
            .env("GIT_AUTHOR_EMAIL", "author@example.com")
            .env("GIT_COMMITTER_NAME", "Test Author")
            .env("GIT_COMMITTER_EMAIL", "author@example.com")
            .env_remove("ANTHROPIC_API_KEY")
            .env_remove("OPENAI_API_KEY")
            .env_remove("LEXI_AUTHOR");
    }

    /// Path of the personal config file this project's commands read.
    pub fn global_config_path(&self) -> PathBuf {
        self.home.join(".config/lexibrarian/config.yaml")
    }

    /// Run git in the project; panics on failure.
    pub fn git(&self, args: &[&str]) -> String {
        let mut command = Command::new("git");
        command.args(args).current_dir(&self.root);
        self.isolate(&mut command);
        let output = command.output().expect("run git");
        assert!(
            output.status.success(),
            "git {args:?} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).into_owned()
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

    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap_or_else(|err| panic!("read {rel}: {err}"))
    }

    pub fn exists(&self, rel: &str) -> bool {
        self.path(rel).exists()
    }

    /// `lexictl init --yes`, asserting success.
    pub fn init(&self) -> &Self {
        let output = self.lexictl(&["init", "--yes"]).output().expect("run init");
        assert!(
            output.status.success(),
            "init failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        self
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
            "{content}<!-- lexibrarian:meta\nsource: {source}\nsource_hash: {source_hash}\ndesign_hash: {design_hash}\ngenerated: 2026-01-15T10:30:00Z\ngenerator: lexibrarian 0.1.0\n-->\n"
        );
        self.write(&format!(".lexibrary/{source}.md"), text);
    }
}

/// The result of a command, with the project root replaced by `[ROOT]` for stable snapshots.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// stdout and stderr together, for snapshots.
    pub fn both(&self) -> String {
        format!(
            "exit: {}\n--- stdout\n{}--- stderr\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Run a command and capture it.
pub fn run(project: &TestProject, mut command: Command) -> Run {
    let output = command.output().expect("run command");
    let clean = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes).into_owned();
        let root = project.root.display().to_string();
        text.replace(&root, "[ROOT]")
    };
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: clean(&output.stdout),
        stderr: clean(&output.stderr),
    }
}

/// Run a command with `input` on its stdin and capture it.
pub fn run_input(project: &TestProject, mut command: Command, input: &str) -> Run {
    use std::io::Write;
    use std::process::Stdio;
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("spawn command");
    if let Some(mut stdin) = child.stdin.take() {
        stdin.write_all(input.as_bytes()).expect("write stdin");
    }
    let output = child.wait_with_output().expect("wait for command");
    let clean = |bytes: &[u8]| {
        let text = String::from_utf8_lossy(bytes).into_owned();
        text.replace(&project.root.display().to_string(), "[ROOT]")
    };
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: clean(&output.stdout),
        stderr: clean(&output.stderr),
    }
}

/// Replace RFC 3339 UTC timestamps (`2026-01-15T10:30:00Z`, with or without milliseconds) by
/// `[TIME]`, for snapshots of output that records when things happened.
pub fn redact_times(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let digits = |from: usize, n: usize| {
        from + n <= bytes.len() && bytes[from..from + n].iter().all(u8::is_ascii_digit)
    };
    while i < bytes.len() {
        let stamp = digits(i, 4)
            && bytes.get(i + 4) == Some(&b'-')
            && digits(i + 5, 2)
            && bytes.get(i + 7) == Some(&b'-')
            && digits(i + 8, 2)
            && bytes.get(i + 10) == Some(&b'T')
            && digits(i + 11, 2)
            && bytes.get(i + 13) == Some(&b':')
            && digits(i + 14, 2)
            && bytes.get(i + 16) == Some(&b':')
            && digits(i + 17, 2);
        if stamp {
            let mut end = i + 19;
            if bytes.get(end) == Some(&b'.') && digits(end + 1, 3) {
                end += 4;
            }
            if bytes.get(end) == Some(&b'Z') {
                out.push_str("[TIME]");
                i = end + 1;
                continue;
            }
        }
        let ch = text[i..].chars().next().unwrap_or('\u{fffd}');
        out.push(ch);
        i += ch.len_utf8();
    }
    out
}

impl TestProject {
    /// Run git in `dir` (relative to the project root) with the test isolation, and with the built
    /// binaries first on PATH when `with_bins` (as the installed hooks need to find `lexictl`).
    /// Returns the raw output; does not assert success.
    pub fn git_at(&self, dir: &str, args: &[&str], with_bins: bool) -> std::process::Output {
        let mut command = Command::new("git");
        command.args(args).current_dir(self.root.join(dir));
        self.isolate(&mut command);
        let path = std::env::var_os("PATH").unwrap_or_default();
        let system: Vec<PathBuf> = std::env::split_paths(&path)
            .filter(|dir| !dir.join("lexictl").exists())
            .collect();
        let dirs: Vec<PathBuf> = if with_bins {
            std::iter::once(bin_dir()).chain(system).collect()
        } else {
            system
        };
        command.env("PATH", std::env::join_paths(dirs).expect("PATH"));
        command.output().expect("run git")
    }
}

/// Where cargo put the binaries under test.
pub fn bin_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_lexictl"))
        .parent()
        .expect("bin dir")
        .to_path_buf()
}
