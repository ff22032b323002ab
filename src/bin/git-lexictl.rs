//! `git-lexictl`: makes `git lexictl <command>` work. A small launcher that runs the `lexi`
//! executable installed beside it under the name `git-lexictl` (see `launcher/exec.rs`), which makes
//! it run the maintenance CLI and name itself `git lexictl`.
#[path = "launcher/exec.rs"]
mod launcher;

fn main() -> std::process::ExitCode {
    launcher::exec("lexi", "git-lexictl")
}
