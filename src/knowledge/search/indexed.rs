//! Search through the search index ([`crate::knowledge::corpus::index`]): a free-text or tag query
//! reads the postings of its words and the records of the documents they name, instead of loading
//! every document. The answer is the one [`super::search`] gives over the loaded corpus — the same
//! filters, field matches, weights and order — only cheaper; a query the index cannot answer alone
//! (a scope, a status or a concept filter) is searched over the loaded corpus.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use super::fields::{from_index, FieldMatch};
use super::{
    group, hit_order, limit_per_kind, search, Candidate, Hit, Matcher, Query, TermWeights,
};
use crate::knowledge::corpus::index::{self, Fingerprint, Index, TermMatch};
use crate::knowledge::corpus::{code_stamp, Corpus, DocKind, Files, Kinds};
use crate::knowledge::terms::query_terms;
use crate::project::{Project, CACHE_DIR};

/// Whether the index can answer `query` alone: words or a tag, design files among the kinds
/// wanted, and no scope, status or concept filter.
pub(super) fn answers(query: &Query) -> bool {
    let words = query
        .text
        .as_deref()
        .is_some_and(|text| !query_terms(text).is_empty());
    let designs = query.kinds.is_empty() || query.kinds.contains(&DocKind::Design);
    (words || query.tag.is_some())
        && designs
        && query.scope.is_none()
        && query.status.is_none()
        && query.concept.is_none()
}

/// `query` (which the index [`answers`]) over the library whose corpus is read from `files`: through
/// the index when it was built from these files and `code_cache`'s names, else over the loaded
/// corpus, writing a new index for the next query. The first `limit` hits of each kind (all for
/// 0), and how many others there are.
pub(super) fn search_files(
    project: &Project,
    files: Files,
    code_cache: &Path,
    query: &Query,
    limit: usize,
) -> (Vec<Hit>, usize) {
    let library = project.library_dir();
    let cache_dir = library.join(CACHE_DIR);
    let fingerprint = Fingerprint::of(&files, &code_stamp(code_cache));
    if let Some(fingerprint) = &fingerprint {
        if let Some(mut index) = Index::open(&cache_dir, fingerprint) {
            return search_index(&mut index, query, limit);
        }
    }
    let corpus = Corpus::refreshed(&library, files, Kinds::ALL, Some(code_cache));
    if let Some(fingerprint) = &fingerprint {
        index::write(&cache_dir, fingerprint, &corpus.docs);
    }
    limit_per_kind(search(&corpus, query), limit)
}

/// A document the index names for the query, before its record is read: where each word matched
/// it, how many informative words it matched, and the most its score can be.
struct Pending {
    id: u32,
    found: Vec<Option<FieldMatch>>,
    informative: usize,
    bound: u32,
}

/// [`search`] with the documents and their field matches read from `index`: the first `limit` hits
/// of each kind and how many others there are. Only the documents that may rank among those shown
/// are read.
fn search_index(index: &mut Index, query: &Query, limit: usize) -> (Vec<Hit>, usize) {
    let empty = Corpus::default();
    let matcher = Matcher::new(&empty, query);
    let tagged: Option<Vec<u32>> = matcher.tag.as_deref().map(|tag| index.tagged(tag));
    let per_term: Vec<HashMap<u32, TermMatch>> = matcher
        .terms
        .iter()
        .map(|term| index.matches(term))
        .collect();
    let kinds = &query.kinds;
    let wanted = |doc: u32| {
        index
            .kind(doc)
            .is_some_and(|kind| kinds.is_empty() || kinds.contains(&kind))
            && tagged
                .as_ref()
                .is_none_or(|tagged| tagged.binary_search(&doc).is_ok())
    };
    // How many documents pass the filters: the words' rarity is measured among them.
    let total = match &tagged {
        Some(tagged) => tagged.iter().filter(|&&doc| wanted(doc)).count(),
        None => (0..index.documents() as u32)
            .filter(|&doc| wanted(doc))
            .count(),
    };
    let mut ids: Vec<u32> = if matcher.terms.is_empty() {
        tagged.clone().unwrap_or_default()
    } else {
        per_term
            .iter()
            .flat_map(|found| found.keys().copied())
            .collect()
    };
    ids.retain(|&doc| wanted(doc));
    ids.sort_unstable();
    ids.dedup();
    let found: Vec<Vec<Option<FieldMatch>>> = ids
        .iter()
        .map(|id| {
            per_term
                .iter()
                .map(|m| m.get(id).and_then(from_index))
                .collect()
        })
        .collect();
    let slices: Vec<&[Option<FieldMatch>]> = found.iter().map(Vec::as_slice).collect();
    let weights = TermWeights::new(&slices, matcher.terms.len(), total);
    let mut groups: BTreeMap<u8, Vec<Pending>> = BTreeMap::new();
    for (id, found) in ids.into_iter().zip(found) {
        let Some(kind) = index.kind(id) else { continue };
        let informative = (found.iter().zip(&weights.informative))
            .filter(|(found, informative)| found.is_some() && **informative)
            .count();
        let bound = matcher.score_bound(&found, &weights);
        let pending = Pending {
            id,
            found,
            informative,
            bound,
        };
        groups.entry(group(kind)).or_default().push(pending);
    }
    let (mut hits, mut more) = (Vec::new(), 0);
    for (_, pending) in groups {
        let (shown, others) = best(index, &matcher, &weights, pending, limit);
        hits.extend(shown);
        more += others;
    }
    (hits, more)
}

/// The first `limit` hits (all for 0) among one kind's `pending` documents, and how many others
/// there are. Documents are read best bound first, a batch at a time, until the `limit`-th hit
/// ranks above every document not read yet.
fn best(
    index: &mut Index,
    matcher: &Matcher,
    weights: &TermWeights,
    mut pending: Vec<Pending>,
    limit: usize,
) -> (Vec<Hit>, usize) {
    pending.sort_unstable_by(|a, b| {
        (b.informative.cmp(&a.informative)).then_with(|| b.bound.cmp(&a.bound))
    });
    let count = pending.len();
    let mut hits: Vec<Hit> = Vec::new();
    let mut next = 0;
    while next < pending.len() {
        let end = match limit {
            0 => pending.len(),
            _ => (next + limit.max(BATCH)).min(pending.len()),
        };
        hits.extend(read_hits(index, matcher, weights, &pending[next..end]));
        hits.sort_by(hit_order);
        next = end;
        let settled = |kth: &Hit, first_unread: &Pending| {
            kth.informative > first_unread.informative
                || (kth.informative == first_unread.informative && kth.score > first_unread.bound)
        };
        if let (Some(kth), Some(unread)) = (hits.get(limit.wrapping_sub(1)), pending.get(next)) {
            if limit > 0 && settled(kth, unread) {
                break;
            }
        }
    }
    if limit > 0 {
        hits.truncate(limit);
    }
    let others = count - hits.len();
    (hits, others)
}

/// Documents read at once while looking for the best hits (fewer under test, so that the tests'
/// small corpora are read in several batches and stop early).
const BATCH: usize = if cfg!(test) { 1 } else { 64 };

/// The hits of `batch`, read from the index.
fn read_hits(
    index: &mut Index,
    matcher: &Matcher,
    weights: &TermWeights,
    batch: &[Pending],
) -> Vec<Hit> {
    let by_id: HashMap<u32, &Pending> = batch.iter().map(|p| (p.id, p)).collect();
    let mut ids: Vec<u32> = by_id.keys().copied().collect();
    ids.sort_unstable();
    let docs = index.docs(&ids);
    let candidates: Vec<Candidate> = docs
        .iter()
        .filter_map(|(id, doc)| {
            let reasons = matcher.filters(doc)?;
            Some((doc, reasons, by_id.get(id)?.found.clone()))
        })
        .collect();
    matcher.hits(&candidates, weights)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::knowledge::corpus::Doc;
    use crate::knowledge::terms::term_string;

    /// Words with stems, prefixes and splits in common, so that exact, prefix and multi-field
    /// matches all happen.
    const WORDS: &[&str] = &[
        "route",
        "router",
        "routing",
        "rout",
        "get",
        "getter",
        "json",
        "jsonify",
        "error",
        "handle_error",
        "handler",
        "app",
        "addUrlRule",
        "a",
        "the",
        "f123",
        "x",
        "session",
    ];
    const KINDS: [DocKind; 4] = [
        DocKind::Design,
        DocKind::Concept,
        DocKind::Stack,
        DocKind::Convention,
    ];

    fn words(max: usize) -> impl Strategy<Value = Vec<&'static str>> {
        prop::collection::vec(prop::sample::select(WORDS), 0..=max)
    }

    prop_compose! {
        fn doc()(
            kind in prop::sample::select(&KINDS[..]),
            (dir, stem) in (prop::sample::select(WORDS), prop::sample::select(WORDS)),
            (title, summary, body, symbols) in (words(3), words(4), words(8), words(4)),
            tags in prop::sample::subsequence(vec!["auth", "billing"], 0..=2),
            status in prop::sample::select(vec!["", "deprecated", "outdated"]),
            date in prop::sample::select(vec!["2026-01-01", "2026-02-01"]),
        ) -> Doc {
            let mut doc = Doc::default();
            doc.kind = Some(kind);
            doc.name = format!("src/{dir}/{stem}.py");
            doc.path = format!("{}.md", doc.name);
            doc.title = title.join(" ");
            doc.summary = summary.join(" ");
            doc.status = status.to_string();
            doc.date = date.to_string();
            doc.tags = tags.iter().map(|t| t.to_string()).collect();
            doc.symbols = symbols.iter().map(|s| s.to_string()).collect();
            doc.terms.name = term_string([doc.name.as_str(), doc.title.as_str()]);
            doc.terms.symbols = symbols.iter().fold(" ".to_string(), |mut out, s| {
                out.push_str(term_string([*s]).trim_start());
                out
            });
            doc.terms.tags = term_string(tags.iter().copied());
            doc.terms.summary = term_string([doc.summary.as_str()]);
            doc.terms.body = term_string([doc.summary.as_str(), body.join(" ").as_str()]);
            doc
        }
    }

    fn index_of(docs: &[Doc]) -> (tempfile::TempDir, Index) {
        let dir = tempfile::tempdir().expect("temp dir");
        let files: Files = [Vec::new(), Vec::new(), Vec::new()];
        let fingerprint = Fingerprint::of(&files, "absent").expect("no files: settled");
        index::write(dir.path(), &fingerprint, docs);
        let index = Index::open(dir.path(), &fingerprint).expect("the index just written");
        (dir, index)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The index gives the hits, in the order and with the scores and reasons, that searching
        /// the loaded corpus gives.
        #[test]
        fn searching_the_index_answers_as_searching_the_corpus(
            docs in prop::collection::vec(doc(), 0..40),
            text in words(3),
            tag in prop::option::of(prop::sample::select(vec!["auth", "billing"])),
            kinds in prop::sample::subsequence(KINDS.to_vec(), 0..=2),
            limit in 0usize..4,
        ) {
            let query = Query {
                text: Some(text.join(" ")),
                tag: tag.map(str::to_string),
                kinds,
                ..Query::default()
            };
            prop_assume!(answers(&query));
            let mut docs = docs;
            docs.sort_by(|a, b| a.path.cmp(&b.path));
            let corpus = Corpus { docs };
            let (_dir, mut index) = index_of(&corpus.docs);
            let expected = limit_per_kind(search(&corpus, &query), limit);
            let found = search_index(&mut index, &query, limit);
            let json = |(hits, more): &(Vec<Hit>, usize)| serde_json::json!({"hits": hits, "more": more});
            prop_assert_eq!(json(&found), json(&expected));
        }
    }

    #[test]
    fn a_damaged_or_foreign_index_is_not_opened() {
        let mut doc = Doc::default();
        doc.kind = Some(DocKind::Design);
        doc.name = "src/a.py".to_string();
        doc.path = "src/a.py.md".to_string();
        doc.terms.name = term_string(["src/a.py"]);
        let (dir, _) = index_of(std::slice::from_ref(&doc));
        let path = dir.path().join(index::INDEX_FILE);
        let bytes = std::fs::read(&path).expect("index");
        let files: Files = [Vec::new(), Vec::new(), Vec::new()];
        let fingerprint = Fingerprint::of(&files, "absent").expect("settled");
        let other = Fingerprint::of(&files, "1:2").expect("settled");
        assert!(
            Index::open(dir.path(), &other).is_none(),
            "another fingerprint"
        );
        std::fs::write(&path, &bytes[..bytes.len() - 1]).expect("truncate");
        assert!(Index::open(dir.path(), &fingerprint).is_none(), "truncated");
        std::fs::write(&path, b"garbage").expect("garbage");
        assert!(Index::open(dir.path(), &fingerprint).is_none(), "garbage");
    }
}
