//! Unified search over design files, concepts and Stack posts (seed §6, D-037, D-038).
//!
//! Ranking is lexical and explainable (the ai-kb peer's scheme, FACTS §2): every query word must match
//! somewhere, and each word scores by the best field it matched — name or title 8, tag 4, description
//! or summary 2, body 1. Recency only breaks ties. Each hit carries the reason it matched. Tags are one
//! namespace across all three kinds, so `--tag auth` finds concepts, design files and posts alike.

use super::corpus::{Corpus, Doc, DocKind, Kinds};
use crate::project::paths::ancestors_rel;
use crate::project::Project;

/// What to search for. At least one of `text`, `tag`, `scope`, `status`, `concept` is expected.
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// Free text: every word must match.
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
    /// Why it matched: `title`, `tag: auth`, `description`, `body`, `scope`, …
    pub reason: String,
    pub score: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip)]
    date: String,
}

/// Run `query` over `corpus`; hits are grouped by kind (concepts, design files, Stack) and ranked
/// within each group.
pub fn search(corpus: &Corpus, query: &Query) -> Vec<Hit> {
    let matcher = Matcher::new(corpus, query);
    let mut hits: Vec<Hit> = corpus
        .docs
        .iter()
        .filter_map(|doc| matcher.hit(doc))
        .collect();
    hits.sort_by(|a, b| {
        group(a.kind)
            .cmp(&group(b.kind))
            .then_with(|| b.score.cmp(&a.score))
            .then_with(|| retired(a).cmp(&retired(b)))
            .then_with(|| b.date.cmp(&a.date))
            .then_with(|| a.name.cmp(&b.name))
    });
    hits
}

/// `lexi search`: `query` over the library, loading only the parts it needs. An empty query is
/// refused.
pub fn search_library(project: &Project, query: &Query) -> anyhow::Result<Vec<Hit>> {
    let corpus = Corpus::load(project, corpus_kinds(query)?);
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
    })
}

/// A query prepared once for every document: words lower-cased, tag and scope normalised, the
/// concepts linked from the scope's design files looked up.
struct Matcher<'a> {
    query: &'a Query,
    /// The free-text words, lower-cased; the phrase they make.
    words: Vec<String>,
    phrase: String,
    tag: Option<String>,
    scope: Option<String>,
    /// Wikilink targets of the design files within `scope`.
    linked_in_scope: Vec<&'a str>,
}

impl<'a> Matcher<'a> {
    fn new(corpus: &'a Corpus, query: &'a Query) -> Matcher<'a> {
        let words: Vec<String> = query
            .text
            .as_deref()
            .unwrap_or("")
            .split_whitespace()
            .map(str::to_lowercase)
            .collect();
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
            phrase: words.join(" "),
            words,
            tag: query.tag.as_deref().map(|t| t.trim().to_lowercase()),
            scope,
            linked_in_scope,
        }
    }

    /// `doc` as a hit, when it passes every filter and every word matches.
    fn hit(&self, doc: &Doc) -> Option<Hit> {
        let kind = doc.kind?;
        if !self.query.kinds.is_empty() && !self.query.kinds.contains(&kind) {
            return None;
        }
        if let Some(status) = &self.query.status {
            if !doc.status.eq_ignore_ascii_case(status) {
                return None;
            }
        }
        let mut reasons = self.filter_reasons(doc, kind)?;
        let score = self.text_score(doc, &mut reasons)?;
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
            score,
            error: doc.error.clone(),
            date: doc.date.clone(),
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

    /// Design files under `scope`, posts about files under it, concepts linked from design files
    /// under it or naming it.
    fn in_scope(&self, doc: &Doc, kind: DocKind, scope: &str) -> bool {
        match kind {
            DocKind::Design => within(&doc.name, scope),
            DocKind::Stack => doc.files.iter().any(|file| within(file, scope)),
            DocKind::Concept => {
                self.linked_in_scope.iter().any(|link| {
                    link.eq_ignore_ascii_case(&doc.name)
                        || link.eq_ignore_ascii_case(&doc.title)
                        || doc.aliases.iter().any(|a| a.eq_ignore_ascii_case(link))
                }) || doc.body.contains(&scope.to_lowercase())
            }
        }
    }

    /// The score of the free-text words (each by the best field it matched, plus 4 when the title
    /// holds the whole phrase), adding the fields to `reasons`; `None` when a word matches nowhere.
    fn text_score(&self, doc: &Doc, reasons: &mut Vec<String>) -> Option<u32> {
        let mut score = 0;
        if self.words.is_empty() {
            return Some(score);
        }
        let mut word_reasons = Vec::new();
        for word in &self.words {
            let (weight, field) = best_field(doc, word)?;
            score += weight;
            if !word_reasons.contains(&field) {
                word_reasons.push(field);
            }
        }
        if self.words.len() > 1 && doc.title.to_lowercase().contains(&self.phrase) {
            score += 4;
        }
        reasons.extend(word_reasons);
        Some(score)
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
        DocKind::Stack => 2,
    }
}

/// The highest-weighted field `word` (lower-case) occurs in, or `None`.
fn best_field(doc: &Doc, word: &str) -> Option<(u32, String)> {
    if contains_lc(&doc.title, word)
        || contains_lc(&doc.name, word)
        || doc.aliases.iter().any(|alias| contains_lc(alias, word))
    {
        let field = match doc.kind {
            Some(DocKind::Design) => "path",
            _ => "title",
        };
        return Some((8, field.to_string()));
    }
    if let Some(tag) = doc.tags.iter().find(|tag| tag.contains(word)) {
        return Some((4, format!("tag: {tag}")));
    }
    if contains_lc(&doc.summary, word) {
        let field = match doc.kind {
            Some(DocKind::Design) => "description",
            _ => "summary",
        };
        return Some((2, field.to_string()));
    }
    if doc.body.contains(word) {
        return Some((1, "body".to_string()));
    }
    None
}

fn contains_lc(text: &str, word: &str) -> bool {
    if text.is_ascii() && word.is_ascii() {
        return text
            .as_bytes()
            .windows(word.len())
            .any(|window| window.eq_ignore_ascii_case(word.as_bytes()));
    }
    text.to_lowercase().contains(word)
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
