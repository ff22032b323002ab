//! Output helpers shared by every command: the `--format` options and writing to stdout and stderr.
//!
//! Text output is compact and written for agents; JSON output is one pretty-printed document with
//! stable field names (documented in docs/commands.md), always valid even when piped.
//!
//! **Untrusted text is neutralised here, in one place.** What commands print comes from files
//! anyone can write — a Stack title, a concept, a file name, a design file, a note fetched from a
//! remote, `LEXI_AUTHOR` — and an ESC, BEL or CR in it would drive the reader's terminal (clear
//! the screen, rewrite a line, set the window title). Every text written to stdout or stderr goes
//! through [`neutralise`], which shows control characters as escapes (`\x1b`, `\r`, `\u{202e}`);
//! tab and newline, the structure of the output, stay. JSON is written exact (serde escapes every
//! control character). Commands print with [`print_text`], [`eprint_text`] and [`warn`]; nothing
//! under `cli/` writes to the terminal another way (`safe_eprintln!` stands in for `eprintln!`).
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

/// Write `text` to stdout, control characters escaped ([`neutralise`]).
pub fn print_text(text: &str) -> anyhow::Result<()> {
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    out.write_all(neutralise(text).as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Write `text` to stderr, control characters escaped ([`neutralise`]). Best effort: a closed
/// stderr is nobody's business.
pub fn eprint_text(text: &str) {
    let stderr = std::io::stderr();
    let mut out = stderr.lock();
    let _ = out.write_all(neutralise(text).as_bytes());
    let _ = out.flush();
}

/// `text` safe to show on a terminal: every control character but tab and newline (and a CR that
/// ends a line before its LF) written as an escape — `\x1b` for ESC, `\x07` for BEL, `\r` for a
/// lone CR, `\u{9b}` for a C1 control — and so are the Unicode bidirectional overrides, which
/// reorder what a line shows. Borrowed when there is nothing to escape (the usual case).
pub fn neutralise(text: &str) -> std::borrow::Cow<'_, str> {
    let escaped =
        |at: usize, c: char| is_hostile(c) && !(c == '\r' && text[at + 1..].starts_with('\n'));
    let Some(first) = text.char_indices().position(|(at, c)| escaped(at, c)) else {
        return std::borrow::Cow::Borrowed(text);
    };
    let mut out = String::with_capacity(text.len() + 16);
    for (index, (at, c)) in text.char_indices().enumerate() {
        if index < first || !escaped(at, c) {
            out.push(c);
            continue;
        }
        match c {
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x80 => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// A character that must not reach a terminal as it is: a control character other than tab and
/// newline, or a bidirectional override or isolate.
fn is_hostile(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{061c}')
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

/// `eprintln!` through [`neutralise`]: what commands print to stderr.
macro_rules! safe_eprintln {
    ($($arg:tt)*) => {
        $crate::cli::output::eprint_text(&format!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprint!` through [`neutralise`].
macro_rules! safe_eprint {
    ($($arg:tt)*) => {
        $crate::cli::output::eprint_text(&format!($($arg)*))
    };
}

pub(crate) use {safe_eprint, safe_eprintln};

/// Print a warning to stderr (neutralised).
pub fn warn(message: &str) {
    eprint_text(&format!("warning: {message}\n"));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped_and_structure_stays() {
        assert!(matches!(
            neutralise("plain\ttext\nwith lines\r\n"),
            std::borrow::Cow::Borrowed(_)
        ));
        assert_eq!(
            neutralise("a\x1b[2Jb\x07c\rd\u{9b}e\u{202e}f\x00"),
            "a\\x1b[2Jb\\x07c\\rd\\u{9b}e\\u{202e}f\\x00"
        );
        assert_eq!(neutralise("\x7f"), "\\x7f");
    }
}
