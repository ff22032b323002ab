//! Unified search over design files, concepts, Stack posts and Local Conventions (seed §6, D-037,
//! D-038).
//!
//! Ranking is lexical and explainable. Query and documents go through the same terms
//! (`super::terms`: identifiers split, light stemming), so `routing` finds a file declaring
//! `route` and `add_url_rule`, and `error handling` finds `handle_exception`. Any word may match
//! (OR); each matched word scores by the best field it occurs in — path, name, title or alias 8,
//! a symbol its Interface Contract declares or its source defines (every public name, from the
//! update cache: `corpus::code`) 6, tag 4, description or summary 2, body 1 — times its
//! rarity in the corpus (BM25's idf: a word every file has, like the package's name, counts for
//! almost nothing), a term that only starts a longer word counting 60 %; a design file named for a word
//! (`spawn` → `task/spawn.rs`) gets 8 more for it; tests count 70 % (their symbols holding a word
//! once, and no bonus for being named for it), examples, benches and docs 60 %; a constant, private
//! name or type variable holding a word counts half (`members`). Hits are ordered by how
//! many of the query's informative words they match (a hit for both words beats a hit for one),
//! then by score; recency only breaks the last ties. Each hit carries the reason it matched,
//! naming the members holding the words (`members: route, add_url_rule`). Tags
//! are one namespace across every kind, so `--tag auth` finds concepts, design files, posts and
//! conventions alike.

mod fields;
mod in_comments;
mod indexed;
pub mod member_docs;
mod members;
mod named;

use crate::relpath::RelPath;
use rayon::prelude::*;

use fields::{best_field, names_phrase, Field, FieldMatch};

use super::corpus::{Corpus, Doc, DocKind, Kinds};
use super::terms::{is_compound, occurs, query_terms, term_string, Occurs};
use crate::project::paths::ancestors_rel;
use crate::workspace::library::Listing;
use crate::workspace::Workspace;

/// Added to a word's field weight when a design file's name (without extensions) is that word.
const NAMED_FOR: u32 = 8;

/// What a design file's score counts for by the role of its source: the project's code whole, a
/// test 70 %, an example, benchmark or doc 60 % — for a question of where something lives, the code
/// that implements it comes before the tests and samples that use it (a word they match better
/// still wins).
fn role_factor(doc: &Doc) -> f64 {
    if doc.kind != Some(DocKind::Design) {
        1.0
    } else if crate::archivist::is_test_path(&doc.name) {
        0.7
    } else if crate::archivist::is_sample_path(&doc.name) {
        0.6
    } else {
        1.0
    }
}

/// What to search for. At least one of `text`, `tag`, `scope`, `status`, `concept` is expected.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// Free text: any word may match; hits matching more words rank first.
    pub text: Option<String>,
    /// Exact tag (case-insensitive).
    pub tag: Option<String>,
    /// Project-relative path prefix: design files under it, posts about files under it, concepts
    /// linked from design files under it or naming it.
    pub scope: Option<String>,
    /// Only these kinds (all when empty).
    pub kinds: Vec<DocKind>,
    /// Concept or post status.
    pub status: Option<String>,
    /// Canonical concept name: posts that reference it, design files that link it.
    pub concept: Option<String>,
    /// Also the design files that only share a word with the names a code-shaped query asks for,
    /// when some define one of them (`named`: left out and counted by default).
    pub partial: bool,
}

/// One search result.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Hit {
    pub kind: DocKind,
    /// Design: the source path. Concept: its name. Stack: its id.
    pub name: String,
    pub title: String,
    pub summary: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub votes: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accepted_answer: Option<u32>,
    pub tags: Vec<String>,
    /// Library-relative path of the document.
    pub path: String,
    /// Why it matched: `title`, `path`, `members: route, T_route`, `tag: auth`, `description`, `body`,
    /// `scope`, …
    pub reason: String,
    /// The ranking score ×10, rounded (0 without free text).
    pub score: u32,
    /// How many of the query's words it matched.
    #[serde(skip_serializing_if = "is_zero")]
    pub matched: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The members holding the query's words, best first (`members::best_members`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<String>,
    /// The best member's line and its doc's first sentence, read from the source for the first
    /// hits shown ([`member_docs`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub member: Option<member_docs::MemberDoc>,
    /// Matched in its source's comments: the line holding a word and the member it is in or
    /// documents ([`in_comments`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub in_comment: Option<in_comments::InComment>,
    /// What tells this design file apart from another hit with the same description
    /// (`this one: class App(Scaffold)`, `super::twins`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub twin: Option<String>,
    #[serde(skip)]
    date: String,
    #[serde(skip)]
    informative: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Run `query` over `corpus`; hits are grouped by kind (concepts, design files, Stack) and ranked
/// within each group.
pub fn search(corpus: &Corpus, query: &Query) -> Vec<Hit> {
    let matcher = Matcher::new(corpus, query);
    let candidates: Vec<(&Doc, Vec<String>)> = corpus
        .docs
        .par_iter()
        .filter_map(|doc| Some((doc, matcher.filters(doc)?)))
        .collect();
    let total = candidates.len();
    let candidates: Vec<Candidate> = candidates
        .into_par_iter()
        .map(|(doc, reasons)| {
            let found = matcher.terms.iter().map(|term| best_field(doc, term));
            (doc, reasons, found.collect())
        })
        .collect();
    let matches: Vec<&[Option<FieldMatch>]> = candidates
        .iter()
        .map(|(_, _, found)| found.as_slice())
        .collect();
    let weights = TermWeights::new(&matches, matcher.terms.len(), total);
    let mut hits = matcher.hits(&candidates, &weights);
    sort_hits(&mut hits);
    hits
}

/// A document that passed the filters, why, and where each query term matched it.
type Candidate<'d> = (&'d Doc, Vec<String>, Vec<Option<FieldMatch>>);

/// The order of hits: grouped by kind, then the most informative words matched, the score, live
/// before retired, the most recent, the name — and, between hits equal in all that, what they
/// show: one order whether the corpus or its index found them.
fn hit_order(a: &Hit, b: &Hit) -> std::cmp::Ordering {
    group(a.kind)
        .cmp(&group(b.kind))
        .then_with(|| b.informative.cmp(&a.informative))
        .then_with(|| b.score.cmp(&a.score))
        .then_with(|| retired(a).cmp(&retired(b)))
        .then_with(|| b.date.cmp(&a.date))
        .then_with(|| a.name.cmp(&b.name))
        .then_with(|| (&a.path, &a.title, &a.reason).cmp(&(&b.path, &b.title, &b.reason)))
}

fn sort_hits(hits: &mut [Hit]) {
    hits.sort_by(hit_order);
}

/// The first `limit` hits of each kind (all when `limit` is 0), and how many were left out.
pub fn limit_per_kind(hits: Vec<Hit>, limit: usize) -> (Vec<Hit>, usize) {
    if limit == 0 {
        return (hits, 0);
    }
    let mut shown: Vec<Hit> = Vec::new();
    let mut more = 0;
    for hit in hits {
        if shown.iter().filter(|kept| kept.kind == hit.kind).count() < limit {
            shown.push(hit);
        } else {
            more += 1;
        }
    }
    (shown, more)
}

/// Per query term: its idf over the candidates, and whether it is informative (matched by at most
/// half of them; when every term is that common, all count).
struct TermWeights {
    idf: Vec<f64>,
    informative: Vec<bool>,
}

impl TermWeights {
    fn new(matches: &[&[Option<FieldMatch>]], terms: usize, docs: usize) -> TermWeights {
        let n = docs.max(1) as f64;
        let df: Vec<usize> = (0..terms)
            .map(|t| matches.iter().filter(|m| m[t].is_some()).count())
            .collect();
        let idf = df
            .iter()
            .map(|&df| (1.0 + (n - df as f64 + 0.5) / (df as f64 + 0.5)).ln())
            .collect();
        let mut informative: Vec<bool> = df.iter().map(|&df| df as f64 <= n / 2.0).collect();
        if !informative.contains(&true) {
            informative = vec![true; terms];
        }
        TermWeights { idf, informative }
    }
}

/// `lexi search`: `query` over the library, loading only the parts it needs, with every design
/// file's symbols completed from the update cache of `ws` (the names its budget left out of the
/// Interface Contract). An empty query is refused.
pub fn search_library(ws: &Workspace, query: &Query) -> anyhow::Result<Vec<Hit>> {
    Ok(search_listed(ws, query, None, 0)?.hits)
}

/// The hits of a search and what it left out.
#[derive(Debug, Default)]
pub struct Listed {
    pub hits: Vec<Hit>,
    /// Hits beyond the limit of their kind.
    pub more: usize,
    /// Design files sharing only a word with the names the query asks for, left out because
    /// others define them (`Query::partial` shows them).
    pub partial: usize,
}

/// [`search_library`], keeping the first `limit` hits of each kind (all for 0) and counting the
/// others, from a listing of the whole library (`Part::ALL`) the caller already made, when it has
/// one. Word and tag queries go through the search index (`indexed`), which reads only the
/// documents it shows.
pub fn search_listed(
    ws: &Workspace,
    query: &Query,
    listing: Option<&Listing>,
    limit: usize,
) -> anyhow::Result<Listed> {
    let kinds = corpus_kinds(query)?;
    let project = ws.project();
    let code_cache = ws.state().cache_path();
    let names = match (&query.text, query.partial) {
        (Some(text), false) => named::asked_names(text),
        _ => Vec::new(),
    };
    // Names asked for: every hit is ranked, those only sharing a word are left out, then the limit.
    let limit_first = if names.is_empty() { limit } else { 0 };
    let (mut hits, more) = if indexed::answers(query) {
        let files = match listing {
            Some(listing) => Corpus::files_from_listing(listing, Kinds::ALL),
            None => Corpus::files(project, Kinds::ALL),
        };
        indexed::search_files(project, files, &code_cache, query, limit_first)
    } else {
        let corpus = match listing {
            Some(listing) => Corpus::from_listing(project, listing, kinds, Some(&code_cache)),
            None => Corpus::load_with_code(project, kinds, &code_cache),
        };
        limit_per_kind(search(&corpus, query), limit_first)
    };
    if let (false, Some(graph)) = (names.is_empty(), ws.graph()) {
        named::name_private_definitions(&mut hits, &names, graph);
    }
    let partial = named::keep_definitions(&mut hits, &names);
    let (mut hits, more) = match names.is_empty() {
        true => (hits, more),
        false => limit_per_kind(hits, limit),
    };
    annotate(ws, &mut hits, query);
    Ok(Listed {
        hits,
        more,
        partial,
    })
}

/// What the hits shown say beyond their records: the best member's line under the first ones
/// ([`member_docs`]), where a word matched in the source's comments sits ([`in_comments`]), and
/// what tells apart design files shown with the same description.
fn annotate(ws: &Workspace, hits: &mut [Hit], query: &Query) {
    let project = ws.project();
    let store = crate::workspace::outlines::OutlineStore::of(ws.state());
    member_docs::attach(project, &store, hits);
    let words: Vec<String> = query
        .text
        .as_deref()
        .map(query_terms)
        .unwrap_or_default()
        .into_iter()
        .map(|term| term.to_lowercase())
        .filter(|term| term.chars().count() >= 3)
        .collect();
    in_comments::attach(project, hits, &words);
    let designs: Vec<(String, String)> = hits
        .iter()
        .filter(|hit| hit.kind == DocKind::Design && hit.error.is_none())
        .map(|hit| (hit.name.clone(), hit.summary.clone()))
        .collect();
    let apart = super::twins::distinguish(project, &designs);
    for hit in hits.iter_mut().filter(|hit| hit.kind == DocKind::Design) {
        hit.twin = apart.get(&hit.name).cloned();
    }
}

/// The parts of the corpus `query` needs: design files only when design hits or a scope are
/// wanted, their bodies only for free text. An error for an empty query.
pub fn corpus_kinds(query: &Query) -> anyhow::Result<Kinds> {
    let has_text = query
        .text
        .as_deref()
        .is_some_and(|text| !text.trim().is_empty());
    if !has_text && query.tag.is_none() && query.scope.is_none() {
        anyhow::bail!(
            "give words to search for, or a tag or a scope (e.g. `lexi search --tag auth`)"
        );
    }
    let kinds = &query.kinds;
    Ok(Kinds {
        designs: kinds.is_empty() || kinds.contains(&DocKind::Design) || query.scope.is_some(),
        knowledge: true,
        design_bodies: has_text,
        conventions: kinds.is_empty() || kinds.contains(&DocKind::Convention),
    })
}

/// A query prepared once for every document: words lower-cased, tag and scope normalised, the
/// concepts linked from the scope's design files looked up.
struct Matcher<'a> {
    query: &'a Query,
    /// The free-text terms (`super::terms::query_terms`); the lower-cased phrase they came from.
    terms: Vec<String>,
    phrase: String,
    /// The query spells one identifier of several parts (`block_on`, `addUrlRule`).
    compound: bool,
    tag: Option<String>,
    scope: Option<String>,
    /// Wikilink targets of the design files within `scope`.
    linked_in_scope: Vec<&'a str>,
}

impl<'a> Matcher<'a> {
    fn new(corpus: &'a Corpus, query: &'a Query) -> Matcher<'a> {
        let text = query.text.as_deref().unwrap_or("");
        let terms = query_terms(text);
        let phrase = text
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        let scope = query
            .scope
            .as_deref()
            .map(|s| s.trim_matches('/').to_string());
        let linked_in_scope = match &scope {
            Some(scope) => corpus
                .of_kind(DocKind::Design)
                .filter(|doc| within(&doc.name, scope))
                .flat_map(|doc| doc.links.iter().map(String::as_str))
                .collect(),
            None => Vec::new(),
        };
        Matcher {
            query,
            compound: is_compound(text),
            phrase,
            terms,
            tag: query.tag.as_deref().map(|t| t.trim().to_lowercase()),
            scope,
            linked_in_scope,
        }
    }

    /// Why `doc` passes every filter (kind, status, tag, scope, concept); `None` when it fails one.
    fn filters(&self, doc: &Doc) -> Option<Vec<String>> {
        let kind = doc.kind?;
        if !self.query.kinds.is_empty() && !self.query.kinds.contains(&kind) {
            return None;
        }
        if let Some(status) = &self.query.status {
            if !doc.status.eq_ignore_ascii_case(status) {
                return None;
            }
        }
        self.filter_reasons(doc, kind)
    }

    /// The hits among `candidates`, unordered.
    fn hits(&self, candidates: &[Candidate], weights: &TermWeights) -> Vec<Hit> {
        candidates
            .par_iter()
            .filter_map(|(doc, reasons, found)| self.hit(doc, reasons.clone(), found, weights))
            .collect()
    }

    /// An upper bound of the score (×10) [`Matcher::text_score`] gives a document whose words
    /// matched as `found`, without reading it: every bonus that depends on the document's name,
    /// title or symbols counted as won.
    fn score_bound(&self, found: &[Option<FieldMatch>], weights: &TermWeights) -> u32 {
        let mut bound = 0.0;
        let mut matched = 0;
        for (index, found) in found.iter().enumerate() {
            let Some(found) = found else { continue };
            matched += 1;
            bound += found.score(weights.idf[index]);
            if found.field == Field::Name && found.occurs == Occurs::Exact {
                bound += f64::from(NAMED_FOR) * weights.idf[index];
            }
        }
        if self.phrase_bonus_applies(matched) {
            let best_idf = weights.idf.iter().copied().fold(0.0, f64::max);
            bound += (4.0 + self.exact_symbol_bonus()) * best_idf;
        }
        // One more than the rounded bound: summing in another order cannot make it too small.
        (bound * 10.0).round() as u32 + 1
    }

    /// `doc` as a hit: it passed the filters (`reasons`), and matched at least one term when
    /// there are terms.
    fn hit(
        &self,
        doc: &Doc,
        mut reasons: Vec<String>,
        found: &[Option<FieldMatch>],
        weights: &TermWeights,
    ) -> Option<Hit> {
        let kind = doc.kind?;
        let mut members = Vec::new();
        let (score, matched, informative) = if self.terms.is_empty() {
            (0.0, 0, 0)
        } else {
            self.text_score(doc, found, weights, &mut reasons, &mut members)?
        };
        Some(Hit {
            kind,
            name: doc.name.clone(),
            title: doc.title.clone(),
            summary: doc.summary.clone(),
            status: doc.status.clone(),
            votes: (kind == DocKind::Stack).then_some(doc.votes),
            accepted_answer: doc.accepted,
            tags: doc.tags.clone(),
            path: doc.path.clone(),
            reason: reasons.join(", "),
            score: (score * 10.0).round() as u32,
            matched,
            error: doc.error.clone(),
            members,
            member: None,
            in_comment: None,
            twin: None,
            date: doc.date.clone(),
            informative,
        })
    }

    /// Why `doc` passes the tag, scope and concept filters; `None` when it fails one.
    fn filter_reasons(&self, doc: &Doc, kind: DocKind) -> Option<Vec<String>> {
        let mut reasons: Vec<String> = Vec::new();
        if let Some(tag) = &self.tag {
            if !doc.tags.contains(tag) {
                return None;
            }
            reasons.push(format!("tag: {tag}"));
        }
        if let Some(scope) = &self.scope {
            if !self.in_scope(doc, kind, scope) {
                return None;
            }
            reasons.push(format!("scope: {scope}"));
        }
        if let Some(concept) = &self.query.concept {
            if !refers_to(doc, kind, concept) {
                return None;
            }
            reasons.push(format!("concept: {concept}"));
        }
        Some(reasons)
    }

    /// Design files under `scope`, posts about files under it, conventions that apply there,
    /// concepts linked from design files under it or naming it.
    fn in_scope(&self, doc: &Doc, kind: DocKind, scope: &str) -> bool {
        match kind {
            DocKind::Design => within(&doc.name, scope),
            DocKind::Stack => doc.files.iter().any(|file| within(file, scope)),
            // Conventions of a directory under the scope, or of one the scope is under.
            DocKind::Convention => {
                let dir = doc.name.trim_end_matches('/').trim_start_matches("./");
                within(dir, scope) || within(scope, dir)
            }
            DocKind::Concept => {
                self.linked_in_scope.iter().any(|link| {
                    link.eq_ignore_ascii_case(&doc.name)
                        || link.eq_ignore_ascii_case(&doc.title)
                        || doc.aliases.iter().any(|a| a.eq_ignore_ascii_case(link))
                }) || doc.terms.body.contains(&scope.to_lowercase())
            }
        }
    }

    /// The score of the matched terms (field weight × idf, 60 % for a prefix; [`NAMED_FOR`] more for
    /// a design file whose file name is the term), plus the best
    /// term's idf when the title holds the whole phrase; the number of terms and of informative
    /// terms matched. The fields go to `reasons`. `None` when no term matched.
    fn text_score(
        &self,
        doc: &Doc,
        found: &[Option<FieldMatch>],
        weights: &TermWeights,
        reasons: &mut Vec<String>,
        members: &mut Vec<String>,
    ) -> Option<(f64, usize, usize)> {
        let mut score = 0.0;
        let (mut matched, mut informative) = (0, 0);
        let mut word_reasons: Vec<String> = Vec::new();
        // A design file named for a word (`spawn` → `task/spawn.rs`) is about it, however often
        // other files declare it.
        let is_test =
            doc.kind == Some(DocKind::Design) && crate::archivist::is_test_path(&doc.name);
        let file_stem = match doc.kind {
            Some(DocKind::Design) => term_string([RelPath::new(&doc.name).stem()]),
            _ => String::new(),
        };
        for (index, found) in found.iter().enumerate() {
            let Some(found) = found else { continue };
            matched += 1;
            // A test named for a word tests it; the code it tests is where the word lives.
            if file_stem.trim() == self.terms[index] && !is_test {
                score += f64::from(NAMED_FOR) * weights.idf[index];
            }
            if weights.informative[index] {
                informative += 1;
            }
            let found = tested_once(found, is_test);
            score += match (found.field, found.occurs, is_test) {
                (Field::Symbol, Occurs::Exact, false) if doc.kind == Some(DocKind::Design) => {
                    let tf = members::symbols_weight(doc, &self.terms[index], found.symbols);
                    found.score_with(weights.idf[index], tf)
                }
                _ => found.score(weights.idf[index]),
            };
            let reason = found.reason(doc, &self.terms[index], &self.phrase);
            if !word_reasons.contains(&reason) {
                word_reasons.push(reason);
            }
        }
        if matched == 0 {
            return None;
        }
        if self.phrase_bonus_applies(matched) {
            let best_idf = weights.idf.iter().copied().fold(0.0, f64::max);
            if doc.title.to_lowercase().contains(&self.phrase) {
                score += 4.0 * best_idf;
            }
            // Every word in one symbol (`error handling` → `register_error_handler`); the symbol
            // the query names exactly first (`make_response`, not `make_default_options_response`).
            let exact = doc
                .all_symbols()
                .find(|symbol| names_phrase(symbol, &self.phrase));
            let bonus = match exact {
                Some(_) => self.exact_symbol_bonus(),
                None => 6.0,
            };
            if let Some(symbol) = exact.or_else(|| {
                (self.terms.len() > 1)
                    .then(|| {
                        doc.all_symbols().find(|symbol| {
                            let terms = super::terms::name_terms(symbol);
                            self.terms.iter().all(|term| occurs(&terms, term).is_some())
                        })
                    })
                    .flatten()
            }) {
                score += bonus * best_idf;
                let reason = format!("symbol: {symbol}");
                word_reasons.retain(|existing| *existing != reason);
                word_reasons.insert(0, reason);
            }
        }
        *members = self.name_members(doc, found, &mut word_reasons);
        reasons.extend(word_reasons);
        Some((score * role_factor(doc), matched, informative))
    }
}

impl Matcher<'_> {
    /// Whether the bonuses for the whole query (in the title, named by one symbol) apply to a
    /// document matching `matched` of its terms: every term matched, and the query has several
    /// terms or spells one identifier of several parts (`block_on`, whose `on` is a stop word).
    fn phrase_bonus_applies(&self, matched: usize) -> bool {
        matched == self.terms.len() && (self.terms.len() > 1 || self.compound)
    }

    /// What a symbol the query names exactly adds (× the best term's idf): 6, and for a query
    /// that spells one identifier (`block_on`, `addUrlRule`) as much again as a file named for a
    /// word gets — the file declaring `block_on` is about it, more than a file named `blocking.rs`
    /// is.
    fn exact_symbol_bonus(&self) -> f64 {
        if self.compound {
            6.0 + f64::from(NAMED_FOR)
        } else {
            6.0
        }
    }

    /// The `symbol: …` reasons of a hit replaced by one `members: a, b, c` at the end, the members
    /// holding the matched words an agent would look up next (`members::best_members`).
    fn name_members(
        &self,
        doc: &Doc,
        found: &[Option<FieldMatch>],
        reasons: &mut Vec<String>,
    ) -> Vec<String> {
        if !reasons.iter().any(|r| r.starts_with("symbol")) {
            return Vec::new();
        }
        let terms: Vec<&str> = (self.terms.iter().zip(found))
            .filter(|(_, found)| found.is_some())
            .map(|(term, _)| term.as_str())
            .collect();
        let members = members::best_members(doc, &terms, &self.phrase);
        if members.is_empty() {
            return members;
        }
        reasons.retain(|reason| !reason.starts_with("symbol"));
        // Last, so that the list the reason ends with is the members' alone.
        reasons.push(format!("members: {}", members.join(", ")));
        members
    }
}

/// A test file's match with its symbols counted once: many test functions named for a word
/// (`test_route_decorator`, `test_method_route`, …) make the file no more the place the word
/// lives than one does.
fn tested_once(found: &FieldMatch, is_test: bool) -> FieldMatch {
    match is_test {
        true => FieldMatch {
            symbols: 1,
            ..*found
        },
        false => *found,
    }
}

/// Whether `doc` references the canonical concept name `concept` (or is that concept).
fn refers_to(doc: &Doc, kind: DocKind, concept: &str) -> bool {
    doc.concepts
        .iter()
        .chain(&doc.links)
        .any(|c| c.eq_ignore_ascii_case(concept))
        || (kind == DocKind::Concept && doc.name.eq_ignore_ascii_case(concept))
}

/// Deprecated concepts and outdated or duplicate posts rank after live ones with the same score.
fn retired(hit: &Hit) -> bool {
    matches!(hit.status.as_str(), "deprecated" | "outdated" | "duplicate")
}

/// The seed's display order: concepts, design files, Stack.
fn group(kind: DocKind) -> u8 {
    match kind {
        DocKind::Concept => 0,
        DocKind::Design => 1,
        DocKind::Convention => 2,
        DocKind::Stack => 3,
    }
}

/// Whether project-relative `path` is `scope` or inside it.
fn within(path: &str, scope: &str) -> bool {
    scope.is_empty() || path == scope || ancestors_rel(path).contains(&scope)
}

/// Grouped text: `── Concepts ──`, `── Design Files ──`, `── Stack ──`.
pub fn render(hits: &[Hit]) -> String {
    if hits.is_empty() {
        return "No matches.\n".to_string();
    }
    let mut out = String::new();
    let mut current = None;
    for hit in hits {
        if current != Some(hit.kind) {
            if current.is_some() {
                out.push('\n');
            }
            current = Some(hit.kind);
            out.push_str(match hit.kind {
                DocKind::Concept => "── Concepts ──\n",
                DocKind::Design => "── Design Files ──\n",
                DocKind::Convention => "── Conventions ──\n",
                DocKind::Stack => "── Stack ──\n",
            });
        }
        out.push_str(&render_hit(hit));
        out.push('\n');
    }
    out
}

/// One line per hit, and under a hit naming members, the best member with its doc's first
/// sentence (`  → route(rule, **options) — Decorate a view function…`).
pub fn render_hit(hit: &Hit) -> String {
    let summary = match &hit.error {
        Some(error) => format!("(cannot be read: {error})"),
        None => hit.summary.clone(),
    };
    let line = render_line(hit, &summary);
    let line = match hit.reason.is_empty() {
        true => line,
        false => format!("{line}  ({})", hit.reason),
    };
    let line = match &hit.member {
        Some(member) => format!("{line}\n  {}", member.line()),
        None => line,
    };
    match &hit.in_comment {
        Some(found) => format!("{line}\n  {}", found.line()),
        None => line,
    }
}

/// The hit's own line, before its reason.
fn render_line(hit: &Hit, summary: &str) -> String {
    let summary = match &hit.twin {
        Some(twin) => format!("{summary} ({twin})"),
        None => summary.to_string(),
    };
    match hit.kind {
        _ if hit.error.is_some() => format!("{} — {summary}", hit.name),
        DocKind::Stack => format!(
            "{}  [{}] ▲{}  {}",
            hit.name,
            hit.status,
            hit.votes.unwrap_or(0),
            hit.title
        ),
        DocKind::Concept if hit.status == "deprecated" => {
            format!("{} — {summary} [deprecated]", hit.name)
        }
        _ => format!("{} — {summary}", hit.name),
    }
}
