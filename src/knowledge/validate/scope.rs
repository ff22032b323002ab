//! `code-out-of-scope`: code of the project's packages — Cargo workspace members, npm/yarn/pnpm
//! workspace packages, Python package roots — that `scope_root` leaves out, so that agents cannot
//! find it in the library (`workspace::coverage`). One finding on `.lexibrary/config.yaml` saying
//! how much and whose; `lexictl setup --update` adds the missing roots.

use super::{Issue, Severity};
use crate::project::{CONFIG_FILE, LIBRARY_DIR};
use crate::workspace::coverage::Packages;
use crate::workspace::Workspace;

/// The finding, when some of the packages' code is out of scope.
pub fn check(ws: &Workspace) -> Vec<Issue> {
    let Ok(scope) = ws.scope() else {
        return Vec::new();
    };
    let project = ws.project();
    let uncovered = Packages::read(&project.root, &project.config).uncovered(scope);
    let Some(summary) = uncovered.summary() else {
        return Vec::new();
    };
    let roots: Vec<String> = uncovered
        .missing_roots
        .iter()
        .map(|root| {
            if root.is_empty() {
                ".".to_string()
            } else if project.root.join(root).is_file() {
                root.clone()
            } else {
                format!("{root}/")
            }
        })
        .collect();
    vec![Issue {
        check: "code-out-of-scope",
        severity: Severity::Warning,
        file: format!("{LIBRARY_DIR}/{CONFIG_FILE}"),
        line: None,
        message: format!("{summary}: they get no design file"),
        hint: format!(
            "`lexictl setup --update` adds {} to scope_root; code left out on purpose goes in .lexignore",
            roots.join(", ")
        ),
    }]
}
