//! The Archivist's prompts: the templates under `src/archivist/prompts/`, their versions and hashes,
//! and filling them in for one file.
//!
//! Two templates share one system prompt: the full design file (NEW, INTERFACE_CHANGED,
//! CONTENT_CHANGED: interface skeleton + full source + the existing design file) and a lighter one for
//! CONTENT_ONLY (the interface did not change, so no skeleton and no Interface Contract to write).
//! A template's hash is the SHA-256 of the system prompt and its own text, recorded in provenance so a
//! design file can be traced to the exact instructions that produced it. Bump the version when a
//! template changes; the hash changes by itself.

use crate::archivist::structural::{complexity_warnings, path_list};
use crate::archivist::ArchivistInput;
use crate::hash::sha256_hex;

const SYSTEM: &str = include_str!("../prompts/system.md");

/// One prompt template.
#[derive(Debug)]
pub struct Template {
    /// Short name, e.g. `design-file`.
    pub name: &'static str,
    /// Bumped whenever the text changes meaningfully.
    pub version: u32,
    /// The user message, with `{{placeholders}}`.
    pub user: &'static str,
}

/// The full design file prompt.
pub const DESIGN_FILE: Template = Template {
    name: "design-file",
    version: 1,
    user: include_str!("../prompts/design_file.md"),
};

/// The lighter CONTENT_ONLY prompt.
pub const CONTENT_ONLY: Template = Template {
    name: "content-only",
    version: 1,
    user: include_str!("../prompts/content_only.md"),
};

impl Template {
    /// `name/version`, e.g. `design-file/1`.
    pub fn label(&self) -> String {
        format!("{}/{}", self.name, self.version)
    }

    /// SHA-256 (hex) of the system prompt and this template, as written in the source tree.
    pub fn hash(&self) -> String {
        sha256_hex(format!("{SYSTEM}\n{}", self.user).as_bytes())
    }
}

/// A prompt ready to send.
#[derive(Debug)]
pub struct Prompt {
    pub template: &'static Template,
    pub system: String,
    pub user: String,
}

/// The prompt for one file. `budget` is the design file budget in tokens.
pub fn build(input: &ArchivistInput<'_>, budget: usize) -> Prompt {
    let template = if input.content_only && input.existing.is_some() {
        &CONTENT_ONLY
    } else {
        &DESIGN_FILE
    };
    let kind = match input.language {
        Some(language) => format!("{} source", language.name()),
        None => crate::source::kind_name(input.source).to_lowercase(),
    };
    let skeleton = match (input.language, input.interface) {
        (Some(language), Some(interface)) if !interface.skeleton().trim().is_empty() => {
            fenced(language.fence(), interface.skeleton().trim_end())
        }
        (Some(_), Some(_)) => "(no public items)".to_string(),
        _ => "(none: not a parsed code file)".to_string(),
    };
    let signals = input
        .interface
        .map(complexity_warnings)
        .filter(|warnings| !warnings.is_empty())
        .map_or_else(|| "(none)".to_string(), |warnings| warnings.join("\n"));
    let existing = match input
        .existing
        .map(str::trim)
        .filter(|text| !text.is_empty())
    {
        Some(text) => fenced("markdown", text),
        None => "(none: this is a new design file)".to_string(),
    };
    let source_fence = input.language.map_or("", |language| language.fence());
    let budget = budget.to_string();
    let values: &[(&str, &str)] = &[
        ("path", input.source),
        ("kind", &kind),
        ("skeleton", &skeleton),
        ("signals", &signals),
        ("dependencies", &path_list(input.dependencies)),
        ("dependents", &path_list(input.dependents)),
        ("existing", &existing),
        ("source", &fenced(source_fence, input.text.trim_end())),
        ("budget", &budget),
    ];
    Prompt {
        template,
        system: fill(SYSTEM, values).trim_end().to_string(),
        user: fill(template.user, values).trim_end().to_string(),
    }
}

/// Replace every `{{name}}` in `template` in one pass: text that is filled in is never scanned again,
/// so a source file that contains `{{existing}}` stays as it is. Unknown names are left alone.
fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let value = after.find("}}").and_then(|end| {
            let name = &after[..end];
            values
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| (*value, end))
        });
        match value {
            Some((value, end)) => {
                out.push_str(value);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

/// `text` in a code fence longer than any run of backticks inside it.
fn fenced(info: &str, text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for ch in text.chars() {
        if ch == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}{info}\n{text}\n{fence}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source::{extract, Language};

    fn input<'a>(
        text: &'a str,
        interface: Option<&'a crate::source::Interface>,
        existing: Option<&'a str>,
        content_only: bool,
    ) -> ArchivistInput<'a> {
        ArchivistInput {
            source: "src/a.rs",
            text,
            language: Some(Language::Rust),
            interface,
            dependencies: &[],
            externals: &[],
            type_only: &[],
            dependents: &[],
            tests: &[],
            existing,
            content_only,
            abridged: false,
            budget_tokens: 0,
        }
    }

    #[test]
    fn the_full_prompt_carries_skeleton_source_and_existing_file() {
        let text = "//! Doc.\npub fn go(x: u8) -> u8 { x }\n// {{existing}} stays\n";
        let interface = extract(Language::Rust, text).expect("parses");
        let prompt = build(
            &input(
                text,
                Some(&interface),
                Some("# src/a.rs\n\n## Why\nhuman"),
                false,
            ),
            400,
        );
        assert_eq!(prompt.template.label(), "design-file/1");
        assert!(
            prompt.system.contains("fit in 400 tokens"),
            "{}",
            prompt.system
        );
        assert!(prompt.user.contains("```rust\npub fn go(x: u8) -> u8\n```"));
        assert!(prompt.user.contains("## Why\nhuman"));
        assert!(prompt.user.contains("// {{existing}} stays"));
        assert!(!prompt.user.contains("{{source}}"));
    }

    #[test]
    fn content_only_uses_the_lighter_prompt() {
        let text = "pub fn go() {}\n";
        let interface = extract(Language::Rust, text).expect("parses");
        let prompt = build(&input(text, Some(&interface), Some("old"), true), 400);
        assert_eq!(prompt.template.label(), "content-only/1");
        assert!(!prompt.user.contains("## Interface Contract"));
        // Without an existing design file there is nothing to keep: the full prompt.
        let prompt = build(&input(text, Some(&interface), None, true), 400);
        assert_eq!(prompt.template.label(), "design-file/1");
    }

    #[test]
    fn hashes_differ_per_template_and_are_stable() {
        assert_eq!(DESIGN_FILE.hash(), DESIGN_FILE.hash());
        assert_ne!(DESIGN_FILE.hash(), CONTENT_ONLY.hash());
        assert_eq!(DESIGN_FILE.hash().len(), 64);
    }

    #[test]
    fn fences_outgrow_backticks_inside() {
        assert_eq!(fenced("md", "a ```b``` c"), "````md\na ```b``` c\n````");
        assert_eq!(fenced("", "x"), "```\nx\n```");
    }
}
