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

/// The OpenAI chat-completions protocol over HTTP.
#[derive(Debug)]
pub struct OpenAiChat {
    config: LlmConfig,
    agent: ureq::Agent,
}

impl OpenAiChat {
    /// A client for `config`. Makes no request until asked.
    pub fn new(config: LlmConfig) -> Self {
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .timeout_global(Some(config.timeout))
            .http_status_as_error(false)
            .build()
            .into();
        OpenAiChat { config, agent }
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
        let mut response = request
            .send_json(&body)
            .map_err(|e| Error::Llm(format!("{url}: {e}")))?;
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
