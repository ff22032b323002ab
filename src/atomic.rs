//! Atomic writes: every file under `.lexibrary/` is written to a temporary file in the same directory
//! and renamed over the target, so a reader (an agent running `lexi lookup`) sees the old file or the
//! new one, never half of one (seed D-060). Renaming is what readers need; no fsync is done,
//! since a crash can only lose a regenerable file, and fsyncing 20,000 files would dominate a full update.

use std::io::Write;
use std::path::Path;

/// Write `contents` to `path` atomically, creating parent directories as needed.
pub fn write(path: &Path, contents: &[u8]) -> std::io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let temp_in = |dir: &Path| {
        tempfile::Builder::new()
            .prefix(".lexi-tmp-")
            .tempfile_in(dir)
    };
    // Create missing parents only when needed: most writes land in existing directories.
    let mut temp = match temp_in(dir) {
        Ok(temp) => temp,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir)?;
            temp_in(dir)?
        }
        Err(err) => return Err(err),
    };
    temp.write_all(contents)?;
    temp.persist(path).map_err(|err| err.error)?;
    Ok(())
}

/// Write only if the file does not already hold exactly `contents`. Returns whether it wrote.
pub fn write_if_changed(path: &Path, contents: &[u8]) -> std::io::Result<bool> {
    match std::fs::read(path) {
        Ok(existing) if existing == contents => Ok(false),
        _ => write(path, contents).map(|()| true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_create_parents_and_replace_whole_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a/b/c.md");
        write(&path, b"one").expect("write");
        write(&path, b"two").expect("rewrite");
        assert_eq!(std::fs::read(&path).expect("read"), b"two");
        assert!(!write_if_changed(&path, b"two").expect("same"));
        let leftovers: Vec<_> = std::fs::read_dir(path.parent().expect("parent"))
            .expect("list")
            .collect();
        assert_eq!(leftovers.len(), 1, "no temp files are left behind");
    }
}
