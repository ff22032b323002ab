//! `lexi context <file|Concept|ST-NNN>`: everything an agent needs about one target in one call (seed
//! §9, "minimal round-trips"), trimmed to a token budget.
//!
//! The bundle is built from blocks, each with a priority. Blocks are admitted in priority order while
//! they fit the budget; what does not fit is listed as left out (with its size). An Interface
//! Contract that does not fit whole is trimmed instead (`super::trim`): what is left of the budget
//! keeps its public items first, and the items left out are counted. A Dependents or Dependencies
//! list of more than 20 files is summarised by directory, pointing at `lexi impact`. The
//! admitted blocks are then printed in reading order. Token counts are estimated as characters / 4, the
//! same estimate START_HERE.md uses: fast enough for the < 50 ms target and close for English and code.
//!
//! For a source file: a waiting `.iwh`, the design file (split by section, so a long Interface
//! Contract can be left out while the description and agent notes stay), inherited Local
//! Conventions, the linked concepts' summaries and rules, and the related Stack posts with their
//! accepted answers. For a concept: the concept, its related concepts, posts and the design files
//! that link it. For a post: the post, its accepted and best answers, its concepts and files.

use crate::relpath::RelPath;
use anyhow::bail;

use super::concepts::Resolver;
use super::corpus::{Corpus, Doc, DocKind, Kinds};
use super::lookup::{lookup, Lookup};
use super::stack;
use super::trim::{summarize_paths, trim_contract};
use crate::library::concept::Concept;
use crate::library::design_file::sections;
use crate::library::iwh::Iwh;
use crate::library::markdown::list_items;
use crate::library::stack::Post;
use crate::library::wikilink::{self, Wikilink};
use crate::project::mirror::{design_path, iwh_path};
use crate::project::{in_library, Project, LIBRARY_DIR};
use crate::tokens::estimate as estimate_tokens;

/// The default budget in tokens.
pub const DEFAULT_BUDGET: usize = 2000;
/// A trimmed block smaller than this is not worth showing.
const MIN_TRIMMED: usize = 40;

/// What the target turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TargetKind {
    File,
    Concept,
    Stack,
}

/// One part of the bundle.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Block {
    /// Stable kind: `iwh`, `design`, `section`, `conventions`, `concept`, `stack`, `dependents`,
    /// `linked_from`, `post`, `answer`, `file`.
    pub kind: String,
    pub title: String,
    pub text: String,
    pub tokens: usize,
    #[serde(skip)]
    priority: u32,
    #[serde(skip)]
    order: usize,
    /// An Interface Contract: when it does not fit whole, its most important items are kept.
    #[serde(skip)]
    trim_for: Option<String>,
}

/// A block that did not fit, or the part of a trimmed block that did not.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Omitted {
    pub kind: String,
    pub title: String,
    pub tokens: usize,
    /// For a trimmed Interface Contract: the items (and members) left out; the block itself is in
    /// `blocks`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trimmed: Option<String>,
}

/// The bundle.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Bundle {
    pub target: String,
    pub kind: TargetKind,
    pub budget: usize,
    pub tokens: usize,
    pub blocks: Vec<Block>,
    pub omitted: Vec<Omitted>,
}

impl Bundle {
    /// The text `lexi context` prints: the admitted blocks in reading order, then what was left out.
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "# Context: {} (~{} of {} tokens)\n",
            self.target, self.tokens, self.budget
        );
        for block in &self.blocks {
            let level = match block.kind.as_str() {
                "section" | "answer" | "dependents" => "###",
                _ => "##",
            };
            out.push_str(&format!(
                "\n{level} {}\n\n{}\n",
                block.title,
                block.text.trim_end()
            ));
        }
        if !self.omitted.is_empty() {
            out.push_str("\n## Left out (over the budget)\n\n");
            for omitted in &self.omitted {
                match &omitted.trimmed {
                    Some(what) => out.push_str(&format!(
                        "- {}: {what} (~{} tokens; shown in part above)\n",
                        omitted.title, omitted.tokens
                    )),
                    None => out.push_str(&format!(
                        "- {} ({}, ~{} tokens)\n",
                        omitted.title, omitted.kind, omitted.tokens
                    )),
                }
            }
            out.push_str("\nRaise the budget (--budget) to include them.\n");
        }
        out
    }
}

/// Build the bundle for `target`: a project-relative source path (already resolved by the caller
/// when it names an existing path), a concept name, title or alias, or a Stack id.
pub fn bundle(
    project: &Project,
    target: &str,
    as_path: Option<&str>,
    budget: usize,
) -> anyhow::Result<Bundle> {
    let mut builder = Builder::default();
    let corpus_knowledge = Corpus::load(project, Kinds::KNOWLEDGE);
    let (name, kind) = if let Some(id) = wikilink::stack_id(target.trim()) {
        stack_blocks(project, &corpus_knowledge, &id, &mut builder)?;
        (id, TargetKind::Stack)
    } else if let Some(source) = as_path.filter(|source| {
        project.abs(source).is_file() || project.abs(&design_path(source)).is_file()
    }) {
        file_blocks(project, &corpus_knowledge, source, &mut builder)?;
        (source.to_string(), TargetKind::File)
    } else if let Some(concept) = Resolver::new(&corpus_knowledge).concept(target) {
        let name = concept.name.clone();
        concept_blocks(project, &corpus_knowledge, concept, &mut builder)?;
        (name, TargetKind::Concept)
    } else {
        bail!(
            "{target:?} is not a source file with a design file, a concept or a Stack post id; \
             try `lexi search {target}`"
        );
    };
    Ok(builder.finish(name, kind, budget))
}

#[derive(Default)]
struct Builder {
    blocks: Vec<Block>,
}

impl Builder {
    fn add(
        &mut self,
        kind: &str,
        title: impl Into<String>,
        text: impl Into<String>,
        priority: u32,
    ) {
        let title = title.into();
        let text = text.into();
        let tokens = estimate_tokens(&title) + estimate_tokens(&text) + 2;
        let order = self.blocks.len();
        self.blocks.push(Block {
            kind: kind.to_string(),
            title,
            text,
            tokens,
            priority,
            order,
            trim_for: None,
        });
    }

    /// Mark the last block added as an Interface Contract of `source` that may be trimmed.
    fn trimmable(&mut self, source: &str) {
        if let Some(block) = self.blocks.last_mut() {
            block.trim_for = Some(source.to_string());
        }
    }

    fn finish(self, target: String, kind: TargetKind, budget: usize) -> Bundle {
        let mut by_priority = self.blocks;
        by_priority.sort_by_key(|block| (block.priority, block.order));
        let mut used = 0;
        let mut kept = Vec::new();
        let mut omitted = Vec::new();
        let mut deferred = Vec::new();
        for block in by_priority {
            if used + block.tokens <= budget {
                used += block.tokens;
                kept.push(block);
            } else if block.trim_for.is_some() {
                deferred.push(block);
            } else {
                omitted.push(Omitted {
                    kind: block.kind,
                    title: block.title,
                    tokens: block.tokens,
                    trimmed: None,
                });
            }
        }
        // What is left of the budget goes to the trimmable blocks, most important first.
        for mut block in deferred {
            let room = budget.saturating_sub(used);
            let source = block.trim_for.clone().unwrap_or_default();
            let head = estimate_tokens(&block.title) + 2;
            let trimmed = (room > head + MIN_TRIMMED)
                .then(|| trim_contract(&source, &block.text, room - head))
                .flatten();
            match trimmed {
                Some(trimmed) if estimate_tokens(&trimmed.text) + head <= room => {
                    let mut what = Vec::new();
                    if trimmed.items_left_out > 0 {
                        what.push(format!("{} items", trimmed.items_left_out));
                    }
                    if trimmed.members_left_out > 0 {
                        what.push(format!("{} members", trimmed.members_left_out));
                    }
                    omitted.push(Omitted {
                        kind: block.kind.clone(),
                        title: block.title.clone(),
                        tokens: block.tokens,
                        trimmed: Some(format!("{} left out", what.join(" and "))),
                    });
                    block.text = trimmed.text;
                    block.tokens = estimate_tokens(&block.text) + head;
                    used += block.tokens;
                    kept.push(block);
                }
                _ => omitted.push(Omitted {
                    kind: block.kind,
                    title: block.title,
                    tokens: block.tokens,
                    trimmed: None,
                }),
            }
        }
        kept.sort_by_key(|block| block.order);
        Bundle {
            target,
            kind,
            budget,
            tokens: used,
            blocks: kept,
            omitted,
        }
    }
}

/// A source file: its `.iwh`, its design file by section, the conventions it inherits, the concepts
/// it links and the Stack posts about it.
fn file_blocks(
    project: &Project,
    corpus: &Corpus,
    source: &str,
    builder: &mut Builder,
) -> anyhow::Result<()> {
    iwh_block(project, RelPath::new(source).dir(), builder);
    let found = lookup(project, source)?;
    design_blocks(&found, builder);
    for conventions in &found.conventions {
        let from = if conventions.directory.is_empty() {
            "./".to_string()
        } else {
            format!("{}/", conventions.directory)
        };
        builder.add(
            "conventions",
            format!("Local Conventions from {from}"),
            conventions.raw.trim(),
            3,
        );
    }
    let links = wikilink::extract(&found.content);
    let resolver = Resolver::new(corpus);
    let mut seen = Vec::new();
    for link in &links {
        let Wikilink::Concept(name) = link else {
            continue;
        };
        if let Some(concept) = resolver.concept(name) {
            if !seen.contains(&concept.name) {
                seen.push(concept.name.clone());
                concept_summary_block(project, concept, builder, 5);
            }
        }
    }
    for post in posts_about(corpus, &found, &links) {
        post_summary_block(project, post, builder, 6);
    }
    Ok(())
}

/// The design file: a head block (staleness, description, preamble), then one block per section,
/// the ones read first kept first when the budget is short.
fn design_blocks(found: &Lookup, builder: &mut Builder) {
    let mut head = String::new();
    for warning in found.warnings() {
        head.push_str(&warning);
        head.push_str("\n\n");
    }
    head.push_str(&format!(
        "description: {}",
        found.design.frontmatter.description.trim()
    ));
    if !found.design.body.preamble.trim().is_empty() {
        head.push_str("\n\n");
        head.push_str(found.design.body.preamble.trim());
    }
    let title = format!("{} ({})", found.source, found.design_path);
    builder.add("design", title, head, 1);
    for section in &found.design.body.sections {
        let heading = section.heading.as_str();
        if heading.eq_ignore_ascii_case(sections::WIKILINKS) || section.body.trim().is_empty() {
            continue;
        }
        let priority = match heading {
            sections::INTERFACE_CONTRACT => 3,
            sections::COMPLEXITY_WARNING => 2,
            sections::DEPENDENTS => 4,
            sections::DEPENDENCIES | sections::EXTERNAL_DEPENDENCIES | sections::STACK => 6,
            sections::TESTS => 7,
            sections::TAGS => 9,
            // Sections the Archivist does not write were written by agents or humans: keep them.
            _ => 2,
        };
        let kind = if heading == sections::DEPENDENTS {
            "dependents"
        } else {
            "section"
        };
        let items = list_items(&section.body);
        let is_list = [
            sections::DEPENDENTS,
            sections::DEPENDENCIES,
            sections::TESTS,
        ]
        .iter()
        .any(|h| heading.eq_ignore_ascii_case(h));
        match summarize_paths(&found.source, heading, &items).filter(|_| is_list) {
            Some(summary) => builder.add(kind, heading, summary, priority),
            None => builder.add(kind, heading, section.body.trim(), priority),
        }
        if heading.eq_ignore_ascii_case(sections::INTERFACE_CONTRACT) {
            builder.trimmable(&found.source);
        }
    }
}

/// The Stack posts about the looked-up file (its `refs.files`), linked from its design file, or
/// linking to the design file; accepted first, then by votes.
fn posts_about<'c>(corpus: &'c Corpus, found: &Lookup, links: &[Wikilink]) -> Vec<&'c Doc> {
    let design_rel = found
        .design_path
        .strip_prefix(&format!("{LIBRARY_DIR}/"))
        .unwrap_or(&found.design_path);
    let linked_ids: Vec<&str> = links
        .iter()
        .filter_map(|link| match link {
            Wikilink::Stack(id) => Some(id.as_str()),
            Wikilink::Concept(_) => None,
        })
        .collect();
    let mut posts: Vec<&Doc> = corpus
        .of_kind(DocKind::Stack)
        .filter(|post| {
            post.files.contains(&found.source)
                || linked_ids.contains(&post.name.as_str())
                || post.links.iter().any(|link| link == design_rel)
        })
        .collect();
    posts.sort_by(|a, b| {
        b.accepted
            .is_some()
            .cmp(&a.accepted.is_some())
            .then_with(|| b.votes.cmp(&a.votes))
            .then_with(|| a.name.cmp(&b.name))
    });
    posts
}

/// A concept: its head and sections, the concepts it links, the posts and design files that refer
/// to it.
fn concept_blocks(
    project: &Project,
    corpus: &Corpus,
    concept: &Doc,
    builder: &mut Builder,
) -> anyhow::Result<()> {
    let shown = format!("{LIBRARY_DIR}/{}", concept.path);
    let text = project.read_to_string(&shown)?;
    let parsed = Concept::parse(&shown, &concept.name, &text)?;
    concept_text_blocks(&parsed, &shown, builder);
    let resolver = Resolver::new(corpus);
    let mut seen = vec![concept.name.clone()];
    for link in wikilink::extract(&text) {
        let Wikilink::Concept(name) = link else {
            continue;
        };
        if let Some(other) = resolver.concept(&name) {
            if !seen.contains(&other.name) {
                seen.push(other.name.clone());
                let title = format!("[[{}]] {}", other.name, other.title);
                builder.add("concept", title, other.summary.clone(), 4);
            }
        }
    }
    let names: Vec<&str> = std::iter::once(concept.name.as_str())
        .chain(std::iter::once(concept.title.as_str()))
        .chain(concept.aliases.iter().map(String::as_str))
        .collect();
    let refers = |doc: &Doc| {
        doc.concepts
            .iter()
            .chain(&doc.links)
            .any(|link| names.iter().any(|name| name.eq_ignore_ascii_case(link)))
    };
    for post in corpus.of_kind(DocKind::Stack).filter(|post| refers(post)) {
        post_summary_block(project, post, builder, 5);
    }
    linked_from_block(project, &refers, builder);
    Ok(())
}

/// The concept's own text: a head (status, aliases, tags, successor) and its sections.
fn concept_text_blocks(parsed: &Concept, shown: &str, builder: &mut Builder) {
    let mut head = format!("status: {}", parsed.status().as_str());
    if !parsed.meta.aliases.is_empty() {
        head.push_str(&format!("\naliases: {}", parsed.meta.aliases.join(", ")));
    }
    if !parsed.meta.tags.is_empty() {
        head.push_str(&format!("\ntags: {}", parsed.tags().join(", ")));
    }
    if let Some(next) = &parsed.meta.superseded_by {
        head.push_str(&format!("\n> Deprecated: superseded by [[{next}]]."));
    }
    builder.add("concept", format!("{} ({shown})", parsed.title()), head, 1);
    for section in &parsed.body.sections {
        let priority = match section.heading.as_str() {
            "Summary" | "Rules" => 1,
            "Where It Applies" => 2,
            "Decision Log" => 6,
            _ => 3,
        };
        if !section.body.trim().is_empty() {
            builder.add(
                "section",
                section.heading.as_str(),
                section.body.trim(),
                priority,
            );
        }
    }
}

/// The design files that `refers` to the concept, one line each.
fn linked_from_block(project: &Project, refers: &dyn Fn(&Doc) -> bool, builder: &mut Builder) {
    let designs = Corpus::load(
        project,
        Kinds {
            designs: true,
            knowledge: false,
            design_bodies: false,
            conventions: false,
        },
    );
    let linking: Vec<String> = designs
        .of_kind(DocKind::Design)
        .filter(|doc| refers(doc))
        .map(|doc| format!("- {} — {}", doc.name, doc.summary))
        .collect();
    if !linking.is_empty() {
        builder.add(
            "linked_from",
            "Design files linking here",
            linking.join("\n"),
            5,
        );
    }
}

fn stack_blocks(
    project: &Project,
    corpus: &Corpus,
    id: &str,
    builder: &mut Builder,
) -> anyhow::Result<()> {
    let (rel, post) = stack::find(project, id)?;
    let body = post.read_body();
    let meta = &post.meta;
    let mut head = format!(
        "[{}] ▲{}  tags: {}",
        meta.status.as_str(),
        meta.votes,
        post.tags().join(", ")
    );
    if let Some(of) = &meta.duplicate_of {
        head.push_str(&format!("\n> Duplicate of [[{of}]]."));
    }
    builder.add(
        "post",
        format!("{} {} ({rel})", meta.id, meta.title),
        head,
        1,
    );
    builder.add("section", "Problem", body.problem.clone(), 1);
    builder.add("section", "Evidence", body.evidence.clone(), 2);
    let mut answers: Vec<_> = body.answers.iter().collect();
    answers.sort_by_key(|answer| {
        let accepted = meta.accepted_answer == Some(answer.number);
        let votes = meta.answer_votes.get(&answer.number).copied().unwrap_or(0);
        (!accepted, -votes, answer.number)
    });
    for (rank, answer) in answers.into_iter().enumerate() {
        let accepted = meta.accepted_answer == Some(answer.number);
        let votes = meta.answer_votes.get(&answer.number).copied().unwrap_or(0);
        let label = if accepted { " (accepted)" } else { "" };
        builder.add(
            "answer",
            format!("A{}{label} ▲{votes} by {}", answer.number, answer.author),
            answer.body.clone(),
            if accepted { 1 } else { 3 + rank as u32 },
        );
    }
    let resolver = Resolver::new(corpus);
    for name in &meta.refs.concepts {
        if let Some(concept) = resolver.concept(name) {
            concept_summary_block(project, concept, builder, 4);
        }
    }
    for file in &meta.refs.files {
        let design = design_path(file);
        let description = project
            .read_to_string(&design)
            .ok()
            .and_then(|text| crate::library::design_file::DesignFile::parse(&design, &text).ok())
            .map(|design| design.frontmatter.description)
            .unwrap_or_else(|| "(no design file)".to_string());
        builder.add("file", file.as_str(), description, 5);
    }
    Ok(())
}

fn iwh_block(project: &Project, dir: &str, builder: &mut Builder) {
    if !project.config.iwh.enabled {
        return;
    }
    let rel = iwh_path(dir);
    let Ok(text) = project.read_to_string(&rel) else {
        return;
    };
    let shown_dir = if dir.is_empty() { "." } else { dir };
    let text = match Iwh::parse(&rel, &text) {
        Ok(note) => format!(
            "[{}] by {} at {}\n\n{}\n\n(`lexi iwh read {shown_dir}` consumes it.)",
            note.meta.scope.as_str(),
            note.meta.author,
            note.meta.created,
            note.body
        ),
        Err(err) => format!("{text}\n\n(this note does not parse: {err})"),
    };
    builder.add(
        "iwh",
        format!("I Was Here note waiting in {shown_dir}"),
        text,
        0,
    );
}

fn concept_summary_block(project: &Project, concept: &Doc, builder: &mut Builder, priority: u32) {
    let mut text = concept.summary.clone();
    if concept.status == "deprecated" {
        text.push_str(&format!(
            "\n> Deprecated{}",
            if concept.pointer.is_empty() {
                ".".to_string()
            } else {
                format!(": superseded by [[{}]].", concept.pointer)
            }
        ));
    }
    let rules = project
        .read_to_string(&in_library(&concept.path))
        .ok()
        .and_then(|raw| Concept::parse(&concept.path, &concept.name, &raw).ok())
        .and_then(|parsed| parsed.rules().map(str::to_string));
    if let Some(rules) = rules {
        text.push_str("\n\nRules:\n");
        text.push_str(rules.trim());
    }
    builder.add(
        "concept",
        format!("[[{}]] {}", concept.name, concept.title),
        text,
        priority,
    );
}

fn post_summary_block(project: &Project, post: &Doc, builder: &mut Builder, priority: u32) {
    let mut text = format!("[{}] ▲{}  {}", post.status, post.votes, post.summary);
    if let Some(number) = post.accepted {
        let answer = project
            .read_to_string(&in_library(&post.path))
            .ok()
            .and_then(|raw| Post::parse(&post.path, &raw).ok())
            .and_then(|parsed| {
                parsed
                    .read_body()
                    .answers
                    .into_iter()
                    .find(|answer| answer.number == number)
            });
        if let Some(answer) = answer {
            text.push_str(&format!(
                "\n\nAccepted answer (A{number}):\n{}",
                answer.body
            ));
        }
    }
    builder.add(
        "stack",
        format!("{} {}", post.name, post.title),
        text,
        priority,
    );
}
