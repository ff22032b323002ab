//! Provenance of the design files the Archivist writes: one event per text, as a note on the
//! text's blob in `refs/notes/lexibrarian/provenance` (`lexi why` reads them back per file), all of a
//! run's events in one notes commit.

use super::report::Provenance;
use super::scanned::ChangeLevel;
use crate::git::notes::PROVENANCE_NOTES;
use crate::git::{GitRepo, Oid};
use crate::library::events::{ProvenanceEvent, ProvenanceKind, EVENT_VERSION};

/// Append one provenance event per design file text to `refs/notes/lexibrarian/provenance`, keyed
/// by the text's blob, in one notes commit. Each event's line is made when its note is written,
/// never all of them at once.
pub(super) fn append_provenance(
    repo: &GitRepo,
    head: Option<&Oid>,
    provenances: &[&Provenance],
) -> Result<(), crate::git::GitError> {
    let ts = crate::library::footer::now_rfc3339_millis();
    let keyed: Vec<(Oid, &Provenance)> = provenances
        .iter()
        .filter_map(|provenance| Some((provenance.blob?, *provenance)))
        .collect();
    let objects: Vec<Oid> = keyed.iter().map(|(blob, _)| *blob).collect();
    let lines = |index: usize| {
        provenance_event(keyed[index].1, head, &ts)
            .to_line()
            .unwrap_or_default()
    };
    let message = format!("lexibrarian: provenance of {} design files", objects.len());
    repo.append_notes_with(PROVENANCE_NOTES, &objects, &lines, &message)
}

/// The notes event of one written design file: what the Archivist did to this text — wrote its
/// sections, only refreshed its Dependents, or moved it with its source.
fn provenance_event(provenance: &Provenance, head: Option<&Oid>, ts: &str) -> ProvenanceEvent {
    let kind = match provenance.level {
        ChangeLevel::Unchanged => ProvenanceKind::DependentsRefreshed,
        ChangeLevel::Renamed => ProvenanceKind::Moved,
        _ => ProvenanceKind::Generated,
    };
    let generation = &provenance.generation;
    ProvenanceEvent {
        blob: provenance.blob.map(|blob| blob.to_hex()),
        commit: head.map(Oid::to_hex),
        design_file: provenance.design_file.clone(),
        design_hash: provenance.design_hash.clone(),
        duration_ms: generation.duration_ms,
        generator: generation.generator.clone(),
        id: crate::git::notes::event_id(&provenance.source),
        interface_hash: provenance.interface_hash.clone(),
        kind,
        level: provenance.level.label().to_string(),
        model: generation.model.clone(),
        prompt_hash: generation.prompt_hash.clone(),
        prompt_version: generation.prompt_version.clone(),
        source: provenance.source.clone(),
        source_hash: provenance.source_hash.clone(),
        tokens_in: generation.tokens_in,
        tokens_out: generation.tokens_out,
        ts: ts.to_string(),
        v: EVENT_VERSION,
        extra: Default::default(),
    }
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::archivist::Generation;

    /// The typed event writes exactly the line the untyped writer wrote: every key, sorted.
    #[test]
    fn provenance_lines_keep_their_format() {
        let provenance = Provenance {
            design_file: ".lexibrary/a.py.md".into(),
            source: "a.py".into(),
            source_hash: "ab".into(),
            interface_hash: None,
            design_hash: "cd".into(),
            level: ChangeLevel::New,
            generation: Generation::offline("structural", 3),
            blob: Oid::parse("0123456789abcdef0123456789abcdef01234567").ok(),
        };
        let head = Oid::parse("89abcdef0123456789abcdef0123456789abcdef").ok();
        let mut event = provenance_event(&provenance, head.as_ref(), "2026-01-15T10:30:00.000Z");
        event.id = "0011223344556677".into();
        let mut expected = serde_json::json!({
            "ts": "2026-01-15T10:30:00.000Z",
            "v": 1,
            "id": "0011223344556677",
            "kind": "generated",
            "commit": head,
        });
        if let (Some(map), Ok(serde_json::Value::Object(fields))) =
            (expected.as_object_mut(), serde_json::to_value(&provenance))
        {
            map.extend(fields);
        }
        assert_eq!(event.to_line().expect("line"), format!("{expected}\n"));
    }
}
