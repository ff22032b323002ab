//! The external packages a file uses: of its imports that name no project file, those that name a
//! package from outside the project, by package name only (deduplicated, sorted).
//!
//! - JavaScript/TypeScript: bare specifiers, as npm names them (`router`, `@scope/pkg` from
//!   `@scope/pkg/sub`). Node's built-in modules (`fs`, `node:fs`) are the runtime, not packages: they
//!   are left out, like anything else with a scheme (`virtual:…`), path aliases (`@/x`, `~/x`),
//!   package-internal imports (`#x`) and the project's own workspace packages.
//! - Python: the top-level module of an absolute import (`werkzeug` from `werkzeug.routing`) that is
//!   neither the standard library nor a module or package under one of the project's roots.
//! - Rust: the crate a path starts with (`serde` from `serde::Serialize`, `extern crate serde`) when
//!   it is a dependency of the file's package that is not a package of the project, named by its
//!   manifest key (`serde_json`, `tree-sitter`). `std`, `core` and `alloc` are the language.
//! - Java: the package of an import that names no project type (`org.junit` of `org.junit.Test`),
//!   the JDK's left out.

use std::collections::BTreeSet;

use super::Context;
use crate::source::lang::Language;
use crate::source::model::files::join;
use crate::source::model::stdlib::is_stdlib;

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

/// The external packages among `file`'s unresolved import specs.
pub(super) fn externals(
    file: &str,
    language: Language,
    unresolved: &[String],
    context: &Context<'_>,
) -> Vec<String> {
    let names: BTreeSet<String> = unresolved
        .iter()
        .filter_map(|spec| match language {
            Language::Rust => rust_crate(file, spec, context),
            Language::JavaScript | Language::TypeScript | Language::Tsx => {
                npm_package(file, spec, context)
            }
            Language::Python => python_package(file, spec, context),
            Language::Go => context
                .model
                .go
                .required_module(file, spec)
                .map(str::to_string),
            Language::Java => super::java::external_package(spec),
        })
        .collect();
    names.into_iter().collect()
}

/// `serde::de::Deserialize`, `extern:serde` → the manifest key of the crate, when external.
fn rust_crate(file: &str, spec: &str, context: &Context<'_>) -> Option<String> {
    let path = spec.strip_prefix("extern:").unwrap_or(spec);
    let path = path.strip_prefix("::").unwrap_or(path);
    if spec.starts_with("mod:") {
        return None;
    }
    let first = path.split("::").next()?.trim_start_matches("r#");
    let first = first.split([' ', '{']).next()?;
    let cargo = &context.model.cargo;
    cargo.external_crate(file, first).map(str::to_string)
}

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

#[cfg(test)]
mod tests {
    use super::super::testing::Files;

    #[test]
    fn npm_packages_by_name_without_node_builtins_aliases_or_workspace_packages() {
        let files = Files::new(&[
            ("package.json", r#"{"name":"app","workspaces":["packages/*"]}"#),
            ("packages/ui/package.json", r#"{"name":"@app/ui","main":"index.js"}"#),
            ("packages/ui/index.js", "module.exports = {};\n"),
            (
                "lib/app.js",
                "var fs = require('fs');\nvar p = require('node:path');\nvar R = require('router');\n\
                 var x = require('@scope/util/pick');\nvar y = require('@scope/util');\n\
                 var v = require('./view');\nvar ui = require('@app/ui');\n\
                 import a from '@/components/a';\nimport b from '~/b';\nimport c from 'virtual:c';\n\
                 import d from 'lodash/get?raw';\nimport e from '#internal';\n",
            ),
            ("lib/view.js", "module.exports = 1;\n"),
        ]);
        let resolved = files.resolve("lib/app.js");
        assert_eq!(resolved.externals, ["@scope/util", "lodash", "router"]);
    }

    #[test]
    fn python_top_level_modules_outside_the_project_and_the_standard_library() {
        let files = Files::new(&[
            ("pyproject.toml", "[project]\nname = \"shop\"\n"),
            ("shop/__init__.py", ""),
            ("shop/prices.py", ""),
            (
                "shop/cart.py",
                "import os.path\nimport json\nfrom werkzeug.routing import Map\nimport click\n\
                 from _typeshed import StrPath\n\
                 from shop import prices\nfrom . import prices as p\nimport shop.missing\n",
            ),
        ]);
        assert_eq!(
            files.resolve("shop/cart.py").externals,
            ["click", "werkzeug"]
        );
    }

    #[test]
    fn rust_crates_of_the_packages_dependencies_but_not_workspace_members() {
        let files = Files::new(&[
            ("Cargo.toml", "[workspace]\nmembers = [\"core\", \"app\"]\n[workspace.dependencies]\nserde = \"1\"\n"),
            (
                "core/Cargo.toml",
                "[package]\nname = \"shop-core\"\n[dependencies]\nserde = { workspace = true }\nserde_json = \"1\"\n[dev-dependencies]\ntree-sitter = \"0.25\"\n",
            ),
            (
                "core/src/lib.rs",
                "use serde::{Deserialize, Serialize};\nuse std::io;\nextern crate serde_json;\nuse tree_sitter::Parser;\nuse undeclared::X;\n",
            ),
            ("app/Cargo.toml", "[package]\nname = \"app\"\n[dependencies]\nshop-core = { path = \"../core\" }\n"),
            ("app/src/main.rs", "use shop_core::X;\nfn main() {}\n"),
        ]);
        assert_eq!(
            files.resolve("core/src/lib.rs").externals,
            ["serde", "serde_json", "tree-sitter"]
        );
        assert!(files.resolve("app/src/main.rs").externals.is_empty());
    }
}
