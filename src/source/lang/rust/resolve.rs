//! Rust: `mod` declarations to module files (`x.rs`, `x/mod.rs`, `#[path]`), `use` paths through
//! the module tree of the file's crate (`crate::`, `self::`, `crate::source::resolve::`, names in scope) or of another
//! crate of the project (a path dependency, renamed or not, or the package's own library from a
//! binary, test or example), and `extern crate`. A path that names an item goes on to the file that
//! defines it: through `use` re-exports (`pub use self::handle::Handle`, globs included) of the
//! module files on the way, which are recorded as `via`. A re-export of something outside the
//! project is no project dependency.

use std::cell::RefCell;
use std::collections::HashMap;

use crate::source::interface::{BindingKind, Import, Interface, MacroScope, Namespace};
use crate::source::model::files::{dir_of, file_name, join, normalize};
use crate::source::resolve::{Collected, Context};

/// How many re-exports a path is followed through.
const MAX_HOPS: usize = 12;

pub(crate) fn resolve(
    file: &str,
    interface: &Interface,
    context: &Context<'_>,
    out: &mut Collected,
) {
    let resolver = Resolver {
        context,
        memo: RefCell::new(HashMap::new()),
    };
    let Some(here) = resolver.module_of_file(file) else {
        for import in &interface.imports {
            out.record(&import.spec, None);
        }
        return;
    };
    let used_as_macros: Vec<&str> = interface
        .imports
        .iter()
        .filter_map(|import| import.spec.strip_prefix("macro:"))
        .collect();
    for import in &interface.imports {
        if let Some(name) = import.spec.strip_prefix("macro:") {
            // A bare macro name: found in the textual scope, or a standard or derive macro (left
            // out quietly, as it is no import).
            let mut via = Vec::new();
            let found = resolver.textual_macro(&here, interface, name, &mut via);
            out.via.extend(via);
            if let Some(found) = found {
                out.record(&import.spec, Some(found.file));
            }
            continue;
        }
        let found: Vec<Found> = if let Some(module) = import.spec.strip_prefix("mod:") {
            resolver
                .declared_module(&here, module, import.path.as_deref())
                .into_iter()
                .collect()
        } else if let Some(name) = import.spec.strip_prefix("extern:") {
            resolver
                .crate_root(file, name)
                .map(|root| Found::definite(root.file))
                .into_iter()
                .collect()
        } else {
            let mut hops = Hops::default();
            match resolver.use_path(&here, interface, &import.spec, &mut hops) {
                Outcome::Files(found) => in_namespace(found, import, interface, &used_as_macros),
                Outcome::External | Outcome::NotFound => Vec::new(),
            }
        };
        if found.is_empty() {
            out.record(&import.spec, None);
        }
        for found in found {
            out.via.extend(found.via.iter().cloned());
            out.record(&import.spec, Some(found.file));
        }
    }
}

/// A module: the file that defines it and the directory its child modules' files live in.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Module {
    file: String,
    dir: String,
    krate: Crate,
}

/// A crate: its root file and the directory of its top-level modules.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Crate {
    root: String,
    dir: String,
}

/// Where a path led.
#[derive(Clone, Debug)]
struct Found {
    file: String,
    /// The item was seen defined (or the path named a module): not a guess at the module it was
    /// looked up in.
    definite: bool,
    /// The namespace of what it found: a macro, an item (a module, a type, a value), or either.
    namespace: Namespace,
    via: Vec<String>,
}

impl Found {
    /// A module or an item seen defined in `file`.
    fn definite(file: String) -> Found {
        Found::defined(file, Namespace::Item)
    }

    fn defined(file: String, namespace: Namespace) -> Found {
        Found {
            file,
            definite: true,
            namespace,
            via: Vec::new(),
        }
    }
}

/// The namespace of what a file's item bindings bind `name` to, if any.
fn bound_namespace<'b>(
    bindings: impl Iterator<Item = &'b BindingKind>,
    name: &str,
) -> Option<Namespace> {
    let mut namespace = None;
    for kind in bindings {
        let found = match kind {
            BindingKind::Item(item) if item == name => Namespace::Item,
            BindingKind::Macro(item) if item == name => Namespace::Macro,
            _ => continue,
        };
        namespace = Some(namespace.map_or(found, |known: Namespace| known.merge(found)));
    }
    namespace
}

/// What one import keeps of the files its path led to, by namespace: a path used as a macro (a
/// derive, a call) keeps the macros among them, one used as an item (a type, an expression) the
/// items; a `use` keeps a macro when the file uses its name as a macro. A name bound in both
/// namespaces (`clap::Parser`: a derive macro and a trait) thus leads to what the file uses; when
/// the namespace wanted finds nothing, everything found is kept.
fn in_namespace(
    found: Vec<Found>,
    import: &Import,
    interface: &Interface,
    used_as_macros: &[&str],
) -> Vec<Found> {
    let wanted = match import.namespace {
        Namespace::Any => {
            let last = import.spec.rsplit("::").next().unwrap_or(&import.spec);
            let local = interface
                .bindings
                .iter()
                .find_map(|binding| match &binding.kind {
                    BindingKind::Alias { name, path }
                        if binding.scope.is_empty() && path == &import.spec =>
                    {
                        Some(name.as_str())
                    }
                    _ => None,
                })
                .unwrap_or(last);
            match used_as_macros.contains(&local) {
                true => return found,
                false => Namespace::Item,
            }
        }
        Namespace::Both => return found,
        namespace => namespace,
    };
    let fits = |f: &Found| {
        !matches!(f.namespace, Namespace::Macro | Namespace::Item) || f.namespace == wanted
    };
    match found.iter().any(fits) {
        true => found.into_iter().filter(fits).collect(),
        false => found,
    }
}

#[derive(Clone)]
enum Outcome {
    /// The file(s) it names: one, or one per `cfg` alternative of a re-export.
    Files(Vec<Found>),
    /// Outside the project (another crate, the standard library).
    External,
    /// Inside the project's reach but nothing answers to it.
    NotFound,
}

/// The re-exports being followed for one import: a bound on their depth and a guard against
/// cycles (`use a::x as y; use b::y as x;`).
#[derive(Default)]
struct Hops {
    stack: Vec<(String, String)>,
}

impl Hops {
    /// Start following `key` in `file`; false when that would go too deep or around a cycle.
    fn enter(&mut self, file: &str, key: &str) -> bool {
        let entry = (file.to_string(), key.to_string());
        if self.stack.len() >= MAX_HOPS || self.stack.contains(&entry) {
            return false;
        }
        self.stack.push(entry);
        true
    }

    /// Done following the last key entered.
    fn leave(&mut self) {
        self.stack.pop();
    }
}

struct Resolver<'c, 'a> {
    context: &'c Context<'a>,
    /// What each (module file, scope, name, rest of the path) led to, for this file's imports: a
    /// name re-exported through many globs is looked up once. An entry being computed reads as not
    /// found, which breaks cycles.
    memo: RefCell<HashMap<(String, String, String), Outcome>>,
}

impl Resolver<'_, '_> {
    fn exists(&self, rel: &str) -> bool {
        (self.context.exists)(rel)
    }

    /// The crate `file` belongs to: Cargo's targets, else the nearest `src/` above it holding a
    /// `lib.rs` or `main.rs` (a crate without a manifest in the project).
    fn crate_of(&self, file: &str) -> Option<Crate> {
        if let Some(target) = self.context.model.cargo.target_of(file) {
            return Some(Crate {
                root: target.root.clone(),
                dir: target.dir().to_string(),
            });
        }
        let mut dir = dir_of(file);
        loop {
            if file_name(dir) == "src" {
                for root in ["lib.rs", "main.rs"] {
                    let path = join(dir, root);
                    if self.exists(&path) {
                        return Some(Crate {
                            root: path,
                            dir: dir.to_string(),
                        });
                    }
                }
            }
            if dir.is_empty() {
                return None;
            }
            dir = dir_of(dir);
        }
    }

    /// The module `file` defines.
    fn module_of_file(&self, file: &str) -> Option<Module> {
        let krate = self.crate_of(file)?;
        let name = file_name(file);
        let own_dir = file == krate.root || name == "mod.rs";
        let dir = if own_dir {
            dir_of(file).to_string()
        } else {
            join(dir_of(file), name.strip_suffix(".rs").unwrap_or(name))
        };
        Some(Module {
            file: file.to_string(),
            dir,
            krate,
        })
    }

    /// The module whose children live in `dir` (within `krate`): the crate root, `dir.rs` or
    /// `dir/mod.rs`.
    fn module_at(&self, dir: &str, krate: &Crate) -> Option<Module> {
        let file = if dir == krate.dir {
            Some(krate.root.clone())
        } else {
            [format!("{dir}.rs"), join(dir, "mod.rs")]
                .into_iter()
                .find(|candidate| self.exists(candidate))
        }?;
        Some(Module {
            file,
            dir: dir.to_string(),
            krate: krate.clone(),
        })
    }

    fn crate_root(&self, file: &str, name: &str) -> Option<Module> {
        let target = self.context.model.cargo.crate_named(file, name)?;
        let krate = Crate {
            root: target.root.clone(),
            dir: target.dir().to_string(),
        };
        self.module_at(&krate.dir.clone(), &krate)
    }

    /// `mod a;` (or `mod a;` inside inline modules `x::y`, written `x::y::a`), with its `#[path]`.
    fn declared_module(&self, here: &Module, module: &str, path: Option<&str>) -> Option<Found> {
        let segments: Vec<&str> = module.split("::").collect();
        let (_, inline) = segments.split_last()?;
        let file = match path {
            Some(path) => {
                // Relative to the declaring file's directory, or inside inline modules to theirs.
                let base = match inline {
                    [] => dir_of(&here.file).to_string(),
                    _ => join(&here.dir, &inline.join("/")),
                };
                normalize(&base, path).filter(|p| self.exists(p))
            }
            None => {
                let relative = segments.join("/");
                let stem = join(&here.dir, &relative);
                // A file loaded with `#[path]` owns its directory like a `mod.rs` does: when the
                // usual place is empty, its children sit beside it.
                let beside = join(dir_of(&here.file), &relative);
                [
                    format!("{stem}.rs"),
                    join(&stem, "mod.rs"),
                    format!("{beside}.rs"),
                    join(&beside, "mod.rs"),
                ]
                .into_iter()
                .find(|candidate| self.exists(candidate))
            }
        }?;
        Some(Found::definite(file))
    }

    /// A child module of `module` named `name`: its conventional file, or a `mod name;` with a
    /// `#[path]` in the module's file.
    fn child(&self, module: &Module, name: &str) -> Option<Module> {
        let stem = join(&module.dir, name);
        for file in [format!("{stem}.rs"), join(&stem, "mod.rs")] {
            if self.exists(&file) {
                return Some(Module {
                    file,
                    dir: stem,
                    krate: module.krate.clone(),
                });
            }
        }
        let interface = (self.context.interface_of)(&module.file)?;
        let declared = interface.imports.iter().find(|import| {
            import.spec.strip_prefix("mod:") == Some(name) && import.path.is_some()
        })?;
        let file = normalize(dir_of(&module.file), declared.path.as_deref()?)
            .filter(|p| self.exists(p))?;
        Some(Module {
            dir: dir_of(&file).to_string(),
            file,
            krate: module.krate.clone(),
        })
    }

    /// The parent of `module`, `None` above the crate root.
    fn parent(&self, module: &Module) -> Option<Module> {
        if module.dir == module.krate.dir {
            return None;
        }
        self.module_at(dir_of(&module.dir), &module.krate)
    }

    /// A `use` path written in the file that defines `here` (whose interface is `interface`).
    fn use_path(
        &self,
        here: &Module,
        interface: &Interface,
        spec: &str,
        hops: &mut Hops,
    ) -> Outcome {
        let absolute = spec.starts_with("::");
        let segments: Vec<&str> = spec
            .split("::")
            .filter(|s| !s.is_empty() && *s != "*")
            .collect();
        let Some((&first, rest)) = segments.split_first() else {
            return Outcome::NotFound;
        };
        let start = match first {
            _ if absolute => self.crate_root(&here.file, first),
            "crate" => self.module_at(&here.krate.dir.clone(), &here.krate),
            "self" => Some(here.clone()),
            "super" => {
                let mut module = self.parent(here);
                let mut rest = rest;
                while let (Some(m), Some((&"super", tail))) = (&module, rest.split_first()) {
                    module = self.parent(m);
                    rest = tail;
                }
                return match module {
                    Some(module) => self.walk(module, rest, hops),
                    None => Outcome::NotFound,
                };
            }
            name => return self.name_in_scope(here, interface, name, rest, hops),
        };
        match start {
            Some(module) => self.walk(module, rest, hops),
            None if absolute => Outcome::External,
            None => Outcome::NotFound,
        }
    }

    /// A path starting with a plain name: a module declared here, an item defined or imported
    /// here, an `extern crate` alias, or a crate.
    fn name_in_scope(
        &self,
        here: &Module,
        interface: &Interface,
        name: &str,
        rest: &[&str],
        hops: &mut Hops,
    ) -> Outcome {
        let declared_here = interface
            .imports
            .iter()
            .any(|import| import.spec.strip_prefix("mod:") == Some(name));
        if declared_here {
            if let Some(child) = self.child(here, name) {
                return self.walk(child, rest, hops);
            }
        }
        for binding in interface.bindings.iter().filter(|b| b.scope.is_empty()) {
            match &binding.kind {
                BindingKind::Item(item) | BindingKind::Macro(item) if item == name => {
                    return Outcome::Files(vec![Found::definite(here.file.clone())]);
                }
                BindingKind::Alias { name: alias, path }
                    if alias == name && hops.enter(&here.file, name) =>
                {
                    let full = with_rest(path, rest);
                    let outcome = self.use_path(here, interface, &full, hops);
                    hops.leave();
                    return outcome;
                }
                _ => {}
            }
        }
        for import in &interface.imports {
            let Some(crate_name) = import.spec.strip_prefix("extern:") else {
                continue;
            };
            if import.names.iter().any(|alias| alias == name)
                || (import.names.is_empty() && crate_name == name)
            {
                return match self.crate_root(&here.file, crate_name) {
                    Some(root) => self.walk(root, rest, hops),
                    None => Outcome::External,
                };
            }
        }
        match self.crate_root(&here.file, name) {
            Some(root) => self.walk(root, rest, hops),
            None => Outcome::External,
        }
    }

    /// Follow `segments` down the module tree from `module`; the first segment that is not a child
    /// module names an item, which is followed to the file that defines it.
    fn walk(&self, module: Module, segments: &[&str], hops: &mut Hops) -> Outcome {
        let mut current = module;
        for (index, segment) in segments.iter().enumerate() {
            if let Some(child) = self.child(&current, segment) {
                current = child;
                continue;
            }
            return match self.item(&current, "", segment, &segments[index + 1..], hops) {
                Outcome::NotFound => Outcome::Files(vec![Found {
                    // Not seen defined (a macro made it, or it is an associated item): the module.
                    file: current.file,
                    definite: false,
                    namespace: Namespace::Any,
                    via: Vec::new(),
                }]),
                other => other,
            };
        }
        Outcome::Files(vec![Found::definite(current.file)])
    }

    /// The item `name` in `scope` (`""`, or an inline module `a::b`) of `module`'s file: defined
    /// there (an inline module is entered with the rest of the path), or imported there from
    /// elsewhere — every `cfg` alternative of the import followed.
    fn item(
        &self,
        module: &Module,
        scope: &str,
        name: &str,
        rest: &[&str],
        hops: &mut Hops,
    ) -> Outcome {
        let key = (
            module.file.clone(),
            scope.to_string(),
            with_rest(name, rest),
        );
        if let Some(known) = self.memo.borrow().get(&key) {
            return known.clone();
        }
        self.memo
            .borrow_mut()
            .insert(key.clone(), Outcome::NotFound);
        let outcome = self.item_uncached(module, scope, name, rest, hops);
        self.memo.borrow_mut().insert(key, outcome.clone());
        outcome
    }

    fn item_uncached(
        &self,
        module: &Module,
        scope: &str,
        name: &str,
        rest: &[&str],
        hops: &mut Hops,
    ) -> Outcome {
        let Some(interface) = (self.context.interface_of)(&module.file) else {
            return Outcome::NotFound;
        };
        let in_scope: Vec<&BindingKind> = interface
            .bindings
            .iter()
            .filter(|binding| binding.scope == scope)
            .map(|binding| &binding.kind)
            .collect();
        if let Some(namespace) = bound_namespace(in_scope.iter().copied(), name) {
            let inner = join_scope(scope, name);
            let is_inline_module = interface.bindings.iter().any(|b| b.scope == inner);
            if let (true, Some((next, tail))) = (is_inline_module, rest.split_first()) {
                match self.item(module, &inner, next, tail, hops) {
                    Outcome::NotFound => {}
                    found => return found,
                }
            }
            let defined = vec![Found::defined(module.file.clone(), namespace)];
            return self.with_globs(module, &interface, scope, name, rest, hops, defined);
        }
        let aliases: Vec<&String> = in_scope
            .iter()
            .filter_map(|kind| match kind {
                BindingKind::Alias { name: alias, path } if alias == name => Some(path),
                _ => None,
            })
            .collect();
        if !aliases.is_empty() {
            return match self.aliases(module, &interface, scope, &aliases, rest, hops) {
                Outcome::Files(found) => {
                    self.with_globs(module, &interface, scope, name, rest, hops, found)
                }
                other => other,
            };
        }
        match self.globs(module, &interface, scope, name, rest, hops) {
            Outcome::NotFound => self.exported_macro(module, scope, name),
            other => other,
        }
    }

    /// What the module's globs bring in under `name`, besides what it binds itself (`found`): a
    /// glob fills the namespace that an item or an explicit `use` of the name leaves empty (rustc
    /// shadows a glob only in the explicit binding's namespaces: clap's `pub use
    /// clap_derive::Parser` is a derive macro, the trait `Parser` still comes through `pub use
    /// clap_builder::*`).
    #[allow(clippy::too_many_arguments)]
    fn with_globs(
        &self,
        module: &Module,
        interface: &Interface,
        scope: &str,
        name: &str,
        rest: &[&str],
        hops: &mut Hops,
        mut found: Vec<Found>,
    ) -> Outcome {
        let bound = found
            .iter()
            .map(|f| match f.definite {
                true => f.namespace,
                false => Namespace::Any,
            })
            .reduce(Namespace::merge);
        let empty = match bound {
            Some(Namespace::Macro) if rest.is_empty() => Namespace::Item,
            Some(Namespace::Item) if rest.is_empty() => Namespace::Macro,
            _ => return Outcome::Files(found),
        };
        // (`Both` and `Any` leave no namespace empty.)
        let globbed = match interface
            .bindings
            .iter()
            .any(|b| b.scope == scope && matches!(b.kind, BindingKind::Glob(_)))
        {
            true => self.globs(module, interface, scope, name, rest, hops),
            false => Outcome::NotFound,
        };
        if let Outcome::Files(more) = globbed {
            found.extend(more.into_iter().filter(|f| f.namespace == empty));
        }
        Outcome::Files(found)
    }

    /// `name` through the module's globs: the definite finds of every glob (each `cfg`
    /// alternative).
    fn globs(
        &self,
        module: &Module,
        interface: &Interface,
        scope: &str,
        name: &str,
        rest: &[&str],
        hops: &mut Hops,
    ) -> Outcome {
        let globs = interface
            .bindings
            .iter()
            .filter_map(|binding| match &binding.kind {
                BindingKind::Glob(path) if binding.scope == scope => Some(path),
                _ => None,
            });
        let mut found = Vec::new();
        let mut external = false;
        for path in globs {
            if !hops.enter(&module.file, &format!("{scope}::{path}::*")) {
                continue;
            }
            let full = with_rest(&in_file_scope(&format!("{path}::{name}"), scope), rest);
            let outcome = self.use_path(module, interface, &full, hops);
            hops.leave();
            match outcome {
                Outcome::Files(files) => found.extend(
                    files
                        .into_iter()
                        .filter(|f| f.definite)
                        .map(|f| passed_through(f, &module.file)),
                ),
                Outcome::External => external = true,
                Outcome::NotFound => {}
            }
        }
        match (found.is_empty(), external) {
            (false, _) => Outcome::Files(found),
            (true, true) => Outcome::External,
            (true, false) => Outcome::NotFound,
        }
    }

    /// A macro the file that defines `here` names by its bare name (`debug!(…)`), as rustc looks
    /// it up: in the textual scope — a `macro_rules!` of an ancestor module defined before the
    /// `mod` declaration that leads to `here`, or one of a `#[macro_use] mod` declared before it
    /// (the nearest first) — then, path-based, the crate's exported macros when `here` is the crate
    /// root, and those of the root's `#[macro_use] extern crate`s. Every module file read on the
    /// way is recorded in `via`: what it defines decides the answer, found or not.
    fn textual_macro(
        &self,
        here: &Module,
        interface: &Interface,
        name: &str,
        via: &mut Vec<String>,
    ) -> Option<Found> {
        let mut module = here.clone();
        while let Some(parent) = self.parent(&module) {
            via.push(parent.file.clone());
            let Some(scope) = (self.context.interface_of)(&parent.file) else {
                break;
            };
            let child = file_name(&module.dir);
            let declaration = scope.macro_scope.iter().position(|step| {
                matches!(step, MacroScope::Module { path, .. }
                    if path.rsplit("::").next() == Some(child))
            });
            let Some(at) = declaration else {
                break;
            };
            let inline = match &scope.macro_scope[at] {
                MacroScope::Module { path, .. } => inline_part(path),
                _ => "",
            };
            for step in scope.macro_scope[..at].iter().rev() {
                let found = match step {
                    MacroScope::Defined { scope: s, name: n }
                        if n == name && encloses(s, inline) =>
                    {
                        Some(Found::defined(parent.file.clone(), Namespace::Macro))
                    }
                    MacroScope::Module {
                        path,
                        macro_use: true,
                    } if encloses(inline_part(path), inline) => {
                        self.macro_use_module(&parent, &scope, path, name, via, 0)
                    }
                    _ => None,
                };
                if found.is_some() {
                    return found;
                }
            }
            module = parent;
        }
        let root = &here.krate.root;
        if here.file == *root {
            if let Some(file) = (self.context.exported_macro)(root, name) {
                return Some(Found::defined(file, Namespace::Macro));
            }
        }
        let root_scope = match here.file == *root {
            true => None,
            false => (self.context.interface_of)(root),
        };
        let root_scope = root_scope.as_deref().unwrap_or(interface);
        root_scope.macro_scope.iter().find_map(|step| match step {
            MacroScope::Crate(krate) => {
                let other = self.crate_root(&here.file, krate)?;
                let file = (self.context.exported_macro)(&other.krate.root, name)?;
                Some(Found::defined(file, Namespace::Macro))
            }
            _ => None,
        })
    }

    /// A macro named `name` that `#[macro_use] mod path;` in `parent` (whose interface is
    /// `scope`) brings into the parent's textual scope: one the module defines, or one of its own
    /// `#[macro_use]` modules' (the last defined first). The module files read go into `via`.
    fn macro_use_module(
        &self,
        parent: &Module,
        scope: &Interface,
        path: &str,
        name: &str,
        via: &mut Vec<String>,
        depth: usize,
    ) -> Option<Found> {
        if depth >= MAX_HOPS {
            return None;
        }
        let declared = scope
            .imports
            .iter()
            .find(|import| import.spec.strip_prefix("mod:") == Some(path));
        let file = self
            .declared_module(parent, path, declared.and_then(|i| i.path.as_deref()))?
            .file;
        via.push(file.clone());
        let module = self.module_of_file(&file)?;
        let inner = (self.context.interface_of)(&file)?;
        inner.macro_scope.iter().rev().find_map(|step| match step {
            MacroScope::Defined { scope: s, name: n } if s.is_empty() && n == name => {
                Some(Found::defined(file.clone(), Namespace::Macro))
            }
            MacroScope::Module {
                path,
                macro_use: true,
            } if !path.contains("::") => {
                self.macro_use_module(&module, &inner, path, name, via, depth + 1)
            }
            _ => None,
        })
    }

    /// A `#[macro_export]` macro of the crate, when `module` is its root: such macros live there
    /// whatever module defines them.
    fn exported_macro(&self, module: &Module, scope: &str, name: &str) -> Outcome {
        if !scope.is_empty() || module.file != module.krate.root {
            return Outcome::NotFound;
        }
        match (self.context.exported_macro)(&module.krate.root, name) {
            Some(file) => Outcome::Files(vec![Found::defined(file, Namespace::Macro)]),
            None => Outcome::NotFound,
        }
    }

    /// Follow the import(s) bound to one name (several: `cfg` alternatives).
    fn aliases(
        &self,
        module: &Module,
        interface: &Interface,
        scope: &str,
        paths: &[&String],
        rest: &[&str],
        hops: &mut Hops,
    ) -> Outcome {
        let mut found = Vec::new();
        let mut external = false;
        for path in paths {
            if !hops.enter(&module.file, &format!("{scope}::{path}")) {
                continue;
            }
            let full = with_rest(&in_file_scope(path, scope), rest);
            let outcome = self.use_path(module, interface, &full, hops);
            hops.leave();
            match outcome {
                Outcome::Files(files) => {
                    found.extend(files.into_iter().map(|f| passed_through(f, &module.file)))
                }
                Outcome::External => external = true,
                Outcome::NotFound => {}
            }
        }
        match (found.is_empty(), external) {
            (false, _) => Outcome::Files(found),
            (true, true) => Outcome::External,
            (true, false) => Outcome::NotFound,
        }
    }
}

/// `path` followed by the `rest` of a path.
fn with_rest(path: &str, rest: &[&str]) -> String {
    std::iter::once(path)
        .chain(rest.iter().copied())
        .collect::<Vec<_>>()
        .join("::")
}

/// The inline modules a `mod` declaration is written in (`a` of `a::b`), `""` for the file's scope.
fn inline_part(path: &str) -> &str {
    path.rsplit_once("::").map_or("", |(inline, _)| inline)
}

/// Whether what inline module `outer` holds is in the textual scope of inline module `inner` (of
/// one file): `outer` is `inner` or encloses it.
fn encloses(outer: &str, inner: &str) -> bool {
    outer.is_empty()
        || inner == outer
        || inner
            .strip_prefix(outer)
            .is_some_and(|rest| rest.starts_with("::"))
}

fn join_scope(scope: &str, name: &str) -> String {
    if scope.is_empty() {
        name.to_string()
    } else {
        format!("{scope}::{name}")
    }
}

/// A path written inside inline module `scope` of a file, as the file's own module would write it:
/// `self::` is the inline module, each `crate::source::resolve::` climbs out of one inline module first.
fn in_file_scope(path: &str, scope: &str) -> String {
    if scope.is_empty() {
        return path.to_string();
    }
    let mut inline: Vec<&str> = scope.split("::").collect();
    let mut segments: Vec<&str> = path.split("::").collect();
    match segments.first() {
        Some(&"self") => {
            segments.remove(0);
        }
        Some(&"super") => {
            while segments.first() == Some(&"super") && !inline.is_empty() {
                segments.remove(0);
                inline.pop();
            }
            if segments.first() == Some(&"super") {
                return segments.join("::");
            }
        }
        _ => return path.to_string(),
    }
    std::iter::once("self")
        .chain(inline)
        .chain(segments)
        .collect::<Vec<_>>()
        .join("::")
}

/// `found`, reached through a re-export in `module_file`.
fn passed_through(mut found: Found, module_file: &str) -> Found {
    if found.file != module_file {
        found.via.push(module_file.to_string());
    }
    found
}

#[cfg(test)]
mod tests {
    use crate::source::resolve::testing::Files;

    const WORKSPACE: &[(&str, &str)] = &[
        ("Cargo.toml", "[package]\nname = \"rip\"\n[[bin]]\nname = \"rg\"\npath = \"crates/core/main.rs\"\n[workspace]\nmembers = [\"crates/*\"]\n[dependencies]\ngrep-matcher = { path = \"crates/matcher\" }\nutilx = { package = \"grep-util\", path = \"crates/util\" }\n"),
        ("crates/core/main.rs", "mod flags;\nuse grep_matcher::Matcher;\nuse utilx::helpers::help;\nuse crate::flags::defs::Flag;\n"),
        ("crates/core/flags/mod.rs", "pub mod defs;\n"),
        ("crates/core/flags/defs.rs", "pub struct Flag;\nuse crate::flags;\n"),
        ("crates/matcher/Cargo.toml", "[package]\nname = \"grep-matcher\"\n"),
        ("crates/matcher/src/lib.rs", "mod interpolate;\npub use crate::interpolate::Matcher;\n"),
        ("crates/matcher/src/interpolate.rs", "pub trait Matcher {}\n"),
        ("crates/util/Cargo.toml", "[package]\nname = \"grep-util\"\n"),
        ("crates/util/src/lib.rs", "pub mod helpers;\n"),
        ("crates/util/src/helpers.rs", "pub fn help() {}\n"),
        ("crates/util/tests/it.rs", "use grep_util::helpers;\nmod common;\n"),
        ("crates/util/tests/common/mod.rs", "pub fn setup() {}\n"),
    ];

    #[test]
    fn cross_crate_paths_follow_re_exports_to_the_defining_file() {
        let files = Files::new(WORKSPACE);
        let main = files.resolve("crates/core/main.rs");
        assert_eq!(
            main.deps,
            [
                "crates/core/flags/defs.rs",
                "crates/core/flags/mod.rs",
                "crates/matcher/src/interpolate.rs",
                "crates/util/src/helpers.rs",
            ]
        );
        assert_eq!(main.via, ["crates/matcher/src/lib.rs"]);
        assert_eq!(
            files.deps("crates/core/flags/defs.rs"),
            ["crates/core/flags/mod.rs"]
        );
        assert_eq!(
            files.deps("crates/util/tests/it.rs"),
            [
                "crates/util/src/helpers.rs",
                "crates/util/tests/common/mod.rs"
            ]
        );
    }

    #[test]
    fn macro_wrapped_modules_path_attributes_raw_identifiers_and_test_modules() {
        let files = Files::new(&[
            ("Cargo.toml", "[package]\nname = \"t\"\n"),
            ("src/lib.rs", "macro_rules! cfg_rt { ($($i:item)*) => { $($i)* } }\ncfg_rt! {\n    mod runtime;\n    pub use runtime::Handle;\n}\nmod r#type;\n#[path = \"platform/unix.rs\"]\nmod imp;\n#[cfg(test)]\nmod tests;\n"),
            ("src/runtime/mod.rs", "mod handle;\npub use self::handle::Handle;\n"),
            ("src/runtime/handle.rs", "pub struct Handle;\n"),
            ("src/type.rs", "pub struct T;\n"),
            ("src/platform/unix.rs", "mod reap;\n"),
            ("src/platform/reap.rs", ""),
            ("src/tests.rs", ""),
            ("src/user.rs", "use crate::Handle;\nuse crate::r#type::T;\nuse crate::imp;\n"),
        ]);
        assert_eq!(
            files.deps("src/lib.rs"),
            [
                "src/platform/unix.rs",
                "src/runtime/handle.rs",
                "src/runtime/mod.rs",
                "src/type.rs"
            ]
        );
        let user = files.resolve("src/user.rs");
        assert_eq!(
            user.deps,
            [
                "src/platform/unix.rs",
                "src/runtime/handle.rs",
                "src/type.rs"
            ]
        );
        assert_eq!(user.via, ["src/lib.rs", "src/runtime/mod.rs"]);
        assert_eq!(files.deps("src/platform/unix.rs"), ["src/platform/reap.rs"]);
    }

    #[test]
    fn re_exports_of_external_items_and_globs() {
        let files = Files::new(&[
            ("Cargo.toml", "[package]\nname = \"s\"\n"),
            ("src/lib.rs", "pub use futures_core::Stream;\nmod ext;\npub use ext::*;\nmod macros;\n"),
            ("src/ext.rs", "pub trait StreamExt {}\n"),
            ("src/macros.rs", ""),
            ("src/empty.rs", "use crate::Stream;\nuse crate::StreamExt;\nuse crate::made_by_a_macro;\nuse std::fmt;\n"),
        ]);
        let empty = files.resolve("src/empty.rs");
        assert_eq!(empty.deps, ["src/ext.rs", "src/lib.rs"]);
        assert_eq!(empty.unresolved, ["crate::Stream", "std::fmt"]);
    }

    #[test]
    fn module_paths_from_mod_rs_and_plain_files_and_crates_without_manifests() {
        let files = Files::new(&[
            ("src/lib.rs", "pub mod cli;\nmod hash;\nuse crate::cli::args;\nuse crate::Thing;\n"),
            ("src/hash.rs", "pub fn f() {}\n"),
            ("src/cli/mod.rs", "mod args;\nmod missing;\nuse crate::hash::f;\nuse super::hash;\nuse self::args::Args;\nuse args::Parsed;\n"),
            ("src/cli/args.rs", "pub struct Args;\npub struct Parsed;\n"),
            ("src/project/config.rs", "mod defaults;\nuse super::*;\nuse super::super::hash::f;\nuse self::defaults::D;\n"),
            ("src/project/mod.rs", "pub mod config;\n"),
            ("src/project/config/defaults.rs", "pub struct D;\n"),
        ]);
        assert_eq!(
            files.deps("src/lib.rs"),
            ["src/cli/args.rs", "src/cli/mod.rs", "src/hash.rs"]
        );
        assert_eq!(
            files.deps("src/cli/mod.rs"),
            ["src/cli/args.rs", "src/hash.rs"]
        );
        assert_eq!(
            files.deps("src/project/config.rs"),
            [
                "src/hash.rs",
                "src/project/config/defaults.rs",
                "src/project/mod.rs"
            ]
        );
    }

    #[test]
    fn inline_modules_cfg_alternatives_and_crate_aliases() {
        let files = Files::new(&[
            ("Cargo.toml", "[package]\nname = \"t\"\n[dependencies]\nhelper = { path = \"helper\" }\n"),
            ("src/lib.rs", "mod loom;\npub extern crate helper as h;\n"),
            ("src/loom/mod.rs", "mod std;\npub(crate) use self::std::*;\n"),
            ("src/loom/std/mod.rs", "mod mutex;\nmod parking_lot;\npub(crate) mod sync {\n    #[cfg(feature = \"parking_lot\")]\n    pub(crate) use crate::loom::std::parking_lot::Mutex;\n    #[cfg(not(feature = \"parking_lot\"))]\n    pub(crate) use super::mutex::Mutex;\n    pub(crate) use std::sync::Arc;\n}\n"),
            ("src/loom/std/mutex.rs", "pub(crate) struct Mutex;\n"),
            ("src/loom/std/parking_lot.rs", "pub(crate) struct Mutex;\n"),
            ("src/user.rs", "use crate::loom::sync::Mutex;\nuse crate::loom::sync::Arc;\nuse crate::h::text::shout;\n#[cfg(test)]\nuse crate::loom::std::mutex;\n"),
            ("helper/Cargo.toml", "[package]\nname = \"helper\"\n"),
            ("helper/src/lib.rs", "pub mod text;\n"),
            ("helper/src/text.rs", "pub fn shout() {}\n"),
        ]);
        let user = files.resolve("src/user.rs");
        assert_eq!(
            user.deps,
            [
                "helper/src/text.rs",
                "src/loom/std/mutex.rs",
                "src/loom/std/parking_lot.rs"
            ]
        );
        assert_eq!(user.unresolved, ["crate::loom::sync::Arc"]);
        assert_eq!(
            user.via,
            ["src/lib.rs", "src/loom/mod.rs", "src/loom/std/mod.rs"]
        );
    }

    /// clap's facade: an explicit `pub use` of a derive macro and a glob bringing the trait of the
    /// same name; what a file keeps depends on how it uses the name.
    #[test]
    fn a_glob_fills_the_namespace_an_explicit_use_leaves_empty() {
        let files = Files::new(&[
            ("Cargo.toml", "[package]\nname = \"app\"\n[dependencies]\nf = { path = \"f\" }\n[workspace]\nmembers = [\"f\", \"b\", \"d\"]\n"),
            ("f/Cargo.toml", "[package]\nname = \"f\"\n[dependencies]\nb = { path = \"../b\" }\nd = { path = \"../d\" }\n"),
            ("f/src/lib.rs", "pub use b::*;\npub use d::Parser;\n"),
            ("b/Cargo.toml", "[package]\nname = \"b\"\n"),
            ("b/src/lib.rs", "mod derive;\npub use derive::Parser;\n"),
            ("b/src/derive.rs", "pub trait Parser {}\n"),
            ("d/Cargo.toml", "[package]\nname = \"d\"\n[lib]\nproc-macro = true\n"),
            ("d/src/lib.rs", "#[proc_macro_derive(Parser, attributes(arg))]\npub fn parser() {}\n"),
            ("src/main.rs", "mod both;\nmod trait_only;\nmod derive_path;\n"),
            ("src/both.rs", "use f::Parser;\n#[derive(Parser)]\nstruct A;\n"),
            ("src/trait_only.rs", "use f::Parser as P;\nfn g<T: P>() {}\n"),
            ("src/derive_path.rs", "#[derive(f::Parser)]\nstruct A;\nfn g<T: f::Parser>() {}\n"),
        ]);
        assert_eq!(
            files.deps("src/both.rs"),
            ["b/src/derive.rs", "d/src/lib.rs"]
        );
        assert_eq!(files.deps("src/trait_only.rs"), ["b/src/derive.rs"]);
        // One spec used both ways keeps both.
        assert_eq!(
            files.deps("src/derive_path.rs"),
            ["b/src/derive.rs", "d/src/lib.rs"]
        );
    }

    #[test]
    fn paths_written_in_inline_modules_are_seen_from_the_file() {
        assert_eq!(
            super::in_file_scope("self::x::Y", "a::b"),
            "self::a::b::x::Y"
        );
        assert_eq!(super::in_file_scope("super::x", "a::b"), "self::a::x");
        assert_eq!(
            super::in_file_scope("super::super::super::x", "a::b"),
            "super::x"
        );
        assert_eq!(super::in_file_scope("crate::x", "a"), "crate::x");
        assert_eq!(super::in_file_scope("self::x", ""), "self::x");
    }

    /// ripgrep's `message!` (`#[macro_use] mod messages;`), clap's `debug!` (a `#[macro_use]`
    /// module's own `#[macro_use]` child), a macro of an ancestor defined before the child's `mod`
    /// (and one defined after it, out of scope), a `#[macro_use] extern crate`'s exported macro.
    #[test]
    fn bare_macro_calls_resolve_in_the_textual_scope() {
        let files = Files::new(&[
            (
                "Cargo.toml",
                "[package]\nname = \"app\"\n[dependencies]\nhelper = { path = \"helper\" }\n",
            ),
            ("src/main.rs", "#[macro_use]\nextern crate helper;\n#[macro_use]\nmod messages;\nmod util;\nmacro_rules! late { () => {} }\nmod search;\n"),
            ("src/messages.rs", "macro_rules! message { () => {} }\n#[macro_use]\nmod debug;\n"),
            ("src/messages/debug.rs", "macro_rules! debug { () => {} }\n"),
            ("src/util/mod.rs", "macro_rules! early { () => {} }\nmod walk;\nmacro_rules! after { () => {} }\n"),
            ("src/util/walk.rs", "fn f() { early!(); after!(); message!(); debug!(); late!(); shout!(); println!(); }\n"),
            ("src/search.rs", "fn f() { late!(); }\n"),
            ("helper/Cargo.toml", "[package]\nname = \"helper\"\n"),
            ("helper/src/lib.rs", "#[macro_export]\nmacro_rules! shout { () => {} }\n"),
        ]);
        let walk = files.resolve("src/util/walk.rs");
        assert_eq!(
            walk.deps,
            [
                "helper/src/lib.rs",
                "src/messages.rs",
                "src/messages/debug.rs",
                "src/util/mod.rs"
            ]
        );
        // Every module file read on the way: a change of one of them resolves the file again.
        assert_eq!(
            walk.via,
            [
                "src/main.rs",
                "src/messages.rs",
                "src/messages/debug.rs",
                "src/util/mod.rs"
            ]
        );
        assert!(walk.unresolved.is_empty(), "{:?}", walk.unresolved);
        assert_eq!(files.deps("src/search.rs"), ["src/main.rs"]);
    }

    #[test]
    fn exported_macros_live_at_the_crate_root() {
        let files = Files::new(&[
            (
                "Cargo.toml",
                "[package]\nname = \"app\"\n[dependencies]\ncore = { path = \"core\" }\n",
            ),
            ("src/main.rs", "use core::hashmap;\nuse core::missing;\n"),
            ("core/Cargo.toml", "[package]\nname = \"core\"\n"),
            ("core/src/lib.rs", "#[macro_use]\nmod macros;\n"),
            (
                "core/src/macros.rs",
                "#[macro_export]\nmacro_rules! hashmap { () => {} }\n",
            ),
        ]);
        let main = files.resolve("src/main.rs");
        assert_eq!(main.deps, ["core/src/lib.rs", "core/src/macros.rs"]);
    }
}
