//! Rust paths written in code without a `use`: `ignore::WalkBuilder::new()`,
//! `grep::cli::CommandReaderBuilder`, `#[tokio::main]`. A path whose first segment is no name the
//! file binds (no item, `mod`, `use` or `extern crate` of it), no keyword (`crate`, `self`, `super`),
//! no standard crate and no primitive type names a crate from the extern prelude — a dependency of
//! the file, like `use ignore::WalkBuilder;`. Its spec stops after the first type
//! (`ignore::WalkBuilder`, not `…::new`): the resolver follows it to the file that defines the type.

use std::collections::HashSet;

use tree_sitter::Node;

use crate::source::interface::{Binding, BindingKind};
use crate::source::syntax::{compact, text_of, Imports};

/// First segments that never name another crate.
const NOT_CRATES: &[&str] = &[
    "crate", "self", "super", "std", "core", "alloc", "u8", "u16", "u32", "u64", "u128", "usize",
    "i8", "i16", "i32", "i64", "i128", "isize", "f32", "f64", "bool", "char", "str",
];

/// A path written in code, and the line it is first on.
pub(super) struct QualifiedPath {
    pub spec: String,
    pub line: usize,
}

/// The spec of a `scoped_identifier`/`scoped_type_identifier` that may name another crate: its
/// segments up to the first type's; `None` for a path that starts with a keyword, a standard
/// crate, a primitive type or a type (`Self::new`, `Ordering::Less`).
pub(super) fn candidate(node: Node<'_>, src: &str) -> Option<String> {
    let text = compact(text_of(node, src));
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
    let end = segments
        .iter()
        .position(|s| s.starts_with(|c: char| c.is_ascii_uppercase()))
        .map_or(segments.len(), |at| at + 1);
    Some(segments[..end].join("::"))
}

/// Add to `imports` every path of `paths` whose first segment the file binds nowhere.
pub(super) fn add_unbound(paths: Vec<QualifiedPath>, bindings: &[Binding], imports: &mut Imports) {
    let bound: HashSet<&str> = bindings
        .iter()
        .filter_map(|binding| match &binding.kind {
            BindingKind::Item(name) | BindingKind::Alias { name, .. } => Some(name.as_str()),
            BindingKind::Glob(_) => None,
        })
        .collect();
    for path in paths {
        let first = path.spec.split("::").next().unwrap_or_default();
        if !bound.contains(first) {
            imports.add(path.spec, path.line);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::source::{extract, Language};

    fn specs(text: &str) -> Vec<String> {
        let interface = extract(Language::Rust, text).expect("parses");
        interface.imports.iter().map(|i| i.spec.clone()).collect()
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
                "ignore::WalkBuilder",
                "grep::cli::CommandReaderBuilder",
                "grep::cli::is_tty_stdout",
            ]
        );
    }
}
