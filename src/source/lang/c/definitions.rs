//! C and C++ in the definitions walk (`source::definitions`): functions (a method defined
//! outside its class under its class, `Foo::bar`), structs, unions, classes and enums with a body,
//! typedefs and aliases, macros and the variables declared outside functions.

use tree_sitter::Node;

use crate::source::definitions::{value_text, Ctx, Found, Walker};
use crate::source::syntax::text_of;
use crate::source::SymbolKind;

use super::extract::{declared, doc_of, signature_of, simple_name, test_case};

impl<'s> Walker<'s> {
    /// The definition `node` makes in a C or C++ file, if any.
    pub(crate) fn c<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        match node.kind() {
            "function_definition" => {
                let mut found = match test_case(node, src) {
                    Some(name) => self.found(node, &name, SymbolKind::Function),
                    None => {
                        let (name, _) = declared(node.child_by_field_name("declarator")?)?;
                        let simple = simple_name(name, src);
                        let qualified = name.kind() == "qualified_identifier";
                        let kind = match qualified || ctx.container.is_some() {
                            true => SymbolKind::Method,
                            false => SymbolKind::Function,
                        };
                        let mut found = self.found(node, &simple, kind);
                        if qualified {
                            let scope = name.child_by_field_name("scope")?;
                            let owner = text_of(scope, src).rsplit("::").next().unwrap_or("");
                            let owner = owner.split('<').next().unwrap_or(owner).trim();
                            found.container = Some(Some(owner.to_string()));
                        }
                        found
                    }
                };
                let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
                found.signature = signature_of(node, src, &body);
                found.doc = doc_of(node, src);
                found.function = true;
                Some(found)
            }
            "class_specifier" | "struct_specifier" | "union_specifier" | "enum_specifier" => {
                node.child_by_field_name("body")?;
                let name = self.name_of(node, "name")?;
                let kind = match node.kind() {
                    "class_specifier" => SymbolKind::Class,
                    "enum_specifier" => SymbolKind::Enum,
                    _ => SymbolKind::Struct,
                };
                let mut found = self.found(node, &name, kind);
                let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
                found.signature = signature_of(node, src, &body);
                let statement = node
                    .parent()
                    .filter(|p| matches!(p.kind(), "declaration" | "type_definition"));
                found.doc = doc_of(node, src).or_else(|| statement.and_then(|s| doc_of(s, src)));
                found.bases = super::calls::bases(node, src);
                found.opens = Some(name);
                Some(found)
            }
            "preproc_def" | "preproc_function_def" if ctx.function.is_none() => {
                let name = self.name_of(node, "name")?;
                let mut found = self.found(node, &name, SymbolKind::Macro);
                found.signature = format!("#define {name}");
                found.doc = doc_of(node, src);
                found.value = node
                    .child_by_field_name("value")
                    .map(|v| text_of(v, src).trim().to_string());
                Some(found)
            }
            "type_definition" | "alias_declaration" if ctx.function.is_none() => {
                let name = match node.kind() {
                    "alias_declaration" => self.name_of(node, "name")?,
                    _ => {
                        let declarator = node.child_by_field_name("declarator")?;
                        simple_name(declared(declarator)?.0, src)
                    }
                };
                let mut found = self.found(node, &name, SymbolKind::TypeAlias);
                let body: Vec<Node<'_>> = node
                    .child_by_field_name("type")
                    .and_then(|t| t.child_by_field_name("body"))
                    .into_iter()
                    .collect();
                found.signature = signature_of(node, src, &body);
                found.doc = doc_of(node, src);
                Some(found)
            }
            "declaration" if ctx.function.is_none() && ctx.container.is_none() => {
                let declarator = node.child_by_field_name("declarator")?;
                let (name, function) = declared(declarator)?;
                if function {
                    return None;
                }
                let name = simple_name(name, src);
                let mut found = self.found(node, &name, SymbolKind::Variable);
                found.signature = signature_of(node, src, &[]);
                found.doc = doc_of(node, src);
                found.value = Some(value_text(declarator, src));
                Some(found)
            }
            _ => None,
        }
    }
}
