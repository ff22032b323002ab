//! The Lexibrarian section written into an agent environment's rule file (`CLAUDE.md`, `AGENTS.md`,
//! `.cursor/rules/lexibrarian.mdc`), as a marked block so it can be found and refreshed later without
//! touching anything the user wrote around it.

use crate::library::start_here::NAVIGATION_PROTOCOL;
use crate::project::config::AgentEnvironment;

/// Opening marker of the block.
pub const BLOCK_OPEN: &str = "<!-- >>> lexibrarian rules v1 >>> -->";
/// Closing marker of the block.
pub const BLOCK_CLOSE: &str = "<!-- <<< lexibrarian rules <<< -->";

/// The rule file for an agent environment, relative to the project root.
pub fn rules_file(environment: AgentEnvironment) -> &'static str {
    match environment {
        AgentEnvironment::Claude => "CLAUDE.md",
        AgentEnvironment::Codex => "AGENTS.md",
        AgentEnvironment::Cursor => ".cursor/rules/lexibrarian.mdc",
    }
}

fn block() -> String {
    format!(
        "{BLOCK_OPEN}\n## Lexibrarian: the codebase library\n\n\
         This repository keeps a library for coding agents in `.lexibrary/`: a design file per source \
         file (`src/a.rs` → `.lexibrary/src/a.rs.md`) and a `.aindex` per directory. Use it instead of \
         re-reading code.\n\n\
         {NAVIGATION_PROTOCOL}\n\n\
         Never run `lexictl`: maintenance runs from hooks and CI.\n{BLOCK_CLOSE}\n"
    )
}

/// The new content of a rule file given its current content, or `None` when it already has a block.
pub fn with_rules(environment: AgentEnvironment, existing: Option<&str>) -> Option<String> {
    if existing.is_some_and(|text| text.contains(BLOCK_OPEN) || text.contains("lexibrarian rules"))
    {
        return None;
    }
    let block = block();
    Some(match (environment, existing) {
        (AgentEnvironment::Cursor, None) => format!(
            "---\ndescription: How to use the Lexibrarian codebase library\nalwaysApply: true\n---\n\n{block}"
        ),
        (_, None) => block,
        (_, Some("")) => block,
        (_, Some(text)) => {
            let separator = if text.ends_with("\n\n") {
                ""
            } else if text.ends_with('\n') {
                "\n"
            } else {
                "\n\n"
            };
            format!("{text}{separator}{block}")
        }
    })
}

/// `lexictl setup --update`: replace the Lexibrarian block in every agent rule file that has one
/// with the current rules (other content untouched). Returns the files changed.
pub fn refresh_all(project: &crate::project::Project) -> anyhow::Result<Vec<String>> {
    let mut changed = Vec::new();
    for environment in &project.config.agent_environment {
        let rel = rules_file(*environment);
        // Never through a symlink (a linked rule file is left alone).
        let Ok(text) = project.read_to_string(rel) else {
            continue;
        };
        let (Some(start), Some(close)) = (text.find(BLOCK_OPEN), text.find(BLOCK_CLOSE)) else {
            continue;
        };
        let mut end = close + BLOCK_CLOSE.len();
        if text[end..].starts_with('\n') {
            end += 1;
        }
        let updated = format!("{}{}{}", &text[..start], block(), &text[end..]);
        if updated != text {
            project.write(rel, updated.as_bytes())?;
            changed.push(rel.to_string());
        }
    }
    Ok(changed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn appends_once_and_keeps_user_text() {
        let first =
            with_rules(AgentEnvironment::Claude, Some("# My rules\nBe nice.")).expect("appended");
        assert!(first.starts_with("# My rules\nBe nice.\n\n<!-- >>> lexibrarian"));
        assert_eq!(with_rules(AgentEnvironment::Claude, Some(&first)), None);
    }
}
