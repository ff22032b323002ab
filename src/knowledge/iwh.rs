//! I Was Here: leaving (`write`), consuming (`read`) and listing (`list`) the ephemeral per-directory
//! notes agents pass to each other (seed §1). Notes live at `.lexibrary/<dir>/.iwh` and are gitignored.
//!
//! A note that does not parse is never deleted by `read`: it is shown raw with the parse error, and the
//! caller decides. Writing refuses to replace a waiting note unless asked to, so no signal is lost.

use std::io::ErrorKind;

use anyhow::{bail, Context as _};

use crate::library::footer::now_rfc3339;
use crate::library::iwh::{Iwh, IwhMeta, IwhScope};
use crate::project::mirror::{iwh_path, IWH_FILE};
use crate::project::{Project, CACHE_DIR, LIBRARY_DIR};
use crate::relpath::RelPath;
use crate::workspace::library::{walk, Part};

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

impl Found {
    /// One line of `lexi iwh list`: directory, scope, author, time and the first line of the note.
    pub fn list_line(&self) -> String {
        match &self.note {
            Some(note) => format!(
                "{}  [{}] by {} at {}: {}\n",
                shown_dir(&self.directory),
                note.meta.scope.as_str(),
                note.meta.author,
                note.meta.created,
                note.body.lines().next().unwrap_or("")
            ),
            None => format!(
                "{}  [unreadable] {}\n",
                shown_dir(&self.directory),
                self.error.as_deref().unwrap_or("")
            ),
        }
    }

    /// The note as `lexi iwh read` prints it: a header line, then the body (raw when it does not parse).
    pub fn to_text(&self) -> String {
        match (&self.note, &self.raw) {
            (Some(note), _) => format!(
                "I Was Here — {} [{}] by {} at {}\n\n{}\n",
                shown_dir(&self.directory),
                note.meta.scope.as_str(),
                note.meta.author,
                note.meta.created,
                note.body
            ),
            (None, Some(raw)) => format!(
                "I Was Here — {} (unreadable: {})\n\n{raw}\n",
                shown_dir(&self.directory),
                self.error.as_deref().unwrap_or("")
            ),
            (None, None) => String::new(),
        }
    }
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
    project
        .write(&rel, note.render().as_bytes())
        .with_context(|| format!("cannot write {rel}"))?;
    Ok(rel)
}

/// The note waiting in `dir`, if any. Unless `peek`, the note is first *claimed* — renamed to a name
/// only this process knows — so two agents reading at once never both get it, and a note written
/// meanwhile is not deleted unread. The caller prints it and then calls [`Claimed::consume`]; if
/// printing fails, [`Claimed::restore`] puts it back. A note that does not parse is never claimed.
pub fn read(project: &Project, dir: &str, peek: bool) -> anyhow::Result<Option<(Found, Claimed)>> {
    ensure_directory(project, dir)?;
    let Some(found) = read_found(project, dir)? else {
        return Ok(None);
    };
    if peek || found.note.is_none() {
        return Ok(Some((
            found,
            Claimed {
                path: None,
                original: None,
            },
        )));
    }
    let original = project.abs(&found.path);
    // Claimed notes wait in the gitignored cache, never next to the library's tracked files.
    let cache = project.library_dir().join(CACHE_DIR);
    std::fs::create_dir_all(&cache)
        .with_context(|| format!("cannot create {}", cache.display()))?;
    let claimed_name = format!("iwh-reading-{}", std::process::id());
    let claimed = cache.join(&claimed_name);
    match std::fs::rename(&original, &claimed) {
        Ok(()) => {}
        // Another agent claimed it first: it is theirs.
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err).with_context(|| format!("cannot claim {}", found.path)),
    }
    // Re-read the claimed file: what we print is exactly what we took.
    let text = crate::nofollow::read(&cache, &claimed_name)
        .with_context(|| format!("cannot read {}", found.path))?;
    let found = parsed(dir, found.path, String::from_utf8_lossy(&text).into_owned());
    Ok(Some((
        found,
        Claimed {
            path: Some(claimed),
            original: Some(original),
        },
    )))
}

/// A note taken out of its directory by [`read`], until it is consumed or restored.
#[derive(Debug)]
pub struct Claimed {
    path: Option<std::path::PathBuf>,
    original: Option<std::path::PathBuf>,
}

impl Claimed {
    /// Whether the note was taken (read without `--peek`).
    pub fn taken(&self) -> bool {
        self.path.is_some()
    }

    /// The note was delivered: delete it.
    pub fn consume(self) -> anyhow::Result<()> {
        if let Some(path) = &self.path {
            std::fs::remove_file(path)
                .with_context(|| format!("cannot delete {}", path.display()))?;
        }
        Ok(())
    }

    /// The note could not be delivered: put it back, unless a new note was written meanwhile (then
    /// the old one stays in `.lexibrary/.cache/` as `iwh-unread-<pid>` and a warning says so).
    pub fn restore(self) {
        if let (Some(path), Some(original)) = (&self.path, &self.original) {
            if original.exists() {
                let kept = path.with_file_name(format!("iwh-unread-{}", std::process::id()));
                let _ = std::fs::rename(path, &kept);
                eprintln!(
                    "warning: a new note arrived meanwhile; the unread one is kept at {}",
                    kept.display()
                );
            } else {
                let _ = std::fs::rename(path, original);
            }
        }
    }
}

fn read_found(project: &Project, dir: &str) -> anyhow::Result<Option<Found>> {
    let rel = iwh_path(dir);
    let text = match project.read(&rel) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(None),
        Err(err) if crate::nofollow::is_refused(&err) => return Err(err.into()),
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
    let listing = walk(&project.library_dir(), Part::ALL);
    let mut found: Vec<Found> = listing
        .files
        .iter()
        .filter(|entry| entry.name() == IWH_FILE)
        .filter_map(|entry| {
            let dir = entry.dir();
            let rel = iwh_path(dir);
            let bytes = project.read(&rel).ok()?;
            Some(parsed(
                dir,
                rel,
                String::from_utf8_lossy(&bytes).into_owned(),
            ))
        })
        .collect();
    found.sort_by(|a, b| a.directory.cmp(&b.directory));
    Ok(found)
}

/// The directory must exist in the project (notes are about directories, not files).
fn ensure_directory(project: &Project, dir: &str) -> anyhow::Result<()> {
    let path = project.abs(dir);
    match std::fs::metadata(&path) {
        Ok(meta) if meta.is_dir() => Ok(()),
        Ok(_) => bail!(
            "{dir} is a file; I Was Here notes belong to directories (try `{}`)",
            RelPath::new(dir).dir().to_string() + "/"
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
