//! The LLM answerer: any OpenAI-compatible chat-completions endpoint, streamed over
//! server-sent events, temperature 0, with timeouts. It implements the same
//! [`Answerer`] trait as the extractive answerer; its output goes through the same
//! validator, and any failure of the endpoint is reported so the caller can fall back.

use crate::answer::prompt::{user_message, NO_ANSWER, SYSTEM};
use crate::answer::{AnswerError, AnswerRequest, Answerer, Draft};
use std::io::{BufRead, BufReader};
use std::time::Duration;

/// Where the model is and how to talk to it.
#[derive(Clone)]
pub struct LlmConfig {
    /// Base URL of the API, e.g. `http://127.0.0.1:8078/v1`.
    pub base_url: String,
    pub model: String,
    pub api_key: Option<String>,
    pub connect_timeout: Duration,
    /// Whole-response limit.
    pub timeout: Duration,
    pub max_tokens: u32,
}

impl std::fmt::Debug for LlmConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LlmConfig")
            .field("base_url", &self.base_url)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl LlmConfig {
    /// From `QUOTH_LLM_BASE_URL`, `QUOTH_LLM_MODEL` and `QUOTH_LLM_API_KEY` (or
    /// `OPENAI_API_KEY`); None when no base URL is set.
    pub fn from_env() -> Option<Self> {
        let base_url = std::env::var("QUOTH_LLM_BASE_URL")
            .ok()
            .filter(|s| !s.is_empty())?;
        Some(Self {
            base_url,
            model: std::env::var("QUOTH_LLM_MODEL").unwrap_or_else(|_| "default".into()),
            api_key: std::env::var("QUOTH_LLM_API_KEY")
                .or_else(|_| std::env::var("OPENAI_API_KEY"))
                .ok()
                .filter(|s| !s.is_empty()),
            connect_timeout: Duration::from_secs(5),
            timeout: Duration::from_secs(
                std::env::var("QUOTH_LLM_TIMEOUT_S")
                    .ok()
                    .and_then(|v| v.parse().ok())
                    .unwrap_or(120),
            ),
            max_tokens: 400,
        })
    }
}

pub struct LlmAnswerer {
    config: LlmConfig,
    client: reqwest::blocking::Client,
}

impl LlmAnswerer {
    pub fn new(config: LlmConfig) -> Result<Self, AnswerError> {
        let client = reqwest::blocking::Client::builder()
            .connect_timeout(config.connect_timeout)
            .timeout(config.timeout)
            .build()
            .map_err(|e| AnswerError::Endpoint(format!("cannot make an HTTP client: {e}")))?;
        Ok(Self { config, client })
    }

    fn endpoint(&self) -> String {
        format!(
            "{}/chat/completions",
            self.config.base_url.trim_end_matches('/')
        )
    }
}

/// Reads one server-sent event line; returns the content delta it carries, if any,
/// and whether the stream is done.
fn sse_delta(line: &str) -> Result<(Option<String>, bool), AnswerError> {
    let Some(data) = line.strip_prefix("data:") else {
        return Ok((None, false));
    };
    let data = data.trim();
    if data == "[DONE]" {
        return Ok((None, true));
    }
    let v: serde_json::Value = serde_json::from_str(data)
        .map_err(|e| AnswerError::BadResponse(format!("unreadable stream event: {e}")))?;
    if let Some(err) = v.get("error") {
        return Err(AnswerError::Endpoint(format!(
            "the model reported an error: {err}"
        )));
    }
    let choice = v.get("choices").and_then(|c| c.get(0));
    let content = choice
        .and_then(|c| c.get("delta"))
        .and_then(|d| d.get("content"))
        .and_then(|c| c.as_str())
        .map(str::to_string);
    let finished = choice
        .and_then(|c| c.get("finish_reason"))
        .is_some_and(|f| !f.is_null());
    Ok((content, finished))
}

impl Answerer for LlmAnswerer {
    fn name(&self) -> &'static str {
        "llm"
    }

    fn answer(
        &self,
        request: &AnswerRequest<'_>,
        on_delta: &mut dyn FnMut(&str),
    ) -> Result<Draft, AnswerError> {
        let body = serde_json::json!({
            "model": self.config.model,
            "temperature": 0,
            "stream": true,
            "max_tokens": self.config.max_tokens,
            "messages": [
                {"role": "system", "content": SYSTEM},
                {"role": "user", "content": user_message(&request.question.question, request.pack)},
            ],
        });
        let mut req = self.client.post(self.endpoint()).json(&body);
        if let Some(key) = &self.config.api_key {
            req = req.bearer_auth(key);
        }
        let resp = req
            .send()
            .map_err(|e| AnswerError::Endpoint(format!("{}: {e}", self.config.base_url)))?;
        let status = resp.status();
        if !status.is_success() {
            let text: String = resp.text().unwrap_or_default().chars().take(300).collect();
            return Err(AnswerError::Endpoint(format!("HTTP {status}: {text}")));
        }
        let is_stream = resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.contains("text/event-stream"));
        let mut text = String::new();
        if is_stream {
            let reader = BufReader::new(resp);
            for line in reader.lines() {
                let line = line.map_err(|e| AnswerError::Endpoint(format!("stream broke: {e}")))?;
                let (delta, done) = sse_delta(&line)?;
                if let Some(d) = delta {
                    on_delta(&d);
                    text.push_str(&d);
                }
                if done {
                    break;
                }
            }
        } else {
            // A server that ignores `stream` answers with one JSON object.
            let v: serde_json::Value = resp
                .json()
                .map_err(|e| AnswerError::BadResponse(format!("unreadable response: {e}")))?;
            let content = v
                .pointer("/choices/0/message/content")
                .and_then(|c| c.as_str())
                .ok_or_else(|| AnswerError::BadResponse("no message content".into()))?;
            on_delta(content);
            text.push_str(content);
        }
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(AnswerError::BadResponse(
                "the model returned nothing".into(),
            ));
        }
        if trimmed.starts_with(NO_ANSWER) {
            return Ok(Draft::NoAnswer(
                "the model found no answer in the evidence".into(),
            ));
        }
        Ok(Draft::Text(trimmed.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_stream_events() {
        let (d, done) =
            sse_delta(r#"data: {"choices":[{"delta":{"content":"Hi"},"finish_reason":null}]}"#)
                .expect("valid");
        assert_eq!(d.as_deref(), Some("Hi"));
        assert!(!done);
        assert!(sse_delta("data: [DONE]").expect("valid").1);
        assert_eq!(sse_delta(": keep-alive").expect("valid"), (None, false));
        assert!(sse_delta("data: {not json").is_err());
        assert!(sse_delta(r#"data: {"error":{"message":"overloaded"}}"#).is_err());
    }

    #[test]
    fn debug_never_shows_the_key() {
        let c = LlmConfig {
            base_url: "http://x".into(),
            model: "m".into(),
            api_key: Some("sk-secret".into()),
            connect_timeout: Duration::from_secs(1),
            timeout: Duration::from_secs(1),
            max_tokens: 10,
        };
        assert!(!format!("{c:?}").contains("sk-secret"));
    }
}
