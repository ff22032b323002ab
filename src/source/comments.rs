//! The words a source file says in its comments and doc comments — Rust `//`, `///`, `//!`, `/* */`
//! (nested), JavaScript/TypeScript `//`, `/* */`, JSDoc, Python `#` comments and triple-quoted
//! strings (docstrings) — for search: ripgrep's "Binary detection is the process of
//! _heuristically_ identifying…" is in no signature and in no design file, but an agent asking
//! about heuristics must find it.
//!
//! A lexical scan, not a parse (a file is read in one pass, about a hundred times faster than
//! tree-sitter): string literals are stepped over so that `"http://…"` is no comment, Rust's raw
//! strings and its lifetimes (`'a`, which is no character literal) included. JavaScript regular
//! expressions are not told from division, so one holding `//` may add a few words; search only
//! loses precision there, never a file.

use super::Language;

/// The most bytes of a file scanned.
const MAX_SCANNED: usize = 512 * 1024;

/// The text of every comment of `text` (a `language` file), markers left in, one comment a line.
pub fn comment_text(language: Language, text: &str) -> String {
    let text = match text.len() > MAX_SCANNED {
        true => {
            let mut end = MAX_SCANNED;
            while !text.is_char_boundary(end) {
                end -= 1;
            }
            &text[..end]
        }
        false => text,
    };
    let mut out = String::new();
    language.walks().comment_text(text, &mut out);
    out
}

/// What a C-like language's scanner must know.
#[derive(Clone, Copy)]
pub(crate) struct CLike {
    /// `/* /* */ */` nests (Rust).
    pub(crate) nested_blocks: bool,
    /// `r"…"`, `r#"…"#` (Rust).
    pub(crate) raw_strings: bool,
    /// `'` starts a character literal or a lifetime (Rust), else a string (JavaScript).
    pub(crate) char_literals: bool,
    /// `` `…` `` is a string (JavaScript's template literals).
    pub(crate) backtick_strings: bool,
}

pub(crate) fn c_like(text: &str, syntax: CLike, out: &mut String) {
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                let end = line_end(bytes, at);
                // `///` and `//!` doc comments: the marker's third character is no word.
                push(out, text[at + 2..end].trim_start_matches(['/', '!']));
                at = end;
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => {
                let end = block_end(bytes, at + 2, syntax.nested_blocks);
                let inner_end = end.saturating_sub(2).max(at + 2);
                push(out, &text[at + 2..inner_end.min(text.len())]);
                at = end;
            }
            b'"' => at = string_end(bytes, at + 1, b'"', true),
            b'`' if syntax.backtick_strings => at = string_end(bytes, at + 1, b'`', true),
            b'\'' if syntax.char_literals => at = char_literal_end(bytes, at),
            b'\'' => at = string_end(bytes, at + 1, b'\'', true),
            b'r' | b'b' if syntax.raw_strings && !after_identifier(bytes, at) => {
                at = raw_string_end(bytes, at).unwrap_or(at + 1);
            }
            _ => at += 1,
        }
    }
}

pub(crate) fn python(text: &str, out: &mut String) {
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'#' => {
                let end = line_end(bytes, at);
                push(out, &text[at + 1..end]);
                at = end;
            }
            quote @ (b'"' | b'\'') => {
                let raw = at > 0 && matches!(bytes[at - 1], b'r' | b'R');
                let triple = bytes.get(at + 1) == Some(&quote) && bytes.get(at + 2) == Some(&quote);
                if triple {
                    let start = at + 3;
                    let mut end = start;
                    while end < bytes.len()
                        && !(bytes[end] == quote
                            && bytes.get(end + 1) == Some(&quote)
                            && bytes.get(end + 2) == Some(&quote))
                    {
                        end += if bytes[end] == b'\\' && !raw { 2 } else { 1 };
                    }
                    let end = end.min(bytes.len());
                    push(out, &text[start..end]);
                    at = (end + 3).min(bytes.len());
                } else {
                    at = string_end(bytes, at + 1, quote, !raw);
                }
            }
            _ => at += 1,
        }
    }
}

/// Append one comment's text on a line of its own.
fn push(out: &mut String, comment: &str) {
    let comment = comment.trim();
    if !comment.is_empty() {
        out.push_str(comment);
        out.push('\n');
    }
}

/// The offset of the line break at or after `at` (or the end).
fn line_end(bytes: &[u8], at: usize) -> usize {
    bytes[at..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |n| at + n)
}

/// The offset just after the `*/` closing a block comment whose text starts at `at`.
fn block_end(bytes: &[u8], mut at: usize, nested: bool) -> usize {
    let mut depth = 1;
    while at + 1 < bytes.len() {
        match (bytes[at], bytes[at + 1]) {
            (b'*', b'/') => {
                depth -= 1;
                at += 2;
                if depth == 0 {
                    return at;
                }
            }
            (b'/', b'*') if nested => {
                depth += 1;
                at += 2;
            }
            _ => at += 1,
        }
    }
    bytes.len()
}

/// The offset just after the `quote` closing a string whose text starts at `at`; a string that
/// cannot span lines (`'…'` in JavaScript) ends at the line break.
fn string_end(bytes: &[u8], mut at: usize, quote: u8, escapes: bool) -> usize {
    let multiline = quote != b'\'';
    while at < bytes.len() {
        match bytes[at] {
            b'\\' if escapes => at += 2,
            b'\n' if !multiline => return at,
            b if b == quote => return at + 1,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// After a `'` in Rust: a character literal (`'a'`, `'\n'`, `'\u{1F600}'`, `'é'`) is stepped over
/// whole; a lifetime or label (`'a`, `'static`) only its quote.
fn char_literal_end(bytes: &[u8], at: usize) -> usize {
    if bytes.get(at + 1) == Some(&b'\\') {
        let close = bytes[at + 2..]
            .iter()
            .take(12)
            .position(|&b| b == b'\'')
            .map(|n| at + 2 + n + 1);
        return close.unwrap_or(at + 1);
    }
    // One character of up to four bytes, then the closing quote.
    for width in 1..=4 {
        if bytes.get(at + 1 + width) == Some(&b'\'') && bytes.get(at + 1) != Some(&b'\'') {
            return at + 2 + width;
        }
    }
    at + 1
}

/// Whether the byte before `at` continues an identifier (so `r` at `at` is no raw-string prefix).
fn after_identifier(bytes: &[u8], at: usize) -> bool {
    at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_')
}

/// The end of a Rust raw string (`r"…"`, `r#"…"#`, `br##"…"##`) starting at `at`; `None` when none
/// starts there.
fn raw_string_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    if bytes[i] == b'b' {
        i += 1;
    }
    if bytes.get(i) != Some(&b'r') {
        return None;
    }
    i += 1;
    let hashes = bytes[i..].iter().take_while(|&&b| b == b'#').count();
    i += hashes;
    if bytes.get(i) != Some(&b'"') {
        return None;
    }
    i += 1;
    while i < bytes.len() {
        if bytes[i] == b'"'
            && bytes[i + 1..].iter().take(hashes).all(|&b| b == b'#')
            && bytes.len() - (i + 1) >= hashes
        {
            return Some(i + 1 + hashes);
        }
        i += 1;
    }
    Some(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_comments_without_strings_chars_or_lifetimes() {
        let text = "//! Module doc.\n/// Binary detection is done _heuristically_.\nfn f<'a>(x: &'a str) -> char {\n    let url = \"http://not.a/comment\"; // trailing note\n    let raw = r#\"// nor \"this\"\"#;\n    /* block /* nested */ still */\n    '/'\n}\n";
        let text = comment_text(Language::Rust, text);
        assert_eq!(
            text,
            "Module doc.\nBinary detection is done _heuristically_.\ntrailing note\nblock /* nested */ still\n"
        );
    }

    #[test]
    fn javascript_comments_and_jsdoc() {
        let text = "/**\n * Send JSON response.\n * @param {object} obj\n */\nres.json = function (obj) {\n  var s = 'it\\'s // no comment';\n  var t = `template // no`;\n  return send(s); // sends it\n};\n";
        let text = comment_text(Language::JavaScript, text);
        assert!(text.contains("Send JSON response."), "{text}");
        assert!(text.contains("sends it"), "{text}");
        assert!(
            !text.contains("no comment") && !text.contains("template"),
            "{text}"
        );
    }

    #[test]
    fn python_comments_and_docstrings() {
        let text = "# Tokenizing helpers.\ndef tokens(s):\n    \"\"\"Split `s` into tokens, heuristically.\"\"\"\n    url = 'http://x#not-a-comment'\n    return s.split()  # whitespace only\n";
        let text = comment_text(Language::Python, text);
        assert_eq!(
            text,
            "Tokenizing helpers.\nSplit `s` into tokens, heuristically.\nwhitespace only\n"
        );
    }

    #[test]
    fn unterminated_literals_never_panic() {
        for language in Language::ALL {
            for text in [
                "\"abc",
                "/* open",
                "'",
                "r#\"x",
                "\"\"\"doc",
                "b",
                "é'",
                "'\\",
            ] {
                comment_text(language, text);
            }
        }
    }
}
