//! Installing Lexibrarian's git hooks (DESIGN G-2): finding the *effective* hooks directory, and
//! adding or removing our versioned marker block in a hook file without disturbing anything else in it.
//!
//! The hooks directory is `core.hooksPath` when the repository sets it (relative paths are relative to
//! the working tree root, as git runs hooks from there), else `<common git dir>/hooks`, which linked
//! worktrees and submodules (where `.git` is a file) share with git. A `core.hooksPath` coming from
//! global or system configuration, or pointing outside the repository, is refused: writing there would
//! change every repository on the machine. Hook managers that own the hook files (husky, lefthook,
//! pre-commit) are detected so the caller can write or print their configuration instead.
//!
//! The block is inserted before a trailing `exec …` line (which would never return) or appended;
//! removing it restores the file byte for byte.

use std::path::{Path, PathBuf};

use super::{GitError, GitRepo};

/// First line of our block; the version lets a future release recognise and replace old blocks.
pub const BLOCK_OPEN: &str = "# >>> lexibrarian v1 >>>";
/// The first line when installing had to add a newline to a file that did not end with one.
const BLOCK_OPEN_ADDED_NEWLINE: &str =
    "# >>> lexibrarian v1 >>> (added a newline before this line)";
/// Last line of our block.
pub const BLOCK_CLOSE: &str = "# <<< lexibrarian <<<";
/// The hooks Lexibrarian installs: post-commit for commits, post-merge for merges made by `git merge`
/// and `git pull`, post-applypatch for `git am` (neither fires post-commit), post-rewrite for amend
/// and rebase, pre-push for the check that a pushed branch carries its library.
pub const HOOKS: &[&str] = &[
    "post-commit",
    "post-merge",
    "post-applypatch",
    "post-rewrite",
    "pre-push",
];

/// A hook manager that owns the repository's hook files.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Manager {
    /// `.husky/`: hook scripts live in `.husky/<hook>`; we write our block there.
    Husky,
    /// `lefthook.yml`: we print the configuration to add.
    Lefthook,
    /// `.pre-commit-config.yaml`: we print the configuration to add.
    PreCommit,
}

/// Where hooks go, as decided by [`GitRepo::hooks_target`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HooksTarget {
    /// Write hook files in this directory.
    Dir(PathBuf),
    /// A hook manager is in charge; see [`Manager`].
    Manager(Manager),
}

impl GitRepo {
    /// The directory our hook files belong in, or the hook manager to configure instead.
    pub fn hooks_target(&self) -> Result<HooksTarget, GitError> {
        let workdir = self.workdir().to_path_buf();
        if workdir.join(".husky").is_dir() {
            return Ok(HooksTarget::Manager(Manager::Husky));
        }
        for name in [
            "lefthook.yml",
            ".lefthook.yml",
            "lefthook.yaml",
            ".lefthook.yaml",
        ] {
            if workdir.join(name).is_file() {
                return Ok(HooksTarget::Manager(Manager::Lefthook));
            }
        }
        if workdir.join(".pre-commit-config.yaml").is_file() {
            return Ok(HooksTarget::Manager(Manager::PreCommit));
        }
        let config = self.repo.config_snapshot();
        let any = config.string("core.hooksPath");
        let repository_level = config.plumbing().string_filter("core.hooksPath", |meta| {
            matches!(
                meta.source,
                gix::config::Source::Local | gix::config::Source::Worktree
            )
        });
        let Some(value) = any else {
            return Ok(HooksTarget::Dir(self.common_dir().join("hooks")));
        };
        let value = value.to_string();
        if repository_level.as_ref().map(|v| v.to_string()) != Some(value.clone()) {
            return Err(GitError::Hooks(format!(
                "core.hooksPath is set to {value:?} outside this repository's own config (globally or \
                 system-wide), so hooks installed there would run in every repository. Either add the \
                 block yourself to {value}/post-commit and {value}/post-rewrite (see `lexictl setup \
                 --print-hook`), or set a repository-level path: `git config core.hooksPath .githooks`"
            )));
        }
        let expanded = match value.strip_prefix("~/") {
            Some(rest) => std::env::var_os("HOME")
                .map(PathBuf::from)
                .unwrap_or_default()
                .join(rest),
            None => PathBuf::from(&value),
        };
        let dir = if expanded.is_absolute() {
            expanded
        } else {
            workdir.join(expanded)
        };
        let normalized = crate::project::paths::normalize(&dir);
        let inside_repo =
            normalized.starts_with(&workdir) || normalized.starts_with(self.common_dir());
        if !inside_repo {
            return Err(GitError::Hooks(format!(
                "core.hooksPath is {value:?}, which is outside this repository; hooks written there \
                 would be shared with other repositories. Add the block yourself (see `lexictl setup \
                 --print-hook`) or point core.hooksPath inside the repository"
            )));
        }
        Ok(HooksTarget::Dir(normalized))
    }

    /// The directory shared by all worktrees (`.git` of the main worktree), absolute.
    pub fn common_dir(&self) -> PathBuf {
        let dir = self.repo.common_dir();
        std::path::absolute(dir).unwrap_or_else(|_| dir.to_path_buf())
    }
}

/// The block template (`hooks/block.sh`), with `{hook}` and `{args}` to fill in.
const BLOCK_TEMPLATE: &str = include_str!("../../hooks/block.sh");
/// The pre-push block (`hooks/pre-push.sh`).
const PRE_PUSH_BLOCK: &str = include_str!("../../hooks/pre-push.sh");

/// The block for `hook`: run `lexictl hook <hook>` if `lexictl` is on PATH. The post-* blocks are
/// detached from the terminal and never fail the hook; the pre-push block passes the pushed refs on
/// and fails the hook when `lexictl hook pre-push` stops the push.
pub fn block(hook: &str) -> String {
    if hook == "pre-push" {
        return PRE_PUSH_BLOCK.to_string();
    }
    let args = if hook == "post-rewrite" {
        " \"$1\""
    } else {
        ""
    };
    BLOCK_TEMPLATE
        .replace("{hook}", hook)
        .replace("{args}", args)
}

/// What [`install`] did to a hook file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Installed {
    /// The file did not exist; it was created with a shebang and the block.
    Created,
    /// The block was added to an existing hook.
    Added,
    /// An older version of the block was replaced.
    Updated,
    /// The current block was already there: nothing written.
    Unchanged,
}

/// What [`uninstall`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Removed {
    /// The block was removed; the rest of the file is as it was before installation.
    Block,
    /// Nothing but the block (and a shebang) was in the file, so the file was deleted.
    File,
    /// No block in the file (or no file).
    NotInstalled,
}

/// Why a hook file cannot take our block.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// The hook is written in another language; a shell block would break it.
    #[error("{path} is a {interpreter} script, not a shell script: adding our shell block would break it. Call `lexictl hook {hook}` from it yourself (see `lexictl setup --print-hook`)")]
    NotShell {
        path: String,
        interpreter: String,
        hook: String,
    },
    #[error(transparent)]
    Io(#[from] std::io::Error),
}

/// Add our block for `hook` to the hook file at `path`, creating it (executable) if needed. An
/// existing file keeps its mode (a disabled, non-executable hook stays disabled) and a symlinked
/// hook is edited through the link.
pub fn install(path: &Path, hook: &str) -> Result<Installed, InstallError> {
    let path = &resolve_link(path);
    let wanted = block(hook);
    let existing = match std::fs::read_to_string(path) {
        Ok(text) => Some(text),
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => None,
        Err(err) => return Err(err.into()),
    };
    let (text, outcome) = match existing {
        None => (format!("#!/bin/sh\n{wanted}"), Installed::Created),
        Some(text) => {
            if let Some(interpreter) = non_shell_interpreter(&text) {
                return Err(InstallError::NotShell {
                    path: path.display().to_string(),
                    interpreter,
                    hook: hook.to_string(),
                });
            }
            match find_block(&text) {
                Some((start, end))
                    if text[start..end].replacen(BLOCK_OPEN_ADDED_NEWLINE, BLOCK_OPEN, 1)
                        == wanted =>
                {
                    return Ok(Installed::Unchanged)
                }
                Some((start, end)) => (
                    format!("{}{wanted}{}", &text[..start], &text[end..]),
                    Installed::Updated,
                ),
                None => (insert(&text, &wanted), Installed::Added),
            }
        }
    };
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    let permissions = std::fs::metadata(path).ok().map(|meta| meta.permissions());
    crate::atomic::write(path, text.as_bytes())?;
    match permissions {
        Some(permissions) => std::fs::set_permissions(path, permissions)?,
        None => make_executable(path)?,
    }
    Ok(outcome)
}

/// Remove our block from the hook file at `path`; delete the file if nothing else is left.
pub fn uninstall(path: &Path) -> std::io::Result<Removed> {
    let path = &resolve_link(path);
    let Some((rest, removed)) = without_our_block(path)? else {
        return Ok(Removed::NotInstalled);
    };
    if removed == Removed::File {
        std::fs::remove_file(path)?;
        return Ok(Removed::File);
    }
    let permissions = std::fs::metadata(path)?.permissions();
    crate::atomic::write(path, rest.as_bytes())?;
    std::fs::set_permissions(path, permissions)?;
    Ok(Removed::Block)
}

/// What [`uninstall`] would do to the hook file at `path`, without writing anything.
pub fn planned_removal(path: &Path) -> std::io::Result<Removed> {
    Ok(without_our_block(&resolve_link(path))?.map_or(Removed::NotInstalled, |(_, how)| how))
}

/// The hook file's text without our block, and whether that leaves only a shebang (delete the
/// file); `None` when there is no file or no block.
fn without_our_block(path: &Path) -> std::io::Result<Option<(String, Removed)>> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(err),
    };
    let Some((mut start, end)) = find_block(&text) else {
        return Ok(None);
    };
    // The newline we added because the file did not end with one goes too.
    if text[start..].starts_with(BLOCK_OPEN_ADDED_NEWLINE) && text[..start].ends_with('\n') {
        start -= 1;
    }
    let rest = format!("{}{}", &text[..start], &text[end..]);
    let only_shebang = rest
        .lines()
        .all(|line| line.trim().is_empty() || line.starts_with("#!"));
    let how = if only_shebang {
        Removed::File
    } else {
        Removed::Block
    };
    Ok(Some((rest, how)))
}

/// The file a (possibly symlinked) hook path really is, so edits go through the link.
fn resolve_link(path: &Path) -> std::path::PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
        }
        _ => path.to_path_buf(),
    }
}

/// The interpreter of a hook whose shebang is not a POSIX-ish shell (`python3`, `node`, …).
fn non_shell_interpreter(text: &str) -> Option<String> {
    let shebang = text.lines().next()?.strip_prefix("#!")?;
    let mut words = shebang.split_whitespace();
    let mut program = words.next()?.rsplit('/').next()?.to_string();
    if program == "env" {
        program = words.find(|word| !word.starts_with('-'))?.to_string();
    }
    let shells = ["sh", "bash", "dash", "zsh", "ksh", "ash", "busybox"];
    (!shells.contains(&program.as_str())).then_some(program)
}

/// Whether the hook file at `path` carries our block.
pub fn is_installed(path: &Path) -> bool {
    std::fs::read_to_string(path).is_ok_and(|text| find_block(&text).is_some())
}

/// Byte range of our block (both marker lines and the final newline), any version.
fn find_block(text: &str) -> Option<(usize, usize)> {
    let mut start = None;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if start.is_none() && trimmed.starts_with("# >>> lexibrarian") {
            start = Some(offset);
        }
        offset += line.len();
        if let Some(start) = start {
            if trimmed == BLOCK_CLOSE {
                return Some((start, offset));
            }
        }
    }
    None
}

/// `text` with `block` inserted before a trailing `exec` or `exit` line (code after either would
/// never run), or appended.
fn insert(text: &str, block: &str) -> String {
    let mut offset = 0;
    let mut last_command = None;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim();
        if !trimmed.is_empty() && !trimmed.starts_with('#') {
            let ends = ["exec", "exit"]
                .iter()
                .any(|word| trimmed == *word || trimmed.starts_with(&format!("{word} ")));
            last_command = Some((offset, ends));
        }
        offset += line.len();
    }
    match last_command {
        Some((at, true)) => format!("{}{block}{}", &text[..at], &text[at..]),
        _ if text.is_empty() || text.ends_with('\n') => format!("{text}{block}"),
        // No final newline: the block starts on its own line, marked so that uninstalling removes
        // that newline too.
        _ => format!(
            "{text}\n{}",
            block.replacen(BLOCK_OPEN, BLOCK_OPEN_ADDED_NEWLINE, 1)
        ),
    }
}

#[cfg(unix)]
fn make_executable(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mut permissions = std::fs::metadata(path)?.permissions();
    permissions.set_mode(permissions.mode() | 0o755);
    std::fs::set_permissions(path, permissions)
}

#[cfg(not(unix))]
fn make_executable(_path: &Path) -> std::io::Result<()> {
    Ok(())
}

/// What to add to `lefthook.yml`.
pub const LEFTHOOK_SNIPPET: &str = "\
post-commit:
  commands:
    lexibrarian:
      run: lexictl hook post-commit </dev/null >/dev/null 2>&1 || true
post-merge:
  commands:
    lexibrarian:
      run: lexictl hook post-merge </dev/null >/dev/null 2>&1 || true
post-applypatch:
  commands:
    lexibrarian:
      run: lexictl hook post-applypatch </dev/null >/dev/null 2>&1 || true
post-rewrite:
  commands:
    lexibrarian:
      run: lexictl hook post-rewrite {0} </dev/null >/dev/null 2>&1 || true
pre-push:
  commands:
    lexibrarian:
      use_stdin: true
      run: lexictl hook pre-push {1} {2}
";

/// The hooks of the pre-commit framework's configuration: (id, name, stage, command). pre-commit
/// has no post-applypatch stage (`git am` is picked up by the next commit). The pre-push stage comes
/// only with `hooks.pre_push: block`: pre-commit stashes the unstaged changes of the working tree
/// while any of its hooks runs, which would hide the library the worker is writing, and the default
/// pre-push only warns.
fn pre_commit_hooks(
    blocking: bool,
) -> Vec<(&'static str, &'static str, &'static str, &'static str)> {
    let mut hooks = vec![
        (
            "lexibrarian",
            "lexibrarian",
            "post-commit",
            "lexictl hook post-commit </dev/null >/dev/null 2>&1 || true",
        ),
        (
            "lexibrarian-merge",
            "lexibrarian (merge)",
            "post-merge",
            "lexictl hook post-merge </dev/null >/dev/null 2>&1 || true",
        ),
        (
            "lexibrarian-rewrite",
            "lexibrarian (rewrite)",
            "post-rewrite",
            "lexictl hook post-rewrite </dev/null >/dev/null 2>&1 || true",
        ),
    ];
    if blocking {
        hooks.push((
            "lexibrarian-push",
            "lexibrarian (the pushed library is current)",
            "pre-push",
            "command -v lexictl >/dev/null 2>&1 || exit 0; lexictl hook pre-push </dev/null",
        ));
    }
    hooks
}

/// What to add to `.pre-commit-config.yaml`, valid where it goes: with no `repos:` list in
/// `existing` (no file, `repos: []`), a whole file (`whole_file`); else the `- repo: local` entry to
/// paste right below `repos:` (or after the last entry), its `-` in the column of the file's own
/// entries — pre-commit's sample puts them in column 0, others indent them — so that it is neither
/// read as one of the last entry's hooks nor as a syntax error.
pub fn pre_commit_snippet(existing: Option<&str>, blocking: bool) -> PreCommitSnippet {
    let column = existing.and_then(repos_entry_column);
    let pad = " ".repeat(column.unwrap_or(0));
    let mut entry = format!("{pad}- repo: local\n{pad}  hooks:\n");
    for (id, name, stage, command) in pre_commit_hooks(blocking) {
        entry.push_str(&format!(
            "{pad}    - id: {id}\n{pad}      name: {name}\n{pad}      entry: sh -c '{command}'\n{pad}      language: system\n{pad}      stages: [{stage}]\n{pad}      always_run: true\n{pad}      pass_filenames: false\n"
        ));
    }
    match column {
        Some(_) => PreCommitSnippet {
            text: entry,
            whole_file: false,
        },
        None => PreCommitSnippet {
            text: format!("repos:\n{entry}"),
            whole_file: true,
        },
    }
}

/// [`pre_commit_snippet`]'s text and whether it is a whole file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreCommitSnippet {
    pub text: String,
    pub whole_file: bool,
}

/// The column of the `-` of the first entry of a block `repos:` list in a pre-commit configuration.
fn repos_entry_column(text: &str) -> Option<usize> {
    let mut lines = text.lines();
    lines.find(|line| {
        let key = line.split('#').next().unwrap_or("").trim_end();
        key == "repos:"
    })?;
    let first = lines.find(|line| {
        let trimmed = line.trim();
        !trimmed.is_empty() && !trimmed.starts_with('#')
    })?;
    let column = first.len() - first.trim_start().len();
    let rest = &first[column..];
    (rest == "-" || rest.starts_with("- ") || rest.starts_with("-\t")).then_some(column)
}

/// The `pre-commit install` command for [`pre_commit_snippet`]'s stages.
pub fn pre_commit_install(blocking: bool) -> String {
    let mut command = String::from("pre-commit install");
    for (_, _, stage, _) in pre_commit_hooks(blocking) {
        command.push_str(&format!(" --hook-type {stage}"));
    }
    command
}

/// The configuration files of `manager` that can exist in `workdir`, in lookup order.
fn manager_files(manager: Manager) -> &'static [&'static str] {
    match manager {
        Manager::Husky => &[".husky/post-commit"],
        Manager::Lefthook => &[
            "lefthook.yml",
            ".lefthook.yml",
            "lefthook.yaml",
            ".lefthook.yaml",
        ],
        Manager::PreCommit => &[".pre-commit-config.yaml"],
    }
}

/// Whether `manager`'s configuration in `workdir` really runs `lexictl hook post-commit`: our
/// block in `.husky/post-commit`; a `lexibrarian` command under `post-commit` in lefthook's file; a
/// hook with the post-commit stage whose entry runs it in pre-commit's. A file that does not parse
/// configures nothing.
pub fn manager_configured(workdir: &Path, manager: Manager) -> bool {
    let Some(text) = manager_files(manager)
        .iter()
        .find_map(|rel| std::fs::read_to_string(workdir.join(rel)).ok())
    else {
        return false;
    };
    if manager == Manager::Husky {
        return find_block(&text).is_some();
    }
    let Ok(doc) = serde_yaml::from_str::<serde_yaml::Value>(&text) else {
        return false;
    };
    let runs_ours = |value: &serde_yaml::Value| {
        value
            .as_str()
            .is_some_and(|s| s.contains("lexictl hook post-commit"))
    };
    match manager {
        Manager::Lefthook => runs_ours(&doc["post-commit"]["commands"]["lexibrarian"]["run"]),
        _ => doc["repos"].as_sequence().is_some_and(|repos| {
            repos.iter().any(|repo| {
                repo["hooks"].as_sequence().is_some_and(|hooks| {
                    hooks.iter().any(|hook| {
                        runs_ours(&hook["entry"])
                            && hook["stages"].as_sequence().is_some_and(|stages| {
                                stages
                                    .iter()
                                    .any(|stage| stage.as_str() == Some("post-commit"))
                            })
                    })
                })
            })
        }),
    }
}

/// The manager's name as people write it.
pub fn manager_name(manager: Manager) -> &'static str {
    match manager {
        Manager::Husky => "husky",
        Manager::Lefthook => "lefthook",
        Manager::PreCommit => "pre-commit",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_goes_before_a_trailing_exec_and_comes_out_exactly() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("post-commit");
        let original = "#!/bin/sh\necho mine\nexec ./other-hook \"$@\"\n\n";
        std::fs::write(&path, original).unwrap();
        assert_eq!(install(&path, "post-commit").unwrap(), Installed::Added);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.starts_with("#!/bin/sh\necho mine\n# >>> lexibrarian v1 >>>"),
            "{text}"
        );
        assert!(
            text.ends_with("# <<< lexibrarian <<<\nexec ./other-hook \"$@\"\n\n"),
            "{text}"
        );
        assert_eq!(install(&path, "post-commit").unwrap(), Installed::Unchanged);
        assert_eq!(uninstall(&path).unwrap(), Removed::Block);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), original);
        assert_eq!(uninstall(&path).unwrap(), Removed::NotInstalled);
    }

    #[test]
    fn a_file_we_created_is_deleted_on_uninstall() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("hooks/post-rewrite");
        assert_eq!(install(&path, "post-rewrite").unwrap(), Installed::Created);
        assert!(std::fs::read_to_string(&path)
            .unwrap()
            .contains("lexictl hook post-rewrite \"$1\""));
        assert!(is_installed(&path));
        assert_eq!(uninstall(&path).unwrap(), Removed::File);
        assert!(!path.exists());
    }

    #[test]
    fn exit_lines_modes_links_and_missing_newlines_are_respected() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("post-commit");
        std::fs::write(&path, "#!/bin/sh\necho mine\nexit 0\n").unwrap();
        install(&path, "post-commit").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            text.find(BLOCK_OPEN).unwrap() < text.find("exit 0").unwrap(),
            "{text}"
        );
        // No final newline, not executable, behind a symlink: all restored exactly.
        let target = dir.path().join("real-hook");
        std::fs::write(&target, "#!/bin/bash\necho no newline").unwrap();
        std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644)).unwrap();
        let link = dir.path().join("post-merge");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        install(&link, "post-merge").unwrap();
        assert_eq!(install(&link, "post-merge").unwrap(), Installed::Unchanged);
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(
            std::fs::metadata(&target).unwrap().permissions().mode() & 0o777,
            0o644
        );
        uninstall(&link).unwrap();
        assert_eq!(
            std::fs::read_to_string(&target).unwrap(),
            "#!/bin/bash\necho no newline"
        );
    }

    #[test]
    fn hooks_in_other_languages_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("post-commit");
        std::fs::write(&path, "#!/usr/bin/env python3\nprint('x')\n").unwrap();
        let err = install(&path, "post-commit").unwrap_err();
        assert!(err.to_string().contains("is a python3 script"), "{err}");
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "#!/usr/bin/env python3\nprint('x')\n"
        );
    }

    #[test]
    fn an_old_block_is_updated_in_place() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("post-commit");
        std::fs::write(
            &path,
            "#!/bin/sh\n# >>> lexibrarian v0 >>>\nold\n# <<< lexibrarian <<<\necho after\n",
        )
        .unwrap();
        assert_eq!(install(&path, "post-commit").unwrap(), Installed::Updated);
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(
            !text.contains("old\n") && text.ends_with("echo after\n"),
            "{text}"
        );
    }

    #[test]
    fn the_manager_snippets_are_valid_yaml_for_every_hook() {
        let lefthook: serde_yaml::Value = serde_yaml::from_str(LEFTHOOK_SNIPPET).expect("lefthook");
        for hook in HOOKS {
            let run = lefthook[*hook]["commands"]["lexibrarian"]["run"]
                .as_str()
                .unwrap_or_else(|| panic!("lefthook: {hook}"));
            assert!(run.starts_with(&format!("lexictl hook {hook}")), "{run}");
        }
        assert_eq!(
            lefthook["pre-push"]["commands"]["lexibrarian"]["use_stdin"],
            true
        );

        for blocking in [false, true] {
            let snippet = pre_commit_snippet(None, blocking);
            assert!(snippet.whole_file);
            let pre_commit: serde_yaml::Value =
                serde_yaml::from_str(&snippet.text).expect("pre-commit");
            let repo = &pre_commit["repos"][0];
            assert_eq!(repo["repo"], "local");
            let hooks = repo["hooks"]
                .as_sequence()
                .expect("hooks is a list under the repo");
            // pre-commit has no post-applypatch stage; pre-push only when blocking.
            for hook in HOOKS.iter().filter(|hook| **hook != "post-applypatch") {
                let present = hooks.iter().any(|h| {
                    h["stages"][0] == *hook
                        && h["entry"]
                            .as_str()
                            .is_some_and(|e| e.contains(&format!("lexictl hook {hook}")))
                        && h["language"] == "system"
                });
                assert_eq!(
                    present,
                    *hook != "pre-push" || blocking,
                    "pre-commit: {hook}"
                );
            }
            assert_eq!(
                pre_commit_install(blocking).contains("--hook-type pre-push"),
                blocking
            );
        }
    }

    /// `text` pasted on the line below `repos:`.
    fn below_repos(existing: &str, text: &str) -> String {
        let at = existing.find("repos:").expect("repos:");
        let end = at + existing[at..].find('\n').expect("line end") + 1;
        format!("{}{text}{}", &existing[..end], &existing[end..])
    }

    /// Pasted below `repos:` or after the last entry, the entry lines up with the file's own
    /// entries, wherever their `-` is.
    #[test]
    fn the_pre_commit_entry_takes_the_column_of_the_files_entries() {
        let sample = "repos:\n-   repo: https://github.com/pre-commit/pre-commit-hooks\n    rev: v3.2.0\n    hooks:\n    -   id: trailing-whitespace\n";
        let indented = "# team hooks\nrepos:  # all of them\n\n  - repo: https://example.com/x\n    rev: v1\n    hooks:\n      - id: x\n";
        for (existing, column) in [(sample, 0), (indented, 2)] {
            let snippet = pre_commit_snippet(Some(existing), false);
            assert!(!snippet.whole_file);
            assert!(
                snippet
                    .text
                    .starts_with(&format!("{}- repo: local\n", " ".repeat(column))),
                "{}",
                snippet.text
            );
            for pasted in [
                format!("{existing}{}", snippet.text),
                below_repos(existing, &snippet.text),
            ] {
                let doc: serde_yaml::Value =
                    serde_yaml::from_str(&pasted).unwrap_or_else(|err| panic!("{err}\n{pasted}"));
                let repos = doc["repos"].as_sequence().expect("repos");
                assert_eq!(repos.len(), 2, "{pasted}");
                assert!(repos.iter().any(|repo| repo["repo"] == "local"), "{pasted}");
            }
        }
        for nothing in ["repos: []\n", "", "default_stages: [pre-commit]\n"] {
            assert!(pre_commit_snippet(Some(nothing), false).whole_file);
        }
    }

    #[test]
    fn a_manager_counts_as_configured_only_with_our_entry() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join(".pre-commit-config.yaml"), "repos: []\n").unwrap();
        assert!(!manager_configured(root, Manager::PreCommit));
        std::fs::write(
            root.join(".pre-commit-config.yaml"),
            pre_commit_snippet(None, false).text,
        )
        .unwrap();
        assert!(manager_configured(root, Manager::PreCommit));
        // The old snippet's shape (hooks outside any repo entry) is not a configuration.
        std::fs::write(
            root.join(".pre-commit-config.yaml"),
            "hooks:\n  - entry: lexictl hook post-commit\n",
        )
        .unwrap();
        assert!(!manager_configured(root, Manager::PreCommit));

        std::fs::write(root.join("lefthook.yml"), "pre-commit:\n  commands: {}\n").unwrap();
        assert!(!manager_configured(root, Manager::Lefthook));
        std::fs::write(root.join("lefthook.yml"), LEFTHOOK_SNIPPET).unwrap();
        assert!(manager_configured(root, Manager::Lefthook));

        std::fs::create_dir(root.join(".husky")).unwrap();
        assert!(!manager_configured(root, Manager::Husky));
        install(&root.join(".husky/post-commit"), "post-commit").unwrap();
        assert!(manager_configured(root, Manager::Husky));
    }
}
