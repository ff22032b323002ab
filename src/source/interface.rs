//! The extracted public interface of one source file: symbol, import and signal types, the
//! order-independent `interface_hash` and the human-readable skeleton.

use std::cmp::Ordering;

use super::lang::Language;

/// What kind of declaration a [`Symbol`] is.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum SymbolKind {
    /// A module declaration or a re-export (`pub mod`, `pub use`, `export … from`).
    Module,
    /// A free function.
    Function,
    /// A method or associated function (parent = its type, trait or class).
    Method,
    /// A struct or union.
    Struct,
    /// An enum (its variants are part of the signature).
    Enum,
    /// A trait.
    Trait,
    /// A TypeScript interface (its members are part of the signature).
    Interface,
    /// A class.
    Class,
    /// A type alias or associated type.
    TypeAlias,
    /// A constant (Rust `const`, JS `const`, Python ALL_CAPS assignment).
    Constant,
    /// A Rust `static`.
    Static,
    /// A variable, field or attribute.
    Variable,
    /// An exported macro.
    Macro,
    /// A trait implementation (`impl Trait for Type`).
    Impl,
}

impl SymbolKind {
    /// Lowercase name, identical to the serde form ("typealias", "function", …).
    pub fn as_str(self) -> &'static str {
        match self {
            SymbolKind::Module => "module",
            SymbolKind::Function => "function",
            SymbolKind::Method => "method",
            SymbolKind::Struct => "struct",
            SymbolKind::Enum => "enum",
            SymbolKind::Trait => "trait",
            SymbolKind::Interface => "interface",
            SymbolKind::Class => "class",
            SymbolKind::TypeAlias => "typealias",
            SymbolKind::Constant => "constant",
            SymbolKind::Static => "static",
            SymbolKind::Variable => "variable",
            SymbolKind::Macro => "macro",
            SymbolKind::Impl => "impl",
        }
    }
}

/// One public declaration with its normalised signature.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Symbol {
    /// Declaration kind.
    pub kind: SymbolKind,
    /// Bare name, e.g. `parse` (for methods, the method name only).
    pub name: String,
    /// Enclosing type, trait, class or inline module, e.g. `Parser`.
    pub parent: Option<String>,
    /// The declaration without body, comments or attributes, tokens joined deterministically.
    pub signature: String,
}

impl Symbol {
    /// The ordering used for `Interface::symbols` and the hash: (parent, kind, name, signature).
    pub fn cmp_key(&self, other: &Symbol) -> Ordering {
        (&self.parent, self.kind, &self.name, &self.signature).cmp(&(
            &other.parent,
            other.kind,
            &other.name,
            &other.signature,
        ))
    }
}

/// A module reference as written in the source, with its 1-based line.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Import {
    /// "crate::a::b", "super::x", "mod:foo", "extern:serde", "./util", "react", ".sibling",
    /// "pkg.sub.mod", …
    pub spec: String,
    /// 1-based line of the first occurrence.
    pub line: usize,
    /// Python `from spec import a, b`: the names imported (a submodule among them is the
    /// dependency rather than the package); Rust `extern crate x as y`: the alias.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// Rust `#[path = "…"] mod x;`: the path written.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Needed only by the type checker, never at run time: Python's `if TYPE_CHECKING:` imports,
    /// TypeScript's `import type`/`export type … from`, JSDoc `@import`/`import('…')` types. A spec
    /// imported both ways is not type-only.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub type_only: bool,
    /// Rust: the namespace a path written in code names (a derive or a macro call names a macro, a
    /// type or an expression names an item); a `use` names every namespace.
    #[serde(skip_serializing_if = "Namespace::is_any")]
    pub namespace: Namespace,
}

/// Rust's namespaces as import resolution tells them apart: macros, and every other item (types
/// and values). A name may be bound in both (`clap::Parser` is a derive macro and a trait).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Namespace {
    /// Not said: a `use` (which imports every namespace its name is bound in), or a binding whose
    /// namespace is not known.
    #[default]
    Any,
    Macro,
    Item,
    /// Both, said: a path used as a macro in one place and as an item in another.
    Both,
}

impl Namespace {
    pub fn is_any(&self) -> bool {
        *self == Namespace::Any
    }

    /// The namespace(s) of one name bound twice, or of one path written in two places: a `use`
    /// also written as an item is still the `use`.
    pub fn merge(self, other: Namespace) -> Namespace {
        use Namespace::{Any, Both, Item};
        match (self, other) {
            _ if self == other => self,
            (Any, Item) | (Item, Any) => Any,
            _ => Both,
        }
    }

    fn code(self) -> &'static str {
        match self {
            Namespace::Any => "-",
            Namespace::Macro => "m",
            Namespace::Item => "i",
            Namespace::Both => "b",
        }
    }
}

/// A name a Rust module file makes visible to paths that go through it (`crate::m::Name`): what
/// import resolution follows to the file that defines an item.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Binding {
    /// The inline module it is declared in (`sync`, `a::b`), `""` for the file's own scope.
    pub scope: String,
    pub kind: BindingKind,
}

/// What a [`Binding`] binds.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum BindingKind {
    /// An item defined in the file: a struct, enum, function, trait, constant, an inline module…
    Item(String),
    /// `use path as name;` — of any visibility, since a private import is visible to child modules.
    /// The path as written in its scope.
    Alias { name: String, path: String },
    /// `use path::*;`
    Glob(String),
    /// A macro defined in the file: `macro_rules! name` (of any visibility: a `pub(crate) use
    /// name;` makes it a path), or a proc-macro crate's `#[proc_macro_derive(Name)]`,
    /// `#[proc_macro]` or `#[proc_macro_attribute]` function. Macros are a namespace of their own.
    Macro(String),
}

/// One step of a Rust module file's *textual* macro scope, in source order: what a `macro_rules!`
/// macro used by its bare name (`debug!(…)`) is looked up in, unlike a path (rustc's "textual
/// scope": a macro is visible after its definition, in the module and the child modules declared
/// after it; `#[macro_use] mod m;` extends `m`'s macros to the rest of the parent).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub enum MacroScope {
    /// `macro_rules! name` at item level, in inline module `scope` (`""` for the file's own).
    Defined { scope: String, name: String },
    /// `mod name;` of a module file (`path` as the `mod:` import spells it: `a::b` inside inline
    /// module `a`), `#[macro_use]` or not.
    Module { path: String, macro_use: bool },
    /// `#[macro_use] extern crate name;`: the crate's exported macros, in the whole crate.
    Crate(String),
}

/// Cheap complexity signals for a file.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Signals {
    /// Number of lines in the file.
    pub lines: usize,
    /// Rust `unsafe { … }` blocks.
    pub unsafe_blocks: usize,
    /// TODO / FIXME / HACK / XXX markers (whole words) inside comments.
    pub todo_markers: usize,
    /// Deepest block nesting inside function bodies (the body itself is depth 0).
    pub max_nesting: usize,
}

/// One line of the skeleton, in source order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutlineLine {
    /// Indentation level: 0 for a top-level declaration, 1 for its members, and so on.
    pub depth: usize,
    /// The signature shown.
    pub text: String,
    /// What the line declares; `None` for a header that only groups members (`impl Parser<'a>`).
    pub kind: Option<SymbolKind>,
    /// The declared symbol's name ("" for a header).
    pub name: String,
    /// The declared symbol's parent, as in [`Symbol::parent`].
    pub parent: Option<String>,
    /// The declaration's own doc (`///`, JSDoc, a docstring), comment markers stripped, when it has
    /// one: the contract shows its first sentence beside the signature. Not part of any hash.
    pub doc: Option<String>,
    /// The lines of its whole doc a caller must know beyond the first sentence (parameters,
    /// returns, errors, accepted forms: `source::behaviour`), which `lexi lookup` shows when its
    /// budget has room. Not part of any hash.
    pub behaviour: Vec<String>,
    /// The whole doc (every paragraph, dedented), at most [`MAX_WHOLE_DOC`] bytes: what `lexi
    /// lookup --member` shows. Not part of any hash.
    pub whole_doc: Option<String>,
}

/// Longest whole doc an [`OutlineLine`] keeps, in bytes.
pub const MAX_WHOLE_DOC: usize = 12_000;

/// The public interface of one source file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Interface {
    /// Language the file was parsed as.
    pub language: Language,
    /// Public symbols, sorted by (parent, kind, name, signature).
    pub symbols: Vec<Symbol>,
    /// Imports in source order, deduplicated by spec.
    pub imports: Vec<Import>,
    /// Rust: the names the file's module scope binds (items and `use`s), in source order.
    #[serde(skip)]
    pub bindings: Vec<Binding>,
    /// Rust: the file's textual macro scope, in source order (test-only code left out).
    #[serde(skip)]
    pub macro_scope: Vec<MacroScope>,
    /// Module-level documentation, comment markers stripped.
    pub doc: Option<String>,
    /// Doc comments of top-level declarations by name, in source order (for the primary export's
    /// doc when the module has none of its own).
    #[serde(skip)]
    pub item_docs: Vec<(String, String)>,
    /// JS/TS: the key in `item_docs` of what the module exports as a whole (`module.exports = app`,
    /// `export default class App`), when it says.
    #[serde(skip)]
    pub primary: Option<String>,
    /// JS/TS: the test suites and cases the file declares (`describe`/`it`), for the description of
    /// a test file.
    #[serde(skip)]
    pub suites: Suites,
    /// Whether tree-sitter reported ERROR or MISSING nodes.
    pub has_errors: bool,
    /// Complexity signals.
    pub signals: Signals,
    /// Skeleton lines in order of first appearance (kept apart from the sorted `symbols`).
    #[serde(skip)]
    pub(super) outline: Vec<OutlineLine>,
    /// Each member's calls, in source order (`super::calls`).
    #[serde(skip)]
    pub calls: Vec<super::calls::items::MemberCalls>,
    /// The capitalised names (types, classes) the file mentions (`source::calls`), for telling
    /// whose method a call through an object may reach.
    pub type_refs: Vec<String>,
    /// Each class's bases, a Rust type's traits, a trait's supertraits (`source::calls`): what
    /// `lexi lookup --member` follows to a member's implementations and overrides.
    #[serde(skip)]
    pub bases: Vec<(String, Vec<String>)>,
    /// The type each method of a type returns where it is written (`(SearcherBuilder.build,
    /// Searcher)`): recorded in the update cache for the graph to type chains of calls.
    #[serde(skip)]
    pub returns: Vec<(String, String)>,
}

impl Interface {
    /// Rust: the names of the `#[macro_export]` macros the file defines, sorted.
    pub fn exported_macros(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::Macro && s.parent.is_none())
            .map(|s| s.name.clone())
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// The bare names of every public item the file defines — top-level items, methods, fields —
    /// sorted and deduplicated. Module declarations and re-exports (`pub use`, `export … from`,
    /// `from x import y`) and trait implementations are left out: they name items defined
    /// elsewhere. So are names that are not identifiers (`export =`). A CommonJS member is named by
    /// its member (`app.use` → `use`, `Router.prototype.route` → `route`), one assigned under a
    /// computed name by that name (`app[method]` → `method`).
    pub fn public_names(&self) -> Vec<String> {
        let identifier = |name: &str| {
            !name.is_empty()
                && name
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
        };
        let mut names: Vec<String> = self
            .symbols
            .iter()
            .filter(|s| !matches!(s.kind, SymbolKind::Module | SymbolKind::Impl))
            .filter_map(|s| {
                let bare = s.name.strip_suffix(']').and_then(|n| n.rsplit_once('['));
                let bare = bare.map_or_else(|| s.name.rsplit('.').next(), |(_, index)| Some(index));
                bare.filter(|name| identifier(name) && s.name != "module.exports")
                    .map(str::to_string)
            })
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// The names the file re-exports from the modules it imports (Python `from .helpers import
    /// make_response as make_response`, or listed in `__all__`; TypeScript `export { x } from`):
    /// its importers call them through it (`flask.make_response`). Sorted, deduplicated.
    pub fn reexported_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .symbols
            .iter()
            .filter(|s| s.kind == SymbolKind::Module && s.parent.is_none())
            .map(|s| s.name.clone())
            .filter(|name| {
                !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
            })
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// Rust: the module names the file's `use` items bind to the standard library only (`mpsc`
    /// of `use std::sync::mpsc;`, never also bound to another path in the file): a call
    /// `mpsc::channel()` through one is std's, not the project's `mpsc` module's. Sorted.
    pub fn std_modules(&self) -> Vec<String> {
        let is_std = |path: &str| {
            let path = path.trim_start_matches("::");
            ["std::", "core::", "alloc::"]
                .iter()
                .any(|root| path.starts_with(root))
        };
        let aliases = || {
            self.bindings.iter().filter_map(|b| match &b.kind {
                BindingKind::Alias { name, path } => Some((name.as_str(), path.as_str())),
                _ => None,
            })
        };
        let elsewhere: Vec<&str> = aliases()
            .filter(|(_, path)| !is_std(path))
            .map(|(name, _)| name)
            .collect();
        let mut names: Vec<String> = aliases()
            .filter(|(name, path)| is_std(path) && !elsewhere.contains(name))
            .map(|(name, _)| name)
            .filter(|name| name.starts_with(|c: char| c.is_ascii_lowercase()))
            .map(str::to_string)
            .collect();
        names.sort();
        names.dedup();
        names
    }

    /// The names `lexi search` finds the file by: its [`Interface::public_names`] and its Rust
    /// test functions (`#[test]`, `#[tokio::test]`: private, but what a test is looked up by),
    /// sorted and deduplicated.
    pub fn searchable_names(&self) -> Vec<String> {
        let mut names = self.public_names();
        names.extend(
            self.calls
                .iter()
                .filter(|member| member.test)
                .map(|member| member.name().to_string()),
        );
        names.sort();
        names.dedup();
        names
    }

    /// The doc comment of the top-level declaration `name`, if it has one.
    pub fn item_doc(&self, name: &str) -> Option<&str> {
        self.item_docs
            .iter()
            .find(|(item, _)| item == name)
            .map(|(_, doc)| doc.as_str())
    }

    /// SHA-256 (lowercase hex) over the sorted (parent, kind, name, signature) tuples; fields are
    /// separated by U+001F and tuples by '\n'. Independent of source order, bodies, comments,
    /// whitespace and private items.
    pub fn hash(&self) -> String {
        let mut refs: Vec<&Symbol> = self.symbols.iter().collect();
        refs.sort_by(|a, b| a.cmp_key(b));
        let mut buf = String::new();
        for (i, sym) in refs.iter().enumerate() {
            if i > 0 {
                buf.push('\n');
            }
            buf.push_str(sym.parent.as_deref().unwrap_or(""));
            buf.push('\u{1f}');
            buf.push_str(sym.kind.as_str());
            buf.push('\u{1f}');
            buf.push_str(&sym.name);
            buf.push('\u{1f}');
            buf.push_str(&sym.signature);
        }
        crate::hash::sha256_hex(buf.as_bytes())
    }

    /// What other files' import resolution reads of a Rust module file, as a short hash: its
    /// `mod` declarations and `extern crate`s, the names its module scope binds (items, macros and
    /// `use`s), its textual macro scope and the macros it exports. An edit that keeps it (a body, a signature, a comment, a path in an
    /// expression) resolves every path that goes through the file alike, so its importers are
    /// neither read nor resolved again. Empty for other languages.
    pub fn module_scope_hash(&self) -> String {
        if !self.language.spec().resolves_through_module_scopes {
            return String::new();
        }
        let mut buf = String::new();
        let declarations = self
            .imports
            .iter()
            .filter(|import| import.spec.starts_with("mod:") || import.spec.starts_with("extern:"));
        for import in declarations {
            push_import(&mut buf, import);
        }
        for binding in &self.bindings {
            buf.push_str("b\u{1f}");
            buf.push_str(&binding.scope);
            match &binding.kind {
                BindingKind::Item(name) => buf.push_str(&format!("\u{1f}item\u{1f}{name}")),
                BindingKind::Alias { name, path } => {
                    buf.push_str(&format!("\u{1f}alias\u{1f}{name}\u{1f}{path}"))
                }
                BindingKind::Glob(path) => buf.push_str(&format!("\u{1f}glob\u{1f}{path}")),
                BindingKind::Macro(name) => buf.push_str(&format!("\u{1f}macro\u{1f}{name}")),
            }
            buf.push('\n');
        }
        for step in &self.macro_scope {
            match step {
                MacroScope::Defined { scope, name } => {
                    buf.push_str(&format!("t\u{1f}def\u{1f}{scope}\u{1f}{name}"))
                }
                MacroScope::Module { path, macro_use } => {
                    buf.push_str(&format!("t\u{1f}mod\u{1f}{path}\u{1f}{macro_use}"))
                }
                MacroScope::Crate(name) => buf.push_str(&format!("t\u{1f}crate\u{1f}{name}")),
            }
            buf.push('\n');
        }
        for name in self.exported_macros() {
            buf.push_str("m\u{1f}");
            buf.push_str(&name);
            buf.push('\n');
        }
        short_hash(&buf)
    }

    /// What the file's own import resolution reads of it besides its module scope, as a short
    /// hash: every import (spec, names, `#[path]`, type-only; not its line). A Rust file whose
    /// module scope and imports are as they were resolves as it did while no module scope moved.
    /// Empty for other languages.
    pub fn imports_hash(&self) -> String {
        if !self.language.spec().resolves_through_module_scopes {
            return String::new();
        }
        let mut buf = String::new();
        for import in &self.imports {
            push_import(&mut buf, import);
        }
        short_hash(&buf)
    }

    /// The skeleton's lines, in order of first appearance, with what each declares.
    pub fn outline(&self) -> &[OutlineLine] {
        &self.outline
    }

    /// The public API as text for a markdown code fence: one signature per line in order of first
    /// appearance, members indented two spaces under their type/impl/trait/class/module header.
    /// Lines are joined with '\n' without a trailing newline; empty when nothing is public.
    pub fn skeleton(&self) -> String {
        let mut out = String::new();
        for (i, line) in self.outline.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            for _ in 0..line.depth {
                out.push_str("  ");
            }
            out.push_str(&line.text);
        }
        out
    }
}

/// One import in a hashed serialisation: spec, names, `#[path]`, type-only.
fn push_import(buf: &mut String, import: &Import) {
    buf.push_str("i\u{1f}");
    buf.push_str(&import.spec);
    buf.push('\u{1f}');
    buf.push_str(&import.names.join("\u{1e}"));
    buf.push('\u{1f}');
    buf.push_str(import.path.as_deref().unwrap_or(""));
    buf.push_str(if import.type_only {
        "\u{1f}t"
    } else {
        "\u{1f}-"
    });
    buf.push('\u{1f}');
    buf.push_str(import.namespace.code());
    buf.push('\n');
}

/// The first 16 hex digits of the SHA-256 of `text` (64 bits: enough to tell two versions of
/// one file apart, a quarter of the cache bytes of a whole hash).
fn short_hash(text: &str) -> String {
    let mut hash = crate::hash::sha256_hex(text.as_bytes());
    hash.truncate(16);
    hash
}

/// One top-level `describe` block.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Suite {
    /// Its title: `res`, `app.router`.
    pub title: String,
    /// The titles of the blocks directly inside it, in source order.
    pub children: Vec<String>,
}

/// A test file's suites and cases.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Suites {
    /// The top-level `describe` blocks, in source order.
    pub top: Vec<Suite>,
    /// The `it`/`test`/`specify` calls anywhere in the file.
    pub cases: usize,
}

impl Suites {
    /// Whether the file declares any suite or case.
    pub fn is_empty(&self) -> bool {
        self.top.is_empty() && self.cases == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sym(parent: Option<&str>, kind: SymbolKind, name: &str, sig: &str) -> Symbol {
        Symbol {
            kind,
            name: name.to_string(),
            parent: parent.map(str::to_string),
            signature: sig.to_string(),
        }
    }

    fn interface(symbols: Vec<Symbol>, outline: Vec<(usize, &str)>) -> Interface {
        Interface {
            language: Language::Rust,
            symbols,
            imports: Vec::new(),
            bindings: Vec::new(),
            macro_scope: Vec::new(),
            doc: None,
            item_docs: Vec::new(),
            primary: None,
            suites: Default::default(),
            has_errors: false,
            signals: Signals::default(),
            calls: Vec::new(),
            type_refs: Vec::new(),
            bases: Vec::new(),
            returns: Vec::new(),
            outline: outline
                .into_iter()
                .map(|(depth, text)| OutlineLine {
                    depth,
                    text: text.to_string(),
                    kind: None,
                    name: String::new(),
                    parent: None,
                    doc: None,
                    behaviour: Vec::new(),
                    whole_doc: None,
                })
                .collect(),
        }
    }

    #[test]
    fn hash_is_sha256_of_the_documented_serialisation() {
        let i = interface(
            vec![
                sym(None, SymbolKind::Function, "parse", "pub fn parse()"),
                sym(
                    Some("Parser"),
                    SymbolKind::Method,
                    "new",
                    "pub fn new() -> Self",
                ),
            ],
            vec![],
        );
        let expected = crate::hash::sha256_hex(
            "\u{1f}function\u{1f}parse\u{1f}pub fn parse()\nParser\u{1f}method\u{1f}new\u{1f}pub fn new() -> Self"
                .as_bytes(),
        );
        assert_eq!(i.hash(), expected);
    }

    #[test]
    fn hash_ignores_vector_order_and_empty_hash_is_the_empty_digest() {
        let a = sym(None, SymbolKind::Function, "a", "fn a()");
        let b = sym(None, SymbolKind::Function, "b", "fn b()");
        let one = interface(vec![a.clone(), b.clone()], vec![]);
        let two = interface(vec![b, a], vec![]);
        assert_eq!(one.hash(), two.hash());
        assert_eq!(
            interface(vec![], vec![]).hash(),
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
        );
    }

    #[test]
    fn skeleton_indents_two_spaces_per_depth() {
        let i = interface(
            vec![],
            vec![
                (0, "impl Parser"),
                (1, "pub fn new() -> Self"),
                (0, "pub fn parse()"),
            ],
        );
        assert_eq!(
            i.skeleton(),
            "impl Parser\n  pub fn new() -> Self\npub fn parse()"
        );
        assert_eq!(interface(vec![], vec![]).skeleton(), "");
    }

    #[test]
    fn kinds_serialise_like_as_str() {
        let all = [
            SymbolKind::Module,
            SymbolKind::Function,
            SymbolKind::Method,
            SymbolKind::Struct,
            SymbolKind::Enum,
            SymbolKind::Trait,
            SymbolKind::Interface,
            SymbolKind::Class,
            SymbolKind::TypeAlias,
            SymbolKind::Constant,
            SymbolKind::Static,
            SymbolKind::Variable,
            SymbolKind::Macro,
            SymbolKind::Impl,
        ];
        for kind in all {
            let json = serde_json::to_string(&kind).unwrap_or_default();
            assert_eq!(json, format!("\"{}\"", kind.as_str()));
        }
    }

    #[test]
    fn public_names_are_the_items_defined_here_methods_included() {
        let source = "from .helpers import make_response as make_response\n\n\ndef route(rule):\n    pass\n\n\nclass App:\n    def make_response(self, rv):\n        pass\n\n    def route(self, rule):\n        pass\n\n    def _private(self):\n        pass\n";
        let interface = crate::source::extract(super::Language::Python, source).expect("parses");
        assert_eq!(interface.public_names(), ["App", "make_response", "route"]);
        let rust = "pub use crate::a::b;\npub mod inner;\npub struct S;\nimpl Clone for S { fn clone(&self) -> S { S } }\nimpl S { pub fn bind(&self) {} }\n";
        let interface = crate::source::extract(super::Language::Rust, rust).expect("parses");
        assert_eq!(interface.public_names(), ["S", "bind"]);
        let commonjs = "var app = exports = module.exports = {};\napp.use = function use(fn) {};\nmethods.forEach(function (method) {\n  app[method] = function (path) {};\n});\n";
        let interface =
            crate::source::extract(super::Language::JavaScript, commonjs).expect("parses");
        assert_eq!(interface.public_names(), ["method", "use"]);
    }
}
