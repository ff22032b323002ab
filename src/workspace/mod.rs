//! One working tree, opened once per command: the project (root and config), its git repository,
//! the scope, the per-worktree state directory, and what every command of one working tree shares —
//! the files git keeps out of this working tree ([`absent`]), the stat/hash cache ([`cache`]) and the whole dependency graph it holds ([`graph`]), each code file's members as lookups list them ([`outlines`]), the engine
//! state ([`state`]), the library lock ([`lock`]), the
//! one enumeration of `.lexibrary/` ([`library`]), whether this clone confirmed the project
//! config's held settings ([`trust`]), the rows of a directory's Child Map
//! ([`child_map`]) and the check of an agent's Interface Contract against the code ([`contract`]).
//!
//! Like jj's `CommandHelper`, the CLI opens a [`Workspace`] once and hands it to `engine` and
//! `knowledge`, so HEAD, the state file, the scope and the project's place in the repository are each
//! read once per command. Everything is read lazily: `lexi lookup` never opens the repository.
//!
//! Layering: `workspace` sits below `engine` and `knowledge` and above `project`, `git`, `library`,
//! `source` and `archivist`; it never imports the layers above it.

pub mod absent;
pub mod cache;
pub mod calls;
pub mod chains;
pub mod child_map;
pub mod contract;
pub mod coverage;
pub mod graph;
pub mod library;
pub mod library_writes;
pub mod lock;
pub mod outlines;
pub mod state;
pub mod test_rank;
pub mod trust;

use std::cell::OnceCell;
use std::path::Path;

use anyhow::Context as _;

use crate::git::{GitRepo, Oid};
use crate::project::scope::Scope;
use crate::project::{Project, ProjectError, CONFIG_FILE};
use state::{Processed, StateDir};

/// An opened working tree. Not `Sync` (the git repository is used from one thread at a time); pass
/// [`Workspace::project`] to parallel code.
#[derive(Debug)]
pub struct Workspace {
    project: Project,
    repo: OnceCell<Result<Option<GitRepo>, OpenError>>,
    scope: OnceCell<Result<Scope, String>>,
    state: OnceCell<StateDir>,
    prefix: OnceCell<Option<String>>,
    head: OnceCell<Option<Oid>>,
    processed: OnceCell<Option<Processed>>,
    graph: OnceCell<Option<std::sync::Arc<graph::Graph>>>,
    trust: OnceCell<trust::Trust>,
    absent: OnceCell<std::sync::Arc<absent::Absent>>,
}

impl Workspace {
    /// Find the project containing `cwd` (walking up to `.lexibrary/`) and load its config.
    pub fn discover(cwd: &Path) -> Result<Workspace, ProjectError> {
        Project::discover(cwd).map(Workspace::new)
    }

    /// A workspace for an already opened project.
    pub fn new(project: Project) -> Workspace {
        Workspace {
            project,
            repo: OnceCell::new(),
            scope: OnceCell::new(),
            state: OnceCell::new(),
            prefix: OnceCell::new(),
            head: OnceCell::new(),
            processed: OnceCell::new(),
            graph: OnceCell::new(),
            trust: OnceCell::new(),
            absent: OnceCell::new(),
        }
    }

    /// The project: root and merged config.
    pub fn project(&self) -> &Project {
        &self.project
    }

    /// The git repository whose working tree holds the project; `None` outside git (or in a bare
    /// repository). An error when a repository exists but cannot be opened.
    pub fn repo(&self) -> anyhow::Result<Option<&GitRepo>> {
        match self.opened_repo() {
            Ok(repo) => Ok(repo.as_ref()),
            Err(error) => Err(error.to_anyhow()).context("cannot open the git repository"),
        }
    }

    /// Like [`Workspace::repo`], but an error is reported as [`GitRepo::discover`] reports it: its
    /// message and its causes, without the line this workspace adds.
    pub fn discovered_repo(&self) -> anyhow::Result<Option<&GitRepo>> {
        match self.opened_repo() {
            Ok(repo) => Ok(repo.as_ref()),
            Err(error) => Err(error.to_anyhow()),
        }
    }

    fn opened_repo(&self) -> &Result<Option<GitRepo>, OpenError> {
        self.repo.get_or_init(|| {
            GitRepo::discover(&self.project.root).map_err(|err| OpenError::of(&err))
        })
    }

    /// The repository when there is one and it opens; `None` otherwise (for best-effort readers).
    pub fn repo_if_any(&self) -> Option<&GitRepo> {
        self.repo().ok().flatten()
    }

    /// The normalised `scope_root`s. An error names the config file when a root leaves the project.
    pub fn scope(&self) -> anyhow::Result<&Scope> {
        let scope = self.scope.get_or_init(|| {
            let config_path = self.project.library_dir().join(CONFIG_FILE);
            Scope::from_config(&self.project.config, &config_path).map_err(|err| format!("{err}"))
        });
        scope
            .as_ref()
            .map_err(|message| anyhow::anyhow!("{message}"))
    }

    /// The engine's private directory: under the git directory of this worktree, or (outside git)
    /// `.lexibrary/.cache/state/`.
    pub fn state(&self) -> &StateDir {
        self.state
            .get_or_init(|| StateDir::for_project(&self.project, self.repo_if_any()))
    }

    /// The project root relative to the repository's working tree (`""` when they are the same);
    /// `None` outside git or when the project is not inside the working tree.
    pub fn prefix(&self) -> Option<&str> {
        self.prefix
            .get_or_init(|| {
                self.repo_if_any()
                    .and_then(|repo| repo.prefix_of(&self.project.root))
            })
            .as_deref()
    }

    /// `HEAD`'s commit; `None` outside git or on an unborn branch.
    pub fn head(&self) -> Option<&Oid> {
        self.head
            .get_or_init(|| {
                self.repo_if_any()
                    .and_then(|repo| repo.head_commit().ok().flatten())
            })
            .as_ref()
    }

    /// The whole dependency graph as the last update resolved it, loaded once from the cache;
    /// `None` before the first update (or when the cache is unreadable): read the design files.
    pub fn graph(&self) -> Option<&graph::Graph> {
        self.graph
            .get_or_init(|| graph::Graph::shared(&self.state().cache_path()))
            .as_deref()
    }

    /// The project's files git keeps out of this working tree (sparse checkout, `skip-worktree`),
    /// read once from the index; none outside git or when the index cannot be read.
    pub fn absent(&self) -> &std::sync::Arc<absent::Absent> {
        self.absent.get_or_init(|| {
            let (Some(repo), Some(prefix)) = (self.repo_if_any(), self.prefix()) else {
                return Default::default();
            };
            let Ok(paths) = repo.skip_worktree_paths() else {
                return Default::default();
            };
            let inside = paths.into_iter().filter_map(|path| match prefix {
                "" => Some(path),
                prefix => path.strip_prefix(&format!("{prefix}/")).map(str::to_string),
            });
            std::sync::Arc::new(absent::Absent::from_paths(&self.project, inside))
        })
    }

    /// Whether this clone confirmed the project config's held settings (`lexictl trust`), read once.
    pub fn trust(&self) -> &trust::Trust {
        self.trust.get_or_init(|| {
            match trust::TrustStore::locate(&self.project, self.repo_if_any()) {
                Some(store) => store.assess(&self.project.held),
                None if self.project.held.is_empty() => trust::Trust::NothingHeld,
                None => trust::Trust::NotConfirmed,
            }
        })
    }

    /// Why the project config's held settings are ignored here, if they are.
    pub fn trust_notice(&self) -> Option<trust::Notice> {
        trust::notice(&self.project.held, self.trust())
    }

    /// The LLM settings a run uses: the project config's held settings only where this clone
    /// confirmed them ([`Workspace::trust`]); the person's own tiers otherwise.
    pub fn llm(&self) -> &crate::project::config::LlmConfig {
        if self.trust().applies() {
            &self.project.held.llm_if_trusted
        } else {
            &self.project.config.llm
        }
    }

    /// What the last complete update recorded in the state file, read once.
    pub fn processed(&self) -> Option<&Processed> {
        self.processed
            .get_or_init(|| self.state().processed())
            .as_ref()
    }
}

/// Why the repository did not open: the error's message and its causes' (outermost first), kept as
/// text so that every reader of the workspace can report it again.
#[derive(Debug)]
struct OpenError(Vec<String>);

impl OpenError {
    fn of(err: &dyn std::error::Error) -> OpenError {
        let mut messages = vec![err.to_string()];
        let mut source = err.source();
        while let Some(cause) = source {
            messages.push(cause.to_string());
            source = cause.source();
        }
        OpenError(messages)
    }

    /// The error again, causes included.
    fn to_anyhow(&self) -> anyhow::Error {
        let mut messages = self.0.iter().rev();
        let innermost = messages.next().map_or("", String::as_str);
        messages.fold(anyhow::anyhow!("{innermost}"), |error, message| {
            error.context(message.clone())
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_open_error_keeps_its_causes() {
        let io = std::io::Error::other("disk on fire");
        let outer = anyhow::Error::new(io).context("could not open the repository");
        let error = OpenError::of(outer.as_ref());
        let again = error.to_anyhow();
        let chain: Vec<String> = again.chain().map(|cause| cause.to_string()).collect();
        assert_eq!(chain, ["could not open the repository", "disk on fire"]);
    }
}
