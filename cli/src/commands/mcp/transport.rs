//! The stdio transport of `minne mcp`: newline-delimited JSON-RPC on stdin/stdout.
//!
//! It differs from rmcp's own stdio transport in two ways, both for a client that writes its
//! requests and closes stdin at once (`minne mcp < requests.jsonl`):
//!
//! - End of input is reported to rmcp only once every request already received has been
//!   answered. rmcp stops waiting for in-flight handlers 5 s after end of input, and a tool call
//!   that loads the embedding model or waits behind others for the engine takes longer, so
//!   its answer would be lost. A request the client cancels (`notifications/cancelled`) is not
//!   waited for; nor is anything once no answer has been written for [`IDLE_LIMIT`].
//! - A line that is not JSON gets a JSON-RPC parse error (-32700, `id` null), and well-formed
//!   JSON that is not a JSON-RPC message an invalid-request error (-32600), as JSON-RPC 2.0
//!   §5.1 asks; rmcp skips unparsable lines without a word.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{ErrorData, JsonRpcMessage, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Stdin, Stdout};
use tokio::sync::Notify;

/// How long after end of input the server waits without writing any answer before it gives
/// up on the requests still open and stops (seconds). Generous: one tool call may load the
/// embedding model (seconds) and calls run one at a time.
const IDLE_LIMIT: Duration = Duration::from_secs(120);

/// Requests received and not yet answered, by id.
#[derive(Debug, Default)]
struct Pending {
    ids: Mutex<HashSet<RequestId>>,
    /// Signalled whenever an answer is written.
    answered: Notify,
}

impl Pending {
    fn ids(&self) -> MutexGuard<'_, HashSet<RequestId>> {
        self.ids
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn settle(&self, id: &RequestId) {
        self.ids().remove(id);
        self.answered.notify_one();
    }
}

/// Newline-delimited JSON-RPC over the process's stdin and stdout.
#[derive(Debug)]
pub struct Stdio {
    input: BufReader<Stdin>,
    /// The line being read; kept across calls so a `receive` dropped mid-line (rmcp polls it
    /// in a `select!`) loses nothing.
    line: Vec<u8>,
    output: Arc<tokio::sync::Mutex<Stdout>>,
    pending: Arc<Pending>,
    input_ended: bool,
}

impl Stdio {
    pub fn new() -> Self {
        Stdio {
            input: BufReader::new(tokio::io::stdin()),
            line: Vec::new(),
            output: Arc::new(tokio::sync::Mutex::new(tokio::io::stdout())),
            pending: Arc::new(Pending::default()),
            input_ended: false,
        }
    }

    /// Waits until every request received has been answered, or until nothing was answered
    /// for [`IDLE_LIMIT`].
    async fn drain(&self) {
        loop {
            let open = self.pending.ids().len();
            if open == 0 {
                return;
            }
            let answered = self.pending.answered.notified();
            if tokio::time::timeout(IDLE_LIMIT, answered).await.is_err() {
                eprintln!(
                    "minne mcp: {open} request(s) still unanswered {}s after the client \
closed stdin; stopping",
                    IDLE_LIMIT.as_secs()
                );
                return;
            }
        }
    }

    /// Turns one input line into a message, or into the error reply it deserves.
    fn parse(&self, line: &[u8]) -> Result<Option<RxJsonRpcMessage<RoleServer>>, ErrorReply> {
        let line = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
        let value: Value = serde_json::from_slice(line).map_err(|e| ErrorReply {
            error: ErrorData::parse_error(format!("not JSON: {e}"), None),
            id: None,
        })?;
        let id = value
            .get("id")
            .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
        if value.get("method").and_then(Value::as_str) == Some("notifications/cancelled")
            && let Some(cancelled) = value
                .pointer("/params/requestId")
                .and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok())
        {
            self.pending.settle(&cancelled);
        }
        match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
            Ok(message) => {
                if let JsonRpcMessage::Request(request) = &message {
                    self.pending.ids().insert(request.id.clone());
                }
                Ok(Some(message))
            }
            // A notification this server does not know (no id): nothing to answer.
            Err(_) if value.get("method").is_some() && id.is_none() => Ok(None),
            Err(e) => Err(ErrorReply {
                error: ErrorData::invalid_request(format!("not a JSON-RPC message: {e}"), None),
                id,
            }),
        }
    }
}

/// An error answer to a line that could not be handed to rmcp.
struct ErrorReply {
    error: ErrorData,
    id: Option<RequestId>,
}

/// Writes one message as one line and flushes, then settles its request.
async fn write_line(
    output: Arc<tokio::sync::Mutex<Stdout>>,
    pending: Arc<Pending>,
    message: TxJsonRpcMessage<RoleServer>,
) -> std::io::Result<()> {
    let answers = match &message {
        JsonRpcMessage::Response(response) => Some(response.id.clone()),
        JsonRpcMessage::Error(error) => error.id.clone(),
        _ => None,
    };
    let mut bytes = serde_json::to_vec(&message)?;
    bytes.push(b'\n');
    let written = {
        let mut out = output.lock().await;
        match out.write_all(&bytes).await {
            Ok(()) => out.flush().await,
            Err(e) => Err(e),
        }
    };
    // Settle even when the write failed: the client is gone, so nothing will answer it.
    if let Some(id) = answers {
        pending.settle(&id);
    }
    written
}

impl Transport<RoleServer> for Stdio {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        write_line(Arc::clone(&self.output), Arc::clone(&self.pending), item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            if self.input_ended {
                self.drain().await;
                return None;
            }
            // `read_until` is cancel safe: bytes read before a cancel stay in `self.line`.
            match self.input.read_until(b'\n', &mut self.line).await {
                Ok(0) => {
                    self.input_ended = true;
                    continue;
                }
                Ok(_) if !self.line.ends_with(b"\n") => {
                    // The last line, without a newline: take it as it is.
                }
                Ok(_) => {}
                Err(e) => {
                    eprintln!("minne mcp: cannot read stdin: {e}; stopping");
                    self.input_ended = true;
                    continue;
                }
            }
            let line = std::mem::take(&mut self.line);
            let text = line.strip_suffix(b"\n").unwrap_or(&line);
            let text = text.strip_suffix(b"\r").unwrap_or(text);
            if text.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            match self.parse(text) {
                Ok(Some(message)) => return Some(message),
                Ok(None) => {}
                Err(reply) => {
                    eprintln!("minne mcp: {}", reply.error.message);
                    let message = TxJsonRpcMessage::<RoleServer>::error(reply.error, reply.id);
                    // Written on its own task: this future may be dropped at any await, and a
                    // half-written line would corrupt the stream.
                    let output = Arc::clone(&self.output);
                    let pending = Arc::clone(&self.pending);
                    tokio::spawn(async move {
                        if let Err(e) = write_line(output, pending, message).await {
                            eprintln!("minne mcp: cannot write to stdout: {e}");
                        }
                    });
                }
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.output.lock().await.flush().await
    }
}
