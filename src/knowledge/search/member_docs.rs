//! The line under a search hit that names members: the best member's name, parameter names and the
//! first sentence of its doc, read from the source (`lookup::members` renders it as the compact
//! `lexi lookup` does), so that an agent asking "where is routing done" reads what `route` does
//! without another call:
//!
//! ```text
//! src/flask/sansio/scaffold.py — Common behavior shared between …  (members: route, add_url_rule)
//!   → route(rule, **options) — Decorate a view function to register it with the given URL rule…
//! ```
//!
//! Only the first [`DESCRIBED_HITS`] design-file hits naming members get one (each costs a read of
//! its source, and a parse when the update's outline store has no record of that content); the
//! sources are read in parallel.

use rayon::prelude::*;

use super::Hit;
use crate::hash::sha256_hex;
use crate::knowledge::corpus::DocKind;
use crate::knowledge::lookup::members::member_line;
use crate::project::Project;
use crate::source::Language;
use crate::workspace::outlines::{MemberOutline, OutlineStore};

/// Hits whose best member is described.
pub const DESCRIBED_HITS: usize = 5;

/// A hit's best member as shown under it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MemberDoc {
    /// The member's name as the outline gives it (`route`, `res.json`, `Builder::build`).
    pub name: String,
    /// Its name and parameter names, then its doc's first sentence: `route(rule, **options) — …`.
    pub summary: String,
}

impl MemberDoc {
    /// The line shown under the hit (without its indentation).
    pub fn line(&self) -> String {
        format!("→ {}", self.summary)
    }
}

/// Give the first [`DESCRIBED_HITS`] design-file hits that name members their best member's line.
pub fn attach(project: &Project, store: &OutlineStore, hits: &mut [Hit]) {
    let wanted: Vec<usize> = (0..hits.len())
        .filter(|&i| hits[i].kind == DocKind::Design && !hits[i].members.is_empty())
        .take(DESCRIBED_HITS)
        .collect();
    let described: Vec<Option<MemberDoc>> = wanted
        .par_iter()
        .map(|&i| member_doc(project, store, &hits[i].name, &hits[i].members[0]))
        .collect();
    // A line set before (a private member's, `named`) stays when the public outline has none.
    for (i, doc) in wanted.into_iter().zip(described) {
        if doc.is_some() {
            hits[i].member = doc;
        }
    }
}

/// The line of `member` in `source`'s public outline; `None` when the source cannot be read or
/// parsed, or does not declare it publicly.
fn member_doc(
    project: &Project,
    store: &OutlineStore,
    source: &str,
    member: &str,
) -> Option<MemberDoc> {
    let language = Language::from_path(std::path::Path::new(source))?;
    // Never through a symlink.
    let bytes = project.read(source).ok()?;
    let hash = sha256_hex(&bytes);
    let outline = store.load_or_parse(source, Some(&hash), language, &bytes)?;
    let at = find(&outline, member)?;
    Some(MemberDoc {
        name: outline.lines()[at].name.clone(),
        summary: member_line(&outline, at)?,
    })
}

/// The index of the outline line declaring `member`: by its name, else by its last segment (`json`
/// for `res.json`), the first one with a doc among a name's signatures (`@overload`s).
fn find(outline: &MemberOutline, member: &str) -> Option<usize> {
    let last = |name: &str| name.rsplit(['.', ':']).next().unwrap_or(name).to_string();
    let lines = outline.lines();
    let named: Vec<usize> = (0..lines.len())
        .filter(|&at| lines[at].kind.is_some())
        .filter(|&at| lines[at].name == member || last(&lines[at].name) == member)
        .collect();
    let exact = named.iter().copied().filter(|&at| lines[at].name == member);
    let documented = |at: &usize| outline.documented(*at);
    exact
        .clone()
        .find(documented)
        .or_else(|| named.iter().copied().find(documented))
        .or_else(|| exact.clone().next())
        .or_else(|| named.first().copied())
}
