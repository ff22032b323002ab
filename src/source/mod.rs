//! Source-file understanding: parse a file with tree-sitter and extract its *public interface*
//! (symbols with normalised signatures and an `interface_hash`), its imports and their resolution
//! to project files, its module documentation and a few complexity signals.
//!
//! Supported languages: Rust, JavaScript (incl. JSX), TypeScript, TSX, Python and Java. Extraction is a
//! pure function of (language, text); parsers are cached per thread, so [`extract`] can run in
//! parallel. Nothing here ever panics on malformed input.

mod behaviour;
pub use behaviour::behaviour_lines;
pub mod calls;
pub mod catches;
pub mod comments;
pub mod contract;
pub mod definitions;
mod file;
pub mod flow;
pub mod generated;
mod interface;
pub mod lang;
pub mod model;
mod raises;
pub mod resolve;
pub mod shared;
pub(crate) mod suites;
pub(crate) mod syntax;

use lang::go::extract as go;
use lang::javascript::extract as javascript;

use std::cell::RefCell;

use tree_sitter::{Parser, Tree};

pub use file::SourceFile;
pub use generated::is_generated_header;
pub(crate) use go::is_test_function as is_go_test_function;
pub use interface::{
    Binding, BindingKind, Import, Interface, MacroScope, Namespace, OutlineLine, Signals, Symbol,
    SymbolKind,
};
pub use interface::{Suite, Suites};
pub use lang::go::extract::{interfaces as go_interfaces, GoInterface};
pub use lang::{kind_name, Language};
pub use suites::title_slug;

/// Why extraction failed (malformed input never fails; it sets `Interface::has_errors`).
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// The grammar could not be loaded (ABI mismatch, or not built in: its cargo feature is off).
    #[error("tree-sitter could not load the {0} grammar: {1}")]
    Grammar(&'static str, String),
    /// tree-sitter returned no tree.
    #[error("tree-sitter gave up parsing (timeout or cancellation)")]
    ParseFailed,
}

thread_local! {
    /// One parser per language per thread, created on first use.
    static PARSERS: RefCell<[Option<Parser>; Language::ALL.len()]> = RefCell::new(Default::default());
}

fn new_parser(language: Language) -> Result<Parser, SourceError> {
    let grammar = language.grammar().ok_or_else(|| {
        SourceError::Grammar(
            language.name(),
            format!(
                "this build lacks it (cargo feature {})",
                language.ast_language().feature()
            ),
        )
    })?;
    let mut parser = Parser::new();
    parser
        .set_language(&grammar)
        .map_err(|e| SourceError::Grammar(language.name(), e.to_string()))?;
    Ok(parser)
}

fn run(parser: &mut Parser, text: &str) -> Result<Tree, SourceError> {
    match parser.parse(text, None) {
        Some(tree) => Ok(tree),
        None => {
            parser.reset();
            Err(SourceError::ParseFailed)
        }
    }
}

pub(crate) fn parse(language: Language, text: &str) -> Result<Tree, SourceError> {
    // tree-sitter addresses bytes with u32.
    if u32::try_from(text.len()).is_err() {
        return Err(SourceError::ParseFailed);
    }
    PARSERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slots) => {
            let slot = &mut slots[language.index()];
            if slot.is_none() {
                *slot = Some(new_parser(language)?);
            }
            match slot.as_mut() {
                Some(parser) => run(parser, text),
                None => run(&mut new_parser(language)?, text),
            }
        }
        Err(_) => run(&mut new_parser(language)?, text),
    })
}

/// Parse `text` as `language` and extract the public interface. Never panics on any input;
/// syntax errors set `has_errors` and extraction continues best-effort.
pub fn extract(language: Language, text: &str) -> Result<Interface, SourceError> {
    let tree = parse(language, text)?;
    Ok(extract_tree(language, &tree, text))
}

/// The interface of a parsed tree of `text`.
fn extract_tree(language: Language, tree: &Tree, text: &str) -> Interface {
    let root = tree.root_node();
    let walks = language.walks();
    let extracted = walks.extract(root, text);
    let mut symbols = extracted.builder.symbols;
    symbols.sort_by(|a, b| a.cmp_key(b));
    let has_suites = walks.has_suite_calls();
    let mut cases = 0;
    let calls = calls::extract(walks, root, text, &mut |node| {
        cases += usize::from(has_suites && suites::is_case_call(node, text));
    });
    let type_refs = calls.types;
    let bases = calls.bases;
    let returns = calls.returns;
    let calls = calls.members;
    let mut signals = extracted.signals;
    signals.lines = text.lines().count();
    let mut interface = Interface {
        language,
        symbols,
        imports: extracted.imports.list,
        bindings: extracted.bindings,
        macro_scope: extracted.macro_scope,
        doc: extracted.doc,
        item_docs: extracted.item_docs,
        primary: extracted.primary,
        suites: match has_suites {
            true => Suites {
                top: suites::top(root, text),
                cases,
            },
            false => Suites::default(),
        },
        has_errors: root.has_error() && !extracted.syntax_ok,
        signals,
        outline: extracted.builder.outline,
        calls,
        type_refs,
        bases,
        returns,
    };
    // An update keeps every file's interface until its design file is written: no spare capacity
    // (a list grown by pushes holds up to twice its items: tens of megabytes over 100,000 files).
    interface.symbols.shrink_to_fit();
    interface.imports.shrink_to_fit();
    interface.bindings.shrink_to_fit();
    interface.macro_scope.shrink_to_fit();
    interface.item_docs.shrink_to_fit();
    interface.outline.shrink_to_fit();
    interface.calls.shrink_to_fit();
    interface
}

/// Helpers shared by the unit tests of the language modules.
#[cfg(test)]
mod testing {
    use super::{extract, Interface, Language, SymbolKind};

    /// Extract or fail the test.
    pub(super) fn parse(language: Language, text: &str) -> Interface {
        match extract(language, text) {
            Ok(interface) => interface,
            Err(e) => panic!("{language:?}: {e}"),
        }
    }

    /// (parent, kind, name, signature) rows in `symbols` order.
    pub(super) fn rows(interface: &Interface) -> Vec<(Option<&str>, SymbolKind, &str, &str)> {
        interface
            .symbols
            .iter()
            .map(|s| {
                (
                    s.parent.as_deref(),
                    s.kind,
                    s.name.as_str(),
                    s.signature.as_str(),
                )
            })
            .collect()
    }

    /// The parsed file of `text` (definitions, flows), or fail the test.
    pub(super) fn source_file(language: Language, text: &str) -> super::SourceFile {
        match super::SourceFile::parse(language, text.to_string()) {
            Ok(file) => file,
            Err(e) => panic!("{language:?}: {e}"),
        }
    }

    /// (label, kind) of every definition of `file`, in order.
    pub(super) fn definition_labels(file: &super::SourceFile) -> Vec<(&str, SymbolKind)> {
        file.definitions
            .iter()
            .map(|d| (d.label.as_str(), d.kind))
            .collect()
    }

    /// The flow of `file`'s definition `label` as `lookup --member` shows it, a line a step.
    pub(super) fn flow_of(file: &super::SourceFile, label: &str) -> Vec<String> {
        let Some(definition) = file.definition(label) else {
            panic!("no definition {label}");
        };
        file.flow(definition, super::flow::MAX_LINES).indented()
    }

    /// The signature of `interface`'s first symbol named `name`.
    pub(super) fn signature_of(interface: &Interface, name: &str) -> Option<String> {
        rows(interface)
            .into_iter()
            .find(|row| row.2 == name)
            .map(|row| row.3.to_string())
    }

    /// (name, doc) of every outline line with a doc, in outline order.
    pub(super) fn docs(interface: &Interface) -> Vec<(&str, &str)> {
        interface
            .outline()
            .iter()
            .filter_map(|line| Some((line.name.as_str(), line.doc.as_deref()?)))
            .collect()
    }

    /// Import specs with lines; Rust's names of macros used (`macro:`, tested in
    /// lang/rust/paths.rs) left out.
    pub(super) fn imports(interface: &Interface) -> Vec<(&str, usize)> {
        interface
            .imports
            .iter()
            .filter(|i| !i.spec.starts_with("macro:"))
            .map(|i| (i.spec.as_str(), i.line))
            .collect()
    }

    /// Assert that each `same` variant keeps the hash of `base` and each `different` one
    /// changes it.
    pub(super) fn assert_hash_behaviour(
        language: Language,
        base: &str,
        same: &[(&str, &str)],
        different: &[(&str, &str)],
    ) {
        let reference = parse(language, base).hash();
        for (label, text) in same {
            let iface = parse(language, text);
            assert!(!iface.has_errors, "{label}: variant does not parse cleanly");
            assert_eq!(
                iface.hash(),
                reference,
                "{label}: hash should not change\n{iface:#?}"
            );
        }
        for (label, text) in different {
            let iface = parse(language, text);
            assert!(!iface.has_errors, "{label}: variant does not parse cleanly");
            assert_ne!(iface.hash(), reference, "{label}: hash should change");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn assert_send<T: Send>() {}

    #[test]
    fn public_types_are_send() {
        assert_send::<Interface>();
        assert_send::<SourceError>();
        assert_send::<Language>();
    }

    #[test]
    fn every_grammar_loads() {
        for language in Language::ALL {
            let interface = extract(language, "");
            assert!(interface.is_ok(), "{language:?}: {interface:?}");
        }
    }

    #[test]
    fn extraction_works_from_many_threads() {
        let handles: Vec<_> = (0..4)
            .map(|i| {
                std::thread::spawn(move || {
                    let text = format!("pub fn f{i}(x: u8) -> u8 {{ x }}");
                    extract(Language::Rust, &text).map(|iface| iface.symbols.len())
                })
            })
            .collect();
        for handle in handles {
            assert!(matches!(handle.join().ok(), Some(Ok(1))));
        }
    }

    const ROBUSTNESS_LANGUAGES: [Language; Language::ALL.len()] = Language::ALL;

    fn pseudo_random_bytes(len: usize, mut seed: u64) -> Vec<u8> {
        (0..len)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                (seed >> 24) as u8
            })
            .collect()
    }

    #[test]
    fn robust_on_empty_input() {
        for language in ROBUSTNESS_LANGUAGES {
            let iface = extract(language, "").ok();
            let iface = iface.as_ref();
            assert!(iface.is_some_and(|i| i.symbols.is_empty() && !i.has_errors));
            assert!(iface.is_some_and(|i| i.doc.is_none() && i.signals.lines == 0));
            assert_eq!(iface.map(|i| i.skeleton()), Some(String::new()));
        }
    }

    #[test]
    fn robust_on_random_bytes() {
        for (n, language) in ROBUSTNESS_LANGUAGES.into_iter().enumerate() {
            for seed in 1..4u64 {
                let bytes = pseudo_random_bytes(4096, seed * 7919 + n as u64);
                let text = String::from_utf8_lossy(&bytes);
                let iface = extract(language, &text);
                assert!(iface.is_ok(), "{language:?}");
                if let Ok(iface) = iface {
                    let _ = iface.hash();
                    let _ = iface.skeleton();
                }
            }
        }
    }

    #[test]
    fn robust_on_deep_nesting() {
        let depth = 10_000;
        let expr = format!("{}1{}", "(".repeat(depth), ")".repeat(depth));
        let array = format!("{}1{}", "[".repeat(depth), "]".repeat(depth));
        let blocks = format!("{}{}", "{".repeat(depth), "}".repeat(depth));
        let generic = format!("{}u8{}", "Vec<".repeat(depth), ">".repeat(depth));
        let cases = [
            (Language::Rust, format!("pub type T = {generic};\n")),
            (Language::Python, format!("def g(x={array}):\n    pass\n")),
            (
                Language::Rust,
                format!("pub const X: u32 = {expr};\npub fn f() {blocks}\n"),
            ),
            (
                Language::JavaScript,
                format!("export const x = {expr};\nfunction f() {blocks}\n"),
            ),
            (Language::TypeScript, format!("export const x = {array};\n")),
            (Language::Tsx, format!("export const x = {expr};\n")),
            (
                Language::Python,
                format!("X = {expr}\ndef f():\n    return {array}\n"),
            ),
        ];
        for (language, text) in cases {
            let iface = extract(language, &text);
            assert!(iface.is_ok(), "{language:?}");
            if let Ok(iface) = iface {
                let _ = iface.hash();
                assert!(!iface.symbols.is_empty(), "{language:?}");
                assert!(iface.skeleton().len() < text.len() + 64, "{language:?}");
            }
        }
    }

    #[test]
    fn robust_on_huge_lines_and_unbalanced_input() {
        let long = format!("pub fn f() {{ let s = \"{}\"; }}", "x".repeat(200_000));
        let iface = extract(Language::Rust, &long);
        assert!(iface.is_ok_and(|i| i.symbols.len() == 1 && i.signals.lines == 1));
        for language in ROBUSTNESS_LANGUAGES {
            for text in [
                "{{{{{{",
                ")))))",
                "\"unterminated",
                "\u{0}\u{1}\u{feff}",
                "/*",
            ] {
                assert!(extract(language, text).is_ok(), "{language:?} {text:?}");
            }
        }
    }
}
