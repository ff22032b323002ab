//! `git-lexi`: makes `git lexi <command>` work. A small launcher that runs the `lexi` installed
//! beside it (see `launcher/exec.rs`); `lexi` names itself `git lexi` when started under this name.
#[path = "launcher/exec.rs"]
mod launcher;

fn main() -> std::process::ExitCode {
    launcher::exec("lexi", "git-lexi")
}
