//! The one enumeration of `.lexibrary/`: every file the library holds, classified (design file,
//! `.aindex`, `.iwh`, concept, Stack post, START_HERE, config), with its stat data, walked in parallel.
//! Update, validate, sweep, the search corpus and I Was Here all list the library through here.
//!
//! The derived `.cache/` is never listed. Symlinks are never followed: they are reported on their own
//! (a library file that is a symlink is suspicious — see `lexictl validate`), never as files.

use std::path::Path;

use rayon::prelude::*;

use super::cache::Stat;
use crate::library::concept::CONCEPTS_DIR;
use crate::library::stack::{id_from_file_name, STACK_DIR};
use crate::project::mirror::{
    is_library_own, is_shortened, resolve_source, AINDEX_FILE, DESIGN_SUFFIX, GROUP_FILE, IWH_FILE,
    RESERVED_TOP_LEVEL, SHARED_TOP_LEVEL,
};
use crate::project::{CACHE_DIR, CONFIG_FILE, INTEGRATIONS_FILE, LIBRARY_DIR};
use crate::relpath::RelPath;

/// What a file under `.lexibrary/` is, from where it sits and its name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `<source>.md` in the mirror: the design file of `source`.
    Design { source: String },
    /// `<dir>/.aindex`: the index of project directory `dir` (`""` for the root).
    Index { dir: String },
    /// `<dir>/_group.md`: the group design file of project directory `dir` (its `grouped` files).
    Group { dir: String },
    /// `<dir>/.iwh`: an I Was Here note for `dir`.
    Iwh { dir: String },
    /// `concepts/<Name>.md`.
    Concept,
    /// `stack/ST-NNN-<slug>.md`.
    StackPost,
    /// `START_HERE.md`.
    StartHere,
    /// `config.yaml`.
    Config,
    /// `integrations.json`, the record of what was added for agents outside the library.
    Integrations,
    /// Anything else (a stray file, a temp file left by a killed writer, a file in the mirror that is
    /// not a design file).
    Other,
}

/// One file in the library.
#[derive(Clone, Debug)]
pub struct Entry {
    /// Relative to `.lexibrary/`, `/`-separated (`src/a.rs.md`, `concepts/Auth.md`).
    pub rel: String,
    pub kind: Kind,
    pub stat: Stat,
}

impl Entry {
    /// The directory part of [`Entry::rel`] (`""` at the top).
    pub fn dir(&self) -> &str {
        RelPath::new(&self.rel).dir()
    }

    /// The file name part of [`Entry::rel`].
    pub fn name(&self) -> &str {
        RelPath::new(&self.rel).file_name()
    }
}

/// What a walk found.
#[derive(Clone, Debug, Default)]
pub struct Listing {
    /// Regular files, sorted depth-first: by component, so that a directory's contents come right
    /// after it, before its next sibling (`a`, `a/b`, `a-c`).
    pub files: Vec<Entry>,
    /// Every directory walked (relative to `.lexibrary/`, `""` not included), sorted the same way.
    pub dirs: Vec<String>,
    /// Symlinks met (relative to `.lexibrary/`): never followed, never listed as files.
    pub symlinks: Vec<String>,
    /// Directories that could not be read, with the reason.
    pub errors: Vec<String>,
}

/// Which part of the library to walk.
#[derive(Clone, Copy, Debug)]
pub struct Part<'a> {
    /// Start here (relative to `.lexibrary/`, `""` for all of it).
    pub under: &'a str,
    /// Descend at most this many directory levels below `under` (`None`: all the way).
    pub max_depth: Option<usize>,
    /// Only the mirror: skip the library's own files (the config, START_HERE.md, concepts, Stack
    /// posts; `project::mirror::is_library_own`) — what `concepts/` and `stack/` hold besides them
    /// is the mirror of the project's own directories of those names.
    pub mirror_only: bool,
    /// Only the files of this name (`.aindex`): the others are neither listed nor `stat`ed.
    pub named: Option<&'a str>,
}

impl Part<'static> {
    /// Everything but `.cache/`.
    pub const ALL: Part<'static> = Part {
        under: "",
        max_depth: None,
        mirror_only: false,
        named: None,
    };
    /// The mirror: design files, indexes and notes, all the way down.
    pub const MIRROR: Part<'static> = Part {
        under: "",
        max_depth: None,
        mirror_only: true,
        named: None,
    };
}

/// Walk `library` (the `.lexibrary/` directory) within `part`.
pub fn walk(library: &Path, part: Part<'_>) -> Listing {
    let mut listing = walk_dir(library, part.under, 0, &part);
    listing.symlinks.sort();
    listing
}

/// Every file in the library (but `.cache/`).
pub fn all_files(library: &Path) -> Listing {
    walk(library, Part::ALL)
}

fn walk_dir(library: &Path, rel: &str, depth: usize, part: &Part<'_>) -> Listing {
    let mut listing = Listing::default();
    let path = if rel.is_empty() {
        library.to_path_buf()
    } else {
        library.join(rel)
    };
    let entries = match std::fs::read_dir(&path) {
        Ok(entries) => entries,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return listing,
        Err(err) => {
            listing
                .errors
                .push(format!("cannot list {}: {err}", path.display()));
            return listing;
        }
    };
    let mut subdirs: Vec<String> = Vec::new();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let at_top = rel.is_empty();
        let shared = SHARED_TOP_LEVEL.contains(&name);
        if at_top
            && (name == CACHE_DIR
                || (part.mirror_only && RESERVED_TOP_LEVEL.contains(&name) && !shared))
        {
            continue;
        }
        let child = if at_top {
            name.to_string()
        } else {
            format!("{rel}/{name}")
        };
        if part.mirror_only && is_library_own(&child) {
            continue;
        }
        let Ok(file_type) = entry.file_type() else {
            continue;
        };
        if file_type.is_symlink() {
            listing.symlinks.push(child);
        } else if file_type.is_dir() {
            if part.max_depth.is_none_or(|max| depth < max) {
                subdirs.push(child);
            }
        } else if file_type.is_file() && part.named.is_none_or(|named| named == name) {
            if let Ok(meta) = entry.metadata() {
                listing.files.push(Entry {
                    kind: classify_in(library, &child),
                    rel: child,
                    stat: Stat::from_metadata(&meta),
                });
            }
        }
    }
    let nested: Vec<Listing> = subdirs
        .par_iter()
        .map(|dir| walk_dir(library, dir, depth + 1, part))
        .collect();
    depth_first(listing, subdirs.into_iter().zip(nested).collect())
}

/// One directory's files and its subdirectories' listings as one listing in depth-first order:
/// children by name, each subdirectory followed by its contents (so `a`, `a/b`, `a-c`). Sorting each
/// directory's children costs much less than sorting the whole listing at the end.
fn depth_first(here: Listing, mut below: Vec<(String, Listing)>) -> Listing {
    let mut files = here.files;
    // Children of one directory share its prefix: comparing paths compares names.
    files.sort_unstable_by(|a, b| a.rel.cmp(&b.rel));
    below.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut out = Listing {
        files: Vec::with_capacity(files.len()),
        dirs: Vec::with_capacity(below.len()),
        symlinks: here.symlinks,
        errors: here.errors,
    };
    let mut files = files.into_iter().peekable();
    for (dir, listing) in below {
        out.files
            .extend(std::iter::from_fn(|| files.next_if(|file| file.rel < dir)));
        out.dirs.push(dir);
        out.files.extend(listing.files);
        out.dirs.extend(listing.dirs);
        out.symlinks.extend(listing.symlinks);
        out.errors.extend(listing.errors);
    }
    out.files.extend(files);
    out
}

/// Remove the temporary files that writers which are gone left in `library`
/// ([`crate::atomic::is_debris`]: a killed `lexictl update`, a killed `lexi` write), its `.cache/`
/// included. Returns them, relative to `.lexibrary/`, sorted. Call it under the library lock; a
/// temporary file whose process still runs is left alone.
pub fn remove_debris(library: &Path) -> Vec<String> {
    let mut debris = find_debris(library);
    debris.retain(|rel| crate::nofollow::remove_file(library, rel).is_ok());
    debris
}

/// The temporary files of writers that are gone in `library` (its `.cache/` included), sorted,
/// relative to `.lexibrary/`: what [`remove_debris`] would remove.
pub fn find_debris(library: &Path) -> Vec<String> {
    let mut debris = Vec::new();
    debris_in(library, "", &mut debris);
    debris.sort();
    debris
}

/// The debris under `rel`: names only — no stat, no classification — since every full update
/// looks (a temporary file is never a symlink or a directory; symlinked directories are not entered).
fn debris_in(library: &Path, rel: &str, debris: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(library.join(rel)) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let child = RelPath::new(rel).join(name).into_string();
        if name.starts_with(crate::atomic::TEMP_PREFIX) {
            if crate::atomic::is_debris(name) && entry.file_type().is_ok_and(|t| t.is_file()) {
                debris.push(child);
            }
        } else if entry.file_type().is_ok_and(|t| t.is_dir()) {
            debris_in(library, &child, debris);
        }
    }
}

/// What the file at `rel` in `library` is: [`classify`], with a shortened design file name resolved
/// to its source (`project::mirror::resolve_source`).
fn classify_in(library: &Path, rel: &str) -> Kind {
    let kind = classify(rel);
    let name = RelPath::new(rel).file_name();
    match (&kind, library.parent()) {
        (Kind::Design { .. }, Some(root)) if is_shortened(name) => {
            match resolve_source(root, &format!("{LIBRARY_DIR}/{rel}")) {
                Some(source) => Kind::Design { source },
                None => kind,
            }
        }
        _ => kind,
    }
}

/// What the file at `rel` (relative to `.lexibrary/`) is, from its path alone (a shortened design
/// file name reads as its plain source: the walk resolves those).
pub fn classify(rel: &str) -> Kind {
    let (dir, name) = RelPath::new(rel).split_name();
    if dir.is_empty() {
        match name {
            "START_HERE.md" => return Kind::StartHere,
            CONFIG_FILE => return Kind::Config,
            INTEGRATIONS_FILE => return Kind::Integrations,
            _ => {}
        }
    }
    // The library's own files; in `concepts/` and `stack/` everything else is the mirror of the
    // project's directories of those names (`project::mirror::SHARED_TOP_LEVEL`).
    if is_library_own(rel) {
        return match dir {
            CONCEPTS_DIR => Kind::Concept,
            STACK_DIR if id_from_file_name(name).is_some() => Kind::StackPost,
            _ => Kind::Other,
        };
    }
    match name {
        AINDEX_FILE => Kind::Index {
            dir: dir.to_string(),
        },
        IWH_FILE => Kind::Iwh {
            dir: dir.to_string(),
        },
        GROUP_FILE => Kind::Group {
            dir: dir.to_string(),
        },
        _ => match rel.strip_suffix(DESIGN_SUFFIX) {
            Some(source) if !source.is_empty() => Kind::Design {
                source: source.to_string(),
            },
            _ => Kind::Other,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_are_classified_by_place_and_name() {
        assert_eq!(
            classify("src/a.rs.md"),
            Kind::Design {
                source: "src/a.rs".into()
            }
        );
        assert_eq!(classify("src/.aindex"), Kind::Index { dir: "src".into() });
        assert_eq!(classify(".aindex"), Kind::Index { dir: String::new() });
        assert_eq!(classify("src/.iwh"), Kind::Iwh { dir: "src".into() });
        assert_eq!(classify("concepts/Auth.md"), Kind::Concept);
        assert_eq!(classify("stack/ST-001-x.md"), Kind::StackPost);
        assert_eq!(classify("START_HERE.md"), Kind::StartHere);
        assert_eq!(classify("config.yaml"), Kind::Config);
        assert_eq!(classify("integrations.json"), Kind::Integrations);
        assert_eq!(classify("src/.lexi-tmp-abc"), Kind::Other);
        // The mirror of a project's own `concepts/` and `stack/` directories, beside the library's
        // concepts and posts.
        assert_eq!(
            classify("concepts/nested/x.md"),
            Kind::Design {
                source: "concepts/nested/x".into()
            }
        );
        assert_eq!(
            classify("stack/stack.py.md"),
            Kind::Design {
                source: "stack/stack.py".into()
            }
        );
        assert_eq!(
            classify("stack/.aindex"),
            Kind::Index {
                dir: "stack".into()
            }
        );
        assert_eq!(classify(".cache/x.md"), Kind::Other);
        assert_eq!(
            classify("README.md"),
            Kind::Design {
                source: "README".into()
            }
        );
    }

    #[test]
    fn walks_depth_first_skip_the_cache_and_report_symlinks() {
        let dir = tempfile::tempdir().expect("tempdir");
        let lib = dir.path();
        for rel in [
            "src/a.rs.md",
            "src/.aindex",
            "src/b/c.rs.md",
            "src-x/d.rs.md",
            ".cache/cache",
            "concepts/A.md",
        ] {
            let path = lib.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "x").expect("write");
        }
        std::os::unix::fs::symlink("/etc/passwd", lib.join("src/evil.rs.md")).expect("symlink");
        let all = walk(lib, Part::ALL);
        let files: Vec<&str> = all.files.iter().map(|e| e.rel.as_str()).collect();
        assert_eq!(
            files,
            [
                "concepts/A.md",
                "src/.aindex",
                "src/a.rs.md",
                "src/b/c.rs.md",
                "src-x/d.rs.md"
            ]
        );
        assert_eq!(all.symlinks, ["src/evil.rs.md"]);
        let mirror = walk(lib, Part::MIRROR);
        assert!(mirror.files.iter().all(|e| e.rel != "concepts/A.md"));
        let shallow = walk(
            lib,
            Part {
                under: "",
                max_depth: Some(1),
                mirror_only: true,
                named: None,
            },
        );
        // `concepts/` is entered for what the mirror may hold there; `concepts/A.md` is not listed.
        assert_eq!(shallow.dirs, ["concepts", "src", "src-x"]);
        assert!(shallow.files.iter().all(|e| e.rel != "src/b/c.rs.md"));
    }

    #[test]
    fn debris_of_dead_writers_goes_and_live_temp_files_stay() {
        let dir = tempfile::tempdir().expect("tempdir");
        let lib = dir.path();
        let mut child = std::process::Command::new("true").spawn().expect("spawn");
        let dead = child.id();
        child.wait().expect("wait");
        let live = format!("src/.lexi-tmp-{}-0", std::process::id());
        for rel in [
            "src/a.rs.md".to_string(),
            format!("src/.lexi-tmp-{dead}-3"),
            format!("{CACHE_DIR}/.lexi-tmp-{dead}-1"),
            ".lexi-tmp-Ab12Cd".to_string(),
            live.clone(),
        ] {
            let path = lib.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "").expect("write");
        }
        let removed = remove_debris(lib);
        assert_eq!(
            removed,
            [
                ".cache/.lexi-tmp-".to_string() + &format!("{dead}-1"),
                ".lexi-tmp-Ab12Cd".to_string(),
                format!("src/.lexi-tmp-{dead}-3"),
            ]
        );
        assert!(lib.join(&live).exists() && lib.join("src/a.rs.md").exists());
    }

    #[test]
    fn the_order_is_by_component_at_every_depth() {
        let dir = tempfile::tempdir().expect("tempdir");
        let lib = dir.path();
        let rels = [
            "a-c.md",
            "a/b.md",
            "a/b/c.md",
            "a/b-d/e.md",
            "a/-x.md",
            "ab.md",
            "a/.aindex",
            "b.md",
        ];
        for rel in rels {
            let path = lib.join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, "x").expect("write");
        }
        let listing = walk(lib, Part::MIRROR);
        let files: Vec<&str> = listing.files.iter().map(|e| e.rel.as_str()).collect();
        let mut expected = rels.to_vec();
        expected.sort_by(|a, b| a.split('/').cmp(b.split('/')));
        assert_eq!(files, expected);
        let mut dirs = listing.dirs.clone();
        dirs.sort_by(|a, b| a.split('/').cmp(b.split('/')));
        assert_eq!(listing.dirs, dirs);
    }
}
