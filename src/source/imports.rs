//! Resolution of a file's import specs to project files (Rust module paths, relative JS/TS
//! specifiers, Python dotted modules). Pure path arithmetic over '/'-separated project-relative
//! paths plus an `exists` oracle; external crates and packages are skipped.

use std::collections::BTreeSet;

use super::interface::Interface;
use super::language::Language;

/// Resolve a file's imports to project files. `file` is the source path relative to the project
/// root with '/' separators; `exists(rel)` says whether a project-relative path is a file.
/// Returns sorted, deduplicated paths, never `file` itself; unresolvable imports are skipped.
pub fn resolve_imports(
    file: &str,
    interface: &Interface,
    exists: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let file = file.trim_start_matches("./");
    let mut out = BTreeSet::new();
    match interface.language {
        Language::Rust => {
            let local_mods: Vec<&str> = interface
                .imports
                .iter()
                .filter_map(|i| i.spec.strip_prefix("mod:"))
                .filter(|m| !m.contains("::"))
                .collect();
            let ctx = RustFile::new(file, exists);
            for import in &interface.imports {
                if let Some(path) = ctx.resolve(&import.spec, &local_mods) {
                    out.insert(path);
                }
            }
        }
        Language::JavaScript | Language::TypeScript | Language::Tsx => {
            for import in &interface.imports {
                if let Some(path) = resolve_js(file, &import.spec, exists) {
                    out.insert(path);
                }
            }
        }
        Language::Python => {
            for import in &interface.imports {
                if let Some(path) = resolve_python(file, &import.spec, exists) {
                    out.insert(path);
                }
            }
        }
    }
    out.remove(file);
    out.into_iter().collect()
}

/// Directory part of a path ("" for a top-level file).
fn dir_of(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// Last path component.
fn file_name(path: &str) -> &str {
    path.rfind('/').map_or(path, |i| &path[i + 1..])
}

/// Parent directory, `None` above the project root.
fn parent_dir(dir: &str) -> Option<&str> {
    if dir.is_empty() {
        None
    } else {
        Some(dir_of(dir))
    }
}

fn join(dir: &str, rest: &str) -> String {
    if dir.is_empty() {
        rest.to_string()
    } else if rest.is_empty() {
        dir.to_string()
    } else {
        format!("{dir}/{rest}")
    }
}

/// Join `rel` onto `dir`, resolving `.` and `..`; `None` if it escapes the project root.
fn normalize(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|p| !p.is_empty()).collect();
    for segment in rel.split('/') {
        match segment {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            s => parts.push(s),
        }
    }
    Some(parts.join("/"))
}

struct RustFile<'a> {
    file: &'a str,
    exists: &'a dyn Fn(&str) -> bool,
    /// Directory holding this file's child modules.
    module_dir: String,
    /// `X/src` of the enclosing crate, if found.
    crate_root: Option<String>,
}

impl<'a> RustFile<'a> {
    fn new(file: &'a str, exists: &'a dyn Fn(&str) -> bool) -> RustFile<'a> {
        let dir = dir_of(file);
        let name = file_name(file);
        let parent_name = file_name(dir);
        let grandparent = dir_of(dir);
        let own_dir = matches!(name, "lib.rs" | "main.rs" | "mod.rs")
            || (parent_name == "bin" && file_name(grandparent) == "src")
            || (matches!(parent_name, "tests" | "benches" | "examples")
                && exists(&join(grandparent, "Cargo.toml")))
            || (name == "build.rs" && exists(&join(dir, "Cargo.toml")));
        let module_dir = if own_dir {
            dir.to_string()
        } else {
            join(dir, name.strip_suffix(".rs").unwrap_or(name))
        };
        let mut crate_root = None;
        let mut current = Some(dir);
        while let Some(d) = current {
            if file_name(d) == "src" && (exists(&join(d, "lib.rs")) || exists(&join(d, "main.rs")))
            {
                crate_root = Some(d.to_string());
                break;
            }
            current = parent_dir(d);
        }
        RustFile {
            file,
            exists,
            module_dir,
            crate_root,
        }
    }

    fn first_existing(&self, candidates: &[String]) -> Option<String> {
        candidates.iter().find(|c| (self.exists)(c)).cloned()
    }

    /// The file defining the module whose children live in `dir`.
    fn module_file(&self, dir: &str) -> Option<String> {
        let mut candidates = Vec::new();
        if self.crate_root.as_deref() == Some(dir) {
            candidates.push(join(dir, "lib.rs"));
            candidates.push(join(dir, "main.rs"));
        }
        candidates.push(join(dir, "mod.rs"));
        if !dir.is_empty() {
            candidates.push(format!("{dir}.rs"));
        }
        self.first_existing(&candidates)
    }

    /// Longest `segments` prefix that names a module file under `base`, else `base`'s own file.
    fn under(&self, base: &str, segments: &[&str]) -> Option<String> {
        for n in (1..=segments.len()).rev() {
            let path = join(base, &segments[..n].join("/"));
            let found = self.first_existing(&[format!("{path}.rs"), join(&path, "mod.rs")]);
            if found.is_some() {
                return found;
            }
        }
        self.module_file(base)
    }

    fn resolve(&self, spec: &str, local_mods: &[&str]) -> Option<String> {
        if let Some(module) = spec.strip_prefix("mod:") {
            let path = join(
                &self.module_dir,
                &module.split("::").collect::<Vec<_>>().join("/"),
            );
            return self.first_existing(&[format!("{path}.rs"), join(&path, "mod.rs")]);
        }
        let segments: Vec<&str> = spec
            .split("::")
            .filter(|s| !s.is_empty() && *s != "*")
            .collect();
        let (&first, rest) = segments.split_first()?;
        match first {
            "crate" => {
                let root = self.crate_root.clone()?;
                self.under(&root, rest)
            }
            "self" => self.under(&self.module_dir, rest),
            "super" => {
                let mut dir = parent_dir(&self.module_dir)?;
                let mut rest = rest;
                while let Some((&"super", tail)) = rest.split_first() {
                    dir = parent_dir(dir)?;
                    rest = tail;
                }
                self.under(dir, rest)
            }
            m if local_mods.contains(&m) => self.under(&self.module_dir, &segments),
            _ => None,
        }
        .filter(|p| p != self.file)
    }
}

const JS_EXTENSIONS: [&str; 9] = [
    ".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".d.ts",
];

/// `./x` / `../x` specs: exact file, then with each extension, then a `.js`-style spec mapped
/// to its TypeScript source, then `<path>/index` with each extension.
fn resolve_js(file: &str, spec: &str, exists: &dyn Fn(&str) -> bool) -> Option<String> {
    if !spec.starts_with('.') {
        return None;
    }
    let spec = spec.split(['?', '#']).next().unwrap_or(spec);
    let base = normalize(dir_of(file), spec)?;
    let mut candidates = Vec::new();
    if !base.is_empty() && !spec.ends_with('/') {
        candidates.push(base.clone());
        candidates.extend(JS_EXTENSIONS.iter().map(|ext| format!("{base}{ext}")));
        let mapped: &[(&str, &[&str])] = &[
            (".js", &[".ts", ".tsx"]),
            (".jsx", &[".tsx"]),
            (".mjs", &[".mts"]),
            (".cjs", &[".cts"]),
        ];
        for (from, tos) in mapped {
            if let Some(stem) = base.strip_suffix(from) {
                candidates.extend(tos.iter().map(|to| format!("{stem}{to}")));
            }
        }
    }
    let index = join(&base, "index");
    candidates.extend(JS_EXTENSIONS.iter().map(|ext| format!("{index}{ext}")));
    candidates.into_iter().find(|c| exists(c))
}

/// Python module specs: relative ones from the file's package, absolute ones from the project
/// root, `src/`, then every ancestor directory of the file (shallowest first).
fn resolve_python(file: &str, spec: &str, exists: &dyn Fn(&str) -> bool) -> Option<String> {
    let try_module = |base: &str, dotted: &str| -> Option<String> {
        let path = join(base, &dotted.replace('.', "/"));
        if dotted.is_empty() {
            let init = join(&path, "__init__.py");
            return exists(&init).then_some(init);
        }
        [
            format!("{path}.py"),
            format!("{path}.pyi"),
            join(&path, "__init__.py"),
        ]
        .into_iter()
        .find(|c| exists(c))
    };
    let dots = spec.chars().take_while(|c| *c == '.').count();
    if dots > 0 {
        let mut base = dir_of(file);
        for _ in 1..dots {
            base = parent_dir(base)?;
        }
        return try_module(base, &spec[dots..]);
    }
    if spec.is_empty() {
        return None;
    }
    let mut bases: Vec<&str> = vec![""];
    if file.starts_with("src/") {
        bases.push("src");
    }
    let mut ancestors = Vec::new();
    let mut current = Some(dir_of(file));
    while let Some(d) = current.filter(|d| !d.is_empty()) {
        ancestors.push(d);
        current = parent_dir(d);
    }
    ancestors.reverse();
    for a in ancestors {
        if !bases.contains(&a) {
            bases.push(a);
        }
    }
    bases.into_iter().find_map(|b| try_module(b, spec))
}

#[cfg(test)]
mod tests {
    use super::super::testing::parse;
    use super::*;
    use std::collections::HashSet;

    fn project(files: &[&str]) -> HashSet<String> {
        files.iter().map(|f| f.to_string()).collect()
    }

    fn resolve(language: Language, file: &str, text: &str, files: &HashSet<String>) -> Vec<String> {
        let iface = parse(language, text);
        resolve_imports(file, &iface, &|p: &str| files.contains(p))
    }

    const RUST_PROJECT: &[&str] = &[
        "Cargo.toml",
        "src/lib.rs",
        "src/hash.rs",
        "src/cli/mod.rs",
        "src/cli/args.rs",
        "src/project/mod.rs",
        "src/project/config.rs",
        "src/project/config/defaults.rs",
        "src/bin/tool.rs",
        "tests/it.rs",
        "tests/common/mod.rs",
        "crates/core/src/lib.rs",
        "crates/core/src/util.rs",
    ];

    #[test]
    fn rust_paths_from_a_mod_rs_file() {
        let files = project(RUST_PROJECT);
        let text = "mod args;\nmod missing;\nuse crate::hash::sha256_hex;\nuse crate::project::config::{Config, defaults::X};\nuse super::hash;\nuse std::fmt;\nuse serde::Serialize;\nuse crate::Error;\nuse self::args::Args;\nuse args::Parsed;\n";
        assert_eq!(
            resolve(Language::Rust, "src/cli/mod.rs", text, &files),
            vec![
                "src/cli/args.rs",
                "src/hash.rs",
                "src/lib.rs",
                "src/project/config.rs",
                "src/project/config/defaults.rs",
            ]
        );
    }

    #[test]
    fn rust_paths_from_a_non_mod_file() {
        let files = project(RUST_PROJECT);
        let text =
            "mod defaults;\nuse super::*;\nuse super::super::hash::f;\nuse self::defaults::D;\n";
        assert_eq!(
            resolve(Language::Rust, "src/project/config.rs", text, &files),
            vec![
                "src/hash.rs",
                "src/project/config/defaults.rs",
                "src/project/mod.rs"
            ]
        );
    }

    #[test]
    fn rust_crate_roots_bins_tests_and_self_exclusion() {
        let files = project(RUST_PROJECT);
        assert_eq!(
            resolve(
                Language::Rust,
                "src/bin/tool.rs",
                "use crate::cli::run::go;\nmod helpers;\n",
                &files
            ),
            vec!["src/cli/mod.rs"]
        );
        assert_eq!(
            resolve(
                Language::Rust,
                "tests/it.rs",
                "mod common;\nuse lexibrarian::x;\n",
                &files
            ),
            vec!["tests/common/mod.rs"]
        );
        assert_eq!(
            resolve(
                Language::Rust,
                "src/lib.rs",
                "pub mod cli;\nmod hash;\nuse crate::cli::args;\nuse crate::Thing;\n",
                &files
            ),
            vec!["src/cli/args.rs", "src/cli/mod.rs", "src/hash.rs"]
        );
        assert_eq!(
            resolve(
                Language::Rust,
                "crates/core/src/util.rs",
                "use crate::Thing;\nuse super::x;\n",
                &files
            ),
            vec!["crates/core/src/lib.rs"]
        );
    }

    #[test]
    fn javascript_relative_specs() {
        let files = project(&[
            "src/app/util.ts",
            "src/lib/index.ts",
            "src/app/components/index.tsx",
            "src/app/data.json",
            "src/app/styles.css",
            "src/app/types.d.ts",
            "src/app/legacy.js",
            "src/app/esm.mts",
            "x.js",
        ]);
        let text = "import a from './util';\nimport b from '../lib/index.js';\nimport c from './components';\nimport d from './data.json';\nimport './styles.css';\nimport type { T } from './types';\nconst l = require('./legacy');\nimport e from './esm.mjs';\nimport r from 'react';\nimport x from '../../x';\nimport y from '../../../escape';\nimport z from './missing';\n";
        assert_eq!(
            resolve(Language::TypeScript, "src/app/main.ts", text, &files),
            vec![
                "src/app/components/index.tsx",
                "src/app/data.json",
                "src/app/esm.mts",
                "src/app/legacy.js",
                "src/app/styles.css",
                "src/app/types.d.ts",
                "src/app/util.ts",
                "src/lib/index.ts",
                "x.js",
            ]
        );
        let files = project(&["index.js", "lib/a.jsx", "lib/index.js"]);
        assert_eq!(
            resolve(Language::JavaScript, "lib/b.js", "import a from './a';\nimport i from '.';\nimport r from '..';\nimport s from './b';\n", &files),
            vec!["index.js", "lib/a.jsx", "lib/index.js"]
        );
    }

    #[test]
    fn python_relative_and_absolute_modules() {
        let files = project(&[
            "src/pkg/__init__.py",
            "src/pkg/util.py",
            "src/pkg/sub/__init__.py",
            "src/pkg/sub/sibling.py",
            "src/pkg/sub/mod.py",
            "src/pkg/core/__init__.py",
            "src/pkg/core/engine.py",
            "tools.py",
            "app/common.py",
            "app/scripts/run.py",
        ]);
        let text = "import os\nfrom . import sibling\nfrom ..core import engine, missing\nimport pkg.util\nfrom tools import helper\nfrom .... import too_far\n";
        assert_eq!(
            resolve(Language::Python, "src/pkg/sub/mod.py", text, &files),
            vec![
                "src/pkg/core/__init__.py",
                "src/pkg/core/engine.py",
                "src/pkg/sub/__init__.py",
                "src/pkg/sub/sibling.py",
                "src/pkg/util.py",
                "tools.py",
            ]
        );
        assert_eq!(
            resolve(
                Language::Python,
                "app/scripts/run.py",
                "import common\nimport tools\n",
                &files
            ),
            vec!["app/common.py", "tools.py"]
        );
    }

    #[test]
    fn path_helpers() {
        assert_eq!(normalize("a/b", "../c/./d"), Some("a/c/d".to_string()));
        assert_eq!(normalize("a", "../../c"), None);
        assert_eq!(normalize("", "./x"), Some("x".to_string()));
        assert_eq!(dir_of("a/b/c.rs"), "a/b");
        assert_eq!(dir_of("c.rs"), "");
        assert_eq!(parent_dir(""), None);
        assert_eq!(parent_dir("a"), Some(""));
    }
}
