//! Generating `.aindex` files: the Child Map of a directory from what the walk found, with each file's
//! design-file description (or a structural fallback) and each subdirectory's billboard. An existing
//! index keeps its Local Conventions and every other section byte for byte, and a billboard someone
//! wrote; the Child Map and a billboard the tool wrote (`library::aindex`: its mark still holds)
//! are written anew from the tree, so every run writes the same index for the same tree.

use crate::library::aindex::{AIndex, ChildEntry};
use crate::project::mirror::aindex_path;
use crate::project::Project;

/// The result of indexing one directory.
pub struct IndexOutcome {
    pub path: String,
    /// The new text, when it differs from what is on disk.
    pub text: Option<String>,
    pub billboard: String,
    /// The existing index does not parse: left as it is.
    pub warning: Option<String>,
    /// The existing index could not be read (permissions, a symlink): left as it is, and the run
    /// fails.
    pub error: Option<String>,
}

/// Compute the `.aindex` of `dir` with the given children. `billboard` supplies the tool's billboard,
/// written unless someone wrote their own — or unless the directory is not `whole` (git keeps some
/// of it out of a sparse checkout: what the billboard is made of may be out of reach, and the one
/// on disk stays).
pub fn index_directory(
    project: &Project,
    dir: &str,
    entries: Vec<ChildEntry>,
    whole: bool,
    billboard: impl FnOnce() -> String,
) -> IndexOutcome {
    let path = aindex_path(dir);
    let existing = match project.read_library_text(&path) {
        Ok(text) => Some(text),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => {
            return IndexOutcome {
                error: Some(format!(
                    "cannot read {path}: {}; left as it is",
                    crate::nofollow::reason(&path, &err)
                )),
                path,
                text: None,
                billboard: String::new(),
                warning: None,
            }
        }
    };
    let index = match &existing {
        Some(text) => match AIndex::parse(&path, dir, text) {
            Ok(mut index) => {
                index.set_children(&entries);
                if whole && index.billboard_is_generated() {
                    index.set_generated_billboard(&billboard());
                }
                index
            }
            Err(err) => {
                return IndexOutcome {
                    path,
                    text: None,
                    billboard: String::new(),
                    warning: Some(format!("{err}; left as it is")),
                    error: None,
                }
            }
        },
        None => AIndex::generated(dir, &billboard(), &entries),
    };
    // Whatever it holds (a billboard, a description, a convention someone wrote), nothing
    // credential-shaped is written.
    let rendered = crate::secrets::redact(&index.render()).into_owned();
    IndexOutcome {
        billboard: index.billboard().to_string(),
        text: (existing.as_deref() != Some(rendered.as_str())).then_some(rendered),
        path,
        warning: None,
        error: None,
    }
}

/// The tool's billboard for a directory: the description of its module file (`mod.rs`, `lib.rs`,
/// `__init__.py`, `index.ts`, …) when it has one, else a count of what it holds.
pub fn structural_billboard(module_description: Option<&str>, files: usize, dirs: usize) -> String {
    if let Some(description) = module_description.filter(|d| !d.trim().is_empty()) {
        return description.trim().to_string();
    }
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match (files, dirs) {
        (0, 0) => "Empty directory.".to_string(),
        (f, 0) => format!("{}.", plural(f, "file", "files")),
        (0, d) => format!("{}.", plural(d, "subdirectory", "subdirectories")),
        (f, d) => format!(
            "{} and {}.",
            plural(f, "file", "files"),
            plural(d, "subdirectory", "subdirectories")
        ),
    }
}
