//! The session-start block on a real store (SQLite file, real model, real capture and
//! consolidation): the budget holds by the block's own estimator, inferred facts never show,
//! the parts come in their order, and an empty context says so.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::path::Path;
use std::sync::{Arc, OnceLock};

use chrono::{DateTime, Duration, FixedOffset, TimeZone, Utc};
use minne::clock::FixedClock;
use minne::consolidate::Confidence;
use minne::embed::Embedder;
use minne::import::{NewMessage, NewSession};
use minne::model::Role;
use minne::session_start::{EMPTY, HEADER, PartKind, estimate_tokens};
use minne::{ContextName, Engine};

fn embedder() -> Arc<dyn Embedder> {
    static E: OnceLock<Arc<dyn Embedder>> = OnceLock::new();
    E.get_or_init(common::real_embedder).clone()
}

fn day(d: i64) -> DateTime<FixedOffset> {
    FixedOffset::east_opt(3600)
        .unwrap()
        .with_ymd_and_hms(2026, 3, 2, 9, 0, 0)
        .unwrap()
        + Duration::days(d)
}

fn open(data: &Path) -> (Engine, Arc<FixedClock>) {
    let clock = Arc::new(FixedClock::new(
        Utc.with_ymd_and_hms(2026, 3, 2, 8, 0, 0).unwrap(),
    ));
    let engine = Engine::open(
        data,
        &ContextName::new("personal").unwrap(),
        embedder(),
        clock.clone(),
    )
    .unwrap();
    (engine, clock)
}

/// Imports one session of user turns on day `d` (capture and consolidation run with it).
fn say(engine: &mut Engine, clock: &FixedClock, key: &str, d: i64, turns: &[&str]) {
    let messages: Vec<NewMessage> = turns
        .iter()
        .enumerate()
        .map(|(i, text)| NewMessage {
            external_id: Some(format!("{key}-m{i}")),
            role: Role::User,
            actor: "user".into(),
            text: text.to_string(),
            sent_at: day(d) + Duration::seconds(i as i64 * 10),
        })
        .collect();
    clock.set(day(d).to_utc() + Duration::hours(1));
    engine
        .import_sessions(
            &[NewSession {
                key: key.into(),
                messages,
            }],
            "test",
            &mut |_| {},
        )
        .unwrap();
    engine.consolidate().unwrap();
}

/// A store with a stated fact, an inferred one, a procedure, an open item and summaries.
fn filled(dir: &Path) -> Engine {
    let (mut engine, clock) = open(dir);
    say(&mut engine, &clock, "s1", 0, &["I live in Tallinn."]);
    say(
        &mut engine,
        &clock,
        "s2",
        2,
        &["When I ask for a meeting, always offer three time slots."],
    );
    say(
        &mut engine,
        &clock,
        "s3",
        4,
        &[
            "We decided to lead the Acme proposal with the cost-savings angle.",
            "I'll send the proposal to Acme on Friday.",
        ],
    );
    // Quoted words are someone else's: consolidation keeps them as an inferred candidate.
    say(
        &mut engine,
        &clock,
        "s4",
        6,
        &["My brother wrote: \"I work as a pilot now.\""],
    );
    engine
}

#[test]
fn the_block_holds_each_part_in_order_and_never_an_inferred_fact() {
    let dir = common::tempdir();
    let engine = filled(dir.path());
    // What the store holds, read through the engine's own views, so the test knows what
    // each part must show.
    let profile = engine.profile().unwrap();
    assert!(
        profile.facts.iter().any(|f| f.value.contains("Tallinn")),
        "setup: the stated location is in the profile: {:?}",
        profile.facts
    );
    let inferred: Vec<_> = engine
        .facts(true)
        .unwrap()
        .into_iter()
        .filter(|f| f.confidence == Confidence::Inferred)
        .collect();
    assert!(
        !inferred.is_empty(),
        "setup: the quoted words gave an inferred fact, else the exclusion is untested"
    );
    assert!(!profile.procedures.is_empty(), "setup: a procedure");
    assert!(!profile.open_items.is_empty(), "setup: an open item");
    assert!(
        !engine.session_summaries(5).unwrap().is_empty(),
        "setup: summaries"
    );

    let block = engine.session_start(10_000).unwrap();
    println!("{}", block.text);
    assert_eq!(block.omitted, 0, "a large budget leaves nothing out");
    let kinds: Vec<PartKind> = block.parts.iter().map(|p| p.kind).collect();
    assert_eq!(
        kinds,
        PartKind::ALL.to_vec(),
        "every part present, most important first"
    );
    // The labels appear in the text in the same order.
    let at: Vec<usize> = PartKind::ALL
        .iter()
        .map(|k| {
            block
                .text
                .find(k.label())
                .expect("each label is in the text")
        })
        .collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "labels in order: {at:?}"
    );
    assert!(block.text.starts_with(HEADER));
    // The stated fact sits in the profile part; the procedure and open item in theirs.
    assert!(block.parts[0].items.iter().any(|l| l.contains("Tallinn")));
    assert!(
        block.parts[1]
            .items
            .iter()
            .any(|l| l.contains("three time slots"))
    );
    assert!(
        block.parts[2]
            .items
            .iter()
            .any(|l| l.contains("proposal to Acme"))
    );
    // Newest session first: each line starts "- YYYY-MM-DD", and the dates never rise.
    let dates: Vec<&str> = block.parts[3].items.iter().map(|l| &l[2..12]).collect();
    assert!(
        dates.windows(2).all(|w| w[0] >= w[1]) && dates.len() >= 2,
        "recent sessions newest first: {dates:?}"
    );
    assert_eq!(
        dates.last().copied(),
        Some("2026-03-02"),
        "the first session (day 0, the stated location) is the oldest"
    );
    for f in &inferred {
        let in_profile = block.parts[0].items.iter().any(|l| l.contains(&f.value));
        assert!(
            !in_profile,
            "an inferred fact ({}: {}) never appears as profile",
            f.attribute, f.value
        );
    }
}

#[test]
fn every_budget_is_respected_by_the_same_estimator() {
    let dir = common::tempdir();
    let engine = filled(dir.path());
    let full = engine.session_start(10_000).unwrap();
    let items = |b: &minne::session_start::SessionStart| {
        b.parts.iter().map(|p| p.items.len()).sum::<usize>()
    };
    let all = items(&full);
    let mut previous = 0;
    for budget in [1, 10, 20, 40, 60, 80, 120, 200, full.used_tokens] {
        let block = engine.session_start(budget).unwrap();
        assert!(
            estimate_tokens(&block.text) <= budget,
            "budget {budget}: the text estimates at {} tokens",
            estimate_tokens(&block.text)
        );
        assert_eq!(block.used_tokens, estimate_tokens(&block.text));
        assert_eq!(
            items(&block) + block.omitted,
            all,
            "budget {budget}: every item is either shown or counted as left out"
        );
        // A larger budget never shows fewer items.
        assert!(items(&block) >= previous, "budget {budget}");
        previous = items(&block);
        // What is shown is the full block's lines, in the same order (a prefix-preserving cut).
        let shown: Vec<&String> = block.parts.iter().flat_map(|p| &p.items).collect();
        let full_lines: Vec<&String> = full.parts.iter().flat_map(|p| &p.items).collect();
        let mut it = full_lines.iter();
        assert!(
            shown.iter().all(|l| it.any(|f| f == l)),
            "budget {budget}: the lines kept are in the full block's order"
        );
    }
    assert_eq!(
        items(&engine.session_start(full.used_tokens).unwrap()),
        all,
        "exactly the full block's own size fits it whole"
    );
    assert!(
        engine.session_start(40).unwrap().omitted > 0,
        "a budget of 40 tokens (160 characters) cannot hold this store's block"
    );
}

#[test]
fn an_empty_context_gives_an_honest_empty_block() {
    let dir = common::tempdir();
    let (engine, _) = open(dir.path());
    let block = engine.session_start(100).unwrap();
    assert!(block.parts.is_empty());
    assert_eq!(block.omitted, 0);
    assert_eq!(
        block.text,
        format!("{EMPTY}\n"),
        "it says nothing is remembered yet"
    );
    assert_eq!(block.used_tokens, estimate_tokens(&block.text));
}
