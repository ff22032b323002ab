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
//! (`spawn` → `task/spawn.rs`) gets 8 more for it. Hits are ordered by how
//! many of the query's informative words they match (a hit for both words beats a hit for one),
//! then by score; recency only breaks the last ties. Each hit carries the reason it matched. Tags
//! are one namespace across every kind, so `--tag auth` finds concepts, design files, posts and
//! conventions alike.

use rayon::prelude::*;

use super::corpus::{Corpus, Doc, DocKind, Kinds};
use super::terms::{frequency, occurs, query_terms, term_string, Occurs};
use crate::project::paths::ancestors_rel;
use crate::workspace::Workspace;

/// Added to a word's field weight when a design file's name (without extensions) is that word.
const NAMED_FOR: u32 = 8;

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
    /// Why it matched: `title`, `path`, `symbol: route`, `tag: auth`, `description`, `body`,
    /// `scope`, …
    pub reason: String,
    /// The ranking score ×10, rounded (0 without free text).
    pub score: u32,
    /// How many of the query's words it matched.
    #[serde(skip_serializing_if = "is_zero")]
    pub matched: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
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
    let matches: Vec<Vec<Option<FieldMatch>>> = candidates
        .par_iter()
        .map(|(doc, _)| {
            matcher
                .terms
                .iter()
                .map(|term| best_field(doc, term))
                .collect()
        })
        .collect();
    let weights = TermWeights::new(&matches, matcher.terms.len(), candidates.len());
    let mut hits: Vec<Hit> = candidates
        .into_iter()
        .zip(matches)
        .filter_map(|((doc, reasons), found)| matcher.hit(doc, reasons, &found, &weights))
        .collect();
    hits.sort_by(|a, b| {
        group(a.kind)
            .cmp(&group(b.kind))
            .then_with(|| b.informative.cmp(&a.informative))
            .then_with(|| b.score.cmp(&a.score))
            .then_with(|| retired(a).cmp(&retired(b)))
            .then_with(|| b.date.cmp(&a.date))
            .then_with(|| a.name.cmp(&b.name))
    });
    hits
}

/// BM25's term-frequency saturation constant.
const BM25_K: f64 = 1.2;

/// Per query term: its idf over the candidates, and whether it is informative (matched by at most
/// half of them; when every term is that common, all count).
struct TermWeights {
    idf: Vec<f64>,
    informative: Vec<bool>,
}

impl TermWeights {
    fn new(matches: &[Vec<Option<FieldMatch>>], terms: usize, docs: usize) -> TermWeights {
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
    let kinds = corpus_kinds(query)?;
    let corpus = Corpus::load_with_code(ws.project(), kinds, &ws.state().cache_path());
    Ok(search(&corpus, query))
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
        let (score, matched, informative) = if self.terms.is_empty() {
            (0.0, 0, 0)
        } else {
            self.text_score(doc, found, weights, &mut reasons)?
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
    ) -> Option<(f64, usize, usize)> {
        let mut score = 0.0;
        let (mut matched, mut informative) = (0, 0);
        let mut word_reasons: Vec<String> = Vec::new();
        // A design file named for a word (`spawn` → `task/spawn.rs`) is about it, however often
        // other files declare it.
        let file_stem = match doc.kind {
            Some(DocKind::Design) => {
                let name = doc.name.rsplit('/').next().unwrap_or(&doc.name);
                term_string([name.split('.').next().unwrap_or(name)])
            }
            _ => String::new(),
        };
        for (index, found) in found.iter().enumerate() {
            let Some(found) = found else { continue };
            matched += 1;
            if file_stem.trim() == self.terms[index] {
                score += f64::from(NAMED_FOR) * weights.idf[index];
            }
            if weights.informative[index] {
                informative += 1;
            }
            let factor = if found.occurs == Occurs::Exact {
                1.0
            } else {
                0.6
            };
            // BM25's saturation of term frequency, for the one field that repeats terms.
            let tf = match found.field {
                Field::Symbol => frequency(&doc.terms.symbols, &self.terms[index]).max(1) as f64,
                _ => 1.0,
            };
            let saturated = tf * (BM25_K + 1.0) / (tf + BM25_K);
            score += f64::from(found.weight) * factor * saturated * weights.idf[index];
            let reason = found.reason(doc, &self.terms[index], &self.phrase);
            if !word_reasons.contains(&reason) {
                word_reasons.push(reason);
            }
        }
        if matched == 0 {
            return None;
        }
        if self.terms.len() > 1 && matched == self.terms.len() {
            let best_idf = weights.idf.iter().copied().fold(0.0, f64::max);
            if doc.title.to_lowercase().contains(&self.phrase) {
                score += 4.0 * best_idf;
            }
            // Every word in one symbol (`error handling` → `register_error_handler`); the symbol
            // the query names exactly first (`make_response`, not `make_default_options_response`).
            let exact = doc
                .all_symbols()
                .find(|symbol| names_phrase(symbol, &self.phrase));
            if let Some(symbol) = exact.or_else(|| {
                doc.all_symbols().find(|symbol| {
                    let terms = term_string([symbol.as_str()]);
                    self.terms.iter().all(|term| occurs(&terms, term).is_some())
                })
            }) {
                score += 6.0 * best_idf;
                let reason = format!("symbol: {symbol}");
                word_reasons.retain(|existing| *existing != reason);
                word_reasons.insert(0, reason);
            }
        }
        reasons.extend(word_reasons);
        Some((score, matched, informative))
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

/// Where a term matched: the field's weight and label, and how.
#[derive(Clone, Copy, Debug)]
struct FieldMatch {
    weight: u32,
    field: Field,
    occurs: Occurs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    Name,
    Symbol,
    Tag,
    Summary,
    Body,
}

impl FieldMatch {
    /// The reason shown: `path`/`title`, `symbol: route`, `tag: auth`, `description`/`summary`,
    /// `body`. The symbol shown is the one the whole query (`phrase`) names, when it holds the
    /// term, else the first that holds it.
    fn reason(&self, doc: &Doc, term: &str, phrase: &str) -> String {
        let design = matches!(doc.kind, Some(DocKind::Design));
        match self.field {
            Field::Name if design => "path".to_string(),
            Field::Name => "title".to_string(),
            Field::Symbol => {
                let holds =
                    |symbol: &&String| occurs(&term_string([symbol.as_str()]), term).is_some();
                let named = doc
                    .all_symbols()
                    .find(|symbol| names_phrase(symbol, phrase))
                    .filter(holds);
                let symbol = named.or_else(|| doc.all_symbols().find(holds));
                symbol.map_or("symbol".to_string(), |s| format!("symbol: {s}"))
            }
            Field::Tag => {
                let tag = doc
                    .tags
                    .iter()
                    .find(|tag| occurs(&term_string([tag.as_str()]), term).is_some());
                tag.map_or("tag".to_string(), |t| format!("tag: {t}"))
            }
            Field::Summary if design => "description".to_string(),
            Field::Summary if doc.kind == Some(DocKind::Convention) => "convention".to_string(),
            Field::Summary => "summary".to_string(),
            Field::Body => "body".to_string(),
        }
    }
}

/// Whether `symbol` is the name the query `phrase` spells, ignoring case and separators
/// (`make_response`, `make response`, `makeResponse`). Allocates nothing: it runs over every symbol.
fn names_phrase(symbol: &str, phrase: &str) -> bool {
    let mut spelled = phrase
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase);
    let mut name = symbol
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase);
    loop {
        match (name.next(), spelled.next()) {
            (None, None) => return true,
            (Some(a), Some(b)) if a == b => continue,
            _ => return false,
        }
    }
}

/// The highest-weighted field `term` occurs in, or `None`. A document that could not be parsed
/// is matched by its path only.
fn best_field(doc: &Doc, term: &str) -> Option<FieldMatch> {
    let terms = &doc.terms;
    let fields = [
        (8, Field::Name, terms.name.as_str()),
        (6, Field::Symbol, terms.symbols.as_str()),
        (4, Field::Tag, terms.tags.as_str()),
        (2, Field::Summary, terms.summary.as_str()),
        (1, Field::Body, terms.body.as_str()),
    ];
    for (weight, field, text) in fields {
        if let Some(how) = occurs(text, term) {
            return Some(FieldMatch {
                weight,
                field,
                occurs: how,
            });
        }
    }
    // Cached records without terms (an unreadable file): the path or name, as words.
    if terms.name.is_empty() && occurs(&term_string([doc.name.as_str()]), term).is_some() {
        return Some(FieldMatch {
            weight: 8,
            field: Field::Name,
            occurs: Occurs::Exact,
        });
    }
    None
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

/// One line per hit.
pub fn render_hit(hit: &Hit) -> String {
    let summary = match &hit.error {
        Some(error) => format!("(cannot be read: {error})"),
        None => hit.summary.clone(),
    };
    let line = match hit.kind {
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
    };
    if hit.reason.is_empty() {
        line
    } else {
        format!("{line}  ({})", hit.reason)
    }
}

#[cfg(test)]
mod tests {
    use super::names_phrase;

    #[test]
    fn a_phrase_names_a_symbol_whatever_its_case_and_separators() {
        for phrase in ["make_response", "make response", "makeresponse"] {
            assert!(names_phrase("make_response", phrase), "{phrase}");
            assert!(names_phrase("makeResponse", phrase), "{phrase}");
        }
        assert!(!names_phrase(
            "make_default_options_response",
            "make_response"
        ));
        assert!(!names_phrase("make", "make_response"));
        assert!(!names_phrase("make_response_now", "make response"));
    }
}
