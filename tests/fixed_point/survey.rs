//! The survey: a diagnostic for engine work, not a gate. A property test stops at its first
//! failure, so one frequent divergence hides every other; the survey runs many random scenarios per
//! property, tallies the kinds of violation each one shows (`design file: Dependents`,
//! `.aindex: Child Map`, `validate after the history: over-budget`, …) and shrinks one scenario per
//! kind to a minimal counterexample for that kind alone.
//!
//! `SURVEY_CASES=40 cargo test --release --test fixed_point survey -- --ignored --nocapture`
//! (`SURVEY_PROPERTIES=a,c` for some properties only; `PROPTEST_MAX_SHRINK_ITERS` bounds the
//! shrinking of each kind, 64 by default; `PROPTEST_RNG_SEED` changes the scenarios).

use std::collections::BTreeMap;

use proptest::strategy::{Strategy, ValueTree};
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestError, TestRng, TestRunner};

use super::scenario::{check, Property};
use super::strategy::{scenarios, Scenario};

/// What the survey found for one property.
struct Tally {
    failing: usize,
    kinds: BTreeMap<String, usize>,
    /// Per kind, the minimal scenario shrinking found and its report.
    minimal: BTreeMap<String, (Scenario, String)>,
}

/// Survey `properties` over `cases` scenarios each; print the tallies and minimal scenarios.
pub fn survey(config: &Config, properties: &[Property], cases: usize, seed: u64) {
    for property in properties {
        let tally = survey_one(config, *property, cases, seed);
        print_tally(*property, cases, &tally);
    }
}

fn survey_one(config: &Config, property: Property, cases: usize, seed: u64) -> Tally {
    let mut tally = Tally {
        failing: 0,
        kinds: BTreeMap::new(),
        minimal: BTreeMap::new(),
    };
    for case in 0..cases {
        let scenario = case_tree(config, seed, case).current();
        let Err(violation) = check(property, &scenario) else {
            eprintln!("survey {property}: case {case} holds");
            continue;
        };
        eprintln!(
            "survey {property}: case {case} fails: {}",
            violation
                .kinds
                .iter()
                .cloned()
                .collect::<Vec<_>>()
                .join("; ")
        );
        tally.failing += 1;
        for kind in &violation.kinds {
            *tally.kinds.entry(kind.clone()).or_default() += 1;
            if !tally.minimal.contains_key(kind) {
                let minimal = shrink_for_kind(config, seed, case, property, kind);
                tally.minimal.insert(kind.clone(), minimal);
            }
        }
    }
    tally
}

/// The value tree of case `case`: the same for the same seed, so that it can be made again to
/// shrink it for each kind it shows.
fn case_tree(config: &Config, seed: u64, case: usize) -> impl ValueTree<Value = Scenario> {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    bytes[8..16].copy_from_slice(&(case as u64).to_le_bytes());
    let mut runner = TestRunner::new_with_rng(
        config.clone(),
        TestRng::from_seed(RngAlgorithm::ChaCha, &bytes),
    );
    scenarios()
        .new_tree(&mut runner)
        .expect("the scenario strategy never rejects")
}

/// Shrink case `case` to a minimal scenario that still shows `kind`.
fn shrink_for_kind(
    config: &Config,
    seed: u64,
    case: usize,
    property: Property,
    kind: &str,
) -> (Scenario, String) {
    eprintln!("survey {property}: shrinking for {kind:?}");
    let mut runner = TestRunner::new(config.clone());
    let result = runner.run_one(case_tree(config, seed, case), |scenario| {
        match check(property, &scenario) {
            Err(violation) if violation.kinds.contains(kind) => {
                Err(TestCaseError::fail(violation.report))
            }
            _ => Ok(()),
        }
    });
    match result {
        Err(TestError::Fail(report, scenario)) => (scenario, report.to_string()),
        other => panic!("case {case} showed {kind:?} once but not when run again: {other:?}"),
    }
}

fn print_tally(property: Property, cases: usize, tally: &Tally) {
    println!("\n==== {property}: {} of {cases} cases fail", tally.failing);
    let mut kinds: Vec<(&String, &usize)> = tally.kinds.iter().collect();
    kinds.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    for (kind, count) in &kinds {
        println!("  {count:>3}× {kind}");
    }
    for (kind, (scenario, report)) in &tally.minimal {
        println!("\n---- minimal scenario for {kind:?}:\n{scenario:?}\n\n{report}");
    }
}
