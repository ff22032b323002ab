//! What a design file's Interface Contract was written against, kept in the footer so that a
//! contract an agent left behind while the code moved on can be told from one that is current.
//!
//! The Archivist writes the contract from the interface it just parsed, so a generated contract
//! describes the footer's `interface_hash`; when the interface changes, the next update rewrites
//! it. An agent's design file is different: the update only refreshes its footer (DESIGN §4,
//! AGENT_UPDATED) and never touches its text. If the same run sees the interface changed, the
//! refreshed footer would claim the new interface for a contract written against the old one. Two
//! footer keys keep the truth:
//!
//! - `contract_hash` — SHA-256 of the Interface Contract section's body as sealed (every footer of a
//!   file with a contract). When an edit leaves that body untouched, the contract is still the one
//!   that was sealed; when it changed, the agent rewrote the contract and is trusted with it.
//! - `contract_interface_hash` — present only when the contract was written against another
//!   interface than the footer's `interface_hash`: the hash it was written against.
//!
//! [`drift`] says, for a design file as it is now and the source's interface hash now, whether the
//! contract describes an interface the code no longer has *and* no update will rewrite it — the lie
//! `lexictl validate` (`stale-contract`), `lexictl update --check`, `lexi lookup` and `lexictl
//! review` report. A footer without `contract_hash` (written before this key existed) is trusted.

use super::design_file::{is_unedited, sections, DesignFile};
use super::footer::Footer;
use crate::hash::sha256_hex;

/// Footer key: SHA-256 of the Interface Contract's body as sealed.
pub const CONTRACT_HASH_KEY: &str = "contract_hash";
/// Footer key: the interface hash the contract was written against, when not `interface_hash`.
pub const CONTRACT_INTERFACE_KEY: &str = "contract_interface_hash";

/// The body of the design file's Interface Contract section, if it has a non-empty one.
pub fn contract_body(design: &DesignFile) -> Option<&str> {
    design
        .section(sections::INTERFACE_CONTRACT)
        .map(|section| section.body.as_str())
        .filter(|body| !body.trim().is_empty())
}

/// The `contract_hash` of a contract body.
pub fn contract_hash(body: &str) -> String {
    sha256_hex(body.trim().as_bytes())
}

/// The interface hash the contract of a sealed text describes (`footer` is its footer, the text
/// unedited since).
fn sealed_basis(footer: &Footer) -> Option<String> {
    footer
        .extra
        .get(CONTRACT_INTERFACE_KEY)
        .cloned()
        .or_else(|| footer.interface_hash.clone())
}

/// What the Interface Contract of `text` (parsed as `design`) was written against: `None` when there
/// is no contract or no footer, or when the text was edited since it was sealed and the edit rewrote
/// the contract (or the footer predates `contract_hash`) — the agent is trusted. Otherwise the
/// interface hash, and whether the text was edited since it was sealed.
pub fn written_against(text: &str, design: &DesignFile) -> Option<(String, bool)> {
    let footer = design.footer.as_ref()?;
    let body = contract_body(design)?;
    if is_unedited(text, footer) {
        return sealed_basis(footer).map(|basis| (basis, false));
    }
    let sealed = footer.extra.get(CONTRACT_HASH_KEY)?;
    (*sealed == contract_hash(body)).then(|| sealed_basis(footer).map(|basis| (basis, true)))?
}

/// The contract keys of a footer about to be written over a text whose contract is *kept* (an
/// agent's file whose footer is refreshed, or moved): `(contract_hash, contract_interface_hash)`
/// for the code's interface hash now (`interface_now`).
pub fn kept_keys(
    text: &str,
    design: &DesignFile,
    interface_now: Option<&str>,
) -> (Option<String>, Option<String>) {
    let Some(body) = contract_body(design) else {
        return (None, None);
    };
    let basis = written_against(text, design).map(|(basis, _)| basis);
    let differs = basis.filter(|basis| Some(basis.as_str()) != interface_now);
    (Some(contract_hash(body)), differs)
}

/// Whether the contract of `text` describes an interface the code no longer has and no update will
/// rewrite it: the interface it was written against, when so. `interface_now` (the code's interface
/// hash now; `None` for a file that is not code or is gone) is only asked for when the footer says
/// a drift is possible.
///
/// - An edited text (its footer not yet refreshed) keeps its contract at the next update: drift when
///   the contract is the sealed one and that was written against another interface.
/// - An unedited text with `contract_interface_hash` is an agent's contract kept over an interface
///   change: drift while the code still has the footer's interface (when the code changed again,
///   the Archivist rewrites the contract at the next update, as for any generated file).
pub fn drift(
    text: &str,
    design: &DesignFile,
    interface_now: impl FnOnce() -> Option<String>,
) -> Option<String> {
    let footer = design.footer.as_ref()?;
    let (basis, edited) = written_against(text, design)?;
    let explicit = footer.extra.contains_key(CONTRACT_INTERFACE_KEY);
    if !edited && !explicit {
        return None;
    }
    let now = interface_now()?;
    if basis == now {
        return None;
    }
    let kept = edited || footer.interface_hash.as_deref() == Some(now.as_str());
    kept.then_some(basis)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::library::footer::seal;
    use crate::library::markdown::Section;

    /// `content` sealed with a footer claiming `interface` and the extra keys.
    fn reseal(content: &str, interface: &str, extra: &[(&str, String)]) -> (String, DesignFile) {
        let footer = Footer {
            source: "src/a.rs".into(),
            source_hash: "s".into(),
            interface_hash: Some(interface.into()),
            design_hash: String::new(),
            generated: None,
            generator: "lexibrarian 0.1.0".into(),
            extra: extra
                .iter()
                .map(|(k, v)| (k.to_string(), v.clone()))
                .collect(),
        };
        let (text, _) = seal(content, footer);
        let parsed = reparse(&text);
        (text, parsed)
    }

    /// A sealed design file whose contract is `contract`.
    fn sealed(contract: &str, interface: &str, extra: &[(&str, String)]) -> (String, DesignFile) {
        let design = DesignFile::new(
            "src/a.rs",
            "A.",
            vec![Section::new(sections::INTERFACE_CONTRACT, contract)],
        );
        reseal(&design.render_content(), interface, extra)
    }

    fn reparse(text: &str) -> DesignFile {
        DesignFile::parse(".lexibrary/src/a.rs.md", text).expect("parse")
    }

    #[test]
    fn a_generated_contract_never_drifts_the_update_rewrites_it() {
        let contract = "```rust\npub fn a()\n```";
        let (text, design) = sealed(
            contract,
            "I1",
            &[(CONTRACT_HASH_KEY, contract_hash(contract))],
        );
        assert_eq!(drift(&text, &design, || Some("I1".into())), None);
        assert_eq!(drift(&text, &design, || Some("I2".into())), None);
    }

    #[test]
    fn an_edit_that_leaves_the_contract_alone_drifts_when_the_interface_moved() {
        let contract = "```rust\npub fn a()\n```";
        let (text, _) = sealed(
            contract,
            "I1",
            &[(CONTRACT_HASH_KEY, contract_hash(contract))],
        );
        // The agent edits the description only.
        let edited = text.replace("description: A.", "description: A, by an agent.");
        let design = reparse(&edited);
        assert_eq!(drift(&edited, &design, || Some("I1".into())), None);
        assert_eq!(
            drift(&edited, &design, || Some("I2".into())).as_deref(),
            Some("I1")
        );
        // Refreshing the footer keeps that knowledge.
        let (hash, basis) = kept_keys(&edited, &design, Some("I2"));
        assert_eq!(hash, Some(contract_hash(contract)));
        assert_eq!(basis.as_deref(), Some("I1"));
        let content = crate::library::footer::split(&edited).0;
        let extra = [
            (CONTRACT_HASH_KEY, hash.expect("hash")),
            (CONTRACT_INTERFACE_KEY, basis.expect("basis")),
        ];
        let (refreshed, design) = reseal(content, "I2", &extra);
        assert_eq!(
            drift(&refreshed, &design, || Some("I2".into())).as_deref(),
            Some("I1")
        );
        // The code changes again: the Archivist will rewrite the contract, so no drift is reported.
        assert_eq!(drift(&refreshed, &design, || Some("I3".into())), None);
    }

    #[test]
    fn an_edit_of_the_contract_is_trusted() {
        let contract = "```rust\npub fn a()\n```";
        let (text, _) = sealed(
            contract,
            "I1",
            &[(CONTRACT_HASH_KEY, contract_hash(contract))],
        );
        let edited = text.replace("pub fn a()", "pub fn a(x: u32)");
        let design = reparse(&edited);
        assert_eq!(drift(&edited, &design, || Some("I2".into())), None);
        assert_eq!(kept_keys(&edited, &design, Some("I2")).1, None);
        // A footer from before contract_hash existed: trusted too.
        let (legacy, _) = sealed(contract, "I1", &[]);
        let legacy = legacy.replace("description: A.", "description: B.");
        assert_eq!(
            drift(&legacy, &reparse(&legacy), || Some("I2".into())),
            None
        );
    }
}
