//! Language-neutral tree-sitter helpers shared by the extractors: node text, signature tokens
//! and their deterministic joining, a stack-safe tree walk, comment/nesting signals, doc-comment
//! cleanup and the builder that collects symbols together with their source-order outline.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::interface::{Import, OutlineLine, Signals, Symbol, SymbolKind};

/// Text of `node`, or "" if its byte range is somehow not a valid slice of `src`.
pub(crate) fn text_of<'a>(node: Node<'_>, src: &'a str) -> &'a str {
    src.get(node.byte_range()).unwrap_or("")
}

/// `s` with every whitespace character removed (`crate :: a` → `crate::a`).
pub(crate) fn compact(s: &str) -> String {
    s.chars().filter(|c| !c.is_whitespace()).collect()
}

/// 1-based line of `node`.
pub(crate) fn line_of(node: Node<'_>) -> usize {
    node.start_position().row + 1
}

/// Whether `node` has a direct child of kind `kind`.
pub(crate) fn has_child_kind(node: Node<'_>, kind: &str) -> bool {
    let mut cursor = node.walk();
    let found = node.children(&mut cursor).any(|c| c.kind() == kind);
    found
}

/// Direct children that are not comments or other extras.
pub(crate) fn code_children(node: Node<'_>) -> Vec<Node<'_>> {
    let mut cursor = node.walk();
    let children = node
        .named_children(&mut cursor)
        .filter(|c| !c.is_extra())
        .collect();
    children
}

/// A signature token: its text and the kind of its parent node (used for spacing decisions).
#[derive(Clone, Debug)]
pub(crate) struct Tok<'a> {
    pub text: Cow<'a, str>,
    pub parent: &'a str,
    /// An anonymous grammar token (keyword or punctuation) rather than a named node.
    pub keyword: bool,
}

/// Nodes whose whole text is one token (string literals, lifetimes, …).
const ATOMIC: &[&str] = &[
    "string_literal",
    "raw_string_literal",
    "char_literal",
    "lifetime",
    "string",
    "template_string",
    "template_literal_type",
    "regex",
    "jsx_element",
    "jsx_self_closing_element",
];

/// Nodes never part of a signature (below the collected node itself).
const SKIPPED: &[&str] = &[
    "attribute_item",
    "inner_attribute_item",
    // C and C++: `__attribute__((packed))`, `[[nodiscard]]`.
    "attribute_specifier",
    "attribute_declaration",
    "decorator",
    "line_comment",
    "block_comment",
    "comment",
    "html_comment",
];

/// Append the leaf tokens of `node` to `out` in source order, skipping comments, attributes,
/// decorators and every subtree in `excluded`. Iterative, so safe on arbitrarily deep trees.
pub(crate) fn tokens<'a>(
    node: Node<'a>,
    src: &'a str,
    excluded: &[Node<'a>],
    out: &mut Vec<Tok<'a>>,
) {
    let mut cursor = node.walk();
    let mut parents: Vec<&'a str> = Vec::new();
    loop {
        let n = cursor.node();
        let skip = !parents.is_empty()
            && ((n.is_extra() && n.kind() != "ERROR")
                || SKIPPED.contains(&n.kind())
                || excluded.iter().any(|e| e.id() == n.id()));
        let mut descended = false;
        if !skip {
            if n.child_count() == 0 || ATOMIC.contains(&n.kind()) {
                let text = text_of(n, src);
                if !text.trim().is_empty() {
                    out.push(Tok {
                        text: squash(text),
                        parent: parents.last().copied().unwrap_or(""),
                        keyword: !n.is_named(),
                    });
                }
            } else if cursor.goto_first_child() {
                parents.push(n.kind());
                descended = true;
            }
        }
        if descended {
            continue;
        }
        loop {
            if parents.is_empty() {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            parents.pop();
        }
    }
}

/// Collapse whitespace runs that contain a line break or tab into a single space.
fn squash(text: &str) -> Cow<'_, str> {
    let trimmed = text.trim();
    if !trimmed.contains(['\n', '\r', '\t']) {
        return Cow::Borrowed(trimmed);
    }
    let mut out = String::with_capacity(trimmed.len());
    let mut in_space = false;
    for c in trimmed.chars() {
        if c.is_whitespace() {
            if !in_space {
                out.push(' ');
            }
            in_space = true;
        } else {
            out.push(c);
            in_space = false;
        }
    }
    Cow::Owned(out)
}

/// Tokens of `node` (minus `excluded`) joined into a normalised signature.
pub(crate) fn signature(node: Node<'_>, src: &str, excluded: &[Node<'_>]) -> String {
    let mut toks = Vec::new();
    tokens(node, src, excluded, &mut toks);
    join(&toks)
}

fn is_generic(parent: &str) -> bool {
    matches!(
        parent,
        "type_arguments"
            | "type_parameters"
            | "bracketed_type"
            | "for_lifetimes"
            | "type_argument_list"
            | "type_parameter_list"
            | "template_argument_list"
            | "template_parameter_list"
    )
}

fn is_conditional(parent: &str) -> bool {
    matches!(
        parent,
        "conditional_type" | "ternary_expression" | "conditional_expression"
    )
}

fn word_like(s: &str) -> bool {
    s.chars()
        .last()
        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '$')
}

/// Keywords that are followed by a space even before `(` / `[` / `<`.
fn spaced_keyword(tok: &Tok<'_>) -> bool {
    tok.keyword
        && matches!(
            tok.text.as_ref(),
            "async"
                | "function"
                | "if"
                | "for"
                | "while"
                | "return"
                | "await"
                | "yield"
                | "typeof"
                | "keyof"
                | "in"
                | "of"
                | "as"
                | "extends"
                | "implements"
                | "new"
                | "mut"
                | "ref"
                | "where"
                | "and"
                | "or"
                | "not"
                | "is"
                | "else"
                | "match"
                | "case"
                | "with"
                | "lambda"
                | "from"
                | "default"
                | "export"
                | "readonly"
                | "satisfies"
                | "infer"
                | "instanceof"
                | "unique"
        )
}

fn is_closer(tok: &Tok<'_>) -> bool {
    match tok.text.as_ref() {
        ")" | "]" | "}" => true,
        ">" => is_generic(tok.parent),
        _ => false,
    }
}

/// Whether a space goes between `prev` and `cur`. Deterministic in the token sequence only, so
/// whitespace edits in the source never change a signature.
fn space_between(prev: &Tok<'_>, cur: &Tok<'_>) -> bool {
    let p = prev.text.as_ref();
    let c = cur.text.as_ref();
    // Tokens that glue to whatever follows.
    if matches!(p, "(" | "[" | "::" | "." | "?." | "@" | "...") {
        return false;
    }
    let glue_after = match p {
        "<" => is_generic(prev.parent),
        "{" => prev.parent == "use_list",
        "&" | "&&" => matches!(
            prev.parent,
            "reference_type"
                | "reference_expression"
                | "self_parameter"
                | "reference_pattern"
                | "reference_declarator"
                | "abstract_reference_declarator"
        ),
        "*" | "**" => matches!(
            prev.parent,
            "pointer_type"
                | "pointer_declarator"
                | "abstract_pointer_declarator"
                | "list_splat_pattern"
                | "dictionary_splat_pattern"
                | "list_splat"
                | "dictionary_splat"
        ),
        "?" => prev.parent == "removed_trait_bound",
        "~" => prev.parent == "destructor_name",
        "!" => matches!(prev.parent, "impl_item" | "unary_expression"),
        "-" => matches!(prev.parent, "unary_expression" | "negative_literal"),
        "=" => matches!(prev.parent, "default_parameter" | "keyword_argument"),
        _ => false,
    };
    if glue_after {
        return false;
    }
    // Tokens that glue to whatever precedes.
    match c {
        ")" | "]" | "," | ";" | "." | "?." | "::" => false,
        "..." if cur.parent == "parameter_pack_expansion" => false,
        "}" => cur.parent != "use_list" && p != "{",
        ":" => is_conditional(cur.parent) || cur.parent == "base_class_clause",
        "=" => !matches!(cur.parent, "default_parameter" | "keyword_argument"),
        ">" => !is_generic(cur.parent),
        "<" => !(is_generic(cur.parent) && word_like(p) && !spaced_keyword(prev)),
        "(" => {
            let after_word = word_like(p) && !spaced_keyword(prev);
            let after_generic = p == ">" && is_generic(prev.parent);
            let after_optional = p == "?" && !is_conditional(prev.parent);
            !(after_word || after_generic || after_optional)
        }
        "[" => {
            let after_word = word_like(p) && !spaced_keyword(prev);
            let after_close = matches!(p, ")" | "]") || (p == ">" && is_generic(prev.parent));
            !(after_word || after_close)
        }
        // `Task<T>?`: a nullable generic type (C#, Kotlin) glues its `?` to the `>`.
        "?" => {
            !(word_like(p) || (p == ">" && cur.parent == "nullable_type"))
                || is_conditional(cur.parent)
        }
        "*" => {
            !(p == "function"
                && matches!(
                    cur.parent,
                    "generator_function" | "generator_function_declaration"
                ))
        }
        _ => true,
    }
}

/// Join signature tokens: drop trailing commas before closers, leading `|`/`&` of union and
/// intersection types and trailing `, ; = :`, then space tokens by [`space_between`].
pub(crate) fn join(toks: &[Tok<'_>]) -> String {
    let mut kept: Vec<&Tok<'_>> = Vec::with_capacity(toks.len());
    for (i, tok) in toks.iter().enumerate() {
        let text = tok.text.as_ref();
        if text == "," && toks.get(i + 1).is_none_or(is_closer) {
            continue;
        }
        if matches!(text, "|" | "&") && matches!(tok.parent, "union_type" | "intersection_type") {
            let leading = kept.last().is_none_or(|p| {
                matches!(
                    p.text.as_ref(),
                    "=" | ":" | "(" | "<" | "," | "[" | "=>" | "|" | "&" | "{"
                )
            });
            if leading {
                continue;
            }
        }
        kept.push(tok);
    }
    while kept
        .last()
        .is_some_and(|t| matches!(t.text.as_ref(), "," | ";" | "=" | ":"))
    {
        kept.pop();
    }
    let mut out = String::new();
    for (i, tok) in kept.iter().enumerate() {
        if i > 0 && space_between(kept[i - 1], tok) {
            out.push(' ');
        }
        out.push_str(&tok.text);
    }
    out
}

/// Depth-first pre-order walk without recursion. `visit` gets each node and the state its parent
/// handed down; returning `Some(state)` descends into the node's children with that state.
pub(crate) fn walk<'t, S: Copy>(
    root: Node<'t>,
    init: S,
    mut visit: impl FnMut(Node<'t>, S) -> Option<S>,
) {
    let mut cursor = root.walk();
    let mut states: Vec<S> = Vec::new();
    loop {
        let node = cursor.node();
        let inherited = states.last().copied().unwrap_or(init);
        if let Some(next) = visit(node, inherited) {
            if cursor.goto_first_child() {
                states.push(next);
                continue;
            }
        }
        loop {
            if states.is_empty() {
                return;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            states.pop();
        }
    }
}

/// Block nesting bookkeeping carried through [`walk`].
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Nesting {
    blocks: u32,
    base: Option<u32>,
}

impl Nesting {
    /// Entering a function. Declarations always start a new function; closures/lambdas/arrow
    /// functions (`declaration == false`) only when not already inside one.
    pub fn function(self, declaration: bool) -> Nesting {
        if declaration || self.base.is_none() {
            Nesting {
                blocks: self.blocks,
                base: Some(self.blocks),
            }
        } else {
            self
        }
    }

    /// Entering a block; records its depth below the enclosing function body.
    pub fn block(self, signals: &mut Signals) -> Nesting {
        let blocks = self.blocks.saturating_add(1);
        if let Some(base) = self.base {
            let depth = blocks.saturating_sub(base).saturating_sub(1) as usize;
            signals.max_nesting = signals.max_nesting.max(depth);
        }
        Nesting {
            blocks,
            base: self.base,
        }
    }
}

/// Occurrences of TODO, FIXME, HACK and XXX as whole words in `comment`.
pub(crate) fn count_markers(comment: &str) -> usize {
    let bytes = comment.as_bytes();
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut count = 0;
    for marker in ["TODO", "FIXME", "HACK", "XXX"] {
        let m = marker.as_bytes();
        let mut i = 0;
        while i + m.len() <= bytes.len() {
            if &bytes[i..i + m.len()] == m
                && (i == 0 || !is_word(bytes[i - 1]))
                && bytes.get(i + m.len()).is_none_or(|&b| !is_word(b))
            {
                count += 1;
                i += m.len();
            } else {
                i += 1;
            }
        }
    }
    count
}

/// Body lines of a `/* … */`-style comment: the markers (`/*`, `/**`, `/*!`, `*/`) removed, and a
/// leading `*` stripped from every line when all continuation lines carry one.
pub(crate) fn block_comment_lines(text: &str) -> Vec<String> {
    let inner = text.strip_prefix("/*").unwrap_or(text);
    let inner = inner
        .strip_prefix('*')
        .or_else(|| inner.strip_prefix('!'))
        .unwrap_or(inner);
    let inner = inner.strip_suffix("*/").unwrap_or(inner);
    let lines: Vec<&str> = inner.lines().collect();
    let starred = lines
        .iter()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .all(|l| l.trim_start().starts_with('*'));
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let t = l.trim();
            if i > 0 && starred {
                t.strip_prefix('*').unwrap_or(t).trim().to_string()
            } else {
                t.to_string()
            }
        })
        .collect()
}

/// The doc comment directly above `node`: the run of `///`, `//` or `/** */` comments that ends on
/// at most one blank line above it (Rust attributes and decorators in between are stepped over). Inner docs
/// (`//!`, `/*!`) and licence banners are not item docs.
pub(crate) fn leading_doc(node: Node<'_>, src: &str) -> Option<String> {
    let mut blocks: Vec<Vec<String>> = Vec::new();
    let mut row = node.start_position().row;
    let mut current = node.prev_sibling();
    while let Some(sibling) = current {
        // One blank line may separate a doc block from what it documents (express style).
        if sibling.end_position().row + 2 < row {
            break;
        }
        match sibling.kind() {
            "attribute_item" | "decorator" => {}
            "line_comment" | "comment" | "block_comment" => {
                let text = text_of(sibling, src);
                if text.starts_with("//!") || text.starts_with("/*!") {
                    break;
                }
                let lines = match text.strip_prefix("//") {
                    Some(body) => vec![body.trim_start_matches('/').trim().to_string()],
                    None => block_comment_lines(text),
                };
                blocks.push(lines);
            }
            _ => break,
        }
        row = sibling.start_position().row;
        current = sibling.prev_sibling();
    }
    blocks.reverse();
    let lines: Vec<String> = blocks.into_iter().flatten().collect();
    finish_doc(&lines)
}

/// The doc of comment or docstring `lines`, dedented (see the body); `None` when empty.
pub(crate) fn finish_doc<S: AsRef<str>>(lines: &[S]) -> Option<String> {
    // Like Python's `inspect.cleandoc`: the first line trimmed, the others dedented by their common
    // indentation (nesting — a parameter's continuation, a definition list — stays readable).
    let lines: Vec<&str> = lines.iter().map(|l| l.as_ref().trim_end()).collect();
    let common = lines
        .iter()
        .skip(1)
        .filter(|line| !line.trim().is_empty())
        .map(|line| line.len() - line.trim_start().len())
        .min()
        .unwrap_or(0);
    let joined = lines
        .iter()
        .enumerate()
        .map(|(i, line)| match i {
            0 => line.trim_start(),
            _ => line.get(common..).unwrap_or_else(|| line.trim_start()),
        })
        .collect::<Vec<_>>()
        .join("\n");
    let trimmed = joined.trim_matches('\n');
    let trimmed = trimmed.trim_start();
    (!trimmed.trim().is_empty()).then(|| trimmed.to_string())
}

/// Longest item doc kept on an outline line, in bytes (only its first sentence is ever shown).
const MAX_ITEM_DOC: usize = 600;

/// The first paragraph of a doc (up to its first blank line), at most [`MAX_ITEM_DOC`] bytes.
fn first_paragraph(doc: &str) -> String {
    let paragraph: Vec<&str> = doc
        .lines()
        .map(str::trim)
        .skip_while(|line| line.is_empty())
        .take_while(|line| !line.is_empty())
        .collect();
    let mut text = paragraph.join("\n");
    if text.len() > MAX_ITEM_DOC {
        let mut end = MAX_ITEM_DOC;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
    text
}

/// A whole doc, cut at [`super::interface::MAX_WHOLE_DOC`] bytes (on a character boundary).
fn whole_doc(mut doc: String) -> String {
    let max = super::interface::MAX_WHOLE_DOC;
    if doc.len() > max {
        let mut end = max;
        while !doc.is_char_boundary(end) {
            end -= 1;
        }
        doc.truncate(end);
    }
    doc
}

/// Collects public symbols (deduplicated) and the skeleton outline in source order.
#[derive(Default)]
pub(crate) struct Builder {
    pub symbols: Vec<Symbol>,
    pub outline: Vec<OutlineLine>,
    seen: HashSet<Symbol>,
}

impl Builder {
    /// Add a symbol shown at `depth` in the skeleton. Returns false (and adds nothing) for an
    /// exact duplicate or an empty name/signature.
    pub fn add(
        &mut self,
        depth: usize,
        kind: SymbolKind,
        name: &str,
        parent: Option<&str>,
        signature: String,
    ) -> bool {
        if name.is_empty() || signature.is_empty() {
            return false;
        }
        let symbol = Symbol {
            kind,
            name: name.to_string(),
            parent: parent.map(str::to_string),
            signature,
        };
        if self.seen.contains(&symbol) {
            return false;
        }
        self.outline.push(OutlineLine {
            depth,
            text: symbol.signature.clone(),
            kind: Some(kind),
            name: symbol.name.clone(),
            parent: symbol.parent.clone(),
            doc: None,
            behaviour: Vec::new(),
            whole_doc: None,
        });
        self.seen.insert(symbol.clone());
        self.symbols.push(symbol);
        true
    }

    /// [`Builder::add`], with the declaration's doc kept on its outline line.
    pub fn add_documented(
        &mut self,
        depth: usize,
        kind: SymbolKind,
        name: &str,
        parent: Option<&str>,
        (signature, doc): (String, Option<String>),
    ) -> bool {
        let added = self.add(depth, kind, name, parent, signature);
        if added {
            if let Some(line) = self.outline.last_mut() {
                line.behaviour = doc
                    .as_deref()
                    .map(super::behaviour::behaviour_lines)
                    .unwrap_or_default();
                line.doc = doc.as_deref().map(first_paragraph);
                line.whole_doc = doc.map(whole_doc);
            }
        }
        added
    }

    /// Number of outline lines so far (to insert a header before children added later).
    pub fn mark(&self) -> usize {
        self.outline.len()
    }

    /// Insert a header at a previously taken [`Builder::mark`], if anything was added since.
    pub fn header_at(&mut self, mark: usize, depth: usize, text: String) {
        if self.outline.len() > mark {
            let header = OutlineLine {
                depth,
                text,
                kind: None,
                name: String::new(),
                parent: None,
                doc: None,
                behaviour: Vec::new(),
                whole_doc: None,
            };
            self.outline.insert(mark, header);
        }
    }
}

/// Imports in source order, deduplicated by [`ImportKey`].
#[derive(Default)]
pub(crate) struct Imports {
    pub list: Vec<Import>,
    /// Where each import is in `list`.
    seen: HashMap<ImportKey, usize>,
}

/// What makes two imports one: the spec, its `#[path]`, and whether it imports the module itself
/// (no names) or names from it.
type ImportKey = (String, Option<String>, bool);

impl Imports {
    /// Record `spec` at `line` unless already recorded or empty.
    pub fn add(&mut self, spec: String, line: usize) {
        self.add_import(Import {
            spec,
            line,
            ..Import::default()
        });
    }

    /// Record `import`; a spec seen before gains the new import's names (and keeps its first line).
    /// A `mod` declared twice with different `#[path]`s (`cfg` alternatives) is two imports, and so
    /// are an import of the module itself and one of names from it (Python `import flask` and
    /// `from flask import json`: the first needs the package, the second only the submodule).
    pub fn add_import(&mut self, import: Import) {
        if import.spec.is_empty() {
            return;
        }
        let key = (
            import.spec.clone(),
            import.path.clone(),
            import.names.is_empty(),
        );
        let Some(&at) = self.seen.get(&key) else {
            self.seen.insert(key, self.list.len());
            self.list.push(import);
            return;
        };
        let known = &mut self.list[at];
        known.type_only &= import.type_only;
        known.namespace = known.namespace.merge(import.namespace);
        for name in import.names {
            if !known.names.contains(&name) {
                known.names.push(name);
            }
        }
    }
}

/// What a language extractor hands back to `extract`.
#[derive(Default)]
pub(crate) struct Extracted {
    pub builder: Builder,
    pub imports: Imports,
    pub bindings: Vec<super::interface::Binding>,
    /// Rust: the textual macro scope ([`super::interface::MacroScope`]).
    pub macro_scope: Vec<super::interface::MacroScope>,
    pub doc: Option<String>,
    /// Doc comments of top-level declarations, by name (the primary export's doc).
    pub item_docs: Vec<(String, String)>,
    /// JS/TS: what the module exports as a whole (`module.exports = name`, `export default`), as a key
    /// of `item_docs`.
    pub primary: Option<String>,
    /// The tree has errors, all of them newer syntax the grammar does not know (not worth a warning).
    pub syntax_ok: bool,
    pub signals: Signals,
}

/// The code a macro call stands for (one body of items, or the expression its tokens form): its
/// own syntax tree over its own text, read as if the macro were expanded.
pub(crate) struct MacroBody {
    pub(crate) tree: tree_sitter::Tree,
    /// The body's text (what the tree's byte ranges index).
    pub text: String,
    /// Rows of the file before the body's first line (add to a row of the tree for the file's).
    pub row: usize,
}

impl MacroBody {
    /// The root (`source_file`) of the body's items.
    pub fn root(&self) -> Node<'_> {
        self.tree.root_node()
    }

    /// The body's tree, text and rows before it (`source::SourceFile` keeps every tree of a file).
    pub fn into_parts(self) -> (tree_sitter::Tree, String, usize) {
        (self.tree, self.text, self.row)
    }
}

/// Macro bodies nested deeper than this (a macro call inside a macro body …) are not read.
pub(crate) const MAX_MACRO_DEPTH: usize = 4;

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(items: &[(&'static str, &'static str)]) -> Vec<Tok<'static>> {
        items
            .iter()
            .map(|(t, p)| Tok {
                text: Cow::Borrowed(*t),
                parent: p,
                keyword: false,
            })
            .collect()
    }

    #[test]
    fn join_spaces_rust_like_rustfmt() {
        let t = toks(&[
            ("pub", "visibility_modifier"),
            ("fn", "function_item"),
            ("parse", "function_item"),
            ("(", "parameters"),
            ("input", "parameter"),
            (":", "parameter"),
            ("&", "reference_type"),
            ("str", "reference_type"),
            (",", "parameters"),
            (")", "parameters"),
            ("->", "function_item"),
            ("Result", "generic_type"),
            ("<", "type_arguments"),
            ("Ast", "type_arguments"),
            (",", "type_arguments"),
            ("Error", "type_arguments"),
            (">", "type_arguments"),
        ]);
        assert_eq!(join(&t), "pub fn parse(input: &str) -> Result<Ast, Error>");
    }

    #[test]
    fn join_drops_leading_union_bar_and_trailing_separators() {
        let t = toks(&[
            ("type", "type_alias_declaration"),
            ("T", "type_alias_declaration"),
            ("=", "type_alias_declaration"),
            ("|", "union_type"),
            ("A", "union_type"),
            ("|", "union_type"),
            ("B", "union_type"),
            (";", "type_alias_declaration"),
        ]);
        assert_eq!(join(&t), "type T = A | B");
    }

    #[test]
    fn markers_are_counted_as_whole_words() {
        assert_eq!(count_markers("// TODO: x FIXME HACK XXX"), 4);
        assert_eq!(count_markers("// TODOS XXXX todo MYHACK"), 0);
        assert_eq!(count_markers("TODO TODO"), 2);
    }

    #[test]
    fn block_comment_lines_strip_stars() {
        let lines = block_comment_lines("/**\n * One.\n *\n * Two.\n */");
        assert_eq!(finish_doc(&lines).as_deref(), Some("One.\n\nTwo."));
        let lines = block_comment_lines("/* plain\n   text */");
        assert_eq!(finish_doc(&lines).as_deref(), Some("plain\ntext"));
        assert_eq!(finish_doc(&block_comment_lines("/** */")), None);
    }
}
