//! The tool registry: every MCP tool is one [`Tool`] — an argument struct and a `run` over a
//! knowledge query — listed once in [`registry`]. Adding a tool is writing that adapter and adding
//! one line there; the server does the rest (schema, strict argument parsing, the session cache,
//! text or JSON answers, errors as MCP tool errors).
//!
//! Two arguments are common to every tool and handled here, not by the adapters: `format`
//! (`text`, the default, or `json`: the same JSON as the CLI's `--format json`) and, on read tools,
//! `full`: the whole answer — sent again even when it has not changed since it was last sent, and
//! for the tools whose CLI command has a complete form, that form (`lookup`: `--full`,
//! `conventions`: `--all`; [`Call::full`]).
//!
//! `tools/list` is what a client puts before the model's first question, so it is kept small: each
//! schema is made compact ([`compact_schema`]: no `null` defaults or nullable types for optional
//! arguments, an enum of names for an enum), the annotations say only whether a tool writes, and
//! each description says what the tool answers and when to call it in a sentence or two.

use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use rmcp::model::{JsonObject, ToolAnnotations};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;

use super::cache::Inputs;
use crate::knowledge::status::StaleCheck;
use crate::project::paths;
use crate::workspace::library::{walk, Listing, Part};
use crate::workspace::Workspace;

/// What a tool call has to work with: the project (opened for this call, so config edits apply at
/// once), where relative paths start, and how staleness is computed (the server's, see
/// [`crate::knowledge::status::StaleCheck`]).
pub struct Call {
    pub ws: Workspace,
    pub stale_check: StaleCheck,
    /// The call asked for the whole answer (`full: true`): a tool with a complete form gives it.
    pub full: bool,
    all: std::cell::OnceCell<std::sync::Arc<Listing>>,
    /// Where the listing comes from when the server keeps one (else it is walked for the call).
    kept: Option<std::sync::Arc<std::sync::Mutex<super::watch::LibraryWatch>>>,
}

impl Call {
    pub fn new(ws: Workspace, stale_check: StaleCheck) -> Call {
        Call {
            ws,
            stale_check,
            full: false,
            all: std::cell::OnceCell::new(),
            kept: None,
        }
    }

    /// The call takes the library's listing from `kept` (the server's, walked again only when the
    /// library changed).
    pub fn with_library(
        mut self,
        kept: std::sync::Arc<std::sync::Mutex<super::watch::LibraryWatch>>,
    ) -> Call {
        self.kept = Some(kept);
        self
    }

    /// Every file of `.lexibrary/` (`Part::ALL`), as it is when the call starts: shared by the
    /// session cache's fingerprint and the corpus a search loads; the server's kept listing when
    /// nothing in the library changed since it was walked.
    pub fn library(&self) -> &Listing {
        self.all.get_or_init(|| match &self.kept {
            Some(kept) => kept
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .listing(),
            None => std::sync::Arc::new(walk(&self.ws.project().library_dir(), Part::ALL)),
        })
    }

    /// The project root: relative path arguments start here.
    pub fn root(&self) -> &Path {
        &self.ws.project().root
    }

    /// A path argument as a project-relative path, with the CLI's rules: relative to the project
    /// root (absolute paths are fine inside it); outside the project, inside `.git/` or inside
    /// `.lexibrary/` is refused.
    pub fn path(&self, argument: &str) -> anyhow::Result<String> {
        let root = self.root();
        Ok(paths::resolve(root, root, &PathBuf::from(argument))?)
    }
}

/// A tool's answer: the text the CLI prints, and its `--format json` value.
pub struct Answer {
    pub text: String,
    pub json: serde_json::Value,
}

impl Answer {
    pub fn new(text: impl Into<String>, json: serde_json::Value) -> Answer {
        Answer {
            text: text.into(),
            json,
        }
    }
}

/// One MCP tool: a thin adapter over a knowledge query.
pub trait Tool: Send + Sync + 'static {
    /// The arguments, named as the CLI names them; unknown names are refused.
    type Args: DeserializeOwned + JsonSchema + 'static;
    /// Tool name (`lookup`, `stack_search`).
    const NAME: &'static str;
    /// Written for a model choosing a tool: what it answers, when to use it, what it costs.
    const DESCRIPTION: &'static str;
    /// Whether the tool only reads (read tools are cached per session; write tools never).
    const READ_ONLY: bool;
    /// Whether `full: true` gives another answer than the compact one (`lookup`, `conventions`):
    /// then the schema lists `full`. Every read tool accepts it (to send an unchanged answer
    /// again); the server's instructions say so once.
    const COMPLETE_FORM: bool = false;
    /// Whether a write removes something (`iwh_read` consumes the note it reads): then no hint says
    /// otherwise (MCP's default for a write is "may destroy").
    const DESTRUCTIVE: bool = false;

    /// The files the answer is built from ([`Inputs`]), for the session cache; `None` when the
    /// answer must never be cached (writes, and reads that consume or depend on everything).
    fn inputs(call: &Call, args: &Self::Args) -> anyhow::Result<Option<Inputs>>;

    /// Run the query.
    fn run(call: &Call, args: Self::Args) -> anyhow::Result<Answer>;
}

/// A registered tool, with its argument type erased.
pub trait Registered: Send + Sync {
    fn name(&self) -> &'static str;
    fn read_only(&self) -> bool;
    /// The MCP tool definition (name, title, description, input schema, annotations).
    fn definition(&self) -> rmcp::model::Tool;
    /// Parse `args` (common arguments already removed) for [`Registered::inputs`] and
    /// [`Registered::run`].
    fn prepare(&self, args: JsonObject) -> anyhow::Result<Box<dyn Prepared>>;
}

/// A call whose arguments parsed.
pub trait Prepared {
    fn inputs(&self, call: &Call) -> anyhow::Result<Option<Inputs>>;
    fn run(self: Box<Self>, call: &Call) -> anyhow::Result<Answer>;
}

struct Adapter<T>(PhantomData<fn() -> T>);

struct Parsed<T: Tool>(T::Args);

impl<T: Tool> Prepared for Parsed<T> {
    fn inputs(&self, call: &Call) -> anyhow::Result<Option<Inputs>> {
        T::inputs(call, &self.0)
    }

    fn run(self: Box<Self>, call: &Call) -> anyhow::Result<Answer> {
        T::run(call, self.0)
    }
}

impl<T: Tool> Registered for Adapter<T> {
    fn name(&self) -> &'static str {
        T::NAME
    }

    fn read_only(&self) -> bool {
        T::READ_ONLY
    }

    fn definition(&self) -> rmcp::model::Tool {
        let mut schema = input_schema::<T::Args>();
        add_common_arguments(&mut schema, T::COMPLETE_FORM);
        // Only what a client acts on: that a tool only reads, or that a write destroys nothing.
        let annotations = match (T::READ_ONLY, T::DESTRUCTIVE) {
            (true, _) => Some(ToolAnnotations::new().read_only(true)),
            (false, false) => Some(ToolAnnotations::new().destructive(false)),
            (false, true) => None,
        };
        let tool = rmcp::model::Tool::new(T::NAME, T::DESCRIPTION, Arc::new(schema));
        match annotations {
            Some(annotations) => tool.with_annotations(annotations),
            None => tool,
        }
    }

    fn prepare(&self, args: JsonObject) -> anyhow::Result<Box<dyn Prepared>> {
        let parsed: T::Args = serde_json::from_value(serde_json::Value::Object(args))
            .map_err(|err| anyhow::anyhow!("invalid arguments for `{}`: {err}", T::NAME))?;
        Ok(Box::new(Parsed::<T>(parsed)))
    }
}

/// The JSON Schema (2020-12, as MCP asks) of a tool's arguments, with every subschema inlined so
/// that a model reads each argument's allowed values where it is described.
fn input_schema<A: JsonSchema>() -> JsonObject {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|settings| settings.inline_subschemas = true)
        .into_generator();
    let schema = generator.into_root_schema_for::<A>();
    let mut object = match serde_json::to_value(schema) {
        Ok(serde_json::Value::Object(object)) => object,
        _ => JsonObject::new(),
    };
    // Unknown arguments are refused with an error naming them (`deny_unknown_fields`); the schema
    // need not say so.
    for key in [
        "$schema",
        "title",
        "description",
        "$defs",
        "additionalProperties",
    ] {
        object.remove(key);
    }
    if let Some(serde_json::Value::Object(properties)) = object.get_mut("properties") {
        for property in properties.values_mut() {
            compact_schema(property);
        }
    }
    object
}

/// One argument's schema made compact for `tools/list`: no default (an argument's description says
/// a default worth knowing), no `null` type or value for an optional argument (leaving it out means
/// the same), no integer format, and an enum written as `oneOf` constants with a description each
/// made one `enum` of names (the argument's own description explains them).
fn compact_schema(property: &mut serde_json::Value) {
    let Some(object) = property.as_object_mut() else {
        return;
    };
    for key in ["default", "format", "minimum"] {
        object.remove(key);
    }
    if let Some(serde_json::Value::Array(values)) = object.get_mut("enum") {
        values.retain(|value| !value.is_null());
    }
    if let Some(serde_json::Value::Array(types)) = object.get("type") {
        let kept: Vec<serde_json::Value> = types
            .iter()
            .filter(|t| t.as_str() != Some("null"))
            .cloned()
            .collect();
        let kept = match kept.as_slice() {
            [one] => one.clone(),
            _ => serde_json::Value::Array(kept),
        };
        object.insert("type".into(), kept);
    }
    let constants: Option<Vec<serde_json::Value>> = object
        .get("oneOf")
        .and_then(|one_of| one_of.as_array())
        .map(|variants| variants.iter().map(|v| v.get("const").cloned()).collect())
        .and_then(|constants: Option<Vec<_>>| constants);
    if let Some(constants) = constants {
        object.remove("oneOf");
        object.insert("type".into(), "string".into());
        object.insert("enum".into(), serde_json::Value::Array(constants));
    }
    // A nullable enum: `anyOf` of the enum and `null`.
    if let Some(serde_json::Value::Array(any_of)) = object.get("anyOf") {
        let kept: Vec<serde_json::Value> = any_of
            .iter()
            .filter(|v| v.get("type").and_then(|t| t.as_str()) != Some("null"))
            .cloned()
            .collect();
        if let [only] = kept.as_slice() {
            let mut only = only.clone();
            compact_schema(&mut only);
            object.remove("anyOf");
            if let Some(fields) = only.as_object() {
                for (key, value) in fields {
                    object.entry(key.clone()).or_insert_with(|| value.clone());
                }
            }
        }
    }
    if let Some(items) = object.get_mut("items") {
        compact_schema(items);
    }
}

/// `full` on the tools with a complete form, in the listed schema. `format` (every tool) and `full`
/// (every read tool) are accepted whether listed or not; the server's instructions say what they do
/// once, rather than every tool's schema again.
fn add_common_arguments(schema: &mut JsonObject, complete_form: bool) {
    schema.insert("type".into(), "object".into());
    let properties = schema
        .entry("properties")
        .or_insert_with(|| serde_json::json!({}));
    let Some(properties) = properties.as_object_mut() else {
        return;
    };
    if complete_form {
        properties.insert("full".into(), serde_json::json!({"type": "boolean"}));
    }
}

/// Register a tool.
fn tool<T: Tool>() -> Box<dyn Registered> {
    Box::new(Adapter::<T>(PhantomData))
}

/// Every tool the server offers, in the order they are listed.
pub fn registry() -> Vec<Box<dyn Registered>> {
    use super::read_tools::*;
    use super::write_tools::*;
    vec![
        tool::<Orient>(),
        tool::<Lookup>(),
        tool::<Index>(),
        tool::<Context>(),
        tool::<Impact>(),
        tool::<Search>(),
        tool::<Conventions>(),
        tool::<Concepts>(),
        tool::<StackSearch>(),
        tool::<StackView>(),
        tool::<StackPost>(),
        tool::<StackAnswer>(),
        tool::<StackVote>(),
        tool::<IwhRead>(),
        tool::<IwhWrite>(),
        tool::<ConventionAdd>(),
    ]
}
