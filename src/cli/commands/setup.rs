//! `lexictl setup`: install or remove the git hooks, configure notes sharing, register the MCP
//! server with the agents, refresh the agent rules, hooks and entries, and take all of it out again
//! (`--uninstall`, with `--purge` the library too; `engine::uninstall`).

use anyhow::{bail, Context as _};

use crate::cli::output::{print_json, print_text};
use crate::cli::values::{environments, AgentChoice};
use crate::cli::{Context, Format, Outcome};
use crate::engine::agents::{self, Plan};
use crate::engine::uninstall;
use crate::git::hooks::{self, HooksTarget, Manager};
use crate::git::GitRepo;
use crate::project::config::PrePushMode;
use crate::project::Project;

/// Connect Lexibrarian to git and to your agents.
///
/// `--hooks` installs post-commit, post-merge, post-applypatch and post-rewrite hooks that keep the
/// library current after every commit, in the background, and a pre-push hook that stops a push
/// whose library changes are not committed yet (a marked block in each hook file; your own hook code
/// is kept and still runs). With husky the block goes into `.husky/`; with lefthook or pre-commit the configuration to
/// add is printed instead.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexictl setup --hooks\n  lexictl setup --uninstall-hooks\n  lexictl setup --mcp\n  lexictl setup --mcp --agents claude,cursor\n  lexictl setup --uninstall-mcp\n  lexictl setup --update\n  lexictl setup --uninstall --dry-run      what a full uninstall would remove\n  lexictl setup --uninstall                everything outside .lexibrary/\n  lexictl setup --uninstall --purge --yes  and the library, its notes and state"
)]
pub struct Args {
    /// Install the post-commit, post-merge, post-applypatch, post-rewrite and pre-push hooks.
    #[arg(long)]
    pub hooks: bool,
    /// Remove exactly what --hooks added (a hook file is deleted only if nothing else is left in it).
    #[arg(long, conflicts_with = "hooks")]
    pub uninstall_hooks: bool,
    /// Refresh what Lexibrarian wrote for agents to what this version writes: the rule blocks
    /// (CLAUDE.md, AGENTS.md, .cursor/), Claude Code's hooks and skill (adding or removing the
    /// pre-edit hook after `claude.pre_edit_lookup` changed) and the MCP entries, add to
    /// .gitignore any line a newer version needs (e.g. `.lexi-tmp-*`, temporary files), and add to
    /// `scope_root` the directories of the project's packages (Cargo workspace members, npm
    /// workspace packages, Python package roots) whose code it leaves out. Anything a person
    /// changed since is left alone and named.
    #[arg(long)]
    pub update: bool,
    /// Register `lexi mcp` as an MCP server for Claude Code (.mcp.json), Cursor (.cursor/mcp.json)
    /// and Codex (.codex/config.toml) — for the environments of `agent_environment`, or those of
    /// --agents — merged into the existing files and recorded in .lexibrary/integrations.json.
    #[arg(long)]
    pub mcp: bool,
    /// Remove exactly the MCP entries --mcp added; one changed since is kept and named.
    #[arg(long, conflicts_with = "mcp")]
    pub uninstall_mcp: bool,
    /// With --mcp: the agents to register the server for, instead of `agent_environment`.
    #[arg(long, value_enum, value_delimiter = ',', requires = "mcp")]
    pub agents: Vec<AgentChoice>,
    /// Print the hook block, to add to a hook file by hand.
    #[arg(long)]
    pub print_hook: bool,
    /// Configure notes sharing: fetch refspecs for every remote and the union merge strategy
    /// (also done by --hooks). Never sets a push refspec; use `lexictl notes sync` to push.
    #[arg(long)]
    pub notes: bool,
    /// Remove everything Lexibrarian added outside .lexibrary/: the hook blocks (a hook file it
    /// created is deleted, any other restored byte for byte), the git config it set, the agent rule
    /// blocks, Claude Code hooks and skill, MCP entries and .gitignore lines recorded in
    /// .lexibrary/integrations.json. What someone changed since is kept and named. Idempotent.
    #[arg(long, conflicts_with_all = ["hooks", "uninstall_hooks", "update", "mcp", "uninstall_mcp", "print_hook", "notes"])]
    pub uninstall: bool,
    /// With --uninstall: also delete .lexibrary/, .lexignore, the notes refs
    /// (refs/notes/lexibrarian/*) and the state under the git dir, after a confirmation.
    #[arg(long, requires = "uninstall")]
    pub purge: bool,
    /// With --uninstall: say what would be removed, and remove nothing.
    #[arg(long, requires = "uninstall")]
    pub dry_run: bool,
    /// With --purge: do not ask for confirmation (needed when stdin is not a terminal).
    #[arg(long, short = 'y', requires = "purge")]
    pub yes: bool,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let agents = args.update || args.mcp || args.uninstall_mcp;
    if !(args.hooks
        || args.uninstall_hooks
        || agents
        || args.print_hook
        || args.notes
        || args.uninstall)
    {
        bail!(
            "say what to set up: --hooks, --uninstall-hooks, --notes, --mcp, --uninstall-mcp, --update, --print-hook or --uninstall (see --help)"
        );
    }
    if args.uninstall {
        return uninstall(ctx, args);
    }
    let project = Project::discover(&ctx.cwd)?;
    let mut report = serde_json::Map::new();
    let mut text = String::new();
    if args.print_hook {
        text.push_str(&hooks::block("post-commit"));
        text.push_str("\n# For the pre-push hook:\n");
        text.push_str(&hooks::block("pre-push"));
        report.insert("block".into(), hooks::block("post-commit").into());
        report.insert("pre_push_block".into(), hooks::block("pre-push").into());
    }
    if args.hooks || args.uninstall_hooks {
        let repo = GitRepo::discover(&project.root)?
            .context("hooks need a git repository; this project is not inside one")?;
        let blocking = project.config.hooks.pre_push == PrePushMode::Block;
        let (lines, json) = hook_files(&repo, args.hooks, blocking)?;
        text.push_str(&lines);
        report.insert("hooks".into(), json);
    }
    if args.notes || args.hooks {
        let repo = GitRepo::discover(&project.root)?
            .context("notes sharing needs a git repository; this project is not inside one")?;
        let added = crate::engine::notes_sync::configure(repo.workdir())?;
        for setting in &added {
            text.push_str(&format!("git config: {setting}\n"));
        }
        report.insert("notes_config".into(), serde_json::json!(added));
    }
    if agents {
        let (done, notes) = agent_files(&project, args)?;
        for line in &done {
            text.push_str(&format!("{line}\n"));
        }
        for line in &notes {
            text.push_str(&format!("note: {line}\n"));
        }
        if done.is_empty() && notes.is_empty() {
            text.push_str("agent files already current\n");
        }
        report.insert(
            "agents".into(),
            serde_json::json!({"done": done, "notes": notes}),
        );
    }
    if args.update {
        let gitignore = crate::engine::init::refresh_gitignore(&project.root)?;
        if gitignore {
            text.push_str("added the missing Lexibrarian lines to .gitignore\n");
        }
        report.insert("gitignore".into(), serde_json::json!(gitignore));
        let widened = crate::engine::init::widen_scope(&project)?;
        if let Some(widened) = &widened {
            text.push_str(&format!(
                "scope_root: added {} — {}; run `lexictl update` to document them\n",
                widened.added.join(", "),
                widened.uncovered.summary().unwrap_or_default()
            ));
        }
        report.insert("scope".into(), serde_json::json!(widened));
    }
    match ctx.format {
        Format::Json => print_json(&report)?,
        Format::Text => print_text(&text)?,
    }
    Ok(Outcome::Ok)
}

/// --mcp, --uninstall-mcp, then --update, each planned and applied in turn: what was done and
/// what was left alone.
fn agent_files(project: &Project, args: &Args) -> anyhow::Result<(Vec<String>, Vec<String>)> {
    let mut plans: Vec<Plan> = Vec::new();
    let mut step = |plan: Plan| -> anyhow::Result<()> {
        agents::apply(&project.root, &plan)?;
        plans.push(plan);
        Ok(())
    };
    if args.mcp {
        let chosen = if args.agents.is_empty() {
            project.config.agent_environment.clone()
        } else {
            environments(&args.agents)
        };
        if chosen.is_empty() {
            bail!(
                "no agent environment to register the MCP server for: `agent_environment` is empty in .lexibrary/config.yaml\n  hint: name them, e.g. `lexictl setup --mcp --agents claude,cursor,codex`"
            );
        }
        step(agents::plan_mcp(&project.root, &chosen)?)?;
    }
    if args.uninstall_mcp {
        step(agents::plan_uninstall_mcp(&project.root)?)?;
    }
    if args.update {
        step(agents::plan_refresh(&project.root, &project.config)?)?;
    }
    let done = plans.iter().flat_map(|plan| plan.done.clone()).collect();
    let notes = plans.iter().flat_map(|plan| plan.notes.clone()).collect();
    Ok((done, notes))
}

/// Install (or remove) our block in each hook file; text lines and a JSON value describing it.
/// With a hook manager that is not husky, what to add to its configuration instead (`blocking`:
/// `hooks.pre_push` is `block`, which the pre-commit framework's snippet needs to know).
fn hook_files(
    repo: &GitRepo,
    install: bool,
    blocking: bool,
) -> anyhow::Result<(String, serde_json::Value)> {
    let dir = match repo.hooks_target()? {
        HooksTarget::Dir(dir) => dir,
        HooksTarget::Manager(Manager::Husky) => repo.workdir().join(".husky"),
        HooksTarget::Manager(manager) => {
            return Ok(manager_snippet(repo, manager, install, blocking))
        }
    };
    let mut lines = String::new();
    let mut files = Vec::new();
    for hook in hooks::HOOKS {
        let path = dir.join(hook);
        let shown = path
            .strip_prefix(repo.workdir())
            .map(|p| p.display().to_string())
            .unwrap_or_else(|_| path.display().to_string());
        let outcome = if install {
            let done = hooks::install(&path, hook)
                .with_context(|| format!("cannot write {}", path.display()))?;
            serde_json::to_value(done)?
        } else {
            let done = hooks::uninstall(&path)
                .with_context(|| format!("cannot update {}", path.display()))?;
            serde_json::to_value(done)?
        };
        let word = match outcome.as_str().unwrap_or("") {
            "created" => "created",
            "added" => "added the block",
            "updated" => "updated the block",
            "unchanged" => "already installed",
            "block" => "removed the block",
            "file" => "removed the file (nothing else was in it)",
            _ => "not installed",
        };
        lines.push_str(&format!("{hook}: {word} ({shown})\n"));
        files.push(serde_json::json!({"hook": hook, "path": path, "outcome": outcome}));
    }
    Ok((lines, serde_json::json!({"dir": dir, "files": files})))
}

/// What to add to (or remove from) lefthook's or the pre-commit framework's configuration. The
/// pre-commit entry is shaped to the file it goes into (`hooks::pre_commit_snippet`).
fn manager_snippet(
    repo: &GitRepo,
    manager: Manager,
    install: bool,
    blocking: bool,
) -> (String, serde_json::Value) {
    let (file, snippet, whole_file, then) = match manager {
        Manager::PreCommit => {
            let file = ".pre-commit-config.yaml";
            let existing = std::fs::read_to_string(repo.workdir().join(file)).ok();
            let snippet = hooks::pre_commit_snippet(existing.as_deref(), blocking);
            let then = format!("then run `{}`", hooks::pre_commit_install(blocking));
            (file, snippet.text, snippet.whole_file, then)
        }
        _ => (
            "lefthook.yml",
            hooks::LEFTHOOK_SNIPPET.to_string(),
            false,
            "then run `lefthook install`".to_string(),
        ),
    };
    let verb = match (install, manager, whole_file) {
        (true, Manager::PreCommit, true) => "write this as".to_string(),
        (true, Manager::PreCommit, false) => {
            "paste this entry right below `repos:` (its `-` in the column of your entries) in"
                .to_string()
        }
        (true, _, _) => "add this to".to_string(),
        (false, _, _) => "remove the lexibrarian entries from".to_string(),
    };
    (
        format!("{file} manages this repository's hooks, so nothing was written; {verb} {file}, {then}:\n\n{snippet}"),
        serde_json::json!({"manager": file, "written": false, "snippet": snippet, "whole_file": whole_file}),
    )
}

/// `--uninstall [--purge] [--dry-run] [--yes]`.
fn uninstall(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    // The project's root; after a purge (or with a broken config) the repository's top level, so
    // that running it again is not an error.
    let root = match crate::project::find_root(&ctx.cwd) {
        Some(root) => root,
        None => match GitRepo::discover(&ctx.cwd)? {
            Some(repo) => repo.workdir().to_path_buf(),
            None => {
                return Err(crate::project::ProjectError::NotAProject {
                    start: ctx.cwd.clone(),
                }
                .into())
            }
        },
    };
    if args.purge && !args.dry_run && !args.yes && !confirm_purge(&root)? {
        crate::cli::output::safe_eprintln!("nothing was removed");
        return Ok(Outcome::Failed);
    }
    let options = uninstall::Options {
        purge: args.purge,
        dry_run: args.dry_run,
    };
    let done = uninstall::uninstall(&root, options)?;
    if ctx.format == Format::Json {
        print_json(&done)?;
        return Ok(Outcome::Ok);
    }
    let mut text = String::new();
    if done.dry_run {
        text.push_str("dry run: nothing was changed; --uninstall would do this:\n");
    }
    for line in &done.done {
        text.push_str(&format!("{line}\n"));
    }
    for line in &done.notes {
        text.push_str(&format!("note: {line}\n"));
    }
    if done.done.is_empty() && done.notes.is_empty() {
        text.push_str("nothing to remove: Lexibrarian added nothing here that is still in place\n");
    } else if !done.dry_run {
        let commit = if args.purge {
            "commit the removal (`git add -A . && git commit`); notes already pushed stay on the remote until you delete them there (`git push <remote> --delete refs/notes/lexibrarian/stack refs/notes/lexibrarian/provenance`)"
        } else {
            "commit the changed files; .lexibrary/ is still here (`--purge` removes it too)"
        };
        text.push_str(&format!("done: {commit}\n"));
    }
    print_text(&text)?;
    Ok(Outcome::Ok)
}

/// Ask before `--purge` deletes the library; only a terminal can answer (EOF is no).
fn confirm_purge(root: &std::path::Path) -> anyhow::Result<bool> {
    let library = root.join(crate::project::LIBRARY_DIR);
    use std::io::{BufRead, IsTerminal, Write};
    if !std::io::stdin().is_terminal() {
        bail!(
            "--purge deletes {} with every design file, concept and Stack post, .lexignore and the notes refs; \
             stdin is not a terminal to confirm it\n  hint: see what it would remove with `lexictl setup --uninstall --purge --dry-run`, then pass --yes",
            library.display()
        );
    }
    crate::cli::output::safe_eprint!(
        "This deletes {} (every design file, concept and Stack post), .lexignore, the notes refs and the state under the git dir.\nDelete them? [y/N] ",
        library.display()
    );
    std::io::stderr().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    Ok(matches!(answer.trim().to_lowercase().as_str(), "y" | "yes"))
}
