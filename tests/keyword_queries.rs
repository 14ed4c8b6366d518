//! Bare keyword queries (issue 4: "with nothing relevant, the result is empty"): a search for
//! "PIN" on a store that never mentions one returns nothing, and a search for "pet" finds the
//! memory about the cat, with the real default model and the calibrated defaults.
//!
//! The cases are in `tests/data/keyword_queries.json`: twelve memories in English, Swedish and
//! Danish, and one-word or two-word queries none of which shares a word with the memory that
//! answers it, so every answer must come from a related word (pet: cat), a translation
//! (bil: Volvo), or nothing at all. What a bare word asks is read from its embedding alone: the
//! absent-focus rules have no question to read, and single-word cosines of e5 sit in one narrow
//! band for related and unrelated pairs alike (music/orchestra 0.91, wedding/party 0.92,
//! garden/grade 0.92, measured with this file), so no word rule separates them. What holds is
//! the threshold on the query's relevance to the whole memory:
//! - every query no memory is about comes back empty (16 of 16 measured, and required);
//! - of the 16 with an answer, the measured split is 7 right, 6 empty (under the threshold:
//!   "food" for sushi, "car" for a Volvo) and 3 wrong ("medication" gives the nurse, "jobb" and
//!   "medicin" the dentist). The test holds those figures as a floor and a ceiling, so a change
//!   that loses a right answer or adds a wrong one fails here; docs/benchmarks.md has the table.
//!
//! Run: `cargo test -p minne --test keyword_queries -- --nocapture` (prints each query's
//! result).
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use minne::clock::FixedClock;
use minne::embed::{self, Embedder, ModelChoice};
use minne::import::{NewMessage, NewSession};
use minne::model::Role;
use minne::recall::RecallQuery;
use minne::{ContextName, Engine};
use serde::Deserialize;

#[derive(Deserialize)]
struct Cases {
    memories: Vec<String>,
    queries: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    query: String,
    /// The start of the memory that should come first; `None`: nothing should come back.
    answer: Option<String>,
}

fn cases() -> Cases {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/keyword_queries.json"
    );
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// One store of the user's `memories`, one a day from 2026-03-01, asked a week after the last.
fn store(dir: &std::path::Path, memories: &[String], embedder: Arc<dyn Embedder>) -> Engine {
    let t0 = Utc.with_ymd_and_hms(2026, 3, 1, 9, 0, 0).unwrap();
    let clock = Arc::new(FixedClock::new(
        t0 + Duration::days(memories.len() as i64 + 7),
    ));
    let context = ContextName::new("personal").unwrap();
    let mut engine = Engine::open(dir, &context, embedder, clock).unwrap();
    let session = NewSession {
        key: "test:keywords".into(),
        messages: memories
            .iter()
            .enumerate()
            .map(|(i, text)| NewMessage {
                external_id: Some(format!("m{}", i + 1)),
                role: Role::User,
                actor: "user".into(),
                text: text.clone(),
                sent_at: (t0 + Duration::days(i as i64)).fixed_offset(),
            })
            .collect(),
    };
    engine
        .import_sessions(&[session], "test", &mut |_| {})
        .unwrap();
    engine
}

/// What one query brought back first, against what the file says it should.
enum Outcome {
    Right,
    Empty,
    Wrong,
}

/// Asks every case of the file with `model`: the outcomes of the cases with an answer, and the
/// cases without one that brought something back. Prints each result.
fn outcomes(model: ModelChoice) -> (Vec<Outcome>, Vec<String>) {
    let cases = cases();
    let embedder = embed::load(&common::models_dir(), model).unwrap_or_else(|e| {
        panic!("{e}\nthe integration tests need the real model: run scripts/setup-models.sh")
    });
    let dir = common::tempdir();
    let engine = store(dir.path(), &cases.memories, embedder);
    let mut answered = Vec::new();
    let mut intruded = Vec::new();
    for case in &cases.queries {
        let got = engine
            .recall_explained(&RecallQuery::new(&case.query), 3)
            .unwrap();
        let first = got.hits.first().map(|h| h.episode.text.clone());
        println!(
            "{model:?} {:>14} → {}",
            case.query,
            first.as_deref().unwrap_or("(nothing)")
        );
        match (&case.answer, &first) {
            (None, None) => {}
            (None, Some(first)) => {
                intruded.push(format!("{:?} brought back {first:?}", case.query))
            }
            (Some(_), None) => answered.push(Outcome::Empty),
            (Some(answer), Some(first)) if first.starts_with(answer.as_str()) => {
                answered.push(Outcome::Right);
            }
            (Some(_), Some(_)) => answered.push(Outcome::Wrong),
        }
    }
    (answered, intruded)
}

#[test]
fn keyword_queries_find_the_related_memory_or_nothing_with_the_default_model() {
    let (answered, intruded) = outcomes(minne::settings::DEFAULT_MODEL);
    assert!(
        intruded.is_empty(),
        "a keyword no memory is about must come back empty:\n{}",
        intruded.join("\n")
    );
    let right = answered
        .iter()
        .filter(|o| matches!(o, Outcome::Right))
        .count();
    let wrong = answered
        .iter()
        .filter(|o| matches!(o, Outcome::Wrong))
        .count();
    assert_eq!(
        answered.len(),
        16,
        "the file has 16 answerable keyword queries"
    );
    // The figures measured when this test was written (module doc): fewer right or more wrong
    // is a regression.
    assert!(
        right >= 7,
        "{right} of 16 keyword queries found their memory, 7 before"
    );
    assert!(
        wrong <= 3,
        "{wrong} of 16 keyword queries brought back another memory, 3 before"
    );
}
