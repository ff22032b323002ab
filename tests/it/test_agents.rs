//! The agents' files: what `lexictl init` and `lexictl setup --mcp|--uninstall-mcp|--update` merge
//! into CLAUDE.md, AGENTS.md, .claude/, .cursor/, .mcp.json and .codex/config.toml, what they record,
//! and the pre-edit hook `lexi hook pre-edit`.

use serde_json::{json, Value};

use crate::support::{project, TestProject};

const SETTINGS: &str = r#"{
  "permissions": {
    "allow": [
      "Bash(cargo test:*)"
    ],
    "deny": [
      "Read(./.env)"
    ]
  },
  "hooks": {
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "echo hello"
          }
        ]
      }
    ]
  }
}
"#;

fn json_file(p: &TestProject, rel: &str) -> Value {
    serde_json::from_str(&p.read(rel)).unwrap_or_else(|err| panic!("{rel}: {err}"))
}

fn record_ids(p: &TestProject) -> Vec<String> {
    let record = json_file(p, ".lexibrary/integrations.json");
    record["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|entry| entry["id"].as_str().unwrap_or("").to_string())
        .collect()
}

#[test]
fn init_for_claude_merges_the_session_hook_writes_the_skill_and_records_both() {
    let p = project()
        .fixture("rust")
        .file("CLAUDE.md", "# House rules\n")
        .file(".claude/settings.json", SETTINGS)
        .build();
    p.lexictl(["init", "--yes"]).success();
    let settings = json_file(&p, ".claude/settings.json");
    assert_eq!(settings["permissions"]["allow"][0], "Bash(cargo test:*)");
    assert_eq!(settings["permissions"]["deny"][0], "Read(./.env)");
    let start = settings["hooks"]["SessionStart"].as_array().expect("array");
    assert_eq!(start.len(), 2, "{settings}");
    assert_eq!(start[0]["hooks"][0]["command"], "echo hello");
    assert_eq!(start[1]["hooks"][0]["command"], "lexi orient");
    assert!(
        settings["hooks"].get("PreToolUse").is_none(),
        "off by default"
    );
    let skill = p.read(".claude/skills/lexibrarian/SKILL.md");
    assert!(skill.starts_with("---\nname: lexibrarian\n"), "{skill}");
    let claude = p.read("CLAUDE.md");
    assert!(claude.contains("Read `.lexibrary/START_HERE.md` before anything else."));
    assert_eq!(
        record_ids(&p),
        [
            "claude.session-start",
            "claude.skill",
            "init.gitignore",
            "init.lexignore",
            "rules.claude"
        ]
    );
    // The record is part of the library and does not upset it.
    p.lexictl(["update"]).success();
    p.lexictl(["validate"]).success();
    // The session-start hook's command works.
    p.lexi(["orient"]).success().stdout_has("start here");
}

#[test]
fn init_with_no_agent_writes_agents_md_and_says_so() {
    let p = project().fixture("rust").build();
    let out = p.lexictl(["init", "--yes"]).success();
    out.stdout_has("created   AGENTS.md")
        .stdout_has("No agent environment was detected")
        .stdout_has("--agents none");
    let agents = p.read("AGENTS.md");
    assert!(
        agents.starts_with("<!-- >>> lexibrarian rules v1 >>> -->"),
        "{agents}"
    );
    assert!(agents.contains(".lexibrary/START_HERE.md"));
    assert!(p
        .read(".lexibrary/config.yaml")
        .contains("agent_environment:\n- codex"));

    let none = project().fixture("rust").build();
    none.lexictl(["init", "--yes", "--agents", "none"])
        .success()
        .stdout_lacks("AGENTS.md");
    assert!(!none.exists("AGENTS.md") && !none.exists("CLAUDE.md") && !none.exists(".claude"));
    assert!(none
        .read(".lexibrary/config.yaml")
        .contains("agent_environment: []"));

    let chosen = project().fixture("rust").build();
    chosen
        .lexictl(["init", "--yes", "--agents", "cursor,claude"])
        .success();
    assert!(chosen.exists(".cursor/rules/lexibrarian.mdc") && chosen.exists("CLAUDE.md"));
    assert!(!chosen.exists("AGENTS.md"));
}

#[test]
fn a_settings_file_that_is_not_json_stops_init_before_anything_is_written() {
    let broken = "{\n  // my comment\n  \"model\": \"opus\"\n}\n";
    let p = project()
        .fixture("rust")
        .file(".claude/settings.json", broken)
        .build();
    p.lexictl(["init", "--yes"])
        .code(1)
        .stderr_has(".claude/settings.json: not valid JSON")
        .stderr_has("add Lexibrarian's entry by hand");
    assert_eq!(p.read(".claude/settings.json"), broken);
    assert!(!p.exists(".lexibrary") && !p.exists("CLAUDE.md") && !p.exists(".lexignore"));
}

#[test]
fn setup_mcp_merges_into_every_client_and_uninstall_gives_the_files_back() {
    let mcp_json = "{\n    \"mcpServers\": {\n        \"docs\": {\n            \"command\": \"docs-mcp\"\n        }\n    }\n}\n";
    let codex = "# Codex settings for this repository\nmodel = \"gpt-5.6\"\n\n[mcp_servers.docs]\ncommand = \"docs-mcp\" # ours\n";
    let p = project()
        .fixture("rust")
        .file(".mcp.json", mcp_json)
        .file(".codex/config.toml", codex)
        .init()
        .build();
    p.lexictl(["setup", "--mcp", "--agents", "claude,cursor,codex"])
        .success()
        .stdout_has(".mcp.json: added mcpServers.lexibrarian")
        .stdout_has(".cursor/mcp.json: added mcpServers.lexibrarian")
        .stdout_has(".codex/config.toml: added mcp_servers.lexibrarian");
    let claude = json_file(&p, ".mcp.json");
    assert_eq!(claude["mcpServers"]["docs"]["command"], "docs-mcp");
    assert_eq!(
        claude["mcpServers"]["lexibrarian"],
        json!({"type": "stdio", "command": "lexi", "args": ["mcp"]})
    );
    assert!(
        p.read(".mcp.json").contains("\n        \"lexibrarian\": {"),
        "indentation kept"
    );
    let cursor = json_file(&p, ".cursor/mcp.json");
    assert_eq!(cursor["mcpServers"]["lexibrarian"]["command"], "lexi");
    let toml = p.read(".codex/config.toml");
    assert!(
        toml.starts_with("# Codex settings for this repository\n"),
        "{toml}"
    );
    assert!(toml.contains("command = \"docs-mcp\" # ours"), "{toml}");
    assert!(
        toml.contains("[mcp_servers.lexibrarian]\ncommand = \"lexi\"\nargs = [\"mcp\"]"),
        "{toml}"
    );
    // Again: nothing to do.
    p.lexictl(["setup", "--mcp", "--agents", "claude,cursor,codex"])
        .success()
        .stdout_is("agent files already current\n");

    p.lexictl(["setup", "--uninstall-mcp"]).success();
    assert_eq!(p.read(".mcp.json"), mcp_json);
    assert_eq!(p.read(".codex/config.toml"), codex);
    assert!(
        !p.exists(".cursor"),
        "the file and directory it made are gone"
    );
    assert!(!record_ids(&p).iter().any(|id| id.starts_with("mcp.")));
}

#[test]
fn uninstall_keeps_what_a_person_changed_and_leaves_others_servers_alone() {
    let theirs = "{\n  \"mcpServers\": {\n    \"lexibrarian\": {\n      \"command\": \"/opt/lexi\",\n      \"args\": [\"mcp\"]\n    }\n  }\n}\n";
    let p = project()
        .fixture("rust")
        .file(".cursor/mcp.json", theirs)
        .init()
        .build();
    p.lexictl(["setup", "--mcp", "--agents", "claude,cursor"])
        .success()
        .stdout_has("note: .cursor/mcp.json: mcpServers.lexibrarian already exists with another value, written by someone else; left as it is");
    assert_eq!(p.read(".cursor/mcp.json"), theirs);
    // Someone adds an environment variable to the entry Lexibrarian wrote.
    let mut claude = json_file(&p, ".mcp.json");
    claude["mcpServers"]["lexibrarian"]["env"] = json!({"LEXI_AUTHOR": "claude"});
    p.write(
        ".mcp.json",
        serde_json::to_string_pretty(&claude).expect("json"),
    );
    p.lexictl(["setup", "--uninstall-mcp"])
        .success()
        .stdout_has("note: .mcp.json: what Lexibrarian added (mcp.claude) was changed since, so it was left as it is");
    assert_eq!(json_file(&p, ".mcp.json"), claude);
    assert_eq!(
        p.read(".cursor/mcp.json"),
        theirs,
        "never ours, never removed"
    );
}

#[test]
fn setup_mcp_without_agents_says_how_to_name_them() {
    let p = project().fixture("rust").build();
    p.lexictl(["init", "--yes", "--agents", "none"]).success();
    p.lexictl(["setup", "--mcp"])
        .code(1)
        .stderr_has("--agents claude,cursor,codex");
}

#[test]
fn update_switches_the_pre_edit_hook_and_refreshes_only_what_is_unchanged() {
    let p = project()
        .fixture("rust")
        .file(".claude/settings.json", SETTINGS)
        .init()
        .build();
    p.config("claude:\n  pre_edit_lookup: true\n");
    p.lexictl(["setup", "--update"]).success().stdout_has(
        ".claude/settings.json: added the `lexi hook pre-edit` hook to hooks.PreToolUse",
    );
    let settings = json_file(&p, ".claude/settings.json");
    assert_eq!(
        settings["hooks"]["PreToolUse"][0]["matcher"],
        "Edit|MultiEdit|Write"
    );
    p.config("claude:\n  pre_edit_lookup: false\n");
    p.lexictl(["setup", "--update"])
        .success()
        .stdout_has("removed Lexibrarian's hook from hooks.PreToolUse");
    let settings = json_file(&p, ".claude/settings.json");
    assert!(settings["hooks"].get("PreToolUse").is_none(), "{settings}");
    assert_eq!(
        settings["hooks"]["SessionStart"].as_array().map(Vec::len),
        Some(2)
    );

    // A person edits the skill: the refresh leaves it and says so.
    p.write(".claude/skills/lexibrarian/SKILL.md", "my own skill\n");
    p.lexictl(["setup", "--update"]).success().stdout_has(
        "note: .claude/skills/lexibrarian/SKILL.md was edited after Lexibrarian wrote it",
    );
    assert_eq!(
        p.read(".claude/skills/lexibrarian/SKILL.md"),
        "my own skill\n"
    );
    // A person removes the session hook: it stays out.
    p.write(".claude/settings.json", SETTINGS);
    p.lexictl(["setup", "--update"])
        .success()
        .stdout_has("it stays out");
    p.lexictl(["setup", "--update"]).success();
    assert_eq!(p.read(".claude/settings.json"), SETTINGS);
}

#[test]
fn update_refreshes_an_old_block_written_before_there_was_a_record() {
    let old = "# Mine\n\n<!-- >>> lexibrarian rules v1 >>> -->\n## Lexibrarian\n\n1. Read this file at the start of every session.\n<!-- <<< lexibrarian rules <<< -->\n\n## After\n";
    let p = project()
        .fixture("rust")
        .file("CLAUDE.md", old)
        .init()
        .build();
    std::fs::remove_file(p.path(".lexibrary/integrations.json")).expect("no record");
    p.write("CLAUDE.md", old);
    p.lexictl(["setup", "--update"])
        .success()
        .stdout_has("CLAUDE.md: refreshed the Lexibrarian section");
    let claude = p.read("CLAUDE.md");
    assert!(claude.starts_with("# Mine\n\n<!-- >>> lexibrarian rules v1 >>> -->\n## Lexibrarian: the codebase library\n\nRead `.lexibrary/START_HERE.md`"));
    assert!(
        claude.ends_with("<!-- <<< lexibrarian rules <<< -->\n\n## After\n"),
        "{claude}"
    );
    assert!(!claude.contains("Read this file"));
    assert!(record_ids(&p).contains(&"rules.claude".to_string()));
}

fn pre_edit_input(p: &TestProject, file: &str, session: &str) -> String {
    json!({
        "session_id": session,
        "hook_event_name": "PreToolUse",
        "cwd": p.root,
        "tool_name": "Edit",
        "tool_input": {"file_path": file, "old_string": "a", "new_string": "b"},
    })
    .to_string()
}

#[test]
fn the_pre_edit_hook_adds_a_short_lookup_once_per_session() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    let lib = p.root.join("src/lib.rs").display().to_string();
    // Off by default: silent.
    p.lexi(["hook", "pre-edit"])
        .stdin(pre_edit_input(&p, &lib, "s1"))
        .success()
        .stdout_is("");
    p.config("claude:\n  pre_edit_lookup: true\n");
    let out = p
        .lexi(["hook", "pre-edit"])
        .stdin(pre_edit_input(&p, &lib, "s1"))
        .success();
    let answer: Value = out.json();
    assert_eq!(answer["hookSpecificOutput"]["hookEventName"], "PreToolUse");
    let context = answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .expect("context");
    assert!(
        context.starts_with("Lexibrarian — src/lib.rs: "),
        "{context}"
    );
    assert!(
        context.contains("update .lexibrary/src/lib.rs.md"),
        "{context}"
    );
    assert!(context.len() < 600, "short: {context}");
    // Same session, same design file: said once.
    p.lexi(["hook", "pre-edit"])
        .stdin(pre_edit_input(&p, &lib, "s1"))
        .success()
        .stdout_is("");
    // A relative path from the hook's cwd, another session.
    p.lexi(["hook", "pre-edit"])
        .stdin(pre_edit_input(&p, "src/lib.rs", "s2"))
        .success()
        .stdout_has("additionalContext");
}

#[test]
fn the_pre_edit_hook_is_safe_with_any_path() {
    let p = project().fixture("rust").init().build();
    p.lexictl(["update"]).success();
    p.config("claude:\n  pre_edit_lookup: true\n");
    for file in [
        "src/lib.rs; touch pwned",
        "$(touch pwned)",
        "`touch pwned`",
        "src/lib.rs\" && touch pwned && \"",
        "../../../etc/passwd",
        "/etc/passwd",
        ".git/config",
        ".lexibrary/src/lib.rs.md",
        "src/no such file.rs",
        "",
    ] {
        p.lexi(["hook", "pre-edit"])
            .stdin(pre_edit_input(&p, file, "s3"))
            .success()
            .stdout_is("");
    }
    for garbage in ["", "not json", "{\"tool_input\": 5}", "[]"] {
        p.lexi(["hook", "pre-edit"])
            .stdin(garbage)
            .success()
            .stdout_is("");
    }
    assert!(!p.exists("pwned") && !p.exists("src/pwned"));
}
