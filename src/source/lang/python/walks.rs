//! Python in the shared walks ([`Walks`]): its extraction, comment scanner, what raises an
//! error, calls and members, typed receivers, definitions, flow shapes, program roles, its import
//! resolver and the external packages of its imports.

use tree_sitter::Node;

use crate::relpath::RelPath;
use crate::source::calls::typed::{declarator, push, push_made, Returns, TypedSyntax};
use crate::source::calls::{At, CallKinds, CallSyntax, Found, Target};
use crate::source::catches::{clauses, guards_body, type_names, Clause, Handler};
use crate::source::comments::CommentSyntax;
use crate::source::definitions::{Ctx, DefinitionSyntax, Found as Definition, Walker};
use crate::source::flow::{FlowSyntax, Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::walks::Walks;
use crate::source::model::files::join;
use crate::source::model::stdlib::is_stdlib;
use crate::source::raises::RaiseSyntax;
use crate::source::raises::{first_named, thrown, RE_RAISES};
use crate::source::resolve::{Collected, Context, ResolveSyntax};
use crate::source::syntax::{code_children, Extracted};

/// Python's walks, the registry's `python::PYTHON`.
pub const PYTHON: PythonWalks = PythonWalks;

/// Python's arms of the shared walks.
pub struct PythonWalks;

impl Walks for PythonWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    fn program_role(&self, source: &str, _: &str, summary: &str) -> Option<String> {
        let (dir, name) = RelPath::new(source).split_name();
        let dir_name = RelPath::new(dir).file_name();
        match name {
            "__main__.py" if !dir_name.is_empty() => Some(format!(
                "Runs the `{dir_name}` package as a program (`python -m {dir_name}`)."
            )),
            "conftest.py" => {
                let scope = if dir.is_empty() { "the project" } else { dir };
                Some(format!(
                    "Pytest fixtures and hooks for the tests in `{scope}`: {summary}"
                ))
            }
            _ => None,
        }
    }
}

impl CallSyntax for PythonWalks {
    /// `with x:` / `with x as y:` calls `x.__enter__()` and `x.__exit__(…)`; `async with`, the
    /// `__aenter__`/`__aexit__` pair.
    fn protocol_calls<'t>(&self, node: Node<'t>) -> Vec<(Node<'t>, &'static str)> {
        if node.kind() != "with_item" {
            return Vec::new();
        }
        let Some(mut value) = node.child_by_field_name("value") else {
            return Vec::new();
        };
        if value.kind() == "as_pattern" {
            match code_children(value).into_iter().next() {
                Some(inner) => value = inner,
                None => return Vec::new(),
            }
        }
        let statement = std::iter::successors(node.parent(), |n| n.parent())
            .find(|n| n.kind() == "with_statement");
        let is_async = statement.is_some_and(|s| s.child(0).is_some_and(|c| c.kind() == "async"));
        let methods = match is_async {
            true => ["__aenter__", "__aexit__"],
            false => ["__enter__", "__exit__"],
        };
        methods.into_iter().map(|method| (value, method)).collect()
    }

    fn call_kinds(&self) -> &'static CallKinds {
        &super::calls::CALL_KINDS
    }

    fn member<'s>(&self, node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
        super::calls::member(node, src, at)
    }

    fn class_bases(&self, node: Node<'_>, src: &str) -> Option<(String, Vec<String>)> {
        super::calls::class_bases(node, src)
    }

    fn call_target(
        &self,
        call: Node<'_>,
        src: &str,
        container: Option<(usize, usize)>,
    ) -> Option<Target> {
        crate::source::calls::target(&super::calls::CALL_KINDS, call, src, container, None)
    }
}

impl TypedSyntax for PythonWalks {
    fn call_receiver<'t>(&self, call: Node<'t>) -> Option<Node<'t>> {
        call.child_by_field_name("function")?
            .child_by_field_name("object")
    }

    fn declared(
        &self,
        node: Node<'_>,
        src: &str,
        returns: &Returns,
        out: &mut Vec<(String, String)>,
    ) {
        let field = |name: &str| node.child_by_field_name(name);
        match node.kind() {
            "assignment" => match field("type") {
                Some(ty) => push(out, field("left"), Some(ty), src),
                None => push_made(out, field("left"), field("right"), src, returns),
            },
            "variable_declarator" => declarator(node, src, returns, out),
            _ => {}
        }
    }

    fn reads_return_types(&self) -> bool {
        true
    }
}

impl RaiseSyntax for PythonWalks {
    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        match node.kind() {
            "raise_statement" => match first_named(node) {
                None => Some(RE_RAISES.to_string()),
                Some(raised) => Some(thrown(raised, src)),
            },
            _ => None,
        }
    }

    /// A `try` guards its body; an `except` catches the types it names, a bare one everything.
    fn handlers(&self, around: Node<'_>, inside: Node<'_>, src: &str) -> Option<Vec<Handler>> {
        if around.kind() != "try_statement" || !guards_body(around, inside) {
            return None;
        }
        Some(clauses(around, "except_clause", |clause| {
            let mut cursor = clause.walk();
            let types = clause
                .children_by_field_name("value", &mut cursor)
                .map(|value| match value.kind() {
                    // `except (A, B) as e`: the types, not the name bound.
                    "as_pattern" => code_children(value).into_iter().next().unwrap_or(value),
                    _ => value,
                })
                .flat_map(|value| type_names(value, src))
                .collect();
            let block = code_children(clause)
                .into_iter()
                .find(|child| child.kind() == "block");
            let clause = Clause {
                clause,
                block,
                // `except E as e`: the grammar's `alias`, or the `as_pattern` value's.
                bound: clause.child_by_field_name("alias").or_else(|| {
                    clause
                        .child_by_field_name("value")
                        .filter(|value| value.kind() == "as_pattern")
                        .and_then(|value| value.child_by_field_name("alias"))
                }),
            };
            let bare = clause.clause.child_by_field_name("value").is_none();
            Handler::read(self, clause, types, bare, src)
        }))
    }
}

impl FlowSyntax for PythonWalks {
    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.python(node)
    }
}

impl DefinitionSyntax for PythonWalks {
    fn definition<'t>(
        &self,
        walker: &Walker<'_>,
        node: Node<'t>,
        ctx: Ctx,
    ) -> Option<Definition<'t>> {
        walker.python(node, ctx)
    }

    fn opens_scope(&self, kind: &str) -> bool {
        // A Python block (an `if` at the module's top) is no scope; functions are.
        kind == "lambda"
    }
}

impl CommentSyntax for PythonWalks {
    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::python(text, out);
    }
}

impl ResolveSyntax for PythonWalks {
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
