//! Issue 5's remaining parts on real stores with the real model: the `retracted` fact status
//! (migration 11, tested on a database of the previous schema), "I stopped using X"
//! retractions, open items stored with their message time as due given their words' due
//! time, and commitments that are only social talk making no open item.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test panics on failure by design

mod common;

use common::consolidation::{day, with};

use std::path::Path;
use std::sync::{Arc, OnceLock};

use chrono::{FixedOffset, TimeZone, Utc};
use minne::clock::FixedClock;
use minne::consolidate::FactStatus;
use minne::embed::Embedder;
use minne::forget::ForgetScope;
use minne::keys::KeyConfig;
use minne::model::Role;
use minne::{ContextName, Engine};

fn embedder() -> Arc<dyn Embedder> {
    static E: OnceLock<Arc<dyn Embedder>> = OnceLock::new();
    E.get_or_init(common::real_embedder).clone()
}

/// An unencrypted store (the migration test reads and rewrites it with plain SQLite).
fn open(data: &Path, clock: Arc<FixedClock>) -> Engine {
    Engine::open_with(
        data,
        &ContextName::new("personal").unwrap(),
        &KeyConfig::unencrypted(),
        embedder(),
        clock,
    )
    .unwrap()
}

fn clock() -> Arc<FixedClock> {
    Arc::new(FixedClock::new(
        Utc.with_ymd_and_hms(2026, 1, 5, 8, 0, 0).unwrap(),
    ))
}

/// Imports one session `key` of user messages (day, text) and consolidates.
fn say(engine: &mut Engine, clock: &FixedClock, key: &str, turns: &[(i64, &str)]) {
    let turns: Vec<(Role, i64, &str)> = turns.iter().map(|&(d, t)| (Role::User, d, t)).collect();
    common::consolidation::say(engine, clock, key, &turns);
}

/// Every row of a table, each column as text, in id order: what must survive the rebuild.
fn rows(conn: &rusqlite::Connection, table: &str) -> Vec<Vec<Option<String>>> {
    let mut stmt = conn
        .prepare(&format!("SELECT * FROM {table} ORDER BY rowid"))
        .unwrap();
    let n = stmt.column_count();
    stmt.query_map([], |r| {
        (0..n)
            .map(|i| {
                r.get::<_, rusqlite::types::Value>(i).map(|v| match v {
                    rusqlite::types::Value::Null => None,
                    rusqlite::types::Value::Integer(x) => Some(x.to_string()),
                    rusqlite::types::Value::Real(x) => Some(x.to_string()),
                    rusqlite::types::Value::Text(t) => Some(t),
                    rusqlite::types::Value::Blob(b) => Some(format!("{b:?}")),
                })
            })
            .collect()
    })
    .unwrap()
    .collect::<rusqlite::Result<_>>()
    .unwrap()
}

/// The three tables as migration 6 made them (the schema before migration 11), verbatim
/// but for the comments.
const SCHEMA_10: &str = "
    CREATE TABLE facts (
        id             INTEGER PRIMARY KEY,
        attribute      TEXT NOT NULL,
        value          TEXT NOT NULL,
        norm           TEXT NOT NULL,
        scope          TEXT,
        confidence     TEXT NOT NULL CHECK (confidence IN ('inferred', 'stated', 'confirmed')),
        status         TEXT NOT NULL CHECK (status IN ('candidate', 'active', 'superseded', 'rejected')),
        valid_from     TEXT NOT NULL,
        valid_to       TEXT,
        superseded_by  INTEGER REFERENCES facts(id) ON DELETE SET NULL,
        created_at     TEXT NOT NULL,
        updated_at     TEXT NOT NULL
    );
    CREATE INDEX facts_attribute ON facts(attribute, status);
    CREATE TABLE fact_sources (
        fact_id     INTEGER NOT NULL REFERENCES facts(id) ON DELETE CASCADE,
        episode_id  INTEGER NOT NULL REFERENCES episodes(id) ON DELETE CASCADE,
        PRIMARY KEY (fact_id, episode_id)
    );
    CREATE INDEX fact_sources_episode ON fact_sources(episode_id);
    CREATE TABLE review_queue (
        id             INTEGER PRIMARY KEY,
        kind           TEXT NOT NULL CHECK (kind IN ('candidate', 'conflict', 'procedure_request')),
        fact_id        INTEGER REFERENCES facts(id) ON DELETE CASCADE,
        other_fact_id  INTEGER REFERENCES facts(id) ON DELETE CASCADE,
        procedure_id   INTEGER REFERENCES procedures(id) ON DELETE CASCADE,
        reason         TEXT NOT NULL,
        evidence_key   TEXT NOT NULL UNIQUE,
        status         TEXT NOT NULL CHECK (status IN ('open', 'confirmed', 'rejected')),
        created_at     TEXT NOT NULL,
        resolved_at    TEXT
    );
";

/// Migration 11 rebuilds `facts` (a CHECK constraint cannot change in place) together with
/// the two tables that reference it, inside a transaction with foreign keys on, where a plain
/// DROP TABLE would cascade and delete every fact's sources and review entries. On a
/// database of the previous schema (its three tables made as migration 6 made them) it must
/// keep every row and id, and then accept `retracted`.
#[test]
fn migration_11_keeps_every_fact_source_and_review_entry_and_allows_retracted() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = clock();
    let mut engine = open(&data, clock.clone());
    say(
        &mut engine,
        &clock,
        "s1",
        &[
            (0, "I moved to Tallinn last spring."),
            (0, "I use Notion, Slack and Linear every day."),
        ],
    );
    say(
        &mut engine,
        &clock,
        "s2",
        &[
            (30, "We moved to Tartu in August."),
            (
                30,
                "At the new office I use Notion for the weekly planning.",
            ),
            (31, "She wrote: \"I live in Oslo now.\""),
        ],
    );
    drop(engine);
    let file = data.join("personal.sqlite");
    let conn = rusqlite::Connection::open(&file).unwrap();
    // Back to the previous schema: the three tables as migration 6 made them, same rows.
    conn.execute_batch(&format!(
        "PRAGMA foreign_keys = OFF;
         BEGIN;
         CREATE TEMP TABLE f AS SELECT * FROM facts;
         CREATE TEMP TABLE s AS SELECT * FROM fact_sources;
         CREATE TEMP TABLE q AS SELECT * FROM review_queue;
         DROP TABLE review_queue; DROP TABLE fact_sources; DROP TABLE facts;
         {SCHEMA_10}
         INSERT INTO facts SELECT * FROM f;
         INSERT INTO fact_sources SELECT * FROM s;
         INSERT INTO review_queue SELECT * FROM q;
         COMMIT;"
    ))
    .unwrap();
    let before = (
        rows(&conn, "facts"),
        rows(&conn, "fact_sources"),
        rows(&conn, "review_queue"),
    );
    // The fixture holds what the rebuild could lose: a supersession link, several sources
    // for one fact, and a review entry pointing at two facts.
    assert!(
        before.0.iter().any(|r| r[9].is_some()),
        "a superseded_by link"
    );
    let fact_ids: Vec<&Option<String>> = before.1.iter().map(|r| &r[0]).collect();
    assert!(
        fact_ids
            .iter()
            .any(|id| fact_ids.iter().filter(|o| *o == id).count() > 1),
        "a fact with two sources: {:?} {:?}",
        before.0,
        before.1
    );
    assert!(!before.2.is_empty(), "a review entry: {:?}", before.0);
    let refused = conn.execute("UPDATE facts SET status = 'retracted' WHERE id = 1", []);
    assert!(
        refused.is_err(),
        "the previous schema refuses the new status"
    );
    // Migration 11 as the store runs it (`Store::migrate`): foreign keys on, one immediate
    // transaction, the file's SQL as one batch. Later migrations have already run on this
    // file and are independent of these three tables, so the file is run by itself.
    conn.execute_batch("PRAGMA foreign_keys = ON;").unwrap();
    conn.execute_batch(&format!("BEGIN IMMEDIATE; {MIGRATION_11} COMMIT;"))
        .unwrap();
    let after = (
        rows(&conn, "facts"),
        rows(&conn, "fact_sources"),
        rows(&conn, "review_queue"),
    );
    assert_eq!(after, before, "every row and id is kept");
    let dangling: Vec<String> = conn
        .prepare("PRAGMA foreign_key_check")
        .unwrap()
        .query_map([], |r| r.get::<_, String>(0))
        .unwrap()
        .collect::<rusqlite::Result<_>>()
        .unwrap();
    assert!(
        dangling.is_empty(),
        "every reference resolves: {dangling:?}"
    );
    let sql: String = conn
        .query_row(
            "SELECT sql FROM sqlite_master WHERE name = 'fact_sources'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(
        sql.contains("\"facts\"") || sql.contains(" facts("),
        "sources point at the rebuilt facts table: {sql}"
    );
    conn.execute("UPDATE facts SET status = 'retracted' WHERE id = 1", [])
        .expect("the new status is allowed");
    // Deleting a fact still cascades to its sources: the references work, not only parse.
    let sources_of_1: i64 = conn
        .query_row(
            "SELECT count(*) FROM fact_sources WHERE fact_id = 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(sources_of_1 > 0);
    conn.execute("DELETE FROM facts WHERE id = 1", []).unwrap();
    let left: i64 = conn
        .query_row(
            "SELECT count(*) FROM fact_sources WHERE fact_id = 1",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(left, 0, "ON DELETE CASCADE still holds");
    drop(conn);
    // The store registers it: a new database is made with the new status allowed, and the
    // engine reads the rebuilt file.
    let engine = open(&data, clock);
    assert!(!engine.facts(true).unwrap().is_empty());
    let fresh = tempfile::tempdir().unwrap();
    drop(open(&fresh.path().join("data"), self::clock()));
    let conn =
        rusqlite::Connection::open(fresh.path().join("data").join("personal.sqlite")).unwrap();
    let sql: String = conn
        .query_row(
            "SELECT sql FROM sqlite_master WHERE name = 'facts'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(sql.contains("'retracted'"), "{sql}");
}

/// The migration's SQL, as the store includes it.
const MIGRATION_11: &str = include_str!("../src/store/migration_11_retracted.sql");

/// "I stopped using Notion" (and sv/da) ends the tool the user stated, with the status
/// `retracted`: never active, not in the profile or the session-start context; `facts
/// --all` keeps it with its end. Forgetting the retracting words makes it active again.
#[rstest::rstest]
#[case::en("I use Notion for my notes.", "I stopped using Notion last month.")]
#[case::en_quit("I use Notion for my notes.", "I quit Notion, it got too slow.")]
#[case::sv("Jag använder Notion.", "Jag har slutat använda Notion.")]
#[case::da("Jeg bruger Notion.", "Jeg er holdt op med at bruge Notion.")]
fn stopped_using_retracts_the_tool(#[case] first: &str, #[case] retraction: &str) {
    let dir = common::tempdir();
    let clock = clock();
    let mut engine = open(dir.path(), clock.clone());
    say(&mut engine, &clock, "s1", &[(0, first)]);
    let tool = |engine: &Engine| with(&engine.facts(true).unwrap(), "tool");
    assert_eq!(
        tool(&engine)
            .iter()
            .map(|f| (f.value.as_str(), f.status))
            .collect::<Vec<_>>(),
        [("Notion", FactStatus::Active)],
        "`{first}` states the tool"
    );
    say(&mut engine, &clock, "s2", &[(10, retraction)]);
    let history = tool(&engine);
    let notion = history
        .iter()
        .find(|f| f.value == "Notion")
        .expect("kept in history");
    assert_eq!(notion.status, FactStatus::Retracted, "{history:#?}");
    // The retraction was the first message of day 10.
    assert_eq!(notion.valid_to, Some(day(10).to_utc()));
    assert!(
        !engine
            .facts(false)
            .unwrap()
            .iter()
            .any(|f| f.value == "Notion"),
        "never listed as current"
    );
    assert!(
        !engine
            .profile()
            .unwrap()
            .facts
            .iter()
            .any(|f| f.value == "Notion"),
        "not in the profile"
    );
    // The session-start profile leaves it out (the recent-session summaries quote the
    // user's words, retraction included, which is right).
    let start = engine.session_start(2000).unwrap();
    assert!(
        !start
            .parts
            .iter()
            .filter(|p| p.label.to_lowercase().contains("profile"))
            .flat_map(|p| p.items.iter())
            .any(|l| l.contains("Notion")),
        "not in the session-start profile: {start:#?}"
    );
    // Forget the retracting words: the tool is current again, as before them.
    let record = history
        .iter()
        .find(|f| Some(f.id) == notion.superseded_by)
        .expect("the retraction record");
    engine
        .forget(&ForgetScope::Episode(record.sources[0].episode_id))
        .unwrap();
    engine.consolidate().unwrap();
    let back = tool(&engine);
    assert_eq!(
        back.iter()
            .map(|f| (f.value.as_str(), f.status, f.valid_to))
            .collect::<Vec<_>>(),
        [("Notion", FactStatus::Active, None)],
        "with the retraction forgotten, the tool is current again"
    );
}

/// A hedge, a question or another person's "stopped using" ends nothing.
#[rstest::rstest]
#[case::hedge("Maybe I stopped using Notion.")]
#[case::question("Did I stop using Notion?")]
#[case::other("Oskar stopped using Notion.")]
#[case::reported("Oskar says I stopped using Notion.")]
fn stopped_using_by_somebody_else_retracts_nothing(#[case] text: &str) {
    let dir = common::tempdir();
    let clock = clock();
    let mut engine = open(dir.path(), clock.clone());
    say(
        &mut engine,
        &clock,
        "s1",
        &[(0, "I use Notion for my notes.")],
    );
    say(&mut engine, &clock, "s2", &[(10, text)]);
    let tool = with(&engine.facts(true).unwrap(), "tool");
    assert_eq!(
        tool.iter()
            .map(|f| (f.value.as_str(), f.status))
            .collect::<Vec<_>>(),
        [("Notion", FactStatus::Active)],
        "`{text}` is not the user retracting their own tool"
    );
}

/// Open items stored before due times came from the event time kept the message time as
/// due. Consolidation gives them the due time their words name, once: a second run changes
/// nothing, and an item whose words name no time keeps no due time.
#[test]
fn an_old_open_item_due_at_its_message_time_gets_its_words_due_time() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    let clock = clock();
    let mut engine = open(&data, clock.clone());
    // day(0) is Monday 5 January 2026; "by Friday" is Friday 9 January, 23:59:59 +01:00.
    say(
        &mut engine,
        &clock,
        "s1",
        &[
            (0, "I'll send the signed contract to Jonas by Friday."),
            (0, "I'll call the plumber back about the leak."),
        ],
    );
    let open_items = engine.open_items(true).unwrap();
    let Some(contract) = open_items.iter().find(|o| o.text.contains("contract")) else {
        eprintln!("skipped: capture did not read the promise as a commitment: {open_items:?}");
        return;
    };
    let friday_end = FixedOffset::east_opt(3600)
        .unwrap()
        .with_ymd_and_hms(2026, 1, 9, 23, 59, 59)
        .unwrap();
    assert_eq!(
        contract.due_start,
        Some(friday_end),
        "setup: due as its words say"
    );
    drop(engine);
    // As an older build stored it: due at the message time (day 0, 09:00 +01:00).
    let conn = rusqlite::Connection::open(data.join("personal.sqlite")).unwrap();
    let said_at = "2026-01-05T09:00:00+01:00";
    let changed = conn
        .execute(
            "UPDATE open_items SET due_start = ?1, due_end = ?1 WHERE id = ?2",
            rusqlite::params![said_at, contract.id],
        )
        .unwrap();
    assert_eq!(changed, 1);
    drop(conn);
    let mut engine = open(&data, clock.clone());
    let stale = engine
        .open_items(true)
        .unwrap()
        .into_iter()
        .find(|o| o.id == contract.id)
        .unwrap();
    assert_eq!(
        stale.due_start,
        Some(day(0)),
        "setup: the old, wrong due time"
    );
    let first = engine.consolidate().unwrap();
    assert_eq!(
        first.open_items_redated, 1,
        "the one stale item is re-dated"
    );
    let fixed = engine
        .open_items(true)
        .unwrap()
        .into_iter()
        .find(|o| o.id == contract.id)
        .unwrap();
    assert_eq!(
        fixed.due_start,
        Some(friday_end),
        "due at the end of that Friday"
    );
    let plumber = engine
        .open_items(true)
        .unwrap()
        .into_iter()
        .find(|o| o.text.contains("plumber"));
    if let Some(p) = plumber {
        assert_eq!(p.due_start, None, "no time named, none made up");
    }
    let second = engine.consolidate().unwrap();
    assert_eq!(second.open_items_redated, 0, "idempotent");
}

/// In a chat, "I'll keep ya posted", "I know I'll be ok!" and "I'm gonna keep it up" are
/// talk, not tasks: no open item. A real promise in the same session still is one.
#[test]
fn social_talk_makes_no_open_item_and_a_promise_still_does() {
    let dir = common::tempdir();
    let clock = clock();
    let mut engine = open(dir.path(), clock.clone());
    say(
        &mut engine,
        &clock,
        "s1",
        &[
            (0, "I'll keep ya posted."),
            (0, "I know I'll be ok!"),
            (0, "I'm gonna keep it up."),
            (0, "We'll make some awesome memories!"),
            (0, "I'll send the signed contract to Jonas by Friday."),
        ],
    );
    let texts: Vec<String> = engine
        .open_items(true)
        .unwrap()
        .into_iter()
        .map(|o| o.text)
        .collect();
    for talk in ["posted", "be ok", "keep it up", "memories"] {
        assert!(
            !texts.iter().any(|t| t.contains(talk)),
            "`{talk}` is no task: {texts:?}"
        );
    }
    let kinds = engine.list_episodes(20, 0).unwrap();
    if kinds
        .iter()
        .any(|e| e.text.contains("contract") && e.kind == minne::model::ActKind::Commitment)
    {
        assert!(
            texts.iter().any(|t| t.contains("contract")),
            "the promise is an open item: {texts:?}"
        );
    }
}
