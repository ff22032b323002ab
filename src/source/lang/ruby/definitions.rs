//! Ruby in the definitions walk (`source::definitions`): classes and modules (opening their
//! name), methods (`def x`, `def self.x`), and constants assigned in a class, module or at the
//! top, with their signature and YARD/RDoc comment.

use tree_sitter::Node;

use crate::source::definitions::{value_text, Ctx, Found, Walker};
use crate::source::syntax::text_of;
use crate::source::SymbolKind;

impl<'s> Walker<'s> {
    /// The definition `node` makes in a Ruby file, if any.
    pub(crate) fn ruby<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        match node.kind() {
            "class" | "module" => {
                let written = text_of(node.child_by_field_name("name")?, src);
                let name = super::extract::simple_name(written).to_string();
                let kind = match node.kind() {
                    "module" => SymbolKind::Module,
                    _ => SymbolKind::Class,
                };
                let mut found = self.found(node, &name, kind);
                found.signature = super::extract::container_signature(node, src);
                found.doc = super::extract::ruby_doc(node, src);
                found.bases = super::calls::class_bases(node, src)
                    .map(|(_, bases)| bases)
                    .unwrap_or_default();
                found.opens = Some(name);
                Some(found)
            }
            "method" | "singleton_method" => {
                let name = super::extract::method_name(node, src)?.to_string();
                let kind = match ctx.container {
                    Some(_) => SymbolKind::Method,
                    None => SymbolKind::Function,
                };
                let mut found = self.found(node, &name, kind);
                found.signature =
                    super::extract::method_signature(node, src, node.kind() == "singleton_method");
                found.doc = super::extract::ruby_doc(node, src);
                found.function = true;
                Some(found)
            }
            "assignment" if ctx.function.is_none() => {
                let left = node.child_by_field_name("left")?;
                (left.kind() == "constant").then_some(())?;
                let name = text_of(left, src).to_string();
                let mut found = self.found(node, &name, SymbolKind::Constant);
                found.signature = name.clone();
                found.value = Some(value_text(node, src));
                found.doc = super::extract::ruby_doc(node, src);
                Some(found)
            }
            _ => None,
        }
    }
}
