//! The retrieval harness: the same questions asked of Minne's ranking and of two baselines
//! (BM25 alone, dense cosine alone) in one process over the same stored embeddings, scored on
//! the ranking before the threshold and, beside it, on what clears the threshold.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use chrono::{DateTime, TimeZone, Utc};
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::metrics::{self, mean, percentile};
use crate::clock::FixedClock;
use crate::context::ContextName;
use crate::embed::Embedder;
use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::recall::{DEFAULT_THRESHOLD, Ranking, RecallHit, RecallQuery, Weights};

/// Episodes asked for per question: deep enough that the largest k of distinct turns is
/// filled even when messages yield several episodes.
pub const DEPTH: usize = 160;

/// One ranking system of the comparison.
#[derive(Debug, Clone, Serialize)]
pub struct System {
    /// `minne`, `bm25` or `dense`.
    pub name: String,
    /// How it computes relevance.
    pub ranking: Ranking,
    /// How it weighs relevance, retrievability and salience.
    pub weights: Weights,
    /// The threshold its `_thresholded` metrics use; `None`: the embedding model's calibrated
    /// default ([`crate::recall::default_threshold_for`]).
    pub threshold: Option<f64>,
}

/// Minne's default ranking and the two baselines; the baselines rank by their raw relevance
/// only (no retrievability, salience or person bonus).
pub fn systems() -> Vec<System> {
    let raw = Weights {
        similarity: 1.0,
        retrievability: 0.0,
        salience: 0.0,
        person: 0.0,
        gated: false,
    };
    vec![
        System {
            name: "minne".into(),
            ranking: Ranking::default(),
            weights: Weights::default(),
            threshold: None,
        },
        System {
            name: "bm25".into(),
            ranking: Ranking::bm25_only(),
            weights: raw,
            threshold: None,
        },
        System {
            name: "dense".into(),
            ranking: Ranking::dense_only(),
            weights: raw,
            threshold: None,
        },
    ]
}

/// Variants of Minne's ranking with one part changed or removed, for ablation runs
/// (`minne eval ... --ablate`): which parts earn their place, measured on both datasets.
pub fn ablations() -> Vec<System> {
    let base = Ranking::default();
    let w = Weights::default();
    let v = |name: &str, ranking: Ranking, weights: Weights| System {
        name: name.into(),
        ranking,
        weights,
        threshold: None,
    };
    vec![
        v(
            "minne-minmax",
            Ranking {
                fusion: crate::recall::Fusion::MinMax,
                ..base
            },
            w,
        ),
        v(
            "minne-rrf",
            Ranking {
                fusion: crate::recall::Fusion::Rrf { k: 60.0 },
                ..base
            },
            w,
        ),
        v(
            "minne-neighbour-any",
            Ranking {
                neighbour_qa: false,
                ..base
            },
            w,
        ),
        v(
            "minne-lexical-full-weight",
            Ranking {
                lexical_coverage: false,
                ..base
            },
            w,
        ),
        v(
            "minne-soft-or",
            Ranking {
                fusion: crate::recall::Fusion::SoftOr,
                ..base
            },
            w,
        ),
        v(
            "minne-raw-cosine",
            Ranking {
                common_scale: false,
                ..base
            },
            w,
        ),
        v(
            "minne-v3-weights",
            Ranking {
                dense: 0.5,
                lexical: 0.5,
                context: 0.5,
                ..base
            },
            Weights {
                person: 0.1,
                retrievability: 0.1,
                salience: 0.1,
                ..w
            },
        ),
        v(
            "minne-v4-neighbours",
            Ranking {
                reply: 0.7,
                asking: 1.0,
                time_lift: 0.3,
                ..base
            },
            w,
        ),
        v("minne-reply-0.7", Ranking { reply: 0.7, ..base }, w),
        v("minne-reply-1", Ranking { reply: 1.0, ..base }, w),
        v(
            "minne-asking-1",
            Ranking {
                asking: 1.0,
                ..base
            },
            w,
        ),
        v(
            "minne-asking-0.7",
            Ranking {
                asking: 0.7,
                ..base
            },
            w,
        ),
        v(
            "minne-lift-0.3",
            Ranking {
                time_lift: 0.3,
                ..base
            },
            w,
        ),
        v(
            "minne-no-time-lift",
            Ranking {
                time_lift: 0.0,
                ..base
            },
            w,
        ),
        v(
            "minne-kind-lift",
            Ranking {
                kind_lift: crate::recall::kinds::MEASURED_LIFT,
                ..base
            },
            w,
        ),
        v(
            "minne-dense-message-0",
            Ranking {
                dense_message: 0.0,
                ..base
            },
            w,
        ),
        v(
            "minne-dense-message-0.7",
            Ranking {
                dense_message: 0.7,
                ..base
            },
            w,
        ),
        v(
            "minne-no-context",
            Ranking {
                context: 0.0,
                ..base
            },
            w,
        ),
        v(
            "minne-context-0.5",
            Ranking {
                context: 0.5,
                ..base
            },
            w,
        ),
        v(
            "minne-message-0",
            Ranking {
                message: 0.0,
                ..base
            },
            w,
        ),
        v(
            "minne-message-1",
            Ranking {
                message: 1.0,
                ..base
            },
            w,
        ),
        v(
            "minne-no-abstain",
            Ranking {
                abstain: None,
                ..base
            },
            w,
        ),
        v(
            "minne-no-unrelated",
            Ranking {
                abstain: Some(crate::recall::AbstainRule {
                    unrelated: false,
                    ..crate::recall::AbstainRule::default()
                }),
                ..base
            },
            w,
        ),
        v(
            "minne-no-modifiers",
            Ranking {
                abstain: Some(crate::recall::AbstainRule {
                    modifiers: false,
                    ..crate::recall::AbstainRule::default()
                }),
                ..base
            },
            w,
        ),
        v(
            "minne-v6-abstain",
            Ranking {
                abstain: Some(crate::recall::AbstainRule {
                    proper_nouns: false,
                    determined_nouns: false,
                    same_language_only: false,
                    ..crate::recall::AbstainRule::default()
                }),
                ..base
            },
            w,
        ),
        v(
            "minne-no-proper",
            Ranking {
                abstain: Some(crate::recall::AbstainRule {
                    proper_nouns: false,
                    ..crate::recall::AbstainRule::default()
                }),
                ..base
            },
            w,
        ),
        v(
            "minne-no-determined",
            Ranking {
                abstain: Some(crate::recall::AbstainRule {
                    determined_nouns: false,
                    ..crate::recall::AbstainRule::default()
                }),
                ..base
            },
            w,
        ),
        v(
            "minne-any-language",
            Ranking {
                abstain: Some(crate::recall::AbstainRule {
                    same_language_only: false,
                    ..crate::recall::AbstainRule::default()
                }),
                ..base
            },
            w,
        ),
        v(
            "minne-split-phrases",
            Ranking {
                abstain: Some(crate::recall::AbstainRule {
                    split_phrases: true,
                    ..crate::recall::AbstainRule::default()
                }),
                ..base
            },
            w,
        ),
        v(
            "minne-absent-share-1",
            Ranking {
                abstain: Some(crate::recall::AbstainRule {
                    absent_share: 1.0,
                    ..crate::recall::AbstainRule::default()
                }),
                ..base
            },
            w,
        ),
        v(
            "minne-abstain-missing-0.8",
            Ranking {
                abstain: Some(crate::recall::AbstainRule {
                    missing_share: 0.8,
                    ..crate::recall::AbstainRule::default()
                }),
                ..base
            },
            w,
        ),
        v(
            "minne-abstain-missing-only",
            Ranking {
                abstain: Some(crate::recall::AbstainRule {
                    person_ratio: 0.0,
                    missing_share: 0.5,
                    ..crate::recall::AbstainRule::default()
                }),
                ..base
            },
            w,
        ),
        v(
            "minne-abstain-ratio-0.6",
            Ranking {
                abstain: Some(crate::recall::AbstainRule {
                    person_ratio: 0.6,
                    ..crate::recall::AbstainRule::default()
                }),
                ..base
            },
            w,
        ),
        v(
            "minne-abstain-missing-0.5",
            Ranking {
                abstain: Some(crate::recall::AbstainRule {
                    missing_share: 0.5,
                    ..crate::recall::AbstainRule::default()
                }),
                ..base
            },
            w,
        ),
        v(
            "minne-no-neighbour",
            Ranking {
                neighbour: 0.0,
                ..base
            },
            w,
        ),
        v(
            "minne-no-people",
            Ranking {
                people: false,
                ..base
            },
            w,
        ),
        v(
            "minne-no-bm25",
            Ranking {
                lexical: 0.0,
                ..base
            },
            w,
        ),
        v("minne-no-dense", Ranking { dense: 0.0, ..base }, w),
        v(
            "minne-dense-0.3",
            Ranking {
                dense: 0.3,
                lexical: 0.7,
                ..base
            },
            w,
        ),
        v(
            "minne-dense-0.7",
            Ranking {
                dense: 0.7,
                lexical: 0.3,
                ..base
            },
            w,
        ),
        v(
            "minne-person-0",
            Ranking { ..base },
            Weights { person: 0.0, ..w },
        ),
        v(
            "minne-person-0.1",
            Ranking { ..base },
            Weights { person: 0.1, ..w },
        ),
        v(
            "minne-person-0.3",
            Ranking { ..base },
            Weights { person: 0.3, ..w },
        ),
        v(
            "minne-ungated",
            Ranking { ..base },
            Weights { gated: false, ..w },
        ),
        v(
            "minne-relevance-only",
            Ranking { ..base },
            Weights {
                similarity: 1.0,
                retrievability: 0.0,
                salience: 0.0,
                ..w
            },
        ),
    ]
}

/// What one system returned for one question, reduced to ids.
#[derive(Debug, Clone)]
pub struct Outcome {
    /// The category (LoCoMo `1`..`5`, LongMemEval question type).
    pub category: String,
    /// False for questions whose answer is not in the history (LoCoMo 5, LongMemEval `_abs`).
    pub answerable: bool,
    /// Evidence turn ids.
    pub relevant_turns: HashSet<String>,
    /// Evidence session ids (LongMemEval only).
    pub relevant_sessions: HashSet<String>,
    /// Turn ids best first, each once, with the best score of its episodes.
    pub turns: Vec<(String, f64)>,
    /// Session ids best first, each once, with the best score of its episodes.
    pub sessions: Vec<(String, f64)>,
    /// Time of the recall call, milliseconds (query embedding included).
    pub latency_ms: f64,
    /// Whether the system abstained: its result is empty whatever the scores.
    pub abstained: bool,
}

/// Asks `text` of `engine` with `system`, without threshold, `DEPTH` episodes deep. Returns
/// the ranking, the latency in milliseconds, and whether `system` would abstain (its
/// [`crate::recall::AbstainRule`], on the focus read as the product reads it), which the
/// `_thresholded` metrics and the abstain rate count as an empty result.
pub fn ask(engine: &Engine, text: &str, system: &System) -> Result<(Vec<RecallHit>, f64, bool)> {
    let query = RecallQuery {
        k: DEPTH,
        threshold: Some(f64::NEG_INFINITY),
        weights: system.weights,
        ranking: system.ranking,
        apply_abstention: false,
        ..RecallQuery::new(text)
    };
    let explained = engine.recall_explained(&query, 0)?;
    Ok((
        explained.hits,
        explained.took_ms,
        explained.abstained.is_some(),
    ))
}

/// Ids best first, each once, with the best score among its episodes.
pub type Ranked = Vec<(String, f64)>;

/// Turn and session ids of hits, best first, each once, with its best score. `turn_id` maps
/// a hit to its turn id (`None`: no id), `session_id` a turn id to its session.
pub fn reduce(
    hits: &[RecallHit],
    turn_id: impl Fn(&RecallHit) -> Option<String>,
    session_id: impl Fn(&str) -> String,
) -> (Ranked, Ranked) {
    let mut turns: Vec<(String, f64)> = Vec::new();
    let mut sessions: Vec<(String, f64)> = Vec::new();
    for h in hits {
        let Some(t) = turn_id(h) else { continue };
        let s = session_id(&t);
        if !turns.iter().any(|(x, _)| *x == t) {
            turns.push((t, h.score));
        }
        if !sessions.iter().any(|(x, _)| *x == s) {
            sessions.push((s, h.score));
        }
    }
    (turns, sessions)
}

/// Which metrics a dataset reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Protocol {
    /// LoCoMo: `turn_recall@K` (share of evidence turns), `precision@K`, `ndcg@K`.
    Locomo,
    /// LongMemEval: `session_recall_any@K`, `session_recall_all@K`, `ndcg@K` (session),
    /// `turn_recall_any@K`, `turn_recall_all@K`, `turn_ndcg@K`.
    LongMemEval,
}

impl Protocol {
    /// The cut-offs reported.
    pub fn ks(self) -> &'static [usize] {
        match self {
            Protocol::Locomo => &[1, 5, 10, 25, 50],
            Protocol::LongMemEval => &[1, 3, 5, 10, 30, 50],
        }
    }
}

/// The ids of `xs` at `threshold` (`None`: before the threshold, all of them). After the
/// threshold, an outcome that abstained keeps none.
fn ids_of(o: &Outcome, xs: &[(String, f64)], threshold: Option<f64>) -> Vec<String> {
    if threshold.is_some() && o.abstained {
        return Vec::new();
    }
    ids(xs, threshold)
}

fn ids(xs: &[(String, f64)], threshold: Option<f64>) -> Vec<String> {
    xs.iter()
        .filter(|(_, s)| threshold.is_none_or(|t| *s >= t))
        .map(|(id, _)| id.clone())
        .collect()
}

/// The flat metrics of `outcomes` (before the threshold, and `_thresholded` at `threshold`).
pub fn summarise(
    protocol: Protocol,
    ks: &[usize],
    outcomes: &[&Outcome],
    threshold: f64,
) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    let answerable: Vec<&&Outcome> = outcomes.iter().filter(|o| o.answerable).collect();
    let mut put = |key: String, values: Vec<f64>| {
        if let Some(m) = mean(&values) {
            out.insert(key, m);
        }
    };
    for &k in ks {
        for (suffix, thr) in [("", None), ("_thresholded", Some(threshold))] {
            let per = |f: &dyn Fn(&Outcome, Option<f64>) -> Option<f64>| -> Vec<f64> {
                answerable.iter().filter_map(|o| f(o, thr)).collect()
            };
            match protocol {
                Protocol::Locomo => {
                    put(
                        format!("turn_recall@{k}{suffix}"),
                        per(&|o, t| {
                            metrics::recall_at(&ids_of(o, &o.turns, t), &o.relevant_turns, k)
                        }),
                    );
                    put(
                        format!("precision@{k}{suffix}"),
                        per(&|o, t| {
                            metrics::precision_at(&ids_of(o, &o.turns, t), &o.relevant_turns, k)
                        }),
                    );
                    put(
                        format!("ndcg@{k}{suffix}"),
                        per(&|o, t| {
                            metrics::ndcg_at(&ids_of(o, &o.turns, t), &o.relevant_turns, k)
                        }),
                    );
                }
                Protocol::LongMemEval => {
                    put(
                        format!("session_recall_any@{k}{suffix}"),
                        per(&|o, t| {
                            metrics::recall_any_at(
                                &ids_of(o, &o.sessions, t),
                                &o.relevant_sessions,
                                k,
                            )
                        }),
                    );
                    put(
                        format!("session_recall_all@{k}{suffix}"),
                        per(&|o, t| {
                            metrics::recall_all_at(
                                &ids_of(o, &o.sessions, t),
                                &o.relevant_sessions,
                                k,
                            )
                        }),
                    );
                    put(
                        format!("ndcg@{k}{suffix}"),
                        per(&|o, t| {
                            metrics::ndcg_at(&ids_of(o, &o.sessions, t), &o.relevant_sessions, k)
                        }),
                    );
                    put(
                        format!("turn_recall_any@{k}{suffix}"),
                        per(&|o, t| {
                            metrics::recall_any_at(&ids_of(o, &o.turns, t), &o.relevant_turns, k)
                        }),
                    );
                    put(
                        format!("turn_recall_all@{k}{suffix}"),
                        per(&|o, t| {
                            metrics::recall_all_at(&ids_of(o, &o.turns, t), &o.relevant_turns, k)
                        }),
                    );
                    put(
                        format!("turn_ndcg@{k}{suffix}"),
                        per(&|o, t| {
                            metrics::ndcg_at(&ids_of(o, &o.turns, t), &o.relevant_turns, k)
                        }),
                    );
                }
            }
        }
    }
    let cleared =
        |o: &Outcome| !o.abstained && o.turns.first().is_some_and(|(_, s)| *s >= threshold);
    put(
        "answered_rate".into(),
        answerable
            .iter()
            .map(|o| f64::from(u8::from(cleared(o))))
            .collect(),
    );
    put(
        "abstain_rate".into(),
        outcomes
            .iter()
            .filter(|o| !o.answerable)
            .map(|o| f64::from(u8::from(!cleared(o))))
            .collect(),
    );
    let latencies: Vec<f64> = outcomes.iter().map(|o| o.latency_ms).collect();
    if let (Some(p50), Some(p95)) = (percentile(&latencies, 50.0), percentile(&latencies, 95.0)) {
        out.insert("latency_p50_ms".into(), p50);
        out.insert("latency_p95_ms".into(), p95);
    }
    let top: Vec<(f64, bool)> = outcomes
        .iter()
        .map(|o| {
            (
                o.turns.first().map_or(f64::NEG_INFINITY, |t| t.1),
                o.answerable,
            )
        })
        .collect();
    if let Some(a) = metrics::auroc(&top) {
        out.insert("top_score_auroc".into(), a);
    }
    out.insert("questions".into(), outcomes.len() as f64);
    out
}

/// One point of the threshold sweep.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct SweepPoint {
    /// The threshold.
    pub threshold: f64,
    /// Answerable questions with at least one result.
    pub answered_rate: f64,
    /// Unanswerable questions with no result.
    pub abstain_rate: f64,
    /// Mean evidence recall at k = 10 of answerable questions after the threshold.
    pub recall_at_10: f64,
}

/// Sweeps the threshold from 0 to 1.2 in steps of 0.01 over one system's outcomes.
pub fn sweep(outcomes: &[&Outcome], recall_level_sessions: bool) -> Vec<SweepPoint> {
    (0..=120)
        .map(|i| {
            let t = f64::from(i) / 100.0;
            let cleared =
                |o: &Outcome| !o.abstained && o.turns.first().is_some_and(|(_, s)| *s >= t);
            let ans: Vec<&&Outcome> = outcomes.iter().filter(|o| o.answerable).collect();
            let answered = mean(
                &ans.iter()
                    .map(|o| f64::from(u8::from(cleared(o))))
                    .collect::<Vec<_>>(),
            )
            .unwrap_or(0.0);
            let abstain = mean(
                &outcomes
                    .iter()
                    .filter(|o| !o.answerable)
                    .map(|o| f64::from(u8::from(!cleared(o))))
                    .collect::<Vec<_>>(),
            )
            .unwrap_or(0.0);
            let recall = mean(
                &ans.iter()
                    .filter_map(|o| {
                        if recall_level_sessions {
                            metrics::recall_any_at(
                                &ids_of(o, &o.sessions, Some(t)),
                                &o.relevant_sessions,
                                10,
                            )
                        } else {
                            metrics::recall_at(&ids_of(o, &o.turns, Some(t)), &o.relevant_turns, 10)
                        }
                    })
                    .collect::<Vec<_>>(),
            )
            .unwrap_or(0.0);
            SweepPoint {
                threshold: t,
                answered_rate: answered,
                abstain_rate: abstain,
                recall_at_10: recall,
            }
        })
        .collect()
}

/// The threshold picked from a sweep: the highest one at which at least `min_answered` of
/// the answerable questions still get a result (seed 000: an irrelevant memory is worse than
/// none, so abstain as much as answering allows).
pub fn pick_threshold(points: &[SweepPoint], min_answered: f64) -> Option<f64> {
    points
        .iter()
        .filter(|p| p.answered_rate >= min_answered)
        .map(|p| p.threshold)
        .reduce(f64::max)
}

/// A finished evaluation of one dataset.
#[derive(Debug, Clone)]
pub struct Report {
    /// `locomo` or `longmemeval`.
    pub dataset: String,
    /// The embedding model's id.
    pub model: String,
    /// The metrics protocol.
    pub protocol: Protocol,
    /// The cut-offs.
    pub ks: Vec<usize>,
    /// Per system name, the outcomes of every question.
    pub outcomes: BTreeMap<String, Vec<Outcome>>,
    /// The systems' thresholds.
    pub thresholds: BTreeMap<String, f64>,
    /// Counts about the data: evidence ids unreadable or pointing nowhere, questions skipped.
    pub data_notes: BTreeMap<String, usize>,
}

impl Report {
    /// The metrics of one system: flat keys and `by_category`.
    pub fn system_metrics(&self, name: &str) -> Option<Value> {
        let outcomes = self.outcomes.get(name)?;
        let thr = self
            .thresholds
            .get(name)
            .copied()
            .unwrap_or(DEFAULT_THRESHOLD);
        let all: Vec<&Outcome> = outcomes.iter().collect();
        let mut flat: Map<String, Value> = summarise(self.protocol, &self.ks, &all, thr)
            .into_iter()
            .map(|(k, v)| (k, json!(v)))
            .collect();
        let mut cats: BTreeMap<String, Vec<&Outcome>> = BTreeMap::new();
        for o in outcomes {
            cats.entry(o.category.clone()).or_default().push(o);
        }
        let by: Map<String, Value> = cats
            .into_iter()
            .map(|(c, os)| (c, json!(summarise(self.protocol, &self.ks, &os, thr))))
            .collect();
        flat.insert("threshold".into(), json!(thr));
        flat.insert("by_category".into(), Value::Object(by));
        Some(Value::Object(flat))
    }

    /// The threshold sweep of Minne's ranking.
    pub fn sweep(&self) -> Vec<SweepPoint> {
        let os: Vec<&Outcome> = self
            .outcomes
            .get("minne")
            .map(|v| v.iter().collect())
            .unwrap_or_default();
        sweep(&os, self.protocol == Protocol::LongMemEval)
    }

    /// `{"dataset", "model", "systems": {name: metrics}, "threshold_sweep", "data"}`.
    pub fn to_json(&self) -> Value {
        let systems: Map<String, Value> = self
            .outcomes
            .keys()
            .filter_map(|n| Some((n.clone(), self.system_metrics(n)?)))
            .collect();
        let sweep = self.sweep();
        json!({
            "dataset": self.dataset,
            "model": self.model,
            "systems": systems,
            "threshold_sweep": sweep,
            "suggested_threshold_answered_0_90": pick_threshold(&sweep, 0.90),
            "data": self.data_notes,
        })
    }

    /// A Markdown table: one row per system, the main metrics as columns.
    pub fn table(&self) -> String {
        let keys: Vec<String> = match self.protocol {
            Protocol::Locomo => {
                let mut k: Vec<String> =
                    self.ks.iter().map(|k| format!("turn_recall@{k}")).collect();
                k.extend(
                    [
                        "ndcg@10",
                        "precision@10",
                        "turn_recall@10_thresholded",
                        "answered_rate",
                        "abstain_rate",
                        "top_score_auroc",
                    ]
                    .map(String::from),
                );
                k
            }
            Protocol::LongMemEval => {
                let mut k: Vec<String> = [1, 5, 10]
                    .iter()
                    .map(|k| format!("session_recall_any@{k}"))
                    .collect();
                k.extend(
                    [
                        "ndcg@5",
                        "turn_recall_all@10",
                        "turn_recall_any@10",
                        "session_recall_any@5_thresholded",
                        "answered_rate",
                        "abstain_rate",
                        "top_score_auroc",
                    ]
                    .map(String::from),
                );
                k
            }
        };
        let mut cols = keys.clone();
        cols.extend(["latency_p50_ms", "latency_p95_ms"].map(String::from));
        let mut s = format!(
            "{} ({}), {} questions\n\n| system | {} |\n|---|{}\n",
            self.dataset,
            self.model,
            self.outcomes.values().next().map_or(0, Vec::len),
            cols.join(" | "),
            "---|".repeat(cols.len())
        );
        let mut names: Vec<&str> = ["minne", "bm25", "dense"]
            .into_iter()
            .filter(|n| self.outcomes.contains_key(*n))
            .collect();
        names.extend(
            self.outcomes
                .keys()
                .map(String::as_str)
                .filter(|n| !["minne", "bm25", "dense"].contains(n)),
        );
        for name in names {
            let Some(Value::Object(m)) = self.system_metrics(name) else {
                continue;
            };
            let cells: Vec<String> = cols
                .iter()
                .map(|k| {
                    m.get(k).and_then(Value::as_f64).map_or("–".into(), |v| {
                        if k.starts_with("latency") {
                            format!("{v:.1}")
                        } else {
                            format!("{v:.3}")
                        }
                    })
                })
                .collect();
            s.push_str(&format!("| {name} | {} |\n", cells.join(" | ")));
        }
        if let Some(Value::Object(m)) = self.system_metrics("minne")
            && let Some(Value::Object(by)) = m.get("by_category")
        {
            let main = if self.protocol == Protocol::Locomo {
                "turn_recall@10"
            } else {
                "session_recall_any@5"
            };
            s.push_str(&format!("\nminne by category ({main}; abstain_rate where unanswerable):\n\n| category | n | {main} | abstain_rate |\n|---|---|---|---|\n"));
            for (c, v) in by {
                let g = |k: &str| {
                    v.get(k)
                        .and_then(Value::as_f64)
                        .map_or("–".into(), |x| format!("{x:.3}"))
                };
                s.push_str(&format!(
                    "| {c} | {} | {} | {} |\n",
                    g("questions"),
                    g(main),
                    g("abstain_rate")
                ));
            }
        }
        if !self.data_notes.is_empty() {
            s.push_str(&format!("\ndata: {:?}\n", self.data_notes));
        }
        s
    }
}

/// When an evaluation's clock stands unless the data dates its questions: 2030-01-01 00:00
/// UTC, after every message of the public data sets.
pub fn after_the_data() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2030, 1, 1, 0, 0, 0)
        .single()
        .unwrap_or_default()
}

/// A fresh `personal` context in a new [`ScratchDir`], on a [`FixedClock`] standing at `at`:
/// what each evaluated conversation is imported into. Bind the three in this order, so the
/// engine closes before its folder is removed. Errors: the folder or the context cannot be
/// made ([`Error::Io`], [`Error::Database`]).
pub fn scratch_engine(
    embedder: Arc<dyn Embedder>,
    at: DateTime<Utc>,
) -> Result<(ScratchDir, Arc<FixedClock>, Engine)> {
    let scratch = ScratchDir::new()?;
    let clock = Arc::new(FixedClock::new(at));
    let context = ContextName::new("personal")?;
    let engine = Engine::open(scratch.path(), &context, embedder, clock.clone())?;
    Ok((scratch, clock, engine))
}

/// A fresh, empty data folder for one evaluation context, removed on drop.
#[derive(Debug)]
pub struct ScratchDir(PathBuf);

impl ScratchDir {
    /// Creates `minne-eval-<pid>-<n>` under the system temp folder.
    pub fn new() -> Result<ScratchDir> {
        static N: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "minne-eval-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        if path.exists() {
            std::fs::remove_dir_all(&path).map_err(|source| Error::Io {
                action: "cannot clear",
                path: path.clone(),
                source,
            })?;
        }
        std::fs::create_dir_all(&path).map_err(|source| Error::Io {
            action: "cannot create",
            path: path.clone(),
            source,
        })?;
        Ok(ScratchDir(path))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }
}

impl ScratchDir {
    /// The key dir the engine keeps beside a data dir outside the platform's:
    /// `<folder>.keys` (crate::keys). It goes with the folder, or every run left one in the
    /// temp folder (a fresh user counted them).
    fn keys(&self) -> PathBuf {
        let mut name = self.0.as_os_str().to_owned();
        name.push(".keys");
        PathBuf::from(name)
    }
}

impl Drop for ScratchDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
        let _ = std::fs::remove_dir_all(self.keys());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scratch store made by the engine leaves nothing behind: neither the folder nor the
    /// key dir the engine put beside it.
    #[test]
    fn a_scratch_dir_takes_its_key_dir_with_it() {
        let scratch = ScratchDir::new().unwrap();
        let (path, keys) = (scratch.path().to_path_buf(), scratch.keys());
        let context = ContextName::new("personal").unwrap();
        let engine = Engine::open(
            &path,
            &context,
            Arc::new(crate::embed::HashEmbedder::new(16)),
            Arc::new(FixedClock::new(chrono::Utc::now())),
        )
        .unwrap();
        drop(engine);
        assert!(keys.exists(), "the engine made {}", keys.display());
        drop(scratch);
        assert!(!path.exists() && !keys.exists(), "both are gone");
    }

    fn outcome(answerable: bool, abstained: bool, turns: &[(&str, f64)]) -> Outcome {
        Outcome {
            category: "1".into(),
            answerable,
            relevant_turns: ["t1".to_string()].into_iter().collect(),
            relevant_sessions: HashSet::new(),
            turns: turns.iter().map(|(t, s)| (t.to_string(), *s)).collect(),
            sessions: Vec::new(),
            latency_ms: 1.0,
            abstained,
        }
    }

    #[test]
    fn an_abstained_outcome_counts_as_empty_only_after_the_threshold() {
        let a = outcome(true, false, &[("t1", 0.5), ("t2", 0.2)]);
        let b = outcome(true, true, &[("t1", 0.9)]);
        let c = outcome(false, true, &[("x", 0.9)]);
        let m = summarise(Protocol::Locomo, &[1], &[&a, &b, &c], 0.3);
        // Before the threshold both answerable questions have t1 first: recall@1 = 1.
        assert_eq!(m["turn_recall@1"], 1.0);
        // After it, a keeps t1 (0.5 ≥ 0.3) and b abstained: (1 + 0) / 2.
        assert_eq!(m["turn_recall@1_thresholded"], 0.5);
        assert_eq!(
            m["answered_rate"], 0.5,
            "b abstained although it scored 0.9"
        );
        assert_eq!(m["abstain_rate"], 1.0, "c abstained although it scored 0.9");
    }
}
