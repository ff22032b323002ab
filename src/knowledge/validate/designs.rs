//! The design-file checks of `lexictl validate`: every design file parses, its wikilinks resolve,
//! the project files its Dependencies and Tests list exist, its source exists and still matches the
//! footer's hashes, an agent's Interface Contract was not left behind by the code
//! (`workspace::contract`), the Archivist did not flag it as over-scoped, and it fits its token
//! budget; and (info) every dependency's Dependents lists it back, and a text the Archivist wrote
//! has its provenance in the notes.

use std::collections::{HashMap, HashSet};
use std::path::Path;

use rayon::prelude::*;

use super::{budget, line_of, malformed, read_checked, Issue, Library, Severity};
use crate::git::notes::{blob_id, PROVENANCE_NOTES};
use crate::git::Oid;
use crate::hash::sha256_hex;
use crate::knowledge::corpus::{Doc, DocKind};
use crate::library::design_file::{is_unedited, sections, DesignFile, UpdatedBy};
use crate::library::footer::{self, Footer, OVER_SCOPED_KEY};
use crate::library::markdown::list_items;
use crate::project::{Project, LIBRARY_DIR};
use crate::workspace::contract::drift;

/// Check every design file, in parallel, then the Dependents they owe each other.
pub(super) fn check(library: &Library<'_>) -> Vec<Issue> {
    let budget = library.project.config.token_budgets.design_file_tokens as usize;
    let designs: Vec<&Doc> = library.corpus.of_kind(DocKind::Design).collect();
    let checked: Vec<(Vec<Issue>, Option<Graph>)> = designs
        .par_iter()
        .map(|doc| check_design(library, doc, budget))
        .collect();
    let mut issues = Vec::new();
    let mut graphs = Vec::new();
    for (found, graph) in checked {
        issues.extend(found);
        graphs.extend(graph);
    }
    issues.extend(dependents_gaps(&graphs));
    issues
}

/// A design file's source with its Dependencies and its Dependents, for the bidirectional check.
struct Graph {
    source: String,
    dependencies: Vec<String>,
    dependents: Vec<String>,
    /// The Dependents list is abridged ("… and N more"): what it leaves out is not a gap.
    dependents_capped: bool,
}

/// Bidirectional consistency (info): when A lists B, B's Dependents should list A.
fn dependents_gaps(graphs: &[Graph]) -> Vec<Issue> {
    let dependents: HashMap<&str, &[String]> = graphs
        .iter()
        .filter(|graph| !graph.dependents_capped)
        .map(|graph| (graph.source.as_str(), graph.dependents.as_slice()))
        .collect();
    let mut issues = Vec::new();
    for Graph {
        source,
        dependencies,
        ..
    } in graphs
    {
        for dep in dependencies {
            let Some(users) = dependents.get(dep.as_str()) else {
                continue;
            };
            if !users.contains(source) {
                issues.push(Issue {
                    check: "dependents-gap",
                    severity: Severity::Info,
                    file: format!("{LIBRARY_DIR}/{dep}.md"),
                    line: None,
                    message: format!(
                        "{source} depends on {dep}, but {dep}'s Dependents does not list it"
                    ),
                    hint: "run `lexictl update` to refresh Dependents".into(),
                });
            }
        }
    }
    issues
}

/// The findings of one design file and (when it parses) its dependency graph.
fn check_design(
    library: &Library<'_>,
    doc: &Doc,
    budget_tokens: usize,
) -> (Vec<Issue>, Option<Graph>) {
    let file = library.shown(&doc.path);
    let text = match read_checked(library.project, &file) {
        Ok(text) => text,
        Err(issue) => return (issue.into_iter().collect(), None),
    };
    let design = match DesignFile::parse(&file, &text) {
        Ok(design) => design,
        Err(err) => return (vec![malformed(&file, &err.to_string())], None),
    };
    let mut check = DesignCheck {
        project: library.project,
        library,
        file,
        text,
        issues: Vec::new(),
    };
    library.check_links(doc.links.iter(), &check.file, &mut check.issues);
    let graph = Graph {
        source: doc.name.clone(),
        dependencies: listed(&design, sections::DEPENDENCIES),
        dependents: listed(&design, sections::DEPENDENTS),
        dependents_capped: design
            .section(sections::DEPENDENTS)
            .is_some_and(|section| section.body.contains("… and ")),
    };
    let tests = listed(&design, sections::TESTS);
    check.listed_paths(
        "missing-dependency",
        sections::DEPENDENCIES,
        &graph.dependencies,
    );
    check.listed_paths("missing-test", sections::TESTS, &tests);
    check.source(&graph.source, design.footer.as_ref());
    check.after_footer();
    check.contract(&graph.source, &design);
    check.provenance(&graph.source, &design, library.provenance.as_ref());
    let content = footer::split(&check.text).0;
    budget(
        content,
        budget_tokens,
        &check.file,
        "design_file_tokens",
        &mut check.issues,
    );
    (check.issues, Some(graph))
}

/// An `invalid-path` error: `heading` of `file` lists `path`, which is not a path inside the project.
pub(super) fn invalid_path(file: &str, text: &str, heading: &str, path: &str) -> Issue {
    Issue {
        check: "invalid-path",
        severity: Severity::Error,
        file: file.to_string(),
        line: line_of(text, path),
        message: format!(
            "{heading} lists {path}, which is not a path inside the project (it was not looked up)"
        ),
        hint: "paths in the library are project-relative, without `..`: fix the entry, or run `lexictl update` to rewrite the section".into(),
    }
}

/// The entries of a list section, without backticks and without placeholders like `(none)`.
fn listed(design: &DesignFile, heading: &str) -> Vec<String> {
    let Some(section) = design.section(heading) else {
        return Vec::new();
    };
    list_items(&section.body)
        .into_iter()
        .map(|item| crate::archivist::structural::listed_path(&item).to_string())
        .filter(|item| !item.is_empty() && !item.starts_with('('))
        .collect()
}

/// One design file being checked: its path, its text and what was found so far.
struct DesignCheck<'a> {
    project: &'a Project,
    library: &'a Library<'a>,
    file: String,
    text: String,
    issues: Vec<Issue>,
}

impl DesignCheck<'_> {
    /// An error for each project path in `items` (the section `heading`) that does not exist.
    fn listed_paths(&mut self, check: &'static str, heading: &str, items: &[String]) {
        for item in items {
            // Only project paths are checked; package names (`serde`, `os`) are not files.
            if !item.contains('/') && !item.contains('.') {
                continue;
            }
            // A path may hold a space (Polly's `IssuesTests .OnRetryContext_2597.cs`); else the
            // words after the path are a note.
            let path = match self.library.path_exists(item) {
                Some(true) => item.as_str(),
                _ => item.split_whitespace().next().unwrap_or(item),
            };
            // A path that leaves the project is never looked up: whether `../../root/.ssh/id_rsa`
            // exists on the machine that runs the check is nobody's business.
            let Some(exists) = self.library.path_exists(path) else {
                self.issues
                    .push(invalid_path(&self.file, &self.text, heading, path));
                continue;
            };
            if !exists {
                self.issues.push(Issue {
                    check,
                    severity: Severity::Error,
                    file: self.file.clone(),
                    line: line_of(&self.text, path),
                    message: format!("{heading} lists {path}, which does not exist"),
                    hint: "run `lexictl update` to refresh the section, or fix the entry".into(),
                });
            }
        }
    }

    /// The documented source: it exists, it is what the footer's hashes say, it is not flagged.
    fn source(&mut self, source: &str, footer: Option<&Footer>) {
        if self.library.absent.has_file(source) {
            // Git keeps it out of this working tree, unchanged: nothing to compare.
            return;
        }
        let Ok(bytes) = self.project.read(source) else {
            self.issues.push(Issue {
                check: "missing-source",
                severity: Severity::Warning,
                file: self.file.clone(),
                line: None,
                message: format!("{source} does not exist"),
                hint: "run `lexictl update` (it removes design files of deleted sources unless they hold hand-written content)".into(),
            });
            return;
        };
        let Some(footer) = footer else {
            return;
        };
        if sha256_hex(&bytes) != footer.source_hash {
            self.stale(source, &bytes, footer);
        }
        if let Some(value) = footer.extra.get(OVER_SCOPED_KEY) {
            self.issues.push(Issue {
                check: "over-scoped",
                severity: Severity::Warning,
                file: self.file.clone(),
                line: Some(footer::footer_line(&self.text)),
                message: format!("{source}: the Archivist's description was {value} tokens; the file may do too much"),
                hint: "consider splitting the source file".into(),
            });
        }
    }

    /// Text written after the footer (where an agent appending to the file puts it): `lookup`
    /// shows it, and the next update moves it above the footer, byte for byte.
    fn after_footer(&mut self) {
        let (content, Some(block)) = footer::split(&self.text) else {
            return;
        };
        let trailing = footer::trailing_text(block);
        if trailing.trim().is_empty() {
            return;
        }
        let block_lines = block.len() - trailing.len();
        let line = footer::footer_line(content) + block[..block_lines].matches('\n').count();
        self.issues.push(Issue {
            check: "text-after-footer",
            severity: Severity::Warning,
            file: self.file.clone(),
            line: Some(line),
            message:
                "text after the footer: `lexi lookup` shows it, but it belongs above the footer"
                    .into(),
            hint: "run `lexictl update`: it moves the text above the footer, byte for byte".into(),
        });
    }

    /// A text the Archivist wrote (unedited, `updated_by: archivist`) without a provenance note,
    /// when this clone has provenance notes to compare with.
    fn provenance(&mut self, source: &str, design: &DesignFile, recorded: Option<&HashSet<Oid>>) {
        let Some(recorded) = recorded else {
            return;
        };
        let archivists = design.frontmatter.updated_by == UpdatedBy::Archivist
            && design
                .footer
                .as_ref()
                .is_some_and(|footer| is_unedited(&self.text, footer));
        let Ok(blob) = blob_id(self.library.object_format, self.text.as_bytes()) else {
            return;
        };
        if !archivists || recorded.contains(&blob) {
            return;
        }
        self.issues.push(Issue {
            check: "missing-provenance",
            severity: Severity::Info,
            file: self.file.clone(),
            line: None,
            message: format!(
                "{source}: the Archivist wrote this text, but {PROVENANCE_NOTES} here has no event for it"
            ),
            hint: "`lexictl notes sync` fetches other clones' events; `lexictl validate --fix` records it from the footer".into(),
        });
    }

    /// An agent's Interface Contract written for an interface the code no longer has.
    fn contract(&mut self, source: &str, design: &DesignFile) {
        let Some(drift) = drift(self.project, source, &self.file, &self.text, design) else {
            return;
        };
        self.issues.push(Issue {
            check: "stale-contract",
            severity: Severity::Error,
            file: self.file.clone(),
            line: line_of(&self.text, &format!("## {}", sections::INTERFACE_CONTRACT)),
            message: drift.message(),
            hint: drift.hint(),
        });
    }

    /// The source's bytes differ from the footer's `source_hash`: say whether its public interface
    /// changed too.
    fn stale(&mut self, source: &str, bytes: &[u8], footer: &Footer) {
        let interface_changed = footer.interface_hash.as_ref().and_then(|recorded| {
            let language = crate::source::Language::from_path(Path::new(source))?;
            let text = String::from_utf8_lossy(bytes);
            let interface = crate::source::extract(language, &text).ok()?;
            Some(&interface.hash() != recorded)
        });
        let (check, what) = if interface_changed == Some(true) {
            ("stale-interface", "its public interface changed")
        } else {
            ("stale-source", "it changed")
        };
        self.issues.push(Issue {
            check,
            severity: Severity::Warning,
            file: self.file.clone(),
            line: Some(footer::footer_line(&self.text)),
            message: format!("{source}: {what} since the design file was last updated"),
            hint: format!(
                "run `lexictl update {source}`, or update the design file and its footer by hand"
            ),
        });
    }
}
