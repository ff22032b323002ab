//! PHP in the definitions walk (`source::definitions`): the nodes that define a function, method,
//! class, interface, trait, enum, constant or property, with their signature, doc and value.

use tree_sitter::Node;

use crate::source::definitions::{value_text, Ctx, Found, Walker};
use crate::source::syntax::{code_children, text_of};
use crate::source::SymbolKind;

impl<'s> Walker<'s> {
    /// The definition `node` makes in a PHP file, if any.
    pub(crate) fn php<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let kind = match node.kind() {
            "class_declaration" => SymbolKind::Class,
            "interface_declaration" => SymbolKind::Interface,
            "trait_declaration" => SymbolKind::Trait,
            "enum_declaration" => SymbolKind::Enum,
            "method_declaration" => SymbolKind::Method,
            "function_definition" => SymbolKind::Function,
            "const_declaration" | "property_declaration" if ctx.function.is_none() => {
                let element = code_children(node)
                    .into_iter()
                    .find(|c| matches!(c.kind(), "const_element" | "property_element"))?;
                let name = match element.kind() {
                    "const_element" => code_children(element)
                        .into_iter()
                        .find(|c| c.kind() == "name")
                        .map(|n| text_of(n, src))?,
                    _ => text_of(element.child_by_field_name("name")?, src).trim_start_matches('$'),
                };
                let kind = match node.kind() {
                    "const_declaration" => SymbolKind::Constant,
                    _ => SymbolKind::Variable,
                };
                let mut found = self.found(node, name, kind);
                found.signature = super::extract::declaration_signature(node, src);
                found.value = Some(value_text(node, src));
                found.doc = super::extract::phpdoc(node, src);
                return Some(found);
            }
            _ => return None,
        };
        let name = text_of(node.child_by_field_name("name")?, src).to_string();
        let mut found = self.found(node, &name, kind);
        found.signature = super::extract::declaration_signature(node, src);
        found.doc = super::extract::phpdoc(node, src);
        match kind {
            SymbolKind::Method | SymbolKind::Function => found.function = true,
            _ => {
                found.bases = super::calls::php_bases(node, src);
                found.opens = Some(name);
            }
        }
        Some(found)
    }
}
