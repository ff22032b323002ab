//! `lexictl`: the maintenance CLI. All logic lives in the library crate. Started as `git-lexictl`
//! (by the launcher of that name, or through a link so named) it names itself `git lexictl`.
/// mimalloc, for the many small allocations of a run (see `Cargo.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let program = match lexibrarian::cli::invoked_as("git-lexictl") {
        true => "git lexictl",
        false => "lexictl",
    };
    lexibrarian::cli::run_lexictl(program, std::env::args_os())
}
