//! rust-truth: the project-internal dependency edges of every Rust file in a repository, found
//! the way rustc finds them, independently of lexibrarian's own extractor (no tree-sitter, no code
//! shared with the crate under measurement).
//!
//! - Crates come from `cargo metadata --no-deps --offline` (every workspace and stand-alone package
//!   in the repository): one crate per target (lib, bin, test, bench, example, custom-build), with
//!   its extern prelude built from the package's declared dependencies (renames honoured; a
//!   dependency with a `path` that is a package here is a project crate, anything else is external).
//! - The module tree is built from each target root with rustc's rules: `mod x;` → `x.rs` or
//!   `x/mod.rs` in the directory that owns the module (a non-mod-rs file `a/b.rs` owns `a/b/`),
//!   inline modules add a directory component, `#[path]` (relative to the file's directory outside
//!   inline modules, to the inline module's directory inside them; a file loaded by `#[path]` owns
//!   its own directory), raw identifiers, and items inside item-level macro invocations whose
//!   tokens parse as items (`cfg_rt! { mod handle; }`).
//! - Every `use` (module level and in function bodies) is expanded into leaves and resolved through
//!   the module tree and across crates: local names first (items, imports, glob imports),
//!   then the extern prelude (`::x`, `crate`, `self`, `super`, `$crate` too), following `pub use`
//!   re-exports and `extern crate x as y` to the file that *defines* the item.
//!
//! Edges of a file: `mod x;` → x's file; `use` of an item → the file defining it; `use` of a
//! module → the module's file; `use a::*` → a's file; `extern crate x` of a project crate → its
//! root file. Items under `#[cfg(test)]` (judged within each file) give no edges.
//!
//! A crate of its own (own workspace and lockfile), so lexibrarian's build and CI never compile it.
//! Usage: `cargo run --release --manifest-path benches/graph/rust-truth/Cargo.toml -- REPO`
//! (benches/graph/compare.py runs it).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};
use syn::ext::IdentExt;
use syn::spanned::Spanned;
use syn::visit::Visit;

type ModId = usize;
type CrateId = usize;

/// What a path resolves to.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Res {
    Module(ModId),
    /// An item defined in this file of this crate.
    Def(String, CrateId),
    External,
    /// The name was not found in this module (macro-generated items, mostly).
    Missing(ModId),
}

#[derive(Clone, Debug)]
enum Binding {
    Module(ModId),
    Def(String),
    Import(usize),
    Crate(CrateId),
    External,
}

struct Import {
    module: ModId,
    path: Vec<String>,
    leading_colon: bool,
}

struct Module {
    krate: CrateId,
    parent: Option<ModId>,
    /// Project-relative file holding this module's items.
    file: String,
    /// Absolute directory in which `mod x;` looks for `x.rs` / `x/mod.rs`.
    child_dir: PathBuf,
    /// Inline module (`mod a { … }`).
    inline: bool,
    names: HashMap<String, Vec<Binding>>,
    globs: Vec<usize>,
    test_names: HashMap<String, Vec<Binding>>,
    test_globs: Vec<usize>,
}

struct Crate {
    package: String,
    /// Target name.
    name: String,
    kind: String,
    edition: String,
    root_file: String,
    root_mod: ModId,
    /// Extern prelude: name → project crate (Some) or external (None).
    prelude: HashMap<String, Option<CrateId>>,
}

struct UseLeaf {
    in_macro: bool,
    file: String,
    import: usize,
    glob: bool,
    test: bool,
    line: usize,
}

#[derive(Default, Clone)]
struct EdgeInfo {
    kinds: BTreeSet<String>,
    cross_crate: bool,
    /// Only found by the missing-name fallback.
    fallback: bool,
    /// Every occurrence is inside a macro invocation (`cfg_rt! { mod x; }`).
    in_macro: bool,
    lines: BTreeSet<usize>,
}

struct Graph {
    root: PathBuf,
    crates: Vec<Crate>,
    modules: Vec<Module>,
    imports: Vec<Import>,
    leaves: Vec<UseLeaf>,
    /// (from, to, test, line, kind, cross_crate, inside a macro invocation)
    direct: Vec<(String, String, bool, usize, &'static str, bool, bool)>,
    /// Walking items parsed out of a macro invocation's tokens.
    in_macro: bool,
    unparsed: BTreeMap<String, String>,
    /// Files in the module tree, with the crates (`package:kind:target`) they belong to.
    files: BTreeMap<String, BTreeSet<String>>,
    memo: HashMap<(ModId, String), Vec<Res>>,
    stack: HashSet<(ModId, String)>,
    cycle: bool,
    stats: BTreeMap<String, usize>,
    unknown_first: BTreeMap<String, Vec<String>>,
    /// Every `macro_rules!` of a crate by name.
    macro_defs: HashMap<(CrateId, String), BTreeSet<String>>,
    /// Binding items under `#[cfg(test)]`.
    test_binding: bool,
}

fn rel(root: &Path, p: &Path) -> String {
    let p = normalize(p);
    p.strip_prefix(root)
        .unwrap_or(&p)
        .to_string_lossy()
        .replace('\\', "/")
}

/// Lexical normalisation (`a/./b/../c` → `a/c`), like rustc's path joining.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            c => out.push(c),
        }
    }
    out
}

fn ident(i: &syn::Ident) -> String {
    i.unraw().to_string()
}

/// Whether a `cfg` predicate can only hold under `cfg(test)`.
fn requires_test(meta: &syn::Meta) -> bool {
    match meta {
        syn::Meta::Path(p) => p.is_ident("test"),
        syn::Meta::List(list) => {
            let nested: Vec<syn::Meta> = list
                .parse_args_with(
                    syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                )
                .map(|p| p.into_iter().collect())
                .unwrap_or_default();
            if list.path.is_ident("all") {
                nested.iter().any(requires_test)
            } else if list.path.is_ident("any") {
                !nested.is_empty() && nested.iter().all(requires_test)
            } else {
                false
            }
        }
        syn::Meta::NameValue(_) => false,
    }
}

fn cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .map(|m| requires_test(&m))
                .unwrap_or(false)
    })
}

fn path_attr(attrs: &[syn::Attribute]) -> Option<String> {
    attrs.iter().find_map(|a| {
        if !a.path().is_ident("path") {
            return None;
        }
        if let syn::Meta::NameValue(nv) = &a.meta {
            if let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(s),
                ..
            }) = &nv.value
            {
                return Some(s.value());
            }
        }
        None
    })
}

fn has_attr(attrs: &[syn::Attribute], name: &str) -> bool {
    attrs.iter().any(|a| a.path().is_ident(name))
}

/// One leaf of a `use` tree: full path, the name it binds (None for `_` and globs), glob?
struct Leaf {
    path: Vec<String>,
    name: Option<String>,
    glob: bool,
}

fn use_leaves(tree: &syn::UseTree, prefix: &mut Vec<String>, out: &mut Vec<Leaf>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(ident(&p.ident));
            use_leaves(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let name = ident(&n.ident);
            if name == "self" {
                out.push(Leaf {
                    path: prefix.clone(),
                    name: prefix.last().cloned(),
                    glob: false,
                });
            } else {
                let mut path = prefix.clone();
                path.push(name.clone());
                out.push(Leaf {
                    path,
                    name: Some(name),
                    glob: false,
                });
            }
        }
        syn::UseTree::Rename(r) => {
            let name = ident(&r.ident);
            let path = if name == "self" {
                prefix.clone()
            } else {
                let mut p = prefix.clone();
                p.push(name);
                p
            };
            let alias = ident(&r.rename);
            out.push(Leaf {
                path,
                name: (alias != "_").then_some(alias),
                glob: false,
            });
        }
        syn::UseTree::Glob(_) => out.push(Leaf {
            path: prefix.clone(),
            name: None,
            glob: true,
        }),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_leaves(t, prefix, out);
            }
        }
    }
}

/// Collects `use` items nested in function bodies, impls and other expressions.
struct BodyUses<'a> {
    g: &'a mut Graph,
    module: ModId,
    file: String,
    test: bool,
}

impl<'ast> Visit<'ast> for BodyUses<'_> {
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        let test = self.test || cfg_test(&u.attrs);
        self.g.add_use(self.module, &self.file, u, test, false);
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        let saved = self.test;
        self.test |= cfg_test(&f.attrs);
        syn::visit::visit_item_fn(self, f);
        self.test = saved;
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        let saved = self.test;
        self.test |= cfg_test(&f.attrs);
        syn::visit::visit_impl_item_fn(self, f);
        self.test = saved;
    }
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        let saved = self.test;
        self.test |= cfg_test(&m.attrs);
        syn::visit::visit_item_mod(self, m);
        self.test = saved;
    }
}

impl Graph {
    fn bump(&mut self, key: &str) {
        *self.stats.entry(key.to_string()).or_default() += 1;
    }

    fn new_module(
        &mut self,
        krate: CrateId,
        parent: Option<ModId>,
        file: String,
        child_dir: PathBuf,
        inline: bool,
    ) -> ModId {
        self.modules.push(Module {
            krate,
            parent,
            file,
            child_dir,
            inline,
            names: HashMap::new(),
            globs: Vec::new(),
            test_names: HashMap::new(),
            test_globs: Vec::new(),
        });
        self.modules.len() - 1
    }

    /// Bind `name` in `m`; items under `#[cfg(test)]` go to the test-only names, which only
    /// lookups that find nothing else see (code in files reached through `#[cfg(test)] mod x;`).
    fn bind(&mut self, m: ModId, name: String, b: Binding) {
        let module = &mut self.modules[m];
        let names = if self.test_binding {
            &mut module.test_names
        } else {
            &mut module.names
        };
        names.entry(name).or_default().push(b);
    }

    /// Parse `path` as the file of module `m` and walk its items.
    fn load_file(&mut self, m: ModId, path: &Path, loading: &mut Vec<PathBuf>) {
        let file = rel(&self.root, path);
        let c = &self.crates[self.modules[m].krate];
        let label = format!("{}:{}:{}", c.package, c.kind, c.name);
        self.files.entry(file.clone()).or_default().insert(label);
        if loading.contains(&path.to_path_buf()) {
            return;
        }
        let text = match std::fs::read_to_string(path) {
            Ok(t) => t,
            Err(e) => {
                self.unparsed.insert(file, e.to_string());
                return;
            }
        };
        let parsed = match syn::parse_file(&text) {
            Ok(f) => f,
            Err(e) => {
                self.unparsed.insert(file, e.to_string());
                return;
            }
        };
        loading.push(path.to_path_buf());
        // Being inside a macro invocation is a property of the declaring file's text.
        let saved = std::mem::replace(&mut self.in_macro, false);
        self.items(m, &file, &parsed.items, false, loading);
        self.in_macro = saved;
        loading.pop();
    }

    fn items(
        &mut self,
        m: ModId,
        file: &str,
        items: &[syn::Item],
        test: bool,
        loading: &mut Vec<PathBuf>,
    ) {
        for item in items {
            self.item(m, file, item, test, loading);
        }
    }

    fn def(&mut self, m: ModId, file: &str, name: String) {
        self.bind(m, name, Binding::Def(file.to_string()));
    }

    fn item(
        &mut self,
        m: ModId,
        file: &str,
        item: &syn::Item,
        ctx_test: bool,
        loading: &mut Vec<PathBuf>,
    ) {
        let attrs: &[syn::Attribute] = match item {
            syn::Item::Const(i) => &i.attrs,
            syn::Item::Enum(i) => &i.attrs,
            syn::Item::ExternCrate(i) => &i.attrs,
            syn::Item::Fn(i) => &i.attrs,
            syn::Item::ForeignMod(i) => &i.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Macro(i) => &i.attrs,
            syn::Item::Mod(i) => &i.attrs,
            syn::Item::Static(i) => &i.attrs,
            syn::Item::Struct(i) => &i.attrs,
            syn::Item::Trait(i) => &i.attrs,
            syn::Item::TraitAlias(i) => &i.attrs,
            syn::Item::Type(i) => &i.attrs,
            syn::Item::Union(i) => &i.attrs,
            syn::Item::Use(i) => &i.attrs,
            _ => &[],
        };
        let item_test = cfg_test(attrs);
        let test = ctx_test || item_test;
        let registered = !item_test || ctx_test;
        let saved = std::mem::replace(&mut self.test_binding, !registered);
        self.item_inner(m, file, item, test, registered, loading);
        self.test_binding = saved;
    }

    #[allow(clippy::too_many_arguments)]
    fn item_inner(
        &mut self,
        m: ModId,
        file: &str,
        item: &syn::Item,
        test: bool,
        registered: bool,
        loading: &mut Vec<PathBuf>,
    ) {
        match item {
            syn::Item::Use(u) => self.add_use(m, file, u, test, true),
            syn::Item::Mod(md) => self.add_mod(m, file, md, test, loading),
            syn::Item::ExternCrate(ec) => {
                let name = ident(&ec.ident);
                let krate = self.modules[m].krate;
                let target = if name == "self" {
                    Some(krate)
                } else {
                    self.crates[krate].prelude.get(&name).cloned().flatten()
                };
                let alias = ec
                    .rename
                    .as_ref()
                    .map(|(_, r)| ident(r))
                    .unwrap_or(name.clone());
                if alias != "_" {
                    let b = target.map_or(Binding::External, Binding::Crate);
                    self.bind(m, alias.clone(), b);
                    if registered && self.modules[m].parent.is_none() && !self.modules[m].inline {
                        self.crates[krate].prelude.insert(alias, target);
                    }
                }
                if let Some(t) = target.filter(|t| *t != krate) {
                    let to = self.crates[t].root_file.clone();
                    let line = ec.span().start().line;
                    self.direct.push((
                        file.to_string(),
                        to,
                        test,
                        line,
                        "extern",
                        true,
                        self.in_macro,
                    ));
                }
            }
            syn::Item::Macro(mac) => {
                if mac.mac.path.is_ident("macro_rules") {
                    if let Some(id) = &mac.ident {
                        let name = ident(id);
                        self.def(m, file, name.clone());
                        if registered {
                            let krate = self.modules[m].krate;
                            self.macro_defs
                                .entry((krate, name.clone()))
                                .or_default()
                                .insert(file.to_string());
                        }
                        if has_attr(&mac.attrs, "macro_export") {
                            let root = self.crates[self.modules[m].krate].root_mod;
                            self.bind(root, name, Binding::Def(file.to_string()));
                        }
                    }
                } else if let Ok(inner) = syn::parse2::<syn::File>(mac.mac.tokens.clone()) {
                    self.bump("macro_bodies_parsed_as_items");
                    let saved = std::mem::replace(&mut self.in_macro, true);
                    self.items(m, file, &inner.items, test, loading);
                    self.in_macro = saved;
                }
            }
            syn::Item::Fn(f) => {
                self.def(m, file, ident(&f.sig.ident));
                for a in &f.attrs {
                    if a.path().is_ident("proc_macro_derive") {
                        if let Ok(syn::Meta::Path(p)) = a.parse_args::<syn::Meta>() {
                            if let Some(id) = p.get_ident() {
                                self.def(m, file, ident(id));
                            }
                        } else if let Ok(list) = a.parse_args_with(
                            syn::punctuated::Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated,
                        ) {
                            if let Some(syn::Meta::Path(p)) = list.first() {
                                if let Some(id) = p.get_ident() {
                                    self.def(m, file, ident(id));
                                }
                            }
                        }
                    }
                }
                self.body(m, file, item, test);
            }
            syn::Item::Struct(s) => {
                self.def(m, file, ident(&s.ident));
            }
            syn::Item::Enum(e) => self.def(m, file, ident(&e.ident)),
            syn::Item::Union(u) => self.def(m, file, ident(&u.ident)),
            syn::Item::Trait(t) => {
                self.def(m, file, ident(&t.ident));
                self.body(m, file, item, test);
            }
            syn::Item::TraitAlias(t) => self.def(m, file, ident(&t.ident)),
            syn::Item::Type(t) => self.def(m, file, ident(&t.ident)),
            syn::Item::Const(c) => {
                let name = ident(&c.ident);
                if name != "_" {
                    self.def(m, file, name);
                }
                self.body(m, file, item, test);
            }
            syn::Item::Static(s) => {
                self.def(m, file, ident(&s.ident));
                self.body(m, file, item, test);
            }
            syn::Item::ForeignMod(fm) => {
                for fi in &fm.items {
                    let name = match fi {
                        syn::ForeignItem::Fn(f) => Some(&f.sig.ident),
                        syn::ForeignItem::Static(s) => Some(&s.ident),
                        syn::ForeignItem::Type(t) => Some(&t.ident),
                        _ => None,
                    };
                    if let Some(n) = name {
                        self.def(m, file, ident(n));
                    }
                }
            }
            syn::Item::Impl(_) => self.body(m, file, item, test),
            _ => {}
        }
    }

    /// `use` items nested inside an item's bodies.
    fn body(&mut self, m: ModId, file: &str, item: &syn::Item, test: bool) {
        let mut v = BodyUses {
            g: self,
            module: m,
            file: file.to_string(),
            test,
        };
        match item {
            syn::Item::Fn(f) => v.visit_block(&f.block),
            syn::Item::Impl(i) => {
                for it in &i.items {
                    v.visit_impl_item(it);
                }
            }
            syn::Item::Trait(t) => {
                for it in &t.items {
                    v.visit_trait_item(it);
                }
            }
            syn::Item::Const(c) => v.visit_expr(&c.expr),
            syn::Item::Static(s) => v.visit_expr(&s.expr),
            _ => {}
        }
    }

    fn add_use(&mut self, m: ModId, file: &str, u: &syn::ItemUse, test: bool, register: bool) {
        let mut leaves = Vec::new();
        use_leaves(&u.tree, &mut Vec::new(), &mut leaves);
        let line = u.span().start().line;
        for leaf in leaves {
            self.imports.push(Import {
                module: m,
                path: leaf.path,
                leading_colon: u.leading_colon.is_some(),
            });
            let id = self.imports.len() - 1;
            if register {
                if leaf.glob {
                    if self.test_binding {
                        self.modules[m].test_globs.push(id);
                    } else {
                        self.modules[m].globs.push(id);
                    }
                } else if let Some(name) = leaf.name {
                    self.bind(m, name, Binding::Import(id));
                }
            }
            self.leaves.push(UseLeaf {
                in_macro: self.in_macro,
                file: file.to_string(),
                import: id,
                glob: leaf.glob,
                test,
                line,
            });
        }
    }

    fn add_mod(
        &mut self,
        m: ModId,
        file: &str,
        md: &syn::ItemMod,
        test: bool,
        loading: &mut Vec<PathBuf>,
    ) {
        let name = ident(&md.ident);
        let krate = self.modules[m].krate;
        let parent_dir = self.modules[m].child_dir.clone();
        let file_dir = self
            .root
            .join(file)
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let path_attr = path_attr(&md.attrs);
        if let Some((_, content)) = &md.content {
            let child_dir = match &path_attr {
                Some(p) => {
                    if self.modules[m].inline {
                        parent_dir.join(p)
                    } else {
                        file_dir.join(p)
                    }
                }
                None => parent_dir.join(&name),
            };
            let child = self.new_module(krate, Some(m), file.to_string(), child_dir, true);
            self.bind(m, name, Binding::Module(child));
            self.items(child, file, content, test, loading);
            return;
        }
        let (found, child_dir) = match &path_attr {
            Some(p) => {
                let base = if self.modules[m].inline {
                    parent_dir.clone()
                } else {
                    file_dir
                };
                let f = normalize(&base.join(p));
                let dir = f.parent().map(Path::to_path_buf).unwrap_or_default();
                (f.is_file().then_some(f), dir)
            }
            None => {
                let a = parent_dir.join(format!("{name}.rs"));
                let b = parent_dir.join(&name).join("mod.rs");
                if a.is_file() {
                    (Some(a), parent_dir.join(&name))
                } else if b.is_file() {
                    (Some(b), parent_dir.join(&name))
                } else {
                    (None, parent_dir.join(&name))
                }
            }
        };
        let Some(found) = found else {
            self.bump("mod_file_not_found");
            return;
        };
        let child = self.new_module(krate, Some(m), rel(&self.root, &found), child_dir, false);
        self.bind(m, name, Binding::Module(child));
        let to = rel(&self.root, &found);
        self.direct.push((
            file.to_string(),
            to,
            test,
            md.span().start().line,
            if path_attr.is_some() {
                "mod #[path]"
            } else {
                "mod"
            },
            false,
            self.in_macro,
        ));
        self.load_file(child, &found, loading);
    }

    fn crate_root_res(&self, c: CrateId) -> Res {
        Res::Module(self.crates[c].root_mod)
    }

    fn binding_res(&mut self, b: &Binding) -> Vec<Res> {
        match b {
            Binding::Module(id) => vec![Res::Module(*id)],
            Binding::Def(f) => {
                // The defining crate is the module's; filled in by the caller.
                vec![Res::Def(f.clone(), usize::MAX)]
            }
            Binding::Crate(c) => vec![self.crate_root_res(*c)],
            Binding::External => vec![Res::External],
            Binding::Import(i) => self.resolve_import(*i),
        }
    }

    fn resolve_import(&mut self, i: usize) -> Vec<Res> {
        let (m, path, lc) = {
            let imp = &self.imports[i];
            (imp.module, imp.path.clone(), imp.leading_colon)
        };
        self.resolve_path(m, &path, lc)
    }

    /// Names visible in module `m` under `name`: its own bindings, else its glob imports', else
    /// (crate root) a `#[macro_export]`ed macro, else the same from `#[cfg(test)]` items.
    fn lookup(&mut self, m: ModId, name: &str) -> Vec<Res> {
        let key = (m, name.to_string());
        if let Some(r) = self.memo.get(&key) {
            return r.clone();
        }
        let krate = self.modules[m].krate;
        if self.stack.contains(&key) {
            // A path cannot go through the import being resolved: only the name's own items count
            // (`mod sleep; pub use sleep::sleep;`).
            self.cycle = true;
            let direct = self.modules[m].names.get(name).cloned().unwrap_or_default();
            return direct
                .iter()
                .filter_map(|b| match b {
                    Binding::Module(id) => Some(Res::Module(*id)),
                    Binding::Def(f) => Some(Res::Def(f.clone(), krate)),
                    Binding::Crate(c) => Some(self.crate_root_res(*c)),
                    _ => None,
                })
                .collect();
        }
        let outer_cycle = std::mem::replace(&mut self.cycle, false);
        self.stack.insert(key.clone());
        let mut out = self.lookup_in(m, name, false);
        if !out.iter().any(|r| !matches!(r, Res::Missing(_))) {
            let test = self.lookup_in(m, name, true);
            if !test.is_empty() {
                out = test;
            }
        }
        out.sort();
        out.dedup();
        self.stack.remove(&key);
        if !self.cycle {
            self.memo.insert(key, out.clone());
        }
        self.cycle |= outer_cycle;
        out
    }

    fn lookup_in(&mut self, m: ModId, name: &str, test: bool) -> Vec<Res> {
        let krate = self.modules[m].krate;
        let module = &self.modules[m];
        let (bindings, globs) = if test {
            (module.test_names.get(name), module.test_globs.clone())
        } else {
            (module.names.get(name), module.globs.clone())
        };
        let bindings = bindings.cloned().unwrap_or_default();
        let mut out: Vec<Res> = Vec::new();
        for b in &bindings {
            for r in self.binding_res(b) {
                out.push(match r {
                    Res::Def(f, usize::MAX) => Res::Def(f, krate),
                    r => r,
                });
            }
        }
        if out.iter().any(|r| !matches!(r, Res::Missing(_))) {
            return out;
        }
        let mut via_glob = Vec::new();
        let mut external_glob = false;
        for g in globs {
            for target in self.resolve_import(g) {
                match target {
                    Res::Module(t) if t != m => {
                        via_glob.extend(
                            self.lookup(t, name)
                                .into_iter()
                                .filter(|r| !matches!(r, Res::Missing(_))),
                        );
                    }
                    Res::External => external_glob = true,
                    _ => {}
                }
            }
        }
        if !via_glob.is_empty() {
            return via_glob;
        }
        if external_glob && bindings.is_empty() {
            return vec![Res::External];
        }
        if !test && self.modules[m].parent.is_none() && !self.modules[m].inline {
            // `#[macro_export]` put a macro at the crate root, possibly from inside another
            // macro's expansion (`doc! { macro_rules! join { … } }`): any macro_rules of that
            // name in the crate.
            if let Some(files) = self.macro_defs.get(&(krate, name.to_string())) {
                out.extend(files.iter().map(|f| Res::Def(f.clone(), krate)));
            }
        }
        out
    }

    fn resolve_path(&mut self, m: ModId, path: &[String], leading_colon: bool) -> Vec<Res> {
        let krate = self.modules[m].krate;
        let edition = self.crates[krate].edition.clone();
        let Some(first) = path.first() else {
            return vec![Res::Module(m)];
        };
        let mut rest = &path[1..];
        let mut cur: Vec<Res> = if leading_colon && edition != "2015" {
            match self.crates[krate].prelude.get(first).cloned() {
                Some(Some(c)) => vec![self.crate_root_res(c)],
                _ => vec![Res::External],
            }
        } else {
            match first.as_str() {
                "crate" | "$crate" => vec![self.crate_root_res(krate)],
                "self" => vec![Res::Module(m)],
                "super" => {
                    let mut cur = self.modules[m].parent;
                    while let Some(("super", tail)) =
                        rest.split_first().map(|(h, t)| (h.as_str(), t))
                    {
                        cur = cur.and_then(|c| self.modules[c].parent);
                        rest = tail;
                    }
                    match cur {
                        Some(c) => vec![Res::Module(c)],
                        None => return vec![Res::External],
                    }
                }
                name => {
                    let scope = if edition == "2015" || leading_colon {
                        self.crates[krate].root_mod
                    } else {
                        m
                    };
                    let mut local: Vec<Res> = self
                        .lookup(scope, name)
                        .into_iter()
                        .filter(|r| !matches!(r, Res::Missing(_)))
                        .collect();
                    // `External` with no binding of the name here comes from a glob import of an
                    // external module (`use std::io::prelude::*;`). Such a module cannot be read,
                    // but it does not export a project crate's name: the extern prelude has it.
                    let unbound = !self.modules[scope].names.contains_key(name);
                    let project_crate =
                        matches!(self.crates[krate].prelude.get(name), Some(Some(_)));
                    if unbound && project_crate && local == [Res::External] {
                        local.clear();
                    }
                    if !local.is_empty() {
                        local
                    } else {
                        match self.crates[krate].prelude.get(name).cloned() {
                            Some(Some(c)) => vec![self.crate_root_res(c)],
                            Some(None) => vec![Res::External],
                            None => {
                                if !matches!(name, "std" | "core" | "alloc" | "proc_macro" | "test")
                                {
                                    self.bump("unknown_first_segment");
                                    let f = self.modules[m].file.clone();
                                    let e = self.unknown_first.entry(name.to_string()).or_default();
                                    if e.len() < 3 {
                                        e.push(f);
                                    }
                                }
                                vec![Res::External]
                            }
                        }
                    }
                }
            }
        };
        for (i, seg) in rest.iter().enumerate() {
            let last = i + 1 == rest.len();
            let _ = last;
            // Continue through modules when there are any (types and values share names).
            if cur.iter().any(|r| matches!(r, Res::Module(_))) {
                cur.retain(|r| matches!(r, Res::Module(_)));
            }
            let mut next = Vec::new();
            for r in cur {
                match r {
                    Res::Module(id) => {
                        let found = self.lookup(id, seg);
                        if found.is_empty() {
                            next.push(Res::Missing(id));
                        } else {
                            next.extend(found);
                        }
                    }
                    other => next.push(other),
                }
            }
            next.sort();
            next.dedup();
            if next.iter().any(|r| !matches!(r, Res::Missing(_))) {
                next.retain(|r| !matches!(r, Res::Missing(_)));
            }
            cur = next;
        }
        cur
    }

    /// The file of the deepest module a `use` path names through `mod` declarations alone (no
    /// re-exports): where a resolver that does not follow `pub use` would stop.
    fn naive_file(&self, m: ModId, path: &[String], leading_colon: bool) -> Option<String> {
        let krate = self.modules[m].krate;
        let module_child = |cur: ModId, seg: &str| {
            self.modules[cur].names.get(seg).and_then(|bs| {
                bs.iter().find_map(|b| match b {
                    Binding::Module(id) => Some(*id),
                    _ => None,
                })
            })
        };
        let (first, rest) = path.split_first()?;
        let mut rest = rest;
        let mut cur = match first.as_str() {
            "crate" | "$crate" if !leading_colon => self.crates[krate].root_mod,
            "self" if !leading_colon => m,
            "super" if !leading_colon => {
                let mut c = self.modules[m].parent?;
                while let Some((h, t)) = rest.split_first() {
                    if h != "super" {
                        break;
                    }
                    c = self.modules[c].parent?;
                    rest = t;
                }
                c
            }
            name => match (leading_colon, module_child(m, name)) {
                (false, Some(id)) => id,
                _ => match self.crates[krate].prelude.get(name) {
                    Some(Some(c)) => self.crates[*c].root_mod,
                    _ => return None,
                },
            },
        };
        for seg in rest {
            match module_child(cur, seg) {
                Some(id) => cur = id,
                None => break,
            }
        }
        Some(self.module_file(cur))
    }

    fn module_file(&self, id: ModId) -> String {
        self.modules[id].file.clone()
    }
}

fn cargo_metadata(manifest: &Path) -> Result<Value, String> {
    let out = Command::new("cargo")
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
            "--manifest-path",
        ])
        .arg(manifest)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    serde_json::from_slice(&out.stdout).map_err(|e| e.to_string())
}

fn git_files(root: &Path) -> Vec<String> {
    let out = Command::new("git")
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .current_dir(root)
        .output()
        .expect("git ls-files");
    out.stdout
        .split(|b| *b == 0)
        .filter(|s| !s.is_empty())
        .map(|s| String::from_utf8_lossy(s).to_string())
        .collect()
}

fn main() {
    let root = std::env::args()
        .skip(1)
        .find(|a| !a.starts_with("--"))
        .expect("usage: rust-truth REPO");
    let root = std::fs::canonicalize(root).expect("repo");
    let all_files = git_files(&root);
    // Every package, from every workspace or stand-alone manifest in the repository.
    let mut packages: BTreeMap<PathBuf, Value> = BTreeMap::new();
    let mut metadata_errors = BTreeMap::new();
    let mut manifests: Vec<&String> = all_files
        .iter()
        .filter(|f| f.ends_with("Cargo.toml"))
        .collect();
    manifests.sort_by_key(|f| (f.matches('/').count(), f.to_string()));
    for m in manifests {
        let path = normalize(&root.join(m));
        if packages.contains_key(&path) {
            continue;
        }
        match cargo_metadata(&path) {
            Ok(meta) => {
                for p in meta["packages"].as_array().cloned().unwrap_or_default() {
                    let mp = normalize(Path::new(p["manifest_path"].as_str().unwrap_or("")));
                    packages.entry(mp).or_insert(p);
                }
            }
            Err(e) => {
                metadata_errors.insert(m.clone(), e);
            }
        }
    }
    let mut g = Graph {
        root: root.clone(),
        crates: Vec::new(),
        modules: Vec::new(),
        imports: Vec::new(),
        leaves: Vec::new(),
        direct: Vec::new(),
        unparsed: BTreeMap::new(),
        files: BTreeMap::new(),
        memo: HashMap::new(),
        stack: HashSet::new(),
        cycle: false,
        stats: BTreeMap::new(),
        unknown_first: BTreeMap::new(),
        macro_defs: HashMap::new(),
        test_binding: false,
        in_macro: false,
    };
    // Crates: one per target. Libraries first, so preludes can point at them.
    let mut lib_of: HashMap<PathBuf, CrateId> = HashMap::new();
    let mut lib_name_of: HashMap<PathBuf, String> = HashMap::new();
    let mut pending: Vec<(PathBuf, CrateId, Value)> = Vec::new();
    for (manifest, p) in &packages {
        let dir = manifest.parent().map(Path::to_path_buf).unwrap_or_default();
        let package = p["name"].as_str().unwrap_or("").to_string();
        let edition = p["edition"].as_str().unwrap_or("2015").to_string();
        for t in p["targets"].as_array().cloned().unwrap_or_default() {
            let kinds: Vec<String> = t["kind"]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .filter_map(|k| k.as_str().map(str::to_string))
                .collect();
            let kind = match kinds.first().map(String::as_str) {
                Some("bin") => "bin",
                Some("test") => "test",
                Some("bench") => "bench",
                Some("example") => "example",
                Some("custom-build") => "custom-build",
                _ => "lib",
            }
            .to_string();
            let src = normalize(Path::new(t["src_path"].as_str().unwrap_or("")));
            let edition = t["edition"].as_str().unwrap_or(&edition).to_string();
            let id = g.crates.len();
            g.crates.push(Crate {
                package: package.clone(),
                name: t["name"].as_str().unwrap_or("").to_string(),
                kind: kind.clone(),
                edition,
                root_file: rel(&root, &src),
                root_mod: usize::MAX,
                prelude: HashMap::new(),
            });
            if kind == "lib" {
                lib_of.insert(dir.clone(), id);
                lib_name_of.insert(
                    dir.clone(),
                    t["name"].as_str().unwrap_or("").replace('-', "_"),
                );
            }
            pending.push((dir.clone(), id, p.clone()));
        }
    }
    for (dir, id, p) in &pending {
        let kind = g.crates[*id].kind.clone();
        let mut prelude = HashMap::new();
        for d in p["dependencies"].as_array().cloned().unwrap_or_default() {
            let dep_kind = d["kind"].as_str().unwrap_or("normal");
            let applies = match dep_kind {
                // Dev-dependencies: tests, benches, examples, and a library's cfg(test) code.
                "dev" => kind != "custom-build" && kind != "bin",
                "build" => kind == "custom-build",
                _ => kind != "custom-build",
            };
            if !applies {
                continue;
            }
            let target = d["path"]
                .as_str()
                .map(|pth| normalize(Path::new(pth)))
                .and_then(|pth| lib_of.get(&pth).copied());
            let name = match d["rename"].as_str() {
                Some(r) => r.replace('-', "_"),
                None => match d["path"]
                    .as_str()
                    .and_then(|pth| lib_name_of.get(&normalize(Path::new(pth))))
                {
                    Some(n) => n.clone(),
                    None => d["name"].as_str().unwrap_or("").replace('-', "_"),
                },
            };
            prelude.insert(name, target);
        }
        if matches!(kind.as_str(), "bin" | "test" | "bench" | "example") {
            if let (Some(l), Some(n)) = (lib_of.get(dir), lib_name_of.get(dir)) {
                prelude.insert(n.clone(), Some(*l));
            }
        }
        g.crates[*id].prelude = prelude;
    }
    // Module trees.
    for id in 0..g.crates.len() {
        let root_file = g.crates[id].root_file.clone();
        let abs = root.join(&root_file);
        let dir = abs.parent().map(Path::to_path_buf).unwrap_or_default();
        let m = g.new_module(id, None, root_file.clone(), dir, false);
        g.crates[id].root_mod = m;
    }
    for id in 0..g.crates.len() {
        let abs = root.join(&g.crates[id].root_file);
        let m = g.crates[id].root_mod;
        if !abs.is_file() {
            continue;
        }
        g.load_file(m, &abs, &mut Vec::new());
    }
    // Edges.
    let mut edges: BTreeMap<String, BTreeMap<String, EdgeInfo>> = BTreeMap::new();
    let mut test_edges = 0usize;
    let direct = std::mem::take(&mut g.direct);
    let mut test_only: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut naive: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to, test, line, kind, cross, in_macro) in direct {
        if test {
            test_edges += 1;
            test_only.entry(from).or_default().insert(to);
            continue;
        }
        if from == to {
            continue;
        }
        let e = edges
            .entry(from)
            .or_default()
            .entry(to)
            .or_insert_with(|| EdgeInfo {
                in_macro: true,
                ..Default::default()
            });
        e.in_macro &= in_macro;
        e.kinds.insert(kind.to_string());
        e.cross_crate |= cross;
        e.lines.insert(line);
    }
    let leaves = std::mem::take(&mut g.leaves);
    let mut unresolved_examples: Vec<String> = Vec::new();
    for leaf in &leaves {
        let m = g.imports[leaf.import].module;
        let krate = g.modules[m].krate;
        let (path, lc) = (
            g.imports[leaf.import].path.clone(),
            g.imports[leaf.import].leading_colon,
        );
        g.cycle = false;
        let res = g.resolve_path(m, &path, lc);
        if leaf.test {
            test_edges += 1;
            for r in res {
                let to = match r {
                    Res::Module(id) | Res::Missing(id) => g.module_file(id),
                    Res::Def(f, _) => f,
                    Res::External => continue,
                };
                test_only.entry(leaf.file.clone()).or_default().insert(to);
            }
            continue;
        }
        if let Some(f) = g.naive_file(m, &path, lc) {
            naive.entry(leaf.file.clone()).or_default().insert(f);
        }
        for r in res {
            let (to, to_crate, fallback) = match r {
                Res::Module(id) => (g.module_file(id), g.modules[id].krate, false),
                Res::Def(f, c) => (f, c, false),
                Res::Missing(id) => {
                    if unresolved_examples.len() < 50 {
                        unresolved_examples.push(format!(
                            "{}:{} {}{}",
                            leaf.file,
                            leaf.line,
                            path.join("::"),
                            if leaf.glob { "::*" } else { "" }
                        ));
                    }
                    g.bump("fallback_to_module_file");
                    (g.module_file(id), g.modules[id].krate, true)
                }
                Res::External => continue,
            };
            if to == leaf.file {
                continue;
            }
            let cross = to_crate != krate;
            let e = edges
                .entry(leaf.file.clone())
                .or_default()
                .entry(to)
                .or_insert_with(|| EdgeInfo {
                    fallback: true,
                    in_macro: true,
                    ..Default::default()
                });
            e.in_macro &= leaf.in_macro;
            e.kinds
                .insert(if leaf.glob { "glob" } else { "use" }.to_string());
            e.cross_crate |= cross;
            e.fallback &= fallback;
            e.lines.insert(leaf.line);
        }
    }
    for e in edges.values_mut().flat_map(|m| m.values_mut()) {
        if e.kinds
            .iter()
            .any(|k| k.starts_with("mod") || k == "extern")
        {
            e.fallback = false;
        }
    }
    let in_tree: BTreeSet<&String> = g.files.keys().collect();
    let orphans: Vec<&String> = all_files
        .iter()
        .filter(|f| f.ends_with(".rs") && !in_tree.contains(f))
        .collect();
    let files: serde_json::Map<String, Value> = g
        .files
        .iter()
        .map(|(f, pkgs)| {
            let deps: serde_json::Map<String, Value> = edges
                .get(f)
                .map(|m| {
                    m.iter()
                        .map(|(to, e)| {
                            (
                                to.clone(),
                                json!({
                                    "kinds": e.kinds,
                                    "cross_crate": e.cross_crate,
                                    "fallback": e.fallback,
                                    "in_macro": e.in_macro,
                                    "lines": e.lines,
                                }),
                            )
                        })
                        .collect()
                })
                .unwrap_or_default();
            let mut entry = json!({"crates": pkgs, "deps": deps});
            if let Some(t) = test_only.get(f) {
                entry["test_only"] = json!(t);
            }
            if let Some(n) = naive.get(f) {
                entry["module_path_targets"] = json!(n);
            }
            (f.clone(), entry)
        })
        .collect();
    let mut stats = g.stats.clone();
    stats.insert("test_only_leaves_skipped".into(), test_edges);
    stats.insert("crates".into(), g.crates.len());
    stats.insert("modules".into(), g.modules.len());
    let crates: Vec<Value> = g
        .crates
        .iter()
        .map(|c| json!({"package": c.package, "kind": c.kind, "name": c.name, "root": c.root_file, "edition": c.edition}))
        .collect();
    let out = json!({
        "language": "rust",
        "files": files,
        "unparsed": g.unparsed,
        "orphans": orphans,
        "metadata_errors": metadata_errors,
        "crates": crates,
        "stats": stats,
        "fallback_examples": unresolved_examples,
        "unknown_first_segments": g.unknown_first,
    });
    println!("{}", serde_json::to_string_pretty(&out).expect("json"));
}
