//! C and C++ practices, read as text from the files their tools read: clang-format's style
//! (`.clang-format`: `BasedOnStyle`, `ColumnLimit`, `IndentWidth`), clang-tidy's checks
//! (`.clang-tidy`: `Checks`), CMake's presets (`CMakePresets.json`: the configure presets), and
//! CTest as the test command when the root CMakeLists.txt registers tests (`enable_testing()`,
//! `add_test`), with the C++ standard it asks for (`CMAKE_CXX_STANDARD`, `cxx_std_NN`).

use crate::source::lang::tooling::{push, push_items, Practice, Sources};

/// Presets listed before "and N more".
const LISTED: usize = 6;

/// clang-format, clang-tidy, CMake presets and CTest.
pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    clang_format(sources, found);
    clang_tidy(sources, found);
    cmake(sources, found);
    presets(sources, found);
}

/// A `key: value` line's value in a YAML-like tool configuration read as lines.
fn value_of<'t>(text: &'t str, key: &str) -> Option<&'t str> {
    text.lines().find_map(|line| {
        let (name, value) = line.split_once(':')?;
        (name.trim() == key && !line.starts_with('#'))
            .then(|| value.trim().trim_matches(['"', '\'']))
            .filter(|v| !v.is_empty())
    })
}

/// `.clang-format`: the style it is based on, its line width and indentation.
fn clang_format(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(file) = [".clang-format", "_clang-format"]
        .into_iter()
        .find(|name| sources.is_file(name))
    else {
        return;
    };
    let text = sources.text(file).unwrap_or_default();
    let mut practice = "clang-format formats the code (`clang-format -i --style=file`)".to_string();
    let details: Vec<String> = [
        ("BasedOnStyle", "based on the {} style"),
        ("ColumnLimit", "{} columns"),
        ("IndentWidth", "indent {}"),
    ]
    .iter()
    .filter_map(|(key, shape)| value_of(&text, key).map(|v| shape.replace("{}", v)))
    .collect();
    if !details.is_empty() {
        practice.push_str(&format!(": {}", details.join(", ")));
    }
    practice.push('.');
    push(found, "style", practice, file);
}

/// `.clang-tidy`: the checks it runs.
fn clang_tidy(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(text) = sources.text(".clang-tidy") else {
        return;
    };
    let checks = value_of(&text, "Checks").unwrap_or("");
    let items: Vec<String> = checks
        .split(',')
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
        .collect();
    let practice = match items.is_empty() {
        true => "clang-tidy checks the code (`clang-tidy`).".to_string(),
        false => format!(
            "clang-tidy checks the code: {}.",
            sources.detail.list(&items, LISTED)
        ),
    };
    push_items(found, "style", practice, ".clang-tidy", items);
}

/// The root CMakeLists.txt: CTest, and the C++ standard.
fn cmake(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(text) = sources.text("CMakeLists.txt") else {
        return;
    };
    let lower = text.to_ascii_lowercase();
    if let Some(standard) = cxx_standard(&text) {
        push(
            found,
            "language",
            format!("C++{standard} (CMake): no newer language or library features."),
            "CMakeLists.txt",
        );
    }
    if lower.contains("enable_testing(")
        || lower.contains("add_test(")
        || lower.contains("include(ctest)")
    {
        push(
            found,
            "tests",
            "CTest runs the tests: `cmake -B build && cmake --build build && ctest --test-dir build` (tests under `test/`/`tests/`)."
                .to_string(),
            "CMakeLists.txt",
        );
    }
}

/// The C++ standard the build asks for: `CMAKE_CXX_STANDARD 17` or `cxx_std_17`.
fn cxx_standard(text: &str) -> Option<String> {
    let digits = |rest: &str| -> Option<String> {
        let number: String = rest
            .trim_start()
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        (!number.is_empty()).then_some(number)
    };
    if let Some(at) = text.find("CMAKE_CXX_STANDARD ") {
        if let Some(number) = digits(&text[at + "CMAKE_CXX_STANDARD ".len()..]) {
            return Some(number);
        }
    }
    let at = text.find("cxx_std_")?;
    digits(&text[at + "cxx_std_".len()..])
}

/// `CMakePresets.json`: its configure presets.
fn presets(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(json) = sources.json("CMakePresets.json") else {
        return;
    };
    let names: Vec<String> = json
        .get("configurePresets")
        .and_then(|p| p.as_array())
        .map(|presets| {
            presets
                .iter()
                .filter(|p| !p.get("hidden").and_then(|h| h.as_bool()).unwrap_or(false))
                .filter_map(|p| p.get("name").and_then(|n| n.as_str()).map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    if names.is_empty() {
        return;
    }
    let practice = format!(
        "CMake presets configure the build (`cmake --preset <name>`): {}.",
        sources.detail.list(&names, LISTED)
    );
    push_items(found, "commands", practice, "CMakePresets.json", names);
}
