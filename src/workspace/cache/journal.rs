//! Saving the update cache by appending what changed instead of rewriting it.
//!
//! A post-commit `lexictl update --changed-only` changes a handful of entries of a cache that holds
//! every file of the project (4.9 MB at 20,000 files): rendering and writing all of it again was a
//! fifth of the run. So a cache loaded from disk remembers which entries and directories changed
//! ([`Journal`]), and its save appends one *block* to the file:
//!
//! (⇥ is a tab)
//!
//! ```text
//! \x1eblock ⇥ <saved_at_ns>
//! <an entry's line, as in the base>        (put)
//! \x1edel ⇥ <path>                          (entry removed)
//! \x1edirs                                 (when the indexed directories changed: all of them follow,
//! \x1edir ⇥ <dir>                             one line each, as in the base)
//! \x1eend ⇥ <number of lines in the block>
//! ```
//!
//! Reading applies the blocks in order over the base. A block is only applied once its `end` line
//! is read with the right count: a run killed while appending leaves a tail that readers ignore, and
//! the next save rewrites the whole file (it only appends to a file that is exactly as it was
//! loaded). The appended blocks are compacted away — the whole cache rewritten atomically — when
//! they grow past a quarter of the file, or when a save changes more than one entry in eight.
//! Every reader goes through [`super::Cache::load`]; stamps of the cache file (size and mtime) move
//! with each append as they did with each rewrite.

use std::collections::BTreeSet;
use std::io::Write as _;
use std::path::Path;

use super::{parse_base_line, parse_entry, push_entry, push_marked, Cache, Entry, DIR_MARKER};
use crate::tsv::unescape;

const BLOCK: &str = "\u{1e}block";
const END: &str = "\u{1e}end";
const DEL: &str = "\u{1e}del";
const DIRS: &str = "\u{1e}dirs";

/// Where a loaded cache came from and what changed since.
#[derive(Clone, Debug, Default)]
pub(super) struct Journal {
    /// The file as it was read or last written; `None` for a cache built in memory.
    origin: Option<Origin>,
    /// Entries put or removed since.
    changed: BTreeSet<String>,
    dirs_changed: bool,
}

#[derive(Clone, Copy, Debug)]
struct Origin {
    /// Its length, every byte of it understood (no partial block at the end).
    len: u64,
    /// The length of its base, before any appended block.
    base_len: u64,
}

impl Journal {
    /// The journal of a cache just written whole, `len` bytes.
    pub(super) fn saved_whole(len: usize) -> Journal {
        Journal {
            origin: Some(Origin {
                len: len as u64,
                base_len: len as u64,
            }),
            ..Journal::default()
        }
    }

    pub(super) fn changed(&mut self, rel: &str) {
        if self.origin.is_some() && !self.changed.contains(rel) {
            self.changed.insert(rel.to_string());
        }
    }

    pub(super) fn dirs_changed(&mut self) {
        self.dirs_changed = true;
    }
}

/// Append `cache`'s changes to `path` when that is the cheaper save and the file is exactly as the
/// cache read it; whether it did (else the caller rewrites the whole file).
pub(super) fn append(cache: &mut Cache, path: &Path) -> std::io::Result<bool> {
    let Some(origin) = cache.journal.origin else {
        return Ok(false);
    };
    if cache.journal.changed.len() > cache.entries.len() / 8 {
        return Ok(false);
    }
    let block = render_block(cache);
    let appended = origin.len - origin.base_len + block.len() as u64;
    if appended > origin.len / 4 || !unchanged_since_read(path, origin.len) {
        return Ok(false);
    }
    let mut file = open_for_append(path)?;
    file.write_all(block.as_bytes())?;
    cache.journal = Journal {
        origin: Some(Origin {
            len: origin.len + block.len() as u64,
            base_len: origin.base_len,
        }),
        ..Journal::default()
    };
    Ok(true)
}

/// The block holding `cache`'s changes.
fn render_block(cache: &Cache) -> String {
    let journal = &cache.journal;
    let mut out = format!("{BLOCK}\t{}\n", cache.saved_at_ns);
    let mut lines = 0;
    for rel in &journal.changed {
        match cache.entries.get(rel) {
            Some(entry) => push_entry(&mut out, rel, entry),
            None => push_marked(&mut out, DEL, rel),
        }
        lines += 1;
    }
    if journal.dirs_changed {
        out.push_str(DIRS);
        out.push('\n');
        for dir in &cache.dirs {
            push_marked(&mut out, DIR_MARKER, dir);
        }
        lines += 1 + cache.dirs.len();
    }
    out.push_str(END);
    out.push('\t');
    out.push_str(&lines.to_string());
    out.push('\n');
    out
}

fn unchanged_since_read(path: &Path, len: u64) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|meta| meta.is_file() && meta.len() == len)
}

/// Open `path` to append, never through a symlink.
fn open_for_append(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    std::fs::OpenOptions::new()
        .append(true)
        .custom_flags(rustix::fs::OFlags::NOFOLLOW.bits() as i32)
        .open(path)
}

/// Reads a cache file line by line: the base, then the blocks appended to it.
pub(super) struct Reader {
    /// Bytes read so far.
    read: u64,
    /// Where the base ended (the first block's start), once seen.
    base_len: Option<u64>,
    /// Bytes understood: the base and every complete block.
    understood: u64,
    /// The block being read: its saved time and lines, applied at its `end`.
    block: Option<(i128, Vec<String>)>,
    /// The base's entries, in the order the base holds them (sorted): the map is built from them at
    /// once, far cheaper than one insertion each.
    base: Vec<(String, Entry)>,
}

impl Reader {
    /// A reader past the header line of `header_len` bytes.
    pub(super) fn new(header_len: usize) -> Reader {
        Reader {
            read: header_len as u64,
            base_len: None,
            understood: header_len as u64,
            block: None,
            base: Vec::new(),
        }
    }

    /// Read one line (without its newline; `len` bytes with it). `None`: the cache is damaged.
    pub(super) fn line(&mut self, cache: &mut Cache, line: &str, len: usize) -> Option<()> {
        self.read += len as u64;
        if let Some(saved) = line.strip_prefix(BLOCK).and_then(|r| r.strip_prefix('\t')) {
            // A block opened again before its end: the run writing it died; start over here.
            if self.base_len.is_none() {
                self.base_len = Some(self.read - len as u64);
                self.close_base(cache);
            }
            self.block = Some((saved.parse().ok()?, Vec::new()));
            return Some(());
        }
        match &mut self.block {
            None if self.base_len.is_none() => {
                parse_base_line(cache, &mut self.base, line)?;
                self.understood = self.read;
            }
            None => return None, // a line outside any block after the base
            Some((saved, lines)) => match line.strip_prefix(END).and_then(|r| r.strip_prefix('\t'))
            {
                Some(count) => {
                    if count.parse::<usize>().ok()? != lines.len() {
                        return None;
                    }
                    let saved = *saved;
                    for line in std::mem::take(lines) {
                        apply(cache, &line)?;
                    }
                    cache.saved_at_ns = saved;
                    self.block = None;
                    self.understood = self.read;
                }
                None => lines.push(line.to_string()),
            },
        }
        Some(())
    }

    /// The journal of the cache read: the bytes understood, where its base ended.
    /// Move the base's entries into `cache` (whose entries are empty until then).
    fn close_base(&mut self, cache: &mut Cache) {
        let base = std::mem::take(&mut self.base);
        if cache.entries.is_empty() {
            cache.entries = base.into_iter().collect();
        } else {
            cache.entries.extend(base);
        }
    }

    pub(super) fn finish(mut self, cache: &mut Cache) -> Journal {
        self.close_base(cache);
        Journal {
            origin: Some(Origin {
                len: self.understood,
                base_len: self.base_len.unwrap_or(self.understood),
            }),
            ..Journal::default()
        }
    }
}

/// Apply one line of a complete block.
fn apply(cache: &mut Cache, line: &str) -> Option<()> {
    if let Some(rel) = line.strip_prefix(DEL).and_then(|r| r.strip_prefix('\t')) {
        cache.entries.remove(&unescape(rel));
    } else if line == DIRS {
        cache.dirs.clear();
    } else if let Some(dir) = line
        .strip_prefix(DIR_MARKER)
        .and_then(|r| r.strip_prefix('\t'))
    {
        cache.dirs.insert(unescape(dir));
    } else {
        let (rel, entry) = parse_entry(line)?;
        cache.entries.insert(rel, entry);
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::super::{Cache, Entry, Stat, RACY_WINDOW_NS};
    use crate::project::walk::FileClass;

    const LONG_AGO: i128 = 100 * RACY_WINDOW_NS;

    fn entry(size: u64) -> Entry {
        let stat = Stat { size, mtime_ns: 1 };
        Entry::unhashed(stat, FileClass::Text, format!("file of {size} bytes"))
    }

    /// A cache of `n` files saved whole to `path`, loaded back.
    fn saved(path: &std::path::Path, n: u64) -> Cache {
        let mut cache = Cache::default();
        for i in 0..n {
            cache.entries.insert(format!("src/f{i}.rs"), entry(i));
        }
        cache.dirs.insert(String::new());
        cache.save(path, LONG_AGO).expect("save");
        Cache::load(path).0
    }

    fn len(path: &std::path::Path) -> u64 {
        std::fs::metadata(path).expect("stat").len()
    }

    #[test]
    fn a_few_changes_are_appended_and_read_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache");
        let mut cache = saved(&path, 100);
        let before = std::fs::read(&path).expect("read");
        assert!(cache.put("src/f1.rs".into(), entry(1000)));
        assert!(
            !cache.put("src/f2.rs".into(), entry(2)),
            "same entry: no change"
        );
        assert!(cache.remove("src/f3.rs"));
        assert!(cache.replace_dirs(["".to_string(), "src".to_string()].into()));
        cache.save(&path, LONG_AGO + 1).expect("save");
        let after = std::fs::read(&path).expect("read");
        assert!(after.starts_with(&before), "appended, not rewritten");
        let (loaded, warning) = Cache::load(&path);
        assert!(warning.is_none());
        assert_eq!(loaded.entries, cache.entries);
        assert_eq!(loaded.dirs, cache.dirs);
        assert_eq!(loaded.saved_at_ns, LONG_AGO + 1);
        assert_eq!(loaded.entries["src/f1.rs"].stat.size, 1000);
        assert!(!loaded.entries.contains_key("src/f3.rs"));
    }

    #[test]
    fn a_block_cut_short_is_ignored_and_the_next_save_rewrites_the_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache");
        let mut cache = saved(&path, 100);
        cache.put("src/f1.rs".into(), entry(1000));
        cache.save(&path, LONG_AGO + 1).expect("save");
        let whole = std::fs::read(&path).expect("read");
        // A run killed in the middle of its append: the block has no end line.
        let mut cut = whole.clone();
        cut.extend_from_slice(b"\x1eblock\t5\nsrc/f2.rs\tt\t9");
        std::fs::write(&path, &cut).expect("write");
        let (mut loaded, warning) = Cache::load(&path);
        assert!(warning.is_none());
        assert_eq!(
            loaded.entries, cache.entries,
            "the cut block is not applied"
        );
        loaded.put("src/f4.rs".into(), entry(4000));
        loaded.save(&path, LONG_AGO + 2).expect("save");
        let rewritten = std::fs::read_to_string(&path).expect("read");
        assert!(!rewritten.contains("\u{1e}block"), "rewritten whole");
        assert_eq!(Cache::load(&path).0.entries, loaded.entries);
    }

    #[test]
    fn blocks_past_a_quarter_of_the_file_or_many_changes_are_compacted() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache");
        let mut cache = saved(&path, 40);
        let base = len(&path);
        let mut appended = 0;
        for round in 0..20 {
            cache.put(format!("src/f{}.rs", round % 40), entry(5000 + round));
            cache.save(&path, LONG_AGO + round as i128).expect("save");
            if len(&path) > base {
                appended += 1;
            }
            assert!(len(&path) <= base + base / 4 + 200, "round {round}");
            assert_eq!(Cache::load(&path).0.entries, cache.entries);
        }
        assert!(appended > 0, "some saves appended");
        for i in 0..10 {
            cache.put(format!("src/f{i}.rs"), entry(9000 + i));
        }
        cache.save(&path, LONG_AGO + 50).expect("save");
        let text = std::fs::read_to_string(&path).expect("read");
        assert!(
            !text.contains("\u{1e}block"),
            "ten of forty changed: rewritten whole"
        );
    }

    #[test]
    fn a_file_changed_by_someone_else_is_rewritten_not_appended_to() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache");
        let mut cache = saved(&path, 100);
        let mut other = Cache::load(&path).0;
        other.put("src/f5.rs".into(), entry(5555));
        other.save(&path, LONG_AGO + 1).expect("save");
        cache.put("src/f6.rs".into(), entry(6666));
        cache.save(&path, LONG_AGO + 2).expect("save");
        let loaded = Cache::load(&path).0;
        assert_eq!(loaded.entries, cache.entries, "the later save wins whole");
    }

    #[test]
    fn smudged_entries_are_appended_too() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache");
        let mut cache = saved(&path, 100);
        let started = LONG_AGO + 10 * RACY_WINDOW_NS;
        let mut fresh = entry(7);
        fresh.stat.mtime_ns = started - 1;
        cache.put("src/fresh.rs".into(), fresh);
        cache.save(&path, started).expect("save");
        let loaded = Cache::load(&path).0;
        assert_eq!(loaded.entries["src/fresh.rs"].stat.mtime_ns, 0);
        assert_eq!(loaded.saved_at_ns, started);
    }
}
