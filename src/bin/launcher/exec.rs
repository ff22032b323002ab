//! The launcher behind `lexictl`, `git-lexi` and `git-lexictl`: a few hundred kilobytes that run the
//! one full program installed beside them (`lexi`) in their place, so that an install holds one copy
//! of Lexibrarian instead of one per CLI (a multi-call executable, as busybox is, without relying on
//! links an installer may not make). The program is started with `argv[0]` set to the launcher's
//! name, which picks the CLI and the name shown in usage and help (`lexibrarian::cli::Program`). The
//! process is replaced (`exec`): exit codes, signals, standard input and output are the program's own.

use std::ffi::OsString;
use std::os::unix::process::CommandExt as _;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

/// Replace this process with `program` (found beside this executable, else on `PATH`), named
/// `launcher` in its `argv[0]`, with this process's arguments. Returns only when that fails.
pub fn exec(program: &str, launcher: &str) -> ExitCode {
    let path = beside_this_executable(program).unwrap_or_else(|| PathBuf::from(program));
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let err = Command::new(&path).arg0(launcher).args(args).exec();
    eprintln!("{launcher}: cannot run {}: {err}", path.display());
    eprintln!(
        "hint: `{launcher}` runs `{program}`, which is installed with it (`cargo install lexibrarian` installs all four); put `{program}` beside `{launcher}` or on PATH"
    );
    ExitCode::from(1)
}

/// `program` in the directory of the running executable (symlinks to it resolved), if it is there.
fn beside_this_executable(program: &str) -> Option<PathBuf> {
    let this = std::env::current_exe().ok()?;
    let candidate = this.parent()?.join(program);
    candidate.is_file().then_some(candidate)
}
