//! Files that *are* credentials, whatever their name: a kubeconfig, a dotenv file holding secrets,
//! an AWS, netrc, pgpass, htpasswd, git, Docker, npm or PyPI credentials file, a cloud service
//! account key. The secrets denylist (`project::ignores`) knows their usual names; this knows
//! their content, so `conf`, `prod.yaml` or `secrets.env` is secret too. Such a file is never
//! documented and never sent to a model (`project::walk::sniff`).
//!
//! Cheap on ordinary files: one pass of a regex of telltale strings decides whether a closer look
//! is needed.

use std::sync::OnceLock;

use regex::bytes::Regex;

use super::{ascii_regex, looks_like_password, looks_random};

/// Strings at least one of which every credentials file below holds.
const TELLTALES: &str = concat!(
    r"(?m)kind:\s*Config\b|_authToken\s*=|^\s*_auth\s*=|^\s*_password\s*=|",
    r#""auths"\s*:|"type"\s*:\s*"service_account"|aws_secret_access_key|"#,
    r"^\s*machine\s+\S|^\[(?:pypi|testpypi|distutils)\]|^[^:\s#]+:[^:\s]*:[^:\s]*:[^:\s]+:\S|",
    r"^[^:\s#]+:(?:\$apr1\$|\$2[aby]\$|\{SHA\}|\$[56]\$)|^https?://[^:\s/@]+:[^@\s]+@|",
    r"^\s*(?:export\s+)?[A-Za-z_][A-Za-z0-9_]*=",
);

fn telltales() -> Option<&'static Regex> {
    static REGEX: OnceLock<Option<Regex>> = OnceLock::new();
    REGEX.get_or_init(|| ascii_regex(TELLTALES)).as_ref()
}

/// What kind of credentials file `bytes` is, if it is one.
pub fn credentials_file(bytes: &[u8]) -> Option<&'static str> {
    if !telltales()?.is_match(bytes) {
        return None;
    }
    let text = String::from_utf8_lossy(bytes);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#') && !line.starts_with(';'))
        .collect();
    if is_kubeconfig(&lines) {
        return Some("a kubeconfig");
    }
    if let Some(kind) = json_credentials(bytes) {
        return Some(kind);
    }
    let ini = is_ini(&lines);
    if lines.iter().any(|line| is_npm_auth_line(line)) && (ini || lines.len() <= 50) {
        return Some("an npm credentials file");
    }
    if ini && ini_value(&lines, "aws_secret_access_key").is_some() {
        return Some("an AWS credentials file");
    }
    if ini
        && lines
            .iter()
            .any(|line| is_section(line, &["pypi", "testpypi", "distutils"]))
        && ini_value(&lines, "password").is_some()
    {
        return Some("a PyPI credentials file");
    }
    let all = |test: fn(&str) -> bool| !lines.is_empty() && lines.iter().all(|line| test(line));
    if all(is_netrc_line) && lines.iter().any(|line| line.contains("password")) {
        return Some("a netrc file");
    }
    if all(is_git_credential) {
        return Some("a git credentials file");
    }
    if all(is_htpasswd_line) {
        return Some("an htpasswd file");
    }
    if all(is_pgpass_line) {
        return Some("a pgpass file");
    }
    if is_secret_dotenv(&lines) {
        return Some("a dotenv file with secrets");
    }
    None
}

/// A YAML document (it starts with a top-level kubeconfig key, not a heading or code) with
/// `apiVersion:`, `kind: Config` and the clusters, users or contexts lists.
fn is_kubeconfig(lines: &[&str]) -> bool {
    const KEYS: &[&str] = &[
        "apiVersion:",
        "kind:",
        "clusters:",
        "contexts:",
        "current-context:",
        "users:",
        "preferences:",
        "---",
    ];
    let starts_as_yaml = lines
        .first()
        .is_some_and(|first| KEYS.iter().any(|key| first.starts_with(key)));
    let top = |key: &str| lines.iter().any(|line| line.starts_with(key));
    starts_as_yaml
        && top("apiVersion:")
        && lines
            .iter()
            .any(|line| line.replace(' ', "") == "kind:Config")
        && (top("clusters:") || top("users:") || top("contexts:"))
}

/// A JSON credentials file: a Docker `config.json` whose `auths` hold an `auth`, or a cloud
/// service account key (`"type": "service_account"` with a `private_key`). Only a file that parses
/// as a JSON object counts (a source that mentions the keys does not).
fn json_credentials(bytes: &[u8]) -> Option<&'static str> {
    let value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let object = value.as_object()?;
    let docker = object
        .get("auths")
        .and_then(|auths| auths.as_object())
        .is_some_and(|auths| {
            auths.values().any(|entry| {
                entry
                    .get("auth")
                    .and_then(|auth| auth.as_str())
                    .is_some_and(|auth| !auth.is_empty())
            })
        });
    if docker {
        return Some("a Docker credentials file");
    }
    let service_account = object.get("type").and_then(|kind| kind.as_str())
        == Some("service_account")
        && object
            .get("private_key")
            .and_then(|key| key.as_str())
            .is_some_and(|key| !key.is_empty());
    service_account.then_some("a cloud service account key")
}

/// Every line a `[section]` or a `key = value` (or `key: value`) pair: an INI-style file.
fn is_ini(lines: &[&str]) -> bool {
    !lines.is_empty()
        && lines.iter().all(|line| {
            (line.starts_with('[') && line.ends_with(']'))
                || line.split_once(['=', ':']).is_some_and(|(key, _)| {
                    let key = key.trim();
                    !key.is_empty()
                        && key.chars().all(|c| {
                            c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | '/' | '@')
                        })
                })
        })
}

/// The value of `key` in an INI-style file, when it has a non-empty one.
fn ini_value<'a>(lines: &[&'a str], key: &str) -> Option<&'a str> {
    lines.iter().find_map(|line| {
        let (name, value) = line.split_once(['=', ':'])?;
        let value = value.trim();
        (name.trim() == key && !value.is_empty()).then_some(value)
    })
}

/// `_authToken=…`, `//registry.npmjs.org/:_authToken=…`, `_auth=…`, `_password=…`: a line of
/// an `.npmrc` that holds a credential (the key at the start of the line, a value after it).
fn is_npm_auth_line(line: &str) -> bool {
    let key_part = match line.strip_prefix("//") {
        Some(rest) => rest.split_once(":_").map(|(_, key)| key),
        None => line.strip_prefix('_'),
    };
    key_part
        .and_then(|key| key.split_once('='))
        .is_some_and(|(key, value)| {
            matches!(key.trim(), "authToken" | "auth" | "password") && !value.trim().is_empty()
        })
}

fn is_section(line: &str, names: &[&str]) -> bool {
    line.strip_prefix('[')
        .and_then(|rest| rest.strip_suffix(']'))
        .is_some_and(|name| names.contains(&name.trim()))
}

/// `machine host login user password pw`, or one of those pairs on its own line.
fn is_netrc_line(line: &str) -> bool {
    let words: Vec<&str> = line
        .split_whitespace()
        .skip_while(|word| *word == "default")
        .collect();
    words.len().is_multiple_of(2)
        && words.chunks(2).all(|pair| {
            matches!(
                pair[0],
                "machine" | "login" | "password" | "account" | "port"
            )
        })
}

/// `https://user:token@host` and nothing else.
fn is_git_credential(line: &str) -> bool {
    let Some((_, rest)) = line.split_once("://") else {
        return false;
    };
    let Some((userinfo, _)) = rest.split_once('@') else {
        return false;
    };
    !line.contains(char::is_whitespace)
        && userinfo
            .split_once(':')
            .is_some_and(|(user, secret)| !user.is_empty() && !secret.is_empty())
}

/// `user:$apr1$…`, `user:$2y$…`, `user:{SHA}…`.
fn is_htpasswd_line(line: &str) -> bool {
    line.split_once(':').is_some_and(|(user, hash)| {
        !user.is_empty()
            && !user.contains(char::is_whitespace)
            && ["$apr1$", "$2a$", "$2b$", "$2y$", "{SHA}", "$5$", "$6$"]
                .iter()
                .any(|prefix| hash.starts_with(prefix))
    })
}

/// `host:port:database:user:password`.
fn is_pgpass_line(line: &str) -> bool {
    let fields: Vec<&str> = line.split(':').collect();
    fields.len() == 5
        && !line.contains(char::is_whitespace)
        && fields.iter().all(|field| !field.is_empty())
        && (fields[1] == "*" || fields[1].chars().all(|c| c.is_ascii_digit()))
}

/// Every line `NAME=value` (or `export NAME=value`), and a name that says secret with a real
/// value: `DB_PASSWORD=s3cret1`, not `API_KEY=`, `API_KEY=<your key>` or `SECRET_KEY="config"`.
fn is_secret_dotenv(lines: &[&str]) -> bool {
    let assignments: Vec<(&str, &str)> = lines
        .iter()
        .filter_map(|line| {
            let line = line.strip_prefix("export ").unwrap_or(line);
            let (name, value) = line.split_once('=')?;
            let valid = !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            valid.then_some((name, value.trim().trim_matches(['"', '\''])))
        })
        .collect();
    if assignments.is_empty() || assignments.len() != lines.len() {
        return false;
    }
    assignments.iter().any(|(name, value)| {
        let name = name.to_ascii_uppercase();
        let secret_name = [
            "PASSWORD",
            "PASSWD",
            "SECRET",
            "TOKEN",
            "API_KEY",
            "APIKEY",
            "ACCESS_KEY",
            "PRIVATE_KEY",
            "CREDENTIAL",
            "AUTH",
        ]
        .iter()
        .any(|word| name.contains(word));
        // A real value: one that looks like a password or looks random (`SECRET_KEY="config"` in a
        // test fixture is neither).
        secret_name && (looks_like_password(value) || looks_random(value))
    })
}
