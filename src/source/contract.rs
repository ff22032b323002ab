//! Which public symbols an Interface Contract gets wrong: the text of a contract (as an agent left it,
//! usually the skeleton the structural Archivist wrote, sometimes prose) compared with a file's
//! interface now. Used to name the symbols when a contract is known to describe an older interface
//! (`library::contract` decides *that*; this says *where*).
//!
//! The comparison is by lines of the skeleton: a line of the contract's code fences that is not in
//! the skeleton now, and a skeleton line that is not in the contract, each name the symbol they
//! declare (the first identifier after the keywords). A name on both sides changed its signature;
//! only in the code, it was added; only in the contract, it is gone. A symbol whose name the
//! contract never mentions at all counts as added too (prose contracts).

use std::collections::BTreeSet;

use super::Interface;

/// The symbols an Interface Contract gets wrong, each list sorted.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct ContractDiff {
    /// In the code, with a different signature than the contract shows.
    pub changed: Vec<String>,
    /// In the code, not in the contract.
    pub added: Vec<String>,
    /// In the contract, no longer in the code.
    pub removed: Vec<String>,
}

impl ContractDiff {
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.added.is_empty() && self.removed.is_empty()
    }

    /// `changed: parse; added: tokenize; removed: lex`, the parts that are not empty.
    pub fn summary(&self) -> String {
        let parts = [
            ("changed", &self.changed),
            ("added", &self.added),
            ("removed", &self.removed),
        ];
        parts
            .iter()
            .filter(|(_, names)| !names.is_empty())
            .map(|(what, names)| format!("{what}: {}", names.join(", ")))
            .collect::<Vec<_>>()
            .join("; ")
    }
}

/// Compare the contract text (a section body) with `interface`.
pub fn compare(interface: &Interface, contract: &str) -> ContractDiff {
    let skeleton: BTreeSet<String> = interface.skeleton().lines().filter_map(normal).collect();
    // Prose has no lines to compare: only the names it mentions count.
    let written: BTreeSet<String> = match has_fence(contract) {
        true => fenced_lines(contract).filter_map(normal).collect(),
        false => skeleton.clone(),
    };
    let declared = |lines: &mut dyn Iterator<Item = &String>| -> BTreeSet<String> {
        lines.filter_map(|line| declared_name(line)).collect()
    };
    let code_side = declared(&mut skeleton.difference(&written));
    let contract_side = declared(&mut written.difference(&skeleton));
    let words = words(contract);
    let mut diff = ContractDiff::default();
    for name in &code_side {
        if contract_side.contains(name) {
            diff.changed.push(name.clone());
        } else {
            diff.added.push(name.clone());
        }
    }
    for name in contract_side.difference(&code_side) {
        if !interface.symbols.iter().any(|symbol| symbol.name == *name) {
            diff.removed.push(name.clone());
        }
    }
    for symbol in &interface.symbols {
        if !words.contains(symbol.name.as_str()) && !diff.added.contains(&symbol.name) {
            diff.added.push(symbol.name.clone());
        }
    }
    diff.added.sort();
    diff.added.dedup();
    diff
}

fn has_fence(contract: &str) -> bool {
    contract
        .lines()
        .any(|line| line.trim_start().starts_with("```"))
}

/// The lines inside the contract's code fences.
fn fenced_lines(contract: &str) -> impl Iterator<Item = &str> {
    let mut inside = false;
    contract.lines().filter(move |line| {
        if line.trim_start().starts_with("```") {
            inside = !inside;
            return false;
        }
        inside
    })
}

/// A line with its whitespace collapsed and its trailing doc comment (`  // Sends JSON.`, `  # …`,
/// which the structural Archivist appends) dropped; `None` when blank.
fn normal(line: &str) -> Option<String> {
    let line = ["  // ", "  # "]
        .iter()
        .filter_map(|marker| line.find(marker))
        .min()
        .map_or(line, |at| &line[..at]);
    let joined = line.split_whitespace().collect::<Vec<_>>().join(" ");
    (!joined.is_empty()).then_some(joined)
}

/// Words that introduce a declaration rather than name one.
const KEYWORDS: &[&str] = &[
    "pub",
    "crate",
    "super",
    "self",
    "in",
    "fn",
    "async",
    "const",
    "unsafe",
    "extern",
    "struct",
    "enum",
    "union",
    "trait",
    "type",
    "impl",
    "for",
    "static",
    "mut",
    "mod",
    "use",
    "macro_rules",
    "dyn",
    "where",
    "class",
    "def",
    "function",
    "export",
    "default",
    "interface",
    "let",
    "var",
    "declare",
    "abstract",
    "readonly",
    "public",
    "private",
    "protected",
    "get",
    "set",
    "namespace",
    "module",
];

/// The name a skeleton line declares: its first identifier that is not a keyword (string literals
/// such as `extern "C"` skipped).
fn declared_name(line: &str) -> Option<String> {
    let mut in_string = false;
    let mut word = String::new();
    for c in line.chars().chain(std::iter::once(' ')) {
        if c == '"' {
            in_string = !in_string;
            word.clear();
            continue;
        }
        if in_string {
            continue;
        }
        if c.is_alphanumeric() || c == '_' || c == '$' {
            word.push(c);
            continue;
        }
        let starts_like_a_name = word.chars().next().is_some_and(|c| !c.is_ascii_digit());
        if starts_like_a_name && !KEYWORDS.contains(&word.as_str()) {
            return Some(word);
        }
        word.clear();
    }
    None
}

/// Every identifier-like word of `text`.
fn words(text: &str) -> BTreeSet<&str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
        .filter(|word| !word.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{extract, Language};

    fn rust(text: &str) -> Interface {
        extract(Language::Rust, text).expect("parse")
    }

    #[test]
    fn trailing_doc_comments_are_not_part_of_a_signature() {
        let interface = rust("pub fn parse(input: &str) -> u8 { 0 }\n");
        let contract = "```rust\npub fn parse(input: &str) -> u8  // Parse the input.\n```";
        assert!(compare(&interface, contract).is_empty());
    }

    #[test]
    fn changed_added_and_removed_symbols_are_named() {
        let old =
            rust("pub fn parse(input: &str) -> u32 { 0 }\npub fn lex() {}\npub struct Token;\n");
        let contract = format!("```rust\n{}\n```", old.skeleton());
        let now = rust(
            "pub fn parse(input: &str, strict: bool) -> u32 { 0 }\npub fn tokenize() {}\npub struct Token;\n",
        );
        let diff = compare(&now, &contract);
        assert_eq!(diff.changed, ["parse"]);
        assert_eq!(diff.added, ["tokenize"]);
        assert_eq!(diff.removed, ["lex"]);
        assert_eq!(
            diff.summary(),
            "changed: parse; added: tokenize; removed: lex"
        );
        assert!(compare(&old, &contract).is_empty());
    }

    #[test]
    fn a_prose_contract_names_what_it_never_mentions() {
        let now = rust("pub fn parse() {}\npub fn tokenize() {}\n");
        let diff = compare(&now, "`parse()` reads the input and returns the tree.");
        assert_eq!(diff.added, ["tokenize"]);
        assert!(diff.changed.is_empty() && diff.removed.is_empty());
    }

    #[test]
    fn declared_names_skip_keywords_and_strings() {
        assert_eq!(
            declared_name("pub(crate) unsafe extern \"C\" fn run(x: u8)").as_deref(),
            Some("run")
        );
        assert_eq!(declared_name("impl Parser").as_deref(), Some("Parser"));
        assert_eq!(
            declared_name("export default class App").as_deref(),
            Some("App")
        );
        assert_eq!(
            declared_name("async def fetch(url)").as_deref(),
            Some("fetch")
        );
        assert_eq!(declared_name("}"), None);
    }
}
