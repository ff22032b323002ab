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

use crate::source::interface::{Import, Namespace};
use crate::source::syntax::{compact, text_of, Imports};

/// First segments that never name a module of the project or another crate.
const NOT_CRATES: &[&str] = &[
    "std", "core", "alloc", "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64",
    "i128", "isize", "f32", "f64", "bool", "char", "str",
];

/// A path written in code, the line it is first on and the namespace its use names.
pub(crate) struct QualifiedPath {
    pub spec: String,
    pub line: usize,
    pub namespace: Namespace,
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

/// A path among tokens (a macro call's, an attribute's arguments), with the row of its first token.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TokenPath {
    pub text: String,
    pub row: usize,
    /// How it is used: a macro call (`clap::value_parser!(…)`, `debug!(…)`) or a derive names a
    /// macro; anything else may be either.
    pub namespace: Namespace,
    /// One segment: a bare macro call (`debug!(…)`) or a derive's name (`Parser`).
    pub bare: bool,
}

/// Whose tokens a leaf is: an ordinary token, one of a `derive(…)`'s list, or one of a lint
/// attribute's (`allow(clippy::x)`, never a path to code).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Role {
    Code,
    Derive,
    Lint,
}

/// Attributes whose arguments name lints, not code.
const LINT_ATTRIBUTES: &[&str] = &["allow", "warn", "deny", "forbid", "expect"];

/// The paths among the tokens of a macro call (`assert_eq!(crate::x::f(), 1)`): runs of
/// identifiers joined by `::`, string and character literals and comments left out, each with
/// the row of its first token; and its bare macro calls (`vec![debug!(…)]`).
pub(crate) fn token_paths(tokens: Node<'_>, src: &str) -> Vec<TokenPath> {
    let mut leaves = Vec::new();
    collect_leaves(tokens, src, Role::Code, false, &mut leaves);
    scan(&leaves, src)
}

/// The paths among the arguments of an attribute (`#[arg(action = clap::ArgAction::Count)]`): as
/// [`token_paths`], and every path of a `derive(…)` list (also inside `cfg_attr(…)`) as a macro
/// (`Parser` of `derive(Debug, Parser)` is bare); a lint attribute's are left out.
pub(crate) fn attribute_paths(name: &str, arguments: Node<'_>, src: &str) -> Vec<TokenPath> {
    let role = match name {
        "derive" => Role::Derive,
        _ if LINT_ATTRIBUTES.contains(&name) => return Vec::new(),
        _ => Role::Code,
    };
    let mut leaves = Vec::new();
    collect_leaves(arguments, src, role, true, &mut leaves);
    scan(&leaves, src)
}

/// The runs of `a::b::c` among `leaves`.
fn scan(leaves: &[(Node<'_>, Role)], src: &str) -> Vec<TokenPath> {
    let kind = |at: usize| leaves.get(at).map(|(node, _)| node.kind());
    let is_segment =
        |at: usize| matches!(kind(at), Some("identifier" | "self" | "super" | "crate"));
    let mut out = Vec::new();
    let mut at = 0;
    while at < leaves.len() {
        if !is_segment(at) || (at > 0 && kind(at - 1) == Some("::")) {
            at += 1;
            continue;
        }
        let (first, role) = leaves[at];
        let mut text = text_of(first, src).to_string();
        let mut segments = 1;
        while kind(at + 1) == Some("::") && is_segment(at + 2) {
            text.push_str("::");
            text.push_str(text_of(leaves[at + 2].0, src));
            at += 2;
            segments += 1;
        }
        let called = kind(at + 1) == Some("!") && matches!(kind(at + 2), Some("(" | "[" | "{"));
        let namespace = match called || role == Role::Derive {
            true => Namespace::Macro,
            false => Namespace::Any,
        };
        if segments > 1 || called || role == Role::Derive {
            out.push(TokenPath {
                text,
                row: first.start_position().row,
                namespace,
                bare: segments == 1,
            });
        }
        at += 1;
    }
    out
}

/// The leaf tokens of a token tree, in order, literals, comments and lint lists left out, each
/// with its role: in an attribute's arguments (`cfg_attr(…)`), a group right after `derive` holds
/// derives, one after a lint attribute's name lints.
fn collect_leaves<'t>(
    node: Node<'t>,
    src: &str,
    role: Role,
    attribute: bool,
    out: &mut Vec<(Node<'t>, Role)>,
) {
    let mut cursor = node.walk();
    let mut before: Option<Node<'t>> = None;
    for child in node.children(&mut cursor) {
        match child.kind() {
            "string_literal" | "raw_string_literal" | "char_literal" | "line_comment"
            | "block_comment" => {}
            _ if child.child_count() == 0 => out.push((child, role)),
            _ => {
                let named = before
                    .filter(|b| attribute && b.kind() == "identifier")
                    .map(|b| text_of(b, src));
                let inner = match named {
                    Some("derive") => Role::Derive,
                    Some(name) if LINT_ATTRIBUTES.contains(&name) => Role::Lint,
                    _ => role,
                };
                if inner != Role::Lint {
                    collect_leaves(child, src, inner, attribute, out);
                }
            }
        }
        before = Some(child);
    }
}

/// Add every path of `paths` to `imports`.
pub(crate) fn add_paths(paths: Vec<QualifiedPath>, imports: &mut Imports) {
    for path in paths {
        imports.add_import(Import {
            spec: path.spec,
            line: path.line,
            namespace: path.namespace,
            ..Import::default()
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::source::{extract, Language};

    /// The import specs of `text`, the names of macros used (`macro:`) left out.
    fn specs(text: &str) -> Vec<String> {
        let interface = extract(Language::Rust, text).expect("parses");
        interface
            .imports
            .iter()
            .map(|i| i.spec.clone())
            .filter(|spec| !spec.starts_with("macro:"))
            .collect()
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

    /// clap's derive helpers: paths in attribute arguments are used; a derive's and a macro call's
    /// name the macro; lint names are no paths; a bare macro call is `macro:`.
    #[test]
    fn attribute_arguments_derives_and_bare_macro_calls() {
        use crate::source::Namespace::{Any, Item, Macro};
        let text = "#[derive(Debug, clap::Parser)]\n#[cfg_attr(feature = \"serde\", derive(serde::Serialize), allow(clippy::x))]\nstruct Cli {\n    #[arg(action = clap::ArgAction::Count, value_parser = clap::value_parser!(u8))]\n    #[allow(clippy::struct_field_names)]\n    verbose: u8,\n}\n#[tokio::main]\n#[cfg(any(unix, // HACK: windows\n    windows))]\nasync fn main() {\n    debug!(\"{}\", vec![other!()]);\n    let x: grep::Matcher = unreachable!();\n}\n";
        let interface = extract(Language::Rust, text).expect("parses");
        let imports: Vec<(&str, crate::source::Namespace)> = interface
            .imports
            .iter()
            .map(|i| (i.spec.as_str(), i.namespace))
            .collect();
        assert_eq!(
            imports,
            [
                ("macro:Debug", Macro),
                ("macro:debug", Macro),
                ("macro:vec", Macro),
                ("macro:other", Macro),
                ("macro:unreachable", Macro),
                ("clap::Parser", Macro),
                ("serde::Serialize", Macro),
                ("clap::ArgAction", Any),
                ("clap::value_parser", Macro),
                ("tokio::main", Macro),
                ("grep::Matcher", Item),
            ]
        );
        assert_eq!(interface.signals.todo_markers, 1);
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
