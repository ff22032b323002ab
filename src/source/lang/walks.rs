//! What one language does in each shared walk over its syntax tree: the part of a language that is
//! code, not data. Every registry entry ([`super::Spec::walks`]) names one implementation, which
//! lives in the language's own directory (`lang/go/`); the shared walks (`source::calls`, `flow`,
//! `definitions`, `raises`, `comments`, `resolve`) ask it and keep no list of languages. Every
//! method is required: a language added without saying what it does in a walk is a compile error,
//! never another language's behaviour.

use tree_sitter::Node;

use crate::source::flow::{Reader, Shape};
use crate::source::interface::Interface;
use crate::source::resolve::{Collected, Context};
use crate::source::syntax::Extracted;

/// One language's arms of the shared walks.
pub(crate) trait Walks: Sync {
    /// Its extraction: the symbols, imports, docs and signals of a parsed file (`source::extract`).
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted;

    /// The text of every comment of `text`, markers left in, one comment a line, appended to
    /// `out` (`source::comments`, for search).
    fn comment_text(&self, text: &str, out: &mut String);

    /// The entry for `node` when it raises, throws or builds an error (`source::raises`).
    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String>;

    /// How a statement shows in a member's flow (`source::flow`).
    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t>;

    /// Resolve `file`'s imports to project files (`source::resolve`).
    fn resolve(
        &self,
        file: &str,
        interface: &Interface,
        context: &Context<'_>,
        out: &mut Collected,
    );

    /// The external package an unresolved import spec names, by the name its ecosystem gives it
    /// (`source::resolve::externals`); `None` when it names the language's runtime or nothing.
    fn external_package(&self, file: &str, spec: &str, context: &Context<'_>) -> Option<String>;
}
