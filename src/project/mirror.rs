//! The mirror mapping between source paths and library paths.
//!
//! `src/a.rs` is documented by `.lexibrary/src/a.rs.md`; directory `src/` by `.lexibrary/src/.aindex`;
//! the project root by `.lexibrary/.aindex`. An agent can predict every path without searching.
//!
//! One exception keeps every legal source name documentable: a source file name of 253–255 bytes
//! would give a design file name longer than filesystems allow ([`NAME_MAX`]). Such a design file is
//! named `<the name's first 235 bytes or fewer, cut at a character boundary>~<the first 16 hex
//! digits of the SHA-256 of the whole name>.md` ([`design_name`]) — stable, at most 255 bytes, and
//! found again from the source directory's listing or the footer's `source:` ([`resolve_source`]).

use std::borrow::Cow;
use std::path::Path;

use super::LIBRARY_DIR;

use crate::relpath::RelPath;

/// File name of a directory index inside the mirror.
pub const AINDEX_FILE: &str = ".aindex";
/// File name of an I Was Here note inside the mirror.
pub const IWH_FILE: &str = ".iwh";
/// File name of a group design file inside the mirror: one per directory whose files are mapped
/// `grouped` (`project::mapping`), describing them together. (A source file named `_group` has its
/// design file there too; the two cannot both exist, and the group wins.)
pub const GROUP_FILE: &str = "_group.md";
/// Suffix appended to a source file name to name its design file.
pub const DESIGN_SUFFIX: &str = ".md";

/// Top-level names inside `.lexibrary/` that the library itself owns. `concepts/` and `stack/` are
/// shared with the mirror ([`SHARED_TOP_LEVEL`]); the others a source path's mirror never enters.
pub const RESERVED_TOP_LEVEL: &[&str] = &[
    "concepts",
    "stack",
    "config.yaml",
    "START_HERE.md",
    super::CACHE_DIR,
];

/// The library's top-level directories that a project directory of the same name shares: the
/// library's own files in them are `concepts/<Name>.md` (a concept name: letters, digits, `-`,
/// `_`) and `stack/ST-NNN-<slug>.md`; everything else there — a `.aindex`, `stack/stack.py.md`,
/// `concepts/sub/…` — is the mirror of the project's own `stack/` or `concepts/` directory. The
/// reserved names count only inside `.lexibrary/`: a project may have a `stack/` of its own.
pub const SHARED_TOP_LEVEL: &[&str] = &["concepts", "stack"];

/// Whether `inner`, a path relative to `.lexibrary/`, is one of the library's own files rather than
/// a place in the mirror: `config.yaml`, `START_HERE.md`, anything in `.cache/` or below a reserved
/// file name, a concept file or a Stack post file (see [`SHARED_TOP_LEVEL`]).
pub fn is_library_own(inner: &str) -> bool {
    let (top, rest) = match inner.split_once('/') {
        Some((top, rest)) => (top, Some(rest)),
        None => (inner, None),
    };
    match rest {
        None => RESERVED_TOP_LEVEL.contains(&top) && !SHARED_TOP_LEVEL.contains(&top),
        Some(_) if top == super::CACHE_DIR => true,
        Some(name) if name.contains('/') => {
            RESERVED_TOP_LEVEL.contains(&top) && !SHARED_TOP_LEVEL.contains(&top)
        }
        Some(name) if top == "concepts" => is_concept_file_name(name),
        Some(name) if top == "stack" => is_post_file_name(name),
        Some(_) => RESERVED_TOP_LEVEL.contains(&top),
    }
}

/// `Auth.md`, `Money-Handling.md`: the file name of a concept (what `library::concept::validate_name`
/// accepts, with `.md`).
fn is_concept_file_name(name: &str) -> bool {
    name.strip_suffix(DESIGN_SUFFIX).is_some_and(|stem| {
        stem.chars().next().is_some_and(char::is_alphanumeric)
            && stem
                .chars()
                .all(|c| c.is_alphanumeric() || c == '-' || c == '_')
    })
}

/// `ST-001-lexer-panics.md`, `ST-7.md`: the file name of a Stack post (`ST-`, digits, then the end
/// or a `-`; a superset of what `library::stack::id_from_file_name` reads, so that nothing a post
/// could be named is ever taken for a design file).
fn is_post_file_name(name: &str) -> bool {
    let Some(rest) = name
        .strip_suffix(DESIGN_SUFFIX)
        .and_then(|stem| stem.strip_prefix("ST-"))
    else {
        return false;
    };
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && (rest.len() == digits || rest[digits..].starts_with('-'))
}

/// The longest file name (one path component, in bytes) the filesystems we run on allow.
pub const NAME_MAX: usize = 255;
/// Separates a shortened design file name's prefix from its hash.
const SHORTENED_MARK: char = '~';
/// Hex digits of the name's SHA-256 in a shortened design file name.
const SHORTENED_HASH_LEN: usize = 16;

/// `src/a.rs` → `.lexibrary/src/a.rs.md` (with the file name shortened when it would be too long:
/// see [`design_name`]).
pub fn design_path(source: &str) -> String {
    let source = RelPath::new(source);
    match source.parent() {
        Some(dir) => format!("{LIBRARY_DIR}/{dir}/{}", design_name(source.file_name())),
        None => format!("{LIBRARY_DIR}/{}", design_name(source.file_name())),
    }
}

/// The design file name of source file name `name`: `<name>.md`, or when that is longer than
/// [`NAME_MAX`] bytes, `<prefix>~<16 hex digits of sha256(name)>.md` in at most [`NAME_MAX`] bytes.
pub fn design_name(name: &str) -> Cow<'_, str> {
    if name.len() + DESIGN_SUFFIX.len() <= NAME_MAX {
        return Cow::Owned(format!("{name}{DESIGN_SUFFIX}"));
    }
    let room = NAME_MAX - DESIGN_SUFFIX.len() - SHORTENED_MARK.len_utf8() - SHORTENED_HASH_LEN;
    let mut cut = room;
    while !name.is_char_boundary(cut) {
        cut -= 1;
    }
    let hash = crate::hash::sha256_hex(name.as_bytes());
    Cow::Owned(format!(
        "{}{SHORTENED_MARK}{}{DESIGN_SUFFIX}",
        &name[..cut],
        &hash[..SHORTENED_HASH_LEN]
    ))
}

/// Whether design file name `name` has the shortened form (it may still be the plain design file
/// name of a source whose name happens to end that way: [`resolve_source`] tells).
pub fn is_shortened(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(DESIGN_SUFFIX) else {
        return false;
    };
    let Some((_, hash)) = stem.rsplit_once(SHORTENED_MARK) else {
        return false;
    };
    name.len() > NAME_MAX - 4
        && hash.len() == SHORTENED_HASH_LEN
        && hash
            .bytes()
            .all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'))
}

/// The source a design file documents (`.lexibrary/<dir>/<name>`, project-relative), looking at the
/// project at `root` when the name is shortened: the file of the source directory whose design
/// name it is, else the `source:` its footer records (when that maps back to this design file),
/// else the name read plainly. `None` for anything that is not a design file path.
pub fn resolve_source(root: &Path, design: &str) -> Option<String> {
    let plain = source_for_design(design)?;
    let name = RelPath::new(design).file_name();
    if !is_shortened(name) {
        return Some(plain.to_string());
    }
    let dir = RelPath::new(plain).dir();
    let listed = std::fs::read_dir(super::paths::join_rel(root, dir))
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| entry.file_name().into_string().ok())
        .find(|source_name| design_name(source_name) == name);
    if let Some(source_name) = listed {
        return Some(RelPath::new(dir).join(&source_name).into_string());
    }
    let from_footer = crate::nofollow::read_to_string(root, design)
        .ok()
        .and_then(|text| footer_source(&text))
        .filter(|source| design_path(source) == design);
    Some(from_footer.unwrap_or_else(|| plain.to_string()))
}

/// The `source:` line of a design file's footer, read without parsing the rest.
fn footer_source(text: &str) -> Option<String> {
    let footer = &text[text.rfind("<!-- lexibrarian:meta")?..];
    footer
        .lines()
        .find_map(|line| line.strip_prefix("source: "))
        .map(|source| source.trim().to_string())
}

/// `src` → `.lexibrary/src/.aindex`; `""` → `.lexibrary/.aindex`.
pub fn aindex_path(dir: &str) -> String {
    if dir.is_empty() {
        format!("{LIBRARY_DIR}/{AINDEX_FILE}")
    } else {
        format!("{LIBRARY_DIR}/{dir}/{AINDEX_FILE}")
    }
}

/// `tests/fixtures` → `.lexibrary/tests/fixtures/_group.md`; `""` → `.lexibrary/_group.md`.
pub fn group_path(dir: &str) -> String {
    if dir.is_empty() {
        format!("{LIBRARY_DIR}/{GROUP_FILE}")
    } else {
        format!("{LIBRARY_DIR}/{dir}/{GROUP_FILE}")
    }
}

/// `src` → `.lexibrary/src/.iwh`; `""` → `.lexibrary/.iwh`.
pub fn iwh_path(dir: &str) -> String {
    if dir.is_empty() {
        format!("{LIBRARY_DIR}/{IWH_FILE}")
    } else {
        format!("{LIBRARY_DIR}/{dir}/{IWH_FILE}")
    }
}

/// `.lexibrary/src/a.rs.md` → `src/a.rs`. `None` for anything that is not a design file path.
pub fn source_for_design(design: &str) -> Option<&str> {
    let inner = design.strip_prefix(LIBRARY_DIR)?.strip_prefix('/')?;
    if is_library_own(inner) {
        return None;
    }
    let source = inner.strip_suffix(DESIGN_SUFFIX)?;
    (!source.is_empty()).then_some(source)
}

/// Whether `source` can be mirrored without colliding with the library's own files: its design
/// file would not be one of them ([`is_library_own`]: `concepts/Auth` would read as a concept,
/// `START_HERE` as the bootloader) and its directories are not reserved file names.
pub fn is_mirrorable(source: &str) -> bool {
    if source.is_empty() || source.contains('\n') {
        return false;
    }
    let design = design_path(source);
    let inner = design
        .strip_prefix(LIBRARY_DIR)
        .and_then(|rest| rest.strip_prefix('/'))
        .unwrap_or(&design);
    let in_reserved_dir = source.split_once('/').is_some_and(|(top, _)| {
        RESERVED_TOP_LEVEL.contains(&top) && !SHARED_TOP_LEVEL.contains(&top)
    });
    !is_library_own(inner) && !in_reserved_dir
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn design_paths_round_trip() {
        assert_eq!(design_path("src/a.rs"), ".lexibrary/src/a.rs.md");
        assert_eq!(
            source_for_design(".lexibrary/src/a.rs.md"),
            Some("src/a.rs")
        );
        assert_eq!(source_for_design(".lexibrary/concepts/Auth.md"), None);
        assert_eq!(source_for_design(".lexibrary/START_HERE.md"), None);
        assert_eq!(source_for_design(".lexibrary/src/.aindex"), None);
    }

    #[test]
    fn aindex_paths() {
        assert_eq!(aindex_path(""), ".lexibrary/.aindex");
        assert_eq!(aindex_path("src/auth"), ".lexibrary/src/auth/.aindex");
    }

    #[test]
    fn names_too_long_for_a_design_file_are_shortened_stably() {
        let long = format!("{}.rs", "a".repeat(252));
        assert_eq!(long.len(), 255);
        let name = design_name(&long);
        assert!(name.len() <= NAME_MAX, "{}", name.len());
        assert!(
            name.starts_with(&"a".repeat(235)) && name.ends_with(".md"),
            "{name}"
        );
        assert!(is_shortened(&name));
        assert_eq!(name, design_name(&long), "stable");
        assert_ne!(name, design_name(&format!("{}.py", "a".repeat(252))));
        // A name that just fits is not shortened; one byte more is.
        let fits = "b".repeat(NAME_MAX - 3);
        assert_eq!(design_name(&fits), format!("{fits}.md"));
        assert!(!is_shortened(&design_name(&fits)));
        assert!(is_shortened(&design_name(&format!("{fits}b"))));
        // Multi-byte characters are never cut in two.
        let wide = "é".repeat(127);
        let shortened = design_name(&wide);
        assert!(shortened.len() <= NAME_MAX && is_shortened(&shortened));
        assert_eq!(
            design_path(&format!("src/{long}")),
            format!(".lexibrary/src/{name}")
        );
    }

    #[test]
    fn shortened_design_names_resolve_to_their_sources() {
        let dir = tempfile::tempdir().expect("tempdir");
        let long = format!("{}.rs", "x".repeat(252));
        std::fs::create_dir_all(dir.path().join("src")).expect("mkdir");
        std::fs::write(dir.path().join("src").join(&long), "").expect("write");
        let design = design_path(&format!("src/{long}"));
        assert_eq!(
            resolve_source(dir.path(), &design).as_deref(),
            Some(format!("src/{long}").as_str())
        );
        // The source is gone: the footer says what it was.
        std::fs::remove_file(dir.path().join("src").join(&long)).expect("rm");
        let design_abs = dir.path().join(&design);
        std::fs::create_dir_all(design_abs.parent().expect("parent")).expect("mkdir");
        std::fs::write(
            &design_abs,
            format!("# x\n\n<!-- lexibrarian:meta\nsource: src/{long}\nsource_hash: 1\n-->\n"),
        )
        .expect("write");
        assert_eq!(
            resolve_source(dir.path(), &design).as_deref(),
            Some(format!("src/{long}").as_str())
        );
        assert_eq!(
            resolve_source(dir.path(), ".lexibrary/src/a.rs.md").as_deref(),
            Some("src/a.rs")
        );
    }

    #[test]
    fn reserved_names_count_only_inside_the_library() {
        // A project's own `stack/` and `concepts/` are mirrored beside the library's files...
        assert!(is_mirrorable("concepts/x.rs"));
        assert!(is_mirrorable("stack/stack.py"));
        assert!(is_mirrorable("stack/sub/ST-001-x"));
        assert!(is_mirrorable("src/concepts/x.rs"));
        assert_eq!(
            source_for_design(".lexibrary/stack/stack.py.md"),
            Some("stack/stack.py")
        );
        assert_eq!(
            source_for_design(".lexibrary/concepts/sub/Auth.md"),
            Some("concepts/sub/Auth")
        );
        // ...unless a design file would be taken for one of the library's own files.
        assert!(!is_mirrorable("concepts/Auth"));
        assert!(!is_mirrorable("stack/ST-001-x"));
        assert!(!is_mirrorable("START_HERE"));
        assert!(!is_mirrorable(".cache/x.rs"));
        assert!(!is_mirrorable("config.yaml/x.rs"));
        assert_eq!(source_for_design(".lexibrary/concepts/Auth.md"), None);
        assert_eq!(source_for_design(".lexibrary/stack/ST-001-x.md"), None);
        assert!(is_library_own("stack/ST-12.md"));
        assert!(!is_library_own("stack/.aindex"));
        assert!(!is_library_own("concepts/c.py.md"));
    }
}
