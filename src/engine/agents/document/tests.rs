//! Merging into the agent configuration files: every other server, setting, permission, hook and
//! comment stays as it was, and removing what was added gives the file back byte for byte.

use serde_json::json;

use super::*;

fn path(parts: &[&str]) -> Vec<String> {
    parts.iter().map(|part| part.to_string()).collect()
}

/// Add `value` at `at` to `before`, check the result, remove it again and get `before` back.
fn round_trip(rel: &str, before: &str, at: &[&str], value: &str, expected: &str) {
    let value = Json::parse(value).expect("json");
    let mut doc = Document::parse(rel, before).expect("parse");
    let existed = doc.set(rel, &path(at), &value).expect("set");
    assert_eq!(doc.render(), expected);
    assert_eq!(doc.get(&path(at)), Some(value.to_value()));
    let mut again = Document::parse(rel, expected).expect("parse ours");
    again.remove(&path(at), existed);
    assert_eq!(again.render(), before, "removing gives the file back");
}

#[test]
fn mcp_json_keeps_other_servers_their_order_and_the_indentation() {
    let before = r#"{
    "mcpServers": {
        "zeta": {
            "command": "zeta-server",
            "env": {
                "TOKEN": "${ZETA_TOKEN}"
            }
        },
        "alpha": {
            "type": "http",
            "url": "https://example.com/mcp"
        }
    }
}
"#;
    let expected = r#"{
    "mcpServers": {
        "zeta": {
            "command": "zeta-server",
            "env": {
                "TOKEN": "${ZETA_TOKEN}"
            }
        },
        "alpha": {
            "type": "http",
            "url": "https://example.com/mcp"
        },
        "lexibrarian": {
            "command": "lexi",
            "args": [
                "mcp"
            ]
        }
    }
}
"#;
    round_trip(
        ".mcp.json",
        before,
        &["mcpServers", "lexibrarian"],
        r#"{"command": "lexi", "args": ["mcp"]}"#,
        expected,
    );
}

#[test]
fn a_missing_or_empty_file_gets_just_our_entry_and_loses_it_again() {
    let rel = ".cursor/mcp.json";
    let mut doc = Document::parse(rel, "").expect("empty");
    let at = path(&["mcpServers", "lexibrarian"]);
    let existed = doc
        .set(rel, &at, &Json::from_value(&json!({"command": "lexi"})))
        .expect("set");
    assert_eq!(existed, 0);
    assert_eq!(
        doc.render(),
        "{\n  \"mcpServers\": {\n    \"lexibrarian\": {\n      \"command\": \"lexi\"\n    }\n  }\n}\n"
    );
    doc.remove(&at, existed);
    assert!(doc.is_empty(), "the object we created goes too");
}

#[test]
fn claude_settings_keep_permissions_env_and_the_users_own_hooks() {
    let before = r#"{
  "permissions": {
    "allow": [
      "Bash(npm run test:*)",
      "Read(~/.zshrc)"
    ],
    "deny": [
      "Read(./.env)"
    ]
  },
  "env": {
    "FOO": "bar"
  },
  "hooks": {
    "SessionStart": [
      {
        "hooks": [
          {
            "type": "command",
            "command": "echo welcome"
          }
        ]
      }
    ]
  },
  "model": "opus"
}
"#;
    let rel = ".claude/settings.json";
    let ours = json!({"hooks": [{"type": "command", "command": "lexi orient"}]});
    let mut doc = Document::parse(rel, before).expect("parse");
    let at = path(&["hooks", "SessionStart"]);
    let existed = doc.push(rel, &at, &Json::from_value(&ours)).expect("push");
    assert_eq!(existed, 2, "hooks and SessionStart were there");
    let after = doc.render();
    let value: Value = serde_json::from_str(&after).expect("json");
    assert_eq!(
        value["hooks"]["SessionStart"][0]["hooks"][0]["command"],
        "echo welcome"
    );
    assert_eq!(value["hooks"]["SessionStart"][1], ours);
    assert_eq!(value["permissions"]["allow"][0], "Bash(npm run test:*)");
    assert!(
        after.find("\"permissions\"") < after.find("\"model\""),
        "order kept"
    );
    let mut again = Document::parse(rel, &after).expect("parse");
    assert!(again.remove_item(&at, &ours, existed));
    assert_eq!(again.render(), before);
    assert!(!again.remove_item(&at, &ours, existed), "only once");
}

#[test]
fn hooks_added_to_settings_without_hooks_go_away_whole() {
    let before = "{\n  \"model\": \"opus\"\n}\n";
    let rel = ".claude/settings.json";
    let ours = json!({"matcher": "Edit|MultiEdit|Write", "hooks": [{"type": "command", "command": "lexi hook pre-edit"}]});
    let mut doc = Document::parse(rel, before).expect("parse");
    let at = path(&["hooks", "PreToolUse"]);
    let existed = doc.push(rel, &at, &Json::from_value(&ours)).expect("push");
    assert_eq!(existed, 0);
    let new = json!({"matcher": "Edit|Write", "hooks": []});
    assert!(
        doc.replace_item(&at, &ours, &Json::from_value(&new)),
        "an update replaces it in place"
    );
    assert!(doc.remove_item(&at, &new, existed));
    assert_eq!(doc.render(), before);
}

#[test]
fn codex_config_keeps_comments_tables_and_other_servers() {
    let before = r#"# Team defaults for Codex in this repository.
model = "gpt-5.6" # pinned

[mcp_servers.docs]
# the docs server
command = "npx"
args = ["-y", "docs-mcp"]

[sandbox_workspace_write]
network_access = false
"#;
    let rel = ".codex/config.toml";
    let value = Json::parse(r#"{"command": "lexi", "args": ["mcp"]}"#).expect("json");
    let mut doc = Document::parse(rel, before).expect("parse");
    let at = path(&["mcp_servers", "lexibrarian"]);
    let existed = doc.set(rel, &at, &value).expect("set");
    assert_eq!(existed, 1);
    let after = doc.render();
    // Next to the other servers; every comment and table as it was.
    assert_eq!(
        after,
        before.replace(
            "[sandbox_workspace_write]",
            "[mcp_servers.lexibrarian]\ncommand = \"lexi\"\nargs = [\"mcp\"]\n\n[sandbox_workspace_write]"
        )
    );
    assert_eq!(doc.get(&at), Some(value.to_value()));
    let mut again = Document::parse(rel, &after).expect("parse ours");
    again.remove(&at, existed);
    assert_eq!(again.render(), before);
}

#[test]
fn a_new_codex_config_is_one_table_and_goes_away_whole() {
    let rel = ".codex/config.toml";
    let mut doc = Document::parse(rel, "").expect("empty");
    let at = path(&["mcp_servers", "lexibrarian"]);
    let value = Json::parse(r#"{"command": "lexi", "args": ["mcp"]}"#).expect("json");
    let existed = doc.set(rel, &at, &value).expect("set");
    assert_eq!(
        doc.render(),
        "[mcp_servers.lexibrarian]\ncommand = \"lexi\"\nargs = [\"mcp\"]\n"
    );
    doc.remove(&at, existed);
    assert!(doc.is_empty(), "{}", doc.render());
}

#[test]
fn files_that_are_not_json_or_have_the_wrong_shape_are_refused() {
    let err = Document::parse(".mcp.json", "{\n  // a comment\n}\n")
        .err()
        .expect("refused");
    assert!(
        err.to_string()
            .contains("comments and trailing commas are not JSON"),
        "{err}"
    );
    assert!(Document::parse(".mcp.json", "[1, 2]").is_err());
    let mut doc = Document::parse(".mcp.json", "{\"mcpServers\": []}").expect("parse");
    let err = doc
        .set(
            ".mcp.json",
            &path(&["mcpServers", "lexibrarian"]),
            &Json::Object(Vec::new()),
        )
        .expect_err("not an object");
    assert!(
        err.to_string()
            .contains("`mcpServers` is not a JSON object"),
        "{err}"
    );
    let err = Document::parse("x.toml", "a = ").err().expect("bad toml");
    assert!(err.to_string().contains("not valid TOML"), "{err}");
}

#[test]
fn indentation_follows_the_file() {
    assert_eq!(detect_indent("{\n\t\"a\": 1\n}"), "\t");
    assert_eq!(detect_indent("{\n    \"a\": 1\n}"), "    ");
    assert_eq!(detect_indent("{\"a\": 1}"), "  ");
}
