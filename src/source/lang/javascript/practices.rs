//! JavaScript's and TypeScript's tooling conventions, read where their tools read them: the
//! `package.json` scripts that test, lint or format (run by the package manager its lockfile or
//! `packageManager` names), ESLint's rules (`.eslintrc*`, `eslintConfig` in package.json, a flat
//! `eslint.config.*` scanned as text — never run), Prettier's options, the tools configured by a
//! file alone (Biome, oxlint, dprint, a JavaScript Prettier or ESLint config), the Node.js version
//! (`engines`), ES modules or CommonJS, TypeScript's `strict`, and the test runner's config file
//! (Vitest, Jest, Playwright, Mocha).

use crate::source::lang::tooling::{is_check, json_text, push, push_items, Practice, Sources};

/// The most rules or options named in one line (the rest are counted).
const SHOWN: usize = 10;
/// The most check scripts listed.
const SCRIPTS_SHOWN: usize = 6;

/// Configuration files of tools whose settings are not summarised: (file, what it does).
const NAMED_ONLY: &[(&str, &str)] = &[
    ("biome.json", "Biome lints and formats the code"),
    (".oxfmtrc.json", "oxfmt formats the code"),
    (".oxlintrc.json", "oxlint lints the code"),
    ("dprint.json", "dprint formats the code"),
    (".prettierrc.js", "Prettier formats the code"),
    (".prettierrc.cjs", "Prettier formats the code"),
    (".prettierrc.mjs", "Prettier formats the code"),
    ("prettier.config.js", "Prettier formats the code"),
    ("prettier.config.mjs", "Prettier formats the code"),
    (".eslintrc.js", "ESLint lints the code"),
    (".eslintrc.cjs", "ESLint lints the code"),
];

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

/// The JavaScript family's practices (TypeScript's too).
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    scripts(sources, found);
    eslint(sources, found);
    prettier(sources, found);
    for (file, what) in NAMED_ONLY {
        let said = found.iter().any(|p| p.practice.starts_with(what));
        if !said && sources.is_file(file) {
            push(
                found,
                "style",
                format!("{what} (configured in {file})."),
                file,
            );
        }
    }
    for (file, runner) in RUNNER_FILES {
        if sources.is_file(file) {
            push(found, "tests", format!("{runner}."), file);
        }
    }
    if let Some(package) = sources.json("package.json") {
        node(sources, &package, found);
    }
}

/// The package manager that runs the scripts: the `packageManager` field, else the lockfile.
fn package_manager(sources: &Sources, package: &serde_json::Value) -> &'static str {
    let declared = package
        .get("packageManager")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    for (name, lockfile) in [
        ("pnpm", "pnpm-lock.yaml"),
        ("yarn", "yarn.lock"),
        ("bun", "bun.lockb"),
    ] {
        if declared.starts_with(name) || sources.is_file(lockfile) {
            return name;
        }
    }
    "npm"
}

/// `package.json` scripts that test, lint, format or check, `test` first.
fn scripts(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(package) = sources.json("package.json") else {
        return;
    };
    let Some(scripts) = package.get("scripts").and_then(|s| s.as_object()) else {
        return;
    };
    let manager = package_manager(sources, &package);
    let mut names: Vec<&String> = scripts.keys().filter(|name| is_check(name)).collect();
    names.sort_by_key(|name| {
        (
            name.as_str() != "test",
            name.contains(':') || name.contains('-'),
        )
    });
    for name in names.iter().take(sources.detail.limit(SCRIPTS_SHOWN)) {
        let Some(command) = scripts.get(name.as_str()).and_then(|c| c.as_str()) else {
            continue;
        };
        let run = match name.as_str() {
            "test" => format!("{manager} test"),
            _ => format!("{manager} run {name}"),
        };
        // The test command is the one a change must pass: shown whole unless very long
        // (express's `npm test` was cut before its second test directory).
        let max = if name.as_str() == "test" {
            TEST_COMMAND_CHARS
        } else {
            80
        };
        let practice = format!("`{run}` runs `{}`.", sources.detail.shorten(command, max));
        push(found, "commands", practice, "package.json");
    }
}

/// Characters of the `test` script shown before it is cut (`--all` shows it whole).
const TEST_COMMAND_CHARS: usize = 200;

/// ESLint's rules from the first config it would read.
fn eslint(sources: &Sources, found: &mut Vec<Practice>) {
    for file in [
        "eslint.config.js",
        "eslint.config.mjs",
        "eslint.config.cjs",
        "eslint.config.ts",
        "eslint.config.mts",
    ] {
        if let Some(text) = sources.text(file) {
            let (rules, presets) = flat_config(&text);
            let mut parts = Vec::new();
            if !presets.is_empty() {
                parts.push(format!("presets {}", sources.detail.list(&presets, 4)));
            }
            if !rules.is_empty() {
                parts.push(format!("rules {}", sources.detail.list(&rules, SHOWN)));
            }
            let practice = match parts.is_empty() {
                true => "ESLint lints the code (flat config).".to_string(),
                false => format!("ESLint lints the code: {}.", parts.join("; ")),
            };
            return push_items(found, "style", practice, file, rules);
        }
    }
    let legacy = [
        ".eslintrc.json",
        ".eslintrc",
        ".eslintrc.yml",
        ".eslintrc.yaml",
    ];
    let config = legacy
        .into_iter()
        .find(|file| sources.is_file(file))
        .and_then(|file| Some((file, yaml_to_json(sources.yaml(file)?)?)))
        .or_else(|| {
            let package = sources.json("package.json")?;
            Some(("package.json", package.get("eslintConfig")?.clone()))
        });
    let Some((file, config)) = config else {
        return;
    };
    let rules = eslintrc_rules(&config);
    let extends = match config.get("extends") {
        Some(serde_json::Value::String(one)) => vec![one.clone()],
        Some(serde_json::Value::Array(many)) => many.iter().map(json_text).collect(),
        _ => Vec::new(),
    };
    let mut parts = Vec::new();
    if !extends.is_empty() {
        parts.push(format!("extends {}", sources.detail.list(&extends, 6)));
    }
    if !rules.is_empty() {
        parts.push(format!("rules {}", sources.detail.list(&rules, SHOWN)));
    }
    let practice = match parts.is_empty() {
        true => "ESLint lints the code.".to_string(),
        false => format!("ESLint lints the code: {}.", parts.join("; ")),
    };
    push_items(found, "style", practice, file, rules);
}

/// A YAML value as JSON (a `.eslintrc` is JSON or YAML; YAML reads both).
fn yaml_to_json(value: serde_yaml::Value) -> Option<serde_json::Value> {
    serde_json::to_value(value).ok()
}

/// `rule` or `rule option` for every rule not turned off, in file order.
fn eslintrc_rules(config: &serde_json::Value) -> Vec<String> {
    let Some(rules) = config.get("rules").and_then(|r| r.as_object()) else {
        return Vec::new();
    };
    rules
        .iter()
        .filter_map(|(name, value)| {
            let (severity, option) = match value {
                serde_json::Value::Array(parts) => (parts.first(), parts.get(1)),
                other => (Some(other), None),
            };
            let off = severity.is_some_and(|s| s == "off" || s == 0);
            if off {
                return None;
            }
            if let (true, serde_json::Value::Array(parts)) =
                (name.starts_with("no-restricted-"), value)
            {
                let banned = restricted_names(&parts[1..]);
                if !banned.is_empty() {
                    return Some(format!("{name} {}", banned.join(" ")));
                }
            }
            Some(match option.filter(|o| !o.is_object() && !o.is_array()) {
                Some(option) => format!("{name} {}", json_text(option)),
                None => name.clone(),
            })
        })
        .collect()
}

/// What a `no-restricted-*` rule bans: its options' names (`Buffer` of `[error, { name: Buffer,
/// message: … }]`, `lodash` of `[error, lodash]`, the `paths` of `no-restricted-imports`).
fn restricted_names(options: &[serde_json::Value]) -> Vec<String> {
    let mut names = Vec::new();
    for option in options {
        match option {
            serde_json::Value::String(name) => names.push(name.clone()),
            serde_json::Value::Object(fields) => {
                for key in ["name", "object", "property", "selector"] {
                    if let Some(serde_json::Value::String(name)) = fields.get(key) {
                        names.push(name.clone());
                        break;
                    }
                }
                if let Some(serde_json::Value::Array(paths)) = fields.get("paths") {
                    names.extend(restricted_names(paths));
                }
            }
            _ => {}
        }
    }
    names
}

/// The rule names of every `rules: { … }` object in a flat config, and the presets it spreads
/// (`js.configs.recommended` → `js recommended`): a text scan, the file is never run.
fn flat_config(text: &str) -> (Vec<String>, Vec<String>) {
    let code = strip_js_comments(text);
    let mut rules = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("rules") {
        let after = rest[at + 5..].trim_start();
        rest = &rest[at + 5..];
        let Some(body) = after.strip_prefix(':').map(str::trim_start) else {
            continue;
        };
        if let Some(object) = body.strip_prefix('{') {
            for (key, value) in object_entries(object) {
                let value = value.trim();
                let off = ["'off'", "\"off\"", "0"].contains(&value)
                    || value.starts_with("['off'")
                    || value.starts_with("[\"off\"");
                if !off && !rules.contains(&key) {
                    rules.push(key);
                }
            }
        }
    }
    let mut presets = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find(".configs") {
        let owner: String = rest[..at]
            .chars()
            .rev()
            .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let after = &rest[at + 8..];
        let name: String = after
            .trim_start_matches(['.', '[', '\'', '"'])
            .chars()
            .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '/' | '-'))
            .collect();
        if !owner.is_empty() && !name.is_empty() {
            let preset = format!("{owner} {name}");
            if !presets.contains(&preset) {
                presets.push(preset);
            }
        }
        rest = after;
    }
    (rules, presets)
}

/// The `key: value` entries at the top level of a JavaScript object literal whose `{` was just
/// passed: keys unquoted, values as raw text.
fn object_entries(text: &str) -> Vec<(String, String)> {
    let mut entries = Vec::new();
    let (mut depth, mut quote, mut start) = (0usize, None::<char>, 0usize);
    let mut key: Option<String> = None;
    for (at, ch) in text.char_indices() {
        if let Some(q) = quote {
            if ch == q {
                quote = None;
            }
            continue;
        }
        match ch {
            '\'' | '"' | '`' => quote = Some(ch),
            '{' | '[' | '(' => depth += 1,
            '}' | ']' | ')' if depth == 0 => {
                if let Some(key) = key.take() {
                    entries.push((key, text[start..at].to_string()));
                }
                break;
            }
            '}' | ']' | ')' => depth -= 1,
            ':' if depth == 0 && key.is_none() => {
                let raw = text[start..at].trim().trim_matches(['\'', '"']);
                key = Some(raw.to_string());
                start = at + 1;
            }
            ',' if depth == 0 => {
                if let Some(key) = key.take() {
                    entries.push((key, text[start..at].to_string()));
                }
                start = at + 1;
            }
            _ => {}
        }
    }
    entries.retain(|(key, _)| !key.is_empty() && !key.starts_with("..."));
    entries
}

/// JavaScript without `//` and `/* */` comments (strings kept; a `//` inside one is kept too).
fn strip_js_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut quote: Option<char> = None;
    while let Some(ch) = chars.next() {
        if let Some(q) = quote {
            out.push(ch);
            if ch == '\\' {
                out.extend(chars.next());
            } else if ch == q {
                quote = None;
            }
            continue;
        }
        match (ch, chars.peek()) {
            ('/', Some('/')) => {
                for c in chars.by_ref() {
                    if c == '\n' {
                        out.push('\n');
                        break;
                    }
                }
            }
            ('/', Some('*')) => {
                chars.next();
                let mut last = ' ';
                for c in chars.by_ref() {
                    if last == '*' && c == '/' {
                        break;
                    }
                    last = c;
                }
            }
            ('\'' | '"' | '`', _) => {
                quote = Some(ch);
                out.push(ch);
            }
            _ => out.push(ch),
        }
    }
    out
}

/// Prettier's options from `.prettierrc` (JSON or YAML), `.prettierrc.{json,yml,yaml,toml}` or
/// `prettier` in package.json.
fn prettier(sources: &Sources, found: &mut Vec<Practice>) {
    let files = [
        ".prettierrc",
        ".prettierrc.json",
        ".prettierrc.yml",
        ".prettierrc.yaml",
    ];
    let config = files
        .into_iter()
        .find(|file| sources.is_file(file))
        .and_then(|file| Some((file, yaml_to_json(sources.yaml(file)?)?)))
        .or_else(|| {
            let table = sources.toml(".prettierrc.toml")?;
            Some((".prettierrc.toml", serde_json::to_value(table).ok()?))
        })
        .or_else(|| {
            let package = sources.json("package.json")?;
            Some(("package.json", package.get("prettier")?.clone()))
        });
    let Some((file, config)) = config else {
        return;
    };
    let options: Vec<String> = match &config {
        serde_json::Value::Object(map) => map
            .iter()
            .filter(|(key, value)| *key != "overrides" && !value.is_object() && !value.is_array())
            .map(|(key, value)| format!("{key} {}", json_text(value)))
            .collect(),
        serde_json::Value::String(shared) => vec![format!("shared config {shared}")],
        _ => Vec::new(),
    };
    let practice = match options.is_empty() {
        true => "Prettier formats the code (default options).".to_string(),
        false => format!(
            "Prettier formats the code: {}.",
            sources.detail.list(&options, SHOWN)
        ),
    };
    push_items(found, "style", practice, file, options);
}

/// The Node.js version, the module system and TypeScript's `strict`.
fn node(sources: &Sources, package: &serde_json::Value, found: &mut Vec<Practice>) {
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
    // tsconfig.json allows comments and trailing commas, which JSON does not: skipped quietly.
    let tsconfig = sources
        .text("tsconfig.json")
        .and_then(|text| serde_json::from_str::<serde_json::Value>(&text).ok());
    if let Some(strict) = tsconfig
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eslintrc_rules_keep_the_first_plain_option_and_skip_off() {
        let config: serde_json::Value = serde_json::json!({"rules": {
            "eol-last": "error",
            "eqeqeq": ["error", "allow-null"],
            "indent": ["error", 2, {"SwitchCase": 1}],
            "no-console": "off",
            "no-unused-vars": ["error", {"args": "none"}],
            "no-restricted-globals": ["error", {"name": "Buffer", "message": "Import it."}, "event"],
            "no-restricted-imports": ["error", {"paths": ["lodash", {"name": "moment"}]}],
        }});
        assert_eq!(
            eslintrc_rules(&config),
            [
                "eol-last",
                "eqeqeq allow-null",
                "indent 2",
                "no-restricted-globals Buffer event",
                "no-restricted-imports lodash moment",
                "no-unused-vars",
            ]
        );
    }

    #[test]
    fn flat_config_rules_and_presets_are_read_as_text() {
        let text = r#"
import js from '@eslint/js'
// rules: { commented: 'error' }
export default [
  js.configs.recommended,
  ...tseslint.configs['stylistic'],
  {
    rules: {
      'n/no-exports-assign': 'error',
      eqeqeq: ['warn', 'always', { null: 'never' }],
      'no-console': 'off',
      "prefer-const": ["warn", { destructuring: "all" }],
    },
  },
]
"#;
        let (rules, presets) = flat_config(text);
        assert_eq!(rules, ["n/no-exports-assign", "eqeqeq", "prefer-const"]);
        assert_eq!(presets, ["js recommended", "tseslint stylistic"]);
    }
}
