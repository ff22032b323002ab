//! Properties of every parser and renderer of text people and agents edit: design files (with their
//! frontmatter and footer), `.aindex`, Stack posts, concepts, I Was Here notes and the config.
//!
//! 1. Parsing never panics, whatever the input (arbitrary text, and "soups" of the fragments these
//!    formats are made of: fences, headings, footers, table pipes, YAML punctuation, CRLF, NUL).
//! 2. Render ∘ parse is the identity on canonical text: what a renderer wrote parses back and
//!    renders to the very same bytes (and, for models, to the same values).
//! 3. The design hash of writer output always verifies (DESIGN R-1).
//!
//! `cargo test` runs a bounded number of cases with a fixed seed (fast, deterministic). A longer,
//! random run for local use: `PROPTEST_CASES=100000 cargo test --release --test properties`
//! (add `PROPTEST_RNG_SEED=<n>` to replay one). Every bug these properties found has a named
//! regression test at the end of this file.

use std::collections::BTreeMap;

use lexibrarian::library::aindex::{AIndex, ChildEntry, ChildKind};
use lexibrarian::library::concept::{self, Concept, ConceptStatus};
use lexibrarian::library::design_file::{is_unedited, DesignFile};
use lexibrarian::library::footer::{self, Footer};
use lexibrarian::library::frontmatter;
use lexibrarian::library::iwh::{Iwh, IwhMeta, IwhScope};
use lexibrarian::library::markdown::{seal_block, Document, Section};
use lexibrarian::library::stack::{Post, PostMeta, PostRefs, PostStatus};
use lexibrarian::project::config::{self, AgentEnvironment, Config, LlmProvider, ScopeRoots};
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, RngSeed};

/// Cases per property in `cargo test` (when `PROPTEST_CASES` does not say otherwise).
const DEFAULT_CASES: u32 = 96;

/// The bounded, fixed-seed run of `cargo test`; the environment (`PROPTEST_CASES`,
/// `PROPTEST_RNG_SEED`) takes over for a longer random run. Failures are never written to files:
/// each one found becomes a regression test below.
fn config() -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = DEFAULT_CASES;
        if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
            config.rng_seed = RngSeed::Fixed(0x1e71_b4a7);
        }
    }
    config.failure_persistence = None;
    config
}

// --- generators -------------------------------------------------------------------------------

/// The pieces these formats are built from, and the characters that trip parsers.
const FRAGMENTS: &[&str] = &[
    "\n",
    "\n\n",
    " ",
    "  ",
    "\t",
    "\r\n",
    "\r",
    "#",
    "# ",
    "## ",
    "### ",
    "---",
    "---\n",
    "...",
    "```",
    "```rust\n",
    "~~~",
    "<!--",
    "-->",
    "<!-- lexibrarian:meta\n",
    "source: a.rs\n",
    "source_hash: 00\n",
    "design_hash: 11\n",
    "generated: t\n",
    "generator: g\n",
    "interface_hash: 22\n",
    "description: ",
    "updated_by: agent\n",
    "id: ST-001\n",
    "title: T\n",
    "status: draft\n",
    "scope: warning\n",
    "author: a\n",
    "created: c\n",
    ":",
    ": ",
    "\"",
    "'",
    "[[",
    "]]",
    "|",
    "\\|",
    "`",
    "- ",
    "* ",
    "1. ",
    ">",
    "\\",
    "{",
    "}",
    "[",
    "]",
    "&",
    "*",
    "!",
    "%",
    "@",
    "é",
    "🦀",
    "\u{0}",
    "\u{feff}",
    "\u{2028}",
    "word",
    "a.rs",
    "Child Map",
    "Local Conventions",
    "## Problem\n",
    "### Evidence\n",
    "## Answers\n",
    "### A1\n",
    "~",
    "null",
    "yes",
    "0x1",
    "-1",
    "1e3",
    "<",
    "=",
    "==",
    "&anchor",
    "*alias",
    "!!str",
    "? ",
];

/// Text made of [`FRAGMENTS`] and arbitrary characters.
fn soup() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        3 => prop::sample::select(FRAGMENTS).prop_map(str::to_string),
        1 => "\\PC{0,6}",
        1 => any::<char>().prop_map(|c| c.to_string()),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|pieces| pieces.concat())
}

/// A soup behind a frontmatter fence, so the YAML and body parsers are reached.
fn fenced_soup() -> impl Strategy<Value = String> {
    (soup(), soup()).prop_map(|(yaml, body)| format!("---\n{yaml}\n---\n{body}"))
}

/// One line of printable text (no line break), possibly empty.
fn line() -> impl Strategy<Value = String> {
    "\\PC{0,30}"
}

/// A word-ish token: what a heading, a tag or a name usually is, with the odd character.
fn token() -> impl Strategy<Value = String> {
    "[A-Za-z0-9][A-Za-z0-9 ._`|#*é-]{0,15}".prop_map(|token| token.trim_end().to_string())
}

/// A block of lines as an agent might write under a heading: canonical (no blank lines at either
/// end, no trailing newline), possibly holding code fences, lists and lone `#`.
fn body() -> impl Strategy<Value = String> {
    let body_line = prop_oneof![
        4 => line(),
        1 => Just(String::new()),
        1 => Just("```".to_string()),
        1 => "- \\PC{1,20}",
        1 => "[*>|] \\PC{0,20}",
    ];
    prop::collection::vec(body_line, 0..6)
        .prop_map(|lines| lexibrarian::library::markdown::trim_blank_lines(&lines.join("\n")))
}

fn sections() -> impl Strategy<Value = Vec<Section>> {
    prop::collection::vec(
        (token(), body()).prop_map(|(heading, body)| Section::new(heading, body)),
        0..5,
    )
}

/// A footer's value: one line, as the writer puts them.
fn value() -> impl Strategy<Value = String> {
    "[^\\n\\r]{0,24}"
}

fn footer_strategy() -> impl Strategy<Value = Footer> {
    (
        (value(), value(), prop::option::of(value()), value()),
        (prop::option::of(value()), value()),
        prop::collection::btree_map("x_[a-z_]{1,8}", value(), 0..3),
    )
        .prop_map(
            |(
                (source, source_hash, interface_hash, design_hash),
                (generated, generator),
                extra,
            )| {
                Footer {
                    source,
                    source_hash,
                    interface_hash,
                    design_hash,
                    generated,
                    generator,
                    extra,
                }
            },
        )
}

/// A design file as the Archivist or an agent writes one: title, description, sections.
fn design_strategy() -> impl Strategy<Value = DesignFile> {
    (token(), line(), sections(), any::<bool>()).prop_map(
        |(source, description, sections, agent)| {
            let mut design = DesignFile::new(&source, description, sections);
            if agent {
                design.frontmatter.updated_by = lexibrarian::library::design_file::UpdatedBy::Agent;
            }
            design
        },
    )
}

/// A file or directory name as a Child Map lists it: no `/`, no line break, not empty.
fn child_name() -> impl Strategy<Value = String> {
    "[A-Za-z0-9 ._`|\\\\#*é-]{1,20}"
}

fn children() -> impl Strategy<Value = Vec<ChildEntry>> {
    prop::collection::btree_map(
        (child_name(), any::<bool>()),
        line().prop_map(|description| description.trim().to_string()),
        0..6,
    )
    .prop_map(|rows| {
        rows.into_iter()
            .map(|((name, dir), description)| ChildEntry {
                name,
                kind: if dir { ChildKind::Dir } else { ChildKind::File },
                description,
            })
            .collect()
    })
}

fn post_strategy() -> impl Strategy<Value = Post> {
    (
        (
            1u32..1000,
            line(),
            prop::collection::vec(token(), 0..3),
            0u8..4,
        ),
        (line(), line(), prop::option::of(line()), -5i64..5),
        (
            prop::collection::vec(token(), 0..3),
            prop::collection::vec(token(), 0..3),
        ),
        (body(), body()),
    )
        .prop_map(
            |(
                (number, title, tags, status),
                (created, author, bead, votes),
                (concepts, files),
                (problem, evidence),
            )| {
                let meta = PostMeta {
                    id: format!("ST-{number:03}"),
                    title,
                    tags,
                    status: [
                        PostStatus::Open,
                        PostStatus::Resolved,
                        PostStatus::Outdated,
                        PostStatus::Duplicate,
                    ][usize::from(status)],
                    created,
                    author,
                    bead,
                    votes,
                    refs: PostRefs {
                        concepts,
                        files,
                        designs: Vec::new(),
                    },
                    ..PostMeta::default()
                };
                Post::new(meta, &problem, &evidence)
            },
        )
}

fn iwh_strategy() -> impl Strategy<Value = Iwh> {
    (line(), line(), 0u8..3, body()).prop_map(|(author, created, scope, body)| Iwh {
        meta: IwhMeta {
            author,
            created,
            scope: [IwhScope::Warning, IwhScope::Incomplete, IwhScope::Blocked][usize::from(scope)],
        },
        body: body.trim().to_string(),
    })
}

fn config_strategy() -> impl Strategy<Value = Config> {
    (
        (line(), prop::collection::vec(token(), 1..3), any::<bool>()),
        (
            prop::sample::subsequence(
                vec![
                    AgentEnvironment::Claude,
                    AgentEnvironment::Cursor,
                    AgentEnvironment::Codex,
                ],
                0..3,
            ),
            any::<bool>(),
        ),
        (
            0u8..4,
            prop::option::of(line()),
            prop::option::of(line()),
            1u32..64,
        ),
        (1u32..100_000, prop::collection::vec(token(), 0..3)),
    )
        .prop_map(
            |(
                (name, roots, one),
                (agents, iwh),
                (provider, model, base_url, concurrency),
                (budget, patterns),
            )| {
                let mut config = Config {
                    project_name: name,
                    scope_root: if one {
                        ScopeRoots::One(roots[0].clone())
                    } else {
                        ScopeRoots::Many(roots)
                    },
                    agent_environment: agents,
                    ..Config::default()
                };
                config.iwh.enabled = iwh;
                config.llm.provider = [
                    LlmProvider::Structural,
                    LlmProvider::Anthropic,
                    LlmProvider::OpenAi,
                    LlmProvider::OpenAiCompatible,
                ][usize::from(provider)];
                config.llm.model = model;
                config.llm.base_url = base_url;
                config.llm.concurrency = concurrency;
                config.token_budgets.design_file_tokens = budget;
                config.ignore.additional_patterns = patterns;
                config
            },
        )
}

// --- 1. parsing never panics ------------------------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn nothing_panics_on_arbitrary_text(text in prop_oneof![soup(), fenced_soup(), any::<String>()]) {
        let _ = Document::parse(&text);
        let _ = frontmatter::split("f", &text);
        if let Ok(split) = frontmatter::split("f", &text) {
            if let Some(yaml) = split.yaml {
                let _ = frontmatter::parse::<serde_yaml::Value>("f", yaml);
            }
        }
        let (_, block) = footer::split(&text);
        if let Some(block) = block {
            let _ = Footer::parse("f", block, 1);
            let _ = footer::trailing_text(block);
        }
        let _ = footer::design_hash_of(&text);
        let _ = DesignFile::parse("f", &text);
        let _ = lexibrarian::library::design_file::text_is_unedited("f", &text);
        if let Ok(index) = AIndex::parse("f", "d", &text) {
            let _ = index.children();
            let _ = index.local_conventions();
        }
        if let Ok(post) = Post::parse("f", &text) {
            let _ = post.read_body();
        }
        if let Ok(concept) = Concept::parse("f", "Name", &text) {
            let _ = (concept.summary(), concept.problems(), concept.related(), concept.rules());
        }
        let _ = Iwh::parse("f", &text);
        let _ = config::parse(std::path::Path::new("config.yaml"), &text);
        let _ = lexibrarian::library::wikilink::extract(&text);
    }

    // --- 2. render ∘ parse is the identity on canonical text -----------------------------------

    #[test]
    fn markdown_renders_to_a_fixed_point(text in soup()) {
        let canonical = Document::parse(&text).render();
        prop_assert_eq!(Document::parse(&canonical).render(), canonical);
    }

    #[test]
    fn design_files_render_to_a_fixed_point(text in prop_oneof![soup(), fenced_soup()]) {
        if let Ok(design) = DesignFile::parse("f", &text) {
            let canonical = design.render();
            let again = DesignFile::parse("f", &canonical);
            prop_assert!(again.is_ok(), "{:?} does not parse: {:?}", canonical, again);
            prop_assert_eq!(again.map(|d| d.render()).unwrap_or_default(), canonical);
        }
    }

    #[test]
    fn design_file_models_round_trip(design in design_strategy(), footer in footer_strategy()) {
        let (text, written) = design.render_with_footer(footer);
        let parsed = DesignFile::parse("f", &text);
        prop_assert!(parsed.is_ok(), "{:?}: {:?}", text, parsed);
        let parsed = parsed.unwrap_or_else(|_| design.clone());
        prop_assert_eq!(parsed.render(), text.clone());
        prop_assert_eq!(&parsed.frontmatter, &design.frontmatter);
        prop_assert_eq!(parsed.footer.as_ref(), Some(&written));
        // 3. The design hash of writer output always verifies.
        prop_assert_eq!(footer::design_hash_of(&text), written.design_hash.clone());
        prop_assert!(is_unedited(&text, &written));
    }

    #[test]
    fn footers_round_trip(footer in footer_strategy()) {
        let text = footer.render();
        prop_assert_eq!(Footer::parse("f", &text, 1).ok(), Some(footer));
    }

    #[test]
    fn aindex_models_round_trip(dir in "[a-z/]{0,12}", billboard in body(), children in children()) {
        let index = AIndex::new(&dir, &billboard, &children);
        let text = index.render();
        let parsed = AIndex::parse("f", &dir, &text);
        prop_assert!(parsed.is_ok(), "{:?}", text);
        let parsed = parsed.unwrap_or_else(|_| index.clone());
        prop_assert_eq!(parsed.render(), text);
        let mut expected = children.clone();
        expected.sort_by(|a, b| a.kind.cmp(&b.kind).then_with(|| a.name.cmp(&b.name)));
        prop_assert_eq!(parsed.children(), expected);
        // A billboard that leaves a fence open comes back closed (it would swallow the Child Map).
        let sealed = seal_block(billboard.trim()).into_owned();
        prop_assert_eq!(parsed.billboard(), sealed.as_str());
    }

    #[test]
    fn aindex_text_renders_to_a_fixed_point(text in soup()) {
        if let Ok(index) = AIndex::parse("f", "d", &text) {
            let canonical = index.render();
            let again = AIndex::parse("f", "d", &canonical).map(|i| i.render());
            prop_assert_eq!(again.ok(), Some(canonical));
        }
    }

    #[test]
    fn stack_posts_round_trip(post in post_strategy(), answers in prop::collection::vec(body(), 0..3)) {
        let mut post = post;
        for (n, answer) in answers.iter().enumerate() {
            post.append_answer("2026-01-15", &format!("agent-{n}"), answer);
        }
        let text = post.render();
        let parsed = Post::parse("f", &text);
        prop_assert!(parsed.is_ok(), "{:?}: {:?}", text, parsed);
        let parsed = parsed.unwrap_or_else(|_| post.clone());
        prop_assert_eq!(&parsed.meta, &post.meta);
        prop_assert_eq!(parsed.render(), text);
        prop_assert_eq!(parsed.read_body().answers.len(), answers.len());
    }

    #[test]
    fn stack_text_renders_to_a_fixed_point(text in fenced_soup()) {
        if let Ok(post) = Post::parse("f", &text) {
            let canonical = post.render();
            let again = Post::parse("f", &canonical).map(|p| p.render());
            prop_assert_eq!(again.ok(), Some(canonical));
        }
    }

    #[test]
    fn concept_templates_parse_back(title in line(), aliases in prop::collection::vec(line(), 0..3), tags in prop::collection::vec(token(), 0..3)) {
        let text = concept::template(&title, &aliases, &tags);
        let parsed = Concept::parse("f", "Name", &text);
        prop_assert!(parsed.is_ok(), "{:?}: {:?}", text, parsed);
        let parsed = parsed.unwrap_or_else(|_| unreachable!());
        prop_assert_eq!(&parsed.meta.title, &title);
        prop_assert_eq!(&parsed.meta.aliases, &aliases);
        let lowered: Vec<String> = tags.iter().map(|tag| tag.trim().to_lowercase()).collect();
        prop_assert_eq!(&parsed.meta.tags, &lowered);
        prop_assert_eq!(parsed.status(), ConceptStatus::Draft);
    }

    #[test]
    fn iwh_notes_round_trip(note in iwh_strategy()) {
        let text = note.render();
        let parsed = Iwh::parse("f", &text);
        prop_assert_eq!(parsed.ok(), Some(note.clone()));
        prop_assert_eq!(Iwh::parse("f", &text).map(|n| n.render()).ok(), Some(text));
    }

    #[test]
    fn configs_round_trip(config in config_strategy()) {
        let text = config::render(&config);
        let parsed = config::parse(std::path::Path::new("config.yaml"), &text);
        prop_assert!(parsed.is_ok(), "{}\n{:?}", text, parsed.as_ref().err().map(|e| e.to_string()));
        prop_assert_eq!(parsed.ok(), Some(config));
    }

    #[test]
    fn frontmatter_values_round_trip(values in prop::collection::btree_map("[a-z_]{1,8}", line(), 0..4)) {
        let text = frontmatter::render(&values);
        let split = frontmatter::split("f", &text);
        prop_assert!(split.is_ok());
        let yaml = split.ok().and_then(|split| split.yaml).unwrap_or_default();
        let parsed: Result<BTreeMap<String, String>, _> = frontmatter::parse("f", yaml);
        prop_assert_eq!(parsed.ok(), Some(values));
    }
}

// --- regressions: one per bug the properties found ----------------------------------------------

/// A block that leaves a code fence open (an agent's billboard, a section) swallowed every heading
/// after it: the Child Map of an `.aindex` vanished into the billboard. Render closes it.
#[test]
fn regression_an_open_fence_never_swallows_the_sections_after_it() {
    let index = AIndex::new(
        "src",
        "```",
        &[ChildEntry {
            name: "a.rs".into(),
            kind: ChildKind::File,
            description: "A.".into(),
        }],
    );
    let parsed = AIndex::parse("f", "src", &index.render()).expect("parses");
    assert_eq!(parsed.children().len(), 1);
    assert_eq!(parsed.billboard(), "```\n```");
    let comment = Document {
        title: Some("t".into()),
        preamble: "<!-- an open comment".into(),
        sections: vec![Section::new("Kept", "body")],
    };
    assert_eq!(Document::parse(&comment.render()).sections.len(), 1);
}

/// `## C #` is the heading `C` in markdown: a heading whose text ends in `#` lost it on a round
/// trip. Render adds a closing sequence.
#[test]
fn regression_a_heading_ending_in_a_hash_keeps_it() {
    let doc = Document {
        title: Some("lib #".into()),
        preamble: String::new(),
        sections: vec![Section::new("a #", ""), Section::new("C#", "x")],
    };
    let text = doc.render();
    assert_eq!(text, "# lib # #\n\n## a # ##\n\n## C# ##\n\nx\n");
    assert_eq!(Document::parse(&text), doc);
}

/// A lone carriage return ends a line for the markdown parser but not for the heading scanner: one
/// heading was read twice, and the text grew on every rewrite.
#[test]
fn regression_a_lone_carriage_return_ends_a_heading_line() {
    let doc = Document::parse("#:\r## Problem\n");
    assert_eq!(doc.sections, vec![Section::new("Problem", "")]);
    let canonical = doc.render();
    assert_eq!(Document::parse(&canonical).render(), canonical);
}

/// What only looks like a fence to a line scanner (after U+2028, inside an HTML comment) must not
/// get a "closing" fence, which would open one for the markdown parser.
#[test]
fn regression_no_closing_fence_for_what_is_not_a_fence() {
    for text in [
        "\u{2028}```rust\n## Problem\n",
        "<!--\r\n```<!-- x\n-->```rust\n## \n",
    ] {
        let canonical = Document::parse(text).render();
        assert!(!canonical.contains("\n```\n"), "{canonical:?}");
        assert_eq!(Document::parse(&canonical).render(), canonical);
    }
}

/// A Child Map name holding a backtick lost it: the parser trimmed every backtick off the cell.
#[test]
fn regression_child_names_keep_their_backticks() {
    let children = vec![ChildEntry {
        name: "`odd` name`".into(),
        kind: ChildKind::File,
        description: "Weird but legal.".into(),
    }];
    let index = AIndex::new("", "B.", &children);
    let parsed = AIndex::parse("f", "", &index.render()).expect("parses");
    assert_eq!(parsed.children(), children);
}

/// A Stack problem that left a fence open hid every answer appended after it (`lexi stack answer`
/// numbered each new answer A1 again). The fence is closed when the post is written.
#[test]
fn regression_an_open_fence_in_a_problem_never_hides_the_answers() {
    let meta = PostMeta {
        id: "ST-001".into(),
        title: "t".into(),
        ..PostMeta::default()
    };
    let mut post = Post::new(meta, "```\nlet x = 1;", "seen");
    assert_eq!(post.append_answer("2026-01-15", "a", "first"), 1);
    assert_eq!(post.append_answer("2026-01-15", "b", "second"), 2);
    let parsed = Post::parse("f", &post.render()).expect("parses");
    assert_eq!(parsed.read_body().answers.len(), 2);
}
