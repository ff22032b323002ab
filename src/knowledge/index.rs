//! `lexi index <dir> [-r]`: read a directory's `.aindex`, or every `.aindex` below it; and
//! `lexi describe <dir> "…"`: set a directory's billboard, creating its `.aindex` when it has none.

use std::collections::BTreeMap;
use std::io::ErrorKind;

use anyhow::{bail, Context as _};

use crate::library::aindex::{AIndex, ChildKind};
use crate::project::mirror::{aindex_path, AINDEX_FILE};
use crate::project::scope::Scope;
use crate::project::{walk, Project, CONFIG_FILE, LIBRARY_DIR};
use crate::relpath::RelPath;
use crate::workspace::child_map::child_entries;
use crate::workspace::library::{self, Part};
use crate::workspace::lock::LibraryLock;

/// One `.aindex` as read from disk.
#[derive(Clone, Debug)]
pub struct IndexFile {
    pub directory: String,
    pub path: String,
    pub text: String,
    pub index: AIndex,
}

impl IndexFile {
    /// The JSON `lexi index --format json` prints for one `.aindex` (docs/commands.md).
    pub fn to_json(&self) -> serde_json::Value {
        let other: Vec<_> = self
            .index
            .doc
            .sections
            .iter()
            .filter(|section| {
                !section
                    .heading
                    .eq_ignore_ascii_case(crate::library::aindex::CHILD_MAP)
                    && !section
                        .heading
                        .eq_ignore_ascii_case(crate::library::aindex::LOCAL_CONVENTIONS)
            })
            .collect();
        serde_json::json!({
            "directory": self.directory,
            "path": self.path,
            "billboard": self.index.billboard(),
            "children": self.index.children(),
            "local_conventions": self.index.local_conventions(),
            "other_sections": other,
        })
    }
}

/// The text `lexi index` prints for one or more `.aindex` files: each as written (but the tool's
/// billboard mark, which tells the update whose billboard it is and nothing to a reader),
/// blank-line separated; a file row whose description another design file shares says what tells
/// it apart and where the other is ([`twin_notes`]).
pub fn to_text(project: &Project, files: &[IndexFile]) -> String {
    let notes = twin_notes(project, files);
    let texts: Vec<String> = files
        .iter()
        .map(|file| {
            let text = without_empty_conventions(crate::library::aindex::without_mark(&file.text));
            with_notes(&text, &file.directory, &notes)
        })
        .collect();
    format!("{}\n", texts.join("\n\n"))
}

/// For each file listed in `files` whose description another design file of the project shares
/// (flask's `app.py` and `sansio/app.py`): `this one: class Flask(App); also src/flask/sansio/app.py`.
/// The project's descriptions come from the search corpus (its cache is current after one stat of
/// every design file); the primary declarations from the twins' design files.
fn twin_notes(project: &Project, files: &[IndexFile]) -> BTreeMap<String, String> {
    use crate::knowledge::corpus::{Corpus, DocKind, Kinds};
    use crate::knowledge::twins::{distinguish, is_telling, normalized};
    let listed: Vec<(String, String)> = files
        .iter()
        .flat_map(|file| {
            let children = file.index.children();
            let dir = file.directory.clone();
            children
                .into_iter()
                .filter(|child| child.kind == ChildKind::File)
                .map(move |child| {
                    (
                        RelPath::new(&dir).join(&child.name).into_string(),
                        child.description,
                    )
                })
        })
        .filter(|(source, description)| is_telling(source, description))
        .collect();
    if listed.is_empty() {
        return BTreeMap::new();
    }
    let kinds = Kinds {
        designs: true,
        knowledge: false,
        design_bodies: false,
        conventions: false,
    };
    let corpus = Corpus::load(project, kinds);
    let wanted: Vec<String> = listed.iter().map(|(_, d)| normalized(d)).collect();
    let twins: Vec<(String, String)> = corpus
        .of_kind(DocKind::Design)
        .filter(|doc| wanted.contains(&normalized(&doc.summary)))
        .map(|doc| (doc.name.clone(), doc.summary.clone()))
        .collect();
    let apart = distinguish(project, &twins);
    let mut notes = BTreeMap::new();
    for (source, description) in &listed {
        let others: Vec<&str> = twins
            .iter()
            .filter(|(other, d)| other != source && normalized(d) == normalized(description))
            .map(|(other, _)| other.as_str())
            .collect();
        if others.is_empty() {
            continue;
        }
        let shown = match others.len() {
            0..=3 => others.join(", "),
            n => format!("{}, … +{}", others[..3].join(", "), n - 3),
        };
        let mut note = apart.get(source).cloned().unwrap_or_default();
        if !note.is_empty() {
            note.push_str("; ");
        }
        note.push_str(&format!("also {shown}"));
        notes.insert(source.clone(), note);
    }
    notes
}

/// `text` (an `.aindex` of `dir`) with each Child Map file row that has a note ending `(note)`.
fn with_notes(text: &str, dir: &str, notes: &BTreeMap<String, String>) -> String {
    if notes.is_empty() {
        return text.to_string();
    }
    let mut out: Vec<String> = Vec::new();
    for line in text.lines() {
        let note = line
            .strip_prefix("| `")
            .and_then(|rest| rest.split_once('`'))
            .filter(|(_, rest)| rest.starts_with(" | file |"))
            .and_then(|(name, _)| notes.get(&RelPath::new(dir).join(name).into_string()));
        match (note, line.strip_suffix(" |")) {
            (Some(note), Some(row)) => out.push(format!("{row} ({note}) |")),
            _ => out.push(line.to_string()),
        }
    }
    let mut out = out.join("\n");
    if text.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// `text` (trimmed at its end) without an empty `## Local Conventions` heading: the `.aindex` keeps
/// it for agents to fill (`lexi convention add`), a reader has nothing to learn from it.
fn without_empty_conventions(text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let heading = format!("## {}", crate::library::aindex::LOCAL_CONVENTIONS);
    let mut kept: Vec<&str> = Vec::with_capacity(lines.len());
    let mut in_fence = false;
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if !in_fence && line.trim_end().eq_ignore_ascii_case(&heading) {
            let end = (i + 1..lines.len())
                .find(|&j| !lines[j].trim().is_empty())
                .unwrap_or(lines.len());
            if end == lines.len() || lines[end].starts_with("## ") {
                i = end;
                continue;
            }
        }
        kept.push(line);
        i += 1;
    }
    kept.join("\n").trim_end().to_string()
}

/// Read the `.aindex` of project-relative `dir`; `None` if it does not exist.
pub fn read(project: &Project, dir: &str) -> anyhow::Result<Option<IndexFile>> {
    let path = aindex_path(dir);
    let text = match project.read_to_string(&path) {
        Ok(text) => text,
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(None),
        Err(err) if crate::nofollow::is_refused(&err) => return Err(err.into()),
        Err(err) => return Err(err).with_context(|| format!("cannot read {path}")),
    };
    let index = AIndex::parse(&path, dir, &text)?;
    Ok(Some(IndexFile {
        directory: dir.to_string(),
        path,
        text,
        index,
    }))
}

/// Every `.aindex` at or below `dir`, parents before children, siblings alphabetical. An error
/// when a directory of the mirror cannot be listed.
pub fn read_recursive(project: &Project, dir: &str) -> anyhow::Result<Vec<IndexFile>> {
    let below = Part {
        under: dir,
        max_depth: None,
        mirror_only: true,
        named: None,
    };
    let listing = library::walk(&project.library_dir(), below);
    if let Some(error) = listing.errors.first() {
        bail!("{error}");
    }
    let dirs = listing
        .dirs
        .iter()
        .map(String::as_str)
        .filter(|dir| !dir.split('/').any(|name| name == AINDEX_FILE));
    let mut out = Vec::new();
    for current in std::iter::once(dir).chain(dirs) {
        if let Some(file) = read(project, current)? {
            out.push(file);
        }
    }
    Ok(out)
}

/// What [`describe`] did.
#[derive(Clone, Debug)]
pub struct Described {
    /// The `.aindex` written (project-relative).
    pub path: String,
    /// The directory had no `.aindex`: one was created, with a Child Map of its current entries.
    pub created: bool,
    /// The file's bytes changed.
    pub changed: bool,
    /// The billboard as written.
    pub billboard: String,
    /// Entries of a new Child Map that could not be read (described as unreadable).
    pub warnings: Vec<String>,
}

/// Set the billboard of project-relative `dir` to `billboard`, leaving its Child Map and Local
/// Conventions untouched; create the `.aindex` (under the library lock) if the directory has none.
pub fn describe(project: &Project, dir: &str, billboard: &str) -> anyhow::Result<Described> {
    let shown = if dir.is_empty() { "." } else { dir };
    let billboard = billboard.trim();
    if billboard.is_empty() {
        bail!("the description is empty; say in a sentence what {shown} is for");
    }
    if !project.abs(dir).is_dir() {
        bail!("{shown} is not a directory in the project");
    }
    if !dir.is_empty() && !is_listed(project, dir) {
        bail!("{shown} is ignored (by .gitignore, .lexignore or the config's ignore patterns), so it has no index");
    }
    if let Some(root) = group_root_above(project, dir) {
        let shown_root = if root.is_empty() { "." } else { root.as_str() };
        bail!(
            "{shown} is grouped test data below {shown_root}/, which has the only index of the group\n  hint: describe {shown_root} instead, or map {shown}/ `full` under `mapping:` in {LIBRARY_DIR}/{CONFIG_FILE} to index it"
        );
    }
    let _lock = LibraryLock::acquire(project)?;
    let mut warnings = Vec::new();
    let (index, created) = match read(project, dir)? {
        Some(mut existing) => {
            existing.index.set_billboard(billboard);
            (existing.index, false)
        }
        None => {
            let (children, unreadable) = child_entries(project, dir);
            warnings = unreadable;
            (AIndex::new(dir, billboard, &children), true)
        }
    };
    let path = aindex_path(dir);
    let changed = project
        .write_if_changed(&path, index.render().as_bytes())
        .with_context(|| format!("cannot write {path}"))?;
    Ok(Described {
        path,
        created,
        changed,
        billboard: index.billboard().to_string(),
        warnings,
    })
}

/// The group root `dir` is grouped below, if it is: then `dir` has no `.aindex` (the group root's
/// `_group.md` names it; `project::scope`).
pub fn group_root_above(project: &Project, dir: &str) -> Option<String> {
    let scope =
        Scope::from_config(&project.config, &project.library_dir().join(CONFIG_FILE)).ok()?;
    if !scope.below_group_root(dir) {
        return None;
    }
    scope.group_root_of(dir)
}

/// Whether `dir` survives the ignore layers (its parent's listing has it).
fn is_listed(project: &Project, dir: &str) -> bool {
    walk::list_dir(&project.root, &project.config, RelPath::new(dir).dir())
        .entries
        .iter()
        .any(|entry| entry.rel == dir)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_empty_local_conventions_heading_is_not_printed() {
        let empty = "# src/\n\nSources.\n\n## Child Map\n\n| a |\n\n## Local Conventions\n\n";
        assert_eq!(
            without_empty_conventions(empty),
            "# src/\n\nSources.\n\n## Child Map\n\n| a |"
        );
        let before_another = "# a/\n\n## Local Conventions\n\n## Notes\n\nKept.\n";
        assert_eq!(
            without_empty_conventions(before_another),
            "# a/\n\n## Notes\n\nKept."
        );
        let filled = "# a/\n\n## Local Conventions\n\n- Use UTC.\n";
        assert_eq!(without_empty_conventions(filled), filled.trim_end());
    }
}
