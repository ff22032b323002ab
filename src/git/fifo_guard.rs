//! A guard around the working-tree status against `.gitignore` FIFOs.
//!
//! gix's status walks the working tree and opens the `.gitignore` of every directory it enters;
//! opening a FIFO for reading blocks until something writes to it, so one FIFO named `.gitignore`
//! (git cannot track one, but a tool or a person can leave one) would hang the update for ever —
//! and `git status` with it. [`guarded`] runs the status while a watchdog waits: when the status
//! has not finished after [`PATIENCE`] (a status normally takes milliseconds), the watchdog looks
//! for `.gitignore` FIFOs in the working tree, without opening anything but directories, and
//! *unblocks* them: it opens each for writing without blocking and closes it at once, which gives
//! the waiting reader an empty file. The run then stops with an error naming them. Nothing is read
//! from or written into a FIFO, and a status that finishes in time costs nothing more.

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

use rustix::fs::{Mode, OFlags};

/// How long a status may run before the watchdog looks for FIFOs.
pub const PATIENCE: Duration = Duration::from_millis(500);
/// How often a FIFO found is unblocked while the status still runs.
const POKE_EVERY: Duration = Duration::from_millis(20);

/// Run `status` with the watchdog over the working tree at `workdir`. Returns its result and the
/// FIFOs the watchdog had to unblock (working-tree relative), sorted.
pub fn guarded<T>(workdir: &Path, status: impl FnOnce() -> T) -> (T, Vec<String>) {
    let (done, finished) = mpsc::channel::<()>();
    std::thread::scope(|scope| {
        let watchdog = scope.spawn(move || {
            if finished.recv_timeout(PATIENCE) != Err(mpsc::RecvTimeoutError::Timeout) {
                return Vec::new();
            }
            let fifos = gitignore_fifos(workdir);
            if fifos.is_empty() {
                return fifos;
            }
            loop {
                for fifo in &fifos {
                    unblock(&workdir.join(fifo));
                }
                if finished.recv_timeout(POKE_EVERY) != Err(mpsc::RecvTimeoutError::Timeout) {
                    return fifos;
                }
            }
        });
        let result = status();
        let _ = done.send(());
        let fifos = watchdog.join().unwrap_or_default();
        (result, fifos)
    })
}

/// Open the FIFO at `path` for writing without blocking and close it: a reader blocked in its
/// open goes on and reads an empty file. Nothing is written. (With no reader waiting, the open
/// fails with `ENXIO`, and nothing happens.)
fn unblock(path: &Path) {
    let flags = OFlags::WRONLY | OFlags::NONBLOCK | OFlags::NOFOLLOW | OFlags::CLOEXEC;
    let _ = rustix::fs::open(path, flags, Mode::empty());
}

/// Every `.gitignore` in the working tree that is a FIFO, relative to `workdir`: directories are
/// listed (never through a symlink, never into `.git`), files only looked at.
fn gitignore_fifos(workdir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending: Vec<PathBuf> = vec![PathBuf::new()];
    while let Some(rel) = pending.pop() {
        let Ok(entries) = std::fs::read_dir(workdir.join(&rel)) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let name = entry.file_name();
            if kind.is_dir() && name != ".git" {
                pending.push(rel.join(&name));
            } else if name == ".gitignore" && std::os::unix::fs::FileTypeExt::is_fifo(&kind) {
                found.push(rel.join(&name).to_string_lossy().into_owned());
            }
        }
    }
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reader_blocked_on_a_fifo_is_released_and_the_fifo_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::create_dir_all(dir.path().join("a/b")).expect("mkdir");
        let fifo = dir.path().join("a/b/.gitignore");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, Mode::from_raw_mode(0o644)).expect("mkfifo");
        // What gix does: open the ignore file for reading, and read it.
        let (read, fifos) = guarded(dir.path(), || std::fs::read(&fifo).map(|bytes| bytes.len()));
        assert_eq!(read.expect("read"), 0, "an empty file");
        assert_eq!(fifos, ["a/b/.gitignore"]);
        let (quick, none) = guarded(dir.path(), || 7);
        assert_eq!((quick, none.len()), (7, 0));
    }
}
