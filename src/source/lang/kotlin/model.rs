//! Kotlin's packages, as kotlinc sees them: a Kotlin file declares its package (`package a.b`)
//! whatever its directory, and holds any number of top-level declarations whatever its name, so an
//! import (`a.b.C`, `a.b.foo`, `a.b.*`) names the files of package `a.b` that declare `C` or
//! `foo`. The model lists, for every package, each Kotlin file of it with the top-level names it
//! declares (not the `private` ones: those are its own), and each Java file of it with its class
//! (the file's name): a Kotlin file imports Java classes of the same project too.
//!
//! Each file's source set (`src/<set>/kotlin`, `src/<set>/java`: `main`, `test`, Kotlin
//! Multiplatform's `commonMain`, `jvmTest`, …) and module (the directory holding `src/`) are read
//! from its path by the resolver.
//!
//! A `.kt` file is a manifest of this model: what it declares decides how other files' imports
//! resolve, so a `--changed-only` run that touches one rebuilds the model (a full update), and the
//! model's fingerprint changes only when a package or a declared name does.

use std::collections::BTreeMap;

use crate::source::model::ecosystem::EcosystemModel;
use crate::source::model::files::{FileIndex, ReadFile};

/// Kotlin files read for the model at most; past it, the rest are left out (a warning says so).
const MAX_FILES: usize = 50_000;

/// Every package of the project's Kotlin and Java files.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct KotlinModel {
    /// By package name (`""`: the default package), its files in path order. Empty when the
    /// project has no Kotlin file.
    pub packages: BTreeMap<String, Vec<PackageFile>>,
}

/// One file of a package: its path and the top-level names it declares.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PackageFile {
    pub path: String,
    /// Sorted, deduplicated.
    pub names: Vec<String>,
}

impl KotlinModel {
    /// The packages of the Kotlin and Java files among `files`; none when no Kotlin file is.
    pub fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        let mut model = KotlinModel::default();
        let kotlin: Vec<&str> = files.under("").filter(|p| is_kotlin_source(p)).collect();
        if kotlin.is_empty() {
            return model;
        }
        if kotlin.len() > MAX_FILES {
            warnings.push(format!(
                "{} Kotlin files: the first {MAX_FILES} are read for import resolution",
                kotlin.len()
            ));
        }
        let mut parser = super::KOTLIN.grammar.and_then(|grammar| {
            let mut parser = tree_sitter::Parser::new();
            parser.set_language(&grammar()).ok().map(|_| parser)
        });
        for path in kotlin.into_iter().take(MAX_FILES) {
            let Some(text) = read.read(path) else {
                continue;
            };
            let Some(tree) = parser.as_mut().and_then(|p| p.parse(&text, None)) else {
                continue;
            };
            let (text, tree) = match tree.root_node().has_error() {
                true => super::extract::parse_joined(&text).unwrap_or((text, tree)),
                false => (text, tree),
            };
            let root = tree.root_node();
            let package = super::extract::package_name(root, &text);
            let mut names = top_level_names(root, &text);
            names.sort();
            names.dedup();
            model.add(package, path, names);
        }
        for path in files.under("").filter(|p| p.ends_with(".java")) {
            let Some(text) = read.read(path) else {
                continue;
            };
            let stem = crate::relpath::RelPath::new(path).stem().to_string();
            model.add(java_package(&text), path, vec![stem]);
        }
        model
    }

    /// Record `path` in `package`, declaring `names`.
    fn add(&mut self, package: String, path: &str, names: Vec<String>) {
        let files = self.packages.entry(package).or_default();
        files.push(PackageFile {
            path: path.to_string(),
            names,
        });
        files.sort_by(|a, b| a.path.cmp(&b.path));
    }

    /// The files of `package` that declare `name`.
    pub fn declaring<'m>(&'m self, package: &str, name: &str) -> Vec<&'m str> {
        self.packages
            .get(package)
            .map(|files| {
                files
                    .iter()
                    .filter(|file| file.names.iter().any(|n| n == name))
                    .map(|file| file.path.as_str())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether the project has files of `package`.
    pub fn has_package(&self, package: &str) -> bool {
        self.packages.contains_key(package)
    }
}

/// The names a file declares at the top level, `private` ones left out. A file the grammar cannot
/// parse whole (a class whose constructor's modifier starts the next line, `class A\ninternal
/// constructor(…)`) may show its class's members at the top level after the error, or its class
/// as loose tokens in an `ERROR` node: past the first error only the name after the first
/// `class`, `interface` or `object` keyword is read.
fn top_level_names(root: tree_sitter::Node<'_>, text: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut broken = root.is_error();
    let mut after_keyword = false;
    let mut keyword_named = false;
    let mut nodes: Vec<tree_sitter::Node<'_>> = Vec::new();
    let mut cursor = root.walk();
    for node in root.children(&mut cursor) {
        match node.is_error() {
            true => {
                let mut inner = node.walk();
                nodes.extend(node.children(&mut inner));
            }
            false => nodes.push(node),
        }
    }
    for node in nodes {
        if node.is_extra() {
            continue;
        }
        let kind = node.kind();
        let declaration = matches!(
            kind,
            "class_declaration"
                | "object_declaration"
                | "function_declaration"
                | "property_declaration"
                | "type_alias"
        );
        if after_keyword && kind == "identifier" && !keyword_named {
            keyword_named = true;
            names.push(text.get(node.byte_range()).unwrap_or("").to_string());
        }
        after_keyword = matches!(kind, "class" | "interface" | "object");
        broken |= node.is_error() || node.parent().is_some_and(|p| p.is_error());
        if declaration && !broken && !is_private(node, text) {
            names.extend(super::extract::declared_name(node, text).map(str::to_string));
        }
    }
    names.retain(|name| !name.is_empty());
    names
}

/// Whether a top-level declaration is `private` (visible in its file only).
fn is_private(node: tree_sitter::Node<'_>, src: &str) -> bool {
    crate::source::syntax::code_children(node)
        .into_iter()
        .find(|c| c.kind() == "modifiers")
        .is_some_and(|m| {
            crate::source::syntax::code_children(m)
                .into_iter()
                .any(|c| {
                    c.kind() == "visibility_modifier" && src.get(c.byte_range()) == Some("private")
                })
        })
}

/// The package a Java file declares (`package a.b;`), read from its first `package` line.
fn java_package(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .find_map(|line| line.strip_prefix("package "))
        .map(|rest| rest.trim_end_matches(';').trim().to_string())
        .unwrap_or_default()
}

/// Whether `path` is a Kotlin source file (`.kt`; `.kts` scripts declare nothing others import).
pub fn is_kotlin_source(path: &str) -> bool {
    path.ends_with(".kt")
}

impl EcosystemModel for KotlinModel {
    const ECOSYSTEM: &'static str = "kotlin";

    fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        KotlinModel::build(files, read, warnings)
    }

    /// A Kotlin file: its package and declarations decide what other files' imports name.
    fn is_manifest(name: &str) -> bool {
        is_kotlin_source(name)
    }

    /// A Java file: a class Kotlin files may import.
    fn shaped_by(path: &str) -> bool {
        path.ends_with(".java")
    }

    fn is_empty(&self) -> bool {
        self.packages.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_list_each_files_top_level_names() {
        let (model, _, warnings) = crate::source::model::build_from(
            &[
                (
                    "core/src/main/kotlin/a/b/Box.kt",
                    "package a.b\n\nclass Box\nfun String.boxed() = 1\nprivate fun hidden() {}\ninternal val shared = 2\ntypealias Boxes = List<Box>\n",
                ),
                ("core/src/main/kotlin/a/b/Util.kt", "package a.b\nobject Util\n"),
                ("core/src/main/java/a/c/Legacy.java", "package a.c;\npublic class Legacy {}\n"),
                ("README.md", "no"),
            ],
            KotlinModel::build,
        );
        assert!(warnings.is_empty());
        assert_eq!(
            model.declaring("a.b", "boxed"),
            ["core/src/main/kotlin/a/b/Box.kt"]
        );
        assert_eq!(
            model.packages["a.b"][0].names,
            ["Box", "Boxes", "boxed", "shared"]
        );
        assert_eq!(
            model.declaring("a.c", "Legacy"),
            ["core/src/main/java/a/c/Legacy.java"]
        );
        assert!(model.declaring("a.b", "hidden").is_empty());
        assert!(
            KotlinModel::is_manifest("Box.kt") && !KotlinModel::is_manifest("build.gradle.kts")
        );
    }

    /// The grammar fails on a class whose constructor's modifier starts the next line (a nested
    /// `class Builder\ninternal constructor(…)`): the text is read with those lines joined, and
    /// only `P` is top-level.
    #[test]
    fn a_class_whose_constructor_starts_the_next_line_is_read_joined() {
        let (model, _, _) = crate::source::model::build_from(
            &[(
                "src/main/kotlin/a/P.kt",
                "package a\n\npublic class P(val x: Int) {\n  val name: String = \"\"\n\n  public class Builder\n  internal constructor(internal val name: String) {\n    fun build() = 1\n  }\n}\n\nfun after() = 2\n",
            )],
            KotlinModel::build,
        );
        assert_eq!(model.packages["a"][0].names, ["P", "after"]);
    }

    #[test]
    fn a_project_without_kotlin_has_no_model() {
        let (model, _, _) = crate::source::model::build_from(
            &[("src/main/java/a/A.java", "package a;\nclass A {}\n")],
            KotlinModel::build,
        );
        assert!(model.is_empty());
    }
}
