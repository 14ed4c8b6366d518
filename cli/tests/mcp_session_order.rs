//! `minne mcp` findings of a fresh-user tester, on the real binary, a real SQLite file and the
//! real embedding model: pipelined requests take effect in the order sent, a key rotated
//! under a running server does not break it, a `forget` session means the conversation
//! `remember` stored, and a huge `last` is a clear error, not a panic.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod mcp_support;

use std::path::Path;

use assert_cmd::Command;
use mcp_support::McpServer;
use serde_json::{Value, json};

const CODENAME: &str = "We decided that the project codename is Zulufrost.";
const BILLING: &str = "We decided to move billing to Postgres next quarter.";

fn minne(data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("minne").unwrap();
    cmd.env("MINNE_DATA_DIR", data)
        .env_remove("MINNE_CONTEXT")
        .env_remove("MINNE_CONFIG_DIR")
        .env_remove("MINNE_PASSPHRASE");
    cmd
}

fn call(id: u64, tool: &str, arguments: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}})
}

/// Writes all `calls` in one go (a pipelining client), closes stdin and returns the answers
/// in the order the server wrote them.
fn pipelined(data: &Path, calls: &[Value]) -> Vec<Value> {
    let mut lines = vec![
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "minne-test", "version": "0"}}}),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    ];
    lines.extend(calls.iter().cloned());
    let input: String = lines.iter().map(|l| format!("{l}\n")).collect();
    let output = minne(data)
        .arg("mcp")
        .write_stdin(input)
        .timeout(std::time::Duration::from_secs(300))
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    String::from_utf8(output.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// Before the fix rmcp ran every request on its own task, and they raced for the engine: a
/// `forget {"last": "1h"}` written right after a `remember` answered first in 5 of 6 runs
/// and the memory survived, and a `recall` right after `remember` found nothing. Requests of
/// one session now run one at a time in the order sent, so each sees every earlier one.
#[test]
fn pipelined_requests_take_effect_in_the_order_sent() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let replies = pipelined(
        &data,
        &[
            call(1, "remember", json!({"text": CODENAME})),
            call(
                2,
                "recall",
                json!({"query": "What is the project codename?"}),
            ),
            call(3, "forget", json!({"last": "1h", "confirm": true})),
            call(4, "list", json!({})),
            call(5, "remember", json!({"text": BILLING})),
            call(6, "list", json!({})),
        ],
    );
    let ids: Vec<u64> = replies.iter().filter_map(|r| r["id"].as_u64()).collect();
    assert_eq!(ids, [0, 1, 2, 3, 4, 5, 6], "answers in the order sent");
    let result = |id: usize| replies[id]["result"]["structuredContent"].clone();
    for (id, reply) in replies.iter().enumerate().skip(1) {
        assert_ne!(reply["result"]["isError"], true, "call {id}: {reply:#}");
    }
    assert!(
        !result(1)["episodes"].as_array().unwrap().is_empty(),
        "a decision is worth an episode: {:#}",
        result(1)
    );
    // The recall sent right after the remember sees it.
    let recalled = result(2)["hits"].to_string();
    assert!(recalled.contains("Zulufrost"), "{:#}", result(2));
    // The forget sent after the remember removes it: every episode `remember` stored.
    let stored = result(1)["episodes"].as_array().unwrap().len() as u64;
    assert_eq!(result(3)["receipt"]["episodes"], stored, "{:#}", result(3));
    assert_eq!(
        result(4)["memories"],
        json!([]),
        "nothing survives the forget"
    );
    // And a remember after the forget is kept: the forget did not run after it.
    let kept = result(6)["memories"].to_string();
    assert!(
        kept.contains("Postgres") && !kept.contains("Zulufrost"),
        "{kept}"
    );
}

/// Before the fix a running server answered every call "database error: file is not a
/// database" after `minne key rotate`, until restarted: its connection still held the old
/// key. It now reopens the context with the current key once and retries.
#[test]
fn a_key_rotated_under_a_running_server_is_picked_up() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut server, _) = McpServer::start(&data, &[]);
    server.call_ok("remember", json!({"text": CODENAME}));

    let rotated = minne(&data).args(["key", "rotate"]).output().unwrap();
    assert!(rotated.status.success(), "{rotated:?}");

    // The memory stored under the old key is listed and recalled under the new one, and a
    // new one is stored under it.
    let listed = server.call_ok("list", json!({}))["memories"].to_string();
    assert!(
        listed.contains("Zulufrost"),
        "{listed}\n{}",
        server.stderr()
    );
    let recalled = server.call_ok("recall", json!({"query": "What is the project codename?"}));
    assert!(
        recalled["hits"].to_string().contains("Zulufrost"),
        "{recalled:#}"
    );
    server.call_ok("remember", json!({"text": BILLING}));
    assert!(server.stderr().contains("reopening"), "{}", server.stderr());
    assert!(server.close().success());
    let said = String::from_utf8(rotated.stderr).unwrap();
    assert!(
        said.contains("minne mcp") && said.contains("reopens"),
        "rotate tells what happens to running servers: {said}"
    );

    // A fresh command opens the rotated store and sees both.
    let list = minne(&data).args(["list", "--json"]).output().unwrap();
    let list = String::from_utf8(list.stdout).unwrap();
    assert!(
        list.contains("Zulufrost") && list.contains("Postgres"),
        "{list}"
    );
}

/// Before the fix `remember {"session": "transcript:s-1"}` stored under
/// `mcp:transcript:s-1`, but `forget {"session": "transcript:s-1"}` resolved the key as given
/// first and previewed (and would forget) the imported conversation. The session argument
/// now resolves the way `remember` stores it, and the reply names the key it used.
#[test]
fn a_forget_session_means_the_conversation_remember_stored() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("chat.json");
    std::fs::write(
        &file,
        json!({"sessions": [{"id": "s-1", "messages": [{"role": "user",
            "text": "I decided to adopt a greyhound called Pixel.",
            "timestamp": "2026-03-02T09:15:00+01:00"}]}]})
        .to_string(),
    )
    .unwrap();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&file)
        .assert()
        .success();

    let (mut server, _) = McpServer::start(&data, &[]);
    let stored = server.call_ok(
        "remember",
        json!({"text": CODENAME, "session": "transcript:s-1"}),
    );
    assert_eq!(stored["session"], "mcp:transcript:s-1", "{stored:#}");

    let preview = server.call_ok("forget", json!({"session": "transcript:s-1"}));
    let words = preview["episodes"].to_string();
    assert!(
        words.contains("Zulufrost") && !words.contains("Pixel"),
        "the MCP conversation, not the imported one: {preview:#}"
    );
    assert_eq!(preview["session"], "mcp:transcript:s-1", "{preview:#}");
    let done = server.call_ok(
        "forget",
        json!({"session": "transcript:s-1", "confirm": true}),
    );
    assert_eq!(done["session"], "mcp:transcript:s-1", "{done:#}");
    let left = server.call_ok("list", json!({}))["memories"].to_string();
    assert!(
        left.contains("Pixel") && !left.contains("Zulufrost"),
        "{left}"
    );

    // The imported conversation is still reachable by its own key once no MCP conversation
    // has that id.
    let imported = server.call_ok("forget", json!({"session": "transcript:s-1"}));
    assert_eq!(imported["session"], "transcript:s-1", "{imported:#}");
    assert!(
        imported["episodes"].to_string().contains("Pixel"),
        "{imported:#}"
    );
    assert!(server.close().success());
}

/// Before the fix `forget {"last": "99999999999999d"}` answered "task 10 panicked with
/// message TimeDelta::days out of bounds". A window past the most (36,525 days) is a tool
/// error that says so, nothing is removed, and the server keeps serving.
#[test]
fn a_huge_forget_window_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let (mut server, _) = McpServer::start(&data, &[]);
    server.call_ok("remember", json!({"text": CODENAME}));
    for last in ["99999999999999d", "99999999999999999999w", "36526d"] {
        let error = server.call_err("forget", json!({"last": last, "confirm": true}));
        assert!(
            error.contains("too long") && error.contains("36525d") && !error.contains("panick"),
            "{last}: {error}"
        );
    }
    // The longest window allowed works and previews the memory.
    let preview = server.call_ok("forget", json!({"last": "36525d"}));
    assert_eq!(preview["needs_confirmation"], true, "{preview:#}");
    let kept = server.call_ok("list", json!({}))["memories"].to_string();
    assert!(kept.contains("Zulufrost"), "nothing was removed: {kept}");
    assert!(server.close().success());
}
