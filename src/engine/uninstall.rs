//! `lexictl setup --uninstall [--purge]`: take out everything Lexibrarian added to a repository.
//!
//! Without `--purge`, what it added *outside* `.lexibrary/`, each part found the way it was added:
//! - the hook blocks, by their markers (`git::hooks`): a hook file Lexibrarian created is deleted,
//!   any other is restored byte for byte;
//! - the git config `lexictl setup --notes`/`--hooks` set (`notes_sync::configured`), only while it
//!   still has our exact values;
//! - every entry of `.lexibrary/integrations.json` (agent rule blocks, Claude Code hooks and skill,
//!   MCP entries, init's `.gitignore` lines), only while still as written (`agents::plan_uninstall`),
//!   and the `.gitignore` lines a later `setup --update` added.
//!
//! With `--purge`, also `.lexibrary/`, `.lexignore`, the notes refs (`refs/notes/lexibrarian/*`
//! and the fetched copies under `refs/lexibrarian/`) and the state under the git dir. Asking for
//! confirmation is the CLI's job. Every step is idempotent; with `dry_run` nothing is written and
//! the report says what would be done.

use std::path::Path;

use anyhow::Context as _;

use super::agents;
use super::init::GITIGNORE_LINES;
use super::notes_sync;
use crate::git::hooks::{self, HooksTarget, Manager, Removed};
use crate::git::{remote, GitRepo};
use crate::project::ignores::LEXIGNORE_FILE;
use crate::project::LIBRARY_DIR;

/// Which uninstall.
#[derive(Clone, Copy, Debug, Default)]
pub struct Options {
    /// Also delete the library, `.lexignore`, the notes refs and the state.
    pub purge: bool,
    /// Say what would be done; write nothing.
    pub dry_run: bool,
}

/// What was (or, in a dry run, would be) removed, and what was left alone with why.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Uninstalled {
    pub dry_run: bool,
    /// One line per thing removed: `.git/hooks/post-commit: removed the block`.
    pub done: Vec<String>,
    /// One line per thing left alone, with why.
    pub notes: Vec<String>,
}

/// The notes refs, ours and the copies `lexictl notes sync` fetched.
const REF_PREFIXES: &[&str] = &["refs/notes/lexibrarian/", "refs/lexibrarian/"];

/// Remove what Lexibrarian added to the project at `root` (and its repository, if any).
pub fn uninstall(root: &Path, options: Options) -> anyhow::Result<Uninstalled> {
    let mut out = Uninstalled {
        dry_run: options.dry_run,
        ..Uninstalled::default()
    };
    let repo = GitRepo::discover(root)?;
    if let Some(repo) = &repo {
        hook_blocks(repo, options, &mut out)?;
        git_config(repo, options, &mut out)?;
    }
    agent_files(root, options, &mut out)?;
    gitignore_leftovers(root, options, &mut out)?;
    if options.purge {
        purge(root, repo.as_ref(), options, &mut out)?;
    }
    Ok(out)
}

/// The hook blocks, wherever `--hooks` put them; a hook manager's own file is the person's to edit.
fn hook_blocks(repo: &GitRepo, options: Options, out: &mut Uninstalled) -> anyhow::Result<()> {
    let dir = match repo.hooks_target() {
        Ok(HooksTarget::Dir(dir)) => dir,
        Ok(HooksTarget::Manager(Manager::Husky)) => repo.workdir().join(".husky"),
        Ok(HooksTarget::Manager(manager)) => {
            let file = match manager {
                Manager::Lefthook => "lefthook.yml",
                _ => ".pre-commit-config.yaml",
            };
            out.notes.push(format!(
                "{file} manages this repository's hooks: remove its `lexibrarian` entries yourself"
            ));
            return Ok(());
        }
        Err(err) => {
            out.notes.push(format!("hooks: {err}"));
            return Ok(());
        }
    };
    for hook in hooks::HOOKS {
        let path = dir.join(hook);
        let shown = path
            .strip_prefix(repo.workdir())
            .unwrap_or(&path)
            .display()
            .to_string();
        let removed = if options.dry_run {
            hooks::planned_removal(&path)
        } else {
            hooks::uninstall(&path)
        }
        .with_context(|| format!("cannot update {}", path.display()))?;
        match removed {
            Removed::Block => out.done.push(format!("{shown}: removed the block")),
            Removed::File => out
                .done
                .push(format!("{shown}: deleted (nothing else was in it)")),
            Removed::NotInstalled => {}
        }
    }
    Ok(())
}

/// The notes fetch refspecs and merge strategies, while they have our values.
fn git_config(repo: &GitRepo, options: Options, out: &mut Uninstalled) -> anyhow::Result<()> {
    let settings = notes_sync::configured(repo.workdir())?;
    if !options.dry_run {
        notes_sync::unconfigure(repo.workdir(), &settings)?;
    }
    for (key, value) in settings {
        out.done.push(format!("git config: removed {key} {value}"));
    }
    Ok(())
}

/// Every entry of the record; `.lexignore` stays unless purging (it is part of the library's
/// configuration, and `--purge` deletes it whole).
fn agent_files(root: &Path, options: Options, out: &mut Uninstalled) -> anyhow::Result<()> {
    let keep: &[&str] = if options.purge {
        &[]
    } else {
        &["init.lexignore"]
    };
    let plan = agents::plan_uninstall(root, keep)?;
    if !options.dry_run {
        agents::apply(root, &plan)?;
    }
    out.done.extend(plan.done);
    out.notes.extend(plan.notes);
    Ok(())
}

/// Lines of ours still in `.gitignore` that no record entry covers (added by `setup --update`).
fn gitignore_leftovers(root: &Path, options: Options, out: &mut Uninstalled) -> anyhow::Result<()> {
    let text = match crate::nofollow::read_to_string(root, ".gitignore") {
        Ok(text) => text,
        Err(_) => return Ok(()),
    };
    // In a dry run the record's lines are still there: count only what the record would not take.
    let recorded = agents::record::Record::load(root)?;
    let by_record: Vec<String> = match recorded.get("init.gitignore").map(|e| &e.kind) {
        Some(agents::record::Kind::Lines { lines }) => lines.clone(),
        _ => Vec::new(),
    };
    let ours = |line: &str| {
        GITIGNORE_LINES.contains(&line.trim())
            && !(options.dry_run && by_record.iter().any(|l| l == line))
    };
    if !text.lines().any(ours) {
        return Ok(());
    }
    let kept: Vec<&str> = text.lines().filter(|line| !ours(line)).collect();
    let mut rest = kept.join("\n");
    if !rest.is_empty() {
        rest.push('\n');
    }
    if !options.dry_run {
        crate::atomic::write_under(root, ".gitignore", rest.as_bytes())
            .context("cannot write .gitignore")?;
    }
    out.done
        .push(".gitignore: removed the lines Lexibrarian added".to_string());
    Ok(())
}

/// `.lexibrary/`, `.lexignore`, the notes refs and the state under the git dir.
fn purge(
    root: &Path,
    repo: Option<&GitRepo>,
    options: Options,
    out: &mut Uninstalled,
) -> anyhow::Result<()> {
    for (rel, is_dir) in [(LIBRARY_DIR, true), (LEXIGNORE_FILE, false)] {
        let path = root.join(rel);
        let Ok(meta) = std::fs::symlink_metadata(&path) else {
            continue;
        };
        if !options.dry_run {
            // A symlink is removed as a link, never followed.
            if is_dir && meta.is_dir() {
                std::fs::remove_dir_all(&path)
            } else {
                std::fs::remove_file(&path)
            }
            .with_context(|| format!("cannot delete {}", path.display()))?;
        }
        out.done.push(format!("{rel}: deleted"));
    }
    let Some(repo) = repo else {
        return Ok(());
    };
    for name in remote::refs_under(repo.workdir(), REF_PREFIXES)? {
        if !options.dry_run {
            remote::delete_ref(repo.workdir(), &name)
                .with_context(|| format!("cannot delete {name}"))?;
        }
        out.done.push(format!("{name}: deleted"));
    }
    let state = repo.state_dir();
    if state.is_dir() {
        if !options.dry_run {
            std::fs::remove_dir_all(&state)
                .with_context(|| format!("cannot delete {}", state.display()))?;
        }
        let shown = state.strip_prefix(repo.workdir()).unwrap_or(&state);
        out.done.push(format!("{}: deleted", shown.display()));
    }
    Ok(())
}
