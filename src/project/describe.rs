//! What a directory says about itself before any design file exists: its manifest's `description`
//! (`Cargo.toml` `[package]`, `package.json`, `pyproject.toml` `[project]` or `[tool.poetry]`), else
//! the first sentence of its README. START_HERE and first-written `.aindex` billboards use it.
//!
//! Also the filters that keep a billboard honest and safe (nothing [`crate::secrets`] flags): a licence banner, a copyright line or a count of
//! files ("19 files and 2 subdirectories.") is never a description when a better source exists.

use super::manifest::Manifest;
use super::Project;
use crate::relpath::RelPath;

/// README names tried in each directory, in order.
const READMES: &[&str] = &[
    "README.md",
    "README.markdown",
    "README.rst",
    "README.txt",
    "README",
    "readme.md",
];
/// The longest description kept, in characters (cut at a word, with `…`).
const MAX_CHARS: usize = 200;

/// The manifest description of `dir` (project-relative, `""` for the root), else its README's first
/// sentence; `None` when neither says anything worth showing.
pub fn dir_description(project: &Project, dir: &str) -> Option<String> {
    manifest_description(project, dir).or_else(|| readme_sentence(project, dir))
}

/// The first sentence of the `description` in `dir`'s manifest: `Cargo.toml`, `package.json`,
/// `pyproject.toml` (`project::manifest`).
pub fn manifest_description(project: &Project, dir: &str) -> Option<String> {
    let found = Manifest::described_in(&project.root, dir)?.description?;
    let one_line = found.split_whitespace().collect::<Vec<_>>().join(" ");
    clean(&sentence_of(&one_line))
}

/// The package name declared by the manifest in `dir` (`Cargo.toml`, `package.json`, `pyproject.toml`).
pub fn package_name(project: &Project, dir: &str) -> Option<String> {
    Manifest::named_in(&project.root, dir)?.name
}

/// The first sentence of prose in `dir`'s README (headings, badges, HTML, code and licence lines
/// skipped).
pub fn readme_sentence(project: &Project, dir: &str) -> Option<String> {
    READMES.iter().find_map(|name| {
        let text = project
            .read_to_string(&RelPath::new(dir).join(name).into_string())
            .ok()?;
        first_sentence(&text)
    })
}

/// Words in a README heading whose section says nothing about what the code is for: how to
/// install it, what it is compatible with, licences, badges, contributing, sponsors.
const UNDESCRIPTIVE_SECTIONS: &[&str] = &[
    "install",
    "getting started",
    "quick start",
    "quickstart",
    "compatib",
    "requirement",
    "licen",
    "contribut",
    "changelog",
    "sponsor",
    "backer",
    "badge",
    "support",
    "security",
    "code of conduct",
    "donat",
    "funding",
    "acknowledg",
    "credit",
    "author",
    "maintainer",
    "status",
    "version",
    "migrat",
    "upgrad",
];

/// Phrases of an install note or a caveat: never a description.
const NOTE_PHRASES: &[&str] = &[
    "npm install",
    "npm i ",
    "yarn add",
    "pnpm add",
    "pip install",
    "uv add",
    "poetry add",
    "cargo add",
    "cargo install",
    "go get",
    "brew install",
    "compatibility note",
    // A pointer elsewhere says nothing of the code ("See our website @babel/x for more information.").
    "for more information",
    "for more details",
    "please refer to",
];

/// The first sentence of the first prose paragraph of a markdown or reStructuredText text that
/// describes the code (a blockquote before any prose counts: a README's tagline under its title):
/// headings, badges, tables, lists, later quotes, code and HTML are skipped, and so
/// are the sections whose heading says they are about installing, compatibility, licences,
/// contributing and the like ([`UNDESCRIPTIVE_SECTIONS`]), install notes and caveats
/// ([`NOTE_PHRASES`], a leading "Note", a pointer elsewhere), and boilerplate.
pub fn first_sentence(text: &str) -> Option<String> {
    let mut paragraph = String::new();
    let mut in_fence = false;
    let mut skipping = false;
    let mut in_alert = false;
    let mut candidates = Vec::new();
    let lines: Vec<&str> = text.lines().map(str::trim).collect();
    let undescriptive = |heading: &str| {
        let lower = heading.to_lowercase();
        UNDESCRIPTIVE_SECTIONS
            .iter()
            .any(|word| lower.contains(word))
    };
    for (at, line) in lines.iter().enumerate() {
        let line = *line;
        if line.starts_with("```") || line.starts_with("~~~") {
            in_fence = !in_fence;
            continue;
        }
        if in_fence {
            continue;
        }
        let underlined = lines
            .get(at + 1)
            .is_some_and(|next| next.len() >= 3 && next.chars().all(|c| "=-*~^#_+`".contains(c)));
        if let Some(heading) = line.strip_prefix('#').filter(|_| !line.starts_with("#!")) {
            skipping = undescriptive(heading);
            if !paragraph.is_empty() {
                candidates.push(std::mem::take(&mut paragraph));
            }
            continue;
        }
        if underlined && !line.is_empty() && is_prose_line(line) {
            // An underlined heading: this line, then its rule.
            skipping = undescriptive(line);
            if !paragraph.is_empty() {
                candidates.push(std::mem::take(&mut paragraph));
            }
            continue;
        }
        if !line.is_empty() && line.chars().all(|c| "=-*~^#_+`".contains(c)) {
            paragraph.clear();
            continue;
        }
        // A blockquote before any prose is the document's tagline ("# @babel/x\n\n> This plugin
        // transforms ES2015 modules to AMD"); later ones quote something else. An alert
        // (`> [!NOTE]`) is a caveat.
        let quoted = line.strip_prefix('>').map(str::trim);
        in_alert = match quoted {
            Some(quoted) => in_alert || quoted.starts_with("[!"),
            None => false,
        };
        let tagline = quoted
            .filter(|_| candidates.is_empty() && !in_alert)
            .filter(|quoted| !quoted.is_empty() && is_prose_line(quoted));
        if let Some(quoted) = tagline.filter(|_| !skipping) {
            if !paragraph.is_empty() {
                paragraph.push(' ');
            }
            paragraph.push_str(quoted);
            continue;
        }
        if skipping || line.is_empty() || !is_prose_line(line) {
            if !paragraph.is_empty() {
                candidates.push(std::mem::take(&mut paragraph));
            }
            continue;
        }
        if !paragraph.is_empty() {
            paragraph.push(' ');
        }
        paragraph.push_str(line);
    }
    candidates.push(paragraph);
    candidates
        .iter()
        .filter(|p| p.split_whitespace().count() >= 3 && !is_note(p))
        .take(6)
        .find_map(|p| clean(&sentence_of(&strip_markup(p))))
}

/// An install note or a caveat rather than a description.
fn is_note(paragraph: &str) -> bool {
    let lower = paragraph.to_lowercase();
    let bare = lower.trim_start_matches(['*', '_', ' ']);
    NOTE_PHRASES.iter().any(|phrase| lower.contains(phrase))
        || bare.starts_with("note")
        || bare.starts_with("warning")
        || bare.starts_with("important")
}

/// A description tidied to one line of at most [`MAX_CHARS`], or `None` when it is empty,
/// boilerplate, a count, or anything the secret scanner flags (not even a key's header line).
pub fn clean(text: &str) -> Option<String> {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let looks_secret = !crate::secrets::scan(line.as_bytes()).is_empty();
    if line.chars().filter(|c| c.is_alphabetic()).count() < 3
        || is_boilerplate(&line)
        || is_count(&line)
        || looks_secret
    {
        return None;
    }
    if line.chars().count() <= MAX_CHARS {
        return Some(line);
    }
    let cut: String = line.chars().take(MAX_CHARS).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(head, _)| head);
    Some(format!("{}…", cut.trim_end_matches([',', ';', ':'])))
}

/// A licence banner, copyright notice or similar legal line: never a description.
pub fn is_boilerplate(text: &str) -> bool {
    let lower = text.to_lowercase();
    [
        "copyright",
        "(c) ",
        "©",
        "spdx-license",
        "licensed under",
        "all rights reserved",
        "this file is part of",
        "permission is hereby granted",
        "under the terms of",
        "this program is free software",
        "dual-licensed",
        "license:",
        "licence:",
    ]
    .iter()
    .any(|marker| lower.contains(marker))
        || (lower.contains("license") || lower.contains("licence"))
            && ["mit", "apache", "gpl", "bsd", "mpl", "isc"]
                .iter()
                .any(|name| {
                    lower
                        .split(|c: char| !c.is_alphanumeric())
                        .any(|word| word == *name)
                })
}

/// A structural count such as `19 files and 2 subdirectories.`, `Empty directory.` or `Directory`:
/// what a billboard says when nothing better was known.
pub fn is_count(text: &str) -> bool {
    let text = text.trim().trim_end_matches('.');
    if text.is_empty() || text == "Empty directory" || text == "Directory" {
        return true;
    }
    text.split(" and ").all(|part| {
        let mut words = part.split_whitespace();
        let number = words
            .next()
            .is_some_and(|n| n.chars().all(|c| c.is_ascii_digit()));
        let noun = words.next().is_some_and(|noun| {
            matches!(
                noun,
                "file" | "files" | "subdirectory" | "subdirectories" | "directory" | "directories"
            )
        });
        number && noun && words.next().is_none()
    })
}

/// What a directory of this name holds by convention.
pub fn conventional_purpose(dir: &str) -> Option<&'static str> {
    Some(match RelPath::new(dir).file_name() {
        "tests" | "test" => "Tests.",
        "testdata" | "fixtures" => "Test data and fixtures.",
        "docs" | "doc" => "Documentation.",
        "examples" | "example" => "Examples of use.",
        "benches" | "bench" | "benchmarks" => "Benchmarks.",
        "scripts" => "Scripts for development and release.",
        ".github" => "GitHub workflows and settings (CI).",
        ".cargo" => "Cargo configuration.",
        ".vscode" | ".idea" | ".devcontainer" => "Editor and container settings.",
        "xtask" => "Build and maintenance tasks (cargo xtask).",
        _ => return None,
    })
}

/// Whether `dir` holds a package manifest (`Cargo.toml`, `package.json`, `pyproject.toml`).
pub fn has_manifest(project: &Project, dir: &str) -> bool {
    crate::source::lang::files::package_manifests()
        .iter()
        .any(|name| {
            project
                .root
                .join(RelPath::new(dir).join(name).into_string())
                .is_file()
        })
}

/// Whether a trimmed line can be prose (not a heading, badge, image, HTML, table, directive or rule).
fn is_prose_line(line: &str) -> bool {
    let first = line.chars().next().unwrap_or(' ');
    let rule = line.chars().all(|c| "=-*~^#_+`".contains(c));
    !rule
        && !matches!(first, '#' | '<' | '|' | '!' | '>' | ':')
        && !line.starts_with("[![")
        && !line.starts_with("..")
        && !line.starts_with("- ")
        && !line.starts_with("* ")
        && !line.starts_with("[")
}

/// Markdown links and emphasis reduced to their text.
fn strip_markup(text: &str) -> String {
    let links = regex_lite_links(text);
    links.replace("**", "").replace("__", "")
}

/// `[text](url)` → `text`, without a regex engine for one pattern.
fn regex_lite_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|at| open + at) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|at| close + at) else {
            break;
        };
        out.push_str(&rest[..open]);
        out.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

/// The text up to and including its first sentence end (`. `, `! `, `? ` or the end).
fn sentence_of(text: &str) -> String {
    let bytes = text.as_bytes();
    for (at, window) in bytes.windows(2).enumerate() {
        if matches!(window[0], b'.' | b'!' | b'?') && window[1] == b' ' {
            let head = &text[..=at];
            // `e.g. ` and `i.e. ` do not end a sentence.
            if !(head.ends_with("e.g.") || head.ends_with("i.e.") || head.ends_with("etc.")) {
                return head.to_string();
            }
        }
    }
    text.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A README's tagline is the blockquote under its title; a pointer to a website says nothing;
    /// a quote after the first prose and an alert are not taglines.
    #[test]
    fn a_readmes_tagline_is_its_first_blockquote_and_a_pointer_is_no_description() {
        let babel = "# @babel/plugin-transform-modules-amd\n\n> This plugin transforms ES2015 modules to AMD\n\nSee our website [@babel/plugin-transform-modules-amd](https://babeljs.io/docs/x) for more information.\n\n## Install\n";
        assert_eq!(
            first_sentence(babel).as_deref(),
            Some("This plugin transforms ES2015 modules to AMD")
        );
        let pointer = "# @babel/x\n\nSee our website [@babel/x](https://babeljs.io) for more information.\n\n## Usage\n\nThe plugin compiles classes.\n";
        assert_eq!(
            first_sentence(pointer).as_deref(),
            Some("The plugin compiles classes.")
        );
        let quote = "# Tool\n\nThe tool formats code.\n\n> A quoted remark from a user.\n";
        assert_eq!(
            first_sentence(quote).as_deref(),
            Some("The tool formats code.")
        );
        let alert = "# Tool\n\n> [!WARNING]\n> This package is deprecated in favour of another.\n\nThe tool formats code.\n";
        assert_eq!(
            first_sentence(alert).as_deref(),
            Some("The tool formats code.")
        );
    }

    #[test]
    fn readme_first_sentence_skips_headings_badges_and_licences() {
        let readme = "# quill\n\n[![CI](https://x/badge.svg)](https://x)\n\nCopyright 2024 Acme. Licensed under MIT.\n\nQuill renders [Markdown](https://commonmark.org) in **terminals**. It is fast.\n";
        assert_eq!(
            first_sentence(readme).as_deref(),
            Some("Quill renders Markdown in terminals.")
        );
        let rst = "Flask\n=====\n\n.. image:: x.png\n\nFlask is a lightweight WSGI web application framework. It is designed…\n";
        assert_eq!(
            first_sentence(rst).as_deref(),
            Some("Flask is a lightweight WSGI web application framework.")
        );
    }

    /// A badge table, an install section or a compatibility note never describes the code.
    #[test]
    fn readme_sections_about_installing_and_badges_are_skipped() {
        let badges = "# clap\n\n| Component | Version |\n|---|---|\n| clap | 4 |\n\nCommand Line Argument Parser for Rust.\n";
        assert_eq!(
            first_sentence(badges).as_deref(),
            Some("Command Line Argument Parser for Rust.")
        );
        let install = "# tool\n\n## Installation\n\nRun this to get it from the registry quickly.\n\n## About\n\nTool turns logs into charts.\n";
        assert_eq!(
            first_sentence(install).as_deref(),
            Some("Tool turns logs into charts.")
        );
        let note = "# cli\n\n**Compatibility Note**: Node 18 or later is needed to run it.\n\nThe CLI scaffolds new projects.\n";
        assert_eq!(
            first_sentence(note).as_deref(),
            Some("The CLI scaffolds new projects.")
        );
        assert_eq!(
            first_sentence("Install with `npm install x` and go.\n"),
            None
        );
    }

    #[test]
    fn counts_and_licence_banners_are_not_descriptions() {
        assert!(is_count("19 files and 2 subdirectories."));
        assert!(is_count("1 file."));
        assert!(is_count("Directory"));
        assert!(!is_count("2 ways to route requests."));
        assert!(is_boilerplate(
            "Licensed under the Apache License, Version 2.0"
        ));
        assert!(is_boilerplate("SPDX-License-Identifier: MIT"));
        assert!(!is_boilerplate("Routing of requests to view functions."));
        assert_eq!(clean("3 files."), None);
        assert_eq!(
            clean("  Parses\n  things. "),
            Some("Parses things.".to_string())
        );
    }

    #[test]
    fn manifests_give_descriptions_before_readmes() {
        let dir = tempfile::tempdir().expect("tempdir");
        let project = Project::new(dir.path().to_path_buf(), crate::project::Config::default());
        std::fs::create_dir_all(dir.path().join("a")).expect("mkdir");
        std::fs::write(dir.path().join("a/README.md"), "The readme says so.\n").expect("write");
        assert_eq!(
            dir_description(&project, "a").as_deref(),
            Some("The readme says so.")
        );
        std::fs::write(
            dir.path().join("a/Cargo.toml"),
            "[package]\nname = \"a\"\ndescription = \"\"\"\nAn async\nruntime.\"\"\"\n",
        )
        .expect("write");
        assert_eq!(
            dir_description(&project, "a").as_deref(),
            Some("An async runtime.")
        );
        std::fs::write(
            dir.path().join("package.json"),
            r#"{"description": "Web framework."}"#,
        )
        .expect("write");
        assert_eq!(
            manifest_description(&project, "").as_deref(),
            Some("Web framework.")
        );
        std::fs::write(
            dir.path().join("pyproject.toml"),
            "[project]\nname = \"p\"\ndescription = \"A WSGI toolkit.\"\n",
        )
        .expect("write");
        std::fs::remove_file(dir.path().join("package.json")).expect("rm");
        assert_eq!(
            manifest_description(&project, "").as_deref(),
            Some("A WSGI toolkit.")
        );
    }
}
