//! `git-lexictl`: makes `git lexictl <command>` work. A small launcher that runs the `lexictl`
//! installed beside it (see `launcher/exec.rs`); `lexictl` names itself `git lexictl` when started
//! under this name.
#[path = "launcher/exec.rs"]
mod launcher;

fn main() -> std::process::ExitCode {
    launcher::exec("lexictl", "git-lexictl")
}
