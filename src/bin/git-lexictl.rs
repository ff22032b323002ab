//! `git-lexictl`: makes `git lexictl <command>` work; the same code as `lexictl`.
fn main() -> std::process::ExitCode {
    lexibrarian::cli::run_lexictl("git lexictl", std::env::args_os())
}
