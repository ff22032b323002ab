//! PHP projects' practices, read from their files as text or JSON (never run): the PHP version
//! `composer.json` requires (`require.php`), its scripts that test, lint or analyse, PHPUnit's
//! configuration, PHP_CodeSniffer's standard (`phpcs.xml`), PHP-CS-Fixer's rule sets
//! (`.php-cs-fixer.php`) and PHPStan's level (`phpstan.neon`).

use crate::source::lang::tooling::{push, Practice, Sources};

/// Composer scripts shown at most.
const SCRIPTS_SHOWN: usize = 6;

/// The PHP tooling the project root declares.
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    let composer = sources.json("composer.json");
    if let Some(composer) = &composer {
        if let Some(php) = composer["require"]["php"].as_str() {
            push(
                found,
                "language",
                format!("PHP `{php}` (composer.json `require.php`)."),
                "composer.json",
            );
        }
        scripts(sources, composer, found);
    }
    if let Some(config) = ["phpunit.xml", "phpunit.xml.dist"]
        .into_iter()
        .find(|name| sources.is_file(name))
    {
        let command = match composer
            .as_ref()
            .is_some_and(|c| c["scripts"]["test"].is_string() || c["scripts"]["test"].is_array())
        {
            true => "`composer test`",
            false => "`vendor/bin/phpunit`",
        };
        push(
            found,
            "tests",
            format!("PHPUnit runs the tests ({command}; configured in `{config}`): `*Test.php` classes, `test*` methods."),
            config,
        );
    }
    if let Some(config) = [
        "phpcs.xml",
        "phpcs.xml.dist",
        ".phpcs.xml",
        ".phpcs.xml.dist",
    ]
    .into_iter()
    .find(|name| sources.is_file(name))
    {
        let text = sources.text(config).unwrap_or_default();
        let rules = attribute_values(&text, "<rule ref=\"");
        let practice = match rules.is_empty() {
            true => format!("PHP_CodeSniffer checks the code style (`{config}`)."),
            false => format!(
                "PHP_CodeSniffer checks the code style (`{config}`): {}.",
                sources.detail.list(&rules, 4)
            ),
        };
        push(found, "style", practice, config);
    }
    if let Some(config) = [
        ".php-cs-fixer.php",
        ".php-cs-fixer.dist.php",
        ".php_cs",
        ".php_cs.dist",
    ]
    .into_iter()
    .find(|name| sources.is_file(name))
    {
        let text = sources.text(config).unwrap_or_default();
        let sets: Vec<String> = attribute_values(&text, "'@")
            .into_iter()
            .map(|set| format!("@{set}"))
            .collect();
        let practice = match sets.is_empty() {
            true => format!("PHP-CS-Fixer formats the code (`{config}`)."),
            false => format!(
                "PHP-CS-Fixer formats the code (`{config}`): {}.",
                sources.detail.list(&sets, 4)
            ),
        };
        push(found, "style", practice, config);
    }
    if let Some(config) = ["phpstan.neon", "phpstan.neon.dist", "phpstan.dist.neon"]
        .into_iter()
        .find(|name| sources.is_file(name))
    {
        let text = sources.text(config).unwrap_or_default();
        let level = text
            .lines()
            .find_map(|line| line.trim().strip_prefix("level:"))
            .map(|level| level.trim().to_string());
        let practice = match level {
            Some(level) => format!("PHPStan analyses the code at level `{level}` (`{config}`)."),
            None => format!("PHPStan analyses the code (`{config}`)."),
        };
        push(found, "style", practice, config);
    }
}

/// Composer scripts that test, lint or analyse, `test` first: `composer <name>` and what it runs.
fn scripts(sources: &Sources, composer: &serde_json::Value, found: &mut Vec<Practice>) {
    let Some(scripts) = composer["scripts"].as_object() else {
        return;
    };
    let mut names: Vec<&String> = scripts
        .keys()
        .filter(|name| {
            [
                "test", "lint", "cs", "stan", "analy", "check", "fix", "psalm", "phpunit",
            ]
            .iter()
            .any(|word| name.to_ascii_lowercase().contains(word))
        })
        .collect();
    names.sort_by_key(|name| name.as_str() != "test");
    for name in names.into_iter().take(sources.detail.limit(SCRIPTS_SHOWN)) {
        let command = match &scripts[name.as_str()] {
            serde_json::Value::String(command) => command.clone(),
            serde_json::Value::Array(commands) => commands
                .iter()
                .filter_map(|c| c.as_str())
                .collect::<Vec<_>>()
                .join(" && "),
            _ => continue,
        };
        let practice = format!(
            "`composer {name}` runs `{}`.",
            sources.detail.shorten(&command, 120)
        );
        push(found, "commands", practice, "composer.json");
    }
}

/// The values after each `prefix` up to the next quote (`PSR12` of `<rule ref="PSR12"/>`), once
/// each, in order.
fn attribute_values(text: &str, prefix: &str) -> Vec<String> {
    let mut values: Vec<String> = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(prefix) {
        rest = &rest[at + prefix.len()..];
        let end = rest.find(['"', '\'']).unwrap_or(rest.len());
        let value = rest[..end].trim().to_string();
        if !value.is_empty() && value.len() <= 80 && !values.contains(&value) {
            values.push(value);
        }
    }
    values
}
