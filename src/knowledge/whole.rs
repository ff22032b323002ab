//! What `lexi lookup --full` adds to a lookup: every section a design file's budget cut
//! (`token_budgets.design_file_tokens`), whole again.
//!
//! - A `Dependencies`, `External Dependencies`, `Dependents` or `Tests` list the structural Archivist capped (it ends
//!   `… and N more`) is replaced by the whole list from the graph of the last update
//!   (`workspace::graph`); a list that was not capped stays as written. Without a graph (a clone
//!   before its first update) the capped list stays and a note says so.
//! - An Interface Contract the Archivist cut (its last line `// … and N more lines: read <file>`), or
//!   wrote without the docs of its items because they did not fit, is rendered again from the source, the way the Archivist renders it with no budget — only when the
//!   source is the one the design file describes (its footer's `source_hash`); otherwise the stored
//!   contract stays under the staleness warning.

use super::lookup::{Lookup, Staleness};
use crate::archivist::structural::{
    dependency_items, dependent_items, is_capped_contract, is_capped_list, path_list,
    without_behaviour, without_docs,
};
use crate::library::design_file::sections;
use crate::workspace::contract::whole_contract;
use crate::workspace::graph::Graph;

/// The note printed when capped lists cannot be made whole.
pub const NO_GRAPH_NOTE: &str = "> ℹ️ Some lists are capped as the design file holds them (`… and N more`): run `lexictl update` for the whole graph.";

/// The sections made whole, and what could not be.
#[derive(Clone, Debug, Default)]
pub struct Whole {
    /// (heading as written, whole body), in file order.
    pub sections: Vec<(String, String)>,
    /// Notes printed with the warnings.
    pub notes: Vec<String>,
}

/// The capped sections of `found`'s design file, whole: lists from `graph`, the contract from the
/// source's bytes (`None` when it could not be read).
pub fn whole_sections(found: &Lookup, graph: Option<&Graph>, source_bytes: Option<&[u8]>) -> Whole {
    let source = found.source.as_str();
    let mut whole = Whole::default();
    let graph = graph.filter(|graph| graph.knows(source));
    for section in &found.design.body.sections {
        let heading = section.heading.as_str();
        let is = |name: &str| heading.eq_ignore_ascii_case(name);
        let body = if is(sections::INTERFACE_CONTRACT) {
            if found.staleness != Staleness::Current {
                continue;
            }
            let capped = is_capped_contract(&section.body);
            let whole_text = source_bytes.and_then(|bytes| whole_contract(source, bytes));
            // Uncut but written without its docs (they did not fit), or without the lines a caller
            // must know (a design file keeps first sentences only): the documented one.
            let undocumented = |whole: &String| {
                let stored = section.body.trim();
                whole.trim() != stored
                    && (without_docs(whole).trim() == stored
                        || without_behaviour(whole).trim() == stored)
            };
            whole_text.filter(|whole| capped || undocumented(whole))
        } else if [
            sections::DEPENDENCIES,
            sections::EXTERNAL_DEPENDENCIES,
            sections::DEPENDENTS,
            sections::TESTS,
        ]
        .iter()
        .any(|name| is(name))
        {
            if !is_capped_list(&section.body) {
                continue;
            }
            let Some(graph) = graph else {
                if !whole.notes.iter().any(|note| note == NO_GRAPH_NOTE) {
                    whole.notes.push(NO_GRAPH_NOTE.to_string());
                }
                continue;
            };
            Some(path_list(&whole_list(graph, source, heading)))
        } else {
            None
        };
        if let Some(body) = body {
            whole.sections.push((heading.to_string(), body));
        }
    }
    whole
}

/// The whole list a path-list section names.
fn whole_list(graph: &Graph, source: &str, heading: &str) -> Vec<String> {
    if heading.eq_ignore_ascii_case(sections::DEPENDENCIES) {
        dependency_items(
            source,
            &graph.dependencies(source),
            &graph.type_only_dependencies(source),
        )
    } else if heading.eq_ignore_ascii_case(sections::EXTERNAL_DEPENDENCIES) {
        graph.externals(source)
    } else if heading.eq_ignore_ascii_case(sections::DEPENDENTS) {
        dependent_items(source, &graph.dependents(source))
    } else {
        graph.tests(source)
    }
}
