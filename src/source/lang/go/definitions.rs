//! Go in the definitions walk (`source::definitions`): the nodes that define a function,
//! class, constant or other member, with their signature, doc and value.

use tree_sitter::Node;

use crate::source::definitions::{value_text, Ctx, Found, Walker};
use crate::source::syntax::text_of;
use crate::source::SymbolKind;

impl<'s> Walker<'s> {
    /// Go: functions, methods (members of their receiver's type), types, and the constants and
    /// variables declared outside functions.
    pub(crate) fn go<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let kind = match node.kind() {
            "function_declaration" => SymbolKind::Function,
            "method_declaration" => SymbolKind::Method,
            "type_spec" | "type_alias" => match node.child_by_field_name("type")?.kind() {
                "struct_type" => SymbolKind::Struct,
                "interface_type" => SymbolKind::Interface,
                _ => SymbolKind::TypeAlias,
            },
            "const_spec" if ctx.function.is_none() => SymbolKind::Constant,
            "var_spec" if ctx.function.is_none() => SymbolKind::Variable,
            _ => return None,
        };
        let name = self.name_of(node, "name")?;
        let mut found = self.found(node, &name, kind);
        // A spec's doc is its own, else its declaration's (`// Modes.` above `const ( … )`).
        let declaration = match node.kind() {
            "type_spec" | "type_alias" | "const_spec" | "var_spec" => node
                .parent()
                .filter(|p| p.kind() == "var_spec_list")
                .or_else(|| node.parent()),
            _ => None,
        };
        found.doc = super::extract::doc_above(node, src)
            .or_else(|| declaration.and_then(|d| super::extract::doc_above(d, src)));
        match kind {
            SymbolKind::Function | SymbolKind::Method => {
                let body = node.child_by_field_name("body");
                found.signature = super::extract::signature(node, src, body);
                found.function = true;
                if kind == SymbolKind::Method {
                    let ty =
                        super::extract::receiver_type(node).map(|t| text_of(t, src).to_string());
                    found.container = Some(ty);
                }
            }
            _ => {
                found.signature = name.clone();
                found.value = Some(value_text(node, src));
                found.bases = super::extract::embedded_types(node, src);
            }
        }
        Some(found)
    }
}
