//! The real `minne` binary on real files: import, recall, forget, and bad input.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;
use serde_json::Value;

const TRANSCRIPT: &str = r#"{"sessions": [
  {"id": "planning-2026-03-02", "messages": [
    {"role": "user", "text": "My sister Ingrid is allergic to peanuts, so the birthday cake must be nut-free.", "timestamp": "2026-03-02T09:15:00+01:00"},
    {"role": "assistant", "text": "Noted: a nut-free cake for the birthday.", "timestamp": "2026-03-02T09:15:20+01:00"},
    {"role": "user", "text": "We decided to move the team offsite to Gothenburg in May.", "timestamp": "2026-03-02T09:20:00+01:00"},
    {"role": "user", "text": "I play the cello in a community orchestra on Thursday evenings.", "timestamp": "2026-03-02T09:25:00+01:00"}
  ]}
]}"#;

fn minne(data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("minne").expect("the minne binary is built for its tests");
    cmd.env("MINNE_DATA_DIR", data).env_remove("MINNE_CONTEXT");
    cmd
}

/// The context's database, opened with its key as the CLI stored it (keys beside the data
/// dir: `<data dir>.keys`, see minne::keys).
fn open_db(db: &Path) -> rusqlite::Connection {
    minne::keys::open_connection(db, &minne::keys::KeyConfig::default()).unwrap()
}

fn json(cmd: &mut Command) -> Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("--json prints JSON")
}

fn row_count(db: &Path, table: &str) -> i64 {
    let conn = open_db(db);
    conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

/// Writes `transcript` (the transcript JSON format) to a file in `dir`, imports it into
/// `data` with `--json` and returns the import report.
fn import_transcript(data: &Path, dir: &Path, transcript: &str) -> Value {
    let file = dir.join("chat.json");
    std::fs::write(&file, transcript).unwrap();
    json(
        minne(data)
            .args(["import", "--format", "transcript", "--json"])
            .arg(&file),
    )
}

#[test]
fn import_recall_forget_recall() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("chat.json");
    std::fs::write(&file, TRANSCRIPT).unwrap();
    // Stored times keep milliseconds.
    let before_import = chrono::Utc::now() - chrono::Duration::milliseconds(1);

    let report = json(
        minne(&data)
            .args(["import", "--format", "transcript", "--json"])
            .arg(&file),
    );
    assert_eq!(
        report["messages_added"], 4,
        "four new messages in a fresh context"
    );
    // Importing the same file again must add nothing: same session, times and words.
    let again = json(
        minne(&data)
            .args(["import", "--format", "transcript", "--json"])
            .arg(&file),
    );
    assert_eq!(again["messages_added"], 0, "re-import is idempotent");
    assert_eq!(again["episodes_added"], 0);

    let hits = json(minne(&data).args([
        "recall",
        "--json",
        "--threshold",
        "0",
        "which food allergy should the cake avoid?",
    ]));
    let top = &hits[0];
    assert!(
        top["text"].as_str().unwrap().contains("peanuts"),
        "the peanut allergy is the one memory about food and allergies: {hits:#}"
    );
    for key in ["score", "parts", "time", "source", "external_id"] {
        assert!(top.get(key).is_some(), "--json gives each result's {key}");
    }
    // Its identity (issue 31, kind 4): when Minne learned it, which is during the first
    // import (the re-import added nothing), and the message it came from, which had no id in
    // the file and is the store's first message, so it is named `minne:1` as an export names it.
    let learned = chrono::DateTime::parse_from_rfc3339(top["created_at"].as_str().unwrap())
        .expect("created_at is RFC 3339")
        .to_utc();
    assert!(
        before_import <= learned && learned <= chrono::Utc::now(),
        "learned at {learned}, during this test"
    );
    assert_eq!(top["source_message_ids"], serde_json::json!(["minne:1"]));
    let id = top["episode_id"].as_i64().unwrap();
    let db = data.join("personal.sqlite");
    let embeddings_before = row_count(&db, "embeddings");

    let receipt = json(minne(&data).args(["forget", "--json", "--id", &id.to_string()]));
    assert_eq!(receipt["episodes"], 1);
    assert_eq!(
        receipt["embeddings"], 1,
        "its one embedding row goes with it"
    );
    assert_eq!(
        row_count(&db, "embeddings"),
        embeddings_before - 1,
        "the vector is gone from the store"
    );
    let conn = open_db(&db);
    let left: i64 = conn
        .query_row(
            "SELECT count(*) FROM embeddings WHERE episode_id = ?1",
            [id],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(left, 0, "no embedding row of the forgotten episode remains");

    let hits = json(minne(&data).args([
        "recall",
        "--json",
        "--threshold",
        "0",
        "-k",
        "10",
        "which food allergy should the cake avoid?",
    ]));
    assert!(
        hits.as_array()
            .unwrap()
            .iter()
            .all(|h| h["episode_id"].as_i64() != Some(id)),
        "a forgotten episode is never recalled: {hits:#}"
    );
    minne(&data)
        .args(["forget", "--id", &id.to_string()])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no episode with id"));
}

#[test]
fn bad_input_gives_a_clear_error_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let good = dir.path().join("chat.json");
    std::fs::write(&good, TRANSCRIPT).unwrap();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&good)
        .assert()
        .success();
    let db = data.join("personal.sqlite");
    let before: Vec<i64> = ["sessions", "messages", "episodes", "embeddings"]
        .iter()
        .map(|t| row_count(&db, t))
        .collect();

    let truncated = dir.path().join("truncated.json");
    std::fs::write(
        &truncated,
        &TRANSCRIPT.replace("planning-2026-03-02", "other")[..300],
    )
    .unwrap();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&truncated)
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("truncated")
                .and(predicate::str::contains("nothing from it was kept")),
        );

    minne(&data)
        .args(["import", "--format", "whatsapp"])
        .arg(&good)
        .assert()
        .failure()
        .stderr(predicate::str::contains("whatsapp").and(predicate::str::contains("locomo")));

    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(dir.path().join("missing.json"))
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("cannot read").and(predicate::str::contains("missing.json")),
        );

    let locomo_as_transcript = dir.path().join("locomo.json");
    std::fs::write(
        &locomo_as_transcript,
        r#"[{"sample_id": "x", "conversation": {}}]"#,
    )
    .unwrap();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&locomo_as_transcript)
        .assert()
        .failure()
        .stderr(predicate::str::contains("not a transcript file"));

    let after: Vec<i64> = ["sessions", "messages", "episodes", "embeddings"]
        .iter()
        .map(|t| row_count(&db, t))
        .collect();
    assert_eq!(
        before, after,
        "a failed import leaves every table as it was"
    );
}

#[test]
fn contexts_are_listed_and_a_bad_name_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    // The first command that brings memories in starts the store (a read creates nothing).
    minne(&data).arg("capture").assert().success();
    let list = json(minne(&data).args(["contexts", "--json"]));
    let names: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        ["personal", "work"],
        "the two built-in contexts exist from the start"
    );
    minne(&data)
        .args(["--context", "../etc", "list"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("invalid context name"));
    minne(&data)
        .args(["--context", "hobby", "list"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("no context named `hobby`"));
}

#[test]
fn a_paused_context_captures_and_recalls_nothing_and_stays_paused() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("chat.json");
    std::fs::write(&file, TRANSCRIPT).unwrap();
    minne(&data).args(["mode", "paused"]).assert().success();
    // A new process: the mode persists across restarts.
    minne(&data)
        .arg("mode")
        .assert()
        .success()
        .stdout(predicate::str::contains("paused"));
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&file)
        .assert()
        .failure()
        .stderr(
            predicate::str::contains("`paused` mode")
                .and(predicate::str::contains("nothing from it was stored"))
                .and(predicate::str::contains("minne mode remember"))
                .and(predicate::str::contains("what was stored is kept").not()),
        );
    minne(&data)
        .args(["recall", "anything"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("does not allow recall"));
    assert_eq!(
        row_count(&data.join("personal.sqlite"), "messages"),
        0,
        "paused: nothing was stored"
    );

    minne(&data)
        .args(["mode", "recall_only"])
        .assert()
        .success();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&file)
        .assert()
        .failure();
    minne(&data)
        .args(["--context", "work", "import", "--format", "transcript"])
        .arg(&file)
        .assert()
        .success();
    assert_eq!(
        row_count(&data.join("work.sqlite"), "messages"),
        4,
        "modes are per context: work still remembers"
    );
}

#[test]
fn export_is_reimportable_and_a_forget_removes_the_export_file() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("chat.json");
    std::fs::write(&file, TRANSCRIPT).unwrap();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&file)
        .assert()
        .success();
    let out = dir.path().join("export.json");
    let report = json(
        minne(&data)
            .args(["export", "--json", "--format", "json", "--out"])
            .arg(&out),
    );
    assert_eq!(report["messages"], 4);
    let exported: Value = serde_json::from_slice(&std::fs::read(&out).unwrap()).unwrap();
    let first = &exported["sessions"][0]["messages"][0];
    assert!(first["text"].as_str().unwrap().contains("peanuts"));
    assert!(
        first["episodes"][0]["kind"].is_string(),
        "the export carries each message's episodes with provenance"
    );

    // Re-importing the export into its own context adds nothing; into another, everything.
    let again = json(
        minne(&data)
            .args(["import", "--json", "--format", "transcript"])
            .arg(&out),
    );
    assert_eq!(
        again["messages_added"], 0,
        "an export re-imported where it came from is a no-op"
    );
    let other = json(
        minne(&data)
            .args([
                "--context",
                "work",
                "import",
                "--json",
                "--format",
                "transcript",
            ])
            .arg(&out),
    );
    assert_eq!(
        other["messages_added"], 4,
        "the export is complete: every message comes back elsewhere"
    );

    let md = dir.path().join("export.md");
    minne(&data)
        .args(["export", "--format", "markdown", "--out"])
        .arg(&md)
        .assert()
        .success();
    let text = std::fs::read_to_string(&md).unwrap();
    assert!(text.starts_with("# Minne export") && text.contains("peanuts"));

    let receipt = json(minne(&data).args(["forget", "--json", "--all-in-context", "--yes"]));
    assert_eq!(
        receipt["exports"], 2,
        "both export files held forgotten content and were removed"
    );
    assert!(!out.exists() && !md.exists());
}

#[test]
fn a_5_mb_message_nul_bytes_and_deep_nesting_are_handled_and_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let good = dir.path().join("chat.json");
    std::fs::write(&good, TRANSCRIPT).unwrap();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&good)
        .assert()
        .success();
    let db = data.join("personal.sqlite");
    let before = row_count(&db, "messages");

    let huge = "log line with some words in it. ".repeat(5 * 1024 * 1024 / 32);
    let big = dir.path().join("big.json");
    let file = serde_json::json!({"sessions": [{"id": "big", "messages": [
        {"role": "user", "text": huge, "timestamp": "2026-03-03T10:00:00Z"},
        {"role": "user", "text": "nul\u{0}inside and a bell\u{7}", "timestamp": "2026-03-03T10:01:00Z"}
    ]}]});
    std::fs::write(&big, file.to_string()).unwrap();
    let report = json(
        minne(&data)
            .args(["import", "--json", "--format", "transcript"])
            .arg(&big),
    );
    assert_eq!(
        report["messages_truncated"], 1,
        "the 5 MB message is cut, and the report says so"
    );
    assert_eq!(
        report["messages_cleaned"], 1,
        "NUL and control characters are left out, and counted"
    );
    let conn = open_db(&db);
    let longest: i64 = conn
        .query_row(
            "SELECT max(length(CAST(text AS BLOB))) FROM messages",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        longest <= 100_000,
        "no stored message is longer than the documented limit: {longest}"
    );
    let cleaned: String = conn
        .query_row(
            "SELECT text FROM messages WHERE text LIKE 'nul%'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    // Each run of control characters becomes one space between words (a fresh user's
    // finding: "nulinside" glued two words); the bell at the very end leaves nothing.
    assert_eq!(cleaned, "nul inside and a bell");
    assert_eq!(
        row_count(&db, "messages"),
        before + 2,
        "what was stored before is all still there"
    );

    let deep = dir.path().join("deep.json");
    let nested = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let text = format!(
        r#"{{"sessions": [{{"messages": [{{"role": "user", "text": "x", "timestamp": "2026-03-03T10:00:00Z", "extra": {nested}}}]}}]}}"#
    );
    std::fs::write(&deep, text).unwrap();
    // 100,000 levels of nesting in a field Minne ignores: skipped without a stack overflow,
    // and the message around it is stored.
    let report = json(
        minne(&data)
            .args(["import", "--json", "--format", "transcript"])
            .arg(&deep),
    );
    assert_eq!(report["messages_added"], 1);
    let bad_utf8 = dir.path().join("latin1.json");
    std::fs::write(
        &bad_utf8,
        b"{\"sessions\": [{\"messages\": [{\"role\": \"user\", \"text\": \"caf\xe9\"}]}]}",
    )
    .unwrap();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&bad_utf8)
        .assert()
        .failure()
        .stderr(predicate::str::contains("not UTF-8"));
    assert_eq!(
        row_count(&db, "messages"),
        before + 3,
        "the failed import changed nothing"
    );
}

#[test]
fn forgetting_a_context_leaves_no_speaker_name_and_export_never_overwrites() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("named.json");
    let named = r#"{"sessions": [{"id": "n", "messages": [
      {"role": "user", "actor": "Quillon", "text": "I WILL finish the mural this weekend!!!", "timestamp": "2026-03-02T09:15:00+01:00"},
      {"role": "assistant", "actor": "Vesperine", "text": "I'll check on the paint order tomorrow.", "timestamp": "2026-03-02T09:16:00+01:00"}]}]}"#;
    std::fs::write(&file, named).unwrap();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&file)
        .assert()
        .success();

    let taken = dir.path().join("taken.txt");
    std::fs::write(&taken, "not an export").unwrap();
    minne(&data)
        .args(["export", "--out"])
        .arg(&taken)
        .assert()
        .failure()
        .stderr(predicate::str::contains("--force"));
    assert_eq!(
        std::fs::read_to_string(&taken).unwrap(),
        "not an export",
        "an existing file is never overwritten unasked"
    );

    minne(&data)
        .args(["forget", "--all-in-context", "--yes"])
        .assert()
        .success();
    for entry in std::fs::read_dir(&data).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        for name in ["Quillon", "Vesperine"] {
            assert!(
                !bytes.windows(name.len()).any(|w| w == name.as_bytes()),
                "a forgotten speaker's name stays nowhere, tone baseline included: {name}"
            );
        }
    }
}

/// One decision, said `sent` (RFC 3339), alone in its file: a context of exactly one message.
fn one_message(sent: &str) -> String {
    format!(
        r#"{{"sessions": [
  {{"id": "s-range", "messages": [
    {{"role": "user", "text": "We decided to move the team offsite to Gothenburg in May.", "timestamp": "{sent}"}}
  ]}}
]}}"#
    )
}

#[test]
fn forget_says_what_is_in_scope_and_refuses_ranges_that_hold_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let db = data.join("personal.sqlite");
    let file = dir.path().join("one.json");
    // Said ten minutes ago, so inside `--last 1h`.
    let sent = (chrono::Utc::now() - chrono::Duration::minutes(10)).to_rfc3339();
    std::fs::write(&file, one_message(&sent)).unwrap();
    let imported = minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&file)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let imported = String::from_utf8(imported).unwrap();
    assert!(
        imported.contains("1 of 1 session and 1 of 1 message were new"),
        "one of each, in the singular: {imported}"
    );
    let episodes = row_count(&db, "episodes");
    assert!(episodes >= 1, "a decision is captured");
    let episodes_words = if episodes == 1 {
        "1 episode".to_string()
    } else {
        format!("{episodes} episodes")
    };

    // Off a terminal, a scope other than --id is refused, and the refusal counts what is in
    // scope: the one message just imported and the episodes stored from it.
    minne(&data)
        .args(["forget", "--last", "1h"])
        .write_stdin("")
        .assert()
        .failure()
        .stderr(
            predicate::str::contains(format!(
                "this forgets 1 message / {episodes_words} in `personal` from the last hour; \
                 add --yes to confirm"
            ))
            .and(predicate::str::contains("more than one").not()),
        );
    assert_eq!(row_count(&db, "messages"), 1, "a refusal forgets nothing");

    // A window that holds nothing is an error, not a silent no-op.
    minne(&data)
        .args(["forget", "--last", "0m", "--yes"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("positive duration"));
    minne(&data)
        .args([
            "forget",
            "--from",
            "2026-03-03T00:00:00Z",
            "--to",
            "2026-03-02T00:00:00Z",
        ])
        .args(["--yes"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("is not earlier than --to"));

    // A session typed as part of its key (neither the key nor the file's own id `s-range`,
    // which would name it): the error names the real key.
    let key: String = open_db(&db)
        .query_row("SELECT external_id FROM sessions", [], |r| r.get(0))
        .unwrap();
    assert_ne!(key, "s-range", "the stored key carries the source: {key}");
    minne(&data)
        .args(["forget", "--session", "range", "--yes"])
        .assert()
        .failure()
        .stderr(predicate::str::contains(format!("did you mean `{key}`?")));

    // --from alone runs until now: everything written since 2000 is everything here.
    let out = minne(&data)
        .args(["forget", "--from", "2000-01-01T00:00:00Z", "--yes"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let out = String::from_utf8(out).unwrap();
    assert!(
        out.contains("1 message removed") && out.contains(&format!("{episodes_words},")),
        "the receipt agrees in number: {out}"
    );
    assert_eq!(row_count(&db, "messages"), 0, "{out}");
}

#[test]
fn list_refuses_a_zero_limit_and_explains_an_offset_past_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("chat.json");
    std::fs::write(&file, TRANSCRIPT).unwrap();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&file)
        .assert()
        .success();
    minne(&data)
        .args(["list", "--limit", "0"])
        .assert()
        .failure()
        .stderr(predicate::str::contains("--limit"));
    // The count the message must give, from the database itself.
    let held = row_count(&data.join("personal.sqlite"), "episodes");
    assert!(held > 1);
    minne(&data)
        .args(["list", "--offset", "999"])
        .assert()
        .success()
        .stdout(
            predicate::str::contains(format!(
                "No episodes at offset 999 (the context `personal` holds {held} episodes)"
            ))
            .and(predicate::str::contains("yet").not()),
        );
}

/// `minne list | head -1`: the reader goes away before Minne writes. Like other Unix tools,
/// Minne ends quietly (SIGPIPE, status 141 in a shell) instead of panicking with "failed
/// printing to stdout: Broken pipe" (exit status 101).
#[test]
fn a_closed_pipe_ends_the_command_quietly() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::Stdio;

    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("chat.json");
    std::fs::write(&file, TRANSCRIPT).unwrap();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&file)
        .assert()
        .success();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("minne"))
        .env("MINNE_DATA_DIR", &data)
        .env_remove("MINNE_CONTEXT")
        .arg("list")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the only read end before the child has opened its database, let alone printed.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(
        out.status.success() || out.status.signal() == Some(libc_sigpipe()),
        "status {:?}, stderr {stderr}",
        out.status
    );
}

/// SIGPIPE's number on Linux and macOS (signal(7)).
fn libc_sigpipe() -> i32 {
    13
}

#[test]
fn help_names_every_forget_scope_and_shows_env_vars_alike() {
    let dir = tempfile::tempdir().unwrap();
    let out = minne(dir.path())
        .env("MINNE_CONTEXT", "work")
        .arg("--help")
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let help = String::from_utf8(out).unwrap();
    // Every env var is shown the same way, `[env: NAME; default: ...]`, never clap's own
    // `[env: NAME=value]`, whatever the environment holds.
    for var in ["MINNE_DATA_DIR", "MINNE_MODELS_DIR", "MINNE_CONTEXT"] {
        assert!(help.contains(&format!("[env: {var}; default: ")), "{help}");
        assert!(!help.contains(&format!("{var}=")), "{help}");
    }
    let line = help
        .lines()
        .find(|l| l.trim_start().starts_with("forget"))
        .unwrap();
    for scope in [
        "--id",
        "session",
        "--last",
        "--from",
        "topic",
        "whole context",
    ] {
        assert!(line.contains(scope), "the summary names {scope}: {line}");
    }
}

#[test]
fn an_empty_file_is_called_empty_not_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("conversations.json");
    // Empty, and whitespace only: both hold no conversation at all, in any format.
    for content in ["", " \n\n"] {
        std::fs::write(&file, content).unwrap();
        for format in ["auto", "chatgpt", "transcript"] {
            minne(&data)
                .args(["import", "--format", format])
                .arg(&file)
                .assert()
                .failure()
                .stderr(
                    predicate::str::contains("the file is empty")
                        .and(predicate::str::contains("truncated").not())
                        .and(predicate::str::contains("nothing from it was kept")),
                );
        }
    }
}

/// Fresh-user finding: `minne review confirm 999` said "`minne list` shows the ids", but
/// `minne list` lists episodes; review entries' ids come from `minne review`.
#[test]
fn an_unknown_review_entry_points_to_minne_review() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("chat.json");
    std::fs::write(&file, TRANSCRIPT).unwrap();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&file)
        .assert()
        .success();
    for action in [
        &["confirm", "999"][..],
        &["reject", "999"],
        &["edit", "999", "x"],
    ] {
        minne(&data)
            .arg("review")
            .args(action)
            .assert()
            .failure()
            .stderr(
                predicate::str::contains("no review entry with id 999")
                    .and(predicate::str::contains("`minne review` shows the ids"))
                    .and(predicate::str::contains("minne list").not()),
            );
    }
}

/// ONNX Runtime's Microsoft build writes a device id and queued usage events under
/// `$HOME/.cache/Microsoft/DeveloperTools/.onnxruntime` unless told not to (a fresh user found
/// `onnxruntime.db` holding the binary's path, OS, CPU and network kind). The binary turns it
/// off itself, so even with the variable removed from its environment a recall with the real
/// model leaves no such folder in a fresh home.
#[test]
fn the_model_runtime_writes_no_telemetry() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let models = std::env::var_os("MINNE_MODELS_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            Path::new(&std::env::var_os("HOME").expect("HOME is set")).join(".cache/minne")
        });
    let file = dir.path().join("chat.json");
    std::fs::write(&file, TRANSCRIPT).unwrap();
    for args in [
        vec!["import", "--format", "transcript", file.to_str().unwrap()],
        vec!["recall", "cello"],
    ] {
        minne(&dir.path().join("data"))
            .env("HOME", &home)
            .env("MINNE_MODELS_DIR", &models)
            .env_remove("ORT_DISABLE_TELEMETRY")
            .args(&args)
            .assert()
            .success();
    }
    let microsoft = home.join(".cache").join("Microsoft");
    assert!(
        !microsoft.exists(),
        "ONNX Runtime wrote telemetry under {}",
        microsoft.display()
    );
}

/// `recall -k 3` gives at most three results, each at or above the threshold, also when the
/// results have conflict partners. A fresh user got five for "what is my name?", one at 0.10
/// against a threshold of 0.30: "I work at Klarna now" superseded the employer of the message
/// that gave the old name, and came along as that message's partner.
#[test]
fn recall_keeps_k_and_the_threshold_with_conflicts() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_transcript(
        &data,
        dir.path(),
        r#"{"sessions": [{"id": "me", "messages": [
  {"role": "user", "text": "My name is Karin, I live in Malmö and I work at Spotify.", "timestamp": "2026-01-05T09:00:00+01:00"},
  {"role": "user", "text": "Actually my name is Karolina, not Karin.", "timestamp": "2026-02-05T09:00:00+01:00"},
  {"role": "user", "text": "I moved to Stockholm last week.", "timestamp": "2026-03-05T09:00:00+01:00"},
  {"role": "user", "text": "I work at Klarna now, I left Spotify.", "timestamp": "2026-04-05T09:00:00+01:00"}
]}]}"#,
    );
    minne(&data).arg("consolidate").assert().success();
    let threshold = 0.30; // e5's calibrated threshold (README, "Recall")
    let hits = json(minne(&data).args(["recall", "--json", "-k", "3", "what is my name?"]));
    let hits = hits
        .as_array()
        .expect("--json prints the results as a list");
    assert!(!hits.is_empty(), "the name is stored: {hits:#?}");
    assert!(hits.len() <= 3, "at most k results: {hits:#?}");
    for h in hits {
        assert!(
            h["score"].as_f64().unwrap() >= threshold,
            "every result clears the threshold: {hits:#?}"
        );
    }
}

/// Four homes in turn, each superseding the one before: every `-k` gives at most k results,
/// the newest home first (a fresh user's `-k 2` gave three, since each shown result brought
/// its partner in and the limit gave way). The text output names what a result disagrees
/// with, as `--json` does in `conflict_with`; and "My name is Erik", "Jag heter Erik
/// Lindqvist" and "Jeg hedder Erik" say one name in part and in full, which is no conflict
/// (the first two were marked: "Erik Lindqvist" superseded "Erik", and rests on the third).
#[test]
fn conflict_partners_never_exceed_k_and_the_text_names_them() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_transcript(
        &data,
        dir.path(),
        r#"{"sessions": [{"id": "homes", "messages": [
  {"role": "user", "text": "I live in Gothenburg.", "timestamp": "2026-03-01T10:00:00Z"},
  {"role": "user", "text": "I live in Stockholm.", "timestamp": "2026-04-01T10:00:00Z"},
  {"role": "user", "text": "I live in Uppsala.", "timestamp": "2026-05-01T10:00:00Z"},
  {"role": "user", "text": "I live in Malmö.", "timestamp": "2026-06-01T10:00:00Z"},
  {"role": "user", "text": "My name is Erik.", "timestamp": "2026-06-02T10:00:00Z"},
  {"role": "user", "text": "Jag heter Erik Lindqvist.", "timestamp": "2026-06-03T10:00:00Z"},
  {"role": "user", "text": "Jeg hedder Erik.", "timestamp": "2026-06-04T10:00:00Z"}
]}]}"#,
    );
    for k in 1..=4 {
        let hits =
            json(minne(&data).args(["recall", "--json", "-k", &k.to_string(), "Where do I live?"]));
        let hits = hits.as_array().expect("a list");
        assert!(!hits.is_empty() && hits.len() <= k, "k = {k}: {hits:#?}");
        assert!(
            hits[0]["text"].as_str().unwrap().contains("Malmö"),
            "the newest home leads at k = {k}: {hits:#?}"
        );
    }
    let hits = json(minne(&data).args(["recall", "--json", "-k", "4", "Where do I live?"]));
    let marked: Vec<(String, usize)> = hits
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["text"].as_str().unwrap().to_string(),
                h["conflict_with"].as_array().unwrap().len(),
            )
        })
        .collect();
    assert!(
        marked.iter().any(|(_, n)| *n > 0),
        "the homes that succeeded one another are marked: {marked:?}"
    );
    let out = minne(&data)
        .args(["recall", "-k", "4", "Where do I live?"])
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains("in conflict with #"), "{text}");
    let names = json(minne(&data).args(["recall", "--json", "What is my name?"]));
    for h in names.as_array().unwrap() {
        if h["text"].as_str().unwrap().contains("Erik") {
            assert_eq!(
                h["conflict_with"],
                serde_json::json!([]),
                "same name, no conflict: {names:#?}"
            );
        }
    }
}

/// "Don't remember this: …" is kept out of memory and the import says so: a fresh user found
/// it stored at the explicit-save salience and recalled for "what is my salary?".
#[test]
fn a_message_asking_not_to_be_kept_makes_no_memory() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let report = import_transcript(
        &data,
        dir.path(),
        r#"{"sessions": [{"id": "s", "messages": [
  {"role": "user", "text": "Don't remember this: my salary is 80000 SEK.", "timestamp": "2026-03-02T09:00:00+01:00"},
  {"role": "user", "text": "I play the cello in a community orchestra on Thursday evenings.", "timestamp": "2026-03-02T09:05:00+01:00"}
]}]}"#,
    );
    assert_eq!(
        report["messages_added"], 2,
        "both messages are in the transcript (the withheld one as its marker)"
    );
    assert_eq!(report["messages_withheld"], 1, "one asked not to be kept");
    let recall = |query: &str| {
        json(minne(&data).args(["recall", "--json", "--threshold", "0", "-k", "10", query]))
            .to_string()
    };
    // The cello memory once came back for "salary" too: its full-text row held the turn
    // before it, the withheld words, which are now the marker.
    let salary = recall("what is my salary?");
    assert!(
        !salary.contains("80000"),
        "nothing of the withheld one is a memory: {salary}"
    );
    let cello = recall("what instrument do I play?");
    assert!(
        cello.contains("cello"),
        "the other message is a memory: {cello}"
    );
    // Nor do its words stay in the transcript: neither export holds them, and a re-import of
    // the same file (blocked by the tombstone of the words) brings nothing back.
    for format in ["json", "markdown"] {
        let out = dir.path().join(format!("export.{format}"));
        minne(&data)
            .args(["export", "--format", format, "-o"])
            .arg(&out)
            .assert()
            .success();
        let exported = std::fs::read_to_string(&out).unwrap();
        assert!(
            exported.contains("cello") && !exported.contains("80000"),
            "the {format} export keeps the other message and none of the withheld words: {exported}"
        );
    }
    let again = json(
        minne(&data)
            .args(["import", "--format", "transcript", "--json"])
            .arg(dir.path().join("chat.json")),
    );
    assert_eq!(again["messages_added"], 0, "nothing comes back: {again:#}");
}

/// A UTF-8 file that starts with a byte-order mark (as some Windows tools write it) imports
/// like the same file without one: a fresh user's was refused as "broken JSON at line 1,
/// column 1". The four messages of [`TRANSCRIPT`] are all new in a fresh context.
#[test]
fn a_file_with_a_byte_order_mark_imports() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("bom.json");
    let mut bytes = b"\xEF\xBB\xBF".to_vec();
    bytes.extend_from_slice(TRANSCRIPT.as_bytes());
    std::fs::write(&file, bytes).unwrap();
    let report = json(minne(&data).args(["import", "--json"]).arg(&file));
    assert_eq!(report["messages_added"], 4, "{report:#}");
}

/// `forget --topic Q --yes` under the default model (e5) forgets only the memories that share
/// a word with the topic; memories only close in meaning are listed as kept, with the command
/// that forgets one. A fresh user's `forget --topic "my car" --yes` had deleted a Swedish
/// memory about a debt (cosine 0.822, above the Volvo memory's 0.821).
#[test]
fn a_topic_forget_with_yes_keeps_memories_that_share_no_word_with_the_topic() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_transcript(
        &data,
        dir.path(),
        r#"{"sessions": [{"id": "s", "messages": [
  {"role": "user", "text": "The car is parked at the station until Friday.", "timestamp": "2026-03-02T09:00:00+01:00"},
  {"role": "user", "text": "My Volvo needs new winter tyres before December.", "timestamp": "2026-03-02T09:05:00+01:00"},
  {"role": "user", "text": "Jag är skyldig Erik femhundra kronor sedan i fredags.", "timestamp": "2026-03-02T09:10:00+01:00"},
  {"role": "user", "text": "I play the cello in a community orchestra on Thursday evenings.", "timestamp": "2026-03-02T09:15:00+01:00"}
]}]}"#,
    );
    let receipt = json(minne(&data).args(["forget", "--topic", "my car", "--yes", "--json"]));
    assert_eq!(
        receipt["episodes"], 1,
        "only `The car is parked…`: {receipt}"
    );
    let listed = json(minne(&data).args(["list", "--json"])).to_string();
    assert!(!listed.contains("parked"), "{listed}");
    for kept in ["Volvo", "Erik", "cello"] {
        assert!(listed.contains(kept), "`{kept}` stays: {listed}");
    }
    // Off a terminal without --yes, a memory close in meaning only is never taken silently.
    let out = minne(&data)
        .args(["forget", "--topic", "my Volvo car"])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("--yes"), "it says how to confirm: {err}");
    let listed = json(minne(&data).args(["list", "--json"])).to_string();
    assert!(listed.contains("Volvo"), "nothing went: {listed}");
}

/// Forgetting one memory keeps a JSON export of the others: the file is rewritten without the
/// forgotten message (a fresh user lost a whole backup to `forget --id`), still as the
/// re-importable export; a Markdown export, which has no message records to cut, goes whole;
/// an export that never held the forgotten message is left byte for byte.
#[test]
fn forgetting_one_memory_rewrites_a_json_export_without_it_and_keeps_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_transcript(&data, dir.path(), TRANSCRIPT);
    let out = dir.path().join("backup.json");
    let md = dir.path().join("backup.md");
    for (format, path) in [("json", &out), ("markdown", &md)] {
        minne(&data)
            .args(["export", "--format", format, "--out"])
            .arg(path)
            .assert()
            .success();
    }
    // A second context's export never held the message.
    minne(&data)
        .args(["--context", "work", "import", "--format", "transcript"])
        .arg(&out)
        .assert()
        .success();
    let work_out = dir.path().join("work.json");
    minne(&data)
        .args(["--context", "work", "export", "--format", "json", "--out"])
        .arg(&work_out)
        .assert()
        .success();
    let work_before = std::fs::read(&work_out).unwrap();

    let listed = json(minne(&data).args(["list", "--json", "--limit", "100"]));
    let peanuts = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["text"].as_str().unwrap().contains("peanuts"))
        .expect("the peanut memory is listed");
    let receipt = json(
        minne(&data)
            .args(["forget", "--json", "--id"])
            .arg(peanuts["id"].to_string()),
    );
    assert_eq!(receipt["exports_rewritten"], 1, "{receipt}");
    assert_eq!(receipt["exports"], 1, "the Markdown export went: {receipt}");
    assert!(!md.exists());
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(
        !text.contains("peanuts"),
        "the forgotten words left the backup"
    );
    for kept in ["Gothenburg", "cello"] {
        assert!(text.contains(kept), "`{kept}` stays in the backup");
    }
    let backup: Value = serde_json::from_str(&text).unwrap();
    let messages = backup["sessions"][0]["messages"].as_array().unwrap().len();
    // The assistant's "Noted: a nut-free cake for the birthday." said the forgotten
    // message's words back (nut, free, cake, birthday: 4 of its 5 content words), so it goes
    // with it (minne::forget, echoes).
    assert_eq!(
        messages, 2,
        "four messages less the forgotten one and the reply that echoed it"
    );
    assert_eq!(receipt["echoes"], 1, "{receipt}");
    assert_eq!(
        std::fs::read(&work_out).unwrap(),
        work_before,
        "another context's export is not this context's to touch"
    );
    // The rewritten backup is still an export Minne re-imports (and still tracked: a second
    // forget takes the next message out of it too).
    let again = json(
        minne(&data)
            .args(["import", "--json", "--format", "transcript"])
            .arg(&out),
    );
    assert_eq!(
        again["messages_added"], 0,
        "nothing in it is new here: {again}"
    );
    let cello = json(minne(&data).args(["list", "--json", "--limit", "100"]))
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["text"].as_str().unwrap().contains("cello"))
        .unwrap()["id"]
        .to_string();
    let receipt = json(minne(&data).args(["forget", "--json", "--id", &cello]));
    assert_eq!(receipt["exports_rewritten"], 1, "{receipt}");
    assert!(!std::fs::read_to_string(&out).unwrap().contains("cello"));
}

/// An empty topic is refused in the forget's own words, not recall's ("the recall query is
/// empty"), and nothing goes.
#[test]
fn an_empty_forget_topic_says_what_to_give() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_transcript(&data, dir.path(), TRANSCRIPT);
    let out = minne(&data)
        .args(["forget", "--topic", "  ", "--yes"])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(err.contains("--topic is empty"), "{err}");
    assert!(
        row_count(&data.join("personal.sqlite"), "episodes") > 0,
        "nothing was forgotten"
    );
}
