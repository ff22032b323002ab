//! Tests for the git module, run against real repositories made with the `git` CLI in temporary
//! directories.

use std::path::{Path, PathBuf};
use std::process::Output;

use super::{Change, GitError, GitRepo, Oid, Operation};
use crate::hermetic::{self, Hermetic};

/// A temporary repository driven through the `git` command line, in the hermetic environment.
struct Fixture {
    tmp: tempfile::TempDir,
    root: PathBuf,
    env: Hermetic,
}

/// A hermetic environment with its home in `tmp`. The test process also forgets any repository
/// it was started in (a git hook's `GIT_INDEX_FILE`), which gix would honour in-process.
fn hermetic(tmp: &Path) -> Hermetic {
    hermetic::forget_outer_repository();
    Hermetic::new(tmp.join("home"))
}

/// Run git in `dir`, which must succeed; returns trimmed stdout.
fn git(env: &Hermetic, dir: &Path, args: &[&str]) -> String {
    let out = git_output(env, dir, args);
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf8")
        .trim()
        .to_owned()
}

/// Run git in `dir`, allowing failure.
fn git_output(env: &Hermetic, dir: &Path, args: &[&str]) -> Output {
    env.command("git")
        .current_dir(dir)
        .args(args)
        .output()
        .expect("run git")
}

impl Fixture {
    fn new() -> Fixture {
        let tmp = tempfile::tempdir().expect("tempdir");
        let env = hermetic(tmp.path());
        let root = tmp.path().join("repo");
        std::fs::create_dir(&root).expect("mkdir");
        git(&env, &root, &["init", "-q", "-b", "main"]);
        Fixture { tmp, root, env }
    }

    fn git(&self, args: &[&str]) -> String {
        git(&self.env, &self.root, args)
    }

    /// Run git in `dir` (another repository or worktree of this fixture).
    fn git_in(&self, dir: &Path, args: &[&str]) -> String {
        git(&self.env, dir, args)
    }

    fn git_output(&self, args: &[&str]) -> Output {
        git_output(&self.env, &self.root, args)
    }

    fn write(&self, rel: &str, content: &str) {
        let path = self.root.join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, content).expect("write");
    }

    fn remove(&self, rel: &str) {
        std::fs::remove_file(self.root.join(rel)).expect("remove");
    }

    /// `git add -A` and commit; returns the new commit id.
    fn commit_all(&self, message: &str) -> Oid {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "--allow-empty", "-m", message]);
        oid(&self.git(&["rev-parse", "HEAD"]))
    }

    fn open(&self) -> GitRepo {
        GitRepo::discover(&self.root)
            .expect("discover")
            .expect("a repository")
    }
}

fn added(paths: &[&str]) -> Vec<Change> {
    paths.iter().map(|p| Change::Added(p.to_string())).collect()
}

fn oid(hex: &str) -> Oid {
    Oid::parse(hex).expect("an object id")
}

fn s(p: &str) -> String {
    p.to_owned()
}

/// A file body that is clearly different per `seed`, long enough for rename similarity.
fn body(seed: &str) -> String {
    (0..20)
        .map(|i| format!("fn {seed}_{i}() -> u32 {{ {i} }}\n"))
        .collect()
}

#[test]
fn git_repo_is_send_and_error_works_with_anyhow() {
    fn send<T: Send>() {}
    fn send_sync_static<T: Send + Sync + 'static>() {}
    send::<GitRepo>();
    send_sync_static::<GitError>();
}

#[test]
fn discover_outside_a_repository_is_none() {
    let tmp = tempfile::tempdir().expect("tempdir");
    assert!(GitRepo::discover(tmp.path()).expect("no error").is_none());
}

#[test]
fn discover_bare_repository_is_none() {
    let tmp = tempfile::tempdir().expect("tempdir");
    git(
        &hermetic(tmp.path()),
        tmp.path(),
        &["init", "-q", "--bare", "-b", "main", "bare.git"],
    );
    let bare = tmp.path().join("bare.git");
    assert!(GitRepo::discover(&bare).expect("no error").is_none());
}

#[test]
fn discover_from_subdirectory_finds_root() {
    let fx = Fixture::new();
    fx.write("src/deep/a.rs", "a");
    let repo = GitRepo::discover(&fx.root.join("src/deep"))
        .expect("discover")
        .expect("repo");
    assert!(repo.workdir().is_absolute());
    assert_eq!(
        repo.workdir().canonicalize().expect("canon"),
        fx.root.canonicalize().expect("canon")
    );
}

#[test]
fn empty_repository_has_no_head_and_everything_is_added() {
    let fx = Fixture::new();
    let repo = fx.open();
    assert_eq!(repo.head_commit().expect("head"), None);
    assert_eq!(repo.dirty().expect("dirty"), vec![]);

    fx.write("staged.rs", "s");
    fx.write("dir/untracked.rs", "u");
    fx.git(&["add", "staged.rs"]);
    let repo = fx.open();
    assert_eq!(repo.head_commit().expect("head"), None);
    assert_eq!(
        repo.dirty().expect("dirty"),
        vec![
            Change::Added(s("dir/untracked.rs")),
            Change::Added(s("staged.rs"))
        ]
    );
    assert_eq!(repo.operation_in_progress(), None);
}

#[test]
fn head_commit_and_has_commit() {
    let fx = Fixture::new();
    fx.write("a.rs", "a");
    let c1 = fx.commit_all("one");
    let repo = fx.open();
    assert_eq!(repo.head_commit().expect("head"), Some(c1));
    assert!(repo.has_commit(&c1));
    let tree = oid(&fx.git(&["rev-parse", "HEAD^{tree}"]));
    let blob = oid(&fx.git(&["rev-parse", "HEAD:a.rs"]));
    let missing = oid("0123456789012345678901234567890123456789");
    assert!(!repo.has_commit(&tree));
    assert!(!repo.has_commit(&blob));
    assert!(!repo.has_commit(&missing));
    assert!(matches!(
        Oid::parse("not-hex"),
        Err(GitError::InvalidCommitId(_))
    ));
    assert!(Oid::parse(&c1.to_hex()[..12]).is_err());

    assert!(matches!(
        repo.diff_commits(None, &missing),
        Err(GitError::CommitNotFound(_))
    ));
    assert!(matches!(
        Oid::parse("HEAD"),
        Err(GitError::InvalidCommitId(_))
    ));
    assert!(matches!(
        repo.commit_changes(&tree),
        Err(GitError::NotACommit { .. })
    ));
}

#[test]
fn root_commit_lists_every_file_as_added_and_no_directories() {
    let fx = Fixture::new();
    fx.write("README.md", "r");
    fx.write("src/lib.rs", "l");
    fx.write("src/deep/er/mod.rs", "m");
    let root = fx.commit_all("root");
    let repo = fx.open();
    let expected = added(&["README.md", "src/deep/er/mod.rs", "src/lib.rs"]);
    assert_eq!(repo.commit_changes(&root).expect("changes"), expected);
    assert_eq!(repo.diff_commits(None, &root).expect("diff"), expected);
    assert_eq!(repo.diff_commits(Some(&root), &root).expect("diff"), vec![]);
}

#[test]
fn commits_touching_one_two_and_fifty_files() {
    let fx = Fixture::new();
    for i in 0..60 {
        fx.write(&format!("src/m{i:02}.rs"), &body(&format!("m{i}")));
    }
    fx.commit_all("base");

    fx.write("src/m00.rs", "changed");
    let one = fx.commit_all("one");

    fx.write("src/m01.rs", "changed");
    fx.write("new/file.rs", "new");
    let two = fx.commit_all("two");

    let mut expected = Vec::new();
    for i in 10..60 {
        fx.write(&format!("src/m{i:02}.rs"), &format!("changed {i}"));
        expected.push(Change::Modified(format!("src/m{i:02}.rs")));
    }
    let fifty = fx.commit_all("fifty");

    let repo = fx.open();
    assert_eq!(
        repo.commit_changes(&one).expect("one"),
        vec![Change::Modified(s("src/m00.rs"))]
    );
    assert_eq!(
        repo.commit_changes(&two).expect("two"),
        vec![
            Change::Added(s("new/file.rs")),
            Change::Modified(s("src/m01.rs"))
        ]
    );
    assert_eq!(repo.commit_changes(&fifty).expect("fifty"), expected);
    assert_eq!(
        repo.diff_commits(Some(&two), &fifty).expect("diff"),
        expected
    );
}

#[test]
fn paths_with_spaces_and_unicode() {
    let fx = Fixture::new();
    let path = "dir with space/naïve 日本.rs";
    fx.write(path, "one");
    let c1 = fx.commit_all("add");
    fx.write(path, "two");
    let c2 = fx.commit_all("edit");
    let repo = fx.open();
    assert_eq!(repo.commit_changes(&c1).expect("c1"), added(&[path]));
    assert_eq!(
        repo.commit_changes(&c2).expect("c2"),
        vec![Change::Modified(s(path))]
    );
    fx.write(path, "three");
    fx.write("dir with space/ünïcode new.rs", "new");
    assert_eq!(
        repo.dirty().expect("dirty"),
        vec![
            Change::Modified(s(path)),
            Change::Added(s("dir with space/ünïcode new.rs"))
        ]
    );
}

#[cfg(unix)]
#[test]
fn non_utf8_paths_are_skipped_and_counted() {
    use std::os::unix::ffi::OsStrExt;
    let fx = Fixture::new();
    fx.write("ok.rs", "ok");
    let bad = std::ffi::OsStr::from_bytes(b"bad-\xff.rs");
    std::fs::write(fx.root.join(bad), "bad").expect("write");
    let c = fx.commit_all("both");
    let repo = fx.open();
    assert_eq!(repo.commit_changes(&c).expect("changes"), added(&["ok.rs"]));
    assert_eq!(repo.skipped_non_utf8(), 1);

    std::fs::write(fx.root.join(bad), "changed").expect("write");
    let untracked = std::ffi::OsStr::from_bytes(b"new-\xfe.rs");
    std::fs::write(fx.root.join(untracked), "new").expect("write");
    assert_eq!(repo.dirty().expect("dirty"), vec![]);
    assert_eq!(repo.skipped_non_utf8(), 2);
}

#[test]
fn merge_commit_is_diffed_against_first_parent() {
    let fx = Fixture::new();
    fx.write("base.rs", "base");
    fx.commit_all("base");
    fx.git(&["checkout", "-q", "-b", "feature"]);
    fx.write("feature/one.rs", "f1");
    fx.write("feature/two.rs", "f2");
    fx.commit_all("feature work");
    fx.git(&["checkout", "-q", "main"]);
    fx.write("main_only.rs", "m");
    let main_tip = fx.commit_all("main work");
    fx.git(&["merge", "-q", "--no-ff", "-m", "merge feature", "feature"]);
    let merge = oid(&fx.git(&["rev-parse", "HEAD"]));

    let repo = fx.open();
    let changes = repo.commit_changes(&merge).expect("merge changes");
    assert_eq!(changes, added(&["feature/one.rs", "feature/two.rs"]));
    assert_eq!(
        changes,
        repo.diff_commits(Some(&main_tip), &merge).expect("diff")
    );
}

#[test]
fn rename_and_delete() {
    let fx = Fixture::new();
    fx.write("a.rs", &body("a"));
    fx.write("c.rs", &body("c"));
    fx.write("e.rs", &body("e"));
    fx.commit_all("base");

    fx.git(&["mv", "a.rs", "b.rs"]);
    let renamed = fx.commit_all("rename");

    fx.git(&["rm", "-q", "c.rs"]);
    let deleted = fx.commit_all("delete");

    // A rename with a small edit is still a rename.
    std::fs::create_dir(fx.root.join("sub")).expect("mkdir");
    fx.git(&["mv", "e.rs", "sub/f.rs"]);
    let mut edited = body("e");
    edited.push_str("fn extra() {}\n");
    fx.write("sub/f.rs", &edited);
    let renamed_edited = fx.commit_all("rename and edit");

    let repo = fx.open();
    assert_eq!(
        repo.commit_changes(&renamed).expect("rename"),
        vec![Change::Renamed {
            from: s("a.rs"),
            to: s("b.rs")
        }]
    );
    assert_eq!(
        repo.commit_changes(&deleted).expect("delete"),
        vec![Change::Deleted(s("c.rs"))]
    );
    assert_eq!(
        repo.commit_changes(&renamed_edited).expect("rename+edit"),
        vec![Change::Renamed {
            from: s("e.rs"),
            to: s("sub/f.rs")
        }]
    );
}

#[test]
fn shallow_boundary_commit_is_treated_as_root() {
    let fx = Fixture::new();
    fx.write("a.rs", "a");
    fx.commit_all("one");
    fx.write("b.rs", "b");
    fx.commit_all("two");
    let url = format!("file://{}", fx.root.display());
    let shallow = fx.tmp.path().join("shallow");
    fx.git_in(
        fx.tmp.path(),
        &[
            "clone",
            "-q",
            "--depth",
            "1",
            &url,
            shallow.to_str().expect("utf8"),
        ],
    );
    let repo = GitRepo::discover(&shallow)
        .expect("discover")
        .expect("repo");
    let head = repo.head_commit().expect("head").expect("commit");
    assert_eq!(
        repo.commit_changes(&head).expect("changes"),
        added(&["a.rs", "b.rs"])
    );
}

#[test]
fn diff_across_several_commits_is_the_net_change() {
    let fx = Fixture::new();
    fx.write("x.rs", "x1");
    fx.write("y.rs", "y1");
    fx.write("keep.rs", "k");
    fx.write("tmp.rs", "t");
    let a = fx.commit_all("A");
    fx.write("x.rs", "x2");
    fx.write("z.rs", "z1");
    fx.remove("tmp.rs");
    let b = fx.commit_all("B");
    fx.remove("y.rs");
    fx.write("z.rs", "z2");
    fx.write("tmp.rs", "t");
    let c = fx.commit_all("C");

    let repo = fx.open();
    assert_eq!(
        repo.diff_commits(Some(&a), &c).expect("diff"),
        vec![
            Change::Modified(s("x.rs")),
            Change::Deleted(s("y.rs")),
            Change::Added(s("z.rs")),
        ]
    );
    assert_eq!(
        repo.diff_commits(Some(&b), &c).expect("diff"),
        vec![
            Change::Added(s("tmp.rs")),
            Change::Deleted(s("y.rs")),
            Change::Modified(s("z.rs")),
        ]
    );
    // Backwards works too.
    assert_eq!(
        repo.diff_commits(Some(&c), &a).expect("diff"),
        vec![
            Change::Modified(s("x.rs")),
            Change::Added(s("y.rs")),
            Change::Deleted(s("z.rs")),
        ]
    );
}

#[cfg(unix)]
#[test]
fn symlinks_and_executables_are_files_submodules_are_skipped() {
    use std::os::unix::fs::PermissionsExt;
    let fx = Fixture::new();
    fx.write("run.sh", "#!/bin/sh\n");
    fx.write("target.rs", "t");
    fx.commit_all("base");

    std::os::unix::fs::symlink("target.rs", fx.root.join("link.rs")).expect("symlink");
    let script = fx.root.join("run.sh");
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    // A gitlink (submodule entry) pointing at some commit; no checkout on disk.
    let some_commit = fx.git(&["rev-parse", "HEAD"]);
    fx.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{some_commit},vendor/sub"),
    ]);
    fx.git(&["add", "link.rs", "run.sh"]);
    fx.git(&["commit", "-q", "-m", "links"]);
    let c = oid(&fx.git(&["rev-parse", "HEAD"]));

    let repo = fx.open();
    assert_eq!(
        repo.commit_changes(&c).expect("changes"),
        vec![Change::Added(s("link.rs")), Change::Modified(s("run.sh"))]
    );
    // The missing submodule checkout is not reported as dirty.
    assert_eq!(repo.dirty().expect("dirty"), vec![]);
}

#[test]
fn dirty_reports_worktree_and_index_changes_but_not_ignored_files() {
    let fx = Fixture::new();
    fx.write(".gitignore", "ignored/\n*.log\n");
    fx.write("a.rs", "a");
    fx.write("d.rs", "d");
    fx.write("clean.rs", "c");
    fx.write("same_size.rs", "aaaa");
    fx.write("debug.log", "old log"); // ignored, never tracked
    fx.commit_all("base");
    let repo = fx.open();
    assert_eq!(repo.dirty().expect("clean"), vec![]);

    fx.write("a.rs", "a edited"); // unstaged edit
    fx.write("same_size.rs", "bbbb"); // same size, likely the same mtime second as the index
    fx.write("s.rs", "staged"); // staged new file
    fx.git(&["add", "s.rs"]);
    fx.write("u.rs", "untracked"); // untracked
    fx.write("newdir/deeper/u2.rs", "untracked in new dir");
    fx.write("ignored/x.rs", "in ignored dir"); // not reported
    fx.write("debug.log", "new log"); // ignored edit: not reported
    fx.remove("d.rs"); // deleted tracked file

    let index_path = fx.root.join(".git/index");
    let index_before = std::fs::read(&index_path).expect("index");
    let mtime_before = std::fs::metadata(&index_path)
        .expect("meta")
        .modified()
        .expect("mtime");

    let dirty = repo.dirty().expect("dirty");
    assert_eq!(
        dirty,
        vec![
            Change::Modified(s("a.rs")),
            Change::Deleted(s("d.rs")),
            Change::Added(s("newdir/deeper/u2.rs")),
            Change::Added(s("s.rs")),
            Change::Modified(s("same_size.rs")),
            Change::Added(s("u.rs")),
        ]
    );
    // Asking again gives the same answer, and the index was not touched.
    assert_eq!(repo.dirty().expect("dirty again"), dirty);
    assert_eq!(std::fs::read(&index_path).expect("index"), index_before);
    assert_eq!(
        std::fs::metadata(&index_path)
            .expect("meta")
            .modified()
            .expect("mtime"),
        mtime_before
    );
    let lock = fx.root.join(".git/index.lock");
    assert!(!lock.exists());
}

#[test]
fn dirty_combines_staged_and_unstaged_states() {
    let fx = Fixture::new();
    fx.write("moved.rs", &body("moved"));
    fx.write("staged_mod.rs", "1");
    fx.write("both.rs", "1");
    fx.write("staged_then_deleted.rs", "1");
    fx.write("removed_from_index.rs", "1");
    fx.commit_all("base");

    std::fs::create_dir(fx.root.join("dest")).expect("mkdir");
    fx.git(&["mv", "moved.rs", "dest/moved.rs"]); // staged rename
    fx.write("staged_mod.rs", "2");
    fx.git(&["add", "staged_mod.rs"]);
    fx.write("both.rs", "2");
    fx.git(&["add", "both.rs"]);
    fx.write("both.rs", "3"); // staged and unstaged edits
    fx.write("added_then_edited.rs", "1");
    fx.git(&["add", "added_then_edited.rs"]);
    fx.write("added_then_edited.rs", "2");
    fx.write("added_then_removed.rs", "1");
    fx.git(&["add", "added_then_removed.rs"]);
    fx.remove("added_then_removed.rs"); // neither at HEAD nor on disk: not reported
    fx.write("staged_then_deleted.rs", "2");
    fx.git(&["add", "staged_then_deleted.rs"]);
    fx.remove("staged_then_deleted.rs");
    fx.git(&["rm", "-q", "--cached", "removed_from_index.rs"]); // still on disk, untracked

    let repo = fx.open();
    assert_eq!(
        repo.dirty().expect("dirty"),
        vec![
            Change::Added(s("added_then_edited.rs")),
            Change::Modified(s("both.rs")),
            Change::Renamed {
                from: s("moved.rs"),
                to: s("dest/moved.rs")
            },
            Change::Modified(s("removed_from_index.rs")),
            Change::Modified(s("staged_mod.rs")),
            Change::Deleted(s("staged_then_deleted.rs")),
        ]
    );

    // A staged rename whose destination is then deleted is just a deletion of the source.
    fx.remove("dest/moved.rs");
    let dirty = repo.dirty().expect("dirty");
    assert!(dirty.contains(&Change::Deleted(s("moved.rs"))), "{dirty:?}");
    assert!(
        !dirty.iter().any(|d| d.path() == "dest/moved.rs"),
        "{dirty:?}"
    );
}

/// `git rev-parse --git-path lexibrarian` run in `dir`, made absolute and canonical.
fn git_path_lexibrarian(fx: &Fixture, dir: &Path) -> PathBuf {
    let printed = PathBuf::from(fx.git_in(dir, &["rev-parse", "--git-path", "lexibrarian"]));
    canonical_state_dir(&dir.join(printed))
}

/// Canonicalize a not-yet-existing `<dir>/lexibrarian` via its parent.
fn canonical_state_dir(path: &Path) -> PathBuf {
    let parent = path
        .parent()
        .expect("parent")
        .canonicalize()
        .expect("canon");
    parent.join(path.file_name().expect("name"))
}

#[test]
fn state_dir_matches_git_in_repo_and_linked_worktree() {
    let fx = Fixture::new();
    fx.write("a.rs", "a");
    fx.commit_all("base");
    let repo = fx.open();
    let dir = repo.state_dir();
    assert!(dir.is_absolute());
    assert_eq!(
        canonical_state_dir(&dir),
        git_path_lexibrarian(&fx, &fx.root)
    );
    assert_eq!(
        canonical_state_dir(&dir),
        fx.root
            .join(".git")
            .canonicalize()
            .expect("canon")
            .join("lexibrarian")
    );

    let wt = fx.tmp.path().join("linked wt");
    fx.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "wt",
        wt.to_str().expect("utf8"),
    ]);
    let linked = GitRepo::discover(&wt.join("."))
        .expect("discover")
        .expect("repo");
    assert_eq!(
        linked.workdir().canonicalize().expect("canon"),
        wt.canonicalize().expect("canon")
    );
    let linked_dir = linked.state_dir();
    assert!(linked_dir.is_absolute());
    assert_eq!(
        canonical_state_dir(&linked_dir),
        git_path_lexibrarian(&fx, &wt)
    );
    assert!(linked_dir.to_string_lossy().contains("worktrees"));
    assert_ne!(canonical_state_dir(&linked_dir), canonical_state_dir(&dir));
    // The linked worktree sees its own HEAD and status.
    assert_eq!(
        linked.head_commit().expect("head"),
        repo.head_commit().expect("head")
    );
    std::fs::write(wt.join("wt_only.rs"), "w").expect("write");
    assert_eq!(
        linked.dirty().expect("dirty"),
        vec![Change::Added(s("wt_only.rs"))]
    );
    assert_eq!(repo.dirty().expect("dirty"), vec![]);
}

#[test]
fn operation_in_progress_during_conflicted_cherry_pick_and_merge() {
    let fx = Fixture::new();
    fx.write("conflict.rs", "base\n");
    fx.commit_all("base");
    fx.git(&["checkout", "-q", "-b", "other"]);
    fx.write("conflict.rs", "other\n");
    let other = fx.commit_all("other");
    fx.git(&["checkout", "-q", "main"]);
    fx.write("conflict.rs", "main\n");
    fx.commit_all("main");

    let repo = fx.open();
    assert_eq!(repo.operation_in_progress(), None);

    let out = fx.git_output(&["cherry-pick", &other.to_hex()]);
    assert!(!out.status.success(), "cherry-pick should conflict");
    assert_eq!(repo.operation_in_progress(), Some(Operation::CherryPick));
    // Status still works with a conflicted index.
    let dirty = repo.dirty().expect("dirty during conflict");
    assert!(
        dirty.contains(&Change::Modified(s("conflict.rs"))),
        "{dirty:?}"
    );
    fx.git(&["cherry-pick", "--abort"]);
    assert_eq!(repo.operation_in_progress(), None);

    let out = fx.git_output(&["merge", "-q", "other"]);
    assert!(!out.status.success(), "merge should conflict");
    assert_eq!(repo.operation_in_progress(), Some(Operation::Merge));
    fx.git(&["merge", "--abort"]);
    assert_eq!(repo.operation_in_progress(), None);
    assert_eq!(repo.dirty().expect("dirty"), vec![]);
}

#[test]
fn tracked_changes_outside_skips_one_directory_and_untracked_files() {
    let fx = Fixture::new();
    fx.write("src/a.rs", "a");
    fx.write(".lexibrary/src/a.rs.md", "design");
    fx.commit_all("base");
    fx.write("src/a.rs", "changed");
    fx.write(".lexibrary/src/a.rs.md", "edited design");
    fx.write(".lexibrary/new.md", "untracked");
    fx.write("src/new.rs", "untracked");
    let repo = fx.open();
    assert_eq!(
        repo.tracked_changes_outside(".lexibrary").expect("status"),
        vec![Change::Modified(s("src/a.rs"))]
    );
    assert_eq!(repo.dirty().expect("status").len(), 4);
}

#[test]
fn the_index_is_compared_with_head_unless_its_cache_tree_says_it_is_head() {
    let fx = Fixture::new();
    fx.write("a.rs", "a");
    fx.commit_all("base");
    fx.write("a.rs", "a2");
    fx.commit_all("second");
    let repo = fx.open();
    let index = |repo: &GitRepo| repo.repo.index_or_empty().expect("index");
    // Right after a commit git's cache-tree names HEAD's tree: nothing can be staged.
    assert!(repo.index_matches_head(&index(&repo)));
    assert_eq!(repo.tracked_changes_outside("").expect("status"), vec![]);

    // HEAD moves back, the index stays: the index is a valid tree, but not HEAD's.
    fx.git(&["reset", "-q", "--soft", "HEAD~1"]);
    let repo = fx.open();
    assert!(!repo.index_matches_head(&index(&repo)));
    assert_eq!(
        repo.tracked_changes_outside("").expect("status"),
        vec![Change::Modified(s("a.rs"))]
    );

    // Staging invalidates the cache-tree.
    fx.git(&["commit", "-q", "-m", "again"]);
    fx.write("b.rs", "b");
    fx.git(&["add", "b.rs"]);
    let repo = fx.open();
    assert!(!repo.index_matches_head(&index(&repo)));
    assert_eq!(
        repo.dirty().expect("status"),
        vec![Change::Added(s("b.rs"))]
    );
}

#[test]
fn the_index_is_read_without_verifying_its_checksum_as_git_reads_it() {
    let fx = Fixture::new();
    fx.write("a.rs", "a");
    fx.commit_all("base");
    let index = fx.root.join(".git/index");
    let mut bytes = std::fs::read(&index).expect("index");
    let last = bytes.len() - 1;
    bytes[last] ^= 0xff; // a damaged trailing checksum; `git status` does not look at it either
    std::fs::write(&index, bytes).expect("write");
    assert!(fx.open().is_tracked("a.rs"));
    assert_eq!(fx.open().dirty().expect("status"), vec![]);
}

#[test]
fn tracked_paths_and_global_excludes() {
    let fx = Fixture::new();
    fx.write("a.rs", "a");
    fx.commit_all("base");
    fx.write("b.rs", "untracked");
    let repo = fx.open();
    assert!(repo.is_tracked("a.rs"));
    assert!(!repo.is_tracked("b.rs"));
    // The fixture's git runs with its own GIT_CONFIG_GLOBAL; the process environment decides
    // the XDG default, so only check the config key here.
    fx.git(&["config", "core.excludesFile", "/tmp/nonexistent-excludes"]);
    assert!(fx.open().has_global_excludes());
}

mod notes {
    use super::*;
    use crate::git::notes::{blob_id, NoteAppend, PROVENANCE_NOTES, STACK_NOTES};

    fn open(fx: &Fixture) -> GitRepo {
        GitRepo::discover(&fx.root).expect("open").expect("repo")
    }

    #[test]
    fn an_undoable_append_is_taken_back_unless_the_ref_moved_since() {
        let fx = Fixture::new();
        let repo = open(&fx);
        let anchor = repo.write_blob(b"lexibrarian:stack:ST-001\n").unwrap();
        let append = |line: &str| {
            vec![NoteAppend {
                object: anchor,
                lines: line.to_string(),
            }]
        };
        // The first event of a new ref: taken back, the ref is gone again.
        let first = repo
            .append_notes_undoable(STACK_NOTES, &append("{\"n\":1}"), "vote")
            .unwrap();
        repo.undo_append(first).unwrap();
        assert!(!repo.has_notes_ref(STACK_NOTES));
        // A later one: the ref goes back to the event before.
        repo.append_notes(STACK_NOTES, &append("{\"n\":1}"), "vote")
            .unwrap();
        let second = repo
            .append_notes_undoable(STACK_NOTES, &append("{\"n\":2}"), "vote")
            .unwrap();
        repo.undo_append(second).unwrap();
        assert_eq!(
            repo.note(STACK_NOTES, &anchor).unwrap().unwrap(),
            "{\"n\":1}\n"
        );
        fx.git(&["notes", "--ref", STACK_NOTES, "list"]);
        // Someone appended meanwhile: nothing is taken back, and it says so.
        let third = repo
            .append_notes_undoable(STACK_NOTES, &append("{\"n\":3}"), "vote")
            .unwrap();
        repo.append_notes(STACK_NOTES, &append("{\"n\":4}"), "vote")
            .unwrap();
        assert!(repo.undo_append(third).is_err());
        assert_eq!(
            repo.note(STACK_NOTES, &anchor)
                .unwrap()
                .unwrap()
                .lines()
                .count(),
            3
        );
    }

    #[test]
    fn appended_notes_are_read_back_by_git_and_by_us() {
        let fx = Fixture::new();
        let repo = open(&fx);
        let anchor = repo.write_blob(b"lexibrarian:stack:ST-001\n").unwrap();
        assert_eq!(
            anchor,
            blob_id(Default::default(), b"lexibrarian:stack:ST-001\n").unwrap()
        );
        let append = |line: &str| NoteAppend {
            object: anchor,
            lines: line.to_string(),
        };
        repo.append_notes(STACK_NOTES, &[append("{\"n\":1}")], "vote")
            .unwrap();
        repo.append_notes(STACK_NOTES, &[append("{\"n\":2}\n")], "vote")
            .unwrap();
        let shown = fx.git(&["notes", "--ref", STACK_NOTES, "show", &anchor.to_hex()]);
        assert_eq!(shown, "{\"n\":1}\n{\"n\":2}");
        // A line appended by git itself is read back too.
        fx.git(&[
            "notes",
            "--ref",
            STACK_NOTES,
            "append",
            "--no-separator",
            "-m",
            "{\"n\":3}",
            &anchor.to_hex(),
        ]);
        let ours = repo.note(STACK_NOTES, &anchor).unwrap().unwrap();
        assert_eq!(
            ours.lines().collect::<Vec<_>>(),
            ["{\"n\":1}", "{\"n\":2}", "{\"n\":3}"]
        );
        assert!(repo.has_notes_ref(STACK_NOTES));
        assert_eq!(
            repo.note(STACK_NOTES, &blob_id(Default::default(), b"other").unwrap())
                .unwrap(),
            None
        );
    }

    /// Loose object files under `.git/objects/xx/`.
    fn loose_objects(fx: &Fixture) -> usize {
        std::fs::read_dir(fx.root.join(".git/objects"))
            .unwrap()
            .flatten()
            .filter(|dir| dir.file_name().len() == 2)
            .map(|dir| std::fs::read_dir(dir.path()).unwrap().count())
            .sum()
    }

    /// The same text twice in one large append (two design files written with the same bytes):
    /// its note gets both lines, in order.
    #[test]
    fn an_object_twice_in_one_packed_append_gets_both_lines() {
        let fx = Fixture::new();
        let repo = open(&fx);
        let mut appends: Vec<NoteAppend> = (0..crate::git::pack::PACK_FROM_NOTES)
            .map(|i| NoteAppend {
                object: blob_id(Default::default(), format!("design {i}\n").as_bytes()).unwrap(),
                lines: format!("{{\"n\":{i}}}"),
            })
            .collect();
        appends.push(NoteAppend {
            object: appends[3].object,
            lines: "{\"n\":\"again\"}\n".into(),
        });
        repo.append_notes(PROVENANCE_NOTES, &appends, "twice")
            .unwrap();
        let note = open(&fx)
            .note(PROVENANCE_NOTES, &appends[3].object)
            .unwrap()
            .unwrap();
        assert_eq!(note, "{\"n\":3}\n{\"n\":\"again\"}\n");
        fx.git(&["fsck", "--strict", "--no-dangling"]);
    }

    #[test]
    fn many_notes_at_once_go_into_one_pack_that_git_reads() {
        let fx = Fixture::new();
        let repo = open(&fx);
        // More objects than the pack writer compresses at a time: the pack is streamed in chunks.
        let count = crate::git::pack::ENCODE_CHUNK + crate::git::pack::PACK_FROM_NOTES;
        let anchors: Vec<Oid> = (0..count)
            .map(|i| blob_id(Default::default(), format!("design {i}\n").as_bytes()).unwrap())
            .collect();
        let appends: Vec<NoteAppend> = anchors
            .iter()
            .enumerate()
            .map(|(i, anchor)| NoteAppend {
                object: *anchor,
                lines: format!("{{\"n\":{i}}}"),
            })
            .collect();
        let before = loose_objects(&fx);
        repo.append_notes(PROVENANCE_NOTES, &appends, "many")
            .unwrap();
        assert_eq!(loose_objects(&fx), before, "no loose object per note");
        // A second large append reads the first one's notes out of its pack.
        let again: Vec<NoteAppend> = appends
            .iter()
            .map(|append| NoteAppend {
                lines: "{\"again\":true}".into(),
                ..append.clone()
            })
            .collect();
        repo.append_notes(PROVENANCE_NOTES, &again, "again")
            .unwrap();
        let fresh = open(&fx);
        for (i, anchor) in anchors.iter().enumerate() {
            let note = fresh.note(PROVENANCE_NOTES, anchor).unwrap().unwrap();
            assert_eq!(note, format!("{{\"n\":{i}}}\n{{\"again\":true}}\n"));
        }
        let shown = fx.git(&[
            "notes",
            "--ref",
            PROVENANCE_NOTES,
            "show",
            &anchors[7].to_hex(),
        ]);
        assert_eq!(shown, "{\"n\":7}\n{\"again\":true}");
        fx.git(&["fsck", "--strict", "--no-dangling"]);
        for index in std::fs::read_dir(fx.root.join(".git/objects/pack"))
            .unwrap()
            .flatten()
        {
            if index.path().extension().is_some_and(|ext| ext == "idx") {
                let index = index.path().to_string_lossy().into_owned();
                fx.git(&["verify-pack", &index]);
            }
        }
        let packs = std::fs::read_dir(fx.root.join(".git/objects/pack"))
            .unwrap()
            .flatten()
            .map(|entry| entry.file_name().to_string_lossy().into_owned())
            .collect::<Vec<_>>();
        assert_eq!(
            packs.iter().filter(|name| name.ends_with(".pack")).count(),
            2,
            "{packs:?}"
        );
        assert!(
            !packs.iter().any(|name| name.ends_with(".keep")),
            "{packs:?}"
        );
    }

    #[test]
    fn notes_commits_fall_back_to_a_fixed_identity() {
        let fx = Fixture::new();
        // No identity anywhere: the fixture's env vars are not set for this in-process open,
        // and the repo config has none, unless the test runner's environment provides one.
        let repo = open(&fx);
        let anchor = repo.write_blob(b"x").unwrap();
        repo.append_notes(
            STACK_NOTES,
            &[NoteAppend {
                object: anchor,
                lines: "a".into(),
            }],
            "m",
        )
        .unwrap();
        let committer = fx.git(&["log", "-1", "--format=%cn", STACK_NOTES]);
        let expected = repo
            .identity()
            .map_or("Lexibrarian".to_string(), |id| id.name);
        assert_eq!(committer, expected);
    }

    #[test]
    fn concurrent_appends_lose_nothing() {
        let fx = Fixture::new();
        let anchor = open(&fx).write_blob(b"lexibrarian:stack:ST-002\n").unwrap();
        let threads: Vec<_> = (0..16)
            .map(|i| {
                let root = fx.root.clone();
                std::thread::spawn(move || {
                    let repo = GitRepo::discover(&root).unwrap().unwrap();
                    repo.append_notes(
                        STACK_NOTES,
                        &[NoteAppend {
                            object: anchor,
                            lines: format!("line {i}"),
                        }],
                        "concurrent",
                    )
                    .unwrap();
                })
            })
            .collect();
        for thread in threads {
            thread.join().unwrap();
        }
        let note = open(&fx).note(STACK_NOTES, &anchor).unwrap().unwrap();
        let mut lines: Vec<_> = note.lines().collect();
        lines.sort();
        let mut expected: Vec<_> = (0..16).map(|i| format!("line {i}")).collect();
        expected.sort();
        assert_eq!(lines, expected);
    }
}

#[test]
fn the_commit_that_introduced_a_file_is_found_on_the_first_parent_line() {
    let fx = Fixture::new();
    fx.write("a.rs", "a");
    fx.commit_all("one");
    fx.write("post.md", "p");
    let added = fx.commit_all("adds the post");
    fx.write("a.rs", "b");
    let head = fx.commit_all("later");
    let repo = fx.open();
    assert_eq!(
        repo.introducing_commit(&head, "post.md", 100)
            .expect("walk"),
        Some(added)
    );
    assert!(repo
        .introducing_commit(&head, "a.rs", 100)
        .expect("walk")
        .is_some());
    assert_eq!(
        repo.introducing_commit(&head, "none.md", 100)
            .expect("walk"),
        None
    );
    // A bounded walk returns the oldest commit it saw with the file.
    assert_eq!(
        repo.introducing_commit(&head, "post.md", 1).expect("walk"),
        Some(head)
    );
}

#[test]
fn a_submodule_bump_is_noted_beside_the_file_changes() {
    let fx = Fixture::new();
    fx.write("a.rs", "a");
    let first = fx.commit_all("one");
    let sub_commit = "0123456789abcdef0123456789abcdef01234567";
    fx.git(&[
        "update-index",
        "--add",
        "--cacheinfo",
        &format!("160000,{sub_commit},vendor/lib"),
    ]);
    fx.git(&["commit", "-q", "-m", "submodule"]);
    let second = oid(&fx.git(&["rev-parse", "HEAD"]));
    let repo = fx.open();
    assert_eq!(
        repo.diff_commits(Some(&first), &second).expect("diff"),
        vec![]
    );
    assert_eq!(
        repo.gitlinks_changed(),
        vec![crate::git::GitlinkChange {
            path: s("vendor/lib"),
            from: None,
            to: Some(oid(sub_commit)),
        }]
    );
    fx.write("a.rs", "b");
    fx.git(&["add", "a.rs"]);
    fx.git(&["commit", "-q", "-m", "no bump"]);
    let third = oid(&fx.git(&["rev-parse", "HEAD"]));
    repo.diff_commits(Some(&second), &third).expect("diff");
    assert_eq!(repo.gitlinks_changed(), vec![]);
}
