//! The languages the source module understands: detection from a file path, display names and
//! the tree-sitter grammar behind each one.

use std::path::Path;

use crate::project::config::{AstLanguage, Config};

/// A programming language whose public interface can be extracted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// Rust (`.rs`).
    Rust,
    /// JavaScript, including JSX (`.js`, `.mjs`, `.cjs`, `.jsx`).
    JavaScript,
    /// TypeScript (`.ts`, `.mts`, `.cts`, including `.d.ts`).
    TypeScript,
    /// TypeScript with JSX (`.tsx`).
    Tsx,
    /// Python (`.py`, `.pyi`).
    Python,
}

impl Language {
    /// Every supported language, in declaration order.
    pub const ALL: [Language; 5] = [
        Language::Rust,
        Language::JavaScript,
        Language::TypeScript,
        Language::Tsx,
        Language::Python,
    ];

    /// The language of `path`, judged by its extension (case-insensitive); `None` if unsupported.
    pub fn from_path(path: &Path) -> Option<Language> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "rs" => Some(Language::Rust),
            "js" | "mjs" | "cjs" | "jsx" => Some(Language::JavaScript),
            "ts" | "mts" | "cts" => Some(Language::TypeScript),
            "tsx" => Some(Language::Tsx),
            "py" | "pyi" => Some(Language::Python),
            _ => None,
        }
    }

    /// The `ast.languages` entry that switches parsing of this language on (TSX goes with TypeScript).
    pub fn ast_language(self) -> AstLanguage {
        match self {
            Language::Rust => AstLanguage::Rust,
            Language::JavaScript => AstLanguage::Javascript,
            Language::TypeScript | Language::Tsx => AstLanguage::Typescript,
            Language::Python => AstLanguage::Python,
        }
    }

    /// Whether `config` asks for this language's interfaces to be parsed.
    pub fn enabled_in(self, config: &Config) -> bool {
        config.ast.languages.contains(&self.ast_language())
    }

    /// Stable lowercase identifier: "rust", "javascript", "typescript", "tsx", "python".
    pub fn name(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::Python => "python",
        }
    }

    /// Human-readable name, e.g. "TypeScript (TSX)".
    pub fn display_name(self) -> &'static str {
        match self {
            Language::Rust => "Rust",
            Language::JavaScript => "JavaScript",
            Language::TypeScript => "TypeScript",
            Language::Tsx => "TypeScript (TSX)",
            Language::Python => "Python",
        }
    }

    /// Markdown code-fence info string for this language.
    pub fn fence(self) -> &'static str {
        match self {
            Language::Rust => "rust",
            Language::JavaScript => "javascript",
            Language::TypeScript => "typescript",
            Language::Tsx => "tsx",
            Language::Python => "python",
        }
    }

    /// Position in [`Language::ALL`]; used to index per-thread parser caches.
    pub(crate) fn index(self) -> usize {
        match self {
            Language::Rust => 0,
            Language::JavaScript => 1,
            Language::TypeScript => 2,
            Language::Tsx => 3,
            Language::Python => 4,
        }
    }

    /// The tree-sitter grammar used to parse this language.
    pub(crate) fn grammar(self) -> tree_sitter::Language {
        match self {
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
            Language::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Language::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Language::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Language::Python => tree_sitter_python::LANGUAGE.into(),
        }
    }
}

/// A human name for the kind of file, from its extension or name.
pub fn kind_name(rel: &str) -> &'static str {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    let ext = name
        .rsplit_once('.')
        .map(|(_, ext)| ext.to_ascii_lowercase());
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
        Some("rb") => "Ruby source",
        Some("sh" | "bash" | "zsh") => "Shell script",
        Some("md" | "markdown") => "Markdown document",
        Some("toml") => "TOML file",
        Some("yaml" | "yml") => "YAML file",
        Some("json") => "JSON file",
        Some("html" | "htm") => "HTML file",
        Some("css" | "scss") => "Stylesheet",
        Some("sql") => "SQL file",
        Some("txt") => "Text file",
        Some("lock") => "Lock file",
        _ => "File",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detects_languages_from_extensions() {
        let cases = [
            ("src/lib.rs", Some(Language::Rust)),
            ("a/b.js", Some(Language::JavaScript)),
            ("a/b.mjs", Some(Language::JavaScript)),
            ("a/b.cjs", Some(Language::JavaScript)),
            ("a/b.jsx", Some(Language::JavaScript)),
            ("a/b.ts", Some(Language::TypeScript)),
            ("a/b.d.ts", Some(Language::TypeScript)),
            ("a/b.mts", Some(Language::TypeScript)),
            ("a/b.cts", Some(Language::TypeScript)),
            ("a/b.tsx", Some(Language::Tsx)),
            ("a/b.py", Some(Language::Python)),
            ("a/b.pyi", Some(Language::Python)),
            ("a/B.RS", Some(Language::Rust)),
            ("README.md", None),
            ("Makefile", None),
            ("rs", None),
        ];
        for (path, expected) in cases {
            assert_eq!(Language::from_path(Path::new(path)), expected, "{path}");
        }
    }

    #[test]
    fn names_are_stable() {
        let names: Vec<_> = Language::ALL.iter().map(|l| l.name()).collect();
        assert_eq!(names, ["rust", "javascript", "typescript", "tsx", "python"]);
        let display: Vec<_> = Language::ALL.iter().map(|l| l.display_name()).collect();
        assert_eq!(
            display,
            [
                "Rust",
                "JavaScript",
                "TypeScript",
                "TypeScript (TSX)",
                "Python"
            ]
        );
        let fences: Vec<_> = Language::ALL.iter().map(|l| l.fence()).collect();
        assert_eq!(
            fences,
            ["rust", "javascript", "typescript", "tsx", "python"]
        );
        for (i, lang) in Language::ALL.iter().enumerate() {
            assert_eq!(lang.index(), i);
        }
    }
}
