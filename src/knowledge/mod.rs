//! Read-side queries over the library, and the agent-side writes (concepts, the Stack, I Was Here
//! notes): what `lexi` answers and records. Each operation returns plain data; the CLI decides how to
//! print it.

pub mod concepts;
pub mod context;
pub mod corpus;
pub mod index;
pub mod iwh;
pub mod lookup;
pub mod review;
pub mod search;
pub mod secrets;
pub mod stack;
pub mod status;
pub mod validate;
pub mod why;

use crate::git::GitRepo;
use crate::project::Project;

/// Who is writing: `--author`, else `LEXI_AUTHOR`, else the git identity's name, else `unknown`.
pub fn author(explicit: Option<&str>, project: &Project) -> String {
    if let Some(author) = explicit.map(str::trim).filter(|a| !a.is_empty()) {
        return author.to_string();
    }
    if let Ok(author) = std::env::var("LEXI_AUTHOR") {
        if !author.trim().is_empty() {
            return author.trim().to_string();
        }
    }
    GitRepo::discover(&project.root)
        .ok()
        .flatten()
        .and_then(|git| git.identity())
        .map_or_else(|| "unknown".to_string(), |identity| identity.name)
}

/// Every file under `.lexibrary/` as `(directory, file name)`, both relative to `.lexibrary/`
/// (`""` for the top), skipping the derived `.cache/`. Symlinks are not followed. The one walker for
/// checks that read the library as files (`.iwh` notes, `.aindex` Child Maps, the secret scan).
pub fn library_files(project: &Project) -> Vec<(String, String)> {
    fn walk(library: &std::path::Path, dir: &str, out: &mut Vec<(String, String)>) {
        let full = if dir.is_empty() {
            library.to_path_buf()
        } else {
            library.join(dir)
        };
        let Ok(entries) = std::fs::read_dir(full) else {
            return;
        };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_file() {
                out.push((dir.to_string(), name.to_string()));
            } else if kind.is_dir() && !(dir.is_empty() && name == crate::project::CACHE_DIR) {
                let child = if dir.is_empty() {
                    name.to_string()
                } else {
                    format!("{dir}/{name}")
                };
                walk(library, &child, out);
            }
        }
    }
    let mut files = Vec::new();
    walk(&project.library_dir(), "", &mut files);
    files
}
