//! The questions `lexictl init` asks on a terminal (seed §8), each answer checked the way the tool
//! will later read it — scope roots that exist inside the project, agent and provider names (with a
//! did-you-mean), a URL, an environment variable *name*, whole numbers — and asked again until it
//! is right. Text is wrapped at word boundaries to the terminal's width. End of input takes the
//! remaining defaults and answers the final "Create the library?" with no.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::{default_plan, environment_names, scope_list, split_list};
use crate::engine::init::InitPlan;
use crate::project::config::{AgentEnvironment, LlmConfig, LlmProvider, ScopeRoots, TokenBudgets};
use crate::project::{detect, paths, LIBRARY_DIR};

/// The width to wrap at: the terminal's (stderr, where the questions go), else `$COLUMNS`, else 80.
pub(super) fn terminal_width() -> usize {
    if let Some((terminal_size::Width(width), _)) =
        terminal_size::terminal_size_of(std::io::stderr())
    {
        return usize::from(width);
    }
    std::env::var("COLUMNS")
        .ok()
        .and_then(|columns| columns.parse().ok())
        .unwrap_or(80)
}

/// The interactive questions. Prompts go to stderr so stdout stays clean for `--format json`.
pub(super) struct Wizard<R: BufRead, W: Write> {
    input: R,
    output: W,
    width: usize,
    /// The input ended: every later question takes its default.
    ended: bool,
}

impl<R: BufRead, W: Write> Wizard<R, W> {
    pub(super) fn new(input: R, output: W, width: usize) -> Self {
        Wizard {
            input,
            output,
            width: width.max(20),
            ended: false,
        }
    }

    pub(super) fn run(
        &mut self,
        root: PathBuf,
        agents: Option<Vec<AgentEnvironment>>,
    ) -> anyhow::Result<Option<InitPlan>> {
        let mut plan = default_plan(root, agents);
        self.say("Lexibrarian setup — press Enter to accept the [default].\n")?;
        plan.config.project_name = self.ask("1/8 Project name", &plan.config.project_name)?;
        plan.config.scope_root = self.ask_scope(&plan.root, &plan.config.scope_root)?;
        plan.config.agent_environment = self.ask_agents(&plan.config.agent_environment)?;
        self.ask_provider(&mut plan.config.llm)?;
        plan.lexignore_patterns = self.ask_ignores()?;
        if let Some(budgets) = self.ask_budgets()? {
            plan.config.token_budgets = budgets;
        }
        plan.config.iwh.enabled = self.ask_iwh()?;
        self.print_summary(&plan)?;
        // End of input here is not a yes: nothing is created that nobody confirmed.
        if self.confirm("Create the library?", true, false)? {
            Ok(Some(plan))
        } else {
            Ok(None)
        }
    }

    /// Question 2: which directories get design files; each must be a directory inside the project.
    fn ask_scope(&mut self, root: &Path, detected: &ScopeRoots) -> anyhow::Result<ScopeRoots> {
        self.say(&format!(
            "2/8 Which directories contain your source code? Files there get design files. (change later: {LIBRARY_DIR}/config.yaml → scope_root)"
        ))?;
        let default = scope_list(detected).join(", ");
        loop {
            let answer = self.ask("    Scope roots, comma-separated", &default)?;
            let roots = split_list(&answer);
            match roots
                .iter()
                .find_map(|written| scope_problem(root, written))
            {
                Some(problem) => self.complain(&problem)?,
                None => {
                    return Ok(match roots.as_slice() {
                        [] => ScopeRoots::One(".".to_string()),
                        [one] => ScopeRoots::One(one.clone()),
                        many => ScopeRoots::Many(many.to_vec()),
                    })
                }
            }
        }
    }

    /// Question 3: which agent environments get a Lexibrarian section in their rule files.
    fn ask_agents(
        &mut self,
        detected: &[AgentEnvironment],
    ) -> anyhow::Result<Vec<AgentEnvironment>> {
        let all = environment_names(&AgentEnvironment::ALL);
        self.say(&format!(
            "3/8 Which coding agents work here? A Lexibrarian section is added to their rule files. Options: {all}"
        ))?;
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
            let names: Vec<&str> = AgentEnvironment::ALL.iter().map(|env| env.name()).collect();
            match named
                .iter()
                .find(|env| AgentEnvironment::from_name(env).is_none())
            {
                Some(bad) => self.complain(&format!(
                    "`{bad}` is not an agent environment{} ({all}, or none)",
                    did_you_mean(bad, &names)
                ))?,
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
        self.say("4/8 Who writes design files? `structural` works offline and costs nothing; LLM providers read their key from an environment variable at run time. Lexibrarian never stores, logs or transmits your API key.")?;
        for (variable, provider) in &keys {
            self.say(&format!("    found {variable} → {provider}"))?;
        }
        let providers = ["structural", "anthropic", "openai", "openai-compatible"];
        loop {
            let provider = self.ask(
                "    Provider (structural, anthropic, openai, openai-compatible)",
                "structural",
            )?;
            match provider.as_str() {
                "structural" => return Ok(()),
                "openai-compatible" => return self.ask_local_server(llm),
                "anthropic" | "openai" => return self.ask_hosted_provider(llm, &provider, &keys),
                other => self.complain(&format!(
                    "`{other}` is not a provider Lexibrarian knows{}",
                    did_you_mean(other, &providers)
                ))?,
            }
        }
    }

    /// An OpenAI-compatible server (Ollama, vLLM, …), which usually needs no key.
    fn ask_local_server(&mut self, llm: &mut LlmConfig) -> anyhow::Result<()> {
        let url = loop {
            let url = self.ask(
                "    Server URL (Chat Completions API)",
                "http://localhost:11434/v1",
            )?;
            if url.starts_with("http://") || url.starts_with("https://") {
                break url;
            }
            self.complain(&format!(
                "`{url}` is not a URL: it must start with http:// or https://"
            ))?;
        };
        let model = self.ask("    Model the server has", "llama3.1")?;
        let variable = self.ask_variable(
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
        let variable =
            self.ask_variable("    Environment variable holding the key", &default_var)?;
        if std::env::var_os(&variable).is_none() {
            self.say(&format!(
                "    {variable} is not set in this shell; set it before running updates with {provider}."
            ))?;
        }
        llm.provider = if provider == "anthropic" {
            LlmProvider::Anthropic
        } else {
            LlmProvider::OpenAi
        };
        llm.api_key_env = Some(variable);
        Ok(())
    }

    /// An environment variable's name (letters, digits, `_`), as `lexictl update` requires; empty
    /// only when `default` is. The answer is never echoed when wrong: it may be a pasted key.
    fn ask_variable(&mut self, question: &str, default: &str) -> anyhow::Result<String> {
        loop {
            let name = self.ask(question, default)?;
            if (name.is_empty() && default.is_empty())
                || crate::archivist::llm::is_variable_name(&name)
            {
                return Ok(name);
            }
            self.complain("that is not the NAME of an environment variable (letters, digits and _, e.g. ANTHROPIC_API_KEY); never paste the key itself")?;
        }
    }

    /// Question 5: patterns for `.lexignore`.
    fn ask_ignores(&mut self) -> anyhow::Result<Vec<String>> {
        self.say("5/8 Files to exclude beyond .gitignore (generated code, vendored code, data)? They go into .lexignore.")?;
        let patterns = self.ask("    Patterns, comma-separated", "")?;
        Ok(split_list(&patterns))
    }

    /// Question 6: token budgets; `None` keeps the defaults.
    fn ask_budgets(&mut self) -> anyhow::Result<Option<TokenBudgets>> {
        let budgets = TokenBudgets::default();
        self.say(&format!(
            "6/8 Token budgets: START_HERE {} · design file {} · .aindex {} · concept {}",
            budgets.start_here_tokens,
            budgets.design_file_tokens,
            budgets.aindex_tokens,
            budgets.concept_file_tokens
        ))?;
        if self.confirm("    Accept the default budgets?", true, true)? {
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
        self.say("7/8 I Was Here: agents leaving unfinished work in a directory drop a short, gitignored .iwh note the next agent reads and deletes.")?;
        self.confirm("    Enable I Was Here?", true, true)
    }

    /// Step 8: everything that will go into the config, as `config.yaml` names it.
    fn print_summary(&mut self, plan: &InitPlan) -> anyhow::Result<()> {
        let config = &plan.config;
        let or = |value: &Option<String>, otherwise: &str| {
            value.clone().unwrap_or_else(|| otherwise.to_string())
        };
        let agents = match config.agent_environment.as_slice() {
            [] => "none".to_string(),
            some => environment_names(some),
        };
        let patterns = match plan.lexignore_patterns.as_slice() {
            [] => "(no extra patterns)".to_string(),
            some => some.join(", "),
        };
        let budgets = &config.token_budgets;
        let mut rows = vec![
            ("project", config.project_name.clone()),
            ("scope_root", scope_list(&config.scope_root).join(", ")),
            ("agents", agents),
            ("llm.provider", config.llm.provider.to_string()),
        ];
        if config.llm.provider != LlmProvider::Structural {
            rows.push((
                "llm.model",
                or(&config.llm.model, "(the provider's default)"),
            ));
            rows.push(("llm.base_url", or(&config.llm.base_url, "(the provider's)")));
            rows.push(("llm.api_key_env", or(&config.llm.api_key_env, "(none)")));
        }
        rows.push((
            "token_budgets",
            format!(
                "START_HERE {} · design file {} · .aindex {} · concept {}",
                budgets.start_here_tokens,
                budgets.design_file_tokens,
                budgets.aindex_tokens,
                budgets.concept_file_tokens
            ),
        ));
        rows.push((".lexignore", patterns));
        rows.push(("iwh.enabled", config.iwh.enabled.to_string()));
        writeln!(self.output, "\n8/8 Summary")?;
        for (name, value) in rows {
            self.say(&format!("    {name:<16} {value}"))?;
        }
        Ok(())
    }

    /// Write `text` wrapped to the width; continuation lines keep its indentation.
    fn say(&mut self, text: &str) -> anyhow::Result<()> {
        // Neutralised: what it shows was detected in the project (names, descriptions).
        let text = crate::cli::output::neutralise(text);
        writeln!(self.output, "{}", wrap(&text, self.width))?;
        Ok(())
    }

    /// Say what is wrong with an answer before asking again; with the input ended, stop instead.
    fn complain(&mut self, problem: &str) -> anyhow::Result<()> {
        if self.ended {
            bail!("{problem}; the input ended before a valid answer");
        }
        self.say(&format!("    {problem}"))
    }

    /// Ask for a line; an empty answer (or end of input) takes the default.
    fn ask(&mut self, question: &str, default: &str) -> anyhow::Result<String> {
        let prompt = if default.is_empty() {
            format!("{question}: ")
        } else {
            format!("{question} [{default}]: ")
        };
        let prompt = crate::cli::output::neutralise(&prompt);
        write!(self.output, "{}", wrap(&prompt, self.width))?;
        self.output.flush()?;
        let answer = self.read_line()?;
        Ok(match answer.as_deref().map(str::trim) {
            None | Some("") => default.to_string(),
            Some(answer) => answer.to_string(),
        })
    }

    /// The next line of input, `None` once it has ended.
    fn read_line(&mut self) -> anyhow::Result<Option<String>> {
        if self.ended {
            writeln!(self.output)?;
            return Ok(None);
        }
        let mut line = String::new();
        let read = self
            .input
            .read_line(&mut line)
            .context("cannot read the answer from stdin")?;
        if read == 0 {
            self.ended = true;
            writeln!(self.output)?;
            return Ok(None);
        }
        Ok(Some(line))
    }

    /// A yes/no question: Enter takes `default`, end of input `on_end`.
    fn confirm(&mut self, question: &str, default: bool, on_end: bool) -> anyhow::Result<bool> {
        let hint = if default { "Y/n" } else { "y/N" };
        loop {
            write!(
                self.output,
                "{}",
                wrap(&format!("{question} ({hint}): "), self.width)
            )?;
            self.output.flush()?;
            let Some(answer) = self.read_line()? else {
                return Ok(on_end);
            };
            match answer.trim().to_ascii_lowercase().as_str() {
                "" => return Ok(default),
                "y" | "yes" => return Ok(true),
                "n" | "no" => return Ok(false),
                _ => self.complain("please answer y or n")?,
            }
        }
    }

    /// A whole number of at least 1.
    fn ask_number(&mut self, question: &str, default: u32) -> anyhow::Result<u32> {
        loop {
            let answer = self.ask(question, &default.to_string())?;
            match answer.parse::<u32>() {
                Ok(number) if number > 0 => return Ok(number),
                _ => self.complain(&format!("`{answer}` is not a whole number of at least 1"))?,
            }
        }
    }
}

/// What is wrong with a scope root as written, if anything: it must be relative, stay inside the
/// project (what `lexictl update` requires) and be a directory there (else nothing is documented).
fn scope_problem(root: &Path, written: &str) -> Option<String> {
    let path = Path::new(written);
    let inside = !path.is_absolute() && !paths::normalize(path).starts_with("..");
    if !inside {
        return Some(format!(
            "`{written}` must be a directory inside the project, relative to its root (`.` for all of it)"
        ));
    }
    if root.join(path).is_dir() {
        return None;
    }
    let mut dirs: Vec<String> = std::fs::read_dir(root)
        .map(|entries| {
            entries
                .filter_map(Result::ok)
                .filter(|entry| entry.path().is_dir())
                .map(|entry| entry.file_name().to_string_lossy().into_owned())
                .filter(|name| !name.starts_with('.'))
                .collect()
        })
        .unwrap_or_default();
    dirs.sort();
    let names: Vec<&str> = dirs.iter().map(String::as_str).collect();
    let trimmed = written.trim_end_matches('/');
    let listed = if dirs.is_empty() {
        "none".to_string()
    } else {
        dirs.join(", ")
    };
    Some(format!(
        "`{written}` is not a directory in this project (directories here: {listed}){}",
        did_you_mean(trimmed, &names)
    ))
}

/// `; did you mean `x`?` for the closest candidate, or nothing when none is close.
fn did_you_mean(unknown: &str, candidates: &[&str]) -> String {
    candidates
        .iter()
        .map(|candidate| (strsim::jaro_winkler(unknown, candidate), candidate))
        .filter(|(score, _)| *score > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| format!("; did you mean `{candidate}`?"))
        .unwrap_or_default()
}

/// `text` wrapped at word boundaries to `width` columns (by characters); each line's continuation
/// keeps its leading indentation. A word longer than the width stays whole on its own line. A
/// trailing space (a prompt's) is kept.
pub(super) fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            out.push('\n');
        }
        out.push_str(&wrap_line(line, width));
    }
    out
}

/// One line of [`wrap`]. Runs of spaces inside the first line (aligned columns) are kept; a line
/// that fits is returned as written.
fn wrap_line(line: &str, width: usize) -> String {
    if line.chars().count() <= width {
        return line.to_string();
    }
    let indent: String = line.chars().take_while(|c| *c == ' ').collect();
    let mut out = String::new();
    let mut current = indent.clone();
    let mut column = indent.chars().count();
    let mut pending_spaces = 0;
    for word in line[indent.len()..].split(' ') {
        if word.is_empty() {
            pending_spaces += 1;
            continue;
        }
        let len = word.chars().count();
        let started = column > indent.chars().count();
        let spaces = pending_spaces + 1;
        pending_spaces = 0;
        if started && column + spaces + len > width {
            out.push_str(&current);
            out.push('\n');
            current = format!("{indent}{word}");
            column = indent.chars().count() + len;
        } else {
            if started {
                current.push_str(&" ".repeat(spaces));
                column += spaces;
            }
            current.push_str(word);
            column += len;
        }
    }
    if line.ends_with(' ') {
        current.push(' ');
    }
    out.push_str(&current);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_breaks_between_words_and_keeps_the_indent() {
        let text = "    Which coding agents work here? A section is added to their rule files.";
        let wrapped = wrap(text, 40);
        assert_eq!(
            wrapped,
            "    Which coding agents work here? A\n    section is added to their rule\n    files."
        );
        for line in wrapped.lines() {
            assert!(line.chars().count() <= 40, "{line}");
        }
        assert_eq!(wrap("Name [x]: ", 80), "Name [x]: ");
        assert_eq!(wrap("a\n\nb", 10), "a\n\nb");
        // Aligned columns keep their spaces when the line is wrapped.
        assert_eq!(wrap("  name    a b c d", 12), "  name    a\n  b c d");
    }

    fn run_wizard(root: &Path, answers: &str) -> (anyhow::Result<Option<InitPlan>>, String) {
        let mut output = Vec::new();
        let result = Wizard::new(answers.as_bytes(), &mut output, 60).run(root.to_path_buf(), None);
        (result, String::from_utf8_lossy(&output).into_owned())
    }

    #[test]
    fn answers_are_checked_as_the_tool_will_read_them() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        let answers = "demo\nsrcx/\n../elsewhere\nsrc/\nclaud\nclaude\nanthropc\nanthropic\nMY KEY\nMY_KEY\n\nn\n0\n900\n300\n150\n350\n\ny\n";
        let (result, output) = run_wizard(dir.path(), answers);
        let plan = result.expect("the wizard finishes").expect("confirmed");
        // What was said, with the wrapping undone.
        let said = output.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            said.contains("`srcx/` is not a directory in this project (directories here: src); did you mean `src`?"),
            "{said}"
        );
        assert!(
            said.contains("`../elsewhere` must be a directory inside the project"),
            "{said}"
        );
        assert!(
            said.contains("`claud` is not an agent environment; did you mean `claude`?"),
            "{said}"
        );
        assert!(said.contains("did you mean `anthropic`?"), "{said}");
        assert!(
            said.contains("that is not the NAME of an environment variable"),
            "{said}"
        );
        assert!(
            !said.contains("MY KEY is"),
            "a wrong key answer is never echoed: {said}"
        );
        assert!(
            said.contains("`0` is not a whole number of at least 1"),
            "{said}"
        );
        assert_eq!(plan.config.scope_root, ScopeRoots::One("src/".into()));
        assert_eq!(
            plan.config.agent_environment,
            vec![AgentEnvironment::Claude]
        );
        assert_eq!(plan.config.llm.api_key_env.as_deref(), Some("MY_KEY"));
        assert_eq!(plan.config.token_budgets.start_here_tokens, 900);
        // The summary names everything that goes into the config.
        for row in [
            "llm.provider",
            "llm.model",
            "llm.base_url",
            "llm.api_key_env MY_KEY",
            "token_budgets",
            "START_HERE 900",
        ] {
            assert!(said.contains(row), "summary lacks {row}: {said}");
        }
        // Without a terminal the answers are not echoed: what is said next follows the prompt.
        for line in output.lines() {
            let after_prompt = line.rfind(": ").map_or(0, |at| at + 2);
            let said_part = &line[after_prompt..];
            assert!(
                said_part.chars().count() <= 60,
                "wider than the terminal: {line}"
            );
        }
    }

    #[test]
    fn the_end_of_input_takes_defaults_but_never_confirms() {
        let dir = tempfile::tempdir().unwrap();
        let (result, said) = run_wizard(dir.path(), "demo\n");
        assert!(result.expect("no error").is_none(), "{said}");
        assert!(said.contains("Create the library? (Y/n): "), "{said}");
    }
}
