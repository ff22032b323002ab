//! The mirror mapping between source paths and library paths.
//!
//! `src/a.rs` is documented by `.lexibrary/src/a.rs.md`; directory `src/` by `.lexibrary/src/.aindex`;
//! the project root by `.lexibrary/.aindex`. An agent can predict every path without searching.

use super::LIBRARY_DIR;

/// File name of a directory index inside the mirror.
pub const AINDEX_FILE: &str = ".aindex";
/// File name of an I Was Here note inside the mirror.
pub const IWH_FILE: &str = ".iwh";
/// Suffix appended to a source file name to name its design file.
pub const DESIGN_SUFFIX: &str = ".md";

/// Top-level names inside `.lexibrary/` that the library itself owns. A source path whose mirror would
/// land on one of them cannot get a design file.
pub const RESERVED_TOP_LEVEL: &[&str] = &[
    "concepts",
    "stack",
    "config.yaml",
    "START_HERE.md",
    super::CACHE_DIR,
];

/// `src/a.rs` → `.lexibrary/src/a.rs.md`.
pub fn design_path(source: &str) -> String {
    format!("{LIBRARY_DIR}/{source}{DESIGN_SUFFIX}")
}

/// `src` → `.lexibrary/src/.aindex`; `""` → `.lexibrary/.aindex`.
pub fn aindex_path(dir: &str) -> String {
    if dir.is_empty() {
        format!("{LIBRARY_DIR}/{AINDEX_FILE}")
    } else {
        format!("{LIBRARY_DIR}/{dir}/{AINDEX_FILE}")
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
    let top = inner.split('/').next().unwrap_or("");
    if RESERVED_TOP_LEVEL.contains(&top) {
        return None;
    }
    let source = inner.strip_suffix(DESIGN_SUFFIX)?;
    (!source.is_empty()).then_some(source)
}

/// Whether `source` can be mirrored without colliding with the library's own files.
pub fn is_mirrorable(source: &str) -> bool {
    let top = source.split('/').next().unwrap_or("");
    let collides = RESERVED_TOP_LEVEL
        .iter()
        .any(|reserved| top == *reserved || format!("{top}{DESIGN_SUFFIX}") == *reserved);
    !source.is_empty() && !collides && !source.contains('\n')
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
    fn reserved_names_are_not_mirrorable() {
        assert!(!is_mirrorable("concepts/x.rs"));
        assert!(!is_mirrorable("START_HERE"));
        assert!(is_mirrorable("src/concepts/x.rs"));
    }
}
