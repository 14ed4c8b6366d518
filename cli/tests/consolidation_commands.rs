//! Issue 5 with the real binary on small transcripts: commands in conversation act at once in
//! English, Swedish and Danish and the import says what each did, and the review queue's
//! entries show their source quotes and can be edited, confirmed or rejected for good.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::path::Path;

use assert_cmd::Command;
use serde_json::{Value, json};

/// `minne` on `data`, with the small English model (quick to load and run).
fn minne(data: &Path) -> Command {
    let mut cmd = Command::cargo_bin("minne").expect("the minne binary is built for its tests");
    cmd.env("MINNE_DATA_DIR", data)
        .env("MINNE_MODEL", "all-minilm-l6-v2")
        .env_remove("MINNE_CONTEXT");
    cmd
}

fn json_of(cmd: &mut Command) -> Value {
    let out = cmd.assert().success().get_output().stdout.clone();
    serde_json::from_slice(&out).expect("--json prints JSON")
}

fn text_of(cmd: &mut Command) -> String {
    let out = cmd.assert().success().get_output().stdout.clone();
    String::from_utf8(out).unwrap()
}

/// A transcript of `sessions`: (session id, [(timestamp, user's words)]).
fn transcript(sessions: &[(&str, &[(&str, &str)])]) -> String {
    let sessions: Vec<Value> = sessions
        .iter()
        .map(|(id, messages)| {
            let messages: Vec<Value> = messages
                .iter()
                .map(|(at, text)| json!({"role": "user", "text": text, "timestamp": at}))
                .collect();
            json!({"id": id, "messages": messages})
        })
        .collect();
    json!({ "sessions": sessions }).to_string()
}

/// Imports `transcript` from a file named `name` in `dir`, returning the `--json` report.
fn import(data: &Path, dir: &Path, name: &str, transcript: &str) -> Value {
    let file = dir.join(name);
    std::fs::write(&file, transcript).unwrap();
    json_of(
        minne(data)
            .args(["import", "--format", "transcript", "--json"])
            .arg(&file),
    )
}

/// The profile's active values of `attribute`.
fn profile_values(data: &Path, attribute: &str) -> Vec<String> {
    let profile = json_of(minne(data).args(["profile", "--json"]));
    profile["facts"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["attribute"] == attribute)
        .map(|f| f["value"].as_str().unwrap().to_string())
        .collect()
}

/// The outcomes of the commands an import report says it applied.
fn outcomes(report: &Value) -> Vec<String> {
    report["commands"]
        .as_array()
        .expect("the import report lists the commands it applied")
        .iter()
        .map(|c| c["outcome"].as_str().unwrap().to_string())
        .collect()
}

/// Swedish and Danish put "faktiskt"/"faktisk" after the verb ("Jag heter faktiskt …"), where
/// English has "actually" first: the correction must apply at once all the same, and the
/// import must say so. Before the fix the old name stayed current and nothing was reported.
#[test]
fn a_swedish_or_danish_name_correction_applies_at_once_and_is_reported() {
    for (said, correction, old, new) in [
        (
            "Jag heter Anna och jag bor i Lund.",
            "Jag heter faktiskt Anneli, inte Anna.",
            "Anna",
            "Anneli",
        ),
        (
            "Jeg hedder Mette og jeg bor i Aarhus.",
            "Jeg hedder faktisk Mette-Marie, ikke Mette.",
            "Mette",
            "Mette-Marie",
        ),
        (
            "My name is Alice.",
            "Actually my name is Alex, not Alice.",
            "Alice",
            "Alex",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        import(
            &data,
            dir.path(),
            "first.json",
            &transcript(&[("s1", &[("2026-03-02T09:00:00+01:00", said)])]),
        );
        assert_eq!(
            profile_values(&data, "name"),
            [old],
            "`{said}` states the name first (else the test proves nothing)"
        );
        let report = import(
            &data,
            dir.path(),
            "second.json",
            &transcript(&[("s2", &[("2026-03-03T09:00:00+01:00", correction)])]),
        );
        assert_eq!(
            profile_values(&data, "name"),
            [new],
            "`{correction}` corrects the name as soon as it is imported, with no other step"
        );
        assert_eq!(
            outcomes(&report),
            [format!("corrected: name is {new}")],
            "the import reports the correction it applied: no silent success"
        );
        let history = json_of(minne(&data).args(["facts", "--all", "--json"]));
        assert!(
            history
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["attribute"] == "name"
                    && f["value"] == old
                    && f["status"] == "superseded"),
            "the old name stays in history as superseded: {history:#}"
        );
    }
}

/// A remember command whose words name a relative time: capture put the resolved date in
/// brackets after it, and the stored fact once kept half of it ("… in May [2026-05-01 –
/// 2026-05-31", the closing bracket dropped as a mark).
#[test]
fn remember_keeps_the_resolved_date_whole_in_en_sv_da() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let report = import(
        &data,
        dir.path(),
        "chat.json",
        &transcript(&[(
            "s1",
            &[
                (
                    "2026-03-03T09:01:00+01:00",
                    "Remember that the gate code changes in May.",
                ),
                (
                    "2026-03-03T09:02:00+01:00",
                    "Kom ihåg att jag har tandläkartid på torsdag.",
                ),
                (
                    "2026-03-03T09:03:00+01:00",
                    "Husk at min bil skal til syn i marts.",
                ),
            ],
        )]),
    );
    // Tuesday 3 March 2026: "May" is May 2026, "torsdag" Thursday 5 March, "marts" March.
    let stored = [
        "the gate code changes in May [2026-05-01 – 2026-05-31]",
        "jag har tandläkartid på torsdag [2026-03-05]",
        "min bil skal til syn i marts [2026-03-01 – 2026-03-31]",
    ];
    assert_eq!(
        outcomes(&report),
        stored.map(|s| format!("stored: {s}")),
        "each command is reported with what it stored, the date whole"
    );
    assert_eq!(
        profile_values(&data, "statement"),
        stored,
        "what was stored is in the profile at once"
    );
}

/// The review queue from the command line: a repeated request raises one procedure request
/// that shows the user's words it rests on; editing it makes the edited instruction a
/// confirmed procedure, and the same request said again only supports it. A conflict from an
/// older message arriving later can be edited too, and a rejected one is not proposed again
/// when the same words at the same time come in again (another file, another session id).
#[test]
fn review_entries_show_their_quotes_and_can_be_edited_or_rejected_for_good() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let request = "Keep your answers short, please.";
    import(
        &data,
        dir.path(),
        "requests.json",
        &transcript(&[
            ("r1", &[("2026-03-10T09:00:00+01:00", request)]),
            ("r2", &[("2026-03-11T09:00:00+01:00", request)]),
            ("r3", &[("2026-03-12T09:00:00+01:00", request)]),
            ("r4", &[("2026-03-13T09:00:00+01:00", "I live in Tartu.")]),
        ]),
    );
    assert!(
        json_of(minne(&data).args(["profile", "--json"]))["procedures"]
            .as_array()
            .unwrap()
            .is_empty(),
        "a request said three times is no procedure by itself (seed 003)"
    );
    let queue = json_of(minne(&data).args(["review", "--json"]));
    let entries = queue.as_array().unwrap();
    assert_eq!(entries.len(), 1, "one procedure request: {queue:#}");
    let id = entries[0]["id"].as_i64().unwrap();
    let listed = text_of(minne(&data).arg("review"));
    assert_eq!(
        listed.matches("Keep your answers short, please.\"").count(),
        3,
        "the entry lists the three messages it rests on, each quoted: {listed}"
    );

    let edited = "Keep answers to three sentences";
    minne(&data)
        .args(["review", "edit", &id.to_string(), edited])
        .assert()
        .success();
    let procedures = json_of(minne(&data).args(["profile", "--json"]))["procedures"].clone();
    assert_eq!(
        procedures
            .as_array()
            .unwrap()
            .iter()
            .map(|p| (
                p["instruction"].as_str().unwrap(),
                p["confidence"].as_str().unwrap()
            ))
            .collect::<Vec<_>>(),
        [(edited, "confirmed")],
        "the edited instruction is the user's confirmed procedure: {procedures:#}"
    );
    import(
        &data,
        dir.path(),
        "again.json",
        &transcript(&[("r5", &[("2026-03-14T09:00:00+01:00", request)])]),
    );
    assert!(
        json_of(minne(&data).args(["review", "--json"]))
            .as_array()
            .unwrap()
            .is_empty(),
        "the request said again is not proposed again once answered"
    );
    let procedures = json_of(minne(&data).args(["profile", "--json"]))["procedures"].clone();
    assert_eq!(
        procedures[0]["sources"].as_array().map(Vec::len),
        Some(4),
        "it supports the edited procedure: {procedures:#}"
    );

    // Older than the current Tartu, arriving later: a conflict, not a silent replacement.
    let old = transcript(&[("o1", &[("2026-01-10T09:00:00+01:00", "I live in Tallinn.")])]);
    import(&data, dir.path(), "old.json", &old);
    assert_eq!(profile_values(&data, "location"), ["Tartu"]);
    let queue = json_of(minne(&data).args(["review", "--json"]));
    assert_eq!(queue[0]["kind"], "conflict", "{queue:#}");
    let conflict = queue[0]["id"].as_i64().unwrap();
    minne(&data)
        .args(["review", "reject", &conflict.to_string()])
        .assert()
        .success();
    // The same words at the same time, in another file under another session id.
    let same = transcript(&[("o2", &[("2026-01-10T09:00:00+01:00", "I live in Tallinn.")])]);
    let report = import(&data, dir.path(), "old-again.json", &same);
    assert_eq!(
        report["messages_added"], 1,
        "the message is new to the store (else the test proves nothing)"
    );
    assert!(
        json_of(minne(&data).args(["review", "--json"]))
            .as_array()
            .unwrap()
            .is_empty(),
        "a rejected conflict is not proposed again from the same evidence"
    );
    assert_eq!(profile_values(&data, "location"), ["Tartu"]);

    // A later, different delayed value: a new conflict, and editing it confirms the edit.
    let other = transcript(&[("o3", &[("2026-02-10T09:00:00+01:00", "I live in Narva.")])]);
    import(&data, dir.path(), "other.json", &other);
    let queue = json_of(minne(&data).args(["review", "--json"]));
    let Some(entry) = queue.as_array().unwrap().first() else {
        panic!("an older value arriving later is a conflict: {queue:#}");
    };
    minne(&data)
        .args([
            "review",
            "edit",
            &entry["id"].as_i64().unwrap().to_string(),
            "Narva, Estonia",
        ])
        .assert()
        .success();
    assert_eq!(
        profile_values(&data, "location"),
        ["Narva, Estonia"],
        "the edited value is the one the user confirmed; the other is history"
    );
}

/// `minne items` lists the open items and `minne items done ID` sets one done (issue 5: "done"
/// is detected when the user reports it, or set by the user); the user's word holds through
/// a later consolidation, and `reopen` undoes it.
#[test]
fn the_user_sets_an_open_item_done_and_it_stays_done() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = dir.path().join("chat.json");
    std::fs::write(
        &file,
        r#"{"sessions": [{"id": "s", "messages": [
  {"role": "user", "text": "I'll send the proposal to Acme on Friday.", "timestamp": "2026-03-02T09:00:00+01:00"}
]}]}"#,
    )
    .unwrap();
    let run = |args: &[&str]| {
        let out = Command::cargo_bin("minne")
            .unwrap()
            .env("MINNE_DATA_DIR", &data)
            .env_remove("MINNE_CONTEXT")
            .args(args)
            .assert()
            .success();
        String::from_utf8_lossy(&out.get_output().stdout).to_string()
    };
    run(&["import", "--format", "transcript", file.to_str().unwrap()]);
    let open: serde_json::Value = serde_json::from_str(&run(&["items", "--json"])).unwrap();
    let open = open.as_array().unwrap();
    assert_eq!(open.len(), 1, "the promise is one open item: {open:?}");
    let id = open[0]["id"].to_string();
    assert!(run(&["items", "done", &id]).contains("is done"));
    let after: serde_json::Value = serde_json::from_str(&run(&["items", "--json"])).unwrap();
    assert_eq!(after, serde_json::json!([]), "no open item is left");
    run(&["consolidate"]);
    let all: serde_json::Value = serde_json::from_str(&run(&["items", "--all", "--json"])).unwrap();
    assert_eq!(
        all[0]["status"], "done",
        "a consolidation keeps the user's word: {all}"
    );
    run(&["items", "reopen", &id]);
    let again: serde_json::Value = serde_json::from_str(&run(&["items", "--json"])).unwrap();
    assert_eq!(again.as_array().unwrap().len(), 1, "open again");
    let missing = Command::cargo_bin("minne")
        .unwrap()
        .env("MINNE_DATA_DIR", &data)
        .args(["items", "done", "9999"])
        .assert()
        .failure();
    let err = String::from_utf8_lossy(&missing.get_output().stderr).to_string();
    assert!(err.contains("minne items --all"), "{err}");
}
