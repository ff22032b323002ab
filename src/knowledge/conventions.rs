//! Local Conventions as agents add and read them (seed Q-004): `lexi convention add <dir> "<rule>"
//! [--tag t] [--concept Name]` appends one structured rule to the directory's `.aindex`, and
//! `lexi conventions [<dir>]` lists every rule that applies there, inherited from each parent.
//!
//! A convention is one list item of the `## Local Conventions` section:
//!
//! ```text
//! - Every handler returns a Response, never a bare dict. (tags: http, errors; concepts: [[ErrorHandling]])
//! ```
//!
//! The suffix is optional (hand-written items have none) and is what `--tag`/`--concept` add. The
//! section is preserved byte for byte by `lexictl update` (`library::aindex`), so adding appends
//! to what is there and never rewrites the other items. The write happens under the library lock
//! and atomically; a directory without an `.aindex` gets one with its current Child Map.

use std::io::ErrorKind;

use anyhow::{bail, Context as _};

use super::concepts::canonical_names;
use crate::library::aindex::{AIndex, LOCAL_CONVENTIONS};
use crate::library::markdown::list_items;
use crate::library::wikilink::{self, Wikilink};
use crate::project::mirror::aindex_path;
use crate::project::paths::ancestors_rel;
use crate::project::practices::{self, Practices};
use crate::project::{walk, Project};
use crate::relpath::RelPath;
use crate::workspace::child_map::child_entries;
use crate::workspace::lock::LibraryLock;

/// One rule of a directory's Local Conventions.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Convention {
    /// Project-relative directory whose `.aindex` holds it (`""` for the root).
    pub directory: String,
    /// The rule, without the structured suffix.
    pub rule: String,
    pub tags: Vec<String>,
    /// Concept names the rule links.
    pub concepts: Vec<String>,
    /// The list item as written.
    pub text: String,
}

impl Convention {
    /// Parse one list item of `directory`'s Local Conventions.
    pub fn parse(directory: &str, item: &str) -> Convention {
        let text = item.trim().to_string();
        let concepts = wikilink::extract(&text)
            .into_iter()
            .filter_map(|link| match link {
                Wikilink::Concept(name) => Some(name),
                Wikilink::Stack(_) => None,
            })
            .collect();
        let (rule, tags) = match split_suffix(&text) {
            Some((rule, suffix)) => (rule.to_string(), suffix_tags(suffix)),
            None => (text.clone(), Vec::new()),
        };
        Convention {
            directory: directory.to_string(),
            rule,
            tags,
            concepts,
            text,
        }
    }

    /// The list item for a rule with its tags and concepts.
    pub fn item(rule: &str, tags: &[String], concepts: &[String]) -> String {
        let mut parts = Vec::new();
        if !tags.is_empty() {
            parts.push(format!("tags: {}", tags.join(", ")));
        }
        if !concepts.is_empty() {
            let links: Vec<String> = concepts.iter().map(|name| format!("[[{name}]]")).collect();
            parts.push(format!("concepts: {}", links.join(", ")));
        }
        if parts.is_empty() {
            rule.to_string()
        } else {
            format!("{rule} ({})", parts.join("; "))
        }
    }
}

/// `rule (tags: …; concepts: …)` → (`rule`, `tags: …; concepts: …`).
fn split_suffix(text: &str) -> Option<(&str, &str)> {
    let body = text.strip_suffix(')')?;
    let open = body.rfind(" (")?;
    let suffix = &body[open + 2..];
    let structured = suffix
        .split(';')
        .all(|part| part.trim().starts_with("tags:") || part.trim().starts_with("concepts:"));
    structured.then(|| (body[..open].trim_end(), suffix))
}

fn suffix_tags(suffix: &str) -> Vec<String> {
    suffix
        .split(';')
        .filter_map(|part| part.trim().strip_prefix("tags:"))
        .flat_map(|tags| tags.split(','))
        .map(|tag| tag.trim().to_lowercase())
        .filter(|tag| !tag.is_empty())
        .collect()
}

/// The Local Conventions of one directory's `.aindex`, as written.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct DirConventions {
    /// Project-relative directory (`""` for the root).
    pub directory: String,
    pub conventions: Vec<Convention>,
    /// The section body as written.
    #[serde(skip)]
    pub raw: String,
}

/// The Local Conventions of each of `dirs` that has any, in the order given.
pub fn of_dirs(project: &Project, dirs: &[&str]) -> anyhow::Result<Vec<DirConventions>> {
    let mut out = Vec::new();
    for dir in dirs {
        let rel = aindex_path(dir);
        let text = match project.read_to_string(&rel) {
            Ok(text) => text,
            Err(err) if err.kind() == ErrorKind::NotFound => continue,
            Err(err) => return Err(err).with_context(|| format!("cannot read {rel}")),
        };
        let index = AIndex::parse(&rel, dir, &text)?;
        let raw = index.local_conventions_raw();
        if raw.trim().is_empty() {
            continue;
        }
        out.push(DirConventions {
            directory: dir.to_string(),
            conventions: list_items(raw)
                .iter()
                .map(|item| Convention::parse(dir, item))
                .collect(),
            raw: raw.to_string(),
        });
    }
    Ok(out)
}

/// The conventions that apply in project-relative directory `dir`: its own and every parent's,
/// root first.
pub fn applying_in(project: &Project, dir: &str) -> anyhow::Result<Vec<DirConventions>> {
    let shown = if dir.is_empty() { "." } else { dir };
    if !project.abs(dir).is_dir() {
        if project.abs(dir).is_file() {
            bail!("{shown} is a file; conventions belong to directories — try `lexi lookup {shown}` (it shows the conventions that apply to the file)");
        }
        bail!("{shown} is not a directory in the project");
    }
    let mut dirs = ancestors_rel(dir);
    if !dir.is_empty() {
        dirs.push(dir);
    }
    of_dirs(project, &dirs)
}

/// What [`add`] did.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Added {
    /// The `.aindex` written (project-relative).
    pub path: String,
    pub directory: String,
    /// The item as written.
    pub convention: String,
    /// The directory had no `.aindex`: one was created.
    pub created: bool,
    /// `false` when the same rule was already recorded there.
    pub changed: bool,
}

/// A rule to add.
#[derive(Clone, Debug, Default)]
pub struct NewConvention {
    pub rule: String,
    pub tags: Vec<String>,
    /// Concept names, titles or aliases; stored by canonical name.
    pub concepts: Vec<String>,
}

/// Append `new` to the Local Conventions of project-relative directory `dir`.
pub fn add(project: &Project, dir: &str, new: &NewConvention) -> anyhow::Result<Added> {
    let shown = if dir.is_empty() { "." } else { dir };
    let rule = new.rule.split_whitespace().collect::<Vec<_>>().join(" ");
    if rule.is_empty() {
        bail!("the rule is empty; say in a sentence what everyone working in {shown} must do");
    }
    if rule.starts_with('#') || rule.starts_with("- ") {
        bail!("write the rule as a sentence, without a leading `#` or `- `");
    }
    let mut tags = Vec::new();
    for tag in &new.tags {
        let tag = tag.trim().to_lowercase();
        if tag.is_empty() || tag.contains([',', ';', '(', ')']) || tag.contains(char::is_whitespace)
        {
            bail!("invalid tag {tag:?}: one word, no spaces, commas or parentheses");
        }
        if !tags.contains(&tag) {
            tags.push(tag);
        }
    }
    let concepts = canonical_names(project, &new.concepts)?;
    ensure_indexed_dir(project, dir)?;
    let item = Convention::item(&rule, &tags, &concepts);
    let _lock = LibraryLock::acquire(project)?;
    let path = aindex_path(dir);
    let (mut index, created) = match super::index::read(project, dir)? {
        Some(existing) => (existing.index, false),
        None => {
            let billboard = format!("{shown}/");
            let (children, _) = child_entries(project, dir);
            (
                AIndex::new(dir, billboard.trim_end_matches('/'), &children),
                true,
            )
        }
    };
    let raw = index.local_conventions_raw().trim_end().to_string();
    if list_items(&raw)
        .iter()
        .any(|existing| existing.trim() == item)
    {
        return Ok(Added {
            path,
            directory: dir.to_string(),
            convention: item,
            created,
            changed: false,
        });
    }
    let body = if raw.trim().is_empty() {
        format!("- {item}")
    } else {
        format!("{raw}\n- {item}")
    };
    index.doc.set_section(LOCAL_CONVENTIONS, body);
    let changed = project
        .write_if_changed(&path, index.render().as_bytes())
        .with_context(|| format!("cannot write {path}"))?;
    Ok(Added {
        path,
        directory: dir.to_string(),
        convention: item,
        created,
        changed,
    })
}

/// Fail unless `dir` is a directory of the project that the library indexes.
fn ensure_indexed_dir(project: &Project, dir: &str) -> anyhow::Result<()> {
    let shown = if dir.is_empty() { "." } else { dir };
    if project.abs(dir).is_file() {
        bail!("{shown} is a file; conventions belong to a directory — give its directory");
    }
    if !project.abs(dir).is_dir() {
        bail!("{shown} is not a directory in the project");
    }
    let listed = dir.is_empty()
        || walk::list_dir(&project.root, &project.config, RelPath::new(dir).dir())
            .entries
            .iter()
            .any(|entry| entry.rel == dir);
    if !listed {
        bail!("{shown} is ignored (by .gitignore, .lexignore or the config's ignore patterns), so it has no index");
    }
    Ok(())
}

/// The text `lexi conventions` prints: each directory's rules, root first, then the practices the
/// project's files declare — the first few of each topic unless `all`, with how many were left out,
/// or a pointer to `--all` when a line was cut (`practices::Detail::Short`) — and the
/// configuration files that were skipped.
pub fn render(dir: &str, found: &[DirConventions], declared: &Practices, all: bool) -> String {
    render_pointing(dir, found, declared, all, "`lexi conventions --all`")
}

/// [`render`], naming `rest` as the way to every practice whole (the MCP tool's `full: true`).
pub fn render_pointing(
    dir: &str,
    found: &[DirConventions],
    declared: &Practices,
    all: bool,
    rest: &str,
) -> String {
    let mut out = local_conventions_text(dir, found);
    let (shown, left) = match all {
        true => (declared.practices.iter().collect(), 0),
        false => practices::shown(&declared.practices),
    };
    if !shown.is_empty() {
        out.push_str("\n## Practices the project's files declare\n\n");
        for practice in shown {
            out.push_str(&format!("- {} ({})\n", practice.practice, practice.source));
        }
        if left > 0 {
            out.push_str(&format!("- … and {left} more ({rest})\n"));
        } else if !all && declared.practices.iter().any(is_cut) {
            out.push_str(&format!("- (cut short above: {rest} shows each whole)\n"));
        }
    }
    for warning in &declared.warnings {
        out.push_str(&format!(
            "\nwarning: {}: {}\n",
            warning.source, warning.message
        ));
    }
    out
}

/// Whether a practice line was cut short: a command or rule ending `…`, or a list ending "and N
/// more".
fn is_cut(practice: &practices::Practice) -> bool {
    let text = &practice.practice;
    text.contains('…')
        || text.contains(" more (")
        || text.contains(" more.")
        || text.contains(" more;")
}

fn local_conventions_text(dir: &str, found: &[DirConventions]) -> String {
    let shown = if dir.is_empty() { "./" } else { dir };
    if found.is_empty() {
        return format!(
            "No Local Conventions apply in {shown} yet. Add one: lexi convention add {} \"<rule>\"\n",
            if dir.is_empty() { "." } else { dir }
        );
    }
    let mut out = String::new();
    for conventions in found {
        let from = if conventions.directory.is_empty() {
            "./".to_string()
        } else {
            format!("{}/", conventions.directory)
        };
        out.push_str(&format!("## From {from}\n\n"));
        if conventions.conventions.is_empty() {
            out.push_str(conventions.raw.trim());
            out.push('\n');
        }
        for convention in &conventions.conventions {
            out.push_str(&format!("- {}\n", convention.text));
        }
        out.push('\n');
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn structured_items_round_trip() {
        let item = Convention::item(
            "Use UTC everywhere.",
            &["time".into(), "db".into()],
            &["Timezones".into()],
        );
        assert_eq!(
            item,
            "Use UTC everywhere. (tags: time, db; concepts: [[Timezones]])"
        );
        let parsed = Convention::parse("src", &item);
        assert_eq!(parsed.rule, "Use UTC everywhere.");
        assert_eq!(parsed.tags, ["time", "db"]);
        assert_eq!(parsed.concepts, ["Timezones"]);
    }

    #[test]
    fn hand_written_items_keep_their_parentheses() {
        let parsed = Convention::parse("", "Prefer `Result` (never panic) in library code");
        assert_eq!(parsed.rule, "Prefer `Result` (never panic) in library code");
        assert!(parsed.tags.is_empty());
        let plain = Convention::parse("", "Errors go through [[ErrorHandling]] (see docs)");
        assert_eq!(plain.concepts, ["ErrorHandling"]);
        assert_eq!(plain.rule, plain.text);
    }
}
