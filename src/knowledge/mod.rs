//! Read-side queries over the library, and the agent-side writes (concepts, the Stack, I Was Here
//! notes): what `lexi` answers and records. Each operation returns plain data; the CLI decides how to
//! print it.

pub mod calls;
pub mod concepts;
pub mod context;
pub mod conventions;
pub mod corpus;
pub mod impact;
pub mod index;
pub mod iwh;
pub mod lookup;
pub mod mcp;
pub mod member_impact;
pub mod orient;
pub mod pre_edit;
pub mod review;
pub mod search;
pub mod secrets;
pub mod stack;
pub mod stack_outdated;
pub mod stack_view;
pub mod status;
pub mod terms;
pub mod trim;
pub mod twins;
pub mod validate;
pub mod whole;
pub mod why;

use crate::workspace::Workspace;

/// Who is writing: `--author`, else `LEXI_AUTHOR`, else the git identity's name, else `unknown`.
pub fn author(explicit: Option<&str>, ws: &Workspace) -> String {
    if let Some(author) = explicit.map(str::trim).filter(|a| !a.is_empty()) {
        return author.to_string();
    }
    if let Ok(author) = std::env::var("LEXI_AUTHOR") {
        if !author.trim().is_empty() {
            return author.trim().to_string();
        }
    }
    ws.repo_if_any()
        .and_then(|git| git.identity())
        .map_or_else(|| "unknown".to_string(), |identity| identity.name)
}
