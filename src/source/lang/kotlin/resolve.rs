//! Kotlin: an import names the files of a package that declare a name (`source::lang::kotlin::
//! model`). `import a.b.C` (or `a.b.C as D`, or `a.b.C.Inner`, `a.b.C.Companion.f`) depends on
//! the files of package `a.b` declaring `C` (the longest package prefix that declares the next
//! segment); `import a.b.*` on the files of `a.b` declaring a name the file uses; and, with no
//! import, a name the file uses and does not declare depends on the other files of its own
//! package declaring it (kotlinc looks there first: a top-level function, an extension function
//! called as `x.buffer()`, a class).
//!
//! Which of several declaring files (Kotlin Multiplatform's `expect` in `commonMain` and its
//! `actual`s in `jvmMain`, `nativeMain`, …): those a file's source set sees — main code never sees
//! a test set (`test`, `*Test`); then those of the file's own module, if any; then those of its own
//! source set, if any, else those of the `common*` sets (the `expect`: which platform sets are
//! parents of which is the build's to say, not the layout's). What names no project file — the Kotlin and Java standard libraries,
//! dependencies — stays unresolved, and `crate::source::resolve::externals` names its package.

use crate::source::interface::Interface;
use crate::source::lang::kotlin::extract::PACKAGE_SPEC;
use crate::source::resolve::{Collected, Context};

/// Record the dependencies of `file` from its imports and the names it uses.
pub(crate) fn resolve(
    file: &str,
    interface: &Interface,
    context: &Context<'_>,
    out: &mut Collected,
) {
    let model = &context.model.kotlin;
    let here = SourceSet::of(file);
    let package = interface
        .imports
        .iter()
        .find(|import| import.spec.starts_with(PACKAGE_SPEC));
    let own_package = package.map_or("", |p| &p.spec[PACKAGE_SPEC.len()..]);
    let used: &[String] = package.map_or(&[], |p| p.names.as_slice());
    let pick = |candidates: Vec<&str>| choose(&here, file, candidates);
    let mut imported: Vec<&str> = Vec::new();
    for import in &interface.imports {
        let spec = import.spec.as_str();
        if spec.starts_with(PACKAGE_SPEC) {
            continue;
        }
        if let Some(on_demand) = spec.strip_suffix(".*") {
            let mut found = false;
            for name in used {
                for path in pick(model.declaring(on_demand, name)) {
                    found = true;
                    out.record(spec, Some(path));
                }
            }
            if !found && !model.has_package(on_demand) {
                out.record(spec, None);
            }
            continue;
        }
        let segments: Vec<&str> = spec.split('.').collect();
        imported.push(segments.last().copied().unwrap_or(spec));
        imported.extend(import.names.iter().map(String::as_str));
        let found = (1..segments.len()).rev().find_map(|at| {
            let paths = pick(model.declaring(&segments[..at].join("."), segments[at]));
            (!paths.is_empty()).then_some(paths)
        });
        match found {
            Some(paths) => {
                for path in paths {
                    out.record(spec, Some(path));
                }
            }
            None => out.record(spec, None),
        }
    }
    let Some(package) = package else {
        return;
    };
    for name in used {
        if imported.contains(&name.as_str()) {
            continue;
        }
        for path in pick(model.declaring(own_package, name)) {
            out.record(&package.spec, Some(path));
        }
    }
}

/// Of the files declaring a name, those `file` (in `here`) depends on: the ones its source set
/// sees, narrowed to its own module's and then its own set's when it has some.
fn choose(here: &SourceSet, file: &str, candidates: Vec<&str>) -> Vec<String> {
    let mut seen: Vec<(&str, SourceSet)> = candidates
        .into_iter()
        .filter(|path| *path != file)
        .map(|path| (path, SourceSet::of(path)))
        .filter(|(_, set)| !set.is_test || (here.is_test && set.module == here.module))
        .collect();
    if seen.iter().any(|(_, set)| set.module == here.module) {
        seen.retain(|(_, set)| set.module == here.module);
    }
    if seen.iter().any(|(_, set)| set.set == here.set) {
        seen.retain(|(_, set)| set.set == here.set);
    } else if seen.iter().any(|(_, set)| set.set.starts_with("common")) {
        // Another platform's `actual`s (`jvmMain` from `unixMain`) are no source set's parents
        // that the layout tells: the `expect` in `commonMain` is what every set sees.
        seen.retain(|(_, set)| set.set.starts_with("common"));
    }
    seen.into_iter().map(|(path, _)| path.to_string()).collect()
}

/// Where a file sits by the Gradle and Maven layout: `core/src/jvmTest/kotlin/a/B.kt` is module
/// `core`, set `jvmTest`, a test set.
struct SourceSet {
    module: String,
    set: String,
    is_test: bool,
}

impl SourceSet {
    /// The last `src/<set>/kotlin` or `src/<set>/java` of `path`; outside one, its directory is
    /// the module and the set is unnamed (a test set when its path is a test path).
    fn of(path: &str) -> SourceSet {
        let parts: Vec<&str> = path.split('/').collect();
        let found = (0..parts.len().saturating_sub(3))
            .rev()
            .find(|&i| parts[i] == "src" && matches!(parts[i + 2], "kotlin" | "java"));
        match found {
            Some(at) => {
                let set = parts[at + 1];
                SourceSet {
                    module: parts[..at].join("/"),
                    set: set.to_string(),
                    is_test: set == "test" || set.ends_with("Test") || set == "testFixtures",
                }
            }
            None => SourceSet {
                module: String::new(),
                set: String::new(),
                is_test: crate::source::lang::files::is_test_path(path),
            },
        }
    }
}

/// The package an unresolved import names (`kotlinx.coroutines` of `kotlinx.coroutines.launch`,
/// `org.junit` of `org.junit.Test`): the segments before the first capitalised one, or all but the
/// last when none is. `None` for the Kotlin and Java standard libraries and for the entries that
/// are no import.
pub(crate) fn external_package(spec: &str) -> Option<String> {
    if spec.starts_with(PACKAGE_SPEC)
        || spec.starts_with("kotlin.")
        || crate::source::lang::java::resolve::is_jdk(spec)
    {
        return None;
    }
    let name = spec.strip_suffix(".*").unwrap_or(spec);
    let segments: Vec<&str> = name.split('.').collect();
    let capital = segments
        .iter()
        .position(|s| s.starts_with(|c: char| c.is_ascii_uppercase()));
    let end = match capital {
        Some(at) => at,
        None if spec.ends_with(".*") => segments.len(),
        None => segments.len().saturating_sub(1),
    };
    (end > 0).then(|| segments[..end].join("."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::resolve::testing::Files;

    fn project() -> Files {
        Files::new(&[
            ("settings.gradle.kts", "include(\":core\")\n"),
            (
                "core/src/commonMain/kotlin/a/b/Buffer.kt",
                "package a.b\n\nexpect class Buffer\nfun Source.buffer(): Buffer = TODO()\n",
            ),
            (
                "core/src/jvmMain/kotlin/a/b/Buffer.kt",
                "package a.b\n\nactual class Buffer { fun f() { helper() } }\n",
            ),
            ("core/src/jvmMain/kotlin/a/b/Helpers.kt", "package a.b\n\ninternal fun helper() = 1\n"),
            ("core/src/commonMain/kotlin/a/b/Source.kt", "package a.b\n\ninterface Source\n"),
            (
                "core/src/commonMain/kotlin/a/c/Use.kt",
                "package a.c\n\nimport a.b.Source\nimport a.b.buffer\nimport a.b.Buffer as Buf\nimport kotlinx.coroutines.launch\nimport java.io.File\n\nfun use(s: Source): Buf = s.buffer()\n",
            ),
            (
                "core/src/jvmTest/kotlin/a/b/BufferTest.kt",
                "package a.b\n\nimport org.junit.Test\n\nclass BufferTest { @Test fun works() { Buffer().f() } }\n",
            ),
            (
                "app/src/main/kotlin/x/App.kt",
                "package x\n\nimport a.b.*\n\nfun main() { val b: Buffer? = null; println(b) }\n",
            ),
            ("app/src/main/java/x/Legacy.java", "package x;\npublic class Legacy {}\n"),
            ("app/src/main/kotlin/x/UsesJava.kt", "package x\n\nfun f() = Legacy()\n"),
        ])
    }

    #[test]
    fn imports_name_the_files_declaring_them() {
        let files = project();
        assert_eq!(
            files.deps("core/src/commonMain/kotlin/a/c/Use.kt"),
            [
                "core/src/commonMain/kotlin/a/b/Buffer.kt",
                "core/src/commonMain/kotlin/a/b/Source.kt",
            ]
        );
        let resolution = files.resolve("core/src/commonMain/kotlin/a/c/Use.kt");
        assert_eq!(
            resolution.unresolved,
            ["kotlinx.coroutines.launch", "java.io.File"]
        );
        assert_eq!(resolution.externals, ["kotlinx.coroutines"]);
    }

    #[test]
    fn the_own_package_needs_no_import_and_tests_see_their_module() {
        let files = project();
        assert_eq!(
            files.deps("core/src/jvmMain/kotlin/a/b/Buffer.kt"),
            ["core/src/jvmMain/kotlin/a/b/Helpers.kt"]
        );
        // Of an `expect` and its `actual`s, a set of its own or else the common one.
        assert_eq!(
            files.deps("core/src/jvmTest/kotlin/a/b/BufferTest.kt"),
            ["core/src/commonMain/kotlin/a/b/Buffer.kt"]
        );
        assert_eq!(
            files.deps("app/src/main/kotlin/x/App.kt"),
            ["core/src/commonMain/kotlin/a/b/Buffer.kt"]
        );
        assert_eq!(
            files.deps("app/src/main/kotlin/x/UsesJava.kt"),
            ["app/src/main/java/x/Legacy.java"]
        );
    }

    #[test]
    fn external_packages_are_named_by_their_package() {
        assert_eq!(
            external_package("kotlinx.coroutines.launch").as_deref(),
            Some("kotlinx.coroutines")
        );
        assert_eq!(
            external_package("org.junit.Test").as_deref(),
            Some("org.junit")
        );
        assert_eq!(
            external_package("com.squareup.javapoet.*").as_deref(),
            Some("com.squareup.javapoet")
        );
        assert_eq!(external_package("kotlin.test.Test"), None);
        assert_eq!(external_package("java.io.File"), None);
    }
}
