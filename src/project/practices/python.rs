//! Python linters, formatters and type checkers with the settings that change what a contributor
//! writes, read from the files each tool reads, in the tool's own precedence: Ruff (`.ruff.toml`,
//! `ruff.toml`, `[tool.ruff]`), flake8 (`.flake8`, `setup.cfg`, `tox.ini` `[flake8]`), Black and isort
//! (`[tool.black]`, `[tool.isort]`, `.isort.cfg`), mypy (`mypy.ini`, `.mypy.ini`, `[tool.mypy]`,
//! `setup.cfg` `[mypy]`), pyright (`pyrightconfig.json`, `[tool.pyright]`).

use super::{get, ini, push_items, toml_text, Practice, Sources};

pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
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

/// A JSON scalar or array as short text.
pub fn json_text(value: &serde_json::Value) -> String {
    match value {
        serde_json::Value::String(s) => s.clone(),
        serde_json::Value::Array(items) => {
            items.iter().map(json_text).collect::<Vec<_>>().join(", ")
        }
        serde_json::Value::Object(_) => "{…}".to_string(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
