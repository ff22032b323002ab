//! The events kept in git notes (DESIGN G-3), one compact JSON object per line: a Stack post's
//! history ([`StackEvent`]: created, votes, accepts, status changes) and a design file's provenance
//! ([`ProvenanceEvent`]: who generated the text, from what, at what cost). The writer and every
//! reader share these types, so what is read is what was written.
//!
//! This is a data format only: which notes ref holds which events, and how lines are appended, is
//! `git::notes`' business. The bytes written never change for a given event: a Stack event starts
//! with `ts` (so the sorted union of two clones' notes, `cat_sort_uniq`, stays in time order); a
//! provenance event has its keys in alphabetical order (as it was first written, with
//! `serde_json::json!`). Readers accept fields they do not know (a newer writer may add some).

use std::collections::BTreeMap;
use std::fmt;

/// The format version every event carries in `v`.
pub const EVENT_VERSION: u32 = 1;

/// What a [`StackEvent`] records.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "String", into = "String")]
pub enum StackEventKind {
    /// The post was written.
    Created,
    /// A vote on the post or one of its answers (`delta` ±1).
    Vote,
    /// An answer was accepted (`answer`; the post became resolved).
    Accept,
    /// The post's status changed (`from` → `status`; `of` for duplicates).
    Status,
    /// A kind this version does not know, kept as written.
    Other(String),
}

impl StackEventKind {
    pub fn as_str(&self) -> &str {
        match self {
            StackEventKind::Created => "created",
            StackEventKind::Vote => "vote",
            StackEventKind::Accept => "accept",
            StackEventKind::Status => "status",
            StackEventKind::Other(kind) => kind,
        }
    }
}

impl From<String> for StackEventKind {
    fn from(kind: String) -> StackEventKind {
        match kind.as_str() {
            "created" => StackEventKind::Created,
            "vote" => StackEventKind::Vote,
            "accept" => StackEventKind::Accept,
            "status" => StackEventKind::Status,
            _ => StackEventKind::Other(kind),
        }
    }
}

impl From<StackEventKind> for String {
    fn from(kind: StackEventKind) -> String {
        kind.as_str().to_string()
    }
}

impl fmt::Display for StackEventKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// One entry of a Stack post's history, as stored in `refs/notes/lexibrarian/stack` on the post's
/// anchor blob.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct StackEvent {
    /// When, in UTC with milliseconds. First, so that the sorted union of two clones' notes
    /// (`cat_sort_uniq`) stays in time order.
    pub ts: String,
    /// Format version ([`EVENT_VERSION`]).
    pub v: u32,
    /// Unique id of this event (so a set-union merge of two clones keeps both of two equal votes).
    pub id: String,
    pub kind: StackEventKind,
    /// The post's id (`ST-001`).
    pub post: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answer: Option<u32>,
    /// `+1` or `-1` for votes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delta: Option<i64>,
    /// For votes: the score the voter saw before voting (the count it added `delta` to). Lets a
    /// reader tell a complete history from one missing other clones' votes (`library::votes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<i64>,
    /// The status after a status change or accept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// The status before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// For `duplicate`: the post this one duplicates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub of: Option<String>,
    pub author: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// For `created`: `HEAD` (full hex) when the post was written, where its files' history is
    /// measured from (Stack staleness).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub commit: Option<String>,
}

impl StackEvent {
    /// An event of `kind` on `post` by `author` at `ts`, with every optional field empty.
    pub fn new(ts: String, id: String, kind: StackEventKind, post: &str, author: &str) -> Self {
        StackEvent {
            ts,
            v: EVENT_VERSION,
            id,
            kind,
            post: post.to_string(),
            answer: None,
            delta: None,
            before: None,
            status: None,
            from: None,
            of: None,
            author: author.to_string(),
            comment: None,
            commit: None,
        }
    }

    /// The event as one notes line, newline included.
    pub fn to_line(&self) -> Result<String, serde_json::Error> {
        Ok(format!("{}\n", serde_json::to_string(self)?))
    }

    /// The events of one note, in note order, and the lines that are not events this version
    /// understands (kept, to be shown as they are). Blank lines are skipped.
    pub fn read_note(note: &str) -> (Vec<StackEvent>, Vec<String>) {
        let mut events = Vec::new();
        let mut unreadable = Vec::new();
        for line in note.lines().filter(|line| !line.trim().is_empty()) {
            match serde_json::from_str::<StackEvent>(line) {
                Ok(event) => events.push(event),
                Err(_) => unreadable.push(line.to_string()),
            }
        }
        (events, unreadable)
    }
}

/// What the Archivist did to the text a [`ProvenanceEvent`] is about.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(from = "String", into = "String")]
pub enum ProvenanceKind {
    /// It wrote the design file's sections.
    #[default]
    Generated,
    /// It only refreshed the Dependents section (the source was unchanged).
    DependentsRefreshed,
    /// It moved the design file with its renamed source.
    Moved,
    /// Recorded after the fact from the design file's footer (`lexictl validate --fix`), for a text
    /// the Archivist wrote whose event was never recorded (written before provenance notes, or by a
    /// run that died before recording it).
    Recovered,
    /// A kind this version does not know, kept as written.
    Other(String),
}

impl ProvenanceKind {
    pub fn as_str(&self) -> &str {
        match self {
            ProvenanceKind::Generated => "generated",
            ProvenanceKind::DependentsRefreshed => "dependents_refreshed",
            ProvenanceKind::Moved => "moved",
            ProvenanceKind::Recovered => "recovered",
            ProvenanceKind::Other(kind) => kind,
        }
    }
}

impl From<String> for ProvenanceKind {
    fn from(kind: String) -> ProvenanceKind {
        match kind.as_str() {
            "generated" => ProvenanceKind::Generated,
            "dependents_refreshed" => ProvenanceKind::DependentsRefreshed,
            "moved" => ProvenanceKind::Moved,
            "recovered" => ProvenanceKind::Recovered,
            _ => ProvenanceKind::Other(kind),
        }
    }
}

impl From<ProvenanceKind> for String {
    fn from(kind: ProvenanceKind) -> String {
        kind.as_str().to_string()
    }
}

impl fmt::Display for ProvenanceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// The provenance of one design file text, as stored in `refs/notes/lexibrarian/provenance` on
/// the text's blob: one event per time the Archivist wrote exactly that text.
///
/// The fields are declared in alphabetical order, which is the order they are written in. The
/// update engine builds one from what it knows of the written file (its `Provenance` and
/// `Generation`) with object ids as full hex (`Oid::to_hex`) and the change level's label
/// (`NEW`, `INTERFACE_CHANGED`, …):
///
/// ```ignore
/// ProvenanceEvent {
///     blob: Some(blob.to_hex()),
///     commit: head.map(Oid::to_hex),
///     design_file: provenance.design_file.clone(),
///     design_hash: provenance.design_hash.clone(),
///     duration_ms: generation.duration_ms,
///     generator: generation.generator.clone(),
///     id: event_id(&provenance.source),
///     interface_hash: provenance.interface_hash.clone(),
///     kind,
///     level: provenance.level.label().to_string(),
///     model: generation.model.clone(),
///     prompt_hash: generation.prompt_hash.clone(),
///     prompt_version: generation.prompt_version.clone(),
///     source: provenance.source.clone(),
///     source_hash: provenance.source_hash.clone(),
///     tokens_in: generation.tokens_in,
///     tokens_out: generation.tokens_out,
///     ts: ts.clone(),
///     v: EVENT_VERSION,
///     extra: BTreeMap::new(),
/// }
/// ```
///
/// Reading is lenient: a field missing from a line reads as its default (empty, zero, `None`,
/// `generated`), and fields this version does not know are kept in [`ProvenanceEvent::extra`]
/// (and written back after the known ones).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct ProvenanceEvent {
    /// The design file's git blob id: the key of the note.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
    /// `HEAD` when the update ran (full hex); `None` on an unborn branch.
    pub commit: Option<String>,
    /// `.lexibrary/<source>.md`.
    pub design_file: String,
    /// The `design_hash` written in the footer.
    pub design_hash: String,
    /// Wall time of the generation, retries included.
    pub duration_ms: u64,
    /// `structural`, `anthropic`, `openai` or `openai-compatible`.
    pub generator: String,
    /// Unique id of this event.
    pub id: String,
    pub interface_hash: Option<String>,
    pub kind: ProvenanceKind,
    /// The change level that caused the generation (`NEW`, `INTERFACE_CHANGED`, …).
    pub level: String,
    /// The model asked (LLM generators only).
    pub model: Option<String>,
    /// SHA-256 of the prompt template (LLM generators only).
    pub prompt_hash: Option<String>,
    /// Name and version of the prompt template, e.g. `design-file/1` (LLM generators only).
    pub prompt_version: Option<String>,
    /// The documented source file.
    pub source: String,
    pub source_hash: String,
    /// Input tokens the provider counted (LLM generators only).
    pub tokens_in: Option<u64>,
    /// Output tokens the provider counted (LLM generators only).
    pub tokens_out: Option<u64>,
    /// When, in UTC with milliseconds.
    pub ts: String,
    /// Format version ([`EVENT_VERSION`]).
    pub v: u32,
    /// Fields written by a version that knows more than this one.
    #[serde(flatten)]
    pub extra: BTreeMap<String, serde_json::Value>,
}

impl ProvenanceEvent {
    /// The event as one notes line, newline included.
    pub fn to_line(&self) -> Result<String, serde_json::Error> {
        Ok(format!("{}\n", serde_json::to_string(self)?))
    }

    /// The events of one note, oldest first (lines that are not events are skipped; events of the
    /// same time keep their note order).
    pub fn read_note(note: &str) -> Vec<ProvenanceEvent> {
        let mut events: Vec<ProvenanceEvent> = note
            .lines()
            .filter_map(|line| serde_json::from_str(line).ok())
            .collect();
        events.sort_by(|a, b| a.ts.cmp(&b.ts));
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STACK_LINE: &str = r#"{"ts":"2026-01-15T10:30:00.123Z","v":1,"id":"0123456789abcdef","kind":"vote","post":"ST-001","answer":2,"delta":-1,"author":"ana","comment":"misses call sites"}"#;

    const PROVENANCE_LINE: &str = r#"{"blob":"8ab686eafeb1f44702738c8b0f24f2567c36da6d","commit":"0123456789abcdef0123456789abcdef01234567","design_file":".lexibrary/src/a.rs.md","design_hash":"dd","duration_ms":12,"generator":"anthropic","id":"fedcba9876543210","interface_hash":null,"kind":"dependents_refreshed","level":"UNCHANGED","model":"claude-x","prompt_hash":"pp","prompt_version":"design-file/1","source":"src/a.rs","source_hash":"ss","tokens_in":100,"tokens_out":20,"ts":"2026-01-15T10:30:00.123Z","v":1}"#;

    #[test]
    fn a_stack_event_line_is_pinned() {
        let mut event = StackEvent::new(
            "2026-01-15T10:30:00.123Z".into(),
            "0123456789abcdef".into(),
            StackEventKind::Vote,
            "ST-001",
            "ana",
        );
        event.answer = Some(2);
        event.delta = Some(-1);
        event.comment = Some("misses call sites".into());
        assert_eq!(event.to_line().expect("json"), format!("{STACK_LINE}\n"));
        let (read, unreadable) = StackEvent::read_note(&format!("{STACK_LINE}\n\nnot json\n"));
        assert_eq!(read, [event]);
        assert_eq!(unreadable, ["not json"]);
    }

    #[test]
    fn a_provenance_event_line_is_pinned() {
        let event = ProvenanceEvent {
            blob: Some("8ab686eafeb1f44702738c8b0f24f2567c36da6d".into()),
            commit: Some("0123456789abcdef0123456789abcdef01234567".into()),
            design_file: ".lexibrary/src/a.rs.md".into(),
            design_hash: "dd".into(),
            duration_ms: 12,
            generator: "anthropic".into(),
            id: "fedcba9876543210".into(),
            interface_hash: None,
            kind: ProvenanceKind::DependentsRefreshed,
            level: "UNCHANGED".into(),
            model: Some("claude-x".into()),
            prompt_hash: Some("pp".into()),
            prompt_version: Some("design-file/1".into()),
            source: "src/a.rs".into(),
            source_hash: "ss".into(),
            tokens_in: Some(100),
            tokens_out: Some(20),
            ts: "2026-01-15T10:30:00.123Z".into(),
            v: EVENT_VERSION,
            extra: BTreeMap::new(),
        };
        assert_eq!(
            event.to_line().expect("json"),
            format!("{PROVENANCE_LINE}\n")
        );
        // The same bytes `serde_json::json!` wrote before the type existed (its keys are sorted).
        let as_value: serde_json::Value = serde_json::from_str(PROVENANCE_LINE).expect("json");
        assert_eq!(as_value.to_string(), PROVENANCE_LINE);
        assert_eq!(ProvenanceEvent::read_note(PROVENANCE_LINE), [event]);
    }

    #[test]
    fn unknown_fields_and_kinds_are_kept() {
        let line =
            r#"{"ts":"1","v":2,"id":"x","kind":"pinned","post":"ST-002","author":"bo","weight":3}"#;
        let (events, unreadable) = StackEvent::read_note(line);
        assert!(unreadable.is_empty());
        assert_eq!(events[0].kind, StackEventKind::Other("pinned".into()));
        assert_eq!(format!("{:<7}|", events[0].kind), "pinned |");

        let line = r#"{"kind":"rewritten","generator":"structural","reviewer":"bo","ts":"2"}"#;
        let events = ProvenanceEvent::read_note(&format!("{line}\n{{\"ts\":\"1\"}}\nnot json\n"));
        assert_eq!(events.len(), 2);
        assert_eq!(events[0].ts, "1");
        assert_eq!(events[0].kind, ProvenanceKind::Generated);
        assert_eq!(events[1].kind, ProvenanceKind::Other("rewritten".into()));
        assert_eq!(events[1].extra["reviewer"], "bo");
    }
}
