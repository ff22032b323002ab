//! Which code each language is: the table binding each registry entry ([`super::LANGUAGES`]) to
//! its language's [`Walks`] — the item of the same name in `lang/<directory>/walks.rs`, built from
//! the registry's lines ([`for_each_language`]). It sits above the languages' code, which sits
//! above the shared walks: the walks are handed a language's implementation by their callers and
//! never look it up here.

use super::walks::Walks;
use super::{for_each_language, Language};

/// [`WALKS`] from the registry's lines.
macro_rules! walks_table {
    ($($variant:ident: $directory:ident::$entry:ident
        $(with $field:ident: $($model:ident)::+)?,)*) => {
        /// Every language's walks, in [`Language`] declaration order.
        const WALKS: [&dyn Walks; Language::ALL.len()] = [$(&super::$directory::walks::$entry,)*];
    };
}
for_each_language!(walks_table);

impl Language {
    /// This language's arms of the shared walks.
    pub(crate) fn walks(self) -> &'static dyn Walks {
        WALKS[self.index()]
    }
}
