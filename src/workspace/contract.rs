//! The lie detector shared by every command that judges a design file against its code: `lexictl
//! validate` (`stale-contract`), `lexictl update --check`, `lexi lookup` and `lexi context`, and
//! `lexictl review`. An agent's Interface Contract that describes an interface the code no longer
//! has, which no update will rewrite, is a [`Drift`]: `library::contract` decides from the footer
//! that it is one (cheaply: no source is read unless the footer allows a drift), `source::contract`
//! names the symbols it gets wrong. Also the whole contract of a file, rendered again from its source
//! as the structural Archivist renders it, for a design file whose budget cut it
//! ([`whole_contract`]).

use std::path::Path;

use crate::hash::sha256_hex;
use crate::library::contract::{contract_body, drift as footer_drift};
use crate::library::design_file::DesignFile;
use crate::project::Project;
use crate::source::contract::{compare, ContractDiff};
use crate::source::{shared, Interface, Language};

/// A design file whose Interface Contract no longer matches the code.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Drift {
    /// The source file.
    pub source: String,
    /// The design file (`.lexibrary/<source>.md`).
    pub design_file: String,
    /// The interface hash the contract was written against.
    pub written_against: String,
    /// The symbols the contract gets wrong.
    pub symbols: ContractDiff,
}

impl Drift {
    /// One sentence for a finding: what is wrong and which symbols.
    pub fn message(&self) -> String {
        let symbols = self.symbols.summary();
        let which = if symbols.is_empty() {
            String::new()
        } else {
            format!(" ({symbols})")
        };
        format!(
            "the interface of {} changed since this design file's Interface Contract was written{which}",
            self.source
        )
    }

    /// What fixes it.
    pub fn hint(&self) -> String {
        format!(
            "edit the Interface Contract of {} to match {} (any edit of the section marks it current), or delete the section",
            self.design_file, self.source
        )
    }
}

/// The drift of `design_file` (its text `text`, parsed as `design`) documenting `source`, whose
/// bytes are `source_bytes` (`None` when it is gone).
pub fn drift_of(
    source: &str,
    design_file: &str,
    text: &str,
    design: &DesignFile,
    source_bytes: Option<&[u8]>,
) -> Option<Drift> {
    let language = Language::from_path(Path::new(source));
    let mut parsed: Option<std::sync::Arc<Interface>> = None;
    let interface_now = || {
        let bytes = source_bytes?;
        let footer = design.footer.as_ref()?;
        if sha256_hex(bytes) == footer.source_hash && footer.interface_hash.is_some() {
            return footer.interface_hash.clone();
        }
        let interface = shared::interface(language?, &String::from_utf8_lossy(bytes)).ok()?;
        let hash = interface.hash();
        parsed = Some(interface);
        Some(hash)
    };
    let written_against = footer_drift(text, design, interface_now)?;
    let interface = match parsed {
        Some(interface) => interface,
        None => shared::interface(language?, &String::from_utf8_lossy(source_bytes?)).ok()?,
    };
    Some(Drift {
        source: source.to_string(),
        design_file: design_file.to_string(),
        written_against,
        symbols: compare(&interface, contract_body(design).unwrap_or_default()),
    })
}

/// The whole Interface Contract of `source` (whose bytes are `source_bytes`) as a reader gets it
/// without a budget — every line, every member's doc with the lines a caller must know
/// (`archivist::documented`): what `lexi lookup --full` shows in place of a contract the design
/// file's budget cut. `None` for a file in no supported language or one that does not parse.
pub fn whole_contract(source: &str, source_bytes: &[u8]) -> Option<String> {
    contract_within(source, source_bytes, usize::MAX)
}

/// The Interface Contract of `source` as a reader gets it within `bytes`: its most important lines
/// (the rest counted), then as many members' docs as fit, most important member first
/// (`archivist::documented`): what a plain `lexi lookup` shows in place of the design file's
/// shorter contract.
pub fn contract_within(source: &str, source_bytes: &[u8], bytes: usize) -> Option<String> {
    let language = Language::from_path(Path::new(source))?;
    let interface = shared::interface(language, &String::from_utf8_lossy(source_bytes)).ok()?;
    Some(crate::archivist::structural::reader_contract_text(
        language, &interface, bytes, source,
    ))
}

/// [`drift_of`] with the source read from the project's working tree.
pub fn drift(
    project: &Project,
    source: &str,
    design_file: &str,
    text: &str,
    design: &DesignFile,
) -> Option<Drift> {
    let bytes = project.read(source).ok();
    drift_of(source, design_file, text, design, bytes.as_deref())
}

/// Every drift in the library, sorted by design file (what `lexictl update --check` adds to its
/// verdict). A design file is parsed only when its footer allows a drift: it names
/// `contract_interface_hash`, or its text was edited since it was sealed.
pub fn library_drifts(project: &Project) -> Vec<Drift> {
    use rayon::prelude::*;

    let listing = super::library::walk(&project.library_dir(), super::library::Part::MIRROR);
    let mut drifts: Vec<Drift> = listing
        .files
        .par_iter()
        .filter_map(|entry| {
            let super::library::Kind::Design { source } = &entry.kind else {
                return None;
            };
            // Never past the size a library file may have (`validate` reports a larger one).
            let text = project
                .read_library_text(&crate::project::in_library(&entry.rel))
                .ok()?;
            let (content, footer) = crate::library::footer::split(&text);
            let footer = footer?;
            let sealed =
                footer.contains(&format!("design_hash: {}", sha256_hex(content.as_bytes())));
            if sealed && !footer.contains(crate::library::contract::CONTRACT_INTERFACE_KEY) {
                return None;
            }
            let design_file = format!("{}/{}", crate::project::LIBRARY_DIR, entry.rel);
            let design = DesignFile::parse(&design_file, &text).ok()?;
            drift(project, source, &design_file, &text, &design)
        })
        .collect();
    drifts.sort_by(|a, b| a.design_file.cmp(&b.design_file));
    drifts
}
