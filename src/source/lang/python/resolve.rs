//! Python: relative imports from the file's package (`from . import x`, `from ..core import y`);
//! absolute ones from the project's package roots in the order `sys.path` would try them, never
//! shadowing the standard library (`import json` is the standard library even next to a
//! `json.py`). `from pkg import name` depends on `pkg/name.py` when `name` is a submodule, else on
//! the package. A package directory wins over a module file of the same name, and a `.pyi` stub is
//! only the dependency when there is no source.

use crate::source::interface::{Import, Interface};
use crate::source::model::files::{dir_of, join};
use crate::source::model::stdlib::is_stdlib;
use crate::source::resolve::{Collected, Context};

pub(crate) fn resolve(
    file: &str,
    interface: &Interface,
    context: &Context<'_>,
    out: &mut Collected,
) {
    let resolver = Resolver { context };
    for import in &interface.imports {
        let found = resolver.import(file, import);
        if found.is_empty() {
            out.record_import(&import.spec, None, import.type_only);
        }
        for path in found {
            out.record_import(&import.spec, Some(path), import.type_only);
        }
    }
}

struct Resolver<'c, 'a> {
    context: &'c Context<'a>,
}

impl Resolver<'_, '_> {
    fn exists(&self, rel: &str) -> bool {
        (self.context.exists)(rel)
    }

    /// The files one import statement depends on.
    fn import(&self, file: &str, import: &Import) -> Vec<String> {
        let spec = import.spec.as_str();
        let dots = spec.chars().take_while(|c| *c == '.').count();
        let module = &spec[dots..];
        if dots > 0 {
            return match self.package_dir(file, dots) {
                Some(base) => self.imported_from(&base, module, &import.names),
                None => Vec::new(),
            };
        }
        let top = module.split('.').next().unwrap_or(module);
        if top.is_empty() || is_stdlib(top) {
            return Vec::new();
        }
        // The first root (in `sys.path` order for this file) the import is found under.
        let python = &self.context.model.python;
        python
            .roots_for(file, &|rel| self.exists(rel))
            .into_iter()
            .map(|root| self.imported_from(&root, module, &import.names))
            .find(|found| !found.is_empty())
            .unwrap_or_default()
    }

    /// `from module import names` (or `import module` with no names) found under `base`.
    fn imported_from(&self, base: &str, module: &str, names: &[String]) -> Vec<String> {
        let path = join(base, &module.replace('.', "/"));
        let mut found = Vec::new();
        let mut package_needed = names.is_empty();
        for name in names.iter().filter(|name| *name != "*") {
            match self.module_file(&join(&path, name)) {
                Some(submodule) => found.push(submodule),
                None => package_needed = true,
            }
        }
        if names.iter().any(|name| name == "*") {
            package_needed = true;
        }
        if package_needed {
            found.extend(self.module_file(&path));
        }
        found
    }

    /// The file that defines the module at `path` (no extension): a package's `__init__.py`, else
    /// `path.py`, else a stub.
    fn module_file(&self, path: &str) -> Option<String> {
        if path.is_empty() {
            return None;
        }
        [
            join(path, "__init__.py"),
            format!("{path}.py"),
            format!("{path}.pyi"),
            join(path, "__init__.pyi"),
        ]
        .into_iter()
        .find(|candidate| self.exists(candidate))
    }

    /// The package directory `dots` levels up from `file` (`.` is the file's own package).
    fn package_dir(&self, file: &str, dots: usize) -> Option<String> {
        let mut dir = dir_of(file);
        for _ in 1..dots {
            if dir.is_empty() {
                return None;
            }
            dir = dir_of(dir);
        }
        Some(dir.to_string())
    }
}

#[cfg(test)]
mod tests {
    use crate::source::resolve::testing::Files;

    #[test]
    fn relative_and_absolute_modules_from_src_layouts_and_scripts() {
        let files = Files::new(&[
            ("pyproject.toml", "[project]\nname = \"pkg\"\n"),
            ("src/pkg/__init__.py", "from .app import App as App\n"),
            ("src/pkg/app.py", "class App: ...\n"),
            ("src/pkg/typing.py", ""),
            ("src/pkg/json/__init__.py", ""),
            ("src/pkg/util.py", ""),
            ("src/pkg/sub/__init__.py", ""),
            ("src/pkg/sub/sibling.py", ""),
            ("src/pkg/sub/mod.py", "import os\nimport typing\nimport json\nfrom . import sibling\nfrom .. import typing as t\nfrom ..core import engine, missing\nimport pkg.util\nfrom .... import too_far\n"),
            ("src/pkg/core/__init__.py", ""),
            ("src/pkg/core/engine.py", ""),
            ("src/pkg/stubbed.pyi", ""),
            ("src/pkg/stubbed/__init__.py", ""),
            ("tests/conftest.py", ""),
            ("tests/test_app.py", "import pkg\nfrom pkg import App\nfrom pkg.app import App\nimport conftest\nfrom pkg import stubbed\n"),
        ]);
        assert_eq!(
            files.deps("src/pkg/sub/mod.py"),
            [
                "src/pkg/core/__init__.py",
                "src/pkg/core/engine.py",
                "src/pkg/sub/sibling.py",
                "src/pkg/typing.py",
                "src/pkg/util.py",
            ]
        );
        assert_eq!(
            files.deps("tests/test_app.py"),
            [
                "src/pkg/__init__.py",
                "src/pkg/app.py",
                "src/pkg/stubbed/__init__.py",
                "tests/conftest.py"
            ]
        );
    }

    #[test]
    fn imports_under_type_checking_are_type_only_unless_also_imported_at_run_time() {
        let files = Files::new(&[
            ("pyproject.toml", "[project]\nname = \"pkg\"\n"),
            ("src/pkg/__init__.py", ""),
            ("src/pkg/app.py", ""),
            ("src/pkg/blueprints.py", ""),
            ("src/pkg/ctx.py", ""),
            ("src/pkg/wrappers.py", ""),
            (
                "src/pkg/helpers.py",
                "import typing as t\nfrom .ctx import AppContext\n\nif t.TYPE_CHECKING:\n    from .app import App\n    from .ctx import RequestContext\n    import pkg.blueprints\nelse:\n    from .wrappers import Response\n",
            ),
        ]);
        let resolved = files.resolve("src/pkg/helpers.py");
        assert_eq!(
            resolved.deps,
            [
                "src/pkg/app.py",
                "src/pkg/blueprints.py",
                "src/pkg/ctx.py",
                "src/pkg/wrappers.py"
            ]
        );
        // `ctx` is imported at run time too; the `else:` branch runs.
        assert_eq!(
            resolved.type_only,
            ["src/pkg/app.py", "src/pkg/blueprints.py"]
        );
    }
}
