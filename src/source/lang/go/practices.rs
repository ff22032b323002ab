//! Go's practices, read where its tools read them: the `go` and `toolchain` directives of the
//! root `go.mod` (the language level), gofmt (every Go project's formatter: `go.mod` says the
//! project is Go), golangci-lint's configuration (`.golangci.yml`/`.yaml`/`.toml`: the linters
//! and formatters it enables) and `go test ./...` as the test command, with `go vet` (which
//! `go test` runs a part of).

use crate::source::lang::tooling::{push, push_items, Practice, Sources};

/// golangci-lint's configuration files, in the order it looks for them.
const GOLANGCI: [&str; 4] = [
    ".golangci.yml",
    ".golangci.yaml",
    ".golangci.toml",
    ".golangci.json",
];

/// Linters or formatters listed before "and N more".
const LISTED: usize = 8;

pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(go_mod) = sources.text("go.mod") else {
        return;
    };
    language(&go_mod, found);
    push(
        found,
        "style",
        "gofmt formats every Go file (`gofmt -l .` lists those it would change); `go vet ./...` reports suspicious code.".to_string(),
        "go.mod",
    );
    golangci(sources, found);
    push(
        found,
        "tests",
        "`go test ./...` runs the tests: `_test.go` files beside the code they test (`TestXxx`, `BenchmarkXxx`, `ExampleXxx`, `FuzzXxx` functions).".to_string(),
        "go.mod",
    );
}

/// `go 1.21` and `toolchain go1.22.1`: the language level the module is written for.
fn language(go_mod: &str, found: &mut Vec<Practice>) {
    let directive = |name: &str| {
        go_mod.lines().find_map(|line| {
            let (word, rest) = line.trim().split_once(char::is_whitespace)?;
            (word == name).then(|| rest.trim().to_string())
        })
    };
    let practice = match (directive("go"), directive("toolchain")) {
        (Some(go), Some(toolchain)) => format!(
            "Go {go} (go.mod `go` directive): no newer language or standard library features; built with {toolchain}."
        ),
        (Some(go), None) => format!(
            "Go {go} (go.mod `go` directive): no newer language or standard library features."
        ),
        _ => return,
    };
    push(found, "language", practice, "go.mod");
}

/// The linters and formatters golangci-lint's configuration enables.
fn golangci(sources: &Sources, found: &mut Vec<Practice>) {
    let Some(file) = GOLANGCI.iter().find(|name| sources.is_file(name)) else {
        return;
    };
    let listed = |value: Option<&serde_yaml::Value>| -> Vec<String> {
        value
            .and_then(|v| v.get("enable"))
            .and_then(serde_yaml::Value::as_sequence)
            .map(|items| {
                items
                    .iter()
                    .filter_map(|item| item.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    let config = match file.ends_with(".yml") || file.ends_with(".yaml") {
        true => sources.yaml(file),
        false => None,
    };
    let linters = listed(config.as_ref().and_then(|c| c.get("linters")));
    let formatters = listed(config.as_ref().and_then(|c| c.get("formatters")));
    let mut practice = "golangci-lint checks the code (`golangci-lint run`)".to_string();
    if !linters.is_empty() {
        let shown = sources.detail.list(&linters, LISTED);
        practice.push_str(&format!("; linters enabled: {shown}"));
    }
    if !formatters.is_empty() {
        let shown = sources.detail.list(&formatters, LISTED);
        practice.push_str(&format!("; formatters: {shown}"));
    }
    practice.push('.');
    let mut items = linters;
    items.extend(formatters);
    push_items(found, "style", practice, file, items);
}
