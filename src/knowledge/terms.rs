//! Search terms: how text — a path, an identifier, a description, a query — becomes the words
//! search compares.
//!
//! - **Splitting**: words are split at anything that is not a letter or digit, and identifiers
//!   also at their case changes: `handle_exception` → `handle`, `exception`; `addUrlRule` → `add`,
//!   `url`, `rule`; `src/flask/app.py` → `src`, `flask`, `app`, `py`. A compound word is also kept
//!   whole (`handle_exception`, `src/flask/app.py`), so exact identifiers and paths still match.
//! - **Stemming** (light, English): a few suffixes are removed so that `routing`, `route`,
//!   `routes`, `router` and `routed` all become `rout`, `dependencies` becomes `dependency`,
//!   `handling`/`handler`/`handles` become `handl`, and `tokenizing`/`tokenizer`/`tokenization`
//!   become `token`. It never leaves fewer than three letters.
//! - **Term strings**: the distinct terms of a field, space-separated with a space at each end, so
//!   that `" rout"` finds a term starting with `rout` and `" rout "` the exact term — one substring
//!   search per field, fast enough for 20,000 documents.
//! - **Symbols**: the names an Interface Contract declares (`fn parse`, `class Scaffold`,
//!   `def route`, `export function json`), indexed as their own field.

use std::collections::HashSet;

use crate::source::lang::LANGUAGES;

/// Words too common in questions to say anything about a topic.
const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "do", "does", "for", "from", "how", "i", "in",
    "is", "it", "of", "on", "or", "the", "this", "that", "to", "what", "where", "which", "who",
    "with", "why",
];

/// The stem of one lower-case word: [`inflection_stem`], then a verb made with `-ize` back to its
/// noun or adjective (`tokenizing`, `tokenize`, `tokenizer`, `tokenization` → `token`;
/// `normalize` → `normal`), never leaving fewer than four letters.
pub fn stem(word: &str) -> String {
    let base = word.strip_suffix("ization").filter(|base| base.len() >= 4);
    let stemmed = match base {
        Some(base) => base.to_string(),
        None => inflection_stem(word),
    };
    match stemmed.strip_suffix("iz") {
        Some(base) if base.len() >= 4 => base.to_string(),
        _ => stemmed,
    }
}

/// The stem of one lower-case word without its inflection (`routing`, `routes` → `rout`).
fn inflection_stem(word: &str) -> String {
    if word.len() <= 3 || !word.bytes().all(|b| b.is_ascii_lowercase()) {
        return word.to_string();
    }
    if let Some(base) = word.strip_suffix("ies") {
        if base.len() >= 3 {
            return format!("{base}y");
        }
    }
    for suffix in ["ings", "ing", "ers", "er", "ed", "es", "s", "e"] {
        let Some(base) = word.strip_suffix(suffix) else {
            continue;
        };
        if base.len() < 3 {
            continue;
        }
        // `class`, `process`: a double s is part of the word.
        if (suffix == "s" && base.ends_with('s')) || (suffix == "es" && !base.ends_with("ss")) {
            if suffix == "es" {
                // `routes` → `rout`: drop the `s`, then the `e`.
                return base.to_string();
            }
            continue;
        }
        return base.to_string();
    }
    word.to_string()
}

/// The raw words of `text`: runs of letters, digits and `_ / . - :` (identifiers and paths stay
/// whole), with leading and trailing punctuation removed.
fn raw_words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '/' | '.' | '-' | ':')))
        .map(|word| word.trim_matches(|c: char| matches!(c, '.' | ':' | '-' | '/' | '_')))
        .filter(|word| !word.is_empty())
}

/// The parts of one raw word: split at separators and at lower→upper case changes
/// (`addURLRule` → `add`, `url`, `rule`), lower-cased.
fn parts(word: &str) -> Vec<String> {
    let mut out = Vec::new();
    for piece in word.split(|c: char| !c.is_alphanumeric()) {
        let chars: Vec<char> = piece.chars().collect();
        let mut start = 0;
        for i in 1..chars.len() {
            let (prev, cur) = (chars[i - 1], chars[i]);
            let next_lower = chars.get(i + 1).is_some_and(|c| c.is_lowercase());
            let boundary = (prev.is_lowercase() && cur.is_uppercase())
                || (prev.is_uppercase() && cur.is_uppercase() && next_lower)
                || (prev.is_alphabetic() != cur.is_alphabetic());
            if boundary {
                out.push(chars[start..i].iter().collect::<String>().to_lowercase());
                start = i;
            }
        }
        if start < chars.len() {
            out.push(chars[start..].iter().collect::<String>().to_lowercase());
        }
    }
    out
}

/// Every term of `text` (parts stemmed, compound words also whole), in first-seen order.
pub fn terms(text: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for word in raw_words(text) {
        let pieces = parts(word);
        if pieces.len() > 1 {
            let whole = word.to_lowercase();
            if seen.insert(whole.clone()) {
                out.push(whole);
            }
        }
        for piece in pieces {
            let term = stem(&piece);
            if seen.insert(term.clone()) {
                out.push(term);
            }
        }
    }
    out
}

/// The terms of a query: parts only (stemmed), stop words left out unless nothing else is left.
pub fn query_terms(text: &str) -> Vec<String> {
    let mut all = Vec::new();
    let mut meaningful = Vec::new();
    for word in raw_words(text) {
        for piece in parts(word) {
            let term = stem(&piece);
            if !STOP_WORDS.contains(&piece.as_str()) && !meaningful.contains(&term) {
                meaningful.push(term.clone());
            }
            if !all.contains(&term) {
                all.push(term);
            }
        }
    }
    if meaningful.is_empty() {
        all
    } else {
        meaningful
    }
}

/// Whether `text` is one identifier of several parts (`block_on`, `addUrlRule`), not a phrase of
/// words or a path.
pub fn is_compound(text: &str) -> bool {
    let mut words = raw_words(text);
    match (words.next(), words.next()) {
        (Some(word), None) => !word.contains(['/', '.']) && parts(word).len() > 1,
        _ => false,
    }
}

/// The term string of several texts: ` a b c ` (distinct terms, a space at each end).
pub fn term_string<'a>(texts: impl IntoIterator<Item = &'a str>) -> String {
    let mut seen = HashSet::new();
    let mut out = String::from(" ");
    for text in texts {
        for term in terms(text) {
            if seen.insert(term.clone()) {
                out.push_str(&term);
                out.push(' ');
            }
        }
    }
    out
}

/// The term string of one name (a symbol, a tag), kept per thread: search matches every query
/// term against every symbol of every candidate, the same names call after call in a long-lived
/// MCP server. The same text as `term_string([name])`.
pub fn name_terms(name: &str) -> std::rc::Rc<str> {
    /// Names kept per thread before the memo starts over.
    const MAX_NAMES: usize = 100_000;
    thread_local! {
        static KEPT: std::cell::RefCell<std::collections::HashMap<String, std::rc::Rc<str>>> =
            std::cell::RefCell::default();
    }
    KEPT.with(|kept| {
        if let Some(found) = kept.borrow().get(name) {
            return std::rc::Rc::clone(found);
        }
        let terms: std::rc::Rc<str> = term_string([name]).into();
        let mut kept = kept.borrow_mut();
        if kept.len() >= MAX_NAMES {
            kept.clear();
        }
        kept.insert(name.to_string(), std::rc::Rc::clone(&terms));
        terms
    })
}

/// How a term occurs in a term string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Occurs {
    /// A term that starts with it (`json` in `jsonify`); only for terms of three letters or more.
    Prefix,
    Exact,
}

/// Whether (and how) `term` occurs in the term string `field`.
pub fn occurs(field: &str, term: &str) -> Option<Occurs> {
    let mut from = 0;
    let mut prefix = false;
    while let Some(at) = field[from..].find(term) {
        let start = from + at;
        let end = start + term.len();
        if start > 0 && field.as_bytes()[start - 1] == b' ' {
            if field.as_bytes().get(end) == Some(&b' ') {
                return Some(Occurs::Exact);
            }
            prefix = true;
        }
        from = end;
    }
    (prefix && term.len() >= 3).then_some(Occurs::Prefix)
}

/// How many times `term` occurs as a whole term in `field` (a symbols field keeps one run of
/// terms per symbol, so this counts the symbols holding it).
pub fn frequency(field: &str, term: &str) -> usize {
    let needle = format!(" {term} ");
    let mut count = 0;
    let mut from = 0;
    while let Some(at) = field[from..].find(&needle) {
        count += 1;
        from += at + needle.len() - 1;
    }
    count
}

/// Declaration keywords of languages the registry does not parse yet, found in contracts a model
/// wrote for their files (none since Go's `func` is the registry's).
const UNPARSED_KEYWORDS: &[&str] = &[];

/// Whether `word` is a declaration keyword of a registry language (its name follows) or of
/// [`UNPARSED_KEYWORDS`].
fn is_declaration_keyword(word: &str) -> bool {
    UNPARSED_KEYWORDS.contains(&word)
        || LANGUAGES
            .iter()
            .any(|spec| spec.declaration_keywords.contains(&word))
}

/// The names an Interface Contract declares: the identifier after a declaration keyword
/// (`fn`, `struct`, `class`, `def`, `function`, `const`, …), else a line's leading `name(` or
/// `name:`.
pub fn symbols(contract: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in contract.lines() {
        let line = line.trim();
        if line.starts_with("```") || line.starts_with("//") || line.starts_with('#') {
            continue;
        }
        let words: Vec<&str> = line
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '!' || c == '$'))
            .filter(|w| !w.is_empty())
            .collect();
        // A keyword is a word of its own (`module Rack`), never part of a path (`module.exports`).
        let declared = words
            .windows(2)
            .find(|pair| {
                is_declaration_keyword(pair[0])
                    && line.split_whitespace().any(|token| token == pair[0])
            })
            .map(|pair| pair[1]);
        let name = declared.or_else(|| {
            let first = words.first()?;
            let rest = line.get(first.len()..)?.trim_start();
            let at_start = line.starts_with(first);
            (at_start && (rest.starts_with('(') || rest.starts_with(':') || rest.is_empty()))
                .then_some(*first)
        });
        let name = ruby_method(line).or(name.map(|name| name.trim_end_matches('!')));
        if let Some(name) = name {
            let name = name.to_string();
            if !name.is_empty() && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    out
}

/// The method a Ruby `def` line declares, with its `?` or `!` (`empty?` of `def empty?`, `save!`
/// of `def self.save!(x)`): a different method from `empty`. `None` for any other line.
fn ruby_method(line: &str) -> Option<&str> {
    let declared = line.strip_prefix("def ")?.trim_start();
    let declared = declared.strip_prefix("self.").unwrap_or(declared);
    let end = declared
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(declared.len());
    let suffixed = declared[end..].starts_with(['?', '!']);
    let name = &declared[..end + usize::from(suffixed)];
    (end > 0 && !declared[..end].starts_with(char::is_numeric)).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_identifier_of_several_parts_is_compound() {
        for query in [
            "block_on",
            "addUrlRule",
            "make-response",
            "Runtime::block_on",
        ] {
            assert!(is_compound(query), "{query}");
        }
        for query in ["spawn", "block on", "src/flask/app.py", "app.py", ""] {
            assert!(!is_compound(query), "{query}");
        }
    }

    #[test]
    fn stems_bring_word_forms_together() {
        for word in ["routing", "route", "routes", "router", "routed", "routers"] {
            assert_eq!(stem(word), "rout", "{word}");
        }
        for word in ["handling", "handler", "handle", "handles"] {
            assert_eq!(stem(word), "handl", "{word}");
        }
        assert_eq!(stem("dependencies"), "dependency");
        assert_eq!(stem("class"), stem("classes"));
        assert_eq!(stem("errors"), "error");
        assert_eq!(stem("use"), "use");
        assert_eq!(stem("uses"), "use");
        assert_eq!(stem("json"), "json");
        for word in [
            "tokenizing",
            "tokenize",
            "tokenizer",
            "tokenized",
            "tokenization",
            "tokens",
        ] {
            assert_eq!(stem(word), "token", "{word}");
        }
        assert_eq!(stem("size"), stem("sizes"));
        assert_eq!(stem("prize"), "priz");
    }

    #[test]
    fn identifiers_and_paths_split_into_their_words() {
        assert_eq!(
            terms("handle_exception addURLRule"),
            [
                "handle_exception",
                "handl",
                "exception",
                "addurlrule",
                "add",
                "url",
                "rul"
            ]
        );
        assert_eq!(
            terms("src/flask/app.py"),
            ["src/flask/app.py", "src", "flask", "app", "py"]
        );
        assert_eq!(terms("kebab-case"), ["kebab-case", "kebab", "cas"]);
        assert_eq!(query_terms("where is error handling?"), ["error", "handl"]);
        assert_eq!(query_terms("the"), ["the"]);
    }

    #[test]
    fn terms_occur_exactly_or_as_a_prefix() {
        let field = term_string(["jsonify route_rule"]);
        assert_eq!(occurs(&field, "jsonify"), Some(Occurs::Exact));
        assert_eq!(occurs(&field, "json"), Some(Occurs::Prefix));
        assert_eq!(occurs(&field, "rout"), Some(Occurs::Exact));
        assert_eq!(occurs(&field, "sonify"), None);
        assert_eq!(occurs(&field, "js"), None);
    }

    #[test]
    fn symbols_are_the_declared_names() {
        let contract = "```python\nclass Scaffold\n  def route(self, rule: str) -> T\n  @property def static_folder(self) -> str\nT_route\n```\n```rust\npub fn parse(input: &str) -> Ast\nimpl Ast\npub struct ParseError\n  pub offset: usize\nmacro_rules! cfg_rt\n```\nexport function json(obj)\nmodule.exports = app\n";
        assert_eq!(
            symbols(contract),
            [
                "Scaffold",
                "route",
                "static_folder",
                "T_route",
                "parse",
                "ParseError",
                "cfg_rt",
                "json"
            ]
        );
    }

    #[test]
    fn a_ruby_method_keeps_its_question_or_exclamation_mark() {
        let contract = "```ruby\nclass Stack\n  def empty?\n  def self.save!(x)\n  def size\n  def self.build(a)\n```\n";
        assert_eq!(
            symbols(contract),
            ["Stack", "empty?", "save!", "size", "build"]
        );
    }
}
