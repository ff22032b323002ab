//! One JSON POST to a provider, done properly: a timeout per request, retries with exponential
//! backoff and jitter on 429 and 5xx (honouring `retry-after`) and on timeouts and dropped
//! connections, and errors that read like advice — with the API key scrubbed from every message.
//!
//! Blocking `ureq` over rustls; the update engine bounds how many of these run at once. A 401 or 403
//! is [`CallError::Refused`]: the key is wrong for every file, so the caller stops asking.
//!
//! This is the model request path's one choke point: every request to every provider is encoded
//! here. A request whose bytes hold secret material ([`crate::secrets::secret_material`]: a private
//! key, a high-confidence token) is never sent, whatever put it there — a source file, an existing
//! design file, a template; in any other, every string is redacted ([`crate::secrets::redact`]: a
//! password literal, a JSON Web Token, a password inside a URL becomes `…`) before it leaves.
//!
//! The answer's body is read up to [`MAX_BODY`] bytes: a provider (or something posing as one)
//! cannot make the run hold more than that.

use std::io::ErrorKind;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::ApiKey;

/// First backoff delay; doubled per retry.
const BACKOFF_BASE: Duration = Duration::from_millis(500);
/// Longest backoff delay.
const BACKOFF_MAX: Duration = Duration::from_secs(20);
/// Longest `retry-after` honoured; a provider asking for more fails the file (the next run retries).
const RETRY_AFTER_MAX: Duration = Duration::from_secs(60);
/// Largest answer body read: an answer of the most output tokens a request asks for (8,192) is
/// some 40 KB of text, a few times that as JSON. A provider that sends more is not read further,
/// so memory stays bounded whatever it sends (the file fails; the rest of the run goes on).
pub const MAX_BODY: u64 = 1024 * 1024;

/// Why a call failed.
#[derive(Debug)]
pub enum CallError {
    /// The provider refused the credentials (401/403): no other call will do better.
    Refused(String),
    /// This call failed (after any retries).
    Failed(String),
}

impl std::fmt::Display for CallError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CallError::Refused(message) | CallError::Failed(message) => f.write_str(message),
        }
    }
}

/// A provider's HTTP endpoint client.
pub struct Http {
    agent: ureq::Agent,
    timeout: Duration,
    max_retries: u32,
}

impl Http {
    pub fn new(timeout: Duration, max_retries: u32) -> Http {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            .http_status_as_error(false)
            .user_agent(format!("lexibrarian/{}", env!("CARGO_PKG_VERSION")))
            .build();
        Http {
            agent: config.into(),
            timeout,
            max_retries,
        }
    }

    /// POST `body` as JSON to `url` with `headers` and return the parsed JSON answer. `key` is only
    /// used to scrub messages (the caller puts it in a header).
    pub fn post_json(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: &serde_json::Value,
        key: Option<&ApiKey>,
    ) -> Result<serde_json::Value, CallError> {
        let scrub = |message: String| match key {
            Some(key) => key.redact(&message),
            None => message,
        };
        self.post_inner(url, headers, body)
            .map_err(|err| match err {
                CallError::Refused(message) => CallError::Refused(scrub(message)),
                CallError::Failed(message) => CallError::Failed(scrub(message)),
            })
    }

    /// Send until an answer, a failure that retrying cannot fix, or the last retry.
    fn post_inner(
        &self,
        url: &str,
        headers: &[(&str, String)],
        body: &serde_json::Value,
    ) -> Result<serde_json::Value, CallError> {
        let encode = |body: &serde_json::Value| {
            serde_json::to_vec(body)
                .map_err(|err| CallError::Failed(format!("cannot encode the request: {err}")))
        };
        refuse_secrets(&encode(body)?)?;
        let payload = encode(&redacted(body))?;
        let mut attempt = 0;
        loop {
            let (problem, retry_after) = match self.attempt(url, headers, &payload) {
                Attempt::Done(result) => return result,
                Attempt::Retry {
                    problem,
                    retry_after,
                } => (problem, retry_after),
            };
            if attempt >= self.max_retries {
                let tries = attempt + 1;
                return Err(CallError::Failed(if tries == 1 {
                    problem
                } else {
                    format!("{problem} (gave up after {tries} attempts)")
                }));
            }
            let delay = match retry_after {
                Some(wait) if wait > RETRY_AFTER_MAX => {
                    return Err(CallError::Failed(format!(
                        "{problem} (the provider asked to wait {} s; try again later)",
                        wait.as_secs()
                    )));
                }
                Some(wait) => wait,
                None => backoff(attempt),
            };
            std::thread::sleep(delay);
            attempt += 1;
        }
    }

    /// One request: its answer, a failure retrying cannot fix, or a problem worth a retry.
    fn attempt(&self, url: &str, headers: &[(&str, String)], payload: &[u8]) -> Attempt {
        let mut request = self
            .agent
            .post(url)
            .header("content-type", "application/json");
        for (name, value) in headers {
            request = request.header(*name, value.as_str());
        }
        match request.send(payload) {
            Ok(response) => self.answer(url, response),
            Err(ureq::Error::Timeout(_)) => Attempt::retry(self.timed_out(url)),
            Err(ureq::Error::Io(err)) if err.kind() == ErrorKind::ConnectionRefused => {
                Attempt::failed(format!(
                    "cannot connect to {url}: connection refused (is the server running? check llm.base_url)"
                ))
            }
            Err(ureq::Error::HostNotFound) => Attempt::failed(format!(
                "cannot resolve the host of {url} (check llm.base_url and the network)"
            )),
            Err(ureq::Error::BadUri(message)) => Attempt::failed(format!(
                "{url} is not a valid URL ({message}); check llm.base_url"
            )),
            Err(err) => Attempt::retry(format!("request to {url} failed: {err}")),
        }
    }

    /// What an HTTP answer means: JSON on 2xx, refused credentials on 401/403, a retry on
    /// 408/429/5xx (after `retry-after` when the provider says), a failure otherwise.
    fn answer(&self, url: &str, mut response: ureq::http::Response<ureq::Body>) -> Attempt {
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|value| value.to_str().ok())
            .and_then(parse_retry_after);
        let text = response
            .body_mut()
            .with_config()
            .limit(MAX_BODY)
            .read_to_string();
        match text {
            Ok(text) if (200..300).contains(&status) => {
                Attempt::Done(serde_json::from_str(&text).map_err(|err| {
                    CallError::Failed(format!(
                        "the answer from {url} is not valid JSON ({err}); it starts: {:?}",
                        snippet(&text)
                    ))
                }))
            }
            Ok(text) => {
                let message = provider_message(&text);
                if status == 401 || status == 403 {
                    return Attempt::Done(Err(CallError::Refused(format!(
                        "{url} refused the credentials (HTTP {status}): {message}"
                    ))));
                }
                let problem = format!("HTTP {status} from {url}: {message}");
                if !(status == 429 || status == 408 || status >= 500) {
                    return Attempt::failed(problem);
                }
                Attempt::Retry {
                    problem,
                    retry_after,
                }
            }
            Err(ureq::Error::Timeout(_)) => Attempt::retry(self.timed_out(url)),
            Err(ureq::Error::BodyExceedsLimit(_)) => Attempt::failed(format!(
                "the answer from {url} is larger than {} KiB, more than any answer a request asks for; it was not read (check llm.base_url: is it the model's API?)",
                MAX_BODY / 1024
            )),
            Err(err) => Attempt::retry(format!("reading the answer from {url} failed: {err}")),
        }
    }

    fn timed_out(&self, url: &str) -> String {
        format!(
            "no answer from {url} within {} s (llm.timeout)",
            self.timeout.as_secs()
        )
    }
}

/// The outcome of one request.
enum Attempt {
    /// The answer, or a failure that retrying cannot fix.
    Done(Result<serde_json::Value, CallError>),
    /// A problem worth another try, after `retry_after` when the provider said so.
    Retry {
        problem: String,
        retry_after: Option<Duration>,
    },
}

impl Attempt {
    fn failed(message: String) -> Attempt {
        Attempt::Done(Err(CallError::Failed(message)))
    }

    fn retry(problem: String) -> Attempt {
        Attempt::Retry {
            problem,
            retry_after: None,
        }
    }
}

/// `value` with every string redacted ([`crate::secrets::redact`]).
fn redacted(value: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::String(text) => Value::String(crate::secrets::redact(text).into_owned()),
        Value::Array(items) => Value::Array(items.iter().map(redacted).collect()),
        Value::Object(fields) => Value::Object(
            fields
                .iter()
                .map(|(key, field)| (key.clone(), redacted(field)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// The choke point: a request that holds secret material is not sent (its kind is named, never its
/// value).
fn refuse_secrets(payload: &[u8]) -> Result<(), CallError> {
    match crate::secrets::secret_material(payload) {
        Some(kind) => Err(CallError::Failed(format!(
            "not sent: the request holds {kind}; Lexibrarian never sends secret material to a model — take it out of the source (or the design file), or list the file in .lexignore"
        ))),
        None => Ok(()),
    }
}

/// `retry-after` as delay-seconds (integer or decimal). An HTTP date is not honoured (backoff instead).
fn parse_retry_after(value: &str) -> Option<Duration> {
    let seconds: f64 = value.trim().parse().ok()?;
    (seconds.is_finite() && seconds >= 0.0).then(|| Duration::from_secs_f64(seconds.min(86_400.0)))
}

/// Exponential backoff with "equal jitter": half the step fixed, half random, so parallel workers
/// that failed together do not retry together.
fn backoff(attempt: u32) -> Duration {
    let step = BACKOFF_BASE
        .saturating_mul(2u32.saturating_pow(attempt))
        .min(BACKOFF_MAX);
    step / 2 + step.mul_f64(jitter() / 2.0)
}

/// A number in [0, 1) from the clock and a counter through splitmix64 — random enough for jitter,
/// without a crate for it.
fn jitter() -> f64 {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |elapsed| elapsed.as_nanos() as u64);
    let mut z = nanos
        ^ COUNTER
            .fetch_add(0x9e37_79b9_7f4a_7c15, Ordering::Relaxed)
            .rotate_left(17);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// The provider's own error message (`{"error": {"message": …}}` in both APIs), else the start of
/// the body.
fn provider_message(body: &str) -> String {
    let parsed: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let message = parsed.as_ref().and_then(|value| {
        value
            .pointer("/error/message")
            .or_else(|| value.get("error"))
            .or_else(|| value.get("message"))
            .and_then(|message| message.as_str())
            .map(str::to_string)
    });
    match message {
        Some(message) => snippet(&message),
        None if body.trim().is_empty() => "(empty answer)".to_string(),
        None => snippet(body),
    }
}

/// The first 200 characters of `text`, on one line.
fn snippet(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut out: String = line.chars().take(200).collect();
    if line.chars().count() > 200 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_with_secret_material_are_never_sent() {
        // A server that would accept anything: the request must fail before reaching it.
        let http = Http::new(Duration::from_secs(1), 0);
        let body = serde_json::json!({
            "messages": [{"role": "user", "content": crate::secrets::samples::private_key()}]
        });
        let err = http
            .post_json("http://127.0.0.1:9/v1", &[], &body, None)
            .expect_err("refused");
        let message = err.to_string();
        assert!(
            message.starts_with("not sent: the request holds a private key block"),
            "{message}"
        );
        assert!(!message.contains("OPENSSH"), "{message}");
    }

    #[test]
    fn retry_after_is_seconds() {
        assert_eq!(parse_retry_after("2"), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after(" 0.5 "), Some(Duration::from_millis(500)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
        assert_eq!(parse_retry_after("-1"), None);
    }

    #[test]
    fn backoff_grows_with_jitter_and_is_capped() {
        for attempt in 0..12 {
            let delay = backoff(attempt);
            let step = BACKOFF_BASE
                .saturating_mul(2u32.saturating_pow(attempt))
                .min(BACKOFF_MAX);
            assert!(delay >= step / 2 && delay <= step, "{attempt}: {delay:?}");
        }
        let samples: Vec<Duration> = (0..8).map(|_| backoff(3)).collect();
        assert!(
            samples.windows(2).any(|pair| pair[0] != pair[1]),
            "no jitter"
        );
    }

    #[test]
    fn provider_messages_are_extracted() {
        assert_eq!(
            provider_message(
                r#"{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}"#
            ),
            "Overloaded"
        );
        assert_eq!(
            provider_message("<html>Bad Gateway</html>"),
            "<html>Bad Gateway</html>"
        );
        assert_eq!(provider_message(""), "(empty answer)");
    }
}
