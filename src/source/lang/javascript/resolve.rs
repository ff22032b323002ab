//! JavaScript and TypeScript: relative specifiers (with the extensions and `index` files Node and
//! TypeScript try, a `.js` specifier naming its `.ts`/`.tsx`/`.d.ts` source), then — as TypeScript
//! does — the nearest tsconfig's `paths` and `baseUrl`, then package names: `#…` through the
//! package's `imports`, a workspace package (or the package itself) through its `exports`
//! (conditions tried in the map's own order; `import`, `default` and friends count) or its entry.
//! An export that points at a build output (`dist/index.js`) resolves to the source beside it when
//! there is one (the package's tsconfig `outDir` → `rootDir`, a `.ts` next to it, or `src/` for
//! `dist/`/`lib/`/`build/`). Anything else is outside the project.

use crate::source::interface::Interface;
use crate::source::model::files::{dir_of, join, normalize};
use crate::source::model::node::{NodePackage, Ordered};
use crate::source::resolve::{Collected, Context};

/// Extensions tried after a specifier without one, in TypeScript's order.
const EXTENSIONS: [&str; 10] = [
    ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mts", ".cts", ".mjs", ".cjs", ".json",
];

/// Conditions of `exports`/`imports` that resolution accepts (tried in the map's own order).
const CONDITIONS: [&str; 8] = [
    "source", "import", "module", "node", "default", "require", "types", "browser",
];

/// Build-output directories whose files usually have their source under `src/`.
const OUTPUT_DIRS: [&str; 7] = ["dist", "lib", "build", "out", "esm", "cjs", "es"];

pub(crate) fn resolve(
    file: &str,
    interface: &Interface,
    context: &Context<'_>,
    out: &mut Collected,
) {
    let resolver = Resolver { context };
    for import in &interface.imports {
        out.record_import(
            &import.spec,
            resolver.specifier(file, &import.spec),
            import.type_only,
        );
    }
}

struct Resolver<'c, 'a> {
    context: &'c Context<'a>,
}

impl Resolver<'_, '_> {
    fn exists(&self, rel: &str) -> bool {
        (self.context.exists)(rel)
    }

    /// What `spec`, written in `file`, names in the project.
    fn specifier(&self, file: &str, spec: &str) -> Option<String> {
        let spec = spec.split(['?']).next().unwrap_or(spec);
        if spec.starts_with('.') || spec.starts_with('/') {
            let spec = spec.split('#').next().unwrap_or(spec);
            return self.relative(dir_of(file), spec);
        }
        if let Some(found) = self.tsconfig(file, spec) {
            return Some(found);
        }
        if spec.starts_with('#') {
            let package = self.context.model.node.package_of(file)?;
            return self.mapped(package, package.imports.as_ref()?, spec);
        }
        self.package(file, spec)
    }

    /// A path relative to `dir` (`./x`, `../y/z.js`, `.`), as a file or a directory's `index`.
    fn relative(&self, dir: &str, spec: &str) -> Option<String> {
        let base = normalize(dir, spec.trim_start_matches('/'))?;
        self.file_or_directory(&base, spec.ends_with('/'))
    }

    /// `base` as a file (exact, with an extension, or the source of a `.js` name), else as a
    /// directory (its `package.json` entry or `index`).
    fn file_or_directory(&self, base: &str, directory_only: bool) -> Option<String> {
        if !base.is_empty() && !directory_only {
            if let Some(found) = self.file(base) {
                return Some(found);
            }
        }
        if let Some(package) = self
            .context
            .model
            .node
            .packages
            .iter()
            .find(|p| p.dir == base)
        {
            if let Some(found) = self.entry(package) {
                return Some(found);
            }
        }
        let index = join(base, "index");
        EXTENSIONS
            .iter()
            .map(|ext| format!("{index}{ext}"))
            .find(|candidate| self.exists(candidate))
    }

    /// `base` as a file: exactly, with each extension, or — for a `.js`/`.jsx`/`.mjs`/`.cjs` name —
    /// the TypeScript source or declaration beside it.
    fn file(&self, base: &str) -> Option<String> {
        if self.exists(base) {
            return Some(base.to_string());
        }
        if let Some(found) = EXTENSIONS
            .iter()
            .map(|ext| format!("{base}{ext}"))
            .find(|candidate| self.exists(candidate))
        {
            return Some(found);
        }
        let mapped: [(&str, &[&str]); 4] = [
            (".js", &[".ts", ".tsx", ".d.ts"]),
            (".jsx", &[".tsx"]),
            (".mjs", &[".mts", ".d.mts"]),
            (".cjs", &[".cts", ".d.cts"]),
        ];
        mapped.iter().find_map(|(from, tos)| {
            let stem = base.strip_suffix(from)?;
            tos.iter()
                .map(|to| format!("{stem}{to}"))
                .find(|candidate| self.exists(candidate))
        })
    }

    /// The nearest tsconfig's `paths` (then its `baseUrl`) for a bare specifier.
    fn tsconfig(&self, file: &str, spec: &str) -> Option<String> {
        let config = self.context.model.node.tsconfig_of(file)?;
        for (pattern, targets) in &config.paths {
            let Some(star) = match_pattern(pattern, spec) else {
                continue;
            };
            for target in targets {
                let target = target.replacen('*', star, 1);
                if let Some(found) = self.relative(&config.paths_base, &target) {
                    return Some(found);
                }
            }
        }
        let base_url = config.base_url.as_deref()?;
        self.relative(base_url, spec)
    }

    /// A package name (`pkg`, `pkg/sub`, `@scope/pkg/sub`) that is a workspace package or the
    /// importing file's own package.
    fn package(&self, file: &str, spec: &str) -> Option<String> {
        let (name, subpath) = split_package(spec)?;
        let package = self.context.model.node.package_named(file, name)?;
        let subpath = if subpath.is_empty() {
            ".".to_string()
        } else {
            format!("./{subpath}")
        };
        match &package.exports {
            Some(exports) => self.mapped(package, exports, &subpath),
            None if subpath == "." => self.entry(package),
            None => self.relative(&package.dir, &subpath),
        }
    }

    /// A package's entry without `exports`: `module`, `main`, `types`, else `index`.
    fn entry(&self, package: &NodePackage) -> Option<String> {
        if let Some(exports) = &package.exports {
            if let Some(found) = self.mapped(package, exports, ".") {
                return Some(found);
            }
        }
        package
            .entries
            .iter()
            .find_map(|entry| self.output_source(package, entry))
            .or_else(|| {
                let index = join(&package.dir, "index");
                EXTENSIONS
                    .iter()
                    .map(|ext| format!("{index}{ext}"))
                    .find(|candidate| self.exists(candidate))
            })
    }

    /// `key` (`.`, `./sub`, `#name`) through an `exports` or `imports` map of `package`.
    fn mapped(&self, package: &NodePackage, map: &Ordered, key: &str) -> Option<String> {
        let entries = match map {
            Ordered::Map(entries) if entries.0.iter().any(|(k, _)| k.starts_with(['.', '#'])) => {
                &entries.0
            }
            // `"exports": "./index.js"` or a map of conditions: the `.` entry.
            other if key == "." => return self.target(package, other, ""),
            _ => return None,
        };
        if let Some((_, value)) = entries.iter().find(|(k, _)| k == key) {
            return self.target(package, value, "");
        }
        // Patterns (`./features/*`, `#internal/*`): the longest prefix wins.
        let mut best: Option<(&str, &Ordered)> = None;
        for (pattern, value) in entries {
            if let Some(star) = match_pattern(pattern, key) {
                let longer = best.is_none_or(|(current, _)| pattern.len() > current.len());
                if longer {
                    best = Some((star, value));
                }
            }
        }
        let (star, value) = best?;
        self.target(package, value, star)
    }

    /// A target of an `exports`/`imports` entry: a path, a list (the first that resolves) or
    /// conditions (in their own order, those resolution accepts).
    fn target(&self, package: &NodePackage, value: &Ordered, star: &str) -> Option<String> {
        match value {
            Ordered::Str(path) if path.starts_with("./") => {
                self.output_source(package, &path.replace('*', star))
            }
            Ordered::Str(_) | Ordered::Other(_) => None,
            Ordered::List(items) => items
                .iter()
                .find_map(|item| self.target(package, item, star)),
            Ordered::Map(conditions) => conditions
                .0
                .iter()
                .filter(|(condition, _)| CONDITIONS.contains(&condition.as_str()))
                .find_map(|(_, item)| self.target(package, item, star)),
        }
    }

    /// The project file a package path (`./dist/index.js`) stands for: itself when it is in the
    /// project, else its source (the tsconfig's `outDir` → `rootDir`, a TypeScript file beside it,
    /// `src/` in place of a build-output directory).
    fn output_source(&self, package: &NodePackage, path: &str) -> Option<String> {
        let full = normalize(&package.dir, path)?;
        if let Some(found) = self.file(&full) {
            return Some(found);
        }
        let stem = strip_output_extension(&full);
        let mut candidates: Vec<String> = vec![stem.to_string()];
        if let Some(config) = self
            .context
            .model
            .node
            .tsconfig_of(&join(&package.dir, "x"))
        {
            if let (Some(out_dir), Some(root_dir)) = (&config.out_dir, &config.root_dir) {
                if let Some(rest) = stem.strip_prefix(out_dir.as_str()) {
                    candidates.push(format!("{root_dir}{rest}"));
                }
            }
        }
        let inside = stem
            .strip_prefix(&package.dir)
            .unwrap_or(stem)
            .trim_start_matches('/');
        if let Some((top, rest)) = inside.split_once('/') {
            if OUTPUT_DIRS.contains(&top) {
                candidates.push(join(&package.dir, &format!("src/{rest}")));
            }
        }
        candidates.iter().find_map(|candidate| {
            ["ts", "tsx", "mts", "cts", "js", "jsx", "mjs", "cjs"]
                .iter()
                .map(|ext| format!("{candidate}.{ext}"))
                .find(|file| self.exists(file))
        })
    }
}

/// `path` without a JavaScript or declaration extension.
fn strip_output_extension(path: &str) -> &str {
    for ext in [".d.ts", ".d.mts", ".d.cts", ".js", ".mjs", ".cjs", ".jsx"] {
        if let Some(stem) = path.strip_suffix(ext) {
            return stem;
        }
    }
    path
}

/// What `*` stands for when `pattern` (with at most one `*`) matches `text`.
fn match_pattern<'t>(pattern: &str, text: &'t str) -> Option<&'t str> {
    match pattern.split_once('*') {
        None => (pattern == text).then_some(""),
        Some((prefix, suffix)) => {
            let inner = text.strip_prefix(prefix)?.strip_suffix(suffix)?;
            Some(inner)
        }
    }
}

/// `@scope/name/sub/path` → (`@scope/name`, `sub/path`); `name/sub` → (`name`, `sub`).
fn split_package(spec: &str) -> Option<(&str, &str)> {
    if spec.is_empty() || spec.starts_with(['.', '/', '#']) || spec.contains(':') {
        return None;
    }
    let segments = if spec.starts_with('@') { 2 } else { 1 };
    let mut cut = spec.len();
    let mut seen = 0;
    for (index, c) in spec.char_indices() {
        if c == '/' {
            seen += 1;
            if seen == segments {
                cut = index;
                break;
            }
        }
    }
    let name = &spec[..cut];
    let subpath = spec.get(cut + 1..).unwrap_or("");
    Some((name, subpath))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::resolve::testing::Files;

    #[test]
    fn relative_specifiers_with_extensions_indexes_and_typescript_sources() {
        let files = Files::new(&[
            ("src/app/util.ts", ""),
            ("src/lib/index.ts", ""),
            ("src/app/components/index.tsx", ""),
            ("src/app/data.json", ""),
            ("src/app/styles.css", ""),
            ("src/app/types.d.ts", ""),
            ("src/app/legacy.js", ""),
            ("src/app/esm.mts", ""),
            ("src/app/hot.d.ts", ""),
            ("x.js", ""),
            ("src/app/main.ts", "import a from './util';\nimport b from '../lib/index.js';\nimport c from './components';\nimport d from './data.json';\nimport './styles.css';\nimport type { T } from './types';\nconst l = require('./legacy');\nimport e from './esm.mjs';\nimport r from 'react';\nimport x from '../../x';\nimport y from '../../../escape';\nimport z from './missing';\nimport type { H } from './hot.js';\nimport w from './util?worker';\n"),
        ]);
        assert_eq!(
            files.deps("src/app/main.ts"),
            [
                "src/app/components/index.tsx",
                "src/app/data.json",
                "src/app/esm.mts",
                "src/app/hot.d.ts",
                "src/app/legacy.js",
                "src/app/styles.css",
                "src/app/types.d.ts",
                "src/app/util.ts",
                "src/lib/index.ts",
                "x.js",
            ]
        );
    }

    #[test]
    fn workspaces_exports_imports_paths_and_jsdoc() {
        let files = Files::new(&[
            ("package.json", r#"{"name": "root", "private": true, "workspaces": ["packages/*"]}"#),
            ("packages/core/package.json", r##"{"name": "@x/core", "exports": {".": {"types": "./dist/index.d.ts", "import": "./dist/index.js"}, "./internal/*": "./src/internal/*.ts"}, "imports": {"#client": "./src/client.ts", "#types/*": "./types/*.d.ts"}}"##),
            ("packages/core/tsconfig.json", r#"{"compilerOptions": {"outDir": "dist", "rootDir": "src"}}"#),
            ("packages/core/src/index.ts", "import c from '#client';\nimport type { Hot } from '#types/hot';\nimport self from '@x/core/internal/flags';\n"),
            ("packages/core/src/client.ts", ""),
            ("packages/core/src/internal/flags.ts", ""),
            ("packages/core/types/hot.d.ts", ""),
            ("packages/app/package.json", r#"{"name": "app", "main": "lib/main.js"}"#),
            ("packages/app/tsconfig.json", r#"{"compilerOptions": {"baseUrl": ".", "paths": {"~utils": ["../../test-utils.ts"], "@/*": ["src/*"]}}}"#),
            ("packages/app/src/main.ts", "import core from '@x/core';\nimport { f } from '~utils';\nimport w from '@/widgets/w';\nimport lodash from 'lodash';\n/** @typedef {import('./types').T} T */\n"),
            ("packages/app/src/widgets/w.ts", ""),
            ("packages/app/src/types.ts", ""),
            ("test-utils.ts", ""),
            ("scripts/run.js", "const app = require('../packages/app');\n"),
        ]);
        assert_eq!(
            files.deps("packages/core/src/index.ts"),
            [
                "packages/core/src/client.ts",
                "packages/core/src/internal/flags.ts",
                "packages/core/types/hot.d.ts",
            ]
        );
        let main = files.resolve("packages/app/src/main.ts");
        assert_eq!(
            main.deps,
            [
                "packages/app/src/types.ts",
                "packages/app/src/widgets/w.ts",
                "packages/core/src/index.ts",
                "test-utils.ts",
            ]
        );
        assert_eq!(main.unresolved, ["lodash"]);
        assert_eq!(files.deps("scripts/run.js"), ["packages/app/src/main.ts"]);
    }

    #[test]
    fn package_names_split_into_name_and_subpath() {
        assert_eq!(split_package("react"), Some(("react", "")));
        assert_eq!(
            split_package("react-dom/client"),
            Some(("react-dom", "client"))
        );
        assert_eq!(split_package("@x/core/a/b"), Some(("@x/core", "a/b")));
        assert_eq!(split_package("node:fs"), None);
        assert_eq!(match_pattern("./a/*", "./a/b/c"), Some("b/c"));
        assert_eq!(match_pattern("#x", "#x"), Some(""));
    }
}
