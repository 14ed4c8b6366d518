//! Hostile MCP traffic (issue 30) against the real `minne mcp`: an over-long line is read
//! past and answered, a request whose id is no JSON-RPC id gets an error instead of silence,
//! `session` reaches an imported conversation by its own id, and a paused context names no
//! stored session in an error.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod mcp_support;

use assert_cmd::Command;
use mcp_support::McpServer;
use serde_json::json;

const PLANS: &str = r#"{"sessions": [
  {"id": "secret-plans", "messages": [
    {"role": "user", "text": "We decided to move to Lisbon next spring.", "timestamp": "2026-03-02T09:20:00+01:00"}
  ]},
  {"id": "1", "messages": [
    {"role": "user", "text": "I decided to learn the cello this autumn.", "timestamp": "2026-03-03T09:20:00+01:00"}
  ]}
]}"#;

fn minne(data: &std::path::Path) -> Command {
    let mut cmd = Command::cargo_bin("minne").unwrap();
    cmd.env("MINNE_DATA_DIR", data)
        .env("MINNE_MODEL", "all-minilm-l6-v2")
        .env_remove("MINNE_CONTEXT")
        .env_remove("MINNE_PASSPHRASE")
        .env_remove("MINNE_CONFIG_DIR");
    cmd
}

#[test]
fn finding_7_a_request_line_past_the_limit_is_read_past_and_answered() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, _) = McpServer::start(&dir.path().join("data"), &[]);
    // 17 MiB of one JSON string, past the 16 MiB a line may hold, then a normal request: the
    // long line gets its error (no id: it was never read), and the server goes on.
    let mut long = br#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"remember","arguments":{"text":""#.to_vec();
    long.extend(std::iter::repeat_n(b'x', 17 * 1024 * 1024));
    long.extend(b"\"}}}\n");
    server.send_bytes(&long);
    let error = server.next_message();
    assert_eq!(error["error"]["code"], -32600, "{error}");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("16 MiB"),
        "the error names the limit: {message}"
    );
    // JSON-RPC 2.0, section 5: an id that could not be read is answered as null, not guessed.
    assert_eq!(
        error.get("id"),
        Some(&serde_json::Value::Null),
        "an unread id is not answered with a guess: {error}"
    );
    let status = server.call_ok("status", json!({}));
    assert_eq!(
        status["episodes"], 0,
        "the long line stored nothing: {status}"
    );
    assert!(server.close().success());
}

#[test]
fn finding_8_a_request_with_a_null_or_object_id_gets_an_error_reply() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, _) = McpServer::start(&dir.path().join("data"), &[]);
    for id in ["null", r#"{"a": 1}"#, "[1]", "true", "1.5"] {
        server.send_raw(&format!(
            r#"{{"jsonrpc": "2.0", "id": {id}, "method": "tools/list"}}"#
        ));
        let reply = server.next_message();
        assert_eq!(reply["error"]["code"], -32600, "id {id}: {reply}");
        assert!(
            reply["error"]["message"]
                .as_str()
                .unwrap()
                .contains("string or an integer"),
            "{reply}"
        );
    }
    // The server still answers a good request.
    server.request("tools/list", json!({}));
    assert!(server.close().success());
}

#[test]
fn finding_8_forget_session_reaches_an_imported_conversation_and_a_paused_one_names_none() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("plans.json");
    std::fs::write(&file, PLANS).unwrap();
    minne(&data).arg("import").arg(&file).assert().success();
    let (mut server, _) = McpServer::start(&data, &[]);
    // `1` is the imported conversation's own id (its key is `transcript:1`), as the CLI's
    // `forget --session 1` reads it.
    let preview = server.call_ok("forget", json!({"session": "1"}));
    assert_eq!(preview["session"], "transcript:1", "{preview:#}");
    assert_eq!(preview["preview"]["messages"], 1, "{preview:#}");
    let unknown = server.call_err("forget", json!({"session": "plans"}));
    assert!(
        unknown.contains("secret-plans"),
        "remembering, the error suggests the key that holds the word: {unknown}"
    );
    assert!(server.close().success());

    minne(&data).args(["mode", "paused"]).assert().success();
    let (mut paused, _) = McpServer::start(&data, &[]);
    let unknown = paused.call_err("forget", json!({"session": "plans"}));
    assert!(unknown.contains("paused"), "{unknown}");
    assert!(
        !unknown.contains("secret-plans") && !unknown.contains("transcript:"),
        "paused: no stored session key reaches the assistant: {unknown}"
    );
    assert!(paused.close().success());
}
