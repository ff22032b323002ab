//! The names of every public item of each design file's source, merged into its design document from
//! the per-clone cache of the last `lexictl update` (`workspace::cache`, field `symbols`).
//!
//! A design file's Interface Contract holds what fits its budget; the cache holds every name. The
//! corpus cache records the *stamp* of the update cache it merged (`workspace::cache::stamp`: size,
//! mtime and save time, `absent`, or `unknown` when unreadable); while the stamp holds, documents
//! keep the names they were merged with and the update cache is not even read. When it moved, or a
//! document was read without names, the update cache is read once (a few milliseconds for 20,000
//! files) and only documents whose names changed get new search terms. No source is parsed.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use super::{symbol_terms, Doc, DocKind};
use crate::workspace::cache::Cache;
pub use crate::workspace::cache::{stamp, UNKNOWN_STAMP as UNKNOWN};

/// The update cache's names, read when first needed.
pub(super) struct CodeNames<'a> {
    path: &'a Path,
    /// The update cache's stamp now.
    pub stamp: String,
    /// The update cache changed since the documents were merged: compare every one again.
    moved: bool,
    names: OnceLock<HashMap<String, Vec<String>>>,
}

impl<'a> CodeNames<'a> {
    /// The names in the update cache at `path`, for documents merged when its stamp was `recorded`.
    pub fn new(path: &'a Path, recorded: &str) -> CodeNames<'a> {
        let stamp = stamp(path);
        CodeNames {
            path,
            moved: stamp != recorded || stamp == UNKNOWN,
            stamp,
            names: OnceLock::new(),
        }
    }

    /// Whether `doc` (a design document) lacks its source's names or has other ones than the cache.
    pub fn outdated(&self, doc: &Doc) -> bool {
        if doc.kind != Some(DocKind::Design) || doc.error.is_some() {
            return false;
        }
        match &doc.code_symbols {
            None => true,
            Some(names) => self.moved && names.as_slice() != self.of(&doc.name),
        }
    }

    /// Give `doc` its source's names (and their search terms) when it is [`outdated`](Self::outdated).
    pub fn apply(&self, doc: &mut Doc) {
        if !self.outdated(doc) {
            return;
        }
        doc.code_symbols = Some(self.of(&doc.name).to_vec());
        doc.terms.symbols = symbol_terms(doc.all_symbols());
    }

    /// The public names of `source`, sorted (empty when the cache does not know it).
    fn of(&self, source: &str) -> &[String] {
        let names = self.names.get_or_init(|| {
            let (cache, _) = Cache::load(self.path);
            cache
                .entries
                .into_iter()
                .map(|(file, entry)| (file, entry.details.get().symbols.clone()))
                .filter(|(_, symbols)| !symbols.is_empty())
                .collect()
        });
        names.get(source).map_or(&[], Vec::as_slice)
    }
}
