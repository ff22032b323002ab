//! C# in the definitions walk (`source::definitions`): the nodes that define a type, method,
//! constructor, property, field or event, with their signature, XML doc and value.

use tree_sitter::Node;

use crate::source::definitions::{value_text, Ctx, Found, Walker};
use crate::source::SymbolKind;

impl<'s> Walker<'s> {
    /// The definition `node` makes in a C# file, if any.
    pub(crate) fn csharp<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let kind = match node.kind() {
            "class_declaration" | "struct_declaration" | "record_declaration" => SymbolKind::Class,
            "interface_declaration" => SymbolKind::Interface,
            "enum_declaration" => SymbolKind::Enum,
            "delegate_declaration" => SymbolKind::TypeAlias,
            "method_declaration" | "constructor_declaration" | "local_function_statement" => {
                SymbolKind::Method
            }
            "property_declaration" | "field_declaration" | "event_field_declaration"
                if ctx.function.is_none() =>
            {
                let name = super::extract::declared_name(node, src)?;
                let constant = super::extract::modifier_words(node, src).contains(&"const");
                let kind = match constant {
                    true => SymbolKind::Constant,
                    false => SymbolKind::Variable,
                };
                let mut found = self.found(node, name, kind);
                found.signature = super::extract::declaration_signature(node, src);
                found.value = Some(value_text(node, src));
                found.doc = super::extract::xml_doc(node, src);
                return Some(found);
            }
            _ => return None,
        };
        let name = super::extract::declared_name(node, src)?.to_string();
        let mut found = self.found(node, &name, kind);
        found.signature = super::extract::declaration_signature(node, src);
        found.doc = super::extract::xml_doc(node, src);
        match kind {
            SymbolKind::Method => found.function = true,
            SymbolKind::TypeAlias => {}
            _ => {
                found.bases = super::calls::csharp_bases(node, src);
                found.opens = Some(name);
            }
        }
        Some(found)
    }
}
