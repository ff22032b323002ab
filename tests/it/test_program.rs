//! One executable, four names: `lexi` holds both CLIs and `argv[0]` picks one; `lexictl`, `git-lexi`
//! and `git-lexictl` are small launchers that start it under their own name (the hook worker started
//! from it stays the maintenance CLI: tests/it/test_hooks.rs). Links so named work as the launchers
//! do, and a launcher without its program says what to install.

use std::os::unix::fs::symlink;

use crate::support::{bin_dir, project};

#[test]
fn a_link_named_for_a_cli_runs_that_cli_from_the_one_executable() {
    let p = project().build();
    std::fs::create_dir(p.path("links")).expect("links dir");
    for name in ["lexictl", "git-lexictl", "git-lexi"] {
        symlink(bin_dir().join("lexi"), p.path(&format!("links/{name}"))).expect("link");
    }
    p.cmd(p.path("links/lexictl"), ["--version"])
        .success()
        .stdout_is("lexictl 0.1.0\n");
    p.cmd(p.path("links/git-lexictl"), ["--help"])
        .success()
        .stdout_has("Usage: git lexictl <COMMAND>")
        .stdout_has("maintenance CLI");
    p.cmd(p.path("links/git-lexi"), ["--help"])
        .success()
        .stdout_has("Usage: git lexi <COMMAND>");
    // Any other name is the agents' CLI.
    symlink(bin_dir().join("lexi"), p.path("links/lexi-renamed")).expect("link");
    p.cmd(p.path("links/lexi-renamed"), ["--version"])
        .success()
        .stdout_is("lexi 0.1.0\n");
}

#[test]
fn a_launcher_without_its_program_beside_it_says_what_to_install() {
    let p = project().build();
    std::fs::create_dir(p.path("alone")).expect("dir");
    std::fs::copy(bin_dir().join("lexictl"), p.path("alone/lexictl")).expect("copy launcher");
    p.cmd(p.path("alone/lexictl"), ["status"])
        .without_bins()
        .code(1)
        .stderr_has("lexictl: cannot run lexi")
        .stderr_has("hint: `lexictl` runs `lexi`");
}
