//! The stat/hash cache: what the last update learned about every file, so that the next one reads
//! and hashes only files whose size or mtime moved (DESIGN G-1).
//!
//! One entry per file the update engine saw: its stat data, SHA-256, interface hash, resolved
//! dependencies, the names of its public items and its Child Map description, plus the stat data of
//! its design file as the engine left it. When both stats still match, the file is UNCHANGED without
//! a single read. Readers besides the engine: `workspace::graph` (the whole dependency graph and
//! every file's public names, which design files hold only within their budget).
//!
//! Stored as a versioned tab-separated text file (fast to parse: 20,000 entries in a few ms). It is a
//! cache: a missing, stale-versioned or corrupt file is discarded and rebuilt, never an error.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::SystemTime;

use crate::atomic;
use crate::project::walk::FileClass;
use crate::tsv::{push_escaped, unescape};

/// The first line's tag: a cache written by another format version is discarded and rebuilt (and
/// the update's no-op fast path is not taken, see `engine::update::plan`).
pub const FORMAT: &str = "lexibrarian-cache v8";
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
    /// The Child Map description of this file.
    pub description: String,
    /// Resolved project dependencies, sorted.
    pub deps: Vec<String>,
    /// Module files the resolution went through (Rust re-exports), sorted: when one changes, the
    /// file's imports are resolved again.
    pub via: Vec<String>,
    /// Rust: the `#[macro_export]` macros the file defines (they live at the crate's root).
    pub macros: Vec<String>,
    /// Code files: the bare names of every public item the interface extractor yields (top-level
    /// items and methods), sorted and deduplicated — what search indexes beyond a capped contract.
    pub symbols: Vec<String>,
    /// Code files: the external packages it imports, by name, sorted (what `lexi lookup --full`
    /// shows when the design file's External Dependencies were capped).
    pub externals: Vec<String>,
    /// The deps imported only for the type checker (Python `if TYPE_CHECKING:`), sorted: a
    /// subset of `deps` that `lexi impact` does not follow.
    pub type_deps: Vec<String>,
    /// Code files: each member's calls, one `source::calls::MemberCalls::encode` item a member
    /// (`member callee .callee Type.callee`), in source order — `lexi lookup`'s Calls and Called
    /// from (`workspace::calls`).
    pub calls: Vec<String>,
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

    /// Save atomically. `run_started_ns` is when the run that produced these entries started: an
    /// entry whose file was modified within [`RACY_WINDOW_NS`] of it may have changed again within
    /// the same mtime tick after it was read, so it is saved *smudged* (mtime 0) and will be read
    /// again next time — the way git treats racily clean index entries.
    pub fn save(&mut self, path: &Path, run_started_ns: i128) -> std::io::Result<()> {
        let racy_from = run_started_ns - RACY_WINDOW_NS;
        for entry in self.entries.values_mut() {
            if entry.stat.mtime_ns >= racy_from {
                entry.stat.mtime_ns = 0;
            }
            if let Some(design) = &mut entry.design {
                if design.mtime_ns >= racy_from {
                    design.mtime_ns = 0;
                }
            }
        }
        self.saved_at_ns = run_started_ns;
        atomic::write(path, self.render().as_bytes())
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
            out.push_str(DIR_MARKER);
            out.push('\t');
            push_escaped(&mut out, dir);
            out.push('\n');
        }
        for (path, entry) in &self.entries {
            push_escaped(&mut out, path);
            out.push_str(match entry.class {
                FileClass::Text => "\tt\t",
                FileClass::Binary => "\tb\t",
                FileClass::TooLarge => "\tl\t",
                FileClass::Secret => "\ts\t",
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
            push_escaped(&mut out, &entry.description);
            out.push('\t');
            push_list(&mut out, &entry.deps);
            out.push('\t');
            push_list(&mut out, &entry.via);
            out.push('\t');
            push_list(&mut out, &entry.macros);
            out.push('\t');
            push_list(&mut out, &entry.symbols);
            out.push('\t');
            push_list(&mut out, &entry.externals);
            out.push('\t');
            push_list(&mut out, &entry.type_deps);
            out.push('\t');
            push_list(&mut out, &entry.calls);
            out.push('\n');
        }
        out
    }
}

/// Paths separated by U+001F.
fn push_list(out: &mut String, paths: &[String]) {
    for (index, path) in paths.iter().enumerate() {
        if index > 0 {
            out.push('\u{1f}');
        }
        push_escaped(out, path);
    }
}

fn parse_list(field: &str) -> Vec<String> {
    if field.is_empty() {
        Vec::new()
    } else {
        field.split('\u{1f}').map(unescape).collect()
    }
}

fn parse(text: &str) -> Option<Cache> {
    let mut lines = text.lines();
    let (header, saved) = lines.next()?.split_once('\t')?;
    if header != FORMAT {
        return None;
    }
    let mut cache = Cache {
        entries: BTreeMap::new(),
        dirs: BTreeSet::new(),
        saved_at_ns: saved.parse().ok()?,
    };
    for line in lines {
        if let Some(dir) = line
            .strip_prefix(DIR_MARKER)
            .and_then(|r| r.strip_prefix('\t'))
        {
            if !dir.contains('\t') {
                cache.dirs.insert(unescape(dir));
                continue;
            }
        }
        let (path, entry) = parse_entry(line)?;
        cache.entries.insert(path, entry);
    }
    Some(cache)
}

/// One file's line: its path and entry; `None` when it is malformed.
pub fn parse_entry(line: &str) -> Option<(String, Entry)> {
    let fields: Vec<&str> = line.split('\t').collect();
    if fields.len() != FIELDS {
        return None;
    }
    let class = match fields[1] {
        "t" => FileClass::Text,
        "b" => FileClass::Binary,
        "l" => FileClass::TooLarge,
        "s" => FileClass::Secret,
        _ => return None,
    };
    let fields: Vec<&str> = std::iter::once(fields[0])
        .chain(fields[2..].iter().copied())
        .collect();
    let design = match (fields[5], fields[6]) {
        ("-", _) | (_, "-") => None,
        (size, mtime) => Some(Stat {
            size: size.parse().ok()?,
            mtime_ns: mtime.parse().ok()?,
        }),
    };
    let entry = Entry {
        class,
        stat: Stat {
            size: fields[1].parse().ok()?,
            mtime_ns: fields[2].parse().ok()?,
        },
        source_hash: fields[3].to_string(),
        interface_hash: (fields[4] != "-").then(|| fields[4].to_string()),
        description: unescape(fields[7]),
        deps: parse_list(fields[8]),
        via: parse_list(fields[9]),
        macros: parse_list(fields[10]),
        symbols: parse_list(fields[11]),
        externals: parse_list(fields[12]),
        type_deps: parse_list(fields[13]),
        calls: parse_list(fields[14]),
        design,
    };
    Some((unescape(fields[0]), entry))
}

/// The tab-separated fields of a file's line.
const FIELDS: usize = 16;

/// The raw fields a line of the cache text starts with, without parsing it: its (escaped) path and
/// its (escaped) dependency list — what a reader scanning for one file's importers needs.
pub fn path_and_deps(line: &str) -> Option<(&str, &str)> {
    let mut fields = line.split('\t');
    let path = fields.next()?;
    let deps = fields.nth(8)?;
    Some((path, deps))
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
            description,
            deps: Vec::new(),
            via: Vec::new(),
            macros: Vec::new(),
            symbols: Vec::new(),
            externals: Vec::new(),
            type_deps: Vec::new(),
            calls: Vec::new(),
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
            description: "Tabs\tand\\slashes | pipes".into(),
            deps: vec!["src/a b.rs".into(), "src/c.rs".into()],
            via: vec!["src/lib.rs".into()],
            macros: vec!["shout".into()],
            symbols: vec!["Parser".into(), "parse".into()],
            externals: vec!["serde".into(), "@scope/pkg".into()],
            type_deps: vec!["src/c.rs".into()],
            calls: vec!["App.run go .send Vec.new".into(), "main".into()],
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
                symbols: vec![],
                externals: vec![],
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
