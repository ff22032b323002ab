//! `lexi mcp`: serve the library to MCP clients (Claude Code, Cursor, Codex, any MCP client) over
//! stdio. The server itself lives in `knowledge::mcp`.

use crate::cli::{Context, Outcome};
use crate::project::find_root;

/// Serve the library as an MCP server over stdin/stdout.
///
/// MCP clients start it themselves: `lexictl setup --mcp` registers it for Claude Code
/// (.mcp.json), Cursor (.cursor/mcp.json) and Codex (.codex/config.toml). Tools: orient, lookup,
/// index, context, search, concepts, stack_search, stack_view, stack_post, stack_answer,
/// stack_vote, iwh_read, iwh_write; resources: START_HERE.md and each concept. Paths in tool
/// arguments are relative to the project root found from the current directory. A repeated call
/// on unchanged files answers `unchanged since <etag>` unless it passes `full: true`. See
/// docs/agents.md.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexi mcp                       (started by your MCP client)\n  claude mcp add lexibrarian -- lexi mcp"
)]
pub struct Args {}

pub fn run(ctx: &Context, _args: &Args) -> anyhow::Result<Outcome> {
    let Some(root) = find_root(&ctx.cwd) else {
        // The same error every command gives outside a project.
        return Err(crate::project::ProjectError::NotAProject {
            start: ctx.cwd.clone(),
        }
        .into());
    };
    // Fail now, on stderr, if the config is broken, rather than on every call.
    crate::project::Project::open(root.clone())?;
    crate::knowledge::mcp::serve_stdio(&root, crate::engine::update::stale_entries)?;
    Ok(Outcome::Ok)
}
