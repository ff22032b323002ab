//! JavaScript, TypeScript and TSX in the shared walks ([`Walks`]): its extraction, comment scanner, what raises an
//! error, its flow shapes, its import resolver and the external packages of its imports.

use tree_sitter::Node;

use crate::source::comments::CLike;
use crate::source::flow::{Reader, Shape};
use crate::source::interface::Interface;
use crate::source::lang::walks::Walks;
use crate::source::raises::{first_named, thrown};
use crate::source::resolve::{Collected, Context};
use crate::source::syntax::Extracted;

/// JavaScript, TypeScript and TSX's arms of the shared walks.
pub struct JavaScriptWalks;

impl Walks for JavaScriptWalks {
    fn extract(&self, root: Node<'_>, text: &str) -> Extracted {
        super::extract::extract(root, text)
    }

    fn comment_text(&self, text: &str, out: &mut String) {
        crate::source::comments::c_like(text, COMMENTS, out);
    }

    fn raise_of(&self, node: Node<'_>, src: &str) -> Option<String> {
        match node.kind() {
            "throw_statement" => Some(thrown(first_named(node)?, src)),
            _ => None,
        }
    }

    fn flow_shape<'t>(&self, reader: &Reader<'_>, node: Node<'t>) -> Shape<'t> {
        reader.javascript(node)
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
