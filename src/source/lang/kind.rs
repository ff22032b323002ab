//! A human name for the kind of a file, from its extension or name: for every file, parsed or not
//! (a Go file is "Go source" before Go is in the registry).

use crate::relpath::RelPath;

/// A human name for the kind of file, from its extension or name.
pub fn kind_name(rel: &str) -> &'static str {
    let name = RelPath::new(rel).file_name();
    let ext = RelPath::new(rel).extension().map(str::to_ascii_lowercase);
    match name {
        "Makefile" | "makefile" | "GNUmakefile" => return "Makefile",
        "Dockerfile" => return "Dockerfile",
        "LICENSE" | "LICENCE" | "COPYING" => return "License text",
        _ => {}
    }
    match ext.as_deref() {
        Some("rs") => "Rust source",
        Some("js" | "mjs" | "cjs") => "JavaScript source",
        Some("jsx") => "JavaScript (JSX) source",
        Some("ts" | "mts" | "cts") => "TypeScript source",
        Some("tsx") => "TypeScript (TSX) source",
        Some("py" | "pyi") => "Python source",
        Some("go") => "Go source",
        Some("c" | "h") => "C source",
        Some("cc" | "cpp" | "cxx" | "hpp" | "hh") => "C++ source",
        Some("java") => "Java source",
        Some("kt" | "kts") => "Kotlin source",
        Some("cs") => "C# source",
        Some("rb") => "Ruby source",
        Some("php") => "PHP source",
        Some("sh" | "bash" | "zsh") => "Shell script",
        Some("fish") => "Fish script",
        Some("md" | "markdown") => "Markdown document",
        Some("toml") => "TOML file",
        Some("yaml" | "yml") => "YAML file",
        Some("json") => "JSON file",
        Some("html" | "htm") => "HTML file",
        Some("ejs") => "EJS template",
        Some("hbs" | "handlebars") => "Handlebars template",
        Some("mustache") => "Mustache template",
        Some("j2" | "jinja" | "jinja2") => "Jinja template",
        Some("njk") => "Nunjucks template",
        Some("twig") => "Twig template",
        Some("liquid") => "Liquid template",
        Some("erb") => "ERB template",
        Some("pug") => "Pug template",
        Some("xml") => "XML file",
        Some("proto") => "Protocol Buffers file",
        Some("css" | "scss") => "Stylesheet",
        Some("sql") => "SQL file",
        Some("txt") => "Text file",
        Some("lock") => "Lock file",
        _ => "File",
    }
}
