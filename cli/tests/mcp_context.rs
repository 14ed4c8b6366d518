//! `minne mcp`'s `context` tool (a fresh-user finding: an assistant on MCP could not get the
//! session-start context at all), on the real binary, a real SQLite file and the real
//! embedding model: it gives exactly the block `minne context --session-start` prints, with
//! the same JSON as structured content, checks its budget, and obeys the context's mode as
//! `recall` does.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod mcp_support;

use std::path::Path;

use assert_cmd::Command;
use mcp_support::{McpServer, text_of};
use serde_json::{Value, json};

/// One past conversation: a procedure, the user's name, an item due on 5 March 2025 (past,
/// so overdue whenever this runs) and one due on 20 March 2099 (not overdue).
const TRANSCRIPT: &str = r#"{"sessions": [{"id": "first", "messages": [
  {"role": "user", "text": "Always answer briefly.", "timestamp": "2025-03-02T09:00:00+01:00"},
  {"role": "user", "text": "My name is Astrid Lund.", "timestamp": "2025-03-02T09:00:10+01:00"},
  {"role": "user", "text": "I'll send the report to Lena by 5 March.", "timestamp": "2025-03-02T09:00:20+01:00"},
  {"role": "user", "text": "I'll renew my passport by 20 March 2099.", "timestamp": "2025-03-02T09:00:30+01:00"}
]}]}"#;

fn minne(data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("minne").unwrap();
    cmd.env("MINNE_DATA_DIR", data)
        .env_remove("MINNE_CONTEXT")
        .env_remove("MINNE_CONFIG_DIR")
        .env_remove("MINNE_PASSPHRASE");
    cmd
}

/// `minne context --session-start [args]`'s stdout.
fn cli_block(data: &Path, args: &[&str]) -> String {
    let out = minne(data)
        .args(["context", "--session-start"])
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

fn imported(dir: &Path) -> std::path::PathBuf {
    let data = dir.join("data");
    let file = dir.join("chat.json");
    std::fs::write(&file, TRANSCRIPT).unwrap();
    minne(&data).arg("import").arg(&file).assert().success();
    data
}

#[test]
fn context_gives_the_cli_block_and_its_json() {
    let dir = tempfile::tempdir().unwrap();
    let data = imported(dir.path());
    let (mut server, init) = McpServer::start(&data, &[]);
    assert!(
        init["instructions"]
            .as_str()
            .unwrap()
            .contains("Call `context` once at the start of each conversation"),
        "the server tells the assistant to get the context first: {init:#}"
    );
    let tools = server.request("tools/list", json!({}))["tools"]
        .as_array()
        .unwrap()
        .clone();
    let tool = tools.iter().find(|t| t["name"] == "context").unwrap();
    let schema = &tool["inputSchema"];
    assert_eq!(schema["properties"]["budget"]["minimum"], 50, "{tool:#}");
    assert_eq!(schema["properties"]["budget"]["maximum"], 10000, "{tool:#}");
    assert!(
        schema.get("required").is_none() || schema["required"] == json!([]),
        "the budget is optional: {tool:#}"
    );
    assert_eq!(tool["annotations"]["readOnlyHint"], true);
    assert!(
        tool["description"]
            .as_str()
            .unwrap()
            .starts_with("Call this once at the start of every conversation"),
        "{tool:#}"
    );

    // Default budget: the CLI's default (500) too, so the two print the same block.
    let result = server.call("context", json!({}));
    assert_ne!(result["isError"], json!(true), "{result:#}");
    let text = text_of(&result);
    assert_eq!(text, cli_block(&data, &[]), "the same block as the CLI");
    // Worked out by hand from the transcript: the procedure, then the name, then the open
    // items soonest due first, the 2025 one overdue, then the one session's summary.
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[..7],
        [
            "What you know about the user at the start of this session:",
            "How the user wants things done:",
            r#"- "Always answer briefly""#,
            "Profile, who the user is:",
            r#"- name: "Astrid Lund" (since 2025-03-02)"#,
            "Open items (not done yet, soonest due first):",
            r#"- "I'll send the report to Lena by 5 March [2025-03-05]." (due 2025-03-05 23:59, overdue)"#,
        ],
        "{text}"
    );
    assert_eq!(
        lines[7],
        r#"- "I'll renew my passport by 20 March 2099." (due 2099-03-20 23:59)"#
    );
    assert_eq!(lines[8], "Recent sessions (newest first):");
    assert_eq!(lines.len(), 10, "one summary line: {text}");
    let json = &result["structuredContent"];
    assert_eq!(json["budget_tokens"], 500);
    assert_eq!(json["context"], "personal");
    assert_eq!(json["text"], json!(text));
    let kinds: Vec<&str> = json["parts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["kind"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        ["procedures", "identity", "open_items", "recent_sessions"]
    );

    // A small budget: the same cut as the CLI's.
    let small = server.call_ok("context", json!({"budget": 60}));
    assert_eq!(small["text"], json!(cli_block(&data, &["--budget", "60"])));
    assert!(small["omitted"].as_u64().unwrap() > 0, "{small:#}");

    // Out of bounds or unknown: tool errors that say what to send; the server keeps serving.
    for bad in [json!({"budget": 10}), json!({"budget": 20000})] {
        let error = server.call_err("context", bad);
        assert!(error.contains("`budget` must be 50 to 10000"), "{error}");
    }
    let error = server.call_err("context", json!({"tokens": 100}));
    assert!(error.contains("tokens"), "{error}");
    assert_eq!(server.call_ok("context", json!({}))["budget_tokens"], 500);
    assert!(server.close().success());

    // `minne profile` marks the same item overdue, and only that one.
    let profile = minne(&data).arg("profile").output().unwrap();
    let profile = String::from_utf8(profile.stdout).unwrap();
    let marked: Vec<&str> = profile
        .lines()
        .filter(|l| l.contains("(overdue)"))
        .collect();
    assert_eq!(marked.len(), 1, "{profile}");
    assert!(
        marked[0].contains("due 2025-03-05 23:59 (overdue)"),
        "{profile}"
    );
}

#[test]
fn context_obeys_the_mode_as_recall_does() {
    let dir = tempfile::tempdir().unwrap();
    let data = imported(dir.path());
    // recall_only: recall works, so does the context.
    minne(&data)
        .args(["mode", "recall_only"])
        .assert()
        .success();
    let (mut server, _) = McpServer::start(&data, &[]);
    let reply: Value = server.call_ok("context", json!({}));
    assert!(
        reply["text"].as_str().unwrap().contains("Astrid Lund"),
        "{reply:#}"
    );
    assert!(server.close().success());
    // paused (incognito): recall is refused, and so is the context, saying how to resume.
    minne(&data).args(["mode", "paused"]).assert().success();
    let (mut server, _) = McpServer::start(&data, &[]);
    let refused = server.call_err("context", json!({}));
    assert!(
        refused.contains("paused") && refused.contains("minne mode remember"),
        "{refused}"
    );
    assert!(
        !refused.contains("Astrid"),
        "no memory's words while paused: {refused}"
    );
    assert!(server.close().success());
}
