//! Find one file's line in the update cache without reading the whole cache: its file lines are
//! sorted by path (after the header and the directory lines, whose marker sorts first), so a binary
//! search over byte offsets reads a few small chunks — what `lexi lookup` needs for Calls and
//! Called from at 20,000 files, where the cache is tens of megabytes.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::cache;

/// How much is read at a time.
const CHUNK: usize = 4096;

/// An open update cache, searched by path.
pub struct SortedLines {
    file: File,
    /// Where the first line after the header starts.
    body: u64,
    len: u64,
}

impl SortedLines {
    /// Open the cache at `path`; `None` when it is missing or of another format.
    pub fn open(path: &Path) -> Option<SortedLines> {
        let file = File::open(path).ok()?;
        let len = file.metadata().ok()?.len();
        let mut lines = SortedLines { file, body: 0, len };
        let (header, next) = lines.line_at(0)?;
        if header.split('\t').next() != Some(cache::FORMAT) {
            return None;
        }
        lines.body = next;
        Some(lines)
    }

    /// The line of the file whose escaped path is `escaped`.
    pub fn find(&mut self, escaped: &str) -> Option<String> {
        let (mut lo, mut hi) = (self.body, self.len);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let start = self.line_start_from(mid, lo)?;
            if start >= hi {
                hi = mid;
                continue;
            }
            let (line, next) = self.line_at(start)?;
            let key = line.split('\t').next().unwrap_or_default();
            match key.cmp(escaped) {
                std::cmp::Ordering::Equal => return Some(line),
                std::cmp::Ordering::Less => lo = next,
                std::cmp::Ordering::Greater => hi = mid,
            }
        }
        None
    }

    /// The first line start at or after `pos` (`lo` is known to be one).
    fn line_start_from(&mut self, pos: u64, lo: u64) -> Option<u64> {
        if pos == lo {
            return Some(lo);
        }
        let mut at = pos - 1;
        let mut buf = [0u8; CHUNK];
        loop {
            let read = self.read_at(at, &mut buf)?;
            if read == 0 {
                return Some(self.len);
            }
            if let Some(index) = buf[..read].iter().position(|&b| b == b'\n') {
                return Some(at + index as u64 + 1);
            }
            at += read as u64;
        }
    }

    /// The line starting at `start` (without its newline) and where the next one starts.
    fn line_at(&mut self, start: u64) -> Option<(String, u64)> {
        let mut bytes = Vec::new();
        let mut buf = [0u8; CHUNK];
        let mut at = start;
        loop {
            let read = self.read_at(at, &mut buf)?;
            if read == 0 {
                break;
            }
            if let Some(index) = buf[..read].iter().position(|&b| b == b'\n') {
                bytes.extend_from_slice(&buf[..index]);
                return Some((String::from_utf8(bytes).ok()?, at + index as u64 + 1));
            }
            bytes.extend_from_slice(&buf[..read]);
            at += read as u64;
        }
        Some((String::from_utf8(bytes).ok()?, self.len))
    }

    fn read_at(&mut self, at: u64, buf: &mut [u8]) -> Option<usize> {
        self.file.seek(SeekFrom::Start(at)).ok()?;
        self.file.read(buf).ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workspace::cache::{Cache, Entry};

    #[test]
    fn finds_every_line_and_nothing_else() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("cache");
        let mut cache = Cache::default();
        cache.dirs.insert("src".into());
        let names: Vec<String> = (0..300).map(|i| format!("src/m{i:03}.rs")).collect();
        for (index, name) in names.iter().enumerate() {
            // Some lines longer than a chunk.
            let long = "x".repeat(if index % 7 == 0 { 5000 } else { 3 });
            let entry = Entry {
                calls: vec![format!("f {long}")],
                ..Entry::with_deps(&[])
            };
            cache.entries.insert(name.clone(), entry);
        }
        cache.save(&path, 1).expect("save");
        let mut lines = SortedLines::open(&path).expect("open");
        for name in &names {
            let line = lines.find(name).expect(name);
            assert!(line.starts_with(&format!("{name}\t")));
        }
        for missing in ["", "a", "src/m0", "src/m300.rs", "zzz", "src/m150.rs\t"] {
            assert_eq!(lines.find(missing), None, "{missing:?}");
        }
        std::fs::write(&path, "lexibrarian-cache v1\t0\n").expect("write");
        assert!(SortedLines::open(&path).is_none());
    }
}
