//! `lexi mcp`: the library as an MCP server over stdio, built on the official Rust SDK (`rmcp`).
//!
//! - **Tools** ([`registry`]): thin adapters over the knowledge queries — `orient`, `lookup`,
//!   `index`, `context`, `impact`, `search`, `conventions`, `concepts`, `stack_search`,
//!   `stack_view`, and the writes
//!   `stack_post`, `stack_answer`, `stack_vote`, `iwh_read`, `iwh_write`, `convention_add` — taking the CLI's
//!   arguments with the CLI's rules (paths relative to the project root; outside the project,
//!   `.git/` and `.lexibrary/` refused) and answering what the CLI prints (`format: json` for its
//!   JSON). A failure is a tool error (`isError: true`) whose text says what to do, as the CLI's
//!   messages do; an unknown tool is a protocol error (`-32602`).
//! - **Resources** ([`resources`]): START_HERE.md and each concept.
//! - **Session cache** ([`cache`]): a repeated read whose files did not change answers
//!   "unchanged since <etag>" unless called with `full: true` (which also asks `lookup` and
//!   `conventions` for their complete form).
//! - **Transport** ([`guard`]): stdio, with every line that is not JSON-RPC answered by an error.
//!
//! Start-up does no more than find the project: nothing of the library is read until a call needs
//! it, and every call opens the project again (so config edits apply at once) and reads only what
//! its query reads.

pub mod cache;
mod guard;
pub mod read_tools;
pub mod registry;
pub mod resources;
mod values;
mod watch;
pub mod write_tools;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListResourceTemplatesResult, ListResourcesResult, ListToolsResult, MetaObject,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    ServerCapabilities, ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler};

use cache::{SessionCache, Verdict};
use registry::{Answer, Call, Registered};

use crate::knowledge::status::StaleCheck;
use crate::project::Project;
use crate::workspace::Workspace;

/// What the server tells a client about itself (some clients show it to the model).
const INSTRUCTIONS: &str = "\
This server reads and writes the codebase library Lexibrarian keeps in .lexibrary/: a design file \
per source file, an index per directory, concepts (cross-cutting rules), the Stack (problems solved \
before) and I Was Here notes. Start a session with `orient`. Before editing a file call `lookup` \
(or `context` for everything linked to it); before a change, `conventions`; before debugging, \
`stack_search`; to find where something lives, `search`. After editing a file, update its design \
file .lexibrary/<file>.md and set `updated_by: agent`. Paths are relative to the project root. \
`format: json` answers JSON. A repeated call on unchanged files answers `unchanged since <etag>`: \
reuse the answer you already have, or pass `full: true`, which also gives `lookup` and \
`conventions` whole.";

/// The server: the project root, the tools, and the session cache.
#[derive(Clone)]
pub struct Server {
    root: Arc<PathBuf>,
    tools: Arc<Vec<Box<dyn Registered>>>,
    cache: Arc<Mutex<SessionCache>>,
    /// The library's listing, walked again only when the library changed.
    library: Arc<Mutex<watch::LibraryWatch>>,
    /// How the `orient` tool's health line computes staleness (`lexictl status`'s).
    stale_check: StaleCheck,
}

impl Server {
    /// A server for the project rooted at `root` (which holds `.lexibrary/`); `stale_check` is
    /// what `lexictl update --check` finds (the caller's: the update pipeline is the engine's).
    pub fn new(root: PathBuf, stale_check: StaleCheck) -> Server {
        let library = watch::LibraryWatch::new(root.join(crate::project::LIBRARY_DIR));
        Server {
            library: Arc::new(Mutex::new(library)),
            root: Arc::new(root),
            tools: Arc::new(registry::registry()),
            cache: Arc::new(Mutex::new(SessionCache::default())),
            stale_check,
        }
    }

    /// The project, opened for one call.
    fn open(&self) -> anyhow::Result<Project> {
        Ok(Project::open(self.root.as_ref().clone())?)
    }

    /// Run tool `name` with `arguments`; every failure after finding the tool is a tool error.
    pub fn call(&self, name: &str, arguments: JsonObject) -> Result<CallToolResult, McpError> {
        let Some(tool) = self.tools.iter().find(|tool| tool.name() == name) else {
            let names: Vec<&str> = self.tools.iter().map(|tool| tool.name()).collect();
            return Err(McpError::invalid_params(
                format!("unknown tool `{name}`; the tools are {}", names.join(", ")),
                None,
            ));
        };
        Ok(match self.run(tool.as_ref(), arguments) {
            Ok(result) => result,
            Err(err) => CallToolResult::error(vec![ContentBlock::text(error_text(&err))]),
        })
    }

    fn run(
        &self,
        tool: &dyn Registered,
        mut arguments: JsonObject,
    ) -> anyhow::Result<CallToolResult> {
        let common = Common::take(&mut arguments, tool)?;
        // The cache key: the arguments as given (keys sorted), the output format included.
        let mut keyed = arguments.clone();
        keyed.insert("format".into(), common.json.into());
        // A whole answer (`lookup`'s `--full`) is another answer than the compact one.
        keyed.insert("full".into(), common.full.into());
        let key = serde_json::Value::Object(keyed).to_string();
        let prepared = tool.prepare(arguments)?;
        let mut call = Call::new(Workspace::new(self.open()?), self.stale_check)
            .with_library(Arc::clone(&self.library));
        call.full = common.full;
        let verdict = match prepared.inputs(&call)? {
            Some(inputs) => {
                let all = inputs.whole_library().then(|| call.library());
                let fingerprint = inputs.fingerprint(call.ws.project(), all);
                Some(
                    self.lock_cache()
                        .check(tool.name(), &key, &fingerprint, common.full),
                )
            }
            None => None,
        };
        if let Some(Verdict::Unchanged { etag }) = &verdict {
            return Ok(unchanged(etag, common.json));
        }
        let answer = prepared.run(&call);
        let mut cache = self.lock_cache();
        match (answer, verdict) {
            (Ok(answer), Some(Verdict::Fresh { etag, remember })) => {
                if remember {
                    cache.sent(tool.name(), &key, &etag);
                } else {
                    cache.forget(tool.name(), &key);
                }
                Ok(answered(answer, common.json, Some(&etag)))
            }
            (Ok(answer), _) => Ok(answered(answer, common.json, None)),
            (Err(err), _) => {
                cache.forget(tool.name(), &key);
                Err(err)
            }
        }
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, SessionCache> {
        // A panic while holding the lock cannot leave the map half-written in a harmful way.
        self.cache
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

/// The arguments every tool takes, removed from the tool's own.
struct Common {
    json: bool,
    full: bool,
}

impl Common {
    fn take(arguments: &mut JsonObject, tool: &dyn Registered) -> anyhow::Result<Common> {
        let json = match arguments.remove("format") {
            None => false,
            Some(serde_json::Value::String(format)) if format == "text" => false,
            Some(serde_json::Value::String(format)) if format == "json" => true,
            Some(other) => anyhow::bail!("`format` is \"text\" or \"json\", not {other}"),
        };
        let full = match arguments.remove("full") {
            None => false,
            Some(serde_json::Value::Bool(full)) if tool.read_only() => full,
            Some(serde_json::Value::Bool(_)) => {
                anyhow::bail!("`full` is for read tools; `{}` writes", tool.name())
            }
            Some(other) => anyhow::bail!("`full` is true or false, not {other}"),
        };
        Ok(Common { json, full })
    }
}

/// A full answer; `etag` when the session cache may answer the same call with it later.
fn answered(answer: Answer, json: bool, etag: Option<&str>) -> CallToolResult {
    let mut text = if json {
        serde_json::to_string_pretty(&answer.json).unwrap_or_default()
    } else {
        answer.text
    };
    if let (Some(etag), false) = (etag, json) {
        if !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&format!("\n(etag {etag})\n"));
    }
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    if json && answer.json.is_object() {
        result.structured_content = Some(answer.json);
    }
    if let Some(etag) = etag {
        let mut meta = JsonObject::new();
        meta.insert("etag".into(), etag.into());
        result.meta = Some(MetaObject(meta));
    }
    result
}

/// The short answer for a repeated call on unchanged files.
fn unchanged(etag: &str, json: bool) -> CallToolResult {
    let text = format!(
        "unchanged since {etag}: the files this answer is built from have not changed since it was sent earlier in this session; reuse that answer (call again with full: true to get it again)"
    );
    let mut result = if json {
        let value = serde_json::json!({"unchanged": true, "etag": etag});
        let mut result = CallToolResult::success(vec![ContentBlock::text(value.to_string())]);
        result.structured_content = Some(value);
        result
    } else {
        CallToolResult::success(vec![ContentBlock::text(text)])
    };
    let mut meta = JsonObject::new();
    meta.insert("etag".into(), etag.into());
    meta.insert("unchanged".into(), true.into());
    result.meta = Some(MetaObject(meta));
    result
}

/// An error and its causes, as the CLI prints them (`error: …` lines without the prefix).
fn error_text(err: &anyhow::Error) -> String {
    let mut text = err.to_string();
    for cause in err.chain().skip(1) {
        text.push_str(&format!("\n  caused by: {cause}"));
    }
    text
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_tools()
                .enable_resources()
                .build(),
        )
        .with_server_info(
            Implementation::new("lexibrarian", env!("CARGO_PKG_VERSION"))
                .with_title("Lexibrarian codebase library"),
        )
        .with_instructions(INSTRUCTIONS)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        let tools = self.tools.iter().map(|tool| tool.definition()).collect();
        Ok(ListToolsResult::with_all_items(tools))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let arguments = request.arguments.unwrap_or_default();
        self.call(&request.name, arguments)
            .map(CallToolResponse::from)
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, McpError> {
        let project = self.open().map_err(internal)?;
        Ok(ListResourcesResult::with_all_items(resources::list(
            &project,
        )))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, McpError> {
        Ok(ListResourceTemplatesResult::with_all_items(
            resources::templates(),
        ))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, McpError> {
        let project = self.open().map_err(internal)?;
        let contents = resources::read(&project, &request.uri)
            .map_err(|err| McpError::resource_not_found(error_text(&err), None))?;
        Ok(ReadResourceResult::new(vec![contents]).into())
    }
}

fn internal(err: anyhow::Error) -> McpError {
    McpError::internal_error(error_text(&err), None)
}

/// Serve the project at `root` on stdin/stdout until the client closes stdin; `stale_check` as in
/// [`Server::new`].
pub fn serve_stdio(root: &Path, stale_check: StaleCheck) -> anyhow::Result<()> {
    let server = Server::new(root.to_path_buf(), stale_check);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    let served = runtime.block_on(guard::serve(server));
    // A read of a terminal stdin cannot be cancelled; do not wait for it.
    runtime.shutdown_background();
    served
}
