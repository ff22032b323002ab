//! Where a query term matches a document: the best field it occurs in (path or title, symbol, tag,
//! description, body, the source's comments), how (whole or as the start of a longer term), and the reason shown for it.
//! Computed from a document's term strings ([`best_field`]) or from the search index's field bits
//! ([`from_index`]): both give the same answer.

use super::super::corpus::index::{field, TermMatch};
use super::super::corpus::{Doc, DocKind};
use super::super::terms::{frequency, name_terms, occurs, term_string, Occurs};

/// Where a term matched: the field's weight and label, and how.
#[derive(Clone, Copy, Debug)]
pub(super) struct FieldMatch {
    pub weight: u32,
    pub field: Field,
    pub occurs: Occurs,
    /// How many symbols hold the term whole (the symbols field repeats terms; at least 1).
    pub symbols: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Field {
    Name,
    Symbol,
    Tag,
    Summary,
    Body,
    /// The source's comments and doc comments.
    Comments,
}

/// BM25's term-frequency saturation constant.
const BM25_K: f64 = 1.2;

impl FieldMatch {
    /// What this match adds to a document's score, given the term's `idf`: the field's weight, 60 %
    /// for a prefix, the symbols holding the term saturated as BM25 does.
    pub fn score(&self, idf: f64) -> f64 {
        self.score_with(idf, f64::from(self.symbols))
    }

    /// [`Self::score`] with the symbols holding the term counted as `tf`.
    pub fn score_with(&self, idf: f64, tf: f64) -> f64 {
        let factor = if self.occurs == Occurs::Exact {
            1.0
        } else {
            0.6
        };
        let saturated = tf * (BM25_K + 1.0) / (tf + BM25_K);
        f64::from(self.weight) * factor * saturated * idf
    }

    /// The reason shown: `path`/`title`, `symbol: route`, `tag: auth`, `description`/`summary`,
    /// `body`. The symbol shown is the one the whole query (`phrase`) names, when it holds the
    /// term, else the first that holds it.
    pub fn reason(&self, doc: &Doc, term: &str, phrase: &str) -> String {
        let design = matches!(doc.kind, Some(DocKind::Design));
        match self.field {
            Field::Name if design => "path".to_string(),
            Field::Name => "title".to_string(),
            Field::Symbol => {
                let holds = |symbol: &&String| occurs(&name_terms(symbol), term).is_some();
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
                    .find(|tag| occurs(&name_terms(tag), term).is_some());
                tag.map_or("tag".to_string(), |t| format!("tag: {t}"))
            }
            Field::Summary if design => "description".to_string(),
            Field::Summary if doc.kind == Some(DocKind::Convention) => "convention".to_string(),
            Field::Summary => "summary".to_string(),
            Field::Body => "body".to_string(),
            Field::Comments => "comments".to_string(),
        }
    }
}

/// Whether `symbol` is the name the query `phrase` spells, ignoring case and separators
/// (`make_response`, `make response`, `makeResponse`). Allocates nothing: it runs over every symbol.
pub(super) fn names_phrase(symbol: &str, phrase: &str) -> bool {
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

/// The fields in the order they weigh: the weight, the field, the bit the search index gives it.
const FIELDS: [(u32, Field, u8); 6] = [
    (8, Field::Name, field::NAME),
    (6, Field::Symbol, field::SYMBOL),
    (4, Field::Tag, field::TAG),
    (2, Field::Summary, field::SUMMARY),
    (1, Field::Body, field::BODY),
    (1, Field::Comments, field::COMMENTS),
];

/// The highest-weighted field `term` occurs in, or `None`. A document that could not be parsed
/// is matched by its path only.
pub(super) fn best_field(doc: &Doc, term: &str) -> Option<FieldMatch> {
    let terms = &doc.terms;
    let texts = [
        terms.name.as_str(),
        terms.symbols.as_str(),
        terms.tags.as_str(),
        terms.summary.as_str(),
        terms.body.as_str(),
        terms.comments.as_str(),
    ];
    for ((weight, field, _), text) in FIELDS.into_iter().zip(texts) {
        if let Some(how) = occurs(text, term) {
            let symbols = match field {
                Field::Symbol => frequency(text, term).max(1) as u32,
                _ => 1,
            };
            return Some(FieldMatch {
                weight,
                field,
                occurs: how,
                symbols,
            });
        }
    }
    // Cached records without terms (an unreadable file): the path or name, as words.
    if terms.name.is_empty() && occurs(&term_string([doc.name.as_str()]), term).is_some() {
        return Some(FieldMatch {
            weight: 8,
            field: Field::Name,
            occurs: Occurs::Exact,
            symbols: 1,
        });
    }
    None
}

/// [`best_field`] from the search index: the fields where the term is whole or starts a longer
/// term.
pub(super) fn from_index(found: &TermMatch) -> Option<FieldMatch> {
    let (weight, field, bit) = FIELDS
        .into_iter()
        .find(|(_, _, bit)| (found.exact | found.prefix) & bit != 0)?;
    let occurs = if found.exact & bit != 0 {
        Occurs::Exact
    } else {
        Occurs::Prefix
    };
    let symbols = match field {
        Field::Symbol => found.symbols.max(1),
        _ => 1,
    };
    Some(FieldMatch {
        weight,
        field,
        occurs,
        symbols,
    })
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
