//! Parsed interfaces shared within a process, by content: the readers (`lexi lookup`, `search`,
//! `impact`, the MCP server) ask for the same file's interface several times in one answer — its
//! compact view, its contract, a member's flow — and a long-lived MCP server across calls. The key
//! is the language and the SHA-256 of the text, so an answer is never stale: an edited file is
//! another key. The update engine parses each file once and does not use this.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::{extract, Interface, Language, SourceError, SourceFile};

/// More source text than this kept (by the texts' lengths) and the memo starts over: a parsed
/// file is a few times its source's size (an MCP session over a huge repository reads a few
/// hundred files; generated files can be megabytes each).
const MAX_KEPT_BYTES: usize = 32 << 20;

type Key = (Language, String);

/// What a memo holds: values by key, and the bytes of text they were built from.
struct Kept<T> {
    values: HashMap<Key, Arc<T>>,
    text_bytes: usize,
}

/// Values built from a text, by language and content, up to [`MAX_KEPT_BYTES`] of text.
struct Memo<T>(OnceLock<Mutex<Kept<T>>>);

impl<T> Memo<T> {
    const fn new() -> Memo<T> {
        Memo(OnceLock::new())
    }

    fn get_or_build(
        &self,
        language: Language,
        text: &str,
        build: impl FnOnce() -> Result<T, SourceError>,
    ) -> Result<Arc<T>, SourceError> {
        let key = (language, crate::hash::sha256_hex(text.as_bytes()));
        if let Some(found) = self.lock().values.get(&key) {
            return Ok(Arc::clone(found));
        }
        let built = Arc::new(build()?);
        let mut kept = self.lock();
        if kept.text_bytes + text.len() > MAX_KEPT_BYTES {
            kept.values.clear();
            kept.text_bytes = 0;
        }
        kept.text_bytes += text.len();
        kept.values.insert(key, Arc::clone(&built));
        Ok(built)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept<T>> {
        // A panic while holding the lock leaves at worst a missing entry.
        self.0
            .get_or_init(|| {
                Mutex::new(Kept {
                    values: HashMap::new(),
                    text_bytes: 0,
                })
            })
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

static INTERFACES: Memo<Interface> = Memo::new();
static FILES: Memo<SourceFile> = Memo::new();

/// The interface of `text` in `language`, parsed once per process for each content. A text that
/// does not parse is parsed again on every call (rare, and its error is the answer).
pub fn interface(language: Language, text: &str) -> Result<Arc<Interface>, SourceError> {
    INTERFACES.get_or_build(language, text, || extract(language, text))
}

/// `text` parsed as a [`SourceFile`] (interface, definitions, trees: what a member's lookup
/// reads), once per process for each content.
pub fn source_file(language: Language, text: &str) -> Result<Arc<SourceFile>, SourceError> {
    FILES.get_or_build(language, text, || {
        SourceFile::parse(language, text.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_content_is_parsed_once_and_another_content_is_another_answer() {
        let first = interface(Language::Python, "def a():\n    pass\n").expect("parses");
        let again = interface(Language::Python, "def a():\n    pass\n").expect("parses");
        assert!(Arc::ptr_eq(&first, &again));
        let edited = interface(Language::Python, "def b():\n    pass\n").expect("parses");
        assert!(!Arc::ptr_eq(&first, &edited));
        assert_eq!(edited.symbols[0].name, "b");
        let file = source_file(Language::Python, "def b():\n    pass\n").expect("parses");
        assert!(Arc::ptr_eq(
            &file,
            &source_file(Language::Python, "def b():\n    pass\n").expect("parses")
        ));
    }
}
