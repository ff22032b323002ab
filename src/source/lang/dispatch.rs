//! Which code each language is: the one table binding a registry entry ([`super::LANGUAGES`]) to
//! its language's [`Walks`] (`lang/<language>/walks.rs`). It sits above the languages' code, which
//! sits above the shared walks: the walks are handed a language's implementation by their callers
//! and never look it up here.

use super::go::walks::GoWalks;
use super::java::walks::JavaWalks;
use super::javascript::walks::JavaScriptWalks;
use super::python::walks::PythonWalks;
use super::rust::walks::RustWalks;
use super::walks::Walks;
use super::Language;

/// Every language's walks, in [`Language`] declaration order.
const WALKS: [&dyn Walks; 7] = [
    &RustWalks,
    &JavaScriptWalks {
        typed: false,
        scripts: true,
    },
    &JavaScriptWalks {
        typed: true,
        scripts: true,
    },
    &JavaScriptWalks {
        typed: true,
        scripts: false,
    },
    &PythonWalks,
    &GoWalks,
    &JavaWalks,
];

impl Language {
    /// This language's arms of the shared walks.
    pub(crate) fn walks(self) -> &'static dyn Walks {
        WALKS[self.index()]
    }
}
