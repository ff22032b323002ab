//! The parts of a cache entry only some readers need — its Child Map description, public names,
//! external packages, type-only imports and calls — kept as the cache file's text until first asked
//! for. A `--changed-only` run after a one-file commit needs them for a handful of files, not for
//! the 20,000 it loads (decoding them all was a third of the run's instructions); a whole save
//! writes an untouched entry's text back as it was read.

use std::sync::OnceLock;

use crate::tsv::{parse_list, push_escaped, push_list, split_bytes, unescape};

/// What an entry says beyond its stat data, hashes and imports.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Details {
    /// The Child Map description of this file.
    pub description: String,
    /// Code files: the bare names of every public item the interface extractor yields (top-level
    /// items and methods), sorted and deduplicated — what search indexes beyond a capped contract.
    pub symbols: Vec<String>,
    /// Code files: the external packages it imports, by name, sorted (what `lexi lookup --full`
    /// shows when the design file's External Dependencies were capped).
    pub externals: Vec<String>,
    /// The deps imported only for the type checker (Python `if TYPE_CHECKING:`), sorted: a
    /// subset of `deps` that `lexi impact` does not follow.
    pub type_deps: Vec<String>,
    /// Code files: each member's calls, one `source::calls::MemberCalls::encode` item a member
    /// (`member callee .callee Type.callee`), in source order — `lexi lookup`'s Calls and Called
    /// from (`workspace::calls`).
    pub calls: Vec<String>,
    /// Code files: whether the file has a module doc comment (a module file's then speaks for its
    /// directory's billboard).
    pub documented: bool,
    /// Rust files: [`crate::source::Interface::module_scope_hash`], what their importers'
    /// resolution reads of them; empty for other files.
    pub scope_hash: String,
    /// Rust files: [`crate::source::Interface::imports_hash`], what their own resolution reads of
    /// them besides their module scope; empty for other files.
    pub imports_hash: String,
}

/// The number of tab-separated fields [`Details`] takes in a cache line.
pub const FIELDS: usize = 8;

/// [`Details`], either decoded or still the escaped text of its fields (decoded on first use).
#[derive(Clone, Debug, Default)]
pub struct LazyDetails {
    raw: Option<Box<str>>,
    decoded: OnceLock<Details>,
}

impl LazyDetails {
    /// Details still in their cache-line form: `FIELDS` escaped fields joined by tabs.
    pub fn raw(text: &str) -> LazyDetails {
        LazyDetails {
            raw: Some(text.into()),
            decoded: OnceLock::new(),
        }
    }

    /// The details, decoded on the first call.
    pub fn get(&self) -> &Details {
        self.decoded
            .get_or_init(|| self.raw.as_deref().map(decode).unwrap_or_default())
    }

    /// Append the details' cache-line form: the text read when it was never decoded.
    pub fn push_to(&self, out: &mut String) {
        match (&self.raw, self.decoded.get()) {
            (Some(raw), None) => out.push_str(raw),
            _ => encode(out, self.get()),
        }
    }
}

impl From<Details> for LazyDetails {
    fn from(details: Details) -> LazyDetails {
        LazyDetails {
            raw: None,
            decoded: OnceLock::from(details),
        }
    }
}

impl PartialEq for LazyDetails {
    /// The encoding is canonical: two undecoded texts are equal exactly when their details are.
    fn eq(&self, other: &LazyDetails) -> bool {
        match (
            &self.raw,
            &other.raw,
            self.decoded.get(),
            other.decoded.get(),
        ) {
            (Some(mine), Some(theirs), None, None) => mine == theirs,
            _ => self.get() == other.get(),
        }
    }
}

impl Eq for LazyDetails {}

fn decode(text: &str) -> Details {
    let mut fields = split_bytes(text, b'\t');
    let mut next = || fields.next().unwrap_or("");
    Details {
        description: unescape(next()),
        symbols: parse_list(next()),
        externals: parse_list(next()),
        type_deps: parse_list(next()),
        calls: parse_list(next()),
        documented: next() == "d",
        scope_hash: next().to_string(),
        imports_hash: next().to_string(),
    }
}

fn encode(out: &mut String, details: &Details) {
    push_escaped(out, &details.description);
    for list in [
        &details.symbols,
        &details.externals,
        &details.type_deps,
        &details.calls,
    ] {
        out.push('\t');
        push_list(out, list);
    }
    out.push_str(match details.documented {
        true => "\td",
        false => "\t-",
    });
    for hash in [&details.scope_hash, &details.imports_hash] {
        out.push('\t');
        out.push_str(hash);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn details() -> Details {
        Details {
            description: "Tabs\tand\\slashes | pipes".into(),
            symbols: vec!["Parser".into(), "parse".into()],
            externals: vec!["@scope/pkg".into()],
            type_deps: vec![],
            calls: vec!["App.run go .send".into(), "main".into()],
            documented: true,
            scope_hash: "ab12".into(),
            imports_hash: "cd34".into(),
        }
    }

    #[test]
    fn undecoded_text_is_written_back_as_read_and_decodes_to_the_same_details() {
        let mut text = String::new();
        encode(&mut text, &details());
        let lazy = LazyDetails::raw(&text);
        let mut again = String::new();
        lazy.push_to(&mut again);
        assert_eq!(again, text);
        assert_eq!(lazy.get(), &details());
        assert_eq!(lazy, LazyDetails::from(details()));
        assert_ne!(lazy, LazyDetails::from(Details::default()));
    }
}
