//! Go: an import path names a package, and a package is a directory — so an import is a
//! dependency on every file `go build` compiles into that directory's package (its non-test
//! `.go` files), found through the module paths of the tree's `go.mod` files
//! ([`crate::source::model::go`]). A `_test.go` file also depends on the files of its own
//! directory's package: it is compiled with them (`package x`) or tests them (`package x_test`)
//! without always importing them. Same-package references between non-test files need no import
//! in Go and are not dependencies here (the package is the unit; its files are siblings in the
//! directory's `.aindex`). The standard library and other modules resolve to nothing.

use crate::source::interface::Interface;
use crate::source::model::files::dir_of;
use crate::source::resolve::{Collected, Context};

pub(crate) fn resolve(
    file: &str,
    interface: &Interface,
    context: &Context<'_>,
    out: &mut Collected,
) {
    let go = &context.model.go;
    for import in &interface.imports {
        match go.package_dir(file, &import.spec) {
            Some(dir) => {
                for dep in go.package_files(&dir) {
                    out.record(&import.spec, Some(dep.clone()));
                }
            }
            None => out.record(&import.spec, None),
        }
    }
    if file.ends_with("_test.go") {
        let dir = dir_of(file);
        for dep in go.package_files(dir) {
            out.record(dir, Some(dep.clone()));
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::source::resolve::testing::Files;

    const GO_MOD: &str =
        "module example.com/app\n\ngo 1.21\n\nrequire github.com/spf13/pflag v1.0.5\n";

    fn files() -> Files {
        Files::new(&[
            ("go.mod", GO_MOD),
            ("app.go", "package app\n\nimport (\n\t\"fmt\"\n\t\"example.com/app/render\"\n\t\"github.com/spf13/pflag\"\n)\n"),
            ("doc.go", "// Package app serves.\npackage app\n"),
            ("app_test.go", "package app\n\nimport \"testing\"\n"),
            ("render/json.go", "package render\n"),
            ("render/html.go", "package render\n"),
            ("render/json_test.go", "package render_test\n\nimport \"example.com/app/render\"\n"),
        ])
    }

    #[test]
    fn an_import_depends_on_the_package_files_of_its_directory() {
        let files = files();
        let resolved = files.resolve("app.go");
        assert_eq!(resolved.deps, ["render/html.go", "render/json.go"]);
        assert_eq!(resolved.unresolved, ["fmt", "github.com/spf13/pflag"]);
        assert_eq!(resolved.externals, ["github.com/spf13/pflag"]);
    }

    #[test]
    fn a_test_file_depends_on_its_own_package() {
        let files = files();
        assert_eq!(files.deps("app_test.go"), ["app.go", "doc.go"]);
        assert_eq!(
            files.deps("render/json_test.go"),
            ["render/html.go", "render/json.go"]
        );
        assert!(files.deps("render/json.go").is_empty());
    }
}
