//! Java source roots, found as Maven and Gradle lay them out: `src/<set>/java` below each module
//! directory (`src/main/java`, `src/test/java`, `src/integrationTest/java`; the module is the
//! directory holding `src/`, with its `pom.xml` or `build.gradle(.kts)` or not), and
//! `src/<set>/java-templates` (Maven's templating plugin). A file outside every root resolves from
//! the root its `package` declaration implies (`source::resolve::java`), so projects without a
//! build layout still resolve within themselves.
//!
//! A Java file that appears or vanishes shapes the model (`crate::source::model::shapes_model`): it may open a
//! root, and the files of its package may now name it without an import.

use crate::source::model::ecosystem::EcosystemModel;
use crate::source::model::files::FileIndex;
use crate::source::model::files::ReadFile;
use crate::source::model::packages::CodePackage;

/// The source roots of a project.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct JavaModel {
    /// Every root, sorted by directory.
    pub roots: Vec<SourceRoot>,
    /// Whether the project's root builds several modules (a `pom.xml` listing `<modules>`, a
    /// `settings.gradle(.kts)`): its modules are directories of any name (`app/`, `core/`), each
    /// with its own `src/`, so the whole project is its package. Left out of the serialised
    /// model when false.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub multi_module: bool,
}

/// One source root: `gson/src/main/java`, module `gson`, set `main`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SourceRoot {
    pub dir: String,
    /// The module directory (`""` at the project's root).
    pub module: String,
    /// The source set (`main`, `test`, …).
    pub set: String,
}

impl JavaModel {
    /// The roots of the `.java` files among `files`, and whether the root builds several modules.
    pub fn build(files: &FileIndex, read: &dyn ReadFile) -> JavaModel {
        let mut roots: Vec<SourceRoot> = files
            .under("")
            .filter(|path| path.ends_with(".java"))
            .filter_map(root_of)
            .collect();
        roots.sort_by(|a, b| a.dir.cmp(&b.dir));
        roots.dedup_by(|a, b| a.dir == b.dir);
        let multi_module = files.contains("settings.gradle")
            || files.contains("settings.gradle.kts")
            || (files.contains("pom.xml")
                && read
                    .read("pom.xml")
                    .is_some_and(|pom| pom.contains("<modules>")));
        JavaModel {
            roots,
            multi_module,
        }
    }

    /// Whether the project has no Java source root (nothing serialised then).
    pub fn is_empty(&self) -> bool {
        self.roots.is_empty()
    }

    /// The root holding `file`, if any.
    pub fn root_of(&self, file: &str) -> Option<&SourceRoot> {
        self.roots
            .iter()
            .filter(|root| file.starts_with(&format!("{}/", root.dir)))
            .max_by_key(|root| root.dir.len())
    }

    /// The roots whose types a file in `own` sees, in the order they are tried: its own root, the
    /// `main` roots of its module, then the `main` roots of the other modules (a module's tests
    /// see its main code; main code never sees tests).
    pub fn visible_from<'m>(&'m self, own: Option<&'m SourceRoot>) -> Vec<&'m SourceRoot> {
        let mut out: Vec<&SourceRoot> = own.into_iter().collect();
        let module = own.map(|root| root.module.as_str());
        let mains = self.roots.iter().filter(|root| root.set == "main");
        let (same, other): (Vec<&SourceRoot>, Vec<&SourceRoot>) =
            mains.partition(|root| Some(root.module.as_str()) == module);
        for root in same.into_iter().chain(other) {
            if !out.iter().any(|known| known.dir == root.dir) {
                out.push(root);
            }
        }
        out
    }
}

/// The root a `.java` path sits under by the Maven/Gradle layout: the last `src/<set>/java` (or
/// `java-templates`) in it.
fn root_of(path: &str) -> Option<SourceRoot> {
    let parts: Vec<&str> = path.split('/').collect();
    let found = (0..parts.len().saturating_sub(3))
        .rev()
        .find(|&i| parts[i] == "src" && matches!(parts[i + 2], "java" | "java-templates"))?;
    Some(SourceRoot {
        dir: parts[..found + 3].join("/"),
        module: parts[..found].join("/"),
        set: parts[found + 1].to_string(),
    })
}

/// Whether `path` is a Java source file: its appearance or disappearance can change resolution.
pub fn is_java_source(path: &str) -> bool {
    path.ends_with(".java")
}

impl EcosystemModel for JavaModel {
    const ECOSYSTEM: &'static str = "java";

    fn build(files: &FileIndex, read: &dyn ReadFile, _warnings: &mut Vec<String>) -> Self {
        JavaModel::build(files, read)
    }

    /// The root build files that say whether it builds several modules (Java's source roots come
    /// from where its files are).
    fn is_manifest(name: &str) -> bool {
        matches!(name, "pom.xml" | "settings.gradle" | "settings.gradle.kts")
    }

    /// A Java file: a source root, or a type its package's files may name without an import.
    fn shaped_by(path: &str) -> bool {
        is_java_source(path)
    }

    fn is_empty(&self) -> bool {
        JavaModel::is_empty(self) && !self.multi_module
    }

    /// A build of several modules is one package, the whole project; a single module's code is
    /// found by its conventional directories (`src/`).
    fn code_packages(&self, _files: &FileIndex) -> Vec<CodePackage> {
        match self.multi_module {
            true => vec![CodePackage::new(
                Self::ECOSYSTEM,
                None,
                "",
                vec![String::new()],
            )],
            false => Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn model(paths: &[&str]) -> JavaModel {
        JavaModel::build(
            &FileIndex::new(paths.iter().map(|p| p.to_string())),
            &|_: &str| None,
        )
    }

    #[test]
    fn roots_follow_the_maven_layout_of_each_module() {
        let model = model(&[
            "pom.xml",
            "gson/src/main/java/com/google/gson/Gson.java",
            "gson/src/test/java/com/google/gson/GsonTest.java",
            "gson/src/main/java-templates/com/google/gson/internal/GsonBuildConfig.java",
            "extras/src/main/java/com/google/gson/extras/X.java",
            "src/main/java/a/B.java",
            "src/main/resources/a.txt",
            "tools/Gen.java",
        ]);
        let dirs: Vec<(&str, &str, &str)> = model
            .roots
            .iter()
            .map(|r| (r.dir.as_str(), r.module.as_str(), r.set.as_str()))
            .collect();
        assert_eq!(
            dirs,
            [
                ("extras/src/main/java", "extras", "main"),
                ("gson/src/main/java", "gson", "main"),
                ("gson/src/main/java-templates", "gson", "main"),
                ("gson/src/test/java", "gson", "test"),
                ("src/main/java", "", "main"),
            ]
        );
        let test = model.root_of("gson/src/test/java/com/google/gson/GsonTest.java");
        let visible: Vec<&str> = model
            .visible_from(test)
            .iter()
            .map(|r| r.dir.as_str())
            .collect();
        assert_eq!(
            visible,
            [
                "gson/src/test/java",
                "gson/src/main/java",
                "gson/src/main/java-templates",
                "extras/src/main/java",
                "src/main/java",
            ]
        );
        assert!(model.root_of("tools/Gen.java").is_none());
    }

    /// A root `pom.xml` listing modules, or a Gradle settings file, makes the whole project the
    /// package `lexictl init` documents; one module is found by its `src/`.
    #[test]
    fn a_build_of_several_modules_is_one_package_the_whole_project() {
        let files = FileIndex::new(
            ["pom.xml", "core/pom.xml", "core/src/main/java/a/A.java"].map(String::from),
        );
        let pom = |rel: &str| {
            (rel == "pom.xml")
                .then(|| "<project><modules><module>core</module></modules></project>".to_string())
        };
        let model = JavaModel::build(&files, &pom);
        assert!(model.multi_module);
        let packages = model.code_packages(&files);
        assert_eq!(packages.len(), 1);
        assert_eq!(
            (packages[0].dir.as_str(), packages[0].roots.as_slice()),
            ("", [String::new()].as_slice())
        );
        let single = JavaModel::build(&files, &|_: &str| Some("<project/>".to_string()));
        assert!(!single.multi_module && single.code_packages(&files).is_empty());
        let gradle =
            FileIndex::new(["settings.gradle.kts", "app/src/main/java/A.java"].map(String::from));
        assert!(JavaModel::build(&gradle, &|_: &str| None).multi_module);
        assert!(JavaModel::is_manifest("pom.xml") && JavaModel::is_manifest("settings.gradle"));
    }
}
