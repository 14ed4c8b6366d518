//! The optional LLM (DESIGN principle 7): any OpenAI-compatible chat-completions endpoint the
//! user points Minne at, such as a local Ollama. Nothing leaves the laptop unless the user
//! configures one; without it every step uses its rule-based path.

use std::time::Duration;

use serde_json::{Value, json};

use crate::error::{Error, Result};

/// How to reach the endpoint.
#[derive(Debug, Clone)]
pub struct LlmConfig {
    /// The API base, up to and including `/v1`: `http://localhost:11434/v1` for Ollama.
    pub base_url: String,
    /// The model name the endpoint knows (`llama3.1:8b`).
    pub model: String,
    /// Sent as a bearer token when set.
    pub api_key: Option<String>,
    /// The whole request, connect to last byte. Default 60 s.
    pub timeout: Duration,
}

impl LlmConfig {
    /// A config with the default timeout and no key.
    pub fn new(base_url: impl Into<String>, model: impl Into<String>) -> Self {
        LlmConfig {
            base_url: base_url.into(),
            model: model.into(),
            api_key: None,
            timeout: Duration::from_secs(60),
        }
    }
}

/// A chat model: one system prompt and one user message in, the assistant's text out.
pub trait ChatModel: Send + Sync + std::fmt::Debug {
    /// A short id for job records: `llm:<model>`.
    fn id(&self) -> String;
    /// The assistant's reply. Errors: [`Error::Llm`] on any transport, status or shape
    /// problem, including a timeout.
    fn complete(&self, system: &str, user: &str) -> Result<String>;
}

/// How long a connection to the endpoint may take: 5 s. A local model answers a connect at
/// once; an address that drops packets would otherwise hold each call for the whole timeout.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// How long an endpoint that could not be reached is not asked again: 5 minutes. Each step
/// uses its rule-based path meanwhile, so a dead endpoint costs one wait, not one per call (a
/// fresh user's MCP `remember` waited about 120 s: capture, then consolidation, each timed
/// out).
pub const RETRY_AFTER: Duration = Duration::from_secs(300);

/// The OpenAI chat-completions protocol over HTTP.
#[derive(Debug)]
pub struct OpenAiChat {
    config: LlmConfig,
    agent: ureq::Agent,
    /// Until when the endpoint is not asked, after it could not be reached.
    unreachable_until: std::sync::Mutex<Option<std::time::Instant>>,
}

impl OpenAiChat {
    /// A client for `config`. Makes no request until asked.
    pub fn new(config: LlmConfig) -> Self {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .timeout_connect(Some(CONNECT_TIMEOUT.min(config.timeout)))
            .http_status_as_error(false)
            .build()
            .into();
        OpenAiChat {
            config,
            agent,
            unreachable_until: std::sync::Mutex::new(None),
        }
    }

    fn mark_unreachable(&self) {
        if let Ok(mut until) = self.unreachable_until.lock() {
            *until = Some(std::time::Instant::now() + RETRY_AFTER);
        }
    }
}

impl ChatModel for OpenAiChat {
    fn id(&self) -> String {
        format!("llm:{}", self.config.model)
    }

    fn complete(&self, system: &str, user: &str) -> Result<String> {
        let url = format!(
            "{}/chat/completions",
            self.config.base_url.trim_end_matches('/')
        );
        let waiting = self
            .unreachable_until
            .lock()
            .ok()
            .and_then(|until| *until)
            .filter(|until| *until > std::time::Instant::now());
        if let Some(until) = waiting {
            let left = until.saturating_duration_since(std::time::Instant::now());
            return Err(Error::Llm(format!(
                "{url} could not be reached a moment ago; not asked again for {} s \
                 (the rules are used meanwhile)",
                left.as_secs()
            )));
        }
        let body = json!({
            "model": self.config.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": system},
                {"role": "user", "content": user},
            ],
        });
        let mut request = self
            .agent
            .post(&url)
            .header("content-type", "application/json");
        if let Some(key) = &self.config.api_key {
            request = request.header("authorization", &format!("Bearer {key}"));
        }
        let mut response = request.send_json(&body).map_err(|e| {
            // Not reached at all, or no answer in time: wait before asking again. A reply
            // with an error status is an answer, and the next call may do better.
            self.mark_unreachable();
            Error::Llm(format!("{url}: {e}"))
        })?;
        let status = response.status();
        let text = response
            .body_mut()
            .read_to_string()
            .map_err(|e| Error::Llm(format!("{url}: reading the reply: {e}")))?;
        if !status.is_success() {
            let snippet: String = text.chars().take(200).collect();
            return Err(Error::Llm(format!("{url} answered {status}: {snippet}")));
        }
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| Error::Llm(format!("{url}: the reply is not JSON: {e}")))?;
        value["choices"][0]["message"]["content"]
            .as_str()
            .map(str::to_string)
            .ok_or_else(|| {
                Error::Llm(format!(
                    "{url}: the reply has no choices[0].message.content"
                ))
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An endpoint that cannot be reached is asked once: the next call fails at once with
    /// the reason, without a second connection, so capture and consolidation fall back to
    /// the rules instead of each waiting for the timeout.
    #[test]
    fn an_unreachable_endpoint_is_not_asked_again_at_once() {
        // A port nothing listens on: bound, then closed.
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .map(|a| a.port())
            .expect("a free port");
        let chat = OpenAiChat::new(LlmConfig::new(format!("http://127.0.0.1:{port}/v1"), "m"));
        let first = chat.complete("s", "u").expect_err("nothing listens");
        assert!(
            !first.to_string().contains("not asked again"),
            "the first call tries: {first}"
        );
        let second = chat.complete("s", "u").expect_err("still down");
        assert!(
            second.to_string().contains("not asked again"),
            "the second call does not try again: {second}"
        );
    }
}
