//! Where the tests live and how their files are named. What runs them is each language's
//! `practices.rs` (pytest, cargo, a JavaScript test runner's config file, `go test`, Maven or Gradle).

use super::{push, Practice, Sources};
use crate::relpath::RelPath;
use crate::source::lang::files::{self, TEST_DIRS};
use crate::source::Language;

/// The most test directories named.
const MAX_TEST_DIRS: usize = 4;

/// Where the tests live, how their files are named, and what runs them.
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    // The biggest test directories first: where most tests are is where a new one goes.
    let mut dirs: Vec<(String, Vec<String>)> = Vec::new();
    for base in package_dirs(sources) {
        for name in TEST_DIRS {
            let dir = RelPath::new(&base).join(name).into_string();
            let code: Vec<String> = sources
                .file_names(&dir)
                .into_iter()
                .filter(|n| is_code(n))
                .collect();
            if !code.is_empty() {
                dirs.push((dir, code));
            }
        }
    }
    dirs.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    for (dir, code) in dirs.iter().take(sources.detail.limit(MAX_TEST_DIRS)) {
        // Support files every runner knows are not named after what they test.
        let mut refs: Vec<&String> = code
            .iter()
            .filter(|n| !matches!(n.as_str(), "conftest.py" | "__init__.py"))
            .collect();
        if refs.is_empty() {
            refs = code.iter().collect();
        }
        let count = match code.len() {
            1 => "1 file".to_string(),
            n => format!("{n} files"),
        };
        let practice = format!("Tests live in `{dir}/` ({count}); {}.", naming(&refs));
        push(found, "tests", practice, &format!("{dir}/"));
    }
}

/// The root, then each package one or two levels down (`tokio/`, `crates/core/`): the directories
/// with a manifest, where a test runner looks for tests.
fn package_dirs(sources: &Sources) -> Vec<String> {
    let mut dirs = vec![String::new()];
    for parent in dir_names(sources, "") {
        let mut found = false;
        if has_manifest(sources, &parent) {
            dirs.push(parent.clone());
            found = true;
        }
        if !found && !parent.starts_with('.') {
            for child in dir_names(sources, &parent) {
                let dir = format!("{parent}/{child}");
                if has_manifest(sources, &dir) {
                    dirs.push(dir);
                }
            }
        }
    }
    dirs
}

fn has_manifest(sources: &Sources, dir: &str) -> bool {
    files::package_manifests()
        .iter()
        .any(|m| sources.abs(&format!("{dir}/{m}")).is_file())
}

/// The names of the real (not symlinked) subdirectories of `dir`, sorted.
fn dir_names(sources: &Sources, dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(sources.abs(dir))
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_dir()))
        .filter_map(|entry| entry.file_name().into_string().ok())
        .filter(|name| !name.starts_with('.') && name != "node_modules" && name != "target")
        .collect();
    names.sort();
    names
}

/// Whether a file in a test directory is code: of a registry language, or of one whose tests are
/// worth naming before it is parsed ([`UNPARSED_TEST_CODE`]).
fn is_code(name: &str) -> bool {
    let ext = name.rsplit_once('.').map_or("", |(_, ext)| ext);
    Language::from_path(std::path::Path::new(name)).is_some() || UNPARSED_TEST_CODE.contains(&ext)
}

/// Extensions of test code in languages the registry does not parse yet (Ruby's specs): their
/// test directories are still where the tests live.
const UNPARSED_TEST_CODE: &[&str] = &["rb"];

/// The naming pattern most test files follow (`test_*.py`, `*.test.ts`, …), or examples.
fn naming(names: &[&String]) -> String {
    let patterns: [(&str, NameTest); 6] = [
        ("test_*.py", |n| {
            n.starts_with("test_") && n.ends_with(".py")
        }),
        ("*_test.*", |n| stem(n).ends_with("_test")),
        ("*.test.*", |n| stem(n).ends_with(".test")),
        ("*.spec.*", |n| stem(n).ends_with(".spec")),
        ("*_spec.*", |n| stem(n).ends_with("_spec")),
        ("conftest.py", |n| n == "conftest.py"),
    ];
    let best = patterns
        .iter()
        .map(|(pattern, matches)| (pattern, names.iter().filter(|n| matches(n)).count()))
        .max_by_key(|(_, count)| *count);
    match best {
        Some((pattern, count)) if count * 2 > names.len() => {
            format!("files are named `{pattern}`")
        }
        _ => {
            let examples: Vec<String> = names.iter().take(3).map(|n| format!("`{n}`")).collect();
            format!(
                "files are named after what they test, e.g. {}",
                examples.join(", ")
            )
        }
    }
}

/// Whether a file name follows a naming pattern.
type NameTest = fn(&str) -> bool;

fn stem(name: &str) -> &str {
    name.rsplit_once('.').map_or(name, |(stem, _)| stem)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_naming_most_test_files_follow_is_named() {
        let names: Vec<String> = ["test_app.py", "test_cli.py", "conftest.py"]
            .map(String::from)
            .to_vec();
        let refs: Vec<&String> = names.iter().collect();
        assert_eq!(naming(&refs), "files are named `test_*.py`");
        let names: Vec<String> = ["app.use.js", "res.json.js", "utils.js"]
            .map(String::from)
            .to_vec();
        let refs: Vec<&String> = names.iter().collect();
        assert_eq!(
            naming(&refs),
            "files are named after what they test, e.g. `app.use.js`, `res.json.js`, `utils.js`"
        );
    }
}
