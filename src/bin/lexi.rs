//! `lexi`: the agent-facing CLI. All logic lives in the library crate.
fn main() -> std::process::ExitCode {
    lexibrarian::cli::run_lexi("lexi", std::env::args_os())
}
