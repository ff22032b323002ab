//! The one-sentence description of a file: what it is *for*. Sources, in order: the module's own doc
//! (Rust `//!`, a Python module docstring, a JSDoc block about the module); else the doc of the
//! module's primary export (what it exports as `module.exports`/`export default`, the type it is
//! named for, or its only type); else, for an index file (`index.js`, `__init__.py`, `mod.rs`,
//! `lib.rs`), the first sentence of its directory's README; else a summary naming the primary
//! definitions by kind ("Defines the `Flask` class and 7 helpers"). A test file with tests of its
//! own is described, after its module doc, by what it tests (`tested`): never by the doc of a
//! helper class it defines.
//!
//! Never a licence or copyright banner, a tag line (`@import`, `@module`, `@license`, `@flow`,
//! `eslint-disable`, `'use strict'`, shebangs, encoding lines), an RST/markdown heading underline or a
//! generated-file header: such lines are dropped, and a doc made only of them is no doc.

use super::ArchivistInput;
use crate::source::{Interface, Symbol, SymbolKind};

/// Longest description kept from a doc comment.
const MAX_DESCRIPTION: usize = 200;
/// Shortest doc sentence that says something (in words): "express." is a name, not a purpose.
const MIN_WORDS: usize = 2;
/// Fewest members (methods, fields) of a type that holds most of its file.
const DOMINANT_MEMBERS: usize = 5;

/// The description of `input`.
pub fn description(input: &ArchivistInput<'_>) -> String {
    let kind = crate::source::kind_name(input.source);
    let Some(interface) = input.interface else {
        if let Some(title) = markdown_title(input.source, input.text) {
            return format!("{kind}: {title}.");
        }
        let lines = input.text.lines().count();
        let unit = if lines == 1 { "line" } else { "lines" };
        return format!("{kind} ({lines} {unit}).");
    };
    if let Some(sentence) = interface.doc.as_deref().and_then(purpose_sentence) {
        return sentence;
    }
    // A test file with tests of its own says what it tests, never what a helper class in it is.
    if let Some(sentence) = super::tested::test_file_description(input.source, interface) {
        return sentence;
    }
    if let Some(sentence) = primary_doc(input.source, interface).and_then(purpose_sentence) {
        return sentence;
    }
    if let Some(sentence) = input.readme.and_then(readme_sentence) {
        return sentence;
    }
    summary(input, interface, kind)
}

/// Whether `source` is a directory's index file, described by the directory's README when it has no
/// doc of its own.
pub fn is_index_file(source: &str) -> bool {
    let name = source.rsplit('/').next().unwrap_or(source);
    let stem = name.split('.').next().unwrap_or(name);
    matches!(stem, "index" | "__init__" | "mod" | "lib" | "main")
}

/// The doc of the primary export: what the module exports as a whole, the top-level type or
/// function the file is named for, or its only documented type.
fn primary_doc<'a>(source: &str, interface: &'a Interface) -> Option<&'a str> {
    if let Some(doc) = interface
        .primary
        .as_deref()
        .and_then(|p| interface.item_doc(p))
    {
        return Some(doc);
    }
    let stem = module_name(source);
    let top: Vec<&Symbol> = interface
        .symbols
        .iter()
        .filter(|s| s.parent.is_none() && s.kind != SymbolKind::Impl)
        .collect();
    let named_for = top.iter().find(|s| {
        let symbol = normal(&s.name);
        !stem.is_empty()
            && (symbol == stem || symbol == format!("{stem}s") || format!("{symbol}s") == stem)
    });
    if let Some(doc) = named_for.and_then(|s| interface.item_doc(&s.name)) {
        return Some(doc);
    }
    // A documented type named after the module (`PathPrinter` in `path.rs`, `ColorSpecs` in
    // `color.rs`, `DecompressionMatcher` in `decompress.rs`), the first in the file.
    let prefixed = top.iter().find_map(|s| {
        let prefixed = stem.len() >= 3 && is_type(s.kind) && normal(&s.name).starts_with(&stem);
        prefixed.then(|| interface.item_doc(&s.name)).flatten()
    });
    if prefixed.is_some() {
        return prefixed;
    }
    let types: Vec<&&Symbol> = top.iter().filter(|s| is_type(s.kind)).collect();
    if let [only] = types.as_slice() {
        return interface.item_doc(&only.name);
    }
    if let [only] = top.as_slice() {
        return interface.item_doc(&only.name);
    }
    dominant_type(interface, &types).and_then(|name| interface.item_doc(name))
}

/// The file's primary type, whose members matter most in its contract: the type it is named for,
/// else the type with the most members.
pub fn primary_type(source: &str, interface: &Interface) -> Option<String> {
    let stem = module_name(source);
    let types: Vec<&Symbol> = interface
        .symbols
        .iter()
        .filter(|s| s.parent.is_none() && is_type(s.kind))
        .collect();
    if let Some(named) = types
        .iter()
        .find(|s| !stem.is_empty() && normal(&s.name) == stem)
    {
        return Some(named.name.clone());
    }
    let members = |name: &str| {
        interface
            .symbols
            .iter()
            .filter(|s| s.parent.as_deref().is_some_and(|p| base_type(p) == name))
            .count()
    };
    let mut best: Option<(&str, usize)> = None;
    for symbol in types {
        let count = members(&symbol.name);
        if count > 0 && best.is_none_or(|(_, most)| count > most) {
            best = Some((&symbol.name, count));
        }
    }
    best.map(|(name, _)| name.to_string())
}

/// A parent's type without its path and generics (`inner::Parser<'a>` → `Parser`).
fn base_type(parent: &str) -> &str {
    let bare = parent.split('<').next().unwrap_or(parent);
    bare.rsplit("::").next().unwrap_or(bare).trim()
}

/// The type that holds most of the file: at least [`DOMINANT_MEMBERS`] members and two thirds of
/// all the members the file's types have (flask's `Flask` class in `app.py`, beside a few helpers).
fn dominant_type<'a>(interface: &Interface, types: &[&&'a Symbol]) -> Option<&'a str> {
    let members = |name: &str| {
        interface
            .symbols
            .iter()
            .filter(|s| s.parent.as_deref() == Some(name))
            .count()
    };
    let total: usize = types.iter().map(|s| members(&s.name)).sum();
    let (name, most) = types
        .iter()
        .map(|s| (s.name.as_str(), members(&s.name)))
        .max_by_key(|(_, count)| *count)?;
    (most >= DOMINANT_MEMBERS && most * 3 >= total * 2).then_some(name)
}

/// Lowercase without `_`/`-`.
/// The module's name, normalised: the file's stem, or its directory's name for an index file
/// (`hyperlink/mod.rs` → `hyperlink`).
fn module_name(source: &str) -> String {
    let name = source.rsplit('/').next().unwrap_or(source);
    let stem = name.split('.').next().unwrap_or(name);
    if is_index_file(source) {
        let dir = source.rsplit('/').nth(1).unwrap_or("");
        if !dir.is_empty() && dir != "src" {
            return normal(dir);
        }
    }
    normal(stem)
}

fn normal(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn is_type(kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::Class
            | SymbolKind::Struct
            | SymbolKind::Enum
            | SymbolKind::Trait
            | SymbolKind::Interface
    )
}

/// The first sentence of a README that says something (headings, badges, HTML and links-only lines
/// skipped).
fn readme_sentence(readme: &str) -> Option<String> {
    let mut in_fence = false;
    let prose: Vec<&str> = readme
        .lines()
        .map(str::trim)
        .filter(|line| {
            if line.starts_with("```") {
                in_fence = !in_fence;
                return false;
            }
            !in_fence
        })
        .skip_while(|line| {
            line.is_empty()
                || line.starts_with('#')
                || line.starts_with('<')
                || line.starts_with("[!")
                || line.starts_with("![")
                || line.starts_with('[')
                || is_underline(line)
        })
        .take_while(|line| !line.is_empty())
        .collect();
    purpose_sentence(&prose.join("\n"))
}

/// The first sentence of a doc that states a purpose, banners and tag lines dropped; `None` when
/// nothing is left or what is left is a bare name.
pub fn purpose_sentence(doc: &str) -> Option<String> {
    if is_banner(doc) {
        return None;
    }
    let lines: Vec<&str> = doc.lines().map(str::trim).collect();
    // An RST title is a line over an underline: a heading, not a sentence.
    let kept: Vec<&str> = lines
        .iter()
        .enumerate()
        .filter(|(i, line)| {
            let titled = lines.get(i + 1).is_some_and(|next| is_underline(next));
            !titled && !is_tag_line(line) && !is_underline(line)
        })
        .map(|(_, line)| *line)
        .collect();
    let sentence = first_sentence(&kept.join("\n"))?;
    (sentence.split_whitespace().count() >= MIN_WORDS).then_some(sentence)
}

/// Longest sentence shown beside a signature in the Interface Contract, in characters.
const MAX_ITEM_SENTENCE: usize = 120;

/// The first sentence of an item's own doc, for its contract line: `None` for a banner or a doc of
/// tag lines only (`@param`, `@public`); cut to [`MAX_ITEM_SENTENCE`] characters.
pub fn item_sentence(doc: &str) -> Option<String> {
    if is_banner(doc) {
        return None;
    }
    let kept: Vec<&str> = doc
        .lines()
        .map(str::trim)
        .filter(|line| !line.starts_with('@') && !is_tag_line(line) && !is_underline(line))
        .collect();
    let sentence = first_sentence(&kept.join("\n"))?;
    if is_boilerplate(&sentence) {
        return None;
    }
    if sentence.chars().count() <= MAX_ITEM_SENTENCE {
        return Some(sentence);
    }
    let cut: String = sentence.chars().take(MAX_ITEM_SENTENCE - 1).collect();
    Some(format!("{}…", cut.trim_end()))
}

/// A doc that only names what its line already says: express's `/** Module exports. */` above
/// `module.exports = …`, `/** Module dependencies. */`, a bare "Expose." or "Constructor.".
fn is_boilerplate(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    let words: Vec<&str> = lower
        .trim_end_matches(['.', '!', '?'])
        .split_whitespace()
        .collect();
    matches!(
        words.as_slice(),
        ["module", "exports" | "dependencies" | "variables"]
            | ["expose" | "exports" | "export" | "constructor" | "initialize" | "private"]
            | ["expose", _]
            | ["module", "exports", _]
    )
}

/// A licence or copyright banner, or a generated-file header: not a description of anything.
pub fn is_banner(doc: &str) -> bool {
    let lower = doc.to_lowercase();
    let legal = [
        "copyright",
        "licensed",
        "spdx-license-identifier",
        "all rights reserved",
        "permission is hereby granted",
        "@license",
        "@preserve",
    ];
    legal.iter().any(|word| lower.contains(word)) || crate::source::is_generated_header(doc)
}

/// A line that tags or configures rather than describes.
fn is_tag_line(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let tags = [
        "@import",
        "@module",
        "@license",
        "@flow",
        "@jsx",
        "@ts-",
        "@format",
        "@private",
        "@internal",
        "@public",
        "@api",
        "@typedef",
        "@type ",
        "@see",
        "@author",
        "@since",
        "@version",
        "@copyright",
        "@preserve",
        "@noflow",
        "@nolint",
        "@generated",
    ];
    tags.iter().any(|tag| lower.starts_with(tag))
        || lower.starts_with("eslint")
        || lower.starts_with("jshint")
        || lower.starts_with("global ")
        || lower.starts_with("prettier-ignore")
        || lower.starts_with("tslint")
        || lower.trim_matches(['\'', '"', ';']) == "use strict"
        || lower.starts_with("#!")
        || (lower.contains("coding") && (lower.contains("-*-") || lower.starts_with("vim:")))
}

/// An RST/markdown heading underline or a ruler: `~~~~`, `=====`, `-----`.
fn is_underline(line: &str) -> bool {
    let mut chars = line.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    line.chars().count() >= 3 && "=-~^\"'*+#_`:.".contains(first) && chars.all(|c| c == first)
}

/// The first sentence of a doc comment: up to the first `. ` or blank line, markdown headings and
/// leading `#` marks dropped, whitespace folded.
pub fn first_sentence(doc: &str) -> Option<String> {
    // A leading markdown heading is a title, not a description: skip it when prose follows.
    let lines: Vec<&str> = doc.lines().map(str::trim).collect();
    let has_prose = lines
        .iter()
        .any(|line| !line.is_empty() && !line.starts_with('#'));
    let paragraph: Vec<&str> = lines
        .iter()
        .copied()
        .skip_while(|line| line.is_empty() || (has_prose && line.starts_with('#')))
        .take_while(|line| !line.is_empty())
        .map(|line| line.trim_start_matches('#').trim())
        .collect();
    let text = paragraph.join(" ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return None;
    }
    let end = text
        .match_indices(". ")
        .map(|(index, _)| index + 1)
        .find(|end| !ends_with_abbreviation(&text[..*end]))
        .unwrap_or(text.len());
    let mut sentence: String = text[..end].to_string();
    if sentence.chars().count() > MAX_DESCRIPTION {
        sentence = sentence
            .chars()
            .take(MAX_DESCRIPTION - 1)
            .collect::<String>()
            + "…";
    }
    if !sentence.ends_with(['.', '!', '?', '…']) {
        sentence.push('.');
    }
    Some(sentence)
}

/// Whether a sentence candidate actually ends in an abbreviation such as "e.g.".
fn ends_with_abbreviation(text: &str) -> bool {
    let last = text.rsplit(' ').next().unwrap_or(text).to_ascii_lowercase();
    matches!(
        last.as_str(),
        "e.g." | "i.e." | "etc." | "vs." | "cf." | "approx." | "incl."
    )
}

fn markdown_title(source: &str, text: &str) -> Option<String> {
    if !(source.ends_with(".md") || source.ends_with(".markdown")) {
        return None;
    }
    text.lines()
        .find_map(|line| line.strip_prefix("# "))
        .map(|title| title.trim().trim_end_matches('.').to_string())
        .filter(|title| !title.is_empty())
}

/// The fallback: the primary definitions by kind and role. Types come first, then functions, then
/// the rest; trait impls and methods are never definitions; re-exports are said to be re-exports.
fn summary(input: &ArchivistInput<'_>, interface: &Interface, kind: &str) -> String {
    let mut top: Vec<&Symbol> = interface
        .symbols
        .iter()
        .filter(|s| s.parent.is_none() && !matches!(s.kind, SymbolKind::Impl | SymbolKind::Method))
        .collect();
    top.dedup_by(|a, b| a.name == b.name);
    let rank = |s: &Symbol| match s.kind {
        k if is_type(k) => 0,
        SymbolKind::Function | SymbolKind::Macro => 1,
        SymbolKind::Module => 3,
        _ => 2,
    };
    top.sort_by_key(|s| rank(s));
    if top.is_empty() {
        if input.text.trim().is_empty() {
            return format!("Empty {}.", kind.to_lowercase());
        }
        return format!(
            "{kind} with no public items ({} lines).",
            interface.signals.lines
        );
    }
    if let Some(value) = exported_value(&top) {
        return match top.len() - 1 {
            0 => format!("Exports {value}."),
            1 => format!("Exports {value}, and defines 1 more item."),
            n => format!("Exports {value}, and defines {n} more items."),
        };
    }
    if top.iter().all(|s| s.kind == SymbolKind::Module) {
        let names: Vec<String> = top.iter().take(3).map(|s| reexport_name(s)).collect();
        let more = top.len().saturating_sub(3);
        return match more {
            0 => format!("Re-exports {}.", names.join(", ")),
            n => format!("Re-exports {} and {n} more.", names.join(", ")),
        };
    }
    let shown: Vec<String> = top
        .iter()
        .filter(|s| s.kind != SymbolKind::Module)
        .take(2)
        .map(|s| format!("the `{}` {}", s.name, kind_word(s.kind)))
        .collect();
    let rest = top.len() - shown.len();
    match (shown.as_slice(), rest) {
        ([one], 0) => format!("Defines {one}."),
        ([one, two], 0) => format!("Defines {one} and {two}."),
        (names, rest) => format!(
            "Defines {} and {rest} more item{}.",
            names.join(", "),
            if rest == 1 { "" } else { "s" }
        ),
    }
}

/// What a CommonJS module assigns to `module.exports` when it is a value, not a named definition:
/// "the result of `express(…)`", "`{ …}`".
fn exported_value(top: &[&Symbol]) -> Option<String> {
    let symbol = top
        .iter()
        .find(|s| s.name == "module.exports" && s.kind == SymbolKind::Variable)?;
    let value = symbol.signature.split_once(" = ")?.1.trim();
    if value.is_empty() {
        return None;
    }
    let function =
        value.starts_with("function") || value.starts_with("async") || value.contains("=>");
    Some(match function {
        true => format!("a function `{value}`"),
        false if value.ends_with(')') => format!("the result of `{value}`"),
        false => format!("`{value}`"),
    })
}

/// A re-export as it reads: the module it names, or the names it lists.
fn reexport_name(symbol: &Symbol) -> String {
    let text = symbol.name.trim();
    let text = text.strip_prefix("pub use ").unwrap_or(text);
    format!("`{}`", text.trim_end_matches(';'))
}

/// How a summary names a kind: [`SymbolKind::as_str`], but "type" and "value" for the two whose
/// serde names read as code (`typealias`, `variable`).
fn kind_word(kind: SymbolKind) -> &'static str {
    match kind {
        SymbolKind::TypeAlias => "type",
        SymbolKind::Variable => "value",
        other => other.as_str(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_primary_type_is_the_one_named_for_the_file_else_the_one_with_most_members() {
        let rust = |text: &str| {
            crate::source::extract(crate::source::Language::Rust, text).expect("parses")
        };
        let listener = rust("pub struct Socket;\nimpl Socket { pub fn a() {} }\npub struct TcpListener;\nimpl TcpListener { pub fn bind() {} pub fn accept() {} }\n");
        assert_eq!(
            primary_type("tokio/src/net/tcp/listener.rs", &listener).as_deref(),
            Some("TcpListener")
        );
        let named = rust("pub struct Socket;\npub struct Other;\nimpl Other { pub fn a() {} }\n");
        assert_eq!(
            primary_type("src/socket.rs", &named).as_deref(),
            Some("Socket")
        );
        assert_eq!(primary_type("src/f.rs", &rust("pub fn f() {}\n")), None);
    }

    #[test]
    fn banners_and_tag_lines_are_not_descriptions() {
        let express = "express\nCopyright(c) 2009-2013 TJ Holowaychuk\nMIT Licensed";
        assert_eq!(purpose_sentence(express), None);
        assert_eq!(
            purpose_sentence("@import { A } from './a'\n@module x").as_deref(),
            None
        );
        assert_eq!(
            purpose_sentence(
                "Tagged JSON\n~~~~~~~~~~~\n\nA compact representation for lossless serialization."
            )
            .as_deref(),
            Some("A compact representation for lossless serialization.")
        );
        assert_eq!(
            purpose_sentence("eslint-disable no-console\nPrints the report to stdout.").as_deref(),
            Some("Prints the report to stdout.")
        );
        assert_eq!(purpose_sentence("express"), None);
        assert_eq!(
            purpose_sentence("Code generated by protoc-gen-go. DO NOT EDIT."),
            None
        );
    }

    #[test]
    fn a_documented_type_named_after_the_module_describes_it() {
        let text = "/// Prints file paths, one per line.\npub struct PathPrinter;\n/// Builds one.\npub struct Builder;\n";
        let interface =
            crate::source::extract(crate::source::Language::Rust, text).expect("parses");
        assert_eq!(
            primary_doc("crates/printer/src/path.rs", &interface),
            Some("Prints file paths, one per line.")
        );
        assert_eq!(primary_doc("crates/printer/src/util.rs", &interface), None);
        assert_eq!(
            primary_doc("crates/printer/src/path/mod.rs", &interface),
            Some("Prints file paths, one per line.")
        );
    }

    #[test]
    fn readme_sentence_skips_headings_and_badges() {
        let readme = "# pkg\n\n[![ci](x)](y)\n\nParses config files for the CLI. More text.\n";
        assert_eq!(
            readme_sentence(readme).as_deref(),
            Some("Parses config files for the CLI.")
        );
    }

    #[test]
    fn first_sentence_is_cut_and_terminated() {
        assert_eq!(
            first_sentence("# Parser\n\nParses things. More.").as_deref(),
            Some("Parses things.")
        );
        assert_eq!(
            first_sentence("# Only a title").as_deref(),
            Some("Only a title.")
        );
        assert_eq!(
            first_sentence("Parses e.g. things").as_deref(),
            Some("Parses e.g. things.")
        );
        assert_eq!(first_sentence("\n\n"), None);
    }
}
