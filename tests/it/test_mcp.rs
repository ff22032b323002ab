//! `lexi mcp`: the MCP server driven by a real client from the same SDK (`rmcp`, over the child
//! process's stdio), and by hand-written lines for what no well-behaved client sends.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, Stdio};
use std::time::{Duration, SystemTime};

use rmcp::model::{
    CallToolRequestParams, CallToolResult, JsonObject, ProtocolVersion, ReadResourceRequestParams,
    ResourceContents,
};
use rmcp::service::{RoleClient, RunningService, ServiceError, ServiceExt};
use rmcp::transport::TokioChildProcess;
use rmcp::{serve_client_with_lifecycle, ClientLifecycleMode};
use serde_json::{json, Value};

use crate::support::{project, TestProject};

/// The tools the server lists, in order.
const TOOLS: &[&str] = &[
    "orient",
    "lookup",
    "index",
    "context",
    "impact",
    "search",
    "conventions",
    "concepts",
    "stack_search",
    "stack_view",
    "stack_post",
    "stack_answer",
    "stack_vote",
    "iwh_read",
    "iwh_write",
    "convention_add",
];

/// A documented Rust project with a concept and a Stack post, every file an hour old (a file
/// modified within the last two seconds is never vouched for by the session cache).
fn library() -> TestProject {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.lexi([
        "concept",
        "new",
        "ErrorHandling",
        "--title",
        "Error handling",
        "--tag",
        "errors",
        "--alias",
        "errors",
    ])
    .success();
    p.lexi([
        "stack",
        "post",
        "--title",
        "Lexer panics on empty input",
        "--tag",
        "parser",
        "--file",
        "src/parser/lexer.rs",
        "--problem",
        "An empty string makes the lexer index past the end.",
        "--evidence",
        "thread 'main' panicked at 'index out of bounds'",
        "--author",
        "agent-1",
    ])
    .success();
    age(&p);
    p
}

/// Set every file of the project (but `.git/`, except the per-clone state the graph and the calls
/// are read from) an hour back.
fn age(p: &TestProject) {
    fn walk(dir: &std::path::Path, when: SystemTime) {
        for entry in std::fs::read_dir(dir).expect("read dir").flatten() {
            let path = entry.path();
            if entry.file_name() == ".git" {
                continue;
            }
            if path.is_dir() {
                walk(&path, when);
            } else {
                let file = std::fs::File::options()
                    .write(true)
                    .open(&path)
                    .expect("open");
                file.set_modified(when).expect("set mtime");
            }
        }
    }
    let when = SystemTime::now() - Duration::from_secs(3600);
    walk(&p.root, when);
    let state = p.root.join(".git/lexibrarian");
    if state.is_dir() {
        walk(&state, when);
    }
}

/// A client session with `lexi mcp` in the project, through the SDK's child-process transport.
struct Session {
    runtime: tokio::runtime::Runtime,
    client: Option<RunningService<RoleClient, ()>>,
}

impl Session {
    fn start(p: &TestProject) -> Session {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        let mut command = p.command("lexi");
        command.arg("mcp");
        let command = tokio::process::Command::from(command);
        let client = runtime.block_on(async {
            let transport = TokioChildProcess::new(command).expect("spawn lexi mcp");
            ().serve(transport).await.expect("initialize")
        });
        Session {
            runtime,
            client: Some(client),
        }
    }

    fn client(&self) -> &RunningService<RoleClient, ()> {
        self.client.as_ref().expect("running")
    }

    fn try_call(&self, name: &str, arguments: Value) -> Result<CallToolResult, ServiceError> {
        let params = CallToolRequestParams::new(name.to_string()).with_arguments(object(arguments));
        self.runtime.block_on(self.client().call_tool(params))
    }

    /// Call a tool; the call must reach the tool (a tool error is still a result).
    fn call(&self, name: &str, arguments: Value) -> CallToolResult {
        self.try_call(name, arguments)
            .unwrap_or_else(|err| panic!("{name}: {err}"))
    }

    /// The text of a successful call.
    fn text(&self, name: &str, arguments: Value) -> String {
        let result = self.call(name, arguments);
        assert_eq!(result.is_error, Some(false), "{name}: {}", text_of(&result));
        text_of(&result)
    }

    /// The text of a call that must fail as a tool error.
    fn tool_error(&self, name: &str, arguments: Value) -> String {
        let result = self.call(name, arguments);
        assert_eq!(result.is_error, Some(true), "{name} should fail");
        text_of(&result)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            let _ = self.runtime.block_on(client.cancel());
        }
    }
}

fn object(value: Value) -> JsonObject {
    match value {
        Value::Object(object) => object,
        other => panic!("arguments are an object, not {other}"),
    }
}

fn text_of(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|content| content.as_text().map(|text| text.text.clone()))
        .collect::<Vec<_>>()
        .join("")
}

/// A full text answer without its `(etag …)` line, and the etag.
fn split_etag(text: &str) -> (String, String) {
    let (body, etag) = text
        .rsplit_once("\n(etag ")
        .unwrap_or_else(|| panic!("no etag in {text:?}"));
    (
        body.trim_end_matches('\n').to_string() + "\n",
        etag.trim_end().trim_end_matches(')').to_string(),
    )
}

#[test]
fn a_real_client_sees_every_tool_with_its_schema_and_the_resources() {
    let p = library();
    let session = Session::start(&p);
    let info = session.client().peer_info().expect("server info");
    assert_eq!(
        info.server_info.as_ref().map(|s| s.name.as_str()),
        Some("lexibrarian")
    );
    let tools = session
        .runtime
        .block_on(session.client().list_all_tools())
        .expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|tool| tool.name.as_ref()).collect();
    assert_eq!(names, TOOLS);
    for tool in &tools {
        let description = tool.description.as_deref().unwrap_or("");
        assert!(
            description.len() > 80,
            "{} needs a real description",
            tool.name
        );
        let properties = tool.input_schema["properties"]
            .as_object()
            .expect("properties");
        let read_only = tool
            .annotations
            .as_ref()
            .and_then(|a| a.read_only_hint)
            .unwrap_or(false);
        let writes = [
            "stack_post",
            "stack_answer",
            "stack_vote",
            "iwh_read",
            "iwh_write",
            "convention_add",
        ];
        assert_eq!(
            read_only,
            !writes.contains(&tool.name.as_ref()),
            "{}",
            tool.name
        );
        // `full` is listed where it gives another answer; every read tool accepts it.
        let complete = ["lookup", "conventions"].contains(&tool.name.as_ref());
        assert_eq!(properties.contains_key("full"), complete, "{}", tool.name);
        if complete {
            assert!(description.contains("`full`"), "{description}");
        }
    }
    let lookup = tools
        .iter()
        .find(|tool| tool.name == "lookup")
        .expect("lookup");
    assert_eq!(lookup.input_schema["required"], json!(["file"]));
    // The description promises what a lookup gives: at most ~1k tokens, not "200-600".
    let description = lookup.description.as_deref().unwrap_or("");
    assert!(
        description.contains("~1k tokens") && !description.contains("200-600"),
        "{description}"
    );
    let vote = tools.iter().find(|t| t.name == "stack_vote").expect("vote");
    assert_eq!(
        vote.input_schema["properties"]["direction"]["enum"],
        json!(["up", "down"])
    );

    let resources = session
        .runtime
        .block_on(session.client().list_all_resources())
        .expect("resources/list");
    let uris: Vec<&str> = resources.iter().map(|r| r.uri.as_str()).collect();
    assert_eq!(
        uris,
        [
            "lexibrary://START_HERE.md",
            "lexibrary://concepts/ErrorHandling"
        ]
    );
    let read = |uri: &str| {
        let result = session
            .runtime
            .block_on(
                session
                    .client()
                    .read_resource(ReadResourceRequestParams::new(uri)),
            )
            .expect("resources/read");
        match &result.contents[0] {
            ResourceContents::TextResourceContents { text, .. } => text.clone(),
            other => panic!("not text: {other:?}"),
        }
    };
    assert_eq!(
        read("lexibrary://START_HERE.md"),
        p.read(".lexibrary/START_HERE.md")
    );
    assert_eq!(
        read("lexibrary://concepts/ErrorHandling"),
        p.read(".lexibrary/concepts/ErrorHandling.md")
    );
    let missing = session.runtime.block_on(session.client().read_resource(
        ReadResourceRequestParams::new("lexibrary://concepts/../config.yaml"),
    ));
    assert!(missing.is_err(), "a path is not a concept name");
}

#[test]
fn a_client_of_the_stateless_2026_07_28_lifecycle_is_served_too() {
    let p = library();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut command = p.command("lexi");
    command.arg("mcp");
    runtime.block_on(async {
        let transport =
            TokioChildProcess::new(tokio::process::Command::from(command)).expect("spawn");
        let lifecycle = ClientLifecycleMode::Discover {
            preferred_versions: vec![ProtocolVersion::V_2026_07_28],
        };
        let client = serve_client_with_lifecycle((), transport, lifecycle)
            .await
            .expect("server/discover");
        let params = CallToolRequestParams::new("lookup")
            .with_arguments(object(json!({"file": "src/lib.rs"})));
        let result = client.call_tool(params).await.expect("tools/call");
        assert_eq!(result.is_error, Some(false));
        assert!(text_of(&result).contains("# src/lib.rs"));
        let _ = client.cancel().await;
    });
}

#[test]
fn lookup_of_one_member_answers_what_the_cli_prints() {
    let p = library();
    let cli = p
        .lexi(["lookup", "src/lib.rs", "--member", "eval"])
        .success()
        .stdout;
    let session = Session::start(&p);
    let answer = session.text("lookup", json!({"file": "src/lib.rs", "member": "eval"}));
    let (body, _) = split_etag(&answer);
    assert_eq!(body, cli);
    assert!(
        body.starts_with("# src/lib.rs: eval (function, lines 6-9)"),
        "{body}"
    );
    let error = session.tool_error("lookup", json!({"file": "src/lib.rs", "member": "evil"}));
    assert!(error.contains("did you mean: eval"), "{error}");
}

#[test]
fn lookup_answers_what_the_cli_prints_then_unchanged_until_a_file_changes() {
    let p = library();
    let cli = p.lexi(["lookup", "src/lib.rs"]).success().stdout;
    let session = Session::start(&p);
    let first = session.text("lookup", json!({"file": "src/lib.rs"}));
    let (body, etag) = split_etag(&first);
    assert_eq!(body, cli);
    assert_eq!(etag.len(), 16);

    let again = session.text("lookup", json!({"file": "src/lib.rs"}));
    assert!(
        again.starts_with(&format!("unchanged since {etag}:")),
        "{again}"
    );
    assert!(again.len() < 300, "the short answer is short: {again}");
    // `full: true`: the whole design file, as `lexi lookup --full` prints it (sent again each time).
    let full = session.text("lookup", json!({"file": "src/lib.rs", "full": true}));
    let whole = p.lexi(["lookup", "src/lib.rs", "--full"]).success().stdout;
    assert_eq!(split_etag(&full).0, whole);
    assert_ne!(whole, cli);
    let full_again = session.text("lookup", json!({"file": "src/lib.rs", "full": true}));
    assert_eq!(split_etag(&full_again).0, whole);
    // Another spelling of the same path is another call, and its answer is the same.
    let absolute = p.root.join("src/lib.rs").display().to_string();
    let (same, _) = split_etag(&session.text("lookup", json!({"file": absolute})));
    assert_eq!(same, cli);

    // The design file changes (an agent edits it): the next call answers in full, new etag.
    let design: String = p
        .read(".lexibrary/src/lib.rs.md")
        .lines()
        .map(|line| match line.starts_with("description:") {
            true => "description: Edited by an agent.\n".to_string(),
            false => format!("{line}\n"),
        })
        .collect();
    p.write(".lexibrary/src/lib.rs.md", design);
    age(&p);
    let changed = session.text("lookup", json!({"file": "src/lib.rs"}));
    let (body, new_etag) = split_etag(&changed);
    assert!(body.contains("Edited by an agent."), "{body}");
    assert_ne!(new_etag, etag);
    // So does a source edit (the staleness warning depends on it).
    p.write("src/lib.rs", "pub fn changed() {}\n");
    age(&p);
    let stale = session.text("lookup", json!({"file": "src/lib.rs"}));
    assert!(stale.contains("This doc may be outdated"), "{stale}");

    // JSON: the CLI's JSON, as text and as structured content.
    let cli_json = p.lexi(["lookup", "src/lib.rs", "--format", "json"]).json();
    let result = session.call("lookup", json!({"file": "src/lib.rs", "format": "json"}));
    assert_eq!(result.structured_content.as_ref(), Some(&cli_json));
    let parsed: Value = serde_json::from_str(&text_of(&result)).expect("json text");
    assert_eq!(parsed, cli_json);
}

#[test]
fn a_session_keeps_what_it_read_and_sees_every_change_between_two_calls_at_once() {
    let p = library();
    let session = Session::start(&p);
    let search = |query: &str| session.text("search", json!({"query": query, "full": true}));
    assert!(search("quadratic").contains("No matches"));
    let before = session.text("lookup", json!({"file": "src/lib.rs", "full": true}));
    assert!(!before.contains("quadratic"), "{before}");

    // An update between two calls (a new function, its design file and the graph rewritten): the
    // next search and lookup answer from the new library, not from what the session kept.
    p.write(
        "src/lib.rs",
        format!(
            "{}\n/// Solve a quadratic equation.\npub fn quadratic(a: i64) -> i64 {{\n    eval(\"1\").unwrap_or(a)\n}}\n",
            p.read("src/lib.rs")
        ),
    );
    p.lexictl(["update"]).success();
    assert!(search("quadratic").contains("src/lib.rs"));
    let after = session.text("lookup", json!({"file": "src/lib.rs", "full": true}));
    assert!(after.contains("quadratic"), "{after}");
    assert_eq!(
        split_etag(&after).0,
        p.lexi(["lookup", "src/lib.rs", "--full"]).success().stdout
    );

    // An agent's editor writes a design file in place (no rename, same directory): seen at once.
    let design = ".lexibrary/src/parser/mod.rs.md";
    p.write(
        design,
        p.read(design)
            .replacen("\n## ", "\nHolds the zanzibar rules.\n\n## ", 1),
    );
    assert!(
        search("zanzibar").contains("src/parser/mod.rs"),
        "{}",
        search("zanzibar")
    );
}

#[test]
fn read_tools_answer_what_their_commands_print() {
    let p = library();
    let session = Session::start(&p);
    let same = |tool: &str, arguments: Value, cli: &[&str]| {
        let expected = p.lexi(cli).success().stdout;
        let (body, _) = split_etag(&session.text(tool, arguments));
        assert_eq!(body, expected, "{tool} vs lexi {cli:?}");
    };
    same("index", json!({"dir": "src"}), &["index", "src"]);
    same(
        "index",
        json!({"dir": ".", "recursive": true}),
        &["index", ".", "-r"],
    );
    same("search", json!({"query": "lexer"}), &["search", "lexer"]);
    same(
        "search",
        json!({"tag": "parser", "type": ["stack"]}),
        &["search", "--tag", "parser", "--type", "stack"],
    );
    same("concepts", json!({}), &["concepts"]);
    same(
        "concepts",
        json!({"topic": "errors"}),
        &["concepts", "errors"],
    );
    same(
        "stack_search",
        json!({"query": "empty input"}),
        &["stack", "search", "empty", "input"],
    );
    same(
        "stack_view",
        json!({"id": "ST-1"}),
        &["stack", "view", "ST-001"],
    );
    same(
        "context",
        json!({"target": "src/parser/lexer.rs"}),
        &["context", "src/parser/lexer.rs"],
    );
    same(
        "context",
        json!({"target": "ErrorHandling", "budget": 300}),
        &["context", "ErrorHandling", "--budget", "300"],
    );
    same(
        "impact",
        json!({"file": "src/parser/lexer.rs"}),
        &["impact", "src/parser/lexer.rs"],
    );
    // One member's impact, as `lexi impact --member` prints it; never cached (it reads its
    // callers' files as they are), so without an etag.
    let member = session.text(
        "impact",
        json!({"file": "src/parser/lexer.rs", "member": "tokens"}),
    );
    let cli = p
        .lexi(["impact", "src/parser/lexer.rs", "--member", "tokens"])
        .success()
        .stdout;
    assert_eq!(member, cli);
    assert!(
        member.contains("- src/parser/mod.rs: parse (calls tokens)"),
        "{member}"
    );
    let cli_json = p
        .lexi([
            "impact",
            "src/parser/lexer.rs",
            "--depth",
            "1",
            "--format",
            "json",
        ])
        .json();
    let result = session.call(
        "impact",
        json!({"file": "src/parser/lexer.rs", "depth": 1, "format": "json"}),
    );
    assert_eq!(result.structured_content.as_ref(), Some(&cli_json));
    let bad_depth = session.tool_error("impact", json!({"file": "src/lib.rs", "depth": 0}));
    assert!(bad_depth.contains("between 1 and 20"), "{bad_depth}");
    // orient is never cached: it answers in full every time, without an etag.
    let orient = session.text("orient", json!({}));
    let cli = p.lexi(["orient"]).success().stdout;
    let (before, _) = cli
        .split_once("## Answering questions")
        .expect("the CLI says which calls answer questions");
    // The same bundle; the ways to answer are the server's tools, not commands.
    assert!(orient.starts_with(before), "{orient}");
    assert!(
        orient.contains("- One member: `lookup` with `member`"),
        "{orient}"
    );
    assert!(!orient.contains("lexi lookup <file> --member"), "{orient}");
    assert_eq!(session.text("orient", json!({})), orient);
}

#[test]
fn paths_outside_the_project_in_git_or_in_the_library_are_refused() {
    let p = library();
    let session = Session::start(&p);
    for (file, says) in [
        ("../outside.rs", "is outside the project root"),
        ("/etc/passwd", "is outside the project root"),
        (".git/config", "inside .git/"),
        (
            ".lexibrary/src/lib.rs.md",
            "is a library file under .lexibrary/",
        ),
    ] {
        let error = session.tool_error("lookup", json!({"file": file}));
        assert!(error.contains(says), "{file}: {error}");
        let cli = p.lexi(["lookup", file]).code(1).stderr;
        assert!(cli.contains(&error), "the CLI says the same: {cli}");
    }
    let error = session.tool_error("search", json!({"query": "x", "scope": "../.."}));
    assert!(error.contains("outside the project root"), "{error}");
    let error = session.tool_error(
        "iwh_write",
        json!({"dir": ".git", "scope": "warning", "body": "x"}),
    );
    assert!(error.contains("inside .git/"), "{error}");
    assert!(!p.exists(".git/.iwh") && !p.exists(".lexibrary/.git/.iwh"));
}

#[test]
fn bad_arguments_are_tool_errors_that_say_what_is_wrong() {
    let p = library();
    let session = Session::start(&p);
    let missing = session.tool_error("lookup", json!({}));
    assert!(missing.contains("missing field `file`"), "{missing}");
    let unknown = session.tool_error("lookup", json!({"path": "src/lib.rs"}));
    assert!(unknown.contains("unknown field `path`"), "{unknown}");
    let wrong = session.tool_error("index", json!({"recursive": "yes"}));
    assert!(wrong.contains("invalid arguments for `index`"), "{wrong}");
    let format = session.tool_error("lookup", json!({"file": "src/lib.rs", "format": "xml"}));
    assert!(format.contains("\"text\" or \"json\""), "{format}");
    let full = session.tool_error(
        "iwh_write",
        json!({"dir": ".", "scope": "warning", "body": "x", "full": true}),
    );
    assert!(full.contains("`full` is for read tools"), "{full}");
    let empty = session.tool_error("search", json!({}));
    assert!(empty.contains("give words to search for"), "{empty}");
    let downvote = session.tool_error("stack_vote", json!({"id": "ST-001", "direction": "down"}));
    assert!(
        downvote.contains("a downvote needs --comment"),
        "{downvote}"
    );
    // An unknown tool is a protocol error naming the tools there are.
    match session.try_call("rename", json!({"file": "src/lib.rs"})) {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code.0, -32602);
            assert!(error.message.contains("unknown tool `rename`"), "{error:?}");
            assert!(error.message.contains("lookup"), "{error:?}");
        }
        other => panic!("expected a protocol error, got {other:?}"),
    }
    // The session is still fine.
    session.text("lookup", json!({"file": "src/lib.rs"}));
}

#[test]
fn write_tools_post_answer_vote_and_pass_notes() {
    let p = library();
    let session = Session::start(&p);
    let search = json!({"query": "timeout"});
    let none = session.text("stack_search", search.clone());
    assert!(none.starts_with("No matching Stack posts."), "{none}");

    let posted = session.text(
        "stack_post",
        json!({
            "title": "Parser timeout on deep nesting",
            "problem": "Deeply nested input makes parse() take seconds.",
            "evidence": "test deep_nesting took 12s",
            "tags": ["parser", "perf"],
            "files": ["src/parser/mod.rs"],
            "concepts": ["Error handling"],
            "author": "agent-2",
        }),
    );
    assert_eq!(
        posted,
        "Created ST-002: .lexibrary/stack/ST-002-parser-timeout-on-deep-nesting.md\n"
    );
    // The Stack changed, so the same search answers in full with the new post.
    let found = session.text("stack_search", search);
    assert!(
        found.contains("ST-002") && found.contains("Parser timeout"),
        "{found}"
    );
    let post = p.read(".lexibrary/stack/ST-002-parser-timeout-on-deep-nesting.md");
    assert!(post.contains("concepts:\n  - ErrorHandling"), "{post}");

    let answered = session.text(
        "stack_answer",
        json!({"id": "ST-2", "body": "Memoise nested groups.", "author": "agent-3"}),
    );
    assert_eq!(answered, "Added A1 to ST-002\n");
    let voted = session.text(
        "stack_vote",
        json!({"id": "ST-002", "answer": 1, "direction": "up", "author": "agent-2"}),
    );
    assert_eq!(voted, "ST-002 A1: ▲1\n");
    let view = p.lexi(["stack", "view", "ST-002"]).success().stdout;
    assert!(
        view.contains("## A1 ▲1") && view.contains("Memoise nested groups."),
        "{view}"
    );

    let left = session.text("iwh_write", json!({"dir": "src/parser", "scope": "incomplete", "body": "Memoisation half done.", "author": "agent-3"}));
    assert_eq!(
        left,
        "Left a incomplete note in src/parser (.lexibrary/src/parser/.iwh)\n"
    );
    let again = session.tool_error(
        "iwh_write",
        json!({"dir": "src/parser", "scope": "warning", "body": "second"}),
    );
    assert!(again.contains("a note already waits"), "{again}");
    let peeked = session.text("iwh_read", json!({"dir": "src/parser", "peek": true}));
    assert!(peeked.contains("Memoisation half done."), "{peeked}");
    assert!(p.exists(".lexibrary/src/parser/.iwh"));
    let read = session.text("iwh_read", json!({"dir": "src/parser"}));
    assert_eq!(read, peeked);
    assert!(
        !p.exists(".lexibrary/src/parser/.iwh"),
        "reading consumes the note"
    );
    let gone = session.text("iwh_read", json!({"dir": "src/parser"}));
    assert_eq!(gone, "No note waits in src/parser.\n");

    let added = session.text(
        "convention_add",
        json!({"dir": "src/parser", "rule": "Tokens carry their byte span.", "tags": ["parser"], "concepts": ["Error handling"]}),
    );
    assert_eq!(
        added,
        "Added to .lexibrary/src/parser/.aindex: - Tokens carry their byte span. (tags: parser; concepts: [[ErrorHandling]])\n"
    );
    let listed = p.lexi(["conventions", "src/parser"]).success().stdout;
    assert!(listed.contains("Tokens carry their byte span."), "{listed}");
    let unknown = session.tool_error(
        "convention_add",
        json!({"dir": "src/parser", "rule": "x", "concepts": ["Nope"]}),
    );
    assert!(unknown.contains("no concept named"), "{unknown}");
    let file = session.tool_error("convention_add", json!({"dir": "src/lib.rs", "rule": "x"}));
    assert!(file.contains("is a file"), "{file}");
    p.lexictl(["validate"]).success();
}

/// `lexi mcp` with its stdin and stdout in our hands, for lines no SDK client would send.
struct Raw {
    child: Child,
    stdout: BufReader<std::process::ChildStdout>,
}

impl Raw {
    fn start(p: &TestProject) -> Raw {
        let mut child = p
            .command("lexi")
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn lexi mcp");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Raw { child, stdout }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.child.stdin.as_mut().expect("stdin");
        stdin.write_all(line.as_bytes()).expect("write");
        stdin.write_all(b"\n").expect("write");
        stdin.flush().expect("flush");
    }

    /// The next line the server writes, as JSON.
    fn answer(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).expect("read");
        assert!(!line.is_empty(), "the server closed stdout");
        serde_json::from_str(&line).unwrap_or_else(|err| panic!("{err}: {line:?}"))
    }

    /// Send `line`; the answer must be an error with `code` (and `id`).
    fn rejected(&mut self, line: &str, code: i64, id: Value) -> String {
        self.send(line);
        let answer = self.answer();
        assert_eq!(answer["error"]["code"], code, "{line} → {answer}");
        assert_eq!(answer["id"], id, "{line} → {answer}");
        answer["error"]["message"]
            .as_str()
            .unwrap_or("")
            .to_string()
    }
}

#[test]
fn garbage_and_malformed_requests_get_errors_and_the_server_keeps_serving() {
    let p = library();
    let mut raw = Raw::start(&p);
    let message = raw.rejected("this is not json", -32700, Value::Null);
    assert!(message.starts_with("Parse error:"), "{message}");
    raw.rejected(
        "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\"",
        -32700,
        Value::Null,
    );
    raw.rejected("\u{0}\u{1}\u{2}binary", -32700, Value::Null);
    let batch = raw.rejected(
        "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
        -32600,
        Value::Null,
    );
    assert!(batch.contains("batches"), "{batch}");
    raw.rejected("42", -32600, Value::Null);
    raw.rejected(
        "{\"jsonrpc\":\"1.0\",\"id\":7,\"method\":\"ping\"}",
        -32600,
        json!(7),
    );
    raw.rejected(
        "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":3}",
        -32600,
        json!("x"),
    );
    raw.rejected("{\"jsonrpc\":\"2.0\",\"id\":8}", -32600, json!(8));

    raw.send(
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"}}})
        .to_string(),
    );
    let initialized = raw.answer();
    assert_eq!(initialized["id"], 1);
    assert_eq!(initialized["result"]["serverInfo"]["name"], "lexibrarian");
    raw.send(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);

    raw.rejected(
        r#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#,
        -32601,
        json!(2),
    );
    raw.send(r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":5}"#);
    let bad_params = raw.answer();
    assert!(bad_params["error"]["code"].is_i64(), "{bad_params}");
    raw.rejected(
        r#"{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope"}}"#,
        -32602,
        json!(4),
    );
    raw.send(r#"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"lookup","arguments":{"file":["a"]}}}"#);
    let wrong_type = raw.answer();
    assert_eq!(wrong_type["id"], 5);
    assert_eq!(wrong_type["result"]["isError"], true, "{wrong_type}");

    raw.send(r#"{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"lookup","arguments":{"file":"src/lib.rs"}}}"#);
    let answer = raw.answer();
    assert_eq!(answer["id"], 6);
    assert_eq!(answer["result"]["isError"], false, "{answer}");
    let text = answer["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or("");
    assert!(text.contains("# src/lib.rs"), "{text}");

    // End of input ends the server, cleanly.
    drop(raw.child.stdin.take());
    let output = raw.child.wait_with_output().expect("wait");
    assert!(output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn a_client_that_leaves_at_once_is_no_error() {
    let p = library();
    let raw = Raw::start(&p);
    let output = raw.child.wait_with_output().expect("wait");
    assert!(output.status.success(), "{output:?}");
}

#[test]
fn outside_a_project_the_server_does_not_start() {
    let p = project().build();
    p.lexi(["mcp"]).code(1).stderr_has("run `lexictl init`");
}

/// `tools/list` is what a client puts before the model's first question: under 6 KB for every tool,
/// each still saying what it answers and when to call it (20.6 KB before).
#[test]
fn the_tool_list_is_under_6_kb() {
    let p = library();
    let session = Session::start(&p);
    let tools = session
        .runtime
        .block_on(session.client().list_all_tools())
        .expect("tools/list");
    let listed = serde_json::to_string(&json!({ "tools": tools })).expect("serialize");
    assert!(listed.len() < 6000, "{} bytes: {listed}", listed.len());
}

/// MCP clients get the conventions a change must follow whole: a `conventions` tool (the CLI's
/// `lexi conventions`, and with `full: true` its `--all`), and `orient` points to it.
#[test]
fn the_conventions_tool_answers_every_practice_whole_and_orient_points_to_it() {
    let p = library();
    // Longer than even the test command is shown uncut (200 characters).
    let command = "mocha --require test/support/env --reporter spec --check-leaks test/ test/acceptance/ --recursive --parallel --jobs 4 --retries 2 --slow 300 --reporter-option maxDiffSize=0 --forbid-only --forbid-pending --exit --timeout 5000";
    p.write(
        "package.json",
        format!("{{\"name\": \"calc\", \"scripts\": {{\"test\": \"{command}\", \"lint\": \"eslint .\"}}}}\n"),
    );
    p.lexi(["convention", "add", "src", "Parsing never panics."])
        .success();
    age(&p);
    let session = Session::start(&p);
    // What the CLI prints, the way to the rest said as MCP says it; answered afresh every time
    // (the practices are read from files no fingerprint covers).
    let short = session.text("conventions", json!({"dir": "src/parser"}));
    let cli = p.lexi(["conventions", "src/parser"]).success().stdout;
    assert_eq!(
        short,
        cli.replace("`lexi conventions --all`", "`full: true`")
    );
    assert!(short.contains("- Parsing never panics."), "{short}");
    assert!(short.contains("`full: true` shows each whole"), "{short}");
    assert!(
        !short.contains("--timeout 5000"),
        "the premise: cut\n{short}"
    );
    let whole = session.text("conventions", json!({"dir": "src/parser", "full": true}));
    assert!(
        whole.contains(&format!("`npm test` runs `{command}`.")),
        "{whole}"
    );
    assert_eq!(
        whole,
        p.lexi(["conventions", "src/parser", "--all"])
            .success()
            .stdout
    );
    let orient = session.text("orient", json!({}));
    assert!(
        orient.contains("the contribution guide: the `conventions` tool"),
        "{orient}"
    );
    let practices = orient
        .split("## Project practices")
        .nth(1)
        .expect("the practices digest");
    assert!(!practices.contains("`lexi conventions`"), "{practices}");
}
