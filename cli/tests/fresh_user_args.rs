//! What a fresh-user tester found in the command line's arguments, on the real binary and
//! real files: `forget --from/--to` took only full RFC 3339 times; `context --budget 1` was
//! taken where the MCP tool `context` refuses anything outside 50 to 10,000; `forget
//! --everything` with a mistyped `--data-dir` created that dir.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

/// Two user decisions on 2 March 2026 at 09:20 and 09:25 (+01:00), that is 08:20 and 08:25
/// UTC, and one on 4 March at 10:00 (+01:00), 09:00 UTC.
const THREE: &str = r#"{"sessions": [
  {"id": "plans", "messages": [
    {"role": "user", "text": "We decided to move the team offsite to Gothenburg in May.", "timestamp": "2026-03-02T09:20:00+01:00"},
    {"role": "user", "text": "I decided to learn the cello this autumn.", "timestamp": "2026-03-02T09:25:00+01:00"}
  ]},
  {"id": "later", "messages": [
    {"role": "user", "text": "We decided to paint the kitchen green next week.", "timestamp": "2026-03-04T10:00:00+01:00"}
  ]}
]}"#;

/// The local time zone of these tests: HST, UTC−10:00 all year (a POSIX TZ string, so no
/// time zone files are needed). In it the two 2 March messages were written on 1 March, at
/// 22:20 and 22:25, so a plain date read as UTC and one read as local time differ.
const TZ: &str = "HST10";

fn minne(data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("minne").expect("the minne binary is built for its tests");
    cmd.env("MINNE_DATA_DIR", data)
        .env("MINNE_MODEL", "all-minilm-l6-v2")
        .env("TZ", TZ)
        .env_remove("MINNE_CONTEXT")
        .env_remove("MINNE_PASSPHRASE")
        .env_remove("MINNE_CONFIG_DIR");
    cmd
}

/// A data dir holding THREE in `personal`.
fn imported(dir: &Path) -> std::path::PathBuf {
    let data = dir.join("data");
    let file = dir.join("three.json");
    std::fs::write(&file, THREE).unwrap();
    minne(&data)
        .args(["import", "--format", "transcript"])
        .arg(&file)
        .assert()
        .success();
    data
}

fn forget_json(data: &Path, range: &[&str]) -> Value {
    let out = minne(data)
        .args(["forget", "--yes", "--json"])
        .args(range)
        .assert()
        .success()
        .get_output()
        .stdout
        .clone();
    serde_json::from_slice(&out).expect("--json prints JSON")
}

#[test]
fn forget_from_to_takes_a_plain_date_as_the_whole_local_day() {
    let dir = tempfile::tempdir().unwrap();
    let data = imported(dir.path());
    // 1 March in HST runs from 2026-03-01T10:00Z to 2026-03-02T10:00Z, which holds the two
    // messages of 08:20Z and 08:25Z and not the one of 4 March; `--to 2026-03-01` ends where
    // 2 March begins, so the day is included. Read as UTC, 1 March would hold nothing.
    let receipt = forget_json(&data, &["--from", "2026-03-01", "--to", "2026-03-01"]);
    assert_eq!(
        receipt["messages"], 2,
        "the local 1 March holds the two messages of 22:20 and 22:25 HST: {receipt}"
    );
    // 2 March in HST (2026-03-02T10:00Z to 2026-03-03T10:00Z) now holds nothing.
    let none = forget_json(&data, &["--from", "2026-03-02", "--to", "2026-03-02"]);
    assert_eq!(none["messages"], 0, "{none}");
    // The 4 March message (09:00Z, 23:00 on 3 March in HST) is still there.
    let last = forget_json(&data, &["--from", "2026-03-03"]);
    assert_eq!(last["messages"], 1, "{last}");
}

#[test]
fn forget_from_to_takes_a_local_time_without_an_offset() {
    let dir = tempfile::tempdir().unwrap();
    let data = imported(dir.path());
    // 22:22 to 23:00 HST on 1 March is 08:22Z to 09:00Z on 2 March: only the message of
    // 08:25Z (09:25+01:00) is in it, not the one of 08:20Z.
    let receipt = forget_json(
        &data,
        &["--from", "2026-03-01T22:22", "--to", "2026-03-01 23:00"],
    );
    assert_eq!(receipt["messages"], 1, "{receipt}");
    assert_eq!(
        receipt["from"], "2026-03-02T08:25:00Z",
        "the one forgotten is the 09:25+01:00 message: {receipt}"
    );
    // An RFC 3339 time still means that very instant, whatever the local zone.
    let exact = forget_json(
        &data,
        &[
            "--from",
            "2026-03-02T09:20:00+01:00",
            "--to",
            "2026-03-02T08:21:00Z",
        ],
    );
    assert_eq!(exact["messages"], 1, "{exact}");
}

#[test]
fn forget_from_with_a_time_it_cannot_read_names_the_forms_and_forgets_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = imported(dir.path());
    let cases: [(&str, &[&str]); 2] = [
        ("--from", &["--from", "02/03/2026"]),
        ("--to", &["--from", "2026-03-01", "--to", "tomorrow"]),
    ];
    for (flag, range) in cases {
        let out = minne(&data)
            .args(["forget", "--yes"])
            .args(range)
            .assert()
            .failure()
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8_lossy(&out);
        assert!(
            err.contains(flag)
                && err.contains("(2026-03-02)")
                && err.contains("(2026-03-02T09:00)")
                && err.contains("(2026-03-02T09:00:00+01:00)"),
            "{range:?} must be refused naming {flag} and the three forms taken: {err}"
        );
    }
    // Nothing went: all three messages are still there.
    let all = forget_json(&data, &["--from", "2026-01-01"]);
    assert_eq!(all["messages"], 3, "{all}");
}

#[test]
fn context_budget_takes_what_the_mcp_tool_takes_and_names_the_range_otherwise() {
    let dir = tempfile::tempdir().unwrap();
    let data = imported(dir.path());
    // The MCP tool `context` documents 50 to 10,000 estimated tokens (README, `minne mcp`'s
    // tool table) and refuses 10 and 20,000 (tests/mcp_context.rs): the CLI takes the same.
    for inside in ["50", "500", "10000"] {
        minne(&data)
            .args(["context", "--session-start", "--budget", inside])
            .assert()
            .success();
    }
    for outside in ["0", "1", "49", "10001"] {
        let out = minne(&data)
            .args(["context", "--session-start", "--budget", outside])
            .assert()
            .failure()
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8_lossy(&out);
        assert!(
            err.contains("50..=10000"),
            "--budget {outside} is outside the tool's range and the refusal says the range: {err}"
        );
    }
    assert_eq!(
        (
            minne::session_start::BUDGET_MIN,
            minne::session_start::BUDGET_MAX
        ),
        (50, 10_000),
        "the one bound both front ends read"
    );
}

#[test]
fn forget_everything_with_a_mistyped_data_dir_creates_nothing_and_says_what_to_check() {
    let dir = tempfile::tempdir().unwrap();
    // Real data sits in `data`; the user typed `dta`, which does not exist.
    let data = imported(dir.path());
    let typo = dir.path().join("dta");
    let typo_keys = dir.path().join("dta.keys");
    // With --yes it forgot "everything" in two new, empty contexts; without it, it said
    // "no context holds anything"; both made the dir and a key folder beside it.
    for flags in [
        &["--everything", "--yes"][..],
        &["--everything"],
        &["--everything", "--json"],
    ] {
        let out = minne(&data)
            .arg("--data-dir")
            .arg(&typo)
            .arg("forget")
            .args(flags)
            .assert()
            .failure()
            .get_output()
            .stderr
            .clone();
        let err = String::from_utf8_lossy(&out);
        assert!(
            err.contains("no Minne data at") && err.contains("--data-dir"),
            "forget {flags:?}: a data dir holding no Minne data is named as the likely typo: {err}"
        );
        // Nothing may be made: neither the dir, its contexts nor a key folder beside it.
        assert!(
            !typo.exists() && !typo_keys.exists(),
            "forget {flags:?} created {} or its keys",
            typo.display()
        );
    }
    // And the real data was not touched.
    let all = forget_json(&data, &["--from", "2026-01-01"]);
    assert_eq!(all["messages"], 3, "{all}");
}

/// `list --from` alone runs up to now, as `forget --from` alone does (a fresh user found
/// that `list` demanded `--to` where `forget` did not).
#[test]
fn list_from_alone_runs_until_now() {
    let dir = tempfile::tempdir().unwrap();
    let data = imported(dir.path());
    // From 3 March in HST (2026-03-03T10:00Z) on, only the 4 March 09:00Z message is there;
    // from 1 March (2026-03-01T10:00Z) on, all three.
    let out = minne(&data)
        .args(["list", "--json", "--from", "2026-03-03"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let late: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(late.as_array().unwrap().len(), 1, "{late}");
    let out = minne(&data)
        .args(["list", "--json", "--from", "2026-03-01"])
        .output()
        .unwrap();
    let all: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(all.as_array().unwrap().len(), 3, "{all}");
}

/// `list` shows each time in the zone `--from`/`--to` read it in, so a time on screen can be
/// typed back: a tester read unlabelled UTC times as local ones. In HST (UTC−10:00) the
/// 09:20 +01:00 message (08:20Z) was written at 22:20 on 1 March, and the 4 March 10:00
/// +01:00 one (09:00Z) at 23:00 on 3 March (by hand).
#[test]
fn list_shows_times_in_the_local_zone() {
    let dir = tempfile::tempdir().unwrap();
    let data = imported(dir.path());
    let out = minne(&data).args(["list"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for (local, what) in [
        ("2026-03-01 22:20", "offsite"),
        ("2026-03-01 22:25", "cello"),
        ("2026-03-03 23:00", "kitchen"),
    ] {
        assert!(
            text.lines().any(|l| l.contains(local) && l.contains(what)),
            "the `{what}` memory shows {local} HST:\n{text}"
        );
    }
    assert!(
        !text.contains("08:20") && !text.contains("09:00"),
        "no UTC time is shown:\n{text}"
    );
    // A time on screen, typed back, is that memory's minute: from 22:25 on, two are left.
    let out = minne(&data)
        .args(["list", "--json", "--from", "2026-03-01 22:25"])
        .output()
        .unwrap();
    let from: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(from.as_array().unwrap().len(), 2, "{from}");
}
