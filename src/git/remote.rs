//! Talking to remotes and writing git configuration: the one place Lexibrarian runs the `git`
//! executable instead of reading the repository in-process.
//!
//! Fetching and pushing run `git` so that remotes, credentials, transports and hooks behave exactly
//! as they do for the user's own `git fetch` / `git push` (gix does not push); configuration is
//! written with `git config` so the user's file keeps its layout and comments. `GIT_DIR`,
//! `GIT_WORK_TREE` and `GIT_INDEX_FILE` are scrubbed, since a hook may have exported them for another
//! worktree (FACTS §3).

use std::path::Path;
use std::process::Command;

/// A `git` command that could not run or exited non-zero, with what it printed.
#[derive(Debug, thiserror::Error)]
pub enum GitCommandError {
    #[error("cannot run git (is it installed and on PATH?): {0}")]
    Spawn(#[source] std::io::Error),
    #[error("`git {args}` failed: {stderr}")]
    Failed {
        args: String,
        stderr: String,
        stdout: String,
    },
}

impl GitCommandError {
    /// Whether a push was refused because the remote moved on (someone pushed meanwhile).
    pub fn is_rejected_push(&self) -> bool {
        match self {
            GitCommandError::Failed { stderr, stdout, .. } => {
                let text = format!("{stderr}{stdout}");
                text.contains("rejected")
                    || text.contains("non-fast-forward")
                    || text.contains("fetch first")
            }
            GitCommandError::Spawn(_) => false,
        }
    }
}

/// Run `git <args>` in `workdir`; its stdout on success.
pub fn git(workdir: &Path, args: &[&str]) -> Result<String, GitCommandError> {
    let output = Command::new("git")
        .args(args)
        .current_dir(workdir)
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .output()
        .map_err(GitCommandError::Spawn)?;
    if !output.status.success() {
        return Err(GitCommandError::Failed {
            args: args.join(" "),
            stderr: String::from_utf8_lossy(&output.stderr).trim().to_string(),
            stdout: String::from_utf8_lossy(&output.stdout).trim().to_string(),
        });
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// `git fetch --quiet --no-tags <remote> <refspec>`.
pub fn fetch(workdir: &Path, remote: &str, refspec: &str) -> Result<(), GitCommandError> {
    git(workdir, &["fetch", "--quiet", "--no-tags", remote, refspec]).map(drop)
}

/// `git push --quiet --porcelain <remote> <refspecs…>`, never forced.
pub fn push(workdir: &Path, remote: &str, refspecs: &[String]) -> Result<(), GitCommandError> {
    let mut args = vec!["push", "--quiet", "--porcelain", remote];
    args.extend(refspecs.iter().map(String::as_str));
    git(workdir, &args).map(drop)
}

/// The names of the configured remotes.
pub fn remote_names(workdir: &Path) -> Result<Vec<String>, GitCommandError> {
    Ok(git(workdir, &["remote"])?
        .lines()
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect())
}

/// The remote of the current branch's upstream (`origin` for `origin/main`), if one is set.
pub fn upstream_remote(workdir: &Path) -> Option<String> {
    let upstream = git(
        workdir,
        &[
            "rev-parse",
            "--abbrev-ref",
            "--symbolic-full-name",
            "@{upstream}",
        ],
    )
    .ok()?;
    let (remote, _) = upstream.trim().split_once('/')?;
    Some(remote.to_string())
}

/// Every value of a multi-valued config key (empty when unset).
pub fn config_values(workdir: &Path, key: &str) -> Vec<String> {
    git(workdir, &["config", "--get-all", key])
        .map(|values| values.lines().map(|v| v.trim().to_string()).collect())
        .unwrap_or_default()
}

/// Add a value to a multi-valued config key (`git config --add`).
pub fn add_config(workdir: &Path, key: &str, value: &str) -> Result<(), GitCommandError> {
    git(workdir, &["config", "--add", key, value]).map(drop)
}

/// Set a single-valued config key (`git config <key> <value>`).
pub fn set_config(workdir: &Path, key: &str, value: &str) -> Result<(), GitCommandError> {
    git(workdir, &["config", key, value]).map(drop)
}

/// Remove every value of `key` equal to `value` (`git config --fixed-value --unset-all`), then the
/// key's section if nothing is left in it.
pub fn unset_config_value(workdir: &Path, key: &str, value: &str) -> Result<(), GitCommandError> {
    git(
        workdir,
        &["config", "--fixed-value", "--unset-all", key, value],
    )?;
    remove_section_if_empty(workdir, key);
    Ok(())
}

/// Remove a key (every value), then its section if nothing is left in it.
pub fn unset_config(workdir: &Path, key: &str) -> Result<(), GitCommandError> {
    git(workdir, &["config", "--unset-all", key])?;
    remove_section_if_empty(workdir, key);
    Ok(())
}

/// `git config --remove-section` for the section of `key` when it holds no key any more (git
/// leaves an empty `[section]` header behind after the last `--unset`).
fn remove_section_if_empty(workdir: &Path, key: &str) {
    let Some((section, _)) = key.rsplit_once('.') else {
        return;
    };
    let listing = git(workdir, &["config", "--local", "--list"]).unwrap_or_default();
    let prefix = format!("{}.", section.to_lowercase());
    let empty = !listing
        .lines()
        .any(|line| line.to_lowercase().starts_with(&prefix));
    if empty {
        // Nothing to remove is not an error worth reporting.
        let _ = git(workdir, &["config", "--local", "--remove-section", section]);
    }
}

/// Every ref under the given prefixes (`refs/notes/lexibrarian/`), full names.
pub fn refs_under(workdir: &Path, prefixes: &[&str]) -> Result<Vec<String>, GitCommandError> {
    let mut args = vec!["for-each-ref", "--format=%(refname)"];
    args.extend(prefixes);
    Ok(git(workdir, &args)?.lines().map(str::to_string).collect())
}

/// Delete a ref (`git update-ref -d`).
pub fn delete_ref(workdir: &Path, name: &str) -> Result<(), GitCommandError> {
    git(workdir, &["update-ref", "-d", name]).map(drop)
}
