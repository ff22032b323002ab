//! The corpus cache files under `.lexibrary/.cache/`: one record per document (tab-separated,
//! escaped, sorted by path) after a header with the stamp of the update cache whose names were
//! merged (`super::code`), and a `.bodies` companion with each document's search terms. Derived and
//! gitignored: a missing, foreign-version or damaged file reads as empty and is rebuilt.

use std::collections::HashMap;
use std::path::Path;
use std::time::SystemTime;

use rayon::prelude::*;

use super::{Doc, DocKind, Terms};
use crate::atomic;
use crate::tsv::{push_escaped, unescape};
use crate::workspace::cache::{Stat, RACY_WINDOW_NS};

/// Version 2: symbols, conventions and per-field search terms. Version 3: the source's public
/// names of each design document, and the stamp of the update cache they came from. Version 4: the
/// words of each source's comments, a description's template words left out, `-iz` stemmed.
/// Version 6: a Ruby method's `?`/`!` kept in its symbol (`empty?`).
const FORMAT_HEADER: &str = "lexibrarian-corpus 6";
const LIST_SEPARATOR: char = '\u{1f}';

/// The cached records, sorted by path, and the stamp of the update cache whose names they hold
/// (empty when the cache is missing, foreign or damaged).
pub(super) fn read_cache(path: &Path) -> (Vec<Doc>, String) {
    let none = || (Vec::new(), String::new());
    let Ok(text) = std::fs::read_to_string(path) else {
        return none();
    };
    let mut lines = text.lines();
    let Some((FORMAT_HEADER, stamp)) = lines.next().and_then(|line| line.split_once('\t')) else {
        return none();
    };
    let lines: Vec<&str> = lines.collect();
    // A damaged cache is dropped whole: cheaper to rebuild than to reason about.
    let Some(docs) = lines
        .par_iter()
        .map(|line| parse_record(line))
        .collect::<Option<Vec<Doc>>>()
    else {
        return none();
    };
    if !docs.is_sorted_by(|a, b| a.path < b.path) {
        return none();
    }
    (docs, stamp.to_string())
}

pub(super) fn parse_record(line: &str) -> Option<Doc> {
    let fields: Vec<&str> = line.split('\t').collect();
    if fields.len() != 20 {
        return None;
    }
    let list = |field: &str| -> Vec<String> {
        if field.is_empty() {
            Vec::new()
        } else {
            field.split(LIST_SEPARATOR).map(unescape).collect()
        }
    };
    Some(Doc {
        kind: Some(DocKind::from_code(fields[0])?),
        path: unescape(fields[1]),
        stat: Some(Stat {
            size: fields[2].parse().ok()?,
            mtime_ns: fields[3].parse().ok()?,
        }),
        name: unescape(fields[4]),
        title: unescape(fields[5]),
        aliases: list(fields[6]),
        tags: list(fields[7]),
        summary: unescape(fields[8]),
        status: unescape(fields[9]),
        votes: fields[10].parse().ok()?,
        accepted: match fields[11] {
            "" => None,
            n => Some(n.parse().ok()?),
        },
        pointer: unescape(fields[12]),
        links: list(fields[13]),
        files: list(fields[14]),
        concepts: list(fields[15]),
        date: unescape(fields[16]),
        error: (!fields[17].is_empty()).then(|| unescape(fields[17])),
        symbols: list(fields[18]),
        code_symbols: match fields[19] {
            "-" => None,
            field => Some(list(field.strip_prefix('+')?)),
        },
        terms: Terms::default(),
    })
}

/// One record (without its line end): kind, path, size, mtime (zero within the racy window before
/// `now_ns`), then the fields. False (nothing written) for a document without a kind.
pub(super) fn push_record(out: &mut String, doc: &Doc, now_ns: i128) -> bool {
    let Some(kind) = doc.kind else { return false };
    let stat = doc.stat.unwrap_or(Stat {
        size: 0,
        mtime_ns: 0,
    });
    let mtime_ns = if now_ns - stat.mtime_ns < RACY_WINDOW_NS {
        0
    } else {
        stat.mtime_ns
    };
    out.push_str(kind.code());
    out.push('\t');
    push_escaped(out, &doc.path);
    out.push_str(&format!("\t{}\t{mtime_ns}\t", stat.size));
    push_fields(out, doc);
    true
}

/// Items separated by U+001F.
fn push_list(out: &mut String, items: &[String]) {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            out.push(LIST_SEPARATOR);
        }
        push_escaped(out, item);
    }
}

/// The fields of a record after its kind, path and stat.
fn push_fields(out: &mut String, doc: &Doc) {
    push_escaped(out, &doc.name);
    out.push('\t');
    push_escaped(out, &doc.title);
    out.push('\t');
    push_list(out, &doc.aliases);
    out.push('\t');
    push_list(out, &doc.tags);
    out.push('\t');
    push_escaped(out, &doc.summary);
    out.push('\t');
    push_escaped(out, &doc.status);
    out.push_str(&format!("\t{}\t", doc.votes));
    if let Some(accepted) = doc.accepted {
        out.push_str(&accepted.to_string());
    }
    out.push('\t');
    push_escaped(out, &doc.pointer);
    for list in [&doc.links, &doc.files, &doc.concepts] {
        out.push('\t');
        push_list(out, list);
    }
    out.push('\t');
    push_escaped(out, &doc.date);
    out.push('\t');
    if let Some(error) = &doc.error {
        push_escaped(out, error);
    }
    out.push('\t');
    push_list(out, &doc.symbols);
    // `-`: the source's names not merged yet; `+` and the list: merged.
    match &doc.code_symbols {
        None => out.push_str("\t-"),
        Some(names) => {
            out.push_str("\t+");
            push_list(out, names);
        }
    }
}

/// One line of the bodies file.
fn push_terms(bodies: &mut String, doc: &Doc) {
    push_escaped(bodies, &doc.path);
    let terms = &doc.terms;
    for field in [
        &terms.name,
        &terms.symbols,
        &terms.tags,
        &terms.summary,
        &terms.body,
        &terms.comments,
    ] {
        bodies.push('\t');
        push_escaped(bodies, field);
    }
    bodies.push('\n');
}

/// The companion bodies file: `path<TAB>name<TAB>symbols<TAB>tags<TAB>summary<TAB>body<TAB>comments`
/// per line, each a term string.
pub(super) fn read_bodies(path: &Path) -> HashMap<String, Terms> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return HashMap::new();
    };
    let mut lines = text.lines();
    if lines.next() != Some(FORMAT_HEADER) {
        return HashMap::new();
    }
    lines
        .filter_map(|line| {
            let mut fields = line.split('\t').map(unescape);
            let path = fields.next()?;
            let terms = Terms {
                name: fields.next()?,
                symbols: fields.next()?,
                tags: fields.next()?,
                summary: fields.next()?,
                body: fields.next()?,
                comments: fields.next()?,
            };
            Some((path, terms))
        })
        .collect()
}

/// Write the records and bodies of `docs`; `stamp`: that of the update cache their names came from.
pub(super) fn write_cache(path: &Path, bodies_path: &Path, docs: &[Doc], stamp: &str) {
    let now_ns = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128);
    let mut out = String::with_capacity(docs.len() * 200);
    out.push_str(FORMAT_HEADER);
    out.push('\t');
    out.push_str(stamp);
    out.push('\n');
    let mut bodies = String::with_capacity(docs.iter().map(|d| d.terms.len() + 50).sum());
    bodies.push_str(FORMAT_HEADER);
    bodies.push('\n');
    for doc in docs {
        if push_record(&mut out, doc, now_ns) {
            out.push('\n');
            push_terms(&mut bodies, doc);
        }
    }
    // A cache that cannot be written is not an error: the next load reads the files again.
    if let Some(dir) = path.parent() {
        if std::fs::create_dir_all(dir).is_ok() {
            // Bodies first: a reader that sees the new records finds their bodies.
            let _ = atomic::write(bodies_path, bodies.as_bytes());
            let _ = atomic::write(path, out.as_bytes());
        }
    }
}
