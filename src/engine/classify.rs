//! Change levels and the per-file scan that assigns them (seed §7, DESIGN §4).
//!
//! A scan reads a source file only when the stat/hash cache cannot vouch for it, hashes it, parses
//! its interface when it is code, and compares with the design file's footer:
//!
//! | level | meaning | action |
//! |---|---|---|
//! | UNCHANGED | source matches the footer | nothing |
//! | NEW | no design file | generate |
//! | CONTENT_ONLY | code changed, interface did not | refresh, keep the Interface Contract |
//! | INTERFACE_CHANGED | public signatures changed | regenerate owned sections |
//! | CONTENT_CHANGED | a non-code file changed | regenerate owned sections |
//! | AGENT_UPDATED | design file edited by hand (or has no footer) | refresh footer hashes only |
//! | SKIPPED_CONFLICT | source has merge-conflict markers | skip, warn |
//! | SKIPPED_INVALID | design file cannot be parsed | skip, warn (never overwrite) |
//! | DELETED | source gone | remove the design file, unless edited by hand |
//! | RENAMED | source moved | move the design file, keeping its content |

use std::path::Path;

use crate::hash::sha256_hex;
use crate::library::design_file::{is_unedited, DesignFile};
use crate::project::mirror::design_path;
use crate::project::Project;
use crate::source::{extract, Interface, Language};
use crate::workspace::cache::{Cache, Stat};

/// What happened to a source file since its design file was last written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ChangeLevel {
    Unchanged,
    New,
    ContentOnly,
    InterfaceChanged,
    ContentChanged,
    AgentUpdated,
    SkippedConflict,
    SkippedInvalid,
    Deleted,
    Renamed,
}

impl ChangeLevel {
    pub fn label(self) -> &'static str {
        match self {
            ChangeLevel::Unchanged => "UNCHANGED",
            ChangeLevel::New => "NEW",
            ChangeLevel::ContentOnly => "CONTENT_ONLY",
            ChangeLevel::InterfaceChanged => "INTERFACE_CHANGED",
            ChangeLevel::ContentChanged => "CONTENT_CHANGED",
            ChangeLevel::AgentUpdated => "AGENT_UPDATED",
            ChangeLevel::SkippedConflict => "SKIPPED_CONFLICT",
            ChangeLevel::SkippedInvalid => "SKIPPED_INVALID",
            ChangeLevel::Deleted => "DELETED",
            ChangeLevel::Renamed => "RENAMED",
        }
    }

    /// Whether the Archivist writes the design file's owned sections at this level.
    pub fn regenerates(self) -> bool {
        matches!(
            self,
            ChangeLevel::New
                | ChangeLevel::ContentOnly
                | ChangeLevel::InterfaceChanged
                | ChangeLevel::ContentChanged
        )
    }
}

/// The parsed code facts of a source file.
pub struct Code {
    pub language: Language,
    pub interface: Interface,
}

/// One source file after the scan.
pub struct Scanned {
    pub source: String,
    pub level: ChangeLevel,
    pub stat: Stat,
    pub source_hash: String,
    pub interface_hash: Option<String>,
    /// Parsed interface (only when the file was read and is code).
    pub code: Option<Code>,
    /// The source text, kept only when the design file will be (re)generated.
    pub text: Option<String>,
    /// Resolved project dependencies, sorted (from the cache when the file was not read).
    pub deps: Vec<String>,
    /// The design file text as read during the scan (for the D-061 re-check and merges).
    pub design_text: Option<String>,
    pub design: Option<DesignFile>,
    /// The design file's description, when known.
    pub description: Option<String>,
    pub warning: Option<String>,
    /// Answered from the stat/hash cache without reading anything.
    pub from_cache: bool,
}

/// Scan one in-scope source file. `exists` says whether a project-relative path is a project file.
/// `design_stat` is the design file's current stat (`None`: it does not exist). `bytes` is the
/// source's content when the caller already read it.
pub fn scan(
    project: &Project,
    cache: &Cache,
    source: &str,
    stat: Stat,
    design_stat: Option<Stat>,
    bytes: Option<Vec<u8>>,
    exists: &(dyn Fn(&str) -> bool + Sync),
) -> Scanned {
    let design_rel = design_path(source);
    let design_abs = project.abs(&design_rel);
    // The fast path: both the source and the design file are as the last update left them.
    if let Some(entry) = cache.entries.get(source) {
        // A dependency that no longer exists (moved, deleted) means the imports must be resolved
        // again, even though this file did not change.
        let deps_exist = entry.deps.iter().all(|dep| exists(dep));
        if deps_exist && entry.stat == stat && cache.stat_is_settled(&stat) {
            if let Some(cached_design) = entry.design {
                if design_stat == Some(cached_design) && cache.stat_is_settled(&cached_design) {
                    return Scanned {
                        source: source.to_string(),
                        level: ChangeLevel::Unchanged,
                        stat,
                        source_hash: entry.source_hash.clone(),
                        interface_hash: entry.interface_hash.clone(),
                        code: None,
                        text: None,
                        deps: entry.deps.clone(),
                        design_text: None,
                        design: None,
                        description: Some(entry.description.clone()),
                        warning: None,
                        from_cache: true,
                    };
                }
            }
        }
    }
    let mut scanned = scan_uncached(
        project,
        source,
        stat,
        &design_abs,
        &design_rel,
        design_stat.is_some(),
        bytes,
        exists,
    );
    // A skipped file still imports what it imported: keep the reverse index steady.
    if matches!(
        scanned.level,
        ChangeLevel::SkippedConflict | ChangeLevel::SkippedInvalid
    ) {
        if let Some(entry) = cache.entries.get(source) {
            scanned.deps = entry.deps.clone();
        }
    }
    scanned
}

#[allow(clippy::too_many_arguments)]
fn scan_uncached(
    project: &Project,
    source: &str,
    stat: Stat,
    design_abs: &Path,
    design_rel: &str,
    design_exists: bool,
    bytes: Option<Vec<u8>>,
    exists: &(dyn Fn(&str) -> bool + Sync),
) -> Scanned {
    let mut scanned = Scanned {
        source: source.to_string(),
        level: ChangeLevel::Unchanged,
        stat,
        source_hash: String::new(),
        interface_hash: None,
        code: None,
        text: None,
        deps: Vec::new(),
        design_text: None,
        design: None,
        description: None,
        warning: None,
        from_cache: false,
    };
    let bytes = match bytes.map_or_else(|| std::fs::read(project.abs(source)), Ok) {
        Ok(bytes) => bytes,
        Err(err) => {
            scanned.level = ChangeLevel::SkippedInvalid;
            scanned.warning = Some(format!("{source}: cannot read ({err}); skipped"));
            return scanned;
        }
    };
    scanned.source_hash = sha256_hex(&bytes);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    drop(bytes);

    if has_conflict_markers(&text) {
        scanned.level = ChangeLevel::SkippedConflict;
        scanned.warning = Some(format!(
            "{source}: has unresolved merge-conflict markers; skipped until they are resolved"
        ));
        return scanned;
    }

    let language = Language::from_path(Path::new(source))
        .filter(|language| language.enabled_in(&project.config));
    if let Some(language) = language {
        match extract(language, &text) {
            Ok(interface) => {
                scanned.interface_hash = Some(interface.hash());
                scanned.deps = crate::source::resolve_imports(source, &interface, exists);
                scanned.code = Some(Code {
                    language,
                    interface,
                });
            }
            Err(err) => {
                scanned.warning = Some(format!(
                    "{source}: could not be parsed as {} ({err}); documented by content hash only",
                    language.display_name()
                ));
            }
        }
    }

    // The caller stat'ed the mirror directory: a design file that was not there is not read.
    let design_text = match design_exists.then(|| std::fs::read_to_string(design_abs)) {
        None => None,
        Some(Ok(text)) => Some(text),
        Some(Err(err)) if err.kind() == std::io::ErrorKind::NotFound => None,
        Some(Err(err)) => {
            scanned.level = ChangeLevel::SkippedInvalid;
            scanned.warning = Some(format!("{design_rel}: cannot read ({err}); skipped"));
            return scanned;
        }
    };
    let Some(design_text) = design_text else {
        scanned.level = ChangeLevel::New;
        scanned.text = Some(text);
        return scanned;
    };
    let design = match DesignFile::parse(design_rel, &design_text) {
        Ok(design) => design,
        Err(err) => {
            scanned.level = ChangeLevel::SkippedInvalid;
            scanned.warning = Some(format!(
                "{err} — fix it by hand; the update never overwrites a design file it cannot read"
            ));
            scanned.design_text = Some(design_text);
            return scanned;
        }
    };
    scanned.description = Some(design.frontmatter.description.clone());
    scanned.level = match &design.footer {
        None => ChangeLevel::AgentUpdated,
        Some(footer) if !is_unedited(&design_text, footer) => ChangeLevel::AgentUpdated,
        Some(footer) if footer.source_hash == scanned.source_hash => ChangeLevel::Unchanged,
        Some(footer) => match (&scanned.interface_hash, &footer.interface_hash) {
            (Some(new), Some(old)) if new == old => ChangeLevel::ContentOnly,
            (Some(_), _) => ChangeLevel::InterfaceChanged,
            (None, _) => ChangeLevel::ContentChanged,
        },
    };
    if scanned.level.regenerates() {
        scanned.text = Some(text);
    }
    scanned.design_text = Some(design_text);
    scanned.design = Some(design);
    scanned
}

/// Git's conflict markers at the start of a line: `<<<<<<< `, `=======`, `>>>>>>> `.
pub fn has_conflict_markers(text: &str) -> bool {
    let mut open = false;
    for line in text.lines() {
        if line.starts_with("<<<<<<< ") || line == "<<<<<<<" {
            open = true;
        } else if open && (line.starts_with(">>>>>>> ") || line == ">>>>>>>") {
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conflict_markers_need_an_open_and_a_close() {
        assert!(has_conflict_markers(
            "a\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> branch\n"
        ));
        assert!(!has_conflict_markers("// <<<<<<< not at line start\n"));
        assert!(!has_conflict_markers("<<<<<<< only an opener\n"));
    }
}
