//! The session cache: a repeated read whose underlying files did not change answers
//! "unchanged since <etag>" in a couple of dozen tokens instead of the whole text again (as
//! Beadloom's L1 cache does).
//!
//! **The etag.** Every read tool names the files its answer is built from as [`Inputs`]: single
//! files (a design file, its source, the `.aindex` of every ancestor, `config.yaml`) and parts of
//! the library walked whole (`concepts/` and `stack/`, the mirror below a directory). The
//! *fingerprint* of the inputs is SHA-256 over one line per file — its path, then its size and
//! modification time in nanoseconds, or `absent` — in a fixed order; for a walked part, every
//! file the walk lists, so a file added or removed there changes it too. The etag is the first 16
//! hex digits of SHA-256 over the tool's name, its arguments (canonical JSON, keys sorted) and
//! that fingerprint. Only stats are read to compute it: a repeated call costs a few `stat`s (a walk
//! for search-like tools), never the query itself.
//!
//! **The rule.** The server remembers, per tool and arguments, the etag of the last full answer it
//! sent in this session (one server process = one client session over stdio). A call whose etag
//! equals the remembered one gets the short answer, unless it asks for `full: true`. An answer is
//! not remembered when one of its files was modified within the last two seconds, where a second
//! edit could keep the same size and timestamp (git's "racy clean" problem): such a call is
//! answered in full again next time. Write tools are never cached; their writes change the
//! fingerprint of every read that depends on them.

use std::collections::HashMap;
use std::time::SystemTime;

use sha2::{Digest, Sha256};

use crate::project::Project;
use crate::workspace::cache::{Stat, RACY_WINDOW_NS};
use crate::workspace::library::{walk, Listing, Part};

/// More remembered answers than this and the cache starts over (a session rarely asks for that
/// many distinct things).
const MAX_ENTRIES: usize = 4096;

/// What an answer is built from, project-relative.
#[derive(Clone, Debug, Default)]
pub struct Inputs {
    files: Vec<String>,
    /// Files outside the project tree (the per-clone cache under the git directory), absolute.
    outside: Vec<std::path::PathBuf>,
    /// Parts of `.lexibrary/` walked whole: (under, relative to `.lexibrary/`; mirror only).
    parts: Vec<(String, bool)>,
}

impl Inputs {
    /// A project-relative file (its absence counts too).
    pub fn file(mut self, rel: impl Into<String>) -> Inputs {
        self.files.push(rel.into());
        self
    }

    /// A file outside the project tree, by absolute path: the per-clone cache that holds the whole
    /// dependency graph and every file's public names (`workspace::graph`).
    pub fn outside(mut self, path: std::path::PathBuf) -> Inputs {
        self.outside.push(path);
        self
    }

    /// Every file below `under` in `.lexibrary/` (relative to it; `""` for all of it).
    pub fn library(mut self, under: &str) -> Inputs {
        self.parts.push((under.to_string(), false));
        self
    }

    /// Every design file, index and note below project directory `dir` (the mirror only).
    pub fn mirror(mut self, dir: &str) -> Inputs {
        self.parts.push((dir.to_string(), true));
        self
    }

    /// The concepts and the Stack: what the knowledge corpus is built from.
    pub fn knowledge(self) -> Inputs {
        self.library(crate::library::concept::CONCEPTS_DIR)
            .library(crate::library::stack::STACK_DIR)
    }

    /// Whether the inputs include the whole library (a walk the caller may already have made).
    pub fn whole_library(&self) -> bool {
        self.parts
            .iter()
            .any(|(under, mirror_only)| under.is_empty() && !mirror_only)
    }

    /// The fingerprint of what the inputs are now. `all`: a listing of the whole library
    /// (`Part::ALL`) made for this call, used instead of walking it again.
    pub fn fingerprint(&self, project: &Project, all: Option<&Listing>) -> Fingerprint {
        let mut digest = Digester::new();
        for rel in &self.files {
            digest.file(rel, Stat::of(&project.abs(rel)));
        }
        for path in &self.outside {
            digest.file(&path.display().to_string(), Stat::of(path));
        }
        let library = project.library_dir();
        for (under, mirror_only) in &self.parts {
            let part = Part {
                under,
                max_depth: None,
                mirror_only: *mirror_only,
                named: None,
            };
            digest.line(&format!("walk {under} {mirror_only}"));
            let walked;
            let listing = match all {
                Some(all) if under.is_empty() && !mirror_only => all,
                _ => {
                    walked = walk(&library, part);
                    &walked
                }
            };
            for entry in &listing.files {
                digest.file(&entry.rel, Some(entry.stat));
            }
            for error in &listing.errors {
                // An unreadable directory must not look unchanged.
                digest.line(&format!("error {error}"));
                digest.racy = true;
            }
        }
        Fingerprint {
            digest: crate::hash::to_hex(&digest.hasher.finalize()),
            racy: digest.racy,
        }
    }
}

/// The running hash of a fingerprint, and whether a file in it is too fresh to trust.
struct Digester {
    hasher: Sha256,
    racy: bool,
    now_ns: i128,
}

impl Digester {
    fn new() -> Digester {
        let now_ns = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |elapsed| elapsed.as_nanos() as i128);
        Digester {
            hasher: Sha256::new(),
            racy: false,
            now_ns,
        }
    }

    fn line(&mut self, text: &str) {
        self.hasher.update(text.as_bytes());
        self.hasher.update(b"\n");
    }

    fn file(&mut self, rel: &str, stat: Option<Stat>) {
        match stat {
            Some(stat) => {
                self.racy |= self.now_ns - stat.mtime_ns < RACY_WINDOW_NS;
                self.line(&format!("{rel}\t{}\t{}", stat.size, stat.mtime_ns));
            }
            None => self.line(&format!("{rel}\tabsent")),
        }
    }
}

/// The state of a call's inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fingerprint {
    digest: String,
    /// A file is too fresh to trust its stat: do not remember this answer.
    racy: bool,
}

/// The etags of the full answers sent in this session.
#[derive(Debug, Default)]
pub struct SessionCache {
    sent: HashMap<String, String>,
}

/// What the cache says about a call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The same answer was sent before: say so.
    Unchanged { etag: String },
    /// Answer in full; remember `etag` afterwards if `remember`.
    Fresh { etag: String, remember: bool },
}

impl SessionCache {
    /// Whether the answer of `tool` with canonical `args` and inputs in state `fingerprint` was
    /// already sent (`full` forces a fresh answer).
    pub fn check(&self, tool: &str, args: &str, fingerprint: &Fingerprint, full: bool) -> Verdict {
        let etag = etag(tool, args, fingerprint);
        let key = key(tool, args);
        if !full && !fingerprint.racy && self.sent.get(&key) == Some(&etag) {
            return Verdict::Unchanged { etag };
        }
        Verdict::Fresh {
            etag,
            remember: !fingerprint.racy,
        }
    }

    /// Remember that the full answer with `etag` was sent.
    pub fn sent(&mut self, tool: &str, args: &str, etag: &str) {
        if self.sent.len() >= MAX_ENTRIES {
            self.sent.clear();
        }
        self.sent.insert(key(tool, args), etag.to_string());
    }

    /// Forget an answer (it failed, or its file was too fresh).
    pub fn forget(&mut self, tool: &str, args: &str) {
        self.sent.remove(&key(tool, args));
    }
}

fn key(tool: &str, args: &str) -> String {
    format!("{tool}\0{args}")
}

fn etag(tool: &str, args: &str, fingerprint: &Fingerprint) -> String {
    let digest =
        crate::hash::sha256_hex(format!("{tool}\0{args}\0{}", fingerprint.digest).as_bytes());
    digest[..16].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::config::Config;

    fn project(dir: &std::path::Path) -> Project {
        std::fs::create_dir_all(dir.join(".lexibrary/concepts")).expect("mkdir");
        Project::new(dir.to_path_buf(), Config::default())
    }

    /// A stat that is old enough to trust: sets the file's mtime an hour back.
    fn age(path: &std::path::Path) {
        let old = SystemTime::now() - std::time::Duration::from_secs(3600);
        let file = std::fs::File::options()
            .write(true)
            .open(path)
            .expect("open");
        file.set_modified(old).expect("set mtime");
    }

    #[test]
    fn the_second_identical_call_is_unchanged_until_a_file_changes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let project = project(dir.path());
        let a = dir.path().join("a.rs");
        std::fs::write(&a, "one").expect("write");
        age(&a);
        let inputs = Inputs::default().file("a.rs").file("missing.rs");
        let mut cache = SessionCache::default();
        let first = cache.check("lookup", "{}", &inputs.fingerprint(&project, None), false);
        let Verdict::Fresh {
            etag,
            remember: true,
        } = first
        else {
            panic!("first call must be fresh and rememberable: {first:?}");
        };
        cache.sent("lookup", "{}", &etag);
        let again = cache.check("lookup", "{}", &inputs.fingerprint(&project, None), false);
        assert_eq!(again, Verdict::Unchanged { etag: etag.clone() });
        // `full` asks for the text again; other arguments are another answer.
        let full = cache.check("lookup", "{}", &inputs.fingerprint(&project, None), true);
        assert!(matches!(full, Verdict::Fresh { .. }));
        let other = cache.check(
            "lookup",
            "{\"x\":1}",
            &inputs.fingerprint(&project, None),
            false,
        );
        assert!(matches!(other, Verdict::Fresh { .. }));
        // A change of size (or mtime) is a new etag.
        std::fs::write(&a, "two!").expect("write");
        age(&a);
        let changed = cache.check("lookup", "{}", &inputs.fingerprint(&project, None), false);
        assert!(matches!(changed, Verdict::Fresh { etag: new, .. } if new != etag));
        // So is a file appearing where there was none.
        std::fs::write(dir.path().join("missing.rs"), "now here").expect("write");
        let appeared = inputs.fingerprint(&project, None);
        assert!(
            appeared.racy,
            "a file written just now is too fresh to vouch for"
        );
    }

    #[test]
    fn a_walked_part_notices_a_new_file() {
        let dir = tempfile::tempdir().expect("tempdir");
        let project = project(dir.path());
        let concept = dir.path().join(".lexibrary/concepts/A.md");
        std::fs::write(&concept, "---\ntitle: A\n---\n").expect("write");
        age(&concept);
        let inputs = Inputs::default().knowledge();
        let before = inputs.fingerprint(&project, None);
        assert!(!before.racy);
        let other = dir.path().join(".lexibrary/concepts/B.md");
        std::fs::write(&other, "---\ntitle: B\n---\n").expect("write");
        age(&other);
        assert_ne!(inputs.fingerprint(&project, None), before);
    }
}
