//! JavaScript, TypeScript and TSX in the definitions walk (`source::definitions`): the nodes that define a function,
//! class, constant or other member, with their signature, doc and value.

use tree_sitter::Node;

use crate::source::definitions::{
    assigned_name, declaration_of, declared_name, declared_signature, function_body, heritage,
    is_all_caps, is_function, is_required, is_top_statement, statement_of, value_text, Ctx, Found,
    Walker,
};
use crate::source::syntax::{leading_doc, signature, text_of};
use crate::source::SymbolKind;

impl<'s> Walker<'s> {
    /// The definition `node` makes in a JavaScript, TypeScript or TSX file, if any.
    pub(crate) fn javascript<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        match node.kind() {
            "function_declaration" | "generator_function_declaration" => {
                let name = self.name_of(node, "name")?;
                let mut found = self.js_function(node, node, &name, SymbolKind::Function);
                found.container = ctx.function.is_none().then_some(None);
                Some(found)
            }
            "class_declaration" | "abstract_class_declaration" | "class" => {
                let name = self
                    .name_of(node, "name")
                    .or_else(|| declared_name(node, src))?;
                let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
                let shown = statement_of(node);
                let mut found = self.found(node, &name, SymbolKind::Class);
                found.signature = signature(node, src, &body);
                found.doc = leading_doc(shown, src).or_else(|| leading_doc(node, src));
                found.bases = heritage(node, src);
                found.opens = Some(name);
                Some(found)
            }
            "interface_declaration" => {
                let name = self.name_of(node, "name")?;
                let body: Vec<Node<'_>> = node.child_by_field_name("body").into_iter().collect();
                let mut found = self.found(node, &name, SymbolKind::Interface);
                found.signature = signature(node, src, &body);
                found.doc = leading_doc(statement_of(node), src);
                found.bases = heritage(node, src);
                found.opens = Some(name);
                Some(found)
            }
            "type_alias_declaration" | "enum_declaration" => {
                let name = self.name_of(node, "name")?;
                let kind = match node.kind() {
                    "enum_declaration" => SymbolKind::Enum,
                    _ => SymbolKind::TypeAlias,
                };
                let mut found = self.found(node, &name, kind);
                found.signature = name.clone();
                found.value = Some(value_text(statement_of(node), src));
                found.doc = leading_doc(statement_of(node), src);
                Some(found)
            }
            "method_definition" | "method_signature" | "abstract_method_signature" => {
                let name = self.name_of(node, "name")?;
                let kind = match ctx.container {
                    Some(_) => SymbolKind::Method,
                    None => SymbolKind::Function,
                };
                let mut found = self.js_function(node, node, &name, kind);
                found.function = node.kind() == "method_definition";
                Some(found)
            }
            "pair" => {
                let value = node.child_by_field_name("value")?;
                is_function(value).then_some(())?;
                let key = node.child_by_field_name("key")?;
                let name = text_of(key, src).trim_matches(['"', '\'']).to_string();
                Some(self.js_function(node, value, &name, SymbolKind::Function))
            }
            "variable_declarator" => {
                let name_node = node.child_by_field_name("name")?;
                (name_node.kind() == "identifier").then_some(())?;
                let name = text_of(name_node, src).to_string();
                let value = node.child_by_field_name("value");
                match value {
                    Some(v) if is_function(v) => {
                        let mut found = self.js_function(node, v, &name, SymbolKind::Function);
                        found.doc = leading_doc(declaration_of(node), src);
                        found.signature = declared_signature(node, v, src);
                        Some(found)
                    }
                    // `const Foo = class …` is the class's definition (visited next); a module
                    // bound to a name is no definition of this file.
                    Some(v) if v.kind() == "class" || is_required(v, src) => None,
                    _ if ctx.top && is_top_statement(declaration_of(node)) => {
                        let keyword = declaration_of(node)
                            .child(0)
                            .map(|k| text_of(k, src))
                            .unwrap_or("");
                        let kind = match keyword == "const" || is_all_caps(&name) {
                            true => SymbolKind::Constant,
                            false => SymbolKind::Variable,
                        };
                        let mut found = self.found(node, &name, kind);
                        found.signature = name.clone();
                        found.value = Some(value_text(declaration_of(node), src));
                        found.doc = leading_doc(declaration_of(node), src);
                        Some(found)
                    }
                    _ => None,
                }
            }
            "public_field_definition" | "field_definition" => {
                let name_node = node
                    .child_by_field_name("name")
                    .or_else(|| node.child_by_field_name("property"))?;
                let name = text_of(name_node, src).to_string();
                let value = node.child_by_field_name("value");
                match value {
                    Some(v) if is_function(v) => {
                        Some(self.js_function(node, v, &name, SymbolKind::Method))
                    }
                    _ => {
                        let mut found = self.found(node, &name, SymbolKind::Variable);
                        found.signature = signature(node, src, &[]);
                        found.doc = leading_doc(node, src);
                        Some(found)
                    }
                }
            }
            "assignment_expression" => self.js_assignment(node, ctx),
            "call_expression" => self
                .js_test_block(node)
                .or_else(|| self.js_property(node, ctx)),
            _ => None,
        }
    }

    /// A test file's `describe('title', …)` or `it('title', …)`: a definition named by its title's
    /// slug (`should_respond_with_html`), its cases nested in its suites
    /// (`res.format_obj.should_respond_with_html`), its header the call without the callback's
    /// body.
    pub(crate) fn js_test_block<'t>(&self, node: Node<'t>) -> Option<Found<'t>> {
        let block = crate::source::suites::test_block(node, self.src)?;
        let name = crate::source::suites::title_slug(&block.title);
        (!name.is_empty()).then_some(())?;
        let body: Vec<Node<'_>> = block.callback.into_iter().flat_map(function_body).collect();
        let mut found = self.found(node, &name, SymbolKind::Function);
        found.signature = signature(node, self.src, &body);
        found.doc = leading_doc(statement_of(node), self.src);
        found.function = true;
        Some(found)
    }

    /// A top-level call defining a property with a function (`defineGetter(req, 'query',
    /// function query(){…})`, `Object.defineProperty(req, 'x', { get() {…} })`): the member
    /// `req.query`, its body the function's.
    fn js_property<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let statement = statement_of(node);
        if !(ctx.top && is_top_statement(statement)) {
            return None;
        }
        let (object, key, function) = super::commonjs::property_function(node, self.src)?;
        let object = crate::source::syntax::compact(text_of(object, self.src));
        let mut found = self.js_function(node, function, &key, SymbolKind::Function);
        found.doc = leading_doc(statement, self.src);
        found.signature = signature(node, self.src, &function_body(function));
        found.container = Some(Some(object));
        // Its lines and body are the function's (a descriptor's `get` sits inside an object).
        found.node = function;
        Some(found)
    }

    /// `obj.prop = function …`, `app[method] = function …`, `exports.x = value` (at the top).
    pub(crate) fn js_assignment<'t>(&self, node: Node<'t>, ctx: Ctx) -> Option<Found<'t>> {
        let src = self.src;
        let left = node.child_by_field_name("left")?;
        let mut value = node.child_by_field_name("right")?;
        // `res.set = res.header = function …`: the first property names it.
        while value.kind() == "assignment_expression" {
            value = value.child_by_field_name("right")?;
        }
        let (name, container) = assigned_name(left, src)?;
        if is_function(value) {
            let mut found = self.js_function(node, value, &name, SymbolKind::Function);
            found.doc = leading_doc(statement_of(node), src);
            found.signature = signature(node, src, &function_body(value));
            // In a function, `this.x = function` or a local object's property is nested in it.
            if ctx.function.is_none() {
                found.container = Some(container);
            }
            return Some(found);
        }
        if value.kind() == "class"
            || is_required(value, src)
            || !(ctx.top && is_top_statement(statement_of(node)))
        {
            return None;
        }
        let mut found = self.found(statement_of(node), &name, SymbolKind::Variable);
        found.container = Some(container);
        found.signature = name.clone();
        found.value = Some(value_text(statement_of(node), src));
        found.doc = leading_doc(statement_of(node), src);
        Some(found)
    }

    /// A JavaScript function's definition: `node` is where it is defined, `function` the function
    /// itself (its body left out of the signature).
    pub(crate) fn js_function<'t>(
        &self,
        node: Node<'t>,
        function: Node<'t>,
        name: &str,
        kind: SymbolKind,
    ) -> Found<'t> {
        let mut found = self.found(node, name, kind);
        found.signature = signature(node, self.src, &function_body(function));
        found.doc =
            leading_doc(node, self.src).or_else(|| leading_doc(statement_of(node), self.src));
        found.function = true;
        found
    }
}
