//! Rust paths written in code without a `use`: `ignore::WalkBuilder::new()`,
//! `grep::cli::CommandReaderBuilder`, `#[tokio::main]`, `crate::runtime::context::with_current(…)`,
//! `super::spawn::spawn_inner(…)`, `mpsc::channel()` after `use tokio::sync::mpsc` — in
//! expressions, types, attributes and the tokens of macro calls (`assert!(crate::x::f())`,
//! `tokio::select! { … }`). Each is a dependency of the file like a `use` of it: a path rooted at
//! `crate`, `self` or `super` names a module of the crate; a path whose first segment the file
//! binds (a `use` of a module) goes on through that binding; any other first segment that is no
//! standard crate or primitive type names a crate from the extern prelude. Its spec stops after the
//! first type (`ignore::WalkBuilder`, not `…::new`): the resolver follows it to the file that
//! defines the type, or to the one that defines the function it ends in.

use tree_sitter::Node;

use crate::source::syntax::{compact, text_of, Imports};

/// First segments that never name a module of the project or another crate.
const NOT_CRATES: &[&str] = &[
    "std", "core", "alloc", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f32", "f64", "bool", "char", "str",
];

/// A path written in code, and the line it is first on.
pub(crate) struct QualifiedPath {
    pub spec: String,
    pub line: usize,
}

/// The spec of a `scoped_identifier`/`scoped_type_identifier` that may name a module of the
/// crate or another crate ([`path_spec`]).
pub(crate) fn candidate(node: Node<'_>, src: &str) -> Option<String> {
    path_spec(&compact(text_of(node, src)))
}

/// The spec of a path as written: its segments up to the first type's; `None` for a single
/// segment, a path that starts with a standard crate, a primitive type or a type (`Self::new`,
/// `Ordering::Less`), or anything that is not a plain path.
pub(crate) fn path_spec(text: &str) -> Option<String> {
    let segments: Vec<&str> = text
        .split("::")
        .map(|segment| segment.strip_prefix("r#").unwrap_or(segment))
        .collect();
    let first = *segments.first()?;
    let starts_lower = first.starts_with(|c: char| c.is_ascii_lowercase() || c == '_');
    let identifiers = segments
        .iter()
        .all(|s| !s.is_empty() && s.chars().all(|c| c.is_alphanumeric() || c == '_'));
    if segments.len() < 2 || !starts_lower || !identifiers || NOT_CRATES.contains(&first) {
        return None;
    }
    let keywords = segments
        .iter()
        .take_while(|s| matches!(**s, "crate" | "self" | "super"))
        .count();
    if keywords == segments.len() {
        return None;
    }
    let end = segments
        .iter()
        .position(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
        .map_or(segments.len(), |at| at + 1);
    Some(segments[..end].join("::"))
}

/// The paths among the tokens of a macro call (`assert_eq!(crate::x::f(), 1)`): runs of
/// identifiers joined by `::`, string and character literals and comments left out, each with
/// the row of its first token.
pub(crate) fn token_paths(tokens: Node<'_>, src: &str) -> Vec<(String, usize)> {
    let mut leaves: Vec<Node<'_>> = Vec::new();
    collect_leaves(tokens, &mut leaves);
    let mut out = Vec::new();
    let mut at = 0;
    while at < leaves.len() {
        let is_segment =
            |node: Node<'_>| matches!(node.kind(), "identifier" | "self" | "super" | "crate");
        if !is_segment(leaves[at]) || (at > 0 && leaves[at - 1].kind() == "::") {
            at += 1;
            continue;
        }
        let start = at;
        let mut text = text_of(leaves[at], src).to_string();
        while at + 2 < leaves.len() + 1
            && leaves.get(at + 1).is_some_and(|n| n.kind() == "::")
            && leaves.get(at + 2).is_some_and(|n| is_segment(*n))
        {
            text.push_str("::");
            text.push_str(text_of(leaves[at + 2], src));
            at += 2;
        }
        if at > start {
            out.push((text, leaves[start].start_position().row));
        }
        at += 1;
    }
    out
}

/// The leaf tokens of a token tree, in order, literals and comments left out.
fn collect_leaves<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        match child.kind() {
            "string_literal" | "raw_string_literal" | "char_literal" | "line_comment"
            | "block_comment" => {}
            _ if child.child_count() == 0 => out.push(child),
            _ => collect_leaves(child, out),
        }
    }
}

/// Add every path of `paths` to `imports`.
pub(crate) fn add_paths(paths: Vec<QualifiedPath>, imports: &mut Imports) {
    for path in paths {
        imports.add(path.spec, path.line);
    }
}

#[cfg(test)]
mod tests {
    use crate::source::{extract, Language};

    fn specs(text: &str) -> Vec<String> {
        let interface = extract(Language::Rust, text).expect("parses");
        interface.imports.iter().map(|i| i.spec.clone()).collect()
    }

    /// tokio: `Builder::spawn` calls `super::spawn::spawn_inner(…)`; `spawn` inside `cfg_rt!` calls
    /// `crate::runtime::context::with_current(…)`; macro tokens and bound modules count too.
    #[test]
    fn paths_in_expressions_macro_bodies_and_tokens_are_imports() {
        let text = "use crate::sync::mpsc;\n\ncfg_rt! {\n    pub fn spawn() {\n        crate::runtime::context::with_current(|h| h);\n    }\n}\n\nimpl Builder {\n    pub fn spawn(self) {\n        super::spawn::spawn_inner(self.name);\n        let (tx, rx) = mpsc::channel(1);\n        assert!(crate::util::check(&tx), \"crate::not::this\");\n        tokio::select! { _ = self::local::wait() => {} }\n    }\n}\n\n#[cfg(test)]\nmod tests {\n    fn t() { crate::only::in_tests(); }\n}\n";
        assert_eq!(
            specs(text),
            [
                "crate::sync::mpsc",
                "crate::runtime::context::with_current",
                "super::spawn::spawn_inner",
                "mpsc::channel",
                "crate::util::check",
                "tokio::select",
                "self::local::wait",
            ]
        );
    }

    #[test]
    fn paths_to_other_crates_written_without_use_are_imports() {
        let text = "use std::io;\nmod local;\nuse grep::matcher as m;\n\n\
                    #[tokio::main]\nasync fn main() -> io::Result<()> {\n\
                    let walk = ignore::WalkBuilder::new(\"a\");\n\
                    let b: grep::cli::CommandReaderBuilder = grep::cli::CommandReaderBuilder::new();\n\
                    let tty = grep::cli::is_tty_stdout();\n\
                    let x = local::thing(); let y = m::Matcher::new(); let z = Self::new();\n\
                    let n = u8::MAX; let o = std::cmp::Ordering::Less; let p = Ordering::Less;\n\
                    Ok(())\n}\n\n#[cfg(test)]\nmod tests {\n    fn t() { quickcheck::run(); }\n}\n";
        assert_eq!(
            specs(text),
            [
                "std::io",
                "mod:local",
                "grep::matcher",
                "tokio::main",
                "io::Result",
                "ignore::WalkBuilder",
                "grep::cli::CommandReaderBuilder",
                "grep::cli::is_tty_stdout",
                "local::thing",
                "m::Matcher",
            ]
        );
    }
}
