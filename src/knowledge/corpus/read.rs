//! Reading one library file into a corpus document: a design file, a concept, a Stack post or a
//! directory's `.aindex` conventions, reduced to the fields and search terms the corpus keeps.
//! An unreadable or malformed file becomes a document carrying the error.

use std::path::Path;

use super::{Doc, DocKind, Terms};
use crate::knowledge::terms::symbols;
use crate::library::aindex::AIndex;
use crate::library::concept::{first_paragraph, Concept};
use crate::library::design_file::{sections, DesignFile};
use crate::library::markdown::list_items;
use crate::library::stack::{id_from_file_name, Post};
use crate::library::{footer, wikilink};
use crate::project::mirror::resolve_source;
use crate::project::LIBRARY_DIR;
use crate::workspace::cache::Stat;
use crate::workspace::library::{classify, Kind};

/// Read and reduce one file. Unreadable or malformed files become a document carrying the error.
pub(super) fn read_doc(library: &Path, path: String, stat: Stat) -> Doc {
    let shown = format!("{LIBRARY_DIR}/{path}");
    // Never through a symlink (the walk lists none; this closes the window after it).
    let root = library.parent().unwrap_or(library);
    // Never past the size a library file may have, and only UTF-8 (what `validate` reports).
    let text = match crate::project::read_library_text(root, &Default::default(), &shown) {
        Ok(text) => text,
        Err(err) if is_reported_as_is(&err) => return broken(path, stat, err.to_string()),
        Err(err) => return broken(path, stat, format!("{shown}: cannot read: {err}")),
    };
    let date = crate::library::footer::rfc3339_from_unix(
        u64::try_from(stat.mtime_ns / 1_000_000_000).unwrap_or(0),
    );
    // What the file is by its place and name: `concepts/` and `stack/` also hold the mirror of a
    // project's own directories of those names.
    let kind = classify(&path);
    let mut doc = if let (Kind::Concept, Some(name)) = (&kind, path.strip_prefix("concepts/")) {
        let name = name.trim_end_matches(".md").to_string();
        match Concept::parse(&shown, &name, &text) {
            Ok(concept) => concept_doc(&concept, &text),
            Err(err) => broken_named(name, err.to_string()),
        }
    } else if let (Kind::StackPost, Some(name)) = (&kind, path.strip_prefix("stack/")) {
        match Post::parse(&shown, &text) {
            Ok(post) => stack_doc(&post),
            Err(err) => broken_named(
                id_from_file_name(name).unwrap_or_else(|| name.to_string()),
                err.to_string(),
            ),
        }
    } else if let Some(dir) = index_dir(&path) {
        match AIndex::parse(&shown, dir, &text) {
            Ok(index) => convention_doc(&index),
            Err(err) => broken_named(dir.to_string(), err.to_string()),
        }
    } else {
        let source = resolve_source(root, &shown).unwrap_or_else(|| path.clone());
        match DesignFile::parse(&shown, &text) {
            Ok(design) => design_doc(root, source, &design, &text),
            Err(err) => broken_named(source, err.to_string()),
        }
    };
    if doc.date.is_empty() {
        doc.date = date;
    }
    doc.kind = Some(if kind == Kind::Concept {
        DocKind::Concept
    } else if kind == Kind::StackPost {
        DocKind::Stack
    } else if index_dir(&path).is_some() {
        DocKind::Convention
    } else {
        DocKind::Design
    });
    doc.path = path;
    doc.stat = Some(stat);
    doc
}

/// A read error whose message already says which file and why: too large, not UTF-8.
fn is_reported_as_is(err: &std::io::Error) -> bool {
    matches!(
        err.kind(),
        std::io::ErrorKind::FileTooLarge | std::io::ErrorKind::InvalidData
    )
}

/// The directory of a library-relative `.aindex` path (`src/a/.aindex` → `src/a`, `.aindex` → ``).
fn index_dir(path: &str) -> Option<&str> {
    let dir = path.strip_suffix(".aindex")?;
    if dir.is_empty() {
        return Some("");
    }
    dir.strip_suffix('/')
}

/// A directory's Local Conventions as one document: its rules are the summary (empty when it has
/// none, and then it is no search hit), their tags its tags, their concepts its links.
fn convention_doc(index: &AIndex) -> Doc {
    let dir = index.directory.as_str();
    let conventions: Vec<_> = list_items(index.local_conventions_raw())
        .iter()
        .map(|item| crate::knowledge::conventions::Convention::parse(dir, item))
        .collect();
    let rules: Vec<&str> = conventions.iter().map(|c| c.text.as_str()).collect();
    let summary = rules.join(" · ");
    let mut tags: Vec<String> = conventions.iter().flat_map(|c| c.tags.clone()).collect();
    tags.sort();
    tags.dedup();
    let shown = if dir.is_empty() {
        "./".to_string()
    } else {
        format!("{dir}/")
    };
    Doc {
        terms: Terms::new(
            &[&shown],
            &[],
            &tags,
            &summary,
            index.local_conventions_raw(),
        ),
        name: shown.clone(),
        title: shown,
        tags,
        links: conventions
            .iter()
            .flat_map(|c| c.concepts.clone())
            .collect(),
        summary,
        ..Doc::default()
    }
}

fn broken(path: String, stat: Stat, error: String) -> Doc {
    Doc {
        kind: Some(DocKind::Design),
        name: path.clone(),
        title: path.clone(),
        path,
        error: Some(error),
        stat: Some(stat),
        ..Doc::default()
    }
}

fn broken_named(name: String, error: String) -> Doc {
    Doc {
        title: name.clone(),
        name,
        error: Some(error),
        ..Doc::default()
    }
}

fn concept_doc(concept: &Concept, text: &str) -> Doc {
    let (content, _) = footer::split(text);
    let aliases: Vec<String> = concept
        .meta
        .aliases
        .iter()
        .map(|a| a.trim().to_string())
        .collect();
    let mut names = vec![concept.name.as_str(), concept.title()];
    names.extend(aliases.iter().map(String::as_str));
    let tags = concept.tags();
    let summary = concept.summary();
    Doc {
        terms: Terms::new(&names, &[], &tags, &summary, body_of(content)),
        name: concept.name.clone(),
        title: concept.title().to_string(),
        aliases,
        tags,
        summary,
        status: concept.status().as_str().to_string(),
        pointer: concept.meta.superseded_by.clone().unwrap_or_default(),
        links: link_targets(content),
        ..Doc::default()
    }
}

fn stack_doc(post: &Post) -> Doc {
    let problem = post.read_body().problem;
    let summary = first_paragraph(&problem);
    let tags = post.tags();
    let names = [post.meta.id.as_str(), post.meta.title.as_str()];
    Doc {
        terms: Terms::new(&names, &[], &tags, &summary, &post.body),
        name: post.meta.id.clone(),
        title: post.meta.title.trim().to_string(),
        tags,
        summary,
        status: post.meta.status.as_str().to_string(),
        votes: post.meta.votes,
        accepted: post.meta.accepted_answer,
        pointer: post.meta.duplicate_of.clone().unwrap_or_default(),
        links: link_targets(&post.body),
        files: post.meta.refs.files.clone(),
        concepts: post.meta.refs.concepts.clone(),
        date: post.meta.created.clone(),
        ..Doc::default()
    }
}

fn design_doc(root: &Path, source: String, design: &DesignFile, text: &str) -> Doc {
    let (content, _) = footer::split(text);
    let mut tags: Vec<String> = design
        .section(sections::TAGS)
        .map(|section| list_items(&section.body))
        .unwrap_or_default();
    if let Some(serde_yaml::Value::Sequence(extra)) = design.frontmatter.extra.get("tags") {
        tags.extend(extra.iter().filter_map(|v| v.as_str().map(str::to_string)));
    }
    let mut tags: Vec<String> = tags
        .into_iter()
        .map(|tag| tag.trim().to_lowercase())
        .filter(|tag| !tag.is_empty())
        .collect();
    tags.dedup();
    let symbols = design
        .section(sections::INTERFACE_CONTRACT)
        .map(|section| symbols(&section.body))
        .unwrap_or_default();
    let summary = design.frontmatter.description.trim().to_string();
    let body = searchable_design_text(design);
    let described = crate::archivist::generic::searchable_description(&source, &summary);
    let mut terms = Terms::new(&[&source], &symbols, &tags, &described, &body);
    terms.comments = comment_terms(root, &source);
    Doc {
        terms,
        title: source.clone(),
        files: vec![source.clone()],
        name: source,
        tags,
        symbols,
        summary,
        links: link_targets(content),
        ..Doc::default()
    }
}

/// The text after the frontmatter.
fn body_of(content: &str) -> &str {
    crate::library::frontmatter::split("", content)
        .map(|split| split.body)
        .unwrap_or(content)
}

/// A design file's own words: its preamble and sections, without the lists of other files'
/// paths (Dependencies, Dependents, Tests), which say nothing about what the file itself does, nor
/// what the tool writes the same way in every file: the standard headings, the Complexity Warning
/// ("Large file: 1010 lines"), the Tags (searched as tags).
fn searchable_design_text(design: &DesignFile) -> String {
    let mut text = design.body.preamble.clone();
    for section in &design.body.sections {
        let heading = section.heading.as_str();
        let is = |name: &str| heading.eq_ignore_ascii_case(name);
        if [
            sections::DEPENDENCIES,
            sections::DEPENDENTS,
            sections::TESTS,
            sections::COMPLEXITY_WARNING,
            sections::TAGS,
        ]
        .iter()
        .any(|skip| is(skip))
        {
            continue;
        }
        let standard = [
            sections::INTERFACE_CONTRACT,
            sections::EXTERNAL_DEPENDENCIES,
            sections::WIKILINKS,
            sections::STACK,
        ]
        .iter()
        .any(|name| is(name));
        text.push('\n');
        if !standard {
            text.push_str(heading);
            text.push('\n');
        }
        for line in section.body.lines().filter(|line| !is_tool_note(line)) {
            text.push_str(line);
            text.push('\n');
        }
    }
    text
}

/// A line the tool writes the same way in every file: the note counting what a capped Interface
/// Contract or list left out (`// … and 12 more lines: read src/app.py`, `… and 5 more`), or the
/// placeholder of an empty section (`(no public interface)`, `(none)`).
fn is_tool_note(line: &str) -> bool {
    let line = line.trim();
    ["// …", "# …", "…"]
        .iter()
        .any(|note| line.starts_with(note))
        || matches!(line, "(none)" | "(no public interface)")
}

/// The terms of the comments of `source` (under the project `root`), read without following a
/// symlink; empty for a file in no supported language or one that cannot be read.
fn comment_terms(root: &Path, source: &str) -> String {
    let Some(language) = crate::source::Language::from_path(Path::new(source)) else {
        return String::new();
    };
    match crate::nofollow::read(root, source) {
        Ok(bytes) => {
            let text = String::from_utf8_lossy(&bytes);
            crate::knowledge::terms::term_string([crate::source::comments::comment_text(
                language.walks(),
                &text,
            )
            .as_str()])
        }
        Err(_) => String::new(),
    }
}

fn link_targets(text: &str) -> Vec<String> {
    let mut targets: Vec<String> = Vec::new();
    for link in wikilink::extract(text) {
        let target = link.target().to_string();
        if !targets.contains(&target) {
            targets.push(target);
        }
    }
    targets
}
