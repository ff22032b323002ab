//! The searchable corpus: every design file, concept and Stack post reduced to the fields that
//! search, `lexi concepts`, `lexi stack list` and context bundles need.
//!
//! Reading 20,000 design files on every `lexi search` would cost hundreds of milliseconds, so the
//! corpus is cached in derived, gitignored files under `.lexibrary/.cache/`: `corpus-designs` and
//! `corpus-knowledge` (concepts and Stack posts, small, loaded on their own), each with a
//! `.bodies` companion holding the searchable text, read only by free-text queries. Each record keeps the
//! file's size and mtime; a load stats every file and re-reads only the ones that changed, were added
//! or disappeared, then rewrites the cache. The cache is never the truth: a missing, unreadable,
//! corrupt or foreign-version cache is silently rebuilt, and a cache that cannot be written (a
//! read-only checkout) just means the next load reads the files again.
//!
//! Files modified within the last two seconds are stored with a zero mtime so that an edit landing in
//! the same timestamp tick as the load is never missed (git's "racy clean" problem).

use std::collections::HashMap;
use std::path::Path;
use std::time::SystemTime;

use rayon::prelude::*;

use crate::atomic;
use crate::library::concept::{first_paragraph, Concept, CONCEPTS_DIR};
use crate::library::design_file::{sections, DesignFile};
use crate::library::markdown::list_items;
use crate::library::stack::{id_from_file_name, Post, STACK_DIR};
use crate::library::{footer, wikilink};
use crate::project::mirror::resolve_source;
use crate::project::{Project, CACHE_DIR, LIBRARY_DIR};
use crate::tsv::{push_escaped, unescape};
use crate::workspace::cache::Stat;
use crate::workspace::library::{walk, Entry, Kind, Listing, Part};

const FORMAT_HEADER: &str = "lexibrarian-corpus 1";
const LIST_SEPARATOR: char = '\u{1f}';
/// Files younger than this are cached with a zero mtime (racy-clean protection).
const RACY_WINDOW_NS: i128 = 2_000_000_000;

/// The three kinds of library document.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum DocKind {
    Concept,
    Design,
    Stack,
}

impl DocKind {
    fn code(self) -> &'static str {
        match self {
            DocKind::Concept => "c",
            DocKind::Design => "d",
            DocKind::Stack => "s",
        }
    }

    fn from_code(code: &str) -> Option<DocKind> {
        Some(match code {
            "c" => DocKind::Concept,
            "d" => DocKind::Design,
            "s" => DocKind::Stack,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DocKind::Concept => "concept",
            DocKind::Design => "design",
            DocKind::Stack => "stack",
        }
    }
}

/// One library document, reduced for search and listing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Doc {
    pub kind: Option<DocKind>,
    /// Path relative to `.lexibrary/` (`src/a.rs.md`, `concepts/X.md`, `stack/ST-001-x.md`).
    pub path: String,
    /// Design: the source path. Concept: the file stem. Stack: the post id.
    pub name: String,
    /// Design: the source path. Concept: `title:`. Stack: `title:`.
    pub title: String,
    /// Concept aliases.
    pub aliases: Vec<String>,
    /// Lower-cased tags (one namespace for all kinds).
    pub tags: Vec<String>,
    /// Design: the description. Concept: the summary. Stack: the problem's first paragraph.
    pub summary: String,
    /// Concept or post status; empty for designs.
    pub status: String,
    /// Stack: the net score.
    pub votes: i64,
    /// Stack: whether an answer is accepted.
    pub accepted: Option<u32>,
    /// Concept: `superseded_by`. Stack: `duplicate_of`.
    pub pointer: String,
    /// Wikilink targets in the document (concept names, `ST-NNN`), deduplicated, in order.
    pub links: Vec<String>,
    /// Design: its source. Stack: `refs.files`.
    pub files: Vec<String>,
    /// Stack: `refs.concepts`.
    pub concepts: Vec<String>,
    /// Stack: `created`. Others: the file's mtime as RFC 3339, for recency.
    pub date: String,
    /// Lower-cased text of the whole document (without frontmatter and footer), for body matches.
    pub body: String,
    /// Set when the file could not be parsed: `path:line: message`. Such a document is listed with
    /// the error and matched only by its path.
    pub error: Option<String>,
    stat: Option<Stat>,
}

/// Which parts of the corpus to load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kinds {
    pub designs: bool,
    pub knowledge: bool,
    /// Load design files' body words too (needed for free-text queries only; they are most of the
    /// cache's volume, so tag and scope queries skip them).
    pub design_bodies: bool,
}

impl Kinds {
    pub const ALL: Kinds = Kinds {
        designs: true,
        knowledge: true,
        design_bodies: true,
    };
    pub const KNOWLEDGE: Kinds = Kinds {
        designs: false,
        knowledge: true,
        design_bodies: false,
    };
}

/// The loaded corpus.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    pub docs: Vec<Doc>,
}

impl Corpus {
    /// Load the requested kinds, refreshing the cache from the files.
    pub fn load(project: &Project, kinds: Kinds) -> Corpus {
        let library = project.library_dir();
        let knowledge = if kinds.knowledge {
            knowledge_files(&library)
        } else {
            Vec::new()
        };
        let designs = if kinds.designs {
            let mirror = walk(&library, Part::MIRROR).files;
            mirror
                .into_iter()
                .filter(is_design)
                .map(path_and_stat)
                .collect()
        } else {
            Vec::new()
        };
        Corpus::refreshed(&library, knowledge, designs, kinds)
    }

    /// [`Corpus::load`] from a listing of the whole library (`Part::ALL`) the caller already made.
    pub fn from_listing(project: &Project, listing: &Listing, kinds: Kinds) -> Corpus {
        let listed = |wanted: bool, kind: fn(&Entry) -> bool| -> Vec<(String, Stat)> {
            let files = listing.files.iter().filter(|entry| wanted && kind(entry));
            files.map(|entry| (entry.rel.clone(), entry.stat)).collect()
        };
        let knowledge = listed(kinds.knowledge, is_knowledge);
        let designs = listed(kinds.designs, is_design);
        Corpus::refreshed(&project.library_dir(), knowledge, designs, kinds)
    }

    /// The documents of the listed files, from the cache where it is current.
    fn refreshed(
        library: &Path,
        knowledge: Vec<(String, Stat)>,
        designs: Vec<(String, Stat)>,
        kinds: Kinds,
    ) -> Corpus {
        let cache_dir = library.join(CACHE_DIR);
        let mut docs = Vec::new();
        if kinds.knowledge {
            let cache = cache_dir.join("corpus-knowledge");
            docs.extend(refresh(library, &cache, knowledge, true));
        }
        if kinds.designs {
            let cache = cache_dir.join("corpus-designs");
            docs.extend(refresh(library, &cache, designs, kinds.design_bodies));
        }
        Corpus { docs }
    }

    /// Documents of one kind.
    pub fn of_kind(&self, kind: DocKind) -> impl Iterator<Item = &Doc> {
        self.docs.iter().filter(move |doc| doc.kind == Some(kind))
    }
}

/// Re-read what changed since the cache at `cache_path` was written; rewrite the cache if needed.
/// Bodies live in a companion file (`<cache>.bodies`) read only when `bodies` is asked for or the
/// cache must be rewritten.
fn refresh(
    library: &Path,
    cache_path: &Path,
    mut files: Vec<(String, Stat)>,
    bodies: bool,
) -> Vec<Doc> {
    files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let bodies_path = cache_path.with_extension("bodies");
    // Both lists are sorted by path: a merge join moves each cached record once.
    let mut cached = read_cache(cache_path).into_iter().peekable();
    let mut changed = false;
    let mut stale = Vec::new();
    let mut docs = Vec::with_capacity(files.len());
    for (path, stat) in files {
        while cached.next_if(|doc| doc.path < path).is_some() {
            changed = true; // a file that is gone
        }
        match cached.next_if(|doc| doc.path == path) {
            Some(doc) if doc.stat == Some(stat) && stat.mtime_ns != 0 => docs.push(doc),
            _ => stale.push((path, stat)),
        }
    }
    changed |= cached.next().is_some();
    let rewrite = changed || !stale.is_empty();
    if bodies || rewrite {
        let mut cached_bodies = read_bodies(&bodies_path);
        if cached_bodies.len() < docs.len() {
            // Bodies missing for cached documents: re-read those files too.
            let (keep, reread): (Vec<Doc>, Vec<Doc>) = docs
                .into_iter()
                .partition(|doc| cached_bodies.contains_key(&doc.path));
            stale.extend(
                reread
                    .into_iter()
                    .filter_map(|doc| Some((doc.path, doc.stat?))),
            );
            docs = keep;
        }
        for doc in &mut docs {
            if let Some(body) = cached_bodies.remove(&doc.path) {
                doc.body = body;
            }
        }
    }
    if !stale.is_empty() {
        changed = true;
        // Only now do the records need re-sorting (the rare path).
        let fresh: Vec<Doc> = stale
            .into_par_iter()
            .map(|(path, stat)| read_doc(library, path, stat))
            .collect();
        docs.extend(fresh);
        docs.sort_by(|a, b| a.path.cmp(&b.path));
    }
    if changed {
        write_cache(cache_path, &bodies_path, &docs);
    }
    docs
}

/// Concept and Stack files with their stats: `concepts/*.md` and `stack/*.md`.
fn knowledge_files(library: &Path) -> Vec<(String, Stat)> {
    let mut files = Vec::new();
    for dir in [CONCEPTS_DIR, STACK_DIR] {
        let only_dir = Part {
            under: dir,
            max_depth: Some(0),
            mirror_only: false,
        };
        let listing = walk(library, only_dir);
        files.extend(
            listing
                .files
                .into_iter()
                .filter(is_knowledge)
                .map(path_and_stat),
        );
    }
    files
}

/// A concept or a Stack post.
fn is_knowledge(entry: &Entry) -> bool {
    matches!(entry.kind, Kind::Concept | Kind::StackPost)
}

/// A design file. Like the sources they document, design files are not hidden: nothing under a
/// name that starts with a dot is one, except the mirror of a documented dot-path (`.github/`,
/// `.gitlab-ci.yml`, …: `project::scope::documented_dot_path`).
fn is_design(entry: &Entry) -> bool {
    match &entry.kind {
        Kind::Design { source } => {
            !entry.rel.split('/').any(|part| part.starts_with('.'))
                || crate::project::scope::documented_dot_path(source)
        }
        _ => false,
    }
}

fn path_and_stat(entry: Entry) -> (String, Stat) {
    (entry.rel, entry.stat)
}

/// Read and reduce one file. Unreadable or malformed files become a document carrying the error.
fn read_doc(library: &Path, path: String, stat: Stat) -> Doc {
    let shown = format!("{LIBRARY_DIR}/{path}");
    // Never through a symlink (the walk lists none; this closes the window after it).
    let root = library.parent().unwrap_or(library);
    let text = match crate::nofollow::read(root, &shown) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(err) => return broken(path, stat, format!("{shown}: cannot read: {err}")),
    };
    let date = crate::library::footer::rfc3339_from_unix(
        u64::try_from(stat.mtime_ns / 1_000_000_000).unwrap_or(0),
    );
    let mut doc = if let Some(name) = path.strip_prefix("concepts/") {
        let name = name.trim_end_matches(".md").to_string();
        match Concept::parse(&shown, &name, &text) {
            Ok(concept) => concept_doc(&concept, &text),
            Err(err) => broken_named(name, err.to_string()),
        }
    } else if let Some(name) = path.strip_prefix("stack/") {
        match Post::parse(&shown, &text) {
            Ok(post) => stack_doc(&post),
            Err(err) => broken_named(
                id_from_file_name(name).unwrap_or_else(|| name.to_string()),
                err.to_string(),
            ),
        }
    } else {
        let source = resolve_source(root, &shown).unwrap_or_else(|| path.clone());
        match DesignFile::parse(&shown, &text) {
            Ok(design) => design_doc(source, &design, &text),
            Err(err) => broken_named(source, err.to_string()),
        }
    };
    if doc.date.is_empty() {
        doc.date = date;
    }
    doc.kind = Some(if path.starts_with("concepts/") {
        DocKind::Concept
    } else if path.starts_with("stack/") {
        DocKind::Stack
    } else {
        DocKind::Design
    });
    doc.path = path;
    doc.stat = Some(stat);
    doc
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
    Doc {
        name: concept.name.clone(),
        title: concept.title().to_string(),
        aliases: concept
            .meta
            .aliases
            .iter()
            .map(|a| a.trim().to_string())
            .collect(),
        tags: concept.tags(),
        summary: concept.summary(),
        status: concept.status().as_str().to_string(),
        pointer: concept.meta.superseded_by.clone().unwrap_or_default(),
        links: link_targets(content),
        body: body_text(content),
        ..Doc::default()
    }
}

fn stack_doc(post: &Post) -> Doc {
    let problem = post.read_body().problem;
    Doc {
        name: post.meta.id.clone(),
        title: post.meta.title.trim().to_string(),
        tags: post.tags(),
        summary: first_paragraph(&problem),
        status: post.meta.status.as_str().to_string(),
        votes: post.meta.votes,
        accepted: post.meta.accepted_answer,
        pointer: post.meta.duplicate_of.clone().unwrap_or_default(),
        links: link_targets(&post.body),
        files: post.meta.refs.files.clone(),
        concepts: post.meta.refs.concepts.clone(),
        date: post.meta.created.clone(),
        body: post.body.to_lowercase(),
        ..Doc::default()
    }
}

fn design_doc(source: String, design: &DesignFile, text: &str) -> Doc {
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
    Doc {
        title: source.clone(),
        files: vec![source.clone()],
        name: source,
        tags,
        summary: design.frontmatter.description.trim().to_string(),
        links: link_targets(content),
        body: body_words(&body_text(content)),
        ..Doc::default()
    }
}

/// The text after the frontmatter, lower-cased.
fn body_text(content: &str) -> String {
    crate::library::frontmatter::split("", content)
        .map(|split| split.body)
        .unwrap_or(content)
        .to_lowercase()
}

/// The distinct words of a (lower-cased) body, space-separated, in first-seen order. Words keep
/// `_ / . - :` so identifiers and paths stay whole; a query word matches inside a word (`f12` finds
/// `f123_4`). Design bodies are mostly interface skeletons full of repeated tokens, so this is a
/// fraction of the text.
fn body_words(text: &str) -> String {
    let mut seen = std::collections::HashSet::new();
    let mut out = String::new();
    for word in text
        .split(|c: char| !(c.is_alphanumeric() || matches!(c, '_' | '/' | '.' | '-' | ':')))
        .map(|word| word.trim_matches(|c: char| matches!(c, '.' | ':' | '-')))
        .filter(|word| !word.is_empty())
    {
        if seen.insert(word) {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(word);
        }
    }
    out
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

// --- the cache file -------------------------------------------------------------------------------

/// The cached records, sorted by path (empty when the cache is missing, foreign or damaged).
fn read_cache(path: &Path) -> Vec<Doc> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return Vec::new();
    };
    let mut lines = text.lines();
    if lines.next() != Some(FORMAT_HEADER) {
        return Vec::new();
    }
    let lines: Vec<&str> = lines.collect();
    // A damaged cache is dropped whole: cheaper to rebuild than to reason about.
    let Some(docs) = lines
        .par_iter()
        .map(|line| parse_record(line))
        .collect::<Option<Vec<Doc>>>()
    else {
        return Vec::new();
    };
    if !docs.is_sorted_by(|a, b| a.path < b.path) {
        return Vec::new();
    }
    docs
}

fn parse_record(line: &str) -> Option<Doc> {
    let fields: Vec<&str> = line.split('\t').collect();
    if fields.len() != 18 {
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
        body: String::new(),
    })
}

/// The companion bodies file: `path<TAB>body` per line.
fn read_bodies(path: &Path) -> HashMap<String, String> {
    let Ok(text) = std::fs::read_to_string(path) else {
        return HashMap::new();
    };
    let mut lines = text.lines();
    if lines.next() != Some(FORMAT_HEADER) {
        return HashMap::new();
    }
    lines
        .filter_map(|line| line.split_once('\t'))
        .map(|(path, body)| (unescape(path), unescape(body)))
        .collect()
}

fn write_cache(path: &Path, bodies_path: &Path, docs: &[Doc]) {
    let now_ns = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as i128);
    let mut out = String::with_capacity(docs.len() * 200);
    out.push_str(FORMAT_HEADER);
    out.push('\n');
    let mut bodies = String::with_capacity(docs.iter().map(|d| d.body.len() + 50).sum());
    bodies.push_str(FORMAT_HEADER);
    bodies.push('\n');
    for doc in docs {
        let Some(kind) = doc.kind else { continue };
        let stat = doc.stat.unwrap_or(Stat {
            size: 0,
            mtime_ns: 0,
        });
        let mtime_ns = if now_ns - stat.mtime_ns < RACY_WINDOW_NS {
            0
        } else {
            stat.mtime_ns
        };
        let list = |out: &mut String, items: &[String]| {
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(LIST_SEPARATOR);
                }
                push_escaped(out, item);
            }
        };
        out.push_str(kind.code());
        out.push('\t');
        push_escaped(&mut out, &doc.path);
        out.push_str(&format!("\t{}\t{mtime_ns}\t", stat.size));
        push_escaped(&mut out, &doc.name);
        out.push('\t');
        push_escaped(&mut out, &doc.title);
        out.push('\t');
        list(&mut out, &doc.aliases);
        out.push('\t');
        list(&mut out, &doc.tags);
        out.push('\t');
        push_escaped(&mut out, &doc.summary);
        out.push('\t');
        push_escaped(&mut out, &doc.status);
        out.push_str(&format!("\t{}\t", doc.votes));
        if let Some(accepted) = doc.accepted {
            out.push_str(&accepted.to_string());
        }
        out.push('\t');
        push_escaped(&mut out, &doc.pointer);
        out.push('\t');
        list(&mut out, &doc.links);
        out.push('\t');
        list(&mut out, &doc.files);
        out.push('\t');
        list(&mut out, &doc.concepts);
        out.push('\t');
        push_escaped(&mut out, &doc.date);
        out.push('\t');
        if let Some(error) = &doc.error {
            push_escaped(&mut out, error);
        }
        out.push('\n');
        push_escaped(&mut bodies, &doc.path);
        bodies.push('\t');
        push_escaped(&mut bodies, &doc.body);
        bodies.push('\n');
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
