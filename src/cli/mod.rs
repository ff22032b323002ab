//! The command-line interface of both CLIs (one executable; `argv[0]` picks one: [`Program`]): argument
//! definitions, dispatch, output and exit codes.
//!
//! `lexi` is for coding agents (read the library, write back to it); `lexictl` is for maintainers, hooks
//! and CI. `git-lexi` and `git-lexictl` run the same code under the names `git lexi` / `git lexictl`.
//! Each subcommand lives in its own file under [`commands`]. Exit codes: 0 ok, 1 error (bad input, I/O,
//! git), 2 findings (checks that found problems) and a missing subcommand (clap's convention: the
//! help goes to stderr).
//!
//! `--format` is per command, offered only where it applies. To give a new command `--format json`:
//! 1. add `#[command(flatten)] pub output: FormatArg` to its `Args` (`ReportFormatArg` for a command
//!    that also prints GitHub annotations, read as `args.output.format`);
//! 2. return `args.output.format` from its arm of [`LexiCommand::format`] / [`LexictlCommand::format`];
//! 3. read the choice as `ctx.format` in its `run`.
//!
//! A command without the field has no `--format` at all (`lexi mcp`, `lexictl completions`, the hooks).

pub mod commands;
pub mod output;
pub mod progress;
pub mod values;

use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

pub use output::{Format, FormatArg, ReportFormat, ReportFormatArg};

/// What a successful command reports to the process exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit 0.
    Ok,
    /// Exit 2: the command ran and found problems.
    Findings,
    /// Exit 1: the command ran to the end but part of its work failed (it has said what).
    Failed,
}

/// Everything a command needs from its environment.
pub struct Context {
    pub cwd: std::path::PathBuf,
    pub format: Format,
    /// Name the user invoked, for messages (`lexi`, `git lexi`, …).
    pub program: String,
}

impl Context {
    /// The working tree the command runs in (found by walking up to `.lexibrary/`), opened once.
    pub fn workspace(&self) -> Result<crate::workspace::Workspace, crate::project::ProjectError> {
        crate::workspace::Workspace::discover(&self.cwd)
    }
}

const LEXI_ABOUT: &str =
    "Read and write the codebase library: the agent-facing CLI of Lexibrarian.";
const LEXI_LONG_ABOUT: &str = "\
Read and write the codebase library: the agent-facing CLI of Lexibrarian.

The library lives in .lexibrary/ next to your code: a design file per source file (src/a.rs is
documented by .lexibrary/src/a.rs.md) and a .aindex per directory. Start every session with
.lexibrary/START_HERE.md (`lexi orient` prints it with the library's health), then:

  lexi index src           what is in src/, and the conventions that apply there
  lexi lookup src/a.rs     what src/a.rs is for, its interface and who depends on it
  lexi context src/a.rs    all of that plus linked concepts and Stack posts, within a budget
  lexi impact src/a.rs     what a change to src/a.rs reaches: dependents, tests, concepts
  lexi search <words>      design files, concepts and Stack posts in one search
  lexi conventions src     the rules that apply in src/ (add one: lexi convention add)
  lexi stack search <w>    has anyone hit this problem before?

After you change a file, edit its design file directly and set `updated_by: agent`. Record what you
learn: `lexi stack post` for a solved problem, `lexi concept new` for a cross-cutting rule,
`lexi iwh write` when you leave a directory with work unfinished.";

/// `lexi`: the agent-facing CLI.
#[derive(Debug, Parser)]
#[command(name = "lexi", version, about = LEXI_ABOUT, long_about = LEXI_LONG_ABOUT)]
pub struct LexiCli {
    #[command(subcommand)]
    pub command: LexiCommand,
}

#[derive(Debug, Subcommand)]
pub enum LexiCommand {
    Orient(commands::orient::Args),
    Lookup(commands::lookup::Args),
    Index(commands::index::Args),
    Describe(commands::describe::Args),
    Context(commands::context::Args),
    Impact(commands::impact::Args),
    Conventions(commands::conventions::Args),
    Convention(commands::convention::Args),
    Search(commands::search::Args),
    Concepts(commands::concepts::Args),
    Concept(commands::concept::Args),
    Stack(commands::stack::Args),
    Iwh(commands::iwh::Args),
    Why(commands::why::Args),
    Mcp(commands::mcp::Args),
    Hook(commands::agent_hook::Args),
}

impl LexiCommand {
    /// The command's `--format`; `text` for the commands that have none.
    fn format(&self) -> Format {
        match self {
            LexiCommand::Orient(args) => args.output.format,
            LexiCommand::Lookup(args) => args.output.format,
            LexiCommand::Index(args) => args.output.format,
            LexiCommand::Describe(args) => args.output.format,
            LexiCommand::Context(args) => args.output.format,
            LexiCommand::Search(args) => args.output.format,
            LexiCommand::Concepts(args) => args.output.format,
            LexiCommand::Concept(args) => args.output.format,
            LexiCommand::Stack(args) => args.output.format,
            LexiCommand::Iwh(args) => args.output.format,
            LexiCommand::Why(args) => args.output.format,
            LexiCommand::Impact(args) => args.output.format,
            LexiCommand::Conventions(args) => args.output.format,
            LexiCommand::Convention(args) => args.output.format,
            LexiCommand::Mcp(_) | LexiCommand::Hook(_) => Format::Text,
        }
    }
}

const LEXICTL_ABOUT: &str =
    "Set up and maintain the codebase library: the maintenance CLI of Lexibrarian.";
const LEXICTL_LONG_ABOUT: &str = "\
Set up and maintain the codebase library: the maintenance CLI of Lexibrarian.

Agents use `lexi`; `lexictl` is for the people, hooks and CI jobs that keep the library healthy.

  lexictl init --yes       create .lexibrary/ with every default, no questions
  lexictl update           write and refresh design files, indexes and START_HERE.md
  lexictl update --check   exit 2 if the library is stale (for CI)
  lexictl validate         check links, budgets, hashes, Child Maps, the Stack and secrets
  lexictl status --quiet   one line when something needs attention, nothing when healthy
  lexictl review           what this branch did to the library, as a pull-request comment
  lexictl setup --hooks    keep the library current after every commit, in the background
  lexictl sweep --watch    update every hour, but only when something changed
  lexictl trust            use the project config's LLM provider and key variable on this clone";

/// `lexictl`: the maintenance CLI.
#[derive(Debug, Parser)]
#[command(name = "lexictl", version, about = LEXICTL_ABOUT, long_about = LEXICTL_LONG_ABOUT)]
pub struct LexictlCli {
    #[command(subcommand)]
    pub command: LexictlCommand,
}

#[derive(Debug, Subcommand)]
pub enum LexictlCommand {
    Init(commands::init::Args),
    Update(commands::update::Args),
    Setup(commands::setup::Args),
    Hook(commands::hook::Args),
    Notes(commands::notes::Args),
    Validate(commands::validate::Args),
    Status(commands::status::Args),
    Sweep(commands::sweep::Args),
    Completions(commands::completions::Args),
    Man(commands::man::Args),
    Review(commands::review::Args),
    Trust(commands::trust::Args),
}

impl LexictlCommand {
    /// The command's `--format` as text or JSON (`github` is read by the reporting commands from
    /// their own arguments); `text` for the commands that have none.
    fn format(&self) -> Format {
        match self {
            LexictlCommand::Init(args) => args.output.format,
            LexictlCommand::Update(args) => args.output.format,
            LexictlCommand::Setup(args) => args.output.format,
            LexictlCommand::Notes(args) => args.output.format,
            LexictlCommand::Status(args) => args.output.format,
            LexictlCommand::Sweep(args) => args.output.format,
            LexictlCommand::Man(args) => args.output.format,
            LexictlCommand::Trust(args) => args.output.format,
            LexictlCommand::Validate(args) => args.output.format.plain().unwrap_or_default(),
            LexictlCommand::Review(args) => args.output.format.plain().unwrap_or_default(),
            LexictlCommand::Hook(_) | LexictlCommand::Completions(_) => Format::Text,
        }
    }
}

/// The four names one Lexibrarian executable answers to. An install holds one program (`lexi`) and
/// three small launchers that start it under their own name (`src/bin/launcher`); a link so named
/// works too. The name in `argv[0]` picks the CLI and the name shown in usage and help.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Program {
    Lexi,
    GitLexi,
    Lexictl,
    GitLexictl,
}

impl Program {
    /// The program named by `argv0`'s file name; any other name (a renamed copy) is `lexi`.
    pub fn from_argv0(argv0: Option<&std::ffi::OsStr>) -> Program {
        let name = argv0.and_then(|argv0| std::path::Path::new(argv0).file_name());
        match name.and_then(|name| name.to_str()) {
            Some("git-lexi") => Program::GitLexi,
            Some("lexictl") => Program::Lexictl,
            Some("git-lexictl") => Program::GitLexictl,
            _ => Program::Lexi,
        }
    }

    /// The name usage and help show: `git lexi` when git started it as a subcommand.
    pub fn shown_name(self) -> &'static str {
        match self {
            Program::Lexi => "lexi",
            Program::GitLexi => "git lexi",
            Program::Lexictl => "lexictl",
            Program::GitLexictl => "git lexictl",
        }
    }
}

/// Entry point of the one executable: runs the CLI that `argv[0]` names with the other arguments.
pub fn run_program(args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let mut args = args.into_iter().peekable();
    let program = Program::from_argv0(args.peek().map(OsString::as_os_str));
    match program {
        Program::Lexi | Program::GitLexi => run_lexi(program.shown_name(), args),
        Program::Lexictl | Program::GitLexictl => run_lexictl(program.shown_name(), args),
    }
}

/// Entry point of `lexi` / `git-lexi`; `program` is the name shown in usage text.
pub fn run_lexi(program: &'static str, args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let cli: LexiCli = match parse(LexiCli::command(), program, args) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    with_context(program, cli.command.format(), |ctx| match &cli.command {
        LexiCommand::Orient(args) => commands::orient::run(ctx, args),
        LexiCommand::Lookup(args) => commands::lookup::run(ctx, args),
        LexiCommand::Index(args) => commands::index::run(ctx, args),
        LexiCommand::Describe(args) => commands::describe::run(ctx, args),
        LexiCommand::Context(args) => commands::context::run(ctx, args),
        LexiCommand::Impact(args) => commands::impact::run(ctx, args),
        LexiCommand::Conventions(args) => commands::conventions::run(ctx, args),
        LexiCommand::Convention(args) => commands::convention::run(ctx, args),
        LexiCommand::Search(args) => commands::search::run(ctx, args),
        LexiCommand::Concepts(args) => commands::concepts::run(ctx, args),
        LexiCommand::Concept(args) => commands::concept::run(ctx, args),
        LexiCommand::Stack(args) => commands::stack::run(ctx, args),
        LexiCommand::Iwh(args) => commands::iwh::run(ctx, args),
        LexiCommand::Why(args) => commands::why::run(ctx, args),
        LexiCommand::Mcp(args) => commands::mcp::run(ctx, args),
        LexiCommand::Hook(args) => commands::agent_hook::run(ctx, args),
    })
}

/// Entry point of `lexictl` / `git-lexictl`.
pub fn run_lexictl(program: &'static str, args: impl IntoIterator<Item = OsString>) -> ExitCode {
    let cli: LexictlCli = match parse(LexictlCli::command(), program, args) {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    with_context(program, cli.command.format(), |ctx| match &cli.command {
        LexictlCommand::Init(args) => commands::init::run(ctx, args),
        LexictlCommand::Update(args) => commands::update::run(ctx, args),
        LexictlCommand::Setup(args) => commands::setup::run(ctx, args),
        LexictlCommand::Hook(args) => commands::hook::run(ctx, args),
        LexictlCommand::Notes(args) => commands::notes::run(ctx, args),
        LexictlCommand::Validate(args) => commands::validate::run(ctx, args),
        LexictlCommand::Review(args) => commands::review::run(ctx, args),
        LexictlCommand::Status(args) => commands::status::run(ctx, args),
        LexictlCommand::Sweep(args) => commands::sweep::run(ctx, args),
        LexictlCommand::Completions(args) => commands::completions::run(ctx, args),
        LexictlCommand::Man(args) => commands::man::run(ctx, args),
        LexictlCommand::Trust(args) => commands::trust::run(ctx, args),
    })
}

/// Parse arguments with the usage text naming `program`. Help and version exit 0; usage errors exit 1;
/// a missing subcommand (bare `lexi`, `lexi stack`) prints the help to stderr and exits 2, clap's
/// convention, so a script that forgot the subcommand does not pass.
fn parse<T: FromArgMatches>(
    command: clap::Command,
    program: &'static str,
    args: impl IntoIterator<Item = OsString>,
) -> Result<T, ExitCode> {
    let command = command.name(program).bin_name(program);
    let matches = command.try_get_matches_from(args).map_err(clap_exit)?;
    T::from_arg_matches(&matches).map_err(clap_exit)
}

fn clap_exit(err: clap::Error) -> ExitCode {
    let _ = err.print();
    match err.kind() {
        clap::error::ErrorKind::DisplayHelp | clap::error::ErrorKind::DisplayVersion => {
            ExitCode::SUCCESS
        }
        clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
}

fn with_context(
    program: &str,
    format: Format,
    run: impl FnOnce(&Context) -> anyhow::Result<Outcome>,
) -> ExitCode {
    let cwd = match std::env::current_dir() {
        Ok(cwd) => cwd,
        Err(err) => {
            output::safe_eprintln!("error: cannot read the current directory: {err}");
            return ExitCode::from(1);
        }
    };
    // A git alias (`!lexi …`) runs from the top level with GIT_PREFIX set to where the user was:
    // resolve relative paths from there. (`git lexi …` keeps the cwd and sets no prefix.)
    // Hooks get GIT_PREFIX too, but run where the user was and with GIT_INDEX_FILE set: only an
    // alias (no index variable, run from the top level) needs the prefix.
    let alias =
        std::env::var_os("GIT_INDEX_FILE").is_none() && std::env::var_os("GIT_DIR").is_none();
    let cwd = match std::env::var("GIT_PREFIX") {
        Ok(prefix) if alias && !prefix.is_empty() && cwd.join(&prefix).is_dir() => cwd.join(prefix),
        _ => cwd,
    };
    let ctx = Context {
        cwd,
        format,
        program: program.to_string(),
    };
    match run(&ctx) {
        Ok(Outcome::Ok) => ExitCode::SUCCESS,
        Ok(Outcome::Findings) => ExitCode::from(2),
        Ok(Outcome::Failed) => ExitCode::from(1),
        Err(err) => {
            report_error(&err);
            ExitCode::from(1)
        }
    }
}

/// Print an error and its causes to stderr, the way ripgrep does: one line, then `caused by:` lines.
pub(crate) fn report_error(err: &anyhow::Error) {
    let stderr = std::io::stderr();
    let mut out = stderr.lock();
    // A closed stdout (e.g. `lexi index -r | head`) is not worth reporting.
    if err
        .downcast_ref::<std::io::Error>()
        .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    {
        return;
    }
    let mut text = format!("error: {err}\n");
    for cause in err.chain().skip(1) {
        text.push_str(&format!("  caused by: {cause}\n"));
    }
    let _ = out.write_all(output::neutralise(&text).as_bytes());
}

#[cfg(test)]
mod tests;
