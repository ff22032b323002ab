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

/// The external packages among `file`'s unresolved import specs.
pub(super) fn externals(
    file: &str,
    language: Language,
    unresolved: &[String],
    context: &Context<'_>,
) -> Vec<String> {
    let names: BTreeSet<String> = unresolved
        .iter()
        .filter_map(|spec| language.walks().external_package(file, spec, context))
        .collect();
    names.into_iter().collect()
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
