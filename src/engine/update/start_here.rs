//! Generating `START_HERE.md` (seed §1): a mermaid topology of the top levels, navigation by intent
//! from the directory billboards, a convention index from the concepts, and the navigation protocol,
//! kept within `token_budgets.start_here_tokens`. The Ontology section, and any section a human adds,
//! is kept as written.

use crate::library::frontmatter;
use crate::library::markdown::{Document, Section};
use crate::library::start_here::NAVIGATION_PROTOCOL;
use crate::project::{in_library, Project};

/// A directory as START_HERE shows it.
pub struct DirSummary {
    /// Project-relative (`""` is the root).
    pub dir: String,
    pub billboard: String,
}

const TOPOLOGY: &str = "Project Topology";
const NAVIGATION: &str = "Navigation by Intent";
const CONVENTIONS: &str = "Convention Index";
const PROTOCOL: &str = "Navigation Protocol";
const ONTOLOGY: &str = "Ontology";

/// Render START_HERE.md from the directory summaries (sorted by path; depth ≤ 2 is shown) and the
/// existing file (whose foreign sections are kept).
pub fn render(project: &Project, dirs: &[DirSummary], existing: Option<&str>) -> String {
    let mut doc = existing
        .map(|text| Document::parse(&crate::library::normalize_newlines(text)))
        .unwrap_or_default();
    let name = if project.config.project_name.is_empty() {
        project
            .root
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("project")
            .to_string()
    } else {
        project.config.project_name.clone()
    };
    doc.title = Some(format!("{name} — start here"));
    if doc.preamble.trim().is_empty() {
        doc.preamble = format!(
            "This is the library of {name}, kept by Lexibrarian for coding agents: one design file per source file under `.lexibrary/`, and a `.aindex` per directory."
        );
    }
    if doc.section(ONTOLOGY).is_none() {
        doc.sections.push(Section::new(
            ONTOLOGY,
            "- **design file** — `.lexibrary/<path>.md`: what a source file is for, its interface, dependencies and dependents.\n- **.aindex** — a directory's billboard, Child Map and Local Conventions.",
        ));
    }
    let shown: Vec<&DirSummary> = dirs
        .iter()
        .filter(|d| !d.dir.is_empty() && d.dir.split('/').count() <= 2)
        .collect();
    let conventions = convention_index(project);
    let budget = project.config.token_budgets.start_here_tokens as usize;
    let mut limit = shown.len();
    loop {
        let mut candidate = doc.clone();
        set_ordered(&mut candidate, TOPOLOGY, topology(&name, &shown[..limit]));
        set_ordered(&mut candidate, NAVIGATION, navigation(&shown[..limit]));
        set_ordered(&mut candidate, CONVENTIONS, conventions.clone());
        set_ordered(&mut candidate, PROTOCOL, NAVIGATION_PROTOCOL.to_string());
        let text = candidate.render();
        // Real cl100k tokens, the same count `lexictl validate` checks the budget with — but only
        // near the budget: building the tokenizer costs more than a small update.
        let estimate = crate::tokens::estimate(&text);
        if limit == 0 || estimate * 4 < budget * 3 || crate::tokens::count(&text) <= budget {
            return text;
        }
        // Over budget: show fewer directories (deepest first, since they sort after their parents).
        limit = limit.saturating_sub(limit.div_ceil(4).max(1));
    }
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
        let label = summary.dir.rsplit('/').next().unwrap_or(&summary.dir);
        let parent = match summary.dir.rfind('/') {
            Some(cut) => node_id(&summary.dir[..cut]),
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
        let purpose =
            crate::workspace::child_map::billboard_summary(&summary.billboard).replace('|', "\\|");
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
    if rows.is_empty() {
        "None recorded yet.".to_string()
    } else {
        rows.join("\n")
    }
}
