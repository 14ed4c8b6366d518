//! The real-failure scenarios (shared/cases, issue 7): the runner replays every case with the
//! real model and writes observed.json; `evaluate.py` judges it. This test asserts that the
//! runner's output is well formed and accounts for every check, and that the evaluator, in
//! strict mode, finds every check PASS.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::process::Command;

use minne::scenario::{self, RunOptions};
use serde_json::Value;

fn cases_file() -> Option<PathBuf> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/cases/cases.json");
    if path.exists() {
        Some(path)
    } else {
        eprintln!(
            "skipped: {} is absent (the shared folder sits beside the clone)",
            path.display()
        );
        None
    }
}

#[test]
fn scenario_runner_observes_every_case_in_the_readme_shapes() {
    let Some(path) = cases_file() else { return };
    let file = scenario::load(&path).expect("the shared cases file must load");
    let scratch = tempfile::tempdir().unwrap();
    let options = RunOptions {
        only: None,
        scratch_dir: scratch.path().join("cases"),
        keep_data: false,
    };
    let report = scenario::run(&file, common::real_embedder(), &options, &mut |case| {
        eprintln!(
            "{}: {} observed, {} left out",
            case.id,
            case.observed.len(),
            case.left_out.len()
        );
        for left in &case.left_out {
            eprintln!("    left out {}: {}", left.check, left.reason);
        }
    })
    .expect("the runner must run the shared cases");

    let out = scratch.path().join("observed.json");
    std::fs::write(
        &out,
        serde_json::to_string_pretty(&report.observed).unwrap(),
    )
    .unwrap();
    let observed: serde_json::Map<String, Value> =
        serde_json::from_str(&std::fs::read_to_string(&out).unwrap())
            .expect("observed.json is a JSON object");

    // Every check is accounted for exactly once: observed, or left out with a reason.
    let checks: HashMap<&str, (&scenario::cases::Check, &scenario::cases::Case)> = file
        .cases
        .iter()
        .flat_map(|c| c.checks.iter().map(move |k| (k.id.as_str(), (k, c))))
        .collect();
    let left_out: HashSet<&str> = report
        .cases
        .iter()
        .flat_map(|c| c.left_out.iter().map(|l| l.check.as_str()))
        .collect();
    for id in checks.keys() {
        assert!(
            observed.contains_key(*id) != left_out.contains(id),
            "check {id} must be either observed or left out with a reason, not both or neither"
        );
    }
    assert!(
        report
            .cases
            .iter()
            .all(|c| c.left_out.iter().all(|l| !l.reason.is_empty())),
        "a left-out check says why"
    );

    for (id, obs) in &observed {
        let Some((check, case)) = checks.get(id.as_str()) else {
            panic!("observed.json key {id} is not a check id of the cases file");
        };
        let messages: HashSet<&str> = case.conversation.iter().map(|m| m.id.as_str()).collect();
        let bulk = case.actions.iter().any(|a| a.kind == "bulk_generate");
        match check.kind.as_str() {
            "recall" => {
                let items = items_of(id, obs);
                let k = check.k.unwrap_or(scenario::runner::DEFAULT_CHECK_K);
                assert!(
                    items.len() <= k,
                    "{id}: recall returned {} items for k = {k}",
                    items.len()
                );
                let latencies = obs["latencies_ms"]
                    .as_array()
                    .unwrap_or_else(|| panic!("{id}: latencies_ms is a list"));
                assert_eq!(
                    latencies.len(),
                    check.repeat.unwrap_or(1),
                    "{id}: one latency per run of the recall"
                );
                assert!(
                    latencies
                        .iter()
                        .all(|l| l.as_f64().is_some_and(|l| l >= 0.0)),
                    "{id}: latencies are ms"
                );
                for item in items {
                    item_shape(id, item, &messages, bulk);
                }
            }
            "inspect" => {
                let items = items_of(id, obs);
                let total = obs["total_count"]
                    .as_u64()
                    .unwrap_or_else(|| panic!("{id}: total_count is a count"));
                assert!(
                    items.len() as u64 <= total,
                    "{id}: a listing holds at most total_count items"
                );
                if let Some(page) = &check.page {
                    assert!(
                        items.len() <= page.page_size,
                        "{id}: one page holds at most page_size items"
                    );
                }
                if let Some(cursor) = obs.get("next_cursor") {
                    assert!(
                        cursor.as_str().is_some_and(|c| !c.is_empty()),
                        "{id}: a cursor is a non-empty string"
                    );
                }
                for item in items {
                    item_shape(id, item, &messages, bulk);
                }
            }
            "raw_store_scan" => {
                let stores = obs["stores"]
                    .as_object()
                    .unwrap_or_else(|| panic!("{id}: stores is an object"));
                let asked: HashSet<&str> = check.stores.iter().map(String::as_str).collect();
                let got: HashSet<&str> = stores.keys().map(String::as_str).collect();
                assert_eq!(got, asked, "{id}: one dump per store the check lists");
                assert!(
                    stores.values().all(Value::is_string),
                    "{id}: each dump is text"
                );
                assert!(
                    stores
                        .values()
                        .any(|d| d.as_str().is_some_and(|d| !d.is_empty())),
                    "{id}: the files were read"
                );
            }
            "capture_ack" => {
                assert!(
                    obs["stored_items"].is_u64(),
                    "{id}: stored_items is a count"
                );
            }
            "list_time_range" => {
                // One item per message of the window, each citing that message.
                for item in items_of(id, obs) {
                    item_shape(id, item, &messages, bulk);
                    assert_eq!(
                        item["source_message_ids"].as_array().map(Vec::len),
                        Some(1),
                        "{id}: a time-range item is one message"
                    );
                }
            }
            "export" => {
                assert!(
                    obs["inspect_count"].is_u64(),
                    "{id}: inspect_count is a count"
                );
                for item in items_of(id, obs) {
                    item_shape(id, item, &messages, bulk);
                }
            }
            other => panic!("{id}: the runner observed a `{other}` check it has no shape for"),
        }
    }

    evaluate(&path, &out);
}

fn items_of<'a>(id: &str, obs: &'a Value) -> &'a Vec<Value> {
    obs["items"]
        .as_array()
        .unwrap_or_else(|| panic!("{id}: items is a list"))
}

fn item_shape(id: &str, item: &Value, messages: &HashSet<&str>, bulk: bool) {
    assert!(
        item["text"].as_str().is_some_and(|t| !t.is_empty()),
        "{id}: an item has its words: {item}"
    );
    assert!(
        matches!(item["status"].as_str(), Some("active" | "superseded")),
        "{id}: status is active|superseded"
    );
    assert!(
        item["context"].as_str().is_some_and(|c| !c.is_empty()),
        "{id}: an item names its context"
    );
    let cited = item["source_message_ids"]
        .as_array()
        .unwrap_or_else(|| panic!("{id}: source_message_ids is a list"));
    assert!(
        !cited.is_empty(),
        "{id}: every item points at the words it came from: {item}"
    );
    for m in cited {
        let m = m.as_str().unwrap_or_default();
        assert!(
            messages.contains(m) || bulk,
            "{id}: provenance must map back to the case's message ids, got `{m}`"
        );
    }
    if let Some(at) = item.get("occurred_at") {
        let at = at.as_str().unwrap_or_default();
        assert!(
            chrono::DateTime::parse_from_rfc3339(at).is_ok(),
            "{id}: occurred_at is ISO 8601 with an offset: {at}"
        );
    }
}

/// Runs the reference evaluator in strict mode, prints its verdicts and counts, and fails on
/// any FAIL or MISSING (issue 7: "CI runs the suite and fails on any FAIL or MISSING").
fn evaluate(cases: &std::path::Path, observed: &std::path::Path) {
    let script = cases.with_file_name("evaluate.py");
    let run = Command::new("python3")
        .arg(&script)
        .arg(cases)
        .arg(observed)
        .arg("--strict")
        .output();
    let Ok(run) = run else {
        eprintln!("skipped the evaluation: python3 is not available");
        return;
    };
    let text = String::from_utf8_lossy(&run.stdout);
    println!("{text}");
    eprintln!("{}", String::from_utf8_lossy(&run.stderr));
    let summary = text
        .lines()
        .rev()
        .find(|l| l.contains("passed,"))
        .unwrap_or_default();
    assert!(
        summary.contains("failed") && summary.contains("missing"),
        "evaluate.py must read observed.json and print its counts; stdout: {text}"
    );
    println!("scenario verdicts: {summary}");
    assert!(
        run.status.success(),
        "every check of the shared cases must PASS (none FAIL or MISSING): {summary}\n{text}"
    );
}
