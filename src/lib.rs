//! Lexibrarian keeps a *library* of a codebase for AI coding agents inside the codebase's own git repository.
//!
//! The pipeline in one paragraph: [`project`] finds the project root, loads the two-tier config and decides
//! which files are in scope (ignore layers, binary detection, size limits) and where each one's design file
//! lives in the `.lexibrary/` mirror. [`library`] parses and renders the on-disk formats (design files,
//! `.aindex`, frontmatter, the machine footer) deterministically, and writes them atomically. [`source`]
//! reads source files with tree-sitter into a public interface, an interface hash and resolved imports.
//! The `cli` module turns all of that into the `lexi` (agents) and `lexictl` (maintenance) commands.

pub mod archivist;
pub mod atomic;
pub mod cli;
pub mod engine;
pub mod git;
pub mod hash;
pub mod knowledge;
pub mod library;
pub mod project;
pub mod source;
pub mod tokens;
pub mod tsv;
pub mod workspace;
