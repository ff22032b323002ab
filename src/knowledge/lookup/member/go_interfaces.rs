//! Go interfaces and the types that implement them, decided when `lexi lookup --member` asks — a
//! Go type names no interface it implements, so the library records none (it stays a function of
//! each file) and the answer is worked out from the graph of the last update:
//! - **down**, for an interface's method (`Render.Render` of render/render.go): `Implemented by:
//!   JSON.Render (render/json.go), …` — the types of the interface's package and of the packages
//!   importing it whose method set holds every method of the interface;
//! - **up**, for a method (`JSON.Render`): `Implements: Render.Render (render/render.go)` — the
//!   interfaces of its own package and of the packages its file imports whose methods its type
//!   has all of.
//!
//! A package is a directory's non-test `.go` files the graph knows. A type's method set is the
//! methods the graph recorded for `T` and `*T` receivers in any file of its package (its cached
//! member labels `T.name`), with the methods of the types and interfaces it embeds in the same
//! package (`%T Base`, promoted). An interface's methods are read from its package's files (a
//! parse of those that declare one), its embedded interfaces expanded in the same package.
//! What is decided (docs/languages.md, Go): methods match by name (signatures are not compared);
//! an interface is left out when it has no methods, type parameters or a type set (a
//! constraint), or embeds an interface of another package (`io.Writer`: its methods are not
//! known); one with an unexported method is implemented only inside its package; an implementer
//! is a type declaring the method itself (one that gets it by embedding is reached through the
//! type it embeds); and types of packages that do not import the interface's package are not
//! looked at.

use std::collections::{BTreeMap, BTreeSet};

use crate::source::calls::{decode_bases, MemberCalls};
use crate::source::{go_interfaces, GoInterface};
use crate::workspace::calls::Caller;
use crate::workspace::graph::Graph;
use crate::workspace::Workspace;

/// Packages (directories) read for one answer, at most.
const PACKAGES_READ: usize = 40;
/// How many embeddings deep a method set or an interface is expanded.
const MAX_DEPTH: usize = 4;

/// The file asked about, as the lookup parsed it now (its cached items may be older).
pub(super) struct Own<'a> {
    pub source: &'a str,
    pub calls: &'a [MemberCalls],
    pub bases: &'a [(String, Vec<String>)],
}

/// The types implementing the interface method `label` (`Render.Render`) of `own`, by file: its
/// own package's files first, then the importing packages', by path.
pub(super) fn implemented_by(ws: &Workspace, own: &Own<'_>, label: &str) -> Vec<Caller> {
    let (Some(graph), Some((interface, method))) = (ws.graph(), label.rsplit_once('.')) else {
        return Vec::new();
    };
    let home = Package::read(ws, graph, own, directory(own.source));
    let Some(wanted) = home.interface_methods(interface, 0) else {
        return Vec::new();
    };
    let mut dirs = vec![home.dir.clone()];
    if wanted.iter().all(|m| is_exported(m)) {
        dirs.extend(other_dirs(&graph.dependents(own.source), &home.dir));
    }
    let mut found: Vec<Caller> = Vec::new();
    for (at, dir) in dirs.iter().take(PACKAGES_READ).enumerate() {
        let read;
        let package = match at {
            0 => &home,
            _ => {
                read = Package::read(ws, graph, own, dir.clone());
                &read
            }
        };
        let mut by_file: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (ty, methods) in &package.methods {
            let Some(file) = methods.get(method) else {
                continue;
            };
            if wanted.is_subset(&package.method_set(ty, 0)) {
                by_file
                    .entry(file.clone())
                    .or_default()
                    .insert(format!("{ty}.{method}"));
            }
        }
        found.extend(by_file.into_iter().map(|(file, members)| Caller {
            file,
            members: members.into_iter().collect(),
        }));
    }
    found
}

/// The interfaces the method `label` (`JSON.Render`) of `own` implements: `Render.Render
/// (render/render.go)`, its own package's first, then the imported packages', by path.
pub(super) fn implements(ws: &Workspace, own: &Own<'_>, label: &str) -> Vec<String> {
    let (Some(graph), Some((ty, method))) = (ws.graph(), label.rsplit_once('.')) else {
        return Vec::new();
    };
    let home = Package::read(ws, graph, own, directory(own.source));
    let has = home.method_set(ty, 0);
    if !has.contains(method) {
        return Vec::new();
    }
    let mut dirs = vec![home.dir.clone()];
    dirs.extend(other_dirs(&graph.dependencies(own.source), &home.dir));
    let mut found: Vec<String> = Vec::new();
    for (at, dir) in dirs.iter().take(PACKAGES_READ).enumerate() {
        let read;
        let package = match at {
            0 => &home,
            _ => {
                read = Package::read(ws, graph, own, dir.clone());
                &read
            }
        };
        let mut here: BTreeSet<String> = BTreeSet::new();
        for (file, interface) in &package.interfaces {
            if !interface.methods.iter().any(|m| m == method) {
                continue;
            }
            let Some(wanted) = package.interface_methods(&interface.name, 0) else {
                continue;
            };
            let visible = at == 0 || wanted.iter().all(|m| is_exported(m));
            if visible && wanted.is_subset(&has) {
                here.insert(format!("{}.{method} ({file})", interface.name));
            }
        }
        found.extend(here);
    }
    found
}

/// The methods named as `label` (`RouterGroup.Use`) of `own` in the types of its own package
/// that embed its type, however deep (`Engine` embeds `RouterGroup`: `Engine.Use` is the one an
/// `Engine` calls), by file, then those of `elsewhere` (the importing packages', found by
/// [`super::implementations`]) in files not already named.
pub(super) fn shadowed_by(
    ws: &Workspace,
    own: &Own<'_>,
    label: &str,
    elsewhere: Vec<Caller>,
) -> Vec<Caller> {
    let (Some(graph), Some((ty, method))) = (ws.graph(), label.rsplit_once('.')) else {
        return elsewhere;
    };
    let home = Package::read(ws, graph, own, directory(own.source));
    let mut embedding: BTreeSet<&str> = BTreeSet::from([ty]);
    loop {
        let before = embedding.len();
        for (sub, bases) in &home.bases {
            if bases.iter().any(|b| embedding.contains(b.as_str())) {
                embedding.insert(sub);
            }
        }
        if embedding.len() == before {
            break;
        }
    }
    let mut by_file: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for sub in embedding.into_iter().filter(|sub| *sub != ty) {
        if let Some(file) = home.methods.get(sub).and_then(|m| m.get(method)) {
            by_file
                .entry(file.clone())
                .or_default()
                .insert(format!("{sub}.{method}"));
        }
    }
    let mut found: Vec<Caller> = by_file
        .into_iter()
        .map(|(file, members)| Caller {
            file,
            members: members.into_iter().collect(),
        })
        .collect();
    for caller in elsewhere {
        if !found.iter().any(|known| known.file == caller.file) {
            found.push(caller);
        }
    }
    found
}

/// What one package declares: its types' methods, embeddings and interfaces.
struct Package {
    dir: String,
    /// Per type, its methods and the file declaring each.
    methods: BTreeMap<String, BTreeMap<String, String>>,
    /// Per type, the types it embeds.
    bases: BTreeMap<String, Vec<String>>,
    /// Its interfaces and the files declaring them.
    interfaces: Vec<(String, GoInterface)>,
}

impl Package {
    /// The package of directory `dir`: the graph's items of its files, `own`'s from its parse.
    fn read(ws: &Workspace, graph: &Graph, own: &Own<'_>, dir: String) -> Package {
        let mut package = Package {
            dir,
            methods: BTreeMap::new(),
            bases: BTreeMap::new(),
            interfaces: Vec::new(),
        };
        for file in package_files(ws, &package.dir) {
            if file == own.source {
                package.add_members(&file, own.calls.iter().map(|m| m.member.clone()));
                for (ty, bases) in own.bases {
                    package.add_bases(ty, bases.iter().cloned());
                }
            } else if graph.knows(&file) {
                let items = graph.calls(&file);
                let decoded = graph.member_calls(&file);
                let members = decoded.iter().map(|m| m.member.clone());
                package.add_members(&file, members);
                for (ty, bases) in items.iter().filter_map(|item| decode_bases(item)) {
                    package.add_bases(ty, bases.map(str::to_string));
                }
            } else {
                continue;
            }
            package.add_interfaces(ws, &file);
        }
        package
    }

    /// The methods (`Type.name` labels) `file` declares.
    fn add_members(&mut self, file: &str, labels: impl Iterator<Item = String>) {
        for label in labels {
            if let Some((ty, name)) = label.split_once('.') {
                self.methods
                    .entry(ty.to_string())
                    .or_default()
                    .entry(name.to_string())
                    .or_insert_with(|| file.to_string());
            }
        }
    }

    fn add_bases(&mut self, ty: &str, bases: impl Iterator<Item = String>) {
        self.bases.entry(ty.to_string()).or_default().extend(bases);
    }

    /// The interfaces `file` declares (read only when its text has the word).
    fn add_interfaces(&mut self, ws: &Workspace, file: &str) {
        let Ok(bytes) = ws.project().read(file) else {
            return;
        };
        let text = String::from_utf8_lossy(&bytes);
        if !text.contains("interface") {
            return;
        }
        for interface in go_interfaces(&text) {
            self.interfaces.push((file.to_string(), interface));
        }
    }

    /// The methods of type `ty`: its own and those it gets from the types and interfaces it
    /// embeds in this package.
    fn method_set(&self, ty: &str, depth: usize) -> BTreeSet<String> {
        let mut set: BTreeSet<String> = self
            .methods
            .get(ty)
            .map(|m| m.keys().cloned().collect())
            .unwrap_or_default();
        if depth >= MAX_DEPTH {
            return set;
        }
        for base in self.bases.get(ty).into_iter().flatten() {
            match self.interface_methods(base, depth + 1) {
                Some(methods) => set.extend(methods),
                None => set.extend(self.method_set(base, depth + 1)),
            }
        }
        set
    }

    /// Every method of the interface `name` of this package, embedded ones included; `None` when
    /// it is not one of the package's or is not decided by method names (module doc).
    fn interface_methods(&self, name: &str, depth: usize) -> Option<BTreeSet<String>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let (_, interface) = self.interfaces.iter().find(|(_, i)| i.name == name)?;
        if interface.constrained {
            return None;
        }
        let mut set: BTreeSet<String> = interface.methods.iter().cloned().collect();
        for embedded in &interface.embedded {
            if embedded.contains('.') {
                return None;
            }
            set.extend(self.interface_methods(embedded, depth + 1)?);
        }
        (!set.is_empty()).then_some(set)
    }
}

/// The directory of `source` (`""` at the root).
fn directory(source: &str) -> String {
    source
        .rsplit_once('/')
        .map_or(String::new(), |(dir, _)| dir.to_string())
}

/// The package directories of the Go non-test files among `files`, but `home`, sorted.
fn other_dirs(files: &[String], home: &str) -> Vec<String> {
    files
        .iter()
        .filter(|file| is_package_file(file))
        .map(|file| directory(file))
        .filter(|dir| dir != home)
        .collect::<BTreeSet<String>>()
        .into_iter()
        .collect()
}

/// The non-test `.go` files of directory `dir` (project-relative), sorted.
pub(super) fn package_files(ws: &Workspace, dir: &str) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(ws.project().abs(dir)) else {
        return Vec::new();
    };
    let mut files: Vec<String> = entries
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|entry| entry.file_name().to_str().map(str::to_string))
        .filter(|name| is_package_file(name))
        .map(|name| match dir.is_empty() {
            true => name,
            false => format!("{dir}/{name}"),
        })
        .collect();
    files.sort();
    files
}

/// A `.go` file `go build` compiles into its package (not a test).
fn is_package_file(file: &str) -> bool {
    file.ends_with(".go") && !file.ends_with("_test.go")
}

fn is_exported(name: &str) -> bool {
    name.starts_with(char::is_uppercase)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn interface(name: &str, methods: &[&str], embedded: &[&str]) -> (String, GoInterface) {
        let interface = GoInterface {
            name: name.to_string(),
            methods: methods.iter().map(|m| m.to_string()).collect(),
            embedded: embedded.iter().map(|m| m.to_string()).collect(),
            constrained: false,
        };
        ("io.go".to_string(), interface)
    }

    #[test]
    fn method_sets_and_interfaces_expand_what_they_embed_in_the_package() {
        let mut package = Package {
            dir: String::new(),
            methods: BTreeMap::new(),
            bases: BTreeMap::new(),
            interfaces: vec![
                interface("Reader", &["Read"], &[]),
                interface("ReadCloser", &["Close"], &["Reader"]),
                interface("Foreign", &["Close"], &["io.Writer"]),
                interface("Empty", &[], &[]),
            ],
        };
        package.add_members("a.go", ["File.Read".to_string()].into_iter());
        package.add_members("b.go", ["Wrapper.Close".to_string()].into_iter());
        package.add_bases("Wrapper", ["File".to_string()].into_iter());
        let read_closer = package.interface_methods("ReadCloser", 0);
        assert_eq!(
            read_closer,
            Some(BTreeSet::from(["Close".to_string(), "Read".to_string()]))
        );
        assert_eq!(package.interface_methods("Foreign", 0), None);
        assert_eq!(package.interface_methods("Empty", 0), None);
        assert_eq!(package.method_set("Wrapper", 0), read_closer.unwrap());
        assert_eq!(
            package.method_set("File", 0),
            BTreeSet::from(["Read".to_string()])
        );
    }
}
