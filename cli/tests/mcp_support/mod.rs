//! A minimal MCP client for tests: spawns the real `minne mcp` binary and speaks JSON-RPC
//! over its stdin and stdout, one JSON message per line, as an assistant's client does.
#![allow(dead_code)] // each test file uses a part of it

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::time::Duration;

use assert_cmd::cargo::CommandCargoExt;
use serde_json::{Value, json};

/// How long a reply may take before the test gives up instead of hanging. A guard, not a
/// measure: the first recall loads the embedding model.
const REPLY_GUARD: Duration = Duration::from_secs(180);

/// A running `minne mcp` with its pipes.
pub struct McpServer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    next_id: u64,
    pub stderr_path: PathBuf,
}

impl McpServer {
    /// Starts `minne [extra args] mcp` on `data` and completes the initialize handshake.
    /// Returns the server and the `initialize` result.
    pub fn start(data: &Path, extra: &[&str]) -> (McpServer, Value) {
        let stderr_path = data.with_extension(format!("mcp-{}.stderr", std::process::id()));
        let stderr = std::fs::File::options()
            .create(true)
            .append(true)
            .open(&stderr_path)
            .unwrap();
        let mut child = Command::cargo_bin("minne")
            .unwrap()
            .env("MINNE_DATA_DIR", data)
            .env_remove("MINNE_CONTEXT")
            // The key goes to `<data dir>.keys`, as for every `minne` the tests run.
            .env_remove("MINNE_CONFIG_DIR")
            .env_remove("MINNE_PASSPHRASE")
            .args(extra)
            .arg("mcp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = McpServer {
            stdin: child.stdin.take(),
            child,
            lines,
            next_id: 1,
            stderr_path,
        };
        let init = server.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "minne-test", "version": "0"}
            }),
        );
        server.notify("notifications/initialized", json!({}));
        (server, init)
    }

    /// Writes one raw line to the server's stdin.
    pub fn send_raw(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line.as_bytes()).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line the server writes, as JSON (every stdout line must be JSON-RPC).
    pub fn next_message(&mut self) -> Value {
        let line = self
            .lines
            .recv_timeout(REPLY_GUARD)
            .unwrap_or_else(|e| panic!("no message ({e}); server stderr:\n{}", self.stderr()));
        serde_json::from_str(&line)
            .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line}"))
    }

    /// Writes raw bytes to the server's stdin, as they are.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    /// Sends a notification (no reply expected).
    pub fn notify(&mut self, method: &str, params: Value) {
        let msg = json!({"jsonrpc": "2.0", "method": method, "params": params});
        self.send_raw(&msg.to_string());
    }

    /// Sends a request and returns the whole JSON-RPC response to it (with `result` or
    /// `error`), skipping notifications the server sends meanwhile.
    pub fn request_raw(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        let msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        self.send_raw(&msg.to_string());
        self.reply_to(id, method)
    }

    /// Sends `message` (a JSON-RPC request, given whole, so it may lack `params`) under the
    /// next id and returns the whole response to it.
    pub fn request_message(&mut self, mut message: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        message["id"] = json!(id);
        let method = message["method"].as_str().unwrap_or("?").to_string();
        self.send_raw(&message.to_string());
        self.reply_to(id, &method)
    }

    /// The response with `id`, skipping notifications the server sends meanwhile.
    fn reply_to(&mut self, id: u64, method: &str) -> Value {
        loop {
            let line = self.lines.recv_timeout(REPLY_GUARD).unwrap_or_else(|e| {
                panic!(
                    "no reply to {method} ({e}); server stderr:\n{}",
                    self.stderr()
                )
            });
            // stdout is the protocol: every line must be a JSON-RPC message, never a log.
            let value: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("stdout carried a non-JSON line ({e}): {line}"));
            assert_eq!(
                value["jsonrpc"], "2.0",
                "every stdout line is JSON-RPC: {line}"
            );
            if value["id"] == json!(id) {
                return value;
            }
        }
    }

    /// Sends a request and returns its `result`, failing on a protocol error.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let reply = self.request_raw(method, params);
        assert!(
            reply.get("error").is_none(),
            "{method} must not be a protocol error: {reply:#}"
        );
        reply["result"].clone()
    }

    /// Calls a tool; returns its result (`content`, `structuredContent`, `isError`).
    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
    }

    /// Calls a tool that must succeed and returns its JSON reply.
    pub fn call_ok(&mut self, tool: &str, arguments: Value) -> Value {
        let result = self.call(tool, arguments.clone());
        assert_ne!(
            result["isError"],
            json!(true),
            "{tool} {arguments} must succeed: {result:#}"
        );
        match result.get("structuredContent") {
            Some(v) => v.clone(),
            None => json!(text_of(&result)),
        }
    }

    /// Calls a tool that must fail as a tool error (not a protocol error) and returns its
    /// message.
    pub fn call_err(&mut self, tool: &str, arguments: Value) -> String {
        let result = self.call(tool, arguments.clone());
        assert_eq!(
            result["isError"],
            json!(true),
            "{tool} {arguments} must be a tool error: {result:#}"
        );
        text_of(&result)
    }

    /// What the server wrote to stderr so far.
    pub fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr_path).unwrap_or_default()
    }

    /// Closes stdin, as a client does when it is done, and waits for the server to exit.
    pub fn close(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        for _ in 0..600 {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.child.kill().ok();
        panic!("the server did not exit within a minute of its stdin closing");
    }
}

impl Drop for McpServer {
    fn drop(&mut self) {
        // A failed assertion must not leave a server behind.
        if let Ok(None) = self.child.try_wait() {
            self.child.kill().ok();
            self.child.wait().ok();
        }
    }
}

/// The text of a tool result's content blocks, joined.
pub fn text_of(result: &Value) -> String {
    result["content"]
        .as_array()
        .map(|blocks| {
            blocks
                .iter()
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}
