//! Claude Code: the hooks Lexibrarian adds to `.claude/settings.json` and the skill it writes under
//! `.claude/skills/`.
//!
//! - `SessionStart` runs `lexi orient`: START_HERE.md, the root note and the health line land in the
//!   session's context before the first prompt (Claude Code adds a SessionStart hook's stdout).
//! - `PreToolUse` on `Edit|MultiEdit|Write`, only when `claude.pre_edit_lookup: true`, runs
//!   `lexi hook pre-edit`, which reads the hook's JSON on stdin and answers a short lookup of the
//!   file about to be edited as `additionalContext`. The file path never passes through a shell.
//! - The skill `.claude/skills/lexibrarian/SKILL.md` teaches the protocol and the commands, and is
//!   loaded when a task calls for it.
//!
//! Commands name `lexi` on `PATH` (never an absolute path: the settings file is shared through git).

use super::Wanted;

/// The settings file.
pub const SETTINGS: &str = ".claude/settings.json";
/// The skill file.
pub const SKILL: &str = ".claude/skills/lexibrarian/SKILL.md";

/// The command of the session-start hook.
pub const ORIENT_COMMAND: &str = "lexi orient";
/// The command of the pre-edit hook.
pub const PRE_EDIT_COMMAND: &str = "lexi hook pre-edit";
/// The tools the pre-edit hook fires for.
pub const PRE_EDIT_MATCHER: &str = "Edit|MultiEdit|Write";

/// What the Claude Code integration consists of; the pre-edit hook when switched on in the config.
pub fn wanted(pre_edit_lookup: bool) -> Vec<Wanted> {
    let mut wanted = vec![
        Wanted::item(
            "claude.session-start",
            SETTINGS,
            &["hooks", "SessionStart"],
            SESSION_START,
            ORIENT_COMMAND,
        ),
        Wanted::file("claude.skill", SKILL, skill()),
    ];
    if pre_edit_lookup {
        wanted.push(Wanted::item(
            "claude.pre-edit",
            SETTINGS,
            &["hooks", "PreToolUse"],
            PRE_EDIT,
            PRE_EDIT_COMMAND,
        ));
    }
    wanted
}

/// The `SessionStart` hook group (every source: startup, resume, clear, compact).
const SESSION_START: &str =
    r#"{"hooks": [{"type": "command", "command": "lexi orient", "timeout": 30}]}"#;

/// The `PreToolUse` hook group.
const PRE_EDIT: &str = r#"{"matcher": "Edit|MultiEdit|Write", "hooks": [{"type": "command", "command": "lexi hook pre-edit", "timeout": 10}]}"#;

/// The skill: when to use the library and how, with the CLI commands and the MCP tools.
pub fn skill() -> String {
    "---
name: lexibrarian
description: Use this repository's codebase library (.lexibrary/) instead of re-reading code. Use at the start of a session, before editing or reading an unfamiliar file, before debugging an error, when deciding where something belongs, and after changing a file (its design file must be updated). Teaches the navigation protocol and the `lexi` commands (or the `lexibrarian` MCP tools).
---

# Lexibrarian: the codebase library

`.lexibrary/` mirrors the source tree: `src/a.rs` is documented by `.lexibrary/src/a.rs.md` (its
design file: what the file is for, its interface, dependencies, dependents), and each directory has a
`.aindex` (what the directory is for, one line per entry, its Local Conventions). Concepts
(`.lexibrary/concepts/`) are cross-cutting rules; the Stack (`.lexibrary/stack/`) records problems
solved before. Reading these is cheaper and more reliable than re-reading source.

## Protocol

1. **Orient** once per session: `lexi orient` — START_HERE.md (topology, where to start for a task,
   conventions), a note left for you at the root, and a health line if the library is stale.
2. **Entering a directory**: `lexi index <dir>`, and read any note waiting there: `lexi iwh read <dir>`
   (reading consumes it; act on it).
3. **Before editing a file**: `lexi lookup <file>` — or `lexi context <file>` for its concepts and Stack
   posts too. Follow the Local Conventions it lists. To change one function or method:
   `lexi lookup <file> --member <name>` (its whole doc, who calls it, what it raises, the members
   sharing its keys, the tests that reach it).
4. **Before debugging**: `lexi stack search <error text>`; for a topic, `lexi search <words>` or
   `lexi concepts <topic>`.
5. **After editing a file**: update `.lexibrary/<file>.md` yourself — keep `description` true, say
   *why* in the body, set `updated_by: agent` in its frontmatter.
6. **Record what you learn**: a bug that took more than one attempt → `lexi stack post --title … --problem
   … --evidence …`, then `lexi stack answer <id> --body …`; a rule that applies across directories →
   `lexi concept new <Name>`; stopping with work unfinished → `lexi iwh write <dir> --scope incomplete
   --body …`.

Never run `lexictl` (maintenance runs from git hooks and CI).

## Commands and MCP tools

| Need | Command | MCP tool |
| --- | --- | --- |
| session start | `lexi orient` | `orient` |
| what a file is for: members, lists, conventions (~1k tokens) | `lexi lookup <file>` (`--full`: the whole design file) | `lookup` (`full`) |
| one function or method: doc, callers, raises, tests | `lexi lookup <file> --member <name>` | `lookup` (`member`) |
| a directory's index | `lexi index <dir>` | `index` |
| everything about a file, concept or post | `lexi context <target>` | `context` |
| search design files, concepts, posts | `lexi search <words> [--tag t] [--scope dir]` | `search` |
| the rules a change must follow: conventions, PR checklist, test/lint commands | `lexi conventions [dir]` (`--all`: whole) | `conventions` (`full`) |
| concepts | `lexi concepts [topic]` | `concepts` |
| problems solved before | `lexi stack search <words>`, `lexi stack view ST-001` | `stack_search`, `stack_view` |
| record a problem / its solution / a vote | `lexi stack post`, `lexi stack answer`, `lexi stack vote` | `stack_post`, `stack_answer`, `stack_vote` |
| notes between agents | `lexi iwh read <dir>`, `lexi iwh write <dir>` | `iwh_read`, `iwh_write` |

Every command takes `--format json`. Paths are relative to the current directory for the commands and
to the project root for the MCP tools. A repeated MCP call on unchanged files answers
`unchanged since <etag>`: reuse the earlier answer (or pass `full: true`).
"
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pre_edit_hook_is_only_wanted_when_switched_on() {
        let ids = |on| wanted(on).into_iter().map(|w| w.id).collect::<Vec<_>>();
        assert_eq!(ids(false), ["claude.session-start", "claude.skill"]);
        assert_eq!(
            ids(true),
            ["claude.session-start", "claude.skill", "claude.pre-edit"]
        );
    }

    #[test]
    fn the_hooks_run_the_commands_named_here() {
        for (group, command) in [
            (SESSION_START, ORIENT_COMMAND),
            (PRE_EDIT, PRE_EDIT_COMMAND),
        ] {
            let value: serde_json::Value = serde_json::from_str(group).expect("json");
            assert_eq!(value["hooks"][0]["command"], command);
        }
        let pre_edit: serde_json::Value = serde_json::from_str(PRE_EDIT).expect("json");
        assert_eq!(pre_edit["matcher"], PRE_EDIT_MATCHER);
    }

    #[test]
    fn the_skill_has_the_frontmatter_claude_code_reads() {
        let skill = skill();
        assert!(skill.starts_with("---\nname: lexibrarian\ndescription: "));
        let frontmatter = skill.split("---").nth(1).expect("frontmatter");
        let parsed: serde_yaml::Value = serde_yaml::from_str(frontmatter).expect("yaml");
        assert_eq!(parsed["name"], "lexibrarian");
        assert!(parsed["description"]
            .as_str()
            .is_some_and(|d| d.len() < 1024));
    }
}
