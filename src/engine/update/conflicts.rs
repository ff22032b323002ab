//! Which files are in a merge conflict, the git way: a file is conflicted when git's index holds it
//! at a stage above 0 (a merge, rebase or cherry-pick waiting for it to be resolved); `git add`
//! resolves it, whatever its text says. Only outside git is the text scanned, and then only for a
//! complete `<<<<<<<` / `=======` / `>>>>>>>` triple at line starts outside string literals — a
//! test that holds conflict markers in a string is not a conflict.

use std::collections::BTreeSet;

/// Where the answer comes from.
#[derive(Clone, Debug, Default)]
pub enum Conflicts {
    /// Git's index: the project-relative paths it holds at a stage above 0.
    Git(BTreeSet<String>),
    /// No git repository: the text of each file.
    #[default]
    Text,
}

impl Conflicts {
    /// Git says `rel` is conflicted (answerable without reading it).
    pub fn in_git(&self, rel: &str) -> bool {
        matches!(self, Conflicts::Git(paths) if paths.contains(rel))
    }

    /// Why a conflicted `rel` is skipped, for the update's warnings.
    pub fn reason(&self, rel: &str) -> String {
        match self {
            Conflicts::Git(_) => format!(
                "{rel}: in a merge conflict (git's index holds it unmerged); skipped until it is resolved (`git add {rel}`)"
            ),
            Conflicts::Text => format!(
                "{rel}: has unresolved merge-conflict markers; skipped until they are resolved"
            ),
        }
    }

    /// Whether `rel`, whose text is `text`, is conflicted.
    pub fn holds(&self, rel: &str, text: &str) -> bool {
        match self {
            Conflicts::Git(paths) => paths.contains(rel),
            Conflicts::Text => has_conflict_markers(rel, text),
        }
    }
}

/// Where the scanner is in the text.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Lexed {
    Code,
    /// Inside a string that ends at `quote` (`"`, `'`, `` ` ``, `"""`, `'''`); `multiline`: a
    /// newline does not end it.
    Quoted {
        quote: &'static str,
        multiline: bool,
    },
    /// Inside a Rust raw string `r#"…"#` with this many `#`.
    Raw(usize),
}

/// A complete conflict — `<<<<<<<`, then `=======`, then `>>>>>>>`, each at a line start outside a
/// string literal. Rust's `"…"` strings may span lines; other languages' `"`/`'` strings end at the
/// line's end (unless it ends in `\`); triple quotes and backticks span lines everywhere.
pub fn has_conflict_markers(rel: &str, text: &str) -> bool {
    let rust = rel.ends_with(".rs");
    let mut state = Lexed::Code;
    // 0: looking for `<<<<<<<`, 1: for `=======`, 2: for `>>>>>>>`.
    let mut seen = 0;
    for line in text.lines() {
        if state == Lexed::Code {
            let marker = |mark: &str| {
                line.strip_prefix(mark)
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(' '))
            };
            if marker("<<<<<<<") {
                seen = 1;
                continue;
            }
            if seen == 1 && marker("=======") {
                seen = 2;
                continue;
            }
            if seen == 2 && marker(">>>>>>>") {
                return true;
            }
        }
        state = lex_line(line, state, rust);
    }
    false
}

/// The state after `line`, starting in `state`.
fn lex_line(line: &str, mut state: Lexed, rust: bool) -> Lexed {
    let bytes = line.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let rest = &line[at..];
        match state {
            Lexed::Code => {
                if rest.starts_with("//") {
                    return Lexed::Code;
                }
                if rust && rest.starts_with('r') && !ident_before(bytes, at) {
                    let hashes = rest[1..].bytes().take_while(|b| *b == b'#').count();
                    if rest[1 + hashes..].starts_with('"') {
                        state = Lexed::Raw(hashes);
                        at += 2 + hashes;
                        continue;
                    }
                }
                let opened = ["\"\"\"", "'''", "\"", "`", "'"]
                    .into_iter()
                    .find(|quote| rest.starts_with(quote));
                match opened {
                    // A Rust `'` is a char literal (skipped whole: `'"'` opens no string) or
                    // a lifetime.
                    Some("'") if rust => at += rust_char_len(rest),
                    Some(quote) => {
                        let multiline = quote.len() == 3 || quote == "`" || (rust && quote == "\"");
                        state = Lexed::Quoted { quote, multiline };
                        at += quote.len();
                    }
                    None => at += rest.chars().next().map_or(1, char::len_utf8),
                }
            }
            Lexed::Quoted { quote, .. } => {
                if let Some(escaped) = rest.strip_prefix('\\') {
                    at += 1 + escaped.chars().next().map_or(0, char::len_utf8);
                } else if rest.starts_with(quote) {
                    state = Lexed::Code;
                    at += quote.len();
                } else {
                    at += rest.chars().next().map_or(1, char::len_utf8);
                }
            }
            Lexed::Raw(hashes) => {
                if rest.starts_with('"')
                    && rest[1..].bytes().take_while(|b| *b == b'#').count() >= hashes
                {
                    state = Lexed::Code;
                    at += 1 + hashes;
                } else {
                    at += rest.chars().next().map_or(1, char::len_utf8);
                }
            }
        }
    }
    match state {
        Lexed::Quoted {
            multiline: false, ..
        } if !line.ends_with('\\') => Lexed::Code,
        other => other,
    }
}

/// The length of the Rust char literal `rest` starts with (`'x'`, `'\''`, `'\u{1F600}'`), or 1 for
/// a lifetime's `'`.
fn rust_char_len(rest: &str) -> usize {
    let body = &rest[1..];
    let end = match body.strip_prefix('\\') {
        Some(escaped) => escaped
            .char_indices()
            .skip(1)
            .find(|(_, c)| *c == '\'')
            .map(|(at, _)| 1 + at),
        None => body
            .chars()
            .next()
            .filter(|c| body[c.len_utf8()..].starts_with('\''))
            .map(|c| c.len_utf8()),
    };
    end.map_or(1, |end| 1 + end + 1)
}

/// Whether the byte before `at` continues an identifier (`for"` is not a raw string's `r`).
fn ident_before(bytes: &[u8], at: usize) -> bool {
    at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_')
}

#[cfg(test)]
mod tests {
    use super::*;

    const CONFLICT: &str = "a\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> branch\n";

    #[test]
    fn a_complete_triple_at_line_starts_is_a_conflict() {
        assert!(has_conflict_markers("a.py", CONFLICT));
        assert!(has_conflict_markers("a.rs", CONFLICT));
        assert!(!has_conflict_markers(
            "a.py",
            "// <<<<<<< not at line start\n"
        ));
        assert!(!has_conflict_markers("a.py", "<<<<<<< only an opener\n"));
        assert!(!has_conflict_markers(
            "a.py",
            "<<<<<<< HEAD\nx\n>>>>>>> no separator\n"
        ));
    }

    #[test]
    fn markers_inside_string_literals_are_not_a_conflict() {
        let python = format!("SAMPLE = \"\"\"\n{CONFLICT}\"\"\"\n");
        assert!(!has_conflict_markers("t.py", &python));
        let js = format!("const sample = `\n{CONFLICT}`;\n");
        assert!(!has_conflict_markers("t.js", &js));
        let rust = format!("const S: &str = \"\n{CONFLICT}\";\nfn f<'a>() {{}}\n");
        assert!(!has_conflict_markers("t.rs", &rust));
        // A char literal holding a quote opens no string.
        for chars in ["'\"'", "'\\''", "'\\\"'", "'\\u{22}'"] {
            let text = format!("fn q() -> char {{ {chars} }}\n{CONFLICT}");
            assert!(has_conflict_markers("t.rs", &text), "{text}");
        }
        let raw = format!("const S: &str = r#\"\n{CONFLICT}\"#;\n");
        assert!(!has_conflict_markers("t.rs", &raw));
        // After the string closes, a real conflict still counts.
        assert!(has_conflict_markers("t.py", &format!("{python}{CONFLICT}")));
        // An apostrophe or an unclosed quote in a Python comment line ends with the line.
        assert!(has_conflict_markers(
            "t.py",
            &format!("x = \"it's\n{CONFLICT}")
        ));
        assert!(has_conflict_markers(
            "t.rs",
            &format!("// \"quoted\n{CONFLICT}")
        ));
    }

    #[test]
    fn git_decides_inside_a_repository() {
        let git = Conflicts::Git(["a.py".to_string()].into_iter().collect());
        assert!(git.holds("a.py", "clean text\n"));
        assert!(!git.holds("b.py", CONFLICT));
        assert!(git.in_git("a.py"));
        assert!(Conflicts::Text.holds("b.py", CONFLICT));
        assert!(!Conflicts::Text.in_git("b.py"));
    }
}
