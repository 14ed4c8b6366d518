//! `minne consolidate`'s text output says what the optional LLM did, errors included (issue
//! 5): before, only `--json` showed them, so a model that failed was silent in the terminal.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use assert_cmd::Command;

const TRANSCRIPT: &str = r#"{"sessions": [
  {"id": "s1", "messages": [
    {"role": "user", "text": "I live in Tartu and I use Notion every day.", "timestamp": "2026-03-02T09:15:00+01:00"},
    {"role": "assistant", "text": "Noted.", "timestamp": "2026-03-02T09:15:20+01:00"}
  ]}
]}"#;

/// The binary with an LLM configured at a port nothing listens on (TCP port 9, discard, is
/// closed on test machines: the connection is refused at once).
fn minne(data: &std::path::Path) -> Command {
    let mut cmd = Command::cargo_bin("minne").expect("the minne binary is built for its tests");
    cmd.env("MINNE_DATA_DIR", data)
        .env_remove("MINNE_CONTEXT")
        .env("MINNE_LLM_URL", "http://127.0.0.1:9/v1")
        .env("MINNE_LLM_MODEL", "unreachable-test-model")
        .env_remove("MINNE_LLM_API_KEY");
    cmd
}

#[test]
fn consolidate_text_output_lists_llm_errors() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("chat.json");
    std::fs::write(&file, TRANSCRIPT).unwrap();
    // The import consolidates: the model is asked, fails, and the rules stand in.
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&file)
        .assert()
        .success();
    let out = minne(&data).arg("consolidate").assert().success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    // Nothing is left to read, so the run asks nothing; the text shows the last run that did.
    assert!(
        text.contains("llm llm:unreachable-test-model:"),
        "the model's line is shown: {text}"
    );
    assert!(
        text.contains("llm errors (") && text.contains("  - "),
        "each error the rules stood in for is listed: {text}"
    );
    assert!(!text.contains("llm errors: none"), "{text}");
}
