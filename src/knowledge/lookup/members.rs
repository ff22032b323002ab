//! The `## Members` section of a compact `lexi lookup`: every public member of the file on one
//! line with the first sentence of its doc, within a byte budget, whatever the file's size.
//!
//! ```text
//! - class App(Scaffold) — The flask object implements a WSGI application and acts as the central…
//!   - make_config(instance_relative) — Used to create the config attribute by the Flask constructor.
//!   - also: create_jinja_environment, add_url_rule, template_filter, … +12
//!   - fields (15): aborter_class, jinja_environment, app_ctx_globals_class, … +12
//! ```
//!
//! A member's line shows its name and parameter names (types, defaults and `self` left out: `lexi
//! lookup --member` has the whole signature) and its doc's first sentence. Fields, attributes and
//! module values are names on one line per type. When not every line fits, the most important
//! members (`archivist::abridge::by_importance`: top-level declarations, then the primary type's
//! methods, …) keep their lines and the others are named on one `also:` line under their type;
//! what still does not fit is counted. Repeated signatures of one name (`@overload`) are shown once.

use std::collections::HashSet;

use crate::archivist::abridge::by_importance;
use crate::source::{OutlineLine, SymbolKind};
use crate::workspace::outlines::MemberOutline;

/// Longest doc sentence shown on a member's line, in bytes.
const SENTENCE_BYTES: usize = 100;
/// Longest signature shown for a type, header or module line, in bytes.
const LABEL_BYTES: usize = 72;
/// Longest `also:` or `fields:` line, in bytes, when not every name fits.
const NAMES_BYTES: usize = 200;

/// One member as the section may show it.
#[derive(Clone, Debug)]
struct Entry {
    depth: usize,
    /// Its outline line's parent entry (the type or header it is indented under).
    parent: Option<usize>,
    /// `make_config(instance_relative)`, `class App(Scaffold)`.
    label: String,
    /// The name an `also:` line gives it.
    name: String,
    /// ` — First sentence.`, empty when it has no doc.
    sentence: String,
    /// A field, attribute or module value: named on its parent's `fields:` line only.
    value: bool,
    /// A line that only groups members (`impl Builder`): never named itself.
    header: bool,
}

impl Entry {
    /// Whether the entry may get a line of its own: a value only when it has a doc (express's
    /// `req.protocol` getter); undocumented values are only named on their `fields:` line.
    fn has_line(&self) -> bool {
        !self.value || !self.sentence.is_empty()
    }
}

/// How an entry is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shown {
    /// Its own line, with its doc's first sentence.
    Line,
    /// Named on its parent's `also:` line.
    Named,
}

/// The section's lines for `outline` (the file's public interface and its primary type) within
/// `room` bytes, and how many members are not named at all. Empty for an empty outline.
pub fn member_lines(outline: &MemberOutline, room: usize) -> Vec<String> {
    let (entries, by_outline) = entries(outline);
    if entries.is_empty() {
        return Vec::new();
    }
    let whole = render(&entries, &vec![Shown::Line; entries.len()], usize::MAX);
    if cost(&whole) <= room {
        return whole;
    }
    // Every member named (each `also:` line whole when they all fit, else cut to
    // [`NAMES_BYTES`]), then, in order of importance, members given their own line (with the types
    // they sit in) while the section fits.
    let mut shown = vec![Shown::Named; entries.len()];
    let named = render(&entries, &shown, usize::MAX);
    let cap = match cost(&named) <= room {
        true => usize::MAX,
        false => NAMES_BYTES,
    };
    let mut lines = render(&entries, &shown, cap);
    for index in by_importance(outline.lines(), outline.primary()) {
        let Some(entry) = by_outline[index] else {
            continue;
        };
        if shown[entry] == Shown::Line || !entries[entry].has_line() {
            continue;
        }
        let mut tried = shown.clone();
        let mut current = Some(entry);
        while let Some(at) = current {
            tried[at] = Shown::Line;
            current = entries[at].parent;
        }
        let candidate = render(&entries, &tried, cap);
        if cost(&candidate) <= room {
            shown = tried;
            lines = candidate;
        }
    }
    cut_to(lines, room, entries.len())
}

/// Bytes the lines take, line breaks included.
fn cost(lines: &[String]) -> usize {
    lines.iter().map(|line| line.len() + 1).sum()
}

/// `lines` cut to `room` bytes, the last kept line saying how many of the `members` lines are left
/// out when some are.
fn cut_to(mut lines: Vec<String>, room: usize, members: usize) -> Vec<String> {
    if cost(&lines) <= room {
        return lines;
    }
    let total = lines.len();
    let note = |left: usize| format!("- … and {left} more lines (`--full`)");
    while !lines.is_empty() && cost(&lines) + note(total).len() + 1 > room {
        lines.pop();
    }
    let left = total - lines.len();
    if left > 0 && members > 0 {
        lines.push(note(left));
    }
    lines
}

/// The entries of `outline` (overloads and nameless lines left out) and, per outline line, its
/// entry.
fn entries(outline: &MemberOutline) -> (Vec<Entry>, Vec<Option<usize>>) {
    let mut entries: Vec<Entry> = Vec::new();
    let mut by_outline: Vec<Option<usize>> = vec![None; outline.lines().len()];
    // The entry of the line currently open at each depth.
    let mut open: Vec<usize> = Vec::new();
    let mut seen: HashSet<(Option<String>, String, usize, Option<SymbolKind>)> = HashSet::new();
    for (index, line) in outline.lines().iter().enumerate() {
        let sentence = || shown(outline.sentence(index));
        open.truncate(line.depth);
        let parent = open.last().copied();
        let key = (
            line.parent.clone(),
            line.name.clone(),
            line.depth,
            line.kind,
        );
        let is_header = line.kind.is_none();
        if !is_header && !seen.insert(key) {
            // Another signature of a name already listed (`@overload`): its doc when the first
            // had none (the implementation after the overloads holds it).
            let first = entries
                .iter()
                .rposition(|e| e.name == short_name(line) && e.depth == line.depth);
            if let Some(first) = first.filter(|&at| entries[at].sentence.is_empty()) {
                entries[first].sentence = sentence();
            }
            by_outline[index] = first;
            continue;
        }
        let value = matches!(
            line.kind,
            Some(SymbolKind::Variable | SymbolKind::Constant | SymbolKind::Static)
        );
        entries.push(Entry {
            depth: line.depth,
            parent,
            label: label(line),
            name: short_name(line),
            sentence: sentence(),
            value,
            header: is_header,
        });
        let at = entries.len() - 1;
        by_outline[index] = Some(at);
        // Only a line that can hold members opens a level (a value never does).
        while open.len() < line.depth {
            open.push(at);
        }
        open.push(at);
    }
    (entries, by_outline)
}

/// The section's lines with each entry shown as `shown` says: in source order, each line followed
/// by its children's lines, then an `also:` line naming its children that have no line, then a
/// `fields:` line naming its values.
fn render(entries: &[Entry], shown: &[Shown], cap: usize) -> Vec<String> {
    let mut children: Vec<Vec<usize>> = vec![Vec::new(); entries.len() + 1];
    for (i, entry) in entries.iter().enumerate() {
        children[entry.parent.unwrap_or(entries.len())].push(i);
    }
    let tree = Tree {
        entries,
        shown,
        children,
        cap,
    };
    let mut lines = Vec::new();
    tree.render_children(None, 0, &mut lines);
    lines
}

/// The entries with their children listed once, for [`render`].
struct Tree<'a> {
    entries: &'a [Entry],
    shown: &'a [Shown],
    /// The children of each entry, in source order; the last list holds the top-level entries.
    children: Vec<Vec<usize>>,
    /// The longest `also:` or `fields:` line.
    cap: usize,
}

impl Tree<'_> {
    fn children_of(&self, parent: Option<usize>) -> &[usize] {
        &self.children[parent.unwrap_or(self.entries.len())]
    }

    fn render_children(&self, parent: Option<usize>, depth: usize, lines: &mut Vec<String>) {
        let indent = "  ".repeat(depth);
        let mut named: Vec<&str> = Vec::new();
        let mut values: Vec<&str> = Vec::new();
        let before = lines.len();
        for &child in self.children_of(parent) {
            let entry = &self.entries[child];
            if self.shown[child] == Shown::Line && entry.has_line() {
                lines.push(format!("{indent}- {}{}", entry.label, entry.sentence));
                self.render_children(Some(child), depth + 1, lines);
            } else if entry.value {
                values.push(&entry.name);
            } else {
                if !entry.header {
                    named.push(&entry.name);
                }
                self.descendant_names(child, &mut named);
            }
        }
        if !named.is_empty() {
            let word = match lines.len() == before && parent.is_none() {
                true => "members",
                false => "also",
            };
            lines.push(names_line(&indent, word, &named, self.cap));
        }
        if !values.is_empty() {
            let word = match parent {
                None => "values",
                Some(_) => "fields",
            };
            lines.push(names_line(&indent, word, &values, self.cap));
        }
    }

    /// The names of the members under `entry`, its fields among them (none of which has a line
    /// when it has none).
    fn descendant_names<'s>(&'s self, entry: usize, names: &mut Vec<&'s str>) {
        for &child in self.children_of(Some(entry)) {
            let entry = &self.entries[child];
            if !entry.header {
                names.push(&entry.name);
            }
            self.descendant_names(child, names);
        }
    }
}

/// `- also (14): a, b, c, … +11`: as many names as fit in `cap` bytes, the rest counted.
fn names_line(indent: &str, word: &str, names: &[&str], cap: usize) -> String {
    let head = match names.len() {
        1 => format!("{indent}- {word}: "),
        n => format!("{indent}- {word} ({n}): "),
    };
    let mut line = head.clone();
    for (i, name) in names.iter().enumerate() {
        let rest = names.len() - i;
        let tail = if rest > 1 {
            format!(", … +{}", rest - 1)
        } else {
            String::new()
        };
        let separator = if i == 0 { "" } else { ", " };
        if line.len() + separator.len() + name.len() + tail.len() > cap && i > 0 {
            line.push_str(&format!(", … +{rest}"));
            return line;
        }
        line.push_str(separator);
        line.push_str(name);
    }
    line
}

/// The name an `also:` line gives a member: its outline name (`res.json`, `make_config`), or its
/// signature for a header (`impl Display for Error`).
fn short_name(line: &OutlineLine) -> String {
    match line.name.is_empty() {
        true => cut(&line.text, LABEL_BYTES),
        false => line.name.clone(),
    }
}

/// What a member's line shows before its doc: a callable's name and parameter names, a type's or
/// header's signature (cut).
fn label(line: &OutlineLine) -> String {
    let callable = matches!(
        line.kind,
        Some(SymbolKind::Function | SymbolKind::Method | SymbolKind::Macro)
    );
    if !callable || line.name.is_empty() {
        return cut(&line.text, LABEL_BYTES);
    }
    let decorators: Vec<&str> = line
        .text
        .split_whitespace()
        .take_while(|word| word.starts_with('@'))
        .map(|word| word.split('(').next().unwrap_or(word))
        .collect();
    let mut label = String::new();
    for decorator in decorators {
        label.push_str(decorator);
        label.push(' ');
    }
    label.push_str(&line.name);
    // A property reads as a value: no parameter list.
    let property = label.contains("property")
        || [".setter ", ".getter ", ".deleter "]
            .iter()
            .any(|accessor| label.contains(accessor));
    if property {
        return label;
    }
    if let Some(params) = parameter_names(&line.text, &line.name) {
        label.push('(');
        label.push_str(&params);
        label.push(')');
    }
    label
}

/// The parameter names of a callable's signature `text` (`def f(self, a: int = 1, *rest)` →
/// `a, *rest`): `None` when it has no parameter list after its name.
fn parameter_names(text: &str, name: &str) -> Option<String> {
    let last = name.rsplit(['.', ':']).next().unwrap_or(name);
    let after_name = text
        .find(name)
        .map(|at| at + name.len())
        .or_else(|| text.find(last).map(|at| at + last.len()))
        .unwrap_or(0);
    let open = after_name + text[after_name..].find('(')?;
    let inner = balanced(&text[open + 1..])?;
    let names: Vec<String> = split_top_level(inner)
        .into_iter()
        .filter_map(parameter_name)
        .collect();
    Some(cut(&names.join(", "), LABEL_BYTES))
}

/// The text up to the parenthesis that closes the one just before `text` starts.
fn balanced(text: &str) -> Option<&str> {
    let mut depth = 0usize;
    for (at, c) in outside_strings(text) {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' if depth == 0 => return Some(&text[..at]),
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '>' if at > 0 && text.as_bytes()[at - 1] == b'-' => {}
            '>' if text[..at].ends_with('=') => {}
            '>' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// The characters of a signature outside its string literals (a default `separator = ", "` holds
/// a comma and brackets that are no parameter's): a `"…"` string, or a `'…'` one right after `=`
/// (Python's `sep=', '`; a `'` elsewhere is a Rust lifetime or a char).
fn outside_strings(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    let mut last_code = ' ';
    text.char_indices().filter(move |&(_, c)| {
        if let Some(open) = quote {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, c) if c == open => quote = None,
                _ => {}
            }
            return false;
        }
        let opens = c == '"' || (c == '\'' && last_code == '=');
        if opens {
            quote = Some(c);
            return false;
        }
        if !c.is_whitespace() {
            last_code = c;
        }
        true
    })
}

/// `text` split at its commas outside brackets.
fn split_top_level(text: &str) -> Vec<&str> {
    let mut parts = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    for (at, c) in outside_strings(text) {
        match c {
            '(' | '[' | '{' | '<' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            '>' if at > 0 && matches!(text.as_bytes()[at - 1], b'-' | b'=') => {}
            '>' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                parts.push(&text[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(&text[start..]);
    parts
}

/// The name of one parameter (`a: int = 1` → `a`, `*args` → `*args`, `&mut self` → none, `{ a, b }`
/// → `{…}`); `None` for the receiver, a bare `*` or `/`, or nothing.
fn parameter_name(param: &str) -> Option<String> {
    let param = param.trim().trim_start_matches('&').trim_start();
    let param = param.strip_prefix("mut ").unwrap_or(param);
    if param.is_empty() || param == "/" {
        return None;
    }
    if param.starts_with('{') || param.starts_with('[') || param.starts_with('(') {
        return Some("{…}".to_string());
    }
    // PHP: the `$variable` is the name, after its type (`?Request $request`, `int &...$ids`).
    let before_default = param.split('=').next().unwrap_or(param);
    if let Some(variable) = before_default
        .split_whitespace()
        .map(|word| word.trim_start_matches(['&', '.']))
        .find(|word| word.starts_with('$') && word.len() > 1)
    {
        return Some(variable.to_string());
    }
    let end = param.find([':', '=', ' ']).unwrap_or(param.len());
    let name = param[..end].trim();
    let bare = name
        .trim_start_matches(['&', '*', '.'])
        .trim_start_matches("mut ");
    if matches!(bare, "self" | "cls" | "this" | "") || name.starts_with('\'') {
        return None;
    }
    Some(name.to_string())
}

/// ` — First sentence of the doc.` (cut to [`SENTENCE_BYTES`]) for a line whose doc's first
/// sentence is `sentence`; empty without one.
fn shown(sentence: Option<&str>) -> String {
    match sentence {
        Some(sentence) => format!(" — {}", cut(sentence, SENTENCE_BYTES)),
        None => String::new(),
    }
}

/// The line of `outline`'s line `index` without its list marker: `route(rule, **options) —
/// Decorate a view function…` (what a search hit shows of its best member).
/// `None` when the outline has no such line.
pub fn member_line(outline: &MemberOutline, index: usize) -> Option<String> {
    let line = outline.lines().get(index)?;
    Some(format!("{}{}", label(line), shown(outline.sentence(index))))
}

/// `text` on one line, cut to at most `max` bytes at a character boundary with `…`.
pub fn cut(text: &str, max: usize) -> String {
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.len() <= max {
        return text;
    }
    let mut end = max.saturating_sub('…'.len_utf8());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", text[..end].trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{extract, Language};

    const APP: &str = "class App(Base):\n    \"\"\"The central object.\"\"\"\n    testing = False\n    secret_key = None\n\n    def __init__(self, import_name: str, static: str | None = None) -> None:\n        pass\n\n    def make_config(self, instance_relative: bool = False) -> Config:\n        \"\"\"Used to create the config attribute. More words.\"\"\"\n\n    @property\n    def debug(self) -> bool:\n        \"\"\"Whether debug mode is enabled.\"\"\"\n\n    def route(self, rule: str, **options: t.Any):\n        \"\"\"Decorate a view function to register it.\"\"\"\n";

    fn outline(language: Language, text: &str, primary: &str) -> MemberOutline {
        let lines = extract(language, text).expect("parses").outline().to_vec();
        MemberOutline::from_lines(&lines, Some(primary.to_string()))
    }

    #[test]
    fn every_member_gets_a_line_with_its_first_sentence_when_all_fit() {
        let lines = member_lines(&outline(Language::Python, APP, "App"), 4096);
        assert_eq!(
            lines,
            [
                "- class App(Base) — The central object.",
                "  - __init__(import_name, static)",
                "  - make_config(instance_relative) — Used to create the config attribute.",
                "  - @property debug — Whether debug mode is enabled.",
                "  - route(rule, **options) — Decorate a view function to register it.",
                "  - fields (2): testing, secret_key",
            ]
        );
    }

    #[test]
    fn the_most_important_members_keep_their_lines_and_the_rest_are_named() {
        let outline = outline(Language::Python, APP, "App");
        let whole = member_lines(&outline, 4096);
        let room = cost(&whole) - 40;
        let lines = member_lines(&outline, room);
        assert!(cost(&lines) <= room, "{lines:?}");
        assert_eq!(lines[0], "- class App(Base) — The central object.");
        assert!(lines.iter().any(|l| l.starts_with("  - also")), "{lines:?}");
        // Whatever is left out is named or counted.
        let text = lines.join("\n");
        for name in ["__init__", "make_config", "debug", "route", "testing"] {
            assert!(text.contains(name), "{name}: {text}");
        }
    }

    #[test]
    fn a_tiny_room_still_counts_what_it_leaves_out() {
        let lines = member_lines(&outline(Language::Python, APP, "App"), 60);
        assert!(cost(&lines) <= 60, "{lines:?}");
        assert!(
            lines.last().unwrap().contains("more lines (`--full`)"),
            "{lines:?}"
        );
    }

    #[test]
    fn parameters_keep_their_names_only() {
        assert_eq!(
            parameter_names(
                "public function map(?array $methods, string $pattern = 'a, b', int &...$ids): RouteInterface",
                "Route.map"
            )
            .as_deref(),
            Some("$methods, $pattern, $ids")
        );
        assert_eq!(
            parameter_names(
                "pub fn thread_name_fn<F>(&mut self, f: F) -> &mut Self where F: Fn() -> String",
                "thread_name_fn"
            )
            .as_deref(),
            Some("f")
        );
        assert_eq!(
            parameter_names(
                "res.sendFile = function sendFile(path, options, callback)",
                "res.sendFile"
            )
            .as_deref(),
            Some("path, options, callback")
        );
        assert_eq!(
            parameter_names(
                "def f(self, a: dict[str, int] = {}, *args, b=(1, 2), **kw) -> None",
                "f"
            )
            .as_deref(),
            Some("a, *args, b, **kw")
        );
        assert_eq!(
            parameter_names(
                "export function f({ a, b }: Opts, cb: (x: number) => void)",
                "f"
            )
            .as_deref(),
            Some("{…}, cb")
        );
        assert_eq!(parameter_names("pub const X: u8", "X"), None);
    }

    /// A default value's string holds commas and brackets that are no parameter's (kotlinpoet's
    /// `joinToCode(separator: CharSequence = ", ", …)` read as `separator, ", prefix`); a Rust
    /// lifetime is no quote.
    #[test]
    fn strings_in_default_values_are_not_split() {
        let cases = [
            (
                "public fun Collection<CodeBlock>.joinToCode(separator: CharSequence = \", \", prefix: CharSequence = \"(\", suffix: CharSequence = \"\"): CodeBlock",
                "joinToCode",
                "separator, prefix, suffix",
            ),
            ("def join(items, sep=', ', end=')')", "join", "items, sep, end"),
            ("def q(a=\"\\\", (\", b=1)", "q", "a, b"),
            (
                "pub fn parse<'a>(text: &'a str, sep: char) -> Vec<&'a str>",
                "parse",
                "text, sep",
            ),
        ];
        for (text, name, names) in cases {
            assert_eq!(
                parameter_names(text, name).as_deref(),
                Some(names),
                "{text}"
            );
        }
    }

    #[test]
    fn overloads_are_listed_once() {
        let text = "import typing as t\nclass A:\n    @t.overload\n    def f(self, x: int) -> int: ...\n    @t.overload\n    def f(self, x: str) -> str: ...\n    def f(self, x):\n        \"\"\"Do f.\"\"\"\n";
        let lines = member_lines(&outline(Language::Python, text, "A"), 4096);
        assert_eq!(
            lines.iter().filter(|l| l.contains(" f(")).count(),
            1,
            "{lines:?}"
        );
    }

    #[test]
    fn cut_keeps_character_boundaries() {
        assert_eq!(cut("ééééé", 6), "é…");
        assert_eq!(cut("short  text", 40), "short text");
    }
}
