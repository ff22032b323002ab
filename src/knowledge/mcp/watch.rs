//! The library listing a session keeps: every file of `.lexibrary/` with its stat data
//! ([`walk`], `Part::ALL`), walked again only when something in the library changed since the last
//! walk. A search-like call needs the listing twice (the session cache's fingerprint, the corpus it
//! loads), and walking and `stat`ing ~2,000 files was most of a search on tokio.
//!
//! **How a change is seen** (Linux): an inotify watch on every directory of the library for what
//! changes a file's content, stat or name (modify, attribute, close-after-write, create, delete,
//! move — never reads). The kernel queues an event when the change happens, and every call drains
//! the queue before it answers, so a change made before a call is always seen by it: an update
//! between two calls, an agent's editor writing a design file in place. A queue overflow, a watch
//! that cannot be added (the per-user limit) or a directory that is not watched yet means walking
//! again. Watches are added before the walk that lists a directory's files, so nothing changed
//! between the two goes unseen. Elsewhere, and when inotify is unavailable, every call walks.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::workspace::library::{walk, Listing, Part};

/// The listing of one library, and what tells whether it still holds.
pub struct LibraryWatch {
    library: PathBuf,
    listing: Option<Arc<Listing>>,
    #[cfg(target_os = "linux")]
    watcher: Option<linux::Watcher>,
}

impl LibraryWatch {
    /// A watch of the library at `library` (`<root>/.lexibrary`); nothing is walked or watched
    /// before the first [`LibraryWatch::listing`].
    pub fn new(library: PathBuf) -> LibraryWatch {
        LibraryWatch {
            #[cfg(target_os = "linux")]
            watcher: linux::Watcher::new(),
            library,
            listing: None,
        }
    }

    /// Every file of the library as it is now: the last walk's when nothing changed since.
    pub fn listing(&mut self) -> Arc<Listing> {
        let kept = self.listing.take().filter(|_| self.unchanged());
        let listing = kept.unwrap_or_else(|| Arc::new(self.walk()));
        self.listing = Some(Arc::clone(&listing));
        listing
    }

    /// Whether nothing in the library changed since the last walk (always `false` without a
    /// working watcher, or when the library's own directory is not watched).
    fn unchanged(&mut self) -> bool {
        #[cfg(target_os = "linux")]
        if let Some(watcher) = self.watcher.as_mut() {
            return watcher.quiet() && watcher.watches(&self.library);
        }
        false
    }

    /// Walk the library; with a watcher, every directory it lists is watched before its files are
    /// trusted (a directory met for the first time means one more walk).
    fn walk(&mut self) -> Listing {
        #[cfg(target_os = "linux")]
        if let Some(watcher) = self.watcher.as_mut() {
            return watched_walk(watcher, &self.library).unwrap_or_else(|| {
                self.watcher = None;
                walk(&self.library, Part::ALL)
            });
        }
        walk(&self.library, Part::ALL)
    }
}

/// Walk until every directory listed was watched before the walk that listed it; `None` when a
/// watch cannot be added, the library is on a file system whose changes inotify may not see (a
/// network or FUSE mount), or directories keep appearing (the caller then walks on every call).
#[cfg(target_os = "linux")]
fn watched_walk(watcher: &mut linux::Watcher, library: &Path) -> Option<Listing> {
    if !linux::is_local(library) {
        return None;
    }
    for _ in 0..MAX_WALKS {
        watcher.drain();
        // The root too: a drain that saw a watch go forgets them all.
        watcher.watch(library)?;
        let listing = walk(library, Part::ALL);
        let mut added = false;
        for dir in &listing.dirs {
            added |= watcher.watch(&library.join(dir))?;
        }
        if !added {
            return Some(listing);
        }
    }
    None
}

/// Walks one listing may take while directories keep appearing (an update writing meanwhile).
#[cfg(target_os = "linux")]
const MAX_WALKS: usize = 8;

#[cfg(target_os = "linux")]
mod linux {
    use std::collections::HashSet;
    use std::mem::MaybeUninit;
    use std::os::fd::OwnedFd;
    use std::path::{Path, PathBuf};

    use rustix::fs::inotify::{self, CreateFlags, ReadFlags, WatchFlags};

    /// Whether `path` is on a file system whose every change this kernel makes (and so inotify
    /// reports); `false` when it cannot be told.
    pub fn is_local(path: &Path) -> bool {
        rustix::fs::statfs(path).is_ok_and(|stat| {
            let kind = stat.f_type as u32;
            !super::linux_fs::REMOTE.contains(&kind)
        })
    }

    /// An inotify instance and the directories it watches.
    pub struct Watcher {
        fd: OwnedFd,
        watched: HashSet<PathBuf>,
    }

    impl Watcher {
        /// `None` when inotify is not available here.
        pub fn new() -> Option<Watcher> {
            let fd = inotify::init(CreateFlags::CLOEXEC | CreateFlags::NONBLOCK).ok()?;
            Some(Watcher {
                fd,
                watched: HashSet::new(),
            })
        }

        /// Watch `dir`: `Some(true)` if it was not watched yet, `None` if it cannot be.
        pub fn watch(&mut self, dir: &Path) -> Option<bool> {
            if self.watched.contains(dir) {
                return Some(false);
            }
            let changes = WatchFlags::MODIFY
                | WatchFlags::ATTRIB
                | WatchFlags::CLOSE_WRITE
                | WatchFlags::CREATE
                | WatchFlags::DELETE
                | WatchFlags::DELETE_SELF
                | WatchFlags::MOVED_FROM
                | WatchFlags::MOVED_TO
                | WatchFlags::MOVE_SELF
                | WatchFlags::DONT_FOLLOW
                | WatchFlags::ONLYDIR;
            match inotify::add_watch(&self.fd, dir, changes) {
                Ok(_) => {
                    self.watched.insert(dir.to_path_buf());
                    Some(true)
                }
                // A directory that vanished in between: the next walk will not list it (and a
                // library root that is not there is not watched, so nothing is trusted).
                Err(rustix::io::Errno::NOENT) => Some(false),
                Err(_) => None,
            }
        }

        /// Whether `dir` is watched now.
        pub fn watches(&self, dir: &Path) -> bool {
            self.watched.contains(dir)
        }

        /// Whether no event is queued (the queue is drained either way). A removed or moved
        /// directory's watch goes with it: it is forgotten, so a directory of that name made again
        /// is watched again.
        pub fn quiet(&mut self) -> bool {
            !self.drain()
        }

        /// Read every queued event; whether there was any.
        pub fn drain(&mut self) -> bool {
            let mut buffer = [MaybeUninit::<u8>::uninit(); 8192];
            let mut reader = inotify::Reader::new(&self.fd, &mut buffer);
            let mut any = false;
            let mut forget = false;
            loop {
                match reader.next() {
                    Ok(event) => {
                        any = true;
                        let flags = event.events();
                        forget |= flags.intersects(
                            ReadFlags::IGNORED
                                | ReadFlags::DELETE_SELF
                                | ReadFlags::MOVE_SELF
                                | ReadFlags::QUEUE_OVERFLOW,
                        );
                    }
                    Err(rustix::io::Errno::INTR) => continue,
                    Err(_) => break, // AGAIN: drained
                }
            }
            if forget {
                // Which watch went is not worth tracking: every directory is watched again by
                // the walk that follows (adding a watch twice only updates its mask).
                self.watched.clear();
            }
            any
        }
    }
}

#[cfg(target_os = "linux")]
mod linux_fs {
    /// File systems whose changes may come from elsewhere than this kernel, so inotify does not
    /// see them: NFS, SMB/CIFS, FUSE (sshfs, some container mounts), 9P (WSL 2's Windows drives).
    pub const REMOTE: &[u32] = &[
        0x6969,
        0x517B,
        0xFF53_4D42,
        0xFE53_4D42,
        0x6573_5546,
        0x0102_1997,
    ];
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    fn files(listing: &Listing) -> Vec<(String, u64)> {
        listing
            .files
            .iter()
            .map(|entry| (entry.rel.clone(), entry.stat.size))
            .collect()
    }

    #[test]
    fn the_listing_is_kept_until_a_file_changes_is_added_or_goes() {
        let dir = tempfile::tempdir().expect("temp dir");
        let library = dir.path().join(".lexibrary");
        std::fs::create_dir_all(library.join("src")).expect("mkdir");
        std::fs::write(library.join("src/a.rs.md"), "a").expect("write");
        let mut watch = LibraryWatch::new(library.clone());
        let first = watch.listing();
        assert!(Arc::ptr_eq(&first, &watch.listing()), "nothing changed");

        // An edit in place (no rename) is seen by the next call.
        std::fs::write(library.join("src/a.rs.md"), "abc").expect("edit");
        let edited = watch.listing();
        assert_eq!(files(&edited), [("src/a.rs.md".to_string(), 3)]);

        // A file in a directory made after the first walk.
        std::fs::create_dir_all(library.join("src/deep")).expect("mkdir");
        std::fs::write(library.join("src/deep/b.py.md"), "b").expect("write");
        let added = watch.listing();
        assert_eq!(added.files.len(), 2);
        std::fs::write(library.join("src/deep/b.py.md"), "bb").expect("edit");
        assert!(files(&watch.listing()).contains(&("src/deep/b.py.md".to_string(), 2)));

        std::fs::remove_dir_all(library.join("src/deep")).expect("rm");
        assert_eq!(files(&watch.listing()), [("src/a.rs.md".to_string(), 3)]);
        let kept = watch.listing();
        assert!(Arc::ptr_eq(&kept, &watch.listing()));
    }
}
