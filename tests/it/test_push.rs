//! The team flow never blocks delivery (DESIGN §8, seed D-067), under each way of installing the
//! hooks — plain git hooks, husky, lefthook and the pre-commit framework, the last three the real
//! tools (installed by `.ci/run` under `target/hook-tools/`; a test whose tool is missing is ignored
//! with the reason) — against a bare remote in the temp dir:
//!
//! - a push right after a commit succeeds (the worker is still writing that commit's library);
//! - `lexictl notes sync` succeeds with library changes in the working tree (notes are never judged);
//! - an uncommitted Stack post and an agent's half-written design file never stop a push (issue 30,
//!   defect 10);
//! - with the opt-in `hooks.pre_push: block`, a push of a commit whose committed library lags is
//!   stopped, naming the file; committing what the hook wrote lets it through; notes and unrelated
//!   work are still never judged.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use crate::support::{bin_dir, hermetic, project, Exec, TestProject};
use crate::test_hooks::{hook_log, wait_for_worker};

/// How the hooks are installed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Manager {
    Plain,
    Husky,
    Lefthook,
    PreCommit,
}

/// A developer's clone of a remote holding the rust fixture with its library committed, with the
/// hooks installed through `manager`; `blocking` sets `hooks.pre_push: block` (committed).
struct Dev {
    clone: TestProject,
    _remote: TestProject,
    path: OsString,
    manager: Manager,
}

impl Dev {
    fn new(manager: Manager, blocking: bool) -> Dev {
        let p = project().fixture("rust").init().build();
        if blocking {
            p.config("hooks:\n  pre_push: block\n");
        }
        p.lexictl(["update"]).success();
        p.commit_all("library");
        let remote = p.clone_bare_to("remote.git");
        let clone = remote.clone_to("dev");
        let path = path_with_tool(manager);
        let dev = Dev {
            clone,
            _remote: remote,
            path,
            manager,
        };
        dev.install();
        dev
    }

    /// Install the manager and our hooks through it, as docs/hooks.md says.
    fn install(&self) {
        let p = &self.clone;
        match self.manager {
            Manager::Plain => {
                self.run(p.lexictl(["setup", "--hooks"])).success();
            }
            Manager::Husky => {
                self.run(p.cmd(tool("husky"), Vec::<&str>::new())).success();
                assert!(p.exists(".husky"), "husky made its directory");
                self.run(p.lexictl(["setup", "--hooks"]))
                    .success()
                    .stdout_has(".husky/pre-push");
            }
            Manager::Lefthook => {
                // `setup --hooks` sees lefthook by its file, and prints what to add to it.
                p.write("lefthook.yml", "# the team's hooks\n");
                let snippet = self.snippet();
                p.write("lefthook.yml", format!("# the team's hooks\n{snippet}"));
                self.run(p.cmd(tool("lefthook"), ["install"])).success();
            }
            Manager::PreCommit => {
                p.write(".pre-commit-config.yaml", "repos: []\n");
                let printed = self
                    .run(p.lexictl(["setup", "--hooks", "--format", "json"]))
                    .json();
                assert_eq!(printed["hooks"]["whole_file"], true);
                let snippet = printed["hooks"]["snippet"].as_str().expect("snippet");
                p.write(".pre-commit-config.yaml", snippet);
                self.run(p.cmd(tool("pre-commit"), ["validate-config"]))
                    .success();
                let install = if snippet.contains("stages: [pre-push]") {
                    vec![
                        "install",
                        "--hook-type",
                        "post-commit",
                        "--hook-type",
                        "pre-push",
                    ]
                } else {
                    vec!["install", "--hook-type", "post-commit"]
                };
                self.run(p.cmd(tool("pre-commit"), install)).success();
            }
        }
        if self.manager != Manager::Plain {
            // The manager's files are the team's: committed, so the tree is clean.
            self.commit("the team's hooks");
            wait_for_worker(p, "");
        }
    }

    /// What `setup --hooks` prints for a manager that it does not write for.
    fn snippet(&self) -> String {
        let printed = self
            .run(self.clone.lexictl(["setup", "--hooks", "--format", "json"]))
            .json();
        printed["hooks"]["snippet"]
            .as_str()
            .expect("a snippet")
            .to_string()
    }

    /// `exec` with the manager's tool on PATH (its installed hooks call it).
    fn run<'p>(&self, exec: Exec<'p>) -> Exec<'p> {
        exec.env("PATH", &self.path)
    }

    fn git<const N: usize>(&self, args: [&str; N]) -> Exec<'_> {
        self.run(self.clone.git(args))
    }

    /// `git add -A && git commit`.
    fn commit(&self, message: &str) {
        self.git(["add", "-A"]).success();
        self.git(["commit", "-q", "-m", message]).success();
    }

    /// The README way: change a source (a new file), `git add -A`, commit.
    fn commit_work(&self, name: &str) {
        self.clone.write(
            &format!("src/{name}.rs"),
            format!("//! {name}.\npub fn {name}() {{}}\n"),
        );
        self.commit(name);
    }

    /// Uncommitted work that is not the hook's: a new Stack post and an agent's edit of a design
    /// file, half written.
    fn unrelated_work(&self) {
        let p = &self.clone;
        self.run(p.lexi([
            "stack",
            "post",
            "--title",
            "Lexer slices bytes",
            "--tag",
            "parser",
            "--file",
            "src/lib.rs",
            "--problem",
            "The lexer slices bytes.",
            "--evidence",
            "panicked at byte index 3",
            "--author",
            "agent-a",
        ]))
        .success();
        let design = p.read(".lexibrary/src/lib.rs.md");
        p.write(
            ".lexibrary/src/lib.rs.md",
            design.replacen("\n# ", "\nA note the agent is still writing.\n\n# ", 1),
        );
        let status = self.git(["status", "--porcelain"]).success().stdout;
        assert!(status.contains(".lexibrary/stack/"), "{status}");
        assert!(status.contains(" M .lexibrary/src/lib.rs.md"), "{status}");
    }

    fn push(&self, branch: &str) -> Exec<'_> {
        self.git(["push", "-q", "origin", branch])
    }

    fn remote_has(&self, reference: &str) -> bool {
        self.git(["ls-remote", "origin", reference])
            .success()
            .stdout
            .contains(reference)
    }
}

/// The path of an external tool found by build.rs.
fn tool(name: &str) -> PathBuf {
    let found = match name {
        "husky" => option_env!("LEXI_TOOL_HUSKY"),
        "lefthook" => option_env!("LEXI_TOOL_LEFTHOOK"),
        "pre-commit" => option_env!("LEXI_TOOL_PRE_COMMIT"),
        _ => None,
    };
    PathBuf::from(found.unwrap_or_else(|| panic!("build.rs found no {name}")))
}

/// PATH for `manager`: the binaries under test first, then the manager's directory.
fn path_with_tool(manager: Manager) -> OsString {
    let name = match manager {
        Manager::Plain => return hermetic::path_with(&bin_dir()),
        Manager::Husky => "husky",
        Manager::Lefthook => "lefthook",
        Manager::PreCommit => "pre-commit",
    };
    let dir = tool(name)
        .parent()
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(Path::to_path_buf);
    let base = hermetic::path_with(&bin_dir());
    match dir {
        Some(dir) => std::env::join_paths(std::iter::once(dir).chain(std::env::split_paths(&base)))
            .expect("PATH"),
        None => base,
    }
}

/// The default flow: nothing refuses a push or a notes sync; one line warns about the lag.
fn never_blocks(manager: Manager) {
    let dev = Dev::new(manager, false);
    let p = &dev.clone;
    // A push right after the commit, while the worker writes its library.
    dev.commit_work("first");
    dev.push("main").success();
    assert!(dev.remote_has("refs/heads/main"));
    wait_for_worker(p, "");
    assert!(
        p.exists(".lexibrary/src/first.rs.md"),
        "{}",
        hook_log(p, "")
    );
    // The library lags in the working tree: notes sync goes (notes are never judged).
    dev.run(p.lexictl(["notes", "sync", "origin"])).success();
    assert!(dev.remote_has("refs/notes/lexibrarian/provenance"));
    // Unrelated uncommitted work never stops a push either; the lag is one line on stderr (no
    // pre-push hook under pre-commit, whose stash would hide the worker's files: docs/hooks.md).
    dev.unrelated_work();
    dev.commit_work("second");
    wait_for_worker(p, "");
    let pushed = dev.push("main").success();
    match manager {
        Manager::PreCommit => {
            pushed.stderr_lacks("lexibrarian");
        }
        _ => {
            assert_eq!(
                pushed
                    .stderr
                    .lines()
                    .filter(|l| l.contains("lexibrarian"))
                    .count(),
                1,
                "{}",
                pushed.stderr
            );
            pushed.stderr_has("not in this push; your next commit carries");
        }
    }
    // The lag rides with the next commit.
    dev.commit_work("third");
    let tree = dev
        .git(["ls-tree", "-r", "--name-only", "HEAD"])
        .success()
        .stdout;
    assert!(tree.contains(".lexibrary/src/second.rs.md"), "{tree}");
}

/// The opt-in blocking mode judges only the pushed commit's own library.
fn blocks_only_when_asked(manager: Manager) {
    let dev = Dev::new(manager, true);
    let p = &dev.clone;
    dev.commit_work("first");
    wait_for_worker(p, "");
    // (pre-commit shows its hooks' output on stdout.)
    let stopped = dev.push("main").code(1).both();
    for said in [
        "is not current (hooks.pre_push is `block`)",
        "NEW src/first.rs",
        "git add .lexibrary && git commit",
    ] {
        assert!(stopped.contains(said), "{said:?} in:\n{stopped}");
    }
    assert!(!remote_has_commit(&dev), "the stopped push sent nothing");
    // Notes are never judged, even now.
    dev.run(p.lexictl(["notes", "sync", "origin"])).success();
    // Commit what the hook wrote: the push goes, whatever else is uncommitted.
    dev.git(["add", ".lexibrary"]).success();
    dev.git(["commit", "-q", "-m", "lexibrary: update the library"])
        .success();
    wait_for_worker(p, "");
    dev.unrelated_work();
    dev.push("main").success();
    assert!(remote_has_commit(&dev));
}

/// Whether the remote's main is the clone's HEAD.
fn remote_has_commit(dev: &Dev) -> bool {
    let head = dev.git(["rev-parse", "HEAD"]).success().stdout;
    let remote = dev
        .git(["ls-remote", "origin", "refs/heads/main"])
        .success()
        .stdout;
    remote.starts_with(head.trim())
}

#[test]
fn plain_hooks_never_block() {
    never_blocks(Manager::Plain);
}

#[test]
fn plain_hooks_block_only_when_asked() {
    blocks_only_when_asked(Manager::Plain);
}

#[test]
#[cfg_attr(not(has_husky), ignore = "needs husky (npm; .ci/run installs it)")]
fn husky_never_blocks() {
    never_blocks(Manager::Husky);
}

#[test]
#[cfg_attr(not(has_husky), ignore = "needs husky (npm; .ci/run installs it)")]
fn husky_blocks_only_when_asked() {
    blocks_only_when_asked(Manager::Husky);
}

#[test]
#[cfg_attr(
    not(has_lefthook),
    ignore = "needs lefthook (npm; .ci/run installs it)"
)]
fn lefthook_never_blocks() {
    never_blocks(Manager::Lefthook);
}

#[test]
#[cfg_attr(
    not(has_lefthook),
    ignore = "needs lefthook (npm; .ci/run installs it)"
)]
fn lefthook_blocks_only_when_asked() {
    blocks_only_when_asked(Manager::Lefthook);
}

#[test]
#[cfg_attr(
    not(has_pre_commit),
    ignore = "needs pre-commit (PyPI; .ci/run installs it)"
)]
fn pre_commit_never_blocks() {
    never_blocks(Manager::PreCommit);
}

#[test]
#[cfg_attr(
    not(has_pre_commit),
    ignore = "needs pre-commit (PyPI; .ci/run installs it)"
)]
fn pre_commit_blocks_only_when_asked() {
    blocks_only_when_asked(Manager::PreCommit);
}

/// The pre-commit entry `setup --hooks` prints is valid where it goes, by pre-commit's own
/// `validate-config`: as a whole file, and pasted below `repos:` or after the last entry of a
/// configuration whose entries start in column 0 (pre-commit's sample) or are indented.
#[test]
#[cfg_attr(
    not(has_pre_commit),
    ignore = "needs pre-commit (PyPI; .ci/run installs it)"
)]
fn the_pre_commit_snippet_is_valid_wherever_it_is_pasted() {
    let sample = "repos:\n-   repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v3.2.0\n    hooks:\n    -   id: trailing-whitespace\n";
    let indented = "repos:\n  - repo: https://github.com/psf/black\n    rev: 24.1.0\n    hooks:\n      - id: black\n";
    let flush =
        "repos:\n- repo: https://github.com/psf/black\n  rev: 24.1.0\n  hooks:\n  - id: black\n";
    let p = project().fixture("rust").init().build();
    for existing in [sample, indented, flush] {
        p.write(".pre-commit-config.yaml", existing);
        let printed = p.lexictl(["setup", "--hooks", "--format", "json"]).json();
        let snippet = printed["hooks"]["snippet"].as_str().expect("snippet");
        assert_eq!(printed["hooks"]["whole_file"], false);
        let below = existing.replacen("repos:\n", &format!("repos:\n{snippet}"), 1);
        for pasted in [format!("{existing}{snippet}"), below] {
            p.write(".pre-commit-config.yaml", &pasted);
            p.cmd(
                tool("pre-commit"),
                ["validate-config", ".pre-commit-config.yaml"],
            )
            .context(pasted.clone())
            .success();
            let yaml: serde_yaml::Value = serde_yaml::from_str(&pasted).expect("yaml");
            assert_eq!(
                yaml["repos"].as_sequence().map(Vec::len),
                Some(2),
                "{pasted}"
            );
        }
    }
    p.write(".pre-commit-config.yaml", "repos: []\n");
    let printed = p.lexictl(["setup", "--hooks", "--format", "json"]).json();
    assert_eq!(printed["hooks"]["whole_file"], true);
    p.write(
        ".pre-commit-config.yaml",
        printed["hooks"]["snippet"].as_str().expect("snippet"),
    );
    p.cmd(
        tool("pre-commit"),
        ["validate-config", ".pre-commit-config.yaml"],
    )
    .success();
}
