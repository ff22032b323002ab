//! `git-lexi`: makes `git lexi <command>` work. A small launcher that runs the `lexi` executable
//! installed beside it under the name `git-lexi` (see `launcher/exec.rs`), which makes it name itself
//! `git lexi`.
#[path = "launcher/exec.rs"]
mod launcher;

fn main() -> std::process::ExitCode {
    launcher::exec("lexi", "git-lexi")
}
