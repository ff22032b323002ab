//! `lexi index <dir> [-r]`: read a directory's `.aindex`, or every `.aindex` below it.

use std::io::ErrorKind;

use anyhow::Context as _;

use crate::library::aindex::AIndex;
use crate::project::mirror::{aindex_path, AINDEX_FILE};
use crate::project::Project;

/// One `.aindex` as read from disk.
#[derive(Clone, Debug)]
pub struct IndexFile {
    pub directory: String,
    pub path: String,
    pub text: String,
    pub index: AIndex,
}

/// Read the `.aindex` of project-relative `dir`; `None` if it does not exist.
pub fn read(project: &Project, dir: &str) -> anyhow::Result<Option<IndexFile>> {
    let path = aindex_path(dir);
    let text = match std::fs::read_to_string(project.abs(&path)) {
        Ok(text) => text,
        Err(err) if err.kind() == ErrorKind::NotFound => return Ok(None),
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

/// Every `.aindex` at or below `dir`, parents before children, siblings alphabetical.
pub fn read_recursive(project: &Project, dir: &str) -> anyhow::Result<Vec<IndexFile>> {
    let mut out = Vec::new();
    let mut pending = vec![dir.to_string()];
    while let Some(current) = pending.pop() {
        if let Some(file) = read(project, &current)? {
            out.push(file);
        }
        let mirror_dir = project
            .library_dir()
            .join(current.replace('/', std::path::MAIN_SEPARATOR_STR));
        let mut children = Vec::new();
        match std::fs::read_dir(&mirror_dir) {
            Ok(entries) => {
                for entry in entries.flatten() {
                    let is_dir = entry.file_type().is_ok_and(|kind| kind.is_dir());
                    let Some(name) = entry.file_name().to_str().map(str::to_string) else {
                        continue;
                    };
                    if !is_dir || name == AINDEX_FILE || (current.is_empty() && is_reserved(&name))
                    {
                        continue;
                    }
                    children.push(if current.is_empty() {
                        name
                    } else {
                        format!("{current}/{name}")
                    });
                }
            }
            Err(err) if err.kind() == ErrorKind::NotFound => {}
            Err(err) => {
                return Err(err).with_context(|| format!("cannot list {}", mirror_dir.display()))
            }
        }
        children.sort();
        // Reverse so that popping visits them alphabetically (depth first).
        pending.extend(children.into_iter().rev());
    }
    Ok(out)
}

fn is_reserved(name: &str) -> bool {
    crate::project::mirror::RESERVED_TOP_LEVEL.contains(&name)
}
