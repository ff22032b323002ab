//! `lexictl man`: man pages for all four binaries, generated from the same clap definitions as
//! `--help` (with `clap_mangen`), so they never drift from the code.
//!
//! `git lexi --help` makes git run `man git-lexi`, so `git-lexi.1` and `git-lexictl.1` are real
//! pages naming `git lexi` / `git lexictl` in their synopsis, not aliases. Every subcommand gets a
//! page too (`lexi-lookup.1`, `git-lexi-stack-post.1`, …), which the parent page lists.
//!
//! Two touches on what clap_mangen writes ([`verbatim`]): indented lines (the examples, the command
//! lists of the descriptions) are set with `.nf`, so man neither refills nor hyphenates them, and the
//! few non-ASCII characters become roff escapes that render in a plain C locale too (`…` → `...`).

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use clap::CommandFactory;

use crate::atomic;
use crate::cli::output::{print_json, print_text};
use crate::cli::{Context, Format, LexiCli, LexictlCli, Outcome};
use crate::project::paths;

/// Write man pages for all four binaries and their subcommands.
///
/// For lexi, lexictl, git-lexi and git-lexictl. The pages are roff (section 1), one file per command: lexi.1, lexi-lookup.1, …, git-lexi.1,
/// lexictl.1, git-lexictl.1. Install them into a directory on your MANPATH so that `man lexi` and
/// `git lexi --help` work.
#[derive(Debug, clap::Args)]
#[command(after_help = "\
Examples:
  lexictl man                                  write ./man/*.1
  lexictl man --dir ~/.local/share/man/man1    install for your user (`man lexi`, `git lexi --help`)
  man -l man/lexictl-sweep.1                   read one without installing it")]
pub struct Args {
    /// Directory to write the pages to, relative to the current directory; created if missing.
    /// Existing pages of the same names are replaced.
    #[arg(long, value_name = "DIR", default_value = "man")]
    pub dir: PathBuf,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

#[derive(serde::Serialize)]
struct Written {
    /// The directory, absolute.
    dir: String,
    /// File names written, sorted.
    files: Vec<String>,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let dir = paths::normalize(&ctx.cwd.join(&args.dir));
    std::fs::create_dir_all(&dir)
        .with_context(|| format!("cannot create the directory {}", dir.display()))?;
    let mut files = Vec::new();
    for (name, roff) in pages()? {
        let path = dir.join(&name);
        atomic::write(&path, &roff).with_context(|| format!("cannot write {}", path.display()))?;
        files.push(name);
    }
    files.sort();
    match ctx.format {
        Format::Text => print_text(&render_text(&args.dir, &files))?,
        Format::Json => print_json(&Written {
            dir: dir.display().to_string(),
            files,
        })?,
    }
    Ok(Outcome::Ok)
}

fn render_text(dir: &Path, files: &[String]) -> String {
    let mut out = format!("wrote {} man pages to {}:\n", files.len(), dir.display());
    for file in files {
        out.push_str(&format!("  {}\n", dir.join(file).display()));
    }
    out
}

/// Every page as (file name, roff text): for each binary, its own page and one per subcommand,
/// depth first.
pub fn pages() -> anyhow::Result<Vec<(String, Vec<u8>)>> {
    let binaries = [
        (LexiCli::command(), "lexi", "lexi"),
        (LexiCli::command(), "git-lexi", "git lexi"),
        (LexictlCli::command(), "lexictl", "lexictl"),
        (LexictlCli::command(), "git-lexictl", "git lexictl"),
    ];
    let mut pages = Vec::new();
    for (command, name, bin_name) in binaries {
        // The display name becomes the page's title and file name and prefixes the subcommand pages
        // (`git-lexi-lookup`); the bin name is what the synopsis shows (`git lexi lookup`).
        let mut command = command
            .name(name)
            .display_name(name)
            .bin_name(bin_name)
            .disable_help_subcommand(true);
        command.build();
        render(&command, &mut pages).with_context(|| format!("cannot render the {name} pages"))?;
    }
    Ok(pages)
}

fn render(command: &clap::Command, pages: &mut Vec<(String, Vec<u8>)>) -> std::io::Result<()> {
    let man = clap_mangen::Man::new(command.clone())
        .source(concat!("lexibrarian ", env!("CARGO_PKG_VERSION")))
        .manual("Lexibrarian Manual");
    let mut roff = Vec::new();
    man.render(&mut roff)?;
    pages.push((
        man.get_filename(),
        verbatim(&String::from_utf8_lossy(&roff)).into_bytes(),
    ));
    for sub in command.get_subcommands().filter(|sub| !sub.is_hide_set()) {
        render(sub, pages)?;
    }
    Ok(())
}

/// The page with every run of indented text lines (examples, command lists) between `.nf` and `.fi`,
/// printed as written instead of refilled, and with non-ASCII characters as ASCII roff.
pub fn verbatim(roff: &str) -> String {
    let mut out = String::with_capacity(roff.len());
    let mut literal = false;
    for line in roff.lines() {
        let indented = line.starts_with("  ");
        // A blank line inside a run of examples stays inside it.
        let blank_in_run = literal && line.trim().is_empty();
        if indented && !literal {
            out.push_str(".nf\n");
            literal = true;
        } else if literal && !indented && !blank_in_run {
            out.push_str(".fi\n");
            literal = false;
        }
        out.push_str(&ascii(line));
        out.push('\n');
    }
    if literal {
        out.push_str(".fi\n");
    }
    out
}

/// `line` with the non-ASCII characters our help text uses written the way every troff renders in
/// any locale; anything else as a `\[uXXXX]` escape.
fn ascii(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    for ch in line.chars() {
        match ch {
            '…' => out.push_str("..."),
            '—' => out.push_str("\\(em"),
            '–' => out.push_str("\\(en"),
            '‘' | '’' => out.push('\''),
            '“' | '”' => out.push('"'),
            '→' => out.push_str("\\(->"),
            ch if ch.is_ascii() => out.push(ch),
            ch => out.push_str(&format!("\\[u{:04X}]", ch as u32)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indented_lines_are_set_verbatim_and_text_is_ascii() {
        let roff = ".SH EXTRA\nExamples:\n  lexi a \\-\\-b\n\n  lexi c …\nAfter — it.\n";
        assert_eq!(
            verbatim(roff),
            ".SH EXTRA\nExamples:\n.nf\n  lexi a \\-\\-b\n\n  lexi c ...\n.fi\nAfter \\(em it.\n"
        );
        assert_eq!(verbatim("  only\n"), ".nf\n  only\n.fi\n");
    }
}
