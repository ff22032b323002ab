//! Item-position macro calls read as the items they pass through, as rustc sees them once
//! pass-through macros are expanded: `cfg_net! { impl TcpListener { … } }` (tokio wraps most of its
//! API so), `cfg_rt! { pub mod runtime; }`, and `cfg_if! { if #[cfg(unix)] { … } else { … } }`,
//! whose every branch counts (the interface is the union of the configurations).
//!
//! tree-sitter parses a macro's body as an opaque token tree; this re-parses its text as Rust
//! items. A body that does not parse cleanly is a macro's own language (`$x:ident`, a DSL) and is
//! not read. `macro_rules!` definitions are a different node and are never read this way.

use tree_sitter::Node;

use crate::source::syntax::MacroBody;
use crate::source::syntax::{code_children, text_of};
use crate::source::Language;

/// The item bodies of a macro call: the whole token tree when it parses as Rust items, or each
/// `{ … }` branch of a `cfg_if!`-style chain (`if #[cfg(…)] { … } else if … { … } else { … }`)
/// that does. Empty for anything else.
pub(in crate::source) fn macro_bodies(call: Node<'_>, src: &str) -> Vec<MacroBody> {
    let Some(tokens) = code_children(call)
        .into_iter()
        .find(|child| child.kind() == "token_tree")
    else {
        return Vec::new();
    };
    if is_cfg_if_chain(tokens) {
        return code_children(tokens)
            .into_iter()
            .filter(|branch| is_brace_group(*branch))
            .filter_map(|branch| parse_group(branch, src))
            .collect();
    }
    parse_group(tokens, src).into_iter().collect()
}

/// Whether the token tree reads `if #[…] { … } [else …]`: its first token is `if`.
fn is_cfg_if_chain(tokens: Node<'_>) -> bool {
    let mut cursor = tokens.walk();
    let mut children = tokens.children(&mut cursor).filter(|c| !c.is_extra());
    let opener = children.next();
    let first = children.next();
    opener.is_some_and(|o| o.kind() == "{") && first.is_some_and(|f| f.kind() == "if")
}

/// A `{ … }` token tree.
fn is_brace_group(node: Node<'_>) -> bool {
    node.kind() == "token_tree" && node.child(0).is_some_and(|open| open.kind() == "{")
}

/// The tokens of an expression-position macro call (`assert_eq!(a.len(), b)`, `vec![f(x)]`) as an
/// expression statement, when they parse cleanly as one (a tuple of the arguments): its calls are
/// the caller's. A macro's own language (`select! { a = f => … }`) does not parse and is left.
pub(in crate::source) fn expression_body(call: Node<'_>, src: &str) -> Option<MacroBody> {
    let tokens = code_children(call)
        .into_iter()
        .find(|child| child.kind() == "token_tree")?;
    let text = text_of(tokens, src);
    let inner = text.get(1..text.len().checked_sub(1)?)?;
    if inner.trim().is_empty() {
        return None;
    }
    let wrapped = format!("fn __macro_tokens() {{ ({inner}); }}");
    let tree = crate::source::parse(Language::Rust, &wrapped).ok()?;
    if tree.root_node().has_error() {
        return None;
    }
    Some(MacroBody {
        tree,
        text: wrapped,
        row: tokens.start_position().row,
    })
}

/// The inside of a delimited token tree parsed as Rust items, when it parses cleanly.
fn parse_group(group: Node<'_>, src: &str) -> Option<MacroBody> {
    let text = text_of(group, src);
    let inner = text.get(1..text.len().checked_sub(1)?)?;
    if inner.trim().is_empty() {
        return None;
    }
    let tree = parsed_items(inner)?;
    Some(MacroBody {
        tree,
        text: inner.to_string(),
        row: group.start_position().row,
    })
}

/// Most macro bodies' texts a thread keeps parsed ([`parsed_items`]), in bytes: more than one
/// file's, a few megabytes of trees.
const KEPT_BODY_BYTES: usize = 512 << 10;

/// `text` parsed as Rust items when it parses cleanly, once per thread while it is kept: one
/// extraction asks for the same body from its interface, definitions and calls walks (tokio's
/// `cfg_rt! { … }` bodies were parsed three times over). A tree is shared by reference count.
fn parsed_items(text: &str) -> Option<tree_sitter::Tree> {
    use std::cell::RefCell;
    use std::collections::HashMap;
    type Kept = (HashMap<String, Option<tree_sitter::Tree>>, usize);
    thread_local! {
        static KEPT: RefCell<Kept> = RefCell::new((HashMap::new(), 0));
    }
    if let Some(found) = KEPT.with(|kept| kept.borrow().0.get(text).cloned()) {
        return found;
    }
    let tree = crate::source::parse(Language::Rust, text)
        .ok()
        .filter(|tree| !tree.root_node().has_error());
    KEPT.with(|kept| {
        let (trees, bytes) = &mut *kept.borrow_mut();
        if *bytes + text.len() > KEPT_BODY_BYTES {
            trees.clear();
            *bytes = 0;
        }
        *bytes += text.len();
        trees.insert(text.to_string(), tree.clone());
    });
    tree
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bodies(text: &str) -> Vec<String> {
        let tree = crate::source::parse(Language::Rust, text).expect("parses");
        let mut call = None;
        crate::source::syntax::walk(tree.root_node(), (), |n, ()| {
            if n.kind() == "macro_invocation" && call.is_none() {
                call = Some(n);
            }
            Some(())
        });
        macro_bodies(call.expect("a macro call"), text)
            .into_iter()
            .map(|b| format!("{}:{}", b.row, b.text.trim()))
            .collect()
    }

    #[test]
    fn a_body_of_items_is_one_body() {
        assert_eq!(
            bodies("\ncfg_net! {\n    pub fn a() {}\n}\n"),
            ["1:pub fn a() {}"]
        );
    }

    #[test]
    fn every_cfg_if_branch_is_a_body() {
        let text = "cfg_if::cfg_if! {\n    if #[cfg(unix)] {\n        pub fn a() {}\n    } else if #[cfg(windows)] {\n        pub fn b() {}\n    } else {\n        pub fn c() {}\n    }\n}\n";
        assert_eq!(
            bodies(text),
            ["1:pub fn a() {}", "3:pub fn b() {}", "5:pub fn c() {}"]
        );
    }

    #[test]
    fn a_macros_own_language_and_empty_bodies_are_not_items() {
        assert!(bodies("m! { $x:ident => 1 }\n").is_empty());
        assert!(bodies("m! {}\n").is_empty());
        assert!(bodies("m!();\n").is_empty());
        assert!(bodies("m!(pub fn a() {});\n").len() == 1);
        assert!(bodies("m! { if x { 1 } }\n").is_empty());
    }
}
