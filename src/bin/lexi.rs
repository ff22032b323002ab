//! `lexi`: the one Lexibrarian executable. All logic lives in the library crate. It runs the
//! agents' CLI, or the maintenance CLI when started as `lexictl`, and names itself `git lexi` /
//! `git lexictl` when started under those names — by the launchers installed beside it
//! (`launcher/exec.rs`) or through links so named ([`lexibrarian::cli::Program`]).

/// mimalloc, for the many small allocations of an update (see `Cargo.toml`).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    lexibrarian::cli::run_program(std::env::args_os())
}
