//! A file parsed once for `lexi lookup --member`: its interface, every definition in it (public or
//! private, `source::definitions`) and the syntax trees they sit in — the file's own and, in Rust,
//! the bodies of its item-position macro calls — so that a member's flow (`source::flow`) is read
//! from the same parse, never from a second one.

use tree_sitter::{Node, Tree};

use super::catches::{self, CallSite};
use super::definitions::{self, Definition, TraitImpl};
use super::flow::{self, Flow};
use super::syntax::MAX_MACRO_DEPTH;
use super::{extract_tree, parse, Interface, Language, SourceError};

/// One tree of the file: the file's own (index 0) or a macro body's, with its text.
struct Piece {
    tree: Tree,
    /// The text the tree's byte ranges index (the file's, or the macro body's).
    text: String,
}

/// A parsed file.
pub struct SourceFile {
    pub language: Language,
    pub interface: Interface,
    /// Every definition, in source order (a macro body's after the file's).
    pub definitions: Vec<Definition>,
    /// Rust `impl Trait for Type` blocks.
    pub impls: Vec<TraitImpl>,
    pieces: Vec<Piece>,
}

impl SourceFile {
    /// Parse `text` as `language`: the interface, then every definition.
    pub fn parse(language: Language, text: String) -> Result<SourceFile, SourceError> {
        let tree = parse(language, &text)?;
        let interface = extract_tree(language, &tree, &text);
        let mut file = SourceFile {
            language,
            interface,
            definitions: Vec::new(),
            impls: Vec::new(),
            pieces: vec![Piece { tree, text }],
        };
        file.collect(0, 0, None, 0);
        Ok(file)
    }

    /// Collect the definitions of piece `index` (`rows` lines into the file), then those of the
    /// macro bodies in it.
    fn collect(&mut self, index: usize, rows: usize, container: Option<String>, depth: usize) {
        let piece = &self.pieces[index];
        let place = definitions::Place {
            tree: index,
            rows,
            container,
        };
        let found = definitions::collect(
            self.language.walks(),
            piece.tree.root_node(),
            &piece.text,
            place,
        );
        self.definitions.extend(found.definitions);
        self.impls.extend(found.impls);
        if depth >= MAX_MACRO_DEPTH {
            return;
        }
        let mut bodies = Vec::new();
        for (start, end, container) in found.macro_calls {
            let piece = &self.pieces[index];
            let Some(call) = piece.tree.root_node().descendant_for_byte_range(start, end) else {
                continue;
            };
            for body in self.language.walks().macro_items(call, &piece.text) {
                bodies.push((body.into_parts(), container.clone()));
            }
        }
        for ((tree, text, row), container) in bodies {
            self.pieces.push(Piece { tree, text });
            let inner = self.pieces.len() - 1;
            self.collect(inner, rows + row, container, depth + 1);
        }
    }

    /// The syntax node of `definition` and the text its tree indexes.
    fn node(&self, definition: &Definition) -> Option<(Node<'_>, &str)> {
        let piece = self.pieces.get(definition.at.tree)?;
        let mut node = piece
            .tree
            .root_node()
            .descendant_for_byte_range(definition.at.start, definition.at.end)?;
        // The smallest node of the range may be inside the one defined (a statement's only child).
        while node.kind_id() != definition.at.kind {
            node = node.parent().filter(|parent| {
                parent.start_byte() == definition.at.start && parent.end_byte() == definition.at.end
            })?;
        }
        Some((node, piece.text.as_str()))
    }

    /// The flow of `definition`'s body (`source::flow`): empty for what has no body.
    pub fn flow(&self, definition: &Definition, max_lines: usize) -> Flow {
        match self.node(definition) {
            Some((node, text)) => flow::flow(
                self.language.walks(),
                node,
                text,
                &definition.name,
                max_lines,
            ),
            None => Flow::default(),
        }
    }

    /// The calls of `callee` (a bare name) in `definition`'s body, each with the handlers of the
    /// `try`s around it (`source::catches`).
    pub fn call_sites(&self, definition: &Definition, callee: &str) -> Vec<CallSite> {
        let Some((node, text)) = self.node(definition) else {
            return Vec::new();
        };
        let rows = definition
            .line
            .saturating_sub(node.start_position().row + 1);
        catches::call_sites(self.language.walks(), node, text, callee, rows)
    }

    /// Whether `definition` exists for the documentation only: an item under `#[cfg(doc)]`
    /// (tokio's `select!` stub, whose real rules sit under `#[cfg(not(doc))]` beside it), told by
    /// the attribute lines right above it.
    pub fn is_doc_only(&self, definition: &Definition) -> bool {
        let Some(piece) = self.pieces.first() else {
            return false;
        };
        let above: Vec<&str> = piece
            .text
            .lines()
            .take(definition.line.saturating_sub(1))
            .collect();
        let attributes: Vec<&str> = above
            .into_iter()
            .rev()
            .map(str::trim)
            .take_while(|line| line.starts_with("#[") || line.starts_with("///"))
            .collect();
        attributes
            .iter()
            .any(|line| line.replace(' ', "") == "#[cfg(doc)]")
    }

    /// The definitions of `definition`'s kind and place: its own, by label.
    pub fn definition(&self, label: &str) -> Option<&Definition> {
        self.definitions.iter().find(|d| d.label == label)
    }
}

impl std::fmt::Debug for SourceFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SourceFile")
            .field("language", &self.language)
            .field("definitions", &self.definitions.len())
            .finish()
    }
}
