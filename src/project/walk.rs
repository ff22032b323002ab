//! Walking the source tree through every ignore layer.
//!
//! The walk never follows symlinks (so a symlink loop cannot trap it) and prunes ignored directories
//! before descending. Entries it cannot read become warnings, never errors: one unreadable directory
//! must not stop a run over twenty thousand files. A `.lexignore` that is a symlink is never read
//! through, and no ignore file that is a FIFO, a socket or a device is ever opened (it would block
//! or never end): its directory is not walked and the walk reports it in [`Walk::refused`], which
//! the update turns into an error before it writes anything.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex};

use ignore::{WalkBuilder, WalkState};

use super::config::Config;
use super::ignores::{ExtraIgnores, LEXIGNORE_FILE};
use super::paths::to_rel_string;

use crate::relpath::RelPath;

/// Whether an entry is a file or a directory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EntryKind {
    File,
    Dir,
}

/// One file or directory the walk kept.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Project-relative, `/`-separated.
    pub rel: String,
    pub kind: EntryKind,
    /// Size in bytes (0 for directories).
    pub size: u64,
    /// Modification time in nanoseconds since the Unix epoch (0 for directories or when unknown).
    pub mtime_ns: i128,
}

/// What a walk found, sorted by path, plus what it had to skip.
#[derive(Debug, Default)]
pub struct Walk {
    pub entries: Vec<Entry>,
    pub warnings: Vec<String>,
    /// Ignore files that are symlinks (`.lexignore`) or special files (project-relative): never
    /// read, their directories not walked. Not empty means the walk is incomplete.
    pub refused: Vec<String>,
}

/// Ignore files the walk must not read, met by its filter, shared between its threads.
type Refusals = Arc<Mutex<Vec<String>>>;

/// Whether directory `dir` holds an ignore file the walker must not read: a `.lexignore` that is a
/// symlink (it would be read through) or not a regular file, or — when `.gitignore` files are read —
/// a `.gitignore` that is a FIFO, a socket or a device, itself or at the end of its link (opening a
/// FIFO blocks until something writes to it; a device may never end). Such a file is looked at
/// without being opened ([`crate::nofollow::entry_type`]); if there is one, it is recorded in
/// `refusals` and the directory is not entered.
fn unreadable_ignore_file(dir: &Path, rel: &str, use_gitignore: bool, refusals: &Refusals) -> bool {
    use rustix::fs::FileType;
    let lexignore = crate::nofollow::entry_type(&dir.join(LEXIGNORE_FILE))
        .is_some_and(|kind| kind != FileType::RegularFile);
    let gitignore = use_gitignore && {
        let path = dir.join(GITIGNORE_FILE);
        match crate::nofollow::entry_type(&path) {
            None | Some(FileType::RegularFile) => false,
            // A link to a regular file is read as git's own tools read it; a link to anything
            // else is looked at (stat), never opened.
            Some(FileType::Symlink) => std::fs::metadata(&path).is_ok_and(|meta| !meta.is_file()),
            Some(_) => true,
        }
    };
    for (refused, name) in [(lexignore, LEXIGNORE_FILE), (gitignore, GITIGNORE_FILE)] {
        if !refused {
            continue;
        }
        let shown = RelPath::new(rel).join(name).into_string();
        if let Ok(mut found) = refusals.lock() {
            found.push(shown);
        }
    }
    lexignore || gitignore
}

/// git's ignore file, read in every directory when `ignore.use_gitignore` is on.
const GITIGNORE_FILE: &str = ".gitignore";

/// The message for ignore files the walk refused to read, for callers that must stop.
pub fn refusal_message(refused: &[String]) -> String {
    format!(
        "{} is a symbolic link or not a regular file (a FIFO, a socket, a device); Lexibrarian never reads an ignore file through a link or from a special file (it could point out of the repository, or never end) — replace it with a regular file",
        refused.join(", ")
    )
}

/// Build the walker shared by every traversal so that all of them agree on what is ignored.
fn builder(
    root: &Path,
    config: &Config,
    extra: Arc<ExtraIgnores>,
    refusals: Refusals,
) -> WalkBuilder {
    let mut builder = WalkBuilder::new(root);
    builder
        .hidden(false)
        .parents(false)
        .follow_links(false)
        .require_git(false)
        .git_global(false)
        .git_ignore(config.ignore.use_gitignore)
        .git_exclude(config.ignore.use_gitignore)
        .ignore(false)
        .add_custom_ignore_filename(LEXIGNORE_FILE);
    let root_owned = root.to_path_buf();
    let use_gitignore = config.ignore.use_gitignore;
    builder.filter_entry(move |entry| {
        let Ok(rel) = entry.path().strip_prefix(&root_owned) else {
            return true;
        };
        match to_rel_string(rel) {
            Some(rel) => {
                let is_dir = entry.file_type().is_some_and(|kind| kind.is_dir());
                if extra.is_ignored_walked(&rel, is_dir) {
                    return false;
                }
                !(is_dir && unreadable_ignore_file(entry.path(), &rel, use_gitignore, &refusals))
            }
            // Non-UTF-8 names are reported by the visitor, not silently dropped here.
            None => true,
        }
    });
    builder
}

/// Walk the whole project (in parallel) and return every kept file and directory, sorted by path.
pub fn walk_project(root: &Path, config: &Config) -> Walk {
    let (extra, mut warnings) = ExtraIgnores::new(root, config);
    let refusals = Refusals::default();
    if unreadable_ignore_file(root, "", config.ignore.use_gitignore, &refusals) {
        return refused_walk(refusals, warnings);
    }
    let collected = Arc::new(Mutex::new(Walk::default()));
    let walker = builder(root, config, Arc::new(extra), Arc::clone(&refusals)).build_parallel();
    walker.run(|| {
        let collected = Arc::clone(&collected);
        let root = root.to_path_buf();
        Box::new(move |result| {
            let outcome = visit(&root, result);
            if let Ok(mut walk) = collected.lock() {
                match outcome {
                    Visit::Keep(entry) => walk.entries.push(entry),
                    Visit::Warn(message) => walk.warnings.push(message),
                    Visit::Skip => {}
                }
            }
            WalkState::Continue
        })
    });
    let mut walk = match Arc::try_unwrap(collected) {
        Ok(mutex) => mutex.into_inner().unwrap_or_default(),
        Err(shared) => shared
            .lock()
            .map(|walk| Walk {
                entries: walk.entries.clone(),
                warnings: walk.warnings.clone(),
                refused: Vec::new(),
            })
            .unwrap_or_default(),
    };
    warnings.append(&mut walk.warnings);
    walk.warnings = warnings;
    walk.warnings.sort();
    walk.entries.sort_by(|a, b| a.rel.cmp(&b.rel));
    drop_directories_without_files(&mut walk.entries);
    walk.refused = take_refusals(&refusals);
    walk
}

/// Keep only the directories a kept file lies below. git keeps no empty directory, so one that
/// holds nothing (left by a move, or holding only ignored files) is not in another clone of the
/// same tree: the library must not depend on it.
fn drop_directories_without_files(entries: &mut Vec<Entry>) {
    let mut holding = HashSet::new();
    for entry in entries.iter().filter(|entry| entry.kind == EntryKind::File) {
        mark_holding(&mut holding, &entry.rel);
    }
    entries.retain(|entry| entry.kind == EntryKind::File || holding.contains(&entry.rel));
}

/// A walk that stopped before it began: the root's `.lexignore` is a symlink.
fn refused_walk(refusals: Refusals, warnings: Vec<String>) -> Walk {
    Walk {
        entries: Vec::new(),
        warnings,
        refused: take_refusals(&refusals),
    }
}

fn take_refusals(refusals: &Refusals) -> Vec<String> {
    let mut refused = refusals
        .lock()
        .map(|mut refused| std::mem::take(&mut *refused))
        .unwrap_or_default();
    refused.sort();
    refused.dedup();
    refused
}

/// The immediate children of project-relative directory `dir`, through the same ignore layers as a
/// full walk (ancestor `.gitignore`/`.lexignore` files apply), without walking anything else.
pub fn list_dir(root: &Path, config: &Config, dir: &str) -> Walk {
    let mut listings = list_dirs(root, config, [dir]);
    let refused = listings.refused_for(dir);
    Walk {
        entries: listings.children.remove(dir).unwrap_or_default(),
        warnings: listings.warnings,
        refused,
    }
}

/// The immediate children of many directories, read in one walk (see [`list_dirs`]).
#[derive(Debug, Default)]
pub struct Listings {
    /// Each asked-for directory's kept children, sorted by path (absent: it has none, or it does
    /// not survive the ignore layers).
    pub children: HashMap<String, Vec<Entry>>,
    /// Entries the walk could not read, and unreadable ignore files.
    pub warnings: Vec<String>,
    /// Every symlinked `.lexignore` the walk met (see [`Listings::refused_for`]).
    refused: Vec<String>,
}

impl Listings {
    /// The symlinked `.lexignore` files that make the listing of `dir` incomplete: in `dir`, in one
    /// of its ancestors, or in one of its direct subdirectories — what [`list_dir`] of `dir` alone
    /// reports.
    pub fn refused_for(&self, dir: &str) -> Vec<String> {
        self.refused
            .iter()
            .filter(|file| {
                let holder = RelPath::new(file).dir();
                holder == dir
                    || is_ancestor(holder, dir)
                    || (!holder.is_empty() && RelPath::new(holder).dir() == dir)
            })
            .cloned()
            .collect()
    }
}

/// The immediate children of every directory of `dirs` in one walk through the ignore layers: the
/// ancestors of the asked-for directories are walked, their other children are only seen, so the cost
/// is linear in what the directories hold — not, as one [`list_dir`] per directory would be, in the
/// number of siblings times the number of directories.
///
/// A child directory is listed only when a kept file lies somewhere below it, as in
/// [`walk_project`]: the walk looks into it until it meets the first such file and no further.
pub fn list_dirs<'a>(
    root: &Path,
    config: &Config,
    dirs: impl IntoIterator<Item = &'a str>,
) -> Listings {
    let (extra, warnings) = ExtraIgnores::new(root, config);
    let refusals = Refusals::default();
    let mut listings = Listings {
        warnings,
        ..Listings::default()
    };
    let use_gitignore = config.ignore.use_gitignore;
    if unreadable_ignore_file(root, "", use_gitignore, &refusals) {
        listings.refused = take_refusals(&refusals);
        return listings;
    }
    let targets: HashSet<String> = dirs.into_iter().map(str::to_string).collect();
    let mut on_the_way: HashSet<String> = HashSet::new();
    for target in &targets {
        let mut at = target.as_str();
        while on_the_way.insert(at.to_string()) && !at.is_empty() {
            at = RelPath::new(at).dir();
        }
    }
    let mut builder = builder(root, config, Arc::new(extra.clone()), Arc::clone(&refusals));
    let root_owned = root.to_path_buf();
    let filter_refusals = Arc::clone(&refusals);
    let filter_targets = targets.clone();
    // The targets' child directories known to hold a file: the walk looks no further into them.
    let holding: Arc<Mutex<HashSet<String>>> = Arc::default();
    let filter_holding = Arc::clone(&holding);
    builder.filter_entry(move |entry| {
        let Some(rel) = entry
            .path()
            .strip_prefix(&root_owned)
            .ok()
            .and_then(to_rel_string)
        else {
            return true;
        };
        let is_dir = entry.file_type().is_some_and(|kind| kind.is_dir());
        if extra.is_ignored_walked(&rel, is_dir) {
            return false;
        }
        let readable = || {
            !(is_dir && unreadable_ignore_file(entry.path(), &rel, use_gitignore, &filter_refusals))
        };
        // The ancestors of the targets, the targets and their direct children are listed.
        if on_the_way.contains(&rel) || filter_targets.contains(RelPath::new(&rel).dir()) {
            return readable();
        }
        // Below a target's child directory: looked at until that directory is known to hold a file.
        match probe_of(&rel, &filter_targets) {
            Some(probe) if !is_known_holding(&filter_holding, probe) => readable(),
            _ => false,
        }
    });
    for result in builder.build() {
        let entry = match visit(root, result) {
            Visit::Keep(entry) => entry,
            Visit::Skip => continue,
            Visit::Warn(message) => {
                listings.warnings.push(message);
                continue;
            }
        };
        if entry.kind == EntryKind::File {
            if let Ok(mut known) = holding.lock() {
                mark_holding(&mut known, &entry.rel);
            }
        }
        // What lies below a target's child directory was only looked at for a file.
        let parent = RelPath::new(&entry.rel).dir();
        if targets.contains(parent) {
            let parent = parent.to_string();
            listings.children.entry(parent).or_default().push(entry);
        }
    }
    let holding = std::mem::take(&mut *holding.lock().unwrap_or_else(|e| e.into_inner()));
    for entries in listings.children.values_mut() {
        entries.retain(|entry| entry.kind == EntryKind::File || holding.contains(&entry.rel));
        entries.sort_by(|a, b| a.rel.cmp(&b.rel));
    }
    listings.refused = take_refusals(&refusals);
    listings
}

/// The child directory of a target that `rel` lies below (`None` when `rel` is below no target).
fn probe_of<'r>(rel: &'r str, targets: &HashSet<String>) -> Option<&'r str> {
    let mut child = rel;
    let mut parent = RelPath::new(rel).dir();
    loop {
        if targets.contains(parent) {
            return Some(child);
        }
        if parent.is_empty() {
            return None;
        }
        child = parent;
        parent = RelPath::new(parent).dir();
    }
}

fn is_known_holding(holding: &Mutex<HashSet<String>>, dir: &str) -> bool {
    holding.lock().is_ok_and(|known| known.contains(dir))
}

/// Record that every directory above kept file `rel` holds a file.
fn mark_holding(known: &mut HashSet<String>, rel: &str) {
    let mut dir = RelPath::new(rel).dir();
    while !dir.is_empty() && known.insert(dir.to_string()) {
        dir = RelPath::new(dir).dir();
    }
}

/// Whether `ancestor` is a proper ancestor of `dir` (the root `""` is everyone's).
fn is_ancestor(ancestor: &str, dir: &str) -> bool {
    !dir.is_empty()
        && (ancestor.is_empty()
            || (dir.len() > ancestor.len()
                && dir.starts_with(ancestor)
                && dir.as_bytes()[ancestor.len()] == b'/'))
}

enum Visit {
    Keep(Entry),
    Warn(String),
    Skip,
}

fn visit(root: &Path, result: Result<ignore::DirEntry, ignore::Error>) -> Visit {
    let entry = match result {
        Ok(entry) => entry,
        Err(err) => return Visit::Warn(format!("skipped: {err}")),
    };
    let Ok(rel_path) = entry.path().strip_prefix(root) else {
        return Visit::Skip;
    };
    if rel_path.as_os_str().is_empty() {
        return Visit::Skip;
    }
    let Some(rel) = to_rel_string(rel_path) else {
        return Visit::Warn(format!(
            "skipped {}: the name is not valid UTF-8",
            entry.path().display()
        ));
    };
    let Some(file_type) = entry.file_type() else {
        return Visit::Skip;
    };
    if file_type.is_symlink() {
        return Visit::Skip;
    }
    if rel.contains('\n') {
        return Visit::Warn(format!(
            "skipped {rel:?}: names containing a newline are not supported"
        ));
    }
    if file_type.is_dir() {
        return Visit::Keep(Entry {
            rel,
            kind: EntryKind::Dir,
            size: 0,
            mtime_ns: 0,
        });
    }
    if !file_type.is_file() {
        return Visit::Skip;
    }
    let (size, mtime_ns) = entry.metadata().map_or((0, 0), |meta| {
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|time| time.duration_since(std::time::UNIX_EPOCH).ok())
            .map_or(0, |elapsed| elapsed.as_nanos() as i128);
        (meta.len(), mtime_ns)
    });
    Visit::Keep(Entry {
        rel,
        kind: EntryKind::File,
        size,
        mtime_ns,
    })
}

/// How a file is treated by content.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileClass {
    /// A text file small enough to document.
    Text,
    /// Binary by extension or by content (see [`sniff`]).
    Binary,
    /// Larger than `crawl.max_file_size_kb`.
    TooLarge,
    /// Text holding a private key or a high-confidence credential ([`crate::secrets`]): listed in
    /// its `.aindex` as secret, never documented, never sent to a model.
    Secret,
    /// Minified or bundled text: most of its head in lines of hundreds of characters
    /// ([`is_minified`]). Listed, not documented: nobody edits it by hand.
    Minified,
}

/// Classify project file `rel` by extension, size and (only when needed) its content, read without
/// following symlinks.
pub fn classify(project: &super::Project, rel: &str, size: u64) -> std::io::Result<FileClass> {
    let config = &project.config;
    if has_binary_extension(Path::new(rel), config) {
        return Ok(FileClass::Binary);
    }
    let limit = config.crawl.max_file_size_kb.saturating_mul(1024);
    if size > limit {
        return Ok(FileClass::TooLarge);
    }
    use std::io::Read;
    let mut bytes = Vec::new();
    crate::nofollow::open(&project.root, rel)?
        .take(limit)
        .read_to_end(&mut bytes)?;
    Ok(sniff(&bytes))
}

/// How many leading bytes [`sniff`] looks at to tell binary from text.
pub const SNIFF_BYTES: usize = 8192;

/// The one content sniffer. Binary when the first [`SNIFF_BYTES`] bytes hold a NUL, or do not read
/// as text: valid UTF-8 with few control characters, or (a legacy 8-bit encoding) mostly printable
/// ASCII. Text that holds secret material ([`crate::secrets::secret_material`], over all of `bytes`)
/// or is a credentials file by its content ([`crate::secrets::credentials_file`]: a kubeconfig, a
/// dotenv file with secrets, … whatever its name) is [`FileClass::Secret`]. Costs one pass over the
/// head and two regex passes over the file.
pub fn sniff(bytes: &[u8]) -> FileClass {
    if !looks_like_text(&bytes[..bytes.len().min(SNIFF_BYTES)]) {
        return FileClass::Binary;
    }
    if crate::secrets::secret_material(bytes).is_some()
        || crate::secrets::credentials_file(bytes).is_some()
    {
        return FileClass::Secret;
    }
    if is_minified(&bytes[..bytes.len().min(SNIFF_BYTES)]) {
        return FileClass::Minified;
    }
    FileClass::Text
}

/// Lines at least this long count as minified code.
const MINIFIED_LINE: usize = 500;
/// The smallest head judged: a short file with one long line is a data literal, not a bundle.
const MINIFIED_MIN_BYTES: usize = 2048;

/// Whether a text head looks minified or bundled: at least [`MINIFIED_MIN_BYTES`], and four fifths
/// of it in lines of [`MINIFIED_LINE`] characters or more (a one-line bundle, a source map, a
/// minified stylesheet). Hand-written code wraps long before that.
pub fn is_minified(head: &[u8]) -> bool {
    if head.len() < MINIFIED_MIN_BYTES {
        return false;
    }
    let long: usize = head
        .split(|byte| *byte == b'\n')
        .map(<[u8]>::len)
        .filter(|len| *len >= MINIFIED_LINE)
        .sum();
    long * 5 >= head.len() * 4
}

/// Whether `head` reads as text: no NUL, and either valid UTF-8 (a sequence cut off by the end of
/// the head is fine) with under 10% control characters, or at least 70% printable ASCII with under
/// 5% control characters. Random bytes without a NUL fail both (about 37% printable ASCII, and
/// almost never valid UTF-8 over more than a few bytes).
fn looks_like_text(head: &[u8]) -> bool {
    if head.contains(&0) {
        return false;
    }
    if head.is_empty() {
        return true;
    }
    let is_control = |byte: &u8| {
        (*byte < 0x20 && !matches!(byte, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b)) || *byte == 0x7f
    };
    let controls = head.iter().filter(|byte| is_control(byte)).count();
    let valid_utf8 = match std::str::from_utf8(head) {
        Ok(_) => true,
        // Only an incomplete sequence at the very end (the head cut a character in two).
        Err(err) => err.error_len().is_none() && head.len() - err.valid_up_to() < 4,
    };
    if valid_utf8 {
        return controls * 10 < head.len();
    }
    let printable = head
        .iter()
        .filter(|byte| (0x20..0x7f).contains(*byte) || matches!(byte, b'\t' | b'\n' | b'\r'))
        .count();
    printable * 10 >= head.len() * 7 && controls * 20 < head.len()
}

/// Whether the extension alone marks the file as binary.
pub fn has_binary_extension(path: &Path, config: &Config) -> bool {
    path.extension()
        .and_then(|ext| ext.to_str())
        .is_some_and(|ext| {
            config
                .crawl
                .binary_extensions
                .iter()
                .any(|binary| binary.eq_ignore_ascii_case(ext))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &[u8])]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for (rel, contents) in files {
            let path = dir.path().join(rel);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, contents).expect("write");
        }
        dir
    }

    fn files(walk: &Walk) -> Vec<&str> {
        walk.entries
            .iter()
            .filter(|entry| entry.kind == EntryKind::File)
            .map(|entry| entry.rel.as_str())
            .collect()
    }

    #[test]
    fn every_ignore_layer_applies_without_git() {
        let dir = tree(&[
            (".gitignore", b"target/\n*.log\n"),
            (".lexignore", b"gen/\n"),
            ("src/.lexignore", b"skip.rs\n"),
            ("src/a.rs", b""),
            ("src/skip.rs", b""),
            ("src/deep/b.rs", b""),
            ("target/debug/x.rs", b""),
            ("gen/out.rs", b""),
            ("run.log", b""),
            (".env.production", b"SECRET=1"),
            ("keys/server.pem", b""),
            (".aws/credentials", b""),
            ("vendor/lib.js", b""),
            (".git/config", b""),
            (".lexibrary/config.yaml", b""),
        ]);
        let config = Config {
            ignore: crate::project::config::IgnoreConfig {
                use_gitignore: true,
                additional_patterns: vec!["vendor/".into()],
            },
            ..Config::default()
        };
        let walk = walk_project(dir.path(), &config);
        assert_eq!(
            files(&walk),
            vec![
                ".gitignore",
                ".lexignore",
                "src/.lexignore",
                "src/a.rs",
                "src/deep/b.rs"
            ]
        );
        assert!(walk.warnings.is_empty(), "{:?}", walk.warnings);
    }

    #[test]
    fn use_gitignore_false_keeps_gitignored_files() {
        let dir = tree(&[(".gitignore", b"*.log\n"), ("run.log", b"")]);
        let mut config = Config::default();
        config.ignore.use_gitignore = false;
        assert!(files(&walk_project(dir.path(), &config)).contains(&"run.log"));
    }

    #[test]
    fn symlinks_are_not_followed_and_loops_are_harmless() {
        let dir = tree(&[("src/a.rs", b"")]);
        std::os::unix::fs::symlink("..", dir.path().join("src/up")).expect("symlink");
        std::os::unix::fs::symlink("a.rs", dir.path().join("src/alias.rs")).expect("symlink");
        let walk = walk_project(dir.path(), &Config::default());
        assert_eq!(files(&walk), vec!["src/a.rs"]);
    }

    #[test]
    fn list_dir_sees_only_direct_children_through_ancestor_ignores() {
        let dir = tree(&[
            (".gitignore", b"*.tmp\n"),
            ("a/b/keep.rs", b""),
            ("a/b/drop.tmp", b""),
            ("a/b/c/deeper.rs", b""),
            ("a/other.rs", b""),
        ]);
        let listing = list_dir(dir.path(), &Config::default(), "a/b");
        let names: Vec<_> = listing
            .entries
            .iter()
            .map(|e| (e.rel.as_str(), e.kind))
            .collect();
        assert_eq!(
            names,
            vec![("a/b/c", EntryKind::Dir), ("a/b/keep.rs", EntryKind::File)]
        );
    }

    #[test]
    fn list_dirs_lists_each_directory_as_list_dir_does_in_one_walk() {
        let dir = tree(&[
            (".gitignore", b"*.tmp\nbuild/\n"),
            ("a/b/keep.rs", b""),
            ("a/b/drop.tmp", b""),
            ("a/b/c/deeper.rs", b""),
            ("a/other.rs", b""),
            ("a/build/out.rs", b""),
            ("d/e.rs", b""),
            ("top.rs", b""),
        ]);
        let config = Config::default();
        let dirs = ["", "a", "a/b", "a/b/c", "d", "a/build", "missing"];
        let listings = list_dirs(dir.path(), &config, dirs);
        for asked in dirs {
            let alone = list_dir(dir.path(), &config, asked);
            let together = listings.children.get(asked).cloned().unwrap_or_default();
            assert_eq!(together, alone.entries, "{asked}");
            assert_eq!(listings.refused_for(asked), alone.refused, "{asked}");
        }
        assert!(
            !listings.children.contains_key("a/build"),
            "ignored: not walked"
        );
    }

    #[test]
    fn a_symlinked_lexignore_makes_only_the_listings_it_touches_incomplete() {
        let dir = tree(&[
            ("a/b/c/x.rs", b""),
            ("a/b/y.rs", b""),
            ("z/w.rs", b""),
            ("t", b""),
        ]);
        std::os::unix::fs::symlink("../t", dir.path().join("a/b/c/.lexignore")).expect("symlink");
        let listings = list_dirs(dir.path(), &Config::default(), ["a/b/c", "a/b", "a", "z"]);
        assert_eq!(listings.refused_for("a/b/c"), vec!["a/b/c/.lexignore"]);
        assert_eq!(listings.refused_for("a/b"), vec!["a/b/c/.lexignore"]);
        assert!(listings.refused_for("a").is_empty());
        assert!(listings.refused_for("z").is_empty());
        for asked in ["a/b/c", "a/b", "a", "z"] {
            let alone = list_dir(dir.path(), &Config::default(), asked);
            assert_eq!(listings.refused_for(asked), alone.refused, "{asked}");
        }
    }

    #[test]
    fn content_sniffing_finds_binaries_without_a_telltale_extension() {
        // Bytes as a compressed or encrypted file has them: every value but NUL, shuffled.
        let random: Vec<u8> = (0..4096u32)
            .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
            .map(|byte| byte.max(1))
            .collect();
        let key = crate::secrets::samples::private_key();
        let dir = tree(&[
            ("blob", b"abc\0def"),
            ("text", b"plain"),
            ("x.png", b"plain"),
            ("random", &random[..]),
            (
                "latin1",
                b"caf\xe9 cr\xe8me br\xfbl\xe9e, na\xefve fa\xe7ade\n",
            ),
            ("key", key.as_bytes()),
        ]);
        let project = super::super::Project::new(dir.path().to_path_buf(), Config::default());
        let class = |name: &str| classify(&project, name, 5).expect("classify");
        assert_eq!(class("blob"), FileClass::Binary);
        assert_eq!(class("random"), FileClass::Binary, "no NUL, not text");
        assert_eq!(
            class("latin1"),
            FileClass::Text,
            "a legacy encoding is text"
        );
        assert_eq!(class("key"), FileClass::Secret);
        assert_eq!(class("text"), FileClass::Text);
        assert_eq!(class("x.png"), FileClass::Binary);
        let small = super::super::Project {
            config: Config {
                crawl: crate::project::config::CrawlConfig {
                    max_file_size_kb: 0,
                    ..Config::default().crawl
                },
                ..Config::default()
            },
            ..project
        };
        assert_eq!(
            classify(&small, "text", 5).expect("classify"),
            FileClass::TooLarge
        );
    }
}
