//! Fuzzes `minne mcp`'s request stream, structure-aware (issue 30, "Fuzzing"): the input is
//! read as a session of JSON-RPC lines (the handshake, tool calls with real and wrong argument
//! names and values, other methods, cancels, ids of every JSON type, raw bytes, lines cut
//! short), written to the server's own transport and tool code (the cli's files, included
//! below by path) over an in-memory pipe, against a real SQLite store with a small
//! deterministic embedder.
//!
//! It checks what an assistant relies on, beyond "no panic":
//! - every line the server writes is one JSON-RPC 2.0 message (stdout carries the protocol
//!   only), and every error carries an `id` member (`null` when none could be read);
//! - after a handshake, every request with a string or integer id of its own that was not
//!   cancelled gets an answer with that id (none is lost or left waiting: a request left
//!   unanswered would hold the run until libFuzzer's timeout).
#![no_main]

#[allow(dead_code)]
#[path = "../../cli/src/duration.rs"]
mod duration;
#[allow(dead_code)]
#[path = "../../cli/src/output.rs"]
mod output;
#[allow(dead_code)]
#[path = "../../cli/src/time.rs"]
mod time;
#[allow(dead_code)]
#[path = "../../cli/src/commands/mcp"]
mod mcp {
    pub mod server;
    pub mod tools;
    pub mod transport;
}

use std::collections::{HashMap, HashSet};
use std::io::Cursor;
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::{Arc, Mutex, OnceLock};
use std::task::{Context, Poll};

use libfuzzer_sys::arbitrary::{self, Arbitrary};
use libfuzzer_sys::fuzz_target;
use minne::Engine;
use minne::clock::SystemClock;
use minne::context::ContextName;
use minne::embed::HashEmbedder;
use minne::keys::KeyConfig;
use serde_json::{Value, json};

use mcp::server::MinneServer;
use mcp::transport::{Lines, MAX_LINE_BYTES};

/// The most steps one input is read as (the rest is ignored): a session of an assistant's
/// size, so one run stays well under a second.
const MAX_STEPS: usize = 12;

/// How deep a generated JSON value nests; deeper parts are cut to `null`.
const MAX_DEPTH: usize = 4;

/// The bytes of long texts one session may hold in all: past the 16 MiB line limit, not so
/// many that building the session costs more than running it.
const LONG_BYTES: usize = 24 * 1024 * 1024;

thread_local! {
    /// What is left of [`LONG_BYTES`] for the session being rendered.
    static LONG_BUDGET: std::cell::Cell<usize> = const { std::cell::Cell::new(LONG_BYTES) };
}

/// Runs on one store before it is replaced by a fresh one, so the store stays small.
const RUNS_PER_STORE: u32 = 500;

#[derive(Arbitrary, Debug)]
struct Session {
    handshake: bool,
    steps: Vec<Step>,
}

#[derive(Arbitrary, Debug)]
enum Step {
    /// `tools/call` of a tool with arguments.
    Call {
        id: Id,
        tool: Tool,
        args: Vec<(Arg, Val)>,
    },
    /// Any other method as a request.
    Request {
        id: Id,
        method: Method,
        params: Option<Val>,
    },
    /// A method as a notification (no id).
    Notify { method: Method, params: Option<Val> },
    /// `notifications/cancelled` for the request with this id.
    Cancel { id: Id },
    /// A line of raw bytes (its newlines dropped).
    Raw(Vec<u8>),
    /// A tool call line cut after `cut` bytes.
    Cut {
        id: Id,
        tool: Tool,
        args: Vec<(Arg, Val)>,
        cut: u16,
    },
}

#[derive(Arbitrary, Debug, Clone)]
enum Id {
    Int(i16),
    Text(Word),
    Null,
    Float,
    Object,
    Missing,
}

#[derive(Arbitrary, Debug)]
enum Tool {
    Remember,
    Recall,
    Forget,
    List,
    Status,
    Context,
    Other(String),
}

#[derive(Arbitrary, Debug)]
enum Arg {
    Text,
    Role,
    Session,
    Query,
    K,
    Format,
    Id,
    Last,
    Confirm,
    Limit,
    Cursor,
    Budget,
    Other(String),
}

#[derive(Arbitrary, Debug)]
enum Method {
    Initialize,
    Initialized,
    ToolsList,
    ToolsCall,
    Ping,
    ResourcesList,
    PromptsList,
    Cancelled,
    Other(String),
}

#[derive(Arbitrary, Debug)]
enum Val {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    Word(Word),
    Text(String),
    /// A word repeated, up to a 255 × 64-fold (about 1 MB): texts past the 100 kB a memory
    /// holds, without long inputs.
    Long(Word, u8, u8),
    Array(Vec<Val>),
    Object(Vec<(Arg, Val)>),
}

/// Strings the tools give meaning to, so the fuzzer reaches past argument parsing.
#[derive(Arbitrary, Debug, Clone, Copy)]
enum Word {
    User,
    Assistant,
    Items,
    Prompt,
    HalfHour,
    Hour,
    TwoDays,
    NoTime,
    Negative,
    Huge,
    Secret,
    Plan,
    Swedish,
    Danish,
    Correction,
    EpisodeId,
    Session,
    Empty,
    Controls,
}

impl Word {
    fn text(self) -> &'static str {
        match self {
            Word::User => "user",
            Word::Assistant => "assistant",
            Word::Items => "items",
            Word::Prompt => "prompt",
            Word::HalfHour => "30m",
            Word::Hour => "1h",
            Word::TwoDays => "2d",
            Word::NoTime => "0m",
            Word::Negative => "-1h",
            Word::Huge => "99999999999999d",
            Word::Secret => "My bank PIN is 4821",
            Word::Plan => "Tomorrow at 10 I meet Anna about the launch, I promised the slides",
            Word::Swedish => "Jag heter Sara och jobbar på Volvo i Göteborg",
            Word::Danish => "Jeg flytter til Aarhus i marts, husk det",
            Word::Correction => "No, it's Thursday, not Tuesday: the parents' meeting moved",
            Word::EpisodeId => "1",
            Word::Session => "mcp:fuzz",
            Word::Empty => "",
            Word::Controls => "a\u{2028}b\u{0}c\u{202e}d\r\ne",
        }
    }
}

impl Tool {
    fn name(&self) -> String {
        match self {
            Tool::Remember => "remember".into(),
            Tool::Recall => "recall".into(),
            Tool::Forget => "forget".into(),
            Tool::List => "list".into(),
            Tool::Status => "status".into(),
            Tool::Context => "context".into(),
            Tool::Other(name) => name.clone(),
        }
    }
}

impl Arg {
    fn name(&self) -> String {
        match self {
            Arg::Text => "text",
            Arg::Role => "role",
            Arg::Session => "session",
            Arg::Query => "query",
            Arg::K => "k",
            Arg::Format => "format",
            Arg::Id => "id",
            Arg::Last => "last",
            Arg::Confirm => "confirm",
            Arg::Limit => "limit",
            Arg::Cursor => "cursor",
            Arg::Budget => "budget",
            Arg::Other(name) => return name.clone(),
        }
        .into()
    }
}

impl Method {
    fn name(&self) -> String {
        match self {
            Method::Initialize => "initialize",
            Method::Initialized => "notifications/initialized",
            Method::ToolsList => "tools/list",
            Method::ToolsCall => "tools/call",
            Method::Ping => "ping",
            Method::ResourcesList => "resources/list",
            Method::PromptsList => "prompts/list",
            Method::Cancelled => "notifications/cancelled",
            Method::Other(name) => return name.clone(),
        }
        .into()
    }
}

impl Val {
    fn json(&self, depth: usize) -> Value {
        if depth > MAX_DEPTH {
            return Value::Null;
        }
        match self {
            Val::Null => Value::Null,
            Val::Bool(b) => json!(b),
            Val::Int(i) => json!(i),
            // NaN and infinities are no JSON: serde_json writes them as null.
            Val::Float(f) => json!(f),
            Val::Word(w) => json!(w.text()),
            Val::Text(t) => json!(t),
            Val::Long(w, a, b) => {
                let times = usize::from(*a) * usize::from(*b % 64);
                let bytes = w.text().len() * times;
                let left = LONG_BUDGET.get();
                if bytes > left {
                    return json!(w.text());
                }
                LONG_BUDGET.set(left - bytes);
                json!(w.text().repeat(times))
            }
            Val::Array(items) => items.iter().map(|v| v.json(depth + 1)).collect(),
            Val::Object(fields) => Value::Object(
                fields
                    .iter()
                    .map(|(k, v)| (k.name(), v.json(depth + 1)))
                    .collect(),
            ),
        }
    }
}

impl Id {
    /// The id member's value, or `None` to leave the member out.
    fn json(&self) -> Option<Value> {
        match self {
            Id::Int(i) => Some(json!(i)),
            Id::Text(w) => Some(json!(w.text())),
            Id::Null => Some(Value::Null),
            Id::Float => Some(json!(1.5)),
            Id::Object => Some(json!({"id": 1})),
            Id::Missing => None,
        }
    }

    /// The id as a JSON-RPC request id (a string or an integer), when it is one.
    fn request_id(&self) -> Option<String> {
        match self {
            Id::Int(i) => Some(i.to_string()),
            Id::Text(w) => Some(format!("{:?}", w.text())),
            _ => None,
        }
    }
}

fn message(id: &Id, method: &str, params: Option<Value>) -> Value {
    let mut m = json!({"jsonrpc": "2.0", "method": method});
    if let Some(id) = id.json() {
        m["id"] = id;
    }
    if let Some(params) = params {
        m["params"] = params;
    }
    m
}

fn call(id: &Id, tool: &Tool, args: &[(Arg, Val)]) -> Value {
    let arguments: serde_json::Map<String, Value> =
        args.iter().map(|(k, v)| (k.name(), v.json(1))).collect();
    message(
        id,
        "tools/call",
        Some(json!({"name": tool.name(), "arguments": arguments})),
    )
}

/// The lines of a session, and the request ids that must each get an answer.
fn render(session: &Session) -> (Vec<u8>, HashSet<String>) {
    LONG_BUDGET.set(LONG_BYTES);
    let mut out = Vec::new();
    // A line past the transport's limit is refused unread, its id unknown (answered with
    // `id: null`), so nothing is owed for it: `line` says whether it was within.
    let line = |value: &Value, out: &mut Vec<u8>| -> bool {
        let text = value.to_string();
        out.extend_from_slice(text.as_bytes());
        out.push(b'\n');
        text.len() <= MAX_LINE_BYTES
    };
    if session.handshake {
        line(
            &json!({"jsonrpc": "2.0", "id": "handshake", "method": "initialize", "params": {
                "protocolVersion": "2025-06-18", "capabilities": {},
                "clientInfo": {"name": "fuzz", "version": "0"}}}),
            &mut out,
        );
        line(
            &json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
            &mut out,
        );
    }
    // Ids sent, how often, and the ids cancelled: an answer is owed to an id sent once,
    // never cancelled, by a request whose line reached the server whole.
    let mut sent: HashMap<String, usize> = HashMap::new();
    let mut owed = HashSet::new();
    let mut cancelled = HashSet::new();
    let mut unclear = false;
    for step in session.steps.iter().take(MAX_STEPS) {
        let mut count = |id: &Id| {
            if let Some(id) = id.request_id() {
                *sent.entry(id).or_default() += 1;
            }
        };
        match step {
            Step::Call { id, tool, args } => {
                count(id);
                if line(&call(id, tool, args), &mut out)
                    && let Some(id) = id.request_id()
                {
                    owed.insert(id);
                }
            }
            Step::Request { id, method, params } => {
                count(id);
                if method.name().contains("cancel") {
                    unclear = true;
                }
                let whole = line(
                    &message(id, &method.name(), params.as_ref().map(|p| p.json(1))),
                    &mut out,
                );
                // A request named as a notification is not one the server must answer.
                if whole
                    && let Some(rid) = id.request_id()
                    && !method.name().starts_with("notifications/")
                {
                    owed.insert(rid);
                }
            }
            Step::Notify { method, params } => {
                if matches!(method, Method::Cancelled) || method.name().contains("cancel") {
                    unclear = true;
                }
                line(
                    &message(
                        &Id::Missing,
                        &method.name(),
                        params.as_ref().map(|p| p.json(1)),
                    ),
                    &mut out,
                );
            }
            Step::Cancel { id } => {
                if let Some(id) = id.request_id() {
                    cancelled.insert(id);
                }
                line(
                    &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                        "params": {"requestId": id.json(), "reason": "fuzz"}}),
                    &mut out,
                );
            }
            Step::Raw(bytes) => {
                // Raw bytes may spell a request or a cancel of their own: no promise is
                // checked for a session that has them, beyond the shape of every line.
                unclear = true;
                out.extend(bytes.iter().filter(|&&b| b != b'\n'));
                out.push(b'\n');
            }
            Step::Cut {
                id,
                tool,
                args,
                cut,
            } => {
                count(id);
                let text = call(id, tool, args).to_string();
                let cut = usize::from(*cut).min(text.len());
                out.extend_from_slice(&text.as_bytes()[..cut]);
                out.push(b'\n');
                if cut == text.len()
                    && cut <= MAX_LINE_BYTES
                    && let Some(id) = id.request_id()
                {
                    owed.insert(id);
                }
            }
        }
    }
    if !session.handshake || unclear {
        return (out, HashSet::new());
    }
    owed.retain(|id| sent.get(id) == Some(&1) && !cancelled.contains(id) && id != "\"handshake\"");
    (out, owed)
}

/// The server's output, kept in memory.
#[derive(Clone, Default)]
struct Sink(Arc<Mutex<Vec<u8>>>);

impl tokio::io::AsyncWrite for Sink {
    fn poll_write(
        self: Pin<&mut Self>,
        _: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .extend_from_slice(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

struct World {
    runtime: tokio::runtime::Runtime,
    server: MinneServer,
    runs: u32,
    stores: u32,
}

fn data_dir(stores: u32) -> PathBuf {
    std::env::temp_dir().join(format!("minne-fuzz-mcp-{}-{stores}", std::process::id()))
}

fn open_server(stores: u32) -> MinneServer {
    let dir = data_dir(stores);
    let _ = std::fs::remove_dir_all(&dir);
    let open = move || -> anyhow::Result<Engine> {
        Ok(Engine::open_with(
            &dir,
            &ContextName::new("personal")?,
            &KeyConfig::unencrypted(),
            Arc::new(HashEmbedder::new(32)),
            Arc::new(SystemClock),
        )?)
    };
    let engine = match open() {
        Ok(engine) => engine,
        Err(e) => panic!("the fuzz store does not open: {e:#}"),
    };
    MinneServer::new(engine, Box::new(open))
}

fn world() -> &'static Mutex<World> {
    static WORLD: OnceLock<Mutex<World>> = OnceLock::new();
    WORLD.get_or_init(|| {
        let runtime = match tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(e) => panic!("no tokio runtime: {e}"),
        };
        Mutex::new(World {
            runtime,
            server: open_server(0),
            runs: 0,
            stores: 0,
        })
    })
}

fuzz_target!(|session: Session| {
    let (input, owed) = render(&session);
    let mut world = world().lock().unwrap_or_else(|p| p.into_inner());
    world.runs += 1;
    if world.runs % RUNS_PER_STORE == 0 {
        let _ = std::fs::remove_dir_all(data_dir(world.stores));
        world.stores += 1;
        world.server = open_server(world.stores);
    }
    let sink = Sink::default();
    let transport = Lines::over(Cursor::new(input), sink.clone());
    let server = world.server.clone();
    // Without a handshake the server stops at once, as it should: that is an error here.
    let _ = world.runtime.block_on(server.serve_lines(transport));
    drop(world);

    let written = sink.0.lock().unwrap_or_else(|p| p.into_inner()).clone();
    let mut answered = HashSet::new();
    for line in written.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let value: Value = match serde_json::from_slice(line) {
            Ok(value) => value,
            Err(e) => panic!(
                "a line on stdout is not JSON ({e}): {}",
                String::from_utf8_lossy(line)
            ),
        };
        assert_eq!(
            value["jsonrpc"], "2.0",
            "every line is JSON-RPC 2.0: {value}"
        );
        if value.get("error").is_some() {
            assert!(
                value.get("id").is_some(),
                "an error carries an id member: {value}"
            );
        }
        if value.get("result").is_some() || value.get("error").is_some() {
            match &value["id"] {
                Value::Number(n) => answered.insert(n.to_string()),
                Value::String(s) => answered.insert(format!("{s:?}")),
                _ => false,
            };
        }
    }
    for id in &owed {
        assert!(
            answered.contains(id),
            "request {id} got no answer; the server wrote:\n{}",
            String::from_utf8_lossy(&written)
        );
    }
});
