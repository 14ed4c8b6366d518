//! What a fresh-user tester found in the read commands, recall and import output, on the real
//! binary and real files: a mistyped `--data-dir` silently made into an empty store, a
//! `--threshold` outside the scores' range accepted, a query of megabytes embedded, one
//! "command applied" line per command of a long history, and a killed capture job shown as
//! `running` forever.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod mcp_support;

use std::path::Path;

use assert_cmd::Command;
use mcp_support::McpServer;
use serde_json::{Value, json};

/// Two user messages, each a decision, so each is an episode.
const TWO: &str = r#"{"sessions": [
  {"id": "plans", "messages": [
    {"role": "user", "text": "We decided to move the team offsite to Gothenburg in May.", "timestamp": "2026-03-02T09:20:00+01:00"},
    {"role": "user", "text": "I decided to learn the cello this autumn.", "timestamp": "2026-03-02T09:25:00+01:00"}
  ]}
]}"#;

/// `minne` on `data`, with the small English model (quick to load and run).
fn minne(data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("minne").expect("the minne binary is built for its tests");
    cmd.env("MINNE_DATA_DIR", data)
        .env("MINNE_MODEL", "all-minilm-l6-v2")
        .env_remove("MINNE_CONTEXT")
        .env_remove("MINNE_PASSPHRASE")
        .env_remove("MINNE_CONFIG_DIR");
    cmd
}

fn json(cmd: &mut Command) -> Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("--json prints JSON")
}

fn stdout(cmd: &mut Command) -> String {
    String::from_utf8(cmd.assert().success().get_output().stdout.clone()).unwrap()
}

fn stderr_of_failure(cmd: &mut Command) -> String {
    String::from_utf8(cmd.assert().failure().get_output().stderr.clone()).unwrap()
}

/// Writes `transcript` (the transcript JSON format) to `name` in `dir` and imports it into
/// `data` with `--json`; returns the import report.
fn import_transcript(data: &Path, dir: &Path, name: &str, transcript: &str) -> Value {
    let file = dir.join(name);
    std::fs::write(&file, transcript).unwrap();
    json(
        minne(data)
            .args(["import", "--format", "transcript", "--json"])
            .arg(&file),
    )
}

/// The context's database, opened with its key as the CLI stored it (`<data dir>.keys`).
fn open_db(data: &Path) -> rusqlite::Connection {
    minne::keys::open_connection(
        &data.join("personal.sqlite"),
        &minne::keys::KeyConfig::default(),
    )
    .unwrap()
}

/// Every read command, as a fresh user would type it.
const READS: &[&[&str]] = &[
    &["list"],
    &["recall", "where is the offsite?"],
    &["status"],
    &["facts"],
    &["profile"],
    &["contexts"],
    &["context", "--session-start"],
    &["export", "--out", "-"],
    &["review"],
    &["mode"],
    &["consolidate"],
];

#[test]
fn a_read_with_a_mistyped_data_dir_creates_nothing_and_says_what_to_check() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_transcript(&data, dir.path(), "two.json", TWO);
    let typo = dir.path().join("dta");
    for read in READS {
        // Both ways of naming a data dir: the flag, and the variable.
        let by_flag = stderr_of_failure(minne(&data).arg("--data-dir").arg(&typo).args(*read));
        let by_env = stderr_of_failure(minne(&typo).args(*read));
        for err in [by_flag, by_env] {
            assert!(
                err.contains(&format!("no Minne data at {}", typo.display())),
                "`minne {}` names the path that holds no data: {err}",
                read.join(" ")
            );
            assert!(
                err.contains("--data-dir") && err.contains("MINNE_DATA_DIR"),
                "and says what to check: {err}"
            );
            assert!(
                err.contains("minne import"),
                "and how to start a store there: {err}"
            );
        }
        assert!(
            !typo.exists(),
            "`minne {}` must not create the mistyped data dir",
            read.join(" ")
        );
    }
    // An existing folder that holds no context (`--data-dir ~` for `~/minne`) gets no
    // databases either.
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty).unwrap();
    let err = stderr_of_failure(minne(&empty).arg("list"));
    assert!(err.contains("no Minne data at"), "{err}");
    assert_eq!(
        std::fs::read_dir(&empty).unwrap().count(),
        0,
        "nothing is written into a folder that holds no Minne data"
    );
    // The real data dir still reads.
    let listed = stdout(minne(&data).arg("list"));
    assert!(listed.contains("Gothenburg"), "{listed}");
}

#[test]
fn write_commands_still_create_the_data_dir() {
    let dir = tempfile::tempdir().unwrap();
    for (name, write) in [
        ("by-capture", &["capture"][..]),
        ("by-create", &["contexts", "--create", "hobby"][..]),
        ("by-mode", &["mode", "paused"][..]),
    ] {
        let data = dir.path().join(name);
        minne(&data).args(write).assert().success();
        assert!(
            data.join("personal.sqlite").exists() && data.join("work.sqlite").exists(),
            "`minne {}` starts a store with the built-in contexts",
            write.join(" ")
        );
        // From then on, reads work.
        minne(&data).arg("status").assert().success();
    }
    // `minne import` and `minne mcp`, likewise.
    let data = dir.path().join("by-import");
    import_transcript(&data, dir.path(), "two.json", TWO);
    assert!(data.join("personal.sqlite").exists());
    let data = dir.path().join("by-mcp");
    let (server, _) = McpServer::start(&data, &[]);
    assert!(server.close().success());
    assert!(
        data.join("personal.sqlite").exists(),
        "an MCP server starts a store"
    );
}

/// The platform data dir of a new install is not a typo: a read there answers that nothing is
/// stored yet, as the app would show it, rather than an error.
#[test]
fn a_read_on_a_new_install_says_nothing_is_stored_yet() {
    let home = tempfile::tempdir().unwrap();
    let models = std::env::var_os("MINNE_MODELS_DIR")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cache/minne")
        });
    let mut cmd = Command::cargo_bin("minne").unwrap();
    cmd.env("HOME", home.path())
        .env("MINNE_MODELS_DIR", &models)
        .env("MINNE_KEYRING", "off")
        .env_remove("MINNE_DATA_DIR")
        .env_remove("MINNE_CONFIG_DIR")
        .env_remove("MINNE_CONTEXT")
        .env_remove("MINNE_PASSPHRASE")
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .arg("list");
    let out = stdout(&mut cmd);
    assert!(
        out.contains("No episodes in `personal` yet") && out.contains("minne import"),
        "a first `minne list` says nothing is stored yet and how to bring memories in: {out}"
    );
}

#[test]
fn recall_refuses_a_threshold_outside_zero_to_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_transcript(&data, dir.path(), "two.json", TWO);
    for bad in ["5", "-0.1", "1.01", "NaN", "inf"] {
        // `--threshold=-0.1`: written apart, a negative number reads as a flag.
        let err = stderr_of_failure(minne(&data).args([
            "recall",
            "where is the offsite?",
            &format!("--threshold={bad}"),
        ]));
        assert!(
            err.contains("0 to 1"),
            "--threshold {bad} is refused naming the range of relevance scores: {err}"
        );
    }
    let err = stderr_of_failure(minne(&data).args(["recall", "offsite", "--threshold", "high"]));
    assert!(err.contains("not a number"), "{err}");
    // Both ends of the range are thresholds one may ask for.
    for good in ["0", "1", "0.3"] {
        minne(&data)
            .args(["recall", "where is the offsite?", "--threshold", good])
            .assert()
            .success();
    }
}

#[test]
fn a_query_of_many_kilobytes_is_refused_before_it_is_embedded() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_transcript(&data, dir.path(), "two.json", TWO);
    let limit = minne::recall::MAX_QUERY_CHARS;
    // 100 kB: under the 128 kB the kernel allows one command-line argument.
    let huge = "where is the offsite? ".repeat(100_000 / 22);
    let err = stderr_of_failure(minne(&data).args(["recall", &huge]));
    assert!(
        err.contains(&format!("limit of {limit}")) && err.contains("shorter question"),
        "a huge query is refused with the limit and what to do: {err}"
    );
    // A question at the limit is still a question.
    let long = "a".repeat(limit - 20) + " offsite Gothenburg";
    minne(&data).args(["recall", &long]).assert().success();

    // The MCP tool gets the same refusal from the engine, for a 5 MB query, and keeps serving.
    let (mut server, _) = McpServer::start(&data, &[]);
    let err = server.call_err("recall", json!({"query": "x ".repeat(2_500_000)}));
    assert!(
        err.contains(&format!("limit of {limit}")),
        "a 5 MB query to the recall tool is refused with the limit: {err}"
    );
    let hits = server.call_ok("recall", json!({"query": "where is the team offsite?"}));
    assert!(
        hits["hits"].to_string().contains("Gothenburg"),
        "the server answers the next question: {hits}"
    );
    assert!(server.close().success());
}

/// One user message per "remember that …" command, each about another thing, among
/// ordinary messages: a long history holds hundreds of such commands.
fn many_commands(n: usize) -> String {
    let messages: Vec<Value> = (0..n)
        .flat_map(|i| {
            [
                json!({
                    "role": "user",
                    "text": format!("Remember that locker {} at the gym holds my blue bag number {i}.", 100 + i),
                    "timestamp": format!("2026-03-02T{:02}:{:02}:00+01:00", 8 + i / 30, (2 * i) % 60),
                }),
                json!({
                    "role": "assistant",
                    "text": format!("Noted, locker {}.", 100 + i),
                    "timestamp": format!("2026-03-02T{:02}:{:02}:30+01:00", 8 + i / 30, (2 * i) % 60),
                }),
            ]
        })
        .collect();
    json!({"sessions": [{"id": "lockers", "messages": messages}]}).to_string()
}

#[test]
fn an_import_of_many_commands_lists_five_and_counts_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lockers.json");
    std::fs::write(&file, many_commands(12)).unwrap();

    let report = json(
        minne(&dir.path().join("as-json"))
            .args(["import", "--format", "transcript", "--json"])
            .arg(&file),
    );
    let applied = report["commands"].as_array().unwrap().len();
    assert_eq!(
        applied, 12,
        "--json keeps every command applied, one per remember: {report:#}"
    );

    let text = stdout(
        minne(&dir.path().join("as-text"))
            .args(["import", "--format", "transcript"])
            .arg(&file),
    );
    let listed = text
        .lines()
        .filter(|l| l.contains("command applied:"))
        .count();
    assert_eq!(
        listed, 5,
        "the text lists a handful of commands, not one line each: {text}"
    );
    assert!(
        text.contains("… and 7 more commands applied (see --json)"),
        "and counts the rest, pointing at --json: {text}"
    );
}

#[test]
fn a_killed_capture_job_shows_as_interrupted_with_what_to_do() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    import_transcript(&data, dir.path(), "two.json", TWO);
    // What a kill -9 in the middle of capture leaves: the job recorded `running`, and no
    // process capturing any more (the operating system dropped its lock as it ended).
    open_db(&data)
        .execute(
            "UPDATE capture_jobs SET status = 'running', finished_at = NULL",
            [],
        )
        .unwrap();
    let status = json(minne(&data).args(["status", "--json"]));
    assert_eq!(
        status["recent_jobs"][0]["status"], "interrupted",
        "a job nobody runs any more is not `running`: {status:#}"
    );
    let text = stdout(minne(&data).arg("status"));
    assert!(
        text.contains("interrupted") && text.contains("`minne capture` resumes it"),
        "the status says the job stopped and what resumes it: {text}"
    );
    let job = json(minne(&data).args(["capture", "--json"]));
    assert_eq!(
        job["status"], "done",
        "`minne capture` resumes and finishes it: {job}"
    );
    let status = json(minne(&data).args(["status", "--json"]));
    assert_eq!(status["recent_jobs"][0]["status"], "done", "{status:#}");
    assert_eq!(
        status["recent_jobs"][0]["id"], job["id"],
        "the interrupted job itself was resumed, not a new one started"
    );
}
