//! The practices a project's own files declare, read where its tools read them: where the tests
//! live and how they are named, which test runner, linters and formatters are configured, the
//! language level (`edition`/`rust-version`, `requires-python`, `engines.node`, ES modules or
//! CommonJS), the editor settings and the CI workflows. `lexi conventions` shows them beside the
//! Local Conventions agents add, each with the file it comes from, so that a fresh library already
//! answers "what are this project's conventions?".
//!
//! Only the root directory and its test directories are read (a few small files): cheap enough for
//! every call, and never through a symlink.

use std::collections::BTreeMap;

use super::Project;

/// One practice: what it is about, what the project does, and the file that says so.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Practice {
    /// `tests`, `style`, `language`, `editor`, `ci` or `guide`.
    pub topic: &'static str,
    pub practice: String,
    /// Project-relative file (or directory) it was read from.
    pub source: String,
}

/// Directories that hold tests, by the names test runners look for.
const TEST_DIRS: &[&str] = &["tests", "test", "spec", "__tests__", "testing"];
/// Linter and formatter configuration files: (file, what it configures).
const TOOL_FILES: &[(&str, &str)] = &[
    ("ruff.toml", "Ruff lints and formats Python"),
    (".ruff.toml", "Ruff lints and formats Python"),
    (".flake8", "flake8 lints Python"),
    ("mypy.ini", "mypy type-checks Python"),
    (
        ".pre-commit-config.yaml",
        "pre-commit runs hooks before each commit",
    ),
    ("eslint.config.js", "ESLint lints the code"),
    ("eslint.config.mjs", "ESLint lints the code"),
    ("eslint.config.ts", "ESLint lints the code"),
    (".eslintrc", "ESLint lints the code"),
    (".eslintrc.js", "ESLint lints the code"),
    (".eslintrc.json", "ESLint lints the code"),
    (".eslintrc.yml", "ESLint lints the code"),
    (".eslintrc.yaml", "ESLint lints the code"),
    (".prettierrc", "Prettier formats the code"),
    (".prettierrc.json", "Prettier formats the code"),
    (".prettierrc.js", "Prettier formats the code"),
    ("prettier.config.js", "Prettier formats the code"),
    ("biome.json", "Biome lints and formats the code"),
    ("rustfmt.toml", "rustfmt formats Rust"),
    (".rustfmt.toml", "rustfmt formats Rust"),
    ("clippy.toml", "Clippy lints Rust"),
    ("deny.toml", "cargo-deny checks dependencies and licences"),
];
/// Contribution guides, in the order they are looked for.
const GUIDES: &[&str] = &[
    "CONTRIBUTING.md",
    "CONTRIBUTING.rst",
    ".github/CONTRIBUTING.md",
    "docs/contributing.rst",
    "docs/contributing.md",
];
/// The most practices shown of one topic.
const MAX_PER_TOPIC: usize = 6;
/// The most test directories named.
const MAX_TEST_DIRS: usize = 4;
/// Test runner configuration files: (file, what runs the tests).
const RUNNER_FILES: &[(&str, &str)] = &[
    ("vitest.config.ts", "Vitest runs the unit tests"),
    ("vitest.config.js", "Vitest runs the unit tests"),
    ("vitest.config.mts", "Vitest runs the unit tests"),
    ("jest.config.js", "Jest runs the tests"),
    ("jest.config.ts", "Jest runs the tests"),
    (
        "playwright.config.ts",
        "Playwright runs the end-to-end tests",
    ),
    (".mocharc.yml", "Mocha runs the tests"),
    (".mocharc.json", "Mocha runs the tests"),
];

/// Every practice the project's root files declare, grouped by topic in a fixed order.
pub fn detect(project: &Project) -> Vec<Practice> {
    let mut found = Vec::new();
    tests(project, &mut found);
    language(project, &mut found);
    style(project, &mut found);
    editor(project, &mut found);
    ci(project, &mut found);
    guide(project, &mut found);
    let mut per_topic: BTreeMap<&str, usize> = BTreeMap::new();
    found.retain(|p| {
        let n = per_topic.entry(p.topic).or_default();
        *n += 1;
        *n <= MAX_PER_TOPIC
    });
    found
}

fn push(found: &mut Vec<Practice>, topic: &'static str, practice: String, source: &str) {
    found.push(Practice {
        topic,
        practice,
        source: source.to_string(),
    });
}

fn read_toml(project: &Project, rel: &str) -> Option<toml::Table> {
    toml::from_str(&project.read_to_string(rel).ok()?).ok()
}

fn read_json(project: &Project, rel: &str) -> Option<serde_json::Value> {
    serde_json::from_str(&project.read_to_string(rel).ok()?).ok()
}

fn get<'a>(table: &'a toml::Table, path: &[&str]) -> Option<&'a toml::Value> {
    let (last, parents) = path.split_last()?;
    let mut table = table;
    for key in parents {
        table = table.get(*key)?.as_table()?;
    }
    table.get(*last)
}

/// The file names of a real (not symlinked) directory, sorted; empty when it is not one.
fn file_names(project: &Project, dir: &str) -> Vec<String> {
    let path = project.abs(dir);
    let is_dir = std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_dir());
    if !is_dir {
        return Vec::new();
    }
    let mut names: Vec<String> = std::fs::read_dir(&path)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|entry| entry.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|entry| entry.file_name().into_string().ok())
        .collect();
    names.sort();
    names
}

/// Where the tests live, how their files are named, and what runs them.
fn tests(project: &Project, found: &mut Vec<Practice>) {
    // The biggest test directories first: where most tests are is where a new one goes.
    let mut dirs: Vec<(String, Vec<String>)> = Vec::new();
    for base in package_dirs(project) {
        for name in TEST_DIRS {
            let dir = if base.is_empty() {
                name.to_string()
            } else {
                format!("{base}/{name}")
            };
            let code: Vec<String> = file_names(project, &dir)
                .into_iter()
                .filter(|n| is_code(n))
                .collect();
            if !code.is_empty() {
                dirs.push((dir, code));
            }
        }
    }
    dirs.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then_with(|| a.0.cmp(&b.0)));
    for (dir, code) in dirs.iter().take(MAX_TEST_DIRS) {
        let refs: Vec<&String> = code.iter().collect();
        let count = match code.len() {
            1 => "1 file".to_string(),
            n => format!("{n} files"),
        };
        let practice = format!("Tests live in `{dir}/` ({count}); {}.", naming(&refs));
        push(found, "tests", practice, &format!("{dir}/"));
    }
    if let Some(runner) = test_runner(project) {
        push(found, "tests", runner.0, &runner.1);
    }
    for (file, runner) in RUNNER_FILES {
        if project.abs(file).is_file() {
            push(found, "tests", format!("{runner}."), file);
        }
    }
}

/// The root, then each package one or two levels down (`tokio/`, `crates/core/`): the directories
/// with a manifest, where a test runner looks for tests.
fn package_dirs(project: &Project) -> Vec<String> {
    let mut dirs = vec![String::new()];
    for parent in dir_names(project, "") {
        let mut found = false;
        if has_manifest(project, &parent) {
            dirs.push(parent.clone());
            found = true;
        }
        if !found && !parent.starts_with('.') {
            for child in dir_names(project, &parent) {
                let dir = format!("{parent}/{child}");
                if has_manifest(project, &dir) {
                    dirs.push(dir);
                }
            }
        }
    }
    dirs
}

fn has_manifest(project: &Project, dir: &str) -> bool {
    ["Cargo.toml", "package.json", "pyproject.toml"]
        .iter()
        .any(|m| project.abs(&format!("{dir}/{m}")).is_file())
}

/// The names of the real (not symlinked) subdirectories of `dir`, sorted.
fn dir_names(project: &Project, dir: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(project.abs(dir))
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

fn is_code(name: &str) -> bool {
    let ext = name.rsplit_once('.').map_or("", |(_, ext)| ext);
    matches!(
        ext,
        "rs" | "py" | "js" | "mjs" | "cjs" | "ts" | "mts" | "tsx" | "jsx" | "go" | "rb"
    )
}

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

/// The command that runs the tests, from the manifest that declares it.
fn test_runner(project: &Project) -> Option<(String, String)> {
    if let Some(script) = read_json(project, "package.json")
        .as_ref()
        .and_then(|json| json.pointer("/scripts/test")?.as_str().map(str::to_string))
    {
        return Some((
            format!("`npm test` runs `{}`.", shorten(&script, 120)),
            "package.json".to_string(),
        ));
    }
    if let Some(pyproject) = read_toml(project, "pyproject.toml") {
        if let Some(paths) = get(&pyproject, &["tool", "pytest", "ini_options", "testpaths"]) {
            let paths = toml_list(paths);
            return Some((
                format!("pytest runs the tests (testpaths: {paths})."),
                "pyproject.toml".to_string(),
            ));
        }
    }
    for (file, runner) in [
        ("pytest.ini", "pytest runs the tests."),
        ("tox.ini", "tox runs the tests in each environment."),
        ("noxfile.py", "nox runs the test sessions."),
    ] {
        if project.abs(file).is_file() {
            return Some((runner.to_string(), file.to_string()));
        }
    }
    project
        .abs("Cargo.toml")
        .is_file()
        .then(|| ("`cargo test` runs unit tests (`#[cfg(test)]` modules beside the code) and the integration tests.".to_string(), "Cargo.toml".to_string()))
}

fn toml_list(value: &toml::Value) -> String {
    match value {
        toml::Value::Array(items) => items
            .iter()
            .filter_map(|v| v.as_str())
            .map(|s| format!("`{s}`"))
            .collect::<Vec<_>>()
            .join(", "),
        other => format!("`{}`", other.as_str().unwrap_or_default()),
    }
}

fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    format!("{cut}…")
}

/// Language levels and module systems the manifests pin.
fn language(project: &Project, found: &mut Vec<Practice>) {
    if let Some(cargo) = read_toml(project, "Cargo.toml") {
        let edition = get(&cargo, &["package", "edition"])
            .or_else(|| get(&cargo, &["workspace", "package", "edition"]))
            .and_then(|v| v.as_str());
        let msrv = get(&cargo, &["package", "rust-version"])
            .or_else(|| get(&cargo, &["workspace", "package", "rust-version"]))
            .and_then(|v| v.as_str());
        let practice = match (edition, msrv) {
            (Some(e), Some(v)) => Some(format!("Rust edition {e}; supports Rust {v} and later (rust-version): no newer language or std features.")),
            (Some(e), None) => Some(format!("Rust edition {e}.")),
            (None, Some(v)) => Some(format!("Supports Rust {v} and later (rust-version).")),
            (None, None) => None,
        };
        if let Some(practice) = practice {
            push(found, "language", practice, "Cargo.toml");
        }
        if get(&cargo, &["lints"])
            .or_else(|| get(&cargo, &["workspace", "lints"]))
            .is_some()
        {
            let practice = "Lint levels are set in Cargo.toml (`[lints]`).".to_string();
            push(found, "style", practice, "Cargo.toml");
        }
    }
    if let Some(pyproject) = read_toml(project, "pyproject.toml") {
        if let Some(version) =
            get(&pyproject, &["project", "requires-python"]).and_then(|v| v.as_str())
        {
            let practice = format!("Python {version} (requires-python).");
            push(found, "language", practice, "pyproject.toml");
        }
        python_tools(&pyproject, found);
    }
    if let Some(package) = read_json(project, "package.json") {
        node_language(project, &package, found);
    }
}

/// Python tools configured in `pyproject.toml`'s `[tool.*]` tables.
fn python_tools(pyproject: &toml::Table, found: &mut Vec<Practice>) {
    let tools = [
        ("ruff", "Ruff lints and formats Python"),
        ("black", "Black formats Python"),
        ("isort", "isort orders imports"),
        ("mypy", "mypy type-checks Python"),
        ("pyright", "pyright type-checks Python"),
        ("coverage", "coverage.py measures test coverage"),
    ];
    for (tool, what) in tools {
        let Some(table) = get(pyproject, &["tool", tool]).and_then(|v| v.as_table()) else {
            continue;
        };
        let mut practice = what.to_string();
        if let Some(length) = table.get("line-length").and_then(|v| v.as_integer()) {
            practice.push_str(&format!(" (line length {length})"));
        }
        if table.get("strict").and_then(|v| v.as_bool()) == Some(true) {
            practice.push_str(" (strict)");
        }
        practice.push('.');
        push(found, "style", practice, "pyproject.toml");
    }
}

fn node_language(project: &Project, package: &serde_json::Value, found: &mut Vec<Practice>) {
    if let Some(node) = package.pointer("/engines/node").and_then(|v| v.as_str()) {
        let practice = format!("Node.js {node} (engines).");
        push(found, "language", practice, "package.json");
    }
    let module = package.get("type").and_then(|v| v.as_str()) == Some("module");
    let practice = match module {
        true => "ES modules (`\"type\": \"module\"`): `import`/`export`, not `require`.",
        false => "CommonJS modules (no `\"type\": \"module\"`): `require`/`module.exports` in `.js` files.",
    };
    push(found, "language", practice.to_string(), "package.json");
    if let Some(strict) = read_json(project, "tsconfig.json")
        .as_ref()
        .and_then(|ts| ts.pointer("/compilerOptions/strict")?.as_bool())
    {
        let practice = format!(
            "TypeScript with `strict: {strict}`{}.",
            if strict {
                ": no implicit `any`, null checks on"
            } else {
                ""
            }
        );
        push(found, "language", practice, "tsconfig.json");
    }
}

/// Linters and formatters configured by their own files (or `package.json` keys).
fn style(project: &Project, found: &mut Vec<Practice>) {
    // A tool already configured in a manifest (Ruff in pyproject.toml) is said once.
    let mut seen: Vec<String> = found.iter().map(|p| p.practice.clone()).collect();
    for (file, what) in TOOL_FILES {
        if !project.abs(file).is_file() || seen.iter().any(|s| s.starts_with(what)) {
            continue;
        }
        seen.push(what.to_string());
        let mut practice = format!("{what}.");
        if *file == ".pre-commit-config.yaml" {
            if let Some(hooks) = pre_commit_hooks(project) {
                practice = format!("{what}: {hooks}.");
            }
        }
        push(found, "style", practice, file);
    }
    if let Some(package) = read_json(project, "package.json") {
        for (key, what) in [
            ("eslintConfig", "ESLint lints the code"),
            ("prettier", "Prettier formats the code"),
        ] {
            if package.get(key).is_some() && !seen.iter().any(|s| s.starts_with(what)) {
                push(found, "style", format!("{what}."), "package.json");
            }
        }
    }
}

/// The hook ids of `.pre-commit-config.yaml`, at most eight.
fn pre_commit_hooks(project: &Project) -> Option<String> {
    let text = project.read_to_string(".pre-commit-config.yaml").ok()?;
    let value: serde_yaml::Value = serde_yaml::from_str(&text).ok()?;
    let ids: Vec<String> = value
        .get("repos")?
        .as_sequence()?
        .iter()
        .filter_map(|repo| repo.get("hooks")?.as_sequence())
        .flatten()
        .filter_map(|hook| hook.get("id")?.as_str().map(|id| format!("`{id}`")))
        .take(8)
        .collect();
    (!ids.is_empty()).then(|| ids.join(", "))
}

/// `.editorconfig`'s settings for every file (`[*]`).
fn editor(project: &Project, found: &mut Vec<Practice>) {
    let Ok(text) = project.read_to_string(".editorconfig") else {
        return;
    };
    let mut sections: Vec<(String, Vec<String>)> = Vec::new();
    for line in text.lines().map(str::trim) {
        if let Some(glob) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            sections.push((glob.to_string(), Vec::new()));
            continue;
        }
        let (Some((key, value)), Some((_, settings))) = (line.split_once('='), sections.last_mut())
        else {
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if matches!(
            key,
            "indent_style" | "indent_size" | "end_of_line" | "max_line_length"
        ) {
            settings.push(format!("{key} = {value}"));
        }
    }
    for (glob, settings) in sections.iter().filter(|(_, s)| !s.is_empty()).take(3) {
        let files = match glob.as_str() {
            "*" => "Every file".to_string(),
            glob => format!("`{glob}`"),
        };
        let practice = format!("{files}: {}.", settings.join(", "));
        push(found, "editor", practice, ".editorconfig");
    }
}

/// The GitHub Actions workflows: a change must pass them.
fn ci(project: &Project, found: &mut Vec<Practice>) {
    let dir = ".github/workflows";
    let names: Vec<String> = file_names(project, dir)
        .into_iter()
        .filter(|n| n.ends_with(".yml") || n.ends_with(".yaml"))
        .collect();
    if names.is_empty() {
        return;
    }
    let shown: Vec<String> = names.iter().take(6).map(|n| format!("`{n}`")).collect();
    let more = names.len().saturating_sub(shown.len());
    let practice = format!(
        "CI runs GitHub Actions workflows {}{}.",
        shown.join(", "),
        if more > 0 {
            format!(" and {more} more")
        } else {
            String::new()
        }
    );
    push(found, "ci", practice, &format!("{dir}/"));
}

/// The contribution guide, which states the rest.
fn guide(project: &Project, found: &mut Vec<Practice>) {
    if let Some(file) = GUIDES.iter().find(|f| project.abs(f).is_file()) {
        let practice = format!("The contribution guide is {file}: read it before a change.");
        push(found, "guide", practice, file);
    }
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
