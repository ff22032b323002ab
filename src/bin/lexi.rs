//! `lexi`: the agent-facing CLI. All logic lives in the library crate. Started as `git-lexi` (by
//! the launcher of that name, or through a link so named) it names itself `git lexi` in usage.
fn main() -> std::process::ExitCode {
    let program = match lexibrarian::cli::invoked_as("git-lexi") {
        true => "git lexi",
        false => "lexi",
    };
    lexibrarian::cli::run_lexi(program, std::env::args_os())
}
