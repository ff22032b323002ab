//! Generating `START_HERE.md` (seed §1): a mermaid topology of the top levels, navigation by intent
//! from what each directory says it is for, a convention index from the concepts (and a pointer to the practices the project's files declare), and the navigation
//! protocol, kept within `token_budgets.start_here_tokens` (real cl100k tokens near the budget). The
//! directories come ranked by [`super::importance`]: when the budget is short, the least important
//! go first, never the ones that sort last by name. The Ontology section, and any section a human
//! adds, is kept as written; the generated intro follows `scope_root`.

use std::collections::BTreeMap;

use crate::library::frontmatter;
use crate::library::markdown::{Document, Section};
use crate::library::start_here::{intro, NAVIGATION_PROTOCOL, PRACTICES_ROW};
use crate::project::{describe, detect, in_library, Project};
use crate::relpath::RelPath;
use crate::workspace::cache;

/// A directory as START_HERE shows it.
pub struct DirSummary {
    /// Project-relative (never the root).
    pub dir: String,
    /// What one goes there for: never a count of files.
    pub purpose: String,
}

const TOPOLOGY: &str = "Project Topology";
const NAVIGATION: &str = "Navigation by Intent";
const CONVENTIONS: &str = "Convention Index";

const PROTOCOL: &str = "Navigation Protocol";
const ONTOLOGY: &str = "Ontology";
/// The most directories START_HERE considers before the budget trims them.
const MAX_SHOWN: usize = 40;

/// The project's name: the config's, else what init would detect.
pub fn project_name(project: &Project) -> String {
    if project.config.project_name.is_empty() {
        detect::project_name(&project.root, None)
    } else {
        project.config.project_name.clone()
    }
}

/// Render START_HERE.md from the directory summaries, most important first, and the existing file
/// (whose foreign sections are kept).
pub fn render(project: &Project, dirs: &[DirSummary], existing: Option<&str>) -> String {
    let mut doc = existing
        .map(|text| Document::parse(&crate::library::normalize_newlines(text)))
        .unwrap_or_default();
    let name = project_name(project);
    doc.title = Some(format!("{name} — start here"));
    let roots: Vec<String> = project
        .config
        .scope_root
        .as_list()
        .iter()
        .map(|root| {
            root.trim_start_matches("./")
                .trim_end_matches('/')
                .to_string()
        })
        .map(|root| if root == "." { String::new() } else { root })
        .collect();
    // The generated intro follows the scope; one a human rewrote is theirs.
    if doc.preamble.trim().is_empty()
        || doc
            .preamble
            .trim_start()
            .starts_with("This is the library of ")
    {
        doc.preamble = intro(&name, &roots);
    }
    if doc.section(ONTOLOGY).is_none() {
        doc.sections.push(Section::new(
            ONTOLOGY,
            "- **design file** — `.lexibrary/<path>.md`: what a source file is for, its interface, dependencies and dependents.\n- **.aindex** — a directory's billboard, Child Map and Local Conventions.",
        ));
    }
    let ranked: Vec<&DirSummary> = dirs.iter().take(MAX_SHOWN).collect();
    let conventions = convention_index(project);
    let budget = project.config.token_budgets.start_here_tokens as usize;
    let mut limit = ranked.len();
    // Counts remembered by content: a run that renders the START_HERE of the last one does not
    // build the tokenizer (~50 ms, most of a one-file update) to count it again.
    let counts = std::sync::OnceLock::new();
    let counted = |text: &str| {
        counts
            .get_or_init(|| crate::tokens::CountCache::load(&project.token_counts_path()))
            .count(text)
    };
    let text = loop {
        let shown = with_parents(&ranked[..limit], dirs);
        let mut candidate = doc.clone();
        set_ordered(&mut candidate, TOPOLOGY, topology(&name, &shown));
        set_ordered(&mut candidate, NAVIGATION, navigation(&shown));
        set_ordered(&mut candidate, CONVENTIONS, conventions.clone());
        set_ordered(&mut candidate, PROTOCOL, NAVIGATION_PROTOCOL.to_string());
        // Nothing credential-shaped is written (a manifest description, a convention).
        let text = crate::secrets::redact(&candidate.render()).into_owned();
        // Real cl100k tokens, the same count `lexictl validate` checks the budget with — but only
        // near the budget: building the tokenizer costs more than a small update.
        let estimate = crate::tokens::estimate(&text);
        if limit == 0 || estimate * 4 < budget * 3 || counted(&text) <= budget {
            break text;
        }
        // Over budget: drop the least important directories.
        limit = limit.saturating_sub(limit.div_ceil(4).max(1));
    };
    if let Some(counts) = counts.get() {
        counts.save(&project.token_counts_path());
    }
    text
}

/// `chosen` in rank order, each second-level directory preceded by its parent (from `all`) when the
/// parent is not chosen itself, so the topology never has a dangling node.
fn with_parents<'a>(chosen: &[&'a DirSummary], all: &'a [DirSummary]) -> Vec<&'a DirSummary> {
    let mut out: Vec<&DirSummary> = Vec::new();
    for summary in chosen {
        if let Some(parent) = RelPath::new(&summary.dir).parent().map(RelPath::as_str) {
            let missing = !out.iter().any(|s| s.dir == parent);
            if let Some(found) = all.iter().find(|s| s.dir == parent).filter(|_| missing) {
                out.push(found);
            }
        }
        if !out.iter().any(|s| s.dir == summary.dir) {
            out.push(summary);
        }
    }
    out
}

/// What one goes to `dir` for: its manifest's description, else its billboard when that is more
/// than a count, else a package's crate doc (its `src/` billboard), else its README's first sentence, else the root manifest's for the project's own
/// code ([`project_code`]), else what its name conventionally holds, else
/// its package's name, else its largest files or subdirectories. `files` are the cache entries (path → entry).
pub fn purpose(
    project: &Project,
    dir: &str,
    billboard: &str,
    files: &BTreeMap<String, cache::Entry>,
) -> String {
    let summary = crate::workspace::child_map::billboard_summary(billboard);
    describe::manifest_description(project, dir)
        .or_else(|| describe::clean(&summary))
        .or_else(|| {
            // A package's crate doc: the billboard of its `src/`.
            let src = format!("{dir}/src");
            let inner = crate::workspace::child_map::existing_billboard(project, &src);
            describe::has_manifest(project, dir)
                .then(|| describe::clean(&crate::workspace::child_map::billboard_summary(&inner)))
                .flatten()
        })
        .or_else(|| describe::readme_sentence(project, dir))
        .or_else(|| project_code(project, dir))
        .or_else(|| describe::conventional_purpose(dir).map(str::to_string))
        .or_else(|| {
            let name = describe::package_name(project, dir)?;
            Some(format!("The `{name}` package."))
        })
        .unwrap_or_else(|| largest_files(dir, files))
}

/// For the directory that holds the project's own code — named like the project (`src/flask`), or
/// a first-level `src/` or `lib/` without such a directory inside — `` The code of <name>: <the root manifest's description> ``.
pub fn project_code(project: &Project, dir: &str) -> Option<String> {
    let name = project_name(project);
    let last = RelPath::new(dir).file_name();
    let package_inside = [name.clone(), name.to_lowercase()]
        .iter()
        .any(|inside| project.root.join(dir).join(inside).is_dir());
    let own = last.eq_ignore_ascii_case(&name) || matches!(dir, "src" | "lib") && !package_inside;
    if !own {
        return None;
    }
    let description = describe::manifest_description(project, "")?;
    Some(format!("The code of {name}: {description}"))
}

/// `` Files such as `a.rs`, `b.rs`. `` — the largest files directly in `dir`, code first; else
/// `` Holds `x/`, `y/`. `` — its subdirectories with the most code.
fn largest_files(dir: &str, files: &BTreeMap<String, cache::Entry>) -> String {
    let prefix = format!("{dir}/");
    let mut direct: Vec<(bool, u64, &str)> = Vec::new();
    let mut below: BTreeMap<&str, u64> = BTreeMap::new();
    for (path, entry) in files
        .range(prefix.clone()..)
        .take_while(|(path, _)| path.starts_with(&prefix))
    {
        let rest = &path[prefix.len()..];
        match rest.split_once('/') {
            None => direct.push((entry.interface_hash.is_some(), entry.stat.size, rest)),
            Some((sub, _)) => *below.entry(sub).or_default() += entry.stat.size,
        }
    }
    direct.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)).then(a.2.cmp(b.2)));
    if !direct.is_empty() {
        let names: Vec<String> = direct
            .iter()
            .take(3)
            .map(|(_, _, n)| format!("`{n}`"))
            .collect();
        return format!("Files such as {}.", names.join(", "));
    }
    let mut subs: Vec<(&str, u64)> = below.into_iter().collect();
    subs.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    if subs.is_empty() {
        let name = RelPath::new(dir).file_name();
        return format!("The `{name}/` directory.");
    }
    let names: Vec<String> = subs
        .iter()
        .take(4)
        .map(|(n, _)| format!("`{n}/`"))
        .collect();
    format!("Holds {}.", names.join(", "))
}

/// Set a section, placing a new one in the canonical order relative to the others.
fn set_ordered(doc: &mut Document, heading: &str, body: String) {
    if let Some(section) = doc.section_mut(heading) {
        section.body = body;
        return;
    }
    const ORDER: &[&str] = &[TOPOLOGY, ONTOLOGY, NAVIGATION, CONVENTIONS, PROTOCOL];
    let rank = ORDER
        .iter()
        .position(|h| *h == heading)
        .unwrap_or(ORDER.len());
    let position = doc
        .sections
        .iter()
        .position(|s| {
            ORDER
                .iter()
                .position(|h| h.eq_ignore_ascii_case(&s.heading))
                .is_some_and(|r| r > rank)
        })
        .unwrap_or(doc.sections.len());
    doc.sections.insert(position, Section::new(heading, body));
}

fn node_id(dir: &str) -> String {
    let mut id = String::from("d_");
    for ch in dir.chars() {
        id.push(if ch.is_ascii_alphanumeric() { ch } else { '_' });
    }
    id
}

fn topology(name: &str, dirs: &[&DirSummary]) -> String {
    if dirs.is_empty() {
        return "No directories indexed yet.".to_string();
    }
    let mut out = String::from("```mermaid\ngraph TD\n");
    out.push_str(&format!("  root[\"{}\"]\n", name.replace('"', "'")));
    for summary in dirs {
        let dir = RelPath::new(&summary.dir);
        let label = dir.file_name();
        let parent = match dir.parent() {
            Some(parent) => node_id(parent.as_str()),
            None => "root".to_string(),
        };
        out.push_str(&format!(
            "  {parent} --> {}[\"{}/\"]\n",
            node_id(&summary.dir),
            label.replace('"', "'")
        ));
    }
    out.push_str("```");
    out
}

fn navigation(dirs: &[&DirSummary]) -> String {
    let mut out = String::from("| I need to work on… | Start at |\n| --- | --- |");
    for summary in dirs {
        let purpose = summary.purpose.replace('|', "\\|");
        out.push_str(&format!("\n| {purpose} | `lexi index {}` |", summary.dir));
    }
    out.push_str("\n| understanding one file | `lexi lookup <file>` |");
    out
}

/// `- [[Title]] — summary` for each active concept in `.lexibrary/concepts/`.
fn convention_index(project: &Project) -> String {
    #[derive(serde::Deserialize, Default)]
    #[serde(default)]
    struct ConceptHead {
        title: String,
        status: String,
    }
    let dir = project.library_dir().join("concepts");
    let mut rows = Vec::new();
    if let Ok(entries) = std::fs::read_dir(&dir) {
        let mut paths: Vec<_> = entries
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        paths.sort();
        for path in paths {
            let name = path
                .file_name()
                .and_then(|name| name.to_str())
                .unwrap_or("");
            let Ok(text) = project.read_to_string(&in_library(&format!("concepts/{name}"))) else {
                continue;
            };
            let text = crate::library::normalize_newlines(&text).into_owned();
            let rel = path.display().to_string();
            let Ok(split) = frontmatter::split(&rel, &text) else {
                continue;
            };
            let head: ConceptHead = split
                .yaml
                .and_then(|yaml| frontmatter::parse(&rel, yaml).ok())
                .unwrap_or_default();
            if head.status == "deprecated" {
                continue;
            }
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or("")
                .to_string();
            let title = if head.title.is_empty() {
                name.clone()
            } else {
                head.title
            };
            let body = Document::parse(split.body);
            let summary = body
                .section("Summary")
                .map(|s| s.body.lines().next().unwrap_or("").trim().to_string())
                .unwrap_or_default();
            rows.push(if summary.is_empty() {
                format!("- [[{name}]] {title}")
            } else {
                format!("- [[{name}]] {title} — {summary}")
            });
        }
    }
    rows.push(PRACTICES_ROW.to_string());
    rows.join("\n")
}
