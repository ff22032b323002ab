//! Build script: probes for the external tools some integration tests need and sets a `has_<tool>`
//! cfg for each one that runs (`<tool> --version` succeeds). A test that needs a tool is marked
//! `#[cfg_attr(not(has_man), ignore = "needs `man` on PATH")]`, so a missing tool shows as an
//! ignored test with its reason, never as a silent pass (cargo's `#[cargo_test(requires = "hg")]`,
//! without a proc-macro crate). The product does not use these cfgs.
//!
//! The probe runs when this file changes, not on every build: after installing a tool, `touch
//! build.rs` (or `cargo clean -p lexibrarian`) to let its tests run.

use std::process::{Command, Stdio};

/// Tools the test suite can use: `man` (rendering the generated pages), `bash` (completion
/// scripts, the CI recipes of docs/ci.md), `pre-commit` (the configuration `setup --hooks` prints),
/// `actionlint` (the workflows of docs/ci.md). A `-` in the name is `_` in the cfg (`has_pre_commit`).
const TOOLS: &[&str] = &["man", "bash", "pre-commit", "actionlint"];

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    for tool in TOOLS {
        let cfg = tool.replace('-', "_");
        println!("cargo::rustc-check-cfg=cfg(has_{cfg})");
        let runs = Command::new(tool)
            .arg("--version")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if runs {
            println!("cargo::rustc-cfg=has_{cfg}");
        }
    }
}
