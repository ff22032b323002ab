//! `lexictl`: the maintenance CLI. All logic lives in the library crate.
fn main() -> std::process::ExitCode {
    lexibrarian::cli::run_lexictl("lexictl", std::env::args_os())
}
