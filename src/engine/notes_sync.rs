//! Sharing Lexibrarian's git notes with a remote (DESIGN G-3): `lexictl notes sync` and the
//! configuration `lexictl setup --notes` writes.
//!
//! Git does not fetch or push notes by default, and two clones appending to the same notes ref
//! conflict on push. Sync therefore (1) fetches the remote's `refs/notes/lexibrarian/*` into
//! `refs/lexibrarian/remotes/<remote>/notes/*` (never over our own refs), (2) merges each kind into
//! ours as a set union in Rust ([`GitRepo::merge_notes`]), and (3) pushes ours without force; when
//! the push is rejected because someone pushed meanwhile, it starts over (a few times).
//!
//! Fetching and pushing run the `git` executable, so remotes, credentials and transports behave
//! exactly as they do for the user's own `git fetch` / `git push`. No `remote.<name>.push` refspec
//! is ever configured: that would stop a plain `git push` from pushing the current branch (FACTS §3).
//!
//! The fetch is when other clones' Stack votes arrive, so sync ends by setting the vote counts whose
//! history is now complete (`engine::votes`): two clones that voted at once from the same count end
//! with the right one. Those post files change in the working tree; commit them.

use std::path::Path;

use anyhow::{bail, Context as _};

use super::votes::Reconciled;
use crate::git::notes::{MergeOutcome, PROVENANCE_NOTES, STACK_NOTES};
use crate::git::remote;
use crate::git::GitRepo;

/// Our notes refs.
pub const NOTES_REFS: &[&str] = &[STACK_NOTES, PROVENANCE_NOTES];
/// How many fetch-merge-push rounds before giving up on a busy remote.
const ROUNDS: usize = 5;

/// The fetch refspec for `remote`.
pub fn fetch_refspec(remote: &str) -> String {
    format!("+refs/notes/lexibrarian/*:refs/lexibrarian/remotes/{remote}/notes/*")
}

/// What one sync did per notes ref.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Synced {
    pub remote: String,
    /// `(ref, outcome)` of the merge step.
    pub merged: Vec<(String, MergeOutcome)>,
    /// Refs pushed.
    pub pushed: Vec<String>,
    /// Fetch-merge-push rounds it took.
    pub rounds: usize,
    /// Vote counts set from their history, now complete with the remote's events.
    pub reconciled: Vec<Reconciled>,
}

/// `lexictl notes sync [remote]`: fetch, merge and push the notes, then set the Stack's vote counts
/// whose history the merge completed (`engine::votes`).
pub fn sync(workdir: &Path, remote: Option<&str>) -> anyhow::Result<Synced> {
    let mut synced = exchange(workdir, remote)?;
    if let Ok(project) = crate::project::Project::discover(workdir) {
        let repo = GitRepo::discover(workdir)?.context("notes sync runs in a git repository")?;
        synced.reconciled = super::votes::reconcile(&project, &repo)?;
    }
    Ok(synced)
}

/// Fetch, union-merge and push, retrying when someone pushed meanwhile.
fn exchange(workdir: &Path, remote: Option<&str>) -> anyhow::Result<Synced> {
    let remote = match remote {
        Some(remote) => remote.to_string(),
        None => default_remote(workdir)?,
    };
    for round in 1..=ROUNDS {
        remote::fetch(workdir, &remote, &fetch_refspec(&remote))
            .with_context(|| format!("cannot fetch notes from {remote}"))?;
        let repo = GitRepo::discover(workdir)?.context("notes sync runs in a git repository")?;
        let mut merged = Vec::new();
        for notes_ref in NOTES_REFS {
            let kind = notes_ref.trim_start_matches("refs/notes/lexibrarian/");
            let theirs = format!("refs/lexibrarian/remotes/{remote}/notes/{kind}");
            merged.push((notes_ref.to_string(), repo.merge_notes(notes_ref, &theirs)?));
        }
        let refs: Vec<String> = NOTES_REFS
            .iter()
            .filter(|r| repo.has_notes_ref(r))
            .map(|r| format!("{r}:{r}"))
            .collect();
        if refs.is_empty() {
            return Ok(Synced {
                remote,
                merged,
                pushed: Vec::new(),
                rounds: round,
                reconciled: Vec::new(),
            });
        }
        match remote::push(workdir, &remote, &refs) {
            Ok(_) => {
                return Ok(Synced {
                    remote,
                    merged,
                    pushed: refs
                        .iter()
                        .map(|r| r.split(':').next().unwrap_or("").to_string())
                        .collect(),
                    rounds: round,
                    reconciled: Vec::new(),
                })
            }
            Err(err) if err.is_rejected_push() && round < ROUNDS => continue,
            Err(err) => return Err(err).with_context(|| format!("cannot push notes to {remote}")),
        }
    }
    bail!("the notes on {remote} kept changing while syncing; try again")
}

/// `lexictl setup --notes`: for every remote, the fetch refspec; for each notes ref, the
/// `cat_sort_uniq` merge strategy (so a manual `git notes merge` keeps every line too). Returns the
/// settings added.
pub fn configure(workdir: &Path) -> anyhow::Result<Vec<String>> {
    let mut added = Vec::new();
    for remote in remote::remote_names(workdir)? {
        let key = format!("remote.{remote}.fetch");
        let refspec = fetch_refspec(&remote);
        if !remote::config_values(workdir, &key).contains(&refspec) {
            remote::add_config(workdir, &key, &refspec)?;
            added.push(format!("{key} {refspec}"));
        }
    }
    for notes_ref in NOTES_REFS {
        let name = notes_ref.trim_start_matches("refs/notes/");
        let key = format!("notes.{name}.mergeStrategy");
        if remote::config_values(workdir, &key) != ["cat_sort_uniq"] {
            remote::set_config(workdir, &key, "cat_sort_uniq")?;
            added.push(format!("{key} cat_sort_uniq"));
        }
    }
    Ok(added)
}

/// The settings [`configure`] makes that are in place now, as (key, value): what `lexictl setup
/// --uninstall` takes out. Only our exact values: a person's own refspec or strategy stays.
pub fn configured(workdir: &Path) -> anyhow::Result<Vec<(String, String)>> {
    let mut found = Vec::new();
    for remote in remote::remote_names(workdir)? {
        let key = format!("remote.{remote}.fetch");
        let refspec = fetch_refspec(&remote);
        if remote::config_values(workdir, &key).contains(&refspec) {
            found.push((key, refspec));
        }
    }
    for notes_ref in NOTES_REFS {
        let name = notes_ref.trim_start_matches("refs/notes/");
        let key = format!("notes.{name}.mergeStrategy");
        if remote::config_values(workdir, &key) == ["cat_sort_uniq"] {
            found.push((key, "cat_sort_uniq".to_string()));
        }
    }
    Ok(found)
}

/// Remove settings found by [`configured`].
pub fn unconfigure(workdir: &Path, settings: &[(String, String)]) -> anyhow::Result<()> {
    for (key, value) in settings {
        if key.starts_with("remote.") {
            remote::unset_config_value(workdir, key, value)
        } else {
            remote::unset_config(workdir, key)
        }
        .with_context(|| format!("cannot remove the git config {key}"))?;
    }
    Ok(())
}

/// The upstream remote of the current branch, else `origin`, else the only remote.
fn default_remote(workdir: &Path) -> anyhow::Result<String> {
    if let Some(remote) = remote::upstream_remote(workdir) {
        return Ok(remote);
    }
    let remotes = remote::remote_names(workdir)?;
    if remotes.iter().any(|name| name == "origin") {
        return Ok("origin".into());
    }
    match remotes.as_slice() {
        [only] => Ok(only.clone()),
        [] => {
            bail!("this repository has no remote to sync notes with; add one with `git remote add`")
        }
        _ => bail!(
            "several remotes and none is `origin`: name one, e.g. `lexictl notes sync {}`",
            remotes[0]
        ),
    }
}
