//! `lexictl`: the maintenance CLI. A small launcher that runs the `lexi` executable installed beside
//! it under the name `lexictl` (see `launcher/exec.rs`), which makes it run the maintenance CLI.
#[path = "launcher/exec.rs"]
mod launcher;

fn main() -> std::process::ExitCode {
    launcher::exec("lexi", "lexictl")
}
