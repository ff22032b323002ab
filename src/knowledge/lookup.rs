//! `lexi lookup <file>`: a source file's design file, whether it is still current, and the Local
//! Conventions inherited from every parent directory's `.aindex` (seed D-050).
//!
//! This is the hottest read path (agents call it before every edit), so it touches only the design
//! file, the source file (to hash it), the ancestor `.aindex` files and — `lexi lookup` through
//! [`lookup_in`] — the dependency graph of the last update (a derived file beside the per-clone
//! cache, of which it reads only the lines it needs): no walk, no git. The graph gives the tests
//! that exercise the file, ranked as `lexi impact` ranks them, marks the dependents that import it
//! only for types ([`reach`]), and holds the calls between members ([`attach_calls`],
//! `super::calls`). The source is parsed only when the footer says an agent's Interface Contract
//! may have been left behind by the code (`workspace::contract`), which then adds a warning, or
//! when the design file's contract is the Archivist's (or a cut one): the lookup's larger budget
//! ([`CONTRACT_TOKENS`]) then shows the contract rendered again from the current source — most
//! important lines first (`archivist::abridge`), then the members' docs with what a caller must
//! know while they fit (`archivist::documented`). `--full` ([`lookup_full`]) also makes whole what
//! the design file's budget cut (`super::whole`): lists from the graph of the last update, a
//! contract from the source.

use std::io::ErrorKind;

use anyhow::{bail, Context as _};

use super::trim::{summarize_paths, trim_contract};
use super::whole::{whole_sections, Whole};
use crate::archivist::structural::is_capped_contract;
use crate::hash::sha256_hex;
use crate::library::design_file::{sections, DesignFile, UpdatedBy};
use crate::library::footer;
use crate::library::markdown::{list_items, Fence};
use crate::project::mapping::Strategy;
use crate::project::mirror::{design_path, group_path};
use crate::project::paths::ancestors_rel;
use crate::project::scope::Scope;
use crate::project::{Project, CONFIG_FILE, LIBRARY_DIR};
use crate::workspace::calls::CallsView;
use crate::workspace::contract::{contract_within, drift_of, Drift};
use crate::workspace::Workspace;

pub mod member;
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
    /// The Interface Contract rendered again from the (current) source within
    /// [`CONTRACT_TOKENS`] when the design file's smaller budget cut it; `None` otherwise.
    pub fuller_contract: Option<String>,
    /// What the graph of the last update adds ([`lookup_in`], [`lookup_full`]): the ranked tests and
    /// the type-only dependents; `None` for a plain [`lookup`] or without a graph.
    pub reach: Option<Reach>,
    /// Calls and Called from (`workspace::calls`), once [`attach_calls`] read them; `None` before,
    /// or when the last update did not see the file or found no calls.
    pub calls: Option<CallsView>,
}

impl Lookup {
    /// The text `lexi lookup` prints (and the MCP `lookup` tool answers): the warnings, the
    /// design file without its footer — long sections trimmed (`super::trim`) — then the
    /// inherited Local Conventions, root first.
    pub fn to_text(&self) -> String {
        self.text(false)
    }

    /// The text `lexi lookup --full` prints: every section whole — untrimmed, and (after
    /// [`lookup_full`]) with what the design file's budget cut made whole again.
    pub fn to_full_text(&self) -> String {
        self.text(true)
    }

    fn text(&self, full: bool) -> String {
        let mut out = String::new();
        for warning in self.warnings() {
            out.push_str(&warning);
            out.push_str("\n\n");
        }
        if full {
            match self
                .whole
                .as_ref()
                .filter(|whole| !whole.sections.is_empty())
            {
                Some(whole) => out.push_str(&replace_sections(&self.content, &whole.sections)),
                None => out.push_str(&self.content),
            }
        } else {
            out.push_str(&self.trimmed_content());
        }
        if let Some(reach) = &self.reach {
            out = reach::with_reach(&out, reach, &self.source, full);
        }
        out.push('\n');
        if let Some(calls) = &self.calls {
            out.push_str(&super::calls::render(calls, full));
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

    /// The design file with long path lists summarised and a long Interface Contract cut to
    /// [`CONTRACT_TOKENS`]; every other byte as written.
    fn trimmed_content(&self) -> String {
        let mut replaced: Vec<(&str, String)> = Vec::new();
        for section in &self.design.body.sections {
            let heading = section.heading.as_str();
            let new_body = if [
                sections::DEPENDENTS,
                sections::DEPENDENCIES,
                sections::TESTS,
            ]
            .iter()
            .any(|h| heading.eq_ignore_ascii_case(h))
            {
                summarize_paths(&self.source, heading, &list_items(&section.body))
            } else if heading.eq_ignore_ascii_case(sections::INTERFACE_CONTRACT) {
                let body = self.fuller_contract.as_ref().unwrap_or(&section.body);
                trim_contract(&self.source, body, CONTRACT_TOKENS)
                    .map(|t| t.text)
                    .or_else(|| self.fuller_contract.clone())
            } else {
                None
            };
            if let Some(body) = new_body {
                replaced.push((heading, body));
            }
        }
        if replaced.is_empty() {
            return self.content.clone();
        }
        replace_sections(&self.content, &replaced)
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

/// The part of a lookup's budget an Interface Contract may take before it is trimmed.
pub const CONTRACT_TOKENS: usize = 1500;

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
    let mut found = lookup(ws.project(), source)?;
    found.reach = ws.graph().and_then(|graph| reach::of(graph, source));
    attach_calls(&mut found, ws);
    Ok(found)
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
    let fuller_contract = match (staleness, &bytes) {
        (Staleness::Current, Some(bytes)) => fuller_contract(source, &design, bytes),
        _ => None,
    };
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
        fuller_contract,
        reach: None,
        calls: None,
    };
    Ok((found, bytes))
}

/// The contract of `source` within [`CONTRACT_TOKENS`], rendered again from the source when it says
/// more than the design file's (whose budget is smaller): the public lines the design file cut, and
/// the members' docs with the lines a caller must know (parameters, returns, errors, accepted
/// forms), most important member first (`archivist::documented`), the members whose docs did not
/// fit counted with `lexi lookup --full` as the pointer.
fn fuller_contract(source: &str, design: &DesignFile, bytes: &[u8]) -> Option<String> {
    let stored = design
        .body
        .sections
        .iter()
        .find(|s| s.heading.eq_ignore_ascii_case(sections::INTERFACE_CONTRACT))?;
    // A contract the Archivist wrote is its rendering of the source within a smaller budget; an
    // agent's own contract is left alone unless it is a capped one.
    let archivists = design.frontmatter.updated_by == UpdatedBy::Archivist;
    if !archivists && !is_capped_contract(&stored.body) {
        return None;
    }
    // `trim_contract` estimates four characters a token; leave room for the fence.
    let room = CONTRACT_TOKENS.saturating_sub(30) * 4;
    let fuller = contract_within(source, bytes, room)?;
    Some(fuller).filter(|fuller| fuller.len() > stored.body.len())
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
    let dir = source.rsplit_once('/').map_or("", |(dir, _)| dir);
    let shown = if dir.is_empty() { "." } else { dir };
    let hint = format!("hint: map it `full` under `mapping:` in {LIBRARY_DIR}/{CONFIG_FILE} to give it a design file of its own");
    if scope.groups(source) {
        let root = scope.group_root_of(dir);
        let group = group_path(root.as_deref().unwrap_or(dir));
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
