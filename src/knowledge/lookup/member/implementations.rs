//! Implementations and overrides of a method, both ways — what `lexi lookup --member` shows for a
//! method so that a change to a base's or a trait's member finds every body it reaches:
//! - **up**: the member it overrides or implements, found up its class's bases
//!   (`member/inherit.rs`): `Overrides: App.add_url_rule (src/flask/sansio/app.py)`,
//!   `Implements: trait Shape.area (src/shape.rs)`;
//! - **down**: the members of the same name in the classes that derive from its class — in its
//!   file and in the files importing it, [`super::callers::DEPTH`] levels of importers deep (a
//!   subclass's subclass counts) — read from the bases the last update recorded (`%Flask App` items of the
//!   graph, `impl Shape for Square` as `%Square Shape`): `Overridden by: Flask.make_response
//!   (src/flask/app.py)`, `Implemented by: Square.area (src/square.rs), …`.
//!
//! Class names are matched by name: two classes of one name in different files are not told
//! apart.

use std::collections::{BTreeSet, HashSet};

use crate::source::calls::{decode_bases, MemberCalls};
use crate::workspace::calls::Caller;
use crate::workspace::graph::Graph;

/// The classes and member labels one file declares, with the classes' bases.
struct FileClasses {
    file: String,
    bases: Vec<(String, Vec<String>)>,
    labels: BTreeSet<String>,
}

/// The members overriding or implementing `label` (`Class.name` of `source`), by file: those of
/// `source` itself first (`own_bases`, `own_calls`: its fresh parse), then the importers', by
/// path.
pub fn implementations(
    graph: Option<&Graph>,
    source: &str,
    label: &str,
    own_bases: &[(String, Vec<String>)],
    own_calls: &[MemberCalls],
) -> Vec<Caller> {
    let Some((class, name)) = label.rsplit_once('.') else {
        return Vec::new();
    };
    let mut files = vec![FileClasses {
        file: source.to_string(),
        bases: own_bases.to_vec(),
        labels: own_calls.iter().map(|m| m.member.clone()).collect(),
    }];
    if let Some(graph) = graph {
        for file in importers(graph, source) {
            let items = graph.calls(&file);
            let bases: Vec<(String, Vec<String>)> = items
                .iter()
                .filter_map(|item| decode_bases(item))
                .map(|(class, bases)| (class.to_string(), bases.map(str::to_string).collect()))
                .collect();
            if bases.is_empty() {
                continue;
            }
            let labels = graph
                .member_calls(&file)
                .iter()
                .map(|m| m.member.clone())
                .collect();
            files.push(FileClasses {
                file,
                bases,
                labels,
            });
        }
    }
    // The classes deriving from `class`, however deep, to a fixed point.
    let mut derived: HashSet<String> = HashSet::from([class.to_string()]);
    loop {
        let before = derived.len();
        for file in &files {
            for (sub, bases) in &file.bases {
                if bases.iter().any(|b| derived.contains(b)) {
                    derived.insert(sub.clone());
                }
            }
        }
        if derived.len() == before {
            break;
        }
    }
    derived.remove(class);
    let mut out: Vec<Caller> = Vec::new();
    for file in &files {
        let members: Vec<String> = file
            .bases
            .iter()
            .map(|(sub, _)| sub)
            .filter(|sub| derived.contains(*sub))
            .map(|sub| format!("{sub}.{name}"))
            .filter(|member| file.labels.contains(member))
            .collect::<BTreeSet<String>>()
            .into_iter()
            .collect();
        if !members.is_empty() {
            out.push(Caller {
                file: file.file.clone(),
                members,
            });
        }
    }
    out
}

/// The files importing `source`, [`super::callers::DEPTH`] levels deep, at most
/// [`super::callers::FILES_READ`], sorted.
fn importers(graph: &Graph, source: &str) -> Vec<String> {
    let mut out = super::callers::importers_within(graph, source, false);
    out.sort();
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(label: &str) -> MemberCalls {
        MemberCalls {
            member: label.to_string(),
            ..MemberCalls::default()
        }
    }

    #[test]
    fn derived_classes_of_the_file_override_down_the_chain() {
        let bases = vec![
            ("App".to_string(), vec!["Scaffold".to_string()]),
            ("Flask".to_string(), vec!["App".to_string()]),
            ("Other".to_string(), vec!["Thing".to_string()]),
        ];
        let calls = [
            member("Scaffold.route"),
            member("App.route"),
            member("Flask.route"),
            member("Other.route"),
        ];
        let found = implementations(None, "app.py", "Scaffold.route", &bases, &calls);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].members, ["App.route", "Flask.route"]);
        assert!(implementations(None, "app.py", "run", &bases, &calls).is_empty());
    }
}
