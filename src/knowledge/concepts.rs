//! Concepts: listing and fuzzy finding (`lexi concepts`), resolving `[[wikilinks]]`, creating a concept
//! from the template (`lexi concept new`) and linking one from a design file (`lexi concept link`).

use std::io::ErrorKind;

use anyhow::{bail, Context as _};

use super::corpus::{Corpus, Doc, DocKind, Kinds};
use crate::atomic;
use crate::library::concept::{self, CONCEPTS_DIR};
use crate::library::design_file::sections;
use crate::library::footer;
use crate::library::wikilink::{self, Wikilink};
use crate::project::mirror::design_path;
use crate::project::{in_library, Project};
use crate::workspace::lock::LibraryLock;

/// Filters for `lexi concepts`.
#[derive(Clone, Debug, Default)]
pub struct ConceptQuery {
    /// Fuzzy topic over name, title, aliases and tags.
    pub topic: Option<String>,
    pub tag: Option<String>,
    pub status: Option<concept::ConceptStatus>,
    /// Include deprecated concepts (always included when `status` asks for them).
    pub all: bool,
}

/// One concept in a listing, with why it matched.
#[derive(Clone, Debug, serde::Serialize)]
pub struct ConceptHit {
    pub name: String,
    pub title: String,
    pub summary: String,
    pub status: String,
    pub tags: Vec<String>,
    pub aliases: Vec<String>,
    /// `superseded_by`, for deprecated concepts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub superseded_by: Option<String>,
    /// Library-relative path of the concept file.
    pub path: String,
    /// What the topic matched (`name`, `alias: currency`, …); absent without a topic.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matched: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(skip)]
    score: u32,
}

/// The concepts matching `query`, best first (alphabetical without a topic).
pub fn list(project: &Project, query: &ConceptQuery) -> Vec<ConceptHit> {
    let corpus = Corpus::load(project, Kinds::KNOWLEDGE);
    let tag = query.tag.as_deref().map(str::to_lowercase);
    let topic = query.topic.as_deref().map(|t| t.trim().to_lowercase());
    let mut hits: Vec<ConceptHit> = corpus
        .of_kind(DocKind::Concept)
        .filter(|doc| match query.status {
            Some(status) => doc.status == status.as_str(),
            None => query.all || doc.status != "deprecated",
        })
        .filter(|doc| tag.as_ref().is_none_or(|tag| doc.tags.contains(tag)))
        .filter_map(|doc| {
            let (score, matched) = match &topic {
                Some(topic) if !topic.is_empty() => {
                    let (score, why) = topic_score(doc, topic)?;
                    (score, Some(why))
                }
                _ => (0, None),
            };
            Some(ConceptHit {
                name: doc.name.clone(),
                title: doc.title.clone(),
                summary: doc.summary.clone(),
                status: doc.status.clone(),
                tags: doc.tags.clone(),
                aliases: doc.aliases.clone(),
                superseded_by: (!doc.pointer.is_empty()).then(|| doc.pointer.clone()),
                path: doc.path.clone(),
                matched,
                error: doc.error.clone(),
                score,
            })
        })
        .collect();
    hits.sort_by(|a, b| {
        b.score
            .cmp(&a.score)
            .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
    });
    hits
}

/// How well `topic` (lower-case) names the concept: exact > prefix > substring > similar spelling,
/// over name, title, aliases and tags.
fn topic_score(doc: &Doc, topic: &str) -> Option<(u32, String)> {
    let mut best: Option<(u32, String)> = None;
    let mut consider = |candidate: &str, weight: u32, label: &str| {
        let candidate_lc = candidate.to_lowercase();
        let compact: String = candidate_lc
            .chars()
            .filter(|c| c.is_alphanumeric())
            .collect();
        let topic_compact: String = topic.chars().filter(|c| c.is_alphanumeric()).collect();
        let level = if candidate_lc == topic || (!compact.is_empty() && compact == topic_compact) {
            4
        } else if candidate_lc.starts_with(topic) || compact.starts_with(&topic_compact) {
            3
        } else if candidate_lc.contains(topic)
            || (!topic_compact.is_empty() && compact.contains(&topic_compact))
        {
            2
        } else if strsim::jaro_winkler(&candidate_lc, topic) >= 0.88 {
            1
        } else {
            0
        };
        if level == 0 {
            return;
        }
        let score = level * 10 + weight;
        if best.as_ref().is_none_or(|(s, _)| score > *s) {
            let why = if label == "name" || label == "title" {
                label.to_string()
            } else {
                format!("{label}: {candidate}")
            };
            best = Some((score, why));
        }
    };
    consider(&doc.name, 3, "name");
    consider(&doc.title, 3, "title");
    for alias in &doc.aliases {
        consider(alias, 2, "alias");
    }
    for tag in &doc.tags {
        consider(tag, 1, "tag");
    }
    best
}

/// The text `lexi concepts` prints: one line per concept, name padded, with its summary, status and
/// what matched. `filtered` (a topic, tag or status was given) picks the message for no hits.
pub fn render(hits: &[ConceptHit], filtered: bool) -> String {
    if hits.is_empty() {
        return if filtered {
            "No concept matches. `lexi concepts --all` lists every concept.\n".to_string()
        } else {
            "No concepts yet. Create one with `lexi concept new <Name> --tag <tag> --alias <alias>`.\n"
                .to_string()
        };
    }
    let width = hits
        .iter()
        .map(|hit| hit.name.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for hit in hits {
        let summary = if let Some(error) = &hit.error {
            format!("(cannot be read: {error})")
        } else {
            hit.summary.clone()
        };
        let padding = " ".repeat(width.saturating_sub(hit.name.chars().count()));
        out.push_str(&format!("{}{padding} — {summary}", hit.name));
        match hit.status.as_str() {
            "deprecated" => match &hit.superseded_by {
                Some(next) => out.push_str(&format!(" [deprecated: use {next}]")),
                None => out.push_str(" [deprecated]"),
            },
            "draft" => out.push_str(" [draft]"),
            _ => {}
        }
        if let Some(matched) = &hit.matched {
            out.push_str(&format!("  ({matched})"));
        }
        out.push('\n');
    }
    out
}

/// Canonical concept names for names, titles or aliases; an unknown one is an error.
pub fn canonical_names(project: &Project, names: &[String]) -> anyhow::Result<Vec<String>> {
    if names.is_empty() {
        return Ok(Vec::new());
    }
    let corpus = Corpus::load(project, Kinds::KNOWLEDGE);
    let resolver = Resolver::new(&corpus);
    names
        .iter()
        .map(|name| match resolver.concept(name) {
            Some(doc) => Ok(doc.name.clone()),
            None => bail!("no concept named {name:?}; `lexi concepts {name}` finds similar ones"),
        })
        .collect()
}

/// What a wikilink points at.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Resolved {
    /// A concept file: its canonical name and library-relative path.
    Concept { name: String, path: String },
    /// A Stack post.
    Stack { id: String, path: String },
    /// Nothing by that name.
    Missing { target: String },
}

/// Resolves `[[Concept]]` (file name, title or alias, case-insensitive) and `[[ST-NNN]]`.
pub struct Resolver<'a> {
    docs: Vec<&'a Doc>,
    /// Lower-cased file name → concept, then title, then alias (first wins, in that priority).
    by_name: std::collections::HashMap<String, &'a Doc>,
    by_title: std::collections::HashMap<String, &'a Doc>,
    by_alias: std::collections::HashMap<String, &'a Doc>,
}

impl<'a> Resolver<'a> {
    /// A resolver over the concepts and Stack posts of `corpus`.
    pub fn new(corpus: &'a Corpus) -> Resolver<'a> {
        let docs: Vec<&Doc> = corpus
            .docs
            .iter()
            .filter(|doc| matches!(doc.kind, Some(DocKind::Concept | DocKind::Stack)))
            .collect();
        let mut by_name = std::collections::HashMap::new();
        let mut by_title = std::collections::HashMap::new();
        let mut by_alias = std::collections::HashMap::new();
        for doc in docs
            .iter()
            .copied()
            .filter(|doc| doc.kind == Some(DocKind::Concept))
        {
            by_name.entry(doc.name.to_lowercase()).or_insert(doc);
            by_title.entry(doc.title.to_lowercase()).or_insert(doc);
            for alias in &doc.aliases {
                by_alias.entry(alias.to_lowercase()).or_insert(doc);
            }
        }
        Resolver {
            docs,
            by_name,
            by_title,
            by_alias,
        }
    }

    /// Resolve the text between `[[` and `]]`.
    pub fn resolve(&self, target: &str) -> Resolved {
        match Wikilink::parse(target) {
            Some(Wikilink::Stack(id)) => self
                .docs
                .iter()
                .find(|doc| doc.kind == Some(DocKind::Stack) && doc.name == id)
                .map_or(Resolved::Missing { target: id.clone() }, |doc| {
                    Resolved::Stack {
                        id: id.clone(),
                        path: doc.path.clone(),
                    }
                }),
            Some(Wikilink::Concept(name)) => {
                self.concept(&name)
                    .map_or(Resolved::Missing { target: name }, |doc| {
                        Resolved::Concept {
                            name: doc.name.clone(),
                            path: doc.path.clone(),
                        }
                    })
            }
            None => Resolved::Missing {
                target: target.to_string(),
            },
        }
    }

    /// The concept named `name` by file name first, then by title, then by alias.
    pub fn concept(&self, name: &str) -> Option<&'a Doc> {
        let key = name.trim().to_lowercase();
        self.by_name
            .get(&key)
            .or_else(|| self.by_title.get(&key))
            .or_else(|| self.by_alias.get(&key))
            .copied()
    }
}

/// Up to three concept names that look like `name` (for "did you mean" hints).
pub fn suggest(corpus: &Corpus, name: &str) -> Vec<String> {
    let wanted = name.trim().to_lowercase();
    let mut scored: Vec<(f64, String)> = corpus
        .of_kind(DocKind::Concept)
        .filter_map(|doc| {
            let best = std::iter::once(&doc.name)
                .chain(std::iter::once(&doc.title))
                .chain(&doc.aliases)
                .map(|candidate| strsim::jaro_winkler(&candidate.to_lowercase(), &wanted))
                .fold(0.0, f64::max);
            (best >= 0.75).then(|| (best, doc.name.clone()))
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
    scored.into_iter().take(3).map(|(_, name)| name).collect()
}

/// `lexi concept new`: write `concepts/<name>.md` from the template. Returns its library path.
pub fn create(
    project: &Project,
    name: &str,
    title: Option<&str>,
    tags: &[String],
    aliases: &[String],
) -> anyhow::Result<String> {
    let (name, written_title) = concept::name_and_title(name).map_err(anyhow::Error::msg)?;
    let title = title.unwrap_or(&written_title);
    let _lock = LibraryLock::acquire(project)?;
    let corpus = Corpus::load(project, Kinds::KNOWLEDGE);
    let resolver = Resolver::new(&corpus);
    for taken in [name.as_str(), title] {
        if let Some(existing) = resolver.concept(taken) {
            bail!(
                "a concept called {taken:?} already exists: .lexibrary/{} (names, titles and aliases are matched without case)",
                existing.path
            );
        }
    }
    let rel = format!("{CONCEPTS_DIR}/{name}.md");
    let shown = in_library(&rel);
    let text = concept::template(title, aliases, tags);
    // Exclusive: never replace a file (or a symlink) that appeared meanwhile.
    match atomic::create_under(&project.root, &shown, text.as_bytes()) {
        Ok(()) => Ok(rel),
        Err(err) if err.kind() == ErrorKind::AlreadyExists => bail!("{shown} already exists"),
        Err(err) if crate::nofollow::is_refused(&err) => Err(err.into()),
        Err(err) => Err(err).with_context(|| format!("cannot create {shown}")),
    }
}

/// What `lexi concept link` did.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Linked {
    pub design_file: String,
    pub concept: String,
    /// False when the link was already there (nothing written).
    pub added: bool,
}

/// `lexi concept link <file> <Concept>`: add `- [[Concept]]` to the design file's `## Wikilinks`,
/// creating the section before the footer if needed. Nothing else in the file changes.
pub fn link(project: &Project, source: &str, concept_name: &str) -> anyhow::Result<Linked> {
    let _lock = LibraryLock::acquire(project)?;
    let corpus = Corpus::load(project, Kinds::KNOWLEDGE);
    let resolver = Resolver::new(&corpus);
    let Some(concept) = resolver.concept(concept_name) else {
        let suggestions = suggest(&corpus, concept_name);
        let hint = if suggestions.is_empty() {
            format!("create it with `lexi concept new {concept_name}`")
        } else {
            format!("did you mean {}?", suggestions.join(", "))
        };
        bail!("no concept named {concept_name:?}; {hint}");
    };
    let design_rel = design_path(source);
    // Never through a symlink: a linked design file is refused by name, never replaced.
    let text = match project.read_to_string(&design_rel) {
        Ok(text) => text,
        Err(err) if err.kind() == ErrorKind::NotFound => bail!(
            "{source} has no design file ({design_rel}); run `lexictl update {source}` or write one first"
        ),
        Err(err) if crate::nofollow::is_refused(&err) => return Err(err.into()),
        Err(err) => return Err(err).with_context(|| format!("cannot read {design_rel}")),
    };
    let already = wikilink::extract(footer::split(&text).0).iter().any(|link| {
        matches!(link, Wikilink::Concept(name) if resolver.concept(name).map(|d| &d.name) == Some(&concept.name))
    });
    if already {
        return Ok(Linked {
            design_file: design_rel,
            concept: concept.name.clone(),
            added: false,
        });
    }
    let updated = insert_list_item(
        &text,
        sections::WIKILINKS,
        &format!("- [[{}]]", concept.name),
    );
    project
        .write(&design_rel, updated.as_bytes())
        .with_context(|| format!("cannot write {design_rel}"))?;
    Ok(Linked {
        design_file: design_rel,
        concept: concept.name.clone(),
        added: true,
    })
}

/// Insert `item` as the last line of the `## <heading>` section of a design file's text, or add the
/// section just before the footer (or at the end). Every other byte is kept.
pub fn insert_list_item(text: &str, heading: &str, item: &str) -> String {
    let (content, _) = footer::split(text);
    let heading_line = format!("## {heading}");
    let mut in_fence = false;
    let mut offset = 0;
    let mut section_start = None;
    let mut section_end = None;
    for line in content.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
        } else if !in_fence {
            if section_start.is_some() && section_end.is_none() && trimmed.starts_with("## ") {
                section_end = Some(offset);
            }
            if section_start.is_none() && trimmed.eq_ignore_ascii_case(&heading_line) {
                section_start = Some(offset + line.len());
            }
        }
        offset += line.len();
    }
    match section_start {
        Some(start) => {
            let end = section_end.unwrap_or(content.len());
            let kept = text[start..end].trim_end();
            if kept.trim().is_empty() {
                let gap = if end < text.len() { "\n" } else { "" };
                format!("{}\n{item}\n{gap}{}", &text[..start], &text[end..])
            } else {
                let at = start + kept.len();
                format!("{}\n{item}{}", &text[..at], &text[at..])
            }
        }
        None => {
            let at = content.len();
            let before = text[..at].trim_end();
            let after = &text[at..];
            let gap = if after.is_empty() { "\n" } else { "\n\n" };
            format!("{before}\n\n{heading_line}\n\n{item}{gap}{after}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::insert_list_item;

    #[test]
    fn items_go_into_an_existing_section_or_a_new_one_before_the_footer() {
        let with_section = "# a\n\n## Wikilinks\n\n- [[A]]\n\n## Tags\n\n- x\n";
        assert_eq!(
            insert_list_item(with_section, "Wikilinks", "- [[B]]"),
            "# a\n\n## Wikilinks\n\n- [[A]]\n- [[B]]\n\n## Tags\n\n- x\n"
        );
        let with_footer = "# a\n\n## Tags\n\n- x\n\n<!-- lexibrarian:meta\nsource: a\n-->\n";
        assert_eq!(
            insert_list_item(with_footer, "Wikilinks", "- [[B]]"),
            "# a\n\n## Tags\n\n- x\n\n## Wikilinks\n\n- [[B]]\n\n<!-- lexibrarian:meta\nsource: a\n-->\n"
        );
        assert_eq!(
            insert_list_item("# a\n", "Wikilinks", "- [[B]]"),
            "# a\n\n## Wikilinks\n\n- [[B]]\n"
        );
        let empty_section = "# a\n\n## Wikilinks\n\n## Tags\n";
        assert_eq!(
            insert_list_item(empty_section, "Wikilinks", "- [[B]]"),
            "# a\n\n## Wikilinks\n\n- [[B]]\n\n## Tags\n"
        );
    }
}
