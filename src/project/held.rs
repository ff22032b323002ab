//! The settings a project config that arrives with the code cannot decide alone: where design-file
//! requests — the sources, and a key from the environment — are sent.
//!
//! `.lexibrary/config.yaml` is committed, so a pull request can change it, and the post-commit hook
//! runs on whatever a pull request brings. A committed `llm.provider` (other than `structural`),
//! `llm.base_url` or `llm.api_key_env` would let any commit send the sources, and the value of any
//! environment variable (`api_key_env: GITHUB_TOKEN`), to any URL. So the loader takes those
//! settings out of the project's tree before merging ([`take`]): they are *held*, and the merged
//! [`Config`](super::Config) is what the person's own tiers say (the personal config, the
//! `LEXI_LLM_*` environment variables, else the defaults). A held setting applies only when this
//! clone confirmed exactly these values (`lexictl trust`, recorded outside the working tree by
//! `workspace::trust`); [`Held::llm_if_trusted`] is what the LLM settings are then.
//!
//! Everything else in the project config (scope, budgets, mapping, `llm.model`, `llm.concurrency`,
//! …) shapes the library but sends nothing anywhere, and applies as it always did.

use serde::Serialize;

use super::config::LlmConfig;

/// A setting that chooses where data goes or which credential is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Sensitive {
    /// `llm.provider` other than `structural`: sources leave the machine.
    Provider,
    /// `llm.base_url`: where they go.
    BaseUrl,
    /// `llm.api_key_env`: which environment variable is sent along.
    ApiKeyEnv,
}

impl Sensitive {
    pub const ALL: [Sensitive; 3] = [
        Sensitive::Provider,
        Sensitive::BaseUrl,
        Sensitive::ApiKeyEnv,
    ];

    /// The key under `llm:`.
    fn field(self) -> &'static str {
        match self {
            Sensitive::Provider => "provider",
            Sensitive::BaseUrl => "base_url",
            Sensitive::ApiKeyEnv => "api_key_env",
        }
    }

    /// The dotted name (`llm.base_url`), as the docs and messages write it.
    pub fn key(self) -> &'static str {
        match self {
            Sensitive::Provider => "llm.provider",
            Sensitive::BaseUrl => "llm.base_url",
            Sensitive::ApiKeyEnv => "llm.api_key_env",
        }
    }
}

impl Serialize for Sensitive {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.key())
    }
}

/// One held setting: what the project config says, and on which line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct HeldSetting {
    pub key: Sensitive,
    pub value: String,
    /// 1-based line of the setting in the config file.
    pub line: usize,
}

impl HeldSetting {
    /// The value as it may be shown: an `api_key_env` that is not a variable name may be a key
    /// pasted into the wrong place, and is never echoed.
    pub fn shown_value(&self) -> String {
        if self.key == Sensitive::ApiKeyEnv && !is_variable_name(&self.value) {
            "(not a variable name; not shown)".to_string()
        } else {
            self.value.clone()
        }
    }
}

/// The held settings of one project config.
#[derive(Clone, Debug, Default)]
pub struct Held {
    /// The config file, project-relative (`.lexibrary/config.yaml`).
    pub file: String,
    /// In the order of [`Sensitive::ALL`]; empty when the project config sets none of them.
    pub settings: Vec<HeldSetting>,
    /// The LLM settings as they are when the held settings apply (the project's values in their
    /// place between the personal config and the environment).
    pub llm_if_trusted: LlmConfig,
}

impl Held {
    pub fn is_empty(&self) -> bool {
        self.settings.is_empty()
    }

    /// SHA-256 of the held settings (key and value, one per line): what a trust record confirms.
    /// Lines and the rest of the file do not count: only the values decide where data goes.
    pub fn fingerprint(&self) -> String {
        let mut text = String::new();
        for setting in &self.settings {
            text.push_str(setting.key.key());
            text.push('=');
            text.push_str(&setting.value);
            text.push('\n');
        }
        crate::hash::sha256_hex(text.as_bytes())
    }

    /// The first line any of them is on (for `file:line` messages).
    pub fn first_line(&self) -> usize {
        self.settings.iter().map(|s| s.line).min().unwrap_or(1)
    }

    /// `llm.provider (line 5), llm.base_url (line 6) and llm.api_key_env (line 7)`.
    pub fn listed(&self) -> String {
        let items: Vec<String> = self
            .settings
            .iter()
            .map(|setting| format!("{} (line {})", setting.key.key(), setting.line))
            .collect();
        join_and(&items)
    }

    /// The setting for `key`, if held.
    pub fn get(&self, key: Sensitive) -> Option<&HeldSetting> {
        self.settings.iter().find(|setting| setting.key == key)
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn join_and(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Whether `name` can be an environment variable name: letters, digits and `_`, not starting with a
/// digit (what `llm.api_key_env` must be).
pub fn is_variable_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && !name.starts_with(|c: char| c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Take the sensitive settings out of the project config's `tree` (parsed from `text`), returning
/// them with their lines. `llm.provider: structural` is not sensitive and stays; a `null` is no
/// setting at all.
pub(super) fn take(tree: &mut serde_yaml::Value, text: &str) -> Vec<HeldSetting> {
    let Some(llm) = tree
        .as_mapping_mut()
        .and_then(|map| map.get_mut("llm"))
        .and_then(serde_yaml::Value::as_mapping_mut)
    else {
        return Vec::new();
    };
    let mut held = Vec::new();
    for key in Sensitive::ALL {
        let Some(value) = llm.get(key.field()) else {
            continue;
        };
        let Some(value) = scalar_text(value) else {
            continue;
        };
        if key == Sensitive::Provider && matches!(value.trim(), "" | "structural") {
            continue;
        }
        llm.remove(key.field());
        held.push(HeldSetting {
            key,
            value,
            line: line_of_llm_key(text, key.field()),
        });
    }
    held
}

/// A scalar as text; `None` for `null` (and for what is not a scalar, which validation refused).
fn scalar_text(value: &serde_yaml::Value) -> Option<String> {
    match value {
        serde_yaml::Value::String(text) => Some(text.clone()),
        serde_yaml::Value::Bool(flag) => Some(flag.to_string()),
        serde_yaml::Value::Number(number) => Some(number.to_string()),
        _ => None,
    }
}

/// The line of `field` under the top-level `llm:` key (block or flow style); the `llm:` line when
/// the key cannot be told apart, and 1 when even that is missing.
fn line_of_llm_key(text: &str, field: &str) -> usize {
    let lines: Vec<&str> = text.lines().collect();
    let Some(start) = lines
        .iter()
        .position(|line| line.starts_with("llm:") || line.starts_with("\"llm\":"))
    else {
        return 1;
    };
    for (offset, line) in lines[start..].iter().enumerate() {
        // The block ends at the next top-level key.
        if offset > 0 && line.starts_with(|c: char| !c.is_whitespace() && c != '#' && c != '}') {
            break;
        }
        let code = line.split(" #").next().unwrap_or(line);
        let found = code.match_indices(field).any(|(at, _)| {
            let before = code[..at].chars().next_back();
            let after = code[at + field.len()..].trim_start_matches(['"', '\'']);
            matches!(before, None | Some(' ' | '\t' | '{' | ',' | '"' | '\''))
                && after.trim_start().starts_with(':')
        });
        if found {
            return start + offset + 1;
        }
    }
    start + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    fn held(text: &str) -> (Vec<HeldSetting>, serde_yaml::Value) {
        let mut tree: serde_yaml::Value = serde_yaml::from_str(text).expect("yaml");
        let held = take(&mut tree, text);
        (held, tree)
    }

    #[test]
    fn the_sensitive_settings_are_taken_out_with_their_lines() {
        let text = "project_name: x\nllm:\n  model: m\n  provider: openai-compatible\n  # the server\n  base_url: http://127.0.0.1:9/v1\n  api_key_env: GITHUB_TOKEN\n  timeout: 5\n";
        let (settings, tree) = held(text);
        let keys: Vec<_> = settings.iter().map(|s| (s.key.key(), s.line)).collect();
        assert_eq!(
            keys,
            [
                ("llm.provider", 4),
                ("llm.base_url", 6),
                ("llm.api_key_env", 7)
            ]
        );
        assert_eq!(settings[1].value, "http://127.0.0.1:9/v1");
        let left = serde_yaml::to_string(&tree).expect("yaml");
        assert_eq!(left, "project_name: x\nllm:\n  model: m\n  timeout: 5\n");
    }

    #[test]
    fn flow_style_and_structural_and_null() {
        let text = "llm: {provider: anthropic, api_key_env: MY_KEY}\n";
        let (settings, _) = held(text);
        assert_eq!(settings.len(), 2);
        assert!(settings.iter().all(|s| s.line == 1));
        let (settings, tree) = held("llm:\n  provider: structural\n  base_url: null\n");
        assert!(settings.is_empty());
        assert_eq!(
            serde_yaml::to_string(&tree).expect("yaml"),
            "llm:\n  provider: structural\n  base_url: null\n"
        );
    }

    #[test]
    fn a_key_under_another_section_is_not_mistaken_for_the_llm_one() {
        let text = "ignore:\n  base_url: no\nllm:\n  base_url: http://x\n";
        assert_eq!(line_of_llm_key(text, "base_url"), 4);
        let text = "llm:\n  model: m\nother:\n  base_url: http://x\n";
        assert_eq!(line_of_llm_key(text, "base_url"), 1);
    }

    #[test]
    fn the_fingerprint_follows_the_values_only() {
        let one = |text: &str| Held {
            file: String::new(),
            settings: held(text).0,
            llm_if_trusted: LlmConfig::default(),
        };
        let a = one("llm:\n  provider: anthropic\n  base_url: http://a\n");
        let moved = one("project_name: p\n\nllm:\n  base_url: http://a\n  provider: anthropic\n");
        let other = one("llm:\n  provider: anthropic\n  base_url: http://b\n");
        assert_eq!(a.fingerprint(), moved.fingerprint());
        assert_ne!(a.fingerprint(), other.fingerprint());
        assert_eq!(
            a.listed(),
            "llm.provider (line 2) and llm.base_url (line 3)"
        );
    }

    #[test]
    fn a_key_in_the_wrong_place_is_never_shown() {
        let setting = HeldSetting {
            key: Sensitive::ApiKeyEnv,
            value: "sk-ant-api03-SECRET".into(),
            line: 1,
        };
        assert!(!setting.shown_value().contains("SECRET"));
    }
}
