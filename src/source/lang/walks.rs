//! What one language does in each shared walk over its syntax tree: the part of a language that is
//! code, not data. Each walk (`source::calls`, `flow`, `definitions`, `raises`, `comments`,
//! `resolve`) defines the trait of what it asks a language, and is handed the language's
//! implementation by its caller, so a walk knows no language and no registry; [`Walks`] gathers
//! them, with what `source::extract` and the Archivist ask besides. Each language implements them in
//! its own directory (`lang/go/walks.rs`), and [`super::dispatch`] binds each registry entry to its
//! implementation. Every method a language must answer is required: a language added without
//! saying what it does in a walk is a compile error, never another language's behaviour. Only
//! the methods of a feature some languages lack (macros and test attributes, package-qualified
//! calls, a receiver named by the method, tail values, return-typed receivers, test suites of
//! calls) have a default, and it is "this language has none".

use tree_sitter::Node;

use crate::source::comments::CommentSyntax;
use crate::source::definitions::DefinitionSyntax;
use crate::source::flow::FlowSyntax;
use crate::source::resolve::ResolveSyntax;
use crate::source::syntax::Extracted;

/// One language's arms of the shared walks: each walk's own trait (defined beside the walk, so
/// that the walk needs nothing of the registry), and what the source module and the Archivist ask
/// of a language besides.
pub(crate) trait Walks:
    FlowSyntax + DefinitionSyntax + CommentSyntax + ResolveSyntax + Sync
{
    /// Its extraction: the symbols, imports, docs and signals of a parsed file (`source::extract`).
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted;

    /// Whether its test files declare suites of calls (`describe('…', …)`, `it('…', …)`), read
    /// into [`crate::source::Suites`].
    fn has_suite_calls(&self) -> bool {
        false
    }

    /// What a file is as a program when its structure says so (a binary's entry point, a fuzz
    /// target, pytest's `conftest.py`, a script), as the sentence describing it; `summary` is
    /// what its definitions say ("defines …"), for a role that lists them. `None` for a file
    /// that is no program of its own.
    fn program_role(&self, source: &str, text: &str, summary: &str) -> Option<String>;

    /// Whether a type whose header is `signature` may have other parts in other files whose
    /// members are its own (a C# `partial class`, a Ruby class reopened), which `lexi lookup
    /// --member` then looks in; `false` by default.
    fn type_spans_files(&self, _signature: &str) -> bool {
        false
    }
}
