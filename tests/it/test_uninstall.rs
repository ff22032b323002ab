//! `lexictl setup --uninstall [--purge] [--dry-run] [--yes]`: everything Lexibrarian added comes out,
//! files it did not create are restored byte for byte, and a second run finds nothing to do.

use crate::support::{project, TestProject};

const USER_HOOK: &str = "#!/bin/sh\necho 'my own post-commit'\n";

/// A committed project with its own `.gitignore`, `CLAUDE.md`, Claude settings and post-commit hook,
/// and a remote; nothing of Lexibrarian's yet.
fn untouched() -> TestProject {
    let p = project()
        .fixture("rust")
        .file(".gitignore", "target/\n")
        .file("CLAUDE.md", "# House rules\n\nRun the tests.\n")
        .file(".claude/settings.json", "{\n  \"permissions\": {}\n}\n")
        .build();
    p.clone_bare_to("remote.git");
    p.git(["remote", "add", "origin", "../remote.git"])
        .success();
    p.write(".git/hooks/post-commit", USER_HOOK);
    p
}

/// Everything Lexibrarian can add: init for Claude, update, hooks, notes config, MCP entries.
fn everything_added(p: &TestProject) {
    p.lexictl(["init", "--yes", "--agents", "claude"]).success();
    p.lexictl(["update"]).success();
    p.lexictl(["setup", "--hooks"]).success();
    p.lexictl(["setup", "--mcp", "--agents", "claude"])
        .success();
}

fn lexibrarian_config(p: &TestProject) -> String {
    p.git(["config", "--local", "--list"])
        .success()
        .stdout
        .lines()
        .filter(|line| line.contains("lexibrarian"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn uninstall_restores_every_file_outside_the_library_and_is_idempotent() {
    let p = untouched();
    let before: Vec<(&str, String)> = [".gitignore", "CLAUDE.md", ".claude/settings.json"]
        .into_iter()
        .map(|rel| (rel, p.read(rel)))
        .collect();
    let config_before = p.read(".git/config");
    everything_added(&p);
    assert!(p.exists(".mcp.json") && p.exists(".git/hooks/post-merge"));
    assert!(!lexibrarian_config(&p).is_empty());

    // The dry run says what would go and changes nothing.
    let dry = p.lexictl(["setup", "--uninstall", "--dry-run"]).success();
    dry.stdout_has("dry run: nothing was changed")
        .stdout_has(".git/hooks/post-commit: removed the block")
        .stdout_has(".git/hooks/post-merge: deleted (nothing else was in it)")
        .stdout_has("git config: removed notes.lexibrarian/stack.mergeStrategy cat_sort_uniq")
        .stdout_has(".mcp.json: ");
    assert!(p.exists(".mcp.json") && p.exists(".git/hooks/post-merge"));

    let out = p.lexictl(["setup", "--uninstall"]).success();
    out.stdout_has("CLAUDE.md: removed the Lexibrarian section")
        .stdout_has(".gitignore: removed the lines Lexibrarian added");
    for (rel, text) in &before {
        assert_eq!(&p.read(rel), text, "{rel} is restored byte for byte");
    }
    assert_eq!(p.read(".git/hooks/post-commit"), USER_HOOK);
    for created in [
        ".mcp.json",
        ".claude/skills",
        ".git/hooks/post-merge",
        ".git/hooks/pre-push",
    ] {
        assert!(
            !p.exists(created),
            "{created} was created by Lexibrarian and is gone"
        );
    }
    assert_eq!(lexibrarian_config(&p), "");
    assert_eq!(
        p.read(".git/config"),
        config_before,
        "no empty sections left"
    );
    // The library itself stays; only the parts outside it went.
    assert!(p.exists(".lexibrary/config.yaml") && p.exists(".lexignore"));
    let status = p.git(["status", "--porcelain"]).success().stdout;
    assert_eq!(status, "?? .lexibrary/\n?? .lexignore\n");

    p.lexictl(["setup", "--uninstall"])
        .success()
        .stdout_is("nothing to remove: Lexibrarian added nothing here that is still in place\n");
}

#[test]
fn purge_asks_unless_told_and_then_leaves_the_repository_as_it_was() {
    let p = untouched();
    let before = p.git(["status", "--porcelain"]).success().stdout;
    everything_added(&p);
    assert!(!p
        .git(["for-each-ref", "refs/notes/lexibrarian/"])
        .success()
        .stdout
        .is_empty());

    // No terminal to confirm on: refuse, remove nothing, say how.
    p.lexictl(["setup", "--uninstall", "--purge"])
        .code(1)
        .stderr_has("stdin is not a terminal to confirm it")
        .stderr_has("--dry-run");
    assert!(p.exists(".lexibrary/config.yaml") && p.exists(".mcp.json"));

    p.lexictl(["setup", "--uninstall", "--purge", "--dry-run"])
        .success()
        .stdout_has(".lexibrary: deleted")
        .stdout_has("refs/notes/lexibrarian/");
    assert!(p.exists(".lexibrary/config.yaml"));

    let json = p
        .lexictl([
            "setup",
            "--uninstall",
            "--purge",
            "--yes",
            "--format",
            "json",
        ])
        .json();
    assert_eq!(json["dry_run"], false);
    assert!(!p.exists(".lexibrary") && !p.exists(".lexignore"));
    assert!(!p.exists(".git/lexibrarian"));
    let refs = p
        .git(["for-each-ref", "refs/notes/", "refs/lexibrarian/"])
        .success();
    assert_eq!(refs.stdout, "");
    assert_eq!(p.git(["status", "--porcelain"]).success().stdout, before);
    assert_eq!(lexibrarian_config(&p), "");

    // Again, with nothing left (not even .lexibrary/): still fine.
    p.lexictl(["setup", "--uninstall", "--purge", "--yes"])
        .success()
        .stdout_has("nothing to remove");
}

#[test]
fn a_changed_entry_is_kept_and_named() {
    let p = untouched();
    everything_added(&p);
    let claude = p
        .read("CLAUDE.md")
        .replace("lexi lookup", "lexi lookup (always!)");
    p.write("CLAUDE.md", &claude);
    p.lexictl(["setup", "--uninstall"])
        .success()
        .stdout_has("note: CLAUDE.md: what Lexibrarian added (rules.claude) was changed since");
    assert_eq!(p.read("CLAUDE.md"), claude);
}
