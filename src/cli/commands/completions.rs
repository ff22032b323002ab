//! `lexictl completions`: shell completion scripts for `lexictl` and `lexi`, generated from the same
//! clap definitions as `--help` (with `clap_complete`). One script per binary and shell, printed to
//! stdout, because zsh and fish want one file per command.

use clap::CommandFactory;

use crate::cli::output::print_text;
use crate::cli::{Context, LexiCli, LexictlCli, Outcome};

/// Print a shell completion script for lexictl or lexi.
///
/// The script completes lexictl; with --bin lexi, lexi. Save the output where your shell loads completions from; run it twice to complete both
/// binaries. Completions cover subcommands, flags and their fixed values.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lexictl completions bash > ~/.local/share/bash-completion/completions/lexictl
  lexictl completions bash --bin lexi > ~/.local/share/bash-completion/completions/lexi
  lexictl completions zsh > ~/.zfunc/_lexictl          (a directory on $fpath)
  lexictl completions zsh --bin lexi > ~/.zfunc/_lexi
  lexictl completions fish > ~/.config/fish/completions/lexictl.fish
  lexictl completions elvish >> ~/.config/elvish/rc.elv
  lexictl completions powershell >> $PROFILE")]
pub struct Args {
    /// The shell to write the script for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
    /// The binary to complete.
    #[arg(long, value_enum, default_value_t = Bin::Lexictl)]
    pub bin: Bin,
}

/// Which CLI a completion script is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Bin {
    Lexictl,
    Lexi,
}

pub fn run(_ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let (mut command, name) = match args.bin {
        Bin::Lexictl => (LexictlCli::command(), "lexictl"),
        Bin::Lexi => (LexiCli::command(), "lexi"),
    };
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, name, &mut script);
    print_text(&String::from_utf8_lossy(&script))?;
    Ok(Outcome::Ok)
}
