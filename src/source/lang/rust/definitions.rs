//! Rust in the definitions walk (`source::definitions`): the nodes that define a function,
//! class, constant or other member, with their signature, doc and value.

use tree_sitter::Node;

use crate::source::definitions::{
    final_name, value_text, Container, Ctx, Found, TraitImpl, Walker,
};
use crate::source::syntax::{code_children, leading_doc, signature};
use crate::source::SymbolKind;

impl<'s> Walker<'s> {
    /// The definition `node` makes in a Rust file, if any.
    pub(crate) fn rust<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let kind = match node.kind() {
            "function_item" | "function_signature_item" => match ctx.container {
                Some(_) if ctx.function.is_none() => SymbolKind::Method,
                _ => SymbolKind::Function,
            },
            "struct_item" => SymbolKind::Struct,
            "union_item" => SymbolKind::Struct,
            "enum_item" => SymbolKind::Enum,
            "trait_item" => SymbolKind::Trait,
            "type_item" => SymbolKind::TypeAlias,
            "associated_type" => SymbolKind::TypeAlias,
            "const_item" => SymbolKind::Constant,
            "static_item" => SymbolKind::Static,
            "macro_definition" => SymbolKind::Macro,
            _ => return None,
        };
        let name = self.name_of(node, "name")?;
        let name = name.strip_prefix("r#").unwrap_or(&name).to_string();
        let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
        let mut found = self.found(node, &name, kind);
        found.doc = leading_doc(node, src);
        match kind {
            SymbolKind::Function | SymbolKind::Method => {
                found.signature = signature(node, src, &body);
                found.function = node.kind() == "function_item";
            }
            SymbolKind::Trait => {
                found.signature = signature(node, src, &body);
                found.bases = node
                    .child_by_field_name("bounds")
                    .map(|bounds| {
                        code_children(bounds)
                            .into_iter()
                            .map(|b| final_name(b, src))
                            .filter(|b| b.starts_with(char::is_alphabetic))
                            .collect()
                    })
                    .unwrap_or_default();
                found.opens = Some(name);
            }
            SymbolKind::Struct | SymbolKind::Enum => {
                found.signature = signature(node, src, &body);
                found.value = Some(value_text(node, src));
            }
            SymbolKind::Macro => {
                found.signature = format!("macro_rules! {name}");
            }
            _ => {
                found.signature = signature(node, src, &[]);
                found.value = Some(value_text(node, src));
            }
        }
        Some(found)
    }

    /// What the walk below a node is when Rust says so: an `impl` opens its type as the
    /// container (and records the trait it implements); a macro call outside functions is kept
    /// for its items to be read as if expanded.
    pub(crate) fn rust_descend(&mut self, node: Node<'_>, ctx: Ctx) -> Option<Ctx> {
        let kind = node.kind();
        if kind == "impl_item" {
            let ty = node
                .child_by_field_name("type")
                .map(|t| final_name(t, self.src));
            if let (Some(ty), Some(tr)) = (&ty, node.child_by_field_name("trait")) {
                self.out.impls.push(TraitImpl {
                    trait_name: final_name(tr, self.src),
                    type_name: ty.clone(),
                });
            }
            let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
            self.containers.push(Container {
                name: ty.unwrap_or_default(),
                label: None,
                header: Some(signature(node, self.src, &body)),
            });
            return Some(Ctx {
                container: Some(self.containers.len() - 1),
                ..ctx
            });
        }
        if kind == "macro_invocation" && ctx.function.is_none() {
            let container = ctx.container.map(|c| self.containers[c].name.clone());
            self.out
                .macro_calls
                .push((node.start_byte(), node.end_byte(), container));
        }
        None
    }
}
