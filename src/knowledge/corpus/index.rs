//! The search index: an inverted index of the whole corpus in one derived, gitignored file,
//! `.lexibrary/.cache/corpus-index`, so that a free-text or tag search reads the postings of its
//! words and the records of the documents they name, not every document.
//!
//! The file is a snapshot of the corpus (every design file, concept, Stack post and directory
//! conventions, with their search terms and the source names merged from the update cache). It
//! carries a *fingerprint* of what it was built from: the path, size and mtime of every library
//! file the corpus lists and the update cache's stamp. A search lists the library (a walk that
//! stats each file, as `git status` does) and opens the index only when the fingerprint is the
//! same; otherwise it loads the corpus the slow way ([`super::Corpus`], which refreshes its own
//! caches) and writes a new index. An index is never written while a listed file is younger than
//! two seconds (its mtime cannot vouch for its content yet: git's "racy clean" problem), and a
//! missing, damaged or foreign-version file is rebuilt — the index is never the truth.
//!
//! Layout (little-endian): the magic line, the 32-byte fingerprint, ten `u64`s (document count,
//! term count, then the offset of each section and the end), then the sections: one kind byte per
//! document; record offsets (`u64` × documents + 1) into the records, each document's corpus
//! record (`super::cache`'s line format); term offsets (`u32` × terms + 1) into the term blob;
//! postings offsets (`u64` × terms + 1); the term blob (sorted terms, concatenated); the postings.
//! A term's postings are, per document in ascending order: the document number's delta (LEB128),
//! the bits of the fields holding the term ([`field`]), and, when one is the symbols field, how many
//! symbols hold it (LEB128). Exact tags are terms of their own, `\u{1}` followed by the tag, so
//! they sort before every word.

use std::collections::HashMap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use super::cache::{parse_record, push_record};
use super::{Doc, DocKind};
use crate::atomic;
use crate::knowledge::terms::term_string;
use crate::workspace::cache::{Cache, Stat, RACY_WINDOW_NS};

/// The index file, under `.lexibrary/.cache/`.
pub const INDEX_FILE: &str = "corpus-index";
const MAGIC: &[u8] = b"lexibrarian-index 2\n";
const HEADER_WORDS: usize = 10;
const HEADER_LEN: usize = MAGIC.len() + 32 + HEADER_WORDS * 8;
/// The first character of a tag's term.
const TAG_MARK: char = '\u{1}';

/// The bits of the fields a term occurs in, in the order search weighs them.
pub mod field {
    pub const NAME: u8 = 1;
    pub const SYMBOL: u8 = 2;
    pub const TAG: u8 = 4;
    pub const SUMMARY: u8 = 8;
    pub const BODY: u8 = 16;
    /// The source's comments (design files).
    pub const COMMENTS: u8 = 32;
}

/// What the index was built from: every listed library file's path, size and mtime, and the update
/// cache's stamp.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fingerprint([u8; 32]);

impl Fingerprint {
    /// The fingerprint of `lists` (each sorted by path) and `code_stamp`; `None` when one of the
    /// files is too young to vouch for its content, or the stamp is not settled.
    pub fn of(lists: &[Vec<(String, Stat)>], code_stamp: &str) -> Option<Fingerprint> {
        let settled_before = Cache::now_ns() - RACY_WINDOW_NS;
        if code_stamp == super::code::UNKNOWN {
            return None;
        }
        let mut hasher = Sha256::new();
        hasher.update(MAGIC);
        hasher.update(code_stamp.as_bytes());
        for list in lists {
            hasher.update(b"\n--\n");
            for (path, stat) in list {
                if stat.mtime_ns >= settled_before {
                    return None;
                }
                hasher.update(path.as_bytes());
                hasher.update([0]);
                hasher.update(stat.size.to_le_bytes());
                hasher.update(stat.mtime_ns.to_le_bytes());
            }
        }
        Some(Fingerprint(hasher.finalize().into()))
    }
}

/// How one query term occurs in one document: the fields where it is a whole term, the fields
/// where a longer term starts with it, and how many symbols hold it whole.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TermMatch {
    pub exact: u8,
    pub prefix: u8,
    pub symbols: u32,
}

/// An opened index: the small tables in memory, records and postings read on demand.
pub struct Index {
    file: File,
    kinds: Vec<u8>,
    record_offsets: Vec<u64>,
    records_at: u64,
    term_offsets: Vec<u32>,
    post_offsets: Vec<u64>,
    blob: Vec<u8>,
    postings_at: u64,
}

impl Index {
    /// The index in `cache_dir` when it was built from `fingerprint`; `None` when it is missing,
    /// stale, damaged or of another version.
    pub fn open(cache_dir: &Path, fingerprint: &Fingerprint) -> Option<Index> {
        let mut file = File::open(cache_dir.join(INDEX_FILE)).ok()?;
        let header = read_exact(&mut file, 0, HEADER_LEN)?;
        let (magic, rest) = header.split_at(MAGIC.len());
        let (stored, words) = rest.split_at(32);
        if magic != MAGIC || stored != fingerprint.0 {
            return None;
        }
        let word =
            |i: usize| u64::from_le_bytes(words[i * 8..i * 8 + 8].try_into().unwrap_or_default());
        let (docs, terms) = (
            usize::try_from(word(0)).ok()?,
            usize::try_from(word(1)).ok()?,
        );
        let [kinds_at, records_offsets_at, records_at, term_offsets_at, post_offsets_at, blob_at, postings_at, end] =
            [2, 3, 4, 5, 6, 7, 8, 9].map(word);
        if file.metadata().ok()?.len() != end {
            return None;
        }
        let kinds = read_exact(&mut file, kinds_at, docs)?;
        let record_offsets = u64s(&read_exact(&mut file, records_offsets_at, (docs + 1) * 8)?);
        let term_offsets = read_exact(&mut file, term_offsets_at, (terms + 1) * 4)?
            .chunks_exact(4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect::<Vec<u32>>();
        let post_offsets = u64s(&read_exact(&mut file, post_offsets_at, (terms + 1) * 8)?);
        let blob_len = usize::try_from(postings_at.checked_sub(blob_at)?).ok()?;
        let blob = read_exact(&mut file, blob_at, blob_len)?;
        let consistent = term_offsets
            .last()
            .is_some_and(|&end| end as usize == blob.len())
            && term_offsets.is_sorted()
            && post_offsets.is_sorted()
            && record_offsets.is_sorted();
        consistent.then_some(Index {
            file,
            kinds,
            record_offsets,
            records_at,
            term_offsets,
            post_offsets,
            blob,
            postings_at,
        })
    }

    /// How many documents the index holds.
    pub fn documents(&self) -> usize {
        self.kinds.len()
    }

    /// The kind of document `doc`.
    pub fn kind(&self, doc: u32) -> Option<DocKind> {
        let code = *self.kinds.get(doc as usize)?;
        DocKind::from_code(std::str::from_utf8(&[code]).ok()?)
    }

    /// The documents numbered `docs` (ascending), read from their records; a record that cannot
    /// be read or parsed is left out.
    pub fn docs(&mut self, docs: &[u32]) -> Vec<(u32, Doc)> {
        // Neighbouring records are read together: one read per run of close documents.
        let mut runs: Vec<(&[u32], u64, Vec<u8>)> = Vec::new();
        let mut start = 0;
        while start < docs.len() {
            let mut end = start + 1;
            while end < docs.len() && self.gap(docs[end - 1], docs[end]) < 64 * 1024 {
                end += 1;
            }
            let run = &docs[start..end];
            if let Some((from, bytes)) = self.read_run(run) {
                runs.push((run, from, bytes));
            }
            start = end;
        }
        let offsets = &self.record_offsets;
        runs.par_iter()
            .flat_map_iter(|(run, from, bytes)| {
                run.iter().filter_map(move |&doc| {
                    let at = |doc: u32| offsets.get(doc as usize).copied();
                    let start = usize::try_from(at(doc)? - from).ok()?;
                    let end = usize::try_from(at(doc + 1)? - from).ok()?;
                    let line = std::str::from_utf8(bytes.get(start..end)?).ok()?;
                    Some((doc, parse_record(line)?))
                })
            })
            .collect()
    }

    /// The bytes between the end of `a`'s record and the start of `b`'s.
    fn gap(&self, a: u32, b: u32) -> u64 {
        let at = |doc: u32| self.record_offsets.get(doc as usize).copied().unwrap_or(0);
        at(b).saturating_sub(at(a + 1))
    }

    /// The records of `run` (ascending document numbers) in one read, and where they start.
    fn read_run(&mut self, run: &[u32]) -> Option<(u64, Vec<u8>)> {
        let offset = |doc: u32| self.record_offsets.get(doc as usize).copied();
        let from = offset(*run.first()?)?;
        let to = offset(*run.last()? + 1)?;
        let len = usize::try_from(to.checked_sub(from)?).ok()?;
        let bytes = read_exact(&mut self.file, self.records_at + from, len)?;
        Some((from, bytes))
    }

    /// The documents tagged `tag` (lower-cased), ascending.
    pub fn tagged(&mut self, tag: &str) -> Vec<u32> {
        let key = format!("{TAG_MARK}{tag}");
        let at = self.lower_bound(&key);
        if self.term(at) != Some(key.as_bytes()) {
            return Vec::new();
        }
        let mut docs = Vec::new();
        self.decode_range(at, at + 1, |_, doc, _, _| docs.push(doc));
        docs
    }

    /// Where the query term `term` occurs: the documents holding it whole or, for a term of three
    /// letters or more, holding a term that starts with it — what [`crate::knowledge::terms::occurs`]
    /// finds in the corpus's term strings.
    pub fn matches(&mut self, term: &str) -> HashMap<u32, TermMatch> {
        let from = self.lower_bound(term);
        let mut to = from;
        while self.term(to).is_some_and(|t| {
            t.starts_with(term.as_bytes()) && (t == term.as_bytes() || term.len() >= 3)
        }) {
            to += 1;
        }
        let exact_at = (self.term(from) == Some(term.as_bytes())).then_some(from);
        let mut found: HashMap<u32, TermMatch> = HashMap::new();
        self.decode_range(from, to, |at, doc, fields, symbols| {
            let entry = found.entry(doc).or_default();
            if Some(at) == exact_at {
                entry.exact |= fields;
                entry.symbols = symbols;
            } else {
                entry.prefix |= fields;
            }
        });
        found
    }

    /// The `at`-th term of the dictionary.
    fn term(&self, at: usize) -> Option<&[u8]> {
        let start = *self.term_offsets.get(at)? as usize;
        let end = *self.term_offsets.get(at + 1)? as usize;
        self.blob.get(start..end)
    }

    /// The number of the first term not less than `key`.
    fn lower_bound(&self, key: &str) -> usize {
        let (mut low, mut high) = (0, self.term_offsets.len().saturating_sub(1));
        while low < high {
            let middle = (low + high) / 2;
            if self.term(middle).is_some_and(|t| t < key.as_bytes()) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        low
    }

    /// Decode the postings of terms `from..to` (contiguous in the file: one read), calling
    /// `each(term number, document, field bits, symbols)`.
    fn decode_range(&mut self, from: usize, to: usize, mut each: impl FnMut(usize, u32, u8, u32)) {
        if from >= to {
            return;
        }
        let (Some(&start), Some(&end)) = (self.post_offsets.get(from), self.post_offsets.get(to))
        else {
            return;
        };
        let Some(bytes) = usize::try_from(end.saturating_sub(start))
            .ok()
            .and_then(|len| read_exact(&mut self.file, self.postings_at + start, len))
        else {
            return;
        };
        for at in from..to {
            let begin = (self.post_offsets[at] - start) as usize;
            let finish = (self.post_offsets[at + 1] - start) as usize;
            let Some(mut postings) = bytes.get(begin..finish) else {
                return;
            };
            let mut doc = 0u32;
            while !postings.is_empty() {
                let Some(posting) = Posting::decode(&mut postings, doc) else {
                    break;
                };
                doc = posting.doc;
                each(at, posting.doc, posting.fields, posting.symbols);
            }
        }
    }
}

/// One document's entry in a term's postings.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Posting {
    doc: u32,
    fields: u8,
    symbols: u32,
}

impl Posting {
    fn encode(self, previous: Option<u32>, out: &mut Vec<u8>) {
        let delta = previous.map_or(self.doc, |p| self.doc - p);
        push_varint(out, u64::from(delta));
        out.push(self.fields);
        if self.fields & field::SYMBOL != 0 {
            push_varint(out, u64::from(self.symbols));
        }
    }

    /// The next posting of `bytes` after document `previous` (0 before the first: a delta from 0).
    fn decode(bytes: &mut &[u8], previous: u32) -> Option<Posting> {
        let delta = u32::try_from(read_varint(bytes)?).ok()?;
        let (&fields, rest) = bytes.split_first()?;
        *bytes = rest;
        let symbols = if fields & field::SYMBOL != 0 {
            u32::try_from(read_varint(bytes)?).ok()?
        } else {
            0
        };
        Some(Posting {
            doc: previous.checked_add(delta)?,
            fields,
            symbols,
        })
    }
}

/// Build the index of `docs` (a whole corpus, loaded with every field's terms) and write it to
/// `cache_dir`. A failure to write is not an error: the next search builds it again.
pub fn write(cache_dir: &Path, fingerprint: &Fingerprint, docs: &[Doc]) {
    let bytes = build(fingerprint, docs);
    if std::fs::create_dir_all(cache_dir).is_ok() {
        let _ = atomic::write(&cache_dir.join(INDEX_FILE), &bytes);
    }
}

/// The index file's bytes for `docs`.
fn build(fingerprint: &Fingerprint, docs: &[Doc]) -> Vec<u8> {
    let now_ns = Cache::now_ns();
    let mut kinds = Vec::with_capacity(docs.len());
    let mut record_offsets: Vec<u64> = vec![0];
    let mut records = String::with_capacity(docs.len() * 200);
    let docs: Vec<&Doc> = docs.iter().filter(|doc| doc.kind.is_some()).collect();
    for doc in &docs {
        push_record(&mut records, doc, now_ns);
        kinds.push(doc.kind.map_or(b'?', |kind| kind.code().as_bytes()[0]));
        record_offsets.push(records.len() as u64);
    }
    let postings = collect_postings(&docs);
    let mut terms: Vec<&String> = postings.keys().collect();
    terms.sort_unstable();
    let (mut term_offsets, mut blob) = (vec![0u32], Vec::new());
    let (mut post_offsets, mut encoded) = (vec![0u64], Vec::new());
    for term in &terms {
        blob.extend_from_slice(term.as_bytes());
        term_offsets.push(blob.len() as u32);
        let mut previous = None;
        for posting in &postings[*term] {
            posting.encode(previous, &mut encoded);
            previous = Some(posting.doc);
        }
        post_offsets.push(encoded.len() as u64);
    }
    let sections: [&[u8]; 7] = [
        &kinds,
        &le_bytes(&record_offsets),
        records.as_bytes(),
        &term_offsets
            .iter()
            .flat_map(|o| o.to_le_bytes())
            .collect::<Vec<u8>>(),
        &le_bytes(&post_offsets),
        &blob,
        &encoded,
    ];
    assemble(fingerprint, docs.len(), terms.len(), &sections)
}

/// Magic, fingerprint, header words, sections.
fn assemble(
    fingerprint: &Fingerprint,
    docs: usize,
    terms: usize,
    sections: &[&[u8]; 7],
) -> Vec<u8> {
    let total: usize = sections.iter().map(|s| s.len()).sum();
    let mut out = Vec::with_capacity(HEADER_LEN + total);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&fingerprint.0);
    out.extend_from_slice(&(docs as u64).to_le_bytes());
    out.extend_from_slice(&(terms as u64).to_le_bytes());
    let mut at = HEADER_LEN as u64;
    for section in sections {
        out.extend_from_slice(&at.to_le_bytes());
        at += section.len() as u64;
    }
    out.extend_from_slice(&at.to_le_bytes());
    for section in sections {
        out.extend_from_slice(section);
    }
    out
}

/// Every term's postings, documents ascending.
fn collect_postings(docs: &[&Doc]) -> HashMap<String, Vec<Posting>> {
    let mut postings: HashMap<String, Vec<Posting>> = HashMap::new();
    for (number, doc) in docs.iter().enumerate() {
        for (term, fields, symbols) in doc_terms(doc) {
            let posting = Posting {
                doc: number as u32,
                fields,
                symbols,
            };
            match postings.get_mut(term.as_str()) {
                Some(list) => list.push(posting),
                None => {
                    postings.insert(term, vec![posting]);
                }
            }
        }
    }
    postings
}

/// The distinct terms of one document with the fields holding each and, for the symbols field, how
/// many symbols hold it; its tags as tag terms.
fn doc_terms(doc: &Doc) -> Vec<(String, u8, u32)> {
    let terms = &doc.terms;
    // A record without terms (a file that could not be parsed) is found by its name's words.
    let name = if terms.name.is_empty() {
        term_string([doc.name.as_str()])
    } else {
        terms.name.clone()
    };
    let fields = [
        (field::NAME, name.as_str()),
        (field::SYMBOL, terms.symbols.as_str()),
        (field::TAG, terms.tags.as_str()),
        (field::SUMMARY, terms.summary.as_str()),
        (field::BODY, terms.body.as_str()),
        (field::COMMENTS, terms.comments.as_str()),
    ];
    let mut found: HashMap<&str, (u8, u32)> = HashMap::new();
    for (bit, text) in fields {
        for term in text.split(' ').filter(|term| !term.is_empty()) {
            let entry = found.entry(term).or_default();
            entry.0 |= bit;
            if bit == field::SYMBOL {
                entry.1 += 1;
            }
        }
    }
    let mut out: Vec<(String, u8, u32)> = found
        .into_iter()
        .map(|(term, (fields, symbols))| (term.to_string(), fields, symbols))
        .collect();
    out.extend(
        doc.tags
            .iter()
            .map(|tag| (format!("{TAG_MARK}{tag}"), 0, 0)),
    );
    out
}

fn le_bytes(words: &[u64]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn u64s(bytes: &[u8]) -> Vec<u64> {
    bytes
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]))
        .collect()
}

/// `len` bytes of `file` at `offset`; `None` when the file is shorter.
fn read_exact(file: &mut File, offset: u64, len: usize) -> Option<Vec<u8>> {
    file.seek(SeekFrom::Start(offset)).ok()?;
    let mut bytes = vec![0; len];
    file.read_exact(&mut bytes).ok()?;
    Some(bytes)
}

fn push_varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn read_varint(bytes: &mut &[u8]) -> Option<u64> {
    let mut value = 0u64;
    for shift in (0..64).step_by(7) {
        let (&byte, rest) = bytes.split_first()?;
        *bytes = rest;
        value |= u64::from(byte & 0x7f) << shift;
        if byte < 0x80 {
            return Some(value);
        }
    }
    None
}
