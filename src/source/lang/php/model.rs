//! PHP's packages, as composer sees them: each `composer.json` of the tree (none under `vendor/`)
//! with its autoload maps — `autoload` and `autoload-dev`, PSR-4 (a namespace prefix → the
//! directories whose files hold its classes, one class per file named for it) and PSR-0 (the
//! whole class name as a path, `_` in the class's own name a directory), and `classmap` and
//! `files` entries (listed, not read: a class in a classmap file is found only where its path
//! says its name). Directories are project-relative. Beside them, the functions and constants
//! PHP files declare outside classes (`super::declared`): what a call of a namespaced function
//! resolves through. A change to a `composer.json` or a PHP file rebuilds the model.

use std::collections::BTreeMap;

use crate::source::model::ecosystem::EcosystemModel;
use crate::source::model::files::{dir_of, normalize, FileIndex, ReadFile};

/// The autoload maps of the project's composer packages.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct PhpModel {
    /// Every PSR-4 and PSR-0 entry, longest prefix first (then by directory): composer tries
    /// the longest matching prefix first.
    pub autoload: Vec<Autoload>,
    /// The packages: each `composer.json`'s directory and `name`.
    pub packages: Vec<(String, String)>,
    /// The functions PHP files declare outside classes, by lowercase fully qualified name
    /// (`guzzlehttp\describe_type`), each with the files declaring it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub functions: BTreeMap<String, Vec<String>>,
    /// The constants declared with `const` outside classes (namespace lowercase, the name as
    /// written: `app\VERSION`), each with the files declaring it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub constants: BTreeMap<String, Vec<String>>,
}

/// One namespace prefix of an autoload map and one directory holding its classes.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Autoload {
    /// The namespace prefix, ending in `\` (`Slim\`), or `""` for every class.
    pub prefix: String,
    /// The directory, project-relative (`""` for the root).
    pub dir: String,
    /// PSR-0 rather than PSR-4.
    pub psr0: bool,
}

impl PhpModel {
    /// The autoload maps of every `composer.json` among `files`.
    pub fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        let mut model = PhpModel::default();
        let manifests: Vec<&str> = files
            .named("composer.json")
            .filter(|path| !path.split('/').any(|dir| dir == "vendor"))
            .collect();
        for manifest in manifests {
            let Some(text) = read.read(manifest) else {
                continue;
            };
            let json: serde_json::Value = match serde_json::from_str(&text) {
                Ok(json) => json,
                Err(error) => {
                    warnings.push(format!(
                        "{manifest}:{}: not valid JSON, its autoload map is left out: {error}",
                        error.line()
                    ));
                    continue;
                }
            };
            let dir = dir_of(manifest);
            let name = json["name"].as_str().unwrap_or("").to_string();
            model.packages.push((dir.to_string(), name));
            for section in ["autoload", "autoload-dev"] {
                for (key, psr0) in [("psr-4", false), ("psr-0", true)] {
                    let Some(map) = json[section][key].as_object() else {
                        continue;
                    };
                    for (prefix, dirs) in map {
                        for target in directories(dirs) {
                            let Some(dir) = normalize(dir, &target) else {
                                continue;
                            };
                            model.autoload.push(Autoload {
                                prefix: prefix.clone(),
                                dir,
                                psr0,
                            });
                        }
                    }
                }
            }
        }
        // Stable: a prefix's directories stay in the order composer.json lists them.
        model
            .autoload
            .sort_by_key(|entry| std::cmp::Reverse(entry.prefix.len()));
        model.autoload.dedup();
        let declared = super::declared::read_all(files, read);
        model.functions = declared.functions;
        model.constants = declared.constants;
        model
    }

    /// The files declaring the function `name` (fully qualified, no leading `\`; any case).
    pub fn function_files(&self, name: &str) -> &[String] {
        self.functions
            .get(&name.to_ascii_lowercase())
            .map_or(&[], Vec::as_slice)
    }

    /// The files declaring the constant `name` (fully qualified, no leading `\`): its namespace
    /// in any case, its own name as written.
    pub fn constant_files(&self, name: &str) -> &[String] {
        let key = match name.rsplit_once('\\') {
            Some((namespace, own)) => format!("{}\\{own}", namespace.to_ascii_lowercase()),
            None => name.to_string(),
        };
        self.constants.get(&key).map_or(&[], Vec::as_slice)
    }

    /// The files composer's autoloader would look for the class `name` (fully qualified, no
    /// leading `\`), in the order it tries them.
    pub fn candidates(&self, name: &str) -> Vec<String> {
        let mut out = Vec::new();
        for entry in &self.autoload {
            if !name.starts_with(entry.prefix.as_str()) {
                continue;
            }
            let relative = match entry.psr0 {
                true => psr0_path(name),
                false => format!("{}.php", name[entry.prefix.len()..].replace('\\', "/")),
            };
            let path = match entry.dir.is_empty() {
                true => relative,
                false => format!("{}/{relative}", entry.dir),
            };
            out.push(path);
        }
        out
    }

    /// Whether a class name falls under a namespace prefix the project's autoload maps declare
    /// (a class of the project's own, found or not).
    pub fn owns(&self, name: &str) -> bool {
        self.autoload
            .iter()
            .any(|entry| !entry.prefix.is_empty() && name.starts_with(entry.prefix.as_str()))
    }
}

/// A PSR-0 path: the namespace's `\` as `/`, the class's own `_` as `/`.
fn psr0_path(name: &str) -> String {
    let (namespace, class) = match name.rsplit_once('\\') {
        Some((namespace, class)) => (format!("{}/", namespace.replace('\\', "/")), class),
        None => (String::new(), name),
    };
    format!("{namespace}{}.php", class.replace('_', "/"))
}

/// The directories of one autoload entry: a string or a list of strings.
fn directories(value: &serde_json::Value) -> Vec<String> {
    match value {
        serde_json::Value::String(dir) => vec![dir.clone()],
        serde_json::Value::Array(dirs) => dirs
            .iter()
            .filter_map(|d| d.as_str().map(str::to_string))
            .collect(),
        _ => Vec::new(),
    }
}

impl EcosystemModel for PhpModel {
    const ECOSYSTEM: &'static str = "composer";

    fn build(files: &FileIndex, read: &dyn ReadFile, warnings: &mut Vec<String>) -> Self {
        PhpModel::build(files, read, warnings)
    }

    /// `composer.json`: its autoload maps decide where a class name leads; a PHP file: the
    /// functions and constants it declares decide where a call of one leads.
    fn is_manifest(name: &str) -> bool {
        name == "composer.json" || name.ends_with(".php")
    }

    fn is_empty(&self) -> bool {
        self.autoload.is_empty()
            && self.packages.is_empty()
            && self.functions.is_empty()
            && self.constants.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autoload_maps_give_the_files_of_a_class() {
        let (model, _, warnings) = crate::source::model::build_from(
            &[
                (
                    "composer.json",
                    r#"{"name": "a/b", "autoload": {"psr-4": {"Slim\\": "Slim", "Slim\\Routing\\": ["lib/routing/", "extra"]}, "psr-0": {"Legacy_": "old/"}}, "autoload-dev": {"psr-4": {"Slim\\Tests\\": "tests/"}}}"#,
                ),
                (
                    "tools/composer.json",
                    r#"{"autoload": {"psr-4": {"": "src/"}}}"#,
                ),
                (
                    "vendor/x/composer.json",
                    r#"{"autoload": {"psr-4": {"X\\": "src/"}}}"#,
                ),
            ],
            PhpModel::build,
        );
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(
            model.candidates("Slim\\Routing\\Route"),
            [
                "lib/routing/Route.php",
                "extra/Route.php",
                "Slim/Routing/Route.php",
                "tools/src/Slim/Routing/Route.php",
            ]
        );
        assert_eq!(
            model.candidates("Slim\\Tests\\AppTest"),
            [
                "tests/AppTest.php",
                "Slim/Tests/AppTest.php",
                "tools/src/Slim/Tests/AppTest.php"
            ]
        );
        assert_eq!(
            model.candidates("Legacy_Db_Table")[0],
            "old/Legacy/Db/Table.php"
        );
        assert!(model.owns("Slim\\Foo") && !model.owns("X\\Foo") && !model.owns("Psr\\Log"));
        assert_eq!(
            model.packages,
            [
                (String::new(), "a/b".to_string()),
                ("tools".to_string(), String::new())
            ]
        );
        assert!(PhpModel::is_manifest("composer.json") && PhpModel::is_manifest("Route.php"));
        assert!(!PhpModel::is_manifest("composer.lock"));
    }

    #[test]
    fn a_broken_manifest_is_a_warning_naming_its_line() {
        let (model, _, warnings) = crate::source::model::build_from(
            &[("composer.json", "{\n  \"autoload\": \n}")],
            PhpModel::build,
        );
        assert!(model.is_empty());
        assert_eq!(warnings.len(), 1);
        assert!(warnings[0].starts_with("composer.json:3:"), "{warnings:?}");
    }
}
