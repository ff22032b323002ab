//! The MCP server entries `lexictl setup --mcp` merges into each client's project configuration:
//!
//! | client | file | entry |
//! | --- | --- | --- |
//! | Claude Code | `.mcp.json` | `mcpServers.lexibrarian` |
//! | Cursor | `.cursor/mcp.json` | `mcpServers.lexibrarian` |
//! | Codex | `.codex/config.toml` | `[mcp_servers.lexibrarian]` |
//!
//! Codex reads `.codex/config.toml` from the project only when the project is trusted (its user
//! config, `~/.codex/config.toml`, is personal and never written here); docs/agents.md says how to
//! trust it. Each entry runs `lexi mcp` from `PATH`, in the project (clients start servers there).

use super::Wanted;
use crate::project::config::AgentEnvironment;

/// The server's name in every client's configuration.
pub const SERVER_NAME: &str = "lexibrarian";

/// The file each environment reads its project's MCP servers from.
pub fn config_file(environment: AgentEnvironment) -> &'static str {
    match environment {
        AgentEnvironment::Claude => ".mcp.json",
        AgentEnvironment::Cursor => ".cursor/mcp.json",
        AgentEnvironment::Codex => ".codex/config.toml",
    }
}

/// The entry's key path in that file.
fn key_path(environment: AgentEnvironment) -> [&'static str; 2] {
    match environment {
        AgentEnvironment::Codex => ["mcp_servers", SERVER_NAME],
        _ => ["mcpServers", SERVER_NAME],
    }
}

/// The entry's value, as JSON text.
fn entry(environment: AgentEnvironment) -> &'static str {
    match environment {
        // What `claude mcp add --scope project` writes for a stdio server.
        AgentEnvironment::Claude => r#"{"type": "stdio", "command": "lexi", "args": ["mcp"]}"#,
        _ => r#"{"command": "lexi", "args": ["mcp"]}"#,
    }
}

/// The id of the entry for `environment` in the record.
pub fn id(environment: AgentEnvironment) -> String {
    format!("mcp.{}", environment.name())
}

/// The entries for `environments`.
pub fn wanted(environments: &[AgentEnvironment]) -> Vec<Wanted> {
    environments
        .iter()
        .map(|&environment| {
            Wanted::member(
                &id(environment),
                config_file(environment),
                &key_path(environment),
                entry(environment),
            )
        })
        .collect()
}
