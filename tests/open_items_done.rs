//! Issue 5: an open item is done when the user reports it done, and never on a negation. Each
//! case is a commitment on day 0, the user's report two days later in another session, then
//! consolidation, on a real store with the real model (capture reads the act kinds, the
//! consolidation closes items). The pairs of `tests/data/open_items_done.tsv` were written
//! before the rule (src/consolidate/done.rs), from a fresh-user tester's reports.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test panics on failure by design

mod common;

use common::consolidation::{open, say};

use std::path::Path;

use minne::model::Role::User as U;

/// The status of the open item `commitment` makes once `report` is said two days later:
/// `None` when capture and consolidation make no single open item of the commitment.
fn status_after(commitment: &str, report: &str) -> Option<String> {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(&mut engine, &clock, "s1", &[(U, 0, commitment)]);
    let items = engine.open_items(true).unwrap();
    let [item] = items.as_slice() else {
        return None;
    };
    let id = item.id;
    say(&mut engine, &clock, "s2", &[(U, 2, report)]);
    let all = engine.open_items(false).unwrap();
    Some(all.iter().find(|i| i.id == id).unwrap().status.clone())
}

/// (expected status, commitment, report) from the hand-made list.
fn pairs() -> Vec<(String, String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/open_items_done.tsv");
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let cols: Vec<&str> = l.split('\t').collect();
            assert_eq!(cols.len(), 3, "three tab-separated columns: {l}");
            (cols[0].into(), cols[1].into(), cols[2].into())
        })
        .collect()
}

#[test]
fn a_report_two_days_later_closes_the_item_and_a_negation_leaves_it_open() {
    // The tester's case: "book" is four letters, so the old five-letter prefix of "booked"
    // ("booke") never met it; the real stem of both is "book", and the dentist is the object.
    assert_eq!(
        status_after("I'll book a dentist appointment.", "I booked the dentist.").as_deref(),
        Some("done"),
        "the user booked what they promised to book: the item is done"
    );
    // The tester's worse case: a negated report used to close the item it denies.
    assert_eq!(
        status_after(
            "I'll book a dentist appointment.",
            "I didn't book the dentist yet, still need to."
        )
        .as_deref(),
        Some("open"),
        "\"didn't … yet, still need to\" says it is not done: the item stays open"
    );
    assert_eq!(
        status_after(
            "Jag ska skicka rapporten till Anna.",
            "Jag har skickat rapporten till Anna."
        )
        .as_deref(),
        Some("done"),
        "a Swedish perfect (\"har skickat\") of the promised verb (\"skicka\") closes it"
    );
    assert_eq!(
        status_after("I'll send Anna the report.", "Anna sent me the report.").as_deref(),
        Some("open"),
        "someone else did something like it: the user's own promise is still open"
    );
}

/// Every pair of the hand-made list whose commitment becomes an open item ends with the
/// expected status. Prints the score, which is the measurement docs/issue 5 quotes.
#[test]
fn the_hand_made_report_pairs_close_exactly_the_reported_items() {
    let mut right = 0;
    let mut wrong = Vec::new();
    let mut no_item = Vec::new();
    let all = pairs();
    assert!(all.len() >= 30, "the list holds 30 or more pairs");
    for (expected, commitment, report) in &all {
        match status_after(commitment, report) {
            None => no_item.push(commitment.clone()),
            Some(s) if s == *expected => right += 1,
            Some(s) => wrong.push(format!("{commitment} / {report}: {s}, expected {expected}")),
        }
    }
    eprintln!(
        "open items done: {right} of {} right, {} wrong, {} without an open item",
        all.len(),
        wrong.len(),
        no_item.len()
    );
    for w in &wrong {
        eprintln!("  wrong: {w}");
    }
    for c in &no_item {
        eprintln!("  no open item: {c}");
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
    assert!(
        no_item.is_empty(),
        "every commitment of the list makes an open item: {no_item:#?}"
    );
}
