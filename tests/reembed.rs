//! A store embedded with one model keeps working when the model changes (the default moved from
//! all-MiniLM-L6-v2 to multilingual-e5-small): the first recall re-embeds every episode with
//! the new model and drops the old vectors, in the engine, so every front end gets it.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::sync::Arc;

use chrono::{FixedOffset, TimeZone, Utc};
use minne::clock::FixedClock;
use minne::embed::{self, ModelChoice};
use minne::import::{NewMessage, NewSession};
use minne::model::Role;
use minne::recall::{Ranking, RecallQuery};
use minne::{ContextName, Engine};

#[test]
fn a_model_change_re_embeds_on_the_first_recall() {
    let dir = common::tempdir();
    let clock = Arc::new(FixedClock::new(
        Utc.with_ymd_and_hms(2026, 5, 1, 12, 0, 0).unwrap(),
    ));
    let personal = ContextName::new("personal").unwrap();
    let texts = [
        "Jag har bokat tandläkaren till torsdag klockan halv nio.",
        "The team moved the product launch to the second week of November.",
        "Remember to water the tomato plants on the balcony every evening.",
    ];
    {
        let minilm = embed::load(&common::models_dir(), ModelChoice::MiniLm).unwrap();
        let mut engine = Engine::open(dir.path(), &personal, minilm, clock.clone()).unwrap();
        let at = FixedOffset::east_opt(3600)
            .unwrap()
            .with_ymd_and_hms(2026, 4, 30, 9, 0, 0)
            .unwrap();
        engine
            .import_sessions(
                &[NewSession {
                    key: "s1".into(),
                    messages: texts
                        .iter()
                        .enumerate()
                        .map(|(i, t)| NewMessage {
                            external_id: Some(format!("m{i}")),
                            role: Role::User,
                            actor: "user".into(),
                            text: (*t).into(),
                            sent_at: at + chrono::Duration::minutes(i as i64),
                        })
                        .collect(),
                }],
                "test",
                &mut |_| {},
            )
            .unwrap();
        assert_eq!(
            engine.capture_status(0).unwrap().embeddings_pending,
            0,
            "MiniLM embedded every episode at capture"
        );
    }

    // The same store, opened with e5: no episode has an e5 vector yet.
    let e5 = embed::load(&common::models_dir(), ModelChoice::E5Small)
        .expect("e5 is part of the default set-up: run scripts/setup-models.sh");
    let engine = Engine::open(dir.path(), &personal, e5, clock).unwrap();
    let episodes = engine.episode_count().unwrap();
    assert!(episodes >= 3, "one episode per message at least");
    assert_eq!(
        engine.capture_status(0).unwrap().embeddings_pending as u64,
        episodes,
        "after the model change every episode lacks a vector from the new model"
    );

    // An English question about the Swedish memory: only e5's vectors can find it (no shared
    // words for BM25), so a hit proves recall scored against freshly made e5 vectors.
    let hits = engine
        .recall(&RecallQuery {
            k: 1,
            threshold: Some(f64::NEG_INFINITY),
            // Recall's abstention compares the question's words with the memory's; across
            // languages they share none, and this test is about the vectors, not abstention.
            ranking: Ranking {
                abstain: None,
                ..Ranking::default()
            },
            ..RecallQuery::new("When is my dentist appointment?")
        })
        .unwrap();
    assert_eq!(engine.capture_status(0).unwrap().embeddings_pending, 0);
    assert!(
        hits.first()
            .is_some_and(|h| h.episode.text.contains("tandläkaren")),
        "the Swedish memory answers the English question: {hits:?}"
    );
    assert!(
        hits[0].parts.similarity > 0.5,
        "its similarity is an e5 cosine (e5's band is about 0.74 to 0.96), not 0 for a missing \
         vector: {}",
        hits[0].parts.similarity
    );
    // A second recall finds nothing left to do.
    assert_eq!(engine.ensure_embedded(&mut |_| {}).unwrap(), 0);
}
