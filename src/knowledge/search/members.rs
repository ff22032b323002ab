//! The members a design-file hit names in its reason: `(members: route, add_url_rule, endpoint)`
//! — the names an agent asking about a topic wants to look up next (`lexi lookup <file> --member
//! route`), not the first name that happens to hold the word (`T_route`).
//!
//! Of the file's symbols holding a query word, those holding more of the query's words come first,
//! then those holding a word whole (not only as the start of a longer word), then by shape: a
//! function or method name (`route`, `addUrlRule`) before a type's (`Router`), before a constant,
//! a private name or a type variable (`ROUTES`, `_route`, `T_route`); then the shorter name.

use super::super::corpus::Doc;
use super::super::terms::{name_terms, occurs, Occurs};
use super::fields::names_phrase;

/// Members named per hit.
pub const MEMBERS_SHOWN: usize = 3;

/// Up to [`MEMBERS_SHOWN`] of `doc`'s symbols holding one of `terms`, best first; the one the
/// whole query (`phrase`) names first of all.
pub(super) fn best_members(doc: &Doc, terms: &[&str], phrase: &str) -> Vec<String> {
    let mut scored: Vec<(Key, &String)> = Vec::new();
    for symbol in doc.all_symbols() {
        if scored.iter().any(|(_, seen)| *seen == symbol) {
            continue;
        }
        let words = name_terms(symbol);
        let (mut held, mut whole) = (0usize, 0usize);
        for term in terms {
            match occurs(&words, term) {
                Some(Occurs::Exact) => (held, whole) = (held + 1, whole + 1),
                Some(_) => held += 1,
                None => {}
            }
        }
        if held == 0 {
            continue;
        }
        let key = (
            !names_phrase(symbol, phrase),
            std::cmp::Reverse(held),
            std::cmp::Reverse(whole),
            shape(symbol),
            symbol.len(),
        );
        scored.push((key, symbol));
    }
    scored.sort_by_key(|(key, _)| *key);
    scored
        .into_iter()
        .take(MEMBERS_SHOWN)
        .map(|(_, symbol)| symbol.clone())
        .collect()
}

/// What the symbols of `doc` holding `term` whole count for its score: a function, method or type
/// 1, a constant, private name or type variable ½ (`T_route` is not where routing lives) — never
/// more than `counted`, the number the search index gave (a score stays within its bound).
pub(super) fn symbols_weight(doc: &Doc, term: &str, counted: u32) -> f64 {
    let mut weight: f64 = 0.0;
    let mut seen: Vec<&str> = Vec::new();
    for symbol in doc.all_symbols() {
        if seen.contains(&symbol.as_str()) {
            continue;
        }
        seen.push(symbol);
        if occurs(&name_terms(symbol), term) == Some(Occurs::Exact) {
            weight += if shape(symbol) == 2 { 0.5 } else { 1.0 };
        }
    }
    weight.clamp(0.5, f64::from(counted.max(1)))
}

/// What a member is ranked by, smallest first.
type Key = (
    bool,
    std::cmp::Reverse<usize>,
    std::cmp::Reverse<usize>,
    u8,
    usize,
);

/// 0: a function or method (`route`, `add_url_rule`, `addUrlRule`); 1: a type (`Router`); 2: a
/// constant, a private name, a type variable or a one-letter name (`ROUTES`, `_route`, `T_route`).
fn shape(symbol: &str) -> u8 {
    let first = symbol.chars().next().unwrap_or('_');
    let has_lower = symbol.chars().any(|c| c.is_ascii_lowercase());
    let type_variable =
        symbol.len() > 2 && symbol.as_bytes()[1] == b'_' && first.is_ascii_uppercase() && has_lower;
    if first == '_' || first == '$' || !has_lower || type_variable || symbol.len() < 2 {
        2
    } else if first.is_ascii_uppercase() {
        1
    } else {
        0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knowledge::terms::query_terms;

    fn doc(symbols: &[&str]) -> Doc {
        let mut doc = Doc::default();
        doc.symbols = symbols.iter().map(|s| s.to_string()).collect();
        doc
    }

    #[test]
    fn methods_holding_the_word_come_before_type_variables_and_constants() {
        let doc = doc(&[
            "T_route",
            "ROUTES",
            "Router",
            "_route_helper",
            "add_url_rule",
            "route",
            "routing_table_for",
        ]);
        let terms = query_terms("routing");
        let terms: Vec<&str> = terms.iter().map(String::as_str).collect();
        assert_eq!(
            best_members(&doc, &terms, "routing"),
            ["route", "routing_table_for", "Router"]
        );
    }

    #[test]
    fn members_holding_every_word_first_and_the_named_one_before_all() {
        let doc = doc(&["handle_exception", "errorhandler", "register_error_handler"]);
        let terms = query_terms("error handling");
        let terms: Vec<&str> = terms.iter().map(String::as_str).collect();
        let members = best_members(&doc, &terms, "error handling");
        assert_eq!(members[0], "register_error_handler");
        let named = best_members(&doc, &terms, "handle exception");
        assert_eq!(named[0], "handle_exception");
        assert_eq!(shape("T_co"), 2);
        assert_eq!(shape("addUrlRule"), 0);
    }
}
