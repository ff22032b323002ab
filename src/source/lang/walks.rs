//! What one language does in each shared walk over its syntax tree: the part of a language that is
//! code, not data. Every registry entry ([`super::Spec::walks`]) names one implementation, which
//! lives in the language's own directory (`lang/go/`); the shared walks (`source::calls`, `flow`,
//! `definitions`, `raises`, `comments`, `resolve`) ask it and keep no list of languages. Every
//! method is required: a language added without saying what it does in a walk is a compile error,
//! never another language's behaviour.

use tree_sitter::Node;

use crate::source::calls::typed::Returns;
use crate::source::calls::{At, CallKinds, Found, Target};
use crate::source::definitions::{Ctx, Found as Definition, Walker};
use crate::source::flow::{Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::rust::expand::MacroBody;
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

    /// The node kinds its calls are read from (`source::calls`).
    fn call_kinds(&self) -> &'static CallKinds;

    /// Whether `node` starts a member (a function, a method): its name, container and aliases.
    fn member<'s>(&self, node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>>;

    /// The bases a container node (a class, an `impl Trait for Type`, a trait) names.
    fn class_bases(&self, node: Node<'_>, src: &str) -> Option<(String, Vec<String>)>;

    /// The callee of a call node, `None` when it names nothing; `container` is the byte range of
    /// the name of the container the call sits in.
    fn call_target(
        &self,
        call: Node<'_>,
        src: &str,
        container: Option<(usize, usize)>,
    ) -> Option<Target>;

    /// The name the member around `call` gives its own object, when the language names it (a Go
    /// method's receiver, `c` of `func (c *Context) Next()`).
    fn own_receiver<'s>(&self, call: Node<'_>, src: &'s str) -> Option<&'s str>;

    /// The object a method call goes through (`x` of `x.name(…)`).
    fn call_receiver<'t>(&self, call: Node<'t>) -> Option<Node<'t>>;

    /// The code a macro call stands for, to be read as if expanded (Rust: a local
    /// `macro_rules!` transcribed, a pass-through macro's items, or inside a member the
    /// expression its tokens form); empty for any other node.
    fn macro_calls(&self, node: Node<'_>, src: &str, in_member: bool) -> Vec<MacroBody>;

    /// Whether `node` marks the function after it as a test (Rust's `#[test]`).
    fn test_marker(&self, node: Node<'_>, src: &str) -> bool;

    /// Whether `between` (the text from a test marker to a function) holds only more markers.
    fn only_markers(&self, between: &str) -> bool;

    /// The local names `node` declares with a stated or made type, appended to `out`
    /// (`source::calls::typed`).
    fn declared(
        &self,
        node: Node<'_>,
        src: &str,
        returns: &Returns,
        out: &mut Vec<(String, String)>,
    );

    /// Whether its functions' written return types type the receivers they make.
    fn reads_return_types(&self) -> bool;

    /// Whether a block ends in a value (Rust's tail expressions), shown as `→ value` in a flow.
    fn blocks_end_in_values(&self) -> bool;

    /// The definition `node` makes, if any (`source::definitions`).
    fn definition<'t>(
        &self,
        walker: &Walker<'_>,
        node: Node<'t>,
        ctx: Ctx,
    ) -> Option<Definition<'t>>;

    /// The walk's state below a node that defines nothing, when the language changes it (a Rust
    /// `impl` opens its type as the container); `None` to keep the shared rule.
    fn descend(&self, walker: &mut Walker<'_>, node: Node<'_>, ctx: Ctx) -> Option<Ctx>;

    /// Whether a node of `kind` opens a scope: below it, nothing is at the file's top.
    fn opens_scope(&self, kind: &str) -> bool;

    /// What a file is as a program when its structure says so (a binary's entry point, a fuzz
    /// target, pytest's `conftest.py`, a script), as the sentence describing it; `summary` is
    /// what its definitions say ("defines …"), for a role that lists them. `None` for a file
    /// that is no program of its own.
    fn program_role(&self, source: &str, text: &str, summary: &str) -> Option<String>;

    /// Whether its test files declare suites of calls (`describe('…', …)`, `it('…', …)`), read
    /// into [`crate::source::Suites`].
    fn has_suite_calls(&self) -> bool;
}
