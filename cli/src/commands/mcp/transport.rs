//! The stdio transport of `minne mcp`: newline-delimited JSON-RPC on stdin/stdout.
//!
//! It differs from rmcp's own stdio transport in three ways, all for a client that writes its
//! requests without waiting for answers (pipelining) or closes stdin at once
//! (`minne mcp < requests.jsonl`):
//!
//! - Requests are handed to rmcp one at a time, in the order received: the next one only once
//!   the previous one is answered. rmcp runs each request on its own task, so two requests in
//!   flight race for the engine, and a `forget {"last": "1h"}` sent after a `remember` could
//!   run first and miss it, or a `recall` miss what was just stored. One at a time, each
//!   request sees the effect of every request sent before it, and answers come back in
//!   order. Notifications (`notifications/cancelled`) pass the queue; a cancel drops its
//!   request if it is still waiting.
//! - End of input is reported to rmcp only once every request already received has been
//!   answered. rmcp stops waiting for in-flight handlers 5 s after end of input, and a tool call
//!   that loads the embedding model or waits behind others for the engine takes longer, so
//!   its answer would be lost. A request the client cancels (`notifications/cancelled`) is not
//!   waited for; nor is anything once no answer has been written for [`IDLE_LIMIT`].
//! - A line that is not JSON gets a JSON-RPC parse error (-32700, `id` null), and well-formed
//!   JSON that is not a JSON-RPC message an invalid-request error (-32600), as JSON-RPC 2.0
//!   §5.1 asks; rmcp skips unparsable lines without a word.

use std::collections::{HashSet, VecDeque};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use rmcp::RoleServer;
use rmcp::model::{ErrorData, JsonRpcMessage, RequestId};
use rmcp::service::{RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::Value;
use tokio::io::{
    AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader, Stdin, Stdout,
};
use tokio::sync::Notify;

/// How long after end of input the server waits without writing any answer before it gives
/// up on the requests still open and stops (seconds). Generous: one tool call may load the
/// embedding model (seconds) and calls run one at a time.
const IDLE_LIMIT: Duration = Duration::from_secs(120);

/// The longest request line read (bytes, newline excluded): 16 MiB, above any tool call an
/// assistant makes (a `remember` of the longest message Minne stores is 100 kB; one of 5 MB
/// still reaches the tool, which says what is wrong). A longer line is read past, without
/// keeping it, and answered with an invalid-request error that names the limit, so a 200 MB
/// line costs no more memory than a short one.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// Requests handed to rmcp and not yet answered, by id.
#[derive(Debug, Default)]
struct Pending {
    ids: Mutex<HashSet<RequestId>>,
    /// Error replies (to lines rmcp never saw) being written.
    errors: Mutex<usize>,
    /// Signalled whenever an answer is written.
    answered: Notify,
}

impl Pending {
    fn ids(&self) -> MutexGuard<'_, HashSet<RequestId>> {
        self.ids
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn errors(&self) -> MutexGuard<'_, usize> {
        self.errors
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Answers still to be written: requests in flight and error replies being written.
    fn open(&self) -> usize {
        self.ids().len() + *self.errors()
    }

    fn settle(&self, id: &RequestId) {
        self.ids().remove(id);
        self.answered.notify_one();
    }

    fn error_written(&self) {
        let mut errors = self.errors();
        *errors = errors.saturating_sub(1);
        drop(errors);
        self.answered.notify_one();
    }

    /// Waits until every request received has been answered, or until nothing was answered
    /// for [`IDLE_LIMIT`].
    async fn drain(&self) {
        loop {
            let open = self.open();
            if open == 0 {
                return;
            }
            let answered = self.answered.notified();
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
}

/// A line read and not yet handed on, in the order received.
#[derive(Debug)]
enum Queued {
    Message(Box<RxJsonRpcMessage<RoleServer>>),
    Error(ErrorReply),
}

impl Queued {
    /// Whether this item gets an answer, and so must wait its turn.
    fn answered(&self) -> bool {
        match self {
            Queued::Message(message) => matches!(**message, JsonRpcMessage::Request(_)),
            Queued::Error(_) => true,
        }
    }

    /// Whether this item is the request with `id`.
    fn is_request(&self, id: &RequestId) -> bool {
        match self {
            Queued::Message(message) => {
                matches!(&**message, JsonRpcMessage::Request(r) if r.id == *id)
            }
            Queued::Error(_) => false,
        }
    }
}

/// Newline-delimited JSON-RPC over the process's stdin and stdout.
pub type Stdio = Lines<Stdin, Stdout>;

/// Newline-delimited JSON-RPC read from `R` and written to `W`: [`Stdio`] for `minne mcp`, an
/// in-memory pipe for the fuzz target of the request stream (fuzz/fuzz_targets/mcp_stream.rs).
#[derive(Debug)]
pub struct Lines<R, W> {
    input: BufReader<R>,
    /// The line being read; kept across calls so a `receive` dropped mid-line (rmcp polls it
    /// in a `select!`) loses nothing.
    line: Vec<u8>,
    output: Arc<tokio::sync::Mutex<W>>,
    pending: Arc<Pending>,
    /// Lines read ahead while a request is in flight, in order.
    queue: VecDeque<Queued>,
    input_ended: bool,
    /// Reading past the rest of a line longer than [`MAX_LINE_BYTES`].
    skipping: bool,
}

impl Stdio {
    /// The transport over the process's stdin and stdout.
    pub fn new() -> Self {
        Lines::over(tokio::io::stdin(), tokio::io::stdout())
    }
}

impl<R, W> Lines<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    /// The transport reading requests from `input` and writing answers to `output`.
    pub fn over(input: R, output: W) -> Self {
        Lines {
            input: BufReader::new(input),
            line: Vec::new(),
            output: Arc::new(tokio::sync::Mutex::new(output)),
            pending: Arc::new(Pending::default()),
            queue: VecDeque::new(),
            input_ended: false,
            skipping: false,
        }
    }

    /// Reads one line and queues what it holds: a message, or the error reply it deserves.
    /// Cancel safe: bytes read before a cancel stay in `self.line`.
    async fn read_one(&mut self) {
        if self.skipping {
            return self.skip_rest().await;
        }
        // At most one byte past the limit, so an over-long line is told apart from one of
        // exactly the limit, and never held whole.
        let room = (MAX_LINE_BYTES + 2).saturating_sub(self.line.len()) as u64;
        match (&mut self.input)
            .take(room)
            .read_until(b'\n', &mut self.line)
            .await
        {
            Ok(0) if self.line.is_empty() => {
                self.input_ended = true;
                return;
            }
            Ok(_) => {
                // A last line without a newline is taken as it is.
            }
            Err(e) => {
                eprintln!("minne mcp: cannot read stdin: {e}; stopping");
                self.input_ended = true;
                return;
            }
        }
        let content = self.line.len() - usize::from(self.line.ends_with(b"\n"));
        if content > MAX_LINE_BYTES {
            let ended = self.line.ends_with(b"\n");
            self.line = Vec::new();
            self.skipping = !ended;
            self.queue.push_back(Queued::Error(ErrorReply {
                error: ErrorData::invalid_request(
                    format!(
                        "a request line is longer than {} MiB, the most minne mcp reads: it \
                         was not read; send a shorter request (a memory of up to 100 kB)",
                        MAX_LINE_BYTES / (1024 * 1024)
                    ),
                    None,
                ),
                id: None,
            }));
            return;
        }
        let line = std::mem::take(&mut self.line);
        let text = line.strip_suffix(b"\n").unwrap_or(&line);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        if text.iter().all(u8::is_ascii_whitespace) {
            return;
        }
        match self.parse(text) {
            Ok(Some(message)) => self.queue.push_back(Queued::Message(Box::new(message))),
            Ok(None) => {}
            Err(reply) => self.queue.push_back(Queued::Error(reply)),
        }
    }

    /// Reads past the rest of an over-long line without keeping it: up to its newline, or to
    /// the end of input. Cancel safe: each chunk is consumed only once looked at.
    async fn skip_rest(&mut self) {
        let chunk = match self.input.fill_buf().await {
            Ok(chunk) => chunk,
            Err(e) => {
                eprintln!("minne mcp: cannot read stdin: {e}; stopping");
                self.input_ended = true;
                return;
            }
        };
        if chunk.is_empty() {
            self.input_ended = true;
            return;
        }
        let used = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => {
                self.skipping = false;
                i + 1
            }
            None => chunk.len(),
        };
        self.input.consume(used);
    }

    /// Writes an error reply on its own task: `receive` may be dropped at any await, and a
    /// half-written line would corrupt the stream. Counted as open until written, so the
    /// next request's answer comes after it.
    fn write_error(&self, reply: ErrorReply) {
        eprintln!("minne mcp: {}", reply.error.message);
        let message = TxJsonRpcMessage::<RoleServer>::error(reply.error, reply.id);
        let output = Arc::clone(&self.output);
        let pending = Arc::clone(&self.pending);
        *pending.errors() += 1;
        tokio::spawn(async move {
            if let Err(e) = write_line(output, Arc::clone(&pending), message).await {
                eprintln!("minne mcp: cannot write to stdout: {e}");
            }
            pending.error_written();
        });
    }

    /// Turns one input line into a message, or into the error reply it deserves.
    fn parse(&mut self, line: &[u8]) -> Result<Option<RxJsonRpcMessage<RoleServer>>, ErrorReply> {
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
            // A cancelled request still waiting its turn is not run at all (nor answered:
            // the client no longer wants the answer).
            self.queue.retain(|q| !q.is_request(&cancelled));
        }
        // An `id` that is there but no JSON-RPC id (null, an object, a list, true, 1.5): the
        // message is a request the server cannot answer by its id, and so gets an
        // invalid-request error without one (JSON-RPC 2.0 §5; MCP's error responses omit an
        // id they cannot read). Taken as a notification, it went unanswered.
        if let Some(raw) = value.get("id")
            && id.is_none()
        {
            return Err(ErrorReply {
                error: ErrorData::invalid_request(
                    format!(
                        "`id` must be a string or an integer, got {raw}: the request was not \
                         run; send it again with such an id"
                    ),
                    None,
                ),
                id: None,
            });
        }
        match serde_json::from_value::<RxJsonRpcMessage<RoleServer>>(value.clone()) {
            Ok(message) => Ok(Some(message)),
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
#[derive(Debug)]
struct ErrorReply {
    error: ErrorData,
    id: Option<RequestId>,
}

/// Writes one message as one line and flushes, then settles its request.
async fn write_line<W: AsyncWrite + Unpin>(
    output: Arc<tokio::sync::Mutex<W>>,
    pending: Arc<Pending>,
    message: TxJsonRpcMessage<RoleServer>,
) -> std::io::Result<()> {
    let answers = match &message {
        JsonRpcMessage::Response(response) => Some(response.id.clone()),
        JsonRpcMessage::Error(error) => error.id.clone(),
        _ => None,
    };
    // JSON-RPC 2.0: an error that answers no request (a line that is not JSON, or a message
    // whose id cannot be read) carries `"id": null`; rmcp leaves the member out, and a client
    // that waits for it then waits for ever.
    let mut value = serde_json::to_value(&message)?;
    if let (JsonRpcMessage::Error(e), Some(object)) = (&message, value.as_object_mut())
        && e.id.is_none()
    {
        object.entry("id").or_insert(Value::Null);
    }
    let mut bytes = serde_json::to_vec(&value)?;
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

impl<R, W> Transport<RoleServer> for Lines<R, W>
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        write_line(Arc::clone(&self.output), Arc::clone(&self.pending), item)
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        loop {
            // Notifications (and responses) get no answer, so nothing waits for them: they
            // pass the queue, so a cancel reaches rmcp while its request is running.
            if let Some(i) = self.queue.iter().position(|q| !q.answered())
                && let Some(Queued::Message(message)) = self.queue.remove(i)
            {
                return Some(*message);
            }
            // The next request, only once everything before it is answered.
            if self.pending.open() == 0 {
                match self.queue.pop_front() {
                    Some(Queued::Message(message)) => {
                        if let JsonRpcMessage::Request(request) = &*message {
                            self.pending.ids().insert(request.id.clone());
                        }
                        return Some(*message);
                    }
                    Some(Queued::Error(reply)) => {
                        self.write_error(reply);
                        continue;
                    }
                    None => {}
                }
            }
            let pending = Arc::clone(&self.pending);
            if self.input_ended {
                if self.queue.is_empty() {
                    pending.drain().await;
                    return None;
                }
                // Requests are waiting behind one in flight: wait for its answer.
                let answered = pending.answered.notified();
                if tokio::time::timeout(IDLE_LIMIT, answered).await.is_err() {
                    eprintln!(
                        "minne mcp: a request is still unanswered {}s after the client closed \
stdin; stopping with {} request(s) not run",
                        IDLE_LIMIT.as_secs(),
                        self.queue.len()
                    );
                    return None;
                }
                continue;
            }
            // Read ahead while a request runs; both branches are cancel safe (a line read in
            // part stays in `self.line`).
            let busy = pending.open() > 0;
            tokio::select! {
                () = pending.answered.notified(), if busy => {}
                () = self.read_one() => {}
            }
        }
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.output.lock().await.flush().await
    }
}
