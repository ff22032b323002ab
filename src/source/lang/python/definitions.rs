//! Python in the definitions walk (`source::definitions`): the nodes that define a function,
//! class, constant or other member, with their signature, doc and value.

use tree_sitter::Node;

use crate::source::definitions::{comments_above, is_all_caps, value_text, Ctx, Found, Walker};
use crate::source::syntax::{code_children, compact, signature, text_of};
use crate::source::SymbolKind;

impl<'s> Walker<'s> {
    /// The definition `node` makes in a Python file, if any.
    pub(crate) fn python<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let in_class = ctx.container.is_some() && ctx.function.is_none();
        match node.kind() {
            "class_definition" => {
                let name = self.name_of(node, "name")?;
                let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
                let mut found = self.found(node, &name, SymbolKind::Class);
                found.signature = signature(node, src, &body);
                found.doc = body
                    .first()
                    .and_then(|b| super::extract::docstring(*b, src));
                found.bases = node
                    .child_by_field_name("superclasses")
                    .map(|list| {
                        code_children(list)
                            .into_iter()
                            .filter(|b| b.kind() != "keyword_argument")
                            .map(|b| compact(text_of(b, src)))
                            .collect()
                    })
                    .unwrap_or_default();
                found.opens = Some(name);
                Some(found)
            }
            "function_definition" => {
                let name = self.name_of(node, "name")?;
                let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
                let kind = match in_class {
                    true => SymbolKind::Method,
                    false => SymbolKind::Function,
                };
                let mut found = self.found(node, &name, kind);
                found.signature = signature(node, src, &body);
                found.doc = body
                    .first()
                    .and_then(|b| super::extract::docstring(*b, src));
                found.function = true;
                Some(found)
            }
            "expression_statement" if ctx.function.is_none() && (ctx.top || in_class) => {
                let assign = code_children(node)
                    .into_iter()
                    .find(|c| c.kind() == "assignment")?;
                let left = assign.child_by_field_name("left")?;
                (left.kind() == "identifier").then_some(())?;
                let name = text_of(left, src).to_string();
                let right = assign.child_by_field_name("right");
                let kind = match right {
                    _ if is_all_caps(&name) => SymbolKind::Constant,
                    Some(r) if super::extract::is_type_value(r, src) => SymbolKind::TypeAlias,
                    _ => SymbolKind::Variable,
                };
                let mut found = self.found(node, &name, kind);
                found.signature = name.clone();
                found.value = Some(value_text(node, src));
                found.doc = comments_above(node, src);
                Some(found)
            }
            // `self.x: T = v` in a class's `__init__`: the attribute `Class.x`, its value and
            // its `#:` doc (flask's `Scaffold.before_request_funcs = defaultdict(list)`).
            "expression_statement" if ctx.function.is_some() => {
                let init = &self.out.definitions[ctx.function?];
                let class = init.label.strip_suffix(".__init__")?.to_string();
                let assign = code_children(node)
                    .into_iter()
                    .find(|c| c.kind() == "assignment")?;
                let left = assign.child_by_field_name("left")?;
                (left.kind() == "attribute").then_some(())?;
                let object = left.child_by_field_name("object")?;
                (text_of(object, src) == "self").then_some(())?;
                let name = text_of(left.child_by_field_name("attribute")?, src).to_string();
                let mut found = self.found(node, &name, SymbolKind::Variable);
                found.signature = compact(text_of(node, src).split('=').next().unwrap_or(""));
                found.value = Some(value_text(node, src));
                found.doc = comments_above(node, src);
                found.container = Some(Some(class));
                Some(found)
            }
            "type_alias_statement" if ctx.function.is_none() => {
                let left = node.child_by_field_name("left")?;
                let name = compact(text_of(left, src));
                let name = name.split('[').next().unwrap_or(&name).to_string();
                let mut found = self.found(node, &name, SymbolKind::TypeAlias);
                found.signature = name.clone();
                found.value = Some(value_text(node, src));
                found.doc = comments_above(node, src);
                Some(found)
            }
            _ => None,
        }
    }
}
