//! `lexi hook pre-edit`: what Claude Code's `PreToolUse` hook on Edit/MultiEdit/Write answers when
//! `claude.pre_edit_lookup` is on — a short lookup of the file about to be edited (description,
//! staleness, inherited Local Conventions, the reminder to update the design file), handed back as
//! `additionalContext`.
//!
//! Safe with any path: the path comes from the hook's JSON on stdin (`tool_input.file_path`), is
//! parsed here and resolved with the CLI's rules — it never passes through a shell (the Python
//! edition pasted it into `python3 -c` code, FACTS §1 defect 9). A path outside the project, in
//! `.git/` or `.lexibrary/`, a file without a design file, a malformed input: the hook says
//! nothing and the edit goes on. Fast: the design file and the ancestors' `.aindex` files only.
//! Within one Claude Code session the same file is announced once until its design file changes.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::lookup::{lookup, Lookup};
use crate::hash::sha256_hex;
use crate::project::{paths, Project, CACHE_DIR};

/// The hook's answer for `input` (the JSON Claude Code sends), run from `cwd`; `None` when there is
/// nothing to say.
pub fn answer(cwd: &Path, input: &str) -> Option<String> {
    let input: Value = serde_json::from_str(input).ok()?;
    let tool_input = input.get("tool_input")?;
    let file = tool_input
        .get("file_path")
        .or_else(|| tool_input.get("notebook_path"))
        .and_then(Value::as_str)
        .filter(|file| !file.is_empty())?;
    let base = input
        .get("cwd")
        .and_then(Value::as_str)
        .map(PathBuf::from)
        .filter(|dir| dir.is_absolute())
        .unwrap_or_else(|| cwd.to_path_buf());
    let project = Project::discover(&base).ok()?;
    if !project.config.claude.pre_edit_lookup {
        return None;
    }
    let source = paths::resolve(&project.root, &base, Path::new(file)).ok()?;
    let found = lookup(&project, &source).ok()?;
    let session = input.get("session_id").and_then(Value::as_str);
    if let Some(session) = session {
        if !first_time(&project, session, &found) {
            return None;
        }
    }
    let output = serde_json::json!({
        "hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "additionalContext": brief(&found),
        }
    });
    Some(output.to_string())
}

/// A few lines about the file: what it is, whether its design file is current, the conventions
/// that apply, and what to do after the edit.
pub fn brief(found: &Lookup) -> String {
    let mut out = format!(
        "Lexibrarian — {}: {}\n",
        found.source,
        found.design.frontmatter.description.trim()
    );
    if let Some(warning) = found.staleness.warning() {
        out.push_str(warning);
        out.push('\n');
    }
    for conventions in &found.conventions {
        let from = if conventions.directory.is_empty() {
            "./".to_string()
        } else {
            format!("{}/", conventions.directory)
        };
        for item in &conventions.items {
            out.push_str(&format!("Convention (from {from}): {item}\n"));
        }
    }
    out.push_str(&format!(
        "After editing, update {} (description, and `updated_by: agent`). The whole design file: `lexi lookup {}`.\n",
        found.design_path, found.source
    ));
    out
}

/// Whether this session has not yet been told about this version of the file's design file; marks
/// it told. A cache that cannot be written just means telling again.
fn first_time(project: &Project, session: &str, found: &Lookup) -> bool {
    let dir = project.library_dir().join(CACHE_DIR).join("pre-edit");
    let path = dir.join(&sha256_hex(session.as_bytes())[..16]);
    let line = format!("{}\t{}", found.source, sha256_hex(found.content.as_bytes()));
    let seen = std::fs::read_to_string(&path).unwrap_or_default();
    if seen.lines().any(|existing| existing == line) {
        return false;
    }
    if seen.is_empty() {
        forget_old_sessions(&dir);
    }
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::write(&path, format!("{seen}{line}\n"));
    true
}

/// Remove the records of sessions untouched for a day.
fn forget_old_sessions(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let day = std::time::Duration::from_secs(24 * 3600);
    for entry in entries.flatten() {
        let old = entry
            .metadata()
            .and_then(|meta| meta.modified())
            .ok()
            .and_then(|modified| modified.elapsed().ok())
            .is_some_and(|age| age > day);
        if old {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}
