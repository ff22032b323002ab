//! Files below a trusted root, reached without ever following a symbolic link.
//!
//! Git stores symlinks, so one can arrive in a pull request: `.lexibrary/src/a.rs.md → /etc/passwd`,
//! or a whole mirror directory pointing out of the repository. Every read and write of the
//! library (and of the other files Lexibrarian owns in the project: `.lexignore`, the config, the
//! agent rule files) goes through here: the path below `root` is opened one component at a time
//! with `O_NOFOLLOW` (`openat`), so a symlink anywhere below the root is refused — with an error
//! naming it — and never read through, replaced or written through. There is no check-then-open
//! window: the check *is* the open. The root itself is trusted (the user may reach it through a
//! symlink of their own).
//!
//! Refusals are `std::io::Error`s whose inner error is [`Refused`]: callers that treat "not found"
//! specially keep doing so, and [`is_refused`] tells a refusal from other failures. Unix only, like
//! the rest of the crate; `rustix` (already in the tree through `tempfile` and gix) makes the calls.

use std::ffi::OsStr;
use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Component, Path, PathBuf};

use rustix::fs::{AtFlags, FileType, Mode, OFlags};

/// Why a path was not opened: it, or a directory on the way to it, is a symbolic link (or not a
/// regular file where one is expected).
#[derive(Debug, thiserror::Error)]
#[error("{path}: {what}; Lexibrarian reads and writes only regular files there, never through a symlink — replace it with a regular file (or remove it)")]
pub struct Refused {
    /// The offending path as given (relative to the root), `/`-separated.
    pub path: String,
    /// `is a symbolic link to /etc/passwd`, `is not a regular file`.
    pub what: String,
}

/// Whether `err` is a [`Refused`] (a symlink or a special file where a file was expected).
pub fn is_refused(err: &io::Error) -> bool {
    refusal(err).is_some()
}

/// The [`Refused`] inside `err`, if it is one.
pub fn refusal(err: &io::Error) -> Option<&Refused> {
    err.get_ref()
        .and_then(|inner| inner.downcast_ref::<Refused>())
}

/// Why an operation on `rel` failed, for a line that already names `rel`: the error's message
/// without a leading `rel: ` (a refusal of a directory on the way keeps its own path).
pub fn reason(rel: &str, err: &io::Error) -> String {
    let full = err.to_string();
    full.strip_prefix(&format!("{rel}: "))
        .unwrap_or(&full)
        .to_string()
}

fn refused(path: &Path, what: String) -> io::Error {
    io::Error::other(Refused {
        path: path.to_string_lossy().into_owned(),
        what,
    })
}

/// The normal components of `rel`; `..`, a root or a prefix is an error (nothing may leave the root).
fn components(rel: &Path) -> io::Result<Vec<&OsStr>> {
    rel.components()
        .filter(|component| !matches!(component, Component::CurDir))
        .map(|component| match component {
            Component::Normal(name) => Ok(name),
            _ => Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: a path that leaves its directory", rel.display()),
            )),
        })
        .collect()
}

/// An open directory below a root, reached without symlinks.
#[derive(Debug)]
pub struct Dir {
    fd: OwnedFd,
    /// Relative to the root, for messages.
    rel: PathBuf,
}

impl Dir {
    /// Open `root` itself (following symlinks: the root is trusted).
    pub fn root(root: &Path) -> io::Result<Dir> {
        let fd = rustix::fs::open(
            root,
            OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
            Mode::empty(),
        )?;
        Ok(Dir {
            fd,
            rel: PathBuf::new(),
        })
    }

    /// Open directory `rel` below `root`, creating missing directories (with the umask's mode) when
    /// `create` is set.
    pub fn open(root: &Path, rel: &Path, create: bool) -> io::Result<Dir> {
        let mut dir = Dir::root(root)?;
        for name in components(rel)? {
            dir = dir.child(name, create)?;
        }
        Ok(dir)
    }

    /// The subdirectory `name` of this one.
    fn child(&self, name: &OsStr, create: bool) -> io::Result<Dir> {
        let rel = self.rel.join(name);
        let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
        let opened = match rustix::fs::openat(&self.fd, name, flags, Mode::empty()) {
            Err(rustix::io::Errno::NOENT) if create => {
                match rustix::fs::mkdirat(&self.fd, name, Mode::from_raw_mode(0o777)) {
                    Ok(()) | Err(rustix::io::Errno::EXIST) => {}
                    Err(err) => return Err(err.into()),
                }
                rustix::fs::openat(&self.fd, name, flags, Mode::empty())
            }
            other => other,
        };
        match opened {
            Ok(fd) => Ok(Dir { fd, rel }),
            Err(err) => Err(self.explain(name, err.into())),
        }
    }

    /// Turn a failed open of `name` into a [`Refused`] when `name` is a symlink.
    fn explain(&self, name: &OsStr, err: io::Error) -> io::Error {
        if err.kind() == io::ErrorKind::NotFound {
            return err;
        }
        match self.file_type(name) {
            Ok(Some(FileType::Symlink)) => {
                let target = rustix::fs::readlinkat(&self.fd, name, Vec::new())
                    .map(|target| target.to_string_lossy().into_owned())
                    .unwrap_or_else(|_| "somewhere".to_string());
                refused(
                    &self.rel.join(name),
                    format!("is a symbolic link (to {target})"),
                )
            }
            _ => err,
        }
    }

    /// The type of entry `name` (not following a symlink); `None` when there is none.
    pub fn file_type(&self, name: &OsStr) -> io::Result<Option<FileType>> {
        self.stat(name)
            .map(|stat| stat.map(|stat| FileType::from_raw_mode(stat.st_mode)))
    }

    /// `lstat` of entry `name`; `None` when there is none.
    pub fn stat(&self, name: &OsStr) -> io::Result<Option<rustix::fs::Stat>> {
        match rustix::fs::statat(&self.fd, name, AtFlags::SYMLINK_NOFOLLOW) {
            Ok(stat) => Ok(Some(stat)),
            Err(rustix::io::Errno::NOENT) => Ok(None),
            Err(err) => Err(err.into()),
        }
    }

    /// Open regular file `name` in this directory for reading. A symlink or a special file (a FIFO
    /// would block) is refused.
    pub fn open_file(&self, name: &OsStr) -> io::Result<File> {
        let flags =
            OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NOCTTY | OFlags::NONBLOCK;
        let fd = rustix::fs::openat(&self.fd, name, flags, Mode::empty())
            .map_err(|err| self.explain(name, err.into()))?;
        let kind = FileType::from_raw_mode(rustix::fs::fstat(&fd)?.st_mode);
        if kind != FileType::RegularFile {
            let what = match kind {
                FileType::Directory => {
                    return Err(io::Error::new(
                        io::ErrorKind::IsADirectory,
                        format!("{}: is a directory", self.rel.join(name).display()),
                    ))
                }
                _ => "is not a regular file".to_string(),
            };
            return Err(refused(&self.rel.join(name), what));
        }
        Ok(File::from(fd))
    }

    /// Remove file `name` from this directory (a symlink itself may be removed: that does not
    /// follow it).
    pub fn remove_file(&self, name: &OsStr) -> io::Result<()> {
        rustix::fs::unlinkat(&self.fd, name, AtFlags::empty()).map_err(Into::into)
    }

    /// Remove the empty directory `name`.
    pub fn remove_dir(&self, name: &OsStr) -> io::Result<()> {
        rustix::fs::unlinkat(&self.fd, name, AtFlags::REMOVEDIR).map_err(Into::into)
    }

    /// The underlying descriptor, for `*at` calls.
    pub fn fd(&self) -> &OwnedFd {
        &self.fd
    }

    /// This directory relative to the root it was opened from.
    pub fn rel(&self) -> &Path {
        &self.rel
    }
}

/// The directory holding `rel` (opened without symlinks, created when `create`) and `rel`'s file name.
pub fn parent_of<'r>(root: &Path, rel: &'r Path, create: bool) -> io::Result<(Dir, &'r OsStr)> {
    let mut parts = components(rel)?;
    let name = parts.pop().ok_or_else(|| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}: not a file path", rel.display()),
        )
    })?;
    let mut dir = Dir::root(root)?;
    for part in parts {
        dir = dir.child(part, create)?;
    }
    Ok((dir, name))
}

/// Directories below a root kept open along the path last asked for: a run that reaches many files
/// in path order (the update's design files) opens — and creates — each directory once, instead of
/// every directory on the way once per file. The same guarantees as [`parent_of`]: each component
/// opened with `O_NOFOLLOW` from its open parent. At most one handle per level of the deepest path
/// is held.
#[derive(Debug)]
pub struct OpenDirs {
    root: PathBuf,
    base: Option<Dir>,
    /// The open directories of the current path, outermost first, with their names.
    chain: Vec<(std::ffi::OsString, Dir)>,
}

impl OpenDirs {
    pub fn new(root: &Path) -> OpenDirs {
        OpenDirs {
            root: root.to_path_buf(),
            base: None,
            chain: Vec::new(),
        }
    }

    /// The directory holding `rel` (created when `create`) and `rel`'s file name, like
    /// [`parent_of`], reusing the handles of the directories this path shares with the last one.
    pub fn parent_of<'r>(&mut self, rel: &'r Path, create: bool) -> io::Result<(&Dir, &'r OsStr)> {
        let mut parts = components(rel)?;
        let name = parts.pop().ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: not a file path", rel.display()),
            )
        })?;
        let shared = self
            .chain
            .iter()
            .zip(&parts)
            .take_while(|((open, _), part)| open.as_os_str() == **part)
            .count();
        self.chain.truncate(shared);
        if self.base.is_none() {
            self.base = Some(Dir::root(&self.root)?);
        }
        for part in &parts[shared..] {
            let parent = match self.chain.last() {
                Some((_, dir)) => dir,
                None => self
                    .base
                    .as_ref()
                    .ok_or_else(|| io::Error::other("no root"))?,
            };
            let child = parent.child(part, create)?;
            self.chain.push((part.to_os_string(), child));
        }
        let dir = match self.chain.last() {
            Some((_, dir)) => dir,
            None => self
                .base
                .as_ref()
                .ok_or_else(|| io::Error::other("no root"))?,
        };
        Ok((dir, name))
    }

    /// Close every handle: the next call opens its path afresh (after a directory on the way may
    /// have been removed and created again).
    pub fn forget(&mut self) {
        self.chain.clear();
        self.base = None;
    }
}

/// A root opened once (`O_PATH`) for the many reads below it of one run: reading 20,000 sources
/// opened and closed the root 20,000 times. Cloning shares the handle; the first read opens it.
/// A root that cannot be opened so is opened again by each read, which then words the failure.
#[derive(Clone, Debug, Default)]
pub struct RootHandle(std::sync::Arc<std::sync::OnceLock<Option<OwnedFd>>>);

impl RootHandle {
    fn fd(&self, root: &Path) -> Option<BorrowedFd<'_>> {
        self.0
            .get_or_init(|| open_root(root).ok())
            .as_ref()
            .map(|fd| fd.as_fd())
    }
}

fn open_root(root: &Path) -> io::Result<OwnedFd> {
    let flags = OFlags::PATH | OFlags::DIRECTORY | OFlags::CLOEXEC;
    Ok(rustix::fs::open(root, flags, Mode::empty())?)
}

/// Open the regular file `rel` below `root` for reading.
pub fn open(root: &Path, rel: impl AsRef<Path>) -> io::Result<File> {
    open_sized(root, &RootHandle::default(), rel.as_ref()).map(|(file, _)| file)
}

/// [`open`] through the root's `handle`, with the file's size when the open already learnt it (no
/// second `stat`).
fn open_sized(root: &Path, handle: &RootHandle, rel: &Path) -> io::Result<(File, Option<u64>)> {
    if let Some(opened) = open_resolved(root, handle, rel)? {
        return Ok(opened);
    }
    let (dir, name) = parent_of(root, rel, false)?;
    dir.open_file(name).map(|file| (file, None))
}

/// The fast way to [`open`]: one `openat2` from the root with `RESOLVE_NO_SYMLINKS` and
/// `RESOLVE_BENEATH` (Linux 5.6+), where the kernel refuses a symlink anywhere on the way — two
/// opens a file instead of one a directory on the way (`validate` of 20,000 design files made
/// 363,000 `openat` calls), one with the root's handle. `None` when it is not a regular file
/// reached so: then the walk one component at a time opens it or words the refusal (a symlink, a
/// special file), and stands in where `openat2` is missing.
fn open_resolved(
    root: &Path,
    handle: &RootHandle,
    rel: &Path,
) -> io::Result<Option<(File, Option<u64>)>> {
    use rustix::fs::ResolveFlags;
    components(rel)?;
    let owned;
    let root_fd = match handle.fd(root) {
        Some(fd) => fd,
        None => {
            owned = open_root(root)?;
            owned.as_fd()
        }
    };
    let flags =
        OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::CLOEXEC | OFlags::NOCTTY | OFlags::NONBLOCK;
    let resolve = ResolveFlags::NO_SYMLINKS | ResolveFlags::BENEATH | ResolveFlags::NO_MAGICLINKS;
    match rustix::fs::openat2(root_fd, rel, flags, Mode::empty(), resolve) {
        Ok(fd) => {
            let stat = rustix::fs::fstat(&fd)?;
            Ok(FileType::from_raw_mode(stat.st_mode)
                .is_file()
                .then(|| (File::from(fd), u64::try_from(stat.st_size).ok())))
        }
        Err(rustix::io::Errno::NOENT) => Err(rustix::io::Errno::NOENT.into()),
        Err(_) => Ok(None),
    }
}

/// The bytes of the regular file `rel` below `root`.
pub fn read(root: &Path, rel: impl AsRef<Path>) -> io::Result<Vec<u8>> {
    read_below(root, &RootHandle::default(), rel)
}

/// [`read`] through the root's `handle`.
pub fn read_below(root: &Path, handle: &RootHandle, rel: impl AsRef<Path>) -> io::Result<Vec<u8>> {
    let (file, size) = open_sized(root, handle, rel.as_ref())?;
    let size = match size {
        Some(size) => size,
        None => file.metadata()?.len(),
    };
    // One byte more than the size, so that the read that finds the end needs no new room; read
    // through `Take`, whose `read_to_end` does not ask the file for its size again (`File`'s
    // does: a `statx` and an `lseek` a file).
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0).saturating_add(1));
    file.take(u64::MAX).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// [`read_below`], but never more than `max` bytes: a larger file is an
/// `ErrorKind::FileTooLarge` error whose message is its size, and is not read (one that grows
/// while it is read is cut off at `max + 1` bytes and refused the same way).
pub fn read_below_capped(
    root: &Path,
    handle: &RootHandle,
    rel: impl AsRef<Path>,
    max: u64,
) -> io::Result<Vec<u8>> {
    let (file, size) = open_sized(root, handle, rel.as_ref())?;
    let size = match size {
        Some(size) => size,
        None => file.metadata()?.len(),
    };
    let too_large = |size: u64| io::Error::new(io::ErrorKind::FileTooLarge, size.to_string());
    if size > max {
        return Err(too_large(size));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0).saturating_add(1));
    file.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_large(bytes.len() as u64));
    }
    Ok(bytes)
}

/// The text of the regular file `rel` below `root` (an error when it is not UTF-8).
pub fn read_to_string(root: &Path, rel: impl AsRef<Path>) -> io::Result<String> {
    read_to_string_below(root, &RootHandle::default(), rel)
}

/// [`read_to_string`] through the root's `handle`.
pub fn read_to_string_below(
    root: &Path,
    handle: &RootHandle,
    rel: impl AsRef<Path>,
) -> io::Result<String> {
    let rel = rel.as_ref();
    String::from_utf8(read_below(root, handle, rel)?).map_err(|_| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: not valid UTF-8", rel.display()),
        )
    })
}

/// The type of `rel` below `root` without following anything; `None` when it does not exist (or a
/// directory on the way does not). A symlinked directory on the way is refused.
pub fn file_type(root: &Path, rel: impl AsRef<Path>) -> io::Result<Option<FileType>> {
    match parent_of(root, rel.as_ref(), false) {
        Ok((dir, name)) => dir.file_type(name),
        Err(err) if err.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(err) => Err(err),
    }
}

/// The type of the entry at `path` itself (`lstat`: a symlink is reported as one, never followed;
/// a FIFO is looked at, never opened); `None` when there is none.
pub fn entry_type(path: &Path) -> Option<FileType> {
    rustix::fs::lstat(path)
        .ok()
        .map(|stat| FileType::from_raw_mode(stat.st_mode))
}

/// `a FIFO`, `a socket`, … for a message about a file that is not a regular file.
pub fn describe_type(kind: FileType) -> &'static str {
    match kind {
        FileType::RegularFile => "a regular file",
        FileType::Directory => "a directory",
        FileType::Symlink => "a symbolic link",
        FileType::Fifo => "a FIFO",
        FileType::Socket => "a socket",
        FileType::CharacterDevice => "a character device",
        FileType::BlockDevice => "a block device",
        FileType::Unknown => "not a regular file",
    }
}

/// Whether `rel` below `root` is a symlink (or sits below a symlinked directory).
pub fn is_symlink(root: &Path, rel: impl AsRef<Path>) -> bool {
    match file_type(root, rel) {
        Ok(kind) => kind == Some(FileType::Symlink),
        Err(err) => is_refused(&err),
    }
}

/// Remove the empty directory `rel` below `root` (a symlink there is not a directory: it stays).
pub fn remove_dir(root: &Path, rel: impl AsRef<Path>) -> io::Result<()> {
    let (dir, name) = parent_of(root, rel.as_ref(), false)?;
    dir.remove_dir(name)
}

/// Remove the file `rel` below `root` (never anything a symlinked directory leads to).
pub fn remove_file(root: &Path, rel: impl AsRef<Path>) -> io::Result<()> {
    let (dir, name) = parent_of(root, rel.as_ref(), false)?;
    dir.remove_file(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path();
        std::fs::create_dir_all(root.join("lib/src")).expect("mkdir");
        std::fs::write(root.join("lib/src/a.md"), "inside").expect("write");
        std::fs::write(root.join("outside.md"), "outside").expect("write");
        std::os::unix::fs::symlink(root.join("outside.md"), root.join("lib/src/link.md"))
            .expect("symlink");
        std::os::unix::fs::symlink(root.join("lib/src"), root.join("lib/dirlink"))
            .expect("symlink");
        dir
    }

    #[test]
    fn open_dirs_reuse_the_shared_directories_and_still_refuse_symlinks() {
        let root = tempfile::tempdir().expect("tempdir");
        let mut dirs = OpenDirs::new(root.path());
        for rel in ["a/b/one", "a/b/two", "a/c/three", "d/four", "top"] {
            let (dir, name) = dirs.parent_of(Path::new(rel), true).expect("open");
            crate::atomic::write_at(dir, name, rel.as_bytes()).expect("write");
        }
        for rel in ["a/b/one", "a/b/two", "a/c/three", "d/four", "top"] {
            assert_eq!(
                std::fs::read_to_string(root.path().join(rel)).expect("read"),
                rel
            );
        }
        assert!(dirs.chain.is_empty(), "the last path was at the top");
        std::os::unix::fs::symlink("/tmp", root.path().join("link")).expect("symlink");
        let err = dirs
            .parent_of(Path::new("link/x"), true)
            .expect_err("a symlink on the way");
        assert!(is_refused(&err), "{err}");
        let missing = dirs
            .parent_of(Path::new("nope/x"), false)
            .expect_err("not created");
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        // A directory removed and created again after it was opened: forget, and open afresh.
        let (_, _) = dirs.parent_of(Path::new("d/five"), true).expect("open");
        std::fs::remove_dir_all(root.path().join("d")).expect("remove");
        dirs.forget();
        let (dir, name) = dirs.parent_of(Path::new("d/five"), true).expect("reopen");
        crate::atomic::write_at(dir, name, b"5").expect("write");
        assert_eq!(
            std::fs::read(root.path().join("d/five")).expect("read"),
            b"5"
        );
    }

    #[test]
    fn regular_files_are_read_and_symlinks_are_refused_by_name() {
        let dir = tree();
        let root = dir.path();
        assert_eq!(
            read_to_string(root, "lib/src/a.md").expect("read"),
            "inside"
        );
        let err = read(root, "lib/src/link.md").expect_err("a symlinked file");
        assert!(is_refused(&err), "{err}");
        let message = err.to_string();
        assert!(
            message.starts_with("lib/src/link.md: is a symbolic link (to "),
            "{message}"
        );
        assert!(message.contains("outside.md"), "{message}");
        let err = read(root, "lib/dirlink/a.md").expect_err("a symlinked directory");
        assert!(is_refused(&err), "{err}");
        assert!(err.to_string().starts_with("lib/dirlink: "), "{err}");
        let missing = read(root, "lib/src/none.md").expect_err("missing");
        assert_eq!(missing.kind(), io::ErrorKind::NotFound);
        assert!(!is_refused(&missing));
    }

    #[test]
    fn nothing_leaves_the_root_and_special_files_are_refused() {
        let dir = tree();
        let root = dir.path().join("lib");
        let err = read(&root, "../outside.md").expect_err("parent");
        assert_eq!(err.kind(), io::ErrorKind::InvalidInput);
        assert_eq!(
            read(&root, "src").expect_err("a directory").kind(),
            io::ErrorKind::IsADirectory
        );
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            root.join("fifo"),
            Mode::from_raw_mode(0o644),
        )
        .expect("mkfifo");
        let err = read(&root, "fifo").expect_err("a FIFO never blocks the reader");
        assert!(is_refused(&err), "{err}");
    }

    #[test]
    fn types_and_removal_never_follow() {
        let dir = tree();
        let root = dir.path();
        assert!(is_symlink(root, "lib/src/link.md"));
        assert!(is_symlink(root, "lib/dirlink/a.md"));
        assert!(!is_symlink(root, "lib/src/a.md"));
        assert_eq!(file_type(root, "lib/none/x").expect("type"), None);
        remove_file(root, "lib/src/link.md").expect("remove the link");
        assert!(root.join("outside.md").exists(), "the target stays");
        assert!(remove_file(root, "lib/dirlink/a.md").is_err());
        assert!(root.join("lib/src/a.md").exists());
    }
}
