//! The one-sentence description of a file: what it is *for*, chosen from ranked candidates — the
//! module's own doc (Rust `//!`, a Python module docstring, a JSDoc block about the module; a test
//! or bench file's with its subject when the doc does not name it, [`with_subject`]); for a test
//! file with tests of its own, what it tests (`tested`), never the doc of a helper class it
//! defines; the doc of its primary export (what it exports as `module.exports`/`export default`,
//! the type it is named for, or its only type), named ("`Flask`: The flask object implements …",
//! so that two files whose classes share a docstring are told apart); else what the structure
//! tells of its role ([`role`]): a command's entry point, a fuzz target, a program in a test tree,
//! the doc of its main type, an example named by its path, a module tree's root, an empty
//! package `__init__.py`, test helpers, its primary definitions. No fallback counts lines: a
//! description changes with the interface, never with a body edit. Every candidate is the file's
//! own text or path: a description never reads another file (a run that did not read it could
//! not follow its edits).
//!
//! A doc is read for what describes ([`describing_text`]): reST/Sphinx field lists (`:copyright:`,
//! `:license:`, `:param x:`), licence and copyright lines, tag lines and pragmas (`@module`,
//! `eslint-disable`, `type: ignore`, `'use strict'`, shebangs, encoding lines), heading underlines,
//! TODO/FIXME/XXX/HACK notes and commented-out code are dropped, and a doc made only of them is no
//! doc.

use super::ArchivistInput;
use crate::relpath::RelPath;
use crate::source::{Interface, Symbol, SymbolKind};

/// Longest description kept from a doc comment.
const MAX_DESCRIPTION: usize = 200;
/// Shortest doc sentence that says something (in words): "express." is a name, not a purpose.
const MIN_WORDS: usize = 2;
/// Fewest members (methods, fields) of a type that holds most of its file.
const DOMINANT_MEMBERS: usize = 5;

/// The description of `input`, with the build constraint a Go file opens with (gin's
/// `codec/json/{json,jsoniter,sonic,go_json}.go`: one doc, four builds of one package).
pub fn description(input: &ArchivistInput<'_>) -> String {
    let described = described_file(input);
    match go_build_constraint(input.source, input.text) {
        Some(constraint) => {
            let bare = described.trim_end_matches('.');
            format!("{bare} (built with `{constraint}`).")
        }
        None => described,
    }
}

/// The `//go:build` expression of a Go file — from its own first lines, before its `package`
/// clause — that tells apart alternative builds of one package; `None` for any other file.
fn go_build_constraint(source: &str, text: &str) -> Option<String> {
    if !source.ends_with(".go") {
        return None;
    }
    text.lines()
        .map(str::trim)
        .take_while(|line| !line.starts_with("package "))
        .find_map(|line| line.strip_prefix("//go:build "))
        .map(|expr| expr.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|expr| !expr.is_empty())
}

/// The description of `input` from its own doc, its tests or its structure.
fn described_file(input: &ArchivistInput<'_>) -> String {
    let kind = crate::source::kind_name(input.source);
    let Some(interface) = input.interface else {
        return content_description(input.source, input.text);
    };
    if let Some(sentence) = interface.doc.as_deref().and_then(purpose_sentence) {
        return with_subject(input.source, sentence);
    }
    // A test file with tests of its own says what it tests, never what a helper class in it is.
    if let Some(sentence) =
        super::tested::test_file_description(input.source, input.text, interface)
    {
        return sentence;
    }
    if let Some((name, sentence)) = primary_doc(input.source, interface)
        .and_then(|(name, doc)| Some((name, purpose_sentence(doc)?)))
    {
        return named(name, sentence);
    }
    role(input, interface, kind)
}

/// A test or bench file's doc sentence with the file's subject when the sentence does not name
/// it: test targets copy their module doc ("Uring file operations tests." on six of tokio's
/// `tests/fs_uring*.rs`), and the subject — from the file's own path — tells them apart ("Uring
/// file operations tests (`fs_uring_read`)."). Any other file's doc sentence is kept as written.
fn with_subject(source: &str, sentence: String) -> String {
    let bench = source.split('/').rev().skip(1).any(|dir| dir == "benches");
    if !(super::is_test_case(source, 0) || bench) {
        return sentence;
    }
    let subject = super::tested::tested_module(source);
    let lower = sentence.to_lowercase();
    let named = [
        subject.to_lowercase(),
        subject.replace('_', " ").to_lowercase(),
    ]
    .iter()
    .any(|name| lower.contains(name.as_str()));
    if subject.is_empty() || named {
        return sentence;
    }
    let bare = sentence.trim_end_matches(['.', '!', '?', '…']);
    format!("{bare} (`{subject}`).")
}

/// A sentence from the doc of `name`, led by its name: "`Flask`: The flask object implements …"
/// (unless it names it already, or the name is the module's own export object: `module.exports`).
fn named(name: &str, sentence: String) -> String {
    let bare = name.rsplit(['.', ':']).next().unwrap_or(name);
    let whole_module = matches!(bare, "exports" | "module.exports" | "default");
    if bare.is_empty() || whole_module || sentence.contains(bare) {
        return sentence;
    }
    format!("`{bare}`: {sentence}")
}

/// The description of a file that is not parsed code: a package manifest's package, a markdown
/// document's title ("Markdown document: Routing."), what its content or its conventional place
/// says it is for (`content::about`: a workflow's name and triggers, a template's title, a
/// script's first comment, …), else its kind and name ("EJS template `show.ejs`.": two files
/// with nothing else to say are told apart; the `.aindex` row drops the name it shows already,
/// `workspace::child_map::row_description`). Never a line count: it would change with every edit
/// of the body.
pub fn content_description(source: &str, text: &str) -> String {
    let kind = crate::source::kind_name(source);
    if let Some(sentence) = manifest_description(source, text) {
        return sentence;
    }
    if let Some(about) = markdown_about(source, text) {
        return format!("{kind}: {about}");
    }
    if text.trim().is_empty() {
        return format!("Empty {}.", empty_kind(kind));
    }
    if let Some(about) = super::content::about(source, text) {
        return about;
    }
    match RelPath::new(source).file_name() {
        // A name that is the kind (`Makefile`, `Dockerfile`) tells nothing more.
        name if name == kind => format!("{kind}."),
        name => format!("{kind} `{name}`."),
    }
}

/// A kind name after "Empty": "file", but "Python source", "TOML file" (names keep their case).
fn empty_kind(kind: &str) -> String {
    match kind {
        "File" => "file".to_string(),
        kind => kind.to_string(),
    }
}

/// What a package manifest declares, read by its real parser (`project::manifest`): "Cargo manifest
/// of `grep-cli`: Utilities for search oriented command line applications.", "npm manifest of
/// the workspace."; `None` for any other file, or one that does not parse.
fn manifest_description(source: &str, text: &str) -> Option<String> {
    use crate::project::manifest::{Manifest, ManifestKind};
    let (kind, label) = match RelPath::new(source).file_name() {
        "go.mod" => return go_mod_description(text),
        "Cargo.toml" => (ManifestKind::Cargo, "Cargo manifest"),
        "package.json" => (ManifestKind::Npm, "npm manifest"),
        "pyproject.toml" => (ManifestKind::Python, "Python project manifest"),
        _ => return None,
    };
    let manifest = Manifest::parse(kind, text).ok()?;
    let what = match (&manifest.name, manifest.workspace) {
        (Some(package), _) => format!("{label} of `{package}`"),
        (None, true) => format!("{label} of the workspace"),
        (None, false) => label.to_string(),
    };
    let about = manifest
        .description
        .as_deref()
        .and_then(first_sentence)
        .map(|sentence| sentence.trim_end_matches('.').to_string());
    Some(match about {
        Some(about) => format!("{what}: {about}."),
        None => format!("{what}."),
    })
}

/// "Go module `github.com/spf13/cobra`, requiring 3 modules."; `None` without a `module` line.
fn go_mod_description(text: &str) -> Option<String> {
    let module = crate::source::model::go::GoModule::parse("", text)?;
    Some(match module.requires.len() {
        0 => format!("Go module `{}`.", module.path),
        1 => format!("Go module `{}`, requiring 1 module.", module.path),
        n => format!("Go module `{}`, requiring {n} modules.", module.path),
    })
}

/// Whether `source` is a directory's index file, described by the directory's README when it has no
/// doc of its own.
pub fn is_index_file(source: &str) -> bool {
    crate::source::lang::files::is_index_file(source)
}

/// The doc of the primary export, with its name: what the module exports as a whole, the
/// top-level type or function the file is named for, or its only documented type.
fn primary_doc<'a>(source: &str, interface: &'a Interface) -> Option<(&'a str, &'a str)> {
    let doc_of = |name: &'a str| interface.item_doc(name).map(|doc| (name, doc));
    if let Some(found) = interface.primary.as_deref().and_then(doc_of) {
        return Some(found);
    }
    let stem = module_name(source);
    let top: Vec<&Symbol> = interface
        .symbols
        .iter()
        .filter(|s| s.parent.is_none() && s.kind != SymbolKind::Impl)
        .collect();
    let named_for = top.iter().find(|s| {
        let symbol = normal(&s.name);
        !stem.is_empty()
            && (symbol == stem || symbol == format!("{stem}s") || format!("{symbol}s") == stem)
    });
    if let Some(found) = named_for.and_then(|s| doc_of(&s.name)) {
        return Some(found);
    }
    // A type nested in namespaces the file only opens (Ruby's `module Rack; class Request` in
    // `rack/request.rb`), when no top-level one is named for the file.
    if named_for.is_none() && !stem.is_empty() {
        let nested = interface
            .symbols
            .iter()
            .filter(|s| s.parent.is_some())
            .filter(|s| is_type(s.kind) || s.kind == SymbolKind::Module)
            .find(|s| normal(&s.name) == stem);
        if let Some(found) = nested.and_then(|s| doc_of(&s.name)) {
            return Some(found);
        }
    }
    // A documented type named after the module (`PathPrinter` in `path.rs`, `ColorSpecs` in
    // `color.rs`, `DecompressionMatcher` in `decompress.rs`), the first in the file.
    let prefixed = top.iter().find_map(|s| {
        let prefixed = stem.len() >= 3 && is_type(s.kind) && normal(&s.name).starts_with(&stem);
        prefixed.then(|| doc_of(&s.name)).flatten()
    });
    if prefixed.is_some() {
        return prefixed;
    }
    let types: Vec<&&Symbol> = top.iter().filter(|s| is_type(s.kind)).collect();
    if let [only] = types.as_slice() {
        return doc_of(&only.name);
    }
    if let [only] = top.as_slice() {
        return doc_of(&only.name);
    }
    dominant_type(interface, &types).and_then(doc_of)
}

/// The file's primary type, whose members matter most in its contract: the type it is named for,
/// else the type with the most members.
pub fn primary_type(source: &str, interface: &Interface) -> Option<String> {
    let stem = module_name(source);
    let types: Vec<&Symbol> = interface
        .symbols
        .iter()
        .filter(|s| s.parent.is_none() && is_type(s.kind))
        .collect();
    if let Some(named) = types
        .iter()
        .find(|s| !stem.is_empty() && normal(&s.name) == stem)
    {
        return Some(named.name.clone());
    }
    let members = |name: &str| {
        interface
            .symbols
            .iter()
            .filter(|s| s.parent.as_deref().is_some_and(|p| base_type(p) == name))
            .count()
    };
    let mut best: Option<(&str, usize)> = None;
    for symbol in types {
        let count = members(&symbol.name);
        if count > 0 && best.is_none_or(|(_, most)| count > most) {
            best = Some((&symbol.name, count));
        }
    }
    best.map(|(name, _)| name.to_string())
}

/// A parent's type without its path and generics (`inner::Parser<'a>` → `Parser`).
fn base_type(parent: &str) -> &str {
    let bare = parent.split('<').next().unwrap_or(parent);
    bare.rsplit("::").next().unwrap_or(bare).trim()
}

/// The type that holds most of the file: at least [`DOMINANT_MEMBERS`] members and two thirds of
/// all the members the file's types have (flask's `Flask` class in `app.py`, beside a few helpers).
fn dominant_type<'a>(interface: &Interface, types: &[&&'a Symbol]) -> Option<&'a str> {
    let members = |name: &str| {
        interface
            .symbols
            .iter()
            .filter(|s| s.parent.as_deref() == Some(name))
            .count()
    };
    let total: usize = types.iter().map(|s| members(&s.name)).sum();
    let (name, most) = types
        .iter()
        .map(|s| (s.name.as_str(), members(&s.name)))
        .max_by_key(|(_, count)| *count)?;
    (most >= DOMINANT_MEMBERS && most * 3 >= total * 2).then_some(name)
}

/// Lowercase without `_`/`-`.
/// The module's name, normalised: the file's stem, or its directory's name for an index file
/// (`hyperlink/mod.rs` → `hyperlink`).
fn module_name(source: &str) -> String {
    let path = RelPath::new(source);
    let stem = path.stem();
    if is_index_file(source) {
        let dir = path.parent().map_or("", RelPath::file_name);
        if !dir.is_empty() && dir != "src" {
            return normal(dir);
        }
    }
    normal(stem)
}

fn normal(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn is_type(kind: SymbolKind) -> bool {
    matches!(
        kind,
        SymbolKind::Class
            | SymbolKind::Struct
            | SymbolKind::Enum
            | SymbolKind::Trait
            | SymbolKind::Interface
    )
}

/// The first sentence of a doc that states a purpose ([`describing_text`]); `None` when nothing
/// is left, or what is left is a bare name, boilerplate or code.
pub fn purpose_sentence(doc: &str) -> Option<String> {
    let text = describing_text(doc)?;
    let sentence = first_sentence(&text)?;
    let useful = sentence.split_whitespace().count() >= MIN_WORDS
        && !is_boilerplate(&sentence)
        && !is_code_line(&sentence)
        && !is_note_marker(&sentence);
    useful.then_some(sentence)
}

/// What of a doc describes, paragraph by paragraph: reST/Sphinx field lists (`:copyright: …`,
/// `:license: …` and their continuation lines), licence and copyright lines (a licence text from
/// its first legal line to the end of its paragraph), tag lines and pragmas, titles over an
/// underline and the underlines, a TODO/FIXME/XXX/HACK note to the end of its paragraph, and
/// paragraphs of commented-out code are dropped. `None` when nothing is left.
pub fn describing_text(doc: &str) -> Option<String> {
    let lines: Vec<&str> = doc.lines().collect();
    let mut paragraphs: Vec<Vec<&str>> = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut in_field = false;
    let mut dropping = false;
    for (at, raw) in lines.iter().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            if !current.is_empty() {
                paragraphs.push(std::mem::take(&mut current));
            }
            in_field = false;
            dropping = false;
            continue;
        }
        // A field's continuation is indented under it.
        if in_field && raw.starts_with([' ', '\t']) && !is_field_line(line) {
            continue;
        }
        in_field = is_field_line(line);
        let titled = lines
            .get(at + 1)
            .is_some_and(|next| is_underline(next.trim()));
        if dropping || in_field || titled || is_underline(line) || is_tag_line(line) {
            continue;
        }
        match block_tag(line) {
            Some(BlockTag::Describing(text)) => {
                current.push(text);
                continue;
            }
            Some(BlockTag::Other) => {
                dropping = true;
                continue;
            }
            None => {}
        }
        if is_note_marker(line)
            || is_legal_text(line)
            || crate::source::generated::is_marker_line(line)
        {
            dropping = true;
            continue;
        }
        if is_legal_line(line) {
            continue;
        }
        current.push(line);
    }
    if !current.is_empty() {
        paragraphs.push(current);
    }
    let kept: Vec<String> = paragraphs
        .into_iter()
        .filter(|paragraph| {
            let code = paragraph.iter().filter(|line| is_code_line(line)).count();
            code * 2 < paragraph.len() || paragraph.is_empty()
        })
        .map(|paragraph| paragraph.join("\n"))
        .collect();
    (!kept.is_empty()).then(|| kept.join("\n\n"))
}

/// A reST/Sphinx field line: `:copyright: 2010 Pallets`, `:license: BSD`, `:param x: …`.
fn is_field_line(line: &str) -> bool {
    let Some(rest) = line.strip_prefix(':') else {
        return false;
    };
    rest.find(':').is_some_and(|end| {
        let name = &rest[..end];
        !name.is_empty()
            && name.len() <= 40
            && name
                .chars()
                .all(|c| c.is_alphanumeric() || " _-.".contains(c))
    })
}

/// The first `limit` names, quoted and joined with commas, then " and more" when there are more.
/// Never a count: a name added to the file would change it (and the design file with it).
pub(super) fn quoted_list<S: AsRef<str>>(names: &[S], limit: usize) -> String {
    let shown: Vec<String> = names
        .iter()
        .take(limit)
        .map(|name| format!("`{}`", name.as_ref()))
        .collect();
    let more = if names.len() > limit { " and more" } else { "" };
    format!("{}{more}", shown.join(", "))
}

/// A JSDoc/Javadoc/Doxygen block tag opening a doc line: `@param {string} x`, `@returns …`,
/// `@throws …` — the doc's description comes before its first block tag, so a tag and what follows
/// it to the end of its paragraph never describe — except the tags whose text is the description
/// (`@description`, `@summary`, `@brief`, `@file`, `@fileoverview`, `@overview`, `@classdesc`).
enum BlockTag<'a> {
    Describing(&'a str),
    Other,
}

fn block_tag(line: &str) -> Option<BlockTag<'_>> {
    let tag = line.strip_prefix('@')?;
    let name_end = tag
        .find(|c: char| !c.is_ascii_alphanumeric())
        .unwrap_or(tag.len());
    let (name, rest) = tag.split_at(name_end);
    if !name.starts_with(|c: char| c.is_ascii_lowercase()) {
        return None;
    }
    const DESCRIBING: [&str; 8] = [
        "description",
        "desc",
        "summary",
        "brief",
        "file",
        "fileoverview",
        "overview",
        "classdesc",
    ];
    if !DESCRIBING.contains(&name) {
        return Some(BlockTag::Other);
    }
    match rest.trim() {
        "" => None,
        text => Some(BlockTag::Describing(text)),
    }
}

/// A TODO/FIXME/XXX/HACK/BUG note: the marker first (after a list mark), then no letter.
fn is_note_marker(line: &str) -> bool {
    let bare = line.trim_start_matches(['-', '*', ' ', '#', '/']);
    [
        "TODO", "FIXME", "XXX", "HACK", "BUG", "TBD", "KLUDGE", "OPTIMIZE",
    ]
    .iter()
    .any(|marker| {
        bare.get(..marker.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(marker))
            && !bare[marker.len()..].starts_with(|c: char| c.is_alphanumeric())
    })
}

/// A short legal line: a copyright notice, an SPDX identifier, "All rights reserved".
fn is_legal_line(line: &str) -> bool {
    let lower = line.to_lowercase();
    let short_licence = (lower.contains("licen") || lower.contains("open source"))
        && lower.split_whitespace().count() <= 6;
    short_licence
        || [
            "copyright",
            "spdx-license-identifier",
            "all rights reserved",
            "(c) ",
            "©",
            "@license",
        ]
        .iter()
        .any(|word| lower.contains(word))
}

/// The first line of a licence text, dropped with the rest of its paragraph.
fn is_legal_text(line: &str) -> bool {
    let lower = line.to_lowercase();
    [
        "permission is hereby granted",
        "licensed under",
        "this program is free software",
        "this source code is licensed",
        "use of this source code is governed",
        "redistribution and use in source",
        "licensed to the apache software foundation",
        "this file is part of",
        "distributed under the",
    ]
    .iter()
    .any(|phrase| lower.contains(phrase))
}

/// A line that reads as code rather than prose: it ends in `;`, `{` or `}`, starts with a
/// declaration or statement keyword followed by code, holds an arrow or an assignment to a call,
/// or is mostly punctuation.
pub fn is_code_line(line: &str) -> bool {
    let line = line.trim();
    if line.is_empty() {
        return false;
    }
    if line.ends_with([';', '{', '}']) || line.contains("=>") || line.contains("();") {
        return true;
    }
    let starts = [
        "import ",
        "from ",
        "const ",
        "let ",
        "var ",
        "return ",
        "if (",
        "for (",
        "while (",
        "def ",
        "fn ",
        "pub ",
        "use ",
        "#include",
        "require(",
        "module.exports",
        "export ",
        "self.",
        "this.",
        "await ",
        "print(",
        "console.",
    ];
    if starts.iter().any(|start| line.starts_with(start)) && !line.ends_with('.') {
        return true;
    }
    if line.contains(" = ") && (line.ends_with(')') || line.ends_with(']')) {
        return true;
    }
    let letters = line
        .chars()
        .filter(|c| c.is_alphabetic() || *c == ' ')
        .count();
    letters * 2 < line.chars().count()
}

/// Longest sentence shown beside a signature in the Interface Contract, in characters.
const MAX_ITEM_SENTENCE: usize = 120;

/// The first sentence of an item's own doc, for its contract line: `None` for a banner or a doc of
/// tag lines only (`@param`, `@public`); cut to [`MAX_ITEM_SENTENCE`] characters.
pub fn item_sentence(doc: &str) -> Option<String> {
    if is_banner(doc) {
        return None;
    }
    let kept: Vec<&str> = doc
        .lines()
        .map(str::trim)
        .filter(|line| !line.starts_with('@') && !is_tag_line(line) && !is_underline(line))
        .collect();
    let sentence = first_sentence(&kept.join("\n"))?;
    if is_boilerplate(&sentence) {
        return None;
    }
    if sentence.chars().count() <= MAX_ITEM_SENTENCE {
        return Some(sentence);
    }
    let cut: String = sentence.chars().take(MAX_ITEM_SENTENCE - 1).collect();
    Some(format!("{}…", cut.trim_end()))
}

/// A doc that only names what its line already says: express's `/** Module exports. */` above
/// `module.exports = …`, `/** Module dependencies. */`, a bare "Expose." or "Constructor.".
fn is_boilerplate(sentence: &str) -> bool {
    let lower = sentence.to_lowercase();
    let words: Vec<&str> = lower
        .trim_end_matches(['.', '!', '?'])
        .split_whitespace()
        .collect();
    matches!(
        words.as_slice(),
        ["module", "exports" | "dependencies" | "variables"]
            | ["expose" | "exports" | "export" | "constructor" | "initialize" | "private"]
            | ["expose", _]
            | ["module", "exports", _]
    )
}

/// A licence or copyright banner, or a generated-file header: not a description of anything.
pub fn is_banner(doc: &str) -> bool {
    let lower = doc.to_lowercase();
    let legal = [
        "copyright",
        "licensed",
        "spdx-license-identifier",
        "all rights reserved",
        "permission is hereby granted",
        "@license",
        "@preserve",
    ];
    legal.iter().any(|word| lower.contains(word)) || crate::source::is_generated_header(doc)
}

/// A line that tags or configures rather than describes.
fn is_tag_line(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let tags = [
        "@import",
        "@module",
        "@license",
        "@flow",
        "@jsx",
        "@ts-",
        "@format",
        "@private",
        "@internal",
        "@public",
        "@api",
        "@typedef",
        "@type ",
        "@see",
        "@author",
        "@since",
        "@version",
        "@copyright",
        "@preserve",
        "@noflow",
        "@nolint",
        "@generated",
    ];
    let pragmas = [
        "type: ignore",
        "noqa",
        "pylint:",
        "mypy:",
        "fmt:",
        "isort:",
        "pyright:",
        "ruff:",
        "pragma:",
        "istanbul ignore",
        "c8 ignore",
        "jscs:",
        "exported ",
        "+build",
        "go:build",
        "go:generate",
        "nolint",
        "rustfmt::",
        "cspell:",
        "spell-checker:",
        "biome-ignore",
        "deno-lint",
        "sourcemappingurl",
        "#region",
        "#endregion",
        "region ",
        "endregion",
        "spdx-",
        "use client",
        "use server",
    ];
    tags.iter().any(|tag| lower.starts_with(tag))
        || pragmas.iter().any(|pragma| {
            lower
                .trim_matches(['\'', '"', ';', ' ', '#', '/'])
                .starts_with(pragma)
        })
        || lower.starts_with("eslint")
        || lower.starts_with("jshint")
        || lower.starts_with("global ")
        || lower.starts_with("prettier-ignore")
        || lower.starts_with("tslint")
        || lower.trim_matches(['\'', '"', ';']) == "use strict"
        || lower.starts_with("#!")
        || (lower.contains("coding") && (lower.contains("-*-") || lower.starts_with("vim:")))
}

/// An RST/markdown heading underline or a ruler: `~~~~`, `=====`, `-----`.
fn is_underline(line: &str) -> bool {
    let mut chars = line.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    line.chars().count() >= 3 && "=-~^\"'*+#_`:.".contains(first) && chars.all(|c| c == first)
}

/// The first sentence of a doc comment: up to the first `. ` or blank line, markdown headings and
/// leading `#` marks dropped, whitespace folded.
pub fn first_sentence(doc: &str) -> Option<String> {
    // A leading markdown heading is a title, not a description: skip it when prose follows.
    let lines: Vec<&str> = doc.lines().map(str::trim).collect();
    let has_prose = lines
        .iter()
        .any(|line| !line.is_empty() && !line.starts_with('#'));
    let paragraph: Vec<&str> = lines
        .iter()
        .copied()
        .skip_while(|line| line.is_empty() || (has_prose && line.starts_with('#')))
        .take_while(|line| !line.is_empty())
        .map(|line| line.trim_start_matches('#').trim())
        .collect();
    let text = paragraph.join(" ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if text.is_empty() {
        return None;
    }
    let end = text
        .match_indices(". ")
        .map(|(index, _)| index + 1)
        .find(|end| !ends_with_abbreviation(&text[..*end]))
        .unwrap_or(text.len());
    let mut sentence: String = text[..end].to_string();
    if sentence.chars().count() > MAX_DESCRIPTION {
        sentence = sentence
            .chars()
            .take(MAX_DESCRIPTION - 1)
            .collect::<String>()
            + "…";
    }
    if !sentence.ends_with(['.', '!', '?', '…']) {
        sentence.push('.');
    }
    Some(sentence)
}

/// Whether a sentence candidate actually ends in an abbreviation such as "e.g.".
fn ends_with_abbreviation(text: &str) -> bool {
    let last = text.rsplit(' ').next().unwrap_or(text).to_ascii_lowercase();
    matches!(
        last.as_str(),
        "e.g." | "i.e." | "etc." | "vs." | "cf." | "approx." | "incl."
    )
}

/// What a markdown document is about: its title and the first sentence of its prose that
/// describes (`project::describe::first_sentence`: never a badge, an install note or a table) —
/// "ripgrep core — This is the core ripgrep crate." — else either alone; `None` for another file.
fn markdown_about(source: &str, text: &str) -> Option<String> {
    if !(source.ends_with(".md") || source.ends_with(".markdown")) {
        return None;
    }
    let title = markdown_title(text);
    let sentence = crate::project::describe::first_sentence(text)
        .filter(|sentence| Some(sentence.trim_end_matches('.')) != title.as_deref());
    match (title, sentence) {
        (Some(title), Some(sentence)) => Some(format!("{title} — {}", terminated(sentence))),
        (Some(title), None) => Some(format!("{title}.")),
        (None, Some(sentence)) => Some(terminated(sentence)),
        (None, None) => None,
    }
}

/// `sentence` ending in a period (or the mark it ends with).
fn terminated(sentence: String) -> String {
    match sentence.ends_with(['.', '!', '?', '…']) {
        true => sentence,
        false => format!("{sentence}."),
    }
}

/// A markdown document's title: its first `# ` heading, else a setext title — a line underlined
/// with `=` (`grep-cli\n========`), or with `-` when it is the document's first line (`ripgrep
/// core\n------------`; further down, a `---` under a line is as often a rule).
fn markdown_title(text: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let atx = lines.iter().find_map(|line| line.strip_prefix("# "));
    let underlined = |line: &str, mark: char| {
        let line = line.trim();
        line.len() >= 3 && line.chars().all(|c| c == mark)
    };
    let setext = || {
        lines.windows(2).find_map(|pair| {
            let is_title = !pair[0].trim().is_empty() && underlined(pair[1], '=');
            is_title.then_some(pair[0])
        })
    };
    let first_line = || {
        let mut lines = lines.iter().skip_while(|line| line.trim().is_empty());
        let first = lines.next()?;
        lines
            .next()
            .filter(|next| underlined(next, '-'))
            .map(|_| *first)
    };
    atx.or_else(setext)
        .or_else(first_line)
        .map(|title| title.trim().trim_end_matches('.').to_string())
        .filter(|title| !title.is_empty())
}

/// What the structure tells of a file's role when nothing describes it: a command's entry point
/// ("Entry point (`fn main`) of the `rg` binary."), pytest's fixtures, a module of test helpers,
/// else its definitions ([`summary`]).
fn role(input: &ArchivistInput<'_>, interface: &Interface, kind: &str) -> String {
    let source = input.source;
    let definitions = summary(input, interface, kind);
    let lowered = lower_first(&definitions);
    let program = interface
        .language
        .walks()
        .program_role(source, input.text, &lowered);
    if let Some(program) = program {
        return program;
    }
    if let Some((name, sentence)) = main_type_doc(source, interface) {
        return named(&name, sentence);
    }
    if let Some(example) = example_name(source) {
        return format!("Example `{example}`: {lowered}");
    }
    // A test tree's module roots and packages say so themselves ("Declares the test modules …").
    if definitions.starts_with("Declares the test module") || definitions.starts_with("Marks `") {
        return definitions;
    }
    if super::is_test_path(source) && !super::is_test_case(source, 0) {
        return format!("Test helpers: {lowered}");
    }
    if super::is_test_path(source) && !definitions.starts_with("Tests") {
        return format!("Test support: {lowered}");
    }
    definitions
}

/// The doc of the file's main type ([`primary_type`]: the type it is named for, else the type
/// with the most members) when no doc describes the module: flask's `sessions.py` is what its
/// `SessionInterface` is, `testing.py` what its `FlaskClient` is.
fn main_type_doc(source: &str, interface: &Interface) -> Option<(String, String)> {
    let name = primary_type(source, interface)?;
    let sentence = interface.item_doc(&name).and_then(purpose_sentence)?;
    Some((name, sentence))
}

/// The example a file under an `examples/` directory is, named by its path below it without the
/// extension and without a last `index`/`main`/`mod`/`__init__` (`examples/cookie-sessions/index.js`
/// → `cookie-sessions`, `examples/echo.rs` → `echo`, `examples/tutorial_builder/01_quick.rs` →
/// `tutorial_builder/01_quick`, `examples/session/redis.js` → `session/redis`): two files of one
/// example are told apart.
fn example_name(source: &str) -> Option<String> {
    // A Java package (`com/example/…` below `src/main/java/`) is no example directory.
    if source.ends_with(".java") && source.contains("/java/") {
        return None;
    }
    let (_, below) = source
        .split_once("examples/")
        .or_else(|| source.split_once("example/"))
        .filter(|(above, _)| above.is_empty() || above.ends_with('/'))?;
    crate::source::lang::files::path_name(below)
}

/// `text` with its first letter lowercased when it starts with a verb of the fallbacks (`Defines …`
/// → `defines …`); a kind or a name keeps its case (`Rust source …`, `` `Flask` ``).
fn lower_first(text: &str) -> String {
    const VERBS: [&str; 5] = ["Defines ", "Exports ", "Re-exports ", "Empty ", "Declares "];
    match VERBS.iter().any(|verb| text.starts_with(verb)) {
        true => lower_initial(text),
        false => text.to_string(),
    }
}

/// `text` with its first letter lowercased to continue a sentence ("Generated file, not edited by
/// hand: defines …"), unless the first word is an acronym or a name in capitals: a second letter
/// in upper case keeps the word as written (`JSON file.`, `YAML file.`, `HTML file.`).
pub fn lower_initial(text: &str) -> String {
    let mut chars = text.chars();
    let Some(first) = chars.next() else {
        return String::new();
    };
    if chars.clone().next().is_some_and(char::is_uppercase) {
        return text.to_string();
    }
    first.to_lowercase().chain(chars).collect()
}

/// An empty `__init__.py`: it is there to make its directory a Python package ("Marks
/// `tests/benchmarks` as a Python package (empty `__init__.py`)."), named by its directory.
fn package_marker(source: &str, text: &str) -> Option<String> {
    let dir = source.strip_suffix("/__init__.py")?;
    text.trim()
        .is_empty()
        .then(|| format!("Marks `{dir}` as a Python package (empty `__init__.py`)."))
}

/// A file with no public item: its private functions by name ("Defines the private functions
/// `parse`, `walk` and 4 more."), else its kind. Never its size.
fn private_summary(source: &str, text: &str, interface: &Interface, kind: &str) -> String {
    let functions: Vec<&str> = interface
        .calls
        .iter()
        .filter(|member| member.container().is_none() && !member.test)
        .map(|member| member.member.as_str())
        .collect();
    let shown: Vec<String> = functions.iter().take(2).map(|f| format!("`{f}`")).collect();
    match functions.len() {
        0 => methods_summary(interface)
            .or_else(|| modules_summary(source, text))
            .or_else(|| macros_summary(source, text))
            .or_else(|| java_module(source, text))
            .or_else(|| java_private_types(source, text))
            .unwrap_or_else(|| {
                let name = RelPath::new(source).file_name();
                format!("{kind} `{name}` with no public items.")
            }),
        1 => format!("Defines the private function {}.", shown[0]),
        2 => format!(
            "Defines the private functions {} and {}.",
            shown[0], shown[1]
        ),
        n => format!(
            "Defines the private functions {} and {} more.",
            shown.join(", "),
            n - 2
        ),
    }
}

/// Most macro names a summary of `macro_rules!` definitions lists.
const LISTED_MACROS: usize = 3;

/// A Rust file whose items are crate-local `macro_rules!` definitions (tokio's `macros/cfg.rs`):
/// "Defines the macros `cfg_rt!`, `cfg_net!`, `cfg_fs!` and more." — in source order, each name
/// once (a macro defined per `cfg` is one macro), no count (a private definition is a body edit).
fn macros_summary(source: &str, text: &str) -> Option<String> {
    if !source.ends_with(".rs") {
        return None;
    }
    let mut names: Vec<String> = Vec::new();
    for line in text.lines().map(str::trim) {
        if line.starts_with("//") {
            continue;
        }
        let Some((_, after)) = line.split_once("macro_rules!") else {
            continue;
        };
        let name: String = after
            .trim_start()
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let name = format!("{name}!");
        if name.len() > 1 && !names.contains(&name) {
            names.push(name);
        }
    }
    match names.len() {
        0 => None,
        1 => Some(format!("Defines the macro `{}`.", names[0])),
        _ => Some(format!(
            "Defines the macros {}.",
            quoted_list(&names, LISTED_MACROS)
        )),
    }
}

/// A Java module declaration (`module-info.java`): "Java module `com.google.gson`." from its
/// `module` (or `open module`) line.
fn java_module(source: &str, text: &str) -> Option<String> {
    if RelPath::new(source).file_name() != "module-info.java" {
        return None;
    }
    text.lines().map(str::trim).find_map(|line| {
        let line = line.strip_prefix("open ").unwrap_or(line);
        let name = line.strip_prefix("module ")?.split('{').next()?.trim();
        (!name.is_empty()).then(|| format!("Java module `{name}`."))
    })
}

/// The package-private top-level types of a Java file (an annotation type used inside its
/// package, gson's `IgnoreJRERequirement`): "Defines the package-private annotation type
/// `IgnoreJRERequirement`." — from the declarations that open a line, in source order.
fn java_private_types(source: &str, text: &str) -> Option<String> {
    if !source.ends_with(".java") {
        return None;
    }
    const MODIFIERS: [&str; 5] = ["abstract", "final", "sealed", "non-sealed", "strictfp"];
    let types: Vec<String> = text
        .lines()
        .filter(|line| !line.starts_with([' ', '\t', '*', '/']))
        .filter_map(|line| {
            let mut words = line
                .split_whitespace()
                .skip_while(|word| MODIFIERS.contains(word));
            let what = match words.next()? {
                "class" => "class",
                "interface" => "interface",
                "@interface" => "annotation type",
                "enum" => "enum",
                "record" => "record",
                _ => return None,
            };
            let name: String = words
                .next()?
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!name.is_empty()).then(|| format!("the package-private {what} `{name}`"))
        })
        .collect();
    match types.as_slice() {
        [] => None,
        [one] => Some(format!("Defines {one}.")),
        [one, two] => Some(format!("Defines {one} and {two}.")),
        [one, rest @ ..] => Some(format!("Defines {one} and {} more.", rest.len())),
    }
}

/// Most module names a summary of declarations lists.
const LISTED_MODULES: usize = 5;

/// A Rust file that declares private modules and has no item of its own — a test target's root
/// (`tests/tests.rs`: `mod binary; mod feature; …`) or a module tree's: "Declares the test modules
/// `binary`, `feature`, `json` and more." (no count: a private declaration is a body edit).
fn modules_summary(source: &str, text: &str) -> Option<String> {
    if !source.ends_with(".rs") {
        return None;
    }
    let modules: Vec<&str> = text
        .lines()
        .filter_map(|line| {
            // Declarations inside a `cfg_loom! { … }` block are indented.
            let line = line.trim();
            let line = line.strip_prefix("pub(crate) ").unwrap_or(line);
            let name = line.strip_prefix("mod ")?.strip_suffix(';')?.trim();
            let ident = !name.is_empty() && name.chars().all(|c| c.is_alphanumeric() || c == '_');
            ident.then_some(name)
        })
        .collect();
    if modules.is_empty() {
        return None;
    }
    let test = if super::is_test_path(source) {
        "test "
    } else {
        ""
    };
    Some(declared_modules(&modules, test))
}

/// "Declares the modules `a`, `b` and more." — `test` is "test " for a test target's modules.
fn declared_modules<S: AsRef<str>>(modules: &[S], test: &str) -> String {
    format!(
        "Declares the {test}module{} {}.",
        if modules.len() == 1 { "" } else { "s" },
        quoted_list(modules, LISTED_MODULES)
    )
}

/// A module the file declares or defines (Rust `pub mod x;` or `pub mod x { … }`, TypeScript
/// `export namespace X { … }`) rather than one it re-exports (`pub use`, `export … from`, Python
/// `from … import`): both are [`SymbolKind::Module`], told apart by the declaration's keyword.
fn declares_module(symbol: &Symbol) -> bool {
    for word in symbol.signature.split_whitespace() {
        match word {
            "mod" | "namespace" | "module" => return true,
            "use" | "from" | "import" | "crate" => return false,
            _ if word.starts_with(['*', '{']) => return false,
            _ => {}
        }
    }
    false
}

/// A file of methods only (Rust `impl Handle { … }` blocks of a type defined elsewhere): the type
/// with the most methods here and its first methods ("Methods of `Handle`: `num_workers`,
/// `num_alive_tasks` and 6 more.").
fn methods_summary(interface: &Interface) -> Option<String> {
    let mut by_type: Vec<(&str, Vec<&str>)> = Vec::new();
    for member in interface.calls.iter().filter(|member| !member.test) {
        let Some((container, name)) = member.member.rsplit_once('.') else {
            continue;
        };
        match by_type.iter_mut().find(|(of, _)| *of == container) {
            Some((_, names)) => names.push(name),
            None => by_type.push((container, vec![name])),
        }
    }
    let (container, names) = by_type
        .iter()
        .max_by(|a, b| a.1.len().cmp(&b.1.len()).then(b.0.cmp(a.0)))?;
    let shown: Vec<String> = names.iter().take(2).map(|n| format!("`{n}`")).collect();
    // Several types with the same methods (one macro making `ReadU16`, `ReadU32`, …): named so.
    let peers = by_type.iter().filter(|(_, others)| others == names).count();
    let types = match peers {
        0 | 1 => format!("`{container}`"),
        2 => format!("`{container}` and 1 more type"),
        n => format!("`{container}` and {} more types", n - 1),
    };
    Some(match names.len() {
        1 => format!("Methods of {types}: {}.", shown[0]),
        2 => format!("Methods of {types}: {} and {}.", shown[0], shown[1]),
        n => format!(
            "Methods of {types}: {} and {} more.",
            shown.join(", "),
            n - 2
        ),
    })
}

/// The fallback: the primary definitions by kind and role. Types come first, then functions, then
/// the rest; trait impls and methods are never definitions; re-exports are said to be re-exports.
fn summary(input: &ArchivistInput<'_>, interface: &Interface, kind: &str) -> String {
    let mut top: Vec<&Symbol> = interface
        .symbols
        .iter()
        .filter(|s| s.parent.is_none() && !matches!(s.kind, SymbolKind::Impl | SymbolKind::Method))
        .collect();
    top.dedup_by(|a, b| a.name == b.name);
    let rank = |s: &Symbol| match s.kind {
        k if is_type(k) => 0,
        SymbolKind::Function | SymbolKind::Macro => 1,
        SymbolKind::Module => 3,
        _ => 2,
    };
    top.sort_by_key(|s| rank(s));
    if top.is_empty() {
        if let Some(package) = package_marker(input.source, input.text) {
            return package;
        }
        if input.text.trim().is_empty() {
            return format!("Empty {}.", empty_kind(kind));
        }
        return private_summary(input.source, input.text, interface, kind);
    }
    if let Some(value) = exported_value(&top) {
        return match top.len() - 1 {
            0 => format!("Exports {value}."),
            1 => format!("Exports {value}, and defines 1 more item."),
            n => format!("Exports {value}, and defines {n} more items."),
        };
    }
    if top.iter().all(|s| s.kind == SymbolKind::Module) {
        if top.iter().all(|s| declares_module(s)) {
            let names: Vec<&str> = top.iter().map(|s| s.name.as_str()).collect();
            return declared_modules(&names, "");
        }
        let names: Vec<String> = top.iter().take(3).map(|s| reexport_name(s)).collect();
        let more = top.len().saturating_sub(3);
        return match more {
            0 => format!("Re-exports {}.", names.join(", ")),
            n => format!("Re-exports {} and {n} more.", names.join(", ")),
        };
    }
    let shown: Vec<String> = top
        .iter()
        .filter(|s| s.kind != SymbolKind::Module)
        .take(2)
        .map(|s| format!("the `{}` {}", s.name, kind_word(s.kind)))
        .collect();
    let rest = top.len() - shown.len();
    match (shown.as_slice(), rest) {
        ([one], 0) => format!("Defines {one}."),
        ([one, two], 0) => format!("Defines {one} and {two}."),
        (names, rest) => format!(
            "Defines {} and {rest} more item{}.",
            names.join(", "),
            if rest == 1 { "" } else { "s" }
        ),
    }
}

/// What a CommonJS module assigns to `module.exports` when it is a value, not a named definition:
/// "the result of `express(…)`", "`{ …}`".
fn exported_value(top: &[&Symbol]) -> Option<String> {
    let symbol = top
        .iter()
        .find(|s| s.name == "module.exports" && s.kind == SymbolKind::Variable)?;
    let value = symbol.signature.split_once(" = ")?.1.trim();
    if value.is_empty() {
        return None;
    }
    let function =
        value.starts_with("function") || value.starts_with("async") || value.contains("=>");
    Some(match function {
        true => format!("a function `{value}`"),
        false if value.ends_with(')') => format!("the result of `{value}`"),
        false => format!("`{value}`"),
    })
}

/// A re-export as it reads: the module it names, or the names it lists.
fn reexport_name(symbol: &Symbol) -> String {
    let text = symbol.name.trim();
    let text = text.strip_prefix("pub use ").unwrap_or(text);
    format!("`{}`", text.trim_end_matches(';'))
}

/// How a summary names a kind: [`SymbolKind::as_str`], but "type" and "value" for the two whose
/// serde names read as code (`typealias`, `variable`).
fn kind_word(kind: SymbolKind) -> &'static str {
    match kind {
        SymbolKind::TypeAlias => "type",
        SymbolKind::Variable => "value",
        other => other.as_str(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_primary_type_is_the_one_named_for_the_file_else_the_one_with_most_members() {
        let rust = |text: &str| {
            crate::source::extract(crate::source::Language::Rust, text).expect("parses")
        };
        let listener = rust("pub struct Socket;\nimpl Socket { pub fn a() {} }\npub struct TcpListener;\nimpl TcpListener { pub fn bind() {} pub fn accept() {} }\n");
        assert_eq!(
            primary_type("tokio/src/net/tcp/listener.rs", &listener).as_deref(),
            Some("TcpListener")
        );
        let named = rust("pub struct Socket;\npub struct Other;\nimpl Other { pub fn a() {} }\n");
        assert_eq!(
            primary_type("src/socket.rs", &named).as_deref(),
            Some("Socket")
        );
        assert_eq!(primary_type("src/f.rs", &rust("pub fn f() {}\n")), None);
    }

    #[test]
    fn a_file_of_methods_names_its_type_and_how_many_share_its_methods() {
        let rust = |text: &str| {
            crate::source::extract(crate::source::Language::Rust, text).expect("parses")
        };
        let one = rust("impl Handle {\n    fn a(&self) {}\n    fn b(&self) {}\n}\n");
        assert_eq!(
            methods_summary(&one).as_deref(),
            Some("Methods of `Handle`: `a` and `b`.")
        );
        // A local macro making one future per type.
        let made = rust("macro_rules! reader {\n    ($name:ident) => {\n        impl $name {\n            fn new() {}\n            fn poll(&self) {}\n        }\n    };\n}\nreader!(ReadU8);\nreader!(ReadU16);\nreader!(ReadU32);\n");
        assert_eq!(
            methods_summary(&made).as_deref(),
            Some("Methods of `ReadU16` and 2 more types: `new` and `poll`.")
        );
    }

    #[test]
    fn banners_and_tag_lines_are_not_descriptions() {
        let express = "express\nCopyright(c) 2009-2013 TJ Holowaychuk\nMIT Licensed";
        assert_eq!(purpose_sentence(express), None);
        assert_eq!(
            purpose_sentence("@import { A } from './a'\n@module x").as_deref(),
            None
        );
        assert_eq!(
            purpose_sentence(
                "Tagged JSON\n~~~~~~~~~~~\n\nA compact representation for lossless serialization."
            )
            .as_deref(),
            Some("A compact representation for lossless serialization.")
        );
        assert_eq!(
            purpose_sentence("eslint-disable no-console\nPrints the report to stdout.").as_deref(),
            Some("Prints the report to stdout.")
        );
        assert_eq!(purpose_sentence("express"), None);
        assert_eq!(
            purpose_sentence("Code generated by protoc-gen-go. DO NOT EDIT."),
            None
        );
    }

    #[test]
    fn a_documented_type_named_after_the_module_describes_it() {
        let text = "/// Prints file paths, one per line.\npub struct PathPrinter;\n/// Builds one.\npub struct Builder;\n";
        let interface =
            crate::source::extract(crate::source::Language::Rust, text).expect("parses");
        assert_eq!(
            primary_doc("crates/printer/src/path.rs", &interface),
            Some(("PathPrinter", "Prints file paths, one per line."))
        );
        assert_eq!(primary_doc("crates/printer/src/util.rs", &interface), None);
        assert_eq!(
            primary_doc("crates/printer/src/path/mod.rs", &interface),
            Some(("PathPrinter", "Prints file paths, one per line."))
        );
    }

    /// Field lists are stripped, not fatal; TODO notes, pragmas, commented-out code and legal
    /// lines never describe.
    #[test]
    fn docs_are_read_for_what_describes() {
        let werkzeug = "\n    flask\n    ~~~~~\n\n    A microframework based on Werkzeug.\n\n    :copyright: 2010 Pallets\n    :license: BSD-3-Clause\n";
        assert_eq!(
            purpose_sentence(werkzeug).as_deref(),
            Some("A microframework based on Werkzeug.")
        );
        let fields =
            ":copyright: (c) 2015 by Armin.\n:license: BSD, see LICENSE for\n    more details.\n";
        assert_eq!(purpose_sentence(fields), None);
        for todo in [
            "TODO: use a third party library for this.",
            "TODO: This function could be moved to\nthe utils module.",
            "FIXME(joe) broken on windows",
            "XXX: hack around the parser",
            "- HACK: keep in sync with cli.rs",
        ] {
            assert_eq!(purpose_sentence(todo), None, "{todo}");
        }
        assert_eq!(
            purpose_sentence("TODO docs\n\nA builder for commands.").as_deref(),
            Some("A builder for commands.")
        );
        // A JSDoc block tag ends the description (svelte's message templates: "MESSAGE @param …").
        let jsdoc =
            "Throws a compile error\n@param {null | number | NodeLike} node\n@returns {never}";
        assert_eq!(
            purpose_sentence(jsdoc).as_deref(),
            Some("Throws a compile error.")
        );
        let placeholder = "MESSAGE\n@param {null | number | NodeLike} node\n@returns {never}";
        assert_eq!(purpose_sentence(placeholder), None);
        assert_eq!(
            purpose_sentence("@param {string} x\n@returns {number}"),
            None
        );
        assert_eq!(
            purpose_sentence("@fileoverview Parses flags for the command line.\n@author Ann")
                .as_deref(),
            Some("Parses flags for the command line.")
        );
        assert_eq!(
            purpose_sentence("Sends a response.\n\n@param {Object} body").as_deref(),
            Some("Sends a response.")
        );
        for code in [
            "const x = require('./x');\nmodule.exports = x;",
            "import os\nfrom a import b",
            "app.use(bodyParser.json());",
            "# type: ignore",
            "noqa: E501",
            "pylint: disable=unused-import",
        ] {
            assert_eq!(purpose_sentence(code), None, "{code}");
        }
        let banner = "Copyright 2020 Acme Inc.\nParses the configuration files of the CLI.";
        assert_eq!(
            purpose_sentence(banner).as_deref(),
            Some("Parses the configuration files of the CLI.")
        );
        let mit = "Permission is hereby granted, free of charge, to any person obtaining\na copy of this software.\n\nRoutes requests to handlers.";
        assert_eq!(
            purpose_sentence(mit).as_deref(),
            Some("Routes requests to handlers.")
        );
    }

    #[test]
    fn first_sentence_is_cut_and_terminated() {
        assert_eq!(
            first_sentence("# Parser\n\nParses things. More.").as_deref(),
            Some("Parses things.")
        );
        assert_eq!(
            first_sentence("# Only a title").as_deref(),
            Some("Only a title.")
        );
        assert_eq!(
            first_sentence("Parses e.g. things").as_deref(),
            Some("Parses e.g. things.")
        );
        assert_eq!(first_sentence("\n\n"), None);
    }

    #[test]
    fn a_manifest_says_whose_it_is_and_what_the_package_does() {
        let cargo = "[package]\nname = \"grep-cli\" # the crate\ndescription = \"\"\"\nUtilities for search oriented command line applications.\n\"\"\"\n";
        assert_eq!(
            content_description("crates/cli/Cargo.toml", cargo),
            "Cargo manifest of `grep-cli`: Utilities for search oriented command line applications."
        );
        assert_eq!(
            content_description("Cargo.toml", "[workspace]\nmembers = [\"a\"]\n"),
            "Cargo manifest of the workspace."
        );
        assert_eq!(
            content_description("package.json", "{\"name\": \"express\"}"),
            "npm manifest of `express`."
        );
        assert_eq!(
            content_description("other.toml", "a = 1\n"),
            "TOML file `other.toml`."
        );
    }

    #[test]
    fn a_setext_title_is_a_markdown_title() {
        let text = "grep-cli\n========\nA library.\n";
        assert_eq!(
            content_description("crates/cli/README.md", text),
            "Markdown document: grep-cli."
        );
    }

    /// The description of `text` at `source`, parsed by its language.
    fn described(source: &str, text: &str) -> String {
        let language = crate::source::Language::from_path(std::path::Path::new(source));
        let interface = language.and_then(|language| crate::source::extract(language, text).ok());
        description(&ArchivistInput::of_file(
            source,
            text,
            language,
            interface.as_ref(),
        ))
    }

    /// Test targets copy their module doc: the file's subject tells them apart.
    #[test]
    fn a_test_files_copied_doc_gets_its_subject() {
        let text = "//! Uring file operations tests.

#[test]
fn read_hello() {}
";
        assert_eq!(
            described("tokio/tests/fs_uring_read.rs", text),
            "Uring file operations tests (`fs_uring_read`)."
        );
        assert_eq!(
            described("tokio/tests/fs_uring_statx.rs", text),
            "Uring file operations tests (`fs_uring_statx`)."
        );
        // A doc that names its subject, and any file outside a test or bench target, keep theirs.
        let named = "//! Tests of the uring read.

#[test]
fn read_hello() {}
";
        assert_eq!(
            described("tokio/tests/read.rs", named),
            "Tests of the uring read."
        );
        assert_eq!(
            described("tokio/src/fs/read.rs", text),
            "Uring file operations tests."
        );
        let bench = "//! Benchmark spawning a task.

fn rt() {}
";
        assert_eq!(
            described("benches/time_now.rs", bench),
            "Benchmark spawning a task (`time_now`)."
        );
    }

    /// With no module doc, the doc of the type with the most members says what the file is for.
    #[test]
    fn the_main_types_doc_describes_a_file_of_several_types() {
        let sessions = "class SessionMixin:
    \"\"\"Expands a basic dictionary.\"\"\"

    def permanent(self):
        pass


class SessionInterface:
    \"\"\"The basic interface you have to implement.\"\"\"

    def open_session(self):
        pass

    def save_session(self):
        pass


def helper():
    pass
";
        assert_eq!(
            described("src/flask/sessions.py", sessions),
            "`SessionInterface`: The basic interface you have to implement."
        );
        // Undocumented, it is named with the rest.
        let bare = "class A:
    def a(self):
        pass


class B:
    pass
";
        assert_eq!(
            described("src/flask/ab.py", bare),
            "Defines the `A` class and the `B` class."
        );
    }

    #[test]
    fn a_markdown_document_says_its_title_and_what_it_is_about() {
        let core = "ripgrep core\n------------\nThis is the core ripgrep crate. In particular, `main.rs` is where.\n\n* a list\n";
        assert_eq!(
            content_description("crates/core/README.md", core),
            "Markdown document: ripgrep core — This is the core ripgrep crate."
        );
        let badges = "grep\n----\nripgrep, as a library.\n\n[![Build status](https://x/badge.svg)](https://x)\n";
        assert_eq!(
            content_description("crates/grep/README.md", badges),
            "Markdown document: grep — ripgrep, as a library."
        );
        let prose = "Some notes about the layout of this folder.\n";
        assert_eq!(
            content_description("docs/notes.md", prose),
            "Markdown document: Some notes about the layout of this folder."
        );
        // A rule further down is no title.
        assert_eq!(
            content_description("docs/x.md", "```\ncode\n```\n\nab\n---\n"),
            "Markdown document `x.md`."
        );
    }

    #[test]
    fn a_fuzz_target_and_a_module_tree_root_say_what_they_are() {
        let fuzz = "#![no_main]\nuse globset::Glob;\n\nlibfuzzer_sys::fuzz_target!(|glob_str: &str| {\n    let _ = Glob::new(glob_str);\n});\n";
        assert_eq!(
            described("fuzz/fuzz_targets/fuzz_glob.rs", fuzz),
            "Fuzz target `fuzz_glob`: the function a fuzzer calls with generated input."
        );
        let root = "// Macros useful for testing.\n#[macro_use]\nmod macros;\n\nmod hay;\nmod util;\n\n// Tests for binary files.\nmod binary;\n#[cfg(feature = \"x\")]\nmod index;\nmod json;\n";
        assert_eq!(
            described("tests/tests.rs", root),
            "Declares the test modules `macros`, `hay`, `util`, `binary`, `index` and more."
        );
        assert_eq!(
            described("src/parts/mod.rs", "mod a;\nmod b;\n"),
            "Declares the modules `a`, `b`."
        );
    }

    /// A public module declared or defined is no re-export (tokio's `scheduler/util/mod.rs`:
    /// `pub(crate) mod time_alt;` said "Re-exports `time_alt`"; svelte's `export namespace _CSS`
    /// said "Re-exports `_CSS`"); re-exports still say so.
    #[test]
    fn public_modules_and_namespaces_are_declared_not_re_exported() {
        assert_eq!(
            described(
                "src/util/mod.rs",
                "pub(crate) mod time_alt;\npub mod rand;\n"
            ),
            "Declares the modules `rand`, `time_alt`."
        );
        assert_eq!(
            described(
                "src/net.rs",
                "pub(in crate::x) mod tcp {\n    pub fn f() {}\n}\n"
            ),
            "Declares the module `tcp`."
        );
        assert_eq!(
            described(
                "src/types/css.d.ts",
                "export namespace _CSS {\n  export interface BaseNode { start: number }\n}\n"
            ),
            "Declares the module `_CSS`."
        );
        assert_eq!(
            described("src/lib.rs", "pub use a::b;\npub mod c;\n"),
            "Re-exports `a::b`, `c`."
        );
        assert_eq!(
            described("src/events/index.js", "export { on } from './events.js';\n"),
            "Re-exports `{ on } from './events.js'`."
        );
    }

    #[test]
    fn an_example_is_named_by_its_directory_or_file() {
        assert_eq!(
            example_name("examples/cookie-sessions/index.js").as_deref(),
            Some("cookie-sessions")
        );
        assert_eq!(
            example_name("tokio/examples/echo.rs").as_deref(),
            Some("echo")
        );
        assert_eq!(example_name("src/lib.rs"), None);
        assert_eq!(example_name("src/myexamples/a.rs"), None);
        // Two files of one example, or two steps of one tutorial, are told apart.
        assert_eq!(
            example_name("examples/session/redis.js").as_deref(),
            Some("session/redis")
        );
        let step = "use clap::Command;\n\nfn main() {\n    let _ = Command::new(\"x\");\n}\n";
        assert_eq!(
            described("examples/tutorial_builder/01_quick.rs", step),
            "Example `tutorial_builder/01_quick`: defines the private function `main`."
        );
        assert_eq!(
            described("examples/tutorial_builder/02_apps.rs", step),
            "Example `tutorial_builder/02_apps`: defines the private function `main`."
        );
    }

    /// Issue 32: a file of a kind with nothing parsed says what its content or its place makes it
    /// ("YAML file." was every workflow, "File." every template and POM), else names itself.
    #[test]
    fn a_non_code_file_says_what_it_is_from_its_content_or_its_place() {
        let cases = [
            (
                ".github/workflows/ci.yml",
                "name: CI\non:\n  push:\n    branches: [main]\n  pull_request:\njobs: {}\n",
                "GitHub Actions workflow `CI` (on push, pull_request).",
            ),
            (
                ".github/workflows/legacy.yml",
                "on: [push, pull_request, workflow_dispatch, schedule]\njobs: {}\n",
                "GitHub Actions workflow `legacy.yml` (on push, pull_request, workflow_dispatch and more).",
            ),
            (
                ".github/ISSUE_TEMPLATE/bug-report.yaml",
                "name: Bug Report\ndescription: Create a report to help us improve. Thanks.\nbody: []\n",
                "GitHub issue form `Bug Report`: Create a report to help us improve.",
            ),
            (
                ".github/ISSUE_TEMPLATE/config.yml",
                "blank_issues_enabled: false\ncontact_links:\n  - name: Usage question\n    url: https://x\n  - name: Discussions\n    url: https://y\n  - name: Chat\n    url: https://z\n",
                "GitHub issue template chooser, with the contact links `Usage question`, `Discussions` and more.",
            ),
            (
                ".github/dependabot.yml",
                "version: 2\nupdates:\n  - package-ecosystem: gomod\n    directory: /\n  - package-ecosystem: github-actions\n    directory: /\n  - package-ecosystem: gomod\n    directory: /x\n",
                "Dependabot configuration: updates `gomod`, `github-actions`.",
            ),
            (
                "deploy/app.yaml",
                "name: billing\ndescription: Charges the cards. Nightly.\n",
                "YAML file: billing — Charges the cards.",
            ),
            (
                "data/schema.json",
                "{\"title\": \"Route table\", \"type\": \"object\"}",
                "JSON file: Route table.",
            ),
            ("codecov.yml", "coverage:\n  precision: 2\n", "YAML file `codecov.yml`."),
            (
                "proto/pom.xml",
                "<?xml version=\"1.0\"?>\n<project>\n  <parent>\n    <artifactId>gson-parent</artifactId>\n  </parent>\n  <!-- <name>old</name> -->\n  <artifactId>proto</artifactId>\n  <name>Gson Protobuf Support</name>\n  <description>Gson support for Protobufs.</description>\n  <dependencies><dependency><artifactId>gson</artifactId></dependency></dependencies>\n</project>\n",
                "Maven POM of `proto` (Gson Protobuf Support): Gson support for Protobufs.",
            ),
            (
                "views/404.ejs",
                "<html><head><title>Not Found</title></head><body><h1>404: Not Found</h1></body></html>\n",
                "EJS template: Not Found.",
            ),
            (
                "views/users/edit.ejs",
                "<%- include('../header') -%>\n<h1>Editing <%= user.name %></h1>\n",
                "EJS template: Editing …",
            ),
            // A title that opens with a template tag says nothing: the file is named.
            (
                "user/views/show.hbs",
                "<title>{{user.name}}</title>\n<h1>{{user.name}} <a href=\"/edit\">edit</a></h1>\n",
                "Handlebars template `show.hbs`.",
            ),
            ("views/foot.ejs", "  </body>\n</html>\n", "EJS template `foot.ejs`."),
            (
                "public/index.html",
                "<!DOCTYPE html>\n<html>\n<head><title>Search example</title></head>\n",
                "HTML file: Search example.",
            ),
            (
                "complete/rg.zsh",
                "#compdef rg\n\n##\n# zsh completion function for ripgrep\n#\n# Run ci/test-complete.\n",
                "Shell script: zsh completion function for ripgrep.",
            ),
            (
                "scripts/release.sh",
                "#!/bin/sh\n# Copyright 2020 Acme\nset -e\n# Builds the release archives for\n# every target. Then uploads.\nmake\n",
                "Shell script: Builds the release archives for every target.",
            ),
            ("scripts/run.sh", "#!/bin/sh\nmake all\n", "Shell script `run.sh`."),
            (
                "proto/bag.proto",
                "syntax = \"proto2\";\npackage google.gson.protobuf.generated;\nmessage SimpleProto {\n}\nmessage Outer {\n}\nenum Kind {\n}\n",
                "Protocol Buffers schema of package `google.gson.protobuf.generated`: defines `SimpleProto`, `Outer` and more.",
            ),
            ("gson/proguard.pro", "-keep class X\n", "File `proguard.pro`."),
            ("Makefile", "all:\n\tcargo build\n", "Makefile."),
            (
                "gson/pom.xml",
                "<project><artifactId>gson</artifactId><name>Gson</name></project>",
                "Maven POM of `gson`.",
            ),
            (
                ".github/ISSUE_TEMPLATE/feature.yml",
                "name: Feature Request\ndescription: Got an idea? Submit it here!\n",
                "GitHub issue form `Feature Request`: Got an idea? Submit it here!",
            ),
        ];
        for (source, text, expected) in cases {
            assert_eq!(content_description(source, text), expected, "{source}");
        }
    }

    /// tokio's `macros/*.rs` define crate-local `macro_rules!` only: they say which.
    #[test]
    fn a_file_of_private_macros_names_them() {
        let cfg = "/// Docs.\nmacro_rules! cfg_rt {\n    ($($item:item)*) => {}\n}\n\nmacro_rules! cfg_net {\n    () => {}\n}\n#[cfg(x)]\nmacro_rules! cfg_net {\n    () => {}\n}\ndoc! {macro_rules! cfg_fs {\n    () => {}\n}}\nmacro_rules! cfg_io {\n    () => {}\n}\n";
        assert_eq!(
            described("tokio/src/macros/cfg.rs", cfg),
            "Defines the macros `cfg_rt!`, `cfg_net!`, `cfg_fs!` and more."
        );
        assert_eq!(
            described(
                "tokio/src/macros/loom.rs",
                "macro_rules! if_loom {\n    () => {}\n}\n"
            ),
            "Defines the macro `if_loom!`."
        );
        // Nothing at all to say: the file is named (the row drops the name again).
        assert_eq!(
            described("tests/_require_full.rs", "compile_error!(\"no\");\n"),
            "Test support: Rust source `_require_full.rs` with no public items."
        );
        // Module declarations inside a `cfg` macro are declarations too.
        assert_eq!(
            described(
                "tokio/src/sync/tests/mod.rs",
                "cfg_not_loom! {\n    mod atomic_waker;\n    mod notify;\n}\n"
            ),
            "Declares the test modules `atomic_waker`, `notify`."
        );
    }

    #[test]
    fn a_java_module_and_a_package_private_type_say_what_they_are() {
        let module = "/**\n * Defines the Gson API.\n */\nmodule com.google.gson {\n  exports com.google.gson;\n}\n";
        assert_eq!(
            described("gson/src/main/java/module-info.java", module),
            "Java module `com.google.gson`."
        );
        assert_eq!(
            described(
                "test-jpms/src/main/java/module-info.java",
                "open module com.google.gson.dummy {}\n"
            ),
            "Java module `com.google.gson.dummy`."
        );
        let annotation = "package com.google.gson.internal.bind;\n\nimport java.lang.annotation.Target;\n\n@Target({ElementType.METHOD})\n@interface IgnoreJRERequirement {}\n";
        assert_eq!(
            described(
                "gson/src/main/java/com/google/gson/internal/bind/IgnoreJRERequirement.java",
                annotation
            ),
            "Defines the package-private annotation type `IgnoreJRERequirement`."
        );
    }

    /// gin's `codec/json/{json,jsoniter,sonic,go_json}.go`: one package doc, four builds.
    #[test]
    fn a_go_files_build_constraint_tells_its_alternatives_apart() {
        let file = |constraint: &str| {
            format!("// Copyright 2017 Bo-Yi Wu.\n\n//go:build {constraint}\n\n// Package json indicates what library is being used for JSON encoding.\npackage json\n\nfunc Marshal() {{}}\n")
        };
        assert_eq!(
            described("codec/json/jsoniter.go", &file("jsoniter")),
            "Package json indicates what library is being used for JSON encoding (built with `jsoniter`)."
        );
        assert_eq!(
            described(
                "codec/json/json.go",
                &file("!jsoniter && !go_json && !(sonic && (linux || windows || darwin) && amd64)")
            ),
            "Package json indicates what library is being used for JSON encoding (built with `!jsoniter && !go_json && !(sonic && (linux || windows || darwin) && amd64)`)."
        );
        // A `//go:build` line after the package clause is no constraint.
        let late = "// Package json is JSON.\npackage json\n\n//go:build x\nfunc Marshal() {}\n";
        assert_eq!(
            described("codec/json/late.go", late),
            "Package json is JSON."
        );
    }

    /// babel's generated tsconfig.json read "Generated file, not edited by hand: jSON file.".
    #[test]
    fn an_acronym_keeps_its_case_when_a_sentence_continues() {
        use crate::archivist::Archivist;
        assert_eq!(lower_initial("JSON file `a.json`."), "JSON file `a.json`.");
        assert_eq!(
            lower_initial("Defines the `a` value."),
            "defines the `a` value."
        );
        assert_eq!(lower_initial("`Flask`: app."), "`Flask`: app.");
        assert_eq!(lower_initial("A"), "a");
        let generated = crate::archivist::structural::StructuralArchivist
            .describe(&ArchivistInput::of_file(
                "packages/a/tsconfig.json",
                "/* This file is automatically generated. DO NOT EDIT. */\n{\"extends\": \"../../tsconfig.base.json\"}\n",
                None,
                None,
            ))
            .expect("describes")
            .description;
        assert_eq!(
            generated,
            "Generated file, not edited by hand: JSON file `tsconfig.json`."
        );
    }

    /// An empty `__init__.py` is there to make a package: it says so, and which.
    #[test]
    fn an_empty_package_init_says_which_package_it_makes() {
        assert_eq!(
            described("tests/benchmarks/__init__.py", ""),
            "Marks `tests/benchmarks` as a Python package (empty `__init__.py`)."
        );
        assert_eq!(
            described("fastapi/openapi/__init__.py", "\n"),
            "Marks `fastapi/openapi` as a Python package (empty `__init__.py`)."
        );
        assert_eq!(described("src/empty.py", ""), "Empty Python source.");
    }

    /// A trybuild case is a program of its own, named by its path in the test tree.
    #[test]
    fn a_program_in_a_test_tree_is_a_test_program() {
        let case = "#[derive(Parser)]\nstruct Opt {}\n\nfn main() {}\n";
        assert_eq!(
            described("tests/derive_ui/bool_value_enum.rs", case),
            "Test program `derive_ui/bool_value_enum` (`fn main`), built by the test suite."
        );
        assert_eq!(
            described("tests-build/tests/fail/macros_join.rs", case),
            "Test program `fail/macros_join` (`fn main`), built by the test suite."
        );
    }
}
