//! Restatements, forgetting one source of a restated memory, editing a memory, the read
//! policy and the time-window listing (issue 7), on a real SQLite file with the real model.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::sync::Arc;

use chrono::{DateTime, FixedOffset, Utc};
use minne::clock::FixedClock;
use minne::forget::ForgetScope;
use minne::import::{NewMessage, NewSession};
use minne::model::Role;
use minne::policy::recall_across;
use minne::recall::RecallQuery;
use minne::{ContextName, Engine};

fn at(s: &str) -> DateTime<FixedOffset> {
    DateTime::parse_from_rfc3339(s).unwrap()
}

fn open(dir: &std::path::Path, context: &str, clock: Arc<FixedClock>) -> Engine {
    Engine::open(
        dir,
        &ContextName::new(context).unwrap(),
        common::real_embedder(),
        clock,
    )
    .unwrap()
}

/// Stores and captures one user message in session `session`, as the app's chat does.
fn say(engine: &mut Engine, clock: &FixedClock, session: &str, id: &str, text: &str, when: &str) {
    clock.set(at(when).to_utc());
    let message = NewMessage {
        external_id: Some(id.to_string()),
        role: Role::User,
        actor: "user".into(),
        text: text.into(),
        sent_at: at(when),
    };
    engine
        .import_sessions(
            &[NewSession {
                key: session.into(),
                messages: vec![message],
            }],
            "chat",
            &mut |_| {},
        )
        .unwrap();
}

/// The episodes whose text holds `needle`.
fn with(engine: &Engine, needle: &str) -> Vec<minne::episodes::EpisodeView> {
    let n = engine.episode_count().unwrap() as usize;
    engine
        .list_episodes(n, 0)
        .unwrap()
        .into_iter()
        .filter(|e| e.text.contains(needle))
        .collect()
}

fn sources(engine: &Engine, e: &minne::episodes::EpisodeView) -> Vec<String> {
    engine
        .episode_sources(e.id)
        .unwrap()
        .into_iter()
        .filter_map(|m| m.external_id)
        .collect()
}

const FIRST: &str = "My passport expires on 2027-08-14, number ending 3391.";
const AGAIN: &str = "Once more, just to be safe: passport expiry is 2027-08-14.";

fn three_times(engine: &mut Engine, clock: &FixedClock) {
    say(
        engine,
        clock,
        "s1",
        "m1",
        FIRST,
        "2025-01-20T19:00:00+01:00",
    );
    say(
        engine,
        clock,
        "s1",
        "m3",
        FIRST,
        "2025-02-25T21:10:00+01:00",
    );
    say(
        engine,
        clock,
        "s3",
        "m5",
        AGAIN,
        "2025-04-02T08:15:00+02:00",
    );
}

#[test]
fn a_restated_fact_is_one_memory_with_every_source() {
    let dir = common::tempdir();
    let clock = Arc::new(FixedClock::new(Utc::now()));
    let mut engine = open(dir.path(), "personal", clock.clone());
    three_times(&mut engine, &clock);
    let found = with(&engine, "2027-08-14");
    // m3 repeats m1 word for word in the same conversation; m5, in another one, says it is a
    // repetition ("Once more") and names only the date m1 holds and "passport expiry", whose
    // stems m1 holds too: both restate m1.
    assert_eq!(found.len(), 1, "one memory, not three: {found:#?}");
    assert_eq!(engine.mention_count(found[0].id).unwrap(), 3);
    assert_eq!(sources(&engine, &found[0]), ["m1", "m3", "m5"]);

    // The same words in another conversation, unmarked, stay their own record: they can be a
    // new happening.
    say(
        &mut engine,
        &clock,
        "s9",
        "m9",
        FIRST,
        "2025-04-02T09:00:00+02:00",
    );
    assert_eq!(with(&engine, "2027-08-14").len(), 2);
    // Another date about the passport is another fact, not a restatement.
    say(
        &mut engine,
        &clock,
        "s4",
        "m7",
        "My passport expires on 2029-01-01.",
        "2025-04-03T08:15:00+02:00",
    );
    assert_eq!(with(&engine, "2029-01-01").len(), 1);
    assert_eq!(with(&engine, "2027-08-14").len(), 2);
}

/// Issue 31, kind 4: every item shown has its identity. The restated passport memory is
/// one record, and each way of showing it (the episode list, the export, the scenario
/// runner's item) names the same id, the time Minne learned it and all three messages that
/// said it; an edit later changes neither when it was said nor when it was learned.
#[test]
fn every_item_shown_carries_its_id_when_it_was_learned_and_every_source() {
    let dir = common::tempdir();
    let clock = Arc::new(FixedClock::new(Utc::now()));
    let mut engine = open(dir.path(), "personal", clock.clone());
    three_times(&mut engine, &clock);
    let found = with(&engine, "2027-08-14");
    assert_eq!(found.len(), 1, "{found:#?}");
    let e = &found[0];
    // `say` captures each message at the moment it was said: m1 at 19:00+01:00 is when
    // Minne learned the memory, and the restatements (m3 in February, m5 in April) add
    // sources without making it newer.
    let learned = at("2025-01-20T18:00:00Z").to_utc();
    assert_eq!(e.created_at, learned);
    assert_eq!(e.occurred_at, learned);
    assert_eq!(engine.source_message_ids(e.id).unwrap(), ["m1", "m3", "m5"]);

    // The export holds the same identity for the episode under m1.
    let doc = engine.export_value().unwrap();
    let exported: Vec<&serde_json::Value> = doc["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["messages"].as_array().unwrap())
        .flat_map(|m| m["episodes"].as_array().unwrap())
        .filter(|x| x["id"].as_i64() == Some(e.id.0))
        .collect();
    assert_eq!(exported.len(), 1, "{doc:#}");
    assert_eq!(
        exported[0]["created_at"].as_str().map(|t| at(t).to_utc()),
        Some(learned)
    );
    assert_eq!(
        exported[0]["source_message_ids"],
        serde_json::json!(["m1", "m3", "m5"])
    );

    // So does the scenario runner's item.
    let item = minne::scenario::Item::from_episode(e, "personal");
    assert_eq!(
        item.id.as_deref(),
        Some(format!("episode:{}", e.id).as_str())
    );
    assert_eq!(item.created_at.as_deref(), Some("2025-01-20T18:00:00Z"));

    // An edit in May keeps both times.
    clock.set(at("2025-05-01T10:00:00+02:00").to_utc());
    engine
        .edit_episode(e.id, "My passport expires on 2027-08-14.")
        .unwrap();
    let edited = with(&engine, "2027-08-14");
    assert_eq!(edited.len(), 1, "{edited:#?}");
    assert_eq!(edited[0].id, e.id);
    assert_eq!(edited[0].created_at, learned);
    assert_eq!(edited[0].occurred_at, learned);

    // An old conversation imported now was said then and learned now: the two times differ.
    let now = at("2025-06-01T12:00:00Z").to_utc();
    clock.set(now);
    engine
        .import_sessions(
            &[NewSession {
                key: "old".into(),
                messages: vec![NewMessage {
                    external_id: Some("old-1".into()),
                    role: Role::User,
                    actor: "user".into(),
                    text: "We adopted a cat called Smilla.".into(),
                    sent_at: at("2024-11-03T18:30:00+01:00"),
                }],
            }],
            "chat",
            &mut |_| {},
        )
        .unwrap();
    let old = with(&engine, "Smilla");
    assert_eq!(old.len(), 1, "{old:#?}");
    assert_eq!(old[0].occurred_at, at("2024-11-03T17:30:00Z").to_utc());
    assert_eq!(old[0].created_at, now);
}

#[test]
fn forgetting_one_source_keeps_the_memory_the_others_support() {
    let dir = common::tempdir();
    let clock = Arc::new(FixedClock::new(Utc::now()));
    let mut engine = open(dir.path(), "personal", clock.clone());
    three_times(&mut engine, &clock);
    let day = |d: &str| at(&format!("{d}T00:00:00+00:00")).to_utc();

    // m1 goes: the memory stays on m3 (the same words) and m5.
    engine
        .forget(&ForgetScope::TimeRange {
            from: day("2025-01-20"),
            to: day("2025-01-21"),
        })
        .unwrap();
    let found = with(&engine, "2027-08-14");
    assert_eq!(found.len(), 1, "the memory is still said by m3 and m5");
    assert_eq!(engine.mention_count(found[0].id).unwrap(), 2);
    assert_eq!(sources(&engine, &found[0]), ["m3", "m5"]);
    assert_eq!(found[0].message_external_id.as_deref(), Some("m3"));
    let hits = engine
        .recall(&RecallQuery::new("When does my passport expire?"))
        .unwrap();
    assert!(
        hits.iter().any(|h| h.episode.id == found[0].id),
        "the moved memory was re-embedded and is recalled"
    );

    // m3 goes: only m5 is left, and the memory now quotes m5's words.
    engine
        .forget(&ForgetScope::TimeRange {
            from: day("2025-02-25"),
            to: day("2025-02-26"),
        })
        .unwrap();
    let found = with(&engine, "2027-08-14");
    assert_eq!(found.len(), 1);
    assert_eq!(engine.mention_count(found[0].id).unwrap(), 1);
    assert_eq!(sources(&engine, &found[0]), ["m5"]);
    assert!(found[0].text.starts_with("Once more"), "{}", found[0].text);
    assert!(
        !found[0].text.contains("3391"),
        "the words of the forgotten messages are gone from it"
    );

    // The last source goes: so does the memory.
    engine
        .forget(&ForgetScope::TimeRange {
            from: day("2025-04-01"),
            to: day("2025-04-03"),
        })
        .unwrap();
    assert!(with(&engine, "2027-08-14").is_empty());
}

#[test]
fn forgetting_a_restated_memory_forgets_every_source() {
    let dir = common::tempdir();
    let clock = Arc::new(FixedClock::new(Utc::now()));
    let mut engine = open(dir.path(), "personal", clock.clone());
    three_times(&mut engine, &clock);
    let id = with(&engine, "2027-08-14")[0].id;
    engine.forget(&ForgetScope::Episode(id)).unwrap();
    assert!(with(&engine, "2027-08-14").is_empty());
    // Each source message held only this memory, so each went whole.
    let window = engine
        .list_time_range(
            at("2025-01-01T00:00:00Z").to_utc(),
            at("2025-12-31T00:00:00Z").to_utc(),
        )
        .unwrap();
    assert!(window.is_empty(), "no source message is left: {window:#?}");
    let export = engine.export_value().unwrap().to_string();
    assert!(!export.contains("2027-08-14") && !export.contains("passport"));
}

#[test]
fn an_edit_replaces_the_words_everywhere_and_keeps_provenance() {
    let dir = common::tempdir();
    let clock = Arc::new(FixedClock::new(Utc::now()));
    let mut engine = open(dir.path(), "personal", clock.clone());
    let text =
        "Please remember this: my daughter's EpiPen is in the blue pouch in the hallway cabinet.";
    say(
        &mut engine,
        &clock,
        "s1",
        "m1",
        text,
        "2025-05-06T08:00:00+02:00",
    );
    let before = with(&engine, "blue pouch");
    assert_eq!(before.len(), 1);
    let id = before[0].id;
    clock.set(at("2025-05-07T09:00:00+02:00").to_utc());
    let receipt = engine
        .edit_episode(
            id,
            "My daughter's EpiPen is in the red pouch in the kitchen drawer.",
        )
        .unwrap();
    assert!(receipt.changed);
    assert_eq!(receipt.messages_redacted, 1);

    let after = with(&engine, "red pouch");
    assert_eq!(after.len(), 1);
    assert_eq!(after[0].id, id, "the same memory, edited");
    assert_eq!(
        after[0].message_external_id.as_deref(),
        Some("m1"),
        "provenance kept"
    );
    assert_eq!(
        engine.edited_at(id).unwrap(),
        Some(at("2025-05-07T09:00:00+02:00").to_utc())
    );
    // The old words are nowhere the engine can show: not in any memory, message or export.
    assert!(with(&engine, "blue").is_empty());
    let export = engine.export_value().unwrap().to_string();
    assert!(!export.contains("blue pouch"), "{export}");
    assert!(
        export.contains("red pouch"),
        "the transcript now carries the edited words"
    );
    // Recall finds the new words (re-embedded, full-text row rewritten).
    let hits = engine
        .recall(&RecallQuery::new("Where is the EpiPen?"))
        .unwrap();
    assert!(
        hits.first()
            .is_some_and(|h| h.episode.text.contains("red pouch"))
    );
    // A re-import of the original message does not bring the old words back (tombstone).
    say(
        &mut engine,
        &clock,
        "s1",
        "m1",
        text,
        "2025-05-06T08:00:00+02:00",
    );
    assert!(with(&engine, "blue").is_empty());
    // Bad input changes nothing.
    assert!(engine.edit_episode(id, "   ").is_err());
    assert!(
        engine
            .edit_episode(minne::model::EpisodeId(9999), "x")
            .is_err()
    );
    assert_eq!(with(&engine, "red pouch").len(), 1);
}

#[test]
fn the_read_policy_decides_what_recall_may_read() {
    let dir = common::tempdir();
    let clock = Arc::new(FixedClock::new(Utc::now()));
    let mut personal = open(dir.path(), "personal", clock.clone());
    say(
        &mut personal,
        &clock,
        "p1",
        "m1",
        "I get migraines when I sleep under six hours; sumatriptan works for me.",
        "2025-03-01T21:00:00+01:00",
    );
    let mut work = open(dir.path(), "work", clock.clone());
    let query = RecallQuery::new("What helps against my migraines?");

    // Default: work reads only itself, so nothing of personal, and nothing is logged.
    assert_eq!(
        work.read_policy().unwrap().can_read,
        [work.context().clone()]
    );
    assert!(
        recall_across(&work, &[&personal], &query)
            .unwrap()
            .is_empty()
    );
    assert_eq!(work.cross_context_reads().unwrap(), 0);

    // An empty allow-list reads nothing, not everything.
    work.set_read_policy(&[]).unwrap();
    assert!(
        recall_across(&work, &[&personal], &query)
            .unwrap()
            .is_empty()
    );
    personal.set_read_policy(&[]).unwrap();
    assert!(
        personal.recall_own(&query).unwrap().is_empty(),
        "not even itself"
    );
    // The engine's plain recall, which the CLI, the app and the MCP server call, obeys the
    // policy too: the gate is in the engine, not in one front end.
    assert!(personal.recall(&query).unwrap().is_empty());

    // Allowed: the read happens, is logged, and survives a restart.
    work.set_read_policy(&[
        ContextName::new("work").unwrap(),
        ContextName::new("personal").unwrap(),
    ])
    .unwrap();
    drop(work);
    let work = open(dir.path(), "work", clock.clone());
    let hits = recall_across(&work, &[&personal], &query).unwrap();
    assert!(hits.iter().any(|h| h.context.as_str() == "personal"
        && h.hit.episode.text.contains("sumatriptan")));
    assert_eq!(work.cross_context_reads().unwrap(), 1);
}

#[test]
fn the_time_window_lists_messages_in_from_to_with_their_episodes() {
    let dir = common::tempdir();
    let clock = Arc::new(FixedClock::new(Utc::now()));
    let mut engine = open(dir.path(), "personal", clock.clone());
    say(
        &mut engine,
        &clock,
        "s",
        "a",
        "Jag har bokat tvättstugan på torsdag kl 18.",
        "2025-03-20T13:59:59+01:00",
    );
    say(
        &mut engine,
        &clock,
        "s",
        "b",
        "Jag funderar på att säga upp mig från Kvarnby Bygg.",
        "2025-03-20T14:00:00+01:00",
    );
    say(
        &mut engine,
        &clock,
        "s",
        "c",
        "Lönen där är 38 400 i månaden.",
        "2025-03-20T14:59:59+01:00",
    );
    say(
        &mut engine,
        &clock,
        "s",
        "d",
        "Påminn mig om att köpa present till mamma.",
        "2025-03-20T15:00:00+01:00",
    );
    let window = engine
        .list_time_range(
            at("2025-03-20T14:00:00+01:00").to_utc(),
            at("2025-03-20T15:00:00+01:00").to_utc(),
        )
        .unwrap();
    let ids: Vec<_> = window
        .iter()
        .filter_map(|m| m.external_id.clone())
        .collect();
    // [from, to): 14:00:00 is in, 15:00:00 and 13:59:59 are out (times in +01:00, not UTC).
    assert_eq!(ids, ["b", "c"]);
    assert!(
        window.iter().all(|m| !m.episodes.is_empty()),
        "each with its episodes"
    );
    assert!(
        engine
            .list_time_range(
                at("2025-03-20T15:00:00Z").to_utc(),
                at("2025-03-20T14:00:00Z").to_utc()
            )
            .is_err()
    );
}

/// An edit of a message that came without an id of its own, then an export and a re-import:
/// the export carries the new words, re-importing it into the same context adds nothing (the
/// message's dedupe key follows its words), and importing it into a fresh context brings the
/// edited memory and never the old words.
#[test]
fn an_edited_memory_round_trips_through_export() {
    let dir = common::tempdir();
    let clock = Arc::new(FixedClock::new(Utc::now()));
    let mut engine = open(dir.path(), "personal", clock.clone());
    let when = "2025-05-06T08:00:00+02:00";
    clock.set(at(when).to_utc());
    let message = NewMessage {
        external_id: None,
        role: Role::User,
        actor: "user".into(),
        text: "Remember that the spare key is under the GREENSTONE by the shed.".into(),
        sent_at: at(when),
    };
    engine
        .import_sessions(
            &[NewSession {
                key: "s-key".into(),
                messages: vec![message],
            }],
            "chat",
            &mut |_| {},
        )
        .unwrap();
    let id = with(&engine, "GREENSTONE")[0].id;
    engine
        .edit_episode(id, "The spare key is in the REDBOX on the porch.")
        .unwrap();

    // Outside the data dir (`dir`), where Minne refuses to write an export.
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("export.json");
    engine
        .export(minne::export::ExportFormat::Json, &file)
        .unwrap();
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("REDBOX") && !written.contains("GREENSTONE"));

    let options = minne::import::ImportOptions::new(minne::import::ImportFormat::Transcript);
    let again = engine.import(&file, &options, &mut |_| {}).unwrap();
    assert_eq!(again.messages_added, 0, "the same message, already stored");
    assert_eq!(engine.episode_count().unwrap(), 1);

    let mut fresh = open(dir.path(), "work", clock.clone());
    let restored = fresh.import(&file, &options, &mut |_| {}).unwrap();
    assert_eq!(restored.messages_added, 1);
    assert_eq!(with(&fresh, "REDBOX").len(), 1);
    assert!(with(&fresh, "GREENSTONE").is_empty());
}

/// A message dated after the engine's clock (beyond a 10-minute slack for clocks that differ)
/// is stored with its own time but reported, so the user learns why its age reads negative.
#[test]
fn an_import_reports_messages_dated_in_the_future() {
    let dir = common::tempdir();
    let now = at("2026-11-20T10:00:00+01:00");
    let clock = Arc::new(FixedClock::new(now.to_utc()));
    let mut engine = open(dir.path(), "personal", clock);
    let message = |id: &str, when: DateTime<FixedOffset>, text: &str| NewMessage {
        external_id: Some(id.into()),
        role: Role::User,
        actor: "user".into(),
        text: text.into(),
        sent_at: when,
    };
    let report = engine
        .import_sessions(
            &[NewSession {
                key: "s".into(),
                messages: vec![
                    message(
                        "a",
                        now - chrono::Duration::days(1),
                        "I booked the dentist.",
                    ),
                    // Five minutes ahead: within the slack, a clock a little off.
                    message("b", now + chrono::Duration::minutes(5), "I paid the rent."),
                    message("c", now + chrono::Duration::days(400), "I moved to Lund."),
                ],
            }],
            "chat",
            &mut |_| {},
        )
        .unwrap();
    assert_eq!(report.messages_added, 3, "all are kept");
    assert_eq!(report.messages_in_future, 1, "only the one 400 days ahead");

    // Fresh-user finding: "I met Cecilia at the museum tomorrow." dated 9999-12-31T23:59:59Z
    // was stored with its event time on 10000-01-01, which RFC 3339 cannot write, and every
    // `list` and `recall` failed after. Such a date is refused, naming the message, and what
    // was stored before is kept and still listed.
    let err = engine
        .import_sessions(
            &[NewSession {
                key: "d5".into(),
                messages: vec![message(
                    "x",
                    at("9999-12-31T23:59:59+00:00"),
                    "I met Cecilia at the museum tomorrow.",
                )],
            }],
            "chat",
            &mut |_| {},
        )
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("message 1 of session `d5`") && err.contains("9999-12-31"),
        "{err}"
    );
    assert_eq!(
        engine.episode_count().unwrap(),
        3,
        "nothing stored, nothing lost"
    );
    assert!(
        engine
            .recall(&minne::recall::RecallQuery::new("Lund"))
            .is_ok()
    );
}

/// Fresh-user finding: after an edit to "20 January at 11am", recall and export still showed
/// the old event time ("on 14 December at 9am"). The event time is derived from the words,
/// so an edit derives it again from the new words at the message's time and offset.
#[test]
fn an_edit_moves_the_event_time_to_the_new_words() {
    let dir = common::tempdir();
    let clock = Arc::new(FixedClock::new(Utc::now()));
    let mut engine = open(dir.path(), "personal", clock.clone());
    // Tuesday 1 December 2026, 10:00 in UTC+01:00.
    let sent = "2026-12-01T10:00:00+01:00";
    say(
        &mut engine,
        &clock,
        "s1",
        "m1",
        "My dentist appointment is on 14 December at 9am.",
        sent,
    );
    let before = with(&engine, "dentist");
    assert_eq!(before.len(), 1);
    let id = before[0].id;
    let old = before[0]
        .event_time
        .clone()
        .expect("capture resolves the old time");
    assert_eq!(
        old.start,
        at("2026-12-14T09:00:00+01:00"),
        "the old words name 14 December at 9, in the writer's offset"
    );
    assert!(old.expression.contains("14 December"), "{old:?}");

    engine
        .edit_episode(id, "My dentist appointment is on 20 January at 11am.")
        .unwrap();
    let after = with(&engine, "dentist");
    let new = after[0]
        .event_time
        .clone()
        .expect("the new words name a time");
    // 20 January read on 1 December 2026: the nearest 20 January is 2027's (50 days ahead,
    // against 315 days back), at 11:00 in the message's own offset.
    assert_eq!(new.start, at("2027-01-20T11:00:00+01:00"), "{new:?}");
    assert!(
        new.expression.contains("20 January") && !new.expression.contains("December"),
        "the expression is the new words': {new:?}"
    );
    let hits = engine
        .recall(&RecallQuery::new("When is my dentist appointment?"))
        .unwrap();
    let json = serde_json::to_string(&hits).unwrap();
    assert!(
        json.contains("20 January"),
        "recall shows the new time: {json}"
    );
    // Outside the data dir (`dir`), where Minne refuses to write an export.
    let out = tempfile::tempdir().unwrap();
    let file = out.path().join("export.json");
    engine
        .export(minne::export::ExportFormat::Json, &file)
        .unwrap();
    let written = std::fs::read_to_string(&file).unwrap();
    assert!(written.contains("2027-01-20T11:00:00+01:00"), "{written}");
    for gone in ["14 December", "2026-12-14"] {
        assert!(
            !json.contains(gone),
            "recall JSON still holds {gone}: {json}"
        );
        assert!(!written.contains(gone), "export still holds {gone}");
    }
    // No file holds the old expression as bytes (the export is plain; the store is
    // encrypted, so it is read back decrypted below).
    assert_eq!(
        common::occurrences(dir.path(), "14 December"),
        Vec::<String>::new()
    );
    // Every row of every table of the decrypted store, full-text index included: the old
    // month word is nowhere (the message time, 2026-12-01, is stored as digits only).
    let conn =
        minne::keys::open_connection(&dir.path().join("personal.sqlite"), &Default::default())
            .unwrap();
    let held = |needle: &str| -> Vec<String> {
        let tables: Vec<String> = conn
            .prepare("SELECT name FROM sqlite_master WHERE type = 'table'")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let mut found = Vec::new();
        for table in tables {
            let mut stmt = conn.prepare(&format!("SELECT * FROM \"{table}\"")).unwrap();
            let columns = stmt.column_count();
            let mut rows = stmt.query([]).unwrap();
            while let Some(row) = rows.next().unwrap() {
                for c in 0..columns {
                    let bytes = match row.get_ref(c).unwrap() {
                        rusqlite::types::ValueRef::Text(b) | rusqlite::types::ValueRef::Blob(b) => {
                            b.to_ascii_lowercase()
                        }
                        _ => continue,
                    };
                    if bytes.windows(needle.len()).any(|w| w == needle.as_bytes()) {
                        found.push(table.clone());
                    }
                }
            }
        }
        found
    };
    assert!(
        !held("january").is_empty(),
        "the scan finds the new words, so it can find old ones"
    );
    assert_eq!(held("december"), Vec::<String>::new(), "old words left");

    // New words that name no time clear it, rather than keep the old one.
    engine
        .edit_episode(id, "My dentist appointment is with Dr. Berg.")
        .unwrap();
    assert_eq!(with(&engine, "dentist")[0].event_time, None);
}

/// An edit takes the old words out of the assistant's replies too: a reply that said them
/// back ("you live at Storgatan 12") would keep in the transcript and its exports what the
/// user edited away (a fresh-user test found it). What the edit kept ("live") does not make
/// a sentence an echo on its own, and the reply's other sentence stays.
#[test]
fn an_edit_cuts_the_old_words_from_a_reply_that_echoed_them() {
    let dir = common::tempdir();
    let clock = Arc::new(FixedClock::new(at("2026-03-02T09:00:00+01:00").to_utc()));
    let mut engine = open(dir.path(), "personal", clock.clone());
    say(
        &mut engine,
        &clock,
        "s1",
        "m1",
        "I live at Storgatan 12 in Oslo.",
        "2026-03-02T09:00:00+01:00",
    );
    engine
        .import_sessions(
            &[NewSession {
                key: "s1".into(),
                messages: vec![NewMessage {
                    external_id: Some("m2".into()),
                    role: Role::Assistant,
                    actor: "assistant".into(),
                    text: "Got it, you live at Storgatan 12 in Oslo. Anything else I can do?"
                        .into(),
                    sent_at: at("2026-03-02T09:00:10+01:00"),
                }],
            }],
            "chat",
            &mut |_| {},
        )
        .unwrap();
    let home = with(&engine, "Storgatan")
        .pop()
        .expect("the address is a memory");
    let receipt = engine.edit_episode(home.id, "I live in Bergen.").unwrap();
    // Old stems {live, storgatan, 12, oslo}; the edit took {storgatan, 12, oslo}; the
    // reply's first sentence holds all four: one echo.
    assert_eq!(receipt.echoes, 1, "{receipt:?}");
    let export = engine.export_value().unwrap().to_string();
    assert!(
        !export.contains("Storgatan"),
        "the old words left the transcript: {export}"
    );
    assert!(
        export.contains("[edited] Anything else I can do?"),
        "the echo is marked and the rest of the reply stays: {export}"
    );
}
