//! The LLM Archivist: a model writes the prose of a design file — the description, what callers must
//! know beyond the signatures, the dragons, tags — and the structural Archivist supplies the facts
//! (the interface skeleton, dependencies, dependents, tests, measured complexity signals).
//!
//! Settings come from `llm.*` in the config ([`LlmSettings::from_config`]) and are checked before
//! anything runs; the key is read once, from the environment variable `llm.api_key_env` names
//! ([`LlmSettings::read_key`]), so a missing key fails in milliseconds and writes nothing. The key
//! lives in an [`ApiKey`], whose `Debug` prints no secret, and is scrubbed from every error message.
//!
//! Providers: [`anthropic`] (Messages API) and [`openai`] (Chat Completions, for OpenAI and for
//! OpenAI-compatible servers such as Ollama or vLLM). [`http`] does retries, backoff and timeouts
//! (and bounds the answer's size), [`prompt`] builds the request from the templates in
//! `src/archivist/prompts/`, [`response`] reads the answer back into sections and [`cap`] keeps
//! what is taken from it within the design file's budget.

pub mod anthropic;
pub mod cap;
pub mod http;
pub mod openai;
pub mod prompt;
pub mod response;

use std::sync::OnceLock;
use std::time::{Duration, Instant};

use anyhow::anyhow;

use super::structural::{complexity_warnings, StructuralArchivist};
use super::{Archivist, ArchivistInput, ArchivistOutput, Generation, OverBudget, OWNED_SECTIONS};
use crate::library::design_file::sections;
use crate::library::markdown::Section;
use crate::project::config::{Config, LlmConfig, LlmProvider};

/// Where the configuration lives, for error messages.
const CONFIG_FILES: &str =
    ".lexibrary/config.yaml, ~/.config/lexibrarian/config.yaml or the LEXI_LLM_* variables";

/// A provider that speaks to a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provider {
    Anthropic,
    OpenAi,
    OpenAiCompatible,
}

impl Provider {
    /// The name used in the config and in provenance.
    pub fn name(self) -> &'static str {
        match self {
            Provider::Anthropic => "anthropic",
            Provider::OpenAi => "openai",
            Provider::OpenAiCompatible => "openai-compatible",
        }
    }

    fn default_key_env(self) -> Option<&'static str> {
        match self {
            Provider::Anthropic => Some("ANTHROPIC_API_KEY"),
            Provider::OpenAi => Some("OPENAI_API_KEY"),
            // A local server usually needs no key; name a variable to send one.
            Provider::OpenAiCompatible => None,
        }
    }

    fn default_base_url(self) -> Option<&'static str> {
        match self {
            Provider::Anthropic => Some(anthropic::DEFAULT_BASE_URL),
            Provider::OpenAi => Some(openai::DEFAULT_BASE_URL),
            Provider::OpenAiCompatible => None,
        }
    }

    fn default_model(self) -> Option<&'static str> {
        match self {
            Provider::Anthropic => Some("claude-sonnet-4-5"),
            Provider::OpenAi => Some("gpt-4.1-mini"),
            Provider::OpenAiCompatible => None,
        }
    }
}

/// An API key read from the environment. It is never written anywhere: `Debug` shows no part of it,
/// there is no `Display`, and [`ApiKey::redact`] scrubs it from any text that might echo it.
pub struct ApiKey(String);

impl ApiKey {
    /// The secret, for the one header that carries it.
    pub fn expose(&self) -> &str {
        &self.0
    }

    /// `text` with every occurrence of the key replaced by `[redacted]`.
    pub fn redact(&self, text: &str) -> String {
        if self.0.is_empty() {
            text.to_string()
        } else {
            text.replace(&self.0, "[redacted]")
        }
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey([redacted])")
    }
}

/// Validated `llm.*` settings for a model provider.
#[derive(Clone, Debug)]
pub struct LlmSettings {
    pub provider: Provider,
    pub model: String,
    /// Without a trailing slash.
    pub base_url: String,
    /// The variable holding the key; `None` sends no key (openai-compatible only).
    pub key_env: Option<String>,
    /// Requests in flight at most.
    pub concurrency: usize,
    pub timeout: Duration,
    pub max_retries: u32,
    /// `token_budgets.design_file_tokens`.
    pub budget: usize,
}

impl LlmSettings {
    /// The settings for the configured provider; `None` for `structural`. Errors name the key to fix.
    pub fn from_config(config: &Config) -> anyhow::Result<Option<LlmSettings>> {
        LlmSettings::from_llm(&config.llm, config.token_budgets.design_file_tokens)
    }

    /// The settings `llm` names (as `workspace::Workspace::llm` resolved them: a project's held
    /// settings only where this clone trusts them), writing within `design_file_tokens`.
    pub fn from_llm(
        llm: &LlmConfig,
        design_file_tokens: u32,
    ) -> anyhow::Result<Option<LlmSettings>> {
        let provider = match llm.provider {
            LlmProvider::Structural => return Ok(None),
            LlmProvider::Anthropic => Provider::Anthropic,
            LlmProvider::OpenAi => Provider::OpenAi,
            LlmProvider::OpenAiCompatible => Provider::OpenAiCompatible,
        };
        let model = match llm.model.as_deref().map(str::trim).filter(|m| !m.is_empty()) {
            Some(model) => model.to_string(),
            None => provider.default_model().map(str::to_string).ok_or_else(|| {
                anyhow!(
                    "llm.model is not set: {} needs the name of a model the server has, e.g. `llama3.1` for Ollama (in {CONFIG_FILES})",
                    provider.name()
                )
            })?,
        };
        let base_url = match llm.base_url.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
            Some(url) => url.trim_end_matches('/').to_string(),
            None => provider.default_base_url().map(str::to_string).ok_or_else(|| {
                anyhow!(
                    "llm.base_url is not set: openai-compatible needs the server's URL, e.g. http://localhost:11434/v1 for Ollama (in {CONFIG_FILES})"
                )
            })?,
        };
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(anyhow!(
                "llm.base_url `{base_url}` must start with http:// or https:// (in {CONFIG_FILES})"
            ));
        }
        let key_env = match llm.api_key_env.as_deref().map(str::trim) {
            Some(name) if is_variable_name(name) => Some(name.to_string()),
            // Never echo the value: it may be the key itself, pasted into the wrong place.
            Some(_) => {
                return Err(anyhow!(
                    "llm.api_key_env must be the NAME of an environment variable (letters, digits and _, e.g. ANTHROPIC_API_KEY), not the key itself (in {CONFIG_FILES})"
                ))
            }
            None => provider.default_key_env().map(str::to_string),
        };
        if llm.concurrency == 0 {
            return Err(anyhow!(
                "llm.concurrency must be at least 1 (in {CONFIG_FILES})"
            ));
        }
        if llm.timeout == 0 {
            return Err(anyhow!(
                "llm.timeout must be at least 1 second (in {CONFIG_FILES})"
            ));
        }
        Ok(Some(LlmSettings {
            provider,
            model,
            base_url,
            key_env,
            concurrency: llm.concurrency as usize,
            timeout: Duration::from_secs(llm.timeout),
            max_retries: llm.max_retries,
            budget: design_file_tokens as usize,
        }))
    }

    /// Pre-flight: read the key from its variable. A missing or empty key is an error naming the
    /// variable (never its value). `None` when this provider sends no key.
    pub fn read_key(&self) -> anyhow::Result<Option<ApiKey>> {
        let Some(name) = &self.key_env else {
            return Ok(None);
        };
        match std::env::var(name) {
            Ok(value) if !value.trim().is_empty() => Ok(Some(ApiKey(value.trim().to_string()))),
            Ok(_) => Err(anyhow!(
                "{name} is set but empty: llm.provider is {} and reads its API key from {name}. Set it, or use `llm.provider: structural` (offline). Nothing was written.",
                self.provider.name()
            )),
            Err(std::env::VarError::NotPresent) => Err(anyhow!(
                "{name} is not set: llm.provider is {} and reads its API key from {name} (llm.api_key_env). Export it, or use `llm.provider: structural` (offline). Nothing was written.",
                self.provider.name()
            )),
            Err(std::env::VarError::NotUnicode(_)) => Err(anyhow!(
                "{name} is not valid UTF-8, so it cannot be an API key. Nothing was written."
            )),
        }
    }

    /// The cl100k token count of the prompt this file would be sent with (for `--dry-run`).
    pub fn estimate_input_tokens(&self, input: &ArchivistInput<'_>) -> usize {
        let prompt = prompt::build(input, self.budget);
        crate::tokens::count(&prompt.system) + crate::tokens::count(&prompt.user)
    }

    /// The most output tokens asked for: room for four times the budget, so an answer over budget is
    /// seen whole (and flagged) rather than cut off.
    fn max_output_tokens(&self) -> u32 {
        u32::try_from(self.budget.saturating_mul(4).clamp(1024, 8192)).unwrap_or(8192)
    }
}

pub use crate::project::held::is_variable_name;

/// What a provider answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Completion {
    pub text: String,
    pub tokens_in: Option<u64>,
    pub tokens_out: Option<u64>,
    /// The answer hit the output limit.
    pub truncated: bool,
}

/// The Archivist that asks a model.
pub struct LlmArchivist {
    settings: LlmSettings,
    key: Option<ApiKey>,
    http: http::Http,
    /// Set by the first 401/403: every later file fails at once with this reason.
    refused: OnceLock<String>,
}

impl LlmArchivist {
    pub fn new(settings: LlmSettings, key: Option<ApiKey>) -> LlmArchivist {
        let http = http::Http::new(settings.timeout, settings.max_retries);
        LlmArchivist {
            settings,
            key,
            http,
            refused: OnceLock::new(),
        }
    }

    pub fn settings(&self) -> &LlmSettings {
        &self.settings
    }

    /// Send a prompt to the provider.
    fn complete(&self, system: &str, user: &str) -> anyhow::Result<Completion> {
        if let Some(reason) = self.refused.get() {
            return Err(anyhow!("not sent: {reason}"));
        }
        let settings = &self.settings;
        let key = self.key.as_ref();
        let max_tokens = settings.max_output_tokens();
        let (url, headers, body) = match settings.provider {
            Provider::Anthropic => (
                anthropic::endpoint(&settings.base_url),
                anthropic::headers(key),
                anthropic::request(&settings.model, system, user, max_tokens),
            ),
            provider => (
                openai::endpoint(&settings.base_url),
                openai::headers(key),
                openai::request(
                    &settings.model,
                    system,
                    user,
                    max_tokens,
                    provider == Provider::OpenAiCompatible,
                ),
            ),
        };
        let answer = match self.http.post_json(&url, &headers, &body, key) {
            Ok(answer) => answer,
            Err(http::CallError::Refused(reason)) => {
                let reason = match &settings.key_env {
                    Some(name) => format!("{reason} — check the key in {name}"),
                    None => reason,
                };
                let _ = self.refused.set(reason.clone());
                return Err(anyhow!(reason));
            }
            Err(http::CallError::Failed(reason)) => return Err(anyhow!(reason)),
        };
        let completion = match settings.provider {
            Provider::Anthropic => anthropic::completion(&answer),
            _ => openai::completion(&answer),
        }
        .map_err(|reason| anyhow!("{reason} (from {url})"))?;
        if completion.truncated {
            return Err(anyhow!(
                "the model's answer was cut off at the output limit ({max_tokens} tokens)"
            ));
        }
        Ok(completion)
    }
}

impl Archivist for LlmArchivist {
    fn name(&self) -> &str {
        self.settings.provider.name()
    }

    fn keeps_contract_on_content_only(&self) -> bool {
        true
    }

    fn describe(&self, input: &ArchivistInput<'_>) -> anyhow::Result<ArchivistOutput> {
        let started = Instant::now();
        let facts = StructuralArchivist.describe(input)?;
        let prompt = prompt::build(input, self.settings.budget);
        let completion = self.complete(&prompt.system, &prompt.user)?;
        let budget = self.settings.budget;
        let answer = response::parse(cap::head(&completion.text, budget))
            .map_err(|reason| anyhow!(reason))?;
        let tokens = cap::answer_tokens(completion.text.trim(), budget);
        let over_budget = (budget > 0 && tokens > budget).then_some(OverBudget { tokens, budget });
        // Never more of it than the budget: a 5 MB answer does not become a 5 MB design file.
        let answer = cap::cap(&answer, budget, tokens).unwrap_or(answer);
        let measured = input.interface.map(complexity_warnings).unwrap_or_default();
        Ok(ArchivistOutput {
            description: answer.description.clone(),
            sections: merge(facts.sections, &answer, &measured),
            generation: Generation {
                generator: self.name().to_string(),
                model: Some(self.settings.model.clone()),
                prompt_version: Some(prompt.template.label()),
                prompt_hash: Some(prompt.template.hash()),
                tokens_in: completion.tokens_in,
                tokens_out: completion.tokens_out,
                duration_ms: u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX),
            },
            over_budget,
        })
    }
}

/// The structural facts with the model's prose: its notes under the interface skeleton, the measured
/// signals followed by its dragons, and the union of both tag lists. Sections in [`OWNED_SECTIONS`]
/// order.
fn merge(facts: Vec<Section>, answer: &response::Answer, measured: &[String]) -> Vec<Section> {
    let mut out: Vec<Section> = facts
        .into_iter()
        .filter(|section| {
            !section
                .heading
                .eq_ignore_ascii_case(sections::COMPLEXITY_WARNING)
        })
        .collect();
    if let Some(notes) = &answer.contract {
        match out
            .iter_mut()
            .find(|s| s.heading.eq_ignore_ascii_case(sections::INTERFACE_CONTRACT))
        {
            Some(contract) => {
                contract.body = format!("{}\n\n{notes}", contract.body);
            }
            None => out.push(Section::new(sections::INTERFACE_CONTRACT, notes.clone())),
        }
    }
    let mut warning: Vec<String> = measured.to_vec();
    warning.extend(answer.complexity.clone());
    if !warning.is_empty() {
        out.push(Section::new(
            sections::COMPLEXITY_WARNING,
            warning.join("\n"),
        ));
    }
    if !answer.tags.is_empty() {
        let mut tags: Vec<String> = out
            .iter()
            .find(|s| s.heading.eq_ignore_ascii_case(sections::TAGS))
            .map(|s| {
                s.body
                    .lines()
                    .map(|line| line.trim_start_matches("- ").to_string())
                    .collect()
            })
            .unwrap_or_default();
        tags.extend(answer.tags.iter().cloned());
        tags.sort();
        tags.dedup();
        out.retain(|s| !s.heading.eq_ignore_ascii_case(sections::TAGS));
        out.push(Section::new(
            sections::TAGS,
            super::structural::tag_list(&tags),
        ));
    }
    let rank = |section: &Section| {
        OWNED_SECTIONS
            .iter()
            .position(|owned| owned.eq_ignore_ascii_case(&section.heading))
            .unwrap_or(usize::MAX)
    };
    out.sort_by_key(rank);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::config::Config;

    fn config(yaml: &str) -> Config {
        crate::project::config::parse(std::path::Path::new("c.yaml"), yaml).expect("valid")
    }

    #[test]
    fn structural_needs_no_settings() {
        assert!(LlmSettings::from_config(&Config::default())
            .expect("ok")
            .is_none());
    }

    #[test]
    fn providers_get_their_defaults() {
        let settings = LlmSettings::from_config(&config("llm:\n  provider: anthropic\n"))
            .expect("ok")
            .expect("llm");
        assert_eq!(settings.base_url, "https://api.anthropic.com");
        assert_eq!(settings.key_env.as_deref(), Some("ANTHROPIC_API_KEY"));
        let local = LlmSettings::from_config(&config(
            "llm:\n  provider: openai-compatible\n  model: llama3.1\n  base_url: http://localhost:11434/v1/\n",
        ))
        .expect("ok")
        .expect("llm");
        assert_eq!(local.base_url, "http://localhost:11434/v1");
        assert_eq!(local.key_env, None);
        assert!(local.read_key().expect("no key needed").is_none());
    }

    #[test]
    fn bad_settings_name_the_key_and_never_echo_a_pasted_key() {
        let err =
            LlmSettings::from_config(&config("llm:\n  provider: openai-compatible\n  model: m\n"))
                .expect_err("no url");
        assert!(err.to_string().contains("llm.base_url is not set"), "{err}");
        let err = LlmSettings::from_config(&config(
            "llm:\n  provider: anthropic\n  api_key_env: sk-ant-api03-SECRET\n",
        ))
        .expect_err("a key where a name belongs");
        assert!(!err.to_string().contains("SECRET"), "{err}");
        assert!(
            err.to_string().contains("NAME of an environment variable"),
            "{err}"
        );
    }

    #[test]
    fn the_key_never_shows_in_debug_output() {
        let key = ApiKey("sk-secret-value".into());
        assert_eq!(format!("{key:?}"), "ApiKey([redacted])");
        assert_eq!(key.redact("a sk-secret-value b"), "a [redacted] b");
    }

    #[test]
    fn merge_keeps_facts_and_adds_the_prose() {
        let facts = vec![
            Section::new("Interface Contract", "```rust\npub fn f()\n```"),
            Section::new("Dependencies", "(none)"),
            Section::new("Tags", "- rust"),
        ];
        let answer = response::Answer {
            description: "d".into(),
            contract: Some("Panics on empty input.".into()),
            complexity: Some("- Not thread-safe.".into()),
            tags: vec!["parsing".into(), "rust".into()],
        };
        let merged = merge(facts, &answer, &["- 1 `unsafe` block.".to_string()]);
        assert_eq!(
            merged,
            vec![
                Section::new(
                    "Interface Contract",
                    "```rust\npub fn f()\n```\n\nPanics on empty input."
                ),
                Section::new("Dependencies", "(none)"),
                Section::new(
                    "Complexity Warning",
                    "- 1 `unsafe` block.\n- Not thread-safe."
                ),
                Section::new("Tags", "- parsing\n- rust"),
            ]
        );
    }
}
