//! JavaScript, TypeScript and TSX in the shared walks ([`Walks`]): its extraction, comment scanner, what raises an
//! error, calls and members, typed receivers, definitions, flow shapes, program roles, its import
//! resolver and the external packages of its imports.

use tree_sitter::Node;

use crate::relpath::RelPath;
use crate::source::calls::typed::{declarator, Returns, TypedSyntax};
use crate::source::calls::{At, CallKinds, CallSyntax, Found, Target};
use crate::source::catches::{guards_body, Clause, Handler};
use crate::source::comments::CLike;
use crate::source::comments::CommentSyntax;
use crate::source::definitions::{Ctx, DefinitionSyntax, Found as Definition, Walker};
use crate::source::flow::{FlowSyntax, Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::walks::Walks;
use crate::source::raises::RaiseSyntax;
use crate::source::raises::{first_named, thrown};
use crate::source::resolve::{Collected, Context, ResolveSyntax};
use crate::source::syntax::Extracted;

/// JavaScript's walks (JSX included), the registry's `javascript::JAVASCRIPT`.
pub const JAVASCRIPT: JavaScriptWalks = JavaScriptWalks {
    typed: false,
    scripts: true,
};
/// TypeScript's walks, the registry's `javascript::TYPESCRIPT`.
pub const TYPESCRIPT: JavaScriptWalks = JavaScriptWalks {
    typed: true,
    scripts: true,
};
/// TSX's walks (a `.tsx` file is never a command-line script), the registry's `javascript::TSX`.
pub const TSX: JavaScriptWalks = JavaScriptWalks {
    typed: true,
    scripts: false,
};

/// JavaScript, TypeScript and TSX's arms of the shared walks.
pub struct JavaScriptWalks {
    /// TypeScript and TSX: written return types type the receivers their functions make.
    pub typed: bool,
    /// JavaScript and TypeScript: a file with a `#!` line or in a `bin/` directory is a
    /// command-line script (a `.tsx` file is not).
    pub scripts: bool,
}

impl Walks for JavaScriptWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    fn has_suite_calls(&self) -> bool {
        true
    }

    fn program_role(&self, source: &str, text: &str, summary: &str) -> Option<String> {
        let (dir, name) = RelPath::new(source).split_name();
        let dir_name = RelPath::new(dir).file_name();
        (self.scripts && (text.starts_with("#!") || dir_name == "bin"))
            .then(|| format!("Command-line script `{name}`: {summary}"))
    }
}

impl CallSyntax for JavaScriptWalks {
    fn call_kinds(&self) -> &'static CallKinds {
        &super::calls::CALL_KINDS
    }

    fn member<'s>(&self, node: Node<'_>, src: &'s str, at: At) -> Option<Found<'s>> {
        super::calls::javascript_member(node, src, at)
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

impl TypedSyntax for JavaScriptWalks {
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
        if node.kind() == "variable_declarator" {
            declarator(node, src, returns, out);
        }
    }

    fn reads_return_types(&self) -> bool {
        self.typed
    }
}

impl RaiseSyntax for JavaScriptWalks {
    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        match node.kind() {
            "throw_statement" => Some(thrown(first_named(node)?, src)),
            _ => None,
        }
    }

    /// A `try` guards its body; its `catch` catches everything.
    fn handlers(&self, around: Node<'_>, inside: Node<'_>, src: &str) -> Option<Vec<Handler>> {
        if around.kind() != "try_statement" || !guards_body(around, inside) {
            return None;
        }
        let catch = around.child_by_field_name("handler")?;
        let clause = Clause {
            clause: catch,
            block: catch.child_by_field_name("body"),
            bound: catch.child_by_field_name("parameter"),
        };
        Some(vec![Handler::read(self, clause, Vec::new(), true, src)])
    }
}

impl FlowSyntax for JavaScriptWalks {
    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.javascript(node)
    }
}

impl DefinitionSyntax for JavaScriptWalks {
    fn definition<'t>(
        &self,
        walker: &Walker<'_>,
        node: Node<'t>,
        ctx: Ctx,
    ) -> Option<Definition<'t>> {
        walker.javascript(node, ctx)
    }

    fn opens_scope(&self, kind: &str) -> bool {
        matches!(
            kind,
            "function_expression"
                | "function"
                | "arrow_function"
                | "generator_function"
                | "closure_expression"
                | "statement_block"
                | "block"
        )
    }
}

impl CommentSyntax for JavaScriptWalks {
    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::c_like(text, COMMENTS, out);
    }
}

impl ResolveSyntax for JavaScriptWalks {
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
        npm_package(file, spec, context)
    }
}

const COMMENTS: CLike = CLike {
    nested_blocks: false,
    raw_strings: false,
    char_literals: false,
    backtick_strings: true,
};

/// Node's built-in modules (`require('fs')` is the runtime, not a package).
const NODE_BUILTINS: &[&str] = &[
    "assert",
    "async_hooks",
    "buffer",
    "child_process",
    "cluster",
    "console",
    "constants",
    "crypto",
    "dgram",
    "diagnostics_channel",
    "dns",
    "domain",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "inspector",
    "module",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "punycode",
    "querystring",
    "readline",
    "repl",
    "stream",
    "string_decoder",
    "sys",
    "timers",
    "tls",
    "trace_events",
    "tty",
    "url",
    "util",
    "v8",
    "vm",
    "wasi",
    "worker_threads",
    "zlib",
];

/// `router`, `@scope/pkg/sub`, `pkg/sub?raw` → the npm package, when external.
fn npm_package(file: &str, spec: &str, context: &Context<'_>) -> Option<String> {
    let spec = spec.split(['?', '#']).next().unwrap_or(spec);
    if spec.contains(':') || spec.starts_with(['.', '/', '~']) || spec.is_empty() {
        return None;
    }
    let mut parts = spec.split('/');
    let first = parts.next()?;
    let name = match first.strip_prefix('@') {
        Some(scope) => {
            let package = parts.next().filter(|p| !p.is_empty())?;
            if scope.is_empty() || !is_npm_name(scope) || !is_npm_name(package) {
                return None;
            }
            format!("@{scope}/{package}")
        }
        None => {
            if !is_npm_name(first) || NODE_BUILTINS.contains(&first) {
                return None;
            }
            first.to_string()
        }
    };
    let own = context.model.node.package_named(file, &name).is_some()
        || context
            .model
            .node
            .packages
            .iter()
            .any(|p| p.name.as_deref() == Some(&name));
    (!own).then_some(name)
}

/// What npm accepts in a package name (or scope): lowercase URL-safe characters, not starting with
/// `.` or `_`.
fn is_npm_name(name: &str) -> bool {
    !name.is_empty()
        && !name.starts_with(['.', '_'])
        && name.chars().all(|c| {
            c.is_ascii_lowercase() || c.is_ascii_digit() || matches!(c, '-' | '.' | '_' | '~')
        })
}
