//! Project-relative paths: [`RelPath`] (borrowed, like `str`) and [`RelPathBuf`] (owned), with the
//! operations the crate used to re-do by hand on strings — file name, stem, extension, directory,
//! join, components and directory-prefix tests.
//!
//! A project-relative path is `/`-separated on every platform, has no leading `/` and no `.` or
//! `..` components (`src/flask/app.py`); the empty path is the project root. The type does not
//! check that form (the walk and the mirror produce it); it names the operations, so that one
//! definition of "the file name" or "the stem" holds everywhere. The operations are plain string
//! operations on the last `/` and on dots, never `std::path`'s (which differ on Windows and on
//! trailing slashes), and they keep the results the hand-written code gave:
//!
//! - the file name is what follows the last `/` (`""` for a path ending in `/`);
//! - the directory is what precedes it (`""` for a file at the root);
//! - a path starts with a directory by whole components (`src/ab` is not in `src/a`);
//! - the stem is the file name up to its first `.` (`a` of `a.d.ts`; a dotfile's stem is empty,
//!   `.gitignore` is all extension), the extension what follows its last `.`.
//!
//! A leaf: it depends on nothing else in the crate, so every module may use it (DESIGN §4).

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;

/// A borrowed project-relative path (`src/flask/app.py`): a `str` with path operations.
#[derive(PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct RelPath(str);

impl RelPath {
    /// `path` as a project-relative path.
    pub fn new(path: &str) -> &RelPath {
        // SAFETY: `RelPath` is `#[repr(transparent)]` over `str`, so the two references have the
        // same layout and the same lifetime.
        unsafe { &*(path as *const str as *const RelPath) }
    }

    /// The path as a string.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// What follows the last `/`: `app.py` of `src/flask/app.py`; the whole path at the root.
    pub fn file_name(&self) -> &str {
        self.split_name().1
    }

    /// What precedes the last `/`: `src/flask` of `src/flask/app.py`; `""` (the root) at the root.
    pub fn dir(&self) -> &str {
        self.split_name().0
    }

    /// The directory as a path, `None` for a file at the root (no `/`).
    pub fn parent(&self) -> Option<&RelPath> {
        self.0.rsplit_once('/').map(|(dir, _)| RelPath::new(dir))
    }

    /// The directory and the file name: `("src/flask", "app.py")`; `("", name)` at the root.
    pub fn split_name(&self) -> (&str, &str) {
        self.0.rsplit_once('/').unwrap_or(("", &self.0))
    }

    /// The file name up to its first `.`: `app` of `app.py`, `index` of `index.d.ts`, `""` of
    /// `.gitignore`, the whole name without a dot (`Makefile`).
    pub fn stem(&self) -> &str {
        let name = self.file_name();
        name.split('.').next().unwrap_or(name)
    }

    /// The file name without its last extension: `index.d` of `index.d.ts`, `""` of
    /// `.gitignore`, the whole name without a dot.
    pub fn name_without_extension(&self) -> &str {
        let name = self.file_name();
        name.rsplit_once('.').map_or(name, |(rest, _)| rest)
    }

    /// What follows the file name's last `.`: `ts` of `index.d.ts`, `gitignore` of `.gitignore`,
    /// `None` without a dot. As written (not lowercased).
    pub fn extension(&self) -> Option<&str> {
        self.file_name().rsplit_once('.').map(|(_, ext)| ext)
    }

    /// `child` under this path: `src/flask` + `app.py` = `src/flask/app.py`; the root joins to
    /// `child` itself.
    pub fn join(&self, child: &str) -> RelPathBuf {
        match self.0.is_empty() {
            true => RelPathBuf(child.to_string()),
            false => RelPathBuf(format!("{}/{child}", &self.0)),
        }
    }

    /// The `/`-separated parts, first to last (one empty part for the root).
    pub fn components(&self) -> std::str::Split<'_, char> {
        self.0.split('/')
    }

    /// Whether this path is `dir` or lies under it, by whole components: `src/a/x.rs` is in
    /// `src/a`, `src/ab/x.rs` is not. Every path is in the root (`""`). `dir` is written as the
    /// crate writes directories, without a trailing `/` (`src/a/` is nobody's directory: the test
    /// is on whole components, as every caller made it before this type).
    pub fn starts_with(&self, dir: &str) -> bool {
        dir.is_empty()
            || self
                .0
                .strip_prefix(dir)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    }

    /// An owned copy.
    pub fn to_rel_path_buf(&self) -> RelPathBuf {
        RelPathBuf(self.0.to_string())
    }
}

impl AsRef<str> for RelPath {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for RelPath {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

impl ToOwned for RelPath {
    type Owned = RelPathBuf;
    fn to_owned(&self) -> RelPathBuf {
        self.to_rel_path_buf()
    }
}

/// An owned project-relative path: a `String` with [`RelPath`]'s operations.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct RelPathBuf(String);

impl RelPathBuf {
    /// `path` as an owned project-relative path.
    pub fn new(path: impl Into<String>) -> RelPathBuf {
        RelPathBuf(path.into())
    }

    /// The path as a string.
    pub fn into_string(self) -> String {
        self.0
    }
}

impl Deref for RelPathBuf {
    type Target = RelPath;
    fn deref(&self) -> &RelPath {
        RelPath::new(&self.0)
    }
}

impl Borrow<RelPath> for RelPathBuf {
    fn borrow(&self) -> &RelPath {
        self
    }
}

impl AsRef<str> for RelPathBuf {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl From<RelPathBuf> for String {
    fn from(path: RelPathBuf) -> String {
        path.0
    }
}

impl fmt::Display for RelPathBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for RelPathBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rel(path: &str) -> &RelPath {
        RelPath::new(path)
    }

    #[test]
    fn file_name_and_dir_split_at_the_last_slash() {
        assert_eq!(
            rel("src/flask/app.py").split_name(),
            ("src/flask", "app.py")
        );
        assert_eq!(rel("src/flask/app.py").file_name(), "app.py");
        assert_eq!(rel("src/flask/app.py").dir(), "src/flask");
        // A root-level file: its directory is the root.
        assert_eq!(rel("setup.py").split_name(), ("", "setup.py"));
        assert_eq!(rel("setup.py").parent(), None);
        assert_eq!(rel("src/a.rs").parent(), Some(rel("src")));
        assert_eq!(
            rel("a/b/c").parent().and_then(RelPath::parent),
            Some(rel("a"))
        );
        // Hidden directories are directories like any other.
        assert_eq!(rel(".github/workflows/ci.yml").dir(), ".github/workflows");
        // A trailing slash leaves an empty file name (the string's last part), never the directory's.
        assert_eq!(rel("src/flask/").split_name(), ("src/flask", ""));
        assert_eq!(rel("").split_name(), ("", ""));
    }

    #[test]
    fn stems_end_at_the_first_dot_and_extensions_follow_the_last() {
        assert_eq!(rel("src/app.py").stem(), "app");
        assert_eq!(rel("types/index.d.ts").stem(), "index");
        assert_eq!(rel("types/index.d.ts").name_without_extension(), "index.d");
        assert_eq!(rel("types/index.d.ts").extension(), Some("ts"));
        assert_eq!(rel("Makefile").stem(), "Makefile");
        assert_eq!(rel("Makefile").name_without_extension(), "Makefile");
        assert_eq!(rel("Makefile").extension(), None);
        // A dotfile is all extension: its stem is empty.
        assert_eq!(rel(".gitignore").stem(), "");
        assert_eq!(rel("a/.gitignore").name_without_extension(), "");
        assert_eq!(rel("a/.gitignore").extension(), Some("gitignore"));
        // A dot in a directory name is not the file's.
        assert_eq!(rel("v1.2/README").stem(), "README");
        assert_eq!(rel("v1.2/README").extension(), None);
        assert_eq!(rel("src/A.RS").extension(), Some("RS"));
    }

    #[test]
    fn join_puts_a_slash_between_and_the_root_joins_to_the_child() {
        assert_eq!(rel("src/flask").join("app.py").as_str(), "src/flask/app.py");
        assert_eq!(rel("").join("app.py").as_str(), "app.py");
        let joined = rel("a").join("b").join("c.rs");
        assert_eq!(joined.file_name(), "c.rs");
        assert_eq!(joined.into_string(), "a/b/c.rs");
    }

    #[test]
    fn components_are_the_slash_separated_parts() {
        let parts: Vec<_> = rel("src/flask/app.py").components().collect();
        assert_eq!(parts, ["src", "flask", "app.py"]);
        assert_eq!(rel("app.py").components().collect::<Vec<_>>(), ["app.py"]);
    }

    #[test]
    fn starts_with_matches_whole_directories() {
        assert!(rel("src/a/x.rs").starts_with("src/a"));
        assert!(!rel("src/a/x.rs").starts_with("src/a/"));
        assert!(rel("src/a").starts_with("src/a"));
        assert!(!rel("src/ab/x.rs").starts_with("src/a"));
        assert!(!rel("src").starts_with("src/a"));
        assert!(rel("src/a/x.rs").starts_with(""));
        assert!(rel(".github/ci.yml").starts_with(".github"));
        assert!(!rel(".githubx/ci.yml").starts_with(".github"));
    }

    #[test]
    fn owned_and_borrowed_compare_print_and_borrow_alike() {
        let owned = RelPathBuf::new("src/a.rs");
        assert_eq!(&*owned, rel("src/a.rs"));
        assert_eq!(owned.to_string(), "src/a.rs");
        assert_eq!(format!("{:?}", rel("src/a.rs")), "\"src/a.rs\"");
        let set: std::collections::BTreeSet<RelPathBuf> = [owned.clone()].into();
        assert!(set.contains(rel("src/a.rs")));
        assert_eq!(rel("src/a.rs").to_owned(), owned);
        assert_eq!(String::from(owned), "src/a.rs");
    }
}
