//! One source file after the scan: what the update knows about it and its change level (seed §7,
//! DESIGN §4).
//!
//! A scan reads a source file only when the stat/hash cache cannot vouch for it, hashes it, parses
//! its interface when it is code, and compares with the design file's footer:
//!
//! | level | meaning | action |
//! |---|---|---|
//! | UNCHANGED | source matches the footer | nothing (perhaps a Dependents refresh) |
//! | NEW | no design file | generate |
//! | CONTENT_ONLY | code changed, interface did not | refresh, keep the Interface Contract |
//! | INTERFACE_CHANGED | public signatures changed | regenerate owned sections |
//! | CONTENT_CHANGED | a non-code file changed | regenerate owned sections |
//! | AGENT_UPDATED | design file edited by hand (or has no footer) | refresh footer hashes only |
//! | SKIPPED_CONFLICT | git holds the source unmerged (outside git: a marker triple, `conflicts`) | skip, warn |
//! | SKIPPED_INVALID | design file cannot be parsed (or a file cannot be read) | skip, warn |
//! | DELETED | source gone | remove the design file, unless edited by hand |
//! | RENAMED | source moved | move the design file, keeping its content |
//!
//! A [`Scanned`] file carries what every level has (path, stat, [`Facts`]) and a [`FileState`] that
//! holds exactly what its level needs: the source text only when the Archivist will write, the design
//! file only when one was read.

use std::path::Path;
use std::sync::Arc;

use super::conflicts::Conflicts;
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
    /// Shared with the resolution of other files' imports (Rust re-exports go through it).
    pub interface: Arc<Interface>,
}

/// The source as read, kept only when the Archivist will write its design file. A design file is
/// written from its source alone (and the graph): never from another file's text, such as a README,
/// which a run that did not look at that file could not follow (DESIGN §10).
pub struct Source {
    pub text: String,
}

/// A design file as read during the scan (for the D-061 re-check, merges and refreshes).
#[derive(Clone)]
pub struct Existing {
    pub text: String,
    pub design: DesignFile,
}

impl Existing {
    /// Whether the text is exactly what a generator wrote (its footer's design hash holds).
    pub fn is_unedited(&self) -> bool {
        self.design
            .footer
            .as_ref()
            .is_some_and(|footer| is_unedited(&self.text, footer))
    }
}

/// What every scanned file has, whatever its level.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Facts {
    pub source_hash: String,
    /// For code files.
    pub interface_hash: Option<String>,
    /// Resolved project dependencies, sorted (from the cache when the file was not read).
    pub deps: Vec<String>,
    /// Module files the resolution went through (Rust re-exports), sorted.
    pub via: Vec<String>,
    /// Rust: the `#[macro_export]` macros the file defines.
    pub macros: Vec<String>,
    /// Code files: the bare names of every public item ([`Interface::public_names`]).
    pub symbols: Vec<String>,
    /// The external packages it imports, by name, sorted (from the cache when the file was not read).
    pub externals: Vec<String>,
    /// The deps imported only for the type checker (Python `if TYPE_CHECKING:`), sorted.
    pub type_deps: Vec<String>,
    /// Code files: each member's calls, encoded (`cache::Entry::calls`).
    pub calls: Vec<String>,
    /// Code files: whether it has a module doc comment.
    pub documented: bool,
    /// Rust files: what their importers' resolution reads of them
    /// ([`crate::source::Interface::module_scope_hash`]).
    pub scope_hash: String,
    /// Rust files: what their own resolution reads of them besides their module scope
    /// ([`crate::source::Interface::imports_hash`]).
    pub imports_hash: String,
}

/// What the scan found, by level. A design file as read is boxed: the files of a cold run have none,
/// and an inline one would make every scanned file ~330 bytes bigger (33 MB at 100,000 files).
pub enum FileState {
    /// The cache vouches for the source and the design file: nothing was read.
    Cached { description: String },
    /// Read; the design file's footer matches the source.
    Unchanged { existing: Box<Existing> },
    /// No design file yet.
    New { source: Source },
    /// The Archivist's design file is out of date (CONTENT_ONLY, INTERFACE_CHANGED, CONTENT_CHANGED).
    Changed {
        level: ChangeLevel,
        source: Source,
        existing: Box<Existing>,
    },
    /// The design file was edited by an agent or a human (or has no footer): trust it.
    AgentUpdated { existing: Box<Existing> },
    /// A new file that took over a vanished file's design file (`existing` already names the new
    /// path in its title).
    Renamed {
        from: String,
        existing: Box<Existing>,
        source: Source,
    },
    /// Left alone this run: conflict markers, or something that cannot be read or parsed.
    Skipped { level: ChangeLevel },
    /// A test file outside the scope roots: no design file, but its imports count (the Tests of
    /// what it tests). `cached`: the cache vouched for it, nothing was read.
    Referenced { cached: bool },
}

/// One source file after the scan.
pub struct Scanned {
    pub source: String,
    pub stat: Stat,
    pub facts: Facts,
    pub state: FileState,
    /// The parsed interface, when the file was read and is code in an enabled language.
    pub code: Option<Code>,
    /// Its imports were resolved in this run (read, or resolved again because what they went
    /// through changed): `facts.deps` may differ from what its design file lists.
    pub resolved_now: bool,
    /// Mapped `abridged` (`project::mapping`): the Archivist writes the interface only.
    pub abridged: bool,
    /// The token budget its design file's content must keep within (`token_budgets`; 0 = none).
    pub budget_tokens: usize,
    pub warning: Option<String>,
    /// Why the source or its design file could not be read (permissions, a symlink, an I/O
    /// error): a per-file failure — the file is skipped, the run goes on and exits 1.
    pub error: Option<String>,
}

impl Scanned {
    /// A file as the scan first sees it: its facts and state, nothing parsed, read or decided yet.
    pub(super) fn new(source: &str, stat: Stat, facts: Facts, state: FileState) -> Scanned {
        Scanned {
            source: source.to_string(),
            stat,
            facts,
            state,
            code: None,
            resolved_now: false,
            abridged: false,
            budget_tokens: 0,
            warning: None,
            error: None,
        }
    }

    pub fn level(&self) -> ChangeLevel {
        match &self.state {
            FileState::Cached { .. } | FileState::Unchanged { .. } => ChangeLevel::Unchanged,
            FileState::New { .. } => ChangeLevel::New,
            FileState::Changed { level, .. } | FileState::Skipped { level } => *level,
            FileState::AgentUpdated { .. } => ChangeLevel::AgentUpdated,
            FileState::Renamed { .. } => ChangeLevel::Renamed,
            FileState::Referenced { .. } => ChangeLevel::Unchanged,
        }
    }

    /// A test file read only for its imports (no design file).
    pub fn is_referenced(&self) -> bool {
        matches!(self.state, FileState::Referenced { .. })
    }

    /// Answered from the stat/hash cache without reading anything.
    pub fn from_cache(&self) -> bool {
        matches!(
            self.state,
            FileState::Cached { .. } | FileState::Referenced { cached: true }
        )
    }

    /// The design file as read, when one was.
    pub fn existing(&self) -> Option<&Existing> {
        match &self.state {
            FileState::Unchanged { existing }
            | FileState::Changed { existing, .. }
            | FileState::AgentUpdated { existing }
            | FileState::Renamed { existing, .. } => Some(&**existing),
            _ => None,
        }
    }

    /// The source as read, when the Archivist may write.
    pub fn source_read(&self) -> Option<&Source> {
        match &self.state {
            FileState::New { source }
            | FileState::Changed { source, .. }
            | FileState::Renamed { source, .. } => Some(source),
            _ => None,
        }
    }

    /// The parsed interface, when the file was read and is code.
    pub fn code(&self) -> Option<&Code> {
        self.code.as_ref()
    }

    /// The design file's description, when known.
    pub fn description(&self) -> Option<&str> {
        match &self.state {
            FileState::Cached { description } => Some(description),
            _ => self
                .existing()
                .map(|existing| existing.design.frontmatter.description.as_str()),
        }
    }

    /// Whether the Archivist (re)writes this file's owned sections: a regenerating level, or a move
    /// of a design file nobody edited.
    pub fn archivist_writes(&self) -> bool {
        match &self.state {
            FileState::New { .. } | FileState::Changed { .. } => true,
            FileState::Renamed { existing, .. } => existing.is_unedited(),
            _ => false,
        }
    }

    /// Turn a NEW file into the new home of `from`'s design file (`existing` as read at the old
    /// path). Anything but a NEW file is left as it is.
    pub fn take_over(&mut self, from: &str, existing: &Existing) {
        let placeholder = FileState::Skipped {
            level: ChangeLevel::Renamed,
        };
        let source = match std::mem::replace(&mut self.state, placeholder) {
            FileState::New { source } => source,
            other => {
                self.state = other;
                return;
            }
        };
        let mut design = existing.design.clone();
        if design.body.title.as_deref() == Some(from) {
            design.body.title = Some(self.source.clone());
        }
        self.state = FileState::Renamed {
            from: from.to_string(),
            existing: Box::new(Existing {
                text: existing.text.clone(),
                design,
            }),
            source,
        };
    }
}

/// What every scan of one run shares.
pub struct ScanContext<'a> {
    pub project: &'a Project,
    pub cache: &'a Cache,
    /// Whether a project-relative path is a project file.
    pub exists: &'a (dyn Fn(&str) -> bool + Sync),
    /// Which files are in a merge conflict.
    pub conflicts: &'a Conflicts,
}

/// Scan one in-scope source file. `design_stat` is the design file's current stat (`None`: it does
/// not exist). `bytes` is the source's content when the caller already read it. A file git holds
/// in conflict is read (never answered from the cache) and skipped.
pub fn scan(
    ctx: &ScanContext<'_>,
    source: &str,
    stat: Stat,
    design_stat: Option<Stat>,
    bytes: Option<Vec<u8>>,
) -> Scanned {
    let cache = ctx.cache;
    if !ctx.conflicts.in_git(source) {
        if let Some(cached) = from_cache(cache, source, stat, design_stat, ctx.exists) {
            return cached;
        }
        if let Some(unchanged) = design_verified(ctx, source, stat, design_stat) {
            return unchanged;
        }
    }
    let mut scanned = read_and_compare(ctx, source, stat, design_stat.is_some(), bytes);
    // A skipped file still imports what it imported: keep the reverse index steady.
    if matches!(scanned.state, FileState::Skipped { .. }) {
        if let Some(entry) = cache.entries.get(source) {
            scanned.facts.deps = entry.deps.clone();
            scanned.facts.via = entry.via.clone();
            scanned.facts.externals = entry.details.get().externals.clone();
            scanned.facts.type_deps = entry.details.get().type_deps.clone();
        }
    }
    scanned
}

/// Scan a test file outside the scope roots for its imports: from the cache when it vouches for it
/// (and nothing it imported vanished), else read and parsed.
pub fn scan_referenced(
    project: &Project,
    cache: &Cache,
    source: &str,
    stat: Stat,
    exists: &(dyn Fn(&str) -> bool + Sync),
) -> Scanned {
    let cached = cache.entries.get(source).filter(|entry| {
        entry.stat == stat
            && cache.stat_is_settled(&stat)
            && entry.design.is_none()
            && !entry.source_hash.is_empty()
            && entry.deps.iter().chain(&entry.via).all(|dep| exists(dep))
    });
    let mut scanned = Scanned::new(
        source,
        stat,
        cached.map(Facts::of).unwrap_or_default(),
        FileState::Referenced {
            cached: cached.is_some(),
        },
    );
    if cached.is_none() {
        // Unreadable (or a symlink): it only adds edges, so it is left out quietly.
        if let Ok(bytes) = project.read(source) {
            scanned.facts.source_hash = sha256_hex(&bytes);
            let text = String::from_utf8_lossy(&bytes);
            scanned.code = parse_code(project, &mut scanned, &text);
        }
    }
    scanned
}

impl Facts {
    /// What the cache remembers of a file.
    pub fn of(entry: &crate::workspace::cache::Entry) -> Facts {
        let details = entry.details.get();
        Facts {
            source_hash: entry.source_hash.clone(),
            interface_hash: entry.interface_hash.clone(),
            deps: entry.deps.clone(),
            via: entry.via.clone(),
            macros: entry.macros.clone(),
            symbols: details.symbols.clone(),
            externals: details.externals.clone(),
            type_deps: details.type_deps.clone(),
            calls: details.calls.clone(),
            documented: details.documented,
            scope_hash: details.scope_hash.clone(),
            imports_hash: details.imports_hash.clone(),
        }
    }
}

/// The fast path: both the source and the design file are as the last update left them.
fn from_cache(
    cache: &Cache,
    source: &str,
    stat: Stat,
    design_stat: Option<Stat>,
    exists: &(dyn Fn(&str) -> bool + Sync),
) -> Option<Scanned> {
    let entry = cache.entries.get(source)?;
    // A dependency that no longer exists (moved, deleted) means the imports must be resolved
    // again, even though this file did not change.
    let deps_exist = entry.deps.iter().chain(&entry.via).all(|dep| exists(dep));
    let cached_design = entry.design?;
    let settled = deps_exist
        && entry.stat == stat
        && cache.stat_is_settled(&stat)
        && design_stat == Some(cached_design)
        && cache.stat_is_settled(&cached_design);
    settled.then(|| {
        Scanned::new(
            source,
            stat,
            Facts::of(entry),
            FileState::Cached {
                description: entry.details.get().description.clone(),
            },
        )
    })
}

/// The cache vouches for the source but not for its design file — most often because the run
/// that wrote the design file saved the cache within the racy window, so the design file's stat
/// was smudged: the design file is read (the source is not, nor parsed) and, when it is exactly
/// what the tool wrote for this very source (its design hash holds, its footer names the cached
/// source and interface hashes), the file is UNCHANGED with the cache's facts. That keeps the
/// first update after a large one (and after committing its library) a matter of reading design
/// files, not of parsing the tree again.
fn design_verified(
    ctx: &ScanContext<'_>,
    source: &str,
    stat: Stat,
    design_stat: Option<Stat>,
) -> Option<Scanned> {
    let cache = ctx.cache;
    let entry = cache.entries.get(source)?;
    let source_settled = entry.stat == stat
        && cache.stat_is_settled(&stat)
        && !entry.source_hash.is_empty()
        && entry
            .deps
            .iter()
            .chain(&entry.via)
            .all(|dep| (ctx.exists)(dep));
    if !source_settled || design_stat.is_none() || entry.design.is_none() {
        return None;
    }
    let design_rel = design_path(source);
    let text = ctx.project.read_to_string(&design_rel).ok()?;
    let design = DesignFile::parse(&design_rel, &text).ok()?;
    let footer = design.footer.as_ref()?;
    let verified = is_unedited(&text, footer)
        && footer.source_hash == entry.source_hash
        && footer.interface_hash == entry.interface_hash;
    verified.then(|| {
        Scanned::new(
            source,
            stat,
            Facts::of(entry),
            FileState::Unchanged {
                existing: Box::new(Existing { text, design }),
            },
        )
    })
}

/// Read the source (and its design file, if there is one) and decide the level.
fn read_and_compare(
    ctx: &ScanContext<'_>,
    source: &str,
    stat: Stat,
    design_exists: bool,
    bytes: Option<Vec<u8>>,
) -> Scanned {
    let mut scanned = Scanned::new(
        source,
        stat,
        Facts::default(),
        FileState::Skipped {
            level: ChangeLevel::SkippedInvalid,
        },
    );
    let project = ctx.project;
    let bytes = match bytes.map_or_else(|| project.read(source), Ok) {
        Ok(bytes) => bytes,
        Err(err) => {
            scanned.error = Some(read_failure(source, &err));
            return scanned;
        }
    };
    scanned.facts.source_hash = sha256_hex(&bytes);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    drop(bytes);
    if ctx.conflicts.holds(source, &text) {
        scanned.state = FileState::Skipped {
            level: ChangeLevel::SkippedConflict,
        };
        scanned.warning = Some(ctx.conflicts.reason(source));
        return scanned;
    }
    scanned.code = parse_code(project, &mut scanned, &text);
    let source_read = Source { text };
    let design_rel = design_path(source);
    match read_design(project, &design_rel, design_exists) {
        Err(Unreadable::Io(reason)) => scanned.error = Some(reason),
        Err(Unreadable::Invalid(warning)) => scanned.warning = Some(warning),
        Ok(None) => {
            scanned.state = FileState::New {
                source: source_read,
            }
        }
        Ok(Some(existing)) => compare(&mut scanned, existing, source_read),
    }
    scanned
}

/// The source of a file the scan answered from the cache, read again to write its design file,
/// with its parsed code: `None` when it cannot be read or is no longer what the scan saw.
pub fn read_again(project: &Project, scanned: &Scanned) -> Option<(Source, Option<Code>)> {
    let bytes = project.read(&scanned.source).ok()?;
    if sha256_hex(&bytes) != scanned.facts.source_hash {
        return None;
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let code = Language::from_path(Path::new(&scanned.source))
        .filter(|language| language.enabled_in(&project.config))
        .and_then(|language| {
            let interface = extract(language, &text).ok()?;
            Some(Code {
                language,
                interface: Arc::new(interface),
            })
        });
    Some((Source { text }, code))
}

/// Parse the interface of a code file in an enabled language (its imports are resolved in the
/// next stage); a parse error is a warning (the file is then documented by content hash only).
fn parse_code(project: &Project, scanned: &mut Scanned, text: &str) -> Option<Code> {
    let language = Language::from_path(Path::new(&scanned.source))
        .filter(|language| language.enabled_in(&project.config))?;
    match extract(language, text) {
        Ok(interface) => {
            scanned.facts.interface_hash = Some(interface.hash());
            scanned.facts.macros = interface.exported_macros();
            scanned.facts.symbols = interface.searchable_names();
            scanned.facts.calls = interface.calls.iter().map(|m| m.encode()).collect();
            scanned.facts.documented = interface.doc.is_some();
            scanned.facts.scope_hash = interface.module_scope_hash();
            scanned.facts.imports_hash = interface.imports_hash();
            if !interface.calls.is_empty() && !interface.type_refs.is_empty() {
                let types = crate::source::calls::encode_types(&interface.type_refs);
                scanned.facts.calls.push(types);
            }
            for (class, bases) in &interface.bases {
                let item = crate::source::calls::encode_bases(class, bases);
                scanned.facts.calls.push(item);
            }
            if !interface.returns.is_empty() {
                let item = crate::source::calls::encode_returns(&interface.returns);
                scanned.facts.calls.push(item);
            }
            let std_modules = interface.std_modules();
            if !interface.calls.is_empty() && !std_modules.is_empty() {
                let item = crate::source::calls::encode_std_modules(&std_modules);
                scanned.facts.calls.push(item);
            }
            let reexported = interface.reexported_names();
            if !reexported.is_empty() {
                let item = crate::source::calls::encode_reexports(&reexported);
                scanned.facts.calls.push(item);
            }
            Some(Code {
                language,
                interface: Arc::new(interface),
            })
        }
        Err(err) => {
            scanned.warning = Some(format!(
                "{}: could not be parsed as {} ({err}); documented by content hash only",
                scanned.source,
                language.display_name()
            ));
            None
        }
    }
}

/// Why a design file was not read: it could not be (a failure), or it does not parse (a warning).
enum Unreadable {
    Io(String),
    Invalid(String),
}

/// The reason a file could not be read: a refused symlink says so itself.
fn read_failure(rel: &str, err: &std::io::Error) -> String {
    if crate::nofollow::is_refused(err) {
        err.to_string()
    } else {
        format!("{rel}: cannot read: {err}")
    }
}

/// The design file at `design_rel`, parsed: `Ok(None)` when there is none, an error when it cannot
/// be read or parsed (the file is then skipped, never overwritten).
fn read_design(
    project: &Project,
    design_rel: &str,
    design_exists: bool,
) -> Result<Option<Existing>, Unreadable> {
    // The caller stat'ed the mirror directory: a design file that was not there is not read.
    if !design_exists {
        return Ok(None);
    }
    // Never past the size a library file may have: a 32 MB design file is skipped, not read.
    let text = match project.read_library_text(design_rel) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err)
            if matches!(
                err.kind(),
                std::io::ErrorKind::InvalidData | std::io::ErrorKind::FileTooLarge
            ) =>
        {
            return Err(Unreadable::Invalid(format!(
                "{err} — fix it by hand; the update never overwrites a design file it cannot read"
            )))
        }
        Err(err) => return Err(Unreadable::Io(read_failure(design_rel, &err))),
    };
    match DesignFile::parse(design_rel, &text) {
        Ok(design) => Ok(Some(Existing { text, design })),
        Err(err) => Err(Unreadable::Invalid(format!(
            "{err} — fix it by hand; the update never overwrites a design file it cannot read"
        ))),
    }
}

/// The level of a file that has a design file: agent-edited, unchanged, or which kind of change.
fn compare(scanned: &mut Scanned, existing: Existing, source: Source) {
    let level = match &existing.design.footer {
        None => ChangeLevel::AgentUpdated,
        Some(_) if !existing.is_unedited() => ChangeLevel::AgentUpdated,
        Some(footer) if footer.source_hash == scanned.facts.source_hash => ChangeLevel::Unchanged,
        Some(footer) => match (&scanned.facts.interface_hash, &footer.interface_hash) {
            (Some(new), Some(old)) if new == old => ChangeLevel::ContentOnly,
            (Some(_), _) => ChangeLevel::InterfaceChanged,
            (None, _) => ChangeLevel::ContentChanged,
        },
    };
    let existing = Box::new(existing);
    scanned.state = match level {
        ChangeLevel::AgentUpdated => FileState::AgentUpdated { existing },
        ChangeLevel::Unchanged => FileState::Unchanged { existing },
        level => FileState::Changed {
            level,
            source,
            existing,
        },
    };
}

#[cfg(test)]
mod level_tests {
    use super::*;
    use crate::engine::update::testing::TestProject;

    const LIB: &str = "pub fn a() {}\n";

    #[test]
    fn levels_follow_the_source_and_the_design_file() {
        let p = TestProject::new(&[("src/lib.rs", LIB)]);
        let all = ["src/lib.rs"];
        assert_eq!(p.scan("src/lib.rs", &all).level(), ChangeLevel::New);
        p.generate("src/lib.rs", &all);
        let unchanged = p.scan("src/lib.rs", &all);
        assert_eq!(unchanged.level(), ChangeLevel::Unchanged);
        assert!(unchanged.existing().is_some() && unchanged.source_read().is_none());

        p.write("src/lib.rs", "pub fn a() { let _ = 1; }\n");
        let body_only = p.scan("src/lib.rs", &all);
        assert_eq!(body_only.level(), ChangeLevel::ContentOnly);
        assert!(body_only.archivist_writes() && body_only.source_read().is_some());

        p.write("src/lib.rs", "pub fn b() {}\n");
        assert_eq!(
            p.scan("src/lib.rs", &all).level(),
            ChangeLevel::InterfaceChanged
        );

        let design = p.read(".lexibrary/src/lib.rs.md");
        p.write(
            ".lexibrary/src/lib.rs.md",
            &design.replace("# src/lib.rs", "# src/lib.rs\n\nAn agent's note."),
        );
        let edited = p.scan("src/lib.rs", &all);
        assert_eq!(edited.level(), ChangeLevel::AgentUpdated);
        assert!(!edited.archivist_writes());
    }

    #[test]
    fn conflicts_and_unreadable_design_files_are_skipped_with_a_warning() {
        let p = TestProject::new(&[(
            "a.py",
            "<<<<<<< HEAD\nx = 1\n=======\nx = 2\n>>>>>>> other\n",
        )]);
        let conflicted = p.scan("a.py", &["a.py"]);
        assert_eq!(conflicted.level(), ChangeLevel::SkippedConflict);
        assert!(conflicted
            .warning
            .is_some_and(|w| w.contains("merge-conflict")));

        p.write("b.py", "x = 1\n");
        p.write(".lexibrary/b.py.md", "---\n: [unclosed\n---\n");
        let invalid = p.scan("b.py", &["b.py"]);
        assert_eq!(invalid.level(), ChangeLevel::SkippedInvalid);
        assert!(invalid.warning.is_some());
    }

    #[test]
    fn a_new_file_takes_over_a_vanished_files_design_file() {
        let p = TestProject::new(&[("src/old.rs", LIB)]);
        p.generate("src/old.rs", &["src/old.rs"]);
        let old_text = p.read(".lexibrary/src/old.rs.md");
        let existing = Existing {
            design: DesignFile::parse("x", &old_text).expect("parse"),
            text: old_text,
        };
        p.write("src/new.rs", LIB);
        let mut moved = p.scan("src/new.rs", &["src/new.rs"]);
        moved.take_over("src/old.rs", &existing);
        assert_eq!(moved.level(), ChangeLevel::Renamed);
        assert!(
            moved.archivist_writes(),
            "nobody edited it: the Archivist rewrites it"
        );
        let title = moved.existing().and_then(|e| e.design.body.title.clone());
        assert_eq!(title.as_deref(), Some("src/new.rs"));
    }
}
