//! What a design file keeps when its budget is short: the Interface Contract's most important lines
//! and a path list's most relevant entries.
//!
//! Contract lines are chosen by importance, then shown in source order: top-level declarations
//! (types, functions, modules, re-exports) first, then the public methods of the file's primary
//! type (what an agent calls: flask's `App.add_url_rule`), then its properties, attributes, class
//! variables and fields, then other members, other fields and attributes, the primary type's
//! dunder and private members (`__init__`, `__repr__`), trait impls, module-level variables and
//! constants (Python TypeVars among them), and repeated signatures of one name (`@overload`s) last.
//! A member is never shown without the header it sits under. What is left out is counted on one
//! last line.
//!
//! Paths are chosen by relevance to the source: code in the same package tree first (the nearest
//! directories first), then other code, then tests, then examples, benches and docs.

use std::collections::HashSet;

use crate::source::{OutlineLine, SymbolKind};

/// How much a contract line matters, most first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Importance {
    /// A top-level type, function, module or re-export.
    Declaration,
    /// A public method (or nested declaration) of the file's primary type.
    PrimaryMethod,
    /// A property, attribute, class variable or field of the file's primary type.
    PrimaryValue,
    /// Any other member.
    Member,
    /// A field or attribute.
    Field,
    /// A dunder or private member of the file's primary type (`__init__`, `__repr__`, `_helper`).
    PrimaryPrivate,
    /// `impl Trait for Type`.
    TraitImpl,
    /// A module-level variable, constant or static (a Python TypeVar).
    ModuleValue,
    /// Another signature of a name already shown (`@overload`).
    Overload,
    /// A header that only groups members: kept with them, never alone.
    Header,
}

/// The lines of `outline` that fit in `bytes` (indentation and line breaks counted), in source
/// order, chosen by importance; `primary` is the file's primary type. A last line counts the rest
/// and points to `source`.
pub fn fit_contract(
    outline: &[OutlineLine],
    bytes: usize,
    primary: Option<&str>,
    source: &str,
) -> String {
    let kept = chosen_lines(outline, bytes, primary, source);
    let parents = parents(outline);
    let mut lines: Vec<String> = outline
        .iter()
        .zip(&kept)
        .filter(|(_, kept)| **kept)
        .map(|(line, _)| indented(line))
        .collect();
    if lines.is_empty() {
        // Not even the most important line fits (a huge inline type): cut it.
        if let Some(&first) = by_importance(outline, primary).first() {
            let root = root_of(first, &parents);
            lines.push(cut_line(&indented(&outline[root]), bytes.saturating_sub(4)));
        }
    }
    let left = outline.len().saturating_sub(lines.len());
    let mut out = lines.join("\n");
    if left > 0 {
        out.push('\n');
        out.push_str(&rest_line(left, source));
    }
    out
}

/// The lines of `outline`, most important first (headers left out: they come with their members).
pub fn by_importance(outline: &[OutlineLine], primary: Option<&str>) -> Vec<usize> {
    let importance = importance(outline, primary);
    let mut order: Vec<usize> = (0..outline.len())
        .filter(|&i| importance[i] != Importance::Header)
        .collect();
    order.sort_by_key(|&i| (importance[i], i));
    order
}

/// Which lines of `outline` [`fit_contract`] keeps within `bytes` (the last line counting the rest
/// included when not all fit): the most important, each with the headers it sits under.
pub fn chosen_lines(
    outline: &[OutlineLine],
    bytes: usize,
    primary: Option<&str>,
    source: &str,
) -> Vec<bool> {
    let parents = parents(outline);
    let mut kept = vec![false; outline.len()];
    let total: usize = outline.iter().map(cost).sum();
    // When not everything fits, the last line counting the rest takes room too.
    let room = match total <= bytes {
        true => bytes,
        false => bytes.saturating_sub(rest_line(outline.len(), source).len() + 1),
    };
    let mut used = 0;
    for i in by_importance(outline, primary) {
        let chain = unkept_chain(i, &parents, &kept);
        let cost: usize = chain.iter().map(|&j| cost(&outline[j])).sum();
        if used + cost <= room {
            used += cost;
            for j in chain {
                kept[j] = true;
            }
        }
    }
    kept
}

/// Whether every line of `outline` fits in `bytes` (indentation and line breaks counted).
pub fn fits_whole(outline: &[OutlineLine], bytes: usize) -> bool {
    outline.iter().map(cost).sum::<usize>() <= bytes
}

/// The last line of a capped contract: `// … and 12 more lines: read src/app.py`.
pub fn rest_line(left: usize, source: &str) -> String {
    let noun = if left == 1 { "line" } else { "lines" };
    format!("// … and {left} more {noun}: read {source}")
}

/// The line shown: two spaces per depth, then the signature.
pub fn indented(line: &OutlineLine) -> String {
    format!("{}{}", "  ".repeat(line.depth), line.text)
}

/// Bytes a line takes in the contract, its line break included.
pub fn cost(line: &OutlineLine) -> usize {
    line.depth * 2 + line.text.len() + 1
}

/// For each line, the line it is indented under.
fn parents(outline: &[OutlineLine]) -> Vec<Option<usize>> {
    let mut open: Vec<usize> = Vec::new();
    outline
        .iter()
        .enumerate()
        .map(|(i, line)| {
            while open.last().is_some_and(|&j| outline[j].depth >= line.depth) {
                open.pop();
            }
            let parent = open.last().copied();
            open.push(i);
            parent
        })
        .collect()
}

/// `i` and its ancestors not kept yet.
fn unkept_chain(i: usize, parents: &[Option<usize>], kept: &[bool]) -> Vec<usize> {
    let mut chain = Vec::new();
    let mut current = Some(i);
    while let Some(j) = current.filter(|&j| !kept[j]) {
        chain.push(j);
        current = parents[j];
    }
    chain
}

fn root_of(i: usize, parents: &[Option<usize>]) -> usize {
    let mut root = i;
    while let Some(parent) = parents[root] {
        root = parent;
    }
    root
}

/// The importance of every line of `outline`.
fn importance(outline: &[OutlineLine], primary: Option<&str>) -> Vec<Importance> {
    let mut seen: HashSet<(Option<&str>, &str, SymbolKind)> = HashSet::new();
    outline
        .iter()
        .map(|line| {
            let Some(kind) = line.kind else {
                return Importance::Header;
            };
            let key = (line.parent.as_deref(), line.name.as_str(), kind);
            if !seen.insert(key) && kind != SymbolKind::Impl {
                return Importance::Overload;
            }
            let value = matches!(
                kind,
                SymbolKind::Variable | SymbolKind::Constant | SymbolKind::Static
            );
            let of_primary = primary.is_some() && base_name(line.parent.as_deref()) == primary;
            match (line.depth, kind) {
                (_, SymbolKind::Impl) => Importance::TraitImpl,
                (0, _) if value => Importance::ModuleValue,
                (0, _) => Importance::Declaration,
                _ if of_primary && is_private_name(&line.name) => Importance::PrimaryPrivate,
                _ if of_primary && (value || is_accessor(&line.text)) => Importance::PrimaryValue,
                _ if of_primary => Importance::PrimaryMethod,
                _ if value => Importance::Field,
                _ => Importance::Member,
            }
        })
        .collect()
}

/// A dunder or private member name: `__init__`, `_helper`, JavaScript's `#count`.
fn is_private_name(name: &str) -> bool {
    name.starts_with('_') || name.starts_with('#')
}

/// A method that reads or writes like an attribute: a Python `@property`/`@cached_property` (or its
/// `.setter`/`.getter`/`.deleter`), a JavaScript/TypeScript `get x()`/`set x()`.
fn is_accessor(text: &str) -> bool {
    let decorators: Vec<&str> = text
        .split_whitespace()
        .take_while(|word| word.starts_with('@'))
        .map(|word| {
            word.trim_start_matches('@')
                .split('(')
                .next()
                .unwrap_or(word)
        })
        .collect();
    if !decorators.is_empty() {
        return decorators.iter().any(|decorator| {
            let last = decorator.rsplit('.').next().unwrap_or(decorator);
            matches!(
                last,
                "property" | "cached_property" | "setter" | "getter" | "deleter"
            )
        });
    }
    let text = text.trim_start_matches("static ");
    ["get ", "set "]
        .iter()
        .any(|prefix| text.starts_with(prefix) && !text[prefix.len()..].starts_with('('))
}

/// The type a parent names, without its path and generics (`inner::Parser<'a>` → `Parser`).
fn base_name(parent: Option<&str>) -> Option<&str> {
    let parent = parent?;
    let bare = parent.split('<').next().unwrap_or(parent);
    Some(bare.rsplit("::").next().unwrap_or(bare).trim())
}

/// `line` cut to at most `bytes` (on a char boundary) and marked with `…`.
fn cut_line(line: &str, bytes: usize) -> String {
    if line.len() <= bytes {
        return line.to_string();
    }
    let mut end = bytes;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{} …", &line[..end])
}

/// How relevant a path in a list is to `source`, most first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Relevance {
    /// The source's own header or its implementation (`sds.h` of `sds.c`, and back).
    Pair,
    /// Code in the source's package tree, nearer directories first.
    SamePackage(usize),
    /// Other code.
    OtherCode,
    /// A test.
    Test,
    /// An example, a bench or documentation.
    Example,
}

/// The `cap` paths most relevant to `source`, most relevant first (alphabetical within a rank).
pub fn most_relevant<'a>(paths: &'a [String], cap: usize, source: &str) -> Vec<&'a String> {
    let package = package_root(source);
    let mut ranked: Vec<(Relevance, &String)> = paths
        .iter()
        .map(|path| (relevance(path, source, package), path))
        .collect();
    ranked.sort();
    ranked.into_iter().take(cap).map(|(_, path)| path).collect()
}

fn relevance(path: &str, source: &str, package: &str) -> Relevance {
    use super::structural::{HEADER_MARK, IMPLEMENTATION_MARK};
    if path.ends_with(HEADER_MARK) || path.ends_with(IMPLEMENTATION_MARK) {
        return Relevance::Pair;
    }
    if super::is_test_path(path) {
        return Relevance::Test;
    }
    if super::is_sample_path(path) {
        return Relevance::Example;
    }
    let dirs = directories(path);
    if !path.starts_with(package) {
        return Relevance::OtherCode;
    }
    let from = directories(source);
    let common = from.iter().zip(&dirs).take_while(|(a, b)| a == b).count();
    Relevance::SamePackage(from.len() - common + dirs.len() - common)
}

/// The directories a path is in, outermost first.
fn directories(path: &str) -> Vec<&str> {
    let mut parts: Vec<&str> = path.split('/').collect();
    parts.pop();
    parts
}

/// The source's package directory with its trailing `/`: what comes before its `src/` or `lib/`
/// directory (`tokio/` for `tokio/src/net/tcp/listener.rs`); "" (the whole project) otherwise.
fn package_root(source: &str) -> &str {
    let mut offset = 0;
    for part in directories(source) {
        if matches!(part, "src" | "lib") {
            return &source[..offset];
        }
        offset += part.len() + 1;
    }
    ""
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{extract, Language};

    fn outline(language: Language, text: &str) -> Vec<OutlineLine> {
        extract(language, text).expect("parses").outline().to_vec()
    }

    /// flask's `helpers.py` and `app.py` in small: module-level TypeVars first, then functions (one
    /// with `@overload`s), then a class.
    const FLASK_LIKE: &str = r#"import typing as t

T_route = t.TypeVar("T_route", bound=t.Callable[..., t.Any])
T_teardown = t.TypeVar("T_teardown", bound=t.Callable[..., t.Any])
T_template_filter = t.TypeVar("T_template_filter", bound=t.Callable[..., t.Any])
T_template_global = t.TypeVar("T_template_global", bound=t.Callable[..., t.Any])

@t.overload
def stream_with_context(generator_or_function: t.Iterator[t.AnyStr]) -> t.Iterator[t.AnyStr]: ...
@t.overload
def stream_with_context(generator_or_function: t.Callable[..., t.Iterator[t.AnyStr]]) -> t.Callable[[t.Iterator[t.AnyStr]], t.Iterator[t.AnyStr]]: ...
def stream_with_context(generator_or_function):
    return generator_or_function

def make_response(*args: t.Any) -> Response:
    pass

def url_for(endpoint: str, **values: t.Any) -> str:
    pass

def redirect(location: str, code: int = 302) -> Response:
    pass

class Flask(App):
    default_config = ImmutableDict({"DEBUG": None})
    def run(self, host: str | None = None, port: int | None = None) -> None:
        pass
    def test_client(self, use_cookies: bool = True) -> FlaskClient:
        pass
"#;

    #[test]
    fn functions_and_classes_are_kept_typevars_and_overloads_dropped_first() {
        let lines = outline(Language::Python, FLASK_LIKE);
        assert_eq!(lines.len(), 14);
        let fitted = fit_contract(&lines, 393, Some("Flask"), "src/flask/helpers.py");
        assert_eq!(
            fitted,
            "\
def stream_with_context(generator_or_function: t.Iterator[t.AnyStr]) -> t.Iterator[t.AnyStr]
def make_response(*args: t.Any) -> Response
def url_for(endpoint: str, **values: t.Any) -> str
def redirect(location: str, code: int = 302) -> Response
class Flask(App)
  def run(self, host: str | None = None, port: int | None = None) -> None
// … and 8 more lines: read src/flask/helpers.py"
        );
        // A roomier budget takes the class's other members, then the TypeVars; overloads last.
        let roomy = fit_contract(&lines, 560, Some("Flask"), "src/flask/helpers.py");
        assert!(roomy.contains("\n  default_config\n"), "{roomy}");
        assert!(roomy.contains("T_route = t.TypeVar"), "{roomy}");
        assert!(!roomy.contains("t.Callable[[t.Iterator"), "{roomy}");
        assert!(
            roomy.ends_with("more lines: read src/flask/helpers.py"),
            "{roomy}"
        );
        let all = fit_contract(&lines, usize::MAX, None, "x.py");
        assert_eq!(all.lines().count(), 14);
        assert!(!all.contains("more line"));
    }

    #[test]
    fn a_member_is_never_shown_without_its_header() {
        let text = "pub struct Parser;\nimpl Parser {\n    pub fn new() -> Self { Parser }\n    pub fn parse(&mut self) {}\n}\npub const LIMIT: usize = 3;\n";
        let lines = outline(Language::Rust, text);
        // Room for the struct, one member and the last line: the member's `impl` header comes with
        // it.
        let fitted = fit_contract(&lines, 100, Some("Parser"), "src/parser.rs");
        assert_eq!(
            fitted,
            "pub struct Parser\nimpl Parser\n  pub fn new() -> Self\n// … and 2 more lines: read src/parser.rs"
        );
        let no_member_room = fit_contract(&lines, 30, Some("Parser"), "src/parser.rs");
        assert!(
            no_member_room.starts_with("pub struct Parser\n"),
            "{no_member_room}"
        );
        for line in no_member_room.lines() {
            assert!(
                !line.starts_with("  ") && line != "impl Parser",
                "{no_member_room}"
            );
        }
    }

    #[test]
    fn the_primary_types_members_come_before_other_members() {
        let text = "class Helper:\n    def assist(self) -> None:\n        pass\n    def help(self) -> None:\n        pass\n\nclass Flask:\n    def run(self) -> None:\n        pass\n";
        let lines = outline(Language::Python, text);
        let fitted = fit_contract(&lines, 90, Some("Flask"), "app.py");
        assert_eq!(
            fitted,
            "class Helper\nclass Flask\n  def run(self) -> None\n// … and 2 more lines: read app.py"
        );
    }

    /// flask's `sansio/scaffold.py` in small: a class whose attributes, properties and `__init__`
    /// come before the methods an agent calls.
    const SCAFFOLD_LIKE: &str = r#"class Scaffold:
    cli: Group
    name: str
    _static_folder: str | None = None
    def __init__(self, import_name: str, static_folder: str | None = None) -> None:
        pass
    def __repr__(self) -> str:
        pass
    @property
    def static_folder(self) -> str | None:
        pass
    @cached_property
    def jinja_loader(self) -> BaseLoader | None:
        pass
    def route(self, rule: str, **options: t.Any) -> t.Callable[[T_route], T_route]:
        pass
    def add_url_rule(self, rule: str, endpoint: str | None = None) -> None:
        pass
    def errorhandler(self, code_or_exception: type[Exception] | int) -> t.Callable:
        pass
"#;

    #[test]
    fn the_primary_types_public_methods_come_before_its_properties_and_dunders() {
        let lines = outline(Language::Python, SCAFFOLD_LIKE);
        let fitted = fit_contract(&lines, 300, Some("Scaffold"), "scaffold.py");
        assert_eq!(
            fitted,
            "\
class Scaffold
  def route(self, rule: str, **options: t.Any) -> t.Callable[[T_route], T_route]
  def add_url_rule(self, rule: str, endpoint: str | None = None) -> None
  def errorhandler(self, code_or_exception: type[Exception] | int) -> t.Callable
// … and 6 more lines: read scaffold.py"
        );
        // More room: the properties and attributes next (in source order), the dunders last.
        let roomier = fit_contract(&lines, 420, Some("Scaffold"), "scaffold.py");
        assert!(
            roomier.contains("\n  cli: Group\n  name: str\n"),
            "{roomier}"
        );
        assert!(roomier.contains("@property def static_folder"), "{roomier}");
        assert!(!roomier.contains("__init__"), "{roomier}");
        let all = fit_contract(&lines, usize::MAX, Some("Scaffold"), "scaffold.py");
        assert!(
            all.contains("__init__") && all.contains("__repr__"),
            "{all}"
        );
    }

    #[test]
    fn accessors_are_told_from_methods() {
        assert!(is_accessor("@property def name(self) -> str"));
        assert!(is_accessor(
            "@abstractmethod @cached_property def name(self) -> str"
        ));
        assert!(is_accessor(
            "@debug.setter def debug(self, value: bool) -> None"
        ));
        assert!(is_accessor("get size(): number"));
        assert!(!is_accessor("@staticmethod def make() -> App"));
        assert!(!is_accessor("get(path: string): Route"));
        assert!(!is_accessor("def get(self, rule: str)"));
    }

    #[test]
    fn a_signature_longer_than_the_room_is_cut() {
        let long = format!("export type Options = {{ {} }}", "a: string; ".repeat(100));
        let lines = outline(
            Language::TypeScript,
            &format!("{long};\nexport function f(): void {{}}\n"),
        );
        let fitted = fit_contract(&lines, 20, None, "a.ts");
        let first = fitted.lines().next().unwrap_or("");
        assert!(first.len() <= 20 && first.ends_with(" …"), "{fitted}");
        assert!(first.starts_with("export type Opt"), "{fitted}");
        assert!(
            fitted.ends_with("// … and 1 more line: read a.ts"),
            "{fitted}"
        );
    }

    #[test]
    fn capped_lists_keep_the_nearest_code_then_other_code_tests_and_examples() {
        let paths: Vec<String> = [
            "benches/tcp.rs",
            "examples/chat.rs",
            "examples/echo.rs",
            "tokio-stream/src/wrappers/tcp_listener.rs",
            "tokio/src/net/mod.rs",
            "tokio/src/net/tcp/socket.rs",
            "tokio/src/lib.rs",
            "tokio/tests/tcp_accept.rs",
        ]
        .iter()
        .map(|p| p.to_string())
        .collect();
        let kept = most_relevant(&paths, 6, "tokio/src/net/tcp/listener.rs");
        assert_eq!(
            kept,
            [
                "tokio/src/net/tcp/socket.rs",
                "tokio/src/net/mod.rs",
                "tokio/src/lib.rs",
                "tokio-stream/src/wrappers/tcp_listener.rs",
                "tokio/tests/tcp_accept.rs",
                "benches/tcp.rs",
            ]
        );
        // Without a package directory the whole project is the package.
        let paths: Vec<String> = [
            "docs/conf.py",
            "src/lib.rs",
            "src/net/tcp.rs",
            "tools/gen.rs",
        ]
        .iter()
        .map(|p| p.to_string())
        .collect();
        let kept = most_relevant(&paths, 4, "src/net.rs");
        assert_eq!(
            kept,
            [
                "src/lib.rs",
                "src/net/tcp.rs",
                "tools/gen.rs",
                "docs/conf.py"
            ]
        );
    }
}
