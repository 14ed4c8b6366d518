//! Hostile input (issue 30), on real SQLite files: a time no reader can parse never reaches
//! the store, a store that already holds one (written by an older build) still reads,
//! exports and forgets, and every time bound of a range either covers what it says or is
//! refused. Each test is named after the finding it came from.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, Duration, FixedOffset, TimeZone, Utc};
use minne::clock::FixedClock;
use minne::embed::HashEmbedder;
use minne::forget::ForgetScope;
use minne::import::{NewMessage, NewSession};
use minne::keys::KeyConfig;
use minne::model::Role;
use minne::{ContextName, Engine};
use proptest::prelude::*;

mod common;

/// An unencrypted context `personal` in `data` with the small deterministic embedder (these
/// tests are about times and bytes, not about meaning), its clock at 2026-12-06 12:00 UTC.
fn open(data: &Path) -> Engine {
    open_with(data, Arc::new(HashEmbedder::new(64)))
}

/// [`open`] with `embedder`, in `<data>/data` so nothing lands beside the temp dir.
fn open_with(data: &Path, embedder: Arc<dyn minne::embed::Embedder>) -> Engine {
    let clock = Arc::new(FixedClock::new(
        Utc.with_ymd_and_hms(2026, 12, 6, 12, 0, 0).unwrap(),
    ));
    Engine::open_with(
        &data.join("data"),
        &ContextName::new("personal").unwrap(),
        &KeyConfig::unencrypted(),
        embedder,
        clock,
    )
    .unwrap()
}

fn utc(s: &str) -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339(s).unwrap()
}

fn session(key: &str, turns: &[(&str, DateTime<FixedOffset>)]) -> NewSession {
    NewSession {
        key: key.to_string(),
        messages: turns
            .iter()
            .enumerate()
            .map(|(i, (text, at))| NewMessage {
                external_id: Some(format!("{key}-{i}")),
                role: Role::User,
                actor: "user".into(),
                text: text.to_string(),
                sent_at: *at,
            })
            .collect(),
    }
}

fn count(engine: &Engine, table: &str) -> i64 {
    let conn = minne::keys::open_connection(engine.db_path(), &KeyConfig::unencrypted()).unwrap();
    conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

#[test]
fn finding_1_an_import_dated_before_1900_or_after_8999_keeps_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = open(dir.path());
    // Each is refused whole, even with a good message beside it: what the report would
    // call "nothing was kept" must be true of the store.
    let good = (
        "We decided to paint the kitchen green.",
        utc("2026-03-02T09:00:00+01:00"),
    );
    let wild = [
        // ChatGPT's create_time -1e12 (what the finding imported), as a parsed time.
        DateTime::from_timestamp(-1_000_000_000_000, 0)
            .unwrap()
            .fixed_offset(),
        // The last second of 1899 (UTC), and a local time in 1900 that is 1899 in UTC.
        utc("1899-12-31T23:59:59Z"),
        utc("1900-01-01T00:30:00+01:00"),
        // Year 0 and the far end of the calendar.
        utc("0000-01-01T00:00:00Z"),
        utc("9000-01-01T00:00:00Z"),
    ];
    for at in wild {
        let e = engine
            .import_sessions(
                &[session("hostile", &[good, ("I bought a boat.", at)])],
                "hostile.json",
                &mut |_| {},
            )
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("1900-01-01") && e.contains("nothing was imported"),
            "the error names the range Minne stores and says nothing was kept: {e}"
        );
        assert_eq!(count(&engine, "messages"), 0, "{at}: no message was stored");
        assert_eq!(count(&engine, "sessions"), 0, "{at}: no session was stored");
    }
    // The first and last storable instants are stored, and the store still reads.
    let edges = [
        (
            "We decided to sell the old piano.",
            utc("1900-01-01T00:00:00Z"),
        ),
        ("I promised to call the bank.", utc("8999-12-31T23:59:59Z")),
    ];
    engine
        .import_sessions(&[session("edges", &edges)], "edges.json", &mut |_| {})
        .unwrap();
    assert_eq!(count(&engine, "messages"), 2);
    assert_eq!(
        engine.list_episodes(50, 0).unwrap().len(),
        count(&engine, "episodes") as usize
    );
}

#[test]
fn finding_1_a_store_holding_a_time_no_reader_parsed_still_reads_exports_and_forgets() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = open(dir.path());
    engine
        .import_sessions(
            &[session(
                "old",
                &[
                    (
                        "We decided to move to Malmö in May.",
                        utc("2026-03-02T09:00:00+01:00"),
                    ),
                    (
                        "I promised Lena to water her plants.",
                        utc("2026-03-02T09:05:00+01:00"),
                    ),
                ],
            )],
            "old.json",
            &mut |_| {},
        )
        .unwrap();
    let path = engine.db_path().to_path_buf();
    drop(engine);
    // What an older build stored for create_time -1e12 (chrono's own text for that time),
    // in every time column a message and its session carry.
    let bad = "-29719-04-05T22:13:20.000Z";
    {
        let conn = minne::keys::open_connection(&path, &KeyConfig::unencrypted()).unwrap();
        conn.execute("UPDATE messages SET sent_at = ?1 WHERE seq = 0", [bad])
            .unwrap();
        conn.execute("UPDATE sessions SET started_at = ?1, ended_at = ?1", [bad])
            .unwrap();
        conn.execute("UPDATE episodes SET occurred_at = ?1", [bad])
            .unwrap();
    }
    let mut engine = open(dir.path());
    assert_eq!(
        engine.list_episodes(50, 0).unwrap().len(),
        2,
        "both memories list"
    );
    engine.capture_status(5).unwrap();
    let export = dir.path().join("out.json");
    engine
        .export(minne::export::ExportFormat::Json, &export)
        .expect("the store exports");
    let receipt = engine.forget(&ForgetScope::Context).unwrap();
    assert_eq!(
        receipt.messages, 2,
        "forgetting the whole context takes both messages"
    );
    assert_eq!(count(&engine, "messages"), 0);
}

/// The messages of the range tests: the first and last storable instants, the UNIX epoch,
/// and times around today, one per line so a range's expected count is worked out from the
/// times alone.
fn spread() -> Vec<DateTime<FixedOffset>> {
    [
        "1900-01-01T00:00:00Z",
        "1969-12-31T23:59:59Z",
        "1970-01-01T00:00:00Z",
        "2026-01-15T08:30:00+01:00",
        "2026-07-15T08:30:00+02:00",
        "2026-12-31T23:59:59.999Z",
        "4000-02-29T12:00:00Z",
        "8999-12-31T23:59:59Z",
    ]
    .iter()
    .map(|s| utc(s))
    .collect()
}

fn spread_store(dir: &Path) -> Engine {
    let mut engine = open(dir);
    let times = spread();
    let texts: Vec<String> = (0..times.len())
        .map(|i| format!("We decided to keep box number {i} in the attic."))
        .collect();
    let turns: Vec<(&str, DateTime<FixedOffset>)> =
        texts.iter().map(String::as_str).zip(times).collect();
    engine
        .import_sessions(&[session("spread", &turns)], "spread.json", &mut |_| {})
        .unwrap();
    engine
}

#[test]
fn finding_4_a_range_to_the_end_of_9999_covers_every_message_after_its_start() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = spread_store(dir.path());
    // `--to 9999-12-31` is the first moment of 10000-01-01: after every stored time.
    let to = Utc.with_ymd_and_hms(10000, 1, 1, 0, 0, 0).unwrap();
    let from = Utc.with_ymd_and_hms(2026, 1, 1, 0, 0, 0).unwrap();
    let listed = engine.list_time_range(from, to).unwrap();
    // By hand: the times from 2026-01-15 on (5 of the 8).
    assert_eq!(
        listed.len(),
        5,
        "list covers 2026 to the end of the calendar"
    );
    let scope = ForgetScope::TimeRange { from, to };
    assert_eq!(engine.preview_forget(&scope).unwrap().messages, 5);
    assert_eq!(
        engine.forget(&scope).unwrap().messages,
        5,
        "forget takes them"
    );
    assert_eq!(count(&engine, "messages"), 3);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, .. ProptestConfig::default() })]

    /// Over the bounds a user can give (any second from 1800 to the end of year 9999, past
    /// it as `--to` of 9999-12-31 is), `list --from/--to` and a forget's preview hold exactly
    /// the stored messages with from <= time < to, counted here from the times alone.
    #[test]
    fn finding_4_every_range_bound_covers_what_it_says(
        a in -5_364_662_400i64..253_402_300_800i64,
        b in -5_364_662_400i64..253_402_300_800i64,
    ) {
        thread_local! {
            static STORE: (tempfile::TempDir, Engine) = {
                let dir = tempfile::tempdir().unwrap();
                let engine = spread_store(dir.path());
                (dir, engine)
            };
        }
        let (from, to) = (a.min(b), a.max(b) + 1);
        let from = DateTime::from_timestamp(from, 0).unwrap();
        let to = DateTime::from_timestamp(to, 0).unwrap();
        let expected = spread()
            .iter()
            .filter(|t| t.to_utc() >= from && t.to_utc() < to)
            .count();
        STORE.with(|(_, engine)| {
            let listed = engine.list_time_range(from, to).unwrap().len();
            prop_assert_eq!(listed, expected, "list {} .. {}", from, to);
            let scope = ForgetScope::TimeRange { from, to };
            prop_assert_eq!(engine.preview_forget(&scope).unwrap().messages, expected);
            Ok(())
        })?;
    }
}

#[test]
fn finding_4_a_range_a_second_wide_at_each_end_of_the_calendar() {
    let dir = tempfile::tempdir().unwrap();
    let engine = spread_store(dir.path());
    for t in [utc("1900-01-01T00:00:00Z"), utc("8999-12-31T23:59:59Z")] {
        let from = t.to_utc();
        let listed = engine
            .list_time_range(from, from + Duration::seconds(1))
            .unwrap();
        assert_eq!(listed.len(), 1, "the one message at {t}");
    }
}

/// The PIN conversation of finding 3: the user's secret, the assistant saying it back in a
/// reply too short to share two words with it, and a memory that stays.
fn pin_store(dir: &Path) -> Engine {
    let mut engine = open_with(dir, common::real_embedder());
    let at = utc("2026-03-02T09:00:00+01:00");
    let mut turns = session(
        "pin",
        &[
            ("My bank PIN is 4821.", at),
            ("Got it: 4821.", at + Duration::seconds(10)),
            (
                "We decided to paint the kitchen green.",
                at + Duration::seconds(20),
            ),
        ],
    );
    turns.messages[1].role = Role::Assistant;
    turns.messages[1].actor = "assistant".into();
    engine
        .import_sessions(&[turns], "pin.json", &mut |_| {})
        .unwrap();
    engine
}

fn pin_episode(engine: &Engine) -> minne::model::EpisodeId {
    engine
        .list_episodes(50, 0)
        .unwrap()
        .into_iter()
        .find(|e| e.text.contains("4821") && e.actor == "user")
        .map(|e| e.id)
        .expect("the PIN was captured as a memory of the user's")
}

/// One way of taking a memory away, given the store and the memory's episode.
type Forget = Box<dyn Fn(&mut Engine, minne::model::EpisodeId)>;

/// The three ways a user takes a memory away, each named as the CLI names it: forgetting
/// the episode, forgetting by `topic` (which must take at least one episode), and editing
/// the episode into `edited`.
fn forget_ways(topic: &'static str, edited: &'static str) -> [(&'static str, Forget); 3] {
    [
        (
            "forget --id",
            Box::new(|e, id| {
                e.forget(&ForgetScope::Episode(id)).unwrap();
            }),
        ),
        (
            "forget --topic",
            Box::new(move |e, _| {
                let receipt = e
                    .forget(&ForgetScope::Topic {
                        query: topic.into(),
                    })
                    .unwrap();
                assert!(
                    receipt.episodes >= 1,
                    "the topic {topic:?} takes an episode: {receipt:?}"
                );
            }),
        ),
        (
            "edit",
            Box::new(move |e, id| {
                e.edit_episode(id, edited).unwrap();
            }),
        ),
    ]
}

/// After each way of forgetting the PIN, no byte of "4821" is left in any file of the data
/// dir (database, WAL, SHM: the engine is open, so they are there), the reply's echo went
/// with it, and the other memory stays.
#[test]
fn finding_3_an_assistants_short_echo_of_a_forgotten_secret_goes_with_it() {
    let ways = forget_ways("my bank PIN", "My bank PIN is in the safe.");
    for (way, forget) in ways {
        let dir = tempfile::tempdir().unwrap();
        let mut engine = pin_store(dir.path());
        assert!(
            !common::occurrences(dir.path(), "4821").is_empty(),
            "the PIN is stored before the forget, so the scan can see it"
        );
        let id = pin_episode(&engine);
        forget(&mut engine, id);
        assert_eq!(
            common::occurrences(dir.path(), "4821"),
            Vec::<String>::new(),
            "{way}: the PIN is in no file, neither the user's words nor the reply's echo"
        );
        let kept = engine.list_episodes(50, 0).unwrap();
        assert!(
            kept.iter().any(|e| e.text.contains("kitchen green")),
            "{way}: the other memory stays"
        );
        let export = engine.export_value().unwrap().to_string();
        assert!(!export.contains("4821"), "{way}: nor in an export");
    }
}

/// The door code of the fresh attack on finding 3: said in one conversation, said back by
/// the assistant in the next one a week later (an MCP run without a session key starts a
/// conversation of its own), and repeated by the user in a third; with a memory that stays.
fn door_code_store(dir: &Path) -> Engine {
    let mut engine = open_with(dir, common::real_embedder());
    let at = utc("2026-03-02T09:00:00+01:00");
    let said = session(
        "code",
        &[
            ("Our door code is 739154.", at),
            (
                "We decided to paint the kitchen green.",
                at + Duration::seconds(20),
            ),
        ],
    );
    let week = at + Duration::days(7);
    let mut asked = session(
        "asked",
        &[
            ("What was the door code again?", week),
            ("It is 739154.", week + Duration::seconds(5)),
        ],
    );
    asked.messages[1].role = Role::Assistant;
    asked.messages[1].actor = "assistant".into();
    let told = session(
        "told",
        &[(
            "The plumber comes on Monday. I gave him 739154 for the door.",
            week + Duration::days(1),
        )],
    );
    engine
        .import_sessions(&[said, asked, told], "code.json", &mut |_| {})
        .unwrap();
    engine
}

/// After each way of forgetting the door code, no byte of it is left in any file, though
/// the assistant said it back in another conversation and the user repeated it in a third;
/// the other memories of those conversations stay.
#[test]
fn finding_3_an_echo_in_a_later_conversation_goes_with_the_secret() {
    let ways = forget_ways("our door code", "Our door code is on the fridge.");
    for (way, forget) in ways {
        let dir = tempfile::tempdir().unwrap();
        let mut engine = door_code_store(dir.path());
        let id = engine
            .list_episodes(50, 0)
            .unwrap()
            .into_iter()
            .find(|e| e.text.contains("Our door code is 739154"))
            .map(|e| e.id)
            .expect("the code was captured as a memory of the user's");
        assert!(
            !common::occurrences(dir.path(), "739154").is_empty(),
            "the code is stored before the forget"
        );
        forget(&mut engine, id);
        assert_eq!(
            common::occurrences(dir.path(), "739154"),
            Vec::<String>::new(),
            "{way}: the code is in no file: not the user's words, not the later reply, \
             not the later message"
        );
        let export = engine.export_value().unwrap().to_string();
        assert!(!export.contains("739154"), "{way}: nor in an export");
        assert!(
            export.contains("kitchen green"),
            "{way}: the other memory stays"
        );
        // A topic forget takes every memory about the door code, the plumber's visit for
        // the door with it; forgetting or editing the one memory cuts only the sentence
        // that repeats the code.
        if way != "forget --topic" {
            assert!(
                export.contains("The plumber comes on Monday"),
                "{way}: the later message's other sentence stays"
            );
        }
    }
}

#[test]
fn finding_6_a_key_file_planted_before_its_context_exists_is_set_aside_not_adopted() {
    let dir = tempfile::tempdir().unwrap();
    // The attacker's own context, whose key they hold.
    let theirs = dir.path().join("theirs");
    let clock = Arc::new(FixedClock::new(
        Utc.with_ymd_and_hms(2026, 12, 6, 12, 0, 0).unwrap(),
    ));
    let personal = ContextName::new("personal").unwrap();
    let embedder: Arc<dyn minne::embed::Embedder> = Arc::new(HashEmbedder::new(64));
    drop(
        Engine::open_with(
            &theirs,
            &personal,
            &KeyConfig::default(),
            embedder.clone(),
            clock.clone(),
        )
        .unwrap(),
    );
    let planted = std::fs::read(dir.path().join("theirs.keys/personal.key")).unwrap();
    // Planted in the victim's key dir before the victim's first run.
    let keys = dir.path().join("mine.keys");
    std::fs::create_dir(&keys).unwrap();
    std::fs::write(keys.join("personal.key"), &planted).unwrap();

    let mine = dir.path().join("mine");
    drop(Engine::open_with(&mine, &personal, &KeyConfig::default(), embedder, clock).unwrap());
    let made = std::fs::read(keys.join("personal.key")).unwrap();
    assert_ne!(made, planted, "the new context has a key of its own");
    let aside: Vec<_> = std::fs::read_dir(&keys)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("personal.key.unused-"))
        .collect();
    assert_eq!(aside.len(), 1, "the planted key is kept aside: {aside:?}");
    assert_eq!(std::fs::read(keys.join(&aside[0])).unwrap(), planted);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&keys), 0o700, "the key dir is owner-only");
        assert_eq!(mode(&keys.join("personal.key")), 0o600);
    }
}

#[test]
fn finding_8_a_resumed_import_reports_the_episodes_it_finished() {
    let dir = tempfile::tempdir().unwrap();
    let file = [session(
        "plans",
        &[
            (
                "We decided to move to Malmö in May.",
                utc("2026-03-02T09:00:00+01:00"),
            ),
            (
                "I promised Lena to water her plants on Sunday.",
                utc("2026-03-02T09:05:00+01:00"),
            ),
            (
                "My sister Karin lives in Aarhus.",
                utc("2026-03-02T09:10:00+01:00"),
            ),
        ],
    )];
    let mut engine = open(dir.path());
    let clean = engine
        .import_sessions(&file, "plans.json", &mut |_| {})
        .unwrap();
    assert!(clean.episodes_added > 0, "{clean:?}");
    // What a kill after the messages were stored and before capture leaves: the messages
    // stored, none captured, no episode.
    {
        let conn =
            minne::keys::open_connection(engine.db_path(), &KeyConfig::unencrypted()).unwrap();
        conn.execute_batch(
            "PRAGMA foreign_keys = ON;
             DELETE FROM episodes; UPDATE messages SET captured_at = NULL;",
        )
        .unwrap();
    }
    let resumed = engine
        .import_sessions(&file, "plans.json", &mut |_| {})
        .unwrap();
    assert_eq!(resumed.messages_added, 0, "every message was stored before");
    assert_eq!(resumed.messages_resumed, 3, "and none of them captured");
    assert_eq!(
        resumed.episodes_resumed, clean.episodes_added,
        "finishing the capture makes what a clean import makes, and says so"
    );
    assert_eq!(count(&engine, "episodes") as usize, clean.episodes_added);
    let again = engine
        .import_sessions(&file, "plans.json", &mut |_| {})
        .unwrap();
    assert_eq!(
        (again.messages_resumed, again.episodes_resumed),
        (0, 0),
        "a third run has nothing left to finish"
    );
}

/// Issue 30, LOW 24: a later import of another file captures what a stopped import left
/// waiting, and says so (in its progress before capture, and in its report) instead of
/// reading as an import that is slow for no reason or as one that finished this file.
#[test]
fn finding_8_a_later_import_of_another_file_names_the_backlog_it_captures() {
    let dir = tempfile::tempdir().unwrap();
    let mut engine = open(dir.path());
    let big = [session(
        "big",
        &[
            (
                "We decided to move to Malmö in May.",
                utc("2026-03-02T09:00:00+01:00"),
            ),
            (
                "My sister Karin lives in Aarhus.",
                utc("2026-03-02T09:10:00+01:00"),
            ),
        ],
    )];
    engine
        .import_sessions(&big, "big.json", &mut |_| {})
        .unwrap();
    // The stopped import: its two messages stored, none captured.
    {
        let conn =
            minne::keys::open_connection(engine.db_path(), &KeyConfig::unencrypted()).unwrap();
        conn.execute_batch(
            "PRAGMA foreign_keys = ON;
             DELETE FROM episodes; UPDATE messages SET captured_at = NULL;",
        )
        .unwrap();
    }
    let small = [session(
        "small",
        &[(
            "I promised Lena to water her plants on Sunday.",
            utc("2026-03-05T09:00:00+01:00"),
        )],
    )];
    let mut told = Vec::new();
    let report = engine
        .import_sessions(&small, "small.json", &mut |p| {
            if let minne::import::ImportProgress::Backlog { messages } = p {
                told.push(messages);
            }
        })
        .unwrap();
    assert_eq!(
        told,
        [2],
        "the progress names the two waiting messages, once"
    );
    assert_eq!(
        (
            report.messages_added,
            report.messages_resumed,
            report.messages_backlog
        ),
        (1, 0, 2),
        "one new message; nothing of this file was resumed; two of big.json's captured"
    );
    let pending: i64 = {
        let conn =
            minne::keys::open_connection(engine.db_path(), &KeyConfig::unencrypted()).unwrap();
        conn.query_row(
            "SELECT count(*) FROM messages WHERE captured_at IS NULL",
            [],
            |r| r.get(0),
        )
        .unwrap()
    };
    assert_eq!(
        pending, 0,
        "the backlog is captured, not left for every later import"
    );
    let again = engine
        .import_sessions(&small, "small.json", &mut |_| {})
        .unwrap();
    assert_eq!(
        again.messages_backlog, 0,
        "and the next import has none to name"
    );
}
