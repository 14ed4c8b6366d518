//! Several processes write one context at once: with the busy timeout and IMMEDIATE write
//! transactions, every write lands and nothing is lost. Here two CLI imports and the MCP
//! server write; the desktop app as the third writer beside a CLI import and the MCP server
//! is tested in its real window in src-tauri/tests/e2e.rs
//! (`the_app_a_cli_and_the_mcp_server_write_one_context_at_once`).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::path::Path;
use std::process::Stdio;

use assert_cmd::cargo::CommandCargoExt;
use mcp_support::McpServer;

mod mcp_support;

/// Message `i` of `writer`: its role and words.
fn note(writer: usize, i: usize) -> (&'static str, String) {
    (
        if i.is_multiple_of(2) {
            "user"
        } else {
            "assistant"
        },
        format!(
            "Writer {writer} note {i}: the shipment of item {} arrives on dock {}.",
            writer * 1000 + i,
            i % 7
        ),
    )
}

fn transcript(writer: usize, messages: usize) -> String {
    let messages: Vec<_> = (0..messages)
        .map(|i| {
            serde_json::json!({
                "role": note(writer, i).0,
                "text": note(writer, i).1,
                "timestamp": format!("2026-03-0{}T10:{:02}:00Z", writer + 1, i),
            })
        })
        .collect();
    serde_json::json!({"sessions": [{"id": format!("writer-{writer}"), "messages": messages}]})
        .to_string()
}

/// The context's database, opened with its key as the CLI stored it (keys beside the data
/// dir: `<data dir>.keys`, see minne::keys).
fn open_db(db: &Path) -> rusqlite::Connection {
    minne::keys::open_connection(db, &minne::keys::KeyConfig::default()).unwrap()
}

#[test]
fn three_writer_processes_lose_no_write() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let per_writer = 40;
    // Writer 2 is an assistant talking to `minne mcp`, one `remember` per message, while
    // writers 0 and 1 import files through the CLI.
    let mcp_writer = {
        let data = data.clone();
        std::thread::spawn(move || {
            let (mut server, _) = McpServer::start(&data, &[]);
            for i in 0..per_writer {
                let (role, text) = note(2, i);
                server.call_ok(
                    "remember",
                    serde_json::json!({"text": text, "role": role, "session": "writer-2"}),
                );
            }
            assert!(server.close().success(), "the MCP writer ends cleanly");
        })
    };
    let children: Vec<_> = (0..2)
        .map(|w| {
            let file = dir.path().join(format!("w{w}.json"));
            std::fs::write(&file, transcript(w, per_writer)).unwrap();
            std::process::Command::cargo_bin("minne")
                .unwrap()
                .env("MINNE_DATA_DIR", &data)
                .args(["import", "--format", "transcript"])
                .arg(&file)
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "every writer succeeds: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    mcp_writer.join().expect("every MCP remember succeeds");
    let conn = open_db(&data.join("personal.sqlite"));
    let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(
        count("SELECT count(*) FROM messages"),
        3 * per_writer as i64,
        "no acknowledged write is lost"
    );
    assert_eq!(
        count("SELECT count(*) FROM messages WHERE captured_at IS NULL"),
        0,
        "and all were captured"
    );
    assert_eq!(
        count("SELECT count(*) FROM episodes"),
        count("SELECT count(*) FROM embeddings"),
        "each episode has exactly one vector, however the writers interleaved"
    );
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
}
