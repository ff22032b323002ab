//! The repairs behind `lexictl validate --fix` that the update does not make: Dependents an agent's
//! design file (or a stale one) lacks, and provenance recorded after the fact from a footer. (Stale
//! footer hashes and the Archivist's own sections come from `engine::update`, vote counts from
//! `engine::votes`.) None of them touches prose: a Dependents list is machine data, and the rest of
//! the file is kept byte for byte.

use anyhow::Context as _;

use crate::archivist::structural::{dependent_items, listed_path, path_list};
use crate::git::notes::{blob_id, NoteAppend, PROVENANCE_NOTES};
use crate::git::{GitRepo, Oid};
use crate::library::design_file::{is_unedited, sections, DesignFile};
use crate::library::events::{ProvenanceEvent, ProvenanceKind, EVENT_VERSION};
use crate::library::footer::{self, now_rfc3339_millis};
use crate::project::mirror::design_path;
use crate::workspace::lock::LibraryLock;
use crate::workspace::Workspace;

/// Add `dependents` to the Dependents section of `source`'s design file (sorted, each once).
/// A text the Archivist wrote stays sealed (its footer's design hash follows) and its provenance is
/// recorded like the update's own Dependents refresh; an agent's text keeps its footer as it was.
/// Returns whether the file changed.
pub fn add_dependents(ws: &Workspace, source: &str, dependents: &[String]) -> anyhow::Result<bool> {
    let project = ws.project();
    let _lock = LibraryLock::acquire(project)?;
    let design_rel = design_path(source);
    let path = project.abs(&design_rel);
    let text =
        std::fs::read_to_string(&path).with_context(|| format!("cannot read {design_rel}"))?;
    let mut design = DesignFile::parse(&design_rel, &text)?;
    let mut listed: Vec<String> = design
        .section(sections::DEPENDENTS)
        .map(|section| crate::library::markdown::list_items(&section.body))
        .unwrap_or_default()
        .into_iter()
        .map(|item| listed_path(&item).to_string())
        .filter(|item| !item.is_empty() && !item.starts_with('('))
        .collect();
    let before = listed.len();
    listed.extend(dependents.iter().cloned());
    listed.sort();
    listed.dedup();
    if listed.len() == before {
        return Ok(false);
    }
    let sealed = design
        .footer
        .clone()
        .filter(|footer| is_unedited(&text, footer));
    let new_text = match &sealed {
        // The Archivist's own text is canonical: render it again, like the update's refresh.
        Some(footer) => {
            design.body.set_section(
                sections::DEPENDENTS,
                path_list(&dependent_items(source, &listed)),
            );
            design.render_with_footer(footer.clone()).0
        }
        // An agent's: replace the section's lines in place, every other byte kept.
        None => {
            let (content, footer_block) = footer::split(&text);
            let content = with_section(
                content,
                sections::DEPENDENTS,
                &path_list(&dependent_items(source, &listed)),
            );
            format!("{content}{}", footer_block.unwrap_or_default())
        }
    };
    crate::atomic::write(&path, new_text.as_bytes())
        .with_context(|| format!("cannot write {design_rel}"))?;
    if let (Some(git), Some(_)) = (ws.repo_if_any(), sealed) {
        let event = event_for(
            ws,
            &new_text,
            &design_rel,
            ProvenanceKind::DependentsRefreshed,
        )?;
        record(git, &[event])?;
    }
    Ok(true)
}

/// Record a `recovered` provenance event, from its footer, for the design file of each of
/// `sources` (texts the Archivist wrote whose event is missing). Returns how many were recorded.
pub fn record_provenance(ws: &Workspace, sources: &[String]) -> anyhow::Result<usize> {
    let Some(git) = ws.repo_if_any() else {
        return Ok(0);
    };
    let mut events = Vec::new();
    for source in sources {
        let design_rel = design_path(source);
        let Ok(text) = std::fs::read_to_string(ws.project().abs(&design_rel)) else {
            continue;
        };
        events.push(event_for(
            ws,
            &text,
            &design_rel,
            ProvenanceKind::Recovered,
        )?);
    }
    record(git, &events)?;
    Ok(events.len())
}

/// The object format of `ws`'s repository (SHA-1 outside git, where no blob id is recorded).
fn object_format(ws: &Workspace) -> crate::git::ObjectFormat {
    ws.repo_if_any()
        .map_or_else(Default::default, |repo| repo.object_format())
}

/// A provenance event for `text` (the design file `design_rel`) from what its footer says.
fn event_for(
    ws: &Workspace,
    text: &str,
    design_rel: &str,
    kind: ProvenanceKind,
) -> anyhow::Result<ProvenanceEvent> {
    let design = DesignFile::parse(design_rel, text)?;
    let footer = design
        .footer
        .with_context(|| format!("{design_rel} has no footer to record provenance from"))?;
    let generator = match kind {
        ProvenanceKind::DependentsRefreshed => "structural".to_string(),
        _ => footer.generator.clone(),
    };
    Ok(ProvenanceEvent {
        blob: Some(blob_id(object_format(ws), text.as_bytes())?.to_hex()),
        commit: ws.head().map(Oid::to_hex),
        design_file: design_rel.to_string(),
        design_hash: footer.design_hash.clone(),
        generator,
        id: crate::git::notes::event_id(&footer.source),
        interface_hash: footer.interface_hash.clone(),
        level: match kind {
            ProvenanceKind::DependentsRefreshed => "UNCHANGED".into(),
            _ => "RECOVERED".into(),
        },
        kind,
        source: footer.source.clone(),
        source_hash: footer.source_hash.clone(),
        ts: now_rfc3339_millis(),
        v: EVENT_VERSION,
        ..ProvenanceEvent::default()
    })
}

/// Append the events to the provenance notes, each on its text's blob, in one notes commit.
fn record(git: &GitRepo, events: &[ProvenanceEvent]) -> anyhow::Result<()> {
    let mut appends = Vec::new();
    for event in events {
        let Some(blob) = event.blob.as_deref().and_then(|hex| Oid::parse(hex).ok()) else {
            continue;
        };
        appends.push(NoteAppend {
            object: blob,
            lines: event.to_line()?,
        });
    }
    let message = format!("lexibrarian: provenance of {} design files", appends.len());
    git.append_notes(PROVENANCE_NOTES, &appends, &message)?;
    Ok(())
}

/// `content` (a design file above its footer) with the body of section `heading` replaced by
/// `body`, every other byte kept; the section is appended when there is none. Headings inside code
/// fences do not count.
fn with_section(content: &str, heading: &str, body: &str) -> String {
    let mut offset = 0;
    let mut in_fence = false;
    let mut start = None;
    let mut end = content.len();
    for line in content.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if trimmed.trim_start().starts_with("```") {
            in_fence = !in_fence;
        } else if !in_fence && trimmed.starts_with("## ") {
            if start.is_some() {
                end = offset;
                break;
            }
            if trimmed[3..].trim().eq_ignore_ascii_case(heading) {
                start = Some(offset + line.len());
            }
        }
        offset += line.len();
    }
    match start {
        Some(start) => format!("{}\n{body}\n\n{}", &content[..start], &content[end..]),
        None => {
            let mut out = content.trim_end_matches('\n').to_string();
            out.push_str(&format!("\n\n## {heading}\n\n{body}\n\n"));
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_section_body_is_replaced_and_nothing_else_moves() {
        let content = "---\nd: x\n---\n\n# a.rs\n\nAn agent's words.\n\n## Interface Contract\n\n```rust\n## not a heading\n```\n\n## Dependents\n\n(none)\n\n## Why\n\nKept  as  is.\n";
        let out = with_section(content, "Dependents", "- src/b.rs");
        assert_eq!(
            out,
            content.replace(
                "## Dependents\n\n(none)\n\n",
                "## Dependents\n\n- src/b.rs\n\n"
            )
        );
        let last = "# a.rs\n\n## Dependents\n\n- x\n";
        assert_eq!(
            with_section(last, "Dependents", "- x\n- y"),
            "# a.rs\n\n## Dependents\n\n- x\n- y\n\n"
        );
        assert_eq!(
            with_section("# a.rs\n", "Dependents", "- y"),
            "# a.rs\n\n## Dependents\n\n- y\n\n"
        );
    }
}
