//! The LLM Archivist against fake providers: real HTTP servers on 127.0.0.1 speaking the Anthropic
//! Messages and OpenAI Chat Completions shapes, and the real `lexictl` in real git repositories.
//! Success for both APIs, rate limits, server errors, timeouts, malformed answers, a missing key,
//! an agent edit landing during a call, the concurrency limit, dry-run estimates, budgets, and the
//! key never leaving the environment.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::fake_llm::{FakeLlm, Reply, Request};
use crate::support::{project, Exec, ProjectBuilder, TestProject};

/// The API key the tests hand the binary. It must never appear in any output or file.
const KEY: &str = "sk-test-LEXI-7f3a9c1e5b-SECRET";

const ANSWER: &str = "Description: Doubles numbers for the calculator so callers never overflow silently.\n\n## Interface Contract\nWraps on overflow in release builds; panics in debug builds.\n\n## Complexity Warning\n- Overflow behaviour differs between debug and release.\n\n## Tags\n- arithmetic\n- Overflow\n";

fn calc() -> ProjectBuilder {
    project()
        .file(
            "src/lib.rs",
            "//! A calculator.\n\npub mod double;\n\npub fn eval(x: i64) -> i64 {\n    double::double(x)\n}\n",
        )
        .file(
            "src/double.rs",
            "pub fn double(x: i64) -> i64 {\n    x * 2\n}\n",
        )
}

/// The key in `LEXI_TEST_KEY`, the variable the test configs name (the hermetic environment has no
/// key otherwise).
trait WithKey {
    fn with_key(self) -> Self;
}

impl WithKey for Exec<'_> {
    fn with_key(self) -> Self {
        self.env("LEXI_TEST_KEY", KEY)
    }
}

/// Set the project's `llm:` settings (YAML lines, unindented), commit, so each test starts from
/// a clean tree, and trust them on this clone (`lexictl trust`: a committed provider, URL or key
/// variable applies only then; test_trust.rs tests that boundary).
fn use_llm(p: &TestProject, settings: &str) {
    let indented: String = settings
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| format!("  {line}\n"))
        .collect();
    p.config(&format!("llm:\n{indented}"));
    p.commit_all("config");
    p.lexictl(["trust"]).success();
}

/// An LLM project talking to `server` as `provider`, key in LEXI_TEST_KEY.
fn llm_project(
    builder: ProjectBuilder,
    provider: &str,
    server: &FakeLlm,
    extra: &str,
) -> TestProject {
    let p = builder.init().build();
    configure(&p, provider, server, extra);
    p
}

/// A project whose library the structural Archivist wrote and committed, then switched to `provider`.
fn structural_then_llm(
    builder: ProjectBuilder,
    provider: &str,
    server: &FakeLlm,
    extra: &str,
) -> TestProject {
    let p = builder.init().build();
    p.lexictl(["update"]).success();
    p.commit_all("library");
    configure(&p, provider, server, extra);
    p
}

fn configure(p: &TestProject, provider: &str, server: &FakeLlm, extra: &str) {
    let base = match provider {
        "anthropic" => server.url(),
        _ => format!("{}/v1", server.url()),
    };
    let retries = if extra.contains("max_retries") {
        ""
    } else {
        "max_retries: 2\n"
    };
    use_llm(
        p,
        &format!(
            "provider: {provider}\nmodel: test-model\napi_key_env: LEXI_TEST_KEY\nbase_url: {base}\n{retries}{extra}"
        ),
    );
}

fn log(p: &TestProject) -> String {
    std::fs::read_to_string(p.path(".git/lexibrarian/update.log")).unwrap_or_default()
}

/// Every file under the project (work tree, `.lexibrary/`, `.git/`) whose bytes contain `needle`.
fn files_containing(p: &TestProject, needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut pending = vec![p.root.clone()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).expect("read dir") {
            let entry = entry.expect("entry");
            let path = entry.path();
            if entry.file_type().expect("type").is_dir() {
                pending.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                if bytes.windows(needle.len()).any(|w| w == needle.as_bytes()) {
                    found.push(path.display().to_string());
                }
            }
        }
    }
    found
}

#[test]
fn anthropic_writes_design_files_with_the_models_prose_and_our_facts() {
    let server = FakeLlm::start(|_| Reply::anthropic(ANSWER));
    let p = llm_project(calc(), "anthropic", &server, "");
    let report = p.lexictl(["update", "--format", "json"]).with_key().json();

    let requests = server.requests();
    assert_eq!(requests.len(), 2, "one request per file");
    let request = &requests[0];
    assert_eq!(
        (request.method.as_str(), request.path.as_str()),
        ("POST", "/v1/messages")
    );
    assert_eq!(request.header("x-api-key"), Some(KEY));
    assert_eq!(request.header("anthropic-version"), Some("2023-06-01"));
    let body = request.json();
    assert_eq!(body["model"], "test-model");
    assert!(body["system"]
        .as_str()
        .expect("system")
        .contains("Explain why, not what"));
    let double = requests
        .iter()
        .find(|r| r.source() == "src/double.rs")
        .expect("a request for src/double.rs");
    let prompt = double.user_prompt();
    assert!(
        prompt.contains("pub fn double(x: i64) -> i64\n```"),
        "skeleton: {prompt}"
    );
    assert!(prompt.contains("x * 2"), "full source: {prompt}");
    assert!(prompt.contains("- src/lib.rs"), "dependents: {prompt}");

    insta::assert_snapshot!(
        "llm_anthropic_design_file",
        p.read(".lexibrary/src/double.rs.md")
    );

    let generated = report["generated"].as_array().expect("generated");
    assert_eq!(generated.len(), 2);
    let double = generated
        .iter()
        .find(|g| g["source"] == "src/double.rs")
        .expect("provenance for src/double.rs");
    assert_eq!(double["design_file"], ".lexibrary/src/double.rs.md");
    assert_eq!(double["generator"], "anthropic");
    assert_eq!(double["model"], "test-model");
    assert_eq!(double["prompt_version"], "design-file/1");
    assert_eq!(double["prompt_hash"].as_str().expect("hash").len(), 64);
    assert_eq!(double["tokens_in"], 1234);
    assert_eq!(double["tokens_out"], 56);
    assert_eq!(double["level"], "NEW");
    assert!(double["duration_ms"].is_u64());
    let text = p.read(".lexibrary/src/double.rs.md");
    assert!(text.contains(&format!(
        "design_hash: {}",
        double["design_hash"].as_str().expect("design hash")
    )));
    let log = log(&p);
    assert!(
        log.contains("generated .lexibrary/src/double.rs.md by anthropic model=test-model prompt=design-file/1"),
        "{log}"
    );

    // The library written by a model is as current as any other: a second run asks nothing.
    p.lexictl(["update"]).with_key().success();
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn openai_and_compatible_servers_speak_chat_completions() {
    let server = FakeLlm::start(|_| Reply::openai(ANSWER));
    let p = llm_project(calc(), "openai", &server, "");
    let report = p.lexictl(["update", "--format", "json"]).with_key().json();
    let requests = server.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].path, "/v1/chat/completions");
    assert_eq!(
        requests[0].header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    let body = requests[0].json();
    assert_eq!(body["messages"][0]["role"], "system");
    assert!(body["max_completion_tokens"].is_u64());
    let text = p.read(".lexibrary/src/double.rs.md");
    assert!(text.contains("description: Doubles numbers"), "{text}");
    assert_eq!(report["generated"][0]["generator"], "openai");
    assert_eq!(report["generated"][0]["tokens_in"], 777);
    assert_eq!(report["generated"][0]["tokens_out"], 33);

    // A local server without a key: no api_key_env, no Authorization header, `max_tokens`.
    let local = FakeLlm::start(|_| Reply::openai(ANSWER));
    let q = calc().init().build();
    use_llm(
        &q,
        &format!(
            "provider: openai-compatible\nmodel: llama3.1\nbase_url: {}/v1\n",
            local.url()
        ),
    );
    q.lexictl(["update"]).success();
    let requests = local.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].header("authorization"), None);
    assert!(requests[0].json()["max_tokens"].is_u64());
    assert_eq!(requests[0].json()["model"], "llama3.1");
}

#[test]
fn a_rate_limit_is_waited_out_and_retried() {
    let seen: Mutex<HashMap<String, usize>> = Mutex::new(HashMap::new());
    let server = FakeLlm::start(move |request: &Request| {
        let mut seen = seen.lock().expect("lock");
        let count = seen.entry(request.source()).or_default();
        *count += 1;
        if *count == 1 {
            Reply::new(
                429,
                r#"{"type":"error","error":{"type":"rate_limit_error","message":"Slow down"}}"#,
            )
            .header("retry-after", "1")
        } else {
            Reply::anthropic(ANSWER)
        }
    });
    let p = llm_project(calc(), "anthropic", &server, "");
    let started = Instant::now();
    p.lexictl(["update"]).with_key().success();
    assert_eq!(server.requests().len(), 4, "each file asked twice");
    // The first backoff step is at most 0.5 s: waiting a full second is the server's retry-after.
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
    assert!(p
        .read(".lexibrary/src/double.rs.md")
        .contains("Doubles numbers"));
}

#[test]
fn server_errors_exhaust_the_retries_of_one_file_and_the_others_are_written() {
    let server = FakeLlm::start(|request: &Request| {
        if request.source() == "src/double.rs" {
            Reply::new(500, r#"{"error":{"message":"upstream exploded"}}"#)
        } else {
            Reply::anthropic(ANSWER)
        }
    });
    // Start from a structural library, then change both interfaces.
    let p = structural_then_llm(calc(), "anthropic", &server, "max_retries: 1\n");
    p.write(
        "src/double.rs",
        "pub fn double(x: i64, y: i64) -> i64 {\n    x * y\n}\n",
    );
    p.write("src/lib.rs", "//! A calculator.\n\npub mod double;\n\npub fn eval(x: i64) -> i64 {\n    double::double(x, 2)\n}\n\npub fn zero() -> i64 { 0 }\n");
    let before = p.read(".lexibrary/src/double.rs.md");

    let out = p.lexictl(["update"]).with_key().code(1);
    let _snapshots = p
        .snapshots()
        .filter(&regex::escape(&server.url()), "[SERVER]")
        .bind();
    insta::assert_snapshot!("llm_one_file_failed", out.both());
    let asked: Vec<String> = server.requests().iter().map(Request::source).collect();
    assert_eq!(asked.iter().filter(|s| *s == "src/double.rs").count(), 2);
    assert_eq!(asked.iter().filter(|s| *s == "src/lib.rs").count(), 1);
    assert_eq!(
        p.read(".lexibrary/src/double.rs.md"),
        before,
        "kept untouched"
    );
    assert!(p
        .read(".lexibrary/src/lib.rs.md")
        .contains("Doubles numbers"));
    assert!(
        log(&p).contains("src/double.rs: anthropic failed: HTTP 500"),
        "{}",
        log(&p)
    );

    // The next run retries the failed file (and only it).
    p.lexictl(["update", "--changed-only"]).with_key().code(1);
    let asked: Vec<String> = server.requests().iter().map(Request::source).collect();
    assert_eq!(asked.iter().filter(|s| *s == "src/double.rs").count(), 4);
    assert_eq!(asked.iter().filter(|s| *s == "src/lib.rs").count(), 1);
}

#[test]
fn a_slow_provider_times_out() {
    let server = FakeLlm::start(|_| Reply::anthropic(ANSWER).after(Duration::from_secs(6)));
    let p = llm_project(
        calc(),
        "anthropic",
        &server,
        "timeout: 1\nmax_retries: 0\nconcurrency: 2\n",
    );
    let started = Instant::now();
    let out = p.lexictl(["update"]).with_key().run();
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    out.code(1).stderr_has(&format!(
        "  src/double.rs: no answer from {}/v1/messages within 1 s (llm.timeout)\n",
        server.url()
    ));
    assert!(!p.exists(".lexibrary/src/double.rs.md"));
}

#[test]
fn a_malformed_answer_fails_that_file_only() {
    let server = FakeLlm::start(|request: &Request| {
        if request.source() == "src/double.rs" {
            Reply::new(200, "{\"content\": [ this is not json")
        } else {
            Reply::anthropic(ANSWER)
        }
    });
    let p = llm_project(calc(), "anthropic", &server, "");
    p.lexictl(["update"])
        .with_key()
        .code(1)
        .stderr_has("src/double.rs: the answer from")
        .stderr_has("is not valid JSON");
    assert_eq!(server.requests().len(), 2, "malformed JSON is not retried");
    assert!(!p.exists(".lexibrary/src/double.rs.md"));
    assert!(p.exists(".lexibrary/src/lib.rs.md"));

    // Valid JSON but prose that does not follow the format is a failure too, with the reason.
    let server = FakeLlm::start(|_| Reply::anthropic("Sure! Here is a summary of the file."));
    let q = llm_project(calc(), "anthropic", &server, "");
    q.lexictl(["update"])
        .with_key()
        .code(1)
        .stderr_has("src/double.rs: the model's answer has no `Description:` line");
}

#[test]
fn a_missing_key_fails_at_once_naming_the_variable_and_writes_nothing() {
    let server = FakeLlm::start(|_| Reply::anthropic(ANSWER));
    let p = calc().init().build();
    use_llm(
        &p,
        &format!("provider: anthropic\nbase_url: {}\n", server.url()),
    );
    let library_before = files_containing(&p, "lexibrarian:meta");
    let started = Instant::now();
    let out = p.lexictl(["update"]).code(1);
    let elapsed = started.elapsed();
    insta::assert_snapshot!("llm_missing_key", out.both());
    assert!(elapsed < Duration::from_secs(2), "{elapsed:?}");
    assert!(server.requests().is_empty());
    assert_eq!(files_containing(&p, "lexibrarian:meta"), library_before);
    assert!(!p.exists(".lexibrary/src/double.rs.md"));
    for left in ["update.lock", "update.log", "cache", "state.json"] {
        assert!(
            !p.path(".git/lexibrarian").join(left).exists(),
            "no lock, no log, no cache: {left}"
        );
    }

    // An empty key is as good as none.
    p.lexictl(["update"])
        .env("ANTHROPIC_API_KEY", "  ")
        .code(1)
        .stderr_has("ANTHROPIC_API_KEY is set but empty");
    assert!(!p.exists(".lexibrary/src/double.rs.md"));
}

#[test]
fn an_agent_edit_during_the_call_wins() {
    let root: std::sync::Arc<Mutex<Option<std::path::PathBuf>>> = Default::default();
    let agent_text = "---\ndescription: Written by the agent mid-call.\nupdated_by: agent\n---\n\n# src/double.rs\n\n## Why\nThe agent knows.\n";
    let server_root = std::sync::Arc::clone(&root);
    let server = FakeLlm::start(move |request: &Request| {
        if request.source() == "src/double.rs" {
            if let Some(root) = server_root.lock().expect("lock").as_ref() {
                std::fs::write(root.join(".lexibrary/src/double.rs.md"), agent_text)
                    .expect("agent edit");
            }
        }
        Reply::anthropic(ANSWER)
    });
    let p = structural_then_llm(calc(), "anthropic", &server, "");
    p.write(
        "src/double.rs",
        "pub fn double(x: i64, y: i64) -> i64 {\n    x * y\n}\n",
    );
    *root.lock().expect("lock") = Some(p.root.clone());

    let out = p
        .lexictl(["update", "--format", "json"])
        .with_key()
        .success();
    let report = out.json();
    assert_eq!(server.requests().len(), 1);
    assert_eq!(p.read(".lexibrary/src/double.rs.md"), agent_text);
    out.stderr_has("warning: .lexibrary/src/double.rs.md: changed while the update ran; kept the new version, discarded the Archivist's");
    assert!(log(&p).contains("discarded the Archivist's"));
    assert_eq!(report["generated"].as_array().map(Vec::len), Some(0));
}

#[test]
fn requests_in_flight_never_exceed_llm_concurrency() {
    let mut builder = project();
    for n in 0..8 {
        builder = builder.file(
            &format!("src/m{n}.rs"),
            format!("pub fn f{n}() -> u8 {{ {n} }}\n"),
        );
    }
    let server = FakeLlm::start(|_| Reply::anthropic(ANSWER).after(Duration::from_millis(300)));
    let p = llm_project(builder, "anthropic", &server, "concurrency: 2\n");
    p.lexictl(["update"]).with_key().success();
    assert_eq!(server.requests().len(), 8);
    assert_eq!(
        server.peak_in_flight(),
        2,
        "two at a time, and really in parallel"
    );
}

#[test]
fn the_key_never_appears_in_output_logs_or_files() {
    // The provider echoes the key in its error, as some do: it is scrubbed before anything prints it.
    let server = FakeLlm::start(|request: &Request| {
        if request.source() == "src/double.rs" {
            let key = request.header("x-api-key").unwrap_or_default().to_string();
            Reply::new(
                401,
                format!(r#"{{"error":{{"message":"invalid x-api-key {key}"}}}}"#),
            )
        } else {
            Reply::anthropic(ANSWER)
        }
    });
    let p = llm_project(calc(), "anthropic", &server, "concurrency: 1\n");
    let out = p.lexictl(["update", "--format", "json"]).with_key().code(1);
    out.stderr_has("refused the credentials (HTTP 401): invalid x-api-key [redacted] — check the key in LEXI_TEST_KEY");
    let ok = p.lexictl(["update", "src/lib.rs"]).with_key().run();
    let dry = p
        .lexictl(["update", "--dry-run", "--format", "json"])
        .with_key()
        .run();
    for run in [&out, &ok, &dry] {
        assert!(!run.stdout.contains(KEY), "stdout: {}", run.stdout);
        assert!(!run.stderr.contains(KEY), "stderr: {}", run.stderr);
    }
    assert!(!log(&p).is_empty());
    assert_eq!(files_containing(&p, KEY), Vec::<String>::new());
    assert!(
        server
            .requests()
            .iter()
            .any(|r| r.header("x-api-key") == Some(KEY)),
        "the key was used"
    );
}

#[test]
fn a_refused_key_stops_asking() {
    let server =
        FakeLlm::start(|_| Reply::new(401, r#"{"error":{"message":"invalid x-api-key"}}"#));
    let mut builder = calc();
    for n in 0..5 {
        builder = builder.file(&format!("src/m{n}.rs"), format!("pub fn f{n}() {{}}\n"));
    }
    let p = llm_project(builder, "anthropic", &server, "concurrency: 1\n");
    let out = p.lexictl(["update"]).with_key().code(1);
    assert_eq!(server.requests().len(), 1, "one refusal is enough");
    out.stderr_has("error: 0 written, 7 failed:")
        .stderr_has("not sent: ");
}

#[test]
fn dry_run_lists_the_requests_and_estimates_input_tokens_without_a_key() {
    let server = FakeLlm::start(|_| Reply::anthropic(ANSWER));
    let p = llm_project(calc(), "anthropic", &server, "");
    let stdout = p.lexictl(["update", "--dry-run"]).success().stdout;
    assert!(server.requests().is_empty());
    insta::assert_snapshot!("llm_dry_run", stdout);
    assert!(
        stdout.contains("anthropic (test-model) would be asked about 2 files, about "),
        "{stdout}"
    );
    let value = p
        .lexictl(["update", "--dry-run", "--format", "json"])
        .json();
    let estimate = &value["llm_estimate"];
    assert_eq!(estimate["provider"], "anthropic");
    let requests = estimate["requests"].as_array().expect("requests");
    assert_eq!(
        requests
            .iter()
            .map(|r| r["source"].as_str().unwrap_or(""))
            .collect::<Vec<_>>(),
        vec!["src/double.rs", "src/lib.rs"]
    );
    let total: u64 = requests
        .iter()
        .map(|r| r["input_tokens"].as_u64().unwrap_or(0))
        .sum();
    assert!(total > 300, "system prompt + source: {total}");
    assert_eq!(estimate["input_tokens"].as_u64(), Some(total));
    assert!(
        stdout.contains(&format!("about {total} input tokens")),
        "{stdout}"
    );
    assert!(
        !p.exists(".lexibrary/src/double.rs.md"),
        "dry-run writes nothing"
    );
}

#[test]
fn an_answer_over_budget_is_cut_to_the_budget_and_flagged_over_scoped() {
    let long = format!(
        "Description: Doubles numbers.\n\n## Complexity Warning\n{}\n",
        (0..40)
            .map(|n| format!("- Dragon number {n} lives here and bites."))
            .collect::<Vec<_>>()
            .join("\n")
    );
    let server = FakeLlm::start(move |_| Reply::anthropic(&long));
    let p = llm_project(calc(), "anthropic", &server, "");
    assert!(p
        .read(".lexibrary/config.yaml")
        .contains("design_file_tokens: 400"));
    p.config("token_budgets:\n  design_file_tokens: 50\n");
    let out = p
        .lexictl(["update", "--format", "json"])
        .with_key()
        .success();
    let report = out.json();
    let text = p.read(".lexibrary/src/double.rs.md");
    assert!(text.contains("- Dragon number 0 lives here"), "{text}");
    assert!(
        !text.contains("- Dragon number 39 lives here and bites."),
        "cut to the budget: {text}"
    );
    assert!(
        text.contains("… [cut: the model answer was "),
        "the design file says it was cut: {text}"
    );
    let marker = text
        .lines()
        .find_map(|line| line.strip_prefix("over_scoped: "))
        .expect("over_scoped footer key");
    let (tokens, budget) = marker.split_once('/').expect("tokens/budget");
    assert!(tokens.parse::<usize>().expect("tokens") > 50);
    assert_eq!(budget, "50");
    let flagged = report["over_scoped"].as_array().expect("over_scoped");
    assert_eq!(flagged.len(), 2);
    assert_eq!(flagged[0]["budget"], 50);
    out.stderr_has("src/double.rs: over_scoped: the model's answer is");
    assert!(log(&p).contains("over_scoped"));
}

#[test]
fn content_only_changes_use_the_lighter_prompt_and_keep_the_contract() {
    let server = FakeLlm::start(|request: &Request| {
        if request.user_prompt().contains("public interface did not") {
            Reply::anthropic("Description: Doubles, now with a comment.\n\n## Complexity Warning\n(none)\n\n## Tags\n- arithmetic\n")
        } else {
            Reply::anthropic(ANSWER)
        }
    });
    let p = llm_project(calc(), "anthropic", &server, "");
    p.lexictl(["update"]).with_key().success();
    let before = p.read(".lexibrary/src/double.rs.md");
    p.write(
        "src/double.rs",
        "pub fn double(x: i64) -> i64 {\n    // twice\n    x + x\n}\n",
    );
    let report = p.lexictl(["update", "--format", "json"]).with_key().json();
    let last = server.requests().pop().expect("a request");
    assert_eq!(last.source(), "src/double.rs");
    assert!(
        !last.user_prompt().contains("## Interface Contract\n<"),
        "lighter prompt"
    );
    assert_eq!(report["generated"][0]["prompt_version"], "content-only/1");
    assert_eq!(report["generated"][0]["level"], "CONTENT_ONLY");
    let after = p.read(".lexibrary/src/double.rs.md");
    assert!(
        after.contains("description: Doubles, now with a comment."),
        "{after}"
    );
    let contract = |text: &str| {
        text.split("## Interface Contract")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .map(str::to_string)
    };
    assert_eq!(contract(&after), contract(&before));
    assert!(!after.contains("## Complexity Warning"), "{after}");
}

#[test]
fn structural_runs_report_their_provenance_too() {
    let p = calc().init().build();
    let value = p.lexictl(["update", "--format", "json"]).json();
    let generated = value["generated"].as_array().expect("generated");
    assert_eq!(generated.len(), 2);
    assert_eq!(generated[0]["generator"], "structural");
    assert_eq!(generated[0]["model"], serde_json::Value::Null);
    assert_eq!(generated[0]["source"], "src/double.rs");
    assert!(value.get("llm_estimate").is_none());
}

#[test]
fn the_personal_config_supplies_the_provider_when_the_project_leaves_it_unset() {
    let server = FakeLlm::start(|_| Reply::anthropic(ANSWER));
    let p = calc().init().build();
    assert!(!p.read(".lexibrary/config.yaml").contains("\nllm:"));
    p.global_config(&format!(
        "llm:\n  provider: anthropic\n  model: personal-model\n  api_key_env: LEXI_TEST_KEY\n  base_url: {}\n",
        server.url()
    ));
    let report = p.lexictl(["update", "--format", "json"]).with_key().json();
    assert_eq!(server.requests().len(), 2);
    assert_eq!(report["generated"][0]["model"], "personal-model");
}

#[test]
fn the_wizard_sets_up_a_local_server_without_a_key() {
    let server = FakeLlm::start(|_| Reply::openai(ANSWER));
    let p = calc().build();
    let answers = format!(
        "\n\n\nopenai-compatible\n{}/v1\nqwen2.5-coder\n\n\n\n\n\n",
        server.url()
    );
    p.lexictl(["init", "--interactive"])
        .stdin(answers)
        .success();
    let config = p.read(".lexibrary/config.yaml");
    assert!(
        config.contains("  provider: openai-compatible\n"),
        "{config}"
    );
    assert!(config.contains("  model: qwen2.5-coder\n"), "{config}");
    assert!(!config.contains("  api_key_env:"), "{config}");
    p.lexictl(["update"]).success();
    assert_eq!(server.requests().len(), 2);
    assert_eq!(server.requests()[0].json()["model"], "qwen2.5-coder");
}

/// A run killed (SIGKILL) after writing a design file and before finishing keeps that file's
/// provenance: it is recorded before the file is written, so `lexi why` names the model.
#[test]
fn a_run_killed_after_writing_a_design_file_keeps_its_provenance() {
    let stalled = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let first_lib = std::sync::Arc::clone(&stalled);
    // double.rs is answered at once; the first request about lib.rs hangs until the kill.
    let server = FakeLlm::start(move |request: &Request| {
        let stall = request.source() == "src/lib.rs"
            && !first_lib.swap(true, std::sync::atomic::Ordering::SeqCst);
        match stall {
            true => Reply::anthropic(ANSWER).after(Duration::from_secs(60)),
            false => Reply::anthropic(ANSWER),
        }
    });
    let p = llm_project(
        calc(),
        "anthropic",
        &server,
        "concurrency: 1\nmax_retries: 0\n",
    );
    let mut running = p.lexictl(["update"]).with_key().spawn();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !(p.exists(".lexibrary/src/double.rs.md")
        && stalled.load(std::sync::atomic::Ordering::SeqCst))
    {
        assert!(
            Instant::now() < deadline,
            "the update never wrote double.rs's design file"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    running.child.kill().expect("SIGKILL the update");
    running.child.wait().expect("reap it");
    assert!(
        !p.exists(".lexibrary/src/lib.rs.md"),
        "killed before lib.rs was answered"
    );
    p.lexi(["why", "src/double.rs"])
        .success()
        .stdout_has("generated by anthropic (test-model");
    // The next run finishes the job; every file the Archivist wrote has its provenance.
    p.lexictl(["update"]).with_key().success();
    for source in ["src/double.rs", "src/lib.rs"] {
        p.lexi(["why", source])
            .success()
            .stdout_has("generated by anthropic");
    }
}
