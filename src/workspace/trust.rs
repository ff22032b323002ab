//! Whether this clone confirmed the project config's held settings (`llm.provider`, `llm.base_url`,
//! `llm.api_key_env`: see `project::held`), and the record of that confirmation.
//!
//! A committed config alone never decides where sources and keys are sent: a person confirms the
//! exact values once per clone with `lexictl trust` (as `direnv allow` or `mise trust` do), which
//! records a SHA-256 of them ([`Held::fingerprint`]) in a file no commit can reach:
//!
//! - in git, `$(git rev-parse --git-common-dir)/lexibrarian/trusted.json` — per clone, shared by its
//!   worktrees, never committed, never cloned;
//! - outside git, `$XDG_STATE_HOME/lexibrarian/trusted.json` (else `~/.local/state/…`), keyed by
//!   the project's absolute path; with neither variable set nothing can be trusted.
//!
//! The record holds every set of values the person confirmed for the project, so switching between
//! branches that differ does not ask twice; a commit (a pull request) that changes any value makes
//! the fingerprint differ, and the settings are ignored and reported again ([`Trust::Changed`])
//! until the person runs `lexictl trust` again. An unreadable record is no record: nothing trusted.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::git::GitRepo;
use crate::project::held::{join_and, Held};
use crate::project::{config, Project};

/// The record file's name.
const RECORD_FILE: &str = "trusted.json";
/// Confirmed sets of values kept per project (the oldest go first).
const KEEP_PER_PROJECT: usize = 20;

/// What this clone says about the project config's held settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Trust {
    /// The project config holds none: nothing to confirm.
    NothingHeld,
    /// This clone confirmed exactly these values: they apply.
    Trusted,
    /// Never confirmed here: ignored.
    NotConfirmed,
    /// Confirmed here once, with other values (a commit changed them): ignored. The keys whose
    /// values differ from the last confirmation.
    Changed { keys: Vec<&'static str> },
}

impl Trust {
    /// Whether the held settings apply.
    pub fn applies(&self) -> bool {
        matches!(self, Trust::Trusted | Trust::NothingHeld)
    }
}

/// Why the held settings are ignored, worded for `file:line: message` and a hint line: what
/// `lexictl update` prints (and so the hook log), `lexictl status` and `lexictl validate`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Notice {
    /// `.lexibrary/config.yaml`.
    pub file: String,
    pub line: usize,
    pub message: String,
    pub hint: String,
    /// A confirmed value changed (a commit changed where data goes), rather than never confirmed.
    pub changed: bool,
}

impl std::fmt::Display for Notice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}:{}: {}\n  hint: {}",
            self.file, self.line, self.message, self.hint
        )
    }
}

/// The notice for `held` under `trust`; `None` when the settings apply.
pub fn notice(held: &Held, trust: &Trust) -> Option<Notice> {
    let message = match trust {
        Trust::NothingHeld | Trust::Trusted => return None,
        Trust::NotConfirmed => format!(
            "{} {} set by the project config and not confirmed on this clone, so {} ignored: a config that arrives with the code never chooses alone where sources and keys are sent",
            held.listed(),
            if held.settings.len() == 1 { "is" } else { "are" },
            if held.settings.len() == 1 { "it is" } else { "they are" },
        ),
        Trust::Changed { keys } => format!(
            "{} changed since this clone confirmed the project's LLM settings, so {} ignored until you confirm them again",
            join_and(&keys.iter().map(|key| key.to_string()).collect::<Vec<_>>()),
            if held.settings.len() == 1 { "it is" } else { "they are all" },
        ),
    };
    let personal = config::global_config_path()
        .map_or("your personal config".to_string(), |path| {
            path.display().to_string()
        });
    Some(Notice {
        file: held.file.clone(),
        line: held.first_line(),
        message,
        hint: format!(
            "`lexictl trust --show` shows the values; `lexictl trust` confirms them for this clone (or set them in {personal})"
        ),
        changed: matches!(trust, Trust::Changed { .. }),
    })
}

/// The record of what a clone (or, outside git, a person) confirmed.
#[derive(Clone, Debug)]
pub struct TrustStore {
    /// The record file.
    pub path: PathBuf,
    /// The project it is about: its path in the working tree (`.` at the root), or outside git its
    /// absolute path.
    project: String,
}

/// The record file's contents.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Records {
    v: u32,
    trusted: Vec<Record>,
}

/// One confirmation.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct Record {
    project: String,
    /// [`Held::fingerprint`] of the confirmed values.
    sha256: String,
    /// The values, key by key (to say which changed).
    settings: BTreeMap<String, String>,
    /// When (RFC 3339 UTC).
    trusted_at: String,
}

impl TrustStore {
    /// Where `project`'s confirmations are recorded; `None` outside git with neither
    /// `XDG_STATE_HOME` nor `HOME` set.
    pub fn locate(project: &Project, repo: Option<&GitRepo>) -> Option<TrustStore> {
        if let Some(repo) = repo {
            let prefix = repo.prefix_of(&project.root).unwrap_or_default();
            return Some(TrustStore {
                path: repo.clone_dir().join(RECORD_FILE),
                project: if prefix.is_empty() {
                    ".".into()
                } else {
                    prefix
                },
            });
        }
        let base = std::env::var_os("XDG_STATE_HOME")
            .filter(|value| !value.is_empty())
            .map(PathBuf::from)
            .or_else(|| {
                std::env::var_os("HOME")
                    .filter(|value| !value.is_empty())
                    .map(|home| PathBuf::from(home).join(".local/state"))
            })?;
        let root = project
            .root
            .canonicalize()
            .unwrap_or_else(|_| project.root.clone());
        Some(TrustStore {
            path: base.join("lexibrarian").join(RECORD_FILE),
            project: root.display().to_string(),
        })
    }

    /// What the record says about `held`.
    pub fn assess(&self, held: &Held) -> Trust {
        if held.is_empty() {
            return Trust::NothingHeld;
        }
        let fingerprint = held.fingerprint();
        let records = read(&self.path);
        let mine: Vec<&Record> = records
            .trusted
            .iter()
            .filter(|record| record.project == self.project)
            .collect();
        if mine.iter().any(|record| record.sha256 == fingerprint) {
            return Trust::Trusted;
        }
        match mine.last() {
            None => Trust::NotConfirmed,
            Some(last) => Trust::Changed {
                keys: changed_keys(&last.settings, held),
            },
        }
    }

    /// Record that the person confirmed `held`'s values for this project.
    pub fn confirm(&self, held: &Held) -> std::io::Result<()> {
        let fingerprint = held.fingerprint();
        let mut records = read(&self.path);
        records
            .trusted
            .retain(|record| !(record.project == self.project && record.sha256 == fingerprint));
        records.trusted.push(Record {
            project: self.project.clone(),
            sha256: fingerprint,
            settings: held
                .settings
                .iter()
                .map(|setting| (setting.key.key().to_string(), setting.value.clone()))
                .collect(),
            trusted_at: crate::library::footer::now_rfc3339(),
        });
        let mine = records
            .trusted
            .iter()
            .filter(|record| record.project == self.project)
            .count();
        let mut excess = mine.saturating_sub(KEEP_PER_PROJECT);
        records.trusted.retain(|record| {
            let drop = excess > 0 && record.project == self.project;
            if drop {
                excess -= 1;
            }
            !drop
        });
        write(&self.path, &records)
    }

    /// Forget every confirmation for this project. Returns how many there were.
    pub fn revoke(&self) -> std::io::Result<usize> {
        let mut records = read(&self.path);
        let before = records.trusted.len();
        records
            .trusted
            .retain(|record| record.project != self.project);
        let removed = before - records.trusted.len();
        if removed > 0 {
            write(&self.path, &records)?;
        }
        Ok(removed)
    }
}

/// The keys whose value differs between a confirmation and `held` (set on one side only counts).
fn changed_keys(confirmed: &BTreeMap<String, String>, held: &Held) -> Vec<&'static str> {
    crate::project::held::Sensitive::ALL
        .into_iter()
        .filter(|key| {
            let now = held.get(*key).map(|setting| setting.value.as_str());
            confirmed.get(key.key()).map(String::as_str) != now
        })
        .map(|key| key.key())
        .collect()
}

fn read(path: &Path) -> Records {
    std::fs::read(path)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .unwrap_or_default()
}

fn write(path: &Path, records: &Records) -> std::io::Result<()> {
    let records = Records {
        v: 1,
        trusted: records.trusted.clone(),
    };
    let mut text = serde_json::to_vec_pretty(&records).map_err(std::io::Error::other)?;
    text.push(b'\n');
    crate::atomic::write(path, &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::project::held::{HeldSetting, Sensitive};

    fn held(url: &str) -> Held {
        Held {
            file: ".lexibrary/config.yaml".into(),
            settings: vec![
                HeldSetting {
                    key: Sensitive::Provider,
                    value: "openai-compatible".into(),
                    line: 3,
                },
                HeldSetting {
                    key: Sensitive::BaseUrl,
                    value: url.into(),
                    line: 4,
                },
            ],
            llm_if_trusted: Default::default(),
        }
    }

    fn store(dir: &Path, project: &str) -> TrustStore {
        TrustStore {
            path: dir.join("trusted.json"),
            project: project.into(),
        }
    }

    #[test]
    fn confirmed_values_are_trusted_and_a_change_is_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = store(dir.path(), ".");
        assert_eq!(store.assess(&Held::default()), Trust::NothingHeld);
        assert_eq!(store.assess(&held("http://a")), Trust::NotConfirmed);
        store.confirm(&held("http://a")).expect("record");
        assert_eq!(store.assess(&held("http://a")), Trust::Trusted);
        assert_eq!(
            store.assess(&held("http://b")),
            Trust::Changed {
                keys: vec!["llm.base_url"]
            }
        );
        // Another project of the same clone is not trusted by it.
        let other = TrustStore {
            project: "sub".into(),
            ..store.clone()
        };
        assert_eq!(other.assess(&held("http://a")), Trust::NotConfirmed);
        assert_eq!(store.revoke().expect("revoke"), 1);
        assert_eq!(store.assess(&held("http://a")), Trust::NotConfirmed);
    }

    #[test]
    fn a_corrupt_record_trusts_nothing() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = store(dir.path(), ".");
        std::fs::write(&store.path, "{not json").expect("write");
        assert_eq!(store.assess(&held("http://a")), Trust::NotConfirmed);
        store.confirm(&held("http://a")).expect("record over it");
        assert_eq!(store.assess(&held("http://a")), Trust::Trusted);
    }

    #[test]
    fn the_record_keeps_the_last_confirmations_only() {
        let dir = tempfile::tempdir().expect("tempdir");
        let store = store(dir.path(), ".");
        for n in 0..KEEP_PER_PROJECT + 5 {
            store
                .confirm(&held(&format!("http://{n}")))
                .expect("record");
        }
        assert_eq!(read(&store.path).trusted.len(), KEEP_PER_PROJECT);
        assert_eq!(
            store.assess(&held("http://0")),
            Trust::Changed {
                keys: vec!["llm.base_url"]
            }
        );
        assert_eq!(store.assess(&held("http://24")), Trust::Trusted);
    }

    #[test]
    fn the_notice_names_file_lines_and_the_command() {
        let text = notice(&held("http://a"), &Trust::NotConfirmed)
            .expect("a notice")
            .to_string();
        assert!(
            text.starts_with(
                ".lexibrary/config.yaml:3: llm.provider (line 3) and llm.base_url (line 4) are set"
            ),
            "{text}"
        );
        assert!(text.contains("`lexictl trust`"), "{text}");
        assert!(notice(&held("http://a"), &Trust::Trusted).is_none());
    }
}
