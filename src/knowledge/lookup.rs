//! `lexi lookup <file>`: a source file's design file, whether it is still current, and the Local
//! Conventions inherited from every parent directory's `.aindex` (seed D-050).
//!
//! This is the hottest read path (agents call it before every edit), so it touches only the design
//! file, the source file (to hash it, and to list its members), the ancestor `.aindex` files and —
//! `lexi lookup` through [`lookup_in`] — the dependency graph of the last update (a derived file
//! beside the per-clone cache, of which it reads only the lines it needs): no walk, no git. The
//! graph gives the whole dependency lists, the tests that exercise the file, ranked as `lexi impact`
//! ranks them, marks the dependents that import it only for types ([`reach`]), and holds the calls
//! between members ([`attach_calls`], `super::calls`).
//!
//! A plain lookup is compact ([`compact`]): at most about 1,000 tokens whatever the file — its
//! members one line each with their doc's first sentence ([`members`]: from the record the last
//! update kept of that content, `workspace::outlines`, else parsed from the source), one line per
//! list with its count and top entries, and where the rest is. The
//! source is also parsed when the footer says an agent's Interface Contract may have been left
//! behind by the code (`workspace::contract`), which then adds a warning. `--full`
//! ([`lookup_full`]) prints every section whole, and makes whole what the design file's budget cut
//! (`super::whole`): lists from the graph of the last update, a contract from the source.

use std::io::ErrorKind;

use anyhow::{bail, Context as _};

use super::whole::{whole_sections, Whole};
use crate::hash::sha256_hex;
use crate::library::design_file::{sections, DesignFile};
use crate::library::footer;
use crate::library::markdown::{list_items, Fence};
use crate::project::mapping::Strategy;
use crate::project::mirror::{design_path, group_path};
use crate::project::paths::ancestors_rel;
use crate::project::scope::Scope;
use crate::project::{Project, CONFIG_FILE, LIBRARY_DIR};
use crate::relpath::RelPath;
use crate::workspace::calls::CallsView;
use crate::workspace::contract::{drift_of, Drift};
use crate::workspace::outlines::{MemberOutline, OutlineStore};
use crate::workspace::Workspace;

pub mod compact;
pub mod member;
pub mod members;
mod reach;
pub use reach::Reach;

/// Whether the design file still describes the source as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Staleness {
    /// The source hashes to the footer's `source_hash`.
    Current,
    /// The source changed since the design file was last updated.
    SourceChanged,
    /// The source file no longer exists.
    SourceMissing,
    /// No footer: written by hand and not yet tracked by `lexictl update`.
    Untracked,
}

impl Staleness {
    /// The warning printed above a design file that may be outdated.
    pub fn warning(self) -> Option<&'static str> {
        match self {
            Staleness::Current => None,
            Staleness::SourceChanged => {
                Some("> ⚠️ This doc may be outdated. Source file changed since last update.")
            }
            Staleness::SourceMissing => {
                Some("> ⚠️ This doc may be outdated. The source file no longer exists.")
            }
            Staleness::Untracked => Some(
                "> ℹ️ This design file has no lexibrarian footer yet; `lexictl update` will start tracking it.",
            ),
        }
    }
}

/// Local Conventions from one ancestor directory's `.aindex`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct InheritedConventions {
    /// Project-relative directory (`""` for the root).
    pub directory: String,
    pub items: Vec<String>,
    /// The section body as written.
    #[serde(skip)]
    pub raw: String,
}

/// Everything `lexi lookup` reports.
#[derive(Clone, Debug)]
pub struct Lookup {
    pub source: String,
    pub design_path: String,
    /// The design file text above the footer, exactly as on disk.
    pub content: String,
    pub design: DesignFile,
    pub staleness: Staleness,
    /// An agent's Interface Contract written for an interface the code no longer has.
    pub contract: Option<Drift>,
    pub conventions: Vec<InheritedConventions>,
    /// `--full`: the sections the design file's budget cut, whole ([`lookup_full`]); `None` for a
    /// plain lookup.
    pub whole: Option<Whole>,
    /// What the compact view adds ([`lookup_in`]): the source's members, the graph's whole lists,
    /// the twins; `None` for a plain [`lookup`].
    pub compact: Option<compact::Compact>,
    /// What the graph of the last update adds ([`lookup_in`], [`lookup_full`]): the ranked tests and
    /// the type-only dependents; `None` for a plain [`lookup`] or without a graph.
    pub reach: Option<Reach>,
    /// Calls and Called from (`workspace::calls`), once [`attach_calls`] read them; `None` before,
    /// or when the last update did not see the file or found no calls.
    pub calls: Option<CallsView>,
}

impl Lookup {
    /// The text `lexi lookup` prints (and the MCP `lookup` tool answers): the compact view
    /// ([`compact`]), at most [`compact::COMPACT_BYTES`].
    pub fn to_text(&self) -> String {
        let none = compact::Compact::default();
        compact::render(self, self.compact.as_ref().unwrap_or(&none))
    }

    /// The text `lexi lookup --full` prints: the warnings, the design file without its footer with
    /// every section whole — (after [`lookup_full`]) what the design file's budget cut made whole
    /// again — the tests, the calls, then the inherited Local Conventions, root first.
    pub fn to_full_text(&self) -> String {
        let mut out = String::new();
        for warning in self.warnings() {
            out.push_str(&warning);
            out.push_str("\n\n");
        }
        match self
            .whole
            .as_ref()
            .filter(|whole| !whole.sections.is_empty())
        {
            Some(whole) => out.push_str(&replace_sections(&self.content, &whole.sections)),
            None => out.push_str(&self.content),
        }
        if let Some(reach) = &self.reach {
            out = reach::with_reach(&out, reach, &self.source, true);
        }
        out.push('\n');
        if let Some(calls) = &self.calls {
            out.push_str(&super::calls::render(calls, true));
        }
        if !self.conventions.is_empty() {
            out.push_str("\n## Inherited Local Conventions\n");
            for conventions in &self.conventions {
                let dir = if conventions.directory.is_empty() {
                    "./".to_string()
                } else {
                    format!("{}/", conventions.directory)
                };
                out.push_str(&format!("\n### From {dir}\n\n{}\n", conventions.raw));
            }
        }
        out
    }

    /// The JSON `lexi lookup --format json` prints (fields documented in docs/commands.md): the
    /// sections as stored, or — after [`lookup_full`] — made whole, with `expanded` naming those.
    pub fn to_json(&self) -> serde_json::Value {
        let whole_body = |heading: &str| {
            let whole = self.whole.as_ref()?;
            let found = whole.sections.iter().find(|(h, _)| h == heading);
            found.map(|(_, body)| body.as_str())
        };
        let sections: Vec<_> = self
            .design
            .body
            .sections
            .iter()
            .map(|section| {
                let body = whole_body(&section.heading).unwrap_or(&section.body);
                let body = match (&self.reach, section.heading.as_str()) {
                    (Some(reach), heading)
                        if heading.eq_ignore_ascii_case(sections::DEPENDENTS) =>
                    {
                        reach::mark_type_only(body, &reach.type_only_dependents)
                    }
                    _ => body.to_string(),
                };
                serde_json::json!({"heading": section.heading, "body": body})
            })
            .collect();
        let mut json = serde_json::json!({
            "source": self.source,
            "design_file": self.design_path,
            "staleness": self.staleness,
            "stale": self.staleness != Staleness::Current,
            "contract": self.contract,
            "frontmatter": self.design.frontmatter,
            "title": self.design.body.title,
            "preamble": self.design.body.preamble,
            "sections": sections,
            "footer": self.design.footer,
            "conventions": self.conventions,
        });
        if let Some(reach) = &self.reach {
            let (shown, left_out) = reach::shown_tests(reach, self.whole.is_some());
            json["tests"] = serde_json::json!(shown);
            json["tests_left_out"] = serde_json::json!(left_out);
        }
        if let Some(whole) = &self.whole {
            let expanded: Vec<&str> = whole.sections.iter().map(|(h, _)| h.as_str()).collect();
            json["expanded"] = serde_json::json!(expanded);
            json["notes"] = serde_json::json!(whole.notes);
        }
        if let Some(calls) = &self.calls {
            json["calls"] = serde_json::json!(calls.calls);
            json["called_from"] = serde_json::json!(calls.called_from);
        }
        json
    }

    /// The warnings printed above the design file: staleness, then a contract the code left behind.
    pub fn warnings(&self) -> Vec<String> {
        let mut warnings: Vec<String> = self
            .staleness
            .warning()
            .map(String::from)
            .into_iter()
            .collect();
        if let Some(whole) = &self.whole {
            warnings.extend(whole.notes.iter().cloned());
        }
        if let Some(drift) = &self.contract {
            let symbols = drift.symbols.summary();
            let which = if symbols.is_empty() {
                String::new()
            } else {
                format!(" ({symbols})")
            };
            warnings.push(format!(
                "> ⚠️ The interface changed since this design file was written: its Interface Contract no longer matches {}{which}. Read the source for the real signatures.",
                self.source
            ));
        }
        warnings
    }
}

/// `content` with the bodies of the `## ` sections named in `replaced` swapped (headings outside
/// code fences only).
fn replace_sections<H: AsRef<str>>(content: &str, replaced: &[(H, String)]) -> String {
    let mut out = String::with_capacity(content.len());
    let mut fence = Fence::default();
    let mut skipping = false;
    for line in content.lines() {
        let in_fence = fence.inside(line);
        let heading = (!in_fence || skipping)
            .then(|| line.strip_prefix("## "))
            .flatten()
            .map(str::trim);
        if let Some(heading) = heading.filter(|_| !in_fence) {
            skipping = false;
            if let Some((_, body)) = replaced
                .iter()
                .find(|(h, _)| h.as_ref().eq_ignore_ascii_case(heading))
            {
                out.push_str(line);
                out.push_str("\n\n");
                out.push_str(body.trim_end());
                out.push_str("\n\n");
                skipping = true;
                continue;
            }
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
        }
    }
    out.trim_end().to_string()
}

/// Look up the design file of project-relative `source`.
pub fn lookup(project: &Project, source: &str) -> anyhow::Result<Lookup> {
    read_lookup(project, source).map(|(found, _)| found)
}

/// `lexi lookup --full`: [`lookup`], with the sections the design file's budget cut made whole —
/// lists from the workspace's graph, the Interface Contract from the source when it is current.
pub fn lookup_full(ws: &Workspace, source: &str) -> anyhow::Result<Lookup> {
    let (mut found, bytes) = read_lookup(ws.project(), source)?;
    found.whole = Some(whole_sections(&found, ws.graph(), bytes.as_deref()));
    found.reach = ws.graph().and_then(|graph| reach::of(graph, source));
    attach_calls(&mut found, ws);
    Ok(found)
}

/// `lexi lookup`: [`lookup`], with what the workspace's graph of the last update adds — the tests
/// that exercise the file, most direct first, which dependents import it only for types, and the
/// calls between members.
pub fn lookup_in(ws: &Workspace, source: &str) -> anyhow::Result<Lookup> {
    let (mut found, bytes) = read_lookup(ws.project(), source)?;
    found.reach = ws.graph().and_then(|graph| reach::of(graph, source));
    attach_calls(&mut found, ws);
    found.compact = Some(compact_parts(ws, &found, bytes.as_deref()));
    Ok(found)
}

/// Most neighbours whose design files a lookup reads to find a twin.
const TWIN_CANDIDATES: usize = 16;

/// What the compact view needs beyond the design file: the source's members (parsed from `bytes`),
/// the graph's whole lists, and the neighbours sharing the file's description.
fn compact_parts(ws: &Workspace, found: &Lookup, bytes: Option<&[u8]>) -> compact::Compact {
    let outline = bytes.and_then(|bytes| member_outline(ws, found, bytes));
    let primary = outline
        .as_ref()
        .and_then(|outline| outline.primary().map(str::to_string));
    let graph = ws.graph().filter(|graph| graph.knows(&found.source));
    let dependencies = graph.map(|graph| graph.dependencies(&found.source));
    let dependents = graph.map(|graph| graph.dependents(&found.source));
    let twins = twins_among(
        ws.project(),
        found,
        dependencies.as_deref().unwrap_or_default(),
        dependents.as_deref().unwrap_or_default(),
    );
    let declaration = match twins.is_empty() {
        true => None,
        false => found
            .design
            .section(sections::INTERFACE_CONTRACT)
            .and_then(|contract| {
                super::twins::primary_declaration(&contract.body, primary.as_deref())
            }),
    };
    compact::Compact {
        outline,
        dependencies,
        dependents,
        twins,
        declaration,
    }
}

/// The members of `found`'s source (`bytes`): from the outline store when the design file is
/// current (the update kept them for that content), else parsed.
fn member_outline(ws: &Workspace, found: &Lookup, bytes: &[u8]) -> Option<MemberOutline> {
    let language = crate::source::Language::from_path(std::path::Path::new(&found.source))?;
    let current = match (found.staleness, &found.design.footer) {
        (Staleness::Current, Some(footer)) => Some(footer.source_hash.as_str()),
        _ => None,
    };
    OutlineStore::of(ws.state()).load_or_parse(&found.source, current, language, bytes)
}

/// The files `found` imports, and those importing it under the same file name, whose design files
/// give the same description, with their primary declarations (at most [`TWIN_CANDIDATES`] read).
fn twins_among(
    project: &Project,
    found: &Lookup,
    dependencies: &[String],
    dependents: &[String],
) -> Vec<(String, Option<String>)> {
    let description = &found.design.frontmatter.description;
    if !super::twins::is_telling(&found.source, description) {
        return Vec::new();
    }
    let description = super::twins::normalized(description);
    let file_name = |path: &str| RelPath::new(path).file_name().to_string();
    let name = file_name(&found.source);
    let candidates = dependencies
        .iter()
        .chain(dependents.iter().filter(|path| file_name(path) == name))
        .filter(|path| **path != found.source)
        .take(TWIN_CANDIDATES);
    let mut twins = Vec::new();
    for path in candidates {
        let rel = design_path(path);
        let Ok(text) = project.read_to_string(&rel) else {
            continue;
        };
        let Ok(design) = DesignFile::parse(&rel, &text) else {
            continue;
        };
        if super::twins::normalized(&design.frontmatter.description) != description {
            continue;
        }
        let declaration = design
            .section(sections::INTERFACE_CONTRACT)
            .and_then(|contract| super::twins::primary_declaration(&contract.body, None));
        if !twins.iter().any(|(p, _)| p == path) {
            twins.push((path.clone(), declaration));
        }
    }
    twins
}

/// Add the Calls and Called from the last update recorded (`workspace::calls`), reading only the
/// update cache's lines of the file and its neighbours: the files it imports and its importers —
/// the design file's Dependents (capped: a note then points to `--full`), or after
/// [`lookup_full`] the graph's whole list.
pub fn attach_calls(found: &mut Lookup, ws: &Workspace) {
    found.calls = ws
        .graph()
        .and_then(|graph| CallsView::read(graph, &found.source))
        .filter(|view| !view.is_empty());
}

/// The lookup of `source` and the source's bytes (when it has a footer and can be read).
fn read_lookup(project: &Project, source: &str) -> anyhow::Result<(Lookup, Option<Vec<u8>>)> {
    let design_rel = design_path(source);
    // Never through a symlink (a linked design file is an error naming it), never past the size a
    // library file may have, and only UTF-8 (errors naming the file, and its line).
    let text = match project.read_library_text(&design_rel) {
        Ok(text) => text,
        Err(err) if err.kind() == ErrorKind::NotFound => {
            return Err(explain_missing(project, source))
        }
        Err(err)
            if crate::nofollow::is_refused(&err)
                || matches!(err.kind(), ErrorKind::FileTooLarge | ErrorKind::InvalidData) =>
        {
            return Err(err.into())
        }
        Err(err) => {
            return Err(err).with_context(|| format!("cannot read {design_rel}"));
        }
    };
    let design = DesignFile::parse(&design_rel, &text)?;
    let bytes = match design.footer {
        None => None,
        // Never through a symlink.
        Some(_) => match project.read(source) {
            Ok(bytes) => Some(bytes),
            Err(err) if err.kind() == ErrorKind::NotFound => None,
            Err(err) => return Err(err).with_context(|| format!("cannot read {source}")),
        },
    };
    let staleness = match (&design.footer, &bytes) {
        (None, _) => Staleness::Untracked,
        (Some(footer), Some(bytes)) if sha256_hex(bytes) == footer.source_hash => {
            Staleness::Current
        }
        (Some(_), Some(_)) => Staleness::SourceChanged,
        (Some(_), None) => Staleness::SourceMissing,
    };
    let contract = drift_of(source, &design_rel, &text, &design, bytes.as_deref());
    let content = footer::split(&text).0.trim_end().to_string();
    let conventions = inherited_conventions(project, source)?;
    let found = Lookup {
        source: source.to_string(),
        design_path: design_rel,
        content,
        design,
        staleness,
        contract,
        conventions,
        whole: None,
        compact: None,
        reach: None,
        calls: None,
    };
    Ok((found, bytes))
}

/// The Local Conventions of every ancestor directory of `source`, root first.
pub fn inherited_conventions(
    project: &Project,
    source: &str,
) -> anyhow::Result<Vec<InheritedConventions>> {
    let dirs = ancestors_rel(source);
    Ok(super::conventions::of_dirs(project, &dirs)?
        .into_iter()
        .map(|found| InheritedConventions {
            items: list_items(&found.raw),
            directory: found.directory,
            raw: found.raw,
        })
        .collect())
}

/// Why there is no design file for `source`, as advice.
fn explain_missing(project: &Project, source: &str) -> anyhow::Error {
    let abs = project.abs(source);
    if abs.is_dir() {
        return anyhow::anyhow!(
            "{source} is a directory; design files document files — try `lexi index {source}`"
        );
    }
    if !abs.exists() {
        return anyhow::anyhow!("no such file: {source}");
    }
    let config_path = project.library_dir().join(CONFIG_FILE);
    if let Ok(scope) = Scope::from_config(&project.config, &config_path) {
        if !scope.contains(source) {
            let roots = scope.roots().join(", ");
            return anyhow::anyhow!(
                "{source} is outside scope_root ({roots}), so it has no design file\n  hint: widen `scope_root` in {LIBRARY_DIR}/{CONFIG_FILE} to document it"
            );
        }
        if let Some(reason) = not_documented_by_mapping(&scope, source) {
            return reason;
        }
    }
    anyhow::anyhow!("no design file for {source} yet — run `lexictl update {source}`")
}

/// Why a file in scope has no design file of its own: its mapping strategy (`grouped`: its
/// directory's group design file describes it; `skip`: only its directory's `.aindex` lists it).
fn not_documented_by_mapping(scope: &Scope, source: &str) -> Option<anyhow::Error> {
    let dir = RelPath::new(source).dir();
    // A directory below a group root has no `.aindex`: its group root's lists it.
    let indexed = match scope.group_root_of(dir) {
        Some(root) if scope.below_group_root(dir) => root,
        _ => dir.to_string(),
    };
    let shown = if indexed.is_empty() {
        "."
    } else {
        indexed.as_str()
    };
    let hint = format!("hint: map it `full` under `mapping:` in {LIBRARY_DIR}/{CONFIG_FILE} to give it a design file of its own");
    if scope.groups(source) {
        let group = group_path(&scope.group_root_of(dir).unwrap_or_else(|| dir.to_string()));
        return Some(anyhow::anyhow!(
            "{source} is mapped `grouped`: it is described with its directory's other files in {group} (`lexi index {shown}` lists them)\n  {hint}"
        ));
    }
    (scope.strategy(source) == Strategy::Skip).then(|| {
        anyhow::anyhow!(
            "{source} is mapped `skip` (lockfiles, snapshots, vendored code, …): it has no design file; `lexi index {shown}` lists it\n  {hint}"
        )
    })
}

/// Fail unless `source` names something lookup can answer for.
pub fn ensure_file_argument(source: &str) -> anyhow::Result<()> {
    if source.is_empty() {
        bail!("the project root is a directory; design files document files — try `lexi index .`");
    }
    Ok(())
}
