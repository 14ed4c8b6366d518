//! Crash safety of capture: `minne import` killed with SIGKILL in the middle of its capture
//! job, then `minne capture` run again, must end with exactly the episodes and embeddings a
//! clean import gives: none lost, none twice.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use assert_cmd::Command;
use assert_cmd::cargo::CommandCargoExt;

fn locomo() -> Option<PathBuf> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data/locomo/locomo-dev.json");
    if path.exists() {
        Some(path)
    } else {
        eprintln!("skipped: {} is absent", path.display());
        None
    }
}

fn import_args(file: &Path) -> Vec<String> {
    ["import", "--format", "locomo", "--sample", "conv-26"]
        .iter()
        .map(|s| s.to_string())
        .chain([file.display().to_string()])
        .collect()
}

/// The context's database, opened with its key as the CLI stored it (keys beside the data
/// dir: `<data dir>.keys`, see minne::keys).
fn open_db(db: &Path) -> rusqlite::Connection {
    minne::keys::open_connection(db, &minne::keys::KeyConfig::default()).unwrap()
}

/// Every episode as (message external id, span, kind), sorted, and the embedding count.
fn snapshot(db: &Path) -> (Vec<(String, i64, i64, String)>, i64) {
    let conn = open_db(db);
    let mut stmt = conn
        .prepare(
            "SELECT m.external_id, e.span_start, e.span_end, e.kind FROM episodes e
             JOIN messages m ON m.id = e.message_id ORDER BY 1, 2, 3",
        )
        .unwrap();
    let rows = stmt
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))
        .unwrap();
    let episodes = rows.collect::<Result<Vec<_>, _>>().unwrap();
    let embeddings = conn
        .query_row("SELECT count(*) FROM embeddings", [], |r| r.get(0))
        .unwrap();
    (episodes, embeddings)
}

fn job_running(db: &Path) -> bool {
    let Ok(conn) = minne::keys::open_connection(db, &Default::default()) else {
        return false;
    };
    conn.query_row(
        "SELECT count(*) FROM capture_jobs WHERE status = 'running'",
        [],
        |r| r.get::<_, i64>(0),
    )
    .is_ok_and(|n| n > 0)
}

#[test]
fn killed_capture_resumes_with_exactly_one_copy_of_each_episode() {
    let Some(file) = locomo() else { return };
    let dir = tempfile::tempdir().unwrap();

    let clean = dir.path().join("clean");
    Command::cargo_bin("minne")
        .unwrap()
        .env("MINNE_DATA_DIR", &clean)
        .args(import_args(&file))
        .assert()
        .success();
    let (want, want_embeddings) = snapshot(&clean.join("personal.sqlite"));
    assert!(
        want.len() >= 400,
        "conv-26 has 419 turns, each yields at least one episode"
    );
    assert_eq!(
        want_embeddings as usize,
        want.len(),
        "every episode has one vector"
    );

    let mut killed_mid_job = 0;
    for attempt in 0..4u64 {
        let data = dir.path().join(format!("crash-{attempt}"));
        let db = data.join("personal.sqlite");
        let mut child = std::process::Command::cargo_bin("minne")
            .unwrap()
            .env("MINNE_DATA_DIR", &data)
            .args(import_args(&file))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while !job_running(&db) && started.elapsed() < Duration::from_secs(120) {
            std::thread::sleep(Duration::from_millis(5));
        }
        // Vary where in the job the kill lands: right away, then later each attempt.
        std::thread::sleep(Duration::from_millis(150 * attempt));
        child.kill().unwrap(); // SIGKILL: no destructors, no end-of-session hook
        let finished_anyway = child.wait().unwrap().success();
        if finished_anyway {
            continue;
        }
        let (partial, _) = snapshot(&db);
        if partial.len() < want.len() || job_running(&db) {
            killed_mid_job += 1;
        }
        if job_running(&db) {
            // Recorded `running`, but its process is gone: the status says so.
            let out = Command::cargo_bin("minne")
                .unwrap()
                .env("MINNE_DATA_DIR", &data)
                .args(["status", "--json"])
                .assert()
                .success()
                .get_output()
                .stdout
                .clone();
            let status: serde_json::Value = serde_json::from_slice(&out).unwrap();
            assert_eq!(
                status["recent_jobs"][0]["status"], "interrupted",
                "a killed job is shown interrupted, not running: {status:#}"
            );
        }
        Command::cargo_bin("minne")
            .unwrap()
            .env("MINNE_DATA_DIR", &data)
            .arg("capture")
            .assert()
            .success();
        let (got, embeddings) = snapshot(&db);
        assert_eq!(
            got, want,
            "after resuming, the episodes are exactly those of a clean import"
        );
        assert_eq!(
            embeddings, want_embeddings,
            "and so are the embeddings: none missing, none twice"
        );
        let conn = open_db(&db);
        let integrity: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(integrity, "ok");
        let open: i64 = conn
            .query_row(
                "SELECT count(*) FROM capture_jobs WHERE status IN ('queued', 'running')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(open, 0, "the interrupted job was resumed and finished");
    }
    assert!(
        killed_mid_job > 0,
        "at least one kill must land inside the capture job for this test to mean anything"
    );
}

fn small_transcript(n: usize) -> String {
    let messages: Vec<_> = (0..30)
        .map(|i| {
            serde_json::json!({
                "role": if i % 3 == 2 { "assistant" } else { "user" },
                "text": format!("Run {n} message {i}: I'll bring {} chairs to the hall on Friday.", i + n),
                "timestamp": format!("2026-02-{:02}T{:02}:{:02}:00Z", 1 + n % 28, 8 + n % 10, i),
            })
        })
        .collect();
    serde_json::json!({"sessions": [{"id": format!("run-{n}"), "messages": messages}]}).to_string()
}

/// A tiny deterministic generator, so the kill points vary but a failure can be replayed.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

#[test]
fn import_killed_at_random_points_a_hundred_times_keeps_the_store_sound() {
    let runs: usize = std::env::var("MINNE_KILL_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let db = data.join("personal.sqlite");
    let mut seed = 0x5eed_u64;
    let mut acknowledged = 0i64;
    let mut files = Vec::new();
    for n in 0..runs {
        let file = dir.path().join(format!("run-{n}.json"));
        std::fs::write(&file, small_transcript(n)).unwrap();
        files.push(file.clone());
        let mut child = std::process::Command::cargo_bin("minne")
            .unwrap()
            .env("MINNE_DATA_DIR", &data)
            .args(["import", "--format", "transcript"])
            .arg(&file)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(next(&mut seed) % 900));
        let _ = child.kill();
        let _ = child.wait();
        let conn = open_db(&db);
        let integrity: String = conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .unwrap();
        assert_eq!(integrity, "ok", "run {n}: the store is sound after kill -9");
        let messages: i64 = conn
            .query_row("SELECT count(*) FROM messages", [], |r| r.get(0))
            .unwrap();
        assert!(
            messages >= acknowledged,
            "run {n}: a committed write was lost ({messages} < {acknowledged})"
        );
        assert_eq!(
            messages % 30,
            0,
            "run {n}: a file's messages are stored all together or not at all"
        );
        acknowledged = messages;
    }
    // Finish: re-import every file (those killed before storing) and let capture resume.
    for file in &files {
        Command::cargo_bin("minne")
            .unwrap()
            .env("MINNE_DATA_DIR", &data)
            .args(["import", "--format", "transcript"])
            .arg(file)
            .assert()
            .success();
    }
    let conn = open_db(&db);
    let count = |sql: &str| -> i64 { conn.query_row(sql, [], |r| r.get(0)).unwrap() };
    assert_eq!(
        count("SELECT count(*) FROM messages"),
        30 * runs as i64,
        "every message is there exactly once"
    );
    assert_eq!(
        count("SELECT count(*) FROM messages WHERE captured_at IS NULL"),
        0,
        "the unfinished captures resumed"
    );
    assert_eq!(
        count("SELECT count(*) FROM episodes"),
        count("SELECT count(*) FROM embeddings")
    );
    assert_eq!(
        count(
            "SELECT count(*) FROM (SELECT message_id, span_start FROM episodes GROUP BY 1, 2 HAVING count(*) > 1)"
        ),
        0,
        "no episode is stored twice"
    );
}
