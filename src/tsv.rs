//! Escaping for the tab-separated files under `.lexibrary/.cache/` (the update cache, the search
//! corpus): one record per line, fields split by tabs, lists by the unit separator U+001F.

/// Append `text` to `out` with `\`, tab, newline, carriage return and U+001F escaped.
pub fn push_escaped(out: &mut String, text: &str) {
    if !text.contains(['\\', '\t', '\n', '\r', '\u{1f}']) {
        out.push_str(text);
        return;
    }
    for ch in text.chars() {
        match ch {
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\u{1f}' => out.push_str("\\u"),
            other => out.push(other),
        }
    }
}

/// Append `items`, escaped, separated by U+001F.
pub fn push_list(out: &mut String, items: &[String]) {
    for (index, item) in items.iter().enumerate() {
        if index > 0 {
            out.push('\u{1f}');
        }
        push_escaped(out, item);
    }
}

/// Undo [`push_list`].
pub fn parse_list(field: &str) -> Vec<String> {
    if field.is_empty() {
        Vec::new()
    } else {
        split_bytes(field, b'\x1f').map(unescape).collect()
    }
}

/// `text` split at every `separator` byte (an ASCII one). A plain byte loop: the fields of these
/// files are short, and `str::split`'s searcher costs more per field than the scan itself (parsing
/// the update cache of 20,000 files took a third fewer instructions with it).
pub fn split_bytes(text: &str, separator: u8) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let current = rest?;
        match current.bytes().position(|byte| byte == separator) {
            Some(at) => {
                rest = current.get(at + 1..);
                current.get(..at)
            }
            None => {
                rest = None;
                Some(current)
            }
        }
    })
}

/// Undo [`push_escaped`].
pub fn unescape(text: &str) -> String {
    if !text.bytes().any(|byte| byte == b'\\') {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(ch) = chars.next() {
        if ch != '\\' {
            out.push(ch);
            continue;
        }
        match chars.next() {
            Some('t') => out.push('\t'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('u') => out.push('\u{1f}'),
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn escaping_round_trips() {
        let text = "a\tb\nc\\d\re\u{1f}f";
        let mut out = String::new();
        super::push_escaped(&mut out, text);
        assert!(!out.contains(['\t', '\n', '\r', '\u{1f}']));
        assert_eq!(super::unescape(&out), text);
    }
}
