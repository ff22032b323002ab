//! Turning the paths a user types into project-relative paths, and back.
//!
//! A path argument is resolved against the current directory (so `lexi lookup a.rs` works from `src/`),
//! normalised lexically, and must land inside the project root. Paths into `.git/` are refused, and
//! paths into `.lexibrary/` are reported as library files rather than sources.

use std::path::{Component, Path, PathBuf};

/// Why a user-supplied path cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum PathError {
    #[error("{given} is outside the project root {root}")]
    OutsideProject { given: String, root: String },
    #[error("{given} is inside .git/, which Lexibrarian never reads or documents")]
    InsideGit { given: String },
    #[error("{given} is a library file under .lexibrary/, not a source file")]
    InsideLibrary { given: String },
    #[error("{given} is not valid UTF-8; Lexibrarian records paths as UTF-8 text")]
    NotUtf8 { given: String },
}

/// Resolve `arg` (relative to `cwd`, or absolute) to a project-relative `/`-separated path.
/// The project root itself resolves to `""`.
pub fn resolve(root: &Path, cwd: &Path, arg: &Path) -> Result<String, PathError> {
    let given = arg.display().to_string();
    let joined = if arg.is_absolute() {
        arg.to_path_buf()
    } else {
        cwd.join(arg)
    };
    let normal = normalize(&joined);
    let relative = match normal.strip_prefix(normalize(root)) {
        Ok(rel) => rel.to_path_buf(),
        Err(_) => {
            // The user may have come through a symlink (e.g. /tmp → /private/tmp); compare real paths.
            let real_root = root.canonicalize().unwrap_or_else(|_| root.to_path_buf());
            let real = canonicalize_existing_prefix(&normal);
            real.strip_prefix(&real_root)
                .map(Path::to_path_buf)
                .map_err(|_| PathError::OutsideProject {
                    given: given.clone(),
                    root: root.display().to_string(),
                })?
        }
    };
    let rel = to_rel_string(&relative).ok_or_else(|| PathError::NotUtf8 {
        given: given.clone(),
    })?;
    let first = rel.split('/').next().unwrap_or("");
    if first == ".git" {
        return Err(PathError::InsideGit { given });
    }
    if first == super::LIBRARY_DIR {
        return Err(PathError::InsideLibrary { given });
    }
    Ok(rel)
}

/// Lexical normalisation: drops `.`, applies `..` without touching the file system.
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// Canonicalise the longest existing prefix of `path` and append the rest lexically.
fn canonicalize_existing_prefix(path: &Path) -> PathBuf {
    let mut existing = path.to_path_buf();
    let mut rest = Vec::new();
    loop {
        if let Ok(real) = existing.canonicalize() {
            let mut out = real;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (
            existing.file_name().map(|name| name.to_os_string()),
            existing.parent(),
        ) {
            (Some(name), Some(parent)) => {
                rest.push(name);
                existing = parent.to_path_buf();
            }
            _ => return path.to_path_buf(),
        }
    }
}

/// A relative path as a `/`-separated string; `None` if it is not UTF-8 or escapes upward.
pub fn to_rel_string(rel: &Path) -> Option<String> {
    let mut parts = Vec::new();
    for component in rel.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str()?),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(parts.join("/"))
}

/// Whether `rel` — a path read from a library file (a design file's Dependencies, a Stack post's
/// `refs.files`), which anyone who can open a pull request can write — names a place inside the
/// project: relative, `/`-separated, no `..` or `.` component, no empty component, no NUL, not into
/// `.git/`. Decided from the text alone: a path that fails is never looked up.
pub fn is_project_path(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.starts_with('/')
        && !rel.contains('\0')
        && !rel.contains('\\')
        && rel
            .split('/')
            .all(|part| !part.is_empty() && part != "." && part != "..")
        && rel.split('/').next() != Some(".git")
}

/// Join a `/`-separated project-relative path onto `root`.
pub fn join_rel(root: &Path, rel: &str) -> PathBuf {
    let mut out = root.to_path_buf();
    for part in rel.split('/').filter(|part| !part.is_empty()) {
        out.push(part);
    }
    out
}

/// Every ancestor directory of a project-relative path, from the root (`""`) down to its parent.
pub fn ancestors_rel(rel: &str) -> Vec<&str> {
    let mut out = vec![""];
    let mut end = 0;
    while let Some(offset) = rel[end..].find('/') {
        end += offset;
        out.push(&rel[..end]);
        end += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_paths_resolve_from_the_current_directory() {
        let root = Path::new("/p");
        assert_eq!(
            resolve(root, Path::new("/p/src"), Path::new("a.rs")),
            Ok("src/a.rs".into())
        );
        assert_eq!(
            resolve(root, Path::new("/p/src"), Path::new("../b/c.rs")),
            Ok("b/c.rs".into())
        );
        assert_eq!(
            resolve(root, Path::new("/p"), Path::new(".")),
            Ok(String::new())
        );
    }

    #[test]
    fn escaping_the_root_is_refused() {
        let err = resolve(
            Path::new("/p"),
            Path::new("/p/src"),
            Path::new("../../etc/passwd"),
        );
        assert!(
            matches!(err, Err(PathError::OutsideProject { .. })),
            "{err:?}"
        );
    }

    #[test]
    fn git_and_library_dirs_are_refused() {
        let root = Path::new("/p");
        assert!(matches!(
            resolve(root, root, Path::new(".git/config")),
            Err(PathError::InsideGit { .. })
        ));
        assert!(matches!(
            resolve(root, root, Path::new(".lexibrary/a.rs.md")),
            Err(PathError::InsideLibrary { .. })
        ));
    }

    #[test]
    fn ancestors_run_from_root_to_parent() {
        assert_eq!(ancestors_rel("a/b/c.rs"), vec!["", "a", "a/b"]);
        assert_eq!(ancestors_rel("c.rs"), vec![""]);
    }
}
