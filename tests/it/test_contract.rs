//! The lie detector: an agent's design file whose Interface Contract no longer matches the code's
//! interface is an error in `lexictl validate` (`stale-contract`, naming the file and the symbols),
//! makes `lexictl update --check` exit 2, puts a warning above `lexi lookup` and `lexi context`, and
//! is a finding of `lexictl review` — whether the footer was refreshed by an update (the footer
//! remembers the interface the contract was written for) or not yet.

use crate::support::{project, TestProject};

/// The rust fixture with its library committed.
fn documented() -> TestProject {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p
}

/// What an agent does: edit the description of `src/lib.rs`'s design file (marking it its own),
/// leaving the Interface Contract as it was.
fn agent_edits_description(p: &TestProject) {
    let design = p.read(".lexibrary/src/lib.rs.md");
    let edited: String = design
        .replacen("updated_by: archivist", "updated_by: agent", 1)
        .split_inclusive('\n')
        .map(|line| match line.starts_with("description:") {
            true => "description: Evaluates arithmetic expressions.\n",
            false => line,
        })
        .collect();
    assert_ne!(design, edited);
    p.write(".lexibrary/src/lib.rs.md", edited);
}

/// ...and change the code's interface: a new parameter and a new function.
fn code_changes_interface(p: &TestProject) {
    let lib = p.read("src/lib.rs").replace(
        "pub fn eval(input: &str)",
        "pub fn eval(input: &str, strict: bool)",
    );
    p.write(
        "src/lib.rs",
        format!("{lib}\n/// Splits input.\npub fn tokenize() {{}}\n"),
    );
}

fn assert_flagged(p: &TestProject) {
    let out = p.lexictl(["validate", "--format", "json"]).code(2);
    let report = out.json();
    let issue = report["issues"]
        .as_array()
        .expect("issues")
        .iter()
        .find(|issue| issue["check"] == "stale-contract")
        .unwrap_or_else(|| out.fail("no stale-contract finding"));
    assert_eq!(issue["severity"], "error");
    assert_eq!(issue["file"], ".lexibrary/src/lib.rs.md");
    let message = issue["message"].as_str().expect("message");
    assert!(
        message.contains("changed: eval") && message.contains("added: tokenize"),
        "{message}"
    );
    p.lexictl(["update", "--check"])
        .code(2)
        .stdout_has("STALE_CONTRACT    .lexibrary/src/lib.rs.md");
    p.lexi(["lookup", "src/lib.rs"])
        .success()
        .stdout_has("The interface changed since this design file was written");
    p.lexi(["context", "src/lib.rs"])
        .success()
        .stdout_has("The interface changed since this design file was written");
}

#[test]
fn an_agents_contract_left_behind_by_the_code_is_reported_everywhere() {
    let p = documented();
    agent_edits_description(&p);
    code_changes_interface(&p);
    // Before any update: the edit is pending, the contract is the sealed one.
    assert_flagged(&p);
    // The update refreshes the footer only (the agent's text is never overwritten) and warns.
    p.lexictl(["update"])
        .success()
        .stderr_has("the interface of src/lib.rs changed since this design file's Interface Contract was written");
    assert!(p
        .read(".lexibrary/src/lib.rs.md")
        .contains("contract_interface_hash: "));
    assert_flagged(&p);
    p.commit_all("agent edit and interface change");
    let review = p.lexictl(["review", "HEAD~1..HEAD"]).success();
    review.stdout_has("Interface Contract contradicts the code");
    p.lexictl(["review", "HEAD~1..HEAD", "--format", "github"])
        .success()
        .stdout_has("::error file=.lexibrary/src/lib.rs.md");
    // The agent fixes the contract: any edit of the section counts as bringing it up to date.
    let design = p.read(".lexibrary/src/lib.rs.md");
    p.write(
        ".lexibrary/src/lib.rs.md",
        design.replace(
            "pub fn eval(input: &str)",
            "pub fn eval(input: &str, strict: bool)",
        ),
    );
    p.lexictl(["update"]).success();
    assert!(!p
        .read(".lexibrary/src/lib.rs.md")
        .contains("contract_interface_hash"));
    p.lexictl(["validate"]).success();
    p.lexictl(["update", "--check"]).success();
}

#[test]
fn an_agent_that_updates_the_contract_with_the_code_is_trusted() {
    let p = documented();
    agent_edits_description(&p);
    let design = p.read(".lexibrary/src/lib.rs.md");
    p.write(
        ".lexibrary/src/lib.rs.md",
        design.replace(
            "pub fn eval(input: &str)",
            "pub fn eval(input: &str, strict: bool)",
        ),
    );
    let lib = p.read("src/lib.rs").replace(
        "pub fn eval(input: &str)",
        "pub fn eval(input: &str, strict: bool)",
    );
    p.write("src/lib.rs", lib);
    p.lexictl(["update"])
        .success()
        .stderr_lacks("Interface Contract");
    p.lexictl(["validate"]).success();
    p.lexi(["lookup", "src/lib.rs"])
        .success()
        .stdout_lacks("The interface changed");
    // A later interface change is the Archivist's again: the contract is rewritten, the
    // agent's description kept.
    let lib = p
        .read("src/lib.rs")
        .replace("strict: bool)", "strict: bool, depth: u8)");
    p.write("src/lib.rs", lib);
    p.lexictl(["update"]).success();
    let design = p.read(".lexibrary/src/lib.rs.md");
    assert!(
        design.contains("depth: u8") && design.contains("Evaluates arithmetic expressions."),
        "{design}"
    );
    p.lexictl(["validate"]).success();
}
