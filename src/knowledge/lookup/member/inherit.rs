//! Members a class gets from its bases, and docs an override gets from the member it overrides —
//! what `lexi lookup <file> --member <name>` answers when the file's class inherits the member
//! (`Flask(App)` inherits `add_url_rule` from `App`, which overrides `Scaffold.add_url_rule`).
//!
//! A class's bases are read from its definition (`source::definitions`), public or not — a
//! private base, or one `__all__` leaves out, is a base all the same: Python `class Flask(App,
//! Mixin)`, JavaScript/TypeScript `class X extends Y`, Rust `impl Trait for X` (the trait's
//! declared and provided methods) and a trait's supertraits (`trait A: B + C`). A base is looked
//! for in the file itself, then in the project files it imports whose public names hold it (the
//! graph of the last update; a file the graph does not know is tried too). The walk goes at most
//! [`MAX_DEPTH`] bases deep and never visits a class twice. A type that spans files (a C#
//! `partial` class, a Ruby class reopened: `Walks::type_spans_files`) has its other parts' members
//! first: those of the files it depends on that define it too.

use std::collections::HashSet;

use super::declared::{declared, Declared};
use super::{member, Member, Shown};
use crate::source::{shared, Language, SourceFile, SymbolKind};
use crate::workspace::calls::CallsView;
use crate::workspace::Workspace;

/// How many bases deep the walk goes.
pub const MAX_DEPTH: usize = 4;
/// Imported files parsed for one base, at most.
const FILES_PARSED: usize = 40;

/// A file parsed: its path, interface and definitions.
pub(super) struct Parsed {
    pub source: String,
    pub file: std::sync::Arc<SourceFile>,
}

/// A member found in a base: the file, the class it is declared in, its label there.
struct Found {
    file: std::rc::Rc<Parsed>,
    class: String,
    label: String,
}

/// The members named `name` that the classes of `file` inherit (none declares it), each labelled
/// `Class.name` and marked with where it is defined; empty when no base resolves to one.
pub(super) fn inherited_members(
    ws: &Workspace,
    file: &Parsed,
    name: &str,
    shown: Shown,
) -> Vec<Member> {
    let normalized = super::normalized(name);
    let (class_wanted, bare) = match normalized.rsplit_once('.') {
        Some((class, bare)) => (Some(class.to_string()), bare.to_string()),
        None => (None, normalized.clone()),
    };
    let mut found: Vec<Member> = Vec::new();
    for class in containers(&file.file) {
        if class_wanted
            .as_deref()
            .is_some_and(|wanted| wanted != class)
        {
            continue;
        }
        if let Some(hit) = part_declaring(ws, file, &class, &bare) {
            let mut shown = shown_member(ws, &hit, shown);
            shown.part_of = Some(format!("{class} ({})", hit.file.source));
            shown.label = format!("{class}.{bare}");
            found.push(shown);
            continue;
        }
        let mut visited = HashSet::from([(file.source.clone(), class.clone())]);
        let Some(hit) = walk(ws, file, &class, &bare, 0, &mut visited) else {
            continue;
        };
        let mut shown = shown_member(ws, &hit, shown);
        let what = abstract_kind(&hit.file.file, &hit.class);
        shown.inherited_from = Some(format!("{what}{} ({})", hit.class, hit.file.source));
        shown.label = format!("{class}.{bare}");
        found.push(shown);
    }
    found
}

/// The member `bare` of `class` declared in another part of it — a file `file` depends on that
/// defines `class` too — when `file`'s language lets that type span files (a C# `partial` type, a
/// Ruby class reopened).
fn part_declaring(ws: &Workspace, file: &Parsed, class: &str, bare: &str) -> Option<Found> {
    let language = file.file.interface.language;
    let spans = file.file.definitions.iter().any(|d| {
        d.label == class && is_container(d.kind) && language.walks().type_spans_files(&d.signature)
    });
    if !spans {
        return None;
    }
    let label = format!("{class}.{bare}");
    let declares = |parsed: &SourceFile| {
        parsed
            .definitions
            .iter()
            .any(|d| d.label == label && !d.nested)
            || declared_as(parsed, &label).is_some()
    };
    ws.graph()?
        .dependencies(&file.source)
        .into_iter()
        .filter(|dep| *dep != file.source)
        .take(FILES_PARSED)
        .filter(|dep| may_declare(ws, dep, bare_type(class)))
        .filter_map(|dep| parse(ws, &dep))
        .find(|parsed| declares(&parsed.file))
        .map(|parsed| Found {
            file: std::rc::Rc::new(parsed),
            class: class.to_string(),
            label,
        })
}

/// The doc of the member `label` (`Class.name`, declared in `file` without a doc) inherited from
/// the member it overrides: the doc and `Base.name, base/file.py`.
pub(super) fn inherited_doc(ws: &Workspace, file: &Parsed, label: &str) -> Option<Doc> {
    let (class, bare) = label.rsplit_once('.')?;
    let mut visited = HashSet::from([(file.source.clone(), class.to_string())]);
    let hit = walk_documented(ws, file, class, bare, 0, &mut visited)?;
    Some(Doc {
        text: doc_of(&hit.file.file, &hit.label)?,
        from: format!("{}.{bare}, {}", hit.class, hit.file.source),
    })
}

/// The member that the member `label` (`Class.name`, declared in `file`) overrides or implements:
/// `App.add_url_rule (src/flask/sansio/app.py)`, `trait Shape.area (src/shape.rs)`, `interface
/// Shape.describe (…)`.
pub(super) fn overridden(ws: &Workspace, file: &Parsed, label: &str) -> Option<String> {
    let (class, bare) = label.rsplit_once('.')?;
    let mut visited = HashSet::from([(file.source.clone(), class.to_string())]);
    let hit = walk(ws, file, class, bare, 0, &mut visited)?;
    let what = abstract_kind(&hit.file.file, &hit.class);
    Some(format!("{what}{} ({})", hit.label, hit.file.source))
}

/// Whether `file` declares `name` as a trait or an interface.
pub(super) fn is_trait(file: &SourceFile, name: &str) -> bool {
    !abstract_kind(file, name).is_empty()
}

/// `"trait "` or `"interface "` when `file` declares `name` as one (what a member implementing
/// it says: `trait Shape.area`, `interface RouteCollectorInterface.getNamedRoute`), else `""`.
pub(super) fn abstract_kind(file: &SourceFile, name: &str) -> &'static str {
    let kind = file
        .definitions
        .iter()
        .find(|d| d.label == name && matches!(d.kind, SymbolKind::Trait | SymbolKind::Interface))
        .map(|d| d.kind);
    match kind {
        Some(SymbolKind::Trait) => "trait ",
        Some(_) => "interface ",
        None => "",
    }
}

/// A doc and where it comes from.
pub(super) struct Doc {
    pub text: String,
    pub from: String,
}

/// The member `label` of `file` as its file declares it.
fn declared_as<'a>(file: &'a SourceFile, label: &str) -> Option<Declared<'a>> {
    declared(file)
        .into_iter()
        .find(|d| super::declared::label_of(file, d) == label)
}

/// The doc of the member `label` of `file`: its interface's, else its definition's.
fn doc_of(file: &SourceFile, label: &str) -> Option<String> {
    let declared = declared_as(file, label)?;
    declared
        .outline
        .and_then(|at| file.interface.outline()[at].whole_doc.clone())
        .or_else(|| declared.definition.and_then(|d| d.doc.clone()))
}

/// The member `hit` as shown: its calls read from its own file, its doc inherited in turn when
/// it has none.
fn shown_member(ws: &Workspace, hit: &Found, shown: Shown) -> Member {
    let view = ws
        .graph()
        .and_then(|graph| CallsView::read(graph, &hit.file.source));
    let Some(declared) = declared_as(&hit.file.file, &hit.label) else {
        return member(&hit.file.file, &Declared::none(), shown, view.as_ref());
    };
    let mut shown = member(&hit.file.file, &declared, shown, view.as_ref());
    if shown.doc.is_none() {
        if let Some(doc) = inherited_doc(ws, &hit.file, &hit.label) {
            super::apply_inherited_doc(&mut shown, doc);
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
    walk_where(ws, file, class, bare, depth, visited, &|_, _| true)
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
    walk_where(ws, file, class, bare, depth, visited, &|file, label| {
        doc_of(file, label).is_some()
    })
}

fn walk_where(
    ws: &Workspace,
    file: &Parsed,
    class: &str,
    bare: &str,
    depth: usize,
    visited: &mut HashSet<(String, String)>,
    accept: &dyn Fn(&SourceFile, &str) -> bool,
) -> Option<Found> {
    if depth >= MAX_DEPTH {
        return None;
    }
    for base in bases(&file.file, class) {
        let Some(base_file) = resolve(ws, file, &base) else {
            continue;
        };
        if !visited.insert((base_file.source.clone(), base.clone())) {
            continue;
        }
        let label = format!("{base}.{bare}");
        let declared = base_file
            .file
            .definitions
            .iter()
            .any(|d| d.label == label && !d.nested)
            || declared_as(&base_file.file, &label).is_some();
        if declared && accept(&base_file.file, &label) {
            return Some(Found {
                file: base_file,
                class: base,
                label,
            });
        }
        if let Some(found) = walk_where(ws, &base_file, &base, bare, depth + 1, visited, accept) {
            return Some(found);
        }
    }
    None
}

/// The classes, structs, enums, traits and interfaces the file defines (not inside a function).
fn containers(file: &SourceFile) -> Vec<String> {
    let mut names: Vec<String> = file
        .definitions
        .iter()
        .filter(|d| !d.nested && is_container(d.kind))
        .map(|d| d.label.clone())
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

/// The bases of `class` as its definition declares them: the classes in a Python header's
/// parentheses, a JavaScript/TypeScript `extends` (and `implements`), a Rust trait's supertraits
/// and the traits the file implements for a type.
pub fn bases(file: &SourceFile, class: &str) -> Vec<String> {
    let mut found: Vec<String> = file
        .definitions
        .iter()
        .filter(|d| d.label == class && is_container(d.kind))
        .flat_map(|d| d.bases.iter().map(|b| base_name(b)))
        .collect();
    found.extend(
        file.impls
            .iter()
            .filter(|i| bare_type(&i.type_name) == class)
            .map(|i| bare_type(&i.trait_name).to_string()),
    );
    found.retain(|base| {
        !base.is_empty()
            && base != class
            && !matches!(base.as_str(), "object" | "Generic" | "Protocol")
    });
    let mut seen = HashSet::new();
    found.retain(|base| seen.insert(base.clone()));
    found
}

/// A base as written (`sansio.App`, `Generic[T]`, `t.Generic[T]`) → its class name (`App`).
fn base_name(written: &str) -> String {
    bare_type(written).to_string()
}

/// The file declaring the class or trait `base`: `file` itself, else an imported project file —
/// those whose public names hold it first.
fn resolve(ws: &Workspace, file: &Parsed, base: &str) -> Option<std::rc::Rc<Parsed>> {
    let declares = |parsed: &SourceFile| {
        parsed
            .definitions
            .iter()
            .any(|d| d.label == base && !d.nested && is_container(d.kind))
    };
    if declares(&file.file) {
        return parse(ws, &file.source).map(std::rc::Rc::new);
    }
    // A Go type may embed a type of its own package, which needs no import: its siblings first.
    let siblings = match file.file.interface.language {
        Language::Go => {
            let dir = file.source.rsplit_once('/').map_or("", |(dir, _)| dir);
            let mut files = super::go_interfaces::package_files(ws, dir);
            files.retain(|sibling| *sibling != file.source);
            files
        }
        _ => Vec::new(),
    };
    let graph = ws.graph();
    let mut imports = graph
        .map(|g| g.dependencies(&file.source))
        .unwrap_or_default();
    if graph.is_none() && siblings.is_empty() {
        return None;
    }
    // Files naming the base among their public names first; a file the graph knows whose names
    // do not hold it may still define it privately, so it is tried last.
    let names_it = |dep: &String| graph.is_some_and(|g| g.symbols(dep).iter().any(|s| s == base));
    imports.sort_by_key(|dep| !names_it(dep));
    siblings
        .into_iter()
        .chain(imports)
        .take(FILES_PARSED)
        .filter(|dep| may_declare(ws, dep, base))
        .filter_map(|dep| parse(ws, &dep))
        .find(|parsed| declares(&parsed.file))
        .map(std::rc::Rc::new)
}

/// Whether the text of `source` may declare the container `base`: it writes `base` right after a
/// declaring keyword (`class`, `struct`, `enum`, `trait`, `interface`). What the parse finds is
/// written so — macro bodies included — so a file without it is not parsed (a Rust type's
/// `impl fmt::Debug` would otherwise parse every imported file looking for `Debug`).
fn may_declare(ws: &Workspace, source: &str, base: &str) -> bool {
    let Ok(bytes) = ws.project().read(source) else {
        return false;
    };
    let text = String::from_utf8_lossy(&bytes);
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(base).any(|(at, _)| {
        let after = text[at + base.len()..].chars().next();
        if after.is_some_and(is_word) {
            return false;
        }
        let before = text[..at].trim_end_matches([' ', '\t']);
        if before.len() == text[..at].len() {
            return false;
        }
        ["class", "struct", "enum", "trait", "interface", "type"]
            .iter()
            .any(|keyword| {
                before
                    .strip_suffix(keyword)
                    .is_some_and(|rest| !rest.chars().next_back().is_some_and(is_word))
            })
    })
}

/// `source` parsed, when it is in a supported language and readable.
pub(super) fn parse(ws: &Workspace, source: &str) -> Option<Parsed> {
    let language = Language::from_path(std::path::Path::new(source))?;
    let bytes = ws.project().read(source).ok()?;
    let file = shared::source_file(language, &String::from_utf8_lossy(&bytes)).ok()?;
    Some(Parsed {
        source: source.to_string(),
        file,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parsed(language: Language, text: &str) -> SourceFile {
        SourceFile::parse(language, text.to_string()).expect("parse")
    }

    #[test]
    fn bases_are_read_from_definitions_and_trait_impls() {
        let python = parsed(
            Language::Python,
            "__all__ = ['Flask']\nclass Flask(sansio.App, _Mixin, metaclass=Meta):\n    pass\nclass Plain:\n    pass\nclass _Mixin(t.Generic[T]):\n    pass\n",
        );
        assert_eq!(bases(&python, "Flask"), ["App", "_Mixin"]);
        assert!(bases(&python, "Plain").is_empty());
        assert!(bases(&python, "_Mixin").is_empty());
        let js = parsed(
            Language::TypeScript,
            "export class Store<T> extends base.Emitter<T> implements I { go(): void {} }\n",
        );
        assert_eq!(bases(&js, "Store"), ["Emitter", "I"]);
        let rust = parsed(
            Language::Rust,
            "pub struct S;\nimpl fmt::Display for S { fn fmt(&self) {} }\nimpl<T> Into<T> for S<T> {}\npub trait A: B + Send where Self: Sized {}\n",
        );
        assert_eq!(bases(&rust, "S"), ["Display", "Into"]);
        assert_eq!(bases(&rust, "A"), ["B", "Send"]);
    }
}
