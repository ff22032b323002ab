//! Atomic writes: every file Lexibrarian writes is written to a temporary file in the same directory
//! and renamed over the target, so a reader (an agent running `lexi lookup`) sees the old file or the
//! new one, never half of one (seed D-060). Renaming is what readers need; no fsync is done,
//! since a crash can only lose a regenerable file, and fsyncing 20,000 files would dominate a full update.
//!
//! - **No symlinks.** The directories on the way are opened with `O_NOFOLLOW` ([`crate::nofollow`])
//!   and a target that is a symlink is refused: a write never goes through a link, and never
//!   replaces one with a regular file.
//! - **Modes.** A new file gets `0666` less the umask (`0644` under the usual `022`), like any
//!   program's; rewriting an existing file keeps its mode, and its owner and group where the
//!   process may set them (a shared, group-writable checkout stays so).
//! - **Recognisable debris.** Temporary files are named `.lexi-tmp-<pid>-<n>`. One left by a killed
//!   process is [`is_debris`] (its process is gone); `lexictl update` removes those under the
//!   library lock, `lexictl validate` reports any it finds, and the `.gitignore` block `lexictl
//!   init` writes keeps them out of commits ([`TEMP_PATTERN`]).

use std::ffi::{OsStr, OsString};
use std::io::{self, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};

use rustix::fs::{FileType, Mode, OFlags};

use crate::nofollow::{self, Dir};

/// Prefix of every temporary file name.
pub const TEMP_PREFIX: &str = ".lexi-tmp-";
/// The gitignore pattern that matches temporary files anywhere.
pub const TEMP_PATTERN: &str = ".lexi-tmp-*";

/// Write `contents` to `path` atomically, creating parent directories as needed. The parent
/// directory is trusted (it may be reached through symlinks); the file itself may not be a symlink.
pub fn write(path: &Path, contents: &[u8]) -> io::Result<()> {
    let (dir, name) = trusted_parent(path)?;
    let opened = match Dir::root(dir) {
        Err(err) if err.kind() == io::ErrorKind::NotFound => {
            std::fs::create_dir_all(dir)?;
            Dir::root(dir)?
        }
        other => other?,
    };
    write_in(&opened, name, contents)
}

/// Write `contents` to `rel` below `root` atomically, creating directories as needed: no symlink
/// anywhere below `root` is followed (see [`crate::nofollow`]).
pub fn write_under(root: &Path, rel: impl AsRef<Path>, contents: &[u8]) -> io::Result<()> {
    let (dir, name) = nofollow::parent_of(root, rel.as_ref(), true)?;
    write_in(&dir, name, contents)
}

/// Create `rel` below `root` holding `contents`; `AlreadyExists` when anything (a file, a symlink)
/// is there already, so two writers allocating the same name never overwrite each other. The name is
/// claimed with an exclusive create, then the contents replace the empty file atomically.
pub fn create_under(root: &Path, rel: impl AsRef<Path>, contents: &[u8]) -> io::Result<()> {
    let (dir, name) = nofollow::parent_of(root, rel.as_ref(), true)?;
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    drop(rustix::fs::openat(
        dir.fd(),
        name,
        flags,
        Mode::from_raw_mode(0o666),
    )?);
    write_in(&dir, name, contents)
}

/// A file written in full under a temporary name beside its target, waiting to replace it: for a
/// change that must happen together with another or not at all (a Stack vote and its event in the
/// notes). Staging does what can fail for want of space or permission; [`Staged::commit`] only
/// renames. Dropped without a commit, the temporary file is removed.
pub struct Staged {
    dir: Dir,
    temp_name: OsString,
    name: OsString,
    committed: bool,
}

/// Stage `contents` for `rel` below `root`, following no symlink (as [`write_under`] would write
/// it, mode and all), without replacing anything yet.
pub fn stage_under(root: &Path, rel: impl AsRef<Path>, contents: &[u8]) -> io::Result<Staged> {
    let (dir, name) = nofollow::parent_of(root, rel.as_ref(), true)?;
    let existing = dir.stat(name)?;
    if let Some(stat) = &existing {
        refuse_unless_regular(&dir, name, stat)?;
    }
    let (temp_name, file) = create_temp(&dir)?;
    if let Err(err) = fill(file, contents, existing.as_ref()) {
        let _ = dir.remove_file(&temp_name);
        return Err(err);
    }
    Ok(Staged {
        name: name.to_os_string(),
        dir,
        temp_name,
        committed: false,
    })
}

impl Staged {
    /// Put the staged file in place of its target (a rename: no space needed).
    pub fn commit(mut self) -> io::Result<()> {
        rustix::fs::renameat(self.dir.fd(), &self.temp_name, self.dir.fd(), &self.name)?;
        self.committed = true;
        Ok(())
    }

    /// Put the staged file in place only if nothing is at its target (a new file whose name must
    /// never be reused): `Ok(false)`, and nothing renamed, when something is.
    pub fn commit_new(mut self) -> io::Result<bool> {
        let created = rename_noreplace(&self.dir, &self.temp_name, &self.name)?;
        self.committed = created;
        Ok(created)
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            let _ = self.dir.remove_file(&self.temp_name);
        }
    }
}

/// Write only if the file does not already hold exactly `contents`. Returns whether it wrote.
pub fn write_if_changed(path: &Path, contents: &[u8]) -> io::Result<bool> {
    let (dir, name) = trusted_parent(path)?;
    match nofollow::read(dir, name) {
        Ok(existing) if existing == contents => Ok(false),
        Err(err) if nofollow::is_refused(&err) => Err(err),
        _ => write(path, contents).map(|()| true),
    }
}

/// [`write_if_changed`] for `rel` below `root`, following no symlink.
pub fn write_under_if_changed(
    root: &Path,
    rel: impl AsRef<Path>,
    contents: &[u8],
) -> io::Result<bool> {
    let rel = rel.as_ref();
    match nofollow::read(root, rel) {
        Ok(existing) if existing == contents => Ok(false),
        Err(err) if nofollow::is_refused(&err) => Err(err),
        _ => write_under(root, rel, contents).map(|()| true),
    }
}

/// Write `contents` to entry `name` of the open directory `dir` atomically (the directory was opened
/// without symlinks, e.g. by [`nofollow::OpenDirs`]).
pub fn write_at(dir: &Dir, name: &OsStr, contents: &[u8]) -> io::Result<()> {
    write_in(dir, name, contents)
}

/// [`write_at`] when the caller has just looked at `name` itself: `seen` is its `lstat` then
/// (`None`: nothing was there), which must be a regular file's. Saves the second look; returns the
/// `fstat` of the file written (its size and modification time, for a cache).
pub fn replace_at(
    dir: &Dir,
    name: &OsStr,
    contents: &[u8],
    seen: Option<&rustix::fs::Stat>,
) -> io::Result<rustix::fs::Stat> {
    if let Some(stat) = seen {
        refuse_unless_regular(dir, name, stat)?;
    }
    let (temp_name, file) = create_temp(dir)?;
    let written = fill(file, contents, seen).and_then(|stat| {
        rustix::fs::renameat(dir.fd(), &temp_name, dir.fd(), name)?;
        Ok(stat)
    });
    if written.is_err() {
        let _ = dir.remove_file(&temp_name);
    }
    written
}

/// Write `contents` as the new entry `name` of `dir` only if nothing is there, atomically: the
/// rename itself refuses to replace anything (`RENAME_NOREPLACE`), so no look comes first and no
/// window is left between a look and the write. `Ok(None)`, nothing written, when something is
/// there. Where the filesystem cannot rename so, a look, then the rename. Returns the `fstat` of
/// the file written.
pub fn create_new_at(
    dir: &Dir,
    name: &OsStr,
    contents: &[u8],
) -> io::Result<Option<rustix::fs::Stat>> {
    let (temp_name, file) = create_temp(dir)?;
    let written = fill(file, contents, None)
        .and_then(|stat| Ok(rename_noreplace(dir, &temp_name, name)?.then_some(stat)));
    if !matches!(written, Ok(Some(_))) {
        let _ = dir.remove_file(&temp_name);
    }
    written
}

/// Rename `temp_name` to `name` in `dir` unless something is there (`Ok(false)`, nothing renamed):
/// `RENAME_NOREPLACE`, else a look and a rename where the filesystem cannot rename so.
fn rename_noreplace(dir: &Dir, temp_name: &OsStr, name: &OsStr) -> io::Result<bool> {
    use rustix::fs::RenameFlags;
    use rustix::io::Errno;
    match rustix::fs::renameat_with(dir.fd(), temp_name, dir.fd(), name, RenameFlags::NOREPLACE) {
        Ok(()) => Ok(true),
        Err(Errno::EXIST) => Ok(false),
        // No such rename here (an old kernel, NFS; EPERM: a sandbox that refuses the call).
        Err(Errno::INVAL | Errno::NOSYS | Errno::NOTSUP | Errno::PERM) => match dir.stat(name)? {
            Some(_) => Ok(false),
            None => {
                rustix::fs::renameat(dir.fd(), temp_name, dir.fd(), name)?;
                Ok(true)
            }
        },
        Err(err) => Err(err.into()),
    }
}

fn trusted_parent(path: &Path) -> io::Result<(&Path, &OsStr)> {
    let name = path.file_name().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a file path", path.display()),
        )
    })?;
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    Ok((dir, name))
}

/// The write itself: refuse a symlink or special file at `name`, write a temporary file with the
/// right mode, rename it over `name`.
fn write_in(dir: &Dir, name: &OsStr, contents: &[u8]) -> io::Result<()> {
    let existing = dir.stat(name)?;
    replace_at(dir, name, contents, existing.as_ref()).map(drop)
}

/// An error unless `stat` (of `name` in `dir`) is a regular file's.
fn refuse_unless_regular(dir: &Dir, name: &OsStr, stat: &rustix::fs::Stat) -> io::Result<()> {
    if FileType::from_raw_mode(stat.st_mode) == FileType::RegularFile {
        return Ok(());
    }
    // Let the nofollow layer word the refusal (it names the link's target).
    Err(match dir.open_file(name) {
        Err(err) => err,
        Ok(_) => io::Error::other(format!(
            "{}: is not a regular file",
            dir.rel().join(name).display()
        )),
    })
}

/// Write the contents; give the file the existing file's mode (and owner and group, where allowed).
/// Returns the file's `fstat` once written.
fn fill(
    mut file: std::fs::File,
    contents: &[u8],
    existing: Option<&rustix::fs::Stat>,
) -> io::Result<rustix::fs::Stat> {
    file.write_all(contents)?;
    let ours = rustix::fs::fstat(&file)?;
    if let Some(stat) = existing {
        if (ours.st_uid, ours.st_gid) != (stat.st_uid, stat.st_gid) {
            // Only root may give a file away; a member may set one of its groups. Best effort.
            let owner = rustix::fs::Uid::from_raw(stat.st_uid);
            let group = rustix::fs::Gid::from_raw(stat.st_gid);
            if rustix::fs::fchown(&file, Some(owner), Some(group)).is_err() {
                let _ = rustix::fs::fchown(&file, None, Some(group));
            }
        }
        // After chown, which may clear set-id bits.
        rustix::fs::fchmod(&file, Mode::from_raw_mode(stat.st_mode & 0o7777))?;
    }
    Ok(ours)
}

/// Create a new temporary file in `dir` (mode `0666` less the umask).
fn create_temp(dir: &Dir) -> io::Result<(OsString, std::fs::File)> {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    // Once a process: `getpid` was two system calls a file written.
    static PID: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    let pid = *PID.get_or_init(std::process::id);
    let flags = OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    loop {
        let n = COUNTER.fetch_add(1, Ordering::Relaxed);
        let name = OsString::from(format!("{TEMP_PREFIX}{pid}-{n}"));
        match rustix::fs::openat(dir.fd(), &name, flags, Mode::from_raw_mode(0o666)) {
            Ok(fd) => return Ok((name, std::fs::File::from(fd))),
            // Left by an earlier process with the same pid: take the next number.
            Err(rustix::io::Errno::EXIST) => continue,
            Err(err) => return Err(err.into()),
        }
    }
}

/// Whether `name` is a temporary file name of ours.
pub fn is_temp_name(name: &str) -> bool {
    name.starts_with(TEMP_PREFIX)
}

/// Whether the file called `name` is a temporary file whose writer is gone: a `.lexi-tmp-` name
/// whose process no longer runs (or an older name that records no process).
pub fn is_debris(name: &str) -> bool {
    let Some(rest) = name.strip_prefix(TEMP_PREFIX) else {
        return false;
    };
    let pid = rest
        .split_once('-')
        .and_then(|(pid, _)| pid.parse::<i32>().ok())
        .and_then(rustix::process::Pid::from_raw);
    match pid {
        // EPERM: it runs, as someone else.
        Some(pid) => matches!(
            rustix::process::test_kill_process(pid),
            Err(rustix::io::Errno::SRCH)
        ),
        None => true,
    }
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};

    use super::*;

    fn leftovers(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("list")
            .map(|entry| {
                entry
                    .expect("entry")
                    .file_name()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        names.sort();
        names
    }

    #[test]
    fn writes_create_parents_and_replace_whole_files() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("a/b/c.md");
        write(&path, b"one").expect("write");
        write(&path, b"two").expect("rewrite");
        assert_eq!(std::fs::read(&path).expect("read"), b"two");
        assert!(!write_if_changed(&path, b"two").expect("same"));
        assert_eq!(
            leftovers(path.parent().expect("parent")),
            ["c.md"],
            "no temp files are left behind"
        );
        write_under(dir.path(), "x/y/z.md", b"z").expect("write under");
        assert!(!write_under_if_changed(dir.path(), "x/y/z.md", b"z").expect("same"));
        assert_eq!(
            std::fs::read(dir.path().join("x/y/z.md")).expect("read"),
            b"z"
        );
    }

    #[test]
    fn a_staged_file_replaces_its_target_only_when_committed() {
        let dir = tempfile::tempdir().expect("tempdir");
        write_under(dir.path(), "s/post.md", b"old").expect("write");
        let staged = stage_under(dir.path(), "s/post.md", b"new").expect("stage");
        assert_eq!(
            std::fs::read(dir.path().join("s/post.md")).expect("read"),
            b"old"
        );
        drop(staged);
        assert_eq!(
            leftovers(&dir.path().join("s")),
            ["post.md"],
            "dropped: no temp file"
        );
        stage_under(dir.path(), "s/post.md", b"new")
            .expect("stage")
            .commit()
            .expect("commit");
        assert_eq!(
            std::fs::read(dir.path().join("s/post.md")).expect("read"),
            b"new"
        );
        // A new file's name is never taken from another.
        let taken = stage_under(dir.path(), "s/post.md", b"other").expect("stage");
        assert!(!taken.commit_new().expect("commit_new"));
        let fresh = stage_under(dir.path(), "s/next.md", b"next").expect("stage");
        assert!(fresh.commit_new().expect("commit_new"));
        assert_eq!(leftovers(&dir.path().join("s")), ["next.md", "post.md"]);
        assert_eq!(
            std::fs::read(dir.path().join("s/post.md")).expect("read"),
            b"new"
        );
    }

    #[test]
    fn new_files_follow_the_umask_and_rewrites_keep_the_mode() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("new.md");
        write(&path, b"x").expect("write");
        let mode = std::fs::metadata(&path).expect("stat").permissions().mode() & 0o777;
        let umask = current_umask();
        assert_eq!(mode, 0o666 & !umask, "umask {umask:o}");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o664)).expect("chmod");
        write(&path, b"y").expect("rewrite");
        let meta = std::fs::metadata(&path).expect("stat");
        assert_eq!(meta.permissions().mode() & 0o777, 0o664);
        assert_eq!(meta.uid(), rustix::process::geteuid().as_raw());
    }

    /// The process umask, as the kernel reports it.
    fn current_umask() -> u32 {
        let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
        let line = status
            .lines()
            .find_map(|line| line.strip_prefix("Umask:"))
            .expect("an Umask line");
        u32::from_str_radix(line.trim(), 8).expect("octal")
    }

    #[test]
    fn symlinks_are_never_replaced_or_written_through() {
        let dir = tempfile::tempdir().expect("tempdir");
        let target = dir.path().join("target.md");
        std::fs::write(&target, "theirs").expect("write");
        let link = dir.path().join("lib/START_HERE.md");
        std::fs::create_dir_all(link.parent().expect("parent")).expect("mkdir");
        std::os::unix::fs::symlink(&target, &link).expect("symlink");
        let err = write(&link, b"ours").expect_err("refused");
        assert!(nofollow::is_refused(&err), "{err}");
        let err = write_under(dir.path(), "lib/START_HERE.md", b"ours").expect_err("refused");
        assert!(
            err.to_string()
                .starts_with("lib/START_HERE.md: is a symbolic link"),
            "{err}"
        );
        assert!(write_if_changed(&link, b"ours").is_err());
        assert_eq!(std::fs::read_to_string(&target).expect("read"), "theirs");
        assert!(std::fs::symlink_metadata(&link)
            .expect("lstat")
            .file_type()
            .is_symlink());
        assert_eq!(leftovers(&dir.path().join("lib")), ["START_HERE.md"]);
        // A symlinked directory on the way is refused too.
        std::os::unix::fs::symlink(dir.path(), dir.path().join("lib/up")).expect("symlink");
        assert!(write_under(dir.path(), "lib/up/new.md", b"x").is_err());
        assert!(!dir.path().join("new.md").exists());
    }

    #[test]
    fn creation_is_exclusive() {
        let dir = tempfile::tempdir().expect("tempdir");
        create_under(dir.path(), "c/A.md", b"a").expect("create");
        let err = create_under(dir.path(), "c/A.md", b"b").expect_err("exists");
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("c/B.md")).expect("symlink");
        let err = create_under(dir.path(), "c/B.md", b"b").expect_err("a link is there");
        assert_eq!(err.kind(), io::ErrorKind::AlreadyExists);
        assert_eq!(
            std::fs::read(dir.path().join("c/A.md")).expect("read"),
            b"a"
        );
    }

    #[test]
    fn a_new_file_is_created_only_where_nothing_is() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (lib, name) =
            nofollow::parent_of(dir.path(), Path::new("lib/a.md"), true).expect("dir");
        let stat = create_new_at(&lib, name, b"ours").expect("create");
        assert_eq!(stat.map(|stat| stat.st_size), Some(4));
        let a = dir.path().join("lib/a.md");
        assert_eq!(std::fs::read(&a).expect("read"), b"ours");
        std::fs::write(&a, "theirs").expect("an edit lands");
        assert!(create_new_at(&lib, name, b"again")
            .expect("looked")
            .is_none());
        assert_eq!(std::fs::read(&a).expect("read"), b"theirs");
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("lib/b.md")).expect("symlink");
        let b = std::ffi::OsStr::new("b.md");
        assert!(create_new_at(&lib, b, b"x").expect("looked").is_none());
        assert!(std::fs::symlink_metadata(dir.path().join("lib/b.md"))
            .expect("lstat")
            .file_type()
            .is_symlink());
        assert_eq!(leftovers(&dir.path().join("lib")), ["a.md", "b.md"]);
    }

    #[test]
    fn temp_files_of_dead_processes_are_debris() {
        assert!(!is_debris("a.md"));
        assert!(!is_debris(&format!(
            "{TEMP_PREFIX}{}-0",
            std::process::id()
        )));
        assert!(
            is_debris(".lexi-tmp-AbC123"),
            "an older name with no process"
        );
        let mut child = std::process::Command::new("true").spawn().expect("spawn");
        let pid = child.id();
        child.wait().expect("wait");
        assert!(is_debris(&format!("{TEMP_PREFIX}{pid}-7")));
    }
}
