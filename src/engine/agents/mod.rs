//! What Lexibrarian writes outside `.lexibrary/` for coding agents, merged into their files and
//! recorded so it can be refreshed and removed exactly:
//!
//! - [`rules`]: the Lexibrarian section of `CLAUDE.md`, `AGENTS.md` (Codex and every agent that
//!   reads it) and `.cursor/rules/lexibrarian.mdc` — written by `lexictl init`;
//! - [`claude`]: Claude Code's `SessionStart` hook (`lexi orient`), the optional pre-edit hook and
//!   the skill — written by `lexictl init` when `agent_environment` has `claude`;
//! - [`mcp`]: the MCP server entry for Claude Code, Cursor and Codex — `lexictl setup --mcp`.
//!
//! A plan is made first ([`workbench`]: the files read once, changed in memory, compared with the
//! record [`record`] of what was added before), then applied with atomic writes. `init` folds the
//! plan into its own all-or-nothing edits. Files are parsed and re-rendered through [`document`]
//! so that nothing but our entries changes.

pub mod claude;
pub mod document;
pub mod mcp;
pub mod record;
pub mod rules;
mod workbench;

use std::path::Path;

use anyhow::Context as _;

use crate::atomic;
use crate::project::config::{AgentEnvironment, Config};
use document::Json;
use record::Record;
use workbench::Workbench;

/// Something this version of Lexibrarian wants in a file.
#[derive(Clone, Debug)]
pub struct Wanted {
    /// Its id in the record.
    pub id: String,
    pub file: String,
    what: What,
}

#[derive(Clone, Debug)]
enum What {
    /// The value at a key path.
    Member { path: Vec<String>, value: Json },
    /// An element of the array at a key path; `signature` is text only ours contains (the command).
    Item {
        path: Vec<String>,
        value: Json,
        signature: &'static str,
    },
    /// A whole file.
    File { text: String },
}

/// A JSON literal of ours; a typo in one is a bug caught by the tests, and shows as `null`.
fn ordered(text: &str) -> Json {
    Json::parse(text).unwrap_or(Json::Null)
}

fn keys(path: &[&str]) -> Vec<String> {
    path.iter().map(|part| part.to_string()).collect()
}

impl Wanted {
    /// The value at `path` of `file`: `value` is JSON text, written in its order.
    pub fn member(id: &str, file: &str, path: &[&str], value: &str) -> Wanted {
        Wanted {
            id: id.to_string(),
            file: file.to_string(),
            what: What::Member {
                path: keys(path),
                value: ordered(value),
            },
        }
    }

    /// An element of the array at `path` of `file`: `value` is JSON text, written in its order.
    pub fn item(
        id: &str,
        file: &str,
        path: &[&str],
        value: &str,
        signature: &'static str,
    ) -> Wanted {
        Wanted {
            id: id.to_string(),
            file: file.to_string(),
            what: What::Item {
                path: keys(path),
                value: ordered(value),
                signature,
            },
        }
    }

    pub fn file(id: &str, file: &str, text: String) -> Wanted {
        Wanted {
            id: id.to_string(),
            file: file.to_string(),
            what: What::File { text },
        }
    }
}

/// Whether a missing recorded entry is added back (an explicit install) or left out (a refresh).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Install,
    Refresh,
}

/// One file to write (`after`) or delete (`after: None`), with what it held before.
#[derive(Clone, Debug)]
pub struct Change {
    pub rel: String,
    pub before: Option<Vec<u8>>,
    pub after: Option<Vec<u8>>,
    /// Directories made for a file Lexibrarian created, removed with it when left empty.
    pub dirs_to_prune: Vec<String>,
}

/// What a setup step will do.
#[derive(Debug)]
pub struct Plan {
    pub changes: Vec<Change>,
    /// The record as it will be.
    pub record: Record,
    /// One line per thing done.
    pub done: Vec<String>,
    /// One line per thing left alone, with why.
    pub notes: Vec<String>,
}

impl Plan {
    fn from(bench: Workbench<'_>) -> Plan {
        let (changes, record, done, notes) = bench.finish();
        Plan {
            changes,
            record,
            done,
            notes,
        }
    }
}

/// The rules blocks of `environments`.
fn want_rules(
    bench: &mut Workbench<'_>,
    environments: &[AgentEnvironment],
    mode: Mode,
) -> anyhow::Result<()> {
    for &environment in environments {
        let file = rules::rules_file(environment);
        let id = format!("rules.{}", environment.name());
        match environment {
            AgentEnvironment::Cursor => bench.want_cursor_rule(&id, file, mode)?,
            _ => bench.want_block(&id, file, |current| match current {
                Some(text) if rules::block_range(text).is_some() => rules::refreshed(text),
                _ => rules::with_rules(environment, current),
            })?,
        }
    }
    Ok(())
}

/// What `lexictl init` writes outside `.lexibrary/` for the agents of `config`: the rule blocks,
/// and Claude Code's hooks and skill. (`.lexignore` and `.gitignore` are init's own.)
pub fn plan_init(root: &Path, config: &Config) -> anyhow::Result<Plan> {
    let mut bench = Workbench::new(root, Record::default());
    want_rules(&mut bench, &config.agent_environment, Mode::Install)?;
    if config.agent_environment.contains(&AgentEnvironment::Claude) {
        for wanted in claude::wanted(config.claude.pre_edit_lookup) {
            bench.want(&wanted, Mode::Install)?;
        }
    }
    Ok(Plan::from(bench))
}

/// `lexictl setup --mcp`: the server entry for each of `environments`.
pub fn plan_mcp(root: &Path, environments: &[AgentEnvironment]) -> anyhow::Result<Plan> {
    let mut bench = Workbench::new(root, Record::load(root)?);
    for wanted in mcp::wanted(environments) {
        bench.want(&wanted, Mode::Install)?;
    }
    Ok(Plan::from(bench))
}

/// `lexictl setup --uninstall-mcp`: remove every MCP entry Lexibrarian added, if still as written.
pub fn plan_uninstall_mcp(root: &Path) -> anyhow::Result<Plan> {
    let record = Record::load(root)?;
    let ids: Vec<String> = record
        .entries
        .iter()
        .filter(|entry| entry.id.starts_with("mcp."))
        .map(|entry| entry.id.clone())
        .collect();
    let mut bench = Workbench::new(root, record);
    for id in ids {
        bench.remove(&id)?;
    }
    Ok(Plan::from(bench))
}

/// `lexictl setup --uninstall`: remove every recorded entry — rule blocks, Claude Code's hooks and
/// skill, MCP entries, init's `.gitignore` lines — that is still as written, except the ids in
/// `keep`. What someone changed since is kept and named in the plan's notes.
pub fn plan_uninstall(root: &Path, keep: &[&str]) -> anyhow::Result<Plan> {
    let record = Record::load(root)?;
    let ids: Vec<String> = record
        .entries
        .iter()
        .map(|entry| entry.id.clone())
        .filter(|id| !keep.contains(&id.as_str()))
        .collect();
    let mut bench = Workbench::new(root, record);
    for id in ids {
        bench.remove(&id)?;
    }
    Ok(Plan::from(bench))
}

/// `lexictl setup --update`: refresh every block, hook, skill and MCP entry Lexibrarian wrote to
/// what this version writes; add the Claude Code pieces now wanted where Claude Code is set up
/// (the pre-edit hook once switched on) and remove the ones no longer wanted (switched off).
pub fn plan_refresh(root: &Path, config: &Config) -> anyhow::Result<Plan> {
    let record = Record::load(root)?;
    let mut bench = Workbench::new(root, record.clone());
    let environments: Vec<AgentEnvironment> = AgentEnvironment::ALL
        .into_iter()
        .filter(|env| {
            config.agent_environment.contains(env)
                || record.get(&format!("rules.{}", env.name())).is_some()
        })
        .collect();
    want_rules(&mut bench, &environments, Mode::Refresh)?;
    if environments.contains(&AgentEnvironment::Claude) || record.has_group("claude") {
        let wanted = claude::wanted(config.claude.pre_edit_lookup);
        for want in &wanted {
            bench.want(want, Mode::Refresh)?;
        }
        for entry in record
            .entries
            .iter()
            .filter(|e| e.id.starts_with("claude."))
        {
            if !wanted.iter().any(|want| want.id == entry.id) {
                bench.remove(&entry.id)?;
            }
        }
    }
    let registered: Vec<AgentEnvironment> = AgentEnvironment::ALL
        .into_iter()
        .filter(|&env| record.get(&mcp::id(env)).is_some())
        .collect();
    for wanted in mcp::wanted(&registered) {
        bench.want(&wanted, Mode::Refresh)?;
    }
    Ok(Plan::from(bench))
}

/// Write the plan: every change atomically, emptied directories made for deleted files removed,
/// then the record. A failure names the file; what was already written stays (each write is whole).
pub fn apply(root: &Path, plan: &Plan) -> anyhow::Result<()> {
    for change in &plan.changes {
        match &change.after {
            Some(bytes) => atomic::write_under(root, &change.rel, bytes)
                .with_context(|| format!("cannot write {}", change.rel))?,
            None => {
                match crate::nofollow::remove_file(root, &change.rel) {
                    Ok(()) => {}
                    Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                    Err(err) => {
                        return Err(err).with_context(|| format!("cannot delete {}", change.rel))
                    }
                }
                for dir in change.dirs_to_prune.iter().rev() {
                    // Only if empty: anything someone put there stays.
                    let _ = std::fs::remove_dir(root.join(dir));
                }
            }
        }
    }
    let record_rel = Record::path();
    let text = plan.record.render();
    let empty = plan.record.entries.is_empty()
        && plan.record.declined.is_empty()
        && plan.record.created.is_empty();
    if empty && !root.join(&record_rel).exists() {
        return Ok(());
    }
    atomic::write_under_if_changed(root, &record_rel, text.as_bytes())
        .with_context(|| format!("cannot write {}", Record::path()))?;
    Ok(())
}
