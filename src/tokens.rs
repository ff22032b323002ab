//! Token counting, the one place for it: [`count`] is OpenAI's cl100k BPE through `tiktoken-rs`, whose
//! ranks ship inside the crate (no download at run time); [`estimate`] is the cheap approximation.
//!
//! The tokenizer takes a moment to build, so it is built once, on first use, and only by the runs that
//! count tokens (LLM generations, `--dry-run` estimates, START_HERE's budget); a full update builds
//! it beside its work ([`warm_up`]).
//! Providers tokenise differently (Claude's tokenizer is not public): counts are estimates, close
//! enough for budgets and cost planning.

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

static CL100K: OnceLock<Option<CoreBPE>> = OnceLock::new();

/// A rough token count (about four characters per token) for hot paths that cannot afford the
/// tokenizer (`lexi context`, deciding whether a text is near a budget at all). Budgets that are
/// checked use [`count`].
pub fn estimate(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

/// The number of cl100k tokens in `text`. Falls back to one token per four bytes if the tokenizer
/// cannot be built (it ships inside the binary, so that should never happen).
pub fn count(text: &str) -> usize {
    match tokenizer() {
        Some(bpe) => bpe.encode_ordinary(text).len(),
        None => text.len().div_ceil(4),
    }
}

fn tokenizer() -> Option<&'static CoreBPE> {
    CL100K
        .get_or_init(|| tiktoken_rs::cl100k_base().ok())
        .as_ref()
}

/// Build the tokenizer on a thread of its own, for a run that will count tokens once its work is
/// done (a full update's START_HERE): its ~40 ms of building overlap the work instead of following
/// it. A [`count`] that comes first waits for it.
pub fn warm_up() {
    let _ = std::thread::Builder::new()
        .name("tokenizer".into())
        .spawn(|| {
            tokenizer();
        });
}

/// Token counts remembered by content (SHA-256), so checking 20,000 unchanged design files does not
/// tokenise them again. Stored in a derived, gitignored file; a missing or damaged one is just empty.
#[derive(Debug, Default)]
pub struct CountCache {
    counts: std::sync::Mutex<std::collections::HashMap<String, usize>>,
    changed: std::sync::atomic::AtomicBool,
}

impl CountCache {
    /// Load the cache at `path` (empty when absent or unreadable).
    pub fn load(path: &std::path::Path) -> CountCache {
        let counts = std::fs::read_to_string(path)
            .map(|text| {
                text.lines()
                    .filter_map(|line| {
                        let (hash, count) = line.split_once('\t')?;
                        Some((hash.to_string(), count.parse().ok()?))
                    })
                    .collect()
            })
            .unwrap_or_default();
        CountCache {
            counts: std::sync::Mutex::new(counts),
            changed: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// The cl100k token count of `text`, from the cache when this exact text was counted before.
    pub fn count(&self, text: &str) -> usize {
        let key = crate::hash::sha256_hex(text.as_bytes());
        if let Some(count) = self
            .counts
            .lock()
            .ok()
            .and_then(|map| map.get(&key).copied())
        {
            return count;
        }
        let counted = count(text);
        if let Ok(mut map) = self.counts.lock() {
            map.insert(key, counted);
            self.changed
                .store(true, std::sync::atomic::Ordering::Relaxed);
        }
        counted
    }

    /// Write the cache back if anything was added (best effort).
    pub fn save(&self, path: &std::path::Path) {
        if !self.changed.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        let Ok(map) = self.counts.lock() else { return };
        let mut text = String::with_capacity(map.len() * 72);
        for (hash, count) in map.iter() {
            text.push_str(&format!("{hash}\t{count}\n"));
        }
        if let Some(dir) = path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = crate::atomic::write(path, text.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_real_bpe_tokens() {
        assert_eq!(count(""), 0);
        assert_eq!(count("hello world"), 2);
        // A long identifier is several tokens, far fewer than its bytes.
        let n = count("fn design_hash_of(text: &str) -> String");
        assert!((5..20).contains(&n), "{n}");
    }
}
