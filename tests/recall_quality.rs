//! Recall on small real stores, with the real model and the calibrated defaults: a word every
//! memory shares still counts in a store of a few memories, a question about nothing but a
//! person returns the memories naming them (en, sv), a paraphrase in another word form is
//! found, memories that disagree come back together, newer first, and the prompt block says
//! "you said X on <date>, but Y on <date>". Regression tests for the scenario checks
//! MEM-03.c1, MEM-07.c1, MEM-09.c1 and MEM-12.c2 (shared/cases), whose recall came back empty.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::sync::Arc;

use chrono::{DateTime, Duration, FixedOffset, TimeZone, Utc};
use minne::clock::FixedClock;
use minne::import::{NewMessage, NewSession};
use minne::model::Role;
use minne::recall::{RecallQuery, prompt};
use minne::{ContextName, Engine};

/// A store holding `turns` (role, text, days after 2025-02-01), asked 5 days after the last.
fn store(dir: &std::path::Path, turns: &[(Role, &str, i64)]) -> Engine {
    let t0: DateTime<FixedOffset> = Utc
        .with_ymd_and_hms(2025, 2, 1, 12, 0, 0)
        .unwrap()
        .fixed_offset();
    let last = turns.iter().map(|t| t.2).max().unwrap_or(0);
    let clock = Arc::new(FixedClock::new(
        (t0 + Duration::days(last + 5)).with_timezone(&Utc),
    ));
    let context = ContextName::new("personal").unwrap();
    let mut engine = Engine::open(dir, &context, common::real_embedder(), clock).unwrap();
    let session = NewSession {
        key: "test:quality".into(),
        messages: turns
            .iter()
            .enumerate()
            .map(|(i, (role, text, day))| NewMessage {
                external_id: Some(format!("m{}", i + 1)),
                role: *role,
                actor: if *role == Role::User {
                    "user".into()
                } else {
                    "assistant".into()
                },
                text: text.to_string(),
                sent_at: t0 + Duration::days(*day) + Duration::seconds(i as i64),
            })
            .collect(),
    };
    engine
        .import_sessions(&[session], "test", &mut |_| {})
        .unwrap();
    engine
}

fn texts(engine: &Engine, query: &str) -> Vec<String> {
    engine
        .recall(&RecallQuery {
            k: 10,
            ..RecallQuery::new(query)
        })
        .unwrap()
        .into_iter()
        .map(|h| h.episode.text)
        .collect()
}

#[test]
fn mem_09_c1_a_word_form_of_the_question_finds_the_one_memory() {
    let dir = common::tempdir();
    let engine = store(
        dir.path(),
        &[(
            Role::User,
            "Picking snacks for Sunday's hike. Remember peanuts are a no-go for me, allergy.",
            0,
        )],
    );
    let got = texts(&engine, "Do I have any food allergies?");
    // "allergies" and "allergy" share the Porter stem `allergi`; in a one-memory store
    // FTS5's own IDF of that stem is clamped to 1e-6, so before the background IDF the
    // lexical side gave nothing and the memory fell under the threshold.
    assert!(
        got.iter().any(|t| t.contains("peanuts")),
        "the allergy memory must be recalled: {got:?}"
    );
}

#[test]
fn mem_07_c1_and_mem_12_c2_a_question_about_a_person_returns_what_names_them() {
    let dir = common::tempdir();
    let engine = store(
        dir.path(),
        &[
            (
                Role::User,
                "Lunch with Jonas from the design team today – he's vegan, so we're going to the falafel place.",
                0,
            ),
            (
                Role::User,
                "The printer on floor 3 is out of toner again.",
                1,
            ),
        ],
    );
    let got = texts(&engine, "What do you know about Jonas?");
    // Without the name the question has no content word at all ("know" and "about" say
    // nothing of the topic), so the name itself is what the lexical side looks for.
    assert!(
        got.first().is_some_and(|t| t.contains("vegan")),
        "the memory naming Jonas must come first: {got:?}"
    );
    // The next turn may follow it (neighbour propagation: at most 0.7 × its relevance),
    // but never ahead of it.
    let pos = |w: &str| got.iter().position(|t| t.contains(w));
    assert!(
        pos("printer").is_none_or(|p| p > 0),
        "a memory not naming Jonas ranks below the one that does: {got:?}"
    );

    let dir = common::tempdir();
    let engine = store(
        dir.path(),
        &[
            (
                Role::User,
                "Min kompis Oskar avskyr fotboll, men hans pappa har ändå anmält honom till ett fotbollsläger i sommar. Han är skitsur.",
                0,
            ),
            (
                Role::User,
                "Själv ska jag på Malmö FF-matchen på lördag, det ser jag fram emot.",
                0,
            ),
        ],
    );
    let got = texts(&engine, "Vad vet du om Oskar?");
    assert!(
        got.first().is_some_and(|t| t.contains("Oskar")),
        "the memory naming Oskar comes first: {got:?}"
    );
}

#[test]
fn mem_03_c1_a_word_in_every_memory_of_a_small_store_still_counts() {
    let dir = common::tempdir();
    let engine = store(
        dir.path(),
        &[
            (
                Role::User,
                "Jeg elsker koriander – smid gerne en ekstra håndfuld i alle opskrifter til mig.",
                0,
            ),
            (
                Role::User,
                "Ret lige det der: jeg kan ikke længere lide koriander, det smager af sæbe for mig nu. Foreslå det ikke mere.",
                42,
            ),
        ],
    );
    let got = texts(&engine, "Skal der koriander i mine tacos i aften?");
    // `koriander` is in 2 of 2 memories: FTS5's IDF is then negative and clamped to 1e-6;
    // with IDF computed against a background of 200 memories it weighs ln(198.5 / 2.5) ≈ 4.37.
    assert!(
        got.iter().any(|t| t.contains("sæbe")),
        "the correction must be recalled: {got:?}"
    );
}

#[test]
fn memories_in_conflict_come_back_together_newer_first_and_the_block_says_so() {
    let dir = common::tempdir();
    let mut engine = store(
        dir.path(),
        &[
            (Role::User, "I live in Gothenburg.", 0),
            (Role::Assistant, "Noted.", 0),
            (
                Role::User,
                "Actually, correction: I moved, I live in Malmö now, not Gothenburg.",
                30,
            ),
        ],
    );
    engine.consolidate().unwrap();
    let hits = engine
        .recall(&RecallQuery {
            k: 10,
            ..RecallQuery::new("Where do I live?")
        })
        .unwrap();
    let pos = |word: &str| hits.iter().position(|h| h.episode.text.contains(word));
    let (Some(new), Some(old)) = (pos("Malmö"), pos("I live in Gothenburg.")) else {
        panic!(
            "both the statement and its correction must be recalled: {:?}",
            hits.iter().map(|h| &h.episode.text).collect::<Vec<_>>()
        );
    };
    assert!(new < old, "the newer statement ranks first");
    assert!(
        hits[new].conflict_with.contains(&hits[old].episode.id)
            && hits[old].conflict_with.contains(&hits[new].episode.id),
        "each is marked as in conflict with the other"
    );
    let block = prompt::block(&hits);
    println!("{block}");
    // The older was said on 2025-02-01, the correction 30 days later (UTC days).
    assert!(
        block.contains("you said \"I live in Gothenburg.\" on 2025-02-01, but \"Actually"),
        "the block names both statements with their dates, older first: {block}"
    );
    assert!(
        block.contains("on 2025-03-03"),
        "the newer one's date: {block}"
    );
}

/// Notes the user wrote one after another are separate statements: a search for "dentist"
/// brings back the note about the dentist and not the next one, "We are moving to
/// Copenhagen", whose full-text row held the note before it as its context (a tester's store;
/// migration 14). A reply still carries the question it answers: "Where did you go on
/// holiday?" before "Lisbon, with Karin." finds that reply for "holiday", a word only the
/// question holds.
#[test]
fn a_note_is_not_found_by_the_words_of_the_users_note_before_it() {
    let dir = common::tempdir();
    let engine = store(
        dir.path(),
        &[
            (
                Role::User,
                "My dentist appointment is on Friday at nine.",
                0,
            ),
            (Role::User, "We are moving to Copenhagen next spring.", 0),
            (Role::User, "I live in Malmö, near the station.", 0),
            (Role::User, "My bank PIN is 4711.", 0),
            (Role::Assistant, "Where did you go on holiday?", 1),
            (Role::User, "Lisbon, with Karin.", 1),
        ],
    );
    let dentist = texts(&engine, "dentist");
    assert!(
        dentist
            .first()
            .is_some_and(|t| t.starts_with("My dentist appointment")),
        "the note about the dentist first: {dentist:#?}"
    );
    assert!(
        !dentist.iter().any(|t| t.contains("Copenhagen")),
        "the next note shares no word with the query: {dentist:#?}"
    );
    let live = texts(&engine, "Where do I live?");
    assert!(
        !live.iter().any(|t| t.contains("PIN")),
        "the PIN note followed the one about Malmö, and says nothing of where: {live:#?}"
    );
    let holiday = texts(&engine, "holiday");
    assert!(
        holiday.iter().any(|t| t.starts_with("Lisbon")),
        "the reply to the question about the holiday: {holiday:#?}"
    );
}

/// A store made before migration 14 holds the user's own previous note as an episode's
/// context; opening it rewrites those rows, and keeps the context an assistant's question
/// gives its reply.
#[test]
fn migration_14_clears_the_context_the_same_speaker_gave_and_keeps_another_speakers() {
    let dir = common::tempdir();
    let data = dir.path().join("data");
    let db = data.join("personal.sqlite");
    let open = || {
        Engine::open_with(
            &data,
            &ContextName::new("personal").unwrap(),
            &minne::keys::KeyConfig::unencrypted(),
            common::real_embedder(),
            Arc::new(FixedClock::new(
                Utc.with_ymd_and_hms(2025, 3, 1, 0, 0, 0).unwrap(),
            )),
        )
        .unwrap()
    };
    let t0 = Utc
        .with_ymd_and_hms(2025, 2, 1, 12, 0, 0)
        .unwrap()
        .fixed_offset();
    let turns = [
        (
            Role::User,
            "user",
            "My dentist appointment is on Friday at nine.",
        ),
        (
            Role::User,
            "user",
            "We are moving to Copenhagen next spring.",
        ),
        (Role::Assistant, "assistant", "Where did you go on holiday?"),
        (Role::User, "user", "Lisbon, with Karin."),
    ];
    {
        let mut engine = open();
        let session = NewSession {
            key: "test:migration14".into(),
            messages: turns
                .iter()
                .enumerate()
                .map(|(i, (role, actor, text))| NewMessage {
                    external_id: Some(format!("m{}", i + 1)),
                    role: *role,
                    actor: (*actor).into(),
                    text: (*text).into(),
                    sent_at: t0 + Duration::seconds(i as i64),
                })
                .collect(),
        };
        engine
            .import_sessions(&[session], "test", &mut |_| {})
            .unwrap();
    }
    let context_of = |conn: &rusqlite::Connection, start: &str| -> String {
        conn.query_row(
            "SELECT f.context FROM episodes_fts f JOIN episodes e ON e.id = f.rowid
             WHERE e.text LIKE ?1 || '%'",
            [start],
            |r| r.get(0),
        )
        .unwrap()
    };
    {
        // As migration 8 filled it: every episode's context is the message before its own.
        let conn = rusqlite::Connection::open(&db).unwrap();
        assert_eq!(
            context_of(&conn, "We are moving"),
            "",
            "a new row follows the rule"
        );
        conn.execute_batch(
            "UPDATE episodes_fts SET context = 'My dentist appointment is on Friday at nine.'
             WHERE rowid = (SELECT id FROM episodes WHERE text LIKE 'We are moving%');
             PRAGMA user_version = 13;",
        )
        .unwrap();
    }
    drop(open());
    let conn = rusqlite::Connection::open(&db).unwrap();
    assert_eq!(
        context_of(&conn, "We are moving"),
        "",
        "the user's own note before is no context"
    );
    assert_eq!(
        context_of(&conn, "Lisbon"),
        "Where did you go on holiday?",
        "the assistant's question stays the reply's context"
    );
}

/// Two sources of one profile attribute are lifted alike (profile.rs), and still rank by their
/// own words: "What's my cat's name?" puts the cat before the dog, which tied with it at the
/// lift's 0.75 and came first for a tester as the newer memory. In this store the tie shows
/// on the Swedish and Danish questions, whose own relevance to either memory is under 0.75
/// (measured: without the tie-break "Vad heter min katt?" put the dog first).
#[test]
fn a_lifted_profile_source_ranks_by_its_own_words_among_the_lifted() {
    let dir = common::tempdir();
    let mut engine = store(
        dir.path(),
        &[
            (
                Role::User,
                "My dentist appointment is on Friday at nine.",
                0,
            ),
            (Role::User, "We are moving to Copenhagen next spring.", 0),
            (Role::User, "I live in Malmö, near the station.", 0),
            (Role::User, "My cat is called Misse.", 0),
            (Role::User, "My dog is called Rex.", 0),
        ],
    );
    engine.consolidate().unwrap();
    // Both are sources of an active fact the questions ask about, or the lift is not tested.
    let facts = engine.facts(false).unwrap();
    assert!(facts.len() >= 2, "a fact from each memory: {facts:#?}");
    for (query, first) in [
        ("What's my cat's name?", "My cat"),
        ("What is my dog called?", "My dog"),
        ("Vad heter min katt?", "My cat"),
        ("Hvad hedder min kat?", "My cat"),
        ("What's the name of my pet cat?", "My cat"),
        ("Vad heter vår hund?", "My dog"),
    ] {
        let got = texts(&engine, query);
        assert!(
            got.first().is_some_and(|t| t.starts_with(first)),
            "{query}: {got:#?}"
        );
    }
}

/// A query with no word in it ("?", "...", "🙂🙂") names nothing to look for, and recall says so
/// instead of returning the memory nearest to nothing (a tester's "?" brought back the dentist
/// appointment at a score of 0.40, over the threshold). A query of one word is still asked.
#[test]
fn a_query_of_punctuation_or_symbols_returns_nothing_and_says_why() {
    let dir = common::tempdir();
    let engine = store(
        dir.path(),
        &[
            (
                Role::User,
                "My dentist appointment is on Friday at nine.",
                0,
            ),
            (Role::User, "I live in Malmö, near the station.", 0),
        ],
    );
    for query in ["?", "...", "🙂🙂", "?!"] {
        // With no threshold every memory clears it (in a larger store "?" put the dentist
        // over the calibrated one), so only the rule holds them back.
        let got = engine
            .recall_explained(
                &RecallQuery {
                    threshold: Some(0.0),
                    ..RecallQuery::new(query)
                },
                5,
            )
            .unwrap();
        assert!(got.hits.is_empty(), "{query:?}: {:#?}", got.hits);
        assert_eq!(
            got.abstained,
            Some(minne::recall::Abstention::NoWords),
            "{query:?}: {:#?}",
            got.near_misses
        );
    }
    assert!(
        texts(&engine, "dentist")
            .first()
            .is_some_and(|t| t.starts_with("My dentist")),
        "a word is looked for"
    );
}
