//! What a fresh-user tester found in consolidation, on real stores with the real model: a
//! note's label taken for a request to remember; a quoted instruction made a procedure; a
//! first name alone superseding the full name.

#![allow(clippy::unwrap_used, clippy::expect_used)] // a test panics on failure by design

mod common;

use common::consolidation::{open, say, with};

use minne::consolidate::{FactStatus, ReviewKind};
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

#[test]
fn a_quoted_or_reported_instruction_is_no_procedure() {
    let dir = common::tempdir();
    let (mut engine, clock) = open(dir.path());
    // Each of these passes on somebody else's instruction; a fresh user's first one became
    // the procedure `My colleague wrote "Always send my files to the shared drive`.
    let passed_on = [
        r#"My colleague wrote "Always send my files to the shared drive"."#,
        "> Always send my files to the shared drive.",
        "My boss said, always cc him on invoices.",
        "Oskar told me: always book the window seat.",
        "Min kollega skrev: ”Skicka alltid mina filer till den delade enheten.”",
        "Min chef sa: svara alltid på engelska.",
        "Chefen sagde: „Skriv altid kort.“",
        "Min kollega skrev: »Send altid mine filer til det delte drev.«",
        // Pasted on the lines below the one that says whose words they are.
        "My colleague wrote:\nAlways send my files to the shared drive.",
        "Min chef skrev till mig:\nSvara alltid på engelska.",
    ];
    // Said three times, so a mere request pattern would have reached the review queue.
    let mut turns: Vec<(minne::model::Role, i64, &str)> = Vec::new();
    for d in 0..3 {
        turns.extend(passed_on.iter().map(|t| (U, d, *t)));
        turns.push((U, d, r#""Keep it short," my manager said."#));
    }
    // The user's own instructions, beside a verb of saying, in two languages.
    turns.push((U, 3, "As I said, always answer in Swedish."));
    turns.push((U, 3, "Som jag sa, svara alltid kort."));
    // A line that ends in a colon without a verb of saying introduces the user's own rule.
    turns.push((U, 3, "New rule for you:\nAlways offer three time slots."));
    say(&mut engine, &clock, "quotes", &turns);
    let procedures: Vec<String> = engine
        .procedures(false)
        .unwrap()
        .into_iter()
        .map(|p| p.instruction)
        .collect();
    assert_eq!(
        procedures,
        [
            "As I said, always answer in Swedish",
            "Som jag sa, svara alltid kort",
            "Always offer three time slots"
        ],
        "only the user's own instructions are procedures (seed 003: only from an explicit \
         instruction of the user's)"
    );
    let requests: Vec<_> = engine
        .review_queue(true)
        .unwrap()
        .into_iter()
        .filter(|r| r.kind == ReviewKind::ProcedureRequest || r.procedure.is_some())
        .collect();
    assert!(
        requests.is_empty(),
        "nobody else's words, however often passed on, ask to become a procedure: {requests:?}"
    );
}

/// The name facts of `engine`, every status: (value, status, support).
fn names(engine: &minne::Engine) -> Vec<(String, FactStatus, usize)> {
    with(&engine.facts(true).unwrap(), "name")
        .into_iter()
        .map(|f| (f.value, f.status, f.support))
        .collect()
}

#[test]
fn jag_heter_bertil_supports_bertil_andersson_and_does_not_supersede_it() {
    for (full, first) in [
        ("Jag heter Bertil Andersson.", "Jag heter Bertil."),
        ("My name is Bertil Andersson.", "My name is Bertil."),
        ("Jeg hedder Bertil Andersson.", "Jeg hedder Bertil."),
    ] {
        let dir = common::tempdir();
        let (mut engine, clock) = open(dir.path());
        say(&mut engine, &clock, "s1", &[(U, 0, full)]);
        say(&mut engine, &clock, "s2", &[(U, 1, first)]);
        // The first name alone is the same person's name: one fact, resting on both
        // messages, and nothing superseded.
        assert_eq!(
            names(&engine),
            [("Bertil Andersson".to_string(), FactStatus::Active, 2)],
            "`{first}` after `{full}` adds support to the full name"
        );
    }
}

#[test]
fn a_corrected_or_different_name_still_supersedes_the_full_name() {
    let cases = [
        // A correction applies at once (seed 003), whatever it shares with the held name.
        (
            "My name is Alice Tamm.",
            "Actually my name is Alex, not Alice.",
            "Alex",
        ),
        (
            "My name is Alice Tamm.",
            "Actually my name is Alice.",
            "Alice",
        ),
        (
            "Jag heter Bertil Andersson.",
            "Jag heter faktiskt Bert.",
            "Bert",
        ),
        // Another name altogether is a new value (a renamed user), as before.
        (
            "Jag heter Bertil Andersson.",
            "Jag heter Sven Nilsson.",
            "Sven Nilsson",
        ),
        ("Jeg hedder Bertil Andersson.", "Jeg hedder Berit.", "Berit"),
        // The full name after the first name alone is more than the held value, not part.
        (
            "My name is Bertil.",
            "My name is Bertil Andersson.",
            "Bertil Andersson",
        ),
    ];
    for (before, after, now) in cases {
        let dir = common::tempdir();
        let (mut engine, clock) = open(dir.path());
        say(&mut engine, &clock, "s1", &[(U, 0, before)]);
        say(&mut engine, &clock, "s2", &[(U, 1, after)]);
        let all = names(&engine);
        let active: Vec<&str> = all
            .iter()
            .filter(|(_, s, _)| *s == FactStatus::Active)
            .map(|(v, _, _)| v.as_str())
            .collect();
        assert_eq!(active, [now], "`{after}` after `{before}`: {all:?}");
        assert!(
            all.iter().any(|(_, s, _)| *s == FactStatus::Superseded),
            "the old name stays in history as superseded: {all:?}"
        );
    }
}
