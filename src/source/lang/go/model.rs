//! The Go model: the modules of the tree (each `go.mod`: its directory, its module path, the
//! modules it requires and the local directories its `replace` directives point at) and its
//! packages (a directory's non-test `.go` files), which is what `go build` reads to turn an
//! import path into a directory of files.
//!
//! Every module in the tree is visible to every other, as a `go.work` listing them all (or
//! `replace` directives) makes them: an import of another module of the same repository is a
//! dependency on its files here, not an external. A vendored copy (`vendor/<path>` beside the
//! importing file's `go.mod`) wins over the module path, as `go build -mod=vendor` has it.
//! Files `go build` never compiles are no package files: `_test.go` files, names starting with
//! `_` or `.`, and anything under a `testdata`, `_x` or `.x` directory.

use std::collections::BTreeMap;

use crate::source::model::ecosystem::EcosystemModel;
use crate::source::model::files::{
    dir_of, file_name, is_within, join, normalize, FileIndex, ReadFile,
};

/// One `go.mod`.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GoModule {
    /// The module's directory, project-relative (`""`: the root).
    pub dir: String,
    /// Its module path (`github.com/gin-gonic/gin`).
    pub path: String,
    /// The module paths it requires (externals, unless replaced by a directory of the tree).
    pub requires: Vec<String>,
    /// `replace old => ./dir`: module paths read from a directory of the tree, project-relative.
    pub replaced: Vec<(String, String)>,
}

/// The Go modules and packages of the tree.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct GoModel {
    /// Modules by directory, sorted.
    pub modules: Vec<GoModule>,
    /// Package directories and their non-test `.go` files, sorted.
    pub packages: BTreeMap<String, Vec<String>>,
}

impl GoModel {
    /// Read every `go.mod` among `files` and list the Go packages.
    pub fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> GoModel {
        let mut modules = Vec::new();
        for path in files.named("go.mod") {
            let Some(text) = read.read(path) else {
                warnings.push(format!("{path}: could not be read"));
                continue;
            };
            match parse_go_mod(dir_of(path), &text) {
                Some(module) => modules.push(module),
                None => warnings.push(format!("{path}: no `module` directive")),
            }
        }
        modules.sort_by(|a, b| a.dir.cmp(&b.dir));
        let mut packages: BTreeMap<String, Vec<String>> = BTreeMap::new();
        if !modules.is_empty() {
            for path in files.under("").filter(|path| is_package_file(path)) {
                packages
                    .entry(dir_of(path).to_string())
                    .or_default()
                    .push(path.to_string());
            }
        }
        GoModel { modules, packages }
    }

    /// Whether the tree has no Go module (the model is then left out of the saved project model).
    pub fn is_empty(&self) -> bool {
        self.modules.is_empty()
    }

    /// The module `file` belongs to: the nearest `go.mod` up the tree.
    pub fn module_of(&self, file: &str) -> Option<&GoModule> {
        self.modules
            .iter()
            .filter(|module| is_within(file, &module.dir))
            .max_by_key(|module| module.dir.len())
    }

    /// The package directory an import path names, seen from `file`; `None` for the standard
    /// library, another module's package and a path no directory of the tree has.
    pub fn package_dir(&self, file: &str, import: &str) -> Option<String> {
        let own = self.module_of(file);
        if let Some(own) = own {
            let vendored = join(&join(&own.dir, "vendor"), import);
            if self.packages.contains_key(&vendored) {
                return Some(vendored);
            }
        }
        let replaced = own.into_iter().flat_map(|module| {
            module
                .replaced
                .iter()
                .map(|(path, dir)| (path.as_str(), dir.as_str()))
        });
        let modules = self
            .modules
            .iter()
            .map(|module| (module.path.as_str(), module.dir.as_str()));
        let (path, dir) = replaced
            .chain(modules)
            .filter(|(path, _)| under_path(import, path))
            .max_by_key(|(path, _)| path.len())?;
        let rest = import[path.len()..].trim_start_matches('/');
        let dir = join(dir, rest);
        self.packages.contains_key(&dir).then_some(dir)
    }

    /// The non-test `.go` files of package directory `dir`.
    pub fn package_files(&self, dir: &str) -> &[String] {
        self.packages.get(dir).map_or(&[], Vec::as_slice)
    }

    /// The required module an import path is from (`github.com/spf13/pflag` of
    /// `github.com/spf13/pflag/sub`), for `file`'s module; `None` for the standard library.
    pub fn required_module(&self, file: &str, import: &str) -> Option<&str> {
        self.module_of(file)?
            .requires
            .iter()
            .filter(|path| under_path(import, path))
            .max_by_key(|path| path.len())
            .map(String::as_str)
    }
}

/// Whether import path `import` is `path` or inside it.
fn under_path(import: &str, path: &str) -> bool {
    import == path
        || import
            .strip_prefix(path)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// Whether `go build` compiles `path` into its directory's package: a `.go` file not named
/// `*_test.go` nor `_x`/`.x`, nowhere under `testdata`, `vendor`-less `_x`/`.x` directories.
pub fn is_package_file(path: &str) -> bool {
    let name = file_name(path);
    if !name.ends_with(".go") || name.ends_with("_test.go") || name.starts_with(['_', '.']) {
        return false;
    }
    !dir_of(path)
        .split('/')
        .any(|part| part == "testdata" || part.starts_with(['_', '.']))
}

impl GoModule {
    /// The `go.mod` of directory `dir` whose text is `text`; `None` without a `module` line.
    pub fn parse(dir: &str, text: &str) -> Option<GoModule> {
        parse_go_mod(dir, text)
    }
}

/// A `go.mod`'s module path, requirements and local replacements; `None` without `module`.
fn parse_go_mod(dir: &str, text: &str) -> Option<GoModule> {
    let mut module = GoModule {
        dir: dir.to_string(),
        ..GoModule::default()
    };
    let mut block: Option<&str> = None;
    for line in text.lines() {
        let line = line.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if line == ")" {
            block = None;
            continue;
        }
        let (verb, rest) = match block {
            Some(verb) => (verb, line),
            None => {
                let (verb, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
                let rest = rest.trim();
                if rest == "(" {
                    block = Some(verb);
                    continue;
                }
                (verb, rest)
            }
        };
        match verb {
            "module" => module.path = unquote(rest).to_string(),
            "require" => {
                if let Some(path) = rest.split_whitespace().next() {
                    module.requires.push(unquote(path).to_string());
                }
            }
            "replace" => {
                let Some((old, new)) = rest.split_once("=>") else {
                    continue;
                };
                let old = old.split_whitespace().next().map(unquote);
                let new = new.split_whitespace().next().map(unquote);
                if let (Some(old), Some(new)) = (old, new) {
                    if new.starts_with("./") || new.starts_with("../") {
                        if let Some(local) = normalize(dir, new) {
                            module.replaced.push((old.to_string(), local));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    module.requires.sort();
    module.requires.dedup();
    (!module.path.is_empty()).then_some(module)
}

fn unquote(s: &str) -> &str {
    s.trim_matches(['"', '`'])
}

impl EcosystemModel for GoModel {
    const ECOSYSTEM: &'static str = "go";

    fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        GoModel::build(files, read, warnings)
    }

    fn is_manifest(name: &str) -> bool {
        name == "go.mod"
    }

    /// A Go file: a package is the directory of its files.
    fn shaped_by(path: &str) -> bool {
        is_package_file(path)
    }

    fn is_empty(&self) -> bool {
        GoModel::is_empty(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::model::build_from;

    const GO_MOD: &str = "module example.com/app // the app\n\ngo 1.21\n\nrequire (\n\tgithub.com/spf13/pflag v1.0.5\n\tgolang.org/x/text v0.3.0 // indirect\n)\n\nrequire example.com/tools v0.1.0\n\nreplace example.com/tools => ./tools\n";

    fn model() -> GoModel {
        let (model, _, warnings) = build_from(
            &[
                ("go.mod", GO_MOD),
                ("main.go", ""),
                ("render/json.go", ""),
                ("render/json_test.go", ""),
                ("render/testdata/x.go", ""),
                ("render/_old.go", ""),
                ("tools/go.mod", "module example.com/tools\n"),
                ("tools/gen/gen.go", ""),
                ("vendor/github.com/spf13/pflag/flag.go", ""),
            ],
            GoModel::build,
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        model
    }

    #[test]
    fn modules_requirements_replacements_and_package_files() {
        let model = model();
        assert_eq!(model.modules.len(), 2);
        let app = &model.modules[0];
        assert_eq!(app.path, "example.com/app");
        assert_eq!(
            app.requires,
            [
                "example.com/tools",
                "github.com/spf13/pflag",
                "golang.org/x/text"
            ]
        );
        assert_eq!(
            app.replaced,
            [("example.com/tools".to_string(), "tools".to_string())]
        );
        assert_eq!(model.package_files("render"), ["render/json.go"]);
        assert_eq!(model.package_files(""), ["main.go"]);
    }

    #[test]
    fn import_paths_resolve_to_package_directories() {
        let model = model();
        let dir = |file: &str, import: &str| model.package_dir(file, import);
        assert_eq!(
            dir("main.go", "example.com/app/render").as_deref(),
            Some("render")
        );
        assert_eq!(
            dir("render/json.go", "example.com/app").as_deref(),
            Some("")
        );
        assert_eq!(
            dir("main.go", "example.com/tools/gen").as_deref(),
            Some("tools/gen")
        );
        assert_eq!(
            dir("main.go", "github.com/spf13/pflag").as_deref(),
            Some("vendor/github.com/spf13/pflag")
        );
        assert_eq!(dir("main.go", "example.com/app/missing"), None);
        assert_eq!(dir("main.go", "example.com/application"), None);
        assert_eq!(dir("main.go", "net/http"), None);
        assert_eq!(
            model.required_module("main.go", "golang.org/x/text/unicode"),
            Some("golang.org/x/text")
        );
        assert_eq!(model.required_module("main.go", "fmt"), None);
    }
}
