//! `minne scenario run` on a small cases file: what it observes, what it leaves out (and so
//! becomes MISSING), and how it refuses a broken file.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

const CASES: &str = r#"{"schema_version": 1, "conventions": {}, "cases": [{
  "id": "T-1", "setup": {"contexts": ["personal", "work"]},
  "conversation": [
    {"id": "m1", "role": "user", "text": "The code for the bike room is 4471#.", "timestamp": "2025-05-05T17:20:00+02:00", "context": "personal", "conversation_id": "c1"},
    {"id": "m2", "role": "user", "text": "I always take my coffee black, no sugar.", "timestamp": "2025-05-05T17:21:00+02:00", "context": "personal", "conversation_id": "c1"},
    {"id": "m3", "role": "user", "text": "Sprint review is on Thursday at 14:00.", "timestamp": "2025-05-05T17:22:00+02:00", "context": "work", "conversation_id": "c2"}
  ],
  "actions": [
    {"type": "delete_memory", "at": "2025-05-06T09:00:00+02:00", "args": {"match": "4471"}},
    {"type": "restart", "at": "2025-05-06T09:05:00+02:00"},
    {"type": "edit_memory", "at": "2025-05-08T03:00:00+02:00", "args": {"match": "coffee", "new_text": "tea"}}
  ],
  "checks": [
    {"id": "T-1.ack", "type": "capture_ack", "at": "2025-05-05T17:20:30+02:00", "message_id": "m1"},
    {"id": "T-1.recall", "type": "recall", "at": "2025-05-07T08:00:00+02:00", "context": "personal", "query": "How do I take my coffee?", "repeat": 3},
    {"id": "T-1.page", "type": "inspect", "at": "2025-05-07T08:00:00+02:00", "scope": "all", "page": {"page_size": 1}},
    {"id": "T-1.scan", "type": "raw_store_scan", "at": "2025-05-07T08:00:00+02:00", "stores": ["fact_store", "caches"]},
    {"id": "T-1.profile", "type": "inspect", "at": "2025-05-07T08:00:00+02:00", "scope": "entity:Jonas"},
    {"id": "T-1.tags", "type": "inspect", "at": "2025-05-07T08:00:00+02:00", "scope": "tag:health"},
    {"id": "T-1.after", "type": "recall", "at": "2025-05-09T08:00:00+02:00", "query": "coffee?"}
  ]}]}"#;

#[test]
fn scenario_run_observes_what_minne_can_and_leaves_out_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases.json");
    let out = dir.path().join("observed.json");
    std::fs::write(&cases, CASES).unwrap();
    Command::cargo_bin("minne")
        .unwrap()
        .args(["scenario", "run"])
        .arg(&cases)
        .arg("--out")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("left out T-1.tags"));
    let observed: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let keys: Vec<&str> = observed
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    assert_eq!(
        keys,
        [
            "T-1.ack",
            "T-1.after",
            "T-1.page",
            "T-1.profile",
            "T-1.recall",
            "T-1.scan"
        ],
        "Minne has no tags, so that listing is left out (MISSING); everything else is observed"
    );
    assert_eq!(
        observed["T-1.profile"]["items"].as_array().map(Vec::len),
        Some(0),
        "nobody named Jonas was mentioned"
    );
    let after = observed["T-1.after"]["items"].to_string();
    assert!(
        !after.contains("black"),
        "the edit replaced the words; the old ones never come back: {after}"
    );
    assert!(
        observed["T-1.ack"]["stored_items"]
            .as_u64()
            .is_some_and(|n| n >= 1),
        "m1 was captured"
    );
    assert_eq!(
        observed["T-1.recall"]["latencies_ms"]
            .as_array()
            .map(Vec::len),
        Some(3),
        "one latency per run"
    );
    let top = &observed["T-1.recall"]["items"][0];
    assert_eq!(
        top["source_message_ids"][0], "m2",
        "provenance is the case's message id: {top}"
    );
    let page = &observed["T-1.page"];
    assert_eq!(
        page["items"].as_array().map(Vec::len),
        Some(1),
        "one page of one item"
    );
    assert_eq!(
        page["total_count"], 2,
        "two episodes left across both contexts after the deletion"
    );
    assert_eq!(page["next_cursor"], "1", "the next page starts at offset 1");
    let scan = observed["T-1.scan"]["stores"].as_object().unwrap();
    assert!(
        scan["fact_store"].as_str().unwrap().contains("coffee"),
        "the scan reads the stored words"
    );
    assert!(
        !scan.values().any(|d| d.as_str().unwrap().contains("4471")),
        "the deleted memory left no bytes"
    );
}

#[test]
fn scenario_run_refuses_a_broken_cases_file_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let cases = dir.path().join("cases.json");
    std::fs::write(&cases, r#"{"cases": [{"id": "T-1", "setup": {}, "checks": [{"id": "T-1.c1", "type": "recall", "at": "2025-01-01T00:00:00Z"}]}]}"#).unwrap();
    Command::cargo_bin("minne")
        .unwrap()
        .args(["scenario", "run"])
        .arg(&cases)
        .arg("--out")
        .arg(dir.path().join("observed.json"))
        .assert()
        .failure()
        .stderr(predicate::str::contains("T-1.c1").and(predicate::str::contains("needs `query`")));
    assert!(
        !dir.path().join("observed.json").exists(),
        "nothing is written for a broken file"
    );
}
