//! `lexi why <file>`: who wrote a design file as it is now — the provenance the Archivist recorded in
//! `refs/notes/lexibrarian/provenance`, keyed by the file's exact content (its blob id).
//!
//! Because the key is the content, a note applies only to the text it was written for: once an agent
//! or a human edits the file, its blob changes and the answer honestly becomes "edited since it was
//! generated".

use anyhow::{bail, Context as _};

use crate::git::notes::{blob_id, PROVENANCE_NOTES};
use crate::git::Oid;
use crate::library::design_file::{is_unedited, DesignFile, UpdatedBy};
use crate::library::events::ProvenanceEvent;
use crate::project::mirror::design_path;
use crate::workspace::Workspace;

/// What is known about a design file's origin.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Why {
    pub source: String,
    pub design_file: String,
    /// The design file's blob id (what provenance notes are keyed by).
    pub blob: Oid,
    /// `generated` (a note matches this exact text), `edited` (the text is not what any recorded
    /// generation wrote), `unrecorded` (the Archivist wrote it — its footer says by what and when —
    /// but no note for it is here: not fetched, or never recorded), `no_git`.
    pub state: &'static str,
    /// The recorded generation events for this exact text, oldest first.
    pub events: Vec<ProvenanceEvent>,
    /// `updated_by` in the frontmatter.
    pub updated_by: UpdatedBy,
    /// What the footer says wrote the text and when (`generator`, `generated`), when it has one:
    /// for an `unrecorded` text, the provenance that is known without the notes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub footer: Option<FooterOrigin>,
}

/// The origin a design file's footer records.
#[derive(Clone, Debug, serde::Serialize)]
pub struct FooterOrigin {
    pub generator: String,
    /// The time an earlier version stamped into the footer (footers hold none any more).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub generated: Option<String>,
}

/// Look up the provenance of `source`'s design file.
pub fn why(ws: &Workspace, source: &str) -> anyhow::Result<Why> {
    let project = ws.project();
    let design_rel = design_path(source);
    let text = match project.read(&design_rel) {
        Ok(bytes) => bytes,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            bail!(
                "{source} has no design file ({design_rel}); `lexictl update {source}` writes one"
            )
        }
        Err(err) if crate::nofollow::is_refused(&err) => return Err(err.into()),
        Err(err) => return Err(err).with_context(|| format!("cannot read {design_rel}")),
    };
    let as_text = String::from_utf8_lossy(&text).into_owned();
    let design = DesignFile::parse(&design_rel, &as_text)?;
    let format = ws
        .repo_if_any()
        .map_or_else(Default::default, |repo| repo.object_format());
    let blob = blob_id(format, &text)?;
    let unedited = design
        .footer
        .as_ref()
        .is_some_and(|footer| is_unedited(&as_text, footer));
    let mut why = Why {
        source: source.to_string(),
        design_file: design_rel,
        blob,
        state: "no_git",
        events: Vec::new(),
        updated_by: design.frontmatter.updated_by,
        footer: design.footer.as_ref().map(|footer| FooterOrigin {
            generator: footer.generator.clone(),
            generated: footer.generated.clone(),
        }),
    };
    let Some(git) = ws.discovered_repo()? else {
        return Ok(why);
    };
    let note = git.note(PROVENANCE_NOTES, &blob)?.unwrap_or_default();
    why.events = ProvenanceEvent::read_note(&note);
    why.state = if !why.events.is_empty() {
        "generated"
    } else if !unedited || design.frontmatter.updated_by == UpdatedBy::Agent {
        "edited"
    } else {
        "unrecorded"
    };
    Ok(why)
}
