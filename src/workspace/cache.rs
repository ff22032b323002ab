//! The stat/hash cache: what the last update learned about every file, so that the next one reads
//! and hashes only files whose size or mtime moved (DESIGN G-1).
//!
//! One entry per file the update engine saw: its stat data, SHA-256, interface hash, resolved
//! dependencies, the names of its public items and its Child Map description, plus the stat data of
//! its design file as the engine left it. When both stats still match, the file is UNCHANGED without
//! a single read. Readers besides the engine: `workspace::graph` (the whole dependency graph and
//! every file's public names, which design files hold only within their budget).
//!
//! Stored as a versioned tab-separated text file (fast to parse: 20,000 entries in a few ms); a save
//! that changes few entries appends them instead of rewriting it (`journal`), so a loaded cache is
//! changed through [`Cache::put`], [`Cache::remove`], [`Cache::replace_entries`] and
//! [`Cache::replace_dirs`], which remember what moved. It is a cache: a missing, stale-versioned or
//! corrupt file is discarded and rebuilt, never an error.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::SystemTime;

use crate::atomic;
use crate::project::walk::FileClass;

mod details;
mod journal;
use crate::tsv::{parse_list, push_escaped, push_list, unescape};
pub use details::{Details, LazyDetails};

/// The first line's tag: a cache written by another format version is discarded and rebuilt (and
/// the update's no-op fast path is not taken, see `engine::update::plan`). Bump it too when what
/// a member outline record holds or how it is worded changes (`super::outlines`): the records are
/// named with it, and the full read it causes fills the new store. v34: the store's first; v35:
/// Rust calls through tuple-struct fields and fields of fields typed; v36: the `&` item of the
/// module names a Rust file binds to the standard library; v37: a doc's link definitions are no
/// behaviour lines.
pub const FORMAT: &str = "lexibrarian-cache v37";
/// First field of a line that records an indexed directory rather than a file.
const DIR_MARKER: &str = "\u{1e}dir";

/// Size and modification time, the cheap identity of a file's content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stat {
    pub size: u64,
    /// Nanoseconds since the Unix epoch.
    pub mtime_ns: i128,
}

impl Stat {
    /// Stat a path (following symlinks); `None` if it does not exist.
    pub fn of(path: &Path) -> Option<Stat> {
        std::fs::metadata(path)
            .ok()
            .map(|meta| Stat::from_metadata(&meta))
    }

    /// From a `stat` system call's answer (an `fstat` of a file just written).
    pub fn from_stat(stat: &rustix::fs::Stat) -> Stat {
        Stat {
            size: u64::try_from(stat.st_size).unwrap_or(0),
            mtime_ns: i128::from(stat.st_mtime) * 1_000_000_000 + i128::from(stat.st_mtime_nsec),
        }
    }

    pub fn from_metadata(meta: &std::fs::Metadata) -> Stat {
        let mtime_ns = meta
            .modified()
            .ok()
            .and_then(|time| time.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map_or(0, |elapsed| elapsed.as_nanos() as i128);
        Stat {
            size: meta.len(),
            mtime_ns,
        }
    }
}

/// What the cache knows about one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub stat: Stat,
    /// Text, binary, too large or secret: only text files in scope are documented.
    pub class: FileClass,
    pub source_hash: String,
    /// For code files.
    pub interface_hash: Option<String>,
    /// Resolved project dependencies, sorted.
    pub deps: Vec<String>,
    /// Module files the resolution went through (Rust re-exports), sorted: when one changes, the
    /// file's imports are resolved again.
    pub via: Vec<String>,
    /// Rust: the `#[macro_export]` macros the file defines (they live at the crate's root).
    pub macros: Vec<String>,
    /// Description, public names, externals, type-only deps and calls: decoded on first use.
    pub details: LazyDetails,
    /// Stat of the design file as the engine left it, when it manages one.
    pub design: Option<Stat>,
}

/// The whole cache, keyed by project-relative path.
#[derive(Clone, Debug, Default)]
pub struct Cache {
    pub entries: BTreeMap<String, Entry>,
    /// Directories that had an `.aindex` after the last update (so a vanished one can be removed
    /// without walking the mirror).
    pub dirs: BTreeSet<String>,
    /// When the cache was last saved (ns since epoch). Files modified within [`RACY_WINDOW_NS`] of it
    /// are re-hashed, since a same-size edit inside one mtime tick would otherwise go unseen.
    pub saved_at_ns: i128,
    /// The file it was loaded from and what changed since, so that a save can append.
    journal: journal::Journal,
}

/// Edits this close to the cache's save time are not trusted to be visible in mtime.
pub const RACY_WINDOW_NS: i128 = 2_000_000_000;

impl Cache {
    /// Load the cache at `path`. Returns an empty cache (and a warning) if it is unreadable.
    pub fn load(path: &Path) -> (Cache, Option<String>) {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
                return (Cache::default(), None)
            }
            Err(err) => {
                return (
                    Cache::default(),
                    Some(format!(
                        "cache {} unreadable ({err}); rebuilding",
                        path.display()
                    )),
                )
            }
        };
        match parse(&text) {
            Some(cache) => (cache, None),
            None => (
                Cache::default(),
                Some(format!(
                    "cache {} is corrupt or from another version; rebuilding",
                    path.display()
                )),
            ),
        }
    }

    /// Put `entry` for `rel` (a loaded cache remembers the change, so that a save can append it);
    /// whether it differs from what was there.
    pub fn put(&mut self, rel: String, entry: Entry) -> bool {
        if self.entries.get(&rel) == Some(&entry) {
            return false;
        }
        self.journal.changed(&rel);
        self.entries.insert(rel, entry);
        true
    }

    /// Forget `rel`; whether it was known.
    pub fn remove(&mut self, rel: &str) -> bool {
        let known = self.entries.remove(rel).is_some();
        if known {
            self.journal.changed(rel);
        }
        known
    }

    /// Replace every entry by `entries`; whether anything differed.
    pub fn replace_entries(&mut self, entries: BTreeMap<String, Entry>) -> bool {
        let gone: Vec<String> = self
            .entries
            .keys()
            .filter(|rel| !entries.contains_key(*rel))
            .cloned()
            .collect();
        let mut changed = false;
        for rel in gone {
            changed |= self.remove(&rel);
        }
        for (rel, entry) in entries {
            changed |= self.put(rel, entry);
        }
        changed
    }

    /// Replace the indexed directories by `dirs`; whether they differed.
    pub fn replace_dirs(&mut self, dirs: BTreeSet<String>) -> bool {
        if self.dirs == dirs {
            return false;
        }
        self.journal.dirs_changed();
        self.dirs = dirs;
        true
    }

    /// Save. `run_started_ns` is when the run that produced these entries started: an entry whose
    /// file was modified within [`RACY_WINDOW_NS`] of it may have changed again within the same
    /// mtime tick after it was read, so it is saved *smudged* (mtime 0) and will be read again next
    /// time — the way git treats racily clean index entries.
    ///
    /// A cache loaded from `path` whose changes are few is saved by appending them to the file
    /// ([`journal`]: one `write` instead of rendering every entry again); otherwise, and when the
    /// appended blocks have grown past a quarter of the file, the whole cache is rewritten
    /// atomically.
    pub fn save(&mut self, path: &Path, run_started_ns: i128) -> std::io::Result<()> {
        let racy_from = run_started_ns - RACY_WINDOW_NS;
        for (rel, entry) in &mut self.entries {
            if smudge(entry, racy_from) {
                self.journal.changed(rel);
            }
        }
        self.saved_at_ns = run_started_ns;
        if journal::append(self, path)? {
            return Ok(());
        }
        let text = self.render();
        atomic::write(path, text.as_bytes())?;
        self.journal = journal::Journal::saved_whole(text.len());
        Ok(())
    }

    /// Now, in nanoseconds since the Unix epoch.
    pub fn now_ns() -> i128 {
        SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos() as i128)
    }

    /// Whether `stat` is trustworthy evidence that the file did not change since it was cached.
    pub fn stat_is_settled(&self, stat: &Stat) -> bool {
        stat.mtime_ns < self.saved_at_ns - RACY_WINDOW_NS
    }

    fn render(&self) -> String {
        use std::fmt::Write as _;
        let mut out = String::with_capacity(self.entries.len() * 240 + 64);
        let _ = writeln!(out, "{FORMAT}\t{}", self.saved_at_ns);
        for dir in &self.dirs {
            push_marked(&mut out, DIR_MARKER, dir);
        }
        for (path, entry) in &self.entries {
            push_entry(&mut out, path, entry);
        }
        out
    }
}

/// A marker line: `marker`, a tab, the escaped `value`.
fn push_marked(out: &mut String, marker: &str, value: &str) {
    out.push_str(marker);
    out.push('\t');
    push_escaped(out, value);
    out.push('\n');
}

/// One entry's line.
fn push_entry(out: &mut String, path: &str, entry: &Entry) {
    use std::fmt::Write as _;
    push_escaped(out, path);
    out.push_str(match entry.class {
        FileClass::Text => "\tt\t",
        FileClass::Binary => "\tb\t",
        FileClass::TooLarge => "\tl\t",
        FileClass::Secret => "\ts\t",
        FileClass::Minified => "\tm\t",
    });
    let _ = write!(out, "{}\t{}\t", entry.stat.size, entry.stat.mtime_ns);
    out.push_str(&entry.source_hash);
    out.push('\t');
    out.push_str(entry.interface_hash.as_deref().unwrap_or("-"));
    match entry.design {
        Some(stat) => {
            let _ = write!(out, "\t{}\t{}\t", stat.size, stat.mtime_ns);
        }
        None => out.push_str("\t-\t-\t"),
    }
    for list in [&entry.deps, &entry.via, &entry.macros] {
        push_list(out, list);
        out.push('\t');
    }
    entry.details.push_to(out);
    out.push('\n');
}

fn smudge(entry: &mut Entry, racy_from: i128) -> bool {
    let mut smudged = false;
    for stat in std::iter::once(&mut entry.stat).chain(entry.design.as_mut()) {
        if stat.mtime_ns >= racy_from && stat.mtime_ns != 0 {
            stat.mtime_ns = 0;
            smudged = true;
        }
    }
    smudged
}

/// The stamp of a cache that cannot be identified (unreadable; see [`stamp`]).
pub const UNKNOWN_STAMP: &str = "unknown";

/// What identifies the update cache's content at `path` for the files derived from it (the search
/// corpus, the graph): `size:mtime:saved`, with `saved` the save time in its first line; `absent`;
/// or [`UNKNOWN_STAMP`] when it cannot be read. Size and mtime alone would not do within the racy
/// window (two saves in one mtime tick with the same size), but every save changes one of the three:
/// a whole rewrite writes its own run's start in the first line, an append (`journal`) grows the
/// file. So a derived file can be written and trusted right after an update.
pub fn stamp(path: &Path) -> String {
    let Some(stat) = Stat::of(path) else {
        return "absent".to_string();
    };
    match saved_in_header(path) {
        Some(saved) => format!("{}:{}:{saved}", stat.size, stat.mtime_ns),
        None => UNKNOWN_STAMP.to_string(),
    }
}

/// The save time in the first line of the cache at `path` (the first 128 bytes are plenty).
fn saved_in_header(path: &Path) -> Option<String> {
    use std::io::Read as _;
    let mut head = [0u8; 128];
    let mut file = std::fs::File::open(path).ok()?;
    let read = file.read(&mut head).ok()?;
    let line = std::str::from_utf8(&head[..read]).ok()?.lines().next()?;
    let (format, saved) = line.split_once('\t')?;
    (format == FORMAT).then(|| saved.to_string())
}

/// Nanoseconds since the epoch as written: an `i64` for the next two centuries, an `i128` beyond
/// (parsing an `i128` costs several times as much).
fn parse_ns(field: &str) -> Option<i128> {
    match parse_decimal(field) {
        Some(ns) => Some(i128::from(ns)),
        None => field.parse().ok(),
    }
}

fn parse_size(field: &str) -> Option<u64> {
    match parse_decimal(field) {
        Some(size) => u64::try_from(size).ok(),
        None => field.parse().ok(),
    }
}

/// A number of at most 19 digits that fits an `i64` (every size, and every mtime in nanoseconds
/// until the year 2262), read without the per-digit overflow checks of `str::parse` — a fifth of
/// the cache's parse went into them. Anything else: `None`.
fn parse_decimal(field: &str) -> Option<i64> {
    let (negative, digits) = match field.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, field),
    };
    if digits.is_empty() || digits.len() > 19 {
        return None;
    }
    // 19 digits are below `u64::MAX`: no step can overflow.
    let mut value: u64 = 0;
    for byte in digits.bytes() {
        if !byte.is_ascii_digit() {
            return None;
        }
        value = value * 10 + u64::from(byte - b'0');
    }
    let value = i64::try_from(value).ok()?;
    Some(if negative { -value } else { value })
}

/// The cache in `text`: the base the last full save wrote, then the blocks appended since
/// ([`journal`]). `None` when it is from another format version or damaged.
fn parse(text: &str) -> Option<Cache> {
    let first = text.split_inclusive('\n').next()?;
    let (header, saved) = first.trim_end_matches('\n').split_once('\t')?;
    if header != FORMAT {
        return None;
    }
    let mut cache = Cache {
        saved_at_ns: saved.parse().ok()?,
        ..Cache::default()
    };
    let mut reader = journal::Reader::new(first.len());
    let mut at = first.len();
    // A last line without its newline was cut short by a run killed while appending: not read.
    while let Some(length) = memchr::memchr(b'\n', text.as_bytes().get(at..)?) {
        reader.line(&mut cache, text.get(at..at + length)?, length + 1)?;
        at += length + 1;
    }
    cache.journal = reader.finish(&mut cache);
    Some(cache)
}

/// A base line: a directory (`DIR_MARKER`, into `cache`) or an entry (onto `entries`).
fn parse_base_line(
    cache: &mut Cache,
    entries: &mut Vec<(String, Entry)>,
    line: &str,
) -> Option<()> {
    if let Some(dir) = line
        .strip_prefix(DIR_MARKER)
        .and_then(|rest| rest.strip_prefix('\t'))
    {
        cache.dirs.insert(unescape(dir));
        return Some(());
    }
    entries.push(parse_entry(line)?);
    Some(())
}

/// The tab-separated fields of an entry's line.
/// The fields of a line before its [`Details`]: path, class, size, mtime, source hash, interface
/// hash, the design file's size and mtime, deps, via, macros.
const EAGER_FIELDS: usize = 11;

fn parse_entry(line: &str) -> Option<(String, Entry)> {
    let mut fields = [""; EAGER_FIELDS];
    let mut rest = line;
    for field in &mut fields {
        let at = memchr::memchr(b'\t', rest.as_bytes())?;
        *field = rest.get(..at)?;
        rest = rest.get(at + 1..)?;
    }
    if memchr::memchr_iter(b'\t', rest.as_bytes()).count() != details::FIELDS - 1 {
        return None;
    }
    let class = match fields[1] {
        "t" => FileClass::Text,
        "b" => FileClass::Binary,
        "l" => FileClass::TooLarge,
        "s" => FileClass::Secret,
        "m" => FileClass::Minified,
        _ => return None,
    };
    let design = match (fields[6], fields[7]) {
        ("-", _) | (_, "-") => None,
        (size, mtime) => Some(Stat {
            size: parse_size(size)?,
            mtime_ns: parse_ns(mtime)?,
        }),
    };
    let entry = Entry {
        class,
        stat: Stat {
            size: parse_size(fields[2])?,
            mtime_ns: parse_ns(fields[3])?,
        },
        source_hash: fields[4].to_string(),
        interface_hash: (fields[5] != "-").then(|| fields[5].to_string()),
        deps: parse_list(fields[8]),
        via: parse_list(fields[9]),
        macros: parse_list(fields[10]),
        details: LazyDetails::raw(rest),
        design,
    };
    Some((unescape(fields[0]), entry))
}

impl Entry {
    /// A file's entry with its stat, class and description, and nothing hashed, resolved or
    /// documented yet.
    pub fn unhashed(stat: Stat, class: FileClass, description: String) -> Entry {
        Entry {
            stat,
            class,
            source_hash: String::new(),
            interface_hash: None,
            deps: Vec::new(),
            via: Vec::new(),
            macros: Vec::new(),
            details: Details {
                description,
                ..Details::default()
            }
            .into(),
            design: None,
        }
    }

    /// Test data: a text file's entry with these resolved dependencies and nothing else recorded.
    #[cfg(test)]
    pub fn with_deps(deps: &[&str]) -> Entry {
        let stat = Stat {
            size: 1,
            mtime_ns: 1,
        };
        Entry {
            deps: deps.iter().map(|d| d.to_string()).collect(),
            ..Entry::unhashed(stat, FileClass::Text, String::new())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry() -> Entry {
        Entry {
            class: FileClass::Text,
            stat: Stat {
                size: 10,
                mtime_ns: 123,
            },
            source_hash: "ab".into(),
            interface_hash: Some("cd".into()),
            deps: vec!["src/a b.rs".into(), "src/c.rs".into()],
            via: vec!["src/lib.rs".into()],
            macros: vec!["shout".into()],
            details: Details {
                description: "Tabs\tand\\slashes | pipes".into(),
                symbols: vec!["Parser".into(), "parse".into()],
                externals: vec!["serde".into(), "@scope/pkg".into()],
                type_deps: vec!["src/c.rs".into()],
                calls: vec!["App.run go .send Vec.new".into(), "main".into()],
                documented: true,
                scope_hash: "0123456789abcdef".into(),
                imports_hash: "fedcba9876543210".into(),
            }
            .into(),
            design: Some(Stat {
                size: 5,
                mtime_ns: 6,
            }),
        }
    }

    #[test]
    fn round_trips_through_disk() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache");
        let mut cache = Cache::default();
        cache.entries.insert("src/ü\tx.rs".into(), entry());
        cache.dirs.insert(String::new());
        cache.dirs.insert("src/a b".into());
        cache.entries.insert(
            "README.md".into(),
            Entry {
                class: FileClass::Binary,
                interface_hash: None,
                deps: vec![],
                via: vec![],
                macros: vec![],
                details: Details::default().into(),
                design: None,
                ..entry()
            },
        );
        cache.save(&path, 1_000_000_000_000).expect("save");
        let (loaded, warning) = Cache::load(&path);
        assert!(warning.is_none());
        assert_eq!(loaded.entries, cache.entries);
        assert_eq!(loaded.dirs, cache.dirs);
        assert_eq!(loaded.saved_at_ns, cache.saved_at_ns);
    }

    #[test]
    fn entries_modified_near_the_run_start_are_saved_smudged() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache");
        let started = 10 * RACY_WINDOW_NS;
        let mut cache = Cache::default();
        let mut fresh = entry();
        fresh.stat.mtime_ns = started - RACY_WINDOW_NS / 2;
        let mut settled = entry();
        settled.stat.mtime_ns = started - 2 * RACY_WINDOW_NS;
        settled.design = Some(Stat {
            size: 1,
            mtime_ns: started + 1,
        });
        cache.entries.insert("fresh".into(), fresh);
        cache.entries.insert("settled".into(), settled);
        cache.save(&path, started).expect("save");
        let (loaded, _) = Cache::load(&path);
        assert_eq!(loaded.entries["fresh"].stat.mtime_ns, 0);
        assert_eq!(
            loaded.entries["settled"].stat.mtime_ns,
            started - 2 * RACY_WINDOW_NS
        );
        assert_eq!(
            loaded.entries["settled"].design.map(|d| d.mtime_ns),
            Some(0)
        );
    }

    #[test]
    fn two_saves_in_one_mtime_tick_with_the_same_size_have_different_stamps() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache");
        let tick = SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
        let mut stamps = Vec::new();
        for run_started in [1_000_000_001, 1_000_000_002] {
            let mut cache = Cache::default();
            cache.entries.insert("a.rs".into(), entry());
            cache.save(&path, run_started).expect("save");
            let file = std::fs::File::options()
                .append(true)
                .open(&path)
                .expect("open");
            file.set_modified(tick).expect("mtime");
            stamps.push(stamp(&path));
        }
        assert_ne!(stamps[0], stamps[1]);
        assert!(stamps[0].starts_with(&format!(
            "{}:",
            std::fs::metadata(&path).expect("stat").len()
        )));
        assert_eq!(stamp(&dir.path().join("nope")), "absent");
    }

    #[test]
    fn numbers_parse_as_str_parse_would() {
        for text in [
            "0",
            "17",
            "-5",
            "999999999999999999",
            "1764000000123456789",
            "9223372036854775807",
            "-9223372036854775807",
            "9223372036854775808",
            "99999999999999999999",
        ] {
            assert_eq!(parse_ns(text), text.parse().ok(), "{text}");
        }
        for text in ["", "-", "1a", "+3", " 1", "1.5", "9999999999999999999"] {
            assert_eq!(parse_decimal(text), None, "{text}");
        }
        assert_eq!(parse_size("18446744073709551615"), Some(u64::MAX));
        assert_eq!(parse_size("-1"), None);
    }

    #[test]
    fn corrupt_or_missing_caches_are_empty_not_fatal() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (missing, warning) = Cache::load(&dir.path().join("nope"));
        assert!(missing.entries.is_empty() && warning.is_none());
        let path = dir.path().join("cache");
        std::fs::write(&path, "lexibrarian-cache v5\t0\nonly\tthree\tfields\n").expect("write");
        let (corrupt, warning) = Cache::load(&path);
        assert!(corrupt.entries.is_empty());
        assert!(warning.is_some_and(|w| w.contains("rebuilding")));
    }
}
