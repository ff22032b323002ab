//! Members a class gets from its bases, and docs an override gets from the member it overrides —
//! what `lexi lookup <file> --member <name>` answers when the file's class inherits the member
//! (`Flask(App)` inherits `add_url_rule` from `App`, which overrides `Scaffold.add_url_rule`).
//!
//! A class's bases are read from its header in the outline: Python `class Flask(App, Mixin)`,
//! JavaScript/TypeScript `class X extends Y`, Rust `impl Trait for X` (the trait's declared and
//! provided methods) and a trait's supertraits (`trait A: B + C`). A base is looked for in the file
//! itself, then in the project files it imports whose public names hold it (the graph of the last
//! update; a file the graph does not know is tried too). The walk goes at most
//! [`MAX_DEPTH`] bases deep and never visits a class twice.

use std::collections::HashSet;

use super::{member, Member};
use crate::source::{extract, Interface, Language, OutlineLine, SymbolKind};
use crate::workspace::calls::CallsView;
use crate::workspace::Workspace;

/// How many bases deep the walk goes.
pub const MAX_DEPTH: usize = 4;
/// Imported files parsed for one base, at most.
const FILES_PARSED: usize = 40;

/// A file parsed: its path and interface.
pub(super) struct Parsed {
    pub source: String,
    pub interface: Interface,
}

/// A member found in a base: the file, the class it is declared in, its outline index.
struct Found {
    file: Parsed,
    class: String,
    at: usize,
}

/// The members named `name` that the classes of `file` inherit (none declares it), each labelled
/// `Class.name` and marked with where it is defined; empty when no base resolves to one.
pub(super) fn inherited_members(
    ws: &Workspace,
    file: &Parsed,
    name: &str,
    whole: bool,
) -> Vec<Member> {
    let normalized = super::normalized(name);
    let (class_wanted, bare) = match normalized.rsplit_once('.') {
        Some((class, bare)) => (Some(class.to_string()), bare.to_string()),
        None => (None, normalized.clone()),
    };
    let outline = file.interface.outline();
    let mut found: Vec<Member> = Vec::new();
    for class in containers(outline) {
        if class_wanted
            .as_deref()
            .is_some_and(|wanted| wanted != class)
        {
            continue;
        }
        let mut visited = HashSet::from([(file.source.clone(), class.clone())]);
        let Some(hit) = walk(ws, file, &class, &bare, 0, &mut visited) else {
            continue;
        };
        let mut shown = shown_member(ws, &hit, whole);
        let trait_ = hit.file.interface.outline().iter().any(|line| {
            line.depth == 0 && line.name == hit.class && line.kind == Some(SymbolKind::Trait)
        });
        let what = if trait_ { "trait " } else { "" };
        shown.inherited_from = Some(format!("{what}{} ({})", hit.class, hit.file.source));
        shown.label = format!("{class}.{bare}");
        found.push(shown);
    }
    found
}

/// The doc of the member `label` (`Class.name`, declared in `file` without a doc) inherited from
/// the member it overrides: the doc and `Base.name, base/file.py`.
pub(super) fn inherited_doc(ws: &Workspace, file: &Parsed, label: &str) -> Option<Doc> {
    let (class, bare) = label.rsplit_once('.')?;
    let mut visited = HashSet::from([(file.source.clone(), class.to_string())]);
    let hit = walk_documented(ws, file, class, bare, 0, &mut visited)?;
    let line = &hit.file.interface.outline()[hit.at];
    Some(Doc {
        text: line.whole_doc.clone()?,
        from: format!("{}.{bare}, {}", hit.class, hit.file.source),
    })
}

/// A doc and where it comes from.
pub(super) struct Doc {
    pub text: String,
    pub from: String,
}

/// The member `hit` as shown: its calls read from its own file, its doc inherited in turn when
/// it has none.
fn shown_member(ws: &Workspace, hit: &Found, whole: bool) -> Member {
    let view = ws
        .graph()
        .and_then(|graph| CallsView::read(graph, &hit.file.source));
    let outline = hit.file.interface.outline();
    let mut shown = member(outline, hit.at, whole, view.as_ref());
    if shown.doc.is_none() {
        let label = format!("{}.{}", hit.class, outline[hit.at].name);
        if let Some(doc) = inherited_doc(ws, &hit.file, &label) {
            super::apply_inherited_doc(&mut shown, doc, whole);
        }
    }
    shown
}

/// The first member `bare` declared in a base of `class` (of `file`), breadth of bases first at
/// each level, depth-first across levels.
fn walk(
    ws: &Workspace,
    file: &Parsed,
    class: &str,
    bare: &str,
    depth: usize,
    visited: &mut HashSet<(String, String)>,
) -> Option<Found> {
    walk_where(ws, file, class, bare, depth, visited, &|_| true)
}

/// [`walk`] for the first declaration of `bare` in a base that has a doc.
fn walk_documented(
    ws: &Workspace,
    file: &Parsed,
    class: &str,
    bare: &str,
    depth: usize,
    visited: &mut HashSet<(String, String)>,
) -> Option<Found> {
    walk_where(ws, file, class, bare, depth, visited, &|line| {
        line.whole_doc.is_some()
    })
}

fn walk_where(
    ws: &Workspace,
    file: &Parsed,
    class: &str,
    bare: &str,
    depth: usize,
    visited: &mut HashSet<(String, String)>,
    accept: &dyn Fn(&OutlineLine) -> bool,
) -> Option<Found> {
    if depth >= MAX_DEPTH {
        return None;
    }
    for base in bases(file.interface.outline(), class) {
        let Some(base_file) = resolve(ws, file, &base) else {
            continue;
        };
        if !visited.insert((base_file.source.clone(), base.clone())) {
            continue;
        }
        let outline = base_file.interface.outline();
        let declared = (0..outline.len()).find(|&i| {
            let line = &outline[i];
            line.name == bare
                && line.parent.as_deref().map(bare_type) == Some(base.as_str())
                && accept(line)
        });
        if let Some(at) = declared {
            return Some(Found {
                file: base_file,
                class: base,
                at,
            });
        }
        if let Some(found) = walk_where(ws, &base_file, &base, bare, depth + 1, visited, accept) {
            return Some(found);
        }
    }
    None
}

/// The classes, structs, enums, traits and interfaces declared at the top of an outline.
fn containers(outline: &[OutlineLine]) -> Vec<String> {
    let mut names: Vec<String> = outline
        .iter()
        .filter(|line| line.depth == 0 && line.kind.is_some_and(is_container))
        .map(|line| line.name.clone())
        .collect();
    names.dedup();
    names
}

fn is_container(kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::Class
            | SymbolKind::Struct
            | SymbolKind::Enum
            | SymbolKind::Trait
            | SymbolKind::Interface
    )
}

/// `Sender<T>` → `Sender`, `fmt::Display` → `Display`, `sansio.App` → `App`.
fn bare_type(name: &str) -> &str {
    let name = name.split('<').next().unwrap_or(name);
    let name = name.split('[').next().unwrap_or(name).trim();
    name.rsplit(['.', ':']).next().unwrap_or(name)
}

/// The bases of `class` as its outline declares them: the classes in a Python header's
/// parentheses, a JavaScript/TypeScript `extends`, a Rust trait's supertraits and the traits the
/// file implements for a type.
pub fn bases(outline: &[OutlineLine], class: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for line in outline {
        let Some(kind) = line.kind else { continue };
        if kind == SymbolKind::Impl {
            if let Some((tr, ty)) = line.name.split_once(" for ") {
                if bare_type(ty) == class {
                    found.push(bare_type(tr).to_string());
                }
            }
            continue;
        }
        if line.depth != 0 || line.name != class || !is_container(kind) {
            continue;
        }
        found.extend(header_bases(&line.text, kind));
    }
    found.retain(|base| !base.is_empty() && base != class);
    found.dedup();
    found
}

/// The bases a class or trait header names.
fn header_bases(text: &str, kind: SymbolKind) -> Vec<String> {
    // A decorated class's header starts with its decorators.
    let text = text
        .lines()
        .find(|line| !line.trim_start().starts_with('@'))
        .unwrap_or(text);
    let text = text.split('{').next().unwrap_or(text);
    if let Some((_, after)) = text.split_once(" extends ") {
        let end = after
            .find(|c: char| c.is_whitespace() || c == '{' || c == '(')
            .unwrap_or(after.len());
        return vec![bare_type(&after[..end]).to_string()];
    }
    if kind == SymbolKind::Trait {
        let Some((_, after)) = text.split_once(':') else {
            return Vec::new();
        };
        let after = after.split(" where ").next().unwrap_or(after);
        return after
            .split('+')
            .map(|b| bare_type(b.trim()).to_string())
            .filter(|b| b.chars().next().is_some_and(char::is_alphabetic))
            .collect();
    }
    let (Some(open), Some(close)) = (text.find('('), text.rfind(')')) else {
        return Vec::new();
    };
    if text.contains("class ") && open < close {
        return split_top_level(&text[open + 1..close])
            .into_iter()
            .filter(|b| !b.contains('=') && !b.starts_with('*'))
            .map(|b| bare_type(&b).to_string())
            .filter(|b| !matches!(b.as_str(), "object" | "Generic" | "Protocol" | ""))
            .collect();
    }
    Vec::new()
}

/// `a, B[c, d], e` → `a`, `B[c, d]`, `e`.
fn split_top_level(list: &str) -> Vec<String> {
    let (mut parts, mut current, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in list.chars() {
        match c {
            '[' | '(' | '<' => depth += 1,
            ']' | ')' | '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(current.trim().to_string());
                current.clear();
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    parts.push(current.trim().to_string());
    parts
}

/// The file declaring the class or trait `base`: `file` itself, else an imported project file —
/// those whose public names hold `base` first.
fn resolve(ws: &Workspace, file: &Parsed, base: &str) -> Option<Parsed> {
    let declares = |interface: &Interface| {
        interface
            .outline()
            .iter()
            .any(|line| line.depth == 0 && line.name == base && line.kind.is_some_and(is_container))
    };
    if declares(&file.interface) {
        return Some(Parsed {
            source: file.source.clone(),
            interface: file.interface.clone(),
        });
    }
    let graph = ws.graph()?;
    let mut imports = graph.dependencies(&file.source);
    // Files naming the base among their public names first; a file the graph knows whose names
    // do not hold it declares no class of that name (`Display`, `Exception` are nowhere).
    let names_it = |dep: &String| graph.symbols(dep).iter().any(|s| s == base);
    imports.retain(|dep| !graph.knows(dep) || names_it(dep));
    imports.sort_by_key(|dep| !names_it(dep));
    imports
        .into_iter()
        .take(FILES_PARSED)
        .filter_map(|dep| parse(ws, &dep))
        .find(|parsed| declares(&parsed.interface))
}

/// `source` parsed, when it is in a supported language and readable.
pub(super) fn parse(ws: &Workspace, source: &str) -> Option<Parsed> {
    let language = Language::from_path(std::path::Path::new(source))?;
    let bytes = ws.project().read(source).ok()?;
    let interface = extract(language, &String::from_utf8_lossy(&bytes)).ok()?;
    Some(Parsed {
        source: source.to_string(),
        interface,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outline(language: Language, text: &str) -> Vec<OutlineLine> {
        extract(language, text).expect("parse").outline().to_vec()
    }

    #[test]
    fn bases_are_read_from_headers_and_trait_impls() {
        let python = outline(
            Language::Python,
            "class Flask(sansio.App, Mixin, metaclass=Meta):\n    pass\nclass Plain:\n    pass\n",
        );
        assert_eq!(bases(&python, "Flask"), ["App", "Mixin"]);
        assert!(bases(&python, "Plain").is_empty());
        let js = outline(
            Language::TypeScript,
            "export class Store<T> extends base.Emitter<T> implements I { go(): void {} }\n",
        );
        assert_eq!(bases(&js, "Store"), ["Emitter"]);
        let rust = outline(
            Language::Rust,
            "pub struct S;\nimpl fmt::Display for S { fn fmt(&self) {} }\nimpl<T> Into<T> for S<T> {}\npub trait A: B + Send where Self: Sized {}\n",
        );
        assert_eq!(bases(&rust, "S"), ["Display", "Into"]);
        assert_eq!(bases(&rust, "A"), ["B", "Send"]);
    }
}
