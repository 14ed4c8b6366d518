//! "Don't remember this: …" takes the words out of the transcript, not only out of memory: the
//! message and the reply to it are replaced by [`WITHHELD`], their words leave the database
//! file and its write-ahead log, exports hold the marker (JSON) or nothing (Markdown), and no
//! re-import brings the words back. Real SQLite files, encryption off so the byte scans prove
//! the words are gone rather than encrypted (tests/encryption.rs covers the encrypted files).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::{DateTime, FixedOffset, TimeZone, Utc};
use minne::capture::WITHHELD;
use minne::clock::FixedClock;
use minne::export::ExportFormat;
use minne::import::{ImportFormat, ImportOptions, NewMessage, NewSession};
use minne::model::Role;
use minne::{ContextName, Engine};

/// The private figure, said by the user and echoed by the assistant.
const SALARY: &str = "80000";
/// Words only the assistant's echo holds.
const ECHO: &str = "keep that between us";
/// Words of a kept message: found in the files, so a scan that finds nothing else is a scan
/// that works.
const KEPT: &str = "community orchestra";

fn t(h: u32, m: u32, s: u32) -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 3, 2, h, m, s).unwrap()
}

fn open(data: &Path, context: &str, clock: Arc<FixedClock>) -> Engine {
    Engine::open_with(
        data,
        &ContextName::new(context).unwrap(),
        &minne::keys::KeyConfig::unencrypted(),
        common::real_embedder(),
        clock,
    )
    .unwrap()
}

/// A conversation in which the user's first message asks not to be kept and the assistant's
/// reply repeats it; the second exchange is ordinary.
fn conversation(dir: &Path) -> PathBuf {
    let path = dir.join("chat.json");
    let json = serde_json::json!({"sessions": [{"id": "s1", "messages": [
        {"role": "user", "text": format!("Don't remember this: my salary is {SALARY} SEK."), "timestamp": "2026-03-02T09:00:00+01:00"},
        {"role": "assistant", "text": format!("Understood, {SALARY} SEK a month, I will {ECHO}."), "timestamp": "2026-03-02T09:00:20+01:00"},
        {"role": "user", "text": format!("I play the cello in a {KEPT} on Thursday evenings."), "timestamp": "2026-03-02T09:05:00+01:00"},
        {"role": "assistant", "text": "That sounds lovely, the cello suits you.", "timestamp": "2026-03-02T09:05:30+01:00"}
    ]}]});
    std::fs::write(&path, json.to_string()).unwrap();
    path
}

fn transcript_import() -> ImportOptions {
    ImportOptions::new(ImportFormat::Transcript)
}

/// The words of every message of the day, oldest first.
fn transcript(engine: &Engine) -> Vec<String> {
    engine
        .list_time_range(t(0, 0, 0), t(23, 59, 59))
        .unwrap()
        .into_iter()
        .map(|m| m.text)
        .collect()
}

fn episode_texts(engine: &Engine) -> Vec<String> {
    engine
        .list_episodes(100, 0)
        .unwrap()
        .into_iter()
        .map(|e| e.text)
        .collect()
}

/// Whether the file at `path` holds `needle` (ASCII case ignored); a missing file holds nothing.
fn holds(path: &Path, needle: &str) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let (bytes, needle) = (bytes.to_ascii_lowercase(), needle.to_ascii_lowercase());
    bytes.windows(needle.len()).any(|w| w == needle.as_bytes())
}

/// The context's database file and its write-ahead log.
fn db_and_wal(engine: &Engine) -> [PathBuf; 2] {
    let db = engine.db_path().to_path_buf();
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    [db, PathBuf::from(wal)]
}

fn assert_words_absent(engine: &Engine, when: &str) {
    for file in db_and_wal(engine) {
        for needle in [SALARY, ECHO] {
            assert!(
                !holds(&file, needle),
                "{when}: {} still holds `{needle}`: the words must leave the files",
                file.display()
            );
        }
    }
}

#[test]
fn withheld_words_leave_the_files_the_exports_and_do_not_come_back() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let file = conversation(dir.path());
    let clock = Arc::new(FixedClock::new(t(10, 0, 0)));
    let mut engine = open(&data, "personal", clock.clone());

    let report = engine
        .import(&file, &transcript_import(), &mut |_| {})
        .unwrap();
    assert_eq!(report.messages_added, 4, "all four turns are new");
    assert_eq!(
        report.messages_withheld, 1,
        "one user message asked not to be kept (the reply withheld with it is not the user's)"
    );
    // Worked out by hand: the first exchange is withheld, the second kept word for word.
    assert_eq!(
        transcript(&engine),
        vec![
            WITHHELD.to_string(),
            WITHHELD.to_string(),
            format!("I play the cello in a {KEPT} on Thursday evenings."),
            "That sounds lovely, the cello suits you.".to_string(),
        ],
        "the request and its echo are the marker; the rest is as said"
    );
    let episodes = episode_texts(&engine);
    assert!(
        episodes.iter().any(|e| e.contains("cello")),
        "the kept message is a memory: {episodes:?}"
    );
    assert!(
        episodes
            .iter()
            .all(|e| !e.contains(SALARY) && !e.contains(ECHO) && !e.contains("not kept")),
        "nothing of the withheld exchange, nor of the marker, is a memory: {episodes:?}"
    );

    // While the context is still open: the checkpoint after capture, not the close, must
    // have taken the words out of the log.
    assert!(
        db_and_wal(&engine).iter().any(|f| holds(f, KEPT)),
        "the scan finds the kept words in the files (else it proves nothing)"
    );
    assert_words_absent(&engine, "after import and capture");

    let json_export = dir.path().join("export.json");
    let markdown_export = dir.path().join("export.md");
    engine.export(ExportFormat::Json, &json_export).unwrap();
    let md = engine
        .export(ExportFormat::Markdown, &markdown_export)
        .unwrap();
    let json = std::fs::read_to_string(&json_export).unwrap();
    assert_eq!(
        json.matches(WITHHELD).count(),
        2,
        "the JSON keeps the two withheld turns as the marker, in place: {json}"
    );
    let markdown = std::fs::read_to_string(&markdown_export).unwrap();
    assert!(
        markdown.contains("cello") && !markdown.contains(WITHHELD),
        "the Markdown leaves withheld turns out: {markdown}"
    );
    assert_eq!(md.messages, 2, "the Markdown report counts what it wrote");
    for (name, text) in [("JSON", &json), ("Markdown", &markdown)] {
        assert!(
            !text.contains(SALARY) && !text.contains(ECHO),
            "the {name} export holds none of the withheld words: {text}"
        );
    }

    let again = engine
        .import(&file, &transcript_import(), &mut |_| {})
        .unwrap();
    assert_eq!(
        again.messages_added, 0,
        "the tombstones keep a re-import of the original file from restoring the words"
    );
    let own = engine
        .import(&json_export, &transcript_import(), &mut |_| {})
        .unwrap();
    assert_eq!(
        own.messages_added, 0,
        "Minne's own JSON export re-imports as itself: the marker turns carry their own keys"
    );
    assert_eq!(transcript(&engine).len(), 4, "nothing was added back");
    assert_words_absent(&engine, "after the re-imports");
    drop(engine);
    for needle in [SALARY, ECHO] {
        assert_eq!(
            common::occurrences(&data, needle),
            Vec::<String>::new(),
            "no file under the data dir holds `{needle}`"
        );
    }

    // The export restored into another context: the marker turns are withheld again, and
    // the marker words make no memory.
    let mut work = open(&data, "work", clock);
    let restored = work
        .import(&json_export, &transcript_import(), &mut |_| {})
        .unwrap();
    assert_eq!(restored.messages_added, 4, "the export holds four turns");
    assert_eq!(
        restored.messages_withheld, 1,
        "the user's marker turn counts as withheld"
    );
    assert_eq!(
        transcript(&work)[..2],
        [WITHHELD.to_string(), WITHHELD.to_string()],
        "the marker turns stay the marker"
    );
    let episodes = episode_texts(&work);
    assert!(
        episodes.iter().all(|e| !e.contains("not kept")),
        "no episode from the marker words: {episodes:?}"
    );
    let twice = work
        .import(&json_export, &transcript_import(), &mut |_| {})
        .unwrap();
    assert_eq!(twice.messages_added, 0, "restoring twice adds nothing");
}

fn message(id: &str, role: Role, text: &str, at: DateTime<Utc>) -> NewMessage {
    NewMessage {
        external_id: Some(id.to_string()),
        role,
        actor: role.as_str().to_string(),
        text: text.to_string(),
        sent_at: at.with_timezone(&FixedOffset::east_opt(3600).unwrap()),
    }
}

fn store(engine: &mut Engine, key: &str, messages: Vec<NewMessage>) -> minne::import::ImportReport {
    engine
        .import_sessions(
            &[NewSession {
                key: key.to_string(),
                messages,
            }],
            "mcp",
            &mut |_| {},
        )
        .unwrap()
}

/// The MCP `remember` tool stores one message per call, each captured at once: the reply to
/// a withheld message arrives in a later capture job and is withheld all the same, whether
/// the call repeats the earlier turns (as `remember` does) or holds the reply alone. The next
/// user message, and the reply to it, are kept.
#[test]
fn a_reply_that_arrives_in_a_later_call_is_withheld_and_the_next_exchange_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(FixedClock::new(t(12, 0, 0)));
    let mut engine = open(&data, "personal", clock);
    let request = message(
        "mcp-1",
        Role::User,
        &format!("Off the record: my salary is {SALARY} SEK."),
        t(9, 0, 0),
    );
    let echo = message(
        "mcp-2",
        Role::Assistant,
        &format!("I will {ECHO}: {SALARY} SEK stays off the record."),
        t(9, 0, 30),
    );
    let next = message(
        "mcp-3",
        Role::User,
        "I'll call the dentist tomorrow about my tooth.",
        t(9, 1, 0),
    );
    let answer = message(
        "mcp-4",
        Role::Assistant,
        "Good idea, the dentist will know.",
        t(9, 1, 30),
    );

    let first = store(&mut engine, "mcp:buffered", vec![request.clone()]);
    assert_eq!(first.messages_withheld, 1, "the request is withheld");
    // As `remember` does: each call repeats the session so far.
    let second = store(
        &mut engine,
        "mcp:buffered",
        vec![request.clone(), echo.clone()],
    );
    assert_eq!(
        second.messages_added, 1,
        "only the reply is new: the request's words are tombstoned"
    );
    store(
        &mut engine,
        "mcp:buffered",
        vec![request.clone(), echo.clone(), next.clone()],
    );
    store(
        &mut engine,
        "mcp:buffered",
        vec![request.clone(), echo.clone(), next.clone(), answer.clone()],
    );
    assert_eq!(
        transcript(&engine),
        vec![
            WITHHELD.to_string(),
            WITHHELD.to_string(),
            next.text.clone(),
            answer.text.clone(),
        ],
        "the reply to the withheld request is withheld; the next exchange is as said"
    );

    // A caller that sends the reply alone, a minute later, in its own call.
    let later = |m: &NewMessage, id: &str| NewMessage {
        external_id: Some(id.to_string()),
        sent_at: m.sent_at + chrono::Duration::hours(1),
        ..m.clone()
    };
    store(&mut engine, "mcp:alone", vec![later(&request, "alone-1")]);
    store(&mut engine, "mcp:alone", vec![later(&echo, "alone-2")]);
    let alone: Vec<String> = engine
        .list_time_range(t(10, 0, 0), t(11, 0, 0))
        .unwrap()
        .into_iter()
        .map(|m| m.text)
        .collect();
    assert_eq!(
        alone,
        vec![WITHHELD.to_string(), WITHHELD.to_string()],
        "the stored request, now the marker, withholds the reply sent on its own"
    );

    let episodes = episode_texts(&engine);
    assert!(
        episodes.iter().any(|e| e.contains("dentist")),
        "the next user message is a memory: {episodes:?}"
    );
    assert!(
        episodes
            .iter()
            .all(|e| !e.contains(SALARY) && !e.contains(ECHO)),
        "{episodes:?}"
    );
    assert_words_absent(&engine, "after the one-at-a-time captures");
}

/// Two replies of one speaker in the same second after a withheld request end up with the
/// same words and time: both are withheld all the same (their dedupe keys would have been
/// equal), and the JSON export still re-imports as itself.
#[test]
fn two_replies_in_one_second_are_both_withheld() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(FixedClock::new(t(12, 0, 0)));
    let mut engine = open(&data, "personal", clock);
    let messages = vec![
        NewMessage {
            external_id: None,
            ..message(
                "",
                Role::User,
                &format!("Don't save this: the safe code is {SALARY}."),
                t(9, 0, 0),
            )
        },
        NewMessage {
            external_id: None,
            ..message(
                "",
                Role::Assistant,
                &format!("Code {SALARY}, noted."),
                t(9, 0, 5),
            )
        },
        NewMessage {
            external_id: None,
            ..message("", Role::Assistant, &format!("I will {ECHO}."), t(9, 0, 5))
        },
    ];
    let report = store(&mut engine, "chat:twins", messages);
    assert_eq!(report.messages_added, 3);
    assert_eq!(transcript(&engine), vec![WITHHELD.to_string(); 3]);
    let export = dir.path().join("twins.json");
    engine.export(ExportFormat::Json, &export).unwrap();
    let again = engine
        .import(&export, &transcript_import(), &mut |_| {})
        .unwrap();
    assert_eq!(again.messages_added, 0, "the export re-imports as itself");
    assert_words_absent(&engine, "after capture");
}

/// Saying one does not remember something is no request: the message and the reply stay as
/// they were said.
#[test]
fn a_message_that_only_mentions_not_remembering_is_kept() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = Arc::new(FixedClock::new(t(12, 0, 0)));
    let mut engine = open(&data, "personal", clock);
    let said = vec![
        message(
            "m1",
            Role::User,
            "I don't remember that film we saw in Lund, the one with the lighthouse.",
            t(9, 0, 0),
        ),
        message(
            "m2",
            Role::Assistant,
            "It might have been The Lighthouse from 2019.",
            t(9, 0, 30),
        ),
    ];
    let report = store(&mut engine, "chat:film", said.clone());
    assert_eq!(report.messages_withheld, 0, "no request not to keep");
    assert_eq!(
        transcript(&engine),
        said.iter().map(|m| m.text.clone()).collect::<Vec<_>>(),
        "both turns are stored as said"
    );
}
