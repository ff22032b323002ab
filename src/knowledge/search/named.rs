//! A query that names code — `url_for`, `WalkParallel`, `tokio::spawn spawn_inner`, `.push()` —
//! asks where those names are defined: when some design-file hits have a member of exactly such a
//! name, those are the answer, and the hits that only share a word of it (`url_map`, `url_prefix`
//! and every test named `test_url_…` for `url_for`) are counted, not shown — they were most of the
//! bytes of such a search (flask `lexi search url_for`: 4.2 KB, the two definitions in the first
//! 0.5 KB). `--partial` shows them. A query of plain words (`binary detection`, `spawn`) is left as
//! it is: nothing in it says it is a name.

use super::member_docs::MemberDoc;
use super::members::MEMBERS_SHOWN;
use super::Hit;
use crate::knowledge::corpus::DocKind;
use crate::workspace::graph::Graph;

/// The names `text` asks for, when every word of it is written as code, as no plain word is (it
/// holds `_`, `.`, `::`, `()` or a capital after a small letter): each word's last segment
/// (`tokio::spawn` → `spawn`, `.push()` → `push`, `res.json` → `json`). A query mixing names and
/// words (`url_for blueprint`) asks something else, and is searched as words.
pub fn asked_names(text: &str) -> Vec<String> {
    let mut names = Vec::new();
    for word in text.split_whitespace() {
        let trimmed = word.trim_start_matches('.').trim_end_matches("()");
        let last = trimmed.rsplit(['.', ':']).next().unwrap_or(trimmed);
        if !is_identifier(last)
            || trimmed
                .split(['.', ':'])
                .any(|s| !s.is_empty() && !is_identifier(s))
        {
            return Vec::new();
        }
        let code_shaped = trimmed.len() != word.len()
            || trimmed.contains(['_', '.', ':'])
            || has_inner_capital(trimmed);
        if !code_shaped {
            return Vec::new();
        }
        names.push(last.to_string());
    }
    names
}

fn is_identifier(word: &str) -> bool {
    let mut chars = word.chars();
    chars
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// `WalkParallel`, `spawnBlocking`: a capital after a small letter.
fn has_inner_capital(word: &str) -> bool {
    word.as_bytes()
        .windows(2)
        .any(|pair| pair[0].is_ascii_lowercase() && pair[1].is_ascii_uppercase())
}

/// Whether design-file hit `hit` has a member named one of `names` (its last segment: `Flask.url_for`
/// is `url_for`).
fn defines(hit: &Hit, names: &[String]) -> bool {
    hit.members.iter().any(|member| {
        let last = member.rsplit(['.', ':']).next().unwrap_or(member);
        names.iter().any(|name| name == last)
    })
}

/// Name the private members of `names` the hits' public names leave out: for a name no hit
/// defines, the members of that name the last update recorded (`Graph::members_named`: ripgrep's
/// `write_binary_message`, a method of a private type) are named first on their file's hit, so
/// that [`keep_definitions`] keeps it.
pub fn name_private_definitions(hits: &mut [Hit], names: &[String], graph: &Graph) {
    for name in names {
        let defined = hits
            .iter()
            .any(|hit| hit.kind == DocKind::Design && defines(hit, std::slice::from_ref(name)));
        if defined {
            continue;
        }
        for (file, label) in graph.members_named(name) {
            let hit = hits
                .iter_mut()
                .find(|hit| hit.kind == DocKind::Design && hit.name == file);
            if let Some(hit) = hit {
                hit.member = Some(MemberDoc {
                    summary: format!(
                        "{label}, not public: `lexi lookup {} --member {label}`",
                        hit.name
                    ),
                    name: label.clone(),
                });
                name_first(hit, label);
            }
        }
    }
}

/// `label` as the first of the members `hit` names, in its list and in its reason (whose last part
/// the members are).
fn name_first(hit: &mut Hit, label: String) {
    hit.members.retain(|member| *member != label);
    hit.members.insert(0, label);
    hit.members.truncate(MEMBERS_SHOWN);
    let head = match hit.reason.find("members: ") {
        Some(at) => hit.reason[..at].trim_end_matches([',', ' ']),
        None => hit.reason.as_str(),
    };
    let members = format!("members: {}", hit.members.join(", "));
    hit.reason = match head.is_empty() {
        true => members,
        false => format!("{head}, {members}"),
    };
}

/// Keep, of the design-file hits, those defining a member of one of `names` — when there is one —
/// and every hit of another kind; the number of design-file hits left out.
pub fn keep_definitions(hits: &mut Vec<Hit>, names: &[String]) -> usize {
    let is_design = |hit: &Hit| hit.kind == DocKind::Design;
    if names.is_empty() || !hits.iter().any(|hit| is_design(hit) && defines(hit, names)) {
        return 0;
    }
    let before = hits.len();
    hits.retain(|hit| !is_design(hit) || defines(hit, names));
    before - hits.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_asked_only_by_code_shaped_queries() {
        assert_eq!(asked_names("url_for"), ["url_for"]);
        assert_eq!(
            asked_names("before_request after_request"),
            ["before_request", "after_request"]
        );
        assert_eq!(
            asked_names("tokio::spawn spawn_inner"),
            ["spawn", "spawn_inner"]
        );
        assert_eq!(asked_names(".push()"), ["push"]);
        assert_eq!(asked_names("res.json"), ["json"]);
        assert_eq!(asked_names("WalkParallel"), ["WalkParallel"]);
        assert!(asked_names("spawn").is_empty());
        assert!(asked_names("binary detection quit replace").is_empty());
        assert!(asked_names("url_for blueprint").is_empty());
        assert!(asked_names("how does x-y work").is_empty());
        assert!(asked_names("Flask").is_empty());
    }
}
