//! Model answers are capped (issue 30, defect 9): what is taken from an answer never exceeds the
//! design file's budget, whatever the model (or something posing as one) sends, and the answer's
//! body is read only up to a bound, so a run's memory does not grow with it. The LLM is configured
//! in the personal config, the tier a person controls.

use crate::fake_llm::{FakeLlm, Reply};
use crate::support::{project, TestProject};

fn project_with(server: &FakeLlm) -> TestProject {
    let p = project()
        .file("src/lib.rs", "//! A calculator.\n\npub mod double;\n")
        .file(
            "src/double.rs",
            "pub fn double(x: i64) -> i64 {\n    x * 2\n}\n",
        )
        .init()
        .config("scope_root: src\n")
        .build();
    p.global_config(&format!(
        "llm:\n  provider: anthropic\n  model: test-model\n  api_key_env: LEXI_TEST_KEY\n  base_url: {}\n  max_retries: 0\n",
        server.url()
    ));
    p.commit_all("config");
    p
}

/// A paragraph of `n` distinct sentences, so that nothing compresses and every cut shows.
fn rambling(tag: &str, n: usize) -> String {
    (0..n)
        .map(|i| format!("{tag} sentence number {i} says nothing new."))
        .collect::<Vec<_>>()
        .join(" ")
}

/// An answer far over the budget but small enough to read (~300 KB): the description, the
/// contract notes and the dragons are cut to the design file budget, the design file and the log
/// say so, and the `.aindex` and START_HERE.md carry no more than the cut description.
#[test]
fn an_answer_far_over_budget_is_cut_to_the_design_file_budget() {
    let answer = format!(
        "Description: {}\n\n## Interface Contract\n{}\n\n## Complexity Warning\n- {}\n\n## Tags\n- arithmetic\n",
        rambling("Describe", 2000),
        rambling("Contract", 2000),
        rambling("Dragon", 2000)
    );
    assert!(answer.len() > 250_000);
    let server = FakeLlm::start(move |_| Reply::anthropic(&answer));
    let p = project_with(&server);
    let out = p.lexictl(["update"]).env("LEXI_TEST_KEY", "k").success();
    out.stderr_has("over_scoped: the model's answer is");
    out.stderr_has("cut to the budget");
    let design = p.read(".lexibrary/src/double.rs.md");
    let content = design
        .split("<!-- lexibrarian:meta")
        .next()
        .expect("content");
    assert!(design.contains("Describe sentence number 0"), "{design}");
    assert!(
        !design.contains("Describe sentence number 1999"),
        "the description is cut"
    );
    assert!(
        !design.contains("Contract sentence number 1999"),
        "the contract is cut"
    );
    assert!(
        !design.contains("Dragon sentence number 1999"),
        "the dragons are cut"
    );
    assert!(design.contains("… [cut: the model answer was "), "{design}");
    assert!(design.contains("over_scoped: "), "{design}");
    // What the model wrote fits the budget (400 tokens), with the facts around it: a few KB.
    assert!(content.len() < 6_000, "{} bytes:\n{content}", content.len());
    for index in [".lexibrary/src/.aindex", ".lexibrary/START_HERE.md"] {
        let text = p.read(index);
        assert!(text.len() < 6_000, "{index}: {} bytes", text.len());
        assert!(!text.contains("Describe sentence number 999"), "{index}");
    }
}

/// A 5 MB answer: its body is not read past the bound (1 MiB); the file fails with a message that
/// says why, nothing of the answer is written, and the other files are documented.
#[test]
fn a_five_megabyte_answer_is_not_read_and_writes_nothing() {
    let huge = format!("Description: {}\n", "Huge answer text. ".repeat(300_000));
    assert!(huge.len() > 5_000_000);
    let server = FakeLlm::start(move |request| {
        if request.source() == "src/double.rs" {
            Reply::anthropic(&huge)
        } else {
            Reply::anthropic(
                "Description: The calculator's root module.\n\n## Tags\n- arithmetic\n",
            )
        }
    });
    let p = project_with(&server);
    let out = p.lexictl(["update"]).env("LEXI_TEST_KEY", "k").code(1);
    out.stderr_has("src/double.rs");
    out.stderr_has("is larger than 1024 KiB");
    assert!(!p.exists(".lexibrary/src/double.rs.md"));
    assert!(p
        .read(".lexibrary/src/lib.rs.md")
        .contains("The calculator's root module."));
    let index = p.read(".lexibrary/src/.aindex");
    assert!(!index.contains("Huge answer text"), "{index}");
    assert_eq!(
        server.requests().len(),
        2,
        "a failure that retrying cannot fix: no retry"
    );
}
