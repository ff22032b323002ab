//! Lexibrarian keeps a *library* of a codebase for AI coding agents inside the codebase's own git repository.
//!
//! # Layers
//!
//! Data flows one way, from the command line down to the file formats; no module imports a layer
//! above its own:
//!
//! ```text
//! cli ──▶ knowledge ─┐
//!     └─▶ engine ────┴─▶ workspace ──▶ archivist ──▶ source ──▶ project
//!                                  └─▶ library, git ─────────▶ project
//! ```
//!
//! - [`cli`] — the `lexi` (agents) and `lexictl` (maintenance) command lines: clap definitions, one
//!   file per subcommand, text and JSON output, exit codes. The only place `clap` appears.
//! - [`knowledge`] — queries and the agents' writes: lookup/context bundles, search, concepts, the
//!   Stack, I Was Here, validate, status, review, why.
//! - [`engine`] — what maintains the library: the update pipeline (`engine::update`: plan → scan →
//!   dependents → decide → write → indexes → remember), sweep, the hook worker, init, notes sync.
//! - [`workspace`] — one working tree opened once per command (project, repository, scope, state),
//!   the stat/hash cache, the engine state file, the library lock and the one enumeration of
//!   `.lexibrary/`.
//! - [`archivist`] — who writes design files: the structural Archivist (offline) and the LLM one.
//! - [`source`] — tree-sitter per language: public interface, interface hash, imports resolved to
//!   project files, language detection.
//! - [`library`] — the on-disk formats (design files, `.aindex`, concepts, Stack posts, `.iwh`,
//!   frontmatter, footer, notes events), parsed and rendered deterministically. Knows nothing of git
//!   or tree-sitter.
//! - [`git`] — gix in-process: HEAD, tree diffs, status, notes, hooks, revisions; the `git`
//!   executable only to talk to remotes and write config.
//! - [`project`] — root discovery, the two-tier config, ignore layers, scope, the mirror paths, the walk.
//! - Small leaves used everywhere: [`atomic`] (atomic writes), [`nofollow`] (reading and writing
//!   below a root without following symlinks), [`hash`] (SHA-256 hex), [`secrets`] (the one
//!   secret scanner), [`tokens`]
//!   (token counts and estimates), [`tsv`] (escaping for the cache's text format), [`relpath`]
//!   (project-relative paths: file name, stem, directory, join).

pub mod archivist;
pub mod atomic;
pub mod cli;
pub mod engine;
pub mod git;
pub mod hash;
pub mod knowledge;
pub mod library;
pub mod nofollow;
pub mod project;
pub mod relpath;
pub mod secrets;
pub mod source;
pub mod tokens;
pub mod tsv;
pub mod workspace;

/// The hermetic environment for child processes, shared with the integration tests and benches
/// (tests/common/hermetic.rs); the unit tests that run `git` use it.
#[cfg(test)]
#[path = "../tests/common/hermetic.rs"]
mod hermetic;
