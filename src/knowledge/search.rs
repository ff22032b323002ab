//! Unified search over design files, concepts and Stack posts (seed §6, D-037, D-038).
//!
//! Ranking is lexical and explainable (the ai-kb peer's scheme, FACTS §2): every query word must match
//! somewhere, and each word scores by the best field it matched — name or title 8, tag 4, description
//! or summary 2, body 1. Recency only breaks ties. Each hit carries the reason it matched. Tags are one
//! namespace across all three kinds, so `--tag auth` finds concepts, design files and posts alike.

use super::corpus::{Corpus, Doc, DocKind};
use crate::project::paths::ancestors_rel;

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
    let words: Vec<String> = query
        .text
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_lowercase)
        .collect();
    let phrase = words.join(" ");
    let tag = query.tag.as_deref().map(|t| t.trim().to_lowercase());
    let scope = query
        .scope
        .as_deref()
        .map(|s| s.trim_matches('/').to_string());
    let linked_in_scope: Vec<&str> = match &scope {
        Some(scope) => corpus
            .of_kind(DocKind::Design)
            .filter(|doc| within(&doc.name, scope))
            .flat_map(|doc| doc.links.iter().map(String::as_str))
            .collect(),
        None => Vec::new(),
    };
    let mut hits: Vec<Hit> = corpus
        .docs
        .iter()
        .filter_map(|doc| {
            let kind = doc.kind?;
            if !query.kinds.is_empty() && !query.kinds.contains(&kind) {
                return None;
            }
            if let Some(status) = &query.status {
                if !doc.status.eq_ignore_ascii_case(status) {
                    return None;
                }
            }
            let mut reasons: Vec<String> = Vec::new();
            if let Some(tag) = &tag {
                if !doc.tags.contains(tag) {
                    return None;
                }
                reasons.push(format!("tag: {tag}"));
            }
            if let Some(scope) = &scope {
                let in_scope = match kind {
                    DocKind::Design => within(&doc.name, scope),
                    DocKind::Stack => doc.files.iter().any(|file| within(file, scope)),
                    DocKind::Concept => {
                        linked_in_scope.iter().any(|link| {
                            link.eq_ignore_ascii_case(&doc.name)
                                || link.eq_ignore_ascii_case(&doc.title)
                                || doc.aliases.iter().any(|a| a.eq_ignore_ascii_case(link))
                        }) || doc.body.contains(&scope.to_lowercase())
                    }
                };
                if !in_scope {
                    return None;
                }
                reasons.push(format!("scope: {scope}"));
            }
            if let Some(concept) = &query.concept {
                let refers = doc
                    .concepts
                    .iter()
                    .chain(&doc.links)
                    .any(|c| c.eq_ignore_ascii_case(concept))
                    || (kind == DocKind::Concept && doc.name.eq_ignore_ascii_case(concept));
                if !refers {
                    return None;
                }
                reasons.push(format!("concept: {concept}"));
            }
            let mut score = 0;
            if !words.is_empty() {
                let mut word_reasons = Vec::new();
                for word in &words {
                    let (weight, field) = best_field(doc, word)?;
                    score += weight;
                    if !word_reasons.contains(&field) {
                        word_reasons.push(field);
                    }
                }
                if words.len() > 1 && doc.title.to_lowercase().contains(&phrase) {
                    score += 4;
                }
                reasons.extend(word_reasons);
            }
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
        })
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
