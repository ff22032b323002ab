//! The stdio transport, with a guard in front of the SDK: newline-delimited JSON-RPC on stdin and
//! stdout, where every line that is not a JSON-RPC message gets a JSON-RPC error back instead of
//! silence.
//!
//! The SDK ignores a line that is not JSON (it has no id to answer) and answers well-formed JSON of
//! the wrong shape with a bare "Invalid request". A client that sent garbage would then wait for an
//! answer that never comes. So each line is checked first: not JSON → `-32700 Parse error` with
//! serde's message and the id `null` (JSON-RPC 2.0 §5.1); a batch, a non-object, a wrong `jsonrpc`,
//! a message with neither `method` nor `result`/`error` → `-32600 Invalid Request` saying what is
//! wrong, with the message's id when it has one; a line over 16 MiB → `-32600`. Everything else goes
//! to the SDK unchanged, which answers unknown methods (`-32601`) and bad parameters itself.
//!
//! Three small tasks: stdin → check → the SDK's input (or an error line), the SDK's output → the
//! writer, and the one writer of stdout, so that error lines never interleave with the SDK's.

use std::io;

use rmcp::service::{RoleServer, ServerInitializeError, Service, ServiceExt};
use serde_json::Value;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::sync::mpsc;

/// The longest line accepted (the SDK's own limit).
const MAX_LINE: usize = 16 * 1024 * 1024;
/// Capacity of the pipes between the guard and the SDK.
const PIPE: usize = 256 * 1024;

/// Serve `service` on stdin/stdout until the client closes stdin.
pub async fn serve<S: Service<RoleServer>>(service: S) -> anyhow::Result<()> {
    let (stdin, stdout) = rmcp::transport::stdio_pipes();
    // Duplex pipes (used one way each): dropping one end is the end of input for the other.
    let (sdk_in, mut to_sdk) = tokio::io::duplex(PIPE);
    let (sdk_out, from_sdk) = tokio::io::duplex(PIPE);
    let (lines, mut outgoing) = mpsc::channel::<Vec<u8>>(64);

    let writer = tokio::spawn(async move {
        let mut stdout = stdout;
        while let Some(line) = outgoing.recv().await {
            stdout.write_all(&line).await?;
            stdout.flush().await?;
        }
        io::Result::Ok(())
    });
    let errors = lines.clone();
    let inbound = tokio::spawn(async move {
        let mut reader = BufReader::new(stdin);
        let mut lifecycle = Lifecycle::default();
        loop {
            let message = match read_line(&mut reader, MAX_LINE).await {
                Ok(Line::Eof) | Err(_) => break,
                Ok(Line::TooLong) => Err(Rejection::too_long()),
                Ok(Line::Text(text)) => check(&text).map(|message| (text, message)),
            };
            let sent = match message {
                Ok((mut text, message)) => {
                    if !lifecycle.admits(message.as_ref()) {
                        continue;
                    }
                    text.push(b'\n');
                    to_sdk.write_all(&text).await.is_ok()
                }
                Err(rejection) => errors.send(rejection.to_line()).await.is_ok(),
            };
            if !sent {
                break;
            }
        }
        // The client is gone: the SDK reads the end of its input and stops.
        drop(to_sdk);
    });
    let outbound = tokio::spawn(async move {
        let mut reader = BufReader::new(from_sdk);
        loop {
            let mut line = Vec::new();
            match reader.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if lines.send(line).await.is_err() {
                        break;
                    }
                }
            }
        }
    });

    let served = match service.serve((sdk_in, sdk_out)).await {
        Ok(running) => running
            .waiting()
            .await
            .map(|_| ())
            .map_err(anyhow::Error::from),
        // The client left before starting a session: nothing went wrong here.
        Err(ServerInitializeError::ConnectionClosed(_)) => Ok(()),
        Err(err) => Err(anyhow::Error::from(err)),
    };
    inbound.abort();
    let _ = outbound.await;
    let _ = writer.await;
    served
}

/// One line of input.
enum Line {
    Text(Vec<u8>),
    TooLong,
    Eof,
}

/// The next line without its `\n` (and `\r`), never holding more than `max` bytes of it; a last
/// line without a newline counts.
async fn read_line<R: AsyncBufRead + Unpin>(reader: &mut R, max: usize) -> io::Result<Line> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let available = reader.fill_buf().await?;
        if available.is_empty() {
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::Eof,
                (false, false) => Line::Text(line),
            });
        }
        let end = available.iter().position(|&byte| byte == b'\n');
        let chunk = &available[..end.unwrap_or(available.len())];
        if line.len() + chunk.len() > max {
            too_long = true;
            line = Vec::new();
        } else if !too_long {
            line.extend_from_slice(chunk);
        }
        let used = end.map_or(available.len(), |end| end + 1);
        reader.consume(used);
        if end.is_some() {
            if too_long {
                return Ok(Line::TooLong);
            }
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            return Ok(Line::Text(line));
        }
    }
}

/// Why a line is not passed on, as a JSON-RPC error.
#[derive(Debug, PartialEq)]
struct Rejection {
    id: Value,
    code: i64,
    message: String,
}

const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;

impl Rejection {
    fn invalid(id: Value, message: impl Into<String>) -> Rejection {
        Rejection {
            id,
            code: INVALID_REQUEST,
            message: format!("Invalid Request: {}", message.into()),
        }
    }

    fn too_long() -> Rejection {
        Rejection::invalid(
            Value::Null,
            format!("the line is longer than {MAX_LINE} bytes; it was dropped"),
        )
    }

    fn to_line(&self) -> Vec<u8> {
        let response = serde_json::json!({
            "jsonrpc": "2.0",
            "id": self.id,
            "error": {"code": self.code, "message": self.message},
        });
        let mut line = response.to_string().into_bytes();
        line.push(b'\n');
        line
    }
}

/// Whether a session has started: until the client sends `initialize` (or, in the 2026-07-28
/// lifecycle, a request carrying its protocol version in `_meta`), the SDK takes any notification
/// or response for a broken handshake and stops. They mean nothing before a session anyway, so
/// they are dropped until then.
#[derive(Default)]
struct Lifecycle {
    started: bool,
}

/// The `_meta` key of the 2026-07-28 lifecycle's per-request protocol version.
const INLINE_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

impl Lifecycle {
    /// Whether `message` goes on to the SDK (a blank line is `None` and goes on).
    fn admits(&mut self, message: Option<&Value>) -> bool {
        let Some(message) = message else {
            return true;
        };
        if self.started {
            return true;
        }
        let method = message.get("method").and_then(Value::as_str);
        let is_request = method.is_some() && message.get("id").is_some();
        let inline = message
            .pointer("/params/_meta")
            .and_then(|meta| meta.get(INLINE_VERSION))
            .is_some();
        let opens = method == Some("initialize")
            || (is_request && inline && method != Some("server/discover"));
        if opens {
            self.started = true;
        }
        is_request
    }
}

/// The message when `line` looks like one JSON-RPC 2.0 message (the SDK checks the rest); `None`
/// for a blank line.
fn check(line: &[u8]) -> Result<Option<Value>, Rejection> {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Ok(None);
    }
    let value: Value = serde_json::from_slice(line).map_err(|err| Rejection {
        id: Value::Null,
        code: PARSE_ERROR,
        message: format!(
            "Parse error: {err}; send one JSON-RPC 2.0 message per line (newline-delimited JSON)"
        ),
    })?;
    let object = match &value {
        Value::Object(object) => object,
        Value::Array(_) => {
            return Err(Rejection::invalid(
                Value::Null,
                "batches are not part of MCP; send one message per line",
            ))
        }
        other => {
            return Err(Rejection::invalid(
                Value::Null,
                format!("a JSON-RPC message is an object, not {other}"),
            ))
        }
    };
    let id = match object.get("id") {
        Some(id @ (Value::String(_) | Value::Number(_))) => id.clone(),
        _ => Value::Null,
    };
    if object.get("jsonrpc").and_then(Value::as_str) != Some("2.0") {
        return Err(Rejection::invalid(id, "\"jsonrpc\" must be \"2.0\""));
    }
    match object.get("method") {
        Some(Value::String(_)) => Ok(Some(value)),
        Some(_) => Err(Rejection::invalid(id, "\"method\" must be a string")),
        None if object.contains_key("result") || object.contains_key("error") => Ok(Some(value)),
        None => Err(Rejection::invalid(
            id,
            "a message has a \"method\" (request or notification) or a \"result\" or \"error\" (response)",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_pass_and_garbage_is_named() {
        assert!(check(br#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).is_ok());
        assert!(check(br#"{"jsonrpc":"2.0","id":1,"result":{}}"#).is_ok());
        assert_eq!(check(b"   "), Ok(None));
        let parse = check(b"{not json").expect_err("garbage");
        assert_eq!((parse.code, &parse.id), (PARSE_ERROR, &Value::Null));
        assert!(parse.message.starts_with("Parse error: "), "{parse:?}");
        let version = check(br#"{"jsonrpc":"1.0","id":"a","method":"ping"}"#).expect_err("1.0");
        assert_eq!(
            (version.code, &version.id),
            (INVALID_REQUEST, &Value::from("a"))
        );
        let batch = check(br#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#).expect_err("batch");
        assert!(batch.message.contains("batches"), "{batch:?}");
        let neither = check(br#"{"jsonrpc":"2.0","id":7}"#).expect_err("neither");
        assert_eq!(neither.id, Value::from(7));
        let scalar = check(b"42").expect_err("scalar");
        assert!(scalar.message.contains("not 42"), "{scalar:?}");
    }

    #[test]
    fn notifications_wait_for_a_session() {
        let mut lifecycle = Lifecycle::default();
        let initialized =
            serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
        let ping = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "ping"});
        let initialize = serde_json::json!({"jsonrpc": "2.0", "id": 2, "method": "initialize"});
        assert!(
            !lifecycle.admits(Some(&initialized)),
            "dropped before a session"
        );
        assert!(lifecycle.admits(Some(&ping)), "requests always go on");
        assert!(lifecycle.admits(Some(&initialize)));
        assert!(
            lifecycle.admits(Some(&initialized)),
            "admitted once a session started"
        );
        let mut inline = Lifecycle::default();
        let call = serde_json::json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"_meta": {INLINE_VERSION: "2026-07-28"}}});
        assert!(inline.admits(Some(&call)));
        assert!(inline.admits(Some(&initialized)));
    }

    #[test]
    fn error_lines_are_json_rpc_responses() {
        let line = Rejection::too_long().to_line();
        let value: Value = serde_json::from_slice(&line).expect("json");
        assert_eq!(value["jsonrpc"], "2.0");
        assert_eq!(value["id"], Value::Null);
        assert_eq!(value["error"]["code"], INVALID_REQUEST);
        assert_eq!(line.last(), Some(&b'\n'));
    }

    #[test]
    fn lines_are_bounded_and_the_last_one_counts_without_a_newline() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        runtime.block_on(async {
            let input: &[u8] = b"short\r\nthis one is far too long\nok\nlast";
            let mut reader = BufReader::with_capacity(4, input);
            let mut lines = Vec::new();
            loop {
                match read_line(&mut reader, 10).await.expect("read") {
                    Line::Eof => break,
                    Line::TooLong => lines.push("<too long>".to_string()),
                    Line::Text(text) => lines.push(String::from_utf8(text).expect("utf-8")),
                }
            }
            assert_eq!(lines, ["short", "<too long>", "ok", "last"]);
        });
    }
}
