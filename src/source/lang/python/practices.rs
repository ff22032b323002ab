//! Python's tooling conventions, read from the files each tool reads, in the tool's own
//! precedence: tox environments (`tox.ini`, `[tool.tox]`) and nox sessions (`@nox.session` in
//! `noxfile.py`, read as text); the linters, formatters and type checkers with the settings that
//! change what a contributor writes — Ruff (`.ruff.toml`, `ruff.toml`, `[tool.ruff]`), flake8
//! (`.flake8`, `setup.cfg`, `tox.ini` `[flake8]`), Black and isort (`[tool.black]`, `[tool.isort]`,
//! `.isort.cfg`), mypy (`mypy.ini`, `.mypy.ini`, `[tool.mypy]`, `setup.cfg` `[mypy]`), pyright
//! (`pyrightconfig.json`, `[tool.pyright]`); pytest as what runs the tests; `requires-python`.

use crate::source::lang::tooling::{
    get, ini, is_check, json_text, push, push_items, toml_text, Practice, Sources,
};

/// Python's practices.
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    tox(sources, found);
    nox(sources, found);
    style(sources, found);
    test_runner(sources, found);
    if let Some(pyproject) = sources.toml("pyproject.toml") {
        if let Some(version) =
            get(&pyproject, &["project", "requires-python"]).and_then(|v| v.as_str())
        {
            let practice = format!("Python {version} (requires-python).");
            push(found, "language", practice, "pyproject.toml");
        }
    }
}

/// The linters, formatters and type checkers.
fn style(sources: &Sources, found: &mut Vec<Practice>) {
    let pyproject = sources.toml("pyproject.toml");
    let tool = |name: &str| {
        pyproject
            .as_ref()
            .and_then(|p| get(p, &["tool", name]))
            .and_then(|v| v.as_table())
            .cloned()
    };
    ruff(sources, tool("ruff"), found);
    flake8(sources, found);
    for (name, what, keys) in [
        ("black", "Black formats Python", BLACK_KEYS),
        ("isort", "isort orders imports", ISORT_KEYS),
    ] {
        if let Some(table) = tool(name) {
            let settings = table_settings(&table, keys);
            tool_practice(found, what, settings, "pyproject.toml");
        }
    }
    mypy(sources, tool("mypy"), found);
    pyright(sources, tool("pyright"), found);
}

const RUFF_KEYS: &[&str] = &["line-length", "target-version", "fix", "preview"];
const RUFF_LINT_KEYS: &[&str] = &[
    "select",
    "extend-select",
    "ignore",
    "extend-ignore",
    "fixable",
];
const BLACK_KEYS: &[&str] = &[
    "line-length",
    "target-version",
    "skip-string-normalization",
    "skip-magic-trailing-comma",
    "preview",
];
const ISORT_KEYS: &[&str] = &[
    "profile",
    "line_length",
    "force_single_line",
    "force_sort_within_sections",
    "known_first_party",
];
const MYPY_KEYS: &[&str] = &[
    "strict",
    "python_version",
    "disallow_untyped_defs",
    "disallow_any_generics",
    "warn_unused_ignores",
    "warn_return_any",
    "no_implicit_optional",
    "files",
];
const PYRIGHT_KEYS: &[&str] = &["typeCheckingMode", "pythonVersion", "strict", "include"];
const FLAKE8_KEYS: &[&str] = &[
    "max-line-length",
    "max-complexity",
    "select",
    "extend-select",
    "ignore",
    "extend-ignore",
];

/// "What: key value; key value." with every setting as an item.
fn tool_practice(found: &mut Vec<Practice>, what: &str, settings: Vec<String>, source: &str) {
    let practice = if settings.is_empty() {
        format!("{what}.")
    } else {
        format!("{what}: {}.", settings.join("; "))
    };
    push_items(found, "style", practice, source, settings);
}

/// The `keys` of `table` that are set, as `key value` (`key` alone for `true`).
pub fn table_settings(table: &toml::Table, keys: &[&str]) -> Vec<String> {
    keys.iter()
        .filter_map(|key| {
            let value = table.get(*key)?;
            Some(match value {
                toml::Value::Boolean(true) => (*key).to_string(),
                other => format!("{key} {}", toml_text(other)),
            })
        })
        .collect()
}

fn ruff(sources: &Sources, in_pyproject: Option<toml::Table>, found: &mut Vec<Practice>) {
    let own = [".ruff.toml", "ruff.toml"]
        .into_iter()
        .find(|file| sources.is_file(file));
    let (table, source) = match own {
        Some(file) => match sources.toml(file) {
            Some(table) => (table, file),
            None => return,
        },
        None => match in_pyproject {
            Some(table) => (table, "pyproject.toml"),
            None => return,
        },
    };
    let mut settings = table_settings(&table, RUFF_KEYS);
    // `[lint]` since Ruff 0.2; the same keys at the top level before.
    let lint = table
        .get("lint")
        .and_then(|v| v.as_table())
        .unwrap_or(&table);
    settings.extend(table_settings(lint, RUFF_LINT_KEYS));
    for section in ["isort", "pydocstyle", "flake8-quotes"] {
        let nested = lint.get(section).or_else(|| table.get(section));
        if let Some(nested) = nested.and_then(|v| v.as_table()) {
            let keys: Vec<String> = nested
                .iter()
                .map(|(key, value)| match value {
                    toml::Value::Boolean(true) => key.clone(),
                    other => format!("{key} {}", toml_text(other)),
                })
                .collect();
            if !keys.is_empty() {
                settings.push(format!("{section} {}", keys.join(", ")));
            }
        }
    }
    if let Some(format) = table.get("format").and_then(|v| v.as_table()) {
        let keys = ["quote-style", "indent-style", "docstring-code-format"];
        settings.extend(
            table_settings(format, &keys)
                .into_iter()
                .map(|s| format!("format {s}")),
        );
    }
    tool_practice(found, "Ruff lints and formats Python", settings, source);
}

/// The first INI file among `files` with a `[section]`, and that section.
fn ini_section(sources: &Sources, files: &[&str], section: &str) -> Option<(String, ini::Section)> {
    for file in files {
        let Some(text) = sources.text(file) else {
            continue;
        };
        match ini::parse(&text) {
            Ok(sections) => {
                if let Some(found) = sections.into_iter().find(|s| s.name == section) {
                    return Some((file.to_string(), found));
                }
            }
            Err(message) => sources.warn(file, format!("skipped, does not parse: {message}")),
        }
    }
    None
}

fn ini_settings(section: &ini::Section, keys: &[&str]) -> Vec<String> {
    keys.iter()
        .filter_map(|key| {
            let value = section.get(key)?;
            let value = ini::values(value).join(", ");
            Some(match value.as_str() {
                "true" | "True" | "1" => (*key).to_string(),
                _ => format!("{key} {value}"),
            })
        })
        .collect()
}

fn flake8(sources: &Sources, found: &mut Vec<Practice>) {
    let files = [".flake8", "setup.cfg", "tox.ini"];
    if let Some((file, section)) = ini_section(sources, &files, "flake8") {
        let settings = ini_settings(&section, FLAKE8_KEYS);
        tool_practice(found, "flake8 lints Python", settings, &file);
    }
}

fn mypy(sources: &Sources, in_pyproject: Option<toml::Table>, found: &mut Vec<Practice>) {
    const WHAT: &str = "mypy type-checks Python";
    if let Some((file, section)) = ini_section(sources, &["mypy.ini", ".mypy.ini"], "mypy") {
        return tool_practice(found, WHAT, ini_settings(&section, MYPY_KEYS), &file);
    }
    if let Some(table) = in_pyproject {
        return tool_practice(
            found,
            WHAT,
            table_settings(&table, MYPY_KEYS),
            "pyproject.toml",
        );
    }
    if let Some((file, section)) = ini_section(sources, &["setup.cfg"], "mypy") {
        tool_practice(found, WHAT, ini_settings(&section, MYPY_KEYS), &file);
    }
}

fn pyright(sources: &Sources, in_pyproject: Option<toml::Table>, found: &mut Vec<Practice>) {
    const WHAT: &str = "pyright type-checks Python";
    if let Some(config) = sources.json("pyrightconfig.json") {
        let settings = PYRIGHT_KEYS
            .iter()
            .filter_map(|key| {
                let value = config.get(*key)?;
                Some(format!("{key} {}", json_text(value)))
            })
            .collect();
        return tool_practice(found, WHAT, settings, "pyrightconfig.json");
    }
    if let Some(table) = in_pyproject {
        tool_practice(
            found,
            WHAT,
            table_settings(&table, PYRIGHT_KEYS),
            "pyproject.toml",
        );
    }
}

/// tox's environments and the commands of the ones that are not a Python version.
fn tox(sources: &Sources, found: &mut Vec<Practice>) {
    let mut envs: Vec<(String, Vec<String>)> = Vec::new();
    let (mut listed, source) = if let Some(text) = sources.text("tox.ini") {
        let sections = match ini::parse(&text) {
            Ok(sections) => sections,
            Err(message) => {
                return sources.warn("tox.ini", format!("skipped, does not parse: {message}"));
            }
        };
        let listed = sections
            .iter()
            .find(|s| s.name == "tox")
            .and_then(|s| s.get("envlist").or_else(|| s.get("env_list")))
            .map(ini::values)
            .unwrap_or_default();
        for section in &sections {
            if let Some(env) = section.name.strip_prefix("testenv:") {
                let commands = section.get("commands").map(ini::values).unwrap_or_default();
                let shown = sources.detail.limit(2);
                envs.push((env.to_string(), commands.into_iter().take(shown).collect()));
            }
        }
        (listed, "tox.ini")
    } else if let Some(tox) = sources.toml("pyproject.toml").and_then(|p| {
        get(&p, &["tool", "tox"])
            .and_then(|t| t.as_table())
            .cloned()
    }) {
        let listed = tox
            .get("env_list")
            .or_else(|| tox.get("envlist"))
            .and_then(|v| v.as_array())
            .map(|items| items.iter().map(toml_text).collect())
            .unwrap_or_default();
        for (env, table) in tox
            .get("env")
            .and_then(|e| e.as_table())
            .into_iter()
            .flatten()
        {
            let commands = table
                .get("commands")
                .and_then(|c| c.as_array())
                .map(|runs| {
                    let shown = sources.detail.limit(2);
                    runs.iter().filter_map(tox_command).take(shown).collect()
                })
                .unwrap_or_default();
            envs.push((env.clone(), commands));
        }
        (listed, "pyproject.toml")
    } else {
        return;
    };
    for (env, _) in &envs {
        if !listed.contains(env) {
            listed.push(env.clone());
        }
    }
    if listed.is_empty() {
        return;
    }
    // The named environments first: the Python versions all run the same tests.
    listed.sort_by_key(|env| is_python_version(env));
    let practice = format!(
        "tox environments: {} (`tox -e <env>`).",
        sources.detail.list(&listed, 6)
    );
    push_items(found, "commands", practice, source, listed);
    for (env, commands) in envs
        .iter()
        .filter(|(env, c)| is_check(env) && !c.is_empty())
    {
        let runs: Vec<String> = commands
            .iter()
            .map(|c| format!("`{}`", sources.detail.shorten(c, 80)))
            .collect();
        let practice = format!("`tox -e {env}` runs {}.", runs.join(", "));
        push(found, "commands", practice, source);
    }
}

/// `py312`, `py3.12`, `pypy3.11`, `py3.14t`: an environment named for the interpreter.
fn is_python_version(env: &str) -> bool {
    let rest = env.strip_prefix("pypy").or_else(|| env.strip_prefix("py"));
    rest.is_some_and(|r| !r.is_empty() && r.starts_with(|c: char| c.is_ascii_digit()))
}

/// One tox command (`["pytest", "-v", {replace = …}]`) as a shell line, without substitutions.
fn tox_command(value: &toml::Value) -> Option<String> {
    let words: Vec<&str> = value
        .as_array()?
        .iter()
        .filter_map(|w| w.as_str())
        .collect();
    (!words.is_empty()).then(|| words.join(" "))
}

/// The sessions a `noxfile.py` declares: the function under each `@nox.session` (or its `name=`).
fn nox(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(text) = sources.text("noxfile.py") else {
        return;
    };
    let mut sessions = Vec::new();
    let mut decorated: Option<Option<String>> = None;
    for line in text.lines().map(str::trim) {
        if line.starts_with("@nox.session") || line.starts_with("@session") {
            let name = line
                .split_once("name=")
                .and_then(|(_, rest)| {
                    rest.trim_start_matches(['"', '\''])
                        .split(['"', '\''])
                        .next()
                })
                .map(str::to_string);
            decorated = Some(name);
        } else if let Some(def) = line.strip_prefix("def ") {
            if let Some(explicit) = decorated.take() {
                let name = def.split('(').next().unwrap_or("").trim().to_string();
                sessions.push(explicit.unwrap_or(name));
            }
        }
    }
    if sessions.is_empty() {
        return;
    }
    let practice = format!(
        "nox sessions: {} (`nox -s <session>`).",
        sources.detail.list(&sessions, 10)
    );
    push_items(found, "commands", practice, "noxfile.py", sessions);
}

/// What runs the tests, from the file that configures pytest.
fn test_runner(sources: &Sources, found: &mut Vec<Practice>) {
    if let Some(pyproject) = sources.toml("pyproject.toml") {
        let options = ["tool", "pytest", "ini_options"];
        if let Some(paths) = get(&pyproject, &[options.as_slice(), &["testpaths"]].concat()) {
            let paths = toml_list(paths);
            let strict = get(
                &pyproject,
                &[options.as_slice(), &["filterwarnings"]].concat(),
            )
            .and_then(toml::Value::as_array)
            .is_some_and(|filters| filters.iter().any(|f| f.as_str() == Some("error")));
            let warnings = match strict {
                true => "; a warning fails the test (`filterwarnings = error`)",
                false => "",
            };
            let practice = format!("pytest runs the tests (testpaths: {paths}){warnings}.");
            return push(found, "tests", practice, "pyproject.toml");
        }
    }
    if sources.is_file("pytest.ini") {
        push(
            found,
            "tests",
            "pytest runs the tests.".to_string(),
            "pytest.ini",
        );
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environments_named_for_an_interpreter_are_python_versions() {
        assert!(is_python_version("py3.14t") && is_python_version("pypy3.11"));
        assert!(!is_python_version("pyright") && !is_python_version("style"));
    }

    #[test]
    fn settings_name_the_keys_that_are_set() {
        let table: toml::Table =
            toml::from_str("strict = true\npython_version = \"3.10\"\npretty = true\n").unwrap();
        assert_eq!(
            table_settings(&table, MYPY_KEYS),
            ["strict", "python_version 3.10"]
        );
    }
}
