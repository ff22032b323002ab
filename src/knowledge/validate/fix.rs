//! What `lexictl validate --fix` may do about the findings: only what the tool can do itself from
//! its own data, never touching what an agent or a human wrote. This module only says *what*; the
//! engine does it (`engine::update`, `engine::repair`, `engine::votes`), driven by the CLI.
//!
//! | check | fix |
//! |---|---|
//! | `stale-source`, `stale-interface` | `lexictl update <source>`: the Archivist rewrites its own sections; an agent's file gets fresh footer hashes only |
//! | `aindex-missing-child`, `aindex-unknown-child` | `lexictl update <dir>`: the Child Map is regenerated |
//! | `dependents-gap` | the missing entries are added to the Dependents list (machine data, also in an agent's file) |
//! | `stack-votes-mismatch` | the counts are set from their complete history |
//! | `missing-provenance` | an event is recorded from the footer (`recovered`) |
//!
//! Everything else (`stale-contract` included: only the agent can rewrite its contract) is left for
//! a person or an agent.

use std::collections::BTreeMap;

use super::Issue;
use crate::project::mirror::source_for_design;
use crate::project::LIBRARY_DIR;

/// The repairs the findings call for, grouped.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fixes {
    /// Project-relative sources (or directories) to run `lexictl update` on, sorted.
    pub update: Vec<String>,
    /// Dependents to add, by the source whose design file lacks them.
    pub dependents: BTreeMap<String, Vec<String>>,
    /// Whether vote counts are to be set from their history.
    pub votes: bool,
    /// Sources whose design file's provenance is to be recorded from its footer.
    pub provenance: Vec<String>,
}

impl Fixes {
    pub fn is_empty(&self) -> bool {
        self.update.is_empty()
            && self.dependents.is_empty()
            && !self.votes
            && self.provenance.is_empty()
    }
}

/// Whether `--fix` can repair findings of `check`.
pub fn fixable(check: &str) -> bool {
    matches!(
        check,
        "stale-source"
            | "stale-interface"
            | "aindex-missing-child"
            | "aindex-unknown-child"
            | "dependents-gap"
            | "stack-votes-mismatch"
            | "missing-provenance"
    )
}

/// The repairs for `issues` (the ones [`fixable`] says the tool can make).
pub fn fixes(issues: &[Issue]) -> Fixes {
    let mut fixes = Fixes::default();
    for issue in issues {
        let source = source_for_design(&issue.file).map(str::to_string);
        match (issue.check, source) {
            ("stale-source" | "stale-interface", Some(source)) => fixes.update.push(source),
            ("aindex-missing-child" | "aindex-unknown-child", _) => {
                fixes.update.push(indexed_dir(&issue.file));
            }
            ("dependents-gap", Some(dependency)) => {
                if let Some((dependent, _)) = issue.message.split_once(" depends on ") {
                    fixes
                        .dependents
                        .entry(dependency)
                        .or_default()
                        .push(dependent.to_string());
                }
            }
            ("stack-votes-mismatch", _) => fixes.votes = true,
            ("missing-provenance", Some(source)) => fixes.provenance.push(source),
            _ => {}
        }
    }
    fixes.update.sort();
    fixes.update.dedup();
    fixes
        .provenance
        .retain(|source| !fixes.update.contains(source));
    fixes
}

/// The project directory an `.aindex` path (`.lexibrary/<dir>/.aindex`) indexes (`""`: the root).
fn indexed_dir(file: &str) -> String {
    file.strip_prefix(&format!("{LIBRARY_DIR}/"))
        .unwrap_or(file)
        .trim_end_matches(".aindex")
        .trim_end_matches('/')
        .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::validate::Severity;

    fn issue(check: &'static str, file: &str, message: &str) -> Issue {
        Issue {
            check,
            severity: Severity::Warning,
            file: file.to_string(),
            line: None,
            message: message.to_string(),
            hint: String::new(),
        }
    }

    #[test]
    fn each_fixable_finding_becomes_its_repair() {
        let fixes = fixes(&[
            issue("stale-source", ".lexibrary/src/a.rs.md", ""),
            issue("stale-interface", ".lexibrary/src/a.rs.md", ""),
            issue("aindex-missing-child", ".lexibrary/src/.aindex", ""),
            issue(
                "dependents-gap",
                ".lexibrary/src/b.rs.md",
                "src/c.rs depends on src/b.rs, but src/b.rs's Dependents does not list it",
            ),
            issue("stack-votes-mismatch", ".lexibrary/stack/ST-001-x.md", ""),
            issue("missing-provenance", ".lexibrary/src/d.rs.md", ""),
            issue("stale-contract", ".lexibrary/src/e.rs.md", ""),
        ]);
        assert_eq!(fixes.update, ["src", "src/a.rs"]);
        assert_eq!(fixes.dependents["src/b.rs"], ["src/c.rs"]);
        assert!(fixes.votes);
        assert_eq!(fixes.provenance, ["src/d.rs"]);
        assert!(!fixable("stale-contract") && fixable("dependents-gap"));
    }
}
