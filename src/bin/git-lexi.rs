//! `git-lexi`: makes `git lexi <command>` work; the same code as `lexi`, with usage naming `git lexi`.
fn main() -> std::process::ExitCode {
    lexibrarian::cli::run_lexi("git lexi", std::env::args_os())
}
