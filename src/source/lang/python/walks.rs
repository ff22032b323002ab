//! Python in the shared walks ([`Walks`]): its extraction, comment scanner, what raises an
//! error, its flow shapes, its import resolver and the external packages of its imports.

use tree_sitter::Node;

use crate::source::flow::{Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::walks::Walks;
use crate::source::model::files::join;
use crate::source::model::stdlib::is_stdlib;
use crate::source::raises::{first_named, thrown, RE_RAISES};
use crate::source::resolve::{Collected, Context};
use crate::source::syntax::Extracted;

/// Python's arms of the shared walks.
pub struct PythonWalks;

impl Walks for PythonWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::python(text, out);
    }

    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        match node.kind() {
            "raise_statement" => match first_named(node) {
                None => Some(RE_RAISES.to_string()),
                Some(raised) => Some(thrown(raised, src)),
            },
            _ => None,
        }
    }

    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.python(node)
    }

    fn resolve(
        &self,
        file: &str,
        interface: &Interface,
        context: &Context<'_>,
        out: &mut Collected,
    ) {
        super::resolve::resolve(file, interface, context, out);
    }

    fn external_package(&self, file: &str, spec: &str, context: &Context<'_>) -> Option<String> {
        python_package(file, spec, context)
    }
}

/// `werkzeug.routing` → `werkzeug`, when neither the standard library nor the project's.
fn python_package(file: &str, spec: &str, context: &Context<'_>) -> Option<String> {
    if spec.starts_with('.') {
        return None;
    }
    let top = spec.split('.').next().filter(|top| !top.is_empty())?;
    // `_typeshed` exists only in type checkers' stubs of the standard library.
    let stdlib = is_stdlib(top) || top == "_typeshed";
    if stdlib || !top.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let exists = |rel: &str| (context.exists)(rel);
    let roots = context.model.python.roots_for(file, &exists);
    let in_project = roots.iter().any(|root| {
        let base = join(root, top);
        [
            join(&base, "__init__.py"),
            format!("{base}.py"),
            format!("{base}.pyi"),
            join(&base, "__init__.pyi"),
        ]
        .iter()
        .any(|path| exists(path))
    });
    (!in_project).then(|| top.to_string())
}
