//! Language levels and module systems the manifests pin: Cargo's `edition`/`rust-version`,
//! pyproject's `requires-python`, `engines.node`, ES modules or CommonJS, TypeScript's `strict`.

use super::{get, push, Practice, Sources};

pub fn detect(sources: &Sources, found: &mut Vec<Practice>) {
    if let Some(cargo) = sources.toml("Cargo.toml") {
        rust(&cargo, found);
    }
    if let Some(pyproject) = sources.toml("pyproject.toml") {
        if let Some(version) =
            get(&pyproject, &["project", "requires-python"]).and_then(|v| v.as_str())
        {
            let practice = format!("Python {version} (requires-python).");
            push(found, "language", practice, "pyproject.toml");
        }
    }
    if let Some(package) = sources.json("package.json") {
        node(sources, &package, found);
    }
}

fn rust(cargo: &toml::Table, found: &mut Vec<Practice>) {
    let edition = get(cargo, &["package", "edition"])
        .or_else(|| get(cargo, &["workspace", "package", "edition"]))
        .and_then(|v| v.as_str());
    let msrv = get(cargo, &["package", "rust-version"])
        .or_else(|| get(cargo, &["workspace", "package", "rust-version"]))
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
}

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
