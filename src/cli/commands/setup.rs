//! `lexictl setup`: install or remove the git hooks, configure notes sharing, register the MCP
//! server with the agents, refresh the agent rules, hooks and entries.

use anyhow::{bail, Context as _};

use crate::cli::output::{print_json, print_text};
use crate::cli::values::{environments, AgentChoice};
use crate::cli::{Context, Format, Outcome};
use crate::engine::agents::{self, Plan};
use crate::git::hooks::{self, HooksTarget, Manager};
use crate::git::GitRepo;
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
    after_help = "Examples:\n  lexictl setup --hooks\n  lexictl setup --uninstall-hooks\n  lexictl setup --mcp\n  lexictl setup --mcp --agents claude,cursor\n  lexictl setup --uninstall-mcp\n  lexictl setup --update"
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
    /// pre-edit hook after `claude.pre_edit_lookup` changed) and the MCP entries, and add to
    /// .gitignore any line a newer version needs (e.g. `.lexi-tmp-*`, temporary files). Anything a
    /// person changed since is left alone and named.
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
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let agents = args.update || args.mcp || args.uninstall_mcp;
    if !(args.hooks || args.uninstall_hooks || agents || args.print_hook || args.notes) {
        bail!(
            "say what to set up: --hooks, --uninstall-hooks, --notes, --mcp, --uninstall-mcp, --update or --print-hook (see --help)"
        );
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
        let (lines, json) = hook_files(&repo, args.hooks)?;
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
fn hook_files(repo: &GitRepo, install: bool) -> anyhow::Result<(String, serde_json::Value)> {
    let dir = match repo.hooks_target()? {
        HooksTarget::Dir(dir) => dir,
        HooksTarget::Manager(Manager::Husky) => repo.workdir().join(".husky"),
        HooksTarget::Manager(manager) => {
            let (file, snippet, then) = match manager {
                Manager::Lefthook => ("lefthook.yml", hooks::LEFTHOOK_SNIPPET, "then run `lefthook install`"),
                _ => (
                    ".pre-commit-config.yaml",
                    hooks::PRE_COMMIT_SNIPPET,
                    "then run `pre-commit install --hook-type post-commit --hook-type post-merge --hook-type post-rewrite --hook-type pre-push`",
                ),
            };
            let verb = if install {
                "add this to"
            } else {
                "remove the lexibrarian entries from"
            };
            return Ok((
                format!("{file} manages this repository's hooks, so nothing was written; {verb} {file}, {then}:\n\n{snippet}"),
                serde_json::json!({"manager": file, "written": false, "snippet": snippet}),
            ));
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
