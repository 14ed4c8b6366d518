//! What a fresh-user tester found in consolidation, on real stores with the real model: a
//! note's label taken for a request to remember.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test panics on failure by design

mod common;

use common::consolidation::{open, say, with};

use minne::consolidate::FactStatus;
use minne::model::Role::User as U;

/// The values of the active facts of `attribute`.
fn active(engine: &minne::Engine, attribute: &str) -> Vec<String> {
    with(&engine.facts(false).unwrap(), attribute)
        .into_iter()
        .filter(|f| f.status == FactStatus::Active)
        .map(|f| f.value)
        .collect()
}

#[test]
fn note_3_the_build_server_is_slow_is_a_label_not_a_request_to_remember() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    say(
        &mut engine,
        &clock,
        "notes",
        &[
            (U, 0, "Note 3: the build server is slow."),
            (U, 0, "Note on the release: it moves to May."),
            (U, 0, "Note that the deploy key rotates every Monday."),
        ],
    );
    // Only "note that …" asks for something to be kept; the numbered and the titled note
    // are labels of pasted notes, and were stored as "3: the build server is slow".
    assert_eq!(
        active(&engine, "statement"),
        ["the deploy key rotates every Monday"],
        "one request to remember, in the user's words after the command"
    );
}
