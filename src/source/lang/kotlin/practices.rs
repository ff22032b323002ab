//! Kotlin builds' practices, read from the root Gradle build file as text (never run): that it
//! compiles Kotlin (the `kotlin("jvm")`/`kotlin("multiplatform")` plugins, with the JVM toolchain
//! it names), what runs the Kotlin tests, and the Kotlin style tools it applies or configures —
//! ktlint (its Gradle plugin, or `ktlint_*` keys in `.editorconfig`), detekt (`detekt.yml`), ktfmt,
//! and Spotless formatting Kotlin with either. Maven's and Gradle's Java conventions are Java's
//! (`lang/java/practices.rs`).

use crate::source::lang::tooling::{push, Practice, Sources};

/// Kotlin style tools a build file applies, by a word of their plugin: (word, what it does).
const STYLE_PLUGINS: &[(&str, &str)] = &[
    ("ktlint", "ktlint checks and formats the Kotlin code"),
    ("detekt", "detekt analyses the Kotlin code"),
    ("ktfmt", "ktfmt formats the Kotlin code"),
];

/// The Gradle build's Kotlin plugin, test command and style tools.
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(build) = ["build.gradle.kts", "build.gradle"]
        .into_iter()
        .find(|name| sources.is_file(name))
    else {
        return;
    };
    let text = sources.text(build).unwrap_or_default();
    let multiplatform = text.contains("multiplatform");
    let kotlin = multiplatform
        || text.contains("kotlin(\"jvm\")")
        || text.contains("org.jetbrains.kotlin")
        || text.contains("kotlin-gradle-plugin")
        || text.contains("libs.plugins.kotlin");
    if !kotlin {
        return;
    }
    let command = match sources.is_file("gradlew") {
        true => "./gradlew",
        false => "gradle",
    };
    let tests = match multiplatform {
        true => format!(
            "`{command} allTests` runs the Kotlin Multiplatform tests (`src/commonTest/kotlin`, `src/jvmTest/kotlin`, …; `{command} jvmTest` the JVM's)."
        ),
        false => format!("`{command} test` runs the Kotlin tests (`src/test/kotlin`)."),
    };
    push(found, "tests", tests, build);
    if let Some(version) = toolchain(&text) {
        push(
            found,
            "language",
            format!("Kotlin compiles for JVM {version} (`jvmToolchain`)."),
            build,
        );
    }
    let mut said: Vec<&str> = Vec::new();
    for (word, what) in STYLE_PLUGINS {
        if text.contains(word) && !said.contains(what) {
            said.push(what);
            push(found, "style", format!("{what}."), build);
        }
    }
    if text.contains("spotless") && (text.contains("ktlint") || text.contains("ktfmt")) {
        push(
            found,
            "style",
            "Spotless formats the Kotlin code (`./gradlew spotlessApply`).".to_string(),
            build,
        );
    }
    let ktlint = "ktlint checks and formats the Kotlin code";
    if !said.contains(&ktlint)
        && sources
            .text(".editorconfig")
            .is_some_and(|config| config.contains("ktlint"))
    {
        said.push(ktlint);
        push(found, "style", format!("{ktlint}."), ".editorconfig");
    }
    for config in [
        "detekt.yml",
        "config/detekt/detekt.yml",
        "config/detekt.yml",
    ] {
        if sources.is_file(config) {
            push(
                found,
                "style",
                format!("detekt analyses the Kotlin code (configured in `{config}`)."),
                config,
            );
            break;
        }
    }
}

/// The JVM version of `jvmToolchain(17)` or `jvmToolchain { languageVersion.set(JavaLanguageVersion.of(17)) }`.
fn toolchain(text: &str) -> Option<String> {
    let at = text.find("jvmToolchain")?;
    let rest = &text[at + "jvmToolchain".len()..];
    let digits: String = rest
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(char::is_ascii_digit)
        .collect();
    let before_digits = rest.find(|c: char| c.is_ascii_digit())?;
    (!digits.is_empty() && before_digits < 80).then_some(digits)
}
