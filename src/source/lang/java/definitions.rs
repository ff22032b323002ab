//! Java in the definitions walk (`source::definitions`): the nodes that define a function,
//! class, constant or other member, with their signature, doc and value.

use tree_sitter::Node;

use crate::source::definitions::{value_text, Ctx, Found, Walker};
use crate::source::SymbolKind;

impl<'s> Walker<'s> {
    /// The definition `node` makes in a Java file, if any.
    pub(crate) fn java<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let body = node.child_by_field_name("body");
        let kind = match node.kind() {
            "class_declaration" | "record_declaration" => SymbolKind::Class,
            "interface_declaration" | "annotation_type_declaration" => SymbolKind::Interface,
            "enum_declaration" => SymbolKind::Enum,
            "method_declaration"
            | "constructor_declaration"
            | "compact_constructor_declaration"
            | "annotation_type_element_declaration" => SymbolKind::Method,
            "field_declaration" | "constant_declaration" if ctx.function.is_none() => {
                let declarator = node.child_by_field_name("declarator")?;
                let name = self.name_of(declarator, "name")?;
                let mut found = self.found(node, &name, SymbolKind::Variable);
                found.signature = super::extract::declaration_signature(node, src, None);
                found.value = Some(value_text(node, src));
                found.doc = super::extract::javadoc(node, src);
                return Some(found);
            }
            _ => return None,
        };
        let name = self.name_of(node, "name")?;
        let mut found = self.found(node, &name, kind);
        found.signature = super::extract::declaration_signature(node, src, body);
        found.doc = super::extract::javadoc(node, src);
        match kind {
            SymbolKind::Method => found.function = true,
            _ => {
                found.bases = super::calls::java_bases(node, src);
                found.opens = Some(name);
            }
        }
        Some(found)
    }
}
