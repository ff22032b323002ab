//! The OpenAI Chat Completions API (`POST {base_url}/chat/completions`), also spoken by local servers
//! (Ollama, vLLM, llama.cpp, LM Studio): request shape, headers and reading the answer.
//! Reference: <https://platform.openai.com/docs/api-reference/chat>.
//!
//! OpenAI's own models take `max_completion_tokens` and only their default temperature; compatible
//! servers widely understand `max_tokens` and `temperature: 0`, so the request differs by provider.

use serde_json::json;

use super::{ApiKey, Completion};

pub const DEFAULT_BASE_URL: &str = "https://api.openai.com/v1";

pub fn endpoint(base_url: &str) -> String {
    format!("{base_url}/chat/completions")
}

pub fn headers(key: Option<&ApiKey>) -> Vec<(&'static str, String)> {
    match key {
        Some(key) => vec![("authorization", format!("Bearer {}", key.expose()))],
        None => Vec::new(),
    }
}

pub fn request(
    model: &str,
    system: &str,
    user: &str,
    max_tokens: u32,
    compatible: bool,
) -> serde_json::Value {
    let messages = json!([
        {"role": "system", "content": system},
        {"role": "user", "content": user},
    ]);
    if compatible {
        json!({
            "model": model,
            "messages": messages,
            "max_tokens": max_tokens,
            "temperature": 0,
            "stream": false,
        })
    } else {
        json!({
            "model": model,
            "messages": messages,
            "max_completion_tokens": max_tokens,
        })
    }
}

/// The first choice's message content and the usage the server reports.
pub fn completion(answer: &serde_json::Value) -> Result<Completion, String> {
    let choice = answer
        .pointer("/choices/0")
        .ok_or_else(|| "the Chat Completions answer has no `choices`".to_string())?;
    let text = choice
        .pointer("/message/content")
        .and_then(|content| content.as_str())
        .filter(|text| !text.trim().is_empty())
        .ok_or_else(|| "the Chat Completions answer has no message text".to_string())?;
    let usage = |key: &str| {
        answer
            .pointer(&format!("/usage/{key}"))
            .and_then(|n| n.as_u64())
    };
    Ok(Completion {
        text: text.to_string(),
        tokens_in: usage("prompt_tokens"),
        tokens_out: usage("completion_tokens"),
        truncated: choice.get("finish_reason").and_then(|r| r.as_str()) == Some("length"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_first_choice_and_usage() {
        let answer = json!({
            "choices": [{"message": {"role": "assistant", "content": "Description: b."}, "finish_reason": "length"}],
            "usage": {"prompt_tokens": 7, "completion_tokens": 2}
        });
        let completion = completion(&answer).expect("reads");
        assert_eq!(completion.text, "Description: b.");
        assert_eq!(
            (completion.tokens_in, completion.tokens_out),
            (Some(7), Some(2))
        );
        assert!(completion.truncated);
        assert!(super::completion(&json!({"choices": []})).is_err());
    }

    #[test]
    fn openai_and_compatible_requests_differ_in_limits() {
        let openai = request("m", "s", "u", 100, false);
        assert_eq!(openai["max_completion_tokens"], 100);
        assert!(openai.get("temperature").is_none());
        let local = request("m", "s", "u", 100, true);
        assert_eq!(local["max_tokens"], 100);
        assert_eq!(local["temperature"], 0);
    }
}
