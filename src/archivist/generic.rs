//! The words of a description worth searching. When a file has no doc to describe it, the
//! Archivist writes one from a template (`describe`, `tested`): "Python source with no public items
//! (3 lines).", "HTML file (1 line).", "Defines the `Flask` class and 7 more items.", "Tests `basic`
//! (90 tests: `options_work`, …).". The template's own words — "lines", "defines", "file",
//! "source", "items" — say nothing about what the file is for, and a search for "lines" must not
//! find every HTML file; the names it quotes and a document's title do.
//!
//! Recognised from the text and the file's kind (`source::kind_name`), so it holds for design files
//! written by any version: a description in no template's shape is searched whole.

use crate::source::kind_name;

/// What search should index of `description`, the description of `source`: the whole of a
/// description written from a doc, agent or model; of a template's, only the names it quotes in
/// backticks, a markdown document's title, and the suite titles a test file's lists.
pub fn searchable_description(source: &str, description: &str) -> String {
    let text = description.trim();
    let kind = kind_name(source);
    if let Some(title) = text
        .strip_prefix(kind)
        .and_then(|rest| rest.strip_prefix(": "))
    {
        return title.trim_end_matches('.').to_string();
    }
    if is_size_only(text, kind) {
        return String::new();
    }
    if let Some(name) = named_kind_only(text, kind) {
        return name.to_string();
    }
    let templated = [
        "Defines ",
        "Exports ",
        "Re-exports ",
        "Tests ",
        "Declares ",
        "Marks ",
    ]
    .iter()
    .any(|opening| text.starts_with(opening));
    if !templated || !(text.contains('`') || text.starts_with("Tests (")) {
        return text.to_string();
    }
    let mut kept: Vec<&str> = quoted(text);
    // `Tests `app.router` (45 cases): methods, params, …`: the suites' titles are its words.
    if text.starts_with("Tests ") {
        if let Some((_, titles)) = text.split_once("): ") {
            kept.push(titles.trim_end_matches(['.', '…', ' ', ',']));
        }
    }
    kept.join(" ")
}

/// "HTML file.", "Python source with no public items.", "Empty Python source." — and, as older
/// versions wrote them, "HTML file (1 line).", "Empty python source.", "File (0 lines).": a
/// file's kind (and size), nothing more.
fn is_size_only(text: &str, kind: &str) -> bool {
    let empty = [
        format!("Empty {kind}."),
        format!("Empty {}.", kind.to_lowercase()),
    ];
    let sized = |rest: &str| {
        rest == "."
            || rest
                .strip_prefix(" (")
                .and_then(|rest| {
                    rest.strip_suffix(" lines).")
                        .or(rest.strip_suffix(" line)."))
                })
                .is_some_and(|n| n.parse::<usize>().is_ok())
    };
    empty.iter().any(|empty| text == empty)
        || text.strip_prefix(kind).is_some_and(|rest| {
            sized(rest)
                || rest
                    .strip_prefix(" with no public items")
                    .is_some_and(sized)
        })
}

/// "EJS template `show.ejs`.", "Rust source `cfg.rs` with no public items.": a file's kind and
/// its name, nothing more — the name is its one word.
fn named_kind_only<'a>(text: &'a str, kind: &str) -> Option<&'a str> {
    let rest = text.strip_prefix(kind)?.strip_prefix(" `")?;
    let (name, after) = rest.split_once('`')?;
    matches!(after, "." | " with no public items.").then_some(name)
}

/// The backticked parts of `text`.
fn quoted(text: &str) -> Vec<&str> {
    text.split('`')
        .enumerate()
        .filter(|(i, part)| i % 2 == 1 && !part.is_empty())
        .map(|(_, part)| part)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archivist::{Archivist, ArchivistInput};
    use crate::source::{extract, Language};

    /// The description the structural Archivist writes for `text` at `source`.
    fn described(source: &str, text: &str) -> String {
        let language = Language::from_path(std::path::Path::new(source));
        let interface = language.and_then(|language| extract(language, text).ok());
        super::super::structural::StructuralArchivist
            .describe(&ArchivistInput::of_file(
                source,
                text,
                language,
                interface.as_ref(),
            ))
            .expect("describes")
            .description
    }

    #[test]
    fn the_templates_words_are_not_searched_and_their_names_are() {
        let cases = [
            ("tests/static/index.html", "<p>hi</p>\n", "index.html"),
            ("views/show.ejs", "<p><%= user.name %></p>\n", "show.ejs"),
            ("src/flask/py.typed", "", ""),
            // A role the structure tells: a sentence of purpose, searched whole.
            (
                "src/flask/__main__.py",
                "from .cli import main\n\nmain()\n",
                "Runs the `flask` package as a program (`python -m flask`).",
            ),
            ("src/empty.py", "", ""),
            ("src/pkg/__init__.py", "", "src/pkg __init__.py"),
            (
                "app/models.py",
                "class User:\n    pass\n\ndef load():\n    pass\n",
                "User load",
            ),
            ("docs/sansio.md", "# Sansio\n\nText.\n", "Sansio"),
            (
                "src/lib.rs",
                "pub mod parser;\npub mod lexer;\n",
                "lexer parser",
            ),
        ];
        for (source, text, expected) in cases {
            let description = described(source, text);
            assert_eq!(
                searchable_description(source, &description),
                expected,
                "{source}: {description}"
            );
        }
    }

    #[test]
    fn a_description_from_a_doc_is_searched_whole() {
        let text = "\"\"\"Lines and columns of a text buffer.\"\"\"\n";
        let description = described("src/buffer.py", text);
        assert_eq!(description, "Lines and columns of a text buffer.");
        assert_eq!(
            searchable_description("src/buffer.py", &description),
            description
        );
        assert_eq!(
            searchable_description(
                "test/res.js",
                "Tests `res.json(object)` (13 cases): escapes, spaces."
            ),
            "res.json(object) escapes, spaces"
        );
    }
}
