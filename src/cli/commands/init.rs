//! `lexictl init`: the setup wizard (seed §8; the questions are in [`wizard`]). On a terminal it asks
//! eight short questions, each with a detected default; with `--yes`, or when stdin is not a
//! terminal, it takes every default without asking. It then creates `.lexibrary/` all or nothing.

use std::io::IsTerminal;
use std::path::PathBuf;

use anyhow::bail;

use crate::cli::output::{print_json, print_text};
use crate::cli::values::{environments, AgentChoice};
use crate::cli::{Context, Format, Outcome};
use crate::engine::init::{apply, InitPlan, InitReport};
use crate::project::config::{AgentEnvironment, Config, ScopeRoots};
use crate::project::{detect, find_root, paths, refuse_git_dir, LIBRARY_DIR};

mod wizard;
use wizard::Wizard;

/// Create the library for this project.
///
/// Creates .lexibrary/ (config.yaml, START_HERE.md, concepts/, stack/), a .lexignore, adds the
/// library's ephemeral files to .gitignore, and adds a Lexibrarian section to the rule files of the
/// agent environments you use (CLAUDE.md, AGENTS.md, .cursor/rules/). Nothing is left half-made if it
/// fails. API keys are never read: only the *names* of the variables that hold them are recorded.
#[derive(Debug, clap::Args)]
#[command(
    after_help = "Examples:\n  lexictl init            answer the wizard\n  lexictl init --yes      take every detected default"
)]
pub struct Args {
    /// Directory to initialise (default: the current directory).
    pub dir: Option<PathBuf>,
    /// Take every default without asking (what a non-interactive stdin gets too).
    #[arg(short, long)]
    pub yes: bool,
    /// Ask the questions even when stdin is not a terminal (for scripted answers, one per line).
    #[arg(long, conflicts_with = "yes")]
    pub interactive: bool,
    /// The agent environments to write for, instead of the detected ones (comma-separated);
    /// `none` writes no agent file at all.
    #[arg(long, value_enum, value_delimiter = ',')]
    pub agents: Vec<AgentChoice>,
    #[command(flatten)]
    pub output: crate::cli::FormatArg,
}

pub fn run(ctx: &Context, args: &Args) -> anyhow::Result<Outcome> {
    let root = match &args.dir {
        Some(dir) => paths::normalize(&ctx.cwd.join(dir)),
        None => ctx.cwd.clone(),
    };
    if !root.is_dir() {
        bail!("{} is not a directory", root.display());
    }
    // Never in a bare repository or inside `.git/`: there is no working tree to document. Nor in a
    // repository that cannot be read (a reftable): every later command would refuse it.
    refuse_git_dir(&root)?;
    crate::git::GitRepo::discover(&root)?;
    if let Some(existing) = find_root(&root) {
        if existing == root {
            bail!(
                "{} is already a Lexibrarian project ({LIBRARY_DIR}/ exists) — to refresh agent rules run `lexictl setup --update`",
                root.display()
            );
        }
        bail!(
            "{} is already inside the Lexibrarian project at {} — to refresh agent rules run `lexictl setup --update`",
            root.display(),
            existing.display()
        );
    }

    let interactive = args.interactive || (!args.yes && std::io::stdin().is_terminal());
    if !args.yes && !interactive {
        crate::cli::output::safe_eprintln!(
            "note: stdin is not a terminal, so every default is taken (as with --yes)"
        );
    }
    let chosen = (!args.agents.is_empty()).then(|| environments(&args.agents));
    // Decided before init writes AGENTS.md, which would then count as detected.
    let nothing_detected = chosen.is_none() && detect::agent_environments(&root).is_empty();
    let plan = if interactive {
        let stdin = std::io::stdin();
        let mut wizard = Wizard::new(stdin.lock(), std::io::stderr(), wizard::terminal_width());
        match wizard.run(root.clone(), chosen)? {
            Some(plan) => plan,
            None => {
                crate::cli::output::safe_eprintln!("Nothing was created.");
                return Ok(Outcome::Ok);
            }
        }
    } else {
        default_plan(root.clone(), chosen)
    };

    let report = apply(&plan)?;
    trust_the_choices(&root);
    match ctx.format {
        Format::Text => print_text(&summary(&plan, &report, nothing_detected))?,
        Format::Json => print_json(&serde_json::json!({
            "root": plan.root,
            "config": plan.config,
            "created": report.created,
            "modified": report.modified,
            "unchanged": report.unchanged,
            "notes": report.notes,
        }))?,
    }
    Ok(Outcome::Ok)
}

/// The LLM provider, URL and key variable the person just chose in the wizard are theirs: this
/// clone trusts them (see `lexictl trust`). Best effort: without a record they are only reported.
fn trust_the_choices(root: &std::path::Path) {
    let Ok(project) = crate::project::Project::open(root.to_path_buf()) else {
        return;
    };
    if project.held.is_empty() {
        return;
    }
    let ws = crate::workspace::Workspace::new(project);
    let store = crate::workspace::trust::TrustStore::locate(ws.project(), ws.repo_if_any());
    if let Some(store) = store {
        if let Err(err) = store.confirm(&ws.project().held) {
            crate::cli::output::safe_eprintln!(
                "warning: cannot record that this clone trusts the LLM settings you chose ({}): {err}\n  hint: run `lexictl trust`",
                store.path.display()
            );
        }
    }
}

/// The plan `--yes` takes: detected name, the roots of every package's code and tests and the
/// directories of test cases to group (`engine::init::suggested`), the agent environments chosen
/// (`--agents`) or detected — AGENTS.md's when none is — the structural Archivist, default
/// budgets, IWH on.
pub fn default_plan(root: PathBuf, agents: Option<Vec<AgentEnvironment>>) -> InitPlan {
    let suggested = crate::engine::init::suggested(&root);
    let remote = crate::git::remote::config_values(&root, "remote.origin.url");
    let config = Config {
        project_name: detect::project_name(&root, remote.first().map(String::as_str)),
        scope_root: scope_from(&root, &suggested.scope),
        mapping: crate::project::mapping::MappingConfig {
            rules: suggested.mapping_rules,
            defaults: true,
        },
        agent_environment: agents.unwrap_or_else(|| default_agents(&root)),
        ..Config::default()
    };
    InitPlan {
        root,
        config,
        lexignore_patterns: Vec::new(),
    }
}

/// The detected agent environments; none detected means AGENTS.md (`codex`), which Codex and most
/// other coding agents read, so that an agent entering the repository learns the library exists.
fn default_agents(root: &std::path::Path) -> Vec<AgentEnvironment> {
    let detected = detect::agent_environments(root);
    if detected.is_empty() {
        vec![AgentEnvironment::Codex]
    } else {
        detected
    }
}

/// The config's `scope_root` for `roots`: directories written with a trailing `/`, a file
/// (`build.rs`) as it is, none meaning the whole project (`.`).
fn scope_from(project: &std::path::Path, roots: &[String]) -> ScopeRoots {
    let written = |root: &String| match project.join(root).is_file() {
        true => root.clone(),
        false => format!("{root}/"),
    };
    match roots {
        [] => ScopeRoots::One(".".to_string()),
        [one] => ScopeRoots::One(written(one)),
        many => ScopeRoots::Many(many.iter().map(written).collect()),
    }
}

fn summary(plan: &InitPlan, report: &InitReport, nothing_detected: bool) -> String {
    let mut out = format!(
        "Initialised Lexibrarian for {} in {}\n",
        plan.config.project_name,
        plan.root.display()
    );
    for rel in &report.created {
        out.push_str(&format!("  created   {rel}\n"));
    }
    for rel in &report.modified {
        out.push_str(&format!("  modified  {rel}\n"));
    }
    for rel in &report.unchanged {
        out.push_str(&format!(
            "  kept      {rel} (already has a Lexibrarian section)\n"
        ));
    }
    for note in &report.notes {
        out.push_str(&format!("  note      {note}\n"));
    }
    if nothing_detected && plan.config.agent_environment == [AgentEnvironment::Codex] {
        out.push_str(
            "\nNo agent environment was detected, so the Lexibrarian section went into AGENTS.md, which Codex and most coding agents read.\nPick others with `--agents claude,cursor`, or none with `--agents none`.\n",
        );
    }
    out.push_str(&format!(
        "\nNext: `lexictl update` writes the design files; `lexictl setup --hooks` keeps them current after every commit;\nthen commit {LIBRARY_DIR}/, .lexignore and .gitignore (and the agent files above), and point your agents at {LIBRARY_DIR}/START_HERE.md.\n"
    ));
    out
}

pub(super) fn scope_list(roots: &ScopeRoots) -> Vec<String> {
    roots.as_list().into_iter().map(str::to_string).collect()
}

pub(super) fn split_list(answer: &str) -> Vec<String> {
    answer
        .split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(str::to_string)
        .collect()
}

/// `claude, cursor` — environments as the wizard lists them.
pub(super) fn environment_names(environments: &[AgentEnvironment]) -> String {
    environments
        .iter()
        .map(|environment| environment.name())
        .collect::<Vec<_>>()
        .join(", ")
}
