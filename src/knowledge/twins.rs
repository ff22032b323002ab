//! Files whose design files give the same description ("twins": flask's `app.py` and
//! `sansio/app.py` both say "The flask object implements a WSGI application…") and what tells them
//! apart in a view: each one's primary declaration, read from its Interface Contract
//! (`class Flask(App)` against `class App(Scaffold)`).
//!
//! The Archivist chooses descriptions; this is the readers' side. `lexi lookup` names a twin among
//! the files it imports or that import it, `lexi index` and `lexi search` say what differs between
//! the twins they show. Nothing here is written into the library.

use std::collections::BTreeMap;

use crate::library::design_file::{sections, DesignFile};
use crate::project::mirror::design_path;
use crate::project::Project;

/// Longest primary declaration shown, in bytes.
const DECLARATION_BYTES: usize = 60;

/// Whether `description` (of `source`) was written from a doc, by an agent or a model: two files
/// sharing it are twins worth telling apart. A template's description ("Empty python source.",
/// "Defines the `app` value.") already names what differs, or says there is nothing to tell.
pub fn is_telling(source: &str, description: &str) -> bool {
    let description = description.trim();
    !description.is_empty()
        && crate::archivist::generic::searchable_description(source, description) == description
}

/// A description as compared: trimmed, lower-cased, inner whitespace collapsed.
pub fn normalized(description: &str) -> String {
    description
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The declaration that says what a file is, from its Interface Contract `body`: the top-level
/// line declaring `primary` when given and found, else the first top-level line declaring a type,
/// else the first top-level line (doc comments left out, cut to [`DECLARATION_BYTES`]).
pub fn primary_declaration(body: &str, primary: Option<&str>) -> Option<String> {
    let lines: Vec<&str> = body
        .lines()
        .filter(|line| {
            let trimmed = line.trim();
            !trimmed.is_empty()
                && !trimmed.starts_with("```")
                && !trimmed.starts_with("//")
                && !trimmed.starts_with('#')
                && !line.starts_with(' ')
                && !line.starts_with('\t')
        })
        .map(without_doc)
        .collect();
    let declares = |line: &&str, name: &str| {
        line.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$' || c == '.'))
            .any(|word| word == name)
    };
    let found = primary
        .and_then(|name| lines.iter().find(|line| declares(line, name)))
        .or_else(|| lines.iter().find(|line| declares_type(line)))
        .or_else(|| lines.first())?;
    Some(super::lookup::members::cut(found, DECLARATION_BYTES))
}

/// A contract line without the doc comment appended to it.
fn without_doc(line: &str) -> &str {
    ["  // ", "  # "]
        .iter()
        .filter_map(|marker| line.find(marker))
        .min()
        .map_or(line, |at| &line[..at])
        .trim_end()
}

/// Whether a contract line declares a type.
fn declares_type(line: &str) -> bool {
    line.split_whitespace().any(|word| {
        matches!(
            word,
            "class" | "struct" | "enum" | "trait" | "interface" | "type" | "union"
        )
    })
}

/// The primary declaration of `source` from its design file, `None` when it has no design file or
/// no contract.
pub fn declaration_of(project: &Project, source: &str) -> Option<String> {
    let rel = design_path(source);
    let text = project.read_to_string(&rel).ok()?;
    let design = DesignFile::parse(&rel, &text).ok()?;
    let contract = design.section(sections::INTERFACE_CONTRACT)?;
    primary_declaration(&contract.body, None)
}

/// For the files of `items` (`(source, description)`) whose description another of them shares,
/// what tells each apart: `this one: class App(Scaffold)`. Files without a contract get none.
pub fn distinguish(project: &Project, items: &[(String, String)]) -> BTreeMap<String, String> {
    let mut groups: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for (source, description) in items {
        if is_telling(source, description) {
            let group = groups.entry(normalized(description)).or_default();
            if !group.contains(&source.as_str()) {
                group.push(source);
            }
        }
    }
    let mut out = BTreeMap::new();
    for sources in groups.values().filter(|sources| sources.len() > 1) {
        let declarations: Vec<Option<String>> = sources
            .iter()
            .map(|source| declaration_of(project, source))
            .collect();
        // A declaration every twin shares tells nothing apart.
        for (source, declaration) in sources.iter().zip(&declarations) {
            let Some(declaration) = declaration else {
                continue;
            };
            let shared = declarations
                .iter()
                .filter(|other| other.as_ref() == Some(declaration))
                .count();
            if shared == 1 {
                out.insert(source.to_string(), format!("this one: {declaration}"));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_primary_declaration_is_the_named_type_else_the_first_type() {
        let body = "```python\nT_x = t.TypeVar(\"T_x\")\nclass App(Scaffold)  # The flask object.\n  def run(self)\n```";
        assert_eq!(
            primary_declaration(body, None).as_deref(),
            Some("class App(Scaffold)")
        );
        assert_eq!(
            primary_declaration(body, Some("T_x")).as_deref(),
            Some("T_x = t.TypeVar(\"T_x\")")
        );
        let js = "```javascript\nmodule.exports = res\nres.json = function json(obj)  // Send JSON.\n```";
        assert_eq!(
            primary_declaration(js, None).as_deref(),
            Some("module.exports = res")
        );
        assert_eq!(
            primary_declaration("(none)", None).as_deref(),
            Some("(none)")
        );
        assert_eq!(primary_declaration("", None), None);
    }

    #[test]
    fn descriptions_compare_without_case_or_spacing() {
        assert_eq!(
            normalized(" The  Flask object. "),
            normalized("the flask object.")
        );
    }
}
