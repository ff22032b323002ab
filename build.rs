//! Build script: probes for the external tools some integration tests need and sets a `has_<tool>`
//! cfg for each one found, and `LEXI_TOOL_<TOOL>` (its path) for the tests to run it by. A test that
//! needs a tool is marked `#[cfg_attr(not(has_man), ignore = "needs `man` on PATH")]`, so a missing
//! tool shows as an ignored test with its reason, never as a silent pass (cargo's
//! `#[cargo_test(requires = "hg")]`, without a proc-macro crate). The product does not use these.
//!
//! A tool is looked for on `PATH`, then where `.ci/run` installs the hook managers once (cached under
//! `target/hook-tools/`: `pre-commit` in a Python venv, `husky` and `lefthook` from npm).
//!
//! The probe runs when this file changes, not on every build: after installing a tool, `touch
//! build.rs` (or `cargo clean -p lexibrarian`) to let its tests run. `.ci/run` touches it after it
//! installs the hook managers.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Tools the test suite can use: `man` (rendering the generated pages), `bash` (completion
/// scripts, the CI recipes of docs/ci.md), `pre-commit`, `husky` and `lefthook` (the hook managers
/// the team flow is tested under), `actionlint` (the workflows of docs/ci.md). A `-` in the name is
/// `_` in the cfg (`has_pre_commit`) and the variable (`LEXI_TOOL_PRE_COMMIT`).
const TOOLS: &[&str] = &[
    "man",
    "bash",
    "pre-commit",
    "actionlint",
    "husky",
    "lefthook",
];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let installed = manifest.join("target/hook-tools");
    for tool in TOOLS {
        let cfg = tool.replace('-', "_");
        println!("cargo::rustc-check-cfg=cfg(has_{cfg})");
        if let Some(path) = find(tool, &installed) {
            println!("cargo::rustc-cfg=has_{cfg}");
            println!(
                "cargo::rustc-env=LEXI_TOOL_{}={}",
                cfg.to_uppercase(),
                path.display()
            );
        }
    }
}

/// Where `tool` runs from: `PATH`, else the hook managers' install under `installed`.
fn find(tool: &str, installed: &Path) -> Option<PathBuf> {
    let candidates = [
        installed.join("venv/bin").join(tool),
        installed.join("npm/node_modules/.bin").join(tool),
    ];
    if runs(Path::new(tool)) {
        return Some(PathBuf::from(tool));
    }
    candidates.into_iter().find(|path| runs(path))
}

/// Whether `program` is there and works. husky has no harmless flag (any argument is a directory
/// to install into), so it counts when its launcher exists and node runs.
fn runs(program: &Path) -> bool {
    if program.file_name().is_some_and(|name| name == "husky") {
        return program.is_file() && succeeds(Command::new("node").arg("--version"));
    }
    succeeds(Command::new(program).arg("--version"))
}

fn succeeds(command: &mut Command) -> bool {
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|status| status.success())
}
