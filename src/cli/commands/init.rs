//! `lexictl init`: the setup wizard (seed §8). On a terminal it asks eight short questions, each with a
//! detected default; with `--yes`, or when stdin is not a terminal, it takes every default without
//! asking. It then creates `.lexibrary/` all or nothing.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{bail, Context as _};

use crate::cli::output::{print_json, print_text};
use crate::cli::values::{environments, AgentChoice};
use crate::cli::{Context, Format, Outcome};
use crate::engine::init::{apply, InitPlan, InitReport};
use crate::project::config::{
    AgentEnvironment, Config, LlmConfig, LlmProvider, ScopeRoots, TokenBudgets,
};
use crate::project::{detect, find_root, paths, refuse_git_dir, LIBRARY_DIR};

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
    // Never in a bare repository or inside `.git/`: there is no working tree to document.
    refuse_git_dir(&root)?;
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
        eprintln!("note: stdin is not a terminal, so every default is taken (as with --yes)");
    }
    let chosen = (!args.agents.is_empty()).then(|| environments(&args.agents));
    // Decided before init writes AGENTS.md, which would then count as detected.
    let nothing_detected = chosen.is_none() && detect::agent_environments(&root).is_empty();
    let plan = if interactive {
        let stdin = std::io::stdin();
        let mut wizard = Wizard {
            input: stdin.lock(),
            output: std::io::stderr(),
        };
        match wizard.run(root.clone(), chosen)? {
            Some(plan) => plan,
            None => {
                eprintln!("Nothing was created.");
                return Ok(Outcome::Ok);
            }
        }
    } else {
        default_plan(root.clone(), chosen)
    };

    let report = apply(&plan)?;
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

/// The plan `--yes` takes: detected name, detected source roots, the agent environments chosen
/// (`--agents`) or detected — AGENTS.md's when none is — the structural Archivist, default
/// budgets, IWH on.
pub fn default_plan(root: PathBuf, agents: Option<Vec<AgentEnvironment>>) -> InitPlan {
    let suggestions = detect::scope_suggestions(&root);
    let config = Config {
        project_name: detect::project_name(&root),
        scope_root: scope_from(&suggestions),
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

fn scope_from(roots: &[String]) -> ScopeRoots {
    match roots {
        [] => ScopeRoots::One(".".to_string()),
        [one] => ScopeRoots::One(format!("{one}/")),
        many => ScopeRoots::Many(many.iter().map(|root| format!("{root}/")).collect()),
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

/// The interactive questions. Prompts go to stderr so stdout stays clean for `--format json`.
struct Wizard<R: BufRead, W: Write> {
    input: R,
    output: W,
}

impl<R: BufRead, W: Write> Wizard<R, W> {
    fn run(
        &mut self,
        root: PathBuf,
        agents: Option<Vec<AgentEnvironment>>,
    ) -> anyhow::Result<Option<InitPlan>> {
        let mut plan = default_plan(root, agents);
        writeln!(
            self.output,
            "Lexibrarian setup — press Enter to accept the [default].\n"
        )?;
        plan.config.project_name = self.ask("1/8 Project name", &plan.config.project_name)?;
        plan.config.scope_root = self.ask_scope(&plan.config.scope_root)?;
        plan.config.agent_environment = self.ask_agents(&plan.config.agent_environment)?;
        self.ask_provider(&mut plan.config.llm)?;
        plan.lexignore_patterns = self.ask_ignores()?;
        if let Some(budgets) = self.ask_budgets()? {
            plan.config.token_budgets = budgets;
        }
        plan.config.iwh.enabled = self.ask_iwh()?;
        self.print_summary(&plan)?;
        if self.confirm("Create the library?", true)? {
            Ok(Some(plan))
        } else {
            Ok(None)
        }
    }

    /// Question 2: which directories get design files.
    fn ask_scope(&mut self, detected: &ScopeRoots) -> anyhow::Result<ScopeRoots> {
        writeln!(
            self.output,
            "2/8 Which directories contain your source code? Files there get design files. (change later: {LIBRARY_DIR}/config.yaml → scope_root)"
        )?;
        let answer = self.ask(
            "    Scope roots, comma-separated",
            &scope_list(detected).join(", "),
        )?;
        Ok(match split_list(&answer).as_slice() {
            [] => ScopeRoots::One(".".to_string()),
            [one] => ScopeRoots::One(one.clone()),
            many => ScopeRoots::Many(many.to_vec()),
        })
    }

    /// Question 3: which agent environments get a Lexibrarian section in their rule files; asked
    /// again until every name is known.
    fn ask_agents(
        &mut self,
        detected: &[AgentEnvironment],
    ) -> anyhow::Result<Vec<AgentEnvironment>> {
        writeln!(
            self.output,
            "3/8 Which coding agents work here? A Lexibrarian section is added to their rule files. Options: {}",
            environment_names(&AgentEnvironment::ALL)
        )?;
        let detected = environment_names(detected);
        loop {
            let answer = self.ask(
                "    Agent environments (comma-separated, or none)",
                &detected,
            )?;
            let named: Vec<String> = split_list(&answer)
                .into_iter()
                .filter(|env| env != "none")
                .collect();
            match named
                .iter()
                .find(|env| AgentEnvironment::from_name(env).is_none())
            {
                Some(bad) => writeln!(
                    self.output,
                    "    `{bad}` is not one of {}",
                    environment_names(&AgentEnvironment::ALL)
                )?,
                None => {
                    return Ok(named
                        .iter()
                        .filter_map(|env| AgentEnvironment::from_name(env))
                        .collect())
                }
            }
        }
    }

    /// Question 4: who writes design files, the structural Archivist or an LLM provider (and its
    /// key's variable, never the key).
    fn ask_provider(&mut self, llm: &mut LlmConfig) -> anyhow::Result<()> {
        let keys = detect::llm_key_variables();
        writeln!(
            self.output,
            "4/8 Who writes design files? `structural` works offline and costs nothing; LLM providers read their key from an environment variable at run time. Lexibrarian never stores, logs or transmits your API key."
        )?;
        for (variable, provider) in &keys {
            writeln!(self.output, "    found {variable} → {provider}")?;
        }
        loop {
            let provider = self.ask(
                "    Provider (structural, anthropic, openai, openai-compatible)",
                "structural",
            )?;
            match provider.as_str() {
                "structural" => return Ok(()),
                "openai-compatible" => return self.ask_local_server(llm),
                "anthropic" | "openai" => return self.ask_hosted_provider(llm, &provider, &keys),
                other => writeln!(
                    self.output,
                    "    `{other}` is not a provider Lexibrarian knows"
                )?,
            }
        }
    }

    /// An OpenAI-compatible server (Ollama, vLLM, …), which usually needs no key.
    fn ask_local_server(&mut self, llm: &mut LlmConfig) -> anyhow::Result<()> {
        let url = self.ask(
            "    Server URL (Chat Completions API)",
            "http://localhost:11434/v1",
        )?;
        let model = self.ask("    Model the server has", "llama3.1")?;
        let variable = self.ask(
            "    Environment variable holding the key (empty: the server needs none)",
            "",
        )?;
        llm.provider = LlmProvider::OpenAiCompatible;
        llm.base_url = Some(url);
        llm.model = Some(model);
        llm.api_key_env = (!variable.is_empty()).then_some(variable);
        Ok(())
    }

    /// Anthropic or OpenAI: the variable holding the key, defaulting to one found set.
    fn ask_hosted_provider(
        &mut self,
        llm: &mut LlmConfig,
        provider: &str,
        keys: &[(&str, &str)],
    ) -> anyhow::Result<()> {
        let default_var = keys
            .iter()
            .find(|(_, found)| *found == provider)
            .map(|(variable, _)| variable.to_string())
            .unwrap_or_else(|| match provider {
                "anthropic" => "ANTHROPIC_API_KEY".to_string(),
                _ => "OPENAI_API_KEY".to_string(),
            });
        let variable = self.ask("    Environment variable holding the key", &default_var)?;
        if std::env::var_os(&variable).is_none() {
            writeln!(
                self.output,
                "    {variable} is not set in this shell; set it before running updates with {provider}."
            )?;
        }
        llm.provider = if provider == "anthropic" {
            LlmProvider::Anthropic
        } else {
            LlmProvider::OpenAi
        };
        llm.api_key_env = Some(variable);
        Ok(())
    }

    /// Question 5: patterns for `.lexignore`.
    fn ask_ignores(&mut self) -> anyhow::Result<Vec<String>> {
        writeln!(
            self.output,
            "5/8 Files to exclude beyond .gitignore (generated code, vendored code, data)? They go into .lexignore."
        )?;
        let patterns = self.ask("    Patterns, comma-separated", "")?;
        Ok(split_list(&patterns))
    }

    /// Question 6: token budgets; `None` keeps the defaults.
    fn ask_budgets(&mut self) -> anyhow::Result<Option<TokenBudgets>> {
        let budgets = TokenBudgets::default();
        writeln!(
            self.output,
            "6/8 Token budgets: START_HERE {} · design file {} · .aindex {} · concept {}",
            budgets.start_here_tokens,
            budgets.design_file_tokens,
            budgets.aindex_tokens,
            budgets.concept_file_tokens
        )?;
        if self.confirm("    Accept the default budgets?", true)? {
            return Ok(None);
        }
        let mut custom = budgets.clone();
        custom.start_here_tokens =
            self.ask_number("    START_HERE.md tokens", budgets.start_here_tokens)?;
        custom.design_file_tokens =
            self.ask_number("    Design file tokens", budgets.design_file_tokens)?;
        custom.aindex_tokens = self.ask_number("    .aindex tokens", budgets.aindex_tokens)?;
        custom.concept_file_tokens =
            self.ask_number("    Concept file tokens", budgets.concept_file_tokens)?;
        Ok(Some(custom))
    }

    /// Question 7: I Was Here notes on or off.
    fn ask_iwh(&mut self) -> anyhow::Result<bool> {
        writeln!(
            self.output,
            "7/8 I Was Here: agents leaving unfinished work in a directory drop a short, gitignored .iwh note the next agent reads and deletes."
        )?;
        self.confirm("    Enable I Was Here?", true)
    }

    /// Step 8: the summary of what will be created.
    fn print_summary(&mut self, plan: &InitPlan) -> anyhow::Result<()> {
        let config = &plan.config;
        let agents = if config.agent_environment.is_empty() {
            "none".to_string()
        } else {
            environment_names(&config.agent_environment)
        };
        let patterns = if plan.lexignore_patterns.is_empty() {
            "(no extra patterns)".to_string()
        } else {
            plan.lexignore_patterns.join(", ")
        };
        writeln!(self.output, "\n8/8 Summary")?;
        writeln!(self.output, "    project        {}", config.project_name)?;
        writeln!(
            self.output,
            "    scope_root     {}",
            scope_list(&config.scope_root).join(", ")
        )?;
        writeln!(self.output, "    agents         {agents}")?;
        writeln!(self.output, "    llm.provider   {}", config.llm.provider)?;
        writeln!(self.output, "    .lexignore     {patterns}")?;
        writeln!(self.output, "    iwh.enabled    {}", config.iwh.enabled)?;
        Ok(())
    }

    /// Ask for a line; an empty answer (or end of input) takes the default.
    fn ask(&mut self, question: &str, default: &str) -> anyhow::Result<String> {
        if default.is_empty() {
            write!(self.output, "{question}: ")?;
        } else {
            write!(self.output, "{question} [{default}]: ")?;
        }
        self.output.flush()?;
        let mut line = String::new();
        let read = self
            .input
            .read_line(&mut line)
            .context("cannot read the answer from stdin")?;
        if read == 0 {
            writeln!(self.output)?;
        }
        let answer = line.trim();
        Ok(if answer.is_empty() {
            default.to_string()
        } else {
            answer.to_string()
        })
    }

    fn confirm(&mut self, question: &str, default: bool) -> anyhow::Result<bool> {
        let hint = if default { "Y/n" } else { "y/N" };
        loop {
            let answer = self.ask(&format!("{question} ({hint})"), "")?;
            match answer.to_ascii_lowercase().as_str() {
                "" => return Ok(default),
                "y" | "yes" => return Ok(true),
                "n" | "no" => return Ok(false),
                _ => writeln!(self.output, "    please answer y or n")?,
            }
        }
    }

    fn ask_number(&mut self, question: &str, default: u32) -> anyhow::Result<u32> {
        loop {
            let answer = self.ask(question, &default.to_string())?;
            match answer.parse() {
                Ok(number) => return Ok(number),
                Err(_) => writeln!(self.output, "    `{answer}` is not a whole number")?,
            }
        }
    }
}

fn scope_list(roots: &ScopeRoots) -> Vec<String> {
    roots.as_list().into_iter().map(str::to_string).collect()
}

fn split_list(answer: &str) -> Vec<String> {
    answer
        .split(',')
        .map(str::trim)
        .filter(|part| !part.is_empty())
        .map(str::to_string)
        .collect()
}

/// `claude, cursor` — environments as the wizard lists them.
fn environment_names(environments: &[AgentEnvironment]) -> String {
    environments
        .iter()
        .map(|environment| environment.name())
        .collect::<Vec<_>>()
        .join(", ")
}
