//! The rows of a directory's Child Map: every file and subdirectory that survives the ignore layers,
//! described by the design file's frontmatter `description` when there is one (seed D-022), else by a
//! structural fallback such as "Rust source (160 lines)"; a subdirectory by the first line of its own
//! billboard.
//!
//! Here, below both, because the update engine writes Child Maps and `lexi describe` (knowledge)
//! creates an `.aindex` with one.

use std::io::ErrorKind;

use crate::library::aindex::{AIndex, ChildEntry, ChildKind};
use crate::library::design_file::DesignFile;
use crate::project::mirror::{aindex_path, design_path};
use crate::project::walk::{self, EntryKind, FileClass};
use crate::project::Project;
use crate::relpath::RelPath;

/// The one producer of Child Map rows: one per child of `dir` as `listed` (name, kind) gives them,
/// a file described by `describe_file(rel)`, a subdirectory by the first line of `billboard_of(rel)`.
pub fn rows<'a>(
    dir: &str,
    listed: impl IntoIterator<Item = (&'a str, EntryKind)>,
    mut describe_file: impl FnMut(&str) -> String,
    mut billboard_of: impl FnMut(&str) -> String,
) -> Vec<ChildEntry> {
    listed
        .into_iter()
        .map(|(name, kind)| {
            let rel = RelPath::new(dir).join(name).into_string();
            let (kind, description) = match kind {
                EntryKind::File => (ChildKind::File, row_description(name, &describe_file(&rel))),
                EntryKind::Dir => (ChildKind::Dir, billboard_summary(&billboard_of(&rel))),
            };
            ChildEntry {
                name: name.to_string(),
                kind,
                description,
            }
        })
        .collect()
}

/// A file's description as its row shows it, beside its name: without the name a description of
/// nothing but the file's kind carries to tell two files apart ("EJS template `show.ejs`." →
/// "EJS template.", "GitHub Actions workflow `ci.yml` (on push)." → "GitHub Actions workflow (on
/// push)."). Only the name right after a word and before the sentence goes on (`.`, ` (`, ` with `).
pub fn row_description(name: &str, description: &str) -> String {
    let quoted = format!(" `{name}`");
    let mut start = 0;
    while let Some(found) = description[start..].find(&quoted) {
        let at = start + found;
        let after = &description[at + quoted.len()..];
        if after == "." || after.starts_with(" (") || after.starts_with(" with ") {
            return format!("{}{after}", &description[..at]);
        }
        start = at + quoted.len();
    }
    description.to_string()
}

/// The Child Map rows for project-relative `dir` as it is on disk (the listing through the ignore
/// layers, each file's design-file description), plus warnings about entries that could not be read.
pub fn child_entries(project: &Project, dir: &str) -> (Vec<ChildEntry>, Vec<String>) {
    let listing = walk::list_dir(&project.root, &project.config, dir);
    let mut warnings = listing.warnings;
    let sizes: std::collections::HashMap<&str, u64> = listing
        .entries
        .iter()
        .map(|entry| (entry.rel.as_str(), entry.size))
        .collect();
    let listed = listing.entries.iter().map(|entry| {
        let name = RelPath::new(&entry.rel).file_name();
        (name, entry.kind)
    });
    let describe_file = |rel: &str| {
        let size = sizes.get(rel).copied().unwrap_or(0);
        file_description(project, rel, size).unwrap_or_else(|message| {
            warnings.push(message);
            "Unreadable file".to_string()
        })
    };
    let rows = rows(dir, listed, describe_file, |rel| {
        existing_billboard(project, rel)
    });
    (rows, warnings)
}

/// The billboard of `dir`'s `.aindex` on disk, or `Directory` when it has none (or it cannot be read).
pub fn existing_billboard(project: &Project, dir: &str) -> String {
    let rel = aindex_path(dir);
    project
        .read_to_string(&rel)
        .ok()
        .and_then(|text| AIndex::parse(&rel, dir, &text).ok())
        .map(|index| index.billboard().to_string())
        .unwrap_or_else(|| "Directory".to_string())
}

/// The first line of a billboard, as a parent's Child Map description of the directory.
pub fn billboard_summary(billboard: &str) -> String {
    billboard
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty())
        .unwrap_or("Directory")
        .to_string()
}

/// A file's row description: its design file's description, else the structural fallback.
fn file_description(project: &Project, rel: &str, size: u64) -> Result<String, String> {
    let design_rel = design_path(rel);
    match project.read_to_string(&design_rel) {
        Ok(text) => {
            if let Ok(design) = DesignFile::parse(&design_rel, &text) {
                let description = design.frontmatter.description.trim();
                if !description.is_empty() {
                    return Ok(description.to_string());
                }
            }
        }
        Err(err) if err.kind() == ErrorKind::NotFound => {}
        Err(err) => return Err(format!("cannot read {design_rel}: {err}")),
    }
    structural_description(project, rel, size)
}

/// The Child Map description of a file that holds secret material: it says so, and nothing else.
pub const SECRET_DESCRIPTION: &str =
    "Secret: holds a private key or credential (never documented or sent to a model)";

/// "Markdown document: Routing.", "YAML file.", "Binary file (12 KB)", … from the file itself
/// (never a line count: a row would change with every edit of the body).
pub fn structural_description(project: &Project, rel: &str, size: u64) -> Result<String, String> {
    let class =
        walk::classify(project, rel, size).map_err(|err| format!("cannot read {rel}: {err}"))?;
    let kind = crate::source::kind_name(rel);
    Ok(match class {
        FileClass::Binary => format!("Binary file ({})", human_size(size)),
        FileClass::TooLarge => format!("{kind} ({}, too large to document)", human_size(size)),
        FileClass::Secret => SECRET_DESCRIPTION.to_string(),
        FileClass::Minified => format!("Minified {}.", kind.to_lowercase()),
        FileClass::Text => {
            let bytes = project
                .read(rel)
                .map_err(|err| format!("cannot read {rel}: {err}"))?;
            crate::archivist::describe::content_description(rel, &String::from_utf8_lossy(&bytes))
        }
    })
}

fn human_size(size: u64) -> String {
    if size < 1024 {
        format!("{size} B")
    } else if size < 1024 * 1024 {
        format!("{} KB", size.div_ceil(1024))
    } else {
        format!("{:.1} MB", size as f64 / (1024.0 * 1024.0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The row shows the name: a description naming the file for want of anything else drops it.
    #[test]
    fn a_row_drops_the_name_it_shows_already() {
        let cases = [
            ("show.ejs", "EJS template `show.ejs`.", "EJS template."),
            (
                "ci.yml",
                "GitHub Actions workflow `ci.yml` (on push).",
                "GitHub Actions workflow (on push).",
            ),
            (
                "cfg.rs",
                "Test support: Rust source `cfg.rs` with no public items.",
                "Test support: Rust source with no public items.",
            ),
            (
                "tsconfig.json",
                "Generated file, not edited by hand: JSON file `tsconfig.json`.",
                "Generated file, not edited by hand: JSON file.",
            ),
            // A name that says something stays.
            (
                "__init__.py",
                "Marks `pkg` as a Python package (empty `__init__.py`).",
                "Marks `pkg` as a Python package (empty `__init__.py`).",
            ),
            (
                "a.rs",
                "Defines the `a.rs` parser.",
                "Defines the `a.rs` parser.",
            ),
            ("b.yml", "YAML file `a.yml`.", "YAML file `a.yml`."),
        ];
        for (name, description, row) in cases {
            assert_eq!(row_description(name, description), row, "{description}");
        }
    }
}
