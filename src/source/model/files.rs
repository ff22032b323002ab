//! The project's files as the project model and the resolvers see them: a sorted set of
//! project-relative, `/`-separated paths with existence checks and directory listings, plus a way to
//! read a file's text (manifests only).

use std::collections::BTreeSet;
use std::ops::Bound;

use crate::relpath::RelPath;

/// Every project file, sorted.
#[derive(Clone, Debug, Default)]
pub struct FileIndex {
    files: BTreeSet<String>,
}

impl FileIndex {
    pub fn new(files: impl IntoIterator<Item = String>) -> FileIndex {
        FileIndex {
            files: files.into_iter().collect(),
        }
    }

    pub fn contains(&self, rel: &str) -> bool {
        self.files.contains(rel)
    }

    /// Every file at or below directory `dir` (`""`: all of them).
    pub fn under<'a>(&'a self, dir: &str) -> impl Iterator<Item = &'a str> + 'a {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{dir}/")
        };
        let start = Bound::Included(prefix.clone());
        self.files
            .range::<String, _>((start, Bound::Unbounded))
            .take_while(move |path| path.starts_with(&prefix))
            .map(String::as_str)
    }

    /// The files directly in `dir` (not in its subdirectories).
    pub fn in_dir<'a>(&'a self, dir: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let skip = if dir.is_empty() { 0 } else { dir.len() + 1 };
        self.under(dir)
            .filter(move |path| !path[skip..].contains('/'))
    }

    /// The subdirectories directly in `dir`, each once, sorted.
    pub fn subdirs(&self, dir: &str) -> Vec<String> {
        let skip = if dir.is_empty() { 0 } else { dir.len() + 1 };
        let mut out: Vec<String> = self
            .under(dir)
            .filter_map(|path| {
                let rest = &path[skip..];
                rest.split_once('/').map(|(sub, _)| join(dir, sub))
            })
            .collect();
        out.sort();
        out.dedup();
        out
    }

    /// Every file whose name is `name`, in any directory.
    pub fn named<'a>(&'a self, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.files
            .iter()
            .map(String::as_str)
            .filter(move |path| file_name(path) == name)
    }

    pub fn len(&self) -> usize {
        self.files.len()
    }

    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// Reads a project file's text (for manifests); `None` when it cannot be read.
pub trait ReadFile: Sync {
    fn read(&self, rel: &str) -> Option<String>;
}

impl<F: Fn(&str) -> Option<String> + Sync> ReadFile for F {
    fn read(&self, rel: &str) -> Option<String> {
        self(rel)
    }
}

/// Directory part of a path (`""` for a top-level file).
pub fn dir_of(path: &str) -> &str {
    RelPath::new(path).dir()
}

/// Last path component.
pub fn file_name(path: &str) -> &str {
    RelPath::new(path).file_name()
}

/// `dir/rest`, with either side possibly empty.
pub fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() {
        rest.to_string()
    } else if rest.is_empty() {
        dir.to_string()
    } else {
        format!("{dir}/{rest}")
    }
}

/// Join `rel` onto `dir`, resolving `.` and `..`; `None` if it escapes the project root.
pub fn normalize(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for segment in rel.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

/// Whether `path` is `dir` or inside it.
pub fn is_within(path: &str, dir: &str) -> bool {
    RelPath::new(path).starts_with(dir)
}

/// Match a path against a glob of `/`-separated components where `*` and `?` match within one
/// component and a `**` component matches any number of components (Cargo's `members` syntax).
pub fn glob_matches(pattern: &str, path: &str) -> bool {
    let pattern: Vec<&str> = pattern
        .split('/')
        .filter(|p| !p.is_empty() && *p != ".")
        .collect();
    let path: Vec<&str> = path.split('/').filter(|p| !p.is_empty()).collect();
    components_match(&pattern, &path)
}

fn components_match(pattern: &[&str], path: &[&str]) -> bool {
    match pattern.split_first() {
        None => path.is_empty(),
        Some((&"**", rest)) => (0..=path.len()).any(|skip| components_match(rest, &path[skip..])),
        Some((first, rest)) => match path.split_first() {
            Some((head, tail)) => component_matches(first, head) && components_match(rest, tail),
            None => false,
        },
    }
}

fn component_matches(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // Classic two-pointer wildcard match with backtracking on the last `*`.
    let (mut pi, mut ti) = (0, 0);
    let (mut star, mut mark) = (None, 0);
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some(pi);
            mark = ti;
            pi += 1;
        } else if let Some(s) = star {
            pi = s + 1;
            mark += 1;
            ti = mark;
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|c| *c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listings_by_directory() {
        let files = FileIndex::new(
            ["a/b.rs", "a/c/d.rs", "a-x/e.rs", "f.rs", "a/c/g.rs"].map(String::from),
        );
        assert_eq!(
            files.under("a").collect::<Vec<_>>(),
            ["a/b.rs", "a/c/d.rs", "a/c/g.rs"]
        );
        assert_eq!(files.in_dir("a").collect::<Vec<_>>(), ["a/b.rs"]);
        assert_eq!(files.in_dir("").collect::<Vec<_>>(), ["f.rs"]);
        assert_eq!(files.subdirs("a"), ["a/c"]);
        assert_eq!(files.subdirs(""), ["a", "a-x"]);
    }

    #[test]
    fn globs_match_components() {
        assert!(glob_matches("crates/*", "crates/core"));
        assert!(!glob_matches("crates/*", "crates/core/sub"));
        assert!(glob_matches("crates/**", "crates/core/sub"));
        assert!(glob_matches("tokio-*", "tokio-util"));
        assert!(glob_matches("./examples", "examples"));
        assert!(!glob_matches("tokio-*", "tokio"));
    }

    #[test]
    fn paths_normalize_within_the_project() {
        assert_eq!(normalize("a/b", "../c").as_deref(), Some("a/c"));
        assert_eq!(normalize("a", "../../c"), None);
        assert!(is_within("a/b", "a") && !is_within("ab", "a") && is_within("x", ""));
    }
}
