//! Resolution of a file's imports to project files, the way each language's own tools resolve
//! them: Rust through Cargo's packages and targets and the module tree, following `use`
//! re-exports to the file that defines the item ([`rust`]); Python through the package roots,
//! never shadowing the standard library ([`python`]); JavaScript and TypeScript through relative
//! paths, package.json `exports`/`imports`, workspaces and tsconfig `paths` ([`js`]); Java through
//! its source roots, single-type and on-demand imports and the file's own package ([`java`]).
//!
//! Resolution is a pure function of the file's [`Interface`], the [`ProjectModel`], an existence
//! oracle and — for Rust re-exports — the interfaces of the module files a path goes through.
//! External crates and packages are not project files: they resolve to nothing, silently (a caller
//! may list them: [`Resolution::unresolved`]); those that name a package from outside the project
//! are named in [`Resolution::externals`] ([`externals`]: npm packages, Python distributions'
//! top-level modules, Cargo dependencies).

mod externals;

use std::collections::BTreeSet;
use std::sync::Arc;

use super::interface::Interface;
use super::model::ProjectModel;

/// What resolving one file needs from its surroundings.
pub struct Context<'a> {
    pub model: &'a ProjectModel,
    /// Whether a project-relative path is a project file.
    pub exists: &'a (dyn Fn(&str) -> bool + Sync),
    /// The interface of another project file (for Rust: the module files a path goes through);
    /// `None` when it is not code or cannot be read.
    pub interface_of: &'a (dyn Fn(&str) -> Option<Arc<Interface>> + Sync),
    /// Rust: the file that defines the `#[macro_export]` macro `name` of the crate whose root is
    /// `root` (such macros live at the crate root, whatever module defines them).
    pub exported_macro: &'a (dyn Fn(&str, &str) -> Option<String> + Sync),
}

/// One file's resolved imports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resolution {
    /// The project files it depends on: sorted, deduplicated, never the file itself.
    pub deps: Vec<String>,
    /// Module files a path went through on its way to the file that defines what it names (Rust
    /// re-exports): when one of them changes, the file is resolved again.
    pub via: Vec<String>,
    /// Import specs that name no project file (external crates and packages, the standard
    /// library, typos), in source order.
    pub unresolved: Vec<String>,
    /// The external packages among them, by package name: sorted, deduplicated.
    pub externals: Vec<String>,
    /// The deps imported only for the type checker (Python `if TYPE_CHECKING:`, TypeScript
    /// `import type`, JSDoc types), never at run time: sorted, a subset of `deps`.
    pub type_only: Vec<String>,
}

/// Resolve `file`'s imports (`file` is project-relative, `/`-separated).
pub fn resolve(file: &str, interface: &Interface, context: &Context<'_>) -> Resolution {
    let mut collected = Collected::default();
    interface
        .language
        .walks()
        .resolve(file, interface, context, &mut collected);
    collected.deps.remove(file);
    collected.via.remove(file);
    let externals = externals::externals(file, interface.language, &collected.unresolved, context);
    let type_only = collected
        .typed
        .iter()
        .filter(|dep| *dep != file && !collected.runtime.contains(*dep))
        .cloned()
        .collect();
    Resolution {
        deps: collected.deps.into_iter().collect(),
        via: collected.via.into_iter().collect(),
        unresolved: collected.unresolved,
        externals,
        type_only,
    }
}

/// What the language resolvers accumulate.
#[derive(Default)]
pub(crate) struct Collected {
    pub(crate) deps: BTreeSet<String>,
    pub(crate) via: BTreeSet<String>,
    pub(crate) unresolved: Vec<String>,
    /// Deps some import needs at run time.
    pub(crate) runtime: BTreeSet<String>,
    /// Deps some type-only import names.
    pub(crate) typed: BTreeSet<String>,
}

impl Collected {
    /// Record the outcome of one import spec needed at run time.
    pub(crate) fn record(&mut self, spec: &str, found: Option<String>) {
        self.record_import(spec, found, false);
    }

    /// Record the outcome of one import spec, needed only by the type checker when `type_only`.
    pub(crate) fn record_import(&mut self, spec: &str, found: Option<String>, type_only: bool) {
        match found {
            Some(path) => {
                match type_only {
                    true => self.typed.insert(path.clone()),
                    false => self.runtime.insert(path.clone()),
                };
                self.deps.insert(path);
            }
            None => {
                if !self.unresolved.iter().any(|known| known == spec) {
                    self.unresolved.push(spec.to_string());
                }
            }
        }
    }
}

#[cfg(test)]
pub(crate) mod testing {
    //! A project of files (with texts) for resolver tests: the model is built from its manifests.

    use std::collections::BTreeMap;
    use std::sync::Arc;

    use super::{resolve, Context, Resolution};
    use crate::source::model::files::FileIndex;
    use crate::source::model::ProjectModel;
    use crate::source::{extract, Interface, Language};

    pub struct Files {
        texts: BTreeMap<String, String>,
        pub model: ProjectModel,
    }

    impl Files {
        pub fn new(files: &[(&str, &str)]) -> Files {
            let texts: BTreeMap<String, String> = files
                .iter()
                .map(|(path, text)| (path.to_string(), text.to_string()))
                .collect();
            let index = FileIndex::new(texts.keys().cloned());
            let read = |rel: &str| texts.get(rel).cloned();
            let (model, warnings) = ProjectModel::build(&index, &read);
            assert!(warnings.is_empty(), "{warnings:?}");
            Files { texts, model }
        }

        fn interface(&self, rel: &str) -> Option<Interface> {
            let language = Language::from_path(std::path::Path::new(rel))?;
            extract(language, self.texts.get(rel)?).ok()
        }

        /// Resolve the file at `rel` (whose text is among the files).
        pub fn resolve(&self, rel: &str) -> Resolution {
            let interface = self.interface(rel).expect("a code file");
            let exists = |path: &str| self.texts.contains_key(path);
            let interface_of = |path: &str| self.interface(path).map(Arc::new);
            let exported_macro = |root: &str, name: &str| {
                let krate = self.model.cargo.target_of(root)?;
                self.texts
                    .keys()
                    .find(|path| {
                        path.ends_with(".rs")
                            && self.model.cargo.target_of(path).map(|t| &t.root)
                                == Some(&krate.root)
                            && self
                                .interface(path)
                                .is_some_and(|i| i.exported_macros().iter().any(|m| m == name))
                    })
                    .cloned()
            };
            let context = Context {
                model: &self.model,
                exists: &exists,
                interface_of: &interface_of,
                exported_macro: &exported_macro,
            };
            resolve(rel, &interface, &context)
        }

        pub fn deps(&self, rel: &str) -> Vec<String> {
            self.resolve(rel).deps
        }
    }
}
