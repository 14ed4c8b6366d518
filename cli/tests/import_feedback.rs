//! A fresh user's import findings, with the real binary: progress shows when stderr is not a
//! terminal (piped, CI logs), and the counts of two imports running into one context at once
//! are each that import's own.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::path::Path;
use std::process::{Command, Output, Stdio};

use assert_cmd::cargo::CommandCargoExt;
use serde_json::Value;

/// `minne` on `data`, with the small English model (quick to load and run).
fn minne(data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("minne").expect("the minne binary is built for its tests");
    cmd.env("MINNE_DATA_DIR", data)
        .env("MINNE_MODEL", "all-minilm-l6-v2")
        .env_remove("MINNE_CONTEXT");
    cmd
}

/// A transcript of `sessions` sessions of `per_session` user messages, all its words and
/// session ids marked with `tag`, so two files with different tags share no message. Each
/// message states a decision, which the rules capture as an episode.
fn transcript(tag: &str, sessions: usize, per_session: usize) -> String {
    let sessions: Vec<Value> = (0..sessions)
        .map(|s| {
            let messages: Vec<Value> = (0..per_session)
                .map(|i| {
                    serde_json::json!({
                        "role": "user",
                        "text": format!(
                            "We decided that the {tag} project {s}-{i} moves to Gothenburg."
                        ),
                        "timestamp": format!("2026-03-{:02}T09:{:02}:00+01:00", s + 1, i % 60),
                    })
                })
                .collect();
            serde_json::json!({"id": format!("{tag}-{s}"), "messages": messages})
        })
        .collect();
    serde_json::json!({ "sessions": sessions }).to_string()
}

fn open_db(data: &Path) -> rusqlite::Connection {
    minne::keys::open_connection(
        &data.join("personal.sqlite"),
        &minne::keys::KeyConfig::default(),
    )
    .unwrap()
}

fn count(conn: &rusqlite::Connection, sql: &str) -> i64 {
    conn.query_row(sql, [], |r| r.get(0)).unwrap()
}

/// Creates the data dir and its contexts, so concurrent imports only race on the import
/// (`minne capture` makes them; a read such as `status` creates no data dir).
fn fresh_data(dir: &Path) -> std::path::PathBuf {
    let data = dir.join("data");
    minne(&data).arg("capture").assert_success();
    data
}

trait AssertSuccess {
    fn assert_success(&mut self) -> Output;
}

impl AssertSuccess for Command {
    fn assert_success(&mut self) -> Output {
        let out = self.output().unwrap();
        assert!(
            out.status.success(),
            "minne succeeds: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        out
    }
}

/// Starts `minne import --json` of each file at once and returns each report, in order.
fn import_at_once(data: &Path, files: &[&Path]) -> Vec<Value> {
    let children: Vec<_> = files
        .iter()
        .map(|file| {
            minne(data)
                .args(["import", "--format", "transcript", "--json"])
                .arg(file)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    children
        .into_iter()
        .map(|child| {
            let out = child.wait_with_output().unwrap();
            assert!(
                out.status.success(),
                "each concurrent import succeeds: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            serde_json::from_slice(&out.stdout).expect("--json prints the report")
        })
        .collect()
}

fn n(report: &Value, key: &str) -> i64 {
    report[key]
        .as_i64()
        .unwrap_or_else(|| panic!("{key} in {report}"))
}

#[test]
fn a_piped_import_prints_progress_lines_on_stderr_and_a_summary() {
    let dir = tempfile::tempdir().unwrap();
    let data = fresh_data(dir.path());
    let file = dir.path().join("chat.json");
    // 3 sessions of 100: 300 messages, more than one capture batch (256).
    std::fs::write(&file, transcript("alpha", 3, 100)).unwrap();
    // assert_cmd pipes stderr, so it is no terminal: exactly the CI-log case.
    let out = minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&file)
        .assert_success();
    let stderr = String::from_utf8(out.stderr).unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let episodes = count(&open_db(&data), "SELECT count(*) FROM episodes");
    assert!(episodes > 0, "decisions and commitments are captured");

    assert!(
        stdout.contains("3 of 3 sessions and 300 of 300 messages were new")
            && stdout.contains(&format!("{episodes} episodes captured")),
        "the summary names what the file held and what was stored: {stdout}"
    );
    assert!(
        stderr.contains("import: parsed 300 messages in 3 sessions"),
        "a line once the file is read: {stderr}"
    );
    // Capture encodes the 300 stored messages; embedding covers every episode they gave.
    let capturing: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("import: capturing "))
        .collect();
    assert!(
        capturing.len() >= 2 && capturing.iter().all(|l| l.contains("/300 messages")),
        "capture progress in lines, against the 300 messages to capture: {stderr}"
    );
    assert!(
        stderr.contains("import: capturing 300/300 messages (100%)"),
        "capture reports its end: {stderr}"
    );
    assert!(
        stderr.contains(&format!(
            "import: embedding {episodes}/{episodes} episodes (100%)"
        )),
        "embedding is measured in the {episodes} new episodes: {stderr}"
    );
    assert!(
        !stderr.contains("0/0") && !stderr.contains('\r') && !stderr.contains('\u{1b}'),
        "no bar of unknown length, and no terminal control codes in a log: {stderr:?}"
    );
    // At most one line per tenth of a phase, plus its first and last (and one per 5 s, which
    // an import this small does not reach more than a few times).
    assert!(
        capturing.len() <= 12 + 6,
        "a sensible rate, not a line per message: {}",
        capturing.len()
    );
}

#[test]
fn two_concurrent_imports_of_different_files_each_report_only_their_own_rows() {
    let dir = tempfile::tempdir().unwrap();
    let data = fresh_data(dir.path());
    let (a, b) = (dir.path().join("a.json"), dir.path().join("b.json"));
    // 2 x 60 and 3 x 50 messages: different sizes, so swapped counts would show.
    std::fs::write(&a, transcript("alpha", 2, 60)).unwrap();
    std::fs::write(&b, transcript("beta", 3, 50)).unwrap();
    let reports = import_at_once(&data, &[&a, &b]);
    let (ra, rb) = (&reports[0], &reports[1]);

    // From the inputs: the files share no message, so each adds all of its own.
    assert_eq!(
        (n(ra, "sessions_added"), n(ra, "messages_added")),
        (2, 120),
        "{ra}"
    );
    assert_eq!(
        (n(rb, "sessions_added"), n(rb, "messages_added")),
        (3, 150),
        "{rb}"
    );
    let conn = open_db(&data);
    assert_eq!(count(&conn, "SELECT count(*) FROM messages"), 120 + 150);
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM messages WHERE captured_at IS NULL"
        ),
        0,
        "both imports finished capturing"
    );
    // Each file's episodes are those whose message lies in one of its sessions (the session
    // ids carry the file's tag); an import must report exactly those, whichever process
    // encoded them, and together the reports must be the whole table.
    let of_file = |tag: &str| {
        count(
            &conn,
            &format!(
                "SELECT count(*) FROM episodes e JOIN messages m ON m.id = e.message_id
                   JOIN sessions s ON s.id = m.session_id WHERE s.external_id LIKE '%{tag}-%'"
            ),
        )
    };
    let total = count(&conn, "SELECT count(*) FROM episodes");
    assert!(
        of_file("alpha") > 0 && of_file("beta") > 0,
        "both files gave episodes"
    );
    assert_eq!(
        n(ra, "episodes_added"),
        of_file("alpha"),
        "alpha reports its own episodes: {ra}"
    );
    assert_eq!(
        n(rb, "episodes_added"),
        of_file("beta"),
        "beta reports its own episodes: {rb}"
    );
    assert_eq!(
        n(ra, "episodes_added") + n(rb, "episodes_added"),
        total,
        "the two summaries add up to the table"
    );
    assert_eq!(
        count(&conn, "SELECT count(*) FROM embeddings"),
        total,
        "every episode is embedded once"
    );
}

#[test]
fn the_same_file_imported_twice_at_once_is_added_by_exactly_one_import() {
    let dir = tempfile::tempdir().unwrap();
    let data = fresh_data(dir.path());
    let file = dir.path().join("chat.json");
    std::fs::write(&file, transcript("gamma", 2, 60)).unwrap();
    let reports = import_at_once(&data, &[&file, &file]);
    let conn = open_db(&data);
    let episodes = count(&conn, "SELECT count(*) FROM episodes");
    assert!(episodes > 0, "the file gives episodes");
    assert_eq!(
        count(&conn, "SELECT count(*) FROM messages"),
        120,
        "stored once"
    );

    // One import's INSERTs stored the 2 sessions and 120 messages and it captured their
    // episodes; the other found every row there and added nothing, whatever it encoded.
    let added: Vec<(i64, i64, i64)> = reports
        .iter()
        .map(|r| {
            (
                n(r, "sessions_added"),
                n(r, "messages_added"),
                n(r, "episodes_added"),
            )
        })
        .collect();
    let mut sorted = added.clone();
    sorted.sort();
    assert_eq!(
        sorted,
        vec![(0, 0, 0), (2, 120, episodes)],
        "exactly one import reports the messages and episodes as its own: {added:?}"
    );
    for r in &reports {
        assert_eq!(n(r, "messages_seen"), 120, "both read the whole file: {r}");
    }
}

/// A fresh user's `minne import /nonexistent` created the context's database and its key
/// before it found the file missing, and so did a file of broken JSON. A file that cannot be
/// read or parsed now leaves the data dir as it was: no database, no key dir.
#[test]
fn an_import_that_cannot_read_its_file_creates_no_context() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let broken = dir.path().join("broken.json");
    std::fs::write(&broken, "{\"sessions\": [").unwrap();
    for file in [dir.path().join("missing.json"), broken] {
        let out = minne(&data).arg("import").arg(&file).output().unwrap();
        assert!(!out.status.success(), "{}", file.display());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("nothing from it was kept"), "{stderr}");
        let made: Vec<String> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with("data"))
            .collect();
        assert!(
            made.is_empty(),
            "nothing made for {}: {made:?}",
            file.display()
        );
    }
}

/// A tool's output and a system prompt are the conversation's record, not memories: a
/// search result "I live in Atlantis" came back for "Where do I live?". They are stored as
/// messages (an export keeps them) and become no episode; the user's own message does.
#[test]
fn tool_and_system_messages_become_no_memory() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("tool.json");
    std::fs::write(
        &file,
        r#"{"sessions": [{"id": "s", "messages": [
          {"role": "system", "text": "You are a helpful assistant. The user lives in Atlantis.", "timestamp": "2026-11-01T10:00:00Z"},
          {"role": "tool", "text": "search results: I live in Atlantis.", "timestamp": "2026-11-01T10:00:01Z"},
          {"role": "user", "text": "We decided to move to Lisbon in May.", "timestamp": "2026-11-01T10:00:02Z"}
        ]}]}"#,
    )
    .unwrap();
    minne(&data).arg("import").arg(&file).assert_success();
    let conn = open_db(&data);
    assert_eq!(count(&conn, "SELECT count(*) FROM messages"), 3, "all kept");
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM episodes WHERE role IN ('tool', 'system')"
        ),
        0
    );
    assert_eq!(
        count(
            &conn,
            "SELECT count(*) FROM episodes WHERE text LIKE '%Lisbon%'"
        ),
        1
    );
}
