//! Walking skeleton on real data: LoCoMo conv-26 imported with the real model, then the
//! first 20 single-hop questions asked through recall.
#![allow(clippy::unwrap_used, clippy::expect_used)] // a test fails loudly, by design

mod common;

use std::sync::Arc;

use chrono::{TimeZone, Utc};
use minne::clock::FixedClock;
use minne::eval::locomo::{normalise_evidence, questions};
use minne::import::{ImportFormat, ImportOptions};
use minne::recall::RecallQuery;
use minne::{ContextName, Engine};

#[test]
fn locomo_conv26_single_hop_evidence_is_recalled() {
    let Some(path) = common::shared_data("locomo/locomo-dev.json") else {
        return;
    };
    let dir = common::tempdir();
    // A fixed "now" keeps retrievability, and so the ranking, the same on every run.
    let clock = Arc::new(FixedClock::new(
        Utc.with_ymd_and_hms(2026, 11, 29, 12, 0, 0).unwrap(),
    ));
    let context = ContextName::new("personal").unwrap();
    let mut engine = Engine::open(dir.path(), &context, common::real_embedder(), clock).unwrap();
    let options = ImportOptions {
        sample: Some("conv-26".into()),
        ..ImportOptions::new(ImportFormat::Locomo)
    };
    let report = engine.import(&path, &options, &mut |_| {}).unwrap();
    assert_eq!(
        report.messages_added, report.messages_seen,
        "a fresh context stores every turn"
    );
    assert!(
        report.messages_seen > 400,
        "conv-26 has 419 turns, got {}",
        report.messages_seen
    );

    // By rule: the first 20 questions of category 4 (single-hop) in file order.
    let asked: Vec<_> = questions(&path, "conv-26")
        .unwrap()
        .into_iter()
        .filter(|q| q.category == 4)
        .take(20)
        .collect();
    assert_eq!(asked.len(), 20);
    let mut found = 0;
    for q in &asked {
        let evidence: Vec<String> = q
            .evidence
            .iter()
            .flat_map(|e| normalise_evidence(e))
            .collect();
        // Ranking quality before any threshold: the top 10 by score.
        // No threshold and no abstention rule: this measures the ranking alone.
        let base = RecallQuery::new(&q.question);
        let query = RecallQuery {
            k: 10,
            threshold: Some(f64::NEG_INFINITY),
            ranking: minne::recall::Ranking {
                abstain: None,
                ..base.ranking
            },
            ..base
        };
        let hits = engine.recall(&query).unwrap();
        assert_eq!(hits.len(), 10, "without a threshold recall fills k");
        let hit = hits.iter().any(|h| {
            h.episode
                .message_external_id
                .as_ref()
                .is_some_and(|id| evidence.contains(id))
        });
        found += usize::from(hit);
    }
    let fraction = found as f64 / asked.len() as f64;
    println!("conv-26 single-hop: evidence in top 10 for {found}/20 = {fraction:.2}");
    assert!(
        fraction >= 0.5,
        "plain dense retrieval finds the evidence turn in the top 10 for at least half of these; got {fraction:.2}"
    );
}
