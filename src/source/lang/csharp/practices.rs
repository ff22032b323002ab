//! .NET builds' practices, read as text (never run): what runs the tests (`dotnet test`, with
//! the test framework the test projects reference — xUnit, NUnit, MSTest), the SDK `global.json`
//! pins, the language settings `Directory.Build.props` sets for every project (`LangVersion`,
//! `Nullable`, `TreatWarningsAsErrors`, `ImplicitUsings`), and the C# style rules `.editorconfig`
//! sets (`csharp_*` and `dotnet_*` keys).

use crate::source::lang::tooling::{push, Practice, Sources};

/// Test frameworks by a word of their package reference: (word, name).
const FRAMEWORKS: &[(&str, &str)] = &[
    ("\"xunit", "xUnit"),
    ("\"NUnit\"", "NUnit"),
    ("\"MSTest", "MSTest"),
];

/// The .NET build's test command, SDK, shared settings and C# style.
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    let solution = ["sln", "slnx"]
        .iter()
        .find_map(|ext| root_file_with(sources, ext));
    let props = "Directory.Build.props";
    let has_props = sources.is_file(props);
    if solution.is_none() && !has_props && !sources.is_file("global.json") {
        return;
    }
    let packages = [
        "Directory.Packages.props",
        "Directory.Build.props",
        "Directory.Build.targets",
    ]
    .iter()
    .filter_map(|name| sources.text(name))
    .collect::<Vec<String>>()
    .join("\n");
    let mut frameworks: Vec<&str> = FRAMEWORKS
        .iter()
        .filter(|(word, _)| packages.contains(word))
        .map(|(_, name)| *name)
        .collect();
    frameworks.dedup();
    let runner = match frameworks.as_slice() {
        [] => String::new(),
        names => format!(" ({})", names.join(", ")),
    };
    let origin = solution.clone().unwrap_or_else(|| props.to_string());
    let target = solution.map(|s| format!(" {s}")).unwrap_or_default();
    push(
        found,
        "tests",
        format!("`dotnet test{target}` runs the test projects{runner}."),
        &origin,
    );
    if let Some(version) = sources
        .text("global.json")
        .and_then(|text| json_value(&text, "version"))
    {
        push(
            found,
            "language",
            format!("The .NET SDK is pinned to {version} (`global.json`)."),
            "global.json",
        );
    }
    if let Some(text) = sources.text(props) {
        let settings: Vec<String> = [
            "LangVersion",
            "Nullable",
            "TreatWarningsAsErrors",
            "ImplicitUsings",
        ]
        .iter()
        .filter_map(|name| element(&text, name).map(|value| format!("`{name}` {value}")))
        .collect();
        if !settings.is_empty() {
            push(
                found,
                "language",
                format!(
                    "Every project builds with {} (`{props}`).",
                    settings.join(", ")
                ),
                props,
            );
        }
    }
    if let Some(config) = sources.text(".editorconfig") {
        let rules = config
            .lines()
            .map(str::trim)
            .filter(|line| line.starts_with("csharp_") || line.starts_with("dotnet_"))
            .count();
        if rules > 0 {
            push(
                found,
                "style",
                format!("`.editorconfig` sets {rules} C# style and analyzer rules (`csharp_*`, `dotnet_*`); `dotnet format` applies them."),
                ".editorconfig",
            );
        }
    }
}

/// The first file at the project's root with extension `ext`.
fn root_file_with(sources: &Sources, ext: &str) -> Option<String> {
    let suffix = format!(".{ext}");
    let mut names: Vec<String> = sources
        .file_names("")
        .into_iter()
        .filter(|name| name.ends_with(&suffix))
        .collect();
    names.sort();
    names.into_iter().next()
}

/// The text of the first `<name>…</name>` element.
fn element(text: &str, name: &str) -> Option<String> {
    let open = format!("<{name}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find('<')? + start;
    let value = text[start..end].trim();
    (!value.is_empty() && value.len() < 40).then(|| value.to_string())
}

/// The string value of the first `"key": "value"` in a JSON text.
fn json_value(text: &str, key: &str) -> Option<String> {
    let at = text.find(&format!("\"{key}\""))?;
    let rest = &text[at + key.len() + 2..];
    let rest = rest
        .trim_start()
        .strip_prefix(':')?
        .trim_start()
        .strip_prefix('"')?;
    Some(rest[..rest.find('"')?].to_string())
}
