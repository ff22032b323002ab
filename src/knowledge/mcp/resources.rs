//! The server's resources: `lexibrary://START_HERE.md` (the file every session starts with) and
//! one `lexibrary://concepts/<Name>` per concept, as markdown. Listing reads the small concept
//! corpus (its cache), never the design files.

use rmcp::model::{Resource, ResourceContents, ResourceTemplate};

use crate::knowledge::corpus::{Corpus, DocKind, Kinds};
use crate::library::concept::CONCEPTS_DIR;
use crate::project::{Project, LIBRARY_DIR};

/// The URI of START_HERE.md.
pub const START_HERE_URI: &str = "lexibrary://START_HERE.md";
/// The prefix of a concept's URI; the concept's name (its file stem) follows.
pub const CONCEPT_URI_PREFIX: &str = "lexibrary://concepts/";
const MARKDOWN: &str = "text/markdown";

/// START_HERE.md and every concept.
pub fn list(project: &Project) -> Vec<Resource> {
    let mut resources = vec![Resource::new(START_HERE_URI, "START_HERE.md")
        .with_title("Start here: the map of this codebase")
        .with_description(
            "Read first in a session: what this codebase is, its topology, where to start for a \
             task, the convention index and how to use the library.",
        )
        .with_mime_type(MARKDOWN)];
    let corpus = Corpus::load(project, Kinds::KNOWLEDGE);
    for concept in corpus.of_kind(DocKind::Concept) {
        let mut resource = Resource::new(
            format!("{CONCEPT_URI_PREFIX}{}", concept.name),
            concept.name.clone(),
        )
        .with_mime_type(MARKDOWN);
        if !concept.title.is_empty() {
            resource = resource.with_title(concept.title.clone());
        }
        if !concept.summary.is_empty() {
            resource = resource.with_description(concept.summary.clone());
        }
        resources.push(resource);
    }
    resources
}

/// The template of concept URIs.
pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(format!("{CONCEPT_URI_PREFIX}{{name}}"), "concept")
            .with_title("A concept by name")
            .with_description(
                "A concept of this project (a cross-cutting rule or idea) by its name, as listed \
                 by the `concepts` tool.",
            )
            .with_mime_type(MARKDOWN),
    ]
}

/// Read the resource at `uri`; an error names what exists.
pub fn read(project: &Project, uri: &str) -> anyhow::Result<ResourceContents> {
    let rel = if uri == START_HERE_URI {
        format!("{LIBRARY_DIR}/START_HERE.md")
    } else if let Some(name) = uri.strip_prefix(CONCEPT_URI_PREFIX) {
        if name.is_empty() || name.contains(['/', '\\']) || name.starts_with('.') {
            anyhow::bail!("{uri}: not a concept name; the `concepts` tool lists them");
        }
        format!("{LIBRARY_DIR}/{CONCEPTS_DIR}/{name}.md")
    } else {
        anyhow::bail!(
            "no resource {uri}; this server has {START_HERE_URI} and {CONCEPT_URI_PREFIX}<Name> for each concept"
        );
    };
    let text = match std::fs::read_to_string(project.abs(&rel)) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            anyhow::bail!("{uri}: {rel} does not exist")
        }
        Err(err) => anyhow::bail!("{uri}: cannot read {rel}: {err}"),
    };
    Ok(ResourceContents::text(text, uri).with_mime_type(MARKDOWN))
}
