//! The configuration tiers: `$XDG_CONFIG_HOME/lexibrarian/config.yaml` (personal defaults) under
//! `.lexibrary/config.yaml` (the project's, which wins) under the `LEXI_LLM_*` environment variables
//! (the person's choice for one shell or CI job).
//!
//! Both files are parsed with serde into the same [`Config`] type. Every struct denies unknown keys, so a
//! typo is an error that names the file, the line and the closest valid key, instead of a setting that
//! silently does nothing. Each file is validated on its own (so errors point at the right file and line),
//! then the YAML trees are deep-merged and deserialised once more.
//!
//! The project config arrives with the code, so the settings that choose where data is sent are
//! held apart from it ([`super::held`]): the merged [`Config`] never carries a project's
//! `llm.provider`, `llm.base_url` or `llm.api_key_env`; `workspace::trust` decides whether this
//! clone confirmed them.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::held::{self, Held};

/// The whole configuration. Every field has a default, so an empty file is a valid config.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Human name of the project, shown in START_HERE.md.
    pub project_name: String,
    /// Directories (relative to the project root) whose files get design files. One path or a list.
    pub scope_root: ScopeRoots,
    /// Agent environments whose rule files `lexictl init` wrote: `claude`, `cursor`, `codex`.
    pub agent_environment: Vec<AgentEnvironment>,
    /// Claude Code's hooks (docs/agents.md).
    pub claude: ClaudeConfig,
    /// What the installed git hooks do beyond keeping the library current (docs/hooks.md).
    pub hooks: HooksConfig,
    pub iwh: IwhConfig,
    pub llm: LlmConfig,
    pub token_budgets: TokenBudgets,
    pub ignore: IgnoreConfig,
    pub daemon: DaemonConfig,
    pub crawl: CrawlConfig,
    pub ast: AstConfig,
    /// Mapping strategies by glob (`full`, `abridged`, `grouped`, `skip`; see `project::mapping`).
    pub mapping: super::mapping::MappingConfig,
}

/// `scope_root` accepts `src/` or `[src/, lib/]`; it is always handled as a list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ScopeRoots {
    One(String),
    Many(Vec<String>),
}

impl Default for ScopeRoots {
    fn default() -> Self {
        ScopeRoots::One(".".to_string())
    }
}

impl ScopeRoots {
    /// The roots as written, in order.
    pub fn as_list(&self) -> Vec<&str> {
        match self {
            ScopeRoots::One(root) => vec![root.as_str()],
            ScopeRoots::Many(roots) => roots.iter().map(String::as_str).collect(),
        }
    }
}

/// `claude:` — the Claude Code integration `lexictl setup` writes into `.claude/settings.json`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ClaudeConfig {
    /// Before every Edit, MultiEdit or Write, add a short `lexi lookup` of the file to the agent's
    /// context (a `PreToolUse` hook). Off by default; `lexictl setup --update` installs or removes
    /// the hook after a change.
    pub pre_edit_lookup: bool,
}

/// `hooks:` — what the installed git hooks may do at `git push` (docs/hooks.md "The team flow").
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HooksConfig {
    /// `warn` (the default): a push is never refused; one line on stderr when the last commit's
    /// library is not in it. `block`: a push of a commit whose committed library is not current
    /// (what `lexictl update --check` says of that commit) is refused. Notes pushes are never judged.
    pub pre_push: PrePushMode,
}

/// [`HooksConfig::pre_push`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PrePushMode {
    /// Never refuse a push; warn in one line when the last commit's library is not in it.
    #[default]
    Warn,
    /// Refuse a push of a commit whose committed library is not current.
    Block,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IwhConfig {
    pub enabled: bool,
}

impl Default for IwhConfig {
    fn default() -> Self {
        IwhConfig { enabled: true }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LlmConfig {
    /// `structural` (offline, the default), `anthropic`, `openai` or `openai-compatible`.
    pub provider: LlmProvider,
    pub model: Option<String>,
    /// The *name* of the environment variable holding the key. The key itself is never stored.
    pub api_key_env: Option<String>,
    pub base_url: Option<String>,
    pub concurrency: u32,
    /// Seconds per request.
    pub timeout: u64,
    pub max_retries: u32,
}

impl Default for LlmConfig {
    fn default() -> Self {
        LlmConfig {
            provider: LlmProvider::Structural,
            model: None,
            api_key_env: None,
            base_url: None,
            concurrency: 4,
            timeout: 60,
            max_retries: 3,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TokenBudgets {
    pub start_here_tokens: u32,
    pub design_file_tokens: u32,
    pub design_file_abridged_tokens: u32,
    pub aindex_tokens: u32,
    pub concept_file_tokens: u32,
}

impl Default for TokenBudgets {
    fn default() -> Self {
        TokenBudgets {
            start_here_tokens: 800,
            design_file_tokens: 400,
            design_file_abridged_tokens: 100,
            aindex_tokens: 200,
            concept_file_tokens: 400,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct IgnoreConfig {
    /// Honour `.gitignore` files (and `.git/info/exclude`).
    pub use_gitignore: bool,
    /// Extra gitignore-syntax patterns, applied after `.gitignore` and `.lexignore`.
    pub additional_patterns: Vec<String>,
}

impl Default for IgnoreConfig {
    fn default() -> Self {
        IgnoreConfig {
            use_gitignore: true,
            additional_patterns: Vec::new(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DaemonConfig {
    pub sweep_interval_seconds: u64,
    pub sweep_skip_if_unchanged: bool,
    pub log_level: String,
}

impl Default for DaemonConfig {
    fn default() -> Self {
        DaemonConfig {
            sweep_interval_seconds: 3600,
            sweep_skip_if_unchanged: true,
            log_level: "info".to_string(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct CrawlConfig {
    /// Files larger than this are listed in `.aindex` but get no design file.
    pub max_file_size_kb: u64,
    /// Extensions (without the dot) treated as binary without reading the file.
    pub binary_extensions: Vec<String>,
}

impl Default for CrawlConfig {
    fn default() -> Self {
        CrawlConfig {
            max_file_size_kb: 512,
            binary_extensions: DEFAULT_BINARY_EXTENSIONS
                .iter()
                .map(|ext| ext.to_string())
                .collect(),
        }
    }
}

/// Extensions that are binary often enough that reading them to find out is wasted work.
/// Content sniffing (a NUL byte in the first 8 KiB) catches everything else.
pub const DEFAULT_BINARY_EXTENSIONS: &[&str] = &[
    "7z", "a", "avi", "bin", "bmp", "br", "bz2", "class", "dll", "dylib", "eot", "exe", "flac",
    "gif", "gz", "ico", "jar", "jpeg", "jpg", "lz4", "mov", "mp3", "mp4", "o", "obj", "ogg", "otf",
    "pdf", "png", "pyc", "rlib", "so", "sqlite", "tar", "tgz", "ttf", "wasm", "wav", "webm",
    "webp", "whl", "woff", "woff2", "xz", "zip", "zst",
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct AstConfig {
    /// Languages parsed with tree-sitter for interfaces: `rust`, `javascript`, `typescript`, `python`.
    pub languages: Vec<AstLanguage>,
}

impl Default for AstConfig {
    fn default() -> Self {
        AstConfig {
            languages: AstLanguage::all(),
        }
    }
}

/// `llm.provider`: who writes the prose of design files.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum LlmProvider {
    /// Offline and deterministic: the structural Archivist (the default).
    #[default]
    #[serde(rename = "structural", alias = "")]
    Structural,
    #[serde(rename = "anthropic")]
    Anthropic,
    #[serde(rename = "openai")]
    OpenAi,
    /// Any server speaking OpenAI's chat completions API (Ollama, vLLM, llama.cpp, …).
    #[serde(rename = "openai-compatible")]
    OpenAiCompatible,
}

impl LlmProvider {
    pub const ALL: [LlmProvider; 4] = [
        LlmProvider::Structural,
        LlmProvider::Anthropic,
        LlmProvider::OpenAi,
        LlmProvider::OpenAiCompatible,
    ];

    /// The name as written in the config.
    pub fn name(self) -> &'static str {
        match self {
            LlmProvider::Structural => "structural",
            LlmProvider::Anthropic => "anthropic",
            LlmProvider::OpenAi => "openai",
            LlmProvider::OpenAiCompatible => "openai-compatible",
        }
    }
}

/// `agent_environment`: an agent whose rule file carries the Lexibrarian block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AgentEnvironment {
    /// Claude Code: `CLAUDE.md`.
    Claude,
    /// Cursor: `.cursor/rules/lexibrarian.mdc`.
    Cursor,
    /// OpenAI Codex and every agent that reads `AGENTS.md`.
    Codex,
}

impl AgentEnvironment {
    pub const ALL: [AgentEnvironment; 3] = [
        AgentEnvironment::Claude,
        AgentEnvironment::Cursor,
        AgentEnvironment::Codex,
    ];

    /// The name as written in the config.
    pub fn name(self) -> &'static str {
        match self {
            AgentEnvironment::Claude => "claude",
            AgentEnvironment::Cursor => "cursor",
            AgentEnvironment::Codex => "codex",
        }
    }

    /// The environment called `name` (as written in the config).
    pub fn from_name(name: &str) -> Option<AgentEnvironment> {
        AgentEnvironment::ALL
            .into_iter()
            .find(|environment| environment.name() == name)
    }
}

/// `ast.languages`: a language family whose public interface is parsed with tree-sitter; its
/// home is the language registry.
pub use crate::source::lang::AstLanguage;

/// Here rather than in the registry, so that the registry stays a leaf that `project/` may use.
impl crate::source::Language {
    /// Whether `config` asks for this language's interfaces to be parsed.
    pub fn enabled_in(self, config: &Config) -> bool {
        config.ast.languages.contains(&self.ast_language())
    }
}

impl std::fmt::Display for LlmProvider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::fmt::Display for AgentEnvironment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A config file that could not be used, with where and why.
#[derive(Debug)]
pub struct ConfigError {
    pub path: PathBuf,
    pub line: Option<usize>,
    pub message: String,
    pub hint: Option<String>,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        write!(f, ": {}", self.message)?;
        if let Some(hint) = &self.hint {
            write!(f, "\n  hint: {hint}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

/// Where the personal config lives: `$XDG_CONFIG_HOME/lexibrarian/config.yaml`, else
/// `$HOME/.config/lexibrarian/config.yaml`. `None` when neither variable is set.
pub fn global_config_path() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|value| !value.is_empty())
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("HOME")
                .filter(|value| !value.is_empty())
                .map(|home| PathBuf::from(home).join(".config"))
        })?;
    Some(base.join("lexibrarian").join("config.yaml"))
}

/// The variables of the environment tier: each sets the `llm` key it names, over both files.
pub const ENV_SETTINGS: [(&str, &str); 4] = [
    ("LEXI_LLM_PROVIDER", "provider"),
    ("LEXI_LLM_MODEL", "model"),
    ("LEXI_LLM_BASE_URL", "base_url"),
    ("LEXI_LLM_API_KEY_ENV", "api_key_env"),
];

/// Load the project at `root`'s configuration: the global config (if any) under the project config,
/// project winning, under the `LEXI_LLM_*` environment variables — except for the settings that
/// choose where data is sent (`llm.provider`, `llm.base_url`, `llm.api_key_env`; see
/// [`super::held`]), which the project config cannot decide alone: they are returned apart, as
/// [`Held`], and left out of the [`Config`].
///
/// A missing project config file is an error: every project has one. The project config is part of
/// the repository, so it is read without following symlinks (a symlink out of the repository is
/// refused, naming it); the personal config is the user's own and may be a link.
pub fn load_project(root: &Path) -> Result<(Config, Held), ConfigError> {
    let rel = format!("{}/{}", super::LIBRARY_DIR, super::CONFIG_FILE);
    let project_config = root.join(&rel);
    let text = crate::nofollow::read_to_string(root, &rel);
    load(&project_config, &rel, text)
}

/// Merge the global config (if any), the project config read from `project_config` and the
/// environment, holding the project's sensitive settings apart.
fn load(
    project_config: &Path,
    rel: &str,
    text: std::io::Result<String>,
) -> Result<(Config, Held), ConfigError> {
    let global = match global_config_path() {
        Some(path) if path.is_file() => {
            let text = std::fs::read_to_string(&path);
            Some(read_tree(&path, text)?)
        }
        _ => None,
    };
    let text = text.map_err(|err| ConfigError {
        path: project_config.to_path_buf(),
        line: None,
        message: format!("cannot read the config file: {err}"),
        hint: None,
    })?;
    let whole = parse_tree(project_config, &text)?;
    let mut project = whole.clone();
    let settings = held::take(&mut project, &text);
    let env = env_tree()?;
    let config = merged(project_config, global.clone(), project, env.clone())?;
    let mut held = Held {
        file: rel.to_string(),
        settings,
        llm_if_trusted: config.llm.clone(),
    };
    if !held.is_empty() {
        held.llm_if_trusted = merged(project_config, global, whole, env)?.llm;
    }
    Ok((config, held))
}

/// `global` under `project` under `env`, deserialised.
fn merged(
    project_config: &Path,
    global: Option<serde_yaml::Value>,
    project: serde_yaml::Value,
    env: serde_yaml::Value,
) -> Result<Config, ConfigError> {
    let mut merged = match global {
        Some(mut global) => {
            merge_into(&mut global, project);
            global
        }
        None => project,
    };
    merge_into(&mut merged, env);
    serde_yaml::from_value(merged).map_err(|err| ConfigError {
        path: project_config.to_path_buf(),
        line: None,
        message: format!("the merged global and project config is invalid: {err}"),
        hint: global_config_path().map(|path| format!("check {} as well", path.display())),
    })
}

/// The environment tier as a config tree (`{llm: {provider: …}}`; empty variables are unset).
/// An unknown provider name is an error naming the variable.
fn env_tree() -> Result<serde_yaml::Value, ConfigError> {
    let mut llm = serde_yaml::Mapping::new();
    for (variable, field) in ENV_SETTINGS {
        let Some(value) = std::env::var(variable)
            .ok()
            .filter(|v| !v.trim().is_empty())
        else {
            continue;
        };
        let value = value.trim().to_string();
        if field == "provider" && !LlmProvider::ALL.iter().any(|p| p.name() == value) {
            let names: Vec<&str> = LlmProvider::ALL.iter().map(|p| p.name()).collect();
            return Err(ConfigError {
                path: PathBuf::from(format!("${variable}")),
                line: None,
                message: format!("`{value}` is not an llm.provider"),
                hint: Some(format!("valid values: {}", names.join(", "))),
            });
        }
        llm.insert(field.into(), serde_yaml::Value::String(value));
    }
    let mut tree = serde_yaml::Mapping::new();
    if !llm.is_empty() {
        tree.insert("llm".into(), serde_yaml::Value::Mapping(llm));
    }
    Ok(serde_yaml::Value::Mapping(tree))
}

/// Parse and validate one config file text. `path` is only used in error messages.
pub fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
    let tree = parse_tree(path, text)?;
    serde_yaml::from_value(tree).map_err(|err| ConfigError {
        path: path.to_path_buf(),
        line: None,
        message: err.to_string(),
        hint: None,
    })
}

fn read_tree(path: &Path, text: std::io::Result<String>) -> Result<serde_yaml::Value, ConfigError> {
    let text = text.map_err(|err| ConfigError {
        path: path.to_path_buf(),
        line: None,
        message: format!("cannot read the config file: {err}"),
        hint: None,
    })?;
    parse_tree(path, &text)
}

/// Parse YAML and validate it against [`Config`], keeping the tree for merging.
fn parse_tree(path: &Path, text: &str) -> Result<serde_yaml::Value, ConfigError> {
    let tree: serde_yaml::Value = if text.trim().is_empty() {
        serde_yaml::Value::Mapping(Default::default())
    } else {
        serde_yaml::from_str(text).map_err(|err| yaml_error(path, text, &err))?
    };
    let tree = match tree {
        serde_yaml::Value::Null => serde_yaml::Value::Mapping(Default::default()),
        tree @ serde_yaml::Value::Mapping(_) => tree,
        _ => {
            return Err(ConfigError {
                path: path.to_path_buf(),
                line: Some(1),
                message: "the config must be a YAML mapping of keys to values".to_string(),
                hint: Some("start from the file `lexictl init` writes".to_string()),
            })
        }
    };
    // Deserialising from the text (not the tree) keeps line numbers in the error.
    if let Err(err) = serde_yaml::from_str::<Config>(text) {
        if !text.trim().is_empty() {
            return Err(yaml_error(path, text, &err));
        }
    }
    Ok(tree)
}

/// Turn a serde_yaml error into a [`ConfigError`] with a line number and, for an unknown key, the
/// closest valid key.
fn yaml_error(path: &Path, text: &str, err: &serde_yaml::Error) -> ConfigError {
    let mut message = err.to_string();
    let mut line = err.location().map(|location| location.line());
    // serde_yaml appends " at line L column C"; we print the line ourselves.
    if let Some(cut) = message.find(" at line ") {
        message.truncate(cut);
    }
    let mut hint = None;
    if let Some((unknown, expected)) = parse_unknown(&message, "unknown variant `") {
        hint = Some(match closest_key(&unknown, &expected) {
            Some(closest) => format!("did you mean `{closest}`?"),
            None => format!("valid values here: {}", expected.join(", ")),
        });
    }
    if let Some((unknown, expected)) = parse_unknown(&message, "unknown field `") {
        if let Some(closest) = closest_key(&unknown, &expected) {
            hint = Some(format!("did you mean `{closest}`?"));
        } else {
            hint = Some(format!("valid keys here: {}", expected.join(", ")));
        }
        if line.is_none() {
            line = find_key_line(text, &unknown);
        }
    }
    ConfigError {
        path: path.to_path_buf(),
        line,
        message,
        hint,
    }
}

/// serde's message is "unknown field `x`, expected one of `a`, `b`" (or "expected `a`"), and the
/// same with "unknown variant" for a value that is not one of an enum's names. `opening` is
/// "unknown field `" or "unknown variant `".
fn parse_unknown(message: &str, opening: &str) -> Option<(String, Vec<String>)> {
    let start = message.find(opening)?;
    let rest = &message[start + opening.len()..];
    let (unknown, rest) = rest.split_once('`')?;
    let expected = rest
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect();
    Some((unknown.to_string(), expected))
}

fn closest_key<'a>(unknown: &str, candidates: &'a [String]) -> Option<&'a str> {
    candidates
        .iter()
        .map(|candidate| (strsim::jaro_winkler(unknown, candidate), candidate))
        .filter(|(score, _)| *score > 0.7)
        .max_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, candidate)| candidate.as_str())
}

fn find_key_line(text: &str, key: &str) -> Option<usize> {
    text.lines()
        .position(|line| line.trim_start().starts_with(&format!("{key}:")))
        .map(|index| index + 1)
}

/// Deep-merge `overlay` into `base`: mappings merge key by key, anything else is replaced, and a
/// `null` in the overlay (e.g. `model: null` in a project config) leaves the base value alone.
fn merge_into(base: &mut serde_yaml::Value, overlay: serde_yaml::Value) {
    match (base, overlay) {
        (_, serde_yaml::Value::Null) => {}
        (serde_yaml::Value::Mapping(base), serde_yaml::Value::Mapping(overlay)) => {
            for (key, value) in overlay {
                match base.get_mut(&key) {
                    Some(existing) => merge_into(existing, value),
                    None => {
                        base.insert(key, value);
                    }
                }
            }
        }
        (base, overlay) => *base = overlay,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_text_is_the_default_config() {
        let config = parse(Path::new("c.yaml"), "").expect("empty config is valid");
        assert_eq!(config, Config::default());
    }

    #[test]
    fn scope_root_is_replaced_in_place() {
        let text = "# head\nproject_name: x\n# roots\nscope_root:\n- src/\n- tests/\n# agents\nagent_environment:\n- codex\n";
        let roots = ScopeRoots::Many(vec!["crates/".into(), "src/".into()]);
        let out = with_scope_root(text, &roots);
        assert_eq!(
            out,
            "# head\nproject_name: x\n# roots\nscope_root:\n- crates/\n- src/\n# agents\nagent_environment:\n- codex\n"
        );
        assert_eq!(
            parse(Path::new("c.yaml"), &out).expect("valid").scope_root,
            roots
        );
        let inline = with_scope_root(
            "scope_root: src/\niwh:\n  enabled: true\n",
            &ScopeRoots::One(".".into()),
        );
        assert_eq!(inline, "scope_root: .\niwh:\n  enabled: true\n");
        assert_eq!(
            with_scope_root("iwh: {}", &ScopeRoots::One("a/".into())),
            "iwh: {}\nscope_root: a/\n"
        );
    }

    #[test]
    fn scope_root_accepts_one_path_or_a_list() {
        let one = parse(Path::new("c.yaml"), "scope_root: src/\n").expect("valid");
        assert_eq!(one.scope_root.as_list(), vec!["src/"]);
        let many = parse(Path::new("c.yaml"), "scope_root: [src/, lib/]\n").expect("valid");
        assert_eq!(many.scope_root.as_list(), vec!["src/", "lib/"]);
    }

    #[test]
    fn unknown_key_names_line_and_closest_key() {
        let err = parse(
            Path::new("c.yaml"),
            "project_name: x\ntoken_budgets:\n  design_file_tokns: 3\n",
        )
        .expect_err("typo must be rejected");
        assert_eq!(err.line, Some(3));
        assert!(err.message.contains("design_file_tokns"), "{err}");
        assert_eq!(
            err.hint.as_deref(),
            Some("did you mean `design_file_tokens`?")
        );
    }

    #[test]
    fn unknown_values_are_errors_at_load_time_with_the_closest_name() {
        let err =
            parse(Path::new("c.yaml"), "agent_environment: [claud]\n").expect_err("unknown agent");
        assert!(err.message.contains("claud"), "{err}");
        assert_eq!(err.hint.as_deref(), Some("did you mean `claude`?"));
        let err = parse(Path::new("c.yaml"), "llm:\n  provider: gemini\n").expect_err("unknown");
        assert_eq!(err.line, Some(2), "{err}");
        assert!(err
            .hint
            .is_some_and(|hint| hint.contains("openai-compatible")));
        let err =
            parse(Path::new("c.yaml"), "ast:\n  languages: [rust, cobol]\n").expect_err("cobol");
        assert!(err.message.contains("`cobol`"), "{err}");
    }

    #[test]
    fn wrong_type_names_the_line() {
        let err = parse(Path::new("c.yaml"), "iwh:\n  enabled: maybe\n").expect_err("bad bool");
        assert_eq!(err.line, Some(2));
    }

    #[test]
    fn merge_keeps_global_keys_the_project_does_not_set() {
        let mut global: serde_yaml::Value =
            serde_yaml::from_str("llm:\n  provider: anthropic\n  model: m1\n").expect("yaml");
        let project: serde_yaml::Value = serde_yaml::from_str("llm:\n  model: m2\n").expect("yaml");
        merge_into(&mut global, project);
        let config: Config = serde_yaml::from_value(global).expect("valid");
        assert_eq!(config.llm.provider, LlmProvider::Anthropic);
        assert_eq!(config.llm.model.as_deref(), Some("m2"));
    }

    #[test]
    fn a_null_in_the_project_keeps_the_personal_value() {
        let mut global: serde_yaml::Value =
            serde_yaml::from_str("llm:\n  provider: anthropic\n  model: m1\n").expect("yaml");
        let project: serde_yaml::Value =
            serde_yaml::from_str("llm:\n  model: null\n  api_key_env: null\n").expect("yaml");
        merge_into(&mut global, project);
        let config: Config = serde_yaml::from_value(global).expect("valid");
        assert_eq!(config.llm.model.as_deref(), Some("m1"));
        assert_eq!(config.llm.api_key_env, None);
    }
}

/// `text` (a `config.yaml`) with its top-level `scope_root` set to `roots`, everything else —
/// comments, order, other keys — as it was: the key's line and the lines of its value are
/// replaced in place (the key is appended when there is none).
pub fn with_scope_root(text: &str, roots: &ScopeRoots) -> String {
    let mut map = serde_yaml::Mapping::new();
    let value = serde_yaml::to_value(roots).unwrap_or(serde_yaml::Value::Null);
    map.insert(serde_yaml::Value::String("scope_root".to_string()), value);
    let block = serde_yaml::to_string(&map).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = lines.iter().position(|line| {
        line.strip_prefix("scope_root")
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
    }) else {
        let mut out = text.to_string();
        if !out.is_empty() && !out.ends_with('\n') {
            out.push('\n');
        }
        out.push_str(&block);
        return out;
    };
    // The value's lines: list items and indented lines (blank lines inside count).
    let mut end = start + 1;
    while end < lines.len() {
        let line = lines[end];
        let continues = line.starts_with(' ') || line.starts_with('\t') || line.starts_with('-');
        if !continues {
            break;
        }
        end += 1;
    }
    let mut out: Vec<String> = lines[..start].iter().map(|l| l.to_string()).collect();
    out.extend(block.lines().map(str::to_string));
    out.extend(lines[end..].iter().map(|l| l.to_string()));
    let mut joined = out.join("\n");
    joined.push('\n');
    joined
}

/// Render `config` as the commented YAML file `lexictl init` writes. Keys that usually stay at their
/// defaults (the binary extension list, daemon settings) are left out unless they differ.
pub fn render(config: &Config) -> String {
    fn block<T: Serialize>(key: &str, value: &T) -> String {
        let mut map = serde_yaml::Mapping::new();
        let value = serde_yaml::to_value(value).unwrap_or(serde_yaml::Value::Null);
        map.insert(serde_yaml::Value::String(key.to_string()), value);
        serde_yaml::to_string(&map).unwrap_or_default()
    }
    let defaults = Config::default();
    let mut out = String::from(
        "# Lexibrarian project configuration (reference: docs/config.md).\n\
         # Personal defaults can live in ~/.config/lexibrarian/config.yaml; this file wins.\n\n",
    );
    out.push_str(&block("project_name", &config.project_name));
    out.push_str("# Directories whose files get design files: one path or a list. `.` is the whole project.\n");
    out.push_str(&block("scope_root", &config.scope_root));
    out.push_str(
        "# Agent environments whose rule files mention the library: claude, cursor, codex.\n",
    );
    out.push_str(&block("agent_environment", &config.agent_environment));
    if config.claude == defaults.claude {
        out.push_str(
            "# Claude Code: `pre_edit_lookup: true` adds a short `lexi lookup` of each file before it is\n\
             # edited (then run `lexictl setup --update`). Off by default.\n\
             # claude:\n\
             #   pre_edit_lookup: true\n",
        );
    } else {
        out.push_str(
            "# Claude Code hooks (docs/agents.md); run `lexictl setup --update` after a change.\n",
        );
        out.push_str(&block("claude", &config.claude));
    }
    out.push_str(
        "# I Was Here: ephemeral, gitignored notes agents leave for each other per directory.\n",
    );
    out.push_str(&block("iwh", &config.iwh));
    out.push_str(
        "# Who writes design files: `structural` (offline, deterministic, the default), `anthropic`,\n\
         # `openai` or `openai-compatible` (docs/llm.md). api_key_env is the NAME of the variable\n\
         # holding the key; the key itself is never stored, logged or sent anywhere but the provider.\n",
    );
    if config.llm == defaults.llm {
        // Unset here, so a personal config's provider applies (seed §10: global defaults).
        out.push_str(
            "# Unset here: your personal config decides, else `structural`. For example:\n\
             # llm:\n\
             #   provider: anthropic\n\
             #   api_key_env: ANTHROPIC_API_KEY\n",
        );
    } else {
        // Only the keys that are set: a `null` here would read as "no value" anyway.
        let mut llm = serde_yaml::to_value(&config.llm).unwrap_or(serde_yaml::Value::Null);
        if let serde_yaml::Value::Mapping(map) = &mut llm {
            map.retain(|_, value| !value.is_null());
        }
        out.push_str(&block("llm", &llm));
    }
    out.push_str("# Target sizes, in tokens, that `lexictl validate` checks.\n");
    out.push_str(&block("token_budgets", &config.token_budgets));
    out.push_str("# Layered on .gitignore and .lexignore; secrets (.env*, *.pem, *.key, …) are always ignored.\n");
    out.push_str(&block("ignore", &config.ignore));
    if config.mapping != defaults.mapping {
        out.push_str(
            "# How files are documented, by gitignore-style glob: full, abridged, grouped (one group\n\
             # file per directory) or skip; tried before the built-in defaults (docs/config.md).\n\
             # init groups the directories it found holding only data-driven test cases.\n",
        );
        out.push_str(&block("mapping", &config.mapping));
    }
    if config.daemon != defaults.daemon {
        out.push_str(&block("daemon", &config.daemon));
    }
    out.push_str("# Files over max_file_size_kb are listed in .aindex but get no design file.\n");
    if config.crawl.binary_extensions == defaults.crawl.binary_extensions {
        let mut crawl = serde_yaml::Mapping::new();
        crawl.insert(
            serde_yaml::Value::String("max_file_size_kb".into()),
            serde_yaml::Value::Number(config.crawl.max_file_size_kb.into()),
        );
        out.push_str(&block("crawl", &crawl));
    } else {
        out.push_str(&block("crawl", &config.crawl));
    }
    out.push_str("# Languages parsed for public interfaces.\n");
    out.push_str(&block("ast", &config.ast));
    out
}

#[cfg(test)]
mod render_tests {
    use super::*;

    #[test]
    fn rendered_config_parses_back_to_itself() {
        let config = Config {
            project_name: "demo: the sequel".into(),
            scope_root: ScopeRoots::Many(vec!["src/".into(), "lib/".into()]),
            agent_environment: vec![AgentEnvironment::Claude],
            ..Config::default()
        };
        let text = render(&config);
        assert_eq!(parse(Path::new("c.yaml"), &text).expect("valid"), config);
        assert!(
            !text.contains("\nllm:"),
            "default llm settings are left to the personal config"
        );
        let config = Config {
            llm: LlmConfig {
                provider: LlmProvider::Anthropic,
                api_key_env: Some("ANTHROPIC_API_KEY".into()),
                ..LlmConfig::default()
            },
            ..config
        };
        let text = render(&config);
        assert!(text.contains("\nllm:\n  provider: anthropic\n"), "{text}");
        assert!(!text.contains("null"), "{text}");
        assert_eq!(parse(Path::new("c.yaml"), &text).expect("valid"), config);
    }
}
