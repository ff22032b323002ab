//! The library is a pure function of the tree and of what agents wrote (DESIGN §10, issue 29):
//! property tests that run the real `lexictl` against random repositories and random histories.
//!
//! Each case generates a small mixed-language repository — a Cargo workspace of two crates with
//! `mod`/`use`/`pub use` re-exports and `crate::a::b::f()` expression paths, a Python package with
//! `__init__.py` re-exports and relative imports, a JS/TS package with `#lib/*` `"imports"`,
//! `require`, ESM re-exports and index files, test files beside the code and in test directories,
//! a README, nested directories — and a history of commits (add, delete, move a file; edit a body,
//! a signature, a doc comment, an import, a re-export, the README; an agent rewriting a design
//! file's description, appending a section or text after the footer, `lexi describe`). Each commit
//! is followed by `lexictl update --changed-only`, as the post-commit hook runs it, and a commit
//! of the library. Then (see `fixed_point/scenario.rs` for "from scratch"):
//!
//! - (a) the library equals one full run from scratch, byte for byte;
//! - (b) a second full run writes nothing, and `update --check` exits 0 after a committed update;
//! - (c) `lexictl validate` finds nothing;
//! - (d) a cold cache, one thread or two, write the same bytes as a warm cache;
//! - (e) every text an agent wrote in the library, and did not replace, is still there.
//!
//! A failure prints the property, the minimal scenario found by shrinking — as Rust code, to paste
//! into a regression test at the end of this file — what the changed-only runs said, the files
//! that differ and the unified diff of the first one.
//!
//! `cargo test` runs a few cases with a fixed seed (debug build; every property and regression,
//! in CI too). A longer random run: `PROPTEST_CASES=200 cargo test --release --test fixed_point`
//! (`PROPTEST_RNG_SEED=<n>` replays one; `PROPTEST_MAX_SHRINK_ITERS` bounds shrinking, 64 by
//! default). The `survey` test tallies every kind of divergence (`fixed_point/survey.rs`).

#[allow(dead_code)]
#[path = "it/support.rs"]
mod support;

#[path = "fixed_point/library.rs"]
mod library;
#[path = "fixed_point/model.rs"]
mod model;
#[path = "fixed_point/render.rs"]
mod render;
#[path = "fixed_point/scenario.rs"]
mod scenario;
#[path = "fixed_point/strategy.rs"]
mod strategy;
#[path = "fixed_point/survey.rs"]
mod survey;

use model::{add, Step, Style::*};
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};
use scenario::{check, Property};
use strategy::{Budgets, Scenario};

/// Cases per property in `cargo test` (when `PROPTEST_CASES` does not say otherwise).
const DEFAULT_CASES: u32 = 6;

/// The fixed seed of `cargo test`.
const SEED: u64 = 0x29_f1c5;

/// Shrinking steps at most (each runs a whole scenario), unless `PROPTEST_MAX_SHRINK_ITERS` says.
const DEFAULT_SHRINK_ITERS: u32 = 64;

/// The bounded, fixed-seed run of `cargo test`; the environment takes over for a longer run.
fn config() -> Config {
    let mut config = Config::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = DEFAULT_CASES;
        if std::env::var_os("PROPTEST_RNG_SEED").is_none() {
            config.rng_seed = RngSeed::Fixed(SEED);
        }
    }
    if std::env::var_os("PROPTEST_MAX_SHRINK_ITERS").is_none() {
        config.max_shrink_iters = DEFAULT_SHRINK_ITERS;
    }
    config.failure_persistence = None;
    config
}

/// Check `property` on random scenarios; a failure panics with the shrunk counterexample.
fn prove(property: Property) {
    let mut runner = TestRunner::new(config());
    let result = runner.run(&strategy::scenarios(), |scenario| {
        check(property, &scenario).map_err(|violation| TestCaseError::fail(violation.report))
    });
    match result {
        Ok(()) => {}
        Err(TestError::Fail(reason, scenario)) => panic!(
            "{property} does not hold.\n\nMinimal counterexample (paste into a regression test):\n\n{scenario:?}\n\n{reason}"
        ),
        Err(TestError::Abort(reason)) => panic!("{property}: the run was aborted: {reason}"),
    }
}

/// A repository a scenario ran in that must satisfy `property`.
fn holds_on(property: Property, lab: &scenario::Lab) {
    if let Err(violation) = scenario::check_lab(property, lab) {
        panic!("{property} does not hold:\n\n{}", violation.report);
    }
}

/// A scenario that must satisfy `property` (a regression test).
fn holds(property: Property, scenario: Scenario) {
    if let Err(violation) = check(property, &scenario) {
        panic!(
            "{property} does not hold for\n\n{scenario:?}\n\n{}",
            violation.report
        );
    }
}

#[test]
fn changed_only_runs_equal_one_full_run() {
    prove(Property::ChangedOnlyEqualsFull);
}

#[test]
fn a_full_run_is_a_fixed_point() {
    prove(Property::FullIsAFixedPoint);
}

#[test]
fn the_library_validates() {
    prove(Property::Validates);
}

#[test]
fn cache_and_threads_do_not_change_the_library() {
    prove(Property::CacheAndThreadsAgree);
}

#[test]
fn agent_text_is_kept() {
    prove(Property::AgentTextKept);
}

/// Not a gate: tallies the kinds of violation over many scenarios and shrinks one per kind (see
/// `fixed_point/survey.rs`).
#[test]
#[ignore = "a diagnostic for engine work: cargo test --release --test fixed_point survey -- --ignored --nocapture"]
fn survey() {
    let cases = std::env::var("SURVEY_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(24);
    let seed = std::env::var("PROPTEST_RNG_SEED")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(SEED);
    let wanted = std::env::var("SURVEY_PROPERTIES").unwrap_or_else(|_| "a,b,c,d,e".into());
    let properties: Vec<Property> = wanted
        .split(',')
        .filter_map(|name| match name.trim() {
            "a" => Some(Property::ChangedOnlyEqualsFull),
            "b" => Some(Property::FullIsAFixedPoint),
            "c" => Some(Property::Validates),
            "d" => Some(Property::CacheAndThreadsAgree),
            "e" => Some(Property::AgentTextKept),
            _ => None,
        })
        .collect();
    survey::survey(&config(), &properties, cases, seed);
}

// --- the instrument itself -----------------------------------------------------------------------

/// The comparison sees one byte: a library that differs from the full run in one design file fails
/// property (a) with that file named and its diff shown.
#[test]
fn a_one_byte_difference_is_reported_with_its_diff() {
    let scenario = Scenario {
        budgets: Budgets::Default,
        initial: vec![add("crates/alpha/src/net.rs", 1, true, &[])],
        commits: vec![],
    };
    let lab = scenario::Lab::run(&scenario).expect("the scenario runs");
    holds_on(Property::ChangedOnlyEqualsFull, &lab);
    let design = ".lexibrary/crates/alpha/src/net.rs.md";
    let text = lab.p.read(design);
    lab.p
        .write(design, text.replacen("# crates", "#  crates", 1));
    let violation = scenario::check_lab(Property::ChangedOnlyEqualsFull, &lab)
        .expect_err("the planted difference is found");
    let report = &violation.report;
    assert!(
        report.starts_with("1 library file(s) differ")
            && report.contains("differs:          .lexibrary/crates/alpha/src/net.rs.md")
            && report.contains("-#  crates/alpha/src/net.rs\n+# crates/alpha/src/net.rs"),
        "{report}"
    );
    assert_eq!(
        violation.kinds,
        ["design file: title".to_string()].into(),
        "{report}"
    );
}

/// An agent's text that the library lost is reported, by kind.
#[test]
fn a_lost_agent_text_is_reported() {
    let scenario = Scenario {
        budgets: Budgets::Default,
        initial: vec![add("crates/alpha/src/net.rs", 1, true, &[])],
        commits: vec![vec![Step::AgentSection("crates/alpha/src/net.rs".into())]],
    };
    let lab = scenario::Lab::run(&scenario).expect("the scenario runs");
    holds_on(Property::AgentTextKept, &lab);
    let design = ".lexibrary/crates/alpha/src/net.rs.md";
    let text = lab.p.read(design);
    assert!(text.contains("[agent 1]"), "{text}");
    lab.p.write(design, text.replace("[agent 1]", "[agent 0]"));
    let violation =
        scenario::check_lab(Property::AgentTextKept, &lab).expect_err("the lost text is found");
    assert_eq!(
        violation.kinds,
        ["lost: an agent's section".to_string()].into(),
        "{}",
        violation.report
    );
}

// --- regressions: scenarios that failed ----------------------------------------------------------
//
// Each is a hand-minimized counterexample a property found, named for what it shows.

// (a) changed-only runs after each commit equal one full run from scratch.

/// Issue 29 §2a: a file added below a directory changes the directory's row in its parent's
/// `.aindex` ("1 file and 1 subdirectory" → "2 files …"); the changed-only run leaves it stale.
#[test]
fn regression_a_parent_index_row_counts_the_files_added_below() {
    holds(
        Property::ChangedOnlyEqualsFull,
        Scenario {
            budgets: Budgets::Default,
            initial: vec![add("crates/alpha/src/wire/codec.rs", 1, false, &[])],
            commits: vec![vec![add("crates/alpha/src/event.rs", 1, false, &[])]],
        },
    );
}

/// Issue 29 §2a: a new top-level directory makes the changed-only run rewrite START_HERE, from
/// what it read: its `crates/` row says "The `crates/` directory." where a full run says
/// "Holds `beta/`, `alpha/`.".
#[test]
fn regression_start_here_rows_come_from_the_whole_tree() {
    holds(
        Property::ChangedOnlyEqualsFull,
        Scenario {
            budgets: Budgets::Default,
            initial: vec![add("crates/alpha/src/net.rs", 1, false, &[])],
            commits: vec![vec![add("python/tests/test_net.py", 1, false, &[])]],
        },
    );
}

/// START_HERE ranks directories by the code below them: a commit that makes `beta/` larger than
/// `alpha/` reorders its rows and its topology in a full run, not in the changed-only one (no file
/// count changes here, so no `.aindex` row either).
#[test]
fn regression_start_here_ranks_directories_from_the_whole_tree() {
    holds(
        Property::ChangedOnlyEqualsFull,
        Scenario {
            budgets: Budgets::Default,
            initial: vec![
                add("crates/alpha/src/net.rs", 2, false, &[]),
                add("crates/beta/src/store.rs", 1, false, &[]),
            ],
            commits: vec![vec![
                Step::AddItem("crates/beta/src/store.rs".into()),
                Step::AddItem("crates/beta/src/store.rs".into()),
            ]],
        },
    );
}

/// Deleting a directory's last file: its `.aindex` must go (it stays), and the START_HERE the
/// changed-only run rewrites must be the full run's (its `crates/` row says "The `crates/`
/// directory." instead of "Holds `beta/`, `alpha/`.": written from what the run read).
#[test]
fn regression_deleting_a_directorys_last_file() {
    holds(
        Property::ChangedOnlyEqualsFull,
        Scenario {
            budgets: Budgets::Default,
            initial: vec![
                add("python/tests/test_event.py", 1, false, &[]),
                add("python/src/snake/sub/auth.py", 1, false, &[]),
            ],
            commits: vec![vec![
                Step::EditBody("python/src/snake/sub/auth.py".into()),
                Step::Delete("python/tests/test_event.py".into()),
            ]],
        },
    );
}

/// A directory's billboard is written once, from its module file's doc comment; a later edit of
/// that doc leaves it, while a full run from scratch writes the new one.
#[test]
fn regression_a_billboard_follows_its_module_doc() {
    holds(
        Property::ChangedOnlyEqualsFull,
        Scenario {
            budgets: Budgets::Default,
            initial: vec![
                add("crates/alpha/src/net.rs", 1, false, &[]),
                Step::EditDirDoc("crates/alpha/src".into()),
            ],
            commits: vec![vec![Step::EditDirDoc("crates/alpha/src".into())]],
        },
    );
}

/// A doc comment edit is CONTENT_ONLY, which keeps the Interface Contract as written: its doc
/// comments stay those of the first run, while a full run from scratch writes the new ones.
#[test]
fn regression_a_doc_comment_edit_reaches_the_contract() {
    holds(
        Property::ChangedOnlyEqualsFull,
        Scenario {
            budgets: Budgets::Default,
            initial: vec![add("crates/alpha/src/net.rs", 1, true, &[])],
            commits: vec![vec![Step::EditItemDoc("crates/alpha/src/net.rs".into(), 0)]],
        },
    );
}

/// Issue 29 §2b: a dependency through package.json `"imports"` (`#lib/…`) is written by a full run
/// and must survive a changed-only run of the importing file (it was dropped; fixed on main since).
#[test]
fn regression_an_imports_alias_dependency_survives_a_changed_only_run() {
    let scenario = Scenario {
        budgets: Budgets::Default,
        initial: vec![
            add("web/src/lib/net.js", 1, false, &[]),
            add(
                "web/src/app/store.js",
                1,
                false,
                &[("web/src/lib/net.js", 0, Alternate)],
            ),
        ],
        commits: vec![vec![Step::EditBody("web/src/app/store.js".into())]],
    };
    let lab = scenario::Lab::run(&scenario).expect("the scenario runs");
    assert!(lab
        .p
        .read("web/src/app/store.js")
        .contains("from '#lib/net.js'"));
    let design = lab.p.read(".lexibrary/web/src/app/store.js.md");
    assert!(
        design.contains("## Dependencies\n\n- web/src/lib/net.js\n"),
        "{design}"
    );
    holds(Property::ChangedOnlyEqualsFull, scenario);
}

/// An agent appends to a design file in the commit that adds a test importing its source: the
/// changed-only run refreshes the agent's footer but leaves Dependents and Tests without the test.
#[test]
fn regression_an_agent_edit_and_a_new_importer_in_one_commit() {
    holds(
        Property::ChangedOnlyEqualsFull,
        Scenario {
            budgets: Budgets::Default,
            initial: vec![add("crates/alpha/src/token.rs", 1, false, &[])],
            commits: vec![vec![
                Step::AgentAfterFooter("crates/alpha/src/token.rs".into()),
                add(
                    "crates/alpha/tests/cache.rs",
                    1,
                    false,
                    &[("crates/alpha/src/token.rs", 0, Direct)],
                ),
            ]],
        },
    );
}

/// An agent appends to a design file and its source moves in the same commit: the design file
/// moves with it, and its Tags must follow the new directories.
#[test]
fn regression_tags_follow_a_moved_file_an_agent_wrote_in() {
    holds(
        Property::ChangedOnlyEqualsFull,
        Scenario {
            budgets: Budgets::Default,
            initial: vec![
                add("crates/alpha/src/shape.rs", 1, false, &[]),
                add("crates/alpha/src/wire/frame/net.rs", 1, false, &[]),
                Step::EditDirDoc("crates/alpha/src".into()),
                Step::EditDirDoc("crates/alpha/src/wire".into()),
                Step::EditDirDoc("crates/alpha/src/wire/frame".into()),
            ],
            commits: vec![vec![
                Step::AgentAfterFooter("crates/alpha/src/shape.rs".into()),
                Step::Move(
                    "crates/alpha/src/shape.rs".into(),
                    "crates/alpha/src/wire/frame/shape.rs".into(),
                ),
            ]],
        },
    );
}

// (b) full ∘ full = full.

/// Issue 29 §1: one full run is not a fixed point. With tight budgets a full run caps
/// `lib.rs`'s Dependencies ("… and 1 more") and the second lists all four: the cap is computed
/// from what the run knew when it wrote the file.
#[test]
fn regression_a_full_run_caps_a_list_as_the_next_one_does() {
    holds(
        Property::FullIsAFixedPoint,
        Scenario {
            budgets: Budgets::Tight,
            initial: vec![
                add("crates/alpha/src/net.rs", 1, false, &[]),
                add("crates/alpha/src/store.rs", 1, false, &[]),
                add("crates/alpha/src/parse.rs", 1, false, &[]),
                add("crates/alpha/src/wire/frame/auth.rs", 1, false, &[]),
            ],
            commits: vec![],
        },
    );
}

// (c) `lexictl validate` finds nothing.

/// Issue 29 §3: the Archivist's own output breaks its budget. With `design_file_tokens: 160`, a
/// file with three functions and five dependents is 171 tokens after the history (all five
/// listed) and 174 after one full run (three listed and "… and 2 more: `lexi impact …`", a longer
/// line than the two it replaces).
#[test]
fn regression_a_structural_design_file_fits_its_budget() {
    let shape = "crates/alpha/src/disk/shape.rs";
    holds(
        Property::Validates,
        Scenario {
            budgets: Budgets::Tight,
            initial: vec![
                add(shape, 3, true, &[]),
                add(
                    "crates/alpha/tests/route.rs",
                    1,
                    false,
                    &[(shape, 1, QualifiedReexported)],
                ),
                add(
                    "crates/alpha/tests/cache.rs",
                    1,
                    false,
                    &[(shape, 1, Direct)],
                ),
                add(
                    "crates/beta/src/api/v1/model.rs",
                    1,
                    false,
                    &[(shape, 1, Direct)],
                ),
                add(
                    "crates/beta/src/api/v1/query.rs",
                    1,
                    false,
                    &[(shape, 1, Direct)],
                ),
            ],
            commits: vec![],
        },
    );
}

// Guards: scenarios that hold today and must keep holding.

/// The Archivist's sections of a design file an agent wrote in (here its description) follow the
/// graph like any other: a new importer is one of its Dependents, the agent's description stays.
#[test]
fn regression_an_agents_design_file_lists_a_new_dependent() {
    let scenario = Scenario {
        budgets: Budgets::Default,
        initial: vec![
            add("crates/alpha/src/net.rs", 1, false, &[]),
            add("crates/alpha/src/store.rs", 1, false, &[]),
        ],
        commits: vec![
            vec![Step::AgentDescription("crates/alpha/src/net.rs".into())],
            vec![Step::AddImport(
                "crates/alpha/src/store.rs".into(),
                "crates/alpha/src/net.rs".into(),
                0,
                Direct,
            )],
        ],
    };
    let lab = scenario::Lab::run(&scenario).expect("the scenario runs");
    let design = lab.p.read(".lexibrary/crates/alpha/src/net.rs.md");
    assert!(
        design.contains("description: Agent says net matters here [agent 1].")
            && design.contains("\n- crates/alpha/src/store.rs\n"),
        "{design}"
    );
    holds(Property::ChangedOnlyEqualsFull, scenario);
}

/// Found by a long random run (seed 2911): an agent rewrites a test file's description and the
/// file is deleted in the same commit. The design file holds an agent's words, so the update keeps
/// it and `validate` warns `missing-source` for a person to decide — in the history and from
/// scratch alike. That warning is the documented outcome; anything else is a violation.
#[test]
fn regression_an_agents_design_file_outlives_its_deleted_source_with_a_warning() {
    let scenario = Scenario {
        budgets: Budgets::Default,
        initial: vec![add("web/src/app/parse.js", 3, true, &[])],
        commits: vec![
            vec![add(
                "web/src/app/store.test.js",
                1,
                false,
                &[("web/src/app/parse.js", 0, Direct)],
            )],
            vec![
                Step::AgentDescription("web/src/app/store.test.js".into()),
                Step::Delete("web/src/app/store.test.js".into()),
            ],
        ],
    };
    let lab = scenario::Lab::run(&scenario).expect("the scenario runs");
    assert!(lab.p.exists(".lexibrary/web/src/app/store.test.js.md"));
    lab.p
        .lexictl(["validate"])
        .code(2)
        .stdout_has("[missing-source]");
    holds(Property::Validates, scenario.clone());
    holds(Property::ChangedOnlyEqualsFull, scenario);
}
