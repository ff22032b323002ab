//! Java: a type is found as javac finds it on its source path — `a/b/C.java` below one of the
//! source roots the file sees (`source::model::java`: its own root, its module's main roots, the
//! other modules' main roots; for a file outside every Maven/Gradle root, the root its `package`
//! declaration implies). Each simple type name the file uses (the `package` entry's names,
//! `source::java`) is looked up as javac does: a single-type import names it; else a type of the
//! file's own package (no import needed: a test of `a.b` uses `a.b.Foo` as `Foo`); else a type of
//! a package imported on demand (`import a.b.*;`). `import a.b.C;` and `import a.b.C.Inner;` depend
//! on `C`'s file when the code uses the name (an import only Javadoc's `{@link}` reads is no
//! dependency: javac compiles nothing of it), `import static a.b.C.m;` and `import static a.b.C.*;` too; a fully qualified name
//! in code (`a.b.C.m()`) as an import. What names no project type — the JDK, libraries — stays
//! unresolved, and `crate::source::resolve::externals` names its package.

use crate::source::interface::Interface;
use crate::source::lang::java::extract::{PACKAGE_SPEC, QUALIFIED_SPEC, STATIC_SPEC};
use crate::source::model::files::{dir_of, join};
use crate::source::model::java::SourceRoot;
use crate::source::resolve::{Collected, Context};

pub(crate) fn resolve(
    file: &str,
    interface: &Interface,
    context: &Context<'_>,
    out: &mut Collected,
) {
    let package = interface
        .imports
        .iter()
        .find(|import| import.spec.starts_with(PACKAGE_SPEC));
    let package_name = package.map_or("", |p| &p.spec[PACKAGE_SPEC.len()..]);
    let resolver = Resolver {
        context,
        roots: roots(file, package_name, context),
    };
    let mut single: Vec<&str> = Vec::new();
    let mut on_demand: Vec<&str> = Vec::new();
    for import in &interface.imports {
        let spec = import.spec.as_str();
        if spec.starts_with(PACKAGE_SPEC) {
            continue;
        }
        if let Some(name) = spec.strip_prefix(QUALIFIED_SPEC) {
            // A qualified name in code that names no project type is a variable's field chain, a
            // library type: nothing to say.
            if let Some(found) = resolver.type_file(name) {
                out.record(spec, Some(found));
            }
            continue;
        }
        let (is_static, name) = match spec.strip_prefix(STATIC_SPEC) {
            Some(name) => (true, name),
            None => (false, spec),
        };
        let (name, wildcard) = match name.strip_suffix(".*") {
            Some(prefix) => (prefix, true),
            None => (name, false),
        };
        let found = match (is_static, wildcard) {
            // `import a.b.*;`: the package's types the file uses, below.
            (false, true) => {
                on_demand.push(name);
                continue;
            }
            // `import static a.b.C.m;`: the class, whatever `m` is.
            (true, false) => name
                .rsplit_once('.')
                .and_then(|(class, _)| resolver.type_file(class)),
            (true, true) => resolver.type_file(name),
            (false, false) => {
                let simple = name.rsplit('.').next().unwrap_or(name);
                single.push(simple);
                // An import only Javadoc reads (`{@link Since}`): javac compiles nothing of it.
                if package.is_some_and(|p| !p.names.iter().any(|used| used == simple)) {
                    continue;
                }
                resolver.type_file(name)
            }
        };
        out.record(spec, found);
    }
    let Some(package) = package else {
        return;
    };
    let own_dir = dir_of(file);
    for name in &package.names {
        if single.contains(&name.as_str()) {
            continue;
        }
        if let Some(found) = resolver.package_type(package_name, name, own_dir) {
            out.record(&package.spec, Some(found));
            continue;
        }
        if let Some(found) = on_demand
            .iter()
            .find_map(|imported| resolver.package_type(imported, name, ""))
        {
            out.record(&package.spec, Some(found));
        }
    }
    for imported in on_demand {
        // A package on demand of which the file uses no project type: the JDK's, a library's.
        let spec = format!("{imported}.*");
        let used = package
            .names
            .iter()
            .any(|name| resolver.package_type(imported, name, "").is_some());
        if !used && !resolver.is_project_package(imported) {
            out.record(&spec, None);
        }
    }
}

/// The roots `file` sees, in lookup order: the model's for a file under a Maven/Gradle root, else
/// the root its package implies (its directory minus the package's path) and the model's main
/// roots.
fn roots(file: &str, package: &str, context: &Context<'_>) -> Vec<String> {
    let java = &context.model.java;
    let own = java.root_of(file);
    let mut roots: Vec<String> = Vec::new();
    if own.is_none() {
        let dir = dir_of(file);
        let path = package.replace('.', "/");
        let implied = match path.is_empty() {
            true => Some(dir),
            false if dir == path => Some(""),
            false => dir.strip_suffix(&format!("/{path}")),
        };
        roots.extend(implied.map(str::to_string));
    }
    roots.extend(
        java.visible_from(own)
            .into_iter()
            .map(|root: &SourceRoot| root.dir.clone()),
    );
    roots.dedup();
    roots
}

struct Resolver<'c, 'a> {
    context: &'c Context<'a>,
    roots: Vec<String>,
}

impl Resolver<'_, '_> {
    fn exists(&self, rel: &str) -> bool {
        (self.context.exists)(rel)
    }

    /// The file of the type a qualified name names (`a.b.C`, `a.b.C.Inner`: `C`'s file), in the
    /// first root that has it.
    fn type_file(&self, name: &str) -> Option<String> {
        let segments: Vec<&str> = name.split('.').collect();
        for end in (1..=segments.len()).rev() {
            let path = format!("{}.java", segments[..end].join("/"));
            if let Some(found) = self
                .roots
                .iter()
                .map(|root| join(root, &path))
                .find(|candidate| self.exists(candidate))
            {
                return Some(found);
            }
        }
        None
    }

    /// The file of type `name` in package `package` (`a.b`), in the first root that has it — or
    /// in `own_dir`, the file's own directory, when no root does.
    fn package_type(&self, package: &str, name: &str, own_dir: &str) -> Option<String> {
        let file = format!("{name}.java");
        let dir = package.replace('.', "/");
        self.roots
            .iter()
            .map(|root| join(&join(root, &dir), &file))
            .chain((!own_dir.is_empty() || package.is_empty()).then(|| join(own_dir, &file)))
            .find(|candidate| self.exists(candidate))
    }

    /// Whether some root holds a directory of package `package` — approximated by its
    /// `package-info.java`: the project's own packages are not externals.
    fn is_project_package(&self, package: &str) -> bool {
        let dir = package.replace('.', "/");
        self.roots
            .iter()
            .any(|root| self.exists(&join(&join(root, &dir), "package-info.java")))
    }
}

/// Whether an import spec is Java's own (the JDK's modules: `java.*`, `javax.*` of the JDK,
/// `jdk.*`, `sun.*`, `com.sun.*`, `org.w3c.dom`, `org.xml.sax`, `org.ietf.jgss`).
pub(crate) fn is_jdk(spec: &str) -> bool {
    let name = spec.strip_prefix(STATIC_SPEC).unwrap_or(spec);
    const JDK: &[&str] = &[
        "java.",
        "jdk.",
        "sun.",
        "com.sun.",
        "org.w3c.dom.",
        "org.xml.sax.",
        "org.ietf.jgss.",
        "javax.annotation.processing.",
        "javax.crypto.",
        "javax.imageio.",
        "javax.lang.model.",
        "javax.management.",
        "javax.naming.",
        "javax.net.",
        "javax.print.",
        "javax.script.",
        "javax.security.",
        "javax.smartcardio.",
        "javax.sound.",
        "javax.sql.",
        "javax.swing.",
        "javax.tools.",
        "javax.transaction.xa.",
        "javax.xml.",
        "javax.accessibility.",
    ];
    JDK.iter().any(|prefix| name.starts_with(prefix))
}

/// The package an unresolved import names (`com.google.errorprone.annotations` of
/// `com.google.errorprone.annotations.Keep`, `org.junit` of `static org.junit.Assert.*`): the
/// segments before the first capitalised one. `None` for the JDK and for the entries that are no
/// import.
pub(crate) fn external_package(spec: &str) -> Option<String> {
    if spec.starts_with(PACKAGE_SPEC) || spec.starts_with(QUALIFIED_SPEC) || is_jdk(spec) {
        return None;
    }
    let name = spec.strip_prefix(STATIC_SPEC).unwrap_or(spec);
    let segments: Vec<&str> = name
        .split('.')
        .take_while(|s| *s != "*" && !s.starts_with(|c: char| c.is_ascii_uppercase()))
        .collect();
    (!segments.is_empty()).then(|| segments.join("."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::resolve::testing::Files;

    const POM: &str = "<project><modelVersion>4.0.0</modelVersion></project>\n";

    fn project() -> Files {
        Files::new(&[
            ("pom.xml", POM),
            (
                "core/src/main/java/a/b/Gson.java",
                "package a.b;\nimport a.b.internal.*;\nimport java.util.List;\npublic class Gson { Excluder e; TypeAdapter<?> t; List<String> l; void f() { a.c.Util.run(); } }\n",
            ),
            ("core/src/main/java/a/b/TypeAdapter.java", "package a.b;\npublic abstract class TypeAdapter<T> {}\n"),
            ("core/src/main/java/a/b/Unused.java", "package a.b;\npublic class Unused {}\n"),
            ("core/src/main/java/a/b/internal/Excluder.java", "package a.b.internal;\npublic class Excluder {}\n"),
            ("core/src/main/java/a/b/internal/package-info.java", "package a.b.internal;\n"),
            ("core/src/main/java/a/c/Util.java", "package a.c;\npublic class Util { public static void run() {} }\n"),
            (
                "core/src/test/java/a/b/GsonTest.java",
                "package a.b;\nimport static a.b.internal.Excluder.*;\nimport org.junit.Test;\npublic class GsonTest { @Test public void t() { new Gson(); } }\n",
            ),
            (
                "extras/src/main/java/x/Extra.java",
                "package x;\nimport a.b.Gson;\nimport a.b.TypeAdapter.Inner;\nimport a.b.Unused;\n/** Not {@link Unused}. */\npublic class Extra { Gson g; Inner i; }\n",
            ),
            ("tools/gen/Gen.java", "package gen;\npublic class Gen { Helper h; }\n"),
            ("tools/gen/Helper.java", "package gen;\nclass Helper {}\n"),
        ])
    }

    #[test]
    fn single_type_on_demand_static_same_package_and_qualified_names() {
        let files = project();
        assert_eq!(
            files.deps("core/src/main/java/a/b/Gson.java"),
            [
                "core/src/main/java/a/b/TypeAdapter.java",
                "core/src/main/java/a/b/internal/Excluder.java",
                "core/src/main/java/a/c/Util.java",
            ]
        );
        let resolution = files.resolve("core/src/main/java/a/b/Gson.java");
        assert_eq!(resolution.unresolved, ["java.util.List"]);
        assert!(resolution.externals.is_empty());
    }

    #[test]
    fn a_test_sees_its_package_in_main_and_a_module_the_others() {
        let files = project();
        assert_eq!(
            files.deps("core/src/test/java/a/b/GsonTest.java"),
            [
                "core/src/main/java/a/b/Gson.java",
                "core/src/main/java/a/b/internal/Excluder.java",
            ]
        );
        assert_eq!(
            files
                .resolve("core/src/test/java/a/b/GsonTest.java")
                .externals,
            ["org.junit"]
        );
        assert_eq!(
            files.deps("extras/src/main/java/x/Extra.java"),
            [
                "core/src/main/java/a/b/Gson.java",
                "core/src/main/java/a/b/TypeAdapter.java",
            ]
        );
    }

    #[test]
    fn outside_a_build_layout_the_package_implies_the_root() {
        let files = project();
        assert_eq!(files.deps("tools/gen/Gen.java"), ["tools/gen/Helper.java"]);
    }

    #[test]
    fn external_packages_are_named_by_their_package() {
        assert_eq!(
            external_package("org.junit.Test").as_deref(),
            Some("org.junit")
        );
        assert_eq!(
            external_package("static org.junit.Assert.*").as_deref(),
            Some("org.junit")
        );
        assert_eq!(
            external_package("com.google.common.*").as_deref(),
            Some("com.google.common")
        );
        assert_eq!(external_package("java.util.List"), None);
        assert_eq!(external_package("javax.lang.model.element.Element"), None);
        assert_eq!(external_package("package a.b"), None);
    }
}
