//! Part of stage 1 (plan) for `--changed-only`: a submodule bump. The superproject's diff names only
//! the gitlink (`vendor/lib` moved from one commit to another), never the submodule's files, yet
//! when the submodule's files are in scope they have design files, which the bump may make stale.
//! So each gitlink that changed is looked into:
//!
//! - both commits in the submodule's own repository: its files changed between them (a tree diff in
//!   the submodule, renames included);
//! - otherwise (a new submodule, one not checked out, an old commit fetched away, a removed
//!   submodule): every file under its directory now, and every design file under its mirror.

use std::collections::BTreeSet;

use crate::git::{GitRepo, GitlinkChange};
use crate::project::scope::Scope;
use crate::project::walk::{self, EntryKind};
use crate::project::Project;
use crate::workspace::library::{walk as library_walk, Kind, Part};

/// The project-relative paths the changed gitlinks `links` touch. `to_project` maps a repository
/// path to a project-relative one (`None` outside the project).
pub fn touched(
    project: &Project,
    scope: &Scope,
    links: &[GitlinkChange],
    to_project: &dyn Fn(&str) -> Option<String>,
) -> BTreeSet<String> {
    let mut touched = BTreeSet::new();
    for link in links {
        let Some(dir) = to_project(&link.path) else {
            continue;
        };
        if !in_scope(scope, &dir) {
            continue;
        }
        match changed_inside(project, &dir, link) {
            Some(paths) => touched.extend(paths),
            None => {
                touched.extend(files_under(project, &dir));
                touched.extend(documented_under(project, &dir));
            }
        }
    }
    touched
}

/// Whether some file under `dir` gets a design file.
fn in_scope(scope: &Scope, dir: &str) -> bool {
    scope.contains(&format!("{dir}/x"))
        || scope
            .roots()
            .iter()
            .any(|root| root.starts_with(&format!("{dir}/")))
}

/// The files of the submodule at `dir` that changed between the gitlink's two commits, when both
/// are in the submodule's repository (checked out at `dir`).
fn changed_inside(project: &Project, dir: &str, link: &GitlinkChange) -> Option<Vec<String>> {
    let (from, to) = (link.from.as_ref()?, link.to.as_ref()?);
    let abs = project.abs(dir);
    let submodule = GitRepo::discover(&abs).ok()??;
    let same_dir = |a: &std::path::Path, b: &std::path::Path| {
        a.canonicalize()
            .ok()
            .is_some_and(|a| Some(a) == b.canonicalize().ok())
    };
    if !same_dir(submodule.workdir(), &abs)
        || !submodule.has_commit(from)
        || !submodule.has_commit(to)
    {
        return None;
    }
    let changes = submodule.diff_commits(Some(from), to).ok()?;
    let mut paths = Vec::new();
    for change in changes {
        if let crate::git::Change::Renamed { from, .. } = &change {
            paths.push(format!("{dir}/{from}"));
        }
        paths.push(format!("{dir}/{}", change.path()));
    }
    Some(paths)
}

/// Every file under `dir` now, through the project's ignore layers.
fn files_under(project: &Project, dir: &str) -> Vec<String> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_string()];
    while let Some(current) = pending.pop() {
        for entry in walk::list_dir(&project.root, &project.config, &current).entries {
            match entry.kind {
                EntryKind::File => files.push(entry.rel),
                EntryKind::Dir => pending.push(entry.rel),
            }
        }
    }
    files
}

/// The sources of the design files under `dir`'s mirror (a removed submodule's files are gone; their
/// design files tell which they were).
fn documented_under(project: &Project, dir: &str) -> Vec<String> {
    let part = Part {
        under: dir,
        max_depth: None,
        mirror_only: true,
        named: None,
    };
    library_walk(&project.library_dir(), part)
        .files
        .into_iter()
        .filter_map(|entry| match entry.kind {
            Kind::Design { source } => Some(source),
            _ => None,
        })
        .collect()
}
