//! Turning scan results into design file text (the write stage's texts): Archivist output merged into the existing file, a
//! footer refresh for files an agent edited, and a Dependents refresh when only the reverse index moved.
//!
//! Merging keeps everything the Archivist does not own — unknown sections in place, frontmatter keys,
//! an agent's description (`updated_by: agent`) — and on CONTENT_ONLY keeps the Interface Contract.

use crate::archivist::structural::{graph_sections, path_tags, tag_list, Graph};
use crate::archivist::{
    Archivist, ArchivistInput, Generation, Importers, OverBudget, OWNED_SECTIONS,
};
use crate::library::contract::{self, CONTRACT_HASH_KEY, CONTRACT_INTERFACE_KEY};
use crate::library::design_file::{sections, DesignFile, UpdatedBy};
use crate::library::footer::{self, Footer, OVER_SCOPED_KEY};
use crate::library::markdown::Section;

use super::scanned::{ChangeLevel, Code, Existing, Scanned, Source};

/// `lexibrarian <version>`, the footer's `generator`.
pub fn generator() -> String {
    format!("lexibrarian {}", env!("CARGO_PKG_VERSION"))
}

/// A fresh footer for `scanned` (no time: see `library::footer`), keeping any keys a newer
/// version wrote into the old one.
fn new_footer(scanned: &Scanned) -> Footer {
    let extra = scanned
        .existing()
        .and_then(|existing| existing.design.footer.as_ref())
        .map(|footer| footer.extra.clone())
        .unwrap_or_default();
    Footer {
        source: scanned.source.clone(),
        source_hash: scanned.facts.source_hash.clone(),
        interface_hash: scanned.facts.interface_hash.clone(),
        design_hash: String::new(),
        generated: None,
        generator: generator(),
        extra,
    }
}

/// Set the footer's contract keys (see `library::contract`): `contract_hash` and, when the contract
/// was written against another interface than the footer's, `contract_interface_hash`.
fn set_contract_keys(footer: &mut Footer, (hash, basis): (Option<String>, Option<String>)) {
    footer.extra.remove(CONTRACT_HASH_KEY);
    footer.extra.remove(CONTRACT_INTERFACE_KEY);
    if let Some(hash) = hash {
        footer.extra.insert(CONTRACT_HASH_KEY.to_string(), hash);
    }
    if let Some(basis) = basis {
        footer
            .extra
            .insert(CONTRACT_INTERFACE_KEY.to_string(), basis);
    }
}

/// The contract keys for the existing text of `scanned` whose contract is kept as it is.
fn kept_contract_keys(scanned: &Scanned) -> (Option<String>, Option<String>) {
    match scanned.existing() {
        Some(existing) => contract::kept_keys(
            &existing.text,
            &existing.design,
            scanned.facts.interface_hash.as_deref(),
        ),
        None => (None, None),
    }
}

/// A design file the Archivist wrote.
#[derive(Clone, Debug)]
pub struct Regenerated {
    /// The whole file, footer included.
    pub text: String,
    /// The frontmatter description written.
    pub description: String,
    /// Who wrote it.
    pub generation: Generation,
    pub over_budget: Option<OverBudget>,
}

/// What a design file is written from besides the scanned file's facts: the source as read, its
/// parsed code and the design file there now.
#[derive(Clone, Copy)]
pub struct Parts<'a> {
    pub source: Option<&'a Source>,
    pub code: Option<&'a Code>,
    pub existing: Option<&'a Existing>,
}

impl<'a> Parts<'a> {
    /// What the scan read of `scanned`.
    pub fn of(scanned: &'a Scanned) -> Parts<'a> {
        Parts {
            source: scanned.source_read(),
            code: scanned.code(),
            existing: scanned.existing(),
        }
    }
}

/// The input the Archivist gets for a scanned file.
pub fn archivist_input<'a>(scanned: &'a Scanned, importers: Importers<'a>) -> ArchivistInput<'a> {
    input_from(scanned, Parts::of(scanned), importers)
}

/// The input the Archivist gets for `scanned` written from `parts`.
fn input_from<'a>(
    scanned: &'a Scanned,
    parts: Parts<'a>,
    importers: Importers<'a>,
) -> ArchivistInput<'a> {
    let text = parts.source.map_or("", |source| source.text.as_str());
    ArchivistInput {
        source: &scanned.source,
        text,
        language: parts.code.map(|code| code.language),
        interface: parts.code.map(|code| code.interface.as_ref()),
        dependencies: &scanned.facts.deps,
        dependents: importers.dependents,
        tests: importers.tests,
        externals: &scanned.facts.externals,
        type_only: &scanned.facts.type_deps,
        existing: parts
            .existing
            .map(|existing| footer::split(&existing.text).0),
        content_only: keeps_contract(scanned),
        abridged: scanned.abridged || crate::source::is_generated_header(text),
        budget_tokens: scanned.budget_tokens,
    }
}

/// Every text of `design` redacted ([`crate::secrets::redact`]): the sections kept from the existing
/// file and a kept description too, so that a regenerated design file never holds what `validate`
/// calls a secret, whoever put it there.
fn redact_design(design: &mut DesignFile, known: &[String]) {
    let clean = |text: &mut String| {
        if let std::borrow::Cow::Owned(redacted) = crate::secrets::redact_with(text, known) {
            *text = redacted;
        }
    };
    clean(&mut design.frontmatter.description);
    clean(&mut design.body.preamble);
    for section in &mut design.body.sections {
        clean(&mut section.body);
    }
}

/// CONTENT_ONLY with an Interface Contract to keep.
fn keeps_contract(scanned: &Scanned) -> bool {
    scanned.level() == ChangeLevel::ContentOnly
        && scanned.existing().is_some_and(|existing| {
            existing
                .design
                .section(sections::INTERFACE_CONTRACT)
                .is_some()
        })
}

/// Generate or regenerate the design file of a scanned file at a regenerating level, its footer
/// (the same inputs give the same text).
pub fn regenerate(
    archivist: &dyn Archivist,
    scanned: &Scanned,
    importers: Importers<'_>,
) -> anyhow::Result<Regenerated> {
    regenerate_from(archivist, scanned, Parts::of(scanned), importers)
}

/// [`regenerate`] from `parts` (what the scan read, or what was read since).
fn regenerate_from(
    archivist: &dyn Archivist,
    scanned: &Scanned,
    parts: Parts<'_>,
    importers: Importers<'_>,
) -> anyhow::Result<Regenerated> {
    // Whatever wrote it, nothing credential-shaped reaches the library — nor a secret value of
    // the source that the text repeats where nothing says it is one.
    let input = input_from(scanned, parts, importers);
    let known = crate::secrets::secret_values(input.text);
    let output = archivist.describe(&input)?.redacted_with(&known);
    let mut design = match parts.existing {
        Some(existing) => existing.design.clone(),
        None => DesignFile::new(&scanned.source, String::new(), Vec::new()),
    };
    let keep_description = design.frontmatter.updated_by == UpdatedBy::Agent
        && !design.frontmatter.description.trim().is_empty();
    if !keep_description {
        design.frontmatter.description = output.description;
    }
    // An agent's contract is theirs while the interface holds; a model's carries its notes.
    let agents = design.frontmatter.updated_by == UpdatedBy::Agent;
    let keep_contract =
        (archivist.keeps_contract_on_content_only() || agents) && keeps_contract(scanned);
    let mut owned = output.sections;
    if keep_contract {
        owned.retain(|section| section.heading != sections::INTERFACE_CONTRACT);
    }
    merge_owned(&mut design, owned, keep_contract);
    let mut footer = new_footer(scanned);
    let keys = match keep_contract {
        true => kept_contract_keys(scanned),
        false => (
            contract::contract_body(&design).map(contract::contract_hash),
            None,
        ),
    };
    set_contract_keys(&mut footer, keys);
    footer.extra.remove(OVER_SCOPED_KEY);
    if let Some(over) = output.over_budget {
        footer.extra.insert(
            OVER_SCOPED_KEY.to_string(),
            format!("{}/{}", over.tokens, over.budget),
        );
    }
    redact_design(&mut design, &known);
    let (text, _) = design.render_with_footer(footer);
    Ok(Regenerated {
        text,
        description: design.frontmatter.description,
        generation: output.generation,
        over_budget: output.over_budget,
    })
}

/// Replace the owned sections of `design` with `owned`, keeping the position of each one that exists,
/// inserting new ones after the nearest preceding owned section, and removing owned sections the
/// Archivist no longer writes. `keep_contract` protects the Interface Contract from removal.
pub fn merge_owned(design: &mut DesignFile, owned: Vec<Section>, keep_contract: bool) {
    let sections_ref = &mut design.body.sections;
    sections_ref.retain(|section| {
        let is_owned = OWNED_SECTIONS
            .iter()
            .any(|heading| section.heading.eq_ignore_ascii_case(heading));
        let kept_contract = keep_contract
            && section
                .heading
                .eq_ignore_ascii_case(sections::INTERFACE_CONTRACT);
        !is_owned
            || kept_contract
            || owned
                .iter()
                .any(|new| new.heading.eq_ignore_ascii_case(&section.heading))
    });
    for section in owned {
        if let Some(existing) = sections_ref
            .iter_mut()
            .find(|existing| existing.heading.eq_ignore_ascii_case(&section.heading))
        {
            existing.body = section.body;
            continue;
        }
        let rank = owned_rank(&section.heading);
        let position = sections_ref
            .iter()
            .rposition(|existing| owned_rank(&existing.heading).is_some_and(|r| Some(r) < rank))
            .map_or(0, |index| index + 1);
        sections_ref.insert(position, section);
    }
}

fn owned_rank(heading: &str) -> Option<usize> {
    OWNED_SECTIONS
        .iter()
        .position(|owned| owned.eq_ignore_ascii_case(heading))
}

/// AGENT_UPDATED: keep every byte above the footer, write a fresh footer (DESIGN §4).
pub fn refresh_footer(scanned: &Scanned) -> String {
    let existing = scanned
        .existing()
        .map_or("", |existing| existing.text.as_str());
    let (content, block) = footer::split(existing);
    let mut content = content.to_string();
    // Text an agent appended after the old footer moves above the new one.
    let trailing = block.map_or("", footer::trailing_text).trim();
    if !trailing.is_empty() {
        if !content.ends_with("\n\n") {
            content.push_str(if content.ends_with('\n') {
                "\n"
            } else {
                "\n\n"
            });
        }
        content.push_str(trailing);
        content.push_str("\n\n");
    }
    if !content.is_empty() && !content.ends_with('\n') {
        content.push('\n');
    }
    let mut footer = new_footer(scanned);
    set_contract_keys(&mut footer, kept_contract_keys(scanned));
    footer::seal(&content, footer).0
}

/// The design file of an unchanged file whose graph moved (its importers, or what its own imports
/// resolve to), written by the structural Archivist exactly as a full run would: the source is read
/// again (the scan answered it from the cache) and the whole file regenerated — its contract's room
/// depends on the lists. `None` when the source no longer is what the scan saw (it changed under
/// the run: the next run sees it) or the design file cannot be parsed.
pub fn regenerate_unchanged(
    project: &crate::project::Project,
    scanned: &Scanned,
    current: &str,
    importers: Importers<'_>,
) -> anyhow::Result<Option<Regenerated>> {
    let design_rel = crate::project::mirror::design_path(&scanned.source);
    let Ok(design) = DesignFile::parse(&design_rel, current) else {
        return Ok(None);
    };
    let Some((source, code)) = super::scanned::read_again(project, scanned) else {
        return Ok(None);
    };
    let existing = Existing {
        text: current.to_string(),
        design,
    };
    let parts = Parts {
        source: Some(&source),
        code: code.as_ref(),
        existing: Some(&existing),
    };
    let archivist = crate::archivist::structural::StructuralArchivist;
    regenerate_from(&archivist, scanned, parts, importers).map(Some)
}

/// The graph `scanned` sits in, as its path lists show it ([`graph_sections`]); `abridged` says
/// whether its design file shows the interface only.
pub fn graph_of<'a>(scanned: &'a Scanned, importers: Importers<'a>, abridged: bool) -> Graph<'a> {
    Graph {
        source: &scanned.source,
        code: scanned.facts.interface_hash.is_some(),
        dependencies: &scanned.facts.deps,
        type_only: &scanned.facts.type_deps,
        dependents: importers.dependents,
        tests: importers.tests,
        externals: &scanned.facts.externals,
        abridged,
        budget_tokens: scanned.budget_tokens,
    }
}

/// A design file whose path lists — and only those — follow the graph (a model wrote the rest, or
/// someone's design file moved with its source): each list as [`graph_sections`] writes it, every
/// other section kept, its footer refreshed. `None` if the design file cannot be parsed.
pub fn refresh_dependents(
    design_rel: &str,
    design_text: &str,
    graph: &Graph<'_>,
    scanned: &Scanned,
) -> Option<String> {
    let mut design = DesignFile::parse(design_rel, design_text).ok()?;
    let footer = design.footer.clone()?;
    let lists = graph_sections(graph);
    design.body.sections.retain(|section| {
        !LIST_SECTIONS
            .iter()
            .any(|list| section.heading.eq_ignore_ascii_case(list))
            || lists
                .iter()
                .any(|new| new.heading.eq_ignore_ascii_case(&section.heading))
    });
    // Keep every other owned section as it is.
    let mut owned = lists;
    for section in &design.body.sections {
        if owned_rank(&section.heading).is_some()
            && !owned
                .iter()
                .any(|o| o.heading.eq_ignore_ascii_case(&section.heading))
        {
            owned.push(section.clone());
        }
    }
    merge_owned(&mut design, owned, true);
    let refreshed = Footer {
        generated: None,
        generator: generator(),
        source_hash: scanned.facts.source_hash.clone(),
        interface_hash: scanned
            .facts
            .interface_hash
            .clone()
            .or(footer.interface_hash.clone()),
        ..footer
    };
    Some(design.render_with_footer(refreshed).0)
}

/// Whether `design`'s path lists say what [`graph_sections`] writes of `graph`.
pub fn lists_hold(design: &DesignFile, graph: &Graph<'_>) -> bool {
    let lists = graph_sections(graph);
    LIST_SECTIONS.iter().all(|heading| {
        let written = design.section(heading).map(|section| section.body.trim());
        let expected = lists
            .iter()
            .find(|section| section.heading.eq_ignore_ascii_case(heading))
            .map(|section| section.body.trim());
        written == expected
    })
}

/// The sections [`graph_sections`] writes.
pub const LIST_SECTIONS: [&str; 4] = [
    sections::DEPENDENCIES,
    sections::EXTERNAL_DEPENDENCIES,
    sections::DEPENDENTS,
    sections::TESTS,
];

/// For a rename: the old design text with its title and footer pointing at the new path.
pub fn moved(old_text: &str, from: &str, scanned: &Scanned) -> String {
    let (content, _) = footer::split(old_text);
    let old_title = format!("\n# {from}\n");
    let new_title = format!("\n# {}\n", scanned.source);
    let mut content = content.replacen(&old_title, &new_title, 1);
    // Tags the path gave follow the path; tags someone chose stay.
    let language = scanned.code().map(|code| code.language);
    let old_tags = format!("\n## Tags\n\n{}\n", tag_list(&path_tags(from, language)));
    let new_tags = format!(
        "\n## Tags\n\n{}\n",
        tag_list(&path_tags(&scanned.source, language))
    );
    content = content.replacen(&old_tags, &new_tags, 1);
    if !content.is_empty() && !content.ends_with('\n') {
        content.push('\n');
    }
    let mut footer = new_footer(scanned);
    set_contract_keys(&mut footer, kept_contract_keys(scanned));
    footer::seal(&content, footer).0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_keeps_foreign_sections_in_place_and_orders_new_owned_ones() {
        let mut design = DesignFile::new(
            "a.rs",
            "d",
            vec![
                Section::new("Interface Contract", "old"),
                Section::new("Why", "human"),
                Section::new("Dependencies", "old deps"),
                Section::new("Complexity Warning", "stale"),
            ],
        );
        merge_owned(
            &mut design,
            vec![
                Section::new("Interface Contract", "new"),
                Section::new("Dependencies", "new deps"),
                Section::new("Dependents", "new dependents"),
                Section::new("Tags", "- rust"),
            ],
            false,
        );
        let headings: Vec<_> = design
            .body
            .sections
            .iter()
            .map(|s| (s.heading.as_str(), s.body.as_str()))
            .collect();
        assert_eq!(
            headings,
            vec![
                ("Interface Contract", "new"),
                ("Why", "human"),
                ("Dependencies", "new deps"),
                ("Dependents", "new dependents"),
                ("Tags", "- rust"),
            ]
        );
    }
}
