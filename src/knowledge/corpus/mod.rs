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
//!
//! A design file's Interface Contract may be cut by its budget; the names of every public item of its
//! source come from the cache of the last update instead ([`code`]), merged into each design
//! document's symbols when a load is given that cache — never by parsing a source.

mod cache;
mod code;
pub mod index;
mod read;

pub use code::stamp as code_stamp;

use std::path::Path;

use rayon::prelude::*;

use super::terms::term_string;
use crate::library::concept::CONCEPTS_DIR;
use crate::library::stack::STACK_DIR;
use crate::project::{Project, CACHE_DIR};
use crate::workspace::cache::Stat;
use crate::workspace::library::{walk, Entry, Kind, Listing, Part};

/// The kinds of library document search knows.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "lowercase")]
pub enum DocKind {
    Concept,
    Design,
    Stack,
    /// The Local Conventions of one directory's `.aindex`.
    Convention,
}

impl DocKind {
    fn code(self) -> &'static str {
        match self {
            DocKind::Concept => "c",
            DocKind::Design => "d",
            DocKind::Stack => "s",
            DocKind::Convention => "v",
        }
    }

    fn from_code(code: &str) -> Option<DocKind> {
        Some(match code {
            "c" => DocKind::Concept,
            "d" => DocKind::Design,
            "s" => DocKind::Stack,
            "v" => DocKind::Convention,
            _ => return None,
        })
    }

    pub fn as_str(self) -> &'static str {
        match self {
            DocKind::Concept => "concept",
            DocKind::Design => "design",
            DocKind::Stack => "stack",
            DocKind::Convention => "convention",
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
    /// Design: the names its Interface Contract declares.
    pub symbols: Vec<String>,
    /// Design: the names of every public item of its source, from the last update's cache
    /// (`None`: not merged yet). Searched with [`Doc::symbols`] ([`Doc::all_symbols`]).
    pub code_symbols: Option<Vec<String>>,
    /// Stack: `refs.concepts`.
    pub concepts: Vec<String>,
    /// Stack: `created`. Others: the file's mtime as RFC 3339, for recency.
    pub date: String,
    /// The search terms of each field (loaded for free-text queries only).
    pub terms: Terms,
    /// Set when the file could not be parsed: `path:line: message`. Such a document is listed with
    /// the error and matched only by its path.
    pub error: Option<String>,
    stat: Option<Stat>,
}

impl Doc {
    /// Every symbol name: the contract's, then the source's other public names.
    pub fn all_symbols(&self) -> impl Iterator<Item = &String> {
        let contract = &self.symbols;
        let code = self.code_symbols.iter().flatten();
        contract
            .iter()
            .chain(code.filter(move |name| !contract.contains(name)))
    }
}

/// The search terms of a document's fields, each a term string (`super::terms`): ` a b c `.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Design: its path. Concept: name, title and aliases. Stack: id and title. Convention: the
    /// directory.
    pub name: String,
    pub symbols: String,
    pub tags: String,
    /// Description, summary or the conventions' rules (of a description the Archivist wrote from a
    /// template, only the names it quotes: `archivist::generic`).
    pub summary: String,
    /// The whole document (without frontmatter and footer; a design file without the sections the
    /// tool generates from counts and lists).
    pub body: String,
    /// Design: the words of its source's comments and doc comments (`source::comments`), which no
    /// design file holds whole.
    pub comments: String,
}

impl Terms {
    fn new(name: &[&str], symbols: &[String], tags: &[String], summary: &str, body: &str) -> Terms {
        Terms {
            name: term_string(name.iter().copied()),
            symbols: symbol_terms(symbols),
            tags: term_string(tags.iter().map(String::as_str)),
            summary: term_string([summary]),
            body: term_string([body]),
            comments: String::new(),
        }
    }

    fn len(&self) -> usize {
        self.name.len()
            + self.symbols.len()
            + self.tags.len()
            + self.summary.len()
            + self.body.len()
            + self.comments.len()
    }
}

/// The symbols field: one run of terms per symbol (not deduplicated across symbols), so that how
/// many symbols hold a term is its frequency.
fn symbol_terms<'a>(symbols: impl IntoIterator<Item = &'a String>) -> String {
    symbols
        .into_iter()
        .fold(String::from(" "), |mut out, symbol| {
            out.push_str(term_string([symbol.as_str()]).trim_start());
            out
        })
}

/// Which parts of the corpus to load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kinds {
    pub designs: bool,
    pub knowledge: bool,
    /// Load design files' body words too (needed for free-text queries only; they are most of the
    /// cache's volume, so tag and scope queries skip them).
    pub design_bodies: bool,
    /// The Local Conventions of every `.aindex` (search only).
    pub conventions: bool,
}

impl Kinds {
    pub const ALL: Kinds = Kinds {
        designs: true,
        knowledge: true,
        design_bodies: true,
        conventions: true,
    };
    pub const KNOWLEDGE: Kinds = Kinds {
        designs: false,
        knowledge: true,
        design_bodies: false,
        conventions: false,
    };
}

/// The loaded corpus.
#[derive(Clone, Debug, Default)]
pub struct Corpus {
    pub docs: Vec<Doc>,
}

impl Corpus {
    /// Load the requested kinds, refreshing the cache from the files. Design documents keep the
    /// source names merged by an earlier load (see [`Corpus::load_with_code`]).
    pub fn load(project: &Project, kinds: Kinds) -> Corpus {
        Corpus::load_from(project, kinds, None)
    }

    /// [`Corpus::load`], with every design document's symbols completed from the update cache at
    /// `code_cache` (`StateDir::cache_path`): the names of every public item of its source.
    pub fn load_with_code(project: &Project, kinds: Kinds, code_cache: &Path) -> Corpus {
        Corpus::load_from(project, kinds, Some(code_cache))
    }

    fn load_from(project: &Project, kinds: Kinds, code_cache: Option<&Path>) -> Corpus {
        let files = Corpus::files(project, kinds);
        Corpus::refreshed(&project.library_dir(), files, kinds, code_cache)
    }

    /// [`Corpus::load`] (or, given `code_cache`, [`Corpus::load_with_code`]) from a listing of the
    /// whole library (`Part::ALL`) the caller already made.
    pub fn from_listing(
        project: &Project,
        listing: &Listing,
        kinds: Kinds,
        code_cache: Option<&Path>,
    ) -> Corpus {
        let files = Corpus::files_from_listing(listing, kinds);
        Corpus::refreshed(&project.library_dir(), files, kinds, code_cache)
    }

    /// The library files the requested kinds are read from, with their stats, by listing the
    /// library: concepts and Stack posts, design files, `.aindex` files; each sorted by path.
    pub fn files(project: &Project, kinds: Kinds) -> Files {
        let library = project.library_dir();
        let knowledge = if kinds.knowledge {
            knowledge_files(&library)
        } else {
            Vec::new()
        };
        let mirror = if kinds.designs || kinds.conventions {
            walk(&library, Part::MIRROR).files
        } else {
            Vec::new()
        };
        let (designs, indexes): (Vec<Entry>, Vec<Entry>) =
            mirror.into_iter().filter(is_index).partition(is_design);
        let designs = if kinds.designs { designs } else { Vec::new() };
        let indexes = if kinds.conventions {
            indexes
        } else {
            Vec::new()
        };
        let stats = |entries: Vec<Entry>| entries.into_iter().map(path_and_stat).collect();
        sorted([knowledge, stats(designs), stats(indexes)])
    }

    /// [`Corpus::files`] from a listing of the whole library (`Part::ALL`) the caller already made.
    pub fn files_from_listing(listing: &Listing, kinds: Kinds) -> Files {
        let listed = |wanted: bool, kind: fn(&Entry) -> bool| -> Vec<(String, Stat)> {
            let files = listing.files.iter().filter(|entry| wanted && kind(entry));
            files.map(|entry| (entry.rel.clone(), entry.stat)).collect()
        };
        let knowledge = listed(kinds.knowledge, is_knowledge);
        let designs = listed(kinds.designs, is_design);
        let indexes = listed(kinds.conventions, |entry| {
            is_index(entry) && !is_design(entry)
        });
        sorted([knowledge, designs, indexes])
    }

    /// The documents of the listed files (as [`Corpus::files`] lists them), from the cache where it
    /// is current.
    pub fn refreshed(
        library: &Path,
        files: [Vec<(String, Stat)>; 3],
        kinds: Kinds,
        code_cache: Option<&Path>,
    ) -> Corpus {
        let [knowledge, designs, indexes] = files;
        let cache_dir = library.join(CACHE_DIR);
        let mut docs = Vec::new();
        if kinds.knowledge {
            let cache = cache_dir.join("corpus-knowledge");
            docs.extend(refresh(library, &cache, knowledge, true, None));
        }
        if kinds.designs {
            let cache = cache_dir.join("corpus-designs");
            let bodies = kinds.design_bodies;
            docs.extend(refresh(library, &cache, designs, bodies, code_cache));
        }
        if kinds.conventions {
            let cache = cache_dir.join("corpus-conventions");
            let conventions = refresh(library, &cache, indexes, true, None);
            // An index without conventions is cached (so it is not read again) but is no document.
            docs.extend(
                conventions
                    .into_iter()
                    .filter(|doc| !doc.summary.is_empty()),
            );
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
/// cache must be rewritten. Given `code_cache`, design documents get their source's public names
/// ([`code`]).
fn refresh(
    library: &Path,
    cache_path: &Path,
    mut files: Vec<(String, Stat)>,
    bodies: bool,
    code_cache: Option<&Path>,
) -> Vec<Doc> {
    files.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let bodies_path = cache_path.with_extension("bodies");
    let (cached, mut stamp) = cache::read_cache(cache_path);
    // Both lists are sorted by path: a merge join moves each cached record once.
    let mut cached = cached.into_iter().peekable();
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
    let names = code_cache.map(|path| code::CodeNames::new(path, &stamp));
    if let Some(names) = &names {
        changed |= names.stamp != stamp || docs.iter().any(|doc| names.outdated(doc));
        stamp = names.stamp.clone();
    }
    let rewrite = changed || !stale.is_empty();
    if bodies || rewrite {
        let mut cached_bodies = cache::read_bodies(&bodies_path);
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
            if let Some(terms) = cached_bodies.remove(&doc.path) {
                doc.terms = terms;
            }
        }
    }
    if let Some(names) = &names {
        docs.iter_mut().for_each(|doc| names.apply(doc));
    }
    if !stale.is_empty() {
        changed = true;
        // Only now do the records need re-sorting (the rare path).
        let fresh: Vec<Doc> = stale
            .into_par_iter()
            .map(|(path, stat)| {
                let mut doc = read::read_doc(library, path, stat);
                if let Some(names) = &names {
                    names.apply(&mut doc);
                }
                doc
            })
            .collect();
        docs.extend(fresh);
        docs.sort_by(|a, b| a.path.cmp(&b.path));
    }
    if changed {
        cache::write_cache(cache_path, &bodies_path, &docs, &stamp);
    }
    docs
}

/// Which library files the corpus is read from: concepts and Stack posts, design files, `.aindex`
/// files, each with its stat and sorted by path.
pub type Files = [Vec<(String, Stat)>; 3];

fn sorted(mut files: Files) -> Files {
    for list in &mut files {
        list.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    }
    files
}

/// Concept and Stack files with their stats: `concepts/*.md` and `stack/*.md`.
fn knowledge_files(library: &Path) -> Vec<(String, Stat)> {
    let mut files = Vec::new();
    for dir in [CONCEPTS_DIR, STACK_DIR] {
        let only_dir = Part {
            under: dir,
            max_depth: Some(0),
            mirror_only: false,
            named: None,
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

/// A design file or a directory's `.aindex`: what the mirror walk keeps.
fn is_index(entry: &Entry) -> bool {
    is_design(entry) || matches!(entry.kind, Kind::Index { .. })
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
