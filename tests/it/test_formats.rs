//! The library formats through the public API: canonical rendering (snapshotted), round trips, and
//! the design-hash contract between writer and checker (the Python edition's defect 1).

use std::collections::BTreeMap;

use lexibrarian::library::aindex::{AIndex, ChildEntry, ChildKind};
use lexibrarian::library::design_file::{is_unedited, sections, DesignFile};
use lexibrarian::library::footer::{design_hash_of, Footer};
use lexibrarian::library::markdown::Section;

fn footer(source: &str) -> Footer {
    Footer {
        source: source.to_string(),
        source_hash: "a".repeat(64),
        interface_hash: Some("b".repeat(64)),
        design_hash: String::new(),
        generated: None,
        generator: "lexibrarian 0.1.0".into(),
        extra: BTreeMap::new(),
    }
}

fn design(source: &str) -> DesignFile {
    DesignFile::new(
        source,
        "Parses config: YAML in, typed structs out.",
        vec![
            Section::new(
                sections::INTERFACE_CONTRACT,
                "```rust\npub fn parse(text: &str) -> Result<Config, Error>\n## a heading-looking line in code\n```",
            ),
            Section::new(sections::DEPENDENCIES, "- src/error.rs"),
            Section::new(sections::DEPENDENTS, ""),
            Section::new(sections::TAGS, "- config"),
        ],
    )
}

#[test]
fn design_file_canonical_form() {
    let (text, _) = design("src/config.rs").render_with_footer(footer("src/config.rs"));
    insta::assert_snapshot!("design_file_canonical", text);
}

#[test]
fn aindex_canonical_form() {
    let mut index = AIndex::new(
        "src/auth",
        "Login, sessions and token refresh.",
        &[
            ChildEntry {
                name: "oauth".into(),
                kind: ChildKind::Dir,
                description: "OAuth providers.".into(),
            },
            ChildEntry {
                name: "login.py".into(),
                kind: ChildKind::File,
                description: "Handles login | logout.".into(),
            },
        ],
    );
    index
        .doc
        .set_section("Local Conventions", "- Use UTC everywhere.");
    insta::assert_snapshot!("aindex_canonical", index.render());
}

#[test]
fn writer_output_always_verifies_with_the_checker() {
    for source in ["src/a.rs", "src/with space.rs", "src/ünïcødé/日本.py", "a"] {
        for description in [
            "",
            "plain",
            "quotes: 'single' \"double\"",
            "multi\nline",
            "# not a heading",
        ] {
            let mut file = design(source);
            file.frontmatter.description = description.to_string();
            let (text, written) = file.render_with_footer(footer(source));
            assert!(is_unedited(&text, &written), "{source} / {description:?}");
            assert_eq!(design_hash_of(&text), written.design_hash);
            let parsed = DesignFile::parse("x.md", &text).expect("parses");
            assert_eq!(parsed.frontmatter.description, description);
            assert_eq!(parsed.footer.as_ref(), Some(&written));
            assert_eq!(parsed.render(), text, "render(parse(text)) == text");
            assert_eq!(parsed.body, file.body, "parse(render(x)) == x");
        }
    }
}

#[test]
fn code_fences_with_headings_survive_a_rewrite() {
    let (text, _) = design("src/a.rs").render_with_footer(footer("src/a.rs"));
    let parsed = DesignFile::parse("x.md", &text).expect("parses");
    let contract = parsed
        .section(sections::INTERFACE_CONTRACT)
        .expect("contract");
    assert!(contract.body.contains("## a heading-looking line in code"));
    assert_eq!(parsed.body.sections.len(), 4);
}

#[test]
fn unknown_sections_stay_in_place() {
    let text = "---\ndescription: x\nupdated_by: agent\n---\n\n# src/a.rs\n\n## Interface Contract\n\nold\n\n## Why This Exists\n\nA human wrote this.\n\n## Dependencies\n\n- b\n";
    let mut parsed = DesignFile::parse("x.md", text).expect("parses");
    parsed.body.set_section(sections::INTERFACE_CONTRACT, "new");
    let rendered = parsed.render();
    assert_eq!(rendered, text.replace("\nold\n", "\nnew\n"));
}

#[test]
fn crlf_empty_sections_and_missing_footer() {
    let text =
        "---\r\ndescription: x\r\n---\r\n\r\n# a\r\n\r\n## Empty\r\n\r\n## Full\r\n\r\nbody\r\n";
    let parsed = DesignFile::parse("x.md", text).expect("parses");
    assert!(parsed.footer.is_none());
    assert_eq!(parsed.body.sections[0], Section::new("Empty", ""));
    assert_eq!(parsed.body.sections[1], Section::new("Full", "body"));
    assert_eq!(
        parsed.render(),
        text.replace("\r\n", "\n")
            .replace("description: x", "description: x\nupdated_by: archivist")
    );
}

#[test]
fn rendering_is_deterministic() {
    let a = design("src/a.rs").render_with_footer(footer("src/a.rs")).0;
    let b = design("src/a.rs").render_with_footer(footer("src/a.rs")).0;
    assert_eq!(a, b);
    assert!(a.ends_with("-->\n") && !a.contains('\r'));
}
