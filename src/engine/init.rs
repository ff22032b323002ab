//! Creating a library: what `lexictl init` writes, all or nothing.
//!
//! Everything under `.lexibrary/` is first built in a staging directory next to it, then renamed into
//! place as the very last step. Files outside it (`.lexignore`, `.gitignore`, agent rule files) are
//! written atomically before that rename and restored to their exact previous bytes if anything fails,
//! so a failed init (read-only directory, full disk, an obstacle) leaves the project as it was.
//!
//! Files are written the way `crate::atomic` writes everything: new ones with the umask's mode, and
//! an existing `.gitignore` or rule file keeps its mode (a group-writable `0664` stays so). Nothing
//! is read or written through a symlink: a symlinked `.gitignore` or `.lexignore` stops init, and a
//! symlinked agent rule file (say `CLAUDE.md → AGENTS.md`) is left alone, with a note in the report.

use std::path::{Path, PathBuf};

use anyhow::{bail, Context as _};

use super::agents::{self, record, rules};
use crate::atomic;
use crate::library::start_here;
use crate::project::config::{self, Config};
use crate::project::ignores::LEXIGNORE_FILE;
use crate::project::mapping::{self, Mapping, MappingConfig, MappingRule, Strategy};
use crate::project::scope::Scope;
use crate::project::{CACHE_DIR, CONFIG_FILE, LIBRARY_DIR};
use crate::workspace::coverage::Packages;

/// Lines `lexictl init` (and `lexictl setup --update`) make sure `.gitignore` has: ephemeral notes,
/// the caches, and the temporary files an interrupted write may leave.
pub const GITIGNORE_LINES: &[&str] =
    &["**/.iwh", ".lexibrary/.cache/", crate::atomic::TEMP_PATTERN];

/// Everything the wizard decided.
#[derive(Clone, Debug)]
pub struct InitPlan {
    pub root: PathBuf,
    pub config: Config,
    /// Extra patterns for `.lexignore`.
    pub lexignore_patterns: Vec<String>,
}

/// What was created or changed, project-relative, for the summary.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct InitReport {
    pub created: Vec<String>,
    pub modified: Vec<String>,
    /// Rule files that already had a Lexibrarian section and were left alone.
    pub unchanged: Vec<String>,
    /// What was left alone in agent files, and why (an existing hook, a server of the same name,
    /// a rule file that is a symlink).
    pub notes: Vec<String>,
}

/// A file outside `.lexibrary/` that init changes, with what to put back on failure.
struct Edit {
    rel: String,
    before: Option<Vec<u8>>,
    after: Vec<u8>,
}

/// The directory `.lexibrary/` is built in, removed again unless it was renamed into place. Made
/// with `create_dir`, so it gets the umask's mode (a temp dir would be `0700`).
struct Staging {
    path: PathBuf,
    done: bool,
}

impl Staging {
    fn create(root: &Path) -> anyhow::Result<Staging> {
        let path = root.join(format!(".lexibrary-init-{}", std::process::id()));
        // Left by an earlier init with our pid that was killed: ours to remove.
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir(&path)
            .with_context(|| format!("cannot write to {}", root.display()))?;
        Ok(Staging { path, done: false })
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if !self.done {
            let _ = std::fs::remove_dir_all(&self.path);
        }
    }
}

/// What `lexictl init` suggests for the project at `root`, from one walk of it.
pub struct Suggested {
    /// The scope roots: every package's code and tests as the manifests declare them (Cargo
    /// workspace members and the root package's targets, npm/yarn/pnpm workspace packages, Python
    /// package roots; `workspace::coverage`), else the conventional source directories
    /// (`project::detect::scope_suggestions`). Empty means the whole project.
    pub scope: Vec<String>,
    /// `grouped` mapping rules for the directories of data-driven test cases the defaults do not
    /// group already (`project::mapping::case_trees`).
    pub mapping_rules: Vec<MappingRule>,
}

/// [`Suggested`] for the project at `root`.
pub fn suggested(root: &Path) -> Suggested {
    let packages = Packages::read(root, &Config::default());
    let scope = match packages.scope_roots().as_slice() {
        [] => crate::project::detect::scope_suggestions(root),
        [whole] if whole.is_empty() => Vec::new(),
        roots => roots.to_vec(),
    };
    let defaults = Mapping::new(&MappingConfig::default(), root).unwrap_or_default();
    let mapping_rules = mapping::case_trees(packages.files.under(""))
        .into_iter()
        .filter(|tree| defaults.dir_strategy(tree.trim_matches('/')) != Strategy::Grouped)
        .map(|glob| MappingRule {
            glob,
            strategy: Strategy::Grouped,
        })
        .collect();
    Suggested {
        scope,
        mapping_rules,
    }
}

/// What `lexictl setup --update` did to `scope_root`.
#[derive(Clone, Debug, Default, serde::Serialize)]
pub struct Widened {
    /// The roots added, as written in the config.
    pub added: Vec<String>,
    /// What was out of scope before.
    pub uncovered: crate::workspace::coverage::Uncovered,
}

/// `lexictl setup --update` for `scope_root`: add the roots of the packages' code an older init
/// (or a narrower choice) left out, in place in `.lexibrary/config.yaml` (comments and other keys
/// kept). `None` when every package's code is in scope already.
pub fn widen_scope(project: &crate::project::Project) -> anyhow::Result<Option<Widened>> {
    let scope = Scope::from_config(&project.config, &project.library_dir().join(CONFIG_FILE))?;
    let packages = Packages::read(&project.root, &project.config);
    let uncovered = packages.uncovered(&scope);
    if uncovered.is_empty() {
        return Ok(None);
    }
    let written = |root: &String| match project.root.join(root).is_file() {
        true => root.clone(),
        false => format!("{root}/"),
    };
    let added: Vec<String> = uncovered.missing_roots.iter().map(written).collect();
    let roots = match uncovered.missing_roots.iter().any(String::is_empty) {
        true => config::ScopeRoots::One(".".to_string()),
        false => {
            let mut all: Vec<String> = project
                .config
                .scope_root
                .as_list()
                .into_iter()
                .map(str::to_string)
                .collect();
            all.extend(added.iter().cloned());
            config::ScopeRoots::Many(all)
        }
    };
    let rel = format!("{LIBRARY_DIR}/{CONFIG_FILE}");
    let text = crate::nofollow::read_to_string(&project.root, &rel)
        .with_context(|| format!("cannot read {rel}"))?;
    let updated = config::with_scope_root(&text, &roots);
    atomic::write_under(&project.root, &rel, updated.as_bytes())
        .with_context(|| format!("cannot write {rel}"))?;
    Ok(Some(Widened {
        added: match roots {
            config::ScopeRoots::One(whole) => vec![whole],
            config::ScopeRoots::Many(_) => added,
        },
        uncovered,
    }))
}

/// Apply `plan`. Fails without leaving anything behind.
pub fn apply(plan: &InitPlan) -> anyhow::Result<InitReport> {
    let root = &plan.root;
    if root.join(LIBRARY_DIR).exists() {
        bail!(
            "{} is already a Lexibrarian project ({LIBRARY_DIR}/ exists) — to refresh agent rules run `lexictl setup --update`",
            root.display()
        );
    }
    let scope = Scope::from_config(&plan.config, &root.join(LIBRARY_DIR).join(CONFIG_FILE))?;

    let mut report = InitReport::default();
    let (edits, record) = planned_edits(plan, &mut report)?;
    let mut staging = Staging::create(root)?;
    build_library(&staging.path, plan, &scope, &record)?;

    let mut applied: Vec<&Edit> = Vec::new();
    for edit in &edits {
        if let Err(err) = atomic::write_under(root, &edit.rel, &edit.after) {
            roll_back(root, &applied);
            return Err(err).with_context(|| format!("cannot write {}", edit.rel));
        }
        applied.push(edit);
    }
    if let Err(err) = std::fs::rename(&staging.path, root.join(LIBRARY_DIR)) {
        roll_back(root, &applied);
        return Err(err).with_context(|| format!("cannot create {LIBRARY_DIR}/"));
    }
    staging.done = true;

    for name in [CONFIG_FILE, "START_HERE.md", "concepts/", "stack/"] {
        report.created.insert(0, format!("{LIBRARY_DIR}/{name}"));
    }
    if !record.entries.is_empty() {
        report.created.push(record::Record::path());
    }
    report.created.sort();
    report.modified.sort();
    Ok(report)
}

fn build_library(
    dir: &Path,
    plan: &InitPlan,
    scope: &Scope,
    record: &record::Record,
) -> anyhow::Result<()> {
    let write = |name: &str, text: &str| {
        std::fs::write(dir.join(name), text)
            .with_context(|| format!("cannot write {LIBRARY_DIR}/{name}"))
    };
    write(CONFIG_FILE, &config::render(&plan.config))?;
    write(
        "START_HERE.md",
        &start_here::initial(&plan.config.project_name, scope.roots()),
    )?;
    for sub in ["concepts", "stack", CACHE_DIR] {
        std::fs::create_dir(dir.join(sub))
            .with_context(|| format!("cannot create {LIBRARY_DIR}/{sub}/"))?;
    }
    if !record.entries.is_empty() {
        write(record::RECORD_FILE, &record.render())?;
    }
    Ok(())
}

/// The files outside `.lexibrary/` init changes, and the record of what it adds to them.
fn planned_edits(
    plan: &InitPlan,
    report: &mut InitReport,
) -> anyhow::Result<(Vec<Edit>, record::Record)> {
    let mut edits = Vec::new();
    let mut push = |rel: &str, before: Option<Vec<u8>>, after: Vec<u8>, report: &mut InitReport| {
        if before.as_deref() == Some(after.as_slice()) {
            return;
        }
        if before.is_some() {
            report.modified.push(rel.to_string());
        } else {
            report.created.push(rel.to_string());
        }
        edits.push(Edit {
            rel: rel.to_string(),
            before,
            after,
        });
    };

    // The agents' files first: a file that cannot be parsed stops init before anything is written.
    let agents = agents::plan_init(&plan.root, &plan.config)?;
    let mut record = agents.record;
    report.notes = agents.notes;

    let lexignore = read_optional(&plan.root, LEXIGNORE_FILE)?;
    let lexignore_after = lexignore_text(lexignore.as_deref(), &plan.lexignore_patterns);
    record_own_file(
        &mut record,
        "init.lexignore",
        LEXIGNORE_FILE,
        lexignore.as_deref(),
        &lexignore_after,
    );
    push(
        LEXIGNORE_FILE,
        lexignore,
        lexignore_after.into_bytes(),
        report,
    );

    let gitignore = read_optional(&plan.root, ".gitignore")?;
    let gitignore_after = gitignore_text(gitignore.as_deref());
    record_own_file(
        &mut record,
        "init.gitignore",
        ".gitignore",
        gitignore.as_deref(),
        &gitignore_after,
    );
    push(
        ".gitignore",
        gitignore,
        gitignore_after.into_bytes(),
        report,
    );

    for change in agents.changes {
        if let Some(after) = change.after {
            push(&change.rel, change.before, after, report);
        }
    }
    for environment in &plan.config.agent_environment {
        let rel = rules::rules_file(*environment);
        // A symlinked rule file was left alone by the agents' plan (its note says so).
        let had_block = crate::nofollow::read(&plan.root, rel)
            .ok()
            .is_some_and(|bytes| rules::block_range(&String::from_utf8_lossy(&bytes)).is_some());
        if had_block && !edits.iter().any(|edit| edit.rel == rel) {
            report.unchanged.push(rel.to_string());
        }
    }
    Ok((edits, record))
}

/// Record what init adds to `.lexignore` or `.gitignore`: the whole file when it creates it, else
/// the lines it appends.
fn record_own_file(
    record: &mut record::Record,
    id: &str,
    rel: &str,
    before: Option<&[u8]>,
    after: &str,
) {
    let kind = match before {
        None => {
            record.created.insert(rel.to_string(), Vec::new());
            record::Kind::File {
                sha256: crate::hash::sha256_hex(after.as_bytes()),
            }
        }
        Some(before) => {
            let before = String::from_utf8_lossy(before);
            let lines: Vec<String> = after
                .lines()
                .filter(|line| !line.trim().is_empty() && !before.lines().any(|old| old == *line))
                .map(str::to_string)
                .collect();
            if lines.is_empty() {
                return;
            }
            record::Kind::Lines { lines }
        }
    };
    record.put(record::Entry {
        id: id.to_string(),
        file: rel.to_string(),
        kind,
    });
}

/// The bytes of `rel` if it exists; a symlink is refused by name (never read through).
fn read_optional(root: &Path, rel: &str) -> anyhow::Result<Option<Vec<u8>>> {
    match crate::nofollow::read(root, rel) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(err) if crate::nofollow::is_refused(&err) => Err(err.into()),
        // A parent that is not a directory means the file cannot exist yet; writing it will say why.
        Err(err)
            if matches!(
                err.kind(),
                std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
            ) =>
        {
            Ok(None)
        }
        Err(err) => Err(err).with_context(|| format!("cannot read {rel}")),
    }
}

fn lexignore_text(existing: Option<&[u8]>, patterns: &[String]) -> String {
    let mut text = match existing {
        Some(bytes) => String::from_utf8_lossy(bytes).into_owned(),
        None => "# Files Lexibrarian should not document, in .gitignore syntax.\n\
                 # Applied on top of .gitignore. Secrets (.env*, *.pem, *.key, …) are always ignored.\n"
            .to_string(),
    };
    for pattern in patterns {
        if !text.lines().any(|line| line.trim() == pattern.trim()) {
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(pattern.trim());
            text.push('\n');
        }
    }
    text
}

/// `.gitignore` with every line of [`GITIGNORE_LINES`]: missing ones go after the last one present,
/// or (none present) in a new commented block at the end.
pub(crate) fn gitignore_text(existing: Option<&[u8]>) -> String {
    let mut text = existing
        .map(|bytes| String::from_utf8_lossy(bytes).into_owned())
        .unwrap_or_default();
    let present = |line: &str| text.lines().any(|existing| existing.trim() == line);
    let missing: Vec<&str> = GITIGNORE_LINES
        .iter()
        .copied()
        .filter(|line| !present(line))
        .collect();
    if missing.is_empty() {
        return text;
    }
    if missing.len() < GITIGNORE_LINES.len() {
        return with_lines_after_ours(&text, &missing);
    }
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    if !text.is_empty() {
        text.push('\n');
    }
    text.push_str("# Lexibrarian: ephemeral agent notes, local caches, temporary files\n");
    for line in missing {
        text.push_str(line);
        text.push('\n');
    }
    text
}

/// `text` with `missing` inserted after the last line of [`GITIGNORE_LINES`] it has.
fn with_lines_after_ours(text: &str, missing: &[&str]) -> String {
    let mut lines: Vec<&str> = text.lines().collect();
    let last = lines
        .iter()
        .rposition(|line| GITIGNORE_LINES.contains(&line.trim()))
        .map_or(lines.len(), |at| at + 1);
    for (offset, line) in missing.iter().enumerate() {
        lines.insert(last + offset, line);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// `lexictl setup --update` for `.gitignore`: add the lines an older `lexictl init` did not write.
/// Returns whether it changed the file (a missing `.gitignore` is created; a symlink is refused).
pub fn refresh_gitignore(root: &Path) -> anyhow::Result<bool> {
    let existing = read_optional(root, ".gitignore")?;
    let updated = gitignore_text(existing.as_deref());
    if existing.as_deref() == Some(updated.as_bytes()) {
        return Ok(false);
    }
    atomic::write_under(root, ".gitignore", updated.as_bytes())
        .context("cannot write .gitignore")?;
    Ok(true)
}

/// Put every applied edit back the way it was, newest first. Best effort: we are already failing.
fn roll_back(root: &Path, applied: &[&Edit]) {
    for edit in applied.iter().rev() {
        let _ = match &edit.before {
            Some(bytes) => atomic::write_under(root, &edit.rel, bytes),
            None => crate::nofollow::remove_file(root, &edit.rel),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gitignore_lines_are_added_once() {
        let once = gitignore_text(Some(b"target/"));
        assert_eq!(
            once,
            "target/\n\n# Lexibrarian: ephemeral agent notes, local caches, temporary files\n**/.iwh\n.lexibrary/.cache/\n.lexi-tmp-*\n"
        );
        assert_eq!(gitignore_text(Some(once.as_bytes())), once);
        // An older init's block gets the new line next to the old ones.
        let older = "target/\n\n# Lexibrarian: ephemeral agent notes and local caches\n**/.iwh\n.lexibrary/.cache/\n\n*.log\n";
        assert_eq!(
            gitignore_text(Some(older.as_bytes())),
            "target/\n\n# Lexibrarian: ephemeral agent notes and local caches\n**/.iwh\n.lexibrary/.cache/\n.lexi-tmp-*\n\n*.log\n"
        );
    }
}
