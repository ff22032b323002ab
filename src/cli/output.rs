//! Output helpers shared by every command: the `--format` options and writing to stdout.
//!
//! Text output is compact and written for agents; JSON output is one pretty-printed document with
//! stable field names (documented in docs/commands.md), always valid even when piped.
//!
//! `--format` belongs to the commands it applies to, not to the binaries: a command that prints
//! JSON flattens [`FormatArg`] into its `Args` (a reporting command, [`ReportFormatArg`]), so
//! `--help`, completions and man pages offer it exactly there (see `cli/mod.rs` for the recipe).

use std::io::Write;

/// `--format text|json`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    #[default]
    Text,
    Json,
}

/// `--format text|json|github`. `github` prints GitHub Actions workflow commands
/// (`::warning file=…,line=…,title=…::message`), which a workflow step turns into annotations on the
/// pull request. Only the reporting commands offer it (`lexictl validate` and `lexictl review`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum ReportFormat {
    #[default]
    Text,
    Json,
    Github,
}

impl ReportFormat {
    /// The same choice for a command that prints only text or JSON; `None` for `github`.
    pub fn plain(self) -> Option<Format> {
        match self {
            ReportFormat::Text => Some(Format::Text),
            ReportFormat::Json => Some(Format::Json),
            ReportFormat::Github => None,
        }
    }
}

/// `--format text|json` of a command that prints JSON. Flatten it into the command's `Args`
/// (`#[command(flatten)] pub output: FormatArg`); the command reads the choice as `ctx.format`.
/// Global within the command, so `lexi stack view ST-001 --format json` works on sub-subcommands.
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct FormatArg {
    /// Output format: `text` (compact, for reading) or `json` (stable fields, for tools; see
    /// docs/commands.md).
    #[arg(long, value_enum, global = true, default_value_t = Format::Text)]
    pub format: Format,
}

/// `--format text|json|github` of a reporting command (`lexictl validate`, `lexictl review`).
#[derive(Clone, Copy, Debug, Default, clap::Args)]
pub struct ReportFormatArg {
    /// Output format: `text`, `json` (stable fields, for tools) or `github` (GitHub Actions
    /// annotations on the pull request's files).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    pub format: ReportFormat,
}

/// Write `text` to stdout as is.
pub fn print_text(text: &str) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Write `value` to stdout as pretty JSON followed by a newline.
pub fn print_json<T: serde::Serialize>(value: &T) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    // Serialise first, then write: an I/O error (a closed pipe) stays an I/O error, which the
    // error reporter knows to keep quiet about.
    let text = serde_json::to_string_pretty(value)?;
    out.write_all(text.as_bytes())?;
    out.write_all(b"\n")?;
    out.flush()?;
    Ok(())
}

/// Print a warning to stderr.
pub fn warn(message: &str) {
    eprintln!("warning: {message}");
}

/// Text from stdin when it is piped (not a terminal), trimmed; `None` when stdin is a terminal or
/// empty. Lets long bodies come from a heredoc or another command.
pub fn piped_stdin() -> anyhow::Result<Option<String>> {
    use std::io::{IsTerminal, Read};
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        return Ok(None);
    }
    let mut text = String::new();
    stdin.lock().read_to_string(&mut text)?;
    Ok(Some(text).filter(|text| !text.trim().is_empty()))
}

/// `name` padded to `width` characters (by chars, not bytes), for aligned columns.
pub fn pad(name: &str, width: usize) -> String {
    let len = name.chars().count();
    format!("{name}{}", " ".repeat(width.saturating_sub(len)))
}
