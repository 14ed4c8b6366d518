//! Time-anchored recall with the real model (issue 4): two memories say nearly the same thing
//! in different months, and a question naming a month gets that month's memory first, for
//! both months, so the order cannot come from the words alone.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::sync::Arc;

use chrono::{DateTime, Duration, FixedOffset, TimeZone, Utc};
use minne::clock::FixedClock;
use minne::import::{NewMessage, NewSession};
use minne::model::Role;
use minne::recall::RecallQuery;
use minne::{ContextName, Engine};

/// Days after 2025-02-01 12:00 UTC and what the user said then.
const TURNS: &[(i64, &str)] = &[
    // 4 March
    (
        31,
        "I donated my old winter coats to the homeless shelter downtown.",
    ),
    // 2 April
    (
        60,
        "My sister started a new job at the bakery on the corner.",
    ),
    // 12 May
    (
        100,
        "We watched the football final with friends at the pub.",
    ),
    // 11 June
    (130, "The tomatoes in the garden finally turned red."),
    // 15 July
    (
        164,
        "I donated a big box of books to the homeless shelter downtown.",
    ),
    // 10 August
    (
        190,
        "I booked train tickets to Oslo for the autumn holiday.",
    ),
];

/// A store of [`TURNS`], one session per turn, asked five days after the last (15 August).
fn store(dir: &std::path::Path) -> Engine {
    let t0: DateTime<FixedOffset> = Utc
        .with_ymd_and_hms(2025, 2, 1, 12, 0, 0)
        .unwrap()
        .fixed_offset();
    let clock = Arc::new(FixedClock::new(
        (t0 + Duration::days(195)).with_timezone(&Utc),
    ));
    let context = ContextName::new("personal").unwrap();
    let mut engine = Engine::open(dir, &context, common::real_embedder(), clock).unwrap();
    let sessions: Vec<NewSession> = TURNS
        .iter()
        .enumerate()
        .map(|(i, (day, text))| NewSession {
            key: format!("test:when:{i}"),
            messages: vec![NewMessage {
                external_id: Some(format!("m{i}")),
                role: Role::User,
                actor: "user".into(),
                text: (*text).to_string(),
                sent_at: t0 + Duration::days(*day),
            }],
        })
        .collect();
    engine
        .import_sessions(&sessions, "test", &mut |_| {})
        .unwrap();
    engine
}

fn first(engine: &Engine, query: &str) -> String {
    let hits = engine
        .recall(&RecallQuery {
            k: 10,
            threshold: Some(0.0),
            ..RecallQuery::new(query)
        })
        .unwrap();
    assert!(!hits.is_empty(), "`{query}` recalled nothing");
    hits[0].episode.text.clone()
}

#[test]
fn a_question_naming_a_month_gets_that_months_memory_first() {
    let dir = common::tempdir();
    let engine = store(dir.path());
    // Without a time the two donations tie on topic; one of them must come first for both
    // questions. Naming the month lifts the memory said in it: March 2025 is the coats
    // (4 March), July 2025 the books (15 July).
    assert!(
        first(
            &engine,
            "What did I donate to the homeless shelter in March 2025?"
        )
        .contains("winter coats")
    );
    assert!(
        first(
            &engine,
            "What did I donate to the homeless shelter in July 2025?"
        )
        .contains("books")
    );
    // A month without a year resolves against the clock (15 August 2025, past tense): the
    // last March, 2025.
    assert!(first(&engine, "What did I give to the homeless shelter in March?").contains("coats"));
}

#[test]
fn a_question_without_a_time_searches_every_month_alike() {
    let dir = common::tempdir();
    let engine = store(dir.path());
    // Both donations are about the question and neither is lifted: both come back, before
    // the memories about other things.
    let hits = engine
        .recall(&RecallQuery {
            k: 10,
            threshold: Some(0.0),
            ..RecallQuery::new("What did I donate to the homeless shelter?")
        })
        .unwrap();
    let top: Vec<&str> = hits
        .iter()
        .take(2)
        .map(|h| h.episode.text.as_str())
        .collect();
    assert!(top.iter().any(|t| t.contains("coats")), "{top:?}");
    assert!(top.iter().any(|t| t.contains("books")), "{top:?}");
}
