//! The lines of a declaration's doc that say what a caller must know beyond its first sentence:
//! parameters, return values, errors and panics, and lists of the forms a value may take.
//!
//! Recognised: Python reST fields (`:param x:`, `:returns:`, `:raises X:`), Google and NumPy
//! sections (`Args:`, `Returns:`, `Raises:`; `Parameters` over a `----------` rule), JSDoc tags
//! (`@param {type} name`, `@return(s)`, `@throws`), Rust's `# Errors`, `# Panics` and `# Safety`
//! sections, bullet lists (`- `, `* `, `+ `) and reST definition lists under a field (flask's
//! `App.make_response` lists the return values it accepts: ``str``, ``bytes``, ``dict``, …). Each
//! becomes one compact line, cut at [`MAX_LINE`] characters; code blocks, examples, doctests and
//! reST directives (`.. versionchanged::`) are skipped. The doc's first paragraph (which the
//! contract already shows) is not repeated.

/// Longest behaviour line, in characters.
pub const MAX_LINE: usize = 100;
/// Most behaviour lines kept for one declaration.
pub const MAX_LINES: usize = 12;

/// Section headers whose entries are the declaration's parameters, results or errors, lowercased,
/// with the prefix each entry takes.
const SECTIONS: &[(&str, &str)] = &[
    ("args", ""),
    ("arguments", ""),
    ("parameters", ""),
    ("params", ""),
    ("other parameters", ""),
    ("keyword args", ""),
    ("keyword arguments", ""),
    ("returns", "returns: "),
    ("return", "returns: "),
    ("yields", "yields: "),
    ("raises", "raises "),
    ("throws", "throws "),
    ("errors", "Errors: "),
    ("panics", "Panics: "),
    ("safety", "Safety: "),
];

/// JSDoc tags kept, and those whose text (an example) is skipped with them.
const KEPT_TAGS: &[&str] = &[
    "param",
    "arg",
    "argument",
    "return",
    "returns",
    "throws",
    "throw",
    "exception",
];

/// One line of the doc: its indentation (in columns) and its text without it.
#[derive(Clone, Copy)]
struct Line<'a> {
    indent: usize,
    text: &'a str,
}

impl Line<'_> {
    fn blank(&self) -> bool {
        self.text.is_empty()
    }
}

/// The behaviour lines of `doc` (comment markers already stripped), at most [`MAX_LINES`].
pub fn behaviour_lines(doc: &str) -> Vec<String> {
    let lines: Vec<Line<'_>> = doc
        .lines()
        .map(|line| {
            let text = line.trim_start();
            let indent = line[..line.len() - text.len()]
                .chars()
                .map(|c| if c == '\t' { 4 } else { 1 })
                .sum();
            Line {
                indent,
                text: text.trim_end(),
            }
        })
        .collect();
    // The first paragraph is the summary the contract shows already.
    let mut i = lines.iter().position(|l| !l.blank()).unwrap_or(lines.len());
    while i < lines.len() && !lines[i].blank() && !starts_entry(lines[i].text) {
        i += 1;
    }
    let mut out: Vec<String> = Vec::new();
    while i < lines.len() && out.len() < MAX_LINES {
        i = step(&lines, i, &mut out);
    }
    out.truncate(MAX_LINES);
    out
}

/// Whether a line starts a field, a tag or a list item (a summary paragraph never runs into one).
fn starts_entry(text: &str) -> bool {
    text.starts_with(":param") || text.starts_with('@') || bullet(text).is_some()
}

/// Read what starts at line `i`, push its behaviour lines, and return the next line to read.
fn step(lines: &[Line<'_>], i: usize, out: &mut Vec<String>) -> usize {
    let line = lines[i];
    let text = line.text;
    if text.starts_with("```") || text.starts_with("~~~") {
        let close = &text[..3];
        let end = (i + 1..lines.len()).find(|&j| lines[j].text.starts_with(close));
        return end.map_or(lines.len(), |j| j + 1);
    }
    if text.starts_with(".. ") || text.starts_with(">>>") || text.ends_with("::") {
        return block_end(lines, i, line.indent);
    }
    if let Some(tag) = text.strip_prefix('@') {
        return jsdoc_tag(lines, i, tag, out);
    }
    if let Some(field) = text.strip_prefix(':') {
        return rest_field(lines, i, field, out);
    }
    if let Some((prefix, style, end)) = section_header(lines, i) {
        let header = Header {
            indent: line.indent,
            prefix,
            style,
        };
        return section(lines, end, &header, out);
    }
    if let Some(item) = bullet(text) {
        let (joined, next) = continued(lines, i, line.indent + 1, item);
        out.push(format!("- {}", compact_line(&joined)));
        return next;
    }
    i + 1
}

/// The line after the block that line `i` (at `indent`) opens: every following line more indented,
/// and blank lines among them.
fn block_end(lines: &[Line<'_>], i: usize, indent: usize) -> usize {
    let mut j = i + 1;
    while j < lines.len() && (lines[j].blank() || lines[j].indent > indent) {
        j += 1;
    }
    j
}

/// `first` joined with the lines that continue it (not blank, indented `min_indent` or more, not a
/// new tag, item or section), and the line after them.
fn continued(lines: &[Line<'_>], i: usize, min_indent: usize, first: &str) -> (String, usize) {
    let mut joined = first.to_string();
    let mut j = i + 1;
    while j < lines.len() {
        let next = lines[j];
        if next.blank()
            || next.indent < min_indent
            || starts_entry(next.text)
            || section_header(lines, j).is_some()
        {
            break;
        }
        joined.push(' ');
        joined.push_str(next.text);
        j += 1;
    }
    (joined, j)
}

/// A JSDoc tag at line `i`: `@param {T} name text` (kept, with its continuation lines) or another
/// tag (skipped, with an `@example`'s lines).
fn jsdoc_tag(lines: &[Line<'_>], i: usize, tag: &str, out: &mut Vec<String>) -> usize {
    let name = tag.split_whitespace().next().unwrap_or("");
    if !KEPT_TAGS.contains(&name) {
        let mut j = i + 1;
        while j < lines.len() && !lines[j].text.starts_with('@') {
            j += 1;
        }
        return match name {
            "example" | "examples" => j,
            _ => i + 1,
        };
    }
    let mut joined = format!("@{tag}");
    let mut j = i + 1;
    while j < lines.len() && !lines[j].blank() && !lines[j].text.starts_with('@') {
        joined.push(' ');
        joined.push_str(lines[j].text);
        j += 1;
    }
    out.push(compact_line(&joined));
    j
}

/// A reST field at line `i` (`:param x: text`, `:returns: text`, `:raises X: text`; `:type:` and
/// `:rtype:` skipped), and the definition list or bullets nested under it.
fn rest_field(lines: &[Line<'_>], i: usize, field: &str, out: &mut Vec<String>) -> usize {
    let indent = lines[i].indent;
    let Some((head, text)) = field.split_once(':') else {
        return i + 1;
    };
    let mut words = head.split_whitespace();
    let kind = words.next().unwrap_or("");
    let name = words.last();
    let label = match (kind, name) {
        ("param" | "parameter" | "arg" | "argument" | "key" | "keyword", Some(name)) => {
            format!("{name}: ")
        }
        ("return" | "returns", _) => "returns: ".to_string(),
        ("raise" | "raises" | "except" | "exception", Some(name)) => format!("raises {name}: "),
        ("raise" | "raises", None) => "raises: ".to_string(),
        _ => return block_end(lines, i, indent),
    };
    let (joined, mut j) = continued(lines, i, indent + 1, text.trim());
    out.push(format!("{label}{}", compact_line(&first_sentence(&joined))));
    let end = block_end(lines, i, indent);
    while j < end && out.len() < MAX_LINES {
        j = nested_entry(lines, j, end, out);
    }
    end
}

/// One entry nested under a field: a definition list item (a term line with its definition more
/// indented right below) or a bullet, as `  - term: definition`.
fn nested_entry(lines: &[Line<'_>], j: usize, end: usize, out: &mut Vec<String>) -> usize {
    let line = lines[j];
    if line.blank() {
        return j + 1;
    }
    if line.text.starts_with(".. ") {
        return block_end(lines, j, line.indent).min(end);
    }
    if let Some(item) = bullet(line.text) {
        let (joined, next) = continued(lines, j, line.indent + 1, item);
        out.push(format!("  - {}", compact_line(&joined)));
        return next.min(end);
    }
    let defined = j + 1 < end && !lines[j + 1].blank() && lines[j + 1].indent > line.indent;
    if defined {
        let (definition, next) = continued(lines, j + 1, line.indent + 1, lines[j + 1].text);
        let term = clean(line.text);
        let text = compact_line(&format!("{term}: {}", first_sentence(&definition)));
        out.push(format!("  - {text}"));
        return next.min(end);
    }
    j + 1
}

/// How a section's header is written, which says how its entries are.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Google's `Args:`: entries indented under it, each continued more indented.
    Google,
    /// NumPy's `Parameters` over `----------`: entries at its indent, continued more indented.
    NumPy,
    /// Markdown's `# Errors` (Rust): paragraphs and bullets until the next heading.
    Markdown,
}

/// A section header at line `i`: the prefix its entries take, its style and the line after it.
fn section_header(lines: &[Line<'_>], i: usize) -> Option<(&'static str, Style, usize)> {
    let text = lines[i].text;
    let (name, style, after) = if let Some(name) = text.strip_suffix(':') {
        (name, Style::Google, i + 1)
    } else if let Some(name) = text.strip_prefix('#') {
        (name.trim_start_matches('#').trim(), Style::Markdown, i + 1)
    } else {
        let rule = lines.get(i + 1).map(|l| l.text)?;
        if rule.len() < 3 || !rule.chars().all(|c| c == '-') {
            return None;
        }
        (text, Style::NumPy, i + 2)
    };
    let lower = name.trim().to_ascii_lowercase();
    let (_, prefix) = SECTIONS.iter().find(|(header, _)| *header == lower)?;
    Some((prefix, style, after))
}

/// A section's header, as [`section`] reads its entries.
struct Header {
    indent: usize,
    prefix: &'static str,
    style: Style,
}

/// The entries of a section starting at line `start`: one line each (an entry's first sentence),
/// until the next header or a line less indented than its entries.
fn section(lines: &[Line<'_>], start: usize, header: &Header, out: &mut Vec<String>) -> usize {
    let Some(first) = (start..lines.len()).find(|&j| !lines[j].blank()) else {
        return lines.len();
    };
    let entry_indent = lines[first].indent;
    let mut j = first;
    while j < lines.len() && out.len() < MAX_LINES {
        let line = lines[j];
        if line.blank() {
            j += 1;
            continue;
        }
        let ends = match header.style {
            Style::Google => line.indent <= header.indent,
            Style::NumPy => line.indent < header.indent,
            Style::Markdown => line.indent < header.indent || line.text.starts_with('#'),
        };
        if ends || line.indent < entry_indent || section_header(lines, j).is_some() {
            break;
        }
        if line.text.starts_with("```") || line.text.starts_with(".. ") {
            j = step(lines, j, &mut Vec::new());
            continue;
        }
        // A Markdown link's target (`[close]: Receiver::close`) is no entry.
        if is_link_definition(line.text) {
            j += 1;
            continue;
        }
        let item = bullet(line.text);
        let min_indent = match (header.style, item) {
            (Style::Markdown, None) => line.indent,
            _ => line.indent + 1,
        };
        let (joined, next) = continued(lines, j, min_indent, item.unwrap_or(line.text));
        let text = compact_line(&first_sentence(&joined));
        let dash = if item.is_some() { "- " } else { "" };
        out.push(format!("{}{dash}{text}", header.prefix));
        j = next.max(j + 1);
    }
    j
}

/// Whether a doc line defines a Markdown reference link (`[close]: Receiver::close`).
fn is_link_definition(text: &str) -> bool {
    text.strip_prefix('[')
        .and_then(|rest| rest.split_once("]:"))
        .is_some_and(|(label, _)| !label.is_empty() && !label.contains(']'))
}

/// The text of a bullet list item (`- x`, `* x`, `+ x`).
fn bullet(text: &str) -> Option<&str> {
    ["- ", "* ", "+ "]
        .iter()
        .find_map(|marker| text.strip_prefix(marker))
        .map(str::trim)
        .filter(|item| !item.is_empty())
}

/// `text` up to the end of its first sentence (a `.` followed by a space), whole when it has none.
fn first_sentence(text: &str) -> String {
    let bytes = text.as_bytes();
    for (at, _) in text.match_indices(". ") {
        // Not after an abbreviation's single letter (`e.g. x`, `i.e. y`).
        let before = &text[..at];
        let word = before.rsplit(' ').next().unwrap_or(before);
        if word.len() > 1 && !word.contains('.') && bytes.get(at + 2).is_some() {
            return text[..=at].to_string();
        }
    }
    text.to_string()
}

/// reST and Markdown inline markup removed: ``x`` and `x` become x, :role:`~a.b.C` becomes C.
fn clean(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(":`") {
        // A role (`:attr:`x``): drop `:attr:`, keep the target.
        let start = rest[..at].rfind(|c: char| c.is_whitespace() || c == '(');
        let role_start = start.map_or(0, |s| s + 1);
        let is_role = rest[role_start..at].starts_with(':');
        out.push_str(&rest[..if is_role { role_start } else { at + 1 }]);
        rest = &rest[at + 1..];
        if is_role {
            if let Some(tilde) = rest.strip_prefix("`~") {
                let end = tilde.find('`').unwrap_or(tilde.len());
                let target = &tilde[..end];
                out.push_str(target.rsplit('.').next().unwrap_or(target));
                rest = tilde.get(end + 1..).unwrap_or("");
            }
        }
    }
    out.push_str(rest);
    out.replace("``", "").replace('`', "")
}

/// One output line: markup removed, whitespace collapsed, cut at [`MAX_LINE`] characters.
fn compact_line(text: &str) -> String {
    let joined = clean(text).split_whitespace().collect::<Vec<_>>().join(" ");
    if joined.chars().count() <= MAX_LINE {
        return joined;
    }
    let cut: String = joined.chars().take(MAX_LINE - 1).collect();
    format!("{}…", cut.trim_end())
}

#[cfg(test)]
mod tests {
    /// The link targets under a section (tokio's `[close]: Receiver::close`) are no entries.
    #[test]
    fn link_definitions_are_no_entries() {
        let doc = "Sends a value.\n\n# Errors\n\nIf the receiver is closed.\n\n[close]: Receiver::close\n[Receiver]: Receiver\n";
        assert_eq!(behaviour_lines(doc), ["Errors: If the receiver is closed."]);
    }

    use super::*;

    /// flask's `App.make_response`: the parameter and the return values it accepts.
    #[test]
    fn a_rest_field_and_its_definition_list_are_one_line_each() {
        let doc = "Convert the return value from a view function to an instance of\n:attr:`response_class`.\n\n\
                   :param rv: the return value from the view function. The view function\n    must return a response.\n    for ``view_rv``:\n\n    \
                   ``str``\n        A response object is created with the string encoded to UTF-8\n        as the body.\n\n    \
                   ``tuple``\n        Either ``(body, status, headers)``, or ``(body, headers)``. If more.\n\n    \
                   other :class:`~werkzeug.wrappers.Response` class\n        The object is coerced to :attr:`response_class`.\n\n\
                   .. versionchanged:: 2.2\n    A generator will be converted to a streaming response.\n\n\
                   :returns: a response.\n:raises TypeError: when the value is none of these.\n:rtype: Response\n";
        assert_eq!(
            behaviour_lines(doc),
            [
                "rv: the return value from the view function.",
                "  - str: A response object is created with the string encoded to UTF-8 as the body.",
                "  - tuple: Either (body, status, headers), or (body, headers).",
                "  - other Response class: The object is coerced to response_class.",
                "returns: a response.",
                "raises TypeError: when the value is none of these.",
            ]
        );
    }

    #[test]
    fn google_and_numpy_sections_give_one_line_per_entry() {
        let google = "Open a file.\n\nArgs:\n    path (str): Where it is. More text.\n    mode: How to open\n        it, wrapped.\n\n\
                      Returns:\n    The file object.\n\nRaises:\n    OSError: When it cannot be opened.\n\nExample:\n    >>> open_file('x')\n";
        assert_eq!(
            behaviour_lines(google),
            [
                "path (str): Where it is.",
                "mode: How to open it, wrapped.",
                "returns: The file object.",
                "raises OSError: When it cannot be opened.",
            ]
        );
        let numpy = "Sum.\n\nParameters\n----------\nx : int\n    The first.\nReturns\n-------\nint\n    The sum.\n";
        assert_eq!(
            behaviour_lines(numpy),
            ["x : int The first.", "returns: int The sum."]
        );
    }

    #[test]
    fn jsdoc_tags_keep_params_returns_and_throws() {
        let doc = "Send JSON response.\n\nExamples:\n\n    res.json(null);\n\n@param {string|number|boolean|object} obj the body\n   to send\n@return {ServerResponse}\n@throws {TypeError} on a cycle\n@example\nres.json({})\n@public";
        assert_eq!(
            behaviour_lines(doc),
            [
                "@param {string|number|boolean|object} obj the body to send",
                "@return {ServerResponse}",
                "@throws {TypeError} on a cycle",
            ]
        );
    }

    #[test]
    fn rust_sections_and_bullets_are_kept_code_is_not() {
        let doc = "Parse the input.\n\nAccepts:\n- a path\n- a URL, which is fetched first and then parsed by the parser that handles the scheme it names, whatever that is\n\n```\nlet x = parse(\"a\");\n```\n\n# Errors\n\nFails when the input is empty. Or when it is bad.\n\n# Panics\n\n- when the lock is poisoned\n";
        assert_eq!(
            behaviour_lines(doc),
            [
                "- a path",
                "- a URL, which is fetched first and then parsed by the parser that handles the scheme it names, whate…",
                "Errors: Fails when the input is empty.",
                "Panics: - when the lock is poisoned",
            ]
        );
    }

    #[test]
    fn a_doc_of_one_paragraph_has_no_behaviour_lines() {
        assert!(behaviour_lines("Return the value.\nIt is cached.").is_empty());
        assert!(behaviour_lines("").is_empty());
    }
}
