//! Kotlin in the definitions walk (`source::definitions`): the nodes that define a function,
//! class, object, property or type alias, with their signature, doc and value. A companion
//! object defines nothing itself: its members are its class's.

use tree_sitter::Node;

use crate::source::definitions::{value_text, Ctx, Found, Walker};
use crate::source::SymbolKind;

impl<'s> Walker<'s> {
    /// The definition `node` makes in a Kotlin file, if any.
    pub(crate) fn kotlin<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let kind = match node.kind() {
            "class_declaration" if super::extract::is_interface(node) => SymbolKind::Interface,
            "class_declaration" | "object_declaration" => SymbolKind::Class,
            "function_declaration" if ctx.container.is_some() => SymbolKind::Method,
            "function_declaration" => SymbolKind::Function,
            "type_alias" => SymbolKind::TypeAlias,
            "property_declaration" if ctx.function.is_none() => {
                let name = super::extract::declared_name(node, src)?;
                let constant = node.utf8_text(src.as_bytes()).is_ok_and(|text| {
                    text.split_whitespace()
                        .take_while(|w| !matches!(*w, "val" | "var"))
                        .any(|w| w == "const")
                });
                let kind = match constant {
                    true => SymbolKind::Constant,
                    false => SymbolKind::Variable,
                };
                let mut found = self.found(node, name, kind);
                found.signature = super::extract::declaration_signature(node, src);
                found.value = Some(value_text(node, src));
                found.doc = super::extract::kdoc(node, src);
                return Some(found);
            }
            _ => return None,
        };
        let name = super::extract::declared_name(node, src)?.to_string();
        let mut found = self.found(node, &name, kind);
        found.signature = super::extract::declaration_signature(node, src);
        found.doc = super::extract::kdoc(node, src);
        match kind {
            SymbolKind::Method | SymbolKind::Function => found.function = true,
            SymbolKind::TypeAlias => {}
            _ => {
                found.bases = super::calls::kotlin_bases(node, src);
                found.opens = Some(name);
            }
        }
        Some(found)
    }
}
