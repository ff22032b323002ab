//! The Lexibrarian section written into an agent environment's rule file (`CLAUDE.md`, `AGENTS.md`,
//! `.cursor/rules/lexibrarian.mdc`), as a marked block so it can be found and refreshed later without
//! touching anything the user wrote around it. Every block names `.lexibrary/START_HERE.md` as the
//! first read.

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

/// The first step of the protocol as a rule file states it: the rule file is not START_HERE.md, so
/// "read this file" becomes the path to read.
const FIRST_STEP: &str = "1. At the start of every session, read `.lexibrary/START_HERE.md` first (`lexi orient` prints it, with the library's health and any note left for you at the root): it maps this codebase and says where to start for a task.";

/// The block, markers included, with a final newline.
pub fn block() -> String {
    // START_HERE.md's own first step says "Read this file"; the rest is shared.
    let later_steps = NAVIGATION_PROTOCOL
        .split_once('\n')
        .map_or("", |(_, rest)| rest);
    format!(
        "{BLOCK_OPEN}\n## Lexibrarian: the codebase library\n\n\
         Read `.lexibrary/START_HERE.md` before anything else. This repository keeps a library for \
         coding agents in `.lexibrary/`: a design file per source file (`src/a.rs` → \
         `.lexibrary/src/a.rs.md`) and a `.aindex` per directory. Use it instead of re-reading code.\n\n\
         {FIRST_STEP}\n{later_steps}\n\n\
         With the `lexibrarian` MCP server connected (`lexi mcp`), the same commands are tools: \
         `orient`, `lookup`, `index`, `context`, `search`, `concepts`, `stack_search`, `stack_post`, \
         `iwh_read`, `iwh_write`, ….\n\n\
         Never run `lexictl`: maintenance runs from hooks and CI.\n{BLOCK_CLOSE}\n"
    )
}

/// The whole of `.cursor/rules/lexibrarian.mdc`: Cursor's frontmatter, then the block.
pub fn cursor_rule() -> String {
    format!(
        "---\ndescription: How to use the Lexibrarian codebase library\nalwaysApply: true\n---\n\n{}",
        block()
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
        (AgentEnvironment::Cursor, None) => cursor_rule(),
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

/// The byte range of the block in `text` (with the newline after the closing marker).
pub fn block_range(text: &str) -> Option<std::ops::Range<usize>> {
    let start = text.find(BLOCK_OPEN)?;
    let close = start + text[start..].find(BLOCK_CLOSE)?;
    let mut end = close + BLOCK_CLOSE.len();
    if text[end..].starts_with('\n') {
        end += 1;
    }
    Some(start..end)
}

/// `text` with its block replaced by the current one; `None` when it has no block.
pub fn refreshed(text: &str) -> Option<String> {
    let range = block_range(text)?;
    Some(format!(
        "{}{}{}",
        &text[..range.start],
        block(),
        &text[range.end..]
    ))
}

/// `text` without its block (and the blank line `with_rules` put before it); `None` when it has
/// no block.
pub fn without_block(text: &str) -> Option<String> {
    let range = block_range(text)?;
    let before = text[..range.start].trim_end_matches('\n');
    let after = text[range.end..].trim_start_matches('\n');
    Some(match (before.is_empty(), after.is_empty()) {
        (true, _) => after.to_string(),
        (false, true) => format!("{before}\n"),
        (false, false) => format!("{before}\n\n{after}"),
    })
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
        assert_eq!(
            without_block(&first).as_deref(),
            Some("# My rules\nBe nice.\n")
        );
    }

    #[test]
    fn every_block_names_start_here_as_the_first_read() {
        assert!(NAVIGATION_PROTOCOL.starts_with("1. Read this file"));
        for environment in AgentEnvironment::ALL {
            let text = with_rules(environment, None).expect("new file");
            let body = &text[text.find(BLOCK_OPEN).expect("marker")..];
            let first_paragraph = body.split("\n\n").nth(1).expect("a paragraph");
            assert!(
                first_paragraph
                    .starts_with("Read `.lexibrary/START_HERE.md` before anything else."),
                "{environment}: {first_paragraph}"
            );
            assert!(!text.contains("Read this file"), "{environment}: {text}");
        }
    }

    #[test]
    fn blocks_as_written_into_each_rule_file() {
        insta::assert_snapshot!(
            "rules_claude_md_new",
            with_rules(AgentEnvironment::Claude, None).expect("new")
        );
        insta::assert_snapshot!(
            "rules_agents_md_new",
            with_rules(AgentEnvironment::Codex, None).expect("new")
        );
        insta::assert_snapshot!(
            "rules_cursor_mdc_new",
            with_rules(AgentEnvironment::Cursor, None).expect("new")
        );
        insta::assert_snapshot!(
            "rules_claude_md_appended",
            with_rules(
                AgentEnvironment::Claude,
                Some("# House rules\n\nUse tabs.\n")
            )
            .expect("appended")
        );
    }

    #[test]
    fn a_refresh_replaces_only_the_block() {
        let old = format!("# Mine\n\n{BLOCK_OPEN}\nold rules\n{BLOCK_CLOSE}\n\n## After\n");
        let new = refreshed(&old).expect("has a block");
        assert!(new.starts_with("# Mine\n\n<!-- >>> lexibrarian rules v1 >>> -->\n## Lexibrarian"));
        assert!(new.ends_with(&format!("{BLOCK_CLOSE}\n\n## After\n")));
        assert_eq!(refreshed(&new).as_deref(), Some(new.as_str()));
        assert_eq!(refreshed("no block"), None);
        assert_eq!(without_block(&new).as_deref(), Some("# Mine\n\n## After\n"));
    }
}
