//! The Anthropic Messages API (`POST {base_url}/v1/messages`): request shape, headers and reading the
//! answer. Reference: <https://docs.anthropic.com/en/api/messages>.

use serde_json::json;

use super::{ApiKey, Completion};

pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com";
/// The API version header every request carries.
pub const API_VERSION: &str = "2023-06-01";

pub fn endpoint(base_url: &str) -> String {
    format!("{base_url}/v1/messages")
}

pub fn headers(key: Option<&ApiKey>) -> Vec<(&'static str, String)> {
    let mut headers = vec![("anthropic-version", API_VERSION.to_string())];
    if let Some(key) = key {
        headers.push(("x-api-key", key.expose().to_string()));
    }
    headers
}

pub fn request(model: &str, system: &str, user: &str, max_tokens: u32) -> serde_json::Value {
    json!({
        "model": model,
        "max_tokens": max_tokens,
        "temperature": 0,
        "system": system,
        "messages": [{"role": "user", "content": user}],
    })
}

/// The text blocks of the answer, joined, and the usage the API reports.
pub fn completion(answer: &serde_json::Value) -> Result<Completion, String> {
    let blocks = answer
        .get("content")
        .and_then(|content| content.as_array())
        .ok_or_else(|| "the Messages answer has no `content` list".to_string())?;
    let text: String = blocks
        .iter()
        .filter(|block| block.get("type").and_then(|t| t.as_str()) == Some("text"))
        .filter_map(|block| block.get("text").and_then(|t| t.as_str()))
        .collect::<Vec<_>>()
        .join("");
    if text.trim().is_empty() {
        return Err("the Messages answer has no text".to_string());
    }
    let usage = |key: &str| {
        answer
            .pointer(&format!("/usage/{key}"))
            .and_then(|n| n.as_u64())
    };
    Ok(Completion {
        text,
        tokens_in: usage("input_tokens"),
        tokens_out: usage("output_tokens"),
        truncated: answer.get("stop_reason").and_then(|r| r.as_str()) == Some("max_tokens"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_text_blocks_and_usage() {
        let answer = json!({
            "content": [{"type": "text", "text": "Description: a"}, {"type": "text", "text": "."}],
            "usage": {"input_tokens": 10, "output_tokens": 3},
            "stop_reason": "end_turn"
        });
        let completion = completion(&answer).expect("reads");
        assert_eq!(completion.text, "Description: a.");
        assert_eq!(
            (completion.tokens_in, completion.tokens_out),
            (Some(10), Some(3))
        );
        assert!(!completion.truncated);
        assert!(super::completion(&json!({"content": []})).is_err());
    }
}
