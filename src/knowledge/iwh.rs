//! I Was Here: leaving (`write`), consuming (`read`) and listing (`list`) the ephemeral per-directory
//! notes agents pass to each other (seed §1). Notes live at `.lexibrary/<dir>/.iwh` and are gitignored.
//!
//! A note that does not parse is never deleted by `read`: it is shown raw with the parse error, and the
//! caller decides. Writing refuses to replace a waiting note unless asked to, so no signal is lost.

use std::io::ErrorKind;
use std::path::Path;

use anyhow::{bail, Context as _};

use crate::library::atomic;
use crate::library::footer::now_rfc3339;
use crate::library::iwh::{Iwh, IwhMeta, IwhScope};
use crate::project::mirror::{iwh_path, IWH_FILE};
use crate::project::{Project, CACHE_DIR, LIBRARY_DIR};

/// A note found in the library.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Found {
    /// Project-relative directory the note is about (`""` for the project root).
    pub directory: String,
    /// Project-relative path of the `.iwh` file.
    pub path: String,
    /// The parsed note, when it parses.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<Iwh>,
    /// The file as written, when it does not parse.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub raw: Option<String>,
    /// Why it does not parse (`path:line: message`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// Fail when `iwh.enabled` is false.
pub fn ensure_enabled(project: &Project) -> anyhow::Result<()> {
    if !project.config.iwh.enabled {
        bail!("I Was Here notes are disabled in this project (iwh.enabled: false in {LIBRARY_DIR}/config.yaml)");
    }
    Ok(())
}

/// Leave a note in `dir`. Refuses to replace a waiting note unless `replace`.
pub fn write(
    project: &Project,
    dir: &str,
    scope: IwhScope,
    body: &str,
    author: &str,
    replace: bool,
) -> anyhow::Result<String> {
    ensure_enabled(project)?;
    ensure_directory(project, dir)?;
    if body.trim().is_empty() {
        bail!("an I Was Here note needs a body: pass --body or pipe it on stdin");
    }
    let rel = iwh_path(dir);
    let path = project.abs(&rel);
    if !replace {
        if let Some(existing) = read_found(project, dir)? {
            let who = existing
                .note
                .as_ref()
                .map(|note| format!(" (by {}, {})", note.meta.author, note.meta.scope.as_str()))
                .unwrap_or_default();
            bail!(
                "a note already waits in {}{who}; read it first with `lexi iwh read {}`, or pass --replace",
                shown_dir(dir),
                shown_dir(dir)
            );
        }
    }
    let note = Iwh {
        meta: IwhMeta {
            author: author.to_string(),
            created: now_rfc3339(),
            scope,
        },
        body: body.trim().to_string(),
    };
    atomic::write(&path, note.render().as_bytes())
        .with_context(|| format!("cannot write {rel}"))?;
    Ok(rel)
}

/// The note waiting in `dir`, if any; deleted afterwards unless `peek` or it does not parse.
pub fn read(project: &Project, dir: &str, peek: bool) -> anyhow::Result<Option<Found>> {
    ensure_directory(project, dir)?;
    let found = read_found(project, dir)?;
    if let Some(found) = &found {
        if !peek && found.note.is_some() {
            match std::fs::remove_file(project.abs(&found.path)) {
                Ok(()) => {}
                // Another agent consumed it at the same moment: it was read, which is what counts.
                Err(err) if err.kind() == ErrorKind::NotFound => {}
                Err(err) => {
                    return Err(err).with_context(|| format!("cannot delete {}", found.path))
                }
            }
        }
    }
    Ok(found)
}

fn read_found(project: &Project, dir: &str) -> anyhow::Result<Option<Found>> {
    let rel = iwh_path(dir);
    let text = match std::fs::read(project.abs(&rel)) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err).with_context(|| format!("cannot read {rel}")),
    };
    Ok(Some(parsed(dir, rel, text)))
}

fn parsed(dir: &str, rel: String, text: String) -> Found {
    match Iwh::parse(&rel, &text) {
        Ok(note) => Found {
            directory: dir.to_string(),
            path: rel,
            note: Some(note),
            raw: None,
            error: None,
        },
        Err(err) => Found {
            directory: dir.to_string(),
            path: rel,
            note: None,
            raw: Some(text),
            error: Some(err.to_string()),
        },
    }
}

/// Every note in the library, by directory.
pub fn list(project: &Project) -> anyhow::Result<Vec<Found>> {
    let library = project.library_dir();
    let mut found = Vec::new();
    collect(&library, "", &mut found);
    found.sort_by(|a, b| a.directory.cmp(&b.directory));
    Ok(found)
}

fn collect(library: &Path, dir: &str, found: &mut Vec<Found>) {
    let full = if dir.is_empty() {
        library.to_path_buf()
    } else {
        library.join(dir)
    };
    let Ok(entries) = std::fs::read_dir(&full) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        if file_type.is_file() && name == IWH_FILE {
            let rel = iwh_path(dir);
            if let Ok(bytes) = std::fs::read(entry.path()) {
                found.push(parsed(
                    dir,
                    rel,
                    String::from_utf8_lossy(&bytes).into_owned(),
                ));
            }
        } else if file_type.is_dir() && !(dir.is_empty() && name == CACHE_DIR) {
            let child = if dir.is_empty() {
                name.to_string()
            } else {
                format!("{dir}/{name}")
            };
            collect(library, &child, found);
        }
    }
}

/// The directory must exist in the project (notes are about directories, not files).
fn ensure_directory(project: &Project, dir: &str) -> anyhow::Result<()> {
    let path = project.abs(dir);
    match std::fs::metadata(&path) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => bail!(
            "{dir} is a file; I Was Here notes belong to directories (try `{}`)",
            crate::project::paths::parent_rel(dir).to_string() + "/"
        ),
        Err(_) => bail!("{} is not a directory in this project", shown_dir(dir)),
    }
}

fn shown_dir(dir: &str) -> String {
    if dir.is_empty() {
        ".".to_string()
    } else {
        dir.to_string()
    }
}
