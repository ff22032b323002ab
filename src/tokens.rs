//! Token counting for budgets and estimates: OpenAI's cl100k BPE through `tiktoken-rs`, whose ranks
//! ship inside the crate (no download at run time).
//!
//! The tokenizer takes a moment to build, so it is built once, on first use, and only by the runs that
//! count tokens (LLM generations and `--dry-run` estimates); the structural path never pays for it.
//! Providers tokenise differently (Claude's tokenizer is not public): counts are estimates, close
//! enough for budgets and cost planning.

use std::sync::OnceLock;

use tiktoken_rs::CoreBPE;

static CL100K: OnceLock<Option<CoreBPE>> = OnceLock::new();

/// The number of cl100k tokens in `text`. Falls back to one token per four bytes if the tokenizer
/// cannot be built (it ships inside the binary, so that should never happen).
pub fn count(text: &str) -> usize {
    match CL100K.get_or_init(|| tiktoken_rs::cl100k_base().ok()) {
        Some(bpe) => bpe.encode_ordinary(text).len(),
        None => text.len().div_ceil(4),
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
