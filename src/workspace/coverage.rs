//! How much of the project's code the scope covers: the packages the manifests declare
//! (`source::model::packages`) against `scope_root`. `lexictl init` documents every package's code
//! and tests; `lexictl setup --update` adds the roots an older scope leaves out; `lexictl status`
//! and `lexictl validate` say how much code is out of scope, and whose.
//!
//! Read from a walk of the tree through every ignore layer (a file ignored on purpose is no
//! missing code) and the manifests, as the update's plan reads them.

use std::path::Path;

use crate::project::config::Config;
use crate::project::scope::Scope;
use crate::project::walk::{self, EntryKind};
use crate::source::model::files::FileIndex;
use crate::source::model::packages::{self, CodePackage};
use crate::source::model::ProjectModel;

/// The project's packages and its files.
pub struct Packages {
    pub packages: Vec<CodePackage>,
    pub files: FileIndex,
}

impl Packages {
    /// Walk the project at `root` (with `config`'s ignore layers) and read its manifests.
    pub fn read(root: &Path, config: &Config) -> Packages {
        let walk = walk::walk_project(root, config);
        let files = FileIndex::new(
            walk.entries
                .into_iter()
                .filter(|entry| entry.kind == EntryKind::File)
                .map(|entry| entry.rel),
        );
        let read = |rel: &str| crate::nofollow::read_to_string(root, rel).ok();
        let (model, _) = ProjectModel::build(&files, &read);
        Packages {
            packages: model.code_packages(&files),
            files,
        }
    }

    /// The scope roots that put every package's code and tests in scope (`""`: the whole
    /// project); empty when the project declares no package.
    pub fn scope_roots(&self) -> Vec<String> {
        packages::scope_roots(&self.packages, &self.files)
    }

    /// What `scope` leaves out of the packages' code.
    pub fn uncovered(&self, scope: &Scope) -> Uncovered {
        let left = packages::code_out_of_scope(&self.packages, self.files.under(""), &|file| {
            scope.contains(file)
        });
        let mut by_package: Vec<(String, usize)> = Vec::new();
        for (_, package) in &left {
            match by_package
                .iter_mut()
                .find(|(name, _)| *name == package.name)
            {
                Some((_, count)) => *count += 1,
                None => by_package.push((package.name.clone(), 1)),
            }
        }
        by_package.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        let total = self
            .files
            .under("")
            .filter(|file| {
                self.packages.iter().any(|package| {
                    package
                        .roots
                        .iter()
                        .any(|root| crate::source::model::files::is_within(file, root))
                }) && crate::source::Language::from_path(Path::new(file)).is_some()
                    && !packages::is_test_data(crate::source::model::files::dir_of(file))
            })
            .count();
        let missing: Vec<String> = self
            .scope_roots()
            .into_iter()
            .filter(|root| {
                left.iter()
                    .any(|(file, _)| crate::source::model::files::is_within(file, root))
            })
            .collect();
        Uncovered {
            files: left.len(),
            total,
            packages: by_package,
            missing_roots: missing,
        }
    }
}

/// The packages' code a scope leaves out.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Uncovered {
    /// Code files of the packages outside every scope root.
    pub files: usize,
    /// Code files of the packages in all.
    pub total: usize,
    /// The packages they belong to, with how many each, most first.
    pub packages: Vec<(String, usize)>,
    /// The roots `lexictl setup --update` would add (`""`: the whole project).
    pub missing_roots: Vec<String>,
}

impl Uncovered {
    /// Whether every package's code is in scope.
    pub fn is_empty(&self) -> bool {
        self.files == 0
    }

    /// "137 of 331 code files of the project's packages are out of scope (clap_builder 92,
    /// clap_derive 20, …)", or `None` when none is.
    pub fn summary(&self) -> Option<String> {
        if self.is_empty() {
            return None;
        }
        let shown: Vec<String> = self
            .packages
            .iter()
            .take(4)
            .map(|(name, count)| format!("{name} {count}"))
            .collect();
        let more = if self.packages.len() > 4 { ", …" } else { "" };
        Some(format!(
            "{} of {} code files of the project's packages are out of scope ({}{more})",
            self.files,
            self.total,
            shown.join(", ")
        ))
    }
}
