//! Java builds' practices, read from the root build file as text (never run): what runs the tests
//! (`mvn test` through Maven Surefire, `./gradlew test` or `gradle test`), and the style tools the
//! build applies (Checkstyle, Spotless, google-java-format, Error Prone) with the file that
//! configures them. `.editorconfig` is `project::practices::style::editor`'s.

use crate::source::lang::tooling::{push, Practice, Sources};

/// Style tools a build file applies, by a word of their plugin: (word, what it does).
const STYLE_PLUGINS: &[(&str, &str)] = &[
    ("spotless", "Spotless formats the code (`spotless:apply`)"),
    ("checkstyle", "Checkstyle checks the code style"),
    ("fmt-maven-plugin", "google-java-format formats the code"),
    ("googleJavaFormat", "google-java-format formats the code"),
    ("google-java-format", "google-java-format formats the code"),
    (
        "error_prone_core",
        "Error Prone checks the code at compile time",
    ),
    (
        "net.ltgt.errorprone",
        "Error Prone checks the code at compile time",
    ),
];

/// Maven's or Gradle's test command and style plugins.
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    let gradle = ["build.gradle.kts", "build.gradle"]
        .into_iter()
        .find(|name| sources.is_file(name));
    let (build, text) = match (sources.text("pom.xml"), gradle) {
        (Some(text), _) => {
            push(
                found,
                "tests",
                "`mvn test` runs the tests (Maven Surefire: classes named `Test*`, `*Test`, `*Tests`, `*TestCase` under `src/test/java`)."
                    .to_string(),
                "pom.xml",
            );
            ("pom.xml", text)
        }
        (None, Some(name)) => {
            let command = match sources.is_file("gradlew") {
                true => "./gradlew test",
                false => "gradle test",
            };
            push(
                found,
                "tests",
                format!("`{command}` runs the tests (Gradle's `test` task, `src/test/java`)."),
                name,
            );
            (name, sources.text(name).unwrap_or_default())
        }
        (None, None) => return,
    };
    let mut said: Vec<&str> = Vec::new();
    for (word, what) in STYLE_PLUGINS {
        if text.contains(word) && !said.contains(what) {
            said.push(what);
            push(found, "style", format!("{what}."), build);
        }
    }
    for config in ["checkstyle.xml", "config/checkstyle/checkstyle.xml"] {
        if sources.is_file(config) && !said.iter().any(|w| w.starts_with("Checkstyle")) {
            said.push("Checkstyle");
            push(
                found,
                "style",
                "Checkstyle checks the code style.".to_string(),
                config,
            );
        }
    }
}
